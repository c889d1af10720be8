//! One quota type's manager on one broker: sensors keyed by metric tags, so
//! connections with equal tags share one budget.

use std::collections::BTreeMap;

use super::stats::WindowedAvgMax;
use crate::entity::{QuotaEntity, QuotaType};
use crate::metrics::{Admission, QuotaWindow, RateSensor};
use crate::resolve::{DefaultQuotaCallback, MetricTags};
use crate::Error;

/// Index of a sensor inside its [`ClientQuotaManager`] (stable for the
/// manager's life; sensors are never removed during a simulation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SensorId(pub u32);

/// The two sensors Kafka keeps per budget: the quota rate and the
/// throttle-time average behind the `throttle-time` MBean attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSensors {
    /// The metric tags (who shares this budget).
    pub tags: MetricTags,
    /// The quota sensor (`Produce-<user>:<client-id>` etc.): a windowed rate
    /// with the bound this budget resolved to.
    pub quota: RateSensor,
    /// `<Type>ThrottleTime-<user>:<client-id>`: `Avg` of the throttle times
    /// applied (recorded only when a throttle happens).
    pub throttle_time: WindowedAvgMax,
}

/// The broker's quota manager for one client quota type (produce, fetch or
/// request): resolves a connection to its budget with the precedence ladder
/// ([`crate::resolve::DefaultQuotaCallback`]) and holds one [`ClientSensors`] per
/// distinct metric tags.
///
/// Kafka 4.3.1: `ClientQuotaManager`
/// (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java)
/// and `ClientRequestQuotaManager`
/// (core/src/main/scala/kafka/server/ClientRequestQuotaManager.scala).
#[derive(Debug, Clone)]
pub struct ClientQuotaManager {
    quota_type: QuotaType,
    window: QuotaWindow,
    metrics_window: QuotaWindow,
    callback: DefaultQuotaCallback,
    sensors: Vec<ClientSensors>,
    /// Per sensor: whether a request of this type has been recorded on it.
    recorded: Vec<bool>,
    by_tags: BTreeMap<MetricTags, SensorId>,
}

/// What a quota of `limit` per second lets through before it throttles for
/// sure: `limit * (samples - 1) * window_s`, where `samples` is
/// `quota.window.num` and `window_s` the length of one sample,
/// `quota.window.size.seconds` (s). Units follow `limit`: bytes for
/// bytes/s. Kafka refuses 0 samples; here 0 counts as 1 and gives 0 (only
/// [`crate::resolve::answer::FetchCap::of`] can pass unchecked settings).
/// The one formula behind the broker's fetch cap
/// ([`ClientQuotaManager::max_value_in_quota_window`]) and the answer's.
///
/// Kafka 4.3.1: `ClientQuotaManager.maxValueInQuotaWindow`
/// (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java):
/// `quotaLimit * (config.numQuotaSamples() - 1) * config.quotaWindowSizeSeconds()`.
pub(crate) fn quota_window_value(limit: f64, samples: u32, window_s: f64) -> f64 {
    limit * f64::from(samples.saturating_sub(1)) * window_s
}

impl ClientQuotaManager {
    /// A manager for `callback.quota_type()` measuring over `window`, with
    /// throttle-time sensors over `metrics_window`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NotAClientQuota`](crate::ErrorKind::NotAClientQuota) for the controller-mutation type,
    /// which has its own token-bucket manager.
    pub fn new(
        callback: DefaultQuotaCallback,
        window: QuotaWindow,
        metrics_window: QuotaWindow,
    ) -> Result<Self, Error> {
        let quota_type = callback.quota_type();
        if quota_type == QuotaType::ControllerMutation {
            return Err(Error::not_a_client_quota(quota_type));
        }
        Ok(ClientQuotaManager {
            quota_type,
            window,
            metrics_window,
            callback,
            sensors: Vec::new(),
            recorded: Vec::new(),
            by_tags: BTreeMap::new(),
        })
    }

    /// The quota type managed.
    pub fn quota_type(&self) -> QuotaType {
        self.quota_type
    }

    /// The quota window.
    pub fn window(&self) -> QuotaWindow {
        self.window
    }

    /// True when any quota of this type is configured; otherwise Kafka
    /// records nothing (`quotasEnabled`).
    pub fn quotas_enabled(&self) -> bool {
        self.callback.quotas_enabled()
    }

    /// The sensors of a connection, created on first use; `None` when quotas
    /// of this type are disabled (the broker then meters nothing).
    ///
    /// Kafka: `getOrCreateQuotaSensors` (behind `maybeRecordAndGetThrottleTimeMs`).
    pub fn sensors_for(&mut self, principal_name: &str, client_id: &str) -> Option<SensorId> {
        let state = self
            .callback
            .get_or_create_sensor(principal_name, client_id)?;
        if let Some(id) = self.by_tags.get(&state.metric_tags) {
            return Some(*id);
        }
        let quota = match self.quota_type {
            QuotaType::Request => RateSensor::capped_at_one_window(self.window, state.bound),
            _ => RateSensor::bandwidth(self.window, state.bound),
        }
        .ok()?;
        let id = SensorId(self.sensors.len() as u32);
        self.sensors.push(ClientSensors {
            tags: state.metric_tags.clone(),
            quota,
            throttle_time: WindowedAvgMax::new(self.metrics_window),
        });
        self.recorded.push(false);
        self.by_tags.insert(state.metric_tags, id);
        Some(id)
    }

    /// Records `value` and returns the decision (Kafka:
    /// `recordAndGetThrottleTimeMs`: record first, then check).
    pub fn record_and_check(&mut self, id: SensorId, at_ms: i64, value: f64) -> Admission {
        self.recorded[id.0 as usize] = true;
        self.sensors[id.0 as usize].quota.record(at_ms, value)
    }

    /// Records without checking (Kafka: `recordNoThrottle`, used for the
    /// network-thread time of the request quota).
    pub fn record_no_throttle(&mut self, id: SensorId, at_ms: i64, value: f64) {
        self.recorded[id.0 as usize] = true;
        self.sensors[id.0 as usize]
            .quota
            .record_unchecked(at_ms, value);
    }

    /// Takes back a recorded value (Kafka: `unrecordQuotaSensor`, a negative
    /// record, for the bytes of a throttled fetch).
    pub fn unrecord(&mut self, id: SensorId, at_ms: i64, value: f64) {
        self.sensors[id.0 as usize]
            .quota
            .record_unchecked(at_ms, -value);
    }

    /// Applies a throttle: records it on the throttle-time sensor (Kafka:
    /// `ClientQuotaManager.throttle`, which then mutes the channel).
    pub fn throttle(&mut self, id: SensorId, at_ms: i64, throttle_ms: i64) {
        if throttle_ms > 0 {
            self.sensors[id.0 as usize]
                .throttle_time
                .record(at_ms, throttle_ms as f64);
        }
    }

    /// Sets (`Some(value)`) or removes (`None`) the quota of `entity` while
    /// the broker runs: the resolution state is updated, and every existing
    /// sensor whose configured bound changed takes the new bound and keeps
    /// its samples. After a removal, sensors fall back to the next matching
    /// quota of the precedence ladder (or unlimited). Sessions should look
    /// their sensors up again ([`ClientQuotaManager::sensors_for`]): new
    /// tags, or quotas now enabled or disabled, mean other sensors.
    ///
    /// # Errors
    ///
    /// [`crate::Error`] ([`crate::ErrorKind::IpEntity`]) for an `ip` entity; nothing changes.
    ///
    /// Kafka: `ClientQuotaManager.updateQuota` and `updateQuotaMetricConfigs`
    /// (`metric.config(getQuotaMetricConfig(newQuota))` on the live
    /// `KafkaMetric`: the `Rate`'s samples stay),
    /// server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java at 4.3.1.
    pub fn update_quota(&mut self, entity: &QuotaEntity, value: Option<f64>) -> Result<(), Error> {
        self.callback.update_quota(entity, value)?;
        for s in &mut self.sensors {
            if let Some(bound) = self.callback.sensor_bound(&s.tags) {
                // The callback's bounds are positive (the store refuses
                // others) or unlimited; a refused bound leaves the sensor as it was.
                let _ = s.quota.set_quota(bound);
            }
        }
        Ok(())
    }

    /// The largest value that can be recorded without being throttled for
    /// sure: the quota limit of the sensor's metric tags (the callback's
    /// `quotaLimit`, not the bound the sensor was given) `* (samples - 1) *
    /// window_s`; `f64::MAX` when quotas are disabled (no sensor) or no quota
    /// matches the tags. An unmatched connection is uncapped even with
    /// `quota.window.num` 1, where its unlimited bound times 0 would be 0.
    ///
    /// Kafka 4.3.1: `ClientQuotaManager.maxValueInQuotaWindow`
    /// (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java):
    /// `quotaCallback.quotaLimit(clientQuotaType, sensors.metricTags())`,
    /// `null` giving `Double.MAX_VALUE`.
    pub fn max_value_in_quota_window(&self, id: Option<SensorId>) -> f64 {
        let Some(id) = id else { return f64::MAX };
        let s = &self.sensors[id.0 as usize];
        match self.callback.quota_limit(&s.tags) {
            Some(limit) => {
                let window_s = self.window.window_ms() as f64 / 1000.0;
                quota_window_value(limit, self.window.samples(), window_s)
            }
            None => f64::MAX,
        }
    }

    /// One budget's sensors.
    pub fn sensor(&self, id: SensorId) -> &ClientSensors {
        &self.sensors[id.0 as usize]
    }

    /// One budget's sensors, mutable (metric reads purge samples, as in Kafka).
    pub fn sensor_mut(&mut self, id: SensorId) -> &mut ClientSensors {
        &mut self.sensors[id.0 as usize]
    }

    /// Whether a request of this quota type has been recorded on the budget:
    /// Kafka creates a budget's sensors (and so its MBeans) on the client's
    /// first request of that type, not when the client connects. Sessions
    /// here look every budget up at once, so this tells which ones Kafka
    /// would have by now.
    ///
    /// Kafka: `ClientQuotaManager.getOrCreateQuotaSensors`, called from
    /// `maybeRecordAndGetThrottleTimeMs`.
    pub fn recorded(&self, id: SensorId) -> bool {
        self.recorded.get(id.0 as usize).copied().unwrap_or(false)
    }

    /// Every budget, in creation order.
    pub fn sensors(&self) -> &[ClientSensors] {
        &self.sensors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::QuotaEntity;

    fn produce_manager(quotas: &[(QuotaEntity, f64)]) -> ClientQuotaManager {
        let mut cb = DefaultQuotaCallback::new(QuotaType::Produce);
        for (e, v) in quotas {
            cb.update_quota(e, Some(*v)).unwrap();
        }
        ClientQuotaManager::new(
            cb,
            QuotaWindow::KAFKA_DEFAULT,
            QuotaWindow::KAFKA_METRICS_DEFAULT,
        )
        .unwrap()
    }

    #[test]
    fn no_quota_means_no_sensor() {
        let mut m = produce_manager(&[]);
        assert_eq!(m.sensors_for("ANONYMOUS", "app"), None);
        assert_eq!(m.max_value_in_quota_window(None), f64::MAX);
    }

    #[test]
    fn equal_tags_share_one_sensor() {
        let mut m = produce_manager(&[(QuotaEntity::client_id("app"), 2_000_000.0)]);
        let a = m.sensors_for("alice", "app").unwrap();
        let b = m.sensors_for("bob", "app").unwrap();
        let c = m.sensors_for("bob", "other").unwrap();
        assert_eq!(
            a, b,
            "clients/app is shared by every user of that client-id"
        );
        assert_ne!(a, c);
        assert_eq!(m.sensor(c).quota.bound(), crate::metrics::UNLIMITED_BOUND);
        assert_eq!(m.sensors().len(), 2);
    }

    #[test]
    fn record_then_throttle_and_unrecord() {
        let mut m = produce_manager(&[(QuotaEntity::client_id("app"), 1_000_000.0)]);
        let id = m.sensors_for("u", "app").unwrap();
        assert!(!m.record_and_check(id, 0, 9_000_000.0).is_throttled());
        let a = m.record_and_check(id, 1, 2_000_000.0);
        assert_eq!(a.throttle_ms(), 999);
        m.unrecord(id, 1, 2_000_000.0);
        assert!(!m.sensor_mut(id).quota.check(1).is_throttled());
        m.throttle(id, 1, 999);
        assert_eq!(m.sensor_mut(id).throttle_time.avg(1), 999.0);
        assert_eq!(m.max_value_in_quota_window(Some(id)), 10_000_000.0);
    }

    /// Kafka's `maxValueInQuotaWindow` reads the callback's `quotaLimit` for
    /// the sensor's tags: a connection no quota matches (its sensor's bound
    /// unlimited) is uncapped, also with `quota.window.num` 1, where the
    /// bound times 0 samples would cap it at 0 bytes.
    #[test]
    fn an_unmatched_connection_is_uncapped_whatever_the_window() {
        let mut cb = DefaultQuotaCallback::new(QuotaType::Fetch);
        cb.update_quota(&QuotaEntity::client_id("other"), Some(1000.0)).unwrap();
        let one = QuotaWindow::try_new(1, 1_000).unwrap();
        let mut m = ClientQuotaManager::new(cb, one, QuotaWindow::KAFKA_METRICS_DEFAULT).unwrap();
        let reader = m.sensors_for("u", "reader").unwrap();
        assert_eq!(m.sensor(reader).quota.bound(), crate::metrics::UNLIMITED_BOUND);
        assert_eq!(m.max_value_in_quota_window(Some(reader)), f64::MAX);
        let other = m.sensors_for("u", "other").unwrap();
        assert_eq!(m.max_value_in_quota_window(Some(other)), 0.0);
    }

    #[test]
    fn the_request_quota_caps_its_throttle_at_one_window() {
        let mut cb = DefaultQuotaCallback::new(QuotaType::Request);
        cb.update_quota(&QuotaEntity::client_id("cpu"), Some(1.0))
            .unwrap();
        let mut m = ClientQuotaManager::new(
            cb,
            QuotaWindow::KAFKA_DEFAULT,
            QuotaWindow::KAFKA_METRICS_DEFAULT,
        )
        .unwrap();
        let id = m.sensors_for("ANONYMOUS", "cpu").unwrap();
        let a = m.record_and_check(id, 0, 500.0);
        assert_eq!(a.throttle_ms(), 1000);
    }

    #[test]
    fn an_update_keeps_the_samples_and_takes_the_new_bound() {
        let mut m = produce_manager(&[(QuotaEntity::user("alice"), 2_000_000.0)]);
        let id = m.sensors_for("alice", "app").unwrap();
        // 20 MB over the padded 10 s window: exactly 2 MB/s, accepted.
        assert!(!m.record_and_check(id, 0, 20_000_000.0).is_throttled());
        m.update_quota(&QuotaEntity::user("alice"), Some(1_000_000.0)).unwrap();
        assert_eq!(m.sensor(id).quota.bound(), 1_000_000.0);
        // The 20 MB are still there: 2 MB/s against 1 MB/s.
        let a = m.sensor_mut(id).quota.check(0);
        assert_eq!(a.throttle_ms(), 10_000);
        // Removal falls back to the default user quota.
        m.update_quota(&QuotaEntity::Ip(crate::entity::EntityName::Default), None)
            .unwrap_err();
        m.update_quota(&QuotaEntity::User(crate::entity::EntityName::Default), Some(5_000_000.0))
            .unwrap();
        m.update_quota(&QuotaEntity::user("alice"), None).unwrap();
        assert_eq!(m.sensor(id).quota.bound(), 5_000_000.0);
    }

    #[test]
    fn controller_mutation_is_not_a_client_quota_manager() {
        let cb = DefaultQuotaCallback::new(QuotaType::ControllerMutation);
        assert!(ClientQuotaManager::new(
            cb,
            QuotaWindow::KAFKA_DEFAULT,
            QuotaWindow::KAFKA_METRICS_DEFAULT
        )
        .is_err());
    }
}
