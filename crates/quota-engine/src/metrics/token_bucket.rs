//! The token bucket behind the controller-mutation quota
//! (`controller_mutation_rate`).

use super::config::{check_sensor_bound, QuotaWindow};
use crate::Error;
use super::throttle::java_min;

/// A bucket of tokens (mutations) refilled at `rate_per_s` tokens per second
/// up to `burst = samples * window_s * rate_per_s`; records take tokens out
/// and may drive it below zero.
///
/// Rules, in Kafka's order:
/// - **refill** at `at`: `tokens = min(burst, tokens + rate * (at - last_update) / 1000.0)`,
///   then `last_update = at`.
/// - **record** `v`: refill, then `tokens = min(burst, tokens - v)` (a
///   negative `v` adds tokens, clamped).
/// - **measure**: refill, then the tokens.
///
/// A new bucket holds 0 tokens with `last_update_ms = 0`, so the first refill
/// adds `rate * at / 1000` tokens: with epoch-style times it starts full,
/// with a clock starting near 0 it starts (almost) empty. Changing the rate
/// does not touch the tokens until the next refill clamps them to the new
/// burst.
///
/// Kafka: `TokenBucket`, clients/src/main/java/org/apache/kafka/common/metrics/stats/TokenBucket.java.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::{QuotaWindow, TokenBucket};
///
/// let mut bucket = TokenBucket::try_new(QuotaWindow::KAFKA_DEFAULT, 10.0)?;
/// assert_eq!(bucket.burst(), 110.0);
/// bucket.record(1_700_000_000_000, 50.0);
/// assert_eq!(bucket.measure(1_700_000_000_000), 60.0);
/// # Ok::<(), quota_engine::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBucket {
    window: QuotaWindow,
    rate_per_s: f64,
    tokens: f64,
    last_update_ms: i64,
}

impl TokenBucket {
    /// An empty bucket (0 tokens, last update at 0 ms) refilled at
    /// `rate_per_s` tokens per second, with a burst of `window` worth of them.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound) when `rate_per_s` is below 0. `NaN`
    /// and `Infinity`, which Kafka's validation accepts for
    /// `controller_mutation_rate`, give the bucket Java's arithmetic: its
    /// tokens become `NaN`, never below 0, so it never throttles.
    pub fn try_new(window: QuotaWindow, rate_per_s: f64) -> Result<Self, Error> {
        Ok(TokenBucket {
            window,
            rate_per_s: check_sensor_bound(rate_per_s)?,
            tokens: 0.0,
            last_update_ms: 0,
        })
    }

    /// Kafka: `TokenBucket.burst`: `samples * (window_ms / 1000.0) * rate` tokens.
    pub fn burst(&self) -> f64 {
        self.window.samples() as f64 * (self.window.window_ms() as f64 / 1000.0) * self.rate_per_s
    }

    /// The refill rate in tokens per second (the quota bound).
    pub fn rate_per_s(&self) -> f64 {
        self.rate_per_s
    }

    /// The window the burst is derived from.
    pub fn window(&self) -> QuotaWindow {
        self.window
    }

    /// The tokens as of the last update, without refilling (may be negative).
    pub fn tokens(&self) -> f64 {
        self.tokens
    }

    /// Time of the last refill in ms (0 for a new bucket).
    pub fn last_update_ms(&self) -> i64 {
        self.last_update_ms
    }

    /// Changes the refill rate; the tokens are clamped to the new burst at the
    /// next refill (Kafka replaces the metric's config).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound) when `rate_per_s` is below 0; the
    /// bucket is left unchanged.
    pub fn set_rate(&mut self, rate_per_s: f64) -> Result<(), Error> {
        self.rate_per_s = check_sensor_bound(rate_per_s)?;
        Ok(())
    }

    /// Refills up to `at_ms` and returns the tokens (may be negative).
    ///
    /// Kafka: `TokenBucket.measure`.
    pub fn measure(&mut self, at_ms: i64) -> f64 {
        let burst = self.burst();
        self.refill(burst, at_ms);
        self.tokens
    }

    /// Refills up to `at_ms`, then takes `value` tokens out (clamped to the burst).
    ///
    /// Kafka: `TokenBucket.record`.
    pub fn record(&mut self, at_ms: i64, value: f64) {
        let burst = self.burst();
        self.refill(burst, at_ms);
        self.tokens = java_min(burst, self.tokens - value);
    }

    /// Kafka: `TokenBucket.refill` (`MetricsUtils.convert(ms, SECONDS)` is `ms / 1000.0`).
    fn refill(&mut self, burst: f64, at_ms: i64) {
        let elapsed_s = at_ms.wrapping_sub(self.last_update_ms) as f64 / 1000.0;
        self.tokens = java_min(burst, self.tokens + self.rate_per_s * elapsed_s);
        self.last_update_ms = at_ms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: i64 = 1_700_000_000_000;

    #[test]
    fn starts_full_on_an_epoch_clock_and_empty_near_zero() {
        let mut epoch = TokenBucket::try_new(QuotaWindow::KAFKA_DEFAULT, 10.0).unwrap();
        assert_eq!(epoch.measure(T0), 110.0);
        let mut zero = TokenBucket::try_new(QuotaWindow::KAFKA_DEFAULT, 10.0).unwrap();
        assert_eq!(zero.measure(0), 0.0);
        assert_eq!(zero.measure(3000), 30.0);
    }

    #[test]
    fn tokens_go_negative_and_refill_at_the_rate() {
        let mut b = TokenBucket::try_new(QuotaWindow::try_new(2, 1000).unwrap(), 10.0).unwrap();
        b.record(T0, 25.0);
        assert_eq!(b.tokens(), -5.0);
        assert_eq!(b.measure(T0 + 500), 0.0);
        assert_eq!(b.measure(T0 + 100_000), 20.0);
    }

    #[test]
    fn negative_records_add_tokens_up_to_the_burst() {
        let mut b = TokenBucket::try_new(QuotaWindow::try_new(2, 1000).unwrap(), 10.0).unwrap();
        b.record(T0, 15.0);
        b.record(T0, -100.0);
        assert_eq!(b.tokens(), 20.0);
    }

    #[test]
    fn lowering_the_rate_clamps_at_the_next_refill() {
        let mut b = TokenBucket::try_new(QuotaWindow::KAFKA_DEFAULT, 20.0).unwrap();
        b.record(T0, 10.0);
        b.set_rate(2.0).unwrap();
        assert_eq!(b.tokens(), 210.0);
        assert_eq!(b.measure(T0), 22.0);
        assert!(b.set_rate(-1.0).is_err());
        assert_eq!(b.rate_per_s(), 2.0);
    }

    proptest! {
        #[test]
        fn tokens_never_exceed_the_burst(
            rate in 0.1f64..1000.0,
            events in proptest::collection::vec((0i64..5000, -50.0f64..500.0), 1..100),
        ) {
            let mut b = TokenBucket::try_new(QuotaWindow::KAFKA_DEFAULT, rate).unwrap();
            let mut t = T0;
            for (gap, v) in events {
                t += gap;
                b.record(t, v);
                prop_assert!(b.tokens() <= b.burst());
                prop_assert!(b.measure(t) <= b.burst());
            }
        }
    }
}
