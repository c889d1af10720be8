//! Admin clients under `controller_mutation_rate` (KIP-599), as
//! `crate::sim::admin` runs them: the controller's token bucket
//! (`ControllerMutationQuotaManager`, burst = quota × 11 × 1 s), strict mode
//! refusing topics while the bucket is below zero
//! (`StrictControllerMutationQuota.record`), the Java Admin client retrying
//! them after each throttle until `default.api.timeout.ms`
//! (`KafkaAdminClient.getCreateTopicsCall`, `maybeCompleteQuotaExceededException`).
//! Kafka 4.3.1; the lab's real runs of the same scenarios are
//! `lab/scenarios/mutation-burst-*.json`.

use quota_engine::sim::{simulate, Scenario, TopicOutcome};

fn scenario(topics: u32, extra: &str) -> Scenario {
    let text = format!(
        r#"{{
      "topics": [],
      "quotas": [{{"entity": {{"client-id": "admin-burst"}}, "key": "controller_mutation_rate", "value": 20}}],
      "connections": [{{"name": "admin", "listener": "PLAINTEXT", "client.id": "admin-burst"}}],
      "workloads": [{{"admin": {{"connection": "admin", "topics": {topics}, "partitions": 10 {extra}}}}}]
    }}"#
    );
    serde_json::from_str(&text).expect("the test's scenario parses")
}

#[test]
fn a_burst_of_topics_is_created_at_once_then_one_topic_per_throttle() {
    let t = simulate(&scenario(40, "")).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.quota, Some(20.0));
    assert_eq!(a.burst, Some(220.0));
    assert_eq!(a.mode, "strict");
    assert_eq!(a.request, "CreateTopics v7");
    // 220 tokens: strict mode accepts a topic while the bucket is >= 0, so
    // 23 topics (the 23rd takes it to -10) in the first request.
    let first = &a.requests[0];
    assert_eq!((first.accepted, first.refused), (23, 17));
    assert_eq!(first.tokens_before, Some(220.0));
    assert_eq!(first.tokens_after, Some(-10.0));
    // -10 tokens at 20/s: 500 ms, less the 25 ms the controller took to
    // commit before it sent the response (throttleTime() is read then).
    assert_eq!(first.throttle_ms, 475);
    // Every retry then takes one topic and is refused the rest.
    assert!(a.requests[1..].iter().all(|r| r.accepted == 1), "{:?}", a.requests);
    assert_eq!(a.requests.len(), 1 + 17);
    assert_eq!(a.count(TopicOutcome::Done), 40);
    // 17 topics at one per 500 ms after the first answer.
    let d = a.duration_ms();
    assert!((8_500.0..8_700.0).contains(&d), "{d}");
    assert!(a.summary().starts_with("All 40 topics created in 8,"), "{}", a.summary());
}

#[test]
fn the_topics_still_refused_at_the_deadline_fail_with_throttling_quota_exceeded() {
    let t = simulate(&scenario(60, r#", "config": {"default.api.timeout.ms": 5000, "request.timeout.ms": 5000}"#)).expect("runs");
    let a = &t.admin[0];
    let done = a.count(TopicOutcome::Done);
    let refused = a.count(TopicOutcome::QuotaExceeded);
    // 23 at once, then one each ~500 ms until 5 s: 9 more.
    assert_eq!((done, refused), (32, 28), "{}", a.summary());
    let failed = a.topics.iter().find(|x| x.outcome == TopicOutcome::QuotaExceeded).expect("one failed");
    // The call failed at the deadline, 1 ms after 5,000 ms (callHasExpired: remaining < 0).
    assert!((5_000.0..5_002.0).contains(&failed.at_ms), "{}", failed.at_ms);
    assert!(failed.throttle_ms <= 500);
    assert!(a.summary().contains("28 failed with ThrottlingQuotaExceededException"), "{}", a.summary());
}

#[test]
fn without_retry_the_refused_topics_fail_at_the_first_answer() {
    let t = simulate(&scenario(40, r#", "retry_on_quota_violation": false"#)).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.requests.len(), 1);
    assert_eq!(a.count(TopicOutcome::Done), 23);
    assert_eq!(a.count(TopicOutcome::QuotaExceeded), 17);
    assert!(a.topics.iter().all(|x| x.outcome == TopicOutcome::Done || x.throttle_ms == 475));
}

#[test]
fn an_old_request_version_is_permissive_every_topic_accepted_and_the_next_call_waits() {
    // CreateTopics v5 is before strictSinceVersion 6: recorded, then throttled.
    let t = simulate(&scenario(40, r#", "api_version": 5, "topics_per_call": 20"#)).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.mode, "permissive");
    assert_eq!(a.count(TopicOutcome::Done), 40);
    assert!(a.requests.iter().all(|r| r.refused == 0));
    // Call 0 takes 200 tokens (20 left); call 1, sent once call 0 is
    // answered (one request in flight), takes 200 more after 20/s of refill.
    let (first, second) = (&a.requests[0], &a.requests[1]);
    assert_eq!(first.tokens_after, Some(20.0));
    assert_eq!(first.throttle_ms, 0);
    let refill = 20.0 * (second.handled_ms - first.handled_ms) / 1000.0;
    let after = 20.0 + refill - 200.0;
    assert_eq!(second.tokens_after, Some(after));
    // round(-tokens / 20 * 1000), less the 25 ms commit before the response.
    assert_eq!(second.throttle_ms, (-after / 20.0 * 1000.0).round() as i64 - 25);
}

#[test]
fn without_a_quota_every_topic_goes_through_in_one_request() {
    let mut s = scenario(40, "");
    s.quotas.clear();
    let t = simulate(&s).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.quota, None);
    assert_eq!(a.requests.len(), 1);
    assert_eq!(a.count(TopicOutcome::Done), 40);
}

#[test]
fn bad_admin_fields_are_named() {
    let cases = [
        (r#", "api_version": 9"#, "workloads[0].admin.api_version", "Kafka 4.3.1 accepts versions 2 to 7"),
        (r#", "topics_per_call": 0"#, "workloads[0].admin.topics_per_call", "at least one topic"),
        (r#", "topic_prefix": "a b""#, "workloads[0].admin.topic_prefix", "Topic name is invalid"),
        (r#", "config": {"default.api.timeout.ms": 0, "request.timeout.ms": 0}"#, "workloads[0].admin.config.default.api.timeout.ms", "1 to 2147483647 ms"),
        (r#", "config": {"default.api.timeout.ms": 5000}"#, "workloads[0].admin.config.default.api.timeout.ms", "must be no smaller than the value of request.timeout.ms"),
    ];
    for (extra, path, words) in cases {
        let problems = scenario(10, extra).validate().expect_err(extra);
        assert!(
            problems.iter().any(|p| p.path == path && p.error.to_string().contains(words)),
            "{extra}: {problems:?}"
        );
        let e = simulate(&scenario(10, extra)).expect_err(extra).to_string();
        assert!(e.contains(words), "{extra}: {e}");
    }
    let e = serde_json::from_str::<Scenario>(
        r#"{"topics": [], "workloads": [{"admin": {"connection": "a", "topics": 1, "partitons": 2}}]}"#,
    )
    .expect_err("unknown field");
    assert!(e.to_string().contains("partitons"), "{e}");
}

#[test]
fn a_quota_raised_mid_run_refills_the_same_bucket_faster() {
    // The budget is the client-id's. At 2 s the quota goes from 20 to 200:
    // Kafka's ControllerMutationQuotaManager (a ClientQuotaManager) gives
    // the existing `tokens` metric the new quota, which TokenBucket reads at
    // every call, so the rest pass at one topic per 50 ms, not 500 ms.
    let mut s = scenario(40, "");
    s.events = serde_json::from_str(
        r#"[{"at_ms": 2000, "kind": "set_quota", "entity": {"client-id": "admin-burst"}, "key": "controller_mutation_rate", "value": 200}]"#,
    )
    .expect("events");
    let t = simulate(&s).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.count(TopicOutcome::Done), 40);
    // Before 2 s: 23 + about 4 retries; after it the bucket refills 10x faster.
    let d = a.duration_ms();
    assert!(d < 3_500.0, "{d}: {}", a.summary());
    let late: Vec<_> = a.requests.iter().filter(|r| r.handled_ms > 2_100.0 && r.throttle_ms > 0).collect();
    assert!(late.iter().all(|r| r.throttle_ms < 100), "{late:?}");
}
