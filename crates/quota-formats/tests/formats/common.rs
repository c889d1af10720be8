//! Fixture access shared by the test modules.

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

/// Splits a real-inputs file into items: each starts at a `# source:` line
/// and runs to the next one. Returns (source line, body).
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
