//! The Java consumer with `assign()`: one fetch per broker at a time, with
//! `fetch.max.bytes`, `max.partition.fetch.bytes`, `fetch.min.bytes` and
//! `fetch.max.wait.ms`, then a CPU cost per record before the next fetch.
//!
//! Kafka: `KafkaConsumer.poll`, `AbstractFetch.prepareFetchRequests` (no
//! fetch to a node with one pending), `FetchRequestManager`
//! (clients/src/main/java/org/apache/kafka/clients/consumer/internals/...).

use super::broker::ReqKind;
use super::ids::{ix, BrokerId, ConnectionId, ConsumerId, PartitionId, RequestId};
use super::{Ev, World};
use crate::broker::stats::WindowedAvgMax;
use crate::metrics::QuotaWindow;
use crate::scenario::{ConsumerConfig, ConsumerWorkload};
use crate::sim::time::{count_f64, ms_f64, SimSpan, SimTime};
use crate::sim::timeline::ProgressPoint;

/// Fetch request size per request, bytes.
const FETCH_REQUEST_BASE: u64 = 100;
/// Fetch request size per partition, bytes.
const FETCH_REQUEST_PER_PARTITION: u64 = 30;

/// The connection to one broker that leads some of the consumer's partitions.
struct FetchLink {
    broker: BrokerId,
    conn: ConnectionId,
    /// A fetch is in flight on it.
    fetching: bool,
}

/// One consumer client.
pub(super) struct Consumer {
    cfg: ConsumerConfig,
    /// Records to consume before finishing.
    pub(super) target: u64,
    /// The assigned partitions, in order.
    pub(super) slots: Vec<PartitionId>,
    /// Next log batch to fetch, per entry of `slots`.
    pub(super) positions: Vec<u64>,
    links: Vec<FetchLink>,
    busy_until: SimTime,
    pub(super) consumed: u64,
    pub(super) bytes: u64,
    pub(super) start: SimTime,
    started: bool,
    pub(super) throttle: WindowedAvgMax,
    pub(super) requests: u64,
    pub(super) wake_at: SimTime,
    pub(super) finish: Option<SimTime>,
    /// When the application stopped at its `stop_ms`.
    pub(super) stopped: Option<SimTime>,
}

impl Consumer {
    pub(super) fn new(
        c: &ConsumerWorkload,
        slots: Vec<PartitionId>,
        links: Vec<(BrokerId, ConnectionId)>,
    ) -> Self {
        let n = slots.len();
        Consumer {
            cfg: c.config.clone(),
            target: c.records,
            slots,
            positions: vec![0; n],
            links: links
                .into_iter()
                .map(|(broker, conn)| FetchLink {
                    broker,
                    conn,
                    fetching: false,
                })
                .collect(),
            busy_until: SimTime::ZERO,
            consumed: 0,
            bytes: 0,
            start: SimTime::ZERO,
            started: false,
            throttle: WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            requests: 0,
            wake_at: SimTime::NEVER,
            finish: None,
            stopped: None,
        }
    }

    /// The fetch on `conn` completed or failed: the broker may be fetched again.
    pub(super) fn fetch_done(&mut self, conn: ConnectionId) {
        for l in self.links.iter_mut().filter(|l| l.conn == conn) {
            l.fetching = false;
        }
    }
}

impl World {
    pub(super) fn consumer_start(&mut self, ci: ConsumerId) {
        let now = self.now;
        let leaders = self.startup_leaders(&self.consumers[ci].slots);
        let co = &mut self.consumers[ci];
        co.started = true;
        co.start = now;
        for _ in 0..super::startup_responses(leaders, true) {
            co.throttle.record(now.as_ms(), 0.0);
        }
        if co.target == 0 {
            co.finish = Some(now);
            self.unfinished -= 1;
        }
    }

    /// The fetch response arrived: advance the positions, process the
    /// records (CPU cost per record), then fetch again.
    pub(super) fn consumer_response(&mut self, ci: ConsumerId, r: RequestId) {
        let now = self.now;
        let throttle = self.reqs[r].throttle_ms;
        let c = self.reqs[r].conn;
        self.consumers[ci]
            .throttle
            .record(now.as_ms(), ms_f64(throttle));
        let fetched = std::mem::take(&mut self.reqs[r].fetched);
        let co = &mut self.consumers[ci];
        co.fetch_done(c);
        let mut records = 0;
        for f in fetched {
            co.positions[ix(f.slot)] += f.batches;
            records += f.records;
            co.bytes += f.bytes;
        }
        let take = records.min(co.target - co.consumed);
        co.consumed += take;
        let cost = SimSpan::from_ns_f64_rounded(
            (self.env.client.consumer_us_per_record * 1000.0 * count_f64(take))
                .round()
                .max(0.0),
        );
        co.busy_until = co.busy_until.max(now) + cost;
        let done_at = co.busy_until;
        let consumed = co.consumed;
        let client = self.conns[c].client;
        if take > 0 {
            self.clients[client].progress.push(ProgressPoint {
                at_ms: done_at.as_ms_f64(),
                records: consumed,
            });
        }
        if consumed >= self.consumers[ci].target && self.consumers[ci].finish.is_none() {
            self.consumers[ci].finish = Some(done_at);
            self.unfinished -= 1;
            return;
        }
        if done_at > now {
            self.consumer_wake(ci, done_at);
        } else {
            self.consumer_poll(ci);
        }
    }

    fn consumer_wake(&mut self, ci: ConsumerId, at: SimTime) {
        let now = self.now;
        let co = &mut self.consumers[ci];
        if at < co.wake_at || co.wake_at <= now {
            co.wake_at = at;
            self.schedule(at, Ev::ConsumerWake(ci));
        }
    }

    pub(super) fn consumer_poll(&mut self, ci: ConsumerId) {
        let now = self.now;
        let co = &self.consumers[ci];
        if !co.started || co.finish.is_some() || co.stopped.is_some() {
            return;
        }
        if now < co.busy_until {
            let at = co.busy_until;
            self.consumer_wake(ci, at);
            return;
        }
        let nl = co.links.len();
        for link in 0..nl {
            let co = &self.consumers[ci];
            let FetchLink {
                broker,
                conn: c,
                fetching,
            } = co.links[link];
            if fetching {
                continue;
            }
            // No fetch to a broker that leads none of the partitions (after a
            // move_leader event).
            if !co.slots.iter().any(|s| self.partitions[*s].leader == broker) {
                continue;
            }
            let conn = &self.conns[c];
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
            // Flow control: the last send must have completed (woken when it does).
            if conn.up.writing.is_some() {
                continue;
            }
            let parts = co
                .slots
                .iter()
                .filter(|s| self.partitions[**s].leader == broker)
                .fold(0u64, |n, _| n + 1);
            let cfg = &co.cfg;
            let kind = ReqKind::Fetch {
                max_bytes: cfg.fetch_max_bytes,
                part_max: cfg.max_partition_fetch_bytes,
                min_bytes: cfg.fetch_min_bytes,
                max_wait_ms: cfg.fetch_max_wait_ms,
                parked: false,
            };
            let timeout = cfg.request_timeout_ms + cfg.fetch_max_wait_ms;
            let co = &mut self.consumers[ci];
            co.links[link].fetching = true;
            co.requests += 1;
            self.send_request(
                c,
                FETCH_REQUEST_BASE + FETCH_REQUEST_PER_PARTITION * parts,
                kind,
                timeout,
            );
        }
    }
}
