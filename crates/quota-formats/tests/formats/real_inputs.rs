//! Every configs-commands and describe-outputs item of the real inputs
//! (`tests/fixtures/real-inputs`), run through the importer: each is either
//! imported (entities, keys and values asserted) or refused with a message
//! that says what is unsupported and why (asserted).

use std::collections::BTreeMap;

use quota_engine::{QuotaKey, QuotaStore};
use quota_formats::configs_sh::{run_script, Mode};
use quota_formats::describe::parse_describe_output;

use crate::common::{items, read_fixture};

/// What an item must give.
enum Expect {
    /// Imported: the tool's output lines and the store afterwards
    /// (`path` -> `key=value` pairs).
    Imported(
        &'static [&'static str],
        &'static [(&'static str, &'static [(&'static str, f64)])],
    ),
    /// Refused: the error sentence contains this text.
    Refused(&'static str),
}

use Expect::{Imported, Refused};

const ZK_NOTE: &str = "Kafka 4.0 removed --zookeeper";

fn configs_expectations() -> Vec<Expect> {
    vec![
        // 0: --zookeeper, user + client, quoted list
        Imported(
            &["Completed updating config for user stock_analyst."],
            &[("users/stock_analyst/clients/stockConsumer", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0)])],
        ),
        // 1: --zookeeper --describe: nothing to import, nothing printed on an empty store
        Imported(&[], &[]),
        // 2: default client via --zookeeper
        Imported(&["Completed updating default config for clients in the cluster."], &[("clients/<default>", &[("producer_byte_rate", 512.0), ("consumer_byte_rate", 512.0)])]),
        // 3-6: "$user", "$client", $rate, $quota, $config
        Refused("the unexpanded shell variables $rate, $user, $client stand in the --add-config value and the entity name"),
        Refused("the unexpanded shell variables $quota, $user, $client stand in the --add-config value and the entity name"),
        Refused("the unexpanded shell variables $config, $user, $client stand in the --delete-config value and the entity name"),
        Refused("the unexpanded shell variable $rate stands in the --add-config value"),
        // 7: --describe --entity-type users with $env/$site only in the bootstrap host
        Imported(&[], &[]),
        // 8: `broker` alias wrapper, --entity-name before --entity-type
        Imported(&["Completed updating config for client clientC."], &[("clients/clientC", &[("producer_byte_rate", 1024.0)])]),
        // 9: --alter of users without a name or default
        Refused("\"An entity-name or default entity must be specified with --alter of users, clients, brokers or ips\""),
        // 10: --zookeeper, clients
        Imported(&["Completed updating config for client trade3."], &[("clients/trade3", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0)])]),
        // 11: bin/kafka-configs with two spaces
        Imported(&["Completed updating config for client clientA."], &[("clients/clientA", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0)])]),
        // 12: --zookeeper describe of all (user, client) pairs
        Imported(&[], &[]),
        // 13: docker exec ... bash -c "..." with ${VAR}s
        Refused("the unexpanded shell variables ${PRODUCER_BYTES}, ${CONSUMER_BYTES}, ${CLIENT_ID} stand in the --add-config value and the entity name"),
        // 14-16: consumer_app_$ID and $CONFIG standing for the options
        Refused("the unexpanded shell variables $ID, $CONFIG stand in the entity name and an argument position, where it may hold options such as --add-config"),
        Refused("the unexpanded shell variables $ID, $CONFIG stand in the entity name and an argument position, where it may hold options such as --add-config"),
        Refused("the unexpanded shell variables $ID, $CONFIG stand in the entity name and an argument position, where it may hold options such as --add-config"),
        // 17: pasted across lines without backslashes, chroot, space after the comma
        Imported(
            &["Completed updating config for user userXXX."],
            &[("users/userXXX/clients/client_id_xxx", &[("producer_byte_rate", 1_024_000.0), ("consumer_byte_rate", 1_024_000.0)])],
        ),
        // 18: '>' prompt, ./kafka-configs.sh, describe
        Imported(&[], &[]),
        // 19: user + default client-id
        Imported(
            &["Completed updating config for user user1."],
            &[("users/user1/clients/<default>", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0), ("request_percentage", 200.0)])],
        ),
        // 20: '$ ' prompt, user + client
        Imported(
            &["Completed updating config for user user1."],
            &[("users/user1/clients/clientA", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0), ("request_percentage", 200.0)])],
        ),
        // 21: describe
        Imported(&[], &[]),
        // 22: --ip with an address that is not one (octet 284)
        Refused("\"The entity name for ips must be a valid IP or resolvable host, but it is: 93.284.53.13\""),
        // 23: --bootstrap-server and --add-config after the entity flags
        Imported(&["Completed updating default config for users in the cluster."], &[("users/<default>", &[("producer_byte_rate", 20_971_520.0), ("consumer_byte_rate", 41_943_040.0)])]),
        // 24: continuation lines without indentation
        Imported(&["Completed updating config for client my-consumer-app."], &[("clients/my-consumer-app", &[("consumer_byte_rate", 26_214_400.0)])]),
        // 25: $BOOTSTRAP only in the connection option
        Imported(&["Completed updating config for user analytics-service."], &[("users/analytics-service", &[("request_percentage", 25.0)])]),
        // 26: default user + named client: the tool names the default user in its message
        Imported(&["Completed updating default config for users in the cluster."], &[("users/<default>/clients/test-client", &[("producer_byte_rate", 1_048_576.0)])]),
        // 27: NEAR-MISS: a SCRAM credential, not a quota
        Refused("Altering the SCRAM credential SCRAM-SHA-256 is not supported because a SCRAM credential is a user's password, not a client quota"),
        // 28: docker-compose exec wrapper, fractional request_percentage, names 'unknown'
        Imported(
            &["Completed updating config for user unknown."],
            &[("users/unknown/clients/unknown", &[("producer_byte_rate", 10_000.0), ("consumer_byte_rate", 30_000.0), ("request_percentage", 0.2)])],
        ),
        // 29: unquoted --add-config, default user
        Imported(&["Completed updating default config for users in the cluster."], &[("users/<default>", &[("producer_byte_rate", 44_444.0)])]),
    ]
}

fn store_as_map(store: &QuotaStore) -> BTreeMap<String, BTreeMap<String, f64>> {
    store
        .entries()
        .map(|(e, v)| {
            (
                e.path(),
                v.iter().map(|(k, x)| (k.as_str().to_owned(), *x)).collect(),
            )
        })
        .collect()
}

fn expected_map(pairs: &[(&str, &[(&str, f64)])]) -> BTreeMap<String, BTreeMap<String, f64>> {
    pairs
        .iter()
        .map(|(p, kv)| {
            (
                (*p).to_owned(),
                kv.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
            )
        })
        .collect()
}

#[test]
fn every_configs_command_is_imported_or_refused_with_reason() {
    let all = items(&read_fixture("real-inputs/configs-commands.txt"));
    let expectations = configs_expectations();
    assert_eq!(all.len(), 30);
    assert_eq!(all.len(), expectations.len());
    for (i, ((source, body), expect)) in all.iter().zip(&expectations).enumerate() {
        let mut store = QuotaStore::new();
        let outcomes = run_script(body, Mode::Import, &mut store);
        assert_eq!(
            outcomes.len(),
            1,
            "item {i} ({source}) should hold exactly one command"
        );
        let outcome = &outcomes[0];
        match expect {
            Imported(lines, quotas) => {
                let printed = outcome
                    .result
                    .as_ref()
                    .unwrap_or_else(|e| panic!("item {i} ({source}) was refused: {e}"));
                assert_eq!(printed, lines, "item {i}");
                assert_eq!(store_as_map(&store), expected_map(quotas), "item {i}");
                if body.contains("--zookeeper") {
                    assert!(
                        outcome.notes.iter().any(|n| n.contains(ZK_NOTE)),
                        "item {i} should note the removed flag: {:?}",
                        outcome.notes
                    );
                }
            }
            Refused(text) => {
                let error = outcome
                    .result
                    .as_ref()
                    .expect_err(&format!("item {i} ({source}) should be refused"));
                let sentence = error.to_string();
                assert!(sentence.contains(text), "item {i}: {sentence}");
                assert!(
                    sentence.starts_with("Line ") && sentence.ends_with('.'),
                    "item {i}: {sentence}"
                );
                assert!(store.is_empty(), "item {i} must not change the store");
            }
        }
    }
}

#[test]
fn strict_mode_refuses_the_removed_zookeeper_flag_in_real_inputs() {
    let all = items(&read_fixture("real-inputs/configs-commands.txt"));
    for (source, body) in all
        .iter()
        .filter(|(_, b)| b.contains("--zookeeper") && !b.contains("bash -c") && !b.contains('$'))
    {
        let mut store = QuotaStore::new();
        let outcomes = run_script(body, Mode::Strict, &mut store);
        let stderr: Vec<Option<String>> = outcomes
            .iter()
            .map(|o| {
                o.result
                    .as_ref()
                    .err()
                    .and_then(|e| e.tool_stderr().map(str::to_owned))
            })
            .collect();
        assert!(
            stderr.contains(&Some("zookeeper is not a recognized option".to_owned())),
            "{source}: {:?}",
            outcomes
                .iter()
                .map(|o| o.result.clone())
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn every_describe_output_is_imported_or_refused_with_reason() {
    let all = items(&read_fixture("real-inputs/describe-outputs.txt"));
    assert_eq!(all.len(), 7);
    type Quotas = &'static [(&'static str, &'static [(&'static str, f64)])];
    let expected: [Result<Quotas, &str>; 7] = [
        Ok(&[
            ("users/<default>", &[]),
            ("users/<default>/clients/client1", &[("producer_byte_rate", 300.0)]),
            ("users/alice", &[("producer_byte_rate", 100.0)]),
            ("users/alice/clients/client1", &[("producer_byte_rate", 300.0)]),
        ]),
        Ok(&[]),
        Ok(&[]),
        Ok(&[("clients/clientA", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0)])]),
        Ok(&[
            ("users/user1", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0), ("request_percentage", 200.0)]),
            ("users/<default>", &[("producer_byte_rate", 1024.0), ("consumer_byte_rate", 2048.0), ("request_percentage", 200.0)]),
        ]),
        Ok(&[]),
        // A Scala test's `$user1`: read as printed, with a note saying it may stand for a name.
        Ok(&[("users/$user1", &[("consumer_byte_rate", 20000.0)])]),
    ];
    for (i, ((source, body), want)) in all.iter().zip(expected).enumerate() {
        match (parse_describe_output(body), want) {
            (Ok(import), Ok(quotas)) => {
                let got: Vec<(String, Vec<(String, f64)>)> = import
                    .quotas
                    .iter()
                    .map(|q| {
                        (
                            q.entity.path(),
                            q.values
                                .iter()
                                .map(|(k, v)| (k.as_str().to_owned(), *v))
                                .collect(),
                        )
                    })
                    .collect();
                let want: Vec<(String, Vec<(String, f64)>)> = quotas
                    .iter()
                    .map(|(p, kv)| {
                        (
                            (*p).to_owned(),
                            kv.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
                        )
                    })
                    .collect();
                assert_eq!(got, want, "item {i} ({source})");
                // Lines without quota values are explained, never silently dropped.
                let quiet = body.lines().filter(|l| !l.trim().is_empty()).count()
                    - import
                        .quotas
                        .iter()
                        .filter(|q| !q.values.is_empty())
                        .count();
                // (Besides the note on a name that may be a placeholder.)
                let placeholder_notes = import.notes.iter().filter(|(_, n)| n.starts_with("Read `")).count();
                assert_eq!(import.notes.len() - placeholder_notes, quiet, "item {i}: {:?}", import.notes);
                if source.contains("$user1") {
                    assert_eq!(placeholder_notes, 1, "item {i}: {:?}", import.notes);
                }
                let mut store = QuotaStore::new();
                import.apply(&mut store).unwrap();
                assert_eq!(
                    store.entries().map(|(_, v)| v.len()).sum::<usize>(),
                    import.quotas.iter().map(|q| q.values.len()).sum::<usize>()
                );
                assert!(store
                    .entries()
                    .all(|(_, v)| v.keys().all(|k| QuotaKey::CLIENT_KEYS.contains(k))));
            }
            (Err(e), Err(sentence)) => assert_eq!(e.to_string(), sentence, "item {i}"),
            (got, want) => panic!("item {i} ({source}): got {got:?}, want {want:?}"),
        }
    }
}
