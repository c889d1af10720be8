//! Kafka client quotas in the formats operators already have.
//!
//! - [`configs_sh`]: `kafka-configs.sh` command lines, applied to a
//!   [`quota_engine::QuotaStore`] with the 4.x tool's exact output and
//!   failures ([`configs_sh::Mode::Strict`]) or read leniently from real
//!   runbooks ([`configs_sh::Mode::Import`]).
//! - [`describe`]: `kafka-configs.sh --describe` output, printed as 4.x
//!   prints it and parsed back (every wording since Kafka 0.9).
//! - [`java`], [`strimzi`], [`terraform`], [`rpk`]: the other formats, read
//!   into and written from [`interchange`]'s types; [`scenario`]: the
//!   playground's scenario JSON; [`scenario_text`]: a scenario as the
//!   lines a documentation page shows (kafka-configs.sh commands and a
//!   connection line).
//! - [`detect`]: which format a text is in, and one entry point to import
//!   or export any of them.
//! - [`permalink`]: a scenario in the fragment of a playground URL.
//!
//! Every parser reports problems as one [`Error`] type: line, column, what
//! was expected and what was found, displayed as a full sentence; a link
//! that cannot be read is an [`Error`] too ([`ErrorKind::Permalink`]).
#![warn(missing_docs, unreachable_pub)]

pub mod configs_sh;
pub mod describe;
pub mod detect;
pub mod error;
pub mod interchange;
pub mod java;
pub mod limits;
pub mod monitoring;
pub mod permalink;
pub mod rpk;
pub mod scenario;
pub mod scenario_text;
// Writing Strimzi and Terraform is plain text and always built; reading them
// needs the `yaml` / `hcl` features (saphyr, hcl-rs).
pub mod strimzi;
pub mod terraform;

pub use error::{Error, ErrorKind, LinkProblem, Position};
