//! Strimzi, Terraform, rpk, Java and scenario JSON: real inputs, round
//! trips of every format, and parsers that never panic.

mod real_inputs;
mod roundtrip;
#[cfg(feature = "yaml")]
mod strimzi_crd;
mod terraform_fmt;

pub use crate::common::{fixtures, items, read_fixture};
