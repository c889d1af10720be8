//! Java's `double` as Kafka's tools read, compare and print it:
//! `Double.parseDouble` (quota values typed on a command line or in a file),
//! `Double.equals` (is an alteration a change?) and `Double.toString`
//! (`producer_byte_rate=2000000.0`, `1.0E7`).
//!
//! JDK 17: `java/lang/Double.java`, `jdk/internal/math/FloatingDecimal.java`.

/// Formats `d` as Java's `Double.toString` does: decimal notation with at
/// least one fractional digit for `1e-3 <= |d| < 1e7`, otherwise
/// `d.dddE±n`; `NaN`, `Infinity`, `-Infinity`; `-0.0` keeps its sign.
///
/// Digits are the shortest that round-trip (what JDK 19+ prints; JDK 17 can
/// print one more digit for rare values such as `2^63`).
///
/// Kafka: values reach `kafka-configs.sh --describe` through `Double.toString`.
pub fn java_double_to_string(d: f64) -> String {
    if d.is_nan() {
        return "NaN".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity".to_owned() } else { "-Infinity".to_owned() };
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0.0".to_owned() } else { "0.0".to_owned() };
    }
    let sci = format!("{:e}", d.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if d < 0.0 { "-" } else { "" };
    let abs = d.abs();
    if (1e-3..1e7).contains(&abs) {
        let point = exp + 1; // digits before the decimal point
        let (int_part, frac_part) = if point <= 0 {
            ("0".to_owned(), format!("{}{}", "0".repeat((-point) as usize), digits))
        } else if point as usize >= digits.len() {
            (format!("{}{}", digits, "0".repeat(point as usize - digits.len())), String::new())
        } else {
            (digits[..point as usize].to_owned(), digits[point as usize..].to_owned())
        };
        let frac = if frac_part.is_empty() { "0".to_owned() } else { frac_part };
        format!("{sign}{int_part}.{frac}")
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        format!("{sign}{first}.{rest}E{exp}")
    }
}

/// A `double` narrowed to `int` as the JVM's `d2i` does (Java's `(int) d`,
/// Scala's `Double.toInt`): truncated toward zero, NaN is 0, values beyond
/// `int`'s range are `Integer.MIN_VALUE` / `Integer.MAX_VALUE`.
///
/// Kafka: `KafkaApis.handleFetchRequest` narrows
/// `maxValueInQuotaWindow(..)` (bytes) with `toInt`, so a NaN fetch quota
/// caps a fetch response at 0 bytes: one record batch (KIP-74).
///
/// # Example
///
/// ```
/// use quota_engine::jdk::double::d2i;
///
/// assert_eq!(d2i(f64::NAN), 0);
/// assert_eq!(d2i(-2.9), -2);
/// assert_eq!(d2i(1e300), i32::MAX);
/// ```
pub fn d2i(d: f64) -> i32 {
    // Rust's `as` saturates and maps NaN to 0: the JVM's d2i exactly.
    d as i32
}

/// Java's `Double.parseDouble` (`jdk.internal.math.FloatingDecimal.readJavaFormatString`):
/// surrounding characters `<= ' '` are trimmed; an optional sign; then
/// `NaN`, `Infinity`, a decimal number with optional exponent, or a
/// hexadecimal `0x1.8p3` number; an optional `f`/`F`/`d`/`D` suffix.
/// `None` where Java throws `NumberFormatException`.
///
/// # Example
///
/// ```
/// use quota_engine::jdk::double::parse_double;
///
/// assert_eq!(parse_double(" 2e6 "), Some(2_000_000.0));
/// assert_eq!(parse_double("10MB"), None);
/// ```
pub fn parse_double(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c <= ' ');
    let (neg, body) = match t.as_bytes().first() {
        Some(b'+') => (false, &t[1..]),
        Some(b'-') => (true, &t[1..]),
        _ => (false, t),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    if body == "NaN" {
        return Some(f64::NAN);
    }
    if body == "Infinity" {
        return Some(sign * f64::INFINITY);
    }
    if body.starts_with("0x") || body.starts_with("0X") {
        return parse_hex(&body[2..]).map(|v| sign * v);
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    // digits [. digits] [e[+-]digits], at least one digit in the mantissa.
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut mantissa_digits = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
        mantissa_digits += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            mantissa_digits += 1;
        }
    }
    if mantissa_digits == 0 {
        return None;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != bytes.len() {
        return None;
    }
    body.parse::<f64>().ok().map(|v| sign * v)
}

/// The part of a Java hexadecimal floating literal after `0x`: hex digits
/// with an optional point, then a mandatory binary exponent `p[+-]digits`.
fn parse_hex(s: &str) -> Option<f64> {
    let s = s.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(s);
    let (mantissa, exp) = s.split_once(['p', 'P'])?;
    let exp_digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
    if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let exp: i32 = exp.parse().unwrap_or(if exp.starts_with('-') {
        i32::MIN / 2
    } else {
        i32::MAX / 2
    });
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut value = 0.0f64;
    for c in int_part.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exp.clamp(-2000, 2000)))
}

/// `Double.equals`: NaN equals NaN, otherwise bit equality (so `0.0 != -0.0`).
pub(crate) fn java_double_equals(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

#[cfg(test)]
mod tests {
    use super::java_double_to_string as j;
    use super::{java_double_equals, parse_double};

    #[test]
    fn matches_java_for_common_values() {
        assert_eq!(j(2_000_000.0), "2000000.0");
        assert_eq!(j(500_000.0), "500000.0");
        assert_eq!(j(1e7), "1.0E7");
        assert_eq!(j(12_345_678.0), "1.2345678E7");
        assert_eq!(j(50.0), "50.0");
        assert_eq!(j(0.5), "0.5");
        assert_eq!(j(0.001), "0.001");
        assert_eq!(j(0.0001), "1.0E-4");
        assert_eq!(j(-1.5), "-1.5");
        assert_eq!(j(1.7976931348623157e308), "1.7976931348623157E308");
        assert_eq!(j(9_223_372_036_854_775_807.0), "9.223372036854776E18");
        assert_eq!(j(f64::NAN), "NaN");
        assert_eq!(j(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(j(-0.0), "-0.0");
        assert_eq!(j(1_099_890.010_998_900_3), "1099890.0109989003");
    }

    #[test]
    fn parse_double_follows_java() {
        assert_eq!(parse_double("2000000"), Some(2_000_000.0));
        assert_eq!(parse_double(" 0.2 "), Some(0.2));
        assert_eq!(parse_double("1e3"), Some(1000.0));
        assert_eq!(parse_double("+5."), Some(5.0));
        assert_eq!(parse_double(".5"), Some(0.5));
        assert_eq!(parse_double("10d"), Some(10.0));
        assert_eq!(parse_double("0x1.8p1"), Some(3.0));
        assert_eq!(parse_double("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(parse_double("NaN").is_some_and(f64::is_nan));
        for bad in [
            "", "abc", "1,000", "1_000", "inf", "nan", "infinity", "1e", ".", "0x1.8", "1 000",
            "$RATE", "10MB",
        ] {
            assert_eq!(parse_double(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn equals_is_bitwise_except_nan() {
        assert!(java_double_equals(f64::NAN, f64::NAN));
        assert!(!java_double_equals(0.0, -0.0));
        assert!(java_double_equals(2e6, 2_000_000.0));
    }
}
