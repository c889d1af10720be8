//! The quotas panel: the configured quotas (values editable in place) and a
//! form to add one for any entity, with Kafka's validation message beside
//! the fields as the user types.

use quota_engine::{QuotaEntity, QuotaKey, RawEntity};
use yew::prelude::*;

use super::{event_checked, event_value, NumberField, PanelBox};
use crate::ctx::use_scene;
use crate::model;
use crate::state::Action;

#[function_component(QuotasPanel)]
pub(crate) fn quotas_panel() -> Html {
    let ctx = use_scene();
    let rows = model::quota_rows(&ctx.state.scenario);
    html! {
        <PanelBox id="quotas" title="Quotas"
            subtitle="Client quotas as kafka-configs.sh sets them. Each broker enforces them on its own; controller mutations, the active controller. Kafka's validation runs as you type.">
            if rows.is_empty() {
                <p class="empty">{ "No quotas: every client is unlimited and the brokers meter nothing." }</p>
            } else {
                <ul class="qlist" data-testid="quota-list">
                    { for rows.into_iter().enumerate().map(|(i, r)| {
                        let key = format!("{}|{}", r.entity, r.key);
                        html! { <QuotaRowView {key} index={i} row={r} /> }
                    }) }
                </ul>
            }
            <AddQuota />
        </PanelBox>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    index: usize,
    row: model::QuotaRow,
}

#[function_component(QuotaRowView)]
fn quota_row(p: &RowProps) -> Html {
    let ctx = use_scene();
    let r = &p.row;
    let (entity, key) = (r.entity.clone(), r.key);
    let on_commit = {
        let d = ctx.state.dispatcher();
        let entity = entity.clone();
        Callback::from(move |value: f64| d.dispatch(Action::SetQuota { entity: entity.clone(), key, value }))
    };
    // While the field holds something Kafka refuses, the quota keeps its
    // value, and the message says so.
    let kept = format!(" Until then the quota stays {}.", quota_engine::java_double_to_string(r.value));
    let check = {
        let scenario = ctx.state.scenario.clone();
        let (entity, kept) = (entity.clone(), kept.clone());
        Callback::from(move |v: f64| model::check_quota(&scenario, &entity, key, v).err().map(|e| end_sentence(e) + &kept))
    };
    let remove = {
        let d = ctx.state.dispatcher();
        let entity = entity.clone();
        move |_| d.dispatch(Action::RemoveQuota { entity: entity.clone(), key })
    };
    html! {
        <li class="qrow">
            <div class="qwho">
                <code class="entity">{ model::entity_path(&r.entity) }</code>
                <code class="key">{ r.key.as_str() }</code>
            </div>
            <NumberField id={format!("quota-{}", p.index)} label={format!("{} of {}", r.key, r.entity)} sr_label={true}
                value={r.value} {on_commit} check={check} unit={model::unit_of(r.key)} hint={model::readable_limit(r.key, r.value)}
                parser={Callback::from(move |t: String| model::parse_quota_value(key, &t).map_err(|e| e + &kept))} />
            <button type="button" class="ghost danger" aria-label={format!("Remove {} of {}", r.key, r.entity)} onclick={remove}>{ "Remove" }</button>
            if let Some(e) = &r.error { <p class="msg error">{ format!("Kafka refuses this entry: {e}") }</p> }
            if let Some(n) = model::literal_default_note(&r.entity) { <p class="msg hint literal-default">{ n }</p> }
        </li>
    }
}

/// The kinds of entity the form can build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    User,
    Client,
    UserClient,
    Ip,
}

impl Kind {
    const ALL: [(Kind, &'static str, &'static str); 4] = [
        (Kind::User, "user", "User (--entity-type users)"),
        (Kind::Client, "client", "Client id (--entity-type clients)"),
        (Kind::UserClient, "user-client", "User and client id"),
        (Kind::Ip, "ip", "IP address (--entity-type ips)"),
    ];

    /// The keys Kafka accepts for this kind (`model::quota_keys_for`).
    fn keys(self) -> Vec<QuotaKey> {
        model::quota_keys_for(match self {
            Kind::User => &["user"],
            Kind::Client => &["client-id"],
            Kind::UserClient => &["user", "client-id"],
            Kind::Ip => &["ip"],
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Draft {
    kind: Kind,
    user: String,
    user_default: bool,
    client: String,
    client_default: bool,
    ip: String,
    ip_default: bool,
    key: QuotaKey,
    value: String,
    touched: bool,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            kind: Kind::User,
            user: String::new(),
            user_default: false,
            client: String::new(),
            client_default: false,
            ip: String::new(),
            ip_default: false,
            key: QuotaKey::ProducerByteRate,
            value: String::new(),
            touched: false,
        }
    }
}

impl Draft {
    /// The entity as it would go on the wire (empty names included: Kafka
    /// has a message for them).
    fn raw(&self) -> RawEntity {
        let part = |t: &str, default: bool, name: &str| (t.to_owned(), (!default).then(|| name.to_owned()));
        RawEntity(match self.kind {
            Kind::User => vec![part("user", self.user_default, &self.user)],
            Kind::Client => vec![part("client-id", self.client_default, &self.client)],
            Kind::UserClient => vec![
                part("user", self.user_default, &self.user),
                part("client-id", self.client_default, &self.client),
            ],
            Kind::Ip => vec![part("ip", self.ip_default, &self.ip)],
        })
    }

    fn verdict(&self, scenario: &quota_engine::sim::Scenario) -> Result<(QuotaEntity, f64), String> {
        let v = model::parse_quota_value(self.key, &self.value)?;
        let e = model::check_raw(scenario, &self.raw(), self.key.as_str(), v)?;
        Ok((e, v))
    }
}

/// A warning for a user name that is probably not what the user means: a
/// principal with its `User:` prefix (Kafka's user entity is the name
/// alone), or `<default>` typed as a name.
fn user_name_warning(d: &Draft) -> Option<String> {
    if !matches!(d.kind, Kind::User | Kind::UserClient) || d.user_default {
        return None;
    }
    let name = d.user.trim();
    if let Some(rest) = name.strip_prefix("User:") {
        Some(format!(
            "A user entity is the principal's name without its type: this quota is for a user named '{name}'. \
             For the principal User:{rest}, type '{rest}'."
        ))
    } else if name == "<default>" {
        Some("'<default>' here is a user literally named <default>, not the default user: tick 'default (--entity-default)' for that.".to_owned())
    } else {
        None
    }
}

#[function_component(AddQuota)]
fn add_quota() -> Html {
    let ctx = use_scene();
    let draft = use_state(Draft::default);
    let verdict = draft.verdict(&ctx.state.scenario);
    let set = |f: fn(&mut Draft, Event)| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let mut d = (*draft).clone();
            f(&mut d, e);
            d.touched = true;
            draft.set(d);
        })
    };
    // Choosing the entity type or the key is not an answer yet: Kafka's
    // verdict appears once something is typed (or ticked, or submitted).
    let choose = |f: fn(&mut Draft, Event)| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let mut d = (*draft).clone();
            f(&mut d, e);
            draft.set(d);
        })
    };
    let set_input = |f: fn(&mut Draft, String)| {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let mut d = (*draft).clone();
            f(&mut d, event_value(&e));
            d.touched = true;
            draft.set(d);
        })
    };
    let onsubmit = {
        let (d, draft, verdict) = (ctx.state.dispatcher(), draft.clone(), verdict.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let mut next = (*draft).clone();
            next.touched = true;
            if let Ok((entity, value)) = &verdict {
                d.dispatch(Action::SetQuota { entity: entity.clone(), key: next.key, value: *value });
            }
            draft.set(next);
        })
    };
    let name_field = |id: &'static str, label: &'static str, value: &str, default: bool, on_name: Callback<InputEvent>, on_default: Callback<Event>, placeholder: &'static str| {
        html! {
            <div class="field name">
                <label for={id}>{ label }</label>
                <input id={id} type="text" value={value.to_owned()} oninput={on_name} disabled={default}
                    placeholder={placeholder} autocomplete="off" spellcheck="false" aria-describedby="add-verdict" />
                <label class="check"><input type="checkbox" checked={default} onchange={on_default} />{ " default (--entity-default)" }</label>
            </div>
        }
    };
    let d = &*draft;
    let (msg_class, msg) = match (&verdict, d.touched) {
        (_, false) => ("msg hint", "Pick an entity and a key, type a value: Kafka's answer appears here.".to_owned()),
        (Ok((e, v)), true) => ("msg ok", format!("Kafka accepts {} = {} for {}.", d.key, quota_engine::java_double_to_string(*v), model::entity_path(e))),
        (Err(m), true) => ("msg error", m.clone()),
    };
    html! {
        <form class="add-quota" onsubmit={onsubmit} aria-labelledby="add-quota-title" data-testid="add-quota">
            <h3 id="add-quota-title">{ "Add or change a quota" }</h3>
            <div class="grid">
                <div class="field">
                    <label for="add-kind">{ "Entity type" }</label>
                    <select id="add-kind" onchange={choose(|d, e| {
                        let v = event_value(&e);
                        d.kind = Kind::ALL.iter().find(|k| k.1 == v).map_or(Kind::User, |k| k.0);
                        let keys = d.kind.keys();
                        if !keys.contains(&d.key) {
                            d.key = keys.first().copied().unwrap_or(QuotaKey::ProducerByteRate);
                        }
                    })}>
                        { for Kind::ALL.iter().map(|(k, v, l)| html! { <option value={*v} ~selected={*k == d.kind}>{ *l }</option> }) }
                    </select>
                </div>
                if matches!(d.kind, Kind::User | Kind::UserClient) {
                    { name_field("add-user", "User principal", &d.user, d.user_default,
                        set_input(|d, v| d.user = v), set(|d, e| d.user_default = event_checked(&e)), "e.g. tenant-a") }
                }
                if matches!(d.kind, Kind::Client | Kind::UserClient) {
                    { name_field("add-client", "Client id", &d.client, d.client_default,
                        set_input(|d, v| d.client = v), set(|d, e| d.client_default = event_checked(&e)), "e.g. batch-loader") }
                }
                if d.kind == Kind::Ip {
                    { name_field("add-ip", "IP address", &d.ip, d.ip_default,
                        set_input(|d, v| d.ip = v), set(|d, e| d.ip_default = event_checked(&e)), "e.g. 10.0.0.7") }
                }
                <div class="field">
                    <label for="add-key">{ "Key" }</label>
                    <select id="add-key" onchange={choose(|d, e| {
                        d.key = QuotaKey::from_name(&event_value(&e)).unwrap_or(QuotaKey::ProducerByteRate);
                    })}>
                        { for d.kind.keys().into_iter().map(|k| html! { <option value={k.as_str()} ~selected={k == d.key}>{ k.as_str() }</option> }) }
                    </select>
                </div>
                <div class="field num">
                    <label for="add-value">{ format!("Value ({})", model::unit_of(d.key)) }</label>
                    <input id="add-value" type="text" inputmode="decimal" value={d.value.clone()} autocomplete="off"
                        oninput={set_input(|d, v| d.value = v)} placeholder="e.g. 2000000" aria-describedby="add-verdict"
                        aria-invalid={(d.touched && verdict.is_err()).to_string()} />
                </div>
            </div>
            <p id="add-verdict" class={msg_class} aria-live="polite" data-testid="add-verdict">{ msg }</p>
            if let Some(w) = user_name_warning(d) {
                <p class="msg warn" role="note" data-testid="add-user-warning">{ "⚠ " }{ w }</p>
            }
            <button type="submit" disabled={verdict.is_err()}>{ "Set quota" }</button>
        </form>
    }
}

/// `message` ending with a full stop (Kafka's messages often have none),
/// so that a sentence can follow it.
fn end_sentence(message: String) -> String {
    if message.ends_with(['.', '!', '?']) {
        message
    } else {
        message + "."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_with_a_type_or_default_get_a_warning() {
        let d = |user: &str| Draft { user: user.to_owned(), ..Draft::default() };
        assert!(user_name_warning(&d("User:bob")).unwrap().contains("type 'bob'"));
        assert!(user_name_warning(&d("<default>")).unwrap().contains("not the default user"));
        assert_eq!(user_name_warning(&d("bob")), None);
        assert_eq!(user_name_warning(&Draft { kind: Kind::Client, ..d("User:bob") }), None);
    }

    #[test]
    fn key_menu_offers_the_keys_kafka_accepts_for_the_kind() {
        assert_eq!(Kind::Ip.keys(), vec![QuotaKey::ConnectionCreationRate]);
        for kind in [Kind::User, Kind::Client, Kind::UserClient] {
            assert_eq!(kind.keys(), QuotaKey::CLIENT_KEYS.to_vec());
        }
    }
}
