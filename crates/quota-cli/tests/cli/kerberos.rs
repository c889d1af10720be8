//! `kafka-quota resolve --kerberos`: the DEFAULT rule needs the broker's
//! krb5 default realm; without `--kerberos-realm` the principal's own realm
//! stands in for it (a single-realm cluster), and `--kerberos-realm ""`
//! gives Kafka's behaviour on a broker with no krb5 default realm.

use super::common::kafka_quota;

const RUNBOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/runbook.sh");

fn resolve(extra: &[&str]) -> assert_cmd::assert::Assert {
    kafka_quota()
        .args(["resolve", "--quotas", RUNBOOK, "--listener", "SASL_SSL", "--kerberos", "tenantUserA@EXAMPLE.COM"])
        .args(extra)
        .assert()
}

#[test]
fn default_rule_strips_the_principals_own_realm_by_default() {
    let out = resolve(&[]).success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("User:tenantUserA, client-id \"\", SASL_SSL listener:\n"), "{text}");
    assert!(text.contains("  producer_byte_rate        2 MB/s per broker (2000000.0 bytes/s) from users/tenantUserA (rung 3)"), "{text}");
}

#[test]
fn a_broker_without_a_default_realm_closes_the_connection() {
    let out = resolve(&["--kerberos-realm", ""]).failure().code(1).get_output().stderr.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("No rules apply to tenantUserA@EXAMPLE.COM, rules [DEFAULT]"), "{text}");
}

#[test]
fn another_realm_is_not_stripped_by_default() {
    let out = resolve(&["--kerberos-realm", "OTHER.ORG"]).failure().code(1).get_output().stderr.clone();
    assert!(String::from_utf8(out).unwrap().contains("No rules apply"));
}
