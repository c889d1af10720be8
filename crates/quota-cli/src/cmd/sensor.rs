//! `kafka-quota sensor`: the bare measurements. Values recorded at given
//! times into a quota sensor, a windowed `Rate` (produce, fetch and request
//! quotas) or a `TokenBucket` (controller mutations), and what Kafka's
//! classes return for each record and read: the rate (`Rate.measure`) or the
//! tokens (`TokenBucket.measure`), whether `Sensor.record` throws
//! `QuotaViolationException`, and the throttle time with its formula's
//! numbers. `--json` prints the same as one document (docs/sensor.md).
//! `--set-quota` changes the quota during a run, as the broker does when a
//! quota is altered (`ClientQuotaManager.updateQuotaMetricConfigs` replaces the
//! metric's config; the samples or tokens are kept).
//!
//! Kafka (4.3.1): `Sensor.record` / `Sensor.checkQuotas`
//! (clients/src/main/java/org/apache/kafka/common/metrics/Sensor.java),
//! `Rate`, `SampledStat`, `TokenBucket`
//! (clients/src/main/java/org/apache/kafka/common/metrics/stats/),
//! `ClientQuotaManager.maybeRecordAndGetThrottleTimeMs` and `throttleTime`
//! (server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java),
//! `ClientRequestQuotaManager.throttleTime` (core/src/main/java/kafka/server/ClientRequestQuotaManager.java),
//! `QuotaUtils.throttleTime` / `boundedThrottleTime`
//! (server-common/src/main/java/org/apache/kafka/server/quota/QuotaUtils.java),
//! `StrictControllerMutationQuota`, `PermissiveControllerMutationQuota`,
//! `ControllerMutationQuotaManager.throttleTimeMs`
//! (server/src/main/java/org/apache/kafka/server/quota/).
//! The engine's `quota_engine::metrics` reproduces them; this module only
//! feeds them and reports.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use quota_engine::metrics::{
    bounded_throttle_time_ms, long_to_int, throttle_time_ms, Admission, MutationAdmission, MutationMode,
    MutationSensor, QuotaWindow, RateSensor, Sample,
};
use quota_engine::store::validate::validate_quota_key_value;
use quota_engine::{java_double_to_string, QuotaKey};
use serde_json::{json, Value};

use super::resolve::read_text;
use super::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

/// `sensor --help`: the output, the JSON document and the exit codes.
const AFTER_HELP: &str = "\
Times are milliseconds from the first record (0 or later; `250`, `250ms`, `1.5s`), on a broker \
clock that reads --clock-start-ms at time 0 (default 1700000000000, an epoch-style clock as a \
real broker's: a new TokenBucket holds 0 tokens last refilled at clock 0, so on such a clock it \
starts full; --clock-start-ms 0 shows one that starts empty). Times may go backwards: Kafka \
accepts that and computes with the negative elapsed time, and so does this command.

Each record is `Sensor.record(value, time, true)` as the broker calls it (TIME:VALUE:unchecked: \
`Sensor.record(value, time, false)`, no check, as the fetch path unrecords): for a rate, \
ClientQuotaManager.maybeRecordAndGetThrottleTimeMs (record, then check); for a token bucket, \
StrictControllerMutationQuota.record (check, then record; refused with THROTTLING_QUOTA_EXCEEDED) \
or PermissiveControllerMutationQuota.record (record, then check). Values are bytes for \
producer_byte_rate and consumer_byte_rate, thread time as Kafka records it for \
request_percentage (nanoseconds x 100 / 1e9: 5 ms of thread time is 0.5), and partitions \
(mutations) for controller_mutation_rate. A read (--at) is a metric read: like a JMX read \
it purges old samples of a rate and refills a bucket.

A quota change (--set-quota TIME:BOUND) is what the broker does when the quota is altered: \
ClientQuotaManager.updateQuotaMetricConfigs replaces the metric's config with the new bound. \
A rate keeps its samples and later checks compare with the new bound; a token bucket keeps its \
tokens, and its next refill (record or read) adds new bound x the seconds since the last refill \
and clamps to the new burst. The change measures nothing (its row shows what a read just after \
it would return, read from a copy); it comes after the records and reads at or before its time.

Output: one line of answer (how many records Kafka's sensor refuses and the longest \
throttle), a table with one row per record, read and quota change (rate and window, or tokens; \
the outcome; the throttle time), then why: each throttle's formula with its numbers.

--json prints one document: {format: \"kafka-quota/sensor\", version: 1, stat, quota_type, \
quota, samples, window_seconds, clock_start_ms, mode, burst, summary {records, violations, \
max_throttle_ms, max_throttle_at_ms}, rows: [{event: record|read|set_quota, at_ms, clock_ms, \
value, check, quota and burst (set_quota rows), rate, window_ms, sum, samples, tokens, \
mutation_rate, violation, accepted, throttle_ms, throttle {formula, ms, uncapped_ms, cap_ms}, \
backwards}]} (docs/sensor.md lists each field).

Exit codes: 0 answered; 1 a records file cannot be read or has a bad line (named with its \
line); 2 usage: a bad --record, --at, --quota, --set-quota or window (the message names the \
input and the reason).";

/// Which of Kafka's stats the sensor holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StatArg {
    /// A windowed `Rate` (`SampledStat` over `quota.window.num` samples of
    /// `quota.window.size.seconds`): produce, fetch and request quotas.
    Rate,
    /// A `TokenBucket` (burst = quota x samples x window): the controller
    /// mutation quota.
    TokenBucket,
}

/// The quota the sensor enforces: its unit and its throttle rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub(crate) enum QuotaTypeArg {
    /// Bytes/s; throttle `QuotaUtils.throttleTime`, uncapped.
    ProducerByteRate,
    /// Bytes/s; throttle `QuotaUtils.throttleTime`, uncapped.
    ConsumerByteRate,
    /// Percent of one thread; throttle `QuotaUtils.boundedThrottleTime`,
    /// capped at one window.
    RequestPercentage,
    /// Mutations (partitions)/s, a token bucket.
    ControllerMutationRate,
}

impl QuotaTypeArg {
    fn key(self) -> QuotaKey {
        match self {
            QuotaTypeArg::ProducerByteRate => QuotaKey::ProducerByteRate,
            QuotaTypeArg::ConsumerByteRate => QuotaKey::ConsumerByteRate,
            QuotaTypeArg::RequestPercentage => QuotaKey::RequestPercentage,
            QuotaTypeArg::ControllerMutationRate => QuotaKey::ControllerMutationRate,
        }
    }

    /// The unit of the quota, per second.
    fn unit(self) -> &'static str {
        match self {
            QuotaTypeArg::ProducerByteRate | QuotaTypeArg::ConsumerByteRate => "bytes/s",
            QuotaTypeArg::RequestPercentage => "% of a thread",
            QuotaTypeArg::ControllerMutationRate => "mutations/s",
        }
    }
}

/// How a controller mutation request meets the bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ModeArg {
    /// CreateTopics v6+, CreatePartitions v3+, DeleteTopics v5+: check
    /// first, refuse while the tokens are below 0.
    Strict,
    /// Older versions: record, then throttle while the tokens are below 0.
    Permissive,
}

/// Arguments of `kafka-quota sensor`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct SensorArgs {
    /// The stat: a windowed rate, or the controller mutation quota's token bucket.
    #[arg(long, value_enum, default_value = "rate")]
    pub(crate) stat: StatArg,
    /// The quota (the sensor's bound): bytes/s for the byte rates, percent of
    /// one thread for request_percentage, mutations/s for the token bucket.
    /// Checked as Kafka checks a quota value (ClientQuotaControlManager).
    #[arg(long, value_name = "BOUND", value_parser = parse_number, allow_hyphen_values = true)]
    pub(crate) quota: f64,
    /// The quota type (its unit and throttle rule); default producer_byte_rate
    /// for a rate, controller_mutation_rate for a token bucket.
    #[arg(long, value_enum)]
    pub(crate) quota_type: Option<QuotaTypeArg>,
    /// quota.window.num (controller.quota.window.num for the token bucket):
    /// the number of samples.
    #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u32).range(1..=i64::from(i32::MAX)))]
    pub(crate) samples: u32,
    /// quota.window.size.seconds (controller.quota.window.size.seconds for
    /// the token bucket): the length of one sample.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(i32::MAX)))]
    pub(crate) window_seconds: u32,
    /// A record: TIME:VALUE, e.g. `250ms:1048576` (repeatable; processed in
    /// the order given, these before --records-file's); TIME:VALUE:unchecked
    /// records without the quota check (`Sensor.record(value, time, false)`,
    /// as the fetch path unrecords a throttled response with a negative value).
    #[arg(long = "record", value_name = "TIME:VALUE", value_parser = parse_record_arg, allow_hyphen_values = true)]
    pub(crate) records: Vec<(i64, f64, bool)>,
    /// A CSV file of records, one `at_ms,value` a line (`at_ms,value,unchecked`
    /// for a record without the check, `at_ms,bound,set_quota` for a quota
    /// change; a header line `at_ms,value`, blank lines and `#` comments are
    /// skipped); `-` = standard input.
    #[arg(long, value_name = "FILE")]
    pub(crate) records_file: Option<PathBuf>,
    /// A read at TIME (repeatable): Rate.measure / TokenBucket.measure, placed
    /// after the records at or before it. Every record is read anyway.
    #[arg(long = "at", value_name = "TIME", value_parser = parse_time_arg, allow_hyphen_values = true)]
    pub(crate) reads: Vec<i64>,
    /// A quota change: TIME:BOUND, e.g. `15s:2000000` (repeatable): the
    /// metric's config replaced with the new bound, as
    /// ClientQuotaManager.updateQuotaMetricConfigs does (a rate keeps its
    /// samples, a token bucket its tokens), placed after the records and
    /// reads at or before TIME. Checked as --quota is.
    #[arg(long = "set-quota", value_name = "TIME:BOUND", value_parser = parse_set_quota_arg, allow_hyphen_values = true)]
    pub(crate) quota_changes: Vec<(i64, f64)>,
    /// Token bucket: strict (refuse while below 0) or permissive (throttle).
    #[arg(long, value_enum, default_value = "strict")]
    pub(crate) mode: ModeArg,
    /// The broker clock (ms) at time 0 of the records.
    #[arg(long, default_value_t = DEFAULT_CLOCK_START_MS, value_parser = clap::value_parser!(i64).range(0..))]
    pub(crate) clock_start_ms: i64,
    /// Print one JSON document instead of the text (docs/sensor.md).
    #[arg(long)]
    pub(crate) json: bool,
}

/// An epoch-style broker clock (2023-11-14), the one Kafka's vectors use.
pub(crate) const DEFAULT_CLOCK_START_MS: i64 = 1_700_000_000_000;

/// What the sensor is: its stat, quota and window.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    /// The quota type (unit, throttle rule; the token bucket for
    /// controller_mutation_rate).
    pub(crate) quota_type: QuotaTypeArg,
    /// The quota bound per second at time 0 (`--set-quota` changes it later).
    pub(crate) quota: f64,
    /// Samples x window.
    pub(crate) window: QuotaWindow,
    /// The token bucket's mode (unused for a rate).
    pub(crate) mode: MutationMode,
    /// The broker clock (ms) at time 0.
    pub(crate) clock_start_ms: i64,
}

impl Setup {
    fn is_bucket(&self) -> bool {
        self.quota_type == QuotaTypeArg::ControllerMutationRate
    }
}

/// One input event: a record or a read, at a time relative to the clock start (ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Event {
    /// `Sensor.record(value, time, check)`.
    Record {
        /// ms from time 0.
        at_ms: i64,
        /// The value recorded (bytes, percent, mutations).
        value: f64,
        /// With the quota check (`true`, what the broker does for a
        /// request), or without it (`false`: the fetch path's unrecord).
        check: bool,
    },
    /// A metric read at a time (ms from time 0).
    Read {
        /// ms from time 0.
        at_ms: i64,
    },
    /// A quota change: the metric's config replaced with a new bound
    /// (`ClientQuotaManager.updateQuotaMetricConfigs`); the samples or
    /// tokens are kept, nothing is measured.
    SetQuota {
        /// ms from time 0 (where the change goes among the records and reads).
        at_ms: i64,
        /// The new bound per second.
        bound: f64,
    },
}

/// A throttle time and the numbers of its formula.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Throttle {
    /// What Kafka returns (ms, after the `(int)` cast).
    pub(crate) ms: i64,
    /// Before a cap (the formula's `Math.round`).
    pub(crate) uncapped_ms: i64,
    /// The cap, for request_percentage (one window, ms).
    pub(crate) cap_ms: Option<i64>,
    /// The formula with its numbers.
    pub(crate) formula: String,
}

/// What Kafka's classes returned for one event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// A rate sensor.
    Rate {
        /// `Rate.measure` (per second).
        rate: f64,
        /// The window the sum was divided by (`Rate.windowSize`, ms).
        window_ms: i64,
        /// The sum of the samples (`WindowedSum`).
        sum: f64,
        /// The samples after the event.
        samples: Vec<Sample>,
        /// A record whose check threw `QuotaViolationException`, with
        /// the throttle time.
        violation: Option<Throttle>,
    },
    /// A token bucket sensor.
    Bucket {
        /// `TokenBucket.measure` after the event.
        tokens: f64,
        /// A record that was recorded (strict: the tokens were not below 0
        /// at the check); `None` for a read.
        accepted: Option<bool>,
        /// The throttle, when the check threw `QuotaViolationException`.
        violation: Option<Throttle>,
        /// The sensor's `mutation-rate` metric (its own 2 x 30 s window).
        mutation_rate: f64,
    },
}

/// One row of the answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    /// The event.
    pub(crate) event: Event,
    /// The broker clock (ms) at the event.
    pub(crate) clock_ms: i64,
    /// What Kafka returned.
    pub(crate) outcome: Outcome,
    /// Time went backwards at this event (Kafka accepts it).
    pub(crate) backwards: bool,
}

impl Event {
    /// The new bound of a quota change.
    fn bound_set(&self) -> Option<f64> {
        match self {
            Event::SetQuota { bound, .. } => Some(*bound),
            _ => None,
        }
    }

    fn at_ms(&self) -> i64 {
        match self {
            Event::Record { at_ms, .. } | Event::Read { at_ms } | Event::SetQuota { at_ms, .. } => *at_ms,
        }
    }
}

/// The records in order, with each read and quota change placed after the
/// last record at or before its time (those at one place in time order; at
/// one time the reads first, then the changes in input order).
pub(crate) fn events(records: &[(i64, f64, bool)], reads: &[i64], quota_changes: &[(i64, f64)]) -> Vec<Event> {
    let mut timed: Vec<Event> = reads
        .iter()
        .map(|&at_ms| Event::Read { at_ms })
        .chain(quota_changes.iter().map(|&(at_ms, bound)| Event::SetQuota { at_ms, bound }))
        .collect();
    // A stable sort: changes at one time keep their input order.
    timed.sort_by_key(|e| (e.at_ms(), matches!(e, Event::SetQuota { .. })));
    // Where each goes: after the last record (in input order) at or before it.
    let slot = |t: i64| records.iter().rposition(|(at, _, _)| *at <= t).map_or(0, |i| i + 1);
    let mut out = Vec::new();
    for i in 0..=records.len() {
        out.extend(timed.iter().filter(|e| slot(e.at_ms()) == i).copied());
        if let Some(&(at_ms, value, check)) = records.get(i) {
            out.push(Event::Record { at_ms, value, check });
        }
    }
    out
}

/// `a − b` written with Java's `Double.toString` numbers.
fn num(v: f64) -> String {
    java_double_to_string(v)
}

/// Replays `events` on a new sensor of `setup` and returns what Kafka's
/// classes return for each (the library function behind the command).
///
/// # Errors
///
/// The engine's sentence when the quota is below 0 (the CLI checks it first).
pub(crate) fn run_sensor(setup: &Setup, events: &[Event]) -> Result<Vec<Row>, String> {
    let mut rows = Vec::with_capacity(events.len());
    let mut last: Option<i64> = None;
    let clock = |at: i64| setup.clock_start_ms.wrapping_add(at);
    if setup.is_bucket() {
        let mut sensor = MutationSensor::try_new(setup.window, setup.quota).map_err(|e| e.to_string())?;
        for ev in events {
            let t = clock(ev.at_ms());
            let backwards = last.is_some_and(|l| t < l);
            last = Some(t);
            let (accepted, violation) = match *ev {
                Event::Record { value, check: false, .. } => {
                    sensor.record_unchecked(t, value);
                    (Some(true), None)
                }
                Event::Record { value, .. } => {
                    let a = sensor.record(setup.mode, t, value);
                    let violation = match a {
                        MutationAdmission::Accepted { .. } => None,
                        MutationAdmission::Throttled { throttle_ms, tokens, rate_per_s }
                        | MutationAdmission::Rejected { throttle_ms, tokens, rate_per_s } => {
                            let uncapped = quota_engine::metrics::token_throttle_time_ms(tokens, rate_per_s);
                            Some(Throttle {
                                ms: throttle_ms,
                                uncapped_ms: uncapped,
                                cap_ms: None,
                                formula: format!(
                                    "ControllerMutationQuotaManager.throttleTimeMs = Math.round(-tokens / quota x 1000) = Math.round({} / {} x 1000) = {uncapped} ms{}",
                                    num(-tokens),
                                    num(rate_per_s),
                                    if uncapped == throttle_ms {
                                        String::new()
                                    } else {
                                        format!(", as an int {throttle_ms} ms")
                                    }
                                ),
                            })
                        }
                    };
                    (Some(a.is_accepted()), violation)
                }
                Event::Read { .. } => (None, None),
                // ClientQuotaManager.updateQuotaMetricConfigs: `metric.config(...)`
                // with the new bound; TokenBucket reads `config.quota().bound()`
                // (rate and burst) at its next measure or record.
                Event::SetQuota { bound, .. } => {
                    sensor.set_quota(bound).map_err(|e| e.to_string())?;
                    (None, None)
                }
            };
            // A read (--at) is a metric read and refills the real bucket; the
            // figures after a record or a quota change are read from a copy,
            // so that they change nothing Kafka did not change.
            let (tokens, mutation_rate) = match ev {
                Event::Read { .. } => (sensor.tokens(t), sensor.mutation_rate_per_s(t)),
                Event::Record { .. } | Event::SetQuota { .. } => {
                    let mut copy = sensor.clone();
                    (copy.tokens(t), copy.mutation_rate_per_s(t))
                }
            };
            rows.push(Row {
                event: *ev,
                clock_ms: t,
                outcome: Outcome::Bucket {
                    tokens,
                    accepted,
                    violation,
                    mutation_rate,
                },
                backwards,
            });
        }
        return Ok(rows);
    }
    let capped = setup.quota_type == QuotaTypeArg::RequestPercentage;
    let mut sensor = if capped {
        RateSensor::capped_at_one_window(setup.window, setup.quota)
    } else {
        RateSensor::bandwidth(setup.window, setup.quota)
    }
    .map_err(|e| e.to_string())?;
    let max_throttle_ms = setup.window.window_ms();
    for ev in events {
        let t = clock(ev.at_ms());
        let backwards = last.is_some_and(|l| t < l);
        last = Some(t);
        let admission = match *ev {
            Event::Record { value, check: true, .. } => Some(sensor.record(t, value)),
            Event::Record { value, check: false, .. } => {
                sensor.record_unchecked(t, value);
                None
            }
            Event::Read { .. } => None,
            // ClientQuotaManager.updateQuotaMetricConfigs: the metric's config
            // replaced, the samples kept; Sensor.checkQuotas reads
            // `config.quota()` at the next checked record.
            Event::SetQuota { bound, .. } => {
                sensor.set_quota(bound).map_err(|e| e.to_string())?;
                None
            }
        };
        let violation = match admission {
            Some(Admission::Throttled {
                observed,
                bound,
                window_ms,
                ..
            }) => {
                let uncapped = throttle_time_ms(observed, bound, window_ms);
                let returned = if capped {
                    bounded_throttle_time_ms(observed, bound, window_ms, max_throttle_ms)
                } else {
                    uncapped
                };
                // ClientQuotaManager: `(int) throttleTime(e, timeMs)`.
                let ms = i64::from(long_to_int(returned));
                let mut formula = format!(
                    "QuotaUtils.throttleTime = Math.round((rate - quota) / quota x window) = Math.round(({} - {}) / {} x {window_ms}) = {uncapped} ms",
                    num(observed),
                    num(bound),
                    num(bound)
                );
                if capped {
                    formula = format!(
                        "QuotaUtils.boundedThrottleTime = min({formula}, one window {max_throttle_ms} ms) = {returned} ms"
                    );
                }
                if ms != returned {
                    formula.push_str(&format!(", as an int {ms} ms"));
                }
                Some(Throttle {
                    ms,
                    uncapped_ms: uncapped,
                    cap_ms: capped.then_some(max_throttle_ms),
                    formula,
                })
            }
            _ => None,
        };
        let sum = {
            let mut probe = sensor.rate().clone();
            probe.sum(t)
        };
        let (rate, window_ms) = match (admission, ev) {
            // The check measured at `t`: Kafka's own figures.
            (Some(a), _) => (a.observed(), a.window_ms()),
            // A read (--at) is a metric read: it purges the real sensor.
            (None, Event::Read { .. }) => {
                let window_ms = sensor.window_size_ms(t);
                (sensor.measure(t), window_ms)
            }
            // An unchecked record or a quota change measures nothing in
            // Kafka: read a copy.
            (None, Event::Record { .. } | Event::SetQuota { .. }) => {
                let mut copy = sensor.rate().clone();
                copy.measure_with_window(t)
            }
        };
        rows.push(Row {
            event: *ev,
            clock_ms: t,
            outcome: Outcome::Rate {
                rate,
                window_ms,
                sum,
                samples: sensor.rate().samples().to_vec(),
                violation,
            },
            backwards,
        });
    }
    Ok(rows)
}

/// A number as the command reads it: Java's `Double.parseDouble` forms
/// (`1048576`, `2e6`, `0.5`), finite.
fn parse_number(s: &str) -> Result<f64, String> {
    let v = quota_engine::jdk::double::parse_double(s).ok_or_else(|| format!("`{s}` is not a number"))?;
    if v.is_nan() {
        return Err(format!(
            "`{s}` is NaN, which no sensor can be asked about here (Kafka accepts a NaN quota, but then every check fails with a throttle time of Math.round(NaN) = 0 ms, and a NaN record makes every later rate NaN); give a number"
        ));
    }
    if v.is_infinite() {
        return Err(format!("`{s}` is infinite; give a finite number"));
    }
    Ok(v)
}

/// A time in ms from time 0: `250`, `250ms`, `1.5s`; whole ms, 0 or later.
fn parse_time(s: &str) -> Result<i64, String> {
    let t = s.trim();
    let (digits, scale) = if let Some(d) = t.strip_suffix("ms") {
        (d, 1.0)
    } else if let Some(d) = t.strip_suffix('s') {
        (d, 1000.0)
    } else {
        (t, 1.0)
    };
    let digits = digits.trim();
    if digits.starts_with('-') {
        return Err(format!(
            "the time `{t}` is negative; times are milliseconds from the first record, 0 or later (the broker clock is --clock-start-ms plus the time)"
        ));
    }
    let v: f64 = digits
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && !digits.contains(['e', 'E', 'i', 'I', 'n', 'N']))
        .ok_or_else(|| format!("the time `{t}` is not a number of milliseconds (`250`, `250ms`) or seconds (`1.5s`)"))?;
    let ms = v * scale;
    if ms.fract() != 0.0 {
        return Err(format!(
            "the time `{t}` is not a whole number of milliseconds (Kafka's clock counts whole ms)"
        ));
    }
    // Within Java's long, with room for the clock start.
    if ms >= 9.0e18 {
        return Err(format!("the time `{t}` is beyond what a Java long of milliseconds holds"));
    }
    Ok(ms as i64)
}

fn parse_time_arg(s: &str) -> Result<i64, String> {
    parse_time(s)
}

/// `TIME:VALUE` or `TIME:VALUE:unchecked` (or with `,`): the time, the
/// value and whether the quota is checked.
fn parse_record(s: &str) -> Result<(i64, f64, bool), String> {
    let parts: Vec<&str> = s.split([':', ',']).map(str::trim).collect();
    let (t, v, check) = match parts.as_slice() {
        [t, v] => (*t, *v, true),
        [t, v, "unchecked"] => (*t, *v, false),
        _ => {
            return Err(format!(
                "`{s}` is not a record; expected TIME:VALUE, e.g. 250ms:1048576, or TIME:VALUE:unchecked"
            ))
        }
    };
    let at = parse_time(t)?;
    let v = parse_number(v).map_err(|e| format!("the value of `{s}`: {e}"))?;
    Ok((at, v, check))
}

fn parse_record_arg(s: &str) -> Result<(i64, f64, bool), String> {
    parse_record(s)
}

/// `TIME:BOUND` (or with `,`): a quota change's time and new bound (checked
/// against the quota type later, as --quota is).
fn parse_set_quota(s: &str) -> Result<(i64, f64), String> {
    let parts: Vec<&str> = s.split([':', ',']).map(str::trim).collect();
    let [t, v] = parts.as_slice() else {
        return Err(format!("`{s}` is not a quota change; expected TIME:BOUND, e.g. 15s:2000000"));
    };
    let at = parse_time(t)?;
    let v = parse_number(v).map_err(|e| format!("the bound of `{s}`: {e}"))?;
    Ok((at, v))
}

fn parse_set_quota_arg(s: &str) -> Result<(i64, f64), String> {
    parse_set_quota(s)
}

/// What a records file holds: records, and quota changes (`at_ms,bound,set_quota`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RecordsFile {
    /// `(at_ms, value, check)` in file order.
    pub(crate) records: Vec<(i64, f64, bool)>,
    /// `(at_ms, bound)` in file order.
    pub(crate) quota_changes: Vec<(i64, f64)>,
}

/// The records and quota changes of a CSV text: `at_ms,value`,
/// `at_ms,value,unchecked` or `at_ms,bound,set_quota` a line; each new bound
/// is checked as --quota is, for `quota_type`.
///
/// # Errors
///
/// `NAME:LINE: reason` for the first bad line.
pub(crate) fn parse_records_csv(name: &str, text: &str, quota_type: QuotaTypeArg) -> Result<RecordsFile, String> {
    let mut out = RecordsFile::default();
    let mut any = false;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if !any && l.replace(' ', "").eq_ignore_ascii_case("at_ms,value") {
            continue;
        }
        any = true;
        let fields: Vec<&str> = l.split(',').map(str::trim).collect();
        let (t, v, kind) = match fields.as_slice() {
            [t, v] => (*t, *v, None),
            [t, v, k @ ("unchecked" | "set_quota")] => (*t, *v, Some(*k)),
            _ => {
                return Err(format!(
                    "{name}:{}: `{l}` is not a record; expected at_ms,value, e.g. 250,1048576, at_ms,value,unchecked or at_ms,bound,set_quota",
                    i + 1
                ))
            }
        };
        let at = parse_time(t).map_err(|e| format!("{name}:{}: {e}", i + 1))?;
        if kind == Some("set_quota") {
            let bound = parse_number(v).map_err(|e| format!("{name}:{}: the bound: {e}", i + 1))?;
            check_quota(&format!("{name}:{}: the bound {}", i + 1, num(bound)), quota_type, bound)?;
            out.quota_changes.push((at, bound));
        } else {
            let v = parse_number(v).map_err(|e| format!("{name}:{}: the value: {e}", i + 1))?;
            out.records.push((at, v, kind.is_none()));
        }
    }
    Ok(out)
}

/// The quota checked as Kafka's `ClientQuotaControlManager.validateQuotaKeyValue`
/// checks it; `what` names the input (`--quota 0.0`).
fn check_quota(what: &str, quota_type: QuotaTypeArg, quota: f64) -> Result<(), String> {
    let key = quota_type.key();
    validate_quota_key_value(&QuotaKey::CLIENT_KEYS, key.as_str(), quota).map(|_| ()).map_err(|e| {
        format!(
            "{what}: Kafka refuses this {} ({e}, ClientQuotaControlManager.validateQuotaKeyValue).",
            key.as_str()
        )
    })
}

/// Runs `kafka-quota sensor`.
pub(crate) fn run(args: &SensorArgs) -> u8 {
    let quota_type = match (args.stat, args.quota_type) {
        (StatArg::Rate, None) => QuotaTypeArg::ProducerByteRate,
        (StatArg::TokenBucket, None) => QuotaTypeArg::ControllerMutationRate,
        (StatArg::Rate, Some(QuotaTypeArg::ControllerMutationRate)) => {
            errln!("kafka-quota: --quota-type controller_mutation_rate is a token bucket in Kafka (ControllerMutationQuotaManager); use --stat token-bucket.");
            return EXIT_USAGE;
        }
        (StatArg::TokenBucket, Some(QuotaTypeArg::ControllerMutationRate)) => QuotaTypeArg::ControllerMutationRate,
        (StatArg::TokenBucket, Some(other)) => {
            errln!(
                "kafka-quota: --quota-type {} is a windowed rate in Kafka (ClientQuotaManager), not a token bucket; use --stat rate.",
                other.key().as_str()
            );
            return EXIT_USAGE;
        }
        (StatArg::Rate, Some(t)) => t,
    };
    if let Err(e) = check_quota(&format!("--quota {}", num(args.quota)), quota_type, args.quota) {
        errln!("kafka-quota: {e}");
        return EXIT_USAGE;
    }
    for &(at, bound) in &args.quota_changes {
        if let Err(e) = check_quota(&format!("--set-quota {at}ms:{}", num(bound)), quota_type, bound) {
            errln!("kafka-quota: {e}");
            return EXIT_USAGE;
        }
    }
    let window = match QuotaWindow::try_new(args.samples, i64::from(args.window_seconds) * 1000) {
        Ok(w) => w,
        Err(e) => {
            errln!("kafka-quota: --samples {} --window-seconds {}: {e}", args.samples, args.window_seconds);
            return EXIT_USAGE;
        }
    };
    let mut records = args.records.clone();
    let mut quota_changes = args.quota_changes.clone();
    if let Some(path) = &args.records_file {
        let (name, text) = match read_text(path) {
            Ok(x) => x,
            Err(e) => {
                errln!("{e}");
                return EXIT_BAD_INPUT;
            }
        };
        match parse_records_csv(&name, &text, quota_type) {
            Ok(f) => {
                records.extend(f.records);
                quota_changes.extend(f.quota_changes);
            }
            Err(e) => {
                errln!("kafka-quota: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    if records.is_empty() && args.reads.is_empty() {
        errln!("kafka-quota: sensor needs something to record or read: --record TIME:VALUE, --records-file FILE (- for standard input) or --at TIME.");
        return EXIT_USAGE;
    }
    for at in records
        .iter()
        .map(|(at, _, _)| *at)
        .chain(args.reads.iter().copied())
        .chain(quota_changes.iter().map(|(at, _)| *at))
    {
        if args.clock_start_ms.checked_add(at).is_none() {
            errln!("kafka-quota: the time {at} ms after --clock-start-ms {} is beyond a Java long.", args.clock_start_ms);
            return EXIT_USAGE;
        }
    }
    let setup = Setup {
        quota_type,
        quota: args.quota,
        window,
        mode: match args.mode {
            ModeArg::Strict => MutationMode::Strict,
            ModeArg::Permissive => MutationMode::Permissive,
        },
        clock_start_ms: args.clock_start_ms,
    };
    let evs = events(&records, &args.reads, &quota_changes);
    let rows = match run_sensor(&setup, &evs) {
        Ok(r) => r,
        Err(e) => {
            errln!("kafka-quota: {e}");
            return EXIT_USAGE;
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&to_json(&setup, &rows)).unwrap_or_default());
    } else {
        out!("{}", text(&setup, &rows));
    }
    EXIT_OK
}

/// The summary: records, violations, the longest throttle and when.
struct Summary {
    records: usize,
    violations: usize,
    max_throttle: Option<(i64, i64)>,
}

fn summary(rows: &[Row]) -> Summary {
    let mut s = Summary {
        records: 0,
        violations: 0,
        max_throttle: None,
    };
    for r in rows {
        if matches!(r.event, Event::Record { .. }) {
            s.records += 1;
        }
        let v = match &r.outcome {
            Outcome::Rate { violation, .. } | Outcome::Bucket { violation, .. } => violation,
        };
        if let Some(v) = v {
            s.violations += 1;
            if s.max_throttle.is_none_or(|(ms, _)| v.ms > ms) {
                s.max_throttle = Some((v.ms, r.event.at_ms()));
            }
        }
    }
    s
}

fn window_text(w: QuotaWindow) -> String {
    format!("{} samples of {} s", w.samples(), w.window_ms() / 1000)
}

/// Burst of a token bucket: `samples x window_s x quota` (Kafka: `TokenBucket.burst`).
fn burst(setup: &Setup) -> f64 {
    burst_at(setup, setup.quota)
}

/// Burst of the bucket under the bound `quota`.
fn burst_at(setup: &Setup, quota: f64) -> f64 {
    setup.window.samples() as f64 * (setup.window.window_ms() as f64 / 1000.0) * quota
}

/// `, then quota 2.0 at 10 ms, 200.0 at 30 ms` for the quota changes, or nothing.
fn changes_text(rows: &[Row]) -> String {
    let changes: Vec<String> = rows
        .iter()
        .filter_map(|r| match r.event {
            Event::SetQuota { at_ms, bound } => Some(format!("{} at {at_ms} ms", num(bound))),
            _ => None,
        })
        .collect();
    if changes.is_empty() {
        String::new()
    } else {
        format!(", then quota {}", changes.join(", "))
    }
}

/// The text output: the answer, the table, the why.
pub(crate) fn text(setup: &Setup, rows: &[Row]) -> String {
    let s = summary(rows);
    let mut out = String::new();
    let key = setup.quota_type.key().as_str();
    let unit = setup.quota_type.unit();
    let longest = match s.max_throttle {
        Some((ms, at)) => format!("; the longest throttle is {ms} ms, at {at} ms"),
        None => String::new(),
    };
    if setup.is_bucket() {
        let mode = match setup.mode {
            MutationMode::Strict => "strict",
            MutationMode::Permissive => "permissive",
        };
        let verdict = match setup.mode {
            MutationMode::Strict => format!(
                "{} of {} requests refused with THROTTLING_QUOTA_EXCEEDED",
                s.violations, s.records
            ),
            MutationMode::Permissive => format!("{} of {} requests throttled", s.violations, s.records),
        };
        out.push_str(&format!(
            "TokenBucket ({key}, {mode}) refilled at {} {unit}, burst {} ({}){}: {verdict}{longest}.\n\n",
            num(setup.quota),
            num(burst(setup)),
            window_text(setup.window),
            changes_text(rows)
        ));
        out.push_str(&format!(
            "{:>10}  {:<24}  {:>22}  {:<40}  {:>11}\n",
            "time", "event", "tokens", "outcome", "throttle ms"
        ));
        for r in rows {
            let Outcome::Bucket { tokens, accepted, violation, .. } = &r.outcome else {
                continue;
            };
            let outcome = match (r.event.bound_set(), accepted, violation) {
                (Some(bound), _, _) => format!("burst now {}, tokens kept", num(burst_at(setup, bound))),
                (None, None, _) => "read".to_owned(),
                (None, Some(true), None) if matches!(r.event, Event::Record { check: false, .. }) => {
                    "recorded unchecked".to_owned()
                }
                (None, Some(true), None) => "accepted".to_owned(),
                (None, Some(false), Some(_)) => "refused: THROTTLING_QUOTA_EXCEEDED".to_owned(),
                (None, Some(true), Some(_)) => "recorded, QuotaViolationException".to_owned(),
                (None, Some(false), None) => "refused".to_owned(),
            };
            out.push_str(&format!(
                "{:>10}  {:<24}  {:>22}  {:<40}  {:>11}{}\n",
                format!("{} ms", r.event.at_ms()),
                event_text(&r.event),
                num(*tokens),
                outcome,
                violation.as_ref().map_or(0, |v| v.ms),
                if r.backwards { "  (time went backwards)" } else { "" }
            ));
        }
    } else {
        let cap = if setup.quota_type == QuotaTypeArg::RequestPercentage {
            ", throttle capped at one window"
        } else {
            ""
        };
        out.push_str(&format!(
            "Rate ({key}) against {} {unit}, {}{cap}{}: {} of {} records over the quota{longest}.\n\n",
            num(setup.quota),
            window_text(setup.window),
            changes_text(rows),
            s.violations,
            s.records
        ));
        out.push_str(&format!(
            "{:>10}  {:<24}  {:>24}  {:>9}  {:<23}  {:>11}\n",
            "time", "event", format!("rate {}", unit), "window ms", "Sensor.record", "throttle ms"
        ));
        for r in rows {
            let Outcome::Rate { rate, window_ms, violation, .. } = &r.outcome else {
                continue;
            };
            let outcome = match (&r.event, violation) {
                (Event::Read { .. }, _) => "read",
                (Event::SetQuota { .. }, _) => "new bound, samples kept",
                (Event::Record { check: false, .. }, _) => "recorded unchecked",
                (_, Some(_)) => "QuotaViolationException",
                (_, None) => "within the quota",
            };
            out.push_str(&format!(
                "{:>10}  {:<24}  {:>24}  {:>9}  {:<23}  {:>11}{}\n",
                format!("{} ms", r.event.at_ms()),
                event_text(&r.event),
                num(*rate),
                window_ms,
                outcome,
                violation.as_ref().map_or(0, |v| v.ms),
                if r.backwards { "  (time went backwards)" } else { "" }
            ));
        }
    }
    out.push_str("\nWhy:\n");
    if setup.is_bucket() {
        out.push_str(&format!(
            "  TokenBucket: tokens = min(burst, tokens + quota x elapsed s) at each record and read; a record takes its value out. A new bucket holds 0 tokens last refilled at clock 0; clock at time 0 = {} ms.\n",
            setup.clock_start_ms
        ));
        out.push_str(match setup.mode {
            MutationMode::Strict => "  Strict (StrictControllerMutationQuota.record): checkQuotas first; tokens below 0 throw QuotaViolationException and the request fails with THROTTLING_QUOTA_EXCEEDED, nothing recorded; otherwise any size is recorded.\n",
            MutationMode::Permissive => "  Permissive (PermissiveControllerMutationQuota.record): record, then check; tokens below 0 throw QuotaViolationException and the response is throttled.\n",
        });
        if rows.iter().any(|r| matches!(r.event, Event::SetQuota { .. })) {
            out.push_str("  A quota change replaces the metric's config (ClientQuotaManager.updateQuotaMetricConfigs) and refills nothing: the tokens are kept, and the next record or read refills at the new quota for all the time since the last refill (before the change too), clamped to the new burst = samples x window x new quota (TokenBucket reads config.quota().bound() at each measure and record); a throttle divides by the new quota. The change's row is read from a copy.\n");
        }
    } else {
        out.push_str(&format!(
            "  Rate.measure = sum of the samples / window; the window is now - the oldest sample's start, padded to (samples - 1) x {} s = {} ms while shorter (the burst allowance). Samples whose last record is {} ms old are reset first.\n",
            setup.window.window_ms() / 1000,
            setup.window.min_window_size_ms(),
            setup.window.expire_age_ms()
        ));
        out.push_str("  Sensor.record(value, now, true) records, then throws QuotaViolationException when the rate is above the quota (Quota.acceptable: rate <= quota).\n");
        if rows.iter().any(|r| matches!(r.event, Event::SetQuota { .. })) {
            out.push_str("  A quota change replaces the metric's config (ClientQuotaManager.updateQuotaMetricConfigs): the samples are kept and the rate is unchanged; the next checked record compares it with the new bound (Sensor.checkQuotas reads config.quota()). The change measures nothing; its row is read from a copy.\n");
        }
    }
    let mut any = false;
    for r in rows {
        let v = match &r.outcome {
            Outcome::Rate { violation, .. } | Outcome::Bucket { violation, .. } => violation,
        };
        if let Some(v) = v {
            any = true;
            out.push_str(&format!("  {} ms: {}\n", r.event.at_ms(), v.formula));
        }
    }
    if !any {
        out.push_str("  No record was over the quota, so Kafka computed no throttle time.\n");
    }
    if rows.iter().any(|r| r.backwards) {
        out.push_str("  Time went backwards at a row marked so: Kafka accepts it (no check on the clock) and computes with the negative elapsed time.\n");
    }
    out
}

fn event_text(e: &Event) -> String {
    match e {
        Event::Record { value, check: true, .. } => format!("record {}", num(*value)),
        Event::Record { value, check: false, .. } => format!("unrecord {}", num(*value)),
        Event::Read { .. } => "read".to_owned(),
        Event::SetQuota { bound, .. } => format!("quota set to {}", num(*bound)),
    }
}

fn throttle_json(v: &Option<Throttle>) -> Value {
    match v {
        None => Value::Null,
        Some(t) => json!({
            "ms": t.ms,
            "uncapped_ms": t.uncapped_ms,
            "cap_ms": t.cap_ms,
            "formula": t.formula,
        }),
    }
}

/// The `--json` document.
pub(crate) fn to_json(setup: &Setup, rows: &[Row]) -> Value {
    let s = summary(rows);
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            let (event, value, check) = match r.event {
                Event::Record { value, check, .. } => ("record", json!(value), json!(check)),
                Event::Read { .. } => ("read", Value::Null, Value::Null),
                Event::SetQuota { .. } => ("set_quota", Value::Null, Value::Null),
            };
            let mut row = json!({
                "event": event,
                "at_ms": r.event.at_ms(),
                "clock_ms": r.clock_ms,
                "value": value,
                "check": check,
                "backwards": r.backwards,
            });
            let extra = match &r.outcome {
                Outcome::Rate { rate, window_ms, sum, samples, violation } => json!({
                    "rate": rate,
                    "window_ms": window_ms,
                    "sum": sum,
                    "samples": samples.iter().map(|s| json!({
                        "start_ms": s.start_ms,
                        "last_event_ms": s.last_event_ms,
                        "value": s.value,
                        "event_count": s.event_count,
                    })).collect::<Vec<_>>(),
                    "violation": violation.is_some(),
                    "throttle_ms": violation.as_ref().map_or(0, |v| v.ms),
                    "throttle": throttle_json(violation),
                }),
                Outcome::Bucket { tokens, accepted, violation, mutation_rate } => json!({
                    "tokens": tokens,
                    "accepted": accepted,
                    "violation": violation.is_some(),
                    "throttle_ms": violation.as_ref().map_or(0, |v| v.ms),
                    "throttle": throttle_json(violation),
                    "mutation_rate": mutation_rate,
                }),
            };
            if let (Value::Object(row), Value::Object(extra)) = (&mut row, extra) {
                row.extend(extra);
            }
            if let (Value::Object(row), Event::SetQuota { bound, .. }) = (&mut row, r.event) {
                row.insert("quota".to_owned(), json!(bound));
                if setup.is_bucket() {
                    row.insert("burst".to_owned(), json!(burst_at(setup, bound)));
                }
            }
            row
        })
        .collect();
    json!({
        "format": "kafka-quota/sensor",
        "version": 1,
        "stat": if setup.is_bucket() { "token-bucket" } else { "rate" },
        "quota_type": setup.quota_type.key().as_str(),
        "quota": setup.quota,
        "unit": setup.quota_type.unit(),
        "samples": setup.window.samples(),
        "window_seconds": setup.window.window_ms() / 1000,
        "clock_start_ms": setup.clock_start_ms,
        "mode": if setup.is_bucket() {
            json!(match setup.mode { MutationMode::Strict => "strict", MutationMode::Permissive => "permissive" })
        } else {
            Value::Null
        },
        "burst": if setup.is_bucket() { json!(burst(setup)) } else { Value::Null },
        "summary": {
            "records": s.records,
            "violations": s.violations,
            "max_throttle_ms": s.max_throttle.map(|(ms, _)| ms),
            "max_throttle_at_ms": s.max_throttle.map(|(_, at)| at),
        },
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    //! `kafka-quota sensor`'s library function against the vectors Kafka
    //! 4.3.1's own classes produced (tests/fixtures/kafka-vectors-4.3.1,
    //! lab/vectors): every case of both stats (84 rate, 67 token bucket),
    //! the quota changes (`set_quota`) as `--set-quota` places them.

    use super::*;

    fn vectors(family: &str) -> Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/kafka-vectors-4.3.1")
            .join(format!("{family}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).expect("vector JSON")
    }

    fn window_of(config: &Value) -> QuotaWindow {
        let samples = u32::try_from(config["samples"].as_u64().expect("samples")).expect("u32");
        QuotaWindow::try_new(samples, config["window_ms"].as_i64().expect("window_ms")).expect("window")
    }

    /// The case's records, reads and quota changes as events on a clock
    /// starting at 0 (the vectors' times are the broker clock), or `None`
    /// when the command cannot express the case. A `set_quota` has no time
    /// in the vectors (Kafka's config change has none): it gets the time of
    /// the operation before it, where `--set-quota` places it (after the
    /// records and reads at or before its time). The events are replayed in
    /// the vector's order; in a case with quota changes, [`events`] (the
    /// command's placement of its arguments) must give that order.
    fn case_events(case: &Value) -> Option<Vec<Event>> {
        let (mut records, mut reads, mut changes) = (Vec::new(), Vec::new(), Vec::new());
        let mut direct = Vec::new();
        let mut last = 0;
        for ev in case["events"].as_array()? {
            if ev["op"] == "set_quota" {
                let bound = ev["bound"].as_f64()?;
                changes.push((last, bound));
                direct.push(Event::SetQuota { at_ms: last, bound });
                continue;
            }
            let t = ev["t"].as_i64()?;
            if t < 0 {
                return None;
            }
            last = t;
            match ev["op"].as_str()? {
                "record" => {
                    let (value, check) = (ev["v"].as_f64()?, ev["check"].as_bool() != Some(false));
                    records.push((t, value, check));
                    direct.push(Event::Record { at_ms: t, value, check });
                }
                "measure" => {
                    reads.push(t);
                    direct.push(Event::Read { at_ms: t });
                }
                _ => return None,
            }
        }
        if !changes.is_empty() {
            assert_eq!(
                events(&records, &reads, &changes),
                direct,
                "{}: --set-quota at the time of the operation before it is placed where the vector has it",
                case["id"]
            );
        }
        Some(direct)
    }

    fn same(expected: &Value, got: f64) -> bool {
        match expected.as_f64() {
            Some(e) => e == got || (e - got).abs() <= 1e-9 * e.abs().max(1.0),
            None => expected.is_null() && got.is_nan(),
        }
    }

    // Kafka 4.3.1: Sensor.record/checkQuotas, Rate.measure/windowSize,
    // QuotaUtils.throttleTime (produce/fetch) and boundedThrottleTime
    // (ClientRequestQuotaManager), as the vectors recorded them.
    #[test]
    fn rate_matches_kafkas_rate_and_quota_utils_on_every_vector_case() {
        let v = vectors("rate");
        let mut cases = 0;
        let mut checked = 0;
        let mut changes = 0;
        for case in v["cases"].as_array().expect("cases") {
            let Some(evs) = case_events(case) else { continue };
            let config = &case["config"];
            let window = window_of(config);
            if config["max_throttle_ms"].as_i64() != Some(window.window_ms()) {
                continue;
            }
            cases += 1;
            let id = case["id"].as_str().unwrap_or("?");
            for (quota_type, throttle_field) in [
                (QuotaTypeArg::ProducerByteRate, "throttle_ms"),
                (QuotaTypeArg::RequestPercentage, "bounded_throttle_ms"),
            ] {
                let setup = Setup {
                    quota_type,
                    quota: config["quota_bound"].as_f64().expect("bound"),
                    window,
                    mode: MutationMode::Strict,
                    clock_start_ms: 0,
                };
                let rows = run_sensor(&setup, &evs).expect("runs");
                let expected: Vec<&Value> = case["events"].as_array().expect("events").iter().collect();
                assert_eq!(rows.len(), expected.len(), "{id}");
                for (i, (row, ev)) in rows.iter().zip(expected).enumerate() {
                    let Outcome::Rate { rate, window_ms, violation, .. } = &row.outcome else {
                        panic!("{id}: a rate row");
                    };
                    if ev["op"] == "set_quota" {
                        // Kafka measured nothing; the later rows check the new bound.
                        assert_eq!(row.event.bound_set(), ev["bound"].as_f64(), "{id} step {i}: the new bound");
                        assert!(violation.is_none(), "{id} step {i}: a quota change throws nothing");
                        changes += 1;
                        continue;
                    }
                    if ev["check"] == false {
                        // Kafka measured nothing; the later rows show the state is Kafka's.
                        assert!(violation.is_none(), "{id} step {i}: an unchecked record throws nothing");
                        continue;
                    }
                    assert!(same(&ev["measure"], *rate), "{id} step {i}: rate {rate}, Kafka {}", ev["measure"]);
                    assert_eq!(Some(*window_ms), ev["window_size_ms"].as_i64(), "{id} step {i}: window");
                    if ev["op"] == "record" {
                        assert_eq!(Some(violation.is_some()), ev["violated"].as_bool(), "{id} step {i}: violated");
                        assert_eq!(
                            Some(violation.as_ref().map_or(0, |t| t.ms)),
                            ev[throttle_field].as_i64(),
                            "{id} step {i}: {throttle_field}"
                        );
                        if let Some(t) = violation {
                            assert!(same(&ev["observed"], *rate), "{id} step {i}: observed");
                            assert!(t.formula.contains(&num(*rate)), "{id} step {i}: {}", t.formula);
                        }
                    }
                    checked += 1;
                }
            }
        }
        // Every case, the quota changes included; a broken filter must not pass silently.
        eprintln!("rate: {cases} cases, {checked} rows, {changes} quota changes");
        assert_eq!(cases, 84, "rate cases replayed");
        assert_eq!(Some(cases), v["case_count"].as_u64().map(|n| n as usize));
        assert!(checked > 10_000, "only {checked} rows checked");
        // rate-set-quota-midstream: 1e6 -> 2e6 -> 5e5, once per quota type.
        assert_eq!(changes, 4, "quota changes replayed");
    }

    // Kafka 4.3.1: TokenBucket, StrictControllerMutationQuota.record,
    // PermissiveControllerMutationQuota.record,
    // ControllerMutationQuotaManager.throttleTimeMs, as the vectors recorded them.
    #[test]
    fn token_bucket_matches_kafkas_controller_mutation_quota_on_every_vector_case() {
        let v = vectors("token_bucket");
        let mut cases = 0;
        let mut refused = 0;
        let mut changes = 0;
        for case in v["cases"].as_array().expect("cases") {
            let Some(evs) = case_events(case) else { continue };
            let config = &case["config"];
            let mode = match case["mode"].as_str() {
                Some("strict") => MutationMode::Strict,
                Some("permissive") => MutationMode::Permissive,
                other => panic!("mode {other:?}"),
            };
            cases += 1;
            let id = case["id"].as_str().unwrap_or("?");
            let setup = Setup {
                quota_type: QuotaTypeArg::ControllerMutationRate,
                quota: config["quota_bound"].as_f64().expect("bound"),
                window: window_of(config),
                mode,
                clock_start_ms: 0,
            };
            assert!(same(&config["burst"], burst(&setup)), "{id}: burst");
            let rows = run_sensor(&setup, &evs).expect("runs");
            let expected = case["events"].as_array().expect("events");
            assert_eq!(rows.len(), expected.len(), "{id}");
            for (i, (row, ev)) in rows.iter().zip(expected).enumerate() {
                let Outcome::Bucket { tokens, accepted, violation, .. } = &row.outcome else {
                    panic!("{id}: a bucket row");
                };
                if ev["op"] == "set_quota" {
                    // Kafka measured nothing (its tokens show at the next record).
                    let bound = row.event.bound_set().expect("a quota change");
                    assert_eq!(Some(bound), ev["bound"].as_f64(), "{id} step {i}: the new bound");
                    assert!(same(&ev["burst"], burst_at(&setup, bound)), "{id} step {i}: the new burst");
                    assert!(violation.is_none() && accepted.is_none(), "{id} step {i}: a quota change");
                    changes += 1;
                    continue;
                }
                assert!(same(&ev["tokens"], *tokens), "{id} step {i}: tokens {tokens}, Kafka {}", ev["tokens"]);
                if ev["op"] == "record" {
                    assert_eq!(*accepted, ev["accepted"].as_bool(), "{id} step {i}: accepted");
                    assert_eq!(
                        Some(violation.as_ref().map_or(0, |t| t.ms)),
                        ev["throttle_ms"].as_i64(),
                        "{id} step {i}: throttle_ms"
                    );
                    if *accepted == Some(false) {
                        refused += 1;
                    }
                }
            }
        }
        eprintln!("token bucket: {cases} cases, {refused} refusals, {changes} quota changes");
        assert_eq!(cases, 67, "token bucket cases replayed");
        assert_eq!(Some(cases), v["case_count"].as_u64().map(|n| n as usize));
        assert!(refused > 100, "only {refused} strict refusals checked");
        // tb-set-quota-strict and -permissive: 20 -> 2 -> 200 each.
        assert_eq!(changes, 4, "quota changes replayed");
    }

    #[test]
    fn reads_go_after_the_records_at_or_before_them() {
        let evs = events(&[(0, 1.0, true), (500, 2.0, true), (100, 3.0, false)], &[200, 0, 1000], &[]);
        assert_eq!(
            evs,
            vec![
                Event::Record { at_ms: 0, value: 1.0, check: true },
                Event::Read { at_ms: 0 },
                Event::Record { at_ms: 500, value: 2.0, check: true },
                // After the last record at or before 200 ms in input order: 100 ms.
                Event::Record { at_ms: 100, value: 3.0, check: false },
                Event::Read { at_ms: 200 },
                Event::Read { at_ms: 1000 },
            ]
        );
        // A read before every record comes first.
        assert_eq!(events(&[(10, 1.0, true)], &[5], &[])[0], Event::Read { at_ms: 5 });
    }

    #[test]
    fn quota_changes_go_after_the_records_and_reads_at_or_before_them() {
        let evs = events(
            &[(0, 1.0, true), (100, 2.0, true)],
            &[100, 50],
            &[(100, 7.0), (0, 5.0), (100, 6.0)],
        );
        assert_eq!(
            evs,
            vec![
                Event::Record { at_ms: 0, value: 1.0, check: true },
                Event::SetQuota { at_ms: 0, bound: 5.0 },
                Event::Read { at_ms: 50 },
                Event::Record { at_ms: 100, value: 2.0, check: true },
                // At one time: the read first, then the changes in input order.
                Event::Read { at_ms: 100 },
                Event::SetQuota { at_ms: 100, bound: 7.0 },
                Event::SetQuota { at_ms: 100, bound: 6.0 },
            ]
        );
    }

    // Kafka 4.3.1: TokenBucket.measure/record read config.quota().bound() at
    // each call (TokenBucket.java:78-80, :88-90), so the refill after a change
    // uses the new quota over the whole gap and clamps to the new burst.
    #[test]
    fn a_lowered_bucket_quota_clamps_at_the_next_refill_and_refills_at_the_new_rate() {
        let setup = Setup {
            quota_type: QuotaTypeArg::ControllerMutationRate,
            quota: 20.0,
            window: QuotaWindow::KAFKA_DEFAULT,
            mode: MutationMode::Strict,
            clock_start_ms: DEFAULT_CLOCK_START_MS,
        };
        let evs = events(&[(0, 10.0, true), (1000, 1.0, true)], &[], &[(0, 2.0)]);
        let rows = run_sensor(&setup, &evs).expect("runs");
        let tokens: Vec<f64> = rows
            .iter()
            .map(|r| match r.outcome {
                Outcome::Bucket { tokens, .. } => tokens,
                Outcome::Rate { .. } => f64::NAN,
            })
            .collect();
        // 220 - 10 = 210; the change's row (a copy) is clamped to 2 x 11 = 22;
        // at 1 s: min(22, 210 + 2 x 1) - 1 = 21.
        assert_eq!(tokens, vec![210.0, 22.0, 21.0]);
    }

    #[test]
    fn times_and_records_are_read_or_refused_with_the_reason() {
        assert_eq!(parse_time("250"), Ok(250));
        assert_eq!(parse_time("250ms"), Ok(250));
        assert_eq!(parse_time("1.5s"), Ok(1500));
        assert!(parse_time("-5ms").unwrap_err().contains("is negative"));
        assert!(parse_time("1.5ms").unwrap_err().contains("whole number of milliseconds"));
        assert!(parse_time("soon").unwrap_err().contains("not a number of milliseconds"));
        assert!(parse_time("1e30").is_err());
        assert_eq!(parse_record("0ms:1048576"), Ok((0, 1_048_576.0, true)));
        assert_eq!(parse_record("5ms:-1048576:unchecked"), Ok((5, -1_048_576.0, false)));
        assert!(parse_record("5ms:1:later").unwrap_err().contains("TIME:VALUE:unchecked"));
        assert!(parse_record("0ms").unwrap_err().contains("expected TIME:VALUE"));
        assert!(parse_record("0ms:NaN").unwrap_err().contains("NaN"));
        assert!(parse_number("Infinity").unwrap_err().contains("infinite"));
        let p = QuotaTypeArg::ProducerByteRate;
        assert!(parse_records_csv("f.csv", "at_ms,value\n0,1\n\n# c\n5,x\n", p)
            .unwrap_err()
            .starts_with("f.csv:5: the value: `x` is not a number"));
        assert_eq!(
            parse_records_csv("f.csv", "at_ms,value\n0,1\n7,2.5,unchecked\n9,2000,set_quota\n", p),
            Ok(RecordsFile {
                records: vec![(0, 1.0, true), (7, 2.5, false)],
                quota_changes: vec![(9, 2000.0)],
            })
        );
        assert_eq!(
            parse_records_csv("f.csv", "0,1\n9,0,set_quota\n", p).unwrap_err(),
            "f.csv:2: the bound 0.0: Kafka refuses this producer_byte_rate (INVALID_REQUEST: Quota producer_byte_rate must be greater than 0, ClientQuotaControlManager.validateQuotaKeyValue)."
        );
        assert!(parse_records_csv("f.csv", "9,x,set_quota\n", p).unwrap_err().starts_with("f.csv:1: the bound: `x` is not a number"));
        assert_eq!(parse_set_quota("15s:2000000"), Ok((15_000, 2_000_000.0)));
        assert!(parse_set_quota("15s").unwrap_err().contains("expected TIME:BOUND"));
        assert!(parse_set_quota("15s:2:3").unwrap_err().contains("expected TIME:BOUND"));
        assert!(parse_set_quota("-1:5").unwrap_err().contains("is negative"));
        assert!(parse_set_quota("1:NaN").unwrap_err().contains("the bound of `1:NaN`: `NaN` is NaN"));
    }

    // Kafka 4.3.1 ClientQuotaControlManager.java:260, :276-279, :294-295 (validateQuotaKeyValue).
    #[test]
    fn an_absurd_quota_is_refused_with_kafkas_words() {
        let e = check_quota("--quota 0.0", QuotaTypeArg::ProducerByteRate, 0.0).unwrap_err();
        assert!(e.starts_with("--quota 0.0: Kafka refuses this producer_byte_rate"), "{e}");
        assert!(e.contains("INVALID_REQUEST: Quota producer_byte_rate must be greater than 0"), "{e}");
        let e = check_quota("q", QuotaTypeArg::ProducerByteRate, 1e19).unwrap_err();
        assert!(e.contains("is too large for a LONG."), "{e}");
        let e = check_quota("q", QuotaTypeArg::ConsumerByteRate, 1.5).unwrap_err();
        assert!(e.contains("consumer_byte_rate cannot be a fractional value."), "{e}");
        assert!(check_quota("q", QuotaTypeArg::RequestPercentage, 0.5).is_ok());
        assert!(check_quota("q", QuotaTypeArg::ControllerMutationRate, -1.0).is_err());
    }
}
