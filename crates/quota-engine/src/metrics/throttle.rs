//! Throttle times: how long a client is held back after a violation, and the
//! Java floating-point helpers the formulas depend on.

/// Kafka's bound for "no quota": `Long.MAX_VALUE` as a double
/// (9.223372036854776E18), what `ClientQuotaManager` uses when nothing applies.
pub const UNLIMITED_BOUND: f64 = i64::MAX as f64;

/// Java's `Math.round(double)`: the closest `long`, ties towards positive
/// infinity (`-2.5` gives `-2`, `0.49999999999999994` gives `0`); NaN gives
/// 0; values beyond the `long` range saturate at `i64::MIN` / `i64::MAX`.
///
/// Source: `java.lang.Math.round(double)` (JDK 17), which throttle times go through.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::java_round;
///
/// assert_eq!(java_round(998.5), 999);
/// assert_eq!(java_round(-2.5), -2);
/// assert_eq!(java_round(0.49999999999999994), 0);
/// assert_eq!(java_round(f64::NAN), 0);
/// assert_eq!(java_round(f64::INFINITY), i64::MAX);
/// ```
pub fn java_round(x: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let floor = x.floor();
    // `x - floor` is exact for every finite double: below 2^52 the fraction is
    // representable, above it `x` is already whole.
    let rounded = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    // `as` saturates, as Java does for out-of-range values.
    rounded as i64
}

/// Java's `Math.min(double, double)`: NaN wins, and `-0.0` is below `0.0`
/// (Rust's `f64::min` drops NaN instead).
///
/// Source: `java.lang.Math.min(double, double)`, used by `TokenBucket`.
pub(crate) fn java_min(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return a;
    }
    if a == 0.0 && b == 0.0 && b.is_sign_negative() {
        return b;
    }
    if a <= b {
        a
    } else {
        b
    }
}

/// Bandwidth throttle time in ms: `round((observed - bound) / bound * window_ms)`,
/// the delay that brings the observed rate back to the bound if nothing more
/// is recorded (`O * W / (W + X) = T`). Not capped; produce and fetch quotas
/// return it as it is. Negative when `observed < bound` (callers only ask
/// after a violation).
///
/// `observed` and `bound` are per second (bytes/s for bandwidth quotas);
/// `window_ms` is the window the rate was divided by ([`crate::metrics::WindowedRate::window_size_ms`]).
///
/// Kafka: `QuotaUtils.throttleTime`, server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::throttle_time_ms;
///
/// // 1 099 890.01 B/s observed over 10 001 ms against 1 000 000 B/s.
/// assert_eq!(throttle_time_ms(1099890.0109989003, 1_000_000.0, 10_001), 999);
/// ```
pub fn throttle_time_ms(observed: f64, bound: f64, window_ms: i64) -> i64 {
    let difference = observed - bound;
    java_round(difference / bound * window_ms as f64)
}

/// [`throttle_time_ms`] capped at `max_throttle_ms` (Kafka passes one quota
/// window: `quota.window.size.seconds * 1000`). Used by the request quota
/// (`request_percentage`) and the per-IP connection-creation rate.
///
/// Kafka: `QuotaUtils.boundedThrottleTime`, server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java.
pub fn bounded_throttle_time_ms(
    observed: f64,
    bound: f64,
    window_ms: i64,
    max_throttle_ms: i64,
) -> i64 {
    throttle_time_ms(observed, bound, window_ms).min(max_throttle_ms)
}

/// Token-bucket throttle time in ms: `round(-tokens / rate_per_s * 1000)`,
/// the time the bucket needs to refill from `tokens` (below zero) to zero.
///
/// Kafka: `ControllerMutationQuotaManager.throttleTimeMs`,
/// core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::token_throttle_time_ms;
///
/// assert_eq!(token_throttle_time_ms(-8.96, 2.0), 4480);
/// ```
pub fn token_throttle_time_ms(tokens: f64, rate_per_s: f64) -> i64 {
    java_round(-tokens / rate_per_s * 1000.0)
}

/// Scala's `Long.toInt` (Java's `(int)` cast): the low 32 bits of `value`,
/// so values above `i32::MAX` wrap, possibly to a negative number.
///
/// Kafka: `ClientQuotaManager.maybeRecordAndGetThrottleTimeMs` returns
/// `throttleTime(e, timeMs).toInt` (core/src/main/scala/kafka/server/ClientQuotaManager.scala).
///
/// ```
/// use quota_engine::metrics::long_to_int;
/// assert_eq!(long_to_int(999), 999);
/// assert_eq!(long_to_int(i64::from(i32::MAX) + 1), i32::MIN);
/// assert_eq!(long_to_int(4_294_967_296 + 5), 5);
/// ```
pub fn long_to_int(value: i64) -> i32 {
    // Truncation to the low 32 bits is exactly the JVM's l2i.
    value as i32
}

/// What `ControllerMutationQuota.throttleTime()` reports when read at the
/// time the throttle was computed: `max(0, ms)` narrowed to a Java `int`
/// (`.toInt`, which wraps above `i32::MAX`, about 24.8 days).
///
/// Kafka: `AbstractControllerMutationQuota.throttleTime`,
/// core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala.
pub(crate) fn controller_throttle_ms(ms: i64) -> i64 {
    ms.max(0) as i32 as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_round_matches_math_round_edge_cases() {
        // Values checked against JDK 17's Math.round.
        assert_eq!(java_round(0.5), 1);
        assert_eq!(java_round(-0.5), 0);
        assert_eq!(java_round(-1.5), -1);
        assert_eq!(java_round(1.5), 2);
        assert_eq!(java_round(-0.49999999999999994), 0);
        assert_eq!(java_round(0.49999999999999994), 0);
        assert_eq!(java_round(4503599627370495.5), 4503599627370496);
        assert_eq!(java_round(-4503599627370495.5), -4503599627370495);
        assert_eq!(java_round(9007199254740993.0), 9007199254740992);
        assert_eq!(java_round(1e300), i64::MAX);
        assert_eq!(java_round(-1e300), i64::MIN);
        assert_eq!(java_round(f64::NEG_INFINITY), i64::MIN);
        assert_eq!(java_round(-0.0), 0);
        assert_eq!(java_round(2.4999999999999996), 2);
    }

    #[test]
    fn java_min_keeps_nan_and_negative_zero() {
        assert!(java_min(f64::NAN, 1.0).is_nan());
        assert!(java_min(1.0, f64::NAN).is_nan());
        assert!(java_min(0.0, -0.0).is_sign_negative());
        assert!(java_min(-0.0, 0.0).is_sign_negative());
        assert_eq!(java_min(3.0, 2.0), 2.0);
    }

    #[test]
    fn throttle_formulas() {
        assert_eq!(throttle_time_ms(1500.0, 1000.0, 10_000), 5000);
        assert_eq!(bounded_throttle_time_ms(1500.0, 1000.0, 10_000, 1000), 1000);
        assert_eq!(bounded_throttle_time_ms(1010.0, 1000.0, 10_000, 1000), 100);
        assert_eq!(token_throttle_time_ms(-1.0, 10.0), 100);
        assert_eq!(token_throttle_time_ms(0.0, 10.0), 0);
        assert_eq!(controller_throttle_ms(-5), 0);
        assert_eq!(controller_throttle_ms(i32::MAX as i64 + 1), i32::MIN as i64);
    }
}
