//! Effects: URL and storage sync, playback timer, keyboard, embed height,
//! timing marks. The reducer stays pure; everything that touches the
//! browser or the clock is here.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::platform;
use crate::sim_view::SimView;
use crate::state::{Action, AppState, Notice, NoticeLevel, Origin};

/// Writes the scenario's permalink `link` (made once per revision by the
/// root, see [`crate::ctx::Ctx::link`]) into the URL hash and the autosave
/// after an edit (not on first load, so a damaged link stays visible until
/// the user changes something; an embed never overwrites the autosave). A
/// page opened without a scenario in its hash (none, or `#/quotas`) gets
/// its link in the address bar at once (not in the autosave), so that
/// every history entry of the page carries its scenario and Back returns
/// to it.
///
/// Written [`URL_WRITE_DELAY_MS`] after the last edit (a timer that each
/// newer revision restarts, replacing the write not yet made), never inside
/// the edit's render: with 100 producers the synchronous
/// `History.replaceState` of a 2 KB link and the `localStorage` write cost
/// 10–20 ms, which put the keystroke tasks back at 80–160 ms when made in
/// them (issue 11's typing measure; BENCHMARKS.md), and made once per
/// keystroke they were that much more main-thread work while typing. The
/// first write of a page opened without a scenario in its hash is made in
/// the next task. A page hidden (`visibilitychange`) makes a queued write at
/// once. An edit followed within the delay by Back, Forward or a pasted
/// link does not reach the history entry it was made on (the address bar
/// is on another entry by then); a damaged link pasted meanwhile puts the
/// edit's link back in the address bar and the autosave, and in-page
/// navigation (`#/quotas`) keeps the write. A write is dropped when the address bar moved on
/// meanwhile (Back, Forward, a pasted link): it would land on another
/// history entry, and the `hashchange` below opens that entry's scenario.
/// A page hidden or left (`pagehide`) writes a pending link at once, and
/// notes the last link for a reload of this tab, which takes the address
/// bar as it was when the reload started ([`platform::hand_over_on_reload`]).
///
/// A hash the user puts in the address bar of the open page (a pasted
/// link, Back, Forward: `hashchange`) is opened as [`platform::on_hash_change`]
/// says: a permalink is loaded through `dispatcher`; a damaged one leaves
/// the scenario, says why and puts the page's link back in the address bar;
/// a `#text=` link reloads the page.
#[hook]
pub(crate) fn use_url_sync(revision: u64, link: &Rc<str>, embedded: bool, dispatcher: UseReducerDispatcher<AppState>) {
    let sync = use_mut_ref(|| UrlSync { pending: None, last: None, current: link.clone(), embedded });
    sync.borrow_mut().current = link.clone();
    {
        let sync = sync.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "hashchange", move |_| {
                    // Decided under the borrow, dispatched after it.
                    let opened = sync.borrow_mut().hash_changed(&platform::location_hash());
                    if let Some(action) = opened {
                        dispatcher.dispatch(action);
                        // As a page opened at the link would be: at its top,
                        // with the notice in view.
                        platform::scroll_to_top();
                    }
                })
            });
            move || drop(listener)
        });
    }
    {
        let sync = sync.clone();
        use_effect_with((), move |_| {
            let left = web_sys::window().map(|w| {
                let sync = sync.clone();
                EventListener::new(&w, "pagehide", move |_| sync.borrow_mut().leave())
            });
            // A phone may discard a page hidden by an app switch without a
            // `pagehide`: a queued write is made when the page is hidden.
            let hidden = web_sys::window().and_then(|w| w.document()).map(|doc| {
                EventListener::new(&doc, "visibilitychange", move |_| {
                    if platform::page_hidden() {
                        sync.borrow_mut().flush();
                    }
                })
            });
            move || drop((left, hidden))
        });
    }
    let link = link.clone();
    use_effect_with(revision, move |rev| {
        let expected = platform::location_hash();
        let edited = *rev > 1;
        let timer = (edited || !platform::is_scenario_hash(&expected)).then(|| {
            sync.borrow_mut().pending = Some(Write { expected, link, save: edited });
            let delay = if edited { URL_WRITE_DELAY_MS } else { 0 };
            gloo::timers::callback::Timeout::new(delay, move || sync.borrow_mut().flush())
        });
        move || drop(timer)
    });
}

/// What [`use_url_sync`]'s timer and listeners share (one `RefCell`,
/// never borrowed across a dispatch).
struct UrlSync {
    /// The write not yet made.
    pending: Option<Write>,
    /// The last link written, with the hash it replaced.
    last: Option<(String, Rc<str>)>,
    /// The scenario's link now.
    current: Rc<str>,
    /// The page is an embed (it never writes the autosave).
    embedded: bool,
}

impl UrlSync {
    /// Makes the queued write, if any, when the address bar still has the
    /// hash it had when the write was queued (otherwise it would land on
    /// another history entry).
    fn flush(&mut self) {
        let Some(w) = self.pending.take() else { return };
        let from = platform::location_hash();
        if from != w.expected {
            return;
        }
        platform::replace_hash(&w.link);
        if w.save && !self.embedded {
            platform::autosave(&w.link);
        }
        self.last = Some((from, w.link));
    }

    /// The page is left (`pagehide`): the queued write at once, and the
    /// last link noted for a reload of this tab.
    fn leave(&mut self) {
        self.flush();
        if let Some((from, to)) = &self.last {
            platform::hand_over_on_reload(from, to);
        }
    }

    /// The address bar's hash changed to `hash` (a pasted link, Back,
    /// Forward, in-page navigation): what [`platform::on_hash_change`] says
    /// of it is done, and a scenario to open is returned as the action to
    /// dispatch.
    fn hash_changed(&mut self, hash: &str) -> Option<Action> {
        // An edit's write still waiting for its delay.
        let queued = self.pending.take();
        match platform::on_hash_change(hash, &self.current) {
            // In-page navigation (`#/quotas`): the edit's link replaces it
            // when due, as a page opened there gets its link.
            platform::HashChange::Ignore => {
                self.pending = queued.map(|w| Write { expected: hash.to_owned(), ..w });
                None
            }
            // Back, Forward or a pasted link within the delay of an edit:
            // the address bar is on another entry, which the edit's link
            // must not overwrite; the opened scenario's own write follows.
            platform::HashChange::Open(scenario) => {
                let notice = Notice { level: NoticeLevel::Info, text: "Opened the link from the address bar.".into() };
                Some(Action::Load { scenario, origin: Origin::Link, notice: Some(notice) })
            }
            platform::HashChange::Refused(why) => {
                // The page's link (the queued edit's, if any) goes back in
                // the address bar, and into the autosave.
                platform::replace_hash(&self.current);
                if let Some(w) = queued.filter(|w| w.save && !self.embedded) {
                    platform::autosave(&w.link);
                }
                Some(Action::ShowNotice(Notice { level: NoticeLevel::Error, text: why }))
            }
            platform::HashChange::Reload => {
                // Nothing of the page's may overwrite the new hash before
                // the reload, nor hand a link over to the new page.
                self.last = None;
                platform::forget_reload_note();
                platform::reload();
                None
            }
        }
    }
}

/// How long after the last edit [`use_url_sync`] writes the address bar and
/// the autosave (ms): typing a value writes them once, after its last
/// keystroke. A reload or a closed tab within this time still gets the
/// link (`pagehide`).
pub(crate) const URL_WRITE_DELAY_MS: u32 = 300;

/// A write of [`use_url_sync`] not yet made.
struct Write {
    /// The address bar's hash when the write was queued: the write is made
    /// only if it is still there.
    expected: String,
    /// The link to write.
    link: Rc<str>,
    /// Whether the autosave gets it too (after an edit, not at load).
    save: bool,
}

/// Moves the cursor while playing: an interval (33 ms, or 250 ms when the
/// user prefers reduced motion) dispatches `Tick` with the wall time that
/// passed. The engine never runs here: only the cursor moves.
#[hook]
pub(crate) fn use_playback(state: &UseReducerHandle<AppState>, end_ms: f64) {
    let end = use_mut_ref(|| Cell::new(end_ms));
    end.borrow().set(end_ms);
    let dispatcher = state.dispatcher();
    use_effect_with(state.playing, move |playing| {
        let interval = playing.then(|| {
            let period = if platform::prefers_reduced_motion() { 250 } else { 33 };
            let last = Cell::new(platform::now_ms());
            Interval::new(period, move || {
                let now = platform::now_ms();
                let wall_ms = now - last.replace(now);
                dispatcher.dispatch(Action::Tick { wall_ms, end_ms: end.borrow().get() });
            })
        });
        move || drop(interval)
    });
}

/// What the keyboard handler needs from the latest render.
struct KeyView {
    cursor_ms: f64,
    playing: bool,
    help_open: bool,
    end_ms: f64,
    events: Rc<SimView>,
}

/// The document-level shortcuts (see the help sheet). Ignored while typing
/// in a field, except Escape.
#[hook]
pub(crate) fn use_keyboard(state: &UseReducerHandle<AppState>, sim: &Rc<SimView>) {
    let view = use_mut_ref(|| None::<KeyView>);
    *view.borrow_mut() = Some(KeyView {
        cursor_ms: state.cursor_ms,
        playing: state.playing,
        help_open: state.help_open,
        end_ms: sim.end_ms(),
        events: sim.clone(),
    });
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let view: &RefCell<Option<KeyView>> = &view;
                let guard = view.borrow();
                let Some(v) = guard.as_ref() else { return };
                if let Some(action) = key_action(e, v) {
                    e.prevent_default();
                    dispatcher.dispatch(action);
                }
            })
        });
        move || drop(listener)
    });
}

fn key_action(e: &web_sys::KeyboardEvent, v: &KeyView) -> Option<Action> {
    let key = e.key();
    if key == "Escape" && v.help_open {
        return Some(Action::SetHelp(false));
    }
    // The help sheet is modal: behind it, only `?` (which closes it) acts.
    if v.help_open && key != "?" {
        return None;
    }
    // Shortcuts act only while focus is in the Simulation panel (or the help
    // sheet): elsewhere Space, Home, End and the arrows scroll the page as
    // usual, and single-character keys reach assistive technology
    // (WCAG 2.1.4: character key shortcuts active only on focus).
    let in_scope = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("#simulation, [role=dialog]").ok().flatten())
        .is_some();
    if !in_scope {
        return None;
    }
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let tag = target.as_ref().map(|el| el.tag_name());
    // Fields keep their keys; buttons keep Space and Enter (they activate
    // them). The scrubber (a range input) is the transport, not a field:
    // its arrows step through the run's events as everywhere in the panel
    // (a 1 ms step of its own would be useless), Space plays.
    let range = target.as_ref().and_then(|el| el.get_attribute("type")).is_some_and(|t| t == "range");
    let typing = matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA")) && !range;
    if typing || (matches!(tag.as_deref(), Some("BUTTON" | "SUMMARY" | "A")) && matches!(key.as_str(), " " | "Enter")) {
        return None;
    }
    let end = v.end_ms;
    let seek = |to_ms: f64| Some(Action::Seek { to_ms, end_ms: end });
    // On the time slider, its other keys too (a range input's native step
    // is 1 ms): Up and Down step through the events, Page Up and Page Down
    // by 1 s.
    if range {
        match key.as_str() {
            "ArrowUp" => return seek(quota_engine::sim::next_event(&v.events.events, v.cursor_ms)),
            "ArrowDown" => return seek(quota_engine::sim::prev_event(&v.events.events, v.cursor_ms)),
            "PageUp" => return seek(v.cursor_ms + 1000.0),
            "PageDown" => return seek(v.cursor_ms - 1000.0),
            _ => {}
        }
    }
    match key.as_str() {
        "?" => Some(Action::SetHelp(!v.help_open)),
        " " | "k" if v.playing => Some(Action::Pause),
        " " | "k" => Some(Action::Play { end_ms: end }),
        "ArrowRight" | "l" if e.shift_key() => seek(v.cursor_ms + 1000.0),
        "ArrowLeft" | "j" if e.shift_key() => seek(v.cursor_ms - 1000.0),
        "ArrowRight" | "l" | "." => seek(quota_engine::sim::next_event(&v.events.events, v.cursor_ms)),
        "ArrowLeft" | "j" | "," => seek(quota_engine::sim::prev_event(&v.events.events, v.cursor_ms)),
        "Home" => seek(0.0),
        "End" => seek(end),
        "+" | "=" => Some(Action::Speed(1)),
        "-" | "_" => Some(Action::Speed(-1)),
        _ => None,
    }
}

/// In an embed, tells the parent page the content height after each render
/// and whenever the content changes size without one (a `<details>`
/// opening, the iframe getting narrower): it grows and shrinks with it.
#[hook]
pub(crate) fn use_embed_height(embedded: bool) {
    let last = use_mut_ref(|| 0.0f64);
    let report = {
        let last = last.clone();
        move || {
            let h = platform::content_height();
            if (h - *last.borrow()).abs() >= 1.0 {
                *last.borrow_mut() = h;
                platform::post_height(h);
            }
        }
    };
    {
        let report = report.clone();
        use_effect_with(embedded, move |embedded| {
            let observer = if *embedded { platform::observe_app_size(report) } else { None };
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
            }
        });
    }
    use_effect(move || {
        if embedded {
            report();
        }
    });
}

/// Whether the viewport is under 600 px wide, kept current: the charts
/// choose their logical width from it, so crossing the breakpoint (turning
/// a phone, resizing a window) re-renders them in the other layout.
#[hook]
pub(crate) fn use_narrow() -> bool {
    let narrow = use_state(|| platform::viewport_width() < 600.0);
    {
        let narrow = narrow.clone();
        use_effect_with((), move |_| {
            let query = web_sys::window().and_then(|w| w.match_media("(max-width: 599.98px)").ok().flatten());
            let listener = query.map(|q| {
                let target = q.clone();
                EventListener::new(&q, "change", move |_| narrow.set(target.matches()))
            });
            move || drop(listener)
        });
    }
    *narrow
}

/// Marks `<body data-first-render-ms>` once the first complete render is in
/// the DOM (every panel; the run comes later, from the simulation worker,
/// marked by `data-sim-rev`), and removes the static loading message.
#[hook]
pub(crate) fn use_first_render_mark() {
    use_effect_with((), |_| {
        platform::mark_body("data-first-render-ms", &format!("{:.1}", platform::now_ms()));
        platform::remove_boot_message();
    });
}

/// The time a render for a new revision started (ms), for
/// [`use_recompute_mark`].
#[hook]
pub(crate) fn use_recompute_timer(revision: u64) -> f64 {
    let seen = use_mut_ref(|| (0u64, 0.0f64));
    let mut s = seen.borrow_mut();
    if s.0 != revision {
        *s = (revision, platform::now_ms());
    }
    s.1
}

/// Marks `<body data-recompute-ms data-revision>` after a new revision is
/// rendered: analysis, view and DOM update together (its run follows from
/// the simulation worker, marked by `data-sim-rev`).
#[hook]
pub(crate) fn use_recompute_mark(revision: u64, started_ms: f64) {
    use_effect_with(revision, move |rev| {
        platform::mark_body("data-recompute-ms", &format!("{:.2}", platform::now_ms() - started_ms));
        platform::mark_body("data-revision", &rev.to_string());
    });
}

/// `?kqp-test-panic` makes the app panic after its first render: the
/// browser tests use it to check that the panic hook reports a panic in the
/// page (with `panic = "abort"` there is no other trace).
#[hook]
pub(crate) fn use_test_panic() {
    use_effect_with((), |_| {
        if platform::query_param("kqp-test-panic").is_some() {
            panic!("test panic requested by ?kqp-test-panic");
        }
    });
}

/// Marks `<body data-frame-ms>` with the time from the start of a render for
/// a new cursor position to the DOM update (what one playback frame costs).
#[hook]
pub(crate) fn use_frame_mark(cursor_ms: f64) {
    let started = use_recompute_timer(cursor_ms.to_bits());
    use_effect_with(cursor_ms.to_bits(), move |_| {
        platform::mark_body("data-frame-ms", &format!("{:.2}", platform::now_ms() - started));
    });
}
