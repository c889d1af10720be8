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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args, ValueEnum};
use quota_engine::broker::BrokerSettings;
use quota_engine::cluster::{ssl_client_auth, Cluster};
use quota_engine::principal::{
    parse_config_list, Connection, Identity, Listener, PrincipalConfig, PrincipalOutcome,
    SaslMechanism, SslClientAuth,
};
use quota_engine::resolve::{Resolution, RungOutcome, TagDecision};
use quota_engine::store::validate::IpAddress;
use quota_engine::{java_double_to_string, QuotaEntity, QuotaKey, QuotaStore, UnitLabel};
use quota_formats::detect::{detect, import, Format};

use super::{EXIT_BAD_INPUT, EXIT_OK};

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

/// Reads quotas from a file in any supported format, or the state file
/// `apply --state` writes, printing import notes on stderr. `Err` is the
/// message for stderr (file, line, column, reason).
pub(crate) fn load_quotas(path: &Path, format: Option<FormatArg>) -> Result<QuotaStore, String> {
    let (name, text) = read_text(path)?;
    quotas_from_text(&name, &text, format)
}

/// Reads quotas from `text` (named `name` in messages): a state file
/// (unless `format` names another format than json), else `format`, else
/// the detected format. Import notes go to stderr.
pub(crate) fn quotas_from_text(
    name: &str,
    text: &str,
    format: Option<FormatArg>,
) -> Result<QuotaStore, String> {
    if matches!(format, None | Some(FormatArg::Json)) && crate::state::is_state_file(text) {
        return crate::state::parse(text, name).map_err(|e| format!("kafka-quota: {e:#}."));
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
    Ok(imported.store)
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

/// Arguments of `kafka-quota resolve`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("identity").args(["user", "dn", "kerberos", "oauth_sub"])))]
pub(crate) struct ResolveArgs {
    /// The quotas: any format kafka-quota reads (`-` = standard input).
    #[arg(long, value_name = "FILE")]
    pub(crate) quotas: PathBuf,
    /// The format of --quotas (default: detected from the content).
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatArg>,
    /// The listener's security protocol (may be left out with --ip).
    #[arg(long, value_enum, ignore_case = true, required_unless_present = "ip")]
    pub(crate) listener: Option<ListenerArg>,
    /// A client's source address (IPv4 or IPv6 literal): also answer which
    /// `connection_creation_rate` applies to new connections from it.
    #[arg(long, value_name = "ADDRESS")]
    pub(crate) ip: Option<String>,
    /// SASL mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER);
    /// default PLAIN, or GSSAPI with --kerberos, OAUTHBEARER with --oauth-sub.
    #[arg(long)]
    pub(crate) mechanism: Option<String>,
    /// The SASL PLAIN/SCRAM user name.
    #[arg(long, value_name = "U")]
    pub(crate) user: Option<String>,
    /// The client certificate's subject DN (SSL listener), e.g. `CN=app,OU=eng,O=org`.
    #[arg(long, value_name = "DN")]
    pub(crate) dn: Option<String>,
    /// The Kerberos principal (GSSAPI), e.g. `kafka-client/host@EXAMPLE.COM`.
    #[arg(long, value_name = "P")]
    pub(crate) kerberos: Option<String>,
    /// The OAuth token's subject claim (OAUTHBEARER).
    #[arg(long, value_name = "SUB")]
    pub(crate) oauth_sub: Option<String>,
    /// The client's client.id.
    #[arg(long, value_name = "C", default_value = "")]
    pub(crate) client_id: String,
    /// `ssl.client.auth` of an SSL listener (default: required with --dn, else none).
    #[arg(long, value_enum)]
    pub(crate) ssl_client_auth: Option<ClientAuthArg>,
    /// The broker's `ssl.principal.mapping.rules`.
    #[arg(long, value_name = "R")]
    pub(crate) ssl_mapping_rules: Option<String>,
    /// The broker's `sasl.kerberos.principal.to.local.rules` (comma-separated).
    #[arg(long, value_name = "R")]
    pub(crate) kerberos_rules: Option<String>,
    /// The broker's default Kerberos realm, krb5.conf's `default_realm` (what
    /// the DEFAULT rule strips). Default: the realm of --kerberos, as on a
    /// single-realm cluster; pass --kerberos-realm "" for a broker with no
    /// krb5 default realm.
    #[arg(long, value_name = "REALM")]
    pub(crate) kerberos_realm: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

impl ResolveArgs {
    fn connection(&self, listener: ListenerArg) -> Result<Connection, String> {
        let default_mechanism = if self.kerberos.is_some() {
            "GSSAPI"
        } else if self.oauth_sub.is_some() {
            "OAUTHBEARER"
        } else {
            "PLAIN"
        };
        let mech_name = self.mechanism.as_deref().unwrap_or(default_mechanism);
        let mechanism = SaslMechanism::from_name(mech_name).ok_or_else(|| {
            format!("kafka-quota: --mechanism {mech_name} is not a SASL mechanism Kafka has; expected PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI or OAUTHBEARER.")
        })?;
        let listener = match listener {
            ListenerArg::Plaintext => Listener::Plaintext,
            ListenerArg::Ssl => Listener::Ssl {
                client_auth: ssl_client_auth(
                    self.ssl_client_auth.map(|a| match a {
                        ClientAuthArg::None => SslClientAuth::None,
                        ClientAuthArg::Requested => SslClientAuth::Requested,
                        ClientAuthArg::Required => SslClientAuth::Required,
                    }),
                    self.dn.is_some(),
                ),
            },
            ListenerArg::SaslPlaintext => Listener::SaslPlaintext { mechanism },
            ListenerArg::SaslSsl => Listener::SaslSsl { mechanism },
        };
        let identity = if let Some(dn) = &self.dn {
            Identity::CertificateDn(dn.clone())
        } else if let Some(u) = &self.user {
            Identity::UserName(u.clone())
        } else if let Some(k) = &self.kerberos {
            Identity::KerberosPrincipal(k.clone())
        } else if let Some(s) = &self.oauth_sub {
            Identity::OAuthToken {
                claims: BTreeMap::from([("sub".to_owned(), s.clone())]),
            }
        } else {
            Identity::None
        };
        Ok(Connection {
            listener,
            identity,
            client_id: self.client_id.clone(),
            source_ip: None,
        })
    }

    /// `--kerberos-realm`, or the realm of `--kerberos` (`name[/host]@REALM`).
    fn default_realm(&self) -> String {
        match (&self.kerberos_realm, &self.kerberos) {
            (Some(realm), _) => realm.clone(),
            (None, Some(principal)) => principal
                .rsplit_once('@')
                .map(|(_, r)| r.to_owned())
                .unwrap_or_default(),
            (None, None) => String::new(),
        }
    }

    fn principal_config(&self) -> PrincipalConfig {
        PrincipalConfig {
            ssl_principal_mapping_rules: self.ssl_mapping_rules.clone(),
            sasl_kerberos_principal_to_local_rules: self
                .kerberos_rules
                .as_deref()
                .map(parse_config_list),
            kerberos_default_realm: self.default_realm(),
            ..PrincipalConfig::default()
        }
    }
}

/// Why the connection's metric tags are what they are, and so who shares
/// its budget.
fn budget_sentence(r: &Resolution) -> String {
    let Some(tags) = &r.metric_tags else {
        return format!(
            "none: no {} quota exists anywhere, so the broker does not meter this connection",
            r.key()
        );
    };
    let why = match r.tag_decision {
        TagDecision::QuotasDisabled => "no quota of this type exists".to_owned(),
        TagDecision::SingleLevel { kind } => format!(
            "only {} quotas of this type exist, so Kafka fixes the tags from that kind alone without walking the ladder",
            kind.describe()
        ),
        TagDecision::Walk { rung } => format!("the ladder walk stopped at {rung}"),
        TagDecision::WalkFellThrough => {
            "the ladder walk found none of rungs 1-6 configured, so the tags are the client-id alone".to_owned()
        }
    };
    format!(
        "every connection with tags {tags} shares one budget (sensor {}, MBean {}), because {why}",
        tags.sensor_name(r.quota_type),
        tags.mbean_name(r.quota_type)
    )
}

fn print_text(outcome: &PrincipalOutcome, conn: &Connection, resolutions: &[Resolution]) {
    outln!(
        "Connection: {} listener, client-id {:?}",
        conn.listener.protocol(),
        conn.client_id
    );
    outln!("Principal: {} ({})", outcome.principal, outcome.derivation);
    outln!(
        "user tag (sanitized principal): {:?}",
        outcome.sanitized_name
    );
    for w in &outcome.warnings {
        outln!("warning: {w}");
    }
    for r in resolutions {
        let key = r.key();
        outln!();
        outln!("{} ({key}):", r.quota_type);
        match &r.matched {
            Some(m) => outln!(
                "  limit: {} {} from {}, {}",
                java_double_to_string(m.value),
                key.unit(UnitLabel::PerBroker),
                m.entity,
                m.rung
            ),
            None => outln!("  limit: none (unlimited)"),
        }
        outln!("  budget: {}.", budget_sentence(r));
        outln!("  rungs:");
        for check in &r.trace {
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

fn json_output(
    outcome: &PrincipalOutcome,
    conn: &Connection,
    resolutions: &[Resolution],
) -> serde_json::Value {
    serde_json::json!({
        "connection": {
            "listener": conn.listener.protocol(),
            "client_id": conn.client_id,
        },
        "principal": {
            "principal": outcome.principal.to_string(),
            "name": outcome.principal.name,
            "sanitized": outcome.sanitized_name,
            "derivation": outcome.derivation.to_string(),
            "warnings": outcome.warnings,
        },
        "resolutions": resolutions.iter().map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("budget".to_owned(), serde_json::Value::String(budget_sentence(r)));
                o.insert("sensor".to_owned(), r.sensor_name().map_or(serde_json::Value::Null, serde_json::Value::String));
                o.insert("mbean".to_owned(), r.mbean_name().map_or(serde_json::Value::Null, serde_json::Value::String));
                o.insert("summary".to_owned(), serde_json::Value::String(r.summary()));
            }
            v
        }).collect::<Vec<_>>(),
    })
}

/// The `connection_creation_rate` answer for one source address.
#[derive(Debug, serde::Serialize)]
struct IpAnswer {
    /// The address as given.
    ip: String,
    /// The address as Java prints it (`InetAddress.getHostAddress`).
    address: String,
    /// The entity that applies, as written (`ips/<default>` for the default).
    entity: Option<String>,
    /// Connections/s per broker; `None` = unlimited.
    limit: Option<f64>,
    /// One sentence.
    summary: String,
}

/// Which `connection_creation_rate` applies to connections from `ip`;
/// `Err` is the message for stderr.
fn ip_answer(cluster: &Cluster, ip: &str) -> Result<IpAnswer, String> {
    let Some(address) = IpAddress::parse(ip.trim()) else {
        return Err(format!(
            "kafka-quota: --ip {ip:?} is not an IP address: a connection's source address is an IPv4 or IPv6 literal (Kafka takes it from the socket), e.g. 10.0.0.1 or 2001:db8::1."
        ));
    };
    let address = address.to_string();
    let key = QuotaKey::ConnectionCreationRate;
    let unit = key.unit(UnitLabel::PerBroker);
    let (entity, limit, summary) = match cluster.ip_rate(ip.trim()) {
        Some((entity, v)) => {
            let path = entity.path();
            let how = match &entity {
                QuotaEntity::Ip(quota_engine::EntityName::Named(name)) if name != ip.trim() => {
                    ", the same address written another way: Kafka compares addresses, not text".to_owned()
                }
                QuotaEntity::Ip(quota_engine::EntityName::Default) => {
                    ", the default for every address without an ips/ quota of its own".to_owned()
                }
                _ => String::new(),
            };
            let given = if address == ip.trim() {
                address.clone()
            } else {
                format!("{} (address {address})", ip.trim())
            };
            let summary = format!(
                "New connections from {given} are limited to {} {unit} per broker by {path}{how}.",
                java_double_to_string(v)
            );
            (Some(path), Some(v), summary)
        }
        None => (
            None,
            None,
            format!("New connections from {} are not rate-limited: no ips/ quota matches that address and there is no ips/<default>.", ip.trim()),
        ),
    };
    Ok(IpAnswer {
        ip: ip.to_owned(),
        address,
        entity,
        limit,
        summary,
    })
}

/// Runs `resolve`; returns the exit code.
pub(crate) fn run(args: &ResolveArgs) -> u8 {
    let store = match load_quotas(&args.quotas, args.format) {
        Ok(s) => s,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    let cluster = Cluster::from_store(store, BrokerSettings::default(), args.principal_config());
    let ip = match args.ip.as_deref().map(|ip| ip_answer(&cluster, ip)).transpose() {
        Ok(a) => a,
        Err(m) => {
            errln!("{m}");
            return EXIT_BAD_INPUT;
        }
    };
    let Some(listener) = args.listener else {
        // Only --ip: clap requires --listener otherwise.
        let Some(ip) = ip else {
            errln!("kafka-quota: resolve needs --listener, or --ip ADDRESS for the connection_creation_rate alone.");
            return EXIT_BAD_INPUT;
        };
        if args.json {
            let v = serde_json::json!({ "ip": ip });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string()));
        } else {
            print_ip(&ip);
        }
        return EXIT_OK;
    };
    let conn = match args.connection(listener) {
        Ok(c) => c,
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
    let outcome = match builder.build(&conn) {
        Ok(o) => o,
        Err(e) => {
            errln!("kafka-quota: Kafka closes this connection before any quota applies: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let resolutions = cluster.resolve_all(&outcome.principal.name, &conn.client_id);
    if args.json {
        let mut v = json_output(&outcome, &conn, &resolutions);
        if let (Some(ip), Some(o)) = (&ip, v.as_object_mut()) {
            o.insert("ip".to_owned(), serde_json::to_value(ip).unwrap_or_default());
        }
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
        );
    } else {
        print_text(&outcome, &conn, &resolutions);
        if let Some(ip) = &ip {
            outln!();
            print_ip(ip);
        }
    }
    EXIT_OK
}

fn print_ip(ip: &IpAnswer) {
    outln!("{}", ip.summary);
    outln!("connection_creation_rate (ip {}):", ip.address);
    match (&ip.entity, ip.limit) {
        (Some(entity), Some(v)) => outln!(
            "  limit: {} {} from {entity}",
            java_double_to_string(v),
            QuotaKey::ConnectionCreationRate.unit(UnitLabel::PerBroker)
        ),
        _ => outln!("  limit: none (unlimited)"),
    }
}
