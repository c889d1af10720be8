//! The simulation of the current scenario as the panels and hooks read it
//! (its own module so that `app` and `hooks` both use it without depending
//! on each other).

use quota_engine::sim::Timeline;

use crate::model;

/// The simulation of the current scenario.
#[derive(Debug)]
pub(crate) struct SimView {
    /// The Timeline, or the engine's reason it could not be computed.
    pub(crate) result: Result<Timeline, String>,
    /// The transport's step stops ([`Timeline::event_times`]).
    pub(crate) events: Vec<f64>,
}

impl SimView {
    /// Simulates `scenario` ([`model::simulate`]) and lists its step stops.
    pub(crate) fn of(scenario: &quota_engine::sim::Scenario) -> Self {
        let result = model::simulate(scenario);
        let events = result.as_ref().map(Timeline::event_times).unwrap_or_default();
        SimView { result, events }
    }

    /// The end of simulated time (ms), 0 without a Timeline.
    pub(crate) fn end_ms(&self) -> f64 {
        self.result.as_ref().map_or(0.0, |t| t.end_ms)
    }
}
