//! The per-request trace of a modelled run ([`crate::sim::simulate_traced`]):
//! built once at the end from the requests the world keeps anyway, so a
//! plain [`crate::sim::simulate`] pays nothing for it.

use super::ids::ix;
use super::World;
use crate::scenario::Scenario;
use crate::sim::time::{SimSpan, SimTime};
use crate::sim::timeline::{ModelledRequest, RequestApi, TracedRun, TRACE_CAP};

impl World {
    /// Runs like [`World::run`] and returns the Timeline with one row per
    /// request (the first [`TRACE_CAP`]).
    pub(crate) fn run_traced(self, scenario: &Scenario) -> TracedRun {
        self.run_traced_capped(scenario, TRACE_CAP, &mut |_| true)
    }

    /// [`World::run_traced`] keeping at most `cap` rows, with progress
    /// reports as [`World::run_with_progress`].
    pub(crate) fn run_traced_capped(
        mut self,
        scenario: &Scenario,
        cap: usize,
        on_progress: &mut dyn FnMut(&crate::sim::Progress) -> bool,
    ) -> TracedRun {
        self.keep_requests = u64::try_from(cap).unwrap_or(u64::MAX);
        let cut = self.step_with(on_progress);
        let (requests, capped) = self.request_rows(cap);
        let mut timeline = self.finish(scenario);
        if cut {
            timeline.cut_short = true;
            timeline.hit_horizon = false;
        }
        TracedRun {
            timeline,
            requests,
            capped,
        }
    }

    /// The rows of the requests sent so far, in send order, and whether
    /// there were more than `cap`.
    fn request_rows(&self, cap: usize) -> (Vec<ModelledRequest>, bool) {
        let ms = |t: Option<SimTime>| t.map(SimTime::as_ms_f64);
        let mut seq = vec![0u32; self.clients.iter().count()];
        let mut rows = Vec::new();
        let mut capped = false;
        for (id, req) in self.reqs.iter() {
            if rows.len() >= cap || id.0 >= self.keep_requests {
                capped = true;
                break;
            }
            let conn = &self.conns[req.conn];
            let client = conn.client;
            let n = &mut seq[ix(client.0)];
            *n += 1;
            let throttle = if req.recorded_at.is_some() {
                req.throttle_ms
            } else {
                0
            };
            rows.push(ModelledRequest {
                connection: self.clients[client].name.clone(),
                connection_index: client.0,
                broker: conn.broker.0,
                api: if req.is_fetch() {
                    RequestApi::Fetch
                } else {
                    RequestApi::Produce
                },
                seq: *n,
                send_ms: req.sent_at.as_ms_f64(),
                request_bytes: req.bytes(),
                written_ms: ms(req.written_at),
                arrival_ms: ms(req.arrived_at),
                start_ms: ms(req.read_at),
                record_ms: ms(req.recorded_at),
                bytes_recorded: req.bytes_recorded,
                throttle_ms: throttle,
                response_bytes: if req.recorded_at.is_some() {
                    req.response_bytes()
                } else {
                    0
                },
                response_received_ms: ms(req.response_at),
                mute_end_ms: req
                    .recorded_at
                    .filter(|_| throttle > 0)
                    .map(|at| (at + SimSpan::from_throttle_ms(throttle)).as_ms_f64()),
                waits: req.waits,
            });
        }
        (rows, capped || self.reqs.issued() > self.keep_requests)
    }
}
