//! Which quota applies: Kafka's eight-rung precedence ladder per quota type,
//! the metric tags that decide who shares one budget, and why.
//!
//! Each client quota type (produce, fetch, request, controller mutation) has
//! its own [`DefaultQuotaCallback`] (Kafka's built-in `ClientQuotaCallback`,
//! one per quota manager; the four are [`QuotaCallbacks`]) and is resolved
//! independently, for a [`ClientIdentity`] (principal name, client id). A
//! callback holds the overrides per entity, the quota-type flags
//! ([`QuotaTypeFlags`]) with per-kind counts, and the sensors created so
//! far. [`DefaultQuotaCallback::resolve`] returns a [`Resolution`]: the
//! [`Rung`] that applies (or none = unlimited, Kafka's bound
//! `Long.MAX_VALUE`), the [`MetricTags`] of the connection's sensor, what
//! decided those tags ([`TagDecision`], including the single-level
//! shortcut) and a trace of all eight rungs ([`RungCheck`]) with a
//! plain-English reason each.
//!
//! # Example
//!
//! ```
//! use quota_engine::{EntityName, QuotaEntity, QuotaType};
//! use quota_engine::resolve::{DefaultQuotaCallback, MetricTags, Rung};
//!
//! let mut produce = DefaultQuotaCallback::new(QuotaType::Produce);
//! produce.update_quota(&QuotaEntity::User(EntityName::Default), Some(1_000_000.0))?;
//! produce.update_quota(&QuotaEntity::client_id("batch"), Some(50_000.0))?;
//!
//! let r = produce.resolve("alice", "batch");
//! assert_eq!(r.rung(), Some(Rung::DefaultUser));
//! assert_eq!(r.limit(), Some(1_000_000.0));
//! // users/<default> gives each user one budget for all their clients.
//! assert_eq!(r.metric_tags, Some(MetricTags::new("alice", "")));
//! assert_eq!(r.mbean_name().as_deref(), Some("kafka.server:type=Produce,user=alice"));
//! # Ok::<(), quota_engine::Error>(())
//! ```
//!
//! Kafka: `ClientQuotaManager` with `DefaultQuotaCallback`
//! (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`,
//! older `core/src/main/scala/kafka/server/ClientQuotaManager.scala`). The
//! behaviour is the newer Java one: a flag is cleared when the last entity of
//! its kind is removed.

pub mod answer;
mod budget;
mod ladder;
mod callback;
mod callbacks;
pub mod human;
mod resolution;

pub use budget::{BudgetGroup, BudgetGroups, ClientIdentity};
pub use ladder::{EntityKind, QuotaTypeFlags, Rung};
pub use callback::{DefaultQuotaCallback, SensorState};
pub use callbacks::{resolve_all, QuotaCallbacks};
pub use resolution::{
    Matched, MetricTags, NotApplicable, Resolution, RungCheck, RungOutcome, TagDecision,
    UNLIMITED_BOUND,
};

#[cfg(test)]
mod proptests;
