//! The Admin clients of a run ([`Timeline::admin`]): per track the engine's
//! summary, the budget, the controller's token bucket over the run with the
//! cursor, the requests and how the application's futures ended.

use quota_engine::sim::{AdminRequest, AdminTrack, Timeline, TopicOutcome};
use yew::prelude::*;

use super::charts::{self, fmt_tokens};
use crate::model;

/// Requests listed whole up to this many (lesson 8 sends 18).
const ALL_REQUESTS: usize = 24;
/// Requests listed from the start of a track when there are more (a
/// 10,000-topic run may send thousands).
const FIRST_REQUESTS: usize = 8;
/// Requests listed around the cursor: the last sent by then, and the next.
const BEFORE_CURSOR: usize = 6;
const AFTER_CURSOR: usize = 2;

/// A row of the requests table: request `i`, or `n` requests left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequestRow {
    Request(usize),
    Gap(usize),
}

/// The rows of a requests table of `n` requests when `sent` of them were
/// sent by the cursor: every one up to [`ALL_REQUESTS`]; else the first
/// [`FIRST_REQUESTS`], those around the cursor, and a gap row for each run
/// left out (the last one "and N more").
pub(crate) fn request_rows(n: usize, sent: usize) -> Vec<RequestRow> {
    if n <= ALL_REQUESTS {
        return (0..n).map(RequestRow::Request).collect();
    }
    let around = sent.saturating_sub(BEFORE_CURSOR)..(sent + AFTER_CURSOR).min(n);
    let shown = |i: usize| i < FIRST_REQUESTS || around.contains(&i);
    let mut rows = Vec::new();
    let mut gap = 0;
    for i in 0..n {
        if shown(i) {
            if gap > 0 {
                rows.push(RequestRow::Gap(gap));
                gap = 0;
            }
            rows.push(RequestRow::Request(i));
        } else {
            gap += 1;
        }
    }
    if gap > 0 {
        rows.push(RequestRow::Gap(gap));
    }
    rows
}

/// How the topics of one outcome ended: how many, when the first and the
/// last future completed, how many at the first moment, and the largest
/// `throttleTimeMs()` their exception carried.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OutcomeGroup {
    pub(crate) outcome: TopicOutcome,
    pub(crate) count: usize,
    pub(crate) first_ms: f64,
    pub(crate) at_first: usize,
    pub(crate) last_ms: f64,
    pub(crate) throttle_max_ms: i64,
}

/// The topics of `a` grouped by outcome, in a fixed order (created,
/// `ThrottlingQuotaExceededException`, `TimeoutException`, pending); an
/// outcome no topic had is left out.
pub(crate) fn outcome_groups(a: &AdminTrack) -> Vec<OutcomeGroup> {
    [TopicOutcome::Done, TopicOutcome::QuotaExceeded, TopicOutcome::TimedOut, TopicOutcome::Pending]
        .into_iter()
        .filter_map(|outcome| {
            let of: Vec<&quota_engine::sim::AdminTopic> = a.topics.iter().filter(|t| t.outcome == outcome).collect();
            let first_ms = of.iter().map(|t| t.at_ms).reduce(f64::min)?;
            Some(OutcomeGroup {
                outcome,
                count: of.len(),
                first_ms,
                at_first: of.iter().filter(|t| t.at_ms == first_ms).count(),
                last_ms: of.iter().map(|t| t.at_ms).fold(first_ms, f64::max),
                throttle_max_ms: of.iter().map(|t| t.throttle_ms).max().unwrap_or(0),
            })
        })
        .collect()
}

/// The verb of a track's method: `created`, `extended`, `deleted`.
fn verb(a: &AdminTrack) -> &'static str {
    match a.method.as_str() {
        "createPartitions" => "extended",
        "deleteTopics" => "deleted",
        _ => "created",
    }
}

/// A time as [`model::fmt_ms`] writes it, with a no-break space between
/// the number and its unit (`8.53 s` does not wrap before `s`).
fn at(ms: f64) -> String {
    model::fmt_ms(ms).replace(' ', "\u{a0}")
}

/// When the topics of `g` ended, e.g. `23 at 26 ms, the last at 8.53 s`
/// or `all at 5.00 s`.
fn when(g: &OutcomeGroup) -> String {
    if g.first_ms == g.last_ms {
        if g.count == 1 { format!("at {}", at(g.first_ms)) } else { format!("all at {}", at(g.first_ms)) }
    } else if g.at_first > 1 {
        format!("{} at {}, the last at {}", g.at_first, at(g.first_ms), at(g.last_ms))
    } else {
        format!("the first at {}, the last at {}", at(g.first_ms), at(g.last_ms))
    }
}

/// The budget line under the summary: request and mode, the budget's tags,
/// quota, burst and partitions per topic.
fn budget_line(a: &AdminTrack) -> String {
    let mode = match a.mode.as_str() {
        "strict" => "strict: a topic is refused with THROTTLING_QUOTA_EXCEEDED while the bucket is below 0",
        _ => "permissive: every topic is accepted, the response is throttled",
    };
    let budget = match (a.quota, a.burst) {
        (Some(q), Some(b)) => format!(
            "budget {} · quota {} mutations/s · burst {} tokens",
            a.budget,
            fmt_tokens(q),
            fmt_tokens(b)
        ),
        _ => "no controller_mutation_rate applies: unlimited, nothing is refused or throttled".to_owned(),
    };
    format!(
        "{} ({mode}) · {budget} · {} per topic · {} · client.id {}",
        a.request,
        model::count_of(u64::from(a.partitions), "partition", "partitions"),
        a.principal,
        a.client_id
    )
}

/// The Admin clients' section of the simulation panel; `points` holds
/// each track's [`charts::admin_token_points`] (once per run).
pub(crate) fn admin_section(t: &Timeline, points: &[Vec<(f64, f64)>], cursor: f64) -> Html {
    if t.admin.is_empty() {
        return html! {};
    }
    html! {
        <section class="admin-clients" data-testid="admin-clients" aria-labelledby="admin-clients-h">
            <h3 id="admin-clients-h">{ "Admin clients" }</h3>
            { for t.admin.iter().enumerate().map(|(i, a)| track(t, i, a, points.get(i).map_or(&[][..], Vec::as_slice), cursor)) }
        </section>
    }
}

fn track(t: &Timeline, i: usize, a: &AdminTrack, points: &[(f64, f64)], cursor: f64) -> Html {
    html! {
        <div class="admin-track" data-testid={format!("admin-track-{i}")}>
            <h4>{ format!("{}: Admin.{} of {} × {}", a.name, a.method,
                model::count_of(a.topics.len() as u64, "topic", "topics"), model::count_of(u64::from(a.partitions), "partition", "partitions")) }</h4>
            // The engine's answer, as it words it.
            <p class={classes!("admin-summary", outcome_class(a))} data-testid="admin-summary">{ a.summary() }</p>
            <p class="admin-budget" data-testid="admin-budget">{ budget_line(a) }</p>
            // The bucket beside what the application sees (one under the
            // other on a narrow screen).
            <div class="charts admin-charts">
                if a.quota.is_some() { { charts::tokens_chart(a, points, t.end_ms, cursor) } }
                { outcome(a, cursor) }
            </div>
            { requests(a, cursor) }
        </div>
    }
}

/// The summary's class: `failed` when a topic failed, `partial` when one
/// is still pending, else `done`.
fn outcome_class(a: &AdminTrack) -> &'static str {
    if a.topics.iter().any(|t| matches!(t.outcome, TopicOutcome::QuotaExceeded | TopicOutcome::TimedOut)) {
        "failed"
    } else if a.topics.iter().any(|t| t.outcome == TopicOutcome::Pending) {
        "partial"
    } else {
        "done"
    }
}

/// The topics as the application's futures saw them: per outcome, how
/// many and when, and where they stand at the cursor.
fn outcome(a: &AdminTrack, cursor: f64) -> Html {
    let groups = outcome_groups(a);
    let by = |o: TopicOutcome| a.topics.iter().filter(|t| t.outcome == o && t.at_ms <= cursor).count();
    let done = by(TopicOutcome::Done);
    let failed = by(TopicOutcome::QuotaExceeded) + by(TopicOutcome::TimedOut);
    let waiting = a.topics.len() - done - failed;
    let count = |o: TopicOutcome| groups.iter().find(|g| g.outcome == o).map_or(0, |g| g.count);
    let line = |o: TopicOutcome, testid: &'static str| {
        let g = groups.iter().find(|g| g.outcome == o);
        let n = g.map_or(0, |g| g.count);
        let topics = model::count_of(n as u64, "topic", "topics");
        let body = match (o.exception(), g) {
            (None, Some(g)) if o == TopicOutcome::Done => html! { { format!("{topics} {}, {}", verb(a), when(g)) } },
            (None, None) if o == TopicOutcome::Done => html! { { format!("No topic {}", verb(a)) } },
            (None, Some(g)) => html! { { format!("{topics} still pending when the run stopped at {}", at(g.last_ms)) } },
            (None, None) => html! {},
            (Some(full), g) => {
                let short = full.rsplit('.').next().unwrap_or(full);
                match g {
                    None => html! { <><code title={full}>{ short }</code>{ ": none" }</> },
                    Some(g) => {
                        let throttle = match (o, g.throttle_max_ms) {
                            (TopicOutcome::QuotaExceeded, 0) => " (throttleTimeMs() 0 ms)".to_owned(),
                            (TopicOutcome::QuotaExceeded, m) => format!(" (throttleTimeMs() up to {m} ms)"),
                            _ => String::new(),
                        };
                        html! { <>{ format!("{topics} failed with ") }<code title={full}>{ short }</code>{ format!(", {}{throttle}", when(g)) }</> }
                    }
                }
            }
        };
        let class = match o {
            TopicOutcome::Done => "done",
            TopicOutcome::Pending => "partial",
            _ if n > 0 => "failed",
            _ => "none",
        };
        html! { <li class={class} data-testid={testid} data-count={n.to_string()}>{ body }</li> }
    };
    html! {
        <div class="admin-outcome">
            <h5>{ format!("What the application sees: Admin.{}'s futures", a.method) }</h5>
            <ul data-testid="admin-outcome">
                { line(TopicOutcome::Done, "admin-done") }
                { line(TopicOutcome::QuotaExceeded, "admin-quota-exceeded") }
                { line(TopicOutcome::TimedOut, "admin-timed-out") }
                if count(TopicOutcome::Pending) > 0 { { line(TopicOutcome::Pending, "admin-pending") } }
            </ul>
            <p class="admin-at-cursor" data-testid="admin-at-cursor" data-done={done.to_string()}>
                { format!("At {}: {} {}, {} failed, {} waiting.", at(cursor), done, verb(a), failed, waiting) }
            </p>
        </div>
    }
}

/// The requests table: call, attempt, sent at, topics, accepted, refused,
/// tokens before → after, throttle; cut short ([`request_rows`]).
fn requests(a: &AdminTrack, cursor: f64) -> Html {
    let n = a.requests.len();
    let sent = a.requests.partition_point(|r| r.sent_ms <= cursor);
    let rows = request_rows(n, sent);
    let cut = rows.iter().any(|r| matches!(r, RequestRow::Gap(_)));
    let row = |i: usize, r: &AdminRequest| {
        let tokens = match (r.tokens_before, r.tokens_after) {
            (Some(b), Some(after)) => format!("{} → {}", fmt_tokens(b), fmt_tokens(after)),
            _ => "unlimited".to_owned(),
        };
        html! {
            <tr class={classes!((r.sent_ms > cursor).then_some("dim"), (sent > 0 && i == sent - 1).then_some("focus"))} data-testid={format!("admin-request-{i}")}>
                <td class="n">{ r.call }</td>
                <td class="n">{ r.attempt }</td>
                <td class="n">{ model::fmt_ms(r.sent_ms) }</td>
                <td class="n">{ r.topics }</td>
                <td class="n" data-testid="accepted">{ r.accepted }</td>
                <td class={classes!("n", (r.refused > 0).then_some("refused"))} data-testid="refused">{ r.refused }</td>
                <td class="n tokens">{ tokens }</td>
                <td class="n">{ format!("{} ms", r.throttle_ms) }</td>
            </tr>
        }
    };
    html! {
        <div class="table-wrap">
            <table class="admin-requests" data-testid="admin-requests">
                <caption>{ format!("{} {} of {} (one in flight at a time){}", model::grouped(n as u64), a.request, a.name,
                    if cut { "; the first, then those around the cursor" } else { "" }) }</caption>
                <thead><tr>
                    <th scope="col" class="n">{ "Call" }</th><th scope="col" class="n">{ "Attempt" }</th><th scope="col" class="n">{ "Sent at" }</th><th scope="col" class="n">{ "Topics" }</th>
                    <th scope="col" class="n">{ "Accepted" }</th><th scope="col" class="n">{ "Refused" }</th><th scope="col" class="n">{ "Tokens before → after" }</th><th scope="col" class="n">{ "Throttle" }</th>
                </tr></thead>
                <tbody>
                    if n == 0 { <tr><td class="wide" colspan="8">{ "No request was sent." }</td></tr> }
                    { for rows.iter().enumerate().map(|(k, r)| match *r {
                        RequestRow::Request(i) => row(i, &a.requests[i]),
                        RequestRow::Gap(m) => html! {
                            <tr class="gap" data-testid="admin-requests-gap"><td class="wide" colspan="8">{ gap_text(m, k + 1 == rows.len()) }</td></tr>
                        },
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// A gap row's words: `… 12 more requests …`, or at the end `… and 12
/// more requests`.
fn gap_text(m: usize, last: bool) -> String {
    let more = format!("{} more {}", model::grouped(m as u64), if m == 1 { "request" } else { "requests" });
    if last {
        format!("… and {more}")
    } else {
        format!("… {more} …")
    }
}

#[cfg(test)]
mod tests {
    use super::RequestRow::{Gap, Request};
    use super::*;

    #[test]
    fn a_long_request_list_keeps_the_first_and_those_around_the_cursor() {
        assert_eq!(request_rows(3, 0), vec![Request(0), Request(1), Request(2)]);
        assert_eq!(request_rows(24, 0).len(), 24);
        // 10,000 requests, none sent yet: the first 8, then the rest in one line.
        assert_eq!(request_rows(10_000, 0), (0..8).map(Request).chain([Gap(9_992)]).collect::<Vec<_>>());
        // 5,000 sent: the first 8, the 6 sent last and the next 2.
        let rows = request_rows(10_000, 5_000);
        let want: Vec<RequestRow> =
            (0..8).map(Request).chain([Gap(4_986)]).chain((4_994..5_002).map(Request)).chain([Gap(4_998)]).collect();
        assert_eq!(rows, want);
        // All sent: the first and the last 6, nothing after.
        let rows = request_rows(10_000, 10_000);
        assert_eq!(rows.last(), Some(&Request(9_999)));
        assert_eq!(rows.len(), 8 + 1 + 6);
        assert_eq!(gap_text(9_992, true), "… and 9,992 more requests");
        assert_eq!(gap_text(1, false), "… 1 more request …");
    }

    fn lesson() -> Timeline {
        crate::model::simulate(&crate::presets::lesson(8).unwrap().scenario()).unwrap()
    }

    #[test]
    fn the_outcome_groups_say_how_many_and_when() {
        let t = lesson();
        let g = outcome_groups(&t.admin[0]);
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].outcome, g[0].count, g[0].at_first), (TopicOutcome::Done, 40, 23));
        assert_eq!(when(&g[0]), "23 at 26\u{a0}ms, the last at 8.53\u{a0}s");
        assert!(budget_line(&t.admin[0]).starts_with(
            "CreateTopics v7 (strict: a topic is refused with THROTTLING_QUOTA_EXCEEDED while the bucket is below 0) · budget user=\"\", client-id=admin-burst · quota 20 mutations/s · burst 220 tokens · 10 partitions per topic"
        ));
    }

    #[test]
    fn the_token_line_steps_at_each_request_and_follows_tokens_at() {
        let t = lesson();
        let a = &t.admin[0];
        let pts = charts::admin_token_points(a, t.end_ms, 240);
        // In time order, within [0, end].
        assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(pts.iter().all(|p| (0.0..=t.end_ms).contains(&p.0)));
        // The first request's step: 220 then -10 at its decision.
        let i = pts.iter().position(|p| p.1 == 220.0 && p.0 == a.requests[0].handled_ms).unwrap();
        assert_eq!(pts[i + 1], (a.requests[0].handled_ms, -10.0));
        // Every point away from a decision is what the engine says.
        for (ms, v) in &pts {
            if a.requests.iter().all(|r| r.handled_ms != *ms) {
                let want = a.tokens_at(*ms).unwrap();
                assert!((v - want).abs() < 1e-9, "{ms}: {v} vs {want}");
            }
        }
        // The lowest is -10, the highest the burst.
        let low = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        assert_eq!(low, -10.0);
        assert_eq!(pts.iter().map(|p| p.1).fold(f64::MIN, f64::max), 220.0);
        // Without a quota: nothing to draw.
        let mut s = crate::presets::lesson(8).unwrap().scenario();
        s.quotas.clear();
        let t = crate::model::simulate(&s).unwrap();
        assert!(charts::admin_token_points(&t.admin[0], t.end_ms, 240).is_empty());
        assert!(budget_line(&t.admin[0]).contains("no controller_mutation_rate applies"));
    }
}
