//! The cluster over time: the scenario's events (`move_leader`,
//! `set_quota`), clients stopping at their `stop_ms`, and the bytes each
//! client and budget moved per broker (for [`ClusterTotals`]).
//!
//! Kafka: leadership moves reach clients through `NOT_LEADER_OR_FOLLOWER`
//! and a metadata refresh (clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java,
//! clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractFetch.java);
//! quota alterations reach every broker's `ClientQuotaManager.updateQuota`
//! through `ClientQuotaMetadataManager` (core/src/main/scala/kafka/server/metadata/ClientQuotaMetadataManager.scala).

use std::collections::BTreeMap;

use super::ids::{BrokerId, ClientId, ConnectionId, PartitionId, RequestId, TrackId};
use super::recording::QuotaSlot;
use super::{Role, World};
use crate::entity::{QuotaEntity, QuotaKey};
use crate::scenario::ScenarioEvent;
use crate::sim::timeline::{
    BudgetTotals, BufferPoint, ClientStop, ClientTotals, ClusterTotals, EventMarker, MarkerKind,
};

/// The brokers `events` make leader of a partition of `topic`.
pub(super) fn later_leaders(events: &[ScenarioEvent], topic: &str) -> Vec<BrokerId> {
    events
        .iter()
        .filter_map(|e| match e {
            ScenarioEvent::MoveLeader {
                topic: t,
                to_broker,
                ..
            } if t == topic => Some(BrokerId(*to_broker)),
            _ => None,
        })
        .collect()
}

impl World {
    /// The partitions `client` produces to or reads.
    fn client_slots(&self, client: ClientId) -> &[PartitionId] {
        match self.clients[client].role {
            Role::Producer(p) => &self.producers[p].slots,
            Role::Consumer(c) => &self.consumers[c].slots,
        }
    }

    /// Whether `broker` leads one of `client`'s partitions now.
    pub(super) fn leads_for_client(&self, client: ClientId, broker: BrokerId) -> bool {
        self.client_slots(client)
            .iter()
            .any(|s| self.partitions[*s].leader == broker)
    }

    /// Whether `client` stopped at its `stop_ms`.
    pub(super) fn client_stopped(&self, client: ClientId) -> bool {
        self.clients[client].stop.is_some()
    }

    /// Counts `bytes` the broker recorded for `c` on its `slot` quota (the
    /// produce request size, or the fetch response's returned bytes).
    pub(super) fn count_bytes(&mut self, c: ConnectionId, slot: QuotaSlot, bytes: u64) {
        let conn = &self.conns[c];
        *self
            .client_bytes
            .entry((conn.client, conn.broker))
            .or_insert(0) += bytes;
        if let Some(t) = conn.tracks[slot.index()] {
            *self.track_bytes.entry(t).or_insert(0) += bytes;
        }
    }

    /// `events[i]` happens now.
    pub(super) fn scenario_event(&mut self, i: u32) {
        let Some(event) = self.scenario_events.get(i as usize).cloned() else {
            return;
        };
        match event {
            ScenarioEvent::MoveLeader {
                topic,
                partition,
                to_broker,
                ..
            } => self.move_leader(&topic, partition, BrokerId(to_broker)),
            ScenarioEvent::SetQuota {
                entity, key, value, ..
            } => self.set_quota(&entity, key, value),
        }
    }

    fn marker(&mut self, kind: MarkerKind, text: String) {
        self.markers.push(EventMarker {
            at_ms: self.now.as_ms_f64(),
            kind,
            text,
        });
    }

    /// Leadership of `topic`'s `partition` moves to `to`: from now on the
    /// clients send and fetch it there (their metadata is refreshed at once,
    /// a simplification: Kafka's clients find out from a
    /// `NOT_LEADER_OR_FOLLOWER` error or a periodic refresh); requests
    /// already sent to the old leader complete there.
    fn move_leader(&mut self, topic: &str, partition: u32, to: BrokerId) {
        let Some(&slot) = self
            .topic_slots
            .get(topic)
            .and_then(|s| s.get(partition as usize))
        else {
            return;
        };
        let from = self.partitions[slot].leader;
        self.partitions[slot].leader = to;
        self.marker(
            MarkerKind::MoveLeader,
            format!(
                "Partition {topic}-{partition} moves from broker {} to broker {}: new produce and fetch requests for it go to broker {}.",
                from.0, to.0, to.0
            ),
        );
        let n = self.clients.iter().count();
        for i in 0..n {
            let client = ClientId(super::ids::len_u32(i));
            if !self.client_stopped(client) && self.client_slots(client).contains(&slot) {
                // The connection to a broker that leads one of its
                // partitions for the first time gets its sensor tracks.
                let first = self.clients[client]
                    .conns
                    .iter()
                    .copied()
                    .find(|c| self.conns[*c].broker == to && self.conns[*c].tracks == [None; 3]);
                if let Some(c) = first {
                    self.reopen_session(c);
                }
                self.poll_client(client);
            }
        }
    }

    /// A quota alteration reaches every broker at once: sensors keep their
    /// samples and take the new bound (recorded as a bound change on their
    /// track), and every open connection looks its budgets up again, as
    /// Kafka does on each request (a stopped client's are closed and skipped).
    fn set_quota(&mut self, entity: &QuotaEntity, key: QuotaKey, value: Option<f64>) {
        let before = self.track_bounds();
        for b in self.brokers.iter_mut() {
            // The store validated the alteration (Scenario::validate).
            let _ = b.core.update_quota(entity, key, value);
        }
        let at_ms = self.now.as_ms();
        self.note_bound_changes(&before, crate::sim::time::ms_f64(at_ms));
        let n = self.conns.iter().count();
        for i in 0..n {
            let c = ConnectionId(super::ids::len_u32(i));
            // A stopped client's connections are closed for good: no session
            // to look up, and no (empty) sensor track for a budget it never
            // draws on.
            if !self.client_stopped(self.conns[c].client) {
                self.reopen_session(c);
            }
        }
        let text = match value {
            Some(v) => format!(
                "{} {}={} is set on every broker.",
                entity.path(),
                key.as_str(),
                crate::java_double_to_string(v)
            ),
            None => format!(
                "{} {} is removed on every broker.",
                entity.path(),
                key.as_str()
            ),
        };
        self.marker(MarkerKind::SetQuota, text);
    }

    /// Looks `c`'s budgets up again on its broker and points its tracks at
    /// them (creating tracks for new sensors).
    fn reopen_session(&mut self, c: ConnectionId) {
        let (broker, client) = (self.conns[c].broker, self.conns[c].client);
        let (principal, client_id) = {
            let s = &self.conns[c].session;
            (s.principal_name.clone(), s.client_id.clone())
        };
        let session = self.brokers[broker].core.session(&principal, &client_id);
        let role = self.clients[client].role;
        let mut tracks = [None; 3];
        for slot in QuotaSlot::ALL {
            let relevant = !matches!(
                (slot, role),
                (QuotaSlot::Produce, Role::Consumer(_)) | (QuotaSlot::Fetch, Role::Producer(_))
            );
            if let (Some(sid), true) = (slot.sensor(&session), relevant) {
                tracks[slot.index()] = Some(self.track_for(broker, slot, sid, client));
            }
        }
        let conn = &mut self.conns[c];
        conn.session = session;
        conn.tracks = tracks;
    }

    /// `client` reaches its `stop_ms`: the application stops sending or
    /// fetching and closes its connections (in-flight requests are
    /// abandoned, nothing is retried). A producer is closed with
    /// `close(Duration.ZERO)`: its buffered and in-flight records fail with
    /// `KafkaException: Producer is closed forcefully.` (see
    /// `Producer::stop`), and the records it had not yet passed to `send()`
    /// are [`ClientStop::records_left`], not errors. A consumer loses
    /// nothing: the records of its target it had not consumed are
    /// [`ClientStop::records_left`]. A client that already finished is left
    /// as it is.
    pub(super) fn client_stop(&mut self, client: ClientId) {
        let now = self.now;
        let mut aborted = None;
        let left = match self.clients[client].role {
            Role::Producer(p) => {
                if self.producers[p].finish.is_some() {
                    return;
                }
                let (left, lost, blocked) = self.producers[p].stop(now);
                if let Some(span) = blocked {
                    super::recording::push_span(&mut self.clients[client].blocked, span);
                }
                // The aborted batches' memory returns to the pool.
                self.clients[client].buffer.push(BufferPoint {
                    at_ms: now.as_ms_f64(),
                    used_bytes: 0,
                });
                aborted = Some(lost);
                left
            }
            Role::Consumer(ci) => {
                let co = &mut self.consumers[ci];
                if co.finish.is_some() {
                    return;
                }
                co.stopped = Some(now);
                co.target - co.consumed
            }
        };
        self.clients[client].stop = Some(ClientStop {
            at_ms: now.as_ms_f64(),
            records_left: left,
        });
        let conns = self.clients[client].conns.clone();
        for c in conns {
            self.close(c);
        }
        self.unfinished -= 1;
        let name = self.clients[client].name.clone();
        let text = match aborted {
            Some(lost) => format!(
                "Client '{name}' stops: close(Duration.ZERO) aborts {lost} records buffered or in flight (KafkaException: Producer is closed forcefully.); {left} records were not sent."
            ),
            None => format!("Client '{name}' stops and closes with {left} records not done."),
        };
        self.marker(MarkerKind::ClientStop, text);
    }

    /// Closes `c` for good: nothing in flight completes, no reconnect (the
    /// waits of requests the broker had not read are counted).
    fn close(&mut self, c: ConnectionId) {
        self.drop_unread(c);
        let conn = &mut self.conns[c];
        conn.epoch += 1;
        conn.ready = false;
        conn.connecting = false;
        conn.busy = false;
        // Read off the socket, not started: nothing more happens to them.
        let dropped: Vec<RequestId> = conn.queue.drain(..).collect();
        for r in std::mem::take(&mut conn.in_flight) {
            self.reqs[r].done = true;
        }
        for r in dropped {
            self.retire(r);
        }
    }

    /// The cluster-wide totals of the run.
    pub(super) fn cluster_totals(&self) -> ClusterTotals {
        let brokers = super::ids::len_u32(self.brokers.iter().count());
        let by_broker = |f: &dyn Fn(BrokerId) -> u64| -> Vec<u64> {
            (0..brokers).map(|b| f(BrokerId(b))).collect()
        };
        let clients = self
            .clients
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let client = ClientId(super::ids::len_u32(i));
                let bytes_by_broker =
                    by_broker(&|b| self.client_bytes.get(&(client, b)).copied().unwrap_or(0));
                ClientTotals {
                    client: client.0,
                    name: info.name.clone(),
                    kind: info.kind(),
                    bytes: bytes_by_broker.iter().sum(),
                    bytes_by_broker,
                }
            })
            .collect();
        let mut budgets: Vec<BudgetTotals> = Vec::new();
        let mut index = BTreeMap::new();
        for (t, track) in self.tracks.iter().enumerate() {
            let qt = track.quota_type;
            if qt != crate::entity::QuotaType::Produce && qt != crate::entity::QuotaType::Fetch {
                continue;
            }
            let k = *index
                .entry((qt.slot(), track.tags.clone()))
                .or_insert_with(|| {
                    budgets.push(BudgetTotals {
                        quota_type: qt,
                        tags: track.tags.clone(),
                        mbean: track.mbean.clone(),
                        sensors: Vec::new(),
                        bytes_by_broker: vec![0; brokers as usize],
                        bytes: 0,
                    });
                    budgets.len() - 1
                });
            let t32 = super::ids::len_u32(t);
            let bytes = self.track_bytes.get(&TrackId(t32)).copied().unwrap_or(0);
            let b = &mut budgets[k];
            b.sensors.push(t32);
            if let Some(slot) = b.bytes_by_broker.get_mut(track.broker as usize) {
                *slot += bytes;
            }
            b.bytes += bytes;
        }
        ClusterTotals {
            brokers,
            clients,
            budgets,
        }
    }
}
