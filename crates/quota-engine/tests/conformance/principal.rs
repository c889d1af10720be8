//! Conformance for the `principal` family: `SslPrincipalMapper`,
//! `KerberosName` + `KerberosShortNamer` (with `ConfigDef` LIST parsing) and
//! `Sanitizer`, compared field by field with what Kafka's classes returned.
//!
//! Source: `tests/fixtures/kafka-vectors/principal.json` (see the vectors README).

use quota_engine::principal::{
    desanitize, jmx_sanitize, parse_config_list, sanitize, KerberosName, KerberosShortNamer,
    PrincipalError, SslPrincipalMapper,
};
use serde_json::{json, Map, Value};

use crate::common::Outcome;

/// Replays one case of `principal.json`.
pub fn replay(case: &Value) -> Outcome {
    let mut o = Outcome::default();
    match case.get("kind").and_then(Value::as_str) {
        Some("ssl_principal_mapper") => ssl(case, &mut o),
        Some("kerberos_short_namer") => kerberos(case, &mut o),
        Some("sanitizer") => sanitizer(case, &mut o),
        other => o.fail(format!("unknown kind {other:?}")),
    }
    o
}

fn error_json(e: &PrincipalError) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("ok".into(), json!(false));
    m.insert("error_class".into(), json!(e.class().java_name()));
    m.insert("message".into(), json!(e.message()));
    m
}

/// Compares every field of `expected` (except the input fields named in
/// `inputs`) with `got`, and reports fields only `got` has.
fn compare(
    o: &mut Outcome,
    step: &str,
    expected: &Value,
    got: &Map<String, Value>,
    inputs: &[&str],
) {
    let Some(exp) = expected.as_object() else {
        o.fail(format!("{step}: expected an object, found {expected}"));
        return;
    };
    for (k, v) in exp {
        if inputs.contains(&k.as_str()) {
            continue;
        }
        match got.get(k) {
            Some(g) => o.eq(step, k, v, g),
            None => o.eq(step, k, v, &json!("<missing>")),
        }
    }
    for k in got.keys() {
        if !exp.contains_key(k) {
            o.fail(format!(
                "{step} field {k}: not in the vector, engine gave {}",
                got[k]
            ));
        }
    }
}

fn ssl(case: &Value, o: &mut Outcome) {
    let rules = case.get("rules").and_then(Value::as_str);
    let parsed = SslPrincipalMapper::from_rules(rules);
    let got_parse = match &parsed {
        Ok(m) => {
            let mut g = Map::new();
            g.insert("ok".into(), json!(true));
            g.insert("to_string".into(), json!(m.to_string()));
            g
        }
        Err(e) => error_json(e),
    };
    compare(o, "parse", &case["parse"], &got_parse, &[]);
    let mappings = case
        .get("mappings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let Ok(mapper) = parsed else {
        if !mappings.is_empty() {
            o.fail("parse failed but the vector has mappings");
        }
        return;
    };
    for (i, m) in mappings.iter().enumerate() {
        let dn = m.get("dn").and_then(Value::as_str).unwrap_or_default();
        let got = match mapper.get_name(dn) {
            Ok(name) => {
                let mut g = Map::new();
                g.insert("ok".into(), json!(true));
                g.insert("name".into(), json!(name));
                g
            }
            Err(e) => error_json(&e),
        };
        compare(o, &format!("mapping {i} ({dn:?})"), m, &got, &["dn"]);
    }
}

fn kerberos(case: &Value, o: &mut Outcome) {
    let realm = case
        .get("default_realm")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let listed: Option<Vec<String>> = case.get("rules").and_then(Value::as_array).map(|a| {
        a.iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect()
    });
    let rules = match case.get("config_string").and_then(Value::as_str) {
        Some(cs) => {
            let from_config = parse_config_list(cs);
            o.eq(
                "config_string",
                "rules",
                &case["rules"],
                &json!(from_config),
            );
            Some(from_config)
        }
        None => listed,
    };
    let parsed = KerberosShortNamer::from_unparsed_rules(realm, rules.as_deref());
    let got_parse = match &parsed {
        Ok(n) => {
            let mut g = Map::new();
            g.insert("ok".into(), json!(true));
            g.insert("to_string".into(), json!(n.to_string()));
            g
        }
        Err(e) => error_json(e),
    };
    compare(o, "parse", &case["parse"], &got_parse, &[]);
    let mappings = case
        .get("mappings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let Ok(namer) = parsed else {
        if !mappings.is_empty() {
            o.fail("parse failed but the vector has mappings");
        }
        return;
    };
    for (i, m) in mappings.iter().enumerate() {
        let principal = m
            .get("principal")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let got = match KerberosName::parse(principal) {
            Err(e) => {
                let mut g = error_json(&e);
                g.insert("stage".into(), json!("KerberosName.parse"));
                g
            }
            Ok(name) => {
                let mut g = Map::new();
                g.insert(
                    "parsed".into(),
                    json!({"service": name.service_name, "host": name.host_name, "realm": name.realm}),
                );
                match namer.short_name(&name) {
                    Ok(short) => {
                        g.insert("ok".into(), json!(true));
                        g.insert("short_name".into(), json!(short));
                    }
                    Err(e) => {
                        g.extend(error_json(&e));
                        g.insert("stage".into(), json!("shortName"));
                    }
                }
                g
            }
        };
        compare(
            o,
            &format!("mapping {i} ({principal:?})"),
            m,
            &got,
            &["principal"],
        );
    }
}

fn sanitizer(case: &Value, o: &mut Outcome) {
    let input = case
        .get("input")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let sanitized = sanitize(input);
    o.eq(
        "sanitize",
        "sanitized",
        &case["sanitized"],
        &json!(sanitized),
    );
    let roundtrip = desanitize(&sanitized).map_err(|e| e.to_string());
    let roundtrip = match roundtrip {
        Ok(s) => json!(s),
        Err(e) => json!(format!("error: {e}")),
    };
    o.eq(
        "desanitize(sanitize)",
        "desanitized_roundtrip",
        &case["desanitized_roundtrip"],
        &roundtrip,
    );
    o.eq(
        "jmxSanitize",
        "jmx_sanitized",
        &case["jmx_sanitized"],
        &json!(jmx_sanitize(input)),
    );
    let got = match desanitize(input) {
        Ok(r) => {
            let mut g = Map::new();
            g.insert("ok".into(), json!(true));
            g.insert("result".into(), json!(r));
            g
        }
        Err(e) => error_json(&e),
    };
    compare(o, "desanitize", &case["desanitize_input"], &got, &[]);
}
