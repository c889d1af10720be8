//! The playground's permalink: a whole [`Scenario`] in the fragment of a URL,
//! and a redaction that hides names but keeps every answer.
//!
//! # Format, version 1
//!
//! ```text
//! v1.<payload>
//! payload = base64url( deflate( json ) )
//! ```
//!
//! - `json`: the scenario as JSON (the serde form of
//!   [`quota_engine::sim::Scenario`], the same JSON the lab fixtures and the
//!   CLI read), UTF-8. Fields left out take their defaults.
//! - `deflate`: raw DEFLATE (RFC 1951), no zlib or gzip header.
//! - `base64url`: the URL- and filename-safe alphabet of RFC 4648 §5
//!   (`A-Z a-z 0-9 - _`), without `=` padding.
//!
//! The playground reads the text after `#`: `https://…/index.html#v1.<payload>`,
//! and `…/index.html?embed=simulation#v1.<payload>` for an embedded panel.
//! A documentation generator can build such a link without this crate, e.g.
//! in Python:
//!
//! ```text
//! c = zlib.compressobj(9, zlib.DEFLATED, -15)          # raw deflate
//! data = c.compress(json.dumps(scenario).encode()) + c.flush()
//! link = base + "#v1." + base64.urlsafe_b64encode(data).decode().rstrip("=")
//! ```
//!
//! Decoding is bounded: a link longer than [`MAX_LINK_CHARS`] or whose JSON
//! inflates past [`MAX_JSON_BYTES`] is refused before it can exhaust memory,
//! and every failure is an [`Error`] of kind [`ErrorKind::Permalink`]
//! whose message says what was wrong ([`LinkProblem`]). Later versions will
//! use another prefix (`v2.`); this module reads `v1.` only and says so for
//! anything else.
//!
//! # Example
//!
//! ```
//! use quota_engine::sim::Scenario;
//! use quota_formats::permalink::{decode, encode};
//!
//! let s: Scenario = serde_json::from_str(r#"{"name": "demo",
//!   "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 2000000}]}"#)?;
//! let link = encode(&s);
//! assert!(link.starts_with("v1."));
//! assert_eq!(decode(&link)?, s);
//! assert!(decode("v1.not-deflate").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
use quota_engine::sim::{ListenerKind, Scenario, ScenarioEvent, Workload};
use quota_engine::{EntityName, QuotaEntity};

use crate::error::{Error, LinkProblem};
#[cfg(doc)]
use crate::error::ErrorKind;

/// The prefix of the current format.
pub const PREFIX: &str = "v1.";

/// The longest link text [`decode`] accepts, in characters (after `#`).
pub const MAX_LINK_CHARS: usize = 200_000;

/// The most bytes of JSON a link may inflate to (1 MiB).
pub const MAX_JSON_BYTES: usize = 1 << 20;

/// DEFLATE level: 9 (best); scenarios are small and encoding is rare.
const LEVEL: u8 = 9;

/// Encodes `scenario` as `v1.<base64url(deflate(json))>` (see the module docs).
pub fn encode(scenario: &Scenario) -> String {
    // A Scenario holds only strings, numbers and enums: serialising cannot fail.
    let json = serde_json::to_vec(scenario).unwrap_or_default();
    let packed = compress_to_vec(&json, LEVEL);
    let mut out = String::with_capacity(PREFIX.len() + packed.len() * 4 / 3 + 4);
    out.push_str(PREFIX);
    URL_SAFE_NO_PAD.encode_string(packed, &mut out);
    out
}

/// Decodes a link made by [`encode`]. A leading `#` and surrounding
/// whitespace are ignored.
///
/// # Errors
///
/// An [`ErrorKind::Permalink`] error for an empty text, a missing or unknown version, a
/// text over [`MAX_LINK_CHARS`], bad base64url, bad or truncated DEFLATE
/// data, JSON over [`MAX_JSON_BYTES`], or JSON that is not a scenario.
pub fn decode(link: &str) -> Result<Scenario, Error> {
    decode_scenario(link).map_err(Error::permalink)
}

/// [`decode`], with the problem as it is found.
fn decode_scenario(link: &str) -> Result<Scenario, LinkProblem> {
    let text = link.trim();
    let text = text.strip_prefix('#').unwrap_or(text).trim();
    if text.is_empty() {
        return Err(LinkProblem::Empty);
    }
    let chars = text.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(LinkProblem::TooLong { chars, max_chars: MAX_LINK_CHARS });
    }
    let payload = match text.strip_prefix(PREFIX) {
        Some(p) => p,
        None => {
            let (version, _) = text.split_once('.').unwrap_or((text, ""));
            let looks_versioned = version.len() > 1
                && version.starts_with('v')
                && version[1..].bytes().all(|b| b.is_ascii_digit());
            return Err(if looks_versioned {
                LinkProblem::UnknownVersion { found: version.to_owned() }
            } else {
                LinkProblem::NoVersion
            });
        }
    };
    // The first character outside the alphabet, named (the decoder may
    // report a later one, or a non-ASCII character by one of its bytes).
    if let Some((i, c)) = payload
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        let shown = if !c.is_control() && !c.is_whitespace() {
            format!(", '{c}'")
        } else {
            format!(", U+{:04X}", u32::from(c))
        };
        return Err(LinkProblem::Base64 { detail: format!("at character {} after 'v1.'{shown}", i + 1) });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(payload.as_bytes())
        .map_err(|e| LinkProblem::Base64 { detail: base64_detail(&e) })?;
    let json = decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES).map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => LinkProblem::TooLarge { max_bytes: MAX_JSON_BYTES },
        TINFLStatus::FailedCannotMakeProgress => LinkProblem::Inflate { detail: "the data ends too early".into() },
        _ => LinkProblem::Inflate { detail: "the data is not DEFLATE".into() },
    })?;
    // from_str, as every other reader of a Scenario: one deserializer
    // instantiation in the wasm instead of two.
    let json = String::from_utf8(json).map_err(|e| LinkProblem::Scenario { detail: e.to_string() })?;
    serde_json::from_str(&json)
        .map_err(|e| LinkProblem::Scenario { detail: e.to_string().trim_end_matches('.').to_owned() })
}

/// Where a base64url payload goes wrong, in words for [`LinkProblem::Base64`]
/// (the decoder's own text, `Invalid last symbol 101, offset 6`, means
/// nothing to a reader). Offsets count from 1 after the `v1.` prefix.
fn base64_detail(e: &base64::DecodeError) -> String {
    use base64::DecodeError as D;
    match e {
        D::InvalidByte(offset, _) | D::InvalidLastSymbol(offset, _) => {
            format!("at character {} after 'v1.'", offset + 1)
        }
        D::InvalidLength(len) => format!("{len} characters after 'v1.' cannot be a whole base64url text"),
        D::InvalidPadding => "it ends with '=' padding, which links leave out".to_owned(),
    }
}

/// The `ssl.principal.mapping.rules` a redacted scenario uses: a redacted DN
/// `CN=user-N` maps to `user-N`; anything else fails to map, as before.
pub const REDACTED_SSL_RULES: &str = "RULE:^CN=(user-[0-9]+)$/$1/";

/// Consistent replacement names, numbered in order of first appearance.
#[derive(Default)]
struct Namer {
    users: BTreeMap<String, String>,
    clients: BTreeMap<String, String>,
    ips: BTreeMap<String, String>,
    connections: BTreeMap<String, String>,
    topics: BTreeMap<String, String>,
}

fn next_name(map: &mut BTreeMap<String, String>, key: &str, make: impl Fn(usize) -> String) -> String {
    if let Some(v) = map.get(key) {
        return v.clone();
    }
    let v = make(map.len() + 1);
    map.insert(key.to_owned(), v.clone());
    v
}

/// Documentation addresses (RFC 5737, RFC 3849): never a real host.
fn doc_ip(n: usize) -> String {
    if n <= 254 {
        format!("192.0.2.{n}")
    } else {
        format!("2001:db8::{n:x}")
    }
}

impl Namer {
    /// `ANONYMOUS` is Kafka's constant, not a name: it is kept.
    fn user(&mut self, name: &str) -> String {
        if name == "ANONYMOUS" {
            return name.to_owned();
        }
        next_name(&mut self.users, name, |n| format!("user-{n}"))
    }
    fn client(&mut self, id: &str) -> String {
        if id.is_empty() {
            return String::new();
        }
        next_name(&mut self.clients, id, |n| format!("client-{n}"))
    }
    fn ip(&mut self, ip: &str) -> String {
        next_name(&mut self.ips, ip, doc_ip)
    }
    fn connection(&mut self, name: &str) -> String {
        next_name(&mut self.connections, name, |n| format!("connection-{n}"))
    }
    fn topic(&mut self, name: &str) -> String {
        next_name(&mut self.topics, name, |n| format!("topic-{n}"))
    }
}

/// Per scenario connection, the principal name the engine derives (`None`
/// when Kafka would close the connection), from the one analysed cluster.
fn principal_names(scenario: &Scenario) -> Vec<Option<String>> {
    let cluster = quota_engine::cluster::Cluster::new(scenario);
    (0..scenario.connections.len())
        .map(|i| {
            cluster
                .connection(i)
                .and_then(|c| c.principal())
                .map(|o| o.principal.name.clone())
        })
        .collect()
}

/// A copy of `scenario` for sharing: user names, certificate DNs, Kerberos
/// principals, client ids, IP addresses, connection and topic names are
/// replaced by `user-1`, `client-1`, `192.0.2.1`, `connection-1`, `topic-1`,
/// … consistently, so every connection resolves to the same rung and limit
/// and shares budgets with the same connections as before. The name and
/// description become generic; quotas, settings and workloads are kept.
///
/// How identities are rewritten: a SASL PLAIN/SCRAM/OAUTHBEARER identity
/// becomes the redacted principal name; a Kerberos principal becomes the
/// bare redacted name (used as it is by the `DEFAULT` rule, so the Kerberos
/// rules are reset); a certificate DN becomes `CN=user-N` under
/// [`REDACTED_SSL_RULES`]. `User:ANONYMOUS` stays as it is. A connection
/// whose principal cannot be derived gets an identity that still fails.
pub fn redact(scenario: &Scenario) -> Scenario {
    let principals = principal_names(scenario);
    let mut namer = Namer::default();
    let mut out = scenario.clone();
    out.name = "Redacted scenario".to_owned();
    out.description = String::new();
    let mut any_ssl_dn = false;
    for ((spec, original), principal) in out.connections.iter_mut().zip(&scenario.connections).zip(principals) {
        spec.name = namer.connection(&original.name);
        spec.client_id = namer.client(&original.client_id);
        // doc_ip's names are IP literals (192.0.2.n, 2001:db8::n), so the
        // parse cannot fail; the default is never reached.
        spec.ip = namer.ip(original.ip.as_str()).parse().unwrap_or_default();
        let Some(id) = &original.identity else { continue };
        spec.identity = Some(match (original.listener, &principal) {
            (ListenerKind::Plaintext, _) => String::new(),
            (_, Some(p)) if p == "ANONYMOUS" && original.listener == ListenerKind::Ssl => "CN=anonymous".to_owned(),
            (ListenerKind::Ssl, Some(p)) => {
                any_ssl_dn = true;
                format!("CN={}", namer.user(p))
            }
            (ListenerKind::Ssl, None) => {
                any_ssl_dn = true;
                "O=unmapped".to_owned()
            }
            (_, Some(p)) => namer.user(p),
            // Failed SASL derivations keep failing: an empty PLAIN name, a
            // malformed Kerberos name.
            (_, None) if id.trim().is_empty() => id.clone(),
            (_, None) => "a@b@c".to_owned(),
        });
        if original.listener == ListenerKind::Plaintext {
            spec.identity = None;
        }
    }
    out.brokers.settings.ssl_principal_mapping_rules = any_ssl_dn.then(|| REDACTED_SSL_RULES.to_owned());
    out.brokers.settings.sasl_kerberos_principal_to_local_rules = None;
    for q in &mut out.quotas {
        q.entity = redact_entity(&q.entity, &mut namer);
    }
    for t in &mut out.topics {
        t.name = namer.topic(&t.name);
    }
    for w in &mut out.workloads {
        let (conn, topic) = match w {
            Workload::Producer(p) => (&mut p.connection, &mut p.topic),
            Workload::Consumer(c) => (&mut c.connection, &mut c.topic),
            Workload::Admin(a) => {
                a.connection = namer.connection(&a.connection);
                a.topic_prefix = namer.topic(&a.topic_prefix);
                continue;
            }
            Workload::Connects(c) => {
                c.connection = namer.connection(&c.connection);
                continue;
            }
        };
        *conn = namer.connection(conn);
        *topic = namer.topic(topic);
    }
    for e in &mut out.events {
        match e {
            ScenarioEvent::MoveLeader { topic, .. } => *topic = namer.topic(topic),
            ScenarioEvent::SetQuota { entity, .. } => *entity = redact_entity(entity, &mut namer),
        }
    }
    out
}

/// A quota entity with its names redacted as the quotas' are.
fn redact_entity(entity: &QuotaEntity, namer: &mut Namer) -> QuotaEntity {
    let name = |n: &EntityName, f: &mut dyn FnMut(&str) -> String| match n {
        EntityName::Named(s) => EntityName::Named(f(s)),
        EntityName::Default => EntityName::Default,
    };
    match entity {
        QuotaEntity::User(u) => QuotaEntity::User(name(u, &mut |s| namer.user(s))),
        QuotaEntity::ClientId(c) => QuotaEntity::ClientId(name(c, &mut |s| namer.client(s))),
        QuotaEntity::UserClientId { user, client_id } => QuotaEntity::UserClientId {
            user: name(user, &mut |s| namer.user(s)),
            client_id: name(client_id, &mut |s| namer.client(s)),
        },
        QuotaEntity::Ip(i) => QuotaEntity::Ip(name(i, &mut |s| namer.ip(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use quota_engine::sim::{ConnectionSpec, QuotaSetting};
    use quota_engine::{QuotaKey, QuotaStore};

    fn scenario(json: &str) -> Scenario {
        serde_json::from_str(json).unwrap()
    }

    /// What [`decode`] finds wrong with `link`.
    fn problem(link: &str) -> LinkProblem {
        let e = decode(link).unwrap_err();
        assert_eq!(e.to_string(), e.link_problem().unwrap().to_string(), "a link error names no position");
        e.link_problem().cloned().unwrap()
    }

    fn lab() -> Scenario {
        scenario(
            r#"{"name": "lab", "seed": 7,
              "topics": [{"name": "orders", "partitions": 3}],
              "quotas": [
                {"entity": {"user": "tenant-a"}, "key": "producer_byte_rate", "value": 2000000},
                {"entity": {"user": null}, "key": "consumer_byte_rate", "value": 1000000},
                {"entity": {"user": "alice", "client-id": "batch"}, "key": "request_percentage", "value": 50},
                {"entity": {"client-id": "batch"}, "key": "producer_byte_rate", "value": 500000},
                {"entity": {"ip": "10.1.2.3"}, "key": "connection_creation_rate", "value": 5}],
              "brokers": {"settings": {"ssl.principal.mapping.rules": "RULE:^CN=([^,]*),OU=eng.*$/$1/L,DEFAULT",
                "sasl.kerberos.principal.to.local.rules": "RULE:[2:$1@$0](.*@EXAMPLE.COM)s/@.*//,DEFAULT"}},
              "connections": [
                {"name": "plain", "listener": "PLAINTEXT", "client.id": "tenant-a", "ip": "10.1.2.3"},
                {"name": "sasl-a", "listener": "SASL_PLAINTEXT", "identity": "tenant-a", "client.id": "app-1"},
                {"name": "cert", "listener": "SSL", "identity": "CN=Alice,OU=eng,O=org", "client.id": "batch"},
                {"name": "krb", "listener": "SASL_SSL", "mechanism": "GSSAPI", "identity": "alice/host@EXAMPLE.COM", "client.id": "batch"}],
              "workloads": [{"producer": {"connection": "sasl-a", "topic": "orders", "records": 10, "record.size": 100}}]}"#,
        )
    }

    /// Per connection, per quota type: (rung, limit bits, the budget's sharers).
    type Resolutions = Vec<Vec<(Option<u8>, Option<u64>, Option<String>)>>;

    fn resolutions(s: &Scenario) -> Resolutions {
        let mut store = QuotaStore::new();
        for q in &s.quotas {
            store.set(&q.entity, q.key, q.value).unwrap();
        }
        let conns: Vec<Option<(String, String)>> = principal_names(s)
            .into_iter()
            .zip(&s.connections)
            .map(|(p, c)| p.map(|p| (p, c.client_id.clone())))
            .collect();
        conns
            .iter()
            .map(|c| match c {
                None => vec![],
                Some((p, cid)) => quota_engine::resolve::resolve_all(&store, p, cid)
                    .iter()
                    .map(|r| {
                        // Which other connections share this budget, by index.
                        let sharers: Vec<usize> = conns
                            .iter()
                            .enumerate()
                            .filter(|(_, o)| match o {
                                Some((p2, c2)) => {
                                    let r2 = &quota_engine::resolve::resolve_all(&store, p2, c2)
                                        [r.quota_type.slot()];
                                    r.shares_budget_with(r2)
                                }
                                None => false,
                            })
                            .map(|(i, _)| i)
                            .collect();
                        (r.rung().map(|x| x.number()), r.limit().map(|l| l as u64), Some(format!("{sharers:?}")))
                    })
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn round_trip_keeps_every_field() {
        let s = lab();
        let link = encode(&s);
        assert!(link.starts_with("v1."));
        assert!(link[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(decode(&link).unwrap(), s);
        assert_eq!(decode(&format!("#{link}\n")).unwrap(), s);
    }

    #[test]
    fn damaged_links_say_what_is_wrong() {
        let link = encode(&lab());
        assert_eq!(problem(""), LinkProblem::Empty);
        assert_eq!(problem("#"), LinkProblem::Empty);
        assert_eq!(problem("hello"), LinkProblem::NoVersion);
        assert_eq!(problem("v2.abc"), LinkProblem::UnknownVersion { found: "v2".into() });
        assert!(matches!(problem("v1.@@@"), LinkProblem::Base64 { .. }));
        assert_eq!(
            decode("#v1.garbage").unwrap_err().to_string(),
            "The link's scenario is damaged: its text is not valid base64url (at character 7 after 'v1.')."
        );
        assert_eq!(
            decode("v1.garbage!!").unwrap_err().to_string(),
            "The link's scenario is damaged: its text is not valid base64url (at character 8 after 'v1.', '!')."
        );
        assert!(decode("v1.ab c").unwrap_err().to_string().contains("(at character 3 after 'v1.', U+0020)"));
        assert!(decode("v1.abé").unwrap_err().to_string().contains("(at character 3 after 'v1.', 'é')"));
        // Cut at a whole base64 quantum so that only the DEFLATE data is short.
        let cut = 3 + (link.len() - 3) / 2 / 4 * 4;
        assert!(matches!(problem(&link[..cut]), LinkProblem::Inflate { .. }));
        let e = problem("v1.AAAA");
        assert!(matches!(e, LinkProblem::Inflate { .. }), "{e:?}");
        let not_scenario = format!("v1.{}", URL_SAFE_NO_PAD.encode(compress_to_vec(b"{\"nope\": 1}", 9)));
        let e = decode(&not_scenario).unwrap_err();
        assert!(matches!(e.link_problem(), Some(LinkProblem::Scenario { .. })));
        assert!(e.to_string().contains("nope"), "{e}");
        let long = format!("v1.{}", "A".repeat(MAX_LINK_CHARS));
        assert!(matches!(problem(&long), LinkProblem::TooLong { .. }));
        for e in [decode("hello").unwrap_err(), decode("v9.x").unwrap_err(), decode("v1.@@@").unwrap_err()] {
            let m = e.to_string();
            assert!(m.ends_with('.') && m.starts_with("The link") && !m.contains(".)") && !m.contains(".."), "{m}");
        }
    }

    #[test]
    fn redaction_hides_the_names_in_events() {
        let s = scenario(
            r#"{"topics": [{"name": "orders", "partitions": 2}], "brokers": {"count": 2},
                "connections": [{"name": "p", "listener": "SASL_PLAINTEXT", "identity": "alice"}],
                "quotas": [{"entity": {"user": "alice"}, "key": "producer_byte_rate", "value": 2000000}],
                "events": [
                  {"at_ms": 1, "kind": "move_leader", "topic": "orders", "partition": 1, "to_broker": 0},
                  {"at_ms": 2, "kind": "set_quota", "entity": {"user": "alice", "client-id": "app"}, "key": "producer_byte_rate", "value": null}]}"#,
        );
        let r = redact(&s);
        let json = serde_json::to_string(&r).unwrap();
        for secret in ["orders", "alice", "\"app\""] {
            assert!(!json.contains(secret), "{secret} leaked: {json}");
        }
        // The events still name the redacted topic and user.
        assert!(r.validate().is_ok(), "{:?}", r.validate());
        let ScenarioEvent::SetQuota { entity, .. } = &r.events[1] else { panic!("{json}") };
        let expected = QuotaEntity::UserClientId {
            user: EntityName::Named("user-1".into()),
            client_id: EntityName::Named("client-1".into()),
        };
        assert_eq!(entity, &expected);
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        // 64 MiB of spaces deflate to about 64 KiB; the link must not inflate it.
        let bomb = vec![b' '; 64 << 20];
        let link = format!("v1.{}", URL_SAFE_NO_PAD.encode(compress_to_vec(&bomb, 9)));
        assert!(link.len() < MAX_LINK_CHARS);
        assert_eq!(problem(&link), LinkProblem::TooLarge { max_bytes: MAX_JSON_BYTES });
    }

    #[test]
    fn redaction_hides_names_and_keeps_every_answer() {
        let s = lab();
        let r = redact(&s);
        let json = serde_json::to_string(&r).unwrap();
        for secret in ["tenant-a", "alice", "Alice", "\"batch\"", "app-1", "EXAMPLE", "10.1.2.3", "orders", "sasl-a", "eng"] {
            assert!(!json.contains(secret), "{secret} leaked: {json}");
        }
        assert_eq!(resolutions(&r), resolutions(&s));
        // The PLAINTEXT connection is still ANONYMOUS, the SASL one is user-1.
        assert_eq!(r.connections[1].identity.as_deref(), Some("user-1"));
        assert_eq!(r.connections[2].identity.as_deref(), Some("CN=user-2"));
        assert_eq!(r.connections[3].identity.as_deref(), Some("user-2"));
        assert_eq!(r.quotas[0].entity, QuotaEntity::user("user-1"));
        assert_eq!(r.quotas[4].entity, QuotaEntity::Ip(EntityName::Named("192.0.2.1".into())));
        // Redacting twice changes nothing more.
        assert_eq!(resolutions(&redact(&r)), resolutions(&s));
    }

    fn arb_scenario() -> impl Strategy<Value = Scenario> {
        let users = prop::sample::select(vec!["alice", "bob", "CN=carol,OU=x", "ANONYMOUS", "a b"]);
        let clients = prop::sample::select(vec!["app", "batch", "", "a:b"]);
        let entity = (0u8..6, users.clone(), clients.clone()).prop_map(|(k, u, c)| match k {
            0 => QuotaEntity::user(u),
            1 => QuotaEntity::User(EntityName::Default),
            2 if !c.is_empty() => QuotaEntity::client_id(c),
            3 => QuotaEntity::ClientId(EntityName::Default),
            4 if !c.is_empty() => QuotaEntity::UserClientId {
                user: EntityName::Named(u.into()),
                client_id: EntityName::Named(c.into()),
            },
            _ => QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Default },
        });
        let key = prop::sample::select(QuotaKey::CLIENT_KEYS.to_vec());
        let quota = (entity, key, 1u32..100_000).prop_map(|(entity, key, v)| QuotaSetting { entity, key, value: f64::from(v) });
        let listener = prop::sample::select(vec![
            ListenerKind::Plaintext,
            ListenerKind::Ssl,
            ListenerKind::SaslPlaintext,
            ListenerKind::SaslSsl,
        ]);
        let conn = (listener, users, clients, any::<bool>(), 0u8..3).prop_map(|(l, u, c, gssapi, n)| ConnectionSpec {
            name: format!("c{n}"),
            listener: l,
            mechanism: (gssapi && l != ListenerKind::Ssl).then_some(quota_engine::principal::SaslMechanism::Gssapi),
            ssl_client_auth: None,
            identity: Some(if l == ListenerKind::Ssl && !u.contains('=') { format!("CN={u}") } else { u.to_owned() }),
            client_id: c.to_owned(),
            ip: Default::default(),
            client_throttling: Default::default(),
        });
        (prop::collection::vec(quota, 0..6), prop::collection::vec(conn, 1..4), any::<u64>()).prop_map(|(quotas, connections, seed)| {
            let mut s = scenario("{}");
            s.seed = seed;
            // One value per (entity, key), as the playground keeps them.
            let mut seen = std::collections::BTreeSet::new();
            s.quotas = quotas.into_iter().filter(|q| seen.insert((q.entity.clone(), q.key))).collect();
            s.connections = connections;
            s
        })
    }

    proptest! {
        #[test]
        fn any_scenario_round_trips(s in arb_scenario()) {
            prop_assert_eq!(decode(&encode(&s)).unwrap(), s);
        }

        #[test]
        fn redaction_keeps_resolution(s in arb_scenario()) {
            prop_assert_eq!(resolutions(&redact(&s)), resolutions(&s));
        }
    }
}
