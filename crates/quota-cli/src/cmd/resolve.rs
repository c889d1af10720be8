//! `kafka-quota resolve --quotas FILE --listener L [identity] [--client-id C]`:
//! which quota applies to one connection, per quota type, and why.
//!
//! The quotas are read from any format `quota-formats` reads (detected from
//! the content, or `--format`); the connection's principal is derived as
//! Kafka's `DefaultKafkaPrincipalBuilder` does (listener, SASL mechanism,
//! certificate DN with `ssl.principal.mapping.rules`, Kerberos principal
//! with `sasl.kerberos.principal.to.local.rules`); then each of the four
//! client quota types is resolved on Kafka's eight-rung ladder. The output
//! gives, per quota type: the principal, the rung and entity that apply,
//! the limit, who shares the budget (the metric tags, sensor and MBean) and
//! what happened at every rung. `--json` prints the same as one JSON object.
//!
//! `--ip ADDRESS` adds the `connection_creation_rate` that applies to new
//! connections from that source address (`--listener` may then be left
//! out): the `ips/` entity whose address equals it as Java's `InetAddress`
//! compares addresses (so `ips/0:0:0:0:0:0:0:1` applies to `::1`), else
//! `ips/<default>`, else none. Kafka: `ConnectionQuotas.connectionRateForIp`
//! (core/src/main/scala/kafka/network/SocketServer.scala).
//!
//! The text output gives the answer first: one line per quota type with
//! the limit in a human form and then Kafka's (`Double.toString`), the
//! entity and rung number that apply, and who shares the budget;
//! `--leaders L` adds what L leading brokers allow together; the
//! principal's derivation and the eight-rung trace follow only with
//! `--explain` (with `--ip` alone, the address's detail). `--quota-type` resolves one type only. Warnings (principal
//! warnings, import notes, skipped runbook lines) go to stderr.
//!
//! A kafka-configs.sh runbook with lines that fail still resolves with the
//! lines that work: each failing line is named on stderr (`FILE:LINE:
//! reason`) and the exit code is 4 ([`super::EXIT_ANSWERED_WITH_SKIPS`]);
//! `--strict` refuses such a runbook with exit code 1. The JSON format
//! (`--json`, `"format": "kafka-quota/resolve"`, `"version": 1`) is
//! documented in docs/cli-resolve-json.md.

use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args, ValueEnum};
use quota_engine::broker::BrokerSettings;
use quota_engine::cluster::Cluster;
use quota_engine::principal::PrincipalOutcome;
use quota_engine::resolve::{Resolution, RungOutcome};
use quota_engine::scenario::SourceIp;
use quota_engine::resolve::human::{number_ranges, readable_limit, NAN_CONNECTION_RATE};
use quota_engine::resolve::answer::Answer;
use quota_engine::{java_double_to_string, QuotaEntity, QuotaKey, QuotaStore, QuotaType, UnitLabel};
use quota_formats::configs_sh::{parse_script, Mode};
use quota_formats::detect::{detect, import, import_skipping, ExportOptions, Format};

use super::identity::ConnectionFlags;
use super::resolve_json::{ConnectionJson, PrincipalJson, ResolutionJson, ResolveJson};
use super::{EXIT_ANSWERED_WITH_SKIPS, EXIT_BAD_INPUT, EXIT_OK};

/// A format name for `--format` / `--to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// kafka-configs.sh command lines.
    ConfigsSh,
    /// kafka-configs.sh --describe output.
    Describe,
    /// Admin API Java code.
    Java,
    /// Strimzi KafkaUser YAML.
    Strimzi,
    /// Terraform kafka_quota (and aiven_kafka_quota) resources.
    Terraform,
    /// The playground's scenario JSON.
    Json,
    /// Redpanda rpk cluster quotas commands or output (read only).
    Rpk,
}

impl FormatArg {
    /// The library's format.
    pub(crate) fn format(self) -> Format {
        match self {
            FormatArg::ConfigsSh => Format::ConfigsSh,
            FormatArg::Describe => Format::Describe,
            FormatArg::Java => Format::Java,
            FormatArg::Strimzi => Format::Strimzi,
            FormatArg::Terraform => Format::Terraform,
            FormatArg::Json => Format::ScenarioJson,
            FormatArg::Rpk => Format::Rpk,
        }
    }
}

/// A format `convert --to` can write: every [`FormatArg`] but `rpk`, which
/// quota-formats reads only (Redpanda's `rpk cluster quotas` commands and
/// output), so it is not offered as a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TargetArg {
    /// kafka-configs.sh command lines.
    ConfigsSh,
    /// kafka-configs.sh --describe output.
    Describe,
    /// Admin API Java code.
    Java,
    /// Strimzi KafkaUser YAML.
    Strimzi,
    /// Terraform kafka_quota (and aiven_kafka_quota) resources.
    Terraform,
    /// The playground's scenario JSON.
    Json,
}

impl TargetArg {
    /// The same name as a [`FormatArg`].
    pub(crate) fn format_arg(self) -> FormatArg {
        match self {
            TargetArg::ConfigsSh => FormatArg::ConfigsSh,
            TargetArg::Describe => FormatArg::Describe,
            TargetArg::Java => FormatArg::Java,
            TargetArg::Strimzi => FormatArg::Strimzi,
            TargetArg::Terraform => FormatArg::Terraform,
            TargetArg::Json => FormatArg::Json,
        }
    }
}

/// A client quota type for `--quota-type`, by Kafka's config key
/// (`producer_byte_rate`, ...) or the quota type's short name (`produce`,
/// ...).
///
/// Kafka: `QuotaConfig` keys and `QuotaType`
/// (`server-common/.../server/config/QuotaConfig.java`,
/// `server/src/main/java/org/apache/kafka/server/quota/QuotaType.java`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum QuotaTypeArg {
    /// Produce byte rate, bytes/s per broker.
    #[value(name = "producer_byte_rate", alias = "produce")]
    ProducerByteRate,
    /// Fetch byte rate, bytes/s per broker.
    #[value(name = "consumer_byte_rate", alias = "fetch")]
    ConsumerByteRate,
    /// Request thread time, % of one broker thread.
    #[value(name = "request_percentage", alias = "request")]
    RequestPercentage,
    /// Partition mutations/s (create/delete topics and partitions).
    #[value(name = "controller_mutation_rate", alias = "controller_mutation")]
    ControllerMutationRate,
}

impl QuotaTypeArg {
    /// The engine's quota type.
    pub(crate) fn quota_type(self) -> QuotaType {
        match self {
            QuotaTypeArg::ProducerByteRate => QuotaType::Produce,
            QuotaTypeArg::ConsumerByteRate => QuotaType::Fetch,
            QuotaTypeArg::RequestPercentage => QuotaType::Request,
            QuotaTypeArg::ControllerMutationRate => QuotaType::ControllerMutation,
        }
    }
}

/// Reads a file (`-` = standard input) as text; the error is a full
/// sentence naming the file.
pub(crate) fn read_text(path: &Path) -> Result<(String, String), String> {
    let name = path.display().to_string();
    if name == "-" {
        let mut buf = String::new();
        return std::io::Read::read_to_string(&mut std::io::stdin(), &mut buf)
            .map(|_| ("<stdin>".to_owned(), buf))
            .map_err(|e| format!("kafka-quota: cannot read standard input: {e}."));
    }
    std::fs::read_to_string(path)
        .map(|t| (name.clone(), t))
        .map_err(|e| format!("kafka-quota: cannot read {name}: {e}."))
}

/// Reads quotas from `text` (named `name` in messages): a state file
/// (unless `format` names another format than json), else `format`, else
/// the detected format. Import notes go to stderr.
pub(crate) fn quotas_from_text(
    name: &str,
    text: &str,
    format: Option<FormatArg>,
) -> Result<QuotaStore, String> {
    quotas_and_keep(name, text, format).map(|(store, _)| store)
}

/// [`quotas_from_text`], with what the text said that an export keeps
/// (quota-formats `Imported::keep`: a runbook's `--bootstrap-server`, a
/// KafkaUser's cluster label and namespace; nothing from a state file).
pub(crate) fn quotas_and_keep(
    name: &str,
    text: &str,
    format: Option<FormatArg>,
) -> Result<(QuotaStore, ExportOptions), String> {
    if matches!(format, None | Some(FormatArg::Json)) && crate::state::is_state_file(text) {
        return crate::state::parse(text, name)
            .map(|s| (s, ExportOptions::default()))
            .map_err(|e| format!("kafka-quota: {e:#}."));
    }
    let format = match format {
        Some(f) => f.format(),
        None => {
            detect(text)
                .map_err(|e| e.with_source(name.to_owned()).to_string())?
                .format
        }
    };
    let imported = import(text, format).map_err(|e| e.with_source(name.to_owned()).to_string())?;
    for (pos, note) in &imported.notes {
        errln!("note: {name}:{}: {note}", pos.line);
    }
    Ok((imported.store, imported.keep))
}

/// A runbook command or a Terraform resource that failed and was left out
/// of the quotas.
#[derive(Debug, serde::Serialize)]
pub(crate) struct SkippedLine {
    /// The file as named on the command line (`<stdin>` for `-`).
    file: String,
    /// The line the command starts on (1-based).
    line: u32,
    /// The column of the problem (1-based).
    column: u32,
    /// Why the command fails, as kafka-configs.sh or the importer says it.
    reason: String,
    /// What was skipped: `command` (a runbook's) or `resource` (Terraform).
    #[serde(skip)]
    kind: &'static str,
}

impl SkippedLine {
    /// The item of file `name` that failed with `e`.
    fn of(name: &str, e: &quota_formats::Error, kind: &'static str) -> Self {
        // The error's sentence without its "Line L, column C: " prefix.
        let full = e.to_string();
        let reason = full.split_once(": ").map_or(full.as_str(), |(_, r)| r).to_owned();
        SkippedLine {
            file: name.to_owned(),
            line: e.position.line,
            column: e.position.column,
            reason,
            kind,
        }
    }
}

/// The exit code after [`quotas_skipping`]: 0, or 4 with a line on stderr
/// counting the `skipped` items and saying what the output is (`result`,
/// e.g. "the answer is for the other {items}", `{items}` becoming
/// `commands` or `resources`).
pub(crate) fn exit_for_skipped(skipped: &[SkippedLine], result: &str) -> u8 {
    let Some(first) = skipped.first() else {
        return EXIT_OK;
    };
    let result = result.replace("{items}", &format!("{}s", first.kind));
    errln!(
        "kafka-quota: {} of {} skipped; {result} (exit code 4; --strict refuses such a file).",
        format!("{} {}{}", skipped.len(), first.kind, if skipped.len() == 1 { "" } else { "s" }),
        first.file
    );
    EXIT_ANSWERED_WITH_SKIPS
}

/// Reads `--quotas` for `resolve`: [`quotas_skipping`] of the file.
fn load_for_resolve(
    path: &Path,
    format: Option<FormatArg>,
    strict: bool,
) -> Result<(QuotaStore, Vec<SkippedLine>), String> {
    let (name, text) = read_text(path)?;
    quotas_skipping(&name, &text, format, strict, "the answer is given without it")
}

/// The quotas of `text` (file `name`), as `resolve` and `convert` read
/// them. A kafka-configs.sh runbook runs command by command as `apply
/// --mode import` does (quota-formats `run_script`): a failing command
/// changes nothing and the others still apply; each failure is named on
/// stderr (`warning: FILE:LINE: this command is skipped, {without}: ...`)
/// and returned. Every other format, and every format with `strict`, is
/// read whole by [`quotas_from_text`] and the first problem refuses the
/// file. `Err` is the message for stderr; it is also the answer when no
/// command of the runbook could be applied.
pub(crate) fn quotas_skipping(
    name: &str,
    text: &str,
    format: Option<FormatArg>,
    strict: bool,
    without: &str,
) -> Result<(QuotaStore, Vec<SkippedLine>), String> {
    quotas_skipping_keep(name, text, format, strict, without).map(|(s, skipped, _)| (s, skipped))
}

/// [`quotas_skipping`], with what the text said that an export keeps
/// (`convert`: [`quotas_and_keep`]).
pub(crate) fn quotas_skipping_keep(
    name: &str,
    text: &str,
    format: Option<FormatArg>,
    strict: bool,
    without: &str,
) -> Result<(QuotaStore, Vec<SkippedLine>, ExportOptions), String> {
    let detected = match format {
        Some(f) => Some(f.format()),
        None if crate::state::is_state_file(text) => None,
        None => detect(text).ok().map(|d| d.format),
    };
    // Item by item: a runbook's commands, a Terraform file's resources
    // (quota-formats `import_skipping`); any other file is one unit.
    let (fmt, kind) = match detected {
        Some(Format::ConfigsSh) if !parse_script(text, Mode::Import).is_empty() => (Format::ConfigsSh, "command"),
        Some(Format::Terraform) => (Format::Terraform, "resource"),
        _ => return quotas_and_keep(name, text, format).map(|(s, k)| (s, Vec::new(), k)),
    };
    if strict {
        return quotas_and_keep(name, text, format).map(|(s, k)| (s, Vec::new(), k));
    }
    let imported = import_skipping(text, fmt).map_err(|e| e.with_source(name.to_owned()).to_string())?;
    for (pos, note) in &imported.notes {
        errln!("note: {name}:{}: {note}", pos.line);
    }
    let skipped: Vec<SkippedLine> = imported.skipped.iter().map(|e| SkippedLine::of(name, e, kind)).collect();
    if imported.store.is_empty() && !skipped.is_empty() {
        // One item, and it failed: its error, as the file's.
        if let [only] = imported.skipped.as_slice() {
            return Err(only.clone().with_source(name.to_owned()).to_string());
        }
        for s in &skipped {
            errln!("warning: {}:{}: this {kind} fails: {}", s.file, s.line, s.reason);
        }
        return Err(format!(
            "kafka-quota: no {kind} of {name} could be applied, so it gives no quotas (each failing {kind} is named above)."
        ));
    }
    for s in &skipped {
        errln!("warning: {}:{}: this {kind} is skipped, {without}: {}", s.file, s.line, s.reason);
    }
    Ok((imported.store, skipped, imported.keep))
}

/// The listener's security protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) enum ListenerArg {
    /// No authentication: always User:ANONYMOUS.
    Plaintext,
    /// TLS; the principal is the client certificate's DN (mapped).
    Ssl,
    /// SASL without TLS.
    SaslPlaintext,
    /// SASL over TLS.
    SaslSsl,
}

/// `ssl.client.auth` of an SSL listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ClientAuthArg {
    /// The broker asks for no certificate.
    None,
    /// A certificate is asked for but optional.
    Requested,
    /// A certificate is required.
    Required,
}

/// A listener name as Kafka allows it (letters, digits, `_`, `-`).
fn listener_name(v: &str) -> Result<String, String> {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        Ok(v.to_owned())
    } else {
        Err(format!("{v:?} is not a listener name or security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)"))
    }
}

/// The security protocol of a listener given by its protocol name.
pub(crate) fn listener_arg(protocol: &str) -> Option<ListenerArg> {
    match protocol.to_ascii_uppercase().as_str() {
        "PLAINTEXT" => Some(ListenerArg::Plaintext),
        "SSL" => Some(ListenerArg::Ssl),
        "SASL_PLAINTEXT" => Some(ListenerArg::SaslPlaintext),
        "SASL_SSL" => Some(ListenerArg::SaslSsl),
        _ => None,
    }
}

/// Arguments of `kafka-quota resolve`.
/// The end of `resolve --help`: the output and the exit codes.
const RESOLVE_AFTER_HELP: &str = "\
Output: the answer first, one line per quota type (the limit in a human unit, then as Kafka prints it, per broker; controller mutations once for the cluster, by the active controller; the entity and its rung, 1-8 in Kafka's order; who shares the budget; for consumer_byte_rate, the largest fetch response a broker sends under it, quota × (quota.window.num − 1) × quota.window.size.seconds, KAFKA-9677). --leaders L adds what L leading brokers allow the client together. --explain adds the principal's derivation and every rung. Warnings and notes go to stderr.

Exit codes:
  0  answered
  1  bad input (a file, a line with --strict, a connection Kafka closes); nothing on stdout but the --ip answer for a connection Kafka closes
  2  usage error
  4  answered, but some kafka-configs.sh commands or Terraform resources of --quotas failed and were left out; each is named on stderr as FILE:LINE: reason (--strict makes this exit code 1 with no answer)
  5  --bootstrap-server: no broker answered within --timeout-ms
  6  --bootstrap-server: SASL authentication failed (Kafka's message)
  7  --bootstrap-server: the TLS handshake failed (which certificate and why)
  8  --bootstrap-server: answered with what could be read; an ACL denied the rest, or a broker could not be reached (named on stderr)
  9  --bootstrap-server: the cluster does not support a request kafka-quota needs";

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("source").args(["quotas", "bootstrap_server"]).required(true)))]
#[command(after_help = RESOLVE_AFTER_HELP)]
pub(crate) struct ResolveArgs {
    /// The quotas: any format kafka-quota reads (`-` = standard input).
    #[arg(long, value_name = "FILE")]
    pub(crate) quotas: Option<PathBuf>,
    /// A live cluster instead of --quotas (read-only; docs/live-cluster.md).
    #[command(flatten)]
    pub(crate) live: crate::live::LiveArgs,
    /// With --bootstrap-server: the topic whose partition leaders give the
    /// cluster-wide figure (byte-rate quotas are per broker).
    #[arg(long, value_name = "T", requires = "bootstrap_server")]
    pub(crate) topic: Option<String>,
    /// The format of --quotas (default: detected from the content).
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatArg>,
    /// The listener's security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT,
    /// SASL_SSL); with --bootstrap-server, any listener name of the cluster
    /// (looked up in listener.security.protocol.map). May be left out with --ip.
    #[arg(long, value_name = "LISTENER", value_parser = listener_name, required_unless_present = "ip")]
    pub(crate) listener: Option<String>,
    /// A client's source address (IPv4 or IPv6 literal): also answer which
    /// `connection_creation_rate` applies to new connections from it.
    #[arg(long, value_name = "ADDRESS", value_parser = ip_literal)]
    pub(crate) ip: Option<SourceIp>,
    /// The connection's identity and the broker's principal rules (shared
    /// with `advise`).
    #[command(flatten)]
    pub(crate) who: ConnectionFlags,
    /// Resolve one quota type only: producer_byte_rate, consumer_byte_rate,
    /// request_percentage or controller_mutation_rate (also produce, fetch,
    /// request, controller_mutation).
    #[arg(long, value_enum, value_name = "TYPE", requires = "listener")]
    pub(crate) quota_type: Option<QuotaTypeArg>,
    /// After the answer, show the principal's derivation and, per quota
    /// type, the budget and what happened at each of the eight rungs; with
    /// --ip alone, the address's connection_creation_rate detail.
    #[arg(long)]
    pub(crate) explain: bool,
    /// The number of brokers leading the client's partitions: adds what
    /// they allow together (byte-rate quotas are per broker), as
    /// `simulate` counts leaders. With --bootstrap-server, --topic reads
    /// the real leaders instead.
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(u32).range(1..), requires = "listener", conflicts_with = "topic")]
    pub(crate) leaders: Option<u32>,
    /// Refuse a kafka-configs.sh runbook in which any command fails, or a
    /// Terraform file in which any resource fails (exit 1). Without it, the
    /// failing ones are named on stderr, the others are resolved and the
    /// exit code is 4.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Print one JSON object instead of text (format kafka-quota/resolve,
    /// version 1; see docs/cli-resolve-json.md).
    #[arg(long)]
    pub(crate) json: bool,
}



/// The detail `--explain` adds: the principal's derivation and, per quota
/// type, the limit, the budget, the entity kinds with quotas, and every
/// rung, each reason once (the rungs the single-level shortcut never looks
/// at are one line; a quota type with no quota anywhere is one line).
fn print_explain(outcome: &PrincipalOutcome, resolutions: &[Resolution], answer: &Answer) {
    outln!();
    // A certificate DN Java reads differently from how it was typed: the
    // reading and the rule, one line each.
    match outcome.derivation.steps().as_slice() {
        [_] => outln!("Principal: {} ({})", outcome.principal, outcome.derivation),
        steps => {
            outln!("Principal: {}", outcome.principal);
            for step in steps {
                outln!("  {step}");
            }
        }
    }
    outln!(
        "user tag (sanitized principal): {:?}",
        outcome.sanitized_name
    );
    outln!(
        "Scope: Kafka's DefaultKafkaPrincipalBuilder and default quota callback; a custom principal.builder.class or client.quota.callback.class on the broker replaces this answer."
    );
    if outcome.client_id.is_empty() {
        outln!(
            "client-id \"\": what a client sends when it has none. The Java clients never send an empty one: with client.id unset or empty, KafkaProducer sends producer-N and KafkaConsumer consumer-<group.id>-N (N counts clients in the JVM), so resolve with that id for them."
        );
    }
    for (r, a) in resolutions.iter().zip(&answer.types) {
        let key = r.key();
        outln!();
        outln!("{} ({key}):", r.quota_type);
        match &r.matched {
            Some(m) => outln!(
                "  limit: {} from {}, {}",
                readable_limit(key, m.value),
                m.entity,
                m.rung
            ),
            None => outln!("  limit: none (unlimited)"),
        }
        outln!("  budget: {}.", a.budget());
        outln!("  entity kinds with a {key} quota: {}.", kinds_sentence(r));
        outln!("  rungs:");
        if !r.quotas_enabled() {
            outln!(
                "     1-8: no {key} is set for any entity, so Kafka records nothing and applies no limit."
            );
            continue;
        }
        let skipped: Vec<u8> = r
            .trace
            .iter()
            .filter(|c| matches!(c.outcome, RungOutcome::SkippedBySingleLevel { .. }))
            .map(|c| c.rung.number())
            .collect();
        let mut skip_printed = false;
        for check in &r.trace {
            if let RungOutcome::SkippedBySingleLevel { enabled } = check.outcome {
                if !skip_printed {
                    skip_printed = true;
                    outln!(
                        "     {}: not looked at: only {enabled} quotas exist for {key}, so Kafka fixes the metric tags by that kind alone and never looks at these rungs.",
                        number_ranges(&skipped)
                    );
                }
                continue;
            }
            let mark = if matches!(check.outcome, RungOutcome::Applies) {
                "->"
            } else {
                "  "
            };
            outln!(
                "  {mark} {} {}: {}",
                check.rung.number(),
                check.entity,
                check.reason
            );
        }
    }
}

/// Kafka's `quotaTypesEnabled` for a resolution in words: the entity kinds
/// holding a quota of this type, and the bits.
///
/// Kafka: `ClientQuotaManager.quotaTypesEnabled` (client-id = 1, user = 2,
/// (user, client-id) = 4), server/src/main/java/org/apache/kafka/server/quota/ClientQuotaManager.java.
fn kinds_sentence(r: &Resolution) -> String {
    let flags = r.quota_types_enabled;
    if flags.is_empty() {
        return "none (Kafka's quotaTypesEnabled = 0)".to_owned();
    }
    let kinds: Vec<&str> = flags.kinds().into_iter().map(|k| k.describe()).collect();
    format!(
        "{} (Kafka's quotaTypesEnabled = {})",
        kinds.join(", "),
        flags.bits()
    )
}

/// `--ip`'s value parser: an IPv4 or IPv6 literal, as a socket's source
/// address is (checked before any file is read; a bad one is a usage
/// error, exit code 2), read as a scenario connection's `ip` is
/// ([`SourceIp::parse`], the one message the page shows too).
fn ip_literal(ip: &str) -> Result<SourceIp, String> {
    SourceIp::parse(ip)
}

/// The `connection_creation_rate` answer for one source address.
#[derive(Debug, serde::Serialize)]
pub(crate) struct IpAnswer {
    /// The address as given.
    ip: String,
    /// The address as Java prints it (`InetAddress.getHostAddress`).
    address: String,
    /// The entity that applies, as written (`ips/<default>` for the default).
    entity: Option<String>,
    /// Connections/s per broker; `None` = unlimited.
    limit: Option<f64>,
    /// The unit of `limit`: `connections/s` (per broker, per source address).
    unit: &'static str,
    /// One sentence.
    summary: String,
}

/// Which `connection_creation_rate` applies to connections from `ip`.
fn ip_answer(cluster: &Cluster, ip: &SourceIp) -> IpAnswer {
    let address = ip.address().to_string();
    let key = QuotaKey::ConnectionCreationRate;
    let unit = key.unit(UnitLabel::PerBroker);
    let (entity, limit, summary) = match cluster.ip_rate(ip.as_str()) {
        Some((entity, v)) => {
            let path = entity.path();
            let how = match &entity {
                QuotaEntity::Ip(quota_engine::EntityName::Named(name)) if name != ip.as_str() => {
                    ", the same address written another way: Kafka compares addresses, not text".to_owned()
                }
                QuotaEntity::Ip(quota_engine::EntityName::Default) => {
                    ", the default for every address without an ips/ quota of its own".to_owned()
                }
                _ => String::new(),
            };
            let given = if address == ip.as_str() {
                address.clone()
            } else {
                format!("{} (address {address})", ip.as_str())
            };
            let summary = format!(
                "New connections from {given} are limited to {} {unit} per broker by {path}{how}{}.",
                java_double_to_string(v),
                if v.is_nan() { format!("; {NAN_CONNECTION_RATE}") } else { String::new() }
            );
            (Some(path), Some(v), summary)
        }
        None => (
            None,
            None,
            format!("New connections from {} are not rate-limited: no ips/ quota matches that address and there is no ips/<default>.", ip.as_str()),
        ),
    };
    IpAnswer {
        ip: ip.as_str().to_owned(),
        address,
        entity,
        limit,
        unit: QuotaKey::ConnectionCreationRate.unit(UnitLabel::PerBroker),
        summary,
    }
}

/// Runs `resolve`; returns the exit code.
pub(crate) fn run(args: &ResolveArgs) -> u8 {
    let live = match crate::live::connect_if_asked(&args.live, args.topic.as_slice()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (store, skipped) = match (&args.quotas, &live) {
        (Some(path), _) => match load_for_resolve(path, args.format, args.strict) {
            Ok(s) => s,
            Err(m) => {
                errln!("{m}");
                return EXIT_BAD_INPUT;
            }
        },
        (None, Some(l)) => (l.store.clone(), Vec::new()),
        (None, None) => {
            errln!("kafka-quota: resolve needs --quotas FILE or --bootstrap-server HOST:PORT.");
            return EXIT_BAD_INPUT;
        }
    };
    let mut answered = exit_for_skipped(&skipped, "the answer is for the other {items}");
    // The listener: a security protocol, or with a live cluster any of its
    // listener names.
    let listener = match (&args.listener, &live) {
        (None, _) => None,
        (Some(name), Some(l)) => match l.listener_protocol(name).as_deref().and_then(listener_arg) {
            Some(p) => {
                if let Some(note) = crate::live::protocol_note(l, name) {
                    errln!("note: {note}");
                }
                Some(p)
            }
            None => {
                errln!("kafka-quota: --listener {name}: {}", crate::live::no_such_listener(l));
                return EXIT_BAD_INPUT;
            }
        },
        (Some(name), None) => match listener_arg(name) {
            Some(p) => Some(p),
            None => {
                errln!("kafka-quota: --listener {name} is not a security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL); a listener name is looked up in the cluster's listener.security.protocol.map with --bootstrap-server.");
                return super::EXIT_USAGE;
            }
        },
    };
    // The principal rules do not depend on the listener.
    let mut rules = args.who.with_listener(listener.unwrap_or(ListenerArg::Plaintext)).principal_config();
    let mut settings = BrokerSettings::default();
    let mut live_client_auth = None;
    let mut assumptions: Vec<String> = Vec::new();
    if let Some(l) = &live {
        for d in &l.denied {
            errln!("warning: {d}");
        }
        if !l.denied.is_empty() {
            answered = crate::live::EXIT_DENIED;
        }
        let applied = crate::live::apply_settings(l, args.listener.as_deref(), &mut rules, &mut settings, args.who.ssl_mapping_rules.is_some(), args.who.kerberos_rules.is_some());
        for n in &applied.notes {
            errln!("note: {n}");
        }
        // Said first: on stdout before a text answer, in the JSON otherwise.
        if !args.json {
            for a in &applied.assumptions {
                outln!("Assumed: {a}");
            }
        }
        assumptions = applied.assumptions;
        live_client_auth = applied.ssl_client_auth;
    }
    let cluster = Cluster::from_store(store, settings, rules);
    // With the cluster's quotas unreadable there is no answer to give, for
    // the address either: "not rate-limited" would be a guess.
    let quotas_readable = live.as_ref().is_none_or(|l| l.quotas_readable);
    let ip = args.ip.as_ref().filter(|_| quotas_readable).map(|ip| ip_answer(&cluster, ip));
    if args.ip.is_some() && !quotas_readable {
        errln!("kafka-quota: no connection_creation_rate can be given for --ip: the cluster's quotas could not be read.");
    }
    let Some(listener) = listener else {
        // Only --ip: clap requires --listener otherwise.
        let Some(ip) = ip else {
            if !quotas_readable {
                return answered;
            }
            errln!("kafka-quota: resolve needs --listener, or --ip ADDRESS for the connection_creation_rate alone.");
            return EXIT_BAD_INPUT;
        };
        if args.json {
            let doc = ResolveJson { ip: Some(&ip), ..ResolveJson::new(&skipped) };
            outln!("{}", doc.to_pretty());
        } else {
            print_ip(&ip);
        }
        return answered;
    };
    let mut flags = args.who.with_listener(listener);
    if flags.ssl_client_auth.is_none() {
        flags.ssl_client_auth = live_client_auth;
    }
    let conn = match flags.connection() {
        Ok((c, note)) => {
            if let Some(note) = note {
                errln!("{note}");
            }
            c
        }
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    let builder = match cluster.rules() {
        Ok(b) => b,
        Err(e) => {
            errln!("kafka-quota: the broker would not start with these principal rules: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut outcome = match builder.build(&conn) {
        Ok(o) => o,
        Err(e) if e.class() == quota_engine::principal::ErrorClass::InvalidDn => {
            errln!("kafka-quota: --dn: {e}");
            return EXIT_BAD_INPUT;
        }
        Err(e) if e.class() == quota_engine::principal::ErrorClass::InvalidConnection => {
            errln!("kafka-quota: the identity flags do not fit --listener: {e} Give --user (PLAIN, SCRAM), --kerberos (GSSAPI) or --oauth-sub (OAUTHBEARER) on a SASL listener, --dn on SSL.");
            return EXIT_BAD_INPUT;
        }
        Err(e) => {
            // The connection rate is checked when the broker accepts the
            // socket, before authentication: with --ip it is still the answer.
            errln!("kafka-quota: Kafka closes this connection before any client quota applies: {e}");
            if let Some(ip) = &ip {
                if !args.json {
                    print_ip(ip);
                }
            }
            return EXIT_BAD_INPUT;
        }
    };
    // Only the warnings that can matter with these quotas.
    outcome.warnings = cluster.principal_warnings(&outcome);
    for w in &outcome.warnings {
        errln!("warning: {w}");
    }
    // Quotas one edit away from this principal or client-id (a raw DN
    // for a mapped name, a `User:` prefix, case, spaces, a typo).
    let me = quota_engine::ClientIdentity::new(&outcome.principal.name, &conn.client_id);
    for miss in quota_engine::advice::near_misses(cluster.store(), &me, None) {
        errln!("note: did you mean: {}", miss.reason);
    }
    let mut resolutions = cluster
        .resolve_all(&outcome.principal.name, &conn.client_id)
        .to_vec();
    if let Some(only) = args.quota_type {
        resolutions.retain(|r| r.quota_type == only.quota_type());
    }
    if !quotas_readable {
        // No limit can be given: an answer from no quotas would say "unlimited".
        resolutions.clear();
    }
    if args.json {
        let (callbacks, settings) = (cluster.managers(), cluster.settings());
        let doc = ResolveJson {
            connection: Some(ConnectionJson::of(&conn)),
            principal: Some(PrincipalJson::of(&outcome)),
            resolutions: Some(resolutions.iter().map(|r| ResolutionJson::of(r, callbacks, settings)).collect()),
            ip: ip.as_ref(),
            leaders: args.leaders,
            cluster: args.leaders.map(|n| leaders_lines(&resolutions, n)),
            live: live.as_ref().map(|l| crate::live::json(l, &resolutions, args.topic.as_deref())),
            quotas_readable: live.as_ref().map(|l| l.quotas_readable),
            assumptions: live.as_ref().map(|_| assumptions.as_slice()),
            ..ResolveJson::new(&skipped)
        };
        outln!("{}", doc.to_pretty());
    } else if !quotas_readable {
        // No limit can be given: saying "unlimited" would be a lie.
        outln!(
            "{}, client-id {:?}, {} listener: no limit can be given: the cluster's quotas could not be read (DescribeClientQuotas needs DESCRIBE_CONFIGS on CLUSTER kafka-cluster).",
            outcome.principal,
            conn.client_id,
            conn.listener.protocol()
        );
        if let Some(l) = &live {
            outln!("{}", crate::live::provenance(l));
        }
    } else {
        // The engine's answer, as it prints itself: one line per quota type.
        let answer = Answer::new(&outcome.principal, &conn, &resolutions, cluster.managers(), cluster.settings());
        out!("{answer}");
        if let Some(ip) = &ip {
            outln!("{}", ip.summary);
        }
        if let Some(n) = args.leaders {
            for line in leaders_lines(&resolutions, n) {
                outln!("{line}");
            }
        }
        if let Some(l) = &live {
            for line in crate::live::cluster_lines(l, &resolutions, args.topic.as_deref()) {
                outln!("{line}");
            }
            outln!("{}", crate::live::provenance(l));
        }
        if args.explain {
            print_explain(&outcome, &resolutions, &answer);
            if let Some(ip) = &ip {
                outln!();
                print_ip_detail(ip);
            }
        }
    }
    answered
}

/// The `--leaders` lines: what `n` leading brokers allow the client
/// together, per byte-rate quota with a finite limit (none: no line).
fn leaders_lines(resolutions: &[Resolution], n: u32) -> Vec<String> {
    let mut out = vec![format!(
        "Across {n} leading broker{} (--leaders):",
        if n == 1 { "" } else { "s" }
    )];
    out.extend(crate::live::across_cluster(
        resolutions,
        n as usize,
        &format!("a client of partitions led by {n} broker{}", if n == 1 { "" } else { "s" }),
    ));
    let byte_rates = resolutions
        .iter()
        .any(|r| matches!(r.key(), QuotaKey::ProducerByteRate | QuotaKey::ConsumerByteRate));
    if out.len() == 1 && byte_rates {
        out.push("  no byte-rate quota limits this connection, on any broker.".to_owned());
    } else if out.len() == 1 {
        out.push("  the figure is for byte rates (per broker); --quota-type left them out.".to_owned());
    }
    out
}

/// The `--ip` answer alone: its sentence, then the detail.
fn print_ip(ip: &IpAnswer) {
    outln!("{}", ip.summary);
    print_ip_detail(ip);
}

/// The `--ip` detail: the address as Java prints it, the limit and entity.
fn print_ip_detail(ip: &IpAnswer) {
    outln!("connection_creation_rate (ip {}):", ip.address);
    match (&ip.entity, ip.limit) {
        (Some(entity), Some(v)) => outln!(
            "  limit: {} {} per broker from {entity}",
            java_double_to_string(v),
            QuotaKey::ConnectionCreationRate.unit(UnitLabel::PerBroker)
        ),
        _ => outln!("  limit: none (unlimited)"),
    }
}
