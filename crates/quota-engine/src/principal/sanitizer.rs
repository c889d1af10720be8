//! How a principal name appears in metric tags and MBean names.
//!
//! Kafka: `Sanitizer` (`clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java`),
//! which leans on the JDK's `URLEncoder`, `URLDecoder` and `ObjectName.quote`.

use crate::jdk::unicode::java_digit16;

use super::error::{ErrorClass, PrincipalError};

/// URL-encodes a name for metric tags, MBean names and (old) ZooKeeper paths.
///
/// Letters, digits, `-`, `_` and `.` stay; every other character becomes its
/// UTF-8 bytes as `%XX` (upper-case hex), a space becomes `%20` and `*`
/// becomes `%2A` (Java's `URLEncoder` would give `+` and `*`). The output holds
/// only `A-Z a-z 0-9 - _ . %`.
///
/// Kafka: `Sanitizer.sanitize`.
///
/// # Example
/// ```
/// use quota_engine::principal::sanitize;
/// assert_eq!(sanitize("CN=alice,OU=eng"), "CN%3Dalice%2COU%3Deng");
/// assert_eq!(sanitize("user with space*"), "user%20with%20space%2A");
/// ```
pub fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut buf = [0u8; 4];
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
            out.push(c);
        } else if c == ' ' {
            out.push_str("%20");
        } else if c == '*' {
            out.push_str("%2A");
        } else {
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// Reverses [`sanitize`]: `URLDecoder.decode(name, UTF-8)`.
///
/// `+` decodes to a space, `%XX` runs decode as UTF-8 (malformed bytes become
/// U+FFFD). `desanitize(&sanitize(s)) == s` for every string.
///
/// Kafka: `Sanitizer.desanitize`.
///
/// # Errors
/// [`ErrorClass::IllegalArgument`] with the JDK's `URLDecoder` message:
/// `URLDecoder: Incomplete trailing escape (%) pattern` for a `%` with fewer
/// than two characters after it, `URLDecoder: Illegal hex characters in escape
/// (%) pattern - Error at index 0 in: "zz"` for non-hex digits, and
/// `... - negative value` for `%-1`.
///
/// # Example
/// ```
/// use quota_engine::principal::desanitize;
/// assert_eq!(desanitize("a%2Bb+c").unwrap(), "a+b c");
/// assert!(desanitize("100%").is_err());
/// ```
pub fn desanitize(name: &str) -> Result<String, PrincipalError> {
    let iae = |m: String| PrincipalError::new(ErrorClass::IllegalArgument, m);
    let s: Vec<u16> = name.encode_utf16().collect();
    let n = s.len();
    let mut out: Vec<u16> = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let mut c = s[i];
        if c == u16::from(b'+') {
            out.push(u16::from(b' '));
            i += 1;
        } else if c == u16::from(b'%') {
            let mut bytes = Vec::new();
            while i + 2 < n && c == u16::from(b'%') {
                let v = parse_hex_pair(&s[i + 1..i + 3]).map_err(|m| {
                    iae(format!(
                        "URLDecoder: Illegal hex characters in escape (%) pattern - {m}"
                    ))
                })?;
                if v < 0 {
                    return Err(iae(
                        "URLDecoder: Illegal hex characters in escape (%) pattern - negative value"
                            .to_owned(),
                    ));
                }
                bytes.push(v as u8);
                i += 3;
                if i < n {
                    c = s[i];
                }
            }
            if i < n && c == u16::from(b'%') {
                return Err(iae(
                    "URLDecoder: Incomplete trailing escape (%) pattern".to_owned()
                ));
            }
            out.extend(java_utf8_decode(&bytes).encode_utf16());
        } else {
            out.push(c);
            i += 1;
        }
    }
    Ok(String::from_utf16_lossy(&out))
}

/// Quotes a name with `ObjectName.quote` unless it only holds `[A-Za-z0-9_-%. \t]`.
///
/// Kafka uses this for every metric tag except the (already sanitized) user.
/// Quoting wraps in `"` and escapes `"`, `\`, `*`, `?` with a backslash and a
/// newline as `\n`.
///
/// Kafka: `Sanitizer.jmxSanitize`.
///
/// # Example
/// ```
/// use quota_engine::principal::jmx_sanitize;
/// assert_eq!(jmx_sanitize("app-1"), "app-1");
/// assert_eq!(jmx_sanitize("a*b"), "\"a\\*b\"");
/// ```
pub fn jmx_sanitize(name: &str) -> String {
    let safe =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '%' | '.' | ' ' | '\t');
    if name.chars().all(safe) {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
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

/// `Integer.parseInt(s, i+1, i+3, 16)` as `URLDecoder` calls it: the value, or
/// the `NumberFormatException` message (`Error at index N in: "xy"`).
fn parse_hex_pair(units: &[u16]) -> Result<i32, String> {
    let fail = |at: usize| {
        format!(
            "Error at index {at} in: \"{}\"",
            String::from_utf16_lossy(units)
        )
    };
    let len = units.len();
    let mut i = 0;
    let mut negative = false;
    let mut limit: i32 = -i32::MAX;
    let first = units[0];
    if first < u16::from(b'0') {
        if first == u16::from(b'-') {
            negative = true;
            limit = i32::MIN;
        } else if first != u16::from(b'+') {
            return Err(fail(0));
        }
        i += 1;
        if i == len {
            return Err(fail(i));
        }
    }
    let multmin = limit / 16;
    let mut result: i32 = 0;
    while i < len {
        let digit = java_digit16(units[i]);
        if digit < 0 || result < multmin {
            return Err(fail(i));
        }
        result *= 16;
        if result < limit + digit {
            return Err(fail(i));
        }
        i += 1;
        result -= digit;
    }
    Ok(if negative { result } else { -result })
}

/// `new String(bytes, UTF_8)`: malformed input becomes U+FFFD per maximal
/// invalid subpart, and an encoded surrogate (`ED A0..BF 80..BF`) becomes one
/// U+FFFD as the JDK decodes it.
fn java_utf8_decode(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push('\u{FFFD}');
                let skip = if bad.len() >= 3
                    && bad[0] == 0xED
                    && (0xA0..=0xBF).contains(&bad[1])
                    && (bad[2] & 0xC0) == 0x80
                {
                    3
                } else {
                    match e.error_len() {
                        Some(n) => n,
                        None => return out,
                    }
                };
                rest = &bad[skip..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sanitize_matches_kafka_examples() {
        assert_eq!(sanitize("ü"), "%C3%BC");
        assert_eq!(sanitize("~tilde"), "%7Etilde");
        assert_eq!(sanitize("😀"), "%F0%9F%98%80");
        assert_eq!(sanitize("-._"), "-._");
    }

    #[test]
    fn desanitize_errors_are_jdk_text() {
        assert_eq!(
            desanitize("%zz").unwrap_err().message(),
            "URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 0 in: \"zz\""
        );
        assert_eq!(
            desanitize("%-1").unwrap_err().message(),
            "URLDecoder: Illegal hex characters in escape (%) pattern - negative value"
        );
        assert_eq!(
            desanitize("%4").unwrap_err().message(),
            "URLDecoder: Incomplete trailing escape (%) pattern"
        );
        assert_eq!(
            desanitize("%+").unwrap_err().message(),
            "URLDecoder: Incomplete trailing escape (%) pattern"
        );
        assert_eq!(
            desanitize("%+g").unwrap_err().message(),
            "URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 1 in: \"+g\""
        );
        assert_eq!(desanitize("%+41").unwrap(), "\u{4}1");
    }

    #[test]
    fn desanitize_decodes_like_the_jdk() {
        assert_eq!(desanitize("%FF").unwrap(), "\u{FFFD}");
        assert_eq!(desanitize("%ED%A0%80x").unwrap(), "\u{FFFD}x");
        assert_eq!(desanitize("%ef%bc%a1").unwrap(), "Ａ");
        assert_eq!(desanitize("%４１").unwrap(), "A");
        assert_eq!(desanitize("%٤١").unwrap(), "A");
    }

    #[test]
    fn jmx_quotes_specials() {
        assert_eq!(jmx_sanitize("new\nline"), "\"new\\nline\"");
        assert_eq!(jmx_sanitize("?&#"), "\"\\?&#\"");
        assert_eq!(jmx_sanitize("100%"), "100%");
    }

    proptest! {
        #[test]
        fn desanitize_inverts_sanitize(s in any::<String>()) {
            prop_assert_eq!(desanitize(&sanitize(&s)).unwrap(), s);
        }

        #[test]
        fn sanitize_output_is_url_safe(s in any::<String>()) {
            let out = sanitize(&s);
            prop_assert!(out.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '%')));
        }

        #[test]
        fn sanitized_names_need_no_jmx_quoting(s in any::<String>()) {
            let out = sanitize(&s);
            prop_assert_eq!(jmx_sanitize(&out), out);
        }
    }
}
