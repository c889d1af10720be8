//! The connection a principal is derived for, from the identity flags
//! `resolve` and `advise` share (`--listener`, `--mechanism`, `--user`,
//! `--dn`, `--kerberos`, `--oauth-sub`, `--client-id`, `--ssl-client-auth`)
//! and the broker's principal rules (`--ssl-mapping-rules`,
//! `--kerberos-rules`, `--kerberos-realm`).
//!
//! A client certificate on a SASL_SSL listener is valid and changes nothing
//! of the principal: `DefaultKafkaPrincipalBuilder.build` takes a SASL
//! connection's principal from the `SaslServer`'s authorization id, never
//! from the TLS session (clients/src/main/java/org/apache/kafka/common/security/authenticator/DefaultKafkaPrincipalBuilder.java).

use quota_engine::cluster::engine_connection;
use std::collections::BTreeMap;

use quota_engine::principal::{parse_config_list, Connection, Identity, PrincipalConfig, SaslMechanism, SslClientAuth};
use quota_engine::scenario::{ClientThrottling, ConnectionSpec, ListenerKind, SourceIp};

use super::resolve::{ClientAuthArg, ListenerArg};

/// The identity flags `resolve` and `advise` share, beside `--listener`,
/// which each declares itself (`resolve` takes a listener name of a live
/// cluster and may leave it out with `--ip`; `advise` takes a security
/// protocol): who the client is (`--mechanism`, `--user`, `--dn`,
/// `--kerberos`, `--oauth-sub`, `--client-id`, `--ssl-client-auth`) and the
/// broker's principal rules (`--ssl-mapping-rules`, `--kerberos-rules`,
/// `--kerberos-realm`). Read through [`ConnectionFlags::with_listener`]
/// into [`IdentityFlags`], then the page's [`ConnectionSpec`].
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("identity").args(["user", "kerberos", "oauth_sub"])))]
pub(crate) struct ConnectionFlags {
    /// SASL mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER);
    /// default PLAIN, or GSSAPI with --kerberos, OAUTHBEARER with --oauth-sub.
    #[arg(long, requires = "listener")]
    pub(crate) mechanism: Option<String>,
    /// The SASL PLAIN/SCRAM user name.
    #[arg(long, value_name = "U", requires = "listener")]
    pub(crate) user: Option<String>,
    /// The client certificate's subject DN (SSL listener), e.g. `CN=app,OU=eng,O=org`: any form Java's X500Principal reads (`CN=app, OU=eng`, `CN=app;OU=eng`), or openssl's `subject=...` line (its RDNs reversed to Java's order). The rules run on Java's getName() of it.
    #[arg(long, value_name = "DN", requires = "listener")]
    pub(crate) dn: Option<String>,
    /// The Kerberos principal (GSSAPI), e.g. `kafka-client/host@EXAMPLE.COM`.
    #[arg(long, value_name = "P", requires = "listener")]
    pub(crate) kerberos: Option<String>,
    /// The OAuth token's subject claim (OAUTHBEARER).
    #[arg(long, value_name = "SUB", requires = "listener")]
    pub(crate) oauth_sub: Option<String>,
    /// The client's client.id.
    #[arg(long, value_name = "C", default_value = "", requires = "listener")]
    pub(crate) client_id: String,
    /// `ssl.client.auth` of an SSL listener (default: required with --dn, else none).
    #[arg(long, value_enum, requires = "listener")]
    pub(crate) ssl_client_auth: Option<ClientAuthArg>,
    /// The broker's `ssl.principal.mapping.rules`.
    #[arg(long, value_name = "R", requires = "listener")]
    pub(crate) ssl_mapping_rules: Option<String>,
    /// The broker's `sasl.kerberos.principal.to.local.rules` (comma-separated).
    #[arg(long, value_name = "R", requires = "listener")]
    pub(crate) kerberos_rules: Option<String>,
    /// The broker's default Kerberos realm, krb5.conf's `default_realm` (what
    /// the DEFAULT rule strips). Default: the realm of --kerberos, as on a
    /// single-realm cluster; pass --kerberos-realm "" for a broker with no
    /// krb5 default realm.
    #[arg(long, value_name = "REALM", requires = "listener")]
    pub(crate) kerberos_realm: Option<String>,
}

impl ConnectionFlags {
    /// The flags with the listener's security protocol.
    pub(crate) fn with_listener(&self, listener: ListenerArg) -> IdentityFlags<'_> {
        IdentityFlags { listener, who: self, ssl_client_auth: self.ssl_client_auth }
    }
}

/// The identity flags as given on the command line, with the listener's
/// security protocol.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdentityFlags<'a> {
    /// `--listener`, as a security protocol.
    pub(crate) listener: ListenerArg,
    /// The other flags.
    pub(crate) who: &'a ConnectionFlags,
    /// `--ssl-client-auth`, or, when it is not given, what a live
    /// cluster's listener says.
    pub(crate) ssl_client_auth: Option<ClientAuthArg>,
}

impl IdentityFlags<'_> {
    /// The listener's security protocol name (`SASL_SSL`, ...).
    pub(crate) fn listener_name(&self) -> &'static str {
        match self.listener {
            ListenerArg::Plaintext => "PLAINTEXT",
            ListenerArg::Ssl => "SSL",
            ListenerArg::SaslPlaintext => "SASL_PLAINTEXT",
            ListenerArg::SaslSsl => "SASL_SSL",
        }
    }

    /// The connection, and a note for stderr when a flag is valid but does
    /// not shape the principal (a client certificate on SASL_SSL). `Err` is the message for stderr.
    ///
    /// The flags become the scenario's [`ConnectionSpec`], the same spec
    /// the playground's Connection panel edits, and the engine reads it
    /// ([`engine_connection`], with the rules of [`Self::principal_config`]):
    /// one route from a connection to its principal for every surface.
    ///
    /// On a PLAINTEXT listener the spec holds no identity and
    /// [`engine_connection`] drops one (the page disables its identity
    /// field there and labels it ignored); the CLI, whose flag was typed,
    /// puts the identity back as what the client presents, so that the
    /// principal builder's warning says it is ignored (in the text and in
    /// `--json`'s principal warnings, as `resolve` said before the flags
    /// became a spec). This is the one step the CLI adds to the shared
    /// route.
    pub(crate) fn connection(&self) -> Result<(Connection, Option<String>), String> {
        let (spec, note) = self.connection_spec()?;
        let mut connection = engine_connection(&spec, &self.principal_config());
        if self.listener == ListenerArg::Plaintext {
            if let Some(presented) = self.presented_identity() {
                connection.identity = presented;
            }
        }
        Ok((connection, note))
    }

    /// What the client presents by the identity flag given, typed by the
    /// flag (`--dn` a certificate, `--user` a user name, `--kerberos` a
    /// Kerberos principal, `--oauth-sub` a token with that subject claim).
    fn presented_identity(&self) -> Option<Identity> {
        let w = self.who;
        w.dn.clone()
            .map(Identity::CertificateDn)
            .or_else(|| w.user.clone().map(Identity::UserName))
            .or_else(|| w.kerberos.clone().map(Identity::KerberosPrincipal))
            .or_else(|| {
                let claim = self.principal_config().oauthbearer_sub_claim_name;
                w.oauth_sub.clone().map(|sub| Identity::OAuthToken { claims: BTreeMap::from([(claim, sub)]) })
            })
    }

    /// The flags as a scenario connection (named `cli`), and the note of
    /// [`Self::connection`].
    pub(crate) fn connection_spec(&self) -> Result<(ConnectionSpec, Option<String>), String> {
        let mechanism = match self.who.mechanism.as_deref() {
            Some(name) => Some(SaslMechanism::from_name(name).ok_or_else(|| {
                format!("kafka-quota: --mechanism {name} is not a SASL mechanism Kafka has; expected PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI or OAUTHBEARER.")
            })?),
            None if self.who.kerberos.is_some() => Some(SaslMechanism::Gssapi),
            None if self.who.oauth_sub.is_some() => Some(SaslMechanism::OAuthBearer),
            None => None,
        };
        self.check_mechanism(mechanism)?;
        let sasl_identity = self.who.user.as_deref().or(self.who.kerberos.as_deref()).or(self.who.oauth_sub.as_deref());
        let mut note = None;
        let (listener, identity) = match self.listener {
            ListenerArg::Plaintext => (ListenerKind::Plaintext, None),
            ListenerArg::Ssl => {
                let identity = match (self.who.dn.as_deref(), sasl_identity) {
                    (Some(_), Some(_)) => {
                        return Err("kafka-quota: an SSL listener authenticates by the client certificate alone: --user, --kerberos and --oauth-sub need a SASL listener (SASL_SSL, where --dn may stay: the principal then comes from SASL).".to_owned());
                    }
                    (None, Some(_)) => {
                        return Err("kafka-quota: an SSL listener authenticates by the client certificate alone: --user, --kerberos and --oauth-sub need a SASL listener (SASL_PLAINTEXT or SASL_SSL); give the certificate's subject with --dn.".to_owned());
                    }
                    (dn, None) => dn,
                };
                (ListenerKind::Ssl, identity)
            }
            ListenerArg::SaslPlaintext => {
                if self.who.dn.is_some() {
                    return Err("kafka-quota: --dn: a SASL_PLAINTEXT listener has no TLS, so a client presents no certificate there; give the SASL identity (--user, --kerberos or --oauth-sub), or use --listener SASL_SSL or SSL.".to_owned());
                }
                (ListenerKind::SaslPlaintext, sasl_identity)
            }
            ListenerArg::SaslSsl => {
                if sasl_identity.is_none() && self.who.dn.is_some() {
                    return Err("kafka-quota: a SASL_SSL connection is authenticated by SASL: give its identity with --user, --kerberos or --oauth-sub. A client certificate (--dn) is valid there but authenticates TLS only; the principal comes from SASL.".to_owned());
                }
                if sasl_identity.is_some() && self.who.dn.is_some() {
                    note = Some("note: --dn: the client certificate authenticates TLS only; on a SASL_SSL listener the principal comes from SASL (DefaultKafkaPrincipalBuilder), so the DN changes nothing here.".to_owned());
                }
                (ListenerKind::SaslSsl, sasl_identity)
            }
        };
        let spec = ConnectionSpec {
            name: "cli".to_owned(),
            listener,
            mechanism,
            ssl_client_auth: self.ssl_client_auth.map(|a| match a {
                ClientAuthArg::None => SslClientAuth::None,
                ClientAuthArg::Requested => SslClientAuth::Requested,
                ClientAuthArg::Required => SslClientAuth::Required,
            }),
            identity: identity.map(str::to_owned),
            client_id: self.who.client_id.clone(),
            ip: SourceIp::default(),
            client_throttling: ClientThrottling::default(),
        };
        Ok((spec, note))
    }

    /// Refuses a `--mechanism` that contradicts the identity flag: the flag
    /// says what the client presents (`--kerberos` a Kerberos principal,
    /// which only GSSAPI authenticates; `--oauth-sub` a token, only
    /// OAUTHBEARER; `--user` a PLAIN or SCRAM user name), so `--kerberos X
    /// --mechanism PLAIN` is a usage error, never read as `User:X`.
    fn check_mechanism(&self, mechanism: Option<SaslMechanism>) -> Result<(), String> {
        let Some(mechanism) = mechanism else { return Ok(()) };
        let name = mechanism.as_str();
        let wrong = match mechanism {
            SaslMechanism::Gssapi => self.who.user.as_ref().map(|_| "--user").or_else(|| self.who.oauth_sub.as_ref().map(|_| "--oauth-sub")),
            SaslMechanism::OAuthBearer => self.who.user.as_ref().map(|_| "--user").or_else(|| self.who.kerberos.as_ref().map(|_| "--kerberos")),
            _ => self.who.kerberos.as_ref().map(|_| "--kerberos").or_else(|| self.who.oauth_sub.as_ref().map(|_| "--oauth-sub")),
        };
        match wrong {
            None => Ok(()),
            Some(flag) => {
                let fits = match flag {
                    "--kerberos" => "--kerberos gives a Kerberos principal, which only GSSAPI authenticates",
                    "--oauth-sub" => "--oauth-sub gives a token's subject, which only OAUTHBEARER authenticates",
                    _ => "--user gives a PLAIN or SCRAM user name (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)",
                };
                Err(format!("kafka-quota: --mechanism {name} contradicts {flag}: {fits}. Drop --mechanism (the flag implies it), or give the identity {name} takes ({}).", identity_flag_of(mechanism)))
            }
        }
    }

    /// `--kerberos-realm`, or the realm of `--kerberos` (`name[/host]@REALM`).
    fn default_realm(&self) -> String {
        match (self.who.kerberos_realm.as_deref(), self.who.kerberos.as_deref()) {
            (Some(realm), _) => realm.to_owned(),
            (None, Some(principal)) => principal
                .rsplit_once('@')
                .map(|(_, r)| r.to_owned())
                .unwrap_or_default(),
            (None, None) => String::new(),
        }
    }

    /// The broker's principal rules from the flags.
    pub(crate) fn principal_config(&self) -> PrincipalConfig {
        PrincipalConfig {
            ssl_principal_mapping_rules: self.who.ssl_mapping_rules.clone(),
            sasl_kerberos_principal_to_local_rules: self.who.kerberos_rules.as_deref().map(parse_config_list),
            kerberos_default_realm: self.default_realm(),
            ..PrincipalConfig::default()
        }
    }
}

/// The identity flag a mechanism takes, for a usage error.
fn identity_flag_of(mechanism: SaslMechanism) -> &'static str {
    match mechanism {
        SaslMechanism::Gssapi => "--kerberos",
        SaslMechanism::OAuthBearer => "--oauth-sub",
        _ => "--user",
    }
}
