//! Conformance for the `validation` family: `ClientQuotaControlManager`
//! alteration rules, stage by stage, plus the response and the records.
//!
//! Source: `tests/fixtures/kafka-vectors/validation.json` (see its README),
//! produced by `metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`.

use quota_engine::store::validate::{
    config_keys_for_entity_type, validate_entity, validate_quota_key_value, EntityMap,
};
use quota_engine::store::{Alteration, ApiError, Op, QuotaStore, RawEntity};
use serde_json::{json, Map, Value};

use crate::common::{f64_of, Outcome};

/// A double as the vectors write it: a JSON number, or `"NaN"` /
/// `"Infinity"` / `"-Infinity"`.
fn double_json(v: f64) -> Value {
    if v.is_nan() {
        json!("NaN")
    } else if v.is_infinite() {
        json!(if v > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        json!(v)
    }
}

fn entity_json(e: &RawEntity) -> Value {
    Value::Array(e.0.iter().map(|(t, n)| json!([t, n])).collect())
}

/// The outcome fields every stage and result carries.
fn outcome_fields(error: Option<&ApiError>) -> Map<String, Value> {
    let mut m = Map::new();
    match error {
        None => {
            m.insert("ok".into(), json!(true));
            m.insert("error".into(), json!("NONE"));
            m.insert("error_code".into(), json!(0));
            m.insert("message".into(), Value::Null);
        }
        Some(e) => {
            m.insert("ok".into(), json!(false));
            m.insert("error".into(), json!(e.code.name()));
            m.insert("error_code".into(), json!(e.code.code()));
            m.insert("message".into(), json!(e.message));
        }
    }
    m
}

fn parse_entity(v: &Value) -> Result<RawEntity, String> {
    let pairs = v.as_array().ok_or("entity is not an array")?;
    let mut out = Vec::new();
    for p in pairs {
        let t = p
            .get(0)
            .and_then(Value::as_str)
            .ok_or("entity pair has no type string")?;
        let n = match p.get(1) {
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            _ => return Err("entity pair name is neither a string nor null".into()),
        };
        out.push((t.to_owned(), n));
    }
    Ok(RawEntity(out))
}

fn parse_alterations(v: Option<&Value>) -> Result<Vec<Alteration>, String> {
    let list = v.and_then(Value::as_array).ok_or("alterations list missing")?;
    let mut out = Vec::new();
    for a in list {
        let entity = parse_entity(a.get("entity").ok_or("alteration has no entity")?)?;
        let mut ops = Vec::new();
        for op in a.get("ops").and_then(Value::as_array).ok_or("alteration has no ops")? {
            let key = op.get("key").and_then(Value::as_str).ok_or("op has no key")?.to_owned();
            let remove = op
                .get("remove")
                .and_then(Value::as_bool)
                .ok_or("op has no remove flag")?;
            let value = if remove {
                None
            } else {
                Some(op.get("value").and_then(f64_of).ok_or("set op has no double value")?)
            };
            ops.push(Op { key, value });
        }
        out.push(Alteration { entity, ops });
    }
    Ok(out)
}

/// The `checks` object Kafka's stages give for one alteration; stages that
/// are not reached are absent.
fn stage_checks(alteration: &Alteration) -> Value {
    let mut out = Map::new();
    let entity = EntityMap::from_wire(&alteration.entity);
    let validated = validate_entity(&entity);
    out.insert(
        "validate_entity".into(),
        Value::Object(outcome_fields(validated.as_ref().err())),
    );
    let Ok(validated) = validated else {
        return Value::Object(out);
    };
    let keys = config_keys_for_entity_type(&validated);
    let mut fields = outcome_fields(keys.as_ref().err());
    if let Ok(keys) = keys {
        let mut sorted: Vec<_> = keys.iter().map(|k| (k.as_str(), k.config_type().as_str())).collect();
        sorted.sort();
        let valid: Map<String, Value> = sorted.into_iter().map(|(k, t)| (k.to_owned(), json!(t))).collect();
        fields.insert("valid_keys".into(), Value::Object(valid));
        out.insert("config_keys_for_entity_type".into(), Value::Object(fields));
        let per_op: Vec<Value> = alteration
            .ops
            .iter()
            .filter_map(|op| op.value.map(|v| (op, v)))
            .map(|(op, v)| {
                let mut m = Map::new();
                m.insert("key".into(), json!(op.key));
                m.insert("value".into(), double_json(v));
                m.extend(outcome_fields(
                    validate_quota_key_value(keys, &op.key, v).err().as_ref(),
                ));
                Value::Object(m)
            })
            .collect();
        out.insert("validate_quota_key_value".into(), Value::Array(per_op));
    } else {
        out.insert("config_keys_for_entity_type".into(), Value::Object(fields));
    }
    Value::Object(out)
}

/// Compares two JSON objects field by field (missing on either side counts).
fn compare_object(o: &mut Outcome, step: &str, expected: &Value, got: &Value) {
    let (Some(e), Some(g)) = (expected.as_object(), got.as_object()) else {
        o.eq(step, "<object>", expected, got);
        return;
    };
    let mut keys: Vec<&String> = e.keys().chain(g.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let ev = e.get(k).unwrap_or(&Value::Null);
        let gv = g.get(k).unwrap_or(&Value::Null);
        if e.contains_key(k) != g.contains_key(k) {
            o.checks += 1;
            o.fail(format!(
                "{step} field {k}: present in expected: {}, in ours: {}",
                e.contains_key(k),
                g.contains_key(k)
            ));
            continue;
        }
        match (ev, gv) {
            (Value::Array(ea), Value::Array(ga))
                if ea.iter().all(Value::is_object) && ga.iter().all(Value::is_object) && !ea.is_empty() =>
            {
                o.eq(step, &format!("{k}.len"), &json!(ea.len()), &json!(ga.len()));
                for (i, (x, y)) in ea.iter().zip(ga).enumerate() {
                    compare_object(o, &format!("{step} {k}[{i}]"), x, y);
                }
            }
            (Value::Object(_), Value::Object(_)) if k != "valid_keys" => {
                compare_object(o, &format!("{step} {k}"), ev, gv)
            }
            _ => o.eq(step, k, ev, gv),
        }
    }
}

/// Replays one case of `validation.json`.
pub fn replay(case: &Value) -> Outcome {
    let mut o = Outcome::default();
    let setup = match parse_alterations(case.get("setup")) {
        Ok(s) => s,
        Err(e) => {
            o.fail(format!("setup: {e}"));
            return o;
        }
    };
    let alterations = match parse_alterations(case.get("alterations")) {
        Ok(a) => a,
        Err(e) => {
            o.fail(format!("alterations: {e}"));
            return o;
        }
    };
    let mut store = QuotaStore::new();
    for (i, r) in store.alter(&setup).iter().enumerate() {
        if let Some(e) = &r.error {
            o.fail(format!("setup {i}: expected success, got {e}"));
        }
    }

    // Stage checks, one object per alteration.
    let expected_checks = case
        .get("checks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    o.eq(
        "checks",
        "len",
        &json!(expected_checks.len()),
        &json!(alterations.len()),
    );
    for (i, (exp, alt)) in expected_checks.iter().zip(&alterations).enumerate() {
        compare_object(&mut o, &format!("checks[{i}]"), exp, &stage_checks(alt));
    }

    // Response and records.
    let plan = store.plan(&alterations);
    let results: Vec<Value> = plan
        .results
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("entity".into(), entity_json(&r.entity));
            m.insert("entity_string".into(), json!(r.entity_string));
            m.extend(outcome_fields(r.error.as_ref()));
            Value::Object(m)
        })
        .collect();
    let records: Vec<Value> = plan
        .records
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("entity".into(), entity_json(&r.entity_pairs()));
            m.insert("key".into(), json!(r.key.as_str()));
            m.insert("remove".into(), json!(r.value.is_none()));
            if let Some(v) = r.value {
                m.insert("value".into(), double_json(v));
            }
            Value::Object(m)
        })
        .collect();
    for (name, got) in [("results", results), ("records", records)] {
        let expected = case.get(name).and_then(Value::as_array).cloned().unwrap_or_default();
        o.eq(name, "len", &json!(expected.len()), &json!(got.len()));
        for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
            compare_object(&mut o, &format!("{name}[{i}]"), e, g);
        }
    }
    o
}
