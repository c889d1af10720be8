//! Simulated time: [`SimTime`] (an instant) and [`SimSpan`] (a length of
//! time), both integer nanoseconds, and the named conversions to and from the
//! units Kafka speaks (whole ms for sensors, fractional ms for the Timeline).
//!
//! Every numeric conversion the simulator needs lives here (or, for ids and
//! lengths, in `world/ids.rs`) so each `as` appears once with the
//! reason it is exact or saturates on purpose. Integer nanoseconds keep runs
//! identical on x86-64 and wasm32; no `usize` is involved.

use std::ops::{Add, AddAssign, Mul, Sub};

use super::queue::Nanos;

/// Nanoseconds in a millisecond.
pub(crate) const NS_PER_MS: u64 = 1_000_000;
/// Nanoseconds in a microsecond.
const NS_PER_US: u64 = 1_000;

/// An instant: nanoseconds since the scenario's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct SimTime(Nanos);

/// A length of simulated time, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) struct SimSpan(Nanos);

impl SimTime {
    /// The scenario's start.
    pub(crate) const ZERO: SimTime = SimTime(0);
    /// "Not scheduled": later than any event.
    pub(crate) const NEVER: SimTime = SimTime(u64::MAX);

    /// The instant `ns` nanoseconds after the start (the event queue's key).
    pub(crate) const fn from_ns(ns: Nanos) -> Self {
        SimTime(ns)
    }

    /// The instant `ms` milliseconds after the start.
    pub(crate) const fn from_ms(ms: u64) -> Self {
        SimTime(ms * NS_PER_MS)
    }

    /// Nanoseconds since the start (the event queue's key).
    pub(crate) const fn as_ns(self) -> Nanos {
        self.0
    }

    /// Whole milliseconds since the start, rounded down: the clock Kafka's
    /// sensors and `Time.milliseconds()` see. Below 2^63 ms for any u64 ns,
    /// so the conversion to i64 is exact.
    pub(crate) const fn as_ms(self) -> i64 {
        (self.0 / NS_PER_MS) as i64
    }

    /// Fractional milliseconds since the start, for the Timeline. Exact below
    /// 2^53 ns (104 days; horizons are capped at one day).
    pub(crate) fn as_ms_f64(self) -> f64 {
        self.0 as f64 / NS_PER_MS as f64
    }

    /// `self - earlier`, or zero when `earlier` is later.
    pub(crate) fn saturating_since(self, earlier: SimTime) -> SimSpan {
        SimSpan(self.0.saturating_sub(earlier.0))
    }
}

impl SimSpan {
    /// No time.
    pub(crate) const ZERO: SimSpan = SimSpan(0);

    /// `ns` nanoseconds.
    pub(crate) const fn from_ns(ns: Nanos) -> Self {
        SimSpan(ns)
    }

    /// `us` microseconds.
    pub(crate) const fn from_us(us: u64) -> Self {
        SimSpan(us * NS_PER_US)
    }

    /// `ms` milliseconds (client configs such as `linger.ms`).
    pub(crate) const fn from_ms(ms: u64) -> Self {
        SimSpan(ms * NS_PER_MS)
    }

    /// A throttle time in ms as Kafka computes it (`i64`); negative is none.
    pub(crate) fn from_throttle_ms(ms: i64) -> Self {
        SimSpan(u64::try_from(ms).unwrap_or(0) * NS_PER_MS)
    }

    /// A computed length in ns (`f64`), rounded to the nearest ns. `as`
    /// saturates: negative and NaN become 0, huge values `u64::MAX`, which is
    /// the clamp we want for costs derived from user-supplied rates.
    pub(crate) fn from_ns_f64_rounded(ns: f64) -> Self {
        SimSpan(ns.round() as u64)
    }

    /// Nanoseconds.
    pub(crate) const fn as_ns(self) -> Nanos {
        self.0
    }

    /// Fractional milliseconds, for the Timeline.
    pub(crate) fn as_ms_f64(self) -> f64 {
        self.0 as f64 / NS_PER_MS as f64
    }
}

impl Add<SimSpan> for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimSpan) -> SimTime {
        SimTime(self.0 + rhs.0)
    }
}

impl AddAssign<SimSpan> for SimTime {
    fn add_assign(&mut self, rhs: SimSpan) {
        self.0 += rhs.0;
    }
}

impl Sub for SimTime {
    type Output = SimSpan;
    fn sub(self, rhs: SimTime) -> SimSpan {
        SimSpan(self.0 - rhs.0)
    }
}

impl Add for SimSpan {
    type Output = SimSpan;
    fn add(self, rhs: SimSpan) -> SimSpan {
        SimSpan(self.0 + rhs.0)
    }
}

impl AddAssign for SimSpan {
    fn add_assign(&mut self, rhs: SimSpan) {
        self.0 += rhs.0;
    }
}

impl Mul<u64> for SimSpan {
    type Output = SimSpan;
    fn mul(self, rhs: u64) -> SimSpan {
        SimSpan(self.0 * rhs)
    }
}

/// Counts and byte totals as `f64` for averages and rates. Exact below 2^53,
/// far above anything a one-day run produces.
pub(crate) fn count_f64(n: u64) -> f64 {
    n as f64
}

/// Whole ms (`i64`: a throttle time, an elapsed time) as the `f64` Kafka's
/// metrics record. Exact below 2^53 ms.
pub(crate) fn ms_f64(ms: i64) -> f64 {
    ms as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_down_to_whole_ms_and_keep_fractions() {
        let t = SimTime::from_ns(2_500_000);
        assert_eq!(t.as_ms(), 2);
        assert_eq!(t.as_ms_f64(), 2.5);
        assert_eq!(SimTime::from_ms(3).as_ns(), 3_000_000);
        assert_eq!(SimSpan::from_throttle_ms(-5), SimSpan::ZERO);
        assert_eq!(SimSpan::from_throttle_ms(2).as_ns(), 2_000_000);
        assert_eq!(SimSpan::from_ns_f64_rounded(-1.0), SimSpan::ZERO);
        assert_eq!(SimSpan::from_ns_f64_rounded(1.5).as_ns(), 2);
        assert_eq!((t + SimSpan::from_us(500)).as_ms(), 3);
        assert_eq!(SimTime::ZERO.saturating_since(t), SimSpan::ZERO);
    }
}
