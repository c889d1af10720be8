//! One quota type's quota callback: overrides, quota-type flags, sensors.
//!
//! Kafka: `ClientQuotaManager` with its private `DefaultQuotaCallback`
//! (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`,
//! apache/kafka 5ba4a9513924f828b8a291856924bf0f745de3d3 — the version the
//! vectors ran; the older `core/src/main/scala/kafka/server/ClientQuotaManager.scala`
//! never clears a flag).

use std::collections::BTreeMap;

use super::ladder::{EntityKind, QuotaTypeFlags, Rung};
use super::resolution::{
    reason_text, Matched, MetricTags, NotApplicable, Resolution, RungCheck, RungOutcome,
    TagDecision, UNLIMITED_BOUND,
};
use crate::entity::{EntityName, QuotaEntity, QuotaType};
use crate::jdk::double::java_double_equals;
use crate::principal::sanitize;
use crate::Error;

/// One configured quota: the entity as it was set (raw names) and its value.
#[derive(Debug, Clone, PartialEq)]
struct Override {
    entity: QuotaEntity,
    value: f64,
}

/// A quota sensor as the broker holds it: its tags and the bound currently
/// configured on its rate metric.
#[derive(Debug, Clone, PartialEq)]
pub struct SensorState {
    /// The sensor's metric tags.
    pub metric_tags: MetricTags,
    /// The sensor's name (`<QuotaType>-<user>:<client-id>`).
    pub name: String,
    /// The bound on its metric config ([`UNLIMITED_BOUND`] when no quota applied).
    pub bound: f64,
}

/// Kafka's built-in client quota callback for one quota type: the overrides
/// per entity, the quota-type flags with per-kind counts, and the sensors
/// created so far (with the bound on each, which the manager keeps in step).
///
/// Built empty with [`DefaultQuotaCallback::new`], fed with
/// [`DefaultQuotaCallback::update_quota`], queried with
/// [`DefaultQuotaCallback::resolve`] (pure) and
/// [`DefaultQuotaCallback::get_or_create_sensor`] (creates the sensor the
/// broker would create for that connection). The broker's
/// [`crate::broker::ClientQuotaManager`] holds one as its `callback`.
///
/// Kafka: `DefaultQuotaCallback`, the default implementation of
/// `ClientQuotaCallback`
/// (`clients/src/main/java/org/apache/kafka/server/quota/ClientQuotaCallback.java`)
/// that `ClientQuotaManager` uses when `client.quota.callback.class` is not
/// set (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`;
/// `core/src/main/scala/kafka/server/ClientQuotaManager.scala` before), with
/// the sensor updates of `ClientQuotaManager.updateQuotaMetricConfigs`.
/// Formerly `resolve::QuotaManager`.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultQuotaCallback {
    quota_type: QuotaType,
    /// Keyed by the entity with its user name sanitized, as Kafka keys
    /// `KafkaQuotaEntity(UserEntity(sanitizedUser), ...)`.
    overrides: BTreeMap<QuotaEntity, Override>,
    /// Kafka's `activeQuotaEntities`: entities per kind, indexed by `EntityKind::index`.
    active: [u32; 3],
    flags: QuotaTypeFlags,
    /// Quota sensors by tags, with the bound on their metric config.
    sensors: BTreeMap<MetricTags, f64>,
}

/// The entity with its user name sanitized: the key Kafka's callback uses.
fn kafka_key(entity: &QuotaEntity) -> QuotaEntity {
    let san = |n: &EntityName| match n {
        EntityName::Named(s) => EntityName::Named(sanitize(s)),
        EntityName::Default => EntityName::Default,
    };
    match entity {
        QuotaEntity::User(u) => QuotaEntity::User(san(u)),
        QuotaEntity::UserClientId { user, client_id } => QuotaEntity::UserClientId {
            user: san(user),
            client_id: client_id.clone(),
        },
        other => other.clone(),
    }
}

/// `KafkaQuotaEntity.sanitizedUser()` / `clientId()` of a named key: the tags
/// the single-metric update looks for (`<default>` never reaches it).
fn entity_tags(key: &QuotaEntity) -> MetricTags {
    let name = |n: &EntityName| n.path_segment().to_owned();
    match key {
        QuotaEntity::User(u) => MetricTags {
            user: name(u),
            client_id: String::new(),
        },
        QuotaEntity::ClientId(c) => MetricTags {
            user: String::new(),
            client_id: name(c),
        },
        QuotaEntity::UserClientId { user, client_id } => MetricTags {
            user: name(user),
            client_id: name(client_id),
        },
        QuotaEntity::Ip(_) => MetricTags::new("", ""),
    }
}

/// The rungs Kafka's limit lookup consults for these tags.
///
/// Kafka: `DefaultQuotaCallback.findQuota`.
fn lookup_half(tags: &MetricTags) -> &'static [Rung] {
    match (tags.user.is_empty(), tags.client_id.is_empty()) {
        (false, false) => &Rung::USER_CLIENT_HALF,
        (false, true) => &Rung::USER_HALF,
        (true, false) => &Rung::CLIENT_HALF,
        (true, true) => &[],
    }
}

impl DefaultQuotaCallback {
    /// An empty manager: no overrides, flags 0, no sensors.
    pub fn new(quota_type: QuotaType) -> Self {
        DefaultQuotaCallback {
            quota_type,
            overrides: BTreeMap::new(),
            active: [0; 3],
            flags: QuotaTypeFlags::NONE,
            sensors: BTreeMap::new(),
        }
    }

    /// The quota type this manager resolves.
    pub fn quota_type(&self) -> QuotaType {
        self.quota_type
    }

    /// Sets (`Some(value)`) or removes (`None`) the quota of one entity,
    /// updates the quota-type flags and re-configures existing sensors.
    /// Returns the flags afterwards.
    ///
    /// `entity` carries names as an operator types them (as the store holds
    /// them): the user name is sanitized here, the client id is used verbatim.
    /// A literal name `"<default>"` is an ordinary name, distinct from
    /// [`EntityName::Default`]. Setting an entity that already has a value
    /// replaces it without counting it twice; removing an absent entity
    /// changes nothing but still re-checks the sensors, as Kafka does.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::IpEntity`](crate::ErrorKind::IpEntity) for an `ip` entity.
    ///
    /// Kafka: `ClientQuotaManager.updateQuota`, `updateQuotaTypes`,
    /// `updateQuotaMetricConfigs`.
    pub fn update_quota(
        &mut self,
        entity: &QuotaEntity,
        value: Option<f64>,
    ) -> Result<QuotaTypeFlags, Error> {
        let Some(kind) = EntityKind::of(entity) else {
            return Err(Error::ip_entity(entity.path()));
        };
        let key = kafka_key(entity);
        let was_active = self.overrides.contains_key(&key);
        let counter = &mut self.active[kind.index()];
        match value {
            Some(v) => {
                if !was_active {
                    *counter += 1;
                    self.flags = self.flags.with(kind);
                }
                self.overrides.insert(
                    key.clone(),
                    Override {
                        entity: entity.clone(),
                        value: v,
                    },
                );
            }
            None => {
                if was_active {
                    *counter = counter.saturating_sub(1);
                    if *counter == 0 {
                        self.flags = self.flags.without(kind);
                    }
                }
                self.overrides.remove(&key);
            }
        }
        let has_default = match &key {
            QuotaEntity::User(u) => u.is_default(),
            QuotaEntity::ClientId(c) => c.is_default(),
            QuotaEntity::UserClientId { user, client_id } => {
                user.is_default() || client_id.is_default()
            }
            QuotaEntity::Ip(_) => false,
        };
        self.update_sensor_bounds(if has_default { None } else { Some(&key) });
        Ok(self.flags)
    }

    /// Kafka: `updateQuotaMetricConfigs`. With a single level (or none)
    /// enabled and a named entity, only the sensor tagged exactly like that
    /// entity is re-configured (unconditionally); otherwise every sensor whose
    /// bound differs from its current limit is.
    fn update_sensor_bounds(&mut self, updated: Option<&QuotaEntity>) {
        let single = match updated {
            Some(key) if self.flags.is_empty() || self.flags.single_level().is_some() => {
                Some(entity_tags(key))
            }
            _ => None,
        };
        if let Some(tags) = single {
            if self.sensors.contains_key(&tags) {
                let bound = self.quota_bound(&tags);
                self.sensors.insert(tags, bound);
            }
            return;
        }
        let updates: Vec<(MetricTags, f64)> = self
            .sensors
            .iter()
            .filter_map(|(tags, bound)| {
                let new = self.quota_bound(tags);
                (!java_double_equals(new, *bound)).then(|| (tags.clone(), new))
            })
            .collect();
        self.sensors.extend(updates);
    }

    /// The quota-type flags (Kafka `quotaTypesEnabled`).
    pub fn quota_types_enabled(&self) -> QuotaTypeFlags {
        self.flags
    }

    /// True when any quota of this type exists (Kafka `quotasEnabled`).
    pub fn quotas_enabled(&self) -> bool {
        !self.flags.is_empty()
    }

    /// How many entities of `kind` hold a quota (Kafka `activeQuotaEntities`).
    pub fn active_entity_count(&self, kind: EntityKind) -> u32 {
        self.active[kind.index()]
    }

    /// The value configured for `entity` (raw names), if any.
    pub fn override_value(&self, entity: &QuotaEntity) -> Option<f64> {
        self.overrides.get(&kafka_key(entity)).map(|o| o.value)
    }

    /// Every configured entity (raw names) with its value, ordered by the
    /// sanitized entity.
    pub fn overrides(&self) -> impl Iterator<Item = (&QuotaEntity, f64)> + '_ {
        self.overrides.values().map(|o| (&o.entity, o.value))
    }

    fn lookup(&self, rung: Rung, sanitized_user: &str, client_id: &str) -> Option<&Override> {
        self.overrides.get(&rung.entity(sanitized_user, client_id))
    }

    /// Kafka's `DefaultQuotaCallback.quotaMetricTags(sanitizedUser, clientId)`
    /// with what decided them.
    fn tags_and_decision(
        &self,
        sanitized_user: &str,
        client_id: &str,
    ) -> (MetricTags, TagDecision) {
        let tags = |u: bool, c: bool| MetricTags {
            user: if u {
                sanitized_user.to_owned()
            } else {
                String::new()
            },
            client_id: if c {
                client_id.to_owned()
            } else {
                String::new()
            },
        };
        if self.flags.is_empty() {
            return (tags(false, true), TagDecision::QuotasDisabled);
        }
        if let Some(kind) = self.flags.single_level() {
            let (u, c) = match kind {
                EntityKind::ClientId => (false, true),
                EntityKind::User => (true, false),
                EntityKind::UserClientId => (true, true),
            };
            return (tags(u, c), TagDecision::SingleLevel { kind });
        }
        self.full_walk(sanitized_user, client_id)
    }

    /// The multi-level walk over rungs 1–6 (no emptiness checks, as in Kafka).
    pub(crate) fn full_walk(
        &self,
        sanitized_user: &str,
        client_id: &str,
    ) -> (MetricTags, TagDecision) {
        for rung in &Rung::ALL[..6] {
            if self.lookup(*rung, sanitized_user, client_id).is_some() {
                let (u, c) = rung.keeps();
                let tags = MetricTags {
                    user: if u {
                        sanitized_user.to_owned()
                    } else {
                        String::new()
                    },
                    client_id: if c {
                        client_id.to_owned()
                    } else {
                        String::new()
                    },
                };
                return (tags, TagDecision::Walk { rung: *rung });
            }
        }
        (MetricTags::new("", client_id), TagDecision::WalkFellThrough)
    }

    /// The metric tags Kafka gives a connection (`quotaMetricTags`), from the
    /// already sanitized user name. Computed even when quotas are disabled.
    pub fn metric_tags(&self, sanitized_user: &str, client_id: &str) -> MetricTags {
        self.tags_and_decision(sanitized_user, client_id).0
    }

    /// The limit for a sensor's tags (`DefaultQuotaCallback.quotaLimit`):
    /// `None` when no rung of the tags' half of the ladder is configured.
    pub fn quota_limit(&self, tags: &MetricTags) -> Option<f64> {
        self.limit_match(tags).map(|(_, o)| o.value)
    }

    fn limit_match(&self, tags: &MetricTags) -> Option<(Rung, &Override)> {
        lookup_half(tags).iter().find_map(|r| {
            self.lookup(*r, &tags.user, &tags.client_id)
                .map(|o| (*r, o))
        })
    }

    /// `ClientQuotaManager.quotaLimit`: the limit or `Long.MAX_VALUE`.
    fn quota_bound(&self, tags: &MetricTags) -> f64 {
        self.quota_limit(tags).unwrap_or(UNLIMITED_BOUND)
    }

    /// Which quota applies to a connection with principal name
    /// `principal_name` (raw; sanitized here) and client id `client_id`,
    /// with the metric tags and a trace of all eight rungs. Pure: creates no
    /// sensor.
    ///
    /// Kafka: `ClientQuotaManager.quota(user, clientId)` and the tags of
    /// `getOrCreateQuotaSensors`.
    pub fn resolve(&self, principal_name: &str, client_id: &str) -> Resolution {
        let sanitized_user = sanitize(principal_name);
        let (tags, decision) = self.tags_and_decision(&sanitized_user, client_id);
        let half = lookup_half(&tags);
        let matched = self.limit_match(&tags);
        let matched_rung = matched.map(|(r, _)| r);
        let trace = Rung::ALL
            .into_iter()
            .map(|rung| {
                let configured = self
                    .lookup(rung, &sanitized_user, client_id)
                    .map(|o| o.value);
                let outcome = self.rung_outcome(
                    rung,
                    half,
                    matched_rung,
                    configured.is_some(),
                    &sanitized_user,
                    client_id,
                );
                let entity = rung.entity(principal_name, client_id);
                let winner = matched_rung.map(|m| m.entity(principal_name, client_id));
                let reason = reason_text(self.quota_type, &entity, configured, outcome, &tags, winner.as_ref());
                RungCheck {
                    rung,
                    entity,
                    configured,
                    outcome,
                    reason,
                }
            })
            .collect();
        Resolution {
            quota_type: self.quota_type,
            principal_name: principal_name.to_owned(),
            sanitized_user,
            client_id: client_id.to_owned(),
            quota_types_enabled: self.flags,
            tag_decision: decision,
            metric_tags: self.quotas_enabled().then_some(tags),
            matched: matched.map(|(rung, o)| Matched {
                rung,
                entity: o.entity.clone(),
                value: o.value,
            }),
            trace,
        }
    }

    fn rung_outcome(
        &self,
        rung: Rung,
        half: &[Rung],
        matched: Option<Rung>,
        configured: bool,
        sanitized_user: &str,
        client_id: &str,
    ) -> RungOutcome {
        if half.contains(&rung) {
            return match matched {
                Some(m) if m == rung => RungOutcome::Applies,
                Some(m) if configured && rung > m => RungOutcome::Shadowed { by: m },
                _ => RungOutcome::NotConfigured,
            };
        }
        if let Some(enabled) = self.flags.single_level() {
            if rung.kind() != enabled {
                return RungOutcome::SkippedBySingleLevel { enabled };
            }
        }
        if self.flags.is_empty() {
            return RungOutcome::NotConfigured;
        }
        if rung.needs_client_id() && client_id.is_empty() {
            return RungOutcome::NotApplicable {
                why: NotApplicable::EmptyClientId,
            };
        }
        if rung.needs_user() && sanitized_user.is_empty() {
            return RungOutcome::NotApplicable {
                why: NotApplicable::EmptyUser,
            };
        }
        match (configured, matched) {
            (false, _) => RungOutcome::NotConfigured,
            (true, Some(m)) if rung > m => RungOutcome::Shadowed { by: m },
            (true, _) => RungOutcome::ExcludedByTags,
        }
    }

    /// The quota sensor the broker uses for this connection, created (with
    /// the bound its tags resolve to now) if it does not exist yet; `None`
    /// when quotas are disabled, as the broker then records nothing.
    ///
    /// Later [`update_quota`](Self::update_quota) calls re-configure existing
    /// sensors following Kafka's rules, which can leave a sensor with a bound
    /// different from what its tags resolve to now.
    ///
    /// Kafka: `getOrCreateQuotaSensors` / `registerQuotaMetrics`, guarded by
    /// `maybeRecordAndGetThrottleTimeMs`'s `quotasEnabled()` check.
    pub fn get_or_create_sensor(
        &mut self,
        principal_name: &str,
        client_id: &str,
    ) -> Option<SensorState> {
        if !self.quotas_enabled() {
            return None;
        }
        let tags = self.metric_tags(&sanitize(principal_name), client_id);
        let bound = match self.sensors.get(&tags) {
            Some(b) => *b,
            None => {
                let b = self.quota_bound(&tags);
                self.sensors.insert(tags.clone(), b);
                b
            }
        };
        Some(SensorState {
            name: tags.sensor_name(self.quota_type),
            metric_tags: tags,
            bound,
        })
    }

    /// The bound configured on the sensor with these tags; `None` when no
    /// such sensor exists.
    pub fn sensor_bound(&self, tags: &MetricTags) -> Option<f64> {
        self.sensors.get(tags).copied()
    }

    /// Every sensor created so far, ordered by tags.
    pub fn sensors(&self) -> impl Iterator<Item = SensorState> + '_ {
        self.sensors.iter().map(|(tags, bound)| SensorState {
            metric_tags: tags.clone(),
            name: tags.sensor_name(self.quota_type),
            bound: *bound,
        })
    }

    /// Forgets every sensor (what a broker restart, or an hour without
    /// traffic, does); overrides and flags stay.
    pub fn clear_sensors(&mut self) {
        self.sensors.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uc(u: Option<&str>, c: Option<&str>) -> QuotaEntity {
        QuotaEntity::UserClientId {
            user: EntityName::from_option(u),
            client_id: EntityName::from_option(c),
        }
    }

    /// Every rung configured for alice/c1 with a value equal to ten times its number.
    fn all_eight() -> DefaultQuotaCallback {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        for r in Rung::ALL {
            m.update_quota(&r.entity("alice", "c1"), Some(f64::from(r.number()) * 10.0))
                .unwrap();
        }
        m
    }

    #[test]
    fn each_rung_applies_once_the_more_specific_ones_are_removed() {
        let mut m = all_eight();
        assert_eq!(m.quota_types_enabled().bits(), 7);
        for r in Rung::ALL {
            let res = m.resolve("alice", "c1");
            assert_eq!(res.rung(), Some(r), "expected {r}");
            assert_eq!(res.limit(), Some(f64::from(r.number()) * 10.0));
            let expected_tags = match r.kind() {
                EntityKind::UserClientId => MetricTags::new("alice", "c1"),
                EntityKind::User => MetricTags::new("alice", ""),
                EntityKind::ClientId => MetricTags::new("", "c1"),
            };
            assert_eq!(res.metric_tags, Some(expected_tags), "tags for {r}");
            assert_eq!(
                res.trace[usize::from(r.number() - 1)].outcome,
                RungOutcome::Applies
            );
            for later in &res.trace[usize::from(r.number())..] {
                assert_eq!(
                    later.outcome,
                    RungOutcome::Shadowed { by: r },
                    "{} under {r}",
                    later.rung
                );
            }
            m.update_quota(&r.entity("alice", "c1"), None).unwrap();
        }
        let res = m.resolve("alice", "c1");
        assert_eq!(res.matched, None);
        assert_eq!(res.metric_tags, None);
        assert_eq!(m.quota_types_enabled(), QuotaTypeFlags::NONE);
    }

    #[test]
    fn user_default_shares_one_budget_across_clients_but_user_client_default_does_not() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Fetch);
        m.update_quota(&QuotaEntity::User(EntityName::Default), Some(100.0))
            .unwrap();
        m.update_quota(&QuotaEntity::client_id("other"), Some(5.0))
            .unwrap();
        let a = m.resolve("alice", "c1");
        let b = m.resolve("alice", "c2");
        assert_eq!(a.rung(), Some(Rung::DefaultUser));
        assert!(a.shares_budget_with(&b));
        m.update_quota(&QuotaEntity::User(EntityName::Default), None)
            .unwrap();
        m.update_quota(&uc(None, None), Some(100.0)).unwrap();
        let a = m.resolve("alice", "c1");
        let b = m.resolve("alice", "c2");
        assert_eq!(a.rung(), Some(Rung::DefaultUserDefaultClientId));
        assert!(!a.shares_budget_with(&b));
        assert_eq!(a.metric_tags, Some(MetricTags::new("alice", "c1")));
    }

    #[test]
    fn single_level_shortcut_marks_other_kinds_skipped() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::ClientId(EntityName::Default), Some(500.0))
            .unwrap();
        let r = m.resolve("alice", "c2");
        assert!(r.single_level_shortcut());
        assert_eq!(
            r.tag_decision,
            TagDecision::SingleLevel {
                kind: EntityKind::ClientId
            }
        );
        assert_eq!(r.rung(), Some(Rung::DefaultClientId));
        for check in &r.trace[..6] {
            assert_eq!(
                check.outcome,
                RungOutcome::SkippedBySingleLevel {
                    enabled: EntityKind::ClientId
                }
            );
        }
        assert_eq!(r.trace[6].outcome, RungOutcome::NotConfigured);
        assert!(
            r.trace[0].reason.contains("Skipped"),
            "{}",
            r.trace[0].reason
        );
    }

    #[test]
    fn empty_client_id_matches_no_client_rung_even_with_clients_default() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::ClientId(EntityName::Default), Some(500.0))
            .unwrap();
        let r = m.resolve("alice", "");
        assert_eq!(r.metric_tags, Some(MetricTags::new("", "")));
        assert_eq!(r.matched, None);
        assert_eq!(
            r.trace[7].outcome,
            RungOutcome::NotApplicable {
                why: NotApplicable::EmptyClientId
            }
        );
        assert_eq!(r.trace[7].configured, Some(500.0));
    }

    #[test]
    fn multi_level_empty_client_id_tag_rung_differs_from_limit_rung() {
        // Kafka vector prec-empty-client-id-multilevel.
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&uc(Some("alice"), None), Some(42.0))
            .unwrap();
        m.update_quota(&QuotaEntity::user("bob"), Some(43.0))
            .unwrap();
        m.update_quota(&QuotaEntity::ClientId(EntityName::Default), Some(44.0))
            .unwrap();
        let r = m.resolve("alice", "");
        assert_eq!(
            r.tag_decision,
            TagDecision::Walk {
                rung: Rung::UserDefaultClientId
            }
        );
        assert_eq!(r.metric_tags, Some(MetricTags::new("alice", "")));
        assert_eq!(r.matched, None);
        assert_eq!(
            r.trace[1].outcome,
            RungOutcome::NotApplicable {
                why: NotApplicable::EmptyClientId
            }
        );
        let r = m.resolve("bob", "c1");
        assert_eq!(r.rung(), Some(Rung::User));
        assert_eq!(r.metric_tags, Some(MetricTags::new("bob", "")));
        assert_eq!(r.trace[7].outcome, RungOutcome::Shadowed { by: Rung::User });
    }

    #[test]
    fn empty_principal_matches_no_user_rung() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::User(EntityName::Default), Some(100.0))
            .unwrap();
        let r = m.resolve("", "c1");
        assert_eq!(r.metric_tags, Some(MetricTags::new("", "")));
        assert_eq!(r.matched, None);
        assert_eq!(
            r.trace[5].outcome,
            RungOutcome::NotApplicable {
                why: NotApplicable::EmptyUser
            }
        );
    }

    #[test]
    fn empty_principal_falls_to_unlimited_when_a_user_default_appears() {
        // Kafka oddity: with several levels, the walk stops at users/<default>
        // for ANY user, giving tags ("", "") to an empty principal, and
        // tags ("", "") have no limit. Adding a quota thus removes one.
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::ClientId(EntityName::Default), Some(1.0))
            .unwrap();
        assert_eq!(m.resolve("", "c1").rung(), Some(Rung::DefaultClientId));
        m.update_quota(&QuotaEntity::User(EntityName::Default), Some(2.0))
            .unwrap();
        let r = m.resolve("", "c1");
        assert_eq!(
            r.tag_decision,
            TagDecision::Walk {
                rung: Rung::DefaultUser
            }
        );
        assert_eq!(r.metric_tags, Some(MetricTags::new("", "")));
        assert_eq!(r.matched, None);
        assert_eq!(
            r.trace[5].outcome,
            RungOutcome::NotApplicable {
                why: NotApplicable::EmptyUser
            }
        );
        assert_eq!(r.trace[7].outcome, RungOutcome::ExcludedByTags);
    }

    #[test]
    fn user_names_are_matched_sanitized_and_literal_default_is_a_name() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::user("CN=alice,OU=eng"), Some(11.0))
            .unwrap();
        m.update_quota(&QuotaEntity::user("<default>"), Some(17.0))
            .unwrap();
        let r = m.resolve("CN=alice,OU=eng", "c1");
        assert_eq!(r.sanitized_user, "CN%3Dalice%2COU%3Deng");
        assert_eq!(r.limit(), Some(11.0));
        assert_eq!(
            r.matched.as_ref().unwrap().entity,
            QuotaEntity::user("CN=alice,OU=eng")
        );
        assert_eq!(
            r.mbean_name().unwrap(),
            "kafka.server:type=Produce,user=CN%3Dalice%2COU%3Deng"
        );
        // The already-sanitized form is a different principal.
        assert_eq!(m.resolve("CN%3Dalice%2COU%3Deng", "c1").limit(), None);
        assert_eq!(m.resolve("<default>", "c1").limit(), Some(17.0));
        assert_eq!(m.resolve("bob", "c1").limit(), None);
    }

    #[test]
    fn flags_count_entities_per_kind_and_clear_with_the_last_one() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        assert_eq!(
            m.update_quota(&QuotaEntity::user("a"), Some(1.0))
                .unwrap()
                .bits(),
            2
        );
        assert_eq!(
            m.update_quota(&QuotaEntity::user("a"), Some(2.0))
                .unwrap()
                .bits(),
            2
        );
        assert_eq!(
            m.update_quota(&QuotaEntity::User(EntityName::Default), Some(1.0))
                .unwrap()
                .bits(),
            2
        );
        assert_eq!(m.active_entity_count(EntityKind::User), 2);
        assert_eq!(
            m.update_quota(&QuotaEntity::client_id("c"), Some(1.0))
                .unwrap()
                .bits(),
            3
        );
        assert_eq!(
            m.update_quota(&QuotaEntity::user("a"), None)
                .unwrap()
                .bits(),
            3
        );
        assert_eq!(
            m.update_quota(&QuotaEntity::user("a"), None)
                .unwrap()
                .bits(),
            3
        );
        assert_eq!(
            m.update_quota(&QuotaEntity::User(EntityName::Default), None)
                .unwrap()
                .bits(),
            1
        );
        assert_eq!(m.active_entity_count(EntityKind::User), 0);
    }

    #[test]
    fn ip_entities_are_refused_with_a_sentence() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        let err = m
            .update_quota(
                &QuotaEntity::Ip(EntityName::Named("10.0.0.1".into())),
                Some(1.0),
            )
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("The entity ips/10.0.0.1 is an IP entity"),
            "{err}"
        );
        assert_eq!(m.quota_types_enabled(), QuotaTypeFlags::NONE);
    }

    #[test]
    fn sensors_are_created_on_query_and_reconfigured_on_update() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        assert_eq!(m.get_or_create_sensor("alice", "c1"), None);
        m.update_quota(&QuotaEntity::client_id("c1"), Some(1000.0))
            .unwrap();
        let s = m.get_or_create_sensor("alice", "c1").unwrap();
        assert_eq!((s.name.as_str(), s.bound), ("Produce-:c1", 1000.0));
        m.update_quota(&QuotaEntity::client_id("c1"), Some(2000.0))
            .unwrap();
        assert_eq!(m.sensor_bound(&MetricTags::new("", "c1")), Some(2000.0));
        // A user quota switches to multi-level tags; the old sensor keeps its tags.
        m.update_quota(&QuotaEntity::user("alice"), Some(7.0))
            .unwrap();
        assert_eq!(
            m.get_or_create_sensor("alice", "c1").unwrap().name,
            "Produce-alice:"
        );
        m.update_quota(&QuotaEntity::client_id("c1"), None).unwrap();
        assert_eq!(
            m.sensor_bound(&MetricTags::new("", "c1")),
            Some(UNLIMITED_BOUND)
        );
        assert_eq!(m.sensors().count(), 2);
    }

    #[test]
    fn single_metric_update_leaves_other_sensors_stale_as_kafka_does() {
        // With only user quotas, a named update re-configures only the sensor
        // tagged exactly like the entity.
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::user("alice"), Some(10.0))
            .unwrap();
        m.update_quota(&QuotaEntity::User(EntityName::Default), Some(5.0))
            .unwrap();
        assert_eq!(m.get_or_create_sensor("bob", "x").unwrap().bound, 5.0);
        m.update_quota(&QuotaEntity::user("bob"), Some(6.0))
            .unwrap();
        assert_eq!(m.sensor_bound(&MetricTags::new("bob", "")), Some(6.0));
        m.update_quota(&QuotaEntity::user("alice"), Some(11.0))
            .unwrap();
        assert_eq!(m.sensor_bound(&MetricTags::new("bob", "")), Some(6.0));
    }
}
