//! The work estimate beside the run: for each scenario file (envelope or
//! bare JSON) prints `sim::estimate`'s work units, the events the run
//! really took, their ratio, and the wall time of the run (BENCHMARKS.md,
//! "Work estimate").
//!
//! ```sh
//! cargo run --release -p quota-engine --example estimate_vs_run -- lab/scenarios/*.json examples/*.json
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
        let scenario = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).map_err(|e| e.to_string()))
            .and_then(|v| {
                let s = v.get("scenario").cloned().unwrap_or(v);
                serde_json::from_value::<quota_engine::sim::Scenario>(s).map_err(|e| e.to_string())
            });
        let s = match scenario {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let e = quota_engine::sim::estimate(&s);
        #[allow(clippy::disallowed_methods)] // a benchmark: it times the run
        let t0 = std::time::Instant::now();
        match s.validate().map_err(quota_engine::Error::from).and_then(quota_engine::sim::simulate) {
            Ok(t) => println!(
                "{name:<40} work {:>12}  events {:>12}  ratio {:.2}  {:.3} s",
                e.work,
                t.events,
                t.events as f64 / e.work.max(1) as f64,
                t0.elapsed().as_secs_f64()
            ),
            Err(err) => {
                eprintln!("{path}: {err}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
