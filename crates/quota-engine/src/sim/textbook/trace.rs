//! What a textbook run reports besides its [`Timeline`]: one row per
//! request, and per client and per budget the throttle figures a reader
//! checks by hand.

use serde::Serialize;

use crate::entity::QuotaType;
use crate::sim::{ClientKind, Timeline};

/// One request of a textbook run, from the client's send to the response's
/// arrival. Times are whole ms from the start of the run; `None` where the
/// run stopped (horizon) before that step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestTrace {
    /// The connection (scenario name).
    pub connection: String,
    /// Index of the connection (workload order).
    pub connection_index: u32,
    /// `k`: the request's number on its connection, from 1.
    pub seq: u32,
    /// When the client sent it (ms).
    pub send_ms: i64,
    /// Request bytes: the produce payload, 0 for a fetch.
    pub request_bytes: u64,
    /// When it reached the broker: send + `ceil(1000 * b / L)` + `D` (ms).
    pub arrival_ms: i64,
    /// When the broker started handling it (ms).
    pub start_ms: Option<i64>,
    /// When the broker completed it and recorded it on the quota: start + `H` (ms).
    pub record_ms: Option<i64>,
    /// Bytes recorded on the quota sensor (a produce's payload; a fetch's
    /// `min(R, fetch cap, remaining)`, un-recorded again when throttled).
    pub bytes_recorded: u64,
    /// Bytes the broker accepted: a produce's payload (throttled or not),
    /// a fetch's delivered bytes (0 when throttled).
    pub bytes_accepted: u64,
    /// `throttle_time_ms` in the response: Kafka's `int` (0 = not throttled).
    pub throttle_ms: i32,
    /// Response bytes: 0 for a produce, the delivered bytes for a fetch.
    pub response_bytes: u64,
    /// When the response reached the client (ms).
    pub response_received_ms: Option<i64>,
    /// Until when the broker muted the connection: record + throttle (ms).
    pub mute_end_ms: Option<i64>,
}

impl RequestTrace {
    /// The column names of [`RequestTrace::line`].
    pub const HEADER: &'static str =
        "conn  k  send  bytes  arrive  start  record  recorded  accepted  throttle  received  mute-end";

    /// The row as text, columns as in [`RequestTrace::HEADER`] (`-` for a step not reached).
    pub fn line(&self) -> String {
        let o = |v: Option<i64>| v.map_or_else(|| "-".to_owned(), |x| x.to_string());
        format!(
            "{} {} {} {} {} {} {} {} {} {} {} {}",
            self.connection,
            self.seq,
            self.send_ms,
            self.request_bytes,
            self.arrival_ms,
            o(self.start_ms),
            o(self.record_ms),
            self.bytes_recorded,
            self.bytes_accepted,
            self.throttle_ms,
            o(self.response_received_ms),
            o(self.mute_end_ms)
        )
    }
}

/// The first throttled response of a client or budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FirstThrottle {
    /// When the broker decided it (the request's record time, ms).
    pub record_ms: i64,
    /// The throttle time (ms).
    pub throttle_ms: i32,
}

/// Throttle and byte figures over a set of requests (one client's, or every
/// request drawing on one budget).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResponseStats {
    /// Requests sent.
    pub requests: u64,
    /// Responses received.
    pub responses: u64,
    /// Responses with a throttle time above 0.
    pub throttled_responses: u64,
    /// Mean throttle time over the responses received, 0 included (ms);
    /// `None` before any response.
    pub throttle_mean_ms: Option<f64>,
    /// Largest throttle time over the responses received (ms).
    pub throttle_max_ms: i32,
    /// The first throttle the broker decided, if any.
    pub first_throttle: Option<FirstThrottle>,
    /// Bytes accepted by the broker per 1 s of broker time: element `i`
    /// counts requests recorded in `[1000 i, 1000 (i + 1))` ms.
    pub bytes_accepted_per_s: Vec<u64>,
}

impl ResponseStats {
    pub(crate) fn of<'a>(rows: impl Iterator<Item = &'a RequestTrace>) -> Self {
        let mut s = ResponseStats {
            requests: 0,
            responses: 0,
            throttled_responses: 0,
            throttle_mean_ms: None,
            throttle_max_ms: 0,
            first_throttle: None,
            bytes_accepted_per_s: Vec::new(),
        };
        let mut sum: i64 = 0;
        for r in rows {
            s.requests += 1;
            if let Some(at) = r.record_ms {
                if r.throttle_ms > 0 {
                    let earlier = s.first_throttle.is_none_or(|f| at < f.record_ms);
                    if earlier {
                        s.first_throttle = Some(FirstThrottle {
                            record_ms: at,
                            throttle_ms: r.throttle_ms,
                        });
                    }
                }
                let w = (at / 1000).max(0) as usize;
                if s.bytes_accepted_per_s.len() <= w {
                    s.bytes_accepted_per_s.resize(w + 1, 0);
                }
                s.bytes_accepted_per_s[w] += r.bytes_accepted;
            }
            if r.response_received_ms.is_some() {
                s.responses += 1;
                sum += i64::from(r.throttle_ms);
                if r.throttle_ms > 0 {
                    s.throttled_responses += 1;
                }
                s.throttle_max_ms = s.throttle_max_ms.max(r.throttle_ms);
            }
        }
        if s.responses > 0 {
            s.throttle_mean_ms = Some(sum as f64 / s.responses as f64);
        }
        s
    }
}

/// One client's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientSummary {
    /// The connection name.
    pub connection: String,
    /// Producer or consumer.
    pub kind: ClientKind,
    /// When its last response arrived (ms), if the workload completed.
    pub finish_ms: Option<i64>,
    /// The figures.
    pub stats: ResponseStats,
}

/// One budget's figures (every connection drawing on it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetSummary {
    /// Produce or fetch.
    pub quota_type: QuotaType,
    /// The MBean, e.g. `kafka.server:type=Produce,client-id=app`.
    pub mbean: String,
    /// The quota bound (bytes/s; `"NaN"` or `"Infinity"` in JSON for such a quota).
    #[serde(serialize_with = "crate::json_f64::serialize")]
    pub bound: f64,
    /// The connections drawing on it, in index order.
    pub members: Vec<String>,
    /// The figures over all their requests.
    pub stats: ResponseStats,
}

/// A textbook run: the [`Timeline`] every view reads, plus the per-request
/// trace and the per-client and per-budget summaries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextbookRun {
    /// The Timeline (sensor tracks, client tracks, MBeans).
    pub timeline: Timeline,
    /// Every request, by connection then sequence number.
    pub requests: Vec<RequestTrace>,
    /// One summary per connection, in index order.
    pub clients: Vec<ClientSummary>,
    /// One summary per budget, in creation order.
    pub budgets: Vec<BudgetSummary>,
}

impl TextbookRun {
    /// The trace as a text table: [`RequestTrace::HEADER`] then one line per request.
    pub fn trace_table(&self) -> String {
        let mut out = String::from(RequestTrace::HEADER);
        out.push('\n');
        for r in &self.requests {
            out.push_str(&r.line());
            out.push('\n');
        }
        out
    }
}
