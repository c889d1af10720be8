//! The event loop: clients, links and brokers stepping through one queue.
//!
//! Coarsening (what Kafka's behaviour allows us to skip): one event per
//! produce request, fetch and response rather than per record; records inside
//! a batch are appended at a fixed `send()` cost and accounted arithmetically;
//! the application's appends are caught up lazily whenever the producer
//! polls, with one tick per batch.

use std::collections::{BTreeMap, VecDeque};

use super::queue::{EventQueue, Nanos};
use super::rng::SplitMix64;
use super::scenario::{
    Acks, ClientThrottling, ConsumerWorkload, ListenerKind, ProducerWorkload, Scenario, Workload,
};
use super::timeline::{
    BrokerTrack, BufferPoint, ClientKind, ClientMetrics, ClientThrottle, ClientTrack,
    LatencySummary, MBeanValue, PerfSummary, PerfWindow, ProgressPoint, RatePoint, SampleWindow,
    SensorTrack, Series, Span, ThrottleEvent, Timeline, SERIES_CAP,
};
use super::SimError;
use crate::broker::stats::{perf_percentiles, WindowedAvgMax};
use crate::broker::{Broker, RequestDecision, ResponsePlan, SensorId, Session};
use crate::entity::QuotaType;
use crate::metrics::{Admission, QuotaWindow};
use crate::resolve::QuotaManagers;

const NS_PER_MS: u64 = 1_000_000;
/// Record batch header (v2), bytes.
const BATCH_OVERHEAD: u64 = 61;
/// Produce request header and topic framing, bytes.
const PRODUCE_REQUEST_OVERHEAD: u64 = 120;
/// Fetch request size per request and per partition, bytes.
const FETCH_REQUEST_BASE: u64 = 100;
const FETCH_REQUEST_PER_PARTITION: u64 = 30;
/// Response overheads, bytes.
const RESPONSE_BASE: u64 = 50;
const RESPONSE_PER_PARTITION: u64 = 40;
/// `reconnect.backoff.ms` default.
const RECONNECT_BACKOFF_NS: u64 = 50 * NS_PER_MS;
/// `kafka-producer-perf-test.sh` reporting interval.
const PERF_REPORT_INTERVAL_MS: i64 = 5_000;

fn ms_of(ns: Nanos) -> i64 {
    (ns / NS_PER_MS) as i64
}

fn ms_f(ns: Nanos) -> f64 {
    ns as f64 / NS_PER_MS as f64
}

fn varint_len(v: u64) -> u64 {
    let mut n = 1;
    let mut x = v >> 7;
    while x > 0 {
        n += 1;
        x >>= 7;
    }
    n
}

/// Size of one v2 record with no key and no headers, `offsetDelta` and
/// `timestampDelta` below 64 (one varint byte each).
///
/// Kafka: `DefaultRecord.sizeInBytes`, clients/src/main/java/org/apache/kafka/common/record/DefaultRecord.java.
fn record_size_in_batch(value_bytes: u32) -> u64 {
    let v = u64::from(value_bytes);
    // attributes + timestampDelta + offsetDelta + key length (-1) + value length + value + header count
    let body = 1 + 1 + 1 + 1 + varint_len(v * 2) + v + 1;
    varint_len(body * 2) + body
}

#[derive(Debug, Clone, Copy)]
enum Ev {
    ClientStart(u32),
    ConnectAttempt(u32),
    ConnReady(u32, u32),
    AppTick(u32),
    SenderWake(u32),
    BlockTimeout(u32, u64),
    ConsumerWake(u32),
    RequestArrive(u32),
    HandleDone(u32),
    FetchExpire(u32),
    ResponseSend(u32),
    ResponseArrive(u32),
    Unmute(u32, u32),
    RequestTimeout(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Producer(u32),
    Consumer(u32),
}

struct Conn {
    client: u32,
    broker: u32,
    session: Session,
    kip219: bool,
    ip: String,
    handshake_rtts: u64,
    up_free: Nanos,
    down_free: Nanos,
    ready: bool,
    connecting: bool,
    epoch: u32,
    in_flight: Vec<u32>,
    throttled_until: Nanos,
    queue: VecDeque<u32>,
    busy: bool,
    tracks: [Option<u32>; 3],
}

enum ReqKind {
    Produce {
        batches: Vec<u32>,
        acks0: bool,
    },
    Fetch {
        max_bytes: u32,
        part_max: u32,
        min_bytes: u32,
        max_wait_ms: u64,
        parked: bool,
    },
}

struct Req {
    conn: u32,
    epoch: u32,
    bytes: u64,
    kind: ReqKind,
    done: bool,
    io_us: f64,
    net_us: f64,
    resp_bytes: u64,
    throttle_ms: i64,
    /// (partition slot, batches, records, bytes)
    fetched: Vec<(u32, u32, u64, u64)>,
}

struct LogBatch {
    bytes: u64,
    records: u64,
}

struct Partition {
    leader: u32,
    log: Vec<LogBatch>,
}

struct Batch {
    slot: u32,
    records: u32,
    created: Nanos,
    first_append: Nanos,
    closed: bool,
    retries: u32,
}

struct PerfState {
    window_start_ms: i64,
    w: PerfWindow,
    windows: Vec<PerfWindow>,
    bytes_total: u64,
}

struct Producer {
    client: u32,
    cfg: super::scenario::ProducerConfig,
    total: u64,
    value_bytes: u32,
    rec_bytes: u64,
    cap: u32,
    alloc: u64,
    interval: Nanos,
    slots: Vec<u32>,
    conns: Vec<Option<u32>>,
    started: bool,
    start: Nanos,
    next_record: u64,
    next_append: Nanos,
    blocked_since: Option<Nanos>,
    block_episode: u64,
    sticky: u32,
    deques: Vec<VecDeque<u32>>,
    batches: Vec<Batch>,
    buffer_used: u64,
    drain_index: u32,
    wake_at: Nanos,
    tick_at: Nanos,
    acked: u64,
    errors: u64,
    retries: u64,
    /// Count of records per latency in ms (index = ms).
    latency_hist: Vec<u32>,
    latency_count: u64,
    latency_sum: u64,
    latency_max: u32,
    throttle: WindowedAvgMax,
    perf: PerfState,
    blocked_total: Nanos,
    buffer_max: u64,
    requests: u64,
    finish: Option<Nanos>,
}

struct Consumer {
    cfg: super::scenario::ConsumerConfig,
    target: u64,
    slots: Vec<u32>,
    positions: Vec<u32>,
    conns: Vec<Option<u32>>,
    fetching: Vec<bool>,
    busy_until: Nanos,
    consumed: u64,
    bytes: u64,
    start: Nanos,
    started: bool,
    throttle: WindowedAvgMax,
    requests: u64,
    wake_at: Nanos,
    finish: Option<Nanos>,
}

struct ClientInfo {
    name: String,
    client_id: String,
    principal: String,
    role: Role,
    conns: Vec<u32>,
    track_throttles: Series<ClientThrottle>,
    mutes: Vec<Span>,
    blocked: Vec<Span>,
    buffer: Series<BufferPoint>,
    progress: Series<ProgressPoint>,
}

pub(crate) struct World {
    now: Nanos,
    q: EventQueue<Ev>,
    rng: SplitMix64,
    env: super::scenario::Environment,
    bw: f64,
    latency: Nanos,
    brokers: Vec<Broker>,
    io_free: Vec<Vec<Nanos>>,
    parked: Vec<Vec<u32>>,
    partitions: Vec<Partition>,
    conns: Vec<Conn>,
    reqs: Vec<Req>,
    producers: Vec<Producer>,
    consumers: Vec<Consumer>,
    clients: Vec<ClientInfo>,
    tracks: Vec<SensorTrack>,
    track_index: BTreeMap<(u32, u8, u32), u32>,
    horizon: Nanos,
    events: u64,
    unfinished: u32,
}

fn qt_slot(qt: QuotaType) -> u8 {
    match qt {
        QuotaType::Produce => 0,
        QuotaType::Fetch => 1,
        QuotaType::Request => 2,
        QuotaType::ControllerMutation => 3,
    }
}

impl World {
    pub(crate) fn new(
        s: &Scenario,
        managers: &QuotaManagers,
        ip_quotas: &[(crate::entity::QuotaEntity, f64)],
        principals: &crate::principal::PrincipalConfig,
    ) -> Result<Self, SimError> {
        let env = s.environment.clone();
        if !(env.link.bandwidth_bytes_per_s.is_finite() && env.link.bandwidth_bytes_per_s > 0.0) {
            return Err(SimError::invalid(format!(
                "The link bandwidth {} bytes/s is not valid: it must be a finite number above zero.",
                env.link.bandwidth_bytes_per_s
            )));
        }
        if s.brokers.count == 0 || s.brokers.count > 1000 {
            return Err(SimError::invalid(format!(
                "The broker count {} is not valid: it must be between 1 and 1000.",
                s.brokers.count
            )));
        }
        let mut brokers = Vec::new();
        for id in 0..s.brokers.count {
            brokers.push(
                Broker::new(id, s.brokers.settings.clone(), managers, ip_quotas)
                    .map_err(SimError::Broker)?,
            );
        }
        let io_threads = s.brokers.settings.num_io_threads;
        let mut partitions = Vec::new();
        let mut topic_slots: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for t in &s.topics {
            if t.partitions == 0 || t.partitions > 100_000 {
                return Err(SimError::invalid(format!(
                    "Topic '{}' has {} partitions: it must have between 1 and 100000.",
                    t.name, t.partitions
                )));
            }
            if topic_slots.contains_key(t.name.as_str()) {
                return Err(SimError::invalid(format!(
                    "Topic '{}' is defined twice.",
                    t.name
                )));
            }
            let mut slots = Vec::new();
            for p in 0..t.partitions {
                slots.push(partitions.len() as u32);
                partitions.push(Partition {
                    leader: p % s.brokers.count,
                    log: Vec::new(),
                });
            }
            if let Some(pre) = &t.preload {
                if pre.record_size == 0 || pre.batch_size == 0 {
                    return Err(SimError::invalid(format!(
                        "The preload of topic '{}' needs record.size and batch.size above zero.",
                        t.name
                    )));
                }
                let rec = record_size_in_batch(pre.record_size);
                let cap = ((u64::from(pre.batch_size).saturating_sub(BATCH_OVERHEAD)) / rec).max(1);
                let n = u64::from(t.partitions);
                for (i, slot) in slots.iter().enumerate() {
                    let mut left = pre.records / n + u64::from((i as u64) < pre.records % n);
                    while left > 0 {
                        let k = left.min(cap);
                        partitions[*slot as usize].log.push(LogBatch {
                            bytes: BATCH_OVERHEAD + k * rec,
                            records: k,
                        });
                        left -= k;
                    }
                }
            }
            topic_slots.insert(t.name.as_str(), slots);
        }
        let horizon = s.horizon_ms.min(86_400_000) * NS_PER_MS;
        let mut w = World {
            now: 0,
            q: EventQueue::new(),
            rng: SplitMix64::new(s.seed),
            bw: env.link.bandwidth_bytes_per_s,
            latency: env.link.latency_us * 1000,
            env,
            io_free: vec![vec![0; io_threads as usize]; s.brokers.count as usize],
            parked: vec![Vec::new(); s.brokers.count as usize],
            brokers,
            partitions,
            conns: Vec::new(),
            reqs: Vec::new(),
            producers: Vec::new(),
            consumers: Vec::new(),
            clients: Vec::new(),
            tracks: Vec::new(),
            track_index: BTreeMap::new(),
            horizon,
            events: 0,
            unfinished: 0,
        };
        let mut used: BTreeMap<&str, ()> = BTreeMap::new();
        for wl in &s.workloads {
            let (conn_name, topic) = match wl {
                Workload::Producer(p) => (p.connection.as_str(), p.topic.as_str()),
                Workload::Consumer(c) => (c.connection.as_str(), c.topic.as_str()),
            };
            let Some(spec) = s.connections.iter().find(|c| c.name == conn_name) else {
                return Err(SimError::invalid(format!(
                    "A workload uses the connection '{conn_name}', which is not defined in connections."
                )));
            };
            if used.insert(conn_name, ()).is_some() {
                return Err(SimError::invalid(format!(
                    "The connection '{conn_name}' is used by two workloads; give each client its own connection."
                )));
            }
            let Some(slots) = topic_slots.get(topic) else {
                return Err(SimError::invalid(format!(
                    "A workload uses the topic '{topic}', which is not defined in topics."
                )));
            };
            let principal = super::principal_of(spec, principals)?;
            let client = w.clients.len() as u32;
            let mut conns_by_broker = vec![None; s.brokers.count as usize];
            let mut conn_ids = Vec::new();
            let handshake_rtts = match spec.listener {
                ListenerKind::Plaintext | ListenerKind::Ssl => 1,
                ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => 3,
            };
            for b in 0..s.brokers.count {
                if !slots
                    .iter()
                    .any(|sl| w.partitions[*sl as usize].leader == b)
                {
                    continue;
                }
                let session = w.brokers[b as usize].session(&principal.name, &spec.client_id);
                let id = w.conns.len() as u32;
                let mut tracks = [None; 3];
                for (i, (qt, sid)) in [
                    (QuotaType::Produce, session.produce),
                    (QuotaType::Fetch, session.fetch),
                    (QuotaType::Request, session.request),
                ]
                .into_iter()
                .enumerate()
                {
                    let relevant = !matches!(
                        (qt, wl),
                        (QuotaType::Produce, Workload::Consumer(_))
                            | (QuotaType::Fetch, Workload::Producer(_))
                    );
                    if let (Some(sid), true) = (sid, relevant) {
                        tracks[i] = Some(w.track_for(b, qt, sid, client));
                    }
                }
                w.conns.push(Conn {
                    client,
                    broker: b,
                    session,
                    kip219: spec.client_throttling == ClientThrottling::Kip219,
                    ip: spec.ip.clone(),
                    handshake_rtts,
                    up_free: 0,
                    down_free: 0,
                    ready: false,
                    connecting: false,
                    epoch: 0,
                    in_flight: Vec::new(),
                    throttled_until: 0,
                    queue: VecDeque::new(),
                    busy: false,
                    tracks,
                });
                conns_by_broker[b as usize] = Some(id);
                conn_ids.push(id);
            }
            let (role, start_ms) = match wl {
                Workload::Producer(p) => {
                    let idx = w.producers.len() as u32;
                    w.producers.push(Self::new_producer(
                        client,
                        p,
                        slots.clone(),
                        conns_by_broker,
                        &w.env,
                    )?);
                    (Role::Producer(idx), p.start_ms)
                }
                Workload::Consumer(c) => {
                    let idx = w.consumers.len() as u32;
                    w.consumers
                        .push(Self::new_consumer(c, slots.clone(), conns_by_broker));
                    (Role::Consumer(idx), c.start_ms)
                }
            };
            let start = start_ms.min(86_400_000) * NS_PER_MS;
            w.clients.push(ClientInfo {
                name: spec.name.clone(),
                client_id: spec.client_id.clone(),
                principal: principal.display,
                role,
                conns: conn_ids,
                track_throttles: Series::default(),
                mutes: Vec::new(),
                blocked: Vec::new(),
                buffer: Series::default(),
                progress: Series::default(),
            });
            w.q.push(start, Ev::ClientStart(client));
            w.unfinished += 1;
        }
        Ok(w)
    }

    fn new_producer(
        client: u32,
        p: &ProducerWorkload,
        slots: Vec<u32>,
        conns: Vec<Option<u32>>,
        env: &super::scenario::Environment,
    ) -> Result<Producer, SimError> {
        let cfg = p.config.clone();
        if p.record_size == 0 {
            return Err(SimError::invalid(
                "A producer's record.size must be above zero.".to_owned(),
            ));
        }
        if cfg.batch_size == 0 || cfg.max_in_flight == 0 {
            return Err(SimError::invalid(
                "A producer's batch.size and max.in.flight.requests.per.connection must be above zero.".to_owned(),
            ));
        }
        let rec_bytes = record_size_in_batch(p.record_size);
        let cap = ((u64::from(cfg.batch_size).saturating_sub(BATCH_OVERHEAD)) / rec_bytes).max(1);
        let alloc = u64::from(cfg.batch_size).max(BATCH_OVERHEAD + rec_bytes);
        if alloc > cfg.buffer_memory {
            return Err(SimError::invalid(format!(
                "A batch of {alloc} bytes does not fit in buffer.memory={}: raise buffer.memory.",
                cfg.buffer_memory
            )));
        }
        let send_cost = (env.client.producer_send_us_per_record * 1000.0).max(0.0);
        let pace = if p.throughput > 0.0 {
            1e9 / p.throughput
        } else {
            0.0
        };
        let interval = send_cost.max(pace).max(1.0).round() as u64;
        let n = slots.len();
        Ok(Producer {
            client,
            cfg,
            total: p.records,
            value_bytes: p.record_size,
            rec_bytes,
            cap: cap.min(u64::from(u32::MAX)) as u32,
            alloc,
            interval,
            slots,
            conns,
            started: false,
            start: 0,
            next_record: 0,
            next_append: 0,
            blocked_since: None,
            block_episode: 0,
            sticky: 0,
            deques: (0..n).map(|_| VecDeque::new()).collect(),
            batches: Vec::new(),
            buffer_used: 0,
            drain_index: 0,
            wake_at: u64::MAX,
            tick_at: u64::MAX,
            acked: 0,
            errors: 0,
            retries: 0,
            latency_hist: Vec::new(),
            latency_count: 0,
            latency_sum: 0,
            latency_max: 0,
            throttle: WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            perf: PerfState {
                window_start_ms: 0,
                w: PerfWindow {
                    at_ms: 0,
                    records: 0,
                    elapsed_ms: 0,
                    bytes: 0,
                    latency_sum_ms: 0,
                    latency_max_ms: 0,
                },
                windows: Vec::new(),
                bytes_total: 0,
            },
            blocked_total: 0,
            buffer_max: 0,
            requests: 0,
            finish: None,
        })
    }

    fn new_consumer(c: &ConsumerWorkload, slots: Vec<u32>, conns: Vec<Option<u32>>) -> Consumer {
        let n = slots.len();
        let nb = conns.len();
        Consumer {
            cfg: c.config.clone(),
            target: c.records,
            slots,
            positions: vec![0; n],
            conns,
            fetching: vec![false; nb],
            busy_until: 0,
            consumed: 0,
            bytes: 0,
            start: 0,
            started: false,
            throttle: WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            requests: 0,
            wake_at: u64::MAX,
            finish: None,
        }
    }

    fn track_for(&mut self, broker: u32, qt: QuotaType, sid: SensorId, client: u32) -> u32 {
        let key = (broker, qt_slot(qt), sid.0);
        if let Some(t) = self.track_index.get(&key) {
            let t = *t;
            let m = &mut self.tracks[t as usize].members;
            if !m.contains(&client) {
                m.push(client);
            }
            return t;
        }
        let b = &self.brokers[broker as usize];
        let Some(m) = b.manager(qt) else { return 0 };
        let s = m.sensor(sid);
        let window = m.window();
        let t = self.tracks.len() as u32;
        self.tracks.push(SensorTrack {
            broker,
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
            members: vec![client],
        });
        self.track_index.insert(key, t);
        t
    }

    fn sync_sample_key(&mut self, track: u32, key: (u32, u8, u32)) {
        let qt = match key.1 {
            0 => QuotaType::Produce,
            1 => QuotaType::Fetch,
            _ => QuotaType::Request,
        };
        let Some(m) = self.brokers[key.0 as usize].manager(qt) else {
            return;
        };
        let rate = m.sensor(SensorId(key.2)).quota.rate();
        let Some(cur) = rate.samples().get(rate.current_index() as usize) else {
            return;
        };
        let sw = SampleWindow {
            start_ms: cur.start_ms,
            last_event_ms: cur.last_event_ms,
            sum: cur.value,
            events: cur.event_count,
        };
        let t = &mut self.tracks[track as usize];
        match t.samples.last_mut() {
            Some(last) if last.start_ms == sw.start_ms => *last = sw,
            _ => {
                if (t.samples.len() as u32) < SERIES_CAP {
                    t.samples.push(sw)
                }
            }
        }
    }

    fn record_admission(
        &mut self,
        conn: u32,
        slot: usize,
        adm: Option<Admission>,
        applied: bool,
        mute: (f64, f64),
    ) {
        let Some(adm) = adm else { return };
        let Some(track) = self.conns[conn as usize].tracks[slot] else {
            return;
        };
        let client = self.conns[conn as usize].client;
        let at_ms = ms_of(self.now);
        let key = (
            self.conns[conn as usize].broker,
            slot as u8,
            self.sensor_of(conn, slot),
        );
        self.sync_sample_key(track, key);
        let t = &mut self.tracks[track as usize];
        t.rate.push(RatePoint {
            at_ms,
            rate: adm.observed(),
            window_ms: adm.window_ms(),
        });
        if let Admission::Throttled {
            throttle_ms,
            observed,
            bound,
            window_ms,
        } = adm
        {
            if (t.throttles.len() as u32) < SERIES_CAP {
                t.throttles.push(ThrottleEvent {
                    at_ms,
                    client,
                    delay_ms: throttle_ms,
                    observed,
                    bound,
                    window_ms,
                    applied,
                    mute_from_ms: mute.0,
                    mute_to_ms: mute.1,
                });
            }
        }
    }

    fn sensor_of(&self, conn: u32, slot: usize) -> u32 {
        let s = &self.conns[conn as usize].session;
        let id = match slot {
            0 => s.produce,
            1 => s.fetch,
            _ => s.request,
        };
        id.map_or(0, |i| i.0)
    }

    /// Runs until every client finished or the horizon.
    pub(crate) fn run(mut self, scenario: &Scenario) -> Timeline {
        while let Some((at, ev)) = self.q.pop() {
            if at > self.horizon {
                self.now = self.horizon;
                break;
            }
            self.now = at;
            self.events += 1;
            self.dispatch(ev);
            if self.unfinished == 0 {
                break;
            }
        }
        self.finish(scenario)
    }

    fn dispatch(&mut self, ev: Ev) {
        match ev {
            Ev::ClientStart(c) => self.client_start(c),
            Ev::ConnectAttempt(c) => self.connect_attempt(c),
            Ev::ConnReady(c, epoch) => {
                if self.conns[c as usize].epoch == epoch {
                    let conn = &mut self.conns[c as usize];
                    conn.ready = true;
                    conn.connecting = false;
                    let client = conn.client;
                    self.poll_client(client);
                }
            }
            Ev::AppTick(p) => {
                if self.producers[p as usize].tick_at == self.now {
                    self.producers[p as usize].tick_at = u64::MAX;
                    self.producer_poll(p);
                }
            }
            Ev::SenderWake(p) => {
                if self.producers[p as usize].wake_at == self.now {
                    self.producers[p as usize].wake_at = u64::MAX;
                    self.producer_poll(p);
                }
            }
            Ev::BlockTimeout(p, episode) => self.block_timeout(p, episode),
            Ev::ConsumerWake(c) => {
                if self.consumers[c as usize].wake_at == self.now {
                    self.consumers[c as usize].wake_at = u64::MAX;
                    self.consumer_poll(c);
                }
            }
            Ev::RequestArrive(r) => self.request_arrive(r),
            Ev::HandleDone(r) => self.handle_done(r),
            Ev::FetchExpire(r) => self.fetch_expire(r),
            Ev::ResponseSend(r) => self.response_send(r, 0),
            Ev::ResponseArrive(r) => self.response_arrive(r),
            Ev::Unmute(c, epoch) => {
                let conn = &mut self.conns[c as usize];
                if conn.epoch == epoch {
                    conn.busy = false;
                    self.try_start(c);
                }
            }
            Ev::RequestTimeout(r) => {
                let req = &self.reqs[r as usize];
                if !req.done && self.conns[req.conn as usize].epoch == req.epoch {
                    let c = req.conn;
                    self.disconnect(c);
                }
            }
        }
    }

    fn poll_client(&mut self, client: u32) {
        match self.clients[client as usize].role {
            Role::Producer(p) => self.producer_poll(p),
            Role::Consumer(c) => self.consumer_poll(c),
        }
    }

    fn client_start(&mut self, client: u32) {
        let conns = self.clients[client as usize].conns.clone();
        for c in conns {
            self.begin_connect(c, self.now);
        }
        match self.clients[client as usize].role {
            Role::Producer(p) => {
                let pr = &mut self.producers[p as usize];
                pr.started = true;
                pr.start = self.now;
                pr.next_append = self.now;
                pr.perf.window_start_ms = ms_of(self.now);
                if pr.total == 0 {
                    pr.finish = Some(self.now);
                    self.unfinished -= 1;
                    return;
                }
                self.producer_poll(p);
            }
            Role::Consumer(c) => {
                let co = &mut self.consumers[c as usize];
                co.started = true;
                co.start = self.now;
                if co.target == 0 {
                    co.finish = Some(self.now);
                    self.unfinished -= 1;
                }
            }
        }
    }

    fn begin_connect(&mut self, c: u32, at: Nanos) {
        let conn = &mut self.conns[c as usize];
        conn.connecting = true;
        self.q.push(at + self.latency, Ev::ConnectAttempt(c));
    }

    fn connect_attempt(&mut self, c: u32) {
        let (broker, ip, rtts, epoch) = {
            let conn = &self.conns[c as usize];
            (
                conn.broker,
                conn.ip.clone(),
                conn.handshake_rtts,
                conn.epoch,
            )
        };
        let adm = self.brokers[broker as usize].accept_connection(&ip, ms_of(self.now));
        if adm.is_throttled() {
            let delay = adm.throttle_ms().max(0) as u64 * NS_PER_MS;
            let client = self.conns[c as usize].client;
            let from = ms_f(self.now);
            self.clients[client as usize].mutes.push(Span {
                from_ms: from,
                to_ms: ms_f(self.now + delay),
            });
            // The broker closes the refused socket after the throttle; the
            // client sees the close a latency later and backs off.
            self.begin_connect(c, self.now + delay + self.latency + RECONNECT_BACKOFF_NS);
        } else {
            let ready = self.now + self.latency + rtts * 2 * self.latency;
            self.q.push(ready, Ev::ConnReady(c, epoch));
        }
    }

    fn transfer_up(&mut self, c: u32, bytes: u64) -> Nanos {
        let dur = (bytes as f64 * 1e9 / self.bw).round() as u64;
        let conn = &mut self.conns[c as usize];
        let start = conn.up_free.max(self.now);
        conn.up_free = start + dur;
        conn.up_free + self.latency
    }

    fn transfer_down(&mut self, c: u32, bytes: u64) -> (Nanos, Nanos) {
        let dur = (bytes as f64 * 1e9 / self.bw).round() as u64;
        let conn = &mut self.conns[c as usize];
        let start = conn.down_free.max(self.now);
        conn.down_free = start + dur;
        (conn.down_free, conn.down_free + self.latency)
    }

    fn send_request(&mut self, c: u32, bytes: u64, kind: ReqKind, request_timeout_ms: u64) -> u32 {
        let r = self.reqs.len() as u32;
        let epoch = self.conns[c as usize].epoch;
        let acks0 = matches!(kind, ReqKind::Produce { acks0: true, .. });
        self.reqs.push(Req {
            conn: c,
            epoch,
            bytes,
            kind,
            done: false,
            io_us: 0.0,
            net_us: 0.0,
            resp_bytes: 0,
            throttle_ms: 0,
            fetched: Vec::new(),
        });
        let arrive = self.transfer_up(c, bytes);
        self.q.push(arrive, Ev::RequestArrive(r));
        if !acks0 {
            self.conns[c as usize].in_flight.push(r);
            self.q.push(
                self.now + request_timeout_ms * NS_PER_MS,
                Ev::RequestTimeout(r),
            );
        }
        r
    }

    // ---------------------------------------------------------------- broker

    fn request_arrive(&mut self, r: u32) {
        let (c, epoch) = (self.reqs[r as usize].conn, self.reqs[r as usize].epoch);
        if self.conns[c as usize].epoch != epoch {
            return;
        }
        self.conns[c as usize].queue.push_back(r);
        self.try_start(c);
    }

    fn try_start(&mut self, c: u32) {
        let conn = &mut self.conns[c as usize];
        if conn.busy {
            return;
        }
        let Some(r) = conn.queue.pop_front() else {
            return;
        };
        conn.busy = true;
        self.begin(r);
    }

    fn io_thread(&mut self, broker: u32, io_us: f64) -> Nanos {
        let threads = &mut self.io_free[broker as usize];
        let mut best = 0;
        for (i, t) in threads.iter().enumerate() {
            if *t < threads[best] {
                best = i;
            }
        }
        let start = threads[best].max(self.now);
        let done = start + (io_us * 1000.0).round().max(0.0) as u64;
        threads[best] = done;
        done
    }

    fn fetch_available(&self, r: u32) -> (u64, Vec<(u32, u32, u64, u64)>) {
        let req = &self.reqs[r as usize];
        let conn = &self.conns[req.conn as usize];
        let ReqKind::Fetch {
            max_bytes,
            part_max,
            ..
        } = req.kind
        else {
            return (0, Vec::new());
        };
        let Role::Consumer(ci) = self.clients[conn.client as usize].role else {
            return (0, Vec::new());
        };
        let co = &self.consumers[ci as usize];
        let budget = self.brokers[conn.broker as usize].fetch_max_bytes(&conn.session, max_bytes);
        let mut total = 0u64;
        let mut out = Vec::new();
        for (i, slot) in co.slots.iter().enumerate() {
            let part = &self.partitions[*slot as usize];
            if part.leader != conn.broker {
                continue;
            }
            let mut pos = co.positions[i] as usize;
            let (mut pb, mut pr, mut n) = (0u64, 0u64, 0u32);
            while pos < part.log.len() {
                let b = &part.log[pos];
                let first = total == 0 && pb == 0;
                if !first && (pb + b.bytes > u64::from(part_max) || total + pb + b.bytes > budget) {
                    break;
                }
                pb += b.bytes;
                pr += b.records;
                n += 1;
                pos += 1;
            }
            if n > 0 {
                out.push((i as u32, n, pr, pb));
                total += pb;
            }
            if total >= budget {
                break;
            }
        }
        (total, out)
    }

    fn begin(&mut self, r: u32) {
        let c = self.reqs[r as usize].conn;
        let broker = self.conns[c as usize].broker;
        let jitter = self.env.broker.jitter;
        match self.reqs[r as usize].kind {
            ReqKind::Produce { .. } => {
                let bytes = self.reqs[r as usize].bytes;
                let cost = self.env.broker.produce;
                let j = self.rng.jitter(jitter);
                let io = cost.io_time_us(bytes) * j;
                let net = cost.network_time_us(bytes) * j;
                let req = &mut self.reqs[r as usize];
                req.io_us = io;
                req.net_us = net;
                let done = self.io_thread(broker, io);
                self.q.push(done, Ev::HandleDone(r));
            }
            ReqKind::Fetch {
                min_bytes,
                max_wait_ms,
                parked,
                ..
            } => {
                let (total, fetched) = self.fetch_available(r);
                if total < u64::from(min_bytes) && max_wait_ms > 0 && !parked {
                    if let ReqKind::Fetch { parked, .. } = &mut self.reqs[r as usize].kind {
                        *parked = true;
                    }
                    self.parked[broker as usize].push(r);
                    self.q
                        .push(self.now + max_wait_ms * NS_PER_MS, Ev::FetchExpire(r));
                    return;
                }
                let cost = self.env.broker.fetch;
                let j = self.rng.jitter(jitter);
                let io = cost.io_time_us(total) * j;
                let net = cost.network_time_us(total) * j;
                let req = &mut self.reqs[r as usize];
                req.io_us = io;
                req.net_us = net;
                req.fetched = fetched;
                let done = self.io_thread(broker, io);
                self.q.push(done, Ev::HandleDone(r));
            }
        }
    }

    fn fetch_expire(&mut self, r: u32) {
        let broker = self.conns[self.reqs[r as usize].conn as usize].broker;
        let list = &mut self.parked[broker as usize];
        if let Some(i) = list.iter().position(|x| *x == r) {
            list.remove(i);
            self.begin(r);
        }
    }

    fn wake_parked(&mut self, broker: u32) {
        if self.parked[broker as usize].is_empty() {
            return;
        }
        let list = std::mem::take(&mut self.parked[broker as usize]);
        let mut keep = Vec::new();
        for r in list {
            let min = match self.reqs[r as usize].kind {
                ReqKind::Fetch { min_bytes, .. } => u64::from(min_bytes),
                _ => 1,
            };
            if self.fetch_available(r).0 >= min {
                self.begin(r);
            } else {
                keep.push(r);
            }
        }
        self.parked[broker as usize].extend(keep);
    }

    fn handle_done(&mut self, r: u32) {
        let c = self.reqs[r as usize].conn;
        let broker = self.conns[c as usize].broker;
        let at_ms = ms_of(self.now);
        let (decision, bandwidth_slot, returned): (RequestDecision, usize, u64) =
            match &self.reqs[r as usize].kind {
                ReqKind::Produce { batches, acks0 } => {
                    let acks0 = *acks0;
                    let bytes = self.reqs[r as usize].bytes;
                    let io = self.reqs[r as usize].io_us;
                    // Append to the partition logs (for consumers).
                    let Role::Producer(pi) =
                        self.clients[self.conns[c as usize].client as usize].role
                    else {
                        return;
                    };
                    let batch_ids = batches.clone();
                    for b in batch_ids {
                        let pr = &self.producers[pi as usize];
                        let batch = &pr.batches[b as usize];
                        let slot = pr.slots[batch.slot as usize];
                        let rec = u64::from(batch.records);
                        let bytes = BATCH_OVERHEAD + rec * pr.rec_bytes;
                        self.partitions[slot as usize].log.push(LogBatch {
                            bytes,
                            records: rec,
                        });
                    }
                    let d = self.brokers[broker as usize].handle_produce(
                        &self.conns[c as usize].session,
                        at_ms,
                        bytes,
                        acks0,
                        io,
                    );
                    (d, 0, 0)
                }
                ReqKind::Fetch { .. } => {
                    let total: u64 = self.reqs[r as usize].fetched.iter().map(|f| f.3).sum();
                    let io = self.reqs[r as usize].io_us;
                    let fd = self.brokers[broker as usize].handle_fetch(
                        &self.conns[c as usize].session,
                        at_ms,
                        total,
                        io,
                    );
                    if fd.returned_bytes == 0 {
                        self.reqs[r as usize].fetched.clear();
                    }
                    (fd.decision, 1, fd.returned_bytes)
                }
            };
        let is_produce = bandwidth_slot == 0;
        if is_produce {
            self.wake_parked(broker);
        }
        let throttle = decision.throttle_ms;
        let kip219 = self.conns[c as usize].kip219;
        let plan = ResponsePlan::new(at_ms, throttle, kip219);
        let throttle_ns = throttle.max(0) as u64 * NS_PER_MS;
        let mute = (ms_f(self.now), ms_f(self.now + throttle_ns));
        let applied_bw = decision
            .throttled_by
            .is_some_and(|q| q != QuotaType::Request);
        let applied_rq = decision.throttled_by == Some(QuotaType::Request);
        self.record_admission(c, bandwidth_slot, decision.bandwidth, applied_bw, mute);
        self.record_admission(c, 2, decision.request, applied_rq, mute);
        if throttle > 0 {
            let client = self.conns[c as usize].client;
            self.clients[client as usize].mutes.push(Span {
                from_ms: mute.0,
                to_ms: mute.1,
            });
        }
        let n_parts = self.reqs[r as usize].fetched.len() as u64;
        let req = &mut self.reqs[r as usize];
        req.throttle_ms = throttle;
        req.resp_bytes = RESPONSE_BASE + RESPONSE_PER_PARTITION * n_parts.max(1) + returned;
        let acks0 = matches!(req.kind, ReqKind::Produce { acks0: true, .. });
        if acks0 {
            // No response; the channel is still muted for a bandwidth throttle.
            let net = req.net_us;
            self.brokers[broker as usize].record_network_thread_time(
                &self.conns[c as usize].session,
                at_ms,
                net,
            );
            self.sync_request_track(c);
            let epoch = self.conns[c as usize].epoch;
            self.q.push(self.now + throttle_ns, Ev::Unmute(c, epoch));
            return;
        }
        match plan {
            ResponsePlan::Immediate | ResponsePlan::SendThenMute { .. } => {
                self.response_send(r, throttle_ns)
            }
            ResponsePlan::Delay { .. } => self.q.push(self.now + throttle_ns, Ev::ResponseSend(r)),
        }
    }

    fn sync_request_track(&mut self, c: u32) {
        if let Some(track) = self.conns[c as usize].tracks[2] {
            let key = (self.conns[c as usize].broker, 2, self.sensor_of(c, 2));
            self.sync_sample_key(track, key);
        }
    }

    fn response_send(&mut self, r: u32, mute_ns: Nanos) {
        let c = self.reqs[r as usize].conn;
        let broker = self.conns[c as usize].broker;
        let bytes = self.reqs[r as usize].resp_bytes;
        let net = self.reqs[r as usize].net_us;
        let (tx_done, arrive) = self.transfer_down(c, bytes);
        self.brokers[broker as usize].record_network_thread_time(
            &self.conns[c as usize].session,
            ms_of(self.now),
            net,
        );
        self.sync_request_track(c);
        self.q.push(arrive, Ev::ResponseArrive(r));
        let epoch = self.conns[c as usize].epoch;
        let unmute = tx_done.max(self.now + mute_ns);
        self.q.push(unmute, Ev::Unmute(c, epoch));
    }

    // ---------------------------------------------------------------- client side

    fn response_arrive(&mut self, r: u32) {
        let c = self.reqs[r as usize].conn;
        if self.reqs[r as usize].done || self.conns[c as usize].epoch != self.reqs[r as usize].epoch
        {
            return;
        }
        self.reqs[r as usize].done = true;
        let throttle = self.reqs[r as usize].throttle_ms;
        let conn = &mut self.conns[c as usize];
        if let Some(i) = conn.in_flight.iter().position(|x| *x == r) {
            conn.in_flight.remove(i);
        }
        // Kafka: NetworkClient.maybeThrottle (KIP-219 clients only).
        if throttle > 0 && conn.kip219 {
            conn.throttled_until = conn
                .throttled_until
                .max(self.now + throttle as u64 * NS_PER_MS);
        }
        let client = conn.client;
        let broker = conn.broker;
        let at_ms = ms_of(self.now);
        self.clients[client as usize]
            .track_throttles
            .push(ClientThrottle {
                at_ms: ms_f(self.now),
                broker,
                throttle_ms: throttle,
            });
        match self.clients[client as usize].role {
            Role::Producer(p) => {
                self.producers[p as usize]
                    .throttle
                    .record(at_ms, throttle as f64);
                let batches = match &self.reqs[r as usize].kind {
                    ReqKind::Produce { batches, .. } => batches.clone(),
                    _ => Vec::new(),
                };
                for b in batches {
                    self.complete_batch(p, b);
                }
                self.producer_poll(p);
            }
            Role::Consumer(ci) => {
                self.consumers[ci as usize]
                    .throttle
                    .record(at_ms, throttle as f64);
                let fetched = std::mem::take(&mut self.reqs[r as usize].fetched);
                let co = &mut self.consumers[ci as usize];
                co.fetching[broker as usize] = false;
                let mut records = 0;
                for (i, n, rec, bytes) in fetched {
                    co.positions[i as usize] += n;
                    records += rec;
                    co.bytes += bytes;
                }
                let take = records.min(co.target - co.consumed);
                co.consumed += take;
                let cost = (self.env.client.consumer_us_per_record * 1000.0 * take as f64)
                    .round()
                    .max(0.0) as u64;
                co.busy_until = co.busy_until.max(self.now) + cost;
                let done_at = co.busy_until;
                let consumed = co.consumed;
                if take > 0 {
                    self.clients[client as usize].progress.push(ProgressPoint {
                        at_ms: ms_f(done_at),
                        records: consumed,
                    });
                }
                if consumed >= self.consumers[ci as usize].target
                    && self.consumers[ci as usize].finish.is_none()
                {
                    self.consumers[ci as usize].finish = Some(done_at);
                    self.unfinished -= 1;
                    return;
                }
                if done_at > self.now {
                    self.consumer_wake(ci, done_at);
                } else {
                    self.consumer_poll(ci);
                }
            }
        }
    }

    fn disconnect(&mut self, c: u32) {
        let conn = &mut self.conns[c as usize];
        conn.epoch += 1;
        conn.ready = false;
        conn.busy = false;
        conn.queue.clear();
        let failed = std::mem::take(&mut conn.in_flight);
        let client = conn.client;
        let broker = conn.broker;
        for r in failed.iter().rev() {
            self.reqs[*r as usize].done = true;
            match self.clients[client as usize].role {
                Role::Producer(p) => {
                    let batches = match &self.reqs[*r as usize].kind {
                        ReqKind::Produce { batches, .. } => batches.clone(),
                        _ => Vec::new(),
                    };
                    for b in batches.into_iter().rev() {
                        self.retry_or_fail(p, b);
                    }
                }
                Role::Consumer(ci) => self.consumers[ci as usize].fetching[broker as usize] = false,
            }
        }
        self.begin_connect(c, self.now + RECONNECT_BACKOFF_NS);
    }

    // ---------------------------------------------------------------- producer

    fn retry_or_fail(&mut self, p: u32, b: u32) {
        let now = self.now;
        let pr = &mut self.producers[p as usize];
        let batch = &mut pr.batches[b as usize];
        if now.saturating_sub(batch.created) >= pr.cfg.delivery_timeout_ms * NS_PER_MS {
            let n = u64::from(batch.records);
            pr.errors += n;
            self.free_batch(p, b);
            self.check_producer_done(p);
        } else {
            batch.retries += 1;
            pr.retries += u64::from(batch.records);
            let slot = batch.slot as usize;
            pr.deques[slot].push_front(b);
        }
    }

    fn free_batch(&mut self, p: u32, _b: u32) {
        let now = self.now;
        let pr = &mut self.producers[p as usize];
        pr.buffer_used -= pr.alloc;
        let client = pr.client;
        let used = pr.buffer_used;
        self.clients[client as usize].buffer.push(BufferPoint {
            at_ms: ms_f(now),
            used_bytes: used,
        });
        let pr = &mut self.producers[p as usize];
        if let Some(since) = pr.blocked_since.take() {
            pr.blocked_total += now - since;
            pr.next_append = pr.next_append.max(now);
            self.clients[client as usize].blocked.push(Span {
                from_ms: ms_f(since),
                to_ms: ms_f(now),
            });
        }
    }

    fn complete_batch(&mut self, p: u32, b: u32) {
        let now = self.now;
        let now_ms = ms_of(now);
        let pr = &mut self.producers[p as usize];
        let batch = &pr.batches[b as usize];
        let n = batch.records;
        let first = batch.first_append;
        let interval = pr.interval;
        let bytes = u64::from(pr.value_bytes);
        // Per-record latencies (send() to callback, whole ms). Later records
        // were appended later, so the first record has the largest latency.
        let (mut first_lat, mut rest_sum, mut rest_max) = (0u32, 0u64, 0u32);
        for j in 0..n {
            let append_ms = ms_of(first + u64::from(j) * interval);
            let lat = (now_ms - append_ms).max(0) as u32;
            let slot = lat as usize;
            if slot >= pr.latency_hist.len() {
                pr.latency_hist.resize(slot + 1, 0);
            }
            pr.latency_hist[slot] += 1;
            pr.latency_sum += u64::from(lat);
            pr.latency_max = pr.latency_max.max(lat);
            if j == 0 {
                first_lat = lat;
            } else {
                rest_sum += u64::from(lat);
                rest_max = rest_max.max(lat);
            }
        }
        pr.latency_count += u64::from(n);
        if n > 0 {
            // kafka-producer-perf-test.sh Stats.record, per record; all of a
            // batch's callbacks run at the same ms, so only the first can
            // close a reporting window.
            let w = &mut pr.perf.w;
            w.records += 1;
            w.bytes += bytes;
            w.latency_sum_ms += u64::from(first_lat);
            w.latency_max_ms = w.latency_max_ms.max(first_lat);
            if now_ms - pr.perf.window_start_ms >= PERF_REPORT_INTERVAL_MS {
                let mut done = pr.perf.w;
                done.at_ms = now_ms;
                done.elapsed_ms = now_ms - pr.perf.window_start_ms;
                pr.perf.windows.push(done);
                pr.perf.w = PerfWindow {
                    at_ms: 0,
                    records: 0,
                    elapsed_ms: 0,
                    bytes: 0,
                    latency_sum_ms: 0,
                    latency_max_ms: 0,
                };
                pr.perf.window_start_ms = now_ms;
            }
            let w = &mut pr.perf.w;
            w.records += u64::from(n - 1);
            w.bytes += bytes * u64::from(n - 1);
            w.latency_sum_ms += rest_sum;
            w.latency_max_ms = w.latency_max_ms.max(rest_max);
        }
        pr.perf.bytes_total += bytes * u64::from(n);
        pr.acked += u64::from(n);
        let acked = pr.acked;
        let client = pr.client;
        self.clients[client as usize].progress.push(ProgressPoint {
            at_ms: ms_f(now),
            records: acked,
        });
        self.free_batch(p, b);
        self.check_producer_done(p);
    }

    fn check_producer_done(&mut self, p: u32) {
        let pr = &mut self.producers[p as usize];
        if pr.finish.is_none() && pr.acked + pr.errors >= pr.total {
            pr.finish = Some(self.now);
            self.unfinished -= 1;
        }
    }

    fn block_timeout(&mut self, p: u32, episode: u64) {
        let now = self.now;
        let pr = &mut self.producers[p as usize];
        if pr.block_episode != episode || pr.blocked_since.is_none() {
            return;
        }
        // send() gives up after max.block.ms: the record fails (Kafka: BufferPool
        // TimeoutException, counted by record-error-total), the app moves on.
        let since = pr.blocked_since.take().unwrap_or(now);
        pr.blocked_total += now - since;
        pr.errors += 1;
        pr.next_record += 1;
        pr.next_append = now + pr.interval;
        let client = pr.client;
        self.clients[client as usize].blocked.push(Span {
            from_ms: ms_f(since),
            to_ms: ms_f(now),
        });
        self.check_producer_done(p);
        self.producer_poll(p);
    }

    /// Appends every record the application has issued by `now`.
    fn catch_up(&mut self, p: u32) {
        let now = self.now;
        loop {
            let pr = &mut self.producers[p as usize];
            if !pr.started
                || pr.blocked_since.is_some()
                || pr.next_record >= pr.total
                || pr.next_append > now
            {
                return;
            }
            let slot = pr.sticky as usize;
            let open = pr.deques[slot].back().copied().filter(|b| {
                let bt = &pr.batches[*b as usize];
                !bt.closed && bt.records < pr.cap
            });
            let b = match open {
                Some(b) => b,
                None => {
                    if pr.buffer_used + pr.alloc > pr.cfg.buffer_memory {
                        pr.blocked_since = Some(pr.next_append);
                        pr.block_episode += 1;
                        let ep = pr.block_episode;
                        let at = pr.next_append + pr.cfg.max_block_ms * NS_PER_MS;
                        self.q.push(at, Ev::BlockTimeout(p, ep));
                        return;
                    }
                    pr.buffer_used += pr.alloc;
                    pr.buffer_max = pr.buffer_max.max(pr.buffer_used);
                    let id = pr.batches.len() as u32;
                    pr.batches.push(Batch {
                        slot: slot as u32,
                        records: 0,
                        created: pr.next_append,
                        first_append: pr.next_append,
                        closed: false,
                        retries: 0,
                    });
                    pr.deques[slot].push_back(id);
                    let (client, used, at) = (pr.client, pr.buffer_used, pr.next_append);
                    self.clients[client as usize].buffer.push(BufferPoint {
                        at_ms: ms_f(at),
                        used_bytes: used,
                    });
                    id
                }
            };
            let pr = &mut self.producers[p as usize];
            let space = u64::from(pr.cap - pr.batches[b as usize].records);
            let by_time = (now - pr.next_append) / pr.interval + 1;
            let k = space.min(pr.total - pr.next_record).min(by_time);
            pr.batches[b as usize].records += k as u32;
            pr.next_record += k;
            pr.next_append += k * pr.interval;
            if pr.batches[b as usize].records == pr.cap && pr.slots.len() > 1 {
                // Sticky partitioner: a full batch moves the producer on.
                pr.sticky = (pr.sticky + 1) % pr.slots.len() as u32;
            }
        }
    }

    fn batch_ready(pr: &Producer, b: u32, now: Nanos) -> bool {
        let bt = &pr.batches[b as usize];
        bt.closed
            || bt.records >= pr.cap
            || now >= bt.created + pr.cfg.linger_ms * NS_PER_MS
            || pr.blocked_since.is_some()
            || pr.next_record >= pr.total
    }

    fn producer_poll(&mut self, p: u32) {
        self.catch_up(p);
        let now = self.now;
        // Expire batches waiting in the accumulator past delivery.timeout.ms.
        {
            let n = self.producers[p as usize].deques.len();
            for slot in 0..n {
                loop {
                    let pr = &self.producers[p as usize];
                    let Some(&b) = pr.deques[slot].front() else {
                        break;
                    };
                    let bt = &pr.batches[b as usize];
                    if bt.records == 0
                        || now.saturating_sub(bt.created) < pr.cfg.delivery_timeout_ms * NS_PER_MS
                    {
                        break;
                    }
                    let pr = &mut self.producers[p as usize];
                    pr.deques[slot].pop_front();
                    pr.errors += u64::from(pr.batches[b as usize].records);
                    self.free_batch(p, b);
                    self.check_producer_done(p);
                }
            }
        }
        let mut next_wake = u64::MAX;
        let nb = self.producers[p as usize].conns.len();
        for broker in 0..nb {
            let Some(c) = self.producers[p as usize].conns[broker] else {
                continue;
            };
            loop {
                let pr = &self.producers[p as usize];
                // Which partitions of this broker have a batch, and is any ready?
                let mut any = false;
                let mut ready = false;
                let mut earliest = u64::MAX;
                for (slot, dq) in pr.deques.iter().enumerate() {
                    if self.partitions[pr.slots[slot] as usize].leader != broker as u32 {
                        continue;
                    }
                    if let Some(&b) = dq.front() {
                        if pr.batches[b as usize].records == 0 {
                            continue;
                        }
                        any = true;
                        if dq.len() > 1 || Self::batch_ready(pr, b, now) {
                            ready = true;
                        } else {
                            earliest = earliest
                                .min(pr.batches[b as usize].created + pr.cfg.linger_ms * NS_PER_MS);
                        }
                    }
                }
                if !any {
                    break;
                }
                if !ready {
                    next_wake = next_wake.min(earliest);
                    break;
                }
                let conn = &self.conns[c as usize];
                if !conn.ready {
                    if !conn.connecting {
                        self.begin_connect(c, now);
                    }
                    break;
                }
                if now < conn.throttled_until {
                    next_wake = next_wake.min(conn.throttled_until);
                    break;
                }
                if conn.in_flight.len() as u32 >= pr.cfg.max_in_flight {
                    break;
                }
                // Drain: the first batch of every partition led by this broker,
                // up to max.request.size (the first always goes).
                let pr = &mut self.producers[p as usize];
                let n = pr.deques.len() as u32;
                let mut size = PRODUCE_REQUEST_OVERHEAD;
                let mut taken = Vec::new();
                for k in 0..n {
                    let slot = ((pr.drain_index + k) % n) as usize;
                    if self.partitions[pr.slots[slot] as usize].leader != broker as u32 {
                        continue;
                    }
                    let Some(&b) = pr.deques[slot].front() else {
                        continue;
                    };
                    let bt = &pr.batches[b as usize];
                    if bt.records == 0 {
                        continue;
                    }
                    let bytes = BATCH_OVERHEAD + u64::from(bt.records) * pr.rec_bytes;
                    if size + bytes > u64::from(pr.cfg.max_request_size) && !taken.is_empty() {
                        break;
                    }
                    size += bytes;
                    pr.deques[slot].pop_front();
                    pr.batches[b as usize].closed = true;
                    taken.push(b);
                }
                pr.drain_index = (pr.drain_index + 1) % n.max(1);
                if taken.is_empty() {
                    break;
                }
                pr.requests += 1;
                let acks0 = pr.cfg.acks == Acks::None;
                let timeout = pr.cfg.request_timeout_ms;
                let batches = taken.clone();
                self.send_request(c, size, ReqKind::Produce { batches, acks0 }, timeout);
                if acks0 {
                    // acks=0: complete on send (the client expects no response).
                    for b in taken {
                        self.complete_batch(p, b);
                    }
                }
            }
        }
        // Delivery timeouts of waiting batches.
        {
            let pr = &self.producers[p as usize];
            for dq in &pr.deques {
                if let Some(&b) = dq.front() {
                    next_wake = next_wake.min(
                        pr.batches[b as usize].created + pr.cfg.delivery_timeout_ms * NS_PER_MS,
                    );
                }
            }
        }
        if next_wake != u64::MAX && next_wake > now {
            let pr = &mut self.producers[p as usize];
            if next_wake < pr.wake_at {
                pr.wake_at = next_wake;
                self.q.push(next_wake, Ev::SenderWake(p));
            }
        }
        // The application's next batch boundary.
        let pr = &mut self.producers[p as usize];
        if pr.started && pr.blocked_since.is_none() && pr.next_record < pr.total {
            let slot = pr.sticky as usize;
            let in_open = pr.deques[slot]
                .back()
                .map(|b| &pr.batches[*b as usize])
                .filter(|bt| !bt.closed && bt.records < pr.cap)
                .map_or(0, |bt| u64::from(bt.records));
            let space = (u64::from(pr.cap) - in_open).min(pr.total - pr.next_record);
            let at = (pr.next_append + space.saturating_sub(1) * pr.interval).max(now + 1);
            if at != pr.tick_at {
                pr.tick_at = at;
                self.q.push(at, Ev::AppTick(p));
            }
        }
    }

    // ---------------------------------------------------------------- consumer

    fn consumer_wake(&mut self, ci: u32, at: Nanos) {
        let co = &mut self.consumers[ci as usize];
        if at < co.wake_at || co.wake_at <= self.now {
            co.wake_at = at;
            self.q.push(at, Ev::ConsumerWake(ci));
        }
    }

    fn consumer_poll(&mut self, ci: u32) {
        let now = self.now;
        let co = &self.consumers[ci as usize];
        if !co.started || co.finish.is_some() {
            return;
        }
        if now < co.busy_until {
            let at = co.busy_until;
            self.consumer_wake(ci, at);
            return;
        }
        let nb = co.conns.len();
        for broker in 0..nb {
            let co = &self.consumers[ci as usize];
            let Some(c) = co.conns[broker] else { continue };
            if co.fetching[broker] {
                continue;
            }
            let conn = &self.conns[c as usize];
            if !conn.ready {
                if !conn.connecting {
                    self.begin_connect(c, now);
                }
                continue;
            }
            if now < conn.throttled_until {
                let at = conn.throttled_until;
                self.consumer_wake(ci, at);
                continue;
            }
            let parts = co
                .slots
                .iter()
                .filter(|s| self.partitions[**s as usize].leader == broker as u32)
                .count() as u64;
            let cfg = &co.cfg;
            let kind = ReqKind::Fetch {
                max_bytes: cfg.fetch_max_bytes,
                part_max: cfg.max_partition_fetch_bytes,
                min_bytes: cfg.fetch_min_bytes,
                max_wait_ms: cfg.fetch_max_wait_ms,
                parked: false,
            };
            let timeout = cfg.request_timeout_ms + cfg.fetch_max_wait_ms;
            let co = &mut self.consumers[ci as usize];
            co.fetching[broker] = true;
            co.requests += 1;
            self.send_request(
                c,
                FETCH_REQUEST_BASE + FETCH_REQUEST_PER_PARTITION * parts,
                kind,
                timeout,
            );
        }
    }

    // ---------------------------------------------------------------- results

    fn finish(mut self, scenario: &Scenario) -> Timeline {
        let mut end = 0;
        let mut hit_horizon = false;
        for pr in &self.producers {
            match pr.finish {
                Some(f) => end = end.max(f),
                None => hit_horizon = true,
            }
        }
        for co in &self.consumers {
            match co.finish {
                Some(f) => end = end.max(f),
                None => hit_horizon = true,
            }
        }
        if hit_horizon {
            end = end.max(self.now);
        }
        let end_ms = ms_of(end);
        // Final sample state of every sensor.
        let keys: Vec<((u32, u8, u32), u32)> =
            self.track_index.iter().map(|(k, v)| (*k, *v)).collect();
        for (k, t) in keys {
            self.sync_sample_key(t, k);
        }
        let mut clients = Vec::new();
        let infos = std::mem::take(&mut self.clients);
        for info in infos {
            let track = match info.role {
                Role::Producer(p) => {
                    let pr = &mut self.producers[p as usize];
                    let finish_ms = pr.finish.map(ms_f);
                    let lat = if pr.latency_count == 0 {
                        None
                    } else {
                        let pcts = perf_percentiles(&pr.latency_hist, &[0.5, 0.95, 0.99, 0.999]);
                        Some(LatencySummary {
                            avg_ms: pr.latency_sum as f64 / pr.latency_count as f64,
                            max_ms: pr.latency_max,
                            p50_ms: pcts[0],
                            p95_ms: pcts[1],
                            p99_ms: pcts[2],
                            p999_ms: pcts[3],
                        })
                    };
                    let read_at = ms_of(pr.finish.unwrap_or(end));
                    let elapsed_ms = read_at - ms_of(pr.start);
                    let perf = lat.map(|latency| PerfSummary {
                        windows: pr.perf.windows.clone(),
                        records: pr.acked,
                        elapsed_ms: elapsed_ms.max(1),
                        bytes: pr.perf.bytes_total,
                        latency,
                    });
                    let dur = pr.finish.map(|f| ms_f(f - pr.start));
                    ClientTrack {
                        name: info.name,
                        kind: ClientKind::Producer,
                        client_id: info.client_id,
                        principal: info.principal,
                        start_ms: ms_f(pr.start),
                        finish_ms,
                        duration_ms: dur,
                        metrics: ClientMetrics {
                            throttle_time_avg: pr.throttle.avg(read_at),
                            throttle_time_max: pr.throttle.max(read_at),
                            record_retry_total: pr.retries,
                            record_error_total: pr.errors,
                            records_done: pr.acked,
                            bytes_done: pr.acked * u64::from(pr.value_bytes),
                            records_per_s: if elapsed_ms > 0 {
                                pr.acked as f64 * 1000.0 / elapsed_ms as f64
                            } else {
                                0.0
                            },
                            blocked_ms_total: ms_f(pr.blocked_total),
                            buffer_used_max: pr.buffer_max,
                            requests: pr.requests,
                        },
                        latency: lat,
                        perf,
                        throttles: info.track_throttles,
                        mutes: info.mutes,
                        blocked: info.blocked,
                        buffer: info.buffer,
                        progress: info.progress,
                    }
                }
                Role::Consumer(ci) => {
                    let co = &mut self.consumers[ci as usize];
                    let read_at = ms_of(co.finish.unwrap_or(end));
                    let elapsed_ms = read_at - ms_of(co.start);
                    ClientTrack {
                        name: info.name,
                        kind: ClientKind::Consumer,
                        client_id: info.client_id,
                        principal: info.principal,
                        start_ms: ms_f(co.start),
                        finish_ms: co.finish.map(ms_f),
                        duration_ms: co.finish.map(|f| ms_f(f - co.start)),
                        metrics: ClientMetrics {
                            throttle_time_avg: co.throttle.avg(read_at),
                            throttle_time_max: co.throttle.max(read_at),
                            record_retry_total: 0,
                            record_error_total: 0,
                            records_done: co.consumed,
                            bytes_done: co.bytes,
                            records_per_s: if elapsed_ms > 0 {
                                co.consumed as f64 * 1000.0 / elapsed_ms as f64
                            } else {
                                0.0
                            },
                            blocked_ms_total: 0.0,
                            buffer_used_max: 0,
                            requests: co.requests,
                        },
                        latency: None,
                        perf: None,
                        throttles: info.track_throttles,
                        mutes: info.mutes,
                        blocked: info.blocked,
                        buffer: info.buffer,
                        progress: info.progress,
                    }
                }
            };
            clients.push(track);
        }
        let brokers = self
            .brokers
            .iter_mut()
            .map(|b| BrokerTrack {
                id: b.id(),
                mbeans: b
                    .mbeans(end_ms)
                    .into_iter()
                    .map(|m| MBeanValue {
                        mbean: m.mbean,
                        attribute: m.attribute.to_owned(),
                        value: m.value,
                    })
                    .collect(),
            })
            .collect();
        Timeline {
            scenario: scenario.name.clone(),
            seed: scenario.seed,
            end_ms: ms_f(end),
            hit_horizon,
            events: self.events,
            sensors: self.tracks,
            clients,
            brokers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_sizes_follow_the_v2_format() {
        // 1000-byte value, no key: 1007-byte body + 2-byte length varint.
        assert_eq!(record_size_in_batch(1000), 1009);
        assert_eq!(record_size_in_batch(10), 17);
        assert_eq!(varint_len(0), 1);
        assert_eq!(varint_len(127), 1);
        assert_eq!(varint_len(128), 2);
    }
}
