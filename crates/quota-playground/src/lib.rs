//! The Kafka Quota Playground front end (Yew, compiled to WebAssembly).
//!
//! - [`state`]: the one saved value (the engine's `sim::Scenario`) plus the
//!   view state (cursor, playback, comparison), and a pure reducer.
//! - [`model`]: view models derived from `(scenario, cursor)` by asking the
//!   engine; no Kafka rule lives in this crate.
//! - [`presets`]: the default scenario and the lessons.
//! - [`interchange`]: the import box and the export menu over `quota-formats`,
//!   run in a Web Worker of their own ([`worker`]).
//! - [`platform`]: URL hash, local storage, clipboard, the parent page of an
//!   embed, the panic hook.
//! - `hooks` and `components`: effects and the panels; `sim_view`: the
//!   simulation they share, run in a Web Worker of its own by [`sim_worker`]
//!   once a panel that shows it comes near the viewport;
//!   `text_problems`: a `#text=` scenario that could not be read.
#![warn(missing_docs, unreachable_pub)]

mod app;
mod components;
mod ctx;
mod hooks;
pub mod bridge;
pub mod interchange;
pub mod model;
pub mod platform;
pub mod presets;
mod sim_view;
pub mod sim_worker;
pub mod state;
mod text_problems;
pub mod worker;
pub mod wire;

pub use app::App;
pub use ctx::Panel;

/// Starts the app in the page's `#app` element (or `<body>`), after
/// installing the panic hook.
pub fn run() {
    platform::install_panic_hook();
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => yew::Renderer::<App>::with_root(root).render(),
        None => yew::Renderer::<App>::new().render(),
    };
}
