//! The analysed cluster: what the brokers know about a [`Scenario`] before
//! any byte moves. One place builds it, and the simulator, the playground
//! and the CLI all read it:
//!
//! - the quotas in a [`QuotaStore`], each applied with Kafka's validation
//!   (the refused ones are left out and kept with Kafka's message);
//! - the principal configuration, its builder (or why the broker would not
//!   start with these rules), and for each scenario connection the
//!   [`Connection`] the builder takes and the [`PrincipalOutcome`];
//! - the quota callbacks of the four quota managers ([`QuotaCallbacks`])
//!   built from the store, the per-IP `connection_creation_rate` quotas, and the budget groups of the
//!   connections that have a principal.
//!
//! Kafka: the broker's `QuotaFactory.QuotaManagers` fed by
//! `ClientQuotaMetadataManager` (`core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala`),
//! and `DefaultKafkaPrincipalBuilder`
//! (`clients/src/main/java/org/apache/kafka/common/security/authenticator/DefaultKafkaPrincipalBuilder.java`).
//!
//! # Example
//!
//! ```
//! use quota_engine::cluster::Cluster;
//! use quota_engine::sim::Scenario;
//! use quota_engine::{QuotaType, Rung};
//!
//! let s: Scenario = serde_json::from_str(r#"{
//!   "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 1000000}],
//!   "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}]
//! }"#)?;
//! let cluster = Cluster::new(&s);
//! let produce = cluster.resolve_type(0, QuotaType::Produce).unwrap();
//! assert_eq!(produce.rung(), Some(Rung::ClientId));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use crate::broker::{Broker, BrokerSettings};
use crate::entity::{EntityName, QuotaEntity, QuotaKey, QuotaType};
use crate::principal::{
    Connection, Identity, Listener, PrincipalBuilder, PrincipalConfig, PrincipalError, PrincipalOutcome,
    SaslMechanism, SslClientAuth,
};
use crate::resolve::{BudgetGroups, ClientIdentity, QuotaCallbacks, Resolution};
use crate::scenario::{ConnectionSpec, ListenerKind, Scenario};
use crate::store::{ApiError, QuotaStore};
use crate::Error;

/// The `ssl.client.auth` an SSL listener runs with: the configured value,
/// else `required` when the client presents a certificate (a DN is given:
/// the broker must have asked for it), else `none`.
///
/// Kafka: `BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG` (default `none`);
/// a DN reaches `SslAuthenticationContext` only when the broker requests a
/// certificate.
pub fn ssl_client_auth(configured: Option<SslClientAuth>, has_dn: bool) -> SslClientAuth {
    match configured {
        Some(auth) => auth,
        None if has_dn => SslClientAuth::Required,
        None => SslClientAuth::None,
    }
}

/// The connection the principal builder takes for `spec`: the listener (an
/// SSL connection with a DN and no `ssl.client.auth` means `required`, see
/// [`ssl_client_auth`]; a SASL one without a mechanism uses `PLAIN`,
/// [`ConnectionSpec::sasl_mechanism`]), the identity read according to the
/// listener and mechanism (ignored on PLAINTEXT; an OAUTHBEARER identity is
/// the token's claim named by `config`'s `sasl.oauthbearer.sub.claim.name`),
/// the client id and the IP. The playground and the CLI show the
/// [`PrincipalOutcome`] of exactly this connection.
pub fn engine_connection(spec: &ConnectionSpec, config: &PrincipalConfig) -> Connection {
    let listener = match spec.listener {
        ListenerKind::Plaintext => Listener::Plaintext,
        ListenerKind::Ssl => Listener::Ssl {
            client_auth: ssl_client_auth(spec.ssl_client_auth, spec.identity.is_some()),
        },
        ListenerKind::SaslPlaintext => Listener::SaslPlaintext { mechanism: spec.sasl_mechanism() },
        ListenerKind::SaslSsl => Listener::SaslSsl { mechanism: spec.sasl_mechanism() },
    };
    let identity = match (&listener, &spec.identity) {
        (_, None) => Identity::None,
        (Listener::Plaintext, Some(_)) => Identity::None,
        (Listener::Ssl { .. }, Some(dn)) => Identity::CertificateDn(dn.clone()),
        (Listener::SaslPlaintext { mechanism } | Listener::SaslSsl { mechanism }, Some(id)) => {
            match mechanism {
                SaslMechanism::Gssapi => Identity::KerberosPrincipal(id.clone()),
                SaslMechanism::OAuthBearer => {
                    let mut claims = BTreeMap::new();
                    claims.insert(config.oauthbearer_sub_claim_name.clone(), id.clone());
                    Identity::OAuthToken { claims }
                }
                _ => Identity::UserName(id.clone()),
            }
        }
    };
    Connection {
        listener,
        identity,
        client_id: spec.client_id.clone(),
        source_ip: Some(spec.ip.as_str().to_owned()),
    }
}

/// Applies the scenario's quotas to a fresh [`QuotaStore`], in order.
///
/// # Errors
///
/// [`ErrorKind::QuotaRefused`](crate::ErrorKind::QuotaRefused) with Kafka's
/// [`ApiError`] ([`Error::api_error`]) for the first quota the store
/// refuses (unknown key for the entity, value <= 0, fractional LONG, ...).
pub fn quota_store(scenario: &Scenario) -> Result<QuotaStore, Error> {
    let (store, verdicts) = accepted_quotas(scenario);
    match first_refusal(scenario, &verdicts) {
        Some(e) => Err(e),
        None => Ok(store),
    }
}

/// The scenario's quotas applied in order to a fresh [`QuotaStore`], each
/// with Kafka's validation: the store holds the accepted ones, and per
/// scenario quota its verdict (`Some` = Kafka's refusal; the store is left
/// as it was).
pub fn accepted_quotas(scenario: &Scenario) -> (QuotaStore, Vec<Option<ApiError>>) {
    let mut store = QuotaStore::new();
    let verdicts = scenario
        .quotas
        .iter()
        .map(|q| store.set(&q.entity, q.key, q.value).err())
        .collect();
    (store, verdicts)
}

fn first_refusal(scenario: &Scenario, verdicts: &[Option<ApiError>]) -> Option<Error> {
    scenario.quotas.iter().zip(verdicts).find_map(|(q, v)| {
        v.as_ref()
            .map(|e| Error::quota_refused(q.entity.path(), q.key.as_str().to_owned(), e.clone()))
    })
}

/// One scenario connection as the brokers see it.
#[derive(Debug, Clone)]
pub struct ConnectionPrincipal {
    /// The connection the principal builder takes ([`engine_connection`]).
    pub connection: Connection,
    /// What the builder makes of it; `None` when the principal rules do not
    /// parse ([`Cluster::rules`]).
    pub outcome: Option<Result<PrincipalOutcome, PrincipalError>>,
}

impl ConnectionPrincipal {
    /// The principal, when there is one.
    pub fn principal(&self) -> Option<&PrincipalOutcome> {
        self.outcome.as_ref()?.as_ref().ok()
    }
}

/// The principal a simulated client runs as.
pub(crate) struct DerivedPrincipal {
    /// The raw principal name (`ANONYMOUS`, `tenant-a`).
    pub(crate) name: String,
    /// `User:<name>`.
    pub(crate) display: String,
}

/// Everything the brokers derive from a scenario without simulating: the
/// quotas, the principals, the quota managers and the budgets.
#[derive(Debug, Clone)]
pub struct Cluster {
    store: QuotaStore,
    verdicts: Vec<Option<ApiError>>,
    settings: BrokerSettings,
    principal_config: PrincipalConfig,
    rules: Result<PrincipalBuilder, PrincipalError>,
    connections: Vec<ConnectionPrincipal>,
    managers: QuotaCallbacks,
    ip_quotas: Vec<(QuotaEntity, f64)>,
    budgets: [BudgetGroups; 4],
}

impl Cluster {
    /// Analyses `scenario`: its quotas (refused ones left out, see
    /// [`Cluster::quota_error`]), its brokers' principal rules and every
    /// connection's principal. Never fails: each part keeps its own error.
    pub fn new(scenario: &Scenario) -> Self {
        let (store, verdicts) = accepted_quotas(scenario);
        let settings = scenario.brokers.settings.clone();
        let principal_config = settings.principal_config();
        let mut cluster = Self::from_store(store, settings, principal_config);
        cluster.verdicts = verdicts;
        cluster.connections = scenario
            .connections
            .iter()
            .map(|spec| {
                let connection = engine_connection(spec, &cluster.principal_config);
                let outcome = cluster.rules.as_ref().ok().map(|builder| builder.build(&connection));
                ConnectionPrincipal { connection, outcome }
            })
            .collect();
        let members: Vec<ClientIdentity> = cluster
            .connections
            .iter()
            .filter_map(ConnectionPrincipal::principal)
            .map(|p| ClientIdentity::new(&p.principal.name, &p.client_id))
            .collect();
        cluster.budgets = cluster.managers.budget_groups_all(&members);
        cluster
    }

    /// A cluster holding `store`'s quotas, with no scenario connections
    /// (connections are then derived one by one with [`Cluster::rules`]).
    pub fn from_store(store: QuotaStore, settings: BrokerSettings, principal_config: PrincipalConfig) -> Self {
        let managers = QuotaCallbacks::from_store(&store);
        let ip_quotas = store
            .entries()
            .filter(|(e, _)| e.is_ip())
            .filter_map(|(e, kv)| kv.get(&Broker::IP_KEY).map(|v| (e.clone(), *v)))
            .collect();
        let rules = principal_config.build();
        let budgets = managers.budget_groups_all(&[]);
        Cluster {
            store,
            verdicts: Vec::new(),
            settings,
            principal_config,
            rules,
            connections: Vec::new(),
            managers,
            ip_quotas,
            budgets,
        }
    }

    /// The quotas Kafka accepts.
    pub fn store(&self) -> &QuotaStore {
        &self.store
    }

    /// Kafka's refusal of scenario quota `i` (`None` when accepted or out of range).
    pub fn quota_error(&self, i: usize) -> Option<&ApiError> {
        self.verdicts.get(i)?.as_ref()
    }

    /// The first refused scenario quota, as the simulator reports it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::QuotaRefused`](crate::ErrorKind::QuotaRefused) with
    /// Kafka's [`ApiError`] (see [`quota_store`]).
    pub fn check_quotas(&self, scenario: &Scenario) -> Result<(), Error> {
        first_refusal(scenario, &self.verdicts).map_or(Ok(()), Err)
    }

    /// The brokers' settings.
    pub fn settings(&self) -> &BrokerSettings {
        &self.settings
    }

    /// The brokers' principal configuration.
    pub fn principal_config(&self) -> &PrincipalConfig {
        &self.principal_config
    }

    /// The principal builder, or why the broker would not start with these rules.
    pub fn rules(&self) -> Result<&PrincipalBuilder, &PrincipalError> {
        self.rules.as_ref()
    }

    /// Scenario connection `i` as the brokers see it.
    pub fn connection(&self, i: usize) -> Option<&ConnectionPrincipal> {
        self.connections.get(i)
    }

    /// Every scenario connection, in order.
    pub fn connections(&self) -> &[ConnectionPrincipal] {
        &self.connections
    }

    /// The quota callbacks of the four quota managers, built from the store.
    pub fn managers(&self) -> &QuotaCallbacks {
        &self.managers
    }

    /// The `connection_creation_rate` of every `ip` entity, in store order.
    pub fn ip_quotas(&self) -> &[(QuotaEntity, f64)] {
        &self.ip_quotas
    }

    /// The budgets of the connections that have a principal, per quota type
    /// (index [`QuotaType::slot`]).
    pub fn budgets(&self) -> &[BudgetGroups; 4] {
        &self.budgets
    }

    /// One connection's four resolutions, in [`QuotaType::ALL`] order.
    pub fn resolve_all(&self, principal_name: &str, client_id: &str) -> [Resolution; 4] {
        self.managers.resolve_all(principal_name, client_id)
    }

    /// The four resolutions of scenario connection `i` (`None` without a principal).
    pub fn resolve(&self, i: usize) -> Option<[Resolution; 4]> {
        let p = self.connection(i)?.principal()?;
        Some(self.resolve_all(&p.principal.name, &p.client_id))
    }

    /// The resolution of scenario connection `i` for one quota type (`None`
    /// without a principal).
    pub fn resolve_type(&self, i: usize, quota_type: QuotaType) -> Option<Resolution> {
        let p = self.connection(i)?.principal()?;
        Some(self.managers.get(quota_type).resolve(&p.principal.name, &p.client_id))
    }

    /// The principal builder's warnings for `outcome` that can matter with
    /// these quotas: the User:ANONYMOUS one ([`crate::principal::ANONYMOUS_WARNING`])
    /// only when a quota on a named user other than ANONYMOUS exists, since
    /// only such a quota can fail to apply to an unauthenticated connection.
    pub fn principal_warnings(&self, outcome: &PrincipalOutcome) -> Vec<String> {
        let named_user_quota = self.store.entries().any(|(e, v)| {
            !v.is_empty()
                && matches!(
                    e,
                    QuotaEntity::User(EntityName::Named(u)) | QuotaEntity::UserClientId { user: EntityName::Named(u), .. }
                        if u != "ANONYMOUS"
                )
        });
        outcome
            .warnings
            .iter()
            .filter(|w| named_user_quota || w.as_str() != crate::principal::ANONYMOUS_WARNING)
            .cloned()
            .collect()
    }

    /// The quotas of the store that apply to none of `scenario`'s
    /// connections: no connection's resolution of that quota type matches
    /// the entity (client quotas), or no connection's source address
    /// matches it (`ip` connection-rate quotas). A typo in a client-id or a
    /// user name shows up here. `(entity, key, value)` in the store's order.
    pub fn unmatched_quotas(&self, scenario: &Scenario) -> Vec<(QuotaEntity, QuotaKey, f64)> {
        let resolutions: Vec<[Resolution; 4]> =
            (0..scenario.connections.len()).filter_map(|i| self.resolve(i)).collect();
        let ip_entities: Vec<QuotaEntity> = scenario
            .connections
            .iter()
            .filter_map(|c| self.ip_rate(c.ip.as_str()).map(|(e, _)| e))
            .collect();
        let mut out = Vec::new();
        for (entity, values) in self.store.entries() {
            for (key, value) in values {
                let used = match QuotaType::ALL.iter().find(|qt| qt.key() == *key) {
                    Some(qt) => resolutions.iter().any(|rs| {
                        rs[qt.slot()].matched.as_ref().is_some_and(|m| m.entity == *entity)
                    }),
                    None => ip_entities.contains(entity),
                };
                if !used {
                    out.push((entity.clone(), *key, *value));
                }
            }
        }
        out
    }

    /// The indices of the scenario connections that share connection `i`'s
    /// budget of `quota_type` (itself excluded).
    pub fn sharers(&self, i: usize, quota_type: QuotaType) -> Vec<usize> {
        let Some(me) = self.connection(i).and_then(ConnectionPrincipal::principal) else { return Vec::new() };
        let me = ClientIdentity::new(&me.principal.name, &me.client_id);
        let Some(group) = self.budgets[quota_type.slot()].group_of(&me) else { return Vec::new() };
        // Borrowed: the page asks this of every shown connection for every
        // quota type on each edit (100 connections in one budget were 40,000
        // identities allocated per edit).
        let member = |name: &str, id: &str| group.members.iter().any(|m| m.principal_name == name && m.client_id == id);
        self.connections
            .iter()
            .enumerate()
            .filter(|(j, c)| *j != i && c.principal().is_some_and(|p| member(&p.principal.name, &p.client_id)))
            .map(|(j, _)| j)
            .collect()
    }

    /// The `connection_creation_rate` that applies to `ip`: the entity as
    /// written and its value, `None` = unlimited (or broker settings out of
    /// range). Addresses compare as Java's `InetAddress` does: a quota on
    /// `ips/0:0:0:0:0:0:0:1` applies to a connection from `::1`.
    ///
    /// Kafka: `ConnectionQuotas.connectionRateForIp` (`core/src/main/scala/kafka/network/SocketServer.scala`).
    pub fn ip_rate(&self, ip: &str) -> Option<(QuotaEntity, f64)> {
        // What a broker of these settings would find (`Broker::new` refuses
        // settings out of range), without building one per question.
        self.settings.validate().ok()?;
        self.settings.quota_window().ok()?;
        self.settings.metrics_window().ok()?;
        crate::broker::ip_quota_for(&self.ip_quotas, ip)
    }

    /// The principal a simulated client on scenario connection `i` runs as,
    /// with the simulator's errors (the rules' first, then the builder's).
    pub(crate) fn principal(&self, i: usize, name: &str) -> Result<DerivedPrincipal, Error> {
        let refused = |e: &PrincipalError| Error::no_principal(name.to_owned(), e.clone());
        let c = self
            .connection(i)
            .ok_or_else(|| Error::invalid_scenario(format!("The connection '{name}' is not defined in connections.")))?;
        self.rules.as_ref().map_err(refused)?;
        match &c.outcome {
            Some(Ok(out)) => Ok(DerivedPrincipal {
                name: out.principal.name.clone(),
                display: out.principal.to_string(),
            }),
            Some(Err(e)) => Err(refused(e)),
            None => Err(Error::invalid_scenario(format!("The connection '{name}' has no principal."))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::simulate;

    fn scenario(json: &str) -> Scenario {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_anonymous_warning_shows_only_where_a_named_user_quota_exists() {
        let with = |quotas: &str| {
            let s = scenario(&format!(
                r#"{{"topics": [{{"name": "t"}}], "quotas": [{quotas}],
                    "connections": [{{"name": "c", "listener": "PLAINTEXT", "client.id": "app"}}], "workloads": []}}"#
            ));
            let cluster = Cluster::new(&s);
            let outcome = cluster.connection(0).and_then(|c| c.principal()).cloned().unwrap();
            assert!(outcome.warnings.iter().any(|w| w == crate::principal::ANONYMOUS_WARNING));
            cluster.principal_warnings(&outcome).iter().any(|w| w == crate::principal::ANONYMOUS_WARNING)
        };
        assert!(!with(""));
        assert!(!with(r#"{"entity": {"user": null}, "key": "producer_byte_rate", "value": 1000}"#));
        assert!(!with(r#"{"entity": {"user": "ANONYMOUS"}, "key": "producer_byte_rate", "value": 1000}"#));
        assert!(!with(r#"{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 1000}"#));
        assert!(with(r#"{"entity": {"user": "alice"}, "key": "producer_byte_rate", "value": 1000}"#));
        assert!(with(r#"{"entity": {"user": "alice", "client-id": "app"}, "key": "producer_byte_rate", "value": 1000}"#));
    }

    #[test]
    fn quotas_no_connection_uses_are_named() {
        let s = scenario(
            r#"{"topics": [{"name": "t"}],
                "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 1000},
                           {"entity": {"client-id": "ap"}, "key": "producer_byte_rate", "value": 2000},
                           {"entity": {"user": "alice"}, "key": "consumer_byte_rate", "value": 3000},
                           {"entity": {"ip": "0:0:0:0:0:0:0:1"}, "key": "connection_creation_rate", "value": 5},
                           {"entity": {"ip": "10.0.0.9"}, "key": "connection_creation_rate", "value": 6}],
                "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "app", "ip": "::1"}],
                "workloads": []}"#,
        );
        let unmatched: Vec<String> = Cluster::new(&s)
            .unmatched_quotas(&s)
            .iter()
            .map(|(e, k, _)| format!("{} {}", e.path(), k.as_str()))
            .collect();
        // clients/app applies (and shadows nothing else); the ::1 quota
        // matches the connection's address written another way.
        assert_eq!(
            unmatched,
            [
                "users/alice consumer_byte_rate",
                "clients/ap producer_byte_rate",
                "ips/10.0.0.9 connection_creation_rate"
            ]
        );
    }

    #[test]
    fn a_dn_without_ssl_client_auth_means_required() {
        assert_eq!(ssl_client_auth(None, true), SslClientAuth::Required);
        assert_eq!(ssl_client_auth(None, false), SslClientAuth::None);
        assert_eq!(ssl_client_auth(Some(SslClientAuth::Requested), true), SslClientAuth::Requested);
    }

    #[test]
    fn each_part_keeps_its_own_error() {
        let s = scenario(
            r#"{
  "topics": [{"name": "t"}],
  "quotas": [
    {"entity": {"user": "a"}, "key": "producer_byte_rate", "value": 1.5},
    {"entity": {"user": "a"}, "key": "consumer_byte_rate", "value": 1000}
  ],
  "connections": [
    {"name": "scram", "listener": "SASL_PLAINTEXT", "mechanism": "SCRAM-SHA-256", "identity": "b", "client.id": "c"},
    {"name": "p", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "c"},
    {"name": "q", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "c"}
  ],
  "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 10, "record.size": 100}}]
}"#,
        );
        let c = Cluster::new(&s);
        assert!(c.quota_error(0).is_some());
        assert!(c.quota_error(1).is_none());
        let refused = c.check_quotas(&s).unwrap_err();
        assert!(refused.is_quota_refused());
        assert_eq!(refused.api_error(), c.quota_error(0));
        assert_eq!(
            c.connection(0).unwrap().connection.listener,
            Listener::SaslPlaintext { mechanism: SaslMechanism::ScramSha256 }
        );
        assert_eq!(c.connection(1).unwrap().principal().unwrap().principal.name, "a");
        assert_eq!(c.sharers(1, QuotaType::Fetch), vec![2]);
        assert_eq!(c.connection(0).unwrap().principal().unwrap().principal.name, "b");
        // Only the connections a workload uses must have a principal.
        let mut ok = s.clone();
        ok.quotas.remove(0);
        assert!(simulate(ok.validate().expect("a valid scenario")).is_ok());
    }
}
