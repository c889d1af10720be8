//! `kafka-quota`: which Kafka client quota applies, from the files operators already have.
#![warn(missing_docs, unreachable_pub)]

#[macro_use]
mod out;

mod cli;
mod cmd;
mod live;
mod state;

fn main() -> std::process::ExitCode {
    cmd::run(<cli::Cli as clap::Parser>::parse())
}
