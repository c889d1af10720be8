//! One typed link from the page to a Web Worker, for both of the
//! playground's workers (import/export: `worker.rs`; simulation:
//! `sim_worker.rs`): it starts the worker from its loader script, reads the
//! worker's [`Control`] messages (`loading`, `ready`, `failed:<why>`) in one
//! place, holds requests until `ready` (a message posted before the module
//! runs is lost), gives a worker that never says `ready` up after its
//! timeouts, and hands each reply, decoded by the worker's [`Protocol`], to
//! one handler as a [`LinkEvent`]. The link owns its worker, its event
//! handlers and its timers: dropping it terminates the worker and frees
//! them (nothing is leaked with `forget`).
//!
//! On the worker's side [`serve`] is the other end: it posts `ready`, turns
//! a panic into `failed:<why>` before the module traps, and answers each
//! request with the messages the worker's handler returns.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// What a worker says of itself, beside its replies: the loader posts
/// `loading` once the module's JS is in, the module `ready` once it runs,
/// and either posts `failed:<why>` when the module does not load or stops
/// on a panic (a rejected promise inside a worker never reaches the page's
/// `onerror`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// The loader ran: the module is being fetched.
    Loading,
    /// The module runs and answers requests.
    Ready,
    /// The module could not load or stopped: why, as the worker said it.
    Failed(String),
}

impl Control {
    /// The control message `text` is, if it is one.
    pub fn parse(text: &str) -> Option<Control> {
        match text {
            "loading" => Some(Control::Loading),
            "ready" => Some(Control::Ready),
            _ => text.strip_prefix("failed:").map(|why| Control::Failed(why.to_owned())),
        }
    }

    /// The message as posted (what [`Control::parse`] reads back).
    pub fn text(&self) -> String {
        match self {
            Control::Loading => "loading".to_owned(),
            Control::Ready => "ready".to_owned(),
            Control::Failed(why) => format!("failed:{why}"),
        }
    }
}

/// How a link to a worker failed; each worker's page side words it for its
/// panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The browser refused to start the worker (no Worker API, a refused
    /// address): the browser's words.
    Refused(String),
    /// The worker said `failed:<why>`: its module did not load, or stopped
    /// on an internal error.
    Reported(String),
    /// The worker's `onerror`: it could not load its script or stopped
    /// (the browser's message, without `Uncaught `; empty when it gave
    /// none).
    Stopped(String),
    /// No `loading` within the link's first timeout, or no `ready` within
    /// the second: the sentence says which and how long.
    TimedOut(String),
    /// A message the worker's [`Protocol`] cannot read: why.
    Unreadable(String),
}

impl Failure {
    /// The failure in a few words that fit "the simulation worker failed
    /// (...)": the worker's or browser's own words, or the timeout.
    pub fn words(&self) -> String {
        match self {
            Failure::Refused(why) | Failure::Reported(why) | Failure::TimedOut(why) | Failure::Unreadable(why) => why.clone(),
            Failure::Stopped(why) if why.is_empty() => "it could not load or stopped".to_owned(),
            Failure::Stopped(why) => why.clone(),
        }
    }
}

/// The messages of one worker, typed: how a request is posted and how a
/// reply is read.
pub trait Protocol: 'static {
    /// What the page asks.
    type Request;
    /// What the worker answers, one per message.
    type Reply;
    /// `request` as the message to post.
    ///
    /// # Errors
    ///
    /// Why it cannot be written (the request is then not sent).
    fn encode(request: &Self::Request) -> Result<JsValue, String>;
    /// A message of the worker that is not a [`Control`] message, read.
    ///
    /// # Errors
    ///
    /// Why it cannot be read (the link then fails with
    /// [`Failure::Unreadable`]).
    fn decode(data: JsValue) -> Result<Self::Reply, String>;
}

/// `value` as JSON text, the message both workers' requests are posted as.
///
/// # Errors
///
/// serde_json's reason when `value` cannot be written.
pub fn json_message<T: serde::Serialize>(value: &T) -> Result<JsValue, String> {
    serde_json::to_string(value).map(|t| JsValue::from_str(&t)).map_err(|e| e.to_string())
}

/// Where the requests of protocol `P` are answered: a worker ([`Link`]),
/// or, where no worker can run, the page's own thread (the simulation's
/// `sim_worker::MainThread`, the same module loaded on the page). Either
/// way each reply is read by [`Protocol::decode`] and handed to the
/// client's handler of replies (a [`Link`]'s as [`LinkEvent::Reply`]).
pub trait Transport<P: Protocol> {
    /// Sends `request`, or holds it until the transport can answer.
    ///
    /// # Errors
    ///
    /// Why the request could not be written ([`Protocol::encode`]).
    fn send(&self, request: &P::Request) -> Result<(), String>;
}

impl<P: Protocol> Transport<P> for Link<P> {
    fn send(&self, request: &P::Request) -> Result<(), String> {
        Link::send(self, request)
    }
}

/// What a link's handler hears.
#[derive(Debug)]
pub enum LinkEvent<R> {
    /// The worker's loader ran: its module is being fetched.
    Loading,
    /// The worker's module runs; requests held until now have been posted.
    Ready,
    /// One reply.
    Reply(R),
    /// The worker cannot be used any more (the link has terminated it;
    /// later requests are dropped): why.
    Failed(Failure),
}

/// How long a worker may take to say `loading` (its loader ran), then how
/// long more to say `ready` (its module downloaded and compiled), in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// For `loading`, ms.
    pub loading_ms: u32,
    /// Then for `ready`, ms.
    pub ready_ms: u32,
}

/// Where a link's worker is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Starting,
    Loading,
    Ready,
    Failed,
}

/// What became of a request sent on a link.
#[derive(Debug, PartialEq, Eq)]
enum Sent<M> {
    /// Post it now.
    Post(M),
    /// Held until `ready`.
    Held,
    /// The link has failed: not sent.
    Refused,
}

/// A link's start, without the browser: what each control message, request
/// and failure does to the stage and the requests held before `ready` (a
/// message posted before the worker's module runs is lost). [`Link`] posts
/// and tells its handler what this decides; the unit tests below check it.
#[derive(Debug)]
struct Handshake<M> {
    stage: Stage,
    /// Requests sent before `ready`, in order.
    held: Vec<M>,
}

impl<M> Handshake<M> {
    fn new() -> Self {
        Handshake { stage: Stage::Starting, held: Vec::new() }
    }

    /// `loading` heard: true when it is news (only while starting).
    fn loading(&mut self) -> bool {
        let news = self.stage == Stage::Starting;
        if news {
            self.stage = Stage::Loading;
        }
        news
    }

    /// `ready` heard: the held requests to post now, in the order sent;
    /// `None` when it is not news (already ready, or failed).
    fn ready(&mut self) -> Option<Vec<M>> {
        matches!(self.stage, Stage::Starting | Stage::Loading).then(|| {
            self.stage = Stage::Ready;
            std::mem::take(&mut self.held)
        })
    }

    /// A request: posted when ready, held before, refused once failed.
    fn send(&mut self, message: M) -> Sent<M> {
        match self.stage {
            Stage::Ready => Sent::Post(message),
            Stage::Starting | Stage::Loading => {
                self.held.push(message);
                Sent::Held
            }
            Stage::Failed => Sent::Refused,
        }
    }

    /// A failure: true the first time (the handler is told once); the held
    /// requests are dropped.
    fn fail(&mut self) -> bool {
        let news = self.stage != Stage::Failed;
        self.stage = Stage::Failed;
        self.held.clear();
        news
    }
}

struct State {
    handshake: Handshake<JsValue>,
    /// The pending timeout (replaced when the next stage starts).
    timer: Option<gloo::timers::callback::Timeout>,
}

/// A JS event handler written in Rust.
type Listener<E> = Closure<dyn FnMut(E)>;

struct Inner<P: Protocol> {
    worker: web_sys::Worker,
    state: RefCell<State>,
    handler: Box<dyn Fn(LinkEvent<P::Reply>)>,
    // Kept for as long as the link lives; dropped (and so freed) with it.
    on_message: Listener<web_sys::MessageEvent>,
    on_error: Listener<web_sys::Event>,
}

/// A started worker speaking protocol `P`. Cloning shares the one worker;
/// when the last clone is dropped the worker is terminated.
pub struct Link<P: Protocol> {
    inner: Rc<Inner<P>>,
}

impl<P: Protocol> Clone for Link<P> {
    fn clone(&self) -> Self {
        Link { inner: Rc::clone(&self.inner) }
    }
}

impl<P: Protocol> Drop for Inner<P> {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl<P: Protocol> Link<P> {
    /// Starts the worker from `script` (its loader), with `handler` for
    /// everything it says and `timeouts` for its start.
    ///
    /// # Errors
    ///
    /// [`Failure::Refused`] when the browser does not start it (the handler
    /// is not called).
    pub fn start(script: &str, timeouts: Timeouts, handler: impl Fn(LinkEvent<P::Reply>) + 'static) -> Result<Link<P>, Failure> {
        let worker = web_sys::Worker::new(script)
            .map_err(|e| Failure::Refused(crate::platform::js_error_text(&e).unwrap_or_else(|| "this browser refused the Web Worker".to_owned())))?;
        let inner = Rc::new_cyclic(|weak: &Weak<Inner<P>>| {
            let on_message = {
                let weak = weak.clone();
                Listener::<web_sys::MessageEvent>::new(move |e: web_sys::MessageEvent| {
                    if let Some(inner) = weak.upgrade() {
                        Link { inner }.on_message(e.data());
                    }
                })
            };
            let on_error = {
                let weak = weak.clone();
                // A loader script that fails to load fires a plain `Event`,
                // not an `ErrorEvent`: no message to read then.
                Listener::<web_sys::Event>::new(move |e: web_sys::Event| {
                    let detail = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_default();
                    let detail = detail.strip_prefix("Uncaught ").unwrap_or(&detail).to_owned();
                    if let Some(inner) = weak.upgrade() {
                        Link { inner }.fail(Failure::Stopped(detail));
                    }
                })
            };
            Inner {
                worker,
                state: RefCell::new(State { handshake: Handshake::new(), timer: None }),
                handler: Box::new(handler),
                on_message,
                on_error,
            }
        });
        inner.worker.set_onmessage(Some(inner.on_message.as_ref().unchecked_ref()));
        inner.worker.set_onerror(Some(inner.on_error.as_ref().unchecked_ref()));
        let link = Link { inner };
        // No `loading` in time: given up. `loading` in time: the module
        // gets `ready_ms` more to say `ready`.
        link.arm(timeouts.loading_ms, move |link| match link.stage() {
            Stage::Starting => link.fail(Failure::TimedOut(format!("it did not start within {}", seconds(timeouts.loading_ms)))),
            Stage::Loading => link.arm(timeouts.ready_ms, move |link| {
                if matches!(link.stage(), Stage::Starting | Stage::Loading) {
                    link.fail(Failure::TimedOut(format!(
                        "its module did not load within {}",
                        seconds(timeouts.loading_ms + timeouts.ready_ms)
                    )));
                }
            }),
            Stage::Ready | Stage::Failed => {}
        });
        Ok(link)
    }

    /// The stage the worker is at.
    fn stage(&self) -> Stage {
        self.inner.state.borrow().handshake.stage
    }

    /// Runs `check` after `ms` while the link lives (replacing the timer
    /// set before).
    fn arm(&self, ms: u32, check: impl FnOnce(&Link<P>) + 'static) {
        let weak: Weak<Inner<P>> = Rc::downgrade(&self.inner);
        let timer = gloo::timers::callback::Timeout::new(ms, move || {
            if let Some(inner) = weak.upgrade() {
                check(&Link { inner });
            }
        });
        self.inner.state.borrow_mut().timer = Some(timer);
    }

    /// Posts `request` now, or holds it until the worker is ready.
    ///
    /// # Errors
    ///
    /// Why the request could not be written ([`Protocol::encode`]), or that
    /// the link has failed (the request is not sent).
    pub fn send(&self, request: &P::Request) -> Result<(), String> {
        let message = P::encode(request)?;
        let sent = self.inner.state.borrow_mut().handshake.send(message);
        match sent {
            Sent::Post(message) => {
                let _ = self.inner.worker.post_message(&message);
                Ok(())
            }
            Sent::Held => Ok(()),
            Sent::Refused => Err("the worker has stopped".to_owned()),
        }
    }

    /// Terminates the worker and tells the handler why (once: a later
    /// failure, e.g. the `onerror` after a posted `failed:`, is not told).
    fn fail(&self, failure: Failure) {
        {
            let mut state = self.inner.state.borrow_mut();
            if !state.handshake.fail() {
                return;
            }
            state.timer = None;
        }
        self.inner.worker.terminate();
        (self.inner.handler)(LinkEvent::Failed(failure));
    }

    fn on_message(&self, data: JsValue) {
        if let Some(control) = data.as_string().as_deref().and_then(Control::parse) {
            return match control {
                Control::Loading => {
                    let news = self.inner.state.borrow_mut().handshake.loading();
                    if news {
                        (self.inner.handler)(LinkEvent::Loading);
                    }
                }
                Control::Ready => {
                    let held = {
                        let mut state = self.inner.state.borrow_mut();
                        let Some(held) = state.handshake.ready() else {
                            return;
                        };
                        state.timer = None;
                        held
                    };
                    for m in held {
                        let _ = self.inner.worker.post_message(&m);
                    }
                    (self.inner.handler)(LinkEvent::Ready);
                }
                Control::Failed(why) => self.fail(Failure::Reported(why)),
            };
        }
        if self.stage() == Stage::Failed {
            return;
        }
        match P::decode(data) {
            Ok(reply) => (self.inner.handler)(LinkEvent::Reply(reply)),
            Err(why) => self.fail(Failure::Unreadable(why)),
        }
    }
}

/// `ms` as the timeouts' sentences say it: "10 seconds", "0.5 seconds".
fn seconds(ms: u32) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{} seconds", ms / 1_000)
    } else {
        format!("{} seconds", f64::from(ms) / 1_000.0)
    }
}

/// The worker's side of a [`Link`]: posts `ready`, then answers each
/// request with the messages `answer` returns (each posted with its
/// transfer list, when it has one: the buffer then moves to the page
/// instead of being copied). A panic is posted as `failed:<why>` (the
/// sentence of `panic_sentence`) before the module traps.
///
/// The message handler lives as long as the worker: it is given to the
/// worker's global scope for good.
pub fn serve(
    panic_sentence: fn(&std::panic::PanicHookInfo<'_>) -> String,
    answer: impl Fn(JsValue) -> Vec<(JsValue, Option<js_sys::Array>)> + 'static,
) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let hook_scope = scope.clone();
    std::panic::set_hook(Box::new(move |info| {
        let _ = hook_scope.post_message(&JsValue::from_str(&Control::Failed(panic_sentence(info)).text()));
    }));
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        for (message, transfer) in answer(e.data()) {
            let _ = match transfer {
                Some(t) => reply.post_message_with_transfer(&message, &t),
                None => reply.post_message(&message),
            };
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker's scope holds the handler until the worker ends: there is
    // no owner on this side to drop it.
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(&Control::Ready.text()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_messages_read_back_as_written() {
        for c in [Control::Loading, Control::Ready, Control::Failed("no wasm: 404".to_owned()), Control::Failed(String::new())] {
            assert_eq!(Control::parse(&c.text()), Some(c.clone()), "{c:?}");
        }
        // A reply is not a control message, even one that starts like one.
        assert_eq!(Control::parse("{\"id\":1}"), None);
        assert_eq!(Control::parse("readyish"), None);
        assert_eq!(Control::parse("failed"), None);
    }

    #[test]
    fn a_failure_in_words() {
        assert_eq!(Failure::Stopped(String::new()).words(), "it could not load or stopped");
        assert_eq!(Failure::Stopped("ReferenceError: x".to_owned()).words(), "ReferenceError: x");
        assert_eq!(Failure::Reported("404".to_owned()).words(), "404");
    }

    /// Requests sent before `ready` are held and posted at `ready` in the
    /// order sent; after it they are posted at once; `loading` and `ready`
    /// are news once.
    #[test]
    fn requests_wait_for_ready_in_order() {
        let mut h = Handshake::new();
        assert_eq!(h.send(1), Sent::Held);
        assert!(h.loading());
        assert!(!h.loading(), "a second loading is not news");
        assert_eq!(h.send(2), Sent::Held);
        assert_eq!(h.ready(), Some(vec![1, 2]));
        assert_eq!(h.stage, Stage::Ready);
        assert_eq!(h.send(3), Sent::Post(3));
        assert_eq!(h.ready(), None, "a second ready posts nothing again");
        assert!(!h.loading(), "loading after ready changes nothing");
        assert_eq!(h.stage, Stage::Ready);
        // `ready` without `loading` (the loader's message can be missed).
        let mut h = Handshake::new();
        assert_eq!(h.send("a"), Sent::Held);
        assert_eq!(h.ready(), Some(vec!["a"]));
    }

    /// A failure is told once, drops what was held, and refuses every later
    /// request; neither `loading` nor `ready` revives the link.
    #[test]
    fn a_failed_link_stays_failed() {
        let mut h = Handshake::new();
        assert_eq!(h.send(1), Sent::Held);
        assert!(h.fail());
        assert!(!h.fail(), "the onerror after a posted failed: is not told");
        assert!(h.held.is_empty());
        assert_eq!(h.send(2), Sent::Refused);
        assert!(!h.loading());
        assert_eq!(h.ready(), None);
        assert_eq!(h.stage, Stage::Failed);
        // Failing once ready refuses too.
        let mut h = Handshake::new();
        assert_eq!(h.ready(), Some(Vec::<u8>::new()));
        assert!(h.fail());
        assert_eq!(h.send(9), Sent::Refused);
    }

    #[test]
    fn timeouts_in_seconds() {
        assert_eq!(seconds(10_000), "10 seconds");
        assert_eq!(seconds(70_000), "70 seconds");
        assert_eq!(seconds(500), "0.5 seconds");
    }
}
