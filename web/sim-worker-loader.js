// Starts the playground's simulation worker (Trunk builds quota-sim-worker.js
// and its _bg.wasm next to this file; src/bin/sim_worker.rs). Once loaded, the
// module posts "ready" and answers requests; a module that fails to load is
// reported to the page as "failed:<reason>" (a rejected promise inside a
// worker never reaches the page's onerror).
importScripts('./quota-sim-worker.js');
wasm_bindgen({ module_or_path: './quota-sim-worker_bg.wasm' }).catch(function (e) {
  postMessage('failed:' + (e && e.message ? e.message : String(e)));
});
