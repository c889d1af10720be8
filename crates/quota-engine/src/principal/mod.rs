//! From a connection to the `KafkaPrincipal` whose name user quotas are keyed
//! on, the way Kafka's default principal builder does it, and how that name
//! appears in metric tags.
//!
//! - [`PrincipalConfig`] / [`PrincipalBuilder`] / [`Connection`]: the listener
//!   (`PLAINTEXT`, `SSL` with `ssl.client.auth`, `SASL_PLAINTEXT`,
//!   `SASL_SSL`), the SASL mechanism and what the client presents give a
//!   [`PrincipalOutcome`]: the principal, the rule or claim that produced it
//!   (or why it is `ANONYMOUS`), warnings, and the sanitized name.
//!   Kafka: `DefaultKafkaPrincipalBuilder`.
//! - [`SslPrincipalMapper`] applies `ssl.principal.mapping.rules`
//!   (`DEFAULT`, `RULE:pattern/replacement/[LU]`) to the DN Kafka reads from
//!   the certificate, `X500Principal.getName()` (RFC 2253: `CN=x,OU=y`, no
//!   spaces after commas).
//! - [`read_certificate_subject`] / [`X500Name`]: a typed DN read as JDK 17's
//!   `X500Principal(String)` reads it (RFC 1779 and 2253 forms, `;`, quotes,
//!   escapes, `#hex`, `OID.n=`), or openssl's printed subject, and its
//!   `getName()`; a DN Java refuses is refused with Java's message.
//! - [`KerberosName`] and [`KerberosShortNamer`] apply
//!   `sasl.kerberos.principal.to.local.rules`
//!   (`DEFAULT`, `RULE:[n:format](match)s/from/to/g/L|U`).
//! - [`sanitize`], [`desanitize`] and [`jmx_sanitize`] are Kafka's `Sanitizer`.
//!
//! Rules are `java.util.regex` patterns with `String.replaceAll` replacements
//! (`$1`, `${name}`, `\$`). They are read by a port of the JDK's pattern parser
//! (the JDK's `PatternSyntaxException` messages included) and matched by a
//! port of the JDK's backtracking matcher (no Rust regex crate has Java's
//! semantics), both in [`crate::jdk::regex`]; Java regex features the engine
//! does not reproduce (listed there: inline flags other than `i`, `s` and
//! `m`, Unicode properties and blocks, `\X`, ...) give an
//! [`ErrorClass::UnsupportedRegex`] error instead of a possibly wrong name.
//!
//! Every error carries Kafka's (or the JDK's) exact message and exception class
//! ([`PrincipalError`]).

mod builder;
mod error;
mod kerberos;
mod sanitizer;
mod ssl_mapper;
mod x500;

pub use builder::{
    AnonymousReason, Connection, ANONYMOUS_WARNING, Derivation, Identity, KafkaPrincipal, Listener, PrincipalBuilder,
    PrincipalConfig, PrincipalOutcome, SaslMechanism, SslClientAuth,
};
pub use error::{ErrorClass, PrincipalError};
pub use kerberos::{
    parse_config_list, KerberosMapping, KerberosName, KerberosRule, KerberosShortNamer,
};
pub use sanitizer::{desanitize, jmx_sanitize, sanitize};
pub use ssl_mapper::{SslMapping, SslPrincipalMapper, SslRule};
pub use x500::{read_certificate_subject, CertificateSubject, SubjectForm, X500Name};
