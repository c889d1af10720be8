//! The scenario editor for the cluster and for time: brokers, topics with
//! their partitions and leaders, the events placed on the run's time line
//! (leadership moves, quota alterations), and each client's start and stop
//! times, kind and `acks`.
//!
//! Every field is checked by the engine before it is committed
//! ([`model::ClusterEdit::refusal`], which asks `Scenario::validate`): a
//! refused value stays in the field as typed, with the engine's message and
//! the path it names beside it. Problems the scenario has for another
//! reason (a leader left on a broker that no longer exists after the broker
//! count went down) are listed under the topic or event they belong to.

use quota_engine::sim::{Acks, ClientThrottling, Scenario, ScenarioEvent, ScenarioProblem, Workload};
use quota_engine::QuotaKey;
use yew::prelude::*;

use super::{NumberField, SelectField, TextField};
use crate::app::{use_scene, Ctx};
use crate::model::{self, ClusterEdit};
use crate::state::Action;

/// Partitions shown with a leader picker each; more are summarised.
const LEADER_PICKERS: u32 = 24;

/// The largest start, stop or event time the editor takes (ms): one hour.
const MAX_MS: u64 = 3_600_000;

fn opts(pairs: impl IntoIterator<Item = (String, String)>) -> Vec<(AttrValue, AttrValue)> {
    pairs.into_iter().map(|(v, l)| (AttrValue::from(v), AttrValue::from(l))).collect()
}

/// A `check` callback for a number field: the refusal of the edit `make`
/// builds from the value, if any.
fn check(ctx: &Ctx, make: impl Fn(f64) -> ClusterEdit + 'static) -> Callback<f64, Option<String>> {
    let s = ctx.state.scenario.clone();
    Callback::from(move |v: f64| make(v).refusal(&s))
}

/// A commit callback dispatching the edit `make` builds from the value.
fn commit<T: 'static>(ctx: &Ctx, make: impl Fn(T) -> Option<ClusterEdit> + 'static) -> Callback<T> {
    let d = ctx.state.dispatcher();
    Callback::from(move |v: T| {
        if let Some(e) = make(v) {
            d.dispatch(Action::Cluster(e));
        }
    })
}

/// The problems `Scenario::validate` reported at `path`, as a list.
fn problems(all: &[ScenarioProblem], path: &str, testid: String) -> Html {
    let ps = model::problems_in(all, path);
    if ps.is_empty() {
        return html! {};
    }
    html! {
        <ul class="msg error problems" role="alert" data-testid={testid}>
            { for ps.into_iter().map(|p| html! { <li>{ p }</li> }) }
        </ul>
    }
}

/// The editor: brokers and topics, events, clients on the time line.
#[function_component(ScenarioEditor)]
pub(crate) fn scenario_editor() -> Html {
    let ctx = use_scene();
    let s = &ctx.state.scenario;
    let d = ctx.state.dispatcher();
    let count = s.brokers.count;
    // One validation per render: every list of problems below reads it.
    let all = s.validate().err().unwrap_or_default();
    html! {
        <div class="scenario-editor" data-testid="scenario-editor">
            <fieldset class="topics">
                <legend>{ "Brokers, topics and leaders" }</legend>
                <div class="grid">
                    <NumberField id="cluster-brokers" label="Brokers" value={f64::from(count)} whole={Some((1, u64::from(model::MAX_BROKERS)))}
                        on_commit={let d = d.clone(); Callback::from(move |v: f64| d.dispatch(Action::SetBrokerCount(v as u32)))}
                        hint="Broker ids 0 to count − 1. Each broker enforces every client quota on its own." />
                </div>
                { for s.topics.iter().enumerate().map(|(i, _)| topic_editor(&ctx, s, &all, i)) }
                <div class="copy-row">
                    <button type="button" onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::AddTopic))}>{ "Add topic" }</button>
                </div>
            </fieldset>
            { events_editor(&ctx, s, &all) }
            { clients_editor(&ctx, s, &all) }
        </div>
    }
}

fn topic_editor(ctx: &Ctx, s: &Scenario, all: &[ScenarioProblem], i: usize) -> Html {
    let t = &s.topics[i];
    let count = s.brokers.count;
    let idx = i as u32;
    let rename = {
        let s = ctx.state.scenario.clone();
        Callback::from(move |name: String| {
            if name.trim().is_empty() {
                return Some("Enter a topic name.".to_owned());
            }
            ClusterEdit::RenameTopic { index: idx, name }.refusal(&s)
        })
    };
    let remove_refusal = ClusterEdit::RemoveTopic(idx).refusal(s);
    let d = ctx.state.dispatcher();
    let shown = t.partitions.min(LEADER_PICKERS);
    let brokers = |p: u32, current: u32| {
        let mut o: Vec<(String, String)> = (0..count)
            .map(|b| (b.to_string(), if b == p % count.max(1) { format!("broker {b} (round robin)") } else { format!("broker {b}") }))
            .collect();
        if current >= count {
            o.push((current.to_string(), format!("broker {current} (does not exist)")));
        }
        opts(o)
    };
    let spread = model::spread_note(s, t);
    html! {
        <fieldset class="topic" data-testid={format!("topic-{i}")}>
            <legend>{ format!("Topic {}", t.name) }</legend>
            <div class="grid">
                <TextField id={format!("topic{i}-name")} label="Name" value={t.name.clone()} validate={rename}
                    on_commit={commit(ctx, move |name: String| Some(ClusterEdit::RenameTopic { index: idx, name }))} />
                <NumberField id={format!("topic{i}-partitions")} label="Partitions" value={f64::from(t.partitions)} whole={Some((0, 100_000))}
                    check={check(ctx, move |v| ClusterEdit::SetPartitions { index: idx, partitions: v as u32 })}
                    on_commit={commit(ctx, move |v: f64| Some(ClusterEdit::SetPartitions { index: idx, partitions: v as u32 }))}
                    hint={if t.leaders.is_some() { "leaders as chosen below" } else { "leaders round robin: partition p on broker p mod brokers" }} />
            </div>
            if let Some(note) = spread {
                <div class="msg warn" role="note" data-testid={format!("topic{i}-spread")}>
                    <p>{ note }</p>
                    if t.partitions < count {
                        <button type="button" data-testid={format!("topic{i}-spread-fix")}
                            onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::SetPartitions { index: idx, partitions: count }))}>
                            { format!("Use {count} partitions (one per broker)") }
                        </button>
                    }
                </div>
            }
            <div class="grid leaders" role="group" aria-label={format!("Leaders of topic {}", t.name)}>
                { for (0..shown).map(|p| {
                    let leader = t.leader(p, count);
                    html! {
                        <SelectField id={format!("topic{i}-leader{p}")} label={format!("Partition {p} leader")} value={leader.to_string()}
                            options={brokers(p, leader)}
                            on_change={commit(ctx, move |v: String| v.parse::<u32>().ok().map(|broker| ClusterEdit::SetLeader { topic: idx, partition: p, broker }))} />
                    }
                }) }
            </div>
            if t.partitions > shown {
                <p class="msg hint">{ format!("Partitions {shown} to {} keep their leaders (not listed here).", t.partitions - 1) }</p>
            }
            { problems(all, &format!("topics[{i}]"), format!("topic{i}-problems")) }
            <div class="copy-row">
                if t.leaders.is_some() {
                    <button type="button" onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::RoundRobin(idx)))}>{ "Leaders round robin" }</button>
                }
                <button type="button" class="ghost danger" disabled={remove_refusal.is_some()} title={remove_refusal.clone()}
                    aria-label={format!("Remove topic {}", t.name)}
                    onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::RemoveTopic(idx)))}>{ "Remove topic" }</button>
                if remove_refusal.is_some() { <span class="msg hint">{ "A workload or event uses this topic." }</span> }
            </div>
        </fieldset>
    }
}

fn events_editor(ctx: &Ctx, s: &Scenario, all: &[ScenarioProblem]) -> Html {
    let d = ctx.state.dispatcher();
    let no_move = model::default_event(s, true).is_none();
    let no_quota = model::default_event(s, false).is_none();
    html! {
        <fieldset class="events-editor">
            <legend>{ "Events on the time line" }</legend>
            <p class="msg hint">{ "Each event happens at its time during the run; the charts mark it. A quota change applies on every broker at once and the sensors keep their samples (ClientQuotaManager.updateQuotaMetricConfigs)." }</p>
            if s.events.is_empty() { <p class="msg">{ "No events: the cluster stays as set up above for the whole run." }</p> }
            <ol class="event-list">
                { for s.events.iter().enumerate().map(|(i, e)| html! { <li>{ event_editor(ctx, s, all, i, e) }</li> }) }
            </ol>
            <div class="copy-row">
                <button type="button" disabled={no_move} data-testid="add-move-leader"
                    title={no_move.then_some("A leadership move needs a topic and at least 2 brokers.")}
                    onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::AddEvent { move_leader: true }))}>{ "Add leadership move" }</button>
                <button type="button" disabled={no_quota} data-testid="add-set-quota"
                    title={no_quota.then_some("A quota change needs a client quota in the Quotas panel.")}
                    onclick={let d = d.clone(); move |_| d.dispatch(Action::Cluster(ClusterEdit::AddEvent { move_leader: false }))}>{ "Add quota change" }</button>
                if no_move { <span class="msg hint">{ "A leadership move needs at least 2 brokers." }</span> }
            </div>
        </fieldset>
    }
}

fn event_editor(ctx: &Ctx, s: &Scenario, all: &[ScenarioProblem], i: usize, e: &ScenarioEvent) -> Html {
    let idx = i as u32;
    let d = ctx.state.dispatcher();
    // An edit of this event: a copy with one field changed.
    let with = |f: fn(&mut ScenarioEvent, f64)| {
        let e = e.clone();
        move |v: f64| {
            let mut next = e.clone();
            f(&mut next, v);
            ClusterEdit::SetEvent { index: idx, event: next }
        }
    };
    let with_text = |f: fn(&mut ScenarioEvent, &str)| {
        let e = e.clone();
        move |v: String| {
            let mut next = e.clone();
            f(&mut next, &v);
            Some(ClusterEdit::SetEvent { index: idx, event: next })
        }
    };
    let at = {
        let w = with(|e, v| match e {
            ScenarioEvent::MoveLeader { at_ms, .. } | ScenarioEvent::SetQuota { at_ms, .. } => *at_ms = v as u64,
        });
        let w2 = with(|e, v| match e {
            ScenarioEvent::MoveLeader { at_ms, .. } | ScenarioEvent::SetQuota { at_ms, .. } => *at_ms = v as u64,
        });
        html! {
            <NumberField id={format!("ev{i}-at")} label="At (ms)" value={e.at_ms() as f64} whole={Some((0, MAX_MS))}
                check={check(ctx, w)} on_commit={commit(ctx, move |v: f64| Some(w2(v)))} unit="ms" />
        }
    };
    let fields = match e {
        ScenarioEvent::MoveLeader { topic, partition, to_broker, .. } => {
            let topics = opts(s.topics.iter().map(|t| (t.name.clone(), t.name.clone())));
            let mut brokers: Vec<(String, String)> = (0..s.brokers.count).map(|b| (b.to_string(), format!("broker {b}"))).collect();
            if *to_broker >= s.brokers.count {
                brokers.push((to_broker.to_string(), format!("broker {to_broker} (does not exist)")));
            }
            let part_w = with(|e, v| if let ScenarioEvent::MoveLeader { partition, .. } = e { *partition = v as u32 });
            let part_w2 = with(|e, v| if let ScenarioEvent::MoveLeader { partition, .. } = e { *partition = v as u32 });
            html! {
                <>
                    <SelectField id={format!("ev{i}-topic")} label="Topic" value={topic.clone()} options={topics}
                        on_change={commit(ctx, with_text(|e, v| if let ScenarioEvent::MoveLeader { topic, .. } = e { *topic = v.to_owned() }))} />
                    <NumberField id={format!("ev{i}-partition")} label="Partition" value={f64::from(*partition)} whole={Some((0, 100_000))}
                        check={check(ctx, part_w)} on_commit={commit(ctx, move |v: f64| Some(part_w2(v)))} />
                    <SelectField id={format!("ev{i}-to")} label="New leader" value={to_broker.to_string()} options={opts(brokers)}
                        on_change={commit(ctx, with_text(|e, v| if let (ScenarioEvent::MoveLeader { to_broker, .. }, Ok(b)) = (e, v.parse::<u32>()) { *to_broker = b }))} />
                </>
            }
        }
        ScenarioEvent::SetQuota { entity, key, value, .. } => {
            let entities = model::event_entities(s);
            let pos = entities.iter().position(|x| x == entity).unwrap_or(0);
            let ent_opts = opts(entities.iter().enumerate().map(|(j, x)| (j.to_string(), model::entity_path(x))));
            let set_entity = {
                let (e, entities) = (e.clone(), entities.clone());
                move |v: String| {
                    let chosen = v.parse::<usize>().ok().and_then(|j| entities.get(j).cloned())?;
                    let mut next = e.clone();
                    if let ScenarioEvent::SetQuota { entity, .. } = &mut next {
                        *entity = chosen;
                    }
                    Some(ClusterEdit::SetEvent { index: idx, event: next })
                }
            };
            let key_opts = opts(QuotaKey::CLIENT_KEYS.iter().map(|k| (k.as_str().to_owned(), k.as_str().to_owned())));
            let k = *key;
            let value_text = value.map_or_else(String::new, |v| if v.fract() == 0.0 && v.abs() < 1e15 { format!("{v:.0}") } else { v.to_string() });
            let validate = {
                let (s, e) = (ctx.state.scenario.clone(), e.clone());
                Callback::from(move |text: String| {
                    let v = match model::parse_event_value(k, &text) {
                        Ok(v) => v,
                        Err(m) => return Some(m),
                    };
                    let mut next = e.clone();
                    if let ScenarioEvent::SetQuota { value, .. } = &mut next {
                        *value = v;
                    }
                    ClusterEdit::SetEvent { index: idx, event: next }.refusal(&s)
                })
            };
            let set_value = {
                let e = e.clone();
                move |text: String| {
                    let v = model::parse_event_value(k, &text).ok()?;
                    let mut next = e.clone();
                    if let ScenarioEvent::SetQuota { value, .. } = &mut next {
                        *value = v;
                    }
                    Some(ClusterEdit::SetEvent { index: idx, event: next })
                }
            };
            html! {
                <>
                    <SelectField id={format!("ev{i}-entity")} label="Entity" value={pos.to_string()} options={ent_opts} on_change={commit(ctx, set_entity)} />
                    <SelectField id={format!("ev{i}-key")} label="Key" value={key.as_str()} options={key_opts}
                        on_change={commit(ctx, with_text(|e, v| if let (ScenarioEvent::SetQuota { key, .. }, Some(k)) = (e, QuotaKey::from_name(v)) { *key = k }))} />
                    <TextField id={format!("ev{i}-value")} label={format!("New value ({})", model::unit_of(k))} value={value_text}
                        validate={validate} on_commit={commit(ctx, set_value)} placeholder="empty = remove the quota"
                        hint={if value.is_none() { "removed (--delete-config): the sensors fall back to the next matching quota" } else { "empty removes the quota (--delete-config)" }} />
                </>
            }
        }
    };
    let title = match e {
        ScenarioEvent::MoveLeader { .. } => "Leadership move",
        ScenarioEvent::SetQuota { .. } => "Quota change",
    };
    html! {
        <fieldset class="event" data-testid={format!("event-{i}")} data-kind={e.kind()} data-at-ms={e.at_ms().to_string()}>
            <legend>{ format!("{title} at {}", model::fmt_ms(e.at_ms() as f64)) }</legend>
            <div class="grid">{ at }{ fields }</div>
            { problems(all, &format!("events[{i}]"), format!("ev{i}-problems")) }
            <button type="button" class="ghost danger" aria-label={format!("Remove the {} at {}", title.to_lowercase(), model::fmt_ms(e.at_ms() as f64))}
                onclick={move |_| d.dispatch(Action::Cluster(ClusterEdit::RemoveEvent(idx)))}>{ "Remove event" }</button>
        </fieldset>
    }
}

fn clients_editor(ctx: &Ctx, s: &Scenario, all: &[ScenarioProblem]) -> Html {
    html! {
        <fieldset class="clients-time">
            <legend>{ "Clients on the time line" }</legend>
            if s.workloads.is_empty() { <p class="msg">{ "No clients: add a producer or a consumer in the Simulation panel." }</p> }
            { for s.workloads.iter().enumerate().map(|(i, w)| client_row(ctx, s, all, i, w)) }
        </fieldset>
    }
}

fn client_row(ctx: &Ctx, s: &Scenario, all: &[ScenarioProblem], i: usize, w: &Workload) -> Html {
    let idx = i as u32;
    let (start, stop, kind) = match w {
        Workload::Producer(p) => (p.start_ms, p.stop_ms, "Producer"),
        Workload::Consumer(c) => (c.start_ms, c.stop_ms, "Consumer"),
    };
    let conn = model::workload_connection(w).to_owned();
    let throttling = s.connections.iter().find(|c| c.name == conn).map(|c| c.client_throttling).unwrap_or_default();
    let stop_validate = {
        let s = ctx.state.scenario.clone();
        Callback::from(move |text: String| {
            let stop_ms = match parse_stop(&text) {
                Ok(v) => v,
                Err(m) => return Some(m),
            };
            ClusterEdit::SetStop { index: idx, stop_ms }.refusal(&s)
        })
    };
    let kind_value = match throttling {
        ClientThrottling::Kip219 => "kip-219",
        ClientThrottling::Legacy => "legacy",
        ClientThrottling::IgnoresThrottle => "ignores-throttle",
    };
    html! {
        <fieldset class="client-time" data-testid={format!("client-time-{i}")}>
            <legend>{ format!("{kind} on {conn}") }</legend>
            <div class="grid">
                <NumberField id={format!("tl{i}-start")} label="Starts at (ms)" value={start as f64} whole={Some((0, MAX_MS))} unit="ms"
                    check={check(ctx, move |v| ClusterEdit::SetStart { index: idx, start_ms: v as u64 })}
                    on_commit={commit(ctx, move |v: f64| Some(ClusterEdit::SetStart { index: idx, start_ms: v as u64 }))} />
                <TextField id={format!("tl{i}-stop")} label="Stops at (ms)" value={stop.map_or_else(String::new, |v| v.to_string())}
                    validate={stop_validate} placeholder="empty = runs to the end"
                    on_commit={commit(ctx, move |text: String| parse_stop(&text).ok().map(|stop_ms| ClusterEdit::SetStop { index: idx, stop_ms }))}
                    hint={if matches!(w, Workload::Producer(_)) { "then close(Duration.ZERO): buffered and in-flight records fail" } else { "then the consumer closes" }} />
                <SelectField id={format!("tl{i}-kind")} label="Client kind" value={kind_value}
                    options={opts([
                        ("kip-219".to_owned(), "KIP-219 (Java ≥ 2.0)".to_owned()),
                        ("legacy".to_owned(), "Legacy (broker < 2.0)".to_owned()),
                        ("ignores-throttle".to_owned(), "Ignores throttle (librdkafka)".to_owned()),
                    ])}
                    on_change={commit(ctx, move |v: String| {
                        let kind = match v.as_str() {
                            "legacy" => ClientThrottling::Legacy,
                            "ignores-throttle" => ClientThrottling::IgnoresThrottle,
                            _ => ClientThrottling::Kip219,
                        };
                        Some(ClusterEdit::SetClientKind { index: idx, kind })
                    })} />
                if let Workload::Producer(p) = w {
                    <SelectField id={format!("tl{i}-acks")} label="acks" value={match p.config.acks { Acks::None => "0", Acks::Leader => "1", Acks::All => "all" }}
                        options={opts([("0".to_owned(), "0 (no response)".to_owned()), ("1".to_owned(), "1 (leader)".to_owned()), ("all".to_owned(), "all (default)".to_owned())])}
                        on_change={commit(ctx, move |v: String| {
                            let acks = match v.as_str() { "0" => Acks::None, "1" => Acks::Leader, _ => Acks::All };
                            Some(ClusterEdit::SetAcks { index: idx, acks })
                        })}
                        hint={(p.config.acks == Acks::None).then_some("acks=0: no response, so the broker cannot send a throttle time; the request quota is not enforced")} />
                }
            </div>
            { problems(all, &format!("workloads[{i}]"), format!("tl{i}-problems")) }
        </fieldset>
    }
}

/// Reads a stop time as typed: empty = runs to the end.
fn parse_stop(text: &str) -> Result<Option<u64>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    model::parse_whole(text, "Stops at (ms)", 0, MAX_MS).map(Some)
}
