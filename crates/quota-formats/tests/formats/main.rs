//! Integration tests of quota-formats, one test binary: the lab article's
//! commands, the real-world inputs, round trips, no-panic properties and
//! error wording of kafka-configs.sh and describe output; [`interchange`]
//! does the same for Strimzi, Terraform, rpk, Java and scenario JSON.

mod common;
mod interchange;
mod lab;
mod link_corpus;
mod no_panic;
mod real_inputs;
mod roundtrip;
mod scenario_text;
mod snapshots;
