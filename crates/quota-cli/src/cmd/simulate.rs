//! `kafka-quota simulate SCENARIO.json [--json]`: runs the deterministic
//! simulation and prints, per client, the `kafka-producer-perf-test.sh`
//! lines (producers) and the client metrics a Java client reports
//! (`produce-throttle-time-avg/max`, `record-retry-total`, ...).
//! A scenario with events prints them after the clients (time, kind, what
//! happened), and a cluster of several brokers the cluster-wide totals per
//! client and per budget beside each broker's share.
//! `--json` prints the whole Timeline instead.

use std::path::PathBuf;

use clap::Args;
use quota_engine::java_double_to_string;
use quota_engine::sim::{simulate, ClientKind, ClientTrack, MarkerKind, Timeline};
use quota_formats::scenario;

use super::resolve::read_text;
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// Arguments of `kafka-quota simulate`.
#[derive(Debug, Args)]
pub(crate) struct SimulateArgs {
    /// The scenario file (envelope or bare scenario JSON; `-` = standard input).
    #[arg(value_name = "SCENARIO.json")]
    pub(crate) file: PathBuf,
    /// Print the whole Timeline as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

fn print_client(c: &ClientTrack) {
    let kind = match c.kind {
        ClientKind::Producer => "producer",
        ClientKind::Consumer => "consumer",
    };
    outln!(
        "{kind} {} (principal {}, client-id {:?})",
        c.name,
        c.principal,
        c.client_id
    );
    if let Some(perf) = &c.perf {
        for line in perf.lines() {
            outln!("  {line}");
        }
    }
    let m = &c.metrics;
    let prefix = match c.kind {
        ClientKind::Producer => "produce",
        ClientKind::Consumer => "fetch",
    };
    match (c.duration_ms, c.stop) {
        (Some(d), _) => outln!("  finished after {} ms", java_double_to_string(d)),
        (None, Some(stop)) => outln!(
            "  stopped at {} ms (stop_ms) with {} records not done (not counted as errors)",
            java_double_to_string(stop.at_ms),
            stop.records_left
        ),
        (None, None) => outln!("  did not finish before the horizon"),
    }
    outln!(
        "  {prefix}-throttle-time-avg={} ms {prefix}-throttle-time-max={} ms",
        java_double_to_string(m.throttle_time_avg),
        java_double_to_string(m.throttle_time_max)
    );
    outln!(
        "  record-retry-total={} record-error-total={} records={} bytes={} records/s={} requests={}",
        m.record_retry_total,
        m.record_error_total,
        m.records_done,
        m.bytes_done,
        java_double_to_string(m.records_per_s),
        m.requests
    );
    if c.kind == ClientKind::Producer {
        outln!(
            "  buffer-used-max={} bytes send-blocked={} ms",
            m.buffer_used_max,
            java_double_to_string(m.blocked_ms_total)
        );
    }
}

/// The events as they happened: `at <ms> ms  <kind>  <text>`.
fn print_markers(t: &Timeline) {
    if t.markers.is_empty() {
        return;
    }
    outln!();
    outln!("events");
    for m in &t.markers {
        let kind = match m.kind {
            MarkerKind::MoveLeader => "move_leader",
            MarkerKind::SetQuota => "set_quota",
            MarkerKind::ClientStop => "client_stop",
        };
        outln!("  at {} ms  {kind}  {}", java_double_to_string(m.at_ms), m.text);
    }
}

/// `broker 0: 123, broker 1: 456`.
fn by_broker(bytes: &[u64]) -> String {
    bytes
        .iter()
        .enumerate()
        .map(|(b, n)| format!("broker {b}: {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cluster-wide totals of a run on several brokers.
fn print_totals(t: &Timeline) {
    let totals = &t.totals;
    if totals.is_single_broker() {
        return;
    }
    outln!();
    outln!("cluster totals ({} brokers; every quota is enforced by each broker on its own)", totals.brokers);
    for c in &totals.clients {
        let verb = match c.kind {
            ClientKind::Producer => "produced",
            ClientKind::Consumer => "fetched",
        };
        outln!("  client {}: {} bytes {verb} ({})", c.name, c.bytes, by_broker(&c.bytes_by_broker));
    }
    for b in &totals.budgets {
        outln!("  budget {}: {} bytes ({})", b.mbean, b.bytes, by_broker(&b.bytes_by_broker));
    }
}

/// Runs `simulate`; returns the exit code.
pub(crate) fn run(args: &SimulateArgs) -> u8 {
    let (name, text) = match read_text(&args.file) {
        Ok(t) => t,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    let file = match scenario::from_json(&text) {
        Ok(f) => f,
        Err(e) => {
            errln!("{}", e.with_source(name));
            return EXIT_BAD_INPUT;
        }
    };
    for n in &file.notes {
        errln!("note: {name}: {n}");
    }
    let timeline = match simulate(&file.scenario) {
        Ok(t) => t,
        Err(e) => {
            errln!("kafka-quota: {name}: the scenario cannot run: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if args.json {
        match serde_json::to_string(&timeline) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("kafka-quota: cannot write the timeline as JSON: {e}.");
                return EXIT_BAD_INPUT;
            }
        }
        return EXIT_OK;
    }
    outln!(
        "scenario {:?} (seed {}): {} events, ended at {} ms{}",
        timeline.scenario,
        timeline.seed,
        timeline.events,
        java_double_to_string(timeline.end_ms),
        if timeline.hit_horizon {
            " (the horizon: some clients did not finish)"
        } else {
            ""
        }
    );
    for c in &timeline.clients {
        outln!();
        print_client(c);
    }
    print_markers(&timeline);
    print_totals(&timeline);
    EXIT_OK
}
