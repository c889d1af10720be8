//! The same scenario and seed give the identical Timeline natively and in
//! wasm32: both targets assert the same fingerprint of the lab's 30 MB
//! throttled producer run.
//!
//! Native: `cargo test -p quota-engine --test engine same_on_every_target`.
//! Wasm (Node): `scripts/test-wasm.sh`.

use quota_engine::sim::{simulate, Scenario};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const LAB_30MB_THROTTLED: &str =
    include_str!("../../../../tests/fixtures/lab/producer-client-quota.json");

/// FNV-1a of the Timeline's canonical JSON for that run (seed 1). Changed
/// for issue 10: the per-client `waits` record (flow control), and every
/// instant in the Timeline written as f64 ms (the broker-side ones keep the
/// whole ms Kafka's sensors read). Changed for issue 11: each client
/// response carries the client's throttled responses and largest
/// throttle_time_ms so far, and each client its `responses` tallies.
/// Changed for issue 25: the client's start-up responses are 0 ms samples
/// of its throttle-time sensor (produce-throttle-time-avg 24.7 -> 24.6 ms
/// here), as a real 4.3.1 producer's are.
const EXPECTED_FINGERPRINT: u64 = 0x50c0_e90a_e885_011b;

fn scenario() -> Scenario {
    let v: serde_json::Value = serde_json::from_str(LAB_30MB_THROTTLED).expect("fixture is JSON");
    serde_json::from_value(v["scenario"].clone()).expect("fixture holds a scenario")
}

#[test]
fn timeline_fingerprint_is_the_same_on_every_target() {
    let t = simulate(scenario().validate().expect("a valid scenario")).expect("the lab scenario simulates");
    assert_eq!(t.clients[0].metrics.records_done, 30_000);
    assert_eq!(
        t.fingerprint(),
        EXPECTED_FINGERPRINT,
        "fingerprint {:#018x}",
        t.fingerprint()
    );
}

/// Runs `s` `warm_up` times, then `runs` times on the clock: the mean wall
/// time per run (ms) and the events of one run.
#[cfg(target_arch = "wasm32")]
fn time_runs(s: &Scenario, warm_up: u32, runs: u32) -> (f64, u64) {
    for _ in 0..warm_up {
        let _ = simulate(s.validate().expect("a valid scenario"));
    }
    let start = js_sys::Date::now();
    let mut events = 0;
    for _ in 0..runs {
        events += simulate(s.validate().expect("a valid scenario")).expect("simulates").events;
    }
    ((js_sys::Date::now() - start) / f64::from(runs), events / u64::from(runs))
}

/// Wall time of the 30 MB run in wasm (Node), for BENCHMARKS.md. Ignored by
/// default; `scripts/test-wasm.sh --timing` runs it in a release build.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test::wasm_bindgen_test]
#[ignore]
fn time_the_30mb_throttled_run_in_wasm() {
    // Enough runs for the millisecond clock.
    let (per_run_ms, events) = time_runs(&scenario(), 5, 200);
    wasm_bindgen_test::console_log!(
        "wasm: 30 MB throttled producer run simulated in {per_run_ms:.3} ms per run ({events} events per run, 200 runs)"
    );
}

/// Wall time of 100 producers over 3 brokers for 10 simulated minutes in
/// wasm (Node), for BENCHMARKS.md; `scripts/test-wasm.sh --timing`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test::wasm_bindgen_test]
#[ignore]
fn time_100_clients_over_3_brokers_for_10_minutes_in_wasm() {
    let v: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../tests/fixtures/bench/100-clients-3-brokers.json"
    ))
    .expect("fixture is JSON");
    let s: Scenario = serde_json::from_value(v["scenario"].clone()).expect("a scenario");
    let (per_run_ms, events) = time_runs(&s, 1, 5);
    wasm_bindgen_test::console_log!(
        "wasm: 100 clients x 3 brokers x 10 simulated minutes in {per_run_ms:.1} ms per run ({events} events per run, 5 runs)"
    );
}
