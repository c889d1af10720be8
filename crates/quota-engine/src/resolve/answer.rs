//! The answer to "which quota applies to this connection?", once for every
//! surface: per quota type the limit (or why there is none), the entity
//! and rung it comes from, who shares the budget, why Kafka tags it so,
//! and, for a fetch quota, the largest fetch response a broker sends under
//! it. The CLI's answer lines and its `--json` print [`Answer`] and
//! [`TypeAnswer`] as they are; the playground's answer sentence takes its
//! limit, sharers and fetch cap from the same [`TypeAnswer`], beside what
//! only a scenario knows (the brokers that lead its partitions, the other
//! connections in the budget).
//!
//! Kafka: `ClientQuotaManager.quota`, `quotaMetricTags` and
//! `maxValueInQuotaWindow` (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java),
//! `KafkaApis.handleFetchRequest` (core/src/main/scala/kafka/server/KafkaApis.scala).

use std::fmt;

use super::human::{human_value, metered_by, readable_limit, sharers_under, CONTROLLER_SCOPE};
use super::{DefaultQuotaCallback, Matched, MetricTags, QuotaCallbacks, Resolution, TagDecision};
use crate::advice::exact::ExactPath;
use crate::broker::BrokerSettings;
use crate::principal::{Connection, KafkaPrincipal};
use crate::{QuotaKey, QuotaType};

/// The width of the longest quota key (`controller_mutation_rate`), to
/// align [`Answer`]'s lines.
const KEY_WIDTH: usize = 24;

/// The largest fetch response one broker sends a consumer under a fetch
/// quota. Kafka caps a consumer's fetch at the smallest of the request's
/// `fetch.max.bytes`, the broker's `fetch.max.bytes` and what the quota
/// window holds, quota × (`quota.window.num` − 1) ×
/// `quota.window.size.seconds` taken `toInt` (truncated, at most
/// `Int.MaxValue`; NaN becomes 0). The cap is not a hard limit: since
/// fetch v3 (KIP-74) the first record batch is sent whole even when it is
/// larger, so a cap of 0 still lets one batch through per response.
///
/// Kafka 4.3.1: `KafkaApis.handleFetchRequest`
/// (core/src/main/scala/kafka/server/KafkaApis.scala):
/// `maxQuotaWindowBytes = quotas.fetch.maxValueInQuotaWindow(session, clientId).toInt`,
/// `fetchMaxBytes = min(min(fetchRequest.maxBytes, config.fetchMaxBytes), maxQuotaWindowBytes)`,
/// `hardMaxBytesLimit = versionId <= 2` (KAFKA-9677, KIP-74);
/// `ClientQuotaManager.maxValueInQuotaWindow`
/// (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java);
/// the engine's `ClientQuotaManager::max_value_in_quota_window`, which
/// shares its formula (the crate's `broker::quota_window_value`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FetchCap {
    /// The fetch quota, bytes/s (as configured: NaN and Infinity too).
    pub quota: f64,
    /// `quota.window.num`.
    pub window_num: u32,
    /// `quota.window.size.seconds`, s.
    pub window_size_seconds: u32,
    /// What the quota window holds, bytes, as Kafka's `toInt` makes it.
    pub window_bytes: i32,
    /// The broker's `fetch.max.bytes`, bytes.
    pub broker_fetch_max_bytes: u32,
}

impl FetchCap {
    /// The cap of a fetch quota of `quota` bytes/s under `settings`; `None`
    /// for another quota type.
    pub fn of(quota_type: QuotaType, quota: f64, settings: &BrokerSettings) -> Option<FetchCap> {
        if quota_type != QuotaType::Fetch {
            return None;
        }
        let (window_num, window_size_seconds) = (settings.quota_window_num, settings.quota_window_size_seconds);
        let window = crate::broker::quota_window_value(quota, window_num, f64::from(window_size_seconds));
        Some(FetchCap {
            quota,
            window_num,
            window_size_seconds,
            window_bytes: crate::jdk::double::d2i(window),
            broker_fetch_max_bytes: settings.fetch_max_bytes,
        })
    }

    /// The cap, bytes: the smaller of the quota window's and the broker's
    /// `fetch.max.bytes` (the consumer's own `fetch.max.bytes` may be lower
    /// still). 0 or less: one record batch per response.
    pub fn bytes(&self) -> i64 {
        i64::from(self.window_bytes).min(i64::from(self.broker_fetch_max_bytes))
    }

    /// Whether the broker's `fetch.max.bytes` is below what the quota
    /// window holds, and so is the cap.
    pub fn broker_is_lower(&self) -> bool {
        i64::from(self.broker_fetch_max_bytes) < i64::from(self.window_bytes)
    }
}

/// "each broker sends it at most 10 MB (10000000 bytes) in one fetch
/// response, quota × (quota.window.num − 1) × quota.window.size.seconds =
/// 1 MB/s × (11 − 1) × 1 s (KAFKA-9677), or less when the consumer's
/// fetch.max.bytes is lower; a first record batch larger than that is
/// still sent whole (KIP-74)"; with the broker's fetch.max.bytes lower, or
/// a window that holds nothing (NaN, `quota.window.num` 1), said so.
impl fmt::Display for FetchCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let formula = format!(
            "quota × (quota.window.num − 1) × quota.window.size.seconds = {} × ({} − 1) × {} s",
            human_value(QuotaKey::ConsumerByteRate, self.quota),
            self.window_num,
            self.window_size_seconds,
        );
        let cap = self.bytes();
        if cap <= 0 {
            return write!(
                f,
                "each broker sends it one record batch per fetch response: {formula} is {} bytes as Kafka takes it (toInt, KAFKA-9677), and the first batch is sent whole whatever the cap (KIP-74)",
                self.window_bytes
            );
        }
        let size = human_value(QuotaKey::ConsumerByteRate, cap as f64).replace("/s", "");
        if self.broker_is_lower() {
            write!(
                f,
                "each broker sends it at most {size} ({cap} bytes) in one fetch response, the broker's fetch.max.bytes, lower than the quota window's {formula} = {} bytes (KAFKA-9677), or less when the consumer's fetch.max.bytes is lower; a first record batch larger than that is still sent whole (KIP-74)",
                self.window_bytes
            )
        } else {
            write!(
                f,
                "each broker sends it at most {size} ({cap} bytes) in one fetch response, {formula} (KAFKA-9677), or less when the consumer's fetch.max.bytes is lower; a first record batch larger than that is still sent whole (KIP-74)"
            )
        }
    }
}

/// The answer for one quota type of one connection: what limits it and
/// who shares that budget. Its [`Display`](fmt::Display) is the CLI's
/// answer line (without the key), e.g. "2 MB/s per broker (2000000.0
/// bytes/s) from users/tenant-a (rung 3); shared by all connections of
/// user tenant-a, whatever their client-id".
#[derive(Debug, Clone, PartialEq)]
pub struct TypeAnswer {
    /// The quota type.
    pub quota_type: QuotaType,
    /// The quota that applies (entity, rung, value in the key's unit), if
    /// any.
    pub matched: Option<Matched>,
    /// The connection's metric tags (`None`: no quota of this type exists,
    /// so nothing meters the connection).
    pub metric_tags: Option<MetricTags>,
    /// Why the tags are what they are.
    pub tag_decision: TagDecision,
    /// Who shares the budget ([`sharers_under`]: "all connections of user
    /// alice, whatever their client-id, except ..."); `None` without tags.
    pub sharers: Option<String>,
    /// For a fetch quota, the largest fetch response a broker sends.
    pub fetch_cap: Option<FetchCap>,
}

impl TypeAnswer {
    /// The answer of resolution `r`, the sharers read from `callback` (the
    /// quota type's own callback: its store decides other connections'
    /// tags) and the fetch cap from the broker `settings`.
    pub fn new(r: &Resolution, callback: &DefaultQuotaCallback, settings: &BrokerSettings) -> TypeAnswer {
        TypeAnswer {
            quota_type: r.quota_type,
            matched: r.matched.clone(),
            metric_tags: r.metric_tags.clone(),
            tag_decision: r.tag_decision,
            sharers: r.metric_tags.as_ref().map(|tags| sharers_under(callback, tags)),
            fetch_cap: r.matched.as_ref().and_then(|m| FetchCap::of(r.quota_type, m.value, settings)),
        }
    }

    /// The quota key.
    pub fn key(&self) -> QuotaKey {
        self.quota_type.key()
    }

    /// The limit as every surface writes it ([`readable_limit`], NaN and
    /// Infinity with why), or `None` when no quota applies.
    pub fn limit_text(&self) -> Option<String> {
        self.matched.as_ref().map(|m| readable_limit(self.key(), m.value))
    }

    /// Why the connection's metric tags are what they are, and so who
    /// shares its budget: "every connection with tags user=alice,
    /// client-id="" shares one budget (sensor Produce-alice:, MBean ...),
    /// because the ladder walk stopped at rung 3 ...".
    pub fn budget(&self) -> String {
        let Some(tags) = &self.metric_tags else {
            return format!("none: no {} quota exists anywhere, so {}", self.key(), not_metered(self.quota_type));
        };
        let why = match self.tag_decision {
            TagDecision::QuotasDisabled => "no quota of this type exists".to_owned(),
            TagDecision::SingleLevel { kind } => format!(
                "only {} quotas of this type exist, so Kafka fixes the tags from that kind alone without walking the ladder",
                kind.describe()
            ),
            TagDecision::Walk { rung } => format!("the ladder walk stopped at {rung}"),
            TagDecision::WalkFellThrough => {
                "the ladder walk found none of rungs 1-6 configured, so the tags are the client-id alone".to_owned()
            }
        };
        format!(
            "every connection with tags {tags} shares one budget (sensor {}, MBean {}), because {why}",
            tags.sensor_name(self.quota_type),
            tags.mbean_name(self.quota_type)
        )
    }
}

/// "the broker does not meter this connection", or, for controller
/// mutations, the active controller ([`metered_by`]).
fn not_metered(quota_type: QuotaType) -> String {
    match quota_type {
        QuotaType::ControllerMutation => format!("{} does not meter this connection", metered_by(quota_type)),
        _ => "the broker does not meter this connection".to_owned(),
    }
}

impl fmt::Display for TypeAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.key();
        let Some(sharers) = &self.sharers else {
            return write!(f, "unlimited: no {key} quota exists, so {}", not_metered(self.quota_type));
        };
        match &self.matched {
            Some(m) => {
                // The entity as exactly as a path can say it (a literal
                // `<default>` or an empty name quoted: `display_exact`).
                write!(f, "{} from {} (rung {}); ", readable_limit(key, m.value), m.entity.exact_path(), m.rung.number())?;
                if self.quota_type == QuotaType::ControllerMutation {
                    write!(f, "one budget for the whole cluster: {CONTROLLER_SCOPE}; ")?;
                }
                write!(f, "shared by {sharers}")?;
                match &self.fetch_cap {
                    Some(cap) => write!(f, "; {cap}"),
                    None => Ok(()),
                }
            }
            None => write!(f, "unlimited: no rung holds a {key} for this connection; metered together with {sharers}"),
        }
    }
}

/// The answer for one connection: who it is, then one [`TypeAnswer`] per
/// quota type resolved. Its [`Display`](fmt::Display) is what
/// `kafka-quota resolve` prints first:
///
/// ```text
/// User:tenantUserA, client-id "batch-loader", SASL_SSL listener:
///   producer_byte_rate        2 MB/s per broker (2000000.0 bytes/s) from ...
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The connection's principal.
    pub principal: KafkaPrincipal,
    /// The client-id it sends.
    pub client_id: String,
    /// The listener's security protocol (`SASL_SSL`, ...).
    pub listener: &'static str,
    /// One answer per quota type resolved, in the order given.
    pub types: Vec<TypeAnswer>,
}

impl Answer {
    /// The answer of `connection` (principal `principal`) for each of
    /// `resolutions`, with the callbacks that resolved them and the broker
    /// settings.
    pub fn new(
        principal: &KafkaPrincipal,
        connection: &Connection,
        resolutions: &[Resolution],
        callbacks: &QuotaCallbacks,
        settings: &BrokerSettings,
    ) -> Answer {
        Answer {
            principal: principal.clone(),
            client_id: connection.client_id.clone(),
            listener: connection.listener.protocol(),
            types: resolutions.iter().map(|r| TypeAnswer::new(r, callbacks.get(r.quota_type), settings)).collect(),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}, client-id {:?}, {} listener:", self.principal, self.client_id, self.listener)?;
        for t in &self.types {
            writeln!(f, "  {:<KEY_WIDTH$}  {t}", t.key().as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fetch_cap_is_kafkas_to_int_and_the_smaller_of_window_and_broker() {
        let settings = BrokerSettings::default();
        // 1 MB/s × (11 − 1) × 1 s = 10 MB, below the broker's 55 MiB default.
        let cap = FetchCap::of(QuotaType::Fetch, 1e6, &settings).expect("a cap");
        assert_eq!((cap.window_bytes, cap.bytes()), (10_000_000, 10_000_000));
        assert!(!cap.broker_is_lower());
        assert_eq!(
            cap.to_string(),
            "each broker sends it at most 10 MB (10000000 bytes) in one fetch response, quota × (quota.window.num − 1) × quota.window.size.seconds = 1 MB/s × (11 − 1) × 1 s (KAFKA-9677), or less when the consumer's fetch.max.bytes is lower; a first record batch larger than that is still sent whole (KIP-74)"
        );
        // 1 GB/s × 10 s is 10 GB: toInt stops at Int.MaxValue, and the
        // broker's fetch.max.bytes (57671680) is the cap.
        let big = FetchCap::of(QuotaType::Fetch, 1e9, &settings).expect("a cap");
        assert_eq!((big.window_bytes, big.bytes()), (i32::MAX, 57_671_680));
        assert!(big.broker_is_lower());
        assert!(big.to_string().starts_with("each broker sends it at most 57.67 MB = 55 MiB (57671680 bytes) in one fetch response, the broker's fetch.max.bytes, lower than the quota window's"), "{big}");
        assert!(big.to_string().contains("= 2147483647 bytes (KAFKA-9677)"), "{big}");
        // Equal: the window's figure, not said to be the broker's.
        let mut at = settings.clone();
        at.fetch_max_bytes = 10_000_000;
        assert!(!FetchCap::of(QuotaType::Fetch, 1e6, &at).unwrap().broker_is_lower());
        // NaN (which the validation lets through) holds 0 bytes as an Int,
        // as does one window: one batch per response.
        let nan = FetchCap::of(QuotaType::Fetch, f64::NAN, &settings).expect("a cap");
        assert_eq!(nan.bytes(), 0);
        assert!(nan.to_string().starts_with("each broker sends it one record batch per fetch response: quota × (quota.window.num − 1) × quota.window.size.seconds = NaN × (11 − 1) × 1 s is 0 bytes"), "{nan}");
        let mut one = settings.clone();
        one.quota_window_num = 1;
        assert_eq!(FetchCap::of(QuotaType::Fetch, 1e6, &one).unwrap().bytes(), 0);
        // A tiny quota: 10 bytes, and the first batch still goes whole.
        let tiny = FetchCap::of(QuotaType::Fetch, 1.0, &settings).unwrap();
        assert_eq!(tiny.bytes(), 10);
        assert!(tiny.to_string().ends_with("a first record batch larger than that is still sent whole (KIP-74)"));
        // Infinity: Int.MaxValue, so the broker's fetch.max.bytes.
        assert_eq!(FetchCap::of(QuotaType::Fetch, f64::INFINITY, &settings).unwrap().bytes(), 57_671_680);
        // No cap for another quota type.
        assert_eq!(FetchCap::of(QuotaType::Produce, 1e6, &settings), None);
    }
}
