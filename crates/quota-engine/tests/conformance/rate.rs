//! Conformance for the `rate` family: `Sensor` + `Rate(WindowedSum)` with an
//! upper-bound quota, `QuotaUtils.throttleTime` / `boundedThrottleTime`.
//!
//! Source: rate.json, produced by Kafka's `Sensor`, `Rate`, `SampledStat`,
//! `WindowedSum`, `QuotaUtils` (see the vectors' README).

use quota_engine::metrics::{
    bounded_throttle_time_ms, Admission, QuotaWindow, RateSensor, WindowedRate,
};
use serde_json::{json, Value};

use crate::common::{f64_of, Outcome};

const REL: f64 = 1e-9;

/// Replays one case of `rate.json`.
pub fn replay(case: &Value) -> Outcome {
    let mut o = Outcome::default();
    let config = &case["config"];
    let (Some(samples), Some(window_ms), Some(bound), Some(max_throttle_ms)) = (
        config["samples"].as_u64(),
        config["window_ms"].as_i64(),
        f64_of(&config["quota_bound"]),
        config["max_throttle_ms"].as_i64(),
    ) else {
        o.fail(format!("malformed config {config}"));
        return o;
    };
    let window = match u32::try_from(samples)
        .map_err(|e| e.to_string())
        .and_then(|s| QuotaWindow::try_new(s, window_ms).map_err(|e| e.to_string()))
    {
        Ok(w) => w,
        Err(e) => {
            o.fail(format!("config rejected: {e}"));
            return o;
        }
    };
    let mut sensor = match RateSensor::bandwidth(window, bound) {
        Ok(s) => s,
        Err(e) => {
            o.fail(format!("config rejected: {e}"));
            return o;
        }
    };
    let debug = case["debug_state"].as_bool().unwrap_or(false);
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
                if ev["check"].as_bool().unwrap_or(false) {
                    let admission = sensor.record(t, v);
                    compare_admission(&mut o, &step, ev, &admission, max_throttle_ms);
                    let measure = sensor.measure(t);
                    let window_size_ms = sensor.window_size_ms(t);
                    close_field(&mut o, &step, "measure", &ev["measure"], measure);
                    o.eq(
                        &step,
                        "window_size_ms",
                        &ev["window_size_ms"],
                        &json!(window_size_ms),
                    );
                } else {
                    sensor.record_unchecked(t, v);
                }
            }
            "measure" => {
                let Some(t) = ev["t"].as_i64() else {
                    o.fail(format!("{step}: malformed measure {ev}"));
                    continue;
                };
                let measure = sensor.measure(t);
                let window_size_ms = sensor.window_size_ms(t);
                close_field(&mut o, &step, "measure", &ev["measure"], measure);
                o.eq(
                    &step,
                    "window_size_ms",
                    &ev["window_size_ms"],
                    &json!(window_size_ms),
                );
            }
            "set_quota" => {
                let Some(b) = f64_of(&ev["bound"]) else {
                    o.fail(format!("{step}: malformed set_quota {ev}"));
                    continue;
                };
                if let Err(e) = sensor.set_quota(b) {
                    o.fail(format!("{step}: set_quota rejected: {e}"));
                }
            }
            other => {
                o.fail(format!("{step}: unknown op {other:?}"));
                continue;
            }
        }
        if debug {
            compare_state(&mut o, &step, &ev["state"], sensor.rate());
        }
    }
    o
}

fn compare_admission(o: &mut Outcome, step: &str, ev: &Value, a: &Admission, max_throttle_ms: i64) {
    o.eq(step, "violated", &ev["violated"], &json!(a.is_throttled()));
    match a {
        Admission::Throttled {
            throttle_ms,
            observed,
            bound,
            window_ms,
        } => {
            close_field(o, step, "observed", &ev["observed"], *observed);
            close_field(o, step, "bound", &ev["bound"], *bound);
            o.eq(step, "throttle_ms", &ev["throttle_ms"], &json!(throttle_ms));
            let bounded = bounded_throttle_time_ms(*observed, *bound, *window_ms, max_throttle_ms);
            o.eq(
                step,
                "bounded_throttle_ms",
                &ev["bounded_throttle_ms"],
                &json!(bounded),
            );
        }
        Admission::Accepted { .. } => {
            o.eq(step, "observed", &ev["observed"], &Value::Null);
            o.eq(step, "bound", &ev["bound"], &Value::Null);
            o.eq(step, "throttle_ms", &ev["throttle_ms"], &json!(0));
            o.eq(
                step,
                "bounded_throttle_ms",
                &ev["bounded_throttle_ms"],
                &json!(0),
            );
        }
    }
}

fn close_field(o: &mut Outcome, step: &str, field: &str, expected: &Value, got: f64) {
    match f64_of(expected) {
        Some(e) => o.close(step, field, e, got, REL),
        None => o.eq(step, field, expected, &json!(got)),
    }
}

/// `state`: `[current_index, [[start_ms, last_event_ms, value, event_count], ...]]`.
fn compare_state(o: &mut Outcome, step: &str, expected: &Value, rate: &WindowedRate) {
    let (Some(index), Some(list)) = (expected[0].as_u64(), expected[1].as_array()) else {
        o.fail(format!("{step}: malformed state {expected}"));
        return;
    };
    o.eq(
        step,
        "state.current_index",
        &json!(index),
        &json!(rate.current_index()),
    );
    o.eq(
        step,
        "state.len",
        &json!(list.len()),
        &json!(rate.samples().len()),
    );
    for (j, (want, got)) in list.iter().zip(rate.samples()).enumerate() {
        o.eq(
            step,
            &format!("state[{j}].start_ms"),
            &want[0],
            &json!(got.start_ms),
        );
        o.eq(
            step,
            &format!("state[{j}].last_event_ms"),
            &want[1],
            &json!(got.last_event_ms),
        );
        close_field(o, step, &format!("state[{j}].value"), &want[2], got.value);
        o.eq(
            step,
            &format!("state[{j}].event_count"),
            &want[3],
            &json!(got.event_count),
        );
    }
}
