//! The import/export Web Worker: every reader and writer of `quota-formats`
//! (kafka-configs.sh, --describe, Java, Strimzi YAML, Terraform HCL, rpk,
//! scenario JSON) in a wasm module of its own, so the page's first download
//! carries none of them. Trunk builds it as a worker (`index.html`); the
//! page starts it when the Import and export panel comes into view
//! (`platform::worker`).
//!
//! Protocol: the worker posts the string `ready` once its module has
//! loaded (messages sent before that would be lost), then answers each
//! message, a JSON [`Request`](quota_playground::interchange::Request), with
//! one JSON [`Reply`](quota_playground::interchange::Reply) carrying the
//! same id ([`handle`](quota_playground::interchange::handle)). A panic is
//! posted as a `BadRequest` answer with id 0 before the module traps.
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    use quota_playground::interchange::handle;
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let hook_scope = scope.clone();
    std::panic::set_hook(Box::new(move |info| {
        let reply = quota_playground::interchange::Reply {
            id: 0,
            answer: quota_playground::interchange::Answer::BadRequest(format!(
                "The import/export worker stopped on an internal error: {}. Reload the page to start it again.",
                quota_playground::sim_worker::panic_message(info)
            )),
        };
        if let Ok(text) = serde_json::to_string(&reply) {
            let _ = hook_scope.post_message(&JsValue::from_str(&text));
        }
    }));
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let request = e.data().as_string().unwrap_or_default();
        let _ = reply_scope.post_message(&JsValue::from_str(&handle(&request)));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}

/// Natively there is nothing to run: the worker exists for the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("quota-interchange-worker is the playground's import/export Web Worker; Trunk builds it for wasm32 (see index.html). Use the kafka-quota CLI natively.");
    std::process::exit(2);
}
