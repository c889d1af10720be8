#![no_main]
//! Fuzz target: scenario JSON → `Scenario::validate` → the work estimate →
//! `sim::check` → `sim::simulate` under a work budget (issue 30).
//! Scenarios past [`BUDGET`] units of estimated work are refused before
//! anything is built (as the page refuses them); the rest are checked and
//! run to the end, with their memory bounded by what they keep
//! (libFuzzer's -rss_limit_mb) and their time by -timeout. A run's
//! Timeline is consistent: every client is reported once, it is not cut
//! short, its end is a time, and a second run has the same fingerprint
//! (determinism).

use libfuzzer_sys::fuzz_target;
use quota_engine::sim::{check, estimate, simulate};
use quota_formats::scenario;

/// Work units (about events) a fuzz input may run: about 60 ms natively.
const BUDGET: u64 = 200_000;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(file) = scenario::from_json(&text) else { return };
    let s = file.scenario;
    if s.validate().is_err() {
        return;
    }
    if estimate(&s).work > BUDGET || check(&s).is_err() {
        return;
    }
    let t = simulate(s.validate().expect("a valid scenario")).expect("a scenario that passes check runs");
    assert!(t.end_ms.is_finite() && t.end_ms >= 0.0, "end {}", t.end_ms);
    assert_eq!(t.clients.len(), s.workloads.len());
    assert!(!t.cut_short);
    let again = simulate(s.validate().expect("a valid scenario")).expect("the same scenario runs again");
    assert_eq!(t.fingerprint(), again.fingerprint(), "not deterministic");
});
