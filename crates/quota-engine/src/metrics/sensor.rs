//! Quota sensors: record, then check the quota, and say what was decided.
//!
//! [`RateSensor`] is the broker's byte-rate / request / connection-rate quota
//! sensor; [`MutationSensor`] the controller-mutation one with its token bucket.

use super::config::{check_sensor_bound, QuotaWindow};
use crate::Error;
use super::rate::WindowedRate;
use super::throttle::{controller_throttle_ms, throttle_time_ms, token_throttle_time_ms};
use super::token_bucket::TokenBucket;

/// Whether a rate quota's throttle time is capped.
///
/// Kafka: produce and fetch quotas use `QuotaUtils.throttleTime` (uncapped);
/// the request quota and the per-IP connection-creation quota use
/// `QuotaUtils.boundedThrottleTime` with one quota window as the cap,
/// server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThrottleCap {
    /// `round((O - T) / T * W)` as it is (bandwidth quotas).
    Uncapped,
    /// At most `max_throttle_ms` (request and connection-rate quotas, where
    /// Kafka passes `quota.window.size.seconds * 1000`).
    AtMost {
        /// The cap in ms.
        max_throttle_ms: i64,
    },
}

impl ThrottleCap {
    /// The cap Kafka's request and connection quotas use: one sample window.
    pub const fn one_window(window: QuotaWindow) -> Self {
        ThrottleCap::AtMost {
            max_throttle_ms: window.window_ms(),
        }
    }

    /// Applies the cap to a throttle time in ms.
    pub fn apply(self, throttle_ms: i64) -> i64 {
        match self {
            ThrottleCap::Uncapped => throttle_ms,
            ThrottleCap::AtMost { max_throttle_ms } => throttle_ms.min(max_throttle_ms),
        }
    }
}

/// What a rate quota decided at one instant, with the numbers behind it.
///
/// `observed` and `bound` are per second in the recorded unit (bytes/s for
/// produce and fetch, percent of a thread for the request quota, connections/s
/// for the IP quota); `window_ms` is the window the rate was divided by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Admission {
    /// The measured rate is within the bound (`observed <= bound`; equal is accepted).
    Accepted {
        /// The measured rate per second.
        observed: f64,
        /// The quota bound per second.
        bound: f64,
        /// The window the rate was measured over (ms).
        window_ms: i64,
    },
    /// The measured rate is above the bound (Kafka throws
    /// `QuotaViolationException(value, bound)`); the client is held back for
    /// `throttle_ms`.
    Throttled {
        /// How long the client is throttled (ms), after the sensor's [`ThrottleCap`].
        throttle_ms: i64,
        /// The measured rate per second (`QuotaViolationException.value()`).
        observed: f64,
        /// The quota bound per second (`QuotaViolationException.bound()`).
        bound: f64,
        /// The window the rate was measured over (ms).
        window_ms: i64,
    },
}

impl Admission {
    /// True for [`Admission::Throttled`].
    pub fn is_throttled(&self) -> bool {
        matches!(self, Admission::Throttled { .. })
    }

    /// The throttle time in ms, 0 when accepted.
    pub fn throttle_ms(&self) -> i64 {
        match self {
            Admission::Accepted { .. } => 0,
            Admission::Throttled { throttle_ms, .. } => *throttle_ms,
        }
    }

    /// The measured rate per second.
    pub fn observed(&self) -> f64 {
        match self {
            Admission::Accepted { observed, .. } | Admission::Throttled { observed, .. } => {
                *observed
            }
        }
    }

    /// The quota bound per second.
    pub fn bound(&self) -> f64 {
        match self {
            Admission::Accepted { bound, .. } | Admission::Throttled { bound, .. } => *bound,
        }
    }

    /// The window (ms) the rate was divided by.
    pub fn window_ms(&self) -> i64 {
        match self {
            Admission::Accepted { window_ms, .. } | Admission::Throttled { window_ms, .. } => {
                *window_ms
            }
        }
    }
}

/// A quota sensor over a [`WindowedRate`]: the broker's
/// `sensor.record(value, now, true)` followed by the throttle computation.
///
/// Kafka: `Sensor.record` / `Sensor.checkQuotas`,
/// clients/src/main/java/org/apache/kafka/common/metrics/Sensor.java;
/// `Quota.acceptable` (`value <= bound`), clients/.../metrics/Quota.java;
/// `QuotaUtils`, server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::{Admission, QuotaWindow, RateSensor};
///
/// let mut s = RateSensor::bandwidth(QuotaWindow::KAFKA_DEFAULT, 1_000_000.0)?;
/// let t0 = 1_700_000_000_000;
/// // An idle client may send ~10 s of quota at once...
/// assert!(!s.record(t0, 9_000_000.0).is_throttled());
/// // ...and is throttled once the padded 10 s window is over the bound.
/// let a = s.record(t0 + 1, 2_000_000.0);
/// assert_eq!(a.throttle_ms(), 999);
/// assert_eq!(a.window_ms(), 10_001);
/// # Ok::<(), quota_engine::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RateSensor {
    rate: WindowedRate,
    bound: f64,
    cap: ThrottleCap,
}

impl RateSensor {
    /// A sensor with an empty rate over `window`, quota `bound` per second
    /// and the given throttle cap.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound) when `bound` is below 0 (Kafka's
    /// "no quota" is [`crate::metrics::UNLIMITED_BOUND`]; 0 refuses everything). `NaN` and
    /// `Infinity`, which Kafka's validation accepts, make a sensor that meters
    /// and never delays: `Infinity` is never exceeded, and `NaN` fails every
    /// check with a throttle time of 0 ms (`Quota.acceptable`,
    /// `QuotaUtils.throttleTime`: `Math.round(NaN)` is 0).
    pub fn try_new(
        window: QuotaWindow,
        bound: f64,
        cap: ThrottleCap,
    ) -> Result<Self, Error> {
        Ok(RateSensor {
            rate: WindowedRate::new(window),
            bound: check_sensor_bound(bound)?,
            cap,
        })
    }

    /// A produce / fetch (bandwidth) quota sensor: throttle uncapped.
    ///
    /// # Errors
    ///
    /// As [`RateSensor::try_new`].
    pub fn bandwidth(window: QuotaWindow, bound_bytes_per_s: f64) -> Result<Self, Error> {
        Self::try_new(window, bound_bytes_per_s, ThrottleCap::Uncapped)
    }

    /// A request-quota (or connection-rate) sensor: throttle capped at one window.
    ///
    /// # Errors
    ///
    /// As [`RateSensor::try_new`].
    pub fn capped_at_one_window(window: QuotaWindow, bound: f64) -> Result<Self, Error> {
        Self::try_new(window, bound, ThrottleCap::one_window(window))
    }

    /// Records `value` at `at_ms`, then checks the quota (record first, then
    /// check: the value that crosses the bound is itself recorded).
    ///
    /// Kafka: `Sensor.record(value, timeMs, true)` then `QuotaUtils.throttleTime`.
    pub fn record(&mut self, at_ms: i64, value: f64) -> Admission {
        self.rate.record(at_ms, value);
        self.check(at_ms)
    }

    /// Records without checking (`Sensor.record(value, timeMs, false)`), e.g.
    /// the fetch path's "unrecord" of a throttled response's bytes with a
    /// negative value. Takes no measurement.
    pub fn record_unchecked(&mut self, at_ms: i64, value: f64) {
        self.rate.record(at_ms, value);
    }

    /// Measures the rate at `at_ms` and compares it with the bound.
    ///
    /// Kafka: `Sensor.checkQuotas(timeMs)`.
    pub fn check(&mut self, at_ms: i64) -> Admission {
        let (observed, window_ms) = self.rate.measure_with_window(at_ms);
        let bound = self.bound;
        // `Quota.acceptable`: upper bound, `value <= bound` (NaN violates).
        if observed <= bound {
            Admission::Accepted {
                observed,
                bound,
                window_ms,
            }
        } else {
            let throttle_ms = self.cap.apply(throttle_time_ms(observed, bound, window_ms));
            Admission::Throttled {
                throttle_ms,
                observed,
                bound,
                window_ms,
            }
        }
    }

    /// The rate per second at `at_ms` (a metric read: it purges, see [`WindowedRate`]).
    pub fn measure(&mut self, at_ms: i64) -> f64 {
        self.rate.measure(at_ms)
    }

    /// The window (ms) a measurement at `at_ms` divides by (purges too).
    pub fn window_size_ms(&mut self, at_ms: i64) -> i64 {
        self.rate.window_size_ms(at_ms)
    }

    /// Changes the quota bound on the live sensor; the samples are kept.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound); the sensor is left unchanged.
    pub fn set_quota(&mut self, bound: f64) -> Result<(), Error> {
        self.bound = check_sensor_bound(bound)?;
        Ok(())
    }

    /// The quota bound per second.
    pub fn bound(&self) -> f64 {
        self.bound
    }

    /// The throttle cap.
    pub fn cap(&self) -> ThrottleCap {
        self.cap
    }

    /// The underlying rate, for sample introspection.
    pub fn rate(&self) -> &WindowedRate {
        &self.rate
    }
}

/// How a controller mutation request meets an exhausted bucket.
///
/// Kafka: CreateTopics / CreatePartitions / DeleteTopics choose the mode by
/// request version (newer versions strict), `ControllerMutationQuotaManager.newQuotaFor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MutationMode {
    /// Check first: reject with `THROTTLING_QUOTA_EXCEEDED` while tokens < 0;
    /// otherwise accept any size.
    Strict,
    /// Record always, then throttle if the bucket went below 0.
    Permissive,
}

/// What the controller-mutation quota decided for one request.
/// `tokens` are the bucket's tokens after the request (may be negative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MutationAdmission {
    /// Recorded, no throttle.
    Accepted {
        /// Tokens left after recording.
        tokens: f64,
    },
    /// Permissive mode: recorded, but the bucket is below zero, so the client
    /// is throttled for `throttle_ms`.
    Throttled {
        /// `round(-tokens / rate * 1000)` (ms).
        throttle_ms: i64,
        /// Tokens after recording (below zero).
        tokens: f64,
        /// The refill rate (tokens per second, the quota bound).
        rate_per_s: f64,
    },
    /// Strict mode: the bucket was already below zero, nothing was recorded;
    /// the request fails with [`MutationAdmission::THROTTLING_QUOTA_EXCEEDED`].
    Rejected {
        /// `round(-tokens / rate * 1000)` (ms).
        throttle_ms: i64,
        /// Tokens at the check (below zero).
        tokens: f64,
        /// The refill rate (tokens per second, the quota bound).
        rate_per_s: f64,
    },
}

impl MutationAdmission {
    /// Kafka's error for a rejected request: `Errors.THROTTLING_QUOTA_EXCEEDED`.
    pub const THROTTLING_QUOTA_EXCEEDED: &'static str = "THROTTLING_QUOTA_EXCEEDED";
    /// Its error code (89).
    pub const THROTTLING_QUOTA_EXCEEDED_CODE: i16 = 89;
    /// Its message.
    pub const THROTTLING_QUOTA_EXCEEDED_MESSAGE: &'static str =
        "The throttling quota has been exceeded.";

    /// True unless [`MutationAdmission::Rejected`].
    pub fn is_accepted(&self) -> bool {
        !matches!(self, MutationAdmission::Rejected { .. })
    }

    /// The throttle time in ms, 0 when accepted without throttle.
    pub fn throttle_ms(&self) -> i64 {
        match self {
            MutationAdmission::Accepted { .. } => 0,
            MutationAdmission::Throttled { throttle_ms, .. }
            | MutationAdmission::Rejected { throttle_ms, .. } => *throttle_ms,
        }
    }

    /// The tokens after the request.
    pub fn tokens(&self) -> f64 {
        match self {
            MutationAdmission::Accepted { tokens }
            | MutationAdmission::Throttled { tokens, .. }
            | MutationAdmission::Rejected { tokens, .. } => *tokens,
        }
    }
}

/// The controller-mutation quota sensor: a `mutation-rate` [`WindowedRate`]
/// (no quota, informational) and a `tokens` [`TokenBucket`] carrying the quota.
///
/// Kafka: `ControllerMutationQuotaManager.registerQuotaMetrics`,
/// `StrictControllerMutationQuota.record`, `PermissiveControllerMutationQuota.record`,
/// `AbstractControllerMutationQuota.throttleTime`,
/// core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala
/// (newer Kafka has the same logic in Java under server/.../quota/).
///
/// # Example
///
/// ```
/// use quota_engine::metrics::{MutationAdmission, MutationMode, MutationSensor, QuotaWindow};
///
/// let mut s = MutationSensor::try_new(QuotaWindow::KAFKA_DEFAULT, 10.0)?;
/// let t0 = 1_700_000_000_000;
/// // A full bucket (110 tokens) accepts any request size in strict mode...
/// assert!(s.record(MutationMode::Strict, t0, 150.0).is_accepted());
/// // ...then rejects until refilled: -40 tokens at 10/s is 4 s.
/// let a = s.record(MutationMode::Strict, t0, 1.0);
/// assert_eq!(a.throttle_ms(), 4000);
/// assert!(!a.is_accepted());
/// # Ok::<(), quota_engine::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MutationSensor {
    mutation_rate: WindowedRate,
    bucket: TokenBucket,
}

impl MutationSensor {
    /// A sensor whose bucket refills at `rate_per_s` mutations per second with
    /// a burst of `window` worth of them; `mutation-rate` uses Kafka's plain
    /// metric window ([`QuotaWindow::KAFKA_METRICS_DEFAULT`]).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound) when `rate_per_s` is not finite and above 0.
    pub fn try_new(window: QuotaWindow, rate_per_s: f64) -> Result<Self, Error> {
        Ok(MutationSensor {
            mutation_rate: WindowedRate::new(QuotaWindow::KAFKA_METRICS_DEFAULT),
            bucket: TokenBucket::try_new(window, rate_per_s)?,
        })
    }

    /// One request of `mutations` partitions created or deleted at `at_ms`.
    ///
    /// Strict: check the bucket (refilled to `at_ms`); below zero → rejected,
    /// nothing recorded; otherwise record (any size). Permissive: record,
    /// then throttle if the bucket is below zero. Throttle times pass through
    /// `ControllerMutationQuota.throttleTime()` as read at `at_ms`
    /// (`max(0, ms)` as a Java `int`).
    pub fn record(&mut self, mode: MutationMode, at_ms: i64, mutations: f64) -> MutationAdmission {
        match mode {
            MutationMode::Strict => {
                let tokens = self.bucket.measure(at_ms);
                if tokens < 0.0 {
                    return self.violation(MutationMode::Strict, tokens);
                }
                self.record_unchecked(at_ms, mutations);
                MutationAdmission::Accepted {
                    tokens: self.bucket.tokens(),
                }
            }
            MutationMode::Permissive => {
                self.record_unchecked(at_ms, mutations);
                let tokens = self.bucket.measure(at_ms);
                if tokens < 0.0 {
                    self.violation(MutationMode::Permissive, tokens)
                } else {
                    MutationAdmission::Accepted { tokens }
                }
            }
        }
    }

    fn violation(&self, mode: MutationMode, tokens: f64) -> MutationAdmission {
        let rate_per_s = self.bucket.rate_per_s();
        let throttle_ms = controller_throttle_ms(token_throttle_time_ms(tokens, rate_per_s));
        match mode {
            MutationMode::Strict => MutationAdmission::Rejected {
                throttle_ms,
                tokens,
                rate_per_s,
            },
            MutationMode::Permissive => MutationAdmission::Throttled {
                throttle_ms,
                tokens,
                rate_per_s,
            },
        }
    }

    /// Gives the bucket a new quota (mutations/s): its tokens are kept and
    /// refilled at the new rate, up to the new burst, from their last update
    /// (Kafka: `ClientQuotaManager.updateQuotaMetricConfigs` replaces the
    /// `tokens` metric's config; `TokenBucket.measure`/`record` read it).
    ///
    /// # Errors
    ///
    /// As [`TokenBucket::set_rate`]; the bucket is left unchanged.
    pub fn set_rate(&mut self, rate_per_s: f64) -> Result<(), Error> {
        self.bucket.set_rate(rate_per_s)
    }

    /// Records into both stats without checking (`Sensor.record(v, t, false)`).
    pub fn record_unchecked(&mut self, at_ms: i64, mutations: f64) {
        self.mutation_rate.record(at_ms, mutations);
        self.bucket.record(at_ms, mutations);
    }

    /// The tokens at `at_ms` (a metric read of `tokens`: refills).
    pub fn tokens(&mut self, at_ms: i64) -> f64 {
        self.bucket.measure(at_ms)
    }

    /// The `mutation-rate` metric at `at_ms` (mutations per second).
    pub fn mutation_rate_per_s(&mut self, at_ms: i64) -> f64 {
        self.mutation_rate.measure(at_ms)
    }

    /// Changes the quota (refill rate) on the live sensor; the tokens are
    /// clamped to the new burst at the next refill.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidBound`](crate::ErrorKind::InvalidBound); the sensor is left unchanged.
    pub fn set_quota(&mut self, rate_per_s: f64) -> Result<(), Error> {
        self.bucket.set_rate(rate_per_s)
    }

    /// The token bucket, for inspection.
    pub fn bucket(&self) -> &TokenBucket {
        &self.bucket
    }

    /// The `mutation-rate` stat, for inspection.
    pub fn mutation_rate(&self) -> &WindowedRate {
        &self.mutation_rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: i64 = 1_700_000_000_000;

    #[test]
    fn a_nan_bound_fails_every_check_with_0_ms_and_infinity_none() {
        let w = QuotaWindow::KAFKA_DEFAULT;
        let mut nan = RateSensor::bandwidth(w, f64::NAN).unwrap();
        let a = nan.record(T0, 1.0);
        assert!(a.is_throttled());
        assert_eq!(a.throttle_ms(), 0);
        let mut inf = RateSensor::bandwidth(w, f64::INFINITY).unwrap();
        assert!(!inf.record(T0, 1e300).is_throttled());
        for bad in [-1.0, f64::NEG_INFINITY] {
            assert!(RateSensor::bandwidth(w, bad).is_err(), "{bad}");
            assert!(nan.set_quota(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn measured_equal_to_bound_is_accepted() {
        let mut s = RateSensor::bandwidth(QuotaWindow::KAFKA_DEFAULT, 1000.0).unwrap();
        let a = s.record(T0, 10_000.0);
        assert_eq!(
            a,
            Admission::Accepted {
                observed: 1000.0,
                bound: 1000.0,
                window_ms: 10_000
            }
        );
        let b = s.record(T0, 1.0);
        assert!(b.is_throttled());
        // 1 B over 10 s: 0.1 B/s above the bound, 0.1 / 1000 * 10 000 ms = 1 ms.
        assert_eq!(b.throttle_ms(), 1);
    }

    #[test]
    fn request_quota_caps_at_one_window_and_bandwidth_does_not() {
        let w = QuotaWindow::KAFKA_DEFAULT;
        let mut bw = RateSensor::bandwidth(w, 100.0).unwrap();
        let mut rq = RateSensor::capped_at_one_window(w, 100.0).unwrap();
        assert_eq!(bw.record(T0, 3000.0).throttle_ms(), 20_000);
        assert_eq!(rq.record(T0, 3000.0).throttle_ms(), 1000);
    }

    #[test]
    fn set_quota_keeps_the_samples() {
        let mut s = RateSensor::bandwidth(QuotaWindow::KAFKA_DEFAULT, 1000.0).unwrap();
        assert!(s.record(T0, 20_000.0).is_throttled());
        s.set_quota(5000.0).unwrap();
        assert_eq!(
            s.check(T0),
            Admission::Accepted {
                observed: 2000.0,
                bound: 5000.0,
                window_ms: 10_000
            }
        );
        assert!(s.set_quota(-1.0).is_err());
        assert_eq!(s.bound(), 5000.0);
    }

    #[test]
    fn unchecked_records_take_no_measurement() {
        let mut s = RateSensor::bandwidth(QuotaWindow::KAFKA_DEFAULT, 1000.0).unwrap();
        s.record(T0, 100.0);
        s.record_unchecked(T0 + 20_000, -100.0);
        // No purge happened: the first sample is still there with its value.
        assert_eq!(s.rate().samples()[0].value, 100.0);
    }

    #[test]
    fn permissive_records_then_throttles_strict_rejects_without_recording() {
        let w = QuotaWindow::try_new(2, 1000).unwrap();
        let mut p = MutationSensor::try_new(w, 10.0).unwrap();
        let mut s = MutationSensor::try_new(w, 10.0).unwrap();
        // Buckets start full (20 tokens) on an epoch clock.
        assert_eq!(
            p.record(MutationMode::Permissive, T0, 25.0),
            MutationAdmission::Throttled {
                throttle_ms: 500,
                tokens: -5.0,
                rate_per_s: 10.0
            }
        );
        assert_eq!(
            s.record(MutationMode::Strict, T0, 25.0),
            MutationAdmission::Accepted { tokens: -5.0 }
        );
        assert_eq!(
            s.record(MutationMode::Strict, T0 + 100, 1.0),
            MutationAdmission::Rejected {
                throttle_ms: 400,
                tokens: -4.0,
                rate_per_s: 10.0
            }
        );
        assert_eq!(s.tokens(T0 + 100), -4.0);
        // Exactly zero tokens is not a violation.
        assert!(s.record(MutationMode::Strict, T0 + 500, 1.0).is_accepted());
        assert_eq!(s.mutation_rate().samples()[0].value, 26.0);
    }

    proptest! {
        #[test]
        fn throttle_is_zero_unless_violated(
            bound in 1.0f64..1e7,
            events in proptest::collection::vec((0i64..3000, 0.0f64..2e6), 1..150),
        ) {
            let mut s = RateSensor::bandwidth(QuotaWindow::KAFKA_DEFAULT, bound).unwrap();
            let mut t = T0;
            for (gap, v) in events {
                t += gap;
                let a = s.record(t, v);
                match a {
                    Admission::Accepted { observed, bound, .. } => prop_assert!(observed <= bound),
                    Admission::Throttled { throttle_ms, observed, bound, window_ms } => {
                        prop_assert!(observed > bound);
                        prop_assert!(throttle_ms >= 0);
                        // Positive unless rounding swallows a tiny excess.
                        prop_assert_eq!(throttle_ms > 0, (observed - bound) / bound * window_ms as f64 >= 0.5);
                    }
                }
                // A throttle time above zero always means a violation.
                prop_assert!(a.throttle_ms() == 0 || a.is_throttled());
            }
        }

        #[test]
        fn strict_never_records_while_negative(
            rate in 0.5f64..100.0,
            events in proptest::collection::vec((0i64..2000, 0.0f64..300.0), 1..100),
        ) {
            let mut s = MutationSensor::try_new(QuotaWindow::KAFKA_DEFAULT, rate).unwrap();
            let mut t = T0;
            for (gap, v) in events {
                t += gap;
                let before = s.tokens(t);
                let a = s.record(MutationMode::Strict, t, v);
                prop_assert_eq!(a.is_accepted(), before >= 0.0);
                if !a.is_accepted() {
                    prop_assert_eq!(s.tokens(t), before);
                }
                prop_assert_eq!(a.throttle_ms() > 0, !a.is_accepted() && -before / rate * 1000.0 >= 0.5);
            }
        }
    }
}
