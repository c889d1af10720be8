//! The link between a client and a broker: connecting (with per-IP
//! connection-rate throttling and handshake round trips), each direction
//! serialising at the link bandwidth plus the one-way latency, sending a
//! request through the socket buffers (flow control), and disconnecting on
//! `request.timeout.ms`.
//!
//! Flow control, coarsened to whole requests: a request is written into the
//! client's send buffer (`send.buffer.bytes`, S) and goes on the wire once
//! the broker's receive window (`socket.receive.buffer.bytes`, R) has room
//! for it (or holds nothing unread); the broker frees the window when it
//! reads a request, which it does not while the channel is muted. So at
//! most about S + R bytes are written and unread; a request that does not
//! fit stays unwritten, its send is incomplete, and the client sends nothing
//! else on that connection (Kafka: `InFlightRequests.canSendMore` needs the
//! last send completed) while its batches hold `buffer.memory`.
//!
//! Kafka: `NetworkClient` (`initiateConnect`, `handleDisconnections`,
//! `handleTimedOutRequests`, `handleCompletedSends`), clients/src/main/java/org/apache/kafka/clients/NetworkClient.java;
//! `InFlightRequests.canSendMore`; `Selector` / `KafkaChannel` (one send at
//! a time, a muted channel is not read),
//! clients/src/main/java/org/apache/kafka/common/network/; the broker side
//! of connection-rate quotas, `ConnectionQuotas`,
//! core/src/main/scala/kafka/network/SocketServer.scala.

use std::collections::VecDeque;

use super::broker::{Req, ReqKind};
use super::ids::{len_u32, BrokerId, ClientId, ConnectionId, RequestId, TrackId};
use super::{Ev, Role, World};
use crate::broker::Session;
use crate::scenario::{ClientThrottling, ConnectionSpec};
use crate::sim::time::{count_f64, SimSpan, SimTime};
use crate::sim::timeline::{RequestWait, Span};

/// The client-to-broker byte path of one connection (flow control), in
/// whole requests.
pub(super) struct UpPath {
    /// The client's `send.buffer.bytes`, S.
    send_buffer: u64,
    /// The broker's `socket.receive.buffer.bytes`, R.
    receive_buffer: u64,
    /// Written (or being written) into the send buffer, not yet on the
    /// wire, oldest first.
    queued: VecDeque<RequestId>,
    /// Bytes of `queued`.
    queued_bytes: u64,
    /// The request whose send is incomplete (at most one, the newest).
    pub(super) writing: Option<RequestId>,
    /// Bytes on the wire or in the broker's receive buffer, not yet read.
    window_bytes: u64,
}

impl UpPath {
    /// An empty path with the client's `send.buffer.bytes` and the
    /// broker's `socket.receive.buffer.bytes` (each at least 1 byte).
    pub(super) fn new(send_buffer: u64, receive_buffer: u64) -> Self {
        UpPath {
            send_buffer: send_buffer.max(1),
            receive_buffer: receive_buffer.max(1),
            queued: VecDeque::new(),
            queued_bytes: 0,
            writing: None,
            window_bytes: 0,
        }
    }

    /// Bytes written by the client and not yet read by the broker.
    fn unread_bytes(&self) -> u64 {
        self.queued_bytes + self.window_bytes
    }

    fn clear(&mut self) {
        self.queued.clear();
        self.queued_bytes = 0;
        self.writing = None;
        self.window_bytes = 0;
    }
}

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
    /// How the client reacts to `throttle_time_ms`.
    pub(super) throttling: ClientThrottling,
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
    /// The broker's throttle mutes of this channel, from and to, oldest
    /// first, that may still overlap an unread request's wait (older ones
    /// are dropped as requests are read; all on a disconnect).
    pub(super) mutes: Vec<(SimTime, SimTime)>,
    /// Requests sent on this channel (this epoch) that the broker has not
    /// read yet, oldest first: their waits are counted when read, or when
    /// the connection drops them.
    pub(super) unread: VecDeque<RequestId>,
    /// Client to broker: socket buffers and the receive window.
    pub(super) up: UpPath,
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
        up: UpPath,
    ) -> Self {
        Conn {
            client,
            broker,
            session,
            throttling: spec.client_throttling,
            ip: spec.ip.as_str().to_owned(),
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
            mutes: Vec::new(),
            unread: VecDeque::new(),
            up,
            tracks,
        }
    }

    /// The client may hand a new request to this connection: connected,
    /// the last send complete, and fewer than `max_in_flight` in flight.
    ///
    /// Kafka: `NetworkClient.canSendRequest`, `InFlightRequests.canSendMore`.
    pub(super) fn can_send(&self, max_in_flight: u32) -> bool {
        self.ready && self.up.writing.is_none() && self.in_flight_count() < max_in_flight
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
            super::recording::push_span(&mut self.clients[client].mutes, Span {
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

    /// Sends a request of `bytes` on `c`: it is written into the socket as
    /// far as the buffers allow and is in flight until answered (an `acks=0`
    /// produce: until its send completes) or `request_timeout_ms` passes.
    /// The caller checks [`Conn::can_send`] first and, for `acks=0`, reads
    /// [`Req::written_at`] to learn whether the send completed at once.
    pub(super) fn send_request(
        &mut self,
        c: ConnectionId,
        bytes: u64,
        kind: ReqKind,
        request_timeout_ms: u64,
    ) -> RequestId {
        let epoch = self.conns[c].epoch;
        let mut req = Req::new(c, epoch, bytes, kind);
        req.sent_at = self.now;
        let r = self.reqs.insert(req);
        let conn = &mut self.conns[c];
        conn.in_flight.push(r);
        conn.unread.push_back(r);
        conn.up.queued.push_back(r);
        conn.up.queued_bytes += bytes;
        conn.up.writing = Some(r);
        let client = conn.client;
        let unread = conn.up.unread_bytes();
        let waits = &mut self.clients[client].waits;
        waits.unread_bytes_max = waits.unread_bytes_max.max(unread);
        self.schedule(
            self.now + SimSpan::from_ms(request_timeout_ms),
            Ev::RequestTimeout(r),
        );
        self.pump(c, false);
        r
    }

    /// Moves requests from the send buffer onto the wire while the broker's
    /// receive window has room (a request larger than the window goes when
    /// nothing is unread ahead of it, as the broker then reads it as it
    /// streams), then completes the incomplete send if it now fits in the
    /// send buffer. `notify`: tell the client (its sender may go on); false
    /// when called from [`World::send_request`], whose caller goes on itself.
    ///
    /// Kafka: TCP flow control under `Selector.write` / `KafkaChannel.write`;
    /// `NetworkClient.handleCompletedSends` (an `acks=0` request is done
    /// when its send completes).
    pub(super) fn pump(&mut self, c: ConnectionId, notify: bool) {
        loop {
            let up = &self.conns[c].up;
            let Some(&r) = up.queued.front() else { break };
            let bytes = self.reqs[r].bytes();
            if up.window_bytes > 0 && up.window_bytes + bytes > up.receive_buffer {
                break;
            }
            let up = &mut self.conns[c].up;
            up.queued.pop_front();
            up.queued_bytes -= bytes;
            up.window_bytes += bytes;
            let arrive = self.transfer_up(c, bytes);
            self.schedule(arrive, Ev::RequestArrive(r));
        }
        let up = &self.conns[c].up;
        let Some(w) = up.writing else { return };
        let on_wire = up.queued.back() != Some(&w);
        if !(on_wire || up.queued_bytes <= up.send_buffer) {
            return;
        }
        self.conns[c].up.writing = None;
        self.reqs[w].written_at = Some(self.now);
        if self.reqs[w].is_acks0() {
            // No response is expected: done once written.
            self.reqs[w].done = true;
            let conn = &mut self.conns[c];
            if let Some(i) = conn.in_flight.iter().position(|x| *x == w) {
                conn.in_flight.remove(i);
            }
        }
        if notify {
            let client = self.conns[c].client;
            if let Role::Producer(p) = self.clients[client].role {
                if self.reqs[w].is_acks0() {
                    self.producer_written(p, w);
                    return;
                }
            }
            self.poll_client(client);
        }
    }

    /// The broker reads request `r` from `c`'s socket: its bytes leave the
    /// receive window, and where it waited is added to the client's totals.
    pub(super) fn read_request(&mut self, c: ConnectionId, r: RequestId) {
        let bytes = self.reqs[r].bytes();
        let conn = &mut self.conns[c];
        conn.up.window_bytes = conn.up.window_bytes.saturating_sub(bytes);
        if let Some(i) = conn.unread.iter().position(|x| *x == r) {
            conn.unread.remove(i);
        }
        self.count_waits(c, r);
        // Later requests arrive no earlier than this one: mutes that ended
        // before it arrived overlap none of their waits.
        let arrived = self.reqs[r].arrived_at.unwrap_or(self.now);
        self.conns[c].mutes.retain(|(_, to)| *to > arrived);
        self.pump(c, true);
    }

    /// Adds where request `r` on `c` waited until now to its client's
    /// [`crate::sim::RequestWaits`]: at the client until written, in the
    /// buffers and on the wire until its last byte arrived (or until now if
    /// it never did), and from arrival until now muted (its overlap with
    /// every throttle mute of the channel) or queued behind an earlier
    /// request (the rest).
    fn count_waits(&mut self, c: ConnectionId, r: RequestId) {
        let now = self.now;
        let conn = &self.conns[c];
        let client = conn.client;
        let req = &self.reqs[r];
        let written = req.written_at.unwrap_or(now).min(now);
        let arrived = req.arrived_at.unwrap_or(now).min(now);
        let queued = now.saturating_since(arrived);
        // The mutes do not overlap one another (a channel is muted again
        // only after it was unmuted); clamp each to the previous one's end
        // all the same, so no instant counts twice.
        let mut muted = SimSpan::ZERO;
        let mut covered = arrived;
        for &(m0, m1) in &conn.mutes {
            let from = m0.max(covered);
            let to = m1.min(now);
            if to > from {
                muted += to.saturating_since(from);
                covered = to;
            }
        }
        let muted = SimSpan::from_ns(muted.as_ns().min(queued.as_ns()));
        let one = RequestWait {
            at_client_ms: written.saturating_since(req.sent_at).as_ms_f64(),
            in_buffers_ms: arrived.saturating_since(written).as_ms_f64(),
            broker_queue_ms: SimSpan::from_ns(queued.as_ns().saturating_sub(muted.as_ns()))
                .as_ms_f64(),
            muted_ms: muted.as_ms_f64(),
        };
        self.reqs[r].waits = Some(one);
        let waits = &mut self.clients[client].waits;
        waits.requests += 1;
        waits.at_client_ms += one.at_client_ms;
        waits.in_buffers_ms += one.in_buffers_ms;
        waits.muted_ms += one.muted_ms;
        waits.broker_queue_ms += one.broker_queue_ms;
    }

    /// The connection drops its unread requests (a disconnect or a close):
    /// their waits until now are counted (they failed with the connection,
    /// see [`crate::sim::RequestWaits::requests`]), and the channel's mutes
    /// are forgotten (a new connection is a new channel).
    pub(super) fn drop_unread(&mut self, c: ConnectionId) {
        let unread = std::mem::take(&mut self.conns[c].unread);
        for r in unread {
            self.count_waits(c, r);
        }
        self.conns[c].mutes.clear();
    }

    /// Closes `c`: in-flight requests fail (a producer retries or expires
    /// their batches), and the client reconnects after the backoff.
    pub(super) fn disconnect(&mut self, c: ConnectionId) {
        self.drop_unread(c);
        let conn = &mut self.conns[c];
        conn.epoch += 1;
        conn.ready = false;
        conn.busy = false;
        // Requests the broker had read off the socket but not started, and
        // those still in the client's send buffer: nothing more happens to
        // them once the producer has taken their batches back.
        let dropped: Vec<RequestId> = conn.queue.drain(..).chain(conn.up.queued.iter().copied()).collect();
        conn.up.clear();
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
        for r in dropped {
            self.retire(r);
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
            // Its connection closed since: dropped.
            self.retire(r);
            return;
        }
        self.reqs[r].done = true;
        self.reqs[r].response_at = Some(self.now);
        self.take_response(r);
        self.retire(r);
    }

    /// The client takes the response to `r` (see [`World::response_arrive`]).
    fn take_response(&mut self, r: RequestId) {
        let c = self.reqs[r].conn;
        let throttle = self.reqs[r].throttle_ms;
        let now = self.now;
        let conn = &mut self.conns[c];
        if let Some(i) = conn.in_flight.iter().position(|x| *x == r) {
            conn.in_flight.remove(i);
        }
        // Kafka: NetworkClient.maybeThrottle (KIP-219 clients only).
        let mut backoff = SimSpan::ZERO;
        if throttle > 0 && conn.throttling.backs_off() {
            let until = now + SimSpan::from_throttle_ms(throttle);
            backoff = until.saturating_since(conn.throttled_until.max(now));
            conn.throttled_until = conn.throttled_until.max(until);
        }
        let client = conn.client;
        self.clients[client].waits.backoff_ms += backoff.as_ms_f64();
        let broker = conn.broker;
        let info = &mut self.clients[client];
        let point = info.throttle_tally.response(now.as_ms_f64(), broker.0, throttle);
        info.track_throttles.push(point);
        match self.clients[client].role {
            Role::Producer(p) => self.producer_response(p, r),
            Role::Consumer(ci) => self.consumer_response(ci, r),
        }
    }
}
