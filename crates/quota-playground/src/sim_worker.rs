//! The simulation off the main thread: the engine's simulator lives in a
//! wasm module of its own, `quota-sim-worker` (`src/bin/sim_worker.rs`),
//! run in a Web Worker (`web/sim-worker-loader.js`) that simulates each new
//! revision of the scenario while the page stays responsive.
//!
//! - **Not in the page's download.** The page's module holds no simulator
//!   (the wire reader only); the worker's module is fetched when a panel
//!   that shows the run (Simulation, Cluster and time) comes near the
//!   viewport, or at once in an embed of one of them
//!   (`sim_view::use_simulation`). Measured in BENCHMARKS.md.
//! - **Coalescing** ([`Coalescer`]): one run in flight; later edits replace
//!   the pending revision, so only the newest one runs next, and the result
//!   of a stale revision is dropped.
//! - **What crosses the boundary** ([`Part`]): the Timeline in the engine's
//!   compact binary form (`crate::wire`: no field names, numbers
//!   as their bytes, read without parsing text), cut into parts of about
//!   [`PART_BYTES`] (its head, then its sensor and client tracks in
//!   batches), each an `ArrayBuffer` handed over (transferred, not copied)
//!   and decoded in its own task on the page ([`Assembler`]), so no single
//!   task decodes the whole run. serde's `Deserialize` for the Timeline
//!   would have added 42 KB gzip to the page's module (measured); the wire
//!   form adds a few.
//! - **Failure.** Without the Worker API, or when the worker fails to load,
//!   stops or answers something unreadable, the page loads the same module
//!   on its main thread and asks it there (`answer_parts`), and says so in
//!   one line ([`fallback_note`]); if that fails too, the panels say why
//!   the run could not be computed. Never a blank page.

use std::rc::Rc;

use crate::bridge::{Link, LinkEvent, Protocol, Timeouts, Transport};
use crate::wire::{Reader, Wire};
use quota_engine::sim::{ClientTrack, Scenario, SensorTrack, Timeline};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// About how many bytes one [`Part`] carries: small enough that decoding it
/// on the page stays a few milliseconds.
pub const PART_BYTES: usize = 256 * 1024;

/// The worker's loader script, next to `index.html` in the Trunk build.
/// The page adds `?v=<build>` ([`build_query`]), which the loader passes on
/// to the module's files.
pub const LOADER: &str = "sim-worker-loader.js";

/// The worker module's wasm-bindgen JS (no-modules: it declares the global
/// `wasm_bindgen`) and its wasm, next to `index.html`: what the loader
/// imports, and what the page loads itself when no worker can run
/// ([`HERE_SHIM`] then hands its `answer_parts` to the page).
pub const MODULE_JS: &str = "quota-sim-worker.js";
/// See [`MODULE_JS`].
pub const MODULE_WASM: &str = "quota-sim-worker_bg.wasm";
/// A script of one line, loaded after [`MODULE_JS`] on the page's main
/// thread: it puts the module's `wasm_bindgen` on `window.quotaSimModule`
/// (a global `let` is not a property of `window`; no `eval`, so a Content
/// Security Policy without `'unsafe-eval'` allows it).
pub const HERE_SHIM: &str = "sim-main-thread.js";

/// How long the worker may take to post `loading` (its loader script ran:
/// the module's JS is in) before the page gives up on it (ms).
pub const LOADING_TIMEOUT_MS: u32 = 10_000;
/// Then how long the module may take to download, compile and post
/// `ready` (ms): on a slow link its 260 KB gzip (590 KB raw).
pub const READY_TIMEOUT_MS: u32 = 60_000;

/// What the page asks the simulation worker, posted as its JSON (the
/// scenario as a link holds it: no other reader is compiled in) by the
/// link ([`Sim`]), or handed to the module on the main thread.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimRequest {
    /// Simulate `scenario`, revision `rev` of the page's state; answered
    /// by a [`Part::Head`] and the tracks that follow it.
    Run {
        /// The page's revision.
        rev: u64,
        /// The scenario (the page's own, shared: never copied to be sent).
        scenario: Rc<Scenario>,
    },
    /// One run of spread job `job`, with the seed in `scenario`; answered
    /// by one [`Part::Seed`].
    Seed {
        /// The page's job.
        job: u64,
        /// The scenario, with the run's seed.
        scenario: Rc<Scenario>,
    },
}

impl SimRequest {
    /// The answer when the request cannot be run anywhere: the run (or
    /// the seed) answered with `why`.
    fn refused(&self, why: String) -> Part {
        match self {
            SimRequest::Run { rev, .. } => Part::Head { rev: *rev, result: Err(why), took_ms: 0.0, rest: 0 },
            SimRequest::Seed { job, .. } => Part::Seed { job: *job, seed: 0, result: Err(why) },
        }
    }
}

/// The simulation worker's messages for [`Link`] (and for the module on
/// the page's main thread, `MainThread`): a [`SimRequest`] out as JSON
/// text, each [`Part`] back as the bytes of a transferred buffer, read
/// here.
pub struct Sim;

impl Protocol for Sim {
    type Request = SimRequest;
    type Reply = Part;

    fn encode(request: &SimRequest) -> Result<JsValue, String> {
        crate::bridge::json_message(request)
    }

    fn decode(data: JsValue) -> Result<Part, String> {
        if let Some(text) = data.as_string() {
            let head: String = text.chars().take(40).collect();
            return Err(format!("it answered text that is not a part of a run ({head:?})"));
        }
        // The worker transfers each part's buffer as a Uint8Array: read
        // it in place (`Uint8Array::new` on it would copy it first).
        let bytes = match data.dyn_into::<js_sys::Uint8Array>() {
            Ok(array) => array.to_vec(),
            Err(other) => js_sys::Uint8Array::new(&other).to_vec(),
        };
        Part::from_bytes(&bytes).ok_or_else(|| format!("it answered {} bytes that are not a part of a run", bytes.len()))
    }
}

/// The most seeds the page runs in one spread (the CLI's
/// `kafka-quota simulate --seeds` takes up to
/// [`quota_engine::sim::seeds::SEEDS_MAX`]).
pub const PAGE_SEEDS_MAX: u32 = 100;

/// `t` reduced to what [`quota_engine::sim::seeds::add_run`] reads of a
/// run, so that a run of a spread crosses to the page in one small message:
/// each producer's and consumer's name, duration, metrics and outcome
/// (their series and spans left out); each Admin client's topics' outcomes
/// (their names left out) and its request with the largest throttle; each
/// connects workload's end and its attempt with the largest throttle
/// (the other attempts and the clients left out); no budget, broker or
/// marker.
pub fn for_spread(mut t: Timeline) -> Timeline {
    t.sensors.clear();
    t.brokers.clear();
    t.markers.clear();
    for c in &mut t.clients {
        c.throttles.points.clear();
        c.buffer.points.clear();
        c.progress.points.clear();
        c.mutes.clear();
        c.blocked.clear();
        c.perf = None;
        c.waits = None;
    }
    for a in &mut t.admin {
        let most = a.requests.iter().max_by_key(|r| r.throttle_ms).cloned();
        a.requests = most.into_iter().collect();
        for topic in &mut a.topics {
            topic.name.clear();
        }
    }
    for c in &mut t.connects {
        let most = c.attempts.iter().max_by_key(|x| x.throttle_ms).cloned();
        c.attempts = most.into_iter().collect();
        c.clients.clear();
    }
    t
}

/// The worker's answer to a [`SimRequest::Seed`]: one [`Part::Seed`].
fn answer_seed(job: u64, scenario: &Scenario) -> Vec<u8> {
    let seed = scenario.seed;
    match crate::model::simulate(scenario) {
        Ok(t) => Part::Seed { job, seed, result: Ok(for_spread(t)) },
        Err(why) => Part::Seed { job, seed: 0, result: Err(why) },
    }
    .to_bytes()
}

/// One message of the worker's answer for revision `rev` (written with
/// [`Part::to_bytes`], read with [`Part::from_bytes`]).
// One message at a time, moved once: boxing the Timeline would buy nothing
// (the bridge of issue 28 moves it as it is).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// First: the Timeline without its sensor and client tracks (or why the
    /// run could not be done), the simulation's own duration (ms), and how
    /// many parts follow.
    Head {
        /// The revision.
        rev: u64,
        /// The Timeline's head, or the reason (a sentence).
        result: Result<Timeline, String>,
        /// How long the simulation took in the worker, ms.
        took_ms: f64,
        /// How many [`Part::Sensors`] and [`Part::Clients`] follow.
        rest: u32,
    },
    /// The next sensor tracks, in order.
    Sensors {
        /// The revision.
        rev: u64,
        /// The tracks.
        tracks: Vec<SensorTrack>,
    },
    /// The next client tracks, in order.
    Clients {
        /// The revision.
        rev: u64,
        /// The tracks.
        tracks: Vec<ClientTrack>,
    },
    /// One run of a spread over seeds ([`SimRequest::Seed`]): the job, the
    /// seed, and the run reduced to what
    /// [`quota_engine::sim::seeds::add_run`] reads ([`for_spread`]), or the
    /// reason it could not be done. One message, whatever the run's size.
    Seed {
        /// The job (the page's spread it belongs to).
        job: u64,
        /// The seed the run used.
        seed: u64,
        /// The reduced Timeline, or the reason (a sentence).
        result: Result<Timeline, String>,
    },
}

impl Part {
    /// The revision this part belongs to.
    pub fn rev(&self) -> u64 {
        match self {
            Part::Head { rev, .. } | Part::Sensors { rev, .. } | Part::Clients { rev, .. } => *rev,
            Part::Seed { job, .. } => *job,
        }
    }

    /// The part in the engine's wire form: a tag byte, the revision, then
    /// the fields.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Part::Head { rev, result, took_ms, rest } => {
                out.push(0);
                rev.put(&mut out);
                took_ms.put(&mut out);
                rest.put(&mut out);
                match result {
                    Ok(t) => {
                        out.push(0);
                        t.put(&mut out);
                    }
                    Err(why) => {
                        out.push(1);
                        why.put(&mut out);
                    }
                }
            }
            Part::Sensors { rev, tracks } => {
                out.push(1);
                rev.put(&mut out);
                tracks.put(&mut out);
            }
            Part::Clients { rev, tracks } => {
                out.push(2);
                rev.put(&mut out);
                tracks.put(&mut out);
            }
            Part::Seed { job, seed, result } => {
                out.push(3);
                job.put(&mut out);
                seed.put(&mut out);
                match result {
                    Ok(t) => {
                        out.push(0);
                        t.put(&mut out);
                    }
                    Err(why) => {
                        out.push(1);
                        why.put(&mut out);
                    }
                }
            }
        }
        out
    }

    /// Reads what [`Part::to_bytes`] wrote; `None` for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Option<Part> {
        let (&tag, rest) = bytes.split_first()?;
        let mut r = Reader::new(rest);
        let rev = u64::get(&mut r);
        let part = match tag {
            0 => {
                let took_ms = f64::get(&mut r);
                let rest = u32::get(&mut r);
                let result = read_result(&mut r)?;
                Part::Head { rev, result, took_ms, rest }
            }
            1 => Part::Sensors { rev, tracks: Vec::get(&mut r) },
            2 => Part::Clients { rev, tracks: Vec::get(&mut r) },
            3 => {
                let seed = u64::get(&mut r);
                let result = read_result(&mut r)?;
                Part::Seed { job: rev, seed, result }
            }
            _ => return None,
        };
        r.is_done().then_some(part)
    }
}

/// A Timeline or the reason it could not be had, as [`Part::to_bytes`]
/// writes it (a tag byte, then either); `None` for another tag. One reader
/// for a head and a seed's run: the page's module carries the Timeline's
/// reader once.
#[inline(never)]
fn read_result(r: &mut Reader<'_>) -> Option<Result<Timeline, String>> {
    match r.get_byte() {
        0 => Some(Ok(Timeline::get(r))),
        1 => Some(Err(String::get(r))),
        _ => None,
    }
}

/// Cuts `tracks` into batches of about [`PART_BYTES`] each (one track at
/// least), each written as a part by `wrap`.
fn batches<T: Wire>(tracks: Vec<T>, wrap: impl Fn(Vec<T>) -> Part) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut batch = Vec::new();
    let mut bytes = 0;
    let mut scratch = Vec::new();
    for t in tracks {
        scratch.clear();
        t.put(&mut scratch);
        bytes += scratch.len();
        batch.push(t);
        if bytes >= PART_BYTES {
            out.push(wrap(std::mem::take(&mut batch)).to_bytes());
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        out.push(wrap(batch).to_bytes());
    }
    out
}

/// The worker's answer to `request` (a [`SimRequest`]'s JSON): the
/// messages to post, in order. `now` reads a clock in ms (the run's
/// duration is reported). An unreadable request is answered with a head
/// carrying the reason and revision 0 (the run in flight).
pub fn answer(request: &str, now: impl Fn() -> f64) -> Vec<Vec<u8>> {
    let head = |rev, result, took_ms, rest| Part::Head { rev, result, took_ms, rest }.to_bytes();
    let (rev, scenario) = match serde_json::from_str::<SimRequest>(request) {
        Ok(SimRequest::Seed { job, scenario }) => return vec![answer_seed(job, &scenario)],
        Ok(SimRequest::Run { rev, scenario }) => (rev, scenario),
        Err(e) => {
            // Answered where it belongs when its envelope can be read: a
            // seed's job, or the run's revision (else 0: the run in flight).
            let why = format!("The simulation worker could not read a request: {e}.");
            let envelope = serde_json::from_str::<serde_json::Value>(request).ok();
            let number = |tag: &str, field: &str| envelope.as_ref().and_then(|v| v.get(tag)?.get(field)?.as_u64());
            return match (number("seed", "job"), number("run", "rev")) {
                (Some(job), _) => vec![Part::Seed { job, seed: 0, result: Err(why) }.to_bytes()],
                (None, rev) => vec![head(rev.unwrap_or(0), Err(why), 0.0, 0)],
            };
        }
    };
    let start = now();
    let result = crate::model::simulate(&scenario);
    let took_ms = now() - start;
    let mut t = match result {
        Ok(t) => t,
        Err(why) => return vec![head(rev, Err(why), took_ms, 0)],
    };
    let sensors = std::mem::take(&mut t.sensors);
    let clients = std::mem::take(&mut t.clients);
    let mut rest = batches(sensors, |tracks| Part::Sensors { rev, tracks });
    rest.extend(batches(clients, |tracks| Part::Clients { rev, tracks }));
    let mut out = vec![head(rev, Ok(t), took_ms, rest.len() as u32)];
    out.extend(rest);
    out
}

/// Puts a Timeline back together from its [`Part`]s, for one revision at
/// a time: parts of another revision than the head's are ignored.
#[derive(Debug, Default)]
pub struct Assembler {
    building: Option<(u64, Timeline, u32)>,
    took: f64,
}

/// What [`Assembler::feed`] makes of a part.
#[derive(Debug, PartialEq)]
pub enum Fed {
    /// More parts are needed.
    Pending,
    /// The run of `rev` is complete (or failed, with its sentence), and how
    /// long the worker took to simulate it (ms).
    Done(u64, Box<Result<Timeline, String>>, f64),
}

impl Assembler {
    /// Takes the next part. A head starts a new Timeline (dropping one that
    /// was not complete).
    pub fn feed(&mut self, part: Part) -> Fed {
        match part {
            Part::Head { rev, result, took_ms, rest } => match result {
                Ok(t) if rest > 0 => {
                    self.building = Some((rev, t, rest));
                    self.took = took_ms;
                    Fed::Pending
                }
                result => {
                    self.building = None;
                    Fed::Done(rev, Box::new(result), took_ms)
                }
            },
            Part::Sensors { rev, tracks } => self.add(rev, |t| t.sensors.extend(tracks)),
            Part::Clients { rev, tracks } => self.add(rev, |t| t.clients.extend(tracks)),
            // A run of a spread is not a part of the run shown (`on_part` routes it).
            Part::Seed { .. } => Fed::Pending,
        }
    }

    fn add(&mut self, rev: u64, put: impl FnOnce(&mut Timeline)) -> Fed {
        match &mut self.building {
            Some((r, t, left)) if *r == rev => {
                put(t);
                *left -= 1;
                if *left == 0 {
                    let (rev, t, _) = self.building.take().expect("checked above");
                    return Fed::Done(rev, Box::new(Ok(t)), self.took);
                }
                Fed::Pending
            }
            _ => Fed::Pending,
        }
    }
}

/// Which revision to run next: one run in flight at a time, the newest
/// edit waiting (an older waiting one is replaced), stale results dropped.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Coalescer {
    in_flight: Option<u64>,
    pending: Option<u64>,
    latest: u64,
}

/// What [`Coalescer::submit`] decided for a revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submit {
    /// Send it now: nothing is in flight.
    Send,
    /// It waits for the run in flight (replacing a waiting one).
    Queue,
    /// Not queued: it is in flight or waiting already, or a newer revision
    /// was asked for (a request posted late, after the newest one).
    Skip,
}

impl Coalescer {
    /// Revision `rev` wants a run: [`Submit::Send`] when nothing is in
    /// flight; else it waits, replacing a waiting one. A revision already
    /// in flight or waiting, or older than the newest asked for, is skipped.
    pub fn submit(&mut self, rev: u64) -> Submit {
        if rev < self.latest || self.in_flight == Some(rev) || self.pending == Some(rev) {
            // Asked twice (e.g. again after the worker failed), or a
            // deferred request arriving after a newer one: one run, the newest.
            return Submit::Skip;
        }
        self.latest = rev;
        if self.in_flight.is_some() {
            self.pending = Some(rev);
            Submit::Queue
        } else {
            self.in_flight = Some(rev);
            self.pending = None;
            Submit::Send
        }
    }

    /// The run of `rev` finished: whether its result is the newest (to
    /// show), and the waiting revision to send now, if any.
    pub fn finished(&mut self, rev: u64) -> (bool, Option<u64>) {
        if self.in_flight == Some(rev) {
            self.in_flight = None;
        }
        let next = match (self.in_flight, self.pending.take()) {
            (None, Some(p)) => {
                self.in_flight = Some(p);
                Some(p)
            }
            (_, p) => {
                self.pending = p;
                None
            }
        };
        (rev == self.latest, next)
    }

    /// The revision an answer for `rev` finishes: `rev`, or for 0 (the
    /// worker's answer to a request it could not read, [`answer`]) the run
    /// in flight, so that its slot is released and the reason shown as its
    /// result instead of every later edit waiting for it.
    pub fn resolve(&self, rev: u64) -> u64 {
        match (rev, self.in_flight) {
            (0, Some(r)) => r,
            _ => rev,
        }
    }

    /// The revision in flight, if any.
    pub fn in_flight(&self) -> Option<u64> {
        self.in_flight
    }

    /// Whether a run is in flight or waiting.
    pub fn busy(&self) -> bool {
        self.in_flight.is_some() || self.pending.is_some()
    }

    /// Forgets the run in flight and the waiting one (the worker failed).
    pub fn reset(&mut self) {
        self.in_flight = None;
        self.pending = None;
    }
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `import.meta.url` of the page's wasm-bindgen JS (wasm-bindgen writes
    /// the import into that module): Trunk names it after a hash of the
    /// build, `quota-playground-<hash>.js`.
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static PAGE_JS_URL: String;
}

/// The query that ties the simulation module's files to this build of the
/// page: `?v=<hash>` from the page's own JS file name (see `PAGE_JS_URL`),
/// so that a browser or a CDN never pairs a cached worker with a newer page
/// (the wire form has no field names: a mismatch would not be noticed).
/// Empty where the name has no hash.
pub fn build_query() -> String {
    #[cfg(target_arch = "wasm32")]
    let url = PAGE_JS_URL.with(String::clone);
    #[cfg(not(target_arch = "wasm32"))]
    let url = String::new();
    build_query_of(&url)
}

/// [`build_query`] of the page's JS URL `url`.
pub fn build_query_of(url: &str) -> String {
    let file = url.split(['?', '#']).next().unwrap_or("").rsplit('/').next().unwrap_or("");
    let hash = file.strip_suffix(".js").and_then(|f| f.rsplit_once('-')).map(|(_, h)| h).unwrap_or("");
    if !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_alphanumeric()) {
        format!("?v={hash}")
    } else {
        String::new()
    }
}

/// `file` with [`build_query`].
fn versioned(file: &str) -> String {
    format!("{file}{}", build_query())
}

/// The one line the page shows when the worker cannot be used.
pub fn fallback_note(why: &str) -> String {
    format!("The simulation runs on the page's main thread, so typing may pause while it recomputes: its Web Worker is not available ({why}).")
}

/// The run's reason when the module cannot run on the main thread either:
/// `worker` is why the worker could not be used, `here` what happened on
/// the page (both in words).
pub fn here_failed(worker: &str, here: &str) -> String {
    format!("The simulation could not run, neither in its Web Worker ({worker}) nor on the page's main thread ({here}). Reload the page to try again; `kafka-quota simulate` runs the same scenario from the command line.")
}

// ---- The worker's side ------------------------------------------------

/// A panic's message for a reader: the message only, never the source
/// location (a toolchain path such as `/rustc/…/raw_vec/mod.rs` says
/// nothing to a reader, issue 30); every panic hook of the playground
/// (page, simulation worker, import/export worker) says this.
pub fn panic_message(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// What the worker posts for a panic ([`internal_error_sentence`]).
fn panic_sentence(info: &std::panic::PanicHookInfo<'_>) -> String {
    internal_error_sentence(&panic_message(info))
}

/// The sentence for an internal error of the simulation whose message is
/// `message` (no path, no location).
pub fn internal_error_sentence(message: &str) -> String {
    let message = message.trim();
    if message.is_empty() {
        "the simulation stopped on an internal error".to_owned()
    } else {
        format!("the simulation stopped on an internal error ({message})")
    }
}

/// The result shown for the run the worker stopped on (`why`, from
/// [`internal_error_sentence`] or the worker's loss): it is not run again
/// on the page's main thread.
pub fn stopped_in_worker(why: &str) -> String {
    format!(
        "This run stopped the simulation worker: {why}. It is not run again on the page's main thread, where it would stop the page too; \
         change the scenario (a shorter horizon, fewer records), or run it with the kafka-quota CLI (`kafka-quota simulate FILE`), which runs anything and shows its progress."
    )
}

/// True when this module runs in a worker (no `document`): the
/// `quota-sim-worker` binary then calls [`serve`]; on the page's main
/// thread (the fallback) it only exports `answer_parts`.
pub fn in_worker() -> bool {
    !js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("document")).unwrap_or(false)
}

/// Serves simulation requests in the worker ([`crate::bridge::serve`]): each
/// message (a [`SimRequest`]'s JSON) is answered by the messages of
/// [`answer`], each buffer transferred; `ready` is posted first (the link
/// holds requests until then). A panic is posted as `failed:<message>`
/// before the module traps.
pub fn serve() {
    crate::bridge::serve(panic_sentence, |request| {
        let request = request.as_string().unwrap_or_default();
        answer(&request, js_sys::Date::now)
            .iter()
            .map(|m| {
                let bytes = js_sys::Uint8Array::from(&m[..]);
                let transfer = js_sys::Array::of1(&bytes.buffer());
                (JsValue::from(bytes), Some(transfer))
            })
            .collect()
    });
}

// ---- The page's side --------------------------------------------------

/// What the page hears from [`SimClient::request`].
#[derive(Debug)]
// One event at a time, moved once (see `Part`).
#[allow(clippy::large_enum_variant)]
pub(crate) enum SimEvent {
    /// The newest run: its revision, the Timeline or the reason, and how
    /// long the worker took to simulate it (ms).
    Done(u64, Result<Timeline, String>, f64),
    /// The worker cannot be used (any more): why, as words for
    /// [`fallback_note`], and the revision whose run it stopped on, if it
    /// stopped while running one (that run is not run again on the main
    /// thread, where it would stop the page too: issue 30).
    Failed(String, Option<u64>),
}

/// The page's simulation client: the worker's link (started on demand),
/// the module on the main thread once the worker failed, the coalescing of
/// runs, the spread over seeds, and the one listener of each. One per
/// page, owned by the App (its `ctx::Workers` context); dropping
/// the last handle drops the link, which terminates the worker. Handles
/// compare by identity.
#[derive(Clone, Default)]
pub struct SimClient(Rc<std::cell::RefCell<Client>>);

impl PartialEq for SimClient {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl SimClient {
    fn with<R>(&self, f: impl FnOnce(&std::cell::RefCell<Client>) -> R) -> R {
        f(&self.0)
    }

    /// A handle the link's and timers' callbacks hold: the client owns
    /// them. Also for the page's listener, which the client holds too.
    pub(crate) fn weak(&self) -> WeakClient {
        WeakClient(Rc::downgrade(&self.0))
    }

    /// Where requests go now: the worker, or, once it failed, the module
    /// on the page's main thread (started then); `None` before the worker
    /// was started.
    fn transport(&self) -> Option<Rc<dyn Transport<Sim>>> {
        let mut c = self.0.borrow_mut();
        match &c.failed {
            None => c.link.clone().map(|l| Rc::new(l) as Rc<dyn Transport<Sim>>),
            Some(why) => {
                let why = why.clone();
                let client = self.weak();
                let here = c.here.get_or_insert_with(|| MainThread::new(why, client));
                Some(Rc::clone(here) as Rc<dyn Transport<Sim>>)
            }
        }
    }

    /// The listener of [`SeedEvent`]s.
    pub(crate) fn listen_seeds(&self, cb: Option<yew::Callback<SeedEvent>>) {
        self.with(|c| c.borrow_mut().seed_listener = cb);
    }

    fn emit_seed(&self, event: SeedEvent) {
        let listener = self.with(|c| c.borrow().seed_listener.clone());
        if let Some(l) = listener {
            l.emit(event);
        }
    }

    /// Runs `scenario` with `count` seeds from its own up, one after another
    /// in the simulation worker (between the runs of the page's edits), each
    /// answered as a [`SeedEvent::Run`]; a job already running is dropped.
    /// Returns the job's number.
    pub(crate) fn run_seeds(&self, scenario: &Scenario, count: u32) -> u64 {
        self.prestart();
        let (job, message) = self.with(|c| {
            let mut c = c.borrow_mut();
            c.last_job += 1;
            let j = SeedJob { job: c.last_job, scenario: scenario.clone(), count: count.clamp(1, PAGE_SEEDS_MAX), done: 0 };
            let m = j.next_request();
            c.seeds = Some(j);
            (c.last_job, m)
        });
        self.post_seed(job, message);
        job
    }

    /// Drops the spread being run: the run in flight (or held until the
    /// worker is ready) is answered and ignored.
    pub(crate) fn cancel_seeds(&self) {
        self.with(|c| c.borrow_mut().seeds = None);
    }

    /// Sends a seed's request where the runs go ([`SimClient::transport`]: the
    /// worker, or the module on the main thread once the worker failed);
    /// the job stops with why when it cannot be sent.
    fn post_seed(&self, job: u64, request: SimRequest) {
        let sent = match self.transport() {
            Some(t) => t.send(&request).map_err(|e| format!("the request could not be written ({e})")),
            None => Err("the simulation worker did not start".to_owned()),
        };
        if let Err(why) = sent {
            self.cancel_seeds();
            self.emit_seed(SeedEvent::Stopped(job, why));
        }
    }

    /// A run of a spread came back: told to the listener when it is of the
    /// job running, and the next seed is asked for.
    fn on_seed(&self, job: u64, seed: u64, result: Result<Timeline, String>) {
        let next = self.with(|c| {
            let mut c = c.borrow_mut();
            let j = c.seeds.as_mut().filter(|j| j.job == job)?;
            j.done += 1;
            let next = (result.is_ok() && j.done < j.count).then(|| j.next_request());
            if next.is_none() {
                c.seeds = None;
            }
            Some(next)
        });
        let Some(next) = next else { return };
        self.emit_seed(SeedEvent::Run(job, seed, result));
        if let Some(m) = next {
            self.post_seed(job, m);
        }
    }

    fn emit(&self, event: SimEvent) {
        let listener = self.with(|c| c.borrow().listener.clone());
        if let Some(l) = listener {
            l.emit(event);
        }
    }

    /// Gives the worker up (once: a later failure, e.g. its `onerror` after a
    /// posted `failed:`, changes nothing) and tells the listener, which asks
    /// again for the newest revision, now answered on the main thread.
    fn fail(&self, why: String) {
        let first = self.with(|c| {
            let mut c = c.borrow_mut();
            if c.failed.is_some() {
                return None;
            }
            c.failed = Some(why.clone());
            // A worker that was ready failed on the run in flight.
            let running = if c.ready { c.coalescer.in_flight() } else { None };
            c.coalescer.reset();
            c.waiting = None;
            let job = c.seeds.take().map(|j| j.job);
            Some((running, job, c.link.take()))
        });
        // The link dropped outside the borrow: the worker is terminated.
        let first = first.map(|(running, job, link)| {
            drop(link);
            (running, job)
        });
        if let Some((running, job)) = first {
            if let Some(job) = job {
                self.emit_seed(SeedEvent::Stopped(job, format!("the simulation worker stopped ({why})")));
            }
            self.emit(SimEvent::Failed(why, running));
        }
    }

    /// Sends `request` where the runs go ([`SimClient::transport`]): the worker
    /// (the link holds it until `ready`), or, once the worker failed, the
    /// module on the page's main thread ([`MainThread`]).
    fn post(&self, request: SimRequest) {
        let Some(transport) = self.transport() else { return };
        // A request that cannot be written is answered with why; the worker
        // stays (it never saw the request).
        if let Err(e) = transport.send(&request) {
            self.on_part(request.refused(format!("The request could not be written: {e}.")));
        }
    }

    /// Whether the module cannot run on the main thread either (every run is
    /// then answered with [`here_failed`]'s sentence).
    pub(crate) fn here_cannot_run(&self) -> bool {
        self.with(|c| c.borrow().here.as_ref().is_some_and(|h| h.cannot_run()))
    }

    /// What the worker's link says: `ready` (the link has posted what it
    /// held), a part of a run, or its failure.
    fn on_event(&self, event: LinkEvent<Part>) {
        match event {
            LinkEvent::Loading => {}
            LinkEvent::Ready => self.with(|c| c.borrow_mut().ready = true),
            LinkEvent::Reply(part) => self.on_part(part),
            LinkEvent::Failed(failure) => self.fail(failure.words()),
        }
    }

    /// A part of a run (from the worker or the module on the main thread):
    /// a seed's run goes to its job; the parts of a revision are put together
    /// ([`Assembler`]) and the newest run is shown.
    fn on_part(&self, part: Part) {
        if let Part::Seed { job, seed, result } = part {
            return self.on_seed(job, seed, result);
        }
        let fed = self.with(|c| c.borrow_mut().assembler.feed(part));
        let Fed::Done(rev, result, took_ms) = fed else { return };
        let (rev, newest, next) = self.with(|c| {
            let mut c = c.borrow_mut();
            let rev = c.coalescer.resolve(rev);
            let (newest, next) = c.coalescer.finished(rev);
            (rev, newest, next)
        });
        if next.is_some() {
            if let Some((_, request)) = self.with(|c| c.borrow_mut().waiting.take()) {
                self.post(request);
            }
        }
        if newest {
            // Shown in a task of its own: the render does not add to the
            // decoding of the last part.
            let me = self.weak();
            gloo::timers::callback::Timeout::new(0, move || {
                if let Some(me) = me.upgrade() {
                    me.emit(SimEvent::Done(rev, *result, took_ms));
                }
            })
            .forget();
        }
    }

    /// Starts the worker if it was not started (and has not failed), through
    /// its [`LOADER`] and the one typed [`Link`].
    fn prestart(&self) {
        let idle = self.with(|c| {
            let c = c.borrow();
            c.link.is_none() && c.failed.is_none()
        });
        if !idle {
            return;
        }
        let me = self.weak();
        let on_event = move |event| {
            if let Some(me) = me.upgrade() {
                me.on_event(event);
            }
        };
        match Link::<Sim>::start(&versioned(LOADER), TIMEOUTS, on_event) {
            Ok(link) => self.with(|c| c.borrow_mut().link = Some(link)),
            Err(failure) => self.fail(failure.words()),
        }
    }

    /// The listener of [`SimEvent`]s (one: the root component's).
    pub(crate) fn listen(&self, cb: Option<yew::Callback<SimEvent>>) {
        self.with(|c| c.borrow_mut().listener = cb);
    }

    /// Asks the worker to simulate `scenario` (revision `rev`), starting it if
    /// needed; coalesced ([`Coalescer`]). Once the worker failed (the listener
    /// heard [`SimEvent::Failed`]), the module on the main thread answers.
    pub(crate) fn request(&self, rev: u64, scenario: &Rc<Scenario>) {
        let had_failed = self.with(|c| c.borrow().failed.is_some());
        self.prestart();
        if !had_failed && self.with(|c| c.borrow().failed.is_some()) {
            // The worker could not start: the listener heard it and asked for
            // the newest revision on the main thread already.
            return;
        }
        let request = SimRequest::Run { rev, scenario: Rc::clone(scenario) };
        match self.with(|c| c.borrow_mut().coalescer.submit(rev)) {
            Submit::Send => self.post(request),
            Submit::Queue => self.with(|c| c.borrow_mut().waiting = Some((rev, request))),
            Submit::Skip => {}
        }
    }
}

/// A [`SimClient`] held weakly (by the link's, the timers', the main
/// thread module's and the listener's callbacks: the client holds them).
#[derive(Clone)]
pub(crate) struct WeakClient(std::rc::Weak<std::cell::RefCell<Client>>);

impl WeakClient {
    /// The client, while the page holds it.
    pub(crate) fn upgrade(&self) -> Option<SimClient> {
        self.0.upgrade().map(SimClient)
    }
}

#[derive(Default)]
struct Client {
    /// The worker (the link holds requests until it is ready).
    link: Option<Link<Sim>>,
    /// The worker said `ready` (a failure then stopped the run in flight).
    ready: bool,
    /// Why the worker cannot be used, once it cannot.
    failed: Option<String>,
    /// The module on the page's main thread, once the worker failed.
    here: Option<Rc<MainThread>>,
    /// The request waiting for the run in flight.
    waiting: Option<(u64, SimRequest)>,
    coalescer: Coalescer,
    assembler: Assembler,
    listener: Option<yew::Callback<SimEvent>>,
    /// The spread over seeds being run, one seed at a time ([`SimClient::run_seeds`]).
    seeds: Option<SeedJob>,
    /// The last job number given.
    last_job: u64,
    /// The listener of [`SeedEvent`]s (one: the seeds control's).
    seed_listener: Option<yew::Callback<SeedEvent>>,
}

/// A spread over seeds being run: `count` runs of `scenario` with seeds
/// `scenario.seed`, `scenario.seed + 1`, …, one request at a time, so that
/// the run of a new edit waits for one seed at most, and a cancelled job
/// stops after the run in flight.
struct SeedJob {
    job: u64,
    scenario: Scenario,
    count: u32,
    /// Runs answered so far (the next seed is `scenario.seed + done`).
    done: u32,
}

impl SeedJob {
    /// The request of the next seed.
    fn next_request(&self) -> SimRequest {
        let mut scenario = self.scenario.clone();
        scenario.seed = self.scenario.seed.wrapping_add(u64::from(self.done));
        SimRequest::Seed { job: self.job, scenario: Rc::new(scenario) }
    }
}

/// What the seeds control hears of [`SimClient::run_seeds`].
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum SeedEvent {
    /// One run of job `job` with seed `seed`: the run reduced for the
    /// spread ([`for_spread`]), or why it could not be done (the job ends).
    Run(u64, u64, Result<Timeline, String>),
    /// Job `job` stopped before its end: why, in words.
    Stopped(u64, String),
}

/// The simulation module run on the page's main thread, where no worker
/// can (the fallback): the same [`Sim`] requests and parts as the worker's,
/// the parts read by [`Sim::decode`] too, answered by the module's
/// `answer_parts` in a task of its own, as the worker's answer would come.
/// When it cannot run either, each request is answered with the reason
/// ([`here_failed`]).
pub(crate) struct MainThread {
    /// Why the worker could not be used (words for [`here_failed`]).
    worker_failed: String,
    state: std::cell::RefCell<Here>,
    /// Itself, for the callbacks of its loading.
    me: std::rc::Weak<MainThread>,
    /// The client its parts go to ([`SimClient::on_part`]).
    client: WeakClient,
}

/// Where the module on the main thread is.
enum Here {
    /// Not loaded yet (nothing asked of it).
    Off,
    /// Its scripts are loading; the requests wait, in order.
    Loading(Vec<SimRequest>),
    /// Its `answer_parts` export.
    Ready(js_sys::Function),
    /// It cannot run: the sentence every request is answered with.
    Failed(String),
}

impl Transport<Sim> for MainThread {
    fn send(&self, request: &SimRequest) -> Result<(), String> {
        let mut state = self.state.borrow_mut();
        match &mut *state {
            Here::Off => {
                *state = Here::Loading(vec![request.clone()]);
                drop(state);
                self.load();
            }
            Here::Loading(waiting) => waiting.push(request.clone()),
            Here::Failed(sentence) => {
                let part = request.refused(sentence.clone());
                drop(state);
                self.on_part(part);
            }
            Here::Ready(f) => {
                let (f, message) = (f.clone(), Sim::encode(request)?);
                drop(state);
                let (me, request) = (self.me.clone(), request.clone());
                gloo::timers::callback::Timeout::new(0, move || {
                    if let Some(me) = me.upgrade() {
                        me.answer(&f, &message, request);
                    }
                })
                .forget();
            }
        }
        Ok(())
    }
}

impl MainThread {
    fn new(worker_failed: String, client: WeakClient) -> Rc<MainThread> {
        Rc::new_cyclic(|me| MainThread { worker_failed, state: std::cell::RefCell::new(Here::Off), me: me.clone(), client })
    }

    /// Hands `part` to the client (gone: the page is closing, nothing to do).
    fn on_part(&self, part: Part) {
        if let Some(client) = self.client.upgrade() {
            client.on_part(part);
        }
    }

    /// Whether the module cannot run here either.
    fn cannot_run(&self) -> bool {
        matches!(*self.state.borrow(), Here::Failed(_))
    }

    /// The module cannot be used: `what` happened (words for
    /// [`here_failed`]). Returns the sentence later runs are answered with.
    fn stop(&self, what: &str) -> String {
        let sentence = here_failed(&self.worker_failed, what);
        *self.state.borrow_mut() = Here::Failed(sentence.clone());
        sentence
    }

    /// Runs `message` (of `request`) through the module's `answer_parts`
    /// and hands each part on; a trap or an unreadable part stops the
    /// module for good, and the request is answered with why.
    fn answer(&self, f: &js_sys::Function, message: &JsValue, request: SimRequest) {
        let parts = match f.call1(&JsValue::NULL, message) {
            Ok(parts) => parts,
            Err(e) => {
                // A trap leaves the module unusable: every later run says
                // so (reloading the page starts afresh).
                let why = crate::platform::js_error_text(&e).unwrap_or_else(|| "an internal error".to_owned());
                let sentence = self.stop(&format!("the simulation stopped on an internal error ({why})"));
                return self.on_part(request.refused(sentence));
            }
        };
        for p in js_sys::Array::from(&parts).iter() {
            match Sim::decode(p) {
                Ok(part) => self.on_part(part),
                Err(what) => {
                    let sentence = self.stop(&what);
                    return self.on_part(request.refused(sentence));
                }
            }
        }
    }

    /// The module is loaded (`Ok`: its `answer_parts`) or cannot be
    /// (`Err`: what happened); the requests that waited are sent now.
    fn loaded(&self, here: Result<js_sys::Function, String>) {
        let waiting = match std::mem::replace(&mut *self.state.borrow_mut(), Here::Off) {
            Here::Loading(waiting) => waiting,
            _ => Vec::new(),
        };
        match here {
            Ok(f) => *self.state.borrow_mut() = Here::Ready(f),
            Err(what) => {
                self.stop(&what);
            }
        }
        for request in waiting {
            // Only writing the request can fail: it is then answered with why.
            if let Err(e) = self.send(&request) {
                self.on_part(request.refused(format!("The request could not be written: {e}.")));
            }
        }
    }

    /// Loads [`MODULE_JS`] and [`HERE_SHIM`] with `<script>`s and
    /// initialises the module ([`MODULE_WASM`]) on the main thread; then
    /// answers the waiting requests ([`MainThread::loaded`]).
    fn load(&self) {
        let done = {
            let me = self.me.clone();
            Rc::new(move |here: Result<js_sys::Function, String>| {
                if let Some(me) = me.upgrade() {
                    me.loaded(here);
                }
            })
        };
        let init = {
            let done = Rc::clone(&done);
            move || {
                let init = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("quotaSimModule"))
                    .ok()
                    .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
                let Some(init) = init else {
                    return done(Err(format!("its module's script {MODULE_JS} defined no module")));
                };
                let options = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&options, &JsValue::from_str("module_or_path"), &JsValue::from_str(&versioned(MODULE_WASM)));
                let promise = match init.call1(&JsValue::NULL, &options) {
                    Ok(p) => js_sys::Promise::resolve(&p),
                    Err(e) => return done(Err(format!("its module could not start ({})", crate::platform::js_error_text(&e).unwrap_or_default()))),
                };
                let done = Rc::clone(&done);
                wasm_bindgen_futures::spawn_local(async move {
                    match wasm_bindgen_futures::JsFuture::from(promise).await {
                        Ok(_) => {
                            let f = js_sys::Reflect::get(&init, &JsValue::from_str("answer_parts"))
                                .ok()
                                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
                            done(f.ok_or_else(|| format!("its module {MODULE_WASM} has no answer_parts")));
                        }
                        Err(e) => done(Err(format!("its module {MODULE_WASM} did not load ({})", crate::platform::js_error_text(&e).unwrap_or_default()))),
                    }
                });
            }
        };
        let glue = {
            let (done_ok, done_err) = (Rc::clone(&done), Rc::clone(&done));
            load_script(
                &versioned(MODULE_JS),
                move || {
                    let failed = {
                        let done = Rc::clone(&done_ok);
                        move || done(Err(format!("its script {HERE_SHIM} did not load")))
                    };
                    if let Err(why) = load_script(&versioned(HERE_SHIM), init, failed) {
                        done_ok(Err(why.to_owned()));
                    }
                },
                move || done_err(Err(format!("its module's script {MODULE_JS} did not load"))),
            )
        };
        if let Err(why) = glue {
            done(Err(why.to_owned()));
        }
    }
}

/// Adds `<script src>` to the page's `<head>`, calling `loaded` or
/// `failed` once.
fn load_script(src: &str, loaded: impl FnOnce() + 'static, failed: impl FnOnce() + 'static) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("the page has no document")?;
    let script = document.create_element("script").map_err(|_| "the page cannot add a script")?;
    let head = document.head().ok_or("the page has no <head>")?;
    let _ = js_sys::Reflect::set(&script, &JsValue::from_str("onload"), &Closure::once_into_js(loaded));
    let _ = js_sys::Reflect::set(&script, &JsValue::from_str("onerror"), &Closure::once_into_js(failed));
    script.set_attribute("src", src).map_err(|_| "the script's address was refused")?;
    head.append_child(&script).map_err(|_| "the page refused the script")?;
    Ok(())
}

/// How long the worker may take to post `loading` (its loader script ran:
/// the module's JS is in), then `ready` (its module downloaded and
/// compiled: on a slow link its 260 KB gzip), before the page gives up on
/// it and runs the simulation on its main thread.
const TIMEOUTS: Timeouts = Timeouts { loading_ms: LOADING_TIMEOUT_MS, ready_ms: READY_TIMEOUT_MS };

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's request as the link posts it.
    fn request_text(rev: u64, s: &Scenario) -> String {
        serde_json::to_string(&SimRequest::Run { rev, scenario: Rc::new(s.clone()) }).unwrap()
    }

    /// A seed's request as the link posts it.
    fn seed_request_text(job: u64, s: &Scenario) -> String {
        serde_json::to_string(&SimRequest::Seed { job, scenario: Rc::new(s.clone()) }).unwrap()
    }

    #[test]
    fn a_request_is_tagged_json_that_reads_back() {
        let s = crate::presets::default_scenario();
        let text = request_text(4, &s);
        assert!(text.starts_with(r#"{"run":{"rev":4,"scenario":{"#), "{text}");
        assert_eq!(serde_json::from_str::<SimRequest>(&text).unwrap(), SimRequest::Run { rev: 4, scenario: Rc::new(s.clone()) });
        assert!(seed_request_text(2, &s).starts_with(r#"{"seed":{"job":2,"#));
        // Refused where it cannot run: the run's revision, or the job.
        let Part::Head { rev: 4, result: Err(why), rest: 0, .. } = SimRequest::Run { rev: 4, scenario: Rc::new(s.clone()) }.refused("no".to_owned()) else { panic!() };
        assert_eq!(why, "no");
        let Part::Seed { job: 2, result: Err(_), .. } = SimRequest::Seed { job: 2, scenario: Rc::new(s) }.refused("no".to_owned()) else { panic!() };
    }

    #[test]
    fn the_module_files_carry_the_page_build_hash() {
        assert_eq!(build_query_of("https://x.test/docs/quota-playground-bca82d17bf36ea2f.js"), "?v=bca82d17bf36ea2f");
        assert_eq!(build_query_of("http://127.0.0.1:8080/quota-playground-1dc8787a48f2b533.js?x#y"), "?v=1dc8787a48f2b533");
        // Without Trunk's hash (or not a name at all): no query.
        assert_eq!(build_query_of("http://h/quota_playground.js"), "");
        assert_eq!(build_query_of(""), "");
        assert_eq!(build_query_of("http://h/a-b c.js"), "");
    }

    #[test]
    fn a_revision_asked_twice_runs_once() {
        let mut c = Coalescer::default();
        assert_eq!(c.submit(1), Submit::Send);
        // Asked again while it runs (the worker failed and the page asked
        // the main thread): not queued a second time.
        assert_eq!(c.submit(1), Submit::Skip);
        assert_eq!(c.finished(1), (true, None));
        assert!(!c.busy());
        // Waiting twice: sent once.
        assert_eq!(c.submit(2), Submit::Send);
        assert_eq!(c.submit(3), Submit::Queue);
        assert_eq!(c.submit(3), Submit::Skip);
        assert_eq!(c.finished(2), (false, Some(3)));
        assert_eq!(c.finished(3), (true, None));
        assert!(!c.busy());
    }

    #[test]
    fn a_request_posted_late_after_a_newer_one_is_skipped() {
        // The worker failed: the listener asks for the newest revision (5)
        // at once, then the deferred requests of 4 and 5 arrive.
        let mut c = Coalescer::default();
        assert_eq!(c.submit(5), Submit::Send);
        assert_eq!(c.submit(4), Submit::Skip);
        assert_eq!(c.submit(5), Submit::Skip);
        // 5 finishes and is shown; nothing is left in flight or waiting, so
        // the next edit is sent at once.
        assert_eq!(c.finished(5), (true, None));
        assert!(!c.busy());
        assert_eq!(c.submit(6), Submit::Send);
        // Late while 6 runs: skipped, 7 waits and runs next.
        assert_eq!(c.submit(7), Submit::Queue);
        assert_eq!(c.submit(6), Submit::Skip);
        assert_eq!(c.finished(6), (false, Some(7)));
        assert_eq!(c.finished(7), (true, None));
        assert!(!c.busy());
    }

    #[test]
    fn only_the_newest_edit_runs_next_and_stale_results_are_dropped() {
        let mut c = Coalescer::default();
        assert_eq!(c.submit(1), Submit::Send);
        assert!(c.busy());
        // Typing while 1 runs: 2, 3 and 4 wait; only 4 is kept.
        assert_eq!(c.submit(2), Submit::Queue);
        assert_eq!(c.submit(3), Submit::Queue);
        assert_eq!(c.submit(4), Submit::Queue);
        // 1 is stale (4 is newer): dropped, 4 is sent.
        assert_eq!(c.finished(1), (false, Some(4)));
        assert_eq!(c.finished(4), (true, None));
        assert!(!c.busy());
        // A single edit runs at once and is shown.
        assert_eq!(c.submit(5), Submit::Send);
        assert_eq!(c.finished(5), (true, None));
        // After a reset (the worker failed) nothing is in flight.
        assert_eq!(c.submit(6), Submit::Send);
        c.reset();
        assert!(!c.busy());
        assert_eq!(c.submit(7), Submit::Send);
    }

    #[test]
    fn an_unreadable_request_releases_the_run_in_flight_and_says_why() {
        let mut c = Coalescer::default();
        assert_eq!(c.submit(3), Submit::Send);
        assert_eq!(c.submit(4), Submit::Queue);
        // The worker could not read request 3: it answers revision 0.
        let msgs = answer("not a request", || 0.0);
        let mut a = Assembler::default();
        let Fed::Done(rev, result, _) = a.feed(Part::from_bytes(&msgs[0]).unwrap()) else { panic!("{msgs:?}") };
        assert_eq!(rev, 0);
        let rev = c.resolve(rev);
        assert_eq!(rev, 3);
        // 3 is finished (stale: 4 is newer), so 4 is sent now.
        assert_eq!(c.finished(rev), (false, Some(4)));
        assert_eq!(c.finished(4), (true, None));
        assert!(!c.busy());
        assert!(result.unwrap_err().starts_with("The simulation worker could not read a request"));
        // With nothing in flight, 0 stays 0 (and finishes nothing).
        assert_eq!(c.resolve(0), 0);
    }

    /// Every prefix of a real part, and every flipped bit of its head, is
    /// read as a part or refused, never a panic.
    #[test]
    fn damaged_parts_are_refused_without_a_panic() {
        let msgs = answer(&request_text(5, &crate::presets::default_scenario()), || 0.0);
        for m in &msgs {
            for cut in 0..m.len() {
                assert_eq!(Part::from_bytes(&m[..cut]), None, "a prefix of {cut} bytes");
            }
        }
        let mut head = msgs[0].clone();
        for i in 0..head.len() {
            for bit in 0..8 {
                head[i] ^= 1 << bit;
                let _ = Part::from_bytes(&head);
                head[i] = msgs[0][i];
            }
        }
    }

    fn round_trip(s: &Scenario) -> (Result<Timeline, String>, usize) {
        let req = request_text(9, s);
        let clock = std::cell::Cell::new(0.0);
        let msgs = answer(&req, || {
            clock.set(clock.get() + 1.0);
            clock.get()
        });
        let mut a = Assembler::default();
        let mut done = None;
        for (i, m) in msgs.iter().enumerate() {
            match a.feed(Part::from_bytes(m).unwrap()) {
                Fed::Pending => assert!(i + 1 < msgs.len(), "the last part completes the run"),
                Fed::Done(rev, r, took) => {
                    assert_eq!((rev, took, i + 1), (9, 1.0, msgs.len()));
                    done = Some(*r);
                }
            }
        }
        (done.unwrap(), msgs.len())
    }

    /// What the page gets equals the simulation run on the page.
    #[test]
    fn the_worker_s_parts_give_back_the_timeline() {
        let mut scenarios: Vec<Scenario> = crate::presets::LESSONS.iter().map(|l| l.scenario()).collect();
        scenarios.push(crate::presets::default_scenario());
        let bench = include_str!("../../../tests/fixtures/bench/100-clients-3-brokers.json");
        let envelope: serde_json::Value = serde_json::from_str(bench).unwrap();
        scenarios.push(serde_json::from_value(envelope["scenario"].clone()).unwrap());
        for s in &scenarios {
            let want = crate::model::simulate(s).unwrap();
            let (got, parts) = round_trip(s);
            let got = got.unwrap();
            // Compared as JSON: NaN metrics (Kafka's "no sample") are not
            // equal to themselves.
            assert!(
                serde_json::to_string(&got).unwrap() == serde_json::to_string(&want).unwrap(),
                "{}: the Timeline differs after the round trip",
                s.name
            );
            assert!(parts > usize::from(!want.clients.is_empty()));
        }
        // The 100-producer run comes in many small parts.
        let (_, parts) = round_trip(scenarios.last().unwrap());
        assert!(parts > 5, "{parts}");
    }

    /// A run of a spread: one small message carrying what `add_run` reads,
    /// the same figures as the run on the page; the spread of 20 seeds
    /// gathered from them is the engine's `simulate_seeds`.
    #[test]
    fn a_seed_s_run_crosses_in_one_part_and_gathers_into_the_engine_s_spread() {
        use quota_engine::sim::seeds::{add_run, simulate_seeds, SeedSpread};
        let s = crate::presets::lesson(5).unwrap().scenario();
        let mut spread = SeedSpread { seeds: Vec::new(), clients: Vec::new() };
        for k in 0..20u64 {
            let mut one = s.clone();
            one.seed = s.seed + k;
            let msgs = answer(&seed_request_text(7, &one), || 0.0);
            assert_eq!(msgs.len(), 1);
            assert!(msgs[0].len() < 4_096, "{} bytes", msgs[0].len());
            let Some(Part::Seed { job: 7, seed, result: Ok(t) }) = Part::from_bytes(&msgs[0]) else { panic!("not a seed part") };
            assert_eq!(seed, one.seed);
            assert!(t.sensors.is_empty() && t.clients.iter().all(|c| c.progress.points.is_empty()));
            // A seed's part is not a part of the run shown.
            assert_eq!(Assembler::default().feed(Part::Seed { job: 7, seed, result: Ok(t.clone()) }), Fed::Pending);
            add_run(&mut spread, seed, &t);
        }
        assert_eq!(spread, simulate_seeds(s.validate().expect("a valid scenario"), 20).unwrap());
        // With Admin clients and connections (lessons 8 and 9, and both beside
        // a producer): the same spread as the engine's, in small parts.
        let mut both = crate::presets::lesson(8).unwrap().scenario();
        let connects = crate::presets::lesson(9).unwrap().scenario();
        both.connections.extend(connects.connections.clone());
        both.quotas.extend(connects.quotas.clone());
        both.workloads.extend(connects.workloads.clone());
        let mut mixed = both.clone();
        let producer = crate::presets::default_scenario();
        mixed.connections.extend(producer.connections.clone());
        mixed.quotas.extend(producer.quotas.clone());
        mixed.topics.extend(producer.topics.clone());
        mixed.workloads.extend(producer.workloads.clone());
        for s in [crate::presets::lesson(8).unwrap().scenario(), connects, both, mixed] {
            let mut spread = SeedSpread { seeds: Vec::new(), clients: Vec::new() };
            for k in 0..5u64 {
                let mut one = s.clone();
                one.seed = s.seed + k;
                let msgs = answer(&seed_request_text(1, &one), || 0.0);
                assert!(msgs.len() == 1 && msgs[0].len() < 16_384, "{}: {} bytes", s.name, msgs[0].len());
                let Some(Part::Seed { seed, result: Ok(t), .. }) = Part::from_bytes(&msgs[0]) else { panic!("{}", s.name) };
                add_run(&mut spread, seed, &t);
            }
            assert_eq!(spread, simulate_seeds(s.validate().expect("a valid scenario"), 5).unwrap(), "{}", s.name);
        }
        // A scenario that cannot run: the reason, for the job.
        let mut bad = s.clone();
        bad.workloads.clear();
        let Some(Part::Seed { job: 8, result: Err(why), .. }) = Part::from_bytes(&answer(&seed_request_text(8, &bad), || 0.0)[0]) else { panic!() };
        assert_eq!(why, "Add a producer or a consumer to simulate this scenario.");
        // An unreadable request (not a SimRequest): the run in flight, revision 0.
        let Some(Part::Head { rev: 0, result: Err(_), .. }) = Part::from_bytes(&answer("seed x", || 0.0)[0]) else { panic!() };
        // A seed's request whose scenario cannot be read: answered for its
        // job (the run in flight is not blamed); a run's, for its revision.
        let Some(Part::Seed { job: 3, result: Err(why), .. }) = Part::from_bytes(&answer(r#"{"seed":{"job":3,"scenario":5}}"#, || 0.0)[0]) else { panic!() };
        assert!(why.starts_with("The simulation worker could not read a request: "), "{why}");
        let Some(Part::Head { rev: 6, result: Err(_), .. }) = Part::from_bytes(&answer(r#"{"run":{"rev":6,"scenario":5}}"#, || 0.0)[0]) else { panic!() };
    }

    #[test]
    fn failures_and_stale_parts() {
        let mut s = crate::presets::default_scenario();
        s.workloads.clear();
        assert_eq!(round_trip(&s).0, Err("Add a producer or a consumer to simulate this scenario.".to_owned()));
        let msgs = answer("{not json", || 0.0);
        let Part::Head { rev: 0, result: Err(why), .. } = Part::from_bytes(&msgs[0]).unwrap() else { panic!("{msgs:?}") };
        assert_eq!(Part::from_bytes(&msgs[0][..msgs[0].len() - 1]), None);
        assert_eq!(Part::from_bytes(&[9, 0, 0]), None);
        assert!(why.starts_with("The simulation worker could not read a request: "), "{why}");
        // A part of another revision than the head's does not complete it.
        let mut a = Assembler::default();
        let t = crate::model::simulate(&crate::presets::default_scenario()).unwrap();
        assert_eq!(a.feed(Part::Head { rev: 2, result: Ok(t), took_ms: 1.0, rest: 1 }), Fed::Pending);
        assert_eq!(a.feed(Part::Clients { rev: 1, tracks: vec![] }), Fed::Pending);
        assert!(matches!(a.feed(Part::Clients { rev: 2, tracks: vec![] }), Fed::Done(2, ref r, _) if r.is_ok()));
    }
}
