//! Time to simulate the lab article's runs, whole Timeline included: the
//! playground re-runs the simulation on every edit (target: the 30 MB
//! throttled producer run in under 5 ms natively).
//!
//! Also 100 producers over 3 brokers for 10 simulated minutes
//! (tests/fixtures/bench/100-clients-3-brokers.json).
//!
//! Run: `cargo bench -p quota-engine --bench sim`. The wasm figure comes from
//! `scripts/test-wasm.sh --timing` (same scenario, release build, Node).

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use quota_engine::sim::{simulate, Scenario};

fn lab(name: &str) -> Scenario {
    fixture(&format!("lab/{name}"))
}

/// A scenario file under tests/fixtures (`name` without `.json`).
fn fixture(name: &str) -> Scenario {
    let path = format!(
        "{}/../../tests/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
    serde_json::from_value(v["scenario"].clone()).expect("scenario")
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut g = c.benchmark_group("simulate");
    for name in [
        "producer-client-quota",
        "producer-unthrottled",
        "consumer-client-quota",
        "perf-client-quota",
    ] {
        let s = lab(name);
        let t = simulate(s.validate().expect("a valid scenario")).expect("simulates");
        println!(
            "{name}: {} events, Timeline JSON {} bytes",
            t.events,
            serde_json::to_vec(&t).map_or(0, |v| v.len())
        );
        g.bench_function(name, |b| {
            b.iter(|| simulate(black_box(&s).validate().expect("a valid scenario")).expect("simulates"))
        });
    }
    let s = lab("producer-client-quota");
    g.bench_function("producer-client-quota + fingerprint", |b| {
        b.iter(|| simulate(black_box(&s).validate().expect("a valid scenario")).expect("simulates").fingerprint())
    });
    g.finish();
    // tests/fixtures/bench: 100 producers over 3 brokers for 10 simulated
    // minutes (a run of about a second: fewer, longer samples).
    let mut g = c.benchmark_group("cluster");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let s = fixture("bench/100-clients-3-brokers");
    let t = simulate(s.validate().expect("a valid scenario")).expect("simulates");
    println!(
        "100-clients-3-brokers: {} events, {} ms simulated, Timeline JSON {} bytes",
        t.events,
        t.end_ms,
        serde_json::to_vec(&t).map_or(0, |v| v.len())
    );
    g.bench_function("100-clients-3-brokers-10-min", |b| {
        b.iter(|| simulate(black_box(&s).validate().expect("a valid scenario")).expect("simulates"))
    });
    g.finish();
    c.final_summary();
}
