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
    /// An SVG path through the points (`M x y L x y …`), in pixels with one
    /// decimal.
    ///
    /// Points are reduced per column of one unit of the box (a pixel at the
    /// chart's natural width) to the first, the lowest, the highest and the
    /// last of the column, in their order (the M4 reduction of Jugel et
    /// al., VLDB 2014): the line drawn is the same to within a column, and
    /// a run of 100 clients over 11 minutes no longer writes every one of
    /// its thousands of points per chart (issue 11's "showing a run").
    /// Points with a coordinate that is not a finite number are left out.
    pub fn path(&self, pts: impl IntoIterator<Item = (f64, f64)>) -> String {
        // A point in pixels with its place in the series.
        type P = (usize, f64, f64);
        let mut out = String::new();
        let emit = |out: &mut String, four: &mut [P; 4]| {
            // first, lowest, highest, last: in series order, each once.
            four.sort_by_key(|p| p.0);
            let mut last = None;
            for &(i, x, y) in four.iter() {
                if last == Some(i) {
                    continue;
                }
                last = Some(i);
                out.push_str(if out.is_empty() { "M" } else { " L" });
                push_tenths(out, x);
                out.push(' ');
                push_tenths(out, y);
            }
        };
        let mut column: Option<(i64, [P; 4])> = None;
        for (i, (x, y)) in pts.into_iter().enumerate() {
            if !(x.is_finite() && y.is_finite()) {
                continue;
            }
            let p = (i, self.px(x), self.py(y));
            let col = p.1.floor() as i64;
            match &mut column {
                Some((c, [_, lo, hi, last])) if *c == col => {
                    // y grows downwards: the lowest value has the largest py.
                    if p.2 > lo.2 {
                        *lo = p;
                    }
                    if p.2 < hi.2 {
                        *hi = p;
                    }
                    *last = p;
                }
                _ => {
                    if let Some((_, mut four)) = column.take() {
                        emit(&mut out, &mut four);
                    }
                    column = Some((col, [p; 4]));
                }
            }
        }
        if let Some((_, mut four)) = column {
            emit(&mut out, &mut four);
        }
        out
    }
}

/// `v` with one decimal, as `push_tenths` writes it.
pub fn tenths(v: f64) -> String {
    let mut out = String::new();
    push_tenths(&mut out, v);
    out
}

/// Appends `v` with one decimal (`12.3`, `-0.5`), rounded half away from
/// zero (`{:.1}` rounds half to even: `-1.25` gives `-1.2` there, `-1.3`
/// here; a twentieth of a pixel either way), without the float formatter
/// (the costliest part of drawing a long series). Negative zero is `0.0`.
fn push_tenths(out: &mut String, v: f64) {
    let t = (v * 10.0).round();
    if !t.is_finite() || t.abs() >= 1e15 {
        use std::fmt::Write;
        let _ = write!(out, "{v:.1}");
        return;
    }
    let t = t as i64;
    if t < 0 {
        out.push('-');
    }
    // The digits by hand, last first: `write!` with `{}` costs a trip
    // through the formatter per number, and a run of 100 clients draws
    // hundreds of thousands of them (issue 28's typing profile: the
    // largest part of showing a run).
    let mut a = t.unsigned_abs();
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    i -= 1;
    buf[i] = b'0' + (a % 10) as u8;
    a /= 10;
    i -= 1;
    buf[i] = b'.';
    loop {
        i -= 1;
        buf[i] = b'0' + (a % 10) as u8;
        a /= 10;
        if a == 0 {
            break;
        }
    }
    out.extend(buf[i..].iter().map(|&b| char::from(b)));
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
        assert_eq!(s.path([]), "");
        assert_eq!(s.path([(5.0, 50.0)]), "M100.0 50.0");
        assert_eq!(s.px(20.0), 200.0);
        assert_eq!(nice_max(3.2e6), 5e6);
        assert_eq!(nice_max(2e6), 2e6);
        assert_eq!(fmt_rate(2_000_000.0), "2 MB/s");
        assert_eq!(fmt_bytes(1_500.0), "1.5 kB");
        assert_eq!(fmt_bytes(-0.0), "0 B");
        assert_eq!(fmt_ms(-0.3), "0 ms");
        assert_eq!(fmt_ms(12_100.0), "12.10 s");
        assert_eq!(fmt_metric(f64::NAN), "NaN");
        assert_eq!(readable_limit(QuotaKey::ProducerByteRate, 2e6), "2 MB/s per broker (2000000.0 bytes/s)");
        assert!(readable_limit(QuotaKey::ConsumerByteRate, f64::NAN).starts_with("NaN bytes/s per broker (NaN: metered, never delays"));
    }

    /// The reduced path keeps, per pixel column, the first, lowest,
    /// highest and last point in series order: the drawn line's extent in
    /// every column is the full series' extent.
    #[test]
    fn path_keeps_each_columns_extremes_in_order() {
        let s = Scale { x: (0.0, 100.0), y: (0.0, 10.0), w: 10.0, h: 10.0 };
        // 10 points in the first pixel column (x 0..5 = 0..0.5 px).
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (f64::from(i) * 0.5, [3.0, 9.0, 1.0, 4.0, 4.0, 2.0, 8.0, 5.0, 6.0, 7.0][i as usize])).collect();
        // first (y 3), max (y 9, py 1.0), min (y 1, py 9.0), last (y 7).
        assert_eq!(s.path(pts.iter().copied()), "M0.0 7.0 L0.1 1.0 L0.1 9.0 L0.5 3.0");
        // Points in distinct columns are all kept, with one decimal.
        let wide: Vec<(f64, f64)> = (0..=10).map(|i| (f64::from(i) * 10.0, f64::from(i))).collect();
        assert_eq!(s.path(wide.iter().copied()).matches('L').count(), 10);
        // A long series (x 0 to 99.999: ten columns) is cut to at most 4
        // points per column (fewer where the first is also the lowest).
        let long: Vec<(f64, f64)> = (0..100_000).map(|i| (f64::from(i) / 1000.0, f64::from(i % 7))).collect();
        let points = s.path(long.iter().copied()).split(['M', 'L']).filter(|p| !p.trim().is_empty()).count();
        assert!((31..=40).contains(&points), "{points}");
        // A NaN or infinite point is left out; the others are drawn.
        assert_eq!(s.path([(0.0, 1.0), (50.0, f64::NAN), (100.0, f64::INFINITY), (100.0, 2.0)]), "M0.0 9.0 L10.0 8.0");
        let mut t = String::new();
        push_tenths(&mut t, -1.25);
        t.push(' ');
        push_tenths(&mut t, 1234.56);
        assert_eq!(t, "-1.3 1234.6");
    }

    /// The digits written by hand are those the formatter wrote before
    /// (`{}.{}` of the tenths, with the sign), over small, large, negative,
    /// boundary and non-finite values.
    #[test]
    fn tenths_are_the_formatters_digits() {
        let mut values = vec![
            0.0, -0.0, 0.04, -0.04, 0.05, -0.05, 0.95, 9.95, 99.95, -99.95, 1e13, -1e13, 1e14, -1e14,
            99_999_999_999_999.9, -99_999_999_999_999.9, f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
        ];
        let mut x = 0.123_456_f64;
        for _ in 0..20_000 {
            x = (x * 7.31 + 0.917) % 100_000.0;
            values.push(x);
            values.push(-x / 3.0);
        }
        for v in values {
            // The former implementation.
            let t = (v * 10.0).round();
            let want = if !t.is_finite() || t.abs() >= 1e15 {
                format!("{v:.1}")
            } else {
                let t = t as i64;
                let a = t.unsigned_abs();
                format!("{}{}.{}", if t < 0 { "-" } else { "" }, a / 10, a % 10)
            };
            assert_eq!(tenths(v), want, "{v}");
        }
    }
}
