//! Advice, not only answers: what to set so that a quota applies, quotas
//! that almost apply, and what a limit means for a broker and a cluster.
//!
//! Everything here is computed with the precedence ladder of
//! [`crate::resolve`] (Kafka's `DefaultQuotaCallback`), never with rules of
//! thumb:
//!
//! - [`propose`] ([`proposal`]): for a connection (or a set of them), a quota
//!   type and a wanted limit, the entities that would give the connection
//!   that limit, most specific first. Each candidate is added to a *copy* of
//!   the store and the connection is resolved again; only candidates that
//!   then apply with the wanted value are proposed. Each [`Proposal`] says
//!   who else it covers, which existing quotas it shadows and which shadow
//!   it.
//! - [`near_misses`] ([`near_miss`]): quotas whose entity is one edit away
//!   from the connection (raw vs sanitized DN, part of a DN, a `User:`
//!   prefix, case, surrounding spaces, a one-character typo).
//! - [`request_capacity`] and [`byte_rate_scope`] ([`capacity`]): a
//!   `request_percentage` as a share of a broker's thread capacity, and a
//!   byte rate per broker and for the cluster.
//! - [`display_exact`] and [`ExactPath`] ([`exact`]): a name literally
//!   spelled `<default>` printed apart from the default entity.
//!
//! Kafka: `ClientQuotaManager` and `DefaultQuotaCallback`
//! (`server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`),
//! `ClientRequestQuotaManager`
//! (`core/src/main/scala/kafka/server/ClientRequestQuotaManager.scala`),
//! `Sanitizer` (`clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java`).

pub mod capacity;
pub mod exact;
pub mod near_miss;
pub mod proposal;
pub mod wanted;

pub use capacity::{
    byte_rate_scope, human_bytes, request_capacity, ByteRateScope, RequestCapacity,
};
pub use exact::{display_exact, ExactPath};
pub use near_miss::{near_misses, MissKind, NearMiss};
pub use wanted::{parse_wanted, WantedError};
pub use proposal::{propose, Advice, ConnectionEffect, Proposal, Rejected, Scope, Shadowing};
