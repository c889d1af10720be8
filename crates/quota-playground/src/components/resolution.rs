//! The resolution panel: for each quota type the eight-rung ladder with the
//! matched rung, why each other rung did not apply, the effective limit, who
//! shares the budget, and the broker's MBean names; several connections side
//! by side.

use quota_engine::resolve::{NotApplicable, Resolution, RungOutcome};
use quota_engine::{QuotaKey, QuotaType};
use yew::prelude::*;

use super::PanelBox;
use crate::app::use_scene;
use crate::model;
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
    let chooser = html! {
        <fieldset class="compare">
            <legend>{ "Compare connections side by side" }</legend>
            { for s.connections.iter().enumerate().map(|(i, c)| {
                let d = d.clone();
                html! {
                    <label class="check">
                        <input type="checkbox" checked={ctx.state.compare.contains(&(i as u32))}
                            onchange={move |_| d.dispatch(Action::ToggleCompare(i as u32))} />
                        { format!(" {}", c.name) }
                    </label>
                }
            }) }
        </fieldset>
    };
    let resolutions: Vec<(usize, Option<[Resolution; 4]>)> = shown.iter().map(|i| (*i, ctx.analysis.resolve(*i))).collect();
    html! {
        <PanelBox id="resolution" title="Resolution"
            subtitle="Which quota applies to each connection, rung by rung, as the broker's quota managers decide it.">
            if s.connections.len() > 1 { { chooser } }
            <div class="who-row" style={format!("--cols: {}", resolutions.len())}>
                { for resolutions.iter().map(|(i, _)| {
                    let c = &s.connections[*i];
                    let who = match ctx.analysis.principals.get(*i) {
                        Some(Ok(p)) => format!("{} · client.id {}", p.principal, if c.client_id.is_empty() { "\"\"" } else { &c.client_id }),
                        Some(Err(_)) => "no principal: Kafka closes this connection".to_owned(),
                        None => String::new(),
                    };
                    html! { <div class="who"><h3>{ c.name.clone() }</h3><p>{ who }</p></div> }
                }) }
            </div>
            { for QuotaType::ALL.iter().enumerate().map(|(slot, qt)| html! {
                <section class="qtype" aria-label={model::quota_type_label(*qt)}>
                    <h3 class="qtype-title">{ model::quota_type_label(*qt) }</h3>
                    <div class="ladders" style={format!("--cols: {}", resolutions.len())}>
                        { for resolutions.iter().map(|(i, r)| match r {
                            Some(r) => ladder(&r[slot], &ctx.analysis.sharers(s, *i, *qt), *i),
                            None => html! { <p class="msg error">{ "No principal, so no quota can be resolved." }</p> },
                        }) }
                    </div>
                </section>
            }) }
            <section class="qtype" aria-label="connection_creation_rate">
                <h3 class="qtype-title">{ "Connections (connection_creation_rate, per IP)" }</h3>
                <div class="ladders" style={format!("--cols: {}", resolutions.len())}>
                    { for resolutions.iter().map(|(i, _)| {
                        let ip = &s.connections[*i].ip;
                        let text = match ctx.analysis.ip_rate(s, ip) {
                            Some((e, v)) => format!("{ip}: {} new connections/s from {}", quota_engine::java_double_to_string(v), model::entity_path(&e)),
                            None => format!("{ip}: unlimited (no ips quota matches)"),
                        };
                        html! { <p class="iprate">{ text }</p> }
                    }) }
                </div>
            </section>
        </PanelBox>
    }
}

fn ladder(r: &Resolution, sharers: &[String], conn: usize) -> Html {
    let key: QuotaKey = r.key();
    let limit = match &r.matched {
        Some(m) => html! {
            <p class="limit" data-testid={format!("limit-{}-{}", conn, r.quota_type.metric_type())}>
                <strong>{ model::fmt_value(key, m.value) }</strong>
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
                            if show_reason { <span class="why">{ c.reason.clone() }</span> }
                        </span>
                    </li>
                }
            }) }
        </ol>
    };
    html! {
        <div class="ladder-box" data-testid={format!("ladder-{}-{}", conn, r.quota_type.metric_type())}>
            { limit }
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
                    <dt>{ "Broker MBean" }</dt>
                    <dd><code class="mbean">{ tags.mbean_name(r.quota_type) }</code></dd>
                    <dt>{ "Sensors" }</dt>
                    <dd><code>{ tags.sensor_name(r.quota_type) }</code>{ ", " }<code>{ tags.throttle_sensor_name(r.quota_type) }</code></dd>
                </dl>
            }
        </div>
    }
}
