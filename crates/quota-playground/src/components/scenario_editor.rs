//! The scenario editor for the cluster and for time: brokers, topics with
//! their partitions and leaders, the events placed on the run's time line
//! (leadership moves, quota alterations), and each client's start and stop
//! times, kind and `acks`.
//!
//! Every field is checked by the engine before it is committed
//! ([`model::ClusterEdit::refusal`], which asks `Scenario::validate`): a
//! refused value stays in the field as typed, with the engine's message and
//! the path it names beside it; a button or list whose edit is refused
//! says the engine's message beside it. Problems the scenario has for another
//! reason (a leader left on a broker that no longer exists after the broker
//! count went down) are listed under the topic or event they belong to.

use std::collections::BTreeMap;
use std::rc::Rc;

use quota_engine::sim::{Acks, ClientThrottling, ProblemPath, Scenario, ScenarioEvent, ScenarioProblem, TopicSpec, Workload, HORIZON_CAP_MS};
use quota_engine::{EntityName, QuotaKey};
use yew::prelude::*;

use super::{show_all_line, NumberField, SelectField, TextField, SHOWN_CLIENTS};
use crate::ctx::{use_scene, Ctx};
use crate::model::{self, ClusterEdit};
use crate::state::Action;

/// Partitions shown with a leader picker each; more are summarised.
const LEADER_PICKERS: u32 = 24;

/// The largest start, stop or event time the editor takes (ms): the
/// engine's cap on a run ([`HORIZON_CAP_MS`], one day), so a loaded
/// scenario's times fit their own fields.
const MAX_MS: u64 = HORIZON_CAP_MS;

/// An edit the engine refused when a button or a list was used, with its
/// message ([`ClusterEdit::refusal`]): said beside what was used, until the
/// scenario changes.
#[derive(Clone, PartialEq)]
struct Refused {
    edit: ClusterEdit,
    revision: u64,
    message: String,
}

/// What every part of the editor reads, computed once per render.
struct Ed<'a> {
    ctx: &'a Ctx,
    s: &'a Scenario,
    /// `Scenario::validate`'s problems.
    all: &'a [ScenarioProblem],
    refused: &'a UseStateHandle<Option<Refused>>,
    /// Every client row is drawn (else the first [`SHOWN_CLIENTS`]).
    all_clients: &'a UseStateHandle<bool>,
    /// The event the form holds as typed while the engine refuses it, with
    /// the revision it was typed at ([`model::edit_event`]): shown until
    /// the scenario changes.
    draft: &'a UseStateHandle<Option<(u64, model::EventDraft)>>,
    /// How many workloads each connection has ([`model::clients_per_connection`]).
    clients_on: BTreeMap<&'a str, usize>,
}

impl Ed<'_> {
    /// A callback making the edit `make` builds: the edit is checked first
    /// and, when the engine refuses it, its message is said beside the
    /// button or list ([`Self::refusal_note`]) instead of the edit being
    /// dropped in silence.
    fn commit<T: 'static>(&self, make: impl Fn(T) -> Option<ClusterEdit> + 'static) -> Callback<T> {
        let d = self.ctx.state.dispatcher();
        let (s, revision, refused) = (self.ctx.state.scenario.clone(), self.ctx.state.revision, self.refused.clone());
        Callback::from(move |v: T| {
            let Some(edit) = make(v) else { return };
            match edit.refusal(&s) {
                None => {
                    refused.set(None);
                    d.dispatch(Action::Cluster(edit));
                }
                Some(message) => refused.set(Some(Refused { edit, revision, message })),
            }
        })
    }

    /// A button's click making `edit` ([`Self::commit`]).
    fn click(&self, edit: ClusterEdit) -> Callback<MouseEvent> {
        let c = self.commit(move |()| Some(edit.clone()));
        Callback::from(move |_: MouseEvent| c.emit(()))
    }

    /// The number field callbacks for the edit `make` builds from the
    /// value: its `check` (the refusal, if any) and its commit.
    fn number(&self, make: impl Fn(f64) -> ClusterEdit + 'static) -> (Callback<f64, Option<String>>, Callback<f64>) {
        let make = Rc::new(make);
        let m = make.clone();
        (check(self.ctx, move |v| m(v)), self.commit(move |v: f64| Some(make(v))))
    }

    /// The draft of event `index`, when the form holds one for the
    /// scenario on screen.
    fn draft_of(&self, index: u32) -> Option<&model::EventDraft> {
        match &**self.draft {
            Some((revision, d)) if *revision == self.ctx.state.revision && d.index == index => Some(d),
            _ => None,
        }
    }

    /// A callback changing one field of event `index` as the form shows it
    /// (`shown`: the stored event or the draft): the event with every field
    /// as typed is checked as a whole ([`model::edit_event`]); accepted, it
    /// is committed; refused, the form holds it as a draft, marked as not
    /// applied, and the run keeps the stored event.
    fn edit_event<T: 'static>(&self, index: u32, shown: &ScenarioEvent, change: impl Fn(&mut ScenarioEvent, T) + 'static) -> Callback<T> {
        let d = self.ctx.state.dispatcher();
        let (s, revision, draft, refused, shown) =
            (self.ctx.state.scenario.clone(), self.ctx.state.revision, self.draft.clone(), self.refused.clone(), shown.clone());
        Callback::from(move |v: T| match model::edit_event(&s, index, &shown, |e| change(e, v)) {
            Ok(edit) => {
                draft.set(None);
                refused.set(None);
                d.dispatch(Action::Cluster(edit));
            }
            Err(held) => draft.set(Some((revision, held))),
        })
    }

    /// The refusal of the last button or list used, when `shown` says it
    /// belongs here and the scenario has not changed since.
    fn refusal_note(&self, shown: impl Fn(&ClusterEdit) -> bool, testid: String) -> Html {
        match &**self.refused {
            Some(r) if r.revision == self.ctx.state.revision && shown(&r.edit) => html! {
                <p class="msg error" role="alert" data-testid={testid}>{ format!("Not done, as it would add this problem: {}", r.message) }</p>
            },
            _ => html! {},
        }
    }
}

fn opts(pairs: impl IntoIterator<Item = (String, String)>) -> Vec<(AttrValue, AttrValue)> {
    pairs.into_iter().map(|(v, l)| (AttrValue::from(v), AttrValue::from(l))).collect()
}

/// A `check` callback for a number field: the refusal of the edit `make`
/// builds from the value, if any.
fn check(ctx: &Ctx, make: impl Fn(f64) -> ClusterEdit + 'static) -> Callback<f64, Option<String>> {
    let s = ctx.state.scenario.clone();
    Callback::from(move |v: f64| make(v).refusal(&s))
}

/// The problems `Scenario::validate` reported at `path`, as a list.
fn problems(all: &[ScenarioProblem], path: &ProblemPath, testid: String) -> Html {
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
    let refused = use_state(|| None::<Refused>);
    let draft = use_state(|| None::<(u64, model::EventDraft)>);
    let all_clients = use_state(|| false);
    let s = &ctx.state.scenario;
    let d = ctx.state.dispatcher();
    let count = s.brokers.count;
    // One validation per render: every list of problems below reads it.
    let all = s.validate().err().unwrap_or_default();
    let ed = Ed {
        ctx: &ctx,
        s,
        all: &all,
        refused: &refused,
        all_clients: &all_clients,
        draft: &draft,
        clients_on: model::clients_per_connection(s),
    };
    html! {
        <div class="scenario-editor" data-testid="scenario-editor">
            <fieldset class="topics">
                <legend>{ "Brokers, topics and leaders" }</legend>
                <div class="grid">
                    <NumberField id="cluster-brokers" label="Brokers" value={f64::from(count)} whole={Some((1, u64::from(model::MAX_BROKERS)))}
                        on_commit={let d = d.clone(); Callback::from(move |v: f64| d.dispatch(Action::SetBrokerCount(v as u32)))}
                        hint="Broker ids 0 to count − 1. Each broker enforces every client quota on its own." />
                </div>
                { for s.topics.iter().enumerate().map(|(i, _)| topic_editor(&ed, i)) }
                <div class="copy-row">
                    <button type="button" onclick={ed.click(ClusterEdit::AddTopic)}>{ "Add topic" }</button>
                    { ed.refusal_note(|e| *e == ClusterEdit::AddTopic, "add-topic-refused".to_owned()) }
                </div>
            </fieldset>
            { events_editor(&ed) }
            { clients_editor(&ed) }
        </div>
    }
}

fn topic_editor(ed: &Ed, i: usize) -> Html {
    let (ctx, s, all) = (ed.ctx, ed.s, ed.all);
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
    let shown = t.partitions.min(LEADER_PICKERS);
    let brokers = |p: u32, current: u32| {
        let mut o: Vec<(String, String)> = (0..count)
            .map(|b| (b.to_string(), if b == TopicSpec::round_robin_leader(p, count) { format!("broker {b} (round robin)") } else { format!("broker {b}") }))
            .collect();
        if current >= count {
            o.push((current.to_string(), format!("broker {current} (does not exist)")));
        }
        opts(o)
    };
    let spread = model::spread_note(s, t);
    let (partitions_check, partitions_commit) = ed.number(move |v| ClusterEdit::SetPartitions { index: idx, partitions: v as u32 });
    html! {
        <fieldset class="topic" data-testid={format!("topic-{i}")}>
            <legend>{ format!("Topic {}", t.name) }</legend>
            <div class="grid">
                <TextField id={format!("topic{i}-name")} label="Name" value={t.name.clone()} validate={rename}
                    on_commit={ed.commit(move |name: String| Some(ClusterEdit::RenameTopic { index: idx, name }))} />
                <NumberField id={format!("topic{i}-partitions")} label="Partitions" value={f64::from(t.partitions)} whole={Some((1, 100_000))}
                    check={partitions_check} on_commit={partitions_commit}
                    hint={if t.leaders.is_some() { "leaders as chosen below" } else { "leaders round robin: partition p on broker p mod brokers" }} />
            </div>
            if let Some(note) = spread {
                <div class="msg warn" role="note" data-testid={format!("topic{i}-spread")}>
                    <p>{ note }</p>
                    if t.partitions < count {
                        <button type="button" data-testid={format!("topic{i}-spread-fix")}
                            onclick={ed.click(ClusterEdit::SetPartitions { index: idx, partitions: count })}>
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
                            on_change={ed.commit(move |v: String| v.parse::<u32>().ok().map(|broker| ClusterEdit::SetLeader { topic: idx, partition: p, broker }))} />
                    }
                }) }
            </div>
            if t.partitions > shown {
                <p class="msg hint">{ format!("Partitions {shown} to {} keep their leaders (not listed here).", t.partitions - 1) }</p>
            }
            { problems(all, &ProblemPath::topic(i), format!("topic{i}-problems")) }
            <div class="copy-row">
                if t.leaders.is_some() {
                    <button type="button" onclick={ed.click(ClusterEdit::RoundRobin(idx))}>{ "Leaders round robin" }</button>
                }
                <button type="button" class="ghost danger" aria-label={format!("Remove topic {}", t.name)}
                    onclick={ed.click(ClusterEdit::RemoveTopic(idx))}>{ "Remove topic" }</button>
            </div>
            { ed.refusal_note(|e| e.target() == Some(ProblemPath::topic(i)), format!("topic{i}-refused")) }
        </fieldset>
    }
}

fn events_editor(ed: &Ed) -> Html {
    let s = ed.s;
    let no_move = model::no_default_event(s, true);
    let no_quota = model::no_default_event(s, false);
    html! {
        <fieldset class="events-editor">
            <legend>{ "Events on the time line" }</legend>
            <p class="msg hint">{ "Each event happens at its time during the run; the charts mark it. A quota change applies on every broker at once and the sensors keep their samples (ClientQuotaManager.updateQuotaMetricConfigs)." }</p>
            if s.events.is_empty() { <p class="msg">{ "No events: the cluster stays as set up above for the whole run." }</p> }
            <ol class="event-list">
                { for s.events.iter().enumerate().map(|(i, e)| html! { <li>{ event_editor(ed, i, e) }</li> }) }
            </ol>
            <div class="copy-row">
                <button type="button" disabled={no_move.is_some()} data-testid="add-move-leader" title={no_move.clone()}
                    onclick={ed.click(ClusterEdit::AddEvent { move_leader: true })}>{ "Add leadership move" }</button>
                <button type="button" disabled={no_quota.is_some()} data-testid="add-set-quota" title={no_quota.clone()}
                    onclick={ed.click(ClusterEdit::AddEvent { move_leader: false })}>{ "Add quota change" }</button>
                if let Some(why) = no_move { <span class="msg hint" data-testid="add-move-leader-why">{ why }</span> }
            </div>
            { ed.refusal_note(|e| matches!(e, ClusterEdit::AddEvent { .. }), "add-event-refused".to_owned()) }
        </fieldset>
    }
}

/// A labelled `<select>` (as [`super::SelectField`] draws it) with the
/// draft's problem at this field under it, the select marked invalid.
fn select_with_problem(id: String, label: &str, value: &str, options: Vec<(AttrValue, AttrValue)>, on_change: Callback<String>, problem: Option<String>) -> Html {
    let onchange = Callback::from(move |e: Event| on_change.emit(super::event_value(&e)));
    let problem_id = format!("{id}-problem");
    html! {
        <div class={classes!("field", problem.is_some().then_some("invalid"))}>
            <label for={id.clone()}>{ label.to_owned() }</label>
            <select id={id.clone()} {onchange} aria-invalid={problem.is_some().to_string()}
                aria-describedby={problem.as_ref().map(|_| problem_id.clone())}>
                { for options.iter().map(|(v, l)| html! { <option value={v.clone()} ~selected={v.as_str() == value}>{ l.clone() }</option> }) }
            </select>
            if let Some(m) = problem { <p id={problem_id.clone()} class="msg error" role="alert" data-testid={problem_id}>{ m }</p> }
        </div>
    }
}

/// One part (user or client-id) of a quota change's entity as typed: the
/// name, or the default entity ticked (`--entity-default`).
fn entity_part(id: String, label: &str, name: &EntityName, on_name: Callback<String>, on_default: Callback<bool>) -> Html {
    let default = name.is_default();
    let oninput = Callback::from(move |e: InputEvent| on_name.emit(super::event_value(&e)));
    let onchange = Callback::from(move |e: Event| on_default.emit(super::event_checked(&e)));
    html! {
        <div class="field name">
            <label for={id.clone()}>{ label.to_owned() }</label>
            <input id={id.clone()} type="text" value={name.as_option().unwrap_or_default().to_owned()} {oninput} disabled={default}
                autocomplete="off" spellcheck="false" placeholder={if default { "<default>" } else { "" }} />
            <label class="check"><input type="checkbox" id={format!("{id}-default")} checked={default} {onchange} />{ " default (--entity-default)" }</label>
        </div>
    }
}

fn event_editor(ed: &Ed, i: usize, stored: &ScenarioEvent) -> Html {
    let (s, all) = (ed.s, ed.all);
    let idx = i as u32;
    let draft = ed.draft_of(idx);
    // The form shows the draft while there is one, else the stored event.
    let e = draft.map_or(stored, |d| &d.event);
    let at_problem = |field: &str| draft.and_then(|d| d.at(field));
    let at = html! {
        <NumberField id={format!("ev{i}-at")} label="At (ms)" value={e.at_ms() as f64} whole={Some((0, MAX_MS))} unit="ms"
            problem={at_problem("at_ms").map(AttrValue::from)}
            on_commit={ed.edit_event(idx, e, |e, v: f64| match e {
                ScenarioEvent::MoveLeader { at_ms, .. } | ScenarioEvent::SetQuota { at_ms, .. } => *at_ms = v as u64,
            })} />
    };
    // The draft's problems at the fields below; any other is listed with
    // the note that the run keeps the stored event.
    let mut placed = vec!["at_ms"];
    let fields = match e {
        ScenarioEvent::MoveLeader { topic, partition, to_broker, .. } => {
            placed.extend(["topic", "partition", "to_broker"]);
            let mut topics: Vec<(String, String)> = s.topics.iter().map(|t| (t.name.clone(), t.name.clone())).collect();
            if !s.topics.iter().any(|t| t.name == *topic) {
                topics.push((topic.clone(), format!("{topic} (not defined)")));
            }
            let mut brokers: Vec<(String, String)> = (0..s.brokers.count).map(|b| (b.to_string(), format!("broker {b}"))).collect();
            if *to_broker >= s.brokers.count {
                brokers.push((to_broker.to_string(), format!("broker {to_broker} (does not exist)")));
            }
            html! {
                <>
                    { select_with_problem(format!("ev{i}-topic"), "Topic", topic, opts(topics),
                        ed.edit_event(idx, e, |e, v: String| if let ScenarioEvent::MoveLeader { topic, .. } = e { *topic = v }),
                        at_problem("topic")) }
                    <NumberField id={format!("ev{i}-partition")} label="Partition" value={f64::from(*partition)} whole={Some((0, 100_000))}
                        problem={at_problem("partition").map(AttrValue::from)}
                        on_commit={ed.edit_event(idx, e, |e, v: f64| if let ScenarioEvent::MoveLeader { partition, .. } = e { *partition = v as u32 })} />
                    { select_with_problem(format!("ev{i}-to"), "New leader", &to_broker.to_string(), opts(brokers),
                        ed.edit_event(idx, e, |e, v: String| if let (ScenarioEvent::MoveLeader { to_broker, .. }, Ok(b)) = (e, v.parse::<u32>()) { *to_broker = b }),
                        at_problem("to_broker")) }
                </>
            }
        }
        ScenarioEvent::SetQuota { entity, key, value, .. } => {
            placed.push("");
            let kind = model::EventEntityKind::of(entity);
            let mut kinds = vec![
                (model::EventEntityKind::User, "User (users)"),
                (model::EventEntityKind::Client, "Client id (clients)"),
                (model::EventEntityKind::UserClient, "User and client id"),
            ];
            if kind == model::EventEntityKind::Ip {
                kinds.push((model::EventEntityKind::Ip, "IP address (ips)"));
            }
            let kind_opts = opts(kinds.into_iter().map(|(k, l)| (k.as_str().to_owned(), l.to_owned())));
            let part = |user: bool| {
                let name = if user { model::entity_user(entity) } else { model::entity_client(entity) }?;
                let (id, label) = if user { (format!("ev{i}-user"), "User principal") } else { (format!("ev{i}-client"), "Client id") };
                let on_name = ed.edit_event(idx, e, move |e, v: String| {
                    if let ScenarioEvent::SetQuota { entity, .. } = e {
                        *entity = model::entity_with_part(entity, user, EntityName::Named(v));
                    }
                });
                let on_default = ed.edit_event(idx, e, move |e, ticked: bool| {
                    if let ScenarioEvent::SetQuota { entity, .. } = e {
                        let name = if ticked { EntityName::Default } else { EntityName::Named(String::new()) };
                        *entity = model::entity_with_part(entity, user, name);
                    }
                });
                Some(entity_part(id, label, name, on_name, on_default))
            };
            let key_opts = opts(QuotaKey::CLIENT_KEYS.iter().map(|k| (k.as_str().to_owned(), k.as_str().to_owned())));
            let k = *key;
            let value_text = value.map_or_else(String::new, model::event_value_text);
            let note = model::literal_default_note(entity);
            html! {
                <>
                    { select_with_problem(format!("ev{i}-kind"), "Entity type", kind.as_str(), kind_opts,
                        ed.edit_event(idx, e, |e, v: String| {
                            if let (ScenarioEvent::SetQuota { entity, .. }, Some(kind)) = (e, model::EventEntityKind::from_value(&v)) {
                                *entity = model::entity_of_kind(entity, kind);
                            }
                        }),
                        None) }
                    if let Some(ip) = (kind == model::EventEntityKind::Ip).then(|| model::entity_path(entity)) {
                        <p class="msg hint">{ format!("{ip}: an ip entity takes only connection_creation_rate") }</p>
                    }
                    { part(true).unwrap_or_default() }
                    { part(false).unwrap_or_default() }
                    { select_with_problem(format!("ev{i}-key"), "Key", key.as_str(), key_opts,
                        ed.edit_event(idx, e, |e, v: String| if let (ScenarioEvent::SetQuota { key, .. }, Some(k)) = (e, QuotaKey::from_name(&v)) { *key = k }),
                        None) }
                    <TextField id={format!("ev{i}-value")} label={format!("New value ({})", model::unit_of(k))} value={value_text}
                        validate={Callback::from(move |text: String| model::parse_event_value(k, &text).err())}
                        on_commit={ed.edit_event(idx, e, move |e, text: String| {
                            if let (ScenarioEvent::SetQuota { value, .. }, Ok(v)) = (e, model::parse_event_value(k, &text)) {
                                *value = v;
                            }
                        })}
                        placeholder="empty = remove the quota"
                        hint={if value.is_none() { "removed (--delete-config): the sensors fall back to the next matching quota" } else { "empty removes the quota (--delete-config)" }} />
                    if let Some(n) = note { <p class="msg hint literal-default">{ n }</p> }
                </>
            }
        }
    };
    let title = match stored {
        ScenarioEvent::MoveLeader { .. } => "Leadership move",
        ScenarioEvent::SetQuota { .. } => "Quota change",
    };
    let held = draft.map(|d| {
        let quota = d.at("");
        let others: Vec<String> = d
            .problems
            .iter()
            .filter(|p| !placed.iter().any(|f| p.path == if f.is_empty() { ProblemPath::event(i) } else { ProblemPath::event(i).then(*f) }))
            .map(ToString::to_string)
            .collect();
        let back = {
            let draft = ed.draft.clone();
            Callback::from(move |_: MouseEvent| draft.set(None))
        };
        html! {
            <div class="msg warn draft-note" role="status" data-testid={format!("ev{i}-draft")}>
                if let Some(q) = quota { <p class="msg error" role="alert" data-testid={format!("ev{i}-quota-problem")}>{ q }</p> }
                { for others.into_iter().map(|m| html! { <p class="msg error" role="alert">{ m }</p> }) }
                <p>{ model::held_note(stored) }</p>
                <button type="button" class="ghost" data-testid={format!("ev{i}-draft-back")} onclick={back}>{ "Show the applied event" }</button>
            </div>
        }
    });
    html! {
        <fieldset class={classes!("event", draft.is_some().then_some("held"))} data-testid={format!("event-{i}")} data-kind={stored.kind()}
            data-at-ms={stored.at_ms().to_string()} data-applied={draft.is_none().to_string()}>
            <legend>{ format!("{title} at {}", model::fmt_ms(stored.at_ms() as f64)) }</legend>
            <div class="grid">{ at }{ fields }</div>
            { held.unwrap_or_default() }
            { problems(all, &ProblemPath::event(i), format!("ev{i}-problems")) }
            <AfterEndNote i={i} at_ms={stored.at_ms() as f64} />
            <button type="button" class="ghost danger" aria-label={format!("Remove the {} at {}", title.to_lowercase(), model::fmt_ms(stored.at_ms() as f64))}
                onclick={ed.click(ClusterEdit::RemoveEvent(idx))}>{ "Remove event" }</button>
            { ed.refusal_note(|e| e.target() == Some(ProblemPath::event(i)), format!("ev{i}-refused")) }
        </fieldset>
    }
}

/// [`AfterEndNote`]'s properties: the event's index and time (ms).
#[derive(Properties, PartialEq)]
struct AfterEndProps {
    i: usize,
    at_ms: f64,
}

/// An event placed after the run's end never happens: the run (shown, not
/// one still being computed) stops when its clients are done, which can be
/// long before a time picked on the default time line. A component of its
/// own: it follows the run (which arrives from the worker after the
/// editor's render), while the editor follows only the scenario.
#[function_component(AfterEndNote)]
fn after_end_note(p: &AfterEndProps) -> Html {
    let ctx = crate::ctx::use_ctx();
    let (i, at) = (p.i, p.at_ms);
    let Ok(t) = &ctx.sim.result else { return html! {} };
    if ctx.updating || t.hit_horizon || at <= t.end_ms {
        return html! {};
    }
    html! {
        <p class="msg warn" role="note" data-testid={format!("ev{i}-after-end")}>
            { format!(
                "The run ends at {}, when its clients are done, before this event at {}: it does not happen. Give the clients more records (or start them later) so that the run lasts past it.",
                model::fmt_ms(t.end_ms),
                model::fmt_ms(at)
            ) }
        </p>
    }
}

fn clients_editor(ed: &Ed) -> Html {
    let s = ed.s;
    let n = s.workloads.len();
    let shown = if **ed.all_clients { n } else { n.min(SHOWN_CLIENTS) };
    html! {
        <fieldset class="clients-time">
            <legend>{ "Clients on the time line" }</legend>
            if s.workloads.is_empty() { <p class="msg">{ "No clients: add a producer or a consumer in the Simulation panel." }</p> }
            { for s.workloads.iter().take(shown).enumerate().map(|(i, w)| client_row(ed, i, w)) }
            { show_all_line(n.saturating_sub(SHOWN_CLIENTS), n, "client", "clients", "clients-show-all", ed.all_clients) }
        </fieldset>
    }
}

fn client_row(ed: &Ed, i: usize, w: &Workload) -> Html {
    let (ctx, s, all) = (ed.ctx, ed.s, ed.all);
    let idx = i as u32;
    let (start, stop, kind) = match w {
        Workload::Producer(p) => (p.start_ms, p.stop_ms, "Producer"),
        Workload::Consumer(c) => (c.start_ms, c.stop_ms, "Consumer"),
        Workload::Admin(a) => (a.start_ms, None, "Admin"),
        Workload::Connects(c) => (c.start_ms, None, "Connections"),
    };
    let conn = model::workload_connection(w).to_owned();
    let throttling = s.connections.iter().find(|c| c.name == conn).map(|c| c.client_throttling).unwrap_or_default();
    let kind_note = model::client_kind_note(&conn, ed.clients_on.get(conn.as_str()).copied().unwrap_or(0));
    let (start_check, start_commit) = ed.number(move |v| ClusterEdit::SetStart { index: idx, start_ms: v as u64 });
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
                    check={start_check} on_commit={start_commit} />
                // A stop applies to a producer or a consumer (ClusterEdit::SetStop);
                // an Admin call runs until its futures complete or its deadline.
                if matches!(w, Workload::Producer(_) | Workload::Consumer(_)) {
                    <TextField id={format!("tl{i}-stop")} label="Stops at (ms)" value={stop.map_or_else(String::new, |v| v.to_string())}
                        validate={stop_validate} placeholder="empty = runs to the end"
                        on_commit={ed.commit(move |text: String| parse_stop(&text).ok().map(|stop_ms| ClusterEdit::SetStop { index: idx, stop_ms }))}
                        hint={if matches!(w, Workload::Producer(_)) { "then close(Duration.ZERO): buffered and in-flight records fail" } else { "then the consumer closes" }} />
                } else if matches!(w, Workload::Admin(_)) {
                    <p class="msg hint" data-testid={format!("tl{i}-no-stop")}>{ "No stop: each Admin call runs until its topics' futures complete, or fail at default.api.timeout.ms." }</p>
                } else {
                    <p class="msg hint" data-testid={format!("tl{i}-no-stop")}>{ "No stop: each client reconnects until its connection is ready." }</p>
                }
                <SelectField id={format!("tl{i}-kind")} label="Client kind" value={kind_value}
                    options={opts([
                        ("kip-219".to_owned(), "KIP-219 (Java ≥ 2.0)".to_owned()),
                        ("legacy".to_owned(), "Legacy (broker < 2.0)".to_owned()),
                        ("ignores-throttle".to_owned(), "Ignores throttle (librdkafka)".to_owned()),
                    ])}
                    hint={kind_note}
                    on_change={ed.commit(move |v: String| {
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
                        on_change={ed.commit(move |v: String| {
                            let acks = match v.as_str() { "0" => Acks::None, "1" => Acks::Leader, _ => Acks::All };
                            Some(ClusterEdit::SetAcks { index: idx, acks })
                        })}
                        hint={(p.config.acks == Acks::None).then_some("acks=0: no response, so the broker cannot send a throttle time; the request quota is not enforced")} />
                }
            </div>
            { problems(all, &ProblemPath::workload(i), format!("tl{i}-problems")) }
            { ed.refusal_note(|e| e.target() == Some(ProblemPath::workload(i)), format!("tl{i}-refused")) }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_up_to_the_engine_s_cap_fits_its_field() {
        // A loaded scenario may start a client after 1 h: the field takes
        // what the engine runs (up to a day), and no more.
        assert_eq!(parse_stop("7200000"), Ok(Some(7_200_000)));
        assert_eq!(parse_stop("86400000"), Ok(Some(86_400_000)));
        assert!(parse_stop("86400001").is_err());
        assert_eq!(parse_stop(" "), Ok(None));
    }
}
