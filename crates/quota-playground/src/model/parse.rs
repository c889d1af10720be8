//! Values as Kafka reads them: what the user types in a value field is read
//! exactly as the broker would read the same text, and text Kafka refuses is
//! refused here with the reason.
//!
//! - Quota values go through `kafka-configs.sh --alter --add-config` (or the
//!   Admin API) and are read with Java's `Double.parseDouble`
//!   (`quota_engine::jdk::double::parse_double`): `2e6`, `0x1p4`,
//!   ` 2000000 `, `NaN` and `Infinity` are numbers (the broker's validation
//!   then judges them); `2 000 000` and `1_000` are not.
//!   Kafka: core/src/main/scala/kafka/admin/ConfigCommand.scala
//!   (`parseConfigsToBeAdded`, `alterQuotaConfigs`).
//! - `kafka-configs.sh --add-config` splits its list on commas, so
//!   `producer_byte_rate=1,000` is two entries, `producer_byte_rate=1` and
//!   `000`, and the tool refuses the whole command because `000` has no `=`.
//! - Broker settings of type INT (`quota.window.num`, `num.io.threads`, ...)
//!   are trimmed and read with `Integer.parseInt`.
//!   Kafka: clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java
//!   (`parseType`, `case INT`).

use quota_engine::jdk::double::parse_double;
use quota_engine::store::validate::{config_keys_for_entity_type, EntityMap};
use quota_engine::{QuotaKey, RawEntity};

/// Java's `String.trim`: strips every character `<= ' '` at both ends (what
/// `kafka-configs.sh` and `ConfigDef.parseType` do before parsing).
fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Why Java refuses `t` (already trimmed) as a number, when the reason is
/// one a user typing digit groups would not guess; `key` names the quota key
/// for the comma explanation.
fn separator_reason(t: &str, key: Option<&str>) -> Option<String> {
    if let Some((first, rest)) = t.split_once(',') {
        let key = key.unwrap_or("producer_byte_rate");
        return Some(format!(
            "'{t}' is not a value Kafka reads: kafka-configs.sh --add-config splits its list on commas, \
             so {key}={t} is two entries, {key}={first} and '{rest}', and the tool refuses the whole command \
             (Invalid entity config: all configs to be added must be in the format \"key=val\"). \
             Type the number without separators."
        ));
    }
    let joined = t.split_whitespace().collect::<String>();
    if t.chars().any(char::is_whitespace) && parse_double(&joined).is_some() {
        return Some(format!(
            "'{t}' is not a number Kafka reads: Double.parseDouble refuses spaces inside a number. \
             Type it without spaces ({joined})."
        ));
    }
    if t.contains('_') && parse_double(&t.replace('_', "")).is_some() {
        return Some(format!(
            "'{t}' is not a number Kafka reads: Double.parseDouble refuses underscores \
             (digit separators exist only in Java source code). Type {}.",
            t.replace('_', "")
        ));
    }
    None
}

/// Why Kafka refuses `t` (already trimmed) as the value of `key` when it is
/// a number with a unit (`2 MB/s`, `2MiB`, `500k`, `50%`): the plain
/// number to type instead, said after Kafka's own message. The unit is read
/// as the advice panel reads a wanted limit ([`quota_engine::advice::parse_wanted`]:
/// k, M, G powers of 1000, Ki, Mi, Gi powers of 1024, an optional `B` and
/// `/s`, `%` for `request_percentage`), and the number must be one Kafka
/// then accepts; for a decimal prefix the binary figure is offered too.
/// `None` for anything else (bits such as `Mb` or `Mbps` included).
fn unit_reason(t: &str, key: QuotaKey) -> Option<String> {
    let value = quota_engine::advice::parse_wanted(key, t).ok()?;
    // 1.001 × 1000 is 1000.9999999999999: say the number the user meant.
    let say = |v: f64| if (v - v.round()).abs() < 1e-6 { format!("{}", v.round()) } else { format!("{v}") };
    let bytes = matches!(key, QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate);
    let unit = t.trim_end_matches("/s").trim_end_matches('B').trim_end();
    let binary = ["k", "K", "M", "G"].iter().find(|p| unit.ends_with(**p)).and_then(|p| {
        let number = unit.strip_suffix(*p)?.trim_end();
        let prefix = if *p == "k" { "K" } else { p };
        let v = quota_engine::advice::parse_wanted(key, &format!("{number}{prefix}iB")).ok()?;
        Some(format!(" ({} for {number} {prefix}iB/s)", say(v)))
    });
    Some(if bytes {
        format!(
            "{} is a plain number of bytes per second (Double.parseDouble refuses units): type {}{}.",
            key.as_str(),
            say(value),
            binary.unwrap_or_default()
        )
    } else {
        format!(
            "{} is a plain number, the percent of one broker thread (Double.parseDouble refuses '%'): type {}.",
            key.as_str(),
            say(value)
        )
    })
}

/// Parses a finite number typed by the user as Java's `Double.parseDouble`
/// reads it (`2000000`, ` 2e6 `, `0x1p4`); digit groups (`2 000 000`,
/// `1_000`, `1,000`) are refused with the reason.
///
/// # Errors
/// A sentence naming the text and why it is not a (finite) number.
pub fn parse_number(text: &str) -> Result<f64, String> {
    let t = java_trim(text);
    if t.is_empty() {
        return Err("Enter a number.".to_owned());
    }
    match parse_double(t) {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(format!("'{t}' is not a finite number.")),
        None => Err(separator_reason(t, None).unwrap_or_else(|| format!("'{t}' is not a number."))),
    }
}

/// Parses a quota value typed in the Quotas panel exactly as
/// `kafka-configs.sh --alter --add-config key=<text>` would: Java's
/// `Double.parseDouble` after trimming (`2e6`, `0x1p4`, ` 2000000 `, `NaN`,
/// `Infinity`; the broker's validation then judges the number).
///
/// Kafka: core/src/main/scala/kafka/admin/ConfigCommand.scala
/// (`parseConfigsToBeAdded` splits on commas; `alterQuotaConfigs` parses).
///
/// # Errors
/// For digit groups, why Kafka refuses them (spaces and underscores:
/// `Double.parseDouble`; commas: the `--add-config` list split); otherwise
/// the tool's own message (`Cannot parse quota configuration value for
/// producer_byte_rate: abc`), from `quota_formats::configs_sh`.
pub fn parse_quota_value(key: QuotaKey, text: &str) -> Result<f64, String> {
    let t = java_trim(text);
    if t.is_empty() {
        return Err("Enter a number.".to_owned());
    }
    if parse_double(t).is_none() {
        if let Some(reason) = separator_reason(t, Some(key.as_str())) {
            return Err(reason);
        }
    }
    quota_formats::configs_sh::parse_quota_value(key.as_str(), t).map_err(|kafka| match unit_reason(t, key) {
        Some(hint) => format!("{kafka}. {hint}"),
        None => kafka,
    })
}

/// Parses a whole-number setting named `name` (a broker or client config of
/// Kafka type INT or LONG, a perf-test count, the broker count) as Kafka
/// reads such settings (`String.trim`, then `Integer.parseInt` /
/// `Long.parseLong`: an optional sign and digits only, so `2e1`, `1.0` and
/// `1 000` are refused), within `[min, max]`.
///
/// Kafka: clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java
/// (`parseType`, `case INT` / `case LONG`). Java also reads non-ASCII
/// decimal digits (`Character.digit`); this reads ASCII digits only.
///
/// # Errors
/// A sentence naming the setting, the text and the reason.
pub fn parse_whole(text: &str, name: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = java_trim(text);
    if t.is_empty() {
        return Err(format!("Enter a whole number for {name}."));
    }
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        let reason = if t.chars().any(char::is_whitespace) {
            "spaces inside a number".to_owned()
        } else if t.contains('_') || t.contains(',') {
            "digit separators".to_owned()
        } else if parse_double(t).is_some() {
            "a decimal point, an exponent or anything but digits".to_owned()
        } else {
            "anything but digits with an optional sign".to_owned()
        };
        return Err(format!(
            "{name} = '{t}' is not a whole number: Kafka reads whole-number settings with Integer.parseInt or Long.parseLong, which refuse {reason}."
        ));
    }
    let in_range = t
        .parse::<i64>()
        .ok()
        .filter(|v| *v >= 0)
        .map(|v| v as u64)
        .filter(|v| (min..=max).contains(v));
    in_range
        .ok_or_else(|| format!("{name} must be a whole number from {min} to {max}; '{t}' is not."))
}

/// The quota keys Kafka accepts for an entity made of `entity_types`
/// (`["user"]`, `["user", "client-id"]`, `["ip"]`): asks the engine's
/// `configKeysForEntityType` with default names, so `ip` gives
/// `connection_creation_rate` only and `user` / `client-id` the four client
/// keys. Empty for a combination Kafka refuses (`ip` with `user`).
///
/// Kafka: `ClientQuotaControlManager.configKeysForEntityType`.
pub fn quota_keys_for(entity_types: &[&str]) -> Vec<QuotaKey> {
    let raw = RawEntity(
        entity_types
            .iter()
            .map(|t| ((*t).to_owned(), None))
            .collect(),
    );
    config_keys_for_entity_type(&EntityMap::from_wire(&raw))
        .map(<[QuotaKey]>::to_vec)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_java_reads_them() {
        assert_eq!(parse_number(" 2e6 "), Ok(2_000_000.0));
        assert_eq!(parse_number("0x1p4"), Ok(16.0));
        assert!(parse_number("two").unwrap_err().contains("'two'"));
        assert!(parse_number("").is_err());
        assert_eq!(
            parse_number("Infinity"),
            Err("'Infinity' is not a finite number.".to_owned())
        );
        assert!(parse_number("inf").is_err());
        assert!(parse_number("2,000,000")
            .unwrap_err()
            .contains("splits its list on commas"));
        assert!(parse_number("2 000 000")
            .unwrap_err()
            .contains("refuses spaces inside a number"));
    }

    #[test]
    fn quota_values_fail_with_kafka_configs_message() {
        assert_eq!(
            parse_quota_value(QuotaKey::ProducerByteRate, "abc"),
            Err("Cannot parse quota configuration value for producer_byte_rate: abc".to_owned())
        );
        assert_eq!(
            parse_quota_value(QuotaKey::ConsumerByteRate, " 10MB "),
            Err("Cannot parse quota configuration value for consumer_byte_rate: 10MB. consumer_byte_rate is a plain number of bytes per second \
                 (Double.parseDouble refuses units): type 10000000 (10485760 for 10 MiB/s)."
                .to_owned())
        );
        assert_eq!(
            parse_quota_value(QuotaKey::RequestPercentage, "2e1"),
            Ok(20.0)
        );
        // Java reads NaN; the broker's own check then answers for it.
        assert!(parse_quota_value(QuotaKey::ProducerByteRate, "NaN")
            .unwrap()
            .is_nan());
    }

    #[test]
    fn quota_values_accept_what_double_parse_double_accepts() {
        let p = |t: &str| parse_quota_value(QuotaKey::ProducerByteRate, t);
        assert_eq!(p("2e6"), Ok(2_000_000.0));
        assert_eq!(p("0x1p4"), Ok(16.0));
        assert_eq!(p(" 2000000 "), Ok(2_000_000.0));
        assert_eq!(p("2000000d"), Ok(2_000_000.0));
        assert_eq!(p("+5"), Ok(5.0));
        assert_eq!(p("Infinity"), Ok(f64::INFINITY));
        // Infinity is a number to Java; the broker's validation then refuses
        // it for a LONG key and accepts it for request_percentage (DOUBLE).
        let check = |key: &str| {
            quota_engine::store::validate::validate_quota_key_value(
                &QuotaKey::CLIENT_KEYS,
                key,
                f64::INFINITY,
            )
            .map_err(|e| e.message)
        };
        assert_eq!(
            check("producer_byte_rate"),
            Err("Proposed value for producer_byte_rate is too large for a LONG.".to_owned())
        );
        assert_eq!(check("request_percentage"), Ok(QuotaKey::RequestPercentage));
        // Java's trim also strips control characters such as a tab.
        assert_eq!(p("\t7\n"), Ok(7.0));
    }

    #[test]
    fn a_number_with_a_unit_is_refused_with_the_plain_number_to_type() {
        let p = |k: QuotaKey, t: &str| parse_quota_value(k, t).unwrap_err();
        let produce = |t: &str| p(QuotaKey::ProducerByteRate, t);
        assert_eq!(
            produce("2 MB/s"),
            "Cannot parse quota configuration value for producer_byte_rate: 2 MB/s. producer_byte_rate is a plain number of bytes per second \
             (Double.parseDouble refuses units): type 2000000 (2097152 for 2 MiB/s)."
        );
        assert!(produce("2MB/s").ends_with("type 2000000 (2097152 for 2 MiB/s)."), "{}", produce("2MB/s"));
        assert!(produce("1.5MB").ends_with("type 1500000 (1572864 for 1.5 MiB/s)."), "{}", produce("1.5MB"));
        assert!(produce("500k").ends_with("type 500000 (512000 for 500 KiB/s)."), "{}", produce("500k"));
        assert!(produce("2MiB/s").ends_with("type 2097152."), "{}", produce("2MiB/s"));
        // Bits, fractions of a byte, values past Long.MAX_VALUE: Kafka's message alone.
        for bare in ["3 Mbps", "3Mb/s", "8 kbit", "1.0005k", "20000000000G"] {
            assert_eq!(produce(bare), format!("Cannot parse quota configuration value for producer_byte_rate: {bare}"), "{bare}");
        }
        // The values Kafka accepts, read as the advice panel reads them; a
        // binary figure that is a fraction of a byte (1.1 MiB) is left out.
        assert!(produce("2.5k").ends_with("type 2500 (2560 for 2.5 KiB/s)."), "{}", produce("2.5k"));
        assert!(produce("1.1MB").ends_with("type 1100000."), "{}", produce("1.1MB"));
        assert!(produce("2_000 MB").starts_with("Cannot parse"), "{}", produce("2_000 MB"));
        assert!(p(QuotaKey::ConsumerByteRate, "1 GB").contains("consumer_byte_rate is a plain number of bytes per second"));
        assert_eq!(
            p(QuotaKey::RequestPercentage, "50%"),
            "Cannot parse quota configuration value for request_percentage: 50%. request_percentage is a plain number, \
             the percent of one broker thread (Double.parseDouble refuses '%'): type 50."
        );
        // Not a unit: Kafka's own message alone, and no advice to type '2MB/x'.
        assert_eq!(produce("2 MB/x"), "Cannot parse quota configuration value for producer_byte_rate: 2 MB/x");
        assert_eq!(produce("abc"), "Cannot parse quota configuration value for producer_byte_rate: abc");
    }

    #[test]
    fn digit_groups_are_refused_with_the_reason() {
        let p = |t: &str| parse_quota_value(QuotaKey::ProducerByteRate, t);
        assert_eq!(
            p("2 000 000"),
            Err("'2 000 000' is not a number Kafka reads: Double.parseDouble refuses spaces inside a number. \
                 Type it without spaces (2000000)."
                .to_owned())
        );
        assert_eq!(
            p("1_000"),
            Err(
                "'1_000' is not a number Kafka reads: Double.parseDouble refuses underscores \
                 (digit separators exist only in Java source code). Type 1000."
                    .to_owned()
            )
        );
        let comma = p("1,000").unwrap_err();
        assert!(comma.starts_with("'1,000' is not a value Kafka reads: kafka-configs.sh --add-config splits its list on commas"), "{comma}");
        assert!(comma.contains("producer_byte_rate=1 and '000'"), "{comma}");
        assert!(comma.contains("key=val"), "{comma}");
        let comma = parse_quota_value(QuotaKey::RequestPercentage, "2,5").unwrap_err();
        assert!(comma.contains("request_percentage=2 and '5'"), "{comma}");
    }

    #[test]
    fn broker_settings_are_read_with_integer_parse_int() {
        assert_eq!(parse_whole("11", "quota.window.num", 1, 100), Ok(11));
        assert_eq!(parse_whole(" 3 ", "Brokers", 1, 9), Ok(3));
        assert_eq!(parse_whole("+3", "Brokers", 1, 9), Ok(3));
        assert_eq!(
            parse_whole("abc", "Brokers", 1, 9),
            Err("Brokers = 'abc' is not a whole number: Kafka reads whole-number settings with \
                 Integer.parseInt or Long.parseLong, which refuse anything but digits with an optional sign."
                .to_owned())
        );
        let x = parse_whole("x", "quota.window.num", 1, 1000).unwrap_err();
        assert!(
            x.starts_with("quota.window.num = 'x' is not a whole number"),
            "{x}"
        );
        assert!(parse_whole("2e1", "num.io.threads", 1, 256)
            .unwrap_err()
            .contains("a decimal point, an exponent"));
        assert!(parse_whole("1.5", "quota.window.num", 1, 100)
            .unwrap_err()
            .contains("quota.window.num"));
        assert!(parse_whole("1 000", "quota.window.num", 1, 1000)
            .unwrap_err()
            .contains("spaces inside a number"));
        assert!(parse_whole("1_0", "quota.window.num", 1, 1000)
            .unwrap_err()
            .contains("digit separators"));
        assert_eq!(
            parse_whole("", "Brokers", 1, 9),
            Err("Enter a whole number for Brokers.".to_owned())
        );
        assert_eq!(
            parse_whole("0", "Brokers", 1, 9),
            Err("Brokers must be a whole number from 1 to 9; '0' is not.".to_owned())
        );
        assert!(parse_whole("-2", "Brokers", 1, 9)
            .unwrap_err()
            .contains("from 1 to 9"));
        assert!(parse_whole("99999999999999999999", "Brokers", 1, 9)
            .unwrap_err()
            .contains("from 1 to 9"));
    }

    #[test]
    fn key_menu_follows_the_entity_type() {
        assert_eq!(
            quota_keys_for(&["ip"]),
            vec![QuotaKey::ConnectionCreationRate]
        );
        assert_eq!(quota_keys_for(&["user"]), QuotaKey::CLIENT_KEYS.to_vec());
        assert_eq!(
            quota_keys_for(&["client-id"]),
            QuotaKey::CLIENT_KEYS.to_vec()
        );
        assert_eq!(
            quota_keys_for(&["user", "client-id"]),
            QuotaKey::CLIENT_KEYS.to_vec()
        );
        assert!(!quota_keys_for(&["user"]).contains(&QuotaKey::ConnectionCreationRate));
        assert_eq!(quota_keys_for(&["ip", "user"]), Vec::<QuotaKey>::new());
    }
}
