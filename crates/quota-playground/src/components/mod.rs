//! The panels, one file each, and the small form widgets they share.
//!
//! Form fields keep what the user typed in local state: a value is committed
//! to the scenario only when it is valid, and an invalid one stays in the
//! field with the message beside it, so nothing typed is lost.

mod admin;
mod connects;
mod seeds;
mod answer;
mod charts;
mod cluster;
mod connection;
mod help;
mod interchange;
mod lessons;
mod notice;
mod quotas;
mod resolution;
mod scenario_editor;
mod share;
mod simulation;

pub(crate) use answer::AnswerPanel;
pub(crate) use cluster::ClusterPanel;
pub(crate) use connection::ConnectionPanel;
pub(crate) use help::HelpSheet;
pub(crate) use interchange::InterchangePanel;
pub(crate) use lessons::LessonsPanel;
pub(crate) use notice::NoticeBar;
pub(crate) use quotas::QuotasPanel;
pub(crate) use resolution::ResolutionPanel;
pub(crate) use share::SharePanel;
pub(crate) use simulation::SimulationPanel;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model;

/// Clients (rows of a per-client table or editor) drawn before a "Show
/// all" button: with 100 clients every keystroke elsewhere and every run
/// that arrives would lay out all of their rows (issue 11's typing measure).
pub(crate) const SHOWN_CLIENTS: usize = 12;

/// One run, compared by pointer: the key of what is computed or drawn once
/// per run (the cluster view's props, the run's outcome sentence).
#[derive(Clone)]
pub(crate) struct Run(pub(crate) std::rc::Rc<crate::sim_view::SimView>);

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Whether client `i` (its index in the run's clients) is in a shortened
/// list of clients: one of the first [`SHOWN_CLIENTS`], or client
/// `focused`, the one in the charts.
pub(crate) fn in_short_list(i: usize, focused: usize) -> bool {
    i < SHOWN_CLIENTS || i == focused
}

/// The line under a list that is shortened unless `all` is set: `hidden`
/// is how many of the `total` items the short list leaves out (none: no
/// line). Short: "`hidden` more `plural` not listed." and a button "Show
/// all `total` `plural`"; all shown: "All `total` `plural` listed." and
/// "Show fewer". One button (`testid`) that stays in place, so that the
/// keyboard focus stays on it when it is used.
pub(crate) fn show_all_line(hidden: usize, total: usize, singular: &str, plural: &str, testid: &'static str, all: &UseStateHandle<bool>) -> Html {
    if hidden == 0 {
        return html! {};
    }
    let (text, button) = if **all {
        (format!("All {total} {plural} listed. "), "Show fewer".to_owned())
    } else {
        (
            format!("{hidden} more {} not listed. ", if hidden == 1 { singular } else { plural }),
            format!("Show all {total} {plural}"),
        )
    };
    let all = all.clone();
    html! {
        <p class="msg">
            { text }
            <button type="button" class="ghost" aria-expanded={all.to_string()} onclick={move |_| all.set(!*all)} data-testid={testid}>{ button }</button>
        </p>
    }
}

/// The value of the input, select or textarea an event came from.
pub(crate) fn event_value(e: &Event) -> String {
    let Some(t) = e.target() else { return String::new() };
    if let Some(i) = t.dyn_ref::<web_sys::HtmlInputElement>() {
        return i.value();
    }
    if let Some(s) = t.dyn_ref::<web_sys::HtmlSelectElement>() {
        return s.value();
    }
    if let Some(a) = t.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        return a.value();
    }
    String::new()
}

/// Whether the checkbox an event came from is checked.
pub(crate) fn event_checked(e: &Event) -> bool {
    e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked())
}

/// A panel: a `<section>` with an id (for links and embeds) and a heading.
#[derive(Properties, PartialEq)]
pub(crate) struct PanelProps {
    pub id: AttrValue,
    pub title: AttrValue,
    #[prop_or_default]
    pub subtitle: Option<AttrValue>,
    #[prop_or_default]
    pub children: Html,
}

#[function_component(PanelBox)]
pub(crate) fn panel_box(p: &PanelProps) -> Html {
    let heading = format!("{}-title", p.id);
    html! {
        <section id={p.id.clone()} class="panel" aria-labelledby={heading.clone()} tabindex="-1">
            <h2 id={heading}>{ p.title.clone() }</h2>
            if let Some(s) = &p.subtitle { <p class="sub">{ s.clone() }</p> }
            { p.children.clone() }
        </section>
    }
}

/// A text field that commits every valid edit at once.
#[derive(Properties, PartialEq)]
pub(crate) struct TextFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub on_commit: Callback<String>,
    /// Returns an error message for text that must not be committed.
    #[prop_or_default]
    pub validate: Option<Callback<String, Option<String>>>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    #[prop_or_default]
    pub multiline: bool,
    #[prop_or_default]
    pub disabled: bool,
    /// A warning about a committed value (shown with the hint, not instead of it).
    #[prop_or_default]
    pub warning: Option<AttrValue>,
}

#[function_component(TextField)]
pub(crate) fn text_field(p: &TextFieldProps) -> Html {
    let text = use_state(|| p.value.to_string());
    let error = use_state(|| None::<String>);
    {
        let (text, error) = (text.clone(), error.clone());
        use_effect_with(p.value.clone(), move |v| {
            text.set(v.to_string());
            error.set(None);
        });
    }
    let oninput = {
        let (text, error, validate, commit) = (text.clone(), error.clone(), p.validate.clone(), p.on_commit.clone());
        Callback::from(move |e: InputEvent| {
            let v = event_value(&e);
            let err = validate.as_ref().and_then(|f| f.emit(v.clone()));
            text.set(v.clone());
            if err.is_none() {
                commit.emit(v);
            }
            error.set(err);
        })
    };
    let err_id = format!("{}-err", p.id);
    let hint_id = format!("{}-hint", p.id);
    let warn_id = format!("{}-warn", p.id);
    let described = match (&*error, &p.hint) {
        (Some(_), _) => Some(err_id.clone()),
        (None, Some(_)) => Some(hint_id.clone()),
        _ => None,
    };
    let described = match (described, &p.warning) {
        (Some(d), Some(_)) => Some(format!("{d} {warn_id}")),
        (None, Some(_)) => Some(warn_id.clone()),
        (d, None) => d,
    };
    html! {
        <div class={classes!("field", error.is_some().then_some("invalid"))}>
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            if p.multiline {
                <textarea id={p.id.clone()} value={(*text).clone()} {oninput} rows="2" spellcheck="false"
                    placeholder={p.placeholder.clone()} aria-invalid={error.is_some().to_string()}
                    aria-describedby={described} disabled={p.disabled} />
            } else {
                <input id={p.id.clone()} type="text" value={(*text).clone()} {oninput} spellcheck="false"
                    autocomplete="off" placeholder={p.placeholder.clone()} aria-invalid={error.is_some().to_string()}
                    aria-describedby={described} disabled={p.disabled} />
            }
            if let Some(e) = &*error { <p id={err_id} class="msg error" role="alert">{ e.clone() }</p> }
            else if let Some(h) = &p.hint { <p id={hint_id} class="msg hint">{ h.clone() }</p> }
            if let Some(w) = &p.warning { <p id={warn_id} class="msg warn" role="note" data-testid={format!("{}-warning", p.id)}>{ "⚠ " }{ w.clone() }</p> }
        </div>
    }
}

/// A number field: the text stays as typed; valid values are committed.
#[derive(Properties, PartialEq)]
pub(crate) struct NumberFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: f64,
    pub on_commit: Callback<f64>,
    /// Smallest and largest accepted value; whole numbers only when set.
    #[prop_or_default]
    pub whole: Option<(u64, u64)>,
    /// Returns an error for a parsed value that must not be committed.
    #[prop_or_default]
    pub check: Option<Callback<f64, Option<String>>>,
    /// Reads the text instead of [`model::parse_number`] (the quota list
    /// reads values as the add form does: `model::parse_quota_value`).
    #[prop_or_default]
    pub parser: Option<Callback<String, Result<f64, String>>>,
    #[prop_or_default]
    pub unit: Option<AttrValue>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    /// The label is for screen readers only (the row shows what it is).
    #[prop_or_default]
    pub sr_label: bool,
    /// The value an empty field commits (a client setting's default, as
    /// when the property is not set); `None`: empty is refused like any
    /// other text that is not a number.
    #[prop_or_default]
    pub empty: Option<f64>,
    /// A problem the engine reports for the committed value
    /// (`Scenario::validate`, as `path: message`): shown under the field,
    /// which is marked invalid, until a value without it is committed.
    #[prop_or_default]
    pub problem: Option<AttrValue>,
}

fn show_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

#[function_component(NumberField)]
pub(crate) fn number_field(p: &NumberFieldProps) -> Html {
    let text = use_state(|| show_number(p.value));
    let error = use_state(|| None::<String>);
    let typed = use_mut_ref(|| show_number(p.value));
    {
        let (text, error, typed, empty) = (text.clone(), error.clone(), typed.clone(), p.empty);
        use_effect_with(p.value.to_bits(), move |bits| {
            let v = f64::from_bits(*bits);
            // Keep the user's spelling (2e6, 2000000.0) when it means the
            // same value, and an emptied field that means the default (the
            // user may be about to type another value: "20" after emptying
            // 100 must not read "520").
            let t = typed.borrow();
            let same = (t.trim().is_empty() && empty == Some(v))
                || model::parse_number(&t).is_ok_and(|t| t == v || (t.is_nan() && v.is_nan()));
            drop(t);
            if !same {
                *typed.borrow_mut() = show_number(v);
                text.set(show_number(v));
                error.set(None);
            }
        });
    }
    let parse = {
        let (whole, label, check, parser, empty) = (p.whole, p.label.clone(), p.check.clone(), p.parser.clone(), p.empty);
        move |s: &str| -> Result<f64, String> {
            let v = match (whole, &parser) {
                _ if s.trim().is_empty() && empty.is_some() => empty.unwrap_or_default(),
                (Some((lo, hi)), _) => model::parse_whole(s, &label, lo, hi)? as f64,
                (None, Some(parse)) => parse.emit(s.to_owned())?,
                (None, None) => model::parse_number(s)?,
            };
            match check.as_ref().and_then(|c| c.emit(v)) {
                Some(e) => Err(e),
                None => Ok(v),
            }
        }
    };
    // A valid value is committed at once, in the keystroke's own task: a
    // commit left for a later task was lost when the page was reloaded
    // right after typing (tried for issue 11's typing measure, dropped).
    let oninput = {
        let (text, error, commit, typed) = (text.clone(), error.clone(), p.on_commit.clone(), typed.clone());
        Callback::from(move |e: InputEvent| {
            let v = event_value(&e);
            *typed.borrow_mut() = v.clone();
            text.set(v.clone());
            match parse(&v) {
                Ok(x) => {
                    error.set(None);
                    commit.emit(x);
                }
                Err(m) => error.set(Some(m)),
            }
        })
    };
    let err_id = format!("{}-err", p.id);
    let hint_id = format!("{}-hint", p.id);
    let problem_id = format!("{}-problem", p.id);
    // The text's own error first; else the engine's problem with the value.
    let problem = p.problem.as_ref().filter(|_| error.is_none());
    let described = match (&*error, problem, &p.hint) {
        (Some(_), _, _) => Some(err_id.clone()),
        (None, Some(_), _) => Some(problem_id.clone()),
        (None, None, Some(_)) => Some(hint_id.clone()),
        _ => None,
    };
    let invalid = error.is_some() || problem.is_some();
    html! {
        <div class={classes!("field", "num", invalid.then_some("invalid"))}>
            <label for={p.id.clone()} class={classes!(p.sr_label.then_some("sr-only"))}>{ p.label.clone() }</label>
            <span class="with-unit">
                <input id={p.id.clone()} type="text" inputmode="decimal" value={(*text).clone()} {oninput}
                    placeholder={p.empty.map(show_number)} autocomplete="off" spellcheck="false" aria-invalid={invalid.to_string()} aria-describedby={described} />
                if let Some(u) = &p.unit { <span class="unit" aria-hidden="true">{ u.clone() }</span> }
            </span>
            if let Some(e) = &*error { <p id={err_id} class="msg error" role="alert">{ e.clone() }</p> }
            else if let Some(m) = problem { <p id={problem_id.clone()} class="msg error" role="alert" data-testid={problem_id.clone()}>{ m.clone() }</p> }
            else if let Some(h) = &p.hint { <p id={hint_id} class="msg hint">{ h.clone() }</p> }
        </div>
    }
}

/// A labelled `<select>` over `(value, label)` options.
///
/// Every `<option>` of the page sets its `selected` property (`~selected`),
/// not the attribute: once the user has picked an option, the browser no
/// longer follows that option's `selected` attribute (its "dirtiness", HTML
/// §4.10.10), so a value changed by a shortcut (the playback speed's `+`)
/// showed another option. (Not the select's `value` property: Yew sets it
/// before the options, and an option renamed in the same render, a topic or
/// a connection, was then deselected.)
#[derive(Properties, PartialEq)]
pub(crate) struct SelectProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub options: Vec<(AttrValue, AttrValue)>,
    pub on_change: Callback<String>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
}

#[function_component(SelectField)]
pub(crate) fn select_field(p: &SelectProps) -> Html {
    let onchange = {
        let cb = p.on_change.clone();
        Callback::from(move |e: Event| cb.emit(event_value(&e)))
    };
    let hint_id = format!("{}-hint", p.id);
    html! {
        <div class="field">
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <select id={p.id.clone()} {onchange} aria-describedby={p.hint.as_ref().map(|_| hint_id.clone())}>
                { for p.options.iter().map(|(v, l)| html! { <option value={v.clone()} ~selected={*v == p.value}>{ l.clone() }</option> }) }
            </select>
            if let Some(h) = &p.hint { <p id={hint_id} class="msg hint">{ h.clone() }</p> }
        </div>
    }
}
