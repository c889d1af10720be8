//! The world: the [`World`] struct that owns clients, links and brokers, the
//! event loop that steps them through one queue, and the dispatch of each
//! event to the part that handles it.
//!
//! Parts: [`producer`] (the Java producer), [`consumer`] (the consumer's fetch
//! loop), [`connection`] (the link and connecting), [`broker`] (request
//! handling on the broker), [`recording`] (what turns a run into a
//! [`Timeline`]). Kafka: `KafkaProducer`, `KafkaConsumer`, `NetworkClient`,
//! `SocketServer`, `KafkaRequestHandlerPool`, `ClientQuotaManager`
//! (clients/src/main/java/org/apache/kafka/clients/..., core/src/main/scala/kafka/...).
//!
//! Coarsening (what Kafka's behaviour allows us to skip): one event per
//! produce request, fetch and response rather than per record; records inside
//! a batch are appended at a fixed `send()` cost and accounted arithmetically;
//! the application's appends are caught up lazily whenever the producer
//! polls, with one tick per batch.

mod broker;
mod cluster;
mod connection;
mod consumer;
mod ids;
mod producer;
mod recording;
mod trace;

use std::collections::BTreeMap;

use super::queue::EventQueue;
use super::rng::SplitMix64;
use crate::scenario::{ListenerKind, Scenario, Workload};
use super::time::{SimSpan, SimTime};
use super::timeline::{EventMarker, SensorTrack, Timeline};
use super::validate;
use crate::broker::Broker;
use crate::resolve::QuotaCallbacks;
use crate::Error;

use broker::{BrokerNode, Log, Partition, Req};
use connection::{Conn, UpPath};
use consumer::Consumer;
use ids::{
    BrokerId, ClientId, ConnectionId, ConsumerId, PartitionId, ProducerId, RequestId, TrackId,
};
use ids::{Live, Table};
use producer::Producer;
use recording::{ClientInfo, QuotaSlot, SensorKey};

/// Record batch header (v2), bytes.
///
/// Kafka: `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`, clients/src/main/java/org/apache/kafka/common/record/DefaultRecordBatch.java.
pub(crate) const BATCH_OVERHEAD: u64 = 61;
/// The longest run simulated, ms (one day): horizons, start and stop times
/// and event times are capped at it (not a Kafka limit: a bound of the
/// simulation).
pub const HORIZON_CAP_MS: u64 = 86_400_000;

/// Responses a Java client receives before its first data request, each
/// a 0 ms sample of its throttle-time sensor: `ApiVersions` on the
/// bootstrap connection, on one more connection and on each broker leading
/// one of its partitions; a producer's sender asks `Metadata` twice (before
/// and for its topic); a consumer asks `Metadata` once and sends one
/// `ListOffsets` per leader (`seekToBeginning`). Producer: `4 + leaders`;
/// consumer: `3 + 2 x leaders`.
///
/// Kafka: `NetworkClient.handleCompletedReceives` records
/// `response.throttleTimeMs()` of every response in the sensor behind
/// `produce-throttle-time-*` / `fetch-throttle-time-*`
/// (clients/src/main/java/org/apache/kafka/clients/NetworkClient.java at
/// 4.3.1). Counted on a real 4.3.1 cluster (`kafka.request.logger` at
/// DEBUG, docs/real-kafka.md): 5 for a producer or a consumer of a topic
/// with one leader (a producer sometimes opens one more connection: 6);
/// several leaders are counted from the client's code, not measured.
/// So an `acks=0` producer, which gets no produce response, reads 0 ms,
/// not NaN, as the real one does.
pub(super) fn startup_responses(leaders: usize, consumer: bool) -> usize {
    if consumer {
        3 + 2 * leaders
    } else {
        4 + leaders
    }
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
pub(crate) fn record_size_in_batch(value_bytes: u32) -> u64 {
    let v = u64::from(value_bytes);
    // attributes + timestampDelta + offsetDelta + key length (-1) + value length + value + header count
    let body = 1 + 1 + 1 + 1 + varint_len(v * 2) + v + 1;
    varint_len(body * 2) + body
}

/// `send()`'s estimate of a record's serialized size, an upper bound: the
/// batch header plus the largest record overhead plus the null key, the
/// value and no headers (bytes).
///
/// Kafka: `KafkaProducer.doSend` → `AbstractRecords.estimateSizeInBytesUpperBound`
/// → `DefaultRecordBatch.estimateBatchSizeUpperBound` (`RECORD_BATCH_OVERHEAD`
/// 61 + `DefaultRecord.recordSizeUpperBound`: `MAX_RECORD_OVERHEAD` 21 +
/// `sizeOf(-1, valueSize, [])`), clients/src/main/java/org/apache/kafka/common/record/.
pub(crate) fn record_size_upper_bound(value_bytes: u32) -> u64 {
    const MAX_RECORD_OVERHEAD: u64 = 21;
    let v = u64::from(value_bytes);
    // null key (varint -1) + value length + value + header count (varint 0)
    BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + 1 + varint_len(v * 2) + v + 1
}

/// Why `send()` refuses every record of `value_bytes` at once, if it does:
/// the setting (`max.request.size` or `buffer.memory`), its value (bytes)
/// and Kafka's `RecordTooLargeException` message.
///
/// Kafka: `KafkaProducer.ensureValidRecordSize`,
/// clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java.
pub(crate) fn record_too_large(
    value_bytes: u32,
    max_request_size: u32,
    buffer_memory: u64,
) -> Option<(&'static str, u64, String)> {
    let size = record_size_upper_bound(value_bytes);
    if size > u64::from(max_request_size) {
        return Some((
            "max.request.size",
            u64::from(max_request_size),
            format!(
                "The message is {size} bytes when serialized which is larger than {max_request_size}, which is the value of the max.request.size configuration."
            ),
        ));
    }
    if size > buffer_memory {
        return Some((
            "buffer.memory",
            buffer_memory,
            format!(
                "The message is {size} bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration."
            ),
        ));
    }
    None
}

/// Records of `rec_bytes` each that fit in a batch of `batch_size` bytes (at
/// least one: Kafka always sends a record larger than `batch.size` alone).
pub(crate) fn records_per_batch(batch_size: u32, rec_bytes: u64) -> u64 {
    (u64::from(batch_size).saturating_sub(BATCH_OVERHEAD) / rec_bytes).max(1)
}

/// The bytes `send()` takes from `buffer.memory` for a new batch.
///
/// Kafka: `RecordAccumulator.append` allocates `max(batch.size, record size)`.
pub(crate) fn batch_allocation(batch_size: u32, rec_bytes: u64) -> u64 {
    u64::from(batch_size).max(BATCH_OVERHEAD + rec_bytes)
}

/// What happens next; each variant names the part that handles it.
#[derive(Debug, Clone, Copy)]
enum Ev {
    ClientStart(ClientId),
    ConnectAttempt(ConnectionId),
    ConnReady(ConnectionId, u32),
    AppTick(ProducerId),
    SenderWake(ProducerId),
    BlockTimeout(ProducerId, u64),
    ConsumerWake(ConsumerId),
    RequestArrive(RequestId),
    HandleDone(RequestId),
    FetchExpire(RequestId),
    ResponseSend(RequestId),
    ResponseArrive(RequestId),
    Unmute(ConnectionId, u32),
    RequestTimeout(RequestId),
    /// `events[i]` of the scenario happens.
    ScenarioEvent(u32),
    /// The client reaches its `stop_ms`.
    ClientStop(ClientId),
}

/// Which kind of client, and its row among the producers or consumers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Producer(ProducerId),
    Consumer(ConsumerId),
}

pub(crate) struct World {
    now: SimTime,
    q: EventQueue<Ev>,
    rng: SplitMix64,
    env: crate::scenario::Environment,
    /// Link bandwidth, bytes/s.
    bw: f64,
    /// One-way link latency.
    latency: SimSpan,
    brokers: Table<BrokerId, BrokerNode>,
    partitions: Table<PartitionId, Partition>,
    conns: Table<ConnectionId, Conn>,
    /// The requests not finished yet (and, in a traced run, the first
    /// `keep_requests` whatever their state: [`World::retire`]).
    reqs: Live<RequestId, Req>,
    /// Requests with an id below this are kept to the end for the
    /// per-request trace (0: none, a plain run).
    keep_requests: u64,
    producers: Table<ProducerId, Producer>,
    consumers: Table<ConsumerId, Consumer>,
    clients: Table<ClientId, ClientInfo>,
    tracks: Table<TrackId, SensorTrack>,
    track_index: BTreeMap<SensorKey, TrackId>,
    horizon: SimTime,
    events: u64,
    unfinished: u32,
    /// The scenario's events, by position.
    scenario_events: Vec<crate::scenario::ScenarioEvent>,
    /// Each topic's partitions, by topic name.
    topic_slots: BTreeMap<String, Vec<PartitionId>>,
    /// Markers for the Timeline, in time order.
    markers: Vec<EventMarker>,
    /// Bytes recorded on each produce or fetch track (for the cluster totals).
    track_bytes: BTreeMap<TrackId, u64>,
    /// Bytes each client moved through each broker (for the cluster totals).
    client_bytes: BTreeMap<(ClientId, BrokerId), u64>,
}

impl World {
    /// The distinct brokers leading `slots` now (at least 1).
    pub(super) fn startup_leaders(&self, slots: &[PartitionId]) -> usize {
        let mut leaders: Vec<BrokerId> = slots.iter().map(|s| self.partitions[*s].leader).collect();
        leaders.sort_unstable();
        leaders.dedup();
        leaders.len().max(1)
    }

    pub(crate) fn new(s: &Scenario, cluster: &crate::cluster::Cluster) -> Result<Self, Error> {
        let managers: &QuotaCallbacks = cluster.managers();
        let ip_quotas = cluster.ip_quotas();
        // The scenario's checks are in `Scenario::validate`, which made the
        // `Valid` that `simulate` takes; what is left here are the lookups
        // the world needs.
        let env = s.environment.clone();
        let mut brokers = Table::new();
        for id in 0..s.brokers.count {
            let core = Broker::new(id, s.brokers.settings.clone(), managers, ip_quotas)?;
            brokers.push(BrokerNode::new(core, s.brokers.settings.num_io_threads));
        }
        let mut partitions = Table::new();
        let mut topic_slots: BTreeMap<&str, Vec<PartitionId>> = BTreeMap::new();
        for t in &s.topics {
            let read = s
                .workloads
                .iter()
                .any(|w| matches!(w, Workload::Consumer(c) if c.topic == t.name));
            let mut slots = Vec::new();
            for p in 0..t.partitions {
                slots.push(partitions.push(Partition {
                    leader: BrokerId(t.leader(p, s.brokers.count)),
                    log: Log::new(read),
                }));
            }
            if let Some(pre) = &t.preload {
                let rec = record_size_in_batch(pre.record_size);
                let cap = records_per_batch(pre.batch_size, rec);
                let n = u64::from(t.partitions);
                for (i, slot) in (0u64..).zip(slots.iter()) {
                    let left = pre.records / n + u64::from(i < pre.records % n);
                    let log = &mut partitions[*slot].log;
                    log.append(BATCH_OVERHEAD + cap * rec, cap, left / cap);
                    log.append(BATCH_OVERHEAD + (left % cap) * rec, left % cap, u64::from(left % cap > 0));
                }
            }
            topic_slots.entry(t.name.as_str()).or_insert(slots);
        }
        let mut w = World {
            now: SimTime::ZERO,
            q: EventQueue::new(),
            rng: SplitMix64::new(s.seed),
            bw: env.link.bandwidth_bytes_per_s,
            latency: SimSpan::from_us(env.link.latency_us),
            env,
            brokers,
            partitions,
            conns: Table::new(),
            reqs: Live::new(),
            keep_requests: 0,
            producers: Table::new(),
            consumers: Table::new(),
            clients: Table::new(),
            tracks: Table::new(),
            track_index: BTreeMap::new(),
            horizon: SimTime::from_ms(s.horizon_ms.min(HORIZON_CAP_MS)),
            events: 0,
            unfinished: 0,
            scenario_events: s.events.clone(),
            topic_slots: topic_slots
                .iter()
                .map(|(name, slots)| ((*name).to_owned(), slots.clone()))
                .collect(),
            markers: Vec::new(),
            track_bytes: BTreeMap::new(),
            client_bytes: BTreeMap::new(),
        };
        // Scenario events first: at equal times they come before the clients' own.
        for i in validate::event_order(&s.events) {
            let at = SimTime::from_ms(s.events[i].at_ms().min(HORIZON_CAP_MS));
            w.schedule(at, Ev::ScenarioEvent(ids::len_u32(i)));
        }
        for wl in &s.workloads {
            let (conn_name, topic) = match wl {
                Workload::Producer(p) => (p.connection.as_str(), p.topic.as_str()),
                Workload::Consumer(c) => (c.connection.as_str(), c.topic.as_str()),
                // Admin clients talk to the controller alone: crate::sim::admin.
                Workload::Admin(_) | Workload::Connects(_) => continue,
            };
            let Some((spec_index, spec)) = s.connections.iter().enumerate().find(|(_, c)| c.name == conn_name) else {
                return Err(Error::invalid_scenario(validate::unknown_connection(conn_name)));
            };
            let Some(slots) = topic_slots.get(topic) else {
                return Err(Error::invalid_scenario(validate::unknown_topic(topic)));
            };
            let principal = cluster.principal(spec_index, &spec.name)?;
            let client = w.clients.next_id();
            let handshake_rtts = match spec.listener {
                ListenerKind::Plaintext | ListenerKind::Ssl => 1,
                ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => 3,
            };
            // Socket buffers (validated at least 1 byte).
            let send_buffer = match wl {
                Workload::Producer(p) => p.config.send_buffer_bytes,
                Workload::Consumer(c) => c.config.send_buffer_bytes,
                Workload::Admin(_) | Workload::Connects(_) => continue,
            };
            let send_buffer = u64::try_from(send_buffer).unwrap_or(1);
            let receive_buffer =
                u64::try_from(s.brokers.settings.socket_receive_buffer_bytes).unwrap_or(1);
            // One connection per broker that leads one of the topic's
            // partitions, at the start or after a move_leader event (opened
            // when first needed).
            let mut links = Vec::new();
            let leaders_later = cluster::later_leaders(&s.events, topic);
            for b in (0..s.brokers.count).map(BrokerId) {
                let leads_now = slots.iter().any(|sl| w.partitions[*sl].leader == b);
                if !leads_now && !leaders_later.contains(&b) {
                    continue;
                }
                let session = w.brokers[b].core.session(&principal.name, &spec.client_id);
                let mut tracks = [None; 3];
                // A broker that leads later gets its tracks when it does.
                for slot in QuotaSlot::ALL.into_iter().filter(|_| leads_now) {
                    let relevant = !matches!(
                        (slot, wl),
                        (QuotaSlot::Produce, Workload::Consumer(_))
                            | (QuotaSlot::Fetch, Workload::Producer(_))
                    );
                    if let (Some(sid), true) = (slot.sensor(&session), relevant) {
                        tracks[slot.index()] = Some(w.track_for(b, slot, sid, client));
                    }
                }
                let id = w.conns.push(Conn::new(
                    client,
                    b,
                    session,
                    spec,
                    handshake_rtts,
                    tracks,
                    UpPath::new(send_buffer, receive_buffer),
                ));
                links.push((b, id));
            }
            let conn_ids: Vec<ConnectionId> = links.iter().map(|(_, c)| *c).collect();
            let (role, start_ms, stop_ms) = match wl {
                Workload::Producer(p) => {
                    let pr = Producer::new(client, p, slots.clone(), links, &w.env);
                    (Role::Producer(w.producers.push(pr)), p.start_ms, p.stop_ms)
                }
                Workload::Consumer(c) => {
                    let co = Consumer::new(c, slots.clone(), links);
                    (Role::Consumer(w.consumers.push(co)), c.start_ms, c.stop_ms)
                }
                Workload::Admin(_) | Workload::Connects(_) => continue,
            };
            w.clients.push(ClientInfo::new(spec, principal.display, role, conn_ids));
            w.schedule(SimTime::from_ms(start_ms.min(HORIZON_CAP_MS)), Ev::ClientStart(client));
            if let Some(stop) = stop_ms {
                w.schedule(SimTime::from_ms(stop.min(HORIZON_CAP_MS)), Ev::ClientStop(client));
            }
            w.unfinished += 1;
        }
        Ok(w)
    }

    /// Forgets request `r`: nothing more happens to it (its response was
    /// taken, it was dropped, or an `acks=0` request was handled). Kept in
    /// a traced run when it is among the first rows of the trace.
    fn retire(&mut self, r: RequestId) {
        if r.0 >= self.keep_requests {
            self.reqs.remove(r);
        }
    }

    /// Schedules `ev` at `at`.
    fn schedule(&mut self, at: SimTime, ev: Ev) {
        self.q.push(at.as_ns(), ev);
    }

    /// Runs until every client finished or the horizon.
    pub(crate) fn run(mut self, scenario: &Scenario) -> Timeline {
        self.step();
        self.finish(scenario)
    }

    /// Runs like [`World::run`], calling `on_progress` every
    /// [`super::PROGRESS_EVERY_EVENTS`] events; when it returns false the
    /// run stops there and the Timeline so far is marked `cut_short`.
    pub(crate) fn run_with_progress(
        mut self,
        scenario: &Scenario,
        on_progress: &mut dyn FnMut(&super::Progress) -> bool,
    ) -> Timeline {
        let cut = self.step_with(on_progress);
        let mut t = self.finish(scenario);
        if cut {
            t.cut_short = true;
            t.hit_horizon = false;
        }
        t
    }

    /// Steps through the events until every client finished or the horizon.
    fn step(&mut self) {
        self.step_with(&mut |_| true);
    }

    /// [`World::step`] with progress reports; returns whether `on_progress`
    /// stopped the run.
    pub(super) fn step_with(&mut self, on_progress: &mut dyn FnMut(&super::Progress) -> bool) -> bool {
        if self.unfinished == 0 {
            // No clients: nothing runs, the scenario's events included.
            return false;
        }
        while let Some((at, ev)) = self.q.pop() {
            let at = SimTime::from_ns(at);
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
            if self.events.is_multiple_of(super::PROGRESS_EVERY_EVENTS) {
                let p = super::Progress {
                    events: self.events,
                    now_ms: self.now.as_ms_f64(),
                    horizon_ms: self.horizon.as_ms(),
                };
                if !on_progress(&p) {
                    return true;
                }
            }
        }
        false
    }

    fn dispatch(&mut self, ev: Ev) {
        match ev {
            Ev::ClientStart(c) => self.client_start(c),
            Ev::ConnectAttempt(c) => self.connect_attempt(c),
            Ev::ConnReady(c, epoch) => self.conn_ready(c, epoch),
            Ev::AppTick(p) => {
                if self.producers[p].tick_at == self.now {
                    self.producers[p].tick_at = SimTime::NEVER;
                    self.producer_poll(p);
                }
            }
            Ev::SenderWake(p) => {
                if self.producers[p].wake_at == self.now {
                    self.producers[p].wake_at = SimTime::NEVER;
                    self.producer_poll(p);
                }
            }
            Ev::BlockTimeout(p, episode) => self.block_timeout(p, episode),
            Ev::ConsumerWake(c) => {
                if self.consumers[c].wake_at == self.now {
                    self.consumers[c].wake_at = SimTime::NEVER;
                    self.consumer_poll(c);
                }
            }
            Ev::RequestArrive(r) => self.request_arrive(r),
            Ev::HandleDone(r) => self.handle_done(r),
            Ev::FetchExpire(r) => self.fetch_expire(r),
            Ev::ResponseSend(r) => self.response_send(r, SimSpan::ZERO),
            Ev::ResponseArrive(r) => self.response_arrive(r),
            Ev::Unmute(c, epoch) => self.unmute(c, epoch),
            Ev::RequestTimeout(r) => {
                // A request answered in time is forgotten by now.
                let Some(req) = self.reqs.get(r) else { return };
                if !req.done && self.conns[req.conn].epoch == req.epoch {
                    let c = req.conn;
                    self.disconnect(c);
                }
            }
            Ev::ScenarioEvent(i) => self.scenario_event(i),
            Ev::ClientStop(c) => self.client_stop(c),
        }
    }

    fn poll_client(&mut self, client: ClientId) {
        match self.clients[client].role {
            Role::Producer(p) => self.producer_poll(p),
            Role::Consumer(c) => self.consumer_poll(c),
        }
    }

    fn client_start(&mut self, client: ClientId) {
        let conns = self.clients[client].conns.clone();
        for c in conns {
            // Brokers that lead none of the client's partitions yet are
            // connected to when a partition moves there.
            if self.leads_for_client(client, self.conns[c].broker) {
                self.begin_connect(c, self.now);
            }
        }
        match self.clients[client].role {
            Role::Producer(p) => self.producer_start(p),
            Role::Consumer(c) => self.consumer_start(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(json: &str) -> (World, Scenario) {
        let s: Scenario = serde_json::from_str(json).expect("test scenario parses");
        let cluster = crate::cluster::Cluster::new(&s);
        (World::new(&s, &cluster).expect("the world builds"), s)
    }

    /// Issue 30: what the world keeps does not grow with the work
    /// simulated. An unthrottled producer whose `send()` blocks after every
    /// batch (the lab's, with no end of records) for 30 simulated seconds:
    /// about 40,000 requests, of which a handful are alive at the end;
    /// batches likewise; no log kept (nothing reads the topic); the blocked
    /// spans capped.
    #[test]
    fn a_long_producer_keeps_only_what_is_alive() {
        let (mut w, _) = world(
            r#"{"horizon_ms": 30000, "topics": [{"name": "t"}],
                "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"}],
                "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1000000000000,
                  "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}}]}"#,
        );
        w.step();
        assert!(w.reqs.issued() > 30_000, "{} requests", w.reqs.issued());
        assert!(w.reqs.len() <= 10, "{} requests kept", w.reqs.len());
        let pr = &w.producers[ProducerId(0)];
        assert!(pr.batches.issued() > 30_000);
        assert!(pr.batches.len() <= 600, "{} batches kept (32 MiB / 64 KiB = 512 buffered)", pr.batches.len());
        assert!(w.partitions[PartitionId(0)].log.len() > 30_000);
        assert_eq!(w.partitions[PartitionId(0)].log.runs(), 0, "no consumer: no log kept");
        let c = &w.clients[ClientId(0)];
        assert_eq!(c.blocked.len(), crate::sim::SERIES_CAP as usize, "blocked after each batch: capped");
    }

    /// A consumer's log is runs of equal batches: a preload of 10^9
    /// records is two runs, and a steady producer adds a few.
    #[test]
    fn the_log_is_kept_as_runs_of_equal_batches() {
        let (mut w, _) = world(
            r#"{"horizon_ms": 20000, "topics": [{"name": "t", "preload": {"records": 1000000001, "record.size": 1000}}],
                "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"},
                                {"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
                "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1000000000,
                  "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}},
                  {"consumer": {"connection": "c", "topic": "t", "records": 2000000000}}]}"#,
        );
        let log = &w.partitions[PartitionId(0)].log;
        assert_eq!(log.runs(), 2, "full batches, then the one remainder batch");
        let before = log.len();
        w.step();
        let log = &w.partitions[PartitionId(0)].log;
        assert!(log.len() > before + 10_000, "{} batches appended", log.len() - before);
        assert!(log.runs() < 100, "{} runs", log.runs());
        assert!(w.reqs.len() <= 20, "{} requests kept", w.reqs.len());
    }

    #[test]
    fn record_sizes_follow_the_v2_format() {
        // 1000-byte value, no key: 1007-byte body + 2-byte length varint.
        assert_eq!(record_size_in_batch(1000), 1009);
        assert_eq!(record_size_in_batch(10), 17);
        // 61 + 21 + 1 + 4 (varint of 2 x 2097152) + 2097152 + 1.
        assert_eq!(record_size_upper_bound(2_097_152), 2_097_240);
        assert_eq!(record_size_upper_bound(1000), 1086);
        assert_eq!(varint_len(0), 1);
        assert_eq!(varint_len(127), 1);
        assert_eq!(varint_len(128), 2);
    }
}
