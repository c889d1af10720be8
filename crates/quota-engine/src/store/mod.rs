//! The quota store: Kafka's `AlterClientQuotas` and `DescribeClientQuotas`
//! with Kafka's validation, ordering and exact error messages.
//!
//! Kafka: `ClientQuotaControlManager` (`alterClientQuotas`, `replay`) in
//! `metadata/src/main/java/org/apache/kafka/controller/ClientQuotaControlManager.java`,
//! `ClientQuotasImage.describe` in
//! `metadata/src/main/java/org/apache/kafka/image/ClientQuotasImage.java`.
//!
//! An alteration goes through the stages of [`validate`] in Kafka's order;
//! [`QuotaStore::plan`] computes the response and the records without
//! changing anything (Kafka's `alterClientQuotas`), [`QuotaStore::replay`]
//! applies one record, and [`QuotaStore::alter`] does both.
//!
//! ```
//! use quota_engine::store::{Alteration, Op, QuotaStore, RawEntity};
//!
//! let mut store = QuotaStore::new();
//! let results = store.alter(&[Alteration {
//!     entity: RawEntity::named("user", "alice"),
//!     ops: vec![Op::set("producer_byte_rate", 0.5), Op::set("consumer_byte_rate", 1024.0)],
//! }]);
//! let err = results[0].error.as_ref().expect("a LONG key rejects fractions");
//! assert_eq!(err.message, "producer_byte_rate cannot be a fractional value.");
//! assert!(store.is_empty()); // one bad key fails the whole entity
//! ```

mod ip;
pub mod validate;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::entity::{EntityName, EntityType, QuotaEntity, QuotaKey};
use crate::jdk::double::java_double_equals;
use crate::jdk::hashmap::JavaHashMap;
use validate::{config_keys_for_entity_type, len_u32, validate_entity, validate_quota_key_value, EntityMap};

/// One entity as sent on the wire: (type, name) pairs in request order;
/// name `None` = the default entity.
///
/// Unvalidated: may hold unknown types, repeated types (Kafka keeps the last
/// name) and empty names; [`QuotaStore::alter`] reports those with Kafka's
/// messages.
///
/// Kafka: `AlterClientQuotasRequestData.EntryData.entity` (`EntityData` list).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RawEntity(pub Vec<(String, Option<String>)>);

impl RawEntity {
    /// One named pair, e.g. `RawEntity::named("user", "alice")`.
    pub fn named(entity_type: &str, name: &str) -> Self {
        RawEntity(vec![(entity_type.to_owned(), Some(name.to_owned()))])
    }

    /// The pairs of a valid entity, user before client-id.
    pub fn from_entity(entity: &QuotaEntity) -> Self {
        RawEntity(
            entity
                .parts()
                .into_iter()
                .map(|(t, n)| (t.as_str().to_owned(), n.as_option().map(str::to_owned)))
                .collect(),
        )
    }
}

impl From<&QuotaEntity> for RawEntity {
    fn from(entity: &QuotaEntity) -> Self {
        RawEntity::from_entity(entity)
    }
}

/// One op of an alteration: set `key` to `value`, or remove `key` when
/// `value` is `None`. Values are doubles as on the wire (bytes/s for the
/// byte rates, percent of one thread for `request_percentage`, per second
/// for the mutation and connection rates).
///
/// Kafka: `ClientQuotaAlteration.Op`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Op {
    /// The config key as sent (may be unknown or misspelt).
    pub key: String,
    /// The new value; `None` removes the key.
    pub value: Option<f64>,
}

impl Op {
    /// An op setting `key` to `value`.
    pub fn set(key: &str, value: f64) -> Self {
        Op {
            key: key.to_owned(),
            value: Some(value),
        }
    }

    /// An op removing `key`.
    pub fn remove(key: &str) -> Self {
        Op {
            key: key.to_owned(),
            value: None,
        }
    }
}

/// One entry of an `AlterClientQuotasRequest`: an entity and its ops.
///
/// Kafka: `ClientQuotaAlteration`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alteration {
    /// The entity, unvalidated.
    pub entity: RawEntity,
    /// The ops in request order.
    pub ops: Vec<Op>,
}

/// Kafka's `Errors` as used by client quota requests.
///
/// Kafka: `clients/src/main/java/org/apache/kafka/common/protocol/Errors.java`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// `NONE` (0).
    #[serde(rename = "NONE")]
    None,
    /// `UNSUPPORTED_VERSION` (35): describe with an unknown entity type.
    #[serde(rename = "UNSUPPORTED_VERSION")]
    UnsupportedVersion,
    /// `INVALID_REQUEST` (42): every alteration and filter rule.
    #[serde(rename = "INVALID_REQUEST")]
    InvalidRequest,
    /// `POLICY_VIOLATION` (44): a request that would emit more than
    /// 10,000 records.
    #[serde(rename = "POLICY_VIOLATION")]
    PolicyViolation,
}

impl ErrorCode {
    /// Kafka's name, e.g. `"INVALID_REQUEST"`.
    pub const fn name(&self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::UnsupportedVersion => "UNSUPPORTED_VERSION",
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::PolicyViolation => "POLICY_VIOLATION",
        }
    }

    /// Kafka's numeric code, e.g. `42`.
    pub const fn code(&self) -> i16 {
        match self {
            ErrorCode::None => 0,
            ErrorCode::UnsupportedVersion => 35,
            ErrorCode::InvalidRequest => 42,
            ErrorCode::PolicyViolation => 44,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error as Kafka returns it: a code and Kafka's exact message.
///
/// Kafka: `clients/src/main/java/org/apache/kafka/common/requests/ApiError.java`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// The error code (never [`ErrorCode::None`]).
    pub code: ErrorCode,
    /// Kafka's message, verbatim (quirks such as `shouldnot` included).
    pub message: String,
}

impl ApiError {
    /// An `INVALID_REQUEST` error with `message`.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        ApiError {
            code: ErrorCode::InvalidRequest,
            message: message.into(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.name(), self.message)
    }
}

impl std::error::Error for ApiError {}

/// One entry of the `AlterClientQuotas` response.
///
/// Kafka: `ControllerResult<Map<ClientQuotaEntity, ApiError>>` of
/// `ClientQuotaControlManager.alterClientQuotas`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlterResult {
    /// The entity's pairs in Java `HashMap` iteration order (of the first
    /// alteration naming this entity).
    pub entity: RawEntity,
    /// `ClientQuotaEntity.toString()`, e.g. `ClientQuotaEntity(entries={user=alice})`.
    pub entity_string: String,
    /// `None` when the entity was altered (or had nothing to change).
    pub error: Option<ApiError>,
}

impl AlterResult {
    /// True when Kafka answered `NONE` for this entity.
    pub fn is_ok(&self) -> bool {
        self.error.is_none()
    }
}

/// One `ClientQuotaRecord`: set (`value: Some`) or remove (`None`) one key
/// of one entity.
///
/// Kafka: `metadata/src/main/resources/common/metadata/ClientQuotaRecord.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuotaRecord {
    /// The entity.
    pub entity: QuotaEntity,
    /// The key.
    pub key: QuotaKey,
    /// The new value, or `None` to remove the key.
    pub value: Option<f64>,
}

impl QuotaRecord {
    /// The record's `EntityData` list as Kafka writes it: the validated
    /// `HashMap<>(3)` in iteration order (`client-id` before `user`).
    pub fn entity_pairs(&self) -> RawEntity {
        EntityMap::from_entity(&self.entity).to_raw()
    }
}

/// What an `AlterClientQuotas` request would do: the response and the
/// records to replay, in emission order.
///
/// Kafka: `ControllerResult` of `ClientQuotaControlManager.alterClientQuotas`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlterPlan {
    /// One result per distinct entity, in order of first appearance.
    pub results: Vec<AlterResult>,
    /// Records in emission order (empty for failed entities).
    pub records: Vec<QuotaRecord>,
}

/// One entity and its configured values (key -> value), as `describe` returns them.
pub type EntityQuotas = (QuotaEntity, BTreeMap<QuotaKey, f64>);

/// Kafka's cap on records per controller operation (`QuorumController.MAX_RECORDS_PER_USER_OP`).
pub const MAX_RECORDS_PER_USER_OP: u32 = 10_000;

/// The configured client quotas: entity -> key -> value.
///
/// Kafka: `ClientQuotaControlManager.clientQuotaData` (controller) and
/// `ClientQuotasImage` (brokers).
#[derive(Default, Clone, Debug, PartialEq)]
pub struct QuotaStore {
    data: BTreeMap<QuotaEntity, BTreeMap<QuotaKey, f64>>,
}

impl QuotaStore {
    /// An empty store.
    pub fn new() -> Self {
        QuotaStore::default()
    }

    /// True when no entity has a quota.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Kafka's `alterClientQuotas`: validates every alteration and returns
    /// the response and the records, without changing the store.
    ///
    /// Per alteration, in request order:
    /// 1. ops go into a `HashMap<>(ops.len())`; a repeated key marks the
    ///    entity failed, and Kafka then overwrites that error with
    ///    `Ignoring duplicate entity <entity>` (so `Duplicate quota key ...`
    ///    is never seen);
    /// 2. an entity already answered in this request (equal as a map, even
    ///    with pairs in another order) gets `Ignoring duplicate entity
    ///    ClientQuotaEntity(entries={...})`, replacing the earlier answer;
    ///    the earlier alteration's records are still emitted;
    /// 3. otherwise [`validate::validate_entity`], then
    ///    [`validate::config_keys_for_entity_type`], then each op in
    ///    `HashMap` iteration order: a remove emits a record only if the key
    ///    is set; a set is checked by [`validate::validate_quota_key_value`]
    ///    and emits a record only if the value differs (`Double.equals`).
    ///    The first failing op fails the entity and drops its records.
    ///
    /// Results come one per distinct entity, in order of first appearance
    /// (Kafka's own map is unordered). A request that would emit more than
    /// [`MAX_RECORDS_PER_USER_OP`] records fails whole: every alteration
    /// gets `POLICY_VIOLATION` `Unable to perform excessively large batch
    /// operation.` (with its wire pairs, as `getErrorResponse` answers) and
    /// no record is emitted.
    ///
    /// Kafka: `ClientQuotaControlManager.alterClientQuotas`,
    /// `alterClientQuotaEntity`; `EventHandlerExceptionInfo` for the cap.
    pub fn plan(&self, alterations: &[Alteration]) -> AlterPlan {
        let mut records: Vec<QuotaRecord> = Vec::new();
        let mut results: Vec<(EntityMap, Option<ApiError>)> = Vec::new();
        for alteration in alterations {
            let entity = EntityMap::from_wire(&alteration.entity);
            let mut ops: JavaHashMap<Option<f64>> = JavaHashMap::with_capacity(len_u32(alteration.ops.len()));
            for op in &alteration.ops {
                if ops.contains_key(&op.key) {
                    let message = format!(
                        "Duplicate quota key {} not updating quota for this entity {}",
                        op.key,
                        entity.client_quota_entity_string()
                    );
                    put_result(&mut results, &entity, Some(ApiError::invalid_request(message)));
                } else {
                    ops.put(op.key.clone(), op.value);
                }
            }
            if results.iter().any(|(e, _)| *e == entity) {
                let message = format!("Ignoring duplicate entity {}", entity.client_quota_entity_string());
                put_result(&mut results, &entity, Some(ApiError::invalid_request(message)));
            } else {
                let outcome = self.alter_entity(&entity, &ops);
                match outcome {
                    Ok(mut new_records) => {
                        records.append(&mut new_records);
                        put_result(&mut results, &entity, None);
                    }
                    Err(e) => put_result(&mut results, &entity, Some(e)),
                }
            }
        }
        if records.len() > MAX_RECORDS_PER_USER_OP as usize {
            let error = ApiError {
                code: ErrorCode::PolicyViolation,
                message: "Unable to perform excessively large batch operation.".to_owned(),
            };
            let results = alterations
                .iter()
                .map(|a| AlterResult {
                    entity: a.entity.clone(),
                    entity_string: EntityMap::from_wire(&a.entity).client_quota_entity_string(),
                    error: Some(error.clone()),
                })
                .collect();
            return AlterPlan {
                results,
                records: Vec::new(),
            };
        }
        let results = results
            .into_iter()
            .map(|(e, error)| AlterResult {
                entity: e.to_raw(),
                entity_string: e.client_quota_entity_string(),
                error,
            })
            .collect();
        AlterPlan { results, records }
    }

    /// Kafka's `alterClientQuotaEntity` for one entity whose ops are already
    /// in a Java `HashMap`.
    fn alter_entity(&self, entity: &EntityMap, ops: &JavaHashMap<Option<f64>>) -> Result<Vec<QuotaRecord>, ApiError> {
        let validated = validate_entity(entity)?;
        let valid_keys = config_keys_for_entity_type(&validated)?;
        let Some(typed) = validated.to_quota_entity() else {
            // Unreachable: the two stages above accept only the four shapes.
            return Err(ApiError::invalid_request(format!(
                "Invalid client quota entity {}",
                entity.client_quota_entity_string()
            )));
        };
        let current = self.data.get(&typed);
        let mut records = Vec::new();
        for (key, value) in ops.iter() {
            match value {
                None => {
                    let known = QuotaKey::from_name(key);
                    if let (Some(k), Some(cur)) = (known, current) {
                        if cur.contains_key(&k) {
                            records.push(QuotaRecord {
                                entity: typed.clone(),
                                key: k,
                                value: None,
                            });
                        }
                    }
                }
                Some(v) => {
                    let k = validate_quota_key_value(valid_keys, key, *v)?;
                    let unchanged = current
                        .and_then(|c| c.get(&k))
                        .is_some_and(|cur| java_double_equals(*cur, *v));
                    if !unchanged {
                        records.push(QuotaRecord {
                            entity: typed.clone(),
                            key: k,
                            value: Some(*v),
                        });
                    }
                }
            }
        }
        Ok(records)
    }

    /// Kafka's `replay(ClientQuotaRecord)`: applies one record. Removing the
    /// last key of an entity removes the entity.
    ///
    /// Kafka: `ClientQuotaControlManager.replay`.
    pub fn replay(&mut self, record: &QuotaRecord) {
        match record.value {
            Some(v) => {
                self.data
                    .entry(record.entity.clone())
                    .or_default()
                    .insert(record.key, v);
            }
            None => {
                if let Some(keys) = self.data.get_mut(&record.entity) {
                    keys.remove(&record.key);
                    if keys.is_empty() {
                        self.data.remove(&record.entity);
                    }
                }
            }
        }
    }

    /// `AlterClientQuotas`: [`plan`](Self::plan), then
    /// [`replay`](Self::replay) of every record. Returns the response.
    pub fn alter(&mut self, alterations: &[Alteration]) -> Vec<AlterResult> {
        let plan = self.plan(alterations);
        for record in &plan.records {
            self.replay(record);
        }
        plan.results
    }

    fn alter_one(&mut self, entity: &QuotaEntity, op: Op) -> Result<(), ApiError> {
        let results = self.alter(&[Alteration {
            entity: RawEntity::from_entity(entity),
            ops: vec![op],
        }]);
        match results.into_iter().next().and_then(|r| r.error) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Sets `key` of a valid entity to `value` through [`alter`](Self::alter).
    ///
    /// # Errors
    /// Kafka's message when the entity cannot take the key (`Invalid
    /// configuration key connection_creation_rate` for a user), the value is
    /// out of range (`Quota producer_byte_rate must be greater than 0`,
    /// `... cannot be a fractional value.`, `... too large for a LONG.`), a
    /// name is empty (`Empty user not supported`) or an ip name is not a
    /// literal address (`... is not a valid IP or resolvable host.`).
    pub fn set(&mut self, entity: &QuotaEntity, key: QuotaKey, value: f64) -> Result<(), ApiError> {
        self.alter_one(entity, Op::set(key.as_str(), value))
    }

    /// Removes `key` of a valid entity through [`alter`](Self::alter);
    /// removing a key that is not set is not an error.
    ///
    /// # Errors
    /// Only entity errors (`Empty user not supported`, an invalid ip name).
    pub fn remove(&mut self, entity: &QuotaEntity, key: QuotaKey) -> Result<(), ApiError> {
        self.alter_one(entity, Op::remove(key.as_str()))
    }

    /// The configured values of one entity; `None` if it has none.
    pub fn get(&self, entity: &QuotaEntity) -> Option<&BTreeMap<QuotaKey, f64>> {
        self.data.get(entity)
    }

    /// Every entity with at least one key, sorted by entity.
    pub fn entries(&self) -> impl Iterator<Item = (&QuotaEntity, &BTreeMap<QuotaKey, f64>)> {
        self.data.iter()
    }

    /// `DescribeClientQuotas`: the entities matching `filter`, sorted by
    /// entity (Kafka answers in hash order; clients read a map).
    ///
    /// A component constrains one entity type: [`FilterMatch::Exact`] (that
    /// name), [`FilterMatch::Default`] (the default entity) or
    /// [`FilterMatch::Any`] (any name, the type must be present). Entities
    /// may have more types than the filter unless `strict`, in which case
    /// they must have exactly as many types as there are components.
    ///
    /// # Errors
    /// Checked per component in order, then for the combination:
    /// - `INVALID_REQUEST` `Invalid empty entity type.`
    /// - `INVALID_REQUEST` `Entity type <t> cannot appear more than once in the filter.`
    /// - `UNSUPPORTED_VERSION` `Unsupported entity type <t>`
    /// - `INVALID_REQUEST` `Invalid entity filter component combination. IP
    ///   filter component should not be used with user or clientId filter component.`
    ///
    /// Kafka: `ClientQuotasImage.describe` and `matches`
    /// (`metadata/src/main/java/org/apache/kafka/image/ClientQuotasImage.java`),
    /// reached from `KafkaApis.handleDescribeClientQuotasRequest`.
    pub fn describe(&self, filter: &QuotaFilter) -> Result<Vec<EntityQuotas>, ApiError> {
        let mut exact: BTreeMap<EntityType, EntityName> = BTreeMap::new();
        let mut typed: Vec<EntityType> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for c in &filter.components {
            let t = c.entity_type.as_str();
            if t.is_empty() {
                return Err(ApiError::invalid_request("Invalid empty entity type."));
            }
            if seen.contains(&t) {
                return Err(ApiError::invalid_request(format!(
                    "Entity type {t} cannot appear more than once in the filter."
                )));
            }
            let Some(entity_type) = EntityType::from_wire(t) else {
                return Err(ApiError {
                    code: ErrorCode::UnsupportedVersion,
                    message: format!("Unsupported entity type {t}"),
                });
            };
            seen.push(t);
            match &c.matcher {
                FilterMatch::Exact(name) => {
                    exact.insert(entity_type, EntityName::Named(name.clone()));
                }
                FilterMatch::Default => {
                    exact.insert(entity_type, EntityName::Default);
                }
                FilterMatch::Any => typed.push(entity_type),
            }
        }
        let mentions = |t: EntityType| exact.contains_key(&t) || typed.contains(&t);
        if mentions(EntityType::Ip) && (mentions(EntityType::User) || mentions(EntityType::ClientId)) {
            return Err(ApiError::invalid_request(
                "Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component.",
            ));
        }
        let wanted = exact.len() + typed.len();
        let matches = |entity: &QuotaEntity| {
            let parts = entity.parts();
            if filter.strict && parts.len() != wanted {
                return false;
            }
            let name_of = |t: EntityType| parts.iter().find(|(pt, _)| *pt == t).map(|(_, n)| *n);
            exact.iter().all(|(t, n)| name_of(*t) == Some(n)) && typed.iter().all(|t| name_of(*t).is_some())
        };
        Ok(self
            .data
            .iter()
            .filter(|(e, _)| matches(e))
            .map(|(e, v)| (e.clone(), v.clone()))
            .collect())
    }
}

fn put_result(results: &mut Vec<(EntityMap, Option<ApiError>)>, entity: &EntityMap, error: Option<ApiError>) {
    // HashMap.put: an equal key keeps its object and position, the value is replaced.
    match results.iter_mut().find(|(e, _)| e == entity) {
        Some(slot) => slot.1 = error,
        None => results.push((entity.clone(), error)),
    }
}

/// A `DescribeClientQuotas` filter: components and strictness.
///
/// Kafka: `ClientQuotaFilter` (`contains` = not strict, `containsOnly` = strict).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct QuotaFilter {
    /// One constraint per entity type.
    pub components: Vec<FilterComponent>,
    /// When true, an entity must have no type beyond the components.
    pub strict: bool,
}

impl QuotaFilter {
    /// Every entity (`ClientQuotaFilter.all()`).
    pub fn all() -> Self {
        QuotaFilter {
            components: Vec::new(),
            strict: false,
        }
    }

    /// Entities matching `components`, possibly with more types (`ClientQuotaFilter.contains`).
    pub fn contains(components: Vec<FilterComponent>) -> Self {
        QuotaFilter {
            components,
            strict: false,
        }
    }

    /// Entities with exactly the types of `components` (`ClientQuotaFilter.containsOnly`).
    pub fn contains_only(components: Vec<FilterComponent>) -> Self {
        QuotaFilter {
            components,
            strict: true,
        }
    }

    /// The strict filter that matches exactly `entity`.
    pub fn exact(entity: &QuotaEntity) -> Self {
        let components = entity
            .parts()
            .into_iter()
            .map(|(t, n)| FilterComponent {
                entity_type: t.as_str().to_owned(),
                matcher: match n {
                    EntityName::Named(s) => FilterMatch::Exact(s.clone()),
                    EntityName::Default => FilterMatch::Default,
                },
            })
            .collect();
        QuotaFilter {
            components,
            strict: true,
        }
    }
}

/// How one filter component matches names.
///
/// Kafka: `ClientQuotaFilterComponent` (`MATCH_TYPE_EXACT` / `DEFAULT` / `SPECIFIED`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FilterMatch {
    /// `ofEntity(type, name)`: exactly this name.
    Exact(String),
    /// `ofDefaultEntity(type)`: the default entity.
    Default,
    /// `ofEntityType(type)`: any name, default included.
    Any,
}

/// One component of a [`QuotaFilter`].
///
/// Kafka: `ClientQuotaFilterComponent`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterComponent {
    /// The entity type as sent (`user`, `client-id`, `ip`; others are errors).
    pub entity_type: String,
    /// The name constraint.
    pub matcher: FilterMatch,
}

impl FilterComponent {
    /// `ClientQuotaFilterComponent.ofEntity`.
    pub fn of_entity(entity_type: &str, name: &str) -> Self {
        FilterComponent {
            entity_type: entity_type.to_owned(),
            matcher: FilterMatch::Exact(name.to_owned()),
        }
    }

    /// `ClientQuotaFilterComponent.ofDefaultEntity`.
    pub fn of_default_entity(entity_type: &str) -> Self {
        FilterComponent {
            entity_type: entity_type.to_owned(),
            matcher: FilterMatch::Default,
        }
    }

    /// `ClientQuotaFilterComponent.ofEntityType`.
    pub fn of_entity_type(entity_type: &str) -> Self {
        FilterComponent {
            entity_type: entity_type.to_owned(),
            matcher: FilterMatch::Any,
        }
    }
}

#[cfg(test)]
mod tests;
