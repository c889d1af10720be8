//! Numbers as the user types them.

use quota_engine::QuotaKey;

/// Parses a number typed by the user (`2000000`, `2e6`, `2_000_000`, `2,000,000`).
///
/// # Errors
/// A sentence when the text is not a number.
pub fn parse_number(text: &str) -> Result<f64, String> {
    let t: String = text.trim().chars().filter(|c| !matches!(c, '_' | ',' | ' ')).collect();
    if t.is_empty() {
        return Err("Enter a number.".to_owned());
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{}' is not a number.", text.trim())),
    }
}

/// Parses a quota value typed in the Quotas panel, which mirrors
/// `kafka-configs.sh --alter --add-config`: what Java's `Double.parseDouble`
/// reads (`2e6`, `NaN`, the broker then judges it), plus digit-group
/// separators for convenience (`2,000,000`, `2_000_000`).
///
/// # Errors
/// The tool's own message (`Cannot parse quota configuration value for
/// producer_byte_rate: abc`), from `quota_formats::configs_sh`.
pub fn parse_quota_value(key: QuotaKey, text: &str) -> Result<f64, String> {
    if text.trim().is_empty() {
        return Err("Enter a number.".to_owned());
    }
    parse_number(text).or_else(|_| quota_formats::configs_sh::parse_quota_value(key.as_str(), text.trim()))
}

/// Parses a whole number within `[min, max]` for a setting named `name`.
///
/// # Errors
/// A sentence naming the setting when the text is not such a number.
pub fn parse_whole(text: &str, name: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = parse_number(text).map_err(|e| format!("{name}: {e} It must be a whole number from {min} to {max}."))?;
    if v.fract() != 0.0 || v < min as f64 || v > max as f64 {
        return Err(format!("{name} must be a whole number from {min} to {max}."));
    }
    Ok(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_leniently_and_refused_clearly() {
        assert_eq!(parse_number("2,000,000"), Ok(2_000_000.0));
        assert_eq!(parse_number(" 2e6 "), Ok(2_000_000.0));
        assert!(parse_number("two").unwrap_err().contains("'two'"));
        assert!(parse_number("").is_err());
        assert!(parse_number("inf").is_err());
    }

    #[test]
    fn quota_values_fail_with_kafka_configs_message() {
        assert_eq!(
            parse_quota_value(QuotaKey::ProducerByteRate, "abc"),
            Err("Cannot parse quota configuration value for producer_byte_rate: abc".to_owned())
        );
        assert_eq!(
            parse_quota_value(QuotaKey::ConsumerByteRate, " 10MB "),
            Err("Cannot parse quota configuration value for consumer_byte_rate: 10MB".to_owned())
        );
        assert_eq!(parse_quota_value(QuotaKey::ProducerByteRate, "2,000,000"), Ok(2_000_000.0));
        assert_eq!(parse_quota_value(QuotaKey::RequestPercentage, "2e1"), Ok(20.0));
        // Java reads NaN; the broker's own check then answers for it.
        assert!(parse_quota_value(QuotaKey::ProducerByteRate, "NaN").unwrap().is_nan());
        assert_eq!(parse_whole("11", "quota.window.num", 1, 100), Ok(11));
        assert!(parse_whole("1.5", "quota.window.num", 1, 100).unwrap_err().contains("quota.window.num"));
        // A setting that is not a number gets a message naming it, never ignored.
        assert_eq!(
            parse_whole("abc", "num.io.threads", 1, 256),
            Err("num.io.threads: 'abc' is not a number. It must be a whole number from 1 to 256.".to_owned())
        );
    }
}
