//! The spread over seeds: the current scenario run with seeds `seed` to
//! `seed + N - 1` in the simulation worker, one after another between the
//! runs of the page's edits ([`SimClient::run_seeds`](crate::sim_worker::SimClient::run_seeds)), gathered with the
//! engine's [`add_run`] and shown per client as the engine's
//! [`ClientSpread::summary`](quota_engine::sim::seeds::ClientSpread::summary)
//! with a strip of the durations. The seed draws the jitter of the
//! broker's thread times and of the reconnect backoff, so a quota near what
//! a client uses throttles in some runs and not in others: what one run
//! cannot show.

use quota_engine::sim::seeds::{add_run, SeedSpread};
use yew::prelude::*;

use super::{charts, event_value};
use crate::ctx::use_scene;
use crate::model;
use crate::ctx::use_workers;
use crate::sim_worker::{SeedEvent, PAGE_SEEDS_MAX};

/// Seeds run by default.
const DEFAULT_SEEDS: u32 = 20;

/// The spread being gathered or shown.
#[derive(Default)]
struct Gathered {
    /// The job and the revision of the scenario it runs, while running or shown.
    job: Option<(u64, u64)>,
    /// Seeds asked for.
    count: u32,
    spread: Option<SeedSpread>,
    running: bool,
    /// Why the job stopped early.
    error: Option<String>,
    /// When the job started (ms, the page's clock).
    started_ms: f64,
    took_ms: f64,
}

#[function_component(SeedsSpread)]
pub(crate) fn seeds_spread() -> Html {
    let ctx = use_scene();
    let revision = ctx.state.revision;
    let count = use_state(|| DEFAULT_SEEDS);
    let gathered = use_mut_ref(Gathered::default);
    let redraw = use_force_update();
    let sim = use_workers().sim;
    {
        let (gathered, redraw, sim) = (gathered.clone(), redraw.clone(), sim.clone());
        use_effect_with((), move |_| {
            let listener = Callback::from(move |event: SeedEvent| {
                let mut g = gathered.borrow_mut();
                match event {
                    SeedEvent::Run(job, seed, result) if g.job.is_some_and(|(j, _)| j == job) => match result {
                        Ok(t) => {
                            let spread = g.spread.get_or_insert_with(|| SeedSpread { seeds: Vec::new(), clients: Vec::new() });
                            add_run(spread, seed, &t);
                            if spread.seeds.len() as u32 >= g.count {
                                g.running = false;
                                g.took_ms = crate::platform::now_ms() - g.started_ms;
                            }
                        }
                        Err(why) => {
                            g.running = false;
                            g.error = Some(why);
                        }
                    },
                    SeedEvent::Stopped(job, why) if g.job.is_some_and(|(j, _)| j == job) => {
                        g.running = false;
                        g.error = Some(why);
                    }
                    _ => return,
                }
                drop(g);
                redraw.force_update();
            });
            sim.listen_seeds(Some(listener));
            move || {
                sim.cancel_seeds();
                sim.listen_seeds(None);
            }
        });
    }
    {
        // A change of the scenario drops the spread of the previous one,
        // running or shown.
        let (gathered, redraw, sim) = (gathered.clone(), redraw.clone(), sim.clone());
        use_effect_with(revision, move |rev| {
            let mut g = gathered.borrow_mut();
            if g.job.is_some_and(|(_, r)| r != *rev) {
                if g.running {
                    sim.cancel_seeds();
                }
                *g = Gathered::default();
                drop(g);
                redraw.force_update();
            }
        });
    }
    let run = {
        let (gathered, redraw, scenario, count, sim) = (gathered.clone(), redraw.clone(), ctx.state.scenario.clone(), *count, sim.clone());
        Callback::from(move |_: MouseEvent| {
            let job = sim.run_seeds(&scenario, count);
            *gathered.borrow_mut() = Gathered {
                job: Some((job, revision)),
                count,
                spread: None,
                running: true,
                error: None,
                started_ms: crate::platform::now_ms(),
                took_ms: 0.0,
            };
            redraw.force_update();
        })
    };
    let cancel = {
        let (gathered, redraw, sim) = (gathered.clone(), redraw.clone(), sim.clone());
        Callback::from(move |_: MouseEvent| {
            sim.cancel_seeds();
            let mut g = gathered.borrow_mut();
            g.running = false;
            g.error = Some("Cancelled.".to_owned());
            drop(g);
            redraw.force_update();
        })
    };
    let on_count = {
        let count = count.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(v) = event_value(&e).trim().parse::<u32>() {
                count.set(v.clamp(1, PAGE_SEEDS_MAX));
            }
        })
    };
    let g = gathered.borrow();
    let seed = ctx.state.scenario.seed;
    let n = *count;
    let done = g.spread.as_ref().map_or(0, |s| s.seeds.len()) as u32;
    let last = seed.wrapping_add(u64::from(n.max(1) - 1));
    let status = match (&g.job, g.running, &g.error) {
        (None, _, _) => String::new(),
        (Some(_), true, _) => format!("Running seed {} of {} in the simulation worker…", (done + 1).min(g.count), g.count),
        (Some(_), false, Some(why)) => format!("Stopped after {done} of {} runs: {why}", g.count),
        (Some(_), false, None) => format!("{} runs in {}.", g.count, model::fmt_ms(g.took_ms)),
    };
    html! {
        <section class="seeds" data-testid="seeds" aria-labelledby="seeds-h">
            <h3 id="seeds-h">{ "The spread over seeds" }</h3>
            <p class="hint">{ "The seed draws the jitter of the broker's thread times and of the reconnect backoff: a quota near what a client uses may throttle in some runs and not in others. Run the scenario with several seeds to see the spread one run hides (kafka-quota simulate --seeds N does the same)." }</p>
            <div class="seeds-controls">
                <label for="seeds-count">{ "Seeds" }</label>
                <input id="seeds-count" type="number" min="1" max={PAGE_SEEDS_MAX.to_string()} step="1" value={n.to_string()}
                    oninput={on_count} data-testid="seeds-count" aria-describedby="seeds-range" />
                <button type="button" onclick={run} disabled={g.running} data-testid="seeds-run">{ format!("Run {n} seeds") }</button>
                if g.running { <button type="button" class="ghost" onclick={cancel} data-testid="seeds-cancel">{ "Cancel" }</button> }
                <span id="seeds-range" class="msg hint">{ format!("seeds {seed} to {last}; 1 to {PAGE_SEEDS_MAX}") }</span>
            </div>
            <p class="msg hint seeds-status" role="status" data-testid="seeds-status" data-done={done.to_string()}
                data-running={g.running.to_string()}>{ status }</p>
            if g.running { <progress max={g.count.to_string()} value={done.to_string()} aria-label="Seeds run"></progress> }
            if let Some(spread) = &g.spread {
                <ul class="seeds-clients" data-testid="seeds-clients">
                    { for spread.clients.iter().enumerate().map(|(i, c)| {
                        let throttled = c.throttled_runs();
                        html! {
                            <li data-testid={format!("seeds-client-{i}")} data-throttled={throttled.to_string()} data-runs={c.duration_ms.len().to_string()}>
                                // The engine's sentence, as it words it.
                                <p class="seeds-summary" data-testid="seeds-summary">{ c.summary(&spread.seeds) }</p>
                                { charts::seed_strip(c, &spread.seeds, format!("seeds-strip-{i}")) }
                                <p class="strip-scale">{ match c.durations_sorted().last() {
                                    Some(hi) => format!("Bar height: the run's duration, 0 to {}.", model::fmt_ms(*hi)),
                                    None => "No run finished.".to_owned(),
                                } }</p>
                            </li>
                        }
                    }) }
                </ul>
                <p class="legend"><span class="key-item"><span class="sw seed"></span>{ "duration of a run, one bar per seed" }</span>
                    <span class="key-item"><span class="sw seed throttled"></span>{ "a run in which the client was throttled" }</span></p>
            }
        </section>
    }
}
