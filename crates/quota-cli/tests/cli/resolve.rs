//! `kafka-quota resolve` as operators read it, pinned by snapshots (insta,
//! files in `snapshots/`): the answer first, one line per quota type; the
//! trace only with `--explain`, each single-level skip once; one quota
//! type with `--quota-type`; `--json` with its format, version and rung
//! numbers; a runbook with a failing command, which still resolves with
//! the other commands (exit code 4) unless `--strict` (exit code 1).
//!
//! Each snapshot is the command line, the exit code, stdout and stderr.

use std::path::PathBuf;

use super::common::kafka_quota;

/// The workspace root, where `examples/` lives; commands run there so the
/// file names in the output are the relative ones an operator types.
fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `kafka-quota ARGS` (with `stdin` on standard input) and returns
/// the report a snapshot pins, and the exit code.
fn run(args: &[&str], stdin: Option<&str>) -> (String, i32) {
    let mut cmd = kafka_quota();
    cmd.current_dir(root()).args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.output().expect("kafka-quota runs");
    let code = out.status.code().expect("an exit code");
    let report = format!(
        "$ kafka-quota {}\nexit code: {code}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    );
    (report, code)
}

const SASL_USER: [&str; 9] = [
    "resolve",
    "--quotas",
    "examples/runbook.sh",
    "--listener",
    "SASL_SSL",
    "--user",
    "tenantUserA",
    "--client-id",
    "batch-loader",
];

#[test]
fn answer_first_for_a_sasl_user() {
    let (report, code) = run(&SASL_USER, None);
    assert_eq!(code, 0);
    // The answer is the first thing printed: no "Connection:" preamble.
    assert!(
        report.contains("--- stdout\nUser:tenantUserA, client-id \"batch-loader\""),
        "{report}"
    );
    insta::assert_snapshot!(report);
}

#[test]
fn explain_adds_the_trace_with_each_skip_reason_once() {
    let mut args = SASL_USER.to_vec();
    args.push("--explain");
    let (report, code) = run(&args, None);
    assert_eq!(code, 0);
    // consumer_byte_rate: only user quotas exist; the six skipped rungs are one line.
    assert_eq!(
        report
            .matches("not looked at: only user quotas exist for consumer_byte_rate")
            .count(),
        1
    );
    assert!(
        report.contains("     1-2, 4-5, 7-8: not looked at"),
        "{report}"
    );
    insta::assert_snapshot!(report);
}

#[test]
fn quota_type_resolves_one_type_by_key_or_short_name() {
    let mut args = SASL_USER.to_vec();
    args.extend(["--quota-type", "consumer_byte_rate"]);
    let (report, code) = run(&args, None);
    assert_eq!(code, 0);
    insta::assert_snapshot!(report);
    // `fetch` is the same type, by Kafka's QuotaType name.
    let mut short = SASL_USER.to_vec();
    short.extend(["--quota-type", "fetch"]);
    let (short_report, _) = run(&short, None);
    assert_eq!(
        short_report.split_once("exit code").map(|(_, r)| r),
        report.split_once("exit code").map(|(_, r)| r)
    );
    // Anything else is a usage error naming the valid types.
    let mut bad = SASL_USER.to_vec();
    bad.extend(["--quota-type", "connection_creation_rate"]);
    let (bad_report, code) = run(&bad, None);
    assert_eq!(code, 2);
    assert!(
        bad_report.contains("[possible values: producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate]"),
        "{bad_report}"
    );
}

#[test]
fn json_has_format_version_rung_numbers_and_units() {
    let mut args = SASL_USER.to_vec();
    args.extend(["--json", "--quota-type", "produce"]);
    let mut cmd = kafka_quota();
    let out = cmd.current_dir(root()).args(&args).output().expect("runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["format"], "kafka-quota/resolve");
    assert_eq!(v["version"], 1);
    let produce = &v["resolutions"][0];
    assert_eq!(v["resolutions"].as_array().map(Vec::len), Some(1));
    assert_eq!(produce["key"], "producer_byte_rate");
    assert_eq!(produce["unit"], "bytes/s per broker");
    assert_eq!(produce["limit"], 500000.0);
    assert_eq!(produce["limit_kafka"], "500000.0");
    assert_eq!(produce["limit_human"], "500 kB/s");
    assert_eq!(produce["matched"]["rung"], 1);
    assert_eq!(produce["matched"]["rung_name"], "user-client-id");
    assert_eq!(produce["tag_decision"]["rung"], 1);
    // users/tenantUserA (rung 3) is shadowed by rung 1.
    assert_eq!(produce["trace"][2]["rung"], 3);
    assert_eq!(produce["trace"][2]["outcome"]["by"], 1);
    assert_eq!(
        produce["quota_types_enabled"],
        serde_json::json!({"bits": 6, "entity_kinds": ["user", "user-client-id"]})
    );
    assert_eq!(v["skipped_lines"], serde_json::json!([]));
    // The whole document, pinned.
    insta::assert_snapshot!(String::from_utf8(out.stdout).expect("UTF-8"));
}

/// A runbook whose second and third commands fail (a value that is not a
/// number; an unexpanded variable).
const BAD_RUNBOOK: &str = "\
# tenant quotas
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=10000000 --entity-type users --entity-name alice
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=10MB --entity-type users --entity-default
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config consumer_byte_rate=$RATE --entity-type users --entity-name alice
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config request_percentage=200 --entity-type clients --entity-default
";

#[test]
fn a_runbook_with_bad_lines_resolves_with_the_good_ones() {
    let args = [
        "resolve",
        "--quotas",
        "-",
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "alice",
        "--client-id",
        "app",
    ];
    let (report, code) = run(&args, Some(BAD_RUNBOOK));
    assert_eq!(code, 4, "{report}");
    assert!(
        report.contains("warning: <stdin>:3: this command is skipped"),
        "{report}"
    );
    assert!(
        report.contains("warning: <stdin>:4: this command is skipped"),
        "{report}"
    );
    // The good lines: alice's 10 MB/s and clients/<default> 200 %.
    assert!(
        report.contains("10 MB/s per broker (1.0E7 bytes/s) from users/alice (rung 3)"),
        "{report}"
    );
    assert!(
        report.contains(
            "2 threads' time per broker (200.0 % of one thread) from clients/<default> (rung 8)"
        ),
        "{report}"
    );
    insta::assert_snapshot!(report);
    // The JSON names the skipped lines too, with the same exit code.
    let mut json = args.to_vec();
    json.push("--json");
    let mut cmd = kafka_quota();
    let out = cmd
        .args(&json)
        .write_stdin(BAD_RUNBOOK)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["skipped_lines"][0]["line"], 3);
    assert_eq!(v["skipped_lines"][1]["line"], 4);
    assert_eq!(v["resolutions"][0]["limit"], 1.0e7);
}

#[test]
fn strict_refuses_a_runbook_with_bad_lines() {
    let args = [
        "resolve",
        "--strict",
        "--quotas",
        "-",
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "alice",
    ];
    let (report, code) = run(&args, Some(BAD_RUNBOOK));
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("--- stdout\n--- stderr\n"), "{report}");
    insta::assert_snapshot!(report);
}

#[test]
fn a_runbook_where_nothing_applies_is_refused() {
    let only_bad: String = BAD_RUNBOOK
        .lines()
        .skip(2)
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let args = ["resolve", "--quotas", "-", "--listener", "PLAINTEXT"];
    let (report, code) = run(&args, Some(&only_bad));
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains("kafka-quota: no command of <stdin> could be applied"),
        "{report}"
    );
}

#[test]
fn principal_warnings_go_to_stderr_only() {
    // A PLAINTEXT connection gets the ANONYMOUS warning.
    let args = [
        "resolve",
        "--quotas",
        "examples/runbook.sh",
        "--listener",
        "PLAINTEXT",
        "--client-id",
        "reporting-job",
    ];
    let (report, code) = run(&args, None);
    assert_eq!(code, 0);
    let (stdout, stderr) = report.split_once("--- stderr\n").expect("two parts");
    assert!(!stdout.contains("warning"), "{stdout}");
    assert!(stderr.starts_with("warning: "), "{stderr}");
    insta::assert_snapshot!(report);
}

#[test]
fn help_documents_the_exit_codes_and_the_flags() {
    let out = kafka_quota()
        .args(["resolve", "--help"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).expect("UTF-8");
    for needle in [
        "--quota-type <TYPE>",
        "--explain",
        "--strict",
        "  0  answered\n",
        "  4  answered, but some kafka-configs.sh commands or Terraform resources of --quotas failed and were left out; each is named on stderr as FILE:LINE: reason",
    ] {
        assert!(help.contains(needle), "{needle:?} missing from:\n{help}");
    }
}

#[test]
fn a_nan_limit_is_the_string_nan_in_json_not_null() {
    // Kafka accepts producer_byte_rate=NaN; null would read as "unlimited".
    let runbook = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=NaN --entity-type users --entity-name a\n";
    let out = kafka_quota()
        .args([
            "resolve",
            "--quotas",
            "-",
            "--listener",
            "SASL_SSL",
            "--user",
            "a",
        ])
        .args(["--quota-type", "producer_byte_rate", "--json"])
        .write_stdin(runbook)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let produce = &v["resolutions"][0];
    assert_eq!(produce["limit"], "NaN");
    assert_eq!(produce["limit_kafka"], "NaN");
    assert_eq!(produce["matched"]["value"], "NaN");
    assert_eq!(produce["matched"]["rung"], 3);
    assert_eq!(produce["trace"][2]["configured"], "NaN");
}

#[test]
fn ip_beside_a_connection_is_part_of_the_answer() {
    let runbook = "\
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config connection_creation_rate=5 --entity-type ips --entity-default
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1048576 --entity-type users --entity-name alice
";
    let args = [
        "resolve",
        "--quotas",
        "-",
        "--listener",
        "SASL_SSL",
        "--user",
        "alice",
        "--ip",
        "10.1.1.1",
        "--quota-type",
        "produce",
    ];
    let (report, code) = run(&args, Some(runbook));
    assert_eq!(code, 0, "{report}");
    assert!(report.contains(
        "--- stdout\n\
         User:alice, client-id \"\", SASL_SSL listener:\n  \
         producer_byte_rate        1.05 MB/s = 1 MiB/s per broker (1048576.0 bytes/s) from users/alice (rung 3); shared by all connections of user alice, whatever their client-id\n\
         New connections from 10.1.1.1 are limited to 5.0 connections/s per broker by ips/<default>, the default for every address without an ips/ quota of its own.\n\
         --- stderr\n"
    ), "{report}");
    // --explain adds the detail once, after the rungs; the sentence is not repeated.
    let mut explain = args.to_vec();
    explain.push("--explain");
    let (report, _) = run(&explain, Some(runbook));
    assert_eq!(
        report.matches("New connections from 10.1.1.1").count(),
        1,
        "{report}"
    );
    assert!(report.contains("\nconnection_creation_rate (ip 10.1.1.1):\n  limit: 5.0 connections/s per broker from ips/<default>\n"), "{report}");
}

#[test]
fn a_client_certificate_on_sasl_ssl_is_valid_and_the_principal_comes_from_sasl() {
    let with_user = kafka_quota()
        .args(["resolve", "--quotas", "examples/runbook.sh", "--listener", "SASL_SSL", "--user", "tenantUserA", "--dn", "CN=app,OU=eng"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    assert_eq!(with_user.status.code(), Some(0));
    let stdout = String::from_utf8(with_user.stdout).unwrap();
    let stderr = String::from_utf8(with_user.stderr).unwrap();
    assert!(stdout.starts_with("User:tenantUserA, client-id \"\", SASL_SSL listener:"), "{stdout}");
    assert!(stderr.contains("on a SASL_SSL listener the principal comes from SASL"), "{stderr}");
    // A certificate alone on SASL_SSL: the SASL identity is missing, said
    // without naming an internal type.
    let alone = kafka_quota()
        .args(["resolve", "--quotas", "examples/runbook.sh", "--listener", "SASL_SSL", "--dn", "CN=app"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    assert_eq!(alone.status.code(), Some(1));
    let stderr = String::from_utf8(alone.stderr).unwrap();
    assert!(stderr.contains("a SASL_SSL connection is authenticated by SASL: give its identity with --user"), "{stderr}");
    assert!(!stderr.contains("quota_engine::"), "{stderr}");
}

#[test]
fn the_identity_flags_read_as_the_pages_connection_spec() {
    let run = |args: &[&str]| {
        let out = kafka_quota()
            .args(["resolve", "--quotas", "examples/runbook.sh"])
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .expect("runs");
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    // PLAINTEXT: the identity is ignored (the page's "ignored on PLAINTEXT"),
    // and the principal builder's warning says so, in the text and in the
    // principal's warnings of --json, as before the flags became a spec.
    let (code, stdout, stderr) = run(&["--listener", "PLAINTEXT", "--user", "tenantUserA"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("User:ANONYMOUS, client-id \"\", PLAINTEXT listener:"), "{stdout}");
    assert!(stderr.contains("warning: A PLAINTEXT listener does not authenticate: the identity given is ignored."), "{stderr}");
    let (code, stdout, stderr) = run(&["--listener", "PLAINTEXT", "--dn", "CN=app", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let warnings = doc.pointer("/principal/warnings").and_then(|w| w.as_array()).expect("principal.warnings");
    assert!(warnings.iter().any(|w| w.as_str().is_some_and(|w| w.starts_with("A PLAINTEXT listener does not authenticate"))), "{stdout}");
    // advise says it too (on stderr, as resolve).
    let out = kafka_quota()
        .args(["advise", "--quotas", "examples/runbook.sh", "--listener", "PLAINTEXT", "--user", "tenantUserA", "--quota-type", "producer_byte_rate", "--want", "1000000"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("warning: A PLAINTEXT listener does not authenticate: the identity given is ignored."), "{stderr}");
    // A mechanism that contradicts the identity flag is a usage error,
    // never read as another kind of name (--kerberos X --mechanism PLAIN
    // is not User:X).
    for (args, says) in [
        (&["--kerberos", "tenantUserA/host@EXAMPLE.COM", "--mechanism", "PLAIN"][..], "--mechanism PLAIN contradicts --kerberos"),
        (&["--oauth-sub", "tenantUserA", "--mechanism", "SCRAM-SHA-512"][..], "--mechanism SCRAM-SHA-512 contradicts --oauth-sub"),
        (&["--user", "tenantUserA", "--mechanism", "GSSAPI"][..], "--mechanism GSSAPI contradicts --user"),
        (&["--user", "tenantUserA", "--mechanism", "OAUTHBEARER"][..], "--mechanism OAUTHBEARER contradicts --user"),
    ] {
        let (code, stdout, stderr) = run(&[&["--listener", "SASL_SSL"][..], args].concat());
        assert_eq!(code, Some(1), "{args:?}: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
    // A mechanism that fits the flag is taken.
    let (code, stdout, stderr) = run(&["--listener", "SASL_SSL", "--user", "tenantUserA", "--mechanism", "SCRAM-SHA-256"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("User:tenantUserA, client-id \"\", SASL_SSL listener:"), "{stdout}");
    // A SASL name on SSL is a usage mistake, said as one.
    let (code, _, stderr) = run(&["--listener", "SSL", "--user", "tenantUserA"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("an SSL listener authenticates by the client certificate alone"), "{stderr}");
    // --kerberos alone means GSSAPI, as the page's mechanism would be set.
    let (code, stdout, stderr) = run(&["--listener", "SASL_PLAINTEXT", "--kerberos", "tenantUserA/host@EXAMPLE.COM"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("User:tenantUserA, client-id \"\", SASL_PLAINTEXT listener:"), "{stdout}");
}

#[test]
fn the_anonymous_warning_appears_only_where_a_named_user_quota_could_fail() {
    let dir = tempfile::tempdir().unwrap();
    let only_clients = dir.path().join("clients.sh");
    std::fs::write(
        &only_clients,
        "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024 --entity-type clients --entity-name app\n",
    )
    .unwrap();
    let out = kafka_quota()
        .args(["resolve", "--listener", "PLAINTEXT", "--client-id", "app", "--quotas"])
        .arg(&only_clients)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8(out.stderr).unwrap().contains("User:ANONYMOUS"));
}

#[test]
fn a_quota_one_edit_away_is_named_on_stderr() {
    let out = kafka_quota()
        .args(["resolve", "--quotas", "examples/kafkauser-tls.yaml", "--listener", "SSL", "--dn", "CN=my-app,OU=eng"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("note: did you mean: users/CN=my-app, with producer_byte_rate = 1.05 MB/s = 1 MiB/s per broker (1048576.0 bytes/s), never applies to principal \"CN=my-app,OU=eng\""),
        "{stderr}"
    );
    assert!(!String::from_utf8(out.stdout).unwrap().contains("did you mean"));
}

#[test]
fn a_nan_or_infinite_quota_is_said_to_never_delay() {
    let (report, code) = run(
        &["resolve", "--quotas", "-", "--listener", "SASL_PLAINTEXT", "--user", "a"],
        Some("kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type users --entity-name a --add-config producer_byte_rate=NaN,request_percentage=Infinity,controller_mutation_rate=NaN\n"),
    );
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("producer_byte_rate        NaN bytes/s per broker (NaN: metered, never delays: every check fails with a 0 ms throttle) from users/a (rung 3)"), "{report}");
    assert!(report.contains("Infinity % of one broker thread (Infinity: never exceeded)"), "{report}");
    assert!(report.contains("controller_mutation_rate  NaN partition mutations/s (NaN: metered, never throttles) from users/a (rung 3)"), "{report}");
}

#[test]
fn convert_reads_a_runbook_as_resolve_does_and_strict_refuses_it() {
    let (report, code) = run(&["convert", "--to", "describe", "-"], Some(BAD_RUNBOOK));
    assert_eq!(code, 4, "{report}");
    // The good commands are written; the failing ones are named on stderr.
    assert!(report.contains("Quota configs for user-principal 'alice' are producer_byte_rate=1.0E7"), "{report}");
    assert!(report.contains("Quota configs for the default client-id are request_percentage=200.0"), "{report}");
    assert!(
        report.contains("warning: <stdin>:3: this command is skipped, the rest is converted without it:"),
        "{report}"
    );
    assert!(report.contains("warning: <stdin>:4: this command is skipped"), "{report}");
    assert!(report.contains("kafka-quota: 2 commands of <stdin> skipped"), "{report}");
    // --strict: the first failure, nothing on stdout.
    let (strict, code) = run(&["convert", "--strict", "--to", "describe", "-"], Some(BAD_RUNBOOK));
    assert_eq!(code, 1, "{strict}");
    assert!(strict.contains("--- stdout\n--- stderr\nLine 3, column"), "{strict}");
}

#[test]
fn a_terraform_file_is_read_resource_by_resource() {
    let tf = "resource \"kafka_quota\" \"a\" {\n  entity_name = \"alice\"\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = 1000000\n  }\n}\n\
              resource \"kafka_quota\" \"b\" {\n  entity_name = module.users.name\n  entity_type = \"user\"\n  config = {\n    producer_byte_rate = 1000\n  }\n}\n";
    let args = ["resolve", "--quotas", "-", "--listener", "SASL_PLAINTEXT", "--user", "alice", "--quota-type", "produce"];
    let (report, code) = run(&args, Some(tf));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("1 MB/s per broker (1000000.0 bytes/s) from users/alice (rung 3)"), "{report}");
    assert!(report.contains("warning: <stdin>:9: this resource is skipped, the answer is given without it: the Terraform expression `module.users.name` stands in entity_name"), "{report}");
    assert!(report.contains("kafka-quota: 1 resource of <stdin> skipped; the answer is for the other resources (exit code 4"), "{report}");
    // --strict: the first failure, exit code 1.
    let mut strict = args.to_vec();
    strict.push("--strict");
    let (report, code) = run(&strict, Some(tf));
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("Line 9, column 17 of <stdin>: the Terraform expression"), "{report}");
}

#[test]
fn convert_says_nothing_of_skips_when_it_writes_nothing() {
    // The one command that works sets a (user, client-id) quota, which a
    // kafka_quota cannot hold: nothing is written, exit code 1, and no
    // "the output holds ..." line.
    let runbook = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1000 --entity-type users --entity-name a --entity-type clients --entity-name c\n\
                   kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=lots --entity-type users --entity-name b\n";
    let (report, code) = run(&["convert", "--to", "terraform", "-"], Some(runbook));
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("nothing is printed"), "{report}");
    assert!(!report.contains("exit code 4"), "{report}");
    // A --describe command alters nothing: with the failing ones, nothing applies.
    let describe_only = "kafka-configs.sh --bootstrap-server b:9092 --describe --entity-type users\n\
                         kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=lots --entity-type users --entity-name b\n\
                         kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=x --entity-type users --entity-name c\n";
    let (report, code) = run(&["convert", "--to", "describe", "-"], Some(describe_only));
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("warning: <stdin>:2: this command fails:"), "{report}");
    assert!(report.contains("warning: <stdin>:3: this command fails:"), "{report}");
    assert!(report.contains("kafka-quota: no command of <stdin> could be applied, so it gives no quotas (each failing command is named above)."), "{report}");
}

#[test]
fn convert_writes_an_entity_with_one_value_left_out() {
    // request_percentage=25.5 has no KafkaUser form (an integer field), but
    // alice's producer_byte_rate has: the KafkaUser is written, with the
    // removal it causes said, exit code 0.
    let runbook = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=1000,request_percentage=25.5' --entity-type users --entity-name alice\n";
    let (report, code) = run(&["convert", "--to", "strimzi", "-"], Some(runbook));
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("    producerByteRate: 1000\n"), "{report}");
    assert!(report.contains("# Applying this KafkaUser removes request_percentage=25.5 from users/alice"), "{report}");
    assert!(!report.contains("nothing is printed"), "{report}");
}

/// Issue 29: `--leaders L` adds what L leading brokers allow together
/// (byte-rate quotas are per broker), readable first with Kafka's number
/// after, as the live `--topic` answer says it; in the JSON too.
#[test]
fn leaders_give_the_cluster_wide_figure() {
    let args = ["resolve", "--quotas", "examples/runbook.sh", "--listener", "SASL_SSL", "--user", "tenantUserA", "--client-id", "batch-loader", "--leaders", "3"];
    let (report, code) = run(&args, None);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("Across 3 leading brokers (--leaders):\n  producer_byte_rate: up to 1.5 MB/s across the cluster (500 kB/s per broker x 3 leaders; Kafka: 1500000.0 bytes/s) for a client of partitions led by 3 brokers.\n  consumer_byte_rate: up to 3 MB/s across the cluster (1 MB/s per broker x 3 leaders; Kafka: 3000000.0 bytes/s) for a client of partitions led by 3 brokers.\n"), "{report}");
    let mut json = args.to_vec();
    json.push("--json");
    let (report, _) = run(&json, None);
    let body = report.split("--- stdout\n").nth(1).and_then(|r| r.split("--- stderr").next()).expect("stdout");
    let v: serde_json::Value = serde_json::from_str(body).expect("JSON");
    assert_eq!(v["leaders"], 3);
    assert_eq!(v["cluster"].as_array().map(Vec::len), Some(3), "{v}");
    let (report, code) = run(&["resolve", "--quotas", "examples/runbook.sh", "--listener", "SASL_SSL", "--leaders", "0"], None);
    assert_eq!(code, 2, "{report}");
    let (report, _) = run(&["resolve", "--quotas", "examples/runbook.sh", "--listener", "SASL_SSL", "--user", "tenantUserA", "--leaders", "2", "--quota-type", "request"], None);
    assert!(report.contains("Across 2 leading brokers (--leaders):\n  the figure is for byte rates (per broker); --quota-type left them out.\n"), "{report}");
}

/// Issue 29: `--explain` names the ssl.principal.mapping.rules entry as
/// written, its trailing `/` included.
#[test]
fn explain_prints_the_mapping_rule_as_written() {
    let (report, code) = run(
        &["resolve", "--quotas", "examples/runbook.sh", "--listener", "SSL", "--dn", "CN=app,OU=eng", "--ssl-mapping-rules", "RULE:^CN=(.*?),OU=.*$/$1/", "--explain"],
        None,
    );
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("Principal: User:app (certificate DN 'CN=app,OU=eng' mapped by ssl.principal.mapping.rules entry #0 RULE:^CN=(.*?),OU=.*$/$1/)\n"), "{report}");
}

/// Issue 29: who shares a budget comes from the same decision as the
/// metric tags. With users/<default> and users/<default>/clients/batch,
/// alice's app-1 shares its user budget with every client-id of alice
/// except batch, which has a budget of its own (rung 4).
#[test]
fn who_shares_excludes_a_client_id_with_a_budget_of_its_own() {
    let runbook = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1000000 --entity-type users --entity-default\n\
                   kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=2000000 --entity-type users --entity-default --entity-type clients --entity-name batch\n";
    let (report, code) = run(
        &["resolve", "--quotas", "-", "--listener", "SASL_PLAINTEXT", "--user", "alice", "--client-id", "app-1", "--quota-type", "produce"],
        Some(runbook),
    );
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("shared by all connections of user alice, whatever their client-id, except client-id batch (a budget of its own)"),
        "{report}"
    );
    let (json, _) = run(
        &["resolve", "--quotas", "-", "--listener", "SASL_PLAINTEXT", "--user", "alice", "--client-id", "batch", "--quota-type", "produce", "--json"],
        Some(runbook),
    );
    assert!(json.contains("\"shared_by\": \"connections of user alice with client-id batch\""), "{json}");
}

/// Issue 29: a sibling tenant's quota (tenant-a beside tenant-b) is not
/// "one character away" from the principal; a one-letter typo with no
/// sibling still is.
#[test]
fn a_sibling_tenant_is_no_near_miss() {
    let runbook = "\
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1048576 --entity-type users --entity-name tenant-a
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=2097152 --entity-type users --entity-name tenant-b
";
    let (report, code) = run(&["resolve", "--quotas", "-", "--listener", "SASL_SSL", "--user", "tenant-b"], Some(runbook));
    assert_eq!(code, 0, "{report}");
    assert!(!report.contains("did you mean"), "{report}");
    let (report, code) = run(&["resolve", "--quotas", "-", "--listener", "SASL_SSL", "--user", "tenant-c"], Some(runbook));
    assert_eq!(code, 0, "{report}");
    assert!(!report.contains("did you mean"), "{report}");
    let typo = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1048576 --entity-type users --entity-name alica\n";
    let (report, _) = run(&["resolve", "--quotas", "-", "--listener", "SASL_SSL", "--user", "alice"], Some(typo));
    assert!(report.contains("note: did you mean: users/alica, with producer_byte_rate = 1.05 MB/s = 1 MiB/s per broker (1048576.0 bytes/s), never applies"), "{report}");
}

/// Issue 29: the consumer_byte_rate answer says the largest fetch response
/// a broker sends under the quota, quota × (quota.window.num − 1) ×
/// quota.window.size.seconds (KAFKA-9677).
#[test]
fn the_fetch_quota_answer_names_the_largest_fetch_response() {
    let runbook = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config consumer_byte_rate=2000000 --entity-type users --entity-name alice\n";
    let args = ["resolve", "--quotas", "-", "--listener", "SASL_SSL", "--user", "alice", "--quota-type", "fetch"];
    let (report, code) = run(&args, Some(runbook));
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains(
            "consumer_byte_rate        2 MB/s per broker (2000000.0 bytes/s) from users/alice (rung 3); shared by all connections of user alice, whatever their client-id; \
             each broker sends it at most 20 MB (20000000 bytes) in one fetch response, quota × (quota.window.num − 1) × quota.window.size.seconds = 2 MB/s × (11 − 1) × 1 s (KAFKA-9677), or less when the consumer's fetch.max.bytes is lower; a first record batch larger than that is still sent whole (KIP-74)\n"
        ),
        "{report}"
    );
    // Kafka takes the smaller of the window and the broker's
    // fetch.max.bytes (57671680): above it, the broker's is the cap.
    let big = runbook.replace("2000000", "10000000");
    let (report, _) = run(&args, Some(&big));
    assert!(report.contains("at most 57.67 MB = 55 MiB (57671680 bytes) in one fetch response, the broker's fetch.max.bytes, lower than the quota window's"), "{report}");
    assert!(report.contains("= 10 MB/s × (11 − 1) × 1 s = 100000000 bytes (KAFKA-9677)"), "{report}");
    // The JSON's answer says it too; a produce quota does not.
    let mut json = args.to_vec();
    json.push("--json");
    let (report, _) = run(&json, Some(runbook));
    assert!(report.contains("(KAFKA-9677)"), "{report}");
    let produce = runbook.replace("consumer_byte_rate", "producer_byte_rate");
    let (report, _) = run(&["resolve", "--quotas", "-", "--listener", "SASL_SSL", "--user", "alice"], Some(&produce));
    assert!(!report.contains("KAFKA-9677"), "{report}");
}
