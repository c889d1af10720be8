//! `Matcher.replaceAll` / `replaceFirst` with Java's replacement syntax
//! (`$n`, `${name}`, `\x`) and its error messages.
//!
//! JDK 17: `Matcher.replaceAll`, `Matcher.appendExpandedReplacement`.

use super::{Groups, JavaPattern};
use crate::principal::{ErrorClass, PrincipalError};

impl JavaPattern {
    /// `Matcher.replaceAll(replacement)` (`all`) or `replaceFirst`.
    ///
    /// # Errors
    /// The JDK's `IllegalArgumentException` / `IndexOutOfBoundsException`
    /// messages for a bad replacement, raised only when a match is found.
    pub fn replace(
        &self,
        text: &str,
        replacement: &str,
        all: bool,
    ) -> Result<String, PrincipalError> {
        let found = self.find_all(text, if all { None } else { Some(1) })?;
        if found.is_empty() {
            return Ok(text.to_owned());
        }
        let mut out = String::new();
        let mut last_append = 0;
        for groups in &found {
            let expanded = self.expand_replacement(replacement, text, groups)?;
            let (first, last) = groups[0].unwrap_or((last_append, last_append));
            out.push_str(&text[last_append..first]);
            out.push_str(&expanded);
            last_append = last;
        }
        out.push_str(&text[last_append..]);
        Ok(out)
    }

    /// `Matcher.appendExpandedReplacement`: `$n`, `${name}` and `\x`.
    fn expand_replacement(
        &self,
        replacement: &str,
        text: &str,
        groups: &Groups,
    ) -> Result<String, PrincipalError> {
        let iae = |m: &str| PrincipalError::new(ErrorClass::IllegalArgument, m.to_owned());
        let r: Vec<char> = replacement.chars().collect();
        let mut out = String::new();
        let mut cursor = 0;
        while cursor < r.len() {
            let c = r[cursor];
            if c == '\\' {
                cursor += 1;
                if cursor == r.len() {
                    return Err(iae("character to be escaped is missing"));
                }
                out.push(r[cursor]);
                cursor += 1;
            } else if c == '$' {
                cursor += 1;
                if cursor == r.len() {
                    return Err(iae("Illegal group reference: group index is missing"));
                }
                let mut next = r[cursor];
                let ref_num: u32;
                if next == '{' {
                    cursor += 1;
                    let mut name = String::new();
                    while cursor < r.len() {
                        next = r[cursor];
                        if next.is_ascii_alphanumeric() {
                            name.push(next);
                            cursor += 1;
                        } else {
                            break;
                        }
                    }
                    if name.is_empty() {
                        return Err(iae("named capturing group has 0 length name"));
                    }
                    if next != '}' {
                        return Err(iae("named capturing group is missing trailing '}'"));
                    }
                    if name.starts_with(|ch: char| ch.is_ascii_digit()) {
                        return Err(iae(&format!(
                            "capturing group name {{{name}}} starts with digit character"
                        )));
                    }
                    let Some(&n) = self.named_groups.get(&name) else {
                        return Err(iae(&format!("No group with name {{{name}}}")));
                    };
                    ref_num = n;
                    cursor += 1;
                } else {
                    let Some(d) = next.to_digit(10).filter(|_| next.is_ascii_digit()) else {
                        return Err(iae("Illegal group reference"));
                    };
                    let mut n = d;
                    cursor += 1;
                    while cursor < r.len() {
                        let Some(d2) = r[cursor]
                            .to_digit(10)
                            .filter(|_| r[cursor].is_ascii_digit())
                        else {
                            break;
                        };
                        let new_ref = n.saturating_mul(10).saturating_add(d2);
                        if self.group_count < new_ref {
                            break;
                        }
                        n = new_ref;
                        cursor += 1;
                    }
                    ref_num = n;
                }
                if ref_num > self.group_count {
                    return Err(PrincipalError::new(
                        ErrorClass::IndexOutOfBounds,
                        format!("No group {ref_num}"),
                    ));
                }
                if let Some(Some((s, e))) = groups.get(ref_num as usize) {
                    out.push_str(&text[*s..*e]);
                }
            } else {
                out.push(c);
                cursor += 1;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::ok;

    #[test]
    fn replace_all_java_empty_match_rules() {
        // Java: "abc".replaceAll(".*", "X") == "XX"
        assert_eq!(ok(".*").replace("abc", "X", true).unwrap(), "XX");
        assert_eq!(ok("x*").replace("ab", "-", true).unwrap(), "-a-b-");
        assert_eq!(ok("b").replace("abcb", "[$0]", false).unwrap(), "a[b]cb");
    }

    #[test]
    fn replacement_errors_use_jdk_text() {
        let p = ok("(a)");
        assert_eq!(
            p.replace("a", "$2", true).unwrap_err().message(),
            "No group 2"
        );
        assert_eq!(
            p.replace("a", "$", true).unwrap_err().message(),
            "Illegal group reference: group index is missing"
        );
        assert_eq!(
            p.replace("a", "$x", true).unwrap_err().message(),
            "Illegal group reference"
        );
        assert_eq!(
            p.replace("a", "x\\", true).unwrap_err().message(),
            "character to be escaped is missing"
        );
        assert_eq!(p.replace("a", "$11", true).unwrap(), "a1");
        assert_eq!(p.replace("b", "$2", true).unwrap(), "b");
        let named = ok("(?<who>a)");
        assert_eq!(named.replace("a", "<${who}>", true).unwrap(), "<a>");
    }

    proptest::proptest! {
        #[test]
        fn replace_with_no_match_returns_the_text(text in "[a-y]*") {
            proptest::prop_assert_eq!(ok("z").replace(&text, "$0$0", true).unwrap(), text);
        }
    }
}
