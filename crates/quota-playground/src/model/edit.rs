//! Edits of the scenario: quotas, connections and workloads. Pure
//! functions the reducer calls.

use quota_engine::sim::{
    ConnectionSpec, ConsumerConfig, ConsumerWorkload, ListenerKind, Preload, ProducerConfig, ProducerWorkload,
    Scenario, TopicSpec, Workload,
};
use quota_engine::{QuotaEntity, QuotaKey};

/// Sets (or replaces) one quota, keeping one entry per (entity, key).
pub fn set_quota(s: &mut Scenario, entity: QuotaEntity, key: QuotaKey, value: f64) {
    match s.quotas.iter_mut().find(|q| q.entity == entity && q.key == key) {
        Some(q) => q.value = value,
        None => s.quotas.push(quota_engine::sim::QuotaSetting { entity, key, value }),
    }
}

/// `spec` moved to `listener`. The identity is kept only when it can mean
/// the same thing there: between SASL_PLAINTEXT and SASL_SSL (a SASL name),
/// onto PLAINTEXT (ignored there, back when the user returns), onto SSL only
/// if it looks like a DN (has `=`), onto a SASL listener only if it does
/// not. So a SASL user name is never carried over as a certificate DN.
/// `ssl.client.auth` belongs to the SSL listener and is dropped when leaving it.
pub fn change_listener(spec: &ConnectionSpec, listener: ListenerKind) -> ConnectionSpec {
    let mut next = spec.clone();
    next.listener = listener;
    let is_sasl = |l: ListenerKind| matches!(l, ListenerKind::SaslPlaintext | ListenerKind::SaslSsl);
    let looks_like_dn = spec.identity.as_deref().is_some_and(|i| i.contains('='));
    let keep = spec.listener == listener
        || listener == ListenerKind::Plaintext
        || (is_sasl(spec.listener) && is_sasl(listener))
        || (listener == ListenerKind::Ssl && looks_like_dn)
        || (is_sasl(listener) && !looks_like_dn);
    if !keep {
        next.identity = None;
    }
    if listener != ListenerKind::Ssl {
        next.ssl_client_auth = None;
    }
    next
}

/// Which kind of identity a listener takes: a certificate DN (SSL), a SASL
/// name, or none (PLAINTEXT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdentityKind {
    /// No identity: PLAINTEXT.
    None,
    /// A certificate subject DN: SSL.
    Dn,
    /// A SASL user name, Kerberos principal or token subject.
    Sasl,
}

/// The kind of identity `listener` takes.
pub fn identity_kind(listener: ListenerKind) -> IdentityKind {
    match listener {
        ListenerKind::Plaintext => IdentityKind::None,
        ListenerKind::Ssl => IdentityKind::Dn,
        ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => IdentityKind::Sasl,
    }
}

/// [`change_listener`] for the page, which remembers per connection the
/// identity each kind of listener last had: `remembered` gives it back when
/// the change leaves the connection without one (SASL_PLAINTEXT with
/// `tenant-a` -> SSL -> SASL_PLAINTEXT comes back as `tenant-a`, not empty).
/// Returns the new spec and the identity to remember for the old kind.
pub fn change_listener_remembering(
    spec: &ConnectionSpec,
    listener: ListenerKind,
    remembered: Option<&str>,
) -> (ConnectionSpec, Option<String>) {
    let mut next = change_listener(spec, listener);
    if next.identity.is_none() {
        next.identity = remembered.map(str::to_owned);
    }
    (next, spec.identity.clone())
}

/// A fresh connection name not used in the scenario (`app-2`, `app-3`, …).
pub fn fresh_connection_name(s: &Scenario, base: &str) -> String {
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
    let stem = if stem.is_empty() { "client" } else { stem };
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|n| !s.connections.iter().any(|c| &c.name == n))
        .unwrap_or_else(|| "client-x".to_owned())
}

/// The connection a workload runs on.
pub fn workload_connection(w: &Workload) -> &str {
    w.connection()
}

/// Replaces connection `index`, renaming its workloads with it.
pub fn set_connection(s: &mut Scenario, index: u32, spec: ConnectionSpec) {
    let Some(slot) = s.connections.get_mut(index as usize) else { return };
    let old = std::mem::replace(slot, spec);
    let new_name = s.connections[index as usize].name.clone();
    if old.name != new_name {
        for w in &mut s.workloads {
            let c = match w {
                Workload::Producer(p) => &mut p.connection,
                Workload::Consumer(c) => &mut c.connection,
                Workload::Admin(a) => &mut a.connection,
                Workload::Connects(c) => &mut c.connection,
            };
            if *c == old.name {
                c.clone_from(&new_name);
            }
        }
    }
}

/// Adds a copy of connection `base` (or a PLAINTEXT one) under a new name.
pub fn add_connection(s: &mut Scenario, base: u32) {
    let mut spec = s.connections.get(base as usize).cloned().unwrap_or_else(|| ConnectionSpec {
        name: "client".into(),
        listener: ListenerKind::Plaintext,
        mechanism: None,
        ssl_client_auth: None,
        identity: None,
        client_id: "app".into(),
        ip: Default::default(),
        client_throttling: Default::default(),
    });
    spec.name = fresh_connection_name(s, &spec.name);
    s.connections.push(spec);
}

/// Removes connection `index` and its workloads.
pub fn remove_connection(s: &mut Scenario, index: u32) {
    if (index as usize) < s.connections.len() {
        let removed = s.connections.remove(index as usize);
        s.workloads.retain(|w| workload_connection(w) != removed.name);
    }
}

/// Adds a producer or a consumer on connection `conn` with the lab's
/// settings (30,000 records of 1,000 bytes; a consumer reads a preloaded
/// topic). Each client has a connection of its own (the engine refuses two
/// workloads on one): when `conn` already carries one, the new client gets
/// a copy of it ([`add_connection`]: same listener, identity and
/// client.id, so the same principal and the same quotas) under a fresh name.
pub fn add_workload(s: &mut Scenario, conn: u32, producer: bool) {
    let Some(c) = s.connections.get(conn as usize) else { return };
    let mut connection = c.name.clone();
    if s.workloads.iter().any(|w| workload_connection(w) == connection) {
        add_connection(s, conn);
        let Some(copy) = s.connections.last() else { return };
        connection = copy.name.clone();
    }
    if s.topics.is_empty() {
        s.topics.push(TopicSpec { name: "lab".into(), partitions: 1, preload: None, leaders: None });
    }
    let topic = s.topics[0].name.clone();
    if producer {
        s.workloads.push(Workload::Producer(ProducerWorkload {
            connection,
            topic,
            records: 30_000,
            record_size: 1000,
            bytes: None,
            request_size: None,
            throughput: -1.0,
            start_ms: 0,
            stop_ms: None,
            config: ProducerConfig { acks: quota_engine::sim::Acks::Leader, linger_ms: 5, batch_size: 65_536, ..ProducerConfig::default() },
        }));
    } else {
        if s.topics[0].preload.is_none() {
            s.topics[0].preload = Some(Preload { records: 30_000, record_size: 1000, batch_size: 65_536 });
        }
        s.workloads.push(Workload::Consumer(ConsumerWorkload {
            connection,
            topic,
            records: 30_000,
            bytes: None,
            fetch_size: None,
            start_ms: 0,
            stop_ms: None,
            config: ConsumerConfig::default(),
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;

    #[test]
    fn a_client_added_to_a_connection_in_use_gets_a_copy_of_it() {
        let mut s = crate::presets::default_scenario();
        assert_eq!((s.connections.len(), s.workloads.len()), (1, 1));
        add_workload(&mut s, 0, true);
        assert_eq!((s.connections.len(), s.workloads.len()), (2, 2));
        let (first, copy) = (&s.connections[0], &s.connections[1]);
        assert_ne!(copy.name, first.name);
        assert_eq!((&copy.listener, &copy.identity, &copy.client_id), (&first.listener, &first.identity, &first.client_id));
        assert_eq!(workload_connection(&s.workloads[1]), copy.name);
        // The engine takes it: one workload per connection.
        assert_eq!(crate::model::not_simulated(&s), None);
        assert!(quota_engine::sim::simulate(s.validate().expect("a valid scenario")).is_ok());
        // A connection without a client gets the new one itself.
        add_connection(&mut s, 0);
        add_workload(&mut s, 2, false);
        assert_eq!((s.connections.len(), s.workloads.len()), (3, 3));
        assert_eq!(workload_connection(&s.workloads[2]), s.connections[2].name);
    }

    #[test]
    fn listener_change_does_not_carry_a_user_name_as_a_dn() {
        let sasl = ConnectionSpec {
            name: "a".into(),
            listener: ListenerKind::SaslSsl,
            mechanism: Some(quota_engine::principal::SaslMechanism::Plain),
            ssl_client_auth: None,
            identity: Some("tenant-a".into()),
            client_id: "c".into(),
            ip: "10.0.0.1".parse().unwrap(),
            client_throttling: Default::default(),
        };
        let ssl = change_listener(&sasl, ListenerKind::Ssl);
        assert_eq!(ssl.identity, None);
        assert_eq!(effective_ssl_client_auth(&ssl), ("none".to_owned(), false));
        assert_eq!(dn_warning(&ssl), None);
        // SASL_SSL -> SASL_PLAINTEXT keeps the user name.
        assert_eq!(change_listener(&sasl, ListenerKind::SaslPlaintext).identity.as_deref(), Some("tenant-a"));
        // A user name typed as a DN is flagged; a DN is not; a DN implies required.
        let mut typed = ssl.clone();
        typed.identity = Some("tenant-a".into());
        assert_eq!(
            dn_warning(&typed).as_deref(),
            Some("'tenant-a' is not a distinguished name; a certificate subject looks like CN=app,OU=eng.")
        );
        assert_eq!(effective_ssl_client_auth(&typed), ("required".to_owned(), false));
        typed.identity = Some("CN=app,OU=eng".into());
        assert_eq!(dn_warning(&typed), None);
        // Through PLAINTEXT (identity ignored there) the name still does not become a DN.
        let plain = change_listener(&sasl, ListenerKind::Plaintext);
        assert_eq!(plain.identity.as_deref(), Some("tenant-a"));
        assert_eq!(change_listener(&plain, ListenerKind::Ssl).identity, None);
        assert_eq!(change_listener(&plain, ListenerKind::SaslSsl).identity.as_deref(), Some("tenant-a"));
        // Leaving SSL drops ssl.client.auth and the DN.
        typed.ssl_client_auth = Some(quota_engine::principal::SslClientAuth::Requested);
        let back = change_listener(&typed, ListenerKind::SaslPlaintext);
        assert_eq!((back.identity, back.ssl_client_auth), (None, None));
        // The page remembers each kind's identity: SASL -> SSL -> SASL gives
        // the user name back, and the DN typed on SSL comes back on SSL.
        let (on_ssl, left) = change_listener_remembering(&sasl, ListenerKind::Ssl, None);
        assert_eq!((on_ssl.identity.as_deref(), left.as_deref()), (None, Some("tenant-a")));
        let (again, _) = change_listener_remembering(&on_ssl, ListenerKind::SaslPlaintext, left.as_deref());
        assert_eq!(again.identity.as_deref(), Some("tenant-a"));
        let (dn_back, _) = change_listener_remembering(&again, ListenerKind::Ssl, Some("CN=app,OU=eng"));
        assert_eq!(dn_back.identity.as_deref(), Some("CN=app,OU=eng"));
        assert_eq!(identity_kind(ListenerKind::SaslSsl), IdentityKind::Sasl);
    }
}
