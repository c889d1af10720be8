use quota_engine::jdk::regex::JavaPattern;
use quota_engine::principal::jmx_sanitize;
use quota_engine::resolve::QuotaCallbacks;
use quota_engine::{EntityName, QuotaEntity, QuotaKey, QuotaStore, QuotaType};

use super::*;

fn store(quotas: &[(QuotaEntity, QuotaKey, f64)]) -> QuotaStore {
    let mut s = QuotaStore::new();
    for (e, k, v) in quotas {
        s.set(e, *k, *v).unwrap();
    }
    s
}

fn uc(user: Option<&str>, client: Option<&str>) -> QuotaEntity {
    QuotaEntity::UserClientId {
        user: EntityName::from_option(user),
        client_id: EntityName::from_option(client),
    }
}

/// Every kind of quota, on every monitored type.
fn mixed() -> QuotaStore {
    store(&[
        (QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1e6),
        (
            QuotaEntity::ClientId(EntityName::Default),
            QuotaKey::ProducerByteRate,
            5e5,
        ),
        (
            uc(Some("bob"), Some("batch")),
            QuotaKey::ConsumerByteRate,
            2e6,
        ),
        (
            QuotaEntity::user("CN=carol,O=x"),
            QuotaKey::ConsumerByteRate,
            3e6,
        ),
        (
            QuotaEntity::client_id("a:b"),
            QuotaKey::RequestPercentage,
            50.0,
        ),
    ])
}

/// The exporter's compiled form of a rule pattern.
fn compiled(rule: &ExporterRule) -> JavaPattern {
    JavaPattern::compile(&format!("^.*(?:{}).*$", rule.pattern)).unwrap()
}

/// The first rule (the exporter stops there) matching `input`, with its
/// label values after `$n` replacement.
fn first_match(rules: &[ExporterRule], input: &str) -> Option<(usize, Vec<(String, String)>)> {
    for (i, r) in rules.iter().enumerate() {
        if let Some(groups) = compiled(r).matches(input).unwrap() {
            let group = |n: usize| groups[n].map_or(String::new(), |(a, b)| input[a..b].to_owned());
            let labels = r
                .labels
                .iter()
                .map(|(k, v)| {
                    let v = match v.strip_prefix('$') {
                        Some(n) => group(n.parse().unwrap()),
                        None => v.clone(),
                    };
                    ((*k).to_owned(), v)
                })
                .collect();
            return Some((i, labels));
        }
    }
    None
}

#[test]
fn every_mbean_the_engine_computes_is_mapped_by_the_right_rule() {
    for s in [
        mixed(),
        store(&[(QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1e6)]),
        store(&[(
            QuotaEntity::client_id("app"),
            QuotaKey::RequestPercentage,
            10.0,
        )]),
        store(&[(uc(None, None), QuotaKey::ConsumerByteRate, 1e6)]),
    ] {
        let rules = exporter_rules(&s);
        let callbacks = QuotaCallbacks::from_store(&s);
        let mut connections = probe_connections(&s);
        connections.extend(
            [
                ("alice", "batch"),
                ("bob", "batch"),
                ("bob", ""),
                ("zed", "app"),
                ("CN=carol,O=x", "x*y"),
                ("a b", "a:b"),
            ]
            .map(|(u, c)| (u.to_owned(), c.to_owned())),
        );
        let mut checked = 0;
        for qt in MONITORED_TYPES {
            for (user, client) in &connections {
                let r = callbacks.get(qt).resolve(user, client);
                let (Some(tags), Some(mbean)) = (r.metric_tags.clone(), r.mbean_name()) else {
                    continue;
                };
                let shape = MbeanShape {
                    quota_type: qt,
                    user: !tags.user.is_empty(),
                    client_id: !tags.client_id.is_empty(),
                };
                // The exporter queries it: it is among includeObjectNames.
                assert!(
                    include_object_names(&s).iter().any(|p| object_name_matches(p, &mbean)),
                    "{mbean} is not queried: {:?}",
                    include_object_names(&s)
                );
                for (attribute, value) in
                    [("throttle-time", "NaN"), (shape.rate_attribute(), "1234.5")]
                {
                    let input = exporter_input(&mbean, attribute, value);
                    let (i, labels) = first_match(&rules, &input)
                        .unwrap_or_else(|| panic!("no rule for {input}"));
                    assert_eq!(
                        (rules[i].shape, rules[i].attribute),
                        (shape, attribute),
                        "{input}"
                    );
                    let mut want = vec![("quota_type".to_owned(), qt.metric_type().to_owned())];
                    if shape.user {
                        want.push(("user".to_owned(), jmx_sanitize(&tags.user)));
                    }
                    if shape.client_id {
                        want.push(("client_id".to_owned(), jmx_sanitize(&tags.client_id)));
                    }
                    assert_eq!(labels, want, "{input}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 0);
    }
}

/// The properties of an ObjectName (`k=v` pairs, commas inside quoted
/// values kept).
fn properties(props: &str) -> Vec<(String, String)> {
    super::object_name_parts(props)
        .into_iter()
        .filter_map(|p| p.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect()
}

/// `javax.management.ObjectName.apply` for a property-list pattern
/// `domain:k=v,...,*`: the same domain, and every `k=v` of the pattern
/// among the name's properties (any others allowed).
fn object_name_matches(pattern: &str, name: &str) -> bool {
    let (pd, pp) = pattern.split_once(':').unwrap();
    let (nd, np) = name.split_once(':').unwrap();
    let wanted = pp.strip_suffix(",*").expect("a property-list pattern");
    let have = properties(np);
    pd == nd && properties(wanted).iter().all(|kv| have.contains(kv))
}

#[test]
fn the_exporter_queries_only_the_quota_mbeans_the_rules_map() {
    assert_eq!(
        include_object_names(&mixed()),
        [
            "kafka.server:type=Produce,*",
            "kafka.server:type=Fetch,*",
            "kafka.server:type=Request,*"
        ]
    );
    let produce = store(&[(QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1e6)]);
    assert_eq!(include_object_names(&produce), ["kafka.server:type=Produce,*"]);
    // Every type the rules map is queried, and no other.
    for s in [mixed(), produce.clone()] {
        let mut ruled: Vec<String> = exporter_rules(&s)
            .iter()
            .map(|r| format!("kafka.server:type={},*", r.shape.quota_type.metric_type()))
            .collect();
        ruled.dedup();
        let mut listed = include_object_names(&s);
        listed.sort();
        ruled.sort();
        ruled.dedup();
        assert_eq!(listed, ruled);
    }
    // The broker's other MBeans are not queried.
    let names = include_object_names(&mixed());
    for other in [
        "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec",
        "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce",
        "kafka.server:type=ControllerMutation,user=alice",
        "kafka.server:type=socket-server-metrics,listener=PLAINTEXT,networkProcessor=0",
        "java.lang:type=Memory",
        "kafka.server:type=Produce-extra,user=alice",
    ] {
        assert!(!names.iter().any(|p| object_name_matches(p, other)), "{other}");
    }
    assert!(object_name_matches("kafka.server:type=Fetch,*", "kafka.server:type=Fetch,user=\"CN=a,O=b\",client-id=c"));
    // In the YAML, before the rules; with no quota, the three monitored types.
    let yaml = jmx_exporter_yaml(&produce);
    assert!(yaml.contains("includeObjectNames:\n  - 'kafka.server:type=Produce,*'\nrules:\n"), "{yaml}");
    let empty = jmx_exporter_yaml(&QuotaStore::new());
    assert!(empty.ends_with("includeObjectNames:\n  - 'kafka.server:type=Produce,*'\n  - 'kafka.server:type=Fetch,*'\n  - 'kafka.server:type=Request,*'\nrules: []\n"), "{empty}");
    #[cfg(feature = "yaml")]
    {
        use saphyr::{LoadableYamlNode, Yaml};
        let docs = Yaml::load_from_str(&yaml).unwrap();
        let names = docs[0]["includeObjectNames"].as_vec().unwrap();
        assert_eq!(names.len(), 1);
        assert_eq!(names[0].as_str(), Some("kafka.server:type=Produce,*"));
    }
}

#[test]
fn other_broker_attributes_are_not_taken() {
    let rules = exporter_rules(&mixed());
    for input in [
        "kafka.server<type=Produce><>queue-size: 0.0",
        "kafka.server<type=Request><>exempt-request-time: 0.5",
        "kafka.server<type=Request><>exempt-throttle-time: NaN",
        "kafka.server<type=ControllerMutation, user=alice><>throttle-time: NaN",
        "kafka.server<type=Produce, user=alice><>byte-rate-extra: 1.0",
        "kafka.server<type=Fetch, user=alice><>request-time: 1.0",
    ] {
        assert_eq!(first_match(&rules, input).map(|m| m.0), None, "{input}");
    }
}

#[test]
fn shapes_follow_the_kinds_of_quota() {
    let shapes = |s: &QuotaStore| -> Vec<(QuotaType, bool, bool)> {
        mbean_shapes(s)
            .into_iter()
            .map(|m| (m.quota_type, m.user, m.client_id))
            .collect()
    };
    // Only user quotas: every budget is per user (the single-level shortcut).
    let users = store(&[(
        QuotaEntity::User(EntityName::Default),
        QuotaKey::ProducerByteRate,
        1e6,
    )]);
    assert_eq!(shapes(&users), vec![(QuotaType::Produce, true, false)]);
    // Only client-id quotas: per client-id; a client that sends no client.id
    // gets tags ("", ""), so the MBean is kafka.server:type=Fetch alone.
    let clients = store(&[(
        QuotaEntity::client_id("app"),
        QuotaKey::ConsumerByteRate,
        1e6,
    )]);
    assert_eq!(
        shapes(&clients),
        vec![
            (QuotaType::Fetch, false, false),
            (QuotaType::Fetch, false, true)
        ]
    );
    // Only (user, client-id) quotas: both tags; with an empty client.id the
    // client-id tag is empty and left out of the MBean name.
    let both = store(&[(uc(Some("u"), None), QuotaKey::RequestPercentage, 10.0)]);
    assert_eq!(
        shapes(&both),
        vec![
            (QuotaType::Request, true, false),
            (QuotaType::Request, true, true)
        ]
    );
    // User and client-id quotas together: the walk gives either, and a
    // connection that matches neither falls through to client-id.
    let mut s = shapes(&mixed());
    s.retain(|t| t.0 == QuotaType::Produce);
    // (The empty client.id falls through to ("", "") too.)
    assert_eq!(
        s,
        vec![
            (QuotaType::Produce, false, false),
            (QuotaType::Produce, false, true),
            (QuotaType::Produce, true, false)
        ]
    );
    // No quota: no budget MBean, no rule, no alert.
    let empty = QuotaStore::new();
    assert!(mbean_shapes(&empty).is_empty());
    assert!(jmx_exporter_yaml(&empty).ends_with("rules: []\n"));
    assert!(alert_rules(&empty).ends_with("rules: []\n"));
}

#[test]
fn exporter_input_is_the_exporters_bean_string() {
    assert_eq!(
        exporter_input(
            "kafka.server:type=Produce,user=alice,client-id=app",
            "byte-rate",
            "1.0"
        ),
        "kafka.server<type=Produce, user=alice, client-id=app><>byte-rate: 1.0"
    );
    assert_eq!(
        exporter_input(
            "kafka.server:type=Fetch,user=\"CN=a,O=b\",client-id=\"x\\\"y\"",
            "throttle-time",
            "NaN"
        ),
        "kafka.server<type=Fetch, user=\"CN=a,O=b\", client-id=\"x\\\"y\"><>throttle-time: NaN"
    );
}

#[test]
fn yaml_lists_each_rule_with_its_pattern_and_gauge_type() {
    let s = store(&[(QuotaEntity::user("alice"), QuotaKey::ProducerByteRate, 1e6)]);
    let yaml = jmx_exporter_yaml(&s);
    let expected = "rules:\n  - pattern: '^kafka\\.server<type=Produce, user=(\"(?:[^\"\\\\]|\\\\.)*\"|[-\\w%. \\t]+)><>throttle-time: '\n    name: kafka_server_quota_throttle_time_ms\n    labels:\n      quota_type: 'Produce'\n      user: '$1'\n    help: 'Kafka Produce quota average throttle time in ms over the broker metrics window, metrics.num.samples x metrics.sample.window.ms, 60 s by default (NaN: no throttled request in it), per user.'\n    type: GAUGE\n  - pattern: '^kafka\\.server<type=Produce, user=(\"(?:[^\"\\\\]|\\\\.)*\"|[-\\w%. \\t]+)><>byte-rate: '\n    name: kafka_server_quota_byte_rate\n";
    assert!(yaml.contains(expected), "{yaml}");
    assert_eq!(yaml.matches("type: GAUGE").count(), 2);
    // The YAML reads back (saphyr) to the same patterns.
    #[cfg(feature = "yaml")]
    {
        use saphyr::{LoadableYamlNode, Yaml};
        let docs = Yaml::load_from_str(&yaml).unwrap();
        let rules = docs[0]["rules"].as_vec().unwrap();
        let ours = exporter_rules(&s);
        assert_eq!(rules.len(), ours.len());
        for (y, r) in rules.iter().zip(&ours) {
            assert_eq!(y["pattern"].as_str(), Some(r.pattern.as_str()));
            assert_eq!(y["labels"]["user"].as_str(), Some("$1"));
        }
    }
}

#[test]
fn alerts_are_per_quota_type_with_quotas() {
    let a = alert_rules(&mixed());
    for t in ["Produce", "Fetch", "Request"] {
        assert!(
            a.contains(&format!("- alert: KafkaQuotaSustainedThrottling{t}\n")),
            "{a}"
        );
        assert!(
            a.contains(&format!("expr: avg_over_time(kafka_server_quota_throttle_time_ms{{quota_type=\"{t}\"}}[5m]) > 0\n        for: 10m\n")),
            "{a}"
        );
    }
    let only_produce = alert_rules(&store(&[(
        QuotaEntity::user("a"),
        QuotaKey::ProducerByteRate,
        1.0,
    )]));
    assert_eq!(only_produce.matches("- alert:").count(), 1);
}

/// The minutes of `[Nm]` and `for: Nm` in the generated alert.
fn alert_minutes(rules: &str) -> (u32, u32) {
    let range = rules.split("[").nth(1).and_then(|r| r.split("m]").next()).and_then(|n| n.parse().ok());
    let hold = rules.split("for: ").nth(1).and_then(|r| r.split("m\n").next()).and_then(|n| n.parse().ok());
    (range.expect("a range"), hold.expect("a for:"))
}

/// When Prometheus fires the alert on `series` (scrapes every `step_s`
/// seconds, `None` before the series exists, `Some(NaN)` unthrottled),
/// rule evaluation every `step_s` after the scrape: `avg_over_time` over
/// the left-open range `(t - range, t]` (NaN if any sample is NaN, no
/// result without samples), `> 0`, then `for:` (fires at the first
/// evaluation `hold` after the expression became true and stayed so).
fn fires_at_s(series: &dyn Fn(i64) -> Option<f64>, step_s: i64, range_min: u32, hold_min: u32) -> Option<i64> {
    let (range, hold) = (i64::from(range_min) * 60, i64::from(hold_min) * 60);
    let mut active_since = None;
    for t in (-3600..=7200).step_by(step_s as usize) {
        let samples: Vec<f64> = ((t - range + 1)..=t).filter(|s| s.rem_euclid(step_s) == 0).filter_map(series).collect();
        let avg = if samples.is_empty() { None } else { Some(samples.iter().sum::<f64>() / samples.len() as f64) };
        if avg.is_some_and(|a| a > 0.0) {
            let since = *active_since.get_or_insert(t);
            if t - since >= hold {
                return Some(t);
            }
        } else {
            active_since = None;
        }
    }
    None
}

/// Issue 29: the alert's description says when it fires, and the numbers
/// are the rule's: throttled from t = 0, a series that starts throttled
/// fires after `for:` (10 minutes), one scraped unthrottled (NaN) before
/// after `for:` + the range (15 minutes, less one scrape interval: the
/// left-open range is free of NaN one scrape early); a NaN scrape in
/// between never fires.
#[test]
fn the_alert_fires_when_its_description_says() {
    let rules = alert_rules(&store(&[(QuotaEntity::user("a"), QuotaKey::ProducerByteRate, 1.0)]));
    let (range, hold) = alert_minutes(&rules);
    assert_eq!((range, hold), (ALERT_RANGE_MINUTES, ALERT_FOR_MINUTES));
    for step in [15, 30, 60] {
        let new = |t: i64| (t >= 0).then_some(120.0);
        let old = |t: i64| Some(if t >= 0 { 120.0 } else { f64::NAN });
        assert_eq!(fires_at_s(&new, step, range, hold), Some(i64::from(hold) * 60), "step {step}");
        assert_eq!(fires_at_s(&old, step, range, hold), Some(i64::from(hold + range) * 60 - step), "step {step}");
        let gap = |t: i64| Some(if t >= 0 && t != 600 { 120.0 } else { f64::NAN });
        assert!(fires_at_s(&gap, step, range, hold).is_none_or(|f| f >= 600 + i64::from(hold + range) * 60 - step), "step {step}");
    }
    assert!(rules.contains(&format!("throttled at every scrape for at least {hold} minutes ({} when it had been scraped unthrottled before)", hold + range)), "{rules}");
    assert!(!rules.contains("15 minutes saw"), "{rules}");
}
