//! `kafka-quota` against a real Apache Kafka 4.3.1 cluster that this test
//! starts and stops itself (`scripts/kafka-cluster.sh`, its own directory
//! and ports): for every listener (PLAINTEXT, SASL PLAIN, SASL SCRAM-SHA-512,
//! SSL with `ssl.principal.mapping.rules`, SSL with a typed DN) the live
//! answer of `resolve --bootstrap-server` equals the answer of
//! `resolve --quotas` on the same kafka-configs.sh commands, which are set
//! on the cluster with Kafka's own kafka-configs tool; each fault is
//! provoked for real (a wrong password, an untrusted CA, an ACL that denies
//! DescribeConfigs, a stopped cluster); `snapshot` writes a scenario that
//! `simulate` runs and `link` opens; no output carries a password.
//!
//! Needs Java 17, Maven and the Kafka jars: `scripts/lab.sh` (so `make lab`
//! and `make test`) runs it with `KAFKA_LIVE_TESTS=1`; without that
//! variable it says so and does nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PORT_BASE: &str = "29390";

struct Cluster {
    repo: PathBuf,
    dir: PathBuf,
    running: bool,
}

impl Cluster {
    fn script(&self) -> Command {
        let mut c = Command::new(self.repo.join("scripts/kafka-cluster.sh"));
        c.env("KAFKA_CLUSTER_DIR", &self.dir).env("KAFKA_CLUSTER_PORT_BASE", PORT_BASE);
        c
    }

    fn start(repo: &Path) -> Result<Cluster, String> {
        let mut c = Cluster {
            repo: repo.to_owned(),
            dir: repo.join("target/real-kafka/live-cluster"),
            running: false,
        };
        let out = c.script().arg("start").output().map_err(|e| format!("cannot run kafka-cluster.sh: {e}"))?;
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            return Err(format!("the cluster did not start: {}", String::from_utf8_lossy(&out.stderr)));
        }
        c.running = true;
        Ok(c)
    }

    fn stop(&mut self) {
        if self.running {
            if let Ok(out) = self.script().arg("stop").output() {
                print!("{}", String::from_utf8_lossy(&out.stdout));
            }
            self.running = false;
        }
    }

    fn env(&self) -> Result<std::collections::BTreeMap<String, String>, String> {
        let out = self.script().arg("env").output().map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.trim_matches('\'').to_owned()))
            .collect())
    }

    fn tool(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let out = self.script().arg(tool).args(args).output().map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{tool} {args:?}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
    }
}

fn kafka_quota(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafka-quota"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run kafka-quota: {e}"))
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// The quota commands, as kafka-configs.sh arguments.
const COMMANDS: [&str; 7] = [
    "--alter --add-config producer_byte_rate=2000000,consumer_byte_rate=1000000 --entity-type users --entity-name tenant-a",
    "--alter --add-config producer_byte_rate=3000000 --entity-type users --entity-name tenant-a --entity-type clients --entity-name app-1",
    "--alter --add-config producer_byte_rate=500000 --entity-type users --entity-name app-1",
    "--alter --add-config producer_byte_rate=700000 --entity-type users --entity-name 'CN=bob client,OU=eng,O=example'",
    "--alter --add-config request_percentage=50 --entity-type clients --entity-default",
    "--alter --add-config producer_byte_rate=1000000 --entity-type users --entity-default",
    "--alter --add-config connection_creation_rate=10 --entity-type ips --entity-name 192.0.2.10",
];

/// Splits a command as a shell would (single quotes keep spaces).
fn words(cmd: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for ch in cmd.chars() {
        match (quoted, ch) {
            (_, '\'') => quoted = !quoted,
            (false, ' ') => out.push(String::new()),
            (_, c) => {
                if let Some(w) = out.last_mut() {
                    w.push(c);
                }
            }
        }
    }
    out.into_iter().filter(|w| !w.is_empty()).collect()
}

/// The answer part of `resolve --json`: everything but what only a live
/// answer has (`live`, `quotas_readable`, `assumptions`).
fn answer(json: &str) -> Result<serde_json::Value, String> {
    let mut v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON ({e}): {json}"))?;
    if let Some(o) = v.as_object_mut() {
        o.remove("live");
        o.remove("quotas_readable");
        o.remove("assumptions");
    }
    Ok(v)
}

fn main() {
    if std::env::var_os("KAFKA_LIVE_TESTS").is_none() {
        println!("live: skipped: scripts/lab.sh runs these tests against a real cluster (KAFKA_LIVE_TESTS=1)");
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let repo = repo.canonicalize().unwrap_or(repo);
    let mut failures: Vec<String> = Vec::new();
    let mut checks = 0;
    let mut check = |name: &str, r: Result<(), String>| {
        checks += 1;
        match r {
            Ok(()) => println!("ok: {name}"),
            Err(e) => {
                println!("FAILED: {name}: {e}");
                failures.push(name.to_owned());
            }
        }
    };
    let mut cluster = match Cluster::start(&repo) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("live: {e}");
            std::process::exit(1);
        }
    };
    let env = cluster.env().unwrap_or_default();
    let get = |k: &str| env.get(k).cloned().unwrap_or_default();
    // Every password the client files hold: none may ever be printed.
    let secrets: Vec<String> = std::fs::read_dir(get("CLIENT_CONFIG_DIR"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .flat_map(|t| {
                    t.split("password=\"")
                        .skip(1)
                        .filter_map(|p| p.split('"').next().map(str::to_owned))
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .unwrap_or_default();
    check("the client files hold passwords to watch for", if secrets.len() >= 5 { Ok(()) } else { Err(format!("{} found", secrets.len())) });
    let no_secret = |o: &Output| -> Result<(), String> {
        let (out, err) = text(o);
        match secrets.iter().find(|s| out.contains(s.as_str()) || err.contains(s.as_str())) {
            Some(_) => Err("a password appears in the output".to_owned()),
            None => Ok(()),
        }
    };

    // The quotas, set with Kafka's own kafka-configs tool.
    let runbook = cluster.dir.join("quotas.sh");
    let mut lines = String::new();
    for c in COMMANDS {
        let w = words(c);
        let args: Vec<&str> = w.iter().map(String::as_str).collect();
        check(&format!("kafka-configs {c}"), cluster.tool("kafka-configs", &args));
        lines.push_str(&format!("kafka-configs.sh --bootstrap-server {} {c}\n", get("ADMIN_BOOTSTRAP").split(',').next().unwrap_or("")));
    }
    let _ = std::fs::write(&runbook, &lines);
    let runbook = runbook.to_string_lossy().into_owned();

    // Every listener: the live answer equals the file's.
    let mapping = get("SSL_MAPPING_RULES");
    // (name, bootstrap, client config, identity flags, the flags resolve
    // --quotas needs for the rules the cluster holds)
    type Case = (&'static str, String, String, Vec<String>, Vec<String>);
    let cases: Vec<Case> = vec![
        ("PLAINTEXT", get("PLAINTEXT_BOOTSTRAP"), get("PLAINTEXT_CONFIG"),
         vec!["--listener".into(), "PLAINTEXT".into(), "--client-id".into(), "app-1".into()], vec![]),
        ("SASL PLAIN tenant-a / app-1", get("SASL_PLAIN_BOOTSTRAP"), get("SASL_PLAIN_CONFIG"),
         vec!["--listener".into(), "SASL_PLAINTEXT".into(), "--user".into(), "tenant-a".into(), "--client-id".into(), "app-1".into()], vec![]),
        ("SASL SCRAM-SHA-512 alice", get("SASL_SCRAM_BOOTSTRAP"), get("SASL_SCRAM_CONFIG"),
         vec!["--listener".into(), "SASL_PLAINTEXT".into(), "--mechanism".into(), "SCRAM-SHA-512".into(), "--user".into(), "alice".into()], vec![]),
        ("SASL SCRAM-SHA-256 tenant-b / batch", get("SASL_SCRAM_BOOTSTRAP"), get("SASL_SCRAM256_CONFIG"),
         vec!["--listener".into(), "SASL_PLAINTEXT".into(), "--mechanism".into(), "SCRAM-SHA-256".into(), "--user".into(), "tenant-b".into(), "--client-id".into(), "batch".into()], vec![]),
        ("SSL with mapping rules", get("SSL_BOOTSTRAP"), get("SSL_CONFIG"),
         vec!["--listener".into(), "SSL".into(), "--dn".into(), get("SSL_DN")],
         vec!["--ssl-mapping-rules".into(), mapping.clone(), "--ssl-client-auth".into(), "required".into()]),
        ("SSL, the certificate whose subject was typed with spaces (its RFC 2253 DN)", get("SSL_BOOTSTRAP"), get("SSL_TYPED_CONFIG"),
         vec!["--listener".into(), "SSL".into(), "--dn".into(), get("SSL_TYPED_DN")],
         vec!["--ssl-mapping-rules".into(), mapping.clone(), "--ssl-client-auth".into(), "required".into()]),
    ];
    for (name, bootstrap, config, identity, file_rules) in &cases {
        let mut live_args: Vec<&str> = vec!["resolve", "--json", "--bootstrap-server", bootstrap, "--command-config", config];
        live_args.extend(identity.iter().map(String::as_str));
        let live = kafka_quota(&live_args);
        let mut file_args: Vec<&str> = vec!["resolve", "--json", "--quotas", &runbook];
        file_args.extend(identity.iter().map(String::as_str));
        file_args.extend(file_rules.iter().map(String::as_str));
        let file = kafka_quota(&file_args);
        check(&format!("{name}: the live answer equals resolve --quotas on the same commands"), (|| {
            let (lo, le) = text(&live);
            let (fo, fe) = text(&file);
            if !live.status.success() {
                return Err(format!("live exit {:?}: {le}", live.status.code()));
            }
            if !file.status.success() {
                return Err(format!("file exit {:?}: {fe}", file.status.code()));
            }
            let (a, b) = (answer(&lo)?, answer(&fo)?);
            if a != b {
                return Err(format!("live {a}\nfile {b}"));
            }
            no_secret(&live)
        })());
    }
    // advise on the live quotas equals advise on the same commands.
    let live_advice = kafka_quota(&["advise", "--json", "--bootstrap-server", &get("SASL_SCRAM_BOOTSTRAP"), "--command-config", &get("SASL_SCRAM_CONFIG"),
        "--listener", "SASL_PLAINTEXT", "--user", "alice", "--client-id", "reporting", "--quota-type", "producer_byte_rate", "--want", "5MB/s"]);
    let file_advice = kafka_quota(&["advise", "--json", "--quotas", &runbook,
        "--listener", "SASL_PLAINTEXT", "--user", "alice", "--client-id", "reporting", "--quota-type", "producer_byte_rate", "--want", "5MB/s"]);
    check("advise on the live quotas equals advise on the same commands, each command aimed at the cluster its quotas came from", (|| {
        // The runbook's own --bootstrap-server (its first), which advise's
        // commands from --quotas name; the live commands name the live one.
        let runbook_text = std::fs::read_to_string(&runbook).map_err(|e| e.to_string())?;
        let runbook_bootstrap = runbook_text
            .split_whitespace()
            .skip_while(|w| *w != "--bootstrap-server")
            .nth(1)
            .ok_or("the runbook names no --bootstrap-server")?
            .to_owned();
        let strip = |o: &Output, bootstrap: &str| -> Result<serde_json::Value, String> {
            if !o.status.success() {
                return Err(format!("exit {:?}: {}", o.status.code(), text(o).1));
            }
            let out = text(o).0;
            if !out.contains(&format!("--bootstrap-server {bootstrap} ")) {
                return Err(format!("no command names --bootstrap-server {bootstrap}: {out}"));
            }
            let out = out.replace(&format!("--bootstrap-server {bootstrap} "), "--bootstrap-server <cluster> ");
            let mut v: serde_json::Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
            if let Some(m) = v.as_object_mut() {
                m.remove("read");
            }
            Ok(v)
        };
        let (a, b) = (strip(&live_advice, &get("SASL_SCRAM_BOOTSTRAP"))?, strip(&file_advice, &runbook_bootstrap)?);
        if a == b { Ok(()) } else { Err(format!("live {a}\nfile {b}")) }
    })());
    // The principal the brokers derive for the typed DN, as the engine derives it.
    let typed = kafka_quota(&["resolve", "--bootstrap-server", &get("SSL_BOOTSTRAP"), "--command-config", &get("SSL_CONFIG"),
        "--listener", "SSL", "--dn", &get("SSL_TYPED_DN"), "--quota-type", "produce"]);
    let (o, e) = text(&typed);
    let want = format!("{},", get("SSL_TYPED_PRINCIPAL").replacen("CN=", "User:CN=", 1));
    check(
        "the typed DN's principal is the brokers' and its quota applies",
        if o.starts_with(&want) && o.contains("700000.0 bytes/s") { Ok(()) } else { Err(format!("want {want}: {o}{e}")) },
    );
    // The answer-first text, with the cluster figure from the real leaders.
    let topic_ok = cluster.tool("kafka-topics", &["--create", "--topic", "orders", "--replica-assignment", "1,2,3"]);
    let text_out = kafka_quota(&["resolve", "--bootstrap-server", &get("SASL_SCRAM_BOOTSTRAP"), "--command-config", &get("SASL_SCRAM_CONFIG"),
        "--listener", "SASL_PLAINTEXT", "--mechanism", "SCRAM-SHA-512", "--user", "tenant-a", "--topic", "orders", "--quota-type", "produce"]);
    check("--topic gives the cluster figure from the topic's real leaders", (|| {
        topic_ok.clone()?;
        let (o, e) = text(&text_out);
        let lines: Vec<&str> = o.lines().collect();
        if lines.len() >= 5
            && lines[0].starts_with("User:tenant-a, client-id \"\", SASL_PLAINTEXT listener:")
            && o.contains("Topic orders: 3 partitions, led by brokers 1, 2, 3.")
            && o.contains("up to 6 MB/s across the cluster (2 MB/s per broker x 3 leaders; Kafka: 6000000.0 bytes/s)")
            && lines.last().is_some_and(|l| l.starts_with("Read from ") && l.contains(" as tenant-a"))
        {
            Ok(())
        } else {
            Err(format!("{o}{e}"))
        }
    })());
    // snapshot: a scenario that simulate runs and link opens.
    let snap = cluster.dir.join("snapshot.json");
    let snap_s = snap.to_string_lossy().into_owned();
    let s = kafka_quota(&["snapshot", "--bootstrap-server", &get("PLAINTEXT_BOOTSTRAP"), "--topic", "orders", "--client-id", "app-1", "--out", &snap_s]);
    check("snapshot writes the cluster's quotas, brokers and leaders", (|| {
        if !s.status.success() {
            return Err(format!("exit {:?}: {}", s.status.code(), text(&s).1));
        }
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&snap).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        let sc = &v["scenario"];
        let quotas = sc["quotas"].as_array().map_or(0, Vec::len);
        if quotas != 8 {
            return Err(format!("{quotas} quota values, want 8: {}", sc["quotas"]));
        }
        if sc["brokers"]["count"] != 3 || sc["topics"][0]["leaders"] != serde_json::json!([0, 1, 2]) {
            return Err(format!("brokers {} topics {}", sc["brokers"], sc["topics"]));
        }
        if sc["brokers"]["settings"]["ssl.principal.mapping.rules"] != serde_json::json!(mapping) {
            return Err(format!("settings {}", sc["brokers"]["settings"]));
        }
        Ok(())
    })());
    let sim = kafka_quota(&["simulate", &snap_s]);
    check("simulate runs the snapshot", if sim.status.success() && text(&sim).0.contains("30000 records sent") { Ok(()) } else { Err(format!("{:?} {}", sim.status.code(), text(&sim).1)) });
    let link = kafka_quota(&["link", &snap_s]);
    check("link opens the snapshot", if link.status.success() && text(&link).0.contains("#v1.") { Ok(()) } else { Err(format!("{:?} {}", link.status.code(), text(&link).1)) });
    if let Ok(target) = std::env::var("KAFKA_LIVE_SNAPSHOT_OUT") {
        let _ = std::fs::copy(&snap, target);
    }

    // Faults, provoked for real.
    let wrong = cluster.dir.join("wrong-password.properties");
    let scram = std::fs::read_to_string(get("SASL_SCRAM_CONFIG")).unwrap_or_default();
    let wrong_text: String = scram
        .lines()
        .map(|l| match l.split_once("password=\"") {
            Some((a, b)) => format!("{a}password=\"not-the-password\"{}", b.split_once('"').map_or("", |(_, r)| r)),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let _ = std::fs::write(&wrong, wrong_text);
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SASL_SCRAM_BOOTSTRAP"), "--command-config", &wrong.to_string_lossy(), "--listener", "SASL_PLAINTEXT", "--user", "tenant-a"]);
    check("a wrong password: exit 6 with Kafka's message, no password printed", (|| {
        let (out, err) = text(&o);
        if o.status.code() != Some(6) || !out.is_empty() || !err.contains("SASL_AUTHENTICATION_FAILED") || err.contains("not-the-password") {
            return Err(format!("{:?} {out}{err}", o.status.code()));
        }
        no_secret(&o)
    })());
    let untrusted = cluster.dir.join("untrusted.properties");
    let other_ca = cluster.dir.join("other-ca.pem");
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout"])
        .arg(cluster.dir.join("other-ca.key"))
        .arg("-out")
        .arg(&other_ca)
        .args(["-days", "1", "-subj", "/CN=some other CA"])
        .output();
    let ssl = std::fs::read_to_string(get("SSL_CONFIG")).unwrap_or_default();
    let _ = std::fs::write(
        &untrusted,
        ssl.lines()
            .map(|l| if l.starts_with("ssl.truststore.location=") { format!("ssl.truststore.location={}", other_ca.display()) } else { l.to_owned() })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SSL_BOOTSTRAP"), "--command-config", &untrusted.to_string_lossy(), "--listener", "SSL", "--dn", "CN=x"]);
    check("an untrusted CA: exit 7 naming the certificate check and the trust store", (|| {
        made.as_ref().map_err(|e| e.to_string())?;
        let err = text(&o).1;
        if o.status.code() == Some(7) && err.contains("UnknownIssuer") && err.contains("other-ca.pem") { Ok(()) } else { Err(format!("{:?} {err}", o.status.code())) }
    })());
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SSL_BOOTSTRAP"), "--listener", "SSL", "--dn", "CN=x"]);
    check("PLAINTEXT to a TLS listener: exit 7 saying so", if o.status.code() == Some(7) && text(&o).1.contains("it is a TLS listener") { Ok(()) } else { Err(format!("{:?} {}", o.status.code(), text(&o).1)) });
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("PLAINTEXT_BOOTSTRAP"), "--listener", "NOPE"]);
    check("an unknown listener name: exit 1 listing the cluster's listeners", if o.status.code() == Some(1) && text(&o).1.contains("its listeners: PLAINTEXT, SASL_PLAINTEXT, SSL, INTERNAL") { Ok(()) } else { Err(format!("{:?} {}", o.status.code(), text(&o).1)) });
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SASL_PLAIN_BOOTSTRAP"), "--listener", "SASL_PLAINTEXT", "--user", "tenant-a"]);
    check("the SASL listener without --command-config: exit 5 saying what is missing", if o.status.code() == Some(5) && text(&o).1.contains("a SASL listener needs --command-config") { Ok(()) } else { Err(format!("{:?} {}", o.status.code(), text(&o).1)) });
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("PLAINTEXT_BOOTSTRAP"), "--listener", "SASL_SSL", "--user", "tenant-a", "--quota-type", "produce"]);
    check("a security protocol no listener has: answered with a note", if o.status.success() && text(&o).1.contains("no listener of the cluster is SASL_SSL") { Ok(()) } else { Err(format!("{:?} {}", o.status.code(), text(&o).1)) });
    // A setting one broker has of its own (num.io.threads is dynamic per
    // broker): said per broker, and the lowest-numbered broker's is used.
    let differ = cluster.tool("kafka-configs", &["--alter", "--entity-type", "brokers", "--entity-name", "2", "--add-config", "num.io.threads=4"]);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("PLAINTEXT_BOOTSTRAP"), "--listener", "PLAINTEXT", "--client-id", "app-1"]);
    let err = text(&o).1;
    check(
        "a setting that differs between brokers is said per broker",
        match differ {
            Err(e) => Err(e),
            Ok(()) if o.status.success() && err.contains("the brokers differ in num.io.threads (broker 1: 8; broker 2: 4; broker 3: 8); the answer uses broker 1's.") => Ok(()),
            Ok(()) => Err(format!("{:?} {err}", o.status.code())),
        },
    );
    // An ACL that denies DescribeConfigs to bob (and allows it to the others).
    let acl = cluster
        .tool("kafka-acls", &["--add", "--deny-principal", "User:bob", "--operation", "DescribeConfigs", "--cluster"])
        .and_then(|()| cluster.tool("kafka-acls", &["--add", "--allow-principal", "User:*", "--operation", "DescribeConfigs", "--cluster"]));
    std::thread::sleep(std::time::Duration::from_secs(2));
    let bob = format!("{}/sasl-plain-bob.properties", get("CLIENT_CONFIG_DIR"));
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SASL_PLAIN_BOOTSTRAP"), "--command-config", &bob, "--listener", "SASL_PLAINTEXT", "--user", "tenant-a"]);
    check("an ACL denying DescribeConfigs: exit 8, no limit claimed, the operation and resource named", (|| {
        acl.clone()?;
        let (out, err) = text(&o);
        if o.status.code() == Some(8) && out.contains("no limit can be given") && !out.contains("unlimited") && err.contains("DESCRIBE_CONFIGS on CLUSTER kafka-cluster") {
            no_secret(&o)
        } else {
            Err(format!("{:?} {out}{err}", o.status.code()))
        }
    })());
    let o = kafka_quota(&["resolve", "--json", "--bootstrap-server", &get("SASL_PLAIN_BOOTSTRAP"), "--command-config", &bob, "--listener", "SASL_PLAINTEXT", "--user", "tenant-a", "--ip", "192.0.2.10"]);
    check("the same in JSON: quotas_readable false, no limit and no --ip answer", (|| {
        let (out, err) = text(&o);
        let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}{err}"))?;
        if o.status.code() == Some(8) && v["quotas_readable"] == false && v.get("ip").is_none() && !out.contains("unlimited") && !out.contains("\"limit\": ") {
            Ok(())
        } else {
            Err(format!("{:?} {out}{err}", o.status.code()))
        }
    })());
    let o = kafka_quota(&["resolve", "--bootstrap-server", &get("SASL_PLAIN_BOOTSTRAP"), "--command-config", &get("SASL_PLAIN_CONFIG"), "--listener", "SASL_PLAINTEXT", "--user", "tenant-a", "--quota-type", "produce"]);
    check("tenant-a, allowed by the ACL, still gets the answer", if o.status.success() && text(&o).0.contains("2000000.0 bytes/s") { Ok(()) } else { Err(format!("{:?} {}", o.status.code(), text(&o).1)) });

    // A stopped cluster: unreachable, exit 5, within the timeout.
    let bootstrap = get("PLAINTEXT_BOOTSTRAP");
    cluster.stop();
    let o = kafka_quota(&["resolve", "--bootstrap-server", &bootstrap, "--listener", "PLAINTEXT", "--timeout-ms", "3000"]);
    let err = text(&o).1;
    check(
        "a stopped cluster: exit 5 naming every bootstrap address",
        if o.status.code() == Some(5) && err.contains(&bootstrap) && err.contains("3000 ms") { Ok(()) } else { Err(format!("{:?} {err}", o.status.code())) },
    );
    println!("live: {checks} checks, {} failed", failures.len());
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
