//! The individual rules of Kafka's quota alteration, one function per Kafka
//! method, so each stage can be checked against Kafka on its own.
//!
//! Kafka: `ClientQuotaControlManager` (`validateEntity`,
//! `configKeysForEntityType`, `validateQuotaKeyValue`,
//! `getErrorForIntegralQuotaValue`, `isValidIpEntity`) in
//! `metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`,
//! and `AlterClientQuotasRequest.entries()` /
//! `ClientQuotaEntity` in `clients/src/main/java/org/apache/kafka/common/`.
//!
//! [`QuotaStore::alter`](crate::store::QuotaStore::alter) chains these
//! stages exactly as Kafka does; call them directly to explain one outcome.

use std::fmt::Write as _;

use super::{ApiError, RawEntity};
use crate::entity::{ConfigType, EntityName, EntityType, QuotaEntity, QuotaKey};
use crate::jdk::hashmap::JavaHashMap;

pub use super::ip::{classify_ip_host, IpAddress, IpHost};

/// A quota entity as Kafka holds it: a `HashMap<String, String>` from
/// entity type to name (`None` = the default entity), iterated in Java's
/// `HashMap` order.
///
/// Equality is map equality (order does not matter), as for Kafka's
/// `ClientQuotaEntity.equals`.
#[derive(Debug, Clone)]
pub struct EntityMap {
    map: JavaHashMap<Option<String>>,
}

impl EntityMap {
    /// Builds the entity exactly as `AlterClientQuotasRequest.entries()`
    /// does: `new HashMap<>(pairs.len())`, then `put` for each pair in wire
    /// order, so a repeated type keeps its first position and its last name.
    ///
    /// Kafka: `clients/src/main/java/org/apache/kafka/common/requests/AlterClientQuotasRequest.java`.
    pub fn from_wire(entity: &RawEntity) -> Self {
        let mut map = JavaHashMap::with_capacity(len_u32(entity.0.len()));
        for (t, n) in &entity.0 {
            map.put(t.clone(), n.clone());
        }
        EntityMap { map }
    }

    /// Number of distinct entity types.
    pub fn len(&self) -> u32 {
        self.map.len()
    }

    /// True when the entity has no pair at all.
    pub fn is_empty(&self) -> bool {
        self.map.len() == 0
    }

    /// The name for `entity_type`: `None` if the type is absent,
    /// `Some(None)` for the default entity.
    pub fn get(&self, entity_type: &str) -> Option<Option<&str>> {
        self.map.get(entity_type).map(|n| n.as_deref())
    }

    /// The (type, name) pairs in Java `HashMap` iteration order.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.map.iter().map(|(k, v)| (k, v.as_deref()))
    }

    /// The pairs in Java `HashMap` iteration order, as a [`RawEntity`].
    pub fn to_raw(&self) -> RawEntity {
        RawEntity(
            self.pairs()
                .map(|(t, n)| (t.to_owned(), n.map(str::to_owned)))
                .collect(),
        )
    }

    /// `ClientQuotaEntity.toString()`, e.g.
    /// `ClientQuotaEntity(entries={client-id=c1, user=alice})`; a default
    /// name prints as `null`.
    ///
    /// Kafka: `clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaEntity.java`
    /// (`"ClientQuotaEntity(entries=" + entries + ")"`, `AbstractMap.toString`).
    pub fn client_quota_entity_string(&self) -> String {
        let mut s = String::from("ClientQuotaEntity(entries={");
        for (i, (t, n)) in self.pairs().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{}={}", t, n.unwrap_or("null"));
        }
        s.push_str("})");
        s
    }

    /// The typed entity, when the types form one of the four valid shapes
    /// (names are not checked here).
    pub fn to_quota_entity(&self) -> Option<QuotaEntity> {
        let mut parts = Vec::new();
        for (t, n) in self.pairs() {
            parts.push((EntityType::from_wire(t)?, EntityName::from_option(n)));
        }
        QuotaEntity::from_parts(&parts)
    }

    /// The map Kafka would build for `entity`'s record: the validated
    /// `new HashMap<>(3)` filled in `parts()` order.
    pub fn from_entity(entity: &QuotaEntity) -> Self {
        let mut map = JavaHashMap::with_capacity(3);
        for (t, n) in entity.parts() {
            map.put(t.as_str().to_owned(), n.as_option().map(str::to_owned));
        }
        EntityMap { map }
    }
}

impl PartialEq for EntityMap {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.pairs().all(|(t, n)| other.get(t) == Some(n))
    }
}

impl Eq for EntityMap {}

pub(crate) fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Kafka's `validateEntity`: walks the pairs in `HashMap` order and copies
/// them into a new `HashMap<>(3)` (the validated entity).
///
/// # Errors
/// All `INVALID_REQUEST`, first failure in iteration order:
/// - no pair: `Invalid empty client quota entity`;
/// - a type other than `user`, `client-id`, `ip`:
///   `Unhandled client quota entity type: <type>`;
/// - an empty name: `Empty <type> not supported`.
///
/// (Kafka also checks `duplicate entity entry <type>`, which cannot fire:
/// the entity is already a map.)
///
/// Kafka: `ClientQuotaControlManager.validateEntity`.
pub fn validate_entity(entity: &EntityMap) -> Result<EntityMap, ApiError> {
    if entity.is_empty() {
        return Err(ApiError::invalid_request("Invalid empty client quota entity"));
    }
    let mut validated = JavaHashMap::with_capacity(3);
    for (t, n) in entity.pairs() {
        if validated.contains_key(t) {
            return Err(ApiError::invalid_request(format!(
                "Invalid client quota entity, duplicate entity entry {t}"
            )));
        }
        if EntityType::from_wire(t).is_none() {
            return Err(ApiError::invalid_request(format!(
                "Unhandled client quota entity type: {t}"
            )));
        }
        validated.put(t.to_owned(), n.map(str::to_owned));
        if n == Some("") {
            return Err(ApiError::invalid_request(format!("Empty {t} not supported")));
        }
    }
    Ok(EntityMap { map: validated })
}

/// Kafka's `configKeysForEntityType`: which keys a (validated) entity may
/// set. `user` / `client-id` / both: the four client keys; `ip` alone:
/// `connection_creation_rate`.
///
/// # Errors
/// All `INVALID_REQUEST`:
/// - `ip` with `user` or `client-id`: `Invalid quota entity combination, IP
///   entity shouldnot be combined with User or ClientId` (Kafka's text,
///   missing space included);
/// - an `ip` name that is not an IP literal (see [`is_valid_ip_entity`]):
///   `<name> is not a valid IP or resolvable host.`;
/// - no known type: `Invalid empty client quota entity`.
///
/// Kafka: `ClientQuotaControlManager.configKeysForEntityType`,
/// `QuotaConfig.userAndClientQuotaConfigs()` / `ipConfigs()`.
pub fn config_keys_for_entity_type(validated: &EntityMap) -> Result<&'static [QuotaKey], ApiError> {
    let has_user = validated.get("user").is_some();
    let has_client = validated.get("client-id").is_some();
    match validated.get("ip") {
        Some(ip) => {
            if has_user || has_client {
                Err(ApiError::invalid_request(
                    "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId",
                ))
            } else if is_valid_ip_entity(ip) {
                Ok(&IP_KEYS)
            } else {
                Err(ApiError::invalid_request(format!(
                    "{} is not a valid IP or resolvable host.",
                    ip.unwrap_or("null")
                )))
            }
        }
        None if has_user || has_client => Ok(&QuotaKey::CLIENT_KEYS),
        None => Err(ApiError::invalid_request("Invalid empty client quota entity")),
    }
}

const IP_KEYS: [QuotaKey; 1] = [QuotaKey::ConnectionCreationRate];

/// Kafka's `validateQuotaKeyValue`: is `value` acceptable for `key` among
/// `valid_keys`? Returns the parsed key.
///
/// Rules in Kafka's order: the key must be valid for the entity; `value <=
/// 0` fails; DOUBLE keys accept anything else (NaN and +Infinity included);
/// INT / LONG keys reject values above `Integer.MAX_VALUE` /
/// `Long.MAX_VALUE` (compared as doubles, so `2^63` passes for LONG) and a
/// fractional part above 1e-6 (NaN passes: `NaN > 1e-6` is false).
///
/// # Errors
/// All `INVALID_REQUEST`:
/// `Invalid configuration key <key>`, `Quota <key> must be greater than 0`,
/// `Proposed value for <key> is too large for an INT.` (`a LONG.`),
/// `<key> cannot be a fractional value.`
///
/// Kafka: `ClientQuotaControlManager.validateQuotaKeyValue`.
pub fn validate_quota_key_value(valid_keys: &[QuotaKey], key: &str, value: f64) -> Result<QuotaKey, ApiError> {
    let Some(quota_key) = valid_keys.iter().copied().find(|k| k.as_str() == key) else {
        return Err(ApiError::invalid_request(format!("Invalid configuration key {key}")));
    };
    if value <= 0.0 {
        return Err(ApiError::invalid_request(format!("Quota {key} must be greater than 0")));
    }
    match quota_key.config_type() {
        ConfigType::Double => Ok(quota_key),
        ConfigType::Int => {
            if value > f64::from(i32::MAX) {
                return Err(ApiError::invalid_request(format!(
                    "Proposed value for {key} is too large for an INT."
                )));
            }
            check_integral_quota_value(value, key).map(|()| quota_key)
        }
        ConfigType::Long => {
            // Java compares against (double) Long.MAX_VALUE, which is 2^63.
            if value > i64::MAX as f64 {
                return Err(ApiError::invalid_request(format!(
                    "Proposed value for {key} is too large for a LONG."
                )));
            }
            check_integral_quota_value(value, key).map(|()| quota_key)
        }
    }
}

/// Kafka's `getErrorForIntegralQuotaValue`: `|value % 1.0| > 1e-6` is a
/// fractional value (Java's `%` on doubles, like Rust's, truncates).
///
/// # Errors
/// `INVALID_REQUEST` `<key> cannot be a fractional value.`
///
/// Kafka: `ClientQuotaControlManager.getErrorForIntegralQuotaValue`.
pub fn check_integral_quota_value(value: f64, key: &str) -> Result<(), ApiError> {
    let remainder = (value % 1.0).abs();
    if remainder > 1e-6 {
        return Err(ApiError::invalid_request(format!(
            "{key} cannot be a fractional value."
        )));
    }
    Ok(())
}

/// Kafka's `isValidIpEntity`: the default ip entity (`None`) is valid; a
/// name is valid when `InetAddress.getByName` accepts it. The engine
/// accepts exactly the IPv4 and IPv6 literal forms Java accepts
/// ([`classify_ip_host`]) and never resolves names, so host names and
/// named IPv6 zones count as invalid here.
///
/// Kafka: `ClientQuotaControlManager.isValidIpEntity`.
pub fn is_valid_ip_entity(ip: Option<&str>) -> bool {
    match ip {
        None => true,
        Some(host) => classify_ip_host(host).is_literal(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ErrorCode;

    fn raw(pairs: &[(&str, Option<&str>)]) -> RawEntity {
        RawEntity(
            pairs
                .iter()
                .map(|(t, n)| ((*t).to_owned(), n.map(str::to_owned)))
                .collect(),
        )
    }

    fn msg(r: Result<impl std::fmt::Debug, ApiError>) -> String {
        let e = r.expect_err("expected an error");
        assert_eq!(e.code, ErrorCode::InvalidRequest);
        e.message
    }

    #[test]
    fn entity_map_keeps_java_order_and_last_name() {
        let e = EntityMap::from_wire(&raw(&[("user", Some("alice")), ("user", Some("bob"))]));
        assert_eq!(e.client_quota_entity_string(), "ClientQuotaEntity(entries={user=bob})");
        let e = EntityMap::from_wire(&raw(&[("user", Some("CN=a,OU=b")), ("client-id", None)]));
        assert_eq!(
            e.client_quota_entity_string(),
            "ClientQuotaEntity(entries={client-id=null, user=CN=a,OU=b})"
        );
        let a = EntityMap::from_wire(&raw(&[("ip", Some("x")), ("user", Some("u"))]));
        let b = EntityMap::from_wire(&raw(&[("user", Some("u")), ("ip", Some("x")), ("ip", Some("x"))]));
        assert_eq!(a, b);
        assert_ne!(a, EntityMap::from_wire(&raw(&[("user", Some("u"))])));
    }

    #[test]
    fn validate_entity_messages() {
        assert_eq!(
            msg(validate_entity(&EntityMap::from_wire(&raw(&[])))),
            "Invalid empty client quota entity"
        );
        assert_eq!(
            msg(validate_entity(&EntityMap::from_wire(&raw(&[("USER", Some("a"))])))),
            "Unhandled client quota entity type: USER"
        );
        assert_eq!(
            msg(validate_entity(&EntityMap::from_wire(&raw(&[("client-id", Some(""))])))),
            "Empty client-id not supported"
        );
        // First failure in HashMap order: client-id iterates before user.
        assert_eq!(
            msg(validate_entity(&EntityMap::from_wire(&raw(&[
                ("user", Some("")),
                ("client-id", Some(""))
            ])))),
            "Empty client-id not supported"
        );
        let ok = validate_entity(&EntityMap::from_wire(&raw(&[("user", None)]))).expect("default user is valid");
        assert_eq!(ok.get("user"), Some(None));
    }

    #[test]
    fn config_keys_by_shape() {
        let v = |p: &[(&str, Option<&str>)]| validate_entity(&EntityMap::from_wire(&raw(p))).expect("valid entity");
        assert_eq!(
            config_keys_for_entity_type(&v(&[("user", Some("a"))])),
            Ok(&QuotaKey::CLIENT_KEYS[..])
        );
        assert_eq!(config_keys_for_entity_type(&v(&[("ip", None)])), Ok(&IP_KEYS[..]));
        assert_eq!(
            msg(config_keys_for_entity_type(&v(&[
                ("ip", Some("1.2.3.4")),
                ("client-id", Some("c"))
            ]))),
            "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId"
        );
        assert_eq!(
            msg(config_keys_for_entity_type(&v(&[("ip", Some("[127.0.0.1]"))]))),
            "[127.0.0.1] is not a valid IP or resolvable host."
        );
    }

    #[test]
    fn value_rules() {
        let c = &QuotaKey::CLIENT_KEYS[..];
        let ip = &IP_KEYS[..];
        assert_eq!(
            validate_quota_key_value(c, "producer_byte_rate", 1024.0),
            Ok(QuotaKey::ProducerByteRate)
        );
        assert_eq!(
            msg(validate_quota_key_value(c, "connection_creation_rate", 1.0)),
            "Invalid configuration key connection_creation_rate"
        );
        assert_eq!(
            msg(validate_quota_key_value(ip, "producer_byte_rate", 1.0)),
            "Invalid configuration key producer_byte_rate"
        );
        assert_eq!(
            msg(validate_quota_key_value(c, "request_percentage", 0.0)),
            "Quota request_percentage must be greater than 0"
        );
        assert_eq!(
            msg(validate_quota_key_value(c, "request_percentage", -0.0)),
            "Quota request_percentage must be greater than 0"
        );
        assert_eq!(
            msg(validate_quota_key_value(c, "request_percentage", f64::NEG_INFINITY)),
            "Quota request_percentage must be greater than 0"
        );
        assert!(validate_quota_key_value(c, "request_percentage", 0.5).is_ok());
        assert!(validate_quota_key_value(c, "request_percentage", f64::INFINITY).is_ok());
        assert!(validate_quota_key_value(c, "request_percentage", f64::NAN).is_ok());
        assert!(validate_quota_key_value(c, "producer_byte_rate", f64::NAN).is_ok());
        assert_eq!(
            msg(validate_quota_key_value(c, "consumer_byte_rate", 0.5)),
            "consumer_byte_rate cannot be a fractional value."
        );
        assert!(validate_quota_key_value(c, "consumer_byte_rate", 100.000_000_5).is_ok());
        assert_eq!(
            msg(validate_quota_key_value(c, "consumer_byte_rate", 100.000_002)),
            "consumer_byte_rate cannot be a fractional value."
        );
        assert!(validate_quota_key_value(c, "producer_byte_rate", 2f64.powi(63)).is_ok());
        assert_eq!(
            msg(validate_quota_key_value(c, "producer_byte_rate", 9.3e18)),
            "Proposed value for producer_byte_rate is too large for a LONG."
        );
        assert_eq!(
            msg(validate_quota_key_value(c, "producer_byte_rate", f64::INFINITY)),
            "Proposed value for producer_byte_rate is too large for a LONG."
        );
        assert!(validate_quota_key_value(ip, "connection_creation_rate", 2_147_483_647.0).is_ok());
        assert_eq!(
            msg(validate_quota_key_value(
                ip,
                "connection_creation_rate",
                2_147_483_648.0
            )),
            "Proposed value for connection_creation_rate is too large for an INT."
        );
    }

    #[test]
    fn ip_literals_as_java_17_parses_them() {
        // Outcomes observed with OpenJDK 17.0.15 InetAddress.getByName.
        for ok in [
            "192.168.0.1",
            "::",
            "::1",
            "[::1]",
            "::1%1",
            "::1%2147483647",
            "fe80::1%1",
            "1.2.3",
            "1.2",
            "1",
            "4294967295",
            "010.0.0.1",
            "08",
            "::ffff:10.0.0.1",
            "[::ffff:10.0.0.1]",
            "1:2:3:4:5:6:7::",
            "::1.2.3.4",
            "1::1.2.3.4",
            "f::",
            "FFFF::",
            "2001:0db8:0000:0000:0000:0000:0000:0001",
            "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255",
        ] {
            assert!(is_valid_ip_entity(Some(ok)), "{ok} should be valid");
        }
        for rejected in [
            "1::2::3",
            ":::",
            "[::1",
            "[127.0.0.1]",
            "12345::",
            "::ffff:10.0.0.1%1",
            "0x7f.0.0.1",
            "0x7f000001",
            "1.2.3.4:80",
            "1:2:3:4:5:6:7:8:9",
            "::1.2.3",
            "::ffff:1.2.3.256",
            "[]",
            "[a]",
            "[1]",
            "[1.2.3.4]",
            "[::1]x",
            "::1%",
            ":1::",
            "::\u{661}",
            "0000000000000001",
            "1.2.3.4\0",
        ] {
            assert_eq!(
                classify_ip_host(rejected),
                IpHost::Rejected,
                "{rejected:?} should be rejected"
            );
        }
        for lookup in [
            "4294967296",
            "1.2.3.4.5",
            "1.2.3.256",
            "abc",
            "localhost",
            "deadbeef",
            "g::",
            "1.2.3.4%1",
            " 1.2.3.4",
            "1..2.3",
            "\u{661}.\u{662}.\u{663}.\u{664}",
            "123456789012345",
        ] {
            assert_eq!(
                classify_ip_host(lookup),
                IpHost::NeedsLookup,
                "{lookup:?} needs a lookup"
            );
            assert!(!is_valid_ip_entity(Some(lookup)));
        }
        assert!(matches!(classify_ip_host("::1%eth0"), IpHost::V6NamedZone { .. }));
        assert!(matches!(classify_ip_host("::1%2147483648"), IpHost::V6NamedZone { .. }));
        assert_eq!(classify_ip_host("1.2.3"), IpHost::V4([1, 2, 0, 3]));
        assert!(is_valid_ip_entity(None));
    }
}
