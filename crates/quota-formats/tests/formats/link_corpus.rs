//! Links never break: every link in `tests/fixtures/links/<commit>.tsv` was
//! made by the code of an earlier release (`scripts/link-corpus.sh <commit>`
//! runs that commit's own encoder over its default scenario, lessons and
//! examples), and each must still open the same scenario: it decodes, and
//! every value the old link carried is in the scenario read now, unchanged
//! (a renamed or dropped field, or a value read differently
//! fails here). Values the old link left out take today's defaults.

use std::path::PathBuf;

use base64::Engine as _;
use quota_engine::sim::NetworkModel;
use quota_formats::permalink::{decode, encode, PREFIX};
use serde_json::Value;

fn corpus() -> Vec<(String, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/links");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/links")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsv"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let release = f.file_stem().expect("name").to_string_lossy().into_owned();
        for line in std::fs::read_to_string(&f).expect("readable").lines().filter(|l| !l.is_empty()) {
            let (name, link) = line.split_once('\t').expect("name<TAB>link");
            out.push((release.clone(), name.to_owned(), link.to_owned()));
        }
    }
    out
}

/// The JSON inside a `v1.` link, as the old encoder wrote it.
fn old_json(link: &str) -> Value {
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(link.strip_prefix(PREFIX).expect("a v1 link"))
        .expect("base64url");
    let json = miniz_oxide::inflate::decompress_to_vec(&packed).expect("deflate");
    serde_json::from_slice(&json).expect("JSON")
}

/// Every value of `old` is in `new` at the same path, equal (numbers
/// compared as f64: `2000000` and `2000000.0` are the same value).
fn carried(old: &Value, new: &Value, path: &str, lost: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            for (k, v) in o {
                match n.get(k) {
                    Some(nv) => carried(v, nv, &format!("{path}.{k}"), lost),
                    None if v.is_null() => {}
                    None => lost.push(format!("{path}.{k} = {v} is gone")),
                }
            }
        }
        (Value::Array(o), Value::Array(n)) if o.len() == n.len() => {
            for (i, (a, b)) in o.iter().zip(n).enumerate() {
                carried(a, b, &format!("{path}[{i}]"), lost);
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, b) => lost.push(format!("{path}: the link says {a}, the scenario read now has {b}")),
    }
}

#[test]
fn every_link_of_every_release_still_opens_the_same_scenario() {
    let corpus = corpus();
    let releases: std::collections::BTreeSet<&str> = corpus.iter().map(|(r, _, _)| r.as_str()).collect();
    assert!(releases.len() >= 3, "the corpus holds the links of three releases: {releases:?}");
    let mut failures = Vec::new();
    for (release, name, link) in &corpus {
        let scenario = match decode(link) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{release} {name}: does not open: {e}"));
                continue;
            }
        };
        let now = serde_json::to_value(&scenario).expect("serializes");
        let mut lost = Vec::new();
        carried(&old_json(link), &now, "scenario", &mut lost);
        failures.extend(lost.into_iter().map(|l| format!("{release} {name}: {l}")));
        // The scenario is one the engine runs (the modelled network's checks;
        // the textbook network has its own, in sim::textbook), and today's
        // link of it opens to the same scenario again.
        if scenario.network == NetworkModel::Modelled {
            if let Err(problems) = scenario.validate() {
                failures.push(format!("{release} {name}: no longer valid: {}", problems[0]));
            }
        }
        assert_eq!(decode(&encode(&scenario)).as_ref(), Ok(&scenario), "{release} {name}");
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_check_sees_a_value_that_changed_or_went_missing() {
    let old: Value = serde_json::json!({"quotas": [{"key": "producer_byte_rate", "value": 2000000}], "seed": 1, "gone": 3});
    let new: Value = serde_json::json!({"quotas": [{"key": "producer_byte_rate", "value": 2000000.0}], "seed": 2});
    let mut lost = Vec::new();
    carried(&old, &new, "scenario", &mut lost);
    assert_eq!(lost, ["scenario.gone = 3 is gone", "scenario.seed: the link says 1, the scenario read now has 2"]);
}
