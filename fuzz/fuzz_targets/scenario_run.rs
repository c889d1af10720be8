#![no_main]
//! Fuzz target: scenario JSON → `Scenario::validate` → `sim::check` →
//! `sim::simulate` under a work budget (issue 30). Scenarios past
//! [`BUDGET`] units of estimated work are checked, not run (as the page
//! refuses them); the rest run to the end, with their memory bounded by
//! what they keep (libFuzzer's -rss_limit_mb) and their time by -timeout.
//! A run's Timeline is consistent: it ends at or before the horizon the
//! engine caps, every client is reported once, and the fingerprint of a
//! second run is the same (determinism).

use libfuzzer_sys::fuzz_target;
use quota_engine::sim::{check, estimate, simulate, HORIZON_CAP_MS};
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
    let Ok(work) = check(&s) else { return };
    assert_eq!(work, estimate(&s));
    if work.work > BUDGET {
        return;
    }
    let Ok(t) = simulate(&s) else { return };
    assert!(t.end_ms <= HORIZON_CAP_MS as f64 + 1.0, "end {} past the cap", t.end_ms);
    assert_eq!(t.clients.len(), s.workloads.len());
    assert!(!t.cut_short);
    let again = simulate(&s).expect("the same scenario runs again");
    assert_eq!(t.fingerprint(), again.fingerprint(), "not deterministic");
});
