//! `kafka-quota advise`: what to set so that a connection gets a limit,
//! answer first, verified on the ladder; near misses; request capacity.

use std::io::Write;

use super::common::kafka_quota;

/// The example: users/<default> = 2 MB/s, clients/reporting = 10 MB/s,
/// plus carol with a quota of her own and a client-id typo.
const QUOTAS: &str = "\
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=2000000' --entity-type users --entity-default
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=10000000' --entity-type clients --entity-name reporting
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=5000000' --entity-type users --entity-name carol
kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=7000000' --entity-type clients --entity-name reportng
";

fn quotas_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temp file");
    f.write_all(text.as_bytes()).expect("written");
    f
}

fn advise(text: &str, args: &[&str]) -> (String, String) {
    let f = quotas_file(text);
    let out = kafka_quota()
        .args(["advise", "--quotas"])
        .arg(f.path())
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

const ALICE: [&str; 9] = [
    "--listener",
    "SASL_SSL",
    "--user",
    "alice",
    "--client-id",
    "reporting",
    "--quota-type",
    "producer_byte_rate",
    "--want",
];

#[test]
fn for_every_user_the_answer_is_default_user_with_the_client_id_and_its_command() {
    let mut args = ALICE.to_vec();
    args.extend(["10MB/s", "--for", "every-user"]);
    let (out, _) = advise(QUOTAS, &args);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Answer: Set producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s) on users/<default>/clients/reporting (rung 4): it reaches every user without a quota of their own (users/X/clients/reporting, users/X/clients/<default> or users/X), with client.id \"reporting\", each user its own budget."
    );
    // The command goes to the runbook's cluster (issue 29), not localhost:9092.
    assert_eq!(
        lines.next().unwrap(),
        "  kafka-configs.sh --bootstrap-server b:9092 --alter --entity-type users --entity-default --entity-type clients --entity-name reporting --add-config producer_byte_rate=10000000"
    );
    // Users with a quota of their own keep it.
    assert!(out.contains("shadowed by: users/carol, with producer_byte_rate = 5 MB/s per broker (5000000.0 bytes/s), is more specific and keeps applying to principal \"carol\" with client.id \"reporting\""), "{out}");
    assert!(out.contains("shadows: users/<default>, with producer_byte_rate = 2 MB/s per broker (2000000.0 bytes/s), stops applying to every user without a quota of their own, with client.id \"reporting\""), "{out}");
    assert!(out.contains("Today principal \"alice\" with client.id \"reporting\" gets 2 MB/s per broker (2000000 bytes/s) from users/<default> (rung 6)."), "{out}");
    // clients/reporting already holds 10 MB/s but is outranked: not proposed, and why.
    assert!(out.contains("- rung 7 (clients/C) clients/reporting: With producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s) on clients/reporting, principal \"alice\" with client.id \"reporting\" would still get producer_byte_rate = 2 MB/s per broker (2000000.0 bytes/s) from users/<default>."), "{out}");
    // The typo'd client-id is named as a near miss.
    assert!(
        out.contains(
            "Near misses:\n- clients/reportng, with producer_byte_rate = 7 MB/s per broker (7000000.0 bytes/s), never applies"
        ),
        "{out}"
    );
}

#[test]
fn with_other_connections_the_answer_covers_them_all() {
    let mut args = ALICE.to_vec();
    args.extend(["10000000", "--also", "bob::reporting"]);
    let (out, _) = advise(QUOTAS, &args);
    assert!(out.starts_with("Answer: Set producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s) on users/<default>/clients/reporting (rung 4)"), "{out}");
    assert!(
        out.contains("  also covers: principal \"bob\" with client.id \"reporting\"."),
        "{out}"
    );
    // Alone, the most specific entity answers.
    let mut alone = ALICE.to_vec();
    alone.push("10000000");
    let (out, _) = advise(QUOTAS, &alone);
    assert!(out.starts_with("Answer: Set producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s) on users/alice/clients/reporting (rung 1)"), "{out}");
    assert!(out.contains("Other proposals, most specific first:\n- Set producer_byte_rate = 10 MB/s per broker (1.0E7 bytes/s) on users/alice/clients/<default> (rung 2)"), "{out}");
}

#[test]
fn json_has_a_format_version_rung_numbers_and_commands() {
    let mut args = ALICE.to_vec();
    args.extend(["10MB/s", "--for", "every-user", "--json"]);
    let (out, _) = advise(QUOTAS, &args);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["scope"], "every-user");
    assert_eq!(v["want"], 10_000_000.0);
    assert_eq!(v["best"]["rung_number"], 4);
    assert_eq!(
        v["best"]["entity"],
        serde_json::json!({"user": null, "client-id": "reporting"})
    );
    assert!(v["best"]["command"]
        .as_str()
        .unwrap()
        .contains("--entity-default --entity-type clients --entity-name reporting"));
    assert_eq!(v["proposals"].as_array().unwrap().len(), 6);
    assert_eq!(v["rejected"][0]["rung_number"], 7);
    assert_eq!(v["near_misses"][0]["kind"], "typo");
}

#[test]
fn request_percentage_above_capacity_warns_on_stderr() {
    let q = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'request_percentage=50' --entity-type users --entity-default\n";
    let args = [
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "alice",
        "--client-id",
        "app",
        "--quota-type",
        "request_percentage",
        "--want",
        "1200%",
    ];
    let (out, err) = advise(q, &args);
    assert!(out.contains("Capacity:\n- request_percentage=1200.0 is 12 thread(s) worth of time per quota window, 109.1 % of one broker's capacity of 1100.0 % ((num.io.threads 8 + num.network.threads 3) x 100 %)"), "{out}");
    assert_eq!(
        err.trim_end(),
        "warning: request_percentage=1200.0 exceeds the broker's capacity of 1100.0 % (11 threads x 100 %): no client can use more thread time than the broker has, so this quota can never limit anyone."
    );
    let mut more = args.to_vec();
    more.extend(["--num-io-threads", "16", "--num-network-threads", "4"]);
    let (out, err) = advise(q, &more);
    assert!(
        out.contains("60.0 % of one broker's capacity of 2000.0 %"),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn tls_near_miss_on_part_of_the_dn() {
    let q = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'consumer_byte_rate=1000' --entity-type users --entity-name CN=my-app\n";
    let args = [
        "--listener",
        "SSL",
        "--dn",
        "CN=my-app,OU=x",
        "--client-id",
        "c",
        "--quota-type",
        "consumer_byte_rate",
        "--want",
        "1kB/s",
        "--leaders",
        "3",
    ];
    let (out, _) = advise(q, &args);
    assert!(out.contains("Near misses:\n- users/CN=my-app, with consumer_byte_rate = 1 kB/s per broker (1000.0 bytes/s), never applies to principal \"CN=my-app,OU=x\" with client.id \"c\": it names part of the certificate DN"), "{out}");
    assert!(
        out.contains("written as users/CN=my-app,OU=x it would apply."),
        "{out}"
    );
    assert!(out.contains("with its partitions led by 3 brokers, each broker allows it that much, so up to 3 kB/s (3000.0 bytes/s) across the cluster."), "{out}");
}

#[test]
fn a_literal_default_user_prints_apart_from_the_default() {
    let q = "kafka-configs.sh --bootstrap-server b:9092 --alter --add-config 'producer_byte_rate=1000' --entity-type users --entity-name '<default>'\n";
    let args = [
        "--listener",
        "SASL_PLAINTEXT",
        "--user",
        "<default>",
        "--client-id",
        "c",
        "--quota-type",
        "producer_byte_rate",
        "--want",
        "2000",
    ];
    let (out, _) = advise(q, &args);
    assert!(out.contains("from users/\"<default>\" (rung 3)."), "{out}");
    assert!(
        out.contains(
            "note: users/\"<default>\"/clients/c names a user literally called \"<default>\""
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "--entity-type users --entity-name '<default>' --entity-type clients --entity-name c"
        ),
        "{out}"
    );
    // users/<default> (the default) would not win over users/"<default>" (the literal).
    assert!(out.contains("- rung 6 (users/<default>) users/<default>: With producer_byte_rate = 2 kB/s per broker (2000.0 bytes/s) on users/<default>, principal \"<default>\" with client.id \"c\" would still get producer_byte_rate = 1 kB/s per broker (1000.0 bytes/s) from users/\"<default>\"."), "{out}");
    assert!(
        out.contains("except client.ids with a users/\"<default>\"/clients/... quota"),
        "{out}"
    );
}

#[test]
fn bad_input_is_named() {
    let f = quotas_file(QUOTAS);
    let run = |extra: &[&str]| {
        let mut args = vec!["advise", "--quotas"];
        let p = f.path().to_str().unwrap().to_owned();
        let mut cmd = kafka_quota();
        args.push(&p);
        args.extend(ALICE[..8].iter());
        args.extend(extra);
        let out = cmd.args(&args).assert().code(1).get_output().clone();
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(
        run(&["--want", "10 furlongs"]).trim_end(),
        "kafka-quota: --want \"10 furlongs\" is not a producer_byte_rate value: 'furlongs' is not a byte unit; use B, kB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024) or a plain number of bytes/s."
    );
    assert!(run(&["--want", "1", "--also", "bob"]).contains("--also \"bob\" names no client-id"));
    assert!(run(&["--want", "1", "--num-io-threads", "0"]).contains("num.io.threads"));
}
