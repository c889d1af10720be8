//! Named outcomes: a producer whose records fail ends in
//! `Outcome::Failed` with Kafka's exception, counted as `record-error-total`
//! counts it; a run without failures keeps the plain success (and its JSON).
//!
//! `cargo test -p quota-engine --test engine outcome`.

use quota_engine::sim::{simulate, Outcome, Scenario, Timeline};

/// examples/producer-delivery-timeout.json: the 30 MB producer under
/// producer_byte_rate=2000000 with delivery.timeout.ms=1000 and
/// request.timeout.ms=500.
const EXPIRING: &str = include_str!("../../../../examples/producer-delivery-timeout.json");
/// The same run with Kafka's defaults (nothing expires).
const PLAIN: &str = include_str!("../../../../examples/producer-2mb-quota.json");

fn scenario(envelope: &str) -> Scenario {
    let v: serde_json::Value = serde_json::from_str(envelope).expect("the example is JSON");
    serde_json::from_value(v["scenario"].clone()).expect("the example holds a scenario")
}

fn run(s: &Scenario) -> Timeline {
    simulate(s.validate().expect("a valid scenario")).expect("the example simulates")
}

#[test]
fn expired_batches_are_a_named_timeout_exception() {
    let t = run(&scenario(EXPIRING));
    let c = t.client("producer").expect("the producer's track");
    let m = &c.metrics;
    assert!(m.record_error_total > 0, "nothing expired: {m:?}");
    assert_eq!(m.records_done + m.record_error_total, 30_000);
    let Outcome::Failed {
        records,
        failed_records,
        exceptions,
    } = &c.outcome
    else {
        panic!("a run that lost records is not {:?}", c.outcome);
    };
    assert_eq!(*records, 30_000);
    assert_eq!(*failed_records, m.record_error_total);
    assert_eq!(exceptions.len(), 1, "{exceptions:?}");
    let e = &exceptions[0];
    assert_eq!(e.class, "org.apache.kafka.common.errors.TimeoutException");
    assert_eq!(e.count, m.record_error_total);
    assert_eq!(e.setting, "delivery.timeout.ms");
    assert_eq!(e.setting_ms, 1000);
    // The first batch to expire was created at or after the start and
    // expires delivery.timeout.ms later, before the producer finished.
    assert!(e.first_at_ms >= c.start_ms + 1000.0, "{e:?}");
    assert!(e.first_at_ms <= c.finish_ms.expect("finished"), "{e:?}");
    // Kafka's Sender.sendProducerData wording, for a full 64-record batch of
    // partition 0 of topic "lab".
    assert_eq!(
        e.message,
        "Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation"
    );
    assert!(e.is_timeout());
    assert!(e.line().starts_with(
        "org.apache.kafka.common.errors.TimeoutException: Expiring 64 record(s) for lab-0:1000 ms has passed since batch creation (first at "
    ));
    assert!(
        e.line().ends_with(" s; delivery.timeout.ms=1000)"),
        "{}",
        e.line()
    );
    // The JSON names the outcome.
    let json = serde_json::to_value(c).unwrap();
    assert_eq!(json["outcome"]["status"], "failed");
    assert_eq!(
        json["outcome"]["exceptions"][0]["count"],
        m.record_error_total
    );
}

#[test]
fn a_full_buffer_past_max_block_ms_is_a_buffer_exhausted_exception() {
    let mut s = scenario(PLAIN);
    let quota_engine::sim::Workload::Producer(p) = &mut s.workloads[0] else {
        panic!("the example's workload is a producer");
    };
    // Three 64 KiB batches fit; send() blocks behind the throttle for longer
    // than 100 ms.
    p.config.buffer_memory = 200_000;
    p.config.max_block_ms = 100;
    let t = run(&s);
    let c = &t.clients[0];
    let errors = c.metrics.record_error_total;
    assert!(errors > 0);
    let e = &c.outcome.exceptions()[0];
    assert_eq!(
        e.class,
        "org.apache.kafka.clients.producer.BufferExhaustedException"
    );
    assert_eq!(e.short_class(), "BufferExhaustedException");
    assert!(e.is_timeout());
    assert_eq!(e.count, errors);
    assert_eq!(c.outcome.failed_records(), errors);
    assert_eq!((e.setting.as_str(), e.setting_ms), ("max.block.ms", 100));
    // BufferPool.allocate's wording: three batches are allocated when the
    // fourth cannot be.
    assert_eq!(
        e.message,
        "Failed to allocate 65536 bytes within the configured max blocking time 100 ms. \
         Total memory: 200000 bytes. Available memory: 3392 bytes. Poolable size: 65536 bytes"
    );
    // The first failure ends the first blocked span that lasted
    // max.block.ms (shorter ones ended when a batch freed its memory).
    let first_timeout = c
        .blocked
        .iter()
        .find(|s| s.to_ms - s.from_ms >= 100.0 - 1e-6)
        .expect("a send() blocked for max.block.ms");
    assert_eq!(e.first_at_ms, first_timeout.to_ms, "{first_timeout:?}");
}

#[test]
fn a_run_without_failures_is_completed_and_its_json_unchanged() {
    let t = run(&scenario(PLAIN));
    let c = &t.clients[0];
    assert_eq!(c.outcome, Outcome::Completed);
    assert_eq!(c.metrics.record_error_total, 0);
    let json = serde_json::to_value(c).unwrap();
    assert!(json.get("outcome").is_none(), "{}", json["outcome"]);
}

#[test]
fn the_horizon_stops_a_client_without_failing_it() {
    let mut s = scenario(PLAIN);
    s.horizon_ms = 2_000;
    let t = run(&s);
    assert!(t.hit_horizon);
    let c = &t.clients[0];
    assert_eq!(c.outcome, Outcome::Stopped);
    assert_eq!(
        serde_json::to_value(c).unwrap()["outcome"],
        serde_json::json!({"status": "stopped"})
    );
}
