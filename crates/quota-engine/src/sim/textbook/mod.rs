//! The textbook network (`"network": "textbook"`): a run whose every figure
//! can be reproduced by hand from Kafka's `ClientQuotaManager` alone.
//!
//! The rules (docs/textbook-network.md has them with worked cases):
//! - every connection is connected at t = 0 (no connect or handshake time);
//! - a transfer of `b` bytes takes `ceil(1000 * b / L)` whole ms plus the
//!   one-way latency `D` ms, each connection on its own full-duplex link
//!   ([`crate::sim::TextbookNetwork`]); no framing bytes: a produce request is
//!   its payload, a produce response and a fetch request are 0 bytes, a fetch
//!   response is the delivered payload (0 when throttled);
//! - a producer sends `N` bytes as requests of `min(R, unsent)`; a consumer
//!   reads `N` bytes with fetch size `R`, the broker sending
//!   `min(R, fetch cap, remaining)` (Kafka's fetch cap: the broker's
//!   `fetch.max.bytes` and `quota * (quota.window.num - 1) *
//!   quota.window.size.seconds`);
//! - a client sends only once its previous request has left the uplink,
//!   with at most `max.in.flight.requests.per.connection` (consumers: 1)
//!   awaiting a response, and not before its throttle has passed (response
//!   arrival + `throttle_time_ms`);
//! - the broker handles each connection's requests in order, one at a
//!   time, in `H` ms; at completion it records the request on the quota
//!   ([`crate::broker::ClientQuotaManager::record_and_check`]), answers at
//!   once and mutes the connection until completion + throttle; requests
//!   arriving meanwhile wait unread;
//! - within one ms: the broker completes and starts requests (connections
//!   in index order), then clients receive responses, then clients send,
//!   repeated until nothing changes; a workload ends with the response
//!   that completes it, the run when every workload has ended (or at
//!   `horizon_ms`).
//!
//! The quota machinery is the engine's own: the scenario's quotas go into a
//! [`crate::store::QuotaStore`] and [`crate::resolve::QuotaCallbacks`],
//! principals are derived as in every other run, and broker 0's
//! [`crate::broker::ClientQuotaManager`]s record, throttle, un-record (a
//! throttled fetch) and keep the throttle-time sensors. The throttle time is
//! Kafka's `int`: `(int) QuotaUtils.throttleTime(e, now)`.

mod link;
mod trace;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, VecDeque};

pub use trace::{
    BudgetSummary, ClientSummary, FirstThrottle, RequestTrace, ResponseStats, TextbookRun,
};

use super::{
    BrokerTrack, ClientKind, ClientMetrics, ClientThrottle, ClientTrack, ClusterTotals,
    MBeanValue, NetworkModel, Outcome, ProgressPoint, RatePoint, Scenario,
    ResponseTally, SensorTrack, Series, Span, ThrottleEvent, Timeline, Valid, Workload, SERIES_CAP,
};
use crate::broker::stats::WindowedAvgMax;
use crate::broker::{Broker, SensorId, Session};
use crate::Error;
use crate::entity::{QuotaKey, QuotaType};
use crate::metrics::{Admission, QuotaWindow};
use link::transfer_ms;
use crate::metrics::long_to_int;
use crate::resolve::answer::FetchCap;

/// The longest run, as for the modelled network (one day, ms).
const MAX_HORIZON_MS: i64 = 86_400_000;

/// The most requests one workload may need (`ceil(N / R)`, or `N` over the
/// consumer's largest response), so a run and its trace stay bounded.
const MAX_REQUESTS: u64 = 1_000_000;

/// True when `scenario` asks for the textbook network.
pub fn is_textbook(scenario: &Scenario) -> bool {
    scenario.network == NetworkModel::Textbook
}

/// What a connection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Producer,
    Consumer,
}

/// One connection: the client's side and the broker's side of it.
#[derive(Debug)]
struct Conn {
    name: String,
    client_id: String,
    principal: String,
    role: Role,
    /// `N`.
    total: u64,
    /// `R`.
    size: u64,
    max_in_flight: u32,
    start_ms: i64,
    session: Session,
    /// The produce (producer) or fetch (consumer) budget; `None` = unmetered.
    sensor: Option<SensorId>,
    track: Option<usize>,
    // Client side.
    unsent: u64,
    in_flight: u32,
    up_free_ms: i64,
    throttle_until_ms: i64,
    done_bytes: u64,
    finish_ms: Option<i64>,
    requests: Vec<usize>,
    throttle_stat: WindowedAvgMax,
    throttles: Series<ClientThrottle>,
    throttle_tally: ResponseTally,
    mutes: Vec<Span>,
    progress: Series<ProgressPoint>,
    // Broker side.
    queue: VecDeque<usize>,
    busy: Option<(usize, i64)>,
    muted_until_ms: i64,
    delivered: u64,
    down_free_ms: i64,
    /// Responses on the way, in arrival order: (request, arrival ms).
    responses: VecDeque<(usize, i64)>,
}

impl Conn {
    fn has_work(&self) -> bool {
        self.finish_ms.is_none()
            && match self.role {
                Role::Producer => self.unsent > 0,
                Role::Consumer => true,
            }
    }

    fn send_limit(&self) -> u32 {
        match self.role {
            Role::Producer => self.max_in_flight,
            // The Java consumer keeps one fetch per broker in flight.
            Role::Consumer => 1,
        }
    }

    /// When the client may next send, if it has something to send.
    fn next_send_ms(&self) -> Option<i64> {
        if !self.has_work() || self.in_flight >= self.send_limit() {
            return None;
        }
        Some(self.up_free_ms.max(self.throttle_until_ms).max(self.start_ms))
    }
}

struct Run {
    now: i64,
    link_bps: u64,
    latency_ms: i64,
    handling_ms: i64,
    broker: Broker,
    conns: Vec<Conn>,
    reqs: Vec<RequestTrace>,
    tracks: Vec<SensorTrack>,
    track_index: BTreeMap<(u8, u32), usize>,
    events: u64,
}

fn slot(qt: QuotaType) -> u8 {
    match qt {
        QuotaType::Produce => 0,
        _ => 1,
    }
}

/// Runs `scenario` (checked by [`Scenario::validate`], which for a
/// textbook scenario is [`check`]) on the textbook network.
///
/// # Errors
///
/// What [`check`] reports (setting the run up repeats its checks, so a
/// scenario `validate` passed gets none): a quota is refused, a principal
/// cannot be derived, a broker setting is out of range, or the scenario
/// does not fit the textbook rules (more than one broker, a
/// `request_percentage` quota, a workload without `bytes` and
/// `request.size` / `fetch.size`, a link of 0 bytes/s, an unknown
/// connection or topic).
pub fn run(scenario: Valid<&Scenario>) -> Result<TextbookRun, Error> {
    let scenario = scenario.get();
    let mut run = prepare(scenario)?;
    let horizon = i64::try_from(scenario.horizon_ms)
        .unwrap_or(MAX_HORIZON_MS)
        .min(MAX_HORIZON_MS);
    let hit_horizon = run.run_until(horizon);
    Ok(run.finish(scenario, hit_horizon))
}

/// Every check [`run`] makes before its first request, without running
/// and without setting up a broker (what [`Scenario::validate`] asks of a
/// textbook scenario: the page validates on every edit, and its module
/// carries no broker).
///
/// # Errors
///
/// As [`run`].
pub fn check(scenario: &Scenario) -> Result<(), Error> {
    plan(scenario).map(|_| ())
}

/// One producer's or consumer's connection, checked by [`plan`]: what
/// [`prepare`] sets up on the broker.
struct Planned<'a> {
    spec: &'a crate::sim::ConnectionSpec,
    principal: crate::cluster::DerivedPrincipal,
    role: Role,
    /// `N`, bytes.
    total: u64,
    /// `R`, bytes.
    size: u64,
    /// What one request carries at most, bytes: `R`, or a consumer's `R`
    /// under its fetch cap.
    per_request: u64,
    max_in_flight: u32,
    start_ms: u64,
}

/// The scenario checked by the textbook rules, with each workload's
/// connection: everything [`prepare`] needs but the broker.
///
/// A consumer's fetch cap is the answer's [`FetchCap`] of the fetch quota
/// limit of its connection's metric tags (unmetered: the broker's
/// `fetch.max.bytes`),
/// which is the broker's own [`Broker::fetch_max_bytes`] (`prepare`
/// asserts it in debug builds).
///
/// [`FetchCap`]: crate::resolve::answer::FetchCap
fn plan(scenario: &Scenario) -> Result<(crate::cluster::Cluster, Vec<Planned<'_>>), Error> {
    let settings = &scenario.brokers.settings;
    settings.validate()?;
    let net = scenario.textbook.unwrap_or_default();
    if net.bandwidth_bytes_per_s == 0 {
        return Err(Error::invalid_scenario(
            "The textbook link bandwidth is 0 bytes/s: it must be at least 1.".to_owned(),
        ));
    }
    if let Some(e) = scenario.events.first() {
        return Err(Error::invalid_scenario(format!(
            "events[0]: The textbook network runs without events (move_leader, set_quota): remove this {} event and any others, or use the modelled network.",
            e.kind()
        )));
    }
    if let Some((i, w)) =
        scenario.workloads.iter().enumerate().find(|(_, w)| matches!(w, Workload::Admin(_) | Workload::Connects(_)))
    {
        return Err(Error::invalid_scenario(format!(
            "workloads[{i}].{kind}: The textbook network has producers and consumers only: remove the {kind} workload, or \"network\": \"textbook\" to run it on the modelled network.",
            kind = w.kind()
        )));
    }
    if scenario.workloads.iter().any(|w| match w {
        Workload::Producer(p) => p.stop_ms.is_some(),
        Workload::Consumer(c) => c.stop_ms.is_some(),
        Workload::Admin(_) | Workload::Connects(_) => false,
    }) {
        return Err(Error::invalid_scenario(
            "The textbook network runs every client to its end: remove stop_ms or use the modelled network.".to_owned(),
        ));
    }
    for (i, t) in scenario.topics.iter().enumerate() {
        let leaders = t.leaders.as_deref().unwrap_or(&[]);
        if let Some((p, b)) = leaders.iter().enumerate().find(|(_, b)| **b != 0) {
            return Err(Error::invalid_scenario(format!(
                "topics[{i}].leaders[{p}]: The textbook network has one broker, 0: every topic's leaders must be 0, and partition {p} of topic '{}' is led by broker {b}.",
                t.name
            )));
        }
    }
    if scenario.brokers.count != 1 {
        return Err(Error::invalid_scenario(format!(
            "The textbook network has one broker: brokers.count is {}, it must be 1.",
            scenario.brokers.count
        )));
    }
    let cluster = crate::cluster::Cluster::new(scenario);
    cluster.check_quotas(scenario)?;
    if let Some((entity, _)) = cluster
        .store()
        .entries()
        .find(|(_, kv)| kv.contains_key(&QuotaKey::RequestPercentage))
    {
        return Err(Error::invalid_scenario(format!(
            "The textbook network meters produce and fetch bytes only: the request_percentage quota on {} cannot be reproduced there; remove it.",
            entity.path()
        )));
    }
    let mut planned = Vec::new();
    let mut used: BTreeMap<&str, ()> = BTreeMap::new();
    for wl in &scenario.workloads {
        let (conn_name, topic) = match wl {
            Workload::Producer(p) => (p.connection.as_str(), p.topic.as_str()),
            Workload::Consumer(c) => (c.connection.as_str(), c.topic.as_str()),
            // Refused above.
            Workload::Admin(_) | Workload::Connects(_) => continue,
        };
        let Some((spec_index, spec)) = scenario.connections.iter().enumerate().find(|(_, c)| c.name == conn_name) else {
            return Err(Error::invalid_scenario(format!(
                "A workload uses the connection '{conn_name}', which is not defined in connections."
            )));
        };
        if used.insert(conn_name, ()).is_some() {
            return Err(Error::invalid_scenario(format!(
                "The connection '{conn_name}' is used by two workloads; give each client its own connection."
            )));
        }
        if !scenario.topics.iter().any(|t| t.name == topic) {
            return Err(Error::invalid_scenario(format!(
                "A workload uses the topic '{topic}', which is not defined in topics."
            )));
        }
        let (role, total, size, max_in_flight, start_ms) = match wl {
            Workload::Producer(p) => match (p.bytes, p.request_size) {
                (Some(n), Some(r)) if n > 0 && r > 0 => {
                    if p.config.max_in_flight == 0 {
                        return Err(Error::invalid_scenario(
                            "A producer's max.in.flight.requests.per.connection must be above zero.".to_owned(),
                        ));
                    }
                    (Role::Producer, n, u64::from(r), p.config.max_in_flight, p.start_ms)
                }
                _ => {
                    return Err(Error::invalid_scenario(format!(
                        "The textbook producer on '{conn_name}' needs bytes and request.size, both above zero."
                    )))
                }
            },
            Workload::Consumer(c) => match (c.bytes, c.fetch_size) {
                (Some(n), Some(r)) if n > 0 && r > 0 => (Role::Consumer, n, u64::from(r), 1, c.start_ms),
                _ => {
                    return Err(Error::invalid_scenario(format!(
                        "The textbook consumer on '{conn_name}' needs bytes and fetch.size, both above zero."
                    )))
                }
            },
            Workload::Admin(_) | Workload::Connects(_) => continue,
        };
        let principal = cluster.principal(spec_index, &spec.name)?;
        let per_request = match role {
            Role::Producer => size,
            // The fetch cap is fixed: the textbook network has no events, so
            // the quota limit of the connection's tags and the settings stay.
            Role::Consumer => {
                // The limit of the tags the broker's sensor would have
                // (`maxValueInQuotaWindow`'s `quotaLimit`).
                let fetch = cluster.managers().get(QuotaType::Fetch);
                let window = fetch
                    .quota_limit(&fetch.metric_tags(&crate::principal::sanitize(&principal.name), &spec.client_id))
                    .and_then(|quota| FetchCap::of(QuotaType::Fetch, quota, settings))
                    .map_or(i64::from(i32::MAX), |cap| i64::from(cap.window_bytes));
                let request = i64::from(u32::try_from(size).unwrap_or(u32::MAX).min(settings.fetch_max_bytes));
                let cap = u64::try_from(request.min(window)).unwrap_or(0);
                if cap == 0 {
                    return Err(Error::invalid_scenario(format!(
                        "The textbook consumer on '{conn_name}' has a fetch cap of 0 bytes (the broker's fetch.max.bytes, or (consumer_byte_rate x (quota.window.num - 1) x quota.window.size.seconds).toInt, which is 0 for a NaN quota, a window under one byte or quota.window.num 1): Kafka then sends one record batch per fetch response (KIP-74), and the textbook network, which has no record batches, cannot model that; use the modelled network (leave out \"network\": \"textbook\")."
                    )));
                }
                size.min(cap)
            }
        };
        if total.div_ceil(per_request) > MAX_REQUESTS {
            return Err(Error::invalid_scenario(format!(
                "The textbook workload on '{conn_name}' needs more than {MAX_REQUESTS} requests ({total} bytes, at most {per_request} per request): raise the request or fetch size."
            )));
        }
        planned.push(Planned { spec, principal, role, total, size, per_request, max_in_flight, start_ms });
    }
    Ok((cluster, planned))
}

/// The run of `scenario`, checked ([`plan`]) and set up on broker 0, before
/// its first request.
fn prepare(scenario: &Scenario) -> Result<Run, Error> {
    let (cluster, planned) = plan(scenario)?;
    let settings = &scenario.brokers.settings;
    let net = scenario.textbook.unwrap_or_default();
    let broker = Broker::new(0, settings.clone(), cluster.managers(), &[])?;
    let mut run = Run {
        now: 0,
        link_bps: net.bandwidth_bytes_per_s,
        latency_ms: i64::try_from(net.latency_ms).unwrap_or(MAX_HORIZON_MS),
        handling_ms: i64::try_from(net.handling_ms).unwrap_or(MAX_HORIZON_MS),
        broker,
        conns: Vec::new(),
        reqs: Vec::new(),
        tracks: Vec::new(),
        track_index: BTreeMap::new(),
        events: 0,
    };
    for p in planned {
        let Planned { spec, principal, role, total, size, per_request, max_in_flight, start_ms } = p;
        let session = run.broker.session(&principal.name, &spec.client_id);
        if role == Role::Consumer {
            // The plan's cap is the broker's own.
            debug_assert_eq!(
                per_request,
                size.min(run.broker.fetch_max_bytes(&session, u32::try_from(size).unwrap_or(u32::MAX))),
                "the planned fetch cap of '{}'",
                spec.name
            );
        }
        let qt = match role {
            Role::Producer => QuotaType::Produce,
            Role::Consumer => QuotaType::Fetch,
        };
        let sensor = match role {
            Role::Producer => session.produce,
            Role::Consumer => session.fetch,
        };
        let index = run.conns.len() as u32;
        let track = sensor.map(|sid| run.track_for(qt, sid, index));
        run.conns.push(Conn {
            name: spec.name.clone(),
            client_id: spec.client_id.clone(),
            principal: principal.display,
            role,
            total,
            size,
            max_in_flight,
            start_ms: i64::try_from(start_ms).unwrap_or(MAX_HORIZON_MS).min(MAX_HORIZON_MS),
            session,
            sensor,
            track,
            unsent: total,
            in_flight: 0,
            up_free_ms: 0,
            throttle_until_ms: 0,
            done_bytes: 0,
            finish_ms: None,
            requests: Vec::new(),
            throttle_stat: WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            throttles: Series::default(),
            throttle_tally: ResponseTally::default(),
            mutes: Vec::new(),
            progress: Series::default(),
            queue: VecDeque::new(),
            busy: None,
            muted_until_ms: 0,
            delivered: 0,
            down_free_ms: 0,
            responses: VecDeque::new(),
        });
    }
    Ok(run)
}

impl Run {
    fn track_for(&mut self, qt: QuotaType, sid: SensorId, conn: u32) -> usize {
        let key = (slot(qt), sid.0);
        if let Some(t) = self.track_index.get(&key) {
            let t = *t;
            if !self.tracks[t].members.contains(&conn) {
                self.tracks[t].members.push(conn);
            }
            return t;
        }
        let Some(m) = self.broker.manager(qt) else {
            return 0;
        };
        let s = m.sensor(sid);
        let window = m.window();
        let t = self.tracks.len();
        self.tracks.push(SensorTrack {
            broker: 0,
            quota_type: qt,
            tags: s.tags.clone(),
            sensor_name: s.tags.sensor_name(qt),
            mbean: s.tags.mbean_name(qt),
            bound: s.quota.bound(),
            samples_kept: window.samples(),
            sample_window_ms: window.window_ms(),
            samples: Vec::new(),
            rate: Series::default(),
            throttles: Vec::new(),
            members: vec![conn],
            bound_changes: Vec::new(),
        });
        self.track_index.insert(key, t);
        t
    }

    /// Steps from ms to ms until every workload is done; true when the
    /// horizon (or a standstill) stopped the run first.
    fn run_until(&mut self, horizon: i64) -> bool {
        loop {
            self.settle();
            if self.conns.iter().all(|c| c.finish_ms.is_some()) {
                return false;
            }
            match self.next_time() {
                Some(t) if t <= horizon => self.now = t,
                _ => {
                    self.now = horizon.max(self.now);
                    return true;
                }
            }
        }
    }

    /// Everything that happens at `now`, repeated until nothing changes.
    fn settle(&mut self) {
        loop {
            let mut changed = false;
            for c in 0..self.conns.len() {
                changed |= self.broker_step(c);
            }
            for c in 0..self.conns.len() {
                changed |= self.client_receive(c);
            }
            for c in 0..self.conns.len() {
                changed |= self.client_send(c);
            }
            if !changed {
                return;
            }
        }
    }

    /// The next ms after `now` at which anything can happen.
    fn next_time(&self) -> Option<i64> {
        let now = self.now;
        let mut next: Option<i64> = None;
        let mut consider = |t: i64| {
            if t > now {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        };
        for c in &self.conns {
            if let Some((_, done)) = c.busy {
                consider(done);
            } else if let Some(&r) = c.queue.front() {
                consider(self.reqs[r].arrival_ms.max(c.muted_until_ms));
            }
            if let Some(&(_, at)) = c.responses.front() {
                consider(at);
            }
            if let Some(t) = c.next_send_ms() {
                consider(t);
            }
        }
        next
    }

    /// The broker's side of connection `c` at `now`: complete the request
    /// in progress if due, start the next one if it has arrived and the
    /// connection is not muted; repeated (H = 0 completes at once).
    fn broker_step(&mut self, c: usize) -> bool {
        let mut changed = false;
        loop {
            let conn = &self.conns[c];
            if let Some((r, done)) = conn.busy {
                if done > self.now {
                    return changed;
                }
                self.complete(c, r);
                changed = true;
                continue;
            }
            let Some(&r) = conn.queue.front() else {
                return changed;
            };
            if self.reqs[r].arrival_ms > self.now || conn.muted_until_ms > self.now {
                return changed;
            }
            let conn = &mut self.conns[c];
            conn.queue.pop_front();
            conn.busy = Some((r, self.now + self.handling_ms));
            self.reqs[r].start_ms = Some(self.now);
            self.events += 1;
            changed = true;
        }
    }

    /// Completion of request `r` on connection `c`: record on the quota,
    /// decide the throttle, answer at once, mute until now + throttle.
    ///
    /// Kafka: `KafkaApis.handleProduceRequest` / `handleFetchRequest`
    /// (`maybeRecordAndGetThrottleTimeMs`; for a throttled fetch
    /// `unrecordQuotaSensor` and an empty response; `throttle` mutes the
    /// channel), core/src/main/scala/kafka/server/KafkaApis.scala.
    fn complete(&mut self, c: usize, r: usize) {
        let now = self.now;
        let (role, sensor, size, remaining) = {
            let conn = &self.conns[c];
            (conn.role, conn.sensor, conn.size, conn.total - conn.delivered)
        };
        let qt = match role {
            Role::Producer => QuotaType::Produce,
            Role::Consumer => QuotaType::Fetch,
        };
        let recorded = match role {
            Role::Producer => self.reqs[r].request_bytes,
            Role::Consumer => {
                // `min(R, broker fetch.max.bytes, quota window cap)`.
                let r32 = u32::try_from(size).unwrap_or(u32::MAX);
                let cap = self.broker.fetch_max_bytes(&self.conns[c].session, r32);
                size.min(cap).min(remaining)
            }
        };
        let mut admission = None;
        if let (Some(sid), Some(m)) = (sensor, self.broker.manager_mut(qt)) {
            admission = Some(m.record_and_check(sid, now, recorded as f64));
        }
        // `(int) throttleTime(e, now)`, then `max` with the request quota's 0.
        let narrowed = admission.map_or(0, |a| long_to_int(a.throttle_ms()));
        let throttle = narrowed.max(0);
        let mut accepted = recorded;
        if throttle > 0 {
            if let (Some(sid), Some(m)) = (sensor, self.broker.manager_mut(qt)) {
                if role == Role::Consumer {
                    m.unrecord(sid, now, recorded as f64);
                    accepted = 0;
                }
                m.throttle(sid, now, i64::from(throttle));
            }
        }
        let mute_end = now + i64::from(throttle);
        if let Some(a) = admission {
            self.note_admission(c, a, narrowed, mute_end);
        }
        let response_bytes = match role {
            Role::Producer => 0,
            Role::Consumer => accepted,
        };
        let link = self.link_bps;
        let latency = self.latency_ms;
        let conn = &mut self.conns[c];
        if role == Role::Consumer {
            conn.delivered += accepted;
        }
        conn.busy = None;
        conn.muted_until_ms = mute_end;
        if throttle > 0 {
            conn.mutes.push(Span {
                from_ms: now as f64,
                to_ms: mute_end as f64,
            });
        }
        let leave = now.max(conn.down_free_ms) + transfer_ms(response_bytes, link);
        conn.down_free_ms = leave;
        conn.responses.push_back((r, leave + latency));
        let row = &mut self.reqs[r];
        row.record_ms = Some(now);
        row.bytes_recorded = recorded;
        row.bytes_accepted = accepted;
        row.throttle_ms = throttle;
        row.response_bytes = response_bytes;
        row.mute_end_ms = Some(mute_end);
        self.events += 1;
    }

    /// The Timeline's view of one quota decision: the rate point, the
    /// current sample, the throttle event (`narrowed`: Kafka's `int`, which
    /// throttles only when above 0).
    fn note_admission(&mut self, c: usize, a: Admission, narrowed: i32, mute_end: i64) {
        let Some(t) = self.conns[c].track else { return };
        let now = self.now;
        let (qt, sid) = match (self.conns[c].role, self.conns[c].sensor) {
            (Role::Producer, Some(s)) => (QuotaType::Produce, s),
            (Role::Consumer, Some(s)) => (QuotaType::Fetch, s),
            _ => return,
        };
        self.sync_sample(t, qt, sid);
        let track = &mut self.tracks[t];
        track.rate.push(RatePoint {
            at_ms: crate::sim::time::ms_f64(now),
            rate: a.observed(),
            window_ms: a.window_ms(),
        });
        if let Admission::Throttled {
            observed,
            bound,
            window_ms,
            ..
        } = a
        {
            if (track.throttles.len() as u32) < SERIES_CAP {
                track.throttles.push(ThrottleEvent {
                    at_ms: crate::sim::time::ms_f64(now),
                    client: c as u32,
                    delay_ms: i64::from(narrowed),
                    observed,
                    bound,
                    window_ms,
                    applied: narrowed > 0,
                    mute_from_ms: now as f64,
                    mute_to_ms: mute_end as f64,
                });
            }
        }
    }

    /// Copies the sensor's current sample into its track (a new entry when
    /// a new sample started).
    fn sync_sample(&mut self, t: usize, qt: QuotaType, sid: SensorId) {
        let Some(m) = self.broker.manager(qt) else { return };
        self.tracks[t].sync_current_sample(m.sensor(sid).quota.rate());
    }

    /// Responses of connection `c` arriving at `now`, in order.
    fn client_receive(&mut self, c: usize) -> bool {
        let mut changed = false;
        let now = self.now;
        while let Some(&(r, at)) = self.conns[c].responses.front() {
            if at > now {
                break;
            }
            let conn = &mut self.conns[c];
            conn.responses.pop_front();
            conn.in_flight -= 1;
            let row = &mut self.reqs[r];
            row.response_received_ms = Some(now);
            let throttle = row.throttle_ms;
            if throttle > 0 {
                conn.throttle_until_ms = conn.throttle_until_ms.max(now + i64::from(throttle));
            }
            conn.throttle_stat.record(now, f64::from(throttle));
            let point = conn.throttle_tally.response(now as f64, 0, i64::from(throttle));
            conn.throttles.push(point);
            conn.done_bytes += match conn.role {
                Role::Producer => row.request_bytes,
                Role::Consumer => row.response_bytes,
            };
            conn.progress.push(ProgressPoint {
                at_ms: now as f64,
                records: conn.done_bytes,
            });
            if conn.done_bytes >= conn.total && conn.finish_ms.is_none() {
                conn.finish_ms = Some(now);
            }
            self.events += 1;
            changed = true;
        }
        changed
    }

    /// The client of connection `c` sends what it may at `now`.
    fn client_send(&mut self, c: usize) -> bool {
        let mut changed = false;
        let now = self.now;
        loop {
            let conn = &self.conns[c];
            match conn.next_send_ms() {
                Some(t) if t <= now => {}
                _ => return changed,
            }
            let bytes = match conn.role {
                Role::Producer => conn.size.min(conn.unsent),
                Role::Consumer => 0,
            };
            let up = now + transfer_ms(bytes, self.link_bps);
            let r = self.reqs.len();
            let conn = &mut self.conns[c];
            conn.unsent -= bytes.min(conn.unsent);
            conn.up_free_ms = up;
            conn.in_flight += 1;
            conn.requests.push(r);
            conn.queue.push_back(r);
            let seq = conn.requests.len() as u32;
            self.reqs.push(RequestTrace {
                connection: conn.name.clone(),
                connection_index: c as u32,
                seq,
                send_ms: now,
                request_bytes: bytes,
                arrival_ms: up + self.latency_ms,
                start_ms: None,
                record_ms: None,
                bytes_recorded: 0,
                bytes_accepted: 0,
                throttle_ms: 0,
                response_bytes: 0,
                response_received_ms: None,
                mute_end_ms: None,
            });
            self.events += 1;
            changed = true;
        }
    }

    fn finish(mut self, scenario: &Scenario, hit_horizon: bool) -> TextbookRun {
        let end = if hit_horizon {
            self.now
        } else {
            self.conns.iter().filter_map(|c| c.finish_ms).max().unwrap_or(0)
        };
        let keys: Vec<((u8, u32), usize)> =
            self.track_index.iter().map(|(k, v)| (*k, *v)).collect();
        for ((s, sid), t) in keys {
            let qt = if s == 0 { QuotaType::Produce } else { QuotaType::Fetch };
            self.sync_sample(t, qt, SensorId(sid));
        }
        let mut requests = Vec::new();
        for c in &self.conns {
            for r in &c.requests {
                requests.push(self.reqs[*r].clone());
            }
        }
        let clients_summary: Vec<ClientSummary> = self
            .conns
            .iter()
            .map(|c| ClientSummary {
                connection: c.name.clone(),
                kind: kind_of(c.role),
                finish_ms: c.finish_ms,
                stats: ResponseStats::of(c.requests.iter().map(|r| &self.reqs[*r])),
            })
            .collect();
        let budgets: Vec<BudgetSummary> = self
            .tracks
            .iter()
            .map(|t| BudgetSummary {
                quota_type: t.quota_type,
                mbean: t.mbean.clone(),
                bound: t.bound,
                members: t
                    .members
                    .iter()
                    .map(|m| self.conns[*m as usize].name.clone())
                    .collect(),
                stats: ResponseStats::of(
                    requests
                        .iter()
                        .filter(|r| t.members.contains(&r.connection_index)),
                ),
            })
            .collect();
        let mut clients = Vec::new();
        for c in &mut self.conns {
            let read_at = c.finish_ms.unwrap_or(end);
            let elapsed_ms = read_at - c.start_ms;
            clients.push(ClientTrack {
                name: c.name.clone(),
                kind: kind_of(c.role),
                client_id: c.client_id.clone(),
                principal: c.principal.clone(),
                start_ms: c.start_ms as f64,
                finish_ms: c.finish_ms.map(|f| f as f64),
                duration_ms: c.finish_ms.map(|f| (f - c.start_ms) as f64),
                // A textbook request never fails: only the horizon stops a client.
                outcome: if c.finish_ms.is_some() {
                    Outcome::Completed
                } else {
                    Outcome::Stopped
                },
                metrics: ClientMetrics {
                    throttle_time_avg: c.throttle_stat.avg(read_at),
                    throttle_time_max: c.throttle_stat.max(read_at),
                    record_retry_total: 0,
                    record_error_total: 0,
                    // A textbook record is one payload byte.
                    records_done: c.done_bytes,
                    bytes_done: c.done_bytes,
                    records_per_s: if elapsed_ms > 0 {
                        c.done_bytes as f64 * 1000.0 / elapsed_ms as f64
                    } else {
                        0.0
                    },
                    blocked_ms_total: 0.0,
                    buffer_used_max: 0,
                    requests: c.requests.len() as u64,
                },
                latency: None,
                perf: None,
                throttles: std::mem::take(&mut c.throttles),
                responses: c.throttle_tally,
                mutes: std::mem::take(&mut c.mutes),
                blocked: Vec::new(),
                buffer: Series::default(),
                progress: std::mem::take(&mut c.progress),
                waits: None,
                stop: None,
            });
        }
        let brokers = vec![BrokerTrack {
            id: 0,
            mbeans: self
                .broker
                .mbeans(end)
                .into_iter()
                .map(|m| MBeanValue {
                    mbean: m.mbean,
                    attribute: m.attribute.to_owned(),
                    value: m.value,
                })
                .collect(),
        }];
        let mut timeline = Timeline {
            scenario: scenario.name.clone(),
            seed: scenario.seed,
            end_ms: end as f64,
            hit_horizon,
            cut_short: false,
            events: self.events,
            sensors: self.tracks,
            clients,
            brokers,
            markers: Vec::new(),
            totals: ClusterTotals::default(),
            admin: Vec::new(),
            connects: Vec::new(),
        };
        timeline.close_series();
        TextbookRun {
            timeline,
            requests,
            clients: clients_summary,
            budgets,
        }
    }
}

fn kind_of(role: Role) -> ClientKind {
    match role {
        Role::Producer => ClientKind::Producer,
        Role::Consumer => ClientKind::Consumer,
    }
}
