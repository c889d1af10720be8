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

// ClientQuotaManager.updateQuotaMetricConfigs replaces the metric's config;
// Sensor.checkQuotas reads config.quota() (Kafka 4.3.1). By hand, 11 samples of
// 1 s, so the window is padded to 10 000 ms + the time since the first record:
// - 0 ms: 6e6 / 10.0 s = 600000 <= 1e6, within;
// - 100 ms: quota set to 5e5 (samples kept; the row, read from a copy, is
//   6e6 / 10.1 s = 594059.405940594);
// - 200 ms: 7e6 / 10.2 s = 686274.5098039216 > 5e5: throttle
//   round((686274.5... - 5e5) / 5e5 x 10200) = (7e9 - 5.1e9) / 5e5 = 3800 ms;
// - 300 ms: quota set to 2e6;
// - 400 ms: 8e6 / 10.4 s = 769230.7692307692 <= 2e6, within (over the 5e5 before).
#[test]
fn a_quota_change_applies_the_new_bound_to_the_kept_samples() {
    let out = ok(&[
        "--quota", "1000000", "--record", "0:6000000", "--set-quota", "100:500000", "--record", "200:1000000",
        "--set-quota", "300ms:2000000", "--record", "400:1000000",
    ]);
    assert!(
        out.starts_with("Rate (producer_byte_rate) against 1000000.0 bytes/s, 11 samples of 1 s, then quota 500000.0 at 100 ms, 2000000.0 at 300 ms: 1 of 3 records over the quota; the longest throttle is 3800 ms, at 200 ms."),
        "{out}"
    );
    assert!(out.contains("    100 ms  quota set to 500000.0"), "{out}");
    assert!(out.contains("Math.round((686274.5098039216 - 500000.0) / 500000.0 x 10200) = 3800 ms"), "{out}");
    insta::assert_snapshot!(out);
    let doc: serde_json::Value = serde_json::from_str(&ok(&[
        "--quota", "1000000", "--record", "0:6000000", "--set-quota", "100:500000", "--record", "200:1000000",
        "--set-quota", "300ms:2000000", "--record", "400:1000000", "--json",
    ]))
    .expect("JSON");
    let rows = doc["rows"].as_array().expect("rows");
    let events: Vec<&str> = rows.iter().map(|r| r["event"].as_str().expect("event")).collect();
    assert_eq!(events, ["record", "set_quota", "record", "set_quota", "record"]);
    assert_eq!(doc["quota"], 1_000_000.0);
    assert_eq!(rows[1]["quota"], 500_000.0);
    assert_eq!(rows[1]["value"], serde_json::Value::Null);
    assert_eq!(rows[1]["violation"], false);
    assert_eq!(rows[1]["rate"], 594_059.405_940_594);
    assert_eq!(rows[2]["throttle_ms"], 3800);
    assert_eq!(rows[2]["rate"], 686_274.509_803_921_6);
    assert_eq!(rows[3]["quota"], 2_000_000.0);
    assert_eq!(rows[4]["violation"], false);
    assert_eq!(rows[4]["rate"], 769_230.769_230_769_2);
}

// TokenBucket.measure/record read config.quota().bound() at each call, so the
// refill after a change runs at the new quota for the whole gap since the last
// refill and clamps to the new burst (Kafka 4.3.1 TokenBucket.java). By hand,
// strict, 11 samples of 1 s, an epoch clock (the bucket starts full, 110):
// - 0 ms: 110 - 100 = 10;
// - 0 ms: quota set to 1: burst 11 (the row, read from a copy: min(11, 10) = 10);
// - 1000 ms: min(11, 10 + 1 x 1) = 11 >= 0, recorded: 11 - 30 = -19;
// - 2000 ms: -19 + 1 = -18 < 0, refused: round(18 / 1 x 1000) = 18000 ms;
// - 2500 ms: quota set to 10 (burst 110; no tokens added: the row, read from a
//   copy, is what a read would return, -18 + 10 x 0.5 = -13);
// - 3000 ms: -18 + 10 x 1.0 (the whole second since the refill at 2000 ms, at the
//   new quota) = -8, refused: round(8 / 10 x 1000) = 800 ms.
#[test]
fn a_bucket_quota_change_refills_at_the_new_quota_and_clamps_to_the_new_burst() {
    let out = ok(&[
        "--stat", "token-bucket", "--quota", "10", "--record", "0:100", "--set-quota", "0:1", "--record", "1s:30",
        "--record", "2s:1", "--set-quota", "2.5s:10", "--record", "3s:1", "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let rows = doc["rows"].as_array().expect("rows");
    let tokens: Vec<f64> = rows.iter().map(|r| r["tokens"].as_f64().expect("tokens")).collect();
    assert_eq!(tokens, [10.0, 10.0, -19.0, -18.0, -13.0, -8.0]);
    assert_eq!(rows[1]["event"], "set_quota");
    assert_eq!(rows[1]["burst"], 11.0);
    assert_eq!(rows[1]["accepted"], serde_json::Value::Null);
    assert_eq!(rows[3]["accepted"], false);
    assert_eq!(rows[3]["throttle_ms"], 18000);
    assert_eq!(rows[4]["burst"], 110.0);
    assert_eq!(rows[5]["accepted"], false);
    assert_eq!(rows[5]["throttle_ms"], 800);
    assert_eq!(doc["burst"], 110.0);
    insta::assert_snapshot!(out);
}

#[test]
fn a_records_file_carries_quota_changes_as_set_quota_rows() {
    // As the first rate test above: 3800 ms at 200 ms, within at 400 ms.
    let (code, out, err) = sensor(
        &["--quota", "1000000", "--records-file", "-", "--json"],
        Some("at_ms,value\n0,6000000\n100,500000,set_quota\n200,1000000\n300,2000000,set_quota\n400,1000000\n"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["summary"]["records"], 3);
    assert_eq!(doc["rows"][1]["event"], "set_quota");
    assert_eq!(doc["rows"][2]["throttle_ms"], 3800);
    assert_eq!(doc["rows"][4]["violation"], false);
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
    assert_eq!(err, "kafka-quota: <stdin>:2: `10;5` is not a record; expected at_ms,value, e.g. 250,1048576, at_ms,value,unchecked or at_ms,bound,set_quota\n");
    // A new bound is checked as --quota is (ClientQuotaControlManager.validateQuotaKeyValue).
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:1", "--set-quota", "5s:0"], None);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "kafka-quota: --set-quota 5000ms:0.0: Kafka refuses this producer_byte_rate (INVALID_REQUEST: Quota producer_byte_rate must be greater than 0, ClientQuotaControlManager.validateQuotaKeyValue).\n"
    );
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:1", "--set-quota", "5s:2.5"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--set-quota 5000ms:2.5: Kafka refuses this producer_byte_rate") && err.contains("cannot be a fractional value."), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:1", "--set-quota", "5s"], None);
    assert_eq!(code, 2);
    assert!(err.contains("'5s' for '--set-quota <TIME:BOUND>'") && err.contains("expected TIME:BOUND"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:1", "--set-quota", "-1:5"], None);
    assert_eq!(code, 2);
    assert!(err.contains("is negative"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--record", "0:1", "--set-quota", "1:NaN"], None);
    assert_eq!(code, 2);
    assert!(err.contains("the bound of `1:NaN`: `NaN` is NaN"), "{err}");
    let (code, _, err) = sensor(&["--quota", "1000", "--records-file", "-"], Some("0,1\n5,-3,set_quota\n"));
    assert_eq!(code, 1);
    assert!(err.starts_with("kafka-quota: <stdin>:2: the bound -3.0: Kafka refuses this producer_byte_rate"), "{err}");
}
