//! Writing to standard output and standard error without panicking.
//!
//! `println!` panics when standard output is a closed pipe
//! (`kafka-quota ... | head`): Rust ignores SIGPIPE, so the write fails
//! with `BrokenPipe` and `println!` turns that into a panic and exit 101.
//! Here every line goes through a locked stdout with `write_fmt`: on
//! `BrokenPipe` the rest of the output is dropped quietly and the command
//! still finishes (so `apply --state` still saves the state file) with its
//! usual exit status (0 when nothing else went wrong), as `cat` or `grep`
//! do when their reader stops early. Any other write error is reported on
//! stderr once and makes the exit status 1. Standard error is written the
//! same way, and its failures are ignored (there is nowhere to report them).

use std::fmt;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout cannot take more output (closed pipe or another error).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set when stdout failed with an error other than a closed pipe.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

fn stdout_error(e: &std::io::Error) {
    STDOUT_CLOSED.store(true, Ordering::Relaxed);
    if e.kind() != ErrorKind::BrokenPipe {
        STDOUT_FAILED.store(true, Ordering::Relaxed);
        write_err(format_args!(
            "kafka-quota: cannot write to standard output: {e}.\n"
        ));
    }
}

/// Writes to stdout; after a closed pipe, does nothing.
pub(crate) fn write_out(args: fmt::Arguments<'_>) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        stdout_error(&e);
    }
}

/// Flushes stdout (its buffer would otherwise be flushed at exit, where an
/// error cannot be seen). Returns `false` when stdout failed with an error
/// other than a closed pipe, at any time.
pub(crate) fn finish() -> bool {
    if !STDOUT_CLOSED.load(Ordering::Relaxed) {
        if let Err(e) = std::io::stdout().lock().flush() {
            stdout_error(&e);
        }
    }
    !STDOUT_FAILED.load(Ordering::Relaxed)
}

/// Writes to stderr, ignoring failures.
pub(crate) fn write_err(args: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `print!` that does not panic on a closed pipe (see the module doc).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!($($arg)*))
    };
}

/// `println!` that does not panic on a closed pipe (see the module doc).
macro_rules! outln {
    () => {
        $crate::out::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that does not panic when stderr is closed.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
