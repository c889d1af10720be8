//! The keyboard help sheet (`?`).

use yew::prelude::*;

use crate::app::use_scene;
use crate::state::Action;

const KEYS: [(&str, &str); 9] = [
    ("Space or K", "Play or pause the simulation"),
    ("→ or L", "Step to the next event (throttle, mute, finish)"),
    ("← or J", "Step back to the previous event"),
    ("Shift + → / ←", "Move one second forward / back"),
    ("Home / End", "Go to the start / the end of the run"),
    ("+ / −", "Faster / slower playback"),
    ("?", "Show or hide this help"),
    ("Esc", "Close this help"),
    ("Tab", "Move between controls; every control works from the keyboard"),
];

#[function_component(HelpSheet)]
pub(crate) fn help_sheet() -> Html {
    let ctx = use_scene();
    let close_ref = use_node_ref();
    {
        let close_ref = close_ref.clone();
        use_effect_with((), move |_| {
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    let close = {
        let d = ctx.state.dispatcher();
        Callback::from(move |_| d.dispatch(Action::SetHelp(false)))
    };
    html! {
        <div class="backdrop" onclick={close.clone()}>
            <div class="sheet" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help"
                 onclick={|e: MouseEvent| e.stop_propagation()}>
                <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                <table class="keys">
                    <thead><tr><th scope="col">{ "Keys" }</th><th scope="col">{ "Action" }</th></tr></thead>
                    <tbody>
                        { for KEYS.iter().map(|(k, a)| html! { <tr><td><kbd>{ *k }</kbd></td><td>{ *a }</td></tr> }) }
                    </tbody>
                </table>
                <p class="sub">{ "Shortcuts work anywhere except while typing in a field." }</p>
                <button type="button" ref={close_ref} onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
