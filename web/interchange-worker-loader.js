// Starts the playground's import/export worker (Trunk builds
// quota-interchange-worker.js and its _bg.wasm next to this file). A module
// that fails to load is reported to the page as "failed:<reason>": a
// rejected promise inside a worker never reaches the page's onerror.
importScripts('./quota-interchange-worker.js');
wasm_bindgen({ module_or_path: './quota-interchange-worker_bg.wasm' }).catch(function (e) {
  postMessage('failed:' + (e && e.message ? e.message : String(e)));
});
