//! The JDK 17 `java.lang.Character` properties the emulation needs
//! (Unicode 13.0, as on Kafka's JVM): `isLetterOrDigit` and the
//! non-spacing marks (for `\b` in `java.util.regex` and for word boundaries
//! in case mapping), and `Character.digit(ch, 16)` (for `URLDecoder`).
//!
//! The tables live in `unicode/data.rs`, read off JDK 17's `Character`.
//!
//! JDK: `java/lang/Character.java`.

mod data;

use data::{LETTER_OR_DIGIT, ND_ZEROS_BMP, NON_SPACING_MARK};

/// Is `c` in one of the sorted inclusive `ranges`?
pub(crate) fn in_ranges(ranges: &[(u32, u32)], c: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `Character.isLetterOrDigit(c)` (categories Lu Ll Lt Lm Lo Nd, JDK 17).
pub(crate) fn is_letter_or_digit(c: u32) -> bool {
    in_ranges(&LETTER_OR_DIGIT, c)
}

/// `Character.getType(c) == NON_SPACING_MARK` (category Mn, JDK 17).
pub(crate) fn is_non_spacing_mark(c: u32) -> bool {
    in_ranges(&NON_SPACING_MARK, c)
}

/// `Character.isDigit(c)` in the BMP: `c` is in one of the runs of ten
/// decimal digits (`Nd`).
pub(crate) fn is_bmp_decimal_digit(c: u32) -> bool {
    ND_ZEROS_BMP
        .iter()
        .any(|&z| (u32::from(z)..u32::from(z) + 10).contains(&c))
}

/// `Character.digit(ch, 16)`: ASCII and full-width hex letters, and any
/// Unicode decimal digit (`Nd`).
pub(crate) fn java_digit16(unit: u16) -> i32 {
    let Some(c) = char::from_u32(u32::from(unit)) else {
        return -1;
    };
    if let Some(d) = c.to_digit(16) {
        return d as i32;
    }
    let cp = u32::from(c);
    match cp {
        0xFF21..=0xFF26 => return (cp - 0xFF21 + 10) as i32,
        0xFF41..=0xFF46 => return (cp - 0xFF41 + 10) as i32,
        _ => {}
    }
    // Decimal digits (`Nd`) come in runs of ten starting at zero.
    ND_ZEROS_BMP
        .iter()
        .map(|&z| u32::from(z))
        .find(|&z| z <= cp && cp <= z + 9)
        .map_or(-1, |z| (cp - z) as i32)
}
