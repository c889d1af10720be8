//! No parser panics, whatever the input: arbitrary text, and token soups
//! built from the tool's own vocabulary (which reach the deeper checks).

use proptest::prelude::*;
use quota_engine::QuotaStore;
use quota_formats::configs_sh::{parse_command, parse_script, run_script, Mode};
use quota_formats::describe::parse_describe_output;

fn vocabulary() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("--bootstrap-server".to_owned()),
        Just("--bootstrap-controller".to_owned()),
        Just("--zookeeper".to_owned()),
        Just("--alter".to_owned()),
        Just("--describe".to_owned()),
        Just("--entity-type".to_owned()),
        Just("--entity-name".to_owned()),
        Just("--entity-default".to_owned()),
        Just("--add-config".to_owned()),
        Just("--add-config-file".to_owned()),
        Just("--delete-config".to_owned()),
        Just("--user".to_owned()),
        Just("--client".to_owned()),
        Just("--ip".to_owned()),
        Just("--user-defaults".to_owned()),
        Just("--client-defaults".to_owned()),
        Just("--ip-defaults".to_owned()),
        Just("--command-config".to_owned()),
        Just("--help".to_owned()),
        Just("users".to_owned()),
        Just("clients".to_owned()),
        Just("ips".to_owned()),
        Just("topics".to_owned()),
        Just("localhost:9092".to_owned()),
        Just("'producer_byte_rate=1024,consumer_byte_rate=2048'".to_owned()),
        Just("producer_byte_rate=-1".to_owned()),
        Just("request_percentage=[0.5]".to_owned()),
        Just("connection_creation_rate=10".to_owned()),
        Just("SCRAM-SHA-256=[password=x]".to_owned()),
        Just("producer_byte_rate".to_owned()),
        Just("10.0.0.1".to_owned()),
        Just("\"$user\"".to_owned()),
        Just("\\\n".to_owned()),
        Just("|".to_owned()),
        "[a-z=,\\[\\]'\" .$-]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        for mode in [Mode::Strict, Mode::Import] {
            let _ = parse_command(&text, mode);
            let _ = parse_script(&text, mode);
            let mut store = QuotaStore::new();
            let _ = run_script(&text, mode, &mut store);
        }
        let _ = parse_describe_output(&text);
    }

    #[test]
    fn arbitrary_bytes_as_lines_never_panic(text in "(?s).{0,300}") {
        let _ = parse_script(&text, Mode::Import);
        let _ = parse_describe_output(&text);
    }

    #[test]
    fn command_soups_never_panic(words in proptest::collection::vec(vocabulary(), 0..14), prefix in prop_oneof![
        Just("kafka-configs.sh"), Just("$ bin/kafka-configs"), Just("docker exec -it b kafka-configs"), Just("x"),
    ]) {
        let text = format!("{prefix} {}", words.join(" "));
        for mode in [Mode::Strict, Mode::Import] {
            let mut store = QuotaStore::new();
            for outcome in run_script(&text, mode, &mut store) {
                if let Err(e) = outcome.result {
                    let sentence = e.to_string();
                    prop_assert!(sentence.starts_with("Line ") && sentence.ends_with('.'), "{}", sentence);
                }
            }
        }
    }

    #[test]
    fn describe_like_lines_never_panic(entity in prop_oneof![
        Just("user-principal 'a'".to_owned()), Just("the default client-id".to_owned()), Just("clients:x".to_owned()),
        Just("ip '1.2.3.4'".to_owned()), Just("user-principal 'a', client-id 'b'".to_owned()),
        Just("default user-principal".to_owned()), "[a-z' ,:-]{0,20}",
    ], values in "[a-z_=0-9.,\\[\\] -]{0,40}", modern in any::<bool>()) {
        let prefix = if modern { "Quota configs for" } else { "Configs for" };
        let _ = parse_describe_output(&format!("{prefix} {entity} are {values}"));
    }

    /// The text form of a scenario: directive lines built from its own
    /// vocabulary with arbitrary values, and arbitrary text, never panic,
    /// and a problem always has a line inside the text.
    #[test]
    fn scenario_text_never_panics(
        lines in proptest::collection::vec((
            prop_oneof![Just("connection:"), Just("brokers:"), Just("topic:"), Just("producer:"), Just("consumer:"), Just("run:"), Just("kafka-configs.sh --alter --add-config"), Just("x:")],
            proptest::collection::vec((
                prop_oneof![Just("listener"), Just("user"), Just("dn"), Just("client.id"), Just("connection"), Just("records"), Just("record.size"), Just("partitions"), Just("leaders"), Just("acks"), Just("horizon_ms"), Just("preload.records"), Just("client"), Just("quota.window.num")],
                "[A-Za-z0-9_.,\"'= éü€-]{0,12}",
            ), 0..5),
        ), 0..6),
        noise in "\\PC{0,120}",
    ) {
        let text: String = lines
            .iter()
            .map(|(d, words)| {
                let words: Vec<String> = words.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!("{d} {}\n", words.join(" "))
            })
            .collect();
        let line_count = u32::try_from(text.lines().count().max(1)).unwrap_or(u32::MAX);
        if let Err(problems) = quota_formats::scenario_text::parse(&text) {
            prop_assert!(!problems.is_empty());
            for p in problems {
                prop_assert!(p.position.line >= 1 && p.position.line <= line_count, "{p} in {text:?}");
            }
        }
        let _ = quota_formats::scenario_text::parse(&noise);
    }
}
