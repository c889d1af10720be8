//! A scenario written as text in the link (`#text=`, docs/scenario-text.md),
//! as the `<kafka-quota-playground>` element and the ```` ```kafka-quota ````
//! fences send it (web/kafka-quota-embed.js): read by the import/export
//! worker (the reader stays out of the page's own module), loaded when it
//! reads, else shown with each problem's line and column and the text
//! itself, so a docs widget with a bad line is never a blank box.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use quota_engine::sim::Scenario;

use crate::interchange::{Answer, Op, Reply, TextProblem};
use crate::platform;
use crate::state::{Action, AppState, Origin};
use crate::worker::{InterchangeClient, WorkerEvent};

/// A scenario text that gives no scenario: the text and its problems.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextErrors {
    /// The text as decoded from the link (empty when it could not be, or
    /// when the scenario it gives is past the page's limits).
    pub(crate) text: String,
    /// Every problem, with its 1-based line and column in `text`.
    pub(crate) problems: Vec<TextProblem>,
    /// The text gives a scenario, past the page's limits
    /// ([`crate::model::scenario_limit`]): `problems` holds the sentence.
    pub(crate) too_large: bool,
}

/// Where the `#text=` scenario of the page is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TextLoad {
    /// Sent to the worker; the default scenario is in the state meanwhile.
    Pending,
    /// Read and loaded into the state.
    Loaded,
    /// Not a scenario (or one past the page's limits): why.
    Failed(TextErrors),
    /// Read, but the page was edited while the worker read it, so it was
    /// not loaded over the edit: `load` loads it when the user asks.
    Edited {
        /// Loads the link's scenario (and hides the offer).
        load: Callback<()>,
    },
}

fn one_problem(text: String, sentence: String) -> TextErrors {
    TextErrors { text, problems: vec![TextProblem { line: 1, column: 1, sentence }], too_large: false }
}

/// What to do with the worker's reading of the link's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Settled {
    /// Load the scenario.
    Load(Box<Scenario>),
    /// Leave the page's edit and offer the scenario.
    Offer(Box<Scenario>),
    /// Show why it cannot be loaded.
    Failed(TextErrors),
}

/// Decides what the worker's reading `result` of `text` becomes: its
/// problems; a refusal past the page's limits with the sentence a link gets
/// ([`crate::model::scenario_limit`], "This link's scenario has ...");
/// an offer when `edited` (the state's revision moved on while the worker
/// read, so loading would drop the user's edit); else a load.
pub(crate) fn settle(text: &str, result: Result<Scenario, Vec<TextProblem>>, edited: bool) -> Settled {
    match result {
        Err(problems) => Settled::Failed(TextErrors { text: text.to_owned(), problems, too_large: false }),
        Ok(scenario) => match crate::model::scenario_limit(&scenario, "This link's scenario") {
            Some(why) => Settled::Failed(TextErrors {
                text: String::new(),
                problems: vec![TextProblem { line: 1, column: 1, sentence: format!("{why} Showing the default scenario.") }],
                too_large: true,
            }),
            None if edited => Settled::Offer(Box::new(scenario)),
            None => Settled::Load(Box::new(scenario)),
        },
    }
}

/// Reads the page's `#text=` scenario, once, through the worker and loads
/// it (origin [`Origin::Link`]). `None` when the link has no `#text=`.
#[hook]
pub(crate) fn use_text_scenario(state: &UseReducerHandle<AppState>, worker: &InterchangeClient) -> Option<TextLoad> {
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
    // The state's revision now, read when the worker answers: an edit made
    // meanwhile is not overwritten.
    let revision = use_mut_ref(|| state.revision);
    *revision.borrow_mut() = state.revision;
    // Whether a link from the address bar was opened meanwhile
    // (`hooks::use_url_sync`): the user chose it over this text, whose
    // reading is then dropped.
    let opened_link = use_mut_ref(|| false);
    *opened_link.borrow_mut() = state.origin == Origin::Link;
    {
        let (load, worker) = (load.clone(), worker.clone());
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let key = match platform::text_of_hash(&platform::location_hash()) {
                Some(Ok(text)) => {
                    let asked = Rc::new(Cell::new(0u32));
                    let done = Rc::new(Cell::new(false));
                    let asked_at = *revision.borrow();
                    let on = {
                        let (asked, done, text) = (asked.clone(), done.clone(), text.clone());
                        Callback::from(move |event: WorkerEvent| {
                            if done.get() {
                                return;
                            }
                            // The worker could not read this request: said as its failure.
                            let event = match event {
                                WorkerEvent::Reply(Reply { id, answer: Answer::BadRequest(why) }) if id == asked.get() => WorkerEvent::Failed(why),
                                e => e,
                            };
                            match event {
                                WorkerEvent::Reply(Reply { id, answer: Answer::ScenarioText(result) }) if id == asked.get() => {
                                    done.set(true);
                                    if *opened_link.borrow() {
                                        load.set(None);
                                        return;
                                    }
                                    let edited = *revision.borrow() != asked_at;
                                    match settle(&text, result.map(|s| *s), edited) {
                                        Settled::Load(scenario) => {
                                            dispatcher.dispatch(Action::Load { scenario, origin: Origin::Link, notice: None });
                                            load.set(Some(TextLoad::Loaded));
                                        }
                                        Settled::Offer(scenario) => {
                                            let (dispatcher, later) = (dispatcher.clone(), load.clone());
                                            let cb = Callback::from(move |()| {
                                                dispatcher.dispatch(Action::Load { scenario: scenario.clone(), origin: Origin::Link, notice: None });
                                                later.set(Some(TextLoad::Loaded));
                                            });
                                            load.set(Some(TextLoad::Edited { load: cb }));
                                        }
                                        Settled::Failed(errors) => load.set(Some(TextLoad::Failed(errors))),
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
                    let key = worker.subscribe(on);
                    asked.set(worker.send(Op::ScenarioText { text }));
                    Some(key)
                }
                _ => None,
            };
            move || {
                if let Some(k) = key {
                    worker.unsubscribe(k);
                }
            }
        });
    }
    // Once read (or failed), the parent's element may show the frame: say
    // so now, even if the height happens to be the same.
    let pending = matches!(*load, Some(TextLoad::Pending));
    use_effect_with(pending, |pending| {
        // (Not the hash: after the first edit the URL sync replaces it
        // with a `v1.` link.)
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

/// What the box says of the scenario text format, under the listing. A
/// reader of a docs page sees it: it names no file of this repository.
pub(crate) const HINT: &str = "The scenario text format takes kafka-configs.sh --alter commands for the quotas, connection: lines (listener, user or DN, client.id) and, optionally, brokers:, topic:, producer:, consumer:, move_leader:, set_quota: and run: lines.";

/// The most problems listed (and marked in the text); the rest are counted.
pub(crate) const SHOWN_PROBLEMS: usize = 20;
/// A text longer than this many lines is shown only around the problems
/// listed ([`CONTEXT_LINES`] either side).
pub(crate) const WHOLE_TEXT_LINES: usize = 200;
/// Lines shown before and after a problem's line in a long text.
pub(crate) const CONTEXT_LINES: usize = 2;

/// One row of the text's listing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Row<'a> {
    /// Line `n` (1-based), its text, and the 1-based columns of the
    /// listed problems on it.
    Line { n: usize, text: &'a str, carets: Vec<usize> },
    /// Lines left out (how many).
    Gap(usize),
}

/// The listing of `text` with the first [`SHOWN_PROBLEMS`] `problems`
/// marked: the whole text up to [`WHOLE_TEXT_LINES`] lines, else the lines
/// around those problems with gaps between. The problems are grouped by
/// line once (not scanned per line).
pub(crate) fn listing<'a>(text: &'a str, problems: &[TextProblem]) -> Vec<Row<'a>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut by_line: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for q in problems.iter().take(SHOWN_PROBLEMS) {
        by_line.entry(q.line as usize).or_default().push(q.column as usize);
    }
    let row = |i: usize| Row::Line { n: i + 1, text: lines[i], carets: by_line.get(&(i + 1)).cloned().unwrap_or_default() };
    if lines.len() <= WHOLE_TEXT_LINES {
        return (0..lines.len()).map(row).collect();
    }
    let mut out = Vec::new();
    // The next line (0-based) not yet shown.
    let mut next = 0;
    for &line in by_line.keys().filter(|&&l| l >= 1 && l <= lines.len()) {
        let from = (line - 1).saturating_sub(CONTEXT_LINES).max(next);
        let to = (line + CONTEXT_LINES).min(lines.len());
        if from > next {
            out.push(Row::Gap(from - next));
        }
        out.extend((from..to).map(row));
        next = next.max(to);
    }
    if next < lines.len() {
        out.push(Row::Gap(lines.len() - next));
    }
    out
}

/// The box: a heading, the first problems (`Line L, column C: ...`) and how
/// many more, the text (or the lines around those problems) with line
/// numbers and a `^` under each listed problem's column.
#[function_component(TextProblems)]
pub(crate) fn text_problems(p: &Props) -> Html {
    let e = &p.errors;
    let rows = listing(&e.text, &e.problems);
    let more = e.problems.len().saturating_sub(SHOWN_PROBLEMS);
    // A long line scrolls inside the listing, which opens scrolled to the
    // left: the line numbers and the carets of short lines show, and each
    // problem's sentence above names its line and column.
    let row = |r: &Row<'_>| match r {
        Row::Line { n, text, carets } => html! {
            <>
                <span class={classes!("ln", (!carets.is_empty()).then_some("bad"))}>{ format!("{n:>3} ") }{ *text }{ "\n" }</span>
                { for carets.iter().map(|c| html! {
                    <span class="caret" aria-hidden="true">{ format!("    {}", " ".repeat(c.saturating_sub(1))) }<span class="caret-mark">{ "^" }</span>{ "\n" }</span>
                }) }
            </>
        },
        Row::Gap(k) => html! { <span class="gap">{ format!("    … {k} line{} not shown\n", if *k == 1 { "" } else { "s" }) }</span> },
    };
    html! {
        <section class="panel text-problems" role="alert" data-testid="text-problems" aria-labelledby="text-problems-title">
            <h2 id="text-problems-title">{ if e.too_large { "The link's scenario is too large for the page" } else { "The scenario text could not be read" } }</h2>
            <ul>
                { for e.problems.iter().take(SHOWN_PROBLEMS).map(|q| html! { <li data-testid="text-problem">{ q.sentence.clone() }</li> }) }
            </ul>
            if more > 0 {
                <p class="msg" data-testid="text-problems-more">{ format!("… and {more} more problem{}.", if more == 1 { "" } else { "s" }) }</p>
            }
            if !rows.is_empty() {
                <pre class="text-listing" data-testid="text-listing">{ for rows.iter().map(row) }</pre>
            }
            if let Some(n) = &p.note { <p class="msg">{ n.clone() }</p> }
            <p class="msg hint" data-testid="text-format-hint">{ HINT }</p>
        </section>
    }
}

/// The offer shown when the page was edited while the worker read the
/// link's text: the edit stays, the button loads the link's scenario.
#[derive(Properties, PartialEq)]
pub(crate) struct NotLoadedProps {
    /// Loads the link's scenario.
    pub(crate) load: Callback<()>,
}

/// A line and a button: the link's text scenario was not loaded over an edit.
#[function_component(TextNotLoaded)]
pub(crate) fn text_not_loaded(p: &NotLoadedProps) -> Html {
    let load = p.load.reform(|_: MouseEvent| ());
    html! {
        <section class="panel text-problems" role="status" data-testid="text-not-loaded">
            <p class="msg">{ "The scenario text of the link was not loaded: the page was edited while it was being read, and loading it would replace your edit." }</p>
            <button type="button" onclick={load} data-testid="text-load-anyway">{ "Load the link's scenario" }</button>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(line: u32, column: u32) -> TextProblem {
        TextProblem { line, column, sentence: format!("Line {line}, column {column}: not a scenario line.") }
    }

    #[test]
    fn the_hint_names_the_format_not_a_repository_path() {
        assert!(!HINT.contains(".md") && !HINT.contains("docs/"), "{HINT}");
        assert!(HINT.contains("scenario text format"));
    }

    #[test]
    fn a_text_past_the_page_limits_is_refused_like_a_link() {
        // 1,001 connection: lines (the reader gives 1,001 connections).
        let text: String = (0..1_001).map(|i| format!("connection: name=c{i} listener=PLAINTEXT client.id=c{i}\n")).collect();
        let scenario = crate::interchange::read_scenario_text(&text).unwrap();
        assert_eq!(scenario.connections.len(), 1_001);
        let Settled::Failed(e) = settle(&text, Ok(scenario.clone()), false) else { panic!("loaded") };
        assert!(e.too_large && e.text.is_empty());
        assert_eq!(
            e.problems[0].sentence,
            format!("{} Showing the default scenario.", crate::model::scenario_limit(&scenario, "This link's scenario").unwrap())
        );
        assert!(e.problems[0].sentence.starts_with("This link's scenario has 1,001 connections; the playground takes at most 1,000"));
    }

    #[test]
    fn an_edit_made_while_the_worker_read_is_not_overwritten() {
        let s = crate::presets::default_scenario();
        assert_eq!(settle("", Ok(s.clone()), false), Settled::Load(Box::new(s.clone())));
        assert_eq!(settle("", Ok(s.clone()), true), Settled::Offer(Box::new(s)));
        let Settled::Failed(e) = settle("x", Err(vec![problem(1, 1)]), true) else { panic!() };
        assert_eq!((e.text.as_str(), e.too_large), ("x", false));
    }

    #[test]
    fn a_short_text_is_listed_whole_with_its_carets() {
        let rows = listing("a\nb\nc", &[problem(2, 1), problem(2, 3)]);
        assert_eq!(
            rows,
            vec![
                Row::Line { n: 1, text: "a", carets: vec![] },
                Row::Line { n: 2, text: "b", carets: vec![1, 3] },
                Row::Line { n: 3, text: "c", carets: vec![] },
            ]
        );
    }

    #[test]
    fn a_long_text_shows_the_lines_around_the_first_problems() {
        // 100,000 lines of `x`, each a problem: grouped once, not 10^10
        // comparisons; 20 problems marked, the lines after them left out.
        let text = vec!["x"; 100_000].join("\n");
        let problems: Vec<TextProblem> = (1..=100_000).map(|l| problem(l, 1)).collect();
        let rows = listing(&text, &problems);
        let marked = rows.iter().filter(|r| matches!(r, Row::Line { carets, .. } if !carets.is_empty())).count();
        assert_eq!(marked, SHOWN_PROBLEMS);
        // Lines 1-20 with problems, 21-22 after them, then a gap.
        assert_eq!(rows.len(), 23);
        assert_eq!(rows[22], Row::Gap(100_000 - 22));

        // Two problems far apart: the lines around each, gaps between.
        let rows = listing(&text, &[problem(500, 1), problem(90_000, 2), problem(0, 1), problem(200_000, 1)]);
        let numbers: Vec<String> = rows
            .iter()
            .map(|r| match r {
                Row::Line { n, .. } => n.to_string(),
                Row::Gap(k) => format!("gap {k}"),
            })
            .collect();
        assert_eq!(
            numbers,
            ["gap 497", "498", "499", "500", "501", "502", "gap 89495", "89998", "89999", "90000", "90001", "90002", "gap 9998"]
        );
    }
}
