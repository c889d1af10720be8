//! The numeric settings of a client's editor (the Simulation panel's
//! "Clients and broker settings"), one table per kind of client: what each
//! field is called, where the engine's problems name it, its bounds, how it
//! is read from and written to the [`Workload`], and its default (the
//! engine's, which is the Java client's). The view draws the rows in
//! order; the casts between a setting's `f64` field and the scenario's
//! integer types are here, once per setting (the start, one route for
//! every panel, is `ClusterEdit::SetStart`'s).

use quota_engine::scenario::ProblemPath;
use quota_engine::sim::{AdminConfig, ConnectConfig, ConsumerConfig, ProducerConfig, ScenarioProblem, Workload, HORIZON_CAP_MS};

/// One numeric setting of a client's editor.
#[derive(Debug, Clone, Copy)]
pub struct ClientSetting {
    /// The field's id suffix (`w{i}-{key}`).
    pub key: &'static str,
    /// The label: the Kafka client config, or what the field is.
    pub label: &'static str,
    /// The last step of the engine's problem path for it (a scenario
    /// field, `records`, or a config, `batch.size`).
    pub property: &'static str,
    /// Inclusive bounds of the whole number typed.
    pub range: (u64, u64),
    /// A hint under the field (empty: none).
    pub hint: &'static str,
    read: fn(&Workload) -> Option<f64>,
    write: fn(&mut Workload, f64),
    default: Option<fn() -> f64>,
}

impl ClientSetting {
    /// Its value in `w` (0 for another kind of client, which has no such
    /// row).
    pub fn value(&self, w: &Workload) -> f64 {
        (self.read)(w).unwrap_or(0.0)
    }

    /// `w` with this setting at `v` (within [`ClientSetting::range`]: the
    /// field refuses anything else; the cast saturates).
    pub fn with(&self, w: &Workload, v: f64) -> Workload {
        let mut next = w.clone();
        (self.write)(&mut next, v);
        next
    }

    /// The engine's default for a client config (the Java client's); an
    /// empty field sets it back to it. `None` for the scenario's own fields.
    pub fn default(&self) -> Option<f64> {
        self.default.map(|f| f())
    }
}

/// A row of a client's editor, in the order drawn.
#[derive(Debug, Clone, Copy)]
pub enum EditorRow {
    /// A number field.
    Setting(&'static ClientSetting),
    /// `start_ms`: one route and bound for every panel
    /// ([`crate::model::ClusterEdit::SetStart`]).
    Start,
    /// A producer's `acks` select.
    Acks,
}

/// The read and write of one field of one kind of client: `Kind.field:
/// type`, the field's value as `f64` and back (bounded by the row's range).
macro_rules! field {
    ($kind:ident . $($f:ident).+ : $ty:ty) => {
        (
            |w: &Workload| match w {
                Workload::$kind(x) => Some(x.$($f).+ as f64),
                _ => None,
            },
            |w: &mut Workload, v: f64| {
                if let Workload::$kind(x) = w {
                    x.$($f).+ = v as $ty;
                }
            },
        )
    };
}

/// A row: `key, label, property, (lo, hi), hint, (read, write), default`.
macro_rules! row {
    ($key:literal, $label:literal, $property:literal, $range:expr, $hint:literal, $rw:expr, $default:expr) => {{
        const RW: (fn(&Workload) -> Option<f64>, fn(&mut Workload, f64)) = $rw;
        EditorRow::Setting(&ClientSetting {
            key: $key,
            label: $label,
            property: $property,
            range: $range,
            hint: $hint,
            read: RW.0,
            write: RW.1,
            default: $default,
        })
    }};
}

/// `buffer.memory`'s upper bound (1 TiB).
const MAX_BYTES: u64 = 1 << 40;

const PRODUCER: &[EditorRow] = &[
    row!("records", "Records", "records", (1, 10_000_000), "", field!(Producer.records: u64), None),
    row!("size", "Record size (bytes)", "record.size", (1, 100_000_000), "", field!(Producer.record_size: u32), None),
    EditorRow::Start,
    EditorRow::Acks,
    row!("batch", "batch.size", "batch.size", (1, 100_000_000), "", field!(Producer.config.batch_size: u32),
        Some(|| f64::from(ProducerConfig::default().batch_size))),
    row!("linger", "linger.ms", "linger.ms", (0, 600_000), "", field!(Producer.config.linger_ms: u64),
        Some(|| ProducerConfig::default().linger_ms as f64)),
    row!("inflight", "max.in.flight.requests.per.connection", "max.in.flight.requests.per.connection", (1, 100), "",
        field!(Producer.config.max_in_flight: u32), Some(|| f64::from(ProducerConfig::default().max_in_flight))),
    row!("buffer", "buffer.memory", "buffer.memory", (1024, MAX_BYTES), "", field!(Producer.config.buffer_memory: u64),
        Some(|| ProducerConfig::default().buffer_memory as f64)),
    row!("maxblock", "max.block.ms", "max.block.ms", (0, 3_600_000), "", field!(Producer.config.max_block_ms: u64),
        Some(|| ProducerConfig::default().max_block_ms as f64)),
    row!("delivery", "delivery.timeout.ms", "delivery.timeout.ms", (1, 3_600_000), "",
        field!(Producer.config.delivery_timeout_ms: u64), Some(|| ProducerConfig::default().delivery_timeout_ms as f64)),
    row!("reqtimeout", "request.timeout.ms", "request.timeout.ms", (1, 3_600_000), "",
        field!(Producer.config.request_timeout_ms: u64), Some(|| ProducerConfig::default().request_timeout_ms as f64)),
    row!("maxreq", "max.request.size", "max.request.size", (1, 1 << 31), "", field!(Producer.config.max_request_size: u32),
        Some(|| f64::from(ProducerConfig::default().max_request_size))),
];

const CONSUMER: &[EditorRow] = &[
    row!("records", "Records to read", "records", (1, 10_000_000), "read from a preloaded topic",
        field!(Consumer.records: u64), None),
    EditorRow::Start,
    row!("fmax", "fetch.max.bytes", "fetch.max.bytes", (1, 1 << 31), "", field!(Consumer.config.fetch_max_bytes: u32),
        Some(|| f64::from(ConsumerConfig::default().fetch_max_bytes))),
    row!("pmax", "max.partition.fetch.bytes", "max.partition.fetch.bytes", (1, 1 << 31), "",
        field!(Consumer.config.max_partition_fetch_bytes: u32),
        Some(|| f64::from(ConsumerConfig::default().max_partition_fetch_bytes))),
    row!("fwait", "fetch.max.wait.ms", "fetch.max.wait.ms", (0, 600_000), "", field!(Consumer.config.fetch_max_wait_ms: u64),
        Some(|| ConsumerConfig::default().fetch_max_wait_ms as f64)),
    row!("fmin", "fetch.min.bytes", "fetch.min.bytes", (1, 1 << 31), "", field!(Consumer.config.fetch_min_bytes: u32),
        Some(|| f64::from(ConsumerConfig::default().fetch_min_bytes))),
];

const ADMIN: &[EditorRow] = &[
    row!("topics", "Topics", "topics", (1, 10_000), "topics in all", field!(Admin.topics: u32), None),
    row!("partitions", "Partitions per topic", "partitions", (1, 100_000), "each partition is one mutation",
        field!(Admin.partitions: u32), None),
    row!("per-call", "Topics per call", "topics_per_call", (1, 10_000), "",
        (
            |w: &Workload| match w {
                Workload::Admin(a) => Some(f64::from(a.per_call())),
                _ => None,
            },
            |w: &mut Workload, v: f64| {
                if let Workload::Admin(a) = w {
                    a.topics_per_call = Some(v as u32);
                }
            },
        ),
        None),
    row!("interval", "call_interval_ms", "call_interval_ms", (0, HORIZON_CAP_MS), "between the application's calls",
        field!(Admin.call_interval_ms: u64), None),
    EditorRow::Start,
    row!("timeout", "default.api.timeout.ms", "default.api.timeout.ms", (1, i32::MAX as u64), "",
        field!(Admin.config.default_api_timeout_ms: u64), Some(|| AdminConfig::default().default_api_timeout_ms as f64)),
    row!("reqtimeout", "request.timeout.ms", "request.timeout.ms", (0, i32::MAX as u64), "",
        field!(Admin.config.request_timeout_ms: u64), Some(|| AdminConfig::default().request_timeout_ms as f64)),
    row!("version", "api_version", "api_version", (0, 7), "older than strictSinceVersion = permissive",
        (
            |w: &Workload| match w {
                Workload::Admin(a) => Some(f64::from(a.version())),
                _ => None,
            },
            |w: &mut Workload, v: f64| {
                if let Workload::Admin(a) = w {
                    a.api_version = Some(v as i16);
                }
            },
        ),
        None),
];

const CONNECTS: &[EditorRow] = &[
    row!("count", "Connections", "count", (1, 10_000), "connections, or open-send-close cycles (reopen)",
        field!(Connects.count: u32), None),
    row!("interval", "interval_ms", "interval_ms", (0, HORIZON_CAP_MS), "pool: between opens; reopen: after each close",
        field!(Connects.interval_ms: u64), None),
    EditorRow::Start,
    row!("backoff", "reconnect.backoff.ms", "reconnect.backoff.ms", (0, HORIZON_CAP_MS), "",
        field!(Connects.config.reconnect_backoff_ms: u64), Some(|| ConnectConfig::default().reconnect_backoff_ms as f64)),
    row!("backoffmax", "reconnect.backoff.max.ms", "reconnect.backoff.max.ms", (0, HORIZON_CAP_MS), "",
        field!(Connects.config.reconnect_backoff_max_ms: u64),
        Some(|| ConnectConfig::default().reconnect_backoff_max_ms as f64)),
];

/// The rows of `w`'s editor, in order.
pub fn editor_rows(w: &Workload) -> &'static [EditorRow] {
    match w {
        Workload::Producer(_) => PRODUCER,
        Workload::Consumer(_) => CONSUMER,
        Workload::Admin(_) => ADMIN,
        Workload::Connects(_) => CONNECTS,
    }
}

/// The engine's problem at `property` of client `i` (`w`): a field of the
/// client (`workloads[i].producer.records`) or one of its configs
/// (`workloads[i].producer.config.batch.size`), as an editor shows it at
/// that field.
pub fn problem_at<'a>(problems: &'a [ScenarioProblem], i: usize, w: &Workload, property: &str) -> Option<&'a ScenarioProblem> {
    let client = ProblemPath::workload(i).then(w.kind());
    let (plain, config) = (client.clone().then(property.to_owned()), client.then("config").then(property.to_owned()));
    problems.iter().find(|p| p.path == plain || p.path == config)
}

/// The client's `start_ms`, whatever its kind.
pub fn start_ms(w: &Workload) -> u64 {
    match w {
        Workload::Producer(p) => p.start_ms,
        Workload::Consumer(c) => c.start_ms,
        Workload::Admin(a) => a.start_ms,
        Workload::Connects(c) => c.start_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::sim::Scenario;

    fn workloads() -> Vec<Workload> {
        let s: Scenario = serde_json::from_str(
            r#"{"topics": [{"name": "t", "partitions": 1, "preload": {"records": 10, "record.size": 100}}],
                "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"},
                                {"name": "c", "listener": "PLAINTEXT", "client.id": "c"},
                                {"name": "a", "listener": "PLAINTEXT", "client.id": "a"},
                                {"name": "x", "listener": "PLAINTEXT", "client.id": "x"}],
                "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 10, "record.size": 100}},
                              {"consumer": {"connection": "c", "topic": "t", "records": 10}},
                              {"admin": {"connection": "a", "topics": 3, "partitions": 2}},
                              {"connects": {"connection": "x", "count": 4}}]}"#,
        )
        .unwrap();
        s.workloads
    }

    /// Every setting writes the field it reads, within its bounds, and
    /// leaves the rest of the client as it was; a client of another kind
    /// is untouched.
    #[test]
    fn every_setting_writes_what_it_reads() {
        let all = workloads();
        for w in &all {
            for row in editor_rows(w) {
                let EditorRow::Setting(s) = row else { continue };
                for v in [s.range.0, s.range.1.min(1_000_000), s.range.1] {
                    let next = s.with(w, v as f64);
                    assert_eq!(s.value(&next), v as f64, "{} {}", w.kind(), s.key);
                    // Only its own field changes.
                    for other in editor_rows(w) {
                        let EditorRow::Setting(o) = other else { continue };
                        // Unset, an Admin client's topics per call are all its topics.
                        let derived = w.kind() == "admin" && (s.key, o.key) == ("topics", "per-call");
                        if o.key != s.key && !derived {
                            assert_eq!(o.value(&next), o.value(w), "{} {} changed {}", w.kind(), s.key, o.key);
                        }
                    }
                    assert_eq!((start_ms(&next), next.connection()), (start_ms(w), w.connection()));
                }
                for other in all.iter().filter(|o| o.kind() != w.kind()) {
                    assert_eq!(s.with(other, 7.0), *other, "{} on a {}", s.key, other.kind());
                }
            }
        }
    }

    /// Where the engine puts its problem with a setting is where the field
    /// looks for it (`property`, as a field or a config of the client): a
    /// value below its bound that the engine refuses is said at that field.
    #[test]
    fn the_engines_problem_with_a_setting_is_found_at_its_field() {
        let s0: Scenario = {
            let mut s: Scenario = serde_json::from_str(r#"{"topics": [{"name": "t", "partitions": 1, "preload": {"records": 10, "record.size": 100}}]}"#).unwrap();
            s.connections = serde_json::from_str(r#"[{"name": "p", "listener": "PLAINTEXT", "client.id": "p"},
                {"name": "c", "listener": "PLAINTEXT", "client.id": "c"}, {"name": "a", "listener": "PLAINTEXT", "client.id": "a"},
                {"name": "x", "listener": "PLAINTEXT", "client.id": "x"}]"#).unwrap();
            s.workloads = workloads();
            s
        };
        assert!(s0.validate().is_ok());
        let mut found = 0;
        for (i, w) in s0.workloads.iter().enumerate() {
            for row in editor_rows(w) {
                let EditorRow::Setting(setting) = row else { continue };
                let mut s = s0.clone();
                s.workloads[i] = setting.with(w, 0.0);
                let Err(problems) = s.validate() else { continue };
                assert!(problem_at(&problems, i, w, setting.property).is_some(), "{} {} = 0: {problems:?}", w.kind(), setting.key);
                found += 1;
            }
        }
        assert!(found >= 5, "{found} settings refused at 0");
    }

    /// A config's default is the engine's: what a client gets with no such
    /// config in its scenario.
    #[test]
    fn a_configs_default_is_the_engines() {
        for w in workloads() {
            for row in editor_rows(&w) {
                let EditorRow::Setting(s) = row else { continue };
                if let Some(d) = s.default() {
                    assert_eq!(s.value(&w), d, "{} {}", w.kind(), s.key);
                    assert!(s.range.0 as f64 <= d && d <= s.range.1 as f64, "{} {}", w.kind(), s.key);
                }
            }
        }
    }

    /// Each row's id is unique within its client, and every client has
    /// one start.
    #[test]
    fn rows_are_unique_and_each_client_has_a_start() {
        for w in workloads() {
            let rows = editor_rows(&w);
            let keys: Vec<&str> = rows.iter().filter_map(|r| if let EditorRow::Setting(s) = r { Some(s.key) } else { None }).collect();
            let mut unique = keys.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), keys.len(), "{}", w.kind());
            assert_eq!(rows.iter().filter(|r| matches!(r, EditorRow::Start)).count(), 1, "{}", w.kind());
            assert_eq!(start_ms(&w), 0);
        }
    }
}
