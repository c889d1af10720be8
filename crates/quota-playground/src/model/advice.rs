//! Advice beside the ladder: "make this apply" proposals, near misses,
//! a `request_percentage` as a share of the broker's threads, and the
//! scope notes the Resolution panel shows.
//!
//! Every verdict comes from the engine's [`quota_engine::advice`], which
//! sets each candidate entity in a copy of the quotas and resolves the
//! connection again on Kafka's ladder (`DefaultQuotaCallback`,
//! `server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`).
//! This module only chooses the answer for the page's scope and words it;
//! the commands are `quota-formats`' kafka-configs.sh exporter's.

use quota_engine::advice::{
    display_exact, near_misses, propose, request_capacity, ExactPath, Proposal, Scope,
};
use quota_engine::broker::BrokerSettings;
use quota_engine::resolve::ClientIdentity;
use quota_engine::{java_double_to_string, EntityName, QuotaEntity, QuotaKey, QuotaStore, QuotaType};

use super::readable_limit;

/// The scope choices of the "Make this apply" form, in the order shown:
/// the `<select>` value, its label and the engine's [`Scope`].
pub const SCOPES: [(&str, &str, Scope); 3] = [
    ("connection", "this connection", Scope::Connections),
    ("every-user", "every user (this client-id)", Scope::EveryUser),
    ("every-client-id", "every client-id (this user)", Scope::EveryClientId),
];

/// The [`Scope`] for a `<select>` value (`connection` when unknown).
pub fn scope_from_value(v: &str) -> Scope {
    SCOPES.iter().find(|s| s.0 == v).map_or(Scope::Connections, |s| s.2)
}

/// The `<select>` value of a [`Scope`].
pub fn scope_value(scope: Scope) -> &'static str {
    SCOPES.iter().find(|s| s.2 == scope).map_or("connection", |s| s.0)
}

/// Whom a scope asks to reach, for sentences.
fn scope_words(scope: Scope) -> &'static str {
    match scope {
        Scope::Connections => "this connection",
        Scope::EveryUser => "every user without a quota of their own, with this client-id",
        Scope::EveryClientId => "every client-id of this user without a quota of its own",
    }
}

/// Reads a wanted limit for `key`: a number in the key's unit as
/// `Double.parseDouble` reads it (`10000000`, `1e7`), or for a byte rate a
/// number with a unit (`10MB`, `10 MB/s`, `512KiB/s`; k, M, G are powers of
/// 1000, Ki, Mi, Gi of 1024), or for `request_percentage` a percentage
/// (`200%`). The value must then be one Kafka accepts for the key (checked
/// with the engine's `QuotaStore::set`, e.g. a whole number of bytes/s).
///
/// # Errors
/// A sentence naming the field, the text and the reason.
pub fn parse_want(key: QuotaKey, text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("Enter the {key} you want, in {}.", super::unit_of(key)));
    }
    quota_engine::advice::parse_wanted(key, t).map_err(|why| format!("The wanted {key} '{t}' is not a value: {why}."))
}

/// One proposal as the page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProposalView {
    /// Kafka's rung number (1 = most specific).
    pub rung: u8,
    /// The entity to set, shown exactly ([`ExactPath::exact_path`]).
    pub entity: String,
    /// One sentence: what to set and whom it reaches.
    pub sentence: String,
    /// The kafka-configs.sh command that sets it.
    pub command: String,
    /// The scenario's other connections that get the limit from it too (names).
    pub covers: Vec<String>,
    /// Sentences: existing quotas that stop applying to someone.
    pub shadows: Vec<String>,
    /// Sentences: existing, more specific quotas that keep applying to someone it would reach.
    pub shadowed_by: Vec<String>,
    /// Sentences: a literal `<default>` name, the value it replaces, side effects.
    pub notes: Vec<String>,
}

/// The answer of the "Make this apply" form.
#[derive(Debug, Clone, PartialEq)]
pub struct AdviceView {
    /// One sentence: the best proposal for the scope, or why there is none.
    pub answer: String,
    /// The best proposal for the scope.
    pub best: Option<ProposalView>,
    /// The other proposals, most specific first.
    pub others: Vec<ProposalView>,
    /// Rungs that would not do, one sentence each.
    pub not_proposed: Vec<String>,
    /// What the connection gets today.
    pub today: String,
    /// For `request_percentage`: the wanted value against the broker's
    /// thread capacity (summary, warning above capacity).
    pub capacity: Option<(String, Option<String>)>,
}

/// Everything the form's answer depends on, so the page computes it only
/// when one of these changes (not on unrelated edits).
#[derive(Debug, Clone, PartialEq)]
pub struct AdviceQuery {
    /// The quotas Kafka accepted.
    pub store: QuotaStore,
    /// The connection asked about (principal name as the broker derives it, client.id).
    pub connection: ClientIdentity,
    /// The scenario's other connections with a principal: name and identity.
    pub others: Vec<(String, ClientIdentity)>,
    /// The quota type.
    pub quota_type: QuotaType,
    /// The wanted value (the key's unit).
    pub want: f64,
    /// Whom it must reach.
    pub scope: Scope,
    /// `num.io.threads` and `num.network.threads` of the brokers.
    pub threads: (u32, u32),
}

/// The kafka-configs.sh command that sets `key=value` on `entity`, as
/// `quota-formats` exports it (`--entity-default` for a default part).
pub fn configs_command(entity: &QuotaEntity, key: QuotaKey, value: f64) -> String {
    let mut one = QuotaStore::new();
    match one.set(entity, key, value) {
        Ok(()) => quota_formats::configs_sh::alter_commands(&one).trim_end().to_owned(),
        Err(e) => format!("(no command: Kafka refuses {}: {})", entity.exact_path(), e.message),
    }
}

fn view(p: &Proposal, names: &[(String, ClientIdentity)]) -> ProposalView {
    let name_of = |c: &ClientIdentity| {
        names
            .iter()
            .filter(|(_, id)| id == c)
            .map(|(n, _)| n.clone())
            .collect::<Vec<_>>()
    };
    let mut notes = Vec::new();
    if let Some(n) = p.entity.literal_default_note() {
        notes.push(n);
    }
    if let Some(old) = p.replaces.filter(|_| !p.already_in_place) {
        notes.push(format!(
            "It replaces {}={} on {}: everyone it reaches gets the new value.",
            p.key,
            java_double_to_string(old),
            p.entity.exact_path()
        ));
    }
    for e in p.effects.iter().skip(1).filter(|e| !e.covered && e.before != e.after) {
        let who = name_of(&e.connection).join(", ");
        notes.push(format!("Side effect on {who}: {}", e.summary));
    }
    ProposalView {
        rung: p.rung.number(),
        entity: p.entity.exact_path(),
        sentence: p.summary.clone(),
        command: configs_command(&p.entity, p.key, p.value),
        covers: p.covers.iter().flat_map(name_of).collect(),
        shadows: p.shadows.iter().map(|s| s.summary.clone()).collect(),
        shadowed_by: p.shadowed_by.iter().map(|s| s.summary.clone()).collect(),
        notes,
    }
}

/// Proposes what to set so that `q.connection` gets `q.want` for
/// `q.quota_type`, reaching `q.scope`, with the engine's
/// [`propose`]. The scenario's other connections are passed along so each
/// proposal names those it also covers and the side effects on them; the
/// best proposal is chosen for the connection alone:
/// [`Scope::Connections`] the most specific, [`Scope::EveryUser`] /
/// [`Scope::EveryClientId`] the most specific that also reaches a user /
/// client-id without a quota of its own (checked on the ladder by the engine).
pub fn advise(q: &AdviceQuery) -> AdviceView {
    let others: Vec<ClientIdentity> = q.others.iter().map(|(_, c)| c.clone()).collect();
    let a = propose(&q.store, &q.connection, &others, q.quota_type, q.want);
    let best = a.proposals.iter().position(|p| match q.scope {
        Scope::Connections => true,
        Scope::EveryUser => p.reaches_any_user,
        Scope::EveryClientId => p.reaches_any_client_id,
    });
    let key = a.key;
    // Quoted as the engine's sentences quote them (an empty client.id is `""`).
    let who = format!("principal {:?} with client.id {:?}", q.connection.principal_name, q.connection.client_id);
    let answer = match best {
        _ if a.already_applies().is_some() => a.already_applies().unwrap_or_default(),
        Some(i) => a.proposals[i].summary.clone(),
        None if a.proposals.is_empty() => format!(
            "No entity gives {who} {key}={}: every rung is refused or outranked (see the rungs not proposed).",
            java_double_to_string(q.want)
        ),
        None => format!(
            "No single entity gives {key}={} to {who} and to {}: each proposal reaches fewer.",
            java_double_to_string(q.want),
            scope_words(q.scope)
        ),
    };
    let today = match &a.current.matched {
        Some(m) => format!(
            "Today {who} gets {} from {} (rung {}).",
            readable_limit(key, m.value),
            m.entity.exact_path(),
            m.rung.number()
        ),
        None => format!("Today {who} has no {key} limit (unlimited)."),
    };
    let capacity = (key == QuotaKey::RequestPercentage).then(|| {
        let c = capacity_of(q.want, q.threads);
        (c.0, c.1)
    });
    AdviceView {
        answer,
        best: best.map(|i| view(&a.proposals[i], &q.others)),
        others: a
            .proposals
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != best)
            .map(|(_, p)| view(p, &q.others))
            .collect(),
        not_proposed: a
            .rejected
            .iter()
            .map(|r| format!("Rung {} ({}): {}", r.rung.number(), r.entity.exact_path(), r.reason))
            .collect(),
        today,
        capacity,
    }
}

/// A `request_percentage` of `percent` against a broker with
/// `(num.io.threads, num.network.threads)`: the engine's
/// [`request_capacity`] summary and its warning above capacity
/// (`(num.io.threads + num.network.threads) × 100 %`; Kafka's
/// `ClientRequestQuotaManager` and docs/design.html "Request Rate Quotas").
pub fn capacity_of(percent: f64, threads: (u32, u32)) -> (String, Option<String>) {
    let settings = BrokerSettings { num_io_threads: threads.0, num_network_threads: threads.1, ..BrokerSettings::default() };
    let c = request_capacity(percent, &settings);
    (c.summary, c.warning)
}

/// "Did you mean…" sentences: quotas of `quota_type` one edit away from the
/// connection's principal or client.id (the engine's [`near_misses`]).
pub fn near_miss_notes(store: &QuotaStore, connection: &ClientIdentity, quota_type: QuotaType) -> Vec<String> {
    near_misses(store, connection, Some(quota_type)).into_iter().map(|m| m.reason).collect()
}

/// A client.id as the page writes it, the engine's exact spelling
/// ([`display_exact`]): `app-1`, an empty one `""`, a literal `<default>`
/// quoted.
pub fn client_id_text(client_id: &str) -> String {
    display_exact(&EntityName::Named(client_id.to_owned()))
}

/// Said once at the top of the Resolution panel: what the panel assumes.
/// Kafka: `client.quota.callback.class` (`QuotaConfig`,
/// server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java)
/// and `principal.builder.class` (`BrokerSecurityConfigs`).
pub const CUSTOM_CLASSES_NOTE: &str = "This is what Kafka's default quota callback and principal builder decide. A broker with a custom \
client.quota.callback.class replaces the ladder below, and a custom principal.builder.class replaces the principal; neither is modelled here.";

/// For an empty client.id: the Java clients do not send one unless told
/// to, so the empty-client-id verdicts hold only for clients that send
/// none. Kafka: `ProducerConfig.maybeOverrideClientId` (`producer-N`, or
/// `producer-<transactional.id>`, when `client.id` is not configured) and
/// `ConsumerConfig.maybeOverrideClientId` (`consumer-<group.id>-N`, or
/// `consumer-<group.id>-<group.instance.id>`, when `client.id` is unset or
/// empty), clients/src/main/java/org/apache/kafka/clients/{producer/ProducerConfig,consumer/ConsumerConfig}.java.
pub fn empty_client_id_note(client_id: &str) -> Option<String> {
    client_id.is_empty().then(|| {
        "client.id \"\" is what reaches the broker only from a client that sends none. Kafka's Java producer generates \
         producer-N (or producer-<transactional.id>) when client.id is not configured, and the Java consumer \
         consumer-<group.id>-N when client.id is unset or empty; such clients match clients/<default> and the client-id rungs \
         like any other client.id. So \"clients/<default> does not apply\" holds only for clients that really send an empty client.id."
            .to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quota_engine::EntityName;

    const MB2: f64 = 2_000_000.0;
    const MB10: f64 = 10_000_000.0;

    fn issue_store() -> QuotaStore {
        let mut s = QuotaStore::new();
        s.set(&QuotaEntity::User(EntityName::Default), QuotaKey::ProducerByteRate, MB2).unwrap();
        s.set(&QuotaEntity::client_id("reporting"), QuotaKey::ProducerByteRate, MB10).unwrap();
        s
    }

    fn query(store: QuotaStore, scope: Scope) -> AdviceQuery {
        AdviceQuery {
            store,
            connection: ClientIdentity::new("alice", "reporting"),
            others: vec![("bob-reporting".into(), ClientIdentity::new("bob", "reporting"))],
            quota_type: QuotaType::Produce,
            want: MB10,
            scope,
            threads: (8, 3),
        }
    }

    #[test]
    fn the_issue_example_proposes_rung_4_for_every_user() {
        let v = advise(&query(issue_store(), Scope::EveryUser));
        let best = v.best.expect("a proposal for every user");
        assert_eq!(best.rung, 4);
        assert_eq!(best.entity, "users/<default>/clients/reporting");
        assert!(v.answer.starts_with("Set producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s)"), "{}", v.answer);
        assert!(v.answer.contains("users/<default>/clients/reporting (rung 4)"), "{}", v.answer);
        assert!(best.command.contains("--entity-type users --entity-default --entity-type clients --entity-name reporting"), "{}", best.command);
        assert!(best.command.contains("--add-config producer_byte_rate="), "{}", best.command);
        // bob, with the same client.id and no quota of his own, is covered too.
        assert_eq!(best.covers, vec!["bob-reporting".to_owned()]);
        // users/<default> stops applying for client.id reporting.
        assert!(best.shadows.iter().any(|s| s.starts_with("users/<default>, with producer_byte_rate = 2 MB/s per broker (2000000.0 bytes/s), stops applying")), "{:?}", best.shadows);
        assert_eq!(v.today, "Today principal \"alice\" with client.id \"reporting\" gets 2 MB/s per broker (2000000.0 bytes/s) from users/<default> (rung 6).");
        // The other proposals include the most specific one, for alice alone.
        assert!(v.others.iter().any(|p| p.rung == 1 && p.entity == "users/alice/clients/reporting"));
        // clients/reporting is outranked by users/<default>: not proposed, with the reason.
        assert!(v.not_proposed.iter().any(|r| r.starts_with("Rung 7 (clients/reporting): ") && r.contains("would still get")), "{:?}", v.not_proposed);
        assert!(v.capacity.is_none());
    }

    #[test]
    fn a_user_with_a_quota_of_their_own_shadows_the_proposal() {
        let mut s = issue_store();
        s.set(&QuotaEntity::user("carol"), QuotaKey::ProducerByteRate, 5_000_000.0).unwrap();
        let mut q = query(s, Scope::EveryUser);
        q.others.push(("carol-reporting".into(), ClientIdentity::new("carol", "reporting")));
        let best = advise(&q).best.unwrap();
        assert_eq!(best.rung, 4);
        assert!(best.shadowed_by.iter().any(|s| s.starts_with("users/carol, with producer_byte_rate = 5 MB/s per broker (5000000.0 bytes/s), is more specific and keeps applying")), "{:?}", best.shadowed_by);
        assert_eq!(best.covers, vec!["bob-reporting".to_owned()]);
    }

    #[test]
    fn the_scope_picks_the_answer() {
        let conn = advise(&query(issue_store(), Scope::Connections));
        assert_eq!(conn.best.as_ref().map(|p| p.rung), Some(1));
        let clients = advise(&query(issue_store(), Scope::EveryClientId));
        // users/alice/clients/<default> (rung 2) reaches every client-id of alice without its own quota.
        assert_eq!(clients.best.as_ref().map(|p| p.rung), Some(2));
        assert_eq!(scope_from_value("every-user"), Scope::EveryUser);
        assert_eq!(scope_from_value("nonsense"), Scope::Connections);
        assert_eq!(scope_value(Scope::EveryClientId), "every-client-id");
    }

    #[test]
    fn an_empty_client_id_has_no_client_rungs_and_one_spelling() {
        let mut q = query(issue_store(), Scope::Connections);
        q.connection = ClientIdentity::new("alice", "");
        let v = advise(&q);
        assert!(v.not_proposed.iter().any(|r| r.starts_with("Rung 1 (users/alice/clients/\"\"): Kafka refuses")), "{:?}", v.not_proposed);
        assert!(v.today.contains("client.id \"\""), "{}", v.today);
        assert_eq!(client_id_text(""), "\"\"");
        assert_eq!(client_id_text("app-1"), "app-1");
        assert_eq!(client_id_text("<default>"), "\"<default>\"");
        let note = empty_client_id_note("").unwrap();
        assert!(note.contains("producer-N") && note.contains("consumer-<group.id>-N"), "{note}");
        assert_eq!(empty_client_id_note("app"), None);
    }

    #[test]
    fn wanted_values_are_read_with_units_and_checked_by_kafka() {
        let p = |s: &str| parse_want(QuotaKey::ProducerByteRate, s);
        assert_eq!(p("10000000"), Ok(MB10));
        assert_eq!(p("1e7"), Ok(MB10));
        assert_eq!(p("10 MB/s"), Ok(MB10));
        assert_eq!(p("10MB"), Ok(MB10));
        assert_eq!(p("1MiB"), Ok(1_048_576.0));
        assert!(p("").unwrap_err().contains("Enter the producer_byte_rate"));
        assert!(p("10 furlongs").unwrap_err().contains("'furlongs' is not a byte unit"));
        assert!(p("abc").unwrap_err().contains("does not start with a number"));
        let e = p("1.5").unwrap_err();
        assert!(e.starts_with("The wanted producer_byte_rate '1.5' is not a value: Kafka refuses it"), "{e}");
        assert!(p("-5").unwrap_err().contains("Kafka refuses it"));
        assert_eq!(parse_want(QuotaKey::RequestPercentage, "200%"), Ok(200.0));
        assert!(parse_want(QuotaKey::RequestPercentage, "2MB").unwrap_err().contains("not a unit of request_percentage"));
    }

    #[test]
    fn request_percentage_is_a_share_of_the_threads_with_a_warning_above_capacity() {
        let (summary, warning) = capacity_of(200.0, (8, 3));
        assert!(summary.contains("18.2 %") && summary.contains("1100.0 %"), "{summary}");
        assert_eq!(warning, None);
        let (_, warning) = capacity_of(1200.0, (8, 3));
        assert!(warning.unwrap().contains("exceeds the broker's capacity of 1100.0 %"));
        assert_eq!(capacity_of(1200.0, (16, 4)).1, None);
        let mut q = query(QuotaStore::new(), Scope::Connections);
        q.quota_type = QuotaType::Request;
        q.want = 1200.0;
        assert!(advise(&q).capacity.unwrap().1.is_some());
    }

    #[test]
    fn near_misses_name_the_quota_one_edit_away() {
        let mut s = issue_store();
        s.set(&QuotaEntity::client_id("reportng"), QuotaKey::ProducerByteRate, MB10).unwrap();
        s.set(&QuotaEntity::user("User:alice"), QuotaKey::ConsumerByteRate, MB10).unwrap();
        let c = ClientIdentity::new("alice", "reporting");
        let notes = near_miss_notes(&s, &c, QuotaType::Produce);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("clients/reportng, with producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s), never applies"), "{}", notes[0]);
        let fetch = near_miss_notes(&s, &c, QuotaType::Fetch);
        assert!(fetch[0].starts_with("users/User:alice"), "{fetch:?}");
        assert!(near_miss_notes(&s, &c, QuotaType::Request).is_empty());
    }

    #[test]
    fn a_literal_default_user_gets_a_note() {
        let mut q = query(QuotaStore::new(), Scope::Connections);
        q.connection = ClientIdentity::new("<default>", "reporting");
        let v = advise(&q);
        let best = v.best.unwrap();
        assert_eq!(best.entity, "users/\"<default>\"/clients/reporting");
        assert!(best.notes.iter().any(|n| n.contains("not the default entity")), "{:?}", best.notes);
        assert!(best.command.contains("--entity-type users --entity-name '<default>'"), "{}", best.command);
    }
}
