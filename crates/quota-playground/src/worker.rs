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

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

use crate::interchange::{Op, Reply, Request};

/// The worker's loader script, next to `index.html` in the Trunk build
/// (`web/interchange-worker-loader.js`: it imports the wasm-bindgen glue,
/// starts the module and posts `failed:<reason>` when it cannot).
pub const WORKER_SCRIPT: &str = "interchange-worker-loader.js";

/// What listeners hear.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    /// [`start`] was called: requests may be sent now (they wait for the
    /// module in a queue).
    Started,
    /// The worker answered (any request: check the id).
    Reply(Reply),
    /// The worker could not start or stopped: why, as a sentence.
    Failed(String),
}

enum Status {
    /// Not asked for yet.
    Idle,
    /// Loading; requests wait here (a message sent before `ready` is lost).
    Loading(Vec<String>),
    /// Answering.
    Ready,
    /// Gave up: the sentence.
    Failed(String),
}

struct Client {
    worker: Option<web_sys::Worker>,
    status: Status,
    next_id: u32,
    next_listener: u32,
    listeners: Vec<(u32, Callback<WorkerEvent>)>,
}

thread_local! {
    static CLIENT: RefCell<Client> = const { RefCell::new(Client {
        worker: None,
        status: Status::Idle,
        next_id: 1,
        next_listener: 1,
        listeners: Vec::new(),
    }) };
}

fn broadcast(event: WorkerEvent) {
    let listeners: Vec<_> = CLIENT.with(|c| {
        c.borrow()
            .listeners
            .iter()
            .map(|(_, cb)| cb.clone())
            .collect()
    });
    for cb in listeners {
        cb.emit(event.clone());
    }
}

fn fail(message: String) {
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(w) = c.worker.take() {
            w.terminate();
        }
        c.status = Status::Failed(message.clone());
    });
    broadcast(WorkerEvent::Failed(message));
}

/// Starts the worker if it has not been started (idempotent). Called when
/// the Import and export panel comes into view or is used.
pub fn start() {
    let idle = CLIENT.with(|c| matches!(c.borrow().status, Status::Idle));
    if !idle {
        return;
    }
    let worker = match web_sys::Worker::new(WORKER_SCRIPT) {
        Ok(w) => w,
        Err(e) => {
            let why = crate::platform::js_error_text(&e);
            return fail(format!(
                "The import/export module could not start ({}). The rest of the playground works; reload the page to try again.",
                why.unwrap_or_else(|| "this browser refused the Web Worker".to_owned())
            ));
        }
    };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
        |e: web_sys::MessageEvent| {
            let Some(text) = e.data().as_string() else {
                return;
            };
            if let Some(why) = text.strip_prefix("failed:") {
                return fail(format!(
                "The import/export module could not load ({why}). The rest of the playground works; reload the page to try again."
            ));
            }
            if text == "ready" {
                let (worker, queued) = CLIENT.with(|c| {
                    let mut c = c.borrow_mut();
                    let queued = match std::mem::replace(&mut c.status, Status::Ready) {
                        Status::Loading(q) => q,
                        _ => Vec::new(),
                    };
                    (c.worker.clone(), queued)
                });
                if let Some(w) = worker {
                    for m in queued {
                        let _ = w.post_message(&JsValue::from_str(&m));
                    }
                }
                return;
            }
            match serde_json::from_str::<Reply>(&text) {
            Ok(reply) => broadcast(WorkerEvent::Reply(reply)),
            Err(e) => fail(format!("The import/export module answered something unreadable ({e}); reload the page.")),
        }
        },
    );
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(|e: web_sys::ErrorEvent| {
        let detail = e.message();
        fail(format!(
            "The import/export module could not load or stopped{}. The rest of the playground works; reload the page to try again.",
            if detail.is_empty() { String::new() } else { format!(" ({detail})") }
        ));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // One worker per page, for the page's lifetime.
    on_message.forget();
    on_error.forget();
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.worker = Some(worker);
        c.status = Status::Loading(Vec::new());
    });
    broadcast(WorkerEvent::Started);
}

/// Whether [`start`] has been called (whatever came of it).
pub fn is_started() -> bool {
    CLIENT.with(|c| !matches!(c.borrow().status, Status::Idle))
}

/// Sends `op` to the worker (starting it if needed) and returns the id its
/// reply will carry. When the worker has failed, listeners hear the
/// failure again instead.
pub fn send(op: Op) -> u32 {
    start();
    let (id, message) = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let id = c.next_id;
        c.next_id = c.next_id.wrapping_add(1).max(1);
        (id, serde_json::to_string(&Request { id, op }))
    });
    let message = match message {
        Ok(m) => m,
        Err(e) => {
            broadcast(WorkerEvent::Failed(format!(
                "The request could not be written: {e}."
            )));
            return id;
        }
    };
    let failed = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let worker = c.worker.clone();
        match &mut c.status {
            Status::Loading(queue) => {
                queue.push(message);
                None
            }
            Status::Ready => {
                if let Some(w) = worker {
                    let _ = w.post_message(&JsValue::from_str(&message));
                }
                None
            }
            Status::Failed(m) => Some(m.clone()),
            Status::Idle => Some("The import/export module did not start.".to_owned()),
        }
    });
    if let Some(m) = failed {
        broadcast(WorkerEvent::Failed(m));
    }
    id
}

/// The failure sentence, when the worker has failed.
pub fn failure() -> Option<String> {
    CLIENT.with(|c| match &c.borrow().status {
        Status::Failed(m) => Some(m.clone()),
        _ => None,
    })
}

/// Adds a listener; returns the key for [`unsubscribe`].
pub fn subscribe(cb: Callback<WorkerEvent>) -> u32 {
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let key = c.next_listener;
        c.next_listener += 1;
        c.listeners.push((key, cb));
        key
    })
}

/// Removes the listener `key`.
pub fn unsubscribe(key: u32) {
    CLIENT.with(|c| c.borrow_mut().listeners.retain(|(k, _)| *k != key));
}

/// Starts the worker when the element `id` comes into the viewport
/// (IntersectionObserver), or at once where the browser has no
/// IntersectionObserver. Returns the observer to disconnect on unmount.
pub fn start_when_near(id: &str) -> Option<web_sys::IntersectionObserver> {
    crate::platform::when_near(&[id], "0px", start)
}
