//! The connects workloads of a run ([`Timeline::connects`]): per track the
//! engine's summary, the limits that applied (`connection_creation_rate`
//! on the source address, `max.connection.creation.rate` on the broker),
//! the connections ready over the run with each refused attempt and the
//! span its socket was held, the attempts, and where things stand at the
//! cursor.

use quota_engine::sim::{ConnectAttempt, ConnectsTrack, Timeline};
use yew::prelude::*;

use super::admin::{request_rows, RequestRow};
use super::charts;
use crate::model;

/// A time as [`model::fmt_ms`] writes it, with a no-break space between
/// the number and its unit.
fn at(ms: f64) -> String {
    model::fmt_ms(ms).replace(' ', "\u{a0}")
}

/// The limits line under the summary: the per-IP rate and its entity, the
/// broker-wide rate, the pattern, the address and the broker.
pub(crate) fn limits_line(c: &ConnectsTrack) -> String {
    let ip = match (c.ip_quota, &c.ip_entity) {
        (Some(q), Some(e)) => format!("connection_creation_rate {}/s on {e}", charts::fmt_tokens(q)),
        _ => format!("no connection_creation_rate applies to {}", c.ip),
    };
    let broker = match c.broker_rate {
        Some(r) => format!("max.connection.creation.rate {r}/s on broker {}", c.broker),
        None => format!("max.connection.creation.rate unlimited on broker {}", c.broker),
    };
    let pattern = match c.pattern.as_str() {
        "reopen" => format!("reopen: {} open-send-close cycles, one after another", c.count),
        "storm" => format!("storm: {} connections dropped at once, reconnecting", c.count),
        _ => format!("pool: {} connections opened", c.count),
    };
    format!("{ip} · {broker} · {pattern} · from {} to broker {}", c.ip, c.broker)
}

/// The Connections section of the simulation panel; `steps` holds each
/// track's [`charts::ready_steps`] (once per run).
pub(crate) fn connects_section(t: &Timeline, steps: &[Vec<(f64, f64)>], cursor: f64) -> Html {
    if t.connects.is_empty() {
        return html! {};
    }
    html! {
        <section class="connects" data-testid="connects" aria-labelledby="connects-h">
            <h3 id="connects-h">{ "Connections" }</h3>
            { for t.connects.iter().enumerate().map(|(i, c)| track(t, i, c, steps.get(i).map_or(&[][..], Vec::as_slice), cursor)) }
        </section>
    }
}

fn track(t: &Timeline, i: usize, c: &ConnectsTrack, steps: &[(f64, f64)], cursor: f64) -> Html {
    let class = if !c.finished {
        "partial"
    } else if c.throttled_total() > 0 {
        "refused"
    } else {
        "done"
    };
    let what = if c.pattern == "reopen" { "open-send-close cycles" } else { "connections" };
    html! {
        <div class="connects-track" data-testid={format!("connects-track-{i}")}>
            <h4>{ format!("{}: {} {what} from {}", c.name, model::grouped(u64::from(c.count)), c.ip) }</h4>
            // The engine's answer, as it words it.
            <p class={classes!("connects-summary", class)} data-testid="connects-summary">{ c.summary() }</p>
            <p class="connects-limits" data-testid="connects-limits">{ limits_line(c) }</p>
            <div class="charts connects-charts">
                { charts::connects_chart(c, steps, t.end_ms, cursor) }
                { at_cursor(c, cursor) }
            </div>
            { attempts(c, cursor) }
        </div>
    }
}

/// Where the track stands at the cursor: connections ready, sockets the
/// acceptor holds, refusals so far.
fn at_cursor(c: &ConnectsTrack, cursor: f64) -> Html {
    let ready = c.clients.iter().filter(|k| k.ready_ms.is_some_and(|r| r <= cursor)).count();
    let held = charts::held_at(c, cursor);
    let taken = c.attempts.partition_point(|a| a.accepted_ms <= cursor);
    let refused = c.attempts[..taken].iter().filter(|a| a.throttle_ms > 0).count();
    let waited = c.attempts[..taken].iter().filter(|a| a.acceptor_wait_ms > 0).count();
    let capped = c.attempts_total > c.attempts.len() as u64 && c.attempts.last().is_some_and(|a| a.accepted_ms < cursor);
    let n = c.clients.len().max(c.count as usize);
    html! {
        <div class="connects-now">
            <h5>{ format!("At {}", at(cursor)) }</h5>
            <ul data-testid="connects-at-cursor" data-ready={ready.to_string()} data-held={held.to_string()}>
                <li data-testid="connects-ready">{ format!("{ready} of {n} {} ready", if c.pattern == "reopen" { "cycles" } else { "connections" }) }</li>
                <li class={classes!((held > 0).then_some("refused"))} data-testid="connects-held">{ format!(
                    "{} refused {} held by the acceptor, unanswered until it closes {}",
                    held, if held == 1 { "socket" } else { "sockets" }, if held == 1 { "it" } else { "them" }) }</li>
                <li>{ format!("{} taken by the acceptor so far, {} refused", model::count_of(taken as u64, "attempt", "attempts"), refused) }</li>
                if c.broker_rate.is_some() { <li>{ format!("{waited} of them waited for max.connection.creation.rate") }</li> }
            </ul>
            if capped {
                <p class="msg hint">{ format!("The run keeps the first {} attempts of {}: the figures after the last kept one ({}) count those only.",
                    model::grouped(c.attempts.len() as u64), model::grouped(c.attempts_total), at(c.attempts.last().map_or(0.0, |a| a.accepted_ms))) }</p>
            }
        </div>
    }
}

/// The attempts table: client, attempt, sent, taken by the acceptor,
/// acceptor wait, throttle, closed or ready; cut short like the Admin
/// requests table ([`request_rows`]).
fn attempts(c: &ConnectsTrack, cursor: f64) -> Html {
    let n = c.attempts.len();
    let taken = c.attempts.partition_point(|a| a.accepted_ms <= cursor);
    let rows = request_rows(n, taken);
    let cut = rows.iter().any(|r| matches!(r, RequestRow::Gap(_)));
    let row = |i: usize, a: &ConnectAttempt| {
        let end = match (a.ready_ms, a.closed_ms) {
            (Some(r), _) => html! { <>{ format!("ready at {}", at(r)) }</> },
            (None, Some(cl)) => html! { <>{ format!("closed at {}", at(cl)) }</> },
            (None, None) if a.throttle_ms > 0 => html! { <>{ "held, not closed by the end" }</> },
            (None, None) => html! { <>{ "not ready by the end" }</> },
        };
        html! {
            <tr class={classes!((a.accepted_ms > cursor).then_some("dim"), (taken > 0 && i == taken - 1).then_some("focus"), (a.throttle_ms > 0).then_some("refused"))}
                data-testid={format!("connects-attempt-{i}")}>
                <td class="n">{ a.client }</td>
                <td class="n">{ a.attempt }</td>
                <td class="n">{ at(a.sent_ms) }</td>
                <td class="n" data-testid="taken">{ at(a.accepted_ms) }</td>
                <td class="n">{ format!("{} ms", a.acceptor_wait_ms) }</td>
                <td class={classes!("n", (a.throttle_ms > 0).then_some("refused"))} data-testid="throttle">{ format!("{} ms", a.throttle_ms) }</td>
                <td class="n" data-testid="end">{ end }</td>
            </tr>
        }
    };
    let kept = if c.attempts_total > n as u64 { format!(" (the first {} kept)", model::grouped(n as u64)) } else { String::new() };
    html! {
        <div class="table-wrap">
            <table class="connects-attempts" data-testid="connects-attempts">
                <caption>{ format!("{} connection attempts from {}{kept}, in the order the acceptor took them{}", model::grouped(c.attempts_total), c.name,
                    if cut { "; the first, then those around the cursor" } else { "" }) }</caption>
                <thead><tr>
                    <th scope="col" class="n">{ "Client" }</th><th scope="col" class="n">{ "Attempt" }</th><th scope="col" class="n">{ "Sent" }</th>
                    <th scope="col" class="n">{ "Taken by the acceptor" }</th><th scope="col" class="n">{ "Acceptor wait" }</th>
                    <th scope="col" class="n">{ "Throttle" }</th><th scope="col" class="n">{ "Closed or ready" }</th>
                </tr></thead>
                <tbody>
                    if n == 0 { <tr><td class="wide" colspan="7">{ "No connection was attempted." }</td></tr> }
                    { for rows.iter().enumerate().map(|(k, r)| match *r {
                        RequestRow::Request(i) => row(i, &c.attempts[i]),
                        RequestRow::Gap(m) => html! {
                            <tr class="gap" data-testid="connects-attempts-gap"><td class="wide" colspan="7">{ gap_text(m, k + 1 == rows.len()) }</td></tr>
                        },
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// A gap row's words: `… 12 more attempts …`, or at the end `… and 12
/// more attempts`.
fn gap_text(m: usize, last: bool) -> String {
    let more = format!("{} more {}", model::grouped(m as u64), if m == 1 { "attempt" } else { "attempts" });
    if last {
        format!("… and {more}")
    } else {
        format!("… {more} …")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson() -> Timeline {
        crate::model::simulate(&crate::presets::lesson(9).unwrap().scenario()).unwrap()
    }

    #[test]
    fn the_limits_line_names_both_rates() {
        let t = lesson();
        let c = &t.connects[0];
        assert_eq!(
            limits_line(c),
            "connection_creation_rate 2/s on ips/10.0.0.9 · max.connection.creation.rate unlimited on broker 0 · pool: 30 connections opened · from 10.0.0.9 to broker 0"
        );
        assert_eq!(gap_text(9_992, true), "… and 9,992 more attempts");
        assert_eq!(gap_text(1, false), "… 1 more attempt …");
    }

    #[test]
    fn the_ready_line_steps_at_each_ready_time_and_the_held_sockets_follow_the_cursor() {
        let t = lesson();
        let c = &t.connects[0];
        let pts = charts::ready_steps(c, t.end_ms);
        assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
        assert_eq!(pts.first(), Some(&(0.0, 0.0)));
        assert_eq!(pts.last().map(|p| p.1), Some(30.0));
        // 20 ready within the first 21 ms, then one more at about 575 ms.
        let at = |ms: f64| pts.iter().filter(|p| p.0 <= ms).map(|p| p.1).fold(0.0, f64::max);
        assert_eq!(at(21.0), 20.0);
        assert_eq!(at(500.0), 20.0);
        assert_eq!(at(600.0), 21.0);
        // The 10 refused at first are held from 20-29 ms to about 530 ms.
        assert_eq!(charts::held_at(c, 10.0), 0);
        assert_eq!(charts::held_at(c, 100.0), 10);
        assert_eq!(charts::held_at(c, 529.0), 10);
        assert_eq!(charts::held_at(c, 531.0), 0);
    }
}
