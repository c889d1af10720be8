//! Strimzi, Terraform, rpk, Java and scenario JSON: real inputs, round
//! trips of every format, and parsers that never panic.

mod real_inputs;
mod roundtrip;

// The fixture helpers are shared with the `formats` test binary.
#[path = "../formats/common.rs"]
mod common;
pub use common::{fixtures, items, read_fixture};
