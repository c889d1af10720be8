//! The simulation Web Worker: the engine's simulator (`quota_engine::sim`)
//! in a wasm module of its own, so the page's first download carries none
//! of it. Trunk builds it as a worker (`index.html`); the page starts it
//! when the Simulation or Cluster and time panel comes near the viewport
//! ([`quota_playground::sim_worker`]).
//!
//! Protocol ([`quota_playground::sim_worker::serve`], over
//! [`quota_playground::bridge::serve`]; the page's side is
//! `quota_playground::bridge::Link` with `sim_worker::Sim`): the worker
//! posts `ready` once its module has loaded, then answers each request (a
//! `SimRequest` as JSON: a run of a revision, or one seed of a spread) with
//! the run in parts, each an `ArrayBuffer` in the playground's wire form.
//!
//! Where no worker can run, the page loads this same module on its main
//! thread and calls `answer_parts` instead.
#![forbid(unsafe_code)]

/// The parts of the run `request` asks for
/// ([`quota_playground::sim_worker::answer`]), each a `Uint8Array`: what the
/// worker would post, for the page's main thread when no worker can run.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn answer_parts(request: &str) -> js_sys::Array {
    quota_playground::sim_worker::answer(request, js_sys::Date::now)
        .iter()
        .map(|m| js_sys::Uint8Array::from(&m[..]))
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    // On the page's main thread (the fallback) only `answer_parts` is used.
    if quota_playground::sim_worker::in_worker() {
        quota_playground::sim_worker::serve();
    }
}

/// Natively there is nothing to run: the worker exists for the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("quota-sim-worker is the playground's simulation Web Worker; Trunk builds it for wasm32 (see index.html). Use `kafka-quota simulate` natively.");
    std::process::exit(2);
}
