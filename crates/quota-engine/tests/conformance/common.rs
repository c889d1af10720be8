//! Shared helpers for the conformance families.

use serde_json::Value;

/// The result of replaying one case: how many fields were compared, and a
/// readable line for each mismatch (`step 3 (query) field metric_tags: expected .., got ..`).
#[derive(Debug, Default)]
pub struct Outcome {
    /// Number of output fields compared.
    pub checks: usize,
    /// One line per mismatching field.
    pub diffs: Vec<String>,
}

#[allow(dead_code)]
impl Outcome {
    /// Compares two JSON values for equality and records a check.
    pub fn eq(&mut self, step: &str, field: &str, expected: &Value, got: &Value) {
        self.checks += 1;
        if expected != got {
            self.diffs.push(format!("{step} field {field}: expected {expected}, got {got}"));
        }
    }

    /// Compares two doubles within `rel` relative tolerance (exact for
    /// non-finite values) and records a check.
    pub fn close(&mut self, step: &str, field: &str, expected: f64, got: f64, rel: f64) {
        self.checks += 1;
        let ok = if expected.is_finite() && got.is_finite() {
            expected == got || (expected - got).abs() <= rel * expected.abs().max(got.abs())
        } else {
            expected.to_bits() == got.to_bits() || (expected.is_nan() && got.is_nan())
        };
        if !ok {
            self.diffs.push(format!("{step} field {field}: expected {expected:?}, got {got:?}"));
        }
    }

    /// Records a failure that is not a field comparison (malformed case, ...).
    pub fn fail(&mut self, msg: impl Into<String>) {
        self.diffs.push(msg.into());
    }
}

/// Reads a double as written in the vectors: a JSON number, or one of the
/// strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
#[allow(dead_code)]
pub fn f64_of(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}
