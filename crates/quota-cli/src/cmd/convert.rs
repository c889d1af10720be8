//! `kafka-quota convert --to FORMAT [--from FORMAT] FILE`: reads quotas in
//! any supported format and writes them in another, on standard output.
//!
//! What the target format cannot express (client-id quotas in a Strimzi
//! KafkaUser, (user, client-id) quotas in a Terraform kafka_quota, ...) is
//! listed on stderr as `warning:` lines and as comments in the output, never
//! dropped silently. A scenario file converted `--to json` keeps its whole
//! scenario; from any other format `--to json` gives a scenario holding
//! only the quotas. FILE may also be the state file `apply --state` writes.
//!
//! A kafka-configs.sh runbook is read command by command and a Terraform
//! file resource by resource, as `resolve` reads them: one that fails is
//! left out and named on stderr (`warning: FILE:LINE: ...`), the others are
//! converted, and the exit code is 4; `--strict` refuses such a file (exit
//! code 1, nothing printed).

use std::path::PathBuf;

use clap::Args;
use quota_engine::java_double_to_string;
use quota_formats::detect::{export, Format};
use quota_formats::scenario;

use super::resolve::{exit_for_skipped, quotas_skipping, read_text, FormatArg, TargetArg};
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// Arguments of `kafka-quota convert`.
#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The format to write (rpk is read only, so it is not a target).
    #[arg(long, value_enum)]
    pub(crate) to: TargetArg,
    /// The format of FILE (default: detected from the content).
    #[arg(long, value_enum)]
    pub(crate) from: Option<FormatArg>,
    /// The quotas to convert (`-` = standard input).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Refuse a kafka-configs.sh runbook with a failing command, or a
    /// Terraform file with a failing resource (exit code 1), instead of
    /// converting the others (exit code 4).
    #[arg(long)]
    pub(crate) strict: bool,
}

/// Runs `convert`; returns the exit code.
pub(crate) fn run(args: &ConvertArgs) -> u8 {
    let (name, text) = match read_text(&args.file) {
        Ok(t) => t,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    let to = args.to.format_arg().format();
    let from_state =
        matches!(args.from, None | Some(FormatArg::Json)) && crate::state::is_state_file(&text);
    if !from_state && to == Format::ScenarioJson {
        // A scenario file converted to json keeps its whole scenario.
        let from = match args.from {
            Some(f) => Some(f.format()),
            None => quota_formats::detect::detect(&text).ok().map(|d| d.format),
        };
        if from == Some(Format::ScenarioJson) {
            return match scenario::from_json(&text) {
                Ok(file) => {
                    for n in &file.notes {
                        errln!("note: {name}: {n}");
                    }
                    out!("{}", scenario::to_json(&file.scenario));
                    EXIT_OK
                }
                Err(e) => {
                    errln!("{}", e.with_source(name));
                    EXIT_BAD_INPUT
                }
            };
        }
    }
    let (store, skipped) = match quotas_skipping(&name, &text, args.from, args.strict, "the rest is converted without it") {
        Ok(s) => s,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    match export(&store, to) {
        Ok(out) => {
            for u in &out.unexpressed {
                let values: Vec<String> = u
                    .values
                    .iter()
                    .map(|(k, v)| format!("{}={}", k.as_str(), java_double_to_string(*v)))
                    .collect();
                errln!(
                    "warning: {} cannot express {} ({}): {}; it is left out.",
                    to.title(),
                    u.entity.path(),
                    values.join(", "),
                    u.reason
                );
            }
            // Nothing to print when every value of every entity is left out
            // (one value left out of an entity with others is not that).
            let values: usize = store.entries().map(|(_, v)| v.len()).sum();
            let left_out: usize = out.unexpressed.iter().map(|u| u.values.len()).sum();
            let written = store.entries().filter(|(_, v)| !v.is_empty()).count();
            if values > 0 && left_out >= values {
                errln!(
                    "kafka-quota: {name}: none of its {written} quota entities can be written as {}: every one is left out (see the warnings above); nothing is printed.",
                    to.title()
                );
                return EXIT_BAD_INPUT;
            }
            out!("{}", out.text);
            // Said once the output is written (an export that fails says only why).
            exit_for_skipped(&skipped, "the output holds the other {items}' quotas")
        }
        Err(e) => {
            match &e.kind {
                quota_formats::ErrorKind::Unsupported { what, why } => {
                    errln!("kafka-quota: {what} is not supported because {why}.")
                }
                _ => errln!("kafka-quota: {e}"),
            }
            EXIT_BAD_INPUT
        }
    }
}
