//! How large a scenario the playground takes: one set of limits for a link
//! (or the autosave), an import and a run, each refusal a sentence naming
//! the numbers and pointing to the `kafka-quota` CLI, which has none of
//! them. The page and `kafka-quota link` (which says what the page will
//! say, without simulating) both ask [`scenario_limit`].
//!
//! None of these is a Kafka limit (a cluster holds any number of quotas and
//! connections; Kafka's 10,000-record cap, `QuorumController.MAX_RECORDS_PER_USER_OP`,
//! is per request). They keep the page responsive. A run is limited in the
//! engine's own units, the work [`quota_engine::sim::estimate()`] gives before
//! it runs (requests, events, partition visits), not in clients or
//! simulated time: the benchmark scenario (100 producers over 3 brokers for
//! 660 simulated seconds, `tests/fixtures/bench`) is 276,562 units and
//! takes about 124 ms in wasm (BENCHMARKS.md), so the largest run the page
//! accepts, [`MAX_WORK`], takes about 1.7 s in the simulation worker, while
//! a day of one fast producer (about 10^8 requests) is refused. Past 2,000
//! quota values an edit takes over 100 ms and an import blocks the page for
//! seconds (15,000 values: 10 s).

pub use quota_engine::sim::estimate::grouped;
use quota_engine::sim::{estimate, Scenario};

/// The most brokers a scenario in the playground has (its cluster view
/// draws each).
pub const MAX_BROKERS: u32 = 9;

/// The most quota values a scenario in the page holds.
pub const MAX_QUOTAS: usize = 2_000;
/// The most connections a scenario in the page lists.
pub const MAX_CONNECTIONS: usize = 1_000;
/// The most producers and consumers (workloads) a scenario in the page runs.
pub const MAX_WORKLOADS: usize = 1_000;
/// The most work a run in the page may be, in the units of
/// [`quota_engine::sim::WorkEstimate::work`] (about events): 3,000,000 is
/// about 1.7 s in the simulation worker at the benchmark's 1.7 x 10^6
/// events/s in wasm (BENCHMARKS.md).
pub const MAX_WORK: u64 = 3_000_000;
/// The most topics a scenario in the page lists: one per producer or
/// consumer at most ([`MAX_WORKLOADS`]); each is a row of the editor.
pub const MAX_TOPICS: usize = 1_000;
/// The most partitions a scenario in the page holds, over all its topics
/// (so also the most of one topic). The engine keeps a log and a leader per
/// partition and a producer looks at each of its topic's partitions per
/// request (`quota-engine` `sim/world/producer.rs`), so the cost grows with
/// them: the lab's producer on 100,000 partitions simulates in about 0.8 s
/// natively (2.9 million units of work, within [`MAX_WORK`]). 100,000 is half of the 200,000 partitions per cluster that Kafka's
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

/// The partitions of `s` over all its topics.
pub fn partitions(s: &Scenario) -> u64 {
    s.topics.iter().map(|t| u64::from(t.partitions)).fold(0, u64::saturating_add)
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
        .or_else(|| run_limit(s, what))
}

/// Why the page does not run `s`, if it does not: its estimated work
/// ([`quota_engine::sim::estimate()`]) past [`MAX_WORK`], as a sentence with
/// the estimate's numbers, the limit and the CLI.
pub fn run_limit(s: &Scenario, what: &str) -> Option<String> {
    let e = estimate(s);
    (e.work > MAX_WORK).then(|| {
        format!(
            "{what} is {e}; the playground runs at most {} units of work \
             (about 1.7 s in its simulation worker), to stay responsive. {CLI}",
            grouped(MAX_WORK)
        )
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

    /// The lab's producer (30,000 records of 1 KB, no quota).
    fn lab() -> Scenario {
        let v: serde_json::Value =
            serde_json::from_str(include_str!("../../../lab/scenarios/producer-unthrottled.json")).unwrap();
        serde_json::from_value(v["scenario"].clone()).unwrap()
    }

    fn fixture(text: &str) -> Scenario {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        serde_json::from_value(v["scenario"].clone()).unwrap()
    }

    fn with_workloads(n: usize, horizon_ms: u64) -> Scenario {
        let mut s = lab();
        let w: Workload = s.workloads[0].clone();
        s.workloads = vec![w; n];
        s.horizon_ms = horizon_ms;
        s
    }

    #[test]
    fn the_lab_and_the_bench_scenario_pass() {
        assert_eq!(scenario_limit(&lab(), "This scenario"), None);
        let bench = fixture(include_str!("../../../tests/fixtures/bench/100-clients-3-brokers.json"));
        assert_eq!(scenario_limit(&bench, "This scenario"), None);
        // A thousand of the lab's producers: 470,000 requests, about 2.4
        // million units, within the limit.
        let thousand = with_workloads(1_000, 600_000);
        assert!(estimate(&thousand).work > 2_000_000);
        assert_eq!(scenario_limit(&thousand, "This scenario"), None);
    }

    #[test]
    fn each_limit_is_named_with_its_numbers() {
        let m = scenario_limit(&with_workloads(1_001, 1_000), "This link's scenario").unwrap();
        assert!(m.starts_with("This link's scenario has 1,001 producers and consumers; the playground takes at most 1,000"), "{m}");
        assert!(m.contains("kafka-quota simulate"), "{m}");

        let mut s = lab();
        let q = quota_engine::sim::QuotaSetting {
            entity: quota_engine::entity::QuotaEntity::user("alice"),
            key: quota_engine::entity::QuotaKey::ProducerByteRate,
            value: 1000.0,
        };
        s.quotas = vec![q; MAX_QUOTAS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 2,001 quota values; the playground takes at most 2,000"));

        let mut s = lab();
        s.brokers.count = MAX_BROKERS + 1;
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 10 brokers; the playground takes at most 9"));

        let mut s = lab();
        let c = s.connections[0].clone();
        s.connections = vec![c; MAX_CONNECTIONS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1,001 connections"));
    }

    /// Issue 30: the run limit counts work, not clients or simulated time.
    /// One fast producer for a day is refused with its numbers; ten
    /// thousand seconds of a slow one pass.
    #[test]
    fn the_run_limit_counts_the_work() {
        let day = fixture(include_str!("../../../tests/fixtures/big/day-producer.json"));
        let m = scenario_limit(&day, "This link's scenario").unwrap();
        assert!(m.starts_with("This link's scenario is about 1"), "{m}");
        assert!(m.contains("requests (") && m.contains("over 86,400 simulated seconds: "), "{m}");
        assert!(m.contains("the playground runs at most 3,000,000 units of work"), "{m}");
        assert!(m.contains("kafka-quota simulate"), "{m}");
        // The same producer for a minute passes; 30,000 records for a day too
        // (the horizon is not the work).
        let mut s = day.clone();
        s.horizon_ms = 60_000;
        assert_eq!(scenario_limit(&s, "This scenario"), None);
        let mut s = lab();
        s.horizon_ms = 86_400_000;
        assert_eq!(scenario_limit(&s, "This scenario"), None);
        // The other three scenarios of the issue: 100,000 partitions pass
        // (2.9 million units), 1,000 events and a 100 GB read too.
        for text in [
            include_str!("../../../tests/fixtures/big/partitions-100k.json"),
            include_str!("../../../tests/fixtures/big/events-1000.json"),
            include_str!("../../../tests/fixtures/big/consumer-100gb.json"),
        ] {
            let s = fixture(text);
            assert_eq!(scenario_limit(&s, "This scenario"), None, "{}", s.name);
        }
    }

    #[test]
    fn topics_partitions_and_events_are_limited() {
        let mut s = lab();
        s.topics[0].partitions = 4_000_000_000;
        let m = scenario_limit(&s, "This link's scenario").unwrap();
        assert!(
            m.starts_with("This link's scenario has 4,000,000,000 partitions over its topics; the playground takes at most 100,000"),
            "{m}"
        );
        s.topics[0].partitions = 100_000;
        assert_eq!(scenario_limit(&s, "This scenario"), None);
        let mut t = s.topics[0].clone();
        t.name = "other".into();
        t.partitions = 60_000;
        s.topics[0].partitions = 60_000;
        s.topics.push(t);
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 120,000 partitions over its topics"));

        let mut s = lab();
        let mut t = s.topics[0].clone();
        t.partitions = 1;
        s.topics = vec![t; MAX_TOPICS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1,001 topics; the playground takes at most 1,000"));

        let mut s = lab();
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
