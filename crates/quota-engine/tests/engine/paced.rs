//! A producer paced by `throughput` sends its batches when `linger.ms` has
//! passed since their first record, not only when they are full
//! (`RecordAccumulator.append` at each send(), `RecordAccumulator.ready`:
//! full, or lingered). Found by a newcomer: at 100 records/s a linger of 0,
//! 5 and 50 ms all sent full 16-record batches.

use quota_engine::sim::{simulate, Scenario};

fn paced(linger_ms: u64) -> Scenario {
    serde_json::from_str(&format!(
        r#"{{
      "topics": [{{"name": "t"}}],
      "connections": [{{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}}],
      "workloads": [{{"producer": {{"connection": "p", "topic": "t", "records": 1000, "record.size": 1000,
                     "throughput": 100, "config": {{"acks": "1", "linger.ms": {linger_ms}}}}}}}]
    }}"#
    ))
    .expect("parses")
}

#[test]
fn a_paced_producers_batches_leave_at_linger_ms() {
    for (linger, max_latency) in [(5u64, 5.0), (50, 50.0)] {
        let t = simulate(paced(linger).validate().expect("a valid scenario")).expect("runs");
        let p = t.client("p").expect("the producer");
        let lat = p.latency.as_ref().expect("latency");
        // A record waits at most linger.ms (plus a round trip of well under a ms).
        let max = f64::from(lat.max_ms);
        assert!(max >= max_latency && max < max_latency + 2.0, "linger {linger}: {lat:?}");
        // 10 ms between records: 5 ms gives one record a batch, 50 ms about five.
        let per_request = 1000.0 / p.metrics.requests as f64;
        let expected = (linger as f64 / 10.0).floor().max(0.0) + 1.0;
        assert!((per_request - expected).abs() < 0.6, "linger {linger}: {per_request} records a request");
    }
}

/// With `linger.ms=0` a batch is ready at once and the append that creates
/// it wakes the sender (`KafkaProducer.doSend`: `newBatchCreated` →
/// `sender.wakeup()`), so at 100 records/s each record leaves in its own
/// request, within a round trip. Before, the simulator caught a paced
/// producer up one full batch at a time: 16 records a request and up to
/// 150 ms of latency.
#[test]
fn a_paced_producer_with_linger_0_sends_each_record_at_once() {
    let t = simulate(paced(0).validate().expect("a valid scenario")).expect("runs");
    let p = t.client("p").expect("the producer");
    assert_eq!(p.metrics.records_done, 1000);
    assert_eq!(p.metrics.requests, 1000, "one record a request");
    let lat = p.latency.as_ref().expect("latency");
    assert!(lat.max_ms < 2, "a record waits a round trip at most: {lat:?}");
}

/// The sticky partitioner moves on after a batch's worth of records (the
/// simulator's stand-in for `batch.size` bytes) went to a partition, also when the sender took each batch at `linger.ms` before it
/// filled: a switch held back while a batch was open comes once none is
/// (Kafka: `RecordAccumulator.partitionChanged`, `allBatchesFull`,
/// `BuiltInPartitioner.updatePartitionInfo`). Before, only a full batch
/// moved the simulated producer on, so a paced producer whose batches left
/// at linger.ms wrote to one partition for its whole run.
#[test]
fn a_paced_producer_moves_on_after_batch_size_bytes() {
    let s: Scenario = serde_json::from_str(
        r#"{
      "brokers": {"count": 3},
      "topics": [{"name": "t", "partitions": 6}],
      "quotas": [{"entity": {"user": null}, "key": "producer_byte_rate", "value": 100000000}],
      "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}],
      "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 1200, "record.size": 1000,
                     "throughput": 100, "config": {"acks": "1", "linger.ms": 5}}}]
    }"#,
    )
    .expect("parses");
    let t = simulate(s.validate().expect("a valid scenario")).expect("runs");
    let p = t.client("p").expect("the producer");
    assert_eq!(p.metrics.records_done, 1200);
    // One record a request (linger.ms 5, 10 ms between records), so the
    // switch comes after batch.size (16,384 bytes: 16 records here, a batch's worth).
    assert!(p.metrics.requests >= 1100, "{} requests", p.metrics.requests);
    let per_broker: Vec<f64> = (0..3)
        .map(|b| {
            t.sensors
                .iter()
                .filter(|s| s.broker == b)
                .flat_map(|s| s.samples.iter().map(|w| w.sum))
                .sum()
        })
        .collect();
    let total: f64 = per_broker.iter().sum();
    for (b, bytes) in per_broker.iter().enumerate() {
        assert!((bytes / total - 1.0 / 3.0).abs() < 0.05, "broker {b}: {per_broker:?}");
    }
}
