//! The root component: the reducer, the derived values, the context, and the
//! page layout (or one panel in embed mode).

use std::rc::Rc;

use yew::prelude::*;

use crate::components::{
    AnswerPanel, ClusterPanel, ConnectionPanel, HelpSheet, InterchangePanel, LessonsPanel, NoticeBar, QuotasPanel, ResolutionPanel, SharePanel, SimulationPanel,
};
use crate::hooks;
use crate::model::Analysis;
use crate::platform;
use crate::sim_view::SimView;
use crate::state::AppState;
use crate::text_problems::{use_text_scenario, TextLoad, TextProblems};

/// A panel that can be embedded on its own (`?embed=<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// The one-sentence answer per connection.
    Answer,
    /// The quotas editor.
    Quotas,
    /// The connection and its principal.
    Connection,
    /// The precedence ladders.
    Resolution,
    /// The simulation with its transport.
    Simulation,
    /// The cluster and time editor, and the per-broker view.
    Cluster,
    /// The lessons.
    Lessons,
    /// The import box and the export menu.
    Import,
}

impl Panel {
    /// Every panel, in page order.
    pub const ALL: [Panel; 8] = [
        Panel::Answer,
        Panel::Lessons,
        Panel::Quotas,
        Panel::Import,
        Panel::Connection,
        Panel::Resolution,
        Panel::Simulation,
        Panel::Cluster,
    ];

    /// The name used in `?embed=`.
    pub const fn slug(self) -> &'static str {
        match self {
            Panel::Answer => "answer",
            Panel::Quotas => "quotas",
            Panel::Connection => "connection",
            Panel::Resolution => "resolution",
            Panel::Simulation => "simulation",
            Panel::Cluster => "cluster",
            Panel::Lessons => "lessons",
            Panel::Import => "import",
        }
    }

    /// The panel's heading.
    pub const fn title(self) -> &'static str {
        match self {
            Panel::Answer => "Answer",
            Panel::Quotas => "Quotas",
            Panel::Connection => "Connection",
            Panel::Resolution => "Resolution",
            Panel::Simulation => "Simulation",
            Panel::Cluster => "Cluster and time",
            Panel::Lessons => "Lessons",
            Panel::Import => "Import/export",
        }
    }

    /// Whether the panel is an editor of the scenario (every control of it
    /// changes the scenario or loads another), so a read-only embed
    /// disables all of its controls.
    pub const fn edits(self) -> bool {
        matches!(self, Panel::Quotas | Panel::Connection | Panel::Lessons | Panel::Import)
    }

    /// The embedded panel for `?embed=<value>`: a bare `?embed` (or an
    /// unknown name) shows the simulation.
    pub fn from_query(value: Option<&str>) -> Option<Panel> {
        let v = value?.trim().to_ascii_lowercase();
        Some(Panel::ALL.into_iter().find(|p| p.slug() == v).unwrap_or(Panel::Simulation))
    }
}

/// Whether `?readonly[=<value>]` asks for a read-only embed: a bare
/// `?readonly` or any value but `0`, `false`, `off` and `no`. The
/// `<kafka-quota-playground>` element (web/kafka-quota-embed.js) adds it
/// unless told `readonly="false"`.
pub(crate) fn is_readonly(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim().to_ascii_lowercase().as_str(), "0" | "false" | "off" | "no"))
}

/// What to say when `?embed=<value>` names no panel (the simulation is
/// shown instead): the valid names. `None` for a known name, a bare
/// `?embed` or no parameter.
pub(crate) fn embed_warning(value: Option<&str>) -> Option<String> {
    let v = value?;
    if v.is_empty() || Panel::ALL.iter().any(|p| p.slug() == v.trim().to_ascii_lowercase()) {
        return None;
    }
    let shown: String = v.chars().take(40).collect();
    let ellipsis = if v.chars().count() > 40 { "…" } else { "" };
    let names: Vec<&str> = Panel::ALL.iter().map(|p| p.slug()).collect();
    Some(format!(
        "'{shown}{ellipsis}' is not a panel name; ?embed= takes one of {}. Showing the simulation panel.",
        names.join(", ")
    ))
}

/// What every panel reads: the state (with its dispatcher), the analysis
/// and the simulation of its scenario, and the embed mode.
#[derive(Clone)]
pub(crate) struct Ctx {
    /// The state and its dispatcher.
    pub(crate) state: UseReducerHandle<AppState>,
    /// Principals, managers and budgets of the scenario.
    pub(crate) analysis: Rc<Analysis>,
    /// The Timeline of the scenario (of an earlier revision while
    /// `updating`).
    pub(crate) sim: Rc<SimView>,
    /// A newer revision is being simulated in the worker.
    pub(crate) updating: bool,
    /// The scenario's permalink (`quota_formats::permalink::encode`, the
    /// text after `#`), made once per revision: the address bar, the
    /// autosave, the Share panel and an embed's "Open" link use it.
    pub(crate) link: Rc<str>,
    /// The embedded panel, if the page is an embed.
    pub(crate) embed: Option<Panel>,
    /// The viewport is under 600 px wide (the charts' narrow layout); kept
    /// current as the window is resized ([`hooks::use_narrow`]).
    pub(crate) narrow: bool,
}

impl PartialEq for Ctx {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
            && Rc::ptr_eq(&self.analysis, &other.analysis)
            && Rc::ptr_eq(&self.sim, &other.sim)
            && self.updating == other.updating
            && Rc::ptr_eq(&self.link, &other.link)
            && self.embed == other.embed
            && self.narrow == other.narrow
    }
}

/// The context of the panels that do not follow the cursor: equal as long
/// as nothing but the cursor or playback changed, so moving the cursor
/// re-renders only the simulation panel.
#[derive(Clone)]
pub(crate) struct SceneCtx(pub(crate) Ctx);

impl PartialEq for SceneCtx {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&*self.0.state, &*other.0.state);
        a.revision == b.revision
            && a.selected == b.selected
            && a.compare == b.compare
            && a.redact_links == b.redact_links
            && a.help_open == b.help_open
            && a.notice == b.notice
            && a.origin == b.origin
            && Rc::ptr_eq(&self.0.analysis, &other.0.analysis)
            && self.0.embed == other.0.embed
    }
}

/// The context of a panel that does not follow the cursor.
#[hook]
pub(crate) fn use_scene() -> Ctx {
    use_context::<SceneCtx>().expect("SceneCtx provider").0
}

/// The context of the panels.
#[hook]
pub(crate) fn use_ctx() -> Ctx {
    // The provider wraps every panel; a missing context is a programming error
    // that the tests of the page catch at once.
    use_context::<Ctx>().expect("Ctx provider")
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let embed_param = use_memo((), |_| platform::query_param("embed"));
    let embed = Panel::from_query(embed_param.as_deref());
    let embed_note = embed_warning(embed_param.as_deref());
    let readonly = embed.is_some() && is_readonly(platform::query_param("readonly").as_deref());
    let state = use_reducer(|| {
        let (scenario, origin, notice) = platform::initial_scenario(embed.is_some());
        let mut s = AppState::new(scenario, origin);
        s.notice = notice;
        s
    });
    let rev = state.revision;
    let timer = hooks::use_recompute_timer(rev);
    hooks::use_frame_mark(state.cursor_ms);
    let analysis = {
        let scenario = state.scenario.clone();
        use_memo(rev, move |_| Analysis::new(&scenario))
    };
    // An embed of a panel that shows the run wants it at once (its frame
    // may sit below the docs page's fold, where no panel comes near), and so
    // does an embed of the Answer, which says when the run loses records
    // (`RunLoss`) and has no run panel of its own to come near.
    let eager = matches!(embed, Some(Panel::Answer | Panel::Simulation | Panel::Cluster));
    let (sim, updating) = crate::sim_view::use_simulation(rev, &state.scenario, eager);
    // Before the run-dependent hooks: the height reported after this
    // render says `pending` while an embed's first run is awaited.
    // (Not for the Answer: its sentences do not wait for the run.)
    platform::set_embed_run_pending(matches!(embed, Some(Panel::Simulation | Panel::Cluster)) && sim.waiting);
    let link = {
        let scenario = state.scenario.clone();
        (*use_memo(rev, move |_| Rc::<str>::from(quota_formats::permalink::encode(&scenario)))).clone()
    };
    // A page opened at a panel's link (`#/cluster`) opens at that panel,
    // once drawn (read before the page writes its scenario's link there).
    let landing = *use_memo((), |_| linked_panel(&platform::location_hash()));
    use_effect_with((), move |_| {
        if let (None, Some(p)) = (embed, landing) {
            reveal(p);
        }
    });
    hooks::use_url_sync(rev, &link, embed.is_some(), state.dispatcher());
    hooks::use_playback(&state, sim.end_ms());
    hooks::use_keyboard(&state, &sim);
    hooks::use_embed_height(embed.is_some());
    hooks::use_first_render_mark();
    hooks::use_test_panic();
    hooks::use_recompute_mark(rev, timer);
    let narrow = hooks::use_narrow();
    // An embedded run opens at its end: a docs page shows what happened (the
    // throttles, the outcome) rather than an empty first instant; Play
    // replays it from the start.
    {
        let state = state.clone();
        let end = sim.end_ms();
        let at_start = embed.is_some() && state.cursor_ms == 0.0 && !state.playing;
        use_effect_with(end.to_bits(), move |_| {
            if at_start && end > 0.0 {
                state.dispatch(crate::state::Action::Seek { to_ms: end, end_ms: end });
            }
        });
    }

    // A `#text=` scenario: read by the worker; its problems, if any, shown
    // with the text (in the full page until the first edit).
    let text_load = use_text_scenario(&state);
    let text_box = match &text_load {
        Some(TextLoad::Failed(errors)) if embed.is_some() || state.revision == 1 => Some(html! { <TextProblems errors={errors.clone()} /> }),
        Some(TextLoad::Pending) => Some(html! { <p class="msg hint" role="status" data-testid="text-pending">{ "Reading the scenario text of the link…" }</p> }),
        _ => None,
    };
    // In the full page the panels below show the default scenario meanwhile.
    let full_text_box = match &text_load {
        Some(TextLoad::Failed(errors)) if state.revision == 1 => html! {
            <TextProblems errors={errors.clone()} note={Some(AttrValue::from("The panels below show the default scenario; the first edit hides this box."))} />
        },
        Some(TextLoad::Edited { load }) => html! { <crate::text_problems::TextNotLoaded load={load.clone()} /> },
        _ => text_box.clone().unwrap_or_default(),
    };
    let ctx = Ctx { state: state.clone(), analysis, sim, updating, link: link.clone(), embed, narrow };
    let body = match embed {
        Some(panel) => html! {
            <main class={classes!("embed", readonly.then_some("readonly"))} data-testid="embed" data-panel={panel.slug()}>
                if let Some(w) = embed_note {
                    <p class="msg warn" role="note" data-testid="embed-warning">{ "⚠ " }{ w }</p>
                }
                // A damaged link says so in an embed too (the default
                // scenario is shown, and the reader should know).
                // (A `#text=` with problems has its own box, below.)
                if text_box.is_none() && state.notice.as_ref().is_some_and(|n| n.level == crate::state::NoticeLevel::Error) { <NoticeBar /> }
                if let Some(b) = text_box.clone() {
                    // The text and its problems (or a line while the worker
                    // reads it) instead of the default scenario's panel,
                    // which would mislead a docs reader.
                    { b }
                } else if readonly && panel.edits() {
                    // Every control of an editing panel disabled at once; the
                    // panel stays readable (the simulation and resolution
                    // panels keep their viewing controls, see web/style.css).
                    <fieldset class="readonly-panel" disabled={true}>{ panel_view(panel) }</fieldset>
                } else {
                    { panel_view(panel) }
                }
                if state.help_open { <HelpSheet /> }
                <p class="embed-foot">
                    <a href={format!("{}#{}", platform::page_base(),
                            if matches!(text_load, Some(TextLoad::Failed(_))) { platform::location_hash() } else { link.to_string() })}
                       target="_blank" rel="noopener">{ "Open in the Kafka Quota Playground" }</a>
                </p>
            </main>
        },
        None => html! {
            <>
                <header class="top">
                    <div class="brand">
                        <h1>{ "Kafka Quota Playground" }</h1>
                        <p class="tagline">{ "Which quota applies, why, and what throttling does to a client: Kafka 4.x rules, simulated in your browser." }</p>
                    </div>
                    <nav aria-label="Panels" class="toc">
                        { for Panel::ALL.iter().map(|p| html! { <a href={format!("#/{}", p.slug())} onclick={scroll_to(*p)}>{ p.title() }</a> }) }
                    </nav>
                    <button type="button" class="ghost" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)"
                        onclick={let d = state.dispatcher(); move |_| d.dispatch(crate::state::Action::SetHelp(true))}>{ "?" }</button>
                    // Seen from any panel while typing (the run's own marker is in
                    // the Simulation panel). After the button: empty, it would
                    // otherwise push the button one gap to the right on a phone.
                    <span class="header-status" aria-live="polite" data-testid="header-updating">{ if updating { "Simulating…" } else { "" } }</span>
                </header>
                <NoticeBar />
                <main class="page">
                    { full_text_box }
                    { panel_view(Panel::Answer) }
                    { panel_view(Panel::Lessons) }
                    <div class="columns">
                        <div class="col">
                            { panel_view(Panel::Quotas) }
                            { panel_view(Panel::Import) }
                            { panel_view(Panel::Connection) }
                        </div>
                        <div class="col">{ panel_view(Panel::Resolution) }</div>
                    </div>
                    { panel_view(Panel::Simulation) }
                    { panel_view(Panel::Cluster) }
                    <SharePanel />
                </main>
                <footer class="foot">
                    <p>{ "Every answer comes from quota-engine, a port of Kafka's own quota classes checked against vectors produced by Kafka. \
                          Quotas are per broker. Not modelled: custom quota callbacks, replication quotas, host name resolution for ip entities." }</p>
                </footer>
                if state.help_open { <HelpSheet /> }
            </>
        },
    };
    let scene = SceneCtx(ctx.clone());
    html! {
        <ContextProvider<Ctx> context={ctx}>
            <ContextProvider<SceneCtx> context={scene}>{ body }</ContextProvider<SceneCtx>>
        </ContextProvider<Ctx>>
    }
}

fn scroll_to(p: Panel) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        reveal(p);
    })
}

/// Scrolls panel `p` into view and focuses it (the keyboard shortcuts of
/// the Simulation panel then act).
pub(crate) fn reveal(p: Panel) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(p.slug())) {
        el.scroll_into_view();
        if let Ok(h) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
            let _ = h.focus();
        }
    }
}

/// The panel a page link names (`#/cluster`, as the header's panel links
/// read), if its hash (without `#`) is one.
pub(crate) fn linked_panel(hash: &str) -> Option<Panel> {
    let slug = hash.strip_prefix('/')?.trim().to_ascii_lowercase();
    Panel::ALL.into_iter().find(|p| p.slug() == slug)
}

fn panel_view(p: Panel) -> Html {
    match p {
        Panel::Answer => html! { <AnswerPanel /> },
        Panel::Quotas => html! { <QuotasPanel /> },
        Panel::Connection => html! { <ConnectionPanel /> },
        Panel::Resolution => html! { <ResolutionPanel /> },
        Panel::Simulation => html! { <SimulationPanel /> },
        Panel::Cluster => html! { <ClusterPanel /> },
        Panel::Lessons => html! { <LessonsPanel /> },
        Panel::Import => html! { <InterchangePanel /> },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embed_names_map_to_panels() {
        assert_eq!(Panel::from_query(None), None);
        assert_eq!(Panel::from_query(Some("")), Some(Panel::Simulation));
        assert_eq!(Panel::from_query(Some("resolution")), Some(Panel::Resolution));
        assert_eq!(Panel::from_query(Some("answer")), Some(Panel::Answer));
        assert_eq!(Panel::from_query(Some("<script>")), Some(Panel::Simulation));
        for p in Panel::ALL {
            assert_eq!(Panel::from_query(Some(p.slug())), Some(p));
        }
        assert_eq!(
            embed_warning(Some("bogus")).as_deref(),
            Some("'bogus' is not a panel name; ?embed= takes one of answer, lessons, quotas, import, connection, resolution, simulation, cluster. Showing the simulation panel.")
        );
        assert_eq!(embed_warning(Some("")), None);
        assert_eq!(embed_warning(None), None);
        assert_eq!(embed_warning(Some("quotas")), None);
        assert!(embed_warning(Some(&"x".repeat(100))).unwrap().starts_with(&format!("'{}…'", "x".repeat(40))));
    }

    #[test]
    fn a_panel_link_names_a_panel_and_nothing_else_does() {
        assert_eq!(linked_panel("/cluster"), Some(Panel::Cluster));
        assert_eq!(linked_panel("/Quotas"), Some(Panel::Quotas));
        assert_eq!(linked_panel("/nope"), None);
        assert_eq!(linked_panel("cluster"), None);
        assert_eq!(linked_panel("v1.abc"), None);
    }

    #[test]
    fn readonly_is_a_bare_flag_or_any_value_but_a_no() {
        assert!(!is_readonly(None));
        assert!(is_readonly(Some("")));
        assert!(is_readonly(Some("1")));
        assert!(is_readonly(Some("true")));
        for no in ["0", "false", "OFF", " no "] {
            assert!(!is_readonly(Some(no)), "{no}");
        }
    }
}
