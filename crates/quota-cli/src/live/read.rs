//! What kafka-quota reads from a live cluster, read-only: `Metadata`
//! (brokers, the leaders of the topics asked for), `DescribeCluster` (the
//! controller), `DescribeClientQuotas` (every entity and default) and, on
//! each broker, `DescribeConfigs` of the settings a quota answer depends
//! on. Nothing is ever altered: no `AlterClientQuotas`, no
//! `AlterConfigs`, no `CreateTopics`.
//!
//! Kafka: `KafkaAdminClient.describeClientQuotas`, `describeConfigs`
//! (a broker's configs are asked of that broker:
//! `ConfigHelper.describeConfigs` answers `INVALID_REQUEST` for another
//! broker's id), `describeCluster`
//! (clients/src/main/java/org/apache/kafka/clients/admin/KafkaAdminClient.java).

use std::collections::BTreeMap;
use std::time::Duration;

use kafka_protocol::messages::describe_client_quotas_request::DescribeClientQuotasRequest;
use kafka_protocol::messages::describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource};
use kafka_protocol::messages::metadata_request::{MetadataRequest, MetadataRequestTopic};
use kafka_protocol::messages::{DescribeClusterRequest, TopicName};
use kafka_protocol::protocol::StrBytes;
use quota_engine::store::{Alteration, Op, RawEntity};
use quota_engine::QuotaStore;

use super::config::ClientSecurity;
use super::wire::{error_name, Conn, Fault, FaultKind};

/// The broker settings read with `DescribeConfigs`, in this order.
pub(crate) const CONFIG_KEYS: [&str; 12] = [
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "ssl.principal.mapping.rules",
    "ssl.client.auth",
    "sasl.kerberos.principal.to.local.rules",
    "principal.builder.class",
    "client.quota.callback.class",
    "quota.window.num",
    "quota.window.size.seconds",
    "num.io.threads",
    "num.network.threads",
];

/// `DescribeConfigs` resource type of a broker.
const BROKER_RESOURCE: i8 = 4;

/// One broker as `Metadata` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Broker {
    /// `node.id`.
    pub(crate) id: i32,
    /// Advertised host of the listener connected through.
    pub(crate) host: String,
    /// Its port.
    pub(crate) port: i32,
}

/// A topic's partitions and their leaders (`-1` = no leader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TopicLeaders {
    /// The topic.
    pub(crate) name: String,
    /// `(partition, leader id)`, by partition.
    pub(crate) partitions: Vec<(i32, i32)>,
}

/// Everything read from the cluster.
#[derive(Debug)]
pub(crate) struct LiveCluster {
    /// The address the answer came from first.
    pub(crate) bootstrap: String,
    /// The cluster id, when `Metadata` gave one.
    pub(crate) cluster_id: Option<String>,
    /// The controller id `DescribeCluster` gives. On a KRaft cluster it is
    /// a live broker's id, not the active controller (which clients never
    /// see); kept only as that.
    pub(crate) controller: Option<i32>,
    /// The brokers, by id.
    pub(crate) brokers: Vec<Broker>,
    /// The quotas, replayed into the engine's store as Kafka holds them.
    pub(crate) store: QuotaStore,
    /// How many `(entity, key)` pairs `DescribeClientQuotas` returned.
    pub(crate) quota_values: usize,
    /// `broker id -> key -> value` (`None`: not set, or sensitive).
    pub(crate) configs: BTreeMap<i32, BTreeMap<String, Option<String>>>,
    /// The topics asked for.
    pub(crate) topics: Vec<TopicLeaders>,
    /// What could not be read, one sentence each (an ACL denial names the
    /// operation and resource).
    pub(crate) denied: Vec<String>,
    /// The SASL user the connection authenticated as, if any.
    pub(crate) authenticated_as: Option<String>,
    /// The security protocol connected with.
    pub(crate) security_protocol: &'static str,
    /// False when `DescribeClientQuotas` was denied: no limit can be given.
    pub(crate) quotas_readable: bool,
}

impl LiveCluster {
    /// The value of `key` on every broker that answered, when they agree:
    /// `Ok(value)`; `Err(per broker)` when they differ.
    pub(crate) fn config(&self, key: &str) -> Result<Option<String>, Vec<(i32, Option<String>)>> {
        let values: Vec<(i32, Option<String>)> = self
            .configs
            .iter()
            .map(|(id, c)| (*id, c.get(key).cloned().flatten()))
            .collect();
        match values.first() {
            None => Ok(None),
            Some((_, first)) if values.iter().all(|(_, v)| v == first) => Ok(first.clone()),
            Some(_) => Err(values),
        }
    }

    /// The security protocol of listener `name` from
    /// `listener.security.protocol.map` (or the name itself when it is a
    /// protocol and the map does not name it, as Kafka's default map does).
    pub(crate) fn listener_protocol(&self, name: &str) -> Option<String> {
        let map = self.config("listener.security.protocol.map").ok().flatten().unwrap_or_default();
        for pair in map.split(',') {
            if let Some((l, p)) = pair.split_once(':') {
                if l.trim().eq_ignore_ascii_case(name) {
                    return Some(p.trim().to_ascii_uppercase());
                }
            }
        }
        super::config::SecurityProtocol::from_name(name).map(|p| p.name().to_owned())
    }

    /// The listener names of `listeners` on the brokers.
    /// (Each broker has its own `listeners`, with its own ports: the names
    /// of all of them, in the order the first broker lists them.)
    pub(crate) fn listener_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for c in self.configs.values() {
            let listeners = c.get("listeners").cloned().flatten().unwrap_or_default();
            for n in listeners.split(',').filter_map(|l| l.split_once("://").map(|(n, _)| n.trim().to_owned())) {
                if !n.is_empty() && !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        names
    }
}

fn strs(v: &str) -> StrBytes {
    StrBytes::from_string(v.to_owned())
}

/// Reads the cluster through the first of `bootstrap` that answers; asks
/// each broker for its own configs; `topics` are the topics whose leaders
/// are wanted.
///
/// # Errors
/// A [`Fault`] when no bootstrap broker can be used (every address
/// unreachable, TLS or authentication failing) or `Metadata` fails. ACL
/// denials of `DescribeClientQuotas` and `DescribeConfigs` are not errors:
/// they are listed in [`LiveCluster::denied`] and the rest is answered.
pub(crate) fn read_cluster(
    bootstrap: &[String],
    security: &ClientSecurity,
    topics: &[String],
    timeout: Duration,
) -> Result<LiveCluster, Fault> {
    let mut faults = Vec::new();
    let mut conn = None;
    for addr in bootstrap {
        match Conn::open(addr, security, timeout) {
            Ok(c) => {
                conn = Some(c);
                break;
            }
            // Authentication and TLS faults are the same on every broker.
            Err(f) if matches!(f.kind, FaultKind::Auth | FaultKind::Tls | FaultKind::TooOld) => return Err(f),
            Err(f) => faults.push(f),
        }
    }
    let Some(mut conn) = conn else {
        let first = faults.first().cloned().unwrap_or_else(|| Fault::new(FaultKind::Unreachable, "kafka-quota: --bootstrap-server names no address."));
        // The kind every address failed with (a non-Kafka answer is not
        // "unreachable"); unreachable when they differ.
        let kind = if faults.iter().all(|f| f.kind == first.kind) { first.kind } else { FaultKind::Unreachable };
        return Err(Fault::new(
            kind,
            format!(
                "{} No bootstrap server of --bootstrap-server {} could be used (timeout {} ms each).",
                first.message,
                bootstrap.join(","),
                timeout.as_millis()
            ),
        ));
    };
    let mut denied = Vec::new();

    // Metadata: brokers, and the leaders of the topics asked for.
    let mv = conn.version::<MetadataRequest>(12)?;
    let req = MetadataRequest::default()
        .with_topics(Some(
            topics
                .iter()
                .map(|t| MetadataRequestTopic::default().with_name(Some(TopicName(strs(t)))))
                .collect(),
        ))
        .with_allow_auto_topic_creation(false);
    let md = conn.call(&req, mv)?;
    let mut brokers: Vec<Broker> = md
        .brokers
        .iter()
        .map(|b| Broker {
            id: b.node_id.0,
            host: b.host.to_string(),
            port: b.port,
        })
        .collect();
    brokers.sort_by_key(|b| b.id);
    let mut topic_leaders = Vec::new();
    for t in &md.topics {
        let name = t.name.as_ref().map(|n| n.0.to_string()).unwrap_or_default();
        if t.error_code != 0 {
            let why = error_name(t.error_code);
            if why.contains("AUTHORIZATION") {
                denied.push(format!("Metadata of topic {name} was denied ({why}): it needs DESCRIBE on TOPIC {name}."));
            } else {
                return Err(Fault::new(
                    FaultKind::NotFound,
                    format!("kafka-quota: --topic {name}: the cluster answers {why}{}.", if why == "UNKNOWN_TOPIC_OR_PARTITION" { " (no such topic)" } else { "" }),
                ));
            }
            continue;
        }
        let mut partitions: Vec<(i32, i32)> = t.partitions.iter().map(|p| (p.partition_index, p.leader_id.0)).collect();
        partitions.sort_unstable();
        topic_leaders.push(TopicLeaders { name, partitions });
    }

    // DescribeCluster: the controller as clients see it.
    let controller = match conn.version::<DescribeClusterRequest>(1) {
        Ok(v) => conn.call(&DescribeClusterRequest::default(), v).ok().and_then(|r| (r.error_code == 0).then_some(r.controller_id.0)),
        Err(_) => None,
    };

    // DescribeClientQuotas: every entity, defaults included.
    let mut store = QuotaStore::new();
    let mut quota_values = 0;
    let mut quotas_readable = true;
    let qv = conn.version::<DescribeClientQuotasRequest>(1)?;
    let quotas = conn.call(&DescribeClientQuotasRequest::default().with_strict(false), qv)?;
    if quotas.error_code != 0 {
        let why = error_name(quotas.error_code);
        let kafka = quotas.error_message.map(|m| m.to_string()).unwrap_or_default();
        if why.contains("AUTHORIZATION") {
            quotas_readable = false;
            denied.push(format!(
                "DescribeClientQuotas was denied ({why}{}): it needs DESCRIBE_CONFIGS on CLUSTER kafka-cluster, so no quota can be read.",
                if kafka.is_empty() { String::new() } else { format!(": {kafka}") }
            ));
        } else {
            return Err(Fault::new(FaultKind::Protocol, format!("kafka-quota: DescribeClientQuotas failed: {why} {kafka}.")));
        }
    }
    for entry in quotas.entries.unwrap_or_default() {
        let entity = RawEntity(
            entry
                .entity
                .iter()
                .map(|e| (e.entity_type.to_string(), e.entity_name.as_ref().map(|n| n.to_string())))
                .collect(),
        );
        let ops: Vec<Op> = entry.values.iter().map(|v| Op::set(&v.key, v.value)).collect();
        quota_values += ops.len();
        let results = store.alter(&[Alteration { entity: entity.clone(), ops }]);
        if let Some(e) = results.into_iter().find_map(|r| r.error) {
            denied.push(format!("a quota the cluster holds for {entity:?} was left out: {}", e.message));
        }
    }

    // DescribeConfigs, each broker asked for its own.
    let mut configs = BTreeMap::new();
    for b in &brokers {
        let addr = format!("{}:{}", b.host, b.port);
        let mut own;
        let c = if addr == conn.addr {
            &mut conn
        } else {
            match Conn::open(&addr, security, timeout) {
                Ok(c) => {
                    own = c;
                    &mut own
                }
                Err(f) => {
                    denied.push(format!("broker {}'s configs could not be read: {}", b.id, f.message));
                    continue;
                }
            }
        };
        let dv = match c.version::<DescribeConfigsRequest>(4) {
            Ok(v) => v,
            Err(f) => {
                denied.push(format!("broker {}'s configs could not be read: {}", b.id, f.message));
                continue;
            }
        };
        // Every config, not only CONFIG_KEYS: the listener-prefixed
        // overrides (`listener.name.<l>.ssl.client.auth`, ...) come back only
        // this way (`ConfigHelper.allConfigs` is the broker's originals plus
        // its values); sensitive values come back null.
        let req = DescribeConfigsRequest::default().with_resources(vec![DescribeConfigsResource::default()
            .with_resource_type(BROKER_RESOURCE)
            .with_resource_name(strs(&b.id.to_string()))
            .with_configuration_keys(None)]);
        let resp = match c.call(&req, dv) {
            Ok(r) => r,
            Err(f) => {
                denied.push(format!("broker {}'s configs could not be read: {}", b.id, f.message));
                continue;
            }
        };
        for r in resp.results {
            if r.error_code != 0 {
                let why = error_name(r.error_code);
                if why.contains("AUTHORIZATION") {
                    denied.push(format!(
                        "DescribeConfigs of broker {} was denied ({why}): it needs DESCRIBE_CONFIGS on CLUSTER kafka-cluster; Kafka's defaults are assumed for its settings.",
                        b.id
                    ));
                } else {
                    denied.push(format!("DescribeConfigs of broker {} failed: {why}.", b.id));
                }
                continue;
            }
            let map: BTreeMap<String, Option<String>> = r
                .configs
                .iter()
                .map(|c| (c.name.to_string(), if c.is_sensitive { None } else { c.value.as_ref().map(|v| v.to_string()) }))
                .collect();
            configs.insert(b.id, map);
        }
    }
    Ok(LiveCluster {
        bootstrap: conn.addr.clone(),
        cluster_id: md.cluster_id.map(|c| c.to_string()),
        controller,
        brokers,
        store,
        quota_values,
        configs,
        topics: topic_leaders,
        denied,
        authenticated_as: conn.authenticated_as.clone(),
        security_protocol: security.protocol.name(),
        quotas_readable,
    })
}
