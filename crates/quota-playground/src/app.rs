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

/// A chart of the Simulation panel that an embed can show alone
/// (`?chart=<slug>`, the element's `chart` attribute).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chart {
    /// Records acknowledged or consumed over the run, per client.
    Progress,
    /// The producer's buffer (`buffer.memory`) of the client shown.
    Buffer,
    /// The quota window: the samples Kafka sums against quota × window.
    Window,
    /// The budget's measured rate against its quota over the run.
    Rate,
}

impl Chart {
    /// Every chart, in the panel's order.
    pub(crate) const ALL: [Chart; 4] = [Chart::Progress, Chart::Buffer, Chart::Window, Chart::Rate];

    /// The name used in `?chart=`.
    pub(crate) const fn slug(self) -> &'static str {
        match self {
            Chart::Progress => "progress",
            Chart::Buffer => "buffer",
            Chart::Window => "window",
            Chart::Rate => "rate",
        }
    }

    /// What the chart shows, for the list of names a bad value gets.
    pub(crate) const fn what(self) -> &'static str {
        match self {
            Chart::Progress => "records acknowledged or consumed",
            Chart::Buffer => "the producer's buffer",
            Chart::Window => "the quota window's samples",
            Chart::Rate => "the measured rate against the quota",
        }
    }

    /// Whether the chart shows one budget (the one the panel's budget
    /// picker chose).
    pub(crate) const fn of_a_budget(self) -> bool {
        matches!(self, Chart::Window | Chart::Rate)
    }
}

/// What an embed shows of its panel (`?quota=`, `?chart=`): every quota
/// type and every chart when `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Trim {
    /// Only the answers, ladders, budgets and charts of this quota key.
    pub(crate) key: Option<quota_engine::QuotaKey>,
    /// Only this chart of the Simulation panel.
    pub(crate) chart: Option<Chart>,
}

/// The panels `?quota=` trims.
const TRIMMED_BY_QUOTA: [Panel; 4] = [Panel::Answer, Panel::Resolution, Panel::Simulation, Panel::Cluster];

/// Reads `?quota=` and `?chart=` for an embed of `panel`: what to show,
/// and a sentence for each value that cannot be used (naming the
/// parameter and the values it takes; the panel is then shown whole on
/// that account, never blank).
pub(crate) fn embed_trim(panel: Panel, quota: Option<&str>, chart: Option<&str>) -> (Trim, Vec<String>) {
    let mut trim = Trim::default();
    let mut warnings = Vec::new();
    let shown = |v: &str| {
        let s: String = v.chars().take(40).collect();
        if v.chars().count() > 40 { format!("{s}…") } else { s }
    };
    if let Some(v) = quota.map(str::trim).filter(|v| !v.is_empty()) {
        let keys: Vec<&str> = quota_engine::QuotaKey::ALL.iter().map(|k| k.as_str()).collect();
        match quota_engine::QuotaKey::from_name(&v.to_ascii_lowercase()) {
            None => warnings.push(format!(
                "'{}' is not a quota type; quota= takes one of {}. Showing every quota type.",
                shown(v),
                keys.join(", ")
            )),
            Some(_) if !TRIMMED_BY_QUOTA.contains(&panel) => warnings.push(format!(
                "quota= trims the {} panels; the {} panel is shown whole.",
                TRIMMED_BY_QUOTA.map(Panel::slug).join(", "),
                panel.slug()
            )),
            Some(k) => trim.key = Some(k),
        }
    }
    if let Some(v) = chart.map(str::trim).filter(|v| !v.is_empty()) {
        let names: Vec<String> = Chart::ALL.iter().map(|c| format!("{} ({})", c.slug(), c.what())).collect();
        match Chart::ALL.into_iter().find(|c| c.slug() == v.to_ascii_lowercase()) {
            None => warnings.push(format!(
                "'{}' is not a chart; chart= takes one of {}. Showing every chart.",
                shown(v),
                names.join(", ")
            )),
            Some(c) if panel != Panel::Simulation => warnings.push(format!(
                "chart={} picks a chart of the simulation panel; the {} panel is shown whole.",
                c.slug(),
                panel.slug()
            )),
            Some(c) => trim.chart = Some(c),
        }
    }
    (trim, warnings)
}

/// The style rules that trim the Simulation and Cluster panels to `trim`
/// (the panels draw every chart and budget; an embed hides the others).
/// `metered`: whether the run metered a budget of the trimmed key. Empty
/// when nothing is trimmed.
pub(crate) fn trim_css(panel: Panel, trim: Trim, metered: bool) -> String {
    let mut css = String::new();
    if let (Panel::Simulation, Some(c)) = (panel, trim.chart) {
        let id = format!("[data-testid=chart-{}]", c.slug());
        // The player, the outcome and the chart (with the budget picker for
        // a chart of one budget); no tables, no other chart.
        let keep = if c.of_a_budget() { ":not(.field)" } else { "" };
        css.push_str(&format!(
            "#simulation .sim-body>:not(.transport):not(.run-outcome):not(.charts){keep}{{display:none}}\
             #simulation .charts:not(:has({id})),#simulation .charts>.fig:not(:has({id})){{display:none}}"
        ));
    }
    if let (Panel::Simulation, Some(k)) = (panel, trim.key) {
        // The Admin clients' section is of controller_mutation_rate only.
        if k != quota_engine::QuotaKey::ControllerMutationRate {
            css.push_str("#simulation .admin-clients{display:none}");
        }
    }
    if let Some(k) = trim.key {
        // The cluster view lists the produce and fetch budgets by MBean.
        if let (Panel::Cluster, Some(qt)) = (panel, k.quota_type()) {
            let t = qt.metric_type();
            css.push_str(&format!(
                "#cluster tr[data-mbean]:not([data-mbean^=\"kafka.server:type={t},\"]):not([data-mbean=\"kafka.server:type={t}\"]){{display:none}}"
            ));
        }
        if !metered {
            // No budget of this key: the budget tables, picker and charts
            // would show another key's, so they go (a note says why).
            match panel {
                Panel::Simulation => css.push_str(
                    "#simulation .sim-body>.field,#simulation .sim-body>.charts:has([data-testid=chart-window]),#simulation .sim-body>.table-wrap:has(.throttles){display:none}",
                ),
                Panel::Cluster => css.push_str("#cluster .table-wrap:has(.cluster-budgets){display:none}"),
                _ => {}
            }
        }
    }
    css
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
    /// What an embed shows of its panel (`?quota=`, `?chart=`).
    pub(crate) trim: Trim,
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
            && self.trim == other.trim
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
            && self.0.trim == other.0.trim
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
    let (trim, trim_notes) = {
        let q = use_memo((), |_| (platform::query_param("quota"), platform::query_param("chart")));
        match embed {
            Some(p) => embed_trim(p, q.0.as_deref(), q.1.as_deref()),
            None => (Trim::default(), Vec::new()),
        }
    };
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
    // A budget of the trimmed key in the run: the one the charts show
    // (the first the run throttled, else the first), `None` without one.
    let key_sensor = trim.key.and_then(|k| {
        let t = sim.result.as_ref().ok()?;
        let of_key = |s: &&quota_engine::sim::SensorTrack| Some(s.quota_type) == k.quota_type();
        let first = t.sensors.iter().position(|s| of_key(&s) && s.throttles.iter().any(|e| e.applied));
        first.or_else(|| t.sensors.iter().position(|s| of_key(&s)))
    });
    {
        // The charts show a budget of that key.
        let state = state.clone();
        let sensors = sim.result.as_ref().map(|t| t.sensors.len()).unwrap_or(0);
        use_effect_with((key_sensor, sensors), move |(i, _)| {
            // Once per run: a budget picked afterwards stays.
            if let Some(i) = i.and_then(|i| u32::try_from(i).ok()) {
                if state.focus_sensor != Some(i) {
                    state.dispatch(crate::state::Action::FocusSensor(i));
                }
            }
        });
    }
    let metered = trim.key.is_none() || key_sensor.is_some();
    let trim_style = embed.map(|p| trim_css(p, trim, metered || sim.waiting)).unwrap_or_default();
    // An Admin client's controller_mutation_rate bucket is in its own
    // section (not a sensor of the run): shown, so the note is not said.
    let admin_metered = trim.key == Some(quota_engine::QuotaKey::ControllerMutationRate)
        && embed == Some(Panel::Simulation)
        && sim.result.as_ref().is_ok_and(|t| t.admin.iter().any(|a| a.quota.is_some()));
    let unmetered_note = match (embed, trim.key) {
        (Some(Panel::Simulation | Panel::Cluster), Some(k)) if !metered && !admin_metered && !sim.waiting && sim.result.is_ok() => Some(format!(
            "The run metered no {} budget, so no budget, chart or throttle of it is shown.",
            k.as_str()
        )),
        _ => None,
    };
    let ctx = Ctx { state: state.clone(), analysis, sim, updating, link: link.clone(), embed, narrow, trim };
    let body = match embed {
        Some(panel) => html! {
            <main class={classes!("embed", readonly.then_some("readonly"))} data-testid="embed" data-panel={panel.slug()}
                data-quota={trim.key.map(|k| k.as_str())} data-chart={trim.chart.map(Chart::slug)}>
                if let Some(w) = embed_note {
                    <p class="msg warn" role="note" data-testid="embed-warning">{ "⚠ " }{ w }</p>
                }
                { for trim_notes.iter().map(|w| html! { <p class="msg warn" role="note" data-testid="embed-warning">{ "⚠ " }{ w.clone() }</p> }) }
                if !trim_style.is_empty() { <style data-testid="embed-trim">{ trim_style.clone() }</style> }
                if let Some(n) = &unmetered_note { <p class="msg hint" role="note" data-testid="embed-trim-note">{ n.clone() }</p> }
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
    fn quota_and_chart_trim_their_panels_and_a_bad_value_names_the_parameter_and_its_values() {
        use quota_engine::QuotaKey;
        assert_eq!(embed_trim(Panel::Answer, None, None), (Trim::default(), vec![]));
        assert_eq!(embed_trim(Panel::Answer, Some(" Consumer_Byte_Rate "), Some("")).0.key, Some(QuotaKey::ConsumerByteRate));
        let (t, w) = embed_trim(Panel::Simulation, Some("producer_byte_rate"), Some("rate"));
        assert_eq!(t, Trim { key: Some(QuotaKey::ProducerByteRate), chart: Some(Chart::Rate) });
        assert!(w.is_empty());
        for c in Chart::ALL {
            assert_eq!(embed_trim(Panel::Simulation, None, Some(c.slug())).0.chart, Some(c));
        }
        let (t, w) = embed_trim(Panel::Answer, Some("bytes"), None);
        assert_eq!(t, Trim::default());
        assert_eq!(w, vec!["'bytes' is not a quota type; quota= takes one of producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate, connection_creation_rate. Showing every quota type.".to_owned()]);
        let (t, w) = embed_trim(Panel::Simulation, None, Some("pie"));
        assert_eq!(t.chart, None);
        assert_eq!(w, vec!["'pie' is not a chart; chart= takes one of progress (records acknowledged or consumed), buffer (the producer's buffer), window (the quota window's samples), rate (the measured rate against the quota). Showing every chart.".to_owned()]);
        let (t, w) = embed_trim(Panel::Answer, None, Some("rate"));
        assert_eq!(t.chart, None);
        assert_eq!(w, vec!["chart=rate picks a chart of the simulation panel; the answer panel is shown whole.".to_owned()]);
        let (t, w) = embed_trim(Panel::Quotas, Some("request_percentage"), None);
        assert_eq!(t.key, None);
        assert_eq!(w, vec!["quota= trims the answer, resolution, simulation, cluster panels; the quotas panel is shown whole.".to_owned()]);
        // The style: only the simulation and cluster panels need one.
        assert_eq!(trim_css(Panel::Answer, Trim { key: Some(QuotaKey::ProducerByteRate), chart: None }, true), "");
        let css = trim_css(Panel::Simulation, Trim { key: None, chart: Some(Chart::Rate) }, true);
        assert!(css.contains(".fig:not(:has([data-testid=chart-rate]))"), "{css}");
        assert!(css.contains(":not(.charts):not(.field)"), "{css}");
        let css = trim_css(Panel::Cluster, Trim { key: Some(QuotaKey::ConsumerByteRate), chart: None }, true);
        assert!(css.contains(r#":not([data-mbean^="kafka.server:type=Fetch,"])"#), "{css}");
        assert!(trim_css(Panel::Cluster, Trim { key: Some(QuotaKey::RequestPercentage), chart: None }, false).contains(".table-wrap:has(.cluster-budgets){display:none}"));
        // The Admin clients' section stays for controller_mutation_rate only.
        let admin = "#simulation .admin-clients{display:none}";
        assert!(trim_css(Panel::Simulation, Trim { key: Some(QuotaKey::ProducerByteRate), chart: None }, true).contains(admin));
        assert!(!trim_css(Panel::Simulation, Trim { key: Some(QuotaKey::ControllerMutationRate), chart: None }, false).contains(admin));
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
