// Loaded by the page after quota-sim-worker.js, only when no Web Worker can run
// the simulation (src/sim_worker.rs, MainThread::load): hands the module's
// initialiser, a global `let` that is not a property of window, to the page.
window.quotaSimModule = wasm_bindgen;
