//! `kafka-quota monitoring`: JMX exporter rules and alerts for the quota
//! MBeans a set of quotas produces.

use std::io::Write;

use super::common::kafka_quota;

/// users/<default> and clients/reporting on produce, one (user, client-id)
/// quota on request.
const QUOTAS: &str = "\
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=2000000' --entity-type users --entity-default
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=10000000' --entity-type clients --entity-name reporting
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'request_percentage=50' --entity-type users --entity-name alice --entity-type clients --entity-name app
";

fn quotas_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temp file");
    f.write_all(text.as_bytes()).expect("written");
    f
}

fn monitoring(text: &str, args: &[&str]) -> (String, String) {
    let f = quotas_file(text);
    let out = kafka_quota()
        .args(["monitoring", "--quotas"])
        .arg(f.path())
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// The `pattern:` values of a rules YAML, unquoted.
fn patterns(yaml: &str) -> Vec<String> {
    yaml.lines()
        .filter_map(|l| l.trim().strip_prefix("- pattern: '"))
        .map(|p| {
            p.strip_suffix('\'')
                .expect("single-quoted")
                .replace("''", "'")
        })
        .collect()
}

#[test]
fn rules_cover_exactly_the_shapes_the_quotas_produce() {
    let (out, err) = monitoring(QUOTAS, &[]);
    assert_eq!(err, "");
    assert!(out.starts_with("# Prometheus JMX exporter rules"), "{out}");
    let p = patterns(&out);
    // Produce: users/<default> shadows clients/reporting for every user
    // (rung 6 before rung 7), so every produce budget is per user and no
    // per-client-id MBean exists. Request: the (user, client-id) budget and,
    // for a client that sends no client.id, a user-only one.
    let heads: Vec<&str> = p
        .iter()
        .map(|s| s.split("><>").next().unwrap_or(s))
        .collect();
    assert_eq!(p.len(), 6, "{out}");
    let user = r#"user=("(?:[^"\\]|\\.)*"|[-\w%. \t]+)"#;
    let client = r#"client-id=("(?:[^"\\]|\\.)*"|[-\w%. \t]+)"#;
    assert_eq!(
        heads,
        [
            format!("^kafka\\.server<type=Request, {user}, {client}"),
            format!("^kafka\\.server<type=Request, {user}, {client}"),
            format!("^kafka\\.server<type=Produce, {user}"),
            format!("^kafka\\.server<type=Produce, {user}"),
            format!("^kafka\\.server<type=Request, {user}"),
            format!("^kafka\\.server<type=Request, {user}"),
        ],
        "{out}"
    );
    assert!(!out.contains("type=Fetch"), "{out}");
    assert!(
        p[1].ends_with("><>request-time: ") && p[3].ends_with("><>byte-rate: "),
        "{out}"
    );
    assert!(out.contains("name: kafka_server_quota_throttle_time_ms\n"));
    assert_eq!(out.matches("type: GAUGE").count(), 6);
}

#[test]
fn the_rules_match_what_jmx_exporter_sees_for_a_broker_mbean() {
    let (out, _) = monitoring(QUOTAS, &[]);
    let p = patterns(&out);
    let first = |input: &str| {
        p.iter().position(|pat| {
            quota_engine::jdk::regex::JavaPattern::compile(&format!("^.*(?:{pat}).*$"))
                .expect("a Java regex")
                .matches(input)
                .expect("no budget error")
                .is_some()
        })
    };
    let request =
        first("kafka.server<type=Request, user=alice, client-id=app><>throttle-time: NaN")
            .expect("mapped");
    assert!(p[request].contains("client-id="));
    let user_only = first("kafka.server<type=Produce, user=bob><>byte-rate: 10.0").expect("mapped");
    assert!(!p[user_only].contains("client-id="));
    assert_eq!(
        first("kafka.server<type=Fetch, user=bob><>byte-rate: 10.0"),
        None
    );
    assert_eq!(first("kafka.server<type=Produce><>queue-size: 0.0"), None);
}

#[test]
fn alerts_flag_prints_prometheus_rules() {
    let (out, _) = monitoring(QUOTAS, &["--alerts"]);
    assert!(
        out.starts_with("groups:\n  - name: kafka-client-quotas\n    rules:\n"),
        "{out}"
    );
    assert!(out.contains(
        "      - alert: KafkaQuotaSustainedThrottlingProduce\n        expr: avg_over_time(kafka_server_quota_throttle_time_ms{quota_type=\"Produce\"}[5m]) > 0\n        for: 10m\n"
    ));
    assert!(out.contains("KafkaQuotaSustainedThrottlingRequest"));
    assert!(!out.contains("ThrottlingFetch"));
}

#[test]
fn no_quota_means_no_rule_and_a_note() {
    let ip_only = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'connection_creation_rate=10' --entity-type ips --entity-default\n";
    let (out, err) = monitoring(ip_only, &[]);
    assert!(out.ends_with("rules: []\n"), "{out}");
    assert!(
        err.contains("no produce, fetch or request quota, so the brokers register no quota MBean"),
        "{err}"
    );
}

#[test]
fn an_unreadable_file_is_named_and_exits_1() {
    kafka_quota()
        .args(["monitoring", "--quotas", "/nonexistent/quotas.sh"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "cannot read /nonexistent/quotas.sh",
        ));
}

#[test]
fn the_documented_example_is_what_the_cli_prints() {
    let doc = std::fs::read_to_string(super::common::fixture("../../docs/monitoring.md"))
        .expect("docs/monitoring.md");
    let start = doc
        .find("cat > quotas.sh <<'Q'\n")
        .expect("the example's quotas")
        + "cat > quotas.sh <<'Q'\n".len();
    let quotas = &doc[start..start + doc[start..].find("Q\n").expect("heredoc end")];
    let (rules, _) = monitoring(quotas, &[]);
    let (alerts, _) = monitoring(quotas, &["--alerts"]);
    assert!(
        doc.contains(&format!("```yaml\n{rules}```")),
        "docs/monitoring.md's rules differ from:\n{rules}"
    );
    assert!(
        doc.contains(&format!("```yaml\n{alerts}```")),
        "docs/monitoring.md's alerts differ from:\n{alerts}"
    );
}
