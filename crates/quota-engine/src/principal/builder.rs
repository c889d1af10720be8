//! From a connection to the principal Kafka's default principal builder gives
//! it, explained.
//!
//! Kafka: `DefaultKafkaPrincipalBuilder`
//! (`clients/src/main/java/org/apache/kafka/common/security/authenticator/DefaultKafkaPrincipalBuilder.java`),
//! `KafkaPrincipal` (`.../security/auth/KafkaPrincipal.java`), `PlainSaslServer`
//! (`.../security/plain/internals/PlainSaslServer.java`), `ClaimValidationUtils`
//! (`.../security/oauthbearer/internals/secured/ClaimValidationUtils.java`),
//! `SaslChannelBuilder` (the default realm, `""` when none is found).

use std::collections::BTreeMap;
use std::fmt;

use super::error::{ErrorClass, PrincipalError};
use super::kerberos::{KerberosName, KerberosShortNamer};
use super::sanitizer::sanitize;
use super::ssl_mapper::SslPrincipalMapper;
use super::x500::read_certificate_subject;

/// The SASL mechanism a client authenticates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SaslMechanism {
    /// `PLAIN`: user name and password.
    Plain,
    /// `SCRAM-SHA-256`.
    ScramSha256,
    /// `SCRAM-SHA-512`.
    ScramSha512,
    /// `GSSAPI`: Kerberos.
    Gssapi,
    /// `OAUTHBEARER`: an OAuth 2 bearer token.
    OAuthBearer,
}

impl SaslMechanism {
    /// Every mechanism, in the order Kafka's documentation lists them.
    pub const ALL: [SaslMechanism; 5] = [Self::Plain, Self::ScramSha256, Self::ScramSha512, Self::Gssapi, Self::OAuthBearer];

    /// The name as in `sasl.enabled.mechanisms` (`"SCRAM-SHA-256"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            SaslMechanism::Plain => "PLAIN",
            SaslMechanism::ScramSha256 => "SCRAM-SHA-256",
            SaslMechanism::ScramSha512 => "SCRAM-SHA-512",
            SaslMechanism::Gssapi => "GSSAPI",
            SaslMechanism::OAuthBearer => "OAUTHBEARER",
        }
    }

    /// Parses a mechanism name (exact, upper-case, as Kafka spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

impl fmt::Display for SaslMechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Written as Kafka spells the mechanism (`"SCRAM-SHA-256"`), as in a
/// scenario connection's `mechanism`.
impl serde::Serialize for SaslMechanism {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Read from Kafka's spelling (exact, upper-case); any other string is
/// refused with a message naming it and the five mechanisms, worded as
/// serde's own (`unknown ..., expected ...`).
impl<'de> serde::Deserialize<'de> for SaslMechanism {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        SaslMechanism::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown SASL mechanism '{name}', expected one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER"
            ))
        })
    }
}

/// The broker's `ssl.client.auth` for an SSL listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SslClientAuth {
    /// `none` (Kafka's default): no client certificate is asked for.
    #[default]
    None,
    /// `requested`: a certificate is asked for but optional.
    Requested,
    /// `required`: a connection without a client certificate is refused.
    Required,
}

impl SslClientAuth {
    /// The configuration value: `none`, `requested` or `required`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SslClientAuth::None => "none",
            SslClientAuth::Requested => "requested",
            SslClientAuth::Required => "required",
        }
    }

    /// Parses a configuration value (exact, lower-case, as Kafka's
    /// `ssl.client.auth` documents it).
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::None, Self::Requested, Self::Required].into_iter().find(|a| a.as_str() == name)
    }
}

/// Written as the configuration value (`"required"`).
impl serde::Serialize for SslClientAuth {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Read from the configuration value; any other string is refused with a
/// message naming it and the three values.
impl<'de> serde::Deserialize<'de> for SslClientAuth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        SslClientAuth::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown ssl.client.auth value '{name}', expected none, requested or required"))
        })
    }
}

/// The listener's security protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Listener {
    /// `PLAINTEXT`: no authentication; always `User:ANONYMOUS`.
    Plaintext,
    /// `SSL`: the client certificate's DN, if one is asked for and presented.
    Ssl {
        /// The broker's `ssl.client.auth`.
        client_auth: SslClientAuth,
    },
    /// `SASL_PLAINTEXT` with the given mechanism.
    SaslPlaintext {
        /// The mechanism the client uses.
        mechanism: SaslMechanism,
    },
    /// `SASL_SSL` with the given mechanism (the principal comes from SASL; a
    /// client certificate, if any, does not change it).
    SaslSsl {
        /// The mechanism the client uses.
        mechanism: SaslMechanism,
    },
}

impl Listener {
    /// The security protocol name (`PLAINTEXT`, `SSL`, `SASL_PLAINTEXT`, `SASL_SSL`).
    pub const fn protocol(self) -> &'static str {
        match self {
            Listener::Plaintext => "PLAINTEXT",
            Listener::Ssl { .. } => "SSL",
            Listener::SaslPlaintext { .. } => "SASL_PLAINTEXT",
            Listener::SaslSsl { .. } => "SASL_SSL",
        }
    }
}

/// What the client presents to authenticate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// Nothing (a PLAINTEXT client, or an SSL client without a certificate).
    None,
    /// The subject DN of the client certificate, as typed: any DN Java's
    /// `X500Principal(String)` reads (`CN=x, OU=y`, `CN=x;OU=y`, ...) or
    /// openssl's printed subject (`subject=C = US, CN = x`). Kafka maps its
    /// `X500Principal.getName()` (`CN=x,OU=y`), see
    /// [`super::read_certificate_subject`].
    CertificateDn(String),
    /// The PLAIN / SCRAM user name.
    UserName(String),
    /// The Kerberos principal (`service/host@REALM` or `user@REALM`).
    KerberosPrincipal(String),
    /// The claims of an OAuth bearer token (claim name -> string value).
    OAuthToken {
        /// String-valued claims, e.g. `sub` -> `alice`.
        claims: BTreeMap<String, String>,
    },
}

/// One client connection, as the playground describes it: the listener and
/// the identity presented, what the principal builder takes (the quota
/// managers then see only the principal name and client id, a
/// [`crate::resolve::ClientIdentity`]).
///
/// Kafka: the `AuthenticationContext` (`PlaintextAuthenticationContext`,
/// `SslAuthenticationContext`, `SaslAuthenticationContext`,
/// `clients/src/main/java/org/apache/kafka/common/security/auth/`) that
/// `DefaultKafkaPrincipalBuilder.build` receives, plus the client id and
/// address the channel carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// The listener the client connects to.
    pub listener: Listener,
    /// What the client presents.
    pub identity: Identity,
    /// The client's `client.id` (may be empty).
    pub client_id: String,
    /// The client's source address, if known (used by `ip` connection-rate quotas).
    pub source_ip: Option<String>,
}

/// The broker settings that decide principals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrincipalConfig {
    /// `ssl.principal.mapping.rules`; `None` = `DEFAULT`.
    pub ssl_principal_mapping_rules: Option<String>,
    /// `sasl.kerberos.principal.to.local.rules` as a list; `None` = `[DEFAULT]`.
    /// Use [`super::parse_config_list`] for a comma-separated string.
    pub sasl_kerberos_principal_to_local_rules: Option<Vec<String>>,
    /// The broker's default Kerberos realm (what `DEFAULT` strips); Kafka uses
    /// `""` when the JVM has none.
    pub kerberos_default_realm: String,
    /// `sasl.oauthbearer.sub.claim.name` (default `sub`).
    pub oauthbearer_sub_claim_name: String,
}

impl Default for PrincipalConfig {
    fn default() -> Self {
        PrincipalConfig {
            ssl_principal_mapping_rules: None,
            sasl_kerberos_principal_to_local_rules: None,
            kerberos_default_realm: String::new(),
            oauthbearer_sub_claim_name: "sub".to_owned(),
        }
    }
}

impl PrincipalConfig {
    /// Parses both rule lists once, as the broker does at start-up.
    ///
    /// # Errors
    /// The rule-parsing errors of [`SslPrincipalMapper::from_rules`] and
    /// [`KerberosShortNamer::from_unparsed_rules`] (a broker with such rules
    /// does not start).
    pub fn build(&self) -> Result<PrincipalBuilder, PrincipalError> {
        Ok(PrincipalBuilder {
            ssl: SslPrincipalMapper::from_rules(self.ssl_principal_mapping_rules.as_deref())?,
            kerberos: KerberosShortNamer::from_unparsed_rules(
                &self.kerberos_default_realm,
                self.sasl_kerberos_principal_to_local_rules.as_deref(),
            )?,
            sub_claim_name: self.oauthbearer_sub_claim_name.clone(),
        })
    }
}

/// A principal: type and name, printed `User:alice`.
///
/// Kafka: `KafkaPrincipal`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KafkaPrincipal {
    /// The principal type; the default builder always gives `User`.
    pub principal_type: String,
    /// The principal name: what `user` quotas are keyed on (before sanitizing).
    pub name: String,
}

impl KafkaPrincipal {
    /// `User:ANONYMOUS` (`KafkaPrincipal.ANONYMOUS`).
    pub fn anonymous() -> Self {
        Self::user("ANONYMOUS")
    }

    /// `User:<name>`.
    pub fn user(name: &str) -> Self {
        KafkaPrincipal {
            principal_type: "User".to_owned(),
            name: name.to_owned(),
        }
    }
}

impl fmt::Display for KafkaPrincipal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.principal_type, self.name)
    }
}

/// Why a connection is `User:ANONYMOUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnonymousReason {
    /// A PLAINTEXT listener never authenticates.
    PlaintextListener,
    /// `ssl.client.auth=none`: the broker does not ask for a certificate.
    ClientAuthNone,
    /// `ssl.client.auth=requested` and the client sent no certificate.
    NoClientCertificate,
}

/// How the principal name was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Derivation {
    /// `User:ANONYMOUS`, for this reason.
    Anonymous(AnonymousReason),
    /// An SSL DN mapped by `ssl.principal.mapping.rules`.
    SslMapping {
        /// The DN as given.
        dn: String,
        /// `X500Principal.getName()` of it: the DN the rules ran on.
        java_dn: String,
        /// How Java reads the given text ("Java reads the certificate
        /// subject ... as ..."); `None` when it is already `java_dn`.
        reading: Option<String>,
        /// Position (0-based) of the rule that matched.
        rule_index: u32,
        /// The rule as the configuration wrote it (issue 29: a trailing `/`
        /// is kept, where Kafka's `toString()` drops it).
        rule: String,
    },
    /// A Kerberos principal mapped by `sasl.kerberos.principal.to.local.rules`.
    Kerberos {
        /// The principal as parsed.
        parsed: KerberosName,
        /// Position and text of the rule that matched; `None` when the name
        /// had no host and no realm and is used as it is.
        rule: Option<(u32, String)>,
    },
    /// The PLAIN / SCRAM user name, used as it is.
    SaslUserName(SaslMechanism),
    /// The OAuth token claim named by `sasl.oauthbearer.sub.claim.name` (trimmed).
    OAuthClaim {
        /// The claim name.
        claim: String,
    },
}

impl Derivation {
    /// The derivation as steps, in order: one for most principals; for a
    /// certificate DN that Java reads differently from how it was typed,
    /// the reading ("Java reads the certificate subject ... as ...") and
    /// then the rule. `Display` joins them with `; `.
    pub fn steps(&self) -> Vec<String> {
        match self {
            Derivation::SslMapping { java_dn, reading: Some(reading), rule_index, rule, .. } => vec![
                reading.clone(),
                format!("ssl.principal.mapping.rules entry #{rule_index} {rule} maps '{java_dn}'"),
            ],
            other => vec![other.to_string()],
        }
    }
}

impl fmt::Display for Derivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Derivation::Anonymous(AnonymousReason::PlaintextListener) => {
                f.write_str("ANONYMOUS: a PLAINTEXT listener does not authenticate")
            }
            Derivation::Anonymous(AnonymousReason::ClientAuthNone) => f.write_str(
                "ANONYMOUS: ssl.client.auth=none, so the broker asks for no client certificate",
            ),
            Derivation::Anonymous(AnonymousReason::NoClientCertificate) => f.write_str(
                "ANONYMOUS: ssl.client.auth=requested and the client sent no certificate",
            ),
            Derivation::SslMapping { dn, reading: None, rule_index, rule, .. } => {
                write!(f, "certificate DN '{dn}' mapped by ssl.principal.mapping.rules entry #{rule_index} {rule}")
            }
            Derivation::SslMapping { reading: Some(reading), rule_index, rule, .. } => {
                write!(f, "{reading}; ssl.principal.mapping.rules entry #{rule_index} {rule} maps that DN")
            }
            Derivation::Kerberos {
                parsed,
                rule: Some((i, rule)),
            } => {
                write!(f, "Kerberos principal '{parsed}' mapped by sasl.kerberos.principal.to.local.rules entry #{i} {rule}")
            }
            Derivation::Kerberos { parsed, rule: None } => {
                write!(
                    f,
                    "Kerberos name '{parsed}' has no host and no realm and is used as it is"
                )
            }
            Derivation::SaslUserName(m) => write!(f, "the SASL/{m} user name, used as it is"),
            Derivation::OAuthClaim { claim } => write!(
                f,
                "the token's '{claim}' claim (sasl.oauthbearer.sub.claim.name)"
            ),
        }
    }
}

/// The principal of a connection, with how it was found and how it shows up
/// in quota metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrincipalOutcome {
    /// The principal (`User:<name>`).
    pub principal: KafkaPrincipal,
    /// How the name was found (rule, claim, or why ANONYMOUS).
    pub derivation: Derivation,
    /// `Sanitizer.sanitize(name)`: the `user` tag of quota metrics and MBeans.
    pub sanitized_name: String,
    /// The connection's `client.id`, verbatim (the `client-id` tag).
    pub client_id: String,
    /// The connection's source address, if given.
    pub source_ip: Option<String>,
    /// Things a quota author should know (full sentences).
    pub warnings: Vec<String>,
}

/// The parsed principal configuration, ready to map connections.
///
/// # Example
/// ```
/// use quota_engine::principal::{Connection, Identity, Listener, PrincipalConfig, SslClientAuth};
/// let builder = PrincipalConfig {
///     ssl_principal_mapping_rules: Some("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L,DEFAULT".into()),
///     ..PrincipalConfig::default()
/// }
/// .build()?;
/// let conn = Connection {
///     listener: Listener::Ssl { client_auth: SslClientAuth::Required },
///     identity: Identity::CertificateDn("CN=Batch Loader,OU=ServiceUsers,O=Org".into()),
///     client_id: "loader-1".into(),
///     source_ip: None,
/// };
/// let out = builder.build(&conn)?;
/// assert_eq!(out.principal.to_string(), "User:batch loader");
/// assert_eq!(out.sanitized_name, "batch%20loader");
/// # Ok::<(), quota_engine::principal::PrincipalError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PrincipalBuilder {
    ssl: SslPrincipalMapper,
    kerberos: KerberosShortNamer,
    sub_claim_name: String,
}

/// The warning on an unauthenticated connection. It matters only where a
/// quota on a named user exists ([`crate::cluster::Cluster::principal_warnings`]
/// leaves it out otherwise).
pub const ANONYMOUS_WARNING: &str = "This connection is User:ANONYMOUS, so a quota on a named user (users/<name>) \
     cannot apply to it: only quotas on users/ANONYMOUS, users/<default> and client-ids can, and every \
     unauthenticated connection is that one user ANONYMOUS for them.";

impl PrincipalBuilder {
    /// The parsed `ssl.principal.mapping.rules`.
    pub fn ssl_mapper(&self) -> &SslPrincipalMapper {
        &self.ssl
    }

    /// The parsed `sasl.kerberos.principal.to.local.rules`.
    pub fn kerberos_short_namer(&self) -> &KerberosShortNamer {
        &self.kerberos
    }

    /// `DefaultKafkaPrincipalBuilder.build` for one connection.
    ///
    /// # Errors
    /// - [`ErrorClass::Kafka`] when a DN or Kerberos name matches no rule
    ///   (`Failed to map name for '<dn>' based on SSL principal mapping rules.`,
    ///   `Failed to set name for '<name>' based on Kerberos authentication rules.`;
    ///   Kafka closes the connection), with the rule error as cause;
    /// - `IllegalArgumentException` for a malformed Kerberos name;
    /// - [`ErrorClass::SaslAuthentication`] / [`ErrorClass::OAuthValidate`] with
    ///   Kafka's text for an empty PLAIN user name or a missing/empty token claim;
    /// - [`ErrorClass::ConnectionRejected`] for `ssl.client.auth=required`
    ///   without a certificate;
    /// - [`ErrorClass::InvalidConnection`] when the identity does not fit the
    ///   listener (say a certificate DN on a SASL listener).
    pub fn build(&self, conn: &Connection) -> Result<PrincipalOutcome, PrincipalError> {
        let mut warnings = Vec::new();
        let (principal, derivation) = match conn.listener {
            Listener::Plaintext => {
                if conn.identity != Identity::None {
                    warnings.push(
                        "A PLAINTEXT listener does not authenticate: the identity given is ignored.".to_owned(),
                    );
                }
                (
                    KafkaPrincipal::anonymous(),
                    Derivation::Anonymous(AnonymousReason::PlaintextListener),
                )
            }
            Listener::Ssl { client_auth } => {
                self.ssl_principal(client_auth, &conn.identity, &mut warnings)?
            }
            Listener::SaslPlaintext { mechanism } | Listener::SaslSsl { mechanism } => {
                self.sasl_principal(conn.listener, mechanism, &conn.identity)?
            }
        };
        if matches!(derivation, Derivation::Anonymous(_)) {
            warnings.push(ANONYMOUS_WARNING.to_owned());
        } else if principal.name == "ANONYMOUS" {
            warnings.push(
                "This authenticated connection is named ANONYMOUS, the same name Kafka gives unauthenticated \
                 connections: they share user quotas."
                    .to_owned(),
            );
        }
        if principal.name.is_empty() {
            warnings.push(
                "The principal name is empty: Kafka accepts it, and user quotas for it can only be set \
                 through the default user."
                    .to_owned(),
            );
        }
        let sanitized_name = sanitize(&principal.name);
        if sanitized_name != principal.name {
            warnings.push(format!(
                "The principal name '{}' appears as '{sanitized_name}' in quota metric tags and MBean names.",
                principal.name
            ));
        }
        Ok(PrincipalOutcome {
            principal,
            derivation,
            sanitized_name,
            client_id: conn.client_id.clone(),
            source_ip: conn.source_ip.clone(),
            warnings,
        })
    }

    fn ssl_principal(
        &self,
        client_auth: SslClientAuth,
        identity: &Identity,
        warnings: &mut Vec<String>,
    ) -> Result<(KafkaPrincipal, Derivation), PrincipalError> {
        let dn = match identity {
            Identity::None => None,
            Identity::CertificateDn(dn) => Some(dn),
            other => {
                return Err(wrong_identity(
                    "SSL",
                    "a certificate DN (or nothing)",
                    other,
                ))
            }
        };
        match (client_auth, dn) {
            (SslClientAuth::None, dn) => {
                if dn.is_some() {
                    warnings.push(
                        "ssl.client.auth=none: the broker does not ask for the client certificate, so its DN is \
                         not used."
                            .to_owned(),
                    );
                }
                Ok((KafkaPrincipal::anonymous(), Derivation::Anonymous(AnonymousReason::ClientAuthNone)))
            }
            (SslClientAuth::Requested, None) => {
                Ok((KafkaPrincipal::anonymous(), Derivation::Anonymous(AnonymousReason::NoClientCertificate)))
            }
            (SslClientAuth::Required, None) => Err(PrincipalError::new(
                ErrorClass::ConnectionRejected,
                "The client sent no certificate and ssl.client.auth=required, so the broker fails the TLS \
                 handshake: the connection gets no principal.",
            )),
            (_, Some(typed)) => {
                // DefaultKafkaPrincipalBuilder maps
                // ((X500Principal) peerPrincipal).getName(): the typed text
                // read as Java reads it, in RFC 2253 form.
                let subject = read_certificate_subject(typed)?;
                warnings.extend(subject.notes.iter().cloned());
                let dn = &subject.canonical;
                // Kafka wraps only the IOException (NoMatchingRule); JDK runtime
                // exceptions from a bad replacement propagate as they are.
                let m = self.ssl.map(dn).map_err(|e| {
                    if e.class() == ErrorClass::SslNoMatchingRule {
                        PrincipalError::new(
                            ErrorClass::Kafka,
                            format!("Failed to map name for '{dn}' based on SSL principal mapping rules."),
                        )
                        .caused_by(e)
                    } else {
                        e
                    }
                })?;
                let derivation = Derivation::SslMapping {
                    dn: typed.clone(),
                    java_dn: subject.canonical.clone(),
                    reading: subject.reading_step(),
                    rule_index: m.rule_index,
                    rule: m.rule,
                };
                Ok((KafkaPrincipal::user(&m.name), derivation))
            }
        }
    }

    fn sasl_principal(
        &self,
        listener: Listener,
        mechanism: SaslMechanism,
        identity: &Identity,
    ) -> Result<(KafkaPrincipal, Derivation), PrincipalError> {
        let protocol = listener.protocol();
        match (mechanism, identity) {
            (
                SaslMechanism::Plain | SaslMechanism::ScramSha256 | SaslMechanism::ScramSha512,
                Identity::UserName(u),
            ) => {
                if u.is_empty() {
                    return Err(if mechanism == SaslMechanism::Plain {
                        PrincipalError::new(
                            ErrorClass::SaslAuthentication,
                            "Authentication failed: username not specified",
                        )
                    } else {
                        PrincipalError::new(
                            ErrorClass::SaslAuthentication,
                            format!("SASL/{mechanism} needs a user name; an empty one cannot authenticate."),
                        )
                    });
                }
                Ok((KafkaPrincipal::user(u), Derivation::SaslUserName(mechanism)))
            }
            (SaslMechanism::Gssapi, Identity::KerberosPrincipal(p)) => {
                let parsed = KerberosName::parse(p)?;
                let m = self.kerberos.map(&parsed).map_err(|e| {
                    if matches!(
                        e.class(),
                        ErrorClass::KerberosNoMatchingRule | ErrorClass::KerberosBadFormatString
                    ) {
                        PrincipalError::new(
                            ErrorClass::Kafka,
                            format!("Failed to set name for '{parsed}' based on Kerberos authentication rules."),
                        )
                        .caused_by(e)
                    } else {
                        e
                    }
                })?;
                Ok((
                    KafkaPrincipal::user(&m.short_name),
                    Derivation::Kerberos {
                        parsed,
                        rule: m.rule,
                    },
                ))
            }
            (SaslMechanism::OAuthBearer, Identity::OAuthToken { claims }) => {
                let claim = &self.sub_claim_name;
                let v = |m: String| PrincipalError::new(ErrorClass::OAuthValidate, m);
                let Some(value) = claims.get(claim) else {
                    return Err(v(format!("{claim} value must be non-null")));
                };
                if value.is_empty() {
                    return Err(v(format!("{claim} value must be non-empty")));
                }
                let trimmed = value.trim_matches(|c: char| c <= ' ');
                if trimmed.is_empty() {
                    return Err(v(format!("{claim} value must not contain only whitespace")));
                }
                Ok((
                    KafkaPrincipal::user(trimmed),
                    Derivation::OAuthClaim {
                        claim: claim.clone(),
                    },
                ))
            }
            (m, other) => {
                let wanted = match m {
                    SaslMechanism::Gssapi => "a Kerberos principal",
                    SaslMechanism::OAuthBearer => "an OAuth token",
                    _ => "a user name",
                };
                Err(wrong_identity(
                    &format!("{protocol} with SASL/{m}"),
                    wanted,
                    other,
                ))
            }
        }
    }
}

fn wrong_identity(listener: &str, wanted: &str, got: &Identity) -> PrincipalError {
    let got = match got {
        Identity::None => "nothing",
        Identity::CertificateDn(_) => "a certificate DN",
        Identity::UserName(_) => "a user name",
        Identity::KerberosPrincipal(_) => "a Kerberos principal",
        Identity::OAuthToken { .. } => "an OAuth token",
    };
    PrincipalError::new(
        ErrorClass::InvalidConnection,
        format!(
            "A client on a {listener} listener presents {wanted}, but this connection gives {got}."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(listener: Listener, identity: Identity) -> Connection {
        Connection {
            listener,
            identity,
            client_id: "app".to_owned(),
            source_ip: Some("10.0.0.1".to_owned()),
        }
    }
    fn default_builder() -> PrincipalBuilder {
        PrincipalConfig {
            kerberos_default_realm: "EXAMPLE.COM".to_owned(),
            ..PrincipalConfig::default()
        }
        .build()
        .unwrap()
    }

    #[test]
    fn plaintext_is_always_anonymous() {
        let out = default_builder()
            .build(&conn(
                Listener::Plaintext,
                Identity::UserName("alice".into()),
            ))
            .unwrap();
        assert_eq!(out.principal, KafkaPrincipal::anonymous());
        assert_eq!(
            out.derivation,
            Derivation::Anonymous(AnonymousReason::PlaintextListener)
        );
        assert!(out.warnings.iter().any(|w| w.contains("cannot apply")));
        assert_eq!(out.sanitized_name, "ANONYMOUS");
        assert_eq!(out.client_id, "app");
    }

    #[test]
    fn ssl_client_auth_modes() {
        let b = default_builder();
        let dn = Identity::CertificateDn("CN=alice,O=x".into());
        let none = b
            .build(&conn(
                Listener::Ssl {
                    client_auth: SslClientAuth::None,
                },
                dn.clone(),
            ))
            .unwrap();
        assert_eq!(
            none.derivation,
            Derivation::Anonymous(AnonymousReason::ClientAuthNone)
        );
        let req = b
            .build(&conn(
                Listener::Ssl {
                    client_auth: SslClientAuth::Requested,
                },
                Identity::None,
            ))
            .unwrap();
        assert_eq!(
            req.derivation,
            Derivation::Anonymous(AnonymousReason::NoClientCertificate)
        );
        let with = b
            .build(&conn(
                Listener::Ssl {
                    client_auth: SslClientAuth::Requested,
                },
                dn.clone(),
            ))
            .unwrap();
        assert_eq!(with.principal.to_string(), "User:CN=alice,O=x");
        assert_eq!(with.sanitized_name, "CN%3Dalice%2CO%3Dx");
        let e = b
            .build(&conn(
                Listener::Ssl {
                    client_auth: SslClientAuth::Required,
                },
                Identity::None,
            ))
            .unwrap_err();
        assert_eq!(e.class(), ErrorClass::ConnectionRejected);
    }

    #[test]
    fn ssl_mapping_failure_is_wrapped_like_kafka() {
        let b = PrincipalConfig {
            ssl_principal_mapping_rules: Some("RULE:^CN=(.*),OU=x$/$1/".into()),
            ..Default::default()
        }
        .build()
        .unwrap();
        let e = b
            .build(&conn(
                Listener::Ssl {
                    client_auth: SslClientAuth::Required,
                },
                Identity::CertificateDn("CN=a".into()),
            ))
            .unwrap_err();
        assert_eq!(
            e.message(),
            "Failed to map name for 'CN=a' based on SSL principal mapping rules."
        );
        assert_eq!(
            e.cause().map(PrincipalError::class),
            Some(ErrorClass::SslNoMatchingRule)
        );
    }

    fn ssl(dn: &str, rules: Option<&str>) -> Result<PrincipalOutcome, PrincipalError> {
        PrincipalConfig { ssl_principal_mapping_rules: rules.map(str::to_owned), ..Default::default() }
            .build()
            .unwrap()
            .build(&conn(Listener::Ssl { client_auth: SslClientAuth::Required }, Identity::CertificateDn(dn.into())))
    }

    /// Kafka maps `X500Principal.getName()`: the rules see `CN=app,OU=eng`
    /// for a DN typed with spaces, and the derivation says so.
    #[test]
    fn rules_run_on_the_dn_as_java_reads_it() {
        let out = ssl("CN = app, OU = eng", Some("RULE:^CN=(.*?),OU=eng$/$1/,DEFAULT")).unwrap();
        assert_eq!(out.principal.name, "app");
        let steps = out.derivation.steps();
        assert_eq!(steps.len(), 2, "{steps:?}");
        assert_eq!(
            steps[0],
            "Java reads the certificate subject 'CN = app, OU = eng' as 'CN=app,OU=eng' (X500Principal.getName(), RFC 2253)"
        );
        assert_eq!(steps[1], "ssl.principal.mapping.rules entry #0 RULE:^CN=(.*?),OU=eng$/$1/ maps 'CN=app,OU=eng'");
        assert_eq!(out.derivation.to_string(), steps.join("; ").replace("maps 'CN=app,OU=eng'", "maps that DN"));
        assert!(out.warnings.iter().any(|w| w.contains("subject=")), "{:?}", out.warnings);
    }

    /// openssl prints the RDNs in the certificate's order; Java (and so
    /// Kafka) in reverse: `subject=CN = app, OU = eng` is `OU=eng,CN=app`.
    #[test]
    fn an_openssl_subject_line_is_the_reversed_dn() {
        let out = ssl("subject=CN = app, OU = eng", None).unwrap();
        assert_eq!(out.principal.name, "OU=eng,CN=app");
        assert!(out.derivation.steps()[0].contains("reversed"), "{:?}", out.derivation.steps());
    }

    /// An emailAddress is no RFC 2253 keyword: Java prints its OID and DER hex.
    #[test]
    fn an_email_address_reaches_the_rules_as_oid_and_hex() {
        let out = ssl("CN=app,emailAddress=app@example.com", None).unwrap();
        assert_eq!(out.principal.name, "CN=app,1.2.840.113549.1.9.1=#160f617070406578616d706c652e636f6d");
    }

    /// A DN typed as Java prints it needs no reading step.
    #[test]
    fn an_rfc_2253_dn_is_mapped_as_typed() {
        let out = ssl("CN=app,OU=eng", None).unwrap();
        assert_eq!(out.derivation.steps(), vec!["certificate DN 'CN=app,OU=eng' mapped by ssl.principal.mapping.rules entry #0 DEFAULT".to_owned()]);
        assert!(!out.warnings.iter().any(|w| w.contains("subject=")));
    }

    /// A DN Java refuses gives no principal, with Java's words for why.
    #[test]
    fn a_dn_java_refuses_is_refused_with_javas_reason() {
        let e = ssl("CN=app,FOO=bar", None).unwrap_err();
        assert_eq!(e.class(), ErrorClass::InvalidDn);
        let iae = e.cause().unwrap();
        assert_eq!(iae.class(), ErrorClass::IllegalArgument);
        assert_eq!(iae.message(), "improperly specified input name: CN=app,FOO=bar");
        assert_eq!(iae.cause().unwrap().message(), "Invalid keyword \"FOO\"");
        assert!(e.to_string().contains("Invalid keyword \"FOO\" (java.io.IOException)"), "{e}");
    }

    #[test]
    fn sasl_user_name_mechanisms() {
        let b = default_builder();
        for m in [
            SaslMechanism::Plain,
            SaslMechanism::ScramSha256,
            SaslMechanism::ScramSha512,
        ] {
            let out = b
                .build(&conn(
                    Listener::SaslSsl { mechanism: m },
                    Identity::UserName("bob smith".into()),
                ))
                .unwrap();
            assert_eq!(out.principal.name, "bob smith");
            assert_eq!(out.sanitized_name, "bob%20smith");
            assert_eq!(out.derivation, Derivation::SaslUserName(m));
        }
        let e = b.build(&conn(
            Listener::SaslPlaintext {
                mechanism: SaslMechanism::Plain,
            },
            Identity::UserName(String::new()),
        ));
        assert_eq!(
            e.unwrap_err().message(),
            "Authentication failed: username not specified"
        );
        let e = b.build(&conn(
            Listener::SaslPlaintext {
                mechanism: SaslMechanism::Plain,
            },
            Identity::CertificateDn("CN=x".into()),
        ));
        assert_eq!(e.unwrap_err().class(), ErrorClass::InvalidConnection);
    }

    #[test]
    fn gssapi_uses_kerberos_rules() {
        let b = default_builder();
        let g = Listener::SaslPlaintext {
            mechanism: SaslMechanism::Gssapi,
        };
        let out = b
            .build(&conn(
                g,
                Identity::KerberosPrincipal("kafka/broker1@EXAMPLE.COM".into()),
            ))
            .unwrap();
        assert_eq!(out.principal.name, "kafka");
        assert!(matches!(
            out.derivation,
            Derivation::Kerberos {
                rule: Some((0, _)),
                ..
            }
        ));
        let e = b
            .build(&conn(
                g,
                Identity::KerberosPrincipal("joe@OTHER.COM".into()),
            ))
            .unwrap_err();
        assert_eq!(
            e.message(),
            "Failed to set name for 'joe@OTHER.COM' based on Kerberos authentication rules."
        );
        let e = b
            .build(&conn(g, Identity::KerberosPrincipal("a/b/c@X".into())))
            .unwrap_err();
        assert_eq!(e.class(), ErrorClass::IllegalArgument);
    }

    #[test]
    fn oauthbearer_reads_the_configured_claim() {
        let b = PrincipalConfig {
            oauthbearer_sub_claim_name: "client_id".into(),
            ..Default::default()
        }
        .build()
        .unwrap();
        let o = Listener::SaslSsl {
            mechanism: SaslMechanism::OAuthBearer,
        };
        let claims: BTreeMap<String, String> = [
            ("sub".to_owned(), "x".to_owned()),
            ("client_id".to_owned(), " svc-a ".to_owned()),
        ]
        .into();
        let out = b.build(&conn(o, Identity::OAuthToken { claims })).unwrap();
        assert_eq!(out.principal.name, "svc-a");
        let e = b
            .build(&conn(
                o,
                Identity::OAuthToken {
                    claims: BTreeMap::new(),
                },
            ))
            .unwrap_err();
        assert_eq!(e.message(), "client_id value must be non-null");
    }
}
