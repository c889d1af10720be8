//! The simulation of the current scenario as the panels and hooks read it
//! (its own module so that `app` and `hooks` both use it without depending
//! on each other), and the hook that keeps it current: every run is
//! computed by the simulation worker ([`crate::sim_worker`]), the last
//! result staying on screen, marked as updating, meanwhile.

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
    /// The view of a run (from the worker).
    pub(crate) fn from_result(result: Result<Timeline, String>) -> Self {
        let events = result.as_ref().map(step_stops).unwrap_or_default();
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

/// Connection attempts whose moments are step stops, per track (a storm
/// may make tens of thousands).
const CONNECT_STOPS: usize = 2_000;

/// The transport's step stops: [`Timeline::event_times`], and the moments
/// of the first connection attempts (taken by the acceptor, closed, ready).
fn step_stops(t: &Timeline) -> Vec<f64> {
    let mut v = t.event_times();
    if t.connects.is_empty() {
        return v;
    }
    for c in &t.connects {
        for a in c.attempts.iter().take(CONNECT_STOPS) {
            v.push(a.accepted_ms);
            v.extend(a.closed_ms);
            v.extend(a.ready_ms);
        }
    }
    v.retain(|x| x.is_finite() && *x >= 0.0 && *x <= t.end_ms);
    v.sort_unstable_by(f64::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 0.5);
    v
}

/// The panels that show the run: the simulation starts when one of them
/// comes near the viewport (their `id`s).
pub(crate) const RUN_PANELS: [&str; 2] = ["simulation", "cluster"];

/// How far below (or above) the viewport a panel of [`RUN_PANELS`] starts
/// the simulation: a CSS margin for the IntersectionObserver, so the run is
/// usually there by the time the panel is scrolled to.
pub(crate) const NEAR_MARGIN: &str = "600px 0px";

thread_local! {
    /// Sets the run as wanted now ([`want_now`]); set by [`use_simulation`].
    static WANT: std::cell::RefCell<Option<Callback<()>>> = const { std::cell::RefCell::new(None) };
}

/// Starts the simulation now, without waiting for a panel of the run to
/// come near (the Answer's "Simulate now").
pub(crate) fn want_now() {
    if let Some(want) = WANT.with(|w| w.borrow().clone()) {
        want.emit(());
    }
}

/// What [`use_simulation`] keeps between renders.
struct Shown {
    /// The revision `view` simulates (0: none yet, the first run is in
    /// the worker).
    rev: u64,
    view: Rc<SimView>,
    /// The newest revision rendered, and its scenario.
    latest: (u64, Rc<Scenario>),
    /// Why the worker cannot be used, once it cannot.
    no_worker: Option<String>,
    /// When the last run from the worker was taken in (ms), 0 before.
    applied_at: f64,
}

impl Shown {
    /// The line under the transport once the worker cannot be used
    /// ([`sim_worker::fallback_note`]); none once the main thread cannot run
    /// the module either, as the run's reason then says both
    /// ([`sim_worker::here_failed`]).
    fn note(&self, client: &sim_worker::SimClient) -> Option<String> {
        self.no_worker.as_deref().filter(|_| !client.here_cannot_run()).map(sim_worker::fallback_note)
    }
}

/// The simulation of revision `rev` of `scenario`, and whether a newer one
/// is being computed (the view is then the previous revision's, or
/// [`SimView::waiting`] before the first; not computed, and not said to
/// be, until the run is wanted). Unless `eager` (an embed of a
/// panel that shows the run), nothing is simulated until a panel of
/// [`RUN_PANELS`] comes near the viewport ([`platform::when_near`]); from
/// then on each revision is asked of the worker, coalesced. Without a
/// worker, the module runs on the main thread, with a note. `client` is
/// the page's simulation client (the App's [`crate::ctx::Workers`]).
#[hook]
pub(crate) fn use_simulation(client: &sim_worker::SimClient, rev: u64, scenario: &Rc<Scenario>, eager: bool) -> (Rc<SimView>, bool) {
    let shown = use_mut_ref(|| Shown {
        rev: 0,
        view: Rc::new(SimView::waiting()),
        latest: (rev, Rc::clone(scenario)),
        no_worker: None,
        applied_at: 0.0,
    });
    let wanted = use_state(|| eager);
    let redraw = use_force_update();
    {
        let mut s = shown.borrow_mut();
        if s.latest.0 != rev {
            s.latest = (rev, Rc::clone(scenario));
        }
    }
    {
        let wanted = wanted.setter();
        use_effect_with((), move |_| {
            let now = wanted.clone();
            WANT.with(|w| *w.borrow_mut() = Some(Callback::from(move |()| now.set(true))));
            let observer = if eager { None } else { platform::when_near(&RUN_PANELS, NEAR_MARGIN, move || wanted.set(true)) };
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
            }
        });
    }
    {
        let (shown, redraw, client) = (shown.clone(), redraw.clone(), client.clone());
        use_effect_with((), move |_| {
            // Weak: the client holds this listener.
            let me = client.weak();
            let listener = Callback::from(move |event: sim_worker::SimEvent| {
                let Some(asker) = me.upgrade() else { return };
                let mut s = shown.borrow_mut();
                match event {
                    sim_worker::SimEvent::Done(r, result, _took_ms) => {
                        if r == s.latest.0 {
                            s.applied_at = platform::now_ms();
                            let mut view = SimView::from_result(result);
                            view.note = s.note(&asker);
                            s.view = Rc::new(view);
                            s.rev = r;
                        }
                    }
                    sim_worker::SimEvent::Failed(why, running) => {
                        // The worker is gone: the module on the main thread
                        // runs the newest revision, unless that is the run
                        // the worker stopped on (it would stop the page too):
                        // that one is answered with why (issue 30).
                        let (rev, scenario) = s.latest.clone();
                        if running == Some(rev) {
                            let mut view = SimView::from_result(Err(sim_worker::stopped_in_worker(&why)));
                            s.no_worker = Some(why);
                            view.note = s.note(&asker);
                            s.view = Rc::new(view);
                            s.rev = rev;
                        } else {
                            s.no_worker = Some(why);
                            let mut view = SimView::from_result(s.view.result.clone());
                            view.note = s.note(&asker);
                            view.waiting = s.view.waiting;
                            s.view = Rc::new(view);
                            if s.rev != rev {
                                drop(s);
                                asker.request(rev, &scenario);
                            }
                        }
                    }
                }
                redraw.force_update();
            });
            client.listen(Some(listener));
            move || client.listen(None)
        });
    }
    {
        let (shown, client) = (shown.clone(), client.clone());
        use_effect_with((rev, *wanted), move |&(rev, wanted)| {
            let pending = shown.borrow().rev != rev;
            if wanted && pending {
                let scenario = shown.borrow().latest.1.clone();
                // Nothing to simulate, or too large: said without the worker.
                if let Some(why) = model::not_simulated(&scenario) {
                    let mut s = shown.borrow_mut();
                    s.view = Rc::new(SimView::from_result(Err(why)));
                    s.rev = rev;
                    drop(s);
                    redraw.force_update();
                } else {
                    // Posted in a task of its own: writing the scenario's
                    // JSON and posting it (about 10 ms with 100 clients) do
                    // not lengthen the edit's render.
                    gloo::timers::callback::Timeout::new(0, move || client.request(rev, &scenario)).forget();
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
    // Updating only once asked: before a run panel comes near nothing is
    // being computed (the panel says when it will be).
    (s.view.clone(), *wanted && s.rev != rev)
}
