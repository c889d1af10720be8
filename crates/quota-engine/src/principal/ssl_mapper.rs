//! `ssl.principal.mapping.rules`: from a certificate's distinguished name to a
//! principal name.
//!
//! Kafka: `SslPrincipalMapper`
//! (`clients/src/main/java/org/apache/kafka/common/security/ssl/SslPrincipalMapper.java`).
//!
//! The DN is taken as the user typed it and treated as the RFC 2253 string
//! Kafka would read from the certificate (`X500Principal.getName()`): no
//! spaces after commas, attribute keywords upper-case, special characters
//! escaped with `\`. A DN copied from `openssl x509 -subject` (`CN = x, O = y`)
//! is *not* in that form; retype it as `CN=x,O=y`.

use std::fmt;
use std::sync::OnceLock;

use super::error::{parse_java_int, ErrorClass, PrincipalError};
use crate::jdk::regex::JavaPattern;

/// Kafka's `RULE_PATTERN`: `DEFAULT`, `RULE:pattern/replacement/[LU]`, or anything (an error later).
const RULE_PATTERN: &str = r"(DEFAULT)|RULE:((\\.|[^\\/])*)/((\\.|[^\\/])*)/([LU]?).*?|(.*?)";

fn rule_splitter() -> &'static Option<JavaPattern> {
    static P: OnceLock<Option<JavaPattern>> = OnceLock::new();
    P.get_or_init(|| JavaPattern::compile(&format!(r"\s*({RULE_PATTERN})\s*(,\s*|$)")).ok())
}

fn rule_parser() -> &'static Option<JavaPattern> {
    static P: OnceLock<Option<JavaPattern>> = OnceLock::new();
    P.get_or_init(|| JavaPattern::compile(RULE_PATTERN).ok())
}

fn internal(what: &str) -> PrincipalError {
    PrincipalError::new(
        ErrorClass::UnsupportedRegex,
        format!("The engine could not compile Kafka's {what} pattern."),
    )
}

/// `String.trim()`: strips every character up to U+0020 from both ends.
pub(crate) fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// One parsed entry of `ssl.principal.mapping.rules`.
///
/// `Display` prints it as Kafka's `Rule.toString()` does: `DEFAULT` or
/// `RULE:pattern/replacement` followed by `/L` or `/U` (a trailing `/` without
/// a flag is not printed back). [`SslRule::as_written`] gives the entry as
/// the configuration wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct SslRule {
    kind: SslRuleKind,
    /// The entry as written in `ssl.principal.mapping.rules` (trimmed).
    written: String,
}

#[derive(Debug, Clone, PartialEq)]
enum SslRuleKind {
    Default,
    Rule {
        pattern: Box<JavaPattern>,
        replacement: String,
        to_lower_case: bool,
        to_upper_case: bool,
    },
}

impl SslRule {
    /// True for `DEFAULT` (the DN unchanged).
    pub fn is_default(&self) -> bool {
        matches!(self.kind, SslRuleKind::Default)
    }

    /// The entry as the configuration wrote it (`RULE:^CN=(.*?),.*$/$1/`
    /// keeps its trailing `/`, which Kafka's `toString()` drops).
    pub fn as_written(&self) -> &str {
        &self.written
    }

    /// `Rule.apply`: the mapped name, or `None` when the pattern does not
    /// match the whole DN.
    fn apply(&self, dn: &str) -> Result<Option<String>, PrincipalError> {
        let SslRuleKind::Rule {
            pattern,
            replacement,
            to_lower_case,
            to_upper_case,
        } = &self.kind
        else {
            return Ok(Some(dn.to_owned()));
        };
        if pattern.matches(dn)?.is_none() {
            return Ok(None);
        }
        let escaped = escape_literal_back_references(replacement, pattern.group_count())?;
        let mut result = pattern.replace(dn, &escaped, true)?;
        if *to_lower_case {
            result = crate::jdk::case::java_to_lower(&result);
        } else if *to_upper_case {
            result = crate::jdk::case::java_to_upper(&result);
        }
        Ok(Some(result))
    }
}

impl fmt::Display for SslRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SslRuleKind::Default => f.write_str("DEFAULT"),
            SslRuleKind::Rule {
                pattern,
                replacement,
                to_lower_case,
                to_upper_case,
            } => {
                write!(f, "RULE:{}/{replacement}", pattern.as_str())?;
                if *to_lower_case {
                    f.write_str("/L")
                } else if *to_upper_case {
                    f.write_str("/U")
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// `Rule.escapeLiteralBackReferences` (taken by Kafka from Apache NiFi): a
/// `$n` naming a group the pattern lacks is kept literally by escaping its
/// `$`, after dropping trailing digits while the number is too big and has
/// two or more digits (`$12` with one group is `$1` followed by `2`).
///
/// Kafka's loop inserts at positions of the *original* string while the
/// string it edits grows, so a second escape lands one character early; this
/// is reproduced (positions are UTF-16 units, as in Java).
fn escape_literal_back_references(unescaped: &str, groups: u32) -> Result<String, PrincipalError> {
    if groups == 0 {
        return Ok(unescaped.to_owned());
    }
    let orig: Vec<u16> = unescaped.encode_utf16().collect();
    let mut value = orig.clone();
    let is_digit = |u: u16| (u16::from(b'0')..=u16::from(b'9')).contains(&u);
    let mut i = 0;
    while i < orig.len() {
        if orig[i] == u16::from(b'$') && i + 1 < orig.len() && is_digit(orig[i + 1]) {
            let group_start = i + 1;
            let mut j = group_start;
            while j < orig.len() && is_digit(orig[j]) {
                j += 1;
            }
            i = j;
            let digits = String::from_utf16_lossy(&orig[group_start..j]);
            if digits.starts_with('0') {
                continue;
            }
            let mut index = parse_java_int(&digits)?;
            while index > groups && index >= 10 {
                index /= 10;
            }
            if index > groups {
                let at = (group_start - 1).min(value.len());
                value.insert(at, u16::from(b'\\'));
            }
        } else {
            i += 1;
        }
    }
    Ok(String::from_utf16_lossy(&value))
}

/// Which rule produced a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SslMapping {
    /// The principal name.
    pub name: String,
    /// Position of the matching rule in the list (0-based).
    pub rule_index: u32,
    /// The matching rule as the configuration wrote it (not Kafka's
    /// `toString()`, which drops a trailing `/` without a flag).
    pub rule: String,
}

/// Parsed `ssl.principal.mapping.rules`.
///
/// `Display` gives Kafka's `toString()`: `SslPrincipalMapper(rules = [RULE:.../L, DEFAULT])`.
///
/// # Example
/// ```
/// use quota_engine::principal::SslPrincipalMapper;
/// let m = SslPrincipalMapper::from_rules(Some("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT"))?;
/// assert_eq!(m.get_name("CN=Kafka1,OU=ServiceUsers,O=Org")?, "kafka1");
/// assert_eq!(m.get_name("CN=x,OU=Other")?, "CN=x,OU=Other");
/// # Ok::<(), quota_engine::principal::PrincipalError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SslPrincipalMapper {
    rules: Vec<SslRule>,
}

impl SslPrincipalMapper {
    /// `SslPrincipalMapper.fromRules`: parses the comma-separated rule list;
    /// `None` means the default `DEFAULT`. Empty entries are skipped; an empty
    /// string gives no rules at all (every DN then fails to map).
    ///
    /// # Errors
    /// `IllegalArgumentException` with Kafka's message for a malformed entry
    /// (``Invalid rule: `FOO`, unmatched substring: `FOO` ``),
    /// `PatternSyntaxException` with the JDK's message for a pattern Java
    /// rejects, [`ErrorClass::UnsupportedRegex`] for a Java regex feature the
    /// engine does not reproduce.
    pub fn from_rules(rules: Option<&str>) -> Result<Self, PrincipalError> {
        let splitter = rule_splitter()
            .as_ref()
            .ok_or_else(|| internal("rule splitter"))?;
        let parser = rule_parser()
            .as_ref()
            .ok_or_else(|| internal("rule parser"))?;
        let text = java_trim(rules.unwrap_or("DEFAULT"));
        let mut parsed = Vec::new();
        for groups in splitter.find_all(text, None)? {
            let Some((s, e)) = groups.get(1).copied().flatten() else {
                continue;
            };
            let rule = &text[s..e];
            let Some(m) = parser.looking_at(rule)? else {
                return Err(PrincipalError::new(
                    ErrorClass::IllegalArgument,
                    format!("Invalid rule: {rule}"),
                ));
            };
            let end = m[0].map_or(0, |(_, e)| e);
            if end != rule.len() {
                return Err(PrincipalError::new(
                    ErrorClass::IllegalArgument,
                    format!(
                        "Invalid rule: `{rule}`, unmatched substring: `{}`",
                        &rule[end..]
                    ),
                ));
            }
            let group = |i: usize| m.get(i).copied().flatten().map(|(s, e)| &rule[s..e]);
            if group(1).is_some() {
                parsed.push(SslRule {
                    kind: SslRuleKind::Default,
                    written: java_trim(rule).to_owned(),
                });
            } else if let Some(pattern) = group(2) {
                let flag = group(6).unwrap_or("");
                parsed.push(SslRule {
                    kind: SslRuleKind::Rule {
                        pattern: Box::new(JavaPattern::compile(pattern)?),
                        replacement: group(4).unwrap_or("").to_owned(),
                        to_lower_case: flag == "L",
                        to_upper_case: flag == "U",
                    },
                    written: java_trim(rule).to_owned(),
                });
            }
        }
        Ok(SslPrincipalMapper { rules: parsed })
    }

    /// The parsed rules, in order.
    pub fn rules(&self) -> &[SslRule] {
        &self.rules
    }

    /// `getName(dn)`: the first rule that applies gives the name.
    ///
    /// # Errors
    /// `SslPrincipalMapper$NoMatchingRule`: `No rules apply to <dn>, rules [...]`;
    /// the JDK's `IndexOutOfBoundsException` / `IllegalArgumentException` /
    /// `NumberFormatException` when a replacement is unusable (Kafka raises
    /// them too).
    pub fn get_name(&self, dn: &str) -> Result<String, PrincipalError> {
        self.map(dn).map(|m| m.name)
    }

    /// Like [`SslPrincipalMapper::get_name`], also telling which rule matched.
    ///
    /// # Errors
    /// As [`SslPrincipalMapper::get_name`].
    pub fn map(&self, dn: &str) -> Result<SslMapping, PrincipalError> {
        for (i, rule) in self.rules.iter().enumerate() {
            if let Some(name) = rule.apply(dn)? {
                return Ok(SslMapping {
                    name,
                    rule_index: i as u32,
                    rule: rule.as_written().to_owned(),
                });
            }
        }
        Err(PrincipalError::new(
            ErrorClass::SslNoMatchingRule,
            format!("No rules apply to {dn}, rules [{}]", self.rules_joined()),
        ))
    }

    fn rules_joined(&self) -> String {
        self.rules
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for SslPrincipalMapper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SslPrincipalMapper(rules = [{}])", self.rules_joined())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapper(r: &str) -> SslPrincipalMapper {
        SslPrincipalMapper::from_rules(Some(r)).unwrap_or_else(|e| panic!("{r}: {e}"))
    }

    #[test]
    fn default_and_none_keep_the_dn() {
        for m in [
            SslPrincipalMapper::from_rules(None).unwrap(),
            mapper("DEFAULT"),
        ] {
            assert_eq!(m.get_name("CN=a, O=b").unwrap(), "CN=a, O=b");
            assert_eq!(m.to_string(), "SslPrincipalMapper(rules = [DEFAULT])");
        }
    }

    /// Issue 29: the derivation names the rule as written, trailing `/`
    /// included; Kafka's own `toString()` (in its messages) drops it.
    #[test]
    fn the_matching_rule_is_named_as_written() {
        let m = mapper("RULE:^CN=(.*?),OU=.*$/$1/ , DEFAULT");
        let hit = m.map("CN=app,OU=eng").unwrap();
        assert_eq!((hit.name.as_str(), hit.rule.as_str()), ("app", "RULE:^CN=(.*?),OU=.*$/$1/"));
        assert_eq!(m.rules()[0].to_string(), "RULE:^CN=(.*?),OU=.*$/$1");
        assert_eq!(m.to_string(), "SslPrincipalMapper(rules = [RULE:^CN=(.*?),OU=.*$/$1, DEFAULT])");
        assert_eq!(mapper("RULE:^(.*)$/$1/L").map("X").unwrap().rule, "RULE:^(.*)$/$1/L");
    }

    #[test]
    fn flags_and_first_match_win() {
        let m = mapper("RULE:^CN=([^,]*).*$/$1/U,RULE:^(.*)$/$1/L");
        let hit = m.map("CN=kafka,O=x").unwrap();
        assert_eq!((hit.name.as_str(), hit.rule_index), ("KAFKA", 0));
        assert_eq!(m.map("O=X").unwrap().name, "o=x");
    }

    #[test]
    fn out_of_range_backrefs_stay_literal() {
        assert_eq!(
            mapper("RULE:^CN=(.*)$/$1-$2/").get_name("CN=a").unwrap(),
            "a-$2"
        );
        assert_eq!(
            mapper("RULE:^CN=(.*)$/$12/").get_name("CN=a").unwrap(),
            "a2"
        );
        // Kafka's off-by-one: the second escape lands on the '-', leaving $3 unescaped.
        assert_eq!(
            mapper("RULE:^CN=(.*)$/$2-$3/")
                .get_name("CN=a")
                .unwrap_err()
                .message(),
            "No group 3"
        );
        // With no groups at all Kafka does not escape, and Java fails.
        assert_eq!(
            mapper("RULE:^CN=.*$/$1/")
                .get_name("CN=a")
                .unwrap_err()
                .class(),
            ErrorClass::IndexOutOfBounds
        );
        assert_eq!(
            mapper("RULE:^CN=(.*)$/$99999999999/")
                .get_name("CN=a")
                .unwrap_err()
                .message(),
            "For input string: \"99999999999\""
        );
    }

    #[test]
    fn replace_all_runs_after_the_whole_match() {
        // Java's replaceAll also replaces the empty match at the end.
        assert_eq!(mapper("RULE:(.*)/[$1]/").get_name("ab").unwrap(), "[ab][]");
    }

    #[test]
    fn malformed_rules_use_kafka_text() {
        let e = SslPrincipalMapper::from_rules(Some("RULE:^CN=(.*?),.*$/$1/L/")).unwrap_err();
        assert_eq!(
            e.message(),
            "Invalid rule: `RULE:^CN=(.*?),.*$/$1/L/`, unmatched substring: `/`"
        );
        let e = SslPrincipalMapper::from_rules(Some("RULE:^CN=(.*/$1/")).unwrap_err();
        assert_eq!(
            (e.class(), e.message()),
            (
                ErrorClass::PatternSyntax,
                "Unclosed group near index 7\n^CN=(.*"
            )
        );
    }

    proptest::proptest! {
        #[test]
        fn default_returns_any_dn(dn in "\\PC*") {
            let m = SslPrincipalMapper::from_rules(None).unwrap();
            proptest::prop_assert_eq!(m.get_name(&dn).unwrap(), dn);
        }
    }

    #[test]
    fn no_rules_means_nothing_maps() {
        let e = mapper("").get_name("CN=x").unwrap_err();
        assert_eq!(e.message(), "No rules apply to CN=x, rules []");
        assert_eq!(e.class(), ErrorClass::SslNoMatchingRule);
    }
}
