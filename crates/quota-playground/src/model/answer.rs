//! The answer first: one plain sentence per connection saying, for each
//! client quota type, what limits it, from which entity and rung, with whom
//! it shares that budget, and, for byte rates, what the per-broker limit
//! means for the cluster given the brokers that lead the partitions its
//! clients use. The ladder beneath gives the why.
//!
//! Kafka enforces client quotas per broker (`ClientQuotaManager` on each
//! broker, core/src/main/scala/kafka/server/ClientQuotaManager.scala), so a
//! client writing to partitions led by `n` brokers can get up to `n` times
//! its byte-rate quota from the cluster. The controller-mutation quota is
//! the exception: only the active controller meters it
//! (`ControllerApis`), once for the cluster.

use std::collections::BTreeSet;

use quota_engine::resolve::answer::TypeAnswer;
use quota_engine::sim::{Scenario, Workload};
use quota_engine::{java_double_to_string, EntityName, QuotaEntity, QuotaKey, QuotaType};

use super::{fmt_rate, Analysis};

/// The answer for one connection.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The connection's name in the scenario.
    pub connection: String,
    /// `User:tenant-a, client.id app-1`, or why there is no principal.
    pub who: String,
    /// One clause per client quota type, in [`QuotaType::ALL`] order (one
    /// saying why none applies when the connection has no principal), then
    /// the `connection_creation_rate` of the connection's source address.
    pub clauses: Vec<String>,
    /// The brokers that lead a partition this connection's clients use
    /// (`None` when it has no client).
    pub leading_brokers: Option<usize>,
}

impl Answer {
    /// The clauses of quota key `key` only (all when `None`), as an embed
    /// trimmed to one quota type (`?quota=`) shows them: the clause of its
    /// quota type (the one saying why none applies, for a connection
    /// without a principal), or the connection-rate clause for
    /// `connection_creation_rate`; the empty client.id note stays with the
    /// client quota types.
    pub fn clauses_of(&self, key: Option<QuotaKey>) -> Vec<&String> {
        let Some(key) = key else { return self.clauses.iter().collect() };
        let n = QuotaType::ALL.len();
        // With a principal: one clause per quota type, the address's, then
        // maybe the empty client.id note; without: one, the address's.
        let types = if self.clauses.len() > n { n } else { 1 };
        let own = match key.quota_type() {
            Some(qt) if types == n => QuotaType::ALL.iter().position(|t| *t == qt),
            Some(_) => Some(0),
            None => Some(types),
        };
        self.clauses
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) == own || (*i > types && key.quota_type().is_some()))
            .map(|(_, c)| c)
            .collect()
    }

    /// The whole answer as one paragraph.
    pub fn sentence(&self) -> String {
        if self.clauses.is_empty() {
            return format!("{} ({}).", self.connection, self.who);
        }
        format!("{} ({}): {}", self.connection, self.who, self.clauses.join(" "))
    }
}

/// The brokers leading a partition of a topic that connection `i`'s
/// producers or consumers use; `None` when no workload uses it.
pub fn leading_brokers(scenario: &Scenario, i: usize) -> Option<usize> {
    let name = &scenario.connections.get(i)?.name;
    let topics: BTreeSet<&str> = scenario
        .workloads
        .iter()
        .filter_map(|w| match w {
            Workload::Producer(p) if &p.connection == name => Some(p.topic.as_str()),
            Workload::Consumer(c) if &c.connection == name => Some(c.topic.as_str()),
            _ => None,
        })
        .collect();
    if topics.is_empty() {
        return None;
    }
    let count = scenario.brokers.count.max(1);
    let brokers: BTreeSet<u32> = scenario
        .topics
        .iter()
        .filter(|t| topics.contains(t.name.as_str()))
        .flat_map(|t| super::leader_set(t, count))
        .collect();
    Some(brokers.len())
}

/// Other connections in a budget named in an answer before "and N more"
/// (a hundred clients of one user would otherwise make each answer a list).
const NAMED_SHARERS: usize = 5;

/// The clause for one quota type: its label, then the engine's answer as
/// every surface prints it ([`TypeAnswer`]'s `Display`, the CLI's answer
/// line), then what this scenario adds: which of its other connections
/// share the budget, and, for a byte rate, what the per-broker limit means
/// for the cluster given the brokers leading the connection's partitions.
/// E.g. "Produce: 2 MB/s per broker (2000000.0 bytes/s) from
/// users/tenant-a (rung 3); shared by all connections of user tenant-a,
/// whatever their client-id. Here: connection other. 2 MB/s per broker ×
/// 3 brokers leading its partitions ≈ at most 6 MB/s sustained for the
/// cluster (each broker first lets a burst of about 10 s of quota
/// through)." The burst is the smallest window Kafka divides a fresh rate
/// by, `(quota.window.num − 1)` × `quota.window.size.seconds` (`burst_ms`;
/// `QuotaWindow::min_window_size_ms`), so a short run can go well above
/// the sustained figure.
fn clause(answer: &TypeAnswer, sharers: &[String], leading: Option<usize>, brokers: u32, burst_ms: i64) -> String {
    let label = match answer.quota_type {
        QuotaType::Produce => "Produce",
        QuotaType::Fetch => "Fetch",
        QuotaType::Request => "Requests",
        QuotaType::ControllerMutation => "Controller mutations",
    };
    let mut out = format!("{label}: {answer}.");
    let Some(m) = &answer.matched else { return out };
    // Which of the scenario's other connections Kafka puts in this budget
    // (the engine's sharers, above, are Kafka's metric tags).
    match sharers {
        [] => {}
        [one] => out.push_str(&format!(" Here: connection {one}.")),
        many if many.len() <= NAMED_SHARERS => out.push_str(&format!(" Here: {} other connections, {}.", many.len(), many.join(", "))),
        many => out.push_str(&format!(
            " Here: {} other connections, {} and {} more.",
            super::grouped(many.len() as u64),
            many[..NAMED_SHARERS].join(", "),
            super::grouped((many.len() - NAMED_SHARERS) as u64)
        )),
    }
    // Byte rates are metered by each broker on its own.
    let byte_rate = matches!(answer.key(), QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate) && m.value.is_finite();
    match leading {
        Some(n) if byte_rate && n > 1 => {
            out.push_str(&format!(
                " {} per broker × {n} brokers leading its partitions ≈ at most {} sustained for the cluster (each broker first lets a burst of about {} of quota through).",
                fmt_rate(m.value),
                fmt_rate(m.value * n as f64),
                if burst_ms % 1000 == 0 { format!("{} s", burst_ms / 1000) } else { super::fmt_ms(burst_ms as f64) }
            ));
        }
        Some(1) if byte_rate && brokers > 1 => {
            out.push_str(&format!(
                " One of the {brokers} brokers leads its partitions, so that is also the most it gets from the cluster (partitions led by other brokers would spread it)."
            ));
        }
        _ => {}
    }
    out
}

/// Said of a connection whose client.id is empty: the Java clients never
/// send one (`ProducerConfig`/`ConsumerConfig`: a generated id), so a
/// quota on that generated id is the one that would apply to them.
pub const EMPTY_CLIENT_ID: &str = "An empty client.id is what a client sends when it has none; the Java clients never send an empty one: with client.id unset or empty, KafkaProducer sends producer-N and KafkaConsumer consumer-<group.id>-N (N counts clients in the JVM), so set that id here to see which quotas apply to them.";

/// The clause for the connection's source address: the
/// `connection_creation_rate` that applies to new connections from `ip`
/// on each broker (`rate` from [`Analysis::ip_rate`], `None` =
/// unlimited), e.g. "Connections from 10.0.0.1: 2.0 new connections/s per
/// broker from ips/<default>, the default for every address without an
/// ips/ quota of its own."
///
/// Kafka checks it when a broker accepts a socket, before any
/// authentication (`ConnectionQuotas.recordIpConnectionMaybeThrottle`,
/// core/src/main/scala/kafka/network/SocketServer.scala), and hands the
/// quota over as an `Int` (`ClientQuotaMetadataManager.handleIpQuota`:
/// `quotaValue.map(_.toInt)`), so NaN, which the validation lets through,
/// becomes 0.
fn ip_clause(ip: &str, rate: Option<(QuotaEntity, f64)>) -> String {
    let Some((entity, v)) = rate else {
        return format!("Connections from {ip}: unlimited.");
    };
    let mut out = format!(
        "Connections from {ip}: {} new connections/s per broker from {}",
        java_double_to_string(v),
        super::entity_path(&entity)
    );
    match &entity {
        QuotaEntity::Ip(EntityName::Default) => out.push_str(", the default for every address without an ips/ quota of its own"),
        QuotaEntity::Ip(EntityName::Named(name)) if name != ip => {
            out.push_str(", the same address written another way (Kafka compares addresses, not text)")
        }
        _ => {}
    }
    // The validation takes whole numbers only (an INT config) but lets NaN
    // through, which the Int conversion makes 0.
    if v.is_nan() {
        out.push_str("; ");
        out.push_str(quota_engine::resolve::human::NAN_CONNECTION_RATE);
    }
    out.push('.');
    out
}

/// A sentence when the scenario's events change quotas or leaders during
/// the run: the answers describe the start.
pub fn events_note(scenario: &Scenario) -> Option<String> {
    let n = scenario.events.len();
    (n > 0).then(|| {
        format!(
            "At the start of the run: {} during it {} quotas or partition leaders (the Simulation panel marks {}).",
            if n == 1 { "one event".to_owned() } else { format!("{n} events") },
            if n == 1 { "changes" } else { "change" },
            if n == 1 { "it" } else { "them" }
        )
    })
}

/// The answer for every connection of `scenario`, in order.
pub fn answers(scenario: &Scenario, analysis: &Analysis) -> Vec<Answer> {
    first_answers(scenario, analysis, usize::MAX)
}

/// The answers of the first `n` connections only: who shares each budget
/// is found among all connections, so each answer costs a pass over them
/// (the page shows a dozen of 100 while the user types).
pub fn first_answers(scenario: &Scenario, analysis: &Analysis, n: usize) -> Vec<Answer> {
    scenario
        .connections
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, c)| {
            let client_id = super::client_id_text(&c.client_id);
            let leading = leading_brokers(scenario, i);
            let burst_ms = scenario.brokers.settings.quota_window().map_or(10_000, |w| w.min_window_size_ms());
            // Checked when the broker accepts the socket: every arm ends with it.
            let ip = ip_clause(c.ip.as_str(), analysis.ip_rate(scenario, c.ip.as_str()));
            match (analysis.principals.get(i), analysis.resolve(i)) {
                (Some(Ok(p)), Some(rs)) => Answer {
                    connection: c.name.clone(),
                    who: format!("{}, client.id {client_id}", p.principal),
                    clauses: rs
                        .iter()
                        .map(|r| {
                            // The engine's answer for this quota type, as
                            // the CLI prints it, with what the scenario adds.
                            let callback = analysis.cluster.managers().get(r.quota_type);
                            let answer = TypeAnswer::new(r, callback, &scenario.brokers.settings);
                            clause(&answer, &analysis.sharers(scenario, i, r.quota_type), leading, scenario.brokers.count, burst_ms)
                        })
                        .chain([ip])
                        .chain(c.client_id.is_empty().then(|| EMPTY_CLIENT_ID.to_owned()))
                        .collect(),
                    leading_brokers: leading,
                },
                // The connection rate is checked when the broker accepts the
                // socket, before any authentication: it applies all the same.
                (Some(Err(why)), _) => Answer {
                    connection: c.name.clone(),
                    who: "no principal".to_owned(),
                    clauses: vec![format!("No client quota applies. {why}"), ip],
                    leading_brokers: leading,
                },
                _ => Answer {
                    connection: c.name.clone(),
                    who: "no principal".to_owned(),
                    clauses: vec!["No client quota applies.".to_owned(), ip],
                    leading_brokers: leading,
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(json: &str) -> Scenario {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_user_quota_on_three_leaders_reads_per_broker_and_for_the_cluster() {
        let s = scenario(
            r#"{"brokers": {"count": 3}, "topics": [{"name": "t", "partitions": 3}],
                "quotas": [{"entity": {"user": "tenant-a"}, "key": "producer_byte_rate", "value": 2000000}],
                "connections": [{"name": "app", "listener": "SASL_PLAINTEXT", "identity": "tenant-a", "client.id": "app-1"},
                                {"name": "other", "listener": "SASL_PLAINTEXT", "identity": "tenant-a", "client.id": "app-2"}],
                "workloads": [{"producer": {"connection": "app", "topic": "t", "records": 10, "record.size": 100}}]}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        assert_eq!(a[0].leading_brokers, Some(3));
        assert_eq!(
            a[0].sentence(),
            "app (User:tenant-a, client.id app-1): Produce: 2 MB/s per broker (2000000.0 bytes/s) from users/tenant-a (rung 3); \
             shared by all connections of user tenant-a, whatever their client-id. Here: connection other. 2 MB/s per broker × 3 brokers leading its partitions ≈ at most 6 MB/s sustained for the cluster (each broker first lets a burst of about 10 s of quota through). \
             Fetch: unlimited: no consumer_byte_rate quota exists, so the broker does not meter this connection. \
             Requests: unlimited: no request_percentage quota exists, so the broker does not meter this connection. \
             Controller mutations: unlimited: no controller_mutation_rate quota exists, so the active controller does not meter this connection. \
             Connections from 127.0.0.1: unlimited."
        );
        // Without a workload, no cluster figure.
        assert_eq!(a[1].leading_brokers, None);
        assert!(!a[1].sentence().contains("for the cluster"), "{}", a[1].sentence());
    }

    #[test]
    fn whatever_their_client_id_names_the_client_ids_with_a_budget_of_their_own() {
        // Issue 29: users/<default> and users/<default>/clients/batch.
        let s = scenario(
            r#"{"quotas": [{"entity": {"user": null}, "key": "producer_byte_rate", "value": 1000000},
                           {"entity": {"user": null, "client-id": "batch"}, "key": "producer_byte_rate", "value": 5000000}],
                "connections": [{"name": "alice-app1", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "app-1"},
                                {"name": "alice-app2", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "app-2"},
                                {"name": "alice-batch", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "batch"}]}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        let app = a[0].sentence();
        assert!(
            app.contains("shared by all connections of user alice, whatever their client-id, except client-id batch (a budget of its own). Here: connection alice-app2."),
            "{app}"
        );
        let batch = a[2].sentence();
        assert!(batch.contains("(rung 4); shared by connections of user alice with client-id batch. Fetch:"), "{batch}");
    }

    /// The engine's line names the entity exactly (`display_exact`), on
    /// the page as in the CLI: a client-id holding `/` is quoted, so the
    /// path reads as one entity, and a user literally named `<default>` is
    /// not the default entity.
    #[test]
    fn a_name_with_a_slash_or_a_literal_default_is_quoted() {
        let s = scenario(
            r#"{"quotas": [{"entity": {"client-id": "app/1"}, "key": "producer_byte_rate", "value": 1000000},
                           {"entity": {"user": "<default>"}, "key": "producer_byte_rate", "value": 2000000}],
                "connections": [{"name": "slash", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "app/1"},
                                {"name": "odd", "listener": "SASL_PLAINTEXT", "identity": "<default>", "client.id": "x"}]}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        assert!(a[0].sentence().contains("from clients/\"app/1\" (rung 7); "), "{}", a[0].sentence());
        assert!(a[1].sentence().contains("from users/\"<default>\" (rung 3); "), "{}", a[1].sentence());
    }

    #[test]
    fn an_empty_client_id_says_what_java_clients_send_instead() {
        let s = scenario(
            r#"{"connections": [{"name": "anon", "listener": "PLAINTEXT", "client.id": ""},
                                {"name": "named", "listener": "PLAINTEXT", "client.id": "x"}]}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        assert!(a[0].sentence().contains("KafkaProducer sends producer-N and KafkaConsumer consumer-<group.id>-N"), "{}", a[0].sentence());
        assert!(!a[1].sentence().contains("producer-N"), "{}", a[1].sentence());
    }

    #[test]
    fn a_fetch_quota_says_the_largest_fetch_response() {
        let s = scenario(
            r#"{"quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 2000000}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}]}"#,
        );
        let text = answers(&s, &Analysis::new(&s))[0].sentence();
        // The engine's cap for this session (broker::tests: fetch_size_is_capped_at_the_quota_window).
        assert!(
            text.contains("each broker sends it at most 20 MB (20000000 bytes) in one fetch response, quota × (quota.window.num − 1) × quota.window.size.seconds = 2 MB/s × (11 − 1) × 1 s (KAFKA-9677), or less when the consumer's fetch.max.bytes is lower; a first record batch larger than that is still sent whole (KIP-74)."),
            "{text}"
        );
        // The same clause as the CLI's answer line: Kafka's toInt stops a
        // 1 GB/s quota's window at Int.MaxValue, and the broker's
        // fetch.max.bytes (55 MiB by default), lower, is the cap.
        let s = scenario(
            r#"{"quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 1000000000}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}]}"#,
        );
        let text = answers(&s, &Analysis::new(&s))[0].sentence();
        assert!(text.contains("at most 57.67 MB = 55 MiB (57671680 bytes) in one fetch response, the broker's fetch.max.bytes, lower than the quota window's"), "{text}");
        assert!(text.contains("= 2147483647 bytes (KAFKA-9677)"), "{text}");
    }

    #[test]
    fn a_budget_shared_by_many_connections_names_five_then_counts() {
        let conns: Vec<String> = (0..8)
            .map(|i| format!(r#"{{"name": "c{i}", "listener": "SASL_PLAINTEXT", "identity": "tenant-a", "client.id": "app-{i}"}}"#))
            .collect();
        let s = scenario(&format!(
            r#"{{"quotas": [{{"entity": {{"user": "tenant-a"}}, "key": "producer_byte_rate", "value": 2000000}}],
                "connections": [{}]}}"#,
            conns.join(",")
        ));
        let text = answers(&s, &Analysis::new(&s))[0].sentence();
        assert!(text.contains(". Here: 7 other connections, c1, c2, c3, c4, c5 and 2 more."), "{text}");
    }

    #[test]
    fn an_embed_trimmed_to_one_key_keeps_that_keys_clause_only() {
        let s = scenario(
            r#"{"brokers": {"count": 3}, "topics": [{"name": "t", "partitions": 2, "leaders": [1, 1]}],
                "quotas": [{"entity": {"client-id": null}, "key": "consumer_byte_rate", "value": 1000000}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": ""}],
                "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 10}}]}"#,
        );
        let a = &answers(&s, &Analysis::new(&s))[0];
        assert_eq!(a.clauses_of(None).len(), a.clauses.len());
        let fetch = a.clauses_of(Some(QuotaKey::ConsumerByteRate));
        assert!(fetch[0].starts_with("Fetch: "), "{fetch:?}");
        // The empty client.id's note stays with a client quota type.
        assert_eq!(fetch.len(), 2, "{fetch:?}");
        assert_eq!(fetch[1], EMPTY_CLIENT_ID);
        let produce = a.clauses_of(Some(QuotaKey::ProducerByteRate));
        assert!(produce[0].starts_with("Produce: unlimited"), "{produce:?}");
        assert!(a.clauses_of(Some(QuotaKey::ControllerMutationRate))[0].starts_with("Controller mutations"));
        let ip = a.clauses_of(Some(QuotaKey::ConnectionCreationRate));
        assert_eq!(ip.len(), 1);
        assert!(ip[0].starts_with("Connections from "), "{ip:?}");
        // Without a principal: the one client clause, or the address's.
        let b = Answer {
            connection: "c".to_owned(),
            who: "no principal".to_owned(),
            clauses: vec!["No client quota applies.".to_owned(), "Connections from 10.0.0.1: unlimited.".to_owned()],
            leading_brokers: None,
        };
        assert_eq!(b.clauses_of(Some(QuotaKey::RequestPercentage)), vec![&b.clauses[0]]);
        assert_eq!(b.clauses_of(Some(QuotaKey::ConnectionCreationRate)), vec![&b.clauses[1]]);
    }

    #[test]
    fn explicit_leaders_on_one_broker_give_no_cluster_multiple() {
        let s = scenario(
            r#"{"brokers": {"count": 3}, "topics": [{"name": "t", "partitions": 2, "leaders": [1, 1]}],
                "quotas": [{"entity": {"client-id": null}, "key": "consumer_byte_rate", "value": 1000000}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": ""}],
                "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 10}}]}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        assert_eq!(a[0].leading_brokers, Some(1));
        let text = a[0].sentence();
        assert!(text.starts_with("c (User:ANONYMOUS, client.id \"\"): Produce: unlimited: no producer_byte_rate quota exists, so the broker does not meter this connection. Fetch: "), "{text}");
        assert!(!text.contains("for the cluster"), "{text}");
    }

    #[test]
    fn one_partition_on_three_brokers_says_one_broker_leads_it() {
        let mut s = crate::presets::default_scenario();
        s.brokers.count = 3;
        let a = answers(&s, &Analysis::new(&s));
        let text = a[0].sentence();
        assert!(
            text.contains("Produce: 2 MB/s per broker (2000000.0 bytes/s) from users/tenant-a (rung 3); ")
                && text.contains(". One of the 3 brokers leads its partitions, so that is also the most it gets from the cluster"),
            "{text}"
        );
        s.brokers.count = 1;
        assert!(!answers(&s, &Analysis::new(&s))[0].sentence().contains("brokers"));
    }

    #[test]
    fn a_connection_kafka_closes_says_so() {
        let s = scenario(
            r#"{"topics": [{"name": "t"}],
                "connections": [{"name": "bad", "listener": "SASL_PLAINTEXT", "identity": "", "client.id": "x"}],
                "workloads": []}"#,
        );
        let a = answers(&s, &Analysis::new(&s));
        assert!(a[0].sentence().starts_with("bad (no principal): No client quota applies. "), "{}", a[0].sentence());
        // The connection rate is checked before authentication: it still applies.
        assert_eq!(a[0].clauses.last().unwrap(), "Connections from 127.0.0.1: unlimited.");
    }

    #[test]
    fn the_events_note_counts_its_events_in_words() {
        let mut s: Scenario = serde_json::from_str(r#"{"topics": [{"name": "t"}]}"#).unwrap();
        assert_eq!(events_note(&s), None);
        let ev: quota_engine::sim::ScenarioEvent = serde_json::from_str(r#"{"at_ms": 5000, "kind": "set_quota", "entity": {"user": "a"}, "key": "producer_byte_rate", "value": 1}"#).unwrap();
        s.events.push(ev.clone());
        assert_eq!(events_note(&s).unwrap(), "At the start of the run: one event during it changes quotas or partition leaders (the Simulation panel marks it).");
        s.events.push(ev);
        assert_eq!(events_note(&s).unwrap(), "At the start of the run: 2 events during it change quotas or partition leaders (the Simulation panel marks them).");
    }

    #[test]
    fn a_nan_quota_is_said_to_never_delay() {
        let s: Scenario = serde_json::from_str(
            r#"{"topics": [{"name": "t"}],
                "quotas": [{"entity": {"user": "a"}, "key": "producer_byte_rate", "value": "NaN"},
                           {"entity": {"user": "a"}, "key": "request_percentage", "value": "Infinity"},
                           {"entity": {"user": "a"}, "key": "controller_mutation_rate", "value": "NaN"}],
                "connections": [{"name": "c", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "x"}]}"#,
        )
        .unwrap();
        let a = answers(&s, &Analysis::new(&s));
        let text = a[0].sentence();
        // One formatter (the engine's `readable_limit`, as the CLI's answer
        // line): Kafka's NaN, never "NaN B/s", and why it never delays.
        assert!(text.contains("Produce: NaN bytes/s per broker (NaN: metered, never delays: every check fails with a 0 ms throttle) from users/a (rung 3)"), "{text}");
        assert!(text.contains("Requests: Infinity % of one broker thread (Infinity: never exceeded) from users/a"), "{text}");
        assert!(text.contains("Controller mutations: NaN partition mutations/s (NaN: metered, never throttles) from users/a (rung 3); one budget for the whole cluster"), "{text}");
    }

    #[test]
    fn the_source_address_gets_its_connection_creation_rate() {
        let with = |quotas: &str, ip: &str| {
            let s: Scenario = serde_json::from_str(&format!(
                r#"{{"quotas": [{quotas}],
                    "connections": [{{"name": "c", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "x", "ip": "{ip}"}}]}}"#
            ))
            .unwrap();
            let a = answers(&s, &Analysis::new(&s));
            a[0].clauses.last().cloned().unwrap()
        };
        assert_eq!(with("", "10.0.0.1"), "Connections from 10.0.0.1: unlimited.");
        assert_eq!(
            with(r#"{"entity": {"ip": null}, "key": "connection_creation_rate", "value": 5}"#, "10.0.0.1"),
            "Connections from 10.0.0.1: 5.0 new connections/s per broker from ips/<default>, the default for every address without an ips/ quota of its own."
        );
        // Kafka compares addresses (InetAddress), not text.
        assert_eq!(
            with(r#"{"entity": {"ip": "0:0:0:0:0:0:0:1"}, "key": "connection_creation_rate", "value": 2}"#, "::1"),
            "Connections from ::1: 2.0 new connections/s per broker from ips/0:0:0:0:0:0:0:1, the same address written another way (Kafka compares addresses, not text)."
        );
        // quotaValue.map(_.toInt): NaN, which the validation lets through, is 0.
        let nan = with(r#"{"entity": {"ip": "10.0.0.1"}, "key": "connection_creation_rate", "value": "NaN"}"#, "10.0.0.1");
        assert!(nan.contains("Kafka uses it as the Int 0, so every new connection from this address is refused"), "{nan}");
    }

    #[test]
    fn controller_mutations_are_one_budget_for_the_cluster_not_per_broker() {
        let s: Scenario = serde_json::from_str(
            r#"{"brokers": {"count": 3}, "topics": [{"name": "t", "partitions": 3}],
                "quotas": [{"entity": {"user": null}, "key": "controller_mutation_rate", "value": 5}],
                "connections": [{"name": "c", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "x"}],
                "workloads": [{"producer": {"connection": "c", "topic": "t", "records": 10, "record.size": 100}}]}"#,
        )
        .unwrap();
        let a = answers(&s, &Analysis::new(&s));
        let cm = a[0].clauses.iter().find(|c| c.starts_with("Controller mutations")).unwrap();
        assert!(cm.starts_with("Controller mutations: 5.0 partition mutations/s from users/<default> (rung 6); one budget for the whole cluster: "), "{cm}");
        assert!(cm.contains("the active controller meters it, as brokers forward CreateTopics"), "{cm}");
        assert_eq!(cm.matches("whole cluster").count(), 1, "{cm}");
        assert!(!cm.contains("per broker") && !cm.contains("brokers leading"), "{cm}");
    }
}
