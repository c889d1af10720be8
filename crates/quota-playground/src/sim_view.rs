//! The simulation of the current scenario as the panels and hooks read it
//! (its own module so that `app` and `hooks` both use it without depending
//! on each other), and the hook that keeps it current: on the main thread
//! for a quick run, else in the simulation worker ([`crate::sim_worker`]),
//! the last result staying on screen, marked as updating, meanwhile.

use std::rc::Rc;

use quota_engine::sim::{Scenario, Timeline};
use yew::prelude::*;

use crate::{model, platform, sim_worker};

/// The simulation of the current scenario.
#[derive(Debug)]
pub(crate) struct SimView {
    /// The Timeline, or the engine's reason it could not be computed.
    pub(crate) result: Result<Timeline, String>,
    /// The transport's step stops ([`Timeline::event_times`]).
    pub(crate) events: Vec<f64>,
    /// Said under the transport when the simulation worker could not be
    /// used ([`sim_worker::fallback_note`]).
    pub(crate) note: Option<String>,
    /// No run yet ([`SimView::waiting`]): the panel says the first one is
    /// being computed.
    pub(crate) waiting: bool,
}

impl SimView {
    /// Simulates `scenario` ([`model::simulate`]) and lists its step stops.
    pub(crate) fn of(scenario: &Scenario) -> Self {
        Self::from_result(model::simulate(scenario))
    }

    /// The view of a run done elsewhere (the worker).
    pub(crate) fn from_result(result: Result<Timeline, String>) -> Self {
        let events = result.as_ref().map(Timeline::event_times).unwrap_or_default();
        SimView { result, events, note: None, waiting: false }
    }

    /// No run yet: the first run of the scenario is in the worker.
    pub(crate) fn waiting() -> Self {
        SimView { waiting: true, ..Self::from_result(Err(String::new())) }
    }

    /// The end of simulated time (ms), 0 without a Timeline.
    pub(crate) fn end_ms(&self) -> f64 {
        self.result.as_ref().map_or(0.0, |t| t.end_ms)
    }
}

/// Whether `scenario` is simulated on the main thread: its estimated cost,
/// simulated client-seconds ([`model::client_seconds`]) and partitions
/// ([`model::partitions`]), is at most [`sim_worker::SYNC_CLIENT_SECONDS`]
/// and [`sim_worker::SYNC_PARTITIONS`]. Decided from this scenario, not from
/// how long the last run took, so the first run after loading a large
/// link, lesson or import already goes to the worker.
pub(crate) fn runs_here(scenario: &Scenario) -> bool {
    model::client_seconds(scenario) <= sim_worker::SYNC_CLIENT_SECONDS && model::partitions(scenario) <= sim_worker::SYNC_PARTITIONS
}

/// What [`use_simulation`] keeps between renders.
struct Shown {
    /// The revision `view` simulates (0: none yet, the first run is in
    /// the worker).
    rev: u64,
    view: Rc<SimView>,
    /// The newest revision rendered, and its scenario.
    latest: (u64, Scenario),
    /// Why the worker cannot be used, once it cannot.
    no_worker: Option<String>,
    /// When the last run from the worker was taken in (ms), 0 before.
    applied_at: f64,
}

impl Shown {
    fn run_here(&mut self, rev: u64, scenario: &Scenario) {
        let mut view = SimView::of(scenario);
        view.note = self.no_worker.as_deref().map(sim_worker::fallback_note);
        self.view = Rc::new(view);
        self.rev = rev;
    }
}

/// The simulation of revision `rev` of `scenario`, and whether a newer one
/// is being computed (the view is then the previous revision's, or
/// [`SimView::waiting`] before the first). A scenario that [`runs_here`]
/// is simulated on the main thread during the render; others in the
/// worker, coalesced. Without a worker, on the main thread with a note.
#[hook]
pub(crate) fn use_simulation(rev: u64, scenario: &Scenario) -> (Rc<SimView>, bool) {
    let shown = use_mut_ref(|| {
        let mut s = Shown {
            rev: 0,
            view: Rc::new(SimView::waiting()),
            latest: (rev, scenario.clone()),
            no_worker: None,
            applied_at: 0.0,
        };
        if runs_here(scenario) {
            s.run_here(rev, scenario);
        }
        s
    });
    let redraw = use_force_update();
    {
        let mut s = shown.borrow_mut();
        if s.latest.0 != rev {
            s.latest = (rev, scenario.clone());
        }
        let quick = runs_here(scenario) || s.no_worker.is_some();
        if s.rev != rev && quick {
            s.run_here(rev, scenario);
        }
    }
    {
        let (shown, redraw) = (shown.clone(), redraw.clone());
        use_effect_with((), move |_| {
            let listener = Callback::from(move |event: sim_worker::SimEvent| {
                let mut s = shown.borrow_mut();
                match event {
                    // (How long the worker took does not steer where the
                    // next run goes: [`runs_here`] does.)
                    sim_worker::SimEvent::Done(r, result, _took_ms) => {
                        if r == s.latest.0 {
                            s.applied_at = platform::now_ms();
                            s.view = Rc::new(SimView::from_result(result));
                            s.rev = r;
                        }
                    }
                    sim_worker::SimEvent::Failed(why) => {
                        s.no_worker = Some(why);
                        let (rev, scenario) = s.latest.clone();
                        if s.rev != rev {
                            s.run_here(rev, &scenario);
                        } else {
                            let mut view = SimView::from_result(s.view.result.clone());
                            view.note = s.no_worker.as_deref().map(sim_worker::fallback_note);
                            view.waiting = s.view.waiting;
                            s.view = Rc::new(view);
                        }
                    }
                }
                drop(s);
                redraw.force_update();
            });
            sim_worker::listen(Some(listener));
            || sim_worker::listen(None)
        });
    }
    {
        let shown = shown.clone();
        use_effect_with(rev, move |_| {
            let pending = {
                let s = shown.borrow();
                s.rev != s.latest.0
            };
            // The worker starts with the first run that needs it: at load
            // only for a scenario past `runs_here` (never for the lab's).
            if pending {
                let (rev, scenario) = shown.borrow().latest.clone();
                if let Err(why) = sim_worker::request(rev, &scenario) {
                    let mut s = shown.borrow_mut();
                    s.no_worker = Some(why);
                    s.run_here(rev, &scenario);
                    drop(s);
                    redraw.force_update();
                }
            }
        });
    }
    {
        // `<body data-sim-rev data-sim-apply-ms>`: the revision on screen and
        // how long showing a run from the worker took (its render and DOM
        // update), for the benchmark and the browser tests.
        let shown = shown.clone();
        let on_screen = shown.borrow().rev;
        use_effect_with(on_screen, move |rev| {
            let s = shown.borrow();
            if s.applied_at > 0.0 {
                platform::mark_body("data-sim-apply-ms", &format!("{:.2}", platform::now_ms() - s.applied_at));
            }
            platform::mark_body("data-sim-rev", &rev.to_string());
        });
    }
    let s = shown.borrow();
    (s.view.clone(), s.rev != rev)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a run goes follows the scenario's size: the lab's scenario and
    /// the lessons on the main thread, the 100-producer benchmark, a
    /// 1,000-client scenario or a tenfold horizon of it in the worker.
    #[test]
    fn the_scenario_s_size_decides_where_it_runs() {
        assert!(runs_here(&crate::presets::default_scenario()));
        for l in crate::presets::LESSONS {
            assert!(runs_here(&l.scenario()), "{}", l.title);
        }
        let bench = include_str!("../../../tests/fixtures/bench/100-clients-3-brokers.json");
        let envelope: serde_json::Value = serde_json::from_str(bench).unwrap();
        let bench: Scenario = serde_json::from_value(envelope["scenario"].clone()).unwrap();
        assert!(!runs_here(&bench));
        let mut lab = crate::presets::default_scenario();
        let w = lab.workloads[0].clone();
        lab.workloads = vec![w; 1_000];
        assert!(!runs_here(&lab));
        let mut long = crate::presets::default_scenario();
        long.horizon_ms *= 20;
        assert!(!runs_here(&long), "{}", model::client_seconds(&long));
        let mut wide = crate::presets::default_scenario();
        wide.topics[0].partitions = 10_000;
        assert!(!runs_here(&wide));
    }
}
