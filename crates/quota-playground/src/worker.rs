//! The page's side of the import/export worker (the
//! `quota-interchange-worker` binary): starts it on demand, queues requests
//! until it says `ready`, and hands each [`Reply`] to the components that
//! listen. The readers and writers of `quota-formats` live only in the
//! worker's module, so the page's first download does not carry them.
//!
//! Every failure (no Worker API, the module does not load, the worker
//! stops) becomes [`WorkerEvent::Failed`] with a sentence for the panel; the
//! rest of the playground keeps working.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use yew::Callback;

use crate::bridge::{Failure, Link, LinkEvent, Protocol, Timeouts};
use crate::interchange::{Op, Reply, Request};

/// The worker's loader script, next to `index.html` in the Trunk build
/// (`web/interchange-worker-loader.js`: it imports the wasm-bindgen glue,
/// posts `loading`, starts the module and posts `failed:<reason>` when it
/// cannot).
pub const WORKER_SCRIPT: &str = "interchange-worker-loader.js";

/// How long the worker may take to say `loading`, then `ready` (its
/// module is about 460 KB gzip: a minute on a slow link).
const TIMEOUTS: Timeouts = Timeouts { loading_ms: 10_000, ready_ms: 60_000 };

/// The import/export worker's messages: a [`Request`] out and a [`Reply`]
/// back, each as JSON text.
pub struct Interchange;

impl Protocol for Interchange {
    type Request = Request;
    type Reply = Reply;

    fn encode(request: &Request) -> Result<JsValue, String> {
        crate::bridge::json_message(request)
    }

    fn decode(data: JsValue) -> Result<Reply, String> {
        let text = data.as_string().ok_or_else(|| "a message that is not text".to_owned())?;
        serde_json::from_str(&text).map_err(|e| e.to_string())
    }
}

/// The sentence a panel shows for a failure of the link.
pub fn failure_sentence(failure: &Failure) -> String {
    const REST: &str = "The rest of the playground works; reload the page to try again.";
    match failure {
        Failure::Refused(why) => format!("The import/export module could not start ({why}). {REST}"),
        Failure::Reported(why) => format!("The import/export module could not load or stopped ({why}). {REST}"),
        Failure::Stopped(why) if why.is_empty() => format!("The import/export module could not load or stopped. {REST}"),
        Failure::Stopped(why) => format!("The import/export module could not load or stopped ({why}). {REST}"),
        Failure::TimedOut(why) => format!("The import/export module could not load ({why}). {REST}"),
        Failure::Unreadable(why) => format!("The import/export module answered something unreadable ({why}); reload the page."),
    }
}

/// What listeners hear.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    /// [`InterchangeClient::start`] was called: requests may be sent now (the link holds them
    /// until the module runs).
    Started,
    /// The worker answered (any request: check the id).
    Reply(Reply),
    /// The worker could not start or stopped: why, as a sentence.
    Failed(String),
}

enum Status {
    /// Not asked for yet.
    Idle,
    /// Started: the link holds requests until `ready`.
    Running(Link<Interchange>),
    /// Gave up: the sentence.
    Failed(String),
}

struct Client {
    status: Status,
    next_id: u32,
    next_listener: u32,
    listeners: Vec<(u32, Callback<WorkerEvent>)>,
}

/// The page's import/export worker: one per page, owned by the App (its
/// `ctx::Workers` context) and shared by the panels that use it
/// (Import, Export, a `#text=` scenario). Dropping the last handle drops
/// the link, which terminates the worker. Handles compare by identity.
#[derive(Clone)]
pub struct InterchangeClient(Rc<RefCell<Client>>);

impl PartialEq for InterchangeClient {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Default for InterchangeClient {
    fn default() -> Self {
        InterchangeClient(Rc::new(RefCell::new(Client {
            status: Status::Idle,
            next_id: 1,
            next_listener: 1,
            listeners: Vec::new(),
        })))
    }
}

impl InterchangeClient {
    fn broadcast(&self, event: WorkerEvent) {
        let listeners: Vec<_> = self.0.borrow().listeners.iter().map(|(_, cb)| cb.clone()).collect();
        for cb in listeners {
            cb.emit(event.clone());
        }
    }

    /// Gives the worker up (its link, and so the worker, is dropped) and
    /// tells the listeners.
    fn fail(&self, message: String) {
        let link = match std::mem::replace(&mut self.0.borrow_mut().status, Status::Failed(message.clone())) {
            Status::Running(link) => Some(link),
            _ => None,
        };
        // Dropped outside the borrow.
        drop(link);
        self.broadcast(WorkerEvent::Failed(message));
    }

    /// Starts the worker if it has not been started (idempotent). Called
    /// when the Import and export panel comes into view or is used.
    pub fn start(&self) {
        if !matches!(self.0.borrow().status, Status::Idle) {
            return;
        }
        // The link's handler holds the client weakly: the client owns the link.
        let me = Rc::downgrade(&self.0);
        let link = Link::<Interchange>::start(WORKER_SCRIPT, TIMEOUTS, move |event| {
            let Some(client) = me.upgrade().map(InterchangeClient) else { return };
            match event {
                LinkEvent::Loading | LinkEvent::Ready => {}
                LinkEvent::Reply(reply) => client.broadcast(WorkerEvent::Reply(reply)),
                LinkEvent::Failed(failure) => client.fail(failure_sentence(&failure)),
            }
        });
        match link {
            Ok(link) => {
                self.0.borrow_mut().status = Status::Running(link);
                self.broadcast(WorkerEvent::Started);
            }
            Err(failure) => self.fail(failure_sentence(&failure)),
        }
    }

    /// Whether [`InterchangeClient::start`] has been called (whatever came of it).
    pub fn is_started(&self) -> bool {
        !matches!(self.0.borrow().status, Status::Idle)
    }

    /// Sends `op` to the worker (starting it if needed) and returns the id
    /// its reply will carry. When the worker has failed, listeners hear the
    /// failure again instead.
    pub fn send(&self, op: Op) -> u32 {
        self.start();
        let (id, sent) = {
            let mut c = self.0.borrow_mut();
            let id = c.next_id;
            c.next_id = c.next_id.wrapping_add(1).max(1);
            let sent = match &c.status {
                Status::Running(link) => {
                    link.send(&Request { id, op }).map_err(|e| format!("The request could not be written: {e}."))
                }
                Status::Failed(m) => Err(m.clone()),
                Status::Idle => Err("The import/export module did not start.".to_owned()),
            };
            (id, sent)
        };
        if let Err(m) = sent {
            self.broadcast(WorkerEvent::Failed(m));
        }
        id
    }

    /// The failure sentence, when the worker has failed.
    pub fn failure(&self) -> Option<String> {
        match &self.0.borrow().status {
            Status::Failed(m) => Some(m.clone()),
            _ => None,
        }
    }

    /// Adds a listener; returns the key for [`InterchangeClient::unsubscribe`].
    pub fn subscribe(&self, cb: Callback<WorkerEvent>) -> u32 {
        let mut c = self.0.borrow_mut();
        let key = c.next_listener;
        c.next_listener += 1;
        c.listeners.push((key, cb));
        key
    }

    /// Removes the listener `key`.
    pub fn unsubscribe(&self, key: u32) {
        self.0.borrow_mut().listeners.retain(|(k, _)| *k != key);
    }

    /// Starts the worker when the element `id` comes into the viewport
    /// (IntersectionObserver), or at once where the browser has no
    /// IntersectionObserver. Returns the observer to disconnect on unmount.
    pub fn start_when_near(&self, id: &str) -> Option<web_sys::IntersectionObserver> {
        let me = Rc::downgrade(&self.0);
        crate::platform::when_near(&[id], "0px", move || {
            if let Some(client) = me.upgrade() {
                InterchangeClient(client).start();
            }
        })
    }
}
