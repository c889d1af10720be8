//! `simulate` takes a `Valid<&Scenario>` and documents no error for one:
//! building the run repeats the lookups `Scenario::validate` made. Every
//! scenario file of the project (the examples, the lab's runs) that
//! validates runs, and every one of them does validate.

use std::path::Path;

use quota_engine::sim::{simulate, Scenario};

/// The scenarios of `dir`'s `.json` files (an envelope's `scenario`, or a
/// bare scenario), with their file names.
fn scenarios(dir: &str) -> Vec<(String, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the directory") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("the file");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let scenario = v.get("scenario").cloned().unwrap_or(v);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let s: Scenario = serde_json::from_value(scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, s));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_validated_scenario_file_runs() {
    let files: Vec<(String, Scenario)> = ["examples", "lab/scenarios"].iter().flat_map(|d| scenarios(d)).collect();
    assert!(files.len() >= 30, "{} scenario files", files.len());
    for (name, s) in &files {
        let valid = s.validate().unwrap_or_else(|problems| panic!("{name}: {problems:?}"));
        if let Err(e) = simulate(valid) {
            panic!("{name}: validated, but simulate refused it: {e}");
        }
    }
}
