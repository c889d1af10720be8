//! What the format modules hand over: the quota lines an importer read
//! from a text ([`QuotaImport`]), and a store an exporter wrote as a text
//! ([`Export`]) with what the format could not express ([`Unexpressed`]).
//!
//! Every format module (`describe`, `java`, `rpk`, `strimzi`, `terraform`)
//! depends on this module and [`crate::detect`] depends on the formats;
//! nothing here knows a format.

use std::collections::BTreeMap;
use std::fmt;

use quota_engine::{EntityName, EntityType, QuotaEntity, QuotaKey, QuotaStore};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Position};

/// One entity's quotas read from a text: a describe line, a Strimzi
/// `quotas:` block, a Terraform resource, an Admin API alteration.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedQuota {
    /// The entity the line describes.
    pub entity: QuotaEntity,
    /// Its values in the order printed (may be empty: `... are ` with
    /// nothing after it).
    pub values: Vec<(QuotaKey, f64)>,
    /// Where the line starts.
    pub position: Position,
}

/// The quota lines read from a text: one entry per entity (or per value)
/// with its position, plus notes on what was read but not imported.
///
/// Every line-oriented importer of this crate returns it
/// ([`crate::describe::parse_describe_output`] as
/// [`crate::describe::DescribeImport`], the same type).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QuotaImport {
    /// The quota lines, in order.
    pub quotas: Vec<DescribedQuota>,
    /// Lines recognised but not imported (alter confirmations, SCRAM
    /// credential lines, warnings, non-quota keys), one sentence each.
    pub notes: Vec<(Position, String)>,
    /// Items that could not be read and were left out, each with its
    /// error (the readers that skip an item, e.g.
    /// [`crate::terraform::parse_each`]; always empty from the others).
    pub skipped: Vec<Error>,
    /// What the text says about where its quotas go that an export in the
    /// same format keeps (a Strimzi KafkaUser's `strimzi.io/cluster` label
    /// and namespace); empty from the readers that have none.
    pub keep: ExportOptions,
}

impl QuotaImport {
    /// Sets each item's values read into `store` as one `AlterClientQuotas`
    /// entry (consecutive items of one entity together: a Terraform
    /// resource read value by value), as Kafka applies an entry, all its
    /// values or none (`ClientQuotaControlManager.alterClientQuotaEntity`);
    /// an entry Kafka refuses is left out and the others still apply.
    /// Returns the refused entries' errors ([`crate::ErrorKind::Rejected`] at the
    /// value Kafka's message names), in order.
    pub fn apply_each(&self, store: &mut QuotaStore) -> Vec<Error> {
        let mut refused = Vec::new();
        let items: Vec<&DescribedQuota> = self.quotas.iter().filter(|q| !q.values.is_empty()).collect();
        // A reader that gives one item per value (a Terraform resource's
        // config map) gives them one after the other: a run of items of
        // one entity is one entry.
        for run in items.chunk_by(|a, b| a.entity == b.entity) {
            let alteration = quota_engine::Alteration {
                entity: quota_engine::RawEntity::from_entity(&run[0].entity),
                ops: run
                    .iter()
                    .flat_map(|q| q.values.iter().map(|(k, v)| quota_engine::Op::set(k.as_str(), *v)))
                    .collect(),
            };
            if let Some(e) = store.alter(&[alteration]).into_iter().find_map(|r| r.error) {
                // At the value Kafka's message names, else the entry's start.
                let at = run
                    .iter()
                    .find(|q| q.values.iter().any(|(k, _)| e.message.contains(k.as_str())))
                    .unwrap_or(&run[0])
                    .position;
                refused.push(Error::rejected(at, e));
            }
        }
        refused
    }

    /// Sets every value read into `store` (import a cluster's quotas),
    /// line by line; stops at the first value Kafka would reject.
    ///
    /// # Errors
    ///
    /// [`crate::ErrorKind::Rejected`] at the line of a value the store refuses
    /// (Kafka's message, e.g. `Quota producer_byte_rate must be greater than 0`).
    pub fn apply(&self, store: &mut QuotaStore) -> Result<(), Error> {
        for q in &self.quotas {
            for (key, value) in &q.values {
                store
                    .set(&q.entity, *key, *value)
                    .map_err(|e| Error::rejected(q.position, e))?;
            }
        }
        Ok(())
    }
}

/// The entity types of `parts` joined for an error message about a
/// combination Kafka has no entity for: `user + ip`.
pub(crate) fn type_combination(parts: &[(EntityType, EntityName)]) -> String {
    parts
        .iter()
        .map(|(t, _)| t.as_str())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Quotas a format cannot express, and why: exporters list them instead of
/// dropping them silently.
#[derive(Debug, Clone, PartialEq)]
pub struct Unexpressed {
    /// The entity.
    pub entity: QuotaEntity,
    /// The keys left out, with their values.
    pub values: Vec<(QuotaKey, f64)>,
    /// Why, as a clause: `Strimzi's KafkaUser has no client-id quotas`.
    pub reason: String,
}

impl fmt::Display for Unexpressed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(k, v)| format!("{}={}", k.as_str(), quota_engine::java_double_to_string(*v)))
            .collect();
        write!(
            f,
            "{} ({}) is left out: {}.",
            self.entity.path(),
            values.join(", "),
            self.reason
        )
    }
}

/// A store written in one format.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The text, ready to save.
    pub text: String,
    /// What the format cannot express; also listed as comments in `text`
    /// where the format has comments.
    pub unexpressed: Vec<Unexpressed>,
    /// What to know before using the text (e.g. the principal Strimzi
    /// gives a `tls` user), one sentence each; also comments in `text`.
    pub notes: Vec<String>,
}

/// What an export needs besides the quotas, where the format names it:
/// the cluster to send kafka-configs.sh commands to, the Strimzi
/// `KafkaUser`'s apiVersion, cluster label and namespace. `None` is the
/// writer's default. An import fills in what its text said
/// ([`crate::detect::Imported::keep`]), so a round trip keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ExportOptions {
    /// kafka-configs.sh `--bootstrap-server` (default `localhost:9092`).
    pub bootstrap_server: Option<String>,
    /// Strimzi `apiVersion`, e.g. `kafka.strimzi.io/v1` (the default).
    pub strimzi_api_version: Option<String>,
    /// Strimzi `metadata.labels."strimzi.io/cluster"`: the name of the
    /// Kafka resource the User Operator serves (default `my-cluster`).
    pub strimzi_cluster: Option<String>,
    /// Strimzi `metadata.namespace` (default: none written, so `kubectl
    /// apply` uses the current namespace).
    pub strimzi_namespace: Option<String>,
}

/// The store's entities that have values, each with its `(key, value)`
/// pairs in key order.
pub(crate) fn by_entity(store: &QuotaStore) -> BTreeMap<QuotaEntity, Vec<(QuotaKey, f64)>> {
    store
        .entries()
        .filter(|(_, v)| !v.is_empty())
        .map(|(e, v)| (e.clone(), v.iter().map(|(k, x)| (*k, *x)).collect()))
        .collect()
}
