//! One scenario run with many seeds: the spread a single run hides.
//!
//! The seed draws the jitter of every broker thread time
//! ([`crate::sim::BrokerCosts::jitter`]) and of the clients' reconnect
//! backoff, so a quota near what a client uses (the lab's
//! `request_percentage` on small traffic) throttles in some runs and not in
//! others: the lab article's "coin flip", which one run cannot show and the
//! spread over seeds does.

use serde::Serialize;

use super::{simulate, Scenario, Timeline, Valid};
use crate::Error;

/// The most seeds one call runs.
pub const SEEDS_MAX: u32 = 1_000;

/// One client over every seed: a producer or consumer, an Admin client,
/// or a connects workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClientSpread {
    /// The client (connection) name.
    pub name: String,
    /// Per seed, in [`SeedSpread::seeds`] order: its duration (ms; `None`
    /// when it did not finish: for an Admin client, a topic still pending;
    /// for connects, a connection not ready).
    pub duration_ms: Vec<Option<f64>>,
    /// Per seed: a producer's or consumer's `throttle-time-max`, an Admin
    /// client's largest response `throttle_time_ms`, a connects workload's
    /// largest per-IP throttle (ms; 0 for Kafka's NaN or none).
    pub throttle_max_ms: Vec<f64>,
    /// Per seed: the records it lost (an Admin client: its topics that
    /// failed; connects: 0).
    pub records_failed: Vec<u64>,
}

impl ClientSpread {
    /// Runs in which the client was throttled at least once.
    pub fn throttled_runs(&self) -> usize {
        self.throttle_max_ms.iter().filter(|t| **t > 0.0).count()
    }

    /// The finished runs' durations, sorted (ms).
    pub fn durations_sorted(&self) -> Vec<f64> {
        let mut d: Vec<f64> = self.duration_ms.iter().flatten().copied().collect();
        d.sort_by(f64::total_cmp);
        d
    }

    /// One sentence, e.g. `app: throttled in 17 of 20 runs (seeds 1-20);
    /// duration 64 to 12,221 ms, median 12,047 ms.`
    pub fn summary(&self, seeds: &[u64]) -> String {
        let n = self.duration_ms.len();
        let range = match (seeds.first(), seeds.last()) {
            (Some(a), Some(b)) if a != b => format!(" (seeds {a}-{b})"),
            (Some(a), _) => format!(" (seed {a})"),
            _ => String::new(),
        };
        let throttled = self.throttled_runs();
        let head = match throttled {
            0 => format!("{}: never throttled in {n} runs{range}", self.name),
            t if t == n => format!("{}: throttled in every one of {n} runs{range}", self.name),
            t => format!("{}: throttled in {t} of {n} runs{range}", self.name),
        };
        let d = self.durations_sorted();
        let g = |ms: f64| super::estimate::grouped(ms.round().max(0.0) as u64);
        let durations = match (d.first(), d.last()) {
            (Some(lo), Some(hi)) => format!("; duration {} to {} ms, median {} ms", g(*lo), g(*hi), g(d[d.len() / 2])),
            _ => String::new(),
        };
        let unfinished = n - d.len();
        let lost = self.records_failed.iter().filter(|r| **r > 0).count();
        let mut tail = String::new();
        if unfinished > 0 {
            tail.push_str(&format!("; {unfinished} run(s) did not finish"));
        }
        if lost > 0 {
            tail.push_str(&format!("; records (or an Admin client's topics) lost in {lost} run(s)"));
        }
        format!("{head}{durations}{tail}.")
    }
}

/// The scenario over `seeds`: per client, each run's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeedSpread {
    /// The seeds run, in order.
    pub seeds: Vec<u64>,
    /// One entry per producer or consumer, in the scenario's order.
    pub clients: Vec<ClientSpread>,
}

/// Runs `scenario` with `count` seeds, from its own `seed` up, and gathers
/// each client's figures per run.
///
/// # Errors
///
/// As [`simulate`]; and [`Error::is_invalid_scenario`] when `count` is 0
/// or above [`SEEDS_MAX`].
pub fn simulate_seeds(scenario: Valid<&Scenario>, count: u32) -> Result<SeedSpread, Error> {
    if !(1..=SEEDS_MAX).contains(&count) {
        return Err(Error::invalid_scenario(format!(
            "The spread over seeds takes 1 to {SEEDS_MAX} seeds, not {count}."
        )));
    }
    let mut spread = SeedSpread { seeds: Vec::new(), clients: Vec::new() };
    let mut s = scenario.get().clone();
    for k in 0..u64::from(count) {
        s.seed = scenario.seed.wrapping_add(k);
        // Only the seed differs from the checked scenario, and no check
        // reads it.
        debug_assert!(s.validate().is_ok());
        let t = simulate(Valid::checked(&s))?;
        add_run(&mut spread, s.seed, &t);
    }
    Ok(spread)
}

/// Adds one run's figures to `spread` (the page runs the seeds one by one
/// in its worker and gathers them the same way).
pub fn add_run(spread: &mut SeedSpread, seed: u64, t: &Timeline) {
    spread.seeds.push(seed);
    let mut rows: Vec<(&str, Option<f64>, f64, u64)> = Vec::new();
    for c in &t.clients {
        let max = c.metrics.throttle_time_max;
        rows.push((&c.name, c.duration_ms, if max.is_finite() { max } else { 0.0 }, c.outcome.failed_records()));
    }
    for a in &t.admin {
        let pending = a.count(super::TopicOutcome::Pending) > 0;
        let failed = a.topics.len() as u64 - u64::from(a.count(super::TopicOutcome::Done)) - u64::from(a.count(super::TopicOutcome::Pending));
        rows.push((&a.name, (!pending).then(|| a.duration_ms()), a.throttle_max_ms() as f64, failed));
    }
    for c in &t.connects {
        let max = c.attempts.iter().map(|x| x.throttle_ms).max().unwrap_or(0);
        rows.push((&c.name, c.finished.then_some(c.end_ms - c.start_ms), max as f64, 0));
    }
    for (name, duration, throttle, failed) in rows {
        let entry = match spread.clients.iter().position(|x| x.name == name) {
            Some(i) => &mut spread.clients[i],
            None => {
                spread.clients.push(ClientSpread {
                    name: name.to_owned(),
                    duration_ms: Vec::new(),
                    throttle_max_ms: Vec::new(),
                    records_failed: Vec::new(),
                });
                let last = spread.clients.len() - 1;
                &mut spread.clients[last]
            }
        };
        entry.duration_ms.push(duration);
        entry.throttle_max_ms.push(throttle);
        entry.records_failed.push(failed);
    }
}
