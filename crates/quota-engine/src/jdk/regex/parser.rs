//! `Pattern.compile`: the JDK 17 recursive-descent parser (`expr`,
//! `sequence`, `atom`, `escape`, `group0`, `closure`, `RemoveQEQuoting`),
//! building the node graph of `nodes.rs` and raising the JDK's
//! `PatternSyntaxException` text.
//!
//! JDK 17: `java/util/regex/Pattern.java`, `PatternSyntaxException.java`.

use std::collections::BTreeMap;

use super::charclass::{
    ascii_digit, ascii_space, ascii_word, hex_val, horiz_ws, is_ascii_alpha, is_ascii_digit,
    is_ascii_hex, java_dot, vert_ws, CharSet,
};
use super::nodes::{Id, Kind, Node, Qtype, ACCEPT, BOUND_BOTH, BOUND_NONE, LAST_ACCEPT};
use super::study::TreeInfo;
use super::JavaPattern;
use crate::principal::{ErrorClass, PrincipalError};

/// Java's `Pattern.MAX_REPS` is `0x7FFFFFFF`; counts above it overflow.
pub(super) const JAVA_INT_MAX: u64 = 0x7FFF_FFFF;

/// `Pattern.MAX_REPS`: the maximum of `*`, `+` and `{n,}`.
pub(super) const MAX_REPS: u32 = 0x7FFF_FFFF;

/// What an escape sequence stands for.
pub(super) enum Esc {
    /// One character.
    Char(u32),
    /// A predefined class (`\d`, `\w`, ...).
    Set(CharSet),
    /// A zero-width assertion or back-reference node.
    Node(Kind),
}

#[derive(Clone, Copy, Default)]
pub(super) struct Flags {
    pub(super) case_insensitive: bool,
    pub(super) dotall: bool,
    pub(super) multiline: bool,
    /// Set flags the engine does not reproduce (`d u c x U`), as a bit per letter.
    pub(super) unsupported: u8,
}

/// The inline flags the engine does not reproduce, in bit order.
pub(super) const UNSUPPORTED_FLAGS: [char; 5] = ['d', 'u', 'c', 'x', 'U'];

pub(super) struct Parser<'a> {
    /// The pattern as given (Java's `normalizedPattern`, used in messages).
    pub(super) source: &'a str,
    /// Code points after `\Q...\E` removal (Java's `temp` without its zero padding).
    pub(super) temp: Vec<u32>,
    pub(super) pattern_length: usize,
    pub(super) cursor: usize,
    pub(super) flags: Flags,
    /// Java's `capturingGroupCount`: group 0 counts, so it starts at 1.
    pub(super) capturing_group_count: u32,
    pub(super) named_groups: BTreeMap<String, u32>,
    /// The node graph being built.
    pub(super) nodes: Vec<Node>,
    /// Java's "double return" `root`: the tail of the last built piece.
    pub(super) root: Id,
    /// Java's `localCount`.
    pub(super) local_count: u32,
    /// Java's `topClosureNodes` (greedy unbounded `Loop`s not inside another
    /// quantified group or a look-behind).
    pub(super) top_closure: Vec<Id>,
    /// Java's `hasGroupRef`.
    pub(super) has_group_ref: bool,
}

impl<'a> Parser<'a> {
    pub(super) fn at(&self, i: usize) -> u32 {
        self.temp.get(i).copied().unwrap_or(0)
    }
    pub(super) fn peek(&self) -> u32 {
        self.at(self.cursor)
    }
    pub(super) fn read(&mut self) -> u32 {
        let c = self.at(self.cursor);
        self.cursor += 1;
        c
    }
    pub(super) fn next(&mut self) -> u32 {
        self.cursor += 1;
        self.at(self.cursor)
    }
    pub(super) fn skip(&mut self) -> u32 {
        let c = self.at(self.cursor + 1);
        self.cursor += 2;
        c
    }
    pub(super) fn unread(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }
    pub(super) fn accept(&mut self, ch: u32, msg: &str) -> Result<(), PrincipalError> {
        let c = self.read();
        if c != ch {
            return Err(self.error(msg));
        }
        Ok(())
    }

    /// `Pattern.error`: the index is `cursor - 1`.
    pub(super) fn error(&self, desc: &str) -> PrincipalError {
        pattern_syntax(desc, self.source, self.cursor as i64 - 1)
    }

    pub(super) fn unsupported(&self, what: &str) -> PrincipalError {
        PrincipalError::new(
            ErrorClass::UnsupportedRegex,
            format!(
                "The Java regular expression `{}` uses {what}, which this engine does not reproduce; \
                 rewrite the rule without it.",
                self.source
            ),
        )
    }

    pub(super) fn add(&mut self, kind: Kind) -> Id {
        self.nodes.push(Node { kind, next: ACCEPT });
        (self.nodes.len() - 1) as Id
    }

    pub(super) fn set_next(&mut self, id: Id, next: Id) {
        self.nodes[id as usize].next = next;
    }

    /// `Pattern.expr(end)`: alternatives, joined by a `Branch`.
    pub(super) fn expr(&mut self, end: Id) -> Result<Id, PrincipalError> {
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
    pub(super) fn sequence(&mut self, end: Id) -> Result<Id, PrincipalError> {
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

    pub(super) fn literal(&self, c: u32) -> CharSet {
        let set = CharSet::single(c);
        if self.flags.case_insensitive && c < 128 && is_ascii_alpha(c) {
            set.ascii_case_closed()
        } else {
            set
        }
    }

    /// `Pattern.atom`: a run of literal characters (a `Slice`, built as a
    /// chain of one-character nodes; `root` is its last node) or one escape.
    pub(super) fn atom(&mut self) -> Result<Id, PrincipalError> {
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

    pub(super) fn backref(&mut self, mut ref_num: u32) -> Result<Kind, PrincipalError> {
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
    pub(super) fn escape(&mut self, inclass: bool, isrange: bool) -> Result<Esc, PrincipalError> {
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

    pub(super) fn octal(&mut self) -> Result<u32, PrincipalError> {
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

    pub(super) fn hex(&mut self) -> Result<u32, PrincipalError> {
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

    pub(super) fn uxxxx(&mut self) -> Result<u32, PrincipalError> {
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

    pub(super) fn unicode_escape(&mut self) -> Result<u32, PrincipalError> {
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

    pub(super) fn groupname(&mut self, first: u32) -> Result<String, PrincipalError> {
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

    /// `Pattern.createGroup(anonymous)`: a head/tail pair; `root` is the tail.
    pub(super) fn create_group(&mut self, anonymous: bool) -> Id {
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
    pub(super) fn group0(&mut self) -> Result<Option<Id>, PrincipalError> {
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

    pub(super) fn add_flags(&mut self) {
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

    pub(super) fn check_flags(&self) -> Result<(), PrincipalError> {
        if let Some(i) =
            (0..UNSUPPORTED_FLAGS.len()).find(|i| self.flags.unsupported & (1 << i) != 0)
        {
            return Err(self.unsupported(&format!("the inline flag `{}`", UNSUPPORTED_FLAGS[i])));
        }
        Ok(())
    }

    pub(super) fn qtype(&mut self) -> Qtype {
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
    pub(super) fn curly(&mut self, prev: Id, min: u32) -> Id {
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
    pub(super) fn closure(&mut self, prev: Id) -> Result<Id, PrincipalError> {
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
pub(super) fn remove_qe_quoting(temp: Vec<u32>) -> Vec<u32> {
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

/// `Pattern.compile(source)` with default flags: the node graph, or the
/// JDK's `PatternSyntaxException` (or an unsupported-feature error).
pub(super) fn compile(source: &str) -> Result<JavaPattern, PrincipalError> {
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

#[cfg(test)]
mod tests {
    use super::super::test_support::err;
    use super::super::JavaPattern;
    use crate::principal::ErrorClass;

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

    proptest::proptest! {
        #[test]
        fn quoted_literals_match_themselves(lit in "\\PC*") {
            proptest::prop_assume!(!lit.contains("\\E"));
            let p = JavaPattern::compile(&format!("\\Q{lit}\\E")).unwrap();
            proptest::prop_assert!(p.matches(&lit).unwrap().is_some());
        }
    }
}
