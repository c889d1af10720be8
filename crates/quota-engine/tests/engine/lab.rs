//! The lab article, reproduced: every measured run of
//! `kafka-client-quotas-lab.txt` simulated with one environment
//! (`Environment::LAB`, calibrated on the two unthrottled runs only) and
//! compared with the article's printed figures.
//!
//! Run `cargo test -p quota-engine --test engine lab -- --nocapture` to see the table.

use std::path::PathBuf;

use quota_engine::sim::{simulate, ClientTrack, Environment, Scenario, Timeline};
use serde_json::Value;

/// Relative tolerance of the issue: 15 %.
const TOLERANCE: f64 = 0.15;

struct Case {
    run: String,
    kind: String,
    article: Value,
    scenario: Scenario,
    raw_scenario: Value,
}

fn lab_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/lab")
}

fn cases() -> Vec<Case> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(lab_dir())
        .expect("tests/fixtures/lab exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            Case {
                run: v["run"].as_str().unwrap().to_owned(),
                kind: v["kind"].as_str().unwrap().to_owned(),
                article: v["article"].clone(),
                scenario: serde_json::from_value(v["scenario"].clone())
                    .unwrap_or_else(|e| panic!("{}: scenario does not parse: {e}", p.display())),
                raw_scenario: v["scenario"].clone(),
            }
        })
        .collect()
}

fn within(sim: f64, article: f64) -> bool {
    (sim - article).abs() <= TOLERANCE * article.abs()
}

fn client(t: &Timeline) -> &ClientTrack {
    &t.clients[0]
}

struct Row {
    run: String,
    figure: String,
    article: String,
    simulated: String,
    verdict: &'static str,
}

fn row(
    rows: &mut Vec<Row>,
    failures: &mut Vec<String>,
    run: &str,
    figure: &str,
    article: f64,
    sim: f64,
    check: Check,
) {
    let (ok, verdict) = match check {
        Check::Within => (within(sim, article), "within 15 %"),
        Check::Exact => (sim == article, "equal"),
        Check::Calibration => (within(sim, article), "calibration"),
        Check::Shown => (true, "shown"),
    };
    let verdict = if ok { verdict } else { "FAIL" };
    if !ok {
        failures.push(format!(
            "{run}: {figure}: article {article}, simulated {sim}"
        ));
    }
    rows.push(Row {
        run: run.to_owned(),
        figure: figure.to_owned(),
        article: fmt_num(article),
        simulated: fmt_num(sim),
        verdict,
    });
}

#[derive(Clone, Copy)]
enum Check {
    Within,
    Exact,
    Calibration,
    Shown,
}

fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_owned()
    } else if x == x.trunc() && x.abs() < 1e12 {
        format!("{}", x as i64)
    } else {
        format!("{x:.1}")
    }
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

#[test]
fn every_lab_run_uses_the_one_calibrated_environment() {
    for c in cases() {
        assert!(
            c.raw_scenario.get("environment").is_none(),
            "{}: lab scenarios must not set their own environment (no per-run tuning)",
            c.run
        );
        assert_eq!(c.scenario.environment, Environment::LAB, "{}", c.run);
    }
}

#[test]
fn lab_table() {
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let mut perf_text = String::new();
    let all = cases();
    assert_eq!(
        all.len(),
        13,
        "one scenario file per measured run of the article"
    );
    for c in &all {
        let valid = c.scenario.validate().unwrap_or_else(|p| panic!("{}: {p:?}", c.run));
        let t = simulate(valid).unwrap_or_else(|e| panic!("{}: {e}", c.run));
        let cl = client(&t);
        let a = &c.article;
        let run = c.run.as_str();
        let throttled = a["throttled"].as_bool().unwrap();
        let duration = cl
            .duration_ms
            .unwrap_or_else(|| panic!("{run}: the client did not finish"));
        let calibration = a
            .get("calibration")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if run == "request-percentage-1" {
            // Nondeterministic in the lab (4 of 8 repeats throttled): shown
            // here, its dependence on thread time is asserted separately.
            row(
                &mut rows,
                &mut failures,
                run,
                "duration ms",
                num(a, "duration_ms").unwrap(),
                duration,
                Check::Shown,
            );
            row(
                &mut rows,
                &mut failures,
                run,
                "throttle max ms",
                1000.0,
                cl.metrics.throttle_time_max,
                Check::Shown,
            );
            row(
                &mut rows,
                &mut failures,
                run,
                "throttle avg ms",
                74.6,
                cl.metrics.throttle_time_avg,
                Check::Shown,
            );
            continue;
        }
        if let Some(d) = num(a, "duration_ms") {
            let check = if calibration {
                Check::Calibration
            } else if throttled {
                Check::Within
            } else {
                Check::Shown
            };
            row(
                &mut rows,
                &mut failures,
                run,
                "duration ms",
                d,
                duration,
                check,
            );
        }
        if throttled {
            assert!(
                cl.metrics.throttle_time_max > 0.0,
                "{run}: the article saw throttling, the simulation did not"
            );
            if let Some(m) = num(a, "throttle_max_ms") {
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "throttle max ms",
                    m,
                    cl.metrics.throttle_time_max,
                    Check::Within,
                );
            }
            if let Some(m) = num(a, "throttle_avg_ms") {
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "throttle avg ms",
                    m,
                    cl.metrics.throttle_time_avg,
                    Check::Shown,
                );
            }
        } else {
            row(
                &mut rows,
                &mut failures,
                run,
                "throttle max ms",
                0.0,
                cl.metrics.throttle_time_max,
                Check::Exact,
            );
        }
        row(
            &mut rows,
            &mut failures,
            run,
            "record-retry-total",
            0.0,
            cl.metrics.record_retry_total as f64,
            Check::Exact,
        );
        if c.kind == "producer" {
            row(
                &mut rows,
                &mut failures,
                run,
                "record-error-total",
                0.0,
                cl.metrics.record_error_total as f64,
                Check::Exact,
            );
        }
        if run.starts_with("perf-") {
            let perf = cl.perf.as_ref().expect("producers have a perf summary");
            if let Some(p99) = num(a, "p99_ms") {
                let check = if throttled {
                    Check::Within
                } else {
                    Check::Calibration
                };
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "p99 latency ms",
                    p99,
                    f64::from(perf.latency.p99_ms),
                    check,
                );
            }
            if let Some(mb) = num(a, "mb_per_s") {
                let sim = 1000.0 * perf.bytes as f64 / perf.elapsed_ms as f64 / (1024.0 * 1024.0);
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "MB/sec",
                    mb,
                    sim,
                    Check::Shown,
                );
            }
            if throttled {
                let first = perf.windows.first().map_or(0.0, |w| w.records as f64);
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "first 5 s records",
                    num(a, "first_window_records").unwrap(),
                    first,
                    Check::Within,
                );
                let second = perf.windows.get(1).map_or(0.0, |w| w.records as f64);
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "second 5 s records",
                    num(a, "second_window_records").unwrap(),
                    second,
                    Check::Shown,
                );
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "max latency ms",
                    num(a, "max_latency_ms").unwrap(),
                    f64::from(perf.latency.max_ms),
                    Check::Within,
                );
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "p50 latency ms",
                    num(a, "p50_ms").unwrap(),
                    f64::from(perf.latency.p50_ms),
                    Check::Shown,
                );
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "p95 latency ms",
                    num(a, "p95_ms").unwrap(),
                    f64::from(perf.latency.p95_ms),
                    Check::Shown,
                );
                let mbeans = &t.brokers[0].mbeans;
                let read = |attr: &str| {
                    mbeans
                        .iter()
                        .find(|m| {
                            m.mbean == "kafka.server:type=Produce,client-id=perf-throttled-20814"
                                && m.attribute == attr
                        })
                        .map_or(f64::NAN, |m| m.value)
                };
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "MBean byte-rate",
                    num(a, "broker_byte_rate").unwrap(),
                    read("byte-rate"),
                    Check::Shown,
                );
                row(
                    &mut rows,
                    &mut failures,
                    run,
                    "MBean throttle-time",
                    num(a, "broker_throttle_time").unwrap(),
                    read("throttle-time"),
                    Check::Shown,
                );
                perf_text += &format!("\n{run}: simulated kafka-producer-perf-test.sh output\n");
                for l in perf.lines() {
                    perf_text += &format!("    {l}\n");
                }
                perf_text += "  article:\n";
                for l in a["quote"].as_str().unwrap().split(" / ") {
                    perf_text += &format!("    {l}\n");
                }
            }
        }
    }
    let mut table = perf_text;
    table += &format!(
        "\n{:<30} {:<20} {:>12} {:>12}  check\n",
        "run", "figure", "article", "simulated"
    );
    table += &format!("{}\n", "-".repeat(90));
    for r in &rows {
        table += &format!(
            "{:<30} {:<20} {:>12} {:>12}  {}\n",
            r.run, r.figure, r.article, r.simulated, r.verdict
        );
    }
    println!("{table}");
    assert!(
        failures.is_empty(),
        "lab figures out of tolerance:\n{}",
        failures.join("\n")
    );
}

/// The article: "the batched 10 MB producer was throttled four times ... and
/// finished untouched four times ... whether it crosses 1 % depends on" the
/// thread time its requests cost. The simulation shows the threshold: 10 MB in
/// ~157 requests of 64 KiB against 1 % of a thread over the padded 10 s window
/// (100 ms of thread time) tips over at ~0.64 ms per request.
#[test]
fn request_percentage_outcome_depends_on_thread_time_per_request() {
    let base = cases()
        .into_iter()
        .find(|c| c.run == "request-percentage-1")
        .unwrap()
        .scenario;
    let mut table = String::from(
        "\nrequest_percentage=1, 10 MB: outcome by broker thread time per 64 KiB produce request\n",
    );
    table += &format!(
        "{:>18} {:>14} {:>16} {:>16} {:>8}\n",
        "thread ms/request", "duration ms", "throttle max ms", "throttle avg ms", "errors"
    );
    let mut outcomes = Vec::new();
    for per_request_us in [
        200.0, 400.0, 550.0, 600.0, 650.0, 700.0, 750.0, 850.0, 1000.0, 1500.0,
    ] {
        let mut s = base.clone();
        // Scale the produce handler cost so one 64 KiB batch costs `per_request_us`
        // of handler + network thread time in total; no jitter, to show the edge.
        let kib = 64.6;
        s.environment.broker.jitter = 0.0;
        s.environment.broker.produce.network_us = 20.0;
        s.environment.broker.produce.network_us_per_kib = 0.0;
        s.environment.broker.produce.io_us = 0.0;
        s.environment.broker.produce.io_us_per_kib = (per_request_us - 20.0) / kib;
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let c = client(&t);
        table += &format!(
            "{:>18.2} {:>14.0} {:>16} {:>16.1} {:>8}\n",
            per_request_us / 1000.0,
            c.duration_ms.unwrap(),
            c.metrics.throttle_time_max,
            c.metrics.throttle_time_avg,
            c.metrics.record_error_total
        );
        assert_eq!(c.metrics.record_retry_total, 0);
        assert_eq!(
            c.metrics.record_error_total, 0,
            "throttling delays, it does not fail"
        );
        outcomes.push((
            per_request_us,
            c.metrics.throttle_time_max,
            c.duration_ms.unwrap(),
        ));
    }
    println!("{table}");
    // Cheap requests: untouched. Expensive ones: throttled, the throttle capped
    // at one window (1000 ms), the run stretched past 10 s. In between, a
    // brief throttle or none, depending on where the requests land in the
    // windows (the article's "coin flip").
    for (us, max, dur) in &outcomes {
        if *us <= 550.0 {
            assert_eq!(*max, 0.0, "{us} µs/request should stay under 1 %");
            assert!(*dur < 1000.0);
        }
        if *us >= 850.0 {
            assert_eq!(
                *max, 1000.0,
                "{us} µs/request: request throttles are capped at one window"
            );
            assert!(*dur > 10_000.0, "{us} µs/request: {dur} ms");
        }
    }
}

/// The article's second request-quota experiment: 300 records one per
/// request (`linger.ms=0`, `batch.size=1`). With 1 % of a thread over the
/// padded 10 s window (100 ms) and 300 requests, the edge is ~0.33 ms each.
#[test]
fn request_percentage_with_one_record_per_request() {
    let mut s = cases()
        .into_iter()
        .find(|c| c.run == "request-percentage-1")
        .unwrap()
        .scenario;
    let quota_engine::sim::Workload::Producer(p) = &mut s.workloads[0] else {
        panic!("a producer")
    };
    p.records = 300;
    p.config.linger_ms = 0;
    p.config.batch_size = 1;
    let mut table = String::from(
        "\nrequest_percentage=1, 300 records one per request: outcome by thread time per request\n",
    );
    table += &format!(
        "{:>18} {:>14} {:>16}\n",
        "thread ms/request", "duration ms", "throttle max ms"
    );
    let mut seen = Vec::new();
    for per_request_us in [100.0, 250.0, 300.0, 350.0, 400.0, 600.0] {
        let mut s = s.clone();
        s.environment.broker.jitter = 0.0;
        s.environment.broker.produce = quota_engine::sim::RequestCost {
            io_us: per_request_us - 20.0,
            io_us_per_kib: 0.0,
            network_us: 20.0,
            network_us_per_kib: 0.0,
        };
        let t = simulate(s.validate().expect("a valid scenario")).unwrap();
        let c = client(&t);
        table += &format!(
            "{:>18.2} {:>14.0} {:>16}\n",
            per_request_us / 1000.0,
            c.duration_ms.unwrap(),
            c.metrics.throttle_time_max
        );
        assert_eq!(
            c.metrics.record_error_total + c.metrics.record_retry_total,
            0
        );
        seen.push((per_request_us, c.metrics.throttle_time_max));
    }
    println!("{table}");
    assert_eq!(seen[0].1, 0.0, "0.1 ms per request stays under 1 %");
    assert_eq!(
        seen.last().unwrap().1,
        1000.0,
        "0.6 ms per request is throttled, capped at one window"
    );
}

#[test]
fn same_seed_same_timeline_other_seed_may_differ() {
    let s = cases()
        .into_iter()
        .find(|c| c.run == "producer-client-quota")
        .unwrap()
        .scenario;
    let a = simulate(s.validate().expect("a valid scenario")).unwrap();
    let b = simulate(s.validate().expect("a valid scenario")).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.fingerprint(), b.fingerprint());
    let mut other = s.clone();
    other.seed = 2;
    let c = simulate(other.validate().expect("a valid scenario")).unwrap();
    // The seed drives the broker's thread-time jitter: timings move a little,
    // the quota outcome does not.
    assert_ne!(a.fingerprint(), c.fingerprint());
    let (ca, cc) = (client(&a), client(&c));
    assert!(within(cc.duration_ms.unwrap(), ca.duration_ms.unwrap()));
}
