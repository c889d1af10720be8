//! The describe printer and parser round-trip, and a store printed by the
//! tool's describe output imports back to the same store.

use std::collections::BTreeMap;

use proptest::prelude::*;
use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore};
use quota_formats::describe::{describe_lines, format_line, parse_describe_output};

fn name() -> impl Strategy<Value = EntityName> {
    prop_oneof![
        1 => Just(EntityName::Default),
        4 => "[A-Za-z0-9._@=:/ -]{1,16}".prop_filter("no $ placeholders", |s| !s.contains('$')).prop_map(EntityName::Named),
    ]
}

fn entity() -> impl Strategy<Value = QuotaEntity> {
    prop_oneof![
        name().prop_map(QuotaEntity::User),
        name().prop_map(QuotaEntity::ClientId),
        (name(), name())
            .prop_map(|(user, client_id)| QuotaEntity::UserClientId { user, client_id }),
        prop_oneof![
            Just(EntityName::Default),
            "(10|192)\\.0\\.[0-9]\\.[1-9]".prop_map(EntityName::Named)
        ]
        .prop_map(QuotaEntity::Ip),
    ]
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u64..=9_007_199_254_740_991).prop_map(|v| v as f64),
        (1e-6f64..1e12),
        Just(0.2),
        Just(1e7),
    ]
}

fn values_for(entity: &QuotaEntity) -> BoxedStrategy<Vec<(QuotaKey, f64)>> {
    if entity.is_ip() {
        (1u32..=1_000_000)
            .prop_map(|v| vec![(QuotaKey::ConnectionCreationRate, f64::from(v))])
            .boxed()
    } else {
        proptest::sample::subsequence(QuotaKey::CLIENT_KEYS.to_vec(), 1..=4)
            .prop_flat_map(|keys| {
                let n = keys.len();
                (Just(keys), proptest::collection::vec(value(), n))
            })
            .prop_map(|(keys, vals)| keys.into_iter().zip(vals).collect())
            .boxed()
    }
}

proptest! {
    #[test]
    fn printed_lines_parse_back(pair in entity().prop_flat_map(|e| { let v = values_for(&e); (Just(e), v) })) {
        let (entity, values) = pair;
        let line = format_line(&entity, &values);
        let import = parse_describe_output(&line).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        prop_assert_eq!(import.quotas.len(), 1);
        prop_assert_eq!(&import.quotas[0].entity, &entity);
        prop_assert_eq!(&import.quotas[0].values, &values);
    }

    #[test]
    fn a_stores_describe_output_imports_to_the_same_store(
        entries in proptest::collection::vec(entity().prop_flat_map(|e| { let v = values_for(&e); (Just(e), v) }), 0..8)
    ) {
        let mut store = QuotaStore::new();
        for (entity, values) in &entries {
            for (k, v) in values {
                // Integral keys take integral values only: keep what Kafka accepts.
                let v = if matches!(k, QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate | QuotaKey::ConnectionCreationRate) { v.ceil() } else { *v };
                let _ = store.set(entity, *k, v);
            }
        }
        let text = describe_lines(store.entries()).join("\n");
        let mut back = QuotaStore::new();
        parse_describe_output(&text).and_then(|i| i.apply(&mut back)).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        let a: BTreeMap<_, _> = store.entries().map(|(e, v)| (e.clone(), v.clone())).collect();
        let b: BTreeMap<_, _> = back.entries().map(|(e, v)| (e.clone(), v.clone())).collect();
        prop_assert_eq!(a, b);
    }
}
