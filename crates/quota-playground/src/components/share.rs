//! Share and embed: the permalink (optionally with names redacted), an
//! iframe snippet for one panel, the same as a `<kafka-quota-playground>`
//! element, and where to see it in use. The link and both snippets are
//! read-only (selected whole on focus), so copying one cannot alter it.

use std::rc::Rc;

use quota_formats::permalink;
use yew::prelude::*;

use super::{event_checked, event_value, PanelBox};
use crate::ctx::{use_scene, Panel};
use crate::platform;
use crate::state::Action;

#[function_component(SharePanel)]
pub(crate) fn share_panel() -> Html {
    let ctx = use_scene();
    let panel = use_state(|| Panel::Simulation);
    let copied = use_state(|| None::<&'static str>);
    // The page's own link (made once per revision by the root), or the
    // redacted one.
    let code: Rc<str> = {
        let scenario = ctx.state.scenario.clone();
        let link = ctx.link.clone();
        (*use_memo((ctx.state.revision, ctx.state.redact_links), move |(_, redact)| {
            if *redact {
                Rc::from(permalink::encode(&permalink::redact(&scenario)))
            } else {
                link
            }
        }))
        .clone()
    };
    let base = platform::page_base();
    let link = format!("{base}#{code}");
    let embed_url = format!("{base}?embed={}#{code}", panel.slug());
    let snippet = format!(
        "<iframe src=\"{embed_url}\" title=\"Kafka quota playground: {}\" width=\"100%\" height=\"520\" style=\"border:0\" loading=\"lazy\" allow=\"clipboard-write\"></iframe>",
        panel.title()
    );
    let dir = base.rsplit_once('/').map_or(base.as_str(), |(d, _)| d);
    let element = element_snippet(dir, panel.slug(), &code, &link);
    let copy = |what: &'static str, text: String| {
        let copied = copied.clone();
        move |_| {
            platform::copy_text(&text);
            copied.set(Some(what));
        }
    };
    let d = ctx.state.dispatcher();
    let select_all = Callback::from(|e: FocusEvent| select_field(&e));
    html! {
        <PanelBox id="share" title="Share and embed"
            subtitle="The whole scenario lives in the link (compressed, after '#'); nothing is sent to a server. Your last scenario is also kept in this browser.">
            <label class="check">
                <input type="checkbox" checked={ctx.state.redact_links} data-testid="redact"
                    onchange={move |e: Event| d.dispatch(Action::SetRedact(event_checked(&e)))} />
                { " Redact names in links (users, client ids, DNs, IPs become user-1, client-1, …; every answer stays the same)" }
            </label>
            <div class="field">
                <label for="share-link">{ format!("Link ({} characters)", link.len()) }</label>
                <div class="copy-row">
                    <input id="share-link" type="text" readonly={true} value={link.clone()} data-testid="share-link" onfocus={select_all.clone()} />
                    <button type="button" onclick={copy("link", link.clone())}>{ "Copy link" }</button>
                </div>
            </div>
            <div class="grid">
                <div class="field">
                    <label for="embed-panel">{ "Panel to embed" }</label>
                    <select id="embed-panel" onchange={let panel = panel.clone(); move |e: Event| {
                        let v = event_value(&e);
                        panel.set(Panel::ALL.into_iter().find(|p| p.slug() == v).unwrap_or(Panel::Simulation));
                    }}>
                        { for Panel::ALL.iter().map(|p| html! { <option value={p.slug()} ~selected={*p == *panel}>{ p.title() }</option> }) }
                    </select>
                </div>
            </div>
            <div class="field">
                <label for="embed-snippet">{ "iframe snippet" }</label>
                <textarea id="embed-snippet" readonly={true} rows="3" value={snippet.clone()} data-testid="embed-snippet" onfocus={select_all.clone()} />
                <p class="msg hint">{ "The embedded page posts {type: \"kafka-quota-playground:height\", height} to its parent after each change; see embed-example.html for a listener that resizes the iframe." }</p>
                <div class="copy-row">
                    <button type="button" onclick={copy("snippet", snippet)}>{ "Copy snippet" }</button>
                    <a href="embed-example.html">{ "Embed example" }</a>
                </div>
            </div>
            <div class="field">
                <label for="element-snippet">{ "For documentation: the element (read-only, sizes itself; without JavaScript the page shows its link)" }</label>
                <textarea id="element-snippet" readonly={true} rows="5" value={element.clone()} data-testid="element-snippet" onfocus={select_all} />
                <div class="copy-row">
                    <button type="button" onclick={copy("element snippet", element)}>{ "Copy element" }</button>
                </div>
            </div>
            <p class="msg ok" aria-live="polite">{ copied.map(|w| format!("The {w} is on the clipboard.")).unwrap_or_default() }</p>
        </PanelBox>
    }
}

/// The `<kafka-quota-playground>` element of `panel` for the scenario
/// `code` (a `v1.` permalink), with the script at `dir`: the script sizes
/// the frame itself (docs/embedding.md). Inside the element, a link to the
/// full page with the same scenario (`link`): what a reader without
/// JavaScript sees, and what the script hides once the widget shows.
pub(crate) fn element_snippet(dir: &str, panel: &str, code: &str, link: &str) -> String {
    format!(
        "<script src=\"{}/kafka-quota-embed.js\" defer></script>\n<kafka-quota-playground panel=\"{panel}\" link=\"{}\">\n  <a href=\"{}\">Open this scenario in the Kafka Quota Playground</a>\n</kafka-quota-playground>",
        attr(dir),
        attr(code),
        attr(link)
    )
}

/// `s` as the value of a double-quoted HTML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// Selects the whole text of the focused field (an `<input>` or a `<textarea>`).
fn select_field(e: &FocusEvent) {
    use wasm_bindgen::JsCast;
    let Some(target) = e.target() else { return };
    if let Some(t) = target.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        t.select();
    } else if let Some(i) = target.dyn_ref::<web_sys::HtmlInputElement>() {
        i.select();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_element_snippet_carries_a_link_for_readers_without_javascript() {
        let s = element_snippet("https://q.example/tools", "answer", "v1.abc", "https://q.example/tools/index.html#v1.abc");
        assert_eq!(
            s,
            "<script src=\"https://q.example/tools/kafka-quota-embed.js\" defer></script>\n\
             <kafka-quota-playground panel=\"answer\" link=\"v1.abc\">\n  \
             <a href=\"https://q.example/tools/index.html#v1.abc\">Open this scenario in the Kafka Quota Playground</a>\n\
             </kafka-quota-playground>"
        );
        // An address with characters that would end the attribute stays inside it.
        assert!(element_snippet("https://q.example/a&b", "answer", "v1.x", "https://q.example/a\"b#v1.x").contains("href=\"https://q.example/a&quot;b#v1.x\""));
    }
}
