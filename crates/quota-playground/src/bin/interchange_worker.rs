//! The import/export Web Worker: every reader and writer of `quota-formats`
//! (kafka-configs.sh, --describe, Java, Strimzi YAML, Terraform HCL, rpk,
//! scenario JSON) in a wasm module of its own, so the page's first download
//! carries none of them. Trunk builds it as a worker (`index.html`); the
//! page starts it when the Import and export panel comes into view
//! (`worker::InterchangeClient::start_when_near`).
//!
//! Protocol (the page's side: `worker.rs`, over `bridge::Link`): the worker
//! posts `ready` once its module has loaded (messages sent before that
//! would be lost), then answers each message, a JSON
//! [`Request`](quota_playground::interchange::Request), with one JSON
//! [`Reply`](quota_playground::interchange::Reply) carrying the same id
//! ([`handle`](quota_playground::interchange::handle)). A panic is posted
//! as `failed:<why>` before the module traps ([`quota_playground::bridge::serve`]).
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    use quota_playground::interchange::handle;
    use wasm_bindgen::JsValue;

    quota_playground::bridge::serve(
        |info| {
            format!(
                "the import/export worker stopped on an internal error: {}",
                quota_playground::sim_worker::panic_message(info)
            )
        },
        |request| {
            let request = request.as_string().unwrap_or_default();
            vec![(JsValue::from_str(&handle(&request)), None)]
        },
    );
}

/// Natively there is nothing to run: the worker exists for the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("quota-interchange-worker is the playground's import/export Web Worker; Trunk builds it for wasm32 (see index.html). Use the kafka-quota CLI natively.");
    std::process::exit(2);
}
