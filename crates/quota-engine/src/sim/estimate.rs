//! How much work a run is, before it runs: the produce and fetch requests
//! and the events the simulator will step through, estimated from the
//! scenario alone, without building anything (issue 30). The page refuses a run past
//! its budget with these numbers, `kafka-quota link` says so without
//! simulating, and the CLI shows a progress bar for a long one.
//!
//! The work of a run grows with its requests, not with its clients or its
//! simulated time: a day of one fast producer is about 10^8 requests, ten
//! minutes of a thousand slow ones far fewer. What bounds the requests:
//! - a producer sends at most its records, and no faster than its
//!   `throughput`, its `send()` cost per record
//!   ([`crate::sim::ClientCosts::producer_send_us_per_record`]) and the link
//!   ([`crate::sim::LinkSpec::bandwidth_bytes_per_s`]) allow over the span it
//!   runs (start to stop or the horizon, at most
//!   [`crate::sim::HORIZON_CAP_MS`]); a request carries at least one
//!   batch, full for an unpaced producer, and for a paced one (`throughput`)
//!   the records sent within its `linger.ms` (one with `linger.ms=0`);
//! - a consumer fetches the bytes it reads (the preload and what the
//!   producers of its topic send, up to its `records`) at most
//!   `fetch.max.bytes` (and `max.partition.fetch.bytes` per partition) at a
//!   time, plus one fetch per produce request that wakes it and one per
//!   `fetch.max.wait.ms` while it waits (Kafka: `DelayedFetch`);
//! - each request is about [`EVENTS_PER_REQUEST`] events, and each visits
//!   every partition of its topic (the producer's drain, the broker's read).
//!
//! The figures are estimates, not bounds: BENCHMARKS.md lists them beside
//! the events the runs of the examples and the lab really took.

use std::fmt;

use serde::Serialize;

use crate::scenario::{Scenario, ScenarioEvent, Workload};
use crate::resolve::answer::FetchCap;
use crate::{QuotaKey, QuotaType};
use super::world::{record_size_in_batch, records_per_batch, BATCH_OVERHEAD, HORIZON_CAP_MS};

/// Events per request: send, arrive, handle, respond, unmute, the
/// client's wake-ups (the examples and the lab scenarios take 3.9 to 6.0,
/// BENCHMARKS.md).
pub const EVENTS_PER_REQUEST: u64 = 5;

/// Events of a client's start (connecting, its first wake-ups).
pub const STARTUP_EVENTS: u64 = 10;

/// Partition visits that cost about one event (a visit is a look at one
/// partition's queue or log): the lab's producer on 100,000 partitions
/// (`tests/fixtures/big/partitions-100k.json`, 940 events, 9.4 x 10^7
/// visits) takes 0.8 s natively, as about 2.9 x 10^6 events do.
pub const PARTITION_VISITS_PER_EVENT: u64 = 32;

/// The work a scenario's run is estimated to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct WorkEstimate {
    /// The simulated span the run covers at most (ms): the latest stop or
    /// the horizon, capped at [`HORIZON_CAP_MS`].
    pub simulated_ms: u64,
    /// Produce requests (or textbook requests of a producer).
    pub produce_requests: u64,
    /// Fetch requests.
    pub fetch_requests: u64,
    /// Events the simulator steps through ([`EVENTS_PER_REQUEST`] per request).
    pub events: u64,
    /// Looks at one partition's queue or log (each request visits every
    /// partition of its topic).
    pub partition_visits: u64,
    /// The run's work in event units: `events + partition_visits /`
    /// [`PARTITION_VISITS_PER_EVENT`]. What budgets and progress count.
    pub work: u64,
}

impl WorkEstimate {
    /// Produce and fetch requests together.
    pub fn requests(&self) -> u64 {
        self.produce_requests.saturating_add(self.fetch_requests)
    }
}

impl fmt::Display for WorkEstimate {
    /// `about 2,375,546 requests (2,375,546 produce, 0 fetch) over 1,800
    /// simulated seconds: 11,877,740 units of work`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "about {} requests ({} produce, {} fetch) over {} simulated seconds: {} units of work",
            grouped(self.requests()),
            grouped(self.produce_requests),
            grouped(self.fetch_requests),
            grouped(self.simulated_ms.div_ceil(1000)),
            grouped(self.work)
        )
    }
}

/// `n` with its thousands grouped by commas (`600,000`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A float count, rounded up and saturated into `u64` (NaN: 0).
fn count(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.8e19 {
        u64::MAX
    } else {
        // In range: checked above.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = x.ceil() as u64;
        n
    }
}

#[allow(clippy::cast_precision_loss)]
fn f(n: u64) -> f64 {
    n as f64
}

/// The span a client runs: from `start` to its stop or the horizon (ms).
fn active_ms(s: &Scenario, start: u64, stop: Option<u64>) -> u64 {
    let end = stop.unwrap_or(u64::MAX).min(s.horizon_ms).min(HORIZON_CAP_MS);
    end.saturating_sub(start.min(HORIZON_CAP_MS))
}

/// Estimates the work of simulating `s` (see the module). Never fails: a
/// scenario that does not validate gets the estimate of what it says.
pub fn estimate(s: &Scenario) -> WorkEstimate {
    let partitions_of = |topic: &str| -> u64 {
        s.topics.iter().find(|t| t.name == topic).map_or(1, |t| u64::from(t.partitions.max(1)))
    };
    let bw = s.environment.link.bandwidth_bytes_per_s;
    let send_us = s.environment.client.producer_send_us_per_record;
    let mut e = WorkEstimate::default();
    // Per producer: its topic, records, bytes in batches and produce requests.
    let mut produced: Vec<(&str, u64, u64, u64)> = Vec::new();
    // The latest a producer runs to (ms).
    let mut producing_ms = 0u64;
    for w in &s.workloads {
        let Workload::Producer(p) = w else { continue };
        let span = active_ms(s, p.start_ms, p.stop_ms);
        e.simulated_ms = e.simulated_ms.max(span.saturating_add(p.start_ms).min(s.horizon_ms).min(HORIZON_CAP_MS));
        let requests = if let (Some(bytes), Some(size)) = (p.bytes, p.request_size) {
            producing_ms = producing_ms.max(e.simulated_ms);
            bytes.div_ceil(u64::from(size.max(1)))
        } else {
            let rec = record_size_in_batch(p.record_size);
            let mut rate = f64::INFINITY;
            if p.throughput > 0.0 {
                rate = rate.min(p.throughput);
            }
            if send_us > 0.0 {
                rate = rate.min(1e6 / send_us);
            }
            if bw > 0.0 {
                rate = rate.min(bw / f(rec));
            }
            let records = p.records.min(count(rate * f(span) / 1000.0));
            // It runs until its records are sent at that rate, or its span ends.
            let runs_ms = if rate.is_finite() && rate > 0.0 { count(f(records) * 1000.0 / rate).min(span) } else { span };
            producing_ms = producing_ms.max(p.start_ms.saturating_add(runs_ms));
            let cap = records_per_batch(p.config.batch_size, rec);
            // An unpaced producer's batches fill (its appends are caught up
            // one batch at a time); a paced one's leave at linger.ms with
            // the records sent by then (one each with linger.ms=0), as the
            // Java producer's do.
            let fill = if p.throughput > 0.0 && rate.is_finite() {
                cap.min(count((f(p.config.linger_ms) * rate / 1000.0).floor()).saturating_add(1))
            } else {
                cap
            };
            let batches = records.div_ceil(fill.max(1));
            let bytes = records.saturating_mul(rec).saturating_add(batches.saturating_mul(BATCH_OVERHEAD));
            produced.push((p.topic.as_str(), records, bytes, batches));
            batches
        };
        e.produce_requests = e.produce_requests.saturating_add(requests);
        e.partition_visits = e
            .partition_visits
            .saturating_add(requests.saturating_mul(partitions_of(&p.topic)));
    }
    // A fetch quota whose cap is 0 bytes as Kafka computes it
    // ([`FetchCap::bytes`]: NaN, a window under one byte, quota.window.num
    // 1) sends one record batch per response (KIP-74): when a
    // consumer_byte_rate of the scenario (or set by an event) has such a
    // cap, every consumer is counted so, an over-estimate for the others.
    let settings = &s.brokers.settings;
    let one_batch = s
        .quotas
        .iter()
        .map(|q| (q.key, Some(q.value)))
        .chain(s.events.iter().filter_map(|e| match e {
            ScenarioEvent::SetQuota { key, value, .. } => Some((*key, *value)),
            _ => None,
        }))
        .filter(|(key, _)| *key == QuotaKey::ConsumerByteRate)
        .filter_map(|(_, value)| FetchCap::of(QuotaType::Fetch, value?, settings))
        .any(|cap| cap.bytes() <= 0);
    for w in &s.workloads {
        let Workload::Consumer(c) = w else { continue };
        let span = active_ms(s, c.start_ms, c.stop_ms);
        e.simulated_ms = e.simulated_ms.max(span.saturating_add(c.start_ms).min(s.horizon_ms).min(HORIZON_CAP_MS));
        let parts = partitions_of(&c.topic);
        let requests = if let (Some(bytes), Some(size)) = (c.bytes, c.fetch_size) {
            bytes.div_ceil(u64::from(size.max(1)))
        } else {
            let topic = s.topics.iter().find(|t| t.name == c.topic);
            let (pre_records, pre_bytes) = topic.and_then(|t| t.preload.as_ref()).map_or((0, 0), |pre| {
                let rec = record_size_in_batch(pre.record_size);
                let cap = records_per_batch(pre.batch_size, rec);
                (pre.records, pre.records.saturating_mul(rec).saturating_add(pre.records.div_ceil(cap).saturating_mul(BATCH_OVERHEAD)))
            });
            let (mut records, mut bytes, mut wakes) = (pre_records, pre_bytes, 0u64);
            for (topic, n, b, reqs) in &produced {
                if *topic == c.topic {
                    records = records.saturating_add(*n);
                    bytes = bytes.saturating_add(*b);
                    wakes = wakes.saturating_add(*reqs);
                }
            }
            let read = records.min(c.records.max(1));
            let read_bytes = if records == 0 { 0 } else { count(f(bytes) * f(read) / f(records)) };
            let mut per_fetch = u64::from(c.config.fetch_max_bytes)
                .min(parts.saturating_mul(u64::from(c.config.max_partition_fetch_bytes)))
                .max(1);
            if one_batch {
                // The smallest batch of what it reads.
                let preload = topic.and_then(|t| t.preload.as_ref()).map(|pre| {
                    let rec = record_size_in_batch(pre.record_size);
                    records_per_batch(pre.batch_size, rec).saturating_mul(rec).saturating_add(BATCH_OVERHEAD)
                });
                let batch = produced
                    .iter()
                    // Producers that send nothing make no batch.
                    .filter(|(topic, _, bytes, batches)| *topic == c.topic && *bytes > 0 && *batches > 0)
                    .map(|(_, _, b, n)| b / (*n).max(1))
                    .chain(preload)
                    .min();
                if let Some(batch) = batch {
                    per_fetch = per_fetch.min(batch.max(1));
                }
            }
            // Long polls while it waits: all its span when what it reads is
            // not there (it waits for the horizon), else while producers
            // send (a preload alone is read at once).
            let wait_span = if records < c.records {
                span
            } else if wakes > 0 {
                span.min(producing_ms)
            } else {
                0
            };
            let waits = wait_span / c.config.fetch_max_wait_ms.max(1);
            read_bytes.div_ceil(per_fetch).saturating_add(wakes).saturating_add(waits)
        };
        e.fetch_requests = e.fetch_requests.saturating_add(requests);
        e.partition_visits = e.partition_visits.saturating_add(requests.saturating_mul(parts));
    }
    e.events = e
        .requests()
        .saturating_mul(EVENTS_PER_REQUEST)
        .saturating_add(STARTUP_EVENTS.saturating_mul(s.workloads.len() as u64))
        .saturating_add(s.events.len() as u64);
    e.work = e.events.saturating_add(e.partition_visits / PARTITION_VISITS_PER_EVENT);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(text: &str) -> Scenario {
        let v: serde_json::Value = serde_json::from_str(text).expect("fixture parses");
        serde_json::from_value(v["scenario"].clone()).expect("fixture is a scenario")
    }

    /// The estimate is within a factor of two of the events the runs of
    /// the lab take (quotas, three brokers, a consumer, a preload).
    #[test]
    fn the_estimate_is_close_to_the_work_of_the_lab_runs() {
        for text in [
            include_str!("../../../../lab/scenarios/producer-unthrottled.json"),
            include_str!("../../../../lab/scenarios/producer-client-quota.json"),
            include_str!("../../../../lab/scenarios/three-brokers-client-quota.json"),
            include_str!("../../../../lab/scenarios/consumer-client-quota.json"),
            // consumer_byte_rate=NaN: one record batch per fetch response.
            include_str!("../../../../lab/scenarios/consumer-fetch-nan.json"),
            include_str!("../../../../tests/fixtures/big/events-1000.json"),
            include_str!("../../../../tests/fixtures/big/consumer-100gb.json"),
            // 100 paced producers (10 records/s, linger.ms=100): about two records a request.
            include_str!("../../../../tests/fixtures/bench/100-clients-3-brokers.json"),
            // Paced with linger.ms=0: one record a request.
            r#"{"scenario": {"name": "paced, linger.ms=0", "topics": [{"name": "t", "partitions": 3}],
                "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "app"}],
                "workloads": [{"producer": {"connection": "p", "topic": "t", "records": 2000, "record.size": 1000,
                               "throughput": 200, "config": {"linger.ms": 0}}}]}}"#,
        ] {
            let s = fixture(text);
            let e = estimate(&s);
            let t = crate::sim::simulate(s.validate().expect("a valid scenario")).expect("runs");
            let ratio = t.events as f64 / e.work as f64;
            assert!((0.5..2.0).contains(&ratio), "{}: estimated {e}, ran {} events", s.name, t.events);
        }
    }

    /// A NaN fetch quota sends one batch per response: the lab's 10 MB read
    /// is 157 fetches on a real 4.3.1 cluster (lab/runs.json
    /// consumer-fetch-nan), not one.
    #[test]
    fn a_nan_fetch_quota_counts_one_batch_per_fetch() {
        let s = fixture(include_str!("../../../../lab/scenarios/consumer-fetch-nan.json"));
        assert!((150..=170).contains(&estimate(&s).fetch_requests), "{:?}", estimate(&s));
        let capped = fixture(include_str!("../../../../lab/scenarios/consumer-fetch-capped.json"));
        assert!(estimate(&capped).fetch_requests < 10, "{:?}", estimate(&capped));
    }

    /// Issue 30's scenario: a day of one fast producer is about 10^8
    /// requests (the run took 912,141,542 events, BENCHMARKS.md), and the
    /// horizon bounds it.
    #[test]
    fn a_day_of_a_fast_producer_is_a_hundred_million_requests() {
        let mut s = fixture(include_str!("../../../../tests/fixtures/big/day-producer.json"));
        let e = estimate(&s);
        assert_eq!(e.simulated_ms, 86_400_000);
        assert!((100_000_000..200_000_000).contains(&e.produce_requests), "{e}");
        assert!(e.to_string().starts_with("about 1"), "{e}");
        s.horizon_ms = 60_000;
        let minute = estimate(&s);
        let per_day = minute.produce_requests * 1440;
        assert!(per_day.abs_diff(e.produce_requests) < e.produce_requests / 100, "{minute} x 1440 vs {e}");
        // A horizon past the engine's cap counts as the cap.
        s.horizon_ms = u64::MAX;
        assert_eq!(estimate(&s), e);
    }

    /// Partitions cost: every request looks at each of its topic's.
    #[test]
    fn partitions_count_in_the_work() {
        let s = fixture(include_str!("../../../../tests/fixtures/big/partitions-100k.json"));
        let e = estimate(&s);
        assert!(e.partition_visits >= 100_000 * e.produce_requests, "{e:?}");
        assert!(e.work > e.events * 10, "{e:?}");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
