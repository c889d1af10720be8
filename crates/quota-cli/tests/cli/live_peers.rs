//! `--bootstrap-server` against peers that are not Kafka brokers, on
//! loopback: a socket that accepts and never answers (the timeout fires and
//! says how long it waited), and a web server (said as such). The real
//! cluster's faults are in tests/live.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;

fn kafka_quota(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kafka-quota")).args(args).output().expect("kafka-quota runs")
}

/// A peer on 127.0.0.1 that accepts connections and, for each, reads what
/// comes and answers `reply` (nothing when empty), keeping the socket open.
fn peer(reply: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("its address").to_string();
    std::thread::spawn(move || {
        let mut open = Vec::new();
        for mut s in listener.incoming().flatten() {
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf);
            if !reply.is_empty() {
                let _ = s.write_all(reply);
            }
            open.push(s);
        }
    });
    addr
}

#[test]
fn a_broker_that_never_answers_times_out_with_exit_5_and_says_how_long() {
    let addr = peer(b"");
    let o = kafka_quota(&["resolve", "--bootstrap-server", &addr, "--listener", "PLAINTEXT", "--timeout-ms", "700"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(err.contains(&format!("{addr} did not answer within 700 ms")), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn a_web_server_is_said_to_be_no_kafka_listener() {
    let addr = peer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
    let o = kafka_quota(&["resolve", "--bootstrap-server", &addr, "--listener", "PLAINTEXT", "--timeout-ms", "2000"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(err.contains("answered HTTP: it is not a Kafka listener"), "{err}");
}

#[test]
fn a_bootstrap_server_that_is_not_host_port_is_refused_before_connecting() {
    let o = kafka_quota(&["resolve", "--bootstrap-server", "broker1", "--listener", "PLAINTEXT"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--bootstrap-server broker1 is not HOST:PORT"));
    let o = kafka_quota(&["resolve", "--bootstrap-server", "", "--listener", "PLAINTEXT"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--bootstrap-server names no address"));
}

#[test]
fn a_command_config_kafka_quota_cannot_use_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let f = dir.path().join("client.properties");
    std::fs::write(&f, "security.protocol=SASL_SSL\nsasl.mechanism=GSSAPI\n").expect("written");
    let o = kafka_quota(&["resolve", "--bootstrap-server", "127.0.0.1:1", "--command-config", &f.to_string_lossy(), "--listener", "SASL_SSL", "--user", "a"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sasl.mechanism=GSSAPI is not supported"));
}
