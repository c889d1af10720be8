//! The command line: one clap subcommand per verb; each verb's arguments
//! live beside its implementation in `cmd/<verb>.rs`.

use clap::{Parser, Subcommand};

/// kafka-quota: Kafka client quotas from the files operators already have.
#[derive(Debug, Parser)]
#[command(name = "kafka-quota", version, about)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// What to set so that a connection gets a limit, verified on the ladder.
    Advise(Box<crate::cmd::advise::AdviseArgs>),
    /// Run kafka-configs.sh command lines against a state file and print
    /// what the tool would print.
    Apply(crate::cmd::apply::ApplyArgs),
    /// Which quota applies to one connection, per quota type: the answer
    /// first, the why with --explain.
    Resolve(Box<crate::cmd::resolve::ResolveArgs>),
    /// Run a scenario and print the perf-test summary and client metrics.
    Simulate(crate::cmd::simulate::SimulateArgs),
    /// Convert quotas between formats (configs-sh, describe, java, strimzi, terraform, json; rpk is read only).
    Convert(crate::cmd::convert::ConvertArgs),
    /// Print the playground URL of a scenario.
    Link(crate::cmd::link::LinkArgs),
    /// Prometheus JMX exporter rules for the quota MBeans these quotas produce (--alerts: alerting rules).
    Monitoring(crate::cmd::monitoring::MonitoringArgs),
    /// A running cluster as a scenario file (quotas, brokers, settings, topic leaders), read-only.
    Snapshot(Box<crate::cmd::snapshot::SnapshotArgs>),
    /// Record values at given times into Kafka's windowed Rate or TokenBucket and read back
    /// what Kafka's classes return: the rate or tokens, QuotaViolationException, the throttle time.
    Sensor(crate::cmd::sensor::SensorArgs),
}
