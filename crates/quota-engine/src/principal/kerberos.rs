//! `sasl.kerberos.principal.to.local.rules`: from a Kerberos principal to a
//! short name.
//!
//! Kafka: `KerberosName`, `KerberosRule`, `KerberosShortNamer`
//! (`clients/src/main/java/org/apache/kafka/common/security/kerberos/`), and
//! `ConfigDef`'s LIST parsing for the configuration string
//! (`clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java`).

use std::fmt;
use std::sync::OnceLock;

use super::error::{parse_java_int, ErrorClass, PrincipalError};
use crate::jdk::regex::JavaPattern;
use super::ssl_mapper::java_trim;

fn compiled(
    cell: &'static OnceLock<Option<JavaPattern>>,
    src: &str,
) -> Result<&'static JavaPattern, PrincipalError> {
    cell.get_or_init(|| JavaPattern::compile(src).ok())
        .as_ref()
        .ok_or_else(|| {
            PrincipalError::new(
                ErrorClass::UnsupportedRegex,
                format!("The engine could not compile Kafka's pattern `{src}`."),
            )
        })
}

fn name_parser() -> Result<&'static JavaPattern, PrincipalError> {
    static P: OnceLock<Option<JavaPattern>> = OnceLock::new();
    compiled(&P, "([^/@]*)(/([^/@]*))?@([^/@]*)")
}

fn rule_parser() -> Result<&'static JavaPattern, PrincipalError> {
    static P: OnceLock<Option<JavaPattern>> = OnceLock::new();
    compiled(
        &P,
        r"((DEFAULT)|((RULE:\[(\d*):([^\]]*)](\(([^)]*)\))?(s/([^/]*)/([^/]*)/(g)?)?/?(L|U)?)))",
    )
}

fn parameter_pattern() -> Result<&'static JavaPattern, PrincipalError> {
    static P: OnceLock<Option<JavaPattern>> = OnceLock::new();
    compiled(&P, r"([^$]*)(\$(\d*))?")
}

/// A Kerberos principal split into `service/host@REALM`.
///
/// `Display` puts it back together (`KerberosName.toString()`).
///
/// Kafka: `KerberosName`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KerberosName {
    /// The first component (`kafka` in `kafka/broker1@EXAMPLE.COM`); may be empty.
    pub service_name: String,
    /// The second component, if any (`broker1`).
    pub host_name: Option<String>,
    /// The realm, if any (`EXAMPLE.COM`); `Some("")` for `user@`.
    pub realm: Option<String>,
}

impl KerberosName {
    /// `KerberosName.parse`: `service[/host]@realm`, or a simple name without `@`.
    ///
    /// # Errors
    /// `IllegalArgumentException`: `Malformed Kerberos name: <name>` when the
    /// name has an `@` but more than one `/` or `@` in the wrong places.
    ///
    /// # Example
    /// ```
    /// use quota_engine::principal::KerberosName;
    /// let n = KerberosName::parse("kafka/broker1@EXAMPLE.COM")?;
    /// assert_eq!(n.host_name.as_deref(), Some("broker1"));
    /// assert!(KerberosName::parse("bad@name@X").is_err());
    /// # Ok::<(), quota_engine::principal::PrincipalError>(())
    /// ```
    pub fn parse(principal_name: &str) -> Result<Self, PrincipalError> {
        let Some(m) = name_parser()?.matches(principal_name)? else {
            if principal_name.contains('@') {
                return Err(PrincipalError::new(
                    ErrorClass::IllegalArgument,
                    format!("Malformed Kerberos name: {principal_name}"),
                ));
            }
            return Ok(KerberosName {
                service_name: principal_name.to_owned(),
                host_name: None,
                realm: None,
            });
        };
        let group = |i: usize| {
            m.get(i)
                .copied()
                .flatten()
                .map(|(s, e)| principal_name[s..e].to_owned())
        };
        Ok(KerberosName {
            service_name: group(1).unwrap_or_default(),
            host_name: group(3),
            realm: group(4),
        })
    }
}

impl fmt::Display for KerberosName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.service_name)?;
        if let Some(h) = &self.host_name {
            write!(f, "/{h}")?;
        }
        if let Some(r) = &self.realm {
            write!(f, "@{r}")?;
        }
        Ok(())
    }
}

/// One parsed `auth_to_local` rule: `DEFAULT` or
/// `RULE:[n:format](match)s/from/to/g/L`.
///
/// `Display` gives Kafka's `KerberosRule.toString()` (the component count is
/// printed as a number, so `[01:$1]` prints as `[1:$1]`).
#[derive(Debug, Clone, PartialEq)]
pub struct KerberosRule {
    default_realm: String,
    kind: KerberosRuleKind,
}

#[derive(Debug, Clone, PartialEq)]
enum KerberosRuleKind {
    Default,
    Rule {
        num_of_components: u32,
        format: String,
        match_pattern: Option<Box<JavaPattern>>,
        from_pattern: Option<Box<JavaPattern>>,
        to_pattern: Option<String>,
        repeat: bool,
        to_lower_case: bool,
        to_upper_case: bool,
    },
}

impl KerberosRule {
    /// True for `DEFAULT` (strip host and realm when the realm is the default one).
    pub fn is_default(&self) -> bool {
        matches!(self.kind, KerberosRuleKind::Default)
    }

    /// `KerberosRule.apply(params)`: `params` is `[realm, first, second?]`
    /// (`None` only for a realm-less name built by hand).
    fn apply(&self, params: &[Option<&str>]) -> Result<Option<String>, PrincipalError> {
        let mut result: Option<String> = None;
        match &self.kind {
            KerberosRuleKind::Default => {
                if params.first().copied().flatten() == Some(self.default_realm.as_str()) {
                    result = params.get(1).copied().flatten().map(str::to_owned);
                }
            }
            KerberosRuleKind::Rule {
                num_of_components,
                format,
                match_pattern,
                from_pattern,
                to_pattern,
                repeat,
                ..
            } => {
                if params.len() as u64 - 1 == u64::from(*num_of_components) {
                    let base = replace_parameters(format, params)?;
                    let matched = match match_pattern {
                        None => true,
                        Some(p) => p.matches(&base)?.is_some(),
                    };
                    if matched {
                        result = Some(match from_pattern {
                            None => base,
                            Some(from) => {
                                from.replace(&base, to_pattern.as_deref().unwrap_or(""), *repeat)?
                            }
                        });
                    }
                }
            }
        }
        if let Some(r) = &result {
            if r.contains('/') || r.contains('@') {
                return Err(PrincipalError::new(
                    ErrorClass::KerberosNoMatchingRule,
                    format!("Non-simple name {r} after auth_to_local rule {self}"),
                ));
            }
        }
        if let KerberosRuleKind::Rule {
            to_lower_case,
            to_upper_case,
            ..
        } = &self.kind
        {
            if *to_lower_case {
                result = result.map(|r| crate::jdk::case::java_to_lower(&r));
            } else if *to_upper_case {
                result = result.map(|r| crate::jdk::case::java_to_upper(&r));
            }
        }
        Ok(result)
    }
}

/// `KerberosRule.replaceParameters`: `$n` in the format is the n-th parameter
/// (`$0` the realm, `$1` the first component, `$2` the second).
fn replace_parameters(format: &str, params: &[Option<&str>]) -> Result<String, PrincipalError> {
    let pat = parameter_pattern()?;
    let mut start = 0;
    let mut result = String::new();
    while start < format.len() {
        let Some(m) = pat.find_at(format, start)? else {
            break;
        };
        let group = |i: usize| m.get(i).copied().flatten().map(|(s, e)| &format[s..e]);
        result.push_str(group(1).unwrap_or(""));
        if let Some(num) = group(3) {
            match parse_java_int(num) {
                Ok(n) if (n as usize) < params.len() => {
                    result.push_str(params[n as usize].unwrap_or("null"))
                }
                Ok(n) => {
                    return Err(PrincipalError::new(
                        ErrorClass::KerberosBadFormatString,
                        format!(
                            "index {n} from {format} is outside of the valid range 0 to {}",
                            params.len() as i64 - 1
                        ),
                    ));
                }
                Err(_) => {
                    return Err(PrincipalError::new(
                        ErrorClass::KerberosBadFormatString,
                        format!("bad format in username mapping in {num}"),
                    ));
                }
            }
        }
        let end = m[0].map_or(format.len(), |(_, e)| e);
        if end <= start {
            break;
        }
        start = end;
    }
    Ok(result)
}

impl fmt::Display for KerberosRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            KerberosRuleKind::Default => f.write_str("DEFAULT"),
            KerberosRuleKind::Rule {
                num_of_components,
                format,
                match_pattern,
                from_pattern,
                to_pattern,
                repeat,
                to_lower_case,
                to_upper_case,
            } => {
                write!(f, "RULE:[{num_of_components}:{format}]")?;
                if let Some(m) = match_pattern {
                    write!(f, "({})", m.as_str())?;
                }
                if let Some(from) = from_pattern {
                    write!(
                        f,
                        "s/{}/{}/",
                        from.as_str(),
                        to_pattern.as_deref().unwrap_or("null")
                    )?;
                    if *repeat {
                        f.write_str("g")?;
                    }
                }
                if *to_lower_case {
                    f.write_str("/L")?;
                }
                if *to_upper_case {
                    f.write_str("/U")?;
                }
                Ok(())
            }
        }
    }
}

/// Which rule produced a short name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KerberosMapping {
    /// The short name (the principal name Kafka uses).
    pub short_name: String,
    /// The matching rule's position (0-based) and text; `None` when the name
    /// had neither host nor realm and is used as it is, without any rule.
    pub rule: Option<(u32, String)>,
}

/// Parsed `sasl.kerberos.principal.to.local.rules`.
///
/// `Display` gives Kafka's `toString()`:
/// `KerberosShortNamer(principalToLocalRules = [RULE:[1:$1]/L, DEFAULT])`.
///
/// # Example
/// ```
/// use quota_engine::principal::{KerberosName, KerberosShortNamer};
/// let rules = vec!["RULE:[2:$1@$0](.*@EXAMPLE.COM)s/@.*//".to_owned(), "DEFAULT".to_owned()];
/// let namer = KerberosShortNamer::from_unparsed_rules("EXAMPLE.COM", Some(&rules))?;
/// let name = KerberosName::parse("kafka/broker1@EXAMPLE.COM")?;
/// assert_eq!(namer.short_name(&name)?, "kafka");
/// # Ok::<(), quota_engine::principal::PrincipalError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KerberosShortNamer {
    rules: Vec<KerberosRule>,
}

impl KerberosShortNamer {
    /// `KerberosShortNamer.fromUnparsedRules`: `None` means `["DEFAULT"]`.
    /// `default_realm` is the broker's default Kerberos realm (Kafka uses `""`
    /// when it cannot find one).
    ///
    /// # Errors
    /// `IllegalArgumentException`: `Invalid rule: <rule>` or
    /// ``Invalid rule: `<rule>`, unmatched substring: `<rest>` ``;
    /// `NumberFormatException` for `RULE:[:...]`; `PatternSyntaxException`
    /// for a bad regex; [`ErrorClass::UnsupportedRegex`] for a Java regex
    /// feature the engine does not reproduce.
    pub fn from_unparsed_rules(
        default_realm: &str,
        rules: Option<&[String]>,
    ) -> Result<Self, PrincipalError> {
        let default_rules = ["DEFAULT".to_owned()];
        let rules = rules.unwrap_or(&default_rules);
        let parser = rule_parser()?;
        let mut out = Vec::with_capacity(rules.len());
        for rule in rules {
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
            let kind = if group(2).is_some() {
                KerberosRuleKind::Default
            } else {
                let num_of_components = parse_java_int(group(5).unwrap_or(""))?;
                let match_pattern = group(8)
                    .map(JavaPattern::compile)
                    .transpose()?
                    .map(Box::new);
                let from_pattern = group(10)
                    .map(JavaPattern::compile)
                    .transpose()?
                    .map(Box::new);
                KerberosRuleKind::Rule {
                    num_of_components,
                    format: group(6).unwrap_or("").to_owned(),
                    match_pattern,
                    from_pattern,
                    to_pattern: group(11).map(str::to_owned),
                    repeat: group(12) == Some("g"),
                    to_lower_case: group(13) == Some("L"),
                    to_upper_case: group(13) == Some("U"),
                }
            };
            out.push(KerberosRule {
                default_realm: default_realm.to_owned(),
                kind,
            });
        }
        Ok(KerberosShortNamer { rules: out })
    }

    /// The parsed rules, in order.
    pub fn rules(&self) -> &[KerberosRule] {
        &self.rules
    }

    /// `shortName(kerberosName)`: a name with neither host nor realm is
    /// returned as it is; otherwise the first rule that applies decides.
    ///
    /// # Errors
    /// `NoMatchingRule` (`No rules apply to <name>, rules [...]`, or
    /// `Non-simple name <result> after auth_to_local rule <rule>` when a rule
    /// yields a name with `/` or `@`), `BadFormatString` for a `$n` outside the
    /// name's components, and the JDK's replacement errors.
    pub fn short_name(&self, name: &KerberosName) -> Result<String, PrincipalError> {
        self.map(name).map(|m| m.short_name)
    }

    /// Like [`KerberosShortNamer::short_name`], also telling which rule matched.
    ///
    /// # Errors
    /// As [`KerberosShortNamer::short_name`].
    pub fn map(&self, name: &KerberosName) -> Result<KerberosMapping, PrincipalError> {
        let params: Vec<Option<&str>> = match &name.host_name {
            None => {
                if name.realm.is_none() {
                    return Ok(KerberosMapping {
                        short_name: name.service_name.clone(),
                        rule: None,
                    });
                }
                vec![name.realm.as_deref(), Some(&name.service_name)]
            }
            Some(h) => vec![name.realm.as_deref(), Some(&name.service_name), Some(h)],
        };
        for (i, rule) in self.rules.iter().enumerate() {
            if let Some(short_name) = rule.apply(&params)? {
                return Ok(KerberosMapping {
                    short_name,
                    rule: Some((i as u32, rule.to_string())),
                });
            }
        }
        Err(PrincipalError::new(
            ErrorClass::KerberosNoMatchingRule,
            format!("No rules apply to {name}, rules [{}]", self.rules_joined()),
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

impl fmt::Display for KerberosShortNamer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "KerberosShortNamer(principalToLocalRules = [{}])",
            self.rules_joined()
        )
    }
}

/// `ConfigDef` LIST parsing of a configuration string: trimmed, then split
/// on commas with surrounding whitespace (`\s*,\s*`), keeping empty entries;
/// an empty string is an empty list.
///
/// # Example
/// ```
/// use quota_engine::principal::parse_config_list;
/// assert_eq!(parse_config_list(" RULE:[1:$1]/L ,DEFAULT"), vec!["RULE:[1:$1]/L", "DEFAULT"]);
/// assert!(parse_config_list("  ").is_empty());
/// ```
pub fn parse_config_list(value: &str) -> Vec<String> {
    let trimmed = java_trim(value);
    if trimmed.is_empty() {
        return Vec::new();
    }
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{B}' | '\u{C}' | '\r');
    let pieces: Vec<&str> = trimmed.split(',').collect();
    let last = pieces.len() - 1;
    pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let p = if i > 0 {
                p.trim_start_matches(is_space)
            } else {
                p
            };
            let p = if i < last {
                p.trim_end_matches(is_space)
            } else {
                p
            };
            p.to_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn namer(rules: &[&str]) -> KerberosShortNamer {
        let rules: Vec<String> = rules.iter().map(|s| (*s).to_owned()).collect();
        KerberosShortNamer::from_unparsed_rules("EXAMPLE.COM", Some(&rules)).unwrap()
    }
    fn short(n: &KerberosShortNamer, p: &str) -> Result<String, PrincipalError> {
        n.short_name(&KerberosName::parse(p)?)
    }

    #[test]
    fn parse_splits_components() {
        let n = KerberosName::parse("/host@R").unwrap();
        assert_eq!(
            (
                n.service_name.as_str(),
                n.host_name.as_deref(),
                n.realm.as_deref()
            ),
            ("", Some("host"), Some("R"))
        );
        assert_eq!(KerberosName::parse("simple").unwrap().realm, None);
        assert_eq!(
            KerberosName::parse("a/b/c@R").unwrap_err().message(),
            "Malformed Kerberos name: a/b/c@R"
        );
        assert_eq!(KerberosName::parse("user@").unwrap().to_string(), "user@");
    }

    #[test]
    fn default_rule_needs_the_default_realm() {
        let n = KerberosShortNamer::from_unparsed_rules("EXAMPLE.COM", None).unwrap();
        assert_eq!(short(&n, "joe/admin@EXAMPLE.COM").unwrap(), "joe");
        let e = short(&n, "joe@OTHER.COM").unwrap_err();
        assert_eq!(
            e.message(),
            "No rules apply to joe@OTHER.COM, rules [DEFAULT]"
        );
        assert_eq!(short(&n, "simple").unwrap(), "simple");
    }

    #[test]
    fn substitution_and_case_flags() {
        let n = namer(&[
            "RULE:[1:$1](.*\\..*)s/\\./_/g",
            "RULE:[2:$1.$2](.*)s/\\./-/",
            "RULE:[1:$1]/U",
        ]);
        assert_eq!(short(&n, "a.b.c@X").unwrap(), "a_b_c");
        assert_eq!(short(&n, "a/h.x@X").unwrap(), "a-h.x");
        assert_eq!(short(&n, "joe@X").unwrap(), "JOE");
    }

    #[test]
    fn rule_errors_use_kafka_text() {
        let n = namer(&["RULE:[1:$1$2]"]);
        assert_eq!(
            short(&n, "u@R").unwrap_err().message(),
            "index 2 from $1$2 is outside of the valid range 0 to 1"
        );
        let n = namer(&["RULE:[1:$]"]);
        assert_eq!(
            short(&n, "u@R").unwrap_err().message(),
            "bad format in username mapping in "
        );
        let n = namer(&["RULE:[1:$1@$0]"]);
        let e = short(&n, "u@R").unwrap_err();
        assert_eq!(
            e.message(),
            "Non-simple name u@R after auth_to_local rule RULE:[1:$1@$0]"
        );
        let bad = |r: &str| {
            KerberosShortNamer::from_unparsed_rules("R", Some(&[r.to_owned()])).unwrap_err()
        };
        assert_eq!(bad("RULE:[1:$1").message(), "Invalid rule: RULE:[1:$1");
        assert_eq!(
            bad("RULE:[1:$1](.*)s/a/b/x").message(),
            "Invalid rule: `RULE:[1:$1](.*)s/a/b/x`, unmatched substring: `x`"
        );
        assert_eq!(bad("RULE:[:$1]").message(), "For input string: \"\"");
        assert_eq!(bad("RULE:[1:$1](*)").class(), ErrorClass::PatternSyntax);
    }

    #[test]
    fn to_string_matches_kafka() {
        let n = namer(&["RULE:[01:$1](a)s/x/y/g/L", "DEFAULT"]);
        assert_eq!(
            n.to_string(),
            "KerberosShortNamer(principalToLocalRules = [RULE:[1:$1](a)s/x/y/g/L, DEFAULT])"
        );
    }

    proptest::proptest! {
        #[test]
        fn parsed_names_print_back_unchanged(s in "[a-z/@.]{0,12}") {
            if let Ok(n) = KerberosName::parse(&s) {
                proptest::prop_assert_eq!(n.to_string(), s);
            }
        }

        #[test]
        fn simple_names_need_no_rule(s in "[^/@]*") {
            let empty = KerberosShortNamer::from_unparsed_rules("R", Some(&[])).unwrap();
            let m = empty.map(&KerberosName::parse(&s).unwrap()).unwrap();
            proptest::prop_assert_eq!((m.short_name, m.rule), (s, None));
        }
    }

    #[test]
    fn config_list_parsing() {
        assert_eq!(parse_config_list("a , ,b"), vec!["a", "", "b"]);
        assert_eq!(parse_config_list("a,"), vec!["a", ""]);
    }
}
