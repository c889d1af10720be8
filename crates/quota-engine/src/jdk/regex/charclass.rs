//! Character classes: `CharSet` (sorted code point ranges), the predefined
//! ASCII classes (`\d`, `\s`, `\w`, POSIX `\p{Alpha}`, ...) and the parser's
//! class methods (`Pattern.clazz`, `range`, `family`, `bitsOrSingle`).
//!
//! JDK 17: `java/util/regex/Pattern.java`, `CharPredicates.java`.

use super::parser::{Esc, Parser};
use crate::jdk::unicode::in_ranges;
use crate::principal::PrincipalError;

/// A set of Unicode scalar values as sorted, disjoint, inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    pub(super) fn from_ranges(mut v: Vec<(u32, u32)>) -> Self {
        v.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            if lo > hi {
                continue;
            }
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        CharSet { ranges: out }
    }

    pub(super) fn single(c: u32) -> Self {
        CharSet {
            ranges: vec![(c, c)],
        }
    }

    pub(super) fn chars(cs: &[u32]) -> Self {
        Self::from_ranges(cs.iter().map(|&c| (c, c)).collect())
    }

    pub(super) fn union(&self, other: &CharSet) -> CharSet {
        let mut v = self.ranges.clone();
        v.extend_from_slice(&other.ranges);
        Self::from_ranges(v)
    }

    pub(super) fn negate(&self) -> CharSet {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
        }
        if next <= 0x10FFFF {
            out.push((next, 0x10FFFF));
        }
        CharSet { ranges: out }
    }

    pub(super) fn intersect(&self, other: &CharSet) -> CharSet {
        self.negate().union(&other.negate()).negate()
    }

    pub(super) fn contains(&self, c: u32) -> bool {
        in_ranges(&self.ranges, c)
    }

    /// Adds the other ASCII case of every ASCII letter in the set
    /// (Java's `CASE_INSENSITIVE` without `UNICODE_CASE`).
    pub(super) fn ascii_case_closed(&self) -> CharSet {
        let mut v = self.ranges.clone();
        for c in 0u32..128 {
            let ch = c as u8;
            if ch.is_ascii_alphabetic() && self.contains(c) {
                let other = if ch.is_ascii_lowercase() {
                    ch.to_ascii_uppercase()
                } else {
                    ch.to_ascii_lowercase()
                };
                v.push((u32::from(other), u32::from(other)));
            }
        }
        Self::from_ranges(v)
    }
}

pub(super) fn ascii_digit() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39)])
}
pub(super) fn ascii_space() -> CharSet {
    CharSet::chars(&[0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D])
}
pub(super) fn ascii_word() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}
pub(super) fn horiz_ws() -> CharSet {
    CharSet::from_ranges(vec![
        (0x09, 0x09),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x180E, 0x180E),
        (0x2000, 0x200A),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
    ])
}
pub(super) fn vert_ws() -> CharSet {
    CharSet::chars(&[0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
}
pub(super) fn java_dot() -> CharSet {
    CharSet::chars(&[0x0A, 0x0D, 0x85, 0x2028, 0x2029]).negate()
}

/// The POSIX (US-ASCII) classes `\p{Name}` of `java.util.regex`.
pub(super) fn posix_class(name: &str) -> Option<CharSet> {
    let r = |v: Vec<(u32, u32)>| Some(CharSet::from_ranges(v));
    match name {
        "Lower" => r(vec![(0x61, 0x7A)]),
        "Upper" => r(vec![(0x41, 0x5A)]),
        "ASCII" => r(vec![(0x00, 0x7F)]),
        "Alpha" => r(vec![(0x41, 0x5A), (0x61, 0x7A)]),
        "Digit" => r(vec![(0x30, 0x39)]),
        "Alnum" => r(vec![(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)]),
        "Punct" => r(vec![(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)]),
        "Graph" => r(vec![(0x21, 0x7E)]),
        "Print" => r(vec![(0x20, 0x7E)]),
        "Blank" => r(vec![(0x20, 0x20), (0x09, 0x09)]),
        "Cntrl" => r(vec![(0x00, 0x1F), (0x7F, 0x7F)]),
        "XDigit" => r(vec![(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)]),
        "Space" => Some(ascii_space()),
        _ => None,
    }
}

pub(super) fn is_ascii_digit(c: u32) -> bool {
    (0x30..=0x39).contains(&c)
}
pub(super) fn is_ascii_alpha(c: u32) -> bool {
    (0x41..=0x5A).contains(&c) || (0x61..=0x7A).contains(&c)
}
pub(super) fn is_ascii_hex(c: u32) -> bool {
    is_ascii_digit(c) || (0x41..=0x46).contains(&c) || (0x61..=0x66).contains(&c)
}
pub(super) fn hex_val(c: u32) -> u32 {
    char::from_u32(c)
        .and_then(|ch| ch.to_digit(16))
        .unwrap_or(0)
}

pub(super) enum RangeItem {
    /// A Latin-1 character Java keeps in its bit class.
    Bits(CharSet),
    /// Any other class item.
    Set(CharSet),
}

impl Parser<'_> {
    /// `Pattern.family`: `\p{Name}` / `\pL`; only the POSIX ASCII classes are reproduced.
    pub(super) fn family(
        &mut self,
        single_letter: bool,
        complement: bool,
    ) -> Result<CharSet, PrincipalError> {
        self.next();
        let name: String = if single_letter {
            let c = self.at(self.cursor);
            self.read();
            char::from_u32(c).map(String::from).unwrap_or_default()
        } else {
            let i = self.cursor;
            while self.cursor < self.pattern_length && self.at(self.cursor) != u32::from('}') {
                self.cursor += 1;
            }
            if self.cursor >= self.pattern_length {
                self.cursor = self.pattern_length + 1;
                return Err(self.error("Unclosed character family"));
            }
            self.cursor += 1;
            let j = self.cursor;
            if i + 1 >= j {
                return Err(self.error("Empty character family"));
            }
            self.temp[i..j - 1]
                .iter()
                .filter_map(|&c| char::from_u32(c))
                .collect()
        };
        let set = match posix_class(&name) {
            Some(_) if self.flags.case_insensitive && (name == "Lower" || name == "Upper") => {
                return Err(self.unsupported("`\\p{Lower}`/`\\p{Upper}` under `(?i)`"));
            }
            Some(s) => s,
            None => return Err(self.unsupported(&format!("the character property `{name}`"))),
        };
        Ok(if complement { set.negate() } else { set })
    }

    /// `Pattern.clazz(consume)`; the cursor is on `[` (or, for the right side
    /// of `&&` without brackets, just before its first character).
    pub(super) fn clazz(&mut self, consume: bool) -> Result<CharSet, PrincipalError> {
        let mut prev: Option<CharSet> = None;
        let mut curr: Option<CharSet> = None;
        let mut bits = CharSet::default();
        let mut has_bits = false;
        let mut is_neg = false;
        let mut ch = self.next();
        if ch == u32::from('^') && self.at(self.cursor - 1) == u32::from('[') {
            ch = self.next();
            is_neg = true;
        }
        loop {
            match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                '[' => {
                    let c = self.clazz(true)?;
                    prev = Some(match prev {
                        None => c.clone(),
                        Some(p) => p.union(&c),
                    });
                    curr = Some(c);
                    ch = self.peek();
                    continue;
                }
                '&' => {
                    ch = self.next();
                    if ch == u32::from('&') {
                        ch = self.next();
                        let mut right: Option<CharSet> = None;
                        while ch != u32::from(']') && ch != u32::from('&') {
                            let r = if ch == u32::from('[') {
                                self.clazz(true)?
                            } else {
                                self.unread();
                                self.clazz(false)?
                            };
                            right = Some(match right {
                                None => r,
                                Some(x) => x.union(&r),
                            });
                            ch = self.peek();
                        }
                        if has_bits {
                            match prev {
                                None => {
                                    prev = Some(bits.clone());
                                    curr = Some(bits.clone());
                                }
                                Some(p) => prev = Some(p.union(&bits)),
                            }
                            has_bits = false;
                        }
                        if right.is_some() {
                            curr = right.clone();
                        }
                        match prev {
                            None => match right {
                                None => return Err(self.error("Bad class syntax")),
                                Some(r) => prev = Some(r),
                            },
                            Some(p) => match &curr {
                                Some(c) => prev = Some(p.intersect(c)),
                                // Java dereferences a null predicate here.
                                None => {
                                    return Err(self
                                        .unsupported("a class intersection Java itself fails on"))
                                }
                            },
                        }
                        continue;
                    }
                    self.unread();
                }
                ']' if prev.is_some() || has_bits => {
                    if consume {
                        self.next();
                    }
                    let mut set = match prev {
                        None => bits,
                        Some(p) if has_bits => p.union(&bits),
                        Some(p) => p,
                    };
                    if is_neg {
                        set = set.negate();
                    }
                    return Ok(set);
                }
                _ if ch == 0 && self.cursor >= self.pattern_length => {
                    return Err(self.error("Unclosed character class"));
                }
                _ => {}
            }
            match self.range()? {
                // Java adds the character to its bit class; `curr` becomes null.
                RangeItem::Bits(set) => {
                    bits = bits.union(&set);
                    has_bits = true;
                    curr = None;
                }
                RangeItem::Set(set) => {
                    prev = Some(match prev {
                        None => set.clone(),
                        Some(p) => p.union(&set),
                    });
                    curr = Some(set);
                }
            }
            ch = self.peek();
        }
    }

    /// `Pattern.bitsOrSingle`: Latin-1 characters go to the bit class.
    pub(super) fn bits_or_single(&self, ch: u32) -> RangeItem {
        let mut set = CharSet::single(ch);
        if self.flags.case_insensitive && ch < 128 {
            set = set.ascii_case_closed();
        }
        if ch < 256 {
            RangeItem::Bits(set)
        } else {
            RangeItem::Set(set)
        }
    }

    /// `Pattern.range`: one character, range or escape inside a class.
    pub(super) fn range(&mut self) -> Result<RangeItem, PrincipalError> {
        let mut ch = self.peek();
        if ch == u32::from('\\') {
            ch = self.next();
            if ch == u32::from('p') || ch == u32::from('P') {
                let comp = ch == u32::from('P');
                let n = self.next();
                let one_letter = n != u32::from('{');
                if one_letter {
                    self.unread();
                }
                return Ok(RangeItem::Set(self.family(one_letter, comp)?));
            }
            let isrange = self.at(self.cursor + 1) == u32::from('-');
            self.unread();
            match self.escape(true, isrange)? {
                Esc::Char(c) => ch = c,
                Esc::Set(s) => return Ok(RangeItem::Set(s)),
                Esc::Node(_) => return Err(self.error("Illegal/unsupported escape sequence")),
            }
        } else {
            self.next();
        }
        if self.peek() == u32::from('-') {
            let end_range = self.at(self.cursor + 1);
            if end_range == u32::from('[') {
                return Ok(self.bits_or_single(ch));
            }
            if end_range != u32::from(']') {
                self.next();
                let mut m = self.peek() as i64;
                if m == i64::from(b'\\') {
                    m = match self.escape(true, true)? {
                        Esc::Char(c) => i64::from(c),
                        _ => -1,
                    };
                } else {
                    self.next();
                }
                if m < i64::from(ch) {
                    return Err(self.error("Illegal character range"));
                }
                let mut set = CharSet::from_ranges(vec![(ch, m as u32)]);
                if self.flags.case_insensitive {
                    set = set.ascii_case_closed();
                }
                return Ok(RangeItem::Set(set));
            }
        }
        Ok(self.bits_or_single(ch))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::ok;

    #[test]
    fn predefined_classes_are_ascii() {
        assert!(ok("\\w+").matches("ü").unwrap().is_none());
        assert!(ok("\\d").matches("٣").unwrap().is_none());
        assert!(ok("[\\w-%\\. \t]*").matches("a-b%.c d").unwrap().is_some());
    }

    #[test]
    fn case_insensitive_is_ascii_only() {
        let p = ok("(?i)abc[x-z]ü");
        assert!(p.matches("ABCYü").unwrap().is_some());
        assert!(p.matches("abcyÜ").unwrap().is_none());
    }

    #[test]
    fn class_operations() {
        let p = ok("[a-z&&[^aeiou]]+");
        assert!(p.matches("bcd").unwrap().is_some());
        assert!(p.matches("bad").unwrap().is_none());
        assert!(ok("[^a]").matches("b").unwrap().is_some());
        assert!(ok("\\Q*+?\\E").matches("*+?").unwrap().is_some());
    }
}
