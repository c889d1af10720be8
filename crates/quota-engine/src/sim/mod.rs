//! Deterministic discrete-event simulation of Kafka clients under quotas.
//!
//! [`simulate`] turns a [`Scenario`] into a [`Timeline`] in one call: the
//! scenario is analysed into a [`Cluster`] (quotas in a
//! [`crate::store::QuotaStore`] with Kafka's validation, each connection's
//! principal derived as Kafka's default principal builder would, the quota
//! managers), each broker gets those managers ([`crate::broker`]), and the
//! producers, consumers, links and brokers step through one event queue
//! ordered by (time, sequence).
//! The Timeline is read back at any instant with the cursor queries
//! ([`Timeline::event_times`], [`SensorTrack::samples_at`],
//! [`SensorTrack::rate_at`], [`ClientTrack::at`]).
//!
//! Determinism: one [`SplitMix64`] seeded from the scenario, ordered maps
//! only, integer nanoseconds for time, no platform math functions; the same
//! scenario and seed give the same Timeline (and
//! [`Timeline::fingerprint`]) on x86-64 and wasm32.
//!
//! What is modelled, and how coarsely:
//! - Java producer: `send()` at a fixed CPU cost per record (or paced by a
//!   target throughput), the accumulator with `batch.size`, `linger.ms`,
//!   `buffer.memory` (send() blocks, up to `max.block.ms`), the sender with
//!   `max.in.flight.requests.per.connection` and `max.request.size`,
//!   `delivery.timeout.ms` expiry and `request.timeout.ms` disconnects with
//!   retries; `acks=0` completes on send. Kafka: `RecordAccumulator`,
//!   `Sender`, `BufferPool`, `NetworkClient` (clients/src/main/java/org/apache/kafka/clients/...).
//! - Java consumer with `assign()`: one fetch per broker at a time,
//!   `fetch.max.bytes`, `max.partition.fetch.bytes` (the first batch always
//!   returned), `fetch.min.bytes`/`fetch.max.wait.ms` long polls, a CPU cost per
//!   record before the next fetch.
//! - Network: per connection, each direction serialises at the link
//!   bandwidth and adds the one-way latency.
//! - Broker: `num.io.threads` handler threads, one request per connection at
//!   a time (the channel is muted while a request is in progress), handler
//!   and network thread time from [`RequestCost`], KIP-219 throttling and
//!   muting, legacy delayed responses, per-IP connection-rate throttling.
//! - Cluster: partitions led by the brokers round robin or as
//!   `topics[].leaders` says, each broker enforcing every quota on its own;
//!   scenario `events` move a partition's leadership (clients send to the
//!   new leader from then on, without Kafka's `NOT_LEADER_OR_FOLLOWER`
//!   round trip) or alter a quota on every broker at once (sensors keep
//!   their samples, `ClientQuotaManager.updateQuotaMetricConfigs`); clients
//!   stop at their `stop_ms`. The Timeline gets [`EventMarker`]s, per-sensor
//!   [`BoundChange`]s and [`ClusterTotals`].
//!
//! `"network": "textbook"` swaps all of this for [`textbook`]: whole-ms
//! transfers, no framing bytes, a fixed handling time, so that every figure
//! follows by hand from Kafka's `ClientQuotaManager` (docs/textbook-network.md).
//!
//! # Example
//!
//! ```
//! use quota_engine::sim::{simulate, Scenario};
//!
//! let s: Scenario = serde_json::from_str(r#"{
//!   "topics": [{"name": "t"}],
//!   "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 1000000}],
//!   "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}],
//!   "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 6000, "record.size": 1000,
//!                  "config": {"acks": "1", "batch.size": 65536}}}]
//! }"#)?;
//! // `Error::from` keeps the first problem (`?` alone does it in a function
//! // returning `quota_engine::Error`).
//! let t = simulate(s.validate().map_err(quota_engine::Error::from)?)?;
//! let p = t.client("p").unwrap();
//! // 6 MB under 1 MB/s passes untouched: the burst allowance (10 windows).
//! assert_eq!(p.metrics.throttle_time_max, 0.0);
//! assert_eq!(p.metrics.records_done, 6000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod admin;
pub mod connects;
pub mod seeds;
mod cursor;
pub mod estimate;
mod queue;
mod rng;

pub mod textbook;
mod time;
mod timeline;
mod validate;
mod world;

pub use cursor::{next_event, prev_event, ClientAt, SampleBar};
pub use estimate::{estimate, WorkEstimate};
pub use queue::{EventQueue, Nanos};
pub use rng::SplitMix64;
pub use admin::{AdminRequest, AdminTopic, AdminTrack, TopicOutcome};
pub use connects::{ConnectAttempt, ConnectClient, ConnectsTrack};
pub use seeds::{simulate_seeds, ClientSpread, SeedSpread, SEEDS_MAX};
pub use crate::scenario::{
    Acks, AdminConfig, AdminOperation, AdminWorkload, ConnectConfig, ConnectPattern, ConnectsWorkload, BrokerCosts, BrokersSpec, ClientCosts, ClientThrottling, ConnectionSpec, ConsumerConfig,
    ConsumerWorkload, Environment, LinkSpec, DEFAULT_DELIVERY_TIMEOUT_MS, ListenerKind, NetworkModel, Preload, ProducerConfig,
    ProblemPath, ProducerWorkload, QuotaSetting, RequestCost, Scenario, ScenarioEvent, TextbookNetwork, TopicSpec,
    Valid, Workload,
};
pub use validate::{topic_name_problem, ScenarioProblem};
pub use world::HORIZON_CAP_MS;
pub use timeline::{
    fnv1a64, BoundChange, BrokerTrack, BudgetTotals, BufferPoint, ClientKind, ClientMetrics,
    ClientStop, ClientThrottle, ClientTotals, ClientTrack, ClusterTotals, EventMarker,
    LatencySummary, MBeanValue, MarkerKind, NamedException, Outcome, PerfSummary, PerfWindow,
    ModelledRequest, ProgressPoint, RatePoint, RequestApi, RequestWait, RequestWaits,
    ResponseTally, SampleWindow, SensorTrack, Series, Span, ThrottleEvent, Timeline, TracedRun, SERIES_CAP,
    TRACE_CAP,
};

use crate::cluster::Cluster;
use crate::Error;
pub use crate::cluster::{engine_connection, quota_store};

/// Simulates `scenario` (checked by [`Scenario::validate`]) and returns its
/// whole [`Timeline`]; a scenario with `"network": "textbook"` runs
/// [`textbook::run`] (whose per-request trace and summaries
/// [`textbook::run`] returns too).
///
/// A caller with a plain [`Scenario`] writes `simulate(s.validate()?)`:
/// `?` turns the problems into the first one's [`Error`].
///
/// # Errors
///
/// None for a scenario [`Scenario::validate`] passed: building the run
/// repeats the lookups `validate` made (quotas, principals, connections,
/// topics, broker settings) and returns the first that fails as an
/// [`Error`] ([`Error::is_quota_refused`], [`Error::is_principal`],
/// [`Error::is_invalid_scenario`]) instead of panicking.
pub fn simulate(scenario: Valid<&Scenario>) -> Result<Timeline, Error> {
    if textbook::is_textbook(&scenario) {
        return textbook::run(scenario).map(|run| run.timeline);
    }
    let (w, cluster) = modelled_world(scenario)?;
    with_admin(w.run(&scenario), &scenario, &cluster)
}

/// The modelled network's world for `scenario` and the cluster it was
/// built from, after the checks [`Scenario::validate`] leaves to them.
fn modelled_world(scenario: Valid<&Scenario>) -> Result<(world::World, Cluster), Error> {
    let scenario = scenario.get();
    let cluster = Cluster::new(scenario);
    cluster.check_quotas(scenario)?;
    let w = world::World::new(scenario, &cluster)?;
    Ok((w, cluster))
}

/// `t` with the scenario's admin workloads run ([`admin::run`]) and their
/// end counted in the run's end.
fn with_admin(mut t: Timeline, scenario: &Scenario, cluster: &Cluster) -> Result<Timeline, Error> {
    t.admin = admin::run(scenario, cluster)?;
    t.connects = connects::run(scenario, cluster)?;
    let horizon = scenario.horizon_ms.min(HORIZON_CAP_MS) as f64;
    if let Some(end) = t.connects.iter().map(|c| c.end_ms).reduce(f64::max) {
        t.end_ms = if t.clients.is_empty() && t.admin.is_empty() { end } else { t.end_ms.max(end) };
        if t.connects.iter().any(|c| !c.finished) {
            t.hit_horizon = true;
            t.end_ms = t.end_ms.max(horizon);
        }
    }
    if let Some(end) = t.admin.iter().map(|a| a.end_ms).reduce(f64::max) {
        let only_admin = t.clients.is_empty() && t.connects.is_empty();
        t.end_ms = if only_admin { end } else { t.end_ms.max(end) };
        if t.admin.iter().any(|a| a.topics.iter().any(|x| x.outcome == TopicOutcome::Pending)) {
            t.hit_horizon = true;
            t.end_ms = t.end_ms.max(horizon);
        }
    }
    Ok(t)
}

/// Checks that `scenario` can run, with every check made before a run's
/// first event ([`Scenario::validate`]: Kafka's validation of the quotas
/// and broker settings, the principals, the scenario's own consistency;
/// then building the run), without
/// running it (the world is built, no event is processed); returns its
/// estimated work ([`estimate()`]).
///
/// # Errors
///
/// The first problem [`Scenario::validate`] finds, else as [`simulate`].
pub fn check(scenario: &Scenario) -> Result<WorkEstimate, Error> {
    let valid = scenario.validate()?;
    if !textbook::is_textbook(scenario) {
        modelled_world(valid)?;
    }
    Ok(estimate(scenario))
}

/// How often a run reports its progress: every this many events (about
/// 30 ms of work natively).
pub const PROGRESS_EVERY_EVENTS: u64 = 1 << 17;

/// Where a run is, as [`simulate_with_progress`] reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Events processed so far (compare with [`WorkEstimate::events`]).
    pub events: u64,
    /// The simulated time reached (ms).
    pub now_ms: f64,
    /// The horizon the run stops at (ms, capped at [`HORIZON_CAP_MS`]).
    pub horizon_ms: i64,
}

/// Simulates `scenario` like [`simulate`], calling `on_progress` every
/// [`PROGRESS_EVERY_EVENTS`] events of the modelled network (a textbook
/// run is short and never reports). When `on_progress` returns false the
/// run stops there: the Timeline so far, with [`Timeline::cut_short`] set
/// and `end_ms` the simulated time reached. The engine reads no clock:
/// what to do between reports (a progress bar, a Ctrl-C check) is the
/// caller's.
///
/// # Errors
///
/// As [`simulate`].
pub fn simulate_with_progress(
    scenario: Valid<&Scenario>,
    on_progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Timeline, Error> {
    if textbook::is_textbook(&scenario) {
        return textbook::run(scenario).map(|run| run.timeline);
    }
    let (w, cluster) = modelled_world(scenario)?;
    with_admin(w.run_with_progress(&scenario, on_progress), &scenario, &cluster)
}

/// Simulates `scenario` on the modelled network like [`simulate`] (the
/// same Timeline) and also returns one [`ModelledRequest`] row per produce
/// and fetch request: when it was sent, written, arrived, read, recorded
/// and answered, its throttle, and where it waited (the first
/// [`TRACE_CAP`] requests; [`TracedRun::capped`] says when there were
/// more). A textbook scenario has its own trace: use [`textbook::run`].
///
/// Kafka: the request path of `NetworkClient`, `SocketServer`,
/// `KafkaRequestHandler` and `ClientQuotaManager` (see [`simulate`]).
///
/// # Errors
///
/// As [`simulate`]; and [`Error::is_invalid_scenario`] for a textbook
/// scenario, whose per-request trace [`textbook::run`] returns.
pub fn simulate_traced(scenario: Valid<&Scenario>) -> Result<TracedRun, Error> {
    if textbook::is_textbook(&scenario) {
        return Err(Error::invalid_scenario(
            "The scenario has \"network\": \"textbook\": its per-request trace comes from textbook::run, and simulate_traced traces the modelled network only.".to_owned(),
        ));
    }
    let (w, cluster) = modelled_world(scenario)?;
    let mut run = w.run_traced(&scenario);
    run.timeline = with_admin(run.timeline, &scenario, &cluster)?;
    Ok(run)
}

/// [`simulate_traced`] with progress reports and a way to stop, as
/// [`simulate_with_progress`].
///
/// # Errors
///
/// As [`simulate_traced`].
pub fn simulate_traced_with_progress(
    scenario: Valid<&Scenario>,
    on_progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<TracedRun, Error> {
    if textbook::is_textbook(&scenario) {
        return simulate_traced(scenario);
    }
    let (w, cluster) = modelled_world(scenario)?;
    let mut run = w.run_traced_capped(&scenario, TRACE_CAP, on_progress);
    run.timeline = with_admin(run.timeline, &scenario, &cluster)?;
    Ok(run)
}

#[cfg(test)]
mod tests;
