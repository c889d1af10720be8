//! What every panel reads, below the root component: the context ([`Ctx`],
//! and [`SceneCtx`] for the panels that do not follow the cursor), the
//! panels and what an embed shows of one ([`Panel`], [`Trim`]), and the
//! page links between panels ([`reveal`], [`linked_panel`]). The root
//! ([`crate::app`]) provides the context; components import it from here.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::Analysis;
use crate::sim_worker::SimClient;
use crate::worker::InterchangeClient;
use crate::sim_view::SimView;
use crate::state::AppState;

/// The page's two Web Workers, each behind its typed bridge
/// ([`crate::bridge::Link`]): the simulation ([`SimClient`]) and the
/// import/export ([`InterchangeClient`]). The App creates them once and
/// provides them (`ContextProvider<Workers>`) for the page's life; the
/// panels take them with [`use_workers`]. Nothing is started until a panel
/// asks. Compared by identity.
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Workers {
    /// The simulation worker's client (and its main-thread fallback).
    pub(crate) sim: SimClient,
    /// The import/export worker's client.
    pub(crate) interchange: InterchangeClient,
}

/// The page's [`Workers`], from the App's provider. Outside one (a
/// component rendered alone), a pair of its own, kept for the component's
/// life, that starts nothing until used.
#[hook]
pub(crate) fn use_workers() -> Workers {
    let own = use_memo((), |_| Workers::default());
    use_context::<Workers>().unwrap_or_else(|| (*own).clone())
}

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
    /// Every field by name, so a field added to `Ctx` does not compile
    /// until it is compared here; the derived values by pointer (each is
    /// made once per revision or run).
    fn eq(&self, other: &Self) -> bool {
        let Ctx { state, analysis, sim, updating, link, embed, narrow, trim } = self;
        *state == other.state
            && Rc::ptr_eq(analysis, &other.analysis)
            && Rc::ptr_eq(sim, &other.sim)
            && *updating == other.updating
            && Rc::ptr_eq(link, &other.link)
            && *embed == other.embed
            && *narrow == other.narrow
            && *trim == other.trim
    }
}

/// The context of the panels that do not follow the cursor: equal as long
/// as nothing but the cursor or playback changed, so moving the cursor
/// re-renders only the simulation panel.
#[derive(Clone)]
pub(crate) struct SceneCtx(pub(crate) Ctx);

impl PartialEq for SceneCtx {
    /// Every field of the context and of the state by name (a field added
    /// to either does not compile until it is placed here), those the
    /// scene's panels do not read marked `_` with why.
    fn eq(&self, other: &Self) -> bool {
        // The run (`sim`, `updating`) and the window's width (`narrow`) are
        // read by the panels that take `use_ctx`; `link` is made once per
        // revision.
        let Ctx { state, analysis, sim: _, updating: _, link: _, embed, narrow: _, trim } = &self.0;
        // The scenario changes with `revision`; the cursor, playback and
        // the chart's focus belong to the Simulation panel.
        let AppState {
            scenario: _,
            revision,
            origin,
            selected,
            compare,
            cursor_ms: _,
            playing: _,
            speed: _,
            redact_links,
            help_open,
            notice,
            focus_sensor: _,
            focus_client: _,
        } = &**state;
        let b = &*other.0.state;
        *revision == b.revision
            && *selected == b.selected
            && *compare == b.compare
            && *redact_links == b.redact_links
            && *help_open == b.help_open
            && *notice == b.notice
            && *origin == b.origin
            && Rc::ptr_eq(analysis, &other.0.analysis)
            && *embed == other.0.embed
            && *trim == other.0.trim
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
