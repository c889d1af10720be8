//! Quota entities, quota keys and quota types: the vocabulary of Kafka's
//! client quotas.
//!
//! Kafka: `ClientQuotaEntity` (`clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaEntity.java`),
//! `QuotaConfig` (`server-common/src/main/java/org/apache/kafka/server/config/QuotaConfig.java`),
//! `ClientQuotaControlManager` (`metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// One level of a quota entity, spelled as on the wire (`user`, `client-id`, `ip`).
///
/// Kafka: `ClientQuotaEntity.USER`, `CLIENT_ID`, `IP`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EntityType {
    /// `user`: the (sanitized) principal name.
    #[serde(rename = "user")]
    User,
    /// `client-id`: the `client.id` a client sends, verbatim.
    #[serde(rename = "client-id")]
    ClientId,
    /// `ip`: the client's source address (connection-rate quotas only).
    #[serde(rename = "ip")]
    Ip,
}

impl EntityType {
    /// The wire name: `"user"`, `"client-id"` or `"ip"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            EntityType::User => "user",
            EntityType::ClientId => "client-id",
            EntityType::Ip => "ip",
        }
    }

    /// Parses a wire name; `None` for anything else (Kafka rejects unknown types).
    pub fn from_wire(s: &str) -> Option<Self> {
        match s {
            "user" => Some(EntityType::User),
            "client-id" => Some(EntityType::ClientId),
            "ip" => Some(EntityType::Ip),
            _ => None,
        }
    }
}

impl fmt::Display for EntityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name part of one entity level: an explicit name or the default entity.
///
/// Kafka encodes the default entity as a `null` name in the Admin API,
/// `--entity-default` in `kafka-configs.sh` and `<default>` in old ZooKeeper
/// paths. A literal name `"<default>"` given through the Admin API is an
/// ordinary [`EntityName::Named`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EntityName {
    /// An explicit name (principal name, client id or IP address).
    Named(String),
    /// The default entity of its level (`null` on the wire).
    #[serde(with = "default_as_null")]
    Default,
}

mod default_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(s: S) -> Result<S::Ok, S::Error> {
        s.serialize_none()
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        let v: Option<String> = Option::deserialize(d)?;
        match v {
            None => Ok(()),
            Some(_) => Err(serde::de::Error::custom("expected null for the default entity")),
        }
    }
}

impl EntityName {
    /// Builds a name from the Admin API form: `None` is the default entity.
    pub fn from_option(name: Option<&str>) -> Self {
        match name {
            Some(n) => EntityName::Named(n.to_owned()),
            None => EntityName::Default,
        }
    }

    /// The Admin API form: `None` for the default entity.
    pub fn as_option(&self) -> Option<&str> {
        match self {
            EntityName::Named(n) => Some(n),
            EntityName::Default => None,
        }
    }

    /// True for [`EntityName::Default`].
    pub fn is_default(&self) -> bool {
        matches!(self, EntityName::Default)
    }

    /// The name as a kafka-configs.sh path segment: the name, or `<default>`.
    pub fn path_segment(&self) -> &str {
        match self {
            EntityName::Named(n) => n,
            EntityName::Default => "<default>",
        }
    }
}

impl fmt::Display for EntityName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path_segment())
    }
}

/// A valid quota entity: one of the four shapes Kafka accepts.
///
/// Kafka: `ClientQuotaControlManager.validateEntity` accepts `{user}`,
/// `{client-id}`, `{user, client-id}` and `{ip}`; every other shape is an
/// error (see [`crate::store`] for the raw, unvalidated form and its messages).
///
/// In JSON an entity is written as Kafka's `ClientQuotaEntity` entries map:
/// entity type to name, `null` for the default entity, e.g.
/// `{"user": "alice", "client-id": null}` for `users/alice/clients/<default>`.
///
/// # Errors
///
/// Deserializing fails with a sentence naming the problem for an empty map,
/// an unknown entity type, a type given twice, or `ip` combined with another
/// type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QuotaEntity {
    /// `users/<name>` or `users/<default>`.
    User(EntityName),
    /// `clients/<name>` or `clients/<default>`.
    ClientId(EntityName),
    /// `users/<u>/clients/<c>` with either part possibly the default.
    UserClientId {
        /// The user part.
        user: EntityName,
        /// The client-id part.
        client_id: EntityName,
    },
    /// `ips/<address>` or `ips/<default>`.
    Ip(EntityName),
}

impl QuotaEntity {
    /// Shorthand for a named user entity.
    pub fn user(name: &str) -> Self {
        QuotaEntity::User(EntityName::Named(name.to_owned()))
    }

    /// Shorthand for a named client-id entity.
    pub fn client_id(name: &str) -> Self {
        QuotaEntity::ClientId(EntityName::Named(name.to_owned()))
    }

    /// The (type, name) pairs of this entity, user before client-id.
    pub fn parts(&self) -> Vec<(EntityType, &EntityName)> {
        match self {
            QuotaEntity::User(u) => vec![(EntityType::User, u)],
            QuotaEntity::ClientId(c) => vec![(EntityType::ClientId, c)],
            QuotaEntity::UserClientId { user, client_id } => {
                vec![(EntityType::User, user), (EntityType::ClientId, client_id)]
            }
            QuotaEntity::Ip(ip) => vec![(EntityType::Ip, ip)],
        }
    }

    /// Builds an entity from (type, name) pairs; `None` when the pairs are
    /// not one of the four valid shapes (empty, duplicated type, ip mixed
    /// with another type). Names are not checked here.
    pub fn from_parts(parts: &[(EntityType, EntityName)]) -> Option<Self> {
        let mut user = None;
        let mut client = None;
        let mut ip = None;
        for (t, n) in parts {
            let slot = match t {
                EntityType::User => &mut user,
                EntityType::ClientId => &mut client,
                EntityType::Ip => &mut ip,
            };
            if slot.is_some() {
                return None;
            }
            *slot = Some(n.clone());
        }
        match (user, client, ip) {
            (Some(u), None, None) => Some(QuotaEntity::User(u)),
            (None, Some(c), None) => Some(QuotaEntity::ClientId(c)),
            (Some(user), Some(client_id), None) => Some(QuotaEntity::UserClientId { user, client_id }),
            (None, None, Some(i)) => Some(QuotaEntity::Ip(i)),
            _ => None,
        }
    }

    /// True for the `ip` shape, whose only key is `connection_creation_rate`.
    pub fn is_ip(&self) -> bool {
        matches!(self, QuotaEntity::Ip(_))
    }

    /// The ZooKeeper-style path Kafka's docs use for this entity, e.g.
    /// `users/alice/clients/<default>`.
    ///
    /// A name literally spelled `<default>` (possible through the Admin API,
    /// `ClientQuotaControlManager.validateEntity` only refuses empty names)
    /// is written quoted, `users/"<default>"`, so that it never reads as the
    /// default entity `users/<default>`; every other name is written as is.
    pub fn path(&self) -> String {
        let seg = |n: &EntityName| match n {
            EntityName::Named(s) if s == "<default>" => "\"<default>\"".to_owned(),
            // The empty name (a client that sends no client.id) has one spelling: `""`.
            EntityName::Named(s) if s.is_empty() => "\"\"".to_owned(),
            other => other.path_segment().to_owned(),
        };
        match self {
            QuotaEntity::User(u) => format!("users/{}", seg(u)),
            QuotaEntity::ClientId(c) => format!("clients/{}", seg(c)),
            QuotaEntity::UserClientId { user, client_id } => {
                format!("users/{}/clients/{}", seg(user), seg(client_id))
            }
            QuotaEntity::Ip(i) => format!("ips/{}", seg(i)),
        }
    }
}

impl Serialize for QuotaEntity {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let parts = self.parts();
        let mut map = serializer.serialize_map(Some(parts.len()))?;
        for (t, name) in parts {
            map.serialize_entry(t.as_str(), &name.as_option())?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for QuotaEntity {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntityVisitor;

        impl<'de> serde::de::Visitor<'de> for EntityVisitor {
            type Value = QuotaEntity;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"a quota entity such as {"user": "alice"}, {"client-id": null} or {"user": "alice", "client-id": "app"}"#)
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<QuotaEntity, A::Error> {
                use serde::de::Error;
                let mut parts: Vec<(EntityType, EntityName)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(t) = EntityType::from_wire(&key) else {
                        return Err(A::Error::custom(format!(
                            "unknown entity type \"{key}\": expected \"user\", \"client-id\" or \"ip\""
                        )));
                    };
                    if parts.iter().any(|(seen, _)| *seen == t) {
                        return Err(A::Error::custom(format!("the entity type \"{key}\" is given twice")));
                    }
                    let name: Option<String> = map.next_value()?;
                    parts.push((t, EntityName::from_option(name.as_deref())));
                }
                if parts.is_empty() {
                    return Err(A::Error::custom("an entity needs at least one of \"user\", \"client-id\" or \"ip\""));
                }
                QuotaEntity::from_parts(&parts).ok_or_else(|| {
                    A::Error::custom("an \"ip\" entity cannot be combined with \"user\" or \"client-id\"")
                })
            }
        }

        deserializer.deserialize_map(EntityVisitor)
    }
}

impl fmt::Display for QuotaEntity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path())
    }
}

/// Kafka's `ConfigDef.Type` for a quota key's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfigType {
    /// A Java `long`: integral, at most `Long.MAX_VALUE`.
    #[serde(rename = "LONG")]
    Long,
    /// A Java `int`: integral, at most `Integer.MAX_VALUE`.
    #[serde(rename = "INT")]
    Int,
    /// A Java `double`.
    #[serde(rename = "DOUBLE")]
    Double,
}

impl ConfigType {
    /// Kafka's type name (`LONG`, `INT`, `DOUBLE`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ConfigType::Long => "LONG",
            ConfigType::Int => "INT",
            ConfigType::Double => "DOUBLE",
        }
    }
}

/// One of the five client-quota configuration keys.
///
/// Kafka: `QuotaConfig` (`server-common/.../server/config/QuotaConfig.java`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum QuotaKey {
    /// `producer_byte_rate` (LONG, bytes/s per broker).
    #[serde(rename = "producer_byte_rate")]
    ProducerByteRate,
    /// `consumer_byte_rate` (LONG, bytes/s per broker).
    #[serde(rename = "consumer_byte_rate")]
    ConsumerByteRate,
    /// `request_percentage` (DOUBLE, percent of one broker thread per quota window).
    #[serde(rename = "request_percentage")]
    RequestPercentage,
    /// `controller_mutation_rate` (DOUBLE, partition mutations/s).
    #[serde(rename = "controller_mutation_rate")]
    ControllerMutationRate,
    /// `connection_creation_rate` (INT, connections/s per IP; ip entities only).
    #[serde(rename = "connection_creation_rate")]
    ConnectionCreationRate,
}

impl QuotaKey {
    /// Every key, in Kafka's documentation order.
    pub const ALL: [QuotaKey; 5] = [
        QuotaKey::ProducerByteRate,
        QuotaKey::ConsumerByteRate,
        QuotaKey::RequestPercentage,
        QuotaKey::ControllerMutationRate,
        QuotaKey::ConnectionCreationRate,
    ];

    /// The keys valid for user / client-id entities.
    pub const CLIENT_KEYS: [QuotaKey; 4] = [
        QuotaKey::ProducerByteRate,
        QuotaKey::ConsumerByteRate,
        QuotaKey::RequestPercentage,
        QuotaKey::ControllerMutationRate,
    ];

    /// The config name, e.g. `"producer_byte_rate"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            QuotaKey::ProducerByteRate => "producer_byte_rate",
            QuotaKey::ConsumerByteRate => "consumer_byte_rate",
            QuotaKey::RequestPercentage => "request_percentage",
            QuotaKey::ControllerMutationRate => "controller_mutation_rate",
            QuotaKey::ConnectionCreationRate => "connection_creation_rate",
        }
    }

    /// Parses a config name; `None` for anything that is not a quota key.
    pub fn from_name(s: &str) -> Option<Self> {
        QuotaKey::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The value type Kafka declares for this key.
    pub const fn config_type(self) -> ConfigType {
        match self {
            QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => ConfigType::Long,
            QuotaKey::RequestPercentage | QuotaKey::ControllerMutationRate => ConfigType::Double,
            QuotaKey::ConnectionCreationRate => ConfigType::Int,
        }
    }

    /// The unit of this key's value, for labels. [`UnitLabel::Short`] is the
    /// playground's (`bytes/s`, `% of one thread`), [`UnitLabel::PerBroker`]
    /// spells out that each broker enforces the value on its own
    /// (`bytes/s per broker`, `% of one broker thread`), as the CLI prints it.
    ///
    /// Kafka: the units in `QuotaConfig`'s documentation strings
    /// (`server-common/.../server/config/QuotaConfig.java`).
    pub const fn unit(self, label: UnitLabel) -> &'static str {
        match (self, label) {
            (QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate, UnitLabel::Short) => "bytes/s",
            (QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate, UnitLabel::PerBroker) => {
                "bytes/s per broker"
            }
            (QuotaKey::RequestPercentage, UnitLabel::Short) => "% of one thread",
            (QuotaKey::RequestPercentage, UnitLabel::PerBroker) => "% of one broker thread",
            (QuotaKey::ControllerMutationRate, UnitLabel::Short) => "mutations/s",
            (QuotaKey::ControllerMutationRate, UnitLabel::PerBroker) => "partition mutations/s",
            (QuotaKey::ConnectionCreationRate, _) => "connections/s",
        }
    }

    /// The client quota type this key limits; `None` for the per-IP
    /// connection-creation rate, which has its own manager.
    pub const fn quota_type(self) -> Option<QuotaType> {
        match self {
            QuotaKey::ProducerByteRate => Some(QuotaType::Produce),
            QuotaKey::ConsumerByteRate => Some(QuotaType::Fetch),
            QuotaKey::RequestPercentage => Some(QuotaType::Request),
            QuotaKey::ControllerMutationRate => Some(QuotaType::ControllerMutation),
            QuotaKey::ConnectionCreationRate => None,
        }
    }
}

/// How much a unit label ([`QuotaKey::unit`]) says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitLabel {
    /// The unit alone: `bytes/s`, `% of one thread`, `mutations/s`.
    Short,
    /// The unit with the scope Kafka enforces it in: `bytes/s per broker`,
    /// `% of one broker thread`, `partition mutations/s`.
    PerBroker,
}

impl fmt::Display for QuotaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A client quota type: each has its own quota manager, overrides and sensors.
///
/// Kafka: `ClientQuotaManager` / `QuotaType` (`server/src/main/java/org/apache/kafka/server/quota/QuotaType.java`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum QuotaType {
    /// Produce byte rate (`producer_byte_rate`).
    #[serde(rename = "PRODUCE")]
    Produce,
    /// Fetch byte rate (`consumer_byte_rate`).
    #[serde(rename = "FETCH")]
    Fetch,
    /// Request thread time (`request_percentage`).
    #[serde(rename = "REQUEST")]
    Request,
    /// Controller mutations (`controller_mutation_rate`).
    #[serde(rename = "CONTROLLER_MUTATION")]
    ControllerMutation,
}

impl QuotaType {
    /// The four client quota types, in Kafka's order.
    pub const ALL: [QuotaType; 4] =
        [QuotaType::Produce, QuotaType::Fetch, QuotaType::Request, QuotaType::ControllerMutation];

    /// This type's position in [`QuotaType::ALL`] (produce 0, fetch 1,
    /// request 2, controller mutation 3): the index of its entry in every
    /// per-type array (`QuotaCallbacks`, `resolve_all`, `budget_groups_all`).
    pub const fn slot(self) -> usize {
        match self {
            QuotaType::Produce => 0,
            QuotaType::Fetch => 1,
            QuotaType::Request => 2,
            QuotaType::ControllerMutation => 3,
        }
    }

    /// The key whose overrides this type reads.
    pub const fn key(self) -> QuotaKey {
        match self {
            QuotaType::Produce => QuotaKey::ProducerByteRate,
            QuotaType::Fetch => QuotaKey::ConsumerByteRate,
            QuotaType::Request => QuotaKey::RequestPercentage,
            QuotaType::ControllerMutation => QuotaKey::ControllerMutationRate,
        }
    }

    /// The name used as sensor prefix and MBean `type`: `Produce`, `Fetch`,
    /// `Request`, `ControllerMutation`.
    pub const fn metric_type(self) -> &'static str {
        match self {
            QuotaType::Produce => "Produce",
            QuotaType::Fetch => "Fetch",
            QuotaType::Request => "Request",
            QuotaType::ControllerMutation => "ControllerMutation",
        }
    }
}

impl fmt::Display for QuotaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.metric_type())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_json_is_kafkas_entries_map() {
        let e = QuotaEntity::UserClientId { user: EntityName::Named("alice".into()), client_id: EntityName::Default };
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, r#"{"user":"alice","client-id":null}"#);
        assert_eq!(serde_json::from_str::<QuotaEntity>(&json).unwrap(), e);
        let reversed: QuotaEntity = serde_json::from_str(r#"{"client-id":null,"user":"alice"}"#).unwrap();
        assert_eq!(reversed, e);
        assert_eq!(serde_json::from_str::<QuotaEntity>(r#"{"ip":null}"#).unwrap(), QuotaEntity::Ip(EntityName::Default));
    }

    #[test]
    fn a_literal_default_name_prints_apart_from_the_default_entity() {
        let literal = QuotaEntity::User(EntityName::Named("<default>".into()));
        assert_eq!(literal.path(), "users/\"<default>\"");
        assert_eq!(QuotaEntity::User(EntityName::Default).path(), "users/<default>");
        let both = QuotaEntity::UserClientId {
            user: EntityName::Default,
            client_id: EntityName::Named("<default>".into()),
        };
        assert_eq!(both.to_string(), "users/<default>/clients/\"<default>\"");
        // The name itself is unchanged where Kafka uses it (metric tags, keys).
        assert_eq!(EntityName::Named("<default>".into()).path_segment(), "<default>");
    }

    #[test]
    fn slots_follow_all() {
        for (i, qt) in QuotaType::ALL.into_iter().enumerate() {
            assert_eq!(qt.slot(), i);
        }
    }

    #[test]
    fn bad_entity_json_says_why() {
        let err = |s: &str| serde_json::from_str::<QuotaEntity>(s).unwrap_err().to_string();
        assert!(err("{}").contains("needs at least one"), "{}", err("{}"));
        assert!(err(r#"{"users":"a"}"#).contains(r#"unknown entity type "users""#));
        assert!(err(r#"{"ip":"1.2.3.4","user":"a"}"#).contains("cannot be combined"));
        assert!(err(r#"{"user":"a","user":"b"}"#).contains("given twice"));
        assert!(err(r#"{"user":5}"#).contains("invalid type"));
    }
}
