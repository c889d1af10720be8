//! The engine's one error type: [`Error`], with its [`ErrorKind`].
//!
//! Every fallible engine function that is not one of Kafka's own
//! operations returns [`Error`]: the simulator ([`crate::sim::simulate`],
//! [`crate::sim::textbook::run`], [`crate::sim::Scenario::validate`]'s
//! problems), the analysed cluster ([`crate::cluster::quota_store`]; its
//! [`crate::cluster::engine_connection`] cannot fail, the scenario's
//! mechanism and client auth being typed when read), the broker
//! ([`crate::broker::Broker::new`], [`crate::broker::BrokerSettings::validate`]),
//! the quota callbacks ([`crate::resolve::DefaultQuotaCallback::update_quota`])
//! and the measurements ([`crate::metrics::QuotaWindow::try_new`],
//! [`crate::metrics::RateSensor`], [`crate::metrics::TokenBucket`], ...).
//!
//! Two Kafka values stay public types of their own, carried inside [`Error`]
//! and given back by [`std::error::Error::source`]:
//!
//! - [`ApiError`] (with its [`crate::ErrorCode`]): what Kafka's controller
//!   answers to a quota request (`clients/src/main/java/org/apache/kafka/common/requests/ApiError.java`
//!   with an `Errors` code). The store ([`crate::store::QuotaStore::set`],
//!   `alter`, `describe`) returns it as Kafka does, the conformance vectors
//!   compare it field by field, and the CLI shows it as `kafka-configs.sh`
//!   would. [`Error::api_error`] reads it back.
//! - [`PrincipalError`] (with its [`crate::principal::ErrorClass`]): the
//!   exception Kafka's principal builder or the JDK throws (class and exact
//!   message), returned by the principal module and shown by the playground
//!   as Kafka words it. [`Error::principal_error`] reads it back.
//!
//! Both convert into [`Error`] with `From` (`?` works), keeping their text.
//!
//! `Display` is a full sentence naming the input and the reason, fit to show
//! as it is; it already contains the text of the source, so a reporter that
//! prints the [`std::error::Error::source`] chain as well repeats it. Branch
//! on [`Error::kind`] or the predicates, never on the text.
//!
//! Kafka: the engine's counterpart of the exceptions Kafka raises for the
//! same inputs (`InvalidRequestException` from `ClientQuotaControlManager`,
//! `ConfigException` for a broker property, the principal builder's
//! `KafkaException`).

use std::fmt;

use crate::entity::QuotaType;
use crate::principal::PrincipalError;
use crate::store::ApiError;

/// What went wrong, for callers that branch on it.
///
/// New kinds may be added: match with a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The scenario is inconsistent (unknown connection or topic, zero
    /// sizes, an unknown SASL mechanism, ...).
    InvalidScenario,
    /// Kafka's quota controller refused a request (a quota alteration, or a
    /// describe filter); [`Error::api_error`] gives Kafka's code and message.
    QuotaRefused,
    /// A connection has no principal: the principal builder or its rules
    /// failed (Kafka would close the connection or refuse to start);
    /// [`Error::principal_error`] gives Kafka's exception.
    Principal,
    /// A broker property is out of range; [`Error::broker_setting`] names it.
    BrokerSetting,
    /// A broker's client quota manager was asked for the controller-mutation
    /// type, which has a token bucket instead.
    NotAClientQuota,
    /// An `ip` entity was given to a client quota callback: its only quota,
    /// `connection_creation_rate`, is the per-IP connection quota's.
    IpEntity,
    /// A measurement window is out of range (samples, sample length, or
    /// their product).
    InvalidWindow,
    /// A quota bound is negative.
    InvalidBound,
}

/// An engine failure: its [`ErrorKind`], the input it names, and the
/// underlying Kafka value or engine error as [`std::error::Error::source`].
///
/// Every fallible engine function returns it, except the store and the
/// principal module, which return the Kafka values it carries ([`ApiError`],
/// [`PrincipalError`]) and convert into it with `From`.
///
/// # Example
///
/// ```
/// use std::error::Error as _;
/// use quota_engine::sim::{simulate, Scenario};
/// use quota_engine::{ErrorCode, ErrorKind};
///
/// let s: Scenario = serde_json::from_str(r#"{
///   "quotas": [{"entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 1.5}]
/// }"#)?;
/// let e = s.validate().map_err(quota_engine::Error::from).and_then(simulate).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::QuotaRefused);
/// assert!(e.is_quota_refused());
/// assert_eq!(e.api_error().map(|a| a.code), Some(ErrorCode::InvalidRequest));
/// assert!(e.source().is_some());
/// assert!(e.to_string().starts_with("The quota producer_byte_rate on clients/app was refused: "));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Error(Box<Repr>);

#[derive(Debug, Clone, PartialEq)]
enum Repr {
    InvalidScenario(String),
    /// A scenario quota the store refused.
    QuotaRefused {
        /// Where in the scenario, e.g. `events[1]`, written before the
        /// message when set.
        at: Option<String>,
        entity: String,
        key: String,
        source: ApiError,
    },
    /// An [`ApiError`] as it is.
    Api(ApiError),
    /// A scenario connection without a principal.
    NoPrincipal {
        connection: String,
        source: PrincipalError,
    },
    /// A [`PrincipalError`] as it is.
    Principal(PrincipalError),
    BrokerSetting {
        name: &'static str,
        reason: String,
        /// The measurement error `reason` is the text of, if any.
        source: Option<Error>,
    },
    NotAClientQuota {
        quota_type: QuotaType,
    },
    IpEntity {
        entity: String,
    },
    SamplesOutOfRange {
        samples: u32,
    },
    WindowOutOfRange {
        window_ms: i64,
    },
    WindowTooLong {
        samples: u32,
        window_ms: i64,
    },
    BoundNotPositive {
        bound: f64,
    },
}

impl Error {
    fn new(repr: Repr) -> Self {
        Error(Box::new(repr))
    }

    /// An inconsistent scenario; `message` is the whole sentence.
    pub(crate) fn invalid_scenario(message: String) -> Self {
        Self::new(Repr::InvalidScenario(message))
    }

    /// The store refused scenario quota `key` on `entity` (an entity path,
    /// e.g. `clients/app`).
    pub(crate) fn quota_refused(entity: String, key: String, source: ApiError) -> Self {
        Self::new(Repr::QuotaRefused {
            at: None,
            entity,
            key,
            source,
        })
    }

    /// The same error with its message starting with `path`, the place in
    /// the scenario at fault (e.g. `events[1]`): "{path}: {message}". Its
    /// kind and source stay as they are; errors other than an invalid
    /// scenario and a refused quota are returned unchanged.
    pub(crate) fn at_path(self, path: &str) -> Self {
        match *self.0 {
            Repr::InvalidScenario(m) => Self::invalid_scenario(format!("{path}: {m}")),
            Repr::QuotaRefused {
                entity,
                key,
                source,
                ..
            } => Self::new(Repr::QuotaRefused {
                at: Some(path.to_owned()),
                entity,
                key,
                source,
            }),
            other => Self::new(other),
        }
    }

    /// Scenario connection `connection` has no principal.
    pub(crate) fn no_principal(connection: String, source: PrincipalError) -> Self {
        Self::new(Repr::NoPrincipal { connection, source })
    }

    /// Broker property `name` is out of range; `reason` completes
    /// "The broker setting {name} is not valid: ".
    pub(crate) fn invalid_setting(name: &'static str, reason: impl Into<String>) -> Self {
        Self::new(Repr::BrokerSetting {
            name,
            reason: reason.into(),
            source: None,
        })
    }

    /// Broker property `name` gives a window the metrics refuse (`source`).
    pub(crate) fn invalid_setting_window(name: &'static str, source: Error) -> Self {
        Self::new(Repr::BrokerSetting {
            name,
            reason: source.to_string(),
            source: Some(source),
        })
    }

    pub(crate) fn not_a_client_quota(quota_type: QuotaType) -> Self {
        Self::new(Repr::NotAClientQuota { quota_type })
    }

    /// `entity` is the entity's path, e.g. `ips/10.0.0.1`.
    pub(crate) fn ip_entity(entity: String) -> Self {
        Self::new(Repr::IpEntity { entity })
    }

    pub(crate) fn samples_out_of_range(samples: u32) -> Self {
        Self::new(Repr::SamplesOutOfRange { samples })
    }

    pub(crate) fn window_out_of_range(window_ms: i64) -> Self {
        Self::new(Repr::WindowOutOfRange { window_ms })
    }

    pub(crate) fn window_too_long(samples: u32, window_ms: i64) -> Self {
        Self::new(Repr::WindowTooLong { samples, window_ms })
    }

    pub(crate) fn bound_not_positive(bound: f64) -> Self {
        Self::new(Repr::BoundNotPositive { bound })
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::InvalidScenario(_) => ErrorKind::InvalidScenario,
            Repr::QuotaRefused { .. } | Repr::Api(_) => ErrorKind::QuotaRefused,
            Repr::NoPrincipal { .. } | Repr::Principal(_) => ErrorKind::Principal,
            Repr::BrokerSetting { .. } => ErrorKind::BrokerSetting,
            Repr::NotAClientQuota { .. } => ErrorKind::NotAClientQuota,
            Repr::IpEntity { .. } => ErrorKind::IpEntity,
            Repr::SamplesOutOfRange { .. }
            | Repr::WindowOutOfRange { .. }
            | Repr::WindowTooLong { .. } => ErrorKind::InvalidWindow,
            Repr::BoundNotPositive { .. } => ErrorKind::InvalidBound,
        }
    }

    /// True for [`ErrorKind::InvalidScenario`].
    pub fn is_invalid_scenario(&self) -> bool {
        self.kind() == ErrorKind::InvalidScenario
    }

    /// True for [`ErrorKind::QuotaRefused`]: [`Error::api_error`] is `Some`.
    pub fn is_quota_refused(&self) -> bool {
        self.kind() == ErrorKind::QuotaRefused
    }

    /// True for [`ErrorKind::Principal`]: [`Error::principal_error`] is `Some`.
    pub fn is_principal(&self) -> bool {
        self.kind() == ErrorKind::Principal
    }

    /// True for [`ErrorKind::BrokerSetting`]: [`Error::broker_setting`] is `Some`.
    pub fn is_broker_setting(&self) -> bool {
        self.kind() == ErrorKind::BrokerSetting
    }

    /// Kafka's answer ([`ApiError`]: its [`crate::ErrorCode`] and message)
    /// when Kafka refused a quota request.
    pub fn api_error(&self) -> Option<&ApiError> {
        match &*self.0 {
            Repr::QuotaRefused { source, .. } | Repr::Api(source) => Some(source),
            _ => None,
        }
    }

    /// Kafka's exception ([`PrincipalError`]: class and message) when a
    /// connection has no principal.
    pub fn principal_error(&self) -> Option<&PrincipalError> {
        match &*self.0 {
            Repr::NoPrincipal { source, .. } | Repr::Principal(source) => Some(source),
            _ => None,
        }
    }

    /// The Kafka property name (e.g. `quota.window.num`) of an out-of-range
    /// broker setting.
    pub fn broker_setting(&self) -> Option<&'static str> {
        match &*self.0 {
            Repr::BrokerSetting { name, .. } => Some(name),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Repr::InvalidScenario(m) => f.write_str(m),
            Repr::QuotaRefused {
                at,
                entity,
                key,
                source,
            } => {
                if let Some(at) = at {
                    write!(f, "{at}: ")?;
                }
                write!(
                    f,
                    "The quota {key} on {entity} was refused: {}",
                    source.message
                )
            }
            Repr::Api(e) => write!(f, "{e}"),
            Repr::NoPrincipal { connection, source } => write!(
                f,
                "The connection '{connection}' has no principal: {}",
                source.message()
            ),
            Repr::Principal(e) => write!(f, "{e}"),
            Repr::BrokerSetting { name, reason, .. } => {
                write!(f, "The broker setting {name} is not valid: {reason}")
            }
            Repr::NotAClientQuota { quota_type } => write!(
                f,
                "The quota type {quota_type} has no client quota manager: controller mutations use a token bucket."
            ),
            Repr::IpEntity { entity } => write!(
                f,
                "The entity {entity} is an IP entity: its only quota, connection_creation_rate, is enforced by the per-IP connection quota, not by the produce, fetch, request or controller-mutation quota managers."
            ),
            Repr::SamplesOutOfRange { samples } => write!(
                f,
                "The number of quota samples {samples} is out of range: it must be at least 1 and at most {}.",
                i32::MAX
            ),
            Repr::WindowOutOfRange { window_ms } => write!(
                f,
                "The quota window of {window_ms} ms is out of range: it must be at least 1 ms."
            ),
            Repr::WindowTooLong { samples, window_ms } => write!(
                f,
                "The quota window of {samples} samples of {window_ms} ms is too long: their total does not fit in 64-bit milliseconds."
            ),
            // A quota sensor takes NaN and Infinity as Kafka's does.
            Repr::BoundNotPositive { bound } => write!(
                f,
                "The quota bound {bound} is not valid: it cannot be negative."
            ),
        }
    }
}

impl std::error::Error for Error {
    /// The [`ApiError`] of a refused quota, the [`PrincipalError`] of a
    /// connection without a principal, the measurement [`Error`] behind an
    /// out-of-range broker setting; `None` otherwise.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            Repr::QuotaRefused { source, .. } | Repr::Api(source) => Some(source),
            Repr::NoPrincipal { source, .. } | Repr::Principal(source) => Some(source),
            Repr::BrokerSetting {
                source: Some(source),
                ..
            } => Some(source),
            _ => None,
        }
    }
}

impl From<ApiError> for Error {
    /// Kafka's refusal as it is ([`ErrorKind::QuotaRefused`], same text).
    fn from(e: ApiError) -> Self {
        Self::new(Repr::Api(e))
    }
}

impl From<PrincipalError> for Error {
    /// Kafka's exception as it is ([`ErrorKind::Principal`], same text).
    fn from(e: PrincipalError) -> Self {
        Self::new(Repr::Principal(e))
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::broker::BrokerSettings;
    use crate::principal::ErrorClass;
    use crate::sim::{simulate, Scenario};
    use crate::ErrorCode;

    fn scenario(json: &str) -> Scenario {
        serde_json::from_str(json).unwrap()
    }

    /// One producer on connection `p` (SASL/PLAIN user `a`) writing to `t`,
    /// with `extra` spliced into the scenario object.
    fn with_producer(extra: &str) -> Scenario {
        scenario(&format!(
            r#"{{
  "topics": [{{"name": "t"}}],
  "connections": [{{"name": "p", "listener": "SASL_PLAINTEXT", "identity": "a", "client.id": "c"}}],
  "workloads": [{{"producer": {{"connection": "p", "topic": "t", "records": 10, "record.size": 100}}}}]{extra}
}}"#
        ))
    }

    #[test]
    fn a_refused_quota_keeps_kafkas_api_error() {
        let s = with_producer(
            r#", "quotas": [{"entity": {"user": "a"}, "key": "producer_byte_rate", "value": 1.5}]"#,
        );
        let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::QuotaRefused);
        assert!(e.is_quota_refused() && !e.is_principal() && !e.is_invalid_scenario());
        let api = e.api_error().expect("Kafka's ApiError");
        assert_eq!(api.code, ErrorCode::InvalidRequest);
        assert_eq!(
            e.to_string(),
            format!(
                "The quota producer_byte_rate on users/a was refused: {}",
                api.message
            )
        );
        let source = e.source().expect("source");
        assert_eq!(source.downcast_ref::<ApiError>(), Some(api));
        assert!(source.source().is_none());
        // Scenario::validate places it at the quota's path, and the run's
        // own lookup (the cluster's verdicts) gives the same error.
        let problems = s.validate().unwrap_err();
        assert_eq!(problems[0].path.to_string(), "quotas[0]");
        assert_eq!(crate::cluster::Cluster::new(&s).check_quotas(&s).unwrap_err(), e);
    }

    #[test]
    fn an_invalid_principal_keeps_the_principal_error_and_its_cause() {
        let s = with_producer(
            r#", "brokers": {"settings": {"ssl.principal.mapping.rules": "garbage"}}"#,
        );
        let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Principal);
        assert!(e.is_principal() && !e.is_quota_refused());
        let p = e.principal_error().expect("Kafka's exception");
        assert!(
            e.to_string().starts_with(&format!(
                "The connection 'p' has no principal: {}",
                p.message()
            )),
            "{e}"
        );
        let source = e.source().expect("source");
        assert_eq!(source.downcast_ref::<PrincipalError>(), Some(p));
        assert_eq!(p.class(), ErrorClass::IllegalArgument);
        // A bare PrincipalError converts with its own text.
        let bare = Error::from(p.clone());
        assert!(bare.is_principal());
        assert_eq!(bare.to_string(), p.to_string());
    }

    #[test]
    fn a_bad_broker_setting_names_the_property_and_keeps_the_window_error() {
        let settings = BrokerSettings {
            quota_window_num: 0,
            ..BrokerSettings::default()
        };
        let e = settings.validate().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BrokerSetting);
        assert!(e.is_broker_setting());
        assert_eq!(e.broker_setting(), Some("quota.window.num"));
        assert_eq!(
            e.to_string(),
            "The broker setting quota.window.num is not valid: The number of quota samples 0 is out of range: it must be at least 1 and at most 2147483647."
        );
        let window = e
            .source()
            .and_then(|s| s.downcast_ref::<Error>())
            .expect("the window error");
        assert_eq!(window.kind(), ErrorKind::InvalidWindow);
        assert!(window.source().is_none());
        // The simulator reports it as it is.
        let mut s = with_producer("");
        s.brokers.settings = settings;
        assert_eq!(s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err(), e);
        // A property checked directly has no source.
        let threads = BrokerSettings {
            num_io_threads: 0,
            ..BrokerSettings::default()
        };
        let e = threads.validate().unwrap_err();
        assert_eq!(e.broker_setting(), Some("num.io.threads"));
        assert_eq!(
            e.to_string(),
            "The broker setting num.io.threads is not valid: it must be at least 1"
        );
        assert!(e.source().is_none());
    }

    #[test]
    fn an_invalid_scenario_is_a_sentence_without_source() {
        let s = scenario(
            r#"{"topics": [{"name": "t"}],
  "workloads": [{"producer": {"connection": "nope", "topic": "t", "records": 1, "record.size": 1}}]}"#,
        );
        let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidScenario);
        assert!(e.is_invalid_scenario() && !e.is_broker_setting());
        assert_eq!(
            e.to_string(),
            "A workload uses the connection 'nope', which is not defined in connections."
        );
        assert!(e.source().is_none());
        assert!(e.api_error().is_none() && e.principal_error().is_none());
    }

    #[test]
    fn an_ip_entity_and_a_bad_bound_have_their_kinds() {
        let mut cb = crate::resolve::DefaultQuotaCallback::new(QuotaType::Produce);
        let e = cb
            .update_quota(
                &crate::QuotaEntity::Ip(crate::EntityName::Default),
                Some(1.0),
            )
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::IpEntity);
        assert!(
            e.to_string()
                .starts_with("The entity ips/<default> is an IP entity"),
            "{e}"
        );
        let e = crate::metrics::RateSensor::bandwidth(crate::QuotaWindow::KAFKA_DEFAULT, -1.0)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidBound);
        assert_eq!(
            e.to_string(),
            "The quota bound -1 is not valid: it cannot be negative."
        );
    }

    #[test]
    fn errors_cross_threads_and_box() {
        fn is_send_sync<T: Send + Sync + 'static>() {}
        is_send_sync::<Error>();
        let boxed: Box<dyn std::error::Error + Send + Sync> =
            Error::invalid_scenario("x".into()).into();
        assert_eq!(boxed.to_string(), "x");
    }

    #[test]
    fn an_api_error_converts_with_its_text() {
        let api = ApiError::invalid_request("Invalid empty client id");
        let e: Error = api.clone().into();
        assert!(e.is_quota_refused());
        assert_eq!(e.to_string(), "INVALID_REQUEST: Invalid empty client id");
        assert_eq!(e.api_error(), Some(&api));
    }
}
