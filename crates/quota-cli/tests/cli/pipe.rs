//! Standard output closed early (`kafka-quota ... | head`): no panic, the
//! command finishes (the state file is saved) and exits 0.

use std::io::Read;
use std::process::{Command, Stdio};

fn many_quotas(n: u32) -> String {
    (0..n)
        .map(|i| format!("kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate={} --entity-type users --entity-name user-{i}\n", 1000 + i))
        .collect()
}

/// Runs `kafka-quota args`, reads 100 bytes of its stdout and closes it;
/// returns (exit code, stderr).
fn run_and_close_stdout_early(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("kafka-quota"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("many.sh");
    // About 300 KB of output: far more than a pipe buffer (64 KB).
    std::fs::write(&script, many_quotas(4000)).unwrap();

    let (code, stderr) = run_and_close_stdout_early(&[
        "convert".as_ref(),
        "--to".as_ref(),
        "describe".as_ref(),
        script.as_os_str(),
    ]);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr, "");
    assert_eq!(code, Some(0));

    // apply still saves every command in the state file.
    let state = dir.path().join("s.json");
    let (code, stderr) = run_and_close_stdout_early(&[
        "apply".as_ref(),
        "--state".as_ref(),
        state.as_os_str(),
        script.as_os_str(),
    ]);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, Some(0), "{stderr}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["quotas"].as_array().unwrap().len(), 4000);
}
