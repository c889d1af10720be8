//! `kafka-quota apply` end to end: the lab article's kafka-configs.sh runs,
//! state persistence between runs, and the exit codes (0, 1 bad input, 2 usage).

use std::path::PathBuf;

use predicates::prelude::PredicateBooleanExt;
use super::common::kafka_quota;

/// (command line, expected output lines) of the lab article, in order.
fn lab_commands() -> Vec<(String, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/seed/kafka-client-quotas-lab.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(cmd) = lines[i]
            .strip_prefix("$ ")
            .filter(|c| c.starts_with("kafka-configs.sh "))
        {
            let mut expected = Vec::new();
            let mut j = i + 1;
            while j < lines.len() && !lines[j].trim().is_empty() && !lines[j].starts_with("$ ") {
                expected.push(lines[j].to_owned());
                j += 1;
            }
            out.push((cmd.to_owned(), expected));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn lab_sequence_prints_the_articles_output() {
    let dir = tempfile::tempdir().unwrap();
    let commands = lab_commands();
    assert_eq!(commands.len(), 8);
    let script: String = commands.iter().map(|(c, _)| format!("{c}\n")).collect();
    let script_path = dir.path().join("lab.sh");
    std::fs::write(
        &script_path,
        format!("# the lab article's kafka-configs.sh runs\n{script}"),
    )
    .unwrap();
    let state = dir.path().join("state.json");

    let output = kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&script_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    // The first run (--zookeeper) fails as 4.x fails; every other one prints the article's lines.
    let expected_stdout: String = commands
        .iter()
        .skip(1)
        .flat_map(|(_, lines)| lines.iter().map(|l| format!("{l}\n")))
        .collect();
    assert_eq!(stdout, expected_stdout);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "Line 2, column 18 of {}: kafka-configs.sh fails with \"{}\"; expected --bootstrap-server, since Kafka 4.0 removed --zookeeper (import mode still reads it).",
            script_path.display(),
            commands[0].1[0]
        )
    );
    assert_eq!(output.status.code(), Some(1));

    // The state file holds what the successful commands left.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let quotas = saved["quotas"].as_array().unwrap();
    assert_eq!(quotas.len(), 4, "{saved:#}");
    assert!(quotas.iter().any(
        |q| q["entity"] == serde_json::json!({"user": "tenantUserA"})
            && q["values"] == serde_json::json!({"consumer_byte_rate": 1_000_000.0})
    ));

    // A second run reads the saved state.
    let describe = dir.path().join("describe.sh");
    std::fs::write(
        &describe,
        "kafka-configs.sh --bootstrap-server localhost:9098 \\\n  --describe --entity-type users --entity-default\n",
    )
    .unwrap();
    kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&describe)
        .assert()
        .success()
        .stdout("Quota configs for the default user-principal are producer_byte_rate=5000000.0\n");
}

#[test]
fn import_mode_reads_the_removed_zookeeper_flag_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("old.sh");
    std::fs::write(
        &script,
        "$ bin/kafka-configs.sh --zookeeper localhost:2181 --alter --add-config 'producer_byte_rate=1024' --entity-type clients --entity-name clientA\n",
    )
    .unwrap();
    kafka_quota()
        .args(["apply", "--mode", "import"])
        .arg(&script)
        .assert()
        .success()
        .stdout("Completed updating config for client clientA.\n")
        .stderr(
            predicates::str::contains("note:")
                .and(predicates::str::contains("Kafka 4.0 removed --zookeeper")),
        );
}

#[test]
fn exit_codes_distinguish_bad_input_from_usage() {
    let dir = tempfile::tempdir().unwrap();
    // Usage errors: clap exits 2.
    kafka_quota().arg("apply").assert().code(2);
    kafka_quota().arg("frobnicate").assert().code(2);
    kafka_quota()
        .args(["apply", "--mode", "lenient", "x.sh"])
        .assert()
        .code(2);
    // Bad input: a missing file, a line that is not a command, a broken state file.
    kafka_quota()
        .arg("apply")
        .arg(dir.path().join("missing.sh"))
        .assert()
        .code(1)
        .stderr(predicates::str::contains("missing.sh"));
    let bad = dir.path().join("bad.sh");
    std::fs::write(&bad, "kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type users --entity-name u --add-config producer_byte_rate=fast\n").unwrap();
    kafka_quota()
        .arg("apply")
        .arg(&bad)
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            predicates::str::contains(format!("Line 1, column 120 of {}", bad.display())).and(
                predicates::str::contains(
                    "Cannot parse quota configuration value for producer_byte_rate: fast",
                ),
            ),
        );
    let state = dir.path().join("state.json");
    std::fs::write(&state, "not json").unwrap();
    let ok = dir.path().join("ok.sh");
    std::fs::write(&ok, "# nothing to do\n").unwrap();
    kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&ok)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("state.json"));
    // Success with nothing to print.
    kafka_quota()
        .arg("apply")
        .arg(&ok)
        .assert()
        .code(0)
        .stdout("");
}
