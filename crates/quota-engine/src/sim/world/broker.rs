//! The broker side: a request's arrival on its channel, one request per
//! connection at a time (the channel is muted while one is in progress, and
//! a muted channel is not read, so the socket buffers fill behind it),
//! `num.io.threads` handler threads, fetch long polls (`fetch.min.bytes`,
//! `fetch.max.wait.ms`), the quota managers' decision, and the response
//! (sent at once and muted per KIP-219, or delayed for older clients).
//!
//! Kafka: `SocketServer` / `Processor` (mute, unmute),
//! core/src/main/scala/kafka/network/SocketServer.scala; `KafkaRequestHandlerPool`,
//! core/src/main/scala/kafka/server/KafkaRequestHandler.scala; `KafkaApis.handleProduceRequest`,
//! `handleFetchRequest`, `DelayedFetch`; `ClientQuotaManager`, `ClientRequestQuotaManager`
//! (core/src/main/scala/kafka/server/...).

use super::ids::{ix, len_u32, BatchId, BrokerId, ConnectionId, PartitionId, RequestId};
use super::recording::QuotaSlot;
use super::{Ev, Role, World, BATCH_OVERHEAD};
use crate::broker::{Broker, RequestDecision, ResponsePlan};
use crate::entity::QuotaType;
use crate::sim::time::{SimSpan, SimTime};
use crate::sim::timeline::Span;

/// Response header, bytes.
const RESPONSE_BASE: u64 = 50;
/// Response framing per partition, bytes.
const RESPONSE_PER_PARTITION: u64 = 40;

/// A broker: Kafka's quota logic ([`Broker`]) plus what the simulator adds,
/// its handler threads and its parked fetches.
pub(super) struct BrokerNode {
    pub(super) core: Broker,
    /// When each of the `num.io.threads` handler threads is free again.
    io_free: Vec<SimTime>,
    /// Fetches waiting for `fetch.min.bytes` (Kafka: `DelayedFetch` in the purgatory).
    parked: Vec<RequestId>,
}

impl BrokerNode {
    pub(super) fn new(core: Broker, io_threads: u32) -> Self {
        BrokerNode {
            core,
            io_free: vec![SimTime::ZERO; ix(io_threads)],
            parked: Vec::new(),
        }
    }

    /// Runs `io` on the first thread to be free (the lowest-numbered on a
    /// tie) from `now`; returns when it is done.
    fn io_thread(&mut self, now: SimTime, io: SimSpan) -> SimTime {
        let threads = &mut self.io_free;
        let mut best = 0;
        for (i, t) in threads.iter().enumerate() {
            if *t < threads[best] {
                best = i;
            }
        }
        let start = threads[best].max(now);
        let done = start + io;
        threads[best] = done;
        done
    }
}

/// Record batches of one size in a row in a partition's log: `count`
/// batches of `records` records and `bytes` bytes each, the first at
/// batch position `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogRun {
    start: u64,
    bytes: u64,
    records: u64,
    count: u64,
}

/// A partition's log as the consumers read it: batch positions from 0,
/// kept as runs of equal batches (a steady producer or a preload is a
/// handful of runs however long it runs), and kept at all only when a
/// consumer of the scenario reads the topic (issue 30: memory follows what
/// is kept, not what is simulated).
pub(super) struct Log {
    runs: Vec<LogRun>,
    /// Batches appended.
    len: u64,
    /// Whether any consumer reads this partition (else appends are counted only).
    read: bool,
}

impl Log {
    /// An empty log; `read`: whether a consumer will read it.
    pub(super) fn new(read: bool) -> Self {
        Log {
            runs: Vec::new(),
            len: 0,
            read,
        }
    }

    /// Appends `count` batches of `records` records and `bytes` bytes each.
    pub(super) fn append(&mut self, bytes: u64, records: u64, count: u64) {
        if count == 0 {
            return;
        }
        let start = self.len;
        self.len += count;
        if !self.read {
            return;
        }
        match self.runs.last_mut() {
            Some(r) if r.bytes == bytes && r.records == records => r.count += count,
            _ => self.runs.push(LogRun {
                start,
                bytes,
                records,
                count,
            }),
        }
    }

    /// Batches appended so far (the log end, as a batch position).
    #[cfg(test)]
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Runs kept (for the memory tests).
    #[cfg(test)]
    pub(super) fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The run holding batch position `pos`, and how far into it.
    fn run_at(&self, pos: u64) -> Option<(&LogRun, u64)> {
        let i = self.runs.partition_point(|r| r.start + r.count <= pos);
        self.runs.get(i).map(|r| (r, pos.saturating_sub(r.start)))
    }
}

/// A partition: its leader and its log.
pub(super) struct Partition {
    pub(super) leader: BrokerId,
    pub(super) log: Log,
}

/// A batch as a produce request carries it: which batch, its partition's
/// position among the producer's partitions, and its records (the broker
/// appends these; the producer may have forgotten the batch by then, as
/// an `acks=0` producer does once the request is written).
#[derive(Debug, Clone, Copy)]
pub(super) struct SentBatch {
    pub(super) id: BatchId,
    pub(super) slot: u32,
    pub(super) records: u32,
}

/// What a request asks for.
pub(super) enum ReqKind {
    Produce {
        batches: Vec<SentBatch>,
        acks0: bool,
    },
    Fetch {
        max_bytes: u32,
        part_max: u32,
        min_bytes: u32,
        max_wait_ms: u64,
        /// Already waited once in the purgatory.
        parked: bool,
    },
}

/// What a fetch returns from one partition.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fetched {
    /// The partition's position among the consumer's partitions.
    pub(super) slot: u32,
    /// Complete batches (the consumer's position moves past them).
    pub(super) batches: u64,
    /// Records in the complete batches.
    pub(super) records: u64,
    /// Bytes of the complete batches.
    pub(super) bytes: u64,
    /// Bytes of a batch cut off at the end of the slice (`LogSegment.read`
    /// returns a byte slice, not whole batches): sent and recorded on the
    /// fetch quota, dropped by the consumer and fetched again whole.
    pub(super) partial_bytes: u64,
}

/// A request in flight, from send to response.
pub(super) struct Req {
    pub(super) conn: ConnectionId,
    /// The connection's epoch when sent; a disconnect makes it stale.
    pub(super) epoch: u32,
    bytes: u64,
    kind: ReqKind,
    pub(super) done: bool,
    /// Handler-thread time, µs.
    io_us: f64,
    /// Network-thread time, µs.
    net_us: f64,
    resp_bytes: u64,
    pub(super) throttle_ms: i64,
    pub(super) fetched: Vec<Fetched>,
    /// When the client handed it to the network client.
    pub(super) sent_at: SimTime,
    /// When its send completed (its last byte was in the send buffer).
    pub(super) written_at: Option<SimTime>,
    /// When its last byte reached the broker (none before it did).
    pub(super) arrived_at: Option<SimTime>,
    /// When the broker read it off the channel (none before it did).
    pub(super) read_at: Option<SimTime>,
    /// When the handler completed it and recorded it on the quotas.
    pub(super) recorded_at: Option<SimTime>,
    /// Bytes recorded on the produce or fetch quota sensor (a throttled
    /// fetch's bytes are un-recorded again: 0).
    pub(super) bytes_recorded: u64,
    /// When its response reached the client (none for `acks=0`, a stale
    /// epoch or one still on its way).
    pub(super) response_at: Option<SimTime>,
    /// Where it waited before the broker read it (set when read or dropped
    /// unread), for the per-request trace.
    pub(super) waits: Option<crate::sim::timeline::RequestWait>,
}

impl Req {
    pub(super) fn new(conn: ConnectionId, epoch: u32, bytes: u64, kind: ReqKind) -> Self {
        Req {
            conn,
            epoch,
            bytes,
            kind,
            done: false,
            io_us: 0.0,
            net_us: 0.0,
            resp_bytes: 0,
            throttle_ms: 0,
            fetched: Vec::new(),
            sent_at: SimTime::ZERO,
            written_at: None,
            arrived_at: None,
            read_at: None,
            recorded_at: None,
            bytes_recorded: 0,
            response_at: None,
            waits: None,
        }
    }

    /// The request's size on the wire, bytes.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// An `acks=0` produce: no response is expected.
    pub(super) fn is_acks0(&self) -> bool {
        matches!(self.kind, ReqKind::Produce { acks0: true, .. })
    }

    /// A fetch request (else a produce).
    pub(super) fn is_fetch(&self) -> bool {
        matches!(self.kind, ReqKind::Fetch { .. })
    }

    /// The response's size on the wire once decided, bytes (0 for `acks=0`
    /// and before the handler completed it).
    pub(super) fn response_bytes(&self) -> u64 {
        if self.is_acks0() {
            0
        } else {
            self.resp_bytes
        }
    }

    /// The batches of a produce request (none for a fetch).
    pub(super) fn produce_batches(&self) -> Vec<BatchId> {
        match &self.kind {
            ReqKind::Produce { batches, .. } => batches.iter().map(|b| b.id).collect(),
            ReqKind::Fetch { .. } => Vec::new(),
        }
    }
}

/// Handler-thread time from µs (`f64`, jittered) to a span, rounded to the ns.
fn io_span(io_us: f64) -> SimSpan {
    SimSpan::from_ns_f64_rounded((io_us * 1000.0).round().max(0.0))
}

impl World {
    pub(super) fn request_arrive(&mut self, r: RequestId) {
        let (c, epoch) = (self.reqs[r].conn, self.reqs[r].epoch);
        if self.conns[c].epoch != epoch {
            // Sent on a connection closed since: dropped on arrival.
            self.retire(r);
            return;
        }
        self.reqs[r].arrived_at = Some(self.now);
        self.conns[c].queue.push_back(r);
        self.try_start(c);
    }

    /// Reads and starts the next arrived request unless one is in progress
    /// or the channel is muted (until the response is sent and any throttle
    /// has passed); reading frees the receive window.
    fn try_start(&mut self, c: ConnectionId) {
        let conn = &mut self.conns[c];
        if conn.busy {
            return;
        }
        let Some(r) = conn.queue.pop_front() else {
            return;
        };
        conn.busy = true;
        self.reqs[r].read_at = Some(self.now);
        self.begin(r);
        self.read_request(c, r);
    }

    pub(super) fn unmute(&mut self, c: ConnectionId, epoch: u32) {
        let conn = &mut self.conns[c];
        if conn.epoch == epoch {
            conn.busy = false;
            self.try_start(c);
        }
    }

    /// What a fetch would return now: total bytes and per partition.
    ///
    /// Kafka: `ReplicaManager.readFromLog` with `fetch.max.bytes` (capped by
    /// the fetch quota) and `max.partition.fetch.bytes`; the first batch is
    /// always returned whole (`minOneMessage`). Each partition's read is a
    /// byte slice of `min(max.partition.fetch.bytes, bytes left of the
    /// limit)` (`LogSegment.read`: `log.slice(startPosition, fetchSize)`,
    /// storage/src/main/java/org/apache/kafka/storage/internals/log/LogSegment.java
    /// at 4.3.1), so it can end inside a batch: those bytes are part of the
    /// response and of what the fetch quota records, and the consumer drops
    /// them. A real 4.3.1 broker confirms it (`lab/runs.json`,
    /// consumer-fetch-capped: every full fetch recorded 5,000,000 bytes).
    fn fetch_available(&self, r: RequestId) -> (u64, Vec<Fetched>) {
        let req = &self.reqs[r];
        let conn = &self.conns[req.conn];
        let ReqKind::Fetch {
            max_bytes,
            part_max,
            ..
        } = req.kind
        else {
            return (0, Vec::new());
        };
        let Role::Consumer(ci) = self.clients[conn.client].role else {
            return (0, Vec::new());
        };
        let co = &self.consumers[ci];
        let budget = self.brokers[conn.broker]
            .core
            .fetch_max_bytes(&conn.session, max_bytes);
        let mut total = 0u64;
        let mut out = Vec::new();
        for (i, slot) in (0u32..).zip(co.slots.iter()) {
            let part = &self.partitions[*slot];
            if part.leader != conn.broker {
                continue;
            }
            let mut pos = co.positions[ix(i)];
            let limit = u64::from(part_max).min(budget.saturating_sub(total));
            let (mut pb, mut pr, mut n, mut partial) = (0u64, 0u64, 0u64, 0u64);
            while let Some((run, into)) = part.log.run_at(pos) {
                // Batches of this run that go whole: the first of the
                // response always does, then those within the limit.
                let left = run.count - into;
                let mut take = 0;
                if total == 0 && pb == 0 {
                    take = 1;
                }
                let room = limit.saturating_sub(pb + take * run.bytes);
                take = (take + room / run.bytes.max(1)).min(left);
                pb += take * run.bytes;
                pr += take * run.records;
                n += take;
                pos += take;
                if take < left {
                    // The slice ends inside the next batch.
                    partial = limit.saturating_sub(pb);
                    break;
                }
            }
            if n > 0 || partial > 0 {
                out.push(Fetched {
                    slot: i,
                    batches: n,
                    records: pr,
                    bytes: pb,
                    partial_bytes: partial,
                });
                total += pb + partial;
            }
            if total >= budget {
                break;
            }
        }
        (total, out)
    }

    fn begin(&mut self, r: RequestId) {
        let c = self.reqs[r].conn;
        let broker = self.conns[c].broker;
        let jitter = self.env.broker.jitter;
        match self.reqs[r].kind {
            ReqKind::Produce { .. } => {
                let bytes = self.reqs[r].bytes;
                let cost = self.env.broker.produce;
                let j = self.rng.jitter(jitter);
                let io = cost.io_time_us(bytes) * j;
                let net = cost.network_time_us(bytes) * j;
                let req = &mut self.reqs[r];
                req.io_us = io;
                req.net_us = net;
                let done = self.brokers[broker].io_thread(self.now, io_span(io));
                self.schedule(done, Ev::HandleDone(r));
            }
            ReqKind::Fetch {
                min_bytes,
                max_wait_ms,
                parked,
                ..
            } => {
                let (total, fetched) = self.fetch_available(r);
                if total < u64::from(min_bytes) && max_wait_ms > 0 && !parked {
                    if let ReqKind::Fetch { parked, .. } = &mut self.reqs[r].kind {
                        *parked = true;
                    }
                    self.brokers[broker].parked.push(r);
                    self.schedule(self.now + SimSpan::from_ms(max_wait_ms), Ev::FetchExpire(r));
                    return;
                }
                let cost = self.env.broker.fetch;
                let j = self.rng.jitter(jitter);
                let io = cost.io_time_us(total) * j;
                let net = cost.network_time_us(total) * j;
                let req = &mut self.reqs[r];
                req.io_us = io;
                req.net_us = net;
                req.fetched = fetched;
                let done = self.brokers[broker].io_thread(self.now, io_span(io));
                self.schedule(done, Ev::HandleDone(r));
            }
        }
    }

    pub(super) fn fetch_expire(&mut self, r: RequestId) {
        // A fetch woken before its fetch.max.wait.ms may be answered and forgotten.
        let Some(req) = self.reqs.get(r) else { return };
        let broker = self.conns[req.conn].broker;
        let list = &mut self.brokers[broker].parked;
        if let Some(i) = list.iter().position(|x| *x == r) {
            list.remove(i);
            self.begin(r);
        }
    }

    /// A produce appended data: parked fetches with enough bytes now start.
    fn wake_parked(&mut self, broker: BrokerId) {
        if self.brokers[broker].parked.is_empty() {
            return;
        }
        let list = std::mem::take(&mut self.brokers[broker].parked);
        let mut keep = Vec::new();
        for r in list {
            let min = match self.reqs[r].kind {
                ReqKind::Fetch { min_bytes, .. } => u64::from(min_bytes),
                ReqKind::Produce { .. } => 1,
            };
            if self.fetch_available(r).0 >= min {
                self.begin(r);
            } else {
                keep.push(r);
            }
        }
        self.brokers[broker].parked.extend(keep);
    }

    pub(super) fn handle_done(&mut self, r: RequestId) {
        let c = self.reqs[r].conn;
        let broker = self.conns[c].broker;
        let at_ms = self.now.as_ms();
        let (decision, bandwidth_slot, returned): (RequestDecision, QuotaSlot, u64) =
            match &self.reqs[r].kind {
                ReqKind::Produce { batches, acks0 } => {
                    let acks0 = *acks0;
                    let bytes = self.reqs[r].bytes;
                    let io = self.reqs[r].io_us;
                    // Append to the partition logs (for consumers).
                    let Role::Producer(pi) = self.clients[self.conns[c].client].role else {
                        return;
                    };
                    for b in batches {
                        let pr = &self.producers[pi];
                        let slot: PartitionId = pr.slots[ix(b.slot)];
                        let rec = u64::from(b.records);
                        let bytes = BATCH_OVERHEAD + rec * pr.rec_bytes;
                        self.partitions[slot].log.append(bytes, rec, 1);
                    }
                    let d = self.brokers[broker].core.handle_produce(
                        &self.conns[c].session,
                        at_ms,
                        bytes,
                        acks0,
                        io,
                    );
                    (d, QuotaSlot::Produce, 0)
                }
                ReqKind::Fetch { .. } => {
                    let total: u64 = self.reqs[r].fetched.iter().map(|f| f.bytes + f.partial_bytes).sum();
                    let io = self.reqs[r].io_us;
                    let fd = self.brokers[broker].core.handle_fetch(
                        &self.conns[c].session,
                        at_ms,
                        total,
                        io,
                    );
                    if fd.returned_bytes == 0 {
                        self.reqs[r].fetched.clear();
                    }
                    (fd.decision, QuotaSlot::Fetch, fd.returned_bytes)
                }
            };
        let recorded = match bandwidth_slot {
            QuotaSlot::Produce => self.reqs[r].bytes,
            _ => returned,
        };
        self.count_bytes(c, bandwidth_slot, recorded);
        self.reqs[r].recorded_at = Some(self.now);
        self.reqs[r].bytes_recorded = recorded;
        if bandwidth_slot == QuotaSlot::Produce {
            self.wake_parked(broker);
        }
        let throttle = decision.throttle_ms;
        let at_once = self.conns[c].throttling.broker_sends_at_once();
        let plan = ResponsePlan::new(at_ms, throttle, at_once);
        let throttle_span = SimSpan::from_throttle_ms(throttle);
        if throttle > 0 && self.conns[c].epoch == self.reqs[r].epoch {
            self.conns[c]
                .mutes
                .push((self.now, self.now + throttle_span));
        }
        let mute = (self.now.as_ms_f64(), (self.now + throttle_span).as_ms_f64());
        let applied_bw = decision
            .throttled_by
            .is_some_and(|q| q != QuotaType::Request);
        let applied_rq = decision.throttled_by == Some(QuotaType::Request);
        self.record_admission(c, bandwidth_slot, decision.bandwidth, applied_bw, mute);
        self.record_admission(c, QuotaSlot::Request, decision.request, applied_rq, mute);
        if throttle > 0 {
            let client = self.conns[c].client;
            super::recording::push_span(&mut self.clients[client].mutes, Span {
                from_ms: mute.0,
                to_ms: mute.1,
            });
        }
        let n_parts = u64::from(len_u32(self.reqs[r].fetched.len()));
        let req = &mut self.reqs[r];
        req.throttle_ms = throttle;
        req.resp_bytes = RESPONSE_BASE + RESPONSE_PER_PARTITION * n_parts.max(1) + returned;
        let acks0 = matches!(req.kind, ReqKind::Produce { acks0: true, .. });
        if acks0 {
            // No response; the channel is still muted for a bandwidth throttle.
            let net = req.net_us;
            self.brokers[broker].core.record_network_thread_time(
                &self.conns[c].session,
                at_ms,
                net,
            );
            self.sync_request_track(c);
            let epoch = self.conns[c].epoch;
            self.schedule(self.now + throttle_span, Ev::Unmute(c, epoch));
            // The client completed it when written: nothing more happens to it.
            self.retire(r);
            return;
        }
        match plan {
            ResponsePlan::Immediate | ResponsePlan::SendThenMute { .. } => {
                self.response_send(r, throttle_span)
            }
            ResponsePlan::Delay { .. } => {
                self.schedule(self.now + throttle_span, Ev::ResponseSend(r))
            }
        }
    }

    /// Sends the response; the channel stays muted until it is sent and
    /// `mute` has passed (KIP-219).
    pub(super) fn response_send(&mut self, r: RequestId, mute: SimSpan) {
        let c = self.reqs[r].conn;
        let broker = self.conns[c].broker;
        let bytes = self.reqs[r].resp_bytes;
        let net = self.reqs[r].net_us;
        let (tx_done, arrive) = self.transfer_down(c, bytes);
        self.brokers[broker].core.record_network_thread_time(
            &self.conns[c].session,
            self.now.as_ms(),
            net,
        );
        self.sync_request_track(c);
        self.schedule(arrive, Ev::ResponseArrive(r));
        let epoch = self.conns[c].epoch;
        let unmute = tx_done.max(self.now + mute);
        self.schedule(unmute, Ev::Unmute(c, epoch));
    }
}
