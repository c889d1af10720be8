//! The Cluster panel: the scenario editor for the cluster and for time
//! ([`super::scenario_editor`]), then the cluster view at the cursor: each
//! client's per-broker limit times the brokers leading its partitions, the
//! produce and fetch budgets side by side per broker (bound, measured rate,
//! throttles), and the bytes each client and each budget moved per broker
//! and over the cluster ([`model::budget_rows`], [`model::client_rows`]).


use quota_engine::resolve::UNLIMITED_BOUND;
use quota_engine::sim::{ClientKind, Timeline};
use yew::prelude::*;

use super::scenario_editor::ScenarioEditor;
use super::{in_short_list, show_all_line, PanelBox, Run};
use crate::ctx::use_ctx;
use crate::model;

#[function_component(ClusterPanel)]
pub(crate) fn cluster_panel() -> Html {
    let ctx = use_ctx();
    let focused = ctx.sim.result.as_ref().ok().map_or(0, |t| model::focus(t, ctx.state.focus_client, ctx.state.focus_sensor).0);
    html! {
        <PanelBox id="cluster" title="Cluster and time"
            subtitle="Brokers, topics and partition leaders, events during the run, and when each client starts and stops; then what each broker metered. Kafka enforces client quotas per broker: a client whose partitions are led by n brokers can get up to n times its quota from the cluster.">
            <ScenarioEditor />
            <ClusterView run={Run(ctx.sim.clone())} cursor_ms={ctx.state.cursor_ms} focused={focused} />
        </PanelBox>
    }
}

fn breakable(name: &str) -> Html {
    html! { for model::break_points(name).into_iter().map(|part| html! { <>{ part.to_owned() }<wbr /></> }) }
}

fn rate_text(v: f64) -> String {
    if v >= UNLIMITED_BOUND {
        "unlimited".to_owned()
    } else {
        model::fmt_rate(v)
    }
}

/// The state at `cursor` (ms) of client `client` (its index in
/// [`Timeline::clients`]) as the clients table words it: a client that lost
/// records names the exception, never "done" ([`model::client_status`]).
fn outcome(t: &Timeline, client: u32, cursor: f64) -> Html {
    let Some(c) = t.clients.get(client as usize) else { return html! { <td></td> } };
    let st = model::client_status(c, cursor, t.end_ms);
    html! {
        <td class={format!("state {}", st.class)} data-testid={format!("cluster-state-{}", c.name)}
            title={(!st.detail.is_empty()).then(|| st.detail.clone())}>{ st.text }</td>
    }
}

/// How far the budget meter reaches, as a multiple of the quota: the bar
/// is full at 1.5 × quota, so a rate over the quota shows past the mark.
const METER_SPAN: f64 = 1.5;

/// The budget meter of broker `b`: the measured `rate` against the quota
/// `bound` (bytes/s), on a scale from 0 to [`METER_SPAN`] × quota with a
/// mark at the quota, labelled 0, the quota and the full bar's rate.
fn budget_meter(b: usize, bound: f64, rate: f64) -> Html {
    let max = bound * METER_SPAN;
    let mark = format!("left: {:.3}%", 100.0 / METER_SPAN);
    html! {
        <div class="budget-meter" data-testid="budget-meter">
            <div class="meter-track">
                <meter min="0" max={format!("{max:.0}")} high={format!("{bound:.0}")} value={format!("{rate:.0}")}
                    aria-label={format!("Broker {b}: measured {} of quota {}; the full bar is {}", model::fmt_rate(rate), rate_text(bound), model::fmt_rate(max))} />
                <span class="meter-mark" style={mark.clone()} aria-hidden="true"></span>
            </div>
            <div class="meter-scale" aria-hidden="true">
                <span class="meter-zero" data-testid="meter-zero">{ "0" }</span>
                <span class="meter-quota" style={mark} data-testid="meter-quota" title="the quota">{ model::fmt_rate(bound) }</span>
                <span class="meter-max" data-testid="meter-max" title={format!("the full bar: {METER_SPAN} × the quota")}>{ model::fmt_rate(max) }</span>
            </div>
        </div>
    }
}

/// What the cluster view shows: a run at a cursor. Props rather than the
/// context, so that typing elsewhere (a new revision, the same run while
/// the worker computes) skips the view and its hundreds of nodes entirely.
#[derive(Properties, PartialEq)]
struct ClusterViewProps {
    /// The run on screen.
    run: Run,
    /// The cursor (ms of simulated time).
    cursor_ms: f64,
    /// The client in the charts (its index in the run's clients): listed
    /// even when the lists are shortened.
    focused: usize,
}

#[function_component(ClusterView)]
fn cluster_view(p: &ClusterViewProps) -> Html {
    let all = use_state(|| false);
    let handle = all.clone();
    // The clients table's cursor-free part (which sensors meter whom), kept
    // for the run: a playback tick reads it at the new cursor.
    let table = use_memo(p.run.clone(), |run| run.0.result.as_ref().ok().map(model::client_table));
    let (cursor, focused) = (p.cursor_ms, p.focused);
    let html = use_memo((p.run.clone(), cursor.to_bits(), *all, focused), move |(run, _, _, _)| {
        match (&run.0.result, table.as_ref()) {
            // No run yet: it is being computed, or will be once a panel of
            // the run comes near (the Simulation panel says which).
            (Err(_), _) if run.0.waiting => html! {
                <p class="msg hint" data-testid="cluster-view-empty">{ "The cluster view shows the run, which is simulated when this panel or the Simulation panel comes into view." }</p>
            },
            (Err(e), _) => html! {
                <p class="msg" data-testid="cluster-view-empty">{ format!("The cluster view shows a run; there is none: {e}") }</p>
            },
            (Ok(t), Some(table)) => view(t, table, cursor.min(t.end_ms), focused, &handle),
            (Ok(t), None) => view(t, &model::client_table(t), cursor.min(t.end_ms), focused, &handle),
        }
    });
    (*html).clone()
}

/// The cluster view of run `t` at `cursor` (ms): the sentences per client,
/// the budgets per broker, the bytes per client; the client lists shortened
/// to [`in_short_list`] unless `all`.
fn view(t: &Timeline, table: &model::ClientTable, cursor: f64, focused: usize, all: &UseStateHandle<bool>) -> Html {
    if t.clients.is_empty() {
        // Admin clients or connections only: no bytes, no produce or fetch
        // budget; their controller_mutation_rate bucket and connection rates
        // are in the Simulation panel.
        let mut where_ = Vec::new();
        if !t.admin.is_empty() {
            where_.push(format!(
                "Its {} under controller_mutation_rate {} shown in the Simulation panel, under Admin clients.",
                model::count_of(t.admin.len() as u64, "Admin client", "Admin clients"),
                if t.admin.len() == 1 { "is" } else { "are" }
            ));
        }
        if !t.connects.is_empty() {
            where_.push(format!(
                "Its {} under connection_creation_rate and max.connection.creation.rate {} shown in the Simulation panel, under Connections.",
                model::count_of(t.connects.len() as u64, "connects workload", "connects workloads"),
                if t.connects.len() == 1 { "is" } else { "are" }
            ));
        }
        return html! {
            <div class="cluster-view" data-testid="cluster-view">
                <h3>{ format!("The cluster at {}", model::fmt_ms(cursor)) }</h3>
                <p class="msg" data-testid="cluster-no-clients">{ format!(
                    "This run has no producer or consumer, so no bytes move through the brokers' produce and fetch budgets. {}",
                    where_.join(" ")
                ) }</p>
            </div>
        };
    }
    let brokers = t.brokers.len().max(t.totals.brokers as usize).max(1);
    let budgets = model::budget_rows(t, cursor);
    let mut clients = table.at(t, cursor);
    let total = clients.len();
    // Hidden unless "Show all" (the line under the lists says how many).
    let hidden = clients.iter().filter(|c| !in_short_list(c.client as usize, focused)).count();
    if !**all {
        clients.retain(|c| in_short_list(c.client as usize, focused));
    }
    let head = html! {
        { for (0..brokers).map(|b| html! { <th scope="col">{ format!("Broker {b}") }</th> }) }
    };
    html! {
        <div class="cluster-view" data-testid="cluster-view">
            <h3>{ format!("The cluster at {}", model::fmt_ms(cursor)) }</h3>
            <ul class="cluster-sentences">
                { for clients.iter().map(|c| html! {
                    <li data-testid="cluster-sentence" data-client={c.name.clone()}
                        data-per-broker={c.per_broker.map(|v| format!("{v:.0}"))}
                        data-brokers={c.brokers.to_string()}
                        data-cluster-limit={c.per_broker.map(|v| format!("{:.0}", v * c.brokers.max(1) as f64))}
                        data-avg-rate={format!("{:.0}", c.avg_rate)}>{ c.sentence.clone() }</li>
                }) }
            </ul>
            // Said under the sentences too (the same choice as the table's).
            { show_all_line(hidden, total, "client", "clients", "cluster-sentences-show-all", all) }
            if budgets.is_empty() {
                <p class="msg">{ "No produce or fetch budget was metered: no byte-rate quota applies to these clients." }</p>
            } else {
                <div class="table-wrap">
                    <table class="cluster-budgets" data-testid="cluster-budgets">
                        <caption>{ format!("Budgets per broker at {}: quota, measured rate, throttles so far; bytes of the whole run", model::fmt_ms(cursor)) }</caption>
                        <thead><tr><th scope="col">{ "Budget" }</th>{ head.clone() }<th scope="col">{ "Cluster" }</th></tr></thead>
                        <tbody>
                        { for budgets.iter().map(|r| html! {
                            <tr data-mbean={r.mbean.clone()}>
                                <th scope="row"><code>{ breakable(&r.mbean) }</code></th>
                                { for r.cells.iter().enumerate().map(|(b, c)| match c {
                                    None => html! { <td class="none" data-broker={b.to_string()}>{ "not metered" }</td> },
                                    Some(c) => html! {
                                        <td data-broker={b.to_string()} data-bound={if c.bound.is_nan() { "NaN".to_owned() } else { format!("{:.0}", c.bound.min(UNLIMITED_BOUND)) }} data-rate={format!("{:.0}", c.rate)}>
                                            <span class="cell-line">{ format!("quota {}", rate_text(c.bound)) }</span>
                                            <span class="cell-line">{ format!("measured {}", model::fmt_rate(c.rate)) }</span>
                                            if c.bound < UNLIMITED_BOUND {
                                                { budget_meter(b, c.bound, c.rate) }
                                            }
                                            <span class="cell-line">{ format!("{} so far", model::count_of(c.throttles as u64, "throttle", "throttles")) }</span>
                                            <span class="cell-line">{ format!("{} in the run", model::fmt_bytes(c.bytes as f64)) }</span>
                                        </td>
                                    },
                                }) }
                                <td class="total" data-testid="cluster-budget-total" data-rate-sum={format!("{:.0}", r.rate_sum)}
                                    data-bound-sum={r.bound_sum.map(|v| format!("{v:.0}"))}>
                                    <span class="cell-line">{ format!("quota {}", r.bound_sum.map_or("unlimited".to_owned(), |v| format!("{} ({})", model::fmt_rate(v), model::count_of(r.cells.iter().flatten().count() as u64, "broker", "brokers")))) }</span>
                                    <span class="cell-line">{ format!("measured {}", model::fmt_rate(r.rate_sum)) }</span>
                                    <span class="cell-line">{ format!("{} in the run", model::fmt_bytes(r.bytes as f64)) }</span>
                                </td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                </div>
            }
            <div class="table-wrap">
                <table class="cluster-clients" data-testid="cluster-clients">
                    <caption>{ "Bytes each client moved, per broker and over the cluster, and how it ended (the whole run)" }</caption>
                    <thead><tr><th scope="col">{ "Client" }</th>{ head }<th scope="col">{ "Cluster" }</th><th scope="col">{ "Average rate" }</th><th scope="col">{ "Outcome at the end" }</th></tr></thead>
                    <tbody>
                    { for clients.iter().map(|c| html! {
                        <tr>
                            <th scope="row">{ format!("{} ({})", c.name, if c.kind == ClientKind::Producer { "producer" } else { "consumer" }) }</th>
                            { for c.bytes_by_broker.iter().map(|b| html! { <td class="n">{ model::fmt_bytes(*b as f64) }</td> }) }
                            <td class="n">{ model::fmt_bytes(c.bytes as f64) }</td>
                            <td class="n">{ model::fmt_rate(c.avg_rate) }</td>
                            { outcome(t, c.client, t.end_ms) }
                        </tr>
                    }) }
                    </tbody>
                </table>
            </div>
            { show_all_line(hidden, total, "client", "clients", "cluster-show-all", all) }
            <p class="msg hint">{ "Measured rates are each broker's windowed rate (quota.window.num samples of quota.window.size.seconds), as its sensor sees it; the first windows allow a burst above the quota before the first throttle." }</p>
        </div>
    }
}
