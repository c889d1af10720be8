//! examples/cluster-3-brokers.json: a users quota enforced per broker, a
//! leadership move and a quota alteration during the run.

use quota_engine::sim::{simulate, MarkerKind, Scenario, SensorTrack, Timeline};

const EXAMPLE: &str = include_str!("../../../../examples/cluster-3-brokers.json");

const QUOTA: f64 = 2_000_000.0;
const NEW_QUOTA: f64 = 1_000_000.0;

fn scenario() -> Scenario {
    let v: serde_json::Value = serde_json::from_str(EXAMPLE).expect("the example is JSON");
    serde_json::from_value(v["scenario"].clone()).expect("the example holds a scenario")
}

fn run() -> Timeline {
    simulate(scenario().validate().expect("a valid scenario")).expect("the example simulates")
}

fn sensor(t: &Timeline, broker: u32) -> &SensorTrack {
    t.sensors
        .iter()
        .find(|s| s.broker == broker)
        .unwrap_or_else(|| panic!("broker {broker} has a produce sensor"))
}

/// Bytes a sensor recorded in the samples that started in `[from_ms, to_ms)`
/// (the samples are 1 s long and the run keeps every one).
fn bytes_between(s: &SensorTrack, from_ms: f64, to_ms: f64) -> f64 {
    s.samples
        .iter()
        .filter(|w| w.start_ms >= from_ms && w.start_ms < to_ms)
        .map(|w| w.sum)
        .sum()
}

/// Bytes per second a sensor recorded in the samples that started in
/// `[from_ms, to_ms)`, over the time they cover: from the first one's start
/// to the start of the next sample after them (or `to_ms`). A sample holds
/// every record from its start until the next sample starts.
fn rate_between(s: &SensorTrack, from_ms: f64, to_ms: f64) -> f64 {
    let first = s
        .samples
        .iter()
        .find(|w| w.start_ms >= from_ms)
        .map_or(from_ms, |w| w.start_ms);
    let end = s
        .samples
        .iter()
        .find(|w| w.start_ms >= to_ms)
        .map_or(to_ms, |w| w.start_ms);
    bytes_between(s, from_ms, to_ms) * 1000.0 / (end - first)
}

#[test]
fn the_example_is_valid_and_every_event_is_marked() {
    assert!(scenario().validate().is_ok(), "{:?}", scenario().validate());
    let t = run();
    let kinds: Vec<(f64, MarkerKind)> = t.markers.iter().map(|m| (m.at_ms, m.kind)).collect();
    assert_eq!(
        kinds,
        [
            (5000.0, MarkerKind::MoveLeader),
            (10_000.0, MarkerKind::SetQuota),
            (18_000.0, MarkerKind::ClientStop)
        ]
    );
    assert_eq!(
        t.markers[0].text,
        "Partition orders-2 moves from broker 2 to broker 0: new produce and fetch requests for it go to broker 0."
    );
    let p = &t.clients[0];
    let stop = p.stop.expect("the producer stopped at 18 s");
    assert_eq!(stop.at_ms, 18_000.0);
    // close(Duration.ZERO) at stop_ms fails what was buffered or in
    // flight; what the application had not passed to send() is left.
    let failed = p.metrics.record_error_total;
    assert!(failed > 0);
    assert!(p.outcome.is_failed());
    assert_eq!(p.outcome.exceptions()[0].message, "Producer is closed forcefully.");
    assert_eq!(stop.records_left, 400_000 - p.metrics.records_done - failed);
    assert!(!t.hit_horizon);
    assert_eq!(t.end_ms, 18_000.0);
}

#[test]
fn each_broker_enforces_the_quota_so_the_cluster_gets_three_times_it() {
    let t = run();
    // After the first window's burst allowance, before the move: the
    // producer sends a window's worth, is throttled about a window, and so
    // on (one cycle from 2 s to 4 s).
    let per_broker: Vec<f64> = (0..3)
        .map(|b| rate_between(sensor(&t, b), 2000.0, 4000.0))
        .collect();
    for (b, r) in per_broker.iter().enumerate() {
        assert!((r / QUOTA - 1.0).abs() < 0.05, "broker {b}: {r} bytes/s");
    }
    let cluster: f64 = per_broker.iter().sum();
    assert!(
        (cluster / (3.0 * QUOTA) - 1.0).abs() < 0.05,
        "cluster: {cluster} bytes/s"
    );
    // Kafka's own measure (the byte-rate MBean) agrees just before the move.
    let measured: f64 = (0..3)
        .map(|b| {
            sensor(&t, b)
                .rate_at(4999.0)
                .expect("a rate before the move")
                .rate
        })
        .sum();
    assert!(
        (measured / (3.0 * QUOTA) - 1.0).abs() < 0.05,
        "measured: {measured} bytes/s"
    );
    // The cluster totals add the brokers up.
    let totals = &t.totals;
    assert_eq!(totals.brokers, 3);
    let client = &totals.clients[0];
    assert_eq!(client.bytes, client.bytes_by_broker.iter().sum::<u64>());
    assert_eq!(totals.budgets.len(), 1);
    let budget = &totals.budgets[0];
    assert_eq!(budget.mbean, "kafka.server:type=Produce,user=alice");
    assert_eq!(budget.sensors.len(), 3);
    assert_eq!(budget.bytes_by_broker, client.bytes_by_broker);
    // Every byte the sensors recorded is in the budget's total.
    let recorded: f64 = t
        .sensors
        .iter()
        .map(|s| bytes_between(s, 0.0, f64::MAX))
        .sum();
    assert_eq!(budget.bytes as f64, recorded);
}

#[test]
fn the_broker_that_took_two_partitions_holds_them_to_one_quota() {
    let t = run();
    let b0 = rate_between(sensor(&t, 0), 6000.0, 10_000.0);
    assert!(b0 <= QUOTA * 1.1, "broker 0 after the move: {b0} bytes/s");
    assert!(b0 >= QUOTA * 0.9, "broker 0 after the move: {b0} bytes/s");
    // Broker 2 leads nothing after the move: nothing more reaches it.
    assert_eq!(bytes_between(sensor(&t, 2), 6000.0, f64::MAX), 0.0);
    // So the cluster gets two quotas' worth, not three.
    let cluster: f64 = (0..3)
        .map(|b| rate_between(sensor(&t, b), 6000.0, 10_000.0))
        .sum();
    assert!(
        cluster < 2.2 * QUOTA,
        "cluster after the move: {cluster} bytes/s"
    );
}

#[test]
fn the_new_bound_applies_at_once_and_the_samples_are_kept() {
    let t = run();
    for b in 0..3 {
        let s = sensor(&t, b);
        assert_eq!(s.bound, QUOTA);
        assert_eq!(s.bound_changes.len(), 1, "broker {b}");
        assert_eq!(s.bound_changes[0].at_ms, 10_000.0);
        assert_eq!(s.bound_changes[0].bound, NEW_QUOTA);
        assert_eq!(s.bound_at(9_999.0), QUOTA);
        assert_eq!(s.bound_at(10_000.0), NEW_QUOTA);
    }
    let s = sensor(&t, 0);
    // The first decision after the change is taken against the new bound
    // with the samples recorded before it: more bytes are in the window than
    // the one request after the change can carry (max.request.size).
    let first = s
        .throttles
        .iter()
        .find(|e| e.at_ms >= 10_000.0)
        .expect("broker 0 throttles after the change");
    assert_eq!(first.bound, NEW_QUOTA);
    let first_decision = s
        .rate
        .points
        .iter()
        .find(|p| p.at_ms >= 10_000.0)
        .expect("a decision after 10 s");
    assert_eq!(
        first_decision.at_ms, first.at_ms,
        "the first request after the change is throttled"
    );
    let in_window = first.observed * first.window_ms as f64 / 1000.0;
    assert!(
        in_window > 1_048_576.0 * 2.0,
        "{in_window} bytes in the window"
    );
    // Then the broker holds the producer to the new bound.
    let after = rate_between(s, 12_000.0, 16_000.0);
    assert!(
        (after / NEW_QUOTA - 1.0).abs() < 0.15,
        "broker 0 after 10 s: {after} bytes/s"
    );
}
