//! The import box and the export menu, as pure functions over
//! `quota-formats`: what a pasted text is, what importing it would do, and
//! the scenario's quotas written in each format with what that format
//! cannot express.
//!
//! Detection, parsing and writing are `quota_formats::detect`'s; this module
//! only shapes their answers for the panel. In the browser these functions
//! run in a Web Worker of their own (the `quota-interchange-worker` binary,
//! loaded when the Import and export panel comes into view), so the page's
//! first download carries none of the readers and writers; [`handle`] is
//! the worker's whole protocol: a [`Request`] in, a [`Reply`] out, both as
//! JSON text.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use quota_engine::sim::{QuotaSetting, Scenario};
use quota_engine::{QuotaEntity, QuotaKey, QuotaStore};
use quota_formats::detect::{self, Detection, Format};
use quota_formats::interchange::ExportOptions;
use serde::{Deserialize, Serialize};

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
        let start = col
            .saturating_sub(width / 3)
            .min(chars.len().saturating_sub(width - 1))
            .min(col);
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
        /// The items that fail (`kafka-configs.sh` commands, Terraform
        /// resources), placed with their error: the import leaves them out
        /// and keeps the others, each being a request of its own
        /// ([`detect::import_skipping`]).
        skipped: Vec<Placed>,
        /// What the text says about where its quotas go, which the page's
        /// export then keeps (a KafkaUser's `strimzi.io/cluster` label and
        /// namespace, a runbook's `--bootstrap-server`), as the CLI's
        /// `convert` keeps it; every field `None` from a text that says
        /// nothing of it.
        #[serde(default)]
        keep: ExportOptions,
    },
}

/// The text of 1-based line `line` of `text` (empty past the end).
fn line_of(text: &str, line: u32) -> String {
    text.lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("")
        .to_owned()
}

fn placed(text: &str, line: u32, column: u32, message: String) -> Placed {
    Placed {
        line,
        column,
        message,
        source_line: line_of(text, line),
    }
}

/// The quotas of a store as scenario settings, in the store's order.
pub fn settings_of(store: &QuotaStore) -> Vec<QuotaSetting> {
    store
        .entries()
        .flat_map(|(e, values)| {
            values.iter().map(move |(k, v)| QuotaSetting {
                entity: e.clone(),
                key: *k,
                value: *v,
            })
        })
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
    match detect::import_skipping(text, detected.format) {
        // The one item failed: its error, as the text's. (Several that all
        // failed are listed as skipped, with nothing to import.)
        Ok(imported) if imported.store.is_empty() && imported.skipped.len() == 1 => {
            let e = &imported.skipped[0];
            ImportPreview::Failed {
                detected: Some(detected),
                error: placed(text, e.position.line, e.position.column, e.to_string()),
            }
        }
        Ok(imported) => ImportPreview::Ready {
            keep: imported.keep,
            skipped: imported
                .skipped
                .into_iter()
                .map(|e| placed(text, e.position.line, e.position.column, e.to_string()))
                .collect(),
            quotas: settings_of(&imported.store),
            notes: imported
                .notes
                .into_iter()
                .map(|(p, n)| {
                    placed(
                        text,
                        p.line,
                        p.column,
                        format!("Line {}, column {}: {n}", p.line, p.column),
                    )
                })
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
/// result (`(applied, refused)`). The scenario's list keeps its order (a
/// replaced value stays where it was, a new one is added at the end, in
/// import order), and an entry Kafka refuses that the scenario already had
/// (from a link or a file) is kept, as the quotas panel shows it.
///
/// Each value is its own `AlterClientQuotas` request, as one
/// `kafka-configs.sh --alter` per line is: Kafka's cap on records per
/// request (`QuorumController.MAX_RECORDS_PER_USER_OP`, enforced by
/// [`QuotaStore::plan`]) bounds one request, not how many quotas a cluster
/// holds, so a large import is never cut short.
///
/// Linear in the number of values (up to a log factor): one store is
/// built from the scenario ([`model::store_of`]) and every value goes
/// through it ([`QuotaStore::set`], Kafka's `alterClientQuotas` and
/// `replay`), instead of rebuilding it per value.
pub fn apply_quotas(s: &mut Scenario, quotas: &[QuotaSetting], replace: bool) -> (u32, u32) {
    if replace {
        s.quotas.clear();
    }
    let mut store = model::store_of(s);
    // Where each (entity, key) first appears in the list (what
    // `model::set_quota` would find).
    let mut index: BTreeMap<(QuotaEntity, QuotaKey), usize> = BTreeMap::new();
    for (i, q) in s.quotas.iter().enumerate() {
        index.entry((q.entity.clone(), q.key)).or_insert(i);
    }
    let (mut applied, mut refused) = (0, 0);
    for q in quotas {
        if store.set(&q.entity, q.key, q.value).is_err() {
            refused += 1;
            continue;
        }
        applied += 1;
        match index.entry((q.entity.clone(), q.key)) {
            Entry::Occupied(at) => s.quotas[*at.get()].value = q.value,
            Entry::Vacant(slot) => {
                slot.insert(s.quotas.len());
                s.quotas.push(q.clone());
            }
        }
    }
    (applied, refused)
}

/// The most quota values a scenario in the page holds after an import:
/// [`model::MAX_QUOTAS`], the limit links and runs share
/// ([`model::scenario_limit`]).
pub const MAX_SCENARIO_QUOTAS: usize = model::MAX_QUOTAS;

pub use crate::model::import_limit;

/// The sentence shown after an import: `applied` and `refused` values
/// ([`apply_quotas`]), and the `skipped` commands that failed
/// ([`ImportPreview::Ready`]).
pub fn import_summary(format: Format, applied: u32, refused: u32, skipped: usize, replace: bool) -> String {
    let mut s = format!(
        "{} {applied} quota value{} from {}.",
        if replace {
            "Replaced the scenario's quotas with"
        } else {
            "Merged"
        },
        if applied == 1 { "" } else { "s" },
        format.title()
    );
    if refused > 0 {
        s.push_str(&format!(
            " {refused} value{} refused by Kafka's validation and left out.",
            if refused == 1 { " was" } else { "s were" }
        ));
    }
    if skipped > 0 {
        s.push_str(&format!(
            " {} that fail{} left out.",
            items_of(format, skipped),
            if skipped == 1 { "s was" } else { " were" }
        ));
    }
    s
}

/// `n` items of what [`detect::import_skipping`] skips one by one in
/// `format`: `1 command`, `2 resources`.
fn items_of(format: Format, n: usize) -> String {
    format!("{n} {}", item_noun(format, n))
}

/// What [`detect::import_skipping`] skips in `format`, for `n` of them.
fn item_noun(format: Format, n: usize) -> &'static str {
    let (one, many) = match format {
        Format::Terraform => ("resource", "resources"),
        Format::ConfigsSh => ("command", "commands"),
        _ => ("item", "items"),
    };
    if n == 1 { one } else { many }
}

/// The sentence above the items an import leaves out (`n` > 0): how many,
/// and why the others still apply (each is a request of its own); when
/// `nothing` is left to import, that every one fails.
pub fn skipped_sentence(format: Format, n: usize, nothing: bool) -> String {
    if nothing {
        return format!("Nothing to import: all {} fail:", items_of(format, n));
    }
    let why = match format {
        Format::Terraform => "the provider sends each kafka_quota resource as a request of its own",
        _ => "each kafka-configs.sh command is a request of its own",
    };
    format!(
        "{} fail{} and {} left out; the others are imported ({why}):",
        items_of(format, n),
        if n == 1 { "s" } else { "" },
        if n == 1 { "is" } else { "are" }
    )
}

/// What the Import box holds, as one state: the text typed, the mode, the
/// worker's last preview and whether it is for the text now typed. The
/// page's `ImportBox` keeps it in a Yew reducer; every change is one
/// [`ImportEvent`] through [`ImportBox::apply`].
///
/// The last preview stays on screen while the worker reads a new text (no
/// flicker), and Import waits for the fresh one ([`ImportBox::stale`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportBox {
    /// The text typed (kept whatever happens: nothing typed is lost).
    pub text: String,
    /// Replace (true) or merge (false) the scenario's quotas.
    pub replace: bool,
    /// The sentence the last Import left ([`import_summary`]), until the
    /// text changes.
    pub result: Option<String>,
    /// The worker's last preview.
    pub preview: std::rc::Rc<ImportPreview>,
    /// The id of the latest preview request (0: none); a reply of an older
    /// request is ignored.
    pub asked: u32,
    /// The text changed since [`ImportBox::preview`] was asked for.
    pub stale: bool,
    /// The worker's failure (it could not start or stopped): the sentence.
    pub failure: Option<String>,
    /// Why the worker could not read the latest request (until the text
    /// changes).
    pub refused: Option<String>,
}

/// One change of the [`ImportBox`].
#[derive(Debug, Clone, PartialEq)]
pub enum ImportEvent {
    /// The text was typed: the last Import's sentence goes.
    Typed(String),
    /// A preview of the text was asked for with this request id, or, with
    /// `None`, the text is blank and there is nothing to ask.
    Asked(Option<u32>),
    /// The worker answered request `id` with a preview.
    Previewed(u32, ImportPreview),
    /// The worker failed: why.
    Failed(String),
    /// The worker could not read request `id`: why (taken for the latest
    /// request only).
    Refused(u32, String),
    /// Merge (false) or replace (true) was chosen.
    Mode(bool),
    /// Import was pressed: what it did, in words.
    Imported(String),
}

impl ImportBox {
    /// An empty box; `failure` is the worker's, if it has failed already.
    pub fn new(failure: Option<String>) -> ImportBox {
        ImportBox {
            text: String::new(),
            replace: false,
            result: None,
            preview: std::rc::Rc::new(ImportPreview::Empty),
            asked: 0,
            stale: false,
            failure,
            refused: None,
        }
    }

    /// The box after `event`.
    pub fn apply(&mut self, event: ImportEvent) {
        match event {
            ImportEvent::Typed(text) => {
                self.text = text;
                self.result = None;
                self.refused = None;
            }
            ImportEvent::Asked(None) => {
                self.asked = 0;
                self.preview = std::rc::Rc::new(ImportPreview::Empty);
                self.stale = false;
            }
            ImportEvent::Asked(Some(id)) => {
                self.asked = id;
                self.stale = true;
            }
            ImportEvent::Previewed(id, preview) => {
                if id != 0 && id == self.asked {
                    self.preview = std::rc::Rc::new(preview);
                    self.stale = false;
                }
            }
            ImportEvent::Failed(why) => self.failure = Some(why),
            ImportEvent::Refused(id, why) => {
                if id != 0 && id == self.asked {
                    self.refused = Some(why);
                    self.stale = false;
                }
            }
            ImportEvent::Mode(replace) => self.replace = replace,
            ImportEvent::Imported(sentence) => self.result = Some(sentence),
        }
    }

    /// The worker's failure, else why it could not read this text's
    /// request.
    pub fn error(&self) -> Option<&str> {
        self.failure.as_deref().or(self.refused.as_deref())
    }

    /// Nothing to show yet for this text: the module is loading or reading.
    pub fn reading(&self) -> bool {
        self.stale && matches!(&*self.preview, ImportPreview::Empty)
    }

    /// Every item of the text failed: nothing to import.
    pub fn nothing(&self) -> bool {
        matches!(&*self.preview, ImportPreview::Ready { quotas, skipped, .. } if quotas.is_empty() && !skipped.is_empty())
    }

    /// The text is marked invalid: the worker failed, or the preview (not
    /// a stale one still loading) is a failure or has nothing to import.
    pub fn failed(&self) -> bool {
        self.error().is_some()
            || (!self.reading() && (self.nothing() || matches!(&*self.preview, ImportPreview::Failed { .. })))
    }

    /// Import may be pressed: a fresh preview with quotas, no failure, and
    /// no limit in the way (`too_many`: [`import_limit`]'s sentence).
    pub fn ready(&self, too_many: bool) -> bool {
        !self.stale
            && self.error().is_none()
            && !too_many
            && !self.nothing()
            && matches!(&*self.preview, ImportPreview::Ready { .. })
    }
}

/// The scenario written in an export format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportView {
    /// The text (read-only in the page).
    pub text: String,
    /// What the format cannot express, one sentence each.
    pub unexpressed: Vec<String>,
}

/// Writes the scenario's quotas as `format`, with `options` (the Strimzi
/// apiVersion, `strimzi.io/cluster` label and namespace, the
/// kafka-configs.sh `--bootstrap-server`; the defaults where `None`). The
/// scenario JSON is the whole scenario (quotas, brokers, connections,
/// workloads); the other formats hold its quotas (those Kafka accepts).
///
/// # Errors
/// The writer's sentence when the format cannot be written in this build.
pub fn export(scenario: &Scenario, format: Format, options: &ExportOptions) -> Result<ExportView, String> {
    if format == Format::ScenarioJson {
        return Ok(ExportView {
            text: quota_formats::scenario::to_json(scenario),
            unexpressed: Vec::new(),
        });
    }
    let store = model::store_of(scenario);
    let e = detect::export_with(&store, format, options).map_err(|e| e.to_string())?;
    Ok(ExportView {
        text: e.text,
        unexpressed: e.unexpressed.iter().map(ToString::to_string).collect(),
    })
}

/// One problem of a scenario text, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextProblem {
    /// 1-based line of the text.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// The full sentence, `Line L, column C: ...`.
    pub sentence: String,
}

/// Reads a scenario written as text (`quota_formats::scenario_text`, the
/// grammar of docs/scenario-text.md). Runs in the worker: the reader (the
/// kafka-configs.sh parser and the scenario's serde definitions) stays out
/// of the page's own module, which a page without a `#text=` link never
/// needs.
///
/// # Errors
///
/// Every problem of the text, with its line and column.
pub fn read_scenario_text(text: &str) -> Result<Scenario, Vec<TextProblem>> {
    quota_formats::scenario_text::parse(text).map_err(|errors| {
        errors
            .iter()
            .map(|e| TextProblem { line: e.position.line, column: e.position.column, sentence: e.to_string() })
            .collect()
    })
}

/// A question for the import/export worker. JSON form:
/// `{"id": 3, "op": {"Preview": {"text": "..."}}}` or
/// `{"id": 4, "op": {"Export": {"format": "strimzi", "scenario": {...}}}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Chosen by the page; the reply carries it back, so that a late answer
    /// to an older text is recognised and dropped.
    pub id: u32,
    /// What to do.
    pub op: Op,
}

/// The operations of [`Request`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Op {
    /// [`preview`] of a pasted text.
    Preview {
        /// The text as typed.
        text: String,
    },
    /// [`read_scenario_text`] of a `#text=` link's text (docs/scenario-text.md).
    ScenarioText {
        /// The text, decoded from the link.
        text: String,
    },
    /// [`export`] of a scenario.
    Export {
        /// The format to write.
        format: Format,
        /// The whole scenario.
        scenario: Box<Scenario>,
        /// Where the quotas go ([`export`]); the defaults when absent.
        #[serde(default)]
        options: ExportOptions,
    },
}

/// The worker's answer to a [`Request`] with the same `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// The request's id.
    pub id: u32,
    /// The answer.
    pub answer: Answer,
}

/// The answers of [`Reply`], one per [`Op`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// What [`preview`] made of the text.
    Preview(ImportPreview),
    /// What [`export`] wrote, or why it could not.
    Export(Result<ExportView, String>),
    /// The scenario of a text, or every problem of it.
    ScenarioText(Result<Box<Scenario>, Vec<TextProblem>>),
    /// The request itself could not be read (a page and a worker from two
    /// different builds, say): the reason.
    BadRequest(String),
}

/// The worker's protocol: reads a [`Request`] as JSON, answers with a
/// [`Reply`] as JSON. Never panics on any input; an unreadable request gets
/// [`Answer::BadRequest`] with its id when the JSON has one (so the panel
/// that asked hears it), else id 0.
pub fn handle(request: &str) -> String {
    let reply = match serde_json::from_str::<Request>(request) {
        Ok(Request {
            id,
            op: Op::Preview { text },
        }) => Reply {
            id,
            answer: Answer::Preview(preview(&text)),
        },
        Ok(Request {
            id,
            op: Op::ScenarioText { text },
        }) => Reply {
            id,
            answer: Answer::ScenarioText(read_scenario_text(&text).map(Box::new)),
        },
        Ok(Request {
            id,
            op: Op::Export { format, scenario, options },
        }) => Reply {
            id,
            answer: Answer::Export(export(&scenario, format, &options)),
        },
        Err(e) => Reply {
            id: serde_json::from_str::<serde_json::Value>(request)
                .ok()
                .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
                .and_then(|id| u32::try_from(id).ok())
                .unwrap_or(0),
            answer: Answer::BadRequest(format!(
                "The import/export worker could not read a request: {e}"
            )),
        },
    };
    serde_json::to_string(&reply).unwrap_or_else(|e| {
        format!(
            "{{\"id\":0,\"answer\":{{\"BadRequest\":\"the reply could not be written: {e}\"}}}}"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use quota_engine::EntityName;

    fn ready_preview(quotas: Vec<QuotaSetting>, skipped: usize) -> ImportPreview {
        let placed = Placed { line: 1, column: 1, message: "Line 1, column 1: refused.".into(), source_line: "x".into() };
        ImportPreview::Ready {
            detected: Detection { format: Format::ConfigsSh, reason: "line 1".into() },
            quotas,
            notes: Vec::new(),
            skipped: vec![placed; skipped],
            keep: ExportOptions::default(),
        }
    }

    /// The Import box: a reply counts only for the latest request; the last
    /// preview stays (stale, Import off) while the new text is read; a
    /// blank text asks nothing; typing clears the last Import's sentence;
    /// a failure stays and turns Import off.
    #[test]
    fn the_import_box_takes_the_reply_of_its_latest_request_only() {
        let q = QuotaSetting { entity: QuotaEntity::client_id("c"), key: QuotaKey::ProducerByteRate, value: 1e6 };
        let mut b = ImportBox::new(None);
        assert!(!b.reading() && !b.ready(false) && !b.failed());
        b.apply(ImportEvent::Typed("a".into()));
        b.apply(ImportEvent::Asked(Some(1)));
        assert!(b.reading() && !b.ready(false), "asked, nothing yet: reading");
        b.apply(ImportEvent::Typed("ab".into()));
        b.apply(ImportEvent::Asked(Some(2)));
        // The reply of the first request comes late: ignored.
        b.apply(ImportEvent::Previewed(1, ready_preview(vec![q.clone()], 0)));
        assert_eq!(*b.preview, ImportPreview::Empty);
        assert!(b.stale);
        b.apply(ImportEvent::Previewed(2, ready_preview(vec![q.clone()], 0)));
        assert!(!b.stale && b.ready(false) && !b.failed());
        assert!(!b.ready(true), "a limit in the way turns Import off");
        // A new text: the last preview stays, stale, and Import waits.
        b.apply(ImportEvent::Typed("abc".into()));
        b.apply(ImportEvent::Asked(Some(3)));
        assert!(matches!(&*b.preview, ImportPreview::Ready { .. }) && !b.reading() && !b.ready(false));
        b.apply(ImportEvent::Previewed(3, ready_preview(vec![q.clone()], 0)));
        b.apply(ImportEvent::Imported("Imported 1 quota value.".into()));
        assert_eq!(b.result.as_deref(), Some("Imported 1 quota value."));
        b.apply(ImportEvent::Mode(true));
        assert!(b.replace && b.result.is_some(), "the mode keeps the sentence");
        b.apply(ImportEvent::Typed("".into()));
        assert_eq!(b.result, None, "typing clears the sentence");
        b.apply(ImportEvent::Asked(None));
        assert_eq!((b.asked, b.stale, &*b.preview), (0, false, &ImportPreview::Empty));
        // A reply with no request (id 0) is never taken.
        b.apply(ImportEvent::Previewed(0, ready_preview(vec![q.clone()], 0)));
        assert_eq!(*b.preview, ImportPreview::Empty);
        // A refusal of an older request is not this text's.
        b.apply(ImportEvent::Refused(1, "unreadable".into()));
        assert_eq!(b.error(), None);
        // This text's is, until the text changes.
        b.apply(ImportEvent::Typed("x".into()));
        b.apply(ImportEvent::Asked(Some(5)));
        b.apply(ImportEvent::Refused(5, "unreadable".into()));
        assert!(b.failed() && !b.ready(false) && b.error() == Some("unreadable"));
        b.apply(ImportEvent::Typed("again".into()));
        assert_eq!(b.error(), None);
        // Every item failed: nothing to import, marked as failed.
        b.apply(ImportEvent::Asked(Some(4)));
        b.apply(ImportEvent::Previewed(4, ready_preview(Vec::new(), 2)));
        assert!(b.nothing() && b.failed() && !b.ready(false));
        // The worker failed: said, and Import stays off; the text is kept.
        b.apply(ImportEvent::Typed("kept".into()));
        b.apply(ImportEvent::Failed("The import/export module did not start.".into()));
        assert!(b.failed() && !b.ready(false));
        assert_eq!(b.text, "kept");
    }

    /// A request the worker cannot read is answered with its own id when
    /// it has one, so the panel that asked hears why.
    #[test]
    fn an_unreadable_request_is_answered_with_its_id() {
        let reply: Reply = serde_json::from_str(&handle(r#"{"id": 7, "op": {"nonsense": {}}}"#)).unwrap();
        assert_eq!(reply.id, 7);
        assert!(matches!(reply.answer, Answer::BadRequest(ref m) if m.starts_with("The import/export worker could not read a request")), "{:?}", reply.answer);
        let reply: Reply = serde_json::from_str(&handle("not json")).unwrap();
        assert_eq!(reply.id, 0);
    }

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
        quotas
            .iter()
            .find(|q| &q.entity == e && q.key == k)
            .map(|q| q.value)
    }

    #[test]
    fn a_runbook_whose_every_command_fails_lists_them_all_with_nothing_to_import() {
        let text = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=lots --entity-type users --entity-name a\n\
                    kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type users\n\
                    kafka-configs.sh --bootstrap-server b:9092 --alter --add-config consumer_byte_rate=x --entity-type users --entity-name b\n";
        let ImportPreview::Ready { quotas, skipped, detected, .. } = preview(text) else {
            panic!("{:?}", preview(text))
        };
        assert!(quotas.is_empty());
        assert_eq!(skipped.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(skipped_sentence(detected.format, skipped.len(), true), "Nothing to import: all 2 commands fail:");
        // One command, failing: its error, as the text's.
        let one = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=lots --entity-type users --entity-name a\n";
        assert!(matches!(preview(one), ImportPreview::Failed { .. }), "{:?}", preview(one));
    }

    #[test]
    fn the_lab_commands_read_into_their_quotas() {
        let ImportPreview::Ready {
            detected, quotas, ..
        } = preview(LAB)
        else {
            panic!("{:?}", preview(LAB))
        };
        assert_eq!(detected.format, Format::ConfigsSh);
        assert!(
            detected.reason.starts_with("Line 1 "),
            "{}",
            detected.reason
        );
        let a = QuotaEntity::user("tenantUserA");
        assert_eq!(
            value(&quotas, &a, QuotaKey::ProducerByteRate),
            Some(2_000_000.0)
        );
        assert_eq!(
            value(&quotas, &a, QuotaKey::ConsumerByteRate),
            Some(1_000_000.0)
        );
        assert_eq!(
            value(
                &quotas,
                &QuotaEntity::client_id("reporting-job"),
                QuotaKey::RequestPercentage
            ),
            Some(50.0)
        );
        assert_eq!(
            value(
                &quotas,
                &QuotaEntity::User(EntityName::Default),
                QuotaKey::ProducerByteRate
            ),
            Some(5_000_000.0)
        );
        let pair = QuotaEntity::UserClientId {
            user: EntityName::Named("tenantUserA".into()),
            client_id: EntityName::Named("batch-loader".into()),
        };
        assert_eq!(
            value(&quotas, &pair, QuotaKey::ProducerByteRate),
            Some(500_000.0)
        );
        assert_eq!(quotas.len(), 5);
    }

    #[test]
    fn zookeeper_and_unexpanded_variables_are_reported_in_place() {
        let zk = "kafka-configs.sh --zookeeper localhost:2181 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name a\n";
        match preview(zk) {
            ImportPreview::Ready { notes, quotas, .. } => {
                assert_eq!(quotas.len(), 1);
                assert!(
                    notes
                        .iter()
                        .any(|n| n.message.contains("zookeeper") && n.line == 1),
                    "{notes:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        let var = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name \"$user\"\n";
        let ImportPreview::Failed {
            detected: Some(d),
            error,
        } = preview(var)
        else {
            panic!("{:?}", preview(var))
        };
        assert_eq!(d.format, Format::ConfigsSh);
        assert!(error.message.contains("$user"), "{}", error.message);
        // The caret is on the variable's `$`, not the start of its word.
        assert_eq!((error.line, error.column), (1, 124));
        assert_eq!(var.find('$'), Some(123));
    }

    #[test]
    fn garbage_and_bad_values_fail_with_line_and_column() {
        assert_eq!(preview("  \n\t"), ImportPreview::Empty);
        let ImportPreview::Failed {
            detected: None,
            error,
        } = preview("hello\nworld")
        else {
            panic!()
        };
        assert_eq!((error.line, error.column), (1, 1));
        assert!(
            error.message.starts_with("Line 1, column 1: "),
            "{}",
            error.message
        );
        assert_eq!(error.source_line, "hello");
        let bad = "# quotas\nkafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=abc --entity-type users --entity-name a\n";
        let ImportPreview::Failed { error, .. } = preview(bad) else {
            panic!("{:?}", preview(bad))
        };
        assert_eq!(error.line, 2, "{}", error.message);
        assert!(error.source_line.starts_with("kafka-configs.sh"));
    }

    #[test]
    fn strimzi_and_terraform_are_read_in_the_browser_too() {
        let yaml = "apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: a\nspec:\n  quotas:\n    producerByteRate: 1000\n";
        let ImportPreview::Ready {
            detected, quotas, ..
        } = preview(yaml)
        else {
            panic!("{:?}", preview(yaml))
        };
        assert_eq!(detected.format, Format::Strimzi);
        // No spec.authentication: Strimzi names the user `a` (no CN= prefix).
        assert_eq!(
            quotas,
            vec![QuotaSetting {
                entity: QuotaEntity::user("a"),
                key: QuotaKey::ProducerByteRate,
                value: 1000.0
            }]
        );
        let hcl = "resource \"kafka_quota\" \"q\" {\n  entity_name = \"app\"\n  entity_type = \"client-id\"\n  config = {\n    \"consumer_byte_rate\" = \"4000000\"\n  }\n}\n";
        let ImportPreview::Ready {
            detected, quotas, ..
        } = preview(hcl)
        else {
            panic!("{:?}", preview(hcl))
        };
        assert_eq!(detected.format, Format::Terraform);
        assert_eq!(
            quotas,
            vec![QuotaSetting {
                entity: QuotaEntity::client_id("app"),
                key: QuotaKey::ConsumerByteRate,
                value: 4_000_000.0
            }]
        );
    }

    #[test]
    fn the_worker_protocol_answers_each_request_by_id() {
        let req = |id, op| serde_json::to_string(&Request { id, op }).unwrap();
        let reply: Reply =
            serde_json::from_str(&handle(&req(7, Op::Preview { text: LAB.into() }))).unwrap();
        assert_eq!(reply.id, 7);
        assert_eq!(reply.answer, Answer::Preview(preview(LAB)));
        let s = presets::default_scenario();
        let reply: Reply = serde_json::from_str(&handle(&req(
            8,
            Op::Export {
                format: Format::Describe,
                scenario: Box::new(s.clone()),
                options: ExportOptions::default(),
            },
        )))
        .unwrap();
        assert_eq!(
            reply,
            Reply {
                id: 8,
                answer: Answer::Export(export(&s, Format::Describe, &ExportOptions::default()))
            }
        );
        for junk in [
            "",
            "{",
            "null",
            "{\"id\": 1}",
            "{\"id\": 1, \"op\": {\"Shred\": {}}}",
        ] {
            let reply: Reply = serde_json::from_str(&handle(junk)).unwrap();
            let Answer::BadRequest(m) = reply.answer else {
                panic!("{junk}: {reply:?}")
            };
            assert!(
                m.starts_with("The import/export worker could not read a request: "),
                "{m}"
            );
        }
    }

    #[test]
    fn imports_past_the_page_limit_are_refused_with_the_numbers() {
        assert_eq!(import_limit(10, 1_990, false), None);
        assert_eq!(import_limit(500, 2_000, true), None);
        let m = import_limit(10, 1_991, false).unwrap();
        assert!(m.starts_with("This import would give the scenario up to 2,001 quota values; the playground takes at most 2,000"), "{m}");
        assert!(m.contains("kafka-quota CLI"));
        assert!(import_limit(0, 15_000, true).is_some());
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
        assert_eq!(
            (text.chars().count(), text.starts_with('…')),
            (caret, true),
            "{text}"
        );
    }

    #[test]
    fn merge_keeps_other_quotas_and_replace_drops_them() {
        let ImportPreview::Ready { quotas, .. } = preview(LAB) else {
            panic!()
        };
        let base = presets::default_scenario();
        assert!(!base.quotas.is_empty());
        let mut merged = base.clone();
        let (applied, refused) = apply_quotas(&mut merged, &quotas, false);
        assert_eq!((applied, refused), (5, 0));
        for q in &base.quotas {
            let kept = merged
                .quotas
                .iter()
                .any(|m| m.entity == q.entity && m.key == q.key);
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
        let bad = vec![QuotaSetting {
            entity: QuotaEntity::user("x"),
            key: QuotaKey::ConnectionCreationRate,
            value: 5.0,
        }];
        assert_eq!(apply_quotas(&mut merged, &bad, false), (0, 1));
        assert_eq!(merged, once);
        assert!(import_summary(Format::ConfigsSh, 5, 1, 0, false).contains("1 value was refused"));
        assert!(import_summary(Format::ConfigsSh, 5, 0, 2, false).ends_with("2 commands that fail were left out."));
        assert!(import_summary(Format::ConfigsSh, 5, 0, 1, false).ends_with("1 command that fails was left out."));
        assert!(import_summary(Format::Terraform, 5, 0, 2, false).ends_with("2 resources that fail were left out."));
        assert_eq!(
            skipped_sentence(Format::Terraform, 1, false),
            "1 resource fails and is left out; the others are imported (the provider sends each kafka_quota resource as a request of its own):"
        );
        assert!(skipped_sentence(Format::ConfigsSh, 3, false).starts_with("3 commands fail and are left out;"));
    }

    /// `distinct` imported values like a big runbook's, then the first
    /// `repeats` of them again with new values: users, client-ids,
    /// (user, client-id) pairs and ips in turn; every tenth of the first
    /// pass is a value Kafka refuses (`-1`); the repeats are all valid.
    fn many_quotas(distinct: u32, repeats: u32) -> Vec<QuotaSetting> {
        let at = |i: u32, value: f64| {
            let (entity, key) = match i % 4 {
                0 => (
                    QuotaEntity::user(&format!("u{i}")),
                    QuotaKey::ProducerByteRate,
                ),
                1 => (
                    QuotaEntity::client_id(&format!("c{i}")),
                    QuotaKey::ConsumerByteRate,
                ),
                2 => (
                    QuotaEntity::UserClientId {
                        user: EntityName::Named(format!("u{i}")),
                        client_id: EntityName::Named(format!("c{i}")),
                    },
                    QuotaKey::RequestPercentage,
                ),
                _ => (
                    QuotaEntity::Ip(EntityName::Named(format!(
                        "10.{}.{}.{}",
                        i / 65_536,
                        (i / 256) % 256,
                        i % 256
                    ))),
                    QuotaKey::ConnectionCreationRate,
                ),
            };
            QuotaSetting { entity, key, value }
        };
        (0..distinct)
            .map(|i| {
                at(
                    i,
                    if i % 10 == 9 {
                        -1.0
                    } else {
                        f64::from(1000 + i)
                    },
                )
            })
            .chain((0..repeats).map(|i| at(i, f64::from(50_000 + i))))
            .collect()
    }

    /// `apply_quotas` as it was first written: Kafka's verdict and the
    /// update per value against the whole scenario (quadratic), the
    /// reference the linear version must match exactly.
    fn apply_one_by_one(s: &mut Scenario, quotas: &[QuotaSetting], replace: bool) -> (u32, u32) {
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

    #[test]
    fn applying_matches_the_value_by_value_reference() {
        let quotas = many_quotas(400, 60);
        // A scenario from a link may hold a value Kafka refuses: it stays
        // where it is (the quotas panel shows Kafka's message for it).
        let mut base = presets::default_scenario();
        base.quotas.insert(
            0,
            QuotaSetting {
                entity: QuotaEntity::user("x"),
                key: QuotaKey::ConnectionCreationRate,
                value: 5.0,
            },
        );
        base.quotas.push(QuotaSetting {
            entity: QuotaEntity::user("u0"),
            key: QuotaKey::ProducerByteRate,
            value: 7.0,
        });
        for replace in [false, true] {
            let (mut fast, mut slow) = (base.clone(), base.clone());
            let counts = apply_quotas(&mut fast, &quotas, replace);
            assert_eq!(
                counts,
                apply_one_by_one(&mut slow, &quotas, replace),
                "replace {replace}"
            );
            assert_eq!(counts, (460 - 40, 40));
            assert_eq!(fast, slow, "replace {replace}");
        }
    }

    #[test]
    fn applying_fifteen_thousand_values_is_linear_enough_to_finish() {
        // About what a 2 MB kafka-configs.sh paste holds.
        let quotas = many_quotas(14_000, 1_000);
        assert_eq!(quotas.len(), 15_000);
        let base = presets::default_scenario();
        let mut s = base.clone();
        #[allow(clippy::disallowed_methods)] // a measurement printed for BENCHMARKS.md
        let started = std::time::Instant::now();
        let (applied, refused) = apply_quotas(&mut s, &quotas, false);
        println!(
            "apply_quotas: {} values merged in {:.1} ms",
            quotas.len(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        // 1,400 of the first pass are refused; the repeats replace values
        // (100 of them give a value to an entity whose first one was refused).
        assert_eq!((applied, refused), (13_600, 1_400));
        assert_eq!(s.quotas.len(), base.quotas.len() + 14_000 - 1_400 + 100);
        assert_eq!(
            value(
                &s.quotas,
                &QuotaEntity::user("u0"),
                QuotaKey::ProducerByteRate
            ),
            Some(50_000.0)
        );
        assert_eq!(
            value(
                &s.quotas,
                &QuotaEntity::user("u9"),
                QuotaKey::ProducerByteRate
            ),
            None
        );
        assert_eq!(
            value(
                &s.quotas,
                &QuotaEntity::user("u4"),
                QuotaKey::ProducerByteRate
            ),
            Some(50_004.0)
        );
        assert_eq!(
            value(
                &s.quotas,
                &QuotaEntity::user("u1004"),
                QuotaKey::ProducerByteRate
            ),
            Some(2004.0)
        );
        for q in &base.quotas {
            assert_eq!(value(&s.quotas, &q.entity, q.key), Some(q.value), "{q:?}");
        }
        #[allow(clippy::disallowed_methods)] // a measurement printed for BENCHMARKS.md
        let started = std::time::Instant::now();
        assert_eq!(apply_quotas(&mut s, &quotas, true), (13_600, 1_400));
        println!(
            "apply_quotas: {} values replacing the scenario's in {:.1} ms",
            quotas.len(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        assert_eq!(s.quotas.len(), 14_000 - 1_400 + 100);
    }

    #[test]
    fn every_export_reads_back_or_lists_what_it_cannot_express() {
        let mut s = presets::default_scenario();
        let ImportPreview::Ready { quotas, .. } = preview(LAB) else {
            panic!()
        };
        apply_quotas(&mut s, &quotas, true);
        let sh = export(&s, Format::ConfigsSh, &ExportOptions::default()).unwrap();
        assert!(
            sh.text
                .contains("kafka-configs.sh --bootstrap-server localhost:9092 --alter"),
            "{}",
            sh.text
        );
        assert!(sh.text.contains("--add-config"));
        // configs-sh, describe, java and json read back to the same quotas.
        for f in [
            Format::ConfigsSh,
            Format::Describe,
            Format::Java,
            Format::ScenarioJson,
        ] {
            let e = export(&s, f, &ExportOptions::default()).unwrap();
            assert!(e.unexpressed.is_empty(), "{f}: {:?}", e.unexpressed);
            let ImportPreview::Ready {
                detected,
                quotas: back,
                ..
            } = preview(&e.text)
            else {
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
        match export(&s, Format::Strimzi, &ExportOptions::default()) {
            Ok(e) => {
                assert!(
                    e.unexpressed
                        .iter()
                        .any(|u| u.contains("clients/reporting-job")),
                    "{:?}",
                    e.unexpressed
                );
                assert!(
                    e.unexpressed
                        .iter()
                        .any(|u| u.contains("users/tenantUserA ")),
                    "{:?}",
                    e.unexpressed
                );
                assert!(
                    e.text
                        .contains("kind: KafkaUser\nmetadata:\n  name: tenant-a\n"),
                    "{}",
                    e.text
                );
                assert!(
                    e.text
                        .contains("# Not expressible in a KafkaUser: clients/reporting-job"),
                    "{}",
                    e.text
                );
            }
            Err(m) => panic!("Strimzi export must work in the browser build: {m}"),
        }
        match export(&s, Format::Terraform, &ExportOptions::default()) {
            Ok(e) => assert!(
                e.unexpressed.iter().any(|u| u.contains("batch-loader")),
                "{:?}",
                e.unexpressed
            ),
            Err(m) => panic!("Terraform export must work in the browser build: {m}"),
        }
    }

    #[test]
    fn the_worker_reads_a_scenario_text_or_lists_its_problems() {
        let text = "kafka-configs.sh --alter --add-config producer_byte_rate=2097152 --entity-type users --entity-name alice\nconnection: listener=SASL_SSL user=alice client.id=app-1\n";
        let request = serde_json::to_string(&Request { id: 7, op: Op::ScenarioText { text: text.into() } }).unwrap();
        let reply: Reply = serde_json::from_str(&handle(&request)).unwrap();
        assert_eq!(reply.id, 7);
        let Answer::ScenarioText(Ok(s)) = reply.answer else { panic!("{:?}", reply.answer) };
        assert_eq!(*s, quota_formats::scenario_text::parse(text).unwrap());
        assert_eq!(s.connections[0].client_id, "app-1");

        let request = serde_json::to_string(&Request { id: 8, op: Op::ScenarioText { text: "connection: listener=TLS\nproducr: records=1".into() } }).unwrap();
        let reply: Reply = serde_json::from_str(&handle(&request)).unwrap();
        let Answer::ScenarioText(Err(problems)) = reply.answer else { panic!("{:?}", reply.answer) };
        assert_eq!(problems.iter().map(|p| (p.line, p.column)).collect::<Vec<_>>(), vec![(1, 13), (2, 1)]);
        assert!(problems[1].sentence.starts_with("Line 2, column 1: "), "{}", problems[1].sentence);
    }

    #[test]
    fn a_strimzi_import_keeps_its_cluster_and_namespace_on_the_strimzi_export() {
        let yaml = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaUser\nmetadata:\n  name: orders\n  namespace: kafka-prod\n  labels:\n    strimzi.io/cluster: prod-kafka\nspec:\n  quotas:\n    producerByteRate: 1048576\n";
        let ImportPreview::Ready { quotas, keep, .. } = preview(yaml) else {
            panic!("{:?}", preview(yaml));
        };
        assert_eq!(keep.strimzi_cluster.as_deref(), Some("prod-kafka"));
        assert_eq!(keep.strimzi_namespace.as_deref(), Some("kafka-prod"));
        let mut s = presets::default_scenario();
        apply_quotas(&mut s, &quotas, true);
        // Through the worker's protocol, as the page asks it.
        let reply: Reply = serde_json::from_str(&handle(
            &serde_json::to_string(&Request { id: 3, op: Op::Export { format: Format::Strimzi, scenario: Box::new(s.clone()), options: keep.clone() } }).unwrap(),
        ))
        .unwrap();
        let Answer::Export(Ok(e)) = reply.answer else { panic!("{:?}", reply.answer) };
        assert!(
            e.text.contains("apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: orders\n  namespace: kafka-prod\n  labels:\n    strimzi.io/cluster: prod-kafka\n"),
            "{}",
            e.text
        );
        assert!(!e.text.contains("my-cluster"), "{}", e.text);
        // Exported back, it reads as the same quotas and the same placement.
        let ImportPreview::Ready { quotas: again, keep: kept, .. } = preview(&e.text) else { panic!("{}", e.text) };
        assert_eq!(again, quotas);
        assert_eq!(kept, keep);
        // Without options (an old page's request): the defaults, v1 and my-cluster.
        let old = format!("{{\"id\":4,\"op\":{{\"Export\":{{\"format\":\"strimzi\",\"scenario\":{}}}}}}}", serde_json::to_string(&s).unwrap());
        let reply: Reply = serde_json::from_str(&handle(&old)).unwrap();
        let Answer::Export(Ok(e)) = reply.answer else { panic!("{:?}", reply.answer) };
        assert!(e.text.contains("strimzi.io/cluster: my-cluster"), "{}", e.text);
    }
}
