// Starts the playground's simulation worker (Trunk builds quota-sim-worker.js
// and its _bg.wasm next to this file; src/bin/sim_worker.rs). The page adds
// ?v=<its build> to this script's address, passed on to the module's files so
// that a cached module of another build is never used. "loading" says the
// module's JS is in (the page then waits longer for its wasm); once started,
// the module posts "ready" and answers requests. A module that fails to load
// is reported as "failed:<reason>" (a rejected promise inside a worker never
// reaches the page's onerror).
importScripts('./quota-sim-worker.js' + self.location.search);
postMessage('loading');
wasm_bindgen({ module_or_path: './quota-sim-worker_bg.wasm' + self.location.search }).catch(function (e) {
  postMessage('failed:' + (e && e.message ? e.message : String(e)));
});
