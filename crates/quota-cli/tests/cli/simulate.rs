//! `kafka-quota simulate`: named outcomes (a run that lost records prints
//! Kafka's exception per failed client and exits 3), the `--json` document,
//! and the per-request trace of a textbook or a modelled run.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

use crate::common::{fixture, kafka_quota};

/// The 30 MB throttled producer with delivery.timeout.ms=1000: batches expire.
const EXPIRING: &str = "../../examples/producer-delivery-timeout.json";
/// The same run with Kafka's defaults: every record acknowledged.
const PLAIN: &str = "../../examples/producer-2mb-quota.json";
/// Case 1 of docs/textbook-network.md.
const TEXTBOOK: &str = "../../examples/textbook-producer.json";

/// The value after `key=` in `text`, up to the next space.
fn metric(text: &str, key: &str) -> u64 {
    text.split(&format!("{key}="))
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no {key} in {text}"))
        .parse()
        .unwrap()
}

#[test]
fn a_run_that_lost_records_names_the_exception_and_exits_3() {
    let out = kafka_quota()
        .args(["simulate", fixture(EXPIRING).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let errors = metric(&text, "record-error-total");
    let done = metric(&text, "records");
    assert!(errors > 0, "{text}");
    assert_eq!(errors + done, 30_000, "{text}");
    // Never a plain success: no "finished after", a FAILED line instead.
    assert!(!text.contains("finished after"), "{text}");
    assert!(
        text.contains("  FAILED: ended after ")
            && text.contains(&format!(" ms with {errors} of 30000 records lost")),
        "{text}"
    );
    assert!(
        text.contains("FAILED: records were lost (exit code 3):"),
        "{text}"
    );
    let summary = format!(
        "producer: {errors} of 30000 records failed: org.apache.kafka.common.errors.TimeoutException: \
         Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation (first at "
    );
    let line = text
        .lines()
        .find(|l| l.starts_with(&summary))
        .unwrap_or_else(|| panic!("no failure summary in {text}"));
    assert!(line.ends_with(" s; delivery.timeout.ms=1000)"), "{line}");
    // The first expiry: delivery.timeout.ms after the first batch, as seconds.
    let first: f64 = line[summary.len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1.0..1.5).contains(&first), "{line}");
    assert!(
        stderr.contains("producer-delivery-timeout.json: 1 client(s) lost records (exit code 3)."),
        "{stderr}"
    );
}

#[test]
fn json_carries_the_outcome_and_the_summaries() {
    let out = kafka_quota()
        .args(["simulate", "--json", fixture(EXPIRING).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"]["status"], "records-lost");
    assert_eq!(v["outcome"]["exit_code"], 3);
    let c = &v["clients"][0];
    let errors = c["record_error_total"].as_u64().unwrap();
    assert!(errors > 0);
    assert_eq!(v["outcome"]["failed_records"], errors);
    assert_eq!(v["outcome"]["failed_clients"][0]["name"], "producer");
    assert_eq!(c["outcome"]["status"], "failed");
    assert_eq!(c["outcome"]["records"], 30_000);
    let e = &c["outcome"]["exceptions"][0];
    assert_eq!(
        e["class"],
        "org.apache.kafka.common.errors.TimeoutException"
    );
    assert_eq!(e["count"], errors);
    assert_eq!(e["setting"], "delivery.timeout.ms");
    assert_eq!(e["setting_ms"], 1000);
    assert_eq!(
        e["message"],
        "Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation"
    );
    assert!(e["first_at_ms"].as_f64().unwrap() >= 1000.0);
    // The Timeline's client track names it too.
    assert_eq!(v["timeline"]["clients"][0]["outcome"], c["outcome"]);
    // One budget: the client-id's produce quota, with the throttles decided on it.
    let b = &v["budgets"][0];
    assert_eq!(
        b["mbean"],
        "kafka.server:type=Produce,client-id=throttled-producer-9b7ca577"
    );
    assert_eq!(b["bound"], 2_000_000.0);
    assert_eq!(b["members"][0], "producer");
    assert!(b["throttles"].as_u64().unwrap() > 0);
    // The modelled network's trace: one row per request, all of them.
    let requests = v["requests"].as_array().unwrap();
    assert_eq!(requests.len() as u64, c["requests"].as_u64().unwrap());
    assert_eq!(v["requests_capped"], false);
}

#[test]
fn a_completed_run_exits_0_and_its_timeline_has_no_outcome_field() {
    let out = kafka_quota()
        .args(["simulate", "--json", fixture(PLAIN).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"]["status"], "completed");
    assert_eq!(v["outcome"]["failed_records"], 0);
    assert_eq!(v["clients"][0]["outcome"]["status"], "completed");
    assert_eq!(v["clients"][0]["records_done"], 30_000);
    assert!(v["timeline"]["clients"][0].get("outcome").is_none());
    kafka_quota()
        .args(["simulate", fixture(PLAIN).to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("  finished after ").and(contains("FAILED").not()));
}

#[test]
fn json_summarises_throttles_per_client_and_per_budget_for_the_modelled_network() {
    let out = kafka_quota()
        .args(["simulate", "--json", fixture(PLAIN).to_str().unwrap()])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["clients"][0];
    let (responses, throttled) = (c["responses"].as_u64().unwrap(), c["throttled_responses"].as_u64().unwrap());
    assert!(throttled > 0 && throttled < responses, "{c}");
    // The mean over produce responses is the client's produce-throttle-time-avg
    // but for the client's 5 start-up responses (ApiVersions x 3, Metadata x 2
    // for a one-leader topic), 0 ms samples of the same sensor.
    let mean = c["throttle_mean_ms"].as_f64().unwrap();
    let avg = c["throttle_time_avg"].as_f64().unwrap();
    assert!((mean * responses as f64 / (responses + 5) as f64 - avg).abs() < 1e-9, "{c}");
    assert_eq!(c["throttle_max_ms"].as_f64(), c["throttle_time_max"].as_f64());
    assert!(c["first_throttle"]["throttle_ms"].as_i64().unwrap() > 0);
    let b = &v["budgets"][0];
    assert!(b["first_throttle_ms"].as_i64().unwrap() > 0);
    assert!(b["throttle_mean_ms"].as_f64().unwrap() > 0.0);
    // The windows' sums add up to every byte the broker accepted: the
    // records' payload plus batch and record overheads.
    let windows = b["recorded_by_sample"].as_array().unwrap();
    let total: f64 = windows.iter().map(|w| w[1].as_f64().unwrap()).sum();
    assert!((30_000.0 * 1000.0..30_000.0 * 1100.0).contains(&total), "{total}");
    // The first window holds the burst that got through before the first throttle.
    assert!(windows[0][1].as_f64().unwrap() > 10_000_000.0, "{}", windows[0]);
}

#[test]
fn a_textbook_run_prints_its_trace() {
    let out = kafka_quota()
        .args(["simulate", fixture(TEXTBOOK).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // docs/textbook-network.md case 1: the third request is throttled 4990
    // ms, the fourth 9995 ms.
    let table = [
        "requests (textbook trace, times in ms):",
        "  conn  k  send  bytes  arrive  start  record  recorded  accepted  throttle  received  mute-end",
        "  p 1 0 5000 5 5 5 5000 5000 0 5 5",
        "  p 2 5 5000 10 10 10 5000 5000 0 10 10",
        "  p 3 10 5000 15 15 15 5000 5000 4990 15 5005",
        "  p 4 5005 5000 5010 5010 5010 5000 5000 9995 5010 15005",
    ]
    .join("\n");
    assert!(text.contains(&table), "{text}");
}

#[test]
fn a_textbook_run_in_json_has_the_trace_and_summaries() {
    let out = kafka_quota()
        .args(["simulate", "--json", fixture(TEXTBOOK).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let requests = v["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 4);
    assert_eq!(requests[2]["seq"], 3);
    assert_eq!(requests[2]["throttle_ms"], 4990);
    assert_eq!(requests[3]["send_ms"], 5005);
    let c = &v["clients"][0]["textbook"]["stats"];
    assert_eq!(c["throttled_responses"], 2);
    assert_eq!(c["throttle_max_ms"], 9995);
    assert_eq!(c["first_throttle"]["record_ms"], 15);
    let b = &v["budgets"][0];
    assert_eq!(b["mbean"], "kafka.server:type=Produce,client-id=app");
    assert_eq!(b["textbook"]["stats"]["bytes_accepted_per_s"][0], 15_000);
    assert_eq!(v["outcome"]["status"], "completed");
}

#[test]
fn a_quota_no_connection_uses_is_named_and_an_empty_scenario_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // The example with the connection's client.id one character off.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(fixture(PLAIN)).unwrap()).unwrap();
    let cid = v["scenario"]["connections"][0]["client.id"].as_str().unwrap().to_owned();
    v["scenario"]["connections"][0]["client.id"] = Value::String(format!("{cid}x"));
    let typo = dir.path().join("typo.json");
    std::fs::write(&typo, v.to_string()).unwrap();
    kafka_quota()
        .args(["simulate", typo.to_str().unwrap()])
        .assert()
        .code(0)
        .stderr(contains(format!(
            "the quota clients/{cid} producer_byte_rate=2000000.0 applies to no connection of this scenario"
)));
    // acks=0: no produce response, but the client's start-up responses
    // (ApiVersions, Metadata) are 0 ms samples: 0, not NaN, as a real 4.3.1
    // producer reads (docs/real-kafka.md, acks0-client-quota).
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(fixture(PLAIN)).unwrap()).unwrap();
    v["scenario"]["workloads"][0]["producer"]["config"]["acks"] = Value::String("0".into());
    let acks0 = dir.path().join("acks0.json");
    std::fs::write(&acks0, v.to_string()).unwrap();
    kafka_quota()
        .args(["simulate", acks0.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("produce-throttle-time-avg=0.0 ms produce-throttle-time-max=0.0 ms\n"));
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, r#"{"format": "kafka-quota-playground/scenario", "version": 1, "scenario": {}}"#).unwrap();
    kafka_quota()
        .args(["simulate", empty.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(contains("the scenario has no workloads, so there is nothing to simulate"));
}

#[test]
fn json_lists_every_request_of_a_modelled_run() {
    let out = kafka_quota()
        .args(["simulate", "--json", fixture(PLAIN).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let requests = v["requests"].as_array().unwrap();
    let client = &v["clients"][0];
    assert_eq!(requests.len() as u64, client["requests"].as_u64().unwrap());
    assert_eq!(v["requests_capped"], false);
    for r in requests {
        for key in [
            "connection",
            "connection_index",
            "broker",
            "api",
            "seq",
            "send_ms",
            "request_bytes",
            "written_ms",
            "arrival_ms",
            "start_ms",
            "record_ms",
            "bytes_recorded",
            "throttle_ms",
            "response_bytes",
            "response_received_ms",
            "mute_end_ms",
            "waits",
        ] {
            assert!(r.get(key).is_some(), "no {key} in {r}");
        }
        assert_eq!(r["connection"], "producer");
        assert_eq!(r["api"], "produce");
        let at = |k: &str| r[k].as_f64().unwrap();
        assert!(at("send_ms") <= at("arrival_ms"), "{r}");
        assert!(at("arrival_ms") <= at("start_ms"), "{r}");
        assert!(at("start_ms") <= at("record_ms"), "{r}");
        assert!(at("record_ms") <= at("response_received_ms"), "{r}");
        for w in [
            "at_client_ms",
            "in_buffers_ms",
            "broker_queue_ms",
            "muted_ms",
        ] {
            assert!(r["waits"][w].as_f64().unwrap() >= 0.0, "{r}");
        }
    }
    // The throttled responses are the client's throttled responses.
    let throttled = requests
        .iter()
        .filter(|r| r["throttle_ms"].as_i64().unwrap() > 0)
        .count() as u64;
    assert!(throttled > 0);
    assert_eq!(client["throttled_responses"].as_u64().unwrap(), throttled);
    assert_eq!(
        requests[0]["throttle_ms"].as_i64().unwrap(),
        0,
        "the burst allowance lets the first request through"
    );
}

#[test]
fn text_output_of_a_modelled_run_has_no_request_table() {
    let out = kafka_quota()
        .args(["simulate", fixture(PLAIN).to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // The summed waits as before, and no per-request table (only --json has it).
    assert!(text.contains("request waits over 469 requests"), "{text}");
    assert!(!text.contains("\nrequests ("), "{text}");
}

/// A docs page's `kafka-quota` block (docs/scenario-text.md) runs as its
/// JSON does: the lab's 30 MB through a 2 MB/s users quota, every record
/// acknowledged; and `link` makes the playground link the widget opens.
#[test]
fn a_docs_block_in_text_form_simulates_and_links() {
    let block = "kafka-configs.sh --alter --add-config producer_byte_rate=2097152 --entity-type users --entity-name tenant-a\n\
                 connection: user=tenant-a client.id=app-1\n\
                 producer: records=30000 record.size=1000 acks=1 linger.ms=5 batch.size=65536\n";
    let out = kafka_quota().args(["simulate", "-"]).write_stdin(block).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("producer app-1 (principal User:tenant-a, client-id \"app-1\")"), "{text}");
    assert_eq!(metric(&text, "records"), 30_000, "{text}");
    kafka_quota()
        .args(["link", "-"])
        .write_stdin(block)
        .assert()
        .success()
        .stdout(contains("#v1."));
}

#[test]
fn a_text_block_with_mistakes_names_every_line_and_exits_1() {
    kafka_quota()
        .args(["simulate", "-"])
        .write_stdin("connection: listener=TLS\nproducr: records=1\n")
        .assert()
        .code(1)
        .stderr(contains("Line 1, column 13 of <stdin>: listener=TLS: Unknown variant `TLS`"))
        .stderr(contains("Line 2, column 1 of <stdin>: expected a kafka-configs.sh command or one of connection:"));
}

/// Issue 30: Ctrl-C stops a long run and prints the run so far, marked as
/// cut short, with exit code 130; memory stays flat while it runs.
#[cfg(unix)]
#[test]
fn ctrl_c_cuts_a_long_run_short_and_prints_what_ran() {
    let bin = assert_cmd::cargo::cargo_bin("kafka-quota");
    let child = std::process::Command::new(bin)
        .args(["simulate", fixture("../../tests/fixtures/big/day-producer.json").to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A day of this producer takes minutes: it is still running after 2 s.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("cut short by Ctrl-C at") && stderr.contains("(exit code 130)"), "{stderr}");
    assert!(stdout.contains("(CUT SHORT by Ctrl-C: the run so far; clients still running had not finished)"), "{stdout}");
    assert!(stdout.contains("had not finished when Ctrl-C cut the run short"), "{stdout}");
    // What ran is there: records acknowledged before the stop.
    assert!(metric(&stdout, "records") > 0, "{stdout}");
    assert!(!stderr.contains("simulating"), "no bar when stderr is not a terminal: {stderr}");
}

/// Issue 29: a consumer's summary uses the Java consumer's metric names
/// (FetchMetricsRegistry), never the producer's.
#[test]
fn a_consumer_summary_names_the_consumers_metrics() {
    let out = kafka_quota()
        .args(["simulate", fixture("../../examples/consumer-2mb-quota.json").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  fetch-throttle-time-avg="), "{text}");
    assert_eq!(metric(&text, "records-consumed-total"), 30_000, "{text}");
    assert!(metric(&text, "bytes-consumed-total") > 30_000_000, "{text}");
    assert!(metric(&text, "fetch-total") > 0, "{text}");
    for producer in ["produce-throttle", "record-retry-total", "record-error-total", " records=", "buffer-used-max"] {
        assert!(!text.contains(producer), "{producer}: {text}");
    }
}

/// Issue 29: a textbook run's summary says what it has, bytes in
/// requests, and no records, retries, errors or buffer.
#[test]
fn a_textbook_summary_prints_bytes_and_requests_only() {
    for (file, line) in [
        (TEXTBOOK, "  bytes=20000 requests=4 bytes/s over the run=3992 (a textbook run moves bytes in requests: no records, retries or errors)\n"),
        ("../../examples/textbook-consumer.json", "  bytes=20000 requests=4 bytes/s over the run=999.5 (a textbook run moves bytes in requests: no records, retries or errors)\n"),
    ] {
        let out = kafka_quota().args(["simulate", fixture(file).to_str().unwrap()]).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(line), "{file}: {text}");
        for modelled in ["records=", "record-retry-total", "records-consumed-total", "buffer-used-max"] {
            assert!(!text.contains(modelled), "{file}: {modelled}: {text}");
        }
    }
}

/// 40 topics of 10 partitions under controller_mutation_rate=20 (KIP-599).
const ADMIN: &str = "../../examples/admin-create-topics.json";

#[test]
fn an_admin_client_under_a_mutation_quota_prints_its_budget_requests_and_topics() {
    let out = kafka_quota().args(["simulate", fixture(ADMIN).to_str().unwrap()]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("admin (Admin client, createTopics CreateTopics v7, strict mode): principal User:ANONYMOUS, client-id \"admin-burst\""), "{stdout}");
    assert!(stdout.contains("controller_mutation_rate 20.0 mutations/s, a burst of 220.0 tokens (10 partitions a topic)"), "{stdout}");
    assert!(stdout.contains("All 40 topics created in 8,"), "{stdout}");
    assert!(stdout.contains("23 accepted, 17 refused with THROTTLING_QUOTA_EXCEEDED; tokens 220.0 -> -10.0; throttle_time_ms 475"), "{stdout}");
    assert!(stdout.contains("topics: 40 done, 0 ThrottlingQuotaExceededException, 0 TimeoutException"), "{stdout}");
}

#[test]
fn admin_topics_that_fail_at_the_deadline_exit_3_and_say_so_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(fixture(ADMIN)).unwrap()).unwrap();
    v["scenario"]["workloads"][0]["admin"]["topics"] = 60.into();
    v["scenario"]["workloads"][0]["admin"]["config"] = serde_json::json!({"default.api.timeout.ms": 5000, "request.timeout.ms": 5000});
    let file = dir.path().join("timeout.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let out = kafka_quota().args(["simulate", file.to_str().unwrap()]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("FAILED: Admin calls' topics failed (exit code 3):"), "{stdout}");
    assert!(stdout.contains("admin: 32 of 60 topics created; 28 failed with ThrottlingQuotaExceededException"), "{stdout}");
    assert!(String::from_utf8(out.stderr).unwrap().contains("1 Admin client(s) had topics fail (exit code 3)"));
    let out = kafka_quota().args(["simulate", "--json", file.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["outcome"]["status"], "topics-failed");
    assert_eq!(doc["outcome"]["failed_admin_clients"][0]["name"], "admin");
    let admin = &doc["timeline"]["admin"][0];
    assert_eq!(admin["requests"][0]["accepted"], 23);
    let failed = admin["topics"].as_array().unwrap().iter().filter(|t| t["outcome"] == "quota_exceeded").count();
    assert_eq!(failed, 28);
}

#[test]
fn a_pool_of_connections_under_an_ip_quota_prints_its_limits_refusals_and_ready_times() {
    let out = kafka_quota()
        .args(["simulate", fixture("../../examples/connection-pool-ip-quota.json").to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("apps (pool of 30 connection(s) from 10.0.0.9 to broker 0)"), "{stdout}");
    assert!(stdout.contains("limits: connection_creation_rate 2 on ips/10.0.0.9; max.connection.creation.rate unlimited"), "{stdout}");
    assert!(stdout.contains("All 30 connections were ready by 12,"), "{stdout}");
    // 20 fit the 10 s minimum window at 2/s; the 21st, taken at 20 ms (one
    // acceptor pass a ms), measures 21 / 10.02 s: (2.0958 - 2) / 2 x 10,020
    // = 480 ms, and the acceptor's next loop after that is its select
    // timeout 500 ms after the burst's last pass.
    assert!(stdout.contains("first refusal: taken by the acceptor at 20.0 ms, throttle 480 ms, socket closed at 530.1 ms"), "{stdout}");
}

#[test]
fn seeds_print_the_spread_of_a_run_near_its_quota() {
    let out = kafka_quota()
        .args(["simulate", "--seeds", "5", fixture("../../examples/producer-2mb-quota.json").to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(": 5 runs, one per seed"), "{stdout}");
    assert!(stdout.contains("throttled in every one of 5 runs (seeds 1-5); duration "), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count(), 5, "{stdout}");
    let out = kafka_quota()
        .args(["simulate", "--seeds", "3", "--json", fixture("../../examples/producer-2mb-quota.json").to_str().unwrap()])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["seeds"], serde_json::json!([1, 2, 3]));
    assert_eq!(doc["clients"][0]["duration_ms"].as_array().unwrap().len(), 3);
    kafka_quota()
        .args(["simulate", "--seeds", "0", fixture("../../examples/producer-2mb-quota.json").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("--seeds"));
}

#[test]
fn admin_topics_or_connections_left_at_the_horizon_make_the_run_stopped_not_completed() {
    let dir = tempfile::tempdir().unwrap();
    for example in [ADMIN, "../../examples/connection-pool-ip-quota.json"] {
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(fixture(example)).unwrap()).unwrap();
        v["scenario"]["horizon_ms"] = 3000.into();
        let file = dir.path().join("short.json");
        std::fs::write(&file, v.to_string()).unwrap();
        let out = kafka_quota().args(["simulate", "--json", file.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{example}");
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["outcome"]["status"], "stopped", "{example}");
        assert_eq!(doc["timeline"]["hit_horizon"], true, "{example}");
    }
}
