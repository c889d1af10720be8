//! Scenario checks: [`Scenario::validate`] returns every problem of a
//! scenario, each with the path of the input at fault and its error, so
//! an editor can mark all of them at once; or the scenario as the
//! [`Valid`] that [`super::simulate`] takes.
//!
//! The checks run in the order a run used to meet them (broker settings,
//! quotas, link, broker count, topics, then each workload), then the
//! scenario's events; the first problem is the one error a caller that
//! wants one reports (`Error::from(problems)`, what `?` does: the CLI's
//! `the scenario cannot run: ...`).
//!
//! Kafka's own checks are reused, not restated: broker settings through
//! [`crate::broker::BrokerSettings::validate`], quotas through
//! [`crate::store::QuotaStore::set`] (Kafka: `ConfigCommand`,
//! `ClientQuotaControlManager`), principals through the principal builder
//! (Kafka: `DefaultKafkaPrincipalBuilder`).

use std::collections::BTreeSet;
use std::fmt;

use crate::scenario::{AdminOperation, AdminWorkload, ConnectsWorkload, NetworkModel, ProblemPath, Scenario, ScenarioEvent, Valid, Workload};
use super::world::{batch_allocation, record_size_in_batch, record_too_large};
use crate::store::QuotaStore;
use crate::Error;

/// The most topics one admin workload may have (each topic is one row of
/// its track).
pub(crate) const ADMIN_TOPICS_MAX: u32 = 10_000;
/// The most partitions per topic of an admin workload.
pub(crate) const ADMIN_PARTITIONS_MAX: u32 = 100_000;
/// The most connections (or cycles) of one connects workload.
pub(crate) const CONNECTS_MAX: u32 = 10_000;
/// The longest one-way link latency a scenario may have (µs: a minute).
const LATENCY_MAX_US: u64 = 60_000_000;
/// The longest broker cost a scenario may give (µs: a minute).
const COST_MAX_US: f64 = 60_000_000.0;
/// The longest time a workload's start, interval or backoff may name (ms:
/// the horizon cap).
const TIME_MAX_MS: u64 = super::world::HORIZON_CAP_MS;

/// One thing wrong with a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioProblem {
    /// Where, as a typed path into the scenario JSON, read as
    /// `workloads[1].producer.connection` or `topics[0].partitions`.
    pub path: ProblemPath,
    /// What, with Kafka's message where Kafka has one.
    pub error: Error,
}

impl fmt::Display for ScenarioProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.error)
    }
}

/// The message for a workload naming a connection that is not defined.
pub(crate) fn unknown_connection(name: &str) -> String {
    format!("A workload uses the connection '{name}', which is not defined in connections.")
}

/// Why Kafka refuses `name` as a topic name, or `None` when it is legal:
/// `org.apache.kafka.common.internals.Topic.validate` (Kafka 4.x,
/// clients/src/main/java/org/apache/kafka/common/internals/Topic.java,
/// `detectInvalidTopic`): not empty, not "." nor "..", at most 249 UTF-16
/// code units (`String.length`), only ASCII alphanumerics, '.', '_' and
/// '-', checked in that order; the text is its `InvalidTopicException`
/// message, "Topic name is invalid: " and the first reason.
pub fn topic_name_problem(name: &str) -> Option<String> {
    const MAX_NAME_LENGTH: usize = 249;
    let reason = if name.is_empty() {
        "the empty string is not allowed".to_owned()
    } else if name == "." || name == ".." {
        format!("'{name}' is not allowed")
    } else if name.encode_utf16().count() > MAX_NAME_LENGTH {
        format!("the length of '{name}' is longer than the max allowed length {MAX_NAME_LENGTH}")
    } else if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) {
        format!("'{name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'")
    } else {
        return None;
    };
    Some(format!("Topic name is invalid: {reason}"))
}

/// The message for a workload naming a topic that is not defined.
pub(crate) fn unknown_topic(name: &str) -> String {
    format!("A workload uses the topic '{name}', which is not defined in topics.")
}

/// The problems found so far.
#[derive(Default)]
struct Problems(Vec<ScenarioProblem>);

impl Problems {
    fn push(&mut self, path: ProblemPath, error: Error) {
        self.0.push(ScenarioProblem { path, error });
    }

    fn invalid(&mut self, path: ProblemPath, message: String) {
        self.push(path, Error::invalid_scenario(message));
    }
}

impl Scenario {
    /// Checks the scenario without running it; on success, the scenario as
    /// [`Valid`], what the runs ([`super::simulate`] and its variants) take.
    ///
    /// # Errors
    ///
    /// Every problem found, in the order a run used to meet them (the one
    /// error `Error::from(problems)` gives is the first one's): broker settings out of range, quotas the
    /// store refuses, an invalid link bandwidth or broker count, topics with
    /// no or too many partitions, defined twice, or with an empty preload,
    /// topic `leaders` not one per partition or naming a broker that does
    /// not exist, workloads naming unknown or shared connections or unknown
    /// topics, a `stop_ms` not after `start_ms`, connections without a
    /// principal, producers with zero sizes, a `throughput` of 0 or below
    /// other than -1, or a batch larger than `buffer.memory` (unless the
    /// record itself is too large: every `send()` then fails at run time
    /// with `RecordTooLargeException`), socket buffers (`send.buffer.bytes`,
    /// `socket.receive.buffer.bytes`) below 1 byte, then `events` at or
    /// beyond the horizon, naming an unknown topic, partition or broker, a
    /// `move_leader` to the broker already leading the partition then, or a quota alteration the store refuses
    /// (path `events[i]`, Kafka's message).
    ///
    /// A scenario with `"network": "textbook"` is checked by the textbook
    /// network's own rules instead ([`super::textbook::check`], what
    /// [`super::simulate`] checks before running it): its problem, if any,
    /// is at path `network`.
    ///
    /// # Example
    ///
    /// ```
    /// use quota_engine::sim::Scenario;
    ///
    /// let s: Scenario = serde_json::from_str(r#"{
    ///   "topics": [{"name": "t", "partitions": 0}],
    ///   "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 1}}]
    /// }"#)?;
    /// let problems = s.validate().unwrap_err();
    /// // The error a caller that wants one error reports (`?` converts).
    /// let first = quota_engine::Error::from(problems.clone());
    /// assert_eq!(first.to_string(), problems[0].error.to_string());
    /// let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
    /// assert_eq!(paths, ["topics[0].partitions", "workloads[0].consumer.connection"]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn validate(&self) -> Result<Valid<&Scenario>, Vec<ScenarioProblem>> {
        if super::textbook::is_textbook(self) {
            return super::textbook::check(self)
                .map(|()| Valid::checked(self))
                .map_err(|error| vec![ScenarioProblem { path: ProblemPath::field("network"), error }]);
        }
        let mut out = Problems::default();
        let settings = &self.brokers.settings;
        if let Err(e) = settings.validate() {
            out.push(ProblemPath::field("brokers").then("settings"), e);
        }
        let mut store = QuotaStore::new();
        for (i, q) in self.quotas.iter().enumerate() {
            if let Err(e) = store.set(&q.entity, q.key, q.value) {
                out.push(
                    ProblemPath::quota(i),
                    Error::quota_refused(q.entity.path(), q.key.as_str().to_owned(), e),
                );
            }
        }
        let bandwidth = self.environment.link.bandwidth_bytes_per_s;
        if !(bandwidth.is_finite() && bandwidth > 0.0) {
            out.invalid(
                ProblemPath::field("environment").then("link").then("bandwidth_bytes_per_s"),
                format!(
                    "The link bandwidth {bandwidth} bytes/s is not valid: it must be a finite number above zero."
                ),
            );
        }
        let latency = self.environment.link.latency_us;
        if latency > LATENCY_MAX_US {
            out.invalid(
                ProblemPath::field("environment").then("link").then("latency_us"),
                format!("The link latency {latency} µs is not valid: it must be at most {LATENCY_MAX_US} µs (a minute)."),
            );
        }
        for (field, v) in [
            ("controller_commit_us", self.environment.broker.controller_commit_us),
            ("accept_us", self.environment.broker.accept_us),
        ] {
            if !(v.is_finite() && (0.0..=COST_MAX_US).contains(&v)) {
                out.invalid(
                    ProblemPath::field("environment").then("broker").then(field),
                    format!("The broker's {field} {v} µs is not valid: it must be a finite number from 0 to {COST_MAX_US} µs (a minute)."),
                );
            }
        }
        let count = self.brokers.count;
        if count == 0 || count > 1000 {
            out.invalid(
                ProblemPath::field("brokers").then("count"),
                format!("The broker count {count} is not valid: it must be between 1 and 1000."),
            );
        }
        self.validate_topics(&mut out);
        self.validate_workloads(&mut out);
        self.validate_events(&mut out);
        if out.0.is_empty() {
            Ok(Valid::checked(self))
        } else {
            Err(out.0)
        }
    }

    fn validate_topics(&self, out: &mut Problems) {
        let mut names = BTreeSet::new();
        for (i, t) in self.topics.iter().enumerate() {
            if let Some(why) = topic_name_problem(&t.name) {
                out.invalid(ProblemPath::topic(i).then("name"), why);
            }
            if t.partitions == 0 || t.partitions > 100_000 {
                out.invalid(
                    ProblemPath::topic(i).then("partitions"),
                    format!(
                        "Topic '{}' has {} partitions: it must have between 1 and 100000.",
                        t.name, t.partitions
                    ),
                );
            }
            if !names.insert(t.name.as_str()) {
                out.invalid(
                    ProblemPath::topic(i).then("name"),
                    format!("Topic '{}' is defined twice.", t.name),
                );
            }
            if let Some(leaders) = &t.leaders {
                if leaders.len() != t.partitions as usize {
                    out.invalid(
                        ProblemPath::topic(i).then("leaders"),
                        format!(
                            "Topic '{}' lists {} leaders for {} partitions: give one broker id per partition.",
                            t.name,
                            leaders.len(),
                            t.partitions
                        ),
                    );
                }
                for (p, b) in leaders.iter().enumerate() {
                    if *b >= self.brokers.count {
                        out.invalid(
                            ProblemPath::topic(i).then("leaders").at(p),
                            format!(
                                "Partition {p} of topic '{}' is led by broker {b}, which does not exist: the brokers are 0 to {}.",
                                t.name,
                                self.brokers.count.saturating_sub(1)
                            ),
                        );
                    }
                }
            }
            if let Some(pre) = &t.preload {
                if pre.record_size == 0 || pre.batch_size == 0 {
                    out.invalid(
                        ProblemPath::topic(i).then("preload"),
                        format!(
                            "The preload of topic '{}' needs record.size and batch.size above zero.",
                            t.name
                        ),
                    );
                }
            }
        }
    }

    /// An admin workload's checks: its connection (known, used once, a
    /// principal), its counts and version, and the network it runs on.
    fn validate_admin<'a>(
        &'a self,
        i: usize,
        a: &'a AdminWorkload,
        cluster: &crate::cluster::Cluster,
        used: &mut BTreeSet<&'a str>,
        out: &mut Problems,
    ) {
        let at = |field: &str| ProblemPath::workload(i).then("admin").setting(field);
        let conn_name = a.connection.as_str();
        let spec = self.connections.iter().position(|c| c.name == conn_name);
        if spec.is_none() {
            out.invalid(at("connection"), unknown_connection(conn_name));
        }
        let first_use = used.insert(conn_name);
        if spec.is_some() && !first_use {
            out.invalid(
                at("connection"),
                format!("The connection '{conn_name}' is used by two workloads; give each client its own connection."),
            );
        }
        if let (Some(j), true) = (spec, first_use) {
            if let Err(e) = cluster.principal(j, &self.connections[j].name) {
                out.push(ProblemPath::connection(j), e);
            }
        }
        if self.network == NetworkModel::Textbook {
            out.invalid(
                at("connection"),
                format!("The admin workload on '{conn_name}' needs the modelled network: the textbook network has producers and consumers only. Remove \"network\": \"textbook\" or the admin workload."),
            );
        }
        if !(1..=ADMIN_TOPICS_MAX).contains(&a.topics) {
            out.invalid(
                at("topics"),
                format!("The admin workload on '{conn_name}' has topics {}: it must be 1 to {ADMIN_TOPICS_MAX}.", a.topics),
            );
        }
        if !(1..=ADMIN_PARTITIONS_MAX).contains(&a.partitions) {
            out.invalid(
                at("partitions"),
                format!("The admin workload on '{conn_name}' has partitions {}: it must be 1 to {ADMIN_PARTITIONS_MAX} per topic.", a.partitions),
            );
        }
        if a.topics_per_call == Some(0) {
            out.invalid(
                at("topics_per_call"),
                format!("The admin workload on '{conn_name}' has topics_per_call 0: each call needs at least one topic (leave it out for one call with every topic)."),
            );
        }
        if let Some(v) = a.api_version {
            let (lo, hi) = a.operation.valid_versions();
            if !(lo..=hi).contains(&v) {
                out.invalid(
                    at("api_version"),
                    format!(
                        "The admin workload on '{conn_name}' sends {} v{v}: Kafka 4.3.1 accepts versions {lo} to {hi} (UNSUPPORTED_VERSION otherwise).",
                        a.operation.request_name()
                    ),
                );
            }
        }
        // ReplicationControlManager.createTopic: INVALID_REPLICATION_FACTOR
        // before any quota is charged (StripedReplicaPlacer's words).
        if a.operation == AdminOperation::CreateTopics {
            if a.replication_factor == 0 {
                out.invalid(
                    at("replication_factor"),
                    "INVALID_REPLICATION_FACTOR: Replication factor must be larger than 0, or -1 to use the default value.".to_owned(),
                );
            } else if a.replication_factor > self.brokers.count {
                out.invalid(
                    at("replication_factor"),
                    format!(
                        "INVALID_REPLICATION_FACTOR: Unable to replicate the partition {rf} time(s): The target replication factor of {rf} cannot be reached because only {n} broker(s) are registered or some brokers have all their log directories cordoned.",
                        rf = a.replication_factor,
                        n = self.brokers.count
                    ),
                );
            }
        }
        for (field, v) in [("start_ms", a.start_ms), ("call_interval_ms", a.call_interval_ms)] {
            if v > TIME_MAX_MS {
                out.invalid(at(field), format!("The admin workload on '{conn_name}' has {field} {v}: at most {TIME_MAX_MS} ms (the horizon's cap)."));
            }
        }
        if let Some(problem) = topic_name_problem(&format!("{}-{}", a.topic_prefix, a.topics.saturating_sub(1))) {
            out.invalid(at("topic_prefix"), problem);
        }
        let cfg = &a.config;
        if (1..=i32::MAX as u64).contains(&cfg.request_timeout_ms)
            && cfg.api_timeout_ms() < cfg.request_timeout_ms
        {
            // KafkaAdminClient.configureDefaultApiTimeoutMs: a ConfigException.
            out.invalid(
                at("config.default.api.timeout.ms"),
                format!(
                    "The admin workload on '{conn_name}' sets default.api.timeout.ms={} below request.timeout.ms={}: the Java Admin client refuses it (ConfigException: The specified value of default.api.timeout.ms must be no smaller than the value of request.timeout.ms.).",
                    cfg.default_api_timeout_ms, cfg.request_timeout_ms
                ),
            );
        }
        if cfg.request_timeout_ms > i32::MAX as u64 {
            out.invalid(
                at("config.request.timeout.ms"),
                format!(
                    "The admin workload on '{conn_name}' sets request.timeout.ms={}: Kafka takes 0 to {} ms.",
                    cfg.request_timeout_ms,
                    i32::MAX
                ),
            );
        }
        if a.config.default_api_timeout_ms == 0 || a.config.default_api_timeout_ms > i32::MAX as u64 {
            out.invalid(
                at("config.default.api.timeout.ms"),
                format!(
                    "The admin workload on '{conn_name}' sets default.api.timeout.ms={}: Kafka takes 1 to {} ms.",
                    a.config.default_api_timeout_ms,
                    i32::MAX
                ),
            );
        }
    }

    /// A connects workload's checks: its connection (known, used once), its
    /// count and broker, and the network it runs on.
    fn validate_connects<'a>(
        &'a self,
        i: usize,
        c: &'a ConnectsWorkload,
        used: &mut BTreeSet<&'a str>,
        out: &mut Problems,
    ) {
        let at = |field: &str| ProblemPath::workload(i).then("connects").setting(field);
        let conn_name = c.connection.as_str();
        let known = self.connections.iter().any(|s| s.name == conn_name);
        if !known {
            out.invalid(at("connection"), unknown_connection(conn_name));
        }
        if known && !used.insert(conn_name) {
            out.invalid(
                at("connection"),
                format!("The connection '{conn_name}' is used by two workloads; give each client its own connection."),
            );
        }
        if self.network == NetworkModel::Textbook {
            out.invalid(
                at("connection"),
                format!("The connects workload on '{conn_name}' needs the modelled network: the textbook network has producers and consumers only. Remove \"network\": \"textbook\" or the connects workload."),
            );
        }
        if !(1..=CONNECTS_MAX).contains(&c.count) {
            out.invalid(
                at("count"),
                format!("The connects workload on '{conn_name}' has count {}: it must be 1 to {CONNECTS_MAX}.", c.count),
            );
        }
        if c.broker >= self.brokers.count {
            out.invalid(
                at("broker"),
                format!(
                    "The connects workload on '{conn_name}' connects to broker {}, but the cluster has brokers 0 to {}.",
                    c.broker,
                    self.brokers.count.saturating_sub(1)
                ),
            );
        }
        // ExponentialBackoff: a backoff.max below the backoff is the backoff
        // (initialInterval = min(max, initial)); Kafka's ConfigDef takes 0 and up (longs).
        for (field, v) in [
            ("start_ms", c.start_ms),
            ("interval_ms", c.interval_ms),
            ("config.reconnect.backoff.ms", c.config.reconnect_backoff_ms),
            ("config.reconnect.backoff.max.ms", c.config.reconnect_backoff_max_ms),
        ] {
            if v > TIME_MAX_MS {
                out.invalid(at(field), format!("The connects workload on '{conn_name}' has {field} {v}: at most {TIME_MAX_MS} ms (the horizon's cap)."));
            }
        }
    }

    fn validate_workloads(&self, out: &mut Problems) {
        let cluster = crate::cluster::Cluster::new(self);
        let mut used = BTreeSet::new();
        for (i, wl) in self.workloads.iter().enumerate() {
            let (kind, conn_name, topic) = match wl {
                Workload::Producer(p) => ("producer", p.connection.as_str(), p.topic.as_str()),
                Workload::Consumer(c) => ("consumer", c.connection.as_str(), c.topic.as_str()),
                Workload::Admin(a) => {
                    self.validate_admin(i, a, &cluster, &mut used, out);
                    continue;
                }
                Workload::Connects(c) => {
                    self.validate_connects(i, c, &mut used, out);
                    continue;
                }
            };
            let at = |field: &str| ProblemPath::workload(i).then(kind).setting(field);
            let spec = self.connections.iter().position(|c| c.name == conn_name);
            if spec.is_none() {
                out.invalid(at("connection"), unknown_connection(conn_name));
            }
            let first_use = used.insert(conn_name);
            if spec.is_some() && !first_use {
                out.invalid(
                    at("connection"),
                    format!(
                        "The connection '{conn_name}' is used by two workloads; give each client its own connection."
                    ),
                );
            }
            if !self.topics.iter().any(|t| t.name == topic) {
                out.invalid(at("topic"), unknown_topic(topic));
            }
            if let (Some(j), true) = (spec, first_use) {
                if let Err(e) = cluster.principal(j, &self.connections[j].name) {
                    out.push(ProblemPath::connection(j), e);
                }
            }
            let (start_ms, stop_ms) = match wl {
                Workload::Producer(p) => (p.start_ms, p.stop_ms),
                Workload::Consumer(c) => (c.start_ms, c.stop_ms),
                Workload::Admin(_) | Workload::Connects(_) => continue,
            };
            if let Some(stop) = stop_ms.filter(|stop| *stop <= start_ms) {
                out.invalid(
                    at("stop_ms"),
                    format!(
                        "The workload on '{conn_name}' stops at {stop} ms, not after it starts at {start_ms} ms: stop_ms must be above start_ms."
                    ),
                );
            }
            if let Some(field) = textbook_only_field(wl) {
                out.invalid(
                    at(field),
                    format!(
                        "The workload on '{conn_name}' sets {field}, which only the textbook network uses: add \"network\": \"textbook\" or remove it."
                    ),
                );
            }
            let send_buffer = match wl {
                Workload::Producer(p) => p.config.send_buffer_bytes,
                Workload::Consumer(c) => c.config.send_buffer_bytes,
                Workload::Admin(_) | Workload::Connects(_) => continue,
            };
            if send_buffer < 1 {
                out.invalid(
                    at("config.send.buffer.bytes"),
                    format!(
                        "The client on '{conn_name}' sets send.buffer.bytes={send_buffer}: it must be at least 1 byte (the OS default, -1, is not modelled)."
                    ),
                );
            }
            let Workload::Producer(p) = wl else { continue };
            let cfg = &p.config;
            // kafka-producer-perf-test's ThroughputThrottler: a negative
            // target never throttles, a target of 0 waits forever after the
            // first record (`throttle()` waits for a wakeup that never comes),
            // server-common/src/main/java/org/apache/kafka/server/util/ThroughputThrottler.java.
            if !(p.throughput > 0.0 || p.throughput == -1.0) {
                out.invalid(
                    at("throughput"),
                    format!(
                        "The producer on '{conn_name}' sets throughput {}: it must be above zero records/s (use -1 for unlimited); kafka-producer-perf-test waits forever at a throughput of 0.",
                        p.throughput
                    ),
                );
            }
            if p.record_size == 0 {
                out.invalid(
                    at("record.size"),
                    "A producer's record.size must be above zero.".to_owned(),
                );
            }
            if cfg.batch_size == 0 || cfg.max_in_flight == 0 {
                // At each setting that is 0, so that an editor finds it at
                // its field.
                for (zero, name) in [(cfg.batch_size == 0, "batch.size"), (cfg.max_in_flight == 0, "max.in.flight.requests.per.connection")] {
                    if zero {
                        out.invalid(at(&format!("config.{name}")), format!("A producer's {name} must be above zero."));
                    }
                }
                continue;
            }
            // KafkaProducer.configureDeliveryTimeout: a delivery.timeout.ms
            // set below linger.ms + request.timeout.ms fails the producer's
            // construction with a ConfigException; an unset one is raised
            // to the sum (ProducerConfig::effective_delivery_timeout_ms: the
            // default 120000 counts as unset).
            // clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java.
            let floor = cfg.linger_plus_request_timeout_ms();
            if cfg.effective_delivery_timeout_ms() < floor {
                out.invalid(
                    at("config.delivery.timeout.ms"),
                    format!(
                        "The producer on '{conn_name}' cannot be created: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms \
                         (Kafka's ConfigException when delivery.timeout.ms is set); it is {} ms, below {} + {} = {floor} ms. Raise delivery.timeout.ms to at least {floor}, \
                         or lower linger.ms or request.timeout.ms.",
                        cfg.delivery_timeout_ms,
                        cfg.linger_ms.min(i32::MAX as u64),
                        cfg.request_timeout_ms
                    ),
                );
            }
            if p.record_size == 0 {
                continue;
            }
            // A record send() refuses as too large fails at run time
            // (RecordTooLargeException, before any allocation); otherwise
            // a batch that cannot fit in buffer.memory is refused here
            // (Kafka: BufferPool.allocate's IllegalArgumentException on
            // every send()).
            let too_large =
                record_too_large(p.record_size, cfg.max_request_size, cfg.buffer_memory).is_some();
            let alloc = batch_allocation(cfg.batch_size, record_size_in_batch(p.record_size));
            if alloc > cfg.buffer_memory && !too_large {
                out.invalid(
                    at("config.buffer.memory"),
                    format!(
                        "A batch of {alloc} bytes does not fit in buffer.memory={}: raise buffer.memory.",
                        cfg.buffer_memory
                    ),
                );
            }
        }
    }
}

impl Scenario {
    /// Checks `events`: each before the horizon; a `move_leader` naming an
    /// existing topic, partition and broker other than the partition's
    /// leader at that time (after the earlier moves); a `set_quota` the store accepts
    /// (Kafka's validation and message), applied after the scenario's quotas
    /// and the earlier events, in time order.
    fn validate_events(&self, out: &mut Problems) {
        let horizon = self.horizon_ms.min(super::world::HORIZON_CAP_MS);
        for (i, e) in self.events.iter().enumerate() {
            let at = e.at_ms();
            if at > horizon {
                out.invalid(
                    ProblemPath::event(i).then("at_ms"),
                    format!(
                        "The {} event at {at} ms is beyond the horizon of {horizon} ms: it would never happen.",
                        e.kind()
                    ),
                );
            } else if at == horizon {
                // The run handles events at the horizon itself and stops:
                // the event would be listed as having happened with nothing
                // simulated after it.
                out.invalid(
                    ProblemPath::event(i).then("at_ms"),
                    format!(
                        "The {} event at {at} ms is at the horizon of {horizon} ms: nothing after it would be simulated; move it before the horizon.",
                        e.kind()
                    ),
                );
            }
            let ScenarioEvent::MoveLeader {
                topic,
                partition,
                to_broker,
                ..
            } = e
            else {
                continue;
            };
            match self.topics.iter().find(|t| t.name == *topic) {
                None => out.invalid(
                    ProblemPath::event(i).then("topic"),
                    format!("The move_leader event names the topic '{topic}', which is not defined in topics."),
                ),
                Some(t) if *partition >= t.partitions => out.invalid(
                    ProblemPath::event(i).then("partition"),
                    format!(
                        "The move_leader event names partition {partition} of topic '{topic}', which has {} partitions (0 to {}).",
                        t.partitions,
                        t.partitions.saturating_sub(1)
                    ),
                ),
                Some(_) => {}
            }
            if *to_broker >= self.brokers.count {
                out.invalid(
                    ProblemPath::event(i).then("to_broker"),
                    format!(
                        "The move_leader event moves the leader to broker {to_broker}, which does not exist: the brokers are 0 to {}.",
                        self.brokers.count.saturating_sub(1)
                    ),
                );
            }
        }
        // Leadership moves, in the order the run applies them: a move to
        // the broker that already leads the partition changes nothing.
        let mut leaders: std::collections::BTreeMap<(&str, u32), u32> =
            std::collections::BTreeMap::new();
        for i in event_order(&self.events) {
            let ScenarioEvent::MoveLeader {
                at_ms,
                topic,
                partition,
                to_broker,
            } = &self.events[i]
            else {
                continue;
            };
            let Some(t) = self.topics.iter().find(|t| t.name == *topic) else {
                continue;
            };
            if *partition >= t.partitions || *to_broker >= self.brokers.count {
                continue;
            }
            let leader = leaders
                .entry((topic.as_str(), *partition))
                .or_insert_with(|| t.leader(*partition, self.brokers.count));
            if *leader == *to_broker {
                out.invalid(
                    ProblemPath::event(i).then("to_broker"),
                    format!(
                        "The move_leader event moves partition {partition} of topic '{topic}' to broker {to_broker}, but partition {partition} of topic '{topic}' is already led by broker {to_broker} at {at_ms} ms: move it to another broker or remove the event."
                    ),
                );
            }
            *leader = *to_broker;
        }
        // Quota alterations, in the order the run applies them.
        let mut store = QuotaStore::new();
        for q in &self.quotas {
            let _ = store.set(&q.entity, q.key, q.value);
        }
        for i in event_order(&self.events) {
            let ScenarioEvent::SetQuota {
                entity, key, value, ..
            } = &self.events[i]
            else {
                continue;
            };
            let result = match value {
                Some(v) => store.set(entity, *key, *v),
                None => store.remove(entity, *key),
            };
            if let Err(e) = result {
                out.push(
                    ProblemPath::event(i),
                    Error::quota_refused(entity.path(), key.as_str().to_owned(), e),
                );
            }
        }
    }
}

/// The positions of `events` in the order a run applies them: by `at_ms`,
/// then as written.
pub(crate) fn event_order(events: &[ScenarioEvent]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|i| events[*i].at_ms());
    order
}

/// The first field of `workload` that only the textbook network reads
/// (`bytes`, `request.size`, `fetch.size`), if any.
fn textbook_only_field(workload: &Workload) -> Option<&'static str> {
    match workload {
        Workload::Producer(p) if p.bytes.is_some() => Some("bytes"),
        Workload::Producer(p) if p.request_size.is_some() => Some("request.size"),
        Workload::Consumer(c) if c.bytes.is_some() => Some("bytes"),
        Workload::Consumer(c) if c.fetch_size.is_some() => Some("fetch.size"),
        _ => None,
    }
}

/// The one error for the problems [`Scenario::validate`] found (what `?`
/// turns them into): the first one's; a problem in `events[...]` has its
/// path written first ("events\[1\]: ..."), so the message names the event
/// (the other messages name their input themselves). An empty list (which
/// `validate` never returns) is an [`Error::is_invalid_scenario`] with no
/// message.
impl From<Vec<ScenarioProblem>> for Error {
    fn from(problems: Vec<ScenarioProblem>) -> Self {
        first_error(problems)
    }
}

fn first_error(problems: Vec<ScenarioProblem>) -> Error {
    problems.into_iter().next().map_or_else(
        || Error::invalid_scenario(String::new()),
        |p| {
            if p.path.item().is_some_and(|(list, _)| list == "events") {
                p.error.at_path(&p.path.to_string())
            } else {
                p.error
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A textbook scenario is checked by the textbook network's rules:
    /// the examples pass (the modelled network's rules would refuse their
    /// `bytes`), and a problem is the textbook's own, at `network`.
    #[test]
    fn a_textbook_scenario_is_checked_by_its_own_rules() {
        for text in [include_str!("../../../../examples/textbook-producer.json"), include_str!("../../../../examples/textbook-consumer.json")] {
            let v: serde_json::Value = serde_json::from_str(text).expect("an example");
            let s: Scenario = serde_json::from_value(v["scenario"].clone()).expect("a scenario");
            assert!(s.validate().is_ok(), "{:?}", s.validate());
        }
        let s: Scenario = serde_json::from_str(
            r#"{"network": "textbook", "topics": [{"name": "t"}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
                "workloads": [{"consumer": {"connection": "c", "topic": "t", "bytes": 1000}}]}"#,
        )
        .expect("a scenario");
        let problems = s.validate().expect_err("no fetch.size");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path.to_string(), "network");
        assert_eq!(problems[0].error.to_string(), crate::sim::textbook::check(&s).expect_err("refused").to_string());
    }

    #[test]
    fn topic_names_follow_kafka_topic_validate() {
        for ok in ["lab", "a.b_c-D9", ".a", "...", &"x".repeat(249)] {
            assert_eq!(topic_name_problem(ok), None, "{ok}");
        }
        let why = |n: &str| topic_name_problem(n).unwrap_or_default();
        assert_eq!(why(""), "Topic name is invalid: the empty string is not allowed");
        assert_eq!(why("."), "Topic name is invalid: '.' is not allowed");
        assert_eq!(why(".."), "Topic name is invalid: '..' is not allowed");
        let long = "y".repeat(250);
        assert_eq!(why(&long), format!("Topic name is invalid: the length of '{long}' is longer than the max allowed length 249"));
        for bad in ["my topic!", "a/b", "é"] {
            assert_eq!(
                why(bad),
                format!("Topic name is invalid: '{bad}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'")
            );
        }
        // String.length counts UTF-16 code units: 125 characters outside the
        // BMP are 250 units, too long before the character check.
        assert!(why(&"😀".repeat(125)).contains("is longer than the max allowed length 249"));
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        let s: Scenario = serde_json::from_str(
            r#"{
              "topics": [{"name": "t", "partitions": 0}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [
                {"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10}},
                {"producer": {"connection": "p", "topic": "nope", "records": 1, "record.size": 10}}
              ]
            }"#,
        )
        .unwrap();
        let problems = s.validate().unwrap_err();
        let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
        let got: Vec<(&str, String)> = problems
            .iter()
            .zip(&paths)
            .map(|(p, path)| (path.as_str(), p.error.to_string()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "topics[0].partitions",
                    "Topic 't' has 0 partitions: it must have between 1 and 100000.".to_owned()
                ),
                (
                    "workloads[1].producer.connection",
                    "The connection 'p' is used by two workloads; give each client its own connection.".to_owned()
                ),
                ("workloads[1].producer.topic", unknown_topic("nope")),
            ]
        );
        // The one error is the first problem's (outside `events[...]` its
        // path is not written again: the message names its input).
        assert_eq!(Error::from(problems.clone()), problems[0].error);
    }

    #[test]
    fn a_valid_scenario_has_no_problems() {
        let s: Scenario = serde_json::from_str(
            r#"{
              "topics": [{"name": "t"}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10}}]
            }"#,
        )
        .unwrap();
        assert!(s.validate().is_ok(), "{:?}", s.validate());
    }

    #[test]
    fn leaders_events_and_stop_times_are_checked_with_their_path() {
        let s: Scenario = serde_json::from_str(
            r#"{
              "brokers": {"count": 2},
              "horizon_ms": 10000,
              "topics": [{"name": "t", "partitions": 2, "leaders": [0, 2]},
                         {"name": "u", "partitions": 2, "leaders": [0]}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10,
                             "start_ms": 50, "stop_ms": 50}}],
              "events": [
                {"at_ms": 20000, "kind": "move_leader", "topic": "t", "partition": 0, "to_broker": 1},
                {"at_ms": 1000, "kind": "move_leader", "topic": "nope", "partition": 0, "to_broker": 5},
                {"at_ms": 1000, "kind": "move_leader", "topic": "t", "partition": 2, "to_broker": 0},
                {"at_ms": 1000, "kind": "set_quota", "entity": {"client-id": "a"}, "key": "producer_byte_rate", "value": 0},
                {"at_ms": 1000, "kind": "set_quota", "entity": {"user": "a"}, "key": "connection_creation_rate", "value": 5},
                {"at_ms": 1000, "kind": "set_quota", "entity": {"client-id": "a"}, "key": "producer_byte_rate", "value": null}
              ]
            }"#,
        )
        .unwrap();
        let got: Vec<(String, String)> = s
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|p| (p.path.to_string(), p.error.to_string()))
            .collect();
        let expected = [
            ("topics[0].leaders[1]", "Partition 1 of topic 't' is led by broker 2, which does not exist: the brokers are 0 to 1."),
            ("topics[1].leaders", "Topic 'u' lists 1 leaders for 2 partitions: give one broker id per partition."),
            ("workloads[0].producer.stop_ms", "The workload on 'p' stops at 50 ms, not after it starts at 50 ms: stop_ms must be above start_ms."),
            ("events[0].at_ms", "The move_leader event at 20000 ms is beyond the horizon of 10000 ms: it would never happen."),
            ("events[1].topic", "The move_leader event names the topic 'nope', which is not defined in topics."),
            ("events[1].to_broker", "The move_leader event moves the leader to broker 5, which does not exist: the brokers are 0 to 1."),
            ("events[2].partition", "The move_leader event names partition 2 of topic 't', which has 2 partitions (0 to 1)."),
            ("events[3]", "The quota producer_byte_rate on clients/a was refused: Quota producer_byte_rate must be greater than 0"),
            ("events[4]", "The quota connection_creation_rate on users/a was refused: Invalid configuration key connection_creation_rate"),
        ];
        let expected: Vec<(String, String)> =
            expected.iter().map(|(p, m)| ((*p).to_owned(), (*m).to_owned())).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_producer_throughput_of_zero_or_below_other_than_minus_one_is_refused() {
        let with = |throughput: &str| -> Scenario {
            serde_json::from_str(&format!(
                r#"{{
                  "topics": [{{"name": "t"}}],
                  "connections": [{{"name": "p", "listener": "PLAINTEXT"}}],
                  "workloads": [{{"producer": {{"connection": "p", "topic": "t", "records": 10, "record.size": 10,
                                 "throughput": {throughput}}}}}]
                }}"#
            ))
            .unwrap()
        };
        for bad in ["0", "-2", "-0.5"] {
            let problems = with(bad).validate().unwrap_err();
            assert_eq!(problems.len(), 1, "{bad}");
            assert_eq!(problems[0].path.to_string(), "workloads[0].producer.throughput");
            let msg = problems[0].error.to_string();
            assert!(msg.contains("use -1 for unlimited"), "{msg}");
        }
        assert_eq!(
            with("0").validate().unwrap_err()[0].error.to_string(),
            "The producer on 'p' sets throughput 0: it must be above zero records/s (use -1 for unlimited); kafka-producer-perf-test waits forever at a throughput of 0."
        );
        assert!(with("0").validate().map_err(crate::Error::from).and_then(super::super::simulate)
            .unwrap_err()
            .is_invalid_scenario());
        for good in ["-1", "0.5", "1000"] {
            assert!(with(good).validate().is_ok(), "{:?}", with(good).validate());
        }
    }

    #[test]
    fn a_move_to_the_current_leader_or_at_the_horizon_is_refused() {
        let s: Scenario = serde_json::from_str(
            r#"{
              "brokers": {"count": 3},
              "horizon_ms": 10000,
              "topics": [{"name": "t", "partitions": 2, "leaders": [0, 1]}, {"name": "u", "partitions": 3}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10}}],
              "events": [
                {"at_ms": 3000, "kind": "move_leader", "topic": "t", "partition": 0, "to_broker": 0},
                {"at_ms": 2000, "kind": "move_leader", "topic": "t", "partition": 1, "to_broker": 2},
                {"at_ms": 4000, "kind": "move_leader", "topic": "t", "partition": 1, "to_broker": 2},
                {"at_ms": 5000, "kind": "move_leader", "topic": "t", "partition": 1, "to_broker": 1},
                {"at_ms": 1000, "kind": "move_leader", "topic": "u", "partition": 2, "to_broker": 2},
                {"at_ms": 10000, "kind": "move_leader", "topic": "u", "partition": 0, "to_broker": 1}
              ]
            }"#,
        )
        .unwrap();
        let got: Vec<(String, String)> = s
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|p| (p.path.to_string(), p.error.to_string()))
            .collect();
        let expected = [
            ("events[5].at_ms", "The move_leader event at 10000 ms is at the horizon of 10000 ms: nothing after it would be simulated; move it before the horizon."),
            ("events[4].to_broker", "The move_leader event moves partition 2 of topic 'u' to broker 2, but partition 2 of topic 'u' is already led by broker 2 at 1000 ms: move it to another broker or remove the event."),
            ("events[0].to_broker", "The move_leader event moves partition 0 of topic 't' to broker 0, but partition 0 of topic 't' is already led by broker 0 at 3000 ms: move it to another broker or remove the event."),
            ("events[2].to_broker", "The move_leader event moves partition 1 of topic 't' to broker 2, but partition 1 of topic 't' is already led by broker 2 at 4000 ms: move it to another broker or remove the event."),
        ];
        let expected: Vec<(String, String)> =
            expected.iter().map(|(p, m)| ((*p).to_owned(), (*m).to_owned())).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn simulate_names_the_refused_event() {
        let s: Scenario = serde_json::from_str(
            r#"{
              "topics": [{"name": "t"}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10}}],
              "events": [
                {"at_ms": 100, "kind": "set_quota", "entity": {"client-id": "a"}, "key": "producer_byte_rate", "value": 1000},
                {"at_ms": 200, "kind": "set_quota", "entity": {"ip": "127.0.0.1"}, "key": "producer_byte_rate", "value": 1000}
              ]
            }"#,
        )
        .unwrap();
        let problems = s.validate().unwrap_err();
        assert_eq!(problems[0].path.to_string(), "events[1]");
        let e = s.validate().map_err(crate::Error::from).and_then(super::super::simulate).unwrap_err();
        assert!(e.is_quota_refused());
        assert_eq!(e.api_error(), problems[0].error.api_error());
        assert_eq!(e.to_string(), format!("events[1]: {}", problems[0].error));
        assert!(
            e.to_string().starts_with(
                "events[1]: The quota producer_byte_rate on ips/127.0.0.1 was refused: "
            ),
            "{e}"
        );
        // An invalid-scenario problem in an event is named too.
        let mut s = s;
        s.events.truncate(1);
        s.horizon_ms = 50;
        assert_eq!(
            s.validate().map_err(crate::Error::from).and_then(super::super::simulate).unwrap_err().to_string(),
            "events[0].at_ms: The set_quota event at 100 ms is beyond the horizon of 50 ms: it would never happen."
        );
    }

    #[test]
    fn producer_problems_name_their_setting() {
        let mut s: Scenario = serde_json::from_str(
            r#"{
              "quotas": [{"entity": {"client-id": "a"}, "key": "producer_byte_rate", "value": -1}],
              "topics": [{"name": "t"}],
              "connections": [{"name": "p", "listener": "PLAINTEXT"}],
              "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1, "record.size": 10,
                             "config": {"buffer.memory": 1000}}}]
            }"#,
        )
        .unwrap();
        s.environment.link.bandwidth_bytes_per_s = 0.0;
        let paths: Vec<String> = s.validate().unwrap_err().into_iter().map(|p| p.path.to_string()).collect();
        assert_eq!(
            paths,
            [
                "quotas[0]",
                "environment.link.bandwidth_bytes_per_s",
                "workloads[0].producer.config.buffer.memory"
            ]
        );
    }

    /// KafkaProducer.configureDeliveryTimeout: delivery.timeout.ms below
    /// linger.ms + request.timeout.ms is refused, at the sum it is taken.
    #[test]
    fn delivery_timeout_below_linger_plus_request_timeout_is_refused() {
        let with = |delivery: u64, linger: u64, request: u64| -> Scenario {
            serde_json::from_str(&format!(
                r#"{{
                  "topics": [{{"name": "t"}}],
                  "connections": [{{"name": "p", "listener": "PLAINTEXT"}}],
                  "workloads": [{{"producer": {{"connection": "p", "topic": "t", "records": 1, "record.size": 10,
                                 "config": {{"delivery.timeout.ms": {delivery}, "linger.ms": {linger}, "request.timeout.ms": {request}}}}}}}]
                }}"#
            ))
            .unwrap()
        };
        let problems = with(1000, 5, 30000).validate().unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path.to_string(), "workloads[0].producer.config.delivery.timeout.ms");
        assert_eq!(
            problems[0].error.to_string(),
            "The producer on 'p' cannot be created: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms \
             (Kafka's ConfigException when delivery.timeout.ms is set); it is 1000 ms, below 5 + 30000 = 30005 ms. Raise delivery.timeout.ms to at least 30005, \
             or lower linger.ms or request.timeout.ms."
        );
        assert!(with(30005, 5, 30000).validate().is_ok());
        assert!(with(1000, 5, 500).validate().is_ok());
        // linger.ms (a long) is capped to Integer.MAX_VALUE, and so is the sum.
        let huge = with(i32::MAX as u64 - 1, 1 << 40, 30000).validate().unwrap_err();
        assert!(huge[0].error.to_string().contains(&format!("below {} + 30000 = {} ms", i32::MAX, i32::MAX)), "{}", huge[0].error);
        assert!(with(i32::MAX as u64, 1 << 40, 30000).validate().is_ok());
        // The default 120000 counts as unset: Kafka raises it to the sum.
        let raised = with(120_000, 5, 200_000);
        assert!(raised.validate().is_ok());
        let Workload::Producer(p) = &raised.workloads[0] else { panic!() };
        assert_eq!(p.config.effective_delivery_timeout_ms(), 200_005);
    }
}
