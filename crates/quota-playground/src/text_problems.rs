//! A scenario written as text in the link (`#text=`, docs/scenario-text.md),
//! as the `<kafka-quota-playground>` element and the ```` ```kafka-quota ````
//! fences send it (web/kafka-quota-embed.js): read by the import/export
//! worker (the reader stays out of the page's own module), loaded when it
//! reads, else shown with each problem's line and column and the text
//! itself, so a docs widget with a bad line is never a blank box.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use crate::interchange::{Answer, Op, Reply, TextProblem};
use crate::platform;
use crate::state::{Action, AppState, Origin};
use crate::worker::{self, WorkerEvent};

/// A scenario text that gives no scenario: the text and its problems.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextErrors {
    /// The text as decoded from the link (empty when it could not be).
    pub(crate) text: String,
    /// Every problem, with its 1-based line and column in `text`.
    pub(crate) problems: Vec<TextProblem>,
}

/// Where the `#text=` scenario of the page is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TextLoad {
    /// Sent to the worker; the default scenario is in the state meanwhile.
    Pending,
    /// Read and loaded into the state.
    Loaded,
    /// Not a scenario: why.
    Failed(TextErrors),
}

fn one_problem(text: String, sentence: String) -> TextErrors {
    TextErrors { text, problems: vec![TextProblem { line: 1, column: 1, sentence }] }
}

/// Reads the page's `#text=` scenario, once, through the worker and loads
/// it (origin [`Origin::Link`]). `None` when the link has no `#text=`.
#[hook]
pub(crate) fn use_text_scenario(state: &UseReducerHandle<AppState>) -> Option<TextLoad> {
    let load = use_state(|| {
        platform::text_of_hash(&platform::location_hash()).map(|decoded| match decoded {
            Ok(_) => {
                platform::set_embed_pending(true);
                TextLoad::Pending
            }
            Err(why) => TextLoad::Failed(one_problem(
                String::new(),
                format!("Line 1, column 1: The scenario text in the link could not be decoded: {why}."),
            )),
        })
    });
    {
        let load = load.clone();
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let key = match platform::text_of_hash(&platform::location_hash()) {
                Some(Ok(text)) => {
                    let asked = Rc::new(Cell::new(0u32));
                    let done = Rc::new(Cell::new(false));
                    let on = {
                        let (asked, done, text) = (asked.clone(), done.clone(), text.clone());
                        Callback::from(move |event: WorkerEvent| {
                            if done.get() {
                                return;
                            }
                            match event {
                                WorkerEvent::Reply(Reply { id, answer: Answer::ScenarioText(result) }) if id == asked.get() => {
                                    done.set(true);
                                    match result {
                                        Ok(scenario) => {
                                            dispatcher.dispatch(Action::Load { scenario, origin: Origin::Link, notice: None });
                                            load.set(Some(TextLoad::Loaded));
                                        }
                                        Err(problems) => load.set(Some(TextLoad::Failed(TextErrors { text: text.clone(), problems }))),
                                    }
                                }
                                WorkerEvent::Failed(why) => {
                                    done.set(true);
                                    load.set(Some(TextLoad::Failed(one_problem(
                                        text.clone(),
                                        format!("Line 1, column 1: The scenario text could not be read: {why}"),
                                    ))));
                                }
                                _ => {}
                            }
                        })
                    };
                    let key = worker::subscribe(on);
                    asked.set(worker::send(Op::ScenarioText { text }));
                    Some(key)
                }
                _ => None,
            };
            move || {
                if let Some(k) = key {
                    worker::unsubscribe(k);
                }
            }
        });
    }
    // Once read (or failed), the parent's element may show the frame: say
    // so now, even if the height happens to be the same.
    let pending = matches!(*load, Some(TextLoad::Pending));
    use_effect_with(pending, |pending| {
        // (Not the hash: the URL sync has replaced it with a `v1.` link by now.)
        if !*pending && platform::embed_pending() {
            platform::set_embed_pending(false);
            platform::post_height(platform::content_height());
        }
    });
    (*load).clone()
}

/// The problems of a `#text=` scenario and the text.
#[derive(Properties, PartialEq)]
pub(crate) struct Props {
    /// The text and its problems.
    pub(crate) errors: TextErrors,
    /// A sentence after the listing (what the page shows instead).
    #[prop_or_default]
    pub(crate) note: Option<AttrValue>,
}

/// The box: a heading, the problems (`Line L, column C: ...`), the text
/// with line numbers and a `^` under each problem's column.
#[function_component(TextProblems)]
pub(crate) fn text_problems(p: &Props) -> Html {
    let e = &p.errors;
    let lines: Vec<&str> = e.text.lines().collect();
    let row = |i: usize, line: &str| {
        let n = i + 1;
        let bad: Vec<usize> = e.problems.iter().filter(|q| q.line as usize == n).map(|q| q.column as usize).collect();
        html! {
            <>
                <span class={classes!("ln", (!bad.is_empty()).then_some("bad"))}>{ format!("{n:>3} ") }{ line }{ "\n" }</span>
                { for bad.iter().map(|c| html! { <span class="caret" aria-hidden="true">{ format!("    {}^\n", " ".repeat(c.saturating_sub(1))) }</span> }) }
            </>
        }
    };
    html! {
        <section class="panel text-problems" role="alert" data-testid="text-problems" aria-labelledby="text-problems-title">
            <h2 id="text-problems-title">{ "The scenario text could not be read" }</h2>
            <ul>
                { for e.problems.iter().map(|q| html! { <li data-testid="text-problem">{ q.sentence.clone() }</li> }) }
            </ul>
            if !lines.is_empty() {
                <pre class="text-listing" data-testid="text-listing">{ for lines.iter().enumerate().map(|(i, l)| row(i, l)) }</pre>
            }
            if let Some(n) = &p.note { <p class="msg">{ n.clone() }</p> }
            <p class="msg hint">{ "The lines a scenario text takes (docs/scenario-text.md): kafka-configs.sh --alter commands, and connection:, brokers:, topic:, producer:, consumer: and run: lines." }</p>
        </section>
    }
}
