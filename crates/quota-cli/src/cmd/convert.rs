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
//! What the input says about where its quotas go is kept: commands
//! written from a kafka-configs.sh runbook name its `--bootstrap-server`
//! (else `localhost:9092`), KafkaUsers written from KafkaUsers keep their
//! `strimzi.io/cluster` label and namespace. `--strimzi-api-version`,
//! `--strimzi-cluster` and `--strimzi-namespace` set those of `--to
//! strimzi` (default `kafka.strimzi.io/v1`, the only version Strimzi 1.0
//! and later serve).
//!
//! A kafka-configs.sh runbook is read command by command and a Terraform
//! file resource by resource, as `resolve` reads them: one that fails is
//! left out and named on stderr (`warning: FILE:LINE: ...`), the others are
//! converted, and the exit code is 4; `--strict` refuses such a file (exit
//! code 1, nothing printed).

use std::path::PathBuf;

use clap::Args;
use quota_engine::java_double_to_string;
use quota_formats::detect::{export_with, Format};
use quota_formats::{scenario, strimzi};

use super::resolve::{exit_for_skipped, quotas_skipping_keep, read_text, FormatArg, TargetArg};
use super::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

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
    /// With --to strimzi: the KafkaUser apiVersion, `v1` (the default;
    /// Strimzi 0.49 and later serve it, 1.0 and later serve nothing else)
    /// or `v1beta2` (Strimzi before 0.49), with or without
    /// `kafka.strimzi.io/`.
    #[arg(long, value_name = "VERSION", value_parser = api_version)]
    pub(crate) strimzi_api_version: Option<String>,
    /// With --to strimzi: the `strimzi.io/cluster` label, the name of the
    /// Kafka resource whose User Operator manages the users (default: the
    /// input KafkaUsers' label, else my-cluster).
    #[arg(long, value_name = "NAME", value_parser = strimzi::cluster_label)]
    pub(crate) strimzi_cluster: Option<String>,
    /// With --to strimzi: the KafkaUsers' metadata.namespace, which must be
    /// the one the User Operator watches (default: the input KafkaUsers'
    /// namespace, else none, so kubectl uses its current namespace).
    #[arg(long, value_name = "NAMESPACE", value_parser = strimzi::namespace)]
    pub(crate) strimzi_namespace: Option<String>,
}

/// `--strimzi-api-version`: `v1` or `kafka.strimzi.io/v1`, as the full name.
fn api_version(s: &str) -> Result<String, String> {
    strimzi::api_version(s).map(str::to_owned)
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
    let strimzi_flags = [
        ("--strimzi-api-version", args.strimzi_api_version.is_some()),
        ("--strimzi-cluster", args.strimzi_cluster.is_some()),
        ("--strimzi-namespace", args.strimzi_namespace.is_some()),
    ];
    if let Some((flag, _)) = strimzi_flags.iter().find(|(_, given)| *given) {
        if to != Format::Strimzi {
            errln!(
                "kafka-quota: {flag} sets what a Strimzi KafkaUser names, so it applies to --to strimzi only, not to --to {}.",
                to.name()
            );
            return EXIT_USAGE;
        }
    }
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
    let (store, skipped, mut options) = match quotas_skipping_keep(&name, &text, args.from, args.strict, "the rest is converted without it") {
        Ok(s) => s,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    // The flags win over what the input said.
    if args.strimzi_api_version.is_some() {
        options.strimzi_api_version.clone_from(&args.strimzi_api_version);
    }
    if args.strimzi_cluster.is_some() {
        options.strimzi_cluster.clone_from(&args.strimzi_cluster);
    }
    if args.strimzi_namespace.is_some() {
        options.strimzi_namespace.clone_from(&args.strimzi_namespace);
    }
    match export_with(&store, to, &options) {
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
            for n in &out.notes {
                errln!("note: {n}");
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
