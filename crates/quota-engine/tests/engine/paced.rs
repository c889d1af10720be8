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
        let t = simulate(&paced(linger)).expect("runs");
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
