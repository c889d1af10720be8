//! Edits of the cluster and of the run's time line (topics, partition
//! leaders, scenario events, client start and stop times, client kind,
//! `acks`), each checked by the engine before it is made.
//!
//! An edit is refused when it adds a problem [`Scenario::validate`] reports
//! (a leader on a broker that does not exist, an event past the horizon, a
//! `stop_ms` not after `start_ms`, a quota Kafka refuses, ...): the editor
//! shows that problem's message with its path beside the field and keeps
//! what the user typed. Problems the scenario already had before the edit
//! do not block it, so a scenario that is invalid for another reason can
//! still be repaired one field at a time.

use quota_engine::sim::{Acks, ClientThrottling, Scenario, ScenarioEvent, ScenarioProblem, TopicSpec, Workload};
use quota_engine::{QuotaEntity, QuotaKey};

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
                        l.push(l.len() as u32 % count);
                    }
                }
            }
            ClusterEdit::SetLeader { topic, partition, broker } => {
                let count = s.brokers.count;
                let Some(t) = s.topics.get_mut(*topic as usize) else { return };
                if *partition >= t.partitions {
                    return;
                }
                let mut l: Vec<u32> = (0..t.partitions).map(|p| t.leader(p, count)).collect();
                l[*partition as usize] = *broker;
                t.leaders = Some(l);
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
                None => {}
            },
            ClusterEdit::SetStop { index, stop_ms } => match s.workloads.get_mut(*index as usize) {
                Some(Workload::Producer(p)) => p.stop_ms = *stop_ms,
                Some(Workload::Consumer(c)) => c.stop_ms = *stop_ms,
                None => {}
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
    /// # Errors
    /// The problems of the edited scenario that `s` did not have.
    pub fn check(&self, s: &Scenario) -> Result<Scenario, Vec<ScenarioProblem>> {
        let mut next = s.clone();
        self.apply(&mut next);
        let added = added_problems(s, &next);
        if added.is_empty() {
            Ok(next)
        } else {
            Err(added)
        }
    }

    /// The message the editor shows beside the field when the edit is
    /// refused: each added problem as `path: message`.
    pub fn refusal(&self, s: &Scenario) -> Option<String> {
        self.check(s).err().map(|ps| ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))
    }
}

/// The problems of `after` that `before` did not have (same path and message).
pub fn added_problems(before: &Scenario, after: &Scenario) -> Vec<ScenarioProblem> {
    let old = before.validate().err().unwrap_or_default();
    after.validate().err().unwrap_or_default().into_iter().filter(|p| !old.contains(p)).collect()
}

/// The problems of `s` at `path` or inside it (`topics[0]` matches
/// `topics[0].leaders[2]`), as `path: message`.
pub fn problems_at(s: &Scenario, path: &str) -> Vec<String> {
    problems_in(&s.validate().err().unwrap_or_default(), path)
}

/// The problems of `problems` (one `Scenario::validate` result) at `path`
/// or inside it, as `path: message`.
pub fn problems_in(problems: &[ScenarioProblem], path: &str) -> Vec<String> {
    let (dot, bracket) = (format!("{path}."), format!("{path}["));
    problems
        .iter()
        .filter(|p| p.path == path || p.path.starts_with(&dot) || p.path.starts_with(&bracket))
        .map(ToString::to_string)
        .collect()
}

/// The event [`ClusterEdit::AddEvent`] adds: at 5 s (or half the horizon
/// when that is earlier), a `move_leader` of partition 0 of the first topic
/// to the next broker (`None` with one broker or no topic), or a
/// `set_quota` halving the first client quota (`None` without one).
pub fn default_event(s: &Scenario, move_leader: bool) -> Option<ScenarioEvent> {
    let at_ms = DEFAULT_EVENT_MS.min(s.horizon_ms / 2);
    if move_leader {
        let t = s.topics.first()?;
        let count = s.brokers.count;
        if count < 2 {
            return None;
        }
        let to_broker = (t.leader(0, count) + 1) % count;
        Some(ScenarioEvent::MoveLeader { at_ms, topic: t.name.clone(), partition: 0, to_broker })
    } else {
        let q = s.quotas.iter().find(|q| !q.entity.is_ip())?;
        let value = if q.key == QuotaKey::RequestPercentage { q.value / 2.0 } else { (q.value / 2.0).floor().max(1.0) };
        Some(ScenarioEvent::SetQuota { at_ms, entity: q.entity.clone(), key: q.key, value: Some(value) })
    }
}

/// The entities a `set_quota` event may name in the editor: those of the
/// scenario's quotas and events, in first-seen order (an event on another
/// entity comes from an imported scenario and is kept).
pub fn event_entities(s: &Scenario) -> Vec<QuotaEntity> {
    let mut out: Vec<QuotaEntity> = Vec::new();
    let from_events = s.events.iter().filter_map(|e| match e {
        ScenarioEvent::SetQuota { entity, .. } => Some(entity),
        ScenarioEvent::MoveLeader { .. } => None,
    });
    for e in s.quotas.iter().map(|q| &q.entity).chain(from_events) {
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    out
}

/// A note when the brokers outnumber the brokers leading the partitions of
/// topic `t`: with one partition, one broker leads it and meters every
/// client of the topic, so more brokers change nothing until the topic has
/// more partitions.
pub fn spread_note(s: &Scenario, t: &TopicSpec) -> Option<String> {
    let count = s.brokers.count;
    let leaders: std::collections::BTreeSet<u32> = (0..t.partitions).map(|p| t.leader(p, count)).collect();
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
        assert_eq!(problems_at(&r, "topics"), Vec::<String>::new());
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
        let ps = problems_at(&s, "topics[0]");
        assert_eq!(ps.len(), 1);
        assert!(ps[0].starts_with("topics[0].leaders[0]: Partition 0 of topic 'lab' is led by broker 2, which does not exist"), "{}", ps[0]);
        assert!(problems_at(&s, "events").is_empty());
        // Another edit still goes through; going back to round robin repairs it.
        assert!(ClusterEdit::SetStart { index: 0, start_ms: 100 }.check(&s).is_ok());
        let fixed = ClusterEdit::RoundRobin(0).check(&s).unwrap();
        assert!(fixed.validate().is_ok());
    }

    #[test]
    fn an_empty_event_value_removes_the_key() {
        assert_eq!(parse_event_value(QuotaKey::ProducerByteRate, " "), Ok(None));
        assert_eq!(parse_event_value(QuotaKey::ProducerByteRate, "1e6"), Ok(Some(1e6)));
        assert!(parse_event_value(QuotaKey::ProducerByteRate, "abc").is_err());
    }
}
