//! `kafka-quota resolve --ip ADDRESS`: the `connection_creation_rate` for a
//! source address, matched as Java's `InetAddress` compares addresses
//! (Kafka: `ConnectionQuotas.connectionRateForIp`).

use std::io::Write;

use super::common::kafka_quota;

/// ips/0:0:0:0:0:0:0:1 = 10, ips/10.0.0.1 = 5, ips/<default> = 50, and a
/// user quota, as kafka-configs.sh lines.
const QUOTAS: &str = "\
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'connection_creation_rate=10' --entity-type ips --entity-name 0:0:0:0:0:0:0:1
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'connection_creation_rate=5' --entity-type ips --entity-name 10.0.0.1
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'connection_creation_rate=50' --entity-type ips --entity-default
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=1048576' --entity-type users --entity-name alice
";

fn quotas_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temp file");
    f.write_all(text.as_bytes()).expect("written");
    f
}

/// The standard output of a successful `kafka-quota resolve --quotas FILE
/// ARGS`, FILE holding `text`.
fn resolve_stdout(args: &[&str], text: &str) -> String {
    let f = quotas_file(text);
    let out = kafka_quota()
        .args(["resolve", "--quotas"])
        .arg(f.path())
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8")
}

fn first_line(args: &[&str], text: &str) -> String {
    resolve_stdout(args, text).lines().next().unwrap_or_default().to_owned()
}

#[test]
fn every_textual_form_of_an_address_gets_its_quota() {
    assert_eq!(
        first_line(&["--ip", "::1"], QUOTAS),
        "New connections from ::1 (address 0:0:0:0:0:0:0:1) are limited to 10.0 connections/s per broker by ips/0:0:0:0:0:0:0:1, the same address written another way: Kafka compares addresses, not text."
    );
    assert!(first_line(&["--ip", "::ffff:10.0.0.1"], QUOTAS).contains("limited to 5.0 connections/s per broker by ips/10.0.0.1"));
    assert_eq!(
        first_line(&["--ip", "10.0.0.1"], QUOTAS),
        "New connections from 10.0.0.1 are limited to 5.0 connections/s per broker by ips/10.0.0.1."
    );
}

#[test]
fn other_addresses_get_the_default_or_nothing() {
    assert!(first_line(&["--ip", "192.168.1.1"], QUOTAS).contains("limited to 50.0 connections/s per broker by ips/<default>"));
    let only_one = QUOTAS.lines().next().unwrap_or_default();
    assert_eq!(
        first_line(&["--ip", "1.2.3.4"], only_one),
        "New connections from 1.2.3.4 are not rate-limited: no ips/ quota matches that address and there is no ips/<default>."
    );
}

#[test]
fn ip_beside_a_connection_adds_its_answer_to_the_json() {
    let out = resolve_stdout(&["--json", "--listener", "SASL_PLAINTEXT", "--user", "alice", "--ip", "::1"], QUOTAS);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["ip"]["entity"], "ips/0:0:0:0:0:0:0:1");
    assert_eq!(v["ip"]["limit"], 10.0);
    assert_eq!(v["ip"]["unit"], "connections/s");
    assert_eq!(v["format"], "kafka-quota/resolve");
    assert_eq!(v["version"], 1);
    assert_eq!(v["principal"]["principal"], "User:alice");
}

/// `resolve ARGS --quotas FILE`'s stderr, which must be a usage error (exit code 2).
fn usage_error(args: &[&str]) -> String {
    let f = quotas_file(QUOTAS);
    let err = kafka_quota()
        .arg("resolve")
        .args(args)
        .arg("--quotas")
        .arg(f.path())
        .assert()
        .failure()
        .code(2)
        .get_output()
        .stderr
        .clone();
    String::from_utf8(err).expect("UTF-8")
}

#[test]
fn a_host_name_or_garbage_is_refused_with_the_reason() {
    // A usage error (exit code 2), said before --quotas is read: no import
    // note comes first.
    let err = usage_error(&["--ip", "broker.example.com"]);
    assert!(
        // The sentence the page's Source IP field and a scenario file give.
        err.starts_with("error: invalid value 'broker.example.com' for '--ip <ADDRESS>': 'broker.example.com' is not an IP address. The broker sees the client's socket address: an IPv4 or IPv6 literal"),
        "{err}"
    );
    assert!(usage_error(&["--ip", " "]).starts_with("error: invalid value ' ' for '--ip <ADDRESS>'"));
}

#[test]
fn identity_flags_without_a_listener_are_a_usage_error() {
    // --ip alone answers the connection rate; --user would be ignored, so
    // it needs --listener.
    for flag in [&["--user", "alice"][..], &["--client-id", "app"], &["--quota-type", "produce"], &["--leaders", "3"], &["--kerberos-rules", "DEFAULT"]] {
        let mut args = vec!["--ip", "10.0.0.1"];
        args.extend_from_slice(flag);
        let err = usage_error(&args);
        assert!(err.contains("the following required arguments were not provided:\n  --listener <LISTENER>"), "{flag:?}: {err}");
    }
}

/// Issue 29: `--explain` with `--ip` alone is the address's answer with its
/// detail, not a demand for `--listener`.
#[test]
fn explain_with_ip_alone_gives_the_address_detail() {
    let out = resolve_stdout(&["--ip", "10.0.0.1", "--explain"], QUOTAS);
    assert!(out.starts_with("New connections from 10.0.0.1 are limited to 5.0 connections/s per broker by ips/10.0.0.1."), "{out}");
    assert!(out.contains("connection_creation_rate (ip 10.0.0.1):\n  limit: 5.0 connections/s per broker from ips/10.0.0.1\n"), "{out}");
}

#[test]
fn a_connection_kafka_closes_still_gets_its_connection_rate() {
    // SSL with a required certificate and no --dn: no principal, but the
    // connection rate is checked when the socket is accepted.
    let f = quotas_file(QUOTAS);
    let out = kafka_quota()
        .args(["resolve", "--listener", "SSL", "--ssl-client-auth", "required", "--ip", "10.0.0.1", "--quotas"])
        .arg(f.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("Kafka closes this connection before any client quota applies"), "{stderr}");
    assert!(stdout.starts_with("New connections from 10.0.0.1 are "), "{stdout}");
    assert!(stdout.contains("connection_creation_rate (ip 10.0.0.1):"), "{stdout}");
}
