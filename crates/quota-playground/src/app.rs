//! The root component: the reducer, the derived values, the context's
//! providers, and the page layout (or one panel in embed mode). What the
//! panels read (the context, the panels and embeds) lives in [`crate::ctx`],
//! so a component imports its context, not its parent.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::{
    AnswerPanel, ClusterPanel, ConnectionPanel, HelpSheet, InterchangePanel, LessonsPanel, NoticeBar, QuotasPanel, ResolutionPanel, SharePanel, SimulationPanel,
};
use crate::ctx::*;
use crate::hooks;
use crate::model::Analysis;
use crate::platform;
use crate::state::AppState;
use crate::text_problems::{use_text_scenario, TextLoad, TextProblems};

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
    // The page's two workers, owned here for the page's life and provided
    // to the panels (`ctx::Workers`).
    let workers = (*use_memo((), |_| Workers::default())).clone();
    let (sim, updating) = crate::sim_view::use_simulation(&workers.sim, rev, &state.scenario, eager);
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
    // Before the landing's effect (a component's effects run in the order
    // of its hooks): the prerendered copy above `#app` goes first, so the
    // panel is scrolled to where it will stay.
    hooks::use_first_render_mark();
    use_effect_with((), move |_| {
        if let (None, Some(p)) = (embed, landing) {
            reveal(p);
        }
    });
    hooks::use_url_sync(rev, &link, embed.is_some(), state.dispatcher());
    hooks::use_playback(&state, sim.end_ms());
    hooks::use_keyboard(&state, &sim);
    hooks::use_embed_height(embed.is_some());
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
    let text_load = use_text_scenario(&state, &workers.interchange);
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
        <ContextProvider<Workers> context={workers}>
            <ContextProvider<Ctx> context={ctx}>
                <ContextProvider<SceneCtx> context={scene}>{ body }</ContextProvider<SceneCtx>>
            </ContextProvider<Ctx>>
        </ContextProvider<Workers>>
    }
}

fn scroll_to(p: Panel) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        reveal(p);
    })
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
