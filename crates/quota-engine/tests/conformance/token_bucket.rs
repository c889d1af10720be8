//! Conformance for the `token_bucket` family: the controller-mutation quota's
//! `TokenBucket` in strict and permissive mode.
//!
//! Source: token_bucket.json, produced by Kafka's `Sensor`, `TokenBucket`,
//! `StrictControllerMutationQuota`, `PermissiveControllerMutationQuota`
//! (see the vectors' README).

use quota_engine::metrics::{MutationMode, MutationSensor, QuotaWindow};
use serde_json::{json, Value};

use crate::common::{f64_of, Outcome};

const REL: f64 = 1e-9;

/// Replays one case of `token_bucket.json`.
pub fn replay(case: &Value) -> Outcome {
    let mut o = Outcome::default();
    let mode = match case["mode"].as_str() {
        Some("strict") => MutationMode::Strict,
        Some("permissive") => MutationMode::Permissive,
        other => {
            o.fail(format!("unknown mode {other:?}"));
            return o;
        }
    };
    let config = &case["config"];
    let (Some(samples), Some(window_ms), Some(bound)) = (
        config["samples"].as_u64(),
        config["window_ms"].as_i64(),
        f64_of(&config["quota_bound"]),
    ) else {
        o.fail(format!("malformed config {config}"));
        return o;
    };
    let sensor = u32::try_from(samples)
        .map_err(|e| e.to_string())
        .and_then(|s| QuotaWindow::try_new(s, window_ms).map_err(|e| e.to_string()))
        .and_then(|w| MutationSensor::try_new(w, bound).map_err(|e| e.to_string()));
    let mut sensor = match sensor {
        Ok(s) => s,
        Err(e) => {
            o.fail(format!("config rejected: {e}"));
            return o;
        }
    };
    if let Some(burst) = f64_of(&config["burst"]) {
        o.close("config", "burst", burst, sensor.bucket().burst(), REL);
    }
    let Some(events) = case["events"].as_array() else {
        o.fail("case has no events array");
        return o;
    };
    for (i, ev) in events.iter().enumerate() {
        let op = ev["op"].as_str().unwrap_or("");
        let step = format!("step {i} ({op})");
        match op {
            "record" => {
                let (Some(t), Some(v)) = (ev["t"].as_i64(), f64_of(&ev["v"])) else {
                    o.fail(format!("{step}: malformed record {ev}"));
                    continue;
                };
                let admission = sensor.record(mode, t, v);
                o.eq(
                    &step,
                    "accepted",
                    &ev["accepted"],
                    &json!(admission.is_accepted()),
                );
                o.eq(
                    &step,
                    "throttle_ms",
                    &ev["throttle_ms"],
                    &json!(admission.throttle_ms()),
                );
                let tokens = sensor.tokens(t);
                close_field(&mut o, &step, "tokens", &ev["tokens"], tokens);
            }
            "measure" => {
                let Some(t) = ev["t"].as_i64() else {
                    o.fail(format!("{step}: malformed measure {ev}"));
                    continue;
                };
                let tokens = sensor.tokens(t);
                close_field(&mut o, &step, "tokens", &ev["tokens"], tokens);
            }
            "set_quota" => {
                let Some(b) = f64_of(&ev["bound"]) else {
                    o.fail(format!("{step}: malformed set_quota {ev}"));
                    continue;
                };
                if let Err(e) = sensor.set_quota(b) {
                    o.fail(format!("{step}: set_quota rejected: {e}"));
                    continue;
                }
                if let Some(burst) = f64_of(&ev["burst"]) {
                    o.close(&step, "burst", burst, sensor.bucket().burst(), REL);
                }
            }
            other => o.fail(format!("{step}: unknown op {other:?}")),
        }
    }
    o
}

fn close_field(o: &mut Outcome, step: &str, field: &str, expected: &Value, got: f64) {
    match f64_of(expected) {
        Some(e) => o.close(step, field, e, got, REL),
        None => o.eq(step, field, expected, &json!(got)),
    }
}
