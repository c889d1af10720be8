//! The state file: a quota store as simple JSON, so that runs of
//! `kafka-quota` can build on each other like commands against one cluster.
//!
//! ```json
//! {
//!   "quotas": [
//!     { "entity": { "client-id": null, "user": "alice" },
//!       "values": { "producer_byte_rate": 1024.0 } }
//!   ]
//! }
//! ```
//!
//! An entity maps entity types (`user`, `client-id`, `ip`) to a name, or to
//! `null` for the default entity. Values are stored as Kafka stores them
//! (doubles: bytes/s, percent of a thread, per second); a `NaN` value,
//! which Kafka accepts, is the string `"NaN"`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use quota_engine::{EntityName, EntityType, QuotaEntity, QuotaKey, QuotaStore};
use serde::{Deserialize, Serialize};

/// The file's top level.
#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    /// One entry per entity with at least one value.
    quotas: Vec<StateEntry>,
}

/// One entity and its values.
#[derive(Debug, Serialize, Deserialize)]
struct StateEntry {
    /// Entity type -> name (`null` = the default entity).
    entity: BTreeMap<String, Option<String>>,
    /// Quota key -> value; `NaN` (which Kafka accepts) and infinities are
    /// written as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`
    /// ([`quota_engine::json_f64`]), since JSON numbers cannot hold them.
    #[serde(with = "quota_engine::json_f64::map")]
    values: BTreeMap<String, f64>,
}

/// Reads a state file; a missing file is an empty store.
///
/// # Errors
///
/// When the file cannot be read, is not the JSON above, or holds an entity
/// or value Kafka would reject (the message names the entry).
pub(crate) fn load(path: &Path) -> Result<QuotaStore> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(QuotaStore::new()),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read the state file {}", path.display()))
        }
    };
    parse(&text, &path.display().to_string())
}

/// Whether `text` has the state file's shape: a JSON object whose only key
/// is `quotas`, a list of objects that each have exactly `entity` and
/// `values`. Scenario JSON never has this shape (its quotas have `entity`,
/// `key` and `value`), so `resolve --quotas` and `convert` can take the
/// file `apply --state` writes.
pub(crate) fn is_state_file(text: &str) -> bool {
    let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    let Some(serde_json::Value::Array(entries)) = top.get("quotas") else {
        return false;
    };
    top.len() == 1
        && entries.iter().all(|e| {
            e.as_object().is_some_and(|o| {
                o.len() == 2 && o.contains_key("entity") && o.contains_key("values")
            })
        })
}

/// Reads the text of a state file; `source` names it in messages.
///
/// # Errors
///
/// As [`load`]: not the JSON above, or an entity or value Kafka would
/// reject (the message names the entry).
pub(crate) fn parse(text: &str, source: &str) -> Result<QuotaStore> {
    let mut store = QuotaStore::new();
    let file: StateFile = serde_json::from_str(text)
        .with_context(|| format!("the state file {source} is not quota-state JSON"))?;
    for (index, entry) in file.quotas.iter().enumerate() {
        let parts: Vec<(EntityType, EntityName)> = entry
            .entity
            .iter()
            .map(|(t, n)| {
                EntityType::from_wire(t)
                    .map(|et| (et, EntityName::from_option(n.as_deref())))
                    .ok_or_else(|| {
                        anyhow!("entry {index} of {source} has the unknown entity type `{t}`")
                    })
            })
            .collect::<Result<_>>()?;
        let entity = QuotaEntity::from_parts(&parts).ok_or_else(|| {
            anyhow!(
                "entry {index} of {source} is not a user, client-id, user and client-id, or ip entity"
            )
        })?;
        for (key, value) in &entry.values {
            let k = QuotaKey::from_name(key).ok_or_else(|| {
                anyhow!("entry {index} of {source} has the unknown quota key `{key}`")
            })?;
            store.set(&entity, k, *value).map_err(|e| {
                anyhow!("entry {index} of {source} is rejected by Kafka's rules: {e}")
            })?;
        }
    }
    Ok(store)
}

/// Writes the store (through a temporary file renamed into place).
///
/// # Errors
///
/// When the file cannot be written.
pub(crate) fn save(path: &Path, store: &QuotaStore) -> Result<()> {
    let file = StateFile {
        quotas: store
            .entries()
            .map(|(entity, values)| StateEntry {
                entity: entity
                    .parts()
                    .into_iter()
                    .map(|(t, n)| (t.as_str().to_owned(), n.as_option().map(str::to_owned)))
                    .collect(),
                values: values
                    .iter()
                    .map(|(k, v)| (k.as_str().to_owned(), *v))
                    .collect(),
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&file)? + "\n";
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot replace the state file {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_rejects_bad_entries() {
        let dir =
            std::env::temp_dir().join(format!("kafka-quota-state-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let _ = std::fs::remove_file(&path);
        assert!(load(&path).unwrap().is_empty());
        let mut store = QuotaStore::new();
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("alice".into()),
            client_id: EntityName::Default,
        };
        store
            .set(&pair, QuotaKey::ProducerByteRate, 1024.0)
            .unwrap();
        store
            .set(
                &QuotaEntity::Ip(EntityName::Default),
                QuotaKey::ConnectionCreationRate,
                5.0,
            )
            .unwrap();
        save(&path, &store).unwrap();
        assert_eq!(load(&path).unwrap(), store);
        std::fs::write(
            &path,
            r#"{"quotas":[{"entity":{"user":"a"},"values":{"producer_byte_rate":0.0}}]}"#,
        )
        .unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.contains("entry 0") && e.contains("rejected"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_the_state_shape_is_a_state_file() {
        assert!(is_state_file(
            r#"{"quotas":[{"entity":{"user":null},"values":{}}]}"#
        ));
        assert!(is_state_file(r#"{"quotas":[]}"#));
        // Scenario JSON: quotas have entity, key and value; or there is more than quotas.
        assert!(!is_state_file(
            r#"{"quotas":[{"entity":{"user":"a"},"key":"producer_byte_rate","value":1.0}]}"#
        ));
        assert!(!is_state_file(r#"{"name":"x","quotas":[]}"#));
        assert!(!is_state_file("kafka-configs.sh --describe"));
        let store = parse(
            r#"{"quotas":[{"entity":{"user":"a"},"values":{"producer_byte_rate":"NaN"}}]}"#,
            "s.json",
        )
        .unwrap();
        assert!(store.get(&QuotaEntity::user("a")).unwrap()[&QuotaKey::ProducerByteRate].is_nan());
    }
}
