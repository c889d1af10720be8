//! Checks shared by every target: a parser returns, never panics, and an
//! error points inside the input (1-based line and column, line at most one
//! past the last line) with a message that is a full sentence.

use quota_formats::Error;

/// The text of a fuzz input (invalid UTF-8 is replaced, as a paste would be).
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Asserts that an error's position lies in `text` and its message is a sentence.
pub fn check_error(text: &str, e: &Error) {
    let lines = text.split('\n').count() as u32;
    assert!(e.position.line >= 1, "line 0: {e}");
    assert!(e.position.column >= 1, "column 0: {e}");
    assert!(e.position.line <= lines + 1, "line {} past {} lines: {e}", e.position.line, lines);
    let m = e.to_string();
    assert!(m.starts_with("Line "), "{m}");
    assert!(m.ends_with('.'), "{m}");
}
