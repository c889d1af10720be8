//! `kafka-quota sensor`: values recorded into Kafka's windowed Rate or
//! TokenBucket, and what Kafka's classes return (the figures are checked
//! against Kafka 4.3.1's own vectors in the command's unit tests).

use super::common::kafka_quota;

/// Runs `kafka-quota sensor ARGS` and returns (exit code, stdout, stderr).
fn sensor(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = kafka_quota();
    cmd.arg("sensor").args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().expect("runs");
    (
        out.status.code().expect("an exit code"),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = sensor(args, None);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    out
}

// Kafka 4.3.1 Rate.windowSize pads to (samples - 1) windows; QuotaUtils.throttleTime.
#[test]
fn rate_text_gives_the_answer_then_the_table_then_why() {
    let out = ok(&[
        "--quota", "1048576", "--record", "0ms:1048576", "--record", "250ms:1048576", "--record", "300ms:9000000",
        "--at", "2s", "--at", "20s",
    ]);
    assert!(
        out.starts_with("Rate (producer_byte_rate) against 1048576.0 bytes/s, 11 samples of 1 s: 1 of 3 records over the quota; the longest throttle is 283 ms, at 300 ms."),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn rate_json_has_format_version_rows_samples_and_the_formula() {
    let out = ok(&["--quota", "1000000", "--record", "0:9000000", "--record", "1:2000000", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["format"], "kafka-quota/sensor");
    assert_eq!(doc["version"], 1);
    // Kafka's vector rate-first-record-allowance: 999 ms over a 10 001 ms window.
    assert_eq!(doc["rows"][1]["throttle_ms"], 999);
    assert_eq!(doc["rows"][1]["window_ms"], 10001);
    assert_eq!(doc["rows"][1]["rate"], 1099890.0109989003);
    insta::assert_snapshot!(out);
}

// ClientRequestQuotaManager.throttleTime: QuotaUtils.boundedThrottleTime, one window.
#[test]
fn request_percentage_throttle_is_capped_at_one_window() {
    let out = ok(&[
        "--quota-type", "request_percentage", "--quota", "1", "--record", "0:50", "--window-seconds", "2",
    ]);
    assert!(out.contains("min(QuotaUtils.throttleTime"), "{out}");
    assert!(out.contains("one window 2000 ms) = 2000 ms"), "{out}");
    insta::assert_snapshot!(out);
}

// StrictControllerMutationQuota.record / ControllerMutationQuotaManager.throttleTimeMs
// (Kafka's vector tb-default-50-every-100ms-strict: 60, 11, -38, then refused at -37 for 3700 ms).
#[test]
fn token_bucket_strict_refuses_below_zero_with_throttling_quota_exceeded() {
    let out = ok(&[
        "--stat", "token-bucket", "--quota", "10", "--record", "0:50", "--record", "100:50", "--record", "200:50",
        "--record", "300:50", "--at", "5s",
    ]);
    assert!(out.contains("1 of 4 requests refused with THROTTLING_QUOTA_EXCEEDED; the longest throttle is 3700 ms, at 300 ms."), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn token_bucket_permissive_json_and_a_bucket_starting_empty() {
    let out = ok(&[
        "--stat", "token-bucket", "--mode", "permissive", "--quota", "2", "--clock-start-ms", "0", "--record", "1s:5",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // On a clock starting at 0 the bucket holds 2 tokens at 1 s: 2 - 5 = -3, 1500 ms.
    assert_eq!(doc["rows"][0]["tokens"], -3.0);
    assert_eq!(doc["rows"][0]["accepted"], true);
    assert_eq!(doc["rows"][0]["throttle_ms"], 1500);
    assert_eq!(doc["burst"], 22.0);
    insta::assert_snapshot!(out);
}

#[test]
fn records_from_a_csv_on_standard_input() {
    let (code, out, err) = sensor(
        &["--quota", "1000", "--records-file", "-", "--json"],
        Some("at_ms,value\n# two records\n0,500\n1000,20000\n"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["summary"]["records"], 2);
    assert_eq!(doc["summary"]["violations"], 1);
}

// The fetch path's unrecord: Sensor.record(-bytes, now, false) (ClientQuotaManager.unrecordQuotaSensor).
#[test]
fn an_unchecked_record_throws_nothing_and_lowers_the_rate() {
    let out = ok(&["--quota", "1000", "--record", "0:20000", "--record", "0:-20000:unchecked", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["rows"][0]["violation"], true);
    assert_eq!(doc["rows"][1]["check"], false);
    assert_eq!(doc["rows"][1]["violation"], false);
    assert_eq!(doc["rows"][1]["rate"], 0.0);
    let out = ok(&["--quota", "1000", "--record", "0:20000", "--record", "0:-20000:unchecked"]);
    assert!(out.contains("unrecord -20000.0"), "{out}");
    assert!(out.contains("recorded unchecked"), "{out}");
}

#[test]
fn time_going_backwards_is_accepted_as_kafka_accepts_it() {
    let out = ok(&["--quota", "1000", "--record", "500:10", "--record", "100:10"]);
    assert!(out.contains("(time went backwards)"), "{out}");
    assert!(out.contains("Kafka accepts it"), "{out}");
}

#[test]
fn bad_input_is_named_with_the_reason() {
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "-5ms:10"], None);
    assert_eq!(code, 2);
    assert!(err.contains("'-5ms:10'") && err.contains("is negative"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "5ms"], None);
    assert_eq!(code, 2);
    assert!(err.contains("expected TIME:VALUE"), "{err}");
    let (code, _, err) = sensor(&["--quota", "NaN", "--record", "0:1"], None);
    assert_eq!(code, 2);
    assert!(err.contains("`NaN` is NaN"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:NaN"], None);
    assert_eq!(code, 2);
    assert!(err.contains("NaN"), "{err}");
    // Kafka 4.3.1 ClientQuotaControlManager.java:260 and :292-295.
    let (code, _, err) = sensor(&["--quota", "0", "--record", "0:1"], None);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "kafka-quota: --quota 0.0: Kafka refuses this producer_byte_rate (INVALID_REQUEST: Quota producer_byte_rate must be greater than 0, ClientQuotaControlManager.validateQuotaKeyValue).\n"
    );
    let (code, _, err) = sensor(&["--quota", "-1", "--record", "0:1"], None);
    assert_eq!(code, 2);
    assert!(err.contains("Quota producer_byte_rate must be greater than 0"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--at", "-1"], None);
    assert_eq!(code, 2);
    assert!(err.contains("is negative"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000.5", "--record", "0:1"], None);
    assert_eq!(code, 2);
    assert!(err.contains("producer_byte_rate cannot be a fractional value."), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--samples", "0", "--record", "0:1"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--samples"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000"], None);
    assert_eq!(code, 2);
    assert!(err.contains("needs something to record or read"), "{err}");
    let (code, _, err) = sensor(&["--stat", "token-bucket", "--quota-type", "producer_byte_rate", "--quota", "5", "--at", "0"], None);
    assert_eq!(code, 2);
    assert!(err.contains("is a windowed rate in Kafka"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--records-file", "-"], Some("0,1\n10;5\n"));
    assert_eq!(code, 1);
    assert_eq!(err, "kafka-quota: <stdin>:2: `10;5` is not a record; expected at_ms,value, e.g. 250,1048576, or at_ms,value,unchecked\n");
}
