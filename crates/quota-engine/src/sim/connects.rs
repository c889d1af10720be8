//! Clients opening connections under `connection_creation_rate` (per IP)
//! and `max.connection.creation.rate` (broker-wide), KIP-612.
//!
//! What is modelled, and where Kafka 4.3.1 does it
//! (core/src/main/scala/kafka/network/SocketServer.scala unless named):
//! - The acceptor of the broker's listener takes one new connection after
//!   another (`Acceptor.acceptNewConnections` → `accept` →
//!   `ConnectionQuotas.inc`). First the broker-wide rate:
//!   `waitForConnectionSlot` records the connection on the broker sensor
//!   and, when that exceeds `max.connection.creation.rate`, the acceptor
//!   waits the throttle time (at most `quota.window.size.seconds`) before it
//!   goes on: this connection and every one behind it are delayed, none is
//!   closed. Then the per-IP rate: `recordIpConnectionMaybeThrottle`
//!   records the connection on its IP's sensor; over
//!   `connection_creation_rate` it un-records it (and from the broker
//!   sensor, `updateListenerMetrics`) and throws
//!   `ConnectionThrottledException`: the acceptor keeps the socket, unread,
//!   as a `DelayedCloseSocket` until its throttle time has passed, and
//!   closes it in `closeThrottledConnections`, which runs once per acceptor
//!   loop: after the connections a `select` returned, or after the
//!   `select`'s 500 ms timeout (`nioSelector.select(500)`), so a close can
//!   come up to 500 ms after the throttle ends when nothing else connects.
//! - The client (`NetworkClient`, `ClusterConnectionStates`,
//!   clients/src/main/java/org/apache/kafka/clients/): its TCP connection
//!   completes (the kernel accepts it), it sends `ApiVersions` and gets no
//!   answer; when the broker closes the socket, the client sees a
//!   disconnect and may connect again `reconnectBackoffMs` after it:
//!   `ExponentialBackoff(reconnect.backoff.ms, 2, reconnect.backoff.max.ms,
//!   0.2).backoff(failedAttempts)` (clients/src/main/java/org/apache/kafka/common/utils/ExponentialBackoff.java),
//!   `failedAttempts` counting up until a connection is ready
//!   (`updateReconnectBackoff`, `resetReconnectBackoff`). The jitter is
//!   drawn from the scenario's seed.
//!
//! A connection accepted is ready after the handshake round trips (TCP, and
//! SASL's) and `ApiVersions`. Left out: `max.connections` /
//! `max.connections.per.ip` (counts, not rates), the per-listener
//! `listener.name.<l>.max.connection.creation.rate`, and the network and
//! processor threads after the acceptor.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use crate::broker::Broker;
use crate::cluster::Cluster;
use crate::sim::rng::SplitMix64;
use crate::entity::QuotaKey;
use crate::scenario::{ConnectPattern, ConnectsWorkload, ListenerKind, Scenario, ScenarioEvent, Workload};
use crate::Error;

/// The most attempt rows a track keeps (its counts cover every attempt).
pub const CONNECT_ATTEMPTS_CAP: usize = 20_000;

/// The most connection attempts one run makes, over every connects
/// workload; a run that reaches it stops there (a refusing quota with no
/// backoff would otherwise reconnect until the horizon).
pub const CONNECT_ATTEMPTS_MAX: u64 = 2_000_000;

/// The acceptor's `select` timeout (ms): `Acceptor.acceptNewConnections`,
/// `nioSelector.select(500)`.
pub const ACCEPTOR_SELECT_MS: i64 = 500;

/// One connection attempt as the broker decided it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectAttempt {
    /// The client (0-based; a `reopen` workload's cycle).
    pub client: u32,
    /// 1 for the client's first attempt.
    pub attempt: u32,
    /// The client started connecting (ms).
    pub sent_ms: f64,
    /// The acceptor took it (ms; Kafka's whole-ms clock).
    pub accepted_ms: f64,
    /// The acceptor's wait for `max.connection.creation.rate` before it (ms).
    pub acceptor_wait_ms: i64,
    /// The per-IP throttle (ms, at most one quota window); 0 when accepted.
    pub throttle_ms: i64,
    /// A throttled connection: when the broker closed it (ms).
    pub closed_ms: Option<f64>,
    /// An accepted connection: when it was ready for requests (ms).
    pub ready_ms: Option<f64>,
}

/// How one client fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectClient {
    /// When its connection was ready (ms); `None` when the run ended first.
    pub ready_ms: Option<f64>,
    /// Its connection attempts.
    pub attempts: u32,
    /// How many of them the per-IP quota refused.
    pub throttled: u32,
}

/// One connects workload's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectsTrack {
    /// The connection's name.
    pub name: String,
    /// The address the connections come from.
    pub ip: String,
    /// `pool`, `storm` or `reopen`.
    pub pattern: String,
    /// Connections (`pool`, `storm`) or cycles (`reopen`) asked for.
    pub count: u32,
    /// The broker connected to.
    pub broker: u32,
    /// The `connection_creation_rate` that applied to `ip` (connections/s;
    /// Kafka's `Int`), `None` when none.
    pub ip_quota: Option<f64>,
    /// The quota entity it came from, e.g. `ips/10.0.0.9` or `ips/<default>`.
    pub ip_entity: Option<String>,
    /// `max.connection.creation.rate`, `None` when unlimited.
    pub broker_rate: Option<i32>,
    /// The attempts, in the order the acceptor took them (at most
    /// [`CONNECT_ATTEMPTS_CAP`]).
    pub attempts: Vec<ConnectAttempt>,
    /// Every attempt, kept or not.
    pub attempts_total: u64,
    /// The acceptor's waits for `max.connection.creation.rate`: how many
    /// attempts waited, and the total wait (ms), over every attempt.
    pub acceptor_waits: u64,
    /// See [`ConnectsTrack::acceptor_wait_total_ms`].
    pub acceptor_wait_ms: i64,
    /// The run stopped at [`CONNECT_ATTEMPTS_MAX`] attempts, before its
    /// horizon.
    pub attempts_cap_hit: bool,
    /// Per client, in order (a `reopen` track: per cycle made).
    pub clients: Vec<ConnectClient>,
    /// Every client's connection was ready (every cycle done) before the
    /// run's horizon.
    pub finished: bool,
    /// The first connection (ms).
    pub start_ms: f64,
    /// When the last client was ready, or the horizon (ms).
    pub end_ms: f64,
}

impl ConnectsTrack {
    /// Attempts the per-IP quota refused (throttled, then closed).
    pub fn throttled_total(&self) -> u64 {
        self.clients.iter().map(|c| u64::from(c.throttled)).sum()
    }

    /// The acceptor's total wait for `max.connection.creation.rate` over
    /// every attempt (ms).
    pub fn acceptor_wait_total_ms(&self) -> i64 {
        self.acceptor_wait_ms
    }

    /// The limits in one sentence, e.g. `connection_creation_rate 2 on
    /// ips/10.0.0.9; max.connection.creation.rate unlimited`.
    pub fn limits_sentence(&self) -> String {
        let ip = match (&self.ip_entity, self.ip_quota) {
            (Some(e), Some(q)) => format!("connection_creation_rate {} on {e}", q as i64),
            _ => format!("no connection_creation_rate applies to {}", self.ip),
        };
        let broker = self
            .broker_rate
            .map_or_else(|| "max.connection.creation.rate unlimited".to_owned(), |r| format!("max.connection.creation.rate {r}"));
        format!("{ip}; {broker}")
    }

    /// Clients whose connection was ready.
    pub fn ready(&self) -> usize {
        self.clients.iter().filter(|c| c.ready_ms.is_some()).count()
    }

    /// One sentence: what the clients saw, e.g. `All 50 connections were
    /// ready by 9,812 ms; 40 were refused at first by
    /// connection_creation_rate=10 on ips/127.0.0.1 (held, then closed),
    /// 123 refusals in all, up to 6 attempts for one connection.`
    pub fn summary(&self) -> String {
        let n = self.count;
        let ready = self.ready();
        let what = if self.pattern == "reopen" { "open-send-close cycles" } else { "connections" };
        let mut s = if self.finished {
            format!(
                "All {n} {what} were ready by {} ms",
                super::estimate::grouped(self.end_ms.round().max(0.0) as u64)
            )
        } else {
            format!("{ready} of {n} {what} were ready when the run stopped at {} ms", super::estimate::grouped(self.end_ms.round().max(0.0) as u64))
        };
        let refused_first = self.clients.iter().filter(|c| c.throttled > 0).count();
        let total = self.throttled_total();
        if total > 0 {
            let quota = match (&self.ip_entity, self.ip_quota) {
                (Some(e), Some(q)) => format!(" by connection_creation_rate={} on {e}", q as i64),
                _ => String::new(),
            };
            let most = self.clients.iter().map(|c| c.attempts).max().unwrap_or(0);
            s.push_str(&format!(
                "; {refused_first} {} refused{quota} (held for the throttle time, then closed, and reconnected after reconnect.backoff.ms), {total} refusal{} in all, up to {most} attempts for one",
                if refused_first == 1 { "was" } else { "were" },
                if total == 1 { "" } else { "s" }
            ));
        } else {
            s.push_str("; none was refused");
        }
        let wait = self.acceptor_wait_total_ms();
        if wait > 0 {
            let delayed = self.acceptor_waits;
            s.push_str(&format!(
                "; the acceptor waited {} ms in all before {delayed} of them for max.connection.creation.rate",
                super::estimate::grouped(u64::try_from(wait).unwrap_or(0))
            ));
        }
        if self.attempts_cap_hit {
            s.push_str(&format!(
                "; the simulator stopped the run at {} ms after {} connection attempts, its limit",
                super::estimate::grouped(self.end_ms.round().max(0.0) as u64),
                super::estimate::grouped(CONNECT_ATTEMPTS_MAX)
            ));
        }
        s.push('.');
        s
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// Workload `w`'s client `k` connects (its attempt reaches the broker a
    /// latency later).
    Connect { w: usize, k: u32 },
    /// That attempt reaches broker's acceptor.
    Arrive { w: usize, k: u32 },
    /// The acceptor's `select` timed out (generation `gen` of broker `b`).
    AcceptorTimeout { b: u32, gen: u64 },
    /// The client sees its throttled connection closed.
    Closed { w: usize, k: u32 },
    /// A `reopen` client's request is answered: it closes and waits.
    Sent { w: usize, k: u32 },
    /// Scenario event `i` (a `set_quota` of `connection_creation_rate`).
    Quota { i: usize },
}

struct Client {
    failed: u32,
    attempts: u32,
    throttled: u32,
    ready_us: Option<i64>,
    sent_us: i64,
}

struct Run {
    spec: ConnectsWorkload,
    ip: String,
    rtts: i64,
    clients: Vec<Client>,
    rows: Vec<ConnectAttempt>,
    total: u64,
    waits: u64,
    wait_ms: i64,
}

/// A socket the acceptor holds: (end of its throttle in ms, workload,
/// client, its attempt row when kept).
type Held = (i64, usize, u32, Option<usize>);

/// One broker's acceptor: when it is next free, its loop's last wake, and
/// the throttled sockets it holds (end of throttle in ms, workload, client).
#[derive(Default)]
struct Acceptor {
    free_us: i64,
    gen: u64,
    /// Soonest end first: (end of throttle in ms, workload, client, its
    /// attempt row when kept).
    held: BinaryHeap<Reverse<Held>>,
}

type Queue = BinaryHeap<Reverse<(i64, u64, Ev)>>;

/// The client's wait before it connects again after `failed` failures
/// (ms): Kafka's `ExponentialBackoff.backoff` with multiplier 2 and jitter
/// 0.2 (`NetworkClient`'s `RECONNECT_BACKOFF_EXP_BASE`, `RECONNECT_BACKOFF_JITTER`).
pub fn reconnect_backoff_ms(initial: u64, max: u64, failed: u32, rng: &mut SplitMix64) -> u64 {
    let initial = initial.min(max);
    let exp_max = if max > initial {
        (max as f64 / initial.max(1) as f64).ln() / 2f64.ln()
    } else {
        0.0
    };
    if exp_max == 0.0 {
        return initial;
    }
    let exp = f64::from(failed).min(exp_max);
    let term = initial as f64 * 2f64.powf(exp);
    let factor = 1.0 + 0.2 * (2.0 * rng.next_f64() - 1.0);
    ((factor * term) as u64).min(max)
}

/// Runs every connects workload of `scenario` against its brokers' acceptors
/// built from `cluster`'s quotas; one [`ConnectsTrack`] per workload, in
/// the scenario's order. Times are µs inside, ms in the tracks.
///
/// # Errors
///
/// [`Error`] when a connection is unknown or the broker settings are out of
/// range (checked by [`Scenario::validate`](crate::sim::Scenario::validate)
/// first: the `Valid` that `simulate` takes).
pub fn run(scenario: &Scenario, cluster: &Cluster) -> Result<Vec<ConnectsTrack>, Error> {
    let specs: Vec<&ConnectsWorkload> = scenario
        .workloads
        .iter()
        .filter_map(|w| match w {
            Workload::Connects(c) => Some(c),
            _ => None,
        })
        .collect();
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let mut brokers = Vec::new();
    for id in 0..scenario.brokers.count.max(1) {
        brokers.push(Broker::new(id, scenario.brokers.settings.clone(), cluster.managers(), cluster.ip_quotas())?);
    }
    let mut acceptors: Vec<Acceptor> = (0..brokers.len()).map(|_| Acceptor::default()).collect();
    let latency = i64::try_from(scenario.environment.link.latency_us).unwrap_or(1_000_000);
    let pass = {
        let us = scenario.environment.broker.accept_us;
        if us.is_finite() && us > 0.0 { us.min(1e9).round() as i64 } else { 0 }
    };
    let horizon = ms_to_us(scenario.horizon_ms.min(super::HORIZON_CAP_MS));
    // Its own stream, so adding connects workloads leaves the rest of a run unchanged.
    let mut rng = SplitMix64::new(scenario.seed ^ 0x6b69_7036_3132);
    let mut runs = Vec::new();
    let mut q: Queue = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |q: &mut Queue, at: i64, ev: Ev| {
        q.push(Reverse((at, seq, ev)));
        seq += 1;
    };
    // First at equal times. ConnectionQuotas.updateIpConnectionRateQuota: the per-IP limit (and
    // the bound of the live sensors) changes at once on every broker.
    for i in super::validate::event_order(&scenario.events) {
        if let ScenarioEvent::SetQuota { key: QuotaKey::ConnectionCreationRate, at_ms, .. } = &scenario.events[i] {
            push(&mut q, ms_to_us(*at_ms), Ev::Quota { i });
        }
    }
    for (w, spec) in specs.iter().enumerate() {
        let Some(conn) = scenario.connections.iter().find(|c| c.name == spec.connection) else {
            return Err(Error::invalid_scenario(super::validate::unknown_connection(&spec.connection)));
        };
        let rtts = match conn.listener {
            ListenerKind::Plaintext | ListenerKind::Ssl => 1,
            ListenerKind::SaslPlaintext | ListenerKind::SaslSsl => 3,
        };
        let n = match spec.pattern {
            ConnectPattern::Reopen => 1,
            ConnectPattern::Pool | ConnectPattern::Storm => spec.count,
        };
        let start = ms_to_us(spec.start_ms);
        let mut clients = Vec::new();
        for k in 0..n {
            let at = match spec.pattern {
                ConnectPattern::Pool => start.saturating_add(ms_to_us(spec.interval_ms.saturating_mul(u64::from(k)))),
                ConnectPattern::Reopen => start,
                // Dropped from READY: backoff(0), then failedAttempts is 1.
                ConnectPattern::Storm => {
                    start
                        + ms_to_us(reconnect_backoff_ms(
                            spec.config.reconnect_backoff_ms,
                            spec.config.reconnect_backoff_max_ms,
                            0,
                            &mut rng,
                        ))
                }
            };
            push(&mut q, at, Ev::Connect { w, k });
            clients.push(Client {
                failed: u32::from(spec.pattern == ConnectPattern::Storm),
                attempts: 0,
                throttled: 0,
                ready_us: None,
                sent_us: 0,
            });
        }
        runs.push(Run { spec: (*spec).clone(), ip: conn.ip.as_str().to_owned(), rtts, clients, rows: Vec::new(), total: 0, waits: 0, wait_ms: 0 });
    }
    let mut attempts = 0u64;
    let mut cap_hit = false;
    let mut now = 0i64;
    let mut stopped = false;
    while let Some(Reverse((at, _, ev))) = q.pop() {
        if at > horizon {
            stopped = true;
            break;
        }
        now = at;
        match ev {
            Ev::Quota { i } => {
                if let ScenarioEvent::SetQuota { entity, key, value, .. } = &scenario.events[i] {
                    for b in &mut brokers {
                        // Checked by the scenario's validation; a refusal leaves the quota.
                        let _ = b.update_quota(entity, *key, *value);
                    }
                }
            }
            Ev::Connect { w, k } => {
                attempts += 1;
                if attempts > CONNECT_ATTEMPTS_MAX {
                    cap_hit = true;
                    stopped = true;
                    break;
                }
                let c = &mut runs[w].clients[k as usize];
                c.attempts += 1;
                c.sent_us = now;
                push(&mut q, now.saturating_add(latency), Ev::Arrive { w, k });
            }
            Ev::Arrive { w, k } => {
                let b = runs[w].spec.broker as usize;
                let (Some(broker), Some(acc)) = (brokers.get_mut(b), acceptors.get_mut(b)) else { continue };
                let start = now.max(acc.free_us);
                if start > horizon {
                    // Still in the acceptor's backlog when the run stops.
                    stopped = true;
                    continue;
                }
                let wait_ms = broker.broker_connection_wait_ms(start.div_euclid(1000) + super::admin::CONTROLLER_CLOCK_START_MS);
                let accepted = start + wait_ms * 1000;
                // The pass takes its time; the next connection waits for it.
                let pass_end = accepted + pass;
                acc.free_us = pass_end;
                let at_ms = accepted.div_euclid(1000);
                let adm = broker.accept_connection(&runs[w].ip, super::admin::CONTROLLER_CLOCK_START_MS + at_ms);
                let throttle_ms = if adm.is_throttled() { adm.throttle_ms() } else { 0 };
                let run = &mut runs[w];
                if throttle_ms > 0 {
                    broker.unrecord_broker_connection(super::admin::CONTROLLER_CLOCK_START_MS + at_ms);
                    let row = (run.rows.len() < CONNECT_ATTEMPTS_CAP).then_some(run.rows.len());
                    acc.held.push(Reverse((at_ms + throttle_ms, w, k, row)));
                }
                let c = &mut run.clients[k as usize];
                let ready_us = (throttle_ms == 0).then(|| pass_end.saturating_add(latency.saturating_mul(1 + 2 * run.rtts)));
                if throttle_ms > 0 {
                    c.throttled += 1;
                } else if let Some(r) = ready_us {
                    c.ready_us.get_or_insert(r);
                    c.failed = 0;
                    if run.spec.pattern == ConnectPattern::Reopen {
                        // One request and its answer, then close.
                        push(&mut q, r.saturating_add(latency.saturating_mul(2)), Ev::Sent { w, k });
                    }
                }
                run.total += 1;
                if wait_ms > 0 {
                    run.waits += 1;
                    run.wait_ms = run.wait_ms.saturating_add(wait_ms);
                }
                if run.rows.len() < CONNECT_ATTEMPTS_CAP {
                    run.rows.push(ConnectAttempt {
                        client: k,
                        attempt: c.attempts,
                        sent_ms: us_to_ms(c.sent_us),
                        accepted_ms: at_ms as f64,
                        acceptor_wait_ms: wait_ms,
                        throttle_ms,
                        closed_ms: None,
                        ready_ms: ready_us.map(us_to_ms),
                    });
                }
                // The acceptor's loop: this wake closes what is due, and
                // its next select times out 500 ms later.
                wake(&mut acceptors[b], b, pass_end, latency, &mut runs, &mut q, &mut push);
            }
            Ev::AcceptorTimeout { b, gen } => {
                let Some(acc) = acceptors.get_mut(b as usize) else { continue };
                if acc.gen != gen {
                    continue;
                }
                wake(acc, b as usize, now, latency, &mut runs, &mut q, &mut push);
            }
            Ev::Closed { w, k } => {
                let run = &mut runs[w];
                let spec = &run.spec;
                let c = &mut run.clients[k as usize];
                let backoff = reconnect_backoff_ms(
                    spec.config.reconnect_backoff_ms,
                    spec.config.reconnect_backoff_max_ms,
                    c.failed,
                    &mut rng,
                );
                c.failed += 1;
                push(&mut q, now.saturating_add(ms_to_us(backoff)), Ev::Connect { w, k });
            }
            Ev::Sent { w, .. } => {
                let run = &mut runs[w];
                let done = u32::try_from(run.clients.len()).unwrap_or(u32::MAX);
                if done < run.spec.count {
                    // The next cycle is another client of the track.
                    run.clients.push(Client { failed: 0, attempts: 0, throttled: 0, ready_us: None, sent_us: 0 });
                    let next = now.saturating_add(ms_to_us(run.spec.interval_ms));
                    push(&mut q, next, Ev::Connect { w, k: done });
                }
            }
        }
    }
    let end_run = if cap_hit { now } else if stopped { horizon } else { now };
    let mut tracks = Vec::new();
    for (run, spec) in runs.into_iter().zip(specs) {
        let b = spec.broker as usize;
        let (ip_quota, ip_entity) = match brokers.get(b).and_then(|br| br.connection_quota_for_ip(&run.ip)) {
            Some((entity, v)) => (Some(f64::from(v as i32)), Some(entity.path())),
            None => (None, None),
        };
        let broker_rate = scenario.brokers.settings.max_connection_creation_rate;
        let clients: Vec<ConnectClient> = run
            .clients
            .iter()
            .map(|c| ConnectClient {
                // Ready only within the run.
                ready_ms: c.ready_us.filter(|r| *r <= horizon).map(us_to_ms),
                attempts: c.attempts,
                throttled: c.throttled,
            })
            .collect();
        let all_ready = clients.len() as u64 >= u64::from(spec.count) && clients.iter().all(|c| c.ready_ms.is_some());
        let end_ms = if all_ready {
            clients.iter().filter_map(|c| c.ready_ms).fold(0.0, f64::max)
        } else {
            us_to_ms(end_run)
        };
        tracks.push(ConnectsTrack {
            name: spec.connection.clone(),
            ip: run.ip,
            pattern: match spec.pattern {
                ConnectPattern::Pool => "pool",
                ConnectPattern::Storm => "storm",
                ConnectPattern::Reopen => "reopen",
            }
            .to_owned(),
            count: spec.count,
            broker: spec.broker,
            ip_quota,
            ip_entity,
            broker_rate: (broker_rate != i32::MAX).then_some(broker_rate),
            attempts: run.rows,
            attempts_total: run.total,
            acceptor_waits: run.waits,
            acceptor_wait_ms: run.wait_ms,
            attempts_cap_hit: cap_hit,
            clients,
            finished: all_ready,
            start_ms: spec.start_ms as f64,
            end_ms,
        });
    }
    Ok(tracks)
}

/// One pass of broker `b`'s acceptor loop at `now`: the held sockets whose
/// throttle has ended are closed (`closeThrottledConnections`: end < now,
/// whole ms), and the next `select` times out 500 ms later while any is held.
fn wake(
    acc: &mut Acceptor,
    b: usize,
    now: i64,
    latency: i64,
    runs: &mut [Run],
    q: &mut Queue,
    push: &mut impl FnMut(&mut Queue, i64, Ev),
) {
    let now_ms = now.div_euclid(1000);
    while let Some(Reverse((end_ms, w, k, row))) = acc.held.peek().copied() {
        if end_ms >= now_ms {
            break;
        }
        acc.held.pop();
        if let Some(r) = row.and_then(|i| runs.get_mut(w).and_then(|run| run.rows.get_mut(i))) {
            r.closed_ms = Some(us_to_ms(now));
        }
        // The client sees the close a latency later.
        push(q, now.saturating_add(latency), Ev::Closed { w, k });
    }
    acc.gen += 1;
    if !acc.held.is_empty() {
        push(q, now + ACCEPTOR_SELECT_MS * 1000, Ev::AcceptorTimeout { b: b as u32, gen: acc.gen });
    }
}

fn us_to_ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

fn ms_to_us(ms: u64) -> i64 {
    i64::try_from(ms.min(i64::MAX as u64 / 1000)).unwrap_or(0) * 1000
}
