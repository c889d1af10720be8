//! Conformance for the `token_bucket` family (being written).

use serde_json::Value;

use crate::common::Outcome;

/// Replays one case of `token_bucket.json`.
pub fn replay(_case: &Value) -> Outcome {
    let mut o = Outcome::default();
    o.fail("the token_bucket family is not replayed yet");
    o
}
