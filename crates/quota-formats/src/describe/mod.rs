//! `kafka-configs.sh --describe` output for client quotas: the 4.x printer,
//! and a parser that reads it back along with the older wordings, so a
//! cluster's quotas can be imported from what the tool printed.
//!
//! Printer and parser sit side by side and round-trip: every line
//! [`format_line`] prints, [`parse_describe_output`] reads back to the same
//! entity and values.
//!
//! Kafka: `ConfigCommand.describeQuotaConfigs`
//! (`tools/src/main/java/org/apache/kafka/tools/ConfigCommand.java`, 4.1+):
//! `Quota configs for user-principal 'U', client-id 'C' are k=v, k=v` with
//! `the default user-principal` for a default entity and values printed by
//! `Double.toString`. Older tools (ZooKeeper era, `describeConfigWithZk`,
//! `ConfigEntity.toString`) printed `Configs for user-principal 'U' are
//! k=v,k=v`, `Configs for default user-principal are ...`, and Kafka 0.9
//! printed `Configs for clients:clientA are k=v,k=v`.

use std::collections::BTreeMap;

use quota_engine::jdk::double::parse_double;
use quota_engine::jdk::hashmap::{
    hashmap_order, hashmap_table_size, nullable_string_hash, string_hash, MapInit,
};
use quota_engine::{java_double_to_string, EntityName, EntityType, QuotaEntity, QuotaKey};

use crate::configs_sh::command::find_variables;
use crate::error::{Error, ErrorKind, Position};
pub use crate::interchange::DescribedQuota;
use crate::interchange::{type_combination, QuotaImport};

/// The word the 4.x tool uses for an entity type in describe output.
fn type_word(t: EntityType) -> &'static str {
    match t {
        EntityType::User => "user-principal",
        EntityType::ClientId => "client-id",
        EntityType::Ip => "ip",
    }
}

/// The entity part of a describe line: `user-principal 'U', client-id 'C'`,
/// `the default user-principal`, `ip '10.0.0.1'`.
pub fn entity_phrase(entity: &QuotaEntity) -> String {
    entity
        .parts()
        .into_iter()
        .map(|(t, n)| match n {
            EntityName::Named(name) if !name.is_empty() => format!("{} '{}'", type_word(t), name),
            _ => format!("the default {}", type_word(t)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line of 4.x describe output for `entity` with `values` in the order
/// given: `Quota configs for user-principal 'tenantUserA' are
/// consumer_byte_rate=1000000.0, producer_byte_rate=2000000.0`.
///
/// Values are printed with Java's `Double.toString`
/// ([`java_double_to_string`]).
pub fn format_line(entity: &QuotaEntity, values: &[(QuotaKey, f64)]) -> String {
    let entries: Vec<String> = values
        .iter()
        .map(|(k, v)| format!("{}={}", k.as_str(), java_double_to_string(*v)))
        .collect();
    format!(
        "Quota configs for {} are {}",
        entity_phrase(entity),
        entries.join(", ")
    )
}

/// The keys of one entity in the order the 4.x tool prints them.
///
/// The tool iterates a `HashMap<String, Double>` built with the entry count
/// as initial capacity (`DescribeClientQuotasResponse.complete`), so keys
/// come out by hash bucket in that table; keys sharing a bucket follow the
/// broker's own map, modelled as a fresh `HashMap` filled from a default
/// one (`ClientQuotaDelta.apply`), then by name.
pub fn ordered_values(values: &BTreeMap<QuotaKey, f64>) -> Vec<(QuotaKey, f64)> {
    let m = u32::try_from(values.len()).unwrap_or(u32::MAX);
    let mut v: Vec<(QuotaKey, f64)> = values.iter().map(|(k, x)| (*k, *x)).collect();
    v.sort_by_key(|(k, _)| k.as_str());
    let h = |(k, _): &(QuotaKey, f64)| string_hash(k.as_str());
    let v = hashmap_order(v, hashmap_table_size(MapInit::Default, m), h);
    let v = hashmap_order(v, hashmap_table_size(MapInit::WithCapacity(0), m), h);
    hashmap_order(v, hashmap_table_size(MapInit::WithCapacity(m), m), h)
}

/// `ClientQuotaEntity.hashCode`: the hash of its `Map<String, String>`
/// (sum over entries of `key.hashCode() ^ Objects.hashCode(name)`).
fn entity_hash(entity: &QuotaEntity) -> i32 {
    entity.parts().into_iter().fold(0i32, |acc, (t, n)| {
        acc.wrapping_add(string_hash(t.as_str()) ^ nullable_string_hash(n.as_option()))
    })
}

/// Every line the 4.x tool prints for these described entities, in its
/// order: entities by `ClientQuotaEntity` hash in a `HashMap` sized for
/// them (ties by the broker's map, then entity order), keys as
/// [`ordered_values`]. Entities without values print nothing.
pub fn describe_lines<'a>(
    entries: impl IntoIterator<Item = (&'a QuotaEntity, &'a BTreeMap<QuotaKey, f64>)>,
) -> Vec<String> {
    let mut list: Vec<(&QuotaEntity, &BTreeMap<QuotaKey, f64>)> =
        entries.into_iter().filter(|(_, v)| !v.is_empty()).collect();
    list.sort_by(|a, b| a.0.cmp(b.0));
    let n = u32::try_from(list.len()).unwrap_or(u32::MAX);
    let h = |(e, _): &(&QuotaEntity, &BTreeMap<QuotaKey, f64>)| entity_hash(e);
    let list = hashmap_order(list, hashmap_table_size(MapInit::Default, n), h);
    let list = hashmap_order(list, hashmap_table_size(MapInit::WithCapacity(n), n), h);
    list.into_iter()
        .map(|(e, v)| format_line(e, &ordered_values(v)))
        .collect()
}

/// What [`parse_describe_output`] read from a text: the crate's
/// [`QuotaImport`], under the name it had first.
pub type DescribeImport = QuotaImport;

/// The entity-type words of every describe wording, longest first so that
/// `user-principal` wins over `users`.
const TYPE_WORDS: [(&str, EntityType); 9] = [
    ("user-principal", EntityType::User),
    ("client-id", EntityType::ClientId),
    ("clientId", EntityType::ClientId),
    ("users", EntityType::User),
    ("clients", EntityType::ClientId),
    ("user", EntityType::User),
    ("client", EntityType::ClientId),
    ("ips", EntityType::Ip),
    ("ip", EntityType::Ip),
];

/// Texts that introduce an alteration confirmation or a warning: printed by
/// `--alter` runs and recognised so that pasted sessions import cleanly.
const CONFIRMATIONS: [&str; 6] = [
    "Completed updating config for ",
    "Completed updating default config for ",
    "Updated config for ",
    "Completed Updating config for ",
    "Warning: --zookeeper is deprecated",
    "Use --bootstrap-server instead to specify a broker to connect to.",
];

/// A cursor over one line, counting columns in characters.
struct Cursor<'a> {
    rest: &'a str,
    line: u32,
    column: u32,
}

impl<'a> Cursor<'a> {
    fn position(&self) -> Position {
        Position::new(self.line, self.column)
    }

    fn advance(&mut self, bytes: usize) {
        let (taken, rest) = self.rest.split_at(bytes);
        self.column = self
            .column
            .saturating_add(u32::try_from(taken.chars().count()).unwrap_or(u32::MAX));
        self.rest = rest;
    }

    fn eat(&mut self, prefix: &str) -> bool {
        if self.rest.starts_with(prefix) {
            self.advance(prefix.len());
            true
        } else {
            false
        }
    }

    fn found(&self) -> String {
        if self.rest.is_empty() {
            "the end of the line".to_owned()
        } else {
            let mut shown: String = self.rest.chars().take(30).collect();
            if self.rest.chars().count() > 30 {
                shown.push('…');
            }
            format!("`{shown}`")
        }
    }
}

/// Parses one entity part at the cursor (`user-principal 'U'`,
/// `the default client-id`, `default user-principal`, `clients:clientA`).
fn parse_entity_part(c: &mut Cursor<'_>) -> Result<(EntityType, EntityName), Error> {
    let start = c.position();
    let defaulted = c.eat("the default ") || c.eat("default ");
    let Some((word, t)) = TYPE_WORDS
        .iter()
        .find(|(w, _)| c.rest.starts_with(w))
        .copied()
    else {
        return Err(Error::syntax(c.position(), "an entity such as `user-principal 'alice'`, `client-id 'app'`, `ip '10.0.0.1'` or `the default user-principal`", c.found()));
    };
    c.advance(word.len());
    if defaulted {
        return Ok((t, EntityName::Default));
    }
    let name = if c.eat(" '") {
        // The name runs to the quote that is followed by another entity part or ` are `.
        let mut end = None;
        for (i, _) in c.rest.match_indices('\'') {
            let after = &c.rest[i + 1..];
            let next_part = after.strip_prefix(", ").is_some_and(|a| {
                a.starts_with("the default ")
                    || a.starts_with("default ")
                    || TYPE_WORDS.iter().any(|(w, _)| a.starts_with(w))
            });
            if after.starts_with(" are") || next_part || after.is_empty() {
                end = Some(i);
                break;
            }
        }
        let Some(end) = end else {
            return Err(Error::syntax(
                c.position(),
                "a closing `'` after the entity name",
                c.found(),
            ));
        };
        let name = c.rest[..end].to_owned();
        c.advance(end + 1);
        name
    } else if c.eat(":") || c.eat(": ") {
        // Kafka 0.9 `clients:clientA`, old `clientId: "clientA"`.
        let quoted = c.eat("\"");
        let stop = if quoted {
            c.rest.find('"')
        } else {
            [c.rest.find(" are"), c.rest.find(", ")]
                .into_iter()
                .flatten()
                .min()
                .or(Some(c.rest.len()))
        };
        let Some(end) = stop else {
            return Err(Error::syntax(
                c.position(),
                "a closing `\"` after the entity name",
                c.found(),
            ));
        };
        let name = c.rest[..end].to_owned();
        c.advance(end + usize::from(quoted));
        name
    } else {
        return Err(Error::syntax(
            c.position(),
            format!("` '<name>'` after `{word}`"),
            c.found(),
        ));
    };
    if name == "<default>" {
        return Ok((t, EntityName::Default));
    }
    if name.is_empty() {
        return Err(Error::syntax(start, "a non-empty entity name", "`''`"));
    }
    Ok((t, EntityName::Named(name)))
}

/// Parses the text of `kafka-configs.sh --describe` runs (any Kafka
/// version) into entities and values.
///
/// Blank lines are skipped; alteration confirmations (`Completed updating
/// config for user alice.`), ZooKeeper deprecation warnings, SCRAM
/// credential lines and non-quota keys are recognised and reported in
/// [`DescribeImport::notes`].
///
/// # Errors
///
/// The first line that is not describe output, an entity that is not one
/// of Kafka's four shapes, a value that is not a number (Java
/// `Double.parseDouble`); each with line and column. A name such as
/// `'$user1'` is read as printed, with a note (documentation uses such
/// placeholders; a broker prints a stored name).
///
/// # Example
///
/// ```
/// use quota_formats::describe::parse_describe_output;
/// let text = "Quota configs for user-principal 'alice', the default client-id are producer_byte_rate=1024.0\n";
/// let import = parse_describe_output(text)?;
/// assert_eq!(import.quotas[0].entity.path(), "users/alice/clients/<default>");
/// # Ok::<(), quota_formats::Error>(())
/// ```
pub fn parse_describe_output(text: &str) -> Result<DescribeImport, Error> {
    let mut out = DescribeImport::default();
    for (index, raw) in text.split('\n').enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start();
        let indent = u32::try_from(raw.chars().count() - body.chars().count()).unwrap_or(0);
        let mut c = Cursor {
            rest: body.trim_end(),
            line: line_no,
            column: indent + 1,
        };
        if c.rest.is_empty() {
            continue;
        }
        let line_pos = c.position();
        // What a pasted terminal session or a saved file adds around the
        // output: a comment, or the --describe command that printed it.
        if c.rest.starts_with('#') {
            out.notes.push((line_pos, "Skipped a comment line.".to_owned()));
            continue;
        }
        let command = c.rest.trim_start_matches(['$', '>', ' ']);
        if command.contains("kafka-configs") && command.contains("--describe") {
            out.notes.push((
                line_pos,
                "Skipped the kafka-configs.sh --describe command: its output follows.".to_owned(),
            ));
            continue;
        }
        if CONFIRMATIONS.iter().any(|p| c.rest.starts_with(p)) {
            out.notes.push((
                line_pos,
                format!(
                    "Skipped `{}`: an --alter confirmation or warning carries no quota values.",
                    c.rest
                ),
            ));
            continue;
        }
        if c.rest.starts_with("SCRAM credential configs for ")
            || c.rest
                .starts_with("Error retrieving SCRAM credential configs")
        {
            out.notes.push((
                line_pos,
                "Skipped a SCRAM credential line: credentials are not client quotas.".to_owned(),
            ));
            continue;
        }
        let modern = c.eat("Quota configs for ");
        if !modern && !c.eat("Configs for ") {
            return Err(Error::syntax(
                line_pos,
                "a line of kafka-configs.sh --describe output such as `Quota configs for user-principal 'alice' are producer_byte_rate=1024.0`",
                c.found(),
            ));
        }
        let mut parts = vec![parse_entity_part(&mut c)?];
        while c.eat(", ") {
            parts.push(parse_entity_part(&mut c)?);
        }
        let entity = QuotaEntity::from_parts(&parts).ok_or_else(|| {
            Error::syntax(
                line_pos,
                "a user, a client-id, a user and a client-id, or an ip",
                format!("the combination {}", type_combination(&parts)),
            )
        })?;
        // The broker prints names as stored, and no shell expands its
        // output: `'$user1'` is a user named `$user1`. Documentation uses
        // such names as placeholders, so say so.
        for (_, name) in &parts {
            if let EntityName::Named(n) = name {
                let vars = find_variables(n);
                if !vars.is_empty() {
                    out.notes.push((
                        line_pos,
                        format!(
                            "Read `{n}` as a name, as the broker prints it: --describe output is not expanded by a shell. If this text is from documentation, {} {} for a name: replace {} before importing.",
                            vars.join(", "),
                            if vars.len() == 1 { "stands" } else { "stand" },
                            if vars.len() == 1 { "it" } else { "them" }
                        ),
                    ));
                }
            }
        }
        if !(c.eat(" are ") || (c.rest == " are" && c.eat(" are"))) {
            return Err(Error::syntax(
                c.position(),
                "` are ` before the values",
                c.found(),
            ));
        }
        let mut values: Vec<(QuotaKey, f64)> = Vec::new();
        let list = c.rest;
        let mut offset_chars = 0u32;
        for item in list.split(',') {
            let item_col = c.column + offset_chars;
            offset_chars += u32::try_from(item.chars().count() + 1).unwrap_or(0);
            let trimmed = item.trim();
            if trimmed.is_empty() {
                if list.trim().is_empty() {
                    break;
                }
                return Err(Error::syntax(
                    Position::new(line_no, item_col),
                    "`key=value`",
                    "an empty item",
                ));
            }
            let lead = u32::try_from(item.chars().count() - item.trim_start().chars().count())
                .unwrap_or(0);
            let pos = Position::new(line_no, item_col + lead);
            let Some((key, value)) = trimmed.split_once('=') else {
                return Err(Error::syntax(pos, "`key=value`", format!("`{trimmed}`")));
            };
            let Some(qk) = QuotaKey::from_name(key.trim()) else {
                out.notes.push((
                    pos,
                    format!(
                        "Skipped `{trimmed}`: `{}` is not a client quota key.",
                        key.trim()
                    ),
                ));
                continue;
            };
            let vars = find_variables(value);
            if !vars.is_empty() {
                return Err(Error::new(
                    pos,
                    ErrorKind::UnexpandedVariables {
                        names: vars,
                        context: format!("the value of {key}"),
                    },
                ));
            }
            let Some(v) = parse_double(value) else {
                return Err(Error::syntax(
                    pos,
                    format!("a number for {}", qk.as_str()),
                    format!("`{}`", value.trim()),
                ));
            };
            values.push((qk, v));
        }
        if values.is_empty() {
            out.notes.push((
                line_pos,
                format!(
                    "The entity {} has no quota values in this output.",
                    entity.path()
                ),
            ));
        }
        out.quotas.push(DescribedQuota {
            entity,
            values,
            position: line_pos,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(QuotaKey, f64)]) -> BTreeMap<QuotaKey, f64> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn a_pasted_session_skips_its_comment_and_command_lines_with_notes() {
        let text = "# saved from the bastion\n$ kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type users\n\
                    Quota configs for user-principal 'alice' are producer_byte_rate=1024.0\n";
        let import = parse_describe_output(text).unwrap();
        assert_eq!(import.quotas.len(), 1);
        assert_eq!(import.quotas[0].entity.path(), "users/alice");
        let notes: Vec<(u32, &str)> = import.notes.iter().map(|(p, n)| (p.line, n.as_str())).collect();
        assert_eq!(
            notes,
            [
                (1, "Skipped a comment line."),
                (2, "Skipped the kafka-configs.sh --describe command: its output follows.")
            ]
        );
    }

    #[test]
    fn prints_the_lab_lines() {
        let user = QuotaEntity::user("tenantUserA");
        let values = map(&[
            (QuotaKey::ProducerByteRate, 2_000_000.0),
            (QuotaKey::ConsumerByteRate, 1_000_000.0),
        ]);
        assert_eq!(
            describe_lines([(&user, &values)]),
            ["Quota configs for user-principal 'tenantUserA' are consumer_byte_rate=1000000.0, producer_byte_rate=2000000.0"]
        );
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("tenantUserA".into()),
            client_id: EntityName::Named("batch-loader".into()),
        };
        assert_eq!(
            format_line(&pair, &[(QuotaKey::ProducerByteRate, 500_000.0)]),
            "Quota configs for user-principal 'tenantUserA', client-id 'batch-loader' are producer_byte_rate=500000.0"
        );
        let d = QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Default,
        };
        assert_eq!(
            format_line(&d, &[(QuotaKey::RequestPercentage, 0.2)]),
            "Quota configs for the default user-principal, the default client-id are request_percentage=0.2"
        );
    }

    #[test]
    fn four_keys_follow_the_eight_slot_table() {
        let values = map(&[
            (QuotaKey::ProducerByteRate, 1.0),
            (QuotaKey::ConsumerByteRate, 2.0),
            (QuotaKey::RequestPercentage, 3.0),
            (QuotaKey::ControllerMutationRate, 4.0),
        ]);
        let keys: Vec<&str> = ordered_values(&values)
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(
            keys,
            [
                "producer_byte_rate",
                "consumer_byte_rate",
                "controller_mutation_rate",
                "request_percentage"
            ]
        );
    }

    #[test]
    fn reads_every_wording() {
        let text = "Configs for default user-principal are \n\
                    Configs for default user-principal, client-id 'client1' are producer_byte_rate=300\n\
                    Configs for clients:clientA are producer_byte_rate=1024,consumer_byte_rate=2048\n\
                    Quota configs for the default ip are connection_creation_rate=10.0\n\
                    Updated config for clientId: \"clientA\".\n";
        let import = parse_describe_output(text).unwrap();
        let paths: Vec<String> = import.quotas.iter().map(|q| q.entity.path()).collect();
        assert_eq!(
            paths,
            [
                "users/<default>",
                "users/<default>/clients/client1",
                "clients/clientA",
                "ips/<default>"
            ]
        );
        assert_eq!(
            import.quotas[2].values,
            [
                (QuotaKey::ProducerByteRate, 1024.0),
                (QuotaKey::ConsumerByteRate, 2048.0)
            ]
        );
        assert_eq!(import.notes.len(), 2);
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let e = parse_describe_output(
            "\nQuota configs for user-principal 'a' are producer_byte_rate=fast\n",
        )
        .unwrap_err();
        assert_eq!(e.position, Position::new(2, 42));
        assert_eq!(
            e.to_string(),
            "Line 2, column 42: expected a number for producer_byte_rate, but found `fast`."
        );
        let e = parse_describe_output("Quota configs for topic 'x' are a=1").unwrap_err();
        assert_eq!(e.position, Position::new(1, 19));
        // A `$` in a printed name is part of the name, with a note.
        let got = parse_describe_output(
            "Quota configs for user-principal '$user1' are consumer_byte_rate=1.0",
        )
        .unwrap();
        assert_eq!(got.quotas[0].entity.path(), "users/$user1");
        assert!(got.notes[0].1.starts_with("Read `$user1` as a name, as the broker prints it"), "{:?}", got.notes);
    }
}
