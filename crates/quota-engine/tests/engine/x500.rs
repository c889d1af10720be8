//! The certificate DN as JDK 17 reads it: every case of
//! `tests/fixtures/x500-vectors.json`, made by running the real
//! `javax.security.auth.x500.X500Principal` (and openssl 3 for the printed
//! subjects) through `tests/x500/GenX500.java` (`scripts/gen-x500-vectors.sh`).
//!
//! - `typed`: `new X500Principal(input).getName()` (the RFC 2253 DN Kafka's
//!   `DefaultKafkaPrincipalBuilder` maps), or the `IllegalArgumentException`
//!   and its `IOException` cause when Java refuses the input.
//! - `openssl`: a certificate openssl made; the engine reads each of the
//!   three subject lines openssl prints for it and must give the subject
//!   Java reads from the certificate itself.

use quota_engine::principal::{read_certificate_subject, ErrorClass, SubjectForm, X500Name};
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/x500-vectors.json");
    let text = std::fs::read_to_string(path).expect("read x500-vectors.json");
    serde_json::from_str(&text).expect("parse x500-vectors.json")
}

/// The cases of `kind`; with `X500_VECTORS_EXTRA` naming a file of the
/// same format (`GenX500.java --typed-from`), its cases too.
fn cases(kind: &str) -> Vec<Value> {
    let mut all = vectors()["cases"].as_array().expect("cases").clone();
    if let Some(extra) = std::env::var_os("X500_VECTORS_EXTRA").filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(&extra).expect("read X500_VECTORS_EXTRA");
        let v: Value = serde_json::from_str(&text).expect("parse X500_VECTORS_EXTRA");
        all.extend(v["cases"].as_array().expect("cases").iter().cloned());
    }
    all.into_iter().filter(|c| c["kind"] == kind).collect()
}

/// Every typed input gives Java's `getName()`, or Java's refusal with the
/// same exception classes and messages.
#[test]
fn typed_dns_read_as_java_17_x500principal_reads_them() {
    let cases = cases("typed");
    assert!(cases.len() >= 60, "only {} typed cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let input = c["input"].as_str().expect("input");
        let got = X500Name::parse(input);
        if c["ok"] == true {
            let want = c["rfc2253"].as_str().expect("rfc2253");
            match got {
                Ok(name) if name.rfc2253() == want => {}
                Ok(name) => failures.push(format!("{input:?}: want {want:?}, got {:?}", name.rfc2253())),
                Err(e) => failures.push(format!("{input:?}: want {want:?}, refused: {e}")),
            }
        } else {
            let want = (
                c["message"].as_str().unwrap_or_default(),
                c["cause_class"].as_str().unwrap_or_default(),
                c["cause_message"].as_str().unwrap_or_default(),
            );
            match got {
                Ok(name) => failures.push(format!("{input:?}: Java refuses ({want:?}), engine gave {:?}", name.rfc2253())),
                Err(e) => {
                    assert_eq!(e.class(), ErrorClass::IllegalArgument, "{input:?}: {e}");
                    let cause = e.cause().map(|c| (c.class().java_name(), c.message())).unwrap_or_default();
                    let got = (e.message(), cause.0, cause.1);
                    if got != want {
                        failures.push(format!("{input:?}: want {want:?}, got {got:?}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// openssl's three prints of a certificate's subject (default `oneline`,
/// `-nameopt compat`, `-nameopt RFC2253`) all read as the DN Java reads from
/// that certificate.
#[test]
fn openssl_prints_read_as_the_subject_java_reads_from_the_certificate() {
    let cases = cases("openssl");
    assert!(cases.len() >= 10, "only {} openssl cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let want = c["certificate_rfc2253"].as_str().expect("certificate_rfc2253");
        for (field, form) in [
            ("openssl_subject", SubjectForm::OpensslOneline),
            ("openssl_compat", SubjectForm::OpensslSlashes),
            ("openssl_rfc2253", SubjectForm::OpensslRfc2253),
        ] {
            let line = c[field].as_str().expect("subject line");
            match read_certificate_subject(line) {
                Ok(s) if s.canonical == want && (s.form == form || !line.contains('=')) => {}
                Ok(s) => failures.push(format!("{line:?}: want {want:?} ({form:?}), got {:?} ({:?})", s.canonical, s.form)),
                Err(e) => failures.push(format!("{line:?}: want {want:?}, refused: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

/// The file records the JDK that produced it: Kafka 4.3.1's baseline, 17.
#[test]
fn vectors_come_from_jdk_17() {
    let v = vectors();
    let version = v["java_version"].as_str().expect("java_version");
    assert!(version.starts_with("17."), "{version}");
}

proptest::proptest! {
    /// Nothing typed or pasted panics: any text over DN syntax characters
    /// gives a DN or a refusal (`X500Principal` throws or returns, never crashes).
    #[test]
    fn any_text_reads_or_is_refused_without_panicking(s in "[A-Za-z0-9 .,;+=#\"\\\\<>/é\n\r-]{0,40}") {
        let _ = X500Name::parse(&s).map(|n| n.rfc2253());
        let _ = read_certificate_subject(&s);
        let _ = read_certificate_subject(&format!("subject={s}"));
        let _ = read_certificate_subject(&format!("subject= /{s}"));
    }
}
