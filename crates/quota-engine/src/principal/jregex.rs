//! `java.util.regex` patterns, parsed and matched the way the JDK does it.
//!
//! Kafka's principal rules are Java regular expressions and Java
//! `String.replaceAll` replacements, so their meaning is Java's regex
//! semantics. No Rust crate has those (leftmost-first backtracking with
//! Java's capture rules for repeated groups, `$` before a final line
//! terminator, ASCII `\w` but Unicode `\b`, ASCII-only `(?i)`, class
//! intersections, ...), which is why this module is our own code despite the
//! project rule that a library beats our own code for regex: a general regex
//! crate would give a different principal for some rules.
//!
//! The JDK 17 recursive-descent parser is ported (`expr`, `sequence`, `atom`,
//! `escape`, `clazz`, `range`, `group0`, `closure`, `RemoveQEQuoting`),
//! raising the JDK's `PatternSyntaxException` text for the syntax errors it
//! reports, and it builds the JDK's matcher node graph (`Slice`/`CharProperty`,
//! `Branch`/`BranchConn`, `GroupHead`/`GroupTail`, `Ques`, `Curly`,
//! `GroupCurly`, `Prolog`/`Loop`/`LazyLoop`, `BackRef`/`CIBackRef`, `Pos`,
//! `Neg`, `Behind`, `NotBehind`, `Bound`, `Begin`, `End`, `Caret`, `Dollar`,
//! `LineEnding`, `LastMatch`), including `TreeInfo.study` (which decides
//! between `GroupCurly` and `Loop` and the look-behind lengths) and the
//! `Loop` memo of failed positions. Matching walks that graph exactly as the
//! JDK's `match` methods do, so priorities and captures (also of repeated and
//! backed-off groups) are the JDK's.
//!
//! Matching has a step budget ([`STEP_BUDGET`]) and a recursion depth limit
//! ([`DEPTH_LIMIT`]); a rule that exceeds them gets an
//! [`ErrorClass::UnsupportedRegex`] error ("needs too many steps") instead of
//! hanging (the JDK would run on, or throw `StackOverflowError`).
//!
//! Not reproduced (a pattern using them gets an
//! [`ErrorClass::UnsupportedRegex`] error rather than a possibly wrong answer):
//! the inline flags `d u x c U` (`UNIX_LINES`, `UNICODE_CASE`, `COMMENTS`,
//! `CANON_EQ`, `UNICODE_CHARACTER_CLASS`), `\X`, `\b{g}`, `\N{name}`, Unicode
//! properties and blocks (`\p{L}`, `\p{IsLatin}`, `\p{InGreek}`,
//! `\p{javaLowerCase}`; only the POSIX ASCII classes such as `\p{Alpha}` are
//! supported), and `\p{Lower}`/`\p{Upper}` under `(?i)`.
//! The text is matched by code point, as the JDK does for patterns with
//! supplementary characters (`StartS`, `BehindS`); for a pattern without them
//! the JDK may also try a match starting between the two halves of a
//! surrogate pair, which only matters for text outside the BMP. A search
//! that, after an empty match, would have to go on from the middle of such a
//! character (where Java splits it into lone surrogates, which no Rust string
//! holds) is refused with [`ErrorClass::UnsupportedRegex`].
//!
//! Kafka: none; JDK 17: `java/util/regex/Pattern.java`, `Matcher.java`,
//! `PatternSyntaxException.java`, `java/lang/Character.java` (\b).

use std::collections::BTreeMap;

use super::error::{ErrorClass, PrincipalError};
use super::unicode_data::{in_ranges, LETTER_OR_DIGIT, NON_SPACING_MARK};

/// Java's `Pattern.MAX_REPS` is `0x7FFFFFFF`; counts above it overflow.
const JAVA_INT_MAX: u64 = 0x7FFF_FFFF;

/// `Pattern.MAX_REPS`: the maximum of `*`, `+` and `{n,}`.
const MAX_REPS: u32 = 0x7FFF_FFFF;

/// Matching steps (node visits) one search may take before it gives up with
/// an [`ErrorClass::UnsupportedRegex`] error.
pub(crate) const STEP_BUDGET: u64 = 2_000_000;

/// Nested node visits one search may stack up before it gives up (the JDK's
/// matcher is recursive too and would end in `StackOverflowError`). A loop
/// over an alternation (`(a|b)*`) nests about six levels per character, so
/// this allows such loops over about 500 characters; in an optimized build
/// it needs under 512 KiB of stack (wasm32 has 1 MiB).
pub(crate) const DEPTH_LIMIT: u32 = 3_000;

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
        in_ranges(&self.ranges, c)
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
}

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
    /// A zero-width assertion or back-reference node.
    Node(Kind),
}

/// Java's quantifier kinds (`Pattern.Qtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Qtype {
    Greedy,
    Lazy,
    Possessive,
    /// `(?>X)`: an atomic group is a `Ques` of this type.
    Independent,
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

/// Index of a node in [`JavaPattern::nodes`].
type Id = u32;

/// `Pattern.accept`: ends an atom (records where it ended).
const ACCEPT: Id = 0;
/// `Pattern.lastAccept`: ends the whole pattern.
const LAST_ACCEPT: Id = 1;

/// `Bound` types.
const BOUND_BOTH: u8 = 0x3;
const BOUND_NONE: u8 = 0x4;

/// The JDK's matcher node kinds; every node also has a `next`.
#[derive(Clone, Debug)]
enum Kind {
    /// `Pattern.accept` (`Node.match`): records the end and succeeds.
    Accept,
    /// `LastNode`: like `Accept`, but `matches()` needs the end of input.
    LastAccept,
    /// `LookBehindEndNode`: the look-behind body must end where it started.
    LookBehindEnd,
    /// `CharProperty`: one character from the set.
    Char(CharSet),
    /// `Slice`: a run of literal characters (each a set under `(?i)`).
    Slice(Vec<CharSet>),
    /// `Begin` (`^` without `(?m)`, `\A`).
    Begin,
    /// `End` (`\z`).
    End,
    /// `Caret` (`^` with `(?m)`).
    Caret,
    /// `Dollar(multiline)` (`$`, `\Z`).
    Dollar(bool),
    /// `Bound` (`\b` = both, `\B` = none).
    Bound(u8),
    /// `LineEnding` (`\R`).
    LineEnding,
    /// `LastMatch` (`\G`).
    LastMatch,
    /// `BackRef` / `CIBackRef` (ASCII case folding).
    BackRef { group: u32, ci: bool },
    /// `Branch`: `None` alternatives go straight to `conn`'s next.
    Branch { alts: Vec<Option<Id>>, conn: Id },
    /// `BranchConn`.
    BranchConn,
    /// `GroupHead`.
    GroupHead { local: u32 },
    /// `GroupTail`; group 0 is an anonymous group (sets no capture).
    GroupTail { local: u32, group: u32 },
    /// `Ques` (and `Independent` for `(?>X)`).
    Ques { atom: Id, q: Qtype },
    /// `Curly` (also `CharPropertyGreedy` when `char_greedy`, which only
    /// differs in `study`).
    Curly {
        atom: Id,
        min: u32,
        max: u32,
        q: Qtype,
        char_greedy: bool,
    },
    /// `GroupCurly`: a quantified deterministic group.
    GroupCurly {
        atom: Id,
        min: u32,
        max: u32,
        q: Qtype,
        local: u32,
        group: u32,
        capture: bool,
    },
    /// `Prolog`: enters its `Loop`.
    Prolog { lp: Id },
    /// `Loop` / `LazyLoop`.
    Loop {
        body: Id,
        count: u32,
        begin: u32,
        min: u32,
        max: u32,
        lazy: bool,
        memo: Option<u32>,
    },
    /// `Pos` / `Neg`.
    Look { cond: Id, negate: bool },
    /// `Behind` / `NotBehind` (lengths in characters).
    Behind {
        cond: Id,
        rmax: i32,
        rmin: i32,
        negate: bool,
    },
}

#[derive(Clone, Debug)]
struct Node {
    kind: Kind,
    next: Id,
}

/// `Pattern.TreeInfo`.
#[derive(Clone, Copy)]
struct TreeInfo {
    min_length: i32,
    max_length: i32,
    max_valid: bool,
    deterministic: bool,
}

impl TreeInfo {
    fn new() -> Self {
        TreeInfo {
            min_length: 0,
            max_length: 0,
            max_valid: true,
            deterministic: true,
        }
    }
}

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
    /// The node graph being built.
    nodes: Vec<Node>,
    /// Java's "double return" `root`: the tail of the last built piece.
    root: Id,
    /// Java's `localCount`.
    local_count: u32,
    /// Java's `topClosureNodes` (greedy unbounded `Loop`s not inside another
    /// quantified group or a look-behind).
    top_closure: Vec<Id>,
    /// Java's `hasGroupRef`.
    has_group_ref: bool,
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

    fn add(&mut self, kind: Kind) -> Id {
        self.nodes.push(Node { kind, next: ACCEPT });
        (self.nodes.len() - 1) as Id
    }

    fn set_next(&mut self, id: Id, next: Id) {
        self.nodes[id as usize].next = next;
    }

    /// `Pattern.expr(end)`: alternatives, joined by a `Branch`.
    fn expr(&mut self, end: Id) -> Result<Id, PrincipalError> {
        let mut prev: Option<Id> = None;
        let mut first_tail: Id = end;
        let mut branch: Option<Id> = None;
        let mut branch_conn: Option<Id> = None;
        loop {
            let node = self.sequence(end)?;
            let node_tail = self.root;
            match prev {
                None => {
                    prev = Some(node);
                    first_tail = node_tail;
                }
                Some(p) => {
                    let conn = match branch_conn {
                        Some(c) => c,
                        None => {
                            let c = self.add(Kind::BranchConn);
                            self.set_next(c, end);
                            branch_conn = Some(c);
                            c
                        }
                    };
                    let atom = if node == end {
                        None
                    } else {
                        self.set_next(node_tail, conn);
                        Some(node)
                    };
                    if Some(p) == branch {
                        if let Some(b) = branch {
                            if let Kind::Branch { alts, .. } = &mut self.nodes[b as usize].kind {
                                alts.push(atom);
                            }
                        }
                    } else {
                        let first = if p == end {
                            None
                        } else {
                            self.set_next(first_tail, conn);
                            Some(p)
                        };
                        let b = self.add(Kind::Branch {
                            alts: vec![first, atom],
                            conn,
                        });
                        branch = Some(b);
                        prev = Some(b);
                    }
                }
            }
            if self.peek() != u32::from('|') {
                return Ok(prev.unwrap_or(end));
            }
            self.next();
        }
    }

    /// `Pattern.sequence(end)`; `root` is left at the tail.
    fn sequence(&mut self, end: Id) -> Result<Id, PrincipalError> {
        let mut head: Option<Id> = None;
        let mut tail: Id = end;
        loop {
            let ch = self.peek();
            let node = match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                '(' => {
                    if let Some(node) = self.group0()? {
                        match head {
                            None => head = Some(node),
                            Some(_) => self.set_next(tail, node),
                        }
                        tail = self.root;
                    }
                    continue;
                }
                '[' => {
                    let set = self.clazz(true)?;
                    self.add(Kind::Char(set))
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
                        let set = self.family(one_letter, comp)?;
                        self.add(Kind::Char(set))
                    } else {
                        self.unread();
                        self.atom()?
                    }
                }
                '^' => {
                    self.next();
                    if self.flags.multiline {
                        self.add(Kind::Caret)
                    } else {
                        self.add(Kind::Begin)
                    }
                }
                '$' => {
                    self.next();
                    let m = self.flags.multiline;
                    self.add(Kind::Dollar(m))
                }
                '.' => {
                    self.next();
                    let set = if self.flags.dotall {
                        CharSet::from_ranges(vec![(0, 0x10FFFF)])
                    } else {
                        java_dot()
                    };
                    self.add(Kind::Char(set))
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
            match head {
                None => head = Some(node),
                Some(_) => self.set_next(tail, node),
            }
            tail = node;
        }
        let Some(head) = head else {
            return Ok(end);
        };
        self.set_next(tail, end);
        self.root = tail;
        Ok(head)
    }

    fn literal(&self, c: u32) -> CharSet {
        let set = CharSet::single(c);
        if self.flags.case_insensitive && c < 128 && is_ascii_alpha(c) {
            set.ascii_case_closed()
        } else {
            set
        }
    }

    /// `Pattern.atom`: a run of literal characters (a `Slice`, built as a
    /// chain of one-character nodes; `root` is its last node) or one escape.
    fn atom(&mut self) -> Result<Id, PrincipalError> {
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
                        let set = self.family(one_letter, comp)?;
                        return Ok(self.add(Kind::Char(set)));
                    }
                    self.unread();
                    prev = self.cursor;
                    match self.escape(false, false)? {
                        Esc::Char(c) => {
                            buf.push(c);
                            ch = self.peek();
                            continue;
                        }
                        Esc::Set(set) if buf.is_empty() => return Ok(self.add(Kind::Char(set))),
                        Esc::Node(kind) if buf.is_empty() => return Ok(self.add(kind)),
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
        // Java's `Slice` (a quantifier never sees one: it takes the last
        // character off the slice above).
        let sets: Vec<CharSet> = buf.iter().map(|&c| self.literal(c)).collect();
        Ok(match sets.len() {
            1 => self.add(Kind::Char(sets.into_iter().next().unwrap_or_default())),
            _ => self.add(Kind::Slice(sets)),
        })
    }

    fn backref(&mut self, mut ref_num: u32) -> Result<Kind, PrincipalError> {
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
        self.has_group_ref = true;
        Ok(Kind::BackRef {
            group: ref_num,
            ci: self.flags.case_insensitive,
        })
    }

    /// `Pattern.escape(inclass, create, isrange)`; the cursor is on the backslash.
    fn escape(&mut self, inclass: bool, isrange: bool) -> Result<Esc, PrincipalError> {
        let ch = self.skip();
        let c = char::from_u32(ch).unwrap_or('\u{FFFD}');
        let esc = match c {
            '0' => return self.octal().map(Esc::Char),
            '1'..='9' if !inclass => return self.backref(ch - 0x30).map(Esc::Node),
            'A' if !inclass => Esc::Node(Kind::Begin),
            'B' if !inclass => Esc::Node(Kind::Bound(BOUND_NONE)),
            'D' => Esc::Set(ascii_digit().negate()),
            'G' if !inclass => Esc::Node(Kind::LastMatch),
            'H' => Esc::Set(horiz_ws().negate()),
            'N' => return Err(self.unsupported("`\\N{name}`")),
            'R' if !inclass => Esc::Node(Kind::LineEnding),
            'S' => Esc::Set(ascii_space().negate()),
            'V' => Esc::Set(vert_ws().negate()),
            'W' => Esc::Set(ascii_word().negate()),
            'X' if !inclass => return Err(self.unsupported("`\\X`")),
            'Z' if !inclass => Esc::Node(Kind::Dollar(false)),
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
                Esc::Node(Kind::Bound(BOUND_BOTH))
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
                self.has_group_ref = true;
                Esc::Node(Kind::BackRef {
                    group: num,
                    ci: self.flags.case_insensitive,
                })
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
            'z' if !inclass => Esc::Node(Kind::End),
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
    /// `Pattern.createGroup(anonymous)`: a head/tail pair; `root` is the tail.
    fn create_group(&mut self, anonymous: bool) -> Id {
        let local = self.local_count;
        self.local_count += 1;
        let group = if anonymous {
            0
        } else {
            self.capturing_group_count += 1;
            self.capturing_group_count - 1
        };
        let head = self.add(Kind::GroupHead { local });
        self.root = self.add(Kind::GroupTail { local, group });
        head
    }

    /// `Pattern.group0`; returns `None` for a flags-only group such as `(?i)`.
    fn group0(&mut self) -> Result<Option<Id>, PrincipalError> {
        let mut capturing = false;
        let save = self.flags;
        let save_tcn = self.top_closure.len();
        let head: Id;
        let tail: Id;
        let mut ch = self.next();
        if ch == u32::from('?') {
            ch = self.skip();
            match char::from_u32(ch).unwrap_or('\u{FFFD}') {
                c @ (':' | '=' | '!' | '>') => {
                    let h = self.create_group(true);
                    let t = self.root;
                    let body = self.expr(t)?;
                    self.set_next(h, body);
                    match c {
                        '=' | '!' => {
                            head = self.add(Kind::Look {
                                cond: h,
                                negate: c == '!',
                            });
                            tail = head;
                        }
                        '>' => {
                            head = self.add(Kind::Ques {
                                atom: h,
                                q: Qtype::Independent,
                            });
                            tail = head;
                        }
                        _ => {
                            head = h;
                            tail = t;
                        }
                    }
                }
                '<' => {
                    ch = self.read();
                    if ch != u32::from('=') && ch != u32::from('!') {
                        let name = self.groupname(ch)?;
                        if self.named_groups.contains_key(&name) {
                            return Err(self.error(&format!(
                                "Named capturing group <{name}> is already defined"
                            )));
                        }
                        capturing = true;
                        head = self.create_group(false);
                        tail = self.root;
                        self.named_groups
                            .insert(name, self.capturing_group_count - 1);
                        let body = self.expr(tail)?;
                        self.set_next(head, body);
                    } else {
                        let h = self.create_group(true);
                        let t = self.root;
                        let body = self.expr(t)?;
                        self.set_next(h, body);
                        let end = self.add(Kind::LookBehindEnd);
                        self.set_next(t, end);
                        let mut info = TreeInfo::new();
                        self.study(h, &mut info);
                        if !info.max_valid {
                            return Err(self.error(
                                "Look-behind group does not have an obvious maximum length",
                            ));
                        }
                        head = self.add(Kind::Behind {
                            cond: h,
                            rmax: info.max_length,
                            rmin: info.min_length,
                            negate: ch == u32::from('!'),
                        });
                        tail = head;
                        self.top_closure.truncate(save_tcn);
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
                    head = self.create_group(true);
                    tail = self.root;
                    let body = self.expr(tail)?;
                    self.set_next(head, body);
                }
            }
        } else {
            capturing = true;
            head = self.create_group(false);
            tail = self.root;
            let body = self.expr(tail)?;
            self.set_next(head, body);
        }
        self.accept(u32::from(')'), "Unclosed group")?;
        self.flags = save;

        let node = self.closure(head)?;
        if node == head {
            self.root = tail;
            return Ok(Some(node));
        }
        if head == tail {
            self.root = node;
            return Ok(Some(node));
        }
        self.top_closure.truncate(save_tcn);
        match self.nodes[node as usize].kind.clone() {
            Kind::Ques { q, .. } => {
                if q == Qtype::Possessive {
                    self.root = node;
                    return Ok(Some(node));
                }
                let conn = self.add(Kind::BranchConn);
                self.set_next(tail, conn);
                let alts = if q == Qtype::Greedy {
                    vec![Some(head), None]
                } else {
                    vec![None, Some(head)]
                };
                let branch = self.add(Kind::Branch { alts, conn });
                self.root = conn;
                Ok(Some(branch))
            }
            Kind::Curly { min, max, q, .. } => {
                if q == Qtype::Possessive {
                    self.root = node;
                    return Ok(Some(node));
                }
                let mut info = TreeInfo::new();
                if self.study(head, &mut info) {
                    let Kind::GroupTail { local, group } = self.nodes[tail as usize].kind else {
                        return Err(self.error("Internal logic error"));
                    };
                    let atom = self.nodes[head as usize].next;
                    let gc = self.add(Kind::GroupCurly {
                        atom,
                        min,
                        max,
                        q,
                        local,
                        group,
                        capture: capturing,
                    });
                    self.root = gc;
                    Ok(Some(gc))
                } else {
                    let Kind::GroupHead { local: begin } = self.nodes[head as usize].kind else {
                        return Err(self.error("Internal logic error"));
                    };
                    let count = self.local_count;
                    self.local_count += 1;
                    let lp = self.add(Kind::Loop {
                        body: head,
                        count,
                        begin,
                        min,
                        max,
                        lazy: q == Qtype::Lazy,
                        memo: None,
                    });
                    if q == Qtype::Greedy && max == MAX_REPS {
                        self.top_closure.push(lp);
                    }
                    self.set_next(tail, lp);
                    let prolog = self.add(Kind::Prolog { lp });
                    self.root = lp;
                    Ok(Some(prolog))
                }
            }
            _ => Err(self.error("Internal logic error")),
        }
    }

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

    /// `Pattern.curly(prev, cmin)`: `*`, `+`, `{n,}`.
    fn curly(&mut self, prev: Id, min: u32) -> Id {
        let q = self.qtype();
        let char_greedy =
            q == Qtype::Greedy && matches!(self.nodes[prev as usize].kind, Kind::Char(_));
        self.add(Kind::Curly {
            atom: prev,
            min,
            max: MAX_REPS,
            q,
            char_greedy,
        })
    }

    /// `Pattern.closure`: an optional quantifier after an atom.
    fn closure(&mut self, prev: Id) -> Result<Id, PrincipalError> {
        let ch = self.peek();
        match char::from_u32(ch).unwrap_or('\u{FFFD}') {
            '?' => {
                let q = self.qtype();
                Ok(self.add(Kind::Ques { atom: prev, q }))
            }
            '*' => Ok(self.curly(prev, 0)),
            '+' => Ok(self.curly(prev, 1)),
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
                        return Ok(self.curly(prev, cmin as u32));
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
                Ok(self.add(Kind::Curly {
                    atom: prev,
                    min: cmin as u32,
                    max: cmax as u32,
                    q,
                    char_greedy: false,
                }))
            }
            _ => Ok(prev),
        }
    }

    /// `Node.study(TreeInfo)` for the node `id` and what follows it; returns
    /// whether the piece is deterministic. Lengths use Java's `int` arithmetic.
    fn study(&self, id: Id, info: &mut TreeInfo) -> bool {
        let node = &self.nodes[id as usize];
        let next = node.next;
        match &node.kind {
            Kind::Accept | Kind::LookBehindEnd => {
                if id == ACCEPT {
                    info.deterministic
                } else {
                    self.study(next, info)
                }
            }
            Kind::LastAccept => self.study(next, info),
            Kind::Char(_) => {
                info.min_length = info.min_length.wrapping_add(1);
                info.max_length = info.max_length.wrapping_add(1);
                self.study(next, info)
            }
            Kind::Slice(sets) => {
                info.min_length = info.min_length.wrapping_add(sets.len() as i32);
                info.max_length = info.max_length.wrapping_add(sets.len() as i32);
                self.study(next, info)
            }
            Kind::LineEnding => {
                info.min_length = info.min_length.wrapping_add(1);
                info.max_length = info.max_length.wrapping_add(2);
                self.study(next, info)
            }
            Kind::Dollar(_) => {
                self.study(next, info);
                info.deterministic
            }
            Kind::BackRef { .. } => {
                info.max_valid = false;
                self.study(next, info)
            }
            Kind::BranchConn => info.deterministic,
            Kind::Branch { alts, conn } => {
                let mut min_l = info.min_length;
                let mut max_l = info.max_length;
                let mut max_v = info.max_valid;
                let mut min_l2 = i32::MAX;
                let mut max_l2 = -1i32;
                for alt in alts {
                    *info = TreeInfo::new();
                    if let Some(a) = alt {
                        self.study(*a, info);
                    }
                    min_l2 = min_l2.min(info.min_length);
                    max_l2 = max_l2.max(info.max_length);
                    max_v &= info.max_valid;
                }
                min_l = min_l.wrapping_add(min_l2);
                max_l = max_l.wrapping_add(max_l2);
                *info = TreeInfo::new();
                self.study(self.nodes[*conn as usize].next, info);
                info.min_length = info.min_length.wrapping_add(min_l);
                info.max_length = info.max_length.wrapping_add(max_l);
                info.max_valid &= max_v;
                info.deterministic = false;
                false
            }
            Kind::Ques { atom, q } => {
                if *q == Qtype::Independent {
                    self.study(*atom, info);
                } else {
                    let min_l = info.min_length;
                    self.study(*atom, info);
                    info.min_length = min_l;
                    info.deterministic = false;
                }
                self.study(next, info)
            }
            Kind::Curly {
                char_greedy: true,
                min,
                ..
            } => {
                info.min_length = info.min_length.wrapping_add(*min as i32);
                if info.max_valid {
                    info.max_length = info.max_length.wrapping_add(MAX_REPS as i32);
                }
                info.deterministic = false;
                self.study(next, info)
            }
            Kind::Curly { atom, min, max, .. } | Kind::GroupCurly { atom, min, max, .. } => {
                let min_l = info.min_length;
                let max_l = info.max_length;
                let max_v = info.max_valid;
                let detm = info.deterministic;
                *info = TreeInfo::new();
                self.study(*atom, info);
                let mut temp = info
                    .min_length
                    .wrapping_mul(*min as i32)
                    .wrapping_add(min_l);
                if temp < min_l {
                    temp = 0xFFF_FFFF;
                }
                info.min_length = temp;
                if max_v & info.max_valid {
                    let temp = info
                        .max_length
                        .wrapping_mul(*max as i32)
                        .wrapping_add(max_l);
                    info.max_length = temp;
                    if temp < max_l {
                        info.max_valid = false;
                    }
                } else {
                    info.max_valid = false;
                }
                if info.deterministic && min == max {
                    info.deterministic = detm;
                } else {
                    info.deterministic = false;
                }
                self.study(next, info)
            }
            Kind::Prolog { .. } | Kind::Loop { .. } => {
                info.max_valid = false;
                info.deterministic = false;
                false
            }
            Kind::Begin
            | Kind::End
            | Kind::Caret
            | Kind::Bound(_)
            | Kind::LastMatch
            | Kind::GroupHead { .. }
            | Kind::GroupTail { .. }
            | Kind::Look { .. }
            | Kind::Behind { .. } => self.study(next, info),
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
    nodes: Vec<Node>,
    /// `Pattern.matchRoot`.
    match_root: Id,
    locals: u32,
    /// How many `Loop`s keep a memo of failed positions (`localTCNCount`).
    memos: u32,
}

impl PartialEq for JavaPattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// Why a search stopped without an answer.
enum Stop {
    Steps,
    Depth,
}

/// `Matcher`'s state while one search runs. Positions are character indexes.
struct Run<'p, 't> {
    p: &'p JavaPattern,
    text: &'t [char],
    /// `Matcher.to`.
    to: usize,
    groups: Vec<i64>,
    locals: Vec<i64>,
    memo: Vec<Vec<bool>>,
    last: usize,
    lookbehind_to: usize,
    old_last: usize,
    end_anchor: bool,
    steps: u64,
    depth: u32,
}

type Res = Result<bool, Stop>;

impl Run<'_, '_> {
    fn at(&self, i: usize) -> u32 {
        u32::from(self.text[i])
    }

    fn is_word_17(c: u32) -> bool {
        c == u32::from('_') || in_ranges(&LETTER_OR_DIGIT, c)
    }

    fn is_mn(c: u32) -> bool {
        in_ranges(&NON_SPACING_MARK, c)
    }

    /// `Pattern.hasBaseCharacter`.
    fn has_base_character(&self, i: usize) -> bool {
        let mut x = i as i64;
        while x >= 0 {
            let ch = self.at(x as usize);
            if in_ranges(&LETTER_OR_DIGIT, ch) {
                return true;
            }
            if !Self::is_mn(ch) {
                return false;
            }
            x -= 1;
        }
        false
    }

    /// `Bound.check` (JDK 17: a word character is `_` or `Character.isLetterOrDigit`).
    fn bound(&self, i: usize) -> u8 {
        let mut left = false;
        if i > 0 {
            let ch = self.at(i - 1);
            left = Self::is_word_17(ch) || (Self::is_mn(ch) && self.has_base_character(i - 1));
        }
        let mut right = false;
        if i < self.to {
            let ch = self.at(i);
            right = Self::is_word_17(ch) || (Self::is_mn(ch) && self.has_base_character(i));
        }
        if left ^ right {
            if right {
                1
            } else {
                2
            }
        } else {
            BOUND_NONE
        }
    }

    fn is_line_term(c: u32) -> bool {
        c == 0x0A || c == 0x0D || (c | 1) == 0x2029 || c == 0x85
    }

    fn m(&mut self, id: Id, i: usize) -> Res {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Err(Stop::Steps);
        }
        self.depth += 1;
        if self.depth > DEPTH_LIMIT {
            return Err(Stop::Depth);
        }
        let r = self.m_inner(id, i);
        self.depth -= 1;
        r
    }

    fn m_inner(&mut self, id: Id, i: usize) -> Res {
        let p = self.p;
        let node = &p.nodes[id as usize];
        let next = node.next;
        match &node.kind {
            Kind::Accept => {
                self.last = i;
                Ok(true)
            }
            Kind::LastAccept => {
                if self.end_anchor && i != self.to {
                    return Ok(false);
                }
                self.last = i;
                Ok(true)
            }
            Kind::LookBehindEnd => Ok(i == self.lookbehind_to),
            Kind::Char(set) => {
                if i < self.to && set.contains(self.at(i)) {
                    self.m(next, i + 1)
                } else {
                    Ok(false)
                }
            }
            Kind::Slice(sets) => {
                let len = sets.len();
                if i + len > self.to {
                    return Ok(false);
                }
                for (j, set) in sets.iter().enumerate() {
                    if !set.contains(self.at(i + j)) {
                        return Ok(false);
                    }
                }
                self.m(next, i + len)
            }
            Kind::Begin => {
                if i == 0 {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::End => {
                if i == self.to {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::Caret => {
                if i == self.to {
                    return Ok(false);
                }
                if i > 0 {
                    let ch = self.at(i - 1);
                    if !Self::is_line_term(ch) {
                        return Ok(false);
                    }
                    if ch == 0x0D && self.at(i) == 0x0A {
                        return Ok(false);
                    }
                }
                self.m(next, i)
            }
            Kind::Dollar(multiline) => {
                let end = self.to;
                if !multiline {
                    if i + 2 < end {
                        return Ok(false);
                    }
                    if i + 2 == end && (self.at(i) != 0x0D || self.at(i + 1) != 0x0A) {
                        return Ok(false);
                    }
                }
                if i < end {
                    let ch = self.at(i);
                    if ch == 0x0A {
                        if i > 0 && self.at(i - 1) == 0x0D {
                            return Ok(false);
                        }
                        if *multiline {
                            return self.m(next, i);
                        }
                    } else if ch == 0x0D || ch == 0x85 || (ch | 1) == 0x2029 {
                        if *multiline {
                            return self.m(next, i);
                        }
                    } else {
                        return Ok(false);
                    }
                }
                self.m(next, i)
            }
            Kind::Bound(t) => {
                if self.bound(i) & t > 0 {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::LineEnding => {
                if i < self.to {
                    let ch = self.at(i);
                    if matches!(ch, 0x0A | 0x0B | 0x0C | 0x85 | 0x2028 | 0x2029) {
                        return self.m(next, i + 1);
                    }
                    if ch == 0x0D {
                        let j = i + 1;
                        if j < self.to && self.at(j) == 0x0A && self.m(next, j + 1)? {
                            return Ok(true);
                        }
                        return self.m(next, j);
                    }
                }
                Ok(false)
            }
            Kind::LastMatch => {
                if i == self.old_last {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::BackRef { group, ci } => {
                let gi = 2 * *group as usize;
                if gi + 1 >= self.groups.len() {
                    return Ok(false);
                }
                let (j, k) = (self.groups[gi], self.groups[gi + 1]);
                if j < 0 {
                    return Ok(false);
                }
                let (j, k) = (j as usize, k as usize);
                let size = k - j;
                if i + size > self.to {
                    return Ok(false);
                }
                for x in 0..size {
                    let (c1, c2) = (self.at(i + x), self.at(j + x));
                    if c1 != c2 && (!ci || ascii_to_lower(c1) != ascii_to_lower(c2)) {
                        return Ok(false);
                    }
                }
                self.m(next, i + size)
            }
            Kind::Branch { alts, conn } => {
                for alt in alts {
                    let ok = match alt {
                        None => self.m(p.nodes[*conn as usize].next, i)?,
                        Some(a) => self.m(*a, i)?,
                    };
                    if ok {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Kind::BranchConn => self.m(next, i),
            Kind::GroupHead { local } => {
                let l = *local as usize;
                let save = self.locals[l];
                self.locals[l] = i as i64;
                let ret = self.m(next, i);
                self.locals[l] = save;
                ret
            }
            Kind::GroupTail { local, group } => {
                let tmp = self.locals[*local as usize];
                if tmp >= 0 {
                    if *group == 0 {
                        return self.m(next, i);
                    }
                    let gi = 2 * *group as usize;
                    let (s, e) = (self.groups[gi], self.groups[gi + 1]);
                    self.groups[gi] = tmp;
                    self.groups[gi + 1] = i as i64;
                    if self.m(next, i)? {
                        return Ok(true);
                    }
                    self.groups[gi] = s;
                    self.groups[gi + 1] = e;
                    Ok(false)
                } else {
                    self.last = i;
                    Ok(true)
                }
            }
            Kind::Ques { atom, q } => match q {
                Qtype::Greedy => {
                    if self.m(*atom, i)? && self.m(next, self.last)? {
                        return Ok(true);
                    }
                    self.m(next, i)
                }
                Qtype::Lazy => {
                    if self.m(next, i)? {
                        return Ok(true);
                    }
                    Ok(self.m(*atom, i)? && self.m(next, self.last)?)
                }
                Qtype::Possessive => {
                    let i = if self.m(*atom, i)? { self.last } else { i };
                    self.m(next, i)
                }
                Qtype::Independent => Ok(self.m(*atom, i)? && self.m(next, self.last)?),
            },
            Kind::Curly {
                atom, min, max, q, ..
            } => {
                let mut i = i;
                let mut j = 0u32;
                while j < *min {
                    if !self.m(*atom, i)? {
                        return Ok(false);
                    }
                    i = self.last;
                    j += 1;
                }
                match q {
                    Qtype::Greedy => self.curly0(*atom, *max, next, i, j),
                    Qtype::Lazy => loop {
                        if self.m(next, i)? {
                            return Ok(true);
                        }
                        if j >= *max || !self.m(*atom, i)? || i == self.last {
                            return Ok(false);
                        }
                        i = self.last;
                        j += 1;
                    },
                    _ => {
                        while j < *max {
                            if !self.m(*atom, i)? || i == self.last {
                                break;
                            }
                            i = self.last;
                            j += 1;
                        }
                        self.m(next, i)
                    }
                }
            }
            Kind::GroupCurly {
                atom,
                min,
                max,
                q,
                local,
                group,
                capture,
            } => {
                let g = if *capture {
                    Some(2 * *group as usize)
                } else {
                    None
                };
                let l = *local as usize;
                let save0 = self.locals[l];
                let (save1, save2) = g.map_or((0, 0), |g| (self.groups[g], self.groups[g + 1]));
                self.locals[l] = -1;
                let mut i = i;
                let mut ret = true;
                for _ in 0..*min {
                    if self.m(*atom, i)? {
                        if let Some(g) = g {
                            self.groups[g] = i as i64;
                            self.groups[g + 1] = self.last as i64;
                        }
                        i = self.last;
                    } else {
                        ret = false;
                        break;
                    }
                }
                if ret {
                    ret = match q {
                        Qtype::Greedy => self.group_curly0(*atom, *max, g, next, i, *min)?,
                        Qtype::Lazy => {
                            let mut j = *min;
                            loop {
                                if self.m(next, i)? {
                                    break true;
                                }
                                if j >= *max || !self.m(*atom, i)? || i == self.last {
                                    break false;
                                }
                                if let Some(g) = g {
                                    self.groups[g] = i as i64;
                                    self.groups[g + 1] = self.last as i64;
                                }
                                i = self.last;
                                j += 1;
                            }
                        }
                        _ => {
                            let mut j = *min;
                            while j < *max {
                                if !self.m(*atom, i)? {
                                    break;
                                }
                                if let Some(g) = g {
                                    self.groups[g] = i as i64;
                                    self.groups[g + 1] = self.last as i64;
                                }
                                if i == self.last {
                                    break;
                                }
                                i = self.last;
                                j += 1;
                            }
                            self.m(next, i)?
                        }
                    };
                }
                if !ret {
                    self.locals[l] = save0;
                    if let Some(g) = g {
                        self.groups[g] = save1;
                        self.groups[g + 1] = save2;
                    }
                }
                Ok(ret)
            }
            Kind::Prolog { lp } => self.loop_init(*lp, i),
            Kind::Loop {
                body,
                count,
                begin,
                min,
                max,
                lazy,
                memo,
            } => {
                let (c, b) = (*count as usize, *begin as usize);
                if (i as i64) > self.locals[b] {
                    let n = self.locals[c];
                    if n < i64::from(*min) {
                        self.locals[c] = n + 1;
                        let r = self.m(*body, i)?;
                        if !r {
                            self.locals[c] = n;
                        }
                        return Ok(r);
                    }
                    if *lazy {
                        if self.m(next, i)? {
                            return Ok(true);
                        }
                        if n < i64::from(*max) {
                            self.locals[c] = n + 1;
                            let r = self.m(*body, i)?;
                            if !r {
                                self.locals[c] = n;
                            }
                            return Ok(r);
                        }
                        return Ok(false);
                    }
                    if n < i64::from(*max) {
                        if let Some(mi) = memo {
                            if self.memo[*mi as usize][i] {
                                return self.m(next, i);
                            }
                        }
                        self.locals[c] = n + 1;
                        if self.m(*body, i)? {
                            return Ok(true);
                        }
                        self.locals[c] = n;
                        if let Some(mi) = memo {
                            self.memo[*mi as usize][i] = true;
                        }
                    }
                }
                self.m(next, i)
            }
            Kind::Look { cond, negate } => {
                let matched = self.m(*cond, i)?;
                if matched != *negate {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::Behind {
                cond,
                rmax,
                rmin,
                negate,
            } => {
                let from = (i as i64 - i64::from(*rmax)).max(0);
                let saved = self.lookbehind_to;
                self.lookbehind_to = i;
                let mut matched = false;
                let mut j = i as i64 - i64::from(*rmin);
                while !matched && j >= from {
                    matched = match self.m(*cond, j as usize) {
                        Ok(b) => b,
                        Err(e) => {
                            self.lookbehind_to = saved;
                            return Err(e);
                        }
                    };
                    j -= 1;
                }
                self.lookbehind_to = saved;
                if matched != *negate {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
        }
    }

    /// `Curly.match0` (greedy).
    fn curly0(&mut self, atom: Id, max: u32, next: Id, mut i: usize, mut j: u32) -> Res {
        if j >= max {
            return self.m(next, i);
        }
        let back_limit = j;
        if self.m(atom, i)? {
            let k = self.last - i;
            if k != 0 {
                i = self.last;
                j += 1;
                while j < max {
                    if !self.m(atom, i)? {
                        break;
                    }
                    if i + k != self.last {
                        let last = self.last;
                        if self.curly0(atom, max, next, last, j + 1)? {
                            return Ok(true);
                        }
                        break;
                    }
                    i += k;
                    j += 1;
                }
                loop {
                    if self.m(next, i)? {
                        return Ok(true);
                    }
                    if j == back_limit {
                        return Ok(false);
                    }
                    i -= k;
                    j -= 1;
                }
            }
        }
        self.m(next, i)
    }

    /// `GroupCurly.match0` (greedy).
    fn group_curly0(
        &mut self,
        atom: Id,
        max: u32,
        g: Option<usize>,
        next: Id,
        mut i: usize,
        mut j: u32,
    ) -> Res {
        let min = j;
        let (save0, save1) = g.map_or((0, 0), |g| (self.groups[g], self.groups[g + 1]));
        'outer: {
            if j >= max || !self.m(atom, i)? {
                break 'outer;
            }
            let k = self.last as i64 - i as i64;
            if k <= 0 {
                if let Some(g) = g {
                    self.groups[g] = i as i64;
                    self.groups[g + 1] = i as i64 + k;
                }
                i = (i as i64 + k) as usize;
                break 'outer;
            }
            let k = k as usize;
            loop {
                if let Some(g) = g {
                    self.groups[g] = i as i64;
                    self.groups[g + 1] = (i + k) as i64;
                }
                i += k;
                j += 1;
                if j >= max || !self.m(atom, i)? {
                    break;
                }
                if i + k != self.last {
                    if self.group_curly0(atom, max, g, next, i, j)? {
                        return Ok(true);
                    }
                    break;
                }
            }
            while j > min {
                if self.m(next, i)? {
                    if let Some(g) = g {
                        self.groups[g + 1] = i as i64;
                        self.groups[g] = (i - k) as i64;
                    }
                    return Ok(true);
                }
                i -= k;
                if let Some(g) = g {
                    self.groups[g + 1] = i as i64;
                    self.groups[g] = i as i64 - k as i64;
                }
                j -= 1;
            }
        }
        if let Some(g) = g {
            self.groups[g] = save0;
            self.groups[g + 1] = save1;
        }
        self.m(next, i)
    }

    /// `Loop.matchInit` / `LazyLoop.matchInit`.
    fn loop_init(&mut self, lp: Id, i: usize) -> Res {
        let node = &self.p.nodes[lp as usize];
        let next = node.next;
        let Kind::Loop {
            body,
            count,
            min,
            max,
            lazy,
            ..
        } = node.kind
        else {
            return Ok(false);
        };
        let c = count as usize;
        let save = self.locals[c];
        let ret = if 0 < min {
            self.locals[c] = 1;
            self.m(body, i)
        } else if lazy {
            match self.m(next, i) {
                Ok(true) => Ok(true),
                Ok(false) if 0 < max => {
                    self.locals[c] = 1;
                    self.m(body, i)
                }
                other => other,
            }
        } else if 0 < max {
            self.locals[c] = 1;
            match self.m(body, i) {
                Ok(false) => self.m(next, i),
                other => other,
            }
        } else {
            self.m(next, i)
        };
        self.locals[c] = save;
        ret
    }
}

/// `ASCII.toLower`.
fn ascii_to_lower(c: u32) -> u32 {
    if (0x41..=0x5A).contains(&c) {
        c + 0x20
    } else {
        c
    }
}

/// Which `Matcher` operation a search is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `find()`: any start at or after `from`.
    Find,
    /// `lookingAt()`.
    LookingAt,
    /// `matches()`.
    Matches,
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
            nodes: Vec::new(),
            root: ACCEPT,
            local_count: 0,
            top_closure: Vec::new(),
            has_group_ref: false,
        };
        p.add(Kind::Accept);
        p.add(Kind::LastAccept);
        let match_root = p.expr(LAST_ACCEPT)?;
        if p.cursor != p.pattern_length {
            if p.peek() == u32::from(')') {
                return Err(p.error("Unmatched closing ')'"));
            }
            return Err(p.error("Unexpected internal error"));
        }
        let mut memos = 0;
        if !p.has_group_ref {
            for &lp in &p.top_closure {
                if let Kind::Loop { memo, .. } = &mut p.nodes[lp as usize].kind {
                    *memo = Some(memos);
                    memos += 1;
                }
            }
        }
        Ok(JavaPattern {
            source: source.to_owned(),
            group_count: p.capturing_group_count - 1,
            named_groups: p.named_groups,
            nodes: p.nodes,
            match_root,
            locals: p.local_count,
            memos,
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

    fn run<'p, 't>(&'p self, text: &'t [char]) -> Run<'p, 't> {
        Run {
            p: self,
            text,
            to: text.len(),
            groups: vec![-1; 2 * (self.group_count as usize + 1)],
            locals: vec![-1; self.locals as usize],
            memo: vec![vec![false; text.len() + 1]; self.memos as usize],
            last: 0,
            lookbehind_to: 0,
            old_last: 0,
            end_anchor: false,
            steps: 0,
            depth: 0,
        }
    }

    fn stopped(&self, text: &str, stop: Stop) -> PrincipalError {
        let why = match stop {
            Stop::Steps => format!("needs too many steps (more than {STEP_BUDGET})"),
            Stop::Depth => format!("nests too deeply (more than {DEPTH_LIMIT} levels)"),
        };
        PrincipalError::new(
            ErrorClass::UnsupportedRegex,
            format!(
                "The rule's regular expression `{}` {why} to match `{text}`; simplify the rule.",
                self.source
            ),
        )
    }

    /// One `Matcher.search(from)` (`anchored` = false) or `Matcher.match`
    /// (`lookingAt`/`matches`); spans in character indexes.
    fn search(
        &self,
        chars: &[char],
        from: usize,
        old_last: usize,
        mode: Mode,
        text: &str,
    ) -> Result<Option<Vec<i64>>, PrincipalError> {
        let mut r = self.run(chars);
        r.old_last = old_last;
        r.end_anchor = mode == Mode::Matches;
        let starts = if mode == Mode::Find { r.to } else { from };
        let mut i = from;
        while i <= starts {
            match r.m(self.match_root, i) {
                Ok(true) => {
                    r.groups[0] = i as i64;
                    r.groups[1] = r.last as i64;
                    return Ok(Some(r.groups));
                }
                Ok(false) => {}
                Err(stop) => return Err(self.stopped(text, stop)),
            }
            i += 1;
        }
        Ok(None)
    }

    fn to_groups(text: &str, chars: &[char], spans: &[i64]) -> Groups {
        let mut offsets = Vec::with_capacity(chars.len() + 1);
        let mut b = 0;
        for c in chars {
            offsets.push(b);
            b += c.len_utf8();
        }
        offsets.push(b);
        let _ = text;
        spans
            .chunks(2)
            .map(|s| {
                (s[0] >= 0 && s[1] >= 0).then(|| (offsets[s[0] as usize], offsets[s[1] as usize]))
            })
            .collect()
    }

    fn one(&self, text: &str, mode: Mode) -> Result<Option<Groups>, PrincipalError> {
        let chars: Vec<char> = text.chars().collect();
        Ok(self
            .search(&chars, 0, 0, mode, text)?
            .map(|s| Self::to_groups(text, &chars, &s)))
    }

    /// `Matcher.matches()`: the whole text must match.
    pub(crate) fn matches(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.one(text, Mode::Matches)
    }

    /// `Matcher.lookingAt()`: a match that starts at the beginning.
    pub(crate) fn looking_at(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.one(text, Mode::LookingAt)
    }

    /// `Matcher.find(from)`: the first match starting at or after byte `from`
    /// (a character boundary).
    pub(crate) fn find_at(
        &self,
        text: &str,
        from: usize,
    ) -> Result<Option<Groups>, PrincipalError> {
        if from > text.len() {
            return Ok(None);
        }
        let chars: Vec<char> = text.chars().collect();
        let from_char = text.get(..from).map_or(0, |s| s.chars().count());
        Ok(self
            .search(&chars, from_char, from_char, Mode::Find, text)?
            .map(|s| Self::to_groups(text, &chars, &s)))
    }

    /// Successive `Matcher.find()` results after a reset: after an empty
    /// match the next search starts one character later, after a non-empty
    /// match an empty match right at its end is allowed; `\G` is where the
    /// previous match ended.
    pub(crate) fn find_all(
        &self,
        text: &str,
        limit: Option<usize>,
    ) -> Result<Vec<Groups>, PrincipalError> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        let (mut first, mut last): (i64, usize) = (-1, 0);
        let mut old_last: Option<usize> = None;
        loop {
            if limit.is_some_and(|l| out.len() >= l) {
                break;
            }
            let mut from = last;
            if from as i64 == first {
                if chars.get(from).is_some_and(|&c| u32::from(c) > 0xFFFF) {
                    // Java steps one UTF-16 unit, into the middle of the pair.
                    return Err(PrincipalError::new(
                        ErrorClass::UnsupportedRegex,
                        format!(
                            "The rule's regular expression `{}` has an empty match right before \
                             `{}` in `{text}`, where Java would go on searching between the two \
                             halves of that character (outside the BMP) and split it; this \
                             engine does not reproduce that.",
                            self.source, chars[from]
                        ),
                    ));
                }
                from += 1;
            }
            if from > chars.len() {
                break;
            }
            let Some(spans) =
                self.search(&chars, from, old_last.unwrap_or(from), Mode::Find, text)?
            else {
                break;
            };
            first = spans[0];
            last = spans[1] as usize;
            old_last = Some(last);
            out.push(Self::to_groups(text, &chars, &spans));
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
    fn repeated_groups_keep_java_captures() {
        // Outcomes checked against JDK 17 (`Matcher.matches`, `String.replaceAll`).
        let p = ok("(.*)*");
        let g = p.matches("abc").unwrap().unwrap();
        assert_eq!(g[1], Some((3, 3)));
        assert_eq!(p.replace("abc", "[$1]", true).unwrap(), "[][]");
        assert_eq!(ok("(a|b)*").replace("abab", "[$1]", true).unwrap(), "[b][]");
        assert_eq!(
            ok("(?:(a)|b)*").replace("ab", "[$1]", true).unwrap(),
            "[a][]"
        );
        assert_eq!(ok("(a?)*").replace("aa", "[$1]", true).unwrap(), "[][]");
        assert!(JavaPattern::compile("(a)*").is_ok());
    }

    #[test]
    fn look_behind_lengths_follow_jdk_17_study() {
        // JDK 17 accepts `a*` in a look-behind (its maximum saturates) ...
        assert_eq!(
            ok("(?<=a*)b").replace("aab", "<$0>", true).unwrap(),
            "aa<b>"
        );
        // ... but not a loop over a group, or a back-reference.
        assert_eq!(
            err("(?<=(a|b){2})x").message(),
            "Look-behind group does not have an obvious maximum length near index 11\n(?<=(a|b){2})x\n           ^"
        );
        assert_eq!(err("(?<=\\1)x").class(), ErrorClass::PatternSyntax);
        assert_eq!(
            err("\\b{x}").message(),
            "Illegal repetition near index 3\n\\b{x}\n   ^"
        );
    }

    #[test]
    fn jdk_17_word_boundaries_and_references() {
        // Outcomes checked against JDK 17: `\b` uses Character.isLetterOrDigit
        // and counts a non-spacing mark with a base character as a word character.
        assert_eq!(ok("\\bx").replace("üx", "[$0]", true).unwrap(), "üx");
        assert_eq!(
            ok("x\\b").replace("x\u{301}", "[$0]", true).unwrap(),
            "x\u{301}"
        );
        assert_eq!(
            ok("\\b").replace("\u{301}a", "|", true).unwrap(),
            "\u{301}|a|"
        );
        assert_eq!(ok("(?i)(a)\\1").replace("aA", "<$1>", true).unwrap(), "<a>");
        assert_eq!(ok("\\Ga").replace("aab", "-", true).unwrap(), "--b");
        assert_eq!(ok("(a)|\\1b").replace("b", "[$0]", true).unwrap(), "b");
    }

    #[test]
    fn depth_limit_fits_a_small_stack() {
        // wasm32's default stack is 1 MiB: hitting the depth limit must give
        // an error there, not overflow the stack. An optimized build must
        // stay within half of that (unoptimized frames are far larger).
        let handle = std::thread::Builder::new()
            .stack_size(if cfg!(debug_assertions) {
                16 << 20
            } else {
                1 << 19
            })
            .spawn(|| {
                let p = ok("(a|b)*c");
                let fits = p
                    .matches(&format!("{}c", "ab".repeat(240)))
                    .map(|m| m.is_some());
                (fits, p.matches(&"ab".repeat(3000)))
            })
            .unwrap();
        let (fits, too_deep) = handle.join().unwrap();
        assert_eq!(fits, Ok(true));
        let e = too_deep.unwrap_err();
        assert!(e.message().contains("nests too deeply"), "{}", e.message());
    }

    #[test]
    fn pathological_patterns_give_a_clear_error() {
        let e = ok("(a*)*b|(a|aa)+c\\1")
            .matches(&"a".repeat(40))
            .unwrap_err();
        assert_eq!(e.class(), ErrorClass::UnsupportedRegex);
        assert!(
            e.message().contains("needs too many steps")
                || e.message().contains("nests too deeply")
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
