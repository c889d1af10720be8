//! Edits of the cluster and of the run's time line (topics, partition
//! leaders, scenario events, client start and stop times, client kind,
//! `acks`), each checked by the engine before it is made.
//!
//! An edit is refused when it adds a problem [`Scenario::validate`] reports
//! (a leader on a broker that does not exist, an event past the horizon, a
//! `stop_ms` not after `start_ms`, a quota Kafka refuses, ...): the editor
//! shows that problem's message with its path beside the field and keeps
//! what the user typed. Problems the scenario already had before the edit
//! do not block it, even when the edit renumbers them (removing `topics[1]`
//! makes `topics[2]` `topics[1]`) or renames the topic they name, so a
//! scenario that is invalid for another reason can still be repaired one
//! field at a time.

use quota_engine::sim::{Acks, ClientThrottling, ProblemPath, Scenario, ScenarioEvent, ScenarioProblem, TopicSpec, Workload};
use std::collections::BTreeSet;

use quota_engine::{ConfigType, EntityName, QuotaEntity, QuotaKey};

/// One edit of the cluster or of the run's time line.
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterEdit {
    /// Add a topic (`topic-N`, one partition, leaders round robin).
    AddTopic,
    /// Rename topic `index`; the workloads and events naming it follow.
    RenameTopic {
        /// Index into `topics`.
        index: u32,
        /// The new name.
        name: String,
    },
    /// Set topic `index`'s partition count; explicit leaders are kept for
    /// the partitions that remain, and new partitions get the round-robin
    /// leader (partition `p` on broker `p mod brokers`).
    SetPartitions {
        /// Index into `topics`.
        index: u32,
        /// The partition count (at least 1).
        partitions: u32,
    },
    /// Partition `partition` of topic `topic` is led by `broker` (the
    /// topic's leaders become explicit, the others keep their leader).
    SetLeader {
        /// Index into `topics`.
        topic: u32,
        /// The partition.
        partition: u32,
        /// Its leader's broker id.
        broker: u32,
    },
    /// Topic `index`'s leaders go back to round robin (`leaders` absent).
    RoundRobin(u32),
    /// Remove topic `index` (refused while a workload or event names it).
    RemoveTopic(u32),
    /// Add an event with a default that makes sense for the scenario:
    /// a `move_leader` of partition 0 of the first topic to the next
    /// broker, or a `set_quota` halving the first quota; at 5 s.
    AddEvent {
        /// `true` for `move_leader`, `false` for `set_quota`.
        move_leader: bool,
    },
    /// Replace event `index`.
    SetEvent {
        /// Index into `events`.
        index: u32,
        /// The new event.
        event: ScenarioEvent,
    },
    /// Remove event `index`.
    RemoveEvent(u32),
    /// Workload `index` starts at `start_ms`.
    SetStart {
        /// Index into `workloads`.
        index: u32,
        /// Start (ms).
        start_ms: u64,
    },
    /// Workload `index` stops at `stop_ms` (`None`: runs to the end).
    SetStop {
        /// Index into `workloads`.
        index: u32,
        /// Stop (ms).
        stop_ms: Option<u64>,
    },
    /// Producer workload `index` uses `acks`.
    SetAcks {
        /// Index into `workloads`.
        index: u32,
        /// The producer's `acks`.
        acks: Acks,
    },
    /// The connection of workload `index` is this kind of client
    /// ([`ClientThrottling`]).
    SetClientKind {
        /// Index into `workloads`.
        index: u32,
        /// How throttling plays out for it.
        kind: ClientThrottling,
    },
}

/// When an added event happens by default (ms).
pub const DEFAULT_EVENT_MS: u64 = 5_000;

impl ClusterEdit {
    /// Applies the edit to `s` without checking it (indices out of range
    /// change nothing).
    pub fn apply(&self, s: &mut Scenario) {
        match self {
            ClusterEdit::AddTopic => {
                let mut n = s.topics.len() + 1;
                while s.topics.iter().any(|t| t.name == format!("topic-{n}")) {
                    n += 1;
                }
                s.topics.push(TopicSpec { name: format!("topic-{n}"), partitions: 1, preload: None, leaders: None });
            }
            ClusterEdit::RenameTopic { index, name } => {
                let Some(t) = s.topics.get_mut(*index as usize) else { return };
                let old = std::mem::replace(&mut t.name, name.clone());
                for w in &mut s.workloads {
                    let topic = match w {
                        Workload::Producer(p) => &mut p.topic,
                        Workload::Consumer(c) => &mut c.topic,
                        // Its topics are its own (`<topic_prefix>-<i>`).
                        Workload::Admin(_) | Workload::Connects(_) => continue,
                    };
                    if *topic == old {
                        topic.clone_from(name);
                    }
                }
                for e in &mut s.events {
                    if let ScenarioEvent::MoveLeader { topic, .. } = e {
                        if *topic == old {
                            topic.clone_from(name);
                        }
                    }
                }
            }
            ClusterEdit::SetPartitions { index, partitions } => {
                let count = s.brokers.count.max(1);
                let Some(t) = s.topics.get_mut(*index as usize) else { return };
                t.partitions = *partitions;
                if let Some(l) = &mut t.leaders {
                    let n = *partitions as usize;
                    l.truncate(n);
                    while l.len() < n {
                        l.push(TopicSpec::round_robin_leader(l.len() as u32, count));
                    }
                }
            }
            ClusterEdit::SetLeader { topic, partition, broker } => {
                let count = s.brokers.count;
                let Some(t) = s.topics.get_mut(*topic as usize) else { return };
                if *partition >= t.partitions {
                    return;
                }
                // One entry per partition: `check` refuses this edit while
                // the engine refuses the partition count (1 to 100000).
                match &mut t.leaders {
                    Some(l) if l.len() == t.partitions as usize => l[*partition as usize] = *broker,
                    _ => {
                        let mut l: Vec<u32> = (0..t.partitions).map(|p| t.leader(p, count)).collect();
                        l[*partition as usize] = *broker;
                        t.leaders = Some(l);
                    }
                }
            }
            ClusterEdit::RoundRobin(i) => {
                if let Some(t) = s.topics.get_mut(*i as usize) {
                    t.leaders = None;
                }
            }
            ClusterEdit::RemoveTopic(i) => {
                if (*i as usize) < s.topics.len() {
                    s.topics.remove(*i as usize);
                }
            }
            ClusterEdit::AddEvent { move_leader } => {
                if let Some(e) = default_event(s, *move_leader) {
                    s.events.push(e);
                }
            }
            ClusterEdit::SetEvent { index, event } => {
                if let Some(e) = s.events.get_mut(*index as usize) {
                    *e = event.clone();
                }
            }
            ClusterEdit::RemoveEvent(i) => {
                if (*i as usize) < s.events.len() {
                    s.events.remove(*i as usize);
                }
            }
            ClusterEdit::SetStart { index, start_ms } => match s.workloads.get_mut(*index as usize) {
                Some(Workload::Producer(p)) => p.start_ms = *start_ms,
                Some(Workload::Consumer(c)) => c.start_ms = *start_ms,
                Some(Workload::Admin(a)) => a.start_ms = *start_ms,
                Some(Workload::Connects(c)) => c.start_ms = *start_ms,
                None => {}
            },
            ClusterEdit::SetStop { index, stop_ms } => match s.workloads.get_mut(*index as usize) {
                Some(Workload::Producer(p)) => p.stop_ms = *stop_ms,
                Some(Workload::Consumer(c)) => c.stop_ms = *stop_ms,
                // An Admin call runs to its deadline: no stop.
                Some(Workload::Admin(_) | Workload::Connects(_)) | None => {}
            },
            ClusterEdit::SetAcks { index, acks } => {
                if let Some(Workload::Producer(p)) = s.workloads.get_mut(*index as usize) {
                    p.config.acks = *acks;
                }
            }
            ClusterEdit::SetClientKind { index, kind } => {
                let Some(w) = s.workloads.get(*index as usize) else { return };
                let name = super::workload_connection(w).to_owned();
                if let Some(c) = s.connections.iter_mut().find(|c| c.name == name) {
                    c.client_throttling = *kind;
                }
            }
        }
    }

    /// The scenario after the edit, or the problems the edit adds
    /// ([`Scenario::validate`]'s, each with its path).
    ///
    /// A problem `s` already had is not added when the edit only moves or
    /// rewords it: removing topic or event `i` renumbers the later ones
    /// (`topics[2]` becomes `topics[1]`) and renaming a topic changes the
    /// messages that name it (`Self::carry`).
    ///
    /// # Errors
    /// The problems of the edited scenario that `s` did not have; for a
    /// [`ClusterEdit::SetLeader`] on a topic whose partition count the
    /// engine refuses, that problem (explicit leaders are one per
    /// partition, so none are written for a count out of range).
    pub fn check(&self, s: &Scenario) -> Result<Scenario, Vec<ScenarioProblem>> {
        let old = s.validate().err().unwrap_or_default();
        if let ClusterEdit::SetLeader { topic, .. } = self {
            let path = ProblemPath::topic(*topic as usize).then("partitions");
            if let Some(p) = old.iter().find(|p| p.path == path) {
                return Err(vec![p.clone()]);
            }
        }
        let mut next = s.clone();
        self.apply(&mut next);
        let carried: Vec<(ProblemPath, String)> = old.iter().filter_map(|p| self.carry(s, p)).collect();
        let added: Vec<ScenarioProblem> = next
            .validate()
            .err()
            .unwrap_or_default()
            .into_iter()
            .filter(|p| !carried.iter().any(|(path, msg)| *path == p.path && *msg == p.error.to_string()))
            .collect();
        if added.is_empty() {
            Ok(next)
        } else {
            Err(added)
        }
    }

    /// How problem `p` of `s` reads after this edit (path, message), or
    /// `None` when the edit removes what it is about: a removal of topic or
    /// event `i` drops its problems and renumbers the later ones; a rename
    /// rewrites `'old'` as `'new'` in the problems of the topic and of the
    /// events that name it; other edits keep it as it is.
    fn carry(&self, s: &Scenario, p: &ScenarioProblem) -> Option<(ProblemPath, String)> {
        let msg = p.error.to_string();
        match self {
            ClusterEdit::RemoveTopic(i) => p.path.renumbered("topics", *i as usize).map(|path| (path, msg)),
            ClusterEdit::RemoveEvent(i) => p.path.renumbered("events", *i as usize).map(|path| (path, msg)),
            ClusterEdit::RenameTopic { index, name } => {
                let Some(old) = s.topics.get(*index as usize).map(|t| t.name.as_str()) else {
                    return Some((p.path.clone(), msg));
                };
                // The old name's own problem (Kafka's topic name rules) goes
                // with it: a new name is judged afresh, not as that problem renamed.
                if p.path == ProblemPath::topic(*index as usize).then("name") {
                    return None;
                }
                let about_it = match p.path.item() {
                    Some(("topics", j)) => j == *index as usize,
                    Some(("events", j)) => {
                        matches!(s.events.get(j), Some(ScenarioEvent::MoveLeader { topic, .. }) if topic == old)
                    }
                    _ => false,
                };
                let msg = if about_it { msg.replace(&format!("'{old}'"), &format!("'{name}'")) } else { msg };
                Some((p.path.clone(), msg))
            }
            _ => Some((p.path.clone(), msg)),
        }
    }

    /// The message the editor shows beside the field when the edit is
    /// refused: each added problem as `path: message`.
    pub fn refusal(&self, s: &Scenario) -> Option<String> {
        self.check(s).err().map(|ps| ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))
    }

    /// The item the edit is about (`topics[2]`), `None` for an edit that
    /// adds an item: the editor says a refusal there.
    pub fn target(&self) -> Option<ProblemPath> {
        let n = |i: &u32| *i as usize;
        match self {
            ClusterEdit::AddTopic | ClusterEdit::AddEvent { .. } => None,
            ClusterEdit::RenameTopic { index, .. } | ClusterEdit::SetPartitions { index, .. } => Some(ProblemPath::topic(n(index))),
            ClusterEdit::SetLeader { topic, .. } => Some(ProblemPath::topic(n(topic))),
            ClusterEdit::RoundRobin(i) | ClusterEdit::RemoveTopic(i) => Some(ProblemPath::topic(n(i))),
            ClusterEdit::SetEvent { index, .. } => Some(ProblemPath::event(n(index))),
            ClusterEdit::RemoveEvent(i) => Some(ProblemPath::event(n(i))),
            ClusterEdit::SetStart { index, .. }
            | ClusterEdit::SetStop { index, .. }
            | ClusterEdit::SetAcks { index, .. }
            | ClusterEdit::SetClientKind { index, .. } => Some(ProblemPath::workload(n(index))),
        }
    }
}

/// The problems of `s` at `path` or inside it (`topics[0]` holds
/// `topics[0].leaders[2]`, not `topics[10]`), as `path: message`.
pub fn problems_at(s: &Scenario, path: &ProblemPath) -> Vec<String> {
    problems_in(&s.validate().err().unwrap_or_default(), path)
}

/// The problems of `problems` (one `Scenario::validate` result) at `path`
/// or inside it, as `path: message`.
pub fn problems_in(problems: &[ScenarioProblem], path: &ProblemPath) -> Vec<String> {
    problems.iter().filter(|p| p.path.starts_with(path)).map(ToString::to_string).collect()
}

/// The value of a quota change [`default_event`] adds when the scenario
/// has no client quota to halve: 1 MB/s (bytes/s).
pub const DEFAULT_EVENT_RATE: f64 = 1_000_000.0;

/// The event [`ClusterEdit::AddEvent`] adds: at 5 s (or half the horizon
/// when that is earlier), a `move_leader` of partition 0 of the first topic
/// to the next broker (`None` with one broker or no topic), or a
/// `set_quota` halving the first client quota. Without a client quota, the
/// change sets [`DEFAULT_EVENT_RATE`] on the first client's client-id
/// (`clients/<client.id>`; `clients/<default>` when it is empty), as
/// `producer_byte_rate` for a producer and `consumer_byte_rate` for a
/// consumer: a quota change may target an entity that has no quota yet,
/// as `kafka-configs.sh --alter --add-config` may.
pub fn default_event(s: &Scenario, move_leader: bool) -> Option<ScenarioEvent> {
    let at_ms = DEFAULT_EVENT_MS.min(s.horizon_ms / 2);
    if move_leader {
        let t = s.topics.first()?;
        let count = s.brokers.count;
        if count < 2 {
            return None;
        }
        let to_broker = (t.leader(0, count) + 1) % count;
        return Some(ScenarioEvent::MoveLeader { at_ms, topic: t.name.clone(), partition: 0, to_broker });
    }
    let Some(q) = s.quotas.iter().find(|q| !q.entity.is_ip()) else {
        let first = s.workloads.first();
        let conn = first.map(super::workload_connection).and_then(|name| s.connections.iter().find(|c| c.name == name)).or(s.connections.first());
        let key = match first {
            Some(Workload::Consumer(_)) => QuotaKey::ConsumerByteRate,
            _ => QuotaKey::ProducerByteRate,
        };
        let entity = match conn.map(|c| c.client_id.as_str()) {
            Some(id) if !id.is_empty() => QuotaEntity::client_id(id),
            _ => QuotaEntity::ClientId(EntityName::Default),
        };
        return Some(ScenarioEvent::SetQuota { at_ms, entity, key, value: Some(DEFAULT_EVENT_RATE) });
    };
    // A DOUBLE key (request_percentage, controller_mutation_rate) takes
    // half as is; a LONG or INT one a whole number of at least 1.
    let value = match q.key.config_type() {
        ConfigType::Double => q.value / 2.0,
        ConfigType::Long | ConfigType::Int => (q.value / 2.0).floor().max(1.0),
    };
    Some(ScenarioEvent::SetQuota { at_ms, entity: q.entity.clone(), key: q.key, value: Some(value) })
}

/// Why [`default_event`] has no event to add, as the editor says it beside
/// the disabled button: the missing topic or broker for a leadership move.
/// `None` when there is one (a quota change always has one).
pub fn no_default_event(s: &Scenario, move_leader: bool) -> Option<String> {
    if default_event(s, move_leader).is_some() {
        return None;
    }
    Some(if s.topics.is_empty() {
        "A leadership move needs a topic: add one above.".to_owned()
    } else {
        format!(
            "A leadership move needs at least 2 brokers, and there is {}: raise Brokers above.",
            super::count_of(u64::from(s.brokers.count), "broker", "brokers")
        )
    })
}

/// Event `index` as the editor shows it after the user changed one field
/// (`change`) of `shown`, the event as the form shows it: the stored event,
/// or the draft the form holds (fields as typed that the engine refused
/// together). The whole draft is checked, each field against the other
/// fields as typed, never against their stored values: partition 0 →
/// broker 1 becomes partition 1 → broker 0 in either order, though
/// partition 1 → broker 1 and partition 0 → broker 0 are each refused on
/// the way (the broker already leads that partition).
///
/// Returns the checked edit to make.
///
/// # Errors
/// The draft with the problems it would add ([`ClusterEdit::check`]): the
/// form keeps it, marked as not applied, and the run keeps the stored event.
pub fn edit_event(s: &Scenario, index: u32, shown: &ScenarioEvent, change: impl FnOnce(&mut ScenarioEvent)) -> Result<ClusterEdit, EventDraft> {
    let mut event = shown.clone();
    change(&mut event);
    match (ClusterEdit::SetEvent { index, event: event.clone() }).check(s) {
        Ok(_) => Ok(ClusterEdit::SetEvent { index, event }),
        Err(problems) => Err(EventDraft { index, event, problems }),
    }
}

/// An event as typed in the editor that the engine refuses: the form shows
/// it with its problems and says that the run keeps the stored event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventDraft {
    /// Index into `events`.
    pub index: u32,
    /// The event as typed.
    pub event: ScenarioEvent,
    /// The problems the engine reports for it, each with its path
    /// (`events[0].to_broker`).
    pub problems: Vec<ScenarioProblem>,
}

impl EventDraft {
    /// The messages of the problems at `field` of the event
    /// (`events[i].<field>`), or at the event itself for `field` `""`
    /// (a quota Kafka refuses: entity, key and value together), as
    /// `path: message`.
    pub fn at(&self, field: &str) -> Option<String> {
        let event = ProblemPath::event(self.index as usize);
        let path = if field.is_empty() { event } else { event.then(field.to_owned()) };
        let msgs: Vec<String> = self.problems.iter().filter(|p| p.path == path).map(ToString::to_string).collect();
        (!msgs.is_empty()).then(|| msgs.join(" "))
    }
}

/// What the run does instead of a draft: the event it keeps, in words
/// (`the move of partition 0 of topic 'lab' to broker 1 at 5.00 s`).
pub fn held_note(stored: &ScenarioEvent) -> String {
    let what = match stored {
        ScenarioEvent::MoveLeader { topic, partition, to_broker, .. } => {
            format!("the move of partition {partition} of topic '{topic}' to broker {to_broker}")
        }
        ScenarioEvent::SetQuota { entity, key, value, .. } => match value {
            Some(v) => format!("the change of {key} of {} to {}", super::entity_path(entity), event_value_text(*v)),
            None => format!("the removal of {key} from {}", super::entity_path(entity)),
        },
    };
    format!(
        "Not applied: the form shows what you typed, which the engine refuses (above); the run keeps {what} at {}.",
        super::fmt_ms(stored.at_ms() as f64)
    )
}

/// The kinds of entity a `set_quota` event may target in the editor (the
/// client quota entities; `ips` take only `connection_creation_rate`, which
/// the simulation does not meter over time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventEntityKind {
    /// `users/<name>` or `users/<default>`.
    User,
    /// `clients/<name>` or `clients/<default>`.
    Client,
    /// `users/<u>/clients/<c>`.
    UserClient,
    /// `ips/<address>` (an imported event; kept as it is).
    Ip,
}

impl EventEntityKind {
    /// The kind of `e`.
    pub fn of(e: &QuotaEntity) -> Self {
        match e {
            QuotaEntity::User(_) => Self::User,
            QuotaEntity::ClientId(_) => Self::Client,
            QuotaEntity::UserClientId { .. } => Self::UserClient,
            QuotaEntity::Ip(_) => Self::Ip,
        }
    }

    /// The form's value for this kind (`user`, `client`, `user-client`, `ip`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Client => "client",
            Self::UserClient => "user-client",
            Self::Ip => "ip",
        }
    }

    /// The kind a form value names.
    pub fn from_value(v: &str) -> Option<Self> {
        [Self::User, Self::Client, Self::UserClient, Self::Ip].into_iter().find(|k| k.as_str() == v)
    }
}

/// The user part of `e` (`None` for an entity without one).
pub fn entity_user(e: &QuotaEntity) -> Option<&EntityName> {
    match e {
        QuotaEntity::User(u) | QuotaEntity::UserClientId { user: u, .. } => Some(u),
        _ => None,
    }
}

/// The client-id part of `e` (`None` for an entity without one).
pub fn entity_client(e: &QuotaEntity) -> Option<&EntityName> {
    match e {
        QuotaEntity::ClientId(c) | QuotaEntity::UserClientId { client_id: c, .. } => Some(c),
        _ => None,
    }
}

/// `e` as an entity of kind `kind`: the parts `e` has are kept, a part it
/// lacks starts as an empty name (which Kafka refuses until one is typed
/// or the default is ticked).
pub fn entity_of_kind(e: &QuotaEntity, kind: EventEntityKind) -> QuotaEntity {
    let empty = || EntityName::Named(String::new());
    let user = entity_user(e).cloned().unwrap_or_else(empty);
    let client = entity_client(e).cloned().unwrap_or_else(empty);
    match kind {
        EventEntityKind::User => QuotaEntity::User(user),
        EventEntityKind::Client => QuotaEntity::ClientId(client),
        EventEntityKind::UserClient => QuotaEntity::UserClientId { user, client_id: client },
        EventEntityKind::Ip => match e {
            QuotaEntity::Ip(_) => e.clone(),
            _ => QuotaEntity::Ip(empty()),
        },
    }
}

/// `e` with its user part (`user: true`) or client-id part replaced by
/// `name`; an entity without that part is returned as it is.
pub fn entity_with_part(e: &QuotaEntity, user: bool, name: EntityName) -> QuotaEntity {
    match (e, user) {
        (QuotaEntity::User(_), true) => QuotaEntity::User(name),
        (QuotaEntity::ClientId(_), false) => QuotaEntity::ClientId(name),
        (QuotaEntity::UserClientId { client_id, .. }, true) => QuotaEntity::UserClientId { user: name, client_id: client_id.clone() },
        (QuotaEntity::UserClientId { user, .. }, false) => QuotaEntity::UserClientId { user: user.clone(), client_id: name },
        _ => e.clone(),
    }
}

/// How many workloads (clients) use each connection of `s`, by name: the
/// client kind is a setting of the connection, which several clients may
/// share.
pub fn clients_per_connection(s: &Scenario) -> std::collections::BTreeMap<&str, usize> {
    let mut out = std::collections::BTreeMap::new();
    for w in &s.workloads {
        *out.entry(super::workload_connection(w)).or_insert(0) += 1;
    }
    out
}

/// The note beside a client's kind when its connection `conn` has
/// `clients` clients (more than one): the kind changes for all of them.
pub fn client_kind_note(conn: &str, clients: usize) -> Option<String> {
    (clients > 1).then(|| format!("Changes connection '{conn}', used by {clients} clients: the kind is the connection's, so it changes for all of them."))
}

/// A note when the brokers outnumber the brokers leading the partitions of
/// topic `t`: with one partition, one broker leads it and meters every
/// client of the topic, so more brokers change nothing until the topic has
/// more partitions.
pub fn spread_note(s: &Scenario, t: &TopicSpec) -> Option<String> {
    let count = s.brokers.count;
    let leaders = leader_set(t, count);
    if count < 2 || leaders.len() as u32 >= count.min(t.partitions.max(1)).max(2) {
        return None;
    }
    if t.partitions == 1 {
        return Some(format!(
            "Topic '{}' has one partition, and one partition has one leader (broker {}): its clients meet only that broker's quota, so the other {} change nothing. Give it {count} partitions to spread it over the {count} brokers.",
            t.name,
            t.leader(0, count),
            super::count_of(u64::from(count - 1), "broker", "brokers")
        ));
    }
    Some(format!(
        "Topic '{}' has {} partitions led by {} of the {count} brokers: each broker meters its own share, so its clients can get at most {} times a per-broker quota.",
        t.name,
        t.partitions,
        super::count_of(leaders.len() as u64, "broker", "brokers"),
        leaders.len()
    ))
}

/// The brokers leading a partition of `t` with `broker_count` brokers,
/// placed as [`TopicSpec::leader`] places them: the explicit `leaders` for
/// the partitions they list, round robin (partition `p` on broker
/// `p mod broker_count`) for the others.
///
/// O(`leaders.len()` + min(partitions, brokers)): round robin over `n`
/// consecutive partitions uses `min(n, broker_count)` consecutive brokers
/// (mod `broker_count`), so no loop runs once per partition, whatever the
/// partition count a link gives.
pub fn leader_set(t: &TopicSpec, broker_count: u32) -> BTreeSet<u32> {
    let explicit = t.leaders.as_deref().unwrap_or(&[]);
    let listed = explicit.len().min(t.partitions as usize);
    let mut set: BTreeSet<u32> = explicit[..listed].iter().copied().collect();
    // `listed` <= partitions, a u32; the partitions after it take
    // broker_count consecutive round-robin brokers at most.
    let first = listed as u32;
    let rest = t.partitions - first;
    for p in first..first + rest.min(broker_count.max(1)) {
        set.insert(TopicSpec::round_robin_leader(p, broker_count));
    }
    set
}

/// A `set_quota` event's value as the editor writes it: a whole number
/// without a fraction (`1000000`), else as Rust writes the double (`0.25`).
pub fn event_value_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        v.to_string()
    }
}

/// Reads a `set_quota` event's value as typed: empty text removes the key
/// (`--delete-config`, JSON `null`), anything else is read as
/// `kafka-configs.sh --add-config` reads it ([`super::parse_quota_value`]).
///
/// # Errors
/// The parser's sentence for text that is not a quota value.
pub fn parse_event_value(key: QuotaKey, text: &str) -> Result<Option<f64>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    super::parse_quota_value(key, text).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Scenario {
        crate::presets::default_scenario()
    }

    #[test]
    fn partitions_and_leaders_follow_the_brokers() {
        let mut s = lab();
        s.brokers.count = 3;
        let e = ClusterEdit::SetPartitions { index: 0, partitions: 3 };
        let next = e.check(&s).unwrap();
        assert_eq!((0..3).map(|p| next.topics[0].leader(p, 3)).collect::<Vec<_>>(), [0, 1, 2]);
        // An explicit leader keeps the others where they were.
        let next = ClusterEdit::SetLeader { topic: 0, partition: 2, broker: 0 }.check(&next).unwrap();
        assert_eq!(next.topics[0].leaders, Some(vec![0, 1, 0]));
        // Growing the topic extends explicit leaders round robin; shrinking cuts them.
        let grown = ClusterEdit::SetPartitions { index: 0, partitions: 5 }.check(&next).unwrap();
        assert_eq!(grown.topics[0].leaders, Some(vec![0, 1, 0, 0, 1]));
        let cut = ClusterEdit::SetPartitions { index: 0, partitions: 2 }.check(&grown).unwrap();
        assert_eq!(cut.topics[0].leaders, Some(vec![0, 1]));
        assert_eq!(ClusterEdit::RoundRobin(0).check(&cut).unwrap().topics[0].leaders, None);
    }

    #[test]
    fn an_edit_the_engine_refuses_names_the_path_and_the_reason() {
        let mut s = lab();
        s.brokers.count = 3;
        let bad = ClusterEdit::SetLeader { topic: 0, partition: 0, broker: 7 };
        let msg = bad.refusal(&s).unwrap();
        assert!(msg.starts_with("topics[0].leaders[0]: "), "{msg}");
        assert!(msg.contains("broker 7, which does not exist: the brokers are 0 to 2"), "{msg}");
        let msg = ClusterEdit::SetPartitions { index: 0, partitions: 0 }.refusal(&s).unwrap();
        assert!(msg.starts_with("topics[0].partitions: "), "{msg}");
        // Kafka's topic name rules (Topic.validate).
        let msg = ClusterEdit::RenameTopic { index: 0, name: "my topic!".into() }.refusal(&s).unwrap();
        assert_eq!(msg, "topics[0].name: Topic name is invalid: 'my topic!' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'");
        assert!(ClusterEdit::RenameTopic { index: 0, name: "..".into() }.refusal(&s).is_some());
        // From a bad name (a link may carry one) to another bad name: refused.
        let mut bad = s.clone();
        bad.topics[0].name = "a b".into();
        for w in &mut bad.workloads {
            match w {
                Workload::Producer(p) => p.topic = "a b".into(),
                Workload::Consumer(c) => c.topic = "a b".into(),
                Workload::Admin(_) | Workload::Connects(_) => {}
            }
        }
        assert!(ClusterEdit::RenameTopic { index: 0, name: "a c".into() }.refusal(&bad).is_some());
        assert!(ClusterEdit::RenameTopic { index: 0, name: "a-c".into() }.refusal(&bad).is_none());
        // A topic a workload writes to cannot go.
        let msg = ClusterEdit::RemoveTopic(0).refusal(&s).unwrap();
        assert!(msg.contains("workloads[0].producer.topic"), "{msg}");
        // Stop before start.
        let s2 = ClusterEdit::SetStart { index: 0, start_ms: 2000 }.check(&s).unwrap();
        let msg = ClusterEdit::SetStop { index: 0, stop_ms: Some(1000) }.refusal(&s2).unwrap();
        assert!(msg.starts_with("workloads[0].producer.stop_ms: "), "{msg}");
    }

    #[test]
    fn events_get_sensible_defaults_and_are_checked() {
        let mut s = lab();
        // One broker: no leadership move to make.
        assert_eq!(default_event(&s, true), None);
        let q = ClusterEdit::AddEvent { move_leader: false }.check(&s).unwrap();
        assert_eq!(
            q.events,
            vec![ScenarioEvent::SetQuota { at_ms: 5000, entity: QuotaEntity::user("tenant-a"), key: QuotaKey::ProducerByteRate, value: Some(1_000_000.0) }]
        );
        s.brokers.count = 3;
        s.topics[0].partitions = 3;
        let m = ClusterEdit::AddEvent { move_leader: true }.check(&s).unwrap();
        assert_eq!(m.events, vec![ScenarioEvent::MoveLeader { at_ms: 5000, topic: "lab".into(), partition: 0, to_broker: 1 }]);
        // Moving to the broker already leading it, or beyond the horizon, is refused.
        let same = ClusterEdit::SetEvent { index: 0, event: ScenarioEvent::MoveLeader { at_ms: 5000, topic: "lab".into(), partition: 0, to_broker: 0 } };
        assert!(same.refusal(&m).unwrap().starts_with("events[0].to_broker: "));
        let late = ClusterEdit::SetEvent { index: 0, event: ScenarioEvent::MoveLeader { at_ms: 700_000, topic: "lab".into(), partition: 0, to_broker: 1 } };
        assert!(late.refusal(&m).unwrap().starts_with("events[0].at_ms: "));
        // A renamed topic takes its events and workloads along.
        let r = ClusterEdit::RenameTopic { index: 0, name: "orders".into() }.check(&m).unwrap();
        assert!(matches!(&r.events[0], ScenarioEvent::MoveLeader { topic, .. } if topic == "orders"));
        assert_eq!(problems_at(&r, &ProblemPath::field("topics")), Vec::<String>::new());
        assert_eq!(ClusterEdit::RemoveEvent(0).check(&r).unwrap().events, vec![]);
    }

    #[test]
    fn client_kind_and_acks_edit_the_workload_s_client() {
        let s = lab();
        let k = ClusterEdit::SetClientKind { index: 0, kind: ClientThrottling::IgnoresThrottle }.check(&s).unwrap();
        assert_eq!(k.connections[0].client_throttling, ClientThrottling::IgnoresThrottle);
        let a = ClusterEdit::SetAcks { index: 0, acks: Acks::None }.check(&s).unwrap();
        assert!(matches!(&a.workloads[0], Workload::Producer(p) if p.config.acks == Acks::None));
    }

    #[test]
    fn one_partition_on_three_brokers_is_named() {
        let mut s = lab();
        assert_eq!(spread_note(&s, &s.topics[0]), None);
        s.brokers.count = 3;
        let note = spread_note(&s, &s.topics[0]).unwrap();
        assert!(note.starts_with("Topic 'lab' has one partition, and one partition has one leader (broker 0)"), "{note}");
        s.topics[0].partitions = 3;
        assert_eq!(spread_note(&s, &s.topics[0]), None);
        s.topics[0].leaders = Some(vec![1, 1, 2]);
        assert!(spread_note(&s, &s.topics[0]).unwrap().contains("led by 2 brokers of the 3"));
    }

    #[test]
    fn problems_the_scenario_already_has_are_listed_at_their_path_and_do_not_block_other_edits() {
        let mut s = lab();
        s.brokers.count = 3;
        let mut s = ClusterEdit::SetLeader { topic: 0, partition: 0, broker: 2 }.check(&s).unwrap();
        // The broker count goes down under the explicit leader.
        s.brokers.count = 1;
        let ps = problems_at(&s, &ProblemPath::item_of("topics", 0));
        assert_eq!(ps.len(), 1);
        assert!(ps[0].starts_with("topics[0].leaders[0]: Partition 0 of topic 'lab' is led by broker 2, which does not exist"), "{}", ps[0]);
        assert!(problems_at(&s, &ProblemPath::field("events")).is_empty());
        // Another edit still goes through; going back to round robin repairs it.
        assert!(ClusterEdit::SetStart { index: 0, start_ms: 100 }.check(&s).is_ok());
        let fixed = ClusterEdit::RoundRobin(0).check(&s).unwrap();
        assert!(fixed.validate().is_ok());
    }

    /// Three brokers, topics lab, topic-2 and topic-3, partition 0 of
    /// topic-3 on broker 2, then one broker: topic-3 has a problem.
    fn topic_3_on_a_missing_broker() -> Scenario {
        let mut s = lab();
        s.brokers.count = 3;
        let s = ClusterEdit::AddTopic.check(&s).unwrap();
        let s = ClusterEdit::AddTopic.check(&s).unwrap();
        assert_eq!(s.topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["lab", "topic-2", "topic-3"]);
        let mut s = ClusterEdit::SetLeader { topic: 2, partition: 0, broker: 2 }.check(&s).unwrap();
        s.brokers.count = 1;
        assert_eq!(problems_at(&s, &ProblemPath::item_of("topics", 2)).len(), 1);
        s
    }

    #[test]
    fn removing_or_renaming_an_item_is_not_refused_for_the_problems_it_renumbers_or_renames() {
        let s = topic_3_on_a_missing_broker();
        // topics[2] becomes topics[1]: the same problem, not an added one.
        let removed = ClusterEdit::RemoveTopic(1).check(&s).unwrap();
        assert_eq!(problems_at(&removed, &ProblemPath::item_of("topics", 1)).len(), 1);
        // Renaming the topic with the problem rewords it, and adds nothing.
        let renamed = ClusterEdit::RenameTopic { index: 2, name: "orders".into() }.check(&s).unwrap();
        assert!(problems_at(&renamed, &ProblemPath::item_of("topics", 2))[0].contains("of topic 'orders' is led by broker 2"));
        // The used topic still cannot go, and the refusal says why.
        let msg = ClusterEdit::RemoveTopic(0).refusal(&s).unwrap();
        assert!(msg.starts_with("workloads[0].producer.topic: A workload uses the topic 'lab', which is not defined in topics."), "{msg}");
        // A rename onto another topic's name is still refused.
        let msg = ClusterEdit::RenameTopic { index: 1, name: "lab".into() }.refusal(&s).unwrap();
        assert!(msg.contains("Topic 'lab' is defined twice."), "{msg}");
    }

    #[test]
    fn removing_an_event_is_refused_only_for_a_problem_it_adds() {
        let mut s = lab();
        s.brokers.count = 3;
        s.topics[0].partitions = 3;
        let mv = |at_ms, to_broker| ScenarioEvent::MoveLeader { at_ms, topic: "lab".into(), partition: 0, to_broker };
        s.events = vec![mv(5000, 1), mv(6000, 0)];
        assert!(s.validate().is_ok());
        // A third move, to broker 2, gets a problem of its own: the broker
        // count goes down to 2.
        let mut bad = s.clone();
        bad.events.push(mv(7000, 2));
        bad.brokers.count = 2;
        assert_eq!(problems_at(&bad, &ProblemPath::item_of("events", 2)).len(), 1);
        // Removing events[0] renumbers the others; the move back to broker
        // 0 then moves to the broker already leading: that one is added.
        let msg = ClusterEdit::RemoveEvent(0).refusal(&bad).unwrap();
        assert!(msg.starts_with("events[0].to_broker: The move_leader event moves partition 0 of topic 'lab' to broker 0, but"), "{msg}");
        assert!(!msg.contains("events[1]"), "{msg}");
        // Removing the move back (events[1]) adds nothing: the problem of
        // the third move is the same one, now at events[1].
        let one = ClusterEdit::RemoveEvent(1).check(&bad).unwrap();
        assert_eq!(one.events.len(), 2);
        assert_eq!(problems_at(&one, &ProblemPath::item_of("events", 1)).len(), 1);
    }

    #[test]
    fn the_leader_set_is_the_set_of_every_partition_s_leader_without_a_loop_per_partition() {
        let topic = |partitions, leaders: Option<Vec<u32>>| TopicSpec { name: "t".into(), partitions, preload: None, leaders };
        let naive = |t: &TopicSpec, n: u32| (0..t.partitions).map(|p| t.leader(p, n)).collect::<BTreeSet<u32>>();
        for partitions in [1, 2, 3, 5, 7, 12] {
            for brokers in [1, 2, 3, 4, 10] {
                for leaders in [None, Some(vec![2, 2]), Some(vec![3; partitions as usize]), Some(vec![1; partitions as usize + 2])] {
                    let t = topic(partitions, leaders);
                    assert_eq!(leader_set(&t, brokers), naive(&t, brokers), "{t:?} on {brokers}");
                }
            }
        }
        // Four billion partitions from a link: 3 brokers at once.
        let huge = topic(4_000_000_000, None);
        assert_eq!(leader_set(&huge, 3), BTreeSet::from([0, 1, 2]));
        let mut s = lab();
        s.brokers.count = 3;
        s.topics[0] = TopicSpec { name: "lab".into(), ..huge };
        assert_eq!(spread_note(&s, &s.topics[0]), None);
        // A leader is not chosen for it: its count is the reason.
        let msg = ClusterEdit::SetLeader { topic: 0, partition: 1, broker: 2 }.refusal(&s).unwrap();
        assert!(msg.starts_with("topics[0].partitions: Topic 'lab' has 4000000000 partitions"), "{msg}");
    }

    #[test]
    fn a_quota_change_halves_a_double_key_as_is() {
        // Kafka declares controller_mutation_rate and request_percentage
        // DOUBLE (QuotaConfig): half of 0.5 is 0.25, not 1.
        let mut s = lab();
        s.quotas = vec![quota_engine::sim::QuotaSetting { entity: QuotaEntity::user("u"), key: QuotaKey::ControllerMutationRate, value: 0.5 }];
        assert!(matches!(default_event(&s, false), Some(ScenarioEvent::SetQuota { value: Some(v), .. }) if v == 0.25));
        s.quotas[0].key = QuotaKey::RequestPercentage;
        assert!(matches!(default_event(&s, false), Some(ScenarioEvent::SetQuota { value: Some(v), .. }) if v == 0.25));
        // A LONG key stays whole, at least 1.
        s.quotas[0].key = QuotaKey::ProducerByteRate;
        s.quotas[0].value = 3.0;
        assert!(matches!(default_event(&s, false), Some(ScenarioEvent::SetQuota { value: Some(v), .. }) if v == 1.0));
    }

    #[test]
    fn a_missing_default_event_names_what_is_missing() {
        let mut s = lab();
        assert_eq!(no_default_event(&s, true).unwrap(), "A leadership move needs at least 2 brokers, and there is 1 broker: raise Brokers above.");
        s.brokers.count = 2;
        assert_eq!(no_default_event(&s, true), None);
        s.topics.clear();
        assert_eq!(no_default_event(&s, true).unwrap(), "A leadership move needs a topic: add one above.");
        assert_eq!(no_default_event(&s, false), None);
        // A quota change needs no quota: it may create one.
        s.quotas.clear();
        assert_eq!(no_default_event(&s, false), None);
    }

    /// Two brokers, topic lab with 2 partitions (round robin: partition 0
    /// on broker 0, 1 on broker 1), a move of partition 0 to broker 1.
    fn move_0_to_1() -> Scenario {
        let mut s = lab();
        s.brokers.count = 2;
        s.topics[0].partitions = 2;
        let s = ClusterEdit::AddEvent { move_leader: true }.check(&s).unwrap();
        assert_eq!(s.events, vec![ScenarioEvent::MoveLeader { at_ms: 5000, topic: "lab".into(), partition: 0, to_broker: 1 }]);
        s
    }

    /// What the editor does with one typed field: the event as shown
    /// (stored or held) changes, and the whole is checked.
    fn type_into(s: &Scenario, shown: &ScenarioEvent, change: impl FnOnce(&mut ScenarioEvent)) -> (Scenario, Option<EventDraft>) {
        match edit_event(s, 0, shown, change) {
            Ok(edit) => (edit.check(s).unwrap(), None),
            Err(d) => (s.clone(), Some(d)),
        }
    }

    fn set_partition(p: u32) -> impl FnOnce(&mut ScenarioEvent) {
        move |e| if let ScenarioEvent::MoveLeader { partition, .. } = e { *partition = p }
    }

    fn set_broker(b: u32) -> impl FnOnce(&mut ScenarioEvent) {
        move |e| if let ScenarioEvent::MoveLeader { to_broker, .. } = e { *to_broker = b }
    }

    #[test]
    fn a_leadership_move_becomes_another_in_either_order_of_its_fields() {
        let s = move_0_to_1();
        let want = ScenarioEvent::MoveLeader { at_ms: 5000, topic: "lab".into(), partition: 1, to_broker: 0 };
        // Partition first: partition 1 → broker 1 is refused (broker 1
        // leads it), held with the problem at to_broker; the run keeps 0 → 1.
        let (after, held) = type_into(&s, &s.events[0], set_partition(1));
        let held = held.unwrap();
        assert_eq!(after.events, s.events);
        assert!(held.at("to_broker").unwrap().starts_with("events[0].to_broker: The move_leader event moves partition 1 of topic 'lab' to broker 1, but"), "{held:?}");
        assert_eq!(held.at("partition"), None);
        assert_eq!(held_note(&after.events[0]), "Not applied: the form shows what you typed, which the engine refuses (above); the run keeps the move of partition 0 of topic 'lab' to broker 1 at 5.00 s.");
        // Then the broker, checked with partition 1 as typed: applied.
        let (done, held) = type_into(&after, &held.event, set_broker(0));
        assert_eq!(held, None);
        assert_eq!(done.events, vec![want.clone()]);
        // Broker first: partition 0 → broker 0 is refused and held, then partition 1.
        let (after, held) = type_into(&s, &s.events[0], set_broker(0));
        let held = held.unwrap();
        assert_eq!(after.events, s.events);
        assert!(held.at("to_broker").unwrap().contains("moves partition 0 of topic 'lab' to broker 0, but"), "{held:?}");
        let (done, held) = type_into(&after, &held.event, set_partition(1));
        assert_eq!(held, None);
        assert_eq!(done.events, vec![want]);
        // Checked against the stored move instead (the old editor), the
        // second field was refused too: the draft is what makes it work.
        assert!(ClusterEdit::SetEvent { index: 0, event: ScenarioEvent::MoveLeader { at_ms: 5000, topic: "lab".into(), partition: 0, to_broker: 0 } }.refusal(&s).is_some());
    }

    #[test]
    fn a_quota_change_on_an_entity_without_a_quota_is_added_and_throttles_from_its_time() {
        let mut s = lab();
        s.quotas.clear();
        // 3000 records/s of 1 kB: 3 MB/s for 10 s, past the event at 5 s.
        let Workload::Producer(p) = &mut s.workloads[0] else { panic!("the lab's client is a producer") };
        p.throughput = 3000.0;
        let s = ClusterEdit::AddEvent { move_leader: false }.check(&s).unwrap();
        let client_id = s.connections[0].client_id.clone();
        assert!(!client_id.is_empty());
        assert_eq!(
            s.events,
            vec![ScenarioEvent::SetQuota { at_ms: 5000, entity: QuotaEntity::client_id(&client_id), key: QuotaKey::ProducerByteRate, value: Some(DEFAULT_EVENT_RATE) }]
        );
        // The producer is unthrottled until 5 s, then throttled to the new quota.
        let t = quota_engine::sim::simulate(s.validate().expect("a valid scenario")).unwrap();
        let throttles: Vec<f64> = t.sensors.iter().flat_map(|x| x.throttles.iter().map(|e| e.at_ms)).collect();
        assert!(!throttles.is_empty(), "the quota set at 5 s throttles the producer");
        assert!(throttles.iter().all(|at| *at >= 5000.0), "{throttles:?}");
        assert!(t.sensors.iter().all(|x| x.mbean == format!("kafka.server:type=Produce,client-id={client_id}")), "one budget, the client-id's");
        // Any user, client-id or pair may be typed, the defaults included;
        // Kafka's rule on empty names holds (the draft names the refusal).
        let shown = s.events[0].clone();
        let to = |kind| move |e: &mut ScenarioEvent| if let ScenarioEvent::SetQuota { entity, .. } = e { *entity = entity_of_kind(entity, kind) };
        let held = edit_event(&s, 0, &shown, to(EventEntityKind::UserClient)).unwrap_err();
        assert_eq!(held.event.clone(), ScenarioEvent::SetQuota { at_ms: 5000, entity: QuotaEntity::UserClientId { user: EntityName::Named(String::new()), client_id: EntityName::Named(client_id.clone()) }, key: QuotaKey::ProducerByteRate, value: Some(DEFAULT_EVENT_RATE) });
        let msg = held.at("").unwrap();
        assert!(msg.starts_with("events[0]: ") && msg.to_lowercase().contains("empty"), "{msg}");
        let name = |n: EntityName| move |e: &mut ScenarioEvent| if let ScenarioEvent::SetQuota { entity, .. } = e { *entity = entity_with_part(entity, true, n) };
        let edit = edit_event(&s, 0, &held.event, name(EntityName::Default)).unwrap();
        let next = edit.check(&s).unwrap();
        assert!(matches!(&next.events[0], ScenarioEvent::SetQuota { entity, .. } if model_path(entity) == format!("users/<default>/clients/{client_id}")));
        let next = edit_event(&s, 0, &held.event, name(EntityName::Named("tenant-b".into()))).unwrap().check(&s).unwrap();
        assert!(matches!(&next.events[0], ScenarioEvent::SetQuota { entity, .. } if model_path(entity) == format!("users/tenant-b/clients/{client_id}")));
    }

    fn model_path(e: &QuotaEntity) -> String {
        crate::model::entity_path(e)
    }

    #[test]
    fn a_quota_change_s_default_follows_the_first_client() {
        let mut s = lab();
        s.quotas.clear();
        s.connections[0].client_id = String::new();
        assert!(matches!(default_event(&s, false), Some(ScenarioEvent::SetQuota { entity: QuotaEntity::ClientId(EntityName::Default), key: QuotaKey::ProducerByteRate, .. })));
        s.workloads.clear();
        s.connections.clear();
        assert!(matches!(default_event(&s, false), Some(ScenarioEvent::SetQuota { entity: QuotaEntity::ClientId(EntityName::Default), .. })));
    }

    #[test]
    fn an_entity_changes_kind_keeping_its_parts() {
        let e = QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Named("c".into()) };
        assert_eq!(entity_of_kind(&e, EventEntityKind::User), QuotaEntity::User(EntityName::Default));
        assert_eq!(entity_of_kind(&e, EventEntityKind::Client), QuotaEntity::client_id("c"));
        assert_eq!(entity_of_kind(&QuotaEntity::user("u"), EventEntityKind::UserClient), QuotaEntity::UserClientId { user: EntityName::Named("u".into()), client_id: EntityName::Named(String::new()) });
        assert_eq!(entity_with_part(&e, false, EntityName::Default), QuotaEntity::UserClientId { user: EntityName::Default, client_id: EntityName::Default });
        for k in [EventEntityKind::User, EventEntityKind::Client, EventEntityKind::UserClient, EventEntityKind::Ip] {
            assert_eq!(EventEntityKind::from_value(k.as_str()), Some(k));
        }
    }

    #[test]
    fn a_shared_connection_s_kind_is_said_to_change_for_its_clients() {
        let mut s = lab();
        let on = clients_per_connection(&s);
        assert_eq!(client_kind_note("app", on["app"]), None);
        s.workloads.push(s.workloads[0].clone());
        let on = clients_per_connection(&s);
        assert_eq!(on["app"], 2);
        assert!(client_kind_note("app", on["app"]).unwrap().starts_with("Changes connection 'app', used by 2 clients"));
    }

    #[test]
    fn an_empty_event_value_removes_the_key() {
        assert_eq!(parse_event_value(QuotaKey::ProducerByteRate, " "), Ok(None));
        assert_eq!(parse_event_value(QuotaKey::ProducerByteRate, "1e6"), Ok(Some(1e6)));
        assert!(parse_event_value(QuotaKey::ProducerByteRate, "abc").is_err());
    }
}
