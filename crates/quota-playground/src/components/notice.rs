//! The message bar: a damaged link, a loaded lesson.

use yew::prelude::*;

use crate::ctx::use_scene;
use crate::state::{Action, NoticeLevel};

#[function_component(NoticeBar)]
pub(crate) fn notice_bar() -> Html {
    let ctx = use_scene();
    let Some(n) = ctx.state.notice.clone() else { return html! {} };
    let dismiss = {
        let d = ctx.state.dispatcher();
        move |_| d.dispatch(Action::DismissNotice)
    };
    let (class, role) = match n.level {
        NoticeLevel::Error => ("notice error", "alert"),
        NoticeLevel::Info => ("notice info", "status"),
    };
    html! {
        <div class={class} role={role} data-testid="notice">
            <p>{ n.text }</p>
            <button type="button" class="ghost" aria-label="Dismiss message" onclick={dismiss}>{ "×" }</button>
        </div>
    }
}
