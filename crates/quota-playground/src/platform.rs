//! The browser around the app: URL, local storage, media queries, clipboard,
//! the parent page of an embed, the panic hook. Only hooks and event
//! handlers call these; every function tolerates a missing API (it does
//! nothing or returns a neutral value) so no browser quirk becomes a panic.

use quota_engine::sim::Scenario;
use quota_formats::permalink;
use wasm_bindgen::JsValue;

use crate::presets;
use crate::state::{Notice, NoticeLevel, Origin};

/// The local-storage key of the autosave (a permalink text).
pub const AUTOSAVE_KEY: &str = "kafka-quota-playground.scenario";

fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window();
    // Natively (the prerender binary, the unit tests) there is no page:
    // every reader of the URL, the storage and the clipboard sees none.
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The URL fragment without `#` (empty when none).
pub fn location_hash() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// True while the page is hidden (`document.hidden`: another tab, an app
/// switch, a minimised window).
pub fn page_hidden() -> bool {
    window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
}

/// The value of query parameter `name`: `Some("")` for a bare `?embed`.
pub fn query_param(name: &str) -> Option<String> {
    let search = window()?.location().search().ok()?;
    search.trim_start_matches('?').split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == name).then(|| js_sys::decode_uri_component(v).ok().and_then(|s| s.as_string()).unwrap_or_default())
    })
}

/// `origin + pathname` of the page, the base of share links.
pub fn page_base() -> String {
    window()
        .map(|w| {
            let l = w.location();
            format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// Replaces the URL fragment without adding a history entry.
pub fn replace_hash(hash: &str) {
    let Some(w) = window() else { return };
    let l = w.location();
    let url = format!("{}{}#{}", l.pathname().unwrap_or_default(), l.search().unwrap_or_default(), hash);
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// This tab's `sessionStorage`.
fn session() -> Option<web_sys::Storage> {
    window()?.session_storage().ok().flatten()
}

/// The `sessionStorage` key of [`hand_over_on_reload`].
pub const RELOAD_KEY: &str = "kafka-quota-playground.reload";

/// Notes, for this tab only (`sessionStorage`), that a page opening at
/// hash `from` is to open `link` instead. The address bar is written in the
/// task after an edit, and a reload started before that task takes the
/// address bar as it was: `from` is the hash before the last write (or
/// the current one, with a write still pending). Written on `pagehide`.
pub fn hand_over_on_reload(from: &str, link: &str) {
    if let Some(s) = session() {
        let _ = s.set_item(RELOAD_KEY, &format!("{from}\n{link}"));
    }
}

/// The hash the page opens with: the address bar's, or the link a reload
/// of this tab started too early to carry ([`hand_over_on_reload`]; then
/// written into the address bar). The note is read once.
fn opening_hash() -> String {
    let hash = location_hash();
    let Some(s) = session() else { return hash };
    let Some(note) = s.get_item(RELOAD_KEY).ok().flatten() else { return hash };
    let _ = s.remove_item(RELOAD_KEY);
    match handed_over(&hash, &note) {
        Some(link) => {
            replace_hash(link);
            link.to_owned()
        }
        None => hash,
    }
}

/// Removes the note of [`hand_over_on_reload`]: the page reloads to open
/// the address bar's hash, whatever an earlier `pagehide` noted.
pub fn forget_reload_note() {
    if let Some(s) = session() {
        let _ = s.remove_item(RELOAD_KEY);
    }
}

/// The link a [`hand_over_on_reload`] note (`from`, a newline, `to`) hands
/// to a page opened at `hash`: `to` when `hash` is `from`.
pub fn handed_over<'a>(hash: &str, note: &'a str) -> Option<&'a str> {
    note.split_once('\n').filter(|(from, _)| *from == hash).map(|(_, to)| to)
}

/// Saves the scenario's permalink text locally.
pub fn autosave(link: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(AUTOSAVE_KEY, link);
    }
}

/// True when the user asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The viewport's width in CSS pixels (a wide default without a window).
pub fn viewport_width() -> f64 {
    window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1280.0)
}

/// Milliseconds since navigation start (`performance.now()`).
pub fn now_ms() -> f64 {
    window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Copies text to the clipboard (best effort).
pub fn copy_text(text: &str) {
    if let Some(w) = window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// Copies `text` to the clipboard with `navigator.clipboard.writeText`;
/// when the API is missing or refuses (an insecure page, a denied
/// permission), selects the text of the element `select_id` (a textarea or
/// input) and tries `document.execCommand("copy")`. `done(true)` once the
/// text is on the clipboard, `done(false)` when it is only selected (the
/// user can press Ctrl+C).
pub fn copy_with_fallback(text: &str, select_id: &str, done: impl FnOnce(bool) + 'static) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let select_id = select_id.to_owned();
    let fallback = move || -> bool {
        let Some(doc) = window().and_then(|w| w.document()) else { return false };
        let Some(el) = doc.get_element_by_id(&select_id) else { return false };
        if let Some(t) = el.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            let _ = t.focus();
            t.select();
        } else if let Some(i) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            let _ = i.focus();
            i.select();
        }
        js_sys::Reflect::get(&doc, &JsValue::from_str("execCommand"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call1(&doc, &JsValue::from_str("copy")).ok())
            .and_then(|r| r.as_bool())
            .unwrap_or(false)
    };
    let clipboard = window()
        .map(|w| w.navigator())
        .and_then(|n| js_sys::Reflect::get(&n, &JsValue::from_str("clipboard")).ok())
        .filter(|c| !c.is_undefined() && !c.is_null());
    let write = clipboard.as_ref().and_then(|c| {
        let f = js_sys::Reflect::get(c, &JsValue::from_str("writeText")).ok()?.dyn_into::<js_sys::Function>().ok()?;
        f.call1(c, &JsValue::from_str(text)).ok()?.dyn_into::<js_sys::Promise>().ok()
    });
    let Some(promise) = write else {
        done(fallback());
        return;
    };
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let fallback = std::rc::Rc::new(std::cell::RefCell::new(Some(fallback)));
    let ok = {
        let done = done.clone();
        Closure::once_into_js(move |_: JsValue| {
            if let Some(d) = done.borrow_mut().take() {
                d(true);
            }
        })
    };
    let err = Closure::once_into_js(move |_: JsValue| {
        let copied = fallback.borrow_mut().take().is_some_and(|f| f());
        if let Some(d) = done.borrow_mut().take() {
            d(copied);
        }
    });
    let _ = js_sys::Reflect::get(&promise, &JsValue::from_str("then"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .map(|then| then.call2(&promise, &ok, &err));
}

thread_local! {
    static EMBED_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static EMBED_RUN_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the page as still reading its scenario (a `#text=` link the
/// worker has not answered yet): its height messages say `pending: true`
/// meanwhile, and the `<kafka-quota-playground>` element keeps showing its
/// text instead of the frame.
pub fn set_embed_pending(pending: bool) {
    EMBED_PENDING.with(|p| p.set(pending));
}

/// Marks an embed that shows the run as waiting for its first run (from
/// the simulation worker): its height messages say `pending: true`
/// meanwhile, so the parent page does not size the frame to the panel
/// without its run.
pub fn set_embed_run_pending(pending: bool) {
    EMBED_RUN_PENDING.with(|p| p.set(pending));
}

/// Whether the scenario is being read ([`set_embed_pending`]) or the first
/// run awaited ([`set_embed_run_pending`]).
pub fn embed_pending() -> bool {
    EMBED_PENDING.with(|p| p.get()) || EMBED_RUN_PENDING.with(|p| p.get())
}

/// Tells the parent page of an iframe how tall the content is:
/// `{type: "kafka-quota-playground:height", height}` (CSS pixels), with
/// `pending: true` while the scenario is being read ([`set_embed_pending`]).
pub fn post_height(height: f64) {
    let Some(w) = window() else { return };
    let Ok(Some(parent)) = w.parent() else { return };
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"kafka-quota-playground:height".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
    if embed_pending() {
        let _ = js_sys::Reflect::set(&msg, &"pending".into(), &true.into());
    }
    let _ = parent.post_message(&msg, "*");
}

/// The height of the page's content (px): the bottom of `#app`'s content
/// plus the body's margins, not `documentElement.scrollHeight`, which is
/// never less than the iframe's own height and so could never shrink.
pub fn content_height() -> f64 {
    let Some(doc) = window().and_then(|w| w.document()) else { return 0.0 };
    let app = doc.get_element_by_id("app").map_or(0.0, |a| a.get_bounding_client_rect().height().max(f64::from(a.scroll_height())));
    let body_margins = doc.body().and_then(|b| window()?.get_computed_style(&b).ok().flatten()).map_or(0.0, |st| {
        let px = |p: &str| st.get_property_value(p).ok().and_then(|v| v.trim_end_matches("px").parse::<f64>().ok()).unwrap_or(0.0);
        px("margin-top") + px("margin-bottom") + px("padding-top") + px("padding-bottom")
    });
    (app + body_margins).ceil()
}

/// Calls `on_change` whenever the size of `#app` changes (a `<details>`
/// opening, a narrower iframe, fonts loading), through a `ResizeObserver`.
/// Returns the observer, to disconnect when done; `None` where the browser
/// has none.
pub fn observe_app_size(on_change: impl Fn() + 'static) -> Option<web_sys::ResizeObserver> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let app = window()?.document()?.get_element_by_id("app")?;
    let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| on_change());
    let observer = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
    cb.forget();
    observer.observe(&app);
    Some(observer)
}

/// Sets a `data-*` attribute on `<body>` (read by the benchmarks).
pub fn mark_body(name: &str, value: &str) {
    if let Some(b) = window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = b.set_attribute(name, value);
    }
}

/// Removes the static "loading" message of index.html.
pub fn remove_boot_message() {
    // The loading line, and the prerendered first screen if the page
    // showed it (`src/bin/prerender.rs`): the app's own is in place now.
    for id in ["boot", "prerender"] {
        if let Some(e) = window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) {
            e.remove();
        }
    }
}

/// The scenario to start with: the URL hash if there is one (a damaged one,
/// or one past the page's limits (`model::scenario_limit`), gives the
/// default and a notice saying why), else the autosave, else the
/// default. An embed never reads the autosave: a documentation page shows
/// every reader the same scenario, and none of the reader's own.
pub fn initial_scenario(embedded: bool) -> (Scenario, Origin, Option<Notice>) {
    let autosaved = if embedded { None } else { storage().and_then(|s| s.get_item(AUTOSAVE_KEY).ok().flatten()) };
    resolve_initial(&opening_hash(), autosaved)
}

/// The start of a URL hash that carries a scenario written as text
/// (docs/scenario-text.md): `#text=` then the text as
/// `encodeURIComponent` writes it. What the `<kafka-quota-playground>`
/// element and the ```` ```kafka-quota ```` fences send (web/kafka-quota-embed.js).
pub const TEXT_HASH_PREFIX: &str = "text=";

/// Decodes what `encodeURIComponent` wrote: `%XX` escapes of UTF-8 bytes,
/// every other character as is. The error names the first bad escape.
pub fn decode_uri_component(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3).filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
            let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) else {
                let shown: String = s[i..].chars().take(3).collect();
                return Err(format!("'{shown}' at character {} is not a %XX escape", s[..i].chars().count() + 1));
            };
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|e| format!("its escapes are not UTF-8 (byte {})", e.utf8_error().valid_up_to() + 1))
}

/// The text of a `#text=` hash (without the `#`), decoded; the error says
/// why it could not be. `None` when the hash is no `text=` hash.
pub fn text_of_hash(hash: &str) -> Option<Result<String, String>> {
    Some(decode_uri_component(hash.strip_prefix(TEXT_HASH_PREFIX)?))
}

/// Whether a URL hash (without `#`) carries a scenario: not empty and not
/// in-page navigation such as `#/quotas` (the panel links of the header).
pub fn is_scenario_hash(hash: &str) -> bool {
    !hash.trim().is_empty() && !hash.starts_with('/')
}

/// The scenario of a permalink hash (`v1.…`, without `#`): decoded by
/// `quota_formats::permalink::decode` and held to the page's limits
/// (`model::scenario_limit`). The error is the sentence to show: why the
/// link is damaged, or which limit it passes and by how much.
pub fn read_link(hash: &str) -> Result<Scenario, String> {
    let s = permalink::decode(hash).map_err(|e| e.to_string())?;
    match crate::model::scenario_limit(&s, "This link's scenario") {
        None => Ok(s),
        Some(why) => Err(why),
    }
}

/// What the page does when the address bar's hash changes while it is open
/// (a link pasted into the address bar, Back or Forward). The page writes
/// its own link with `History.replaceState`, which fires no `hashchange`,
/// and never over an entry the user moved to (`hooks::use_url_sync`).
#[derive(Debug, PartialEq)]
pub enum HashChange {
    /// Nothing to open: no hash, in-page navigation (`#/quotas`), or the
    /// scenario already on the page.
    Ignore,
    /// Open this scenario (origin [`Origin::Link`]).
    Open(Box<Scenario>),
    /// The link cannot be opened; the scenario on the page stays (and its
    /// link goes back into the address bar). The text says why.
    Refused(String),
    /// A `#text=` link: its text is read by the import/export worker when
    /// a page opens, so the page reloads to open it.
    Reload,
}

/// [`HashChange`] for the new hash `hash` (without `#`) of a page showing
/// the scenario whose permalink is `current`.
pub fn on_hash_change(hash: &str, current: &str) -> HashChange {
    if !is_scenario_hash(hash) || hash == current {
        return HashChange::Ignore;
    }
    if hash.starts_with(TEXT_HASH_PREFIX) {
        return HashChange::Reload;
    }
    match read_link(hash) {
        Ok(s) => HashChange::Open(Box::new(s)),
        Err(why) => HashChange::Refused(format!("The link in the address bar was not opened. {why} The scenario on the page is unchanged; the address bar shows its link again.")),
    }
}

/// Scrolls the page to its top, where the notice bar is.
pub fn scroll_to_top() {
    if let Some(w) = window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// Reloads the page (`Location.reload`); nothing when there is no window.
pub fn reload() {
    if let Some(w) = window() {
        let _ = w.location().reload();
    }
}

/// [`initial_scenario`] without the browser: testable natively.
pub fn resolve_initial(hash: &str, autosaved: Option<String>) -> (Scenario, Origin, Option<Notice>) {
    // A scenario as text is read by the import/export worker, which holds
    // the reader (`text_problems::use_text_scenario`): the default until then.
    if hash.starts_with(TEXT_HASH_PREFIX) {
        return (presets::default_scenario(), Origin::Default, None);
    }
    // `#/quotas` and the like are in-page navigation, not a scenario.
    if is_scenario_hash(hash) {
        return match read_link(hash) {
            Ok(s) => (s, Origin::Link, None),
            Err(why) => (
                presets::default_scenario(),
                Origin::Default,
                Some(Notice { level: NoticeLevel::Error, text: format!("{why} Showing the default scenario.") }),
            ),
        };
    }
    match autosaved.filter(|a| !a.trim().is_empty()).map(|a| permalink::decode(&a)) {
        // An autosave past the limits (an older build took more) is not
        // restored, silently: the default is shown and the next edit
        // overwrites it.
        Some(Ok(s)) if crate::model::scenario_limit(&s, "").is_none() => (s, Origin::Autosave, None),
        Some(Ok(_)) => (presets::default_scenario(), Origin::Default, None),
        // A damaged autosave (another build wrote it, or storage was edited)
        // is said, not silently replaced: the next edit overwrites it.
        Some(Err(e)) => (
            presets::default_scenario(),
            Origin::Default,
            Some(Notice {
                level: NoticeLevel::Error,
                text: format!(
                    "The scenario saved in this browser could not be restored (read as a link: {e}) Showing the default scenario."
                ),
            }),
        ),
        None => (presets::default_scenario(), Origin::Default, None),
    }
}

/// Installs the panic hook: the message goes into the page's `#panic`
/// element (and the console), so a panic is never a silent blank page. With
/// `panic = "abort"` the app stops right after. Installed through Yew, which
/// would otherwise replace it with its own console-only hook on render.
pub fn install_panic_hook() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let text = format!(
            "The playground stopped because of an internal error: {}. Reload the page; if the link you opened \
             caused it, remove the part after '#'.",
            crate::sim_worker::panic_message(info)
        );
        web_sys::console::error_1(&text.clone().into());
        let Some(doc) = window().and_then(|w| w.document()) else { return };
        // A panic before the first render leaves no app to replace the
        // prerendered copy: it goes, so nothing looks usable that is not.
        for id in ["prerender", "boot"] {
            if let Some(e) = doc.get_element_by_id(id) {
                e.remove();
            }
        }
        if let Some(e) = doc.get_element_by_id("panic") {
            e.set_text_content(Some(&text));
            let _ = e.remove_attribute("hidden");
        }
    }));
}

/// The words of a thrown JS value (a string, or an `Error`'s message), if
/// it has any.
pub fn js_error_text(e: &JsValue) -> Option<String> {
    use wasm_bindgen::JsCast;
    e.as_string().or_else(|| e.dyn_ref::<js_sys::Error>().and_then(|e| e.message().as_string()))
}

/// Calls `near` once, when the first of the elements `ids` comes within
/// `margin` (a CSS margin, e.g. `"600px 0px"`) of the viewport
/// (IntersectionObserver); at once where the browser has no
/// IntersectionObserver; never when none of the elements exists. Returns
/// the observer, to disconnect on unmount.
pub fn when_near(ids: &[&str], margin: &str, near: impl FnOnce() + 'static) -> Option<web_sys::IntersectionObserver> {
    use wasm_bindgen::{closure::Closure, JsCast};
    let document = web_sys::window()?.document()?;
    let elements: Vec<web_sys::Element> = ids.iter().filter_map(|id| document.get_element_by_id(id)).collect();
    if elements.is_empty() {
        return None;
    }
    let near = std::rc::Rc::new(std::cell::Cell::new(Some(near)));
    let once = near.clone();
    let cb = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let close = entries.iter().any(|e| e.unchecked_into::<web_sys::IntersectionObserverEntry>().is_intersecting());
            if close {
                observer.disconnect();
                if let Some(f) = once.take() {
                    f();
                }
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(margin);
    match web_sys::IntersectionObserver::new_with_options(cb.as_ref().unchecked_ref(), &options) {
        Ok(o) => {
            cb.forget();
            for el in &elements {
                o.observe(el);
            }
            Some(o)
        }
        Err(_) => {
            // No IntersectionObserver: now.
            if let Some(f) = near.take() {
                f();
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_note_hands_its_link_only_to_the_page_it_was_written_at() {
        let note = "v1.old\nv1.new";
        assert_eq!(handed_over("v1.old", note), Some("v1.new"));
        assert_eq!(handed_over("v1.other", note), None);
        assert_eq!(handed_over("", "\nv1.new"), Some("v1.new"));
        assert_eq!(handed_over("v1.old", "no newline"), None);
    }

    #[test]
    fn a_link_past_the_page_limits_is_refused_with_the_numbers() {
        let mut big = presets::default_scenario();
        big.workloads = vec![big.workloads[0].clone(); crate::model::MAX_WORKLOADS + 1];
        let link = permalink::encode(&big);
        let (s, origin, notice) = resolve_initial(&link, None);
        assert_eq!(s, presets::default_scenario());
        assert_eq!(origin, Origin::Default);
        let text = notice.unwrap().text;
        assert!(text.starts_with("This link's scenario has 1,001 producers and consumers; the playground takes at most 1,000"), "{text}");
        assert!(text.contains("kafka-quota simulate") && text.ends_with("Showing the default scenario."), "{text}");
        // The same scenario as the autosave is not restored (and not said).
        assert_eq!(resolve_initial("", Some(link)), (presets::default_scenario(), Origin::Default, None));
    }

    #[test]
    fn a_hash_typed_into_the_open_page_opens_its_scenario_or_says_why_not() {
        let lesson = presets::lesson(3).unwrap().scenario();
        let link = permalink::encode(&lesson);
        let current = permalink::encode(&presets::default_scenario());
        assert_eq!(on_hash_change(&link, &current), HashChange::Open(Box::new(lesson)));
        // The scenario already shown, in-page navigation and no hash: nothing.
        for same in [current.as_str(), "/quotas", "", "  "] {
            assert_eq!(on_hash_change(same, &current), HashChange::Ignore, "{same:?}");
        }
        assert_eq!(on_hash_change("text=producer%20x", &current), HashChange::Reload);
        let HashChange::Refused(why) = on_hash_change("v1.garbage!!", &current) else { panic!() };
        assert_eq!(
            why,
            "The link in the address bar was not opened. The link's scenario is damaged: its text is not valid base64url \
             (at character 8 after 'v1.', '!'). The scenario on the page is unchanged; the address bar shows its link again."
        );
        // Past the page's limits: refused with the numbers, as at load.
        let mut big = presets::default_scenario();
        let c = big.connections[0].clone();
        big.connections = vec![c; crate::model::MAX_CONNECTIONS + 1];
        let HashChange::Refused(why) = on_hash_change(&permalink::encode(&big), &current) else { panic!() };
        assert!(why.contains(&format!("has {} connections; the playground takes at most {}", crate::model::grouped(crate::model::MAX_CONNECTIONS as u64 + 1), crate::model::grouped(crate::model::MAX_CONNECTIONS as u64))), "{why}");
    }

    #[test]
    fn a_damaged_hash_gives_the_default_and_says_why() {
        let (s, origin, notice) = resolve_initial("v1.garbage!!", None);
        assert_eq!(s, presets::default_scenario());
        assert_eq!(origin, Origin::Default);
        let n = notice.unwrap();
        assert_eq!(n.level, NoticeLevel::Error);
        assert_eq!(
            n.text,
            "The link's scenario is damaged: its text is not valid base64url (at character 8 after 'v1.', '!'). \
             Showing the default scenario."
        );
    }

    #[test]
    fn the_hash_wins_over_the_autosave_and_the_autosave_over_the_default() {
        let lesson = presets::lesson(3).unwrap().scenario();
        let link = permalink::encode(&lesson);
        let other = permalink::encode(&presets::lesson(4).unwrap().scenario());
        assert_eq!(resolve_initial(&link, Some(other.clone())).0, lesson);
        let (s, origin, _) = resolve_initial("", Some(other));
        assert_eq!((s, origin), (presets::lesson(4).unwrap().scenario(), Origin::Autosave));
        let (s, origin, notice) = resolve_initial("", Some("junk".into()));
        assert_eq!((s, origin), (presets::default_scenario(), Origin::Default));
        let n = notice.unwrap();
        assert_eq!(n.level, NoticeLevel::Error);
        assert!(n.text.starts_with("The scenario saved in this browser could not be restored (read as a link: The link "), "{}", n.text);
        assert!(n.text.ends_with("Showing the default scenario."), "{}", n.text);
        assert_eq!(resolve_initial("", Some(String::new())).2, None);
        assert_eq!(resolve_initial("/quotas", None).2, None);
    }

    /// `encodeURIComponent` as the embed script calls it (test helper).
    fn encode(text: &str) -> String {
        let mut out = String::new();
        for b in text.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    const TEXT: &str = "# tenant-a, caf\u{e9}\nkafka-configs.sh --alter --add-config 'producer_byte_rate=2097152' --entity-type users --entity-name tenant-a\nconnection: listener=SASL_SSL user=tenant-a client.id=app-1\n";

    #[test]
    fn a_text_hash_is_decoded_and_left_to_the_worker() {
        assert_eq!(text_of_hash(&format!("text={}", encode(TEXT))), Some(Ok(TEXT.to_owned())));
        assert_eq!(text_of_hash("v1.abc"), None);
        let lesson = permalink::encode(&presets::lesson(4).unwrap().scenario());
        // Not the autosave, not an error: the default until the worker answers.
        let (s, origin, notice) = resolve_initial(&format!("text={}", encode(TEXT)), Some(lesson));
        assert_eq!((s, origin, notice), (presets::default_scenario(), Origin::Default, None));
    }

    #[test]
    fn a_damaged_text_escape_is_named() {
        assert_eq!(decode_uri_component("a%2"), Err("'%2' at character 2 is not a %XX escape".into()));
        assert_eq!(decode_uri_component("%FF"), Err("its escapes are not UTF-8 (byte 1)".into()));
        assert_eq!(text_of_hash("text=ok%zz"), Some(Err("'%zz' at character 3 is not a %XX escape".into())));
    }
}
