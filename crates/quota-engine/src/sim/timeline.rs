//! The Timeline: everything a simulation run produced, computed at once and
//! bounded in size, for the UI to move a cursor over.

use serde::Serialize;

use crate::entity::QuotaType;
use crate::resolve::MetricTags;

/// Most points a [`Series`] keeps; beyond that it halves its resolution.
pub const SERIES_CAP: u32 = 2048;

/// A time series that keeps at most [`SERIES_CAP`] points while points are
/// pushed: when full it drops every other point and from then on keeps
/// every `stride`-th new point. The run's last point is always kept
/// (`Series::close`, so a finished series has at most `SERIES_CAP + 1`
/// points): a producer's progress ends at the records it had acknowledged,
/// not at the last point the stride happened to keep. Deterministic:
/// depends only on the pushed sequence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series<T> {
    /// The kept points, oldest first.
    pub points: Vec<T>,
    /// Keep one point out of `stride` pushed.
    pub stride: u32,
    #[serde(skip)]
    skipped: u32,
    /// The newest point pushed, if the stride did not keep it.
    #[serde(skip)]
    last_skipped: Option<T>,
}

impl<T> Default for Series<T> {
    fn default() -> Self {
        Series {
            points: Vec::new(),
            stride: 1,
            skipped: 0,
            last_skipped: None,
        }
    }
}

impl<T> Series<T> {
    /// A series read back with its kept points and stride (what the
    /// playground's wire form of a Timeline carries): it equals the series
    /// written except the count of points skipped since the last kept one,
    /// so no more points are to be pushed to it.
    pub fn read_back(points: Vec<T>, stride: u32) -> Self {
        Series { points, stride, skipped: 0, last_skipped: None }
    }

    /// Adds a point (kept or skipped according to the stride).
    pub fn push(&mut self, p: T) {
        self.skipped += 1;
        if self.skipped < self.stride {
            self.last_skipped = Some(p);
            return;
        }
        self.skipped = 0;
        self.last_skipped = None;
        if self.points.len() as u32 >= SERIES_CAP {
            let mut i = 0u32;
            self.points.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.stride *= 2;
        }
        self.points.push(p);
    }

    /// Ends the series: the newest point pushed is kept even if the stride
    /// skipped it, so the series ends at the run's last value.
    pub(crate) fn close(&mut self) {
        if let Some(p) = self.last_skipped.take() {
            self.points.push(p);
        }
    }
}

/// Everything one simulation run produced.
///
/// Every instant in it (`at_ms`, `start_ms`, `from_ms`, ...) is one type:
/// `f64` ms since the run started. What the broker's quota classes see
/// (samples, rate points, throttle decisions, bound changes) falls on the
/// whole ms Kafka's `Time.milliseconds()` gives them; what happens on the
/// wire and in the clients has sub-ms precision. Durations Kafka keeps as
/// integers (a throttle time, a window length) stay `i64` ms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    /// The scenario's name.
    pub scenario: String,
    /// The seed used.
    pub seed: u64,
    /// When the last client finished, or the horizon, or (a run
    /// [`Timeline::cut_short`]) the simulated time it was stopped at (ms).
    pub end_ms: f64,
    /// True when the horizon stopped the run before every client finished.
    pub hit_horizon: bool,
    /// True when the run was stopped before its end by whoever asked for
    /// it ([`crate::sim::simulate_with_progress`]: Ctrl-C in the CLI): the
    /// Timeline so far, to `end_ms`. Not written out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut_short: bool,
    /// Number of events processed (a measure of the work done).
    pub events: u64,
    /// One track per quota sensor (budget) per broker.
    pub sensors: Vec<SensorTrack>,
    /// One track per client.
    pub clients: Vec<ClientTrack>,
    /// One entry per broker: the MBeans at the end of the run.
    pub brokers: Vec<BrokerTrack>,
    /// The scenario's events as they happened, and clients stopping, for
    /// charts to draw (in time order; not written out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<EventMarker>,
    /// Cluster-wide totals per client and per budget beside the per-broker
    /// figures. Not written out for a one-broker run, where they equal that
    /// broker's own (so such a run's JSON and fingerprint are unchanged);
    /// the textbook network leaves it empty.
    #[serde(skip_serializing_if = "ClusterTotals::is_single_broker")]
    pub totals: ClusterTotals,
    /// One track per admin workload ([`crate::sim::admin`]): its requests,
    /// the controller's decisions and each topic's outcome. Not written out
    /// when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub admin: Vec<super::admin::AdminTrack>,
    /// One track per connects workload ([`crate::sim::connects`]): every
    /// connection attempt as the broker's acceptor decided it. Not written
    /// out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub connects: Vec<super::connects::ConnectsTrack>,
}

/// What an [`EventMarker`] marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// A `move_leader` event: a partition's leadership moved.
    MoveLeader,
    /// A `set_quota` event: a quota was set or removed on every broker.
    SetQuota,
    /// A client stopped at its `stop_ms`.
    ClientStop,
}

/// Something that happened at one time, for a chart to draw as a marker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventMarker {
    /// When (ms).
    pub at_ms: f64,
    /// What kind of thing.
    pub kind: MarkerKind,
    /// A sentence saying what happened, e.g. `Partition t-1 moves from broker 1 to broker 0.`
    pub text: String,
}

/// A sensor's bound changed during the run (a `set_quota` event).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BoundChange {
    /// When (ms).
    pub at_ms: f64,
    /// The new bound per second (`Long.MAX_VALUE` as f64 when no quota
    /// applies any more).
    #[serde(serialize_with = "crate::json_f64::serialize")]
    pub bound: f64,
}

/// How a client that stopped at its `stop_ms` ended.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClientStop {
    /// When it stopped (ms).
    pub at_ms: f64,
    /// Records not done: for a producer, records the application had not
    /// yet passed to `send()` when it closed (not counted in
    /// `record-error-total`: they were never sent; the records buffered or
    /// in flight then failed with `close(Duration.ZERO)`'s `KafkaException`
    /// and are in [`Outcome::Failed`]); for a consumer, records of its
    /// target not consumed.
    pub records_left: u64,
}

/// Cluster-wide totals: what each client moved and each budget metered,
/// per broker and summed over the cluster.
///
/// Bytes are counted as the quota managers record them: a produce request's
/// size (Kafka: `request.sizeInBytes` in `KafkaApis.handleProduceRequest`),
/// a fetch response's record bytes (0 for a throttled fetch, whose bytes are
/// taken back). Every limit stays per broker: a budget's cluster-wide total
/// can reach its bound times the number of brokers it meets.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ClusterTotals {
    /// Number of brokers.
    pub brokers: u32,
    /// One entry per client, in [`Timeline::clients`] order.
    pub clients: Vec<ClientTotals>,
    /// One entry per produce or fetch budget (quota type and metric tags),
    /// over every broker's sensor with those tags.
    pub budgets: Vec<BudgetTotals>,
}

impl ClusterTotals {
    /// True for a one-broker (or textbook) run: the totals are that
    /// broker's figures and are not written out.
    pub fn is_single_broker(&self) -> bool {
        self.brokers <= 1
    }
}

/// One client's bytes per broker and over the cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientTotals {
    /// Index in [`Timeline::clients`].
    pub client: u32,
    /// The connection name.
    pub name: String,
    /// Producer (bytes produced) or consumer (bytes fetched).
    pub kind: ClientKind,
    /// Bytes by broker id.
    pub bytes_by_broker: Vec<u64>,
    /// Bytes over the cluster.
    pub bytes: u64,
}

/// One budget's bytes per broker and over the cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetTotals {
    /// Produce or fetch.
    pub quota_type: QuotaType,
    /// The budget's metric tags.
    pub tags: MetricTags,
    /// The MBean each broker shows it under.
    pub mbean: String,
    /// Its sensor tracks (indices in [`Timeline::sensors`]), one per broker that metered it.
    pub sensors: Vec<u32>,
    /// Bytes recorded, by broker id.
    pub bytes_by_broker: Vec<u64>,
    /// Bytes recorded over the cluster.
    pub bytes: u64,
}

/// One completed or current sample of a quota rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SampleWindow {
    /// Sample start (ms).
    pub start_ms: f64,
    /// Time of its last record (ms).
    pub last_event_ms: f64,
    /// Sum recorded in it (bytes, or percent for the request quota).
    pub sum: f64,
    /// Records in it (negative "unrecords" count too, as in Kafka).
    pub events: i64,
}

/// The measured rate at one record.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatePoint {
    /// When (ms).
    pub at_ms: f64,
    /// The measured rate per second (the value compared with the bound).
    pub rate: f64,
    /// The window it was divided by (ms).
    pub window_ms: i64,
}

/// One throttle the broker applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThrottleEvent {
    /// When it was decided (ms).
    pub at_ms: f64,
    /// Index of the client in [`Timeline::clients`].
    pub client: u32,
    /// The throttle time (ms), after any cap.
    pub delay_ms: i64,
    /// The observed rate O (per second).
    pub observed: f64,
    /// The bound T (per second).
    #[serde(serialize_with = "crate::json_f64::serialize")]
    pub bound: f64,
    /// The window W (ms).
    pub window_ms: i64,
    /// True when this sensor's throttle was the one applied (the larger of
    /// bandwidth and request); false when the other quota's was larger.
    pub applied: bool,
    /// The channel was muted from here (ms)...
    pub mute_from_ms: f64,
    /// ...to here (ms).
    pub mute_to_ms: f64,
}

impl ThrottleEvent {
    /// The throttle formula with its numbers, e.g.
    /// `round((2100000 - 2000000) / 2000000 x 10000 ms) = 500 ms` or, for a
    /// request quota, `round((1.0066 - 1) / 1 x 11941 ms) = 79 ms`.
    ///
    /// O and T are in the sensor's unit (bytes/s, or percent of one thread
    /// for a request quota), which cancels out. Each is written with at least
    /// four significant digits, and with more decimals where fewer would not
    /// give back the shown result: computing the formula from the printed
    /// numbers rounds to the printed throttle time (unless a cap applied,
    /// which is then stated).
    ///
    /// Kafka: `QuotaUtils.throttleTime` (X = (O - T) / T * W),
    /// clients/src/main/java/org/apache/kafka/common/metrics/QuotaUtils.java.
    pub fn formula(&self) -> String {
        let window = self.window_ms as f64;
        let of = |o: f64, t: f64| crate::metrics::java_round((o - t) / t * window);
        let result = of(self.observed, self.bound);
        let mut decimals = decimals_for_significant(self.observed, 4);
        let (observed, bound) = loop {
            let o = format!("{:.*}", decimals as usize, self.observed);
            let t = format!("{:.*}", decimals as usize, self.bound);
            let reproduces = match (o.parse::<f64>(), t.parse::<f64>()) {
                (Ok(po), Ok(pt)) => of(po, pt) == result,
                _ => true,
            };
            if reproduces || decimals >= MAX_FORMULA_DECIMALS {
                break (trim_zeros(o), trim_zeros(t));
            }
            decimals += 1;
        };
        format!(
            "round(({observed} - {bound}) / {bound} x {} ms) = {result} ms{}",
            self.window_ms,
            if result != self.delay_ms {
                format!(", capped at {} ms", self.delay_ms)
            } else {
                String::new()
            }
        )
    }
}

/// The most decimals [`ThrottleEvent::formula`] writes.
const MAX_FORMULA_DECIMALS: u32 = 12;

/// Decimals that give `x` at least `digits` significant digits (0 for large
/// or non-finite values), at most [`MAX_FORMULA_DECIMALS`].
fn decimals_for_significant(x: f64, digits: i32) -> u32 {
    if !x.is_finite() || x == 0.0 {
        return 0;
    }
    let before_point = x.abs().log10().floor() as i32 + 1;
    (digits - before_point).clamp(0, MAX_FORMULA_DECIMALS as i32) as u32
}

/// `1.2500` -> `1.25`, `2.000` -> `2`; text without a decimal point is kept.
fn trim_zeros(s: String) -> String {
    if !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A quota sensor (one budget on one broker) over the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SensorTrack {
    /// Broker id.
    pub broker: u32,
    /// Quota type.
    pub quota_type: QuotaType,
    /// The budget's metric tags.
    pub tags: MetricTags,
    /// Kafka's sensor name, e.g. `Produce-:app`.
    pub sensor_name: String,
    /// The MBean, e.g. `kafka.server:type=Produce,client-id=app`.
    pub mbean: String,
    /// The quota bound per second (`Long.MAX_VALUE` as f64 when unlimited).
    #[serde(serialize_with = "crate::json_f64::serialize")]
    pub bound: f64,
    /// `quota.window.num`.
    pub samples_kept: u32,
    /// `quota.window.size.seconds` in ms.
    pub sample_window_ms: i64,
    /// Every sample started during the run, in order (capped at [`SERIES_CAP`]).
    pub samples: Vec<SampleWindow>,
    /// The measured rate after each record.
    pub rate: Series<RatePoint>,
    /// Every throttle decided on this sensor.
    pub throttles: Vec<ThrottleEvent>,
    /// Clients (indices) that drew on this budget.
    pub members: Vec<u32>,
    /// Later bounds, from `set_quota` events (`bound` is the one the sensor
    /// was created with); not written out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bound_changes: Vec<BoundChange>,
}

impl SensorTrack {
    /// Copies `rate`'s current sample (the sensor's `Rate`) into
    /// [`SensorTrack::samples`]: it replaces the last entry while the same
    /// sample is filling, and is appended (up to [`SERIES_CAP`]) when a new
    /// one started.
    pub(crate) fn sync_current_sample(&mut self, rate: &crate::metrics::WindowedRate) {
        let Some(cur) = usize::try_from(rate.current_index())
            .ok()
            .and_then(|i| rate.samples().get(i))
        else {
            return;
        };
        let sw = SampleWindow {
            start_ms: super::time::ms_f64(cur.start_ms),
            last_event_ms: super::time::ms_f64(cur.last_event_ms),
            sum: cur.value,
            events: cur.event_count,
        };
        match self.samples.last_mut() {
            Some(last) if last.start_ms == sw.start_ms => *last = sw,
            _ => {
                if u32::try_from(self.samples.len()).is_ok_and(|n| n < SERIES_CAP) {
                    self.samples.push(sw);
                }
            }
        }
    }

    /// The bound per second in force at `at_ms`: the last change at or
    /// before it, else the bound the sensor was created with.
    pub fn bound_at(&self, at_ms: f64) -> f64 {
        self.bound_changes
            .iter()
            .rev()
            .find(|c| c.at_ms <= at_ms)
            .map_or(self.bound, |c| c.bound)
    }
}

/// A time span (ms).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Span {
    /// Start (ms).
    pub from_ms: f64,
    /// End (ms).
    pub to_ms: f64,
}

/// The producer's buffer use at one time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BufferPoint {
    /// When (ms).
    pub at_ms: f64,
    /// Bytes of `buffer.memory` allocated to batches.
    pub used_bytes: u64,
}

/// Records done (acknowledged or consumed) by a time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProgressPoint {
    /// When (ms).
    pub at_ms: f64,
    /// Records done so far.
    pub records: u64,
}

/// A response's throttle as the client saw it, with the client's counts up
/// to it: a long run's [`Series`] keeps one response in `stride`, so
/// counting the kept points would undercount (by half once the stride is 2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClientThrottle {
    /// When the response arrived (ms).
    pub at_ms: f64,
    /// From which broker.
    pub broker: u32,
    /// `throttle_time_ms` in the response.
    pub throttle_ms: i64,
    /// Responses with a non-zero `throttle_time_ms` the client received so
    /// far, this one included.
    pub throttled_responses: u32,
    /// The largest `throttle_time_ms` so far (ms).
    pub throttle_max_ms: i64,
}

/// A client's tallies of the responses it received: over the whole run in
/// [`ClientTrack::responses`], and stamped on each [`ClientThrottle`] as
/// the run goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ResponseTally {
    /// Responses received (throttled or not; an `acks=0` produce gets none).
    pub responses: u64,
    /// Of them, those with a non-zero `throttle_time_ms`.
    pub throttled_responses: u64,
    /// The largest `throttle_time_ms` (ms; 0 without a response).
    pub throttle_max_ms: i64,
    /// The sum of every `throttle_time_ms` (ms).
    pub throttle_sum_ms: i64,
}

impl ResponseTally {
    /// Counts a response from `broker` at `at_ms` carrying `throttle_ms`,
    /// and returns its point.
    pub(crate) fn response(&mut self, at_ms: f64, broker: u32, throttle_ms: i64) -> ClientThrottle {
        self.responses += 1;
        if throttle_ms > 0 {
            self.throttled_responses += 1;
        }
        self.throttle_max_ms = self.throttle_max_ms.max(throttle_ms);
        self.throttle_sum_ms = self.throttle_sum_ms.saturating_add(throttle_ms);
        ClientThrottle {
            at_ms,
            broker,
            throttle_ms,
            throttled_responses: u32::try_from(self.throttled_responses).unwrap_or(u32::MAX),
            throttle_max_ms: self.throttle_max_ms,
        }
    }
}

/// The client metrics a Java client would report at the end of the run.
///
/// Kafka: `Sender.SenderMetrics` (producer-metrics), `FetchMetricsManager`
/// (consumer-fetch-manager-metrics); NaN where Kafka reads NaN (no sample).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClientMetrics {
    /// `produce-throttle-time-avg` (producers) or `fetch-throttle-time-avg` (consumers), ms.
    pub throttle_time_avg: f64,
    /// `produce-throttle-time-max` / `fetch-throttle-time-max`, ms.
    pub throttle_time_max: f64,
    /// `record-retry-total`.
    pub record_retry_total: u64,
    /// `record-error-total`.
    pub record_error_total: u64,
    /// Records acknowledged (producer) or consumed (consumer).
    pub records_done: u64,
    /// Bytes of record values acknowledged or consumed.
    pub bytes_done: u64,
    /// Records per second over the client's run.
    pub records_per_s: f64,
    /// Total time `send()` was blocked waiting for `buffer.memory` (ms).
    pub blocked_ms_total: f64,
    /// Largest `buffer.memory` use (bytes).
    pub buffer_used_max: u64,
    /// Requests sent.
    pub requests: u64,
}

/// Per-record latency summary (send() to acknowledgement), in whole ms as
/// `kafka-producer-perf-test.sh` measures it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatencySummary {
    /// Mean (ms).
    pub avg_ms: f64,
    /// Maximum (ms).
    pub max_ms: u32,
    /// 50th percentile (ms).
    pub p50_ms: u32,
    /// 95th percentile (ms).
    pub p95_ms: u32,
    /// 99th percentile (ms).
    pub p99_ms: u32,
    /// 99.9th percentile (ms).
    pub p999_ms: u32,
}

/// One periodic line of `kafka-producer-perf-test.sh`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PerfWindow {
    /// When the line was printed (ms).
    pub at_ms: f64,
    /// Records in the window.
    pub records: u64,
    /// Window length (ms).
    pub elapsed_ms: i64,
    /// Record bytes in the window.
    pub bytes: u64,
    /// Sum of latencies (ms).
    pub latency_sum_ms: u64,
    /// Max latency (ms).
    pub latency_max_ms: u32,
}

impl PerfWindow {
    /// The line as the tool prints it.
    ///
    /// Kafka: `ProducerPerformance.Stats.printWindow`, tools/src/main/java/org/apache/kafka/tools/ProducerPerformance.java.
    pub fn line(&self) -> String {
        let elapsed = self.elapsed_ms as f64;
        let rps = 1000.0 * self.records as f64 / elapsed;
        let mbps = 1000.0 * self.bytes as f64 / elapsed / (1024.0 * 1024.0);
        format!(
            "{} records sent, {:.1} records/sec ({:.2} MB/sec), {:.1} ms avg latency, {:.1} ms max latency.",
            self.records,
            rps,
            mbps,
            self.latency_sum_ms as f64 / self.records as f64,
            f64::from(self.latency_max_ms)
        )
    }
}

/// The `kafka-producer-perf-test.sh` view of a producer's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerfSummary {
    /// The periodic lines (every 5 s).
    pub windows: Vec<PerfWindow>,
    /// Records sent in total.
    pub records: u64,
    /// Total elapsed (ms).
    pub elapsed_ms: i64,
    /// Total record bytes.
    pub bytes: u64,
    /// Latency summary.
    pub latency: LatencySummary,
}

impl PerfSummary {
    /// The final line as the tool prints it: records/sec with six decimals
    /// (`%f`), as the lab's 4.3.1 run printed (`2465.078061 records/sec`);
    /// the 4.0 source still had `%.1f`.
    ///
    /// Kafka: `ProducerPerformance.Stats.printTotal`
    /// (`tools/src/main/java/org/apache/kafka/tools/ProducerPerformance.java`).
    pub fn total_line(&self) -> String {
        let elapsed = self.elapsed_ms as f64;
        let l = &self.latency;
        format!(
            "{} records sent, {:.6} records/sec ({:.2} MB/sec), {:.2} ms avg latency, {:.2} ms max latency, {} ms 50th, {} ms 95th, {} ms 99th, {} ms 99.9th.",
            self.records,
            1000.0 * self.records as f64 / elapsed,
            1000.0 * self.bytes as f64 / elapsed / (1024.0 * 1024.0),
            l.avg_ms,
            f64::from(l.max_ms),
            l.p50_ms,
            l.p95_ms,
            l.p99_ms,
            l.p999_ms
        )
    }

    /// Every line: the periodic ones, then the total.
    pub fn lines(&self) -> Vec<String> {
        let mut v: Vec<String> = self.windows.iter().map(PerfWindow::line).collect();
        v.push(self.total_line());
        v
    }
}

/// What kind of client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClientKind {
    /// A producer.
    Producer,
    /// A consumer.
    Consumer,
}

/// One client over the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientTrack {
    /// The connection name from the scenario.
    pub name: String,
    /// Producer or consumer.
    pub kind: ClientKind,
    /// `client.id`.
    pub client_id: String,
    /// The principal the broker derived (e.g. `User:ANONYMOUS`).
    pub principal: String,
    /// When the application started (ms).
    pub start_ms: f64,
    /// When the last record was acknowledged / consumed (ms), if it was.
    pub finish_ms: Option<f64>,
    /// `finish - start` (ms), if finished.
    pub duration_ms: Option<f64>,
    /// How the client's run ended; omitted from the JSON when it is
    /// [`Outcome::Completed`], so a run without failures serialises (and
    /// fingerprints) as it did before outcomes were named.
    #[serde(skip_serializing_if = "Outcome::is_completed")]
    pub outcome: Outcome,
    /// Client metrics at the end.
    pub metrics: ClientMetrics,
    /// Per-record latency (producers).
    pub latency: Option<LatencySummary>,
    /// The perf-test view (producers).
    pub perf: Option<PerfSummary>,
    /// Every response with its throttle time (0 included), capped.
    pub throttles: Series<ClientThrottle>,
    /// The tallies of every response of the run (the series may keep one
    /// in `stride`).
    pub responses: ResponseTally,
    /// Channel mute spans per broker the client was throttled on (the
    /// first [`SERIES_CAP`]: past them, [`ClientTrack::at`] reads "not
    /// muted").
    pub mutes: Vec<Span>,
    /// Spans where `send()` was blocked on `buffer.memory` (the first
    /// [`SERIES_CAP`]; past them [`ClientTrack::at`] reads "not blocked";
    /// the total is [`ClientMetrics::blocked_ms_total`]).
    pub blocked: Vec<Span>,
    /// `buffer.memory` use over time (producers).
    pub buffer: Series<BufferPoint>,
    /// Records done over time.
    pub progress: Series<ProgressPoint>,
    /// Where the client's requests waited (modelled network only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits: Option<RequestWaits>,
    /// When and how the client stopped at its `stop_ms`; not written out
    /// for a client without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<ClientStop>,
}

/// Where one client's requests waited on their way to the broker, summed
/// over the requests the broker read and those that failed with their
/// connection before it read them (a disconnect on `request.timeout.ms`,
/// or the client's close), counted until the connection dropped them (ms), and the most bytes the client had
/// written that the broker had not yet read.
///
/// A request is handed to the network client, written into the socket send
/// buffer (`send.buffer.bytes`) when there is room, crosses the wire into
/// the broker's receive buffer (`socket.receive.buffer.bytes`, whose window
/// bounds what is on the wire), and is read when the channel is neither busy
/// with an earlier request nor muted for a throttle. Kafka: `Selector`,
/// `KafkaChannel`, `SocketServer.Processor` (mute / unmute).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct RequestWaits {
    /// Requests the broker read, plus those dropped unread with their
    /// connection.
    pub requests: u64,
    /// Handed to the network client until written into the socket (waiting
    /// for send buffer space), ms.
    pub at_client_ms: f64,
    /// Written until its last byte reached the broker (send buffer, wire,
    /// receive window), ms.
    pub in_buffers_ms: f64,
    /// Arrived until read while an earlier request of the connection was in
    /// progress, ms.
    pub broker_queue_ms: f64,
    /// Arrived until read while the channel was muted for a throttle (the
    /// overlap with every mute of the channel, not only the last), ms.
    pub muted_ms: f64,
    /// The client's own back-off on `throttle_time_ms` (KIP-219 clients
    /// only; Kafka: `NetworkClient.maybeThrottle`): the time it sent
    /// nothing to a broker because a response told it to wait, ms (overlaps
    /// counted once per connection).
    pub backoff_ms: f64,
    /// The most bytes written by the client and not yet read by the broker
    /// on one connection (at most about `send.buffer.bytes` +
    /// `socket.receive.buffer.bytes` + one request).
    pub unread_bytes_max: u64,
}

/// How a client's run ended, as its application would see it.
///
/// Serialised with a `status` tag: `{"status": "failed", "records": 30000,
/// "failed_records": 8352, "exceptions": [...]}`, `{"status": "stopped"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Outcome {
    /// Every record was acknowledged (producer) or consumed (consumer).
    Completed,
    /// Records were lost: their callbacks (or `send()`) got an exception.
    /// The client may have finished (every record acknowledged or failed),
    /// been stopped by the horizon ([`ClientTrack::finish_ms`] tells), or
    /// been closed at its `stop_ms` with records buffered or in flight
    /// ([`ClientTrack::stop`] is then set).
    Failed {
        /// Records the application meant to send (the workload's `records`).
        records: u64,
        /// Records that failed: the sum of the exceptions' counts, equal to
        /// the producer's `record-error-total`.
        failed_records: u64,
        /// The failures, one entry per exception class and the setting that
        /// ran out, in the order they first happened.
        exceptions: Vec<NamedException>,
    },
    /// The client did not finish: the horizon ended the run, or its
    /// workload's `stop_ms` came first ([`ClientTrack::stop`] is then set);
    /// no record failed by then (a consumer, or a producer with nothing
    /// buffered or in flight when it was closed).
    Stopped,
}

impl Outcome {
    /// True for [`Outcome::Completed`] (the plain success).
    pub fn is_completed(&self) -> bool {
        matches!(self, Outcome::Completed)
    }

    /// True when records were lost ([`Outcome::Failed`]).
    pub fn is_failed(&self) -> bool {
        matches!(self, Outcome::Failed { .. })
    }

    /// Records that failed (0 unless [`Outcome::Failed`]).
    pub fn failed_records(&self) -> u64 {
        match self {
            Outcome::Failed { failed_records, .. } => *failed_records,
            _ => 0,
        }
    }

    /// The named exceptions (empty unless [`Outcome::Failed`]).
    pub fn exceptions(&self) -> &[NamedException] {
        match self {
            Outcome::Failed { exceptions, .. } => exceptions,
            _ => &[],
        }
    }
}

/// Records that failed with one exception because one setting ran out, as
/// the Java producer reports them to the application (the `send()` future /
/// callback).
///
/// Kafka (apache/kafka at 1eb7644349cb07139d6a3c1ad1986979647cac99):
/// - `delivery.timeout.ms`: `Sender.sendProducerData` fails each batch that
///   `RecordAccumulator.expiredBatches` / `Sender.getExpiredInflightBatches`
///   return with `org.apache.kafka.common.errors.TimeoutException("Expiring
///   N record(s) for topic-partition:X ms has passed since batch creation")`
///   (clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java);
/// - `max.block.ms` on `buffer.memory`: `BufferPool.allocate` throws
///   `org.apache.kafka.clients.producer.BufferExhaustedException` (a
///   subclass of `TimeoutException`) "Failed to allocate S bytes within the
///   configured max blocking time N ms. Total memory: M bytes. Available
///   memory: A bytes. Poolable size: P bytes"
///   (clients/src/main/java/org/apache/kafka/clients/producer/internals/BufferPool.java),
///   which `KafkaProducer.doSend` hands to the callback and counts in
///   `record-error-total`;
/// - `stop_ms`: the application closes the producer with
///   `close(Duration.ZERO)`; `Sender.forceClose` has
///   `RecordAccumulator.abortIncompleteBatches` abort every batch buffered
///   or in flight with `org.apache.kafka.common.KafkaException("Producer is
///   closed forcefully.")` (`abortBatches`, about line 1133 of
///   clients/src/main/java/org/apache/kafka/clients/producer/internals/RecordAccumulator.java);
///   `setting_ms` is the stop time;
/// - `max.request.size` / `buffer.memory`: `KafkaProducer.ensureValidRecordSize`
///   throws `org.apache.kafka.common.errors.RecordTooLargeException` "The
///   message is N bytes when serialized which is larger than M, which is the
///   value of the max.request.size configuration." (or "... larger than the
///   total memory buffer you have configured with the buffer.memory
///   configuration.") from every `send()` of a record whose size estimate
///   (`AbstractRecords.estimateSizeInBytesUpperBound`) is above it
///   (clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java);
///   `setting_ms` is then the limit in bytes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedException {
    /// The Java class, e.g. `org.apache.kafka.common.errors.TimeoutException`.
    pub class: String,
    /// Records that failed with it.
    pub count: u64,
    /// When the first of them failed (ms).
    pub first_at_ms: f64,
    /// The producer setting that ran out, e.g. `delivery.timeout.ms`, or
    /// the workload's `stop_ms`.
    pub setting: String,
    /// That setting's value (ms; bytes for a size setting such as
    /// `max.request.size`).
    pub setting_ms: u64,
    /// The message of the first failure, as Kafka words it.
    pub message: String,
}

impl NamedException {
    /// The class without its package, e.g. `TimeoutException`.
    pub fn short_class(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }

    /// True for `TimeoutException` and its subclass `BufferExhaustedException`.
    pub fn is_timeout(&self) -> bool {
        matches!(self.short_class(), "TimeoutException" | "BufferExhaustedException")
    }

    /// One line: `class: message (first at 12.345 s; setting=N)`.
    pub fn line(&self) -> String {
        format!(
            "{}: {} (first at {:.3} s; {}={})",
            self.class,
            self.message,
            self.first_at_ms / 1000.0,
            self.setting,
            self.setting_ms
        )
    }
}

/// One broker's MBean readings at the end of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokerTrack {
    /// Broker id.
    pub id: u32,
    /// `(mbean, attribute, value)` for every budget: `byte-rate`,
    /// `request-time`, `throttle-time` (NaN when nothing was throttled).
    pub mbeans: Vec<MBeanValue>,
}

/// One MBean attribute.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MBeanValue {
    /// e.g. `kafka.server:type=Produce,client-id=app`.
    pub mbean: String,
    /// e.g. `byte-rate`.
    pub attribute: String,
    /// The value; NaN serialises as `null`.
    pub value: f64,
}

impl Timeline {
    /// Ends every series of the run ([`Series::close`]): each keeps its
    /// last point. Called once by each simulation when it builds the
    /// Timeline.
    pub(crate) fn close_series(&mut self) {
        for s in &mut self.sensors {
            s.rate.close();
        }
        for c in &mut self.clients {
            c.throttles.close();
            c.buffer.close();
            c.progress.close();
        }
    }

    /// A stable 64-bit fingerprint: FNV-1a over the Timeline's canonical JSON
    /// (struct fields in declaration order, floats in shortest round-trip
    /// form). Equal on every platform for the same scenario and seed.
    pub fn fingerprint(&self) -> u64 {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        fnv1a64(&bytes)
    }

    /// The client track named `name`.
    pub fn client(&self, name: &str) -> Option<&ClientTrack> {
        self.clients.iter().find(|c| c.name == name)
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn series_stays_bounded_and_keeps_order() {
        let mut s = Series::default();
        for i in 0..10_000u32 {
            s.push(i);
        }
        assert!(s.points.len() as u32 <= SERIES_CAP);
        assert!(s.points.windows(2).all(|w| w[0] < w[1]));
        assert!(s.stride > 1);
        assert_eq!(s.points[0], 0);
    }

    #[test]
    fn perf_lines_match_the_tools_format() {
        let w = PerfWindow {
            at_ms: 5017.0,
            records: 22017,
            elapsed_ms: 5263,
            bytes: 22_017_000,
            latency_sum_ms: 2_604_611,
            latency_max_ms: 5017,
        };
        assert_eq!(
            w.line(),
            "22017 records sent, 4183.4 records/sec (3.99 MB/sec), 118.3 ms avg latency, 5017.0 ms max latency."
        );
    }

    #[test]
    fn total_line_has_the_shape_of_the_lab_run() {
        let summary = PerfSummary {
            windows: Vec::new(),
            records: 30_000,
            bytes: 30_000_000,
            elapsed_ms: 12_170,
            latency: LatencySummary { avg_ms: 3176.78, max_ms: 11892, p50_ms: 104, p95_ms: 11882, p99_ms: 11890, p999_ms: 11892 },
        };
        assert_eq!(
            summary.total_line(),
            "30000 records sent, 2465.078061 records/sec (2.35 MB/sec), 3176.78 ms avg latency, 11892.00 ms max latency, 104 ms 50th, 11882 ms 95th, 11890 ms 99th, 11892 ms 99.9th."
        );
    }

    fn event(observed: f64, bound: f64, window_ms: i64, delay_ms: i64) -> ThrottleEvent {
        ThrottleEvent {
            at_ms: 0.0,
            client: 0,
            delay_ms,
            observed,
            bound,
            window_ms,
            applied: true,
            mute_from_ms: 0.0,
            mute_to_ms: delay_ms as f64,
        }
    }

    /// The numbers of a formula as printed: (O, T, W, result).
    fn printed(formula: &str) -> (f64, f64, f64, i64) {
        let nums: Vec<f64> = formula
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|w| w.parse::<f64>().ok())
            .collect();
        (nums[0], nums[1], nums[3], nums[4] as i64)
    }

    #[test]
    fn throttle_formula_shows_its_numbers() {
        assert_eq!(
            event(2_100_000.0, 2_000_000.0, 10_000, 500).formula(),
            "round((2100000 - 2000000) / 2000000 x 10000 ms) = 500 ms"
        );
    }

    #[test]
    fn request_formula_has_enough_digits_to_check() {
        // The case a reader could not check: O = 1.0066 % printed as "1.0".
        let e = event(1.006_6, 1.0, 11_941, 79);
        assert_eq!(e.formula(), "round((1.0066 - 1) / 1 x 11941 ms) = 79 ms");
        let e = event(1.178_8, 1.0, 10_064, 1_000);
        assert_eq!(e.formula(), "round((1.1788 - 1) / 1 x 10064 ms) = 1799 ms, capped at 1000 ms");
    }

    #[test]
    fn small_rates_keep_four_significant_digits() {
        assert_eq!(event(0.012_345_6, 0.01, 1_000, 235).formula(), "round((0.01235 - 0.01) / 0.01 x 1000 ms) = 235 ms");
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Computing the formula from the printed numbers gives the printed result.
        #[test]
        fn printed_numbers_reproduce_the_result(
            bound in proptest::prop_oneof![0.01f64..100.0, 1_000.0f64..1e9],
            excess in 1e-6f64..0.5,
            window_ms in 1_000i64..30_000,
        ) {
            let observed = bound * (1.0 + excess);
            let raw = crate::metrics::java_round((observed - bound) / bound * window_ms as f64);
            let f = event(observed, bound, window_ms, raw).formula();
            let (o, t, w, shown) = printed(&f);
            proptest::prop_assert_eq!(shown, raw, "{}", f);
            proptest::prop_assert_eq!(crate::metrics::java_round((o - t) / t * w), raw, "{}", f);
            proptest::prop_assert!(!f.contains("capped"), "{}", f);
        }
    }
}

/// The most rows [`crate::sim::simulate_traced`] keeps (one million): a
/// longer run keeps its first requests and says it was capped
/// ([`TracedRun::capped`]), so a huge run cannot exhaust memory.
pub const TRACE_CAP: usize = 1_000_000;

/// Where one request waited before the broker read it (the per-request
/// terms of [`RequestWaits`]; the client's back-off is per connection, not
/// per request, and is not split here), ms.
///
/// Kafka: `Selector` / `KafkaChannel` (send buffer, one send at a time),
/// `SocketServer.Processor` (mute / unmute),
/// clients/src/main/java/org/apache/kafka/common/network/ and
/// core/src/main/scala/kafka/network/SocketServer.scala.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct RequestWait {
    /// Handed to the network client until written into the socket send
    /// buffer, ms.
    pub at_client_ms: f64,
    /// Written until its last byte reached the broker (send buffer, wire,
    /// receive window), ms.
    pub in_buffers_ms: f64,
    /// Arrived until read while an earlier request of the connection was
    /// in progress, ms.
    pub broker_queue_ms: f64,
    /// Arrived until read while the channel was muted for a throttle, ms.
    pub muted_ms: f64,
}

/// Which API a traced request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestApi {
    /// A `ProduceRequest` (Kafka: `KafkaApis.handleProduceRequest`).
    Produce,
    /// A `FetchRequest` (Kafka: `KafkaApis.handleFetchRequest`).
    Fetch,
}

/// One produce or fetch request of a modelled-network run, from the
/// client's send to the response's arrival: the modelled network's sibling
/// of the textbook's [`crate::sim::textbook::RequestTrace`]. Times are ms
/// from the start of the run as `f64` (the modelled clock is in ns, the
/// textbook's in whole ms); `None` where the request never got to that step
/// (the horizon ended the run, the connection dropped it, or an `acks=0`
/// produce, which gets no response). Bytes are on-the-wire sizes with
/// Kafka's framing, as the modelled network counts them.
///
/// Kafka: `NetworkClient` (send, `handleCompletedReceives`),
/// clients/src/main/java/org/apache/kafka/clients/NetworkClient.java;
/// `SocketServer.Processor`, `KafkaRequestHandler`, `ClientQuotaManager`
/// (core/src/main/scala/kafka/...).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelledRequest {
    /// The client's connection (scenario name).
    pub connection: String,
    /// Index of the client ([`Timeline::clients`], workload order).
    pub connection_index: u32,
    /// The broker the request went to.
    pub broker: u32,
    /// Produce or fetch.
    pub api: RequestApi,
    /// The request's number among its client's requests, from 1 (a retry
    /// is a new request).
    pub seq: u32,
    /// When the client handed it to the network client (ms).
    pub send_ms: f64,
    /// The request's size on the wire (bytes).
    pub request_bytes: u64,
    /// When its last byte was written into the socket send buffer (ms).
    pub written_ms: Option<f64>,
    /// When its last byte reached the broker (ms).
    pub arrival_ms: Option<f64>,
    /// When the broker read it off the channel and started it (ms); a
    /// fetch may then wait in the purgatory for `fetch.min.bytes`.
    pub start_ms: Option<f64>,
    /// When the handler thread completed it and it was recorded on the
    /// quotas (ms).
    pub record_ms: Option<f64>,
    /// Bytes recorded on the produce or fetch quota sensor: a produce's
    /// request size; a fetch's returned bytes, 0 when throttled (Kafka
    /// un-records them: `ClientQuotaManager.unrecordQuotaSensor`).
    pub bytes_recorded: u64,
    /// `throttle_time_ms` in the response (0 = not throttled; an `acks=0`
    /// produce has no response but its channel is muted all the same).
    pub throttle_ms: i64,
    /// The response's size on the wire (bytes; 0 for `acks=0`).
    pub response_bytes: u64,
    /// When the response reached the client (ms).
    pub response_received_ms: Option<f64>,
    /// Until when the broker muted the channel for the throttle: record +
    /// throttle (ms); `None` when not throttled. (The channel is also busy
    /// until the response is sent, which may be later.)
    pub mute_end_ms: Option<f64>,
    /// Where it waited before the broker read it; `None` when the broker
    /// had not read it (nor the connection dropped it) by the end.
    pub waits: Option<RequestWait>,
}

/// A modelled-network run with its per-request trace
/// ([`crate::sim::simulate_traced`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TracedRun {
    /// The run's Timeline, identical to [`crate::sim::simulate`]'s.
    pub timeline: Timeline,
    /// One row per produce or fetch request, in send order (at most
    /// [`TRACE_CAP`]).
    pub requests: Vec<ModelledRequest>,
    /// True when the run sent more than [`TRACE_CAP`] requests and only the
    /// first were kept.
    pub capped: bool,
}
