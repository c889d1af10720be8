//! From a runbook (a shell script, a pasted terminal session, a docs page)
//! to the `kafka-configs` invocations in it, each with the argument vector
//! the tool would receive and the place of every argument in the text.
//!
//! Words are split by the `shell-words` crate (POSIX shell rules); this
//! module only groups physical lines into commands, strips prompts and
//! wrappers, and keeps positions for error messages.

use crate::error::{Error, Position};

use super::Mode;

/// One logical command line: physical lines joined at `\`-newline (and, in
/// [`Mode::Import`], at pasted lines that start with `-`), with the position
/// of each character in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LogicalLine {
    /// The joined text (a single space stands where a line break was).
    pub text: String,
    /// `positions[i]` is where the `i`-th character of `text` came from; one
    /// extra entry marks the end.
    pub positions: Vec<Position>,
}

impl LogicalLine {
    /// Position of the character at `char_index` (clamped to the end).
    pub(crate) fn position_at(&self, char_index: usize) -> Position {
        let last = self.positions.len().saturating_sub(1);
        self.positions
            .get(char_index.min(last))
            .copied()
            .unwrap_or_default()
    }

    /// The start of the line.
    pub(crate) fn start(&self) -> Position {
        self.position_at(0)
    }
}

/// One word of a command, as the program receives it, and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    /// The word after quote removal.
    pub value: String,
    /// The word as written (quotes included).
    pub raw: String,
    /// Where the word starts in the input.
    pub position: Position,
    /// `raw_positions[i]` is where the `i`-th character of `raw` is in the
    /// input (so a variable inside the word can be placed exactly).
    pub raw_positions: Vec<Position>,
}

/// A `kafka-configs` invocation found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The program word (`bin/kafka-configs.sh`, `kafka-configs`, ...).
    pub program: Word,
    /// The arguments after it, up to a shell operator (`|`, `&&`, `;`, a redirection).
    pub args: Vec<Word>,
    /// What was dropped around the command (wrappers, prompts), for notes.
    pub notes: Vec<String>,
    /// The logical line it came from.
    pub line: LogicalLine,
}

/// True when `word` names the tool: `kafka-configs`, `kafka-configs.sh`,
/// `kafka-configs.bat` (Windows), or any path ending in one of them.
pub(crate) fn is_program(word: &str) -> bool {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    // `bin\windows\kafka-configs.bat` reaches us without its backslashes.
    base == "kafka-configs" || base == "kafka-configs.sh" || base.ends_with("kafka-configs.bat")
}

/// Strips a shell prompt (`$ `, `> `, `% `) and the indentation before it.
fn strip_prompt(line: &str) -> (usize, &str) {
    let trimmed = line.trim_start();
    let mut offset = line.chars().count() - trimmed.chars().count();
    for prompt in ["$ ", "> ", "% "] {
        if let Some(rest) = trimmed.strip_prefix(prompt) {
            let rest_trimmed = rest.trim_start();
            offset +=
                prompt.chars().count() + (rest.chars().count() - rest_trimmed.chars().count());
            return (offset, rest_trimmed);
        }
    }
    (offset, trimmed)
}

/// True when a physical line continues onto the next with a backslash
/// (trailing blanks after the backslash are tolerated: pastes keep them).
fn continued(line: &str) -> Option<&str> {
    let t = line.trim_end_matches([' ', '\t']);
    let body = t.strip_suffix('\\')?;
    // An escaped backslash (`\\`) at the end is not a continuation.
    let backslashes = body.chars().rev().take_while(|&c| c == '\\').count();
    if backslashes % 2 == 1 {
        return None;
    }
    Some(body)
}

/// Groups a text into logical lines. Blank lines and `#` comment lines are
/// dropped; a `\` at the end of a line joins the next one; in
/// [`Mode::Import`] a line starting with `-` continues the previous
/// command (commands pasted across lines without backslashes).
pub(crate) fn logical_lines(text: &str, mode: Mode) -> Vec<LogicalLine> {
    let mut out: Vec<LogicalLine> = Vec::new();
    let mut current: Option<LogicalLine> = None;
    let mut continuing = false;
    for (index, raw_line) in text.split('\n').enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let raw_line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        let trimmed = raw_line.trim();
        if trimmed.is_empty() || (trimmed.starts_with('#') && !continuing) {
            if let Some(done) = current.take() {
                out.push(done);
            }
            continuing = false;
            continue;
        }
        let pasted_continuation =
            mode == Mode::Import && !continuing && current.is_some() && trimmed.starts_with('-');
        let (offset, body) = if continuing || pasted_continuation {
            let t = raw_line.trim_start();
            (raw_line.chars().count() - t.chars().count(), t)
        } else {
            strip_prompt(raw_line)
        };
        let (body, next_continues) = match continued(body) {
            Some(b) => (b, true),
            None => (body, false),
        };
        if !(continuing || pasted_continuation) {
            if let Some(done) = current.take() {
                out.push(done);
            }
        }
        let entry = current.get_or_insert_with(|| LogicalLine {
            text: String::new(),
            positions: Vec::new(),
        });
        if !entry.text.is_empty() {
            entry.text.push(' ');
            let at = Position::new(line_no, u32::try_from(offset + 1).unwrap_or(u32::MAX));
            entry.positions.push(at);
        }
        for (i, c) in body.chars().enumerate() {
            entry.text.push(c);
            entry.positions.push(Position::new(
                line_no,
                u32::try_from(offset + i + 1).unwrap_or(u32::MAX),
            ));
        }
        continuing = next_continues;
    }
    if let Some(done) = current.take() {
        out.push(done);
    }
    for line in &mut out {
        let end = line
            .positions
            .last()
            .map_or(Position::new(1, 1), |p| Position::new(p.line, p.column + 1));
        line.positions.push(end);
    }
    out
}

/// The start (char index) of every word `shell_words::split` finds in
/// `text`, mirroring its state machine; `Err(index)` gives the quote that
/// is never closed.
fn word_starts(text: &str) -> Result<Vec<usize>, usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Delim,
        Backslash,
        Unquoted,
        UnquotedBackslash,
        Single,
        Double,
        DoubleBackslash,
        Comment,
    }
    let mut starts = Vec::new();
    let mut state = S::Delim;
    let mut quote_at = 0;
    for (i, c) in text.chars().enumerate() {
        state = match state {
            S::Delim => match c {
                ' ' | '\t' | '\n' => S::Delim,
                '#' => S::Comment,
                '\'' => {
                    starts.push(i);
                    quote_at = i;
                    S::Single
                }
                '"' => {
                    starts.push(i);
                    quote_at = i;
                    S::Double
                }
                '\\' => {
                    starts.push(i);
                    S::Backslash
                }
                _ => {
                    starts.push(i);
                    S::Unquoted
                }
            },
            S::Backslash => {
                if c == '\n' {
                    starts.pop();
                    S::Delim
                } else {
                    S::Unquoted
                }
            }
            S::Unquoted => match c {
                '\'' => {
                    quote_at = i;
                    S::Single
                }
                '"' => {
                    quote_at = i;
                    S::Double
                }
                '\\' => S::UnquotedBackslash,
                ' ' | '\t' | '\n' => S::Delim,
                _ => S::Unquoted,
            },
            S::UnquotedBackslash => S::Unquoted,
            S::Single => {
                if c == '\'' {
                    S::Unquoted
                } else {
                    S::Single
                }
            }
            S::Double => match c {
                '"' => S::Unquoted,
                '\\' => S::DoubleBackslash,
                _ => S::Double,
            },
            S::DoubleBackslash => S::Double,
            S::Comment => {
                if c == '\n' {
                    S::Delim
                } else {
                    S::Comment
                }
            }
        };
    }
    match state {
        S::Single | S::Double | S::DoubleBackslash => Err(quote_at),
        _ => Ok(starts),
    }
}

/// Splits a logical line into words with positions (quote removal by
/// `shell-words`).
pub(crate) fn split_words(line: &LogicalLine) -> Result<Vec<Word>, Error> {
    let starts = word_starts(&line.text).map_err(|at| {
        Error::syntax(
            line.position_at(at),
            "a closing quote for the quote opened here",
            "the end of the command",
        )
    })?;
    let values = shell_words::split(&line.text).map_err(|_| {
        Error::syntax(
            line.start(),
            "balanced shell quotes",
            "an unterminated quote",
        )
    })?;
    let chars: Vec<char> = line.text.chars().collect();
    let mut words = Vec::with_capacity(values.len());
    for (k, value) in values.into_iter().enumerate() {
        let start = starts.get(k).copied().unwrap_or(0);
        let end = starts.get(k + 1).copied().unwrap_or(chars.len());
        let raw: String = chars[start.min(chars.len())..end.min(chars.len())]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_owned();
        let raw_positions = (start..start + raw.chars().count())
            .map(|i| line.position_at(i))
            .collect();
        words.push(Word {
            value,
            raw,
            position: line.position_at(start),
            raw_positions,
        });
    }
    Ok(words)
}

/// True for words that end the command's arguments in a shell: pipes,
/// command separators and redirections.
fn is_shell_operator(word: &Word) -> bool {
    if word.raw.starts_with(['\'', '"']) {
        return false;
    }
    let v = word.value.as_str();
    matches!(v, "|" | "||" | "&&" | ";" | "&" | ";;")
        || v.starts_with('>')
        || v.starts_with('<')
        || v.starts_with("2>")
        || v.starts_with("1>")
        || v.starts_with("&>")
}

/// Finds the `kafka-configs` invocation in one logical line.
///
/// In [`Mode::Strict`] the program must be the first word. In
/// [`Mode::Import`] anything before it is a wrapper and dropped
/// (`docker exec -it broker`, `kubectl exec pod --`, `sudo`, an alias), and
/// a quoted word that contains the whole command (`bash -c "kafka-configs
/// ..."`, `echo "..."`) is opened and split again.
///
/// # Errors
///
/// [`ErrorKind::Syntax`](crate::ErrorKind::Syntax) when there is no
/// `kafka-configs` program word (strict: as the first word) or a quote is
/// left open.
pub(crate) fn find_invocation(line: &LogicalLine, mode: Mode) -> Result<Invocation, Error> {
    let words = split_words(line)?;
    let first = words.first().ok_or_else(|| {
        Error::syntax(line.start(), "a kafka-configs.sh command", "an empty line")
    })?;
    let index = match mode {
        Mode::Strict => {
            if is_program(&first.value) {
                Some(0)
            } else {
                None
            }
        }
        Mode::Import => words.iter().position(|w| is_program(&w.value)),
    };
    if let Some(i) = index {
        let mut notes = Vec::new();
        if i > 0 {
            let wrapper: Vec<&str> = words[..i].iter().map(|w| w.raw.as_str()).collect();
            notes.push(format!(
                "Dropped the wrapper `{}` before the command.",
                wrapper.join(" ")
            ));
        }
        let mut args = Vec::new();
        for w in &words[i + 1..] {
            if is_shell_operator(w) {
                notes.push(format!(
                    "Ignored everything from the shell operator `{}` on.",
                    w.value
                ));
                break;
            }
            args.push(w.clone());
        }
        return Ok(Invocation {
            program: words[i].clone(),
            args,
            notes,
            line: line.clone(),
        });
    }
    if mode == Mode::Import {
        // A wrapper that passes the command as one quoted word.
        for w in &words {
            // `w.value != line.text`: a word that is the whole line (a form
            // feed is whitespace to Rust but not to the shell) would recurse forever.
            if w.value.contains(char::is_whitespace)
                && w.value.split_whitespace().any(is_program)
                && w.value.trim() != line.text.trim()
            {
                let inner_start = w.position;
                let shift = if w.raw.starts_with(['\'', '"']) { 1 } else { 0 };
                let inner = LogicalLine {
                    text: w.value.clone(),
                    positions: (0..=w.value.chars().count())
                        .map(|k| {
                            let col = inner_start
                                .column
                                .saturating_add(u32::try_from(k + shift).unwrap_or(u32::MAX));
                            Position::new(inner_start.line, col)
                        })
                        .collect(),
                };
                let mut inv = find_invocation(&inner, mode)?;
                let before: Vec<&str> = words
                    .iter()
                    .take_while(|x| x.position != w.position)
                    .map(|x| x.raw.as_str())
                    .collect();
                inv.notes.insert(
                    0,
                    format!(
                        "Opened the quoted command passed to `{}`.",
                        before.join(" ")
                    ),
                );
                inv.line = line.clone();
                return Ok(inv);
            }
        }
    }
    Err(Error::syntax(
        first.position,
        match mode {
            Mode::Strict => "a kafka-configs.sh command (kafka-configs, kafka-configs.sh or a path ending in them) as the first word",
            Mode::Import => "a kafka-configs.sh command (kafka-configs, kafka-configs.sh or a path ending in them)",
        },
        format!("`{}`", truncate(&first.raw, 40)),
    ))
}

/// Shortens text for messages.
pub(crate) fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max_chars).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_backslash_continuations_and_keeps_positions() {
        let text = "# comment\nkafka-configs.sh --alter \\\n    --entity-type users\n\n$ kafka-configs --describe\n";
        let lines = logical_lines(text, Mode::Strict);
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0].text,
            "kafka-configs.sh --alter  --entity-type users"
        );
        assert_eq!(lines[0].start(), Position::new(2, 1));
        let words = split_words(&lines[0]).unwrap();
        assert_eq!(words[2].value, "--entity-type");
        assert_eq!(words[2].position, Position::new(3, 5));
        assert_eq!(lines[1].text, "kafka-configs --describe");
        assert_eq!(lines[1].start(), Position::new(5, 3));
    }

    #[test]
    fn import_joins_pasted_lines_without_backslashes() {
        let text = "kafka-configs \n  --zookeeper zk:2181\n   --alter \nfoo\n";
        assert_eq!(logical_lines(text, Mode::Strict).len(), 4);
        let lines = logical_lines(text, Mode::Import);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text, "kafka-configs  --zookeeper zk:2181 --alter ");
    }

    #[test]
    fn finds_commands_inside_wrappers_in_import_mode() {
        let line = &logical_lines(
            "docker exec -it b bash -c \"kafka-configs --alter --entity-name 'x y'\" | tee log",
            Mode::Import,
        )[0];
        assert!(find_invocation(line, Mode::Strict).is_err());
        let inv = find_invocation(line, Mode::Import).unwrap();
        assert_eq!(inv.program.value, "kafka-configs");
        let args: Vec<&str> = inv.args.iter().map(|w| w.value.as_str()).collect();
        assert_eq!(args, ["--alter", "--entity-name", "x y"]);
        let line = &logical_lines(
            "broker kafka-configs --describe 2>&1 | grep x",
            Mode::Import,
        )[0];
        let inv = find_invocation(line, Mode::Import).unwrap();
        assert_eq!(inv.args.len(), 1);
    }

    #[test]
    fn reports_the_unclosed_quote() {
        let line = &logical_lines("kafka-configs --add-config 'a=1", Mode::Strict)[0];
        let e = find_invocation(line, Mode::Strict).unwrap_err();
        assert_eq!(e.position, Position::new(1, 28));
    }
}
