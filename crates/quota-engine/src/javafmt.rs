//! Java's `Double.toString`, which Kafka uses to print quota values
//! (`producer_byte_rate=2000000.0`, `1.0E7`).

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

#[cfg(test)]
mod tests {
    use super::java_double_to_string as j;

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
}
