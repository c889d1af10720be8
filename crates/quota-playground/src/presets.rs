//! The default scenario and the lessons: one guided preset per finding of
//! the lab article, each with a few sentences on what to look at.
//!
//! The numbers (30,000 records of 1,000 bytes, `acks=1`, `linger.ms=5`,
//! `batch.size=65536`, a 2 MB/s quota) are the lab's; the texts are ours.

use quota_engine::sim::Scenario;

/// The producer settings every lab run used.
const LAB_PRODUCER: &str = r#""records": 30000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}"#;

/// One guided preset.
#[derive(Debug, Clone, Copy)]
pub struct Lesson {
    /// 1-based number, stable (used in links and tests).
    pub id: u8,
    /// A short title.
    pub title: &'static str,
    /// The finding in one line.
    pub finding: &'static str,
    /// What to look at, in a few sentences.
    pub explain: &'static str,
    /// The scenario builder.
    scenario: fn() -> String,
}

impl Lesson {
    /// The lesson's scenario.
    pub fn scenario(&self) -> Scenario {
        // The presets are fixed and tested: parsing cannot fail.
        serde_json::from_str(&(self.scenario)()).unwrap_or_else(|_| default_scenario())
    }
}

fn parse(json: &str) -> Scenario {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("built-in scenario: {e}"))
}

/// The scenario a first visit shows: the lab's user quota (2 MB/s produce,
/// 1 MB/s fetch for `tenant-a`), a SASL/PLAIN connection as `tenant-a`, and
/// the lab's 30 MB producer.
pub fn default_scenario() -> Scenario {
    parse(&default_json())
}

fn default_json() -> String {
    format!(
        r#"{{
  "name": "User quota for tenant-a",
  "description": "The lab's user quota: producer_byte_rate=2000000 and consumer_byte_rate=1000000 for user tenant-a, and a producer authenticated as tenant-a over SASL/PLAIN.",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [
    {{"entity": {{"user": "tenant-a"}}, "key": "producer_byte_rate", "value": 2000000}},
    {{"entity": {{"user": "tenant-a"}}, "key": "consumer_byte_rate", "value": 1000000}}
  ],
  "connections": [
    {{"name": "app", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-a", "client.id": "app-1"}}
  ],
  "workloads": [{{"producer": {{"connection": "app", "topic": "lab", {LAB_PRODUCER}}}}}]
}}"#
    )
}

fn lesson_delay() -> String {
    format!(
        r#"{{
  "name": "A quota delays and never fails",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [{{"entity": {{"client-id": "throttled-producer"}}, "key": "producer_byte_rate", "value": 2000000}}],
  "connections": [
    {{"name": "throttled", "listener": "PLAINTEXT", "client.id": "throttled-producer"}},
    {{"name": "unthrottled", "listener": "PLAINTEXT", "client.id": "unthrottled-producer"}}
  ],
  "workloads": [
    {{"producer": {{"connection": "throttled", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "unthrottled", "topic": "lab", {LAB_PRODUCER}}}}}
  ]
}}"#
    )
}

fn lesson_burst() -> String {
    format!(
        r#"{{
  "name": "The burst allowance",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [
    {{"entity": {{"client-id": "perf-throttled"}}, "key": "producer_byte_rate", "value": 2000000}},
    {{"entity": {{"client-id": "bursty"}}, "key": "producer_byte_rate", "value": 1000000}}
  ],
  "connections": [
    {{"name": "perf", "listener": "PLAINTEXT", "client.id": "perf-throttled"}},
    {{"name": "bursty", "listener": "PLAINTEXT", "client.id": "bursty"}}
  ],
  "workloads": [
    {{"producer": {{"connection": "perf", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "bursty", "topic": "lab", "records": 6000, "record.size": 1000, "config": {{"acks": "1", "linger.ms": 5, "batch.size": 65536}}}}}}
  ]
}}"#
    )
}

fn lesson_ladder() -> String {
    format!(
        r#"{{
  "name": "The precedence ladder",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [
    {{"entity": {{"user": null}}, "key": "producer_byte_rate", "value": 2000000}},
    {{"entity": {{"user": "tenant-c"}}, "key": "producer_byte_rate", "value": 200000000}}
  ],
  "connections": [
    {{"name": "tenant-c", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-c", "client.id": "tenant-c-app"}},
    {{"name": "tenant-d", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-d", "client.id": "tenant-d-app"}}
  ],
  "workloads": [
    {{"producer": {{"connection": "tenant-c", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "tenant-d", "topic": "lab", {LAB_PRODUCER}}}}}
  ]
}}"#
    )
}

fn lesson_auth() -> String {
    format!(
        r#"{{
  "name": "A user quota needs an authenticated principal",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [{{"entity": {{"user": "tenant-a"}}, "key": "producer_byte_rate", "value": 2000000}}],
  "connections": [
    {{"name": "plaintext", "listener": "PLAINTEXT", "client.id": "tenant-a"}},
    {{"name": "sasl-tenant-a", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-a", "client.id": "app-1"}},
    {{"name": "sasl-tenant-b", "listener": "SASL_PLAINTEXT", "mechanism": "PLAIN", "identity": "tenant-b", "client.id": "app-1"}}
  ],
  "workloads": [
    {{"producer": {{"connection": "plaintext", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "sasl-tenant-a", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "sasl-tenant-b", "topic": "lab", {LAB_PRODUCER}}}}}
  ]
}}"#
    )
}

fn lesson_request() -> String {
    r#"{
  "name": "Request quotas are thread time",
  "seed": 1,
  "topics": [{"name": "lab", "partitions": 1}],
  "quotas": [
    {"entity": {"client-id": "cpu-bound"}, "key": "request_percentage", "value": 1},
    {"entity": {"client-id": "chatty"}, "key": "request_percentage", "value": 1}
  ],
  "connections": [
    {"name": "batched", "listener": "PLAINTEXT", "client.id": "cpu-bound"},
    {"name": "chatty", "listener": "PLAINTEXT", "client.id": "chatty"}
  ],
  "workloads": [
    {"producer": {"connection": "batched", "topic": "lab", "records": 10000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}},
    {"producer": {"connection": "chatty", "topic": "lab", "records": 300, "record.size": 1000, "config": {"acks": "1", "linger.ms": 0, "batch.size": 1, "max.in.flight.requests.per.connection": 1}}}
  ]
}"#
    .to_owned()
}

fn lesson_consumer() -> String {
    r#"{
  "name": "Consumer throttling",
  "seed": 1,
  "topics": [{"name": "lab", "partitions": 1, "preload": {"records": 30000, "record.size": 1000, "batch.size": 65536}}],
  "quotas": [{"entity": {"client-id": "throttled-consumer"}, "key": "consumer_byte_rate", "value": 2000000}],
  "connections": [{"name": "consumer", "listener": "PLAINTEXT", "client.id": "throttled-consumer"}],
  "workloads": [{"consumer": {"connection": "consumer", "topic": "lab", "records": 30000}}]
}"#
    .to_owned()
}

fn lesson_metrics() -> String {
    r#"{
  "name": "What the metrics show (and NaN)",
  "seed": 1,
  "topics": [{"name": "lab", "partitions": 1}],
  "quotas": [
    {"entity": {"client-id": "perf-throttled"}, "key": "producer_byte_rate", "value": 2000000},
    {"entity": {"client-id": "cpu-bound"}, "key": "request_percentage", "value": 50}
  ],
  "connections": [
    {"name": "perf", "listener": "PLAINTEXT", "client.id": "perf-throttled"},
    {"name": "cpu-bound", "listener": "PLAINTEXT", "client.id": "cpu-bound"}
  ],
  "workloads": [
    {"producer": {"connection": "perf", "topic": "lab", "records": 10000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}},
    {"producer": {"connection": "cpu-bound", "topic": "lab", "records": 500, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}}
  ]
}"#
    .to_owned()
}

/// The lessons, in the article's order.
pub const LESSONS: [Lesson; 7] = [
    Lesson {
        id: 1,
        title: "A quota delays and never fails",
        finding: "30 MB under a 2 MB/s client-id quota takes about 12 s instead of a third of a second, with no retry and no error.",
        explain: "Play it and watch the throttled producer: its channel is muted for up to a second at a time (the shaded spans), \
                  its requests simply wait, and record-retry-total and record-error-total stay at 0. The unthrottled producer on \
                  another client-id is done almost at once. Throttling is a slower answer, not an error to catch.",
        scenario: lesson_delay,
    },
    Lesson {
        id: 2,
        title: "The burst allowance",
        finding: "A fresh client moves about ten times its per-second quota before the first throttle.",
        explain: "The rate is the sum of the kept samples divided by the whole window, so early on a large burst still averages \
                  below the line. Look at the quota-window bars while scrubbing through the first seconds: the 6 MB producer under \
                  1 MB/s never crosses the line, and the perf-test producer prints about 22 MB in its first five-second line \
                  before the long delays start.",
        scenario: lesson_burst,
    },
    Lesson {
        id: 3,
        title: "The precedence ladder",
        finding: "The most specific configured quota wins: a named user beats the default user.",
        explain: "Both tenants fall under the 2 MB/s default user quota, but tenant-c also has its own 200 MB/s quota. Compare \
                  the two connections in the Resolution panel: tenant-c matches rung 3 (users/tenant-c) and the default is \
                  shadowed; tenant-d matches rung 6. The simulation shows tenant-c finishing unthrottled and tenant-d taking \
                  about 12 s.",
        scenario: lesson_ladder,
    },
    Lesson {
        id: 4,
        title: "A user quota needs an authenticated principal",
        finding: "On a PLAINTEXT listener every client is User:ANONYMOUS, so a user quota for tenant-a does not touch it.",
        explain: "Three producers, one quota for the user tenant-a. The PLAINTEXT client calls itself tenant-a in client.id, \
                  yet its principal is ANONYMOUS and nothing applies. Only the SASL client authenticated as tenant-a is throttled; \
                  tenant-b on the same client.id is not. Switch the listener of a connection and watch the ladder change.",
        scenario: lesson_auth,
    },
    Lesson {
        id: 5,
        title: "Request quotas are thread time",
        finding: "request_percentage limits the share of broker thread time, not the number of requests.",
        explain: "Both clients have request_percentage=1: one percent of one thread per window. The batched producer sends few, \
                  large requests and costs the broker little thread time; the chatty one sends one record per request. Look at the \
                  Request budget's measured value against the 1 % line and at which client is throttled. Costs here are a model of \
                  the broker, so treat the exact outcome as an illustration.",
        scenario: lesson_request,
    },
    Lesson {
        id: 6,
        title: "Consumer throttling",
        finding: "consumer_byte_rate throttles fetches the same way: slower, never failing.",
        explain: "The consumer reads 30 MB under a 2 MB/s fetch quota. Its fetch-throttle-time rises to about a second per response \
                  and the whole read takes about 12 s, with no error. The broker counts the bytes it sends back, so a large fetch can \
                  overshoot and be followed by a long mute.",
        scenario: lesson_consumer,
    },
    Lesson {
        id: 7,
        title: "What the metrics show (and NaN)",
        finding: "Broker quota MBeans exist per budget; a budget that was never throttled reads throttle-time NaN.",
        explain: "Look at the metrics tables at the end of the run: kafka.server:type=Produce,client-id=perf-throttled has a byte-rate \
                  and a throttle-time, while the Request budget of cpu-bound was never throttled and reads NaN. A dashboard must \
                  treat NaN as 'no recent samples', not as zero. The client side shows produce-throttle-time-avg and -max without \
                  broker access.",
        scenario: lesson_metrics,
    },
];

/// The lesson with this id.
pub fn lesson(id: u8) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model;

    #[test]
    fn every_preset_parses_and_simulates() {
        let t = model::simulate(&default_scenario()).unwrap();
        assert!(!t.hit_horizon);
        for l in LESSONS {
            let s: Scenario = serde_json::from_str(&(l.scenario)()).unwrap_or_else(|e| panic!("lesson {}: {e}", l.id));
            let t = model::simulate(&s).unwrap_or_else(|e| panic!("lesson {}: {e}", l.id));
            assert!(!t.hit_horizon, "lesson {} hit the horizon", l.id);
            assert!(t.clients.iter().all(|c| c.metrics.record_error_total == 0), "lesson {}", l.id);
        }
    }

    #[test]
    fn the_delay_lesson_reproduces_the_lab() {
        let t = model::simulate(&lesson(1).unwrap().scenario()).unwrap();
        let throttled = t.client("throttled").unwrap();
        let free = t.client("unthrottled").unwrap();
        let d = throttled.duration_ms.unwrap();
        assert!((10_000.0..14_000.0).contains(&d), "{d}");
        assert!(free.duration_ms.unwrap() < 1_000.0);
        assert_eq!(throttled.metrics.record_retry_total, 0);
    }

    #[test]
    fn the_auth_lesson_throttles_only_the_authenticated_tenant() {
        let t = model::simulate(&lesson(4).unwrap().scenario()).unwrap();
        let max = |n: &str| t.client(n).unwrap().metrics.throttle_time_max;
        assert_eq!(max("plaintext"), 0.0);
        assert!(max("sasl-tenant-a") > 500.0);
        assert_eq!(max("sasl-tenant-b"), 0.0);
    }
}
