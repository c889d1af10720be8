//! The keyboard help sheet (`?`).

use yew::prelude::*;

use crate::ctx::use_scene;
use crate::state::Action;

const KEYS: [(&str, &str); 10] = [
    ("Space or K", "Play or pause the simulation"),
    ("→ or L", "Step to the next event (throttle, mute, finish)"),
    ("← or J", "Step back to the previous event"),
    ("Shift + → / ←", "Move one second forward / back"),
    ("Home / End", "Go to the start / the end of the run"),
    ("↑ / ↓, Page Up / Down", "On the time slider: next / previous event, one second forward / back"),
    ("+ / −", "Faster / slower playback"),
    ("?", "Show or hide this help"),
    ("Esc", "Close this help"),
    ("Tab", "Move between controls; every control works from the keyboard"),
];

/// A modal dialog: focus moves to its Close button when it opens, stays
/// inside it (Tab and Shift+Tab cycle over its one control), and returns to
/// the element that had it (the `?` button, say) when it closes.
#[function_component(HelpSheet)]
pub(crate) fn help_sheet() -> Html {
    let ctx = use_scene();
    let close_ref = use_node_ref();
    let sheet_ref = use_node_ref();
    {
        let (close_ref, sheet_ref) = (close_ref.clone(), sheet_ref.clone());
        use_effect_with((), move |_| {
            let opener = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            // Focusing the Close button, last in a sheet taller than a
            // phone's screen, scrolled the sheet to it: show its title.
            if let Some(sheet) = sheet_ref.cast::<web_sys::Element>() {
                sheet.set_scroll_top(0);
            }
            move || {
                if let Some(o) = opener {
                    let _ = o.focus();
                }
            }
        });
    }
    let close = {
        let d = ctx.state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::SetHelp(false)))
    };
    let trap = {
        let close_ref = close_ref.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Tab" {
                e.prevent_default();
                if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                    let _ = b.focus();
                }
            }
        })
    };
    html! {
        <div class="backdrop" onclick={close.clone()}>
            <div class="sheet" ref={sheet_ref} role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help"
                 onclick={|e: MouseEvent| e.stop_propagation()} onkeydown={trap}>
                <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                <table class="keys">
                    <thead><tr><th scope="col">{ "Keys" }</th><th scope="col">{ "Action" }</th></tr></thead>
                    <tbody>
                        { for KEYS.iter().map(|(k, a)| html! { <tr><td><kbd>{ *k }</kbd></td><td>{ *a }</td></tr> }) }
                    </tbody>
                </table>
                <p class="sub">{ "Shortcuts work while the Simulation panel has focus (click it or Tab into it), the time slider included, except while typing in a field. Elsewhere the keys do what they always do." }</p>
                <button type="button" ref={close_ref} onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
