//! A wanted limit as people write it: `10000000`, `1e7`, `10MB`, `10 MB/s`,
//! `512KiB/s`, `200%`, checked as Kafka checks a quota value.

use crate::entity::{EntityName, QuotaEntity, QuotaKey, UnitLabel};
use crate::store::QuotaStore;

/// Why a wanted value cannot be read: a clause that completes "is not a
/// `<key>` value: ..." (no trailing full stop).
pub type WantedError = String;

/// Reads a wanted limit for `key`: a number in the key's unit as Java's
/// `Double.parseDouble` reads it (`10000000`, `1e7`), for a byte rate
/// optionally with a unit and `/s` (k, M, G = powers of 1000; Ki, Mi, Gi =
/// powers of 1024), for `request_percentage` optionally with `%`. The value
/// must then be one Kafka accepts for the key (the store's validation,
/// `ClientQuotaControlManager`: positive, a whole number for a LONG key).
///
/// # Errors
/// The reason, as a clause: the unit is not one of `key`'s, the text does
/// not start with a number, or Kafka refuses the value (its message).
pub fn parse_wanted(key: QuotaKey, text: &str) -> Result<f64, WantedError> {
    let t = text.trim();
    let bytes = matches!(key, QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate);
    let s = t.strip_suffix("/s").unwrap_or(t).trim_end();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))
        .unwrap_or(s.len());
    let (number, unit) = (s[..split].trim(), s[split..].trim());
    if number.is_empty() {
        return Err("it does not start with a number".to_owned());
    }
    let factor = match (unit, bytes) {
        ("", _) => 1.0,
        ("%", false) if key == QuotaKey::RequestPercentage => 1.0,
        ("B", true) => 1.0,
        ("k" | "K" | "kB" | "KB", true) => 1e3,
        ("M" | "MB", true) => 1e6,
        ("G" | "GB", true) => 1e9,
        ("Ki" | "KiB", true) => 1024.0,
        ("Mi" | "MiB", true) => 1024.0 * 1024.0,
        ("Gi" | "GiB", true) => 1024.0 * 1024.0 * 1024.0,
        _ if bytes => {
            return Err(format!(
                "'{unit}' is not a byte unit; use B, kB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024) or a plain number of bytes/s"
            ))
        }
        _ => {
            return Err(format!(
                "'{unit}' is not a unit of {key}; give a plain number in {}",
                key.unit(UnitLabel::PerBroker)
            ))
        }
    };
    let n = crate::jdk::double::parse_double(number)
        .ok_or_else(|| "it does not start with a number".to_owned())?;
    let v = n * factor;
    if !v.is_finite() {
        return Err("it is not a finite number".to_owned());
    }
    QuotaStore::new()
        .set(&QuotaEntity::User(EntityName::Default), key, v)
        .map_err(|e| format!("Kafka refuses it: {}", e.message.trim_end_matches('.')))?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_read_and_kafka_checks_the_value() {
        let p = QuotaKey::ProducerByteRate;
        assert_eq!(parse_wanted(p, "10MB/s"), Ok(10_000_000.0));
        assert_eq!(parse_wanted(p, " 10 MB "), Ok(10_000_000.0));
        assert_eq!(parse_wanted(p, "512KiB/s"), Ok(524_288.0));
        assert_eq!(parse_wanted(p, "1e7"), Ok(10_000_000.0));
        assert_eq!(parse_wanted(QuotaKey::RequestPercentage, "200%"), Ok(200.0));
        assert!(parse_wanted(p, "10 MiBs").unwrap_err().contains("is not a byte unit"));
        assert!(parse_wanted(QuotaKey::RequestPercentage, "2MB").unwrap_err().contains("is not a unit of request_percentage"));
        assert_eq!(parse_wanted(p, "MB").unwrap_err(), "it does not start with a number");
        assert!(parse_wanted(p, "0").unwrap_err().starts_with("Kafka refuses it: "));
        assert!(parse_wanted(p, "1.5").unwrap_err().starts_with("Kafka refuses it: "));
    }
}
