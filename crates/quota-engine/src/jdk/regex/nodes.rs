//! The compiled form of a pattern: the JDK's matcher node graph, held in a
//! vector and linked by index (`Node.next`).
//!
//! JDK 17: the `Node` subclasses of `java/util/regex/Pattern.java`.

use super::charclass::CharSet;

/// Index of a node in [`JavaPattern::nodes`].
pub(super) type Id = u32;

/// `Pattern.accept`: ends an atom (records where it ended).
pub(super) const ACCEPT: Id = 0;
/// `Pattern.lastAccept`: ends the whole pattern.
pub(super) const LAST_ACCEPT: Id = 1;

/// `Bound` types.
pub(super) const BOUND_BOTH: u8 = 0x3;
pub(super) const BOUND_NONE: u8 = 0x4;

/// Java's quantifier kinds (`Pattern.Qtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Qtype {
    Greedy,
    Lazy,
    Possessive,
    /// `(?>X)`: an atomic group is a `Ques` of this type.
    Independent,
}

/// The JDK's matcher node kinds; every node also has a `next`.
#[derive(Clone, Debug)]
pub(super) enum Kind {
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
pub(super) struct Node {
    pub(super) kind: Kind,
    pub(super) next: Id,
}
