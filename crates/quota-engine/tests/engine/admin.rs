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
    let t = simulate(scenario(40, "").validate().expect("a valid scenario")).expect("runs");
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
    let t = simulate(scenario(60, r#", "config": {"default.api.timeout.ms": 5000, "request.timeout.ms": 5000}"#).validate().expect("a valid scenario")).expect("runs");
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
    let t = simulate(scenario(40, r#", "retry_on_quota_violation": false"#).validate().expect("a valid scenario")).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.requests.len(), 1);
    assert_eq!(a.count(TopicOutcome::Done), 23);
    assert_eq!(a.count(TopicOutcome::QuotaExceeded), 17);
    assert!(a.topics.iter().all(|x| x.outcome == TopicOutcome::Done || x.throttle_ms == 475));
}

#[test]
fn an_old_request_version_is_permissive_every_topic_accepted_and_the_next_call_waits() {
    // CreateTopics v5 is before strictSinceVersion 6: recorded, then throttled.
    let t = simulate(scenario(40, r#", "api_version": 5, "topics_per_call": 20"#).validate().expect("a valid scenario")).expect("runs");
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
    let t = simulate(s.validate().expect("a valid scenario")).expect("runs");
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
            problems.iter().any(|p| p.path.to_string() == path && p.error.to_string().contains(words)),
            "{extra}: {problems:?}"
        );
        let e = scenario(10, extra).validate().map_err(quota_engine::Error::from).and_then(simulate).expect_err(extra).to_string();
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
    let t = simulate(s.validate().expect("a valid scenario")).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.count(TopicOutcome::Done), 40);
    // Before 2 s: 23 + about 4 retries; after it the bucket refills 10x faster.
    let d = a.duration_ms();
    assert!(d < 3_500.0, "{d}: {}", a.summary());
    let late: Vec<_> = a.requests.iter().filter(|r| r.handled_ms > 2_100.0 && r.throttle_ms > 0).collect();
    assert!(late.iter().all(|r| r.throttle_ms < 100), "{late:?}");
}

#[test]
fn create_partitions_and_delete_topics_charge_their_partitions_strict_from_their_versions() {
    // CreatePartitions is strict since v3 (the Java client's newest),
    // DeleteTopics since v5 (the client sends v6).
    for (op, request) in [("create_partitions", "CreatePartitions v3"), ("delete_topics", "DeleteTopics v6")] {
        let t = simulate(scenario(40, &format!(r#", "operation": "{op}""#)).validate().expect("a valid scenario")).expect("runs");
        let a = &t.admin[0];
        assert_eq!((a.request.as_str(), a.mode.as_str()), (request, "strict"));
        assert_eq!((a.requests[0].accepted, a.requests[0].refused), (23, 17), "{op}");
        assert_eq!(a.count(TopicOutcome::Done), 40);
    }
    // CreatePartitions v2 is before its strictSinceVersion: permissive.
    let t = simulate(scenario(40, r#", "operation": "create_partitions", "api_version": 2"#).validate().expect("a valid scenario")).expect("runs");
    assert_eq!(t.admin[0].mode, "permissive");
    assert_eq!(t.admin[0].requests[0].accepted, 40);
    assert_eq!(t.admin[0].requests[0].tokens_after, Some(-180.0));
}

#[test]
fn two_admin_clients_on_one_client_id_share_one_bucket() {
    let text = r#"{
      "topics": [],
      "quotas": [{"entity": {"client-id": "admin-burst"}, "key": "controller_mutation_rate", "value": 20}],
      "connections": [{"name": "a1", "listener": "PLAINTEXT", "client.id": "admin-burst"},
                      {"name": "a2", "listener": "PLAINTEXT", "client.id": "admin-burst"}],
      "workloads": [{"admin": {"connection": "a1", "topics": 20, "partitions": 10, "topic_prefix": "one"}},
                    {"admin": {"connection": "a2", "topics": 20, "partitions": 10, "topic_prefix": "two"}}]
    }"#;
    let t = simulate(serde_json::from_str::<Scenario>(text).expect("parses").validate().expect("a valid scenario")).expect("runs");
    // 220 tokens for both: the first request takes 20 topics (-> 20 tokens),
    // the second 3 more (-> -10), not 20 more.
    let first = (t.admin[0].requests[0].accepted, t.admin[1].requests[0].accepted);
    assert_eq!(first.0 + first.1, 23, "{first:?}");
    assert_eq!(t.admin[0].budget, t.admin[1].budget);
}

#[test]
fn the_horizon_leaves_topics_pending_and_the_run_says_it_stopped() {
    let mut s = scenario(40, "");
    s.horizon_ms = 3_000;
    let t = simulate(s.validate().expect("a valid scenario")).expect("runs");
    let a = &t.admin[0];
    assert!(t.hit_horizon);
    let pending = a.count(TopicOutcome::Pending);
    assert!(pending > 0 && a.count(TopicOutcome::Done) + pending == 40, "{}", a.summary());
    assert!(a.summary().contains("still pending when the run stopped"), "{}", a.summary());
}

#[test]
fn a_quota_lowered_mid_run_slows_the_retries_and_the_chart_follows_it() {
    let mut s = scenario(40, "");
    s.events = serde_json::from_str(
        r#"[{"at_ms": 1000, "kind": "set_quota", "entity": {"client-id": "admin-burst"}, "key": "controller_mutation_rate", "value": 5}]"#,
    )
    .expect("events");
    let t = simulate(s.validate().expect("a valid scenario")).expect("runs");
    let a = &t.admin[0];
    assert_eq!(a.quota_changes, vec![(1000.0, Some(5.0))]);
    assert_eq!(a.quota_at(999.0), Some(20.0));
    assert_eq!(a.quota_at(1000.0), Some(5.0));
    // A topic of 10 partitions now takes 2 s to refill: 17 retries take
    // well over the 8.5 s they take at 20/s.
    assert!(a.duration_ms() > 20_000.0, "{}", a.summary());
    // After the change the bucket refills at 5/s up to 55 tokens.
    let late = a.tokens_at(a.end_ms + 60_000.0).expect("a quota");
    assert_eq!(late, 55.0);
    let pts = a.token_points(a.end_ms, 100);
    assert!(pts.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
    assert!(pts.iter().all(|(_, v)| *v <= 220.0));
}

#[test]
fn a_call_in_flight_at_its_deadline_fails_its_retried_topics_with_the_throttle_left() {
    // A 1 s deadline: the retry answered just before it is in flight or
    // queued when it passes; the topics still refused fail with
    // ThrottlingQuotaExceededException, carrying the throttle left.
    let t = simulate(scenario(40, r#", "config": {"default.api.timeout.ms": 1000, "request.timeout.ms": 1000}"#).validate().expect("a valid scenario")).expect("runs");
    let a = &t.admin[0];
    let failed: Vec<_> = a.topics.iter().filter(|x| x.outcome == TopicOutcome::QuotaExceeded).collect();
    assert!(!failed.is_empty());
    assert!(failed.iter().all(|x| (1_000.0..1_002.0).contains(&x.at_ms) && x.throttle_ms <= 475), "{failed:?}");
    assert_eq!(a.count(TopicOutcome::Done) as usize + failed.len(), 40);
}
