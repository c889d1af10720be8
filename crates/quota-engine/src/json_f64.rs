//! Serde for quota values that JSON cannot hold as numbers.
//!
//! Kafka accepts `NaN` for every quota key (`ClientQuotaControlManager`
//! validates a DOUBLE with `Double.parseDouble` and checks only the range
//! of a LONG, which NaN passes), but JSON has no NaN or infinity: serde_json
//! writes `null`, which then cannot be read back. Values here are written
//! as numbers when finite and as the strings `"NaN"`, `"Infinity"` and
//! `"-Infinity"` (Java's `Double.toString` spellings) otherwise; reading
//! takes either form.
//!
//! Use with `#[serde(with = "quota_engine::json_f64")]` on an `f64`, or
//! [`map`] on a map of them.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;
use std::fmt;

/// Writes `v`: a JSON number, or `"NaN"` / `"Infinity"` / `"-Infinity"`.
///
/// # Errors
///
/// Only the serializer's own.
pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(*v)
    } else if v.is_nan() {
        s.serialize_str("NaN")
    } else if *v > 0.0 {
        s.serialize_str("Infinity")
    } else {
        s.serialize_str("-Infinity")
    }
}

struct F64Visitor;

impl Visitor<'_> for F64Visitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, or \"NaN\", \"Infinity\" or \"-Infinity\"")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
}

/// Reads a value written by [`serialize`] (or any JSON number).
///
/// # Errors
///
/// Another string or type: "invalid value: string \"x\", expected a number,
/// or \"NaN\", \"Infinity\" or \"-Infinity\"".
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(F64Visitor)
}

/// The same for a map of values (`{"producer_byte_rate": "NaN"}`).
pub mod map {
    use serde::de::Deserializer;
    use serde::ser::{SerializeMap, Serializer};
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize)]
    #[serde(transparent)]
    struct V(#[serde(with = "super")] f64);

    /// Writes each value as [`super::serialize`] does.
    ///
    /// # Errors
    ///
    /// Only the serializer's own.
    pub fn serialize<S: Serializer>(m: &BTreeMap<String, f64>, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_map(Some(m.len()))?;
        for (k, v) in m {
            out.serialize_entry(k, &V(*v))?;
        }
        out.end()
    }

    /// Reads values as [`super::deserialize`] does.
    ///
    /// # Errors
    ///
    /// As [`super::deserialize`], or a map of another shape.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, f64>, D::Error> {
        let m: BTreeMap<String, V> = BTreeMap::deserialize(d)?;
        Ok(m.into_iter().map(|(k, v)| (k, v.0)).collect())
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize)]
    struct One(#[serde(with = "super")] f64);

    #[test]
    fn non_finite_values_round_trip_and_numbers_stay_numbers() {
        for (v, json) in [(f64::NAN, "\"NaN\""), (f64::INFINITY, "\"Infinity\""), (f64::NEG_INFINITY, "\"-Infinity\""), (2e6, "2000000.0")] {
            let text = serde_json::to_string(&One(v)).unwrap();
            assert_eq!(text, json);
            let back: One = serde_json::from_str(&text).unwrap();
            assert!(back.0 == v || (v.is_nan() && back.0.is_nan()), "{json}");
        }
        assert_eq!(serde_json::from_str::<One>("5").unwrap().0, 5.0);
        let e = serde_json::from_str::<One>("\"lots\"").unwrap_err().to_string();
        assert!(e.starts_with("invalid value: string \"lots\", expected a number, or \"NaN\""), "{e}");
        assert!(serde_json::from_str::<One>("null").is_err());
    }
}
