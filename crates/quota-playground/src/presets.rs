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
  "name": "A quota delays rather than errors, until delivery.timeout.ms",
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
    // The same 1 MB from both: only the request sizes differ.
    r#"{
  "name": "Request quotas are thread time",
  "description": "Two producers send the same 1,000 records of 1,000 bytes under request_percentage=1: one in 64 KB batches, one record per request.",
  "seed": 1,
  "topics": [{"name": "lab", "partitions": 1}],
  "quotas": [
    {"entity": {"client-id": "batched"}, "key": "request_percentage", "value": 1},
    {"entity": {"client-id": "chatty"}, "key": "request_percentage", "value": 1}
  ],
  "connections": [
    {"name": "batched", "listener": "PLAINTEXT", "client.id": "batched"},
    {"name": "chatty", "listener": "PLAINTEXT", "client.id": "chatty"}
  ],
  "workloads": [
    {"producer": {"connection": "batched", "topic": "lab", "records": 1000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}},
    {"producer": {"connection": "chatty", "topic": "lab", "records": 1000, "record.size": 1000, "config": {"acks": "1", "linger.ms": 0, "batch.size": 1, "max.in.flight.requests.per.connection": 1}}}
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
    format!(
        r#"{{
  "name": "What the metrics show (and NaN)",
  "description": "The lab's 30 MB perf-test under a 2 MB/s client-id quota, beside a short producer under request_percentage=50 that is never throttled.",
  "seed": 1,
  "topics": [{{"name": "lab", "partitions": 1}}],
  "quotas": [
    {{"entity": {{"client-id": "perf-throttled"}}, "key": "producer_byte_rate", "value": 2000000}},
    {{"entity": {{"client-id": "cpu-bound"}}, "key": "request_percentage", "value": 50}}
  ],
  "connections": [
    {{"name": "perf", "listener": "PLAINTEXT", "client.id": "perf-throttled"}},
    {{"name": "cpu-bound", "listener": "PLAINTEXT", "client.id": "cpu-bound"}}
  ],
  "workloads": [
    {{"producer": {{"connection": "perf", "topic": "lab", {LAB_PRODUCER}}}}},
    {{"producer": {{"connection": "cpu-bound", "topic": "lab", "records": 500, "record.size": 1000, "config": {{"acks": "1", "linger.ms": 5, "batch.size": 65536}}}}}}
  ]
}}"#
    )
}

fn lesson_admin() -> String {
    r#"{
  "name": "Topic creation under controller_mutation_rate",
  "description": "An Admin client creates 40 topics of 10 partitions in one createTopics call under controller_mutation_rate=20 for client-id admin-burst.",
  "seed": 1,
  "topics": [],
  "quotas": [{"entity": {"client-id": "admin-burst"}, "key": "controller_mutation_rate", "value": 20}],
  "connections": [{"name": "admin", "listener": "PLAINTEXT", "client.id": "admin-burst"}],
  "workloads": [{"admin": {"connection": "admin", "topics": 40, "partitions": 10}}]
}"#
    .to_owned()
}

fn lesson_connects() -> String {
    // examples/connection-pool-ip-quota.json, the lab's connection-pool-ip-quota from 10.0.0.9.
    r#"{
  "name": "A reconnect storm under connection_creation_rate",
  "description": "An application's 30 instances start together on one host (10.0.0.9) under connection_creation_rate=2 for that address.",
  "seed": 1,
  "topics": [],
  "quotas": [{"entity": {"ip": "10.0.0.9"}, "key": "connection_creation_rate", "value": 2}],
  "connections": [{"name": "apps", "listener": "PLAINTEXT", "client.id": "app", "ip": "10.0.0.9"}],
  "workloads": [{"connects": {"connection": "apps", "pattern": "pool", "count": 30}}]
}"#
    .to_owned()
}

/// The lessons, in the article's order.
pub const LESSONS: [Lesson; 9] = [
    Lesson {
        id: 1,
        title: "A quota delays rather than errors, until delivery.timeout.ms",
        finding: "30 MB under a 2 MB/s client-id quota takes about 12 s instead of a third of a second, with no retry and no error.",
        explain: "Play it and watch the throttled producer: its channel is muted for up to a second at a time (the shaded spans), \
                  its requests simply wait, and record-retry-total and record-error-total stay at 0. The unthrottled producer on \
                  another client-id is done almost at once. Throttling is a slower answer, not an error to catch, until a record waits \
                  longer than delivery.timeout.ms (120 s by default): then the producer fails it with a TimeoutException (set \
                  delivery.timeout.ms under the run's delay in the producer's settings to see it).",
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
        finding: "request_percentage limits the share of broker thread time a client uses, not its number of requests.",
        explain: "Both producers send the same 1 MB under request_percentage=1, one percent of one thread (about 0.1 s of \
                  handler and network thread time per 10 s window). The batched one needs 16 requests and is done in about \
                  13 ms, never throttled. The chatty one sends 1,000 one-record requests of about 0.18 ms each, nearly all a \
                  fixed per-request cost: 181 ms of thread time against 13 ms for the same bytes. It crosses the 1 % line, is \
                  throttled about 100 times for up to 1,000 ms (the one-window cap) and takes about 12 s. Give the batched \
                  producer 10,000 records and it is throttled too. The costs model a laptop broker; the lab found 1 % a coin \
                  flip for small traffic. Run 20 seeds under the clients table: the chatty producer is throttled in all 20 runs \
                  and the batched one in none. The simulator draws its thread-time jitter per request, where the lab's \
                  variation was per session, so far from the line, as both producers are here, no seed flips the outcome.",
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
        finding: "Broker quota MBeans exist per budget; a budget with no recent throttle reads throttle-time NaN, not 0.",
        explain: "perf-throttled sends the lab's 30 MB under a 2 MB/s client-id quota and is throttled about 50 times in 12 s. \
                  At the end kafka.server:type=Produce,client-id=perf-throttled has a byte-rate (about 0.83 MB/s over the last \
                  window) and a throttle-time of about 217 ms, the mean of its recent throttles. cpu-bound sent 500 records at the \
                  start under request_percentage=50 and was never throttled: kafka.server:type=Request,client-id=cpu-bound reads \
                  request-time 0 and throttle-time NaN, as in the lab's dump. A dashboard must read NaN as 'no recent throttle', \
                  not as zero. Without broker access, the client's produce-throttle-time-avg and -max show about 25 and 1,033 ms \
                  for perf-throttled and 0.0 for cpu-bound, whose responses all carried a throttle time of 0.",
        scenario: lesson_metrics,
    },
    Lesson {
        id: 8,
        title: "Topic creation under controller_mutation_rate",
        finding: "40 topics of 10 partitions under controller_mutation_rate=20: 23 are created at once, the other 17 one per retry every 500 ms; createTopics completes after about 8.5 s, without an error.",
        explain: "The controller meters partition mutations in a token bucket per budget, here client-id admin-burst: quota × \
                  quota.window.num × quota.window.size.seconds = 20 × 11 × 1 s, a burst of 220 tokens, full when the Admin client \
                  starts. CreateTopics v7 is strict: the controller charges the topics of a request their 10 partitions in turn \
                  and accepts each while the bucket holds 0 tokens or more, so 23 topics pass (the 23rd takes it from 0 to -10) \
                  and the other 17 are refused with THROTTLING_QUOTA_EXCEEDED and a throttle time of 475 ms: the 500 ms the bucket \
                  takes to climb back to 0 at 20 mutations/s, less the 25 ms the controller took to commit the 23 topics before \
                  it answered. The Admin client waits out the throttle and retries the refused topics in a new request; each \
                  retry finds the bucket back at 0, gets one topic created and the rest refused, so the last topic is created \
                  after 17 retries, at about 8.5 s. The application sees a slow createTopics, not an error. Scrub the tokens \
                  chart: each step down is a request. Then set default.api.timeout.ms to 5000 in the Admin client's settings, \
                  with request.timeout.ms at 5000 too (the Java client refuses a default.api.timeout.ms below it): 32 topics are \
                  created, and the 8 still being retried at the 5 s deadline fail with ThrottlingQuotaExceededException.",
        scenario: lesson_admin,
    },
    Lesson {
        id: 9,
        title: "A reconnect storm under connection_creation_rate",
        finding: "30 connections at once from one address under connection_creation_rate=2: 20 are answered at once, the other 10 are held unanswered for about half a second and closed, and they reconnect and are refused again until all 30 are ready at about 12.9 s, after 81 refusals.",
        explain: "Thirty instances of an application start together on one host, 10.0.0.9, under connection_creation_rate=2 for \
                  that address. Kafka's rate divides by at least 10 s (quota.window.num - 1 windows of 1 s), so 20 connections \
                  fit at once: the acceptor takes one a millisecond, and the 21st, taken at 20 ms, measures 21 / 10.02 s, over \
                  2 per second, with a throttle of 480 ms. It is not refused outright: the broker takes it off the count, keeps \
                  the socket without reading it for the throttle time and closes it on the acceptor's next loop, at about \
                  530 ms here (its select times out 500 ms after the last connection it took). The client saw its connection \
                  open and its ApiVersions request go out, no answer, then a disconnect. It reconnects after \
                  reconnect.backoff.ms, 50 ms, doubled after each failure (100, 200, 400, 800 ms) up to \
                  reconnect.backoff.max.ms, 1,000 ms, each ±20 %. As the window grows one more gets in at 573 ms and \
                  another at 11.18 s, but the others keep being refused: the burst's sample leaves the window only 11 s \
                  after its last event (the refusals at 590 ms count), at about 11.6 s. All 30 are ready at about 12.9 s, \
                  after 81 refusals and up to 10 attempts for one connection, as on the lab's real 4.3.1 cluster; run \
                  20 seeds and the backoff's jitter moves that end only between 12.8 and 12.9 s. In the \
                  Connections chart each red mark is a refusal on its client's line, its bar the time the acceptor held the \
                  socket. max.connection.creation.rate, the broker-wide limit, works differently: the acceptor waits before \
                  it takes the next connection, and nothing is refused. Delete the IP quota in the Quotas panel and set \
                  max.connection.creation.rate to 2 under Brokers in the simulation's settings: 20 are ready at once, the \
                  acceptor waits before each of the other 10, and all 30 are ready at about 9.0 s without a refusal.",
        scenario: lesson_connects,
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

    /// Links need no shortener (issue 12): the fragment after `#` stays
    /// within 1,200 characters for the default scenario and 2,000 for one
    /// with 20 quotas (BENCHMARKS.md reports the lengths: `cargo test -p
    /// quota-playground --lib link_size -- --nocapture`).
    #[test]
    fn link_size_stays_within_its_budget() {
        use quota_engine::sim::QuotaSetting;
        use quota_engine::{QuotaEntity, QuotaKey};
        use quota_formats::permalink::encode;
        let default = encode(&default_scenario());
        let mut s = default_scenario();
        let mut i = 0u32;
        while s.quotas.len() < 20 {
            i += 1;
            let entity = if i.is_multiple_of(2) { QuotaEntity::user(&format!("tenant-{i:02}")) } else { QuotaEntity::client_id(&format!("service-{i:02}")) };
            s.quotas.push(QuotaSetting { entity, key: QuotaKey::ProducerByteRate, value: f64::from(i) * 524_288.0 });
        }
        let twenty = encode(&s);
        println!("link fragment: default scenario {} characters, 20 quotas {} characters", default.len(), twenty.len());
        assert!(default.len() <= 1_200, "{}", default.len());
        assert!(twenty.len() <= 2_000, "{}", twenty.len());
    }

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

    /// Lesson 8's figures are the engine's: the burst, the first
    /// request's 23 accepted and 17 refused, the 475 ms throttle, one topic
    /// per retry, about 8.5 s in all; and with default.api.timeout.ms (and
    /// request.timeout.ms) at 5000, 32 created and 8 failing with
    /// ThrottlingQuotaExceededException at the deadline.
    #[test]
    fn the_admin_lesson_states_what_the_engine_computes() {
        use quota_engine::sim::TopicOutcome;
        let l = lesson(8).unwrap();
        assert_eq!(l.title, "Topic creation under controller_mutation_rate");
        let t = model::simulate(&l.scenario()).unwrap();
        assert!(t.clients.is_empty() && t.admin.len() == 1);
        let a = &t.admin[0];
        assert_eq!((a.quota, a.burst, a.partitions, a.topics.len()), (Some(20.0), Some(220.0), 10, 40));
        assert_eq!((a.request.as_str(), a.mode.as_str(), a.budget.as_str()), ("CreateTopics v7", "strict", "user=\"\", client-id=admin-burst"));
        let first = &a.requests[0];
        assert_eq!((first.accepted, first.refused, first.throttle_ms), (23, 17, 475));
        assert_eq!((first.tokens_before, first.tokens_after), (Some(220.0), Some(-10.0)));
        // "less the 25 ms the controller took to commit": answered 25 ms
        // after it was decided, plus the link's round trip.
        assert!((25.0..26.0).contains(&(first.answered_ms - first.handled_ms)), "{first:?}");
        // "one topic per retry every 500 ms", "after 17 retries".
        assert_eq!(a.requests.len(), 18);
        assert!(a.requests[1..].iter().all(|r| r.accepted == 1 && (470..=475).contains(&r.throttle_ms) || r.refused == 0));
        for w in a.requests.windows(2) {
            let gap = w[1].sent_ms - w[0].sent_ms;
            assert!((499.0..=501.0).contains(&gap), "{gap}");
        }
        // "about 8.5 s", no error.
        assert_eq!(a.count(TopicOutcome::Done), 40);
        assert!((8_450.0..8_550.0).contains(&a.duration_ms()), "{}", a.duration_ms());
        assert_eq!(a.summary(), "All 40 topics created in 8,526 ms after 17 retries on THROTTLING_QUOTA_EXCEEDED.");
        for words in ["220 tokens", "23 topics pass", "from 0 to -10", "other 17", "475 ms", "500 ms", "25 ms", "after 17 retries", "about 8.5 s"] {
            assert!(l.explain.contains(words), "{words}");
        }
        // "set default.api.timeout.ms to 5000 ... 32 topics are created,
        // and the 8 ... fail with ThrottlingQuotaExceededException".
        let mut v: serde_json::Value = serde_json::from_str(&lesson_admin()).unwrap();
        v["workloads"][0]["admin"]["config"] = serde_json::json!({"default.api.timeout.ms": 5000, "request.timeout.ms": 5000});
        let t = model::simulate(&serde_json::from_value(v).unwrap()).unwrap();
        let a = &t.admin[0];
        assert_eq!((a.count(TopicOutcome::Done), a.count(TopicOutcome::QuotaExceeded), a.count(TopicOutcome::TimedOut)), (32, 8, 0));
        assert!(a.topics.iter().filter(|x| x.outcome == TopicOutcome::QuotaExceeded).all(|x| (5_000.0..5_002.0).contains(&x.at_ms)));
        assert!(l.explain.contains("32 topics are created, and the 8 still being retried at the 5 s deadline fail with ThrottlingQuotaExceededException"));
        assert!(a.summary().starts_with("32 of 40 topics created; 8 failed with ThrottlingQuotaExceededException"), "{}", a.summary());
    }

    /// Lesson 9's figures are the engine's: 20 at once, the 21st taken at
    /// 20 ms with a throttle of 480 ms (21 / 10.02 s), the sockets closed at
    /// about 530 ms, the backoff doubling from 50 to 1,000 ms, one more in at
    /// 573 ms and one at 11.18 s, the burst's sample leaving the window 11 s
    /// after the refusals at 590 ms, all 30 ready at about 12.9 s after 81
    /// refusals, up to 10 attempts; and the broker-wide variant: 20 at
    /// once, the acceptor waiting before the other 10, all ready at about
    /// 9.0 s, none refused.
    #[test]
    fn the_connects_lesson_states_what_the_engine_computes() {
        let l = lesson(9).unwrap();
        assert_eq!(l.title, "A reconnect storm under connection_creation_rate");
        let t = model::simulate(&l.scenario()).unwrap();
        assert!(t.clients.is_empty() && t.admin.is_empty() && t.connects.len() == 1);
        let c = &t.connects[0];
        assert_eq!((c.ip.as_str(), c.ip_quota, c.ip_entity.as_deref(), c.broker_rate, c.count), ("10.0.0.9", Some(2.0), Some("ips/10.0.0.9"), None, 30));
        // "20 connections fit at once": the first 20 attempts, one a ms, all accepted.
        let first: Vec<_> = c.attempts.iter().filter(|a| a.attempt == 1).collect();
        assert_eq!(first.len(), 30);
        assert!(first[..20].iter().enumerate().all(|(k, a)| a.throttle_ms == 0 && a.accepted_ms == k as f64));
        // "the 21st, taken at 20 ms ... a throttle of 480 ms": (21 / 10.02 - 2) / 2 x 10,020.
        let r = first[20];
        assert_eq!((r.accepted_ms, r.throttle_ms), (20.0, 480));
        assert!(21.0 / 10.02 > 2.0 && ((21.0 / 10.02 - 2.0) / 2.0 * 10_020.0 - 480.0_f64).abs() < 1.0);
        // "closes it ... at about 530 ms": all 10, held past their throttle.
        assert!(first[20..].iter().all(|a| a.throttle_ms > 0 && a.closed_ms.is_some_and(|ms| (529.5..531.0).contains(&ms))));
        assert!(first[20..].iter().all(|a| a.closed_ms.unwrap() > a.accepted_ms + a.throttle_ms as f64));
        // "reconnect.backoff.ms, 50 ms, doubled ... (100, 200, 400, 800 ms) up to 1,000 ms, each ±20 %":
        // from the close (seen a link latency later) to the next attempt.
        for k in 20..30u32 {
            let mine: Vec<_> = c.attempts.iter().filter(|a| a.client == k).collect();
            for (n, w) in mine.windows(2).enumerate() {
                let gap = w[1].sent_ms - w[0].closed_ms.unwrap();
                let term = (50.0 * 2f64.powi(n as i32)).min(1_000.0);
                assert!(gap >= term * 0.8 - 0.5 && gap <= term * 1.2 + 1.0, "client {k} attempt {}: {gap} ms after the close, term {term}", w[1].attempt);
            }
        }
        // "one more gets in at 573 ms and another at 11.18 s".
        let later: Vec<f64> = c.attempts.iter().filter(|a| a.attempt > 1 && a.throttle_ms == 0).map(|a| a.accepted_ms).collect();
        assert_eq!(later[..2], [573.0, 11_179.0]);
        // "the refusals at 590 ms": the last event of the burst's sample (its first second).
        let early = c.attempts.iter().filter(|a| a.throttle_ms > 0 && a.accepted_ms < 1_000.0).map(|a| a.accepted_ms).fold(0.0, f64::max);
        assert_eq!(early, 590.0);
        // "leaves the window ... at about 11.6 s": refused up to then, none after.
        let last_refused = c.attempts.iter().filter(|a| a.throttle_ms > 0).map(|a| a.accepted_ms).fold(0.0, f64::max);
        assert!((11_000.0..11_590.0).contains(&last_refused), "{last_refused}");
        assert!(c.attempts.iter().filter(|a| a.accepted_ms >= 11_590.0).all(|a| a.throttle_ms == 0));
        assert!(c.attempts.iter().any(|a| a.accepted_ms >= 11_590.0));
        // "all 30 are ready at about 12.9 s, after 81 refusals and up to 10 attempts".
        assert!(c.finished && (12_850.0..12_950.0).contains(&c.end_ms), "{}", c.end_ms);
        assert_eq!(c.throttled_total(), 81);
        assert_eq!(c.clients.iter().map(|k| k.attempts).max(), Some(10));
        assert_eq!(
            c.summary(),
            "All 30 connections were ready by 12,859 ms; 10 were refused by connection_creation_rate=2 on ips/10.0.0.9 (held for the throttle time, then closed, and reconnected after reconnect.backoff.ms), 81 refusals in all, up to 10 attempts for one."
        );
        for words in ["20 connections fit at once", "taken at 20 ms", "21 / 10.02 s", "480 ms", "about 530 ms", "500 ms after", "50 ms", "(100, 200, 400, 800 ms)",
            "1,000 ms", "573 ms", "11.18 s", "11 s after its last event", "590 ms", "about 11.6 s", "about 12.9 s", "81 refusals", "up to 10 attempts",
            "20 are ready at once", "each of the other 10", "about 9.0 s without a refusal"] {
            assert!(l.explain.contains(words), "{words}");
        }
        assert!(l.finding.contains("20 are answered at once") && l.finding.contains("about 12.9 s, after 81 refusals"));
        // "run 20 seeds and the backoff's jitter moves that end only between 12.8 and 12.9 s".
        let spread = quota_engine::sim::seeds::simulate_seeds(l.scenario().validate().expect("a valid scenario"), 20).unwrap();
        let d = spread.clients[0].durations_sorted();
        assert_eq!(d.len(), 20);
        assert!((12_750.0..12_850.0).contains(&d[0]) && (12_850.0..12_950.0).contains(&d[19]), "{d:?}");
        assert!(l.explain.contains("run 20 seeds and the backoff's jitter moves that end only between 12.8 and 12.9 s"));
        // The suggestion: no IP quota, max.connection.creation.rate=2.
        let mut s = l.scenario();
        s.quotas.clear();
        s.brokers.settings.max_connection_creation_rate = 2;
        let t = model::simulate(&s).unwrap();
        let c = &t.connects[0];
        assert_eq!((c.ip_quota, c.broker_rate, c.throttled_total()), (None, Some(2), 0));
        assert_eq!(c.attempts.iter().filter(|a| a.acceptor_wait_ms == 0 && a.ready_ms.is_some_and(|r| r < 25.0)).count(), 20);
        assert_eq!(c.attempts.iter().filter(|a| a.acceptor_wait_ms > 0).count(), 10);
        assert!(c.finished && (8_950.0..9_050.0).contains(&c.end_ms), "{}", c.end_ms);
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

    /// The final value of `attribute` on `mbean` (broker 0).
    fn mbean(t: &quota_engine::sim::Timeline, mbean: &str, attribute: &str) -> f64 {
        t.brokers[0]
            .mbeans
            .iter()
            .find(|m| m.mbean == mbean && m.attribute == attribute)
            .unwrap_or_else(|| panic!("no {mbean}:{attribute}"))
            .value
    }

    /// The sensor whose MBean is `mbean`.
    fn sensor<'t>(t: &'t quota_engine::sim::Timeline, mbean: &str) -> &'t quota_engine::sim::SensorTrack {
        t.sensors.iter().find(|s| s.mbean == mbean).unwrap_or_else(|| panic!("no sensor {mbean}"))
    }

    /// Thread time a request budget recorded over the run (ms): the samples
    /// hold percent of a second (ns * 100 / 1e9), so 1 unit = 10 ms.
    fn thread_ms(s: &quota_engine::sim::SensorTrack) -> f64 {
        s.samples.iter().map(|w| w.sum).sum::<f64>() * 10.0
    }

    /// Every `kafka.server:type=...` name the lesson's text mentions is an
    /// MBean the run produced.
    fn named_mbeans_exist(l: &Lesson, t: &quota_engine::sim::Timeline) {
        for word in l.explain.split_whitespace().filter(|w| w.starts_with("kafka.server:")) {
            let name = word.trim_end_matches([',', '.', ':', ';']);
            assert!(t.brokers[0].mbeans.iter().any(|m| m.mbean == name), "lesson {} names {name}", l.id);
        }
    }

    #[test]
    fn the_request_lesson_throttles_the_chatty_producer_not_the_batched_one() {
        let l = lesson(5).unwrap();
        let t = model::simulate(&l.scenario()).unwrap();
        let batched = t.client("batched").unwrap();
        let chatty = t.client("chatty").unwrap();
        // The same bytes from both.
        assert_eq!(batched.metrics.bytes_done, 1_000_000);
        assert_eq!(chatty.metrics.bytes_done, batched.metrics.bytes_done);
        // "16 requests", "about 13 ms", never throttled.
        assert!((12..=20).contains(&batched.metrics.requests), "{}", batched.metrics.requests);
        assert!(batched.duration_ms.unwrap() < 50.0, "{:?}", batched.duration_ms);
        assert_eq!(batched.metrics.throttle_time_max, 0.0);
        let sb = sensor(&t, "kafka.server:type=Request,client-id=batched");
        assert!(sb.throttles.is_empty());
        assert!(sb.rate.points.iter().all(|p| p.rate < sb.bound), "the batched rate stays under 1 %");
        assert!(mbean(&t, &sb.mbean, "throttle-time").is_nan());
        // "1,000 one-record requests", "about 100 times, up to 1,000 ms", "about 12 s".
        assert_eq!(chatty.metrics.requests, 1_000);
        let sc = sensor(&t, "kafka.server:type=Request,client-id=chatty");
        assert!((60..=150).contains(&sc.throttles.len()), "{}", sc.throttles.len());
        assert_eq!(sc.throttles.iter().map(|e| e.delay_ms).max(), Some(1_000));
        assert_eq!(chatty.metrics.throttle_time_max, 1_000.0);
        let d = chatty.duration_ms.unwrap();
        assert!((8_000.0..16_000.0).contains(&d), "{d}");
        // "about 0.18 ms each", "181 ms of thread time against 13 ms".
        let (tb, tc) = (thread_ms(sb), thread_ms(sc));
        assert!((10.0..18.0).contains(&(tc / tb)), "chatty {tc} ms, batched {tb} ms");
        assert!((160.0..200.0).contains(&tc) && (10.0..16.0).contains(&tb), "chatty {tc} ms, batched {tb} ms");
        let per_request = tc / chatty.metrics.requests as f64;
        assert!((0.16..0.20).contains(&per_request), "{per_request} ms per request");
        assert!(t.clients.iter().all(|c| c.metrics.record_error_total == 0 && c.metrics.record_retry_total == 0));
    }

    /// "Run 20 seeds ...: the chatty producer is throttled in all 20 runs
    /// and the batched one in none", as the engine's spread says it.
    #[test]
    fn the_request_lesson_s_seeds_throttle_the_chatty_producer_every_time() {
        use quota_engine::sim::seeds::simulate_seeds;
        let l = lesson(5).unwrap();
        assert!(l.explain.contains("Run 20 seeds under the clients table: the chatty producer is throttled in all 20 runs and the batched one in none."));
        let spread = simulate_seeds(l.scenario().validate().expect("a valid scenario"), 20).unwrap();
        assert_eq!(spread.seeds, (1..=20).collect::<Vec<u64>>());
        let by = |n: &str| spread.clients.iter().find(|c| c.name == n).unwrap();
        assert_eq!((by("chatty").throttled_runs(), by("batched").throttled_runs()), (20, 0));
        assert!(by("chatty").summary(&spread.seeds).starts_with("chatty: throttled in every one of 20 runs (seeds 1-20)"));
        assert!(by("batched").summary(&spread.seeds).starts_with("batched: never throttled in 20 runs (seeds 1-20)"));
    }

    #[test]
    fn the_request_lesson_suggestion_throttles_a_bigger_batched_producer() {
        // "Give the batched producer 10,000 records and it is throttled too."
        let json = lesson_request().replacen(r#""records": 1000,"#, r#""records": 10000,"#, 1);
        let t = model::simulate(&parse(&json)).unwrap();
        assert_eq!(t.client("batched").unwrap().metrics.bytes_done, 10_000_000);
        assert!(!sensor(&t, "kafka.server:type=Request,client-id=batched").throttles.is_empty());
    }

    /// Issue 29: lesson 1's title holds for the tool's own runs: with the
    /// default delivery.timeout.ms no record fails; with one below the
    /// delay the quota causes, records fail with a TimeoutException.
    #[test]
    fn the_delay_lesson_delays_until_delivery_timeout_ms() {
        let l = lesson(1).unwrap();
        assert_eq!(l.title, "A quota delays rather than errors, until delivery.timeout.ms");
        assert!(LESSONS.iter().all(|l| !l.title.contains("never fails")));
        assert!(l.explain.contains("delivery.timeout.ms"));
        let t = model::simulate(&l.scenario()).unwrap();
        assert_eq!(t.client("throttled").unwrap().metrics.record_error_total, 0);
        let mut v: serde_json::Value = serde_json::from_str(&(l.scenario)()).unwrap();
        v["workloads"][0]["producer"]["config"]["delivery.timeout.ms"] = serde_json::json!(5000);
        v["workloads"][0]["producer"]["config"]["request.timeout.ms"] = serde_json::json!(3000);
        let s: quota_engine::sim::Scenario = serde_json::from_value(v).unwrap();
        let t = model::simulate(&s).unwrap();
        let throttled = t.client("throttled").unwrap();
        assert!(throttled.metrics.record_error_total > 0, "{:?}", throttled.metrics);
    }

    #[test]
    fn the_metrics_lesson_shows_a_throttle_time_and_a_nan() {
        let l = lesson(7).unwrap();
        let t = model::simulate(&l.scenario()).unwrap();
        named_mbeans_exist(l, &t);
        // "throttled about 50 times in 12 s".
        let perf = t.client("perf").unwrap();
        let d = perf.duration_ms.unwrap();
        assert!((10_000.0..14_000.0).contains(&d), "{d}");
        assert!((10_000.0..14_000.0).contains(&t.end_ms), "{}", t.end_ms);
        let sp = sensor(&t, "kafka.server:type=Produce,client-id=perf-throttled");
        assert!((35..=70).contains(&sp.throttles.len()), "{}", sp.throttles.len());
        // "a byte-rate (about 0.83 MB/s)", "a throttle-time of about 217 ms".
        let rate = mbean(&t, &sp.mbean, "byte-rate");
        assert!((600_000.0..1_000_000.0).contains(&rate), "{rate}");
        let throttle = mbean(&t, &sp.mbean, "throttle-time");
        assert!((150.0..300.0).contains(&throttle), "{throttle}");
        // "never throttled", "request-time 0 and throttle-time NaN".
        let sc = sensor(&t, "kafka.server:type=Request,client-id=cpu-bound");
        assert!(sc.throttles.is_empty());
        assert_eq!(mbean(&t, &sc.mbean, "request-time"), 0.0);
        assert!(mbean(&t, &sc.mbean, "throttle-time").is_nan());
        // Client side: "about 25 and 1,033 ms" and "0.0 for cpu-bound".
        assert!((15.0..40.0).contains(&perf.metrics.throttle_time_avg), "{}", perf.metrics.throttle_time_avg);
        assert!((900.0..1_200.0).contains(&perf.metrics.throttle_time_max), "{}", perf.metrics.throttle_time_max);
        let cpu = t.client("cpu-bound").unwrap();
        assert_eq!((cpu.metrics.throttle_time_avg, cpu.metrics.throttle_time_max), (0.0, 0.0));
        assert_eq!(cpu.metrics.records_done, 500);
    }
}
