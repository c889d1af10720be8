//! SVG scales: data coordinates to pixels, and axis bounds.

/// Maps data coordinates to an SVG box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Data x range (min, max).
    pub x: (f64, f64),
    /// Data y range (min, max).
    pub y: (f64, f64),
    /// Pixel width.
    pub w: f64,
    /// Pixel height.
    pub h: f64,
}

impl Scale {
    /// The pixel x of data x (clamped to the box).
    pub fn px(&self, x: f64) -> f64 {
        let span = (self.x.1 - self.x.0).max(1e-9);
        ((x - self.x.0) / span * self.w).clamp(0.0, self.w)
    }
    /// The pixel y of data y (0 at the top; clamped to the box).
    pub fn py(&self, y: f64) -> f64 {
        let span = (self.y.1 - self.y.0).max(1e-9);
        (self.h - (y - self.y.0) / span * self.h).clamp(0.0, self.h)
    }
    /// An SVG path through the points (`M x y L x y …`), one decimal.
    pub fn path(&self, pts: impl IntoIterator<Item = (f64, f64)>) -> String {
        let mut out = String::new();
        for (i, (x, y)) in pts.into_iter().enumerate() {
            out.push_str(if i == 0 { "M" } else { " L" });
            out.push_str(&format!("{:.1} {:.1}", self.px(x), self.py(y)));
        }
        out
    }
}

/// A "nice" upper bound for an axis holding `max` (1, 2, 2.5 or 5 x 10^n).
pub fn nice_max(max: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let mut p = 1.0;
    while p * 10.0 <= max {
        p *= 10.0;
    }
    while p > max {
        p /= 10.0;
    }
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * p >= max {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use quota_engine::QuotaKey;

    #[test]
    fn scales_and_formats() {
        let s = Scale { x: (0.0, 10.0), y: (0.0, 100.0), w: 200.0, h: 100.0 };
        assert_eq!(s.path([(0.0, 0.0), (10.0, 100.0)]), "M0.0 100.0 L200.0 0.0");
        assert_eq!(s.px(20.0), 200.0);
        assert_eq!(nice_max(3.2e6), 5e6);
        assert_eq!(nice_max(2e6), 2e6);
        assert_eq!(fmt_rate(2_000_000.0), "2 MB/s");
        assert_eq!(fmt_bytes(1_500.0), "1.5 kB");
        assert_eq!(fmt_bytes(-0.0), "0 B");
        assert_eq!(fmt_ms(-0.3), "0 ms");
        assert_eq!(fmt_ms(12_100.0), "12.10 s");
        assert_eq!(fmt_metric(f64::NAN), "NaN");
        assert_eq!(fmt_value(QuotaKey::ProducerByteRate, 2e6), "2000000.0 (2 MB/s)");
    }
}
