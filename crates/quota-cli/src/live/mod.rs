//! The live cluster: `--bootstrap-server` and `--command-config` on
//! `resolve`, and `snapshot`. Read-only (docs/live-cluster.md).
//!
//! Faults have one sentence each and their own exit code:
//! [`EXIT_UNREACHABLE`], [`EXIT_AUTH`], [`EXIT_TLS`], [`EXIT_DENIED`] (the
//! answer is given with what could be read), [`EXIT_UNSUPPORTED`]. No
//! output names a password, a key or a token.

pub(crate) mod config;
pub(crate) mod read;
mod scram512;
pub(crate) mod wire;

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

pub(crate) use read::LiveCluster;
use wire::{Fault, FaultKind};

/// No broker of `--bootstrap-server` answered within the timeout.
pub(crate) const EXIT_UNREACHABLE: u8 = 5;
/// SASL authentication failed.
pub(crate) const EXIT_AUTH: u8 = 6;
/// The TLS handshake failed.
pub(crate) const EXIT_TLS: u8 = 7;
/// Answered with what could be read: an ACL denied part of it.
pub(crate) const EXIT_DENIED: u8 = 8;
/// The cluster is older than the requests need, or answered what
/// kafka-quota cannot read.
pub(crate) const EXIT_UNSUPPORTED: u8 = 9;

/// The flags that reach a live cluster.
#[derive(Debug, Clone, Args)]
pub(crate) struct LiveArgs {
    /// Read the quotas and the brokers' settings from a running cluster
    /// (HOST:PORT[,HOST:PORT...]), read-only.
    #[arg(long, value_name = "HOST:PORT[,...]")]
    pub(crate) bootstrap_server: Option<String>,
    /// The client properties file for --bootstrap-server, as
    /// kafka-configs.sh --command-config takes it (security.protocol,
    /// sasl.mechanism PLAIN/SCRAM-SHA-256/SCRAM-SHA-512, sasl.jaas.config,
    /// ssl.truststore.* and ssl.keystore.* in PEM).
    #[arg(long, value_name = "FILE", requires = "bootstrap_server")]
    pub(crate) command_config: Option<PathBuf>,
    /// How long to wait for a broker to connect or answer, ms.
    #[arg(long, value_name = "MS", default_value_t = 10_000, requires = "bootstrap_server")]
    pub(crate) timeout_ms: u64,
}

/// The exit code of a fault.
pub(crate) fn exit_code(kind: FaultKind) -> u8 {
    match kind {
        FaultKind::Unreachable => EXIT_UNREACHABLE,
        FaultKind::Auth => EXIT_AUTH,
        FaultKind::Tls => EXIT_TLS,
        FaultKind::NotFound => crate::cmd::EXIT_BAD_INPUT,
        FaultKind::TooOld | FaultKind::Protocol => EXIT_UNSUPPORTED,
    }
}

/// Reads the cluster `args` names, with the topics in `topics`.
///
/// # Errors
/// `(exit code, message for stderr)`.
pub(crate) fn connect(args: &LiveArgs, topics: &[String]) -> Result<LiveCluster, (u8, String)> {
    let Some(servers) = &args.bootstrap_server else {
        return Err((crate::cmd::EXIT_BAD_INPUT, "kafka-quota: no --bootstrap-server.".to_owned()));
    };
    let bootstrap: Vec<String> = servers.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect();
    if bootstrap.is_empty() {
        return Err((crate::cmd::EXIT_BAD_INPUT, "kafka-quota: --bootstrap-server names no address (HOST:PORT[,HOST:PORT...]).".to_owned()));
    }
    for b in &bootstrap {
        if b.rsplit_once(':').is_none_or(|(h, p)| h.is_empty() || p.parse::<u16>().is_err()) {
            return Err((
                crate::cmd::EXIT_BAD_INPUT,
                format!("kafka-quota: --bootstrap-server {b} is not HOST:PORT."),
            ));
        }
    }
    let security = match &args.command_config {
        None => config::ClientSecurity::plaintext(),
        Some(path) => {
            let props = config::read_properties(path).map_err(|m| (crate::cmd::EXIT_BAD_INPUT, m))?;
            config::security(&props, &path.display().to_string()).map_err(|m| (crate::cmd::EXIT_BAD_INPUT, m))?
        }
    };
    read::read_cluster(&bootstrap, &security, topics, Duration::from_millis(args.timeout_ms.max(1)))
        .map_err(|f: Fault| (exit_code(f.kind), f.message))
}

/// [`connect`] when `--bootstrap-server` is given (`Ok(None)` otherwise);
/// on a fault, its sentence goes to stderr and `Err` is the exit code.
pub(crate) fn connect_if_asked(args: &LiveArgs, topics: &[String]) -> Result<Option<LiveCluster>, u8> {
    if args.bootstrap_server.is_none() {
        return Ok(None);
    }
    connect(args, topics).map(Some).map_err(|(code, m)| {
        errln!("{m}");
        code
    })
}

/// The last line of a live answer: what was read from where.
pub(crate) fn provenance(live: &LiveCluster) -> String {
    let ids: Vec<String> = live.brokers.iter().map(|b| b.id.to_string()).collect();
    let configs: Vec<String> = live.configs.keys().map(ToString::to_string).collect();
    let settings = match configs.len() {
        0 => "no broker's settings".to_owned(),
        1 => format!("the settings of broker {}", configs[0]),
        _ => format!("the settings of brokers {}", configs.join(", ")),
    };
    let topics = if live.topics.is_empty() {
        String::new()
    } else {
        format!(
            ", the leaders of {} (Metadata)",
            live.topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
        )
    };
    format!(
        "Read from {} over {}{}{}: {} broker{} ({}), {} quota value{} (DescribeClientQuotas), {settings} (DescribeConfigs){topics}.",
        live.bootstrap,
        live.security_protocol,
        live.authenticated_as.as_ref().map_or(String::new(), |u| format!(" as {u}")),
        live.cluster_id.as_ref().map_or(String::new(), |c| format!(", cluster {c}")),
        live.brokers.len(),
        if live.brokers.len() == 1 { "" } else { "s" },
        ids.join(", "),
        live.quota_values,
        if live.quota_values == 1 { "" } else { "s" },
    )
}

/// What [`apply_settings`] took from the cluster.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    /// Notes for stderr: a setting that differs between brokers, a flag
    /// that overrides the cluster's value.
    pub(crate) notes: Vec<String>,
    /// What the answer assumes, said before it: a custom
    /// `principal.builder.class` or `client.quota.callback.class`.
    pub(crate) assumptions: Vec<String>,
    /// The listener's `ssl.client.auth`, when the cluster gave it.
    pub(crate) ssl_client_auth: Option<crate::cmd::resolve::ClientAuthArg>,
}

/// A setting of the cluster, with a note when brokers differ (the
/// lowest-numbered broker's value is used).
fn setting(live: &LiveCluster, key: &str, notes: &mut Vec<String>) -> Option<String> {
    match live.config(key) {
        Ok(v) => v,
        Err(per_broker) => {
            let list: Vec<String> = per_broker
                .iter()
                .map(|(id, v)| format!("broker {id}: {}", v.as_deref().unwrap_or("(not set)")))
                .collect();
            notes.push(format!(
                "the brokers differ in {key} ({}); the answer uses broker {}'s.",
                list.join("; "),
                per_broker[0].0
            ));
            per_broker[0].1.clone()
        }
    }
}

/// Puts the cluster's principal rules and quota settings into `rules` and
/// `settings`: `ssl.principal.mapping.rules` and
/// `sasl.kerberos.principal.to.local.rules` (unless the flags give them:
/// `flag_ssl_rules`, `flag_kerberos_rules`), `quota.window.num`,
/// `quota.window.size.seconds`, `num.io.threads`, `num.network.threads`,
/// and the `ssl.client.auth` of `listener`.
pub(crate) fn apply_settings(
    live: &LiveCluster,
    listener: Option<&str>,
    rules: &mut quota_engine::principal::PrincipalConfig,
    settings: &mut quota_engine::broker::BrokerSettings,
    flag_ssl_rules: bool,
    flag_kerberos_rules: bool,
) -> Applied {
    let mut a = Applied::default();
    // A listener's own override (`listener.name.<name>.<key>`, the name in
    // lower case) wins over the broker-wide value.
    let prefixed = |key: &str| listener.map(|l| format!("listener.name.{}.{key}", l.to_ascii_lowercase()));
    let own = |key: &str, notes: &mut Vec<String>| prefixed(key).and_then(|k| setting(live, &k, notes));
    let ssl_rules = match own("ssl.principal.mapping.rules", &mut a.notes) {
        Some(v) => Some(v),
        None => setting(live, "ssl.principal.mapping.rules", &mut a.notes),
    };
    if flag_ssl_rules {
        if ssl_rules.as_deref().unwrap_or("DEFAULT") != rules.ssl_principal_mapping_rules.as_deref().unwrap_or("DEFAULT") {
            a.notes.push(format!(
                "--ssl-mapping-rules is used instead of the cluster's ssl.principal.mapping.rules={}.",
                ssl_rules.as_deref().unwrap_or("DEFAULT")
            ));
        }
    } else {
        rules.ssl_principal_mapping_rules = ssl_rules;
    }
    let krb = setting(live, "sasl.kerberos.principal.to.local.rules", &mut a.notes);
    if !flag_kerberos_rules {
        rules.sasl_kerberos_principal_to_local_rules = krb.map(|r| quota_engine::principal::parse_config_list(&r));
    }
    let num = |key: &str, notes: &mut Vec<String>| setting(live, key, notes).and_then(|v| v.trim().parse::<u32>().ok());
    if let Some(n) = num("quota.window.num", &mut a.notes) {
        settings.quota_window_num = n;
    }
    if let Some(n) = num("quota.window.size.seconds", &mut a.notes) {
        settings.quota_window_size_seconds = n;
    }
    if let Some(n) = num("num.io.threads", &mut a.notes) {
        settings.num_io_threads = n;
    }
    if let Some(n) = num("num.network.threads", &mut a.notes) {
        settings.num_network_threads = n;
    }
    if let Some(class) = setting(live, "principal.builder.class", &mut a.notes) {
        if !class.is_empty() && !class.ends_with(".DefaultKafkaPrincipalBuilder") {
            a.assumptions.push(format!(
                "the cluster sets principal.builder.class={class}; this answer derives the principal as Kafka's DefaultKafkaPrincipalBuilder does, which that class may not."
            ));
        }
    }
    if let Some(class) = setting(live, "client.quota.callback.class", &mut a.notes) {
        if !class.is_empty() {
            a.assumptions.push(format!(
                "the cluster sets client.quota.callback.class={class}; this answer follows Kafka's DefaultQuotaCallback (the eight-rung ladder), which that class may not."
            ));
        }
    }
    // ssl.client.auth: the listener's own value, else the broker-wide one,
    // which a SASL_SSL listener ignores (KIP-684: only
    // `listener.name.<l>.ssl.client.auth` applies there).
    if let Some(l) = listener {
        let sasl_ssl = live.listener_protocol(l).as_deref() == Some("SASL_SSL");
        let value = match own("ssl.client.auth", &mut a.notes) {
            Some(v) => Some(v),
            None if sasl_ssl => None,
            None => setting(live, "ssl.client.auth", &mut a.notes),
        };
        a.ssl_client_auth = match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("required") => Some(crate::cmd::resolve::ClientAuthArg::Required),
            Some("requested") => Some(crate::cmd::resolve::ClientAuthArg::Requested),
            Some("none") => Some(crate::cmd::resolve::ClientAuthArg::None),
            _ => None,
        };
    }
    a
}

/// Why a listener name is not the cluster's, with the names it has.
pub(crate) fn no_such_listener(live: &LiveCluster) -> String {
    let names = live.listener_names();
    if names.is_empty() {
        "the cluster's listeners could not be read (DescribeConfigs gave no `listeners`), so only a security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) can be given.".to_owned()
    } else {
        format!("the cluster has no such listener (its listeners: {}).", names.join(", "))
    }
}

/// A note when `--listener` is a security protocol that no listener of
/// the cluster uses (`listener.security.protocol.map`).
pub(crate) fn protocol_note(live: &LiveCluster, listener: &str) -> Option<String> {
    let protocol = config::SecurityProtocol::from_name(listener)?.name();
    let map = live.config("listener.security.protocol.map").ok().flatten()?;
    let used: Vec<&str> = map.split(',').filter_map(|p| p.split_once(':').map(|(_, v)| v.trim())).collect();
    let named = live.listener_names().iter().any(|n| n.eq_ignore_ascii_case(listener));
    (!named && !used.iter().any(|u| u.eq_ignore_ascii_case(protocol))).then(|| {
        format!(
            "no listener of the cluster is {protocol} (its listeners: {}); the answer is for a {protocol} listener as Kafka would treat one.",
            live.listener_names().join(", ")
        )
    })
}

/// How many distinct brokers lead `topic`'s partitions.
pub(crate) fn leader_count(live: &LiveCluster, topic: &str) -> Option<u32> {
    leaders(live, topic).and_then(|l| u32::try_from(l.len()).ok())
}

/// The distinct leaders of `topic` (`-1`, no leader, left out).
fn leaders(live: &LiveCluster, topic: &str) -> Option<Vec<i32>> {
    let t = live.topics.iter().find(|t| t.name == topic)?;
    let mut ids: Vec<i32> = t.partitions.iter().map(|(_, l)| *l).filter(|l| *l >= 0).collect();
    ids.sort_unstable();
    ids.dedup();
    Some(ids)
}

/// The cluster-wide lines of a live answer: with `topic`, what a client
/// writing to or reading from every partition of it can get, from the
/// real leaders (byte-rate quotas are per broker).
pub(crate) fn cluster_lines(
    live: &LiveCluster,
    resolutions: &[quota_engine::resolve::Resolution],
    topic: Option<&str>,
) -> Vec<String> {
    let Some(topic) = topic else {
        return Vec::new();
    };
    let Some(ids) = leaders(live, topic) else {
        return vec![format!("Topic {topic}: its leaders could not be read.")];
    };
    let partitions = live.topics.iter().find(|t| t.name == topic).map_or(0, |t| t.partitions.len());
    let mut out = vec![format!(
        "Topic {topic}: {partitions} partition{}, led by broker{} {}.",
        if partitions == 1 { "" } else { "s" },
        if ids.len() == 1 { "" } else { "s" },
        ids.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )];
    out.extend(across_cluster(resolutions, ids.len(), &format!("a client of every partition of {topic}")));
    out
}

/// One line per finite byte-rate limit: what `leaders` brokers allow a
/// client together (byte-rate quotas are per broker), readable first:
/// `producer_byte_rate: up to 30 MB/s across the cluster (10 MB/s per
/// broker x 3 leaders; Kafka: 3.0E7 bytes/s) for WHOM.`
pub(crate) fn across_cluster(
    resolutions: &[quota_engine::resolve::Resolution],
    leaders: usize,
    whom: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for r in resolutions {
        let key = r.key();
        if !matches!(key, quota_engine::QuotaKey::ProducerByteRate | quota_engine::QuotaKey::ConsumerByteRate) {
            continue;
        }
        if let Some(v) = r.limit().filter(|v| v.is_finite()) {
            let total = v * leaders as f64;
            out.push(format!(
                "  {key}: up to {} across the cluster ({} per broker x {leaders} leader{}; Kafka: {} bytes/s) for {whom}.",
                quota_engine::resolve::human::human_value(key, total),
                quota_engine::resolve::human::human_value(key, v),
                if leaders == 1 { "" } else { "s" },
                quota_engine::java_double_to_string(total),
            ));
        }
    }
    out
}

/// The `live` object of `resolve --json`.
pub(crate) fn json(
    live: &LiveCluster,
    resolutions: &[quota_engine::resolve::Resolution],
    topic: Option<&str>,
) -> serde_json::Value {
    serde_json::json!({
        "bootstrap": live.bootstrap,
        "authenticated_as": live.authenticated_as,
        "cluster_id": live.cluster_id,
        "security_protocol": live.security_protocol,
        "describe_cluster_controller_id": live.controller,
        "brokers": live.brokers.iter().map(|b| serde_json::json!({"id": b.id, "host": b.host, "port": b.port})).collect::<Vec<_>>(),
        "quota_values": live.quota_values,
        "configs": live.configs.iter().map(|(id, c)| (id.to_string(), c.iter().filter(|(k, _)| read::CONFIG_KEYS.contains(&k.as_str()) || (k.starts_with("listener.name.") && (k.ends_with(".ssl.client.auth") || k.ends_with(".ssl.principal.mapping.rules")))).collect::<std::collections::BTreeMap<_, _>>())).collect::<std::collections::BTreeMap<_, _>>(),
        "topics": live.topics.iter().map(|t| serde_json::json!({
            "name": t.name,
            "partitions": t.partitions.iter().map(|(p, l)| serde_json::json!({"partition": p, "leader": l})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "cluster": cluster_lines(live, resolutions, topic),
        "denied": live.denied,
        "read": provenance(live),
    })
}
