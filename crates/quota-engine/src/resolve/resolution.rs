//! The outcome of resolution as a value that explains itself: which rung
//! applies, the metric tags that decide who shares one budget, and why
//! every other rung did not apply.

use std::fmt;

use serde::{Serialize, Serializer};

use super::ladder::{EntityKind, QuotaTypeFlags, Rung};
use crate::entity::{QuotaEntity, QuotaKey, QuotaType};
use crate::principal::jmx_sanitize;

/// The bound Kafka uses when no quota applies: `Long.MAX_VALUE` as a double
/// (`9.223372036854776E18`).
///
/// Kafka: `ClientQuotaManager.quotaLimit` (`limit != null ? limit : Long.MAX_VALUE`).
pub const UNLIMITED_BOUND: f64 = i64::MAX as f64;

/// The quota metric tags of a connection: `{user, client-id}`.
///
/// Connections with equal tags share ONE quota sensor, i.e. one budget. The
/// user tag is the *sanitized* principal name; an empty string means the tag
/// does not take part (the broker still keeps the key with value `""`).
///
/// Kafka: `DefaultQuotaCallback.quotaMetricTags` (a `LinkedHashMap` with
/// `user` first, then `client-id`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MetricTags {
    /// The `user` tag: sanitized principal name or `""`.
    pub user: String,
    /// The `client-id` tag: the client id verbatim or `""`.
    pub client_id: String,
}

impl MetricTags {
    /// Tags from their two values.
    pub fn new(user: &str, client_id: &str) -> Self {
        MetricTags {
            user: user.to_owned(),
            client_id: client_id.to_owned(),
        }
    }

    /// The quota sensor's name: `<QuotaType>-<user tag>:<client-id tag>`,
    /// e.g. `Produce-alice:` or `Fetch-:app`.
    ///
    /// Kafka: `ClientQuotaManager.getQuotaSensorName`.
    pub fn sensor_name(&self, quota_type: QuotaType) -> String {
        format!(
            "{}-{}:{}",
            quota_type.metric_type(),
            self.user,
            self.client_id
        )
    }

    /// The throttle-time sensor's name: `<QuotaType>ThrottleTime-<user>:<client-id>`.
    ///
    /// Kafka: `ClientQuotaManager.getThrottleTimeSensorName`.
    pub fn throttle_sensor_name(&self, quota_type: QuotaType) -> String {
        format!(
            "{}ThrottleTime-{}:{}",
            quota_type.metric_type(),
            self.user,
            self.client_id
        )
    }

    /// The broker MBean of this budget, e.g.
    /// `kafka.server:type=Produce,user=alice,client-id=app`; a tag whose
    /// value is empty is left out, and a value with characters unsafe for JMX
    /// is quoted (`client-id="a:b"`).
    ///
    /// Kafka: `JmxReporter.getMBeanName` with `Sanitizer.jmxSanitize`.
    pub fn mbean_name(&self, quota_type: QuotaType) -> String {
        let mut name = format!("kafka.server:type={}", quota_type.metric_type());
        for (key, value) in [("user", &self.user), ("client-id", &self.client_id)] {
            if !value.is_empty() {
                name.push(',');
                name.push_str(key);
                name.push('=');
                name.push_str(&jmx_sanitize(value));
            }
        }
        name
    }
}

impl fmt::Display for MetricTags {
    /// `user=alice, client-id=""`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &str| {
            if v.is_empty() {
                "\"\"".to_owned()
            } else {
                v.to_owned()
            }
        };
        write!(
            f,
            "user={}, client-id={}",
            show(&self.user),
            show(&self.client_id)
        )
    }
}

impl Serialize for MetricTags {
    /// `{"user": .., "client-id": ..}`, as in the Kafka vectors.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("user", &self.user)?;
        m.serialize_entry("client-id", &self.client_id)?;
        m.end()
    }
}

/// What decided a connection's metric tags.
///
/// Kafka: `DefaultQuotaCallback.quotaMetricTags`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum TagDecision {
    /// No quota of this type exists (flags 0): Kafka computes `("", C)` but
    /// the broker records nothing and creates no sensor.
    QuotasDisabled,
    /// Exactly one flag was set, so the tags were fixed by that kind without
    /// walking the ladder: client-id -> `("", C)`, user -> `(U, "")`,
    /// (user, client-id) -> `(U, C)`.
    SingleLevel {
        /// The only kind with quotas.
        kind: EntityKind,
    },
    /// The full walk over rungs 1–6 stopped at the first configured rung.
    Walk {
        /// The rung whose entity exists.
        rung: Rung,
    },
    /// The full walk found none of rungs 1–6 configured: tags `("", C)`.
    WalkFellThrough,
}

impl TagDecision {
    /// True when the single-level shortcut fixed the tags.
    pub const fn is_single_level(self) -> bool {
        matches!(self, TagDecision::SingleLevel { .. })
    }
}

/// Why a rung does not apply although the ladder was walked past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotApplicable {
    /// The rung needs a client-id but the connection's client id is empty
    /// (the limit lookup never uses a client-id rung for an empty tag).
    EmptyClientId,
    /// The rung needs a user but the sanitized principal name is empty.
    EmptyUser,
}

/// What happened to one rung during resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RungOutcome {
    /// This rung's quota is the limit.
    Applies,
    /// Nothing is configured for this rung's entity.
    NotConfigured,
    /// Configured, but a more specific rung applies.
    Shadowed {
        /// The rung that applies.
        by: Rung,
    },
    /// The rung cannot apply to this connection (its value, if any, is in
    /// [`RungCheck::configured`]).
    NotApplicable {
        /// Why not.
        why: NotApplicable,
    },
    /// Only one kind of entity holds quotas and this rung is of another
    /// kind: Kafka fixed the tags without looking here.
    SkippedBySingleLevel {
        /// The only kind with quotas.
        enabled: EntityKind,
    },
    /// Configured, but the metric tags chosen by the walk make the limit
    /// lookup consult another half of the ladder, and nothing there applies.
    ExcludedByTags,
}

/// One rung as checked for one connection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RungCheck {
    /// The rung.
    pub rung: Rung,
    /// The entity this rung stands for, with the raw principal name and
    /// client id of the connection (e.g. `users/alice/clients/<default>`).
    pub entity: QuotaEntity,
    /// The value configured for that entity, if any (unit of the quota type's key).
    pub configured: Option<f64>,
    /// What happened.
    pub outcome: RungOutcome,
    /// A plain-English sentence a UI can show as is.
    pub reason: String,
}

/// The quota that applies: its rung, the entity as configured and its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matched {
    /// The rung.
    pub rung: Rung,
    /// The configured entity, with the user name as it was set (not sanitized).
    pub entity: QuotaEntity,
    /// The configured value (bytes/s for produce/fetch, percent of one thread
    /// for request, mutations/s for controller mutation).
    pub value: f64,
}

/// Which quota applies to one connection for one quota type, and why.
///
/// Kafka: `ClientQuotaManager.quota(user, clientId)` and
/// `getOrCreateQuotaSensors` with the built-in `DefaultQuotaCallback`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolution {
    /// The quota type resolved.
    pub quota_type: QuotaType,
    /// The connection's principal name as given (e.g. `CN=alice,OU=eng`).
    pub principal_name: String,
    /// `Sanitizer.sanitize(principal_name)`, the form Kafka matches and tags with.
    pub sanitized_user: String,
    /// The connection's client id, verbatim (may be empty).
    pub client_id: String,
    /// The manager's quota-type flags at resolution time.
    pub quota_types_enabled: QuotaTypeFlags,
    /// What decided the metric tags.
    pub tag_decision: TagDecision,
    /// The tags of the connection's quota sensor; `None` when no quota of this
    /// type exists (the broker creates no sensor then).
    pub metric_tags: Option<MetricTags>,
    /// The quota that applies; `None` = unlimited (bound [`UNLIMITED_BOUND`]).
    pub matched: Option<Matched>,
    /// All eight rungs, most specific first, each with its outcome.
    pub trace: Vec<RungCheck>,
}

impl Resolution {
    /// The configured limit, `None` when unlimited.
    pub fn limit(&self) -> Option<f64> {
        self.matched.as_ref().map(|m| m.value)
    }

    /// The bound Kafka enforces: the limit, or [`UNLIMITED_BOUND`].
    pub fn bound(&self) -> f64 {
        self.limit().unwrap_or(UNLIMITED_BOUND)
    }

    /// The rung that applies, `None` when unlimited.
    pub fn rung(&self) -> Option<Rung> {
        self.matched.as_ref().map(|m| m.rung)
    }

    /// The key whose value was resolved (`producer_byte_rate`, ...).
    pub fn key(&self) -> QuotaKey {
        self.quota_type.key()
    }

    /// True when any quota of this type exists (the broker meters the connection).
    pub fn quotas_enabled(&self) -> bool {
        !self.quota_types_enabled.is_empty()
    }

    /// True when the single-level shortcut fixed the tags.
    pub fn single_level_shortcut(&self) -> bool {
        self.tag_decision.is_single_level()
    }

    /// The quota sensor's name, `None` when quotas are disabled.
    pub fn sensor_name(&self) -> Option<String> {
        self.metric_tags
            .as_ref()
            .map(|t| t.sensor_name(self.quota_type))
    }

    /// The broker MBean of this connection's budget, `None` when quotas are disabled.
    pub fn mbean_name(&self) -> Option<String> {
        self.metric_tags
            .as_ref()
            .map(|t| t.mbean_name(self.quota_type))
    }

    /// True when both connections are metered by the same sensor (same
    /// quota type and equal metric tags), i.e. they draw on one budget.
    pub fn shares_budget_with(&self, other: &Resolution) -> bool {
        self.quota_type == other.quota_type
            && self.metric_tags.is_some()
            && self.metric_tags == other.metric_tags
    }

    /// One English sentence summing up the resolution.
    pub fn summary(&self) -> String {
        let who = format!(
            "principal {:?} with client-id {:?}",
            self.principal_name, self.client_id
        );
        let key = self.key();
        let Some(tags) = &self.metric_tags else {
            return format!("No {key} quota is configured anywhere, so {who} is not metered for {} (unlimited).", self.quota_type);
        };
        let limit = match &self.matched {
            Some(m) => format!(
                "{key} = {} from {} ({})",
                super::human::readable_limit(key, m.value),
                m.entity,
                m.rung
            ),
            None => format!("no {key} quota applies (unlimited)"),
        };
        format!(
            "For {who}: {limit}; every connection with tags {tags} shares this budget (sensor {}).",
            tags.sensor_name(self.quota_type)
        )
    }
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// Builds the plain-English reason for one rung; `winner` is the entity of
/// the rung that applies (for a shadowed rung, named rather than its pattern:
/// `rung 3 (users/tenant-0)`, not `rung 3 (users/U)`).
pub(crate) fn reason_text(
    quota_type: QuotaType,
    entity: &QuotaEntity,
    configured: Option<f64>,
    outcome: RungOutcome,
    tags: &MetricTags,
    winner: Option<&QuotaEntity>,
) -> String {
    let key = quota_type.key();
    // The reading first, Kafka's form second (`10 MB/s per broker (1.0E7
    // bytes/s)`), as the CLI's answer writes a value.
    let set = |v: f64| format!("{entity} has {key} = {}", super::human::readable_limit(key, v));
    match outcome {
        RungOutcome::Applies => match configured {
            Some(v) => format!("{}; it is the most specific configured rung, so it applies.", set(v)),
            None => format!("{entity} applies."),
        },
        RungOutcome::NotConfigured => format!("No {key} is set for {entity}."),
        RungOutcome::Shadowed { by } => {
            let by = match winner {
                Some(w) => format!("rung {} ({w})", by.number()),
                None => by.to_string(),
            };
            match configured {
                Some(v) => format!("{}, but the more specific {by} applies instead.", set(v)),
                None => format!("{entity} is shadowed by the more specific {by}."),
            }
        }
        RungOutcome::NotApplicable { why } => {
            let prefix = match configured {
                Some(v) => format!("{}, but it does not apply", set(v)),
                None => format!("{entity} cannot apply"),
            };
            match why {
                NotApplicable::EmptyClientId => format!(
                    "{prefix}: the connection's client-id is empty, and Kafka never takes a limit from a client-id rung for an empty client-id (metric tags {tags})."
                ),
                NotApplicable::EmptyUser => format!(
                    "{prefix}: the principal name is empty, and Kafka never takes a limit from a user rung for an empty user (metric tags {tags})."
                ),
            }
        }
        RungOutcome::SkippedBySingleLevel { enabled } => format!(
            "Skipped: only {enabled} quotas exist for {key}, so Kafka fixes the metric tags by that level and never looks at {entity}."
        ),
        RungOutcome::ExcludedByTags => match configured {
            Some(v) => format!(
                "{}, but the metric tags ({tags}) chosen by the ladder walk make Kafka look up the limit elsewhere.",
                set(v)
            ),
            None => format!("{entity} is not consulted for the metric tags ({tags})."),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jdk::double::java_double_to_string;

    #[test]
    fn sensor_and_mbean_names_follow_kafka() {
        let t = MetricTags::new("alice", "");
        assert_eq!(t.sensor_name(QuotaType::Produce), "Produce-alice:");
        assert_eq!(
            t.throttle_sensor_name(QuotaType::Fetch),
            "FetchThrottleTime-alice:"
        );
        assert_eq!(
            t.mbean_name(QuotaType::Produce),
            "kafka.server:type=Produce,user=alice"
        );
        let t = MetricTags::new("", "app");
        assert_eq!(
            t.mbean_name(QuotaType::Request),
            "kafka.server:type=Request,client-id=app"
        );
        let t = MetricTags::new("CN%3Dalice", "a:b");
        assert_eq!(
            t.mbean_name(QuotaType::ControllerMutation),
            "kafka.server:type=ControllerMutation,user=CN%3Dalice,client-id=\"a:b\""
        );
        assert_eq!(
            MetricTags::new("", "").mbean_name(QuotaType::Fetch),
            "kafka.server:type=Fetch"
        );
    }

    #[test]
    fn unlimited_bound_is_long_max_as_double() {
        assert_eq!(
            java_double_to_string(UNLIMITED_BOUND),
            "9.223372036854776E18"
        );
    }
}
