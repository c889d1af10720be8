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
//!
//! The module is split the way the JDK's `Pattern` reads: `parser`
//! (`Pattern.compile`, `PatternSyntaxException` text), `charclass`
//! (character classes and their parsing), `nodes` (the compiled node
//! graph), `study` (`TreeInfo.study`), `matcher` (`Matcher`'s backtracking
//! walk) and `replace` (`replaceAll` replacements). Errors are
//! [`PrincipalError`]s; [`ErrorClass::PatternSyntax`] carries the JDK's
//! `PatternSyntaxException` message (built by `parser::pattern_syntax`).
//!
//! [`ErrorClass::PatternSyntax`]: crate::principal::ErrorClass::PatternSyntax
//! [`ErrorClass::UnsupportedRegex`]: crate::principal::ErrorClass::UnsupportedRegex

mod charclass;
mod matcher;
mod nodes;
mod parser;
mod replace;
mod study;

use std::collections::BTreeMap;

use crate::principal::PrincipalError;
use nodes::{Id, Node};

pub use matcher::{DEPTH_LIMIT, STEP_BUDGET};

/// Capture spans of one match: index 0 is the whole match; `None` = the
/// group did not take part. Byte offsets into the searched text.
pub type Groups = Vec<Option<(usize, usize)>>;

/// A compiled `java.util.regex.Pattern`.
///
/// # Example
///
/// ```
/// use quota_engine::jdk::regex::JavaPattern;
///
/// let p = JavaPattern::compile("CN=([^,]*),.*")?;
/// assert_eq!(p.replace("CN=alice,OU=eng", "$1", true)?, "alice");
/// let e = JavaPattern::compile("^CN=(.*").unwrap_err();
/// assert_eq!(e.message(), "Unclosed group near index 7\n^CN=(.*");
/// # Ok::<(), quota_engine::PrincipalError>(())
/// ```
#[derive(Debug, Clone)]
pub struct JavaPattern {
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

impl JavaPattern {
    /// `Pattern.compile(pattern)` with default flags.
    ///
    /// # Errors
    /// [`ErrorClass::PatternSyntax`] with the JDK's message for a pattern Java
    /// rejects; [`ErrorClass::UnsupportedRegex`] for a Java feature this engine
    /// does not reproduce.
    ///
    /// [`ErrorClass::PatternSyntax`]: crate::principal::ErrorClass::PatternSyntax
    /// [`ErrorClass::UnsupportedRegex`]: crate::principal::ErrorClass::UnsupportedRegex
    pub fn compile(source: &str) -> Result<Self, PrincipalError> {
        parser::compile(source)
    }

    /// The pattern as written (`Pattern.pattern()` / `toString()`).
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// `Matcher.groupCount()`.
    pub fn group_count(&self) -> u32 {
        self.group_count
    }
}

#[cfg(test)]
mod test_support {
    use super::{JavaPattern, PrincipalError};

    pub(super) fn ok(p: &str) -> JavaPattern {
        JavaPattern::compile(p).unwrap_or_else(|e| panic!("{p}: {e}"))
    }
    pub(super) fn err(p: &str) -> PrincipalError {
        JavaPattern::compile(p).expect_err(p)
    }
}
