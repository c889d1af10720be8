//! Near misses: quotas whose entity is one edit away from a connection.
//!
//! Kafka matches a user entity by the *sanitized* principal name and a
//! client-id entity by the client id verbatim (`DefaultQuotaCallback`,
//! keys `KafkaQuotaEntity(UserEntity(sanitizedUser), ClientIdEntity(clientId))`;
//! names sanitized with `Sanitizer.sanitize`). A quota written for the
//! sanitized form, for part of a certificate DN, with a `User:` prefix, in
//! another case, with a stray space or with a one-character typo never
//! matches, and nothing in Kafka says so.
//!
//! Kafka: `ClientQuotaManager.java`
//! (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`),
//! `Sanitizer` (`clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java`),
//! `KafkaPrincipal.toString` (`User:name`,
//! `clients/src/main/java/org/apache/kafka/common/security/auth/KafkaPrincipal.java`).

use serde::Serialize;

use super::exact::ExactPath;
use crate::entity::{EntityName, EntityType, QuotaEntity, QuotaKey, QuotaType};
use crate::principal::sanitize;
use crate::resolve::{ClientIdentity, QuotaCallbacks};
use crate::store::QuotaStore;

/// Why an entity name almost, but not quite, matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissKind {
    /// The quota names the sanitized principal (`CN%3Dapp`): Kafka sanitizes
    /// entity names itself, so this matches only a principal literally
    /// spelled that way.
    SanitizedName,
    /// The quota names part of the certificate DN (`CN=app` for
    /// `CN=app,OU=eng`).
    PartOfDn,
    /// The quota names the DN with other spacing around `,` or `=`.
    DnSpacing,
    /// The quota names the CN's value (`app`) but the principal is the whole
    /// DN (no `ssl.principal.mapping.rules` rule maps it).
    CnOnly,
    /// The quota names the whole DN but the mapping rules made the principal
    /// shorter (e.g. the CN alone).
    FullDn,
    /// The quota names `User:app`: `User:` is the principal type, not part
    /// of the name.
    UserPrefix,
    /// The same name in another case: Kafka compares exactly.
    Case,
    /// The same name with leading or trailing whitespace.
    Whitespace,
    /// One character off (Levenshtein distance 1; names of 4 characters or more).
    Typo,
}

/// A quota that almost applies to the connection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NearMiss {
    /// The entity as configured.
    pub entity: QuotaEntity,
    /// The key and its value.
    pub key: QuotaKey,
    /// The value configured (the key's unit).
    pub value: f64,
    /// Which part of the entity is off.
    pub part: EntityType,
    /// Why it misses.
    pub kind: MissKind,
    /// The name as written in the quota.
    pub written: String,
    /// The connection's name (raw principal name or client id).
    pub actual: String,
    /// The entity spelled for this connection.
    pub corrected: QuotaEntity,
    /// True when the corrected entity, set in a copy of the store, would
    /// apply to the connection (resolved on the ladder).
    pub would_apply: bool,
    /// One sentence naming the quota and the reason.
    pub reason: String,
}

/// True when `a` and `b` are one edit apart (a Levenshtein distance over
/// characters of exactly 1: one character substituted, inserted or
/// deleted), found without allocating: the page asks this of every quota
/// against the shown connections on each edit (issue 28's typing profile).
fn one_edit_apart(a: &str, b: &str) -> bool {
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    // The first character where they differ (byte offsets in each).
    let (mut ai, mut bi) = (a.char_indices(), b.char_indices());
    let (i, j) = loop {
        match (ai.next(), bi.next()) {
            (Some((_, x)), Some((_, y))) if x == y => {}
            (Some((i, _)), Some((j, _))) => break (i, j),
            (Some((i, _)), None) => break (i, b.len()),
            (None, Some((j, _))) => break (a.len(), j),
            (None, None) => return false,
        }
    };
    let (ra, rb) = (&a[i..], &b[j..]);
    match la.cmp(&lb) {
        std::cmp::Ordering::Equal => ra.chars().skip(1).eq(rb.chars().skip(1)),
        std::cmp::Ordering::Greater => ra.chars().skip(1).eq(rb.chars()),
        std::cmp::Ordering::Less => ra.chars().eq(rb.chars().skip(1)),
    }
}

/// Levenshtein distance over characters: the reference [`one_edit_apart`]
/// is tested against.
#[cfg(test)]
fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A DN's RDNs with spaces around `,` and `=` removed, attribute types upper-cased.
fn dn_parts(dn: &str) -> Vec<String> {
    dn.split(',')
        .map(|rdn| match rdn.split_once('=') {
            Some((t, v)) => format!("{}={}", t.trim().to_ascii_uppercase(), v.trim()),
            None => rdn.trim().to_owned(),
        })
        .collect()
}

fn looks_like_dn(s: &str) -> bool {
    s.contains('=')
}

/// The value of a DN's CN, if any.
fn cn_value(dn: &str) -> Option<String> {
    dn_parts(dn)
        .into_iter()
        .find_map(|p| p.strip_prefix("CN=").map(str::to_owned))
}

/// Case, whitespace or typo, shared by users and client ids.
fn spelling(written: &str, actual: &str) -> Option<MissKind> {
    if written == actual {
        return None;
    }
    if written.trim() == actual.trim() {
        return Some(MissKind::Whitespace);
    }
    // ASCII names (nearly all) without allocating; `to_lowercase` for the
    // rest (it lowers a final Σ to ς, which a character at a time does not).
    let same_case_folded = if written.is_ascii() && actual.is_ascii() {
        written.eq_ignore_ascii_case(actual)
    } else {
        written.to_lowercase() == actual.to_lowercase()
    };
    if same_case_folded {
        return Some(MissKind::Case);
    }
    if actual.chars().count() >= 4 && written.chars().count() >= 4 && one_edit_apart(written, actual) {
        return Some(MissKind::Typo);
    }
    None
}

/// True when `written` and `actual`, one character apart, read as two
/// names of one family rather than a typo: `<prefix><one character>` with
/// the same prefix, the differing last characters both digits (`app-1`,
/// `app-2`; `app1`, `app2`), or both letters or digits after a separator
/// `-`, `_`, `.` (`tenant-a`, `tenant-b`). A typo inside a name
/// (`reportng`) or of its last letter (`alica` for `alice`) is no family.
fn sibling_names(written: &str, actual: &str) -> bool {
    let mut w: Vec<char> = written.chars().collect();
    let mut a: Vec<char> = actual.chars().collect();
    if w.len() != a.len() || w.len() < 2 {
        return false;
    }
    let (Some(lw), Some(la)) = (w.pop(), a.pop()) else {
        return false;
    };
    if w != a {
        return false;
    }
    let after_separator = w.last().is_some_and(|c| matches!(c, '-' | '_' | '.'));
    (lw.is_ascii_digit() && la.is_ascii_digit())
        || (after_separator && lw.is_alphanumeric() && la.is_alphanumeric())
}

/// `written`'s miss of `principal`; `sanitized` are the two names as
/// [`sanitize`] writes them (made once by the caller).
fn user_miss(written: &str, principal: &str, sanitized: (&str, &str)) -> Option<MissKind> {
    let (sanitized_written, sanitized_principal) = sanitized;
    debug_assert_eq!(sanitized_written, sanitize(written));
    debug_assert_eq!(sanitized_principal, sanitize(principal));
    if sanitized_written == sanitized_principal {
        return None;
    }
    if written == sanitized_principal {
        return Some(MissKind::SanitizedName);
    }
    if let Some(rest) = written
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("User:"))
        .map(|_| &written[5..])
    {
        if rest.trim() == principal {
            return Some(MissKind::UserPrefix);
        }
    }
    if looks_like_dn(principal) && looks_like_dn(written) {
        let (w, p) = (dn_parts(written), dn_parts(principal));
        if w == p {
            return Some(MissKind::DnSpacing);
        }
        if !w.is_empty() && w.len() < p.len() && w.iter().all(|x| p.contains(x)) {
            return Some(MissKind::PartOfDn);
        }
    }
    if looks_like_dn(principal)
        && !looks_like_dn(written)
        && cn_value(principal).as_deref() == Some(written)
    {
        return Some(MissKind::CnOnly);
    }
    if looks_like_dn(written)
        && !looks_like_dn(principal)
        && cn_value(written).as_deref() == Some(principal)
    {
        return Some(MissKind::FullDn);
    }
    spelling(written, principal)
}

fn why(kind: MissKind, part: EntityType, written: &str, actual: &str) -> String {
    let what = match part {
        EntityType::User => "principal",
        _ => "client.id",
    };
    match kind {
        MissKind::SanitizedName => format!(
            "it names the sanitized form {written:?}, but Kafka sanitizes the entity name itself, so the quota must name the principal as it is ({actual:?})"
        ),
        MissKind::PartOfDn => format!(
            "it names part of the certificate DN ({written:?}) while the principal is the whole DN {actual:?}; Kafka compares the whole name (add an ssl.principal.mapping.rules rule or name the whole DN)"
        ),
        MissKind::DnSpacing => format!(
            "it names the DN with other spacing ({written:?}) than the principal {actual:?}; Kafka compares the names character for character"
        ),
        MissKind::CnOnly => format!(
            "it names the certificate's CN ({written:?}), but no ssl.principal.mapping.rules rule maps the DN, so the principal is the whole DN {actual:?}"
        ),
        MissKind::FullDn => format!(
            "it names a whole certificate DN ({written:?}), but the principal is {actual:?}: the name the connection authenticated with (a SASL name, or the DN as ssl.principal.mapping.rules map it), and Kafka compares the whole name"
        ),
        MissKind::UserPrefix => format!(
            "it is written with the principal type ({written:?}); the entity name is the principal name alone ({actual:?}), without \"User:\""
        ),
        MissKind::Case => format!(
            "{written:?} differs from the {what} {actual:?} only in case, and Kafka compares names case-sensitively"
        ),
        MissKind::Whitespace => format!(
            "{written:?} differs from the {what} {actual:?} only by leading or trailing whitespace, which Kafka keeps"
        ),
        MissKind::Typo => format!(
            "{written:?} is one character away from the {what} {actual:?}; Kafka compares names exactly"
        ),
    }
}

/// The part's state against the connection: exact/default, a miss, or unrelated.
enum PartMatch {
    Fits,
    Miss(MissKind, String),
    Unrelated,
}

/// Quotas in `store` (of `quota_type`'s key, or every client key with
/// `None`) whose entity would apply to `connection` but for one edit of one
/// name; the other part must fit (the same name, or the default). Each is
/// checked on the ladder: [`NearMiss::would_apply`] says whether the entity
/// spelled right would then apply.
///
/// Kafka: `DefaultQuotaCallback` keys (sanitized user, verbatim client id),
/// `ClientQuotaManager.java`.
pub fn near_misses(
    store: &QuotaStore,
    connection: &ClientIdentity,
    quota_type: Option<QuotaType>,
) -> Vec<NearMiss> {
    let principal = connection.principal_name.as_str();
    let client = connection.client_id.as_str();
    let mut out = Vec::new();
    let sanitized_principal = sanitize(principal);
    for (entity, values) in store.entries() {
        let check = |t: EntityType, n: &EntityName| -> PartMatch {
            match (t, n) {
                (EntityType::User, EntityName::Default) => PartMatch::Fits,
                (EntityType::ClientId, EntityName::Default) => PartMatch::Fits,
                (EntityType::User, EntityName::Named(w)) => {
                    let sanitized_w = sanitize(w);
                    match user_miss(w, principal, (&sanitized_w, &sanitized_principal)) {
                        None if sanitized_w == sanitized_principal => PartMatch::Fits,
                        Some(k) => PartMatch::Miss(k, w.clone()),
                        None => PartMatch::Unrelated,
                    }
                }
                (EntityType::ClientId, EntityName::Named(w)) => {
                    if w == client {
                        PartMatch::Fits
                    } else if client.is_empty() {
                        PartMatch::Unrelated
                    } else {
                        match spelling(w, client) {
                            Some(k) => PartMatch::Miss(k, w.clone()),
                            None => PartMatch::Unrelated,
                        }
                    }
                }
                _ => PartMatch::Unrelated,
            }
        };
        if entity.is_ip() {
            continue;
        }
        let parts = entity.parts();
        let states: Vec<(EntityType, PartMatch)> =
            parts.iter().map(|(t, n)| (*t, check(*t, n))).collect();
        if states
            .iter()
            .any(|(_, s)| matches!(s, PartMatch::Unrelated))
        {
            continue;
        }
        let misses: Vec<(EntityType, MissKind, String)> = states
            .into_iter()
            .filter_map(|(t, s)| match s {
                PartMatch::Miss(k, w) => Some((t, k, w)),
                _ => None,
            })
            .collect();
        let [(part, kind, written)] = misses.as_slice() else {
            continue;
        };
        let actual = if *part == EntityType::User {
            principal
        } else {
            client
        };
        // One character away from another tenant's name is no typo: the
        // two names are siblings of one family (`tenant-a`, `tenant-b`;
        // issue 29). A quota on the connection's own name beside one a
        // typo away (`reporting`, `reportng`) is still a near miss.
        if *kind == MissKind::Typo && sibling_names(written, actual) {
            continue;
        }
        let corrected_parts: Vec<(EntityType, EntityName)> = parts
            .iter()
            .map(|(t, n)| {
                if t == part {
                    (*t, EntityName::Named(actual.to_owned()))
                } else {
                    (*t, (*n).clone())
                }
            })
            .collect();
        let Some(corrected) = QuotaEntity::from_parts(&corrected_parts) else {
            continue;
        };
        for (key, value) in values {
            let Some(qt) = key.quota_type() else { continue };
            if quota_type.is_some_and(|want| want != qt) {
                continue;
            }
            let mut copy = store.clone();
            let would_apply = copy.set(&corrected, *key, *value).is_ok() && {
                let r = QuotaCallbacks::from_store(&copy)
                    .get(qt)
                    .resolve(principal, client);
                r.matched.as_ref().is_some_and(|m| m.entity == corrected)
            };
            let then = if would_apply {
                format!("written as {} it would apply", corrected.exact_path())
            } else {
                format!(
                    "even written as {} a more specific quota would still win",
                    corrected.exact_path()
                )
            };
            let reason = format!(
                "{}, with {key} = {}, never applies to principal {principal:?} with client.id {client:?}: {}; {then}.",
                entity.exact_path(),
                crate::resolve::human::readable_limit(*key, *value),
                why(*kind, *part, written, actual),
            );
            out.push(NearMiss {
                entity: entity.clone(),
                key: *key,
                value: *value,
                part: *part,
                kind: *kind,
                written: written.clone(),
                actual: actual.to_owned(),
                corrected: corrected.clone(),
                would_apply,
                reason,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(entities: &[QuotaEntity]) -> QuotaStore {
        let mut s = QuotaStore::new();
        for e in entities {
            s.set(e, QuotaKey::ProducerByteRate, 1_000_000.0).unwrap();
        }
        s
    }

    fn one(s: &QuotaStore, principal: &str, client: &str) -> NearMiss {
        let m = near_misses(
            s,
            &ClientIdentity::new(principal, client),
            Some(QuotaType::Produce),
        );
        assert_eq!(m.len(), 1, "{m:?}");
        m.into_iter().next().unwrap()
    }

    #[test]
    fn part_of_a_dn() {
        let s = store(&[QuotaEntity::user("CN=my-app")]);
        let m = one(&s, "CN=my-app,OU=x", "c");
        assert_eq!(m.kind, MissKind::PartOfDn);
        assert_eq!(m.corrected, QuotaEntity::user("CN=my-app,OU=x"));
        assert!(m.would_apply);
        assert!(
            m.reason
                .starts_with("users/CN=my-app, with producer_byte_rate = 1 MB/s per broker (1000000.0 bytes/s), never applies"),
            "{}",
            m.reason
        );
        assert!(
            m.reason.contains("part of the certificate DN"),
            "{}",
            m.reason
        );
    }

    #[test]
    fn sanitized_dn_written_into_the_entity() {
        let s = store(&[QuotaEntity::user("CN%3Dmy-app%2COU%3Dx")]);
        let m = one(&s, "CN=my-app,OU=x", "c");
        assert_eq!(m.kind, MissKind::SanitizedName);
        assert!(
            m.reason.contains("sanitizes the entity name itself"),
            "{}",
            m.reason
        );
    }

    #[test]
    fn dn_spacing_cn_only_and_full_dn() {
        let s = store(&[QuotaEntity::user("CN=my-app, OU=x")]);
        assert_eq!(one(&s, "CN=my-app,OU=x", "c").kind, MissKind::DnSpacing);
        let s = store(&[QuotaEntity::user("my-app")]);
        assert_eq!(one(&s, "CN=my-app,OU=x", "c").kind, MissKind::CnOnly);
        let s = store(&[QuotaEntity::user("CN=my-app,OU=x")]);
        let m = one(&s, "my-app", "c");
        assert_eq!(m.kind, MissKind::FullDn);
        // True whether my-app is a SASL name or a mapped DN: no claim that
        // a certificate was mapped.
        assert!(
            m.reason.contains("but the principal is \"my-app\": the name the connection authenticated with (a SASL name, or the DN as ssl.principal.mapping.rules map it)"),
            "{}",
            m.reason
        );
    }

    #[test]
    fn user_prefix() {
        let s = store(&[QuotaEntity::user("User:alice")]);
        let m = one(&s, "alice", "c");
        assert_eq!(m.kind, MissKind::UserPrefix);
        assert!(m.reason.contains("without \"User:\""), "{}", m.reason);
    }

    #[test]
    fn case_and_whitespace() {
        let s = store(&[QuotaEntity::user("Alice")]);
        assert_eq!(one(&s, "alice", "c").kind, MissKind::Case);
        let s = store(&[QuotaEntity::user("alice ")]);
        let m = one(&s, "alice", "c");
        assert_eq!(m.kind, MissKind::Whitespace);
        assert!(m.reason.starts_with("users/\"alice \""), "{}", m.reason);
        let s = store(&[QuotaEntity::client_id(" reporting")]);
        assert_eq!(one(&s, "alice", "reporting").kind, MissKind::Whitespace);
    }

    #[test]
    fn client_id_typo_in_a_user_client_entity() {
        let s = store(&[QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Named("reportng".into()),
        }]);
        let m = one(&s, "alice", "reporting");
        assert_eq!((m.part, m.kind), (EntityType::ClientId, MissKind::Typo));
        assert!(m.would_apply);
        assert!(
            m.reason
                .contains("one character away from the client.id \"reporting\""),
            "{}",
            m.reason
        );
        // Short names are not typos, and exact matches are no miss.
        let s = store(&[
            QuotaEntity::client_id("ab"),
            QuotaEntity::client_id("reporting"),
        ]);
        assert!(near_misses(&s, &ClientIdentity::new("u", "ac"), None).is_empty());
        assert!(near_misses(&s, &ClientIdentity::new("u", "reporting"), None).is_empty());
    }

    #[test]
    fn a_corrected_entity_that_still_loses_is_said_so() {
        let s = {
            let mut s = store(&[QuotaEntity::client_id("reportng")]);
            s.set(
                &QuotaEntity::User(EntityName::Default),
                QuotaKey::ProducerByteRate,
                5.0,
            )
            .unwrap();
            s
        };
        let m = one(&s, "alice", "reporting");
        assert!(!m.would_apply);
        assert!(
            m.reason.contains("a more specific quota would still win"),
            "{}",
            m.reason
        );
    }

    /// Issue 29: tenant-a's quota is not a misspelling of tenant-b.
    #[test]
    fn sibling_tenants_are_no_typo() {
        let s = store(&[QuotaEntity::user("tenant-a")]);
        assert!(near_misses(&s, &ClientIdentity::new("tenant-b", "c"), None).is_empty());
        let s = store(&[QuotaEntity::client_id("app-1"), QuotaEntity::client_id("app2")]);
        assert!(near_misses(&s, &ClientIdentity::new("u", "app-3"), None).is_empty());
        assert!(near_misses(&s, &ClientIdentity::new("u", "app3"), None).is_empty());
        // A typo with no sibling is still one: inside the name (also beside
        // a quota on the right name), or of its last letter with no
        // separator before it.
        let s = store(&[QuotaEntity::client_id("reportng"), QuotaEntity::client_id("reporting")]);
        assert_eq!(one(&s, "alice", "reporting").kind, MissKind::Typo);
        let s = store(&[QuotaEntity::user("alica")]);
        assert_eq!(one(&s, "alice", "c").kind, MissKind::Typo);
        let s = store(&[QuotaEntity::user("tenanta")]);
        assert_eq!(one(&s, "tenantb", "c").kind, MissKind::Typo);
        let s = store(&[QuotaEntity::client_id("appl")]);
        assert_eq!(one(&s, "u", "app1").kind, MissKind::Typo);
        // Case and the other kinds are not affected by a sibling.
        let s = store(&[QuotaEntity::user("Tenant-a"), QuotaEntity::user("tenant-b")]);
        assert_eq!(one(&s, "tenant-a", "c").kind, MissKind::Case);
        assert!(!sibling_names("ab", "abc"));
        assert!(sibling_names("tenant_7", "tenant_x"));
    }

    #[test]
    fn levenshtein_counts_edits() {
        assert_eq!(levenshtein("reporting", "reportng"), 1);
        assert_eq!(levenshtein("abcd", "abdc"), 2);
        assert_eq!(levenshtein("", "ab"), 2);
    }

    /// `one_edit_apart` is `levenshtein(..) == 1`, over every pair of
    /// strings of up to 4 characters from an alphabet with a two-byte
    /// character.
    #[test]
    fn one_edit_apart_is_a_levenshtein_distance_of_one() {
        let mut words = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            last = last.iter().flat_map(|w| ['a', 'b', 'é'].map(|c| format!("{w}{c}"))).collect();
            words.extend(last.iter().cloned());
        }
        let mut ones = 0;
        for a in &words {
            for b in &words {
                let want = levenshtein(a, b) == 1;
                ones += usize::from(want);
                assert_eq!(one_edit_apart(a, b), want, "{a:?} {b:?}");
            }
        }
        assert!(ones > 1_000, "{ones}");
    }
}
