//! Kafka client quotas, reproduced in pure Rust.
//!
//! The engine follows Apache Kafka's own classes rule for rule and is checked
//! against vectors produced by running them (`tests/fixtures/kafka-vectors`):
//!
//! - [`entity`]: entities (`user`, `client-id`, `ip`), the five quota keys and
//!   the four client quota types.
//! - [`store`]: the quota store with Kafka's validation and error messages
//!   (`ClientQuotaControlManager`).
//! - [`principal`]: from a connection (listener, mechanism, name or
//!   certificate DN) to a `KafkaPrincipal`, with `ssl.principal.mapping.rules`,
//!   `sasl.kerberos.principal.to.local.rules` and `Sanitizer`.
//! - [`resolve`]: which of the eight precedence rungs applies per quota type,
//!   the metric tags that decide who shares one budget, and why.
//! - [`metrics`]: the windowed rate, the token bucket and throttle times.
//! - [`jdk`]: the JDK 17 behaviour Kafka's JVM exhibits and the rules above
//!   depend on (`java.util.regex`, `HashMap` iteration order,
//!   `Double.parseDouble` / `toString`, case mapping), kept apart from
//!   Kafka's own logic.
//! - [`cluster`]: a scenario analysed once (quotas, principals, managers,
//!   budgets), for the simulator, the playground and the CLI.
//! - [`sim`]: the deterministic simulation and its Timeline, read at any
//!   instant with the cursor queries.
//!
//! The engine never reads a clock: every time is an argument in milliseconds.
//!
//! # Errors
//!
//! One public error type, [`Error`], with its non-exhaustive [`ErrorKind`]
//! ([`Error::kind`]) and predicates ([`Error::is_invalid_scenario`],
//! [`Error::is_quota_refused`], [`Error::is_principal`],
//! [`Error::is_broker_setting`]). [`std::error::Error::source`] gives the
//! underlying value: Kafka's [`ApiError`] (read with [`Error::api_error`],
//! whose [`ErrorCode`] is Kafka's `Errors`), Kafka's [`PrincipalError`]
//! ([`Error::principal_error`]), or the measurement [`Error`] behind an
//! out-of-range broker setting ([`Error::broker_setting`] names the
//! property). Its `Display` is the full sentence, unchanged from the types
//! it replaces.
//!
//! [`ApiError`] and [`PrincipalError`] stay public Kafka values: the store
//! and the principal module return them as Kafka does, and both convert
//! into [`Error`] with `From`. The former module errors are folded into
//! [`Error`]:
//!
//! | Old (until issue 9)                         | Now                                                         |
//! |---------------------------------------------|-------------------------------------------------------------|
//! | `sim::SimError::InvalidScenario`            | [`ErrorKind::InvalidScenario`]                              |
//! | `sim::SimError::Quota` (message as string)  | [`ErrorKind::QuotaRefused`], source: the [`ApiError`]       |
//! | `sim::SimError::Principal` (message as string) | [`ErrorKind::Principal`], source: the [`PrincipalError`] |
//! | `sim::SimError::Broker`, `broker::BrokerError::InvalidSetting` | [`ErrorKind::BrokerSetting`]             |
//! | `broker::BrokerError::NotAClientQuota`      | [`ErrorKind::NotAClientQuota`]                              |
//! | `resolve::ResolveError::IpEntity`           | [`ErrorKind::IpEntity`]                                     |
//! | `metrics::MetricsError` (window variants)   | [`ErrorKind::InvalidWindow`]                                |
//! | `metrics::MetricsError::BoundNotPositive`   | [`ErrorKind::InvalidBound`]                                 |
//!
//! # Renamed (issue 9, "one error, distinct names")
//!
//! | Old name                                   | New name                                    |
//! |--------------------------------------------|---------------------------------------------|
//! | `resolve::Connection` (root `Connection`)  | [`resolve::ClientIdentity`] (root [`ClientIdentity`]): the (principal name, client id) pair quotas are resolved for |
//! | `resolve::QuotaManager`                    | [`resolve::DefaultQuotaCallback`]: Kafka's built-in `ClientQuotaCallback` |
//! | `resolve::QuotaManagers`                   | [`resolve::QuotaCallbacks`]                 |
//! | files `resolve/manager.rs`, `resolve/managers.rs` | `resolve/callback.rs`, `resolve/callbacks.rs` |
//!
//! [`principal::Connection`] (the listener and identity the principal
//! builder takes) keeps its name; [`broker::ClientQuotaManager`] (the
//! broker's manager, holding a [`resolve::DefaultQuotaCallback`] as its
//! callback) too.
#![warn(missing_docs, unreachable_pub)]

pub mod advice;
pub mod broker;
pub mod cluster;
pub mod entity;
mod error;
pub mod jdk;
pub mod json_f64;
pub mod metrics;
pub mod principal;
pub mod resolve;
pub mod scenario;
pub mod sim;
pub mod store;

pub use entity::{ConfigType, EntityName, EntityType, QuotaEntity, QuotaKey, QuotaType, UnitLabel};
pub use error::{Error, ErrorKind};
pub use jdk::double::java_double_to_string;
pub use principal::{KafkaPrincipal, PrincipalBuilder, PrincipalConfig, PrincipalError, PrincipalOutcome};
pub use metrics::{Admission, MutationAdmission, MutationMode, MutationSensor, QuotaWindow, RateSensor, TokenBucket, WindowedRate};
pub use resolve::{BudgetGroups, ClientIdentity, DefaultQuotaCallback, MetricTags, QuotaCallbacks, Resolution, Rung};
pub use store::{AlterPlan, AlterResult, Alteration, ApiError, ErrorCode, FilterComponent, FilterMatch, Op, QuotaFilter, QuotaRecord, QuotaStore, RawEntity};
