//! The application state and its pure reducer.
//!
//! The [`Scenario`] is the one piece of state that is saved (URL hash, local
//! storage) and shared (permalink, embed); everything else here is how the
//! user is looking at it: which connections are compared, where the cursor
//! over simulated time stands, whether it plays. Every view derives from
//! `(scenario, cursor)`. The reducer has no side effects: the URL, storage
//! and timers live in hooks (`crate::hooks`).

use std::rc::Rc;

use quota_engine::broker::BrokerSettings;
use quota_engine::sim::{ConnectionSpec, Scenario, Workload};
use quota_engine::{QuotaEntity, QuotaKey};
use yew::Reducible;

use crate::model;

/// The playback speeds offered: simulated ms per wall-clock ms.
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0];

/// Where the scenario came from when it was loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The built-in default.
    Default,
    /// A permalink in the URL hash.
    Link,
    /// Local storage (the last session's autosave).
    Autosave,
    /// A lesson preset.
    Lesson(u8),
}

/// A message shown above the panels until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// `error` or `info`: how it is styled and announced.
    pub level: NoticeLevel,
    /// A full sentence.
    pub text: String,
}

/// How loud a [`Notice`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeLevel {
    /// Informational (a lesson was loaded, a link restored).
    Info,
    /// Something went wrong (a damaged link).
    Error,
}

/// Everything the page shows, apart from values derived from it.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The scenario: quotas, broker settings, connections, workloads, seed.
    pub scenario: Rc<Scenario>,
    /// Bumped on every change of `scenario`: the key of derived values.
    pub revision: u64,
    /// Where the scenario came from.
    pub origin: Origin,
    /// The connection being edited (index into `scenario.connections`).
    pub selected: u32,
    /// Connections shown side by side in the resolution panel (indices).
    pub compare: Vec<u32>,
    /// The cursor over simulated time (ms).
    pub cursor_ms: f64,
    /// True while playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Share links hide names ([`quota_formats::permalink::redact`]).
    pub redact_links: bool,
    /// The keyboard help sheet is open.
    pub help_open: bool,
    /// A message for the user.
    pub notice: Option<Notice>,
    /// The sensor (budget) track shown in the simulation charts (index);
    /// `None` = the focused client's budget ([`model::focus`]).
    pub focus_sensor: Option<u32>,
    /// The client track shown in the simulation charts (index); `None` = the
    /// first throttled client ([`model::focus`]).
    pub focus_client: Option<u32>,
}

/// Equal when every field is: the scenario by pointer first (the reducer
/// clones the state for every action, a 33 ms playback tick too, and an
/// unchanged scenario keeps its `Rc`), by value only when the pointers
/// differ. Every field is named, so a field added to `AppState` does not
/// compile until it is compared here.
impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        let AppState {
            scenario,
            revision,
            origin,
            selected,
            compare,
            cursor_ms,
            playing,
            speed,
            redact_links,
            help_open,
            notice,
            focus_sensor,
            focus_client,
        } = self;
        (Rc::ptr_eq(scenario, &other.scenario) || **scenario == *other.scenario)
            && *revision == other.revision
            && *origin == other.origin
            && *selected == other.selected
            && *compare == other.compare
            && *cursor_ms == other.cursor_ms
            && *playing == other.playing
            && *speed == other.speed
            && *redact_links == other.redact_links
            && *help_open == other.help_open
            && *notice == other.notice
            && *focus_sensor == other.focus_sensor
            && *focus_client == other.focus_client
    }
}

impl AppState {
    /// A fresh state around `scenario`.
    pub fn new(scenario: Scenario, origin: Origin) -> Self {
        AppState {
            scenario: Rc::new(scenario),
            revision: 1,
            origin,
            selected: 0,
            compare: Vec::new(),
            cursor_ms: 0.0,
            playing: false,
            // Real time (1×): the lab's 12 s run plays in 12 s; faster is a choice.
            speed: 2,
            redact_links: false,
            help_open: false,
            notice: None,
            focus_sensor: None,
            focus_client: None,
        }
    }

    /// Simulated ms per wall-clock ms.
    pub fn speed_factor(&self) -> f64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    fn edit(&mut self, f: impl FnOnce(&mut Scenario)) {
        let mut s = (*self.scenario).clone();
        f(&mut s);
        if s != *self.scenario {
            self.scenario = Rc::new(s);
            self.revision += 1;
        }
        let n = self.scenario.connections.len() as u32;
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
        self.compare.retain(|i| *i < n);
    }
}

/// Everything that can happen to the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Replace the whole scenario (lesson, link, autosave, reset).
    Load {
        /// The scenario.
        scenario: Box<Scenario>,
        /// Where it came from.
        origin: Origin,
        /// Shown to the user, if any.
        notice: Option<Notice>,
    },
    /// Set one quota; refused (no change) when Kafka would refuse it.
    SetQuota {
        /// The entity.
        entity: QuotaEntity,
        /// The key.
        key: QuotaKey,
        /// The value.
        value: f64,
    },
    /// The scenario's quotas become `quotas`: an import the import box has
    /// already applied ([`crate::interchange::apply_quotas`] on the scenario
    /// it showed, which also gave it the counts it reports), so it is
    /// applied once.
    SetQuotas {
        /// The scenario's quotas after the import, in order.
        quotas: Vec<quota_engine::sim::QuotaSetting>,
    },
    /// Remove one quota key of one entity.
    RemoveQuota {
        /// The entity.
        entity: QuotaEntity,
        /// The key.
        key: QuotaKey,
    },
    /// Replace connection `index`; workloads follow a rename.
    SetConnection {
        /// Index into the connections.
        index: u32,
        /// The new connection.
        spec: ConnectionSpec,
    },
    /// Add a connection (a copy of the selected one under a new name).
    AddConnection,
    /// Remove a connection and its workloads.
    RemoveConnection(u32),
    /// Edit the connection at this index.
    Select(u32),
    /// Show or hide this connection in the side-by-side comparison.
    ToggleCompare(u32),
    /// Replace the broker settings (refused when the engine rejects them).
    SetBrokerSettings(BrokerSettings),
    /// Set the number of brokers (at least 1).
    SetBrokerCount(u32),
    /// Replace workload `index`.
    SetWorkload {
        /// Index into the workloads.
        index: u32,
        /// The new workload.
        workload: Workload,
    },
    /// Add a producer (`true`) or a consumer (`false`) on the selected connection.
    AddWorkload {
        /// Producer or consumer.
        producer: bool,
    },
    /// Remove a workload.
    RemoveWorkload(u32),
    /// Edit the cluster or the run's time line (topics, leaders, events,
    /// client start and stop, client kind, `acks`); refused (no change) when
    /// it adds a problem `Scenario::validate` reports ([`model::ClusterEdit::check`]).
    Cluster(model::ClusterEdit),
    /// Start playing (from 0 when at the end).
    Play {
        /// The Timeline's end (ms).
        end_ms: f64,
    },
    /// Stop playing.
    Pause,
    /// Advance by wall-clock time while playing.
    Tick {
        /// Wall-clock ms since the last tick.
        wall_ms: f64,
        /// The Timeline's end (ms); playing stops there.
        end_ms: f64,
    },
    /// Move the cursor (scrubber, step, home/end); stops playing.
    Seek {
        /// The new cursor (ms), clamped to `[0, end_ms]`.
        to_ms: f64,
        /// The Timeline's end (ms).
        end_ms: f64,
    },
    /// Change the speed by this many steps of [`SPEEDS`].
    Speed(i32),
    /// Set the speed to this index of [`SPEEDS`].
    SetSpeed(usize),
    /// Choose the budget shown in the charts.
    FocusSensor(u32),
    /// Choose the client shown in the charts (and show its budget).
    FocusClient(u32),
    /// Redact names in share links.
    SetRedact(bool),
    /// Open or close the keyboard help.
    SetHelp(bool),
    /// Dismiss the notice.
    DismissNotice,
    /// Show a notice (replacing the one shown); the scenario stays.
    ShowNotice(Notice),
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        s.apply(action);
        // Cheap on a playback tick: an unchanged scenario keeps its `Rc`,
        // which `AppState`'s `PartialEq` compares by pointer first.
        if s == *self {
            self
        } else {
            Rc::new(s)
        }
    }
}

impl AppState {
    /// Applies one action in place (the reducer's body, testable natively).
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Load { scenario, origin, notice } => {
                let revision = self.revision + 1;
                let (redact, speed) = (self.redact_links, self.speed);
                *self = AppState::new(*scenario, origin);
                self.revision = revision;
                self.redact_links = redact;
                self.speed = speed;
                self.notice = notice;
            }
            Action::SetQuota { entity, key, value } => {
                if model::check_quota(&self.scenario, &entity, key, value).is_ok() {
                    self.edit(|s| model::set_quota(s, entity, key, value));
                }
            }
            Action::SetQuotas { quotas } => self.edit(|s| s.quotas = quotas),
            Action::RemoveQuota { entity, key } => {
                self.edit(|s| s.quotas.retain(|q| !(q.entity == entity && q.key == key)));
            }
            Action::SetConnection { index, spec } => {
                self.edit(|s| model::set_connection(s, index, spec));
            }
            Action::AddConnection => {
                let base = self.selected;
                self.edit(|s| model::add_connection(s, base));
                self.selected = self.scenario.connections.len().saturating_sub(1) as u32;
            }
            Action::RemoveConnection(i) => self.edit(|s| model::remove_connection(s, i)),
            Action::Select(i) => {
                if (i as usize) < self.scenario.connections.len() {
                    self.selected = i;
                }
            }
            Action::ToggleCompare(i) => {
                if let Some(p) = self.compare.iter().position(|x| *x == i) {
                    self.compare.remove(p);
                } else if (i as usize) < self.scenario.connections.len() {
                    self.compare.push(i);
                    self.compare.sort_unstable();
                }
            }
            Action::SetBrokerSettings(settings) => {
                if settings.validate().is_ok() {
                    self.edit(|s| s.brokers.settings = settings);
                }
            }
            Action::SetBrokerCount(n) => {
                if (1..=model::MAX_BROKERS).contains(&n) {
                    self.edit(|s| s.brokers.count = n);
                }
            }
            Action::SetWorkload { index, workload } => self.edit(|s| {
                if let Some(w) = s.workloads.get_mut(index as usize) {
                    *w = workload;
                }
            }),
            Action::AddWorkload { producer } => {
                let (sel, before) = (self.selected, self.scenario.connections.len());
                self.edit(|s| model::add_workload(s, sel, producer));
                // The new client got a copy of the connection (its own was
                // taken): the copy is the connection edited now, as after
                // AddConnection, so the Connection and Resolution panels
                // show the client just added.
                let after = self.scenario.connections.len();
                if after > before {
                    self.selected = (after - 1) as u32;
                }
            }
            Action::RemoveWorkload(i) => self.edit(|s| {
                if (i as usize) < s.workloads.len() {
                    s.workloads.remove(i as usize);
                }
            }),
            Action::Cluster(edit) => {
                if let Ok(next) = edit.check(&self.scenario) {
                    self.edit(|s| *s = next);
                }
            }
            Action::Play { end_ms } => {
                if self.cursor_ms >= end_ms {
                    self.cursor_ms = 0.0;
                }
                self.playing = end_ms > 0.0;
            }
            Action::Pause => self.playing = false,
            Action::Tick { wall_ms, end_ms } => {
                if self.playing {
                    self.cursor_ms = (self.cursor_ms + wall_ms.max(0.0) * self.speed_factor()).min(end_ms);
                    if self.cursor_ms >= end_ms {
                        self.playing = false;
                    }
                }
            }
            Action::Seek { to_ms, end_ms } => {
                self.playing = false;
                self.cursor_ms = if to_ms.is_finite() { to_ms.clamp(0.0, end_ms.max(0.0)) } else { 0.0 };
            }
            Action::Speed(d) => {
                let i = (self.speed as i64 + i64::from(d)).clamp(0, SPEEDS.len() as i64 - 1);
                self.speed = i as usize;
            }
            Action::SetSpeed(i) => self.speed = i.min(SPEEDS.len() - 1),
            Action::FocusSensor(i) => self.focus_sensor = Some(i),
            Action::FocusClient(i) => {
                self.focus_client = Some(i);
                self.focus_sensor = None;
            }
            Action::SetRedact(r) => self.redact_links = r,
            Action::SetHelp(h) => self.help_open = h,
            Action::DismissNotice => self.notice = None,
            Action::ShowNotice(n) => self.notice = Some(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use quota_engine::EntityName;

    fn state() -> AppState {
        AppState::new(presets::default_scenario(), Origin::Default)
    }

    #[test]
    fn a_valid_quota_is_stored_and_bumps_the_revision() {
        let mut s = state();
        let entity = QuotaEntity::client_id("reporting-job");
        s.apply(Action::SetQuota { entity: entity.clone(), key: QuotaKey::RequestPercentage, value: 50.0 });
        assert_eq!(s.revision, 2);
        assert!(s.scenario.quotas.iter().any(|q| q.entity == entity && q.value == 50.0));
        // Setting it again to another value replaces it: one value per key.
        s.apply(Action::SetQuota { entity: entity.clone(), key: QuotaKey::RequestPercentage, value: 25.0 });
        let n = s.scenario.quotas.iter().filter(|q| q.entity == entity).count();
        assert_eq!(n, 1);
        s.apply(Action::RemoveQuota { entity: entity.clone(), key: QuotaKey::RequestPercentage });
        assert!(!s.scenario.quotas.iter().any(|q| q.entity == entity));
    }

    /// The import box applies an import to the scenario it showed
    /// (`interchange::apply_quotas`, which gives it the counts it reports)
    /// and dispatches the result once, as `SetQuotas`.
    fn import(s: &mut AppState, q: &quota_engine::sim::QuotaSetting, replace: bool) {
        let mut after = (*s.scenario).clone();
        crate::interchange::apply_quotas(&mut after, std::slice::from_ref(q), replace);
        s.apply(Action::SetQuotas { quotas: after.quotas });
    }

    #[test]
    fn importing_quotas_merges_or_replaces_and_bumps_the_revision() {
        let mut s = state();
        let before = s.scenario.quotas.clone();
        let q = quota_engine::sim::QuotaSetting { entity: QuotaEntity::user("tenantUserA"), key: QuotaKey::ProducerByteRate, value: 2e6 };
        import(&mut s, &q, false);
        assert_eq!(s.revision, 2);
        assert_eq!(s.scenario.quotas.len(), before.len() + 1);
        assert!(before.iter().all(|b| s.scenario.quotas.contains(b)));
        // The same import again changes nothing, so nothing re-renders.
        let same = s.scenario.clone();
        import(&mut s, &q, false);
        assert_eq!(s.revision, 2);
        assert!(Rc::ptr_eq(&same, &s.scenario), "an import that changes nothing keeps the scenario");
        import(&mut s, &q, true);
        assert_eq!(s.scenario.quotas, vec![q]);
        assert_eq!(s.revision, 3);
    }

    #[test]
    fn a_quota_kafka_refuses_changes_nothing() {
        let mut s = state();
        let before = s.clone();
        // A user cannot take connection_creation_rate; a LONG cannot be fractional.
        s.apply(Action::SetQuota { entity: QuotaEntity::user("x"), key: QuotaKey::ConnectionCreationRate, value: 5.0 });
        s.apply(Action::SetQuota { entity: QuotaEntity::user("x"), key: QuotaKey::ProducerByteRate, value: 1.5 });
        s.apply(Action::SetQuota { entity: QuotaEntity::User(EntityName::Named(String::new())), key: QuotaKey::ProducerByteRate, value: 10.0 });
        assert_eq!(s, before);
    }

    #[test]
    fn playing_moves_the_cursor_at_the_speed_and_stops_at_the_end() {
        let mut s = state();
        s.apply(Action::SetSpeed(2)); // 1x
        s.apply(Action::Tick { wall_ms: 100.0, end_ms: 1000.0 });
        assert_eq!(s.cursor_ms, 0.0, "paused: ticks do nothing");
        s.apply(Action::Play { end_ms: 1000.0 });
        s.apply(Action::Tick { wall_ms: 100.0, end_ms: 1000.0 });
        assert_eq!(s.cursor_ms, 100.0);
        s.apply(Action::Speed(2)); // 5x
        s.apply(Action::Tick { wall_ms: 100.0, end_ms: 1000.0 });
        assert_eq!(s.cursor_ms, 600.0);
        s.apply(Action::Tick { wall_ms: 1000.0, end_ms: 1000.0 });
        assert_eq!((s.cursor_ms, s.playing), (1000.0, false));
        // Play at the end starts over.
        s.apply(Action::Play { end_ms: 1000.0 });
        assert_eq!((s.cursor_ms, s.playing), (0.0, true));
        s.apply(Action::Seek { to_ms: 5000.0, end_ms: 1000.0 });
        assert_eq!((s.cursor_ms, s.playing), (1000.0, false));
        s.apply(Action::Seek { to_ms: f64::NAN, end_ms: 1000.0 });
        assert_eq!(s.cursor_ms, 0.0);
        s.apply(Action::Speed(-100));
        assert_eq!(s.speed, 0);
    }

    #[test]
    fn playback_starts_in_real_time() {
        assert_eq!(state().speed_factor(), 1.0);
    }

    #[test]
    fn renaming_a_connection_keeps_its_workloads() {
        let mut s = state();
        let mut spec = s.scenario.connections[0].clone();
        let old = spec.name.clone();
        spec.name = "renamed".into();
        s.apply(Action::SetConnection { index: 0, spec });
        assert!(s.scenario.workloads.iter().all(|w| model::workload_connection(w) != old));
        assert!(s.scenario.workloads.iter().any(|w| model::workload_connection(w) == "renamed"));
    }

    #[test]
    fn removing_a_connection_removes_its_workloads_and_fixes_selection() {
        let mut s = state();
        s.apply(Action::AddConnection);
        assert_eq!(s.scenario.connections.len(), 2);
        assert_eq!(s.selected, 1);
        s.apply(Action::ToggleCompare(1));
        s.apply(Action::ToggleCompare(0));
        assert_eq!(s.compare, vec![0, 1]);
        s.apply(Action::AddWorkload { producer: true });
        let n = s.scenario.workloads.len();
        s.apply(Action::RemoveConnection(1));
        assert_eq!(s.scenario.workloads.len(), n - 1);
        assert_eq!((s.selected, s.compare.clone()), (0, vec![0]));
    }

    #[test]
    fn adding_a_client_to_a_taken_connection_selects_its_copy() {
        let mut s = state();
        let taken = s.scenario.workloads.iter().map(model::workload_connection).collect::<Vec<_>>();
        let i = s.scenario.connections.iter().position(|c| taken.contains(&c.name.as_str())).expect("a connection with a client") as u32;
        s.apply(Action::Select(i));
        let n = s.scenario.connections.len();
        s.apply(Action::AddWorkload { producer: true });
        assert_eq!(s.scenario.connections.len(), n + 1);
        assert_eq!(s.selected, n as u32);
        let copy = &s.scenario.connections[n];
        let last = s.scenario.workloads.last().expect("the new producer");
        assert_eq!(model::workload_connection(last), copy.name);
        // A free connection takes the client itself: the selection stays.
        s.apply(Action::AddConnection);
        let free = s.selected;
        let n = s.scenario.connections.len();
        s.apply(Action::AddWorkload { producer: false });
        assert_eq!((s.scenario.connections.len(), s.selected), (n, free));
    }

    #[test]
    fn bad_broker_settings_are_refused() {
        let mut s = state();
        let mut b = s.scenario.brokers.settings.clone();
        b.quota_window_num = 0;
        s.apply(Action::SetBrokerSettings(b));
        assert_eq!(s.scenario.brokers.settings.quota_window_num, 11);
        s.apply(Action::SetBrokerCount(0));
        assert_eq!(s.scenario.brokers.count, 1);
    }

    #[test]
    fn cluster_edits_change_topics_and_events_and_bump_the_revision() {
        use model::ClusterEdit;
        let mut s = state();
        s.apply(Action::SetBrokerCount(3));
        s.apply(Action::Cluster(ClusterEdit::SetPartitions { index: 0, partitions: 3 }));
        assert_eq!(s.scenario.topics[0].partitions, 3);
        let rev = s.revision;
        s.apply(Action::Cluster(ClusterEdit::AddEvent { move_leader: false }));
        assert_eq!(s.scenario.events.len(), 1);
        assert_eq!(s.scenario.events[0].at_ms(), 5000);
        s.apply(Action::Cluster(ClusterEdit::SetLeader { topic: 0, partition: 1, broker: 2 }));
        assert_eq!(s.scenario.topics[0].leaders, Some(vec![0, 2, 2]));
        s.apply(Action::Cluster(ClusterEdit::SetStop { index: 0, stop_ms: Some(9000) }));
        assert!(matches!(&s.scenario.workloads[0], Workload::Producer(p) if p.stop_ms == Some(9000)));
        assert_eq!(s.revision, rev + 3);
        s.apply(Action::Cluster(ClusterEdit::RemoveEvent(0)));
        assert!(s.scenario.events.is_empty());
    }

    #[test]
    fn a_cluster_edit_the_engine_refuses_changes_nothing() {
        use model::ClusterEdit;
        let mut s = state();
        let before = s.clone();
        // Broker 1 does not exist with one broker; the topic is written to;
        // a stop at 0 ms is not after the start.
        s.apply(Action::Cluster(ClusterEdit::SetLeader { topic: 0, partition: 0, broker: 1 }));
        s.apply(Action::Cluster(ClusterEdit::RemoveTopic(0)));
        s.apply(Action::Cluster(ClusterEdit::SetStop { index: 0, stop_ms: Some(0) }));
        s.apply(Action::Cluster(ClusterEdit::AddEvent { move_leader: true }));
        assert_eq!(s, before);
    }

    #[test]
    fn loading_keeps_preferences_and_resets_the_view() {
        let mut s = state();
        s.apply(Action::SetRedact(true));
        s.apply(Action::Seek { to_ms: 500.0, end_ms: 1000.0 });
        let rev = s.revision;
        s.apply(Action::Load { scenario: Box::new(presets::default_scenario()), origin: Origin::Lesson(1), notice: None });
        assert!(s.redact_links);
        assert_eq!(s.cursor_ms, 0.0);
        assert!(s.revision > rev);
    }
}
