// Starts the playground's simulation worker: the page's own module, run a
// second time (src/sim_worker.rs). The page posts {glue, module}: the URL of
// its wasm-bindgen JS and its compiled WebAssembly.Module, so nothing new is
// downloaded and nothing is compiled twice. Once started, the module replaces
// this handler with its own and posts "ready"; a failure is posted as
// "failed:<reason>" (a rejected promise in a worker never reaches the page).
self.onmessage = async function (e) {
  self.onmessage = null;
  try {
    const glue = await import(e.data.glue);
    await glue.default({ module_or_path: e.data.module });
  } catch (err) {
    postMessage('failed:' + (err && err.message ? err.message : String(err)));
  }
};
