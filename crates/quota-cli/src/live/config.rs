//! `--command-config FILE`: the Java client properties file that
//! `kafka-configs.sh --command-config` takes, read for what a read-only
//! connection needs.
//!
//! Read: `security.protocol` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL),
//! `sasl.mechanism` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with the
//! user name and password of `sasl.jaas.config`, and for TLS
//! `ssl.truststore.*` and `ssl.keystore.*` in PEM (a file, or the
//! certificates and key inline), and
//! `ssl.endpoint.identification.algorithm` (`https`, Kafka's default, checks
//! the broker's host name; empty does not). What it cannot use is refused
//! by name: GSSAPI and OAUTHBEARER, JKS and PKCS12 stores, an encrypted
//! private key (`ssl.key.password`).
//!
//! Kafka: `CommonClientConfigs`, `SaslConfigs`, `SslConfigs`
//! (clients/src/main/java/org/apache/kafka/common/config/), and
//! `DefaultSslEngineFactory.PemStore` for the PEM forms.

use std::collections::BTreeMap;
use std::path::Path;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// A listener's security protocol, as `security.protocol` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SecurityProtocol {
    /// No TLS, no SASL.
    Plaintext,
    /// TLS.
    Ssl,
    /// SASL without TLS.
    SaslPlaintext,
    /// SASL over TLS.
    SaslSsl,
}

impl SecurityProtocol {
    /// From Kafka's name (case-insensitive, as `SecurityProtocol.forName`).
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_uppercase().as_str() {
            "PLAINTEXT" => Some(Self::Plaintext),
            "SSL" => Some(Self::Ssl),
            "SASL_PLAINTEXT" => Some(Self::SaslPlaintext),
            "SASL_SSL" => Some(Self::SaslSsl),
            _ => None,
        }
    }

    /// Kafka's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Plaintext => "PLAINTEXT",
            Self::Ssl => "SSL",
            Self::SaslPlaintext => "SASL_PLAINTEXT",
            Self::SaslSsl => "SASL_SSL",
        }
    }

    /// True for SSL and SASL_SSL.
    pub(crate) fn tls(self) -> bool {
        matches!(self, Self::Ssl | Self::SaslSsl)
    }

    /// True for SASL_PLAINTEXT and SASL_SSL.
    pub(crate) fn sasl(self) -> bool {
        matches!(self, Self::SaslPlaintext | Self::SaslSsl)
    }
}

/// The SASL mechanisms this client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mechanism {
    /// `PLAIN` (RFC 4616).
    Plain,
    /// `SCRAM-SHA-256` (RFC 5802, 7677).
    ScramSha256,
    /// `SCRAM-SHA-512`.
    ScramSha512,
}

impl Mechanism {
    /// Kafka's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Plain => "PLAIN",
            Self::ScramSha256 => "SCRAM-SHA-256",
            Self::ScramSha512 => "SCRAM-SHA-512",
        }
    }
}

/// SASL credentials. The password never reaches any output: `Debug`
/// prints it as `***`.
#[derive(Clone)]
pub(crate) struct SaslCredentials {
    /// The mechanism.
    pub(crate) mechanism: Mechanism,
    /// The user name (`username="..."`).
    pub(crate) username: String,
    /// The password (`password="..."`).
    pub(crate) password: String,
}

impl std::fmt::Debug for SaslCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaslCredentials")
            .field("mechanism", &self.mechanism)
            .field("username", &self.username)
            .field("password", &"***")
            .finish()
    }
}

/// What TLS needs: the trusted CAs, an optional client certificate chain
/// and key, and whether the broker's host name is checked.
#[derive(Debug)]
pub(crate) struct TlsSettings {
    /// Trusted CA certificates (`ssl.truststore.*`); empty = the file gave
    /// none, refused when connecting.
    pub(crate) roots: Vec<CertificateDer<'static>>,
    /// The client certificate chain and its key (`ssl.keystore.*`).
    pub(crate) client: Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>,
    /// `ssl.endpoint.identification.algorithm` is `https` (the default).
    pub(crate) verify_hostname: bool,
    /// Where the trust store came from, for messages.
    pub(crate) truststore_source: String,
}

/// A client's security settings.
#[derive(Debug)]
pub(crate) struct ClientSecurity {
    /// `security.protocol`.
    pub(crate) protocol: SecurityProtocol,
    /// The SASL credentials (SASL protocols only).
    pub(crate) sasl: Option<SaslCredentials>,
    /// The TLS settings (SSL protocols only).
    pub(crate) tls: Option<TlsSettings>,
}

impl ClientSecurity {
    /// PLAINTEXT: what a run without `--command-config` uses.
    pub(crate) fn plaintext() -> Self {
        ClientSecurity {
            protocol: SecurityProtocol::Plaintext,
            sasl: None,
            tls: None,
        }
    }
}

/// Reads `path` as a Java properties file.
///
/// # Errors
/// A sentence naming the file and the reason.
pub(crate) fn read_properties(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("kafka-quota: cannot read --command-config {}: {e}.", path.display()))?;
    let map = java_properties::read(std::io::BufReader::new(file)).map_err(|e| {
        format!("kafka-quota: --command-config {} is not a Java properties file: {e}.", path.display())
    })?;
    Ok(map.into_iter().collect())
}

/// The value of `key="..."` (or `key=...`) in a JAAS configuration line.
fn jaas_option(jaas: &str, key: &str) -> Option<String> {
    let mut rest = jaas;
    while let Some(i) = rest.find(key) {
        let before_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        let after = rest[i + key.len()..].trim_start();
        if before_ok {
            if let Some(v) = after.strip_prefix('=') {
                let v = v.trim_start();
                if let Some(q) = v.strip_prefix('"') {
                    let end = q.find('"')?;
                    return Some(q[..end].to_owned());
                }
                let end = v.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(v.len());
                return Some(v[..end].to_owned());
            }
        }
        rest = &rest[i + key.len()..];
    }
    None
}

/// The login module class of a JAAS line (its first word).
fn jaas_module(jaas: &str) -> &str {
    jaas.split_whitespace().next().unwrap_or("")
}

fn pem_certs(text: &str, what: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs: Result<Vec<_>, _> = CertificateDer::pem_slice_iter(text.as_bytes()).collect();
    let certs = certs.map_err(|e| format!("kafka-quota: {what} is not PEM: {e}."))?;
    if certs.is_empty() {
        return Err(format!("kafka-quota: {what} holds no CERTIFICATE block."));
    }
    Ok(certs)
}

fn pem_key(text: &str, what: &str) -> Result<PrivateKeyDer<'static>, String> {
    if text.contains("ENCRYPTED PRIVATE KEY") {
        return Err(format!(
            "kafka-quota: {what} holds an encrypted private key; kafka-quota reads unencrypted PEM keys only (decrypt it with `openssl pkey`)."
        ));
    }
    PrivateKeyDer::from_pem_slice(text.as_bytes())
        .map_err(|e| format!("kafka-quota: {what} holds no private key kafka-quota can read: {e}."))
}

fn read_file(path: &str, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("kafka-quota: cannot read {what} {path}: {e}."))
}

/// The security settings of a properties map (`name` names the file in
/// messages).
///
/// # Errors
/// A sentence naming the property and the reason: an unknown protocol, an
/// unsupported mechanism or store type, a missing or unreadable file.
pub(crate) fn security(props: &BTreeMap<String, String>, name: &str) -> Result<ClientSecurity, String> {
    let get = |k: &str| props.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
    let protocol = match get("security.protocol") {
        None => SecurityProtocol::Plaintext,
        Some(p) => SecurityProtocol::from_name(p).ok_or_else(|| {
            format!("kafka-quota: {name}: security.protocol={p} is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL.")
        })?,
    };
    let sasl = if protocol.sasl() {
        let mech_name = get("sasl.mechanism").unwrap_or("GSSAPI");
        let mechanism = match mech_name.to_ascii_uppercase().as_str() {
            "PLAIN" => Mechanism::Plain,
            "SCRAM-SHA-256" => Mechanism::ScramSha256,
            "SCRAM-SHA-512" => Mechanism::ScramSha512,
            "GSSAPI" | "OAUTHBEARER" => {
                return Err(format!(
                    "kafka-quota: {name}: sasl.mechanism={mech_name}{} is not supported: kafka-quota authenticates with PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 only.",
                    if get("sasl.mechanism").is_none() { " (Kafka's default)" } else { "" }
                ))
            }
            _ => return Err(format!("kafka-quota: {name}: sasl.mechanism={mech_name} is not a SASL mechanism Kafka has.")),
        };
        let jaas = get("sasl.jaas.config").ok_or_else(|| {
            format!("kafka-quota: {name}: security.protocol={} needs sasl.jaas.config with username and password.", protocol.name())
        })?;
        let module = jaas_module(jaas);
        let expected = match mechanism {
            Mechanism::Plain => "PlainLoginModule",
            _ => "ScramLoginModule",
        };
        if !module.ends_with(expected) {
            // The first word is printed only when it is a class name (a
            // line without one could start with `password=...`).
            let shown = if module.contains('.') && !module.contains('=') && !module.contains('"') {
                format!("names {module}")
            } else {
                "names no login module class".to_owned()
            };
            return Err(format!(
                "kafka-quota: {name}: sasl.jaas.config {shown}, but sasl.mechanism={} needs org.apache.kafka.common.security.{}.{expected}.",
                mechanism.name(),
                if mechanism == Mechanism::Plain { "plain" } else { "scram" }
            ));
        }
        let username = jaas_option(jaas, "username")
            .ok_or_else(|| format!("kafka-quota: {name}: sasl.jaas.config has no username."))?;
        let password = jaas_option(jaas, "password")
            .ok_or_else(|| format!("kafka-quota: {name}: sasl.jaas.config has no password."))?;
        Some(SaslCredentials {
            mechanism,
            username,
            password,
        })
    } else {
        None
    };
    let tls = if protocol.tls() {
        let mut t = tls_settings(&get, name)?;
        // An explicitly empty value turns the host name check off (Kafka:
        // `ssl.endpoint.identification.algorithm=` disables it).
        if props.get("ssl.endpoint.identification.algorithm").is_some_and(|v| v.trim().is_empty()) {
            t.verify_hostname = false;
        }
        Some(t)
    } else {
        None
    };
    Ok(ClientSecurity { protocol, sasl, tls })
}

fn tls_settings<'a>(get: &impl Fn(&str) -> Option<&'a str>, name: &str) -> Result<TlsSettings, String> {
    let refuse_type = |prop: &str, t: &str| {
        format!(
            "kafka-quota: {name}: {prop}={t} is not supported: kafka-quota reads PEM stores only (ssl.truststore.type=PEM, ssl.keystore.type=PEM); convert with `openssl pkcs12` or `keytool -exportcert -rfc`."
        )
    };
    // Trust store: inline certificates, or a PEM file.
    let ts_type = get("ssl.truststore.type").unwrap_or("JKS");
    let (roots, truststore_source) = if let Some(inline) = get("ssl.truststore.certificates") {
        (pem_certs(inline, &format!("{name}: ssl.truststore.certificates"))?, "ssl.truststore.certificates".to_owned())
    } else if let Some(loc) = get("ssl.truststore.location") {
        if !ts_type.eq_ignore_ascii_case("PEM") {
            return Err(refuse_type("ssl.truststore.type", ts_type));
        }
        let text = read_file(loc, "ssl.truststore.location")?;
        (pem_certs(&text, &format!("{name}: ssl.truststore.location {loc}"))?, loc.to_owned())
    } else {
        return Err(format!(
            "kafka-quota: {name}: a TLS connection needs ssl.truststore.location (PEM) or ssl.truststore.certificates: kafka-quota does not fall back to the JVM's cacerts."
        ));
    };
    // Key store: inline chain and key, or one PEM file holding both.
    let ks_type = get("ssl.keystore.type").unwrap_or("JKS");
    let client = if let Some(chain) = get("ssl.keystore.certificate.chain") {
        let key = get("ssl.keystore.key")
            .ok_or_else(|| format!("kafka-quota: {name}: ssl.keystore.certificate.chain needs ssl.keystore.key."))?;
        if get("ssl.key.password").is_some() {
            return Err(format!(
                "kafka-quota: {name}: ssl.key.password is set: kafka-quota reads unencrypted PEM keys only."
            ));
        }
        Some((
            pem_certs(chain, &format!("{name}: ssl.keystore.certificate.chain"))?,
            pem_key(key, &format!("{name}: ssl.keystore.key"))?,
        ))
    } else if let Some(loc) = get("ssl.keystore.location") {
        if !ks_type.eq_ignore_ascii_case("PEM") {
            return Err(refuse_type("ssl.keystore.type", ks_type));
        }
        if get("ssl.key.password").is_some() {
            return Err(format!(
                "kafka-quota: {name}: ssl.key.password is set: kafka-quota reads unencrypted PEM keys only."
            ));
        }
        let text = read_file(loc, "ssl.keystore.location")?;
        let what = format!("{name}: ssl.keystore.location {loc}");
        Some((pem_certs(&text, &what)?, pem_key(&text, &what)?))
    } else {
        None
    };
    let verify_hostname = match get("ssl.endpoint.identification.algorithm") {
        None => true,
        Some(a) if a.eq_ignore_ascii_case("https") => true,
        Some(other) => {
            return Err(format!(
                "kafka-quota: {name}: ssl.endpoint.identification.algorithm={other} is not https or empty."
            ))
        }
    };
    Ok(TlsSettings {
        roots,
        client,
        verify_hostname,
        truststore_source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(lines: &[(&str, &str)]) -> BTreeMap<String, String> {
        lines.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn scram_credentials_come_from_the_jaas_line_and_never_print() {
        let p = props(&[
            ("security.protocol", "SASL_PLAINTEXT"),
            ("sasl.mechanism", "SCRAM-SHA-512"),
            (
                "sasl.jaas.config",
                r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="tenant-a" password="s3cr;et";"#,
            ),
        ]);
        let s = security(&p, "f").unwrap();
        let c = s.sasl.unwrap();
        assert_eq!((c.mechanism, c.username.as_str(), c.password.as_str()), (Mechanism::ScramSha512, "tenant-a", "s3cr;et"));
        assert!(!format!("{c:?}").contains("s3cr"));
    }

    #[test]
    fn what_cannot_be_used_is_refused_by_name() {
        let gssapi = props(&[("security.protocol", "SASL_SSL"), ("sasl.mechanism", "GSSAPI")]);
        assert!(security(&gssapi, "f").unwrap_err().contains("sasl.mechanism=GSSAPI is not supported"));
        let jks = props(&[("security.protocol", "SSL"), ("ssl.truststore.location", "/x.jks")]);
        assert!(security(&jks, "f").unwrap_err().contains("ssl.truststore.type=JKS is not supported"));
        let wrong_module = props(&[
            ("security.protocol", "SASL_PLAINTEXT"),
            ("sasl.mechanism", "PLAIN"),
            ("sasl.jaas.config", r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="a" password="b";"#),
        ]);
        assert!(security(&wrong_module, "f").unwrap_err().contains("needs org.apache.kafka.common.security.plain.PlainLoginModule"));
        assert!(security(&props(&[("security.protocol", "TLS")]), "f").unwrap_err().contains("security.protocol=TLS"));
    }

    #[test]
    fn jaas_options_quoted_or_not() {
        let j = r#"x.PlainLoginModule required username=bob password="p w";"#;
        assert_eq!(jaas_option(j, "username").as_deref(), Some("bob"));
        assert_eq!(jaas_option(j, "password").as_deref(), Some("p w"));
        assert_eq!(jaas_option("x required user_bob=\"x\";", "username"), None);
    }
}
