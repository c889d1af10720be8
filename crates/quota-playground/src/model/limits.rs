//! How large a scenario the page takes: one set of limits for a link (or the
//! autosave), an import and a run, each refusal a sentence naming the
//! numbers and pointing to the `kafka-quota` CLI, which has none of them.
//!
//! None of these is a Kafka limit (a cluster holds any number of quotas and
//! connections; Kafka's 10,000-record cap, `QuorumController.MAX_RECORDS_PER_USER_OP`,
//! is per request). They keep the page responsive: the simulation of the
//! benchmark scenario (100 producers over 3 brokers for 660 simulated
//! seconds, 66,000 client-seconds, `tests/fixtures/bench`) takes about
//! 124 ms in wasm (BENCHMARKS.md), so the largest run the page accepts,
//! 600,000 client-seconds, takes about 1.3 s in the simulation worker; past
//! 2,000 quota values an edit takes over 100 ms and an import blocks the page
//! for seconds (15,000 values: 10 s).

use quota_engine::sim::Scenario;

use super::MAX_BROKERS;

/// The most quota values a scenario in the page holds.
pub const MAX_QUOTAS: usize = 2_000;
/// The most connections a scenario in the page lists.
pub const MAX_CONNECTIONS: usize = 1_000;
/// The most producers and consumers (workloads) a scenario in the page runs.
pub const MAX_WORKLOADS: usize = 1_000;
/// The most simulated client-seconds a run in the page may cover: workloads
/// times the simulated horizon (`horizon_ms`, seconds), an upper bound on
/// the run's work (1,000 clients for 10 simulated minutes).
pub const MAX_CLIENT_SECONDS: u64 = 600_000;
/// The most topics a scenario in the page lists: one per producer or
/// consumer at most ([`MAX_WORKLOADS`]); each is a row of the editor.
pub const MAX_TOPICS: usize = 1_000;
/// The most partitions a scenario in the page holds, over all its topics
/// (so also the most of one topic). The engine keeps a log and a leader per
/// partition and a producer looks at each of its topic's partitions per
/// request (`quota-engine` `sim/world/producer.rs`), so the cost grows with
/// them: the lab's producer on 100,000 partitions simulates in about 0.8 s
/// natively (in the worker, as the largest client-second runs). 100,000 is half of the 200,000 partitions per cluster that Kafka's
/// KRaft controller was shown to hold (KIP-500 and the "Apache Kafka
/// supports 200K partitions per cluster" measurement); Kafka itself has no
/// cap (`CreateTopicsRequest` takes an `int32` count,
/// clients/src/main/resources/common/message/CreateTopicsRequest.json).
pub const MAX_PARTITIONS: u64 = 100_000;
/// The most scheduled events (leadership moves, quota alterations) a
/// scenario in the page holds; each is a marker in the charts and a row of
/// the editor.
pub const MAX_EVENTS: usize = 1_000;

/// Where a refusal points to.
const CLI: &str = "Run it with the kafka-quota CLI (`kafka-quota simulate FILE`), which has no such limit.";

/// The simulated seconds of `s`: its horizon (rounded up), capped as the
/// engine caps it (`quota_engine::sim::HORIZON_CAP_MS`, 24 hours).
pub fn simulated_seconds(s: &Scenario) -> u64 {
    s.horizon_ms.min(quota_engine::sim::HORIZON_CAP_MS).div_ceil(1_000)
}

/// The simulated client-seconds of `s`: workloads times the simulated
/// seconds ([`simulated_seconds`]).
pub fn client_seconds(s: &Scenario) -> u64 {
    (s.workloads.len() as u64).saturating_mul(simulated_seconds(s))
}

/// The partitions of `s` over all its topics.
pub fn partitions(s: &Scenario) -> u64 {
    s.topics.iter().map(|t| u64::from(t.partitions)).fold(0, u64::saturating_add)
}

/// `n` with its thousands grouped by commas, as the README writes limits
/// (`600,000`), so that a refusal's numbers read at a glance.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Why the page does not take `s`, if it does not: the first limit passed,
/// as a sentence with the scenario's number, the limit and the CLI.
/// `what` names the scenario ("This link's scenario", "This scenario").
pub fn scenario_limit(s: &Scenario, what: &str) -> Option<String> {
    let over = |n: u64, max: u64, noun: &str| {
        (n > max).then(|| format!("{what} has {} {noun}; the playground takes at most {}, to stay responsive. {CLI}", grouped(n), grouped(max)))
    };
    over(s.quotas.len() as u64, MAX_QUOTAS as u64, "quota values")
        .or_else(|| over(s.connections.len() as u64, MAX_CONNECTIONS as u64, "connections"))
        .or_else(|| over(s.workloads.len() as u64, MAX_WORKLOADS as u64, "producers and consumers"))
        .or_else(|| over(u64::from(s.brokers.count), u64::from(MAX_BROKERS), "brokers"))
        .or_else(|| over(s.topics.len() as u64, MAX_TOPICS as u64, "topics"))
        .or_else(|| over(partitions(s), MAX_PARTITIONS, "partitions over its topics"))
        .or_else(|| over(s.events.len() as u64, MAX_EVENTS as u64, "scheduled events"))
        .or_else(|| {
            let cs = client_seconds(s);
            (cs > MAX_CLIENT_SECONDS).then(|| {
                format!(
                    "{what} would simulate {} client-seconds ({} producers and consumers for {} simulated seconds); \
                     the playground runs at most {}, to stay responsive. {CLI}",
                    grouped(cs),
                    grouped(s.workloads.len() as u64),
                    grouped(simulated_seconds(s)),
                    grouped(MAX_CLIENT_SECONDS)
                )
            })
        })
}

/// Why an import of `incoming` quota values into a scenario holding
/// `existing` cannot be done in the page, if it cannot (the same
/// [`MAX_QUOTAS`] as [`scenario_limit`]). A merge counts as if every value
/// were new (the upper bound).
pub fn import_limit(existing: usize, incoming: usize, replace: bool) -> Option<String> {
    let after = if replace { incoming } else { existing + incoming };
    (after > MAX_QUOTAS).then(|| {
        format!(
            "This import would give the scenario up to {} quota values; the playground takes at most {}, \
             to stay responsive. Import a part of the text, or use the kafka-quota CLI (`kafka-quota resolve --quotas FILE`, \
             `kafka-quota convert`, `kafka-quota simulate FILE`), which has no such limit.",
            grouped(after as u64),
            grouped(MAX_QUOTAS as u64)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::sim::Workload;

    #[test]
    fn grouped_puts_a_comma_every_three_digits() {
        for (n, text) in [(0, "0"), (999, "999"), (1_000, "1,000"), (100_000, "100,000"), (600_500, "600,500"), (4_000_000_000, "4,000,000,000"), (u64::MAX, "18,446,744,073,709,551,615")] {
            assert_eq!(grouped(n), text);
        }
    }

    fn with_workloads(n: usize, horizon_ms: u64) -> Scenario {
        let mut s = crate::presets::default_scenario();
        let w: Workload = s.workloads[0].clone();
        s.workloads = vec![w; n];
        s.horizon_ms = horizon_ms;
        s
    }

    #[test]
    fn the_default_and_the_bench_scenario_pass() {
        assert_eq!(scenario_limit(&crate::presets::default_scenario(), "This scenario"), None);
        // 100 producers for 10 simulated minutes (the bench fixture runs 660 s: 66,000).
        assert_eq!(client_seconds(&with_workloads(100, 600_000)), 60_000);
        assert_eq!(scenario_limit(&with_workloads(100, 600_000), "This scenario"), None);
        assert_eq!(scenario_limit(&with_workloads(1_000, 600_000), "This scenario"), None);
    }

    #[test]
    fn each_limit_is_named_with_its_numbers() {
        let m = scenario_limit(&with_workloads(1_001, 1_000), "This link's scenario").unwrap();
        assert!(m.starts_with("This link's scenario has 1,001 producers and consumers; the playground takes at most 1,000"), "{m}");
        assert!(m.contains("kafka-quota simulate"), "{m}");

        let m = scenario_limit(&with_workloads(500, 1_200_001), "This scenario").unwrap();
        assert!(m.contains("would simulate 600,500 client-seconds (500 producers and consumers for 1,201 simulated seconds)"), "{m}");
        assert!(m.contains("at most 600,000"), "{m}");

        let mut s = crate::presets::default_scenario();
        let q = s.quotas[0].clone();
        s.quotas = vec![q; MAX_QUOTAS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 2,001 quota values; the playground takes at most 2,000"));

        let mut s = crate::presets::default_scenario();
        s.brokers.count = MAX_BROKERS + 1;
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 10 brokers; the playground takes at most 9"));

        let mut s = crate::presets::default_scenario();
        let c = s.connections[0].clone();
        s.connections = vec![c; MAX_CONNECTIONS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1,001 connections"));
    }

    #[test]
    fn the_run_limit_counts_the_horizon_the_engine_simulates() {
        // The engine stops at 24 hours (HORIZON_CAP_MS): a 10^12 ms horizon
        // with one producer simulates 86,400 s, under the limit.
        let s = with_workloads(1, 1_000_000_000_000);
        assert_eq!(client_seconds(&s), 86_400);
        assert_eq!(scenario_limit(&s, "This scenario"), None);
        // Ten producers over the cap: 864,000 client-seconds, refused.
        let m = scenario_limit(&with_workloads(10, u64::MAX), "This scenario").unwrap();
        assert!(m.contains("would simulate 864,000 client-seconds (10 producers and consumers for 86,400 simulated seconds)"), "{m}");
    }

    #[test]
    fn topics_partitions_and_events_are_limited() {
        let mut s = crate::presets::default_scenario();
        s.topics[0].partitions = 4_000_000_000;
        let m = scenario_limit(&s, "This link's scenario").unwrap();
        assert!(
            m.starts_with("This link's scenario has 4,000,000,000 partitions over its topics; the playground takes at most 100,000"),
            "{m}"
        );
        s.topics[0].partitions = 100_000;
        assert_eq!(scenario_limit(&s, "This scenario"), None);
        // Over all topics: two of 60,000 each.
        let mut t = s.topics[0].clone();
        t.name = "other".into();
        t.partitions = 60_000;
        s.topics[0].partitions = 60_000;
        s.topics.push(t);
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 120,000 partitions over its topics"));

        let mut s = crate::presets::default_scenario();
        let mut t = s.topics[0].clone();
        t.partitions = 1;
        s.topics = vec![t; MAX_TOPICS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1,001 topics; the playground takes at most 1,000"));

        let mut s = crate::presets::default_scenario();
        let e = quota_engine::sim::ScenarioEvent::MoveLeader { at_ms: 1, topic: s.topics[0].name.clone(), partition: 0, to_broker: 0 };
        s.events = vec![e; MAX_EVENTS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1,001 scheduled events; the playground takes at most 1,000"));
    }

    #[test]
    fn imports_count_the_quotas_after_the_import() {
        assert_eq!(import_limit(10, 1_990, false), None);
        assert_eq!(import_limit(500, 2_000, true), None);
        let m = import_limit(10, 1_991, false).unwrap();
        assert!(m.contains("up to 2,001 quota values") && m.contains("at most 2,000") && m.contains("kafka-quota"), "{m}");
        assert!(import_limit(0, 15_000, true).is_some());
    }
}
