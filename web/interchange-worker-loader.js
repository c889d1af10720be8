// Starts the playground's import/export worker (Trunk builds
// quota-interchange-worker.js and its _bg.wasm next to this file). "loading"
// says the module's JS is in (the page then waits longer for its wasm); once
// started, the module posts "ready" (src/bridge.rs reads both). A module that
// fails to load is reported to the page as "failed:<reason>": a rejected
// promise inside a worker never reaches the page's onerror.
importScripts('./quota-interchange-worker.js');
postMessage('loading');
wasm_bindgen({ module_or_path: './quota-interchange-worker_bg.wasm' }).catch(function (e) {
  postMessage('failed:' + (e && e.message ? e.message : String(e)));
});
