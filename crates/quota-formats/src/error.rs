//! The one error type of this crate: where in the input, what was expected,
//! what was found, as a value whose `Display` is a full sentence. A
//! playground link that cannot be read ([`crate::permalink::decode`]) is
//! one of its kinds too ([`LinkProblem`]).

use std::fmt;

/// A place in an input text: 1-based line and 1-based column (in
/// characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

impl Position {
    /// A position from a 1-based line and column.
    pub const fn new(line: u32, column: u32) -> Self {
        Position { line, column }
    }
}

/// The position of byte offset `at` in `text` (1-based line, 1-based
/// column in characters); offsets past the end give the end.
pub(crate) fn position_of(text: &str, at: usize) -> Position {
    let at = at.min(text.len());
    let mut at = at;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What went wrong; see [`Error`] for where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not have the shape the parser expects.
    Syntax {
        /// What the parser was looking for, e.g. `an option such as --alter`.
        expected: String,
        /// What it found instead (already quoted for the sentence).
        found: String,
    },
    /// Shell variables or template placeholders were left unexpanded where
    /// a value that matters (an entity name, a config) must be; they are
    /// never taken as literal names.
    UnexpandedVariables {
        /// The variables exactly as written: `$user`, `${RATE}`, `$(id)`, `{{ .Values.x }}`.
        names: Vec<String>,
        /// Where they stand, e.g. `the entity name` or `an option position`.
        context: String,
    },
    /// Template placeholders or expressions that only another tool can
    /// evaluate (Helm `{{ .Values.x }}`, AsciiDoc `{attr}`, Terraform
    /// `var.x`) stand where a literal value must be.
    Unresolved {
        /// What kind of placeholder, singular: `Helm template placeholder`.
        kind: &'static str,
        /// The placeholders exactly as written.
        names: Vec<String>,
        /// Where they stand, e.g. `metadata.name`.
        context: String,
        /// What to do, as a clause: `render the chart with helm template first`.
        hint: &'static str,
    },
    /// A valid input that this crate does not import, and why.
    Unsupported {
        /// What is not supported, e.g. `--add-config-file`.
        what: String,
        /// Why, in a clause: `it names a file that is not part of the input`.
        why: String,
    },
    /// Kafka would reject the quota read at this place (a value of 0, a
    /// key the entity cannot have, an invalid ip name).
    Rejected {
        /// Kafka's error code and message, e.g. `INVALID_REQUEST: Quota
        /// producer_byte_rate must be greater than 0`.
        message: String,
        /// Kafka's error itself (also [`Error::api_error`] and
        /// `source()`), when the store gave one.
        kafka: Option<quota_engine::ApiError>,
    },
    /// The text reads, but the scenario it describes is not one the
    /// engine can run (a field of the wrong type, an unknown key, a
    /// workload naming a connection that does not exist): the engine's or
    /// the scenario reader's own sentence.
    Invalid {
        /// A full sentence.
        message: String,
    },
    /// `kafka-configs.sh` itself would fail on this command.
    ///
    /// `stderr` is the tool's message exactly as it prints it (first line
    /// only where the tool adds its usage text or a stack trace).
    Tool {
        /// The tool's own message, verbatim.
        stderr: String,
        /// What the tool expected instead, in our words.
        expected: String,
    },
    /// A playground link ([`crate::permalink::decode`]) that holds no
    /// readable scenario. Its message is the problem's sentence alone: a
    /// link is one line, so it names no line and column.
    Permalink {
        /// What is wrong with the link.
        problem: LinkProblem,
    },
}

/// Why a playground link could not be read ([`ErrorKind::Permalink`]).
/// `Display` gives a full sentence a page can show as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkProblem {
    /// Nothing after `#`.
    Empty,
    /// The text does not start with `v<digits>.`.
    NoVersion,
    /// A version other than 1.
    UnknownVersion {
        /// The version as written, e.g. `v2`.
        found: String,
    },
    /// Longer than [`crate::permalink::MAX_LINK_CHARS`].
    TooLong {
        /// The link's length in characters.
        chars: usize,
        /// The longest link accepted, in characters.
        max_chars: usize,
    },
    /// The payload is not base64url.
    Base64 {
        /// Where, in words: `at character 7 after 'v1.'` (counted from 1
        /// after the version prefix), or what else is wrong.
        detail: String,
    },
    /// The payload is not raw DEFLATE data (or is cut short).
    Inflate {
        /// What the inflater reported.
        detail: String,
    },
    /// The payload inflates past [`crate::permalink::MAX_JSON_BYTES`].
    TooLarge {
        /// The most bytes of JSON accepted.
        max_bytes: usize,
    },
    /// The inflated text is not a scenario.
    Scenario {
        /// The JSON reader's explanation (line and column).
        detail: String,
    },
}

impl LinkProblem {
    /// True when the link was damaged on its way (cut short or altered):
    /// its payload is not base64url or not DEFLATE data, or what it holds
    /// is not a scenario.
    pub fn is_damaged(&self) -> bool {
        matches!(
            self,
            LinkProblem::Base64 { .. } | LinkProblem::Inflate { .. } | LinkProblem::Scenario { .. }
        )
    }

    /// True when the link is refused for its size: too long a text, or a
    /// scenario that inflates past the limit.
    pub fn is_too_big(&self) -> bool {
        matches!(
            self,
            LinkProblem::TooLong { .. } | LinkProblem::TooLarge { .. }
        )
    }
}

impl fmt::Display for LinkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkProblem::Empty => f.write_str("The link holds no scenario: the text after '#' is empty."),
            LinkProblem::NoVersion => f.write_str(
                "The link does not start with a format version such as 'v1.', so it was not made by this playground.",
            ),
            LinkProblem::UnknownVersion { found } => write!(
                f,
                "The link uses format {found}, which this playground cannot read (it reads v1 only); it may come from a newer version."
            ),
            LinkProblem::TooLong { chars, max_chars } => write!(
                f,
                "The link is {chars} characters long; links longer than {max_chars} characters are refused."
            ),
            LinkProblem::Base64 { detail } => {
                write!(f, "The link's scenario is damaged: its text is not valid base64url ({detail}).")
            }
            LinkProblem::Inflate { detail } => {
                write!(f, "The link is damaged: its data does not decompress ({detail}); it may have been cut short.")
            }
            LinkProblem::TooLarge { max_bytes } => write!(
                f,
                "The link's scenario decompresses to more than {max_bytes} bytes, which is refused."
            ),
            LinkProblem::Scenario { detail } => {
                write!(f, "The link decompresses, but what it holds is not a valid scenario: {detail}.")
            }
        }
    }
}

/// An error from any parser or importer of this crate.
///
/// It says where (line and column, optionally the file), what was expected
/// and what was found; its `Display` is one full sentence, e.g.
/// `Line 3, column 22: kafka-configs.sh fails with "zookeeper is not a
/// recognized option"; expected --bootstrap-server, since Kafka 4.0 removed
/// --zookeeper.`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Where the problem starts.
    pub position: Position,
    /// What the problem is.
    pub kind: ErrorKind,
    /// The name of the input (a file name), when known.
    pub source_name: Option<String>,
}

impl Error {
    /// Builds an error at `position`.
    pub fn new(position: Position, kind: ErrorKind) -> Self {
        Error {
            position,
            kind,
            source_name: None,
        }
    }

    /// A [`ErrorKind::Syntax`] error.
    pub fn syntax(
        position: Position,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Error::new(
            position,
            ErrorKind::Syntax {
                expected: expected.into(),
                found: found.into(),
            },
        )
    }

    /// An [`ErrorKind::Unsupported`] error.
    pub fn unsupported(
        position: Position,
        what: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        Error::new(
            position,
            ErrorKind::Unsupported {
                what: what.into(),
                why: why.into(),
            },
        )
    }

    /// An [`ErrorKind::Tool`] error carrying the tool's exact message.
    pub fn tool(
        position: Position,
        stderr: impl Into<String>,
        expected: impl Into<String>,
    ) -> Self {
        Error::new(
            position,
            ErrorKind::Tool {
                stderr: stderr.into(),
                expected: expected.into(),
            },
        )
    }

    /// An [`ErrorKind::Permalink`] error (at line 1, column 1; its message
    /// names no position).
    pub fn permalink(problem: LinkProblem) -> Self {
        Error::new(Position::new(1, 1), ErrorKind::Permalink { problem })
    }

    /// Names the input (e.g. a file name) in the message.
    pub fn with_source(mut self, name: impl Into<String>) -> Self {
        self.source_name = Some(name.into());
        self
    }

    /// Moves the error by a number of lines (for a command found inside a
    /// larger file): `line` becomes `line + lines`.
    pub fn shifted(mut self, lines: u32) -> Self {
        self.position.line = self.position.line.saturating_add(lines);
        self
    }

    /// The message `kafka-configs.sh` itself would print, when this error
    /// is one the tool has too.
    pub fn tool_stderr(&self) -> Option<&str> {
        match &self.kind {
            ErrorKind::Tool { stderr, .. } => Some(stderr),
            _ => None,
        }
    }

    /// What is wrong with a playground link, when this error is about one
    /// ([`crate::permalink::decode`]).
    pub fn link_problem(&self) -> Option<&LinkProblem> {
        match &self.kind {
            ErrorKind::Permalink { problem } => Some(problem),
            _ => None,
        }
    }

    /// True when this error is about a playground link rather than a
    /// place in an input text.
    pub fn is_permalink(&self) -> bool {
        self.link_problem().is_some()
    }

    /// A quota Kafka would refuse at this place, with Kafka's error:
    /// `message` is its text, `kafka` the error ([`Error::api_error`]).
    pub fn rejected(position: Position, kafka: quota_engine::ApiError) -> Self {
        Error::new(
            position,
            ErrorKind::Rejected {
                message: kafka.to_string(),
                kafka: Some(kafka),
            },
        )
    }

    /// True when Kafka would reject the quota read here ([`ErrorKind::Rejected`]).
    pub fn is_rejected(&self) -> bool {
        matches!(self.kind, ErrorKind::Rejected { .. })
    }

    /// Kafka's error for a rejected quota (its `ErrorCode` is Kafka's `Errors`).
    pub fn api_error(&self) -> Option<&quota_engine::ApiError> {
        match &self.kind {
            ErrorKind::Rejected { kafka, .. } => kafka.as_ref(),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A link is one line: its sentence names no position.
        if let ErrorKind::Permalink { problem } = &self.kind {
            return problem.fmt(f);
        }
        write!(
            f,
            "Line {}, column {}",
            self.position.line, self.position.column
        )?;
        if let Some(name) = &self.source_name {
            write!(f, " of {name}")?;
        }
        f.write_str(": ")?;
        match &self.kind {
            ErrorKind::Syntax { expected, found } => {
                write!(f, "expected {expected}, but found {found}.")
            }
            ErrorKind::UnexpandedVariables { names, context } => {
                let list = names.join(", ");
                let noun = if names.len() == 1 {
                    "variable"
                } else {
                    "variables"
                };
                write!(
                    f,
                    "the unexpanded shell {noun} {list} stand{} in {context}; expected a literal value, so expand {} before importing.",
                    if names.len() == 1 { "s" } else { "" },
                    if names.len() == 1 { "it" } else { "them" }
                )
            }
            ErrorKind::Unresolved {
                kind,
                names,
                context,
                hint,
            } => {
                let plural = names.len() != 1;
                write!(
                    f,
                    "the {kind}{} {} stand{} in {context}; expected a literal value, so {hint}.",
                    if plural { "s" } else { "" },
                    names.join(", "),
                    if plural { "" } else { "s" }
                )
            }
            ErrorKind::Unsupported { what, why } => {
                write!(f, "{what} is not supported because {why}.")
            }
            ErrorKind::Invalid { message } => f.write_str(message),
            ErrorKind::Rejected { message, .. } => {
                write!(f, "Kafka would reject this quota ({message}); expected a value and entity Kafka accepts.")
            }
            ErrorKind::Tool { stderr, expected } => {
                let mut lines = stderr.lines();
                let first = lines.next().unwrap_or("");
                write!(f, "kafka-configs.sh fails with \"{first}\"")?;
                if let Some(second) = lines.next() {
                    write!(f, " followed by \"{second}\"")?;
                }
                write!(f, "; expected {expected}.")
            }
            // Written above, without the position.
            ErrorKind::Permalink { problem } => problem.fmt(f),
        }
    }
}

/// `source()`: Kafka's [`quota_engine::ApiError`] for a refused quota, for
/// callers that downcast to it (its text is already part of `Display`, so
/// a reporter that prints the chain shows it twice). A link's
/// [`LinkProblem`] is not a source: `Display` is that problem's sentence
/// alone; read it with [`Error::link_problem`].
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Rejected { kafka: Some(e), .. } => Some(e),
            _ => None,
        }
    }
}

impl std::error::Error for LinkProblem {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let text = "ab\ncé d";
        assert_eq!(position_of(text, 0), Position::new(1, 1));
        assert_eq!(position_of(text, 3), Position::new(2, 1));
        assert_eq!(position_of(text, 6), Position::new(2, 3));
        assert_eq!(position_of(text, 99), Position::new(2, 5));
    }

    #[test]
    fn a_link_error_is_its_problem_sentence_alone() {
        let cases = [
            (LinkProblem::Empty, "The link holds no scenario: the text after '#' is empty."),
            (LinkProblem::NoVersion, "The link does not start with a format version such as 'v1.', so it was not made by this playground."),
            (
                LinkProblem::UnknownVersion { found: "v2".into() },
                "The link uses format v2, which this playground cannot read (it reads v1 only); it may come from a newer version.",
            ),
            (
                LinkProblem::TooLong { chars: 200_001, max_chars: 200_000 },
                "The link is 200001 characters long; links longer than 200000 characters are refused.",
            ),
            (
                LinkProblem::Base64 { detail: "at character 7 after 'v1.'".into() },
                "The link's scenario is damaged: its text is not valid base64url (at character 7 after 'v1.').",
            ),
            (
                LinkProblem::Inflate { detail: "the data ends too early".into() },
                "The link is damaged: its data does not decompress (the data ends too early); it may have been cut short.",
            ),
            (
                LinkProblem::TooLarge { max_bytes: 1 << 20 },
                "The link's scenario decompresses to more than 1048576 bytes, which is refused.",
            ),
            (
                LinkProblem::Scenario { detail: "missing field `x` at line 1 column 2".into() },
                "The link decompresses, but what it holds is not a valid scenario: missing field `x` at line 1 column 2.",
            ),
        ];
        for (problem, text) in cases {
            let e = Error::permalink(problem.clone()).with_source("the URL");
            assert_eq!(e.to_string(), text);
            assert!(e.is_permalink());
            assert_eq!(e.link_problem(), Some(&problem));
            assert_eq!(e.tool_stderr(), None);
        }
        assert!(LinkProblem::Inflate {
            detail: String::new()
        }
        .is_damaged());
        assert!(!LinkProblem::NoVersion.is_damaged());
        assert!(LinkProblem::TooLarge { max_bytes: 1 }.is_too_big());
        assert!(!Error::syntax(Position::new(1, 1), "a", "b").is_permalink());
    }

    #[test]
    fn display_is_one_sentence_with_position_and_source() {
        let e =
            Error::syntax(Position::new(3, 7), "`=` after the key", "`,`").with_source("run.sh");
        assert_eq!(
            e.to_string(),
            "Line 3, column 7 of run.sh: expected `=` after the key, but found `,`."
        );
        let e = Error::new(
            Position::new(1, 1),
            ErrorKind::UnexpandedVariables {
                names: vec!["$user".into()],
                context: "the entity name".into(),
            },
        );
        assert_eq!(
            e.to_string(),
            "Line 1, column 1: the unexpanded shell variable $user stands in the entity name; expected a literal value, so expand it before importing."
        );
        assert_eq!(e.tool_stderr(), None);
        let e = Error::tool(
            Position::new(2, 5),
            "zookeeper is not a recognized option",
            "--bootstrap-server",
        )
        .shifted(10);
        assert_eq!(e.position.line, 12);
        assert_eq!(
            e.to_string(),
            "Line 12, column 5: kafka-configs.sh fails with \"zookeeper is not a recognized option\"; expected --bootstrap-server."
        );
        assert_eq!(
            e.tool_stderr(),
            Some("zookeeper is not a recognized option")
        );
    }

    #[test]
    fn a_rejected_quota_keeps_kafkas_error_as_its_source() {
        use std::error::Error as _;
        let mut store = quota_engine::QuotaStore::new();
        let entity = quota_engine::QuotaEntity::ClientId(quota_engine::EntityName::Named("app".into()));
        let kafka = store
            .set(&entity, quota_engine::QuotaKey::ProducerByteRate, 0.0)
            .unwrap_err();
        let e = Error::rejected(Position::new(3, 7), kafka.clone());
        assert!(e.is_rejected() && !e.is_permalink());
        assert_eq!(e.api_error(), Some(&kafka));
        let source = e.source().expect("Kafka's error is the source");
        assert_eq!(source.to_string(), kafka.to_string());
        assert!(e.to_string().contains(&kafka.to_string()), "{e}");
        let link = Error::new(Position::new(1, 1), ErrorKind::Permalink { problem: LinkProblem::Empty });
        assert!(link.source().is_none(), "the link's sentence is the whole message");
        assert_eq!(link.link_problem(), Some(&LinkProblem::Empty));
        assert!(link.api_error().is_none());
    }
}
