//! One blocking connection to one broker: TCP with a timeout, TLS through
//! rustls, `ApiVersions`, SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 through
//! the `sasl` crate) and request/response framing through the
//! `kafka-protocol` crate's generated messages.
//!
//! Kafka: the wire format of <https://kafka.apache.org/protocol.html>
//! (size-delimited frames, request header v1/v2, response header v0/v1);
//! `SaslClientAuthenticator` for the order of `ApiVersions`,
//! `SaslHandshake` and `SaslAuthenticate`
//! (clients/src/main/java/org/apache/kafka/common/security/authenticator/SaslClientAuthenticator.java).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::error::ResponseError;
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, RequestHeader, ResponseHeader, SaslAuthenticateRequest, SaslHandshakeRequest,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};

use super::config::{ClientSecurity, Mechanism, TlsSettings};
use super::scram512::Sha512;

/// The `client.id` every request carries.
pub(crate) const CLIENT_ID: &str = "kafka-quota";

/// What went wrong, by kind: each kind has its own exit code
/// (`super::exit_code`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FaultKind {
    /// No broker answered (refused, unreachable, or silent past the timeout).
    Unreachable,
    /// SASL authentication failed (Kafka's own message).
    Auth,
    /// The TLS handshake failed.
    Tls,
    /// Something asked for does not exist (a topic).
    NotFound,
    /// The broker does not support a request version kafka-quota needs.
    TooOld,
    /// The broker answered something kafka-quota cannot read.
    Protocol,
}

/// A fault: its kind and one sentence for stderr (never a secret).
#[derive(Debug, Clone)]
pub(crate) struct Fault {
    /// The kind.
    pub(crate) kind: FaultKind,
    /// The sentence.
    pub(crate) message: String,
}

impl Fault {
    pub(crate) fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }
}

/// Kafka's name of an error code (`CLUSTER_AUTHORIZATION_FAILED`), as
/// `org.apache.kafka.common.protocol.Errors` spells it.
pub(crate) fn error_name(code: i16) -> String {
    match ResponseError::try_from_code(code) {
        None => "NONE".to_owned(),
        Some(ResponseError::Unknown(c)) => format!("UNKNOWN_ERROR_CODE_{c}"),
        Some(e) => {
            let camel = e.to_string();
            let mut out = String::new();
            for (i, ch) in camel.chars().enumerate() {
                if ch.is_ascii_uppercase() && i > 0 {
                    out.push('_');
                }
                out.push(ch.to_ascii_uppercase());
            }
            out
        }
    }
}

/// A SCRAM user name as RFC 5802 `saslname` writes it (`=` as `=3D`, `,`
/// as `=2C`), as Kafka's `ScramFormatter.saslName` reads it back.
fn sasl_name(user: &str) -> String {
    user.replace('=', "=3D").replace(',', "=2C")
}

trait Stream: Read + Write {}
impl<T: Read + Write> Stream for T {}

/// An open, authenticated connection to one broker.
pub(crate) struct Conn {
    stream: Box<dyn Stream>,
    /// The address connected to (`host:port`).
    pub(crate) addr: String,
    correlation: i32,
    /// `api_key -> (min, max)` as the broker's `ApiVersions` gave them.
    versions: BTreeMap<i16, (i16, i16)>,
    /// The principal's user name, when SASL gave one (for the last line).
    pub(crate) authenticated_as: Option<String>,
    /// How long a read or write may wait.
    timeout: Duration,
    /// For TLS connections: where the trust store came from, and whether a
    /// client certificate was offered (to say why the broker refused).
    tls: Option<(String, bool)>,
}

/// A server certificate verifier that checks the chain against the trust
/// store but not the host name (`ssl.endpoint.identification.algorithm=`).
#[derive(Debug)]
struct NoHostnameVerifier(Arc<rustls::client::WebPkiServerVerifier>);

impl rustls::client::danger::ServerCertVerifier for NoHostnameVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &rustls::pki_types::CertificateDer<'_>,
        intermediates: &[rustls::pki_types::CertificateDer<'_>],
        server_name: &rustls::pki_types::ServerName<'_>,
        ocsp_response: &[u8],
        now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        match self.0.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::NotValidForName | rustls::CertificateError::NotValidForNameContext { .. },
            )) => Ok(rustls::client::danger::ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

fn tls_config(tls: &TlsSettings) -> Result<rustls::ClientConfig, Fault> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for c in &tls.roots {
        roots.add(c.clone()).map_err(|e| {
            Fault::new(FaultKind::Tls, format!("kafka-quota: a trusted certificate of {} cannot be used: {e}.", tls.truststore_source))
        })?;
    }
    let roots = Arc::new(roots);
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| Fault::new(FaultKind::Tls, format!("kafka-quota: TLS set-up failed: {e}.")))?;
    let builder = if tls.verify_hostname {
        builder.with_root_certificates(roots)
    } else {
        let inner = rustls::client::WebPkiServerVerifier::builder_with_provider(roots, provider)
            .build()
            .map_err(|e| Fault::new(FaultKind::Tls, format!("kafka-quota: TLS set-up failed: {e}.")))?;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoHostnameVerifier(inner)))
    };
    match &tls.client {
        Some((chain, key)) => builder.with_client_auth_cert(chain.clone(), key.clone_key()).map_err(|e| {
            let hint = if e.to_string().contains("failed to parse private key") {
                " (an EC key written by Java's keytool leaves out its public key, which kafka-quota's TLS library needs: re-encode it with `openssl ec -in KEY | openssl pkcs8 -topk8 -nocrypt`)"
            } else {
                ""
            };
            Fault::new(FaultKind::Tls, format!("kafka-quota: the private key of ssl.keystore.* cannot be used with its certificate: {e}{hint}."))
        }),
        None => Ok(builder.with_no_client_auth()),
    }
}

/// Says why a TLS handshake failed, naming the certificate.
fn tls_fault(addr: &str, e: &std::io::Error, tls: &TlsSettings, timeout: Duration) -> Fault {
    match e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
        Some(t) => tls_error_fault(addr, t, &tls.truststore_source, tls.client.is_some()),
        None if e.kind() == std::io::ErrorKind::UnexpectedEof => Fault::new(
            FaultKind::Tls,
            format!("kafka-quota: TLS with {addr} failed: the connection closed during the handshake (not a TLS listener?)."),
        ),
        None => io_fault(addr, e, timeout),
    }
}

/// The sentence for a rustls error on the connection to `addr`.
fn tls_error_fault(addr: &str, e: &rustls::Error, truststore_source: &str, has_client_cert: bool) -> Fault {
    let why = match e {
        rustls::Error::InvalidCertificate(c) => format!(
            "the broker's certificate is not accepted ({c:?}): it is not signed by a CA of {truststore_source}{}",
            if matches!(c, rustls::CertificateError::NotValidForName | rustls::CertificateError::NotValidForNameContext { .. }) {
                ", or not issued for this host name (ssl.endpoint.identification.algorithm=https checks it)"
            } else {
                ""
            }
        ),
        rustls::Error::AlertReceived(a) => {
            use rustls::AlertDescription as A;
            let about_cert = matches!(
                a,
                A::CertificateRequired | A::BadCertificate | A::UnknownCA | A::CertificateUnknown | A::CertificateExpired | A::AccessDenied
            );
            format!(
                "the broker refused the connection with TLS alert {a:?}{}",
                match (about_cert, has_client_cert) {
                    (true, true) => ": it does not accept the client certificate of ssl.keystore.* (not signed by a CA it trusts, or expired)",
                    (true, false) => ": it requires a client certificate (ssl.client.auth=required) and --command-config gives no ssl.keystore.*",
                    (false, _) => " (no TLS version or cipher suite both sides accept?)",
                }
            )
        }
        rustls::Error::InvalidMessage(_) => "the broker did not answer with TLS: it is not a TLS listener (security.protocol=PLAINTEXT or SASL_PLAINTEXT?)".to_owned(),
        other => other.to_string(),
    };
    Fault::new(FaultKind::Tls, format!("kafka-quota: TLS with {addr} failed: {why}."))
}

fn io_fault(addr: &str, e: &std::io::Error, timeout: Duration) -> Fault {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Fault::new(
            FaultKind::Unreachable,
            format!("kafka-quota: {addr} did not answer within {} ms.", timeout.as_millis()),
        ),
        std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset => Fault::new(
            FaultKind::Unreachable,
            format!("kafka-quota: {addr} closed the connection: a listener of another security protocol (a SASL listener needs --command-config with security.protocol=SASL_PLAINTEXT or SASL_SSL, sasl.mechanism and sasl.jaas.config; a TLS one SSL), or a broker going away."),
        ),
        _ => Fault::new(FaultKind::Unreachable, format!("kafka-quota: {addr}: {e}.")),
    }
}

impl Conn {
    /// Connects to `addr` (`host:port`), does TLS and SASL as `security`
    /// says, and reads the broker's API versions.
    ///
    /// # Errors
    /// [`FaultKind::Unreachable`] (refused, unreachable, silent for
    /// `timeout`), [`FaultKind::Tls`], [`FaultKind::Auth`] (Kafka's message).
    pub(crate) fn open(addr: &str, security: &ClientSecurity, timeout: Duration) -> Result<Conn, Fault> {
        let addrs: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| Fault::new(FaultKind::Unreachable, format!("kafka-quota: cannot resolve {addr}: {e}.")))?
            .collect();
        let mut last = None;
        let mut tcp = None;
        for a in &addrs {
            match TcpStream::connect_timeout(a, timeout) {
                Ok(s) => {
                    tcp = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let tcp = tcp.ok_or_else(|| {
            let e = last.unwrap_or_else(|| std::io::Error::other("no address"));
            if e.kind() == std::io::ErrorKind::TimedOut {
                io_fault(addr, &e, timeout)
            } else {
                Fault::new(FaultKind::Unreachable, format!("kafka-quota: cannot connect to {addr}: {e}."))
            }
        })?;
        let _ = tcp.set_read_timeout(Some(timeout));
        let _ = tcp.set_write_timeout(Some(timeout));
        let _ = tcp.set_nodelay(true);
        let stream: Box<dyn Stream> = match &security.tls {
            Some(tls) => {
                let config = Arc::new(tls_config(tls)?);
                let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h).trim_matches(['[', ']']);
                let name = rustls::pki_types::ServerName::try_from(host.to_owned())
                    .map_err(|e| Fault::new(FaultKind::Tls, format!("kafka-quota: {host} is not a TLS server name: {e}.")))?;
                let conn = rustls::ClientConnection::new(config, name)
                    .map_err(|e| Fault::new(FaultKind::Tls, format!("kafka-quota: TLS with {addr} failed: {e}.")))?;
                let mut s = rustls::StreamOwned::new(conn, tcp);
                // Finish the handshake now, so that its failure is a TLS
                // fault and not a broken request later.
                while s.conn.is_handshaking() {
                    s.conn.complete_io(&mut s.sock).map_err(|e| tls_fault(addr, &e, tls, timeout))?;
                }
                Box::new(s)
            }
            None => Box::new(tcp),
        };
        let mut c = Conn {
            stream,
            addr: addr.to_owned(),
            correlation: 0,
            versions: BTreeMap::new(),
            authenticated_as: None,
            timeout,
            tls: security.tls.as_ref().map(|t| (t.truststore_source.clone(), t.client.is_some())),
        };
        c.api_versions()?;
        if let Some(creds) = &security.sasl {
            c.authenticate(creds)?;
        }
        Ok(c)
    }

    fn api_versions(&mut self) -> Result<(), Fault> {
        let req = ApiVersionsRequest::default()
            .with_client_software_name(StrBytes::from_static_str("kafka-quota"))
            .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")));
        let resp = self.call(&req, 3)?;
        if resp.error_code != 0 {
            return Err(Fault::new(
                FaultKind::TooOld,
                format!("kafka-quota: {} answered ApiVersions v3 with {}: the broker is older than Kafka 2.4.", self.addr, error_name(resp.error_code)),
            ));
        }
        self.versions = resp.api_keys.iter().map(|k| (k.api_key, (k.min_version, k.max_version))).collect();
        Ok(())
    }

    /// The version to send `R` at: the highest both sides know, at most
    /// `wanted`.
    ///
    /// # Errors
    /// [`FaultKind::TooOld`] when the broker has no version of `R` kafka-quota
    /// can speak.
    pub(crate) fn version<R: Request>(&self, wanted: i16) -> Result<i16, Fault> {
        let key = R::KEY;
        let name = ApiKey::try_from(key).map_or_else(|_| format!("API {key}"), |k| format!("{k:?}"));
        let Some(&(min, max)) = self.versions.get(&key) else {
            return Err(Fault::new(
                FaultKind::TooOld,
                format!("kafka-quota: {} does not support {name}, which kafka-quota needs (Kafka 2.6 or later).", self.addr),
            ));
        };
        let v = wanted.min(max).min(R::VERSIONS.max);
        if v < min.max(R::VERSIONS.min) {
            return Err(Fault::new(
                FaultKind::TooOld,
                format!("kafka-quota: {} supports {name} v{min}-v{max}; kafka-quota speaks v{}-v{wanted}.", self.addr, R::VERSIONS.min),
            ));
        }
        Ok(v)
    }

    /// Sends `req` at `version` and reads its response.
    ///
    /// # Errors
    /// [`FaultKind::Unreachable`] when the connection breaks or times out;
    /// [`FaultKind::Protocol`] when the response does not decode.
    pub(crate) fn call<R: Request>(&mut self, req: &R, version: i16) -> Result<R::Response, Fault> {
        self.correlation += 1;
        let header = RequestHeader::default()
            .with_request_api_key(R::KEY)
            .with_request_api_version(version)
            .with_correlation_id(self.correlation)
            .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)));
        let mut body = BytesMut::new();
        let encode = |e: anyhow::Error| Fault::new(FaultKind::Protocol, format!("kafka-quota: cannot encode a request: {e}."));
        header.encode(&mut body, R::header_version(version)).map_err(encode)?;
        req.encode(&mut body, version).map_err(encode)?;
        let mut frame = BytesMut::with_capacity(body.len() + 4);
        let len = i32::try_from(body.len()).map_err(|_| Fault::new(FaultKind::Protocol, "kafka-quota: a request too large to send."))?;
        frame.put_i32(len);
        frame.put_slice(&body);
        let timeout = self.timeout;
        let addr = self.addr.clone();
        let tls = self.tls.clone();
        let fault = |e: std::io::Error| match (&tls, e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>())) {
            (Some((source, has_cert)), Some(t)) => tls_error_fault(&addr, t, source, *has_cert),
            _ => io_fault(&addr, &e, timeout),
        };
        self.stream.write_all(&frame).and_then(|()| self.stream.flush()).map_err(fault)?;
        let mut len = [0u8; 4];
        self.stream.read_exact(&mut len).map_err(fault)?;
        let n = i32::from_be_bytes(len);
        if !(0..=100 * 1024 * 1024).contains(&n) {
            return Err(match len {
                // A TLS record (alert 0x15, handshake 0x16) answering a
                // plaintext request: a TLS listener.
                [0x15 | 0x16, 0x03, ..] => Fault::new(
                    FaultKind::Tls,
                    format!("kafka-quota: {addr} answered with TLS: it is a TLS listener, so --command-config needs security.protocol=SSL or SASL_SSL with ssl.truststore.*."),
                ),
                [b'H', b'T', b'T', b'P'] => Fault::new(
                    FaultKind::Unreachable,
                    format!("kafka-quota: {addr} answered HTTP: it is not a Kafka listener (a proxy or a web server)."),
                ),
                _ => Fault::new(FaultKind::Protocol, format!("kafka-quota: {addr} sent a frame of {n} bytes: not a Kafka response.")),
            });
        }
        let mut buf = vec![0u8; usize::try_from(n).unwrap_or(0)];
        self.stream.read_exact(&mut buf).map_err(fault)?;
        let mut bytes = Bytes::from(buf);
        let decode = |e: anyhow::Error| {
            Fault::new(FaultKind::Protocol, format!("kafka-quota: {addr} sent a response kafka-quota cannot read: {e}."))
        };
        let rh = ResponseHeader::decode(&mut bytes, R::Response::header_version(version)).map_err(decode)?;
        if rh.correlation_id != self.correlation {
            return Err(Fault::new(
                FaultKind::Protocol,
                format!("kafka-quota: {addr} answered correlation id {} to request {}.", rh.correlation_id, self.correlation),
            ));
        }
        let resp = R::Response::decode(&mut bytes, version).map_err(decode)?;
        let _ = bytes.remaining();
        Ok(resp)
    }

    fn authenticate(&mut self, creds: &super::config::SaslCredentials) -> Result<(), Fault> {
        let hv = self.version::<SaslHandshakeRequest>(1)?;
        let hs = self.call(
            &SaslHandshakeRequest::default().with_mechanism(StrBytes::from_string(creds.mechanism.name().to_owned())),
            hv,
        )?;
        if hs.error_code != 0 {
            let enabled: Vec<String> = hs.mechanisms.iter().map(|m| m.to_string()).collect();
            return Err(Fault::new(
                FaultKind::Auth,
                format!(
                    "kafka-quota: {} refused SASL mechanism {} ({}); its listener enables {}.",
                    self.addr,
                    creds.mechanism.name(),
                    error_name(hs.error_code),
                    if enabled.is_empty() { "none".to_owned() } else { enabled.join(", ") }
                ),
            ));
        }
        let av = self.version::<SaslAuthenticateRequest>(2)?;
        let sasl_err = |e: sasl::client::MechanismError| {
            Fault::new(FaultKind::Auth, format!("kafka-quota: SASL {} failed on the client side: {e}.", creds.mechanism.name()))
        };
        let mut mech: Box<dyn sasl::client::Mechanism> = match creds.mechanism {
            Mechanism::Plain => Box::new(sasl::client::mechanisms::Plain::new(creds.username.clone(), creds.password.clone())),
            Mechanism::ScramSha256 => Box::new(
                sasl::client::mechanisms::Scram::<sasl::common::scram::Sha256>::new(
                    sasl_name(&creds.username),
                    creds.password.clone(),
                    sasl::common::ChannelBinding::None,
                )
                .map_err(|e| Fault::new(FaultKind::Auth, format!("kafka-quota: SCRAM set-up failed: {e:?}.")))?,
            ),
            Mechanism::ScramSha512 => Box::new(
                sasl::client::mechanisms::Scram::<Sha512>::new(
                    sasl_name(&creds.username),
                    creds.password.clone(),
                    sasl::common::ChannelBinding::None,
                )
                .map_err(|e| Fault::new(FaultKind::Auth, format!("kafka-quota: SCRAM set-up failed: {e:?}.")))?,
            ),
        };
        let mut out = mech.initial();
        // PLAIN: one round; SCRAM: client-first, client-final, then the
        // server's signature checked.
        for round in 0..3 {
            let resp = self.call(&SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(out.clone())), av)?;
            if resp.error_code != 0 {
                let kafka = resp.error_message.map(|m| m.to_string()).unwrap_or_default();
                return Err(Fault::new(
                    FaultKind::Auth,
                    format!(
                        "kafka-quota: SASL {} authentication as {} failed at {}: {} ({}).",
                        creds.mechanism.name(),
                        creds.username,
                        self.addr,
                        if kafka.is_empty() { "no message".to_owned() } else { kafka },
                        error_name(resp.error_code)
                    ),
                ));
            }
            let last = match creds.mechanism {
                Mechanism::Plain => true,
                _ => round == 1,
            };
            if last {
                if creds.mechanism != Mechanism::Plain {
                    mech.success(&resp.auth_bytes).map_err(sasl_err)?;
                }
                self.authenticated_as = Some(creds.username.clone());
                return Ok(());
            }
            out = mech.response(&resp.auth_bytes).map_err(sasl_err)?;
        }
        Err(Fault::new(FaultKind::Auth, "kafka-quota: SASL did not finish in three rounds."))
    }

}

