//! The resolution panel: for each quota type the eight-rung ladder with the
//! matched rung, why each other rung did not apply, the effective limit, who
//! shares the budget, and the broker's MBean names; several connections side
//! by side. Beside each ladder: a "Make this apply" form (what to set so the
//! connection gets a wanted limit, [`model::advise`]), "Did you mean…" notes
//! for quotas one edit away ([`model::near_miss_notes`]), and for
//! `request_percentage` the share of the broker's thread capacity
//! ([`model::capacity_of`]). The wording is the model's; this file lays it out.

use quota_engine::advice::Scope;
use quota_engine::resolve::{ClientIdentity, NotApplicable, Resolution, RungOutcome};
use quota_engine::{QuotaKey, QuotaType};
use yew::prelude::*;

use super::{event_value, PanelBox};
use crate::ctx::use_scene;
use crate::model;
use crate::platform;
use crate::state::Action;

fn outcome_badge(o: &RungOutcome) -> (&'static str, String) {
    match o {
        RungOutcome::Applies => ("applies", "applies".to_owned()),
        RungOutcome::NotConfigured => ("none", "not configured".to_owned()),
        RungOutcome::Shadowed { by } => ("shadowed", format!("shadowed by rung {}", by.number())),
        RungOutcome::NotApplicable { why: NotApplicable::EmptyClientId } => ("na", "not applicable: empty client-id".to_owned()),
        RungOutcome::NotApplicable { why: NotApplicable::EmptyUser } => ("na", "not applicable: empty user".to_owned()),
        RungOutcome::SkippedBySingleLevel { .. } => ("na", "not looked at".to_owned()),
        RungOutcome::ExcludedByTags => ("na", "not consulted".to_owned()),
    }
}

/// Connections with a checkbox each; more get a search box.
const COMPARE_ALL: usize = 8;
/// Matches listed at once under the search box.
const COMPARE_SHOWN: usize = 20;

#[function_component(ResolutionPanel)]
pub(crate) fn resolution_panel() -> Html {
    let ctx = use_scene();
    let s = &ctx.state.scenario;
    let shown: Vec<usize> = if ctx.state.compare.is_empty() {
        vec![ctx.state.selected as usize]
    } else {
        ctx.state.compare.iter().map(|i| *i as usize).collect()
    };
    let shown: Vec<usize> = shown.into_iter().filter(|i| *i < s.connections.len()).collect();
    let d = ctx.state.dispatcher();
    // Up to COMPARE_ALL connections get a checkbox each; beyond, a search
    // box lists the matches (at most COMPARE_SHOWN) so hundreds stay usable.
    let filter = use_state(String::new);
    let many = s.connections.len() > COMPARE_ALL;
    let needle = filter.to_lowercase();
    let matches: Vec<usize> = s
        .connections
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            !many
                || ctx.state.compare.contains(&(*i as u32))
                || (!needle.is_empty() && (c.name.to_lowercase().contains(&needle) || c.client_id.to_lowercase().contains(&needle)))
        })
        .map(|(i, _)| i)
        .collect();
    let hidden = matches.len().saturating_sub(COMPARE_SHOWN);
    let chooser = html! {
        <fieldset class="compare">
            <legend>{ "Compare connections side by side" }</legend>
            if many {
                <label class="compare-search">{ format!("Find among {} connections (name or client.id) ", s.connections.len()) }
                    <input type="search" value={(*filter).clone()} placeholder="e.g. app-1"
                        oninput={let filter = filter.clone(); move |e: InputEvent| filter.set(super::event_value(&e))} />
                </label>
            }
            { for matches.iter().take(COMPARE_SHOWN).map(|i| {
                let (i, c) = (*i, &s.connections[*i]);
                let d = d.clone();
                html! {
                    <label class="check">
                        <input type="checkbox" checked={ctx.state.compare.contains(&(i as u32))}
                            onchange={move |_| d.dispatch(Action::ToggleCompare(i as u32))} />
                        { format!(" {}", c.name) }
                    </label>
                }
            }) }
            if hidden > 0 { <p class="msg hint">{ format!("{hidden} more match: type more of the name to narrow the list.") }</p> }
        </fieldset>
    };
    let resolutions: Vec<(usize, Option<[Resolution; 4]>)> = shown.iter().map(|i| (*i, ctx.analysis.resolve(*i))).collect();
    let store = ctx.analysis.cluster.store();
    let settings = ctx.analysis.cluster.settings();
    let threads = (settings.num_io_threads, settings.num_network_threads);
    let identity = |i: usize| -> Option<ClientIdentity> {
        match ctx.analysis.principals.get(i) {
            Some(Ok(p)) => Some(ClientIdentity::new(&p.principal.name, &s.connections[i].client_id)),
            _ => None,
        }
    };
    let empty_notes: Vec<(String, String)> = shown
        .iter()
        .filter_map(|i| model::empty_client_id_note(&s.connections[*i].client_id).map(|n| (s.connections[*i].name.clone(), n)))
        .collect();
    html! {
        <PanelBox id="resolution" title="Resolution"
            subtitle="Which quota applies to each connection, rung by rung, as the broker's quota managers decide it.">
            <p class="msg hint scope-note" data-testid="scope-note">{ model::CUSTOM_CLASSES_NOTE }</p>
            if s.connections.len() > 1 { { chooser } }
            <div class="who-row" style={format!("--cols: {}", resolutions.len())}>
                { for resolutions.iter().map(|(i, _)| {
                    let c = &s.connections[*i];
                    let who = match ctx.analysis.principals.get(*i) {
                        Some(Ok(p)) => format!("{} · client.id {}", p.principal, model::client_id_text(&c.client_id)),
                        // The first sentence of why: "Kafka closes this connection", or a
                        // certificate DN Java cannot read.
                        Some(Err(why)) => format!("no principal: {}", why.split(". ").next().unwrap_or(why).trim_end_matches('.')),
                        None => String::new(),
                    };
                    html! { <div class="who"><h3>{ c.name.clone() }</h3><p>{ who }</p></div> }
                }) }
            </div>
            { for empty_notes.iter().map(|(name, note)| html! {
                <p class="msg hint scope-note" data-testid="empty-client-id-note">{ format!("{name}: {note}") }</p>
            }) }
            // An embed trimmed to one quota type (`?quota=`) shows its ladders only.
            { for QuotaType::ALL.iter().enumerate().filter(|(_, qt)| ctx.trim.key.is_none_or(|k| k == qt.key())).map(|(slot, qt)| html! {
                <section class="qtype" aria-label={model::quota_type_label(*qt)}>
                    <h3 class="qtype-title">{ model::quota_type_label(*qt) }</h3>
                    <div class="ladders" style={format!("--cols: {}", resolutions.len())}>
                        { for resolutions.iter().map(|(i, r)| match r {
                            Some(r) => {
                                let near = identity(*i).map(|c| model::near_miss_notes(store, &c, *qt)).unwrap_or_default();
                                let capacity = match (&r[slot].matched, *qt) {
                                    (Some(m), QuotaType::Request) => Some(model::capacity_of(m.value, threads)),
                                    _ => None,
                                };
                                ladder(&r[slot], &ctx.analysis.sharers(s, *i, *qt), *i, &near, capacity)
                            }
                            None => html! { <p class="msg error">{ "No principal, so no quota can be resolved." }</p> },
                        }) }
                    </div>
                </section>
            }) }
            if ctx.trim.key.is_none_or(|k| k == quota_engine::QuotaKey::ConnectionCreationRate) {
            <section class="qtype" aria-label="connection_creation_rate">
                <h3 class="qtype-title">{ "Connections (connection_creation_rate, per IP)" }</h3>
                <div class="ladders" style={format!("--cols: {}", resolutions.len())}>
                    { for resolutions.iter().map(|(i, _)| {
                        let ip = &s.connections[*i].ip;
                        let text = match ctx.analysis.ip_rate(s, ip.as_str()) {
                            Some((e, v)) => format!("{ip}: {} new connections/s per broker from {}{}", quota_engine::java_double_to_string(v), model::entity_path(&e),
                                if v.is_nan() { format!("; {}", quota_engine::resolve::human::NAN_CONNECTION_RATE) } else { String::new() }),
                            None => format!("{ip}: unlimited (no ips quota matches)"),
                        };
                        html! { <p class="iprate">{ text }</p> }
                    }) }
                </div>
            </section>
            }
        </PanelBox>
    }
}

fn ladder(r: &Resolution, sharers: &[String], conn: usize, near: &[String], capacity: Option<(String, Option<String>)>) -> Html {
    let key: QuotaKey = r.key();
    let limit = match &r.matched {
        Some(m) => html! {
            <p class="limit" data-testid={format!("limit-{}-{}", conn, r.quota_type.metric_type())}>
                <strong>{ model::readable_limit(key, m.value) }</strong>
                { format!(" from {} (rung {})", model::entity_path(&m.entity), m.rung.number()) }
            </p>
        },
        None if !r.quotas_enabled() => html! {
            <p class="limit none" data-testid={format!("limit-{}-{}", conn, r.quota_type.metric_type())}>
                { format!("Not metered: no {key} quota exists anywhere.") }
            </p>
        },
        None => html! {
            <p class="limit none" data-testid={format!("limit-{}-{}", conn, r.quota_type.metric_type())}>
                { "Unlimited: no configured rung applies (bound Long.MAX_VALUE)." }
            </p>
        },
    };
    let skipped = r.trace.iter().find_map(|c| match c.outcome {
        RungOutcome::SkippedBySingleLevel { enabled } => Some(enabled),
        _ => None,
    });
    let rungs = html! {
        <ol class="ladder">
            { for r.trace.iter().map(|c| {
                let (class, badge) = outcome_badge(&c.outcome);
                let applies = c.outcome == RungOutcome::Applies;
                let show_reason = !matches!(c.outcome, RungOutcome::NotConfigured | RungOutcome::SkippedBySingleLevel { .. });
                html! {
                    <li class={classes!("rung", class)} aria-current={applies.then_some("true")} data-rung={c.rung.number().to_string()}>
                        <span class="n" aria-hidden="true">{ c.rung.number() }</span>
                        <span class="what">
                            <code>{ model::entity_path(&c.entity) }</code>
                            if let Some(v) = c.configured { <span class="val">{ format!(" = {}", quota_engine::java_double_to_string(v)) }</span> }
                            <span class={classes!("badge", class)}>{ badge }</span>
                            if show_reason { <span class="why">{ model::rung_reason(&c.entity, &c.reason) }</span> }
                            if let Some(note) = model::literal_default_note(&c.entity) { <span class="why literal-default">{ note }</span> }
                        </span>
                    </li>
                }
            }) }
        </ol>
    };
    let metric = r.quota_type.metric_type();
    html! {
        <div class="ladder-box" data-testid={format!("ladder-{}-{}", conn, metric)}>
         <div class="ladder-grid">
          <div class="ladder-main">
            { limit }
            if let Some((summary, warning)) = &capacity {
                <p class="msg hint capacity" data-testid={format!("capacity-{conn}")}>{ summary.clone() }</p>
                if let Some(w) = warning { <p class="msg warn" role="note" data-testid={format!("capacity-warning-{conn}")}>{ "⚠ " }{ w.clone() }</p> }
            }
            if let Some(kind) = skipped {
                <p class="ladder-note">{ format!(
                    "Only {kind} quotas exist for {key}, so Kafka fixes the metric tags by that level and does not look at the rungs marked 'not looked at'."
                ) }</p>
            }
            if r.quotas_enabled() { { rungs } }
            else { <details class="ladder-more"><summary>{ "Show the eight rungs (none configured)" }</summary>{ rungs }</details> }
            if let Some(tags) = &r.metric_tags {
                <dl class="budget">
                    <dt>{ "Shares this budget" }</dt>
                    <dd>{ if sharers.is_empty() { "no other connection in this scenario".to_owned() } else { sharers.join(", ") } }</dd>
                    <dt>{ "Metric tags" }</dt>
                    <dd><code>{ tags.to_string() }</code></dd>
                    // Controller mutations are metered by the active controller.
                    <dt>{ if r.quota_type == QuotaType::ControllerMutation { "MBean (on the active controller)" } else { "Broker MBean" } }</dt>
                    <dd><code class="mbean">{ tags.mbean_name(r.quota_type) }</code></dd>
                    <dt>{ "Sensors" }</dt>
                    <dd><code>{ tags.sensor_name(r.quota_type) }</code>{ ", " }<code>{ tags.throttle_sensor_name(r.quota_type) }</code></dd>
                </dl>
            }
            if !near.is_empty() {
                <div class="near-misses" data-testid={format!("near-misses-{conn}-{metric}")}>
                    <p class="near-title">{ "Did you mean…" }</p>
                    <ul>{ for near.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                </div>
            }
          </div>
            <MakeApply key={format!("{conn}-{metric}")} {conn} quota_type={r.quota_type} />
         </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct MakeApplyProps {
    conn: usize,
    quota_type: QuotaType,
}

/// "Make this apply": a wanted limit and whom it must reach; the answer is
/// computed only when the wanted value is valid, and again only when the
/// quotas, the connection's identity, the other connections, the thread
/// settings or the form change ([`model::AdviceQuery`]).
#[function_component(MakeApply)]
fn make_apply(p: &MakeApplyProps) -> Html {
    let ctx = use_scene();
    let want = use_state(String::new);
    let scope = use_state(|| Scope::Connections);
    let copied = use_state(|| None::<(u8, bool)>);
    let key = p.quota_type.key();
    let metric = p.quota_type.metric_type();
    let s = &ctx.state.scenario;
    let parsed = (!want.trim().is_empty()).then(|| model::parse_want(key, &want));
    let identity = |i: usize| match ctx.analysis.principals.get(i) {
        Some(Ok(pr)) => s.connections.get(i).map(|c| ClientIdentity::new(&pr.principal.name, &c.client_id)),
        _ => None,
    };
    let query = match (&parsed, identity(p.conn)) {
        (Some(Ok(v)), Some(connection)) => {
            let settings = ctx.analysis.cluster.settings();
            Some(model::AdviceQuery {
                store: ctx.analysis.cluster.store().clone(),
                connection,
                others: (0..s.connections.len())
                    .filter(|j| *j != p.conn)
                    .filter_map(|j| identity(j).map(|c| (s.connections[j].name.clone(), c)))
                    .collect(),
                quota_type: p.quota_type,
                want: *v,
                scope: *scope,
                threads: (settings.num_io_threads, settings.num_network_threads),
            })
        }
        _ => None,
    };
    let advice = use_memo(query, |q| q.as_ref().map(model::advise));
    let id = format!("want-{}-{metric}", p.conn);
    let scope_id = format!("scope-{}-{metric}", p.conn);
    let on_want = {
        let (want, copied) = (want.clone(), copied.clone());
        Callback::from(move |e: InputEvent| {
            want.set(event_value(&e));
            copied.set(None);
        })
    };
    let on_scope = {
        let scope = scope.clone();
        Callback::from(move |e: Event| scope.set(model::scope_from_value(&event_value(&e))))
    };
    let err = match &parsed {
        Some(Err(m)) => Some(m.clone()),
        _ => None,
    };
    let err_id = format!("{id}-err");
    let proposal = |pv: &model::ProposalView, best: bool| {
        let cmd_id = format!("cmd-{}-{metric}-{}", p.conn, pv.rung);
        let copy = {
            let (copied, text, rung, cmd_id) = (copied.clone(), pv.command.clone(), pv.rung, cmd_id.clone());
            Callback::from(move |_| {
                let copied = copied.clone();
                platform::copy_with_fallback(&text, &cmd_id, move |ok| copied.set(Some((rung, ok))));
            })
        };
        let done = copied.filter(|(r, _)| *r == pv.rung).map(|(_, ok)| {
            if ok { "The command is on the clipboard." } else { "The command is selected: press Ctrl+C to copy it." }
        });
        html! {
            <div class={classes!("proposal", best.then_some("best"))} data-testid={if best { format!("proposal-best-{}-{metric}", p.conn) } else { format!("proposal-{}-{metric}-{}", p.conn, pv.rung) }} data-rung={pv.rung.to_string()}>
                if !best { <p class="proposal-sentence">{ pv.sentence.clone() }</p> }
                <div class="copy-row">
                    <textarea id={cmd_id} class="command" readonly={true} rows={(pv.command.len() / 48 + 1).clamp(3, 6).to_string()} spellcheck="false"
                        aria-label={format!("kafka-configs.sh command setting {} on {}", key, pv.entity)} value={pv.command.clone()} />
                    <button type="button" class="ghost" onclick={copy} aria-label={format!("Copy the command for {}", pv.entity)}>{ "Copy" }</button>
                </div>
                if let Some(d) = done { <p class="msg ok" aria-live="polite">{ d }</p> }
                <ul class="proposal-facts">
                    if !pv.covers.is_empty() { <li>{ format!("Also covers {}.", pv.covers.join(", ")) }</li> }
                    { for pv.shadows.iter().map(|t| html! { <li><span class="fact">{ "Shadows: " }</span>{ t.clone() }</li> }) }
                    { for pv.shadowed_by.iter().map(|t| html! { <li><span class="fact">{ "Shadowed by: " }</span>{ t.clone() }</li> }) }
                    { for pv.notes.iter().map(|t| html! { <li>{ t.clone() }</li> }) }
                </ul>
            </div>
        }
    };
    let body = match (&*advice, &parsed) {
        (Some(a), _) => html! {
            <div class="advice-answer" aria-live="polite">
                <p class="answer-line" data-testid={format!("advice-answer-{}-{metric}", p.conn)}>{ a.answer.clone() }</p>
                if let Some(b) = &a.best { { proposal(b, true) } }
                <p class="msg hint">{ a.today.clone() }</p>
                if let Some((summary, warning)) = &a.capacity {
                    <p class="msg hint">{ summary.clone() }</p>
                    if let Some(w) = warning { <p class="msg warn" role="note">{ "⚠ " }{ w.clone() }</p> }
                }
                if !a.others.is_empty() || !a.not_proposed.is_empty() {
                    <details class="all-proposals">
                        <summary>{ format!("Show all proposals ({} more, {} rungs not proposed)", a.others.len(), a.not_proposed.len()) }</summary>
                        { for a.others.iter().map(|o| proposal(o, false)) }
                        if !a.not_proposed.is_empty() {
                            <p class="near-title">{ "Not proposed" }</p>
                            <ul class="proposal-facts">{ for a.not_proposed.iter().map(|r| html! { <li>{ r.clone() }</li> }) }</ul>
                        }
                    </details>
                }
            </div>
        },
        (None, Some(Ok(_))) => html! { <p class="msg hint">{ "This connection has no principal, so no quota can apply to it." }</p> },
        _ => html! {},
    };
    html! {
        <div class="advice" data-testid={format!("advice-{}-{metric}", p.conn)}>
            <p class="near-title">{ "Make this apply" }</p>
            <div class="advice-form">
                <div class={classes!("field", "num", err.is_some().then_some("invalid"))}>
                    <label for={id.clone()}>{ format!("Wanted {key}") }</label>
                    <span class="with-unit">
                        <input id={id.clone()} type="text" inputmode="decimal" value={(*want).clone()} oninput={on_want}
                            autocomplete="off" spellcheck="false" placeholder={if matches!(key, QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate) { "e.g. 10MB" } else { "e.g. 200" }}
                            aria-invalid={err.is_some().to_string()} aria-describedby={err.as_ref().map(|_| err_id.clone())} />
                        <span class="unit" aria-hidden="true">{ model::unit_of(key) }</span>
                    </span>
                </div>
                <div class="field">
                    <label for={scope_id.clone()}>{ "For" }</label>
                    <select id={scope_id} onchange={on_scope}>
                        { for model::SCOPES.iter().map(|(v, l, sc)| html! { <option value={*v} ~selected={*sc == *scope}>{ *l }</option> }) }
                    </select>
                </div>
            </div>
            if let Some(e) = err { <p id={err_id} class="msg error" role="alert">{ e }</p> }
            { body }
        </div>
    }
}
