//! The wording of parser errors, under snapshot test (insta): one line per
//! input, the input and the sentence it gives.

use quota_engine::QuotaStore;
use quota_formats::configs_sh::{parse_command, Mode};
use quota_formats::describe::parse_describe_output;

fn report(inputs: &[&str], mode: Mode) -> String {
    let mut out = String::new();
    for input in inputs {
        let mut store = QuotaStore::new();
        let sentence = match parse_command(input, mode).and_then(|c| c.apply(&mut store)) {
            Ok(lines) => format!("ok: {lines:?}"),
            Err(e) => e.to_string(),
        };
        out.push_str(&format!("{input}\n  => {sentence}\n"));
    }
    out
}

const BS: &str = "kafka-configs.sh --bootstrap-server localhost:9092";

#[test]
fn strict_command_errors() {
    let inputs: Vec<String> = [
        "--zookeeper localhost:2181 --describe --entity-type users",
        "--alter --entity-type users --add-config producer_byte_rate=1",
        "--alter --entity-type users --entity-name a --entity-type users --entity-name b --add-config producer_byte_rate=1",
        "--alter --entity-type topics --entity-name t --add-config retention.ms=1",
        "--alter --entity-type groups --entity-type users --entity-name a --add-config producer_byte_rate=1",
        "--alter --entity-type users --user a --add-config producer_byte_rate=1",
        "--alter --entity-type users --entity-name a",
        "--alter --entity-type users --entity-name a --add-config producer_byte_rate",
        "--alter --entity-type users --entity-name a --add-config producer_byte_rate=fast",
        "--alter --entity-type users --entity-name a --add-config connection_creation_rate=5",
        "--alter --entity-type users --entity-name a --add-config producer_byte_rate=1.5",
        "--alter --entity-type clients --entity-name c --add-config SCRAM-SHA-256=[password=x]",
        "--alter --entity-type users --entity-name a --delete-config producer_byte_rate",
        "--alter --entity-type users --entity-name a --add-config producer_byte_rate=1 --add-config-file q.properties",
        "--alter --entity-type users --entity-name a --add-config-file q.properties",
        "--alter --entity-name",
        "--describe --entity-type users --entity-name a --entity-name b",
        "--describe",
        "--alter --entity-type users --entity-name \"$USER\" --add-config producer_byte_rate=${RATE}",
    ]
    .iter()
    .map(|a| format!("{BS} {a}"))
    .chain(["kafka-configs.sh --alter --entity-type users --entity-name a --add-config producer_byte_rate=1".to_owned(), "kafka-topics.sh --list".to_owned()])
    .collect();
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    insta::assert_snapshot!(report(&refs, Mode::Strict));
}

#[test]
fn import_command_errors() {
    insta::assert_snapshot!(report(
        &[
            "kafka-configs --zookeeper zk:2181 --alter --entity-type clients --entity-name consumer_app_$ID $CONFIG",
            "kubectl exec -n kafka pod -- bin/kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'SCRAM-SHA-512=[password=pw]' --user admin",
            "docker exec broker bash -c \"kafka-configs --bootstrap-server b:9092 --alter --add-config 'x=1' --entity-type clients --entity-name 'c\"",
            "echo hello",
        ],
        Mode::Import
    ));
}

#[test]
fn describe_errors() {
    let mut out = String::new();
    for input in [
        "Quota configs for user-principal 'a' are producer_byte_rate=fast",
        "Quota configs for user-principal 'a' producer_byte_rate=1.0",
        "Quota configs for topic 'a' are producer_byte_rate=1.0",
        "Quota configs for ip '1.2.3.4', user-principal 'a' are producer_byte_rate=1.0",
        "Quota configs for user-principal 'a are producer_byte_rate=1.0",
        "Quota configs for user-principal '{{ .Values.user }}' are producer_byte_rate=1.0",
        "Configs for user-principal 'a' are producer_byte_rate",
        "Topic: orders PartitionCount: 3",
    ] {
        let sentence = match parse_describe_output(input) {
            Ok(i) => format!("ok: {} quotas", i.quotas.len()),
            Err(e) => e.to_string(),
        };
        out.push_str(&format!("{input}\n  => {sentence}\n"));
    }
    insta::assert_snapshot!(out);
}
