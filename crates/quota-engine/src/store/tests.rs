//! Unit and property tests for the store (rules and quirks of
//! `ClientQuotaControlManager` and `ClientQuotasImage.describe`).

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;

fn raw(pairs: &[(&str, Option<&str>)]) -> RawEntity {
    RawEntity(
        pairs
            .iter()
            .map(|(t, n)| ((*t).to_owned(), n.map(str::to_owned)))
            .collect(),
    )
}

fn alt(pairs: &[(&str, Option<&str>)], ops: Vec<Op>) -> Alteration {
    Alteration {
        entity: raw(pairs),
        ops,
    }
}

fn message(r: &AlterResult) -> Option<&str> {
    r.error.as_ref().map(|e| e.message.as_str())
}

#[test]
fn first_bad_key_in_java_hashmap_order_is_reported() {
    let store = QuotaStore::new();
    let plan = store.plan(&[alt(
        &[("user", Some("alice"))],
        vec![
            Op::set("producer_byte_rate", -1.0),
            Op::set("consumer_byte_rate", 0.5),
            Op::set("foo", 1.0),
        ],
    )]);
    // HashMap<>(3) iterates consumer_byte_rate, producer_byte_rate, foo.
    assert_eq!(
        message(&plan.results[0]),
        Some("consumer_byte_rate cannot be a fractional value.")
    );
    assert!(plan.records.is_empty());
}

#[test]
fn records_follow_hashmap_order_and_entity_pairs_put_client_id_first() {
    let store = QuotaStore::new();
    let plan = store.plan(&[alt(
        &[("user", Some("alice")), ("client-id", Some("c1"))],
        vec![
            Op::set("producer_byte_rate", 100.0),
            Op::set("consumer_byte_rate", 200.0),
            Op::set("request_percentage", 12.5),
            Op::set("controller_mutation_rate", 3.0),
        ],
    )]);
    let keys: Vec<&str> = plan.records.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "producer_byte_rate",
            "consumer_byte_rate",
            "controller_mutation_rate",
            "request_percentage"
        ]
    );
    assert_eq!(
        plan.records[0].entity_pairs(),
        raw(&[("client-id", Some("c1")), ("user", Some("alice"))])
    );
    assert_eq!(
        plan.results[0].entity_string,
        "ClientQuotaEntity(entries={client-id=c1, user=alice})"
    );
}

#[test]
fn duplicate_key_reports_ignoring_duplicate_entity() {
    let mut store = QuotaStore::new();
    let results = store.alter(&[alt(
        &[("user", Some("alice"))],
        vec![
            Op::set("producer_byte_rate", 100.0),
            Op::set("producer_byte_rate", 200.0),
        ],
    )]);
    assert_eq!(
        message(&results[0]),
        Some("Ignoring duplicate entity ClientQuotaEntity(entries={user=alice})")
    );
    assert!(store.is_empty());
}

#[test]
fn duplicate_entity_keeps_first_records_but_reports_error() {
    let mut store = QuotaStore::new();
    let results = store.alter(&[
        alt(
            &[("user", Some("alice")), ("client-id", Some("c"))],
            vec![Op::set("producer_byte_rate", 100.0)],
        ),
        alt(
            &[("client-id", Some("c")), ("user", Some("alice"))],
            vec![Op::set("consumer_byte_rate", 200.0)],
        ),
    ]);
    assert_eq!(results.len(), 1);
    assert_eq!(
        message(&results[0]),
        Some("Ignoring duplicate entity ClientQuotaEntity(entries={client-id=c, user=alice})")
    );
    let e = QuotaEntity::UserClientId {
        user: EntityName::Named("alice".into()),
        client_id: EntityName::Named("c".into()),
    };
    assert_eq!(
        store.get(&e),
        Some(&BTreeMap::from([(QuotaKey::ProducerByteRate, 100.0)]))
    );
}

#[test]
fn one_bad_entity_does_not_block_others() {
    let mut store = QuotaStore::new();
    let results = store.alter(&[
        alt(
            &[("user", Some("alice"))],
            vec![Op::set("producer_byte_rate", 100.0), Op::set("consumer_byte_rate", 0.5)],
        ),
        alt(&[("client-id", Some("c2"))], vec![Op::set("producer_byte_rate", 300.0)]),
    ]);
    assert!(!results[0].is_ok());
    assert!(results[1].is_ok());
    assert_eq!(store.get(&QuotaEntity::user("alice")), None);
    assert_eq!(
        store.get(&QuotaEntity::client_id("c2")),
        Some(&BTreeMap::from([(QuotaKey::ProducerByteRate, 300.0)]))
    );
}

#[test]
fn unchanged_value_and_missing_remove_write_nothing() {
    let mut store = QuotaStore::new();
    let alice = QuotaEntity::user("alice");
    store.set(&alice, QuotaKey::ProducerByteRate, 100.0).expect("valid");
    let plan = store.plan(&[alt(
        &[("user", Some("alice"))],
        vec![
            Op::set("producer_byte_rate", 100.0),
            Op::remove("consumer_byte_rate"),
            Op::remove("no_such_key"),
        ],
    )]);
    assert!(plan.results[0].is_ok());
    assert!(plan.records.is_empty());
    store
        .set(&alice, QuotaKey::RequestPercentage, f64::NAN)
        .expect("NaN passes Kafka's checks");
    let plan = store.plan(&[alt(
        &[("user", Some("alice"))],
        vec![Op::set("request_percentage", f64::NAN)],
    )]);
    assert!(plan.records.is_empty(), "Double.equals treats NaN as equal to NaN");
}

#[test]
fn removing_last_key_removes_entity() {
    let mut store = QuotaStore::new();
    let e = QuotaEntity::Ip(EntityName::Named("10.0.0.1".into()));
    store.set(&e, QuotaKey::ConnectionCreationRate, 5.0).expect("valid");
    assert_eq!(store.entries().count(), 1);
    store.remove(&e, QuotaKey::ConnectionCreationRate).expect("valid");
    assert!(store.is_empty());
}

#[test]
fn set_reports_kafka_messages() {
    let mut store = QuotaStore::new();
    let err = store
        .set(&QuotaEntity::user("alice"), QuotaKey::ConnectionCreationRate, 5.0)
        .expect_err("wrong key");
    assert_eq!(err.message, "Invalid configuration key connection_creation_rate");
    let err = store
        .set(&QuotaEntity::user(""), QuotaKey::ProducerByteRate, 5.0)
        .expect_err("empty name");
    assert_eq!(err.message, "Empty user not supported");
    let err = store
        .set(
            &QuotaEntity::Ip(EntityName::Named("localhost".into())),
            QuotaKey::ConnectionCreationRate,
            5.0,
        )
        .expect_err("no DNS");
    assert_eq!(err.message, "localhost is not a valid IP or resolvable host.");
    assert_eq!(err.code.code(), 42);
}

#[test]
fn too_many_records_fail_the_whole_request() {
    let store = QuotaStore::new();
    let alterations: Vec<Alteration> = (0..2501)
        .map(|i| {
            let name = format!("u{i}");
            alt(
                &[("user", Some(name.as_str()))],
                vec![
                    Op::set("producer_byte_rate", 1.0),
                    Op::set("consumer_byte_rate", 1.0),
                    Op::set("request_percentage", 1.0),
                    Op::set("controller_mutation_rate", 1.0),
                ],
            )
        })
        .collect();
    let plan = store.plan(&alterations);
    assert!(plan.records.is_empty());
    assert_eq!(plan.results.len(), 2501);
    assert!(plan
        .results
        .iter()
        .all(|r| r.error.as_ref().is_some_and(|e| e.code == ErrorCode::PolicyViolation)));
    let plan = store.plan(&alterations[..2500]);
    assert_eq!(plan.records.len(), 10_000);
}

fn sample_store() -> QuotaStore {
    let mut s = QuotaStore::new();
    let n = |x: &str| EntityName::Named(x.to_owned());
    for (e, k, v) in [
        (QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1.0),
        (QuotaEntity::User(EntityName::Default), QuotaKey::ProducerByteRate, 2.0),
        (QuotaEntity::client_id("c"), QuotaKey::ConsumerByteRate, 3.0),
        (
            QuotaEntity::UserClientId {
                user: n("alice"),
                client_id: n("c"),
            },
            QuotaKey::RequestPercentage,
            4.0,
        ),
        (
            QuotaEntity::UserClientId {
                user: EntityName::Default,
                client_id: n("c"),
            },
            QuotaKey::RequestPercentage,
            5.0,
        ),
        (QuotaEntity::Ip(n("10.0.0.1")), QuotaKey::ConnectionCreationRate, 6.0),
    ] {
        s.set(&e, k, v).expect("valid sample");
    }
    s
}

fn described(store: &QuotaStore, filter: QuotaFilter) -> Vec<String> {
    store
        .describe(&filter)
        .expect("valid filter")
        .into_iter()
        .map(|(e, _)| e.path())
        .collect()
}

#[test]
fn describe_matches_like_kafka() {
    let s = sample_store();
    assert_eq!(described(&s, QuotaFilter::all()).len(), 6);
    assert_eq!(
        described(
            &s,
            QuotaFilter::contains(vec![FilterComponent::of_entity("user", "alice")])
        ),
        ["users/alice", "users/alice/clients/c"]
    );
    assert_eq!(
        described(
            &s,
            QuotaFilter::contains_only(vec![FilterComponent::of_entity("user", "alice")])
        ),
        ["users/alice"]
    );
    assert_eq!(
        described(
            &s,
            QuotaFilter::contains(vec![FilterComponent::of_default_entity("user")])
        ),
        ["users/<default>", "users/<default>/clients/c"]
    );
    assert_eq!(
        described(
            &s,
            QuotaFilter::contains_only(vec![FilterComponent::of_entity_type("client-id")])
        ),
        ["clients/c"]
    );
    assert_eq!(described(&s, QuotaFilter::contains_only(vec![])), Vec::<String>::new());
}

#[test]
fn describe_filter_errors() {
    let s = sample_store();
    let err = |f: QuotaFilter| s.describe(&f).expect_err("bad filter");
    let e = err(QuotaFilter::contains(vec![FilterComponent::of_entity_type("")]));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::InvalidRequest, "Invalid empty entity type.")
    );
    let e = err(QuotaFilter::contains(vec![
        FilterComponent::of_entity("user", "a"),
        FilterComponent::of_entity_type("user"),
    ]));
    assert_eq!(
        e.message,
        "Entity type user cannot appear more than once in the filter."
    );
    let e = err(QuotaFilter::contains(vec![FilterComponent::of_entity_type("group")]));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::UnsupportedVersion, "Unsupported entity type group")
    );
    let e = err(QuotaFilter::contains(vec![
        FilterComponent::of_entity_type("ip"),
        FilterComponent::of_default_entity("client-id"),
    ]));
    assert_eq!(
        e.message,
        "Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component."
    );
}

fn arb_entity() -> impl Strategy<Value = QuotaEntity> {
    let name = prop_oneof![
        Just(EntityName::Default),
        prop::sample::select(vec!["alice", "bob", "<default>", "c 1"]).prop_map(|s| EntityName::Named(s.to_owned())),
    ];
    let ip = prop_oneof![
        Just(EntityName::Default),
        prop::sample::select(vec!["10.0.0.1", "::1", "192.168.0.1"]).prop_map(|s| EntityName::Named(s.to_owned())),
    ];
    prop_oneof![
        name.clone().prop_map(QuotaEntity::User),
        name.clone().prop_map(QuotaEntity::ClientId),
        (name.clone(), name).prop_map(|(user, client_id)| QuotaEntity::UserClientId { user, client_id }),
        ip.prop_map(QuotaEntity::Ip),
    ]
}

fn arb_step() -> impl Strategy<Value = (QuotaEntity, u8, Option<u32>)> {
    (arb_entity(), 0u8..4, prop::option::of(1u32..1000))
}

proptest! {
    /// Any sequence of valid set/remove ops leaves the store equal to a
    /// plain model map, and describe with an exact filter returns `get`.
    #[test]
    fn valid_ops_match_a_model_map(steps in prop::collection::vec(arb_step(), 0..40)) {
        let mut store = QuotaStore::new();
        let mut model: BTreeMap<QuotaEntity, BTreeMap<QuotaKey, f64>> = BTreeMap::new();
        for (entity, key_index, value) in steps {
            let key = if entity.is_ip() { QuotaKey::ConnectionCreationRate } else { QuotaKey::CLIENT_KEYS[usize::from(key_index)] };
            match value {
                Some(v) => {
                    store.set(&entity, key, f64::from(v)).expect("valid set");
                    model.entry(entity.clone()).or_default().insert(key, f64::from(v));
                }
                None => {
                    store.remove(&entity, key).expect("valid remove");
                    if let Some(m) = model.get_mut(&entity) {
                        m.remove(&key);
                        if m.is_empty() { model.remove(&entity); }
                    }
                }
            }
            let described = store.describe(&QuotaFilter::exact(&entity)).expect("exact filter is valid");
            let expected: Vec<_> = store.get(&entity).map(|v| (entity.clone(), v.clone())).into_iter().collect();
            prop_assert_eq!(described, expected);
        }
        let got: BTreeMap<_, _> = store.entries().map(|(e, v)| (e.clone(), v.clone())).collect();
        prop_assert_eq!(got, model);
    }

    /// Whatever the request, plan never changes the store, and a failed
    /// entity emits no record.
    #[test]
    fn failed_entities_emit_nothing(
        keys in prop::collection::vec(prop::sample::select(vec!["producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate", "connection_creation_rate", "foo"]), 1..6),
        values in prop::collection::vec(prop_oneof![Just(-1.0), Just(0.5), Just(10.0), Just(1e19)], 6),
    ) {
        let store = sample_store();
        let ops: Vec<Op> = keys.iter().zip(values).map(|(k, v)| Op::set(k, v)).collect();
        let plan = store.plan(&[alt(&[("user", Some("zed"))], ops)]);
        if !plan.results[0].is_ok() {
            prop_assert!(plan.records.is_empty());
        }
        prop_assert_eq!(store, sample_store());
    }
}
