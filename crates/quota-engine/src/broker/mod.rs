//! Broker behaviour: the quota managers of one broker and what it decides per
//! request (record, throttle, mute), per connection (connection-creation
//! rate per IP) and per controller mutation.
//!
//! - [`BrokerSettings`]: `quota.window.num`, `quota.window.size.seconds`,
//!   `num.io.threads`, `num.network.threads` with Kafka's names and defaults.
//! - [`ClientQuotaManager`]: one per quota type, sensors keyed by metric tags
//!   (connections that share tags share a budget).
//! - [`Broker`]: the produce / fetch / request decisions of
//!   `KafkaApis.handleProduceRequest` and `handleFetchRequest`, the
//!   per-IP connection-creation quota of `SocketServer.ConnectionQuotas` and
//!   the controller-mutation quota of `ControllerMutationQuotaManager`.
//! - [`ResponsePlan`]: KIP-219 — the response goes out at once with
//!   `throttle_time_ms` and the channel is muted, or, on a broker before
//!   Kafka 2.0 (legacy), the response itself is delayed.
//!
//! Each [`Broker`] holds its own sensors: byte rates, request time and
//! connection rates are limits per broker. The controller-mutation quota is
//! metered by the active controller alone in KRaft (brokers forward
//! CreateTopics, CreatePartitions and DeleteTopics to it; `ControllerApis`),
//! so one [`Broker`]'s mutation decisions stand for the controller's: one
//! budget for the cluster.

mod quota;
mod settings;
pub mod stats;

use std::collections::BTreeMap;

pub(crate) use quota::quota_window_value;
pub use quota::{ClientQuotaManager, ClientSensors, SensorId};
pub use settings::BrokerSettings;

use crate::entity::{EntityName, QuotaEntity, QuotaKey, QuotaType};
use crate::metrics::{
    Admission, MutationAdmission, MutationMode, MutationSensor, QuotaWindow, RateSensor,
};
use crate::resolve::{MetricTags, QuotaCallbacks};
use crate::Error;

/// A client session as the broker sees it: its principal, `client.id`, and
/// the budget (sensor) it draws on per quota type (`None` = unmetered).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The principal name (raw, e.g. `ANONYMOUS`, `tenant-a`).
    pub principal_name: String,
    /// The client id, verbatim.
    pub client_id: String,
    /// Produce budget.
    pub produce: Option<SensorId>,
    /// Fetch budget.
    pub fetch: Option<SensorId>,
    /// Request (thread time) budget.
    pub request: Option<SensorId>,
}

/// The throttle decision for one produce or fetch request.
///
/// Kafka: `KafkaApis.handleProduceRequest` / `handleFetchRequest`: both quotas
/// are recorded, the throttle is the larger of the two and the channel is
/// throttled by the manager whose throttle is larger (request on a tie).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestDecision {
    /// The bandwidth (produce or fetch byte-rate) quota's decision; `None` when unmetered.
    pub bandwidth: Option<Admission>,
    /// The request (thread-time) quota's decision; `None` when unmetered or
    /// exempt (`acks=0` produce).
    pub request: Option<Admission>,
    /// `max(bandwidth, request)` throttle (ms): what the response carries in
    /// `throttle_time_ms` and the broker applies (mute, delay, `throttle-time`
    /// sensor); 0 = not throttled. Each manager's throttle is first narrowed
    /// to a Java `int` as Kafka's `ClientQuotaManager.maybeRecordAndGetThrottleTimeMs`
    /// does (`throttleTime(e, timeMs).toInt`, the low 32 bits), so an absurd
    /// throttle above `i32::MAX` ms (about 24.8 days; a 1 byte/s quota against
    /// megabytes) wraps, and one that wraps to a negative number throttles
    /// nothing: `KafkaApis` takes the larger of the two (the other being 0
    /// when not violated) and throttles only above 0.
    pub throttle_ms: i64,
    /// Which manager throttles the channel (the larger throttle).
    pub throttled_by: Option<QuotaType>,
}

impl RequestDecision {
    fn combine(
        bandwidth_type: QuotaType,
        bandwidth: Option<Admission>,
        request: Option<Admission>,
    ) -> Self {
        let b = bandwidth.map_or(0, |a| crate::metrics::long_to_int(a.throttle_ms()));
        let r = request.map_or(0, |a| crate::metrics::long_to_int(a.throttle_ms()));
        let throttle_ms = i64::from(b.max(r));
        let throttled_by = if throttle_ms <= 0 {
            None
        } else if b > r {
            Some(bandwidth_type)
        } else {
            Some(QuotaType::Request)
        };
        RequestDecision {
            bandwidth,
            request,
            throttle_ms: throttle_ms.max(0),
            throttled_by,
        }
    }
}

/// A fetch decision: the throttle, and the bytes actually returned (0 when
/// throttled: the response is empty and the recorded bytes are taken back).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FetchDecision {
    /// The quota decisions.
    pub decision: RequestDecision,
    /// Bytes of records in the response.
    pub returned_bytes: u64,
}

/// How the broker sends a response and mutes the channel.
///
/// Kafka: `RequestChannel.sendResponse` / `SocketServer.Processor` with
/// `ThrottledChannel` (KIP-219): the channel is muted until both the response
/// is sent and the throttle time has passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponsePlan {
    /// Not throttled: send now; the channel reopens once the response is out.
    Immediate,
    /// A broker >= 2.0 (KIP-219): send now with `throttle_time_ms`; the channel stays
    /// muted until `mute_until_ms` even if the response is out earlier.
    SendThenMute {
        /// When the throttle ends (ms).
        mute_until_ms: i64,
    },
    /// A broker before Kafka 2.0 (any client): the response itself waits
    /// until `send_at_ms`; the channel is muted meanwhile.
    Delay {
        /// When the response is sent (ms).
        send_at_ms: i64,
    },
}

impl ResponsePlan {
    /// The plan for a response decided at `at_ms` with `throttle_ms`, for a
    /// broker that answers at once and mutes (`client_throttles`, a broker >= 2.0,
    /// KIP-219) or delays the response (a broker before 2.0).
    pub fn new(at_ms: i64, throttle_ms: i64, client_throttles: bool) -> Self {
        if throttle_ms <= 0 {
            ResponsePlan::Immediate
        } else if client_throttles {
            ResponsePlan::SendThenMute {
                mute_until_ms: at_ms + throttle_ms,
            }
        } else {
            ResponsePlan::Delay {
                send_at_ms: at_ms + throttle_ms,
            }
        }
    }
}

/// The decision on one CreateTopics / CreatePartitions / DeleteTopics topic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MutationDecision {
    /// The bucket's decision; `None` when no `controller_mutation_rate` applies.
    pub admission: Option<MutationAdmission>,
    /// `Some("THROTTLING_QUOTA_EXCEEDED")` when rejected (strict mode).
    pub error: Option<&'static str>,
    /// The throttle time sent back (ms).
    pub throttle_ms: i64,
}

/// A controller-mutation request kind and the first version that is strict.
///
/// Kafka: `KafkaApis` calls `newQuotaFor(request, strictSinceVersion)` with
/// 6 (CreateTopics), 3 (CreatePartitions), 5 (DeleteTopics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MutationRequest {
    /// CreateTopics (strict since v6).
    CreateTopics,
    /// CreatePartitions (strict since v3).
    CreatePartitions,
    /// DeleteTopics (strict since v5).
    DeleteTopics,
}

impl MutationRequest {
    /// The first request version whose quota is strict.
    pub const fn strict_since_version(self) -> i16 {
        match self {
            MutationRequest::CreateTopics => 6,
            MutationRequest::CreatePartitions => 3,
            MutationRequest::DeleteTopics => 5,
        }
    }

    /// Strict or permissive for `version`.
    pub const fn mode(self, version: i16) -> MutationMode {
        if version >= self.strict_since_version() {
            MutationMode::Strict
        } else {
            MutationMode::Permissive
        }
    }
}

/// One broker: its settings and its quota managers.
#[derive(Debug, Clone)]
pub struct Broker {
    id: u32,
    settings: BrokerSettings,
    window: QuotaWindow,
    produce: ClientQuotaManager,
    fetch: ClientQuotaManager,
    request: ClientQuotaManager,
    mutation_callback: crate::resolve::DefaultQuotaCallback,
    mutation: BTreeMap<MetricTags, MutationSensor>,
    /// Named `ip` quotas by address (see [`ip_key`]): the entity as it was
    /// written, and its rate.
    ip_quotas: BTreeMap<String, (QuotaEntity, f64)>,
    ip_default: Option<f64>,
    /// Connection-rate sensors by address (see [`ip_key`]).
    ip_sensors: BTreeMap<String, RateSensor>,
    /// The broker-wide connection-rate sensor (`max.connection.creation.rate`),
    /// made at the first connection when that setting is not unlimited.
    broker_connections: Option<RateSensor>,
}

/// The key Kafka's `ConnectionQuotas` would use for `ip`: an `InetAddress`,
/// so every textual form of one address is one key (Java's
/// `getHostAddress()` text, e.g. `::1` and `[0:0::1]` both give
/// `0:0:0:0:0:0:0:1`, and `::ffff:10.0.0.1` gives `10.0.0.1`). A string that
/// is not an address literal (never the case for a real socket) is its own key.
/// The `connection_creation_rate` of `ip_quotas` (entity, value) that
/// applies to `ip`, as [`Broker::connection_quota_for_ip`] finds it, without
/// building a broker: `ips/<ip>` compared as addresses (the last of two
/// spellings of one address, as the broker's map keeps it), else
/// `ips/<default>`.
pub(crate) fn ip_quota_for(ip_quotas: &[(QuotaEntity, f64)], ip: &str) -> Option<(QuotaEntity, f64)> {
    let key = ip_key(ip);
    let named = ip_quotas
        .iter()
        .rev()
        .find(|(e, _)| matches!(e, QuotaEntity::Ip(EntityName::Named(n)) if ip_key(n) == key));
    let default = || {
        ip_quotas
            .iter()
            .rev()
            .find(|(e, _)| matches!(e, QuotaEntity::Ip(EntityName::Default)))
    };
    named.or_else(default).cloned()
}

fn ip_key(ip: &str) -> String {
    match crate::store::validate::IpAddress::parse(ip) {
        Some(address) => address.to_string(),
        None => ip.to_owned(),
    }
}

impl Broker {
    /// Broker `id` with `settings`, holding the client quotas of `managers`
    /// and the `ip` connection-rate quotas of `ip_quotas` (entity, value).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BrokerSetting`](crate::ErrorKind::BrokerSetting) when the
    /// settings are out of range.
    pub fn new(
        id: u32,
        settings: BrokerSettings,
        managers: &QuotaCallbacks,
        ip_quotas: &[(QuotaEntity, f64)],
    ) -> Result<Self, Error> {
        settings.validate()?;
        let window = settings.quota_window()?;
        let metrics_window = settings.metrics_window()?;
        let mk = |qt: QuotaType| {
            ClientQuotaManager::new(managers.get(qt).clone(), window, metrics_window)
        };
        let mut named = BTreeMap::new();
        let mut default = None;
        for (entity, value) in ip_quotas {
            match entity {
                QuotaEntity::Ip(EntityName::Named(ip)) => {
                    named.insert(ip_key(ip), (entity.clone(), *value));
                }
                QuotaEntity::Ip(EntityName::Default) => default = Some(*value),
                _ => {}
            }
        }
        Ok(Broker {
            id,
            settings,
            window,
            produce: mk(QuotaType::Produce)?,
            fetch: mk(QuotaType::Fetch)?,
            request: mk(QuotaType::Request)?,
            mutation_callback: managers.get(QuotaType::ControllerMutation).clone(),
            mutation: BTreeMap::new(),
            ip_quotas: named,
            ip_default: default,
            ip_sensors: BTreeMap::new(),
            broker_connections: None,
        })
    }

    /// The broker id.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The settings.
    pub fn settings(&self) -> &BrokerSettings {
        &self.settings
    }

    /// The quota window.
    pub fn window(&self) -> QuotaWindow {
        self.window
    }

    /// The manager of a client quota type; `None` for controller mutation.
    pub fn manager(&self, quota_type: QuotaType) -> Option<&ClientQuotaManager> {
        match quota_type {
            QuotaType::Produce => Some(&self.produce),
            QuotaType::Fetch => Some(&self.fetch),
            QuotaType::Request => Some(&self.request),
            QuotaType::ControllerMutation => None,
        }
    }

    /// The manager of a client quota type, mutable.
    pub fn manager_mut(&mut self, quota_type: QuotaType) -> Option<&mut ClientQuotaManager> {
        match quota_type {
            QuotaType::Produce => Some(&mut self.produce),
            QuotaType::Fetch => Some(&mut self.fetch),
            QuotaType::Request => Some(&mut self.request),
            QuotaType::ControllerMutation => None,
        }
    }

    /// Applies a quota alteration at once on this broker: `Some(value)` sets
    /// `key` of `entity`, `None` removes it. Client quotas go to their
    /// manager ([`ClientQuotaManager::update_quota`]: sensors keep their
    /// samples and take the new bound, removal falls back to the next
    /// matching quota); `connection_creation_rate` updates the per-IP limit
    /// and the bound of every existing per-IP sensor it now resolves to;
    /// `controller_mutation_rate` updates the resolution and the rate of
    /// every existing token bucket (its tokens kept, refilled at the new
    /// rate up to the new burst from its last update, as Kafka's
    /// `TokenBucket` reads the metric's config at each call). The value is assumed
    /// checked by [`crate::store::QuotaStore`]. Sessions should be opened
    /// again ([`Broker::session`]) since their budgets may have changed.
    ///
    /// # Errors
    ///
    /// [`crate::Error`] ([`crate::ErrorKind::IpEntity`]) when an `ip` entity is given a
    /// client quota key; nothing changes.
    ///
    /// Kafka: `ClientQuotaManager.updateQuota` / `updateQuotaMetricConfigs`
    /// (core/src/main/scala/kafka/server/ClientQuotaManager.scala),
    /// `ConnectionQuotas.updateIpConnectionRateQuota`
    /// (core/src/main/scala/kafka/network/SocketServer.scala), called from
    /// `ClientQuotaMetadataManager.handleUserClientQuotaChange` /
    /// `handleIpQuota` (core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala).
    pub fn update_quota(
        &mut self,
        entity: &QuotaEntity,
        key: QuotaKey,
        value: Option<f64>,
    ) -> Result<(), crate::Error> {
        match key.quota_type() {
            Some(QuotaType::ControllerMutation) => {
                self.mutation_callback.update_quota(entity, value)?;
                // ControllerMutationQuotaManager is a ClientQuotaManager:
                // updateQuotaMetricConfigs gives the `tokens` metric its new
                // quota, which TokenBucket reads at every measure and record.
                for (tags, sensor) in &mut self.mutation {
                    if let Some(bound) = self.mutation_callback.sensor_bound(tags) {
                        // Bounds are positive or unlimited; a refused one leaves it.
                        let _ = sensor.set_rate(bound);
                    }
                }
            }
            Some(qt) => {
                if let Some(m) = self.manager_mut(qt) {
                    m.update_quota(entity, value)?;
                }
            }
            None => {
                match entity {
                    QuotaEntity::Ip(EntityName::Named(ip)) => match value {
                        Some(v) => {
                            self.ip_quotas.insert(ip_key(ip), (entity.clone(), v));
                        }
                        None => {
                            self.ip_quotas.remove(&ip_key(ip));
                        }
                    },
                    QuotaEntity::Ip(EntityName::Default) => self.ip_default = value,
                    _ => return Ok(()),
                }
                let limits: Vec<(String, Option<f64>)> = self
                    .ip_sensors
                    .keys()
                    .map(|k| (k.clone(), self.connection_rate_for_ip(k)))
                    .collect();
                for (k, limit) in limits {
                    if let (Some(s), Some(limit)) = (self.ip_sensors.get_mut(&k), limit) {
                        let _ = s.set_quota(limit);
                    }
                }
            }
        }
        Ok(())
    }

    /// Opens a session: looks up (and creates) the connection's sensors.
    pub fn session(&mut self, principal_name: &str, client_id: &str) -> Session {
        Session {
            principal_name: principal_name.to_owned(),
            client_id: client_id.to_owned(),
            produce: self.produce.sensors_for(principal_name, client_id),
            fetch: self.fetch.sensors_for(principal_name, client_id),
            request: self.request.sensors_for(principal_name, client_id),
        }
    }

    /// Thread time in µs as the request quota records it: percent of one
    /// thread over one second (`nanos * 100 / 1e9`).
    ///
    /// Kafka: `ClientRequestQuotaManager.nanosToPercentage`.
    pub fn thread_time_percent(thread_us: f64) -> f64 {
        // Kafka records whole nanoseconds.
        let nanos = (thread_us * 1000.0).floor();
        nanos * (100.0 / 1_000_000_000.0)
    }

    /// A produce request of `request_bytes` handled at `at_ms` after
    /// `io_thread_us` of handler time: records the produce bytes and (unless
    /// `acks=0`) the thread time, and returns the throttle.
    ///
    /// Kafka: `KafkaApis.handleProduceRequest` (`maybeRecordAndGetThrottleTimeMs`
    /// on `quotas.produce` with the request size, then on `quotas.request`
    /// unless `acks == 0`; `max` of the two; `throttle()` on the larger).
    pub fn handle_produce(
        &mut self,
        session: &Session,
        at_ms: i64,
        request_bytes: u64,
        acks_zero: bool,
        io_thread_us: f64,
    ) -> RequestDecision {
        let bandwidth = session.produce.map(|id| {
            self.produce
                .record_and_check(id, at_ms, request_bytes as f64)
        });
        let request = if acks_zero {
            None
        } else {
            session.request.map(|id| {
                self.request
                    .record_and_check(id, at_ms, Self::thread_time_percent(io_thread_us))
            })
        };
        let d = RequestDecision::combine(QuotaType::Produce, bandwidth, request);
        self.apply_throttle(session, QuotaType::Produce, at_ms, &d);
        d
    }

    /// The most a fetch may return for this session, bytes: `min(request
    /// fetch.max.bytes, broker fetch.max.bytes, (quota * (samples - 1) *
    /// window_s).toInt)`. The quota window is narrowed as Kafka narrows it
    /// ([`d2i`](crate::jdk::double::d2i)): a NaN fetch quota gives 0, and a
    /// response of 0 bytes still carries its first record batch whole
    /// (KIP-74, the world's `fetch_available`); unmetered is `Int.MaxValue`.
    /// The same cap as the answer's [`FetchCap`](crate::resolve::answer::FetchCap).
    ///
    /// Kafka: `KafkaApis.handleFetchRequest` (`maxQuotaWindowBytes`,
    /// core/src/main/scala/kafka/server/KafkaApis.scala at 4.3.1).
    pub fn fetch_max_bytes(&self, session: &Session, request_max_bytes: u32) -> u64 {
        let window = crate::jdk::double::d2i(self.fetch.max_value_in_quota_window(session.fetch));
        let cap = i64::from(request_max_bytes.min(self.settings.fetch_max_bytes)).min(i64::from(window));
        u64::try_from(cap).unwrap_or(0)
    }

    /// A fetch response of `response_bytes` ready at `at_ms` after
    /// `io_thread_us`: records the thread time and the bytes; if throttled,
    /// the bytes are taken back and the response is empty.
    ///
    /// Kafka: `KafkaApis.handleFetchRequest` `processResponseCallback`
    /// (request quota first, then fetch bytes; `unrecordQuotaSensor` and
    /// `getThrottledResponse` when throttled).
    pub fn handle_fetch(
        &mut self,
        session: &Session,
        at_ms: i64,
        response_bytes: u64,
        io_thread_us: f64,
    ) -> FetchDecision {
        let request = session.request.map(|id| {
            self.request
                .record_and_check(id, at_ms, Self::thread_time_percent(io_thread_us))
        });
        let bandwidth = session.fetch.map(|id| {
            self.fetch
                .record_and_check(id, at_ms, response_bytes as f64)
        });
        let d = RequestDecision::combine(QuotaType::Fetch, bandwidth, request);
        let returned_bytes = if d.throttle_ms > 0 {
            if let Some(id) = session.fetch {
                self.fetch.unrecord(id, at_ms, response_bytes as f64);
            }
            0
        } else {
            response_bytes
        };
        self.apply_throttle(session, QuotaType::Fetch, at_ms, &d);
        FetchDecision {
            decision: d,
            returned_bytes,
        }
    }

    /// Records network-thread time (reading the request, writing the
    /// response) on the request quota without checking it.
    ///
    /// Kafka: `recordNetworkThreadTimeCallback` → `recordNoThrottle`.
    pub fn record_network_thread_time(
        &mut self,
        session: &Session,
        at_ms: i64,
        network_thread_us: f64,
    ) {
        if let Some(id) = session.request {
            self.request.record_no_throttle(
                id,
                at_ms,
                Self::thread_time_percent(network_thread_us),
            );
        }
    }

    fn apply_throttle(
        &mut self,
        session: &Session,
        bandwidth_type: QuotaType,
        at_ms: i64,
        d: &RequestDecision,
    ) {
        match d.throttled_by {
            Some(QuotaType::Request) => {
                if let Some(id) = session.request {
                    self.request.throttle(id, at_ms, d.throttle_ms);
                }
            }
            Some(_) => {
                let (m, id) = match bandwidth_type {
                    QuotaType::Produce => (&mut self.produce, session.produce),
                    _ => (&mut self.fetch, session.fetch),
                };
                if let Some(id) = id {
                    m.throttle(id, at_ms, d.throttle_ms);
                }
            }
            None => {}
        }
    }

    /// The `connection_creation_rate` that applies to `ip` (`ips/<ip>`, else
    /// `ips/<default>`); `None` = unlimited. Addresses are compared as Java's
    /// `InetAddress` does, so `ips/0:0:0:0:0:0:0:1` applies to a connection
    /// from `::1`.
    ///
    /// Kafka: `ConnectionQuotas.connectionRateForIp`.
    pub fn connection_rate_for_ip(&self, ip: &str) -> Option<f64> {
        self.connection_quota_for_ip(ip).map(|(_, rate)| rate)
    }

    /// The `connection_creation_rate` quota that applies to `ip` and the
    /// entity it comes from, as written (`ips/2001:db8::1` for a connection
    /// from `2001:DB8:0:0:0:0:0:1`), else `ips/<default>`; `None` = unlimited.
    ///
    /// Kafka: `ConnectionQuotas.connectionRateForIp`.
    pub fn connection_quota_for_ip(&self, ip: &str) -> Option<(QuotaEntity, f64)> {
        match self.ip_quotas.get(&ip_key(ip)) {
            Some((entity, rate)) => Some((entity.clone(), *rate)),
            None => self
                .ip_default
                .map(|rate| (QuotaEntity::Ip(EntityName::Default), rate)),
        }
    }

    /// A new connection from `ip` at `at_ms`: 0 when accepted, else the
    /// throttle (ms, at most one window) after which the broker closes the
    /// refused socket. A refused connection is not counted.
    ///
    /// Kafka: `ConnectionQuotas.recordIpConnectionMaybeThrottle` (record 1,
    /// `boundedThrottleTime`, un-record with -1 when throttled) and
    /// `Acceptor`'s `DelayedCloseSocket`, core/src/main/scala/kafka/network/SocketServer.scala.
    pub fn accept_connection(&mut self, ip: &str, at_ms: i64) -> Admission {
        let Some(limit) = self.connection_rate_for_ip(ip) else {
            return Admission::Accepted {
                observed: 0.0,
                bound: crate::metrics::UNLIMITED_BOUND,
                window_ms: 0,
            };
        };
        // Kafka hands the connection quota over as an `Int`
        // (`ClientQuotaMetadataManager.handleIpQuota`: `quotaValue.map(_.toInt)`,
        // core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala):
        // a fraction is cut, and a NaN quota, which the validation lets
        // through, becomes 0, which refuses every connection for one window.
        let limit = f64::from(limit as i32);
        let window = self.window;
        let sensor = match self.ip_sensors.entry(ip_key(ip)) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                match RateSensor::capped_at_one_window(window, limit) {
                    Ok(s) => v.insert(s),
                    // The store holds no rate below 0; anything else is no quota.
                    Err(_) => {
                        return Admission::Accepted {
                            observed: 0.0,
                            bound: crate::metrics::UNLIMITED_BOUND,
                            window_ms: 0,
                        }
                    }
                }
            }
        };
        let a = sensor.record(at_ms, 1.0);
        // Kafka un-records the refused connection only when it throttles it
        // (`throttleMs > 0`).
        if a.throttle_ms() > 0 {
            sensor.record_unchecked(at_ms, -1.0);
        }
        a
    }

    /// The acceptor's wait before it accepts a new connection at `at_ms`
    /// under `max.connection.creation.rate` (ms, at most one quota window;
    /// 0 when the setting is unlimited or the rate allows it). The
    /// connection is recorded either way, as Kafka records it before it
    /// waits.
    ///
    /// Kafka: `ConnectionQuotas.waitForConnectionSlot` →
    /// `recordConnectionAndGetThrottleTimeMs` → `recordAndGetThrottleTimeMs`
    /// on the broker connection-rate sensor (`boundedThrottleTime`, capped at
    /// `quota.window.size.seconds`), core/src/main/scala/kafka/network/SocketServer.scala.
    pub fn broker_connection_wait_ms(&mut self, at_ms: i64) -> i64 {
        let limit = self.settings.max_connection_creation_rate;
        if limit == i32::MAX {
            return 0;
        }
        let window = self.window;
        let sensor = match &mut self.broker_connections {
            Some(s) => s,
            None => match RateSensor::capped_at_one_window(window, f64::from(limit)) {
                Ok(s) => self.broker_connections.insert(s),
                Err(_) => return 0,
            },
        };
        sensor.record(at_ms, 1.0).throttle_ms().max(0)
    }

    /// Takes a connection back out of the broker-wide rate, as Kafka does
    /// when the per-IP quota then throttles it
    /// (`ConnectionQuotas.updateListenerMetrics`: `record(-1.0, timeMs, false)`).
    pub fn unrecord_broker_connection(&mut self, at_ms: i64) {
        if let Some(s) = &mut self.broker_connections {
            s.record_unchecked(at_ms, -1.0);
        }
    }

    /// One topic of a controller-mutation request with `partitions`
    /// mutations, sent with request `version`.
    ///
    /// Kafka: `ControllerMutationQuotaManager.newQuotaFor` (strict from the
    /// kind's `strictSinceVersion`), `StrictControllerMutationQuota.record`
    /// (rejects with `THROTTLING_QUOTA_EXCEEDED` while tokens < 0),
    /// `PermissiveControllerMutationQuota.record` (records, then throttles).
    pub fn controller_mutation(
        &mut self,
        session: &Session,
        kind: MutationRequest,
        version: i16,
        at_ms: i64,
        partitions: u32,
    ) -> MutationDecision {
        let Some(state) = self
            .mutation_callback
            .get_or_create_sensor(&session.principal_name, &session.client_id)
        else {
            return MutationDecision {
                admission: None,
                error: None,
                throttle_ms: 0,
            };
        };
        if state.bound >= crate::metrics::UNLIMITED_BOUND {
            return MutationDecision {
                admission: None,
                error: None,
                throttle_ms: 0,
            };
        }
        let window = self.window;
        let sensor = match self.mutation.entry(state.metric_tags) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                match MutationSensor::try_new(window, state.bound) {
                    Ok(s) => v.insert(s),
                    Err(_) => {
                        return MutationDecision {
                            admission: None,
                            error: None,
                            throttle_ms: 0,
                        }
                    }
                }
            }
        };
        let a = sensor.record(kind.mode(version), at_ms, f64::from(partitions));
        MutationDecision {
            admission: Some(a),
            error: (!a.is_accepted()).then_some(MutationAdmission::THROTTLING_QUOTA_EXCEEDED),
            throttle_ms: a.throttle_ms(),
        }
    }

    /// The `controller_mutation_rate` budget of `session`: its bound
    /// (mutations/s) and metric tags; `None` when no quota applies.
    ///
    /// Kafka: `ControllerMutationQuotaManager.newQuotaFor` →
    /// `getOrCreateQuotaSensors` (a read creates the sensor, as a request does).
    pub fn controller_mutation_budget(&mut self, session: &Session) -> Option<(f64, MetricTags)> {
        let state = self
            .mutation_callback
            .get_or_create_sensor(&session.principal_name, &session.client_id)?;
        (state.bound < crate::metrics::UNLIMITED_BOUND).then_some((state.bound, state.metric_tags))
    }

    /// The tokens of `session`'s controller-mutation bucket at `at_ms`
    /// (refilled; a new bucket on an epoch clock is full); `None` when no
    /// quota applies.
    ///
    /// Kafka: the `tokens` metric of `ControllerMutationQuotaManager`
    /// (`TokenBucket.measure`).
    pub fn controller_mutation_tokens(&mut self, session: &Session, at_ms: i64) -> Option<f64> {
        let (bound, tags) = self.controller_mutation_budget(session)?;
        let window = self.window;
        let sensor = match self.mutation.entry(tags) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => v.insert(MutationSensor::try_new(window, bound).ok()?),
        };
        Some(sensor.tokens(at_ms))
    }

    /// The MBean attributes of every budget on this broker, read at `at_ms`
    /// (reads purge samples, as a JMX read does in Kafka): `byte-rate` for
    /// Produce/Fetch, `request-time` for Request, and `throttle-time` (NaN
    /// when nothing was throttled in the metrics window).
    pub fn mbeans(&mut self, at_ms: i64) -> Vec<MBeanReading> {
        let mut out = Vec::new();
        for m in [&mut self.produce, &mut self.fetch, &mut self.request] {
            let qt = m.quota_type();
            let attr = if qt == QuotaType::Request {
                "request-time"
            } else {
                "byte-rate"
            };
            for i in 0..m.sensors().len() {
                if !m.recorded(SensorId(i as u32)) {
                    continue;
                }
                let s = m.sensor_mut(SensorId(i as u32));
                let name = s.tags.mbean_name(qt);
                out.push(MBeanReading {
                    mbean: name.clone(),
                    attribute: attr,
                    value: s.quota.measure(at_ms),
                });
                out.push(MBeanReading {
                    mbean: name,
                    attribute: "throttle-time",
                    value: s.throttle_time.avg(at_ms),
                });
            }
        }
        out
    }

    /// The quota key of an `ip` entity, for callers that filter store entries.
    pub const IP_KEY: QuotaKey = QuotaKey::ConnectionCreationRate;
}

/// One MBean attribute as JMX would read it.
#[derive(Debug, Clone, PartialEq)]
pub struct MBeanReading {
    /// The MBean name, e.g. `kafka.server:type=Produce,client-id=app`.
    pub mbean: String,
    /// `byte-rate`, `request-time` or `throttle-time`.
    pub attribute: &'static str,
    /// The value (bytes/s, percent, ms; NaN when never throttled).
    pub value: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broker(quotas: &[(QuotaEntity, QuotaKey, f64)]) -> Broker {
        let mut m = QuotaCallbacks::new();
        let mut ips = Vec::new();
        for (e, k, v) in quotas {
            match k.quota_type() {
                Some(qt) => {
                    m.get_mut(qt).update_quota(e, Some(*v)).unwrap();
                }
                None => ips.push((e.clone(), *v)),
            }
        }
        Broker::new(0, BrokerSettings::default(), &m, &ips).unwrap()
    }

    #[test]
    fn produce_throttle_is_the_larger_of_bandwidth_and_request() {
        let mut b = broker(&[
            (
                QuotaEntity::client_id("app"),
                QuotaKey::ProducerByteRate,
                1_000_000.0,
            ),
            (
                QuotaEntity::client_id("app"),
                QuotaKey::RequestPercentage,
                1.0,
            ),
        ]);
        let s = b.session("ANONYMOUS", "app");
        // 20 MB in a padded 10 s window at 1 MB/s: 10 s of bandwidth throttle;
        // 5 s of thread time at 1 %: request throttle capped at 1 s.
        let d = b.handle_produce(&s, 0, 20_000_000, false, 5_000_000.0);
        assert_eq!(d.bandwidth.unwrap().throttle_ms(), 10_000);
        assert_eq!(d.request.unwrap().throttle_ms(), 1000);
        assert_eq!(d.throttle_ms, 10_000);
        assert_eq!(d.throttled_by, Some(QuotaType::Produce));
        let mbeans = b.mbeans(0);
        let tt = mbeans
            .iter()
            .find(|m| {
                m.mbean == "kafka.server:type=Produce,client-id=app"
                    && m.attribute == "throttle-time"
            })
            .unwrap();
        assert_eq!(tt.value, 10_000.0);
        let rt = mbeans
            .iter()
            .find(|m| {
                m.mbean == "kafka.server:type=Request,client-id=app"
                    && m.attribute == "throttle-time"
            })
            .unwrap();
        assert!(
            rt.value.is_nan(),
            "the request manager did not throttle the channel"
        );
    }

    #[test]
    fn mbeans_exist_only_for_request_types_a_client_sent() {
        // A consumer quota and a producer: Kafka creates no Fetch sensors.
        let mut b = broker(&[
            (QuotaEntity::user("tenant-a"), QuotaKey::ProducerByteRate, 1_000_000.0),
            (QuotaEntity::user("tenant-a"), QuotaKey::ConsumerByteRate, 1_000_000.0),
        ]);
        let s = b.session("tenant-a", "app");
        assert!(b.mbeans(0).is_empty(), "a session alone creates no sensors");
        b.handle_produce(&s, 0, 1000, false, 100.0);
        let names: Vec<(String, &str)> = b.mbeans(0).into_iter().map(|m| (m.mbean, m.attribute)).collect();
        assert_eq!(
            names,
            vec![
                ("kafka.server:type=Produce,user=tenant-a".to_owned(), "byte-rate"),
                ("kafka.server:type=Produce,user=tenant-a".to_owned(), "throttle-time"),
            ]
        );
        b.handle_fetch(&s, 10, 100, 100.0);
        assert!(b.mbeans(10).iter().any(|m| m.mbean == "kafka.server:type=Fetch,user=tenant-a"));
    }

    #[test]
    fn acks_zero_skips_the_request_quota() {
        let mut b = broker(&[(
            QuotaEntity::client_id("app"),
            QuotaKey::RequestPercentage,
            1.0,
        )]);
        let s = b.session("ANONYMOUS", "app");
        let d = b.handle_produce(&s, 0, 1000, true, 5_000_000.0);
        assert_eq!(d.request, None);
        assert_eq!(d.throttle_ms, 0);
        let d = b.handle_produce(&s, 0, 1000, false, 5_000_000.0);
        assert!(d.throttle_ms > 0);
    }

    #[test]
    fn a_throttled_fetch_is_empty_and_unrecorded() {
        let mut b = broker(&[(
            QuotaEntity::client_id("c"),
            QuotaKey::ConsumerByteRate,
            1_000_000.0,
        )]);
        let s = b.session("ANONYMOUS", "c");
        let ok = b.handle_fetch(&s, 0, 9_000_000, 100.0);
        assert_eq!(ok.returned_bytes, 9_000_000);
        let t = b.handle_fetch(&s, 1, 2_000_000, 100.0);
        assert_eq!(t.returned_bytes, 0);
        assert_eq!(t.decision.throttle_ms, 999);
        // Unrecorded: the sum is back to 9 MB.
        let m = b.manager_mut(QuotaType::Fetch).unwrap();
        let rate = m.sensor_mut(s.fetch.unwrap()).quota.measure(1);
        assert!((rate - 9_000_000.0 / 10.001).abs() < 1e-6, "{rate}");
    }

    #[test]
    fn fetch_size_is_capped_at_the_quota_window() {
        let mut b = broker(&[(
            QuotaEntity::client_id("c"),
            QuotaKey::ConsumerByteRate,
            2_000_000.0,
        )]);
        let s = b.session("ANONYMOUS", "c");
        assert_eq!(b.fetch_max_bytes(&s, 52_428_800), 20_000_000);
        let free = b.session("ANONYMOUS", "other");
        assert_eq!(b.fetch_max_bytes(&free, 52_428_800), 52_428_800);
        assert_eq!(b.fetch_max_bytes(&free, 60_000_000), 57_671_680);
    }

    /// Kafka narrows the quota window with `toInt`: NaN is 0 (one record
    /// batch per response, KIP-74), as the answer's `FetchCap` says; a
    /// window beyond `Int.MaxValue` is `Int.MaxValue`.
    #[test]
    fn a_nan_fetch_quota_caps_the_fetch_at_zero_bytes_as_kafka_narrows_it() {
        let mut b = broker(&[
            (QuotaEntity::client_id("nan"), QuotaKey::ConsumerByteRate, f64::NAN),
            (QuotaEntity::client_id("huge"), QuotaKey::ConsumerByteRate, 1e300),
        ]);
        let nan = b.session("ANONYMOUS", "nan");
        assert_eq!(b.fetch_max_bytes(&nan, 52_428_800), 0);
        let huge = b.session("ANONYMOUS", "huge");
        assert_eq!(b.fetch_max_bytes(&huge, 52_428_800), 52_428_800);
        let settings = crate::broker::BrokerSettings::default();
        let cap = crate::resolve::answer::FetchCap::of(QuotaType::Fetch, f64::NAN, &settings).unwrap();
        assert_eq!(cap.bytes(), 0);
    }

    #[test]
    fn response_plans_follow_kip_219() {
        assert_eq!(ResponsePlan::new(10, 0, true), ResponsePlan::Immediate);
        assert_eq!(
            ResponsePlan::new(10, 5, true),
            ResponsePlan::SendThenMute { mute_until_ms: 15 }
        );
        assert_eq!(
            ResponsePlan::new(10, 5, false),
            ResponsePlan::Delay { send_at_ms: 15 }
        );
    }

    #[test]
    fn connection_rate_per_ip_throttles_and_uncounts() {
        let mut b = broker(&[(
            QuotaEntity::Ip(EntityName::Default),
            QuotaKey::ConnectionCreationRate,
            1.0,
        )]);
        // 1/s over a padded 10 s window: 10 connections pass, the 11th is refused.
        for i in 0..10 {
            assert!(
                !b.accept_connection("10.0.0.1", i).is_throttled(),
                "connection {i}"
            );
        }
        let a = b.accept_connection("10.0.0.1", 10);
        assert!(a.is_throttled());
        assert!(a.throttle_ms() <= 1000);
        // Un-recorded, so an immediate retry sees the same count again.
        assert!(b.accept_connection("10.0.0.1", 10).is_throttled());
        // Another IP has its own sensor.
        assert!(!b.accept_connection("10.0.0.2", 10).is_throttled());
    }

    #[test]
    fn a_throttle_beyond_int_range_wraps_as_kafkas_to_int() {
        // producer_byte_rate=1 and 30 MB at once: QuotaUtils.throttleTime gives
        // (3,000,000 - 1) / 1 * 10,000 ms = 29,999,990,000 ms as a long;
        // ClientQuotaManager narrows it with .toInt.
        let mut b = broker(&[(QuotaEntity::client_id("tiny"), QuotaKey::ProducerByteRate, 1.0)]);
        let s = b.session("ANONYMOUS", "tiny");
        let d = b.handle_produce(&s, 0, 30_000_000, false, 0.0);
        let long = d.bandwidth.unwrap().throttle_ms();
        // 30,000,000 B over the fresh sensor's 10,000 ms window = 3,000,000 B/s.
        assert_eq!(long, 29_999_990_000);
        // 29,999,990,000 - 7 * 2^32 = -64,781,072.
        assert_eq!(crate::metrics::long_to_int(long), -64_781_072);
        // Negative after the narrowing: the request is not throttled at all.
        assert_eq!(d.throttle_ms, 0);
        assert_eq!(d.throttled_by, None);
    }

    #[test]
    fn ip_quotas_match_every_textual_form_of_one_address() {
        // Kafka parses the entity with InetAddress.getByName and compares addresses.
        let b = broker(&[
            (QuotaEntity::Ip(EntityName::Named("0:0:0:0:0:0:0:1".into())), QuotaKey::ConnectionCreationRate, 1.0),
            (QuotaEntity::Ip(EntityName::Named("10.0.0.1".into())), QuotaKey::ConnectionCreationRate, 2.0),
            (QuotaEntity::Ip(EntityName::Named("2001:db8::1".into())), QuotaKey::ConnectionCreationRate, 3.0),
            (QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, 9.0),
        ]);
        assert_eq!(b.connection_rate_for_ip("::1"), Some(1.0));
        assert_eq!(b.connection_rate_for_ip("[::1]"), Some(1.0));
        assert_eq!(b.connection_rate_for_ip("::ffff:10.0.0.1"), Some(2.0));
        assert_eq!(b.connection_rate_for_ip("2001:DB8:0:0:0:0:0:1"), Some(3.0));
        assert_eq!(
            b.connection_quota_for_ip("2001:DB8:0:0:0:0:0:1"),
            Some((QuotaEntity::Ip(EntityName::Named("2001:db8::1".into())), 3.0))
        );
        assert_eq!(
            b.connection_quota_for_ip("10.0.0.2"),
            Some((QuotaEntity::Ip(EntityName::Default), 9.0))
        );
    }

    #[test]
    fn a_nan_connection_rate_is_the_int_0_and_refuses_every_connection_for_one_window() {
        // The validation lets NaN through; Kafka's `quotaValue.map(_.toInt)`
        // makes it 0, and every connection exceeds a bound of 0: throttled
        // for round(Infinity) capped at one window, then un-recorded.
        let mut b = broker(&[(QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, f64::NAN)]);
        for at in [0, 1, 1000, 5000] {
            let a = b.accept_connection("10.0.0.1", at);
            assert!(a.is_throttled(), "at {at}: {a:?}");
            assert_eq!(a.throttle_ms(), 1000, "at {at}");
            assert_eq!(a.bound(), 0.0);
        }
        // A fraction is cut as the Int conversion cuts it: 2.9 allows 2 per second.
        let mut b = broker(&[(QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, 2.9)]);
        assert_eq!(b.accept_connection("10.0.0.1", 0).bound(), 2.0);
    }

    #[test]
    fn the_ip_quota_lookup_without_a_broker_finds_what_the_broker_finds() {
        let named = |ip: &str| QuotaEntity::Ip(EntityName::Named(ip.into()));
        let k = QuotaKey::ConnectionCreationRate;
        let lists: [Vec<(QuotaEntity, QuotaKey, f64)>; 3] = [
            vec![],
            vec![(named("::1"), k, 1.0), (named("0:0:0:0:0:0:0:1"), k, 2.0), (named("10.0.0.1"), k, 3.0)],
            vec![(QuotaEntity::Ip(EntityName::Default), k, 9.0), (named("10.0.0.1"), k, 3.0), (named("2001:DB8::1"), k, 4.0)],
        ];
        for quotas in &lists {
            let b = broker(quotas);
            let ips: Vec<(QuotaEntity, f64)> = quotas.iter().map(|(e, _, v)| (e.clone(), *v)).collect();
            for ip in ["::1", "0:0:0:0:0:0:0:1", "10.0.0.1", "10.0.0.2", "2001:db8::1", "2001:db8:0:0:0:0:0:1"] {
                assert_eq!(ip_quota_for(&ips, ip), b.connection_quota_for_ip(ip), "{ip} in {quotas:?}");
            }
        }
    }

    #[test]
    fn one_address_written_two_ways_shares_one_connection_rate_sensor() {
        let mut b = broker(&[(
            QuotaEntity::Ip(EntityName::Named("::1".into())),
            QuotaKey::ConnectionCreationRate,
            1.0,
        )]);
        for i in 0..5 {
            assert!(!b.accept_connection("::1", i).is_throttled());
        }
        for i in 5..10 {
            assert!(!b.accept_connection("0:0:0:0:0:0:0:1", i).is_throttled());
        }
        // The 11th connection from the same address, in a third spelling, is refused.
        assert!(b.accept_connection("[0::1]", 10).is_throttled());
    }

    #[test]
    fn controller_mutations_strict_rejects_permissive_throttles() {
        // Kafka's TokenBucket refills from epoch 0: use epoch-style times.
        const T0: i64 = 1_700_000_000_000;
        let mut b = broker(&[(
            QuotaEntity::client_id("admin"),
            QuotaKey::ControllerMutationRate,
            10.0,
        )]);
        let s = b.session("ANONYMOUS", "admin");
        // Burst: 11 windows x 10/s = 110 tokens; 150 empties it.
        let d = b.controller_mutation(&s, MutationRequest::CreateTopics, 6, T0, 150);
        assert_eq!(d.error, None);
        let d = b.controller_mutation(&s, MutationRequest::CreateTopics, 6, T0, 1);
        assert_eq!(d.error, Some("THROTTLING_QUOTA_EXCEEDED"));
        assert_eq!(d.throttle_ms, 4000);
        let d = b.controller_mutation(&s, MutationRequest::CreateTopics, 5, T0, 10);
        assert_eq!(d.error, None, "v5 is permissive");
        assert_eq!(d.throttle_ms, 5000);
        let free = b.session("ANONYMOUS", "other");
        assert_eq!(
            b.controller_mutation(&free, MutationRequest::DeleteTopics, 5, T0, 1000)
                .admission,
            None
        );
    }

    #[test]
    fn a_nan_controller_mutation_rate_meters_and_never_throttles() {
        // Kafka's TokenBucket with a NaN rate: its tokens become NaN, and
        // `NaN < 0` is false, so neither mode ever throttles; the sensor exists.
        const T0: i64 = 1_700_000_000_000;
        let mut b = broker(&[(QuotaEntity::client_id("admin"), QuotaKey::ControllerMutationRate, f64::NAN)]);
        let s = b.session("ANONYMOUS", "admin");
        for (version, partitions) in [(6, 1_000_000), (6, 1), (5, 1_000_000)] {
            let d = b.controller_mutation(&s, MutationRequest::CreateTopics, version, T0, partitions);
            assert_eq!((d.error, d.throttle_ms), (None, 0), "v{version}");
            assert!(d.admission.is_some(), "metered");
        }
    }

    #[test]
    fn a_quota_update_reaches_the_live_sensors_with_their_samples() {
        let mut b = broker(&[(QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 2_000_000.0)]);
        let s = b.session("alice", "app");
        assert!(!b.handle_produce(&s, 0, 20_000_000, false, 0.0).bandwidth.unwrap().is_throttled());
        b.update_quota(&QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, Some(1_000_000.0))
            .unwrap();
        let s = b.session("alice", "app");
        // The 20 MB already recorded now exceed the lower bound.
        let d = b.handle_produce(&s, 1, 1, false, 0.0);
        assert_eq!(d.bandwidth.unwrap().bound(), 1_000_000.0);
        assert!(d.throttle_ms > 9_000, "{}", d.throttle_ms);
        // Removing the only produce quota disables produce quotas.
        b.update_quota(&QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, None).unwrap();
        assert_eq!(b.session("alice", "app").produce, None);
        // ip quotas update the per-IP limit.
        b.update_quota(&QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, Some(3.0))
            .unwrap();
        assert_eq!(b.connection_rate_for_ip("10.0.0.1"), Some(3.0));
    }

    #[test]
    fn thread_time_is_recorded_as_percent_of_a_second() {
        assert_eq!(Broker::thread_time_percent(10_000.0), 1.0);
        assert_eq!(Broker::thread_time_percent(0.0), 0.0);
    }
}
