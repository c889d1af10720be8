//! The import box and the export menu, as pure functions over
//! `quota-formats`: what a pasted text is, what importing it would do, and
//! the scenario's quotas written in each format with what that format
//! cannot express.
//!
//! Detection, parsing and writing are `quota_formats::detect`'s; this module
//! only shapes their answers for the panel. The wasm build leaves out the
//! YAML and HCL parsers (`quota-formats` without its `yaml`/`hcl` features,
//! to keep the download small), so Strimzi and Terraform texts are detected
//! but read by the `kafka-quota` CLI; see [`cli_hint`].

use quota_engine::sim::{QuotaSetting, Scenario};
use quota_engine::QuotaStore;
use quota_formats::detect::{self, Detection, Format};

use crate::model;

/// The formats offered by the export menu, in menu order.
pub const EXPORT_FORMATS: [Format; 6] = [
    Format::ConfigsSh,
    Format::Describe,
    Format::Java,
    Format::Strimzi,
    Format::Terraform,
    Format::ScenarioJson,
];

/// An error placed in the pasted text: 1-based line and column (characters)
/// and the parser's sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// A full sentence (the parser's message, starting `Line N, column M:`).
    pub message: String,
    /// The text of that line, for showing the place with a caret.
    pub source_line: String,
}

impl Placed {
    /// At most `width` characters of the line around the column, and the
    /// caret's 0-based character offset in them: the place stays visible
    /// on a narrow screen. A cut start or end is marked with `…`.
    pub fn excerpt(&self, width: usize) -> (String, usize) {
        let chars: Vec<char> = self.source_line.chars().collect();
        let col = (self.column.saturating_sub(1) as usize).min(chars.len());
        let width = width.max(8);
        let start = col.saturating_sub(width / 3).min(chars.len().saturating_sub(width - 1)).min(col);
        let end = (start + width).min(chars.len());
        let mut out = String::new();
        let mut caret = col - start;
        if start > 0 {
            out.push('…');
            caret += 1;
        }
        out.extend(&chars[start..end]);
        if end < chars.len() {
            out.push('…');
        }
        (out, caret)
    }
}

/// What the import box shows for a text.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportPreview {
    /// Nothing but blanks was typed.
    Empty,
    /// The text could not be read: where and why. `detected` is set when
    /// the format was recognised and its parser failed.
    Failed {
        /// The detected format and why, when detection succeeded.
        detected: Option<Detection>,
        /// The error, placed.
        error: Placed,
    },
    /// The text reads; these quotas would be imported.
    Ready {
        /// The detected format and why.
        detected: Detection,
        /// The quotas read, in the store's order (one per entity and key).
        quotas: Vec<QuotaSetting>,
        /// What the importer noted (read but not imported, or with a
        /// caveat), placed.
        notes: Vec<Placed>,
    },
}

/// The text of 1-based line `line` of `text` (empty past the end).
fn line_of(text: &str, line: u32) -> String {
    text.lines().nth(line.saturating_sub(1) as usize).unwrap_or("").to_owned()
}

fn placed(text: &str, line: u32, column: u32, message: String) -> Placed {
    Placed { line, column, message, source_line: line_of(text, line) }
}

/// Where to read a format this build cannot parse: the `kafka-quota` CLI
/// command that turns it into scenario JSON, which this box reads. `None`
/// for the formats the browser reads itself.
pub fn cli_hint(format: Format) -> Option<String> {
    if detect::import("", format).is_err_and(|e| matches!(e.kind, quota_formats::ErrorKind::Unsupported { .. })) {
        Some(format!(
            "Reading {} is left out of the browser build to keep the download small. \
             Run `kafka-quota convert --to json FILE` and paste its output here \
             (or `kafka-quota convert --to json FILE > scenario.json` then `kafka-quota link scenario.json` for a link that opens it here). \
             Exporting to this format works here.",
            format.title()
        ))
    } else {
        None
    }
}

/// The quotas of a store as scenario settings, in the store's order.
pub fn settings_of(store: &QuotaStore) -> Vec<QuotaSetting> {
    store
        .entries()
        .flat_map(|(e, values)| values.iter().map(move |(k, v)| QuotaSetting { entity: e.clone(), key: *k, value: *v }))
        .collect()
}

/// Detects the format of `text` and reads it, without changing anything.
pub fn preview(text: &str) -> ImportPreview {
    if text.trim().is_empty() {
        return ImportPreview::Empty;
    }
    let detected = match detect::detect(text) {
        Ok(d) => d,
        Err(e) => {
            return ImportPreview::Failed {
                detected: None,
                error: placed(text, e.position.line, e.position.column, e.to_string()),
            }
        }
    };
    if let Some(hint) = cli_hint(detected.format) {
        return ImportPreview::Failed { detected: Some(detected), error: placed(text, 1, 1, hint) };
    }
    match detect::import(text, detected.format) {
        Ok(imported) => ImportPreview::Ready {
            quotas: settings_of(&imported.store),
            notes: imported
                .notes
                .into_iter()
                .map(|(p, n)| placed(text, p.line, p.column, format!("Line {}, column {}: {n}", p.line, p.column)))
                .collect(),
            detected,
        },
        Err(e) => ImportPreview::Failed {
            detected: Some(detected),
            error: placed(text, e.position.line, e.position.column, e.to_string()),
        },
    }
}

/// Applies imported quotas to a scenario: `replace` drops every quota the
/// scenario had first; otherwise each imported (entity, key) replaces the
/// scenario's value for it and the rest stay (merge).
///
/// Every quota is checked with Kafka's validation against the quotas
/// already there; the ones Kafka refuses are skipped and counted in the
/// result (`(applied, refused)`).
pub fn apply_quotas(s: &mut Scenario, quotas: &[QuotaSetting], replace: bool) -> (u32, u32) {
    if replace {
        s.quotas.clear();
    }
    let (mut applied, mut refused) = (0, 0);
    for q in quotas {
        if model::check_quota(s, &q.entity, q.key, q.value).is_ok() {
            model::set_quota(s, q.entity.clone(), q.key, q.value);
            applied += 1;
        } else {
            refused += 1;
        }
    }
    (applied, refused)
}

/// The sentence shown after an import.
pub fn import_summary(format: Format, applied: u32, refused: u32, replace: bool) -> String {
    let mut s = format!(
        "{} {applied} quota value{} from {}.",
        if replace { "Replaced the scenario's quotas with" } else { "Merged" },
        if applied == 1 { "" } else { "s" },
        format.title()
    );
    if refused > 0 {
        s.push_str(&format!(" {refused} value{} refused by Kafka's validation and left out.", if refused == 1 { " was" } else { "s were" }));
    }
    s
}

/// The scenario written in an export format.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportView {
    /// The text (read-only in the page).
    pub text: String,
    /// What the format cannot express, one sentence each.
    pub unexpressed: Vec<String>,
}

/// Writes the scenario's quotas as `format`. The scenario JSON is the whole
/// scenario (quotas, brokers, connections, workloads); the other formats
/// hold its quotas (those Kafka accepts).
///
/// # Errors
/// The writer's sentence when the format cannot be written in this build.
pub fn export(scenario: &Scenario, format: Format) -> Result<ExportView, String> {
    if format == Format::ScenarioJson {
        return Ok(ExportView { text: quota_formats::scenario::to_json(scenario), unexpressed: Vec::new() });
    }
    let store = model::store_of(scenario);
    let e = detect::export(&store, format).map_err(|e| e.to_string())?;
    Ok(ExportView { text: e.text, unexpressed: e.unexpressed.iter().map(ToString::to_string).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use quota_engine::{EntityName, QuotaEntity, QuotaKey};

    /// The lab article's command sequence, as pasted from the page.
    const LAB: &str = "\
$ kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=2000000,consumer_byte_rate=1000000 --entity-type users --entity-name tenantUserA
Completed updating config for user tenantUserA.
$ kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config request_percentage=50 --entity-type clients --entity-name reporting-job
Completed updating config for client reporting-job.
$ kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=5000000 --entity-type users --entity-default
$ kafka-configs.sh --bootstrap-server localhost:9098 --alter --add-config producer_byte_rate=500000 --entity-type users --entity-name tenantUserA --entity-type clients --entity-name batch-loader
$ kafka-configs.sh --bootstrap-server localhost:9098 --describe --entity-type users --entity-name tenantUserA
";

    fn value(quotas: &[QuotaSetting], e: &QuotaEntity, k: QuotaKey) -> Option<f64> {
        quotas.iter().find(|q| &q.entity == e && q.key == k).map(|q| q.value)
    }

    #[test]
    fn the_lab_commands_read_into_their_quotas() {
        let ImportPreview::Ready { detected, quotas, .. } = preview(LAB) else { panic!("{:?}", preview(LAB)) };
        assert_eq!(detected.format, Format::ConfigsSh);
        assert!(detected.reason.starts_with("Line 1 "), "{}", detected.reason);
        let a = QuotaEntity::user("tenantUserA");
        assert_eq!(value(&quotas, &a, QuotaKey::ProducerByteRate), Some(2_000_000.0));
        assert_eq!(value(&quotas, &a, QuotaKey::ConsumerByteRate), Some(1_000_000.0));
        assert_eq!(value(&quotas, &QuotaEntity::client_id("reporting-job"), QuotaKey::RequestPercentage), Some(50.0));
        assert_eq!(value(&quotas, &QuotaEntity::User(EntityName::Default), QuotaKey::ProducerByteRate), Some(5_000_000.0));
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("tenantUserA".into()),
            client_id: EntityName::Named("batch-loader".into()),
        };
        assert_eq!(value(&quotas, &pair, QuotaKey::ProducerByteRate), Some(500_000.0));
        assert_eq!(quotas.len(), 5);
    }

    #[test]
    fn zookeeper_and_unexpanded_variables_are_reported_in_place() {
        let zk = "kafka-configs.sh --zookeeper localhost:2181 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name a\n";
        match preview(zk) {
            ImportPreview::Ready { notes, quotas, .. } => {
                assert_eq!(quotas.len(), 1);
                assert!(notes.iter().any(|n| n.message.contains("zookeeper") && n.line == 1), "{notes:?}");
            }
            other => panic!("{other:?}"),
        }
        let var = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name $user\n";
        let ImportPreview::Failed { detected: Some(d), error } = preview(var) else { panic!("{:?}", preview(var)) };
        assert_eq!(d.format, Format::ConfigsSh);
        assert!(error.message.contains("$user"), "{}", error.message);
        assert_eq!(error.line, 1);
        assert!(error.column > 1);
    }

    #[test]
    fn garbage_and_bad_values_fail_with_line_and_column() {
        assert_eq!(preview("  \n\t"), ImportPreview::Empty);
        let ImportPreview::Failed { detected: None, error } = preview("hello\nworld") else { panic!() };
        assert_eq!((error.line, error.column), (1, 1));
        assert!(error.message.starts_with("Line 1, column 1: "), "{}", error.message);
        assert_eq!(error.source_line, "hello");
        let bad = "# quotas\nkafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=abc --entity-type users --entity-name a\n";
        let ImportPreview::Failed { error, .. } = preview(bad) else { panic!("{:?}", preview(bad)) };
        assert_eq!(error.line, 2, "{}", error.message);
        assert!(error.source_line.starts_with("kafka-configs.sh"));
    }

    #[test]
    fn strimzi_and_terraform_point_to_the_cli_unless_this_build_reads_them() {
        let yaml = "apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: a\nspec:\n  quotas:\n    producerByteRate: 1000\n";
        match preview(yaml) {
            ImportPreview::Failed { detected: Some(d), error } => {
                assert_eq!(d.format, Format::Strimzi);
                assert!(error.message.contains("kafka-quota convert --to json"), "{}", error.message);
            }
            ImportPreview::Ready { detected, quotas, .. } => {
                // A build with the `yaml` feature reads it.
                assert_eq!(detected.format, Format::Strimzi);
                assert_eq!(quotas.len(), 1);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(cli_hint(Format::ConfigsSh), None);
        assert_eq!(cli_hint(Format::ScenarioJson), None);
    }

    #[test]
    fn excerpts_keep_the_caret_under_the_column() {
        let p = placed("x\nabcdefghijklmnopqrstuvwxyz", 2, 12, String::new());
        let (text, caret) = p.excerpt(10);
        assert_eq!(text.chars().nth(caret), Some('l'), "{text}");
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        let (text, caret) = placed("abc", 1, 1, String::new()).excerpt(10);
        assert_eq!((text.as_str(), caret), ("abc", 0));
        // Past the end of the line: the caret sits just after it.
        let (text, caret) = placed("abc", 1, 9, String::new()).excerpt(10);
        assert_eq!((text.as_str(), caret), ("abc", 3));
        let (text, caret) = placed("abcdefghijklmnopqrstuvwxyz", 1, 27, String::new()).excerpt(10);
        assert_eq!((text.chars().count(), text.starts_with('…')), (caret, true), "{text}");
    }

    #[test]
    fn merge_keeps_other_quotas_and_replace_drops_them() {
        let ImportPreview::Ready { quotas, .. } = preview(LAB) else { panic!() };
        let base = presets::default_scenario();
        assert!(!base.quotas.is_empty());
        let mut merged = base.clone();
        let (applied, refused) = apply_quotas(&mut merged, &quotas, false);
        assert_eq!((applied, refused), (5, 0));
        for q in &base.quotas {
            let kept = merged.quotas.iter().any(|m| m.entity == q.entity && m.key == q.key);
            assert!(kept, "{q:?} was dropped by a merge");
        }
        let mut replaced = base.clone();
        apply_quotas(&mut replaced, &quotas, true);
        assert_eq!(replaced.quotas, quotas);
        // Merging the same quotas twice changes nothing.
        let once = merged.clone();
        apply_quotas(&mut merged, &quotas, false);
        assert_eq!(merged, once);
        // A value Kafka refuses is skipped and counted.
        let bad = vec![QuotaSetting { entity: QuotaEntity::user("x"), key: QuotaKey::ConnectionCreationRate, value: 5.0 }];
        assert_eq!(apply_quotas(&mut merged, &bad, false), (0, 1));
        assert_eq!(merged, once);
        assert!(import_summary(Format::ConfigsSh, 5, 1, false).contains("1 value was refused"));
    }

    #[test]
    fn every_export_reads_back_or_lists_what_it_cannot_express() {
        let mut s = presets::default_scenario();
        let ImportPreview::Ready { quotas, .. } = preview(LAB) else { panic!() };
        apply_quotas(&mut s, &quotas, true);
        let sh = export(&s, Format::ConfigsSh).unwrap();
        assert!(sh.text.contains("kafka-configs.sh --bootstrap-server localhost:9092 --alter"), "{}", sh.text);
        assert!(sh.text.contains("--add-config"));
        // configs-sh, describe, java and json read back to the same quotas.
        for f in [Format::ConfigsSh, Format::Describe, Format::Java, Format::ScenarioJson] {
            let e = export(&s, f).unwrap();
            assert!(e.unexpressed.is_empty(), "{f}: {:?}", e.unexpressed);
            let ImportPreview::Ready { detected, quotas: back, .. } = preview(&e.text) else {
                panic!("{f}: {:?}\n{}", preview(&e.text), e.text)
            };
            assert_eq!(detected.format, f);
            let mut a = back.clone();
            let mut b = quotas.clone();
            let key = |q: &QuotaSetting| format!("{}|{}", q.entity.path(), q.key.as_str());
            a.sort_by_key(key);
            b.sort_by_key(key);
            assert_eq!(a, b, "{f}");
        }
        // Strimzi cannot hold client-id quotas; Terraform cannot hold (user, client-id) ones.
        // The default scenario's user tenant-a is a Kubernetes name; the lab's
        // tenantUserA (capitals) is not, and is listed rather than dropped.
        apply_quotas(&mut s, &presets::default_scenario().quotas, false);
        match export(&s, Format::Strimzi) {
            Ok(e) => {
                assert!(e.unexpressed.iter().any(|u| u.contains("clients/reporting-job")), "{:?}", e.unexpressed);
                assert!(e.unexpressed.iter().any(|u| u.contains("users/tenantUserA ")), "{:?}", e.unexpressed);
                assert!(e.text.contains("kind: KafkaUser\nmetadata:\n  name: tenant-a\n"), "{}", e.text);
                assert!(e.text.contains("# Not expressible in a KafkaUser: clients/reporting-job"), "{}", e.text);
            }
            Err(m) => panic!("Strimzi export must work in the browser build: {m}"),
        }
        match export(&s, Format::Terraform) {
            Ok(e) => assert!(e.unexpressed.iter().any(|u| u.contains("batch-loader")), "{:?}", e.unexpressed),
            Err(m) => panic!("Terraform export must work in the browser build: {m}"),
        }
    }
}
