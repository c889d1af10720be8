//! How large a scenario the page takes: one set of limits for a link (or the
//! autosave), an import and a run, each refusal a sentence naming the
//! numbers and pointing to the `kafka-quota` CLI, which has none of them.
//!
//! None of these is a Kafka limit (a cluster holds any number of quotas and
//! connections; Kafka's 10,000-record cap, `QuorumController.MAX_RECORDS_PER_USER_OP`,
//! is per request). They keep the page responsive: the simulation of the
//! benchmark scenario (100 producers over 3 brokers for 600 simulated
//! seconds, 60,000 client-seconds, `tests/fixtures/bench`) takes about
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

/// Where a refusal points to.
const CLI: &str = "Run it with the kafka-quota CLI (`kafka-quota simulate FILE`), which has no such limit.";

/// The simulated client-seconds of `s`: workloads times the horizon in
/// seconds (rounded up).
pub fn client_seconds(s: &Scenario) -> u64 {
    (s.workloads.len() as u64).saturating_mul(s.horizon_ms.div_ceil(1_000))
}

/// Why the page does not take `s`, if it does not: the first limit passed,
/// as a sentence with the scenario's number, the limit and the CLI.
/// `what` names the scenario ("This link's scenario", "This scenario").
pub fn scenario_limit(s: &Scenario, what: &str) -> Option<String> {
    let over = |n: u64, max: u64, noun: &str| {
        (n > max).then(|| format!("{what} has {n} {noun}; the playground takes at most {max}, to stay responsive. {CLI}"))
    };
    over(s.quotas.len() as u64, MAX_QUOTAS as u64, "quota values")
        .or_else(|| over(s.connections.len() as u64, MAX_CONNECTIONS as u64, "connections"))
        .or_else(|| over(s.workloads.len() as u64, MAX_WORKLOADS as u64, "producers and consumers"))
        .or_else(|| over(u64::from(s.brokers.count), u64::from(MAX_BROKERS), "brokers"))
        .or_else(|| {
            let cs = client_seconds(s);
            (cs > MAX_CLIENT_SECONDS).then(|| {
                format!(
                    "{what} would simulate {cs} client-seconds ({} producers and consumers for {} simulated seconds); \
                     the playground runs at most {MAX_CLIENT_SECONDS}, to stay responsive. {CLI}",
                    s.workloads.len(),
                    s.horizon_ms.div_ceil(1_000)
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
            "This import would give the scenario up to {after} quota values; the playground takes at most {MAX_QUOTAS}, \
             to stay responsive. Import a part of the text, or use the kafka-quota CLI (`kafka-quota resolve --quotas FILE`, \
             `kafka-quota convert`, `kafka-quota simulate FILE`), which has no such limit."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::sim::Workload;

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
        // 100 producers for 10 simulated minutes (the bench fixture's size).
        assert_eq!(client_seconds(&with_workloads(100, 600_000)), 60_000);
        assert_eq!(scenario_limit(&with_workloads(100, 600_000), "This scenario"), None);
        assert_eq!(scenario_limit(&with_workloads(1_000, 600_000), "This scenario"), None);
    }

    #[test]
    fn each_limit_is_named_with_its_numbers() {
        let m = scenario_limit(&with_workloads(1_001, 1_000), "This link's scenario").unwrap();
        assert!(m.starts_with("This link's scenario has 1001 producers and consumers; the playground takes at most 1000"), "{m}");
        assert!(m.contains("kafka-quota simulate"), "{m}");

        let m = scenario_limit(&with_workloads(500, 1_200_001), "This scenario").unwrap();
        assert!(m.contains("would simulate 600500 client-seconds (500 producers and consumers for 1201 simulated seconds)"), "{m}");
        assert!(m.contains("at most 600000"), "{m}");

        let mut s = crate::presets::default_scenario();
        let q = s.quotas[0].clone();
        s.quotas = vec![q; MAX_QUOTAS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 2001 quota values; the playground takes at most 2000"));

        let mut s = crate::presets::default_scenario();
        s.brokers.count = MAX_BROKERS + 1;
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 10 brokers; the playground takes at most 9"));

        let mut s = crate::presets::default_scenario();
        let c = s.connections[0].clone();
        s.connections = vec![c; MAX_CONNECTIONS + 1];
        assert!(scenario_limit(&s, "This scenario").unwrap().contains("has 1001 connections"));
    }

    #[test]
    fn imports_count_the_quotas_after_the_import() {
        assert_eq!(import_limit(10, 1_990, false), None);
        assert_eq!(import_limit(500, 2_000, true), None);
        let m = import_limit(10, 1_991, false).unwrap();
        assert!(m.contains("up to 2001 quota values") && m.contains("at most 2000") && m.contains("kafka-quota"), "{m}");
        assert!(import_limit(0, 15_000, true).is_some());
    }
}
