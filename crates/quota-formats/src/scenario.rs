//! The scenario file: a whole playground scenario (quotas, broker
//! settings, connections, workloads, seed) as versioned JSON, and its
//! permalink.
//!
//! A scenario file is an envelope around the engine's
//! [`quota_engine::sim::Scenario`]:
//!
//! ```json
//! {
//!   "format": "kafka-quota-playground/scenario",
//!   "version": 1,
//!   "scenario": { "quotas": [...], "connections": [...], ... }
//! }
//! ```
//!
//! Every field, unit and default is documented in `docs/scenario-format.md`
//! at the workspace root. Unknown fields are rejected at every level, and
//! an error names the path to the field (`scenario.connections[0].lisener`)
//! with its line and column (`serde_path_to_error`). A bare scenario
//! object (no envelope) is read as version 1 with a note.
//!
//! The permalink ([`crate::permalink`]) holds the bare scenario:
//! `v1.` + base64url(raw DEFLATE(scenario JSON)), after `#` in the
//! playground's URL; [`link`] builds such a URL.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use quota_engine::sim::{QuotaSetting, Scenario};
use quota_engine::QuotaStore;

use crate::error::{Error, ErrorKind, Position};

/// The `format` value of a scenario file.
pub const FORMAT: &str = "kafka-quota-playground/scenario";

/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// The envelope: format name, version, and the payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope<T> {
    /// Always [`FORMAT`].
    pub format: String,
    /// The schema version, [`VERSION`].
    pub version: u32,
    /// The payload.
    pub scenario: T,
}

/// A scenario read from a file, with notes (e.g. "no envelope").
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioFile<T = Scenario> {
    /// The scenario.
    pub scenario: T,
    /// What the reader noticed, one sentence each.
    pub notes: Vec<String>,
}

/// The message of a serde_json error without its ` at line L column C`.
fn bare_message(e: &serde_json::Error) -> String {
    let m = e.to_string();
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_owned(),
        None => m,
    }
}

fn json_position(e: &serde_json::Error) -> Position {
    Position::new(
        u32::try_from(e.line().max(1)).unwrap_or(u32::MAX),
        u32::try_from(e.column().max(1)).unwrap_or(u32::MAX),
    )
}

/// Maps a path-tracking serde error to this crate's error.
fn path_error(e: serde_path_to_error::Error<serde_json::Error>, prefix: &str) -> Error {
    let path = e.path().to_string();
    let path = match (prefix, path.as_str()) {
        ("", p) => p.to_owned(),
        (pre, ".") => pre.to_owned(),
        (pre, p) => format!("{pre}.{p}"),
    };
    let inner = e.inner();
    let message = bare_message(inner);
    let (found, wanted) = match message.split_once(", expected ") {
        Some((f, w)) => (f.to_owned(), w.to_owned()),
        // serde's wording when a value of the wrong type or spelling meets
        // a field whose values are a fixed list (e.g. `"acks": 0`).
        None if message == "expected value" => (
            "a value this field does not take (a number where text is expected, or the reverse?)".to_owned(),
            "one of the values the scenario format lists for this field".to_owned(),
        ),
        None => (message.clone(), "a valid scenario".to_owned()),
    };
    Error::new(
        json_position(inner),
        ErrorKind::Syntax {
            expected: format!("{wanted} at `{path}`"),
            found,
        },
    )
}

/// Reads a scenario file into any payload type (the engine's
/// [`Scenario`] in [`from_json`]).
///
/// # Errors
///
/// JSON syntax errors; a `format` other than [`FORMAT`]; a `version`
/// other than [`VERSION`] ([`ErrorKind::Unsupported`]); unknown fields,
/// missing fields and wrong types with the path to them. Every error has a
/// line and column.
pub fn from_json_as<T: DeserializeOwned>(text: &str) -> Result<ScenarioFile<T>, Error> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Error::new(
            json_position(&e),
            ErrorKind::Syntax {
                expected: "well-formed JSON".to_owned(),
                found: match bare_message(&e) {
                    m if m == "expected value" => {
                        "text that is not JSON (is it kafka-configs.sh lines or YAML? `kafka-quota convert --to json FILE` makes a scenario of them)".to_owned()
                    }
                    m => m,
                },
            },
        )
    })?;
    let Some(object) = value.as_object() else {
        return Err(Error::syntax(
            Position::new(1, 1),
            "a JSON object (a scenario file)",
            "another JSON value",
        ));
    };
    let mut notes = Vec::new();
    if !object.contains_key("format") && !object.contains_key("version") {
        notes.push(format!(
            "The file has no envelope (`format`, `version`); it was read as a version {VERSION} scenario."
        ));
        let de = &mut serde_json::Deserializer::from_str(text);
        let scenario =
            serde_path_to_error::deserialize(de).map_err(|e| path_error(e, "scenario"))?;
        return Ok(ScenarioFile { scenario, notes });
    }
    if let Some(format) = object.get("format") {
        if format.as_str() != Some(FORMAT) {
            return Err(Error::syntax(
                Position::new(1, 1),
                format!("\"format\": \"{FORMAT}\""),
                format!("\"format\": {format}"),
            ));
        }
    }
    if let Some(version) = object.get("version").and_then(serde_json::Value::as_u64) {
        if version != u64::from(VERSION) {
            return Err(Error::unsupported(
                Position::new(1, 1),
                format!("scenario format version {version}"),
                format!("this build reads version {VERSION}; a newer kafka-quota wrote this file"),
            ));
        }
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let envelope: Envelope<T> =
        serde_path_to_error::deserialize(de).map_err(|e| path_error(e, ""))?;
    Ok(ScenarioFile {
        scenario: envelope.scenario,
        notes,
    })
}

/// Reads a scenario file (or a bare scenario object).
///
/// # Errors
///
/// As [`from_json_as`].
///
/// # Example
///
/// ```
/// let text = r#"{"format": "kafka-quota-playground/scenario", "version": 1,
///   "scenario": {"connections": [{"name": "p", "lisener": "PLAINTEXT"}]}}"#;
/// let e = quota_formats::scenario::from_json(text).unwrap_err();
/// assert_eq!(e.position.line, 2);
/// assert!(e.to_string().contains("at `scenario.connections[0].lisener`"));
/// ```
pub fn from_json(text: &str) -> Result<ScenarioFile, Error> {
    from_json_as(text)
}

/// Writes any payload as a pretty-printed scenario file.
pub fn to_json_as<T: Serialize>(scenario: &T) -> String {
    let envelope = Envelope {
        format: FORMAT.to_owned(),
        version: VERSION,
        scenario,
    };
    let mut text = serde_json::to_string_pretty(&envelope)
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// Writes a scenario as a pretty-printed scenario file.
pub fn to_json(scenario: &Scenario) -> String {
    to_json_as(scenario)
}

/// An empty scenario (every field at its default) holding the quotas of
/// `store`, as a scenario file.
pub fn quotas_to_json(store: &QuotaStore) -> String {
    to_json(&with_quotas(store))
}

/// An empty scenario holding the quotas of `store`, in the store's order.
pub fn with_quotas(store: &QuotaStore) -> Scenario {
    // Every Scenario field has a default, so `{}` always reads.
    #[allow(clippy::expect_used)]
    let mut s: Scenario = serde_json::from_str("{}").expect("every Scenario field has a default");
    s.quotas = store
        .entries()
        .flat_map(|(entity, values)| {
            values.iter().map(|(key, value)| QuotaSetting {
                entity: entity.clone(),
                key: *key,
                value: *value,
            })
        })
        .collect();
    s
}

/// The scenario's quotas in a store, applied in order with Kafka's
/// validation.
///
/// # Errors
///
/// [`ErrorKind::Rejected`] naming `scenario.quotas[i]` for a quota Kafka
/// refuses (the position is the file's start: serde keeps no positions for
/// values that parsed).
pub fn quota_store(scenario: &Scenario) -> Result<QuotaStore, Error> {
    let (store, verdicts) = quota_engine::cluster::accepted_quotas(scenario);
    match verdicts.iter().zip(&scenario.quotas).enumerate().find_map(|(i, (v, q))| Some((i, v.as_ref()?, q))) {
        Some((i, e, q)) => Err(Error::new(
            Position::new(1, 1),
            ErrorKind::Rejected {
                message: format!(
                    "scenario.quotas[{i}] ({} {}={}): {e}",
                    q.entity.path(),
                    q.key.as_str(),
                    q.value
                ),
                kafka: Some(e.clone()),
            },
        )),
        None => Ok(store),
    }
}

/// The playground URL of a scenario: `base` + `#` + [`crate::permalink::encode`].
///
/// # Example
///
/// ```
/// let s: quota_engine::sim::Scenario = serde_json::from_str("{}")?;
/// let url = quota_formats::scenario::link(&s, "https://example.org/playground/");
/// assert!(url.starts_with("https://example.org/playground/#v1."));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn link(scenario: &Scenario, base: &str) -> String {
    format!(
        "{}#{}",
        base.split('#').next().unwrap_or(base),
        crate::permalink::encode(scenario)
    )
}

/// Reads a playground URL or the text after `#`.
///
/// # Errors
///
/// [`ErrorKind::Syntax`] at column 1 with the permalink decoder's reason.
pub fn from_link(url: &str) -> Result<Scenario, Error> {
    let hash = url.split_once('#').map_or(url, |(_, h)| h);
    crate::permalink::decode(hash).map_err(|e| {
        Error::syntax(
            Position::new(1, 1),
            "a playground link (`#v1.` followed by base64url DEFLATE data)",
            e.to_string(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::{QuotaEntity, QuotaKey};

    #[test]
    fn envelope_round_trips_and_rejects_unknown_fields_with_a_path() {
        let mut store = QuotaStore::new();
        store
            .set(
                &QuotaEntity::user("tenant-a"),
                QuotaKey::ProducerByteRate,
                2e6,
            )
            .unwrap();
        let text = quotas_to_json(&store);
        assert!(
            text.starts_with(
                "{\n  \"format\": \"kafka-quota-playground/scenario\",\n  \"version\": 1,"
            ),
            "{text}"
        );
        let back = from_json(&text).unwrap();
        assert!(back.notes.is_empty());
        assert_eq!(quota_store(&back.scenario).unwrap(), store);

        let bad = text.replace("\"seed\"", "\"sead\"");
        let e = from_json(&bad).unwrap_err();
        assert!(
            e.to_string()
                .contains("at `scenario.sead`, but found unknown field `sead`"),
            "{e}"
        );
        assert!(e.position.line > 3);

        let e = from_json(&text.replace("\"version\": 1", "\"version\": 2")).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported { .. }), "{e}");
        let e = from_json("{\"format\": \"x\", \"version\": 1, \"scenario\": {}}").unwrap_err();
        assert!(
            e.to_string()
                .contains("expected \"format\": \"kafka-quota-playground/scenario\""),
            "{e}"
        );
        let e = from_json("{\"quotas\": [{\"entity\": {\"user\": \"a\"}, \"key\": \"producer_byte_rate\", \"value\": \"x\"}]}").unwrap_err();
        assert!(
            e.to_string().contains("at `scenario.quotas[0].value`"),
            "{e}"
        );
        let e = from_json("{\n  \"quotas\": [\n").unwrap_err();
        assert_eq!(e.position.line, 3);
    }

    #[test]
    fn links_round_trip() {
        let s = with_quotas(&QuotaStore::new());
        let url = link(&s, "https://x.test/p/#old");
        assert!(url.starts_with("https://x.test/p/#v1."));
        assert_eq!(from_link(&url).unwrap(), s);
        assert!(from_link("https://x.test/#v9.abc").is_err());
    }
}
