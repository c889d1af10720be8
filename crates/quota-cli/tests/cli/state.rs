//! The state file `apply --state` writes: values JSON cannot hold as
//! numbers (`NaN`, which Kafka accepts), and reading it back in later runs.

use predicates::prelude::PredicateBooleanExt;
use super::common::kafka_quota;

const NAN_LINE: &str = "kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate=NaN --entity-type users --entity-name erin\n";

#[test]
fn a_nan_quota_survives_the_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("nan.sh");
    std::fs::write(&script, NAN_LINE).unwrap();
    let state = dir.path().join("s.json");
    kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&script)
        .assert()
        .success()
        .stdout("Completed updating config for user erin.\n");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(
        saved["quotas"][0]["values"]["producer_byte_rate"],
        serde_json::json!("NaN"),
        "{saved:#}"
    );

    // The next run reads the state back and keeps the NaN.
    let describe = dir.path().join("describe.sh");
    std::fs::write(
        &describe,
        "kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type users --entity-name erin\n",
    )
    .unwrap();
    kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&describe)
        .assert()
        .success()
        .stdout("Quota configs for user-principal 'erin' are producer_byte_rate=NaN\n");
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(again, saved);
}

#[test]
fn convert_to_json_writes_nan_as_a_string() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("nan.sh");
    std::fs::write(&script, NAN_LINE).unwrap();
    let out = kafka_quota()
        .args(["convert", "--to", "json"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let quotas = v["scenario"]["quotas"].as_array().unwrap();
    assert_eq!(quotas[0]["value"], serde_json::json!("NaN"), "{v:#}");
    // And that JSON reads back.
    let json = dir.path().join("nan.json");
    std::fs::write(&json, &out.stdout).unwrap();
    kafka_quota()
        .args(["convert", "--to", "configs-sh"])
        .arg(&json)
        .assert()
        .success()
        .stdout(predicates::str::contains("producer_byte_rate=NaN"));
}

#[test]
fn resolve_and_convert_read_the_state_file_apply_writes() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("q.sh");
    std::fs::write(
        &script,
        format!("kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate=2000000 --entity-type users --entity-name tenant-a\n{NAN_LINE}"),
    )
    .unwrap();
    let state = dir.path().join("s.json");
    kafka_quota()
        .arg("apply")
        .arg("--state")
        .arg(&state)
        .arg(&script)
        .assert()
        .success();

    let out = kafka_quota()
        .args([
            "resolve",
            "--listener",
            "SASL_PLAINTEXT",
            "--user",
            "tenant-a",
            "--json",
            "--quotas",
        ])
        .arg(&state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let produce = v["resolutions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["summary"]
                .as_str()
                .unwrap_or("")
                .contains("producer_byte_rate")
        })
        .unwrap_or_else(|| panic!("{v:#}"));
    assert!(
        produce["summary"]
            .as_str()
            .unwrap()
            .contains("users/tenant-a"),
        "{produce:#}"
    );

    // erin's NaN quota resolves too.
    kafka_quota()
        .args([
            "resolve",
            "--listener",
            "SASL_PLAINTEXT",
            "--user",
            "erin",
            "--quotas",
        ])
        .arg(&state)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "  producer_byte_rate        NaN bytes/s per broker (NaN: metered, never delays: every check fails with a 0 ms throttle) from users/erin (rung 3);",
        ));

    // convert reads it, detected or with --from json, into any format.
    for from in [&[][..], &["--from", "json"][..]] {
        kafka_quota()
            .args(["convert", "--to", "describe"])
            .args(from)
            .arg(&state)
            .assert()
            .success()
            .stdout(
                "Quota configs for user-principal 'erin' are producer_byte_rate=NaN\nQuota configs for user-principal 'tenant-a' are producer_byte_rate=2000000.0\n",
            );
    }
    let out = kafka_quota()
        .args(["convert", "--to", "json"])
        .arg(&state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["scenario"]["quotas"].as_array().unwrap().len(),
        2,
        "{v:#}"
    );

    // A broken state file is named as one, not as a scenario.
    std::fs::write(
        &state,
        r#"{"quotas":[{"entity":{"user":"a"},"values":{"producer_byte_rate":null}}]}"#,
    )
    .unwrap();
    kafka_quota()
        .args(["convert", "--to", "describe"])
        .arg(&state)
        .assert()
        .code(1)
        .stderr(
            predicates::str::contains("is not quota-state JSON")
                .and(predicates::str::contains("scenario").not()),
        );
}
