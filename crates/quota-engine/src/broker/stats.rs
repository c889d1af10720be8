//! Client- and broker-side metric stats that are not quota rates: Kafka's
//! `Avg` and `Max` over sampled windows, and latency percentiles as
//! `kafka-producer-perf-test.sh` computes them.

use crate::metrics::QuotaWindow;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Slot {
    start_ms: i64,
    last_event_ms: i64,
    sum: f64,
    max: f64,
    count: i64,
}

impl Slot {
    fn new(at_ms: i64) -> Self {
        Slot {
            start_ms: at_ms,
            last_event_ms: at_ms,
            sum: 0.0,
            max: f64::NEG_INFINITY,
            count: 0,
        }
    }
}

/// Kafka's `Avg` and `Max` stats of one sensor, over `samples` windows of
/// `window_ms` (the client and broker metrics default is 2 x 30 s).
///
/// Follows `SampledStat.record` (advance to a new sample when the current one
/// is complete; a ring of `samples + 1` slots) and `purgeObsoleteSamples`
/// (reset samples whose last event is `samples * window` old). `avg` and
/// `max` read NaN when no sample holds an event, as Kafka's do.
///
/// Kafka: clients/src/main/java/org/apache/kafka/common/metrics/stats/{SampledStat,Avg,Max}.java.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowedAvgMax {
    window: QuotaWindow,
    current: u32,
    slots: Vec<Slot>,
}

impl WindowedAvgMax {
    /// An empty stat over `window`.
    pub fn new(window: QuotaWindow) -> Self {
        WindowedAvgMax {
            window,
            current: 0,
            slots: Vec::new(),
        }
    }

    /// Records `value` at `at_ms`.
    pub fn record(&mut self, at_ms: i64, value: f64) {
        if self.slots.is_empty() {
            self.slots.push(Slot::new(at_ms));
        }
        let idx = self.current as usize;
        let complete = at_ms - self.slots[idx].start_ms >= self.window.window_ms();
        let idx = if complete {
            let max_slots = self.window.samples() + 1;
            self.current = (self.current + 1) % max_slots;
            let i = self.current as usize;
            if i >= self.slots.len() {
                self.slots.push(Slot::new(at_ms));
            } else {
                self.slots[i] = Slot::new(at_ms);
            }
            i
        } else {
            idx
        };
        let s = &mut self.slots[idx];
        s.sum += value;
        if value > s.max {
            s.max = value;
        }
        s.count += 1;
        s.last_event_ms = at_ms;
    }

    fn purge(&mut self, at_ms: i64) {
        let expire = self.window.expire_age_ms();
        for s in &mut self.slots {
            if at_ms - s.last_event_ms >= expire {
                *s = Slot::new(at_ms);
            }
        }
    }

    /// Kafka's `Avg`: sum of the samples' values over their event count, NaN
    /// when there is none.
    pub fn avg(&mut self, at_ms: i64) -> f64 {
        self.purge(at_ms);
        let (sum, count) = self
            .slots
            .iter()
            .fold((0.0, 0i64), |(s, c), x| (s + x.sum, c + x.count));
        if count == 0 {
            f64::NAN
        } else {
            sum / count as f64
        }
    }

    /// Kafka's `Max`: the largest value in the live samples, NaN when none.
    pub fn max(&mut self, at_ms: i64) -> f64 {
        self.purge(at_ms);
        let (max, count) = self
            .slots
            .iter()
            .fold((f64::NEG_INFINITY, 0i64), |(m, c), x| {
                (if x.max > m { x.max } else { m }, c + x.count)
            });
        if count == 0 {
            f64::NAN
        } else {
            max
        }
    }
}

/// Percentiles the way `ProducerPerformance.Stats.percentiles` takes them
/// (sort, then the element at index `(int) (p * size)`), from a histogram:
/// `counts[ms]` = number of records with that latency in whole ms.
///
/// Returns one value per requested fraction; 0 when there is no record.
pub fn perf_percentiles(counts: &[u32], fractions: &[f64]) -> Vec<u32> {
    let size: u64 = counts.iter().map(|c| u64::from(*c)).sum();
    perf_percentiles_of((0u32..).zip(counts.iter().map(|c| u64::from(*c))), size, fractions)
}

/// [`perf_percentiles`] from `counts`, (latency ms, records) in latency
/// order (a dense histogram and a sparse tail alike), of `total` records.
pub fn perf_percentiles_of(
    counts: impl Iterator<Item = (u32, u64)> + Clone,
    total: u64,
    fractions: &[f64],
) -> Vec<u32> {
    fractions
        .iter()
        .map(|p| {
            if total == 0 {
                return 0;
            }
            let idx = ((p * total as f64) as u64).min(total - 1);
            let mut seen = 0u64;
            for (ms, c) in counts.clone() {
                seen += c;
                if seen > idx {
                    return ms;
                }
            }
            0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avg_and_max_are_nan_until_something_is_recorded() {
        let mut s = WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT);
        assert!(s.avg(0).is_nan());
        assert!(s.max(0).is_nan());
        s.record(0, 0.0);
        assert_eq!(s.avg(0), 0.0);
        assert_eq!(s.max(0), 0.0);
    }

    #[test]
    fn avg_and_max_follow_kafkas_samples() {
        let mut s = WindowedAvgMax::new(QuotaWindow::KAFKA_METRICS_DEFAULT);
        s.record(0, 10.0);
        s.record(1_000, 30.0);
        s.record(31_000, 2.0); // second sample
        assert_eq!(s.avg(31_000), 14.0);
        assert_eq!(s.max(31_000), 30.0);
        // 60 s after the first sample's last event it is purged.
        assert_eq!(s.avg(61_000), 2.0);
        assert_eq!(s.max(61_000), 2.0);
        // Everything expires eventually.
        assert!(s.avg(200_000).is_nan());
    }

    #[test]
    fn percentiles_use_the_truncated_index() {
        // Latencies 1..=10 ms once each: sorted index (int)(0.5 * 10) = 5 -> 6 ms.
        let mut h = vec![1u32; 11];
        h[0] = 0;
        assert_eq!(
            perf_percentiles(&h, &[0.5, 0.95, 0.99, 0.999]),
            vec![6, 10, 10, 10]
        );
        assert_eq!(perf_percentiles(&[], &[0.5]), vec![0]);
        assert_eq!(
            perf_percentiles(&[0, 3, 0, 1], &[0.0, 0.5, 0.75, 0.99]),
            vec![1, 1, 3, 3]
        );
    }
}
