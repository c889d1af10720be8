#![no_main]
//! Fuzz target: the scenario text reader (`scenario_text::read`:
//! docs/scenario-text.md's lines, or scenario JSON), then what a reader of
//! the scenario does next: the engine's checks, its work estimate, and the
//! playground's limits. Every error points inside the input with a sentence;
//! a scenario read writes to JSON that reads back to the same scenario.

use libfuzzer_sys::fuzz_target;
use quota_formats::{limits, scenario, scenario_text};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    match scenario_text::read(&text) {
        Ok(file) => {
            let s = file.scenario;
            let again = scenario::from_json(&scenario::to_json(&s)).expect("a scenario read writes to JSON that reads back");
            assert_eq!(again.scenario, s);
            let _ = quota_engine::sim::estimate(&s);
            let _ = s.validate();
            let _ = limits::scenario_limit(&s, "This scenario");
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                common::check_error(&text, e);
            }
        }
    }
});
