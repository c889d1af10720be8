//! Minimal stand-ins for Kafka's `Sanitizer.sanitize` and `jmxSanitize`.
//!
//! TODO(resolve): switch to `crate::principal`'s sanitize functions once they
//! land; these private copies exist only so resolution does not wait for them.
//!
//! Kafka: `clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java`.

/// `Sanitizer.sanitize`: `URLEncoder.encode(name, UTF-8)` (letters, digits,
/// `.`, `-`, `_`, `*` kept; space -> `+`; every other UTF-8 byte -> `%XX`),
/// then `*` -> `%2A` and `+` -> `%20`.
pub(crate) fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' => out.push(b as char),
            b' ' => out.push_str("%20"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xF) as usize] as char);
            }
        }
    }
    out
}

/// `Sanitizer.jmxSanitize`: the value unchanged when it matches
/// `[\w-%\. \t]*`, else `ObjectName.quote(value)`.
pub(crate) fn jmx_sanitize(value: &str) -> String {
    let safe = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '%' | '.' | ' ' | '\t'));
    if safe {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\\' | '"' | '*' | '?' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_matches_kafka_examples() {
        assert_eq!(sanitize("CN=alice,OU=eng"), "CN%3Dalice%2COU%3Deng");
        assert_eq!(sanitize("user with space"), "user%20with%20space");
        assert_eq!(sanitize("*"), "%2A");
        assert_eq!(sanitize("a+b"), "a%2Bb");
        assert_eq!(sanitize("ü"), "%C3%BC");
        assert_eq!(sanitize("%41"), "%2541");
        assert_eq!(sanitize("<default>"), "%3Cdefault%3E");
        assert_eq!(sanitize(""), "");
    }

    #[test]
    fn jmx_sanitize_quotes_only_unsafe_values() {
        assert_eq!(jmx_sanitize("app-1.x"), "app-1.x");
        assert_eq!(jmx_sanitize("a:b"), "\"a:b\"");
        assert_eq!(jmx_sanitize("a*\"?\\\n"), "\"a\\*\\\"\\?\\\\\\n\"");
        assert_eq!(jmx_sanitize("<default>"), "\"<default>\"");
    }
}
