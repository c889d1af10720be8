//! The windowed rate: a ring of samples summed and divided by the elapsed
//! window, exactly as Kafka's `Rate` over a `WindowedSum` computes it.

use super::config::QuotaWindow;

/// Samples reserved up front; a larger ring grows while it first fills and
/// never again afterwards (the list holds at most `samples + 1` entries).
const RESERVED_SAMPLES: usize = 64;

/// One sample of a [`WindowedRate`]: the sum of the values recorded while it
/// was the current sample.
///
/// Kafka: `SampledStat.Sample`, clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// When the sample started (ms): the time of the record that opened it,
    /// or the time it was reset by a purge.
    pub start_ms: i64,
    /// The time of its last record (ms); equals `start_ms` after a reset.
    pub last_event_ms: i64,
    /// Sum of the values recorded in it (bytes for bandwidth quotas, percent
    /// of a thread for the request quota).
    pub value: f64,
    /// Number of records in it (Java `long`).
    pub event_count: i64,
}

impl Sample {
    fn new(at_ms: i64) -> Self {
        Sample {
            start_ms: at_ms,
            last_event_ms: at_ms,
            value: 0.0,
            event_count: 0,
        }
    }

    fn reset(&mut self, at_ms: i64) {
        *self = Sample::new(at_ms);
    }
}

/// A rate per second over a ring of `samples + 1` sample slots, the broker's
/// quota measurement (`Rate` with `TimeUnit.SECONDS` over a `WindowedSum`).
///
/// Rules, in Kafka's words and order:
/// - **record** adds the value to the current sample; if the current sample
///   is complete (`at - start >= window_ms`) the next slot is started at `at`
///   first (the ring has `samples + 1` slots; slots are created lazily, so the
///   list grows to `samples + 1` before wrapping).
/// - **measure** first *purges*: every sample whose last event is at least
///   `samples * window_ms` old is reset to start at `at` with value 0. Then it
///   sums the samples in list order and divides by the window size in seconds.
/// - **window size** is `at - start of the oldest sample`, padded up to
///   `samples - 1` whole windows when fewer have elapsed, and at least 1 ms.
///
/// Reading mutates: a purge moves reset samples' start to the read time, which
/// changes later results, and reading an empty rate creates its first sample.
/// Time is always an argument; it may go backwards (Kafka's arithmetic,
/// including truncating division and `int` narrowing, is reproduced).
///
/// Kafka: `Rate`, `SampledStat`, `WindowedSum`,
/// clients/src/main/java/org/apache/kafka/common/metrics/stats/{Rate,SampledStat,WindowedSum}.java.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::{QuotaWindow, WindowedRate};
///
/// let mut rate = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
/// let t0 = 1_700_000_000_000;
/// rate.record(t0, 9_000_000.0);
/// // One sample, padded to (11 - 1) windows of 1 s.
/// assert_eq!(rate.window_size_ms(t0), 10_000);
/// assert_eq!(rate.measure(t0), 900_000.0);
/// assert_eq!(rate.samples()[0].event_count, 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct WindowedRate {
    window: QuotaWindow,
    current: u32,
    samples: Vec<Sample>,
}

impl WindowedRate {
    /// An empty rate (no samples yet) measured over `window`.
    pub fn new(window: QuotaWindow) -> Self {
        let slots = (window.samples() as usize)
            .saturating_add(1)
            .min(RESERVED_SAMPLES);
        WindowedRate {
            window,
            current: 0,
            samples: Vec::with_capacity(slots),
        }
    }

    /// The window this rate is measured over.
    pub fn window(&self) -> QuotaWindow {
        self.window
    }

    /// Records `value` (bytes, percent, mutations...) at `at_ms`.
    ///
    /// Kafka: `SampledStat.record`, clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java.
    pub fn record(&mut self, at_ms: i64, value: f64) {
        self.ensure_first(at_ms);
        let mut index = self.current as usize;
        if self.is_complete(index, at_ms) {
            index = self.advance(at_ms);
        }
        let sample = &mut self.samples[index];
        sample.value += value;
        sample.event_count = sample.event_count.wrapping_add(1);
        sample.last_event_ms = at_ms;
    }

    /// The rate per second at `at_ms`: purge, sum of the samples, divided by
    /// [`window_size_ms`](Self::window_size_ms) in seconds (`ms / 1000.0`).
    /// Units are the recorded units per second (bytes/s for bandwidth).
    ///
    /// Kafka: `Rate.measure`, clients/src/main/java/org/apache/kafka/common/metrics/stats/Rate.java.
    pub fn measure(&mut self, at_ms: i64) -> f64 {
        self.measure_with_window(at_ms).0
    }

    /// The rate per second and the window (ms) it was divided by, from one
    /// measurement (the window is computed after the sum, as Kafka does).
    pub fn measure_with_window(&mut self, at_ms: i64) -> (f64, i64) {
        let sum = self.sum(at_ms);
        // Kafka purges again inside `windowSize`; a second purge at the same
        // time changes nothing (a sample reset at `at_ms` is 0 ms old), so it
        // is skipped.
        let window_ms = self.window_size_after_purge(at_ms);
        (sum / (window_ms as f64 / 1000.0), window_ms)
    }

    /// Purges obsolete samples at `at_ms` and returns the sum of all samples
    /// in list order (Kafka's `WindowedSum.combine`).
    ///
    /// Kafka: `SampledStat.measure`, `WindowedSum.combine`,
    /// clients/src/main/java/org/apache/kafka/common/metrics/stats/{SampledStat,WindowedSum}.java.
    pub fn sum(&mut self, at_ms: i64) -> f64 {
        self.purge_obsolete(at_ms);
        let mut total = 0.0;
        for s in &self.samples {
            total += s.value;
        }
        total
    }

    /// The window in ms the rate is divided by at `at_ms`: purge, then
    /// `at - oldest start`, padded to `samples - 1` whole windows, at least 1.
    ///
    /// Kafka: `Rate.windowSize`, clients/src/main/java/org/apache/kafka/common/metrics/stats/Rate.java.
    pub fn window_size_ms(&mut self, at_ms: i64) -> i64 {
        self.purge_obsolete(at_ms);
        self.window_size_after_purge(at_ms)
    }

    fn window_size_after_purge(&mut self, at_ms: i64) -> i64 {
        let window_ms = self.window.window_ms();
        let mut total_elapsed_ms = at_ms.wrapping_sub(self.oldest_start_ms(at_ms));
        // Java: `(int) (long / long)`, then `int` arithmetic.
        let num_full_windows = (total_elapsed_ms / window_ms) as i32;
        let min_full_windows = self.window.samples() as i32 - 1;
        if num_full_windows < min_full_windows {
            let missing = min_full_windows.wrapping_sub(num_full_windows) as i64;
            total_elapsed_ms = total_elapsed_ms.wrapping_add(missing.wrapping_mul(window_ms));
        }
        total_elapsed_ms.max(1)
    }

    /// Kafka's sample list in list order (at most `samples + 1` entries), for
    /// drawing and inspection. Empty before the first record or read.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Index in [`samples`](Self::samples) of the sample records go to.
    pub fn current_index(&self) -> u32 {
        self.current
    }

    /// Replaces the window (Kafka replaces the metric's `MetricConfig`; the
    /// samples are kept). A ring shrunk below the current list keeps its extra
    /// samples, as Kafka's list does.
    pub fn set_window(&mut self, window: QuotaWindow) {
        self.window = window;
    }

    /// Kafka: `SampledStat.current` creates the first sample lazily.
    fn ensure_first(&mut self, at_ms: i64) {
        if self.samples.is_empty() {
            self.samples.push(Sample::new(at_ms));
        }
    }

    /// Kafka: `Sample.isComplete` (the event-count window is `Long.MAX_VALUE`
    /// and never completes a sample; an event count cannot reach it).
    fn is_complete(&self, index: usize, at_ms: i64) -> bool {
        at_ms.wrapping_sub(self.samples[index].start_ms) >= self.window.window_ms()
    }

    /// Kafka: `SampledStat.advance`.
    fn advance(&mut self, at_ms: i64) -> usize {
        let max_samples = self.window.samples() as i64 + 1;
        self.current = ((self.current as i64 + 1) % max_samples) as u32;
        let index = self.current as usize;
        if index >= self.samples.len() {
            self.samples.push(Sample::new(at_ms));
            self.samples.len() - 1
        } else {
            self.samples[index].reset(at_ms);
            index
        }
    }

    /// Kafka: `SampledStat.oldest` (creates the first sample when empty; the
    /// first sample with the smallest start wins).
    fn oldest_start_ms(&mut self, at_ms: i64) -> i64 {
        self.ensure_first(at_ms);
        let mut oldest = self.samples[0].start_ms;
        for s in &self.samples[1..] {
            if s.start_ms < oldest {
                oldest = s.start_ms;
            }
        }
        oldest
    }

    /// Kafka: `SampledStat.purgeObsoleteSamples`.
    fn purge_obsolete(&mut self, at_ms: i64) {
        let expire_age_ms = self.window.expire_age_ms();
        for s in &mut self.samples {
            if at_ms.wrapping_sub(s.last_event_ms) >= expire_age_ms {
                s.reset(at_ms);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: i64 = 1_700_000_000_000;

    fn window(samples: u32, window_ms: i64) -> QuotaWindow {
        QuotaWindow::try_new(samples, window_ms).unwrap()
    }

    #[test]
    fn idle_client_gets_about_ten_windows_of_allowance() {
        let mut r = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
        // 10 x 1 000 000 B in the first millisecond: exactly 1 MB/s over the padded 10 s.
        for _ in 0..10 {
            r.record(T0, 1_000_000.0);
        }
        assert_eq!(r.measure(T0), 1_000_000.0);
        r.record(T0, 1.0);
        assert!(r.measure(T0) > 1_000_000.0);
    }

    #[test]
    fn samples_advance_at_the_window_boundary_and_wrap_after_samples_plus_one() {
        let mut r = WindowedRate::new(window(2, 1000));
        r.record(T0, 1.0);
        r.record(T0 + 999, 1.0);
        assert_eq!((r.current_index(), r.samples().len()), (0, 1));
        r.record(T0 + 1000, 1.0);
        assert_eq!((r.current_index(), r.samples().len()), (1, 2));
        assert_eq!(r.samples()[1].start_ms, T0 + 1000);
        r.record(T0 + 2000, 1.0);
        assert_eq!((r.current_index(), r.samples().len()), (2, 3));
        r.record(T0 + 3000, 5.0);
        // The ring has samples + 1 = 3 slots: slot 0 is reused.
        assert_eq!((r.current_index(), r.samples().len()), (0, 3));
        assert_eq!(
            r.samples()[0],
            Sample {
                start_ms: T0 + 3000,
                last_event_ms: T0 + 3000,
                value: 5.0,
                event_count: 1
            }
        );
    }

    #[test]
    fn purge_boundary_is_inclusive_at_samples_times_window() {
        let w = window(11, 1000);
        let mut kept = WindowedRate::new(w);
        kept.record(T0, 500.0);
        assert_eq!(kept.sum(T0 + 10_999), 500.0);
        let mut purged = WindowedRate::new(w);
        purged.record(T0, 500.0);
        assert_eq!(purged.sum(T0 + 11_000), 0.0);
        // The reset moved the sample's start to the read time.
        assert_eq!(purged.samples()[0].start_ms, T0 + 11_000);
        assert_eq!(purged.window_size_ms(T0 + 11_000), 10_000);
    }

    #[test]
    fn negative_values_drive_the_rate_below_zero() {
        let mut r = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
        r.record(T0, 1000.0);
        r.record(T0 + 1, -3000.0);
        assert_eq!(r.measure(T0 + 1), -2000.0 / 10.001);
    }

    #[test]
    fn time_going_backwards_neither_panics_nor_advances() {
        let mut r = WindowedRate::new(window(3, 100));
        r.record(T0, 10.0);
        r.record(T0 - 5, 10.0);
        assert_eq!(r.samples().len(), 1);
        assert_eq!(r.samples()[0].last_event_ms, T0 - 5);
        // Elapsed -5 ms: 0 full windows (truncated), padded by 2 windows.
        assert_eq!(r.window_size_ms(T0 - 5), 195);
        // Extreme times wrap like Java's long arithmetic instead of panicking.
        r.record(i64::MIN, 1.0);
        let _ = r.measure(i64::MAX);
    }

    #[test]
    fn reading_an_empty_rate_creates_its_first_sample() {
        let mut r = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
        assert_eq!(r.measure(T0), 0.0);
        assert_eq!(r.samples(), &[Sample::new(T0)]);
    }

    #[test]
    fn single_sample_window_floors_at_one_ms() {
        let mut r = WindowedRate::new(window(1, 1000));
        r.record(T0, 100.0);
        assert_eq!(r.window_size_ms(T0), 1);
        assert_eq!(r.measure(T0), 100_000.0);
    }

    #[test]
    fn steady_state_does_not_grow_the_sample_list() {
        let mut r = WindowedRate::new(QuotaWindow::KAFKA_DEFAULT);
        for i in 0..300_000i64 {
            r.record(T0 + i / 10, 1.0);
        }
        assert_eq!(r.samples().len(), 12);
        assert!(r.samples.capacity() <= RESERVED_SAMPLES);
    }

    proptest! {
        #[test]
        fn rate_never_negative_for_non_negative_records(
            samples in 1u32..40,
            window_ms in 1i64..5000,
            events in proptest::collection::vec((0i64..4000, 0.0f64..1e7), 1..200),
            reads in proptest::collection::vec(any::<bool>(), 200),
        ) {
            let mut r = WindowedRate::new(QuotaWindow::try_new(samples, window_ms).unwrap());
            let mut t = T0;
            for (i, (gap, v)) in events.iter().enumerate() {
                t += gap;
                r.record(t, *v);
                if reads[i] {
                    let (rate, w) = r.measure_with_window(t);
                    prop_assert!(rate >= 0.0, "rate {rate} at {t}");
                    prop_assert!(w >= 1);
                    prop_assert!(w >= QuotaWindow::try_new(samples, window_ms).unwrap().min_window_size_ms());
                }
                // The single-purge measurement equals Kafka's literal sequence
                // (`SampledStat.measure` then `Rate.windowSize`, purging twice).
                let mut literal = r.clone();
                let mut fast = r.clone();
                let at = t + gap / 2;
                let sum = literal.sum(at);
                let w = literal.window_size_ms(at);
                prop_assert_eq!(fast.measure_with_window(at), (sum / (w as f64 / 1000.0), w));
                prop_assert_eq!(&literal, &fast);
                prop_assert!(r.samples().len() <= samples as usize + 1);
                prop_assert!((r.current_index() as usize) < r.samples().len());
            }
        }
    }
}
