//! Conformance for the `precedence` family (being written).

use serde_json::Value;

use crate::common::Outcome;

/// Replays one case of `precedence.json`.
pub fn replay(_case: &Value) -> Outcome {
    let mut o = Outcome::default();
    o.fail("the precedence family is not replayed yet");
    o
}
