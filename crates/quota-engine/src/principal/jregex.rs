//! `java.util.regex` patterns, run on `fancy-regex`.
//!
//! Kafka's principal rules are Java regular expressions and Java
//! `String.replaceAll` replacements. This module reads a pattern the way
//! `java.util.regex.Pattern` does (its recursive-descent parser is ported:
//! `expr`, `sequence`, `atom`, `escape`, `clazz`, `range`, `group0`,
//! `closure`, `RemoveQEQuoting`, JDK 17), raising the JDK's
//! `PatternSyntaxException` text for the syntax errors it reports, and emits an
//! equivalent `fancy-regex` pattern (a backtracking engine with the same
//! leftmost-first priorities as Java's). Where Java and Rust differ it spells
//! out Java's meaning: `.` excludes all Java line terminators, `$` also
//! matches before a final line terminator, `\d \s \w` are ASCII, `(?i)` folds
//! ASCII letters only, possessive quantifiers become atomic groups.
//!
//! Not reproduced (a pattern using them gets an
//! [`ErrorClass::UnsupportedRegex`] error rather than a possibly wrong answer):
//! the inline flags `d u x c U` (`UNIX_LINES`, `UNICODE_CASE`, `COMMENTS`,
//! `CANON_EQ`, `UNICODE_CHARACTER_CLASS`),
//! `\G`, `\X`, `\b{g}`, `\N{name}`, Unicode properties and blocks
//! (`\p{L}`, `\p{IsLatin}`, `\p{InGreek}`, `\p{javaLowerCase}`, only the
//! POSIX ASCII classes such as `\p{Alpha}` are supported), case-insensitive
//! back-references, and anything `fancy-regex` refuses to compile (for
//! example variable-length look-behind).
//! Positions are UTF-8 byte offsets; Java counts UTF-16 units, which only
//! matters for an empty match next to a character outside the BMP.
//!
//! Kafka: none; JDK: `java/util/regex/Pattern.java`, `Matcher.java`,
//! `PatternSyntaxException.java`.

use std::collections::BTreeMap;

use super::error::{ErrorClass, PrincipalError};

/// Java's `Pattern.MAX_REPS` is `0x7FFFFFFF`; counts above it overflow.
const JAVA_INT_MAX: u64 = 0x7FFF_FFFF;

/// A set of Unicode scalar values as sorted, disjoint, inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    fn from_ranges(mut v: Vec<(u32, u32)>) -> Self {
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

    fn single(c: u32) -> Self {
        CharSet {
            ranges: vec![(c, c)],
        }
    }

    fn chars(cs: &[u32]) -> Self {
        Self::from_ranges(cs.iter().map(|&c| (c, c)).collect())
    }

    fn union(&self, other: &CharSet) -> CharSet {
        let mut v = self.ranges.clone();
        v.extend_from_slice(&other.ranges);
        Self::from_ranges(v)
    }

    fn negate(&self) -> CharSet {
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

    fn intersect(&self, other: &CharSet) -> CharSet {
        self.negate().union(&other.negate()).negate()
    }

    fn contains(&self, c: u32) -> bool {
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }

    /// Adds the other ASCII case of every ASCII letter in the set
    /// (Java's `CASE_INSENSITIVE` without `UNICODE_CASE`).
    fn ascii_case_closed(&self) -> CharSet {
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

    /// The set as a `fancy-regex` class; surrogates (which no Rust string
    /// holds) are left out, and the empty set becomes a class that never matches.
    fn to_regex(&self) -> String {
        let mut parts = String::new();
        for &(lo, hi) in &self.ranges {
            for (a, b) in [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)] {
                if a <= b {
                    if a == b {
                        parts.push_str(&format!("\\x{{{a:X}}}"));
                    } else {
                        parts.push_str(&format!("\\x{{{a:X}}}-\\x{{{b:X}}}"));
                    }
                }
            }
        }
        if parts.is_empty() {
            NEVER.to_owned()
        } else {
            format!("[{parts}]")
        }
    }
}

/// A class that matches nothing.
const NEVER: &str = "[^\\x{0}-\\x{10FFFF}]";

/// Is this emitted node a zero-width assertion?
fn is_zero_width(node: &str) -> bool {
    [
        "^",
        "\\A",
        "\\B",
        "\\b",
        "\\z",
        JAVA_DOLLAR,
        JAVA_DOLLAR_MULTILINE,
        JAVA_CARET_MULTILINE,
    ]
    .contains(&node)
        || ["(?=", "(?!", "(?<=", "(?<!"]
            .iter()
            .any(|p| node.starts_with(p))
}

/// Java's multiline `^` (`Pattern.Caret`): at the start, or after a line
/// terminator (not between `\r` and `\n`), never at the end of input.
const JAVA_CARET_MULTILINE: &str =
    "(?:\\A|(?<=[\\n\\r\\x{85}\\x{2028}\\x{2029}]))(?!\\z)(?!(?<=\\r)\\n)";

/// Java's multiline `$` (`Pattern.Dollar(true)`): at the end, or before any
/// line terminator (not between `\r` and `\n`).
const JAVA_DOLLAR_MULTILINE: &str = "(?:\\z|(?=[\\n\\r\\x{85}\\x{2028}\\x{2029}])(?!(?<=\\r)\\n))";

/// Java's non-multiline `$` (`Pattern.Dollar(false)`): end of input, or before
/// a line terminator that ends the input (`\r\n` counts as one, and there is
/// no match between `\r` and `\n`).
const JAVA_DOLLAR: &str = "(?:\\z|(?=(?:\\r\\n|[\\r\\x{85}\\x{2028}\\x{2029}]|(?<!\\r)\\n)\\z))";

fn ascii_digit() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39)])
}
fn ascii_space() -> CharSet {
    CharSet::chars(&[0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D])
}
fn ascii_word() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}
fn horiz_ws() -> CharSet {
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
fn vert_ws() -> CharSet {
    CharSet::chars(&[0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
}
fn java_dot() -> CharSet {
    CharSet::chars(&[0x0A, 0x0D, 0x85, 0x2028, 0x2029]).negate()
}

/// The POSIX (US-ASCII) classes `\p{Name}` of `java.util.regex`.
fn posix_class(name: &str) -> Option<CharSet> {
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

fn is_ascii_digit(c: u32) -> bool {
    (0x30..=0x39).contains(&c)
}
fn is_ascii_alpha(c: u32) -> bool {
    (0x41..=0x5A).contains(&c) || (0x61..=0x7A).contains(&c)
}
fn is_ascii_hex(c: u32) -> bool {
    is_ascii_digit(c) || (0x41..=0x46).contains(&c) || (0x61..=0x66).contains(&c)
}
fn hex_val(c: u32) -> u32 {
    char::from_u32(c)
        .and_then(|ch| ch.to_digit(16))
        .unwrap_or(0)
}

/// What an escape sequence stands for.
enum Esc {
    /// One character.
    Char(u32),
    /// A predefined class (`\d`, `\w`, ...).
    Set(CharSet),
    /// A zero-width assertion or back-reference, already in `fancy-regex` syntax.
    Node(String),
}

/// Java's quantifier kinds (`Pattern.Qtype`).
enum Qtype {
    Greedy,
    Lazy,
    Possessive,
}

#[derive(Clone, Copy, Default)]
struct Flags {
    case_insensitive: bool,
    dotall: bool,
    multiline: bool,
    /// Set flags the engine does not reproduce (`d u c x U`), as a bit per letter.
    unsupported: u8,
}

/// The inline flags the engine does not reproduce, in bit order.
const UNSUPPORTED_FLAGS: [char; 5] = ['d', 'u', 'c', 'x', 'U'];

/// Sentinel around a back-reference number, resolved once the total number
/// of groups is known (Java lets `\5` refer to a group defined later; a
/// reference to a group that never exists never matches).
const BACKREF_MARK: char = '\u{0}';

struct Parser<'a> {
    /// The pattern as given (Java's `normalizedPattern`, used in messages).
    source: &'a str,
    /// Code points after `\Q...\E` removal (Java's `temp` without its zero padding).
    temp: Vec<u32>,
    pattern_length: usize,
    cursor: usize,
    flags: Flags,
    /// Java's `capturingGroupCount`: group 0 counts, so it starts at 1.
    capturing_group_count: u32,
    named_groups: BTreeMap<String, u32>,
    /// Unbounded quantifiers and back-references seen so far (Java's
    /// `TreeInfo.maxValid` turns false for them).
    unbounded: u32,
    /// The node handed to `closure` is a group holding capturing groups.
    pending_captures: bool,
}

impl<'a> Parser<'a> {
    fn at(&self, i: usize) -> u32 {
        self.temp.get(i).copied().unwrap_or(0)
    }
    fn peek(&self) -> u32 {
        self.at(self.cursor)
    }
    fn read(&mut self) -> u32 {
        let c = self.at(self.cursor);
        self.cursor += 1;
        c
    }
    fn next(&mut self) -> u32 {
        self.cursor += 1;
        self.at(self.cursor)
    }
    fn skip(&mut self) -> u32 {
        let c = self.at(self.cursor + 1);
        self.cursor += 2;
        c
    }
    fn unread(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }
    fn accept(&mut self, ch: u32, msg: &str) -> Result<(), PrincipalError> {
        let c = self.read();
        if c != ch {
            return Err(self.error(msg));
        }
        Ok(())
    }

    /// `Pattern.error`: the index is `cursor - 1`.
    fn error(&self, desc: &str) -> PrincipalError {
        pattern_syntax(desc, self.source, self.cursor as i64 - 1)
    }

    fn unsupported(&self, what: &str) -> PrincipalError {
        PrincipalError::new(
            ErrorClass::UnsupportedRegex,
            format!(
                "The Java regular expression `{}` uses {what}, which this engine does not reproduce; \
                 rewrite the rule without it.",
                self.source
            ),
        )
    }

    fn expr(&mut self) -> Result<String, PrincipalError> {
        let mut alts = Vec::new();
        loop {
            alts.push(self.sequence()?);
            if self.peek() != u32::from('|') {
                return Ok(alts.join("|"));
            }
            self.next();
        }
    }

    fn sequence(&mut self) -> Result<String, PrincipalError> {
        let mut out = String::new();
        loop {
            let ch = self.peek();
            let node = match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                '(' => {
                    if let Some(node) = self.group0()? {
                        out.push_str(&node);
                    }
                    continue;
                }
                '[' => {
                    let set = self.clazz(true)?;
                    set.to_regex()
                }
                '\\' => {
                    let c = self.at(self.cursor + 1);
                    self.cursor += 1;
                    if c == u32::from('p') || c == u32::from('P') {
                        let comp = c == u32::from('P');
                        let n = self.next();
                        let one_letter = n != u32::from('{');
                        if one_letter {
                            self.unread();
                        }
                        self.family(one_letter, comp)?.to_regex()
                    } else {
                        self.unread();
                        self.atom()?
                    }
                }
                '^' => {
                    self.next();
                    if self.flags.multiline {
                        JAVA_CARET_MULTILINE.to_owned()
                    } else {
                        "^".to_owned()
                    }
                }
                '$' => {
                    self.next();
                    if self.flags.multiline {
                        JAVA_DOLLAR_MULTILINE.to_owned()
                    } else {
                        JAVA_DOLLAR.to_owned()
                    }
                }
                '.' => {
                    self.next();
                    if self.flags.dotall {
                        "(?s:.)".to_owned()
                    } else {
                        java_dot().to_regex()
                    }
                }
                '|' | ')' => break,
                ']' | '}' => self.atom()?,
                '?' | '*' | '+' => {
                    self.next();
                    let c = char::from_u32(ch).unwrap_or('?');
                    return Err(self.error(&format!("Dangling meta character '{c}'")));
                }
                _ if ch == 0 && self.cursor >= self.pattern_length => break,
                _ => self.atom()?,
            };
            let node = self.closure(node)?;
            out.push_str(&node);
        }
        Ok(out)
    }

    fn literal(&self, c: u32) -> String {
        if self.flags.case_insensitive && c < 128 && is_ascii_alpha(c) {
            return CharSet::single(c).ascii_case_closed().to_regex();
        }
        match char::from_u32(c) {
            Some(ch) => fancy_regex::escape(&ch.to_string()).into_owned(),
            None => NEVER.to_owned(),
        }
    }

    fn atom(&mut self) -> Result<String, PrincipalError> {
        let mut buf: Vec<u32> = Vec::new();
        let mut prev = self.cursor;
        let mut ch = self.peek();
        loop {
            match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                '*' | '+' | '?' | '{' => {
                    if buf.len() > 1 {
                        self.cursor = prev;
                        buf.pop();
                    }
                    break;
                }
                '$' | '.' | '^' | '(' | '[' | '|' | ')' => break,
                '\\' => {
                    ch = self.next();
                    if ch == u32::from('p') || ch == u32::from('P') {
                        if !buf.is_empty() {
                            self.unread();
                            break;
                        }
                        let comp = ch == u32::from('P');
                        let n = self.next();
                        let one_letter = n != u32::from('{');
                        if one_letter {
                            self.unread();
                        }
                        return Ok(self.family(one_letter, comp)?.to_regex());
                    }
                    self.unread();
                    prev = self.cursor;
                    match self.escape(false, false)? {
                        Esc::Char(c) => {
                            buf.push(c);
                            ch = self.peek();
                            continue;
                        }
                        Esc::Set(set) if buf.is_empty() => return Ok(set.to_regex()),
                        Esc::Node(node) if buf.is_empty() => return Ok(node),
                        _ => {
                            self.cursor = prev;
                            break;
                        }
                    }
                }
                _ if ch == 0 && self.cursor >= self.pattern_length => break,
                _ => {
                    prev = self.cursor;
                    buf.push(ch);
                    ch = self.next();
                    continue;
                }
            }
        }
        let parts: Vec<String> = buf.iter().map(|&c| self.literal(c)).collect();
        Ok(match parts.len() {
            1 => parts.into_iter().next().unwrap_or_default(),
            _ => format!("(?:{})", parts.concat()),
        })
    }

    /// `Pattern.ref`: the first digit is always a reference; more digits are
    /// taken while the group they name exists.
    fn backref(&mut self, mut ref_num: u32) -> Result<String, PrincipalError> {
        self.unbounded += 1;
        loop {
            let ch = self.peek();
            if !is_ascii_digit(ch) {
                break;
            }
            let new_ref = ref_num.saturating_mul(10).saturating_add(ch - 0x30);
            if self.capturing_group_count - 1 < new_ref {
                break;
            }
            ref_num = new_ref;
            self.read();
        }
        if self.flags.case_insensitive {
            return Err(self.unsupported("a case-insensitive back-reference"));
        }
        Ok(format!("{BACKREF_MARK}{ref_num}{BACKREF_MARK}"))
    }

    /// `Pattern.escape(inclass, create, isrange)`; the cursor is on the backslash.
    fn escape(&mut self, inclass: bool, isrange: bool) -> Result<Esc, PrincipalError> {
        let ch = self.skip();
        let c = char::from_u32(ch).unwrap_or('\u{FFFD}');
        let esc = match c {
            '0' => return self.octal().map(Esc::Char),
            '1'..='9' if !inclass => return self.backref(ch - 0x30).map(Esc::Node),
            'A' if !inclass => Esc::Node("\\A".to_owned()),
            'B' if !inclass => Esc::Node("\\B".to_owned()),
            'D' => Esc::Set(ascii_digit().negate()),
            'G' if !inclass => return Err(self.unsupported("`\\G`")),
            'H' => Esc::Set(horiz_ws().negate()),
            'N' => return Err(self.unsupported("`\\N{name}`")),
            'R' if !inclass => {
                Esc::Node("(?>\\r\\n|[\\n\\x{B}\\x{C}\\r\\x{85}\\x{2028}\\x{2029}])".to_owned())
            }
            'S' => Esc::Set(ascii_space().negate()),
            'V' => Esc::Set(vert_ws().negate()),
            'W' => Esc::Set(ascii_word().negate()),
            'X' if !inclass => return Err(self.unsupported("`\\X`")),
            'Z' if !inclass => Esc::Node(JAVA_DOLLAR.to_owned()),
            'a' => Esc::Char(0x07),
            'b' if !inclass => {
                if self.peek() == u32::from('{') {
                    if self.skip() == u32::from('g') {
                        if self.read() == u32::from('}') {
                            return Err(self.unsupported("`\\b{g}`"));
                        }
                        return Err(self.error("Illegal/unsupported escape sequence"));
                    }
                    self.unread();
                    self.unread();
                }
                Esc::Node("\\b".to_owned())
            }
            'c' => {
                if self.cursor < self.pattern_length {
                    Esc::Char(self.read() ^ 64)
                } else {
                    return Err(self.error("Illegal control escape sequence"));
                }
            }
            'd' => Esc::Set(ascii_digit()),
            'e' => Esc::Char(0x1B),
            'f' => Esc::Char(0x0C),
            'h' => Esc::Set(horiz_ws()),
            'k' if !inclass => {
                if self.read() != u32::from('<') {
                    return Err(self.error("\\k is not followed by '<' for named capturing group"));
                }
                let first = self.read();
                let name = self.groupname(first)?;
                let Some(&num) = self.named_groups.get(&name) else {
                    return Err(
                        self.error(&format!("named capturing group <{name}> does not exist"))
                    );
                };
                if self.flags.case_insensitive {
                    return Err(self.unsupported("a case-insensitive back-reference"));
                }
                self.unbounded += 1;
                Esc::Node(format!("{BACKREF_MARK}{num}{BACKREF_MARK}"))
            }
            'n' => Esc::Char(0x0A),
            'r' => Esc::Char(0x0D),
            's' => Esc::Set(ascii_space()),
            't' => Esc::Char(0x09),
            'u' => return self.unicode_escape().map(Esc::Char),
            'v' => {
                if isrange {
                    Esc::Char(0x0B)
                } else {
                    Esc::Set(vert_ws())
                }
            }
            'w' => Esc::Set(ascii_word()),
            'x' => return self.hex().map(Esc::Char),
            'z' if !inclass => Esc::Node("\\z".to_owned()),
            _ if ch < 128 && (is_ascii_alpha(ch) || is_ascii_digit(ch)) => {
                return Err(self.error("Illegal/unsupported escape sequence"));
            }
            _ => Esc::Char(ch),
        };
        Ok(esc)
    }

    fn octal(&mut self) -> Result<u32, PrincipalError> {
        let is_oct = |c: u32| (0x30..=0x37).contains(&c);
        let n = self.read();
        if is_oct(n) {
            let m = self.read();
            if is_oct(m) {
                let o = self.read();
                if is_oct(o) && (0x30..=0x33).contains(&n) {
                    return Ok((n - 0x30) * 64 + (m - 0x30) * 8 + (o - 0x30));
                }
                self.unread();
                return Ok((n - 0x30) * 8 + (m - 0x30));
            }
            self.unread();
            return Ok(n - 0x30);
        }
        Err(self.error("Illegal octal escape sequence"))
    }

    fn hex(&mut self) -> Result<u32, PrincipalError> {
        let n = self.read();
        if is_ascii_hex(n) {
            let m = self.read();
            if is_ascii_hex(m) {
                return Ok(hex_val(n) * 16 + hex_val(m));
            }
        } else if n == u32::from('{') && is_ascii_hex(self.peek()) {
            let mut ch: u32 = 0;
            let mut n;
            loop {
                n = self.read();
                if !is_ascii_hex(n) {
                    break;
                }
                ch = (ch << 4) + hex_val(n);
                if ch > 0x10FFFF {
                    return Err(self.error("Hexadecimal codepoint is too big"));
                }
            }
            if n != u32::from('}') {
                return Err(self.error("Unclosed hexadecimal escape sequence"));
            }
            return Ok(ch);
        }
        Err(self.error("Illegal hexadecimal escape sequence"))
    }

    fn uxxxx(&mut self) -> Result<u32, PrincipalError> {
        let mut n = 0;
        for _ in 0..4 {
            let ch = self.read();
            if !is_ascii_hex(ch) {
                return Err(self.error("Illegal Unicode escape sequence"));
            }
            n = n * 16 + hex_val(ch);
        }
        Ok(n)
    }

    fn unicode_escape(&mut self) -> Result<u32, PrincipalError> {
        let n = self.uxxxx()?;
        if (0xD800..=0xDBFF).contains(&n) {
            let cur = self.cursor;
            if self.read() == u32::from('\\') && self.read() == u32::from('u') {
                if let Ok(n2) = self.uxxxx() {
                    if (0xDC00..=0xDFFF).contains(&n2) {
                        return Ok(0x10000 + ((n - 0xD800) << 10) + (n2 - 0xDC00));
                    }
                }
            }
            self.cursor = cur;
        }
        Ok(n)
    }

    fn groupname(&mut self, first: u32) -> Result<String, PrincipalError> {
        if !is_ascii_alpha(first) {
            return Err(self.error("capturing group name does not start with a Latin letter"));
        }
        let mut name = String::new();
        let mut ch = first;
        loop {
            name.push(char::from_u32(ch).unwrap_or('?'));
            ch = self.read();
            if !(is_ascii_alpha(ch) || is_ascii_digit(ch)) {
                break;
            }
        }
        if ch != u32::from('>') {
            return Err(self.error("named capturing group is missing trailing '>'"));
        }
        Ok(name)
    }

    /// `Pattern.family`: `\p{Name}` / `\pL`; only the POSIX ASCII classes are reproduced.
    fn family(&mut self, single_letter: bool, complement: bool) -> Result<CharSet, PrincipalError> {
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
    fn clazz(&mut self, consume: bool) -> Result<CharSet, PrincipalError> {
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
    fn bits_or_single(&self, ch: u32) -> RangeItem {
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
    fn range(&mut self) -> Result<RangeItem, PrincipalError> {
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

    /// `Pattern.group0`; returns `None` for a flags-only group such as `(?i)`.
    fn group0(&mut self) -> Result<Option<String>, PrincipalError> {
        let save = self.flags;
        let groups_before = self.capturing_group_count;
        let mut ch = self.next();
        let node;
        if ch == u32::from('?') {
            ch = self.skip();
            match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                ':' => node = format!("(?:{})", self.expr()?),
                '=' => node = format!("(?={})", self.expr()?),
                '!' => node = format!("(?!{})", self.expr()?),
                '>' => node = format!("(?>{})", self.expr()?),
                '<' => {
                    ch = self.read();
                    if ch != u32::from('=') && ch != u32::from('!') {
                        let name = self.groupname(ch)?;
                        if self.named_groups.contains_key(&name) {
                            return Err(self.error(&format!(
                                "Named capturing group <{name}> is already defined"
                            )));
                        }
                        self.capturing_group_count += 1;
                        self.named_groups
                            .insert(name, self.capturing_group_count - 1);
                        node = format!("({})", self.expr()?);
                    } else {
                        let before = self.unbounded;
                        let inner = self.expr()?;
                        // Pattern.group0 studies the body before it looks for ')'.
                        if self.unbounded > before {
                            return Err(self.error(
                                "Look-behind group does not have an obvious maximum length",
                            ));
                        }
                        let kind = if ch == u32::from('=') { "=" } else { "!" };
                        node = format!("(?<{kind}{inner})");
                    }
                }
                '$' | '@' => return Err(self.error("Unknown group type")),
                _ => {
                    self.unread();
                    self.add_flags();
                    ch = self.read();
                    if ch == u32::from(')') {
                        self.check_flags()?;
                        return Ok(None);
                    }
                    if ch != u32::from(':') {
                        return Err(self.error("Unknown inline modifier"));
                    }
                    self.check_flags()?;
                    node = format!("(?:{})", self.expr()?);
                }
            }
        } else {
            self.capturing_group_count += 1;
            node = format!("({})", self.expr()?);
        }
        self.accept(u32::from(')'), "Unclosed group")?;
        self.flags = save;
        self.pending_captures = self.capturing_group_count > groups_before;
        self.closure(node).map(Some)
    }

    /// `Pattern.addFlag` / `subFlag`. Flags the engine does not reproduce are
    /// only reported once the group header is known to be valid (Java first
    /// checks for `)` or `:`).
    fn add_flags(&mut self) {
        let bit = |c: char| {
            UNSUPPORTED_FLAGS
                .iter()
                .position(|&f| f == c)
                .map_or(0u8, |i| 1u8 << i)
        };
        let mut ch = self.peek();
        loop {
            match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                'i' => self.flags.case_insensitive = true,
                's' => self.flags.dotall = true,
                'm' => self.flags.multiline = true,
                c @ ('d' | 'u' | 'c' | 'x' | 'U') => self.flags.unsupported |= bit(c),
                '-' => {
                    ch = self.next();
                    loop {
                        match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                            'i' => self.flags.case_insensitive = false,
                            's' => self.flags.dotall = false,
                            'm' => self.flags.multiline = false,
                            c @ ('d' | 'u' | 'c' | 'x' | 'U') => self.flags.unsupported &= !bit(c),
                            _ => return,
                        }
                        ch = self.next();
                    }
                }
                _ => return,
            }
            ch = self.next();
        }
    }

    fn check_flags(&self) -> Result<(), PrincipalError> {
        if let Some(i) =
            (0..UNSUPPORTED_FLAGS.len()).find(|i| self.flags.unsupported & (1 << i) != 0)
        {
            return Err(self.unsupported(&format!("the inline flag `{}`", UNSUPPORTED_FLAGS[i])));
        }
        Ok(())
    }

    fn qtype(&mut self) -> Qtype {
        let ch = self.next();
        if ch == u32::from('?') {
            self.next();
            Qtype::Lazy
        } else if ch == u32::from('+') {
            self.next();
            Qtype::Possessive
        } else {
            Qtype::Greedy
        }
    }

    /// Applies a quantifier. Java accepts a quantified zero-width assertion
    /// (`(?!x)?`, `^*`), which `fancy-regex` refuses: since the assertion
    /// consumes nothing, `X?`/`X*`/`X{0,n}` become "try X, else nothing" and a
    /// minimum of one or more becomes `X` itself.
    ///
    /// A repeated group that holds capturing groups and can match the empty
    /// string (`(.*)*`) is refused: Java runs one more, empty iteration and
    /// keeps its (empty) captures, `fancy-regex` does not.
    fn quantify(
        &self,
        node: &str,
        quant: &str,
        q: Qtype,
        captures: bool,
    ) -> Result<String, PrincipalError> {
        let repeats = !(quant == "?" || quant == "{0,0}" || quant == "{0,1}" || quant == "{1,1}");
        if captures && repeats && self.nullable(node) {
            return Err(self.unsupported(
                "a repeated group that can match the empty string and holds capturing groups \
                 (Java keeps the captures of a last, empty iteration)",
            ));
        }
        Ok(Self::quantify_node(node, quant, q))
    }

    /// Can this emitted node match the empty string? (Unknown counts as yes.)
    fn nullable(&self, node: &str) -> bool {
        let body = resolve_backrefs(node, self.capturing_group_count - 1);
        fancy_regex::Regex::new(&format!("\\A(?:{body})"))
            .map(|re| re.is_match("").unwrap_or(true))
            .unwrap_or(true)
    }

    fn quantify_node(node: &str, quant: &str, q: Qtype) -> String {
        if is_zero_width(node) {
            let min_zero = quant == "?" || quant == "*" || quant.starts_with("{0,");
            if !min_zero {
                return node.to_owned();
            }
            if quant == "{0,0}" {
                return String::new();
            }
            return match q {
                Qtype::Greedy => format!("(?:{node}|)"),
                Qtype::Lazy => format!("(?:|{node})"),
                Qtype::Possessive => format!("(?>{node}|)"),
            };
        }
        match q {
            Qtype::Greedy => format!("(?:{node}){quant}"),
            Qtype::Lazy => format!("(?:{node}){quant}?"),
            Qtype::Possessive => format!("(?>(?:{node}){quant})"),
        }
    }

    /// `Pattern.closure`: an optional quantifier after an atom.
    fn closure(&mut self, node: String) -> Result<String, PrincipalError> {
        let captures = std::mem::take(&mut self.pending_captures);
        let ch = self.peek();
        match char::from_u32(ch).unwrap_or('\u{FFFD}') {
            '?' => {
                let q = self.qtype();
                self.quantify(&node, "?", q, captures)
            }
            '*' => {
                let q = self.qtype();
                self.unbounded += 1;
                self.quantify(&node, "*", q, captures)
            }
            '+' => {
                let q = self.qtype();
                self.unbounded += 1;
                self.quantify(&node, "+", q, captures)
            }
            '{' => {
                let mut ch = self.skip();
                if !is_ascii_digit(ch) {
                    return Err(self.error("Illegal repetition"));
                }
                let mut cmin: u64 = 0;
                let cmax: u64;
                loop {
                    cmin = cmin * 10 + u64::from(ch - 0x30);
                    if cmin > JAVA_INT_MAX {
                        return Err(self.error("Illegal repetition range"));
                    }
                    ch = self.read();
                    if !is_ascii_digit(ch) {
                        break;
                    }
                }
                if ch == u32::from(',') {
                    ch = self.read();
                    if ch == u32::from('}') {
                        self.unread();
                        let q = self.qtype();
                        self.unbounded += 1;
                        return self.quantify(&node, &format!("{{{cmin},}}"), q, captures);
                    }
                    let mut m: u64 = 0;
                    while is_ascii_digit(ch) {
                        m = m * 10 + u64::from(ch - 0x30);
                        if m > JAVA_INT_MAX {
                            return Err(self.error("Illegal repetition range"));
                        }
                        ch = self.read();
                    }
                    cmax = m;
                } else {
                    cmax = cmin;
                }
                if ch != u32::from('}') {
                    return Err(self.error("Unclosed counted closure"));
                }
                if cmax < cmin {
                    return Err(self.error("Illegal repetition range"));
                }
                self.unread();
                let q = self.qtype();
                self.quantify(&node, &format!("{{{cmin},{cmax}}}"), q, captures)
            }
            _ => Ok(node),
        }
    }
}

enum RangeItem {
    /// A Latin-1 character Java keeps in its bit class.
    Bits(CharSet),
    /// Any other class item.
    Set(CharSet),
}

/// `PatternSyntaxException.getMessage()` (JDK 17): description, ` near index N`
/// when N >= 0, the pattern on its own line, and a caret line when N is inside
/// the pattern.
pub(crate) fn pattern_syntax(desc: &str, pattern: &str, index: i64) -> PrincipalError {
    let mut msg = String::from(desc);
    if index >= 0 {
        msg.push_str(&format!(" near index {index}"));
    }
    msg.push('\n');
    msg.push_str(pattern);
    let utf16_len = pattern.encode_utf16().count() as i64;
    if index >= 0 && index < utf16_len {
        msg.push('\n');
        for _ in 0..index {
            msg.push(' ');
        }
        msg.push('^');
    }
    PrincipalError::new(ErrorClass::PatternSyntax, msg)
}

/// `Pattern.RemoveQEQuoting`: turns `\Q...\E` into escaped characters.
fn remove_qe_quoting(temp: Vec<u32>) -> Vec<u32> {
    let p_len = temp.len();
    let at = |i: usize| temp.get(i).copied().unwrap_or(0);
    let bs = u32::from('\\');
    let mut i = 0;
    while i + 1 < p_len {
        if at(i) != bs {
            i += 1;
        } else if at(i + 1) != u32::from('Q') {
            i += 2;
        } else {
            break;
        }
    }
    if i + 1 >= p_len {
        return temp;
    }
    let mut out: Vec<u32> = temp[..i].to_vec();
    i += 2;
    let mut in_quote = true;
    let mut begin_quote = true;
    while i < p_len {
        let c = at(i);
        i += 1;
        if c >= 128 || is_ascii_alpha(c) {
            out.push(c);
        } else if is_ascii_digit(c) {
            if begin_quote {
                out.extend_from_slice(&[bs, u32::from('x'), u32::from('3')]);
            }
            out.push(c);
        } else if c != bs {
            if in_quote {
                out.push(bs);
            }
            out.push(c);
        } else if in_quote {
            if at(i) == u32::from('E') {
                i += 1;
                in_quote = false;
            } else {
                out.push(bs);
                out.push(bs);
            }
        } else if at(i) == u32::from('Q') {
            i += 1;
            in_quote = true;
            begin_quote = true;
            continue;
        } else {
            out.push(c);
            if i != p_len {
                out.push(at(i));
                i += 1;
            }
        }
        begin_quote = false;
    }
    out
}

/// Capture spans of one match: index 0 is the whole match; `None` = the
/// group did not take part. Byte offsets into the searched text.
pub(crate) type Groups = Vec<Option<(usize, usize)>>;

/// A compiled `java.util.regex.Pattern`.
#[derive(Debug, Clone)]
pub(crate) struct JavaPattern {
    source: String,
    group_count: u32,
    named_groups: BTreeMap<String, u32>,
    find: fancy_regex::Regex,
    looking_at: fancy_regex::Regex,
    matches: fancy_regex::Regex,
}

impl PartialEq for JavaPattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl JavaPattern {
    /// `Pattern.compile(pattern)` with default flags.
    ///
    /// # Errors
    /// [`ErrorClass::PatternSyntax`] with the JDK's message for a pattern Java
    /// rejects; [`ErrorClass::UnsupportedRegex`] for a Java feature this engine
    /// does not reproduce.
    pub(crate) fn compile(source: &str) -> Result<Self, PrincipalError> {
        let temp = remove_qe_quoting(source.chars().map(u32::from).collect());
        let pattern_length = temp.len();
        let mut p = Parser {
            source,
            temp,
            pattern_length,
            cursor: 0,
            flags: Flags::default(),
            capturing_group_count: 1,
            named_groups: BTreeMap::new(),
            unbounded: 0,
            pending_captures: false,
        };
        let body = p.expr()?;
        if p.cursor != p.pattern_length {
            if p.peek() == u32::from(')') {
                return Err(p.error("Unmatched closing ')'"));
            }
            return Err(p.error("Unexpected internal error"));
        }
        let group_count = p.capturing_group_count - 1;
        let body = resolve_backrefs(&body, group_count);
        let build = |pat: String| {
            fancy_regex::Regex::new(&pat).map_err(|e| {
                p.unsupported(&format!("a construct the matcher cannot compile ({e})"))
            })
        };
        let find = build(body.clone())?;
        let looking_at = build(format!("\\A(?:{body})"))?;
        let matches = build(format!("\\A(?:{body})\\z"))?;
        Ok(JavaPattern {
            source: source.to_owned(),
            group_count,
            named_groups: p.named_groups,
            find,
            looking_at,
            matches,
        })
    }

    /// The pattern as written (`Pattern.pattern()` / `toString()`).
    pub(crate) fn as_str(&self) -> &str {
        &self.source
    }

    /// `Matcher.groupCount()`.
    pub(crate) fn group_count(&self) -> u32 {
        self.group_count
    }

    fn run(
        &self,
        re: &fancy_regex::Regex,
        text: &str,
        from: usize,
    ) -> Result<Option<Groups>, PrincipalError> {
        let caps = re.captures_from_pos(text, from).map_err(|e| {
            PrincipalError::new(
                ErrorClass::UnsupportedRegex,
                format!(
                    "Matching `{}` against `{text}` gave up ({e}); simplify the rule.",
                    self.source
                ),
            )
        })?;
        Ok(caps.map(|c| {
            (0..=self.group_count as usize)
                .map(|i| c.get(i).map(|m| (m.start(), m.end())))
                .collect()
        }))
    }

    /// `Matcher.matches()`: the whole text must match.
    pub(crate) fn matches(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.run(&self.matches, text, 0)
    }

    /// `Matcher.lookingAt()`: a match that starts at the beginning.
    pub(crate) fn looking_at(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.run(&self.looking_at, text, 0)
    }

    /// `Matcher.find(from)`: the first match starting at or after byte `from`.
    pub(crate) fn find_at(
        &self,
        text: &str,
        from: usize,
    ) -> Result<Option<Groups>, PrincipalError> {
        if from > text.len() {
            return Ok(None);
        }
        self.run(&self.find, text, from)
    }

    /// Successive `Matcher.find()` results, Java style: after an empty match
    /// the next search starts one character later, after a non-empty match an
    /// empty match right at its end is allowed.
    pub(crate) fn find_all(
        &self,
        text: &str,
        limit: Option<usize>,
    ) -> Result<Vec<Groups>, PrincipalError> {
        let mut out = Vec::new();
        let mut prev: Option<(usize, usize)> = None;
        loop {
            if limit.is_some_and(|l| out.len() >= l) {
                break;
            }
            let from = match prev {
                None => 0,
                Some((first, last)) if first == last => match text[last..].chars().next() {
                    Some(c) => last + c.len_utf8(),
                    None => break,
                },
                Some((_, last)) => last,
            };
            let Some(groups) = self.find_at(text, from)? else {
                break;
            };
            let Some(whole) = groups.first().copied().flatten() else {
                break;
            };
            prev = Some(whole);
            out.push(groups);
        }
        Ok(out)
    }

    /// `Matcher.replaceAll(replacement)` (`all`) or `replaceFirst`.
    ///
    /// # Errors
    /// The JDK's `IllegalArgumentException` / `IndexOutOfBoundsException`
    /// messages for a bad replacement, raised only when a match is found.
    pub(crate) fn replace(
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

/// Replaces back-reference sentinels: `(?:\N)` for an existing group, a
/// never-matching class for a group the pattern does not have.
fn resolve_backrefs(body: &str, group_count: u32) -> String {
    let mut out = String::with_capacity(body.len());
    let mut parts = body.split(BACKREF_MARK);
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    let mut inside = true;
    for part in parts {
        if inside {
            let n: u32 = part.parse().unwrap_or(u32::MAX);
            if n >= 1 && n <= group_count {
                out.push_str(&format!("(?:\\{n})"));
            } else {
                out.push_str(NEVER);
            }
        } else {
            out.push_str(part);
        }
        inside = !inside;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(p: &str) -> JavaPattern {
        JavaPattern::compile(p).unwrap_or_else(|e| panic!("{p}: {e}"))
    }
    fn err(p: &str) -> PrincipalError {
        JavaPattern::compile(p).expect_err(p)
    }

    #[test]
    fn java_syntax_errors_use_jdk_text() {
        assert_eq!(
            err("^CN=(.*").message(),
            "Unclosed group near index 7\n^CN=(.*"
        );
        assert_eq!(
            err("*a").message(),
            "Dangling meta character '*' near index 0\n*a\n^"
        );
        assert_eq!(
            err("a)b").message(),
            "Unmatched closing ')' near index 0\na)b\n^"
        );
        assert_eq!(
            err("[abc").message(),
            "Unclosed character class near index 3\n[abc\n   ^"
        );
        assert_eq!(
            err("a{x}").message(),
            "Illegal repetition near index 2\na{x}\n  ^"
        );
        assert_eq!(
            err("a{3,1}").message(),
            "Illegal repetition range near index 5\na{3,1}\n     ^"
        );
        assert_eq!(
            err("[z-a]").message(),
            "Illegal character range near index 3\n[z-a]\n   ^"
        );
        assert_eq!(
            err("\\i").message(),
            "Illegal/unsupported escape sequence near index 1\n\\i\n ^"
        );
        assert_eq!(err("x(?<1a>b)").class(), ErrorClass::PatternSyntax);
        assert_eq!(err("(?x)x").class(), ErrorClass::UnsupportedRegex);
        assert_eq!(
            err("(?icn=)").message(),
            "Unknown inline modifier near index 4\n(?icn=)\n    ^"
        );
        assert_eq!(err("\\p{IsLatin}").class(), ErrorClass::UnsupportedRegex);
    }

    #[test]
    fn dot_and_dollar_follow_java() {
        let p = ok("a.c");
        assert!(p.matches("abc").unwrap().is_some());
        assert!(p.matches("a\rc").unwrap().is_none());
        assert!(p.matches("a\u{2028}c").unwrap().is_none());
        let d = ok("x$");
        assert_eq!(d.find_at("x\n", 0).unwrap().unwrap()[0], Some((0, 1)));
        assert_eq!(d.find_at("x\r\n", 0).unwrap().unwrap()[0], Some((0, 1)));
        assert!(d.find_at("x\ny", 0).unwrap().is_none());
    }

    #[test]
    fn multiline_anchors_follow_java() {
        let p = ok("(?m)^b$");
        assert!(p.find_at("a\nb\r\nc", 0).unwrap().is_some());
        assert!(ok("(?m)^").find_at("a\n", 1).unwrap().is_none());
        assert!(ok("(?m)a$").find_at("a\r\n", 0).unwrap().is_some());
    }

    #[test]
    fn java_only_constructs_are_refused_or_reported() {
        assert_eq!(err("(.*)*").class(), ErrorClass::UnsupportedRegex);
        assert!(JavaPattern::compile("(a)*").is_ok());
        assert_eq!(
            err("(?<=a*)b").message(),
            "Look-behind group does not have an obvious maximum length near index 5\n(?<=a*)b\n     ^"
        );
        assert_eq!(
            err("\\b{x}").message(),
            "Illegal repetition near index 3\n\\b{x}\n   ^"
        );
    }

    #[test]
    fn quantified_assertions_are_accepted() {
        assert_eq!(ok("(?!x)?a").replace("ab", "[$0]", true).unwrap(), "[a]b");
        assert!(ok("^*a").matches("a").unwrap().is_some());
        assert!(ok("a(?=b)+").find_at("ab", 0).unwrap().is_some());
    }

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
        fn quoted_literals_match_themselves(lit in "\\PC*") {
            proptest::prop_assume!(!lit.contains("\\E"));
            let p = JavaPattern::compile(&format!("\\Q{lit}\\E")).unwrap();
            proptest::prop_assert!(p.matches(&lit).unwrap().is_some());
        }

        #[test]
        fn replace_with_no_match_returns_the_text(text in "[a-y]*") {
            proptest::prop_assert_eq!(ok("z").replace(&text, "$0$0", true).unwrap(), text);
        }
    }

    #[test]
    fn backrefs_and_possessive() {
        assert!(ok("(a)\\1").matches("aa").unwrap().is_some());
        assert!(ok("(a)\\5").find_at("aa", 0).unwrap().is_none());
        assert!(ok("a*+a").matches("aaa").unwrap().is_none());
        assert!(ok("a*a").matches("aaa").unwrap().is_some());
    }
}
