//! A scenario written as text (`#text=`, docs/scenario-text.md) that gives
//! no scenario: each problem with its line and column, and the text itself
//! with a caret under each column, so a docs widget with a bad line is
//! never a blank box.

use yew::prelude::*;

use crate::platform::TextErrors;

/// The problems of a `#text=` hash and the text, numbered by line.
#[derive(Properties, PartialEq)]
pub(crate) struct Props {
    /// The text and its problems.
    pub(crate) errors: TextErrors,
}

/// The box: a heading, the problems (`line L, column C: message`), the
/// text with line numbers and a `^` under each problem's column.
#[function_component(TextProblems)]
pub(crate) fn text_problems(p: &Props) -> Html {
    let e = &p.errors;
    let lines: Vec<&str> = e.text.lines().collect();
    let row = |i: usize, line: &str| {
        let n = i + 1;
        let bad: Vec<usize> = e.problems.iter().filter(|q| q.position.line as usize == n).map(|q| q.position.column as usize).collect();
        html! {
            <>
                <span class={classes!("ln", (!bad.is_empty()).then_some("bad"))}>{ format!("{n:>3} ") }{ line }{ "\n" }</span>
                { for bad.iter().map(|c| html! { <span class="caret" aria-hidden="true">{ format!("    {}^\n", " ".repeat(c.saturating_sub(1))) }</span> }) }
            </>
        }
    };
    html! {
        <section class="panel text-problems" data-testid="text-problems" aria-labelledby="text-problems-title">
            <h2 id="text-problems-title">{ "The scenario text could not be read" }</h2>
            <ul>
                { for e.problems.iter().map(|q| html! { <li data-testid="text-problem">{ q.to_string() }</li> }) }
            </ul>
            if !lines.is_empty() {
                <pre class="text-listing" data-testid="text-listing">{ for lines.iter().enumerate().map(|(i, l)| row(i, l)) }</pre>
            }
            <p class="msg hint">{ "The lines a scenario text takes (docs/scenario-text.md): kafka-configs.sh --alter commands, and connection:, brokers:, topic:, producer:, consumer: and run: lines." }</p>
        </section>
    }
}
