//! `kafka-quota resolve --json`, format `kafka-quota/resolve` version 1
//! (docs/cli-resolve-json.md), as types that derive `Serialize`: the
//! document ([`ResolveJson`]), one answer per quota type
//! ([`ResolutionJson`]), and the engine's ladder with each rung written as
//! Kafka's number beside its name and pattern ([`RungJson`]).
//!
//! Keys come out in alphabetical order at every level (the document is
//! written through `serde_json::Value`, whose maps are sorted), so a field
//! added here lands where a reader of version 1 expects it.

use serde::{Serialize, Serializer};

use quota_engine::broker::BrokerSettings;
use quota_engine::principal::{Connection, PrincipalOutcome};
use quota_engine::resolve::answer::TypeAnswer;
use quota_engine::resolve::human::human_value;
use quota_engine::resolve::{EntityKind, MetricTags, NotApplicable, QuotaCallbacks, Resolution, Rung, RungOutcome, TagDecision};
use quota_engine::{java_double_to_string, QuotaEntity, QuotaType, UnitLabel};

/// The `"format"` of `resolve --json`.
pub(crate) const JSON_FORMAT: &str = "kafka-quota/resolve";
/// The `"version"` of `resolve --json`: raised when a field changes meaning
/// or goes away (new fields may appear within a version).
pub(crate) const JSON_VERSION: u32 = 1;

/// The whole `resolve --json` document. The parts an answer does not have
/// are left out (`--ip` alone has no `connection`, `principal` or
/// `resolutions`; `live`, `quotas_readable` and `assumptions` come with
/// `--bootstrap-server` only).
#[derive(Debug, Serialize)]
pub(crate) struct ResolveJson<'a> {
    /// [`JSON_FORMAT`].
    pub(crate) format: &'static str,
    /// [`JSON_VERSION`].
    pub(crate) version: u32,
    /// The connection asked about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) connection: Option<ConnectionJson<'a>>,
    /// The principal the broker derives for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) principal: Option<PrincipalJson<'a>>,
    /// One answer per quota type (in `QuotaType` order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) resolutions: Option<Vec<ResolutionJson<'a>>>,
    /// The `connection_creation_rate` answer for `--ip`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ip: Option<&'a super::resolve::IpAnswer>,
    /// `--leaders`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) leaders: Option<u32>,
    /// The cluster-wide lines for `--leaders`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cluster: Option<Vec<String>>,
    /// Lines of `--quotas` that were skipped (with `--skip-invalid`).
    pub(crate) skipped_lines: &'a [super::resolve::SkippedLine],
    /// What was read from a live cluster (`crate::live::json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) live: Option<serde_json::Value>,
    /// Whether the live cluster's quotas could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) quotas_readable: Option<bool>,
    /// What the answer assumed where the cluster did not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) assumptions: Option<&'a [String]>,
}

impl<'a> ResolveJson<'a> {
    /// A document with nothing but its format, version and the skipped
    /// lines; the caller sets the parts it has.
    pub(crate) fn new(skipped_lines: &'a [super::resolve::SkippedLine]) -> Self {
        ResolveJson {
            format: JSON_FORMAT,
            version: JSON_VERSION,
            connection: None,
            principal: None,
            resolutions: None,
            ip: None,
            leaders: None,
            cluster: None,
            skipped_lines,
            live: None,
            quotas_readable: None,
            assumptions: None,
        }
    }

    /// The document as printed: pretty JSON, keys sorted at every level.
    pub(crate) fn to_pretty(&self) -> String {
        match serde_json::to_value(self) {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string()),
            // Every part serializes (no map with non-string keys): kept as a
            // message rather than a panic.
            Err(e) => format!("{{\"error\": {:?}}}", e.to_string()),
        }
    }
}

/// The connection of a `resolve` question.
#[derive(Debug, Serialize)]
pub(crate) struct ConnectionJson<'a> {
    /// The listener's security protocol (`SASL_SSL`).
    pub(crate) listener: &'static str,
    /// `client.id`.
    pub(crate) client_id: &'a str,
}

impl<'a> ConnectionJson<'a> {
    /// The connection as the engine holds it.
    pub(crate) fn of(conn: &'a Connection) -> Self {
        ConnectionJson { listener: conn.listener.protocol(), client_id: &conn.client_id }
    }
}

/// The principal the broker's principal builder derives.
#[derive(Debug, Serialize)]
pub(crate) struct PrincipalJson<'a> {
    /// `User:name`.
    pub(crate) principal: String,
    /// The name alone.
    pub(crate) name: &'a str,
    /// The name as quota entities and metric tags hold it (`Sanitizer.sanitize`).
    pub(crate) sanitized: &'a str,
    /// How it was derived, in words.
    pub(crate) derivation: String,
    /// Warnings about the derivation.
    pub(crate) warnings: &'a [String],
}

impl<'a> PrincipalJson<'a> {
    /// The engine's outcome.
    pub(crate) fn of(outcome: &'a PrincipalOutcome) -> Self {
        PrincipalJson {
            principal: outcome.principal.to_string(),
            name: &outcome.principal.name,
            sanitized: &outcome.sanitized_name,
            derivation: outcome.derivation.to_string(),
            warnings: &outcome.warnings,
        }
    }
}

/// A quota value: a JSON number when finite, otherwise Kafka's text
/// (`NaN`, `Infinity`, `-Infinity`), which JSON numbers cannot hold
/// (`null` means unlimited).
#[derive(Debug, Clone, Copy)]
pub(crate) struct KafkaNumber(pub(crate) f64);

impl Serialize for KafkaNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str(&java_double_to_string(self.0))
        }
    }
}

/// A rung as Kafka numbers it (1 = `users/U/clients/C` ... 8 =
/// `clients/<default>`), with its kebab-case name and pattern.
#[derive(Debug, Serialize)]
pub(crate) struct RungJson {
    /// Kafka's rung number, 1 to 8.
    pub(crate) rung: u8,
    /// The name (`user-client-id`).
    pub(crate) rung_name: Rung,
    /// The entity pattern (`users/U/clients/C`).
    pub(crate) rung_pattern: &'static str,
}

impl From<Rung> for RungJson {
    fn from(r: Rung) -> Self {
        RungJson { rung: r.number(), rung_name: r, rung_pattern: r.pattern() }
    }
}

/// The entity whose quota applies.
#[derive(Debug, Serialize)]
pub(crate) struct MatchedJson<'a> {
    /// The entity.
    pub(crate) entity: &'a QuotaEntity,
    /// Its rung.
    #[serde(flatten)]
    pub(crate) rung: RungJson,
    /// Its value, in the key's unit.
    pub(crate) value: KafkaNumber,
}

/// What decided the metric tags (`TagDecision`), its rung numbered.
#[derive(Debug, Serialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub(crate) enum TagDecisionJson {
    /// No quota of this type exists.
    QuotasDisabled,
    /// One entity kind only: its tags.
    SingleLevel {
        /// The kind.
        kind: EntityKind,
    },
    /// The ladder walk stopped at `rung`.
    Walk {
        /// The rung.
        #[serde(flatten)]
        rung: RungJson,
    },
    /// The walk found nothing.
    WalkFellThrough,
}

impl From<TagDecision> for TagDecisionJson {
    fn from(d: TagDecision) -> Self {
        match d {
            TagDecision::QuotasDisabled => TagDecisionJson::QuotasDisabled,
            TagDecision::SingleLevel { kind } => TagDecisionJson::SingleLevel { kind },
            TagDecision::Walk { rung } => TagDecisionJson::Walk { rung: rung.into() },
            TagDecision::WalkFellThrough => TagDecisionJson::WalkFellThrough,
        }
    }
}

/// What happened to one rung (`RungOutcome`), a shadowing rung numbered
/// (`by`, with `by_name`).
#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub(crate) enum OutcomeJson {
    /// This rung's quota is the limit.
    Applies,
    /// Nothing is configured for this rung's entity.
    NotConfigured,
    /// A more specific rung applies.
    Shadowed {
        /// Its number.
        by: u8,
        /// Its name.
        by_name: Rung,
    },
    /// The rung cannot apply to this connection.
    NotApplicable {
        /// Why.
        why: NotApplicable,
    },
    /// Only one entity kind is enabled.
    SkippedBySingleLevel {
        /// That kind.
        enabled: EntityKind,
    },
    /// The metric tags exclude this rung.
    ExcludedByTags,
}

impl From<RungOutcome> for OutcomeJson {
    fn from(o: RungOutcome) -> Self {
        match o {
            RungOutcome::Applies => OutcomeJson::Applies,
            RungOutcome::NotConfigured => OutcomeJson::NotConfigured,
            RungOutcome::Shadowed { by } => OutcomeJson::Shadowed { by: by.number(), by_name: by },
            RungOutcome::NotApplicable { why } => OutcomeJson::NotApplicable { why },
            RungOutcome::SkippedBySingleLevel { enabled } => OutcomeJson::SkippedBySingleLevel { enabled },
            RungOutcome::ExcludedByTags => OutcomeJson::ExcludedByTags,
        }
    }
}

/// One step of the ladder walk.
#[derive(Debug, Serialize)]
pub(crate) struct RungCheckJson<'a> {
    /// The rung.
    #[serde(flatten)]
    pub(crate) rung: RungJson,
    /// Its entity for this connection.
    pub(crate) entity: &'a QuotaEntity,
    /// The value configured there, if any.
    pub(crate) configured: Option<KafkaNumber>,
    /// What happened.
    pub(crate) outcome: OutcomeJson,
    /// Why, in words.
    pub(crate) reason: &'a str,
}

/// The `quota_types_enabled` flags of the manager.
#[derive(Debug, Serialize)]
pub(crate) struct FlagsJson {
    /// Kafka's bit set (`QuotaTypes`).
    pub(crate) bits: u8,
    /// The entity kinds that have a quota.
    pub(crate) entity_kinds: Vec<EntityKind>,
}

/// One quota type's answer: the engine's resolution with its limit in
/// three forms, the answer line and the budget sentence the text output
/// prints, and the sensor and MBean to watch.
#[derive(Debug, Serialize)]
pub(crate) struct ResolutionJson<'a> {
    /// `PRODUCE`, `FETCH`, `REQUEST`, `CONTROLLER_MUTATION`.
    pub(crate) quota_type: QuotaType,
    /// The key (`producer_byte_rate`).
    pub(crate) key: &'static str,
    /// The key's unit (`bytes/s per broker`).
    pub(crate) unit: &'static str,
    /// The principal name.
    pub(crate) principal_name: &'a str,
    /// The name as quota entities hold it.
    pub(crate) sanitized_user: &'a str,
    /// `client.id`.
    pub(crate) client_id: &'a str,
    /// The manager's enabled quota types.
    pub(crate) quota_types_enabled: FlagsJson,
    /// What decided the metric tags.
    pub(crate) tag_decision: TagDecisionJson,
    /// The metric tags (who shares the budget); `null` when not metered.
    pub(crate) metric_tags: &'a Option<MetricTags>,
    /// The entity that applies; `null` = unlimited.
    pub(crate) matched: Option<MatchedJson<'a>>,
    /// The ladder, rung by rung.
    pub(crate) trace: Vec<RungCheckJson<'a>>,
    /// The limit; `null` = unlimited.
    pub(crate) limit: Option<KafkaNumber>,
    /// The limit as Kafka prints it (`500000.0`).
    pub(crate) limit_kafka: Option<String>,
    /// The limit read (`500 kB/s`).
    pub(crate) limit_human: Option<String>,
    /// Who shares the budget, in words; `null` when not metered.
    pub(crate) shared_by: Option<String>,
    /// The text output's answer line.
    pub(crate) answer: String,
    /// The budget sentence.
    pub(crate) budget: String,
    /// The quota sensor's name.
    pub(crate) sensor: Option<String>,
    /// The MBean of its metrics.
    pub(crate) mbean: Option<String>,
    /// The engine's one-sentence summary.
    pub(crate) summary: String,
}

impl<'a> ResolutionJson<'a> {
    /// The answer for `r`, with the callbacks that decide who shares a
    /// budget and the broker settings of the fetch size cap.
    pub(crate) fn of(r: &'a Resolution, callbacks: &QuotaCallbacks, settings: &BrokerSettings) -> Self {
        let key = r.key();
        let flags = r.quota_types_enabled;
        // The engine's answer, as the text output prints it.
        let answer = TypeAnswer::new(r, callbacks.get(r.quota_type), settings);
        ResolutionJson {
            quota_type: r.quota_type,
            key: key.as_str(),
            unit: key.unit(UnitLabel::PerBroker),
            principal_name: &r.principal_name,
            sanitized_user: &r.sanitized_user,
            client_id: &r.client_id,
            quota_types_enabled: FlagsJson { bits: flags.bits(), entity_kinds: flags.kinds() },
            tag_decision: r.tag_decision.into(),
            metric_tags: &r.metric_tags,
            matched: r.matched.as_ref().map(|m| MatchedJson { entity: &m.entity, rung: m.rung.into(), value: KafkaNumber(m.value) }),
            trace: r
                .trace
                .iter()
                .map(|c| RungCheckJson {
                    rung: c.rung.into(),
                    entity: &c.entity,
                    configured: c.configured.map(KafkaNumber),
                    outcome: c.outcome.into(),
                    reason: &c.reason,
                })
                .collect(),
            limit: r.limit().map(KafkaNumber),
            limit_kafka: r.limit().map(java_double_to_string),
            limit_human: r.limit().map(|l| human_value(key, l)),
            answer: answer.to_string(),
            budget: answer.budget(),
            shared_by: answer.sharers,
            sensor: r.sensor_name(),
            mbean: r.mbean_name(),
            summary: r.summary(),
        }
    }
}
