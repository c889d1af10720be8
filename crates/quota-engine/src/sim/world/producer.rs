//! The Java producer: `send()` at a fixed CPU cost per record (or paced by a
//! target throughput), the accumulator (`batch.size`, `linger.ms`, the
//! sticky partitioner), `buffer.memory` with `send()` blocking up to
//! `max.block.ms`, the sender draining ready batches per broker within
//! `max.in.flight.requests.per.connection` and `max.request.size`, retries
//! after a disconnect and `delivery.timeout.ms` expiry; `acks=0` completes
//! when its send completes (written into the socket send buffer), so a muted
//! channel holds it back through the socket buffers and `buffer.memory`.
//!
//! Kafka: `KafkaProducer.doSend`, `RecordAccumulator` (`append`, `ready`,
//! `drain`, `expiredBatches`), `BufferPool.allocate`, `Sender.sendProducerData`,
//! `BuiltInPartitioner` (clients/src/main/java/org/apache/kafka/clients/producer/internals/...).

use std::collections::VecDeque;

use super::broker::SentBatch;
use super::broker::ReqKind;
use super::ids::{ix, len_u32, BatchId, BrokerId, ClientId, ConnectionId, Live, PartitionId, ProducerId};
use super::recording::{ExceptionLog, LatencyRecorder};
use super::{
    batch_allocation, record_size_in_batch, records_per_batch, Ev, World, BATCH_OVERHEAD,
};
use crate::broker::stats::WindowedAvgMax;
use crate::metrics::QuotaWindow;
use crate::scenario::{Acks, Environment, ProducerConfig, ProducerWorkload};
use crate::sim::time::{ms_f64, SimSpan, SimTime};
use crate::sim::timeline::{BufferPoint, ProgressPoint, Span};

/// Produce request header and topic framing, bytes.
const PRODUCE_REQUEST_OVERHEAD: u64 = 120;

/// What an expired batch's callback gets.
///
/// Kafka: `Sender.sendProducerData` (clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java).
const TIMEOUT_EXCEPTION: &str = "org.apache.kafka.common.errors.TimeoutException";
/// What `send()` gets when `buffer.memory` stays full for `max.block.ms`
/// (a subclass of `TimeoutException`).
///
/// Kafka: `BufferPool.allocate` (clients/src/main/java/org/apache/kafka/clients/producer/internals/BufferPool.java).
const BUFFER_EXHAUSTED_EXCEPTION: &str =
    "org.apache.kafka.clients.producer.BufferExhaustedException";
/// What the callbacks of batches still buffered or in flight get when the
/// producer is closed with `close(Duration.ZERO)`, and its message.
///
/// Kafka: `KafkaProducer.close` → `Sender.forceClose` →
/// `RecordAccumulator.abortIncompleteBatches` / `abortBatches` (about line
/// 1133 of clients/src/main/java/org/apache/kafka/clients/producer/internals/RecordAccumulator.java
/// at apache/kafka 1eb7644349cb07139d6a3c1ad1986979647cac99).
const FORCED_CLOSE_EXCEPTION: &str = "org.apache.kafka.common.KafkaException";
const FORCED_CLOSE_MESSAGE: &str = "Producer is closed forcefully.";
/// What `send()` throws for a record larger than `max.request.size` or
/// `buffer.memory` (an `ApiException`: `KafkaProducer.doSend` hands it to
/// the callback and records it in `record-error-total`).
///
/// Kafka: `KafkaProducer.ensureValidRecordSize`,
/// clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java.
const RECORD_TOO_LARGE_EXCEPTION: &str = "org.apache.kafka.common.errors.RecordTooLargeException";

/// A batch in the accumulator (or in flight).
pub(super) struct Batch {
    /// The partition's position among the producer's partitions.
    pub(super) slot: u32,
    pub(super) records: u32,
    pub(super) created: SimTime,
    pub(super) first_append: SimTime,
    /// Drained into a request: no more appends.
    closed: bool,
    retries: u32,
}

/// One producer client.
pub(super) struct Producer {
    pub(super) client: ClientId,
    cfg: ProducerConfig,
    /// The topic's name (for exception messages).
    topic: String,
    /// Records the application sends.
    pub(super) total: u64,
    pub(super) value_bytes: u32,
    /// One record's size inside a batch, bytes.
    pub(super) rec_bytes: u64,
    /// Records per batch.
    cap: u32,
    /// Bytes a batch takes from `buffer.memory`.
    alloc: u64,
    /// Time between two `send()` calls.
    interval: SimSpan,
    /// Paced by the workload's `throughput` (records/s), not as fast as it can.
    paced: bool,
    /// The topic's partitions, in order.
    pub(super) slots: Vec<PartitionId>,
    /// The connection to each broker that leads one of `slots`, by broker.
    links: Vec<(BrokerId, ConnectionId)>,
    started: bool,
    pub(super) start: SimTime,
    next_record: u64,
    next_append: SimTime,
    blocked_since: Option<SimTime>,
    block_episode: u64,
    sticky: u32,
    /// Records appended to the sticky partition since the partitioner moved
    /// to it (Kafka's `StickyPartitionInfo.producedBytes`, counted in whole
    /// records: `cap` of them, a batch's worth, stand for `batch.size`).
    produced: u64,
    /// Batches per partition, oldest first.
    deques: Vec<VecDeque<BatchId>>,
    /// The batches buffered or in flight (a completed or failed batch is
    /// forgotten: [`World::free_batch`]).
    pub(super) batches: Live<BatchId, Batch>,
    buffer_used: u64,
    drain_index: u32,
    pub(super) wake_at: SimTime,
    pub(super) tick_at: SimTime,
    pub(super) acked: u64,
    pub(super) errors: u64,
    /// The failed records by exception (their sum is `errors`).
    pub(super) failures: ExceptionLog,
    pub(super) retries: u64,
    pub(super) latency: LatencyRecorder,
    pub(super) throttle: WindowedAvgMax,
    pub(super) blocked_total: SimSpan,
    pub(super) buffer_max: u64,
    pub(super) requests: u64,
    pub(super) finish: Option<SimTime>,
    /// When the application stopped at its `stop_ms`.
    pub(super) stopped: Option<SimTime>,
    /// Every `send()` fails at once with `RecordTooLargeException`: the
    /// setting, its value (bytes) and Kafka's message.
    too_large: Option<(&'static str, u64, String)>,
}

impl Producer {
    /// A producer for workload `p`; the scenario was validated (sizes above
    /// zero, a batch fits in `buffer.memory`).
    pub(super) fn new(
        client: ClientId,
        p: &ProducerWorkload,
        slots: Vec<PartitionId>,
        links: Vec<(BrokerId, ConnectionId)>,
        env: &Environment,
    ) -> Self {
        let cfg = p.config.clone();
        let (cfg_max_request_size, cfg_buffer_memory) = (cfg.max_request_size, cfg.buffer_memory);
        let rec_bytes = record_size_in_batch(p.record_size);
        let cap = records_per_batch(cfg.batch_size, rec_bytes);
        let alloc = batch_allocation(cfg.batch_size, rec_bytes);
        let send_cost = (env.client.producer_send_us_per_record * 1000.0).max(0.0);
        let pace = if p.throughput > 0.0 {
            1e9 / p.throughput
        } else {
            0.0
        };
        let interval = SimSpan::from_ns_f64_rounded(send_cost.max(pace).max(1.0));
        let n = slots.len();
        Producer {
            client,
            cfg,
            topic: p.topic.clone(),
            total: p.records,
            value_bytes: p.record_size,
            rec_bytes,
            cap: u32::try_from(cap).unwrap_or(u32::MAX),
            alloc,
            interval,
            paced: p.throughput > 0.0,
            slots,
            links,
            started: false,
            start: SimTime::ZERO,
            next_record: 0,
            next_append: SimTime::ZERO,
            blocked_since: None,
            block_episode: 0,
            sticky: 0,
            produced: 0,
            deques: (0..n).map(|_| VecDeque::new()).collect(),
            batches: Live::new(),
            buffer_used: 0,
            drain_index: 0,
            wake_at: SimTime::NEVER,
            tick_at: SimTime::NEVER,
            acked: 0,
            errors: 0,
            failures: ExceptionLog::default(),
            retries: 0,
            latency: LatencyRecorder::new(),
            throttle: WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            blocked_total: SimSpan::ZERO,
            buffer_max: 0,
            requests: 0,
            finish: None,
            stopped: None,
            too_large: super::record_too_large(
                p.record_size,
                cfg_max_request_size,
                cfg_buffer_memory,
            ),
        }
    }

    /// The application stops at `now` and closes the producer at once,
    /// `KafkaProducer.close(Duration.ZERO)`: every batch still in the
    /// accumulator or in flight is aborted, its records fail with
    /// `org.apache.kafka.common.KafkaException: Producer is closed
    /// forcefully.` (counted in `record-error-total` and named under the
    /// setting `stop_ms`, first at the stop time), and their memory returns
    /// to the pool. Records the application had not yet passed to `send()`
    /// (a `send()` blocked on `buffer.memory` included: its record was not
    /// appended) are not sent, not failed.
    ///
    /// Returns the records not sent, the records aborted, and the `send()`
    /// block it ends, if one was going on.
    ///
    /// Kafka: `KafkaProducer.close`, `Sender.forceClose`,
    /// `RecordAccumulator.abortIncompleteBatches` / `abortBatches`
    /// (clients/src/main/java/org/apache/kafka/clients/producer/internals/RecordAccumulator.java).
    /// Kafka's own `record-error-total` sensor is not recorded on this path
    /// (`ProducerBatch.abort` does not go through `Sender.failBatch`) and is
    /// closed with the producer; the simulator counts the aborted records
    /// there so that it stays the sum of the failures' counts.
    pub(super) fn stop(&mut self, now: SimTime) -> (u64, u64, Option<Span>) {
        self.stopped = Some(now);
        let blocked = self.blocked_since.take().map(|since| {
            self.blocked_total += now - since;
            Span {
                from_ms: since.as_ms_f64(),
                to_ms: now.as_ms_f64(),
            }
        });
        let not_sent = self.total.saturating_sub(self.next_record);
        let aborted = self.next_record.saturating_sub(self.acked + self.errors);
        if aborted > 0 {
            self.errors += aborted;
            self.failures.record(
                FORCED_CLOSE_EXCEPTION,
                "stop_ms",
                now.as_ms().max(0).unsigned_abs(),
                aborted,
                now,
                || FORCED_CLOSE_MESSAGE.to_owned(),
            );
        }
        for dq in &mut self.deques {
            dq.clear();
        }
        self.buffer_used = 0;
        (not_sent, aborted, blocked)
    }

    /// Whether the sender may drain batch `b` now.
    ///
    /// Kafka: `RecordAccumulator.ready` (full, lingered, or memory exhausted
    /// / flushing).
    fn batch_ready(&self, b: BatchId, now: SimTime) -> bool {
        let bt = &self.batches[b];
        bt.closed
            || bt.records >= self.cap
            || now >= bt.created + SimSpan::from_ms(self.cfg.linger_ms)
            || self.blocked_since.is_some()
            || self.next_record >= self.total
    }

    fn delivery_timeout(&self) -> SimSpan {
        SimSpan::from_ms(self.cfg.effective_delivery_timeout_ms())
    }

    /// Batch `b` fails at `now` past `delivery.timeout.ms`: its records
    /// count in `record-error-total` and its callbacks get Kafka's
    /// `TimeoutException`, "Expiring N record(s) for topic-partition:X ms has
    /// passed since batch creation" (X between the ms clock readings).
    ///
    /// Kafka: `Sender.sendProducerData`, which fails what
    /// `RecordAccumulator.expiredBatches` and `Sender.getExpiredInflightBatches`
    /// return (clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java,
    /// apache/kafka 1eb7644349cb07139d6a3c1ad1986979647cac99).
    fn expire_batch(&mut self, b: BatchId, now: SimTime) {
        let bt = &self.batches[b];
        let (n, slot, created) = (u64::from(bt.records), bt.slot, bt.created);
        self.errors += n;
        let topic = &self.topic;
        self.failures.record(
            TIMEOUT_EXCEPTION,
            "delivery.timeout.ms",
            self.cfg.effective_delivery_timeout_ms(),
            n,
            now,
            || {
                format!(
                    "Expiring {n} record(s) for {topic}-{slot}:{} ms has passed since batch creation",
                    now.as_ms() - created.as_ms()
                )
            },
        );
    }
}

impl World {
    pub(super) fn producer_start(&mut self, p: ProducerId) {
        let now = self.now;
        let leaders = self.startup_leaders(&self.producers[p].slots);
        let pr = &mut self.producers[p];
        pr.started = true;
        pr.start = now;
        pr.next_append = now;
        for _ in 0..super::startup_responses(leaders, false) {
            pr.throttle.record(now.as_ms(), 0.0);
        }
        pr.latency.start_perf(now);
        if pr.total == 0 {
            pr.finish = Some(now);
            self.unfinished -= 1;
            return;
        }
        self.producer_poll(p);
    }

    /// The produce response arrived: its batches are complete.
    pub(super) fn producer_response(&mut self, p: ProducerId, r: super::RequestId) {
        let throttle = self.reqs[r].throttle_ms;
        self.producers[p]
            .throttle
            .record(self.now.as_ms(), ms_f64(throttle));
        let batches = self.reqs[r].produce_batches();
        for b in batches {
            self.complete_batch(p, b);
        }
        self.producer_poll(p);
    }

    /// An `acks=0` request's send completed after waiting for socket buffer
    /// space: its batches are complete and the sender goes on.
    ///
    /// Kafka: `NetworkClient.handleCompletedSends` (no response expected),
    /// `Sender.handleProduceResponse` with a null response.
    pub(super) fn producer_written(&mut self, p: ProducerId, r: super::RequestId) {
        for b in self.reqs[r].produce_batches() {
            self.complete_batch(p, b);
        }
        self.producer_poll(p);
    }

    /// A request failed: retry the batch or, past `delivery.timeout.ms`, fail it.
    pub(super) fn retry_or_fail(&mut self, p: ProducerId, b: BatchId) {
        let now = self.now;
        let pr = &mut self.producers[p];
        let timeout = pr.delivery_timeout();
        let batch = &mut pr.batches[b];
        if now.saturating_since(batch.created) >= timeout {
            // Kafka would have expired the in-flight batch at its delivery
            // timeout already (Sender.getExpiredInflightBatches), with the
            // same message; here it fails when its request does.
            pr.expire_batch(b, now);
            self.free_batch(p, b);
            self.check_producer_done(p);
        } else {
            batch.retries += 1;
            let (records, slot) = (batch.records, batch.slot);
            pr.retries += u64::from(records);
            pr.deques[ix(slot)].push_front(b);
        }
    }

    /// Returns the batch's memory to the pool and forgets the batch; a
    /// blocked `send()` resumes.
    fn free_batch(&mut self, p: ProducerId, b: BatchId) {
        let now = self.now;
        let pr = &mut self.producers[p];
        pr.batches.remove(b);
        pr.buffer_used -= pr.alloc;
        let client = pr.client;
        let used = pr.buffer_used;
        self.clients[client].buffer.push(BufferPoint {
            at_ms: now.as_ms_f64(),
            used_bytes: used,
        });
        let pr = &mut self.producers[p];
        if let Some(since) = pr.blocked_since.take() {
            pr.blocked_total += now - since;
            pr.next_append = pr.next_append.max(now);
            super::recording::push_span(&mut self.clients[client].blocked, Span {
                from_ms: since.as_ms_f64(),
                to_ms: now.as_ms_f64(),
            });
        }
    }

    fn complete_batch(&mut self, p: ProducerId, b: BatchId) {
        let now = self.now;
        let pr = &mut self.producers[p];
        let batch = &pr.batches[b];
        let (n, first) = (batch.records, batch.first_append);
        let value_bytes = u64::from(pr.value_bytes);
        pr.latency.record_batch(n, first, pr.interval, now, value_bytes);
        pr.acked += u64::from(n);
        let acked = pr.acked;
        let client = pr.client;
        self.clients[client].progress.push(ProgressPoint {
            at_ms: now.as_ms_f64(),
            records: acked,
        });
        self.free_batch(p, b);
        self.check_producer_done(p);
    }

    fn check_producer_done(&mut self, p: ProducerId) {
        let pr = &mut self.producers[p];
        if pr.finish.is_none() && pr.stopped.is_none() && pr.acked + pr.errors >= pr.total {
            pr.finish = Some(self.now);
            self.unfinished -= 1;
        }
    }

    pub(super) fn block_timeout(&mut self, p: ProducerId, episode: u64) {
        let now = self.now;
        let pr = &mut self.producers[p];
        if pr.block_episode != episode || pr.blocked_since.is_none() {
            return;
        }
        // send() gives up after max.block.ms: the record fails with
        // BufferPool's BufferExhaustedException (a TimeoutException, handed
        // to the callback and counted by record-error-total in
        // KafkaProducer.doSend), the app moves on.
        let since = pr.blocked_since.take().unwrap_or(now);
        pr.blocked_total += now - since;
        pr.errors += 1;
        let (size, max_block, total) = (pr.alloc, pr.cfg.max_block_ms, pr.cfg.buffer_memory);
        let (available, poolable) = (total.saturating_sub(pr.buffer_used), pr.cfg.batch_size);
        pr.failures.record(
            BUFFER_EXHAUSTED_EXCEPTION,
            "max.block.ms",
            max_block,
            1,
            now,
            || {
                format!(
                    "Failed to allocate {size} bytes within the configured max blocking time \
                     {max_block} ms. Total memory: {total} bytes. Available memory: {available} \
                     bytes. Poolable size: {poolable} bytes"
                )
            },
        );
        pr.next_record += 1;
        pr.next_append = now + pr.interval;
        let client = pr.client;
        super::recording::push_span(&mut self.clients[client].blocked, Span {
            from_ms: since.as_ms_f64(),
            to_ms: now.as_ms_f64(),
        });
        self.check_producer_done(p);
        self.producer_poll(p);
    }

    /// Appends every record the application has issued by `now` (or, when
    /// the record is too large, fails each `send()` at once).
    fn catch_up(&mut self, p: ProducerId) {
        let now = self.now;
        if self.producers[p].too_large.is_some() {
            self.fail_too_large(p);
            return;
        }
        loop {
            let pr = &mut self.producers[p];
            if !pr.started
                || pr.blocked_since.is_some()
                || pr.next_record >= pr.total
                || pr.next_append > now
            {
                return;
            }
            let is_open = |pr: &Producer, slot: u32| {
                pr.deques[ix(slot)].back().copied().filter(|b| {
                    let bt = &pr.batches[*b];
                    !bt.closed && bt.records < pr.cap
                })
            };
            // A switch held back while the partition had a batch open comes
            // once none is (the batch filled, or the sender took it at
            // linger.ms): Kafka's RecordAccumulator.partitionChanged.
            if pr.produced >= u64::from(pr.cap) && pr.slots.len() > 1 && is_open(pr, pr.sticky).is_none() {
                pr.sticky = (pr.sticky + 1) % len_u32(pr.slots.len());
                pr.produced = 0;
            }
            let slot = pr.sticky;
            let open = is_open(pr, slot);
            let b = match open {
                Some(b) => b,
                None => {
                    if pr.buffer_used + pr.alloc > pr.cfg.buffer_memory {
                        pr.blocked_since = Some(pr.next_append);
                        pr.block_episode += 1;
                        let ep = pr.block_episode;
                        let at = pr.next_append + SimSpan::from_ms(pr.cfg.max_block_ms);
                        self.schedule(at, Ev::BlockTimeout(p, ep));
                        return;
                    }
                    pr.buffer_used += pr.alloc;
                    pr.buffer_max = pr.buffer_max.max(pr.buffer_used);
                    let id = pr.batches.insert(Batch {
                        slot,
                        records: 0,
                        created: pr.next_append,
                        first_append: pr.next_append,
                        closed: false,
                        retries: 0,
                    });
                    pr.deques[ix(slot)].push_back(id);
                    let (client, used, at) = (pr.client, pr.buffer_used, pr.next_append);
                    self.clients[client].buffer.push(BufferPoint {
                        at_ms: at.as_ms_f64(),
                        used_bytes: used,
                    });
                    id
                }
            };
            let pr = &mut self.producers[p];
            let space = u64::from(pr.cap - pr.batches[b].records);
            let by_time = (now - pr.next_append).as_ns() / pr.interval.as_ns() + 1;
            // At most up to twice batch.size on the partition, where the
            // partitioner moves on mid-batch (below).
            let cap = u64::from(pr.cap);
            let to_switch = if pr.slots.len() > 1 { (2 * cap).saturating_sub(pr.produced).max(1) } else { u64::MAX };
            let k = space.min(pr.total - pr.next_record).min(by_time).min(to_switch);
            // k <= space, which came from a u32.
            pr.batches[b].records += u32::try_from(k).unwrap_or(u32::MAX);
            pr.next_record += k;
            pr.next_append += pr.interval * k;
            pr.produced += k;
            // Sticky partitioner: once a batch's worth of records (`cap`) has
            // gone to the partition, a full batch moves the producer on (with
            // one still open, the switch waits for it, above), and twice that
            // does in any case. Kafka: BuiltInPartitioner.updatePartitionInfo,
            // called by RecordAccumulator.append with enableSwitch =
            // allBatchesFull; Kafka counts bytes with each batch's header and
            // a batch is full only once a record did not fit, so an unpaced
            // Java producer usually fills two batches before it moves (a
            // difference of the model, in docs/scenario-format.md).
            if pr.slots.len() > 1 && (pr.produced >= cap && pr.batches[b].records == pr.cap || pr.produced >= 2 * cap) {
                pr.sticky = (pr.sticky + 1) % len_u32(pr.slots.len());
                pr.produced = 0;
            }
        }
    }

    /// Every `send()` issued by `now` throws `RecordTooLargeException`
    /// before the record reaches the accumulator: the records count in
    /// `record-error-total` and the application goes on to the next.
    ///
    /// Kafka: `KafkaProducer.doSend` → `ensureValidRecordSize`, the
    /// `ApiException` branch (callback, `errors.record()`).
    fn fail_too_large(&mut self, p: ProducerId) {
        let now = self.now;
        let pr = &mut self.producers[p];
        let Some((setting, limit, message)) = pr.too_large.clone() else {
            return;
        };
        if !pr.started || pr.next_record >= pr.total || pr.next_append > now {
            return;
        }
        let by_time = (now - pr.next_append).as_ns() / pr.interval.as_ns() + 1;
        let k = by_time.min(pr.total - pr.next_record);
        let first = pr.next_append;
        pr.errors += k;
        pr.failures
            .record(RECORD_TOO_LARGE_EXCEPTION, setting, limit, k, first, || {
                message
            });
        pr.next_record += k;
        pr.next_append += pr.interval * k;
        self.check_producer_done(p);
    }

    pub(super) fn producer_poll(&mut self, p: ProducerId) {
        if self.producers[p].stopped.is_some() {
            return;
        }
        self.catch_up(p);
        let now = self.now;
        // Expire batches waiting in the accumulator past delivery.timeout.ms.
        {
            let n = self.producers[p].deques.len();
            for slot in 0..n {
                loop {
                    let pr = &self.producers[p];
                    let Some(&b) = pr.deques[slot].front() else {
                        break;
                    };
                    let bt = &pr.batches[b];
                    if bt.records == 0 || now.saturating_since(bt.created) < pr.delivery_timeout() {
                        break;
                    }
                    let pr = &mut self.producers[p];
                    pr.deques[slot].pop_front();
                    pr.expire_batch(b, now);
                    self.free_batch(p, b);
                    self.check_producer_done(p);
                }
            }
        }
        let mut next_wake = SimTime::NEVER;
        let nl = self.producers[p].links.len();
        for link in 0..nl {
            let (broker, c) = self.producers[p].links[link];
            loop {
                let pr = &self.producers[p];
                // Which partitions of this broker have a batch, and is any ready?
                let mut any = false;
                let mut ready = false;
                let mut earliest = SimTime::NEVER;
                for (slot, dq) in pr.deques.iter().enumerate() {
                    if self.partitions[pr.slots[slot]].leader != broker {
                        continue;
                    }
                    if let Some(&b) = dq.front() {
                        if pr.batches[b].records == 0 {
                            continue;
                        }
                        any = true;
                        if dq.len() > 1 || pr.batch_ready(b, now) {
                            ready = true;
                        } else {
                            earliest = earliest
                                .min(pr.batches[b].created + SimSpan::from_ms(pr.cfg.linger_ms));
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
                let conn = &self.conns[c];
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
                // In-flight limit and flow control: the last send must have
                // completed (woken when it does).
                if !conn.can_send(pr.cfg.max_in_flight) {
                    break;
                }
                // Drain: the first batch of every partition led by this broker,
                // up to max.request.size (the first always goes).
                let pr = &mut self.producers[p];
                let n = len_u32(pr.deques.len());
                let mut size = PRODUCE_REQUEST_OVERHEAD;
                let mut taken = Vec::new();
                for k in 0..n {
                    let slot = ix((pr.drain_index + k) % n);
                    if self.partitions[pr.slots[slot]].leader != broker {
                        continue;
                    }
                    let Some(&b) = pr.deques[slot].front() else {
                        continue;
                    };
                    let bt = &pr.batches[b];
                    if bt.records == 0 {
                        continue;
                    }
                    let (bt_slot, bt_records) = (bt.slot, bt.records);
                    let bytes = BATCH_OVERHEAD + u64::from(bt.records) * pr.rec_bytes;
                    if size + bytes > u64::from(pr.cfg.max_request_size) && !taken.is_empty() {
                        break;
                    }
                    size += bytes;
                    pr.deques[slot].pop_front();
                    pr.batches[b].closed = true;
                    taken.push(SentBatch {
                        id: b,
                        slot: bt_slot,
                        records: bt_records,
                    });
                }
                pr.drain_index = (pr.drain_index + 1) % n.max(1);
                if taken.is_empty() {
                    break;
                }
                pr.requests += 1;
                let acks0 = pr.cfg.acks == Acks::None;
                let timeout = pr.cfg.request_timeout_ms;
                let batches = taken.clone();
                let r = self.send_request(c, size, ReqKind::Produce { batches, acks0 }, timeout);
                if acks0 && self.reqs[r].written_at.is_some() {
                    // acks=0: complete once written (the client expects no
                    // response); a send still waiting for socket buffer
                    // space completes in `producer_written`.
                    for b in taken {
                        self.complete_batch(p, b.id);
                    }
                }
            }
        }
        // Delivery timeouts of waiting batches.
        {
            let pr = &self.producers[p];
            for dq in &pr.deques {
                if let Some(&b) = dq.front() {
                    next_wake = next_wake.min(pr.batches[b].created + pr.delivery_timeout());
                }
            }
        }
        if next_wake != SimTime::NEVER && next_wake > now {
            let pr = &mut self.producers[p];
            if next_wake < pr.wake_at {
                pr.wake_at = next_wake;
                self.schedule(next_wake, Ev::SenderWake(p));
            }
        }
        // The application's next batch boundary.
        let pr = &mut self.producers[p];
        if pr.started && pr.blocked_since.is_none() && pr.next_record < pr.total {
            let slot = ix(pr.sticky);
            let open = pr.deques[slot]
                .back()
                .map(|b| &pr.batches[*b])
                .filter(|bt| !bt.closed && bt.records < pr.cap);
            let in_open = open.map_or(0, |bt| u64::from(bt.records));
            let space = (u64::from(pr.cap) - in_open).min(pr.total - pr.next_record);
            let boundary = pr.next_append + pr.interval * space.saturating_sub(1);
            // Kafka appends each record at its send() (RecordAccumulator.append)
            // and the sender takes a batch once linger.ms has passed since
            // its first: the records sent by then must be in it when the
            // sender looks, so the catch-up comes then if that is before the
            // batch fills (a paced producer's batches leave at linger.ms,
            // not full). With linger.ms=0 a batch is ready at once and the
            // append of a new batch wakes the sender
            // (KafkaProducer.doSend: `result.newBatchCreated` →
            // `sender.wakeup()`), so a paced producer's records are caught
            // up as each is sent; an unpaced one (throughput -1) keeps the
            // lazy catch-up (a simplification of the model: an idle Java
            // sender would send part of a batch). Not for a batch that
            // lingered already.
            let first = open.filter(|bt| bt.records > 0).map_or(pr.next_append, |bt| bt.created);
            let lingered = first + SimSpan::from_ms(pr.cfg.linger_ms);
            let at = if pr.cfg.linger_ms > 0 && lingered > now && lingered < boundary {
                lingered
            } else if pr.cfg.linger_ms == 0 && pr.paced && pr.next_append > now && pr.next_append < boundary {
                pr.next_append
            } else {
                boundary
            }
            .max(now + SimSpan::from_ns(1));
            if at != pr.tick_at {
                pr.tick_at = at;
                self.schedule(at, Ev::AppTick(p));
            }
        }
    }
}
