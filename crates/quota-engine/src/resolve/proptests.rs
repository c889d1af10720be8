//! Property tests for resolution invariants.

use proptest::prelude::*;

use super::*;
use crate::entity::{EntityName, QuotaEntity, QuotaType};

/// Names an entity can carry: the store rejects empty names
/// ("Empty user not supported"), so none is empty here.
const USERS: [&str; 3] = ["alice", "bob", "CN=a,OU=b"];
const CLIENTS: [&str; 2] = ["c1", "c2"];
/// Connections may come from anyone, with any client id (empty included).
const CONN_USERS: [&str; 5] = ["alice", "bob", "CN=a,OU=b", "carol", ""];
const CONN_CLIENTS: [&str; 4] = ["c1", "c2", "c3", ""];

fn name(pool: &'static [&'static str]) -> impl Strategy<Value = EntityName> {
    prop_oneof![
        1 => Just(EntityName::Default),
        3 => proptest::sample::select(pool).prop_map(|s| EntityName::Named(s.to_owned())),
    ]
}

fn entity() -> impl Strategy<Value = QuotaEntity> {
    prop_oneof![
        name(&USERS).prop_map(QuotaEntity::User),
        name(&CLIENTS).prop_map(QuotaEntity::ClientId),
        (name(&USERS), name(&CLIENTS))
            .prop_map(|(user, client_id)| QuotaEntity::UserClientId { user, client_id }),
    ]
}

/// A sequence of set (Some) / remove (None) operations.
fn ops() -> impl Strategy<Value = Vec<(QuotaEntity, Option<f64>)>> {
    proptest::collection::vec(
        (entity(), proptest::option::weighted(0.75, 1.0f64..1e6)),
        0..24,
    )
}

fn connection() -> impl Strategy<Value = (&'static str, &'static str)> {
    (
        proptest::sample::select(&CONN_USERS[..]),
        proptest::sample::select(&CONN_CLIENTS[..]),
    )
}

fn build(ops: &[(QuotaEntity, Option<f64>)]) -> DefaultQuotaCallback {
    let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
    for (e, v) in ops {
        m.update_quota(e, *v).unwrap();
    }
    m
}

/// Rung number, 9 for unlimited.
fn rank(r: &Resolution) -> u8 {
    r.rung().map_or(9, Rung::number)
}

proptest! {
    #[test]
    fn adding_a_more_specific_quota_never_falls_to_a_less_specific_rung(
        ops in ops(), (u, c) in connection(), pick in 1u8..=8, value in 1.0f64..1e6,
    ) {
        // Kafka's principal is never empty (ANONYMOUS at least); an empty one
        // is the documented exception (see the unit test
        // `empty_principal_falls_to_unlimited_when_a_user_default_appears`).
        prop_assume!(!u.is_empty());
        let mut m = build(&ops);
        let before = m.resolve(u, c);
        let rung = Rung::from_number(pick).unwrap();
        prop_assume!(rung.number() < rank(&before));
        // An entity with an empty client-id name cannot exist in the store.
        prop_assume!(!(c.is_empty() && matches!(rung, Rung::UserClientId | Rung::DefaultUserClientId | Rung::ClientId)));
        m.update_quota(&rung.entity(u, c), Some(value)).unwrap();
        let after = m.resolve(u, c);
        prop_assert!(rank(&after) <= rank(&before), "{} -> {}", rank(&before), rank(&after));
    }

    #[test]
    fn removing_every_quota_yields_unlimited(ops in ops(), (u, c) in connection()) {
        let mut m = build(&ops);
        let entities: Vec<QuotaEntity> = m.overrides().map(|(e, _)| e.clone()).collect();
        for e in &entities {
            m.update_quota(e, None).unwrap();
        }
        prop_assert_eq!(m.quota_types_enabled(), QuotaTypeFlags::NONE);
        for k in EntityKind::ALL {
            prop_assert_eq!(m.active_entity_count(k), 0);
        }
        let r = m.resolve(u, c);
        prop_assert_eq!(&r.matched, &None);
        prop_assert_eq!(&r.metric_tags, &None);
        prop_assert_eq!(r.bound(), UNLIMITED_BOUND);
    }

    #[test]
    fn flags_are_exactly_the_kinds_holding_quotas(ops in ops()) {
        let m = build(&ops);
        let mut counts = [0u32; 3];
        for (e, _) in m.overrides() {
            counts[EntityKind::of(e).unwrap().index()] += 1;
        }
        for k in EntityKind::ALL {
            prop_assert_eq!(m.active_entity_count(k), counts[k.index()]);
            prop_assert_eq!(m.quota_types_enabled().contains(k), counts[k.index()] > 0);
        }
    }

    #[test]
    fn two_connections_share_a_budget_iff_their_metric_tags_are_equal(
        ops in ops(), conns in proptest::collection::vec(connection(), 1..8),
    ) {
        let m = build(&ops);
        let conns: Vec<ClientIdentity> = conns.iter().map(|(u, c)| ClientIdentity::new(u, c)).collect();
        let groups = m.budget_groups(&conns);
        for a in &conns {
            let ra = m.resolve(&a.principal_name, &a.client_id);
            for b in &conns {
                let rb = m.resolve(&b.principal_name, &b.client_id);
                let same_group = match (groups.group_of(a), groups.group_of(b)) {
                    (Some(ga), Some(gb)) => ga.metric_tags == gb.metric_tags,
                    _ => false,
                };
                let equal_tags = ra.metric_tags.is_some() && ra.metric_tags == rb.metric_tags;
                prop_assert_eq!(same_group, equal_tags);
                prop_assert_eq!(ra.shares_budget_with(&rb), equal_tags);
                // One budget, one limit.
                if equal_tags {
                    prop_assert_eq!(ra.limit(), rb.limit());
                }
            }
        }
    }

    #[test]
    fn single_level_shortcut_changes_tags_never_the_limit(ops in ops(), (u, c) in connection()) {
        let m = build(&ops);
        let r = m.resolve(u, c);
        let (walk_tags, _) = m.full_walk(&r.sanitized_user, c);
        prop_assert_eq!(r.limit(), m.quota_limit(&walk_tags));
    }

    #[test]
    fn trace_has_one_applying_rung_exactly_when_a_quota_applies(ops in ops(), (u, c) in connection()) {
        let m = build(&ops);
        let r = m.resolve(u, c);
        let applying: Vec<Rung> = r.trace.iter().filter(|t| t.outcome == RungOutcome::Applies).map(|t| t.rung).collect();
        prop_assert_eq!(applying, r.rung().into_iter().collect::<Vec<_>>());
        prop_assert_eq!(r.trace.len(), 8);
        for t in &r.trace {
            prop_assert!(!t.reason.is_empty());
            if matches!(t.outcome, RungOutcome::Shadowed { .. } | RungOutcome::ExcludedByTags | RungOutcome::Applies) {
                prop_assert!(t.configured.is_some());
            }
            if let RungOutcome::Shadowed { by } = t.outcome {
                prop_assert!(by < t.rung);
            }
        }
    }

    #[test]
    fn sensors_created_right_after_an_update_hold_the_current_limit(ops in ops(), (u, c) in connection()) {
        let mut m = build(&ops);
        m.clear_sensors();
        let r = m.resolve(u, c);
        match m.get_or_create_sensor(u, c) {
            Some(s) => {
                prop_assert_eq!(&Some(s.metric_tags), &r.metric_tags);
                prop_assert_eq!(s.bound, r.bound());
            }
            None => prop_assert!(!r.quotas_enabled()),
        }
    }
}
