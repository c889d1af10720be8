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

use std::collections::BTreeMap;

use quota_engine::cluster::ssl_client_auth;
use quota_engine::principal::{
    parse_config_list, Connection, Identity, Listener, PrincipalConfig, SaslMechanism, SslClientAuth,
};

use super::resolve::{ClientAuthArg, ListenerArg};

/// The identity flags as given on the command line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdentityFlags<'a> {
    /// `--listener`.
    pub(crate) listener: ListenerArg,
    /// `--mechanism`.
    pub(crate) mechanism: Option<&'a str>,
    /// `--user`.
    pub(crate) user: Option<&'a str>,
    /// `--dn`.
    pub(crate) dn: Option<&'a str>,
    /// `--kerberos`.
    pub(crate) kerberos: Option<&'a str>,
    /// `--oauth-sub`.
    pub(crate) oauth_sub: Option<&'a str>,
    /// `--client-id`.
    pub(crate) client_id: &'a str,
    /// `--ssl-client-auth`.
    pub(crate) ssl_client_auth: Option<ClientAuthArg>,
    /// `--ssl-mapping-rules`.
    pub(crate) ssl_mapping_rules: Option<&'a str>,
    /// `--kerberos-rules`.
    pub(crate) kerberos_rules: Option<&'a str>,
    /// `--kerberos-realm`.
    pub(crate) kerberos_realm: Option<&'a str>,
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
    /// not shape the principal (a client certificate on SASL_SSL). `Err` is
    /// the message for stderr.
    pub(crate) fn connection(&self) -> Result<(Connection, Option<String>), String> {
        let default_mechanism = if self.kerberos.is_some() {
            "GSSAPI"
        } else if self.oauth_sub.is_some() {
            "OAUTHBEARER"
        } else {
            "PLAIN"
        };
        let mech_name = self.mechanism.unwrap_or(default_mechanism);
        let mechanism = SaslMechanism::from_name(mech_name).ok_or_else(|| {
            format!("kafka-quota: --mechanism {mech_name} is not a SASL mechanism Kafka has; expected PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI or OAUTHBEARER.")
        })?;
        let sasl_identity = if let Some(u) = self.user {
            Some(Identity::UserName(u.to_owned()))
        } else if let Some(k) = self.kerberos {
            Some(Identity::KerberosPrincipal(k.to_owned()))
        } else {
            self.oauth_sub.map(|s| Identity::OAuthToken {
                claims: BTreeMap::from([("sub".to_owned(), s.to_owned())]),
            })
        };
        let mut note = None;
        let (listener, identity) = match self.listener {
            ListenerArg::Plaintext => (
                Listener::Plaintext,
                match (self.dn, sasl_identity) {
                    (Some(dn), _) => Identity::CertificateDn(dn.to_owned()),
                    (None, Some(id)) => id,
                    (None, None) => Identity::None,
                },
            ),
            ListenerArg::Ssl => {
                let client_auth = ssl_client_auth(
                    self.ssl_client_auth.map(|a| match a {
                        ClientAuthArg::None => SslClientAuth::None,
                        ClientAuthArg::Requested => SslClientAuth::Requested,
                        ClientAuthArg::Required => SslClientAuth::Required,
                    }),
                    self.dn.is_some(),
                );
                let identity = match (self.dn, sasl_identity) {
                    (Some(_), Some(_)) => {
                        return Err("kafka-quota: an SSL listener authenticates by the client certificate alone: --user, --kerberos and --oauth-sub need a SASL listener (SASL_SSL, where --dn may stay: the principal then comes from SASL).".to_owned());
                    }
                    (Some(dn), None) => Identity::CertificateDn(dn.to_owned()),
                    (None, Some(id)) => id,
                    (None, None) => Identity::None,
                };
                (Listener::Ssl { client_auth }, identity)
            }
            ListenerArg::SaslPlaintext => {
                if self.dn.is_some() {
                    return Err("kafka-quota: --dn: a SASL_PLAINTEXT listener has no TLS, so a client presents no certificate there; give the SASL identity (--user, --kerberos or --oauth-sub), or use --listener SASL_SSL or SSL.".to_owned());
                }
                (Listener::SaslPlaintext { mechanism }, sasl_identity.unwrap_or(Identity::None))
            }
            ListenerArg::SaslSsl => {
                let Some(identity) = sasl_identity else {
                    if self.dn.is_some() {
                        return Err("kafka-quota: a SASL_SSL connection is authenticated by SASL: give its identity with --user, --kerberos or --oauth-sub. A client certificate (--dn) is valid there but authenticates TLS only; the principal comes from SASL.".to_owned());
                    }
                    return Ok((
                        Connection {
                            listener: Listener::SaslSsl { mechanism },
                            identity: Identity::None,
                            client_id: self.client_id.to_owned(),
                            source_ip: None,
                        },
                        None,
                    ));
                };
                if self.dn.is_some() {
                    note = Some("note: --dn: the client certificate authenticates TLS only; on a SASL_SSL listener the principal comes from SASL (DefaultKafkaPrincipalBuilder), so the DN changes nothing here.".to_owned());
                }
                (Listener::SaslSsl { mechanism }, identity)
            }
        };
        Ok((
            Connection {
                listener,
                identity,
                client_id: self.client_id.to_owned(),
                source_ip: None,
            },
            note,
        ))
    }

    /// `--kerberos-realm`, or the realm of `--kerberos` (`name[/host]@REALM`).
    fn default_realm(&self) -> String {
        match (self.kerberos_realm, self.kerberos) {
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
            ssl_principal_mapping_rules: self.ssl_mapping_rules.map(str::to_owned),
            sasl_kerberos_principal_to_local_rules: self.kerberos_rules.map(parse_config_list),
            kerberos_default_realm: self.default_realm(),
            ..PrincipalConfig::default()
        }
    }
}
