//! The error of the principal module: Kafka's (or the JDK's) exception class
//! and its exact message.

use std::fmt;

/// Which Java exception Kafka raises for a principal problem (or, for the
/// last three variants, why the engine itself stops).
///
/// [`ErrorClass::java_name`] gives the fully qualified Java class name, as the
/// Kafka vectors record it in `error_class`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// `java.lang.IllegalArgumentException`: a malformed rule
    /// (`Invalid rule: ...`), a malformed Kerberos name, a bad `URLDecoder`
    /// escape, or a bad `replaceAll` replacement string.
    IllegalArgument,
    /// `java.util.regex.PatternSyntaxException`: a rule's regex does not compile.
    PatternSyntax,
    /// `java.lang.IndexOutOfBoundsException`: a replacement names a group the
    /// pattern does not have (`No group 3`).
    IndexOutOfBounds,
    /// `java.lang.NumberFormatException`: `Integer.parseInt` failed
    /// (`For input string: "..."`).
    NumberFormat,
    /// `org.apache.kafka.common.security.ssl.SslPrincipalMapper$NoMatchingRule`.
    SslNoMatchingRule,
    /// `org.apache.kafka.common.security.kerberos.NoMatchingRule`.
    KerberosNoMatchingRule,
    /// `org.apache.kafka.common.security.kerberos.BadFormatString`.
    KerberosBadFormatString,
    /// `org.apache.kafka.common.KafkaException`: the principal builder wraps a
    /// mapping failure (the cause is kept in [`PrincipalError::cause`]).
    Kafka,
    /// `org.apache.kafka.common.errors.SaslAuthenticationException`.
    SaslAuthentication,
    /// `org.apache.kafka.common.security.oauthbearer.internals.secured.ValidateException`.
    OAuthValidate,
    /// The broker refuses the connection before any principal exists (for
    /// example `ssl.client.auth=required` and no client certificate).
    ConnectionRejected,
    /// The connection description does not fit its listener (for example a
    /// SASL listener with a certificate DN as identity).
    InvalidConnection,
    /// A Java regex feature this engine does not reproduce; the message names it.
    UnsupportedRegex,
    /// `java.io.IOException`: the JDK's DN parser (`X500Name`, `RDN`, `AVA`,
    /// `ObjectIdentifier`, `DerValue`) refuses a typed DN; the cause of
    /// `X500Principal`'s `IllegalArgumentException`.
    Io,
    /// `java.io.EOFException`: a `#hex` DN value whose DER length runs past
    /// its bytes (`not enough content`).
    Eof,
    /// A certificate DN the engine does not read as Java does; the message
    /// names what.
    UnsupportedDn,
    /// A typed certificate DN that Java's `X500Principal(String)` refuses:
    /// no certificate has such a subject, so there is no connection to
    /// derive a principal for (the cause is Java's exception).
    InvalidDn,
}

impl ErrorClass {
    /// The Java class name (`java.lang.IllegalArgumentException`, ...); the
    /// engine's own classes are named `quota_engine::...`.
    pub const fn java_name(self) -> &'static str {
        match self {
            ErrorClass::IllegalArgument => "java.lang.IllegalArgumentException",
            ErrorClass::PatternSyntax => "java.util.regex.PatternSyntaxException",
            ErrorClass::IndexOutOfBounds => "java.lang.IndexOutOfBoundsException",
            ErrorClass::NumberFormat => "java.lang.NumberFormatException",
            ErrorClass::SslNoMatchingRule => {
                "org.apache.kafka.common.security.ssl.SslPrincipalMapper$NoMatchingRule"
            }
            ErrorClass::KerberosNoMatchingRule => {
                "org.apache.kafka.common.security.kerberos.NoMatchingRule"
            }
            ErrorClass::KerberosBadFormatString => {
                "org.apache.kafka.common.security.kerberos.BadFormatString"
            }
            ErrorClass::Kafka => "org.apache.kafka.common.KafkaException",
            ErrorClass::SaslAuthentication => {
                "org.apache.kafka.common.errors.SaslAuthenticationException"
            }
            ErrorClass::OAuthValidate => {
                "org.apache.kafka.common.security.oauthbearer.internals.secured.ValidateException"
            }
            ErrorClass::ConnectionRejected => "quota_engine::ConnectionRejected",
            ErrorClass::InvalidConnection => "quota_engine::InvalidConnection",
            ErrorClass::UnsupportedRegex => "quota_engine::UnsupportedRegex",
            ErrorClass::Io => "java.io.IOException",
            ErrorClass::Eof => "java.io.EOFException",
            ErrorClass::UnsupportedDn => "quota_engine::UnsupportedDn",
            ErrorClass::InvalidDn => "quota_engine::InvalidDn",
        }
    }
}

/// A principal-mapping failure: the exception class and Kafka's exact message
/// (JDK text for regex and URL-decoding errors), plus the cause when Kafka
/// wraps one exception in another.
///
/// `Display` prints the message followed by the class and the cause, e.g.
/// `No rules apply to CN=x, rules [] (org.apache.kafka.common.security.ssl.SslPrincipalMapper$NoMatchingRule)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrincipalError {
    class: ErrorClass,
    message: String,
    cause: Option<Box<PrincipalError>>,
}

impl PrincipalError {
    pub(crate) fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        PrincipalError {
            class,
            message: message.into(),
            cause: None,
        }
    }

    pub(crate) fn caused_by(mut self, cause: PrincipalError) -> Self {
        self.cause = Some(Box::new(cause));
        self
    }

    /// The exception class.
    pub fn class(&self) -> ErrorClass {
        self.class
    }

    /// The exception message exactly as Kafka / the JDK words it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The wrapped exception, when Kafka wraps one (`KafkaException` around a
    /// `NoMatchingRule`, for instance).
    pub fn cause(&self) -> Option<&PrincipalError> {
        self.cause.as_deref()
    }
}

impl fmt::Display for PrincipalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Kafka's and the JDK's exceptions are named as Java names them; the
        // engine's own classes (a connection Kafka would refuse or a
        // description that does not fit) are its message alone.
        let class = self.class.java_name();
        if class.starts_with("quota_engine::") {
            f.write_str(&self.message)?;
        } else {
            write!(f, "{} ({class})", self.message)?;
        }
        if let Some(c) = &self.cause {
            write!(f, "; caused by: {c}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PrincipalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|c| c as &(dyn std::error::Error + 'static))
    }
}

/// `NumberFormatException.forInputString(s, 10)` (JDK 17).
pub(crate) fn number_format(s: &str) -> PrincipalError {
    PrincipalError::new(
        ErrorClass::NumberFormat,
        format!("For input string: \"{s}\""),
    )
}

/// `Integer.parseInt(s)` for a string of ASCII digits (what Kafka's patterns
/// capture): the value, or the JDK's `NumberFormatException` for an empty
/// string or a value above `Integer.MAX_VALUE`.
pub(crate) fn parse_java_int(s: &str) -> Result<u32, PrincipalError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(number_format(s));
    }
    let mut v: u64 = 0;
    for b in s.bytes() {
        v = v * 10 + u64::from(b - b'0');
        if v > 0x7FFF_FFFF {
            return Err(number_format(s));
        }
    }
    Ok(v as u32)
}
