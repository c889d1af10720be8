//! `kafka-quota link SCENARIO [--base URL]`: prints the playground URL
//! that opens the scenario (the permalink: `#v1.` + base64url(raw DEFLATE(JSON))).
//!
//! The base is `--base`, else `$KAFKA_QUOTA_PLAYGROUND_URL`, else the
//! address `make serve` serves (`http://127.0.0.1:8080/`).
//!
//! It never simulates: it checks the scenario as the engine does before a
//! run (`quota_engine::sim::check`) and against the playground's limits
//! (`quota_formats::limits::scenario_limit`, the work estimated before the
//! run), and says on stderr what the page will say when it opens the link.

use std::path::PathBuf;

use clap::Args;
use quota_formats::{scenario, scenario_text};

use super::resolve::read_text;
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// Where the playground is served when nothing else is said.
pub(crate) const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// Arguments of `kafka-quota link`.
#[derive(Debug, Args)]
pub(crate) struct LinkArgs {
    /// The scenario file: envelope or bare scenario JSON, or the text form of docs/scenario-text.md (kafka-configs.sh lines, connection:, producer:); `-` = standard input.
    #[arg(value_name = "SCENARIO")]
    pub(crate) file: PathBuf,
    /// The playground's address.
    #[arg(long, value_name = "URL", env = "KAFKA_QUOTA_PLAYGROUND_URL", default_value = DEFAULT_BASE)]
    pub(crate) base: String,
    /// Share a redacted copy: names, DNs, client ids and IPs replaced
    /// consistently, every resolution kept.
    #[arg(long)]
    pub(crate) redact: bool,
}

/// Runs `link`; returns the exit code.
pub(crate) fn run(args: &LinkArgs) -> u8 {
    let base = args.base.trim();
    if !(base.starts_with("http://") || base.starts_with("https://") || base.starts_with("file://")) {
        errln!(
            "kafka-quota: --base {base:?} (or $KAFKA_QUOTA_PLAYGROUND_URL) is not an address a browser opens: it must start with https://, http:// or file://, e.g. https://quotas.example.com/."
        );
        return EXIT_BAD_INPUT;
    }
    let (name, text) = match read_text(&args.file) {
        Ok(t) => t,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    match scenario_text::read(&text) {
        Ok(file) => {
            for n in &file.notes {
                errln!("note: {name}: {n}");
            }
            let s = if args.redact {
                quota_formats::permalink::redact(&file.scenario)
            } else {
                file.scenario
            };
            // Checked, never simulated, in the page's order: its limits
            // first (past one it opens the default scenario), then the
            // engine's checks before a run (issue 30).
            if let Some(why) = quota_formats::limits::scenario_limit(&s, "This link's scenario") {
                errln!("note: {name}: the playground will open its default scenario instead and say: {why}");
            } else if let Err(e) = quota_engine::sim::check(&s) {
                errln!("note: {name}: the playground will open this scenario and show why it cannot run: {e}");
            }
            outln!("{}", scenario::link(&s, base));
            EXIT_OK
        }
        Err(problems) => {
            for e in problems {
                errln!("{}", e.with_source(name.clone()));
            }
            EXIT_BAD_INPUT
        }
    }
}
