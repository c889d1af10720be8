//! Conformance for the `precedence` family: replays `ClientQuotaManager`
//! runs (set / remove / query steps) through `quota_engine::resolve` and
//! compares every output field of every step.
//!
//! Source: `tests/fixtures/kafka-vectors/precedence.json`, produced by Kafka's
//! `server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`
//! (apache/kafka 5ba4a9513924f828b8a291856924bf0f745de3d3).

use quota_engine::resolve::{DefaultQuotaCallback, UNLIMITED_BOUND};
use quota_engine::{EntityName, QuotaEntity, QuotaType};
use serde_json::{json, Value};

use crate::common::{f64_of, Outcome};

/// Parses an entity object (`{"user": "alice", "client-id": null}`); `null`
/// is the default entity of that level.
fn entity_of(v: &Value) -> Result<QuotaEntity, String> {
    let obj = v
        .as_object()
        .ok_or_else(|| format!("entity {v} is not an object"))?;
    let name = |key: &str| -> Result<Option<EntityName>, String> {
        match obj.get(key) {
            None => Ok(None),
            Some(Value::Null) => Ok(Some(EntityName::Default)),
            Some(Value::String(s)) => Ok(Some(EntityName::Named(s.clone()))),
            Some(other) => Err(format!(
                "entity field {key:?} is {other}, not a string or null"
            )),
        }
    };
    if obj.keys().any(|k| k != "user" && k != "client-id") {
        return Err(format!(
            "entity {v} has a key other than \"user\" and \"client-id\""
        ));
    }
    match (name("user")?, name("client-id")?) {
        (Some(user), Some(client_id)) => Ok(QuotaEntity::UserClientId { user, client_id }),
        (Some(user), None) => Ok(QuotaEntity::User(user)),
        (None, Some(client)) => Ok(QuotaEntity::ClientId(client)),
        (None, None) => Err(format!("entity {v} is empty")),
    }
}

/// A double as JSON, `null` for `None` or Kafka's `Long.MAX_VALUE` bound.
fn bound_json(v: Option<f64>) -> Value {
    match v {
        Some(b) if b != UNLIMITED_BOUND => json!(b),
        _ => Value::Null,
    }
}

/// The expected double (or null) normalised the same way as [`bound_json`].
fn expected_bound(v: &Value) -> Value {
    if v.is_null() {
        return Value::Null;
    }
    bound_json(f64_of(v))
}

/// Replays one case of `precedence.json`.
pub fn replay(case: &Value) -> Outcome {
    let mut o = Outcome::default();
    let quota_type = match case
        .get("quota_type")
        .cloned()
        .map(serde_json::from_value::<QuotaType>)
    {
        Some(Ok(qt)) => qt,
        _ => {
            o.fail(format!(
                "quota_type {:?} is not a client quota type",
                case.get("quota_type")
            ));
            return o;
        }
    };
    let Some(steps) = case.get("steps").and_then(Value::as_array) else {
        o.fail("case has no \"steps\" array");
        return o;
    };
    let mut m = DefaultQuotaCallback::new(quota_type);
    for (i, step) in steps.iter().enumerate() {
        let op = step.get("op").and_then(Value::as_str).unwrap_or("");
        let label = format!("step {i} ({op})");
        match op {
            "set" | "remove" => {
                let entity = match step.get("entity").map(entity_of) {
                    Some(Ok(e)) => e,
                    Some(Err(e)) => {
                        o.fail(format!("{label}: {e}"));
                        continue;
                    }
                    None => {
                        o.fail(format!("{label}: no entity"));
                        continue;
                    }
                };
                let value = if op == "set" {
                    match step.get("value").and_then(f64_of) {
                        Some(v) => Some(v),
                        None => {
                            o.fail(format!("{label}: no numeric value"));
                            continue;
                        }
                    }
                } else {
                    None
                };
                match m.update_quota(&entity, value) {
                    Ok(flags) => o.eq(
                        &label,
                        "quota_types_enabled",
                        &step["quota_types_enabled"],
                        &json!(flags.bits()),
                    ),
                    Err(e) => o.fail(format!("{label}: {e}")),
                }
            }
            "query" => {
                let (Some(user), Some(client_id)) = (
                    step.get("user").and_then(Value::as_str),
                    step.get("client_id").and_then(Value::as_str),
                ) else {
                    o.fail(format!("{label}: user / client_id missing"));
                    continue;
                };
                let r = m.resolve(user, client_id);
                let sensor = m.get_or_create_sensor(user, client_id);
                o.eq(
                    &label,
                    "sanitized_user",
                    &step["sanitized_user"],
                    &json!(r.sanitized_user),
                );
                o.eq(
                    &label,
                    "quotas_enabled",
                    &step["quotas_enabled"],
                    &json!(m.quotas_enabled()),
                );
                o.eq(
                    &label,
                    "quota_types_enabled",
                    &step["quota_types_enabled"],
                    &json!(r.quota_types_enabled.bits()),
                );
                o.eq(
                    &label,
                    "metric_tags",
                    &step["metric_tags"],
                    &serde_json::to_value(&r.metric_tags).unwrap_or(Value::Null),
                );
                o.eq(
                    &label,
                    "sensor_name",
                    &step["sensor_name"],
                    &json!(r.sensor_name()),
                );
                o.eq(
                    &label,
                    "quota_limit",
                    &expected_bound(&step["quota_limit"]),
                    &bound_json(Some(r.bound())),
                );
                o.eq(
                    &label,
                    "sensor_bound",
                    &expected_bound(&step["sensor_bound"]),
                    &bound_json(sensor.as_ref().map(|s| s.bound)),
                );
                // The sensor the broker created must carry the resolved tags.
                if let Some(s) = &sensor {
                    if Some(&s.metric_tags) != r.metric_tags.as_ref()
                        || Some(&s.name) != r.sensor_name().as_ref()
                    {
                        o.fail(format!(
                            "{label}: sensor {} does not carry the resolved tags",
                            s.name
                        ));
                    }
                }
            }
            other => o.fail(format!("{label}: unknown op {other:?}")),
        }
    }
    o
}
