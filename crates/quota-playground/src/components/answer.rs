//! The answer first: at the top of the page (and alone in `?embed=answer`),
//! one sentence per connection saying what limits it per quota type, from
//! which entity and rung, shared with whom, and what a per-broker byte rate
//! means for the cluster; a link opens that connection's ladder for the why.
//! The sentences come from [`model::answers`].

use yew::prelude::*;

use super::{PanelBox, Run};
use crate::ctx::{use_ctx, use_scene};
use crate::model;
use crate::state::Action;

/// Connections answered in full before the rest are summed up in a line.
const SHOWN: usize = 12;

#[function_component(AnswerPanel)]
pub(crate) fn answer_panel() -> Html {
    let ctx = use_scene();
    let s = &ctx.state.scenario;
    let answers = model::first_answers(s, &ctx.analysis, SHOWN);
    let more = s.connections.len().saturating_sub(SHOWN);
    let d = ctx.state.dispatcher();
    let embedded = ctx.embed.is_some();
    // An embed trimmed to one quota type (`?quota=`) says that one only.
    let only = ctx.trim.key;
    html! {
        <PanelBox id="answer" title="Answer"
            subtitle="Which quota applies to each connection, and where it is enforced; the Resolution panel shows why, rung by rung.">
            if let Some(note) = model::events_note(s) { <p class="msg hint">{ note }</p> }
            if answers.is_empty() {
                <p class="msg">{ "Add a connection to see which quotas apply to it." }</p>
            }
            <ul class="answers">
                { for answers.iter().enumerate().map(|(i, a)| {
                    let d = d.clone();
                    let why = Callback::from(move |e: MouseEvent| {
                        e.prevent_default();
                        d.dispatch(Action::Select(i as u32));
                        crate::ctx::reveal(crate::ctx::Panel::Resolution);
                    });
                    html! {
                        <li class="answer">
                            <strong class="answer-who">{ a.connection.clone() }</strong>
                            { format!(" ({})", a.who) }
                            if !a.clauses.is_empty() { { ": " } }
                            { for a.clauses_of(only).into_iter().map(|c| html! { <span class="answer-clause">{ format!("{c} ") }</span> }) }
                            if !embedded && !a.clauses.is_empty() {
                                <a href="#/resolution" class="answer-why" onclick={why}>{ "Why?" }</a>
                            }
                            // The principal's warnings (the Connection panel's), e.g.
                            // a named-user quota that User:ANONYMOUS never gets.
                            { for warnings(&ctx, i).into_iter().map(|w| html! { <p class="msg warn answer-note" role="note" data-testid="answer-warning">{ "⚠ " }{ w }</p> }) }
                        </li>
                    }
                }) }
            </ul>
            if more > 0 {
                <p class="msg">{ format!("… and {more} more connections: pick one in the Connection panel to see its answer and ladder.") }</p>
            }
            <RunLoss />
        </PanelBox>
    }
}

/// Under the answers, the run's outcome: the outcome sentence
/// ([`model::run_outcome`], as above the Simulation panel's transport)
/// with "loses records", "loses no records" or "loses no records, but not
/// every client finished", or why the engine refused to run the scenario
/// (nothing when the scenario has no producer or consumer); before the run is computed (on the full page, once
/// the Simulation or Cluster and time panel comes near the viewport; in an
/// embed of the Answer, at once), a line saying so with "Simulate now". A
/// component of its own: it follows the run, which the answers above do not read.
#[function_component(RunLoss)]
fn run_loss() -> Html {
    let ctx = use_ctx();
    let outcome = use_memo(Run(ctx.sim.clone()), |run| {
        run.0.result.as_ref().ok().map(|t| {
            // Records lost by a producer or consumer, or only an Admin
            // client's topics failed: said differently.
            let records = t.clients.iter().any(|c| c.outcome.failed_records() > 0);
            (model::run_outcome(t), records)
        })
    });
    // No producer or consumer: there is no run to speak of, and the answers
    // above are the whole answer (an Answer widget of a docs page is
    // usually just that); the Simulation panel says how to add one.
    if ctx.state.scenario.workloads.is_empty() {
        return html! {};
    }
    if ctx.sim.waiting && !ctx.updating {
        // Not simulated yet (the simulator loads when a panel of the run
        // comes near): say so rather than let silence read as "no loss".
        return html! {
            <p class="msg hint" data-testid="answer-run-pending">
                { "Whether the run delivers every record shows here once it is simulated (when you reach the Simulation panel). " }
                <button type="button" class="ghost" data-testid="simulate-now" onclick={Callback::from(|_| crate::sim_view::want_now())}>{ "Simulate now" }</button>
            </p>
        };
    }
    let stale = ctx.updating.then_some("stale");
    let before = || if ctx.updating { " (the run before the last edit; the new one is being computed)" } else { "" };
    let Some((o, records_lost)) = (*outcome).as_ref() else {
        // The engine refused to run the scenario (a producer Kafka would not
        // create, say): the answers above stand, but the run does not exist.
        return match &ctx.sim.result {
            Err(e) if !ctx.sim.waiting => html! {
                <p class={classes!("msg", "error", "answer-loss", stale)} data-testid="answer-run-error">
                    { "⚠ The run cannot be simulated: " }{ e.clone() }{ before() }
                </p>
            },
            _ => html! {},
        };
    };
    if o.class == "done" {
        // Said as plainly as a loss: "Simulate now" must lead somewhere.
        return html! {
            <p class={classes!("msg", "ok", "answer-loss", stale)} data-testid="answer-run-ok">
                { "✓ The simulated run loses no records. " }{ o.text.clone() }{ before() }
            </p>
        };
    }
    if o.class != "failed" {
        // Nothing lost, but not everything sent or read by the run's end.
        return html! {
            <p class={classes!("msg", "warn", "answer-loss", stale)} data-testid="answer-run-partial">
                { "⚠ The simulated run loses no records, but not every client finished. " }{ o.text.clone() }{ before() }
            </p>
        };
    }
    let see = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        // Focus follows, as after a link to the panel: the keyboard
        // shortcuts then act on the run.
        crate::ctx::reveal(crate::ctx::Panel::Simulation);
    });
    html! {
        <p class={classes!("msg", "error", "answer-loss", stale)} data-testid="answer-run-outcome"
            title={(!o.detail.is_empty()).then(|| o.detail.clone())}>
            { if *records_lost { "⚠ The simulated run loses records. " } else { "⚠ In the simulated run, Admin calls' topics fail. " } }{ o.text.clone() }{ before() }
            if ctx.embed.is_none() { { " " }<a href="#/simulation" onclick={see}>{ "See the run" }</a> }
        </p>
    }
}

/// The warnings of connection `i`'s principal
/// (`Cluster::principal_warnings`), as the Connection panel shows them.
fn warnings(ctx: &crate::ctx::Ctx, i: usize) -> Vec<String> {
    match ctx.analysis.principals.get(i) {
        Some(Ok(o)) => ctx.analysis.cluster.principal_warnings(o),
        _ => Vec::new(),
    }
}
