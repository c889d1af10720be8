//! The few Java library behaviours that decide what `kafka-configs.sh`
//! prints: `Double.parseDouble`, `String.hashCode` and `java.util.HashMap`
//! iteration order (the tool prints maps and sets in that order).

/// Java's `Double.parseDouble` (`jdk.internal.math.FloatingDecimal.readJavaFormatString`):
/// surrounding characters `<= ' '` are trimmed; an optional sign; then
/// `NaN`, `Infinity`, a decimal number with optional exponent, or a
/// hexadecimal `0x1.8p3` number; an optional `f`/`F`/`d`/`D` suffix.
/// `None` where Java throws `NumberFormatException`.
pub(crate) fn parse_double(s: &str) -> Option<f64> {
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

/// Java's `String.hashCode` over UTF-16 code units (wrapping `int`).
pub(crate) fn string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// `Objects.hashCode` of a possibly-null string.
pub(crate) fn nullable_string_hash(s: Option<&str>) -> i32 {
    s.map_or(0, string_hash)
}

/// How a Java `HashMap` was created, which decides its final table size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MapInit {
    /// `new HashMap<>()`, `Collectors.toMap`, `Collectors.toSet`, `new HashSet<>()`.
    Default,
    /// `new HashMap<>(initialCapacity)`.
    WithCapacity(u32),
    /// `new HashSet<>(collection)` of a collection with this many elements.
    CopyOfCollection(u32),
}

/// The table size of a Java `HashMap` after `entries` insertions
/// (`HashMap.resize`: load factor 0.75; below 16 slots the threshold is
/// recomputed as `(int)(cap * 0.75)`, from 16 up it doubles).
pub(crate) fn hashmap_table_size(init: MapInit, entries: u32) -> u32 {
    fn table_size_for(c: u32) -> u32 {
        c.max(1).next_power_of_two().min(1 << 30)
    }
    let (mut cap, mut threshold) = match init {
        MapInit::Default => (16u32, 12u32),
        MapInit::WithCapacity(c) => {
            let cap = table_size_for(c);
            (cap, (cap as f32 * 0.75) as u32)
        }
        MapInit::CopyOfCollection(n) => {
            let cap = table_size_for(((n as f32 / 0.75) as u32 + 1).max(16));
            (cap, (cap as f32 * 0.75) as u32)
        }
    };
    while entries > threshold && cap < (1 << 30) {
        let old = cap;
        cap *= 2;
        threshold = if old >= 16 {
            threshold * 2
        } else {
            (cap as f32 * 0.75) as u32
        };
    }
    cap
}

/// The bucket of a key in a table of `table_size` slots (`HashMap.hash`:
/// `h ^ (h >>> 16)`, masked).
pub(crate) fn bucket(hash: i32, table_size: u32) -> u32 {
    let h = hash as u32;
    (h ^ (h >> 16)) & (table_size - 1)
}

/// Orders `items` as a Java `HashMap`/`HashSet` holding them would iterate:
/// by bucket in a table of `table_size` slots; items in the same bucket keep
/// their order in `items` (Java keeps insertion order within a bucket).
pub(crate) fn hashmap_order<T>(
    mut items: Vec<T>,
    table_size: u32,
    hash: impl Fn(&T) -> i32,
) -> Vec<T> {
    items.sort_by_key(|item| bucket(hash(item), table_size));
    items
}

/// Orders strings as a Java `HashSet<String>` built by `init` would.
pub(crate) fn hash_set_order(items: Vec<String>, init: MapInit) -> Vec<String> {
    let size = hashmap_table_size(init, items.len() as u32);
    hashmap_order(items, size, |s| string_hash(s))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn string_hash_matches_java() {
        // Values computed with Java's String.hashCode.
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("user"), 3_599_307);
        assert_eq!(string_hash("producer_byte_rate") as u32, 0xce61054a);
    }

    #[test]
    fn table_sizes_follow_hashmap_resize() {
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(0), 0), 1);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(1), 1), 2);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(2), 2), 4);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(3), 3), 4);
        assert_eq!(hashmap_table_size(MapInit::WithCapacity(4), 4), 8);
        assert_eq!(hashmap_table_size(MapInit::Default, 12), 16);
        assert_eq!(hashmap_table_size(MapInit::Default, 13), 32);
        assert_eq!(hashmap_table_size(MapInit::CopyOfCollection(3), 5), 16);
    }

    #[test]
    fn lab_key_order_is_consumer_then_producer() {
        // The lab prints consumer_byte_rate before producer_byte_rate.
        let keys = vec![
            "producer_byte_rate".to_owned(),
            "consumer_byte_rate".to_owned(),
        ];
        let ordered = hash_set_order(keys, MapInit::WithCapacity(2));
        assert_eq!(ordered, ["consumer_byte_rate", "producer_byte_rate"]);
    }
}
