//! `kafka-quota snapshot --bootstrap-server HOST:PORT [--command-config F]
//! [--topic T]... [--out FILE]`: a running cluster as a scenario file that
//! `simulate` runs and `link` opens in the playground. Read-only.
//!
//! What it holds: every client quota of the cluster
//! (`DescribeClientQuotas`), the number of brokers and the settings a quota
//! answer depends on (`quota.window.num`, `quota.window.size.seconds`,
//! `num.io.threads`, `num.network.threads`,
//! `ssl.principal.mapping.rules`, `sasl.kerberos.principal.to.local.rules`),
//! each `--topic` with its partitions and their real leaders, and one
//! producer (the lab article's settings: 30,000 records of 1,000 B,
//! `acks=1`, `linger.ms=5`, `batch.size=65536`) on the identity of
//! `--listener`, `--user` / `--dn` and `--client-id`, writing to the first
//! topic, so that the file runs as it is. The scenario's brokers are
//! numbered 0..n-1: broker ids are mapped in ascending order, and the
//! description says how.

use std::path::PathBuf;

use clap::Args;
use quota_engine::sim::{ConnectionSpec, ListenerKind, Scenario, TopicSpec, Workload};

use super::resolve::listener_arg;
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// Arguments of `kafka-quota snapshot`.
#[derive(Debug, Args)]
#[command(after_help = "\
Exit codes:
  0  written
  1  bad input (a --command-config, a --topic that does not exist, a listener the cluster lacks)
  5  no broker answered within --timeout-ms
  6  SASL authentication failed
  7  the TLS handshake failed
  8  written with what could be read: an ACL denied the rest, or a broker could not be reached (named on stderr)
  9  the cluster does not support a request kafka-quota needs")]
pub(crate) struct SnapshotArgs {
    /// The cluster (read-only).
    #[command(flatten)]
    pub(crate) live: crate::live::LiveArgs,
    /// A topic whose partitions and leaders go into the scenario (repeat
    /// for several); the producer writes to the first.
    #[arg(long = "topic", value_name = "T")]
    pub(crate) topics: Vec<String>,
    /// The producer's listener: a listener name of the cluster, or a
    /// security protocol (default PLAINTEXT).
    #[arg(long, value_name = "LISTENER", default_value = "PLAINTEXT")]
    pub(crate) listener: String,
    /// The producer's SASL user name (SASL listeners; mechanism PLAIN unless --mechanism).
    #[arg(long, value_name = "U")]
    pub(crate) user: Option<String>,
    /// The producer's SASL mechanism.
    #[arg(long, value_name = "M")]
    pub(crate) mechanism: Option<String>,
    /// The producer's certificate DN (SSL listeners).
    #[arg(long, value_name = "DN")]
    pub(crate) dn: Option<String>,
    /// The producer's client.id.
    #[arg(long, value_name = "C", default_value = "snapshot-producer")]
    pub(crate) client_id: String,
    /// Where to write the scenario file (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

/// Runs `snapshot`; returns the exit code.
pub(crate) fn run(args: &SnapshotArgs) -> u8 {
    if args.live.bootstrap_server.is_none() {
        errln!("kafka-quota: snapshot needs --bootstrap-server HOST:PORT.");
        return super::EXIT_USAGE;
    }
    let live = match crate::live::connect(&args.live, &args.topics) {
        Ok(l) => l,
        Err((code, m)) => {
            errln!("{m}");
            return code;
        }
    };
    for d in &live.denied {
        errln!("warning: {d}");
    }
    if !live.quotas_readable {
        errln!("kafka-quota: the cluster's quotas could not be read, so no snapshot is written (a scenario without them would answer \"unlimited\").");
        return crate::live::EXIT_DENIED;
    }
    let Some(protocol) = live.listener_protocol(&args.listener).as_deref().and_then(listener_arg) else {
        errln!("kafka-quota: --listener {}: {}", args.listener, crate::live::no_such_listener(&live));
        return EXIT_BAD_INPUT;
    };
    let mut scenario: Scenario = quota_formats::scenario::with_quotas(&live.store);
    // Brokers and their settings.
    let mut rules = quota_engine::principal::PrincipalConfig::default();
    let mut settings = quota_engine::broker::BrokerSettings::default();
    let applied = crate::live::apply_settings(&live, Some(&args.listener), &mut rules, &mut settings, false, false);
    for n in &applied.notes {
        errln!("note: {n}");
    }
    for a in &applied.assumptions {
        errln!("note: {a}");
    }
    settings.ssl_principal_mapping_rules = rules.ssl_principal_mapping_rules.clone();
    settings.sasl_kerberos_principal_to_local_rules = rules
        .sasl_kerberos_principal_to_local_rules
        .as_ref()
        .map(|r| r.join(","));
    let ids: Vec<i32> = live.brokers.iter().map(|b| b.id).collect();
    scenario.brokers.count = u32::try_from(ids.len().max(1)).unwrap_or(1);
    scenario.brokers.settings = settings;
    let index = |id: i32| ids.iter().position(|x| *x == id).and_then(|i| u32::try_from(i).ok());
    // Topics with their real leaders.
    for t in &live.topics {
        let leaders: Option<Vec<u32>> = t.partitions.iter().map(|(_, l)| index(*l)).collect();
        let mut spec: TopicSpec = match serde_json::from_value(serde_json::json!({"name": t.name, "partitions": t.partitions.len().max(1)})) {
            Ok(s) => s,
            Err(e) => {
                errln!("kafka-quota: topic {} cannot be written as a scenario topic: {e}.", t.name);
                return EXIT_BAD_INPUT;
            }
        };
        match leaders {
            Some(l) => spec.leaders = Some(l),
            None => errln!("note: a partition of {} has no leader now; the scenario places its leaders as a new topic's.", t.name),
        }
        scenario.topics.push(spec);
    }
    if scenario.topics.is_empty() {
        match serde_json::from_value(serde_json::json!({"name": "lab", "partitions": 1})) {
            Ok(t) => scenario.topics.push(t),
            Err(e) => {
                errln!("kafka-quota: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    // One producer on the identity asked for.
    let listener = match protocol {
        super::resolve::ListenerArg::Plaintext => ListenerKind::Plaintext,
        super::resolve::ListenerArg::Ssl => ListenerKind::Ssl,
        super::resolve::ListenerArg::SaslPlaintext => ListenerKind::SaslPlaintext,
        super::resolve::ListenerArg::SaslSsl => ListenerKind::SaslSsl,
    };
    let identity = match listener {
        ListenerKind::Ssl => args.dn.clone(),
        ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => args.user.clone(),
        ListenerKind::Plaintext => None,
    };
    let conn: Result<ConnectionSpec, _> = serde_json::from_value(serde_json::json!({
        "name": "producer",
        "listener": listener,
        "mechanism": args.mechanism,
        "identity": identity,
        "client.id": args.client_id,
    }));
    let topic = scenario.topics[0].name.clone();
    let workload: Result<Workload, _> = serde_json::from_value(serde_json::json!({"producer": {
        "connection": "producer", "topic": topic, "records": 30000, "record.size": 1000,
        "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}
    }}));
    match (conn, workload) {
        (Ok(c), Ok(w)) => {
            scenario.connections.push(c);
            scenario.workloads.push(w);
        }
        (Err(e), _) | (_, Err(e)) => {
            errln!("kafka-quota: the producer cannot be written: {e}.");
            return EXIT_BAD_INPUT;
        }
    }
    scenario.name = format!("Snapshot of {}", live.cluster_id.as_deref().unwrap_or(&live.bootstrap));
    let mapping: Vec<String> = ids.iter().enumerate().map(|(i, id)| format!("{i} = broker {id}")).collect();
    scenario.description = format!(
        "{} Scenario brokers: {}. The producer (30,000 x 1,000 B, acks=1, linger.ms=5, batch.size=65536) is kafka-quota's, not the cluster's.",
        crate::live::provenance(&live),
        mapping.join(", ")
    );
    let text = quota_formats::scenario::to_json(&scenario);
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                errln!("kafka-quota: cannot write {}: {e}.", path.display());
                return EXIT_BAD_INPUT;
            }
            errln!("wrote {}: {} quota value{}, {} broker{}, {} topic{}.", path.display(), live.quota_values, if live.quota_values == 1 { "" } else { "s" }, ids.len(), if ids.len() == 1 { "" } else { "s" }, scenario.topics.len(), if scenario.topics.len() == 1 { "" } else { "s" });
        }
        None => out!("{text}"),
    }
    if live.denied.is_empty() {
        EXIT_OK
    } else {
        crate::live::EXIT_DENIED
    }
}
