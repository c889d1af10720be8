//! The comparison: each run of `lab/runs.json` measured on the real
//! cluster (`target/real-kafka/real.json`, written by `lab/harness`),
//! simulated by `quota_engine::sim::simulate` on the same scenario file,
//! and quoted from the lab article, figure by figure.
//!
//! A run's figures (the harness's aggregation, `Main.AGGREGATION` in
//! `lab/harness`, which the simulated side follows):
//! - `duration_ms`: the longest client duration (ms); null when a client
//!   did not finish.
//! - `throttle_max_ms`: the largest client `produce-throttle-time-max` /
//!   `fetch-throttle-time-max` (ms).
//! - `throttle_avg_ms`: the largest client `...-throttle-time-avg` (ms), the
//!   most throttled client's average.
//! - `bytes_first_5s`: record bytes acknowledged (producers) or consumed
//!   (consumers) in the first 5,000 ms of the run, summed over the clients.
//! - `records_failed`: records whose callback got an exception, summed.
//! - `fetch_requests` (runs with consumers): the consumers' fetch
//!   responses (`fetch-total`), summed: how the fetch cap cuts what they
//!   read into responses. The simulated side counts the consumers' fetch
//!   requests, each answered before the consumer stops.
//!
//! A real run repeated `n` times reports each figure's median and its
//! min–max spread. Tolerances (issue 25): a throttled run's duration and
//! every non-zero max throttle within 5 % of the real median, the first-5 s
//! bytes within 10 %, the consumers' fetch responses within 5 % or one
//! fetch (held only where the real run measured them: a `real.json` of an
//! older harness has none), failed records equal; a figure inside the min–max
//! range of the real repeats is within too when the repeats agree (their
//! range no wider than twice the tolerance). Unthrottled durations (a few
//! hundred ms of connection set-up and JIT warm-up) and throttle averages
//! are shown but not held to a tolerance.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use quota_engine::sim::{simulate, ClientKind, Environment, Scenario, ScenarioEvent, Timeline, TopicOutcome, Workload};
use serde::{Deserialize, Serialize};

/// Throttled durations and max throttle: within this fraction of real.
pub const TIME_TOLERANCE: f64 = 0.05;
/// Bytes acknowledged in the first 5 s: within this fraction of real.
pub const BYTES_TOLERANCE: f64 = 0.10;
/// Consumers' fetch responses: within this fraction of real, or one fetch
/// (a fetch more or less at the end of a run).
pub const FETCHES_TOLERANCE: f64 = 0.05;
/// Topics created and topics failed with `ThrottlingQuotaExceededException`
/// by Admin clients: within this fraction of real (one topic of 20 or more:
/// a retry that lands a millisecond either side of the deadline).
pub const TOPICS_TOLERANCE: f64 = 0.05;
/// The instant `bytes_first_5s` is read at (ms from the run's start).
pub const FIRST_WINDOW_MS: f64 = 5_000.0;

/// `lab/runs.json`: the runs, their scenario files, the article's figures.
#[derive(Debug, Clone, Deserialize)]
pub struct RunsFile {
    /// The Kafka version the runs are for (`4.3.1`).
    pub kafka_version: String,
    /// The runs, in order.
    pub runs: Vec<RunSpec>,
}

/// One run of `lab/runs.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct RunSpec {
    /// The run's name (unique).
    pub name: String,
    /// The scenario file, relative to the repository root.
    pub scenario: String,
    /// How many times the harness performs it.
    #[serde(default = "one")]
    pub repeats: u32,
    /// The lab article's figures for this run, when it has some.
    #[serde(default)]
    pub article: Option<Figures>,
    /// Also simulate the run with this many seeds and report the spread
    /// beside the real repeats' (a quota near what a client uses throttles
    /// in some runs and not in others).
    #[serde(default)]
    pub seeds: Option<u32>,
}

/// A run's outcome spread: over the real repeats, or over the seeds.
#[derive(Debug, Clone, Serialize)]
pub struct Spread {
    /// Runs (repeats or seeds).
    pub runs: usize,
    /// Runs in which the run's clients were throttled (max throttle > 0).
    pub throttled: usize,
    /// The shortest, median and longest duration (ms).
    pub duration_ms: [f64; 3],
}

impl Spread {
    fn of(items: &[(f64, f64)]) -> Option<Spread> {
        let mut d: Vec<f64> = items.iter().map(|(d, _)| *d).collect();
        let mid = median(&mut d)?;
        Some(Spread {
            runs: items.len(),
            throttled: items.iter().filter(|(_, t)| *t > 0.0).count(),
            duration_ms: [d[0], mid, d[d.len() - 1]],
        })
    }

    fn text(&self, unit: &str) -> String {
        format!(
            "throttled in {} of {} {unit}, duration {}-{} ms (median {})",
            self.throttled,
            self.runs,
            num(self.duration_ms[0]),
            num(self.duration_ms[2]),
            num(self.duration_ms[1])
        )
    }
}

fn one() -> u32 {
    1
}

/// A run's figures; any may be unknown (null).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The longest client duration, ms.
    #[serde(default)]
    pub duration_ms: Option<f64>,
    /// The largest client throttle-time-max, ms.
    #[serde(default)]
    pub throttle_max_ms: Option<f64>,
    /// The largest client throttle-time-avg, ms.
    #[serde(default)]
    pub throttle_avg_ms: Option<f64>,
    /// Record bytes done in the first 5 s, bytes.
    #[serde(default)]
    pub bytes_first_5s: Option<f64>,
    /// Records failed, a count.
    #[serde(default)]
    pub records_failed: Option<f64>,
    /// Consumers: fetch responses (`fetch-total`), summed over the
    /// consumers; absent for a run without consumers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch_requests: Option<f64>,
    /// Admin clients: topics whose future completed (created), a count;
    /// absent for a run without Admin clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics_created: Option<f64>,
    /// Admin clients: topics whose future failed with
    /// `ThrottlingQuotaExceededException`, a count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics_throttled: Option<f64>,
    /// Connects: clients whose first connection the per-IP quota refused,
    /// a count; absent for a run without connects workloads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections_refused_first: Option<f64>,
    /// Connects: every refused attempt, a count (shown, not held: the
    /// reconnects' jitter draws differ between the JVM and the seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection_refusals: Option<f64>,
    /// Connects: when the first refused socket was closed (ms from the
    /// start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_close_ms: Option<f64>,
}

/// `target/real-kafka/real.json`, the parts read here.
#[derive(Debug, Clone, Deserialize)]
pub struct RealFile {
    /// The version the harness ran against.
    #[serde(default)]
    pub kafka_version: String,
    /// The clients' version (`AppInfoParser.getVersion()`).
    #[serde(default)]
    pub kafka_clients_version: Option<String>,
    /// The runs measured.
    #[serde(default)]
    pub runs: Vec<RealRun>,
}

/// One run as measured: its repeats.
#[derive(Debug, Clone, Deserialize)]
pub struct RealRun {
    /// The run's name, as in `lab/runs.json`.
    pub name: String,
    /// Each repeat's measurement.
    #[serde(default)]
    pub repeats: Vec<RealRepeat>,
}

/// One repeat of a run.
#[derive(Debug, Clone, Deserialize)]
pub struct RealRepeat {
    /// The run-level figures (null when the repeat failed before them).
    #[serde(default)]
    pub run: Option<Figures>,
    /// What went wrong, if anything.
    #[serde(default)]
    pub error: Option<String>,
    /// The brokers' quota MBeans at the run's end, as the harness wrote them.
    #[serde(default)]
    pub broker_metrics: serde_json::Value,
}

impl RealFile {
    /// Several harness outputs as one: `scripts/lab.sh` starts one cluster
    /// per set of static broker settings the runs need ([`cluster_groups`])
    /// and the harness writes one file per cluster. `files` are
    /// `(path, file)` pairs; the path names a file in errors.
    ///
    /// # Errors
    ///
    /// Files measured against different Kafka or client versions, or one
    /// run measured in two files.
    pub fn merge(files: Vec<(String, RealFile)>) -> Result<RealFile> {
        let mut merged = RealFile { kafka_version: String::new(), kafka_clients_version: None, runs: Vec::new() };
        let mut from: BTreeMap<String, String> = BTreeMap::new();
        for (path, file) in files {
            if !file.kafka_version.is_empty() {
                if merged.kafka_version.is_empty() {
                    merged.kafka_version = file.kafka_version.clone();
                } else if merged.kafka_version != file.kafka_version {
                    anyhow::bail!("{path}: measured Kafka {} but another real file measured {}", file.kafka_version, merged.kafka_version);
                }
            }
            if let Some(v) = file.kafka_clients_version {
                match &merged.kafka_clients_version {
                    Some(m) if *m != v => anyhow::bail!("{path}: the clients were {v} but another real file's were {m}"),
                    _ => merged.kafka_clients_version = Some(v),
                }
            }
            for run in file.runs {
                if let Some(other) = from.insert(run.name.clone(), path.clone()) {
                    anyhow::bail!("{path}: the run {} is also in {other}", run.name);
                }
                merged.runs.push(run);
            }
        }
        Ok(merged)
    }
}

/// Broker settings a scenario may name that the harness applies to the
/// running cluster for the run, as a per-broker dynamic config
/// (`RunExecutor.DYNAMIC_SETTINGS` in `lab/harness`). The harness compares
/// every other setting a scenario names with the cluster's and refuses the
/// run when they differ (most, such as `quota.window.num`, are static
/// broker configs that Kafka 4.3.1's `DynamicBrokerConfig` cannot change;
/// the harness alters none of them), so the cluster must be started with it.
pub const DYNAMIC_SETTINGS: &[&str] = &["max.connection.creation.rate"];

/// Runs that need one cluster: the static broker settings it is started
/// with (`key` to value, as the harness writes the scenario's values) and
/// the runs' names, in `lab/runs.json`'s order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterGroup {
    /// `scenario.brokers.settings` less [`DYNAMIC_SETTINGS`]; empty for
    /// the cluster `scripts/kafka-cluster.sh` starts by default.
    pub settings: BTreeMap<String, String>,
    /// The runs measured on that cluster.
    pub runs: Vec<String>,
}

impl ClusterGroup {
    /// What names this cluster in files and directories, made from its
    /// settings alone (so a group is named the same whichever runs
    /// `--only` keeps, and a run whose settings change moves to another
    /// name): empty for the default cluster, else `-` and the `key=value`
    /// pairs joined by `+` (`-quota.window.num=1`). Not `,`: `lab.sh` names
    /// the cluster's directory with it, and Kafka's `log.dirs` is a
    /// comma-separated list.
    fn suffix(&self) -> String {
        if self.settings.is_empty() {
            return String::new();
        }
        let pairs: Vec<String> = self.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("-{}", pairs.join("+"))
    }

    /// The harness's output for this cluster: `real.json` for the default
    /// cluster, else `real-key=value+....json`.
    pub fn real_file(&self) -> String {
        format!("real{}.json", self.suffix())
    }
}

/// Refuses a run read from a file of another cluster than its group's:
/// `files` are `(path, file)` pairs; a file whose name is one of `groups`'
/// [`ClusterGroup::real_file`] names (what `scripts/lab.sh` writes) may
/// hold only that group's runs. A run whose scenario's settings changed
/// since it was measured is then "not measured", not compared with a
/// measurement on a cluster with other settings. Files under other names
/// (a harness `--out` of one's own) are not checked; runs no group lists
/// (left out by `--only`) are ignored.
///
/// # Errors
///
/// The first run found in another group's file, naming both files.
pub fn check_real_files(groups: &[ClusterGroup], files: &[(String, RealFile)]) -> Result<()> {
    let group_of: BTreeMap<&str, String> =
        groups.iter().flat_map(|g| g.runs.iter().map(move |r| (r.as_str(), g.real_file()))).collect();
    for (path, file) in files {
        let name = std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !groups.iter().any(|g| g.real_file() == name) {
            continue;
        }
        for run in &file.runs {
            if let Some(expected) = group_of.get(run.name.as_str()) {
                if expected != name {
                    anyhow::bail!(
                        "{path}: the run {} was measured on another cluster than its scenario's broker settings now need ({expected}): measure it again (LAB_ONLY={} scripts/lab.sh)",
                        run.name,
                        run.name
                    );
                }
            }
        }
    }
    Ok(())
}

/// A setting's value as the harness writes it (`ScenarioPlan.scalar` and
/// `Main.num` in `lab/harness`): a string as it is, an integral number
/// without a fraction (`1.0` is `1`), a boolean as `true` or `false`; another
/// number from 0.001 to 10^7 as a plain decimal (Rust's shortest digits,
/// which Java 17's `Double.toString` may not always choose: the harness
/// compares numbers by value, so both name the same setting); `None` for
/// anything else.
fn harness_scalar(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Some(i.to_string());
            }
            let f = n.as_f64()?;
            if f == f.round() && f.abs() < 1e15 {
                // Below 1e15, an integral f64 is exactly an i64.
                #[allow(clippy::cast_possible_truncation)]
                return Some((f as i64).to_string());
            }
            // Java's Double.toString writes the others with an exponent
            // (1.5E20, 1.0E-4), which kafka-cluster.sh refuses; in between,
            // a plain fraction as Rust writes it (0.5).
            (1e-3..1e7).contains(&f.abs()).then(|| f.to_string())
        }
        _ => None,
    }
}

/// The clusters `runs` need, one per set of static broker settings their
/// scenarios name (`scenario.brokers.settings`, read raw and written as the
/// harness's `ScenarioPlan` writes them: a setting a scenario leaves out is
/// the cluster's default). The group with no settings comes first, the
/// others in the order of their settings. `read` reads a scenario file by
/// its path in `runs`.
///
/// # Errors
///
/// A scenario file that cannot be read or is not JSON; a setting whose
/// name is not lower-case letters, digits and dots, or whose value is not
/// a string, number or boolean of letters, digits, `.`, `_` and `-`
/// (`scripts/kafka-cluster.sh` takes the settings as `key=value` words).
pub fn cluster_groups(runs: &RunsFile, read: impl Fn(&str) -> Result<String>) -> Result<Vec<ClusterGroup>> {
    let mut groups: BTreeMap<BTreeMap<String, String>, Vec<String>> = BTreeMap::new();
    for spec in &runs.runs {
        let text = read(&spec.scenario).with_context(|| format!("run {}", spec.name))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", spec.scenario))?;
        let scenario = v.get("scenario").unwrap_or(&v);
        let mut settings = BTreeMap::new();
        if let Some(named) = scenario.pointer("/brokers/settings").and_then(serde_json::Value::as_object) {
            for (key, value) in named {
                if DYNAMIC_SETTINGS.contains(&key.as_str()) {
                    continue;
                }
                let key_ok = key.starts_with(|c: char| c.is_ascii_lowercase())
                    && key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.');
                if !key_ok {
                    anyhow::bail!(
                        "{}: scenario.brokers.settings.{key:?}: not a broker setting's name (lower-case letters, digits and dots)",
                        spec.scenario
                    );
                }
                let Some(value) = harness_scalar(value) else {
                    anyhow::bail!(
                        "{}: scenario.brokers.settings.{key}: {value} is not a string, number or boolean that scripts/kafka-cluster.sh can write (a number needs no exponent in Java's Double.toString)",
                        spec.scenario
                    )
                };
                if value.is_empty() || !value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) {
                    anyhow::bail!(
                        "{}: scenario.brokers.settings.{key}: {value:?}: scripts/lab.sh starts a cluster with a static setting only when its value is letters, digits, '.', '_' and '-'",
                        spec.scenario
                    );
                }
                settings.insert(key.clone(), value);
            }
        }
        groups.entry(settings).or_default().push(spec.name.clone());
    }
    Ok(groups.into_iter().map(|(settings, runs)| ClusterGroup { settings, runs }).collect())
}

/// The real side of a run: medians, spreads, and the brokers' metrics.
#[derive(Debug, Clone, Serialize)]
pub struct RealFigures {
    /// Each figure's median over the repeats.
    #[serde(flatten)]
    pub median: Figures,
    /// How many repeats measured the run.
    pub repeats: usize,
    /// `[min, max]` per figure over the repeats (only with 2 or more).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub spread: BTreeMap<&'static str, [f64; 2]>,
    /// The brokers' quota metrics for the run's budgets at its end (the
    /// first repeat's): byte-rate / request-time and throttle-time.
    pub broker_metrics: serde_json::Value,
}

/// `target/real-kafka/lab.json`.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// `4.3.1`.
    pub kafka_version: String,
    /// What the real clients reported as their version.
    pub kafka_clients_version: Option<String>,
    /// The tolerances applied, in words.
    pub tolerances: String,
    /// The environment every simulation ran with, and where it came from.
    pub environment_source: String,
    /// One entry per run of `lab/runs.json`.
    pub runs: Vec<RunReport>,
}

/// One run, real | simulated | article.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// The run's name.
    pub name: String,
    /// The scenario file.
    pub scenario: String,
    /// The quota keys the run sets (quotas and events), sorted.
    pub quota_keys: Vec<String>,
    /// The real cluster's figures; null when the run was not measured.
    pub real: Option<RealFigures>,
    /// The simulator's figures; null when the scenario did not simulate.
    pub simulated: Option<Figures>,
    /// The lab article's figures, when it has the run.
    pub article: Option<Figures>,
    /// Every held figure within its tolerance.
    pub within_tolerance: bool,
    /// The held figures outside tolerance, each with both values.
    pub outside: Vec<String>,
    /// Of those, the figures the run's explanation does not name (every
    /// one when it has none): the run fails when any is left.
    pub unexplained: Vec<String>,
    /// Why the run differs (from `lab/explanations.json`), or null.
    pub explanation: Option<Explanation>,
    /// A real repeat's failure, or a run missing from the real file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub real_error: Option<String>,
    /// The scenario's problem when it could not be simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation_error: Option<String>,
    /// With `seeds` in the run: the real repeats' spread and the
    /// simulator's over the seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread: Option<[Option<Spread>; 2]>,
}

impl RunReport {
    /// Outside its tolerances, with every figure outside named by its
    /// explanation (and no failed real run or simulation).
    pub fn explained(&self) -> bool {
        !self.within_tolerance && self.unexplained.is_empty() && self.real_error.is_none() && self.simulation_error.is_none()
    }
}

/// Reads one scenario file (envelope or bare), as the CLI does.
fn scenario_of(text: &str, path: &str) -> Result<Scenario> {
    let file = quota_formats::scenario::from_json(text)
        .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    Ok(file.scenario)
}

/// The quota keys a scenario sets, in its quotas and its events.
pub fn quota_keys(s: &Scenario) -> Vec<String> {
    let mut keys: BTreeSet<String> = s.quotas.iter().map(|q| q.key.to_string()).collect();
    for e in &s.events {
        if let ScenarioEvent::SetQuota { key, .. } = e {
            keys.insert(key.to_string());
        }
    }
    keys.into_iter().collect()
}

/// A finite figure, else `None` (Kafka's NaN "no sample").
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The value size of the records a connection's workload sends or reads
/// (bytes): a producer's `record.size`; a consumer's topic's preload
/// `record.size`, else that of a producer writing to the topic.
fn record_size(s: &Scenario, connection: &str) -> Option<u64> {
    let producer_size = |topic: &str| {
        s.workloads.iter().find_map(|w| match w {
            Workload::Producer(p) if p.topic == topic => Some(u64::from(p.record_size)),
            _ => None,
        })
    };
    s.workloads.iter().find_map(|w| match w {
        Workload::Producer(p) if p.connection == connection => Some(u64::from(p.record_size)),
        Workload::Consumer(c) if c.connection == connection => s
            .topics
            .iter()
            .find(|t| t.name == c.topic)
            .and_then(|t| t.preload.as_ref())
            .map(|p| u64::from(p.record_size))
            .or_else(|| producer_size(&c.topic)),
        _ => None,
    })
}

/// The run-level figures of a simulated timeline, aggregated as the
/// harness aggregates the real clients; `bytes_first_5s` counts record
/// values (records done by 5,000 ms × the workload's record size), as the
/// harness does.
pub fn simulated_figures(s: &Scenario, t: &Timeline) -> Figures {
    let mut f = Figures {
        duration_ms: Some(0.0),
        bytes_first_5s: Some(0.0),
        records_failed: Some(0.0),
        ..Figures::default()
    };
    let max = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    };
    for c in &t.clients {
        f.duration_ms = match (f.duration_ms, c.duration_ms) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        f.throttle_max_ms = max(f.throttle_max_ms, finite(c.metrics.throttle_time_max));
        f.throttle_avg_ms = max(f.throttle_avg_ms, finite(c.metrics.throttle_time_avg));
        let per_record = record_size(s, &c.name).map_or_else(
            || {
                if c.metrics.records_done > 0 {
                    c.metrics.bytes_done as f64 / c.metrics.records_done as f64
                } else {
                    0.0
                }
            },
            |b| b as f64,
        );
        let done = c.at(FIRST_WINDOW_MS - 1e-6).records as f64;
        f.bytes_first_5s = f.bytes_first_5s.map(|b| b + (done * per_record).round());
        f.records_failed = f.records_failed.map(|n| n + c.outcome.failed_records() as f64);
        if c.kind == ClientKind::Consumer {
            f.fetch_requests = Some(f.fetch_requests.unwrap_or(0.0) + c.metrics.requests as f64);
        }
    }
    // Admin clients, as the harness measures them: from the first call to
    // the last future, the futures' outcomes, and the largest
    // ThrottlingQuotaExceededException.throttleTimeMs() (0 when none).
    if !t.admin.is_empty() {
        let (mut created, mut throttled, mut exc_max) = (0.0, 0.0, 0.0_f64);
        for a in &t.admin {
            f.duration_ms = f.duration_ms.map(|d| d.max(a.duration_ms()));
            created += f64::from(a.count(TopicOutcome::Done));
            throttled += f64::from(a.count(TopicOutcome::QuotaExceeded));
            for x in a.topics.iter().filter(|x| x.outcome == TopicOutcome::QuotaExceeded) {
                exc_max = exc_max.max(x.throttle_ms as f64);
            }
        }
        f.topics_created = Some(created);
        f.topics_throttled = Some(throttled);
        f.throttle_max_ms = max(f.throttle_max_ms, Some(exc_max));
    }
    // Connects workloads, as the harness measures them: start to the last
    // client ready, refusals, and the first close the clients saw.
    if !t.connects.is_empty() {
        let (mut first, mut all, mut close) = (0.0, 0.0, None::<f64>);
        for c in &t.connects {
            f.duration_ms = f.duration_ms.map(|d| d.max(c.end_ms - c.start_ms));
            // Uncapped: a client is refused at first whenever it is refused
            // at all (a pool or storm client connects until it is in).
            first += c.clients.iter().filter(|x| x.throttled > 0).count() as f64;
            all += c.throttled_total() as f64;
            for ms in c.attempts.iter().filter_map(|a| a.closed_ms) {
                close = Some(close.map_or(ms, |x: f64| x.min(ms)));
            }
        }
        f.connections_refused_first = Some(first);
        f.connection_refusals = Some(all);
        f.first_close_ms = close;
        f.throttle_max_ms = max(f.throttle_max_ms, Some(0.0));
    }
    f.duration_ms = f.duration_ms.map(|d| (d * 10.0).round() / 10.0);
    f.throttle_avg_ms = f.throttle_avg_ms.map(|d| (d * 10.0).round() / 10.0);
    f
}

/// The median of `v` (the mean of the middle two for an even count).
fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The medians and spreads of the repeats' figures.
pub fn real_figures(repeats: &[RealRepeat]) -> RealFigures {
    let runs: Vec<Figures> = repeats.iter().filter_map(|r| r.run).collect();
    let mut spread = BTreeMap::new();
    let mut pick = |name: &'static str, get: fn(&Figures) -> Option<f64>| {
        let mut v: Vec<f64> = runs.iter().filter_map(get).collect();
        if v.len() >= 2 {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            spread.insert(name, [lo, hi]);
        }
        median(&mut v)
    };
    let median = Figures {
        duration_ms: pick("duration_ms", |f| f.duration_ms),
        throttle_max_ms: pick("throttle_max_ms", |f| f.throttle_max_ms),
        throttle_avg_ms: pick("throttle_avg_ms", |f| f.throttle_avg_ms),
        bytes_first_5s: pick("bytes_first_5s", |f| f.bytes_first_5s),
        records_failed: pick("records_failed", |f| f.records_failed),
        fetch_requests: pick("fetch_requests", |f| f.fetch_requests),
        topics_created: pick("topics_created", |f| f.topics_created),
        topics_throttled: pick("topics_throttled", |f| f.topics_throttled),
        connections_refused_first: pick("connections_refused_first", |f| f.connections_refused_first),
        connection_refusals: pick("connection_refusals", |f| f.connection_refusals),
        first_close_ms: pick("first_close_ms", |f| f.first_close_ms),
    };
    RealFigures {
        median,
        repeats: runs.len(),
        spread,
        broker_metrics: repeats.first().map(|r| r.broker_metrics.clone()).unwrap_or_default(),
    }
}

/// `|sim - real| <= tol * |real|` (equality when real is 0).
fn close(real: f64, sim: f64, tol: f64) -> bool {
    (sim - real).abs() <= tol * real.abs() + 1e-9
}

/// One held figure outside its tolerance: its name (one of [`HELD`]) and
/// `figure: real R, simulated S (D %)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outside {
    /// The figure, as [`Figures`] names it (`duration_ms`).
    pub figure: &'static str,
    /// Both values and the difference.
    pub text: String,
}

/// The figures a run is held to (where it has them), as an explanation in
/// `lab/explanations.json` names them.
pub const HELD: [&str; 9] = [
    "duration_ms",
    "throttle_max_ms",
    "bytes_first_5s",
    "records_failed",
    "fetch_requests",
    "topics_created",
    "topics_throttled",
    "connections_refused_first",
    "first_close_ms",
];

/// Why a run differs from the real cluster: the held figures it accounts
/// for and the reason, with the sizes measured. It excuses those figures
/// only: another figure outside its tolerance still fails the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Explanation {
    /// The held figures ([`HELD`]) this explains; empty for a note on a
    /// figure that is not held (a throttle average, an unthrottled run's
    /// duration).
    pub figures: Vec<String>,
    /// The reason.
    pub text: String,
}

/// Reads `lab/explanations.json`: `{"RUN": {"figures": [...], "text": "..."}}`.
///
/// # Errors
///
/// Text that is not that shape, or a figure not in [`HELD`] (named with
/// its run).
pub fn explanations(text: &str) -> Result<BTreeMap<String, Explanation>> {
    let map: BTreeMap<String, Explanation> = serde_json::from_str(text)
        .context("not {\"RUN\": {\"figures\": [\"duration_ms\", ...], \"text\": \"why\"}}")?;
    for (run, e) in &map {
        if let Some(f) = e.figures.iter().find(|f| !HELD.contains(&f.as_str())) {
            anyhow::bail!("run {run}: explains the figure {f:?}, which is not held (the held figures: {})", HELD.join(", "));
        }
    }
    Ok(map)
}

/// The held figures outside their tolerance, each as
/// `figure: real R, simulated S (D %)`. A figure is within when it is
/// within its tolerance of the real median, or inside the min–max range
/// the real repeats measured when those repeats agree among themselves
/// (the range no wider than twice the tolerance of the median): machine
/// noise the model leaves out is not a difference, but repeats that
/// disagree (a run throttled in one repeat and not in another) prove
/// nothing and need an explanation.
pub fn outside(real: &Figures, spread: &BTreeMap<&'static str, [f64; 2]>, sim: &Figures) -> Vec<Outside> {
    let mut out = Vec::new();
    let in_range = |name: &str, s: f64| {
        let tol = match name {
            "bytes_first_5s" => BYTES_TOLERANCE,
            "fetch_requests" => FETCHES_TOLERANCE,
            "topics_created" | "topics_throttled" | "connections_refused_first" => TOPICS_TOLERANCE,
            _ => TIME_TOLERANCE,
        };
        spread.get(name).is_some_and(|[lo, hi]| {
            let mid = (lo + hi) / 2.0;
            (hi - lo) <= 2.0 * 2.0 * tol * mid.abs() && *lo <= s && s <= *hi
        })
    };
    let mut check = |name: &'static str, r: Option<f64>, s: Option<f64>, tol: f64| match (r, s) {
        (Some(r), Some(s)) if close(r, s, tol) || in_range(name, s) => {}
        (Some(r), Some(s)) => {
            let pct = if r == 0.0 { String::new() } else { format!(" ({:+.1} %)", 100.0 * (s - r) / r) };
            out.push(Outside { figure: name, text: format!("{name}: real {}, simulated {}{pct}", plain(r), plain(s)) });
        }
        (None, None) => {}
        (r, s) => out.push(Outside {
            figure: name,
            text: format!(
                "{name}: real {}, simulated {}",
                r.map_or("none".into(), plain),
                s.map_or("none".into(), plain)
            ),
        }),
    };
    // An Admin run's retries are its throttles, whether or not a topic's
    // exception carries one: its duration is always held.
    let admin = real.topics_created.is_some() || sim.topics_created.is_some();
    let connects = real.connections_refused_first.is_some() || sim.connections_refused_first.is_some();
    let throttled = real.throttle_max_ms.unwrap_or(0.0) > 0.0 || sim.throttle_max_ms.unwrap_or(0.0) > 0.0;
    if throttled || admin || connects {
        check("duration_ms", real.duration_ms, sim.duration_ms, TIME_TOLERANCE);
        check("throttle_max_ms", real.throttle_max_ms, sim.throttle_max_ms, TIME_TOLERANCE);
    }
    check("bytes_first_5s", real.bytes_first_5s, sim.bytes_first_5s, BYTES_TOLERANCE);
    check("records_failed", real.records_failed, sim.records_failed, 0.0);
    // Held where the real run counted them (an older harness did not):
    // within FETCHES_TOLERANCE or one fetch.
    if let Some(r) = real.fetch_requests {
        match sim.fetch_requests {
            Some(s) if (s - r).abs() <= (FETCHES_TOLERANCE * r).max(1.0) || in_range("fetch_requests", s) => {}
            s => check("fetch_requests", Some(r), s, 0.0),
        }
    }
    if admin {
        check("topics_created", real.topics_created, sim.topics_created, TOPICS_TOLERANCE);
        check("topics_throttled", real.topics_throttled, sim.topics_throttled, TOPICS_TOLERANCE);
    }
    if connects {
        check("connections_refused_first", real.connections_refused_first, sim.connections_refused_first, TOPICS_TOLERANCE);
        check("first_close_ms", real.first_close_ms, sim.first_close_ms, TIME_TOLERANCE);
    }
    out
}

/// Compares every run: simulates its scenario (file text from `read`,
/// with `environment` in place of the scenario's when given), takes the
/// real medians, applies the tolerances and attaches explanations.
///
/// # Errors
///
/// A scenario file that cannot be read. A scenario that does not simulate
/// is reported in its run (`simulation_error`), not as an error.
pub fn compare(
    runs: &RunsFile,
    real: &RealFile,
    explanations: &BTreeMap<String, Explanation>,
    environment: Option<(&Environment, &str)>,
    read: impl Fn(&str) -> Result<String>,
) -> Result<Report> {
    if !real.kafka_version.is_empty() && real.kafka_version != runs.kafka_version {
        anyhow::bail!(
            "the real file is for Kafka {} but the runs are for {}",
            real.kafka_version,
            runs.kafka_version
        );
    }
    let mut out = Vec::new();
    for spec in &runs.runs {
        let text = read(&spec.scenario).with_context(|| format!("run {}", spec.name))?;
        let mut scenario = scenario_of(&text, &spec.scenario)?;
        if let Some((env, _)) = environment {
            scenario.environment = env.clone();
        }
        let (simulated, simulation_error) = match scenario.validate().map_err(quota_engine::Error::from).and_then(simulate) {
            Ok(t) => (Some(simulated_figures(&scenario, &t)), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let measured = real.runs.iter().find(|r| r.name == spec.name);
        let real_error = match measured {
            None => Some("not in the real file (run the harness: make lab)".to_owned()),
            Some(m) if m.repeats.is_empty() => Some("no repeat measured".to_owned()),
            Some(m) => {
                let mut errs: Vec<String> = m
                    .repeats
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.error.as_ref().map(|e| format!("repeat {}: {e}", i + 1)))
                    .collect();
                let measured = m.repeats.iter().filter(|r| r.run.is_some()).count();
                if measured < spec.repeats as usize {
                    errs.push(format!("{measured} of {} repeats measured", spec.repeats));
                }
                (!errs.is_empty()).then(|| errs.join("; "))
            }
        };
        let real_figs = measured.filter(|m| !m.repeats.is_empty()).map(|m| real_figures(&m.repeats));
        let spread = spec.seeds.map(|n| {
            let real: Vec<(f64, f64)> = measured
                .map(|m| {
                    m.repeats
                        .iter()
                        .filter_map(|r| r.run)
                        .filter_map(|f| Some((f.duration_ms?, f.throttle_max_ms.unwrap_or(0.0))))
                        .collect()
                })
                .unwrap_or_default();
            let sim: Vec<(f64, f64)> = scenario.validate().map_err(quota_engine::Error::from).and_then(|v| quota_engine::sim::simulate_seeds(v, n))
                .map(|sp| {
                    (0..sp.seeds.len())
                        .map(|i| {
                            let d = sp.clients.iter().filter_map(|c| c.duration_ms[i]).fold(0.0, f64::max);
                            let t = sp.clients.iter().map(|c| c.throttle_max_ms[i]).fold(0.0, f64::max);
                            (d, t)
                        })
                        .collect()
                })
                .unwrap_or_default();
            [Spread::of(&real), Spread::of(&sim)]
        });
        let outside = match (&real_figs, &simulated) {
            (Some(r), Some(s)) => outside(&r.median, &r.spread, s),
            _ => vec![Outside { figure: "", text: "no real or no simulated figures".to_owned() }],
        };
        let explanation = explanations.get(&spec.name).cloned();
        let explains = |o: &Outside| explanation.as_ref().is_some_and(|e| e.figures.iter().any(|f| f == o.figure));
        out.push(RunReport {
            name: spec.name.clone(),
            scenario: spec.scenario.clone(),
            quota_keys: quota_keys(&scenario),
            within_tolerance: outside.is_empty() && real_error.is_none() && simulation_error.is_none(),
            unexplained: outside.iter().filter(|o| !explains(o)).map(|o| o.text.clone()).collect(),
            outside: outside.into_iter().map(|o| o.text).collect(),
            explanation,
            real: real_figs,
            simulated,
            article: spec.article,
            real_error,
            simulation_error,
            spread,
        });
    }
    Ok(Report {
        kafka_version: runs.kafka_version.clone(),
        kafka_clients_version: real.kafka_clients_version.clone(),
        tolerances: format!(
            "throttled durations and non-zero max throttle within {} % of the real median; bytes in the first 5 s within {} %; consumers' fetch responses within {} %; records failed equal; or inside the real repeats' min-max range when that range is no wider than twice the tolerance",
            TIME_TOLERANCE * 100.0,
            BYTES_TOLERANCE * 100.0,
            FETCHES_TOLERANCE * 100.0
        ),
        environment_source: environment
            .map_or("each scenario's own (Environment::LAB unless set)".to_owned(), |(_, s)| s.to_owned()),
        runs: out,
    })
}

/// `v` with at most two decimals and no trailing zeros (`19007.2`, not
/// `19007.199999999997`), for the sentences that name a figure.
fn plain(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_owned() } else { s.to_owned() }
}

/// A number with thin thousands groups (`15 210`), one decimal below 100.
fn num(v: f64) -> String {
    if v.abs() < 100.0 && v.fract() != 0.0 {
        return format!("{v:.1}");
    }
    let n = v.round() as i64;
    let s = n.unsigned_abs().to_string();
    let mut g = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            g.push('\u{202f}');
        }
        g.push(ch);
    }
    if n < 0 {
        format!("-{g}")
    } else {
        g
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_owned(), num)
}

/// `real (lo–hi) / simulated / article` for one figure.
fn triple(r: &RunReport, name: &str, get: fn(&Figures) -> Option<f64>, article: bool) -> String {
    let mut real = r.real.as_ref().map_or_else(|| "–".to_owned(), |f| cell(get(&f.median)));
    if let Some([lo, hi]) = r.real.as_ref().and_then(|f| f.spread.get(name)) {
        if lo != hi {
            real = format!("{real} ({}–{})", num(*lo), num(*hi));
        }
    }
    let sim = r.simulated.as_ref().map_or_else(|| "–".to_owned(), |f| cell(get(f)));
    if article {
        let art = r.article.as_ref().map_or_else(|| "–".to_owned(), |f| cell(get(f)));
        format!("{real} / {sim} / {art}")
    } else {
        format!("{real} / {sim}")
    }
}

/// The comparison as a Markdown table: one row a run, each cell
/// `real / simulated / article` (real with its min–max over repeats).
pub fn markdown(report: &Report) -> String {
    let mut s = String::new();
    s.push_str("| run | quota keys | duration ms | max throttle ms | avg throttle ms | bytes in first 5 s | records failed | Admin topics created, quota-exceeded; connections; consumers' fetch responses | verdict |\n");
    s.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for r in &report.runs {
        let verdict = if r.within_tolerance {
            "within tolerance".to_owned()
        } else if r.explained() {
            format!("explained: {}", r.outside.join("; "))
        } else if let Some(e) = r.real_error.as_ref().or(r.simulation_error.as_ref()) {
            format!("**failed**: {e}")
        } else {
            format!("**outside**: {}", r.unexplained.join("; "))
        };
        let keys = if r.quota_keys.is_empty() { "none".to_owned() } else { r.quota_keys.join(", ") };
        let connects = r.simulated.is_some_and(|f| f.connections_refused_first.is_some())
            || r.real.as_ref().is_some_and(|f| f.median.connections_refused_first.is_some());
        let topics = if connects {
            format!(
                "refused first {}, refusals {}, first close ms {}",
                triple(r, "connections_refused_first", |f| f.connections_refused_first, false),
                triple(r, "connection_refusals", |f| f.connection_refusals, false),
                triple(r, "first_close_ms", |f| f.first_close_ms, false)
            )
        } else if r.simulated.is_some_and(|f| f.topics_created.is_some())
            || r.real.as_ref().is_some_and(|f| f.median.topics_created.is_some())
        {
            format!(
                "{}, {}",
                triple(r, "topics_created", |f| f.topics_created, false),
                triple(r, "topics_throttled", |f| f.topics_throttled, false)
            )
        } else if r.simulated.is_some_and(|f| f.fetch_requests.is_some())
            || r.real.as_ref().is_some_and(|f| f.median.fetch_requests.is_some())
        {
            format!("fetches {}", triple(r, "fetch_requests", |f| f.fetch_requests, false))
        } else {
            "–".to_owned()
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            keys,
            triple(r, "duration_ms", |f| f.duration_ms, true),
            triple(r, "throttle_max_ms", |f| f.throttle_max_ms, true),
            triple(r, "throttle_avg_ms", |f| f.throttle_avg_ms, true),
            triple(r, "bytes_first_5s", |f| f.bytes_first_5s, false),
            triple(r, "records_failed", |f| f.records_failed, false),
            topics,
            verdict
        ));
    }
    s.push_str("\nCells: real / simulated / article (real: the median of the repeats, with min–max when they differ; – where there is no figure).\n");
    let spread: Vec<&RunReport> = report.runs.iter().filter(|r| r.spread.is_some()).collect();
    if !spread.is_empty() {
        s.push_str("\nThe spread of runs near their quota (the real repeats; the simulator over seeds):\n\n");
        for r in spread {
            let [real, sim] = r.spread.as_ref().map_or([None, None], |x| x.clone());
            s.push_str(&format!(
                "- **{}**: real, {}; simulated, {}.\n",
                r.name,
                real.map_or_else(|| "not measured".to_owned(), |x| x.text("repeats")),
                sim.map_or_else(|| "not simulated".to_owned(), |x| x.text("seeds"))
            ));
        }
    }
    let explained: Vec<&RunReport> = report.runs.iter().filter(|r| r.explanation.is_some()).collect();
    if !explained.is_empty() {
        s.push('\n');
        for r in explained {
            let e = r.explanation.as_ref().map_or_else(String::new, |e| {
                if e.figures.is_empty() {
                    format!("(a note; it excuses no held figure) {}", e.text)
                } else if r.within_tolerance {
                    format!("(explains {} when out of tolerance; within it in this session) {}", e.figures.join(", "), e.text)
                } else {
                    format!("(explains {}) {}", e.figures.join(", "), e.text)
                }
            });
            s.push_str(&format!("- **{}**: {e}\n", r.name));
        }
    }
    s
}

/// The begin marker of the table's region in a Markdown file.
pub const BEGIN: &str = "<!-- lab-table:begin -->";
/// The end marker.
pub const END: &str = "<!-- lab-table:end -->";

/// `text` with the region between [`BEGIN`] and [`END`] replaced by
/// `table`; `None` when the markers are missing or out of order.
pub fn replace_marked(text: &str, table: &str) -> Option<String> {
    let b = text.find(BEGIN)?;
    let e = text[b..].find(END)? + b;
    Some(format!("{}{BEGIN}\n{table}{}", &text[..b], &text[e..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(o: Vec<Outside>) -> Vec<String> {
        o.into_iter().map(|o| o.text).collect()
    }

    /// The lab's `producer-client-quota` run compared with a real side
    /// whose duration is 10 % above the simulator's (its other figures
    /// equal), under `explanations`.
    fn compared_with_a_longer_real_run(explanations: &str) -> RunReport {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
        let read = |path: &str| std::fs::read_to_string(format!("{root}{path}")).map_err(anyhow::Error::from);
        let runs: RunsFile = serde_json::from_str(
            r#"{"kafka_version": "4.3.1", "runs": [{"name": "producer-client-quota", "scenario": "lab/scenarios/producer-client-quota.json", "repeats": 1}]}"#,
        )
        .expect("a runs file");
        let s = scenario_of(&read("lab/scenarios/producer-client-quota.json").expect("the scenario"), "").expect("a scenario");
        let mut real = simulated_figures(&s, &simulate(s.validate().expect("a valid scenario")).expect("runs"));
        real.duration_ms = real.duration_ms.map(|d| d * 1.1);
        let real: RealFile = serde_json::from_value(serde_json::json!({
            "kafka_version": "4.3.1",
            "runs": [{"name": "producer-client-quota", "repeats": [{"run": real}]}]
        }))
        .expect("a real file");
        let report = compare(&runs, &real, &explanations_of(explanations), None, read).expect("compares");
        report.runs.into_iter().next().expect("one run")
    }

    fn explanations_of(text: &str) -> BTreeMap<String, Explanation> {
        super::explanations(text).expect("explanations")
    }

    /// An explanation excuses the figures it names, and only those.
    #[test]
    fn an_explanation_excuses_only_the_figures_it_names() {
        let none = compared_with_a_longer_real_run("{}");
        assert_eq!(none.outside.len(), 1, "{:?}", none.outside);
        assert!(none.outside[0].starts_with("duration_ms: "), "{:?}", none.outside);
        assert!(!none.within_tolerance && !none.explained());
        assert_eq!(none.unexplained, none.outside);

        let other = compared_with_a_longer_real_run(
            r#"{"producer-client-quota": {"figures": ["throttle_max_ms"], "text": "why the max throttle differs"}}"#,
        );
        assert!(!other.explained(), "an explanation of another figure excused the duration");
        assert_eq!(other.unexplained, other.outside);
        let table = markdown(&Report {
            kafka_version: String::new(),
            kafka_clients_version: None,
            tolerances: String::new(),
            environment_source: String::new(),
            runs: vec![other],
        });
        assert!(table.contains("**outside**: duration_ms: "), "{table}");
        assert!(table.contains("(explains throttle_max_ms) why the max throttle differs"), "{table}");

        let this = compared_with_a_longer_real_run(
            r#"{"producer-client-quota": {"figures": ["duration_ms"], "text": "why the duration differs"}}"#,
        );
        assert!(this.explained() && this.unexplained.is_empty());
    }

    /// A run the real side did not measure fails whatever its explanation
    /// names, and its verdict says why.
    #[test]
    fn an_unmeasured_run_fails_with_its_reason() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
        let read = |path: &str| std::fs::read_to_string(format!("{root}{path}")).map_err(anyhow::Error::from);
        let runs: RunsFile = serde_json::from_str(
            r#"{"kafka_version": "4.3.1", "runs": [{"name": "producer-client-quota", "scenario": "lab/scenarios/producer-client-quota.json", "repeats": 1}]}"#,
        )
        .expect("a runs file");
        let real: RealFile = serde_json::from_str(r#"{"kafka_version": "4.3.1", "runs": []}"#).expect("a real file");
        let every = r#"{"producer-client-quota": {"figures": ["duration_ms", "throttle_max_ms", "bytes_first_5s", "records_failed"], "text": "t"}}"#;
        let report = compare(&runs, &real, &explanations_of(every), None, read).expect("compares");
        let r = &report.runs[0];
        assert!(r.real_error.is_some() && !r.within_tolerance && !r.explained());
        let table = markdown(&report);
        assert!(table.contains("**failed**: "), "{table}");
    }

    /// `lab/explanations.json` is read strictly: a figure that is not
    /// held is refused with its run named; the file in the repository reads.
    #[test]
    fn explanations_name_held_figures() {
        let e = super::explanations(r#"{"r": {"figures": ["throttle_avg_ms"], "text": "t"}}"#).unwrap_err();
        assert!(format!("{e:#}").contains("run r: explains the figure \"throttle_avg_ms\", which is not held"), "{e:#}");
        assert!(super::explanations(r#"{"r": "old form"}"#).is_err());
        let lab = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../lab/explanations.json")).expect("the file");
        assert!(!super::explanations(&lab).expect("lab/explanations.json reads").is_empty());
    }

    fn figs(d: f64, max: f64, bytes: f64) -> Figures {
        Figures {
            duration_ms: Some(d),
            throttle_max_ms: Some(max),
            throttle_avg_ms: Some(1.0),
            bytes_first_5s: Some(bytes),
            records_failed: Some(0.0),
            fetch_requests: None,
            topics_created: None,
            topics_throttled: None,
            connections_refused_first: None,
            connection_refusals: None,
            first_close_ms: None,
        }
    }

    #[test]
    fn tolerances_hold_throttled_runs_and_leave_unthrottled_durations() {
        let none = BTreeMap::new();
        let outside = |r: &Figures, s: &Figures| outside(r, &none, s);
        let real = figs(15_000.0, 1_000.0, 10_000_000.0);
        assert!(outside(&real, &figs(15_700.0, 1_040.0, 10_900_000.0)).is_empty());
        let o = outside(&real, &figs(16_000.0, 1_000.0, 10_000_000.0));
        assert_eq!(texts(o), vec!["duration_ms: real 15000, simulated 16000 (+6.7 %)".to_owned()]);
        assert_eq!(outside(&real, &figs(15_000.0, 1_000.0, 11_500_000.0)).len(), 1);
        // Unthrottled: a duration off by half is noise, not a failure.
        assert!(outside(&figs(300.0, 0.0, 30e6), &figs(450.0, 0.0, 30e6)).is_empty());
        // A throttle the real run did not have is.
        assert_eq!(
            texts(outside(&figs(300.0, 0.0, 30e6), &figs(300.0, 12.0, 30e6))),
            vec!["throttle_max_ms: real 0, simulated 12".to_owned()]
        );
        let mut lost = figs(300.0, 0.0, 30e6);
        lost.records_failed = Some(3.0);
        assert_eq!(texts(outside(&figs(300.0, 0.0, 30e6), &lost)), vec!["records_failed: real 0, simulated 3".to_owned()]);
    }

    #[test]
    fn a_figure_inside_the_real_repeats_range_is_within() {
        let real = figs(12_000.0, 1_000.0, 6_720_000.0);
        let mut spread = BTreeMap::new();
        spread.insert("bytes_first_5s", [6_080_000.0, 7_600_000.0]);
        // 7.5 MB is 12 % above the median but inside what the repeats measured.
        assert!(outside(&real, &spread, &figs(12_000.0, 1_000.0, 7_500_000.0)).is_empty());
        assert_eq!(outside(&real, &spread, &figs(12_000.0, 1_000.0, 9_000_000.0)).len(), 1);
        // Repeats that disagree (one throttled, one not) excuse nothing.
        let mut wide = BTreeMap::new();
        wide.insert("duration_ms", [235.0, 12_221.0]);
        assert_eq!(outside(&figs(4_137.0, 1_000.0, 6e6), &wide, &figs(12_119.0, 1_000.0, 6e6)).len(), 1);
    }

    #[test]
    fn medians_and_spreads() {
        let rep = |d: f64| RealRepeat {
            run: Some(figs(d, 0.0, 1.0)),
            error: None,
            broker_metrics: serde_json::Value::Null,
        };
        let f = real_figures(&[rep(4.0), rep(1.0), rep(3.0), rep(2.0)]);
        assert_eq!(f.median.duration_ms, Some(2.5));
        assert_eq!(f.spread.get("duration_ms"), Some(&[1.0, 4.0]));
        assert_eq!(f.repeats, 4);
        assert!(real_figures(&[rep(5.0)]).spread.is_empty());
    }

    #[test]
    fn table_goes_between_the_markers() {
        let doc = format!("a\n{BEGIN}\nold\n{END}\nb\n");
        assert_eq!(replace_marked(&doc, "new\n").unwrap(), format!("a\n{BEGIN}\nnew\n{END}\nb\n"));
        assert_eq!(replace_marked("no markers", "x"), None);
        assert_eq!(num(15210.0), "15\u{202f}210");
        assert_eq!(num(24.66), "24.7");
    }

    #[test]
    fn a_simulated_throttled_producer_has_the_harness_figures() {
        let s: Scenario = serde_json::from_str(
            r#"{"topics": [{"name": "lab", "partitions": 1}],
                "quotas": [{"entity": {"client-id": "p"}, "key": "producer_byte_rate", "value": 2000000}],
                "connections": [{"name": "p", "listener": "PLAINTEXT", "client.id": "p"}],
                "workloads": [{"producer": {"connection": "p", "topic": "lab", "records": 30000, "record.size": 1000,
                  "config": {"acks": "1", "linger.ms": 5, "batch.size": 65536}}}]}"#,
        )
        .unwrap();
        let f = simulated_figures(&s, &simulate(s.validate().expect("a valid scenario")).unwrap());
        // 30 MB at 2 MB/s: about 15 s less the first window's burst.
        let d = f.duration_ms.unwrap();
        assert!((10_000.0..16_000.0).contains(&d), "{d}");
        assert!(f.throttle_max_ms.unwrap() > 500.0);
        // In the first 5 s the producer gets more than 5 s × 2 MB/s (the burst).
        let b = f.bytes_first_5s.unwrap();
        assert!(b > 10e6 && b < 30e6 && b % 1000.0 == 0.0, "{b}");
        assert_eq!(f.records_failed, Some(0.0));
        assert_eq!(quota_keys(&s), vec!["producer_byte_rate".to_owned()]);
        assert_eq!(f.fetch_requests, None, "a run without consumers has no fetch figure");
    }

    /// The consumers' fetch responses are held: the lab's NaN
    /// `consumer_byte_rate` run, one record batch per response, is 157 on
    /// a real 4.3.1 cluster and in the simulator; read without the cap it
    /// would be a handful.
    #[test]
    fn consumer_fetch_responses_are_counted_and_held() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../lab/scenarios/consumer-fetch-nan.json")).unwrap();
        let s = scenario_of(&text, "consumer-fetch-nan.json").unwrap();
        let f = simulated_figures(&s, &simulate(s.validate().expect("a valid scenario")).unwrap());
        assert_eq!(f.fetch_requests, Some(157.0));
        let none = BTreeMap::new();
        let mut real = figs(578.0, 0.0, 10e6);
        real.fetch_requests = Some(157.0);
        let mut sim = real;
        sim.fetch_requests = Some(2.0);
        assert_eq!(texts(outside(&real, &none, &sim)), vec!["fetch_requests: real 157, simulated 2 (-98.7 %)".to_owned()]);
        sim.fetch_requests = Some(160.0);
        assert!(outside(&real, &none, &sim).is_empty());
        // A run of few fetches may differ by one; by two it is outside.
        real.fetch_requests = Some(6.0);
        sim.fetch_requests = Some(7.0);
        assert!(outside(&real, &none, &sim).is_empty());
        sim.fetch_requests = Some(8.0);
        assert_eq!(outside(&real, &none, &sim).len(), 1);
        // None real, one simulated: within one fetch.
        real.fetch_requests = Some(0.0);
        sim.fetch_requests = Some(1.0);
        assert!(outside(&real, &none, &sim).is_empty());
        // Counted in the real run, not simulated: outside.
        sim.fetch_requests = None;
        assert_eq!(texts(outside(&real, &none, &sim)), vec!["fetch_requests: real 0, simulated none".to_owned()]);
        // A real run of an older harness has no count: not held.
        real.fetch_requests = None;
        sim.fetch_requests = Some(7.0);
        assert!(outside(&real, &none, &sim).is_empty());
    }

    /// The lab's runs: the default cluster first (the dynamic
    /// `max.connection.creation.rate` a run applies itself stays there), a
    /// cluster started with `quota.window.num=1` and one with 4 samples of
    /// 2 s, each for the two runs that name those settings.
    #[test]
    fn the_lab_s_runs_need_a_cluster_per_set_of_static_settings() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
        let read = |path: &str| std::fs::read_to_string(format!("{root}{path}")).map_err(anyhow::Error::from);
        let runs: RunsFile = serde_json::from_str(&read("lab/runs.json").expect("runs.json")).expect("a runs file");
        let groups = cluster_groups(&runs, read).expect("groups");
        let settings = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
        };
        let runs_of = |s: &BTreeMap<String, String>| groups.iter().find(|g| &g.settings == s).map(|g| g.runs.clone());
        assert!(groups[0].settings.is_empty(), "the default cluster first: {groups:?}");
        assert!(groups[0].runs.contains(&"connection-pool-broker-rate".to_owned()));
        assert!(groups[0].runs.contains(&"producer-client-quota".to_owned()));
        assert_eq!(
            runs_of(&settings(&[("quota.window.num", "1")])).expect("a quota.window.num=1 cluster"),
            ["window-one-consumer-unmatched", "window-one-consumer-capped"]
        );
        assert_eq!(
            runs_of(&settings(&[("quota.window.num", "4"), ("quota.window.size.seconds", "2")])).expect("a 4 x 2 s cluster"),
            ["window-4x2s-producer-client-quota", "window-4x2s-consumer-fetch-capped"]
        );
        assert_eq!(groups.iter().map(|g| g.runs.len()).sum::<usize>(), runs.runs.len(), "every run in one group");
    }

    /// A static setting `scripts/kafka-cluster.sh` could not take as a
    /// `key=value` word is refused, naming the file and the setting.
    #[test]
    fn a_setting_a_cluster_cannot_be_started_with_is_refused() {
        let runs: RunsFile = serde_json::from_str(
            r#"{"kafka_version": "4.3.1", "runs": [{"name": "r", "scenario": "s.json"}]}"#,
        )
        .expect("a runs file");
        let with = |settings: &str| {
            let text = format!(r#"{{"brokers": {{"settings": {settings}}}}}"#);
            cluster_groups(&runs, move |_: &str| Ok(text.clone()))
        };
        let e = with(r#"{"ssl.principal.mapping.rules": "RULE:^CN=(.*)$/$1/"}"#).expect_err("refused").to_string();
        assert!(e.contains("s.json: scenario.brokers.settings.ssl.principal.mapping.rules"), "{e}");
        let e = with(r#"{"quota.window.num": [1]}"#).expect_err("refused").to_string();
        assert!(e.contains("is not a string, number or boolean that"), "{e}");
        let e = with(r#"{"Quota window": 1}"#).expect_err("refused").to_string();
        assert!(e.contains("s.json: scenario.brokers.settings.\"Quota window\": not a broker setting's name"), "{e}");
        let e = with(r#"{"quota.window.num": 1.5e20}"#).expect_err("refused").to_string();
        assert!(e.contains("quota.window.num: 1.5e+20 is not a string, number or boolean"), "{e}");
        let g = with(r#"{"quota.window.size.seconds": 2, "max.connection.creation.rate": 5}"#).expect("groups");
        assert_eq!(g[0].settings, BTreeMap::from([("quota.window.size.seconds".to_owned(), "2".to_owned())]));
    }

    /// A setting is written as the harness writes it, so `1` and `1.0` are
    /// one cluster started with `1` (Kafka refuses `quota.window.num=1.0`),
    /// and a cluster's files are named by its settings alone, whichever runs
    /// are kept.
    #[test]
    fn settings_are_written_as_the_harness_writes_them_and_name_their_cluster() {
        let runs: RunsFile = serde_json::from_str(
            r#"{"kafka_version": "4.3.1", "runs": [{"name": "a", "scenario": "a"}, {"name": "b", "scenario": "b"},
                {"name": "c", "scenario": "c"}, {"name": "d", "scenario": "d"}]}"#,
        )
        .expect("a runs file");
        let read = |path: &str| -> Result<String> {
            Ok(match path {
                "a" => r#"{"scenario": {"brokers": {"settings": {"quota.window.num": 1}}}}"#,
                "b" => r#"{"brokers": {"settings": {"quota.window.num": 1.0}}}"#,
                "c" => r#"{"brokers": {"settings": {"quota.window.size.seconds": 2, "quota.window.num": 4, "x.enable": true, "y.ratio": 0.5}}}"#,
                _ => r#"{"topics": []}"#,
            }
            .to_owned())
        };
        let groups = cluster_groups(&runs, read).expect("groups");
        let named: Vec<(String, Vec<String>)> = groups.iter().map(|g| (g.real_file(), g.runs.clone())).collect();
        assert_eq!(
            named,
            [
                ("real.json".to_owned(), vec!["d".to_owned()]),
                ("real-quota.window.num=1.json".to_owned(), vec!["a".to_owned(), "b".to_owned()]),
                (
                    "real-quota.window.num=4+quota.window.size.seconds=2+x.enable=true+y.ratio=0.5.json".to_owned(),
                    vec!["c".to_owned()]
                ),
            ]
        );
        let mut only_c = runs.clone();
        only_c.runs.retain(|r| r.name == "c");
        let alone = cluster_groups(&only_c, read).expect("groups");
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].real_file(), groups[2].real_file(), "the same name without the other groups");

        // A run measured on its group's cluster passes; read from another
        // group's file (its settings changed since), it is refused.
        let file = |runs: &[&str]| -> RealFile {
            serde_json::from_value(serde_json::json!({
                "runs": runs.iter().map(|n| serde_json::json!({"name": n, "repeats": []})).collect::<Vec<_>>()
            }))
            .expect("a real file")
        };
        let ok = [
            ("target/real-kafka/real.json".to_owned(), file(&["d"])),
            ("target/real-kafka/real-quota.window.num=1.json".to_owned(), file(&["a", "b"])),
            ("/tmp/mine.json".to_owned(), file(&["c"])),
        ];
        check_real_files(&groups, &ok).expect("each run in its group's file");
        let stale = [("target/real-kafka/real-quota.window.num=1.json".to_owned(), file(&["a", "d"]))];
        let e = check_real_files(&groups, &stale).expect_err("d is the default cluster's").to_string();
        assert!(e.starts_with("target/real-kafka/real-quota.window.num=1.json: the run d was measured on another cluster"), "{e}");
        assert!(e.contains("(real.json)"), "{e}");
    }

    /// The harness's files of two clusters are one real file; a run in both,
    /// or files of two Kafka versions, are refused.
    #[test]
    fn real_files_of_two_clusters_merge() {
        let file = |version: &str, runs: &[&str]| -> RealFile {
            serde_json::from_value(serde_json::json!({
                "kafka_version": version,
                "runs": runs.iter().map(|n| serde_json::json!({"name": n, "repeats": []})).collect::<Vec<_>>()
            }))
            .expect("a real file")
        };
        let merged = RealFile::merge(vec![("a".into(), file("4.3.1", &["x", "y"])), ("b".into(), file("4.3.1", &["z"]))])
            .expect("merges");
        assert_eq!(merged.kafka_version, "4.3.1");
        assert_eq!(merged.runs.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["x", "y", "z"]);
        let e = RealFile::merge(vec![("a".into(), file("4.3.1", &["x"])), ("b".into(), file("4.3.1", &["x"]))])
            .expect_err("twice")
            .to_string();
        assert_eq!(e, "b: the run x is also in a");
        let e = RealFile::merge(vec![("a".into(), file("4.3.1", &["x"])), ("b".into(), file("4.2.0", &["y"]))])
            .expect_err("two versions")
            .to_string();
        assert!(e.starts_with("b: measured Kafka 4.2.0"), "{e}");
    }
}
