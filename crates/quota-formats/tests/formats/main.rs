//! Integration tests of quota-formats: the lab article's commands, the
//! real-world inputs, round trips, no-panic properties and error wording.

mod common;
mod lab;
mod no_panic;
mod real_inputs;
mod roundtrip;
mod snapshots;
