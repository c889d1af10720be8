//! Redpanda `rpk cluster quotas` commands and `describe` output, read for
//! migration to Kafka (import only).
//!
//! Redpanda speaks Kafka's `AlterClientQuotas`, and `rpk cluster quotas
//! alter --add k=v --name TYPE=NAME --default TYPE` maps one to one to a
//! Kafka alteration for the entity types Kafka has (`user`, `client-id`).
//! `client-id-prefix` is Redpanda's own entity type (Kafka has no prefix
//! match) and is refused, as are `--delete` (nothing to delete in an
//! import), `import --from FILE` (a file that is not part of the input) and
//! `ip`-less quota keys Kafka lacks. `import --from '<json>'` with the quota
//! set inline is read. `describe` commands carry no values and are noted.
//!
//! The output of `rpk cluster quotas describe` (an entity line such as
//! `user=alice` or `client-id=c, user=u` followed by tab-indented
//! `key=value` lines) is read too.

use serde::Deserialize;

use quota_engine::{EntityName, EntityType, QuotaEntity, QuotaKey};

use quota_engine::jdk::double::parse_double;
use crate::error::{Error, ErrorKind, Position};
use crate::interchange::{type_combination, DescribedQuota, QuotaImport};

/// A logical line: `\`-newline continuations joined.
struct Line {
    text: String,
    line: u32,
}

fn logical_lines(text: &str) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut open: Option<Line> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (body, cont) = match raw.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (raw, false),
        };
        let cur = open.get_or_insert_with(|| Line {
            text: String::new(),
            line: n,
        });
        if !cur.text.is_empty() {
            cur.text.push(' ');
        }
        cur.text.push_str(body);
        if !cont {
            out.extend(open.take());
        }
    }
    out.extend(open);
    out
}

fn type_of(at: Position, t: &str) -> Result<EntityType, Error> {
    match t {
        "user" => Ok(EntityType::User),
        "client-id" => Ok(EntityType::ClientId),
        "client-id-prefix" => Err(Error::unsupported(
            at,
            "the entity type client-id-prefix",
            "it is Redpanda's own: Kafka matches client-id quotas on the exact client.id and has no prefix entity",
        )),
        other => Err(Error::syntax(at, "an entity type user or client-id", format!("`{other}`"))),
    }
}

fn name_of(n: &str) -> EntityName {
    if n == "<default>" {
        EntityName::Default
    } else {
        EntityName::Named(n.to_owned())
    }
}

fn entity_of(at: Position, parts: Vec<(EntityType, EntityName)>) -> Result<QuotaEntity, Error> {
    QuotaEntity::from_parts(&parts).ok_or_else(|| {
        Error::syntax(
            at,
            "a user, a client-id, or a user and a client-id",
            format!("the types {}", type_combination(&parts)),
        )
    })
}

fn key_value(at: Position, kv: &str) -> Result<(QuotaKey, f64), Error> {
    let Some((k, v)) = kv.split_once('=') else {
        return Err(Error::syntax(at, "`key=value`", format!("`{kv}`")));
    };
    let key = QuotaKey::from_name(k.trim()).ok_or_else(|| {
        Error::syntax(
            at,
            "a Kafka quota key: producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate",
            format!("`{k}`"),
        )
    })?;
    let value = parse_double(v.trim())
        .filter(|x| x.is_finite())
        .ok_or_else(|| Error::syntax(at, format!("a number for {k}"), format!("`{v}`")))?;
    Ok((key, value))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportFile {
    quotas: Vec<ImportQuota>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportQuota {
    entity: Vec<ImportEntity>,
    values: Vec<ImportValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportEntity {
    #[serde(default)]
    name: Option<String>,
    #[serde(rename = "type")]
    entity_type: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportValue {
    key: String,
    values: String,
}

/// Reads one `rpk cluster quotas ...` command.
fn command(words: &[String], at: Position, out: &mut QuotaImport) -> Result<(), Error> {
    let verb = words.get(3).map(String::as_str).unwrap_or("");
    let mut i = 4;
    let mut parts = Vec::new();
    let mut values = Vec::new();
    let mut from = None;
    while i < words.len() {
        let (flag, inline) = match words[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (words[i].clone(), None),
        };
        let takes_value = matches!(
            flag.as_str(),
            "--add"
                | "--delete"
                | "--name"
                | "--default"
                | "--from"
                | "--format"
                | "-X"
                | "--profile"
                | "--config"
                | "--brokers"
        );
        let value = if takes_value {
            match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    Some(words.get(i).cloned().ok_or_else(|| {
                        Error::syntax(
                            at,
                            format!("a value after {flag}"),
                            "the end of the command",
                        )
                    })?)
                }
            }
        } else {
            None
        };
        match (flag.as_str(), value) {
            ("--add", Some(v)) => {
                for kv in v.split(',') {
                    values.push(key_value(at, kv)?);
                }
            }
            ("--delete", Some(v)) => {
                return Err(Error::unsupported(
                    at,
                    format!("--delete {v}"),
                    "an import starts from no quotas, so there is nothing to delete",
                ))
            }
            ("--name", Some(v)) => {
                let Some((t, n)) = v.split_once('=') else {
                    return Err(Error::syntax(at, "--name TYPE=NAME", format!("`{v}`")));
                };
                parts.push((type_of(at, t)?, EntityName::Named(n.to_owned())));
            }
            ("--default", Some(t)) => parts.push((type_of(at, &t)?, EntityName::Default)),
            ("--from", Some(v)) => from = Some(v),
            (_, Some(_)) => {}
            (other, None) if other.starts_with('-') => {}
            (other, None) => {
                return Err(Error::syntax(at, "an rpk flag", format!("`{other}`")));
            }
        }
        i += 1;
    }
    match verb {
        "alter" => {
            let entity = entity_of(at, parts)?;
            out.quotas.push(DescribedQuota {
                entity,
                values,
                position: at,
            });
        }
        "describe" => out.notes.push((
            at,
            "Skipped an rpk cluster quotas describe command: it carries no quota values."
                .to_owned(),
        )),
        "import" => {
            let Some(json) = from else {
                return Err(Error::syntax(
                    at,
                    "--from with the quotas to import",
                    "no --from",
                ));
            };
            if !json.trim_start().starts_with('{') {
                return Err(Error::unsupported(
                    at,
                    format!("import --from {json}"),
                    "it names a file that is not part of the input; import the file's JSON instead",
                ));
            }
            let de = &mut serde_json::Deserializer::from_str(&json);
            let file: ImportFile = serde_path_to_error::deserialize(de).map_err(|e| {
                Error::syntax(
                    at,
                    "rpk's quota JSON ({\"quotas\": [{\"entity\": [...], \"values\": [...]}]})",
                    format!("an error at `{}`: {}", e.path(), e.inner()),
                )
            })?;
            let mut read = Vec::new();
            for (n, q) in file.quotas.iter().enumerate() {
                let mut parts = Vec::new();
                for e in &q.entity {
                    let t = type_of(at, &e.entity_type).map_err(|err| match err.kind {
                        ErrorKind::Unsupported { what, why } => Error::unsupported(
                            at,
                            format!("quotas[{n}] ({what})"),
                            format!("{why}; nothing of this import is taken, so that the quota set is not split"),
                        ),
                        _ => err,
                    })?;
                    parts.push((t, e.name.as_deref().map_or(EntityName::Default, name_of)));
                }
                let entity = entity_of(at, parts)?;
                let values = q
                    .values
                    .iter()
                    .map(|v| key_value(at, &format!("{}={}", v.key, v.values)))
                    .collect::<Result<Vec<_>, _>>()?;
                read.push(DescribedQuota {
                    entity,
                    values,
                    position: at,
                });
            }
            out.quotas.extend(read);
        }
        other => {
            return Err(Error::syntax(
                at,
                "rpk cluster quotas alter, describe or import",
                format!("rpk cluster quotas {other}"),
            ))
        }
    }
    Ok(())
}

/// Reads `rpk cluster quotas` commands and `describe` output.
///
/// # Errors
///
/// With line and column: `client-id-prefix` entities, `--delete`,
/// `import --from FILE` ([`ErrorKind::Unsupported`]); an unknown key,
/// entity type or value, an open quote ([`ErrorKind::Syntax`]); a text
/// with neither commands nor output.
///
/// # Example
///
/// ```
/// let text = "rpk cluster quotas alter --add producer_byte_rate=500000 --default user --name client-id=payments\n";
/// let import = quota_formats::rpk::parse(text)?;
/// assert_eq!(import.quotas[0].entity.path(), "users/<default>/clients/payments");
/// # Ok::<(), quota_formats::Error>(())
/// ```
pub fn parse(text: &str) -> Result<QuotaImport, Error> {
    let mut out = QuotaImport::default();
    if text.trim_start().starts_with('{') {
        // The JSON of `rpk cluster quotas describe --format json`, or an
        // `import --from` file.
        let words =
            ["rpk", "cluster", "quotas", "import", "--from", text.trim()].map(str::to_owned);
        command(&words, Position::new(1, 1), &mut out)?;
        return Ok(out);
    }
    let mut current: Option<DescribedQuota> = None;
    let mut seen = false;
    for line in logical_lines(text) {
        let trimmed = line.text.trim();
        let indent = line.text.len() - line.text.trim_start().len();
        let at = Position::new(
            line.line,
            u32::try_from(line.text[..indent].chars().count() + 1).unwrap_or(u32::MAX),
        );
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let cmd = trimmed.trim_start_matches(['$', '>']).trim_start();
        if cmd.starts_with("rpk ") {
            out.quotas.extend(current.take());
            let words = shell_words::split(cmd)
                .map_err(|_| Error::syntax(at, "a closing quote", "a quote that is not closed"))?;
            if words.get(1).map(String::as_str) != Some("cluster")
                || words.get(2).map(String::as_str) != Some("quotas")
            {
                return Err(Error::syntax(
                    at,
                    "rpk cluster quotas ...",
                    format!("`{cmd}`"),
                ));
            }
            command(&words, at, &mut out)?;
            seen = true;
        } else if indent > 0 && current.is_some() {
            if let Some(q) = current.as_mut() {
                q.values.push(key_value(at, trimmed)?);
            }
        } else if trimmed.contains('=') {
            // describe output: `client-id=c, user=u`
            out.quotas.extend(current.take());
            let mut parts = Vec::new();
            for p in trimmed.split(", ") {
                let Some((t, n)) = p.split_once('=') else {
                    return Err(Error::syntax(at, "TYPE=NAME", format!("`{p}`")));
                };
                parts.push((type_of(at, t)?, name_of(n)));
            }
            current = Some(DescribedQuota {
                entity: entity_of(at, parts)?,
                values: Vec::new(),
                position: at,
            });
            seen = true;
        } else {
            return Err(Error::syntax(
                at,
                "an rpk cluster quotas command or its describe output",
                format!("`{trimmed}`"),
            ));
        }
    }
    out.quotas.extend(current.take());
    if !seen {
        return Err(Error::syntax(
            Position::new(1, 1),
            "an rpk cluster quotas command or its describe output",
            "nothing",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_alter_import_and_output() {
        let text = "rpk cluster quotas alter --default client-id --add producer_byte_rate=1000000000\nuser=alice\n\tproducer_byte_rate=2000000\n";
        let import = parse(text).unwrap();
        assert_eq!(import.quotas.len(), 2);
        assert_eq!(import.quotas[1].entity, QuotaEntity::user("alice"));
        assert_eq!(import.quotas[1].values, [(QuotaKey::ProducerByteRate, 2e6)]);
        let e = parse("rpk cluster quotas alter --add consumer_byte_rate=1 \\\n  --name client-id-prefix=bar-\n").unwrap_err();
        let json = parse("{\"quotas\":[{\"entity\":[{\"name\":\"a\",\"type\":\"client-id\"},{\"type\":\"user\"}],\"values\":[{\"key\":\"consumer_byte_rate\",\"values\":\"10\"}]}]}").unwrap();
        assert_eq!(json.quotas[0].entity.path(), "users/<default>/clients/a");
        assert_eq!(json.quotas[0].values, [(QuotaKey::ConsumerByteRate, 10.0)]);
        assert_eq!(e.to_string(), "Line 1, column 1: the entity type client-id-prefix is not supported because it is Redpanda's own: Kafka matches client-id quotas on the exact client.id and has no prefix entity.");
    }
}
