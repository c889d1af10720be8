//! `Matcher`: walks the node graph exactly as the JDK's `match` methods do
//! (leftmost-first backtracking, the JDK's captures for repeated groups),
//! within a step budget and a depth limit.
//!
//! JDK 17: the `match` methods of `java/util/regex/Pattern.java`'s nodes,
//! `Matcher.java` (`search`, `match`, `find`).

use super::charclass::CharSet;
use super::nodes::{Id, Kind, Qtype, BOUND_NONE};
use super::{Groups, JavaPattern};
use crate::jdk::unicode::{is_letter_or_digit, is_non_spacing_mark};
use crate::principal::{ErrorClass, PrincipalError};

/// Matching steps (node visits) one search may take before it gives up with
/// an [`ErrorClass::UnsupportedRegex`] error.
pub const STEP_BUDGET: u64 = 2_000_000;

/// Nested node visits one search may stack up before it gives up (the JDK's
/// matcher is recursive too and would end in `StackOverflowError`). A loop
/// over an alternation (`(a|b)*`) nests about six levels per character, so
/// this allows such loops over about 500 characters; in an optimized build
/// it needs under 512 KiB of stack (wasm32 has 1 MiB).
pub const DEPTH_LIMIT: u32 = 3_000;

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
        c == u32::from('_') || is_letter_or_digit(c)
    }

    fn is_mn(c: u32) -> bool {
        is_non_spacing_mark(c)
    }

    /// `Pattern.hasBaseCharacter`.
    fn has_base_character(&self, i: usize) -> bool {
        let mut x = i as i64;
        while x >= 0 {
            let ch = self.at(x as usize);
            if is_letter_or_digit(ch) {
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

    /// One node's `match` method: short arms inline, the larger ones in the
    /// named methods below (each the JDK node's `match`).
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
            Kind::Slice(sets) => self.slice(sets, next, i),
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
            Kind::Caret => self.caret(next, i),
            Kind::Dollar(multiline) => self.dollar(*multiline, next, i),
            Kind::Bound(t) => {
                if self.bound(i) & t > 0 {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::LineEnding => self.line_ending(next, i),
            Kind::LastMatch => {
                if i == self.old_last {
                    self.m(next, i)
                } else {
                    Ok(false)
                }
            }
            Kind::BackRef { group, ci } => self.back_ref(*group, *ci, next, i),
            Kind::Branch { alts, conn } => self.branch(alts, *conn, i),
            Kind::BranchConn => self.m(next, i),
            Kind::GroupHead { local } => self.group_head(*local, next, i),
            Kind::GroupTail { local, group } => self.group_tail(*local, *group, next, i),
            Kind::Ques { atom, q } => self.ques(*atom, *q, next, i),
            Kind::Curly {
                atom, min, max, q, ..
            } => self.curly(*atom, *min, *max, *q, next, i),
            Kind::GroupCurly { .. } => self.group_curly(id, i),
            Kind::Prolog { lp } => self.loop_init(*lp, i),
            Kind::Loop { .. } => self.loop_iteration(id, i),
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
            } => self.behind(*cond, *rmax, *rmin, *negate, next, i),
        }
    }

    // The helpers below are `#[inline(always)]`: matching recurses once per
    // node, and `DEPTH_LIMIT`'s stack budget assumes one `m_inner` frame per
    // level, as when these were arms of its `match`.

    /// `Slice.match`: a run of literal characters.
    #[inline(always)]
    fn slice(&mut self, sets: &[CharSet], next: Id, i: usize) -> Res {
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

    /// `Caret.match` (`^` with `(?m)`): after a line terminator, not between
    /// `\r` and `\n`, not at the end.
    #[inline(always)]
    fn caret(&mut self, next: Id, i: usize) -> Res {
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

    /// `Dollar.match` (`$`, `\Z`): at the end, or before a final line
    /// terminator (any line terminator under `(?m)`).
    #[inline(always)]
    fn dollar(&mut self, multiline: bool, next: Id, i: usize) -> Res {
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
                if multiline {
                    return self.m(next, i);
                }
            } else if ch == 0x0D || ch == 0x85 || (ch | 1) == 0x2029 {
                if multiline {
                    return self.m(next, i);
                }
            } else {
                return Ok(false);
            }
        }
        self.m(next, i)
    }

    /// `LineEnding.match` (`\R`): `\r\n` or one line-break character.
    #[inline(always)]
    fn line_ending(&mut self, next: Id, i: usize) -> Res {
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

    /// `BackRef.match` / `CIBackRef.match` (ASCII case folding when `ci`).
    #[inline(always)]
    fn back_ref(&mut self, group: u32, ci: bool, next: Id, i: usize) -> Res {
        let gi = 2 * group as usize;
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

    /// `Branch.match`: the alternatives in order; an empty one goes straight
    /// on after the `BranchConn`.
    #[inline(always)]
    fn branch(&mut self, alts: &[Option<Id>], conn: Id, i: usize) -> Res {
        let p = self.p;
        for alt in alts {
            let ok = match alt {
                None => self.m(p.nodes[conn as usize].next, i)?,
                Some(a) => self.m(*a, i)?,
            };
            if ok {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `GroupHead.match`: remembers where the group starts.
    #[inline(always)]
    fn group_head(&mut self, local: u32, next: Id, i: usize) -> Res {
        let l = local as usize;
        let save = self.locals[l];
        self.locals[l] = i as i64;
        let ret = self.m(next, i);
        self.locals[l] = save;
        ret
    }

    /// `GroupTail.match`: sets the capture (restored if what follows fails).
    #[inline(always)]
    fn group_tail(&mut self, local: u32, group: u32, next: Id, i: usize) -> Res {
        let tmp = self.locals[local as usize];
        if tmp >= 0 {
            if group == 0 {
                return self.m(next, i);
            }
            let gi = 2 * group as usize;
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

    /// `Ques.match` (`?`, `??`, `?+`) and `(?>X)`.
    #[inline(always)]
    fn ques(&mut self, atom: Id, q: Qtype, next: Id, i: usize) -> Res {
        match q {
            Qtype::Greedy => {
                if self.m(atom, i)? && self.m(next, self.last)? {
                    return Ok(true);
                }
                self.m(next, i)
            }
            Qtype::Lazy => {
                if self.m(next, i)? {
                    return Ok(true);
                }
                Ok(self.m(atom, i)? && self.m(next, self.last)?)
            }
            Qtype::Possessive => {
                let i = if self.m(atom, i)? { self.last } else { i };
                self.m(next, i)
            }
            Qtype::Independent => Ok(self.m(atom, i)? && self.m(next, self.last)?),
        }
    }

    /// `Curly.match`: `min` repetitions, then greedy (`curly0`), lazy or
    /// possessive.
    #[inline(always)]
    fn curly(&mut self, atom: Id, min: u32, max: u32, q: Qtype, next: Id, i: usize) -> Res {
        let mut i = i;
        let mut j = 0u32;
        while j < min {
            if !self.m(atom, i)? {
                return Ok(false);
            }
            i = self.last;
            j += 1;
        }
        match q {
            Qtype::Greedy => self.curly0(atom, max, next, i, j),
            Qtype::Lazy => loop {
                if self.m(next, i)? {
                    return Ok(true);
                }
                if j >= max || !self.m(atom, i)? || i == self.last {
                    return Ok(false);
                }
                i = self.last;
                j += 1;
            },
            _ => {
                while j < max {
                    if !self.m(atom, i)? || i == self.last {
                        break;
                    }
                    i = self.last;
                    j += 1;
                }
                self.m(next, i)
            }
        }
    }

    /// `GroupCurly.match` for the node `id`: `min` repetitions of the group
    /// (capturing each), then greedy (`group_curly0`), lazy or possessive;
    /// the capture is restored when the whole fails.
    #[inline(always)]
    fn group_curly(&mut self, id: Id, i: usize) -> Res {
        let node = &self.p.nodes[id as usize];
        let next = node.next;
        let Kind::GroupCurly {
            atom,
            min,
            max,
            q,
            local,
            group,
            capture,
        } = node.kind
        else {
            return Ok(false);
        };
        let g = if capture {
            Some(2 * group as usize)
        } else {
            None
        };
        let l = local as usize;
        let save0 = self.locals[l];
        let (save1, save2) = g.map_or((0, 0), |g| (self.groups[g], self.groups[g + 1]));
        self.locals[l] = -1;
        let mut i = i;
        let mut ret = true;
        for _ in 0..min {
            if self.m(atom, i)? {
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
                Qtype::Greedy => self.group_curly0(atom, max, g, next, i, min)?,
                Qtype::Lazy => {
                    let mut j = min;
                    loop {
                        if self.m(next, i)? {
                            break true;
                        }
                        if j >= max || !self.m(atom, i)? || i == self.last {
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
                    let mut j = min;
                    while j < max {
                        if !self.m(atom, i)? {
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

    /// `Loop.match` / `LazyLoop.match` for the node `id`: one more iteration
    /// of the body or what follows, with the memo of positions where another
    /// iteration already failed.
    #[inline(always)]
    fn loop_iteration(&mut self, id: Id, i: usize) -> Res {
        let node = &self.p.nodes[id as usize];
        let next = node.next;
        let Kind::Loop {
            body,
            count,
            begin,
            min,
            max,
            lazy,
            memo,
        } = node.kind
        else {
            return Ok(false);
        };
        let (c, b) = (count as usize, begin as usize);
        if (i as i64) > self.locals[b] {
            let n = self.locals[c];
            if n < i64::from(min) {
                self.locals[c] = n + 1;
                let r = self.m(body, i)?;
                if !r {
                    self.locals[c] = n;
                }
                return Ok(r);
            }
            if lazy {
                if self.m(next, i)? {
                    return Ok(true);
                }
                if n < i64::from(max) {
                    self.locals[c] = n + 1;
                    let r = self.m(body, i)?;
                    if !r {
                        self.locals[c] = n;
                    }
                    return Ok(r);
                }
                return Ok(false);
            }
            if n < i64::from(max) {
                if let Some(mi) = memo {
                    if self.memo[mi as usize][i] {
                        return self.m(next, i);
                    }
                }
                self.locals[c] = n + 1;
                if self.m(body, i)? {
                    return Ok(true);
                }
                self.locals[c] = n;
                if let Some(mi) = memo {
                    self.memo[mi as usize][i] = true;
                }
            }
        }
        self.m(next, i)
    }

    /// `Behind.match` / `NotBehind.match`: tries the condition from `rmin`
    /// to `rmax` characters back, where it must end at `i`.
    #[inline(always)]
    fn behind(&mut self, cond: Id, rmax: i32, rmin: i32, negate: bool, next: Id, i: usize) -> Res {
        let from = (i as i64 - i64::from(rmax)).max(0);
        let saved = self.lookbehind_to;
        self.lookbehind_to = i;
        let mut matched = false;
        let mut j = i as i64 - i64::from(rmin);
        while !matched && j >= from {
            matched = match self.m(cond, j as usize) {
                Ok(b) => b,
                Err(e) => {
                    self.lookbehind_to = saved;
                    return Err(e);
                }
            };
            j -= 1;
        }
        self.lookbehind_to = saved;
        if matched != negate {
            self.m(next, i)
        } else {
            Ok(false)
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
    pub fn matches(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.one(text, Mode::Matches)
    }

    /// `Matcher.lookingAt()`: a match that starts at the beginning.
    pub fn looking_at(&self, text: &str) -> Result<Option<Groups>, PrincipalError> {
        self.one(text, Mode::LookingAt)
    }

    /// `Matcher.find(from)`: the first match starting at or after byte `from`
    /// (a character boundary).
    pub fn find_at(&self, text: &str, from: usize) -> Result<Option<Groups>, PrincipalError> {
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
    pub fn find_all(
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
}

#[cfg(test)]
mod tests {
    use super::super::test_support::ok;
    use super::super::JavaPattern;
    use crate::principal::ErrorClass;

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
    fn backrefs_and_possessive() {
        assert!(ok("(a)\\1").matches("aa").unwrap().is_some());
        assert!(ok("(a)\\5").find_at("aa", 0).unwrap().is_none());
        assert!(ok("a*+a").matches("aaa").unwrap().is_none());
        assert!(ok("a*a").matches("aaa").unwrap().is_some());
    }
}
