//! The simulation panel: the clients and broker settings that matter (with
//! Kafka's names and defaults), the transport over simulated time, and what
//! the run shows at the cursor: the quota window, the measured rate against
//! the quota, throttles with their formula, mutes, the producer buffer,
//! latencies, and the client and broker metrics.

use quota_engine::sim::{Acks, ClientKind, Scenario, Timeline, Workload, HORIZON_CAP_MS};
use yew::prelude::*;

use super::charts::{self, fmt_rate_of};
use super::{event_value, in_short_list, show_all_line, NumberField, PanelBox, Run, SelectField};
use crate::ctx::{use_ctx, use_scene, Ctx};
use crate::model;
use crate::state::{Action, SPEEDS};

#[function_component(SimulationPanel)]
pub(crate) fn simulation_panel() -> Html {
    let ctx = use_ctx();
    html! {
        <PanelBox id="simulation" title="Simulation"
            subtitle="Producers and consumers run against the quotas in a deterministic simulation of the broker. The whole run is computed at once; the controls move a cursor over it.">
            <Setup />
            // The previous run stays on screen while the worker computes
            // the newest edit (crate::sim_view::use_simulation). The live
            // region stays in the page and only its text changes, which
            // screen readers announce (a region revealed by `hidden` often
            // is not).
            <p class="msg hint updating" role="status" data-testid="sim-updating">
                { updating_text(ctx.updating, ctx.sim.waiting) }
            </p>
            if let Some(note) = &ctx.sim.note { <p class="msg warn" role="note" data-testid="sim-note">{ "⚠ " }{ note.clone() }</p> }
            <div class={classes!("sim-body", ctx.updating.then_some("stale"))} aria-busy={ctx.updating.to_string()} data-testid="sim-body">
                <SimBody ctx={ctx.clone()} />
            </div>
        </PanelBox>
    }
}

/// The live region's text: empty when the run on screen is current.
fn updating_text(updating: bool, waiting: bool) -> &'static str {
    match (updating, waiting) {
        (false, false) => "",
        // Not asked yet: the run is computed once this panel comes near.
        (false, true) => "The run is computed when this panel comes into view.",
        (true, true) => "Simulating… this scenario's run is computed in the background and appears here when it arrives.",
        (true, false) => "Updating… the run below is the previous one until the new run arrives.",
    }
}

#[derive(Properties, Clone)]
struct SimBodyProps {
    ctx: Ctx,
}

impl PartialEq for SimBodyProps {
    /// Equal while only the scenario changed (or whether a run is being
    /// computed, shown outside): the run on screen changes with the
    /// simulation (a new `sim`), so typing while the worker computes does
    /// not lay out the previous run again.
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.ctx, &other.ctx);
        let mut view = (*a.state).clone();
        view.scenario = b.state.scenario.clone();
        view.revision = b.state.revision;
        std::rc::Rc::ptr_eq(&a.sim, &b.sim) && a.narrow == b.narrow && a.embed == b.embed && view == *b.state
    }
}

/// The run: transport, clients at the cursor, charts and tables.
#[function_component(SimBody)]
fn sim_body(p: &SimBodyProps) -> Html {
    let ctx = &p.ctx;
    // "Show all" of the clients table, the client metrics and the broker
    // MBeans: kept here, so that they outlive a run that failed (the
    // metrics' component is not rendered then).
    let all_clients = use_state(|| false);
    let all_metrics = use_state(|| false);
    let all_mbeans = use_state(|| false);
    // Once per run, not per cursor tick: it reads every client's end.
    let outcome = use_memo(Run(ctx.sim.clone()), |run| run.0.result.as_ref().ok().map(model::run_outcome));
    // The focused budget's rate curve, once per run and budget, not per
    // playback frame: each point replays its samples (`measured_at`).
    let curve = use_memo((Run(ctx.sim.clone()), ctx.state.focus_client, ctx.state.focus_sensor), |(run, fc, fs)| {
        let t = run.0.result.as_ref().ok()?;
        let (_, si) = model::focus(t, *fc, *fs);
        t.sensors.get(si).map(|s| s.rate_curve(t.end_ms.max(1.0)))
    });
    // The progress chart's lines, marks, label and legend, once per run and
    // chart width: a playback frame moves only its cursor line.
    let progress = use_memo((Run(ctx.sim.clone()), charts::chart_width_key()), |(run, _)| {
        run.0.result.as_ref().ok().map(charts::progress_parts)
    });
    // The Admin clients' token lines, once per run: each samples its
    // bucket over the run.
    let admin_points = use_memo(Run(ctx.sim.clone()), |run| {
        run.0.result.as_ref().ok().map_or_else(Vec::new, |t| {
            t.admin.iter().map(|a| charts::admin_token_points(a, t.end_ms, 240)).collect::<Vec<_>>()
        })
    });
    // The connects tracks' ready lines, once per run.
    let connects_steps = use_memo(Run(ctx.sim.clone()), |run| {
        run.0.result.as_ref().ok().map_or_else(Vec::new, |t| {
            t.connects.iter().map(|c| charts::ready_steps(c, t.end_ms)).collect::<Vec<_>>()
        })
    });
    match &ctx.sim.result {
        // No run yet (the first is in the worker): the live region says so.
        Err(_) if ctx.sim.waiting => html! {},
        Err(e) => html! { <p class="msg error" role="alert" data-testid="sim-error">{ e.clone() }</p> },
        Ok(t) => html! {
            <>
                // How the run ends, above the transport: lost records are said
                // before anyone plays the run to its end.
                { for (*outcome).as_ref().map(run_outcome_line) }
                <Transport />
                // A run of Admin clients only has no producer or consumer to list.
                if !t.clients.is_empty() {
                    { clients_table(ctx, t, &all_clients) }
                    // The spread over seeds, under the clients it is about.
                    <super::seeds::SeedsSpread />
                }
                { super::admin::admin_section(t, &admin_points, ctx.state.cursor_ms.min(t.end_ms)) }
                { super::connects::connects_section(t, &connects_steps, ctx.state.cursor_ms.min(t.end_ms)) }
                // Without a producer or consumer: under the Admin clients and connections.
                if t.clients.is_empty() { <super::seeds::SeedsSpread /> }
                { run_view(ctx, t, (*progress).as_ref(), (*curve).as_deref().unwrap_or(&[]), [all_metrics.clone(), all_mbeans.clone()]) }
            </>
        },
    }
}

/// The run's outcome in one sentence ([`model::run_outcome`]).
fn run_outcome_line(o: &model::ClientStatus) -> Html {
    html! {
        <p class={format!("run-outcome {}", o.class)} data-testid="run-outcome"
            title={(!o.detail.is_empty()).then(|| o.detail.clone())}>{ o.text.clone() }</p>
    }
}

#[function_component(Transport)]
fn transport() -> Html {
    let ctx = use_ctx();
    let st = &ctx.state;
    let end = ctx.sim.end_ms();
    let d = st.dispatcher();
    let cursor = st.cursor_ms.min(end);
    let toggle = {
        let d = d.clone();
        let playing = st.playing;
        move |_| d.dispatch(if playing { Action::Pause } else { Action::Play { end_ms: end } })
    };
    let step = |fwd: bool| {
        let (d, sim, cursor) = (d.clone(), ctx.sim.clone(), cursor);
        move |_| {
            let to_ms = if fwd { quota_engine::sim::next_event(&sim.events, cursor) } else { quota_engine::sim::prev_event(&sim.events, cursor) };
            d.dispatch(Action::Seek { to_ms, end_ms: end });
        }
    };
    let scrub = {
        let d = d.clone();
        move |e: InputEvent| {
            if let Ok(v) = event_value(&e).parse::<f64>() {
                d.dispatch(Action::Seek { to_ms: v, end_ms: end });
            }
        }
    };
    let clock = format!("{} / {}", model::fmt_ms(cursor), model::fmt_ms(end));
    html! {
        <div class="transport" role="group" aria-label="Playback">
            <button type="button" class="primary" onclick={toggle} data-testid="play"
                aria-label={if st.playing { "Pause" } else { "Play" }}>
                { if st.playing { "❚❚ Pause" } else { "▶ Play" } }
            </button>
            <button type="button" onclick={step(false)} aria-label="Step back one event" data-testid="step-back">{ "◀ Step" }</button>
            <button type="button" onclick={step(true)} aria-label="Step forward one event" data-testid="step-forward">{ "Step ▶" }</button>
            <label class="speed">{ "Speed " }
                <select aria-label="Playback speed" onchange={let d = d.clone(); move |e: Event| {
                    if let Ok(i) = event_value(&e).parse::<usize>() { d.dispatch(Action::SetSpeed(i)) }
                }}>
                    { for SPEEDS.iter().enumerate().map(|(i, s)| html! { <option value={i.to_string()} ~selected={i == st.speed}>{ format!("{s}×") }</option> }) }
                </select>
            </label>
            <input type="range" class="scrubber" min="0" max={format!("{:.0}", end.ceil())} step="1" value={format!("{cursor:.0}")}
                aria-label="Simulated time (ms)" aria-valuetext={clock.clone()} oninput={scrub} data-testid="scrubber" />
            // aria-live off: an <output> is a live region, and playback would
            // announce every frame; the scrubber's aria-valuetext carries the time.
            <output class="clock" data-testid="clock" data-ms={format!("{cursor:.0}")} aria-live="off">{ clock }</output>
        </div>
    }
}

/// The clients at the cursor: the first [`SHOWN_CLIENTS`](super::SHOWN_CLIENTS) and the one in
/// the charts, or every one after "Show all" (`all`).
fn clients_table(ctx: &Ctx, t: &Timeline, all: &UseStateHandle<bool>) -> Html {
    let cursor = ctx.state.cursor_ms.min(t.end_ms);
    let (focused, _) = model::focus(t, ctx.state.focus_client, ctx.state.focus_sensor);
    let d = ctx.state.dispatcher();
    let totals: std::collections::HashMap<&str, u64> = ctx
        .state
        .scenario
        .workloads
        .iter()
        .map(|w| match w {
            Workload::Producer(p) => (p.connection.as_str(), p.records),
            Workload::Consumer(c) => (c.connection.as_str(), c.records),
            Workload::Admin(a) => (a.connection.as_str(), u64::from(a.topics)),
            Workload::Connects(c) => (c.connection.as_str(), u64::from(c.count)),
        })
        .collect();
    let total = |name: &str| totals.get(name).copied().unwrap_or(0);
    // How each client hears of its throttles: acks=0 gets no response, a
    // broker before 2.0 holds the response back for the throttle time.
    let path = |name: &str| model::ResponsePath {
        acks_zero: ctx.state.scenario.workloads.iter().any(|w| {
            matches!(w, Workload::Producer(p) if p.connection == name && p.config.acks == quota_engine::sim::Acks::None)
        }),
        legacy: ctx.state.scenario.connections.iter().any(|c| {
            c.name == name && c.client_throttling == quota_engine::sim::ClientThrottling::Legacy
        }),
    };
    let shown = |i: usize| **all || in_short_list(i, focused);
    let hidden = (0..t.clients.len()).filter(|i| !in_short_list(*i, focused)).count();
    html! {
        <>
        // A scroll box: focusable, so that a keyboard scrolls it, and
        // named as a region.
        <div class="table-wrap clients-wrap" tabindex="0" role="region" aria-label="Clients at the cursor (scrolls)" data-testid="clients-wrap">
            <table class="clients" data-testid="clients">
                <caption>{ format!("Clients at {}", model::fmt_ms(cursor)) }</caption>
                <thead><tr>
                    // The state next to the name: on a narrow screen it is in view
                    // without scrolling the table.
                    <th scope="col">{ "Client" }</th><th scope="col">{ "State" }</th>
                    <th scope="col">{ "Records" }</th><th scope="col">{ "Principal · client.id" }</th><th scope="col">{ "Duration" }</th>
                    <th scope="col">{ "Largest throttle so far" }</th><th scope="col">{ "Show in charts" }</th>
                </tr></thead>
                <tbody>
                { for t.clients.iter().enumerate().filter(|(i, _)| shown(*i)).map(|(i, c)| {
                    let at = c.at(cursor);
                    let status = model::client_status(c, cursor, t.end_ms);
                    let d = d.clone();
                    html! {
                        <tr class={classes!((focused == i).then_some("focus"))}>
                            <th scope="row">{ format!("{} ({})", c.name, if c.kind == ClientKind::Producer { "producer" } else { "consumer" }) }</th>
                            <td class={format!("state {}", status.class)} data-testid={format!("state-{}", c.name)}
                                title={(!status.detail.is_empty()).then(|| status.detail.clone())}>{ status.text.clone() }</td>
                            <td>{ format!("{} / {}", at.records, total(&c.name)) }</td>
                            <td><code class="clamp" title={format!("{} · client.id {:?}", c.principal, c.client_id)}>{ format!("{} · {}", c.principal, c.client_id) }</code></td>
                            <td data-testid={format!("duration-{}", c.name)} data-ms={at.duration_ms.map(|d| format!("{d:.0}"))}>
                                { at.duration_ms.map_or_else(|| "…".to_owned(), model::fmt_ms) }
                            </td>
                            <td data-testid={format!("largest-throttle-{}", c.name)}>{ model::largest_throttle(t, i, cursor, path(&c.name)) }</td>
                            <td><input type="radio" name="focus-client" checked={focused == i}
                                aria-label={format!("Show {} in the charts", c.name)}
                                onchange={move |_| d.dispatch(Action::FocusClient(i as u32))} /></td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
        </div>
        { show_all_line(hidden, t.clients.len(), "client", "clients", "clients-table-show-all", all) }
        </>
    }
}

/// The run's charts and tables at the cursor; `curve` is the focused
/// budget's measured rate over the run (`SensorTrack::rate_curve`).
fn run_view(
    ctx: &Ctx,
    t: &Timeline,
    progress: Option<&charts::ProgressParts>,
    curve: &[(f64, f64)],
    all: [UseStateHandle<bool>; 2],
) -> Html {
    let cursor = ctx.state.cursor_ms.min(t.end_ms);
    let (ci, si) = model::focus(t, ctx.state.focus_client, ctx.state.focus_sensor);
    let client = t.clients.get(ci);
    let track = t.sensors.get(si);
    let d = ctx.state.dispatcher();
    let budget_picker = html! {
        <div class="field">
            <label for="focus-sensor">{ "Budget (quota sensor) shown" }</label>
            <select id="focus-sensor" onchange={move |e: Event| {
                if let Ok(i) = event_value(&e).parse::<u32>() { d.dispatch(Action::FocusSensor(i)) }
            }}>
                // An embed trimmed to one quota type (`?quota=`) offers only
                // that key's budgets.
                { for t.sensors.iter().enumerate().filter(|(_, s)| ctx.trim.key.is_none_or(|k| k.quota_type() == Some(s.quota_type))).map(|(i, s)| html! {
                    <option value={i.to_string()} ~selected={i == si}>
                        { format!("{} on broker {} ({})", s.mbean, s.broker, bounds_text(s)) }
                    </option>
                }) }
            </select>
        </div>
    };
    let buffer_memory = client
        .and_then(|c| ctx.state.scenario.workloads.iter().find(|w| model::workload_connection(w) == c.name))
        .map_or(33_554_432, |w| match w {
            Workload::Producer(p) => p.config.buffer_memory,
            Workload::Consumer(_) | Workload::Admin(_) | Workload::Connects(_) => 0,
        });
    html! {
        <>
            if !t.clients.is_empty() {
                <div class="charts">
                    if let Some(parts) = progress { { charts::progress_chart(parts, cursor) } }
                    if let Some(c) = client { { charts::buffer_chart(c, buffer_memory, t.end_ms, cursor) } }
                </div>
            }
            if t.sensors.is_empty() {
                <p class="empty" data-testid="no-budget">{ no_budget_text(t) }</p>
            } else {
                { budget_picker }
                if let Some(track) = track {
                    <div class="charts">
                        { charts::window_bars(track, cursor) }
                        { charts::rate_chart(t, track, curve, cursor) }
                    </div>
                    { throttles(t, track, cursor) }
                }
            }
            if let Some(c) = client { { latency(c, cursor) } }
            <RunMetrics run={Run(ctx.sim.clone())} focused={ci} {all} />
        </>
    }
}

/// Why the panel shows no budget (the run metered none): no quota applies
/// to the producers and consumers, or there are none, only Admin clients,
/// whose `controller_mutation_rate` bucket is drawn in their own section,
/// or connections, whose `connection_creation_rate` is in theirs.
fn no_budget_text(t: &Timeline) -> String {
    let mut elsewhere = Vec::new();
    if !t.admin.is_empty() {
        elsewhere.push("The Admin clients' controller_mutation_rate bucket is shown under Admin clients above.");
    }
    if !t.connects.is_empty() {
        elsewhere.push("The connections' connection_creation_rate and max.connection.creation.rate are shown under Connections above.");
    }
    let head = match (t.clients.is_empty(), t.admin.is_empty(), t.connects.is_empty()) {
        (true, false, true) => "This run has Admin clients only: no produce, fetch or request budget was metered.",
        (true, true, false) => "This run opens connections only: no produce, fetch or request budget was metered.",
        (true, false, false) => "This run has Admin clients and connections only: no produce, fetch or request budget was metered.",
        (false, true, true) | (true, true, true) => "No budget was metered: no quota applies to these clients, so the brokers recorded nothing.",
        (false, _, _) => "No produce, fetch or request budget was metered: no such quota applies to the producers and consumers.",
    };
    std::iter::once(head).chain(elsewhere).collect::<Vec<_>>().join(" ")
}

/// When the cursor is past the last throttle the run recorded for `track`
/// and the record is full (the Timeline keeps a budget's first
/// [`quota_engine::sim::SERIES_CAP`] throttles): a sentence saying that
/// later throttles are not listed, so the count does not read as the
/// run's total.
fn cap_note(track: &quota_engine::sim::SensorTrack, cursor: f64) -> Option<String> {
    let cap = quota_engine::sim::SERIES_CAP;
    let last = track.throttles.last()?.at_ms;
    (u32::try_from(track.throttles.len()).map_or(true, |n| n >= cap) && cursor > last).then(|| {
        format!(" The run records a budget's first {cap} throttles, up to {} here: later ones are not listed.", model::fmt_ms(last))
    })
}

/// "All 141 throttles so far", and how many applied when some were not: a
/// bandwidth throttle gives way to the request quota's when that one is as
/// large or larger (Kafka applies one: `KafkaApis.handleProduceRequest`,
/// core/src/main/scala/kafka/server/KafkaApis.scala), and a delay of 0 ms
/// or less (a NaN bound) delays nothing; each row says which. The cluster
/// view counts only those applied.
fn all_throttles_label(seen: &[&quota_engine::sim::ThrottleEvent]) -> String {
    let applied = seen.iter().filter(|e| e.applied).count();
    if applied == seen.len() {
        format!("All {} throttles so far", seen.len())
    } else {
        format!("All {} throttles so far ({applied} applied; each other row says why)", seen.len())
    }
}

fn throttles(t: &Timeline, track: &quota_engine::sim::SensorTrack, cursor: f64) -> Html {
    let seen: Vec<_> = track.throttles.iter().filter(|e| e.at_ms <= cursor).collect();
    let n = seen.len();
    // Oldest first: the first throttle explains the burst before it, so it
    // always shows; then the latest, with a gap row between (None).
    let shown: Vec<Option<&&quota_engine::sim::ThrottleEvent>> = if n <= 8 {
        seen.iter().map(Some).collect()
    } else {
        std::iter::once(Some(&seen[0])).chain(std::iter::once(None)).chain(seen[n - 7..].iter().map(Some)).collect()
    };
    html! {
        <div class="table-wrap">
            <table class="throttles" data-testid="throttles">
                <caption>{ format!("Throttles of {} by {}: {}{}", track.sensor_name, model::fmt_ms(cursor), n,
                    if n > 8 { " (the first, then the latest)" } else { "" }) }
                    if let Some(note) = cap_note(track, cursor) { <span class="cap-note" data-testid="throttles-capped">{ note }</span> }
                </caption>
                <thead><tr>
                    <th scope="col">{ "At" }</th><th scope="col">{ "Client" }</th><th scope="col">{ "Delay" }</th>
                    <th scope="col">{ "Observed rate" }</th><th scope="col" class="formula">{ "Formula X = (O − T) / T × W" }</th><th scope="col" class="mute">{ "Mute" }</th>
                </tr></thead>
                <tbody>
                    if n == 0 { <tr><td class="wide" colspan="6">{ "No throttle yet." }</td></tr> }
                    { for shown.iter().map(|e| match e {
                        None => html! { <tr class="gap"><td class="wide" colspan="6">{ format!("… {} more (listed under \"All {n} throttles so far\" below) …", n.saturating_sub(8)) }</td></tr> },
                        Some(e) => html! {
                        <tr class={classes!((!e.applied).then_some("dim"))}>
                            <td>{ model::fmt_ms(e.at_ms) }</td>
                            <td>{ t.clients.get(e.client as usize).map(|c| c.name.clone()).unwrap_or_default() }</td>
                            <td>{ format!("{} ms", e.delay_ms) }</td>
                            <td>{ fmt_rate_of(track.quota_type, e.observed) }</td>
                            <td class="formula"><code>{ e.formula() }</code>{ match (e.applied, e.delay_ms) {
                                (true, _) => "",
                                (false, d) if d <= 0 => " (a throttle time of 0 ms or less delays nothing)",
                                (false, _) => " (Kafka applied the other quota's delay: the larger one, or the request quota's on a tie)",
                            } }</td>
                            <td class="mute">{ format!("{} – {}", model::fmt_ms(e.mute_from_ms), model::fmt_ms(e.mute_to_ms)) }</td>
                        </tr>
                    }}) }
                </tbody>
            </table>
            // Outside the table, so that it wraps on a narrow screen.
            if let Some(ahead) = (n == 0).then(|| model::throttles_ahead(track)).flatten() {
                <p class="msg hint" data-testid="no-throttle-yet">{ ahead }</p>
            }
            if n > 8 {
                <details class="data">
                    <summary>{ all_throttles_label(&seen) }</summary>
                    <ol class="all-throttles">
                        { for seen.iter().take(2000).map(|e| html! {
                            <li>{ format!("{} · {} · {} ms · ", model::fmt_ms(e.at_ms),
                                t.clients.get(e.client as usize).map(|c| c.name.as_str()).unwrap_or(""), e.delay_ms) }
                                <code>{ e.formula() }</code></li>
                        }) }
                    </ol>
                </details>
            }
        </div>
    }
}

fn latency(c: &quota_engine::sim::ClientTrack, cursor: f64) -> Html {
    let Some(perf) = &c.perf else { return html! {} };
    let mut lines: Vec<String> = perf.windows.iter().filter(|w| w.at_ms <= cursor).map(|w| w.line()).collect();
    let done = c.finish_ms.is_some_and(|f| f <= cursor);
    if done {
        lines.push(perf.total_line());
    }
    let l = &perf.latency;
    // The tool counts a record only when it was sent without error; each
    // failed record prints its exception on stderr instead
    // (`exception.printStackTrace()`; Kafka: `ProducerPerformance.PerfCallback.onCompletion`,
    // tools/src/main/java/org/apache/kafka/tools/ProducerPerformance.java).
    let failed: Vec<&quota_engine::sim::NamedException> = c.outcome.exceptions().iter().filter(|e| e.first_at_ms <= cursor).collect();
    html! {
        <div class="perf">
            <h3>{ format!("kafka-producer-perf-test.sh view of {}", c.name) }</h3>
            // One block per line, wrapped at the box's width with the rest of
            // the line indented: the last line (the totals and percentiles)
            // is longer than a phone's width and was cut off in a box
            // scrolling sideways with nothing to say so.
            <pre class="lines" data-testid="perf-lines" aria-label="Perf-test output so far">
                if lines.is_empty() { <span class="line">{ "(no line printed yet)" }</span> }
                { for lines.into_iter().map(|l| html! { <span class="line">{ l }</span> }) }
            </pre>
            if !failed.is_empty() {
                <p class="msg error" data-testid="perf-failed">{ format!(
                    "These lines count only the records sent without error. For each failed record the tool prints its exception on stderr (below, the first of each): {}.",
                    failed.iter().map(|e| format!("{} records over the run failed with {}, the first at {} ({}={})", model::grouped(e.count), e.short_class(), model::fmt_ms(e.first_at_ms), e.setting, e.setting_ms)).collect::<Vec<_>>().join("; ")
                ) }</p>
                // An ApiException (TimeoutException, RecordTooLargeException)
                // has no stack frames (`ApiException.fillInStackTrace`), so
                // `printStackTrace` prints this one line per record.
                <pre class="stderr" data-testid="perf-stderr" aria-label="Perf-test stderr: the first failed record's line of each exception">{
                    failed.iter().map(|e| format!("{}: {}", e.class, e.message)).collect::<Vec<_>>().join("\n")
                }</pre>
            }
            if done {
                <div class="table-wrap">
                <table class="latency">
                    <caption>{ "Latency from send() to acknowledgement" }</caption>
                    <thead><tr><th scope="col">{ "avg" }</th><th scope="col">{ "50th" }</th><th scope="col">{ "95th" }</th>
                        <th scope="col">{ "99th" }</th><th scope="col">{ "99.9th" }</th><th scope="col">{ "max" }</th></tr></thead>
                    <tbody><tr>
                        <td>{ format!("{:.2} ms", l.avg_ms) }</td><td>{ format!("{} ms", l.p50_ms) }</td><td>{ format!("{} ms", l.p95_ms) }</td>
                        <td>{ format!("{} ms", l.p99_ms) }</td><td>{ format!("{} ms", l.p999_ms) }</td><td>{ format!("{} ms", l.max_ms) }</td>
                    </tr></tbody>
                </table>
                </div>
            }
        </div>
    }
}

/// A metric or MBean name with line-break opportunities (`<wbr>`) after
/// `:`, `,` and `=`, so a narrow column wraps it at those boundaries
/// instead of one character per line.
fn breakable(name: &str) -> Html {
    html! { for model::break_points(name).into_iter().map(|part| html! { <>{ part.to_owned() }<wbr /></> }) }
}

/// Broker MBean attributes listed per broker and MBean type
/// (`type=Produce`, `type=Fetch`, …) before "Show all".
const SHOWN_MBEANS: usize = 24;

/// The MBean type of an MBean name (`kafka.server:type=Produce,user=a` →
/// `Produce`).
fn mbean_type(mbean: &str) -> &str {
    mbean.split([':', ',']).find_map(|p| p.strip_prefix("type=")).unwrap_or("")
}

/// [`RunMetrics`]' properties.
#[derive(Properties, PartialEq)]
struct RunMetricsProps {
    /// The run on screen (compared by reference).
    run: Run,
    /// The client in the charts (its index in the run's clients): always listed.
    focused: usize,
    /// "Show all" of the client metrics and of the broker MBeans (owned by
    /// `SimBody`; compared by value).
    all: [UseStateHandle<bool>; 2],
}

/// The client and broker metrics at the end of the run: a component of its
/// own so that a playback frame or an edit that leaves the run on screen
/// does not lay out its rows again (a thousand elements with 100 clients
/// over 3 brokers; they do not change with the cursor).
#[function_component(RunMetrics)]
fn run_metrics(p: &RunMetricsProps) -> Html {
    let [all_clients, all_mbeans] = &p.all;
    match &p.run.0.result {
        Ok(t) => metrics(t, p.focused, [all_clients, all_mbeans]),
        Err(_) => html! {},
    }
}

/// The client metrics at the end of the run (of the first
/// [`SHOWN_CLIENTS`](super::SHOWN_CLIENTS) clients and client `focused`, the one in the charts,
/// or of every client once `all[0]` is set) and the broker MBeans (the
/// first [`SHOWN_MBEANS`] of each type on each broker, or all once `all[1]`
/// is set).
fn metrics(t: &Timeline, focused: usize, all: [&UseStateHandle<bool>; 2]) -> Html {
    let [all_clients, all_mbeans] = all;
    let client_shown = |i: usize| **all_clients || in_short_list(i, focused);
    let hidden_clients = (0..t.clients.len()).filter(|i| !in_short_list(*i, focused)).count();
    // Which MBeans of each broker the short list has: per type, the first SHOWN_MBEANS.
    let listed: Vec<Vec<bool>> = t
        .brokers
        .iter()
        .map(|b| {
            let mut per_type: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
            b.mbeans
                .iter()
                .map(|m| {
                    let n = per_type.entry(mbean_type(&m.mbean)).or_default();
                    *n += 1;
                    *n <= SHOWN_MBEANS
                })
                .collect()
        })
        .collect();
    let mbeans_total: usize = t.brokers.iter().map(|b| b.mbeans.len()).sum();
    let mbeans_hidden = listed.iter().flatten().filter(|l| !**l).count();
    let listed = |b: usize, i: usize| **all_mbeans || listed[b][i];
    // One row group per client (its name heads the group), so the metric
    // name gets the width a third column would take on a phone.
    let groups = t.clients.iter().enumerate().filter(|(i, _)| client_shown(*i)).map(|(_, c)| {
        let (group, pre) = match c.kind {
            ClientKind::Producer => ("producer-metrics", "produce"),
            ClientKind::Consumer => ("consumer-fetch-manager-metrics", "fetch"),
        };
        let m = &c.metrics;
        let tag = format!("{{client-id={}}}", c.client_id);
        let mut v = vec![
            (format!("{group}:{pre}-throttle-time-avg:{tag}"), model::fmt_metric(m.throttle_time_avg)),
            (format!("{group}:{pre}-throttle-time-max:{tag}"), model::fmt_metric(m.throttle_time_max)),
        ];
        if c.kind == ClientKind::Producer {
            v.push((format!("{group}:record-retry-total:{tag}"), m.record_retry_total.to_string()));
            v.push((format!("{group}:record-error-total:{tag}"), m.record_error_total.to_string()));
        }
        (c.name.clone(), v)
    });
    html! {
        <div class="metrics">
            if !t.clients.is_empty() {
                <div class="table-wrap">
                    <table data-testid="client-metrics">
                        <caption>{ "Client metrics at the end of the run" }</caption>
                        <thead><tr><th scope="col">{ "Metric" }</th><th scope="col">{ "Value" }</th></tr></thead>
                        { for groups.map(|(n, rows)| html! {
                            <tbody>
                                <tr class="group"><th colspan="2" scope="rowgroup">{ n }</th></tr>
                                { for rows.into_iter().map(|(k, v)| html! { <tr><td><code>{ breakable(&k) }</code></td><td class="n">{ v }</td></tr> }) }
                            </tbody>
                        }) }
                    </table>
                </div>
                { show_all_line(hidden_clients, t.clients.len(), "client", "clients", "metrics-show-all", all_clients) }
            }
            // No sensor, no MBean: the panel's no-budget sentence says why
            // (an empty table would read as a failure).
            if mbeans_total > 0 {
            <div class="table-wrap">
                <table data-testid="broker-metrics">
                    <caption>{ "Broker MBeans at the end of the run" }</caption>
                    <thead><tr><th scope="col">{ "MBean : attribute" }</th><th scope="col">{ "Value" }</th></tr></thead>
                    { for t.brokers.iter().enumerate().map(|(bi, b)| html! {
                        <tbody>
                            <tr class="group"><th colspan="2" scope="rowgroup">{ format!("Broker {}", b.id) }</th></tr>
                            { for b.mbeans.iter().enumerate().filter(|(i, _)| listed(bi, *i)).map(|(_, m)| html! {
                                <tr><td><code>{ breakable(&format!("{}:{}", m.mbean, m.attribute)) }</code></td>
                                    <td class={classes!("n", m.value.is_nan().then_some("nan"))}>{ model::fmt_metric(m.value) }</td></tr>
                            }) }
                        </tbody>
                    }) }
                </table>
            </div>
            { show_all_line(mbeans_hidden, mbeans_total, "MBean attribute", "MBean attributes", "mbeans-show-all", all_mbeans) }
            <p class="msg hint">{ "NaN means the sensor has no sample in its window (nothing was throttled or recorded recently), not zero. A dashboard should show it as 'no data'." }</p>
            }
        </div>
    }
}

/// The clients (workloads) and the broker settings that matter.
#[function_component(Setup)]
fn setup() -> Html {
    let ctx = use_scene();
    let s = &ctx.state.scenario;
    let d = ctx.state.dispatcher();
    let settings = s.brokers.settings.clone();
    let bs = |f: fn(&mut quota_engine::broker::BrokerSettings, u32)| {
        let (d, settings) = (d.clone(), settings.clone());
        Callback::from(move |v: f64| {
            let mut next = settings.clone();
            f(&mut next, v as u32);
            d.dispatch(Action::SetBrokerSettings(next));
        })
    };
    let check_settings = |f: fn(&mut quota_engine::broker::BrokerSettings, u32)| {
        let settings = settings.clone();
        Callback::from(move |v: f64| {
            let mut next = settings.clone();
            f(&mut next, v as u32);
            next.validate().err().map(|e| e.to_string())
        })
    };
    // The editors are laid out only while the section is open: with 100
    // clients they are thousands of fields, and every edit elsewhere would
    // lay them out again unseen.
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                open.set(el.open());
            }
        })
    };
    let summary = html! {
        <summary>{ format!(
            "Clients and broker settings ({} {}, {})",
            model::grouped(s.workloads.len() as u64),
            if s.workloads.len() == 1 { "client" } else { "clients" },
            model::count_of(u64::from(s.brokers.count), "broker", "brokers")
        ) }</summary>
    };
    // The editors come a page at a time (each is a dozen fields and a
    // select of every connection: 1,000 clients at once were 11,000
    // fields and a million options), with a search by connection or topic.
    let filter = use_state(String::new);
    // The page shown, and whether the next client added is to be shown
    // (set by Add producer / Add consumer, which also clear the search).
    let paging = use_mut_ref(|| (0usize, false));
    let redraw = use_force_update();
    if !*open {
        return html! { <details class="setup" {ontoggle}>{ summary }</details> };
    }
    let needle = filter.trim().to_lowercase();
    let matching: Vec<usize> = s
        .workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| needle.is_empty() || client_matches(w, &needle))
        .map(|(i, _)| i)
        .collect();
    let (page, range) = {
        let mut p = paging.borrow_mut();
        if std::mem::take(&mut p.1) {
            // A client just added: the last page, which holds it.
            p.0 = usize::MAX;
        }
        let (page, range) = client_page(matching.len(), p.0);
        p.0 = page;
        (page, range)
    };
    let shown = &matching[range.clone()];
    // The connections that carry a client: another client cannot take one
    // (the engine refuses two workloads on a connection), so each editor
    // offers its own and the free ones only.
    let used: std::collections::HashSet<&str> = s.workloads.iter().map(model::workload_connection).collect();
    let turn = |to: usize| {
        let (paging, redraw) = (paging.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            paging.borrow_mut().0 = to;
            redraw.force_update();
        })
    };
    let on_filter = {
        let (filter, paging) = (filter.clone(), paging.clone());
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                paging.borrow_mut().0 = 0;
                filter.set(input.value());
            }
        })
    };
    let add = |producer: bool| {
        let (d, filter, paging) = (d.clone(), filter.clone(), paging.clone());
        Callback::from(move |_: MouseEvent| {
            paging.borrow_mut().1 = true;
            filter.set(String::new());
            d.dispatch(Action::AddWorkload { producer });
        })
    };
    let pager = (s.workloads.len() > CLIENTS_PER_PAGE || !needle.is_empty()).then(|| {
        let total = model::grouped(s.workloads.len() as u64);
        let (first, last) = (model::grouped(range.start as u64 + 1), model::grouped(range.end as u64));
        let shown_text = if range.len() == 1 { first.clone() } else { format!("{first}–{last}") };
        let status = if shown.is_empty() {
            format!("No client's connection or topic contains \"{}\" ({total} clients).", filter.trim())
        } else if needle.is_empty() {
            format!("{} {shown_text} of {total}", if range.len() == 1 { "Client" } else { "Clients" })
        } else {
            format!("{} of {total} clients match; {shown_text} shown", model::grouped(matching.len() as u64))
        };
        html! {
            <div class="pager" data-testid="clients-pager">
                <label for="client-filter">{ "Find a client" }</label>
                <input id="client-filter" type="search" placeholder="connection or topic" value={(*filter).clone()} oninput={on_filter} />
                <button type="button" class="ghost" disabled={page == 0} onclick={turn(page.saturating_sub(1))}>{ "◀ Previous" }</button>
                <button type="button" class="ghost" disabled={range.end >= matching.len()} onclick={turn(page + 1)}>{ "Next ▶" }</button>
                <span class="msg hint" role="status" data-testid="clients-page">{ status }</span>
            </div>
        }
    });
    // What the engine refuses in the settings drawn (a producer Kafka would
    // not create, a batch that does not fit buffer.memory): said at the field.
    let problems = if shown.is_empty() { Vec::new() } else { s.validate().err().unwrap_or_default() };
    html! {
        <details class="setup" open=true {ontoggle}>
            { summary }
            { pager }
            <div class="workloads">
                { for shown.iter().map(|&i| workload_editor(&ctx, s, i, &s.workloads[i], &used, &problems)) }
            </div>
            <div class="copy-row">
                <button type="button" onclick={add(true)}>{ "Add producer" }</button>
                <button type="button" onclick={add(false)}>{ "Add consumer" }</button>
                <span class="msg hint">{ "A new client runs on the connection selected in the Connection panel, or on a copy of it (same principal and client.id) when that one has a client already." }</span>
            </div>
            <fieldset class="broker">
                <legend>{ "Brokers" }</legend>
                <div class="grid">
                    <NumberField id="brokers-count" label="Brokers" value={f64::from(s.brokers.count)} whole={Some((1, u64::from(model::MAX_BROKERS)))}
                        on_commit={let d = d.clone(); Callback::from(move |v: f64| d.dispatch(Action::SetBrokerCount(v as u32)))}
                        hint="Partition p is led by broker p mod count unless its topic places its leaders (Cluster and time panel); each broker enforces quotas alone." />
                    <NumberField id="quota-window-num" label="quota.window.num" value={f64::from(settings.quota_window_num)} whole={Some((1, 1000))}
                        on_commit={bs(|s, v| s.quota_window_num = v)} check={check_settings(|s, v| s.quota_window_num = v)} hint="default 11" />
                    <NumberField id="quota-window-size" label="quota.window.size.seconds" value={f64::from(settings.quota_window_size_seconds)} whole={Some((1, 3600))}
                        on_commit={bs(|s, v| s.quota_window_size_seconds = v)} unit="s" hint="default 1" />
                    <NumberField id="num-io-threads" label="num.io.threads" value={f64::from(settings.num_io_threads)} whole={Some((1, 256))}
                        on_commit={bs(|s, v| s.num_io_threads = v)} check={check_settings(|s, v| s.num_io_threads = v)}
                        hint="default 8; with num.network.threads, the request capacity: (io + network) × 100 %" />
                    <NumberField id="num-network-threads" label="num.network.threads" value={f64::from(settings.num_network_threads)} whole={Some((1, 256))}
                        on_commit={bs(|s, v| s.num_network_threads = v)} check={check_settings(|s, v| s.num_network_threads = v)}
                        hint="default 3 (per listener in Kafka)" />
                    // The broker-wide connection rate: for a run that opens connections
                    // (a connects workload), or one that sets it.
                    if s.workloads.iter().any(|w| matches!(w, Workload::Connects(_))) || settings.max_connection_creation_rate != i32::MAX {
                        <NumberField id="max-connection-creation-rate" label="max.connection.creation.rate" value={f64::from(settings.max_connection_creation_rate)}
                            whole={Some((0, i32::MAX as u64))} empty={Some(f64::from(i32::MAX))} unit="/s"
                            on_commit={let (d, settings) = (d.clone(), settings.clone()); Callback::from(move |v: f64| {
                                let mut next = settings.clone();
                                next.max_connection_creation_rate = v.min(f64::from(i32::MAX)) as i32;
                                d.dispatch(Action::SetBrokerSettings(next));
                            })}
                            hint="default 2147483647 (unlimited); empty = the default. New connections per second the broker's acceptor takes from all addresses: over it, it waits before the next one and refuses none" />
                    }
                </div>
                { for s.topics.iter().filter_map(|t| model::spread_note(s, t)).map(|note| html! {
                    <p class="msg warn" role="note" data-testid="setup-spread">{ note }{ " Partitions and leaders: the Cluster and time panel." }</p>
                }) }
            </fieldset>
        </details>
    }
}

/// Client editors per page of the Clients and broker settings section.
const CLIENTS_PER_PAGE: usize = 20;

/// The page of client editors to show among `matching` clients when page
/// `wanted` is asked for (`usize::MAX`: the last): the page, clamped to
/// those there are, and the range of `matching`'s positions it holds.
fn client_page(matching: usize, wanted: usize) -> (usize, std::ops::Range<usize>) {
    let pages = matching.div_ceil(CLIENTS_PER_PAGE).max(1);
    let page = wanted.min(pages - 1);
    let start = page * CLIENTS_PER_PAGE;
    (page, start.min(matching)..(start + CLIENTS_PER_PAGE).min(matching))
}

/// True when the connection or the topic of `w` contains `needle` (lower
/// case), ignoring case.
fn client_matches(w: &Workload, needle: &str) -> bool {
    let topic = match w {
        Workload::Producer(p) => &p.topic,
        Workload::Consumer(c) => &c.topic,
        Workload::Admin(a) => &a.topic_prefix,
        Workload::Connects(c) => &c.connection,
    };
    model::workload_connection(w).to_lowercase().contains(needle) || topic.to_lowercase().contains(needle)
}

/// The editor of client `i` (`w`); `used` holds the connections that
/// carry a client, which its Connection select leaves out (but its own).
fn workload_editor(
    ctx: &Ctx,
    s: &Scenario,
    i: usize,
    w: &Workload,
    used: &std::collections::HashSet<&str>,
    problems: &[quota_engine::sim::ScenarioProblem],
) -> Html {
    let d = ctx.state.dispatcher();
    // The engine's problem at a setting of this client, as `path: message`
    // (`model::problem_at`: e.g. `workloads[0].producer.config.delivery.timeout.ms`).
    let problem_at = |property: &str| model::problem_at(problems, i, w, property).map(|p| AttrValue::from(p.to_string()));
    // A client setting ([`model::ClientSetting`]): its field, with the
    // engine's default said when it has one (an empty field sets it back
    // to it) and the engine's problem at it.
    let num = |setting: &'static model::ClientSetting| {
        let value = setting.value(w);
        let (d, w) = (d.clone(), w.clone());
        let on_commit = Callback::from(move |v: f64| d.dispatch(Action::SetWorkload { index: i as u32, workload: setting.with(&w, v) }));
        let default = setting.default();
        let hint = match default {
            Some(v) => Some(AttrValue::from(format!("default {v}; empty = the default"))),
            None => (!setting.hint.is_empty()).then_some(AttrValue::Static(setting.hint)),
        };
        let problem = problem_at(setting.property);
        html! {
            <NumberField id={format!("w{i}-{}", setting.key)} label={setting.label} {value} whole={Some(setting.range)} {on_commit} {hint} empty={default} {problem} />
        }
    };
    // The start of any client: one route (the cluster view's
    // `ClusterEdit::SetStart`) and one bound (the engine's horizon cap, as
    // the cluster view's start field), whichever panel it is typed in.
    let start = |value: u64| {
        let edit = move |v: f64| model::ClusterEdit::SetStart { index: i as u32, start_ms: v as u64 };
        let d = d.clone();
        let on_commit = Callback::from(move |v: f64| d.dispatch(Action::Cluster(edit(v))));
        // The engine's refusal of the edit (a start at or after the
        // client's stop_ms), beside the field, as the cluster view says it.
        let check = {
            let s = ctx.state.scenario.clone();
            Callback::from(move |v: f64| edit(v).refusal(&s))
        };
        let problem = problem_at("start_ms");
        html! {
            <NumberField id={format!("w{i}-start")} label="Starts at (ms)" value={value as f64} whole={Some((0, HORIZON_CAP_MS))} {on_commit} {check} {problem} />
        }
    };
    let own = model::workload_connection(w);
    let conn_opts: Vec<(AttrValue, AttrValue)> = s
        .connections
        .iter()
        .filter(|c| c.name == own || !used.contains(c.name.as_str()))
        .map(|c| (AttrValue::from(c.name.clone()), AttrValue::from(c.name.clone())))
        .collect();
    let set_conn = {
        let (d, w) = (d.clone(), w.clone());
        Callback::from(move |v: String| {
            let mut next = w.clone();
            match &mut next {
                Workload::Producer(p) => p.connection = v,
                Workload::Consumer(c) => c.connection = v,
                Workload::Admin(a) => a.connection = v,
                Workload::Connects(c) => c.connection = v,
            }
            d.dispatch(Action::SetWorkload { index: i as u32, workload: next });
        })
    };
    let remove = {
        let d = d.clone();
        move |_| d.dispatch(Action::RemoveWorkload(i as u32))
    };
    let acks = |c: &quota_engine::sim::ProducerConfig| {
        let set_acks = {
            let (d, w) = (d.clone(), w.clone());
            Callback::from(move |v: String| {
                let mut next = w.clone();
                if let Workload::Producer(p) = &mut next {
                    p.config.acks = match v.as_str() {
                        "0" => Acks::None,
                        "1" => Acks::Leader,
                        _ => Acks::All,
                    };
                }
                d.dispatch(Action::SetWorkload { index: i as u32, workload: next });
            })
        };
        let value = match c.acks {
            Acks::None => "0",
            Acks::Leader => "1",
            Acks::All => "all",
        };
        html! {
            <SelectField id={format!("w{i}-acks")} label="acks" {value}
                options={vec![("0".into(), "0".into()), ("1".into(), "1".into()), ("all".into(), "all (default)".into())]} on_change={set_acks} />
        }
    };
    let legend = match w {
        Workload::Producer(p) => format!("Producer on {}", p.connection),
        Workload::Consumer(c) => format!("Consumer on {}", c.connection),
        Workload::Admin(a) => format!("Admin client on {} ({})", a.connection, a.operation.method()),
        Workload::Connects(c) => {
            let pattern = match c.pattern {
                quota_engine::sim::ConnectPattern::Pool => "pool",
                quota_engine::sim::ConnectPattern::Storm => "storm",
                quota_engine::sim::ConnectPattern::Reopen => "reopen",
            };
            format!("Connections from {} ({pattern})", c.connection)
        }
    };
    let fields = model::editor_rows(w).iter().map(|row| match (row, w) {
        (model::EditorRow::Setting(setting), _) => num(setting),
        (model::EditorRow::Start, _) => start(model::start_ms(w)),
        (model::EditorRow::Acks, Workload::Producer(p)) => acks(&p.config),
        (model::EditorRow::Acks, _) => Html::default(),
    });
    html! {
        <fieldset class="workload" key={format!("{i} {}", model::workload_connection(w))}>
            <legend>{ legend.clone() }</legend>
            <div class="grid">
                <SelectField id={format!("w{i}-conn")} label="Connection" value={model::workload_connection(w).to_owned()} options={conn_opts} on_change={set_conn} />
                { for fields }
            </div>
            <button type="button" class="ghost danger" aria-label={format!("Remove {legend}")} onclick={remove}>{ "Remove client" }</button>
        </fieldset>
    }
}

/// A budget's bound as the run went: `2 MB/s`, or `2 MB/s, then 1 MB/s at
/// 10.00 s` after a set_quota event.
fn bounds_text(s: &quota_engine::sim::SensorTrack) -> String {
    let one = |b: f64| {
        if b >= quota_engine::resolve::UNLIMITED_BOUND {
            "unlimited".to_owned()
        } else {
            fmt_rate_of(s.quota_type, b)
        }
    };
    let mut out = one(s.bound);
    for c in &s.bound_changes {
        out.push_str(&format!(", then {} at {}", one(c.bound), crate::model::fmt_ms(c.at_ms)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::all_throttles_label;
    use quota_engine::sim::ThrottleEvent;

    fn event(applied: bool) -> ThrottleEvent {
        ThrottleEvent { at_ms: 0.0, client: 0, delay_ms: 10, observed: 2.0, bound: 1.0, window_ms: 1000, applied, mute_from_ms: 0.0, mute_to_ms: 10.0 }
    }

    #[test]
    fn client_pages_hold_20_and_clamp_to_the_last() {
        use super::client_page;
        assert_eq!(client_page(0, 0), (0, 0..0));
        assert_eq!(client_page(5, 0), (0, 0..5));
        assert_eq!(client_page(100, 1), (1, 20..40));
        assert_eq!(client_page(101, usize::MAX), (5, 100..101));
        // A search that leaves fewer clients: back to the last page there is.
        assert_eq!(client_page(10, 3), (0, 0..10));
        assert_eq!(client_page(40, 7), (1, 20..40));
    }

    #[test]
    fn the_throttle_list_says_how_many_applied_when_some_were_not() {
        let (a, b) = (event(true), event(false));
        assert_eq!(all_throttles_label(&[&a, &a]), "All 2 throttles so far");
        assert_eq!(
            all_throttles_label(&[&a, &b, &a]),
            "All 3 throttles so far (2 applied; each other row says why)"
        );
    }
}
