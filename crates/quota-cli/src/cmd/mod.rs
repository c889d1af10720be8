//! One module per subcommand; `run` dispatches and maps outcomes to exit codes.

use std::process::ExitCode;

use crate::cli::{Cli, Command};

pub(crate) mod advise;
pub(crate) mod apply;
pub(crate) mod convert;
pub(crate) mod identity;
pub(crate) mod link;
pub(crate) mod monitoring;
pub(crate) mod resolve;
pub(crate) mod resolve_json;
pub(crate) mod simulate;
pub(crate) mod progress;
pub(crate) mod simulate_report;
pub(crate) mod sensor;
pub(crate) mod snapshot;

/// Exit code for success.
pub(crate) const EXIT_OK: u8 = 0;
/// Exit code for bad input (a file, a line, a state file); the message is on stderr.
pub(crate) const EXIT_BAD_INPUT: u8 = 1;
/// Exit code for a usage error (clap's own, and the checks clap cannot make).
pub(crate) const EXIT_USAGE: u8 = 2;
/// Exit code of `simulate` when the simulation ran but at least one client
/// lost records (its outcome is `failed`; the failure summary is printed).
/// 2 is clap's usage error.
pub(crate) const EXIT_RECORDS_LOST: u8 = 3;
/// Exit code of `simulate` stopped by Ctrl-C: the run so far was printed,
/// marked as cut short (128 + SIGINT, as a shell reports it).
pub(crate) const EXIT_CUT_SHORT: u8 = 130;
/// Exit code of `resolve` and `convert` when they answered, but some
/// commands of a kafka-configs.sh runbook or resources of a Terraform file
/// failed and were left out (each is named on stderr as `FILE:LINE:
/// reason`); `--strict` refuses such a file with [`EXIT_BAD_INPUT`] instead.
pub(crate) const EXIT_ANSWERED_WITH_SKIPS: u8 = 4;

/// Runs the parsed command line.
pub(crate) fn run(cli: Cli) -> ExitCode {
    let code = match cli.command {
        Command::Advise(args) => advise::run(&args),
        Command::Apply(args) => apply::run(&args),
        Command::Resolve(args) => resolve::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Link(args) => link::run(&args),
        Command::Monitoring(args) => monitoring::run(&args),
        Command::Snapshot(args) => snapshot::run(&args),
        Command::Sensor(args) => sensor::run(&args),
    };
    // A closed pipe (`| head`) is not a failure; another stdout error is.
    if !crate::out::finish() && code == EXIT_OK {
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    ExitCode::from(code)
}
