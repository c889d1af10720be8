//! `kafka-quota resolve`, `convert`, `link` and `simulate` end to end: the
//! lab article's three user-quota runs answered from the lab's own command,
//! conversions between formats, permalinks, and the exit codes (0, 1 bad
//! input with file/line/reason on stderr, 2 usage).

use std::path::PathBuf;

use predicates::prelude::*;
use predicates::str::contains;
use super::common::{fixture, kafka_quota};

/// The lab's command: `producer_byte_rate=2000000` for user tenant-a.
fn lab_quota() -> String {
    fixture("tests/fixtures/lab-user-quota.sh")
        .display()
        .to_string()
}

/// A lab scenario (`tests/fixtures/lab/<run>.json`) as a scenario file.
fn lab_scenario(run: &str, dir: &tempfile::TempDir) -> PathBuf {
    let text =
        std::fs::read_to_string(fixture(&format!("../../tests/fixtures/lab/{run}.json"))).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let file = serde_json::json!({
        "format": "kafka-quota-playground/scenario",
        "version": 1,
        "scenario": v["scenario"],
    });
    let path = dir.path().join(format!("{run}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    path
}

fn resolve_json(args: &[&str]) -> serde_json::Value {
    let out = kafka_quota()
        .args(["resolve", "--quotas", &lab_quota(), "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_lab_command_file_holds_the_lab_command() {
    let lab = std::fs::read_to_string(fixture(
        "../../tests/fixtures/seed/kafka-client-quotas-lab.txt",
    ))
    .unwrap();
    assert!(lab.contains(
        "The lab set producer_byte_rate=2000000 for user tenant-a and ran three producers"
    ));
    let ours = std::fs::read_to_string(lab_quota()).unwrap();
    assert!(ours.contains(
        "--add-config producer_byte_rate=2000000 --entity-type users --entity-name tenant-a"
    ));
}

#[test]
fn plaintext_as_tenant_a_is_anonymous_and_unthrottled() {
    // [lab] user quota tenant-a; PLAINTEXT listener, client-id=tenant-a (principal User:ANONYMOUS): 828 ms, throttle-time max=0 ms
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            &lab_quota(),
            "--listener",
            "PLAINTEXT",
            "--client-id",
            "tenant-a",
            "--explain",
        ])
        .assert()
        .code(0)
        .stdout(contains(
            "User:ANONYMOUS, client-id \"tenant-a\", PLAINTEXT listener:\n  producer_byte_rate        unlimited: no rung holds a producer_byte_rate for this connection; metered together with all connections of user ANONYMOUS, whatever their client-id\n",
        ))
        .stdout(contains(
            "Principal: User:ANONYMOUS (ANONYMOUS: a PLAINTEXT listener does not authenticate)",
        ))
        .stdout(contains(
            "Produce (producer_byte_rate):\n  limit: none (unlimited)",
        ))
        .stdout(contains(
            "3 users/ANONYMOUS: No producer_byte_rate is set for users/ANONYMOUS.",
        ));
    let v = resolve_json(&["--listener", "PLAINTEXT", "--client-id", "tenant-a"]);
    assert_eq!(v["principal"]["principal"], "User:ANONYMOUS");
    assert_eq!(v["resolutions"][0]["matched"], serde_json::Value::Null);
}

#[test]
fn sasl_as_tenant_a_gets_the_user_quota() {
    // [lab] user quota tenant-a; SASL as tenant-a, client-id=app-1: 12161 ms, throttle-time max=1031 ms
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            &lab_quota(),
            "--listener",
            "SASL_PLAINTEXT",
            "--user",
            "tenant-a",
            "--client-id",
            "app-1",
            "--explain",
        ])
        .assert()
        .code(0)
        .stdout(contains(
            "  producer_byte_rate        2 MB/s per broker (2000000.0 bytes/s) from users/tenant-a (rung 3); shared by all connections of user tenant-a, whatever their client-id\n",
        ))
        .stdout(contains(
            "Principal: User:tenant-a (the SASL/PLAIN user name, used as it is)",
        ))
        .stdout(contains(
            "limit: 2 MB/s per broker (2000000.0 bytes/s) from users/tenant-a, rung 3",
        ))
        .stdout(contains(
            "every connection with tags user=tenant-a, client-id=\"\" shares one budget",
        ))
        .stdout(contains("kafka.server:type=Produce,user=tenant-a"));
    let v = resolve_json(&[
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "tenant-a",
        "--client-id",
        "app-1",
    ]);
    let produce = &v["resolutions"][0];
    assert_eq!(produce["quota_type"], "PRODUCE");
    assert_eq!(produce["matched"]["value"], 2000000.0);
    assert_eq!(
        produce["matched"]["entity"],
        serde_json::json!({"user": "tenant-a"})
    );
    assert_eq!(produce["trace"].as_array().unwrap().len(), 8);
    // The other three quota types are not configured at all.
    for r in &v["resolutions"].as_array().unwrap()[1..] {
        assert_eq!(r["matched"], serde_json::Value::Null);
        assert_eq!(r["metric_tags"], serde_json::Value::Null);
    }
}

#[test]
fn sasl_as_tenant_b_on_the_same_client_id_is_untouched() {
    // [lab] user quota tenant-a; SASL as tenant-b, client-id=app-1: 505 ms, throttle-time max=0 ms
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            &lab_quota(),
            "--listener",
            "sasl_plaintext",
            "--user",
            "tenant-b",
            "--client-id",
            "app-1",
            "--explain",
        ])
        .assert()
        .code(0)
        .stdout(contains("Principal: User:tenant-b"))
        .stdout(contains(
            "Produce (producer_byte_rate):\n  limit: none (unlimited)",
        ))
        .stdout(contains(
            "3 users/tenant-b: No producer_byte_rate is set for users/tenant-b.",
        ));
    let v = resolve_json(&[
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "tenant-b",
        "--client-id",
        "app-1",
    ]);
    assert_eq!(v["resolutions"][0]["matched"], serde_json::Value::Null);
    assert_eq!(
        v["resolutions"][0]["metric_tags"],
        serde_json::json!({"user": "tenant-b", "client-id": ""})
    );
}

#[test]
fn resolve_reads_every_format_and_maps_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = dir.path().join("user.yaml");
    std::fs::write(
        &yaml,
        "apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: app\nspec:\n  authentication:\n    type: tls\n  quotas:\n    consumerByteRate: 4096\n",
    )
    .unwrap();
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            yaml.to_str().unwrap(),
            "--listener",
            "SSL",
            "--dn",
            "CN=app,OU=eng,O=org",
        ])
        .args(["--ssl-mapping-rules", "RULE:^(CN=[^,]*),.*$/$1/,DEFAULT", "--explain"])
        .assert()
        .code(0)
        .stdout(contains("Principal: User:CN=app"))
        .stdout(contains(
            "  consumer_byte_rate        4.1 kB/s = 4 KiB/s per broker (4096.0 bytes/s) from users/CN=app (rung 3); shared by all connections of user CN%3Dapp, whatever their client-id; each broker sends it at most ",
        ))
        .stdout(contains(
            "Fetch (consumer_byte_rate):\n  limit: 4.1 kB/s = 4 KiB/s per broker (4096.0 bytes/s) from users/CN=app",
        ));
}

#[test]
fn bad_input_is_exit_1_with_file_line_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tf");
    std::fs::write(&bad, "resource \"kafka_quota\" \"q\" {\n  entity_type = \"user\"\n  entity_name = var.name\n  config = {}\n}\n").unwrap();
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            bad.to_str().unwrap(),
            "--listener",
            "PLAINTEXT",
        ])
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains(format!(
            "Line 3, column 17 of {}: the Terraform expression `var.name` stands in entity_name",
            bad.display()
        )));
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            "/nonexistent/q.sh",
            "--listener",
            "PLAINTEXT",
        ])
        .assert()
        .code(1)
        .stderr(contains("kafka-quota: cannot read /nonexistent/q.sh:"));
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            &lab_quota(),
            "--listener",
            "SSL",
            "--dn",
            "CN=a",
            "--ssl-mapping-rules",
            "RULE:^O=(.*)$/$1/",
        ])
        .assert()
        .code(1)
        .stderr(contains("Kafka closes this connection"));
}

#[test]
fn usage_errors_are_exit_2() {
    kafka_quota()
        .args([
            "resolve",
            "--quotas",
            &lab_quota(),
            "--listener",
            "PLAINTEXT",
            "--user",
            "a",
            "--kerberos",
            "a@EXAMPLE.COM",
        ])
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
    kafka_quota()
        .args(["resolve", "--quotas", &lab_quota()])
        .assert()
        .code(2);
    kafka_quota()
        .args(["convert", "--to", "yaml", &lab_quota()])
        .assert()
        .code(2);
    kafka_quota().args(["link"]).assert().code(2);
}

#[test]
fn convert_writes_every_format_and_says_what_it_cannot_express() {
    let dir = tempfile::tempdir().unwrap();
    let cmds = dir.path().join("q.sh");
    std::fs::write(
        &cmds,
        "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n\
         kafka-configs.sh --bootstrap-server b:9092 --alter --add-config consumer_byte_rate=2048 --entity-type users --entity-name alice --entity-type clients --entity-name app\n",
    )
    .unwrap();
    let q = cmds.to_str().unwrap();
    kafka_quota()
        .args(["convert", "--to", "strimzi", q])
        .assert()
        .code(0)
        .stdout(contains("  name: alice\n").and(contains("producerByteRate: 1024")))
        // alice may log in any way: no authentication block is invented,
        // and a comment says to copy an existing KafkaUser's.
        .stdout(contains("  authentication:").not())
        .stdout(contains("  # No spec.authentication: the quotas do not say how this user logs in."))
        .stdout(contains("# Not expressible in a KafkaUser: users/alice/clients/app (consumer_byte_rate=2048.0)"))
        .stderr("warning: Strimzi KafkaUser YAML cannot express users/alice/clients/app (consumer_byte_rate=2048.0): a KafkaUser's quotas are per user, so (user, client-id) quotas have no KafkaUser form; it is left out.\n");
    kafka_quota()
        .args(["convert", "--to", "terraform", q])
        .assert()
        .code(0)
        .stdout(contains("resource \"kafka_quota\" \"user_alice\""))
        .stderr("warning: Terraform HCL cannot express users/alice/clients/app (consumer_byte_rate=2048.0): a kafka_quota resource has one entity_type, so a (user, client-id) quota cannot be written as one; set it with kafka-configs.sh or the Admin API; it is left out.\n");
    // A default entity is a kafka_quota without entity_name (provider v0.10.0+).
    let defaults = dir.path().join("defaults.sh");
    std::fs::write(
        &defaults,
        "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024,consumer_byte_rate=2048 --entity-type users --entity-default\n\
         kafka-configs.sh --bootstrap-server b:9092 --alter --add-config connection_creation_rate=5 --entity-type ips --entity-default\n",
    )
    .unwrap();
    kafka_quota()
        .args(["convert", "--to", "terraform"])
        .arg(&defaults)
        .assert()
        .code(0)
        .stdout(contains("resource \"kafka_quota\" \"default_user\" {\n  # No entity_name: the default user quota (terraform-provider-kafka v0.10.0 or later"))
        .stdout(contains("resource \"kafka_quota\" \"default_ip\" {\n  # No entity_name: the default ip quota"))
        .stdout(contains("entity_name =").not())
        .stderr("");
    // One sentence per item left out; nothing left to write fails after its warnings.
    let pairs = dir.path().join("pairs.sh");
    std::fs::write(
        &pairs,
        "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-default --entity-type clients --entity-name app\n\
         kafka-configs.sh --bootstrap-server b:9092 --alter --add-config consumer_byte_rate=2048 --entity-type users --entity-name bob --entity-type clients --entity-default\n",
    )
    .unwrap();
    let out = kafka_quota()
        .args(["convert", "--to", "terraform"])
        .arg(&pairs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines[2].ends_with("none of its 2 quota entities can be written as Terraform HCL: every one is left out (see the warnings above); nothing is printed."), "{stderr}");
    assert!(lines.contains(&"warning: Terraform HCL cannot express users/<default>/clients/app (producer_byte_rate=1024.0): a kafka_quota resource has one entity_type, so a (user, client-id) quota cannot be written as one; set it with kafka-configs.sh or the Admin API; it is left out."), "{stderr}");
    let describe = kafka_quota()
        .args(["convert", "--to", "describe", q])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(describe.stdout).unwrap(),
        // In the 4.x tool's order (entities by ClientQuotaEntity hash in a HashMap).
        "Quota configs for user-principal 'alice' are producer_byte_rate=1024.0\nQuota configs for user-principal 'alice', client-id 'app' are consumer_byte_rate=2048.0\n"
    );
    // Java back to commands, through standard input, gives the same quotas.
    let java = kafka_quota()
        .args(["convert", "--to", "java", q])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&java.stdout)
        .contains("admin.alterClientQuotas(alterations).all().get();"));
    let back = kafka_quota()
        .args(["convert", "--to", "describe", "-"])
        .write_stdin(java.stdout)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(back.stdout).unwrap().lines().count(), 2);
    // rpk is read only: `--to rpk` is a usage error that lists the targets.
    kafka_quota()
        .args(["convert", "--to", "rpk", q])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("invalid value 'rpk' for '--to <TO>'"))
        .stderr(contains(
            "[possible values: configs-sh, describe, java, strimzi, terraform, json]",
        ));
    // ... and still a source.
    let rpk = "rpk cluster quotas alter --add producer_byte_rate=1024 --name user=alice\n";
    kafka_quota()
        .args(["convert", "--from", "rpk", "--to", "describe", "-"])
        .write_stdin(rpk)
        .assert()
        .success()
        .stdout("Quota configs for user-principal 'alice' are producer_byte_rate=1024.0\n");
}

#[test]
fn link_prints_a_playground_url_that_decodes_to_the_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let file = lab_scenario("user-quota-sasl-tenant-a", &dir);
    let out = kafka_quota()
        .args([
            "link",
            file.to_str().unwrap(),
            "--base",
            "https://example.org/playground/",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let url = String::from_utf8(out.stdout).unwrap();
    assert!(
        url.starts_with("https://example.org/playground/#v1."),
        "{url}"
    );
    let scenario = quota_formats::scenario::from_link(url.trim()).unwrap();
    let file =
        quota_formats::scenario::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(scenario, file.scenario);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"kafka-quota-playground/scenario\", \"version\": 1,\n \"scenario\": {\"sed\": 1}}").unwrap();
    kafka_quota()
        .args(["link", bad.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(
            contains("Line 2, column")
                .and(contains("at `scenario.sed`, but found unknown field `sed`")),
        );
}

#[test]
fn link_refuses_a_base_a_browser_cannot_open_and_notes_a_scenario_that_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = lab_scenario("user-quota-sasl-tenant-a", &dir);
    kafka_quota()
        .args(["link", file.to_str().unwrap(), "--base", "quotas.example.com"])
        .assert()
        .code(1)
        .stderr(contains("--base \"quotas.example.com\" (or $KAFKA_QUOTA_PLAYGROUND_URL) is not an address a browser opens"));
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["scenario"]["quotas"][0]["value"] = serde_json::json!(0);
    let zero = dir.path().join("zero.json");
    std::fs::write(&zero, v.to_string()).unwrap();
    kafka_quota()
        .args(["link", zero.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("#v1."))
        .stderr(contains("the playground will open this scenario and show why it cannot run:").and(contains("must be greater than 0")));
}

#[test]
fn simulate_prints_the_perf_summary_and_client_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let throttled = lab_scenario("user-quota-sasl-tenant-a", &dir);
    let out = kafka_quota()
        .args(["simulate", throttled.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("producer producer (principal User:tenant-a, client-id \"app-1\")"),
        "{text}"
    );
    assert!(text.contains("  30000 records sent, "), "{text}");
    let max: f64 = text
        .split("produce-throttle-time-max=")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    // The lab measured 1031 ms; the simulation lands within a few percent.
    assert!((900.0..1200.0).contains(&max), "{max}");
    let free = lab_scenario("user-quota-sasl-tenant-b", &dir);
    kafka_quota()
        .args(["simulate", free.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("produce-throttle-time-max=0.0 ms"));
}

#[test]
fn simulate_prints_the_events_and_the_cluster_totals() {
    let example = fixture("../../examples/cluster-3-brokers.json");
    let out = kafka_quota()
        .args(["simulate", example.to_str().unwrap()])
        .output()
        .unwrap();
    // The producer's stop_ms is close(Duration.ZERO): what was buffered or
    // in flight at 18 s is lost, so the run exits 3.
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let events: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "events")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        events,
        [
            "  at 5000.0 ms  move_leader  Partition orders-2 moves from broker 2 to broker 0: new produce and fetch requests for it go to broker 0.",
            "  at 10000.0 ms  set_quota  users/alice producer_byte_rate=1000000.0 is set on every broker.",
            "  at 18000.0 ms  client_stop  Client 'producer' stops: close(Duration.ZERO) aborts 32768 records buffered or in flight (KafkaException: Producer is closed forcefully.); 303744 records were not sent.",
        ],
        "{text}"
    );
    assert!(
        text.contains("  FAILED: stopped at 18000.0 ms (stop_ms, close(Duration.ZERO)) with 32768 of 400000 records lost and 303744 not sent\n"),
        "{text}"
    );
    assert!(text.contains("cluster totals (3 brokers; every quota is enforced by each broker on its own; "), "{text}");
    // The client's total is the sum of its brokers' shares, as is the budget's.
    let numbers = |prefix: &str| -> Vec<u64> {
        let line = text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {text}"));
        line[prefix.len()..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect()
    };
    // [total, 0, share0, 1, share1, 2, share2]
    let client = numbers("  client producer: ");
    assert_eq!(client[0], client[2] + client[4] + client[6], "{text}");
    // Broker 2 led one partition for 5 s of the 18: the smallest share.
    assert!(client[6] < client[2] && client[6] < client[4], "{text}");
    let budget = numbers("  budget kafka.server:type=Produce,user=alice: ");
    assert_eq!(budget, client);
    // A one-broker run without events prints neither part.
    let dir = tempfile::tempdir().unwrap();
    let lab = lab_scenario("user-quota-sasl-tenant-a", &dir);
    kafka_quota()
        .args(["simulate", lab.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(contains("cluster totals").not().and(contains("\nevents\n").not()));
}

#[test]
fn a_conversion_that_can_write_nothing_fails_instead_of_printing_only_comments() {
    let describe = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/describe-output.txt");
    kafka_quota()
        .args(["convert", "--to", "strimzi", describe])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            contains("warning: Strimzi KafkaUser YAML cannot express users/<default>")
                .and(contains("none of its 4 quota entities can be written as Strimzi KafkaUser YAML")),
        );
}

/// Issue 30: `link` never simulates. A day of one fast producer (10^12
/// records, about 10^8 requests; simulating it takes minutes) is answered
/// at once with what the page will say: the refusal with its numbers.
#[test]
fn link_checks_a_huge_run_without_simulating_it() {
    // The timeout guards against a hang (simulating it takes about 280 s).
    let out = kafka_quota()
        .args(["link", fixture("../../tests/fixtures/big/day-producer.json").to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("the playground will open its default scenario instead and say: This link's scenario is about 1")
            && stderr.contains("over 86,400 simulated seconds: ")
            && stderr.contains("units of work; the playground runs at most 3,000,000 units of work")
            && stderr.contains("kafka-quota simulate"),
        "{stderr}"
    );
    assert!(String::from_utf8(out.stdout).unwrap().contains("#v1."));
}

/// Issue 29: commands written from a runbook name its --bootstrap-server,
/// not localhost:9092; from any other format, the default.
#[test]
fn convert_keeps_the_runbooks_bootstrap_server() {
    let runbook = "kafka-configs.sh --bootstrap-server kafka-0.prod:9093 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n\
                   kafka-configs.sh --bootstrap-server kafka-0.prod:9093 --alter --add-config consumer_byte_rate=2048 --entity-type clients --entity-name app\n";
    kafka_quota()
        .args(["convert", "--to", "configs-sh", "-"])
        .write_stdin(runbook)
        .assert()
        .code(0)
        .stdout(
            "kafka-configs.sh --bootstrap-server kafka-0.prod:9093 --alter --entity-type users --entity-name alice --add-config producer_byte_rate=1024\n\
             kafka-configs.sh --bootstrap-server kafka-0.prod:9093 --alter --entity-type clients --entity-name app --add-config consumer_byte_rate=2048\n",
        )
        .stderr("");
    // A runbook's variable stays a variable; a second cluster is noted.
    let two = "kafka-configs.sh --bootstrap-server $BOOTSTRAP --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n\
               kafka-configs.sh --bootstrap-server other:9092 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name bob\n";
    kafka_quota()
        .args(["convert", "--to", "configs-sh", "-"])
        .write_stdin(two)
        .assert()
        .code(0)
        .stdout(contains("kafka-configs.sh --bootstrap-server \"$BOOTSTRAP\" --alter --entity-type users --entity-name bob"))
        .stderr(contains("note: <stdin>:2: This command's --bootstrap-server is other:9092, an earlier command's $BOOTSTRAP: commands written from this runbook name $BOOTSTRAP.\n"));
    // Describe output names no cluster: the default.
    kafka_quota()
        .args(["convert", "--to", "configs-sh", "-"])
        .write_stdin("Quota configs for user-principal 'alice' are producer_byte_rate=1024.0\n")
        .assert()
        .code(0)
        .stdout("kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type users --entity-name alice --add-config producer_byte_rate=1024\n");
}

/// Issue 29: KafkaUsers are written as kafka.strimzi.io/v1 (the only
/// version Strimzi 1.0 and later serve), keep the input's cluster label and
/// namespace, take the three --strimzi-* flags, and say where Strimzi puts
/// a tls user's quotas.
#[test]
fn convert_to_strimzi_writes_v1_and_keeps_the_cluster_and_namespace() {
    let user = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaUser\nmetadata:\n  name: app\n  namespace: kafka-prod\n  labels:\n    strimzi.io/cluster: prod\nspec:\n  authentication:\n    type: tls\n  quotas:\n    consumerByteRate: 4096\n";
    let tls_note = "note: KafkaUser app has authentication type tls: Strimzi sets the quotas on the principal `CN=app` (the subject of the certificate the User Operator issues; with tls-external, of a certificate issued elsewhere with that subject), and Strimzi's Kafka resource refuses ssl.* options in spec.kafka.config, so ssl.principal.mapping.rules cannot map that principal to another name.\n";
    kafka_quota()
        .args(["convert", "--to", "strimzi", "-"])
        .write_stdin(user)
        .assert()
        .code(0)
        .stdout(contains("---\napiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: app\n  namespace: kafka-prod\n  labels:\n    strimzi.io/cluster: prod\nspec:\n  authentication:\n    type: tls\n  quotas:\n    consumerByteRate: 4096\n"))
        .stdout(contains("my-cluster").not())
        .stderr(tls_note);
    // The flags win over the input; --strimzi-api-version v1beta2 for an older Strimzi, with a note.
    kafka_quota()
        .args(["convert", "--to", "strimzi", "--strimzi-cluster", "edge", "--strimzi-namespace", "kafka", "--strimzi-api-version", "v1beta2", "-"])
        .write_stdin(user)
        .assert()
        .code(0)
        .stdout(contains("apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaUser\nmetadata:\n  name: app\n  namespace: kafka\n  labels:\n    strimzi.io/cluster: edge\n"))
        .stderr(contains("note: apiVersion kafka.strimzi.io/v1beta2 is served by Strimzi before 1.0 only; Strimzi 1.0 and later serve KafkaUser only as kafka.strimzi.io/v1.\n"));
    // From a runbook: v1, my-cluster (the header says to set it), no namespace.
    kafka_quota()
        .args(["convert", "--to", "strimzi", "-"])
        .write_stdin("kafka-configs.sh --bootstrap-server b:9092 --alter --add-config producer_byte_rate=1024 --entity-type users --entity-name alice\n")
        .assert()
        .code(0)
        .stdout(contains("; set strimzi.io/cluster to your Kafka cluster's name.\n"))
        .stdout(contains("apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: alice\n  labels:\n    strimzi.io/cluster: my-cluster\n"));
    // Usage errors: a flag for another target, a value Kubernetes refuses.
    kafka_quota()
        .args(["convert", "--to", "terraform", "--strimzi-cluster", "prod", "-"])
        .write_stdin(user)
        .assert()
        .code(2)
        .stdout("")
        .stderr("kafka-quota: --strimzi-cluster sets what a Strimzi KafkaUser names, so it applies to --to strimzi only, not to --to terraform.\n");
    kafka_quota()
        .args(["convert", "--to", "strimzi", "--strimzi-namespace", "Prod", "-"])
        .write_stdin(user)
        .assert()
        .code(2)
        .stderr(contains("invalid value 'Prod' for '--strimzi-namespace <NAMESPACE>': `Prod` is not a Kubernetes namespace: a namespace has at most 63 lowercase letters, digits and '-', and starts and ends with a letter or digit"));
    kafka_quota()
        .args(["convert", "--to", "strimzi", "--strimzi-api-version", "v2", "-"])
        .write_stdin(user)
        .assert()
        .code(2)
        .stderr(contains("`v2` is not an apiVersion Strimzi serves KafkaUser under"));
    // --help documents them.
    kafka_quota()
        .args(["convert", "--help"])
        .assert()
        .code(0)
        .stdout(contains("--strimzi-api-version <VERSION>").and(contains("--strimzi-cluster <NAME>")).and(contains("--strimzi-namespace <NAMESPACE>")));
}
