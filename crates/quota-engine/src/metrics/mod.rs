//! Measurement: Kafka's windowed rate, the token bucket, quota sensors and
//! throttle times, reproduced bit for bit (same order of floating-point
//! operations as Kafka's Java, same `long`/`int` arithmetic).
//!
//! - [`QuotaWindow`]: samples x window length (`quota.window.num` x
//!   `quota.window.size.seconds`), [`QuotaWindow::KAFKA_DEFAULT`] = 11 x 1000 ms.
//! - [`WindowedRate`]: Kafka's `Rate` over a `WindowedSum`, with its samples
//!   open for inspection ([`Sample`]).
//! - [`TokenBucket`]: Kafka's `TokenBucket` (controller mutations).
//! - [`RateSensor`] → [`Admission`]: record, then check against the bound,
//!   with the throttle time (`round((O - T) / T * W)`, optionally capped).
//! - [`MutationSensor`] → [`MutationAdmission`]: strict and permissive
//!   controller-mutation quotas.
//! - [`throttle_time_ms`], [`bounded_throttle_time_ms`],
//!   [`token_throttle_time_ms`], [`java_round`]: the formulas on their own.
//!
//! Nothing here reads a clock: every time is an `at_ms: i64` argument
//! (milliseconds, epoch-style or simulated). Reads (`measure`) mutate, as in
//! Kafka: they purge obsolete samples and refill buckets.
//!
//! Kafka: clients/src/main/java/org/apache/kafka/common/metrics/{Sensor,MetricConfig,Quota}.java,
//! clients/src/main/java/org/apache/kafka/common/metrics/stats/{Rate,SampledStat,WindowedSum,TokenBucket}.java,
//! server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java,
//! core/src/main/scala/kafka/server/ControllerMutationQuotaManager.scala.

mod config;
mod rate;
mod sensor;
mod throttle;
mod token_bucket;

pub use config::QuotaWindow;
pub use rate::{Sample, WindowedRate};
pub use sensor::{
    Admission, MutationAdmission, MutationMode, MutationSensor, RateSensor, ThrottleCap,
};
pub use throttle::{
    bounded_throttle_time_ms, java_round, long_to_int, throttle_time_ms, token_throttle_time_ms, UNLIMITED_BOUND,
};
pub use token_bucket::TokenBucket;
