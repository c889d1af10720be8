//! Conformance: replays every case of the Kafka vectors (produced by running
//! Kafka's own classes) through the engine and compares every output field.
//!
//! Reads `tests/fixtures/kafka-vectors/*.json` and, when the environment
//! variable `KAFKA_VECTORS_EXTRA` names a directory, every `*.json` file in it
//! (same schema, any family). Prints one line per family:
//! `family: N cases, M checks, all match`, or a diff naming the case id, the
//! step and the field. Exits non-zero on any mismatch or unreadable file.

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

fn vector_files() -> Result<Vec<PathBuf>, String> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-vectors")];
    if let Some(extra) = std::env::var_os("KAFKA_VECTORS_EXTRA") {
        if !extra.is_empty() {
            dirs.push(PathBuf::from(extra));
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot read vector directory {}: {e}", dir.display()))?;
        let mut here: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        here.sort();
        files.extend(here);
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
    let mut tallies: BTreeMap<String, FamilyTally> = BTreeMap::new();
    let mut failed = false;
    for file in &files {
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
        let tally = tallies.entry(family.to_owned()).or_default();
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
    for (family, t) in &tallies {
        if t.diffs.is_empty() {
            println!("{family}: {} cases, {} checks, all match ({})", t.cases, t.checks, t.files.join(", "));
        } else {
            failed = true;
            println!("{family}: {} cases, {} checks, {} MISMATCHES ({})", t.cases, t.checks, t.diffs.len(), t.files.join(", "));
            for d in t.diffs.iter().take(MAX_PRINTED_DIFFS) {
                println!("  {family} {d}");
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
