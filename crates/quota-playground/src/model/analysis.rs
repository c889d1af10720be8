//! What the engine derives from the scenario: Kafka's verdict on each
//! quota, each connection's principal, resolutions and budgets (one
//! [`Cluster`] per scenario), and the simulation.

use quota_engine::broker::BrokerSettings;
use quota_engine::cluster::{self, Cluster, ConnectionPrincipal};
use quota_engine::principal::{ErrorClass, PrincipalBuilder, PrincipalConfig, PrincipalError, PrincipalOutcome};
use quota_engine::resolve::Resolution;
use quota_engine::sim::{ConnectionSpec, ListenerKind, Scenario, SensorTrack, Timeline};
use quota_engine::{Alteration, EntityName, Op, QuotaEntity, QuotaKey, QuotaStore, QuotaType, RawEntity};

/// The scenario's quotas in a store, each applied with Kafka's validation;
/// the ones Kafka refuses are left out (see [`quota_rows`]).
pub fn store_of(scenario: &Scenario) -> QuotaStore {
    cluster::accepted_quotas(scenario).0
}

/// One configured quota as the quotas panel lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotaRow {
    /// The entity.
    pub entity: QuotaEntity,
    /// The key.
    pub key: QuotaKey,
    /// The value.
    pub value: f64,
    /// Kafka's message when this entry is refused (only possible for a
    /// scenario from a link or a file).
    pub error: Option<String>,
}

/// The scenario's quotas in order, each with Kafka's verdict.
pub fn quota_rows(scenario: &Scenario) -> Vec<QuotaRow> {
    let (_, verdicts) = cluster::accepted_quotas(scenario);
    scenario
        .quotas
        .iter()
        .zip(verdicts)
        .map(|(q, verdict)| QuotaRow {
            entity: q.entity.clone(),
            key: q.key,
            value: q.value,
            error: verdict.map(|e| e.message),
        })
        .collect()
}

/// What Kafka answers to setting `key` = `value` on `entity` given the
/// scenario's other quotas: `Ok` or Kafka's message.
pub fn check_quota(scenario: &Scenario, entity: &QuotaEntity, key: QuotaKey, value: f64) -> Result<(), String> {
    check_raw(scenario, &RawEntity::from_entity(entity), key.as_str(), value).map(|_| ())
}

/// Kafka's answer for an entity as typed (names may be empty), a key name
/// and a value; on success the typed entity.
pub fn check_raw(scenario: &Scenario, raw: &RawEntity, key: &str, value: f64) -> Result<QuotaEntity, String> {
    let store = store_of(scenario);
    let plan = store.plan(&[Alteration { entity: raw.clone(), ops: vec![Op::set(key, value)] }]);
    if let Some(e) = plan.results.into_iter().find_map(|r| r.error) {
        return Err(e.message);
    }
    let parts: Vec<_> = raw
        .0
        .iter()
        .filter_map(|(t, n)| {
            quota_engine::EntityType::from_wire(t).map(|t| (t, EntityName::from_option(n.as_deref())))
        })
        .collect();
    QuotaEntity::from_parts(&parts).ok_or_else(|| "This entity has no valid shape.".to_owned())
}

/// The principal configuration of the brokers.
pub fn principal_config(settings: &BrokerSettings) -> PrincipalConfig {
    settings.principal_config()
}

/// The principal the engine derives for one connection, or why it cannot
/// (Kafka would close the connection, or the broker would not start).
pub fn principal_outcome(
    spec: &ConnectionSpec,
    config: &PrincipalConfig,
    builder: &Result<PrincipalBuilder, String>,
) -> Result<PrincipalOutcome, String> {
    let builder = builder.as_ref().map_err(|e| rules_message(e))?;
    let conn = cluster::engine_connection(spec, config);
    builder.build(&conn).map_err(|e| closed_message(&e))
}

/// Why no connection has a principal when the rules do not parse.
fn rules_message(e: &str) -> String {
    format!("The broker's principal rules are invalid: {e}")
}

/// Why a connection has no principal: Kafka closes it (the builder's
/// message and its causes), or, for a certificate DN Java cannot read
/// ([`ErrorClass::InvalidDn`]), there is no such certificate (Java's
/// messages as causes).
fn closed_message(e: &PrincipalError) -> String {
    if e.class() == ErrorClass::InvalidDn {
        // "... has it. Java: improperly specified input name: X (Invalid keyword "FOO")"
        let mut m = format!("{}.", e.message());
        if let Some(iae) = e.cause() {
            m.push_str(&format!(" Java: {}", iae.message()));
            if let Some(io) = iae.cause() {
                m.push_str(&format!(" ({})", io.message()));
            }
        }
        return m;
    }
    let mut m = "Kafka closes this connection. ".to_owned();
    m.push_str(e.message());
    let mut cause = e.cause();
    while let Some(c) = cause {
        m.push_str(" Cause: ");
        m.push_str(c.message());
        cause = c.cause();
    }
    m
}

/// [`principal_outcome`] of an analysed connection: the rules' error
/// first, then the builder's.
fn principal_of(rules: Result<&PrincipalBuilder, &PrincipalError>, c: &ConnectionPrincipal) -> Result<PrincipalOutcome, String> {
    rules.map_err(|e| rules_message(e.message()))?;
    match &c.outcome {
        Some(Ok(outcome)) => Ok(outcome.clone()),
        Some(Err(e)) => Err(closed_message(e)),
        // Not reached: with rules the builder answers.
        None => Err(String::new()),
    }
}

/// Why `ip` cannot be a connection's source address, if it cannot: the
/// broker sees the client's socket address, always an IPv4 or IPv6 literal
/// (the forms Java's `InetAddress.getByName` reads without a lookup, as
/// `quota_engine::store::validate::is_valid_ip_entity` checks them).
pub fn source_ip_error(ip: &str) -> Option<String> {
    quota_engine::scenario::SourceIp::parse(ip).err()
}

/// A warning when an SSL connection's certificate subject does not look like
/// a distinguished name (no `=`), as a SASL user name pasted there would.
pub fn dn_warning(spec: &ConnectionSpec) -> Option<String> {
    let dn = spec.identity.as_deref()?.trim();
    (spec.listener == ListenerKind::Ssl && !dn.is_empty() && !dn.contains('=')).then(|| {
        format!("'{dn}' is not a distinguished name; a certificate subject looks like CN=app,OU=eng.")
    })
}

/// The `ssl.client.auth` an SSL connection runs with, and whether the
/// scenario sets it or it follows from the identity (a DN and no value
/// means `required`: `quota_engine::cluster::ssl_client_auth`, as
/// `engine_connection` reads it).
pub fn effective_ssl_client_auth(spec: &ConnectionSpec) -> (String, bool) {
    match &spec.ssl_client_auth {
        Some(v) => (v.as_str().to_owned(), true),
        None => (cluster::ssl_client_auth(None, spec.identity.is_some()).as_str().to_owned(), false),
    }
}

/// Everything derived from the scenario without simulating: the engine's
/// [`Cluster`] (quotas, principals, managers, budgets) and its principal
/// verdicts worded for the page.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The analysed cluster.
    pub cluster: Cluster,
    /// The principal rules' parse error, if any.
    pub rules_error: Option<String>,
    /// Per connection: its principal or why there is none.
    pub principals: Vec<Result<PrincipalOutcome, String>>,
}

impl Analysis {
    /// Analyses `scenario`.
    pub fn new(scenario: &Scenario) -> Self {
        let cluster = Cluster::new(scenario);
        let rules_error = cluster.rules().err().map(|e| e.message().to_owned());
        let principals = cluster.connections().iter().map(|c| principal_of(cluster.rules(), c)).collect();
        Analysis { cluster, rules_error, principals }
    }

    /// The four resolutions of connection `i` (`None` without a principal).
    pub fn resolve(&self, i: usize) -> Option<[Resolution; 4]> {
        self.cluster.resolve(i)
    }

    /// The names of the scenario's connections that share connection `i`'s
    /// budget of quota type `qt` (itself excluded).
    pub fn sharers(&self, scenario: &Scenario, i: usize, qt: QuotaType) -> Vec<String> {
        self.cluster
            .sharers(i, qt)
            .into_iter()
            .filter_map(|j| scenario.connections.get(j).map(|c| c.name.clone()))
            .collect()
    }

    /// The `connection_creation_rate` that applies to `ip`: the entity and
    /// its value, `None` = unlimited. (`scenario` is the one analysed; its
    /// broker settings are the cluster's.)
    pub fn ip_rate(&self, _scenario: &Scenario, ip: &str) -> Option<(QuotaEntity, f64)> {
        self.cluster.ip_rate(ip)
    }
}

/// The simulation of a scenario, or the reason it cannot run: the engine's,
/// or [`not_simulated`]'s.
pub fn simulate(scenario: &Scenario) -> Result<Timeline, String> {
    if let Some(why) = not_simulated(scenario) {
        return Err(why);
    }
    // The first problem, as the CLI says it; the page shows every problem
    // at its field (`Analysis`), so the run's note needs only one.
    let valid = scenario.validate().map_err(|problems| quota_engine::Error::from(problems).to_string())?;
    quota_engine::sim::simulate(valid).map_err(|e| e.to_string())
}

/// Why `scenario` is not simulated at all, known without the engine's
/// simulator (so the page says it without fetching the simulation
/// worker): no producer or consumer, or past the page's size limit
/// ([`super::scenario_limit`]).
pub fn not_simulated(scenario: &Scenario) -> Option<String> {
    if scenario.workloads.is_empty() {
        return Some("Add a producer or a consumer to simulate this scenario.".to_owned());
    }
    super::scenario_limit(scenario, "This scenario")
}

/// The client and the budget the charts show: the chosen ones, else the
/// first client that was throttled (an applied throttle) and the budget it was throttled on (a
/// budget with a quota before an unlimited one). Indices into the Timeline.
pub fn focus(t: &Timeline, client: Option<u32>, sensor: Option<u32>) -> (usize, usize) {
    let n = t.clients.len().max(1);
    let member = |s: &SensorTrack, c: usize| s.members.contains(&(c as u32));
    // A throttle that delayed someone (a NaN quota's 0 ms checks do not).
    let throttled = |s: &SensorTrack| s.throttles.iter().any(|e| e.applied);
    let c = match client {
        Some(c) => (c as usize).min(n - 1),
        None => (0..t.clients.len())
            .find(|c| t.sensors.iter().any(|s| member(s, *c) && throttled(s)))
            .unwrap_or(0),
    };
    let limited = |s: &SensorTrack| s.bound < quota_engine::resolve::UNLIMITED_BOUND;
    let s = match sensor {
        Some(s) => (s as usize).min(t.sensors.len().saturating_sub(1)),
        None => t
            .sensors
            .iter()
            .position(|s| member(s, c) && throttled(s))
            .or_else(|| t.sensors.iter().position(|s| member(s, c) && limited(s)))
            .or_else(|| t.sensors.iter().position(|s| member(s, c)))
            .or_else(|| t.sensors.iter().position(limited))
            .unwrap_or(0),
    };
    (c, s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use crate::presets;

    fn lab() -> Scenario {
        presets::default_scenario()
    }
    use quota_engine::resolve::{Rung, RungOutcome};

    #[test]
    fn kafka_messages_come_back_verbatim() {
        let s = lab();
        let e = check_quota(&s, &QuotaEntity::user("x"), QuotaKey::ConnectionCreationRate, 5.0).unwrap_err();
        assert!(e.contains("connection_creation_rate"), "{e}");
        let e = check_quota(&s, &QuotaEntity::user("x"), QuotaKey::ProducerByteRate, 1.5).unwrap_err();
        assert!(e.contains("fractional"), "{e}");
        let e = check_raw(&s, &RawEntity(vec![("user".into(), Some(String::new()))]), "producer_byte_rate", 1.0).unwrap_err();
        assert!(e.contains("Empty user"), "{e}");
        let ok = check_raw(
            &s,
            &RawEntity(vec![("user".into(), None), ("client-id".into(), Some("app".into()))]),
            "request_percentage",
            50.0,
        )
        .unwrap();
        assert_eq!(ok, QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Named("app".into()) });
        let e = check_raw(&s, &RawEntity(vec![("ip".into(), Some("not an ip".into()))]), "connection_creation_rate", 5.0)
            .unwrap_err();
        assert!(e.contains("not an ip"), "{e}");
    }

    /// The page's principal is the engine's: an openssl subject line is
    /// the reversed DN, with the reading as a step; a DN Java refuses has
    /// no principal, with Java's messages and no "Kafka closes".
    #[test]
    fn a_certificate_dn_is_read_as_java_reads_it() {
        let spec = |dn: &str| ConnectionSpec {
            name: "tls".into(),
            listener: ListenerKind::Ssl,
            mechanism: None,
            ssl_client_auth: None,
            identity: Some(dn.into()),
            client_id: "c".into(),
            ip: "10.0.0.1".parse().unwrap(),
            client_throttling: Default::default(),
        };
        let config = principal_config(&BrokerSettings::default());
        let builder = config.build().map_err(|e| e.to_string());
        let ok = principal_outcome(&spec("subject=CN = app, OU = eng"), &config, &builder).unwrap();
        assert_eq!(ok.principal.name, "OU=eng,CN=app");
        assert_eq!(ok.derivation.steps().len(), 2);
        let e = principal_outcome(&spec("CN=app,FOO=bar"), &config, &builder).unwrap_err();
        assert!(e.starts_with("The certificate DN 'CN=app,FOO=bar' is not a DN Java can read"), "{e}");
        assert!(e.ends_with("has it. Java: improperly specified input name: CN=app,FOO=bar (Invalid keyword \"FOO\")"), "{e}");
    }

    #[test]
    fn kerberos_default_realm_lets_default_shorten_the_principal() {
        let spec = ConnectionSpec {
            name: "k".into(),
            listener: ListenerKind::SaslSsl,
            mechanism: Some(quota_engine::principal::SaslMechanism::Gssapi),
            ssl_client_auth: None,
            identity: Some("alice@EXAMPLE.COM".into()),
            client_id: "c".into(),
            ip: "10.0.0.1".parse().unwrap(),
            client_throttling: Default::default(),
        };
        let mut settings = BrokerSettings {
            sasl_kerberos_principal_to_local_rules: Some("DEFAULT".into()),
            ..BrokerSettings::default()
        };
        let outcome = |s: &BrokerSettings| {
            let config = principal_config(s);
            principal_outcome(&spec, &config, &config.build().map_err(|e| e.to_string()))
        };
        // No default realm: DEFAULT matches no realm and Kafka closes the connection.
        assert!(outcome(&settings).is_err());
        settings.kerberos_default_realm = Some("EXAMPLE.COM".into());
        assert_eq!(outcome(&settings).unwrap().principal.name, "alice");
        settings.kerberos_default_realm = Some("OTHER.ORG".into());
        assert!(outcome(&settings).is_err());
    }

    #[test]
    fn a_source_ip_must_be_a_literal_address() {
        assert_eq!(source_ip_error("10.0.0.1"), None);
        assert_eq!(source_ip_error(" 2001:db8::7 "), None);
        for bad in ["999.1.1.1", "abc", "broker.example.com"] {
            let e = source_ip_error(bad).unwrap();
            assert!(e.starts_with(&format!("'{bad}' is not an IP address.")), "{e}");
        }
        assert!(source_ip_error("  ").unwrap().starts_with("Enter the client's IP address"));
    }

    #[test]
    fn plaintext_turns_a_user_quota_off() {
        let mut s = lab();
        let a = Analysis::new(&s);
        let [produce, ..] = a.resolve(0).unwrap();
        assert_eq!(produce.rung(), Some(Rung::User));
        s.connections[0].listener = ListenerKind::Plaintext;
        let a = Analysis::new(&s);
        let p = a.principals[0].as_ref().unwrap();
        assert_eq!(p.principal.name, "ANONYMOUS");
        assert!(!p.warnings.is_empty());
        let [produce, ..] = a.resolve(0).unwrap();
        assert_eq!(produce.rung(), None);
        assert!(produce.trace.iter().any(|r| r.rung == Rung::User && r.outcome == RungOutcome::NotConfigured));
    }

    #[test]
    fn budgets_name_the_other_connections() {
        let mut s = lab();
        add_connection(&mut s, 0); // same user, same client id: same budget
        add_connection(&mut s, 0);
        s.connections[2].identity = Some("someone-else".into());
        let a = Analysis::new(&s);
        assert_eq!(a.sharers(&s, 0, QuotaType::Produce), vec![s.connections[1].name.clone()]);
        assert!(a.sharers(&s, 2, QuotaType::Produce).is_empty());
    }

    #[test]
    fn ip_rate_prefers_the_named_ip() {
        let mut s = lab();
        set_quota(&mut s, QuotaEntity::Ip(EntityName::Default), QuotaKey::ConnectionCreationRate, 10.0);
        set_quota(&mut s, QuotaEntity::Ip(EntityName::Named("10.0.0.1".into())), QuotaKey::ConnectionCreationRate, 2.0);
        let a = Analysis::new(&s);
        assert_eq!(a.ip_rate(&s, "10.0.0.1").map(|x| x.1), Some(2.0));
        assert_eq!(a.ip_rate(&s, "10.0.0.2"), Some((QuotaEntity::Ip(EntityName::Default), 10.0)));
    }

    #[test]
    fn bad_rules_are_reported_not_panicked() {
        let mut s = lab();
        s.brokers.settings.ssl_principal_mapping_rules = Some("RULE:^CN=(.*$/$1/".into());
        s.connections[0].listener = ListenerKind::Ssl;
        s.connections[0].identity = Some("CN=x".into());
        let a = Analysis::new(&s);
        assert!(a.rules_error.is_some());
        assert!(a.principals[0].is_err());
        assert!(a.resolve(0).is_none());
    }

    #[test]
    fn the_charts_focus_on_the_throttled_client_and_its_budget() {
        let t = simulate(&presets::lesson(4).unwrap().scenario()).unwrap();
        let (c, s) = focus(&t, None, None);
        assert_eq!(t.clients[c].name, "sasl-tenant-a");
        assert_eq!(t.sensors[s].tags.user, "tenant-a");
        assert!(!t.sensors[s].throttles.is_empty());
        // A chosen client shows its own budget; a chosen budget stays.
        let (c, s) = focus(&t, Some(0), None);
        assert_eq!(t.clients[c].name, "plaintext");
        assert!(t.sensors[s].members.contains(&0));
        assert_eq!(focus(&t, Some(99), Some(99)).0, t.clients.len() - 1);
    }
}
