//! Strimzi, Terraform, rpk, Java and scenario JSON: real inputs, round
//! trips of every format, and parsers that never panic.

mod real_inputs;
mod roundtrip;

use std::path::PathBuf;

/// The workspace's shared `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Reads a fixture file as text.
pub fn read_fixture(rel: &str) -> String {
    let path = fixtures().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
}

/// Splits a real-inputs file into (source line, body) items at `# source:` lines.
pub fn items(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("# source:") {
            out.push((line.trim_end().to_owned(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
        }
    }
    out
}
