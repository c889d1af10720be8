//! The spread over seeds: the same scenario with seeds s, s+1, ...; the
//! seed draws the broker thread-time jitter, so a request_percentage quota
//! near what a client uses throttles in some runs and not in others (the
//! lab article's "coin flip"). The scenario is the lab's
//! request-percentage-0.3 run with this machine's environment
//! (lab/environment.json).

use quota_engine::sim::{simulate_seeds, Scenario};

fn lab_run(quota: f64) -> Scenario {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../lab/scenarios/request-percentage-0.3.json"))
        .expect("the lab's scenario");
    let env = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../lab/environment.json")).expect("env");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let env: serde_json::Value = serde_json::from_str(&env).expect("json");
    v["scenario"]["environment"] = env["environment"].clone();
    v["scenario"]["quotas"][0]["value"] = quota.into();
    serde_json::from_value(v["scenario"].clone()).expect("a scenario")
}

#[test]
fn far_from_the_quota_every_seed_agrees() {
    let s = simulate_seeds(lab_run(0.3).validate().expect("a valid scenario"), 10).expect("runs");
    assert_eq!(s.seeds, (1..=10).collect::<Vec<u64>>());
    let p = &s.clients[0];
    assert_eq!(p.throttled_runs(), 10);
    assert!(p.summary(&s.seeds).starts_with("producer: throttled in every one of 10 runs (seeds 1-10); duration 12,"), "{}", p.summary(&s.seeds));
    let s = simulate_seeds(lab_run(1.0).validate().expect("a valid scenario"), 5).expect("runs");
    assert_eq!(s.clients[0].throttled_runs(), 0);
}

#[test]
fn near_the_quota_the_seeds_disagree() {
    // 0.5 % of a thread: about what the 10 MB producer uses in its first
    // window, so the per-request jitter decides.
    let s = simulate_seeds(lab_run(0.5).validate().expect("a valid scenario"), 20).expect("runs");
    let t = s.clients[0].throttled_runs();
    assert!(t > 0 && t < 20, "{}", s.clients[0].summary(&s.seeds));
    assert!(s.clients[0].summary(&s.seeds).contains(&format!("throttled in {t} of 20 runs")));
}

#[test]
fn a_count_out_of_range_is_refused() {
    for n in [0, quota_engine::sim::SEEDS_MAX + 1] {
        let e = simulate_seeds(lab_run(0.3).validate().expect("a valid scenario"), n).expect_err("refused");
        assert!(e.to_string().contains("1 to 1000 seeds"), "{e}");
    }
}
