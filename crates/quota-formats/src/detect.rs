//! Which format a text is in, and one entry point to import any of them
//! into a [`QuotaStore`] or export a store to any of them.
//!
//! [`detect`] looks at the text only (no file name) and says which
//! [`Format`] it is, with the reason, so the playground's import box and
//! `kafka-quota` can take whatever an operator pastes. [`import`] reads a
//! text in a known format into a store; [`export`] writes a store in a
//! format and lists what that format cannot express ([`Unexpressed`])
//! instead of dropping it.
//!
//! Detection and export use no YAML or HCL parser, so they work in builds
//! without the `yaml` and `hcl` features; importing those formats needs
//! the features.
//!
//! # Example
//!
//! ```
//! use quota_formats::detect::{detect, import, Format};
//!
//! let text = "kafka-configs.sh --bootstrap-server b:9092 --alter \
//!             --add-config producer_byte_rate=2000000 --entity-type users --entity-name tenant-a\n";
//! let found = detect(text)?;
//! assert_eq!(found.format, Format::ConfigsSh);
//! let imported = import(text, found.format)?;
//! assert_eq!(imported.store.entries().count(), 1);
//! # Ok::<(), quota_formats::Error>(())
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use quota_engine::QuotaStore;

use crate::configs_sh::{self, Mode};
use crate::describe;
use crate::error::{Error, Position};
#[cfg(doc)]
use crate::error::ErrorKind;

// Their home is `interchange`; kept here, where they always were.
pub use crate::configs_sh::alter_commands as configs_sh_commands;
pub use crate::interchange::{Export, ExportOptions, QuotaImport, Unexpressed};

/// A format this crate reads or writes. Its serde form is its
/// [`Format::name`] (`"configs-sh"`, `"json"`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Format {
    /// `kafka-configs.sh` command lines ([`crate::configs_sh`]).
    #[serde(rename = "configs-sh")]
    ConfigsSh,
    /// `kafka-configs.sh --describe` output ([`crate::describe`]).
    #[serde(rename = "describe")]
    Describe,
    /// Java code calling the Admin API ([`crate::java`]).
    #[serde(rename = "java")]
    Java,
    /// Strimzi `KafkaUser` YAML ([`crate::strimzi`]; reading needs feature `yaml`).
    #[serde(rename = "strimzi")]
    Strimzi,
    /// Terraform `kafka_quota` / `aiven_kafka_quota` HCL ([`crate::terraform`]; reading needs feature `hcl`).
    #[serde(rename = "terraform")]
    Terraform,
    /// The playground's scenario JSON ([`crate::scenario`]).
    #[serde(rename = "json")]
    ScenarioJson,
    /// Redpanda `rpk cluster quotas` commands and output ([`crate::rpk`]; import only).
    #[serde(rename = "rpk")]
    Rpk,
}

impl Format {
    /// Every format, in the order [`detect`] tries them.
    pub const ALL: [Format; 7] = [
        Format::ScenarioJson,
        Format::Strimzi,
        Format::Terraform,
        Format::Java,
        Format::Rpk,
        Format::ConfigsSh,
        Format::Describe,
    ];

    /// The short name used by `kafka-quota --format/--to`: `configs-sh`,
    /// `describe`, `java`, `strimzi`, `terraform`, `json`, `rpk`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::ConfigsSh => "configs-sh",
            Format::Describe => "describe",
            Format::Java => "java",
            Format::Strimzi => "strimzi",
            Format::Terraform => "terraform",
            Format::ScenarioJson => "json",
            Format::Rpk => "rpk",
        }
    }

    /// The format with this short name ([`Format::name`]).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A human name: `kafka-configs.sh commands`, `Strimzi KafkaUser YAML`, ...
    pub const fn title(self) -> &'static str {
        match self {
            Format::ConfigsSh => "kafka-configs.sh commands",
            Format::Describe => "kafka-configs.sh --describe output",
            Format::Java => "Admin API Java code",
            Format::Strimzi => "Strimzi KafkaUser YAML",
            Format::Terraform => "Terraform HCL",
            Format::ScenarioJson => "playground scenario JSON",
            Format::Rpk => "Redpanda rpk cluster quotas",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`detect`] found: the format and why it thinks so. Serde form:
/// `{"format": "configs-sh", "reason": "..."}` (the playground sends it
/// from its import worker to the page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detection {
    /// The format.
    pub format: Format,
    /// Why, as a sentence naming the line that decided it.
    pub reason: String,
}

/// The lines of `text` that are not blank and not `#`/`//` comments, with
/// their 1-based numbers.
fn content_lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let t = l.trim();
        (!t.is_empty() && !t.starts_with('#') && !t.starts_with("//"))
            .then(|| (u32::try_from(i + 1).unwrap_or(u32::MAX), t))
    })
}

/// Says which format `text` is in, from its content alone.
///
/// The first rule that matches wins: a JSON object (`{` first) is a
/// scenario; `resource "kafka_quota"` / `resource "aiven_kafka_quota"` is
/// Terraform; `kind: KafkaUser`, `apiVersion: kafka.strimzi.io/...` or a
/// `quotas:` mapping with Strimzi's camel-case keys is Strimzi; a mention
/// of `ClientQuotaAlteration` / `ClientQuotaEntity` is Java; `rpk cluster
/// quotas` is rpk; a line mentioning `kafka-configs` with an option is a
/// command; a line starting `Quota configs for` / `Configs for` is describe
/// output.
///
/// # Errors
///
/// [`ErrorKind::Syntax`] at line 1 when no rule matches (an empty text, or
/// prose), naming what was looked for.
pub fn detect(text: &str) -> Result<Detection, Error> {
    let found = |format: Format, line: u32, why: &str| {
        Ok(Detection {
            format,
            reason: format!("Line {line} {why}, so this is {}.", format.title()),
        })
    };
    if let Some((n, first)) = content_lines(text).next() {
        if first.starts_with('{') {
            let squeezed: String = text.split_whitespace().collect();
            if squeezed.contains("\"entity\":[") && squeezed.contains("\"values\":[") {
                return found(
                    Format::Rpk,
                    n,
                    "opens rpk's quota JSON (entities as lists of name/type pairs)",
                );
            }
            return found(Format::ScenarioJson, n, "opens a JSON object");
        }
    }
    for (n, line) in content_lines(text) {
        let squeezed: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if squeezed.starts_with("resource \"kafka_quota\"")
            || squeezed.starts_with("resource \"aiven_kafka_quota\"")
        {
            return found(Format::Terraform, n, "declares a Terraform quota resource");
        }
    }
    for (n, line) in content_lines(text) {
        if line.starts_with("kind: KafkaUser") || line.starts_with("apiVersion: kafka.strimzi.io/")
        {
            return found(Format::Strimzi, n, "names a Strimzi resource");
        }
    }
    let strimzi_keys = [
        "producerByteRate:",
        "consumerByteRate:",
        "requestPercentage:",
        "controllerMutationRate:",
    ];
    for (n, line) in content_lines(text) {
        if strimzi_keys.iter().any(|k| line.starts_with(k)) {
            return found(Format::Strimzi, n, "sets a Strimzi KafkaUser quota key");
        }
    }
    for (n, line) in content_lines(text) {
        if line.contains("ClientQuotaAlteration") || line.contains("ClientQuotaEntity") {
            return found(Format::Java, n, "uses the Admin API's quota classes");
        }
    }
    for (n, line) in content_lines(text) {
        if line.contains("rpk cluster quotas") {
            return found(Format::Rpk, n, "runs rpk cluster quotas");
        }
    }
    {
        // `rpk cluster quotas describe` output: `user=alice` then `\tkey=value`
        // (after any comment lines a saved file starts with).
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        if let (Some((i, head)), Some((_, next))) = (lines.next(), lines.next()) {
            let entity_line = head.split(", ").all(|p| {
                ["user=", "client-id=", "client-id-prefix="]
                    .iter()
                    .any(|t| p.starts_with(t))
            });
            if entity_line && next.starts_with([' ', '\t']) && next.contains('=') {
                let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                return found(
                    Format::Rpk,
                    n,
                    "is an entity line of rpk cluster quotas describe output",
                );
            }
        }
    }
    // A pasted terminal session: the --describe command, then its output.
    let alters = content_lines(text).any(|(_, l)| l.contains("kafka-configs") && l.contains("--alter"));
    if !alters {
        if let Some((n, _)) = content_lines(text)
            .find(|(_, l)| l.starts_with("Quota configs for ") || l.starts_with("Configs for "))
        {
            return found(Format::Describe, n, "is a line of kafka-configs.sh --describe output");
        }
    }
    let has_options = content_lines(text).any(|(_, l)| l.contains(" --") || l.starts_with("--"));
    for (n, line) in content_lines(text) {
        if line.contains("kafka-configs") && has_options {
            return found(Format::ConfigsSh, n, "runs kafka-configs with options");
        }
    }
    const DESCRIBE_STARTS: [&str; 6] = [
        "Quota configs for ",
        "Configs for ",
        "Completed updating ",
        "Completed Updating ",
        "Updated config for ",
        "Warning: --zookeeper is deprecated",
    ];
    for (n, line) in content_lines(text) {
        if DESCRIBE_STARTS.iter().any(|p| line.starts_with(p)) {
            return found(
                Format::Describe,
                n,
                "is a line of kafka-configs.sh --describe or --alter output",
            );
        }
    }
    let first = content_lines(text).next();
    Err(Error::syntax(
        first.map_or(Position::new(1, 1), |(n, _)| Position::new(n, 1)),
        "client quotas in a known format: kafka-configs.sh commands, --describe output, Strimzi KafkaUser YAML, Terraform kafka_quota resources, Admin API Java, rpk cluster quotas or scenario JSON",
        match first {
            None => "an empty text".to_owned(),
            Some((_, l)) => format!("`{}`", l.chars().take(40).collect::<String>()),
        },
    ))
}

/// A store read from a text, with the notes the importer made.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The format the text was read as.
    pub format: Format,
    /// The quotas, as Kafka would hold them after the import.
    pub store: QuotaStore,
    /// What was read but not imported, or imported with a caveat, one
    /// sentence each, with where.
    pub notes: Vec<(Position, String)>,
    /// The items that failed and were skipped (`kafka-configs.sh` commands,
    /// Terraform resources), each with its error ([`import_skipping`] only;
    /// always empty from [`import`]).
    pub skipped: Vec<Error>,
    /// What the text said that an export keeps ([`export_with`]): a
    /// runbook's `--bootstrap-server`, a KafkaUser's `strimzi.io/cluster`
    /// label and namespace.
    pub keep: ExportOptions,
}

/// Reads `text` as `format` into a fresh store.
///
/// `kafka-configs.sh` commands run in [`Mode::Import`] (real runbooks); the
/// first command that fails stops the import ([`import_skipping`] skips it
/// instead). Every other format is read whole and then applied with
/// Kafka's validation.
///
/// # Errors
///
/// The format's parse error (line, column, what was expected), an
/// [`ErrorKind::Unsupported`] part of the input, or [`ErrorKind::Rejected`]
/// for a value Kafka refuses. Strimzi and Terraform need the `yaml` and
/// `hcl` features; without them they are [`ErrorKind::Unsupported`].
pub fn import(text: &str, format: Format) -> Result<Imported, Error> {
    import_with(text, format, false)
}

/// [`import`], except that an item that fails is skipped and the others
/// are imported, where each item is a request of its own: a
/// `kafka-configs.sh` command (a runbook's next command runs whatever the
/// one before did), a Terraform resource (the provider sends each as an
/// `AlterClientQuotas` request). The failed items are in
/// [`Imported::skipped`], in order; when every one failed, the store is
/// empty and the caller says so. Other formats are read as [`import`]
/// reads them (a file is one unit).
///
/// # Errors
///
/// As [`import`] for the text as a whole (not in the format, no command,
/// HCL syntax); never for one item.
pub fn import_skipping(text: &str, format: Format) -> Result<Imported, Error> {
    import_with(text, format, true)
}

fn import_with(text: &str, format: Format, skip_failed: bool) -> Result<Imported, Error> {
    let mut store = QuotaStore::new();
    let mut notes = Vec::new();
    let mut skipped = Vec::new();
    let mut keep = ExportOptions::default();
    let lines = match format {
        Format::ConfigsSh => {
            for outcome in configs_sh::run_script(text, Mode::Import, &mut store) {
                notes.extend(outcome.notes.into_iter().map(|n| (outcome.position, n)));
                // The runbook's cluster, for commands written back: the
                // first command's; one naming another says which is kept.
                match (&keep.bootstrap_server, outcome.bootstrap_server) {
                    (None, Some(b)) => keep.bootstrap_server = Some(b),
                    (Some(first), Some(b)) if *first != b => notes.push((
                        outcome.position,
                        format!("This command's --bootstrap-server is {b}, an earlier command's {first}: commands written from this runbook name {first}."),
                    )),
                    _ => {}
                }
                match outcome.result {
                    Ok(_) => {}
                    Err(e) if skip_failed => skipped.push(e),
                    Err(e) => return Err(e),
                }
            }
            if notes.is_empty()
                && store.is_empty()
                && configs_sh::parse_script(text, Mode::Import).is_empty()
            {
                return Err(Error::syntax(
                    Position::new(1, 1),
                    "a kafka-configs.sh command",
                    "no line that runs kafka-configs with options",
                ));
            }
            None
        }
        Format::Describe => Some(describe::parse_describe_output(text)?),
        Format::Java => Some(crate::java::parse(text)?),
        Format::Rpk => Some(crate::rpk::parse(text)?),
        Format::ScenarioJson => {
            let file = crate::scenario::from_json(text)?;
            notes.extend(file.notes.iter().map(|n| (Position::new(1, 1), n.clone())));
            store = crate::scenario::quota_store(&file.scenario)?;
            None
        }
        #[cfg(feature = "yaml")]
        Format::Strimzi => Some(crate::strimzi::parse(text)?),
        #[cfg(feature = "hcl")]
        Format::Terraform if skip_failed => {
            let lines = crate::terraform::parse_each(text)?;
            skipped.extend(lines.skipped.iter().cloned());
            Some(lines)
        }
        #[cfg(feature = "hcl")]
        Format::Terraform => Some(crate::terraform::parse(text)?),
        #[allow(unreachable_patterns)]
        other => {
            return Err(Error::unsupported(
                Position::new(1, 1),
                format!("reading {}", other.title()),
                format!(
                    "this build of quota-formats was made without the `{}` feature",
                    if other == Format::Strimzi {
                        "yaml"
                    } else {
                        "hcl"
                    }
                ),
            ))
        }
    };
    if let Some(lines) = &lines {
        keep = lines.keep.clone();
    }
    if let Some(lines) = lines {
        if skip_failed && format == Format::Terraform {
            // Resource by resource: one Kafka refuses is one more skipped.
            skipped.extend(lines.apply_each(&mut store));
            skipped.sort_by_key(|e| (e.position.line, e.position.column));
        } else {
            lines.apply(&mut store)?;
        }
        notes.extend(lines.notes);
    }
    Ok(Imported {
        format,
        store,
        notes,
        skipped,
        keep,
    })
}

/// [`detect`] then [`import`].
///
/// # Errors
///
/// As [`detect`] and [`import`].
pub fn import_any(text: &str) -> Result<(Detection, Imported), Error> {
    let found = detect(text)?;
    let imported = import(text, found.format)?;
    Ok((found, imported))
}

/// Writes `store` as `format`, with the default [`ExportOptions`]
/// (`--bootstrap-server localhost:9092`, Strimzi `kafka.strimzi.io/v1`
/// for `strimzi.io/cluster: my-cluster`): [`export_with`].
///
/// # Errors
///
/// As [`export_with`].
pub fn export(store: &QuotaStore, format: Format) -> Result<Export, Error> {
    export_with(store, format, &ExportOptions::default())
}

/// Writes `store` as `format`.
///
/// `configs-sh` gives one `kafka-configs.sh --alter` command per entity
/// (`--bootstrap-server` from `options`, else `localhost:9092`); `describe`
/// gives the 4.x `--describe` lines; `json` gives a scenario file holding
/// only the quotas; `strimzi` uses `options`' apiVersion, cluster label
/// and namespace ([`crate::strimzi::export_with`]); `java`, `terraform` as
/// their modules say. Pass an import's [`Imported::keep`] to write back
/// where its quotas came from.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for `rpk` (import only). Writing `strimzi`
/// and `terraform` is plain text and needs no feature.
pub fn export_with(store: &QuotaStore, format: Format, options: &ExportOptions) -> Result<Export, Error> {
    let plain = |text: String| Export {
        text,
        unexpressed: Vec::new(),
        notes: Vec::new(),
    };
    match format {
        Format::ConfigsSh => Ok(plain(configs_sh::alter_commands_to(
            store,
            options
                .bootstrap_server
                .as_deref()
                .unwrap_or(configs_sh::DEFAULT_BOOTSTRAP_SERVER),
        ))),
        Format::Describe => {
            let mut text = describe::describe_lines(store.entries()).join("\n");
            text.push('\n');
            Ok(plain(text))
        }
        Format::Java => Ok(crate::java::export(store)),
        Format::ScenarioJson => Ok(plain(crate::scenario::quotas_to_json(store))),
        Format::Strimzi => Ok(crate::strimzi::export_with(store, options)),
        Format::Terraform => Ok(crate::terraform::export(store)),
        Format::Rpk => Err(Error::unsupported(
            Position::new(1, 1),
            "writing rpk commands",
            "rpk is read for migration only; Kafka's own kafka-configs.sh commands (`--to configs-sh`) work on Redpanda too",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::{EntityName, QuotaEntity, QuotaKey};

    #[test]
    fn a_format_serializes_as_its_name() {
        for f in Format::ALL {
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.name()));
            assert_eq!(serde_json::from_str::<Format>(&json).unwrap(), f);
        }
        let d = Detection { format: Format::ConfigsSh, reason: "r".into() };
        let back: Detection = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
        assert_eq!(back, d);
    }

    #[test]
    fn detects_each_format_with_a_reason() {
        let cases = [
            ("{\"format\": \"kafka-quota-playground/scenario\"}", Format::ScenarioJson),
            ("resource  \"kafka_quota\" \"q\" {\n}\n", Format::Terraform),
            ("---\napiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\n", Format::Strimzi),
            ("  quotas:\n    producerByteRate: 100000\n", Format::Strimzi),
            ("new ClientQuotaAlteration.Op(\"producer_byte_rate\", 1.0)", Format::Java),
            ("rpk cluster quotas alter --add a=1 --name user=x", Format::Rpk),
            ("$ kafka-configs --bootstrap-server b:9092 --describe --entity-type users", Format::ConfigsSh),
            ("Quota configs for user-principal 'a' are producer_byte_rate=1.0", Format::Describe),
            ("$ kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type users\nQuota configs for user-principal 'a' are producer_byte_rate=1.0", Format::Describe),
            ("user=alice\n\tproducer_byte_rate=2000000\n", Format::Rpk),
            ("{\"quotas\": [{\"entity\": [{\"name\": \"a\", \"type\": \"user\"}], \"values\": []}]}", Format::Rpk),
        ];
        for (text, want) in cases {
            let d = detect(text).unwrap();
            assert_eq!(d.format, want, "{text}");
            assert!(d.reason.starts_with("Line "), "{}", d.reason);
        }
        let e = detect("Hello\nworld").unwrap_err();
        assert_eq!(e.position, Position::new(1, 1));
        assert!(e.to_string().contains("found `Hello`"), "{e}");
        assert!(detect("")
            .unwrap_err()
            .to_string()
            .contains("an empty text"));
    }

    #[test]
    fn configs_sh_export_reads_back() {
        let mut store = QuotaStore::new();
        store
            .set(
                &QuotaEntity::user("it's me"),
                QuotaKey::ProducerByteRate,
                1024.0,
            )
            .unwrap();
        store
            .set(
                &QuotaEntity::UserClientId {
                    user: EntityName::Default,
                    client_id: EntityName::Named("app".into()),
                },
                QuotaKey::RequestPercentage,
                12.5,
            )
            .unwrap();
        let text = configs_sh_commands(&store);
        assert!(text.contains("--entity-default"), "{text}");
        let back = import(&text, Format::ConfigsSh).unwrap();
        assert_eq!(back.store, store);
    }

    #[test]
    fn configs_sh_export_keeps_the_runbooks_bootstrap_server() {
        let runbook = "kafka-configs.sh --bootstrap-server=kafka-1.prod:9093 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n";
        let imported = import(runbook, Format::ConfigsSh).unwrap();
        assert_eq!(imported.keep.bootstrap_server.as_deref(), Some("kafka-1.prod:9093"));
        let out = export_with(&imported.store, Format::ConfigsSh, &imported.keep).unwrap();
        assert_eq!(out.text, "kafka-configs.sh --bootstrap-server kafka-1.prod:9093 --alter --entity-type users --entity-name alice --add-config producer_byte_rate=1024\n");
        // Without one (describe output, a --zookeeper runbook): the default.
        let old = "kafka-configs.sh --zookeeper zk:2181 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n";
        let imported = import(old, Format::ConfigsSh).unwrap();
        assert_eq!(imported.keep.bootstrap_server, None);
        assert!(export_with(&imported.store, Format::ConfigsSh, &imported.keep)
            .unwrap()
            .text
            .starts_with("kafka-configs.sh --bootstrap-server localhost:9092 --alter"));
        // A value the shell would change is quoted.
        let odd = ExportOptions { bootstrap_server: Some("a b:9092".to_owned()), ..ExportOptions::default() };
        assert!(export_with(&imported.store, Format::ConfigsSh, &odd).unwrap().text.starts_with("kafka-configs.sh --bootstrap-server 'a b:9092' --alter"));
    }

    #[test]
    fn rpk_describe_output_after_a_comment_line_is_rpk() {
        let text = "# source: a documentation page\nuser=alice\n\tproducer_byte_rate=2000000\n";
        let d = detect(text).unwrap();
        assert_eq!(d.format, Format::Rpk);
        let got = import(text, d.format).unwrap();
        assert_eq!(got.store.get(&QuotaEntity::user("alice")).and_then(|m| m.get(&QuotaKey::ProducerByteRate)).copied(), Some(2e6));
    }

    #[test]
    fn a_runbook_import_skips_the_commands_that_fail_and_keeps_the_rest() {
        let text = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=1024' --entity-type users --entity-name a\n\
                    kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=abc' --entity-type users --entity-name b\n\
                    kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'consumer_byte_rate=2048' --entity-type users --entity-name c\n";
        // import stops at the first failed command.
        let e = import(text, Format::ConfigsSh).unwrap_err();
        assert_eq!(e.position.line, 2);
        // import_skipping runs every command, as the script would.
        let got = import_skipping(text, Format::ConfigsSh).unwrap();
        assert_eq!(got.skipped.len(), 1);
        assert_eq!(got.skipped[0].position.line, 2);
        let value = |user: &str, key| got.store.get(&QuotaEntity::user(user)).and_then(|m| m.get(&key)).copied();
        assert_eq!(value("a", QuotaKey::ProducerByteRate), Some(1024.0));
        assert_eq!(value("c", QuotaKey::ConsumerByteRate), Some(2048.0));
        assert_eq!(value("b", QuotaKey::ProducerByteRate), None);
        // Nothing applied: an empty store, every failure listed, and a
        // --describe command (which alters nothing) does not count.
        let bad = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=abc' --entity-type users --entity-name b\n\
                   kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type users\n\
                   kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'consumer_byte_rate=x' --entity-type users --entity-name c\n";
        let got = import_skipping(bad, Format::ConfigsSh).unwrap();
        assert!(got.store.is_empty());
        assert_eq!(got.skipped.iter().map(|e| e.position.line).collect::<Vec<_>>(), [1, 3]);
    }

    #[cfg(feature = "hcl")]
    #[test]
    fn a_terraform_import_skips_each_resource_that_fails_and_keeps_the_rest() {
        let text = "resource \"kafka_quota\" \"a\" {\n  entity_name = \"a\"\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = 1000\n  }\n}\n\
                    resource \"kafka_quota\" \"b\" {\n  entity_name = module.users.name\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = 1000\n  }\n}\n\
                    resource \"kafka_quota\" \"c\" {\n  entity_name = \"c\"\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = -5\n    consumer_byte_rate = 2000\n  }\n}\n\
                    resource \"kafka_quota\" \"d\" {\n  entity_name = \"d\"\n  entity_type = \"client-id\"\n  config = {\n    consumer_byte_rate = 3000\n  }\n}\n";
        // import stops at the first failure.
        assert_eq!(import(text, Format::Terraform).unwrap_err().position.line, 9);
        let got = import_skipping(text, Format::Terraform).unwrap();
        // b: an expression only Terraform computes; c: a value Kafka refuses,
        // which takes the whole resource (one AlterClientQuotas entry) with it.
        let lines: Vec<u32> = got.skipped.iter().map(|e| e.position.line).collect();
        assert_eq!(lines, [9, 19], "{:?}", got.skipped);
        assert!(got.skipped[1].to_string().contains("producer_byte_rate"), "{}", got.skipped[1]);
        let value = |e: &QuotaEntity, key| got.store.get(e).and_then(|m| m.get(&key)).copied();
        assert_eq!(value(&QuotaEntity::user("a"), QuotaKey::ProducerByteRate), Some(1000.0));
        assert_eq!(value(&QuotaEntity::client_id("d"), QuotaKey::ConsumerByteRate), Some(3000.0));
        assert_eq!(got.store.get(&QuotaEntity::user("c")), None, "all of c or none of it");
        // Every resource failing: an empty store, the failure listed.
        let bad = "resource \"kafka_quota\" \"b\" {\n  entity_name = module.users.name\n  entity_type = \"user\"\n  config = {}\n}\n";
        let got = import_skipping(bad, Format::Terraform).unwrap();
        assert!(got.store.is_empty());
        assert_eq!(got.skipped, [import(bad, Format::Terraform).unwrap_err()]);
    }
}
