//! The Strimzi export against Strimzi's own `KafkaUser` CRD (1.2.0,
//! vendored in `tests/fixtures/strimzi-crd` with its provenance): every
//! KafkaUser written validates against the `v1` `openAPIV3Schema`, its
//! apiVersion is one the CRD serves, and no field it writes is one the API
//! server would prune as unknown.

use proptest::prelude::*;
use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore};
use quota_formats::detect::{import, Format};
use quota_formats::interchange::ExportOptions;
use quota_formats::strimzi::{export, export_with};
use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{json, Map, Value};

use super::read_fixture;

/// A YAML node as JSON (what kubectl sends the API server).
fn to_json(y: &Yaml<'_>) -> Value {
    match y {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => json!(b),
        Yaml::Value(Scalar::Integer(i)) => json!(i),
        Yaml::Value(Scalar::FloatingPoint(f)) => json!(f.into_inner()),
        Yaml::Value(Scalar::String(s)) => json!(s.as_ref()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Mapping(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.as_str().expect("string keys").to_owned(), to_json(v)))
                .collect::<Map<_, _>>(),
        ),
        other => panic!("a YAML node kubectl would not send: {other:?}"),
    }
}

/// The YAML documents of a text, as JSON (null documents left out).
fn documents(text: &str) -> Vec<Value> {
    Yaml::load_from_str(text)
        .expect("well-formed YAML")
        .iter()
        .map(to_json)
        .filter(|d| !d.is_null())
        .collect()
}

/// The CRD's served versions and the `openAPIV3Schema` of `v1`.
fn crd() -> (Vec<String>, Value) {
    let crd = documents(&read_fixture("strimzi-crd/044-Crd-kafkauser.yaml"))
        .pop()
        .expect("one document");
    assert_eq!(crd["spec"]["names"]["kind"], "KafkaUser");
    let versions = crd["spec"]["versions"].as_array().expect("versions");
    let served: Vec<String> = versions
        .iter()
        .filter(|v| v["served"] == true)
        .map(|v| format!("{}/{}", crd["spec"]["group"].as_str().unwrap(), v["name"].as_str().unwrap()))
        .collect();
    let v1 = versions.iter().find(|v| v["name"] == "v1").expect("a v1 version");
    (served, v1["schema"]["openAPIV3Schema"].clone())
}

/// The fields of `doc` the API server would drop as unknown: keys of an
/// object whose schema lists `properties` (and does not preserve unknown
/// fields) that are not among them, as JSON paths.
fn pruned(doc: &Value, schema: &Value, path: &str, out: &mut Vec<String>) {
    match doc {
        Value::Object(m) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let preserve = schema.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true));
            for (k, v) in m {
                let at = format!("{path}.{k}");
                match props.and_then(|p| p.get(k)) {
                    Some(s) => pruned(v, s, &at, out),
                    None if props.is_some() && !preserve => out.push(at),
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    pruned(v, s, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// Why each KafkaUser of `text` would not be taken by Strimzi 1.2's CRD
/// (empty: every one is).
fn refusals(text: &str) -> Vec<String> {
    let (served, schema) = crd();
    let validator = jsonschema::validator_for(&schema).expect("the CRD's schema compiles");
    let mut out = Vec::new();
    for doc in documents(text) {
        let name = doc["metadata"]["name"].to_string();
        let api = doc["apiVersion"].as_str().unwrap_or_default();
        if !served.iter().any(|s| s == api) {
            out.push(format!("{name}: apiVersion {api} is not served (served: {served:?})"));
        }
        for e in validator.iter_errors(&doc) {
            out.push(format!("{name}: {} at {}", e, e.instance_path()));
        }
        let mut unknown = Vec::new();
        pruned(&doc, &schema, "", &mut unknown);
        for u in unknown {
            out.push(format!("{name}: {u} is not in the schema and would be pruned"));
        }
    }
    out
}

fn store(quotas: &[(QuotaEntity, QuotaKey, f64)]) -> QuotaStore {
    let mut s = QuotaStore::new();
    for (e, k, v) in quotas {
        s.set(e, *k, *v).unwrap();
    }
    s
}

#[test]
fn strimzi_1_2_serves_kafkauser_only_as_v1() {
    let (served, _) = crd();
    assert_eq!(served, ["kafka.strimzi.io/v1"]);
}

#[test]
fn every_kafkauser_written_is_valid_for_strimzi_1_2() {
    let s = store(&[
        (QuotaEntity::user("CN=bob"), QuotaKey::ProducerByteRate, 1_048_576.0),
        (QuotaEntity::user("CN=bob"), QuotaKey::ConsumerByteRate, 2_097_152.0),
        (QuotaEntity::user("alice"), QuotaKey::RequestPercentage, 25.0),
        (QuotaEntity::user("alice"), QuotaKey::ControllerMutationRate, 0.5),
        // Left out of its KafkaUser (a fraction in an integer field), with a comment.
        (QuotaEntity::user("carol"), QuotaKey::RequestPercentage, 12.5),
        (QuotaEntity::user("carol"), QuotaKey::ProducerByteRate, 1000.0),
        (QuotaEntity::client_id("app"), QuotaKey::ProducerByteRate, 1000.0),
    ]);
    let out = export(&s);
    assert_eq!(documents(&out.text).len(), 3, "{}", out.text);
    assert_eq!(refusals(&out.text), Vec::<String>::new(), "{}", out.text);
    // With a namespace and a cluster label of its own, and read back: the same.
    let options = ExportOptions {
        strimzi_cluster: Some("prod-kafka".to_owned()),
        strimzi_namespace: Some("kafka".to_owned()),
        ..ExportOptions::default()
    };
    let out = export_with(&s, &options);
    assert_eq!(refusals(&out.text), Vec::<String>::new(), "{}", out.text);
    let back = import(&out.text, Format::Strimzi).unwrap();
    let again = export_with(&back.store, &back.keep);
    assert_eq!(documents(&again.text), documents(&out.text));
}

#[test]
fn the_schema_check_refuses_what_strimzi_refuses() {
    // The check is not vacuous: the old apiVersion, a fraction in an
    // integer field, a negative rate and a misspelt field are each found.
    let ok = "apiVersion: kafka.strimzi.io/v1\nkind: KafkaUser\nmetadata:\n  name: a\n  labels:\n    strimzi.io/cluster: my-cluster\nspec:\n  quotas:\n    producerByteRate: 1024\n";
    assert_eq!(refusals(ok), Vec::<String>::new());
    for (bad, why) in [
        (ok.replace("/v1\n", "/v1beta2\n"), "apiVersion kafka.strimzi.io/v1beta2 is not served"),
        (ok.replace("1024", "10.5"), "is not of type \"integer\""),
        (ok.replace("1024", "-1"), "is less than the minimum of 0"),
        (ok.replace("producerByteRate", "producer_byte_rate"), ".spec.quotas.producer_byte_rate is not in the schema"),
    ] {
        let r = refusals(&bad);
        assert!(r.iter().any(|m| m.contains(why)), "{why}: {r:?}");
    }
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9-]{0,10}[a-z0-9]",
        "CN=[a-z][a-z0-9.]{0,8}[a-z0-9]",
        "[A-Za-z0-9._:=/@ -]{1,14}",
    ]
}

fn entity() -> impl Strategy<Value = QuotaEntity> {
    prop_oneof![
        4 => name().prop_map(|n| QuotaEntity::User(EntityName::Named(n))),
        1 => Just(QuotaEntity::User(EntityName::Default)),
        1 => name().prop_map(|n| QuotaEntity::ClientId(EntityName::Named(n))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the quotas, what the export writes is what Strimzi 1.2 takes.
    #[test]
    fn any_export_is_valid_for_strimzi_1_2(
        quotas in proptest::collection::vec(
            (entity(), prop_oneof![
                Just(QuotaKey::ProducerByteRate),
                Just(QuotaKey::ConsumerByteRate),
                Just(QuotaKey::RequestPercentage),
                Just(QuotaKey::ControllerMutationRate),
            ], prop_oneof![1.0..5e9f64, (1u32..100_000).prop_map(f64::from)]),
            1..6,
        )
    ) {
        let mut s = QuotaStore::new();
        for (e, k, v) in &quotas {
            let _ = s.set(e, *k, *v);
        }
        let out = export(&s);
        prop_assert_eq!(refusals(&out.text), Vec::<String>::new(), "{}", out.text);
    }
}
