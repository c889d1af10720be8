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
}

impl SimView {
    /// Simulates `scenario` ([`model::simulate`]) and lists its step stops.
    pub(crate) fn of(scenario: &Scenario) -> Self {
        Self::from_result(model::simulate(scenario))
    }

    /// The view of a run done elsewhere (the worker).
    pub(crate) fn from_result(result: Result<Timeline, String>) -> Self {
        let events = result.as_ref().map(Timeline::event_times).unwrap_or_default();
        SimView { result, events, note: None }
    }

    /// The end of simulated time (ms), 0 without a Timeline.
    pub(crate) fn end_ms(&self) -> f64 {
        self.result.as_ref().map_or(0.0, |t| t.end_ms)
    }
}

/// What [`use_simulation`] keeps between renders.
struct Shown {
    /// The revision `view` simulates.
    rev: u64,
    view: Rc<SimView>,
    /// How long the last run took (ms), on this thread or in the worker.
    last_ms: f64,
    /// The newest revision rendered, and its scenario.
    latest: (u64, Scenario),
    /// Why the worker cannot be used, once it cannot.
    no_worker: Option<String>,
    /// When the last run from the worker was taken in (ms), 0 before.
    applied_at: f64,
}

impl Shown {
    fn run_here(&mut self, rev: u64, scenario: &Scenario) {
        let start = platform::now_ms();
        let mut view = SimView::of(scenario);
        // A refusal (no clients, a limit, a validation error) is quick and
        // says nothing of how long the next run takes.
        if view.result.is_ok() {
            self.last_ms = platform::now_ms() - start;
        }
        view.note = self.no_worker.as_deref().map(sim_worker::fallback_note);
        self.view = Rc::new(view);
        self.rev = rev;
    }
}

/// The simulation of revision `rev` of `scenario`, and whether a newer one
/// is being computed (the view is then the previous revision's). The first
/// run, and any run after one that took at most
/// [`sim_worker::SYNC_BUDGET_MS`], happens on the main thread during the
/// render; others in the worker, coalesced. Without a worker, on the main
/// thread with a note.
#[hook]
pub(crate) fn use_simulation(rev: u64, scenario: &Scenario) -> (Rc<SimView>, bool) {
    let shown = use_mut_ref(|| {
        let mut s = Shown {
            rev,
            view: Rc::new(SimView::from_result(Err(String::new()))),
            last_ms: 0.0,
            latest: (rev, scenario.clone()),
            no_worker: None,
            applied_at: 0.0,
        };
        s.run_here(rev, scenario);
        s
    });
    let redraw = use_force_update();
    {
        let mut s = shown.borrow_mut();
        if s.latest.0 != rev {
            s.latest = (rev, scenario.clone());
        }
        let quick = s.last_ms <= sim_worker::SYNC_BUDGET_MS || s.no_worker.is_some();
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
                    sim_worker::SimEvent::Done(r, result, took_ms) => {
                        if result.is_ok() {
                            s.last_ms = took_ms;
                        }
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
            // The worker starts with the first edit that needs it, never
            // at load: the page fetches nothing more before an interaction.
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
