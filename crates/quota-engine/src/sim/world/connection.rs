//! The link between a client and a broker: connecting (with per-IP
//! connection-rate throttling and handshake round trips), each direction
//! serialising at the link bandwidth plus the one-way latency, sending a
//! request, and disconnecting on `request.timeout.ms`.
//!
//! Kafka: `NetworkClient` (`initiateConnect`, `handleDisconnections`,
//! `handleTimedOutRequests`), clients/src/main/java/org/apache/kafka/clients/NetworkClient.java;
//! the broker side of connection-rate quotas, `ConnectionQuotas`,
//! core/src/main/scala/kafka/network/SocketServer.scala.

use std::collections::VecDeque;

use super::broker::{Req, ReqKind};
use super::ids::{len_u32, BrokerId, ClientId, ConnectionId, RequestId, TrackId};
use super::{Ev, Role, World};
use crate::broker::Session;
use crate::sim::scenario::{ClientThrottling, ConnectionSpec};
use crate::sim::time::{count_f64, SimSpan, SimTime};
use crate::sim::timeline::{ClientThrottle, Span};

/// `reconnect.backoff.ms` default.
///
/// Kafka: `CommonClientConfigs.DEFAULT_RECONNECT_BACKOFF_MS`.
const RECONNECT_BACKOFF: SimSpan = SimSpan::from_ms(50);

/// One client's connection to one broker: the client's view (ready,
/// in-flight requests, KIP-219 throttle) and the broker's channel (the
/// queue of arrived requests, muted while one is in progress).
pub(super) struct Conn {
    pub(super) client: ClientId,
    pub(super) broker: BrokerId,
    pub(super) session: Session,
    /// The client honours `throttle_time_ms` itself (KIP-219).
    pub(super) kip219: bool,
    ip: String,
    /// Round trips before the connection is usable (TCP, plus SASL).
    handshake_rtts: u64,
    /// When the client-to-broker direction is free again.
    up_free: SimTime,
    /// When the broker-to-client direction is free again.
    down_free: SimTime,
    pub(super) ready: bool,
    pub(super) connecting: bool,
    /// Bumped on every disconnect; events of an older epoch are stale.
    pub(super) epoch: u32,
    pub(super) in_flight: Vec<RequestId>,
    pub(super) throttled_until: SimTime,
    /// Requests arrived at the broker, not yet started.
    pub(super) queue: VecDeque<RequestId>,
    /// A request is in progress (the channel is muted).
    pub(super) busy: bool,
    /// The sensor tracks of this connection's produce, fetch and request quotas.
    pub(super) tracks: [Option<TrackId>; 3],
}

impl Conn {
    pub(super) fn new(
        client: ClientId,
        broker: BrokerId,
        session: Session,
        spec: &ConnectionSpec,
        handshake_rtts: u64,
        tracks: [Option<TrackId>; 3],
    ) -> Self {
        Conn {
            client,
            broker,
            session,
            kip219: spec.client_throttling == ClientThrottling::Kip219,
            ip: spec.ip.clone(),
            handshake_rtts,
            up_free: SimTime::ZERO,
            down_free: SimTime::ZERO,
            ready: false,
            connecting: false,
            epoch: 0,
            in_flight: Vec::new(),
            throttled_until: SimTime::ZERO,
            queue: VecDeque::new(),
            busy: false,
            tracks,
        }
    }

    /// Requests sent and not yet answered.
    pub(super) fn in_flight_count(&self) -> u32 {
        len_u32(self.in_flight.len())
    }
}

impl World {
    /// How long `bytes` take on the wire at the link bandwidth.
    fn serialisation(&self, bytes: u64) -> SimSpan {
        SimSpan::from_ns_f64_rounded(count_f64(bytes) * 1e9 / self.bw)
    }

    pub(super) fn begin_connect(&mut self, c: ConnectionId, at: SimTime) {
        self.conns[c].connecting = true;
        self.schedule(at + self.latency, Ev::ConnectAttempt(c));
    }

    pub(super) fn connect_attempt(&mut self, c: ConnectionId) {
        if self.client_stopped(self.conns[c].client) {
            return;
        }
        let (broker, ip, rtts, epoch) = {
            let conn = &self.conns[c];
            (conn.broker, conn.ip.clone(), conn.handshake_rtts, conn.epoch)
        };
        let adm = self.brokers[broker].core.accept_connection(&ip, self.now.as_ms());
        if adm.is_throttled() {
            let delay = SimSpan::from_throttle_ms(adm.throttle_ms());
            let client = self.conns[c].client;
            self.clients[client].mutes.push(Span {
                from_ms: self.now.as_ms_f64(),
                to_ms: (self.now + delay).as_ms_f64(),
            });
            // The broker closes the refused socket after the throttle; the
            // client sees the close a latency later and backs off.
            self.begin_connect(c, self.now + delay + self.latency + RECONNECT_BACKOFF);
        } else {
            let ready = self.now + self.latency + self.latency * (rtts * 2);
            self.schedule(ready, Ev::ConnReady(c, epoch));
        }
    }

    pub(super) fn conn_ready(&mut self, c: ConnectionId, epoch: u32) {
        if self.conns[c].epoch == epoch {
            let conn = &mut self.conns[c];
            conn.ready = true;
            conn.connecting = false;
            let client = conn.client;
            self.poll_client(client);
        }
    }

    /// Client to broker: returns when the last byte arrives.
    fn transfer_up(&mut self, c: ConnectionId, bytes: u64) -> SimTime {
        let dur = self.serialisation(bytes);
        let now = self.now;
        let conn = &mut self.conns[c];
        let start = conn.up_free.max(now);
        conn.up_free = start + dur;
        conn.up_free + self.latency
    }

    /// Broker to client: returns when the last byte leaves and when it arrives.
    pub(super) fn transfer_down(&mut self, c: ConnectionId, bytes: u64) -> (SimTime, SimTime) {
        let dur = self.serialisation(bytes);
        let now = self.now;
        let conn = &mut self.conns[c];
        let start = conn.down_free.max(now);
        conn.down_free = start + dur;
        (conn.down_free, conn.down_free + self.latency)
    }

    /// Sends a request of `bytes` on `c`; unless it is an `acks=0` produce,
    /// it is in flight until answered or `request_timeout_ms` passes.
    pub(super) fn send_request(
        &mut self,
        c: ConnectionId,
        bytes: u64,
        kind: ReqKind,
        request_timeout_ms: u64,
    ) -> RequestId {
        let epoch = self.conns[c].epoch;
        let acks0 = matches!(kind, ReqKind::Produce { acks0: true, .. });
        let r = self.reqs.push(Req::new(c, epoch, bytes, kind));
        let arrive = self.transfer_up(c, bytes);
        self.schedule(arrive, Ev::RequestArrive(r));
        if !acks0 {
            self.conns[c].in_flight.push(r);
            self.schedule(
                self.now + SimSpan::from_ms(request_timeout_ms),
                Ev::RequestTimeout(r),
            );
        }
        r
    }

    /// Closes `c`: in-flight requests fail (a producer retries or expires
    /// their batches), and the client reconnects after the backoff.
    pub(super) fn disconnect(&mut self, c: ConnectionId) {
        let conn = &mut self.conns[c];
        conn.epoch += 1;
        conn.ready = false;
        conn.busy = false;
        conn.queue.clear();
        let failed = std::mem::take(&mut conn.in_flight);
        let client = conn.client;
        for r in failed.iter().rev() {
            self.reqs[*r].done = true;
            match self.clients[client].role {
                Role::Producer(p) => {
                    let batches = self.reqs[*r].produce_batches();
                    for b in batches.into_iter().rev() {
                        self.retry_or_fail(p, b);
                    }
                }
                Role::Consumer(ci) => self.consumers[ci].fetch_done(c),
            }
        }
        self.begin_connect(c, self.now + RECONNECT_BACKOFF);
    }
}

impl World {
    /// A response reaches the client: the request leaves the in-flight
    /// list, a KIP-219 client stops sending on this connection for the
    /// throttle time, and the producer or consumer takes the result.
    ///
    /// Kafka: `NetworkClient.handleCompletedReceives` and `maybeThrottle`.
    pub(super) fn response_arrive(&mut self, r: RequestId) {
        let c = self.reqs[r].conn;
        if self.reqs[r].done || self.conns[c].epoch != self.reqs[r].epoch {
            return;
        }
        self.reqs[r].done = true;
        let throttle = self.reqs[r].throttle_ms;
        let now = self.now;
        let conn = &mut self.conns[c];
        if let Some(i) = conn.in_flight.iter().position(|x| *x == r) {
            conn.in_flight.remove(i);
        }
        // Kafka: NetworkClient.maybeThrottle (KIP-219 clients only).
        if throttle > 0 && conn.kip219 {
            conn.throttled_until = conn
                .throttled_until
                .max(now + SimSpan::from_throttle_ms(throttle));
        }
        let client = conn.client;
        let broker = conn.broker;
        self.clients[client].track_throttles.push(ClientThrottle {
            at_ms: now.as_ms_f64(),
            broker: broker.0,
            throttle_ms: throttle,
        });
        match self.clients[client].role {
            Role::Producer(p) => self.producer_response(p, r),
            Role::Consumer(ci) => self.consumer_response(ci, r),
        }
    }
}
