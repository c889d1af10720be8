//! Conformance: replays every case of the Kafka vectors (produced by running
//! Kafka's own classes) through the engine and compares every output field.
//!
//! Reads every `*.json` file of each vector set in [`VECTOR_SETS`]:
//! `tests/fixtures/kafka-vectors/` (the handed-over set) and
//! `tests/fixtures/kafka-vectors-4.3.1/` (the same inputs replayed through the
//! Apache Kafka 4.3.1 jars by `lab/vectors/generate.sh`), plus, when the
//! environment variable `KAFKA_VECTORS_EXTRA` names a directory, every
//! `*.json` file in it (same schema, any family). Every set is read by the same
//! family loaders. Prints one line per set and family:
//! `family [set]: N cases, M checks, all match`, or a diff naming the case id,
//! the step and the field. Exits non-zero on any mismatch, unreadable file or
//! missing set.

mod common;
mod precedence;
mod principal;
mod rate;
mod token_bucket;
mod validation;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::Outcome;
use serde_json::Value;

/// At most this many mismatches are printed per family.
const MAX_PRINTED_DIFFS: usize = 40;

#[derive(Default)]
struct FamilyTally {
    files: Vec<String>,
    cases: usize,
    checks: usize,
    diffs: Vec<String>,
}

/// The vector sets every run reads: (label, directory under the repository root).
const VECTOR_SETS: [(&str, &str); 2] = [
    ("kafka-vectors", "tests/fixtures/kafka-vectors"),
    ("kafka-vectors-4.3.1", "tests/fixtures/kafka-vectors-4.3.1"),
];

/// The families every built-in set must hold (a set missing one fails the run).
const FAMILIES: [&str; 5] = ["precedence", "principal", "rate", "token_bucket", "validation"];

/// Every `*.json` file of every set, sorted within a set, with its set's label.
fn vector_files() -> Result<Vec<(String, PathBuf)>, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs: Vec<(String, PathBuf)> = VECTOR_SETS
        .iter()
        .map(|(label, dir)| ((*label).to_owned(), root.join(dir)))
        .collect();
    if let Some(extra) = std::env::var_os("KAFKA_VECTORS_EXTRA") {
        if !extra.is_empty() {
            let extra = PathBuf::from(extra);
            let label = extra
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "extra".to_owned());
            dirs.push((format!("extra {label}"), extra));
        }
    }
    let mut files = Vec::new();
    for (label, dir) in dirs {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot read vector directory {}: {e}", dir.display()))?;
        let mut here: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        if here.is_empty() {
            return Err(format!("vector directory {} has no *.json files", dir.display()));
        }
        here.sort();
        files.extend(here.into_iter().map(|p| (label.clone(), p)));
    }
    Ok(files)
}

fn replay_case(family: &str, case: &Value) -> Option<Outcome> {
    Some(match family {
        "precedence" => precedence::replay(case),
        "principal" => principal::replay(case),
        "validation" => validation::replay(case),
        "rate" => rate::replay(case),
        "token_bucket" => token_bucket::replay(case),
        _ => return None,
    })
}

fn main() {
    // `cargo test -- --list` and filters are accepted and ignored.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("conformance: test");
        return;
    }
    let files = match vector_files() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("conformance: {e}");
            std::process::exit(1);
        }
    };
    // Keyed by (set label, family): each set's results are reported on their own.
    let mut tallies: BTreeMap<(String, String), FamilyTally> = BTreeMap::new();
    let mut failed = false;
    for (set, file) in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("conformance: cannot read {}: {e}", file.display());
                failed = true;
                continue;
            }
        };
        let doc: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("conformance: {} is not valid JSON: {e}", file.display());
                failed = true;
                continue;
            }
        };
        let Some(family) = doc.get("family").and_then(Value::as_str) else {
            eprintln!("conformance: {} has no \"family\" string at the top level", file.display());
            failed = true;
            continue;
        };
        let Some(cases) = doc.get("cases").and_then(Value::as_array) else {
            eprintln!("conformance: {} has no \"cases\" array", file.display());
            failed = true;
            continue;
        };
        let tally = tallies.entry((set.clone(), family.to_owned())).or_default();
        tally.files.push(file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        if let Some(n) = doc.get("case_count").and_then(Value::as_u64) {
            if n as usize != cases.len() {
                tally.diffs.push(format!("{}: case_count says {n} but {} cases are present", file.display(), cases.len()));
            }
        }
        for case in cases {
            let id = case.get("id").and_then(Value::as_str).unwrap_or("<no id>");
            let Some(outcome) = replay_case(family, case) else {
                tally.diffs.push(format!("{id}: unknown family {family:?}"));
                break;
            };
            tally.cases += 1;
            tally.checks += outcome.checks;
            tally.diffs.extend(outcome.diffs.into_iter().map(|d| format!("{id}: {d}")));
        }
    }
    if tallies.is_empty() {
        eprintln!("conformance: no vector files found");
        failed = true;
    }
    for (set, _) in VECTOR_SETS {
        for family in FAMILIES {
            if !tallies.contains_key(&(set.to_owned(), family.to_owned())) {
                eprintln!("conformance: vector set {set} has no {family} file");
                failed = true;
            }
        }
    }
    for ((set, family), t) in &tallies {
        if t.diffs.is_empty() {
            println!("{family} [{set}]: {} cases, {} checks, all match ({})", t.cases, t.checks, t.files.join(", "));
        } else {
            failed = true;
            println!("{family} [{set}]: {} cases, {} checks, {} MISMATCHES ({})", t.cases, t.checks, t.diffs.len(), t.files.join(", "));
            for d in t.diffs.iter().take(MAX_PRINTED_DIFFS) {
                println!("  {family} [{set}] {d}");
            }
            if t.diffs.len() > MAX_PRINTED_DIFFS {
                println!("  ... and {} more", t.diffs.len() - MAX_PRINTED_DIFFS);
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
