//! "Make this apply": which entity to set so a connection gets a wanted
//! limit, verified on the ladder.
//!
//! For each of the eight rungs, most specific first, the rung's entity for
//! the connection is set to the wanted value in a copy of the store and the
//! connection is resolved again with Kafka's `DefaultQuotaCallback`
//! ([`crate::resolve::DefaultQuotaCallback::resolve`]). A candidate is
//! proposed only when that resolution then returns that entity with that
//! value; the others are [`Rejected`] with what the connection would get
//! instead. Who else a proposal covers and which quotas it shadows or is
//! shadowed by are found the same way: by resolving before and after.
//!
//! Kafka: `ClientQuotaManager` / `DefaultQuotaCallback.quotaMetricTags` and
//! `quotaLimit` (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`),
//! fed as `ClientQuotaMetadataManager.handleUserClientQuotaChange` does.

use serde::Serialize;

use super::exact::{display_exact, ExactPath};
use crate::entity::{EntityName, QuotaEntity, QuotaKey, QuotaType};
use crate::principal::sanitize;
use crate::resolve::{ClientIdentity, DefaultQuotaCallback, QuotaCallbacks, Resolution, Rung};
use crate::store::QuotaStore;

/// What one connection of the set gets before and after a proposal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectionEffect {
    /// The connection (raw principal name, client id).
    pub connection: ClientIdentity,
    /// The entity and value that apply today; `None` = unlimited.
    pub before: Option<(QuotaEntity, f64)>,
    /// The entity and value that would apply with the proposal; `None` = unlimited.
    pub after: Option<(QuotaEntity, f64)>,
    /// True when the proposed entity is what applies afterwards.
    pub covered: bool,
    /// One sentence.
    pub summary: String,
}

/// An existing quota whose reach a proposal changes, or that limits the
/// proposal's reach.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shadowing {
    /// The existing entity (raw names).
    pub entity: QuotaEntity,
    /// Its value for the quota type's key.
    pub value: f64,
    /// The connections of the given set concerned (may be empty when only
    /// the population in words is concerned).
    pub connections: Vec<ClientIdentity>,
    /// Who is concerned, in words (e.g. `principal "bob" with client.id "reporting"`).
    pub population: String,
    /// One sentence.
    pub summary: String,
}

/// One entity that, once set, gives the connection the wanted limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The rung the entity sits on for this connection.
    pub rung: Rung,
    /// The entity to set, with the raw principal name (as kafka-configs.sh
    /// and the Admin API take it; Kafka sanitizes it).
    pub entity: QuotaEntity,
    /// The key to set.
    pub key: QuotaKey,
    /// The value to set (the key's unit).
    pub value: f64,
    /// The value this entity holds today for the key, if any (it is replaced).
    pub replaces: Option<f64>,
    /// True when this entity already applies to the connection with this value.
    pub already_in_place: bool,
    /// True when every connection of the given set gets this entity's limit.
    pub covers_all: bool,
    /// The other connections of the set that get this entity's limit.
    pub covers: Vec<ClientIdentity>,
    /// Who the entity reaches in general, in words.
    pub reach: String,
    /// True when a user with no quota of their own, with the same client id,
    /// also gets this entity's limit (resolved on the ladder with a
    /// placeholder user).
    pub reaches_any_user: bool,
    /// True when the same user with a client id that has no quota of its
    /// own also gets this entity's limit (resolved with a placeholder client id).
    pub reaches_any_client_id: bool,
    /// Existing quotas that stop applying to someone once this is set.
    pub shadows: Vec<Shadowing>,
    /// Existing, more specific quotas that keep applying to someone this
    /// entity would otherwise reach.
    pub shadowed_by: Vec<Shadowing>,
    /// Every connection of the set, before and after.
    pub effects: Vec<ConnectionEffect>,
    /// One sentence: what to set and whom it reaches.
    pub summary: String,
}

/// A rung whose entity would not give the connection the wanted limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rejected {
    /// The rung.
    pub rung: Rung,
    /// Its entity for this connection.
    pub entity: QuotaEntity,
    /// Why not, in a sentence (what the connection would get instead, or
    /// Kafka's refusal of the entity).
    pub reason: String,
}

/// The answer to "what do I set so this connection gets this limit?".
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// The quota type.
    pub quota_type: QuotaType,
    /// Its key.
    pub key: QuotaKey,
    /// The wanted value (the key's unit).
    pub want: f64,
    /// The connection asked about.
    pub connection: ClientIdentity,
    /// The other connections of the set.
    pub others: Vec<ClientIdentity>,
    /// The connection's resolution today.
    pub current: Resolution,
    /// Entities verified to give the wanted limit, most specific first.
    pub proposals: Vec<Proposal>,
    /// Index in `proposals` of the best one: the most specific that covers
    /// every connection of the set, else the most specific.
    pub best: Option<usize>,
    /// Rungs that would not do, with the reason.
    pub rejected: Vec<Rejected>,
}

impl Advice {
    /// When the connection already gets the wanted value today: the
    /// sentence saying so, from which entity and rung (nothing to set; the
    /// proposals are other places that would also give it).
    pub fn already_applies(&self) -> Option<String> {
        let m = self.current.matched.as_ref()?;
        crate::jdk::double::java_double_equals(m.value, self.want).then(|| {
            format!(
                "Nothing to set: principal {:?} with client.id {:?} already gets {} = {} from {} (rung {}).",
                self.connection.principal_name,
                self.connection.client_id,
                self.key,
                crate::resolve::human::readable_limit(self.key, m.value),
                m.entity,
                m.rung.number()
            )
        })
    }

    /// The best proposal, if any rung works.
    pub fn best(&self) -> Option<&Proposal> {
        self.best.and_then(|i| self.proposals.get(i))
    }
}

/// Whom the best proposal must reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// The connection and the other connections given.
    Connections,
    /// Also every user without a quota of their own, with the connection's
    /// client id ([`Proposal::reaches_any_user`]).
    EveryUser,
    /// Also every client id of the connection's user that has no quota of
    /// its own ([`Proposal::reaches_any_client_id`]).
    EveryClientId,
}

impl Advice {
    /// The most specific proposal that covers every given connection and,
    /// for [`Scope::EveryUser`] / [`Scope::EveryClientId`], also reaches
    /// every other user / client id as checked on the ladder; `None` when
    /// no proposal does.
    pub fn best_for(&self, scope: Scope) -> Option<&Proposal> {
        self.proposals.iter().find(|p| {
            p.covers_all
                && match scope {
                    Scope::Connections => true,
                    Scope::EveryUser => p.reaches_any_user,
                    Scope::EveryClientId => p.reaches_any_client_id,
                }
        })
    }
}

/// A placeholder user for "a user with no quota of its own"; never shown.
const OTHER_USER: &str = "\u{1}other-user";
/// A placeholder client id for "a client id with no quota of its own"; never shown.
const OTHER_CLIENT: &str = "\u{1}other-client";

/// The entity with its user name sanitized: the key Kafka's callback uses.
fn kafka_key(entity: &QuotaEntity) -> QuotaEntity {
    let san = |n: &EntityName| match n {
        EntityName::Named(s) => EntityName::Named(sanitize(s)),
        EntityName::Default => EntityName::Default,
    };
    match entity {
        QuotaEntity::User(u) => QuotaEntity::User(san(u)),
        QuotaEntity::UserClientId { user, client_id } => QuotaEntity::UserClientId {
            user: san(user),
            client_id: client_id.clone(),
        },
        other => other.clone(),
    }
}

fn same(a: &QuotaEntity, b: &QuotaEntity) -> bool {
    kafka_key(a) == kafka_key(b)
}

fn user_part(e: &QuotaEntity) -> Option<&EntityName> {
    match e {
        QuotaEntity::User(u) | QuotaEntity::UserClientId { user: u, .. } => Some(u),
        _ => None,
    }
}

fn client_part(e: &QuotaEntity) -> Option<&EntityName> {
    match e {
        QuotaEntity::ClientId(c) | QuotaEntity::UserClientId { client_id: c, .. } => Some(c),
        _ => None,
    }
}

fn matched(r: &Resolution) -> Option<(QuotaEntity, f64)> {
    r.matched.as_ref().map(|m| (m.entity.clone(), m.value))
}

fn show(m: &Option<(QuotaEntity, f64)>, key: QuotaKey) -> String {
    match m {
        Some((e, v)) => format!(
            "{key} = {} from {}",
            crate::resolve::human::readable_limit(key, *v),
            e.exact_path()
        ),
        None => "no limit".to_owned(),
    }
}

fn who(c: &ClientIdentity) -> String {
    format!(
        "principal {:?} with client.id {:?}",
        c.principal_name, c.client_id
    )
}

/// True when `entity`'s names admit connection `c`: each named part equals
/// the connection's (the user compared sanitized, as Kafka keys it), a
/// default part takes any non-empty name, a missing part any name.
fn pattern_admits(entity: &QuotaEntity, c: &ClientIdentity) -> bool {
    let user_ok = match user_part(entity) {
        None => true,
        Some(EntityName::Default) => !c.principal_name.is_empty(),
        Some(EntityName::Named(n)) => sanitize(n) == sanitize(&c.principal_name),
    };
    let client_ok = match client_part(entity) {
        None => true,
        Some(EntityName::Default) => !c.client_id.is_empty(),
        Some(EntityName::Named(n)) => *n == c.client_id,
    };
    user_ok && client_ok
}

/// A connection both entities' names admit, built from their named parts
/// (a placeholder where neither names one), with a description of whom it
/// stands for; `None` when their names exclude each other.
fn representative(a: &QuotaEntity, b: &QuotaEntity) -> Option<(ClientIdentity, String)> {
    fn pick<'a>(
        x: Option<&'a EntityName>,
        y: Option<&'a EntityName>,
        norm: impl Fn(&str) -> String,
    ) -> Option<Option<&'a str>> {
        let named = |n: Option<&'a EntityName>| match n {
            Some(EntityName::Named(s)) => Some(s.as_str()),
            _ => None,
        };
        match (named(x), named(y)) {
            (Some(p), Some(q)) if norm(p) != norm(q) => None,
            (Some(p), _) | (None, Some(p)) => Some(Some(p)),
            (None, None) => Some(None),
        }
    }
    let user = pick(user_part(a), user_part(b), sanitize)?;
    let client = pick(client_part(a), client_part(b), str::to_owned)?;
    let has_user = user_part(a).is_some() || user_part(b).is_some();
    let has_client = client_part(a).is_some() || client_part(b).is_some();
    let user_words = match (user, has_user) {
        (Some(u), _) => format!("principal {u:?}"),
        (None, true) => "every user without a quota of their own".to_owned(),
        (None, false) => "every user no user quota covers".to_owned(),
    };
    let client_words = match (client, has_client) {
        (Some(c), _) => format!("with client.id {c:?}"),
        (None, true) => "with any client.id without a quota of its own".to_owned(),
        (None, false) => "with any client.id".to_owned(),
    };
    Some((
        ClientIdentity::new(user.unwrap_or(OTHER_USER), client.unwrap_or(OTHER_CLIENT)),
        if user.is_some() {
            format!("{user_words} {client_words}")
        } else {
            format!("{user_words}, {client_words}")
        },
    ))
}

/// Whom the entity of `rung` reaches, in words, for user `u` and client id `c`.
fn reach_words(rung: Rung, user: &str, c: &str) -> String {
    // The user as a path segment, a literal `<default>` quoted.
    let u = display_exact(&EntityName::Named(user.to_owned()));
    let u = u.as_str();
    let cp = display_exact(&EntityName::Named(c.to_owned()));
    match rung {
        Rung::UserClientId => format!("only principal {user:?} with client.id {c:?}"),
        Rung::UserDefaultClientId => format!(
            "principal {user:?} with every client.id that has no users/{u}/clients/<that id> quota, each client.id its own budget"
        ),
        Rung::User => format!(
            "principal {user:?} with all its client.ids together in one budget, except client.ids with a users/{u}/clients/... quota"
        ),
        Rung::DefaultUserClientId => format!(
            "every user without a quota of their own (users/X/clients/{cp}, users/X/clients/<default> or users/X), with client.id {c:?}, each user its own budget"
        ),
        Rung::DefaultUserDefaultClientId => "every user without a quota of their own, with every client.id that has no users/<default>/clients/<that id> quota, each (user, client.id) its own budget".to_owned(),
        Rung::DefaultUser => "every user without a quota of their own (users/X or users/X/clients/...) and not covered by a users/<default>/clients/... quota, each user one budget for all their client.ids".to_owned(),
        Rung::ClientId => format!(
            "client.id {c:?} from every user that no user quota (rungs 1-6) covers, all those connections sharing ONE budget"
        ),
        Rung::DefaultClientId => "every client.id without a quota of its own, from users that no user quota (rungs 1-6) covers, one budget per client.id".to_owned(),
    }
}

/// Proposes the entities that would give `connection` the limit `want`
/// (the key's unit: bytes/s per broker, percent of one thread,
/// mutations/s) for `quota_type`, most specific first, each verified by
/// resolving the connection again on a copy of `store` with the entity
/// set. `others` are further connections whose coverage and shadowing are
/// reported (and that decide the best proposal: the most specific one that
/// covers them all).
///
/// Principal names are raw (`CN=app,OU=eng`, as the principal builder gives
/// them); Kafka sanitizes them. A rung whose entity Kafka refuses (an empty
/// user or client-id) is rejected with Kafka's message.
///
/// Kafka: `DefaultQuotaCallback` (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`).
pub fn propose(
    store: &QuotaStore,
    connection: &ClientIdentity,
    others: &[ClientIdentity],
    quota_type: QuotaType,
    want: f64,
) -> Advice {
    let key = quota_type.key();
    let before_all = QuotaCallbacks::from_store(store);
    let before = before_all.get(quota_type);
    let current = before.resolve(&connection.principal_name, &connection.client_id);
    let mut set: Vec<ClientIdentity> = vec![connection.clone()];
    for o in others {
        if !set.contains(o) {
            set.push(o.clone());
        }
    }
    let mut proposals = Vec::new();
    let mut rejected = Vec::new();
    for rung in Rung::ALL {
        let entity = rung.entity(&connection.principal_name, &connection.client_id);
        let mut copy = store.clone();
        if let Err(e) = copy.set(&entity, key, want) {
            rejected.push(Rejected {
                rung,
                entity: entity.clone(),
                reason: format!(
                    "Kafka refuses {}: {}.",
                    entity.exact_path(),
                    e.message.trim_end_matches('.')
                ),
            });
            continue;
        }
        let after_all = QuotaCallbacks::from_store(&copy);
        let after = after_all.get(quota_type);
        let r = after.resolve(&connection.principal_name, &connection.client_id);
        let works = r.rung() == Some(rung) && r.limit() == Some(want);
        if !works {
            rejected.push(Rejected {
                rung,
                reason: format!(
                    "With {key} = {} on {}, {} would still get {}.",
                    crate::resolve::human::readable_limit(key, want),
                    entity.exact_path(),
                    who(connection),
                    show(&matched(&r), key)
                ),
                entity,
            });
            continue;
        }
        proposals.push(build_proposal(
            rung, entity, key, want, before, after, &current, &set,
        ));
    }
    let best = proposals
        .iter()
        .position(|p| p.covers_all)
        .or(if proposals.is_empty() { None } else { Some(0) });
    Advice {
        quota_type,
        key,
        want,
        connection: connection.clone(),
        others: set[1..].to_vec(),
        current,
        proposals,
        best,
        rejected,
    }
}

#[allow(clippy::too_many_arguments)]
fn build_proposal(
    rung: Rung,
    entity: QuotaEntity,
    key: QuotaKey,
    want: f64,
    before: &DefaultQuotaCallback,
    after: &DefaultQuotaCallback,
    current: &Resolution,
    set: &[ClientIdentity],
) -> Proposal {
    let target = &set[0];
    let effects: Vec<ConnectionEffect> = set
        .iter()
        .map(|c| {
            let b = matched(&before.resolve(&c.principal_name, &c.client_id));
            let a = matched(&after.resolve(&c.principal_name, &c.client_id));
            let covered = a.as_ref().is_some_and(|(e, _)| same(e, &entity));
            let summary = if b == a {
                format!("{} keeps {}.", who(c), show(&b, key))
            } else {
                format!(
                    "{} gets {} instead of {}.",
                    who(c),
                    show(&a, key),
                    show(&b, key)
                )
            };
            ConnectionEffect {
                connection: c.clone(),
                before: b,
                after: a,
                covered,
                summary,
            }
        })
        .collect();
    let covers_all = effects.iter().all(|e| e.covered);
    let covers: Vec<ClientIdentity> = effects[1..]
        .iter()
        .filter(|e| e.covered)
        .map(|e| e.connection.clone())
        .collect();

    let mut shadows = Vec::new();
    let mut shadowed_by = Vec::new();
    for (existing, value) in before.overrides() {
        if same(existing, &entity) {
            continue;
        }
        // Connections of the set this existing quota stops applying to.
        let lost: Vec<ClientIdentity> = effects
            .iter()
            .filter(|e| e.covered && e.before.as_ref().is_some_and(|(b, _)| same(b, existing)))
            .map(|e| e.connection.clone())
            .collect();
        // Connections of the set the proposal's names admit but `existing` keeps.
        let kept: Vec<ClientIdentity> = effects
            .iter()
            .filter(|e| {
                !e.covered
                    && pattern_admits(&entity, &e.connection)
                    && e.after.as_ref().is_some_and(|(a, _)| same(a, existing))
            })
            .map(|e| e.connection.clone())
            .collect();
        let rep = representative(&entity, existing);
        let (rep_lost, rep_kept, population) = match &rep {
            Some((c, words)) => {
                let b = matched(&before.resolve(&c.principal_name, &c.client_id));
                let a = matched(&after.resolve(&c.principal_name, &c.client_id));
                let was = b.as_ref().is_some_and(|(e, _)| same(e, existing));
                let now_new = a.as_ref().is_some_and(|(e, _)| same(e, &entity));
                let still = a.as_ref().is_some_and(|(e, _)| same(e, existing));
                (
                    was && now_new,
                    still && pattern_admits(&entity, c),
                    words.clone(),
                )
            }
            None => (false, false, String::new()),
        };
        let v = crate::resolve::human::readable_limit(key, value);
        let list = |cs: &[ClientIdentity]| cs.iter().map(who).collect::<Vec<_>>().join(", ");
        if rep_lost || !lost.is_empty() {
            let population = if rep_lost {
                population.clone()
            } else {
                list(&lost)
            };
            shadows.push(Shadowing {
                entity: existing.clone(),
                value,
                connections: lost.clone(),
                summary: format!(
                    "{}, with {key} = {v}, stops applying to {population}: the more specific {} takes over.",
                    existing.exact_path(),
                    entity.exact_path()
                ),
                population,
            });
        }
        if rep_kept || !kept.is_empty() {
            let population = if rep_kept { population } else { list(&kept) };
            shadowed_by.push(Shadowing {
                entity: existing.clone(),
                value,
                connections: kept.clone(),
                summary: format!(
                    "{}, with {key} = {v}, is more specific and keeps applying to {population}; {} does not reach them.",
                    existing.exact_path(),
                    entity.exact_path()
                ),
                population,
            });
        }
    }

    let gets = |user: &str, client: &str| {
        after
            .resolve(user, client)
            .matched
            .is_some_and(|m| same(&m.entity, &entity))
    };
    let reaches_any_user = gets(OTHER_USER, &target.client_id);
    let reaches_any_client_id = gets(&target.principal_name, OTHER_CLIENT);
    let already_in_place = current.rung() == Some(rung) && current.limit() == Some(want);
    let replaces = before.override_value(&entity);
    let reach = reach_words(rung, &target.principal_name, &target.client_id);
    // The reading first, Kafka's form second, as the ladder's reasons write it.
    let v = crate::resolve::human::readable_limit(key, want);
    let n = rung.number();
    let summary = if already_in_place {
        format!(
            "{} (rung {n}) already gives {} {key} = {v}; it reaches {reach}.",
            entity.exact_path(),
            who(target)
        )
    } else {
        format!(
            "Set {key} = {v} on {} (rung {n}): it reaches {reach}.",
            entity.exact_path()
        )
    };
    Proposal {
        rung,
        entity,
        key,
        value: want,
        replaces,
        already_in_place,
        covers_all,
        covers,
        reach,
        reaches_any_user,
        reaches_any_client_id,
        shadows,
        shadowed_by,
        effects,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_that_already_applies_needs_nothing_set() {
        let mut store = QuotaStore::new();
        let reporting = QuotaEntity::ClientId(crate::entity::EntityName::Named("reporting".into()));
        store.set(&reporting, QuotaKey::RequestPercentage, 200.0).unwrap();
        let conn = ClientIdentity::new("ANONYMOUS", "reporting");
        let a = propose(&store, &conn, &[], QuotaType::Request, 200.0);
        assert_eq!(
            a.already_applies().as_deref(),
            Some("Nothing to set: principal \"ANONYMOUS\" with client.id \"reporting\" already gets request_percentage = 2 threads' time per broker (200.0 % of one thread) from clients/reporting (rung 7).")
        );
        assert_eq!(propose(&store, &conn, &[], QuotaType::Request, 300.0).already_applies(), None);
    }

    const MB2: f64 = 2_000_000.0;
    const MB10: f64 = 10_000_000.0;

    fn issue_store() -> QuotaStore {
        let mut s = QuotaStore::new();
        s.set(
            &QuotaEntity::User(EntityName::Default),
            QuotaKey::ProducerByteRate,
            MB2,
        )
        .unwrap();
        s.set(
            &QuotaEntity::client_id("reporting"),
            QuotaKey::ProducerByteRate,
            MB10,
        )
        .unwrap();
        s
    }

    #[test]
    fn the_issue_example_proposes_default_user_with_client_reporting() {
        let mut store = issue_store();
        store
            .set(
                &QuotaEntity::user("carol"),
                QuotaKey::ProducerByteRate,
                5_000_000.0,
            )
            .unwrap();
        let alice = ClientIdentity::new("alice", "reporting");
        let bob = ClientIdentity::new("bob", "reporting");
        let carol = ClientIdentity::new("carol", "reporting");
        let a = propose(
            &store,
            &alice,
            &[bob.clone(), carol.clone()],
            QuotaType::Produce,
            MB10,
        );
        // Today: users/<default> (rung 6) shadows clients/reporting.
        assert_eq!(a.current.rung(), Some(Rung::DefaultUser));
        // Rung 7 (clients/reporting, already 10 MB/s) does not apply: verified, not assumed.
        let r7 = a
            .rejected
            .iter()
            .find(|r| r.rung == Rung::ClientId)
            .expect("rung 7 rejected");
        assert!(r7.reason.contains("users/<default>"), "{}", r7.reason);
        let rungs: Vec<Rung> = a.proposals.iter().map(|p| p.rung).collect();
        assert_eq!(
            rungs,
            vec![
                Rung::UserClientId,
                Rung::UserDefaultClientId,
                Rung::User,
                Rung::DefaultUserClientId,
                Rung::DefaultUserDefaultClientId,
                Rung::DefaultUser
            ]
        );
        // Carol keeps users/carol, so no proposal covers the whole set; the best
        // is the most specific one covering the most... here the most specific.
        let p4 = a
            .proposals
            .iter()
            .find(|p| p.rung == Rung::DefaultUserClientId)
            .unwrap();
        assert_eq!(p4.entity.path(), "users/<default>/clients/reporting");
        assert_eq!(p4.covers, vec![bob.clone()]);
        assert!(!p4.covers_all);
        // It shadows users/<default> for users without their own quota, with client.id reporting.
        let sh = &p4.shadows;
        assert_eq!(sh.len(), 1, "{sh:?}");
        assert_eq!(sh[0].entity, QuotaEntity::User(EntityName::Default));
        assert_eq!(
            sh[0].population,
            "every user without a quota of their own, with client.id \"reporting\""
        );
        // users/carol keeps applying to carol: shadowed-by, computed for the set and in words.
        let by = &p4.shadowed_by;
        assert_eq!(by.len(), 1, "{by:?}");
        assert_eq!(by[0].entity, QuotaEntity::user("carol"));
        assert_eq!(by[0].connections, vec![carol.clone()]);
        assert!(
            by[0].summary.contains("keeps applying"),
            "{}",
            by[0].summary
        );
        assert_eq!(a.best().unwrap().rung, Rung::UserClientId);
        // rung 1 covers alice only.
        assert!(a.proposals[0].covers.is_empty());
    }

    #[test]
    fn without_own_quotas_the_best_for_every_user_is_rung_4() {
        let store = issue_store();
        let alice = ClientIdentity::new("alice", "reporting");
        let others = [
            ClientIdentity::new("bob", "reporting"),
            ClientIdentity::new("dave", "reporting"),
        ];
        let a = propose(&store, &alice, &others, QuotaType::Produce, MB10);
        let best = a.best().expect("a proposal");
        assert_eq!(best.rung, Rung::DefaultUserClientId);
        assert!(best.covers_all);
        assert!(
            best.reach
                .contains("every user without a quota of their own"),
            "{}",
            best.reach
        );
        // The other client-ids of alice keep users/<default>: effects say who changes.
        assert!(best.effects.iter().all(|e| e.covered));
        // Set for one connection alone, the best is the most specific entity.
        let one = propose(&store, &alice, &[], QuotaType::Produce, MB10);
        assert_eq!(one.best().unwrap().rung, Rung::UserClientId);
    }

    #[test]
    fn for_every_user_the_answer_is_rung_4_even_for_one_connection() {
        let store = issue_store();
        let a = propose(
            &store,
            &ClientIdentity::new("alice", "reporting"),
            &[],
            QuotaType::Produce,
            MB10,
        );
        let p = a
            .best_for(Scope::EveryUser)
            .expect("a proposal for every user");
        assert_eq!(p.rung, Rung::DefaultUserClientId);
        assert!(p.reaches_any_user && !p.reaches_any_client_id);
        // Every client-id of alice: users/alice/clients/<default> (rung 2).
        assert_eq!(
            a.best_for(Scope::EveryClientId).unwrap().rung,
            Rung::UserDefaultClientId
        );
        assert_eq!(
            a.best_for(Scope::Connections).unwrap().rung,
            Rung::UserClientId
        );
    }

    #[test]
    fn a_proposal_shadowed_for_a_named_user_says_so_in_words() {
        let mut store = issue_store();
        store
            .set(
                &QuotaEntity::user("bob"),
                QuotaKey::ProducerByteRate,
                1_000_000.0,
            )
            .unwrap();
        let a = propose(
            &store,
            &ClientIdentity::new("alice", "reporting"),
            &[],
            QuotaType::Produce,
            MB10,
        );
        let p4 = a
            .proposals
            .iter()
            .find(|p| p.rung == Rung::DefaultUserClientId)
            .unwrap();
        let by: Vec<String> = p4.shadowed_by.iter().map(|s| s.entity.path()).collect();
        assert_eq!(by, vec!["users/bob"]);
        assert_eq!(
            p4.shadowed_by[0].population,
            "principal \"bob\" with client.id \"reporting\""
        );
    }

    #[test]
    fn an_entity_already_applying_is_marked_in_place() {
        let store = issue_store();
        let a = propose(
            &store,
            &ClientIdentity::new("alice", "x"),
            &[],
            QuotaType::Produce,
            MB2,
        );
        let p6 = a
            .proposals
            .iter()
            .find(|p| p.rung == Rung::DefaultUser)
            .unwrap();
        assert!(p6.already_in_place);
        assert_eq!(p6.replaces, Some(MB2));
    }

    #[test]
    fn empty_client_id_rungs_are_refused_with_kafkas_message() {
        let store = issue_store();
        let a = propose(
            &store,
            &ClientIdentity::new("alice", ""),
            &[],
            QuotaType::Produce,
            MB10,
        );
        let r1 = a
            .rejected
            .iter()
            .find(|r| r.rung == Rung::UserClientId)
            .unwrap();
        assert!(
            r1.reason.contains("Empty client-id not supported"),
            "{}",
            r1.reason
        );
        // users/alice/clients/<default> would not apply either: with an empty
        // client-id tag Kafka looks up users/alice, then users/<default>.
        assert!(a
            .rejected
            .iter()
            .any(|r| r.rung == Rung::UserDefaultClientId));
        assert_eq!(a.best().unwrap().rung, Rung::User);
    }

    #[test]
    fn a_raw_dn_principal_is_proposed_raw_and_matched_sanitized() {
        let store = QuotaStore::new();
        let dn = "CN=my-app,OU=x";
        let a = propose(
            &store,
            &ClientIdentity::new(dn, "c"),
            &[],
            QuotaType::Fetch,
            1000.0,
        );
        let p3 = a.proposals.iter().find(|p| p.rung == Rung::User).unwrap();
        assert_eq!(p3.entity, QuotaEntity::user(dn));
        assert_eq!(a.proposals.len(), 8);
    }

    #[test]
    fn a_literal_default_user_is_proposed_distinctly() {
        let store = QuotaStore::new();
        let a = propose(
            &store,
            &ClientIdentity::new("<default>", "c"),
            &[],
            QuotaType::Produce,
            1000.0,
        );
        let p3 = a.proposals.iter().find(|p| p.rung == Rung::User).unwrap();
        assert_eq!(
            p3.entity,
            QuotaEntity::User(EntityName::Named("<default>".into()))
        );
        assert!(p3.summary.contains("users/\"<default>\""), "{}", p3.summary);
        let p6 = a
            .proposals
            .iter()
            .find(|p| p.rung == Rung::DefaultUser)
            .unwrap();
        assert!(p6.summary.contains("on users/<default> "), "{}", p6.summary);
    }
}
