//! The simulation's one random source: SplitMix64, seeded by the scenario.
//!
//! SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; the constants of `java.util.SplittableRandom`)
//! uses only wrapping `u64` arithmetic and shifts, so its stream is the same
//! on wasm32 and x86-64. Floats are built from the top 53 bits with one exact
//! multiplication; no platform math library is involved.

/// A SplitMix64 generator: the world's only source of randomness.
///
/// # Example
///
/// ```
/// use quota_engine::sim::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let u = a.next_f64();
/// assert!((0.0..1.0).contains(&u));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The golden-ratio increment (`0x9e3779b97f4a7c15`).
    const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    /// A generator whose stream is fully determined by `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        // 2^-53, exact.
        const SCALE: f64 = 1.0 / 9_007_199_254_740_992.0;
        (self.next_u64() >> 11) as f64 * SCALE
    }

    /// A uniform integer in `[0, bound)`; `0` when `bound` is 0.
    ///
    /// Lemire's multiply-shift with rejection, all in `u64`/`u128`.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(bound);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A factor in `[1 - spread, 1 + spread)`, for jittering a cost; exactly
    /// 1.0 (and no draw) when `spread` is 0.
    pub fn jitter(&mut self, spread: f64) -> f64 {
        if spread == 0.0 {
            return 1.0;
        }
        1.0 + spread * (2.0 * self.next_f64() - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_stream() {
        // Reference values of SplitMix64 seeded with 0 (as printed by the
        // C reference implementation and java.util.SplittableRandom(0)'s
        // mix64 of successive gammas).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn floats_stay_in_the_unit_interval_and_vary() {
        let mut r = SplitMix64::new(42);
        let xs: Vec<f64> = (0..1000).map(|_| r.next_f64()).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / 1000.0;
        assert!((0.4..0.6).contains(&mean), "mean {mean}");
    }

    #[test]
    fn below_is_bounded_and_covers_the_range() {
        let mut r = SplitMix64::new(3);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = r.below(5);
            assert!(v < 5);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn zero_spread_jitter_draws_nothing() {
        let mut a = SplitMix64::new(9);
        let b = a.clone();
        assert_eq!(a.jitter(0.0), 1.0);
        assert_eq!(a, b);
        let j = a.jitter(0.1);
        assert!((0.9..1.1).contains(&j));
    }
}
