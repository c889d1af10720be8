//! Import and export: a box that reads quotas in any format `quota-formats`
//! detects (the parser's message in place, the text kept), and a menu that
//! writes the scenario's quotas in each format with what it cannot express.
//! The reading and writing happen in the import/export worker
//! ([`crate::worker`]), started when this panel comes into view or is used.

use std::cell::Cell;
use std::rc::Rc;

use quota_formats::detect::Format;
use quota_formats::interchange::ExportOptions;
use quota_formats::strimzi;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::{event_value, PanelBox};
use crate::ctx::use_scene;
use crate::interchange::{self, Answer, ExportView, ImportEvent, ImportPreview, Op, Placed};
use crate::platform;
use crate::state::Action;
use crate::ctx::use_workers;
use crate::worker::{InterchangeClient, WorkerEvent};

/// Listens to the import/export worker while the component is mounted:
/// `on` gets each event.
#[hook]
fn use_worker_events(worker: &InterchangeClient, on: Callback<WorkerEvent>) {
    let worker = worker.clone();
    use_effect_with((), move |_| {
        let key = worker.subscribe(on);
        move || worker.unsubscribe(key)
    });
}

#[function_component(InterchangePanel)]
pub(crate) fn interchange_panel() -> Html {
    let worker = use_workers().interchange;
    use_effect_with((), move |_| {
        let observer = worker.start_when_near("import");
        move || {
            if let Some(o) = observer {
                o.disconnect();
            }
        }
    });
    // Where the exported quotas go (the Strimzi apiVersion, cluster label
    // and namespace, the runbook's --bootstrap-server): what the last
    // import said, as the CLI's `convert` keeps it, then what the user typed
    // beside the export.
    let options = use_state(ExportOptions::default);
    let imports = use_state(|| 0u32);
    html! {
        <PanelBox id="import" title="Import and export"
            subtitle="Paste quotas as kafka-configs.sh commands, --describe output, Admin API Java, Strimzi KafkaUser YAML, Terraform, rpk or scenario JSON: the format is detected. Export copies the scenario's quotas in any format.">
            <div class="io">
                <ImportBox options={options.clone()} imports={imports.clone()} />
                <ExportMenu {options} {imports} />
            </div>
        </PanelBox>
    }
}

/// Selects `line`:`column` (1-based, characters) in the textarea `id` and
/// focuses it.
fn select_in_textarea(id: &str, text: &str, line: u32, column: u32) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    let Ok(t) = el.dyn_into::<web_sys::HtmlTextAreaElement>() else {
        return;
    };
    // Textarea offsets count UTF-16 units.
    let mut start = 0u32;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line as usize {
            let col: u32 = l
                .chars()
                .take(column.saturating_sub(1) as usize)
                .map(|c| c.len_utf16() as u32)
                .sum();
            start += col;
            let rest: u32 = l
                .chars()
                .skip(column.saturating_sub(1) as usize)
                .take(1)
                .map(|c| c.len_utf16() as u32)
                .sum();
            let _ = t.focus();
            let _ = t.set_selection_range(start, start + rest);
            return;
        }
        start += l.encode_utf16().count() as u32 + 1;
    }
    let _ = t.focus();
}

fn placed_view(
    p: &Placed,
    class: &'static str,
    testid: &'static str,
    goto: Callback<(u32, u32)>,
) -> Html {
    let (line, column) = (p.line, p.column);
    let (excerpt, at) = p.excerpt(32);
    let caret = format!("{}^", " ".repeat(at));
    html! {
        <div class={classes!("placed", class)} data-testid={testid} data-line={line.to_string()} data-column={column.to_string()}>
            <p>{ p.message.clone() }</p>
            if !p.source_line.is_empty() {
                <pre class="at" aria-hidden="true">{ format!("{excerpt}\n{caret}") }</pre>
            }
            <button type="button" class="ghost small" onclick={move |_| goto.emit((line, column))}>
                { format!("Show line {line}, column {column} in the text") }
            </button>
        </div>
    }
}

/// How many imported values the preview lists (the count covers all).
const LIST_MAX: usize = 200;

/// The export options the import box sets and the export menu reads and
/// edits.
#[derive(Properties, PartialEq)]
struct IoProps {
    /// Shared by both halves of the panel.
    options: UseStateHandle<ExportOptions>,
    /// How many imports were made: the Strimzi fields show what the
    /// latest one said.
    imports: UseStateHandle<u32>,
}

/// `kept` over `base`: each field the import said something of replaces
/// the one before (a kafka-configs.sh runbook imported after a KafkaUser
/// keeps the KafkaUser's cluster; a KafkaUser of another cluster replaces it).
fn keep_over(base: &ExportOptions, kept: &ExportOptions) -> ExportOptions {
    ExportOptions {
        bootstrap_server: kept.bootstrap_server.clone().or_else(|| base.bootstrap_server.clone()),
        strimzi_api_version: kept.strimzi_api_version.clone().or_else(|| base.strimzi_api_version.clone()),
        strimzi_cluster: kept.strimzi_cluster.clone().or_else(|| base.strimzi_cluster.clone()),
        strimzi_namespace: kept.strimzi_namespace.clone().or_else(|| base.strimzi_namespace.clone()),
    }
}

/// The Import box's state in a Yew reducer: every change is one
/// [`ImportEvent`] ([`interchange::ImportBox::apply`], tested natively).
#[derive(Debug, Clone, PartialEq)]
struct BoxState(interchange::ImportBox);

impl Reducible for BoxState {
    type Action = ImportEvent;

    fn reduce(self: Rc<Self>, event: ImportEvent) -> Rc<Self> {
        let mut next = (*self).clone();
        next.0.apply(event);
        // Unchanged (a stale reply, the same failure again): the same
        // state, so no re-render.
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[function_component(ImportBox)]
fn import_box(props: &IoProps) -> Html {
    let ctx = use_scene();
    let worker = use_workers().interchange;
    let state = {
        let failure = worker.failure();
        use_reducer(move || BoxState(interchange::ImportBox::new(failure)))
    };
    {
        let d = state.dispatcher();
        use_worker_events(&worker, Callback::from(move |e: WorkerEvent| match e {
            WorkerEvent::Reply(r) => match r.answer {
                Answer::Preview(p) => d.dispatch(ImportEvent::Previewed(r.id, p)),
                Answer::BadRequest(m) => d.dispatch(ImportEvent::Refused(r.id, m)),
                _ => {}
            },
            WorkerEvent::Failed(m) => d.dispatch(ImportEvent::Failed(m)),
            WorkerEvent::Started => {}
        }));
    }
    {
        let (d, worker) = (state.dispatcher(), worker.clone());
        use_effect_with(state.0.text.clone(), move |t| {
            let id = (!t.trim().is_empty()).then(|| worker.send(Op::Preview { text: t.clone() }));
            d.dispatch(ImportEvent::Asked(id));
        });
    }
    let b = &state.0;
    let preview: Rc<ImportPreview> = Rc::clone(&b.preview);
    let reading = b.reading();
    let oninput = {
        let d = state.dispatcher();
        Callback::from(move |e: InputEvent| d.dispatch(ImportEvent::Typed(event_value(&e))))
    };
    let goto = {
        let text = b.text.clone();
        Callback::from(move |(line, column): (u32, u32)| {
            select_in_textarea("import-text", &text, line, column)
        })
    };
    let on_import = {
        let (d, scenario, preview, replace, options, imports) = (
            ctx.state.dispatcher(),
            ctx.state.scenario.clone(),
            preview.clone(),
            b.replace,
            props.options.clone(),
            props.imports.clone(),
        );
        let done = state.dispatcher();
        Callback::from(move |_: MouseEvent| {
            if let ImportPreview::Ready {
                detected, quotas, skipped, keep, ..
            } = &*preview
            {
                // The export writes them back where they came from.
                options.set(keep_over(&options, keep));
                imports.set(imports.wrapping_add(1));
                // Applied once, here: the reducer takes the result as it is.
                let mut after = (*scenario).clone();
                let (applied, refused) = interchange::apply_quotas(&mut after, quotas, replace);
                d.dispatch(Action::SetQuotas { quotas: after.quotas });
                done.dispatch(ImportEvent::Imported(interchange::import_summary(
                    detected.format,
                    applied,
                    refused,
                    skipped.len(),
                    replace,
                )));
            }
        })
    };
    let mode = |value: bool, label: &'static str| {
        let d = state.dispatcher();
        html! {
            <label class="check">
                <input type="radio" name="import-mode" checked={b.replace == value} onchange={move |_| d.dispatch(ImportEvent::Mode(value))} />
                { label }
            </label>
        }
    };
    let (detected, status) = match &*preview {
        _ if b.error().is_some() => (
            None,
            html! {
                <p id="import-status" class="msg error" role="alert" data-testid="import-error">{ b.error().unwrap_or_default().to_owned() }</p>
            },
        ),
        _ if reading => (
            None,
            html! {
                <p id="import-status" class="msg hint" data-testid="import-reading">{ "Reading…" }</p>
            },
        ),
        ImportPreview::Empty => (
            None,
            html! {
                <p id="import-status" class="msg hint" data-testid="import-status">
                    { "Paste or type quotas above; the format and what would be imported appear here." }
                </p>
            },
        ),
        ImportPreview::Failed { detected, error } => (
            detected.clone(),
            html! {
                <div id="import-status">{ placed_view(error, "error", "import-error", goto.clone()) }</div>
            },
        ),
        ImportPreview::Ready {
            detected,
            quotas,
            notes,
            skipped,
            ..
        } => {
            // Every item failed: nothing to import, every failure listed.
            let nothing = quotas.is_empty() && !skipped.is_empty();
            let entities = {
                let mut e: Vec<_> = quotas.iter().map(|q| &q.entity).collect();
                e.sort_unstable();
                e.dedup();
                e.len()
            };
            (
                Some(detected.clone()),
                html! {
                    <div id="import-status">
                        if !nothing {
                            <p class="msg ok" data-testid="import-ready">
                                { format!("Ready: {} quota value{} for {} entit{}.", quotas.len(), if quotas.len() == 1 { "" } else { "s" },
                                    entities, if entities == 1 { "y" } else { "ies" }) }
                            </p>
                        }
                        if !skipped.is_empty() {
                            <div class="notes" data-testid="import-skipped">
                                <p class={classes!("msg", if nothing { "error" } else { "warn" })} role={if nothing { "alert" } else { "note" }}>
                                    { interchange::skipped_sentence(detected.format, skipped.len(), nothing) }
                                </p>
                                { for skipped.iter().map(|n| placed_view(n, "error", "import-skipped-command", goto.clone())) }
                            </div>
                        }
                        <details class="data" data-testid="import-list" hidden={nothing}>
                            <summary>{ "What would be imported" }</summary>
                            <ul class="import-list">
                                { for quotas.iter().take(LIST_MAX).map(|q| html! {
                                    <li><code>{ format!("{} {}={}", crate::model::entity_path(&q.entity), q.key.as_str(),
                                        quota_engine::java_double_to_string(q.value)) }</code></li>
                                }) }
                            </ul>
                            if quotas.len() > LIST_MAX { <p class="msg hint">{ format!("and {} more", quotas.len() - LIST_MAX) }</p> }
                        </details>
                        if !notes.is_empty() {
                            <div class="notes" data-testid="import-notes">
                                <p class="msg hint">{ format!("{} note{} from the reader:", notes.len(), if notes.len() == 1 { "" } else { "s" }) }</p>
                                { for notes.iter().map(|n| placed_view(n, "note", "import-note", goto.clone())) }
                            </div>
                        }
                    </div>
                },
            )
        }
    };
    let too_many = match &*preview {
        ImportPreview::Ready { quotas, .. } => interchange::import_limit(ctx.state.scenario.quotas.len(), quotas.len(), b.replace),
        _ => None,
    };
    let (ready, failed) = (b.ready(too_many.is_some()), b.failed());
    html! {
        <section class="io-part" aria-labelledby="import-box-title">
            <h3 id="import-box-title">{ "Import" }</h3>
            <div class="field">
                <label for="import-text">{ "Quotas to import (any format)" }</label>
                <textarea id="import-text" data-testid="import-text" rows="7" spellcheck="false" autocomplete="off"
                    value={b.text.clone()} {oninput} aria-describedby="import-detected import-status"
                    aria-invalid={failed.to_string()}
                    placeholder="$ kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config producer_byte_rate=2000000 --entity-type users --entity-name tenant-a" />
            </div>
            <p id="import-detected" class="msg hint" data-testid="import-detected" aria-live="polite">
                { match &detected {
                    Some(d) => format!("Detected format: {}", d.reason),
                    None => String::new(),
                } }
            </p>
            // Import takes quotas only: say so for a whole scenario file.
            if detected.as_ref().is_some_and(|d| d.format == quota_formats::detect::Format::ScenarioJson) {
                <p class="msg hint" data-testid="import-scenario-note">
                    { "Import takes this scenario file's quotas only. To open the whole scenario (connections, workloads, brokers, events), make its link with kafka-quota link FILE and open that." }
                </p>
            }
            <div class="import-status" aria-live="polite" aria-busy={b.stale.to_string()} data-testid="import-status-box">{ status }</div>
            <fieldset class="import-mode">
                <legend>{ "Import into the scenario" }</legend>
                { mode(false, "Merge: imported values replace the same entity and key, other quotas stay") }
                { mode(true, "Replace: remove every quota first") }
            </fieldset>
            if let Some(m) = &too_many { <p class="msg warn" data-testid="import-too-many">{ "⚠ " }{ m.clone() }</p> }
            <button type="button" class="primary" disabled={!ready} onclick={on_import} data-testid="import-button"
                aria-describedby="import-status">{ "Import" }</button>
            <p class="msg ok" aria-live="polite" data-testid="import-result">{ b.result.clone().unwrap_or_default() }</p>
        </section>
    }
}

#[function_component(ExportMenu)]
fn export_menu(props: &IoProps) -> Html {
    let options = props.options.clone();
    let ctx = use_scene();
    let format = use_state(|| Format::ConfigsSh);
    let copied = use_state(|| None::<bool>);
    // The worker's export of the latest (revision, format); `None` while it
    // writes (or loads).
    let answer = use_state(|| None::<Rc<Result<ExportView, String>>>);
    let asked = use_mut_ref(|| Cell::new(0u32));
    // Nothing is sent before the worker is started (the panel nears the
    // viewport, or the import box is used): the export alone never loads it.
    let worker = use_workers().interchange;
    let started = {
        let worker = worker.clone();
        use_state(move || worker.is_started())
    };
    {
        let (answer, asked, started) = (answer.clone(), asked.clone(), started.clone());
        use_worker_events(&worker, Callback::from(move |e: WorkerEvent| match e {
            WorkerEvent::Reply(r) => match r.answer {
                Answer::Export(v) if r.id == asked.borrow().get() => answer.set(Some(Rc::new(v))),
                Answer::BadRequest(m) if r.id != 0 && r.id == asked.borrow().get() => answer.set(Some(Rc::new(Err(m)))),
                _ => {}
            },
            WorkerEvent::Failed(m) => answer.set(Some(Rc::new(Err(m)))),
            WorkerEvent::Started => started.set(true),
        }));
    }
    {
        let (answer, asked, scenario, worker) = (answer.clone(), asked.clone(), ctx.state.scenario.clone(), worker.clone());
        // "Copied" describes the text that was copied: a new text clears it.
        let copied = copied.clone();
        use_effect_with(
            (ctx.state.revision, *format, *started, (*options).clone()),
            move |(_, f, started, options)| {
                copied.set(None);
                if *started {
                    asked.borrow().set(worker.send(Op::Export {
                        format: *f,
                        scenario: Box::new((*scenario).clone()),
                        options: options.clone(),
                    }));
                    answer.set(None);
                }
            },
        );
    }
    let writing = answer.is_none();
    let view: Rc<Result<ExportView, String>> = (*answer).clone().unwrap_or_else(|| {
        Rc::new(Ok(ExportView {
            text: String::new(),
            unexpressed: Vec::new(),
        }))
    });
    let onchange = {
        let (format, copied) = (format.clone(), copied.clone());
        Callback::from(move |e: Event| {
            if let Some(f) = Format::from_name(&event_value(&e)) {
                format.set(f);
                copied.set(None);
            }
        })
    };
    let text = match &*view {
        Ok(v) => v.text.clone(),
        Err(_) => String::new(),
    };
    let copy = {
        let (copied, text) = (copied.clone(), text.clone());
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            platform::copy_with_fallback(&text, "export-text", move |ok| copied.set(Some(ok)));
        })
    };
    html! {
        <section class="io-part" aria-labelledby="export-title">
            <h3 id="export-title">{ "Export" }</h3>
            <div class="field">
                <label for="export-format">{ "Format" }</label>
                <select id="export-format" data-testid="export-format" {onchange}>
                    { for interchange::EXPORT_FORMATS.iter().map(|f| html! {
                        <option value={f.name()} ~selected={*f == *format}>{ format!("{} ({})", f.title(), f.name()) }</option>
                    }) }
                </select>
            </div>
            // Keyed by the imports: an import shows its values in the fields.
            if *format == Format::Strimzi { <StrimziPlacement key={props.imports.to_string()} options={options.clone()} imports={props.imports.clone()} /> }
            <div class="field">
                <label for="export-text">{ format!("The scenario as {}", format.title()) }</label>
                <textarea id="export-text" data-testid="export-text" rows="8" readonly={true} spellcheck="false" value={text} />
            </div>
            <div class="copy-row">
                <button type="button" onclick={copy} disabled={writing || view.is_err()}>{ "Copy" }</button>
                <span class="msg ok" aria-live="polite" data-testid="export-copied">
                    { match *copied {
                        Some(true) => "Copied to the clipboard.",
                        Some(false) => "The browser did not allow copying: the text is selected, press Ctrl+C (⌘C on a Mac).",
                        None => "",
                    } }
                </span>
            </div>
            { match &*view {
                _ if writing => html! { <p class="msg hint" data-testid="export-writing">{ "Writing…" }</p> },
                Err(m) => html! { <p class="msg error" role="alert">{ m.clone() }</p> },
                Ok(v) if !v.unexpressed.is_empty() => html! {
                    <div class="msg warn" data-testid="export-unexpressed">
                        <p>{ format!("{} cannot express {} of the scenario's quotas; they are left out of the text above:",
                            format.title(), if v.unexpressed.len() == 1 { "one" } else { "some" }) }</p>
                        <ul>{ for v.unexpressed.iter().map(|u| html! { <li>{ u.clone() }</li> }) }</ul>
                    </div>
                },
                Ok(_) => html! { <p class="msg hint">{ "Every quota of the scenario is in the text." }</p> },
            } }
        </section>
    }
}

/// The Strimzi export's apiVersion, `strimzi.io/cluster` label and
/// namespace, beside the export: an import of KafkaUsers fills them (as
/// `kafka-quota convert --to strimzi` keeps them), the user can change
/// them. A value Kubernetes would refuse stays in its field with the
/// reason ([`strimzi::cluster_label`], [`strimzi::namespace`]) and the
/// export keeps the last accepted one.
#[function_component(StrimziPlacement)]
fn strimzi_placement(props: &IoProps) -> Html {
    let options = props.options.clone();
    // What is typed, which may not be accepted yet: (cluster, namespace).
    let typed = {
        let o = (*options).clone();
        use_state(move || (o.strimzi_cluster.unwrap_or_default(), o.strimzi_namespace.unwrap_or_default()))
    };
    let cluster_error = {
        let t = typed.0.trim();
        (!t.is_empty()).then(|| strimzi::cluster_label(t).err()).flatten()
    };
    let namespace_error = {
        let t = typed.1.trim();
        (!t.is_empty()).then(|| strimzi::namespace(t).err()).flatten()
    };
    let on_cluster = {
        let (options, typed) = (options.clone(), typed.clone());
        Callback::from(move |e: InputEvent| {
            let v = event_value(&e);
            let t = v.trim().to_owned();
            typed.set((v, typed.1.clone()));
            if t.is_empty() || strimzi::cluster_label(&t).is_ok() {
                options.set(ExportOptions { strimzi_cluster: (!t.is_empty()).then_some(t), ..(*options).clone() });
            }
        })
    };
    let on_namespace = {
        let (options, typed) = (options.clone(), typed.clone());
        Callback::from(move |e: InputEvent| {
            let v = event_value(&e);
            let t = v.trim().to_owned();
            typed.set((typed.0.clone(), v));
            if t.is_empty() || strimzi::namespace(&t).is_ok() {
                options.set(ExportOptions { strimzi_namespace: (!t.is_empty()).then_some(t), ..(*options).clone() });
            }
        })
    };
    let on_version = {
        let options = options.clone();
        Callback::from(move |e: Event| {
            if let Ok(v) = strimzi::api_version(&event_value(&e)) {
                let v = (v != strimzi::DEFAULT_API_VERSION).then(|| v.to_owned());
                options.set(ExportOptions { strimzi_api_version: v, ..(*options).clone() });
            }
        })
    };
    let version = options.strimzi_api_version.clone().unwrap_or_else(|| strimzi::DEFAULT_API_VERSION.to_owned());
    html! {
        <fieldset class="strimzi-placement" data-testid="strimzi-placement">
            <legend>{ "Where the KafkaUsers go" }</legend>
            <div class="field">
                <label for="strimzi-cluster">{ "strimzi.io/cluster label" }</label>
                <input id="strimzi-cluster" data-testid="strimzi-cluster" type="text" spellcheck="false" autocomplete="off"
                    placeholder={strimzi::DEFAULT_CLUSTER} value={typed.0.clone()} oninput={on_cluster}
                    aria-invalid={cluster_error.is_some().to_string()} aria-describedby="strimzi-cluster-msg" />
                <p id="strimzi-cluster-msg" class={classes!("msg", if cluster_error.is_some() { "error" } else { "hint" })} data-testid="strimzi-cluster-msg">
                    { match &cluster_error {
                        Some(e) => format!("{e}; the export keeps {}.", options.strimzi_cluster.as_deref().unwrap_or(strimzi::DEFAULT_CLUSTER)),
                        None => "The name of the Kafka resource whose User Operator manages these users (empty: my-cluster).".to_owned(),
                    } }
                </p>
            </div>
            <div class="field">
                <label for="strimzi-namespace">{ "Namespace" }</label>
                <input id="strimzi-namespace" data-testid="strimzi-namespace" type="text" spellcheck="false" autocomplete="off"
                    placeholder="(none: kubectl's current namespace)" value={typed.1.clone()} oninput={on_namespace}
                    aria-invalid={namespace_error.is_some().to_string()} aria-describedby="strimzi-namespace-msg" />
                <p id="strimzi-namespace-msg" class={classes!("msg", if namespace_error.is_some() { "error" } else { "hint" })} data-testid="strimzi-namespace-msg">
                    { match &namespace_error {
                        Some(e) => format!("{e}; the export keeps {}.", options.strimzi_namespace.as_deref().map_or("no namespace".to_owned(), |n| n.to_owned())),
                        None => "The namespace the User Operator watches (empty: none written).".to_owned(),
                    } }
                </p>
            </div>
            <div class="field">
                <label for="strimzi-api-version">{ "apiVersion" }</label>
                <select id="strimzi-api-version" data-testid="strimzi-api-version" onchange={on_version}>
                    { for strimzi::API_VERSIONS.iter().rev().map(|v| html! {
                        <option value={*v} ~selected={*v == version}>{ *v }</option>
                    }) }
                </select>
                <p class="msg hint">{ "Strimzi 1.0 and later serve only kafka.strimzi.io/v1; v1beta2 is for Strimzi before 0.49." }</p>
            </div>
        </fieldset>
    }
}
