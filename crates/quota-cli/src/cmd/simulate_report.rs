//! What `kafka-quota simulate` reports besides the per-client lines: the
//! failure summary of every client that lost records, and the `--json`
//! document (the run's outcome, per-client and per-budget summaries, the
//! per-request trace of a textbook run or of a modelled run, and the whole
//! Timeline).

use quota_engine::entity::QuotaType;
use quota_engine::sim::textbook::{BudgetSummary, ClientSummary, RequestTrace, TextbookRun};
use quota_engine::sim::{
    AdminTrack, TopicOutcome,
    ClientKind, ClientThrottle, ClientTrack, ModelledRequest, Outcome, SensorTrack, Timeline,
    TracedRun,
};
use serde::Serialize;

/// A finished simulation: the modelled network's Timeline (with its
/// per-request trace for `--json`), or a textbook run (its Timeline plus the
/// per-request trace and summaries).
pub(crate) enum Ran {
    /// The modelled network.
    Modelled(Timeline),
    /// The modelled network with its per-request trace (`--json`).
    Traced(TracedRun),
    /// `"network": "textbook"`.
    Textbook(TextbookRun),
}

impl Ran {
    /// The run's Timeline.
    pub(crate) fn timeline(&self) -> &Timeline {
        match self {
            Ran::Modelled(t) => t,
            Ran::Traced(r) => &r.timeline,
            Ran::Textbook(r) => &r.timeline,
        }
    }

    /// The textbook run, if it was one.
    pub(crate) fn textbook(&self) -> Option<&TextbookRun> {
        match self {
            Ran::Modelled(_) | Ran::Traced(_) => None,
            Ran::Textbook(r) => Some(r),
        }
    }
}

/// The clients of `t` that lost records (outcome `failed`).
pub(crate) fn failed_clients(t: &Timeline) -> impl Iterator<Item = &ClientTrack> {
    t.clients.iter().filter(|c| c.outcome.is_failed())
}

/// The failure summary of one client, or `None` when it lost no record:
/// `app: 8352 of 30000 records failed: <class>: <message> (first at
/// 12.345 s; delivery.timeout.ms=1000)`, with one further line per further
/// exception (`  100 of them: <class>: ...`).
pub(crate) fn failure_summary(c: &ClientTrack) -> Option<String> {
    let Outcome::Failed {
        records,
        failed_records,
        exceptions,
    } = &c.outcome
    else {
        return None;
    };
    let head = format!("{}: {failed_records} of {records} records failed", c.name);
    Some(match exceptions.as_slice() {
        [one] => format!("{head}: {}", one.line()),
        many => {
            let mut s = format!("{head}:");
            for e in many {
                s.push_str(&format!("\n  {} of them: {}", e.count, e.line()));
            }
            s
        }
    })
}

/// The Admin clients with a topic that failed
/// (`ThrottlingQuotaExceededException` or `TimeoutException`).
pub(crate) fn failed_admins(t: &Timeline) -> impl Iterator<Item = &AdminTrack> {
    t.admin.iter().filter(|a| {
        a.topics
            .iter()
            .any(|x| matches!(x.outcome, TopicOutcome::QuotaExceeded | TopicOutcome::TimedOut))
    })
}

/// How the whole run ended, in the `--json` document.
#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
enum RunStatus {
    /// Ctrl-C stopped the run: the Timeline so far (exit code 130).
    CutShort,
    /// Every client completed.
    Completed,
    /// At least one client lost records (exit code 3).
    RecordsLost,
    /// No record was lost, but an Admin call's topics failed (exit code 3).
    TopicsFailed,
    /// No record was lost, but the horizon stopped at least one client: a
    /// producer or consumer, an Admin client with a topic pending, or a
    /// connects workload with a connection not ready.
    Stopped,
}

/// The run's outcome in the `--json` document.
#[derive(Debug, Serialize)]
struct RunOutcome {
    status: RunStatus,
    /// The exit code `simulate` returns.
    exit_code: u8,
    /// Records lost over all clients.
    failed_records: u64,
    /// The clients that lost records, with their failure summary.
    failed_clients: Vec<FailedClient>,
    /// The Admin clients whose topics failed, with the engine's summary
    /// ([`AdminTrack::summary`]); absent when the run has no Admin client.
    #[serde(skip_serializing_if = "Option::is_none")]
    failed_admin_clients: Option<Vec<FailedClient>>,
}

#[derive(Debug, Serialize)]
struct FailedClient {
    name: String,
    summary: String,
}

/// One client in the `--json` document.
#[derive(Debug, Serialize)]
struct ClientJson<'a> {
    name: &'a str,
    kind: ClientKind,
    principal: &'a str,
    client_id: &'a str,
    /// Always present here (the Timeline omits a plain `completed`).
    outcome: &'a Outcome,
    start_ms: f64,
    finish_ms: Option<f64>,
    duration_ms: Option<f64>,
    records_done: u64,
    record_error_total: u64,
    record_retry_total: u64,
    /// `produce-` / `fetch-throttle-time-avg` (ms; `null` for NaN).
    throttle_time_avg: f64,
    /// `produce-` / `fetch-throttle-time-max` (ms; `null` for NaN).
    throttle_time_max: f64,
    /// Requests sent.
    requests: u64,
    /// Responses that carried a `throttle_time_ms` (throttled or not): all
    /// of them, though the Timeline keeps every `stride`-th of a long run.
    responses: u64,
    /// How many of them had `throttle_time_ms` > 0.
    throttled_responses: u64,
    /// Mean and max `throttle_time_ms` over those responses (ms; `null`
    /// without responses).
    throttle_mean_ms: Option<f64>,
    throttle_max_ms: Option<i64>,
    /// The first throttled response kept (the very first when its
    /// `throttled_responses` is 1): when it arrived (ms), from which
    /// broker, its `throttle_time_ms`, and the client's counts up to it.
    first_throttle: Option<&'a ClientThrottle>,
    /// Every `stride`-th response is kept (1 = all).
    responses_stride: u32,
    /// A textbook run's per-client figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    textbook: Option<&'a ClientSummary>,
}

/// One budget (quota sensor on a broker) in the `--json` document.
#[derive(Debug, Serialize)]
struct BudgetJson<'a> {
    broker: u32,
    quota_type: QuotaType,
    sensor_name: &'a str,
    mbean: &'a str,
    /// Bytes/s, or percent for a request quota (`Long.MAX_VALUE` as a
    /// double when unlimited; `"NaN"` or `"Infinity"` for such a quota).
    #[serde(serialize_with = "quota_engine::json_f64::serialize")]
    bound: f64,
    /// The clients drawing on it (names).
    members: Vec<&'a str>,
    /// Throttles the broker decided on it.
    throttles: usize,
    /// The largest of them (ms), 0 when none.
    throttle_max_ms: i64,
    /// When the first was decided (ms).
    first_throttle_at_ms: Option<f64>,
    /// Its throttle time (ms).
    first_throttle_ms: Option<i64>,
    /// Mean throttle time over the throttles decided (ms).
    throttle_mean_ms: Option<f64>,
    /// What the quota sensor recorded per sample, in order: `[start_ms,
    /// sum]`. A sample lasts `quota.window.size.seconds` (1 s by default) of
    /// broker time from its first record, and a stretch with no record has
    /// none (Kafka's `SampledStat`); for a byte rate the sum is the bytes
    /// the broker accepted (a throttled fetch un-recorded, as Kafka does).
    /// At most `SERIES_CAP` samples.
    recorded_by_sample: Vec<(f64, f64)>,
    /// A textbook run's per-budget figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    textbook: Option<&'a BudgetSummary>,
}

/// The `--json` document of `simulate`.
#[derive(Debug, Serialize)]
struct Report<'a> {
    scenario: &'a str,
    seed: u64,
    outcome: RunOutcome,
    clients: Vec<ClientJson<'a>>,
    budgets: Vec<BudgetJson<'a>>,
    /// The per-request trace: a textbook run's rows, or a modelled run's
    /// (absent when the run was not traced).
    #[serde(skip_serializing_if = "Option::is_none")]
    requests: Option<Requests<'a>>,
    /// A modelled run that sent more than [`quota_engine::sim::TRACE_CAP`] requests lists the
    /// first ones (`true`); absent for a textbook run.
    #[serde(skip_serializing_if = "Option::is_none")]
    requests_capped: Option<bool>,
    /// The whole Timeline.
    timeline: &'a Timeline,
}

/// The rows under `requests`: the textbook's whole-ms [`RequestTrace`], or
/// the modelled network's fractional-ms [`ModelledRequest`]
/// (docs/simulate-json.md lists the differences).
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Requests<'a> {
    Textbook(&'a [RequestTrace]),
    Modelled(&'a [ModelledRequest]),
}

fn client_json<'a>(c: &'a ClientTrack, textbook: Option<&'a ClientSummary>) -> ClientJson<'a> {
    let m = &c.metrics;
    // The run's tallies (the series keeps one response in `stride` of a
    // long run).
    let all = &c.responses;
    ClientJson {
        name: &c.name,
        kind: c.kind,
        principal: &c.principal,
        client_id: &c.client_id,
        outcome: &c.outcome,
        start_ms: c.start_ms,
        finish_ms: c.finish_ms,
        duration_ms: c.duration_ms,
        records_done: m.records_done,
        record_error_total: m.record_error_total,
        record_retry_total: m.record_retry_total,
        throttle_time_avg: m.throttle_time_avg,
        throttle_time_max: m.throttle_time_max,
        requests: m.requests,
        responses: all.responses,
        throttled_responses: all.throttled_responses,
        throttle_mean_ms: (all.responses > 0).then(|| all.throttle_sum_ms as f64 / all.responses as f64),
        throttle_max_ms: (all.responses > 0).then_some(all.throttle_max_ms),
        first_throttle: c.throttles.points.iter().find(|r| r.throttle_ms > 0),
        responses_stride: c.throttles.stride,
        textbook,
    }
}

fn budget_json<'a>(
    t: &'a Timeline,
    s: &'a SensorTrack,
    textbook: Option<&'a BudgetSummary>,
) -> BudgetJson<'a> {
    BudgetJson {
        broker: s.broker,
        quota_type: s.quota_type,
        sensor_name: &s.sensor_name,
        mbean: &s.mbean,
        bound: s.bound,
        members: s
            .members
            .iter()
            .filter_map(|m| t.clients.get(*m as usize).map(|c| c.name.as_str()))
            .collect(),
        throttles: s.throttles.len(),
        throttle_max_ms: s.throttles.iter().map(|e| e.delay_ms).max().unwrap_or(0),
        first_throttle_at_ms: s.throttles.first().map(|e| e.at_ms),
        first_throttle_ms: s.throttles.first().map(|e| e.delay_ms),
        throttle_mean_ms: (!s.throttles.is_empty()).then(|| {
            s.throttles.iter().map(|e| e.delay_ms as f64).sum::<f64>() / s.throttles.len() as f64
        }),
        recorded_by_sample: s.samples.iter().map(|w| (w.start_ms, w.sum)).collect(),
        textbook,
    }
}

/// The `--json` document for `ran`, which exits with `exit_code`.
pub(crate) fn json(ran: &Ran, exit_code: u8) -> Result<String, serde_json::Error> {
    let t = ran.timeline();
    let tb = ran.textbook();
    let failed: Vec<FailedClient> = t
        .clients
        .iter()
        .filter_map(|c| {
            failure_summary(c).map(|summary| FailedClient {
                name: c.name.clone(),
                summary,
            })
        })
        .collect();
    let status = if t.cut_short {
        RunStatus::CutShort
    } else if !failed.is_empty() {
        RunStatus::RecordsLost
    } else if failed_admins(t).next().is_some() {
        RunStatus::TopicsFailed
    } else if t.clients.iter().any(|c| !c.outcome.is_completed())
        || t.admin.iter().any(|a| a.count(TopicOutcome::Pending) > 0)
        || t.connects.iter().any(|c| !c.finished)
    {
        RunStatus::Stopped
    } else {
        RunStatus::Completed
    };
    let report = Report {
        scenario: &t.scenario,
        seed: t.seed,
        outcome: RunOutcome {
            status,
            exit_code,
            failed_records: t.clients.iter().map(|c| c.outcome.failed_records()).sum(),
            failed_clients: failed,
            failed_admin_clients: (!t.admin.is_empty()).then(|| {
                failed_admins(t)
                    .map(|a| FailedClient { name: a.name.clone(), summary: a.summary() })
                    .collect()
            }),
        },
        clients: t
            .clients
            .iter()
            .enumerate()
            .map(|(i, c)| client_json(c, tb.and_then(|r| r.clients.get(i))))
            .collect(),
        // A textbook run's budgets are its sensor tracks, in the same order.
        budgets: t
            .sensors
            .iter()
            .enumerate()
            .map(|(i, s)| budget_json(t, s, tb.and_then(|r| r.budgets.get(i))))
            .collect(),
        requests: match ran {
            Ran::Textbook(r) => Some(Requests::Textbook(&r.requests)),
            Ran::Traced(r) => Some(Requests::Modelled(&r.requests)),
            Ran::Modelled(_) => None,
        },
        requests_capped: match ran {
            Ran::Traced(r) => Some(r.capped),
            Ran::Textbook(_) | Ran::Modelled(_) => None,
        },
        timeline: t,
    };
    serde_json::to_string(&report)
}
