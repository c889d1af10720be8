//! Monitoring export: Prometheus JMX exporter rules for exactly the quota
//! MBeans a set of quotas makes the brokers register, and Prometheus
//! alerting rules for sustained throttling.
//!
//! Kafka registers one MBean per quota budget (sensor), named from the
//! budget's metric tags with empty tags left out:
//! `kafka.server:type=Produce|Fetch|Request[,user=U][,client-id=C]`, with
//! the attributes `throttle-time` (ms, an `Avg`) and `byte-rate` (Produce,
//! Fetch; bytes/s) or `request-time` (Request; % of one thread). Which tags a
//! budget carries depends on which kinds of quota exist (the engine's
//! [`quota_engine::DefaultQuotaCallback::resolve`], whose [`quota_engine::MetricTags::mbean_name`] this
//! module uses, so the rules match the names the engine computes).
//!
//! Kafka: core/src/main/scala/kafka/server/ClientQuotaManager.scala
//! (`clientQuotaMetricName` `byte-rate`, `throttleMetricName`
//! `throttle-time`), ClientRequestQuotaManager.scala (`request-time`),
//! clients/src/main/java/org/apache/kafka/common/metrics/JmxReporter.java
//! (`getMBeanName`), docs/ops.html "Quota metrics".
//!
//! `throttle-time` is recorded only when a request is throttled
//! (`ClientQuotaManager.throttle`, `throttleTimeMs > 0`), and an `Avg` over
//! no samples is `NaN` (clients/.../metrics/stats/Avg.java). The sensor
//! is not a quota sensor: `SensorAccess.getOrCreate` creates it with no
//! `MetricConfig`, so its `Avg` keeps the broker's metrics window,
//! `metrics.num.samples` × `metrics.sample.window.ms` (2 × 30 s by
//! default, `MetricConfigs`; kafka.server.Server.buildMetricsConfig), not
//! the quota window (`quota.window.num` × `quota.window.size.seconds`,
//! 11 s). So `NaN` means "no throttled request in the broker's last
//! 60 s" by default. (The client's `produce-throttle-time-avg` and
//! `fetch-throttle-time-avg` are the same kind of `Avg`, over the client's
//! own `metrics.*` settings, same defaults.) The JMX exporter does not drop it: a
//! `Number` attribute is exported as is (`JmxCollector.recordBean`), and
//! the sample reads `NaN` (seen in prometheus/jmx_exporter issue #916).
//! The rules keep it so (no `value:` rewrite); the alert expressions treat
//! it as "no data", see [`alert_rules`].
//!
//! Controller mutation quotas (`type=ControllerMutation`) are not covered.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use quota_engine::resolve::QuotaCallbacks;
use quota_engine::{EntityName, QuotaEntity, QuotaStore, QuotaType};

/// The quota types whose MBeans the rules map: produce, fetch, request.
pub const MONITORED_TYPES: [QuotaType; 3] =
    [QuotaType::Produce, QuotaType::Fetch, QuotaType::Request];

/// Which metric tags one kind of budget MBean carries.
///
/// Kafka: `JmxReporter.getMBeanName` leaves out a tag whose value is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MbeanShape {
    /// The quota type (`type=` of the MBean).
    pub quota_type: QuotaType,
    /// The MBean has a `user=` property.
    pub user: bool,
    /// The MBean has a `client-id=` property.
    pub client_id: bool,
}

impl MbeanShape {
    /// The attribute besides `throttle-time`: `byte-rate` (bytes/s) for
    /// Produce and Fetch, `request-time` (% of one thread) for Request.
    ///
    /// Kafka: `ClientQuotaManager.clientQuotaMetricName`,
    /// `ClientRequestQuotaManager.clientQuotaMetricName`.
    pub const fn rate_attribute(self) -> &'static str {
        match self.quota_type {
            QuotaType::Request => "request-time",
            _ => "byte-rate",
        }
    }
}

/// The principal and client id the probes use where an entity has a
/// default name.
const PROBE_USER: &str = "probe-user";
const PROBE_CLIENT: &str = "probe-client";

/// The MBean shapes the budgets of `store` can have, per monitored quota
/// type, as the engine resolves them: for a connection matching each
/// configured entity (default names replaced by a probe name), plus
/// connections matching none, with and without a client id, the engine's
/// metric tags decide the shape. A quota type without quotas has no budget
/// MBean (Kafka creates no sensor).
pub fn mbean_shapes(store: &QuotaStore) -> BTreeSet<MbeanShape> {
    let callbacks = QuotaCallbacks::from_store(store);
    let mut shapes = BTreeSet::new();
    for quota_type in MONITORED_TYPES {
        let cb = callbacks.get(quota_type);
        if !cb.quotas_enabled() {
            continue;
        }
        for (principal, client_id) in probes(cb.overrides().map(|(e, _)| e)) {
            if let Some(tags) = cb.resolve(&principal, &client_id).metric_tags {
                shapes.insert(MbeanShape {
                    quota_type,
                    user: !tags.user.is_empty(),
                    client_id: !tags.client_id.is_empty(),
                });
            }
        }
    }
    shapes
}

/// Connections (principal name, client id) that reach each entity, plus
/// some that reach none.
fn probes<'a>(entities: impl Iterator<Item = &'a QuotaEntity>) -> Vec<(String, String)> {
    let name = |n: &EntityName, probe: &str| n.as_option().unwrap_or(probe).to_owned();
    let mut out = vec![
        (PROBE_USER.to_owned(), PROBE_CLIENT.to_owned()),
        (PROBE_USER.to_owned(), String::new()),
    ];
    for e in entities {
        match e {
            QuotaEntity::User(u) => {
                out.push((name(u, PROBE_USER), PROBE_CLIENT.to_owned()));
                out.push((name(u, PROBE_USER), String::new()));
            }
            QuotaEntity::ClientId(c) => out.push((PROBE_USER.to_owned(), name(c, PROBE_CLIENT))),
            QuotaEntity::UserClientId { user, client_id } => {
                out.push((name(user, PROBE_USER), name(client_id, PROBE_CLIENT)));
            }
            QuotaEntity::Ip(_) => {}
        }
    }
    out
}

/// The connections [`mbean_shapes`] resolves for `store`, for tests and the
/// documentation: (principal name, client id).
pub fn probe_connections(store: &QuotaStore) -> Vec<(String, String)> {
    let entities: Vec<&QuotaEntity> = store.entries().map(|(e, _)| e).collect();
    probes(entities.into_iter())
}

/// A JMX property value as `Sanitizer.jmxSanitize` writes it: either the
/// characters `[-\w%. \t]` as they are, or a quoted string with `\`
/// escapes (`ObjectName.quote`). Captured as one group, quotes included
/// (the JMX exporter keeps them).
const VALUE: &str = r#"("(?:[^"\\]|\\.)*"|[-\w%. \t]+)"#;

/// The text the JMX exporter matches a rule's pattern against for one
/// attribute: `domain<k1=v1, k2=v2><>attribute: value` (properties in the
/// MBean name's order, `Double.toString` of the value, so `NaN`).
///
/// jmx_exporter: `JmxCollector.Receiver.recordBean`
/// (`domain + angleBrackets(beanProperties.toString()) + angleBrackets(attrKeys.toString())`
/// then `attrName + ": " + beanValue`).
pub fn exporter_input(mbean_name: &str, attribute: &str, value: &str) -> String {
    let (domain, props) = mbean_name.split_once(':').unwrap_or((mbean_name, ""));
    format!("{domain}<{}><>{attribute}: {value}", object_name_parts(props).join(", "))
}

/// The `k=v` parts of an ObjectName's property list, split on the commas
/// outside quoted values (a quoted value keeps its commas and escapes).
pub(crate) fn object_name_parts(props: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut cur, mut quoted, mut escaped) = (String::new(), false, false);
    for c in props.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
}

/// One JMX exporter rule, before it is written as YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExporterRule {
    /// The shape of MBean it maps.
    pub shape: MbeanShape,
    /// The MBean attribute (`throttle-time`, `byte-rate`, `request-time`).
    pub attribute: &'static str,
    /// The regular expression (Java syntax; the exporter wraps it in
    /// `^.*(?:` … `).*$`).
    pub pattern: String,
    /// The Prometheus metric name.
    pub name: &'static str,
    /// Label name and replacement (`$1`, `$2`), in order.
    pub labels: Vec<(&'static str, String)>,
    /// The help text.
    pub help: String,
}

/// The metric name of an attribute.
const fn metric_name(attribute: &str) -> &'static str {
    match attribute.as_bytes() {
        b"throttle-time" => "kafka_server_quota_throttle_time_ms",
        b"request-time" => "kafka_server_quota_request_time_percent",
        _ => "kafka_server_quota_byte_rate",
    }
}

/// The rules for `store`'s MBean shapes: per shape, one for `throttle-time`
/// and one for the rate attribute; most tags first. Each pattern is
/// anchored at the domain and names every property, so a user-only rule
/// never takes a (user, client-id) MBean, nor the tagless
/// `kafka.server:type=Produce` attribute `queue-size`.
pub fn exporter_rules(store: &QuotaStore) -> Vec<ExporterRule> {
    let mut shapes: Vec<MbeanShape> = mbean_shapes(store).into_iter().collect();
    shapes.sort_by_key(|s| {
        (
            std::cmp::Reverse(u8::from(s.user) + u8::from(s.client_id)),
            s.quota_type.slot(),
            !s.user,
        )
    });
    let mut rules = Vec::new();
    for shape in shapes {
        for attribute in ["throttle-time", shape.rate_attribute()] {
            let mut pattern = format!("^kafka\\.server<type={}", shape.quota_type.metric_type());
            let mut labels = vec![("quota_type", shape.quota_type.metric_type().to_owned())];
            let mut group = 0;
            for (present, prop, label) in [
                (shape.user, "user", "user"),
                (shape.client_id, "client-id", "client_id"),
            ] {
                if present {
                    group += 1;
                    let _ = write!(pattern, ", {prop}={VALUE}");
                    labels.push((label, format!("${group}")));
                }
            }
            let _ = write!(pattern, "><>{attribute}: ");
            let who = match (shape.user, shape.client_id) {
                (true, true) => "per (user, client-id)",
                (true, false) => "per user",
                (false, true) => "per client-id",
                (false, false) => "with no user or client-id tag",
            };
            let what = match attribute {
                "throttle-time" => {
                    "average throttle time in ms over the broker metrics window, metrics.num.samples x metrics.sample.window.ms, 60 s by default (NaN: no throttled request in it)"
                }
                "request-time" => "request time in % of one broker thread",
                _ => "bytes per second",
            };
            rules.push(ExporterRule {
                shape,
                attribute,
                pattern,
                name: metric_name(attribute),
                labels,
                help: format!(
                    "Kafka {} quota {what}, {who}.",
                    shape.quota_type.metric_type()
                ),
            });
        }
    }
    rules
}

/// The JMX `ObjectName` patterns the exporter is to query
/// (`includeObjectNames`): `kafka.server:type=T,*` for each quota type `T`
/// the rules map (Produce, Fetch, Request, in that order), so the exporter
/// reads only those MBeans instead of every MBean of the broker (its
/// default without `includeObjectNames`). With no rule, the three
/// monitored types: budget MBeans appear there once quotas are set.
///
/// `type=Produce,*` is a property-list pattern: it matches every MBean of
/// the domain whose properties include `type=Produce`, with or without
/// `user` and `client-id` (`javax.management.ObjectName`).
pub fn include_object_names(store: &QuotaStore) -> Vec<String> {
    let mut types: Vec<QuotaType> = exporter_rules(store)
        .iter()
        .map(|r| r.shape.quota_type)
        .collect();
    if types.is_empty() {
        types = MONITORED_TYPES.to_vec();
    }
    types.sort_by_key(|t| t.slot());
    types.dedup();
    types
        .into_iter()
        .map(|t| format!("kafka.server:type={},*", t.metric_type()))
        .collect()
}

/// A YAML single-quoted scalar.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The JMX exporter configuration fragment for `store`, as YAML:
/// `includeObjectNames` ([`include_object_names`]), so the exporter
/// queries only the quota MBeans, and the `rules:` list (type `GAUGE`).
/// Empty `rules: []` when no produce, fetch or request quota exists (the
/// brokers register no budget MBean).
pub fn jmx_exporter_yaml(store: &QuotaStore) -> String {
    let rules = exporter_rules(store);
    let mut out = String::from(
        "# Prometheus JMX exporter rules for Kafka client quota MBeans\n\
         # (kafka.server:type=Produce|Fetch|Request,user=..,client-id=..).\n\
         # throttle-time is NaN while no request was throttled in the broker's metrics window\n\
         # (metrics.num.samples x metrics.sample.window.ms, 60 s by default; not the 11 s quota window);\n\
         # the exporter exports NaN as is.\n\
         # includeObjectNames: the exporter queries these MBeans only, not every MBean of the broker.\n\
         # Merged into a configuration without includeObjectNames, it would drop every other metric: leave it out there.\n",
    );
    out.push_str("includeObjectNames:\n");
    for name in include_object_names(store) {
        let _ = writeln!(out, "  - {}", sq(&name));
    }
    if rules.is_empty() {
        out.push_str("rules: []\n");
        return out;
    }
    out.push_str("rules:\n");
    for r in &rules {
        let _ = writeln!(out, "  - pattern: {}", sq(&r.pattern));
        let _ = writeln!(out, "    name: {}", r.name);
        out.push_str("    labels:\n");
        for (k, v) in &r.labels {
            let _ = writeln!(out, "      {k}: {}", sq(v));
        }
        let _ = writeln!(out, "    help: {}", sq(&r.help));
        out.push_str("    type: GAUGE\n");
    }
    out
}

/// The range of the alert's `avg_over_time`, in minutes.
pub const ALERT_RANGE_MINUTES: u32 = 5;
/// The alert's `for:`, in minutes.
pub const ALERT_FOR_MINUTES: u32 = 10;

/// Prometheus alerting rules (a rules file with one group) for sustained
/// throttling, one alert per monitored quota type that has quotas:
///
/// `avg_over_time(kafka_server_quota_throttle_time_ms{quota_type="Produce"}[5m]) > 0`
/// `for: 10m`.
///
/// `NaN` is "no data": an average over samples that include `NaN` is
/// `NaN`, and `NaN > 0` is false. The expression is true once the last
/// 5 minutes hold no unthrottled (`NaN`) scrape, and the alert fires 10
/// minutes later: after 10 minutes of throttled scrapes for a budget whose
/// series starts throttled (its first scrape saw a throttled request), 15
/// for one that had been scraped unthrottled before. Either way every
/// scrape of its last 10 minutes (15 when the series is that old) saw a
/// throttled request in the broker's metrics window, i.e. the budget was
/// exceeded all along, not once.
pub fn alert_rules(store: &QuotaStore) -> String {
    let types: BTreeSet<(usize, &'static str)> = mbean_shapes(store)
        .into_iter()
        .map(|s| (s.quota_type.slot(), s.quota_type.metric_type()))
        .collect();
    let mut out = String::from("groups:\n  - name: kafka-client-quotas\n");
    if types.is_empty() {
        out.push_str("    rules: []\n");
        return out;
    }
    out.push_str("    rules:\n");
    for (_, t) in types {
        let _ = writeln!(out, "      - alert: KafkaQuotaSustainedThrottling{t}");
        let _ = writeln!(
            out,
            "        expr: avg_over_time(kafka_server_quota_throttle_time_ms{{quota_type=\"{t}\"}}[{ALERT_RANGE_MINUTES}m]) > 0"
        );
        let _ = writeln!(out, "        for: {ALERT_FOR_MINUTES}m");
        out.push_str("        labels:\n          severity: warning\n        annotations:\n");
        let _ = writeln!(
            out,
            "          summary: {}",
            sq(&format!(
                "{t} quota throttling for user={{{{ $labels.user }}}} client-id={{{{ $labels.client_id }}}} on {{{{ $labels.instance }}}}"
            ))
        );
        let _ = writeln!(
            out,
            "          description: {}",
            sq(&format!(
                "{t} requests of this budget were throttled at every scrape for at least {ALERT_FOR_MINUTES} minutes \
                 ({} when it had been scraped unthrottled before) (average {{{{ $value }}}} ms). \
                 NaN throttle-time means no throttled request in the broker metrics window (60 s by default) and never fires.",
                ALERT_FOR_MINUTES + ALERT_RANGE_MINUTES
            ))
        );
    }
    out
}

#[cfg(test)]
mod tests;
