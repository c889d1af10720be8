//! A [`Timeline`] read at one instant (the playground's cursor): the
//! event times a transport steps through, the last point of a series, a
//! budget's rate and samples, and a client's state at a time in ms.
//!
//! The Timeline records what happened; these queries only read it back,
//! so what a view shows at `at_ms` is exactly what the run recorded by then.

use super::timeline::{ClientTrack, RatePoint, SensorTrack, Series, Span, Timeline, SERIES_CAP};
use crate::metrics::{QuotaWindow, WindowedRate};

impl Timeline {
    /// Times (ms) a transport's "step" stops at: throttle decisions, mute
    /// and blocking boundaries, client starts and finishes and perf-test
    /// lines, the [`Timeline::markers`] (scenario events, client stops),
    /// with 0 and [`Timeline::end_ms`]; sorted, unique (within half a ms).
    pub fn event_times(&self) -> Vec<f64> {
        let mut v: Vec<f64> = vec![0.0, self.end_ms];
        v.extend(self.markers.iter().map(|m| m.at_ms));
        for s in &self.sensors {
            v.extend(s.throttles.iter().map(|e| e.at_ms));
        }
        for c in &self.clients {
            v.push(c.start_ms);
            v.extend(c.finish_ms);
            for sp in c.mutes.iter().chain(&c.blocked) {
                v.push(sp.from_ms);
                v.push(sp.to_ms);
            }
            if let Some(p) = &c.perf {
                v.extend(p.windows.iter().map(|w| w.at_ms));
            }
        }
        v.retain(|x| x.is_finite() && *x >= 0.0 && *x <= self.end_ms);
        v.sort_unstable_by(f64::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 0.5);
        v
    }
}

/// The first of `times_ms` (sorted, from [`Timeline::event_times`]) after
/// `cursor_ms` by more than half a ms, or the last one (0 when empty).
pub fn next_event(times_ms: &[f64], cursor_ms: f64) -> f64 {
    times_ms
        .iter()
        .copied()
        .find(|t| *t > cursor_ms + 0.5)
        .unwrap_or_else(|| times_ms.last().copied().unwrap_or(0.0))
}

/// The last of `times_ms` (sorted) before `cursor_ms` by more than half a
/// ms, or 0.
pub fn prev_event(times_ms: &[f64], cursor_ms: f64) -> f64 {
    times_ms.iter().rev().copied().find(|t| *t < cursor_ms - 0.5).unwrap_or(0.0)
}

impl<T: Copy> Series<T> {
    /// The last point at or before `at_ms`, `time_ms` giving a point's time.
    pub fn last_before(&self, at_ms: f64, time_ms: impl Fn(&T) -> f64) -> Option<T> {
        let i = self.points.partition_point(|p| time_ms(p) <= at_ms);
        i.checked_sub(1).map(|i| self.points[i])
    }
}

/// One sample of a budget's quota window as it stands at an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleBar {
    /// Sample start (ms).
    pub start_ms: f64,
    /// What the sample holds at the instant (bytes, or percent).
    pub sum: f64,
    /// True for the sample still being filled at the instant.
    pub current: bool,
}

impl SensorTrack {
    /// The measured rate of this budget at `at_ms` (the last record at or before it).
    pub fn rate_at(&self, at_ms: f64) -> Option<RatePoint> {
        self.rate.last_before(at_ms, |p| p.at_ms)
    }

    /// What Kafka's `Rate.measure` returns for this budget at `at_ms`, as a
    /// read of the budget's rate metric then would (JMX, or the broker's
    /// next check): `(rate per second, window ms it was divided by)`, or
    /// `None` before the first record.
    ///
    /// Between two records the rate is not constant: the window it is
    /// divided by grows with the time since the oldest sample, and a sample
    /// whose last record is `quota.window.num` × `quota.window.size.seconds`
    /// old is purged, so the rate of an idle budget falls to 0. This
    /// replays the samples kept by then (the last `quota.window.num` + 1
    /// started, Kafka's ring) into Kafka's windowed rate
    /// ([`crate::metrics::WindowedRate`]) and measures it at `at_ms`. While
    /// the sample being filled at `at_ms` still receives records after it
    /// (the recorded sum is not yet its value then), it is the rate measured
    /// at the last record at or before `at_ms` ([`SensorTrack::rate_at`]),
    /// as it is for a run past the samples the track keeps ([`SERIES_CAP`]).
    ///
    /// Kafka: `Rate.measure`, `SampledStat.purgeObsoleteSamples`,
    /// clients/src/main/java/org/apache/kafka/common/metrics/stats/{Rate,SampledStat}.java.
    pub fn measured_at(&self, at_ms: f64) -> Option<(f64, i64)> {
        let last = self.rate_at(at_ms)?;
        let recorded = || Some((last.rate, last.window_ms));
        let Ok(window) = QuotaWindow::try_new(self.samples_kept, self.sample_window_ms) else {
            return recorded();
        };
        let (kept, filling) = self.ring_at(at_ms);
        // Past the samples the track keeps, the ring is not known.
        let capped = self.samples.len() as u32 >= SERIES_CAP && at_ms >= self.samples.last().map_or(0.0, |s| s.start_ms);
        if kept.is_empty() || filling || capped {
            return recorded();
        }
        let mut rate = WindowedRate::new(window);
        for s in kept {
            // Its start, then its sum at its last record: Kafka's sample.
            rate.record(s.start_ms as i64, 0.0);
            rate.record(s.last_event_ms as i64, s.sum);
        }
        Some(rate.measure_with_window(at_ms as i64))
    }

    /// Kafka's ring of samples at `at_ms`: the last `quota.window.num` + 1
    /// samples started by then (older ones were overwritten; obsolete ones
    /// among these are purged when measured), and whether the newest still
    /// receives records after `at_ms` (its recorded sum is not yet its
    /// value then). Shared by [`SensorTrack::measured_at`] and
    /// [`SensorTrack::samples_at`], so the rate and the bars read the same
    /// samples.
    fn ring_at(&self, at_ms: f64) -> (&[super::timeline::SampleWindow], bool) {
        let started = self.samples.partition_point(|s| s.start_ms <= at_ms);
        let kept = &self.samples[started.saturating_sub(self.samples_kept as usize + 1)..started];
        (kept, kept.last().is_some_and(|s| s.last_event_ms > at_ms))
    }

    /// The measured rate over the run as `(ms, rate per second)` points for
    /// a chart: each recorded point ([`SensorTrack::rate`]), and, where no
    /// record came for longer than a quarter of a sample, the rate Kafka
    /// would measure every quarter sample in between ([`SensorTrack::measured_at`])
    /// up to `end_ms`, at most 2048 such points (spread wider over a long run).
    pub fn rate_curve(&self, end_ms: f64) -> Vec<(f64, f64)> {
        let pts = &self.rate.points;
        let mut gaps: Vec<(f64, f64)> = pts.windows(2).map(|w| (w[0].at_ms, w[1].at_ms)).collect();
        if let Some(p) = pts.last() {
            gaps.push((p.at_ms, end_ms));
        }
        let quarter = (self.sample_window_ms as f64 / 4.0).max(1.0);
        let idle: f64 = gaps.iter().map(|(a, b)| b - a).filter(|d| *d > quarter).sum();
        let step = quarter.max(idle / 2048.0);
        let mut out = Vec::with_capacity(pts.len());
        for (i, p) in pts.iter().enumerate() {
            out.push((p.at_ms, p.rate));
            let (from, to) = gaps[i];
            if to - from <= quarter {
                continue;
            }
            let mut t = from + step;
            while t < to {
                if let Some((r, _)) = self.measured_at(t) {
                    out.push((t, r));
                }
                t += step;
            }
            if i + 1 == pts.len() {
                if let Some((r, _)) = self.measured_at(to) {
                    out.push((to, r));
                }
            }
        }
        out
    }

    /// The samples this budget's rate is computed over at `at_ms`, as
    /// Kafka's ring holds them then: of the last `quota.window.num` + 1
    /// samples started by then, those whose last record is less than
    /// `quota.window.num` × the sample length old (an older one is purged,
    /// `SampledStat.purgeObsoleteSamples`), the same samples
    /// [`SensorTrack::measured_at`] sums. A sample that still receives
    /// records after `at_ms` holds its sum so far, read back from the rate
    /// measured at the last record by then (rate × window = total).
    ///
    /// Kafka: `SampledStat.combine` over `Rate`'s samples
    /// (`clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java`).
    pub fn samples_at(&self, at_ms: f64) -> Vec<SampleBar> {
        let at = at_ms;
        let size = self.sample_window_ms as f64;
        let span = size * f64::from(self.samples_kept);
        let (kept, filling) = self.ring_at(at);
        let mut bars: Vec<SampleBar> = kept
            .iter()
            .filter(|s| s.last_event_ms > at || at - s.last_event_ms < span)
            .map(|s| SampleBar {
                start_ms: s.start_ms,
                sum: s.sum,
                current: s.start_ms + size > at,
            })
            .collect();
        if filling {
            let others: f64 = bars.iter().rev().skip(1).map(|b| b.sum).sum();
            if let Some(cur) = bars.last_mut() {
                let total = self.rate_at(at).map(|r| r.rate * r.window_ms as f64 / 1000.0).unwrap_or(0.0);
                cur.sum = (total - others).clamp(0.0, cur.sum);
            }
        }
        bars
    }
}

/// A client's state at an instant.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientAt {
    /// Records done by then.
    pub records: u64,
    /// `finish - start` (ms) when finished by then.
    pub duration_ms: Option<f64>,
    /// Muted by a broker at the instant.
    pub muted: bool,
    /// `send()` blocked at the instant.
    pub blocked: bool,
    /// Buffer use at the instant (producers).
    pub buffer_bytes: u64,
    /// The largest throttle seen in a response by then (ms), as of the
    /// last response the series kept by then (exact at each kept point; a
    /// long run keeps one response in `stride`).
    pub throttle_max_ms: i64,
    /// Responses with a non-zero throttle by then, as of the last response
    /// kept by then (the same way).
    pub throttled_responses: u32,
}

impl ClientTrack {
    /// Where this client stands at `at_ms`.
    pub fn at(&self, at_ms: f64) -> ClientAt {
        let at = at_ms;
        let inside = |spans: &[Span]| spans.iter().any(|s| s.from_ms <= at && at < s.to_ms);
        // The tallies of the last response kept by then: exact at every
        // kept point, however long the run (the series keeps one response
        // in `stride`).
        let last = self.throttles.last_before(at, |p| p.at_ms);
        let (max, n) = last.map_or((0, 0), |p| (p.throttle_max_ms.max(0), p.throttled_responses));
        ClientAt {
            records: self.progress.last_before(at, |p| p.at_ms).map_or(0, |p| p.records),
            duration_ms: match (self.finish_ms, self.duration_ms) {
                (Some(f), Some(d)) if f <= at + 1e-9 => Some(d),
                _ => None,
            },
            muted: inside(&self.mutes),
            blocked: inside(&self.blocked),
            buffer_bytes: self.buffer.last_before(at, |p| p.at_ms).map_or(0, |p| p.used_bytes),
            throttle_max_ms: max,
            throttled_responses: n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::QuotaType;
    use crate::sim::{simulate, Scenario};

    /// The lab's scenario (the playground's default): a SASL/PLAIN producer
    /// as tenant-a under producer_byte_rate=2000000.
    fn lab() -> Scenario {
        serde_json::from_str(
            r#"{
  "name": "User quota for tenant-a",
  "seed": 1,
  "topics": [{"name": "lab", "partitions": 1}],
  "quotas": [
    {"entity": {"user": "tenant-a"}, "key": "producer_byte_rate", "value": 2000000},
    {"entity": {"user": "tenant-a"}, "key": "consumer_byte_rate", "value": 1000000}
  ],
  "connections": [
    {"name": "app", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-a", "client.id": "app-1"}
  ],
  "workloads": [{"producer": {"connection": "app", "topic": "lab", "records": 30000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}}]
}"#,
        )
        .unwrap()
    }

    #[test]
    fn cursor_views_follow_the_timeline() {
        let t = simulate(lab().validate().expect("a valid scenario")).unwrap();
        let times = t.event_times();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(next_event(&times, 0.0), times[1]);
        assert_eq!(prev_event(&times, times[2]), times[1]);
        let c = &t.clients[0];
        let start = c.at(0.0);
        let end = c.at(t.end_ms);
        assert_eq!(start.duration_ms, None);
        assert_eq!(end.records, 30_000);
        assert!(end.duration_ms.unwrap() > 10_000.0, "{:?}", end.duration_ms);
        let track = t.sensors.iter().find(|s| s.quota_type == QuotaType::Produce).unwrap();
        let mid = t.end_ms / 2.0;
        let bars = track.samples_at(mid);
        assert!(bars.len() as u32 <= track.samples_kept + 1);
        assert_eq!(bars.iter().filter(|b| b.current).count(), 1);
        // The bars add up to what the rate was computed from.
        let r = track.rate_at(mid).unwrap();
        let total: f64 = bars.iter().map(|b| b.sum).sum();
        assert!((total - r.rate * r.window_ms as f64 / 1000.0).abs() < 1.0 + total * 1e-9);
    }

    #[test]
    fn measured_rate_between_records_is_what_kafka_would_measure_and_falls_to_zero() {
        let mut s = lab();
        // The run goes on 30 s after the producer is done.
        s.horizon_ms = 60_000;
        // A second client of tenant-a's (one budget) sends one record at 45 s.
        s.connections.push(serde_json::from_str(r#"{"name": "late", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-a", "client.id": "app-2"}"#).unwrap());
        s.workloads.push(serde_json::from_str(r#"{"producer": {"connection": "late", "topic": "lab", "records": 1, "record.size": 1000, "start_ms": 45000, "config": {"acks": "1"}}}"#).unwrap());
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let track = t.sensors.iter().find(|s| s.quota_type == QuotaType::Produce).unwrap();
        let done = t.clients[0].finish_ms.unwrap();
        let last = track.rate_at(done).unwrap();
        // At the last record the replayed samples give the rate recorded then.
        assert_eq!(track.measured_at(last.at_ms), Some((last.rate, last.window_ms)));
        // Then, with no record, the rate falls as the window grows and old
        // samples are purged (the window then shrinks back towards 10 s)...
        let (a, wa) = track.measured_at(done + 2_000.0).unwrap();
        let (b, wb) = track.measured_at(done + 6_000.0).unwrap();
        assert!(a < last.rate && b < a, "{} {a} {b}", last.rate);
        assert!(wa > last.window_ms && wb >= 10_000, "{} {wa} {wb}", last.window_ms);
        // ... to 0 once the last sample is quota.window.num x 1 s old.
        assert_eq!(track.measured_at(done + 11_000.0).unwrap().0, 0.0);
        assert_eq!(track.measured_at(44_000.0).unwrap().0, 0.0);
        // The recorded series still says the rate of the last record.
        assert_eq!(track.rate_at(44_000.0).unwrap().rate, last.rate);
        // The chart's curve follows the measured rate in the gap: down to 0.
        let curve = track.rate_curve(t.end_ms);
        assert!(curve.windows(2).all(|w| w[0].0 <= w[1].0));
        let gap: Vec<(f64, f64)> = curve.iter().copied().filter(|(at, _)| *at > done && *at < 45_000.0).collect();
        assert!(gap.len() > 100, "{}", gap.len());
        assert!(gap[0].1 < last.rate);
        assert!(gap.iter().filter(|(at, _)| *at >= done + 11_000.0).all(|(_, r)| *r == 0.0), "{gap:?}");
        // Each point is Kafka's measurement with every sample of the run
        // replayed (the ring keeps the last quota.window.num + 1).
        for (at, r) in gap.iter().step_by(7) {
            let mut all = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
            for s in track.samples.iter().filter(|s| s.start_ms <= *at) {
                all.record(s.start_ms as i64, 0.0);
                all.record(s.last_event_ms as i64, s.sum);
            }
            assert_eq!(all.measure(*at as i64), *r, "at {at} ms");
        }
        // The quota window's bars are the samples measured_at sums.
        for at in [done + 500.0, done + 3_000.0, done + 9_000.0, done + 10_600.0, 30_000.0] {
            let (r, w) = track.measured_at(at).unwrap();
            let total: f64 = track.samples_at(at).iter().map(|b| b.sum).sum();
            assert!((total / (w as f64 / 1000.0) - r).abs() <= r * 1e-12, "at {at}: {total} / {w} ms vs {r}");
        }
        // At each sample's last record, the replay gives the rate recorded
        // then (Kafka measured it right after that record).
        for s in &track.samples {
            let p = track.rate_at(s.last_event_ms).unwrap();
            assert_eq!(p.at_ms, s.last_event_ms);
            assert_eq!(track.measured_at(s.last_event_ms), Some((p.rate, p.window_ms)), "at {} ms", s.last_event_ms);
        }
        // The one record at 45 s starts a fresh window: a small rate again.
        assert!(track.measured_at(45_500.0).unwrap().0 > 0.0);
    }
}
