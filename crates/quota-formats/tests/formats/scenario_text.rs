//! The text form of a scenario (`quota_formats::scenario_text`): what a docs
//! page writes reads as the same scenario as its JSON, and every problem
//! names its line and column.

use quota_engine::resolve::Rung;
use quota_engine::sim::{ClientThrottling, ListenerKind, ScenarioEvent, Workload};
use quota_engine::{EntityName, QuotaEntity, QuotaKey};
use quota_engine::cluster::Cluster;
use quota_engine::QuotaType;
use quota_formats::scenario_text::{parse, DEFAULT_TOPIC};

fn problems(text: &str) -> Vec<String> {
    parse(text).expect_err("the text has a problem").iter().map(ToString::to_string).collect()
}

#[test]
fn a_docs_block_reads_as_the_scenario_its_json_gives() {
    let text = r#"
# tenant-a is limited to 2 MB/s per broker
kafka-configs.sh --bootstrap-server localhost:9092 --alter \
  --add-config 'producer_byte_rate=2097152' --entity-type users --entity-name tenant-a
$ bin/kafka-configs.sh --alter --add-config consumer_byte_rate=1048576 --entity-type clients --entity-default

connection: listener=SASL_SSL user=tenant-a client.id=app-1
connection: dn="CN=billing, O=Acme" client.id=billing client=ignores-throttle
brokers: 3 quota.window.num=2
topic: orders partitions=3
producer: records=30000 record.size=1000 acks=1 delivery.timeout.ms=60000
consumer: connection=2
run: horizon_ms=20000 seed=7
"#;
    let s = parse(text).unwrap_or_else(|e| panic!("{}", e[0]));
    assert_eq!(s.quotas.len(), 2);
    assert_eq!(s.connections.len(), 2);
    assert_eq!(s.connections[0].listener, ListenerKind::SaslSsl);
    assert_eq!(s.connections[0].identity.as_deref(), Some("tenant-a"));
    assert_eq!(s.connections[0].name, "app-1");
    assert_eq!(s.connections[1].listener, ListenerKind::Ssl, "a dn= without listener= is an SSL connection");
    assert_eq!(s.connections[1].identity.as_deref(), Some("CN=billing, O=Acme"));
    assert_eq!(s.connections[1].client_throttling, ClientThrottling::IgnoresThrottle);
    assert_eq!(s.brokers.count, 3);
    assert_eq!(s.brokers.settings.quota_window_num, 2);
    assert_eq!(s.topics[0].name, "orders");
    assert_eq!(s.topics[0].partitions, 3);
    assert_eq!(s.horizon_ms, 20_000);
    assert_eq!(s.seed, 7);
    let Workload::Producer(p) = &s.workloads[0] else { panic!("a producer") };
    assert_eq!((p.connection.as_str(), p.topic.as_str(), p.records, p.record_size), ("app-1", "orders", 30_000, 1000));
    assert_eq!(p.config.delivery_timeout_ms, 60_000);
    let Workload::Consumer(c) = &s.workloads[1] else { panic!("a consumer") };
    assert_eq!(c.connection, "billing");

    // The engine answers from it as from the JSON: users/tenant-a, rung 3 of
    // Kafka's ladder, for produce.
    let cluster = Cluster::new(&s);
    let answer = cluster.resolve_type(0, QuotaType::Produce).expect("a principal");
    assert_eq!(answer.limit(), Some(2_097_152.0));
    assert_eq!(answer.rung().map(Rung::number), Some(3));

    // The same scenario, through its JSON, is equal.
    let json = quota_formats::scenario::to_json(&s);
    assert_eq!(quota_formats::scenario::from_json(&json).expect("reads").scenario, s);
}

#[test]
fn defaults_make_a_three_line_block_runnable() {
    let s = parse(
        "kafka-configs --alter --add-config producer_byte_rate=1024 --entity-type clients --entity-name app\n\
         connection: client.id=app\n\
         producer: records=10 record.size=100",
    )
    .unwrap_or_else(|e| panic!("{}", e[0]));
    assert_eq!(s.connections[0].listener, ListenerKind::Plaintext);
    assert_eq!(s.topics.len(), 1);
    assert_eq!(s.topics[0].name, DEFAULT_TOPIC);
    let Workload::Producer(p) = &s.workloads[0] else { panic!("a producer") };
    assert_eq!((p.connection.as_str(), p.topic.as_str()), ("app", DEFAULT_TOPIC));
    // Without a workload there is nothing to simulate, and that is allowed.
    assert!(parse("connection: user=alice").expect("reads").workloads.is_empty());
}

#[test]
fn every_problem_names_its_line_and_column() {
    assert_eq!(
        problems("connection: user=alice\nproducr: records=1"),
        ["Line 2, column 1: expected a kafka-configs.sh command or one of connection:, brokers:, topic:, producer:, consumer:, move_leader:, set_quota:, run:, but found 'producr: records=1'."]
    );
    let p = problems("connection: listener=TLS user=a");
    assert!(p[0].starts_with("Line 1, column 13: listener=TLS: Unknown variant `TLS`"), "{p:?}");
    let p = problems("connection: user=a colour=blue");
    assert!(p[0].starts_with("Line 1, column 20: Unknown field `colour`"), "{p:?}");
    assert_eq!(
        problems("connection: user=a\nproducer: connection=3"),
        ["Line 2, column 11: connection=3 names no connection: the text has 1 connection: line(s), numbered from 1."]
    );
    assert_eq!(
        problems("producer: records=1"),
        ["Line 1, column 1: A producer: line needs a connection: line (who connects: listener, user or dn, client.id), and the text has none."]
    );
    assert_eq!(problems("connection: dn=\"CN=a")[0], "Line 1, column 12: expected key=value words (quote a value with spaces), but found an unclosed quote.");
    // Kafka's own refusal of a quota, at the command's line.
    let p = problems("connection: user=a\nkafka-configs.sh --alter --add-config producer_byte_rate=0 --entity-type users --entity-name a");
    assert!(p[0].starts_with("Line 2, column 1:") && p[0].contains("producer_byte_rate"), "{p:?}");
    // The engine's validation, pointing at the line that made the part.
    let p = problems("connection: user=a\nbrokers: 2\ntopic: t partitions=2 leaders=0,5\nproducer: records=1");
    assert!(p[0].starts_with("Line 3, column 8: topics[0].leaders"), "{p:?}");
    // The eleventh topic's problem is at its own line, not the second's
    // (`topics[1]` does not hold `topics[10]`: typed paths, step by step).
    let mut text = String::from("connection: user=a\nbrokers: 2\n");
    for i in 0..10 {
        text.push_str(&format!("topic: t{i} partitions=1\n"));
    }
    text.push_str("topic: t10 partitions=2 leaders=0,5\nproducer: records=1 topic=t0");
    let p = problems(&text);
    assert!(p[0].starts_with("Line 13, column 8: topics[10].leaders"), "{p:?}");
    // Several problems, in line order.
    assert_eq!(problems("oops\nconnection: user=a\nbrokers: x").len(), 2);
    assert_eq!(problems("brokers: 1\nbrokers: 2")[0], "Line 2, column 1: expected one brokers: line (the first is on line 1), but found a second brokers: line.");
}

#[test]
fn a_numeric_client_id_stays_text() {
    let s = parse("connection: client.id=123 user=007").expect("reads");
    assert_eq!(s.connections[0].client_id, "123");
    assert_eq!(s.connections[0].identity.as_deref(), Some("007"));
}

#[test]
fn quotes_and_non_ascii_words_do_not_break_the_columns() {
    // A quote inside a word used to move the scan into the middle of a
    // multi-byte character (a panic).
    let p = problems("topic: \"é\"x a=1");
    assert!(p[0].starts_with("Line 1, column "), "{p:?}");
    let s = parse("connection: user=\"zoë\" client.id='app ü'").expect("reads");
    assert_eq!(s.connections[0].identity.as_deref(), Some("zoë"));
    assert_eq!(s.connections[0].client_id, "app ü");
}

#[test]
fn a_value_of_the_wrong_type_names_its_word_in_plain_words() {
    assert_eq!(
        problems("connection: user=a\nproducer: acks=1 records=many"),
        ["Line 2, column 18: records=many: Invalid type: string \"many\", expected a whole number from 0 to 18446744073709551615."]
    );
    assert_eq!(
        problems("topic: t partitions=5000000000"),
        ["Line 1, column 10: partitions=5000000000: Invalid value: integer `5000000000`, expected a whole number from 0 to 4294967295."]
    );
}

/// Found by the `scenario_text` fuzz target (fuzz/regressions/scenario_text):
/// a topic name Kafka refuses gives Kafka's words, as a sentence ending in a
/// full stop like every other problem.
#[test]
fn a_topic_name_kafka_refuses_is_a_sentence() {
    let p = problems("connection: listener=PLAINTEXT client.id=app\ntopic: a$b\nproducer: records=10 record.size=1000\n");
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].ends_with("contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'."),
        "{}",
        p[0]
    );
    assert!(p[0].starts_with("Line 2, column "), "{}", p[0]);
}

/// The `kafka-quota` blocks of docs/scenario-text.md, in order.
fn docs_blocks() -> Vec<String> {
    let page = include_str!("../../../../docs/scenario-text.md");
    page.split("```kafka-quota\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or("").to_owned())
        .collect()
}

/// Issue 29: events (a leadership move, a quota change, a client's stop)
/// have a text form, and the docs' block reads as the same scenario as
/// examples/cluster-3-brokers.json (but for the description).
#[test]
fn the_docs_events_block_reads_as_the_cluster_example() {
    let blocks = docs_blocks();
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    let text = parse(&blocks[1]).unwrap_or_else(|e| panic!("{e:?}"));
    let json = include_str!("../../../../examples/cluster-3-brokers.json");
    let mut expected = quota_formats::scenario::from_json(json).expect("the example reads").scenario;
    expected.description.clear();
    assert_eq!(text, expected);
    assert_eq!(text.events.len(), 2);
    // Its JSON reads back to it.
    let again = quota_formats::scenario::from_json(&quota_formats::scenario::to_json(&text)).expect("reads").scenario;
    assert_eq!(again, text);
    // The first block still reads.
    parse(&blocks[0]).unwrap_or_else(|e| panic!("{e:?}"));
}

/// Issue 29: a set_quota line may create a quota for an entity that has
/// none (Kafka's AlterClientQuotas does), delete a key, and set several
/// keys at once; one event per key, adds first, in line order with the
/// leadership moves.
#[test]
fn set_quota_lines_make_one_event_per_key_on_any_entity() {
    let s = parse(
        "kafka-configs.sh --alter --add-config producer_byte_rate=2000000 --entity-type users --entity-name alice\n\
         connection: user=bob client.id=app\n\
         brokers: 2\n\
         topic: t partitions=2\n\
         producer: records=100000 record.size=1000 throughput=1000 start_ms=1000 stop_ms=9000\n\
         set_quota: at_ms=2000 kafka-configs.sh --alter --add-config 'producer_byte_rate=1000000,request_percentage=50' \\\n\
         \x20 --entity-type users --entity-name bob --entity-type clients --entity-name app\n\
         move_leader: at_ms=3000 topic=t partition=1 to_broker=0\n\
         set_quota: at_ms=4000 kafka-configs --alter --delete-config producer_byte_rate --entity-type users --entity-name alice\n\
         run: horizon_ms=10000",
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let bob = QuotaEntity::UserClientId {
        user: EntityName::Named("bob".into()),
        client_id: EntityName::Named("app".into()),
    };
    assert_eq!(
        s.events,
        [
            ScenarioEvent::SetQuota { at_ms: 2000, entity: bob.clone(), key: QuotaKey::ProducerByteRate, value: Some(1_000_000.0) },
            ScenarioEvent::SetQuota { at_ms: 2000, entity: bob, key: QuotaKey::RequestPercentage, value: Some(50.0) },
            ScenarioEvent::MoveLeader { at_ms: 3000, topic: "t".into(), partition: 1, to_broker: 0 },
            ScenarioEvent::SetQuota { at_ms: 4000, entity: QuotaEntity::user("alice"), key: QuotaKey::ProducerByteRate, value: None },
        ]
    );
    let Workload::Producer(p) = &s.workloads[0] else { panic!("a producer") };
    assert_eq!((p.start_ms, p.stop_ms), (1000, Some(9000)));
    // The same scenario through the JSON.
    let json = quota_formats::scenario::to_json(&s);
    assert_eq!(quota_formats::scenario::from_json(&json).expect("reads").scenario, s);
    // The engine runs it: bob/app had no quota before 2 s, and gets one then.
    let run = quota_engine::sim::simulate(s.validate().expect("a valid scenario")).expect("the scenario runs");
    assert!(
        run.markers.iter().any(|m| m.at_ms == 2000.0 && m.text.starts_with("users/bob/clients/app producer_byte_rate=1000000.0 is set")),
        "{:?}",
        run.markers
    );
}

#[test]
fn event_problems_name_their_line_and_column() {
    let base = "connection: user=a\nbrokers: 2\ntopic: t partitions=2\n";
    assert_eq!(
        problems(&format!("{base}set_quota: 5000 kafka-configs.sh --alter --add-config producer_byte_rate=1 --entity-type users --entity-name a")),
        ["Line 4, column 12: expected at_ms= (a whole number of milliseconds from the start), then a kafka-configs.sh --alter command, but found '5000'."]
    );
    // Kafka's refusal of the value, at its column of the line.
    let p = problems(&format!("{base}set_quota: at_ms=5 kafka-configs.sh --alter --add-config producer_byte_rate=abc --entity-type users --entity-name a"));
    assert!(p[0].starts_with("Line 4, column ") && p[0].contains("Cannot parse quota configuration value for producer_byte_rate: abc"), "{p:?}");
    // The engine's validation of an event, at the event's line.
    let p = problems(&format!("{base}move_leader: at_ms=5 topic=nope partition=0 to_broker=1"));
    assert!(p[0].starts_with("Line 4, column 14: events[0].topic: The move_leader event names the topic 'nope'"), "{p:?}");
    let p = problems(&format!("{base}run: horizon_ms=100\nset_quota: at_ms=500 kafka-configs.sh --alter --add-config producer_byte_rate=1 --entity-type users --entity-name a"));
    assert!(p[0].starts_with("Line 5, column 1: events[0].at_ms: The set_quota event at 500 ms is beyond the horizon"), "{p:?}");
    let p = problems(&format!("{base}move_leader: at_ms=5 topic=t partition=0"));
    assert!(p[0].starts_with("Line 4, column 14: Missing field `to_broker`"), "{p:?}");
}
