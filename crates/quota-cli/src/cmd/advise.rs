//! `kafka-quota advise --quotas FILE --listener L [identity] --client-id C
//! --quota-type KEY --want VALUE`: what to set so that a connection gets a
//! limit, answer first.
//!
//! The connection's principal is derived as `resolve` derives it (Kafka's
//! `DefaultKafkaPrincipalBuilder`). The engine's [`quota_engine::advice`]
//! then tries every rung's entity on a copy of the quotas and keeps those
//! the ladder confirms (`DefaultQuotaCallback`, Kafka's
//! `server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java`).
//! The output gives the best proposal as one sentence with its
//! kafka-configs.sh command (rendered by `quota-formats`), then the other
//! proposals, what each shadows or is shadowed by, the rungs that would not
//! do, near misses, and, for `request_percentage`, the share of a broker's
//! thread capacity (`--num-io-threads`, `--num-network-threads`; Kafka's
//! `ClientRequestQuotaManager`). `--json` prints one JSON object with
//! `format_version` 1.
//!
//! The identity flags are those of `resolve` ([`IdentityArgs`]), read by the
//! same [`IdentityFlags`].

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use quota_engine::advice::{
    byte_rate_scope, human_bytes, near_misses, propose, request_capacity, Advice, ExactPath,
    NearMiss, Proposal, Scope,
};
use quota_engine::broker::BrokerSettings;
use quota_engine::cluster::Cluster;
use quota_engine::resolve::ClientIdentity;
use quota_engine::{
    java_double_to_string, QuotaEntity, QuotaKey, QuotaStore, UnitLabel,
};

use super::identity::{ConnectionFlags, IdentityFlags};
use super::resolve::{quotas_and_keep, read_text, QuotaTypeArg, FormatArg, ListenerArg};
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// The version of `advise --json`'s layout.
const FORMAT_VERSION: u32 = 1;

/// Whom the answer must reach, for `--for`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScopeArg {
    /// This connection (and the --also connections).
    Connections,
    /// Also every user without a quota of their own, with this client.id.
    EveryUser,
    /// Also every client.id of this user without a quota of its own.
    EveryClientId,
}

impl ScopeArg {
    fn scope(self) -> Scope {
        match self {
            ScopeArg::Connections => Scope::Connections,
            ScopeArg::EveryUser => Scope::EveryUser,
            ScopeArg::EveryClientId => Scope::EveryClientId,
        }
    }

    fn words(self) -> &'static str {
        match self {
            ScopeArg::Connections => "every connection given",
            ScopeArg::EveryUser => "every user without a quota of their own",
            ScopeArg::EveryClientId => "every client.id of this user without a quota of its own",
        }
    }
}

/// The connection of `advise`: its listener's security protocol and the
/// identity flags `resolve` shares ([`ConnectionFlags`]).
#[derive(Debug, Args)]
pub(crate) struct IdentityArgs {
    /// The listener's security protocol.
    #[arg(long, value_enum, ignore_case = true)]
    listener: ListenerArg,
    /// Who the client is, and the broker's principal rules.
    #[command(flatten)]
    who: ConnectionFlags,
}

impl IdentityArgs {
    /// The flags as `resolve` reads them ([`IdentityFlags`]).
    fn flags(&self) -> IdentityFlags<'_> {
        self.who.with_listener(self.listener)
    }
}

/// Arguments of `kafka-quota advise`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("source").args(["quotas", "bootstrap_server"]).required(true)))]
pub(crate) struct AdviseArgs {
    /// The quotas: any format kafka-quota reads (`-` = standard input).
    #[arg(long, value_name = "FILE")]
    quotas: Option<PathBuf>,
    /// A live cluster instead of --quotas: its quotas, principal rules and
    /// thread counts (read-only; docs/live-cluster.md).
    #[command(flatten)]
    live: crate::live::LiveArgs,
    /// With --bootstrap-server: the topic whose leaders give --leaders.
    #[arg(long, value_name = "T", requires = "bootstrap_server")]
    topic: Option<String>,
    /// The format of --quotas (default: detected from the content).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The connection.
    #[command(flatten)]
    identity: IdentityArgs,
    /// The quota key to set.
    #[arg(long, value_enum, value_name = "KEY")]
    quota_type: QuotaTypeArg,
    /// The wanted limit: a number in the key's unit (`10000000`), a byte
    /// rate with a unit (`10MB/s`, `512KiB/s`; k, M, G are powers of 1000,
    /// Ki, Mi, Gi of 1024) or a percentage (`200%`).
    #[arg(long, value_name = "VALUE")]
    want: String,
    /// Another connection whose coverage to check, as `PRINCIPAL::CLIENT_ID`
    /// (the principal name as the broker derives it); repeatable. The best
    /// proposal is the most specific one covering all of them.
    #[arg(long, value_name = "PRINCIPAL::CLIENT_ID")]
    also: Vec<String>,
    /// Whom the answer must reach besides the connection: `connections`
    /// (it and --also), `every-user` (every user without a quota of their
    /// own, with this client.id) or `every-client-id` (every client.id of
    /// this user without a quota of its own).
    #[arg(
        long = "for",
        value_enum,
        value_name = "SCOPE",
        default_value = "connections"
    )]
    scope: ScopeArg,
    /// `num.io.threads` of the brokers (request capacity).
    #[arg(long, value_name = "N", default_value_t = 8)]
    num_io_threads: u32,
    /// `num.network.threads` of the brokers (request capacity).
    #[arg(long, value_name = "N", default_value_t = 3)]
    num_network_threads: u32,
    /// How many brokers lead the client's partitions (byte rates for the cluster).
    #[arg(long, value_name = "N")]
    leaders: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Parses `--want` for `key`: a plain number, a byte rate with a decimal
/// or binary unit and an optional `/s`, or a percentage for
/// `request_percentage`. `Err` is the message for stderr.
pub(crate) fn parse_want(text: &str, key: QuotaKey) -> Result<f64, String> {
    quota_engine::advice::parse_wanted(key, text)
        .map_err(|why| format!("kafka-quota: --want {text:?} is not a {key} value: {why}."))
}

/// Parses one `--also PRINCIPAL::CLIENT_ID`.
fn parse_also(text: &str) -> Result<ClientIdentity, String> {
    text.split_once("::")
        .map(|(p, c)| ClientIdentity::new(p, c))
        .ok_or_else(|| {
            format!("kafka-quota: --also {text:?} names no client-id: write PRINCIPAL::CLIENT_ID, e.g. bob::reporting (an empty client-id is bob::).")
        })
}

/// A value with its unit, a byte rate readable first (issue 29):
/// `10 MB/s per broker (10000000 bytes/s)`.
fn human_value(key: QuotaKey, v: f64) -> String {
    let plain = if v.fract() == 0.0 { quota_engine::resolve::human::trim_number(v, 0) } else { java_double_to_string(v) };
    let unit = key.unit(UnitLabel::PerBroker);
    match key {
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => {
            format!("{} per broker ({plain} {})", human_bytes(v), key.unit(UnitLabel::Short))
        }
        QuotaKey::RequestPercentage => format!("{plain} {unit}"),
        _ => format!("{plain} {unit}"),
    }
}

/// The kafka-configs.sh command that sets `key=value` on `entity`, as
/// `quota-formats` exports it, sent to `bootstrap` (the cluster the quotas
/// were read from: the runbook's --bootstrap-server or the live one).
fn command(entity: &QuotaEntity, key: QuotaKey, value: f64, bootstrap: &str) -> String {
    let mut one = QuotaStore::new();
    match one.set(entity, key, value) {
        Ok(()) => quota_formats::configs_sh::alter_commands_to(&one, bootstrap)
            .trim_end()
            .to_owned(),
        Err(e) => format!(
            "(no command: Kafka refuses {}: {})",
            entity.exact_path(),
            e.message
        ),
    }
}

fn proposal_json(p: &Proposal, bootstrap: &str) -> serde_json::Value {
    let mut v = serde_json::to_value(p).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert("rung_number".to_owned(), p.rung.number().into());
        o.insert("entity_path".to_owned(), p.entity.exact_path().into());
        o.insert(
            "command".to_owned(),
            command(&p.entity, p.key, p.value, bootstrap).into(),
        );
        o.insert("unit".to_owned(), p.key.unit(UnitLabel::PerBroker).into());
    }
    v
}

/// The proposal answering `scope`: the most specific one reaching it, else
/// (for the given connections only) the most specific one.
fn answer(advice: &Advice, scope: ScopeArg) -> Option<&Proposal> {
    advice.best_for(scope.scope()).or(match scope {
        ScopeArg::Connections => advice.best(),
        _ => None,
    })
}

fn answer_sentence(advice: &Advice, scope: ScopeArg) -> String {
    if let Some(already) = advice.already_applies() {
        return already;
    }
    match answer(advice, scope) {
        Some(p) => p.summary.clone(),
        None if advice.proposals.is_empty() => format!(
            "No entity gives principal {:?} with client.id {:?} {}={}: every rung is refused or outranked (see below).",
            advice.connection.principal_name,
            advice.connection.client_id,
            advice.key,
            java_double_to_string(advice.want)
        ),
        None => format!(
            "No single entity gives {}={} to principal {:?} with client.id {:?} and to {}: the proposals below each reach fewer.",
            advice.key,
            java_double_to_string(advice.want),
            advice.connection.principal_name,
            advice.connection.client_id,
            scope.words()
        ),
    }
}

fn today(advice: &Advice) -> String {
    let c = &advice.connection;
    match &advice.current.matched {
        Some(m) => format!(
            "Today principal {:?} with client.id {:?} gets {} from {} (rung {}).",
            c.principal_name,
            c.client_id,
            human_value(advice.key, m.value),
            m.entity.exact_path(),
            m.rung.number()
        ),
        None => format!(
            "Today principal {:?} with client.id {:?} has no {} limit (unlimited).",
            c.principal_name, c.client_id, advice.key
        ),
    }
}

fn print_proposal_detail(p: &Proposal, indent: &str) {
    if let Some(note) = p.entity.literal_default_note() {
        outln!("{indent}note: {note}");
    }
    if let Some(old) = p.replaces.filter(|_| !p.already_in_place) {
        outln!(
            "{indent}replaces: {} holds {}={} today; every connection it reaches gets the new value.",
            p.entity.exact_path(),
            p.key,
            java_double_to_string(old)
        );
    }
    for c in &p.covers {
        outln!(
            "{indent}also covers: principal {:?} with client.id {:?}.",
            c.principal_name,
            c.client_id
        );
    }
    for s in &p.shadows {
        outln!("{indent}shadows: {}", s.summary);
    }
    for s in &p.shadowed_by {
        outln!("{indent}shadowed by: {}", s.summary);
    }
    for e in p
        .effects
        .iter()
        .skip(1)
        .filter(|e| !e.covered && e.before != e.after)
    {
        outln!("{indent}side effect: {}", e.summary);
    }
}

fn print_text(
    advice: &Advice,
    scope: ScopeArg,
    misses: &[NearMiss],
    capacity: &[String],
    principal: &str,
    bootstrap: &str,
) {
    outln!("Answer: {}", answer_sentence(advice, scope));
    let best = answer(advice, scope).filter(|_| advice.already_applies().is_none());
    if let Some(best) = best {
        outln!("  {}", command(&best.entity, best.key, best.value, bootstrap));
        print_proposal_detail(best, "  ");
    }
    outln!("{}", today(advice));
    outln!("Principal: {principal}");
    let others: Vec<&Proposal> = advice
        .proposals
        .iter()
        .filter(|p| best.is_none_or(|b| b.rung != p.rung))
        .collect();
    if !others.is_empty() {
        outln!();
        outln!("Other proposals, most specific first:");
        for p in others {
            outln!("- {}", p.summary);
            outln!("    {}", command(&p.entity, p.key, p.value, bootstrap));
            print_proposal_detail(p, "    ");
        }
    }
    if !advice.rejected.is_empty() {
        outln!();
        outln!("Not proposed:");
        for r in &advice.rejected {
            outln!("- {} {}: {}", r.rung, r.entity.exact_path(), r.reason);
        }
    }
    if !misses.is_empty() {
        outln!();
        outln!("Near misses:");
        for m in misses {
            outln!("- {}", m.reason);
        }
    }
    if !capacity.is_empty() {
        outln!();
        outln!("Capacity:");
        for line in capacity {
            outln!("- {line}");
        }
    }
}

/// Runs `advise`; returns the exit code.
pub(crate) fn run(args: &AdviseArgs) -> u8 {
    let live = match crate::live::connect_if_asked(&args.live, args.topic.as_slice()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if let Some(l) = &live {
        for d in &l.denied {
            errln!("warning: {d}");
        }
        if !l.quotas_readable {
            errln!("kafka-quota: the cluster's quotas could not be read, so no advice can be verified on them.");
            return crate::live::EXIT_DENIED;
        }
    }
    match advise(args, live.as_ref()) {
        Ok(()) if live.as_ref().is_some_and(|l| !l.denied.is_empty()) => crate::live::EXIT_DENIED,
        Ok(()) => EXIT_OK,
        Err(m) => {
            errln!("{m}");
            EXIT_BAD_INPUT
        }
    }
}

fn advise(args: &AdviseArgs, live: Option<&crate::live::LiveCluster>) -> Result<(), String> {
    let quota_type = args.quota_type.quota_type();
    let key = quota_type.key();
    let want = parse_want(&args.want, key)?;
    let others = args
        .also
        .iter()
        .map(|a| parse_also(a))
        .collect::<Result<Vec<_>, _>>()?;
    let mut settings = BrokerSettings {
        num_io_threads: args.num_io_threads,
        num_network_threads: args.num_network_threads,
        ..BrokerSettings::default()
    };
    let mut flags = args.identity.flags();
    let mut rules = flags.principal_config();
    let mut leaders = args.leaders;
    // The printed commands go to the cluster the quotas came from.
    let mut bootstrap = args
        .live
        .bootstrap_server
        .clone()
        .unwrap_or_else(|| quota_formats::configs_sh::DEFAULT_BOOTSTRAP_SERVER.to_owned());
    let store = match (&args.quotas, live) {
        (Some(path), _) => {
            let (name, text) = read_text(path)?;
            let (store, keep) = quotas_and_keep(&name, &text, args.format)?;
            if let Some(b) = keep.bootstrap_server {
                bootstrap = b;
            }
            store
        }
        (None, Some(l)) => {
            let applied = crate::live::apply_settings(
                l,
                Some(flags.listener_name()),
                &mut rules,
                &mut settings,
                flags.who.ssl_mapping_rules.is_some(),
                flags.who.kerberos_rules.is_some(),
            );
            for n in &applied.notes {
                errln!("note: {n}");
            }
            for a in &applied.assumptions {
                if args.json {
                    errln!("note: assumed: {a}");
                } else {
                    outln!("Assumed: {a}");
                }
            }
            if flags.ssl_client_auth.is_none() {
                flags.ssl_client_auth = applied.ssl_client_auth;
            }
            if let Some(t) = &args.topic {
                leaders = crate::live::leader_count(l, t).or(leaders);
            }
            l.store.clone()
        }
        (None, None) => return Err("kafka-quota: advise needs --quotas FILE or --bootstrap-server HOST:PORT.".to_owned()),
    };
    settings
        .validate()
        .map_err(|e| format!("kafka-quota: {e}"))?;
    let cluster = Cluster::from_store(store, settings.clone(), rules);
    let (conn, note) = flags.connection()?;
    if let Some(note) = note {
        errln!("{note}");
    }
    let builder = cluster.rules().map_err(|e| {
        format!("kafka-quota: the broker would not start with these principal rules: {e}")
    })?;
    let outcome = builder.build(&conn).map_err(|e| {
        if e.class() == quota_engine::principal::ErrorClass::InvalidDn {
            format!("kafka-quota: --dn: {e}")
        } else {
            format!("kafka-quota: Kafka closes this connection before any quota applies: {e}")
        }
    })?;
    // The principal builder's warnings (an identity given on PLAINTEXT is
    // ignored, ...), as `resolve` prints them.
    // Only the warnings that can matter with these quotas, as resolve.
    for w in cluster.principal_warnings(&outcome) {
        errln!("warning: {w}");
    }
    let me = ClientIdentity::new(&outcome.principal.name, &conn.client_id);
    let advice = propose(cluster.store(), &me, &others, quota_type, want);
    let misses = near_misses(cluster.store(), &me, Some(quota_type));

    let mut capacity = Vec::new();
    let mut warnings = Vec::new();
    let mut capacity_json = serde_json::Value::Null;
    match key {
        QuotaKey::RequestPercentage => {
            let c = request_capacity(want, &settings);
            capacity.push(c.summary.clone());
            if let Some(w) = &c.warning {
                warnings.push(w.clone());
            }
            capacity_json = serde_json::to_value(&c).unwrap_or_default();
        }
        QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate => match leaders {
            Some(n) => {
                let s = byte_rate_scope(want, n);
                capacity.push(s.summary.clone());
                capacity_json = serde_json::to_value(&s).unwrap_or_default();
            }
            None => capacity.push(format!(
                "{} is enforced by each broker on its own; with partitions led by N brokers the client can move up to N times that through the cluster (--leaders N to compute it).",
                human_value(key, want)
            )),
        },
        _ => {}
    }
    for w in &warnings {
        errln!("warning: {w}");
    }

    if args.json {
        let v = serde_json::json!({
            "format_version": FORMAT_VERSION,
            "connection": {
                "listener": conn.listener.protocol(),
                "client_id": conn.client_id,
            },
            "principal": {
                "principal": outcome.principal.to_string(),
                "name": outcome.principal.name,
                "sanitized": outcome.sanitized_name,
            },
            "quota_type": quota_type,
            "key": key,
            "unit": key.unit(UnitLabel::PerBroker),
            "want": want,
            "scope": args.scope.scope(),
            "answer": answer_sentence(&advice, args.scope),
            "today": today(&advice),
            "best": answer(&advice, args.scope).map(|p| proposal_json(p, &bootstrap)),
            "proposals": advice.proposals.iter().map(|p| proposal_json(p, &bootstrap)).collect::<Vec<_>>(),
            "rejected": advice.rejected.iter().map(|r| serde_json::json!({
                "rung": r.rung,
                "rung_number": r.rung.number(),
                "entity": r.entity,
                "entity_path": r.entity.exact_path(),
                "reason": r.reason,
            })).collect::<Vec<_>>(),
            "near_misses": misses,
            "capacity": capacity_json,
            "warnings": warnings,
            "read": live.map(crate::live::provenance),
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
        );
    } else {
        print_text(
            &advice,
            args.scope,
            &misses,
            &capacity,
            &format!("{} ({})", outcome.principal, outcome.derivation),
            &bootstrap,
        );
        if let Some(l) = live {
            outln!();
            outln!("{}", crate::live::provenance(l));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn want_accepts_kafka_numbers_and_units() {
        let p = |s: &str| parse_want(s, QuotaKey::ProducerByteRate);
        assert_eq!(p("10000000"), Ok(1e7));
        assert_eq!(p("10MB/s"), Ok(1e7));
        assert_eq!(p("10 MB/s"), Ok(1e7));
        assert_eq!(p("1MiB"), Ok(1_048_576.0));
        assert!(p("10 furlongs").unwrap_err().contains("is not a byte unit"));
        // Kafka's own check, with its message.
        assert!(p("0").unwrap_err().contains("Kafka refuses it: Quota producer_byte_rate must be greater than 0"));
        assert!(p("1.5").unwrap_err().contains("Kafka refuses it: "));
        assert_eq!(parse_want("200%", QuotaKey::RequestPercentage), Ok(200.0));
        assert!(parse_want("2MB", QuotaKey::RequestPercentage).is_err());
    }
}
