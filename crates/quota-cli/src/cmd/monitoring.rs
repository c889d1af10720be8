//! `kafka-quota monitoring --quotas FILE [--format F] [--alerts]`: the
//! Prometheus JMX exporter rules (YAML, the exporter's own `rules:` format)
//! that map exactly the quota MBeans these quotas make the brokers register
//! (`kafka.server:type=Produce|Fetch|Request` with `user`, `client-id` or
//! both), or with `--alerts` a Prometheus rules file alerting on sustained
//! throttling.
//!
//! The MBean shapes come from the engine's resolution
//! ([`quota_formats::monitoring`]; Kafka's `ClientQuotaManager` metric tags
//! and `JmxReporter.getMBeanName`). `throttle-time` stays `NaN` while no
//! request was throttled; the alerts read `NaN` as no data.

use std::path::PathBuf;

use clap::Args;
use quota_formats::monitoring::{alert_rules, jmx_exporter_yaml};

use super::resolve::{quotas_from_text, read_text, FormatArg};
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// Arguments of `kafka-quota monitoring`.
#[derive(Debug, Args)]
pub(crate) struct MonitoringArgs {
    /// The quotas: any format kafka-quota reads (`-` = standard input).
    #[arg(long, value_name = "FILE")]
    pub(crate) quotas: PathBuf,
    /// The format of --quotas (default: detected from the content).
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatArg>,
    /// Print the Prometheus alerting rules instead of the JMX exporter rules.
    #[arg(long)]
    pub(crate) alerts: bool,
}

/// Runs `monitoring`; returns the exit code.
pub(crate) fn run(args: &MonitoringArgs) -> u8 {
    let store = match read_text(&args.quotas)
        .and_then(|(name, text)| quotas_from_text(&name, &text, args.format))
    {
        Ok(s) => s,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    if quota_formats::monitoring::mbean_shapes(&store).is_empty() {
        errln!(
            "note: {}: no produce, fetch or request quota, so the brokers register no quota MBean and there is nothing to map.",
            args.quotas.display()
        );
    }
    if args.alerts {
        out!("{}", alert_rules(&store));
    } else {
        out!("{}", jmx_exporter_yaml(&store));
    }
    EXIT_OK
}
