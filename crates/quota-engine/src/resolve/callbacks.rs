//! The four client quota callbacks of a broker (one per quota type's
//! manager), built from the quota store.
//!
//! Kafka: `QuotaFactory.QuotaManagers` (one `ClientQuotaManager` per quota
//! type) fed by `ClientQuotaMetadataManager.handleUserClientQuotaChange`
//! (`core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala`),
//! which routes each key to its manager and skips `ip` entities.

use std::collections::BTreeMap;

use super::budget::{BudgetGroups, ClientIdentity};
use super::callback::DefaultQuotaCallback;
use super::resolution::Resolution;
use crate::entity::{QuotaEntity, QuotaKey, QuotaType};
use crate::store::QuotaStore;

/// The [`DefaultQuotaCallback`]s of one broker's produce, fetch, request and
/// controller-mutation quota managers, in [`QuotaType::ALL`] order.
///
/// Kafka: the callbacks behind `QuotaFactory.QuotaManagers`
/// (`server/src/main/java/org/apache/kafka/server/quota/QuotaFactory.java`,
/// formerly `core/src/main/scala/kafka/server/QuotaFactory.scala`), one
/// `DefaultQuotaCallback` per `ClientQuotaManager`. Formerly
/// `resolve::QuotaManagers`.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotaCallbacks {
    callbacks: [DefaultQuotaCallback; 4],
}

impl Default for QuotaCallbacks {
    fn default() -> Self {
        Self::new()
    }
}

impl QuotaCallbacks {
    /// Four empty callbacks.
    pub fn new() -> Self {
        QuotaCallbacks {
            callbacks: QuotaType::ALL.map(DefaultQuotaCallback::new),
        }
    }

    /// Callbacks holding every client quota of `entries` (entity with raw
    /// names, key -> value), e.g. `QuotaStore::entries()`. `ip` entities and
    /// `connection_creation_rate` are skipped: no client quota manager holds them.
    ///
    /// Kafka: `ClientQuotaMetadataManager.handleUserClientQuotaChange`.
    pub fn from_entries<'a, I>(entries: I) -> Self
    where
        I: IntoIterator<Item = (&'a QuotaEntity, &'a BTreeMap<QuotaKey, f64>)>,
    {
        let mut m = Self::new();
        for (entity, values) in entries {
            if entity.is_ip() {
                continue;
            }
            for (key, value) in values {
                if let Some(qt) = key.quota_type() {
                    // Cannot fail: the entity is not an ip entity.
                    let _ = m.get_mut(qt).update_quota(entity, Some(*value));
                }
            }
        }
        m
    }

    /// Callbacks holding every client quota of `store` (see [`Self::from_entries`]).
    pub fn from_store(store: &QuotaStore) -> Self {
        Self::from_entries(store.entries())
    }

    /// The callback of one quota type.
    pub fn get(&self, quota_type: QuotaType) -> &DefaultQuotaCallback {
        &self.callbacks[quota_type.slot()]
    }

    /// The callback of one quota type, mutable.
    pub fn get_mut(&mut self, quota_type: QuotaType) -> &mut DefaultQuotaCallback {
        &mut self.callbacks[quota_type.slot()]
    }

    /// The four callbacks in [`QuotaType::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = &DefaultQuotaCallback> {
        self.callbacks.iter()
    }

    /// Resolves one connection for each quota type independently, in
    /// [`QuotaType::ALL`] order (produce, fetch, request, controller mutation).
    pub fn resolve_all(&self, principal_name: &str, client_id: &str) -> [Resolution; 4] {
        QuotaType::ALL.map(|qt| self.get(qt).resolve(principal_name, client_id))
    }

    /// Budget groups of `connections` for each quota type, in
    /// [`QuotaType::ALL`] order.
    pub fn budget_groups_all(&self, connections: &[ClientIdentity]) -> [BudgetGroups; 4] {
        QuotaType::ALL.map(|qt| self.get(qt).budget_groups(connections))
    }
}

/// Resolves one connection against the quotas of `store`, for each quota
/// type independently, in [`QuotaType::ALL`] order (produce, fetch, request,
/// controller mutation). `principal_name` is the raw principal name (it is
/// sanitized here); `client_id` is used verbatim.
///
/// Builds the four callbacks afresh: for repeated queries keep a
/// [`QuotaCallbacks`] from [`QuotaCallbacks::from_store`] instead.
pub fn resolve_all(store: &QuotaStore, principal_name: &str, client_id: &str) -> [Resolution; 4] {
    QuotaCallbacks::from_store(store).resolve_all(principal_name, client_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityName;
    use crate::resolve::Rung;

    #[test]
    fn each_quota_type_resolves_from_its_own_rung() {
        let user_default = QuotaEntity::User(EntityName::Default);
        let alice_app = QuotaEntity::UserClientId {
            user: EntityName::Named("alice".into()),
            client_id: EntityName::Named("app".into()),
        };
        let ip = QuotaEntity::Ip(EntityName::Default);
        let entries: Vec<(QuotaEntity, BTreeMap<QuotaKey, f64>)> = vec![
            (
                user_default,
                BTreeMap::from([
                    (QuotaKey::ProducerByteRate, 1000.0),
                    (QuotaKey::RequestPercentage, 50.0),
                ]),
            ),
            (
                alice_app,
                BTreeMap::from([(QuotaKey::ConsumerByteRate, 2000.0)]),
            ),
            (
                ip,
                BTreeMap::from([(QuotaKey::ConnectionCreationRate, 10.0)]),
            ),
        ];
        let m = QuotaCallbacks::from_entries(entries.iter().map(|(e, v)| (e, v)));
        let [produce, fetch, request, mutation] = m.resolve_all("alice", "app");
        assert_eq!(
            (produce.rung(), produce.limit()),
            (Some(Rung::DefaultUser), Some(1000.0))
        );
        assert_eq!(
            (fetch.rung(), fetch.limit()),
            (Some(Rung::UserClientId), Some(2000.0))
        );
        assert_eq!(
            (request.rung(), request.limit()),
            (Some(Rung::DefaultUser), Some(50.0))
        );
        assert_eq!(mutation.matched, None);
        assert!(!mutation.quotas_enabled());
        assert_eq!(
            fetch.mbean_name().unwrap(),
            "kafka.server:type=Fetch,user=alice,client-id=app"
        );
    }

    #[test]
    fn resolve_all_reads_the_store() {
        let mut store = QuotaStore::new();
        store
            .set(
                &QuotaEntity::user("CN=alice,OU=eng"),
                QuotaKey::ProducerByteRate,
                1024.0,
            )
            .unwrap();
        store
            .set(
                &QuotaEntity::ClientId(EntityName::Default),
                QuotaKey::ControllerMutationRate,
                2.0,
            )
            .unwrap();
        let [produce, fetch, _, mutation] = resolve_all(&store, "CN=alice,OU=eng", "app");
        assert_eq!(produce.limit(), Some(1024.0));
        assert_eq!(produce.sanitized_user, "CN%3Dalice%2COU%3Deng");
        assert_eq!(fetch.limit(), None);
        assert_eq!(
            (mutation.rung(), mutation.limit()),
            (Some(Rung::DefaultClientId), Some(2.0))
        );
        assert_eq!(mutation.metric_tags.unwrap().client_id, "app");
    }
}
