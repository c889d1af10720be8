//! The worked cases of docs/textbook-network.md, each figure derived by hand
//! there (throttle = `(S - Q * W) / Q`, S the window's bytes, W the window
//! Kafka divides by) and asserted here exactly.

use super::*;
use crate::sim::simulate;

fn scenario(json: &str) -> Scenario {
    serde_json::from_str(json).expect("test scenario is valid JSON")
}

fn run_json(json: &str) -> TextbookRun {
    run(scenario(json).validate().expect("a valid scenario")).expect("the textbook scenario runs")
}

/// One row: (send, arrival, start, record, recorded, accepted, throttle,
/// received, mute end).
type Row = (i64, i64, i64, i64, u64, u64, i32, i64, i64);

fn rows(run: &TextbookRun, conn: &str) -> Vec<Row> {
    run.requests
        .iter()
        .filter(|r| r.connection == conn)
        .map(|r| {
            (
                r.send_ms,
                r.arrival_ms,
                r.start_ms.expect("started"),
                r.record_ms.expect("recorded"),
                r.bytes_recorded,
                r.bytes_accepted,
                r.throttle_ms,
                r.response_received_ms.expect("received"),
                r.mute_end_ms.expect("completed"),
            )
        })
        .collect()
}

/// A one-producer scenario on `clients/app` with `quota` B/s.
fn producer(quota: u64, net: &str, window: &str, bytes: u64, size: u64, in_flight: u32) -> String {
    format!(
        r#"{{
  "network": "textbook",
  "textbook": {net},
  "brokers": {{"settings": {window}}},
  "topics": [{{"name": "t"}}],
  "quotas": [{{"entity": {{"client-id": "app"}}, "key": "producer_byte_rate", "value": {quota}}}],
  "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}}],
  "workloads": [{{"producer": {{"connection": "p", "topic": "t", "bytes": {bytes}, "request.size": {size},
                 "config": {{"max.in.flight.requests.per.connection": {in_flight}}}}}}}]
}}"#
    )
}

const FAST_LINK: &str = r#"{"bandwidth_bytes_per_s": 1000000}"#;

#[test]
fn a_producer_under_the_default_window_is_throttled_once_past_ten_windows_of_quota() {
    // Case 1: Q = 1000 B/s, 11 x 1 s, R = 5000, N = 20000, L = 1000 B/ms, D = H = 0.
    let r = run_json(&producer(1000, FAST_LINK, "{}", 20_000, 5000, 1));
    assert_eq!(
        rows(&r, "p"),
        vec![
            (0, 5, 5, 5, 5000, 5000, 0, 5, 5),
            (5, 10, 10, 10, 5000, 5000, 0, 10, 10),
            // 15000 B over W = 10.010 s: (15000 - 10010) / 1000 s = 4990 ms.
            (10, 15, 15, 15, 5000, 5000, 4990, 15, 5005),
            // New sample at 5010; W = 5.005 s padded by 5 windows = 10.005 s:
            // (20000 - 10005) / 1000 s = 9995 ms.
            (5005, 5010, 5010, 5010, 5000, 5000, 9995, 5010, 15005),
        ]
    );
    let c = &r.clients[0];
    assert_eq!(c.finish_ms, Some(5010));
    assert_eq!(c.stats.requests, 4);
    assert_eq!(c.stats.throttled_responses, 2);
    assert_eq!(c.stats.throttle_mean_ms, Some(3746.25));
    assert_eq!(c.stats.throttle_max_ms, 9995);
    assert_eq!(c.stats.first_throttle, Some(FirstThrottle { record_ms: 15, throttle_ms: 4990 }));
    assert_eq!(c.stats.bytes_accepted_per_s, vec![15000, 0, 0, 0, 0, 5000]);
    // The Timeline shows the same run.
    let t = &r.timeline;
    assert_eq!(t.end_ms, 5010.0);
    assert!(!t.hit_horizon);
    let track = &t.sensors[0];
    assert_eq!(track.mbean, "kafka.server:type=Produce,client-id=app");
    assert_eq!(track.throttles.iter().map(|e| (e.at_ms, e.delay_ms, e.window_ms)).collect::<Vec<_>>(),
        vec![(15.0, 4990, 10_010), (5010.0, 9995, 10_005)]);
    assert_eq!(track.samples.iter().map(|s| (s.start_ms, s.sum)).collect::<Vec<_>>(),
        vec![(5.0, 15000.0), (5010.0, 5000.0)]);
    let p = &t.clients[0];
    assert_eq!(p.metrics.bytes_done, 20_000);
    assert_eq!(p.metrics.throttle_time_max, 9995.0);
    assert_eq!(p.metrics.throttle_time_avg, 3746.25);
    assert_eq!(p.mutes.len(), 2);
    // simulate() dispatches to the same run.
    assert_eq!(simulate(scenario(&producer(1000, FAST_LINK, "{}", 20_000, 5000, 1)).validate().expect("a valid scenario")).unwrap(), r.timeline);
}

#[test]
fn a_shorter_ring_of_longer_windows_pads_to_samples_minus_one_windows() {
    // Case 2: quota.window.num = 3, quota.window.size.seconds = 2: W pads to 4 s.
    let window = r#"{"quota.window.num": 3, "quota.window.size.seconds": 2}"#;
    let r = run_json(&producer(1000, FAST_LINK, window, 10_000, 2000, 1));
    assert_eq!(
        rows(&r, "p"),
        vec![
            (0, 2, 2, 2, 2000, 2000, 0, 2, 2),
            (2, 4, 4, 4, 2000, 2000, 0, 4, 4),
            // 6000 B over W = 4.004 s: 1996 ms.
            (4, 6, 6, 6, 2000, 2000, 1996, 6, 2002),
            // Second sample at 2004; 1 full window elapsed, padded by one: W = 4.002 s.
            (2002, 2004, 2004, 2004, 2000, 2000, 3998, 2004, 6002),
            // Third sample at 6004; 3 full windows, no padding: W = 6.002 s.
            (6002, 6004, 6004, 6004, 2000, 2000, 3998, 6004, 10002),
        ]
    );
    let w: Vec<i64> = r.timeline.sensors[0].throttles.iter().map(|e| e.window_ms).collect();
    assert_eq!(w, vec![4004, 4002, 6002]);
    assert_eq!(r.clients[0].finish_ms, Some(6004));
}

#[test]
fn latency_and_handling_time_shift_arrival_record_and_receipt() {
    // Case 3: D = 10 ms, H = 3 ms, R = 4000 (4 ms on the link), N = 16000.
    let net = r#"{"bandwidth_bytes_per_s": 1000000, "latency_ms": 10, "handling_ms": 3}"#;
    let r = run_json(&producer(1000, net, "{}", 16_000, 4000, 1));
    assert_eq!(
        rows(&r, "p"),
        vec![
            (0, 14, 14, 17, 4000, 4000, 0, 27, 17),
            (27, 41, 41, 44, 4000, 4000, 0, 54, 44),
            // 12000 B over W = 10.054 s: 1946 ms; the broker unmutes at 2017,
            // the client may send at 81 + 1946 = 2027.
            (54, 68, 68, 71, 4000, 4000, 1946, 81, 2017),
            // W = 2.027 s + 8 windows = 10.027 s: (16000 - 10027) / 1000 = 5973 ms.
            (2027, 2041, 2041, 2044, 4000, 4000, 5973, 2054, 8017),
        ]
    );
    assert_eq!(r.clients[0].finish_ms, Some(2054));
}

#[test]
fn five_requests_in_flight_queue_at_the_broker_and_wait_unread_while_muted() {
    // Case 4: R = 1000 (1 ms), H = 2 ms, N = 12000, Q = 1000 B/s.
    let net = r#"{"bandwidth_bytes_per_s": 1000000, "handling_ms": 2}"#;
    let one = run_json(&producer(1000, net, "{}", 12_000, 1000, 1));
    let one_rows = rows(&one, "p");
    // One in flight: request k is sent at 3(k - 1), recorded at 3k.
    for (k, row) in one_rows.iter().enumerate().take(10) {
        let k = k as i64 + 1;
        assert_eq!(*row, (3 * k - 3, 3 * k - 2, 3 * k - 2, 3 * k, 1000, 1000, 0, 3 * k, 3 * k));
    }
    // 11000 B over W = 10.030 s: 970 ms; then a new sample at 1006, W = 10.003 s.
    assert_eq!(one_rows[10], (30, 31, 31, 33, 1000, 1000, 970, 33, 1003));
    assert_eq!(one_rows[11], (1003, 1004, 1004, 1006, 1000, 1000, 1997, 1006, 3003));
    assert_eq!(one.clients[0].finish_ms, Some(1006));

    let five = run_json(&producer(1000, net, "{}", 12_000, 1000, 5));
    let five_rows = rows(&five, "p");
    let sends: Vec<i64> = five_rows.iter().map(|r| r.0).collect();
    assert_eq!(sends, vec![0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15]);
    let records: Vec<i64> = five_rows.iter().map(|r| r.3).collect();
    assert_eq!(records, vec![3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 1005]);
    // 11000 B over W = 10.020 s: 980 ms.
    assert_eq!(five_rows[10], (13, 14, 21, 23, 1000, 1000, 980, 23, 1003));
    // Arrived at 16, unread until the mute ends at 1003; W = 10.002 s.
    assert_eq!(five_rows[11], (15, 16, 1003, 1005, 1000, 1000, 1998, 1005, 3003));
    assert_eq!(five.clients[0].finish_ms, Some(1005));
}

#[test]
fn a_consumer_gets_at_most_the_fetch_cap_and_an_empty_response_when_throttled() {
    // Case 5: Q = 1000 B/s -> fetch cap 1000 x (11 - 1) x 1 s = 10000 B < R = 15000.
    let r = run_json(
        r#"{
  "network": "textbook",
  "topics": [{"name": "t"}],
  "quotas": [{"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": 1000}],
  "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "reader"}],
  "workloads": [{"consumer": {"connection": "c", "topic": "t", "bytes": 20000, "fetch.size": 15000}}]
}"#,
    );
    assert_eq!(
        rows(&r, "c"),
        vec![
            // 10000 B over the padded 10 s: exactly the bound, accepted; 10 ms down.
            (0, 0, 0, 0, 10000, 10000, 0, 10, 0),
            // 20000 B over W = 10.010 s: 9990 ms; un-recorded, 0 bytes sent.
            (10, 10, 10, 10, 10000, 0, 9990, 10, 10000),
            // New sample at 10000; 10 full windows: W = 10 s, 20000 B: 10000 ms.
            (10000, 10000, 10000, 10000, 10000, 0, 10000, 10000, 20000),
            // The first sample (last event at 10) is purged at 20000: 10000 B over
            // W = 10 s (oldest start 10000), exactly the bound.
            (20000, 20000, 20000, 20000, 10000, 10000, 0, 20010, 20000),
        ]
    );
    let c = &r.clients[0];
    assert_eq!(c.finish_ms, Some(20010));
    assert_eq!(c.stats.throttled_responses, 2);
    assert_eq!(c.stats.bytes_accepted_per_s.len(), 21);
    assert_eq!(c.stats.bytes_accepted_per_s[0], 10000);
    assert_eq!(c.stats.bytes_accepted_per_s[20], 10000);
    let track = &r.timeline.sensors[0];
    assert_eq!(track.mbean, "kafka.server:type=Fetch,client-id=reader");
    // Record and un-record: 10000 + 10000 - 10000 in the first sample, 3 events.
    assert_eq!((track.samples[0].sum, track.samples[0].events), (10000.0, 3));
    assert_eq!(r.timeline.clients[0].metrics.bytes_done, 20000);
}

/// A NaN fetch quota's window is 0 bytes as Kafka narrows it (`toInt`):
/// one record batch per response, which the textbook network (no batches)
/// refuses to model, saying why and where it is modelled.
#[test]
fn a_nan_fetch_quota_is_refused_with_why() {
    let s = scenario(
        r#"{
  "network": "textbook",
  "topics": [{"name": "t"}],
  "quotas": [{"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": "NaN"}],
  "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "reader"}],
  "workloads": [{"consumer": {"connection": "c", "topic": "t", "bytes": 20000, "fetch.size": 15000}}]
}"#,
    );
    let e = s.validate().map_err(crate::Error::from).and_then(run).expect_err("refused");
    assert!(e.is_invalid_scenario(), "{e}");
    let text = e.to_string();
    assert!(text.contains("fetch cap of 0 bytes") && text.contains("one record batch per fetch response (KIP-74)") && text.contains("use the modelled network"), "{text}");
}

fn two_producers(quota_entity: &str, ids: (&str, &str), bytes: (u64, u64), size: u64, quota: u64) -> String {
    format!(
        r#"{{
  "network": "textbook",
  "topics": [{{"name": "t"}}],
  "quotas": [{{"entity": {quota_entity}, "key": "producer_byte_rate", "value": {quota}}}],
  "connections": [{{"name": "a", "listener": "PLAINTEXT", "client.id": "{}"}},
                  {{"name": "b", "listener": "PLAINTEXT", "client.id": "{}"}}],
  "workloads": [
    {{"producer": {{"connection": "a", "topic": "t", "bytes": {}, "request.size": {size}, "config": {{"max.in.flight.requests.per.connection": 1}}}}}},
    {{"producer": {{"connection": "b", "topic": "t", "bytes": {}, "request.size": {size}, "config": {{"max.in.flight.requests.per.connection": 1}}}}}}]
}}"#,
        ids.0, ids.1, bytes.0, bytes.1
    )
}

#[test]
fn two_connections_with_one_client_id_draw_on_one_budget() {
    // Case 6: clients/shared 1000 B/s, R = 3000, N = 9000 each.
    let r = run_json(&two_producers(r#"{"client-id": "shared"}"#, ("shared", "shared"), (9000, 9000), 3000, 1000));
    assert_eq!(
        rows(&r, "a"),
        vec![
            (0, 3, 3, 3, 3000, 3000, 0, 3, 3),
            (3, 6, 6, 6, 3000, 3000, 0, 6, 6),
            // 15000 B (both connections) over W = 10.006 s: 4994 ms.
            (6, 9, 9, 9, 3000, 3000, 4994, 9, 5003),
        ]
    );
    assert_eq!(
        rows(&r, "b"),
        vec![
            (0, 3, 3, 3, 3000, 3000, 0, 3, 3),
            // Recorded after a's 3000 at the same ms: 12000 B over 10.003 s: 1997 ms.
            (3, 6, 6, 6, 3000, 3000, 1997, 6, 2003),
            // 18000 B over W = 2.003 s + 8 windows: 7997 ms.
            (2003, 2006, 2006, 2006, 3000, 3000, 7997, 2006, 10003),
        ]
    );
    assert_eq!(r.budgets.len(), 1);
    let b = &r.budgets[0];
    assert_eq!(b.members, vec!["a".to_owned(), "b".to_owned()]);
    assert_eq!(b.stats.requests, 6);
    assert_eq!(b.stats.throttled_responses, 3);
    assert_eq!(b.stats.throttle_mean_ms, Some(2498.0));
    assert_eq!(b.stats.throttle_max_ms, 7997);
    assert_eq!(b.stats.first_throttle, Some(FirstThrottle { record_ms: 6, throttle_ms: 1997 }));
    assert_eq!(b.stats.bytes_accepted_per_s, vec![15000, 0, 3000]);
    assert_eq!(r.timeline.sensors.len(), 1);
    assert_eq!(r.timeline.sensors[0].members, vec![0, 1]);
}

#[test]
fn a_default_client_id_quota_gives_each_client_id_its_own_budget() {
    // Case 7: clients/<default> 2000 B/s; x sends 40000, y 20000, R = 10000.
    let r = run_json(&two_producers(r#"{"client-id": null}"#, ("x", "y"), (40_000, 20_000), 10_000, 2000));
    assert_eq!(
        rows(&r, "a"),
        vec![
            (0, 10, 10, 10, 10000, 10000, 0, 10, 10),
            (10, 20, 20, 20, 10000, 10000, 0, 20, 20),
            // 30000 B over 10.020 s against 2000 B/s: (30000 - 20040) / 2000 s = 4980 ms.
            (20, 30, 30, 30, 10000, 10000, 4980, 30, 5010),
            // 40000 B over 10.010 s: (40000 - 20020) / 2000 s = 9990 ms.
            (5010, 5020, 5020, 5020, 10000, 10000, 9990, 5020, 15010),
        ]
    );
    // y's 20000 B over 10.010 s is 1998 B/s: under its own 2000 B/s.
    assert_eq!(
        rows(&r, "b"),
        vec![(0, 10, 10, 10, 10000, 10000, 0, 10, 10), (10, 20, 20, 20, 10000, 10000, 0, 20, 20)]
    );
    let mbeans: Vec<&str> = r.budgets.iter().map(|b| b.mbean.as_str()).collect();
    assert_eq!(mbeans, vec!["kafka.server:type=Produce,client-id=x", "kafka.server:type=Produce,client-id=y"]);
    assert!(r.budgets.iter().all(|b| b.bound == 2000.0));
    assert_eq!(r.timeline.end_ms, 5020.0);
}

#[test]
fn a_throttle_past_integer_max_is_narrowed_like_kafkas_int_cast() {
    // Q = 1 B/s, R = 3000010 B (4 ms at 1e9 B/s). Request 1: (3000010 - 1 x 10) / 1 s
    // = 3e9 ms, which `(int)` wraps to -1294967296: KafkaApis sees no throttle.
    // Request 2: (6000020 - 10.004) / 1 s = 6000009996 ms, wrapped to 1705042700.
    let r = run_json(&producer(1, r#"{"bandwidth_bytes_per_s": 1000000000}"#, "{}", 6_000_020, 3_000_010, 1));
    assert_eq!(
        rows(&r, "p"),
        vec![
            (0, 4, 4, 4, 3_000_010, 3_000_010, 0, 4, 4),
            (4, 8, 8, 8, 3_000_010, 3_000_010, 1_705_042_700, 8, 8 + 1_705_042_700),
        ]
    );
    let delays: Vec<(i64, bool)> = r.timeline.sensors[0].throttles.iter().map(|e| (e.delay_ms, e.applied)).collect();
    assert_eq!(delays, vec![(-1_294_967_296, false), (1_705_042_700, true)]);
}

#[test]
fn the_modelled_network_refuses_textbook_fields_and_textbook_refuses_request_quotas() {
    let mut s = scenario(&producer(1000, FAST_LINK, "{}", 1000, 1000, 1));
    s.network = NetworkModel::Modelled;
    let e = s.validate().map_err(crate::Error::from).and_then(simulate).unwrap_err().to_string();
    assert_eq!(e, "The workload on 'p' sets bytes, which only the textbook network uses: add \"network\": \"textbook\" or remove it.");
    let mut s = scenario(&producer(1000, FAST_LINK, "{}", 1000, 1000, 1));
    s.quotas.push(serde_json::from_str(r#"{"entity": {"client-id": "app"}, "key": "request_percentage", "value": 5}"#).unwrap());
    let e = s.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert!(e.contains("request_percentage quota on clients/app"), "{e}");
}

#[test]
fn textbook_refuses_events_stop_times_and_other_leaders() {
    let base = scenario(&producer(1000, FAST_LINK, "{}", 1000, 1000, 1));
    let mut s = base.clone();
    s.events.push(serde_json::from_str(r#"{"at_ms": 1, "kind": "set_quota", "entity": {"client-id": "app"}, "key": "producer_byte_rate", "value": 5}"#).unwrap());
    let e = s.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert_eq!(e, "events[0]: The textbook network runs without events (move_leader, set_quota): remove this set_quota event and any others, or use the modelled network.");
    let mut s = base.clone();
    if let Workload::Producer(p) = &mut s.workloads[0] {
        p.stop_ms = Some(5);
    }
    let e = s.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert_eq!(e, "The textbook network runs every client to its end: remove stop_ms or use the modelled network.");
    let mut s = base;
    s.topics[0].leaders = Some(vec![1]);
    let e = s.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert_eq!(e, format!("topics[0].leaders[0]: The textbook network has one broker, 0: every topic's leaders must be 0, and partition 0 of topic '{}' is led by broker 1.", s.topics[0].name));
}

#[test]
fn textbook_fields_are_not_written_for_a_modelled_scenario() {
    let s: Scenario = serde_json::from_str("{}").unwrap();
    let json = serde_json::to_string(&s).unwrap();
    assert!(!json.contains("\"network\"") && !json.contains("textbook"), "{json}");
    let t = scenario(&producer(1000, FAST_LINK, "{}", 1000, 1000, 1));
    let back: Scenario = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
}

#[test]
fn a_consumer_whose_fetch_cap_is_zero_is_refused_instead_of_spinning() {
    // quota.window.num = 1: the cap is Q x (1 - 1) x 1 s = 0 bytes.
    let s = scenario(
        r#"{
  "network": "textbook",
  "brokers": {"settings": {"quota.window.num": 1}},
  "topics": [{"name": "t"}],
  "quotas": [{"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": 1000}],
  "connections": [{"name": "c", "listener": "PLAINTEXT", "client.id": "reader"}],
  "workloads": [{"consumer": {"connection": "c", "topic": "t", "bytes": 20000, "fetch.size": 15000}}]
}"#,
    );
    let e = s.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert!(e.starts_with("The textbook consumer on 'c' has a fetch cap of 0 bytes"), "{e}");
    let many = scenario(&producer(1000, FAST_LINK, "{}", 2_000_001, 2, 1));
    let e = many.validate().map_err(crate::Error::from).and_then(run).unwrap_err().to_string();
    assert!(e.contains("needs more than 1000000 requests"), "{e}");
}

#[test]
fn the_examples_run_cases_one_and_five() {
    let file = |text: &str| -> Scenario {
        let v: serde_json::Value = serde_json::from_str(text).expect("example is JSON");
        serde_json::from_value(v["scenario"].clone()).expect("example holds a scenario")
    };
    let p = run(file(include_str!("../../../../../examples/textbook-producer.json")).validate().expect("a valid scenario")).unwrap();
    let throttles: Vec<i32> = p.requests.iter().map(|r| r.throttle_ms).collect();
    assert_eq!((throttles, p.clients[0].finish_ms), (vec![0, 0, 4990, 9995], Some(5010)));
    let c = run(file(include_str!("../../../../../examples/textbook-consumer.json")).validate().expect("a valid scenario")).unwrap();
    let throttles: Vec<i32> = c.requests.iter().map(|r| r.throttle_ms).collect();
    assert_eq!((throttles, c.clients[0].finish_ms), (vec![0, 9990, 10000, 0], Some(20010)));
}

/// `check` (what `Scenario::validate` runs, with no broker) plans each
/// consumer's fetch cap from the quota limit of its metric tags; the run
/// takes it from broker 0's sensor (`Broker::fetch_max_bytes`, Kafka's
/// `maxValueInQuotaWindow`). The two agree whichever rung matches, with
/// no match beside other quotas, a quota near `Long.MAX_VALUE`, one sample
/// (`quota.window.num` 1) and a lower broker
/// `fetch.max.bytes`; where the cap is 0 both refuse. Each case runs for
/// three principals: `ANONYMOUS` (PLAINTEXT), a SASL/PLAIN user and a
/// certificate DN (SSL, `DEFAULT` mapping rule) whose names hold what the
/// `user` metric tag URL-encodes (Kafka's `Sanitizer.sanitize`: spaces,
/// `,`, `=`, `/`, `+`, non-ASCII), so the plan's tags are the sensor's (both
/// call the engine's `sanitize`; its own tests check it against Kafka's).
#[test]
fn the_planned_fetch_cap_is_the_broker_s() {
    let principals = [
        ("ANONYMOUS", r#""listener": "PLAINTEXT""#),
        ("tenant a/ü+1", r#""listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant a/ü+1""#),
        ("CN=Alice Smith,OU=Eng,O=Acme", r#""listener": "SSL", "identity": "CN=Alice Smith,OU=Eng,O=Acme""#),
    ];
    let quotas = [
        "[]",
        r#"[{"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": 1000}]"#,
        r#"[{"entity": {"client-id": "other"}, "key": "consumer_byte_rate", "value": 1000}]"#,
        r#"[{"entity": {"user": "USER"}, "key": "consumer_byte_rate", "value": 700}]"#,
        r#"[{"entity": {"user": null, "client-id": null}, "key": "consumer_byte_rate", "value": 3}]"#,
        r#"[{"entity": {"user": "USER", "client-id": "reader"}, "key": "consumer_byte_rate", "value": 1e12},
            {"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": 10}]"#,
        r#"[{"entity": {"client-id": "reader"}, "key": "consumer_byte_rate", "value": 9e18}]"#,
    ];
    let (mut planned, mut refused) = (0, 0);
    for (user, listener) in principals {
        for q in quotas {
            let q = q.replace("USER", user);
            for settings in [r#"{}"#, r#"{"fetch.max.bytes": 5000}"#, r#"{"quota.window.num": 2, "quota.window.size.seconds": 3}"#, r#"{"quota.window.num": 1}"#] {
                for fetch_size in [1u32, 4_000, 15_000, u32::MAX] {
                    let s = scenario(&format!(
                        r#"{{"network": "textbook", "brokers": {{"settings": {settings}}}, "topics": [{{"name": "t"}}], "quotas": {q},
  "connections": [{{"name": "c", {listener}, "client.id": "reader"}}],
  "workloads": [{{"consumer": {{"connection": "c", "topic": "t", "bytes": 20000, "fetch.size": {fetch_size}}}}}]}}"#
                    ));
                    let case = format!("principal {user}, quotas {q}, settings {settings}, fetch.size {fetch_size}");
                    let cluster = crate::cluster::Cluster::new(&s);
                    let mut broker = Broker::new(0, s.brokers.settings.clone(), cluster.managers(), &[]).expect(&case);
                    let principal = cluster.principal(0, "c").expect(&case);
                    assert_eq!(principal.name, user, "{case}");
                    let session = broker.session(&principal.name, "reader");
                    let broker_cap = u64::from(fetch_size).min(broker.fetch_max_bytes(&session, fetch_size));
                    match plan(&s) {
                        Ok((_, p)) => {
                            assert_eq!(p[0].per_request, broker_cap, "{case}");
                            planned += 1;
                        }
                        Err(e) => {
                            let text = e.to_string();
                            assert!(broker_cap == 0 && text.contains("fetch cap of 0 bytes"), "{case}: {text}");
                            assert_eq!(check(&s).map_err(|e| e.to_string()), Err(text), "{case}");
                            refused += 1;
                        }
                    }
                }
            }
        }
    }
    // 3 principals x 7 layouts x 4 settings x 4 fetch sizes: with
    // quota.window.num 1 the 5 layouts whose quota matches the connection
    // are refused.
    assert_eq!((planned, refused), (3 * 92, 3 * 20));
}
