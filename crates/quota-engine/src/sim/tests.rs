//! Scenario-level tests of the models: each builds a small scenario and
//! checks one behaviour against Kafka's rules.

use super::*;

fn scenario(json: &str) -> Scenario {
    serde_json::from_str(json).expect("test scenario parses")
}

fn producer(records: u64, extra_config: &str) -> String {
    format!(
        r#"{{"producer": {{"connection": "p", "topic": "t", "records": {records}, "record.size": 1000,
             "config": {{"acks": "1", "batch.size": 65536 {extra_config}}}}}}}"#
    )
}

#[test]
fn quota_is_per_broker_so_two_leaders_double_the_rate() {
    // 30 MB over 2 partitions: leaders on broker 0 and 1. Each broker allows
    // 2 MB/s with its own ~20 MB burst, so nothing is throttled; with one
    // broker the same run is.
    let two = scenario(&format!(
        r#"{{"brokers": {{"count": 2}}, "topics": [{{"name": "t", "partitions": 2}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 2000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(30_000, "")
    ));
    let t = simulate(two.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.sensors.len(), 2, "one budget per broker");
    assert!(t.sensors.iter().all(|s| s.throttles.is_empty()));
    assert_eq!(t.clients[0].metrics.throttle_time_max, 0.0);
    let mut one = two.clone();
    one.brokers.count = 1;
    let t1 = simulate(one.validate().expect("a valid scenario")).unwrap();
    assert!(t1.clients[0].metrics.throttle_time_max > 0.0);
    assert!(t1.clients[0].duration_ms.unwrap() > 5.0 * t.clients[0].duration_ms.unwrap());
}

#[test]
fn clients_with_equal_tags_share_one_budget() {
    // A client-id quota: two producers with the same client.id (different
    // users) share one sensor; each sends 15 MB, together 30 MB.
    let s = scenario(
        r#"{"topics": [{"name": "t"}],
            "quotas": [{"entity": {"client-id": "shared"}, "key": "producer_byte_rate", "value": 2000000}],
            "connections": [
              {"name": "a", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "shared"},
              {"name": "b", "listener": "SASL_PLAINTEXT", "identity": "bob", "client.id": "shared"}],
            "workloads": [
              {"producer": {"connection": "a", "topic": "t", "records": 15000, "record.size": 1000, "config": {"acks": "1", "batch.size": 65536}}},
              {"producer": {"connection": "b", "topic": "t", "records": 15000, "record.size": 1000, "config": {"acks": "1", "batch.size": 65536}}}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.sensors.len(), 1);
    assert_eq!(t.sensors[0].members, vec![0, 1]);
    assert_eq!(
        t.sensors[0].mbean,
        "kafka.server:type=Produce,client-id=shared"
    );
    assert!(
        t.clients.iter().all(|c| c.metrics.throttle_time_max > 0.0),
        "the shared budget throttles both"
    );
    assert_eq!(t.clients[0].principal, "User:alice");
    // A user quota instead gives each its own budget: 15 MB each passes.
    let mut per_user = s.clone();
    per_user.quotas[0].entity =
        crate::entity::QuotaEntity::User(crate::entity::EntityName::Default);
    let t = simulate(per_user.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.sensors.len(), 2);
    assert!(t.clients.iter().all(|c| c.metrics.throttle_time_max == 0.0));
}

#[test]
fn legacy_clients_get_delayed_responses_and_kip219_clients_hold_back() {
    let base = format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 2000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c", "client_throttling": "legacy"}}],
            "workloads": [{}]}}"#,
        producer(30_000, "")
    );
    let legacy = simulate(scenario(&base).validate().expect("a valid scenario")).unwrap();
    let modern = simulate(scenario(&base.replace("\"legacy\"", "\"kip219\"")).validate().expect("a valid scenario")).unwrap();
    let (l, m) = (&legacy.clients[0], &modern.clients[0]);
    // Either way the broker holds the client to the quota: similar duration,
    // no errors, no retries.
    assert!(l.metrics.throttle_time_max > 0.0 && m.metrics.throttle_time_max > 0.0);
    let (dl, dm) = (l.duration_ms.unwrap(), m.duration_ms.unwrap());
    assert!(
        (dl - dm).abs() < 0.15 * dm,
        "legacy {dl} ms vs KIP-219 {dm} ms"
    );
    assert_eq!(
        l.metrics.record_error_total + l.metrics.record_retry_total,
        0
    );
    // The legacy client's responses arrive a throttle late: its latency tail
    // is at least the largest throttle.
    assert!(f64::from(l.latency.unwrap().max_ms) >= l.metrics.throttle_time_max);
}

#[test]
fn full_buffer_blocks_send_and_max_block_ms_fails_records() {
    // 1 MB/s quota, 4 MB buffer, 30 MB to send: send() blocks on buffer.memory.
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 1000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(
            30_000,
            r#", "buffer.memory": 4194304, "max.block.ms": 60000"#
        )
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert!(
        c.metrics.blocked_ms_total > 1000.0,
        "blocked {} ms",
        c.metrics.blocked_ms_total
    );
    assert!(!c.blocked.is_empty());
    assert!(c.metrics.buffer_used_max <= 4_194_304);
    assert_eq!(c.metrics.record_error_total, 0, "60 s is enough to wait");
    // With max.block.ms=100 some send() calls give up: record errors.
    let mut short = s.clone();
    let Workload::Producer(p) = &mut short.workloads[0] else {
        unreachable!()
    };
    p.config.max_block_ms = 100;
    let t = simulate(short.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert!(c.metrics.record_error_total > 0);
    assert_eq!(
        c.metrics.records_done + c.metrics.record_error_total,
        30_000
    );
}

#[test]
fn delivery_timeout_expires_waiting_batches() {
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 100000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(
            30_000,
            r#", "delivery.timeout.ms": 5000, "request.timeout.ms": 3000"#
        )
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert!(
        c.metrics.record_error_total > 0,
        "batches waiting past delivery.timeout.ms expire"
    );
    assert_eq!(
        c.metrics.records_done + c.metrics.record_error_total,
        30_000
    );
}

#[test]
fn acks_zero_is_exempt_from_the_request_quota() {
    let json = format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "request_percentage", "value": 0.01}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(10_000, "")
    );
    let acks1 = simulate(scenario(&json).validate().expect("a valid scenario")).unwrap();
    assert!(acks1.sensors[0].throttles.len() > 1);
    let acks0 = simulate(scenario(&json.replace(r#""acks": "1""#, r#""acks": "0""#)).validate().expect("a valid scenario")).unwrap();
    assert!(
        acks0.sensors[0].throttles.is_empty(),
        "acks=0 never records thread time with a check"
    );
    assert_eq!(acks0.clients[0].metrics.records_done, 10_000);
}

#[test]
fn throttled_fetches_return_nothing_and_fetch_size_is_capped() {
    // consumer_byte_rate=100000: one fetch may carry at most 1 MB
    // (quota x (11 - 1) x 1 s) even with max.partition.fetch.bytes=50 MB.
    let s = scenario(
        r#"{"topics": [{"name": "t", "preload": {"records": 3000, "record.size": 1000, "batch.size": 65536}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 100000}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 3000,
                           "config": {"max.partition.fetch.bytes": 52428800}}}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let sensor = &t.sensors[0];
    assert!(!sensor.throttles.is_empty());
    // Whole 64-record batches of 1009 B up to 1 MB: at most 15 batches per fetch.
    let steps: Vec<u64> = t.clients[0]
        .progress
        .points
        .windows(2)
        .map(|w| w[1].records - w[0].records)
        .collect();
    assert!(t.clients[0].progress.points[0].records <= 960);
    assert!(steps.iter().all(|d| *d <= 960), "{steps:?}");
    let c = &t.clients[0];
    assert_eq!(c.metrics.records_done, 3000);
    assert!(c.metrics.throttle_time_max > 0.0);
}

#[test]
fn connection_rate_quota_throttles_new_connections_per_ip() {
    // 1 connection/s per IP over a padded 10 s window admits 10 connections;
    // the 11th and 12th client from the same IP wait (the broker closes the
    // refused socket after the throttle and the client reconnects).
    let conns: Vec<String> = (0..12)
        .map(|i| format!(r#"{{"name": "p{i}", "listener": "PLAINTEXT", "client.id": "c{i}", "ip": "10.0.0.9"}}"#))
        .collect();
    let loads: Vec<String> = (0..12)
        .map(|i| format!(r#"{{"producer": {{"connection": "p{i}", "topic": "t", "records": 100, "record.size": 1000}}}}"#))
        .collect();
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"ip": null}}, "key": "connection_creation_rate", "value": 1}}],
            "connections": [{}], "workloads": [{}]}}"#,
        conns.join(","),
        loads.join(",")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let delayed: Vec<&ClientTrack> = t.clients.iter().filter(|c| !c.mutes.is_empty()).collect();
    assert_eq!(
        delayed.len(),
        2,
        "the 11th and 12th connections are throttled"
    );
    assert!(delayed.iter().all(|c| c.finish_ms.unwrap() > 100.0));
    assert!(t.clients.iter().all(|c| c.metrics.records_done == 100));
    // Another IP is not affected.
    let mut other = s.clone();
    for c in &mut other.connections[10..] {
        c.ip = "10.0.0.10".parse().unwrap();
    }
    let t = simulate(other.validate().expect("a valid scenario")).unwrap();
    assert!(t.clients.iter().all(|c| c.mutes.is_empty()));
}

#[test]
fn long_poll_waits_for_data_from_a_producer() {
    let s = scenario(
        r#"{"topics": [{"name": "t"}],
            "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"},
                            {"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [
              {"consumer": {"connection": "c", "topic": "t", "records": 1000}},
              {"producer": {"connection": "p", "topic": "t", "records": 1000, "record.size": 1000, "start_ms": 700}}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = t.client("c").unwrap();
    assert_eq!(c.metrics.records_done, 1000);
    assert!(c.finish_ms.unwrap() > 700.0);
    assert!(c.metrics.requests >= 2, "an empty long poll, then data");
}

#[test]
fn bad_inputs_are_sentences() {
    let s = scenario(
        r#"{"topics": [{"name": "t"}], "connections": [],
            "workloads": [{"producer": {"connection": "nope", "topic": "t", "records": 1, "record.size": 1}}]}"#,
    );
    let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err().to_string();
    assert!(e.contains("'nope'") && e.ends_with('.'), "{e}");
    let s = scenario(
        r#"{"quotas": [{"entity": {"client-id": "c"}, "key": "producer_byte_rate", "value": -5}]}"#,
    );
    let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err().to_string();
    assert!(
        e.contains("producer_byte_rate") && e.contains("clients/c"),
        "{e}"
    );
    let r: Result<Scenario, _> = serde_json::from_str(r#"{"workloads": [], "colour": 1}"#);
    assert!(r.is_err(), "unknown fields are rejected");
}

#[test]
fn timeline_stays_bounded_for_long_runs() {
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 500000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(60_000, "").replace("65536", "16384")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert!(t.sensors[0].rate.points.len() as u32 <= SERIES_CAP + 1, "at most the cap, plus the run's last point");
    assert!(t.clients[0].throttles.points.len() as u32 <= SERIES_CAP + 1);
    assert!(
        t.sensors[0].samples.len() > 100,
        "every sample of the run is kept"
    );
}

/// The lab's 2 MB/s producer (`examples/producer-2mb-quota.json`) with
/// `records` records, `acks`, extra producer config and connection fields,
/// and extra broker settings.
fn quota_producer(records: u64, acks: &str, config: &str, conn: &str, broker: &str) -> Scenario {
    scenario(&format!(
        r#"{{"seed": 1, "brokers": {{"settings": {{ {broker} }}}}, "topics": [{{"name": "lab", "partitions": 1}}],
            "quotas": [{{"entity": {{"client-id": "tp"}}, "key": "producer_byte_rate", "value": 2000000}}],
            "connections": [{{"name": "producer", "listener": "PLAINTEXT", "client.id": "tp" {conn}}}],
            "workloads": [{{"producer": {{"connection": "producer", "topic": "lab", "records": {records}, "record.size": 1000,
              "config": {{"acks": "{acks}", "linger.ms": 5, "batch.size": 65536 {config}}}}}}}]}}"#
    ))
}

/// Bytes the broker's produce sensor metered over the run.
fn metered_bytes(t: &Timeline) -> f64 {
    t.sensors
        .iter()
        .filter(|s| s.quota_type == crate::entity::QuotaType::Produce)
        .flat_map(|s| s.samples.iter().map(|w| w.sum))
        .sum()
}

#[test]
fn flow_control_holds_an_acks0_producer_to_the_quota() {
    // examples/producer-2mb-quota.json with 100,000 records: an acks=0
    // producer gets no response and so no throttle, but the broker mutes its
    // channel, stops reading, the socket buffers fill and send() blocks on
    // buffer.memory: it takes as long as the acks=1 producer.
    let acks0 = simulate(quota_producer(100_000, "0", "", "", "").validate().expect("a valid scenario")).unwrap();
    let acks1 = simulate(quota_producer(100_000, "1", "", "", "").validate().expect("a valid scenario")).unwrap();
    let (c0, c1) = (&acks0.clients[0], &acks1.clients[0]);
    let (d0, d1) = (c0.duration_ms.unwrap(), c1.duration_ms.unwrap());
    assert!(
        (d0 - d1).abs() < 0.15 * d1,
        "acks=0 {d0} ms vs acks=1 {d1} ms"
    );
    assert!(
        d0 > 30_000.0,
        "100 MB at 2 MB/s after a ~22 MB burst: {d0} ms"
    );
    // No produce response carries a throttle: the client's throttle sensor
    // holds only its start-up responses' 0 ms samples (ApiVersions,
    // Metadata), NaN once they have left the metrics window (2 x 30 s), as
    // Kafka's Avg and Max of no samples.
    assert!(c0.throttles.points.is_empty());
    let (avg, max) = (c0.metrics.throttle_time_avg, c0.metrics.throttle_time_max);
    assert!((avg == 0.0 && max == 0.0) || (avg.is_nan() && max.is_nan()), "{avg} {max}");
    assert!(c1.metrics.throttle_time_max > 0.0);
    // Yet the broker muted the channel and metered every byte sent.
    assert!(!c0.mutes.is_empty());
    let sent = c0.metrics.bytes_done as f64;
    let metered = metered_bytes(&acks0);
    assert!(
        metered >= sent && metered < sent * 1.01,
        "metered {metered} of {sent} bytes"
    );
    let w = c0.waits.unwrap();
    assert!(w.muted_ms > 0.5 * d0, "muted {} ms of {d0}", w.muted_ms);
    assert!(w.at_client_ms > 0.0 && w.in_buffers_ms > 0.0);
    assert_eq!(
        w.backoff_ms, 0.0,
        "acks=0 gets no throttle_time_ms to back off on"
    );
    assert!(
        c0.metrics.blocked_ms_total > 0.0,
        "send() blocked on buffer.memory"
    );
    // Unread bytes stay near send.buffer.bytes + socket.receive.buffer.bytes
    // (131072 + 102400) plus one request of ~66 KB.
    assert!(w.unread_bytes_max <= 131_072 + 102_400 + 70_000, "{w:?}");
}

#[test]
fn larger_socket_buffers_queue_more_bytes() {
    let small = simulate(quota_producer(100_000, "0", "", "", "").validate().expect("a valid scenario")).unwrap();
    let large = simulate(quota_producer(
        100_000,
        "0",
        r#", "send.buffer.bytes": 10485760"#,
        "",
        r#""socket.receive.buffer.bytes": 10485760"#,
    ).validate().expect("a valid scenario"))
    .unwrap();
    let (ws, wl) = (
        small.clients[0].waits.unwrap(),
        large.clients[0].waits.unwrap(),
    );
    assert!(ws.unread_bytes_max < 400_000, "{ws:?}");
    assert!(wl.unread_bytes_max > 15_000_000, "{wl:?}");
    assert!(wl.unread_bytes_max <= 2 * 10_485_760 + 70_000, "{wl:?}");
    // Requests wait longer in the buffers. The producer is done once its
    // last request is written, ~20 MB earlier than with small buffers
    // (10 s at 2 MB/s); what the broker has not read by then is unmetered.
    assert!(wl.in_buffers_ms > 10.0 * ws.in_buffers_ms, "{ws:?} {wl:?}");
    let (ds, dl) = (
        small.clients[0].duration_ms.unwrap(),
        large.clients[0].duration_ms.unwrap(),
    );
    assert!(dl < ds - 5_000.0, "large buffers {dl} ms, small {ds} ms");
    let sent = large.clients[0].metrics.bytes_done as f64;
    let metered = metered_bytes(&large);
    assert!(
        metered < sent && metered + wl.unread_bytes_max as f64 >= sent,
        "{metered} of {sent}"
    );
}

#[test]
fn a_client_ignoring_throttle_time_is_held_near_the_quota_by_the_mute() {
    // 300 MB at 2 MB/s: the ~22 MB burst is small beside the run.
    let conn = r#", "client_throttling": "ignores-throttle""#;
    let t = simulate(quota_producer(300_000, "1", "", conn, "").validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    let d = c.duration_ms.unwrap();
    let rate = c.metrics.bytes_done as f64 * 1000.0 / d;
    assert!(
        (rate - 2_000_000.0).abs() < 0.2 * 2_000_000.0,
        "{rate} bytes/s over {d} ms"
    );
    let w = c.waits.unwrap();
    // Responses carry throttle_time_ms; the client does not wait on it.
    assert!(c.metrics.throttle_time_max > 0.0);
    assert_eq!(w.backoff_ms, 0.0);
    assert!(w.muted_ms > 0.5 * d, "{w:?}");
    assert_eq!(
        c.metrics.record_error_total + c.metrics.record_retry_total,
        0
    );
    // A KIP-219 client on the same run backs off on it.
    let kip219 = simulate(quota_producer(300_000, "1", "", "", "").validate().expect("a valid scenario")).unwrap();
    let k = &kip219.clients[0];
    assert!(k.waits.unwrap().backoff_ms > 0.0);
    let dk = k.duration_ms.unwrap();
    assert!(
        (d - dk).abs() < 0.2 * dk,
        "ignores-throttle {d} ms vs KIP-219 {dk} ms"
    );
}

#[test]
fn socket_buffers_below_one_byte_are_refused_with_their_path() {
    let mut s = quota_producer(
        10,
        "0",
        r#", "send.buffer.bytes": -1"#,
        "",
        r#""socket.receive.buffer.bytes": 0"#,
    );
    let problems = s.validate().unwrap_err();
    let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(
        paths,
        [
            "brokers.settings",
            "workloads[0].producer.config.send.buffer.bytes"
        ]
    );
    assert!(
        problems[0]
            .to_string()
            .contains("socket.receive.buffer.bytes"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].to_string().contains("send.buffer.bytes=-1"),
        "{}",
        problems[1]
    );
    s.brokers.settings.socket_receive_buffer_bytes = 102_400;
    assert!(s.validate().map_err(crate::Error::from).and_then(simulate).is_err());
    // Defaults are Kafka's and are not written out.
    let d = quota_producer(10, "0", "", "", "");
    assert_eq!(d.brokers.settings.socket_receive_buffer_bytes, 102_400);
    let Workload::Producer(p) = &d.workloads[0] else {
        unreachable!()
    };
    assert_eq!(p.config.send_buffer_bytes, 131_072);
    let json = serde_json::to_string(&d).unwrap();
    assert!(!json.contains("buffer.bytes"), "{json}");
}

#[test]
fn explicit_leaders_put_every_partition_on_one_broker() {
    // Two partitions both led by broker 1 of 2: one connection, one budget.
    let s = scenario(&format!(
        r#"{{"brokers": {{"count": 2}}, "topics": [{{"name": "t", "partitions": 2, "leaders": [1, 1]}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 2000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(3000, "")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.sensors.len(), 1);
    assert_eq!(t.sensors[0].broker, 1);
    assert_eq!(t.totals.clients[0].bytes_by_broker[0], 0);
    assert!(t.totals.clients[0].bytes_by_broker[1] > 3_000_000);
    assert_eq!(t.clients[0].metrics.records_done, 3000);
}

#[test]
fn a_consumer_follows_a_moved_partition_to_its_new_leader() {
    // 2 partitions of 10 MB on brokers 0 and 1; a consumer_byte_rate of
    // 1 MB/s per broker (quota.window.num=2: a 1 s burst) makes reading them
    // take about 10 s. At 3 s, after fetches from broker 1, partition 1
    // moves to broker 0: the consumer reads the rest of it there.
    let s = scenario(
        r#"{"brokers": {"count": 2, "settings": {"quota.window.num": 2}},
            "topics": [{"name": "t", "partitions": 2, "preload": {"records": 20000, "record.size": 1000}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 1000000}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 20000}}],
            "events": [{"at_ms": 3000, "kind": "move_leader", "topic": "t", "partition": 1, "to_broker": 0}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert_eq!(c.metrics.records_done, 20_000);
    assert!(
        c.finish_ms.unwrap() > 6000.0,
        "still reading well after the move"
    );
    let move_ms = 3000.0;
    // Broker 1 answered fetches before the move, and none was sent to it
    // after (one already there may complete within a round trip).
    let from = |b: u32| c.throttles.points.iter().filter(move |r| r.broker == b);
    assert!(from(1).any(|r| r.at_ms < move_ms));
    assert!(
        from(1).all(|r| r.at_ms < move_ms + 50.0),
        "broker 1 answered after the move"
    );
    assert!(from(0).any(|r| r.at_ms > move_ms + 1000.0));
    // Broker 1 served part of partition 1 (bytes before the move, no more
    // after), broker 0 the rest of it besides partition 0.
    let by_broker = &t.totals.clients[0].bytes_by_broker;
    let partition_bytes = 10_000 * 1000;
    assert!(by_broker[1] > 1_000_000, "{by_broker:?}");
    assert!(by_broker[1] < partition_bytes, "{by_broker:?}");
    assert!(by_broker[0] > partition_bytes + 1_000_000, "{by_broker:?}");
    let b1 = t.sensors.iter().find(|s| s.broker == 1).unwrap();
    assert!(b1
        .rate
        .points
        .iter()
        .any(|p| p.at_ms < 3000.0 && p.rate > 0.0));
    assert_eq!(t.markers.len(), 1);
}

#[test]
fn a_stopped_consumer_reports_what_it_left() {
    let s = scenario(
        r#"{"topics": [{"name": "t", "preload": {"records": 30000, "record.size": 1000}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 1000000}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 30000, "stop_ms": 15000}}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    let stop = c.stop.expect("stopped");
    assert_eq!(stop.at_ms, 15_000.0);
    assert!(c.metrics.records_done < 30_000);
    assert_eq!(stop.records_left, 30_000 - c.metrics.records_done);
    assert_eq!(c.finish_ms, None);
    assert!(!t.hit_horizon);
    assert_eq!(t.end_ms, 15_000.0);
    // Nothing moves after the stop.
    assert!(c.progress.points.iter().all(|p| p.at_ms <= 15_000.0));
}

#[test]
fn removing_a_quota_falls_back_to_the_next_matching_one() {
    // users/alice 1 MB/s over users/<default> 4 MB/s; at 2 s alice's quota
    // is removed: the same sensor (tags user=alice) takes the default's bound.
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"user": "alice"}}, "key": "producer_byte_rate", "value": 1000000}},
                       {{"entity": {{"user": null}}, "key": "producer_byte_rate", "value": 4000000}}],
            "connections": [{{"name": "p", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "c"}}],
            "workloads": [{}],
            "events": [{{"at_ms": 2000, "kind": "set_quota", "entity": {{"user": "alice"}}, "key": "producer_byte_rate", "value": null}}]}}"#,
        producer(40_000, "")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.sensors.len(), 1);
    let track = &t.sensors[0];
    assert_eq!(track.bound, 1_000_000.0);
    assert_eq!(
        track.bound_changes,
        vec![BoundChange {
            at_ms: 2000.0,
            bound: 4_000_000.0
        }]
    );
    assert!(track
        .throttles
        .iter()
        .any(|e| e.at_ms < 2000.0 && e.bound == 1_000_000.0));
    assert!(track
        .throttles
        .iter()
        .all(|e| e.at_ms < 2000.0 || e.bound == 4_000_000.0));
    // 40 MB at 1 MB/s would take about 30 s; at 4 MB/s after 2 s, about 10.
    let d = t.clients[0].duration_ms.unwrap();
    assert!(d < 15_000.0, "{d} ms");
    assert_eq!(
        t.markers[0].text,
        "users/alice producer_byte_rate is removed on every broker."
    );
}

#[test]
fn a_single_broker_run_writes_no_totals_markers_or_bound_changes() {
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 2000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(3000, "")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let json = serde_json::to_value(&t).unwrap();
    for key in ["totals", "markers"] {
        assert!(json.get(key).is_none(), "{key}");
    }
    assert!(json["sensors"][0].get("bound_changes").is_none());
    assert!(json["clients"][0].get("stop").is_none());
    // In memory the totals are there: the one broker's figures.
    assert_eq!(t.totals.clients[0].bytes, t.totals.budgets[0].bytes);
}

#[test]
fn a_producer_connects_to_a_new_leader_when_a_partition_moves_there() {
    // Both partitions on broker 0; at 20 ms partition 1 moves to broker 1,
    // which the producer had no connection to yet.
    let s = scenario(&format!(
        r#"{{"brokers": {{"count": 2}}, "topics": [{{"name": "t", "partitions": 2, "leaders": [0, 0]}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 100000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}],
            "events": [{{"at_ms": 20, "kind": "move_leader", "topic": "t", "partition": 1, "to_broker": 1}}]}}"#,
        producer(20_000, "")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(t.clients[0].metrics.records_done, 20_000);
    assert_eq!(t.clients[0].metrics.record_error_total, 0);
    let by_broker = &t.totals.clients[0].bytes_by_broker;
    assert!(by_broker[0] > 0 && by_broker[1] > 0, "{by_broker:?}");
    // Broker 1 answered only after the move.
    let first_b1 = t.clients[0]
        .throttles
        .points
        .iter()
        .find(|r| r.broker == 1)
        .unwrap();
    assert!(first_b1.at_ms > 20.0);
    assert!(t.event_times().contains(&20.0));
    // Broker 1's budget track appears with the move, after broker 0's.
    let brokers: Vec<u32> = t.sensors.iter().map(|s| s.broker).collect();
    assert_eq!(brokers, [0, 1]);
    assert!(t.sensors[1].rate.points.iter().all(|p| p.at_ms >= 20.0));
    assert_eq!(t.totals.budgets[0].bytes_by_broker, *by_broker);
}

#[test]
fn a_quota_change_after_a_client_stopped_opens_no_track_for_it() {
    // alice stops at 1 s; at 2 s a users/alice quota would give her
    // connection a new budget (tags user=alice); bob runs on.
    let s = scenario(
        r#"{"topics": [{"name": "t"}],
            "quotas": [{"entity": {"client-id": null}, "key": "producer_byte_rate", "value": 1000000}],
            "connections": [
              {"name": "a", "listener": "SASL_PLAINTEXT", "identity": "alice", "client.id": "ca"},
              {"name": "b", "listener": "SASL_PLAINTEXT", "identity": "bob", "client.id": "cb"}],
            "workloads": [
              {"producer": {"connection": "a", "topic": "t", "records": 100000, "record.size": 1000, "stop_ms": 1000}},
              {"producer": {"connection": "b", "topic": "t", "records": 30000, "record.size": 1000}}],
            "events": [{"at_ms": 2000, "kind": "set_quota", "entity": {"user": "alice"}, "key": "producer_byte_rate", "value": 500000}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert!(t.clients[0].stop.is_some());
    assert!(t.end_ms > 2000.0, "bob still runs at the change");
    let mbeans: Vec<&str> = t.sensors.iter().map(|s| s.mbean.as_str()).collect();
    assert!(
        mbeans.iter().all(|m| !m.contains("user=alice")),
        "{mbeans:?}"
    );
    assert!(t.sensors.iter().all(|s| !s.members.is_empty()));
}

#[test]
fn a_request_waiting_through_several_mutes_counts_them_all_as_muted() {
    // A client that ignores throttle_time_ms keeps 5 requests in flight:
    // they queue at the muted channel, the later ones through the mutes of
    // several earlier requests. Every instant of a mute is counted as
    // muted, so what is left as broker queue is the handling of the
    // earlier requests, a small share.
    let s = scenario(&format!(
        r#"{{"brokers": {{"settings": {{"quota.window.num": 2, "socket.receive.buffer.bytes": 1048576}}}},
            "topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 1000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c", "client_throttling": "ignores-throttle"}}],
            "workloads": [{}]}}"#,
        producer(10_000, "").replace("65536", "16384")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let w = t.clients[0].waits.unwrap();
    assert!(w.muted_ms > 20.0 * w.broker_queue_ms, "{w:?}");
    assert_eq!(w.requests, t.clients[0].metrics.requests);
}

#[test]
fn requests_dropped_on_a_disconnect_count_their_waits() {
    // A broker before 2.0 holds the response for the throttle time; with
    // request.timeout.ms=300 the producer disconnects, dropping the
    // requests queued unread behind the muted channel. Their waits count
    // too: every request sent is in the waits.
    let s = scenario(&format!(
        r#"{{"brokers": {{"settings": {{"quota.window.num": 2, "socket.receive.buffer.bytes": 1048576}}}},
            "topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 1000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c", "client_throttling": "legacy"}}],
            "horizon_ms": 30000,
            "workloads": [{}]}}"#,
        producer(5_000, r#", "request.timeout.ms": 300"#).replace("65536", "16384")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert!(
        c.metrics.record_retry_total > 0,
        "the producer retried after disconnects"
    );
    let w = c.waits.unwrap();
    assert_eq!(w.requests, c.metrics.requests);
}

#[test]
fn a_producer_stopped_with_records_in_flight_fails_them_as_closed_forcefully() {
    // 1 MB/s for 40 MB: at 3 s batches are buffered and in flight. The
    // close at stop_ms is close(Duration.ZERO): they fail with
    // KafkaException "Producer is closed forcefully."; what the application
    // had not passed to send() is left, not failed.
    let mut s = scenario(&format!(
        r#"{{"brokers": {{"settings": {{"quota.window.num": 2}}}},
            "topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 1000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
            "workloads": [{}]}}"#,
        producer(40_000, "")
    ));
    if let Workload::Producer(p) = &mut s.workloads[0] {
        p.stop_ms = Some(3000);
    }
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    let stop = c.stop.expect("stopped");
    assert!(c.outcome.is_failed(), "{:?}", c.outcome);
    let [e] = c.outcome.exceptions() else {
        panic!("one exception: {:?}", c.outcome)
    };
    assert_eq!(e.class, "org.apache.kafka.common.KafkaException");
    assert_eq!(e.message, "Producer is closed forcefully.");
    assert_eq!((e.setting.as_str(), e.setting_ms), ("stop_ms", 3000));
    assert_eq!(e.first_at_ms, 3000.0);
    let m = &c.metrics;
    assert!(e.count > 0);
    assert_eq!(m.record_error_total, e.count);
    assert_eq!(c.outcome.failed_records(), e.count);
    assert!(stop.records_left > 0, "the application had more to send");
    assert_eq!(m.records_done + e.count + stop.records_left, 40_000);
    // The aborted batches' memory is back in the pool.
    assert_eq!(
        c.buffer.points.last().map(|p| (p.at_ms, p.used_bytes)),
        Some((3000.0, 0))
    );
    assert!(
        t.markers[0].text.contains("Producer is closed forcefully."),
        "{}",
        t.markers[0].text
    );
}

#[test]
fn a_record_larger_than_max_request_size_fails_at_send() {
    // 2 MB records over the default max.request.size of 1 MB: send() throws
    // RecordTooLargeException for each at once; nothing reaches a broker.
    let s = scenario(
        r#"{"topics": [{"name": "t"}],
            "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 5, "record.size": 2097152}}]}"#,
    );
    assert!(s.validate().is_ok(), "{:?}", s.validate());
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    let [e] = c.outcome.exceptions() else {
        panic!("one exception: {:?}", c.outcome)
    };
    assert_eq!(
        e.class,
        "org.apache.kafka.common.errors.RecordTooLargeException"
    );
    assert_eq!(
        e.message,
        "The message is 2097240 bytes when serialized which is larger than 1048576, which is the value of the max.request.size configuration."
    );
    assert_eq!(
        (e.setting.as_str(), e.setting_ms, e.count),
        ("max.request.size", 1_048_576, 5)
    );
    assert_eq!(c.metrics.record_error_total, 5);
    assert_eq!(c.outcome.failed_records(), 5);
    assert_eq!(c.metrics.records_done, 0);
    assert_eq!(c.metrics.requests, 0);
    assert!(
        c.finish_ms.is_some(),
        "every send() failed: the producer is done"
    );
    // Under max.request.size but over buffer.memory: the buffer.memory variant.
    let mut s = s;
    if let Workload::Producer(p) = &mut s.workloads[0] {
        p.config.max_request_size = 4_194_304;
        p.config.buffer_memory = 2_097_152;
    }
    assert!(s.validate().is_ok(), "{:?}", s.validate());
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let e = &t.clients[0].outcome.exceptions()[0];
    assert_eq!(
        e.message,
        "The message is 2097240 bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration."
    );
    assert_eq!(
        (e.setting.as_str(), e.setting_ms),
        ("buffer.memory", 2_097_152)
    );
}

/// `examples/producer-2mb-quota.json`'s scenario (the envelope's `scenario`).
fn example_2mb() -> Scenario {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../../../examples/producer-2mb-quota.json"))
            .expect("the example parses");
    serde_json::from_value(doc["scenario"].clone()).expect("the example's scenario parses")
}

#[test]
fn traced_run_has_one_row_per_request_matching_the_timeline() {
    let s = example_2mb();
    let run = simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    // The trace costs the Timeline nothing: the same as simulate()'s.
    let plain = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(run.timeline.fingerprint(), plain.fingerprint());
    assert_eq!(run.timeline, plain);
    assert!(!run.capped);
    let t = &run.timeline;
    let client = &t.clients[0];
    let rows = &run.requests;
    assert_eq!(rows.len() as u64, client.metrics.requests);
    assert!(
        rows.len() > 400,
        "30 MB in ~64 KB batches: {} requests",
        rows.len()
    );
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.seq as usize, i + 1);
        assert_eq!(
            (r.connection.as_str(), r.api),
            ("producer", RequestApi::Produce)
        );
        let steps = [
            Some(r.send_ms),
            r.written_ms,
            r.arrival_ms,
            r.start_ms,
            r.record_ms,
            r.response_received_ms,
        ];
        let steps: Vec<f64> = steps
            .iter()
            .map(|s| s.expect("every step happened"))
            .collect();
        assert!(steps.windows(2).all(|w| w[0] <= w[1]), "row {i}: {steps:?}");
        assert_eq!(r.bytes_recorded, r.request_bytes);
        assert!(r.response_bytes > 0);
        assert_eq!(
            r.mute_end_ms.is_some(),
            r.throttle_ms > 0,
            "row {i}: muted exactly when throttled"
        );
        assert!(r.waits.is_some());
    }
    // Every response's throttle, in order, as the Timeline's client points.
    assert_eq!(client.throttles.stride, 1, "the series kept every response");
    let traced: Vec<(f64, i64)> = rows
        .iter()
        .map(|r| (r.response_received_ms.unwrap(), r.throttle_ms))
        .collect();
    let timeline: Vec<(f64, i64)> = client
        .throttles
        .points
        .iter()
        .map(|p| (p.at_ms, p.throttle_ms))
        .collect();
    assert_eq!(traced, timeline);
    let throttled = traced.iter().filter(|(_, ms)| *ms > 0).count();
    // The first ~20 MB pass on the burst allowance; the rest is throttled.
    assert!(
        throttled > 20,
        "the 2 MB/s quota throttles the run's tail: {throttled}"
    );
    // Each throttled row is one of the broker's throttle decisions, in order.
    let decided: Vec<(f64, i64)> = t.sensors[0]
        .throttles
        .iter()
        .map(|e| (e.at_ms, e.delay_ms))
        .collect();
    // (The decision's time is the whole ms Kafka's clock reads.)
    let rows_throttled: Vec<(f64, i64)> = rows
        .iter()
        .filter(|r| r.throttle_ms > 0)
        .map(|r| (r.record_ms.unwrap().floor(), r.throttle_ms))
        .collect();
    assert_eq!(rows_throttled, decided);
    // The recorded bytes are what the produce sensor metered.
    let recorded: u64 = rows.iter().map(|r| r.bytes_recorded).sum();
    assert_eq!(recorded as f64, metered_bytes(t));
    // The per-request waits add up to the client's totals.
    let w = client.waits.unwrap();
    let sum = |f: fn(&RequestWait) -> f64| rows.iter().map(|r| f(&r.waits.unwrap())).sum::<f64>();
    assert_eq!(w.requests, rows.len() as u64);
    for (total, rows_sum) in [
        (w.at_client_ms, sum(|x| x.at_client_ms)),
        (w.in_buffers_ms, sum(|x| x.in_buffers_ms)),
        (w.broker_queue_ms, sum(|x| x.broker_queue_ms)),
        (w.muted_ms, sum(|x| x.muted_ms)),
    ] {
        assert!((total - rows_sum).abs() < 1e-6, "{total} vs {rows_sum}");
    }
}

#[test]
fn traced_run_refuses_a_textbook_scenario_with_a_sentence() {
    let v: serde_json::Value = serde_json::from_str(include_str!("../../../../examples/textbook-producer.json")).expect("an example");
    let s: Scenario = serde_json::from_value(v["scenario"].clone()).expect("a scenario");
    assert!(textbook::is_textbook(&s));
    let e = simulate_traced(s.validate().expect("a valid textbook scenario")).unwrap_err();
    assert!(e.is_invalid_scenario());
    assert!(e.to_string().contains("textbook::run"), "{e}");
}

#[test]
fn traced_fetches_record_only_what_they_returned() {
    // A throttled consumer (1 MB/s, a 1 s burst) reading 10 MB: every fetch
    // is a row, a throttled fetch returns and records nothing (Kafka
    // un-records it), and the rows' recorded bytes are the fetch sensor's.
    let s = scenario(
        r#"{"brokers": {"settings": {"quota.window.num": 2}},
            "topics": [{"name": "t", "partitions": 1, "preload": {"records": 10000, "record.size": 1000}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 1000000}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "t", "records": 10000}}]}"#,
    );
    let run = simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    let t = &run.timeline;
    assert_eq!(t, &simulate(s.validate().expect("a valid scenario")).unwrap());
    let rows = &run.requests;
    assert_eq!(rows.len() as u64, t.clients[0].metrics.requests);
    assert!(rows.iter().all(|r| r.api == RequestApi::Fetch));
    let throttled: Vec<_> = rows.iter().filter(|r| r.throttle_ms > 0).collect();
    assert!(!throttled.is_empty());
    assert!(throttled.iter().all(|r| r.bytes_recorded == 0));
    let recorded: u64 = rows.iter().map(|r| r.bytes_recorded).sum();
    let metered: f64 = t
        .sensors
        .iter()
        .filter(|s| s.quota_type == crate::entity::QuotaType::Fetch)
        .flat_map(|s| s.samples.iter().map(|w| w.sum))
        .sum();
    assert_eq!(recorded as f64, metered);
    assert_eq!(recorded, t.totals.clients[0].bytes);
}

#[test]
fn a_trace_over_its_cap_keeps_the_first_rows_and_says_so() {
    let s = example_2mb();
    let full = simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    let cluster = Cluster::new(&s);
    let world = world::World::new(&s, &cluster).unwrap();
    let capped = world.run_traced_capped(&s, 10, &mut |_| true);
    assert!(capped.capped);
    assert_eq!(capped.requests.as_slice(), &full.requests[..10]);
    assert_eq!(
        capped.timeline, full.timeline,
        "the cap leaves the Timeline alone"
    );
}

#[test]
fn a_long_run_keeps_the_last_point_of_every_series() {
    // One record per batch and request: 12000 acknowledgements, more than
    // SERIES_CAP points, so the progress series keeps one point in several.
    // Its last point is still the last acknowledgement (the clients table
    // and the progress chart read it), and the consumer's too.
    let s = scenario(&format!(
        r#"{{"topics": [{{"name": "t"}}],
            "quotas": [{{"entity": {{"client-id": "c"}}, "key": "producer_byte_rate", "value": 1000000000}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}},
                            {{"name": "q", "listener": "PLAINTEXT", "client.id": "d"}}],
            "workloads": [{}, {{"consumer": {{"connection": "q", "topic": "t", "records": 12000}}}}]}}"#,
        producer(12_000, r#", "batch.size": 1000, "linger.ms": 0"#).replace(r#""batch.size": 65536 ,"#, "")
    ));
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    for c in &t.clients {
        assert!(c.progress.stride > 1, "{}: stride {}", c.name, c.progress.stride);
        assert!(c.progress.points.len() as u32 <= SERIES_CAP + 1);
        assert_eq!(c.progress.points.last().unwrap().records, c.metrics.records_done, "{}", c.name);
        assert_eq!(c.metrics.records_done, 12_000, "{}", c.name);
        assert_eq!(c.at(t.end_ms).records, 12_000, "{}", c.name);
    }
    let rate = &t.sensors[0].rate;
    assert!(rate.stride > 1);
    let last_sample = t.sensors[0].rate.points.last().unwrap().at_ms;
    assert!(t.end_ms - last_sample < 50.0, "the rate series ends at {last_sample} ms, the run at {} ms", t.end_ms);
}

#[test]
fn a_nan_or_infinite_quota_meters_the_client_and_never_delays_it() {
    // Kafka accepts NaN for every quota key and Infinity for the DOUBLE
    // ones (request_percentage; a LONG key refuses it as too large): only
    // values <= 0 are refused. The broker's sensor takes them as they are:
    // the quota's MBean exists, Infinity is never exceeded, and NaN fails
    // every check (`value <= NaN` is false) with Math.round(NaN) = 0 ms.
    for (key, json, mbean) in [
        ("producer_byte_rate", r#""NaN""#, "kafka.server:type=Produce,client-id=c"),
        ("request_percentage", r#""Infinity""#, "kafka.server:type=Request,client-id=c"),
    ] {
        let s = scenario(&format!(
            r#"{{"topics": [{{"name": "t"}}],
                "quotas": [{{"entity": {{"client-id": "c"}}, "key": "{key}", "value": {json}}}],
                "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "c"}}],
                "workloads": [{}]}}"#,
            producer(30_000, "")
        ));
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        assert_eq!(t.sensors.len(), 1, "{json}: metered");
        let sensor = &t.sensors[0];
        assert_eq!(sensor.mbean, mbean);
        let nan = json.contains("NaN");
        assert!(if nan { sensor.bound.is_nan() } else { sensor.bound == f64::INFINITY }, "{json}: {}", sensor.bound);
        assert!(sensor.samples.iter().map(|w| w.sum).sum::<f64>() > 0.0, "{json}: recorded");
        assert_eq!(t.clients[0].metrics.throttle_time_max, 0.0, "{json}");
        assert!(sensor.throttles.iter().all(|e| e.delay_ms == 0 && !e.applied), "{json}");
        assert_eq!(sensor.throttles.is_empty(), !nan, "{json}: NaN fails every check, Infinity none");
        assert_eq!(t.clients[0].metrics.records_done, 30_000);
        let text = serde_json::to_string(&t).unwrap();
        assert!(text.contains(&format!(r#""bound":{json}"#)), "{json}: written as Java spells it");
    }
}

#[test]
fn a_long_run_counts_every_throttled_response_though_its_series_keeps_one_in_stride() {
    // 200,000 records over 3 partitions led by 3 brokers, 2 MB/s per broker:
    // more responses than the series keeps. The client's tallies must
    // still count every throttled response: as many as the brokers'
    // throttle decisions together (each throttled produce response carries
    // its broker's throttle_time_ms to the client).
    let s = scenario(
        r#"{"brokers": {"count": 3},
            "topics": [{"name": "t", "partitions": 3}],
            "quotas": [{"entity": {"client-id": "p"}, "key": "producer_byte_rate", "value": 2000000}],
            "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"}],
            "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 200000, "record.size": 1000}}]}"#,
    );
    let t = simulate(s.validate().expect("a valid scenario")).unwrap();
    let c = &t.clients[0];
    assert_eq!(c.metrics.records_done, 200_000);
    assert!(c.throttles.stride > 1, "the series kept every response (stride {})", c.throttles.stride);
    let at_end = c.at(t.end_ms);
    let decided: usize = t.sensors.iter().map(|s| s.throttles.iter().filter(|e| e.applied).count()).sum();
    assert!(decided > 100, "{decided}");
    assert_eq!(u64::from(at_end.throttled_responses), decided as u64);
    let last = c.throttles.points.last().unwrap();
    assert_eq!(u64::from(last.throttled_responses), decided as u64);
    assert_eq!(c.responses.throttled_responses, decided as u64);
    assert!(c.responses.responses > u64::from(SERIES_CAP), "{}", c.responses.responses);
    assert_eq!(at_end.throttle_max_ms, c.responses.throttle_max_ms);
    // Mid-run, the counts are those of the last response kept by then: at
    // a kept point, exactly the brokers' decisions up to it.
    let mid = c.throttles.points[c.throttles.points.len() / 2];
    let decided_by = |at: f64| t.sensors.iter().map(|s| s.throttles.iter().filter(|e| e.applied && e.at_ms <= at).count()).sum::<usize>();
    let at_mid = c.at(mid.at_ms);
    assert_eq!(at_mid.throttled_responses, mid.throttled_responses);
    // A throttled response reaches the client after its broker decided it.
    assert!(u64::from(at_mid.throttled_responses) <= decided_by(mid.at_ms) as u64);
    assert!(u64::from(at_mid.throttled_responses) * 10 >= decided_by(mid.at_ms) as u64 * 9, "{} vs {}", at_mid.throttled_responses, decided_by(mid.at_ms));
}

/// A capped fetch returns a byte slice of the log that ends inside a batch
/// (`LogSegment.read`), and the fetch quota records the whole slice: the
/// real 4.3.1 broker of `lab/runs.json` (consumer-fetch-capped) throttled
/// 9,959 ms and 9,994 ms and the consumer finished at 20.3 s; whole
/// batches only recorded 4,977,049 bytes a fetch, throttled 8,998 ms the
/// second time and finished a second early.
#[test]
fn a_capped_fetch_records_the_whole_slice_including_a_cut_batch() {
    let s: Scenario = serde_json::from_str(
        r#"{"topics": [{"name": "lab", "partitions": 1,
              "preload": {"records": 10000, "record.size": 1000, "batch.size": 65536}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": 500000}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "lab", "records": 10000,
              "config": {"max.partition.fetch.bytes": 10485760}}}]}"#,
    )
    .unwrap();
    let run = crate::sim::simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    let recorded: Vec<u64> = run.requests.iter().map(|r| r.bytes_recorded).filter(|b| *b > 0).collect();
    // The cap: 500,000 B/s x (quota.window.num - 1) x 1 s; the last fetch
    // takes what is left.
    assert_eq!(&recorded[..2], &[5_000_000, 5_000_000], "{recorded:?}");
    let throttles: Vec<i64> = run.requests.iter().map(|r| r.throttle_ms).filter(|t| *t > 0).collect();
    assert!(throttles.len() >= 2 && throttles[..2].iter().all(|t| (9_900..=10_000).contains(t)), "{throttles:?}");
    let c = &run.timeline.clients[0];
    assert_eq!(c.metrics.records_done, 10_000);
    let d = c.duration_ms.unwrap();
    assert!((19_900.0..20_700.0).contains(&d), "{d}");
}

/// A NaN `consumer_byte_rate` (Kafka accepts it) caps each fetch response
/// at `(NaN × 10 × 1).toInt` = 0 bytes, so every response carries one
/// record batch, the first, whole (KIP-74): the cap the answer's
/// `FetchCap` states. Before, the simulator read NaN as no cap and sent
/// 10 MB responses.
#[test]
fn a_nan_fetch_quota_sends_one_record_batch_per_response() {
    let s: Scenario = serde_json::from_str(
        r#"{"topics": [{"name": "lab", "partitions": 1,
              "preload": {"records": 10000, "record.size": 1000, "batch.size": 65536}}],
            "quotas": [{"entity": {"client-id": "c"}, "key": "consumer_byte_rate", "value": "NaN"}],
            "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "c"}],
            "workloads": [{"consumer": {"connection": "c", "topic": "lab", "records": 10000,
              "config": {"max.partition.fetch.bytes": 10485760}}}]}"#,
    )
    .unwrap();
    let run = crate::sim::simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    let fetched: Vec<u64> = run.requests.iter().map(|r| r.bytes_recorded).filter(|b| *b > 0).collect();
    let largest = fetched.iter().copied().max().unwrap();
    // One batch of 1,000-byte records within batch.size 65,536: at most
    // 65 records' bytes with their framing, never a second batch.
    assert!(largest <= 65_536 + 1_000, "{largest}");
    assert!(fetched.len() >= 10_000 / 65, "{} responses", fetched.len());
    assert_eq!(run.timeline.clients[0].metrics.records_done, 10_000);
}

/// With `quota.window.num` 1 every quota's window holds `quota x 0 x 1 s`
/// = 0 bytes, but Kafka 4.3.1's `ClientQuotaManager.maxValueInQuotaWindow`
/// reads the limit of the connection's tags (`quotaLimit`): a consumer no
/// quota matches (a quota on another client-id enables the fetch quota)
/// has none, so its fetches are uncapped (`Double.MAX_VALUE`), while the
/// consumer the quota matches gets one record batch per response. Before,
/// the engine multiplied the unmatched sensor's unlimited bound by 0 and
/// capped both.
#[test]
fn one_sample_caps_only_the_consumer_a_quota_matches() {
    let s: Scenario = serde_json::from_str(
        r#"{"brokers": {"settings": {"quota.window.num": 1}},
            "topics": [{"name": "lab", "partitions": 1,
              "preload": {"records": 2000, "record.size": 1000, "batch.size": 65536}}],
            "quotas": [{"entity": {"client-id": "capped"}, "key": "consumer_byte_rate", "value": 1000000000}],
            "connections": [{"name": "free", "listener": "PLAINTEXT", "client.id": "free"},
                            {"name": "capped", "listener": "PLAINTEXT", "client.id": "capped"}],
            "workloads": [{"consumer": {"connection": "free", "topic": "lab", "records": 2000,
                             "config": {"max.partition.fetch.bytes": 10485760}}},
                          {"consumer": {"connection": "capped", "topic": "lab", "records": 2000,
                             "config": {"max.partition.fetch.bytes": 10485760}}}]}"#,
    )
    .unwrap();
    let run = crate::sim::simulate_traced(s.validate().expect("a valid scenario")).unwrap();
    let largest = |client: &str| {
        run.requests
            .iter()
            .filter(|r| r.connection == client && r.api == crate::sim::RequestApi::Fetch)
            .map(|r| r.response_bytes)
            .max()
            .unwrap_or(0)
    };
    // Unmatched: more than one batch in a response.
    assert!(largest("free") > 65_536 + 1_000, "free: {}", largest("free"));
    // Matched: one batch per response.
    assert!(largest("capped") <= 65_536 + 1_000, "capped: {}", largest("capped"));
    assert!(run.timeline.clients.iter().all(|c| c.metrics.records_done == 2_000));
}

/// Issue 30: a run reports its progress and can be stopped; stopped, it
/// is the Timeline so far, marked cut short; not stopped, it is the run.
#[test]
fn a_run_reports_progress_and_stops_when_asked() {
    let s = scenario(&format!(
        r#"{{"horizon_ms": 60000, "topics": [{{"name": "t"}}],
            "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "p"}}],
            "workloads": [{}]}}"#,
        producer(1_000_000_000, r#", "linger.ms": 5"#)
    ));
    let mut reports = Vec::new();
    let whole = simulate_with_progress(s.validate().expect("a valid scenario"), &mut |p| {
        reports.push(*p);
        true
    })
    .unwrap();
    assert_eq!(whole.fingerprint(), simulate(s.validate().expect("a valid scenario")).unwrap().fingerprint(), "reporting changes nothing");
    assert!(!whole.cut_short && whole.hit_horizon);
    assert_eq!(reports.len() as u64, whole.events / PROGRESS_EVERY_EVENTS);
    assert!(reports.windows(2).all(|w| w[0].now_ms <= w[1].now_ms && w[0].events < w[1].events));
    assert_eq!(reports[0].horizon_ms, 60_000);

    let mut calls = 0;
    let cut = simulate_with_progress(s.validate().expect("a valid scenario"), &mut |_| {
        calls += 1;
        calls < 2
    })
    .unwrap();
    assert!(cut.cut_short && !cut.hit_horizon);
    assert_eq!(cut.events, 2 * PROGRESS_EVERY_EVENTS);
    assert_eq!(cut.end_ms, reports[1].now_ms, "it ends where it was stopped");
    let json = serde_json::to_string(&cut).unwrap();
    assert!(json.contains("\"cut_short\":true"));
    assert!(!serde_json::to_string(&whole).unwrap().contains("cut_short"), "not written when false");
}
