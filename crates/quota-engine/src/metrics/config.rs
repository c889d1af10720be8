//! The sampling window a quota is measured over (its errors are [`crate::Error`]
//! of kind [`crate::ErrorKind::InvalidWindow`] and [`crate::ErrorKind::InvalidBound`]).

use crate::Error;

/// How a quota's rate is sampled: `samples` windows of `window_ms` each.
///
/// This is the part of Kafka's `MetricConfig` that quota sensors set: the
/// broker builds it from `quota.window.num` (samples, default 11) and
/// `quota.window.size.seconds` (default 1 s). The event-count window
/// (`MetricConfig.eventWindow`) is left at Kafka's default `Long.MAX_VALUE`,
/// which never completes a sample, so it is not modelled.
///
/// Kafka: `MetricConfig`, clients/src/main/java/org/apache/kafka/common/metrics/MetricConfig.java;
/// `ClientQuotaManager.getQuotaMetricConfig`, core/src/main/scala/kafka/server/ClientQuotaManager.scala.
///
/// # Example
///
/// ```
/// use quota_engine::metrics::QuotaWindow;
///
/// let w = QuotaWindow::try_new(5, 2000)?;
/// assert_eq!(w.samples(), 5);
/// assert_eq!(w.window_ms(), 2000);
/// assert_eq!(w.expire_age_ms(), 10_000);
/// assert_eq!(QuotaWindow::KAFKA_DEFAULT.samples(), 11);
/// # Ok::<(), quota_engine::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QuotaWindow {
    samples: u32,
    window_ms: i64,
}

impl QuotaWindow {
    /// The broker's quota window: 11 samples of 1000 ms
    /// (`quota.window.num` = 11, `quota.window.size.seconds` = 1).
    ///
    /// Kafka: `QuotaConfig.NUM_QUOTA_SAMPLES_DEFAULT`, `QUOTA_WINDOW_SIZE_SECONDS_DEFAULT`,
    /// server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java.
    pub const KAFKA_DEFAULT: QuotaWindow = QuotaWindow {
        samples: 11,
        window_ms: 1000,
    };

    /// The window of an ordinary Kafka metric (no quota): 2 samples of 30 000 ms
    /// (`metrics.num.samples` = 2, `metrics.sample.window.ms` = 30000). The
    /// controller-mutation sensor's `mutation-rate` uses it.
    ///
    /// Kafka: `MetricConfig()` defaults, clients/src/main/java/org/apache/kafka/common/metrics/MetricConfig.java.
    pub const KAFKA_METRICS_DEFAULT: QuotaWindow = QuotaWindow {
        samples: 2,
        window_ms: 30_000,
    };

    /// Builds a window of `samples` samples (at least 1, at most `i32::MAX`,
    /// Java's `int`) of `window_ms` milliseconds each (at least 1 ms).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidWindow`](crate::ErrorKind::InvalidWindow) when
    /// `samples` is 0 or above `i32::MAX`, when `window_ms < 1`, or when
    /// `samples * window_ms` (the purge age) does not fit in an `i64`.
    pub fn try_new(samples: u32, window_ms: i64) -> Result<Self, Error> {
        if samples == 0 || samples > i32::MAX as u32 {
            return Err(Error::samples_out_of_range(samples));
        }
        if window_ms < 1 {
            return Err(Error::window_out_of_range(window_ms));
        }
        if (samples as i64).checked_mul(window_ms).is_none() {
            return Err(Error::window_too_long(samples, window_ms));
        }
        Ok(QuotaWindow { samples, window_ms })
    }

    /// Number of samples (Kafka's `MetricConfig.samples()`, `quota.window.num`).
    pub const fn samples(&self) -> u32 {
        self.samples
    }

    /// Length of one sample window in milliseconds (`MetricConfig.timeWindowMs()`).
    pub const fn window_ms(&self) -> i64 {
        self.window_ms
    }

    /// The age in milliseconds at which a sample whose last event is that old
    /// is reset before a measurement: `samples * window_ms`.
    ///
    /// Kafka: `SampledStat.purgeObsoleteSamples`, clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java.
    pub const fn expire_age_ms(&self) -> i64 {
        self.samples as i64 * self.window_ms
    }

    /// The smallest window a rate is divided by once one sample exists:
    /// `(samples - 1) * window_ms`, at least 1 ms. This is what gives an idle
    /// client its burst allowance of about `samples - 1` seconds of quota
    /// (10 s by default).
    ///
    /// Kafka: `Rate.windowSize`, clients/src/main/java/org/apache/kafka/common/metrics/stats/Rate.java.
    pub const fn min_window_size_ms(&self) -> i64 {
        let padded = (self.samples as i64 - 1) * self.window_ms;
        if padded < 1 {
            1
        } else {
            padded
        }
    }
}

impl Default for QuotaWindow {
    /// [`QuotaWindow::KAFKA_DEFAULT`].
    fn default() -> Self {
        QuotaWindow::KAFKA_DEFAULT
    }
}


/// Checks the bound of a quota sensor: 0 or above, or `NaN`. `NaN` and
/// `Infinity` are quota values `kafka-configs.sh` and the broker's
/// validation accept (`Double.parseDouble`; `ClientQuotaControlManager`
/// refuses only values at or below 0), and the broker's sensor takes them
/// as they are: `Infinity` never throttles, and `NaN` fails every check
/// (`Quota.acceptable`: `value <= NaN` is false) with a throttle time of
/// `Math.round(NaN)` = 0 ms, so neither delays a client while both meter
/// it. A bound of 0 comes only from a `NaN` connection-rate quota, which
/// Kafka turns into the `Int` 0 (`Broker::accept_connection`): every
/// connection then exceeds it.
pub(crate) fn check_sensor_bound(bound: f64) -> Result<f64, Error> {
    if bound.is_nan() || bound >= 0.0 {
        Ok(bound)
    } else {
        Err(Error::bound_not_positive(bound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn rejects_bad_windows_with_sentences() {
        let e = QuotaWindow::try_new(0, 1000).unwrap_err();
        assert_eq!(e, Error::samples_out_of_range(0));
        assert_eq!(e.kind(), ErrorKind::InvalidWindow);
        assert!(e
            .to_string()
            .starts_with("The number of quota samples 0 is out of range"));
        let e = QuotaWindow::try_new(11, 0).unwrap_err();
        assert_eq!(e, Error::window_out_of_range(0));
        assert_eq!(
            e.to_string(),
            "The quota window of 0 ms is out of range: it must be at least 1 ms."
        );
        let e = QuotaWindow::try_new(3, i64::MAX / 2).unwrap_err();
        assert_eq!(e, Error::window_too_long(3, i64::MAX / 2));
        assert_eq!(e.kind(), ErrorKind::InvalidWindow);
        assert!(QuotaWindow::try_new(u32::MAX, 1).is_err());
        assert_eq!(check_sensor_bound(-1.0).unwrap_err().kind(), ErrorKind::InvalidBound);
        assert!(check_sensor_bound(f64::NEG_INFINITY).is_err());
        assert!(check_sensor_bound(f64::NAN).unwrap().is_nan());
        assert_eq!(check_sensor_bound(f64::INFINITY), Ok(f64::INFINITY));
        assert_eq!(check_sensor_bound(0.0), Ok(0.0));
        assert_eq!(check_sensor_bound(2.5), Ok(2.5));
    }

    #[test]
    fn padded_window_is_samples_minus_one_windows() {
        assert_eq!(QuotaWindow::KAFKA_DEFAULT.min_window_size_ms(), 10_000);
        assert_eq!(
            QuotaWindow::try_new(1, 1000).unwrap().min_window_size_ms(),
            1
        );
        assert_eq!(
            QuotaWindow::try_new(5, 2000).unwrap().min_window_size_ms(),
            8000
        );
    }
}
