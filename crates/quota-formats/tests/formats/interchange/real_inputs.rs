//! Every real Strimzi, Terraform and rpk input is imported with the right
//! quotas or refused with a message that names the line, the column and
//! the reason; every real input of every format is auto-detected.

use std::collections::BTreeMap;

use quota_engine::QuotaStore;
use quota_formats::detect::{detect, import, Format};
use quota_formats::ErrorKind;

use super::*;

/// What one item must give.
enum Want {
    /// These entities (by path) with these values.
    Quotas(&'static [(&'static str, &'static [(&'static str, f64)])]),
    /// An error at (line, column) whose message contains the text.
    Refused(u32, u32, &'static str),
}

/// (part of the source line or file name, expected format, outcome).
fn expectations() -> Vec<(&'static str, Format, Want)> {
    use Want::*;
    vec![
        // Strimzi (line numbers count the `# source:` line each file starts with).
        ("01-strimzi-conversion-user-v1alpha1", Format::Strimzi, Quotas(&[("users/CN=my-user", &[("producer_byte_rate", 1048576.0), ("consumer_byte_rate", 2097152.0), ("request_percentage", 55.0)])])),
        ("03-kfkcli-user-with-one-quota", Format::Strimzi, Quotas(&[("users/my-user", &[("request_percentage", 55.0)])])),
        ("05-kfkcli-user-with-quotas-empty", Format::Strimzi, Quotas(&[])),
        ("06-phalanx-helm-connect-user", Format::Strimzi, Refused(5, 9, "the Helm/Go template placeholder {{ .Values.cluster.name }} stands in `name:`")),
        ("07-curso-strimzi-app-pagos", Format::Strimzi, Quotas(&[("users/app-pagos", &[("producer_byte_rate", 102400.0)])])),
        ("08-curso-strimzi-multidoc", Format::Strimzi, Quotas(&[("users/app-pagos", &[("producer_byte_rate", 102400.0)])])),
        ("09-strimzi-docs-adoc-callouts", Format::Strimzi, Quotas(&[("users/my-user", &[("producer_byte_rate", 1048576.0), ("consumer_byte_rate", 2097152.0), ("request_percentage", 55.0), ("controller_mutation_rate", 10.0)])])),
        ("12-strimzi-training-fragment", Format::Strimzi, Refused(2, 3, "a `quotas:` fragment without its KafkaUser is not supported because it names no user")),
        // Terraform (line numbers count from the item's first line after `# source:`).
        ("modules/tls-app/README.md", Format::Terraform, Refused(2, 17, "the Terraform expression `module.example.user_name` stands in entity_name")),
        ("mirror-maker.tf", Format::Terraform, Quotas(&[("users/CN=team-a/mirror-maker", &[("producer_byte_rate", 5242880.0), ("request_percentage", 100.0)])])),
        ("modules/tls-app/main.tf", Format::Terraform, Refused(2, 17, "the Terraform expression `\"User:CN=${var.cert_common_name}\"` stands in entity_name")),
        ("pubsub-examples.tf", Format::Terraform, Quotas(&[("users/User:CN=team-a/example-consume-process-individually", &[("consumer_byte_rate", 5242880.0), ("request_percentage", 100.0)])])),
        ("quick-start.md", Format::Terraform, Refused(24, 17, "INVALID_REQUEST: 192.0.2.0/24 is not a valid IP or resolvable host.")),
        ("quota.html.markdown", Format::Terraform, Quotas(&[("clients/app_consumer", &[("consumer_byte_rate", 5000000.0), ("producer_byte_rate", 2500000.0)])])),
        ("aiven_kafka_quota/resource.tf", Format::Terraform, Quotas(&[("users/example-kafka-user/clients/example_client", &[("consumer_byte_rate", 1000.0), ("producer_byte_rate", 1000.0), ("request_percentage", 50.0)])])),
        // rpk.
        ("rpk-v26.1.12.json", Format::Rpk, Refused(1, 1, "the entity type client-id-prefix is not supported because it is Redpanda's own")),
        ("line 669", Format::Rpk, Quotas(&[("users/<default>/clients/payment-processor", &[("producer_byte_rate", 500000.0)])])),
        ("line 627", Format::Rpk, Quotas(&[("clients/<default>", &[("producer_byte_rate", 1e9)])])),
        ("line 649", Format::Rpk, Quotas(&[])),
        ("line 689", Format::Rpk, Refused(1, 1, "quotas[1] (the entity type client-id-prefix) is not supported")),
        ("lines 533-538", Format::Rpk, Quotas(&[("users/alice", &[("producer_byte_rate", 2000000.0)])])),
    ]
}

fn as_map(store: &QuotaStore) -> BTreeMap<String, BTreeMap<String, f64>> {
    store
        .entries()
        .map(|(e, v)| {
            (
                e.path(),
                v.iter().map(|(k, x)| (k.as_str().to_owned(), *x)).collect(),
            )
        })
        .collect()
}

/// Every item of the real inputs: (label, text).
fn all_items() -> Vec<(String, String)> {
    let mut all = Vec::new();
    let dir = fixtures().join("real-inputs/strimzi");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .collect();
    files.sort();
    for p in files {
        all.push((
            p.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    for file in [
        "terraform.txt",
        "rpk.txt",
        "configs-commands.txt",
        "describe-outputs.txt",
    ] {
        all.extend(items(&read_fixture(&format!("real-inputs/{file}"))));
    }
    all
}

#[test]
fn every_strimzi_terraform_and_rpk_input_is_imported_or_refused_precisely() {
    let items = all_items();
    let mut checked = 0;
    for (needle, format, want) in expectations() {
        let matching: Vec<&(String, String)> = items
            .iter()
            .filter(|(label, _)| label.contains(needle))
            .collect();
        assert_eq!(matching.len(), 1, "{needle} should name exactly one item");
        let (label, text) = matching[0];
        let found = detect(text).unwrap_or_else(|e| panic!("{label}: not detected: {e}"));
        assert_eq!(found.format, format, "{label}: {}", found.reason);
        match (import(text, format), want) {
            (Ok(got), Want::Quotas(quotas)) => {
                let wanted: BTreeMap<String, BTreeMap<String, f64>> = quotas
                    .iter()
                    .map(|(e, v)| {
                        (
                            (*e).to_owned(),
                            v.iter().map(|(k, x)| ((*k).to_owned(), *x)).collect(),
                        )
                    })
                    .collect();
                assert_eq!(as_map(&got.store), wanted, "{label}");
                if quotas.is_empty() {
                    assert!(
                        !got.notes.is_empty(),
                        "{label}: an import of nothing must say why"
                    );
                }
            }
            (Err(e), Want::Refused(line, column, text)) => {
                let m = e.to_string();
                assert_eq!(
                    (e.position.line, e.position.column),
                    (line, column),
                    "{label}: {m}"
                );
                assert!(m.contains(text), "{label}: {m}");
                assert!(m.ends_with('.'), "{label}: {m}");
            }
            (Ok(got), Want::Refused(..)) => panic!(
                "{label}: imported {:?}, expected a refusal",
                as_map(&got.store)
            ),
            (Err(e), Want::Quotas(_)) => panic!("{label}: refused: {e}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 21);
}

#[test]
fn every_real_input_is_detected_and_imported_or_refused_with_line_and_reason() {
    let items = all_items();
    assert!(items.len() >= 58, "{}", items.len());
    for (label, text) in &items {
        let found = detect(text).unwrap_or_else(|e| panic!("{label}: not detected: {e}"));
        match import(text, found.format) {
            Ok(got) => assert!(
                !got.store.is_empty() || !got.notes.is_empty(),
                "{label}: imported nothing without a note"
            ),
            Err(e) => {
                assert!(e.position.line >= 1 && e.position.column >= 1, "{label}");
                let m = e.to_string();
                assert!(
                    m.starts_with(&format!(
                        "Line {}, column {}",
                        e.position.line, e.position.column
                    )),
                    "{m}"
                );
                assert!(m.ends_with('.'), "{label}: {m}");
                // A refusal says what and why, never just "invalid".
                match &e.kind {
                    ErrorKind::Unsupported { what, why } => {
                        assert!(!what.is_empty() && !why.is_empty())
                    }
                    ErrorKind::Syntax { expected, found } => {
                        assert!(!expected.is_empty() && !found.is_empty())
                    }
                    _ => {}
                }
            }
        }
    }
}
