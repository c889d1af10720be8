//! `kafka-quota simulate SCENARIO [--json]`: runs the deterministic
//! simulation and prints, per client, the `kafka-producer-perf-test.sh`
//! lines (producers) and the client metrics a Java client reports
//! (`produce-throttle-time-avg/max`, `record-retry-total`, ...; a consumer
//! `fetch-throttle-time-avg/max`, `records-consumed-total`, ...; a textbook
//! run its bytes and requests).
//! A scenario with events prints them after the clients (time, kind, what
//! happened), and a cluster of several brokers the cluster-wide totals per
//! client and per budget beside each broker's share. Then the per-request
//! trace of a textbook run, and a failure summary for every client that lost
//! records (Kafka's exception, how many, the first when, the setting that
//! ran out); such a run exits with [`EXIT_RECORDS_LOST`]. `--json` prints
//! the same as one JSON document ([`super::simulate_report::json`]), with
//! the per-request trace of a modelled run too
//! ([`quota_engine::sim::simulate_traced`]).

use std::path::PathBuf;

use clap::Args;
use quota_engine::cluster::Cluster;
use quota_engine::java_double_to_string;
use quota_engine::sim::{
    estimate, simulate_traced_with_progress, simulate_with_progress, textbook, AdminTrack,
    ClientKind, ClientTrack, ConnectsTrack, MarkerKind, Outcome, Timeline, TopicOutcome, TRACE_CAP,
};
use quota_formats::scenario_text;

use super::resolve::read_text;
use super::simulate_report::{failed_admins, failed_clients, failure_summary, json, Ran};
use super::progress::Watch;
use super::{EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_OK, EXIT_RECORDS_LOST};

/// `simulate --help`: what the output holds and the exit codes.
const AFTER_HELP: &str = "\
Output: per client the kafka-producer-perf-test.sh lines (producers), how its run ended and \
the client metrics; for a textbook scenario (\"network\": \"textbook\") the per-request \
trace table; then, for every client that lost records, a failure summary naming Kafka's \
exception, how many records, when the first failed and the setting that ran out, e.g.
  app: 8176 of 30000 records failed: org.apache.kafka.common.errors.TimeoutException: \
Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation \
(first at 1.199 s; delivery.timeout.ms=1000)

--json prints one document: {scenario, seed, outcome {status, exit_code, failed_records, \
failed_clients}, clients (with outcome), budgets, requests (one row per request: the textbook \
trace, or the modelled network's rows with fractional ms and per-request waits, at most \
1000000, requests_capped saying when there were more), timeline}.

A run estimated past about three seconds shows a progress bar on stderr (not with --quiet \
or when stderr is not a terminal); Ctrl-C stops any run and prints the run so far, marked \
\"cut short\" (a second Ctrl-C quits at once).

Exit codes: 0 the run completed (or the horizon stopped it with no record lost); \
1 bad input (the scenario cannot be read or cannot run); 2 usage; \
3 the simulation ran but at least one client lost records, or an Admin call's topics failed \
(ThrottlingQuotaExceededException, TimeoutException); \
130 Ctrl-C cut the run short (what ran is printed).";

/// Arguments of `kafka-quota simulate`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct SimulateArgs {
    /// The scenario file: envelope or bare scenario JSON, or the text form of docs/scenario-text.md (kafka-configs.sh lines, connection:, producer:); `-` = standard input.
    #[arg(value_name = "SCENARIO")]
    pub(crate) file: PathBuf,
    /// Print the run as one JSON document: its outcome, per-client and
    /// per-budget summaries, the per-request trace (textbook or modelled
    /// network), and the whole Timeline.
    #[arg(long)]
    pub(crate) json: bool,
    /// No progress bar on stderr, however long the run.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// Run the scenario N times, with its seed, seed+1, ... seed+N-1, and
    /// print the spread instead of one run: per client, in how many runs it
    /// was throttled, and its durations (1 to 1000; the seed draws the
    /// broker thread-time jitter and the reconnect backoff's).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(quota_engine::sim::SEEDS_MAX)))]
    pub(crate) seeds: Option<u32>,
}

/// One client's summary. The metric names are the Java client's: the
/// producer's `SenderMetricsRegistry` (`produce-throttle-time-avg`,
/// `record-retry-total`, `record-error-total`), the consumer's
/// `FetchMetricsRegistry` (`fetch-throttle-time-avg`,
/// `records-consumed-total`, `bytes-consumed-total`, `fetch-total`). A
/// textbook run (`"network": "textbook"`) has requests of bytes only: no
/// records, retries, errors or buffer, so only those are printed.
fn print_client(c: &ClientTrack, cut_short: bool, textbook: bool) {
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
    match (&c.outcome, c.duration_ms, c.stop) {
        (Outcome::Failed { failed_records, records, .. }, Some(d), _) => outln!(
            "  FAILED: ended after {} ms with {failed_records} of {records} records lost",
            java_double_to_string(d)
        ),
        (Outcome::Failed { failed_records, records, .. }, None, Some(stop)) => outln!(
            "  FAILED: stopped at {} ms (stop_ms, close(Duration.ZERO)) with {failed_records} of {records} records lost and {} not sent",
            java_double_to_string(stop.at_ms),
            stop.records_left
        ),
        (Outcome::Failed { failed_records, records, .. }, None, None) => outln!(
            "  FAILED: {failed_records} of {records} records lost; did not finish"
        ),
        (_, Some(d), _) => outln!("  finished after {} ms", java_double_to_string(d)),
        (_, None, Some(stop)) => outln!(
            "  stopped at {} ms (stop_ms) with {} records not done (not counted as errors)",
            java_double_to_string(stop.at_ms),
            stop.records_left
        ),
        (_, None, None) if cut_short => outln!("  had not finished when Ctrl-C cut the run short"),
        (_, None, None) => outln!("  did not finish before the horizon"),
    }
    outln!(
        "  {prefix}-throttle-time-avg={} ms {prefix}-throttle-time-max={} ms{}",
        java_double_to_string(m.throttle_time_avg),
        java_double_to_string(m.throttle_time_max),
        if m.throttle_time_avg.is_nan() {
            // Kafka's Avg and Max of no samples (SampledStat.measure).
            if c.throttles.points.is_empty() {
                " (NaN: no response carried a throttle time)"
            } else {
                " (NaN: no response in the last metrics.sample.window.ms x metrics.num.samples, Kafka's Avg and Max of no samples)"
            }
        } else {
            ""
        }
    );
    let rate = |v: f64| quota_engine::resolve::human::trim_number(v, 1);
    match (textbook, c.kind) {
        (true, _) => outln!(
            "  bytes={} requests={} bytes/s over the run={} (a textbook run moves bytes in requests: no records, retries or errors)",
            m.bytes_done,
            m.requests,
            rate(m.records_per_s)
        ),
        (false, ClientKind::Producer) => outln!(
            "  record-retry-total={} record-error-total={} records={} bytes={} records/s={} requests={}",
            m.record_retry_total,
            m.record_error_total,
            m.records_done,
            m.bytes_done,
            java_double_to_string(m.records_per_s),
            m.requests
        ),
        (false, ClientKind::Consumer) => outln!(
            "  records-consumed-total={} bytes-consumed-total={} fetch-total={} records/s over the run={}",
            m.records_done,
            m.bytes_done,
            m.requests,
            rate(m.records_per_s)
        ),
    }
    if c.kind == ClientKind::Producer && !textbook {
        outln!(
            "  buffer-used-max={} bytes send-blocked={} ms",
            m.buffer_used_max,
            java_double_to_string(m.blocked_ms_total)
        );
    }
    if let Some(w) = &c.waits {
        outln!(
            "  request waits over {} requests (summed, ms): at-client={:.1} in-buffers={:.1} broker-queue={:.1} muted={:.1} backoff={:.1}; unread-max={} bytes",
            w.requests,
            w.at_client_ms,
            w.in_buffers_ms,
            w.broker_queue_ms,
            w.muted_ms,
            w.backoff_ms,
            w.unread_bytes_max
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

/// `broker 0: 123, broker 1: 456` (brokers with nothing left out).
fn by_broker(bytes: &[u64]) -> String {
    let parts: Vec<String> = bytes
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(b, n)| format!("broker {b}: {n}"))
        .collect();
    if parts.is_empty() {
        "no broker".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The cluster-wide totals of a run on several brokers.
fn print_totals(t: &Timeline) {
    let totals = &t.totals;
    if totals.is_single_broker() {
        return;
    }
    outln!();
    outln!(
        "cluster totals ({} brokers; every quota is enforced by each broker on its own; bytes as the brokers record them: records with their batch headers)",
        totals.brokers
    );
    for c in &totals.clients {
        let verb = match c.kind {
            ClientKind::Producer => "produced",
            ClientKind::Consumer => "fetched",
        };
        outln!("  client {}: {} bytes {verb} ({})", c.name, c.bytes, by_broker(&c.bytes_by_broker));
    }
    for b in &totals.budgets {
        outln!(
            "  budget {}: {} bytes while it applied ({})",
            b.mbean,
            b.bytes,
            by_broker(&b.bytes_by_broker)
        );
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
    let file = match scenario_text::read(&text) {
        Ok(f) => f,
        Err(problems) => {
            for e in problems {
                errln!("{}", e.with_source(name.clone()));
            }
            return EXIT_BAD_INPUT;
        }
    };
    for n in &file.notes {
        errln!("note: {name}: {n}");
    }
    if file.scenario.workloads.is_empty() {
        errln!(
            "kafka-quota: {name}: the scenario has no workloads, so there is nothing to simulate: add a producer, a consumer or an admin client under \"workloads\" (docs/scenario-format.md), or a producer: or consumer: line to a text scenario (docs/scenario-text.md); `kafka-quota resolve` answers which quota applies without simulating."
        );
        return EXIT_BAD_INPUT;
    }
    if let Some(n) = args.seeds {
        return run_seeds(&name, &file.scenario, n, args.json);
    }
    let cluster = Cluster::new(&file.scenario);
    for (entity, key, value) in cluster.unmatched_quotas(&file.scenario) {
        errln!(
            "note: {name}: the quota {} {}={} applies to no connection of this scenario (a client-id, user or address that differs?).",
            entity.path(),
            key.as_str(),
            java_double_to_string(value)
        );
    }
    // The first problem, as a run would have met it (the text reader has
    // already listed what it places on a line).
    let valid = match file.scenario.validate() {
        Ok(v) => v,
        Err(problems) => {
            errln!("kafka-quota: {name}: the scenario cannot run: {}", quota_engine::Error::from(problems));
            return EXIT_BAD_INPUT;
        }
    };
    let ran = if textbook::is_textbook(&file.scenario) {
        // At most 10^6 requests a workload, no progress reports: Ctrl-C as usual.
        textbook::run(valid).map(Ran::Textbook)
    } else {
        let mut watch = Watch::new(&estimate(&file.scenario), args.quiet);
        let ran = if args.json {
            // Only the JSON document lists the modelled network's requests.
            simulate_traced_with_progress(valid, &mut |p| watch.report(p)).map(Ran::Traced)
        } else {
            simulate_with_progress(valid, &mut |p| watch.report(p)).map(Ran::Modelled)
        };
        watch.finish();
        ran
    };
    let ran = match ran {
        Ok(r) => r,
        Err(e) => {
            errln!("kafka-quota: {name}: the scenario cannot run: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let timeline = ran.timeline();
    let lost = failed_clients(timeline).count();
    let admins_failed = failed_admins(timeline).count();
    let code = if timeline.cut_short {
        EXIT_CUT_SHORT
    } else if lost > 0 || admins_failed > 0 {
        EXIT_RECORDS_LOST
    } else {
        EXIT_OK
    };
    if timeline.cut_short {
        errln!(
            "kafka-quota: {name}: cut short by Ctrl-C at {} ms of simulated time: what follows is the run so far (exit code {EXIT_CUT_SHORT}).",
            java_double_to_string(timeline.end_ms)
        );
    } else if lost > 0 {
        errln!(
            "kafka-quota: {name}: {lost} client(s) lost records (exit code {EXIT_RECORDS_LOST})."
        );
    } else if admins_failed > 0 {
        errln!(
            "kafka-quota: {name}: {admins_failed} Admin client(s) had topics fail (exit code {EXIT_RECORDS_LOST})."
        );
    }
    if args.json {
        if let Ran::Traced(r) = &ran {
            if r.capped {
                errln!(
                    "note: {name}: the run sent more than {TRACE_CAP} requests; the JSON's \"requests\" lists the first {TRACE_CAP} (\"requests_capped\": true)."
                );
            }
        }
        match json(&ran, code) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("kafka-quota: cannot write the run as JSON: {e}.");
                return EXIT_BAD_INPUT;
            }
        }
        return code;
    }
    outln!(
        "scenario {:?} (seed {}): {} events, ended at {} ms{}",
        timeline.scenario,
        timeline.seed,
        timeline.events,
        java_double_to_string(timeline.end_ms),
        if timeline.cut_short {
            " (CUT SHORT by Ctrl-C: the run so far; clients still running had not finished)"
        } else if timeline.hit_horizon {
            " (the horizon: some clients did not finish)"
        } else {
            ""
        }
    );
    for c in &timeline.clients {
        outln!();
        print_client(c, timeline.cut_short, ran.textbook().is_some());
    }
    for a in &timeline.admin {
        outln!();
        print_admin(a);
    }
    for c in &timeline.connects {
        outln!();
        print_connects(c);
    }
    print_markers(timeline);
    print_totals(timeline);
    if let Some(run) = ran.textbook() {
        outln!();
        outln!("requests (textbook trace, times in ms):");
        for line in run.trace_table().lines() {
            outln!("  {line}");
        }
    }
    if lost > 0 {
        outln!();
        outln!("FAILED: records were lost (exit code {EXIT_RECORDS_LOST}):");
        for summary in failed_clients(timeline).filter_map(failure_summary) {
            outln!("{summary}");
        }
    }
    if admins_failed > 0 {
        outln!();
        outln!("FAILED: Admin calls' topics failed (exit code {EXIT_RECORDS_LOST}):");
        for a in failed_admins(timeline) {
            outln!("{}: {}", a.name, a.summary());
        }
    }
    code
}

/// `simulate --seeds N`: the spread over N seeds, as text or JSON; exits 0,
/// or 1 when the scenario cannot run.
fn run_seeds(name: &str, scenario: &quota_engine::sim::Scenario, n: u32, json: bool) -> u8 {
    let spread = match scenario.validate().map_err(quota_engine::Error::from).and_then(|v| quota_engine::sim::simulate_seeds(v, n)) {
        Ok(s) => s,
        Err(e) => {
            errln!("kafka-quota: {name}: the scenario cannot run: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if json {
        match serde_json::to_string(&spread) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                errln!("kafka-quota: cannot write the spread as JSON: {e}.");
                return EXIT_BAD_INPUT;
            }
        }
        return EXIT_OK;
    }
    outln!("scenario {:?}: {n} runs, one per seed", scenario.name);
    for c in &spread.clients {
        outln!();
        outln!("{}", c.summary(&spread.seeds));
        outln!("  {:>4}  {:>11}  {:>15}  {:>22}", "seed", "duration ms", "max throttle ms", "records (topics) failed");
        for (i, seed) in spread.seeds.iter().enumerate().take(50) {
            outln!(
                "  {seed:>4}  {:>11}  {:>15}  {:>22}",
                c.duration_ms[i].map_or_else(|| "-".to_owned(), |d| format!("{d:.1}")),
                format!("{:.1}", c.throttle_max_ms[i]),
                c.records_failed[i]
            );
        }
        if spread.seeds.len() > 50 {
            outln!("  ... and {} more (--json lists every run)", spread.seeds.len() - 50);
        }
    }
    EXIT_OK
}

/// One connects workload's run: where from, the limits that applied, the
/// engine's one-line answer ([`ConnectsTrack::summary`]), the first
/// refusal and the spread of the ready times.
fn print_connects(c: &ConnectsTrack) {
    outln!("{} ({} of {} connection(s) from {} to broker {})", c.name, c.pattern, c.count, c.ip, c.broker);
    outln!("  limits: {}", c.limits_sentence());
    outln!("  {}", c.summary());
    if let Some(first) = c.attempts.iter().find(|a| a.throttle_ms > 0) {
        outln!(
            "  first refusal: taken by the acceptor at {} ms, throttle {} ms, socket closed at {} ms",
            java_double_to_string(first.accepted_ms),
            first.throttle_ms,
            first.closed_ms.map_or_else(|| "(still held at the end)".to_owned(), java_double_to_string)
        );
    }
    let mut ready: Vec<f64> = c.clients.iter().filter_map(|x| x.ready_ms).collect();
    ready.sort_by(f64::total_cmp);
    if let (Some(first), Some(last)) = (ready.first(), ready.last()) {
        outln!(
            "  ready: {} of {}, the first at {} ms, the last at {} ms; {} attempt(s), {} refused",
            ready.len(),
            c.count,
            java_double_to_string(*first),
            java_double_to_string(*last),
            c.attempts_total,
            c.throttled_total()
        );
    }
}

/// One Admin client's run: who it is, its budget, the engine's one-line
/// answer ([`AdminTrack::summary`]), its first request as the controller
/// decided it, and its topics' outcomes.
fn print_admin(a: &AdminTrack) {
    outln!(
        "{} (Admin client, {} {}, {} mode): principal {}, client-id {:?}",
        a.name, a.method, a.request, a.mode, a.principal, a.client_id
    );
    outln!("  {}", a.budget_sentence());
    outln!("  {}", a.summary());
    if let Some(first) = a.requests.first() {
        let tokens = match (first.tokens_before, first.tokens_after) {
            (Some(b), Some(f)) => format!("; tokens {} -> {}", java_double_to_string(b), java_double_to_string(f)),
            _ => String::new(),
        };
        outln!(
            "  requests: {} (the first at {} ms: {} accepted, {} refused with THROTTLING_QUOTA_EXCEEDED{tokens}; throttle_time_ms {}); largest throttle_time_ms {}",
            a.requests.len(),
            java_double_to_string(first.sent_ms),
            first.accepted,
            first.refused,
            first.throttle_ms,
            a.throttle_max_ms()
        );
    }
    outln!(
        "  topics: {} done, {} ThrottlingQuotaExceededException, {} TimeoutException{}; duration {} ms",
        a.count(TopicOutcome::Done),
        a.count(TopicOutcome::QuotaExceeded),
        a.count(TopicOutcome::TimedOut),
        match a.count(TopicOutcome::Pending) {
            0 => String::new(),
            n => format!(", {n} pending at the horizon"),
        },
        java_double_to_string(a.duration_ms())
    );
}
