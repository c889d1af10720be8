//! Resolution in words a person reads at a glance: a limit in a human unit
//! beside Kafka's own form, who shares a budget, and the quota-type flags
//! as the kinds of entity they stand for.
//!
//! Kafka prints a quota value with Java's `Double.toString`
//! ([`crate::java_double_to_string`]: `1.0E7`, `500000.0`); these helpers
//! add the reading an operator thinks in (`10 MB/s`) and never replace
//! Kafka's form.

use crate::entity::QuotaKey;

use super::resolution::MetricTags;

/// Who meters a client quota type: each broker on its own for byte rates
/// and request time (`ClientQuotaManager` on every broker); the active
/// controller alone, once for the cluster, for controller mutations, as
/// brokers forward CreateTopics, CreatePartitions and DeleteTopics to it
/// (`KafkaApis`: `maybeForwardToController`; `ControllerApis` checks
/// `quotas.controllerMutation`, core/src/main/scala/kafka/server/ControllerApis.scala).
pub fn metered_by(quota_type: crate::QuotaType) -> &'static str {
    match quota_type {
        crate::QuotaType::ControllerMutation => "the active controller",
        _ => "each broker",
    }
}

/// Said of a controller-mutation quota, one budget for the whole cluster
/// ([`metered_by`]): who meters it and why.
pub const CONTROLLER_SCOPE: &str =
    "the active controller meters it, as brokers forward CreateTopics, CreatePartitions and DeleteTopics to it";

/// Said of a NaN `connection_creation_rate`, which the validation lets
/// through: Kafka hands the quota to `ConnectionQuotas` as an `Int`
/// (`ClientQuotaMetadataManager.handleIpQuota`: `quotaValue.map(_.toInt)`),
/// and NaN becomes 0.
pub const NAN_CONNECTION_RATE: &str =
    "Kafka uses it as the Int 0, so every new connection from this address is refused (closed after one quota window)";

/// A quota value in a human unit, for reading beside Kafka's form.
///
/// - `producer_byte_rate`, `consumer_byte_rate`: decimal units as Kafka's
///   documentation writes them (1 MB = 1,000,000 bytes), e.g. `1.0E7` ->
///   `10 MB/s`; a value that is a whole number of KiB/MiB/GiB but not a
///   round decimal amount also gets the binary reading (`1048576.0` ->
///   `1.05 MB/s = 1 MiB/s`). Kafka enforces it per broker
///   (`QuotaConfig.PRODUCER_BYTE_RATE_DOC`).
/// - `request_percentage`: the share of one broker thread's time as threads
///   (`200.0` -> `2 threads' time`): Kafka's unit is "percentage of time
///   spent on request handler and network threads" of one thread per quota
///   window (`QuotaConfig.REQUEST_PERCENTAGE_DOC`).
/// - `controller_mutation_rate`: partition mutations per second
///   (`QuotaConfig.CONTROLLER_MUTATION_RATE_DOC`).
/// - `connection_creation_rate`: new connections per second per IP.
///
/// `NaN` and infinities (which Kafka's config parsing accepts) are written
/// `NaN`, `Infinity`, as Java prints them.
///
/// Kafka: `server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java`.
pub fn human_value(key: QuotaKey, value: f64) -> String {
    if !value.is_finite() {
        return crate::java_double_to_string(value);
    }
    match key {
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => {
            let decimal = decimal_bytes(value);
            match binary_bytes(value) {
                Some(binary) if !is_round_decimal(value) => format!("{decimal}/s = {binary}/s"),
                _ => format!("{decimal}/s"),
            }
        }
        QuotaKey::RequestPercentage => {
            let threads = value / 100.0;
            // Two significant digits below 0.01 thread (0.5 % is 0.005
            // threads, not 0.01).
            let n = trim_number(threads, small_decimals(threads, 2));
            let noun = if n == "1" { "thread's" } else { "threads'" };
            format!("{n} {noun} time")
        }
        QuotaKey::ControllerMutationRate => {
            format!("{} partition mutations/s", trim_number(value, 2))
        }
        QuotaKey::ConnectionCreationRate => format!("{} connections/s", trim_number(value, 2)),
    }
}

/// A quota value as a sentence gives it: the reading an operator thinks in
/// first, then Kafka's own form (`Double.toString`, as `kafka-configs.sh
/// --describe` prints it) with its unit, where the two read differently:
/// `10 MB/s per broker (1.0E7 bytes/s)`, `2 threads' time per broker (200.0
/// % of one thread)`. The other keys, whose reading is Kafka's number with a
/// unit, in Kafka's form: `10.0 partition mutations/s`, `5.0
/// connections/s`. A value that never delays anyone says why: `NaN
/// bytes/s per broker (NaN: metered, never delays: every check fails with
/// a 0 ms throttle)`, `Infinity ... (Infinity: never exceeded)`.
///
/// The CLI's answer line (`kafka-quota resolve`) and the engine's ladder
/// reasons (`RungCheck::reason` of [`super::Resolution::trace`]) both write values this way.
///
/// Kafka: a NaN quota is metered and never throttles (`Sensor.checkQuotas`:
/// `value <= NaN` is false, and `QuotaUtils.throttleTime` of NaN is 0 ms),
/// clients/src/main/java/org/apache/kafka/common/metrics/Sensor.java.
pub fn readable_limit(key: QuotaKey, value: f64) -> String {
    use crate::entity::UnitLabel;
    let kafka = format!("{} {}", crate::java_double_to_string(value), key.unit(UnitLabel::PerBroker));
    match key {
        QuotaKey::ControllerMutationRate if value.is_nan() => format!("{kafka} (NaN: metered, never throttles)"),
        _ if value.is_nan() => format!("{kafka} (NaN: metered, never delays: every check fails with a 0 ms throttle)"),
        _ if value == f64::INFINITY => format!("{kafka} (Infinity: never exceeded)"),
        _ if !value.is_finite() => kafka,
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate | QuotaKey::RequestPercentage => format!(
            "{} per broker ({} {})",
            human_value(key, value),
            crate::java_double_to_string(value),
            key.unit(UnitLabel::Short)
        ),
        _ => kafka,
    }
}

/// `value` with `decimals` decimals (`{:.2}`), except from 10^15 on, where
/// decimals mean nothing: Java's form (`1.0E306`, not 307 digits for
/// `request_percentage=1e308`, a DOUBLE quota Kafka accepts, or a rate
/// computed from one).
pub fn fixed(value: f64, decimals: usize) -> String {
    if value.abs() >= 1e15 {
        return crate::java_double_to_string(value);
    }
    format!("{value:.decimals$}")
}

/// How many decimals `value` needs: `decimals`, or, for a value below
/// 10^-`decimals` (not zero), enough for two significant digits (at most
/// 12): `small_decimals(0.005, 2)` is 4 (`0.005`, not `0.01`),
/// `small_decimals(0.027, 1)` is 3 (`0.027`, not `0.0`).
pub fn small_decimals(value: f64, decimals: usize) -> usize {
    let v = value.abs();
    if v != 0.0 && v.is_finite() && v < 10f64.powi(-(decimals.min(12) as i32)) {
        // -log10(v) > decimals >= 0 here, so the cast is of a small positive number.
        ((-v.log10()).ceil() as usize + 1).min(12)
    } else {
        decimals
    }
}

/// `value` with at most `decimals` decimals and no trailing zeros (`2`,
/// `1.5`); from 10^15 on, Java's form ([`fixed`]).
pub fn trim_number(value: f64, decimals: usize) -> String {
    let s = fixed(value, decimals);
    if s.contains('E') {
        return s;
    }
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" {
        "0".to_owned()
    } else {
        s
    }
}

/// Bytes in decimal units: `512 B`, `1.5 kB`, `10 MB`, `2 GB`.
fn decimal_bytes(b: f64) -> String {
    let a = b.abs();
    let (v, unit) = if a >= 1e12 {
        (b / 1e12, "TB")
    } else if a >= 1e9 {
        (b / 1e9, "GB")
    } else if a >= 1e6 {
        (b / 1e6, "MB")
    } else if a >= 1e3 {
        (b / 1e3, "kB")
    } else {
        (b, "B")
    };
    format!("{} {unit}", trim_number(v, 2))
}

/// True when `b` prints exactly in decimal units with at most two decimals.
fn is_round_decimal(b: f64) -> bool {
    [1e12, 1e9, 1e6, 1e3, 1.0]
        .into_iter()
        .find(|u| b.abs() >= *u)
        .is_none_or(|u| ((b / u) * 100.0).fract() == 0.0)
}

/// Bytes in binary units when `b` is a whole number of KiB, MiB or GiB
/// (`1 MiB`, `512 KiB`); `None` otherwise.
fn binary_bytes(b: f64) -> Option<String> {
    for (size, unit) in [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        let size = size as f64;
        if b >= size && (b / size).fract() == 0.0 {
            return Some(format!("{} {unit}", trim_number(b / size, 0)));
        }
    }
    None
}

/// Who draws on one budget, in words, from the connection's metric tags:
/// every connection with equal tags shares the quota sensor.
///
/// - `user=U, client-id=C`: `connections of user U with client-id C`
/// - `user=U, client-id=""`: `all connections of user U, whatever their client-id`
/// - `user="", client-id=C`: `all connections with client-id C, whatever their user`
/// - `user="", client-id=""`: `all connections whose tags are both empty`
///
/// The user tag is the sanitized principal name (`Sanitizer.sanitize`).
///
/// Kafka: `DefaultQuotaCallback.quotaMetricTags` and the sensor named by
/// `ClientQuotaManager.getQuotaSensorName`
/// (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`).
pub fn sharers(tags: &MetricTags) -> String {
    match (tags.user.is_empty(), tags.client_id.is_empty()) {
        (false, false) => format!(
            "connections of user {} with client-id {}",
            tags.user, tags.client_id
        ),
        (false, true) => format!(
            "all connections of user {}, whatever their client-id",
            tags.user
        ),
        (true, false) => format!(
            "all connections with client-id {}, whatever their user",
            tags.client_id
        ),
        (true, true) => "all connections whose user and client-id tags are both empty".to_owned(),
    }
}

/// Who draws on one budget, decided by the walk that gave the tags: as
/// [`sharers`], but "whatever their client-id" (or user) names the
/// client-ids (users) the store gives a budget of their own, since
/// `callback.metric_tags` gives those other tags. With `users/<default>`
/// and `users/<default>/clients/batch`, alice's connections share `(alice, "")`
/// except those with client-id batch (rung 4, tags `(alice, batch)`).
///
/// Only names written in the store can decide otherwise: every other name
/// walks the ladder as the connection's own did.
pub fn sharers_under(callback: &super::DefaultQuotaCallback, tags: &MetricTags) -> String {
    use crate::entity::{EntityName, QuotaEntity};
    let base = sharers(tags);
    let named = |n: &EntityName| match n {
        EntityName::Named(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    let mut others: Vec<String> = Vec::new();
    let (what, keep) = match (tags.user.is_empty(), tags.client_id.is_empty()) {
        (false, true) => ("client-id", true),
        (true, false) => ("user", false),
        _ => return base,
    };
    for (entity, _) in callback.overrides() {
        let name = match (entity, keep) {
            (QuotaEntity::UserClientId { client_id, .. }, true) | (QuotaEntity::ClientId(client_id), true) => named(client_id),
            (QuotaEntity::UserClientId { user, .. }, false) | (QuotaEntity::User(user), false) => {
                named(user).map(|u| crate::principal::sanitize(&u))
            }
            _ => None,
        };
        let Some(name) = name else { continue };
        let own = if keep {
            callback.metric_tags(&tags.user, &name)
        } else {
            callback.metric_tags(&name, &tags.client_id)
        };
        if own != *tags && !others.contains(&name) {
            others.push(name);
        }
    }
    if others.is_empty() {
        return base;
    }
    others.sort();
    format!(
        "{base}, except {what} {} (a budget of {} own)",
        others.join(", "),
        if others.len() == 1 { "its" } else { "their" }
    )
}

/// Rung numbers as a compact list: `[1, 2, 4, 5, 7, 8]` -> `1-2, 4-5, 7-8`,
/// `[3]` -> `3`.
pub fn number_ranges(numbers: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let start = numbers[i];
        let mut end = start;
        while i + 1 < numbers.len() && numbers[i + 1] == end + 1 {
            i += 1;
            end = numbers[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_rates_read_in_decimal_units_with_binary_when_exact() {
        assert_eq!(human_value(QuotaKey::ProducerByteRate, 1.0e7), "10 MB/s");
        assert_eq!(
            human_value(QuotaKey::ConsumerByteRate, 500_000.0),
            "500 kB/s"
        );
        assert_eq!(
            human_value(QuotaKey::ProducerByteRate, 2_500_000.0),
            "2.5 MB/s"
        );
        assert_eq!(human_value(QuotaKey::ProducerByteRate, 512.0), "512 B/s");
        assert_eq!(
            human_value(QuotaKey::ProducerByteRate, 1_048_576.0),
            "1.05 MB/s = 1 MiB/s"
        );
        assert_eq!(
            human_value(QuotaKey::ProducerByteRate, 4096.0),
            "4.1 kB/s = 4 KiB/s"
        );
        // 1.024 MB is not two-decimal round, and it is exactly 1000 KiB.
        assert_eq!(
            human_value(QuotaKey::ProducerByteRate, 1_024_000.0),
            "1.02 MB/s = 1000 KiB/s"
        );
        assert_eq!(human_value(QuotaKey::ProducerByteRate, f64::NAN), "NaN");
    }

    #[test]
    fn readable_limit_leads_with_the_reading_and_keeps_kafkas_form_second() {
        assert_eq!(readable_limit(QuotaKey::ProducerByteRate, 1.0e7), "10 MB/s per broker (1.0E7 bytes/s)");
        assert_eq!(readable_limit(QuotaKey::ConsumerByteRate, 500_000.0), "500 kB/s per broker (500000.0 bytes/s)");
        assert_eq!(
            readable_limit(QuotaKey::ProducerByteRate, 1_048_576.0),
            "1.05 MB/s = 1 MiB/s per broker (1048576.0 bytes/s)"
        );
        assert_eq!(
            readable_limit(QuotaKey::RequestPercentage, 200.0),
            "2 threads' time per broker (200.0 % of one thread)"
        );
        assert_eq!(readable_limit(QuotaKey::ControllerMutationRate, 10.0), "10.0 partition mutations/s");
        assert_eq!(readable_limit(QuotaKey::ConnectionCreationRate, 5.0), "5.0 connections/s");
        assert!(readable_limit(QuotaKey::ProducerByteRate, f64::NAN).starts_with("NaN bytes/s per broker (NaN: metered, never delays"));
        assert_eq!(
            readable_limit(QuotaKey::ConsumerByteRate, f64::INFINITY),
            "Infinity bytes/s per broker (Infinity: never exceeded)"
        );
    }

    #[test]
    fn huge_values_read_in_java_form_not_hundreds_of_digits() {
        assert_eq!(human_value(QuotaKey::RequestPercentage, 1e308), "1.0E306 threads' time");
        assert_eq!(human_value(QuotaKey::ProducerByteRate, 1e300), "1.0E288 TB/s");
        assert_eq!(human_value(QuotaKey::ControllerMutationRate, 2.5e20), "2.5E20 partition mutations/s");
        // Below 10^15 the plain form stays.
        assert_eq!(human_value(QuotaKey::RequestPercentage, 1e16), "100000000000000 threads' time");
    }

    #[test]
    fn other_keys_read_in_their_own_units() {
        assert_eq!(
            human_value(QuotaKey::RequestPercentage, 200.0),
            "2 threads' time"
        );
        assert_eq!(
            human_value(QuotaKey::RequestPercentage, 100.0),
            "1 thread's time"
        );
        assert_eq!(
            human_value(QuotaKey::RequestPercentage, 50.0),
            "0.5 threads' time"
        );
        // Small request quotas keep two significant digits: 0.5 % is
        // 0.005 threads, not a rounded 0.01.
        assert_eq!(human_value(QuotaKey::RequestPercentage, 0.5), "0.005 threads' time");
        assert_eq!(human_value(QuotaKey::RequestPercentage, 0.3), "0.003 threads' time");
        assert_eq!(human_value(QuotaKey::RequestPercentage, 0.25), "0.0025 threads' time");
        assert_eq!(
            human_value(QuotaKey::ControllerMutationRate, 10.0),
            "10 partition mutations/s"
        );
        assert_eq!(
            human_value(QuotaKey::ConnectionCreationRate, 5.0),
            "5 connections/s"
        );
    }

    #[test]
    fn sharers_follow_the_tags() {
        assert_eq!(
            sharers(&MetricTags::new("alice", "")),
            "all connections of user alice, whatever their client-id"
        );
        assert_eq!(
            sharers(&MetricTags::new("", "app")),
            "all connections with client-id app, whatever their user"
        );
        assert_eq!(
            sharers(&MetricTags::new("a", "b")),
            "connections of user a with client-id b"
        );
    }

    #[test]
    fn sharers_under_name_the_client_ids_with_a_budget_of_their_own() {
        use crate::entity::{EntityName, QuotaEntity};
        use crate::QuotaType;
        let mut cb = super::super::DefaultQuotaCallback::new(QuotaType::Produce);
        cb.update_quota(&QuotaEntity::User(EntityName::Default), Some(1e6)).unwrap();
        cb.update_quota(
            &QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Named("batch".into()) },
            Some(5e6),
        )
        .unwrap();
        let app = cb.metric_tags("alice", "app-1");
        assert_eq!(app, MetricTags::new("alice", ""));
        assert_eq!(cb.metric_tags("alice", "batch"), MetricTags::new("alice", "batch"));
        assert_eq!(
            sharers_under(&cb, &app),
            "all connections of user alice, whatever their client-id, except client-id batch (a budget of its own)"
        );
        assert_eq!(
            sharers_under(&cb, &MetricTags::new("alice", "batch")),
            "connections of user alice with client-id batch"
        );
    }

    #[test]
    fn number_ranges_collapse_runs() {
        assert_eq!(number_ranges(&[1, 2, 4, 5, 7, 8]), "1-2, 4-5, 7-8");
        assert_eq!(number_ranges(&[3]), "3");
        assert_eq!(number_ranges(&[1, 2, 3, 4, 5, 6]), "1-6");
        assert_eq!(number_ranges(&[]), "");
    }
}
