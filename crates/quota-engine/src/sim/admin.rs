//! Admin clients under `controller_mutation_rate` (KIP-599): topics
//! created, extended or deleted by the Java `Admin` client against the
//! active controller's token bucket.
//!
//! What is modelled, and where Kafka 4.3.1 does it:
//! - The application: `Admin.createTopics` (or `createPartitions`,
//!   `deleteTopics`) calls of [`AdminWorkload::per_call`] topics, the k-th at
//!   `start_ms + k * call_interval_ms`, each with a deadline of
//!   `default.api.timeout.ms` (`KafkaAdminClient.calcDeadlineMs`).
//! - The client's connection: one request in flight at a time (the Admin
//!   client's `NetworkClient` is built with `maxInFlightRequestsPerConnection`
//!   = 1, `KafkaAdminClient.createInternal`), calls sent in the order they
//!   became ready; after a response with a throttle time the connection is
//!   not ready until that time has passed (`NetworkClient.maybeThrottle`,
//!   `ClusterConnectionStates.isReady`; for versions before KIP-219's the
//!   broker mutes the channel instead, `RequestHandlerHelper.sendForwardedResponse`,
//!   which comes to the same wait here).
//! - The controller: each topic of a request is charged its partitions in
//!   turn (`ReplicationControlManager.createTopics` / `createPartitions` /
//!   `deleteTopics` call `context.applyPartitionChangeQuota`), by
//!   [`Broker::controller_mutation`]: strict from the request's
//!   `strictSinceVersion` (`ControllerApis.handleCreateTopics`: 6,
//!   CreatePartitions 3, DeleteTopics 5), where a topic is refused with
//!   `THROTTLING_QUOTA_EXCEEDED` while the bucket is below zero
//!   (`StrictControllerMutationQuota.record` checks before it records), and
//!   permissive below it (recorded, then throttled). The response carries
//!   `ControllerMutationQuota.throttleTime()` read when it is sent: the last
//!   throttle less the time since it was computed
//!   (`AbstractControllerMutationQuota.throttleTime`,
//!   `RequestHandlerHelper.sendResponseMaybeThrottleWithControllerQuota`).
//!   A request that changed at least one topic answers after
//!   [`crate::sim::BrokerCosts::controller_commit_us`] (the KRaft leader's
//!   `controller.quorum.append.linger.ms` and commit); one whose topics were
//!   all refused answers at once.
//! - The Admin client's retry path (`KafkaAdminClient.getCreateTopicsCall`
//!   `handleResponse`): a topic refused with `THROTTLING_QUOTA_EXCEEDED` is
//!   retried in a new call with the same deadline when
//!   `retryOnQuotaViolation` is true (the default), else its future fails
//!   with `ThrottlingQuotaExceededException` at once. A call still waiting
//!   at its deadline fails (`handleFailure` with a `TimeoutException`): its
//!   retried topics with `ThrottlingQuotaExceededException` carrying the
//!   throttle time less the time since the retry was made
//!   (`maybeCompleteQuotaExceededException`), the others with the
//!   `TimeoutException`.
//!
//! Left out, on purpose: the request quota (`request_percentage`) that the
//! forwarding broker and the controller also apply to these requests, and
//! the metadata round trips before the first call (a few round trips of the
//! link's latency, well under a millisecond on the lab's loopback). The
//! controller quota window is the brokers' `quota.window.num` ×
//! `quota.window.size.seconds`: Kafka's `controller.quota.window.num` and
//! `controller.quota.window.size.seconds` have the same defaults (11 × 1 s).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

use crate::broker::{Broker, MutationRequest, Session};
use crate::cluster::Cluster;
use crate::entity::QuotaKey;
use crate::metrics::MutationMode;
use crate::scenario::{AdminOperation, AdminWorkload, ListenerKind, Scenario, ScenarioEvent, Workload};
use crate::Error;

/// How one topic of an Admin call ended, as the application's future sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TopicOutcome {
    /// The future completed: the topic was created (extended, deleted).
    Done,
    /// `ThrottlingQuotaExceededException`: refused with
    /// `THROTTLING_QUOTA_EXCEEDED` and not retried, or still being retried
    /// at the call's deadline.
    QuotaExceeded,
    /// `TimeoutException`: the call's deadline passed before a first answer.
    TimedOut,
    /// Still pending when the run's horizon stopped it.
    Pending,
}

impl TopicOutcome {
    /// The exception the application's future fails with, if any.
    pub fn exception(self) -> Option<&'static str> {
        match self {
            TopicOutcome::Done | TopicOutcome::Pending => None,
            TopicOutcome::QuotaExceeded => Some("org.apache.kafka.common.errors.ThrottlingQuotaExceededException"),
            TopicOutcome::TimedOut => Some("org.apache.kafka.common.errors.TimeoutException"),
        }
    }
}

/// One topic of an [`AdminTrack`]: its name and how its future ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdminTopic {
    /// `<topic_prefix>-<i>`.
    pub name: String,
    /// How it ended.
    pub outcome: TopicOutcome,
    /// When its future completed (ms since the run started; the horizon
    /// for [`TopicOutcome::Pending`]).
    pub at_ms: f64,
    /// For [`TopicOutcome::QuotaExceeded`]: the exception's
    /// `throttleTimeMs()` (ms); 0 otherwise.
    pub throttle_ms: i64,
    /// How many requests carried it (1 = no retry).
    pub attempts: u32,
}

/// One request (an attempt of an Admin call) as the client sent it and the
/// controller decided it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdminRequest {
    /// The application's call it belongs to (0-based).
    pub call: u32,
    /// 1 for the call's first request, 2 and up for its retries.
    pub attempt: u32,
    /// Sent by the client (ms).
    pub sent_ms: f64,
    /// Decided by the controller (ms; Kafka's whole-ms clock).
    pub handled_ms: f64,
    /// The response reached the client (ms).
    pub answered_ms: f64,
    /// Topics in the request.
    pub topics: u32,
    /// Topics accepted (charged to the bucket).
    pub accepted: u32,
    /// Topics refused with `THROTTLING_QUOTA_EXCEEDED` (strict mode).
    pub refused: u32,
    /// The bucket's tokens when the controller took the request (after
    /// refilling; `None` without a quota).
    pub tokens_before: Option<f64>,
    /// The tokens after its topics were charged.
    pub tokens_after: Option<f64>,
    /// The response's `throttle_time_ms` (ms).
    pub throttle_ms: i64,
}

/// One Admin workload's run: its budget, requests and topics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdminTrack {
    /// The connection's name.
    pub name: String,
    /// The client's `client.id`.
    pub client_id: String,
    /// The principal, `User:<name>`.
    pub principal: String,
    /// `createTopics`, `createPartitions` or `deleteTopics`.
    pub method: String,
    /// The request and version, e.g. `CreateTopics v7`.
    pub request: String,
    /// `strict` or `permissive`.
    pub mode: String,
    /// Partitions per topic (the mutations each topic costs).
    pub partitions: u32,
    /// The `controller_mutation_rate` that applied at the start
    /// (mutations/s), `None` when unlimited.
    pub quota: Option<f64>,
    /// The bucket's capacity: quota × samples × window (mutations).
    pub burst: Option<f64>,
    /// The budget's metric tags, e.g. `user="", client-id="admin"`
    /// (empty when unlimited).
    pub budget: String,
    /// Every request, in the order sent.
    pub requests: Vec<AdminRequest>,
    /// Every topic, in the application's order.
    pub topics: Vec<AdminTopic>,
    /// The application's first call (ms).
    pub start_ms: f64,
    /// When the last future completed (ms); the horizon when one is pending.
    pub end_ms: f64,
    /// The budget's quota after each `set_quota` event of the run: (at ms,
    /// mutations/s, `None` when no quota applies any more). The token
    /// bucket keeps its tokens and refills at the new rate up to the new
    /// burst (`ClientQuotaManager.updateQuotaMetricConfigs`).
    pub quota_changes: Vec<(f64, Option<f64>)>,
}

impl AdminTrack {
    /// Topics whose future ended with `outcome`.
    pub fn count(&self, outcome: TopicOutcome) -> u32 {
        u32::try_from(self.topics.iter().filter(|t| t.outcome == outcome).count()).unwrap_or(u32::MAX)
    }

    /// From the first call to the last future's completion (ms).
    pub fn duration_ms(&self) -> f64 {
        self.end_ms - self.start_ms
    }

    /// The largest response throttle time (ms).
    pub fn throttle_max_ms(&self) -> i64 {
        self.requests.iter().map(|r| r.throttle_ms).max().unwrap_or(0)
    }

    /// The quota in force at `at_ms` (mutations/s), after the run's
    /// `set_quota` events; `None` when none applies.
    pub fn quota_at(&self, at_ms: f64) -> Option<f64> {
        let mut q = self.quota;
        for (t, v) in &self.quota_changes {
            if *t <= at_ms {
                q = *v;
            }
        }
        q
    }

    /// The bucket's tokens at `at_ms` as a read of Kafka's `tokens` metric
    /// would return them: the tokens after the last request before, refilled
    /// at the quota in force at `at_ms` over the whole time since (Kafka's
    /// `TokenBucket` refills lazily with the rate its config has when read),
    /// capped at that quota's burst; the full burst before the first
    /// request; `None` when no quota applies. The bucket is the budget's:
    /// other workloads drawing on it are not seen here.
    pub fn tokens_at(&self, at_ms: f64) -> Option<f64> {
        let quota = self.quota_at(at_ms)?;
        let per_quota = self.burst? / self.quota?;
        let burst = quota * per_quota;
        let last = self
            .requests
            .iter()
            .filter(|r| r.handled_ms <= at_ms && r.tokens_after.is_some())
            .max_by(|a, b| a.handled_ms.total_cmp(&b.handled_ms));
        let Some(last) = last else {
            return Some(burst);
        };
        let after = last.tokens_after?;
        Some((after + quota * (at_ms - last.handled_ms) / 1000.0).min(burst))
    }

    /// The bucket over `[0, end_ms]` for a chart: `samples` evenly spaced
    /// reads of [`AdminTrack::tokens_at`], plus the exact points
    /// just before and after each request (its `tokens_before` and
    /// `tokens_after`), each quota change and the moment the bucket fills
    /// up again, in time order: (ms, tokens). Empty without a quota.
    pub fn token_points(&self, end_ms: f64, samples: usize) -> Vec<(f64, f64)> {
        if self.quota.is_none() || !end_ms.is_finite() {
            return Vec::new();
        }
        let end = end_ms.max(1.0);
        // (ms, order at that ms: before a request, after it, then a read, tokens).
        let mut pts: Vec<(f64, u8, f64)> = Vec::new();
        let n = samples.clamp(2, 10_000);
        for i in 0..n {
            let t = end * i as f64 / (n - 1) as f64;
            if let Some(v) = self.tokens_at(t) {
                pts.push((t, 2, v));
            }
        }
        let per_quota = self.burst.unwrap_or(0.0) / self.quota.unwrap_or(1.0);
        for (i, r) in self.requests.iter().enumerate() {
            let (Some(b), Some(a)) = (r.tokens_before, r.tokens_after) else { continue };
            pts.push((r.handled_ms, 0, b));
            pts.push((r.handled_ms, 1, a));
            // Where the refill reaches the burst, before the next request.
            if let Some(q) = self.quota_at(r.handled_ms).filter(|q| *q > 0.0) {
                let burst = q * per_quota;
                let full = r.handled_ms + (burst - a) / q * 1000.0;
                let next = self.requests.get(i + 1).map_or(end, |n| n.handled_ms);
                if a < burst && full < next {
                    if let Some(v) = self.tokens_at(full) {
                        pts.push((full, 1, v));
                    }
                }
            }
        }
        for (t, _) in &self.quota_changes {
            if let Some(v) = self.tokens_at(*t) {
                pts.push((*t, 2, v));
            }
        }
        pts.retain(|(t, _, v)| *t <= end && v.is_finite());
        pts.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        pts.into_iter().map(|(t, _, v)| (t, v)).collect()
    }

    /// The budget in one sentence, e.g. `budget user="", client-id=admin:
    /// controller_mutation_rate 20 mutations/s, a burst of 220 tokens (10
    /// partitions a topic)`, or that none applies.
    pub fn budget_sentence(&self) -> String {
        match (self.quota, self.burst) {
            (Some(q), Some(b)) => format!(
                "budget {}: controller_mutation_rate {} mutations/s, a burst of {} tokens ({} partition{} a topic)",
                self.budget,
                crate::java_double_to_string(q),
                crate::java_double_to_string(b),
                self.partitions,
                if self.partitions == 1 { "" } else { "s" }
            ),
            _ => "no controller_mutation_rate applies to this client: every topic is accepted at once".to_owned(),
        }
    }

    /// One sentence: what the application saw, e.g. `All 40 topics created
    /// in 8,512 ms.` or `33 of 60 topics created; 27 failed with
    /// ThrottlingQuotaExceededException at the 5,000 ms deadline.`
    pub fn summary(&self) -> String {
        let n = self.topics.len();
        let done = self.count(TopicOutcome::Done);
        let verb = match self.method.as_str() {
            "createPartitions" => "extended",
            "deleteTopics" => "deleted",
            _ => "created",
        };
        let retries = self.requests.len().saturating_sub(self.requests.iter().filter(|r| r.attempt == 1).count());
        let retried = if retries == 0 {
            String::new()
        } else {
            format!(" after {retries} retr{} on THROTTLING_QUOTA_EXCEEDED", if retries == 1 { "y" } else { "ies" })
        };
        // What the run's throttles did beyond the topics' fate.
        let mut notes = String::new();
        let zero = self.requests.iter().filter(|r| r.refused > 0 && r.throttle_ms == 0).count();
        if zero > 0 {
            notes.push_str(&format!(
                " {zero} refusal{} carried throttle_time_ms 0 (a throttle past Java's int range, or one over by the time the response was sent), so the Admin client retried at once.",
                if zero == 1 { "" } else { "s" }
            ));
        }
        let max = self.throttle_max_ms();
        if self.mode == "permissive" && max > 0 {
            notes.push_str(&format!(
                " Permissive mode refuses nothing, but the responses throttled the connection for up to {} ms.",
                super::estimate::grouped(u64::try_from(max).unwrap_or(0))
            ));
        }
        if usize::try_from(done).unwrap_or(0) == n {
            return format!(
                "All {n} topic{} {verb} in {} ms{retried}.{notes}",
                if n == 1 { "" } else { "s" },
                super::estimate::grouped(self.duration_ms().round().max(0.0) as u64)
            );
        }
        let mut parts = vec![format!("{done} of {n} topics {verb}")];
        let q = self.count(TopicOutcome::QuotaExceeded);
        if q > 0 {
            parts.push(format!("{q} failed with ThrottlingQuotaExceededException"));
        }
        let t = self.count(TopicOutcome::TimedOut);
        if t > 0 {
            parts.push(format!("{t} failed with TimeoutException"));
        }
        let p = self.count(TopicOutcome::Pending);
        if p > 0 {
            parts.push(format!("{p} still pending when the run stopped"));
        }
        format!("{}{retried}.{notes}", parts.join("; "))
    }
}

/// One Admin call attempt, with its topics as indexes into the track.
#[derive(Debug, Clone)]
struct Call {
    call: u32,
    attempt: u32,
    topics: Vec<u32>,
    /// The call's deadline (µs).
    deadline: i64,
    /// When this attempt was made (µs).
    created: i64,
    /// For a retry: the throttle time of the response that refused its
    /// topics (ms), which a `ThrottlingQuotaExceededException` at the
    /// deadline carries, less the time since.
    refused_throttle: Option<i64>,
}

/// A request sent: its call, its row, and the topics the controller refused.
#[derive(Debug, Clone)]
struct Sent {
    call: Call,
    row: AdminRequest,
    refused: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// Scenario event `i` (a `set_quota`); first at equal times.
    Scenario { i: usize },
    /// The application makes call `k` of workload `w`.
    AppCall { w: usize, k: u32 },
    /// Request `r` of workload `w` reaches the controller.
    Arrive { w: usize, r: usize },
    /// The response to request `r` reaches the client.
    Answer { w: usize, r: usize },
    /// Workload `w`'s deadlines are checked.
    Deadline { w: usize },
    /// Workload `w`'s connection may be able to send.
    Ready { w: usize },
}

struct Client {
    spec: AdminWorkload,
    session: Session,
    kind: MutationRequest,
    version: i16,
    /// The client throttles its connection itself (KIP-219 versions); else
    /// the broker mutes the channel from when it sends the response.
    client_throttles: bool,
    /// Earliest send, once connected (µs).
    connected_at: i64,
    throttle_until: i64,
    in_flight: Option<usize>,
    queue: VecDeque<Call>,
    sent: Vec<Sent>,
    topics: Vec<AdminTopic>,
}

type Queue = BinaryHeap<Reverse<(i64, u64, Ev)>>;

/// The controller's clock at the run's 0 ms: Kafka's `Time.milliseconds()`
/// is the epoch clock, so a new token bucket (`tokens` 0 as of 0 ms) is
/// full at its first read; the same start as `kafka-quota sensor`'s
/// `--clock-start-ms`.
pub const CONTROLLER_CLOCK_START_MS: i64 = 1_700_000_000_000;

/// Runs every admin workload of `scenario` against one controller built from
/// `cluster`'s quotas, applying the scenario's `set_quota` events; returns
/// one [`AdminTrack`] per admin workload, in the scenario's order (none
/// when it has no admin workload). Times are µs inside, ms in the tracks.
///
/// # Errors
///
/// [`Error`] when a connection is unknown, its principal cannot be derived
/// or the broker settings are out of range (all checked by
/// [`Scenario::validate`](crate::sim::Scenario::validate) first: the
/// `Valid` that `simulate` takes).
pub fn run(scenario: &Scenario, cluster: &Cluster) -> Result<Vec<AdminTrack>, Error> {
    let admins: Vec<&AdminWorkload> = scenario
        .workloads
        .iter()
        .filter_map(|w| match w {
            Workload::Admin(a) => Some(a),
            _ => None,
        })
        .collect();
    if admins.is_empty() {
        return Ok(Vec::new());
    }
    let mut controller = Broker::new(
        scenario.brokers.count,
        scenario.brokers.settings.clone(),
        cluster.managers(),
        cluster.ip_quotas(),
    )?;
    let latency = i64::try_from(scenario.environment.link.latency_us).unwrap_or(1_000_000);
    let commit = whole_us(scenario.environment.broker.controller_commit_us);
    let horizon = ms_to_us(scenario.horizon_ms.min(super::HORIZON_CAP_MS));
    let mut clients = Vec::new();
    let mut heads = Vec::new();
    for spec in admins {
        let Some((index, conn)) = scenario.connections.iter().enumerate().find(|(_, c)| c.name == spec.connection) else {
            return Err(Error::invalid_scenario(super::validate::unknown_connection(&spec.connection)));
        };
        let principal = cluster.principal(index, &conn.name)?;
        let session = controller.session(&principal.name, &conn.client_id);
        let kind = match spec.operation {
            AdminOperation::CreateTopics => MutationRequest::CreateTopics,
            AdminOperation::CreatePartitions => MutationRequest::CreatePartitions,
            AdminOperation::DeleteTopics => MutationRequest::DeleteTopics,
        };
        let version = spec.version();
        let handshake_rtts = match conn.listener {
            ListenerKind::Plaintext | ListenerKind::Ssl => 1,
            ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => 3,
        };
        heads.push(match controller.controller_mutation_budget(&session) {
            Some((bound, tags)) => {
                let w = controller.window();
                let burst = w.samples() as f64 * (w.window_ms() as f64 / 1000.0) * bound;
                (Some(bound), Some(burst), tags.to_string())
            }
            None => (None, None, String::new()),
        });
        let topics = (0..spec.topics)
            .map(|i| AdminTopic {
                name: format!("{}-{i}", spec.topic_prefix),
                outcome: TopicOutcome::Pending,
                at_ms: 0.0,
                throttle_ms: 0,
                attempts: 0,
            })
            .collect();
        clients.push(Client {
            spec: spec.clone(),
            session,
            kind,
            version,
            client_throttles: version >= spec.operation.client_throttles_since(),
            connected_at: ms_to_us(spec.start_ms) + handshake_rtts * 2 * latency,
            throttle_until: 0,
            in_flight: None,
            queue: VecDeque::new(),
            sent: Vec::new(),
            topics,
        });
    }
    let mut q: Queue = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |q: &mut Queue, at: i64, ev: Ev| {
        q.push(Reverse((at, seq, ev)));
        seq += 1;
    };
    for i in super::validate::event_order(&scenario.events) {
        if let ScenarioEvent::SetQuota { key: QuotaKey::ControllerMutationRate, .. } = &scenario.events[i] {
            push(&mut q, ms_to_us(scenario.events[i].at_ms()), Ev::Scenario { i });
        }
    }
    for (w, c) in clients.iter().enumerate() {
        let calls = c.spec.topics.div_ceil(c.spec.per_call());
        for k in 0..calls {
            let at = c.spec.start_ms.saturating_add(u64::from(k).saturating_mul(c.spec.call_interval_ms));
            push(&mut q, ms_to_us(at), Ev::AppCall { w, k });
        }
    }
    let mut now = 0i64;
    let mut stopped = false;
    // Per client: the quota at the start, then after each change.
    let mut quota_changes: Vec<Vec<(f64, Option<f64>)>> = heads.iter().map(|(q, _, _)| vec![(0.0, *q)]).collect();
    while let Some(Reverse((at, _, ev))) = q.pop() {
        if at > horizon {
            stopped = true;
            break;
        }
        now = at;
        match ev {
            Ev::Scenario { i } => {
                if let ScenarioEvent::SetQuota { entity, key, value, .. } = &scenario.events[i] {
                    // Checked by the scenario's validation; a refusal leaves the quota as it was.
                    let _ = controller.update_quota(entity, *key, *value);
                    for (c, changes) in clients.iter().zip(quota_changes.iter_mut()) {
                        let now_q = controller.controller_mutation_budget(&c.session).map(|(b, _)| b);
                        if changes.last().is_none_or(|(_, q): &(f64, Option<f64>)| *q != now_q) {
                            changes.push((us_to_ms(now), now_q));
                        }
                    }
                }
            }
            Ev::AppCall { w, k } => {
                let c = &mut clients[w];
                let per = c.spec.per_call();
                let from = k.saturating_mul(per);
                let to = from.saturating_add(per).min(c.spec.topics);
                let deadline = now.saturating_add(ms_to_us(c.spec.config.api_timeout_ms()));
                c.queue.push_back(Call {
                    call: k,
                    attempt: 1,
                    topics: (from..to).collect(),
                    deadline,
                    created: now,
                    refused_throttle: None,
                });
                // Expired once the remaining time is below zero
                // (`TimeoutProcessor.callHasExpired`): the next ms.
                push(&mut q, deadline.saturating_add(1000), Ev::Deadline { w });
                push(&mut q, now, Ev::Ready { w });
            }
            Ev::Ready { w } => {
                let c = &mut clients[w];
                if c.in_flight.is_some() || c.queue.is_empty() {
                    continue;
                }
                let ready_at = c.connected_at.max(c.throttle_until);
                if now < ready_at {
                    push(&mut q, ready_at, Ev::Ready { w });
                    continue;
                }
                let Some(call) = c.queue.pop_front() else { continue };
                for t in &call.topics {
                    if let Some(topic) = c.topics.get_mut(*t as usize) {
                        topic.attempts += 1;
                    }
                }
                let row = AdminRequest {
                    call: call.call,
                    attempt: call.attempt,
                    sent_ms: us_to_ms(now),
                    handled_ms: 0.0,
                    answered_ms: 0.0,
                    topics: u32::try_from(call.topics.len()).unwrap_or(u32::MAX),
                    accepted: 0,
                    refused: 0,
                    tokens_before: None,
                    tokens_after: None,
                    throttle_ms: 0,
                };
                c.sent.push(Sent { call, row, refused: Vec::new() });
                let r = c.sent.len() - 1;
                c.in_flight = Some(r);
                // Client -> broker, then broker -> controller (forwarded).
                push(&mut q, now.saturating_add(latency.saturating_mul(2)), Ev::Arrive { w, r });
            }
            Ev::Arrive { w, r } => {
                let c = &mut clients[w];
                let at_ms = now.div_euclid(1000);
                let last_throttle = decide(&mut controller, c, r, CONTROLLER_CLOCK_START_MS + at_ms);
                let sent = &mut c.sent[r];
                let send = now + if sent.row.accepted > 0 { commit } else { 0 };
                // ControllerMutationQuota.throttleTime(), read when the
                // response is sent: the last throttle less the time since.
                sent.row.throttle_ms = match last_throttle {
                    Some(t) => (t - (send.div_euclid(1000) - at_ms)).max(0),
                    None => 0,
                };
                sent.row.handled_ms = at_ms as f64;
                push(&mut q, send.saturating_add(latency.saturating_mul(2)), Ev::Answer { w, r });
            }
            Ev::Answer { w, r } => {
                let c = &mut clients[w];
                if c.in_flight == Some(r) {
                    c.in_flight = None;
                }
                let retry = c.spec.retry_on_quota_violation;
                let sent = &mut c.sent[r];
                sent.row.answered_ms = us_to_ms(now);
                let throttle_ms = sent.row.throttle_ms;
                let call = sent.call.clone();
                let refused: std::collections::BTreeSet<u32> = sent.refused.iter().copied().collect();
                if throttle_ms > 0 {
                    // The client's own wait (NetworkClient.maybeThrottle), or
                    // the broker's mute from when it sent the response.
                    let from = if c.client_throttles { now } else { now - latency };
                    c.throttle_until = c.throttle_until.max(from + throttle_ms * 1000);
                }
                let expired = call.deadline < now;
                for t in &call.topics {
                    let Some(topic) = c.topics.get_mut(*t as usize) else { continue };
                    if topic.outcome != TopicOutcome::Pending {
                        continue;
                    }
                    if refused.contains(t) {
                        if retry && !expired {
                            continue;
                        }
                        topic.outcome = TopicOutcome::QuotaExceeded;
                        topic.throttle_ms = throttle_ms;
                    } else {
                        topic.outcome = TopicOutcome::Done;
                    }
                    topic.at_ms = us_to_ms(now);
                }
                // The request's row is all that is kept of it from now on.
                if let Some(sent) = c.sent.get_mut(r) {
                    sent.call.topics = Vec::new();
                    sent.refused = Vec::new();
                }
                if retry && !expired && !refused.is_empty() {
                    c.queue.push_back(Call {
                        call: call.call,
                        attempt: call.attempt + 1,
                        topics: refused.into_iter().collect(),
                        deadline: call.deadline,
                        created: now,
                        refused_throttle: Some(throttle_ms),
                    });
                }
                push(&mut q, now, Ev::Ready { w });
            }
            Ev::Deadline { w } => {
                let c = &mut clients[w];
                // Calls waiting to be sent, and the one in flight, whose
                // deadline has passed (KafkaAdminClient's TimeoutProcessor:
                // `timeoutPendingCalls`, `timeoutCallsToSend`,
                // `timeoutCallsInFlight`, which disconnects).
                let mut expired: Vec<Call> = Vec::new();
                c.queue.retain(|call| {
                    let gone = call.deadline < now;
                    if gone {
                        expired.push(call.clone());
                    }
                    !gone
                });
                if let Some(r) = c.in_flight {
                    if c.sent[r].call.deadline < now {
                        expired.push(c.sent[r].call.clone());
                        c.in_flight = None;
                        push(&mut q, now, Ev::Ready { w });
                    }
                }
                for call in expired {
                    for t in &call.topics {
                        let Some(topic) = c.topics.get_mut(*t as usize) else { continue };
                        if topic.outcome != TopicOutcome::Pending {
                            continue;
                        }
                        topic.at_ms = us_to_ms(now);
                        match call.refused_throttle {
                            // maybeCompleteQuotaExceededException
                            Some(th) => {
                                topic.outcome = TopicOutcome::QuotaExceeded;
                                let since_ms = (now - call.created).div_euclid(1000);
                                topic.throttle_ms = (th - since_ms).max(0);
                            }
                            None => topic.outcome = TopicOutcome::TimedOut,
                        }
                    }
                }
            }
        }
    }
    let end_of_run = if stopped { horizon } else { now };
    let mut tracks = Vec::new();
    for ((c, (quota, burst, budget)), mut changes) in clients.into_iter().zip(heads).zip(quota_changes) {
        // The first entry is the start's quota, already in `quota`.
        changes.remove(0);
        let spec = scenario.connections.iter().find(|s| s.name == c.spec.connection);
        let mut topics = c.topics;
        for t in topics.iter_mut().filter(|t| t.outcome == TopicOutcome::Pending) {
            t.at_ms = us_to_ms(end_of_run);
        }
        let end_ms = topics.iter().map(|t| t.at_ms).fold(0.0, f64::max);
        tracks.push(AdminTrack {
            name: c.spec.connection.clone(),
            client_id: spec.map(|s| s.client_id.clone()).unwrap_or_default(),
            principal: format!("User:{}", c.session.principal_name),
            method: c.spec.operation.method().to_owned(),
            request: format!("{} v{}", c.spec.operation.request_name(), c.version),
            mode: match c.kind.mode(c.version) {
                MutationMode::Strict => "strict",
                MutationMode::Permissive => "permissive",
            }
            .to_owned(),
            partitions: c.spec.partitions,
            quota,
            burst,
            budget,
            requests: c.sent.into_iter().map(|s| s.row).collect(),
            topics,
            start_ms: c.spec.start_ms as f64,
            end_ms,
            quota_changes: changes,
        });
    }
    Ok(tracks)
}

/// The controller's decision on each topic of request `r` of `c` at
/// `at_ms`, in the request's order (`applyPartitionChangeQuota` per topic);
/// fills the request's row and refused topics, and returns the last
/// throttle time computed (ms), if any.
fn decide(controller: &mut Broker, c: &mut Client, r: usize, at_ms: i64) -> Option<i64> {
    let before = controller.controller_mutation_tokens(&c.session, at_ms);
    let mut last_throttle = None;
    let mut after = before;
    let topics = c.sent[r].call.topics.clone();
    let mut accepted = 0;
    let mut refused = Vec::new();
    for (i, t) in topics.iter().copied().enumerate() {
        if !refused.is_empty() && c.kind.mode(c.version) == MutationMode::Strict {
            // Strict: the check that refused a topic leaves the bucket and
            // the clock as they were, so every later topic of the request
            // is refused the same way (StrictControllerMutationQuota.record
            // throws before it records).
            refused.extend_from_slice(&topics[i..]);
            break;
        }
        let d = controller.controller_mutation(&c.session, c.kind, c.version, at_ms, c.spec.partitions);
        if let Some(a) = d.admission {
            after = Some(a.tokens());
            if a.throttle_ms() > 0 {
                last_throttle = Some(a.throttle_ms());
            }
        }
        if d.error.is_some() {
            refused.push(t);
        } else {
            accepted += 1;
        }
    }
    let sent = &mut c.sent[r];
    sent.row.accepted = accepted;
    sent.row.refused = u32::try_from(refused.len()).unwrap_or(u32::MAX);
    sent.row.tokens_before = before;
    sent.row.tokens_after = after;
    sent.refused = refused;
    last_throttle
}

fn us_to_ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

fn ms_to_us(ms: u64) -> i64 {
    i64::try_from(ms.min(i64::MAX as u64 / 1000)).unwrap_or(0) * 1000
}

fn whole_us(us: f64) -> i64 {
    if us.is_finite() && us > 0.0 {
        us.min(1e15).round() as i64
    } else {
        0
    }
}
