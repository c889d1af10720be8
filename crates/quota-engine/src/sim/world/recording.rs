//! What turns a run into a [`Timeline`]: the sensor tracks (rate after each
//! request, sample windows, throttle decisions), each client's series
//! (throttles seen, mutes, blocked `send()`, buffer, progress), the
//! producer's per-record latencies and `kafka-producer-perf-test.sh`
//! windows, and at the end the client metrics and broker MBeans.
//!
//! Kafka: `Sensor` / `Rate` / `SampledStat` (clients/src/main/java/org/apache/kafka/common/metrics/...),
//! `ClientQuotaManager.recordAndGetThrottleTimeMs`, the producer's
//! `produce-throttle-time-avg/max` (`SenderMetricsRegistry`),
//! `ProducerPerformance.Stats` (tools/src/main/java/org/apache/kafka/tools/ProducerPerformance.java).

use std::collections::BTreeMap;

use super::ids::{ix, len_u32, BrokerId, ClientId, ConnectionId, TrackId};
use super::{Role, World};
use crate::broker::{SensorId, Session};
use crate::entity::QuotaType;
use crate::metrics::Admission;
use crate::scenario::{ConnectionSpec, Scenario};
use crate::sim::time::{count_f64, ms_f64, SimSpan, SimTime};
use crate::sim::timeline::{
    BoundChange, BrokerTrack, BufferPoint, ClientKind, ClientMetrics, ClientStop, ClientThrottle,
    ClientTrack, LatencySummary, MBeanValue, NamedException, Outcome, PerfSummary, PerfWindow,
    ProgressPoint, RatePoint, RequestWaits, ResponseTally, SensorTrack, Series, Span,
    ThrottleEvent, Timeline, SERIES_CAP,
};

/// `kafka-producer-perf-test.sh` reporting interval, ms.
const PERF_REPORT_INTERVAL_MS: i64 = 5_000;

/// Whether a capped list of `len` entries may take one more.
fn below_series_cap(len: usize) -> bool {
    len_u32(len) < SERIES_CAP
}

/// Adds `span` to a client's mute or blocked spans, which keep the first
/// [`SERIES_CAP`] (a producer whose `send()` blocks after every batch
/// would otherwise keep one span per batch; the totals are in
/// [`crate::sim::ClientMetrics`]).
pub(super) fn push_span(spans: &mut Vec<Span>, span: Span) {
    if below_series_cap(spans.len()) {
        spans.push(span);
    }
}

/// The three quotas a connection is tracked under, in the order of
/// [`super::connection::Conn::tracks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum QuotaSlot {
    Produce,
    Fetch,
    Request,
}

impl QuotaSlot {
    pub(super) const ALL: [QuotaSlot; 3] = [QuotaSlot::Produce, QuotaSlot::Fetch, QuotaSlot::Request];

    /// Position in [`super::connection::Conn::tracks`]: [`QuotaType::slot`].
    pub(super) fn index(self) -> usize {
        self.quota_type().slot()
    }

    fn quota_type(self) -> QuotaType {
        match self {
            QuotaSlot::Produce => QuotaType::Produce,
            QuotaSlot::Fetch => QuotaType::Fetch,
            QuotaSlot::Request => QuotaType::Request,
        }
    }

    /// The session's sensor for this quota, if one applies.
    pub(super) fn sensor(self, session: &Session) -> Option<SensorId> {
        match self {
            QuotaSlot::Produce => session.produce,
            QuotaSlot::Fetch => session.fetch,
            QuotaSlot::Request => session.request,
        }
    }
}

/// One sensor of one broker: clients sharing a quota share its track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct SensorKey {
    broker: BrokerId,
    slot: QuotaSlot,
    sensor: u32,
}

/// What the Timeline shows of one client, collected during the run.
pub(super) struct ClientInfo {
    pub(super) name: String,
    client_id: String,
    principal: String,
    pub(super) role: Role,
    pub(super) conns: Vec<ConnectionId>,
    pub(super) track_throttles: Series<ClientThrottle>,
    /// The tallies that stamp each of `track_throttles`' points.
    pub(super) throttle_tally: ResponseTally,
    pub(super) mutes: Vec<Span>,
    pub(super) blocked: Vec<Span>,
    pub(super) buffer: Series<BufferPoint>,
    pub(super) progress: Series<ProgressPoint>,
    /// Where the client's requests waited, summed.
    pub(super) waits: RequestWaits,
    /// How the client stopped at its `stop_ms`, once it has.
    pub(super) stop: Option<ClientStop>,
}

impl ClientInfo {
    pub(super) fn new(
        spec: &ConnectionSpec,
        principal: String,
        role: Role,
        conns: Vec<ConnectionId>,
    ) -> Self {
        ClientInfo {
            name: spec.name.clone(),
            client_id: spec.client_id.clone(),
            principal,
            role,
            conns,
            track_throttles: Series::default(),
            throttle_tally: ResponseTally::default(),
            mutes: Vec::new(),
            blocked: Vec::new(),
            buffer: Series::default(),
            progress: Series::default(),
            waits: RequestWaits::default(),
            stop: None,
        }
    }

    /// Producer or consumer.
    pub(super) fn kind(&self) -> ClientKind {
        match self.role {
            Role::Producer(_) => ClientKind::Producer,
            Role::Consumer(_) => ClientKind::Consumer,
        }
    }
}

/// Latencies below this many ms are counted to the ms; from it up (17.5
/// minutes), to the second ([`LatencyRecorder`]). A whole second, so the
/// per-second counts all come after the per-ms ones.
const DENSE_LATENCY_MS: u32 = 1_048_000;

/// A producer's per-record latencies (`send()` to callback, whole ms) and
/// its perf-test reporting windows.
pub(super) struct LatencyRecorder {
    /// Count of records per latency in ms (index = ms), below
    /// [`DENSE_LATENCY_MS`].
    hist: Vec<u64>,
    /// Count of records per latency from [`DENSE_LATENCY_MS`] up, kept to
    /// the whole second (the key is the second's first ms, never below
    /// [`DENSE_LATENCY_MS`]), so at most 86,400 entries however long the
    /// run (issue 30).
    slow: BTreeMap<u32, u64>,
    count: u64,
    sum: u64,
    max: u32,
    window_start_ms: i64,
    w: PerfWindow,
    windows: Vec<PerfWindow>,
    bytes_total: u64,
}

const EMPTY_WINDOW: PerfWindow = PerfWindow {
    at_ms: 0.0,
    records: 0,
    elapsed_ms: 0,
    bytes: 0,
    latency_sum_ms: 0,
    latency_max_ms: 0,
};

impl LatencyRecorder {
    pub(super) fn new() -> Self {
        LatencyRecorder {
            hist: Vec::new(),
            slow: BTreeMap::new(),
            count: 0,
            sum: 0,
            max: 0,
            window_start_ms: 0,
            w: EMPTY_WINDOW,
            windows: Vec::new(),
            bytes_total: 0,
        }
    }

    /// The producer started: the first perf window opens.
    pub(super) fn start_perf(&mut self, now: SimTime) {
        self.window_start_ms = now.as_ms();
    }

    /// A batch of `n` records, the first appended at `first` and the rest
    /// `interval` apart, each of `value_bytes`, completed at `now`.
    pub(super) fn record_batch(
        &mut self,
        n: u32,
        first: SimTime,
        interval: SimSpan,
        now: SimTime,
        value_bytes: u64,
    ) {
        let now_ms = now.as_ms();
        // Per-record latencies (send() to callback, whole ms). Later records
        // were appended later, so the first record has the largest latency.
        let (mut first_lat, mut rest_sum, mut rest_max) = (0u32, 0u64, 0u32);
        for j in 0..n {
            let append_ms = (first + interval * u64::from(j)).as_ms();
            // Below u32::MAX ms: runs are capped at one day.
            let lat = u32::try_from((now_ms - append_ms).max(0)).unwrap_or(u32::MAX);
            if lat < DENSE_LATENCY_MS {
                let slot = ix(lat);
                if slot >= self.hist.len() {
                    self.hist.resize(slot + 1, 0);
                }
                self.hist[slot] += 1;
            } else {
                *self.slow.entry(lat - lat % 1000).or_insert(0) += 1;
            }
            self.sum += u64::from(lat);
            self.max = self.max.max(lat);
            if j == 0 {
                first_lat = lat;
            } else {
                rest_sum += u64::from(lat);
                rest_max = rest_max.max(lat);
            }
        }
        self.count += u64::from(n);
        if n > 0 {
            // kafka-producer-perf-test.sh Stats.record, per record; all of a
            // batch's callbacks run at the same ms, so only the first can
            // close a reporting window.
            let w = &mut self.w;
            w.records += 1;
            w.bytes += value_bytes;
            w.latency_sum_ms += u64::from(first_lat);
            w.latency_max_ms = w.latency_max_ms.max(first_lat);
            if now_ms - self.window_start_ms >= PERF_REPORT_INTERVAL_MS {
                let mut done = self.w;
                done.at_ms = ms_f64(now_ms);
                done.elapsed_ms = now_ms - self.window_start_ms;
                self.windows.push(done);
                self.w = EMPTY_WINDOW;
                self.window_start_ms = now_ms;
            }
            let w = &mut self.w;
            w.records += u64::from(n - 1);
            w.bytes += value_bytes * u64::from(n - 1);
            w.latency_sum_ms += rest_sum;
            w.latency_max_ms = w.latency_max_ms.max(rest_max);
        }
        self.bytes_total += value_bytes * u64::from(n);
    }

    /// The latency summary, or `None` before the first record completed.
    fn summary(&self) -> Option<LatencySummary> {
        if self.count == 0 {
            return None;
        }
        let counts = (0u32..).zip(self.hist.iter().copied()).chain(self.slow.iter().map(|(ms, c)| (*ms, *c)));
        let pcts = crate::broker::stats::perf_percentiles_of(counts, self.count, &[0.5, 0.95, 0.99, 0.999]);
        Some(LatencySummary {
            avg_ms: count_f64(self.sum) / count_f64(self.count),
            max_ms: self.max,
            p50_ms: pcts[0],
            p95_ms: pcts[1],
            p99_ms: pcts[2],
            p999_ms: pcts[3],
        })
    }
}

/// A producer's failed records, grouped by exception class and setting in
/// the order they first happened (the [`Outcome::Failed`] of its track).
#[derive(Default)]
pub(super) struct ExceptionLog {
    named: Vec<NamedException>,
}

impl ExceptionLog {
    /// `n` records failed at `now` with `class` because `setting` (value
    /// `setting_ms`) ran out; `message` words the failure as Kafka does and
    /// is kept for the first one of its kind.
    pub(super) fn record(
        &mut self,
        class: &str,
        setting: &str,
        setting_ms: u64,
        n: u64,
        now: SimTime,
        message: impl FnOnce() -> String,
    ) {
        if let Some(e) = self
            .named
            .iter_mut()
            .find(|e| e.class == class && e.setting == setting)
        {
            e.count += n;
            return;
        }
        self.named.push(NamedException {
            class: class.to_owned(),
            count: n,
            first_at_ms: now.as_ms_f64(),
            setting: setting.to_owned(),
            setting_ms,
            message: message(),
        });
    }

    /// The outcome of a client that meant to send `records`, with `finished`
    /// telling whether it finished before the horizon.
    fn outcome(&self, records: u64, finished: bool) -> Outcome {
        if !self.named.is_empty() {
            return Outcome::Failed {
                records,
                failed_records: self.named.iter().map(|e| e.count).sum(),
                exceptions: self.named.clone(),
            };
        }
        if finished {
            Outcome::Completed
        } else {
            Outcome::Stopped
        }
    }
}

/// Records per second over `elapsed_ms`, 0 for an empty interval.
fn per_second(records: u64, elapsed_ms: i64) -> f64 {
    if elapsed_ms > 0 {
        count_f64(records) * 1000.0 / ms_f64(elapsed_ms)
    } else {
        0.0
    }
}

impl World {
    /// The track of `broker`'s sensor `sid` for `slot`, created on first
    /// use; `client` becomes one of its members.
    pub(super) fn track_for(
        &mut self,
        broker: BrokerId,
        slot: QuotaSlot,
        sid: SensorId,
        client: ClientId,
    ) -> TrackId {
        let key = SensorKey {
            broker,
            slot,
            sensor: sid.0,
        };
        if let Some(t) = self.track_index.get(&key) {
            let t = *t;
            let m = &mut self.tracks[t].members;
            if !m.contains(&client.0) {
                m.push(client.0);
            }
            return t;
        }
        let qt = slot.quota_type();
        let b = &self.brokers[broker].core;
        let Some(m) = b.manager(qt) else {
            return TrackId(0);
        };
        let s = m.sensor(sid);
        let window = m.window();
        let t = self.tracks.push(SensorTrack {
            broker: broker.0,
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
            members: vec![client.0],
            bound_changes: Vec::new(),
        });
        self.track_index.insert(key, t);
        t
    }

    /// The bound each track's sensor has now, by track.
    pub(super) fn track_bounds(&self) -> BTreeMap<TrackId, f64> {
        self.track_index
            .iter()
            .filter_map(|(key, t)| {
                let m = self.brokers[key.broker].core.manager(key.slot.quota_type())?;
                Some((*t, m.sensor(SensorId(key.sensor)).quota.bound()))
            })
            .collect()
    }

    /// Records on each track whose bound differs from `before` the change at `at_ms`.
    pub(super) fn note_bound_changes(&mut self, before: &BTreeMap<TrackId, f64>, at_ms: f64) {
        for (t, bound) in self.track_bounds() {
            if before.get(&t).is_some_and(|b| b.to_bits() != bound.to_bits()) {
                self.tracks[t].bound_changes.push(BoundChange { at_ms, bound });
            }
        }
    }

    /// Copies the sensor's current sample into its track.
    fn sync_sample_key(&mut self, track: TrackId, key: SensorKey) {
        let Some(m) = self.brokers[key.broker].core.manager(key.slot.quota_type()) else {
            return;
        };
        let rate = m.sensor(SensorId(key.sensor)).quota.rate();
        self.tracks[track].sync_current_sample(rate);
    }

    fn sensor_key(&self, conn: ConnectionId, slot: QuotaSlot) -> SensorKey {
        let c = &self.conns[conn];
        SensorKey {
            broker: c.broker,
            slot,
            sensor: slot.sensor(&c.session).map_or(0, |i| i.0),
        }
    }

    /// Records a quota decision on `conn`'s track for `slot`: the rate, and
    /// the throttle with the mute it caused (`mute` = from, to in ms).
    pub(super) fn record_admission(
        &mut self,
        conn: ConnectionId,
        slot: QuotaSlot,
        adm: Option<Admission>,
        applied: bool,
        mute: (f64, f64),
    ) {
        let Some(adm) = adm else { return };
        let Some(track) = self.conns[conn].tracks[slot.index()] else {
            return;
        };
        let client = self.conns[conn].client;
        // The broker's clock in whole ms, as Kafka's sensors read it.
        let at_ms = ms_f64(self.now.as_ms());
        let key = self.sensor_key(conn, slot);
        self.sync_sample_key(track, key);
        let t = &mut self.tracks[track];
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
            if below_series_cap(t.throttles.len()) {
                t.throttles.push(ThrottleEvent {
                    at_ms,
                    client: client.0,
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

    /// Copies the request-quota sensor of `c` after network-thread time.
    pub(super) fn sync_request_track(&mut self, c: ConnectionId) {
        if let Some(track) = self.conns[c].tracks[QuotaSlot::Request.index()] {
            let key = self.sensor_key(c, QuotaSlot::Request);
            self.sync_sample_key(track, key);
        }
    }

    /// The Timeline of the run so far.
    pub(super) fn finish(mut self, scenario: &Scenario) -> Timeline {
        let mut end = SimTime::ZERO;
        let mut hit_horizon = false;
        // A client that stopped at its stop_ms ended then.
        for f in self
            .producers
            .iter()
            .map(|p| p.finish.or(p.stopped))
            .chain(self.consumers.iter().map(|c| c.finish.or(c.stopped)))
        {
            match f {
                Some(f) => end = end.max(f),
                None => hit_horizon = true,
            }
        }
        if hit_horizon {
            end = end.max(self.now);
        }
        let end_ms = end.as_ms();
        // Final sample state of every sensor.
        let keys: Vec<(SensorKey, TrackId)> =
            self.track_index.iter().map(|(k, v)| (*k, *v)).collect();
        for (k, t) in keys {
            self.sync_sample_key(t, k);
        }
        let totals = self.cluster_totals();
        let markers = std::mem::take(&mut self.markers);
        let mut clients = Vec::new();
        for info in self.clients.take() {
            let track = match info.role {
                Role::Producer(p) => {
                    let pr = &mut self.producers[p];
                    let lat = pr.latency.summary();
                    let read_at = pr.finish.or(pr.stopped).unwrap_or(end).as_ms();
                    let elapsed_ms = read_at - pr.start.as_ms();
                    let perf = lat.map(|latency| PerfSummary {
                        windows: pr.latency.windows.clone(),
                        records: pr.acked,
                        elapsed_ms: elapsed_ms.max(1),
                        bytes: pr.latency.bytes_total,
                        latency,
                    });
                    ClientTrack {
                        name: info.name,
                        kind: ClientKind::Producer,
                        client_id: info.client_id,
                        principal: info.principal,
                        start_ms: pr.start.as_ms_f64(),
                        finish_ms: pr.finish.map(SimTime::as_ms_f64),
                        duration_ms: pr.finish.map(|f| (f - pr.start).as_ms_f64()),
                        outcome: pr.failures.outcome(pr.total, pr.finish.is_some()),
                        metrics: ClientMetrics {
                            throttle_time_avg: pr.throttle.avg(read_at),
                            throttle_time_max: pr.throttle.max(read_at),
                            record_retry_total: pr.retries,
                            record_error_total: pr.errors,
                            records_done: pr.acked,
                            bytes_done: pr.acked * u64::from(pr.value_bytes),
                            records_per_s: per_second(pr.acked, elapsed_ms),
                            blocked_ms_total: pr.blocked_total.as_ms_f64(),
                            buffer_used_max: pr.buffer_max,
                            requests: pr.requests,
                        },
                        latency: lat,
                        perf,
                        throttles: info.track_throttles,
                        responses: info.throttle_tally,
                        mutes: info.mutes,
                        blocked: info.blocked,
                        buffer: info.buffer,
                        progress: info.progress,
                        waits: Some(info.waits),
                        stop: info.stop,
                    }
                }
                Role::Consumer(ci) => {
                    let co = &mut self.consumers[ci];
                    let read_at = co.finish.or(co.stopped).unwrap_or(end).as_ms();
                    let elapsed_ms = read_at - co.start.as_ms();
                    ClientTrack {
                        name: info.name,
                        kind: ClientKind::Consumer,
                        client_id: info.client_id,
                        principal: info.principal,
                        start_ms: co.start.as_ms_f64(),
                        finish_ms: co.finish.map(SimTime::as_ms_f64),
                        duration_ms: co.finish.map(|f| (f - co.start).as_ms_f64()),
                        outcome: if co.finish.is_some() {
                            Outcome::Completed
                        } else {
                            Outcome::Stopped
                        },
                        metrics: ClientMetrics {
                            throttle_time_avg: co.throttle.avg(read_at),
                            throttle_time_max: co.throttle.max(read_at),
                            record_retry_total: 0,
                            record_error_total: 0,
                            records_done: co.consumed,
                            bytes_done: co.bytes,
                            records_per_s: per_second(co.consumed, elapsed_ms),
                            blocked_ms_total: 0.0,
                            buffer_used_max: 0,
                            requests: co.requests,
                        },
                        latency: None,
                        perf: None,
                        throttles: info.track_throttles,
                        responses: info.throttle_tally,
                        mutes: info.mutes,
                        blocked: info.blocked,
                        buffer: info.buffer,
                        progress: info.progress,
                        waits: Some(info.waits),
                        stop: info.stop,
                    }
                }
            };
            clients.push(track);
        }
        let brokers = self
            .brokers
            .iter_mut()
            .map(|b| BrokerTrack {
                id: b.core.id(),
                mbeans: b
                    .core
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
        let mut timeline = Timeline {
            scenario: scenario.name.clone(),
            seed: scenario.seed,
            end_ms: end.as_ms_f64(),
            hit_horizon,
            cut_short: false,
            events: self.events,
            sensors: self.tracks.into_vec(),
            clients,
            brokers,
            markers,
            totals,
            admin: Vec::new(),
            connects: Vec::new(),
        };
        timeline.close_series();
        timeline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 30: latencies past 17.5 minutes are counted to the second, so
    /// the histogram stays small however long a record waited; below, to
    /// the ms, as before.
    #[test]
    fn long_latencies_are_kept_to_the_second() {
        let mut r = LatencyRecorder::new();
        let at = |ms: u64| SimTime::from_ms(ms);
        // 10 records of 5 ms, 10 of 2,000,123 ms, 10 of 80,000,999 ms; then
        // one each side of the dense range's end.
        r.record_batch(10, at(0), SimSpan::ZERO, at(5), 1000);
        r.record_batch(10, at(0), SimSpan::ZERO, at(2_000_123), 1000);
        r.record_batch(10, at(1), SimSpan::ZERO, at(80_001_000), 1000);
        assert!(r.hist.len() <= 6, "{}", r.hist.len());
        // Just past the dense range: counted after every dense latency.
        r.record_batch(1, at(0), SimSpan::ZERO, at(u64::from(DENSE_LATENCY_MS)), 1000);
        assert_eq!(r.slow.keys().next(), Some(&DENSE_LATENCY_MS));
        r.record_batch(1, at(0), SimSpan::ZERO, at(u64::from(DENSE_LATENCY_MS) - 1), 1000);
        assert_eq!(r.hist.len(), DENSE_LATENCY_MS as usize);
        assert_eq!(r.slow.len(), 3);
        let s = r.summary().unwrap();
        assert_eq!(s.max_ms, 80_000_999, "the max is exact");
        assert_eq!(s.p50_ms, 2_000_000, "to the second");
        assert_eq!(s.p999_ms, 80_000_000);
        assert_eq!(r.count, 32);
    }
}
