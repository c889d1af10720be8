//! The connection panel: who a client is on the wire (listener, mechanism,
//! name, certificate DN or Kerberos principal, `client.id`, IP), the
//! brokers' mapping rules, and the principal the engine derives.

use quota_engine::principal::{SaslMechanism, SslClientAuth};
use quota_engine::sim::{ClientThrottling, ConnectionSpec, ListenerKind};
use yew::prelude::*;

use super::{event_value, PanelBox, SelectField, TextField};
use crate::ctx::use_scene;
use crate::model;
use crate::state::Action;

const LISTENERS: [(&str, &str); 4] = [
    ("PLAINTEXT", "PLAINTEXT"),
    ("SSL", "SSL"),
    ("SASL_PLAINTEXT", "SASL_PLAINTEXT"),
    ("SASL_SSL", "SASL_SSL"),
];

fn listener_hint(l: ListenerKind) -> &'static str {
    match l {
        ListenerKind::Plaintext => "No authentication: every client is User:ANONYMOUS.",
        ListenerKind::Ssl => "TLS; the principal is the client certificate's DN, if the broker asks for one.",
        ListenerKind::SaslPlaintext => "SASL authentication without TLS.",
        ListenerKind::SaslSsl => "SASL authentication over TLS; the principal comes from SASL.",
    }
}


fn listener_name(l: ListenerKind) -> &'static str {
    match l {
        ListenerKind::Plaintext => "PLAINTEXT",
        ListenerKind::Ssl => "SSL",
        ListenerKind::SaslPlaintext => "SASL_PLAINTEXT",
        ListenerKind::SaslSsl => "SASL_SSL",
    }
}

fn listener_of(s: &str) -> ListenerKind {
    match s {
        "SSL" => ListenerKind::Ssl,
        "SASL_PLAINTEXT" => ListenerKind::SaslPlaintext,
        "SASL_SSL" => ListenerKind::SaslSsl,
        _ => ListenerKind::Plaintext,
    }
}

fn opts(list: &[(&'static str, &'static str)]) -> Vec<(AttrValue, AttrValue)> {
    list.iter().map(|(v, l)| (AttrValue::Static(v), AttrValue::Static(l))).collect()
}

#[function_component(ConnectionPanel)]
pub(crate) fn connection_panel() -> Html {
    let ctx = use_scene();
    let s = &ctx.state.scenario;
    let sel = ctx.state.selected as usize;
    let d = ctx.state.dispatcher();
    let stash = use_mut_ref(std::collections::HashMap::<(u32, model::IdentityKind), String>::new);
    let picker = html! {
        <div class="conn-picker">
            <div class="field">
                <label for="conn-select">{ "Connection" }</label>
                <select id="conn-select" onchange={let d = d.clone(); move |e: Event| {
                    if let Ok(i) = event_value(&e).parse::<u32>() { d.dispatch(Action::Select(i)) }
                }}>
                    { for s.connections.iter().enumerate().map(|(i, c)| html! {
                        <option value={i.to_string()} ~selected={i == sel}>{ c.name.clone() }</option>
                    }) }
                </select>
            </div>
            <button type="button" onclick={let d = d.clone(); move |_| d.dispatch(Action::AddConnection)}>{ "Add connection" }</button>
            <button type="button" class="ghost danger" disabled={s.connections.len() <= 1}
                aria-label="Remove this connection and its clients"
                onclick={let d = d.clone(); move |_| d.dispatch(Action::RemoveConnection(sel as u32))}>{ "Remove" }</button>
        </div>
    };
    let Some(spec) = s.connections.get(sel).cloned() else {
        return html! {
            <PanelBox id="connection" title="Connection">
                <p class="empty">{ "No connection yet." }</p>
                <button type="button" onclick={move |_| d.dispatch(Action::AddConnection)}>{ "Add connection" }</button>
            </PanelBox>
        };
    };
    // Every edit builds a new spec from the current one.
    let edit = |f: fn(&mut ConnectionSpec, String)| {
        let (d, spec) = (d.clone(), spec.clone());
        Callback::from(move |v: String| {
            let mut next = spec.clone();
            f(&mut next, v);
            d.dispatch(Action::SetConnection { index: sel as u32, spec: next });
        })
    };
    let name_check = {
        let names: Vec<String> =
            s.connections.iter().enumerate().filter(|(i, _)| *i != sel).map(|(_, c)| c.name.clone()).collect();
        Callback::from(move |v: String| {
            if v.trim().is_empty() {
                Some("A connection needs a name.".to_owned())
            } else if names.contains(&v) {
                Some(format!("Another connection is already called '{v}'."))
            } else {
                None
            }
        })
    };
    // The identity each kind of listener last had, per connection, so that
    // SASL -> SSL -> SASL gives the user name back (model::change_listener_remembering).
    let on_listener = {
        let (d, spec, stash) = (d.clone(), spec.clone(), stash.clone());
        Callback::from(move |v: String| {
            let to = listener_of(&v);
            let key = |l: ListenerKind| (sel as u32, model::identity_kind(l));
            let remembered = stash.borrow().get(&key(to)).cloned();
            let (next, left) = model::change_listener_remembering(&spec, to, remembered.as_deref());
            if let Some(left) = left {
                stash.borrow_mut().insert(key(spec.listener), left);
            }
            d.dispatch(Action::SetConnection { index: sel as u32, spec: next });
        })
    };
    let mech = spec.sasl_mechanism();
    let identity_label = match spec.listener {
        ListenerKind::Plaintext => "Identity (ignored on PLAINTEXT)",
        ListenerKind::Ssl => "Client certificate subject DN (empty = no certificate)",
        _ => match mech {
            SaslMechanism::Gssapi => "Kerberos principal (name[/host]@REALM)",
            SaslMechanism::OAuthBearer => "Token 'sub' claim",
            _ => "SASL user name",
        },
    };
    let settings = s.brokers.settings.clone();
    let gssapi = matches!(spec.listener, ListenerKind::SaslPlaintext | ListenerKind::SaslSsl) && mech == SaslMechanism::Gssapi;
    let (auth, auth_set) = model::effective_ssl_client_auth(&spec);
    let auth_hint = match (auth_set, spec.identity.is_some()) {
        (true, _) => "Set for this connection's listener.",
        (false, true) => "Not set: a certificate DN implies required (the broker asks for the certificate).",
        (false, false) => "Not set: Kafka's default, none (no client certificate; User:ANONYMOUS).",
    };
    let rules = |f: fn(&mut quota_engine::broker::BrokerSettings, Option<String>)| {
        let (d, settings) = (d.clone(), settings.clone());
        Callback::from(move |v: String| {
            let mut next = settings.clone();
            f(&mut next, (!v.trim().is_empty()).then_some(v));
            d.dispatch(Action::SetBrokerSettings(next));
        })
    };
    html! {
        <PanelBox id="connection" title="Connection"
            subtitle="Who the client is on the wire. The principal follows from the listener, as Kafka's default principal builder derives it.">
            { picker }
            <div class="grid">
                <TextField id="conn-name" label="Name (for this page)" value={spec.name.clone()}
                    on_commit={edit(|c, v| c.name = v)} validate={name_check} />
                <SelectField id="conn-listener" label="Listener (security.protocol)" value={listener_name(spec.listener)}
                    options={opts(&LISTENERS)} on_change={on_listener}
                    hint={listener_hint(spec.listener)} />
                if matches!(spec.listener, ListenerKind::SaslPlaintext | ListenerKind::SaslSsl) {
                    <SelectField id="conn-mech" label="SASL mechanism" value={mech.as_str()}
                        options={SaslMechanism::ALL.iter().map(|m| (AttrValue::Static(m.as_str()), AttrValue::Static(m.as_str()))).collect::<Vec<_>>()}
                        on_change={edit(|c, v| c.mechanism = SaslMechanism::from_name(&v).or(c.mechanism))} />
                }
                if spec.listener == ListenerKind::Ssl {
                    <SelectField id="conn-auth" label="Broker ssl.client.auth"
                        value={auth.clone()}
                        options={opts(&[("none", "none (default)"), ("requested", "requested"), ("required", "required")])}
                        hint={auth_hint}
                        on_change={edit(|c, v| c.ssl_client_auth = SslClientAuth::from_name(&v).or(c.ssl_client_auth))} />
                }
                <TextField id="conn-identity" label={identity_label} value={spec.identity.clone().unwrap_or_default()}
                    disabled={spec.listener == ListenerKind::Plaintext}
                    warning={model::dn_warning(&spec).map(AttrValue::from)}
                    on_commit={edit(|c, v| c.identity = (!v.is_empty()).then_some(v))} />
                if gssapi {
                    <TextField id="krb-realm" label="Kerberos default realm (krb5.conf default_realm)"
                        value={settings.kerberos_default_realm.clone().unwrap_or_default()} placeholder="EXAMPLE.COM"
                        on_commit={rules(|s, v| s.kerberos_default_realm = v.map(|r| r.trim().to_owned()))}
                        hint="Broker-wide. The DEFAULT rule turns name@REALM into name only for this realm." />
                }
                <TextField id="conn-client-id" label="client.id" value={spec.client_id.clone()}
                    on_commit={edit(|c, v| c.client_id = v)} hint="Chosen by the client: it can be anything." />
                <TextField id="conn-ip" label="Source IP" value={spec.ip.to_string()} on_commit={edit(|c, v| if let Ok(ip) = v.parse() { c.ip = ip })}
                    validate={{
                        // Said as the quota field says it: what the answers use meanwhile.
                        let kept = format!(" Until then the answers use {}.", spec.ip);
                        Callback::from(move |v: String| model::source_ip_error(&v).map(|e| e + &kept))
                    }} />
                <SelectField id="conn-throttling" label="Client throttling"
                    value={match spec.client_throttling { ClientThrottling::Kip219 => "kip219", ClientThrottling::Legacy => "legacy", ClientThrottling::IgnoresThrottle => "ignores-throttle" }}
                    options={opts(&[("kip219", "KIP-219 client"), ("legacy", "Legacy client"), ("ignores-throttle", "Ignores throttle_time_ms")])}
                    hint={match spec.client_throttling {
                        ClientThrottling::Kip219 => "Java clients 2.0+: the response comes at once and the client waits.",
                        ClientThrottling::Legacy => "Pre-2.0 client: the broker holds the response back.",
                        ClientThrottling::IgnoresThrottle => "librdkafka-based clients: only the broker's mute and the in-flight limit hold it back.",
                    }}
                    on_change={edit(|c, v| c.client_throttling = match v.as_str() { "legacy" => ClientThrottling::Legacy, "ignores-throttle" => ClientThrottling::IgnoresThrottle, _ => ClientThrottling::Kip219 })} />
            </div>
            <PrincipalView index={sel} />
            <details class="rules">
                <summary>{ "Broker principal mapping rules" }</summary>
                <TextField id="ssl-rules" label="ssl.principal.mapping.rules" multiline={true} placeholder="DEFAULT"
                    value={settings.ssl_principal_mapping_rules.clone().unwrap_or_default()}
                    on_commit={rules(|s, v| s.ssl_principal_mapping_rules = v)}
                    hint="e.g. RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L,DEFAULT" />
                <TextField id="krb-rules" label="sasl.kerberos.principal.to.local.rules" multiline={true} placeholder="DEFAULT"
                    value={settings.sasl_kerberos_principal_to_local_rules.clone().unwrap_or_default()}
                    on_commit={rules(|s, v| s.sasl_kerberos_principal_to_local_rules = v)}
                    hint="e.g. RULE:[1:$1@$0](.*@EXAMPLE.COM)s/@.*//,DEFAULT" />
                if let Some(e) = &ctx.analysis.rules_error {
                    <p class="msg error" role="alert">{ format!("A broker with these rules does not start: {e}") }</p>
                }
            </details>
        </PanelBox>
    }
}

#[derive(Properties, PartialEq)]
struct PrincipalProps {
    index: usize,
}

#[function_component(PrincipalView)]
fn principal_view(p: &PrincipalProps) -> Html {
    let ctx = use_scene();
    let Some(outcome) = ctx.analysis.principals.get(p.index) else { return html! {} };
    match outcome {
        Ok(o) => {
            let anonymous = o.principal.name == "ANONYMOUS";
            html! {
                <div class={classes!("principal", anonymous.then_some("anon"))} data-testid="principal" aria-live="polite">
                    <dl>
                        <dt>{ "Principal" }</dt>
                        <dd><code data-testid="principal-name">{ o.principal.to_string() }</code></dd>
                        <dt>{ "Sanitized (metric tag user)" }</dt>
                        <dd><code>{ if o.sanitized_name.is_empty() { "\"\"".to_owned() } else { o.sanitized_name.clone() } }</code></dd>
                        <dt>{ "How" }</dt>
                        <dd data-testid="principal-how">{
                            // A certificate DN Java reads differently from how it
                            // was typed: the engine's reading step, then the rule.
                            match o.derivation.steps().as_slice() {
                                [one] => html! { { one.clone() } },
                                steps => html! { <ol class="steps">{ for steps.iter().map(|s| html! { <li>{ s.clone() }</li> }) }</ol> },
                            }
                        }</dd>
                    </dl>
                    { for ctx.analysis.cluster.principal_warnings(o).into_iter().map(|w| html! { <p class="msg warn" role="note" data-testid="principal-warning">{ "⚠ " }{ w }</p> }) }
                </div>
            }
        }
        Err(e) => {
            let s = &ctx.state.scenario;
            let no_realm = s.brokers.settings.kerberos_default_realm.is_none()
                && s.connections.get(p.index).is_some_and(|c| {
                    matches!(c.listener, ListenerKind::SaslPlaintext | ListenerKind::SaslSsl)
                        && c.sasl_mechanism() == SaslMechanism::Gssapi
                });
            html! {
                <div class="principal failed" data-testid="principal">
                    <p class="msg error">{ format!("No principal: {e}") }</p>
                    if no_realm {
                        <p class="msg hint" data-testid="realm-hint">{ "No Kerberos default realm is set: DEFAULT shortens name@REALM only when REALM is the broker's krb5.conf default_realm. Set it above." }</p>
                    }
                </div>
            }
        }
    }
}
