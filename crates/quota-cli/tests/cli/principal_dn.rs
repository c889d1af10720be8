//! `kafka-quota resolve --dn`: the certificate DN as Java reads it
//! (`X500Principal(String)`, then `getName()`, which is what Kafka's
//! `DefaultKafkaPrincipalBuilder` maps), shown as a step of `--explain`;
//! openssl's `subject=` line reversed to Java's order; a DN Java refuses
//! refused with Java's words. Snapshots (insta, `snapshots/`) pin the
//! command line, exit code, stdout and stderr.

use std::path::PathBuf;

use super::common::kafka_quota;

fn run(args: &[&str]) -> (String, i32) {
    let mut cmd = kafka_quota();
    cmd.current_dir(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))).args(args);
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

/// openssl prints `subject=CN = app, OU = eng` for a certificate made with
/// `-subj /CN=app/OU=eng`; Java reads that certificate as `OU=eng,CN=app`,
/// so a rule written for `CN=...,OU=...` order does not match, and the
/// explanation says which DN the rules saw.
#[test]
fn explain_shows_the_dn_java_reads_from_an_openssl_subject_line() {
    let (report, code) = run(&[
        "resolve", "--quotas", "examples/runbook.sh", "--listener", "SSL", "--dn", "subject=CN = app, OU = eng",
        "--ssl-mapping-rules", "RULE:^OU=eng,CN=(.*)$/$1/,DEFAULT", "--quota-type", "produce", "--explain",
    ]);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("Principal: User:app\n  Java reads the certificate subject 'subject=CN = app, OU = eng' (openssl's print: 'subject=' left out, the RDNs reversed from the certificate's order to Java's) as 'OU=eng,CN=app' (X500Principal.getName(), RFC 2253)\n  ssl.principal.mapping.rules entry #0 RULE:^OU=eng,CN=(.*)$/$1/ maps 'OU=eng,CN=app'\n"), "{report}");
    insta::assert_snapshot!(report);
}

/// Spaces around `,` and `=` are not part of the DN Kafka maps: the
/// DEFAULT rule gives `CN=app,OU=eng`, and stderr says that openssl's
/// order would be the reverse.
#[test]
fn a_spaced_dn_is_mapped_without_its_spaces() {
    let (report, code) = run(&[
        "resolve", "--quotas", "examples/runbook.sh", "--listener", "SSL", "--dn", "CN = app, OU = eng", "--quota-type", "produce", "--explain",
    ]);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("Principal: User:CN=app,OU=eng\n  Java reads the certificate subject 'CN = app, OU = eng' as 'CN=app,OU=eng'"), "{report}");
    assert!(report.contains("paste it with its 'subject=' prefix"), "{report}");
    insta::assert_snapshot!(report);
}

/// A DN `new X500Principal(String)` refuses gives no principal, with Java's
/// exception messages.
#[test]
fn a_dn_java_refuses_is_refused_with_javas_message() {
    let (report, code) = run(&["resolve", "--quotas", "examples/runbook.sh", "--listener", "SSL", "--dn", "CN=app,FOO=bar"]);
    assert_ne!(code, 0, "{report}");
    assert!(report.contains("improperly specified input name: CN=app,FOO=bar (java.lang.IllegalArgumentException); caused by: Invalid keyword \"FOO\" (java.io.IOException)"), "{report}");
    insta::assert_snapshot!(report);
}
