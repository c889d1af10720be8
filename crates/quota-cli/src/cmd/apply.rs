//! `kafka-quota apply [--state STATE.json] [--mode strict|import] FILE...`:
//! runs `kafka-configs.sh` command lines (one per line; `#` comments and
//! `\` continuations allowed) against a state file and prints what the
//! tool would print.
//!
//! Every command runs, like a shell script without `set -e`: a failing
//! command prints `FILE` line, column and reason on stderr, changes
//! nothing, and makes the exit code 1; the state file is still saved with
//! the commands that succeeded.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use quota_engine::QuotaStore;
use quota_formats::configs_sh::{run_script, Mode};

use super::{EXIT_BAD_INPUT, EXIT_OK};
use crate::state;

/// How to read the command lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ModeArg {
    /// Exactly kafka-configs.sh 4.x (`--zookeeper` fails, `--bootstrap-server` required).
    Strict,
    /// Real runbooks: `--zookeeper` forms, pasted lines, wrappers, with notes on stderr.
    Import,
}

/// Arguments of `kafka-quota apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    /// The state file to read and update (JSON; created if missing). Without
    /// it, commands run against an empty store that is not saved.
    #[arg(long, value_name = "STATE.json")]
    pub(crate) state: Option<PathBuf>,
    /// How to read the commands.
    #[arg(long, value_enum, default_value_t = ModeArg::Strict)]
    pub(crate) mode: ModeArg,
    /// Files of kafka-configs.sh command lines (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
}

/// Runs `apply`; returns the exit code.
pub(crate) fn run(args: &ApplyArgs) -> u8 {
    let mode = match args.mode {
        ModeArg::Strict => Mode::Strict,
        ModeArg::Import => Mode::Import,
    };
    let mut store = match &args.state {
        Some(path) => match state::load(path) {
            Ok(s) => s,
            Err(e) => {
                errln!("kafka-quota: {e:#}.");
                return EXIT_BAD_INPUT;
            }
        },
        None => QuotaStore::new(),
    };
    let mut failed = false;
    for file in &args.files {
        let name = file.display().to_string();
        let text = if name == "-" {
            let mut buf = String::new();
            match std::io::Read::read_to_string(&mut std::io::stdin(), &mut buf) {
                Ok(_) => buf,
                Err(e) => {
                    errln!("kafka-quota: cannot read standard input: {e}.");
                    failed = true;
                    continue;
                }
            }
        } else {
            match std::fs::read_to_string(file) {
                Ok(t) => t,
                Err(e) => {
                    errln!("kafka-quota: cannot read {name}: {e}.");
                    failed = true;
                    continue;
                }
            }
        };
        for outcome in run_script(&text, mode, &mut store) {
            for note in &outcome.notes {
                errln!("note: {name}:{}: {note}", outcome.position.line);
            }
            match outcome.result {
                Ok(lines) => {
                    for line in lines {
                        outln!("{line}");
                    }
                }
                Err(e) => {
                    failed = true;
                    errln!("{}", e.with_source(name.clone()));
                }
            }
        }
    }
    if let Some(path) = &args.state {
        if let Err(e) = state::save(path, &store) {
            errln!("kafka-quota: {e:#}.");
            return EXIT_BAD_INPUT;
        }
    }
    if failed {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    }
}
