//! A scenario written as text: what a documentation page puts inside a
//! `kafka-quota` code block or a `<kafka-quota-playground>` element, so that
//! the page stays readable without JavaScript.
//!
//! # Grammar
//!
//! One item per line; blank lines and lines starting with `#` are skipped.
//! The grammar is documented for writers in `docs/scenario-text.md`.
//!
//! - **Quotas**: `kafka-configs.sh` command lines (also `kafka-configs`,
//!   `bin/kafka-configs.sh`, a `$ ` prompt, `\`-newline continuations), read
//!   as [`crate::configs_sh`] reads runbooks ([`Mode::Import`]: the words
//!   are split by the `shell-words` crate, `--bootstrap-server` may be left
//!   out) and applied in order with Kafka's validation. Only `--alter` lines
//!   change the scenario; a `--describe` line is allowed and does nothing.
//! - **`connection:`** who connects, as `key=value` words: `listener=`
//!   (`PLAINTEXT`, `SSL`, `SASL_PLAINTEXT`, `SASL_SSL`), `user=` (the SASL
//!   name) or `dn=` (the certificate's distinguished name; quote it:
//!   `dn="CN=app,O=acme"`), `client.id=`, and optionally `name=`, `ip=`,
//!   `mechanism=`, `ssl.client.auth=`, `client=` (`java`, `legacy`,
//!   `ignores-throttle`). Without `listener=`, a `dn=` means `SSL`, a `user=`
//!   `SASL_SSL`, neither `PLAINTEXT`. Several lines give several
//!   connections; the first one is the one a single answer is about.
//! - **`brokers:`** the broker count, then broker settings with Kafka's
//!   names: `brokers: 3 quota.window.num=2`.
//! - **`topic:`** a name, then `partitions=`, `leaders=0,1,2`,
//!   `preload.records=`, `preload.record.size=`.
//! - **`producer:`** / **`consumer:`** a workload: `connection=` (a
//!   connection's name or its 1-based number; default the first), `topic=`
//!   (default: the first topic, or a one-partition topic `quotas-demo`),
//!   the workload's keys (`records=`, `record.size=`, `throughput=`,
//!   `start_ms=`, `stop_ms=`, `bytes=`, `request.size=`, `fetch.size=`) and
//!   the client's settings with Kafka's names (`acks=1`, `batch.size=65536`,
//!   `delivery.timeout.ms=60000`, `fetch.max.bytes=...`).
//!   A client starts and stops during the run with the workload's
//!   `start_ms=` and `stop_ms=`.
//! - **`move_leader:`** an event: `at_ms=`, `topic=`, `partition=`,
//!   `to_broker=` (the JSON's `move_leader` event).
//! - **`set_quota:`** an event: `at_ms=`, then a `kafka-configs.sh --alter`
//!   command (read as the quota lines are, `\`-newline continuations
//!   too); each key it adds or deletes is one `set_quota` event of the
//!   JSON (a deleted key's value `null`), adds first. The entity need not
//!   have a quota before, as `AlterClientQuotas` creates one.
//! - **`run:`** `horizon_ms=` (simulated time, default 600000), `seed=`,
//!   `name=` (default `A scenario written as text`).
//!
//! The keys are the scenario JSON's own (`crate::scenario`); the values are
//! read by the same serde definitions, and the whole scenario is checked by
//! [`Scenario::validate`], so text and JSON accept exactly the same
//! scenarios. Every problem names its line and column.
//!
//! # Example
//!
//! ```
//! let text = "\
//! kafka-configs.sh --alter --add-config producer_byte_rate=2097152 --entity-type users --entity-name alice
//! connection: listener=SASL_SSL user=alice client.id=app-1
//! producer: records=30000 record.size=1000 acks=1
//! ";
//! let scenario = quota_formats::scenario_text::parse(text).map_err(|e| e[0].to_string())?;
//! assert_eq!(scenario.quotas.len(), 1);
//! assert_eq!(scenario.connections[0].client_id, "app-1");
//! assert_eq!(scenario.workloads.len(), 1);
//!
//! let problems = quota_formats::scenario_text::parse("connection: listener=TLS").unwrap_err();
//! assert_eq!(problems[0].position.line, 1);
//! assert_eq!(problems[0].position.column, 13);
//! # Ok::<(), String>(())
//! ```

use quota_engine::sim::{
    BrokersSpec, ConnectionSpec, ConsumerWorkload, ProducerWorkload, Scenario, ScenarioEvent,
    TopicSpec, Workload,
};
use quota_engine::scenario::ProblemPath;
use quota_engine::{QuotaKey, QuotaStore};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::configs_sh::{self, Action, Mode};
use crate::error::{Error, ErrorKind, Position};
use crate::scenario::ScenarioFile;

/// The directives a line may start with, in the order the docs list them.
pub const DIRECTIVES: [&str; 8] =
    ["connection", "brokers", "topic", "producer", "consumer", "move_leader", "set_quota", "run"];

/// The topic a workload writes to when the text declares none.
pub const DEFAULT_TOPIC: &str = "quotas-demo";

/// Reads a scenario file in either form: the scenario JSON
/// ([`crate::scenario::from_json`], when the first non-blank character is
/// `{`) or the text form ([`parse`]). What the CLI's `simulate` and `link`
/// take, so a docs writer can check a block with the CLI.
///
/// # Errors
///
/// The JSON reader's one error, or every problem of the text.
pub fn read(text: &str) -> Result<ScenarioFile, Vec<Error>> {
    if text.trim_start().starts_with('{') {
        crate::scenario::from_json(text).map_err(|e| vec![e])
    } else {
        parse(text).map(|scenario| ScenarioFile { scenario, notes: Vec::new() })
    }
}

/// Reads a scenario from its text form (see the module docs).
///
/// # Errors
///
/// Every problem found, in line order, each an [`Error`] with its line and
/// column: a line that is neither a command nor a directive
/// ([`ErrorKind::Syntax`]), a `kafka-configs.sh` command the tool or Kafka
/// refuses (the tool's and Kafka's own messages), a `key=value` the scenario
/// does not take or a value of the wrong type, and what
/// [`Scenario::validate`] finds ([`ErrorKind::Invalid`], pointing at the
/// line that made the part named by the engine's path).
pub fn parse(text: &str) -> Result<Scenario, Vec<Error>> {
    let mut reader = Reader::default();
    let mut configs = String::new();
    let mut continuing = false;
    // A `set_quota:` line being continued with `\`: its first line and text.
    let mut set_quota: Option<(u32, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim();
        if let Some((_, command)) = set_quota.as_mut() {
            command.push('\n');
            command.push_str(raw);
            if !trimmed.ends_with('\\') {
                if let Some((first, command)) = set_quota.take() {
                    reader.set_quota(first, &command);
                }
            }
        } else if continuing || is_configs_command(trimmed) {
            continuing = trimmed.ends_with('\\');
            configs.push_str(raw);
        } else if is_set_quota(trimmed) {
            if trimmed.ends_with('\\') {
                set_quota = Some((line, raw.to_owned()));
            } else {
                reader.set_quota(line, raw);
            }
        } else if !(trimmed.is_empty() || trimmed.starts_with('#')) {
            reader.directive(line, raw);
        }
        configs.push('\n');
    }
    if let Some((first, command)) = set_quota.take() {
        reader.set_quota(first, &command);
    }
    let mut store = QuotaStore::new();
    for outcome in configs_sh::run_script(&configs, Mode::Import, &mut store) {
        if let Err(e) = outcome.result {
            reader.problems.push(e);
        }
    }
    reader.finish(store)
}

/// True for a line that starts a `kafka-configs` command (after an optional
/// `$ ` prompt or path).
fn is_configs_command(line: &str) -> bool {
    let line = line.strip_prefix('$').map_or(line, str::trim_start);
    let first = line.split_whitespace().next().unwrap_or("");
    let base = first.rsplit('/').next().unwrap_or(first);
    base == "kafka-configs" || base == "kafka-configs.sh"
}

/// True for a `set_quota:` line (a quota change during the run).
fn is_set_quota(line: &str) -> bool {
    line.split_once(':').is_some_and(|(name, _)| name.trim() == "set_quota")
}

/// One `key=value` word of a directive line.
struct Word {
    key: String,
    value: String,
    /// 1-based column of the word's first character.
    column: u32,
}

/// A word without `=` (the broker count, a topic's name) and its 1-based column.
type Bare = (String, u32);

/// A part of the scenario made by one line.
struct Item {
    line: u32,
    /// Column of the text after the directive's colon.
    column: u32,
    words: Vec<Word>,
    /// The positional words (the broker count, the topic name).
    bare: Vec<Bare>,
}

/// An event line: a `move_leader:` item, or the quota changes one
/// `set_quota:` command makes (one event per key) and where it starts.
enum EventLine {
    MoveLeader(Item),
    SetQuota { line: u32, column: u32, events: Vec<ScenarioEvent> },
}

#[derive(Default)]
struct Reader {
    problems: Vec<Error>,
    connections: Vec<Item>,
    brokers: Option<Item>,
    topics: Vec<Item>,
    /// `(is_producer, item)`.
    workloads: Vec<(bool, Item)>,
    run: Option<Item>,
    /// The events during the run, in line order.
    events: Vec<EventLine>,
    /// Which line made which part: (path prefix such as `workloads[1]`, line, column).
    places: Vec<(ProblemPath, u32, u32)>,
}

impl Reader {
    fn directive(&mut self, line: u32, raw: &str) {
        let indent = raw.len() - raw.trim_start().len();
        let body = raw.trim();
        let Some((name, rest)) = body.split_once(':').filter(|(n, _)| DIRECTIVES.contains(&n.trim())) else {
            let shown: String = body.chars().take(40).collect();
            let more = if body.chars().count() > 40 { "…" } else { "" };
            self.problems.push(Error::syntax(
                Position::new(line, col(raw, indent)),
                "a kafka-configs.sh command or one of connection:, brokers:, topic:, producer:, consumer:, move_leader:, set_quota:, run:",
                format!("'{shown}{more}'"),
            ));
            return;
        };
        let rest_at = indent + name.len() + 1;
        let item = match words(raw, rest_at, rest) {
            Ok((words, bare)) => Item { line, column: col(raw, rest_at + (rest.len() - rest.trim_start().len())), words, bare },
            Err(e) => {
                self.problems.push(Error::syntax(Position::new(line, col(raw, rest_at)), "key=value words (quote a value with spaces)", e));
                return;
            }
        };
        match name.trim() {
            "connection" => self.connections.push(item),
            "topic" => self.topics.push(item),
            "producer" => self.workloads.push((true, item)),
            "consumer" => self.workloads.push((false, item)),
            "move_leader" => self.events.push(EventLine::MoveLeader(item)),
            once => {
                let slot = if once == "brokers" { &mut self.brokers } else { &mut self.run };
                if let Some(first) = slot {
                    let first_line = first.line;
                    self.problems.push(Error::syntax(
                        Position::new(line, col(raw, indent)),
                        format!("one {once}: line (the first is on line {first_line})"),
                        format!("a second {once}: line"),
                    ));
                } else {
                    *slot = Some(item);
                }
            }
        }
    }

    /// A `set_quota:` line, with its `\` continuations joined by newlines:
    /// `at_ms=N`, then a `kafka-configs.sh --alter` command; each key it adds
    /// or deletes becomes one `set_quota` event (a deleted key's value is
    /// `null`), in command-line order, adds first.
    fn set_quota(&mut self, line: u32, text: &str) {
        let indent = text.len() - text.trim_start().len();
        let Some(colon) = text.find(':') else { return };
        let after = &text[colon + 1..];
        let rest = after.trim_start();
        let word_at = colon + 1 + (after.len() - rest.len());
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let Some(at_ms) = word.strip_prefix("at_ms=").and_then(|v| v.parse::<u64>().ok()) else {
            let shown: String = word.chars().take(40).collect();
            self.problems.push(Error::syntax(
                Position::new(line, col(text, word_at)),
                "at_ms= (a whole number of milliseconds from the start), then a kafka-configs.sh --alter command",
                if word.is_empty() { "nothing".to_owned() } else { format!("'{shown}'") },
            ));
            return;
        };
        // The command with what precedes it blanked, so that the tool's
        // positions are the text's own columns; its lines follow this one.
        let command_at = word_at + word_end;
        let command = format!("{}{}", " ".repeat(text[..command_at].chars().count()), &text[command_at..]);
        let shift = |p: Position| Position::new(p.line.saturating_add(line - 1), p.column);
        let shifted = |mut e: Error| {
            e.position = shift(e.position);
            e
        };
        let cmd = match configs_sh::parse_command(&command, Mode::Import) {
            Ok(c) => c,
            Err(e) => {
                self.problems.push(shifted(e));
                return;
            }
        };
        let Action::Alter(alter) = &cmd.action else {
            self.problems.push(Error::syntax(shift(cmd.position), "a kafka-configs.sh --alter command after at_ms=", "a --describe command"));
            return;
        };
        // Kafka's checks of the keys and values (the tool's and the broker's
        // messages), on a store of its own; whether a deleted key is set at
        // at_ms is for Scenario::validate to say, which applies the events
        // in the order the run does.
        if !alter.add.is_empty() {
            let mut adds = cmd.clone();
            if let Action::Alter(a) = &mut adds.action {
                a.delete.clear();
            }
            if let Err(e) = adds.apply(&mut QuotaStore::new()) {
                self.problems.push(shifted(e));
                return;
            }
        }
        let mut events = Vec::new();
        for c in &alter.add {
            if let (Some(key), Ok(value)) = (QuotaKey::from_name(&c.key), configs_sh::parse_quota_value(&c.key, &c.value)) {
                events.push(ScenarioEvent::SetQuota { at_ms, entity: alter.entity.clone(), key, value: Some(value) });
            }
        }
        for k in &alter.delete {
            let Some(key) = QuotaKey::from_name(k) else {
                self.problems.push(Error::tool(
                    shift(alter.delete_position.unwrap_or(cmd.position)),
                    format!("Invalid config(s): {k}"),
                    "--delete-config of client quota keys",
                ));
                return;
            };
            events.push(ScenarioEvent::SetQuota { at_ms, entity: alter.entity.clone(), key, value: None });
        }
        self.events.push(EventLine::SetQuota { line, column: col(text, indent), events });
    }

    fn finish(mut self, store: QuotaStore) -> Result<Scenario, Vec<Error>> {
        let mut scenario = crate::scenario::with_quotas(&store);
        if let Some(b) = self.brokers.take() {
            let mut obj = Map::new();
            let mut bare = b.bare.iter();
            if let Some((count, c)) = bare.next() {
                match count.parse::<u32>() {
                    Ok(n) => {
                        obj.insert("count".into(), n.into());
                    }
                    Err(_) => self.problems.push(Error::syntax(Position::new(b.line, *c), "the number of brokers", format!("'{count}'"))),
                }
            }
            self.extra_bare(&b, bare.as_slice());
            obj.insert("settings".into(), Value::Object(values(&b.words, &[])));
            if let Some(spec) = self.read::<BrokersSpec>(&b, Value::Object(obj)) {
                self.places.push((ProblemPath::field("brokers"), b.line, b.column));
                scenario.brokers = spec;
            }
        }
        for t in std::mem::take(&mut self.topics) {
            let mut obj = Map::new();
            let mut bare = t.bare.iter();
            match bare.next() {
                Some((name, _)) => {
                    obj.insert("name".into(), name.clone().into());
                }
                None => {
                    self.problems.push(Error::syntax(Position::new(t.line, t.column), "the topic's name, e.g. topic: orders partitions=3", "no name"));
                    continue;
                }
            }
            self.extra_bare(&t, bare.as_slice());
            let mut preload = Map::new();
            for w in &t.words {
                if let Some(k) = w.key.strip_prefix("preload.") {
                    preload.insert(k.to_owned(), typed(k, &w.value, &[]));
                } else if w.key == "leaders" {
                    let list: Vec<Value> = w.value.split(',').map(|s| typed("leaders", s.trim(), &[])).collect();
                    obj.insert("leaders".into(), Value::Array(list));
                } else {
                    obj.insert(w.key.clone(), typed(&w.key, &w.value, &[]));
                }
            }
            if !preload.is_empty() {
                obj.insert("preload".into(), Value::Object(preload));
            }
            if let Some(spec) = self.read::<TopicSpec>(&t, Value::Object(obj)) {
                self.places.push((ProblemPath::topic(scenario.topics.len()), t.line, t.column));
                scenario.topics.push(spec);
            }
        }
        let mut names: Vec<String> = Vec::new();
        for (n, c) in std::mem::take(&mut self.connections).into_iter().enumerate() {
            self.extra_bare(&c, &c.bare);
            let mut obj = values(&c.words, &["user", "dn", "client"]);
            let user = c.words.iter().find(|w| w.key == "user");
            let dn = c.words.iter().find(|w| w.key == "dn");
            if let (Some(_), Some(d)) = (user, dn) {
                self.problems.push(Error::syntax(Position::new(c.line, d.column), "user= (a SASL name) or dn= (a certificate), not both", "both"));
            }
            if let Some(w) = user.or(dn) {
                obj.insert("identity".into(), w.value.clone().into());
            }
            if !obj.contains_key("listener") {
                let listener = if dn.is_some() { "SSL" } else if user.is_some() { "SASL_SSL" } else { "PLAINTEXT" };
                obj.insert("listener".into(), listener.into());
            }
            if let Some(w) = c.words.iter().find(|w| w.key == "client") {
                let kind = match w.value.as_str() {
                    "java" | "kip-219" => "kip-219",
                    other => other,
                };
                obj.insert("client_throttling".into(), kind.into());
            }
            if !obj.contains_key("name") {
                let id = obj.get("client.id").and_then(Value::as_str).unwrap_or("");
                let name = if !id.is_empty() && !names.iter().any(|n| n == id) { id.to_owned() } else { format!("connection {}", n + 1) };
                obj.insert("name".into(), name.into());
            }
            names.push(obj.get("name").and_then(Value::as_str).unwrap_or("").to_owned());
            if let Some(spec) = self.read::<ConnectionSpec>(&c, Value::Object(obj)) {
                self.places.push((ProblemPath::connection(scenario.connections.len()), c.line, c.column));
                scenario.connections.push(spec);
            }
        }
        let mut default_topic_needed = false;
        for (producer, w) in std::mem::take(&mut self.workloads) {
            self.extra_bare(&w, &w.bare);
            let top: &[&str] = if producer {
                &["connection", "topic", "records", "record.size", "bytes", "request.size", "throughput", "start_ms", "stop_ms"]
            } else {
                &["connection", "topic", "records", "bytes", "fetch.size", "start_ms", "stop_ms"]
            };
            let mut obj = Map::new();
            let mut config = Map::new();
            for word in &w.words {
                let v = typed(&word.key, &word.value, &["connection", "topic", "acks"]);
                if top.contains(&word.key.as_str()) {
                    obj.insert(word.key.clone(), v);
                } else {
                    config.insert(word.key.clone(), v);
                }
            }
            let connection = match w.words.iter().find(|x| x.key == "connection") {
                Some(x) => match x.value.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= names.len() => names[n - 1].clone(),
                    Ok(n) => {
                        self.problems.push(Error::new(
                            Position::new(w.line, x.column),
                            ErrorKind::Invalid { message: format!("connection={n} names no connection: the text has {} connection: line(s), numbered from 1.", names.len()) },
                        ));
                        continue;
                    }
                    Err(_) => x.value.clone(),
                },
                None => match names.first() {
                    Some(n) => n.clone(),
                    None => {
                        let kind = if producer { "producer" } else { "consumer" };
                        self.problems.push(Error::new(
                            Position::new(w.line, 1),
                            ErrorKind::Invalid { message: format!("A {kind}: line needs a connection: line (who connects: listener, user or dn, client.id), and the text has none.") },
                        ));
                        continue;
                    }
                },
            };
            obj.insert("connection".into(), connection.into());
            if !obj.contains_key("topic") {
                let topic = scenario.topics.first().map_or_else(
                    || {
                        default_topic_needed = true;
                        DEFAULT_TOPIC.to_owned()
                    },
                    |t| t.name.clone(),
                );
                obj.insert("topic".into(), topic.into());
            }
            obj.insert("config".into(), Value::Object(config));
            let workload = if producer {
                self.read::<ProducerWorkload>(&w, Value::Object(obj)).map(Workload::Producer)
            } else {
                self.read::<ConsumerWorkload>(&w, Value::Object(obj)).map(Workload::Consumer)
            };
            if let Some(workload) = workload {
                self.places.push((ProblemPath::workload(scenario.workloads.len()), w.line, w.column));
                scenario.workloads.push(workload);
            }
        }
        if default_topic_needed {
            scenario.topics.push(TopicSpec { name: DEFAULT_TOPIC.to_owned(), partitions: 1, preload: None, leaders: None });
        }
        for e in std::mem::take(&mut self.events) {
            match e {
                EventLine::MoveLeader(item) => {
                    self.extra_bare(&item, &item.bare);
                    let mut obj: Map<String, Value> =
                        item.words.iter().map(|w| (w.key.clone(), typed(&w.key, &w.value, &["topic"]))).collect();
                    obj.insert("kind".into(), "move_leader".into());
                    if let Some(event) = self.read::<ScenarioEvent>(&item, Value::Object(obj)) {
                        self.places.push((ProblemPath::event(scenario.events.len()), item.line, item.column));
                        scenario.events.push(event);
                    }
                }
                EventLine::SetQuota { line, column, events } => {
                    for event in events {
                        self.places.push((ProblemPath::event(scenario.events.len()), line, column));
                        scenario.events.push(event);
                    }
                }
            }
        }
        if let Some(r) = self.run.take() {
            self.places.push((ProblemPath::field("horizon_ms"), r.line, r.column));
            self.extra_bare(&r, &r.bare);
            for w in &r.words {
                let pos = Position::new(r.line, w.column);
                match w.key.as_str() {
                    "horizon_ms" => match w.value.parse::<u64>() {
                        Ok(v) => scenario.horizon_ms = v,
                        Err(_) => self.problems.push(Error::syntax(pos, "horizon_ms= a whole number of simulated milliseconds", format!("'{}'", w.value))),
                    },
                    "seed" => match w.value.parse::<u64>() {
                        Ok(v) => scenario.seed = v,
                        Err(_) => self.problems.push(Error::syntax(pos, "seed= a whole number", format!("'{}'", w.value))),
                    },
                    "name" => scenario.name.clone_from(&w.value),
                    other => self.problems.push(Error::syntax(pos, "one of horizon_ms=, seed=, name= on the run: line", format!("'{other}='"))),
                }
            }
        }
        if scenario.name.is_empty() {
            "A scenario written as text".clone_into(&mut scenario.name);
        }
        if self.problems.is_empty() {
            if let Err(found) = scenario.validate() {
                for p in found {
                    let pos = self.place_of(&p.path);
                    let mut message = format!("{}: {}", p.path, p.error);
                    // Kafka's own messages (InvalidTopicException's) end without a full stop.
                    if !message.ends_with('.') {
                        message.push('.');
                    }
                    self.problems.push(Error::new(pos, ErrorKind::Invalid { message }));
                }
            }
        }
        if self.problems.is_empty() {
            Ok(scenario)
        } else {
            self.problems.sort_by_key(|e| e.position);
            Err(self.problems)
        }
    }

    /// Reads one part of the scenario with its serde definition; a problem
    /// points at the word it names.
    fn read<T: DeserializeOwned>(&mut self, item: &Item, value: Value) -> Option<T> {
        match serde_json::from_value(value) {
            Ok(v) => Some(v),
            Err(e) => {
                let message = e.to_string();
                // serde names a field as `name` and a value as "text" or
                // `number`: point at the word it names, and name its key.
                let by_key = item.words.iter().find(|w| message.contains(&format!("`{}`", w.key)));
                let by_value = item.words.iter().find(|w| {
                    message.contains(&format!("\"{}\"", w.value)) || message.contains(&format!("`{}`", w.value))
                });
                let (column, message) = match (by_key, by_value) {
                    (Some(w), _) => (w.column, sentence(&plain_types(&message))),
                    (None, Some(w)) => (w.column, format!("{}={}: {}", w.key, w.value, sentence(&plain_types(&message)))),
                    (None, None) => (item.column, sentence(&plain_types(&message))),
                };
                self.problems.push(Error::new(Position::new(item.line, column), ErrorKind::Invalid { message }));
                None
            }
        }
    }

    fn extra_bare(&mut self, item: &Item, extra: &[Bare]) {
        if let Some((word, c)) = extra.first() {
            self.problems.push(Error::syntax(Position::new(item.line, *c), "key=value", format!("'{word}'")));
        }
    }

    /// The line (and column) that made the part at a validation `path`
    /// such as `workloads[1].producer.connection`: the place of the longest
    /// typed path it lies inside (`ProblemPath::starts_with`, step by step:
    /// `topics[1]` never holds `topics[10]`); line 1 when none does.
    fn place_of(&self, path: &ProblemPath) -> Position {
        self.places
            .iter()
            .filter(|(prefix, _, _)| path.starts_with(prefix))
            .max_by_key(|(prefix, _, _)| prefix.steps().len())
            .map_or(Position::new(1, 1), |(_, line, column)| Position::new(*line, *column))
    }
}

/// Splits the text after a directive's colon into `key=value` words and
/// bare words with their columns (`shell-words` does the quoting; columns
/// are found by looking each word's key up in the raw line, left to right).
fn words(raw: &str, rest_at: usize, rest: &str) -> Result<(Vec<Word>, Vec<Bare>), String> {
    let split = shell_words::split(rest).map_err(|_| "an unclosed quote".to_owned())?;
    let mut words = Vec::new();
    let mut bare = Vec::new();
    let mut from = rest_at;
    for w in split {
        let (needle, kv) = match w.split_once('=') {
            Some((k, v)) => (format!("{k}="), Some((k.to_owned(), v.to_owned()))),
            None => (w.chars().take(8).collect(), None),
        };
        // A word whose text is not in the line as written (quotes inside
        // it) keeps the column reached so far; `from` stays on a character
        // boundary either way.
        let column = match raw[from..].find(&needle) {
            Some(i) => {
                let at = from + i;
                from = at + needle.len();
                col(raw, at)
            }
            None => col(raw, from),
        };
        match kv {
            Some((key, value)) => words.push(Word { key, value, column }),
            None => bare.push((w, column)),
        }
    }
    Ok((words, bare))
}

/// The 1-based character column of byte offset `at` of `line`.
fn col(line: &str, at: usize) -> u32 {
    let at = at.min(line.len());
    u32::try_from(line[..at].chars().count() + 1).unwrap_or(u32::MAX)
}

/// `key=value` words as a JSON object, skipping `skip`.
fn values(words: &[Word], skip: &[&str]) -> Map<String, Value> {
    words
        .iter()
        .filter(|w| !skip.contains(&w.key.as_str()))
        .map(|w| (w.key.clone(), typed(&w.key, &w.value, &[])))
        .collect()
}

/// The keys whose values are always text, whatever they look like.
const TEXT_KEYS: [&str; 8] = ["name", "listener", "mechanism", "ssl.client.auth", "identity", "client.id", "ip", "client_throttling"];

/// A word's value as JSON: a number or `true`/`false` when it reads as one,
/// text for the [`TEXT_KEYS`] and `text` (a client.id `123` stays text).
fn typed(key: &str, value: &str, text: &[&str]) -> Value {
    if TEXT_KEYS.contains(&key) || text.contains(&key) {
        return value.into();
    }
    if let Ok(n) = value.parse::<u64>() {
        return n.into();
    }
    if let Ok(n) = value.parse::<i64>() {
        return n.into();
    }
    match value {
        "true" => return true.into(),
        "false" => return false.into(),
        _ => {}
    }
    value
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .and_then(serde_json::Number::from_f64)
        .map_or_else(|| value.into(), Value::Number)
}

/// serde's Rust type names in words a docs writer reads (`expected u32`
/// becomes `expected a whole number from 0 to 4294967295`).
fn plain_types(message: &str) -> String {
    [
        ("expected u64", "expected a whole number from 0 to 18446744073709551615"),
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected i64", "expected a whole number"),
        ("expected i32", "expected a whole number from -2147483648 to 2147483647"),
        ("expected f64", "expected a number"),
        ("expected a string", "expected text"),
    ]
    .iter()
    .fold(message.to_owned(), |m, (rust, words)| m.replace(rust, words))
}

/// serde's message as a sentence: capitalised, ending with a full stop.
fn sentence(message: &str) -> String {
    let mut s = String::with_capacity(message.len() + 1);
    let mut cs = message.chars();
    if let Some(f) = cs.next() {
        s.extend(f.to_uppercase());
    }
    s.push_str(cs.as_str());
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}
