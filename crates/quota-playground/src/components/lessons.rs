//! The lessons: one guided preset per finding of the lab article.

use yew::prelude::*;

use super::PanelBox;
use crate::ctx::use_scene;
use crate::presets::{self, LESSONS};
use crate::state::{Action, Notice, NoticeLevel, Origin};

#[function_component(LessonsPanel)]
pub(crate) fn lessons_panel() -> Html {
    let ctx = use_scene();
    let active = match ctx.state.origin {
        Origin::Lesson(id) => presets::lesson(id),
        _ => None,
    };
    let d = ctx.state.dispatcher();
    html! {
        <PanelBox id="lessons" title="Lessons" subtitle="Guided presets, one per finding of a lab run on Kafka 4.3.1. Load one, then play it.">
            <ul class="lessons">
                { for LESSONS.iter().map(|l| {
                    let d = d.clone();
                    let id = l.id;
                    let onclick = move |_| d.dispatch(Action::Load {
                        scenario: Box::new(presets::lesson(id).map(|l| l.scenario()).unwrap_or_else(presets::default_scenario)),
                        origin: Origin::Lesson(id),
                        notice: None,
                    });
                    let current = active.is_some_and(|a| a.id == id);
                    html! {
                        <li>
                            <button type="button" class={classes!("lesson", current.then_some("current"))}
                                aria-pressed={current.to_string()} data-testid={format!("lesson-{id}")} {onclick}>
                                <span class="num">{ id }</span>
                                <span class="t">{ l.title }</span>
                            </button>
                        </li>
                    }
                }) }
                <li>
                    <button type="button" class="lesson ghost" onclick={move |_| d.dispatch(Action::Load {
                        scenario: Box::new(presets::default_scenario()),
                        origin: Origin::Default,
                        notice: Some(Notice { level: NoticeLevel::Info, text: "The default scenario is loaded.".into() }),
                    })}>{ "Default scenario" }</button>
                </li>
            </ul>
            if let Some(l) = active {
                <div class="lesson-text" data-testid="lesson-text" aria-live="polite">
                    <h3>{ format!("{}. {}", l.id, l.title) }</h3>
                    <p class="finding">{ l.finding }</p>
                    <p>{ l.explain }</p>
                </div>
            }
        </PanelBox>
    }
}
