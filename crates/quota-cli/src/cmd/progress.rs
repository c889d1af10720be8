//! A long `simulate` run shows where it is and stops on Ctrl-C (issue 30).
//!
//! Before running, the engine estimates the run's work
//! ([`quota_engine::sim::estimate()`]); past [`BAR_ABOVE_WORK`] units (about
//! three seconds natively) a progress bar (indicatif) is drawn on stderr:
//! the events simulated against the estimate, and the simulated time
//! reached against the horizon. It is not drawn when stderr is not a
//! terminal or with `--quiet`. Ctrl-C (ctrlc) stops any run at its next
//! progress report (every [`quota_engine::sim::PROGRESS_EVERY_EVENTS`]
//! events, tens of milliseconds): the Timeline so far is printed, marked
//! as cut short, and `simulate` exits [`super::EXIT_CUT_SHORT`].

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use quota_engine::sim::estimate::grouped;
use quota_engine::sim::{Progress, WorkEstimate};

/// Work units (about events) past which the bar is drawn: about three
/// seconds at the 3.6 million events a second the lab's producer runs at
/// natively (BENCHMARKS.md).
pub(crate) const BAR_ABOVE_WORK: u64 = 10_000_000;

/// What a run reports to: the bar (if drawn) and the Ctrl-C flag.
pub(crate) struct Watch {
    bar: Option<ProgressBar>,
    stop: Arc<AtomicBool>,
    /// False once the run is over: Ctrl-C then ends the process.
    active: Arc<AtomicBool>,
}

impl Watch {
    /// Watches a run estimated at `estimate`: installs the Ctrl-C handler
    /// (once per process; if it cannot be installed, Ctrl-C ends the
    /// process as usual) and draws the bar unless `quiet`, stderr is not a
    /// terminal, or the run is short.
    pub(crate) fn new(estimate: &WorkEstimate, quiet: bool) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let active = Arc::new(AtomicBool::new(true));
        let (flag, running) = (Arc::clone(&stop), Arc::clone(&active));
        // A second Ctrl-C, or one once the run is over (while its output
        // prints), ends the process at once.
        let _ = ctrlc::set_handler(move || {
            if !running.load(Ordering::SeqCst) || flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        let draw = !quiet && std::io::stderr().is_terminal() && estimate.work > BAR_ABOVE_WORK;
        let bar = draw.then(|| {
            let bar = ProgressBar::with_draw_target(Some(estimate.events.max(1)), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "simulating {bar:30} {percent:>3}% of about {human_len} events, {msg} (Ctrl-C stops with the run so far)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        });
        Watch { bar, stop, active }
    }

    /// The engine's report: moves the bar; false once Ctrl-C was pressed.
    pub(crate) fn report(&mut self, p: &Progress) -> bool {
        if let Some(bar) = &self.bar {
            let len = bar.length().unwrap_or(1);
            // The estimate is an estimate: the bar never claims the end early.
            bar.set_length(len.max(p.events + 1));
            bar.set_position(p.events);
            bar.set_message(format!(
                "{} of at most {} simulated s",
                grouped((p.now_ms / 1000.0) as u64),
                grouped(u64::try_from(p.horizon_ms).unwrap_or(0).div_ceil(1000))
            ));
        }
        !self.stop.load(Ordering::SeqCst)
    }

    /// The run ended (done or cut short): the bar is cleared, and Ctrl-C
    /// ends the process again.
    pub(crate) fn finish(self) {
        self.active.store(false, Ordering::SeqCst);
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
