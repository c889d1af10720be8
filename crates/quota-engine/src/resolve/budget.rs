//! Which connections share one budget: grouping by metric tags.
//!
//! Kafka: connections whose `quotaMetricTags` are equal get the same sensor
//! from `SensorAccess.getOrCreate` (the sensor name is built from the tags),
//! so they draw on one rate.

use serde::Serialize;

use super::callback::DefaultQuotaCallback;
use super::resolution::MetricTags;
use crate::entity::QuotaType;
use crate::principal::sanitize;

/// A client as the quota managers see it: the (principal name, client id)
/// pair quotas are resolved for. Every connection with the same pair
/// resolves alike. Not to be confused with
/// [`crate::principal::Connection`], the listener and credentials the
/// principal builder takes to derive the principal.
///
/// Kafka: the `(KafkaPrincipal principal, String clientId)` arguments of
/// `ClientQuotaCallback.quotaMetricTags`
/// (`clients/src/main/java/org/apache/kafka/server/quota/ClientQuotaCallback.java`).
/// Formerly `resolve::Connection`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ClientIdentity {
    /// The principal name, raw (e.g. `CN=alice,OU=eng`); sanitized when resolved.
    pub principal_name: String,
    /// The `client.id` the client sends, verbatim (may be empty).
    pub client_id: String,
}

impl ClientIdentity {
    /// A client from its principal name and client id.
    pub fn new(principal_name: &str, client_id: &str) -> Self {
        ClientIdentity {
            principal_name: principal_name.to_owned(),
            client_id: client_id.to_owned(),
        }
    }
}

/// Connections that draw on one budget: one sensor, one limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetGroup {
    /// The shared sensor's tags.
    pub metric_tags: MetricTags,
    /// The shared sensor's name (`<QuotaType>-<user>:<client-id>`).
    pub sensor_name: String,
    /// The shared broker MBean (`kafka.server:type=..,user=..,client-id=..`).
    pub mbean_name: String,
    /// The limit these tags resolve to; `None` = unlimited (the sensor still
    /// exists and meters, with bound `Long.MAX_VALUE`).
    pub limit: Option<f64>,
    /// The members, in input order (duplicates kept).
    pub members: Vec<ClientIdentity>,
}

/// The budgets of a set of connections for one quota type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetGroups {
    /// The quota type.
    pub quota_type: QuotaType,
    /// One group per distinct metric tags, in order of first appearance.
    pub groups: Vec<BudgetGroup>,
    /// Connections that are not metered at all because no quota of this type
    /// exists (the broker creates no sensor for them); empty otherwise.
    pub unmetered: Vec<ClientIdentity>,
}

impl BudgetGroups {
    /// The group a connection belongs to, if it is metered.
    pub fn group_of(&self, connection: &ClientIdentity) -> Option<&BudgetGroup> {
        self.groups.iter().find(|g| g.members.contains(connection))
    }
}

impl DefaultQuotaCallback {
    /// Groups `connections` by the budget (sensor) they draw on: two
    /// connections share a budget iff their metric tags are equal.
    ///
    /// Kafka: `getOrCreateQuotaSensors` (sensor name from the tags).
    pub fn budget_groups(&self, connections: &[ClientIdentity]) -> BudgetGroups {
        // No quota of this type: no sensor, nobody metered.
        if !self.quotas_enabled() {
            return BudgetGroups {
                quota_type: self.quota_type(),
                groups: Vec::new(),
                unmetered: connections.to_vec(),
            };
        }
        let mut groups: Vec<BudgetGroup> = Vec::new();
        for conn in connections {
            // The tags alone (`quotaMetricTags`), not the whole explained
            // resolution: this runs for every connection on every edit.
            let tags = self.metric_tags(&sanitize(&conn.principal_name), &conn.client_id);
            match groups.iter_mut().find(|g| g.metric_tags == tags) {
                Some(g) => g.members.push(conn.clone()),
                None => groups.push(BudgetGroup {
                    sensor_name: tags.sensor_name(self.quota_type()),
                    mbean_name: tags.mbean_name(self.quota_type()),
                    limit: self.quota_limit(&tags),
                    metric_tags: tags,
                    members: vec![conn.clone()],
                }),
            }
        }
        BudgetGroups {
            quota_type: self.quota_type(),
            groups,
            unmetered: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{EntityName, QuotaEntity};

    #[test]
    fn client_id_quota_is_shared_by_every_user_of_that_client() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
        m.update_quota(&QuotaEntity::client_id("app"), Some(1000.0))
            .unwrap();
        m.update_quota(&QuotaEntity::user("carol"), Some(50.0))
            .unwrap();
        let conns = [
            ClientIdentity::new("alice", "app"),
            ClientIdentity::new("bob", "app"),
            ClientIdentity::new("carol", "app"),
            ClientIdentity::new("bob", "other"),
        ];
        let g = m.budget_groups(&conns);
        assert_eq!(g.groups.len(), 3);
        assert_eq!(g.groups[0].members, conns[..2].to_vec());
        assert_eq!(g.groups[0].limit, Some(1000.0));
        assert_eq!(
            g.groups[0].mbean_name,
            "kafka.server:type=Produce,client-id=app"
        );
        assert_eq!(
            g.group_of(&conns[2]).unwrap().metric_tags,
            MetricTags::new("carol", "")
        );
        assert_eq!(g.group_of(&conns[3]).unwrap().limit, None);
        assert!(g.unmetered.is_empty());
    }

    #[test]
    fn nothing_is_metered_without_quotas() {
        let mut m = DefaultQuotaCallback::new(QuotaType::Fetch);
        let conns = [ClientIdentity::new("alice", "app")];
        assert_eq!(m.budget_groups(&conns).unmetered, conns.to_vec());
        m.update_quota(&QuotaEntity::User(EntityName::Default), Some(1.0))
            .unwrap();
        assert!(m.budget_groups(&conns).unmetered.is_empty());
    }

    /// The groups take the tags from `metric_tags` alone; they must be the
    /// tags the explained resolution gives, for every subset of the eight
    /// rungs and connections whose names need sanitizing or are empty.
    #[test]
    fn group_tags_are_the_resolutions_tags_for_every_set_of_rungs() {
        use crate::resolve::Rung;
        let conns = [
            ClientIdentity::new("alice", "c1"),
            ClientIdentity::new("alice", "c2"),
            ClientIdentity::new("bob", "c1"),
            ClientIdentity::new("CN=a b,O=x", "c1"),
            ClientIdentity::new("CN=a b,O=x", "c2"),
            ClientIdentity::new("", ""),
            ClientIdentity::new("alice", ""),
        ];
        for set in 0u32..(1 << 8) {
            let mut m = DefaultQuotaCallback::new(QuotaType::Produce);
            for (i, r) in Rung::ALL.into_iter().enumerate() {
                if set & (1 << i) != 0 {
                    m.update_quota(&r.entity("alice", "c1"), Some(f64::from(r.number()) * 10.0)).unwrap();
                    // The same rung for a user whose name needs sanitizing.
                    m.update_quota(&r.entity("CN=a b,O=x", "c2"), Some(f64::from(r.number()) * 100.0)).unwrap();
                }
            }
            let g = m.budget_groups(&conns);
            for c in &conns {
                let want = m.resolve(&c.principal_name, &c.client_id).metric_tags;
                assert_eq!(g.group_of(c).map(|g| g.metric_tags.clone()), want, "rungs {set:#010b}, {c:?}");
                assert_eq!(g.unmetered.contains(c), want.is_none());
            }
        }
    }
}
