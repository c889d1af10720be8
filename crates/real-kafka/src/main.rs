//! `real-kafka-compare`: the lab's runs on a real Kafka 4.3.1 cluster
//! (measured by the Java harness in `lab/harness`) beside the engine's
//! simulation of the same scenario files and the lab article's figures.
//!
//! Reads `lab/runs.json` (the runs, their scenario files and the article's
//! figures), `target/real-kafka/real.json` (what the harness measured; one
//! file per cluster when runs need static broker settings of their own,
//! `--cluster-groups`) and
//! `lab/explanations.json` (why figures outside their tolerance differ,
//! each naming the figures it accounts for), runs
//! every scenario through `quota_engine::sim::simulate`, and writes
//! `target/real-kafka/lab.json` and a Markdown table (`lab.md`, and the
//! marked region of `docs/real-kafka.md` with `--update-doc`).
//!
//! Exit codes: 0 every run within tolerance or explained; 1 a run with a
//! figure outside tolerance that no explanation names, a real run that
//! failed, or bad input.

mod compare;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Parser;

/// Real Kafka beside the simulator: real | simulated | article, per run.
#[derive(Debug, Parser)]
#[command(name = "real-kafka-compare")]
struct Args {
    /// The runs: `{"kafka_version", "runs": [{"name", "scenario", "repeats", "article"}]}`.
    #[arg(long, default_value = "lab/runs.json")]
    runs: PathBuf,
    /// What the Java harness measured on the real cluster; repeated, the
    /// files of the clusters `--cluster-groups` lists, merged (a run in two
    /// files is refused).
    #[arg(long, default_value = "target/real-kafka/real.json", value_name = "FILE")]
    real: Vec<PathBuf>,
    /// Why figures outside their tolerance differ:
    /// `{"RUN": {"figures": ["duration_ms", ...], "text": "why"}}`.
    #[arg(long, default_value = "lab/explanations.json")]
    explanations: PathBuf,
    /// Where the comparison goes (`lab.json` and `lab.md`).
    #[arg(long, default_value = "target/real-kafka")]
    out: PathBuf,
    /// This machine's link, broker and client costs (an `environment`
    /// object of the scenario format), used for every run in place of the
    /// scenario's own; skipped when the file is absent.
    #[arg(long, default_value = "lab/environment.json")]
    environment: PathBuf,
    /// Compare only these runs (comma-separated names), as the harness's
    /// `--only` measured them.
    #[arg(long, value_delimiter = ',', value_name = "RUN,RUN")]
    only: Vec<String>,
    /// Also rewrite the table between the markers of this Markdown file.
    #[arg(long)]
    update_doc: Option<PathBuf>,
    /// Only list the clusters the runs need, one line each:
    /// `FILE<TAB>SETTINGS<TAB>RUN,RUN`, where SETTINGS are the static
    /// broker settings the cluster is started with (`key=value` words, `-`
    /// for none) and FILE the harness's output for it, named by those
    /// settings (`real.json` for the default cluster, else
    /// `real-key=value+....json`). Compares nothing.
    #[arg(long, conflicts_with_all = ["update_doc"])]
    cluster_groups: bool,
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::from(1),
        Err(e) => {
            eprintln!("real-kafka-compare: {e:#}");
            std::process::ExitCode::from(1)
        }
    }
}

fn read(path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

fn run() -> Result<bool> {
    let args = Args::parse();
    let mut runs: compare::RunsFile = serde_json::from_str(&read(&args.runs)?)
        .with_context(|| format!("{} is not a runs file", args.runs.display()))?;
    let explanations = if args.explanations.exists() {
        compare::explanations(&read(&args.explanations)?).with_context(|| format!("{}", args.explanations.display()))?
    } else {
        Default::default()
    };
    // An explanation of a run that does not exist (renamed, removed) would
    // sit there unread: refused.
    if let Some(name) = explanations.keys().find(|n| !runs.runs.iter().any(|r| &r.name == *n)) {
        anyhow::bail!("{}: explains the run {name}, which is not in {}", args.explanations.display(), args.runs.display());
    }
    if !args.only.is_empty() {
        for name in &args.only {
            if !runs.runs.iter().any(|r| &r.name == name) {
                anyhow::bail!("--only {name}: no such run in {}", args.runs.display());
            }
        }
        runs.runs.retain(|r| args.only.contains(&r.name));
    }
    let base = args.runs.parent().and_then(|p| p.parent()).unwrap_or(std::path::Path::new("."));
    if args.cluster_groups {
        for g in compare::cluster_groups(&runs, |path| read(&base.join(path)))? {
            let settings: Vec<String> = g.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let settings = if settings.is_empty() { "-".to_owned() } else { settings.join(" ") };
            println!("{}\t{settings}\t{}", g.real_file(), g.runs.join(","));
        }
        return Ok(true);
    }
    let mut files = Vec::new();
    for path in &args.real {
        let file: compare::RealFile = serde_json::from_str(&read(path)?)
            .with_context(|| format!("{} is not the harness's output", path.display()))?;
        files.push((path.display().to_string(), file));
    }
    compare::check_real_files(&compare::cluster_groups(&runs, |path| read(&base.join(path)))?, &files)?;
    let real = compare::RealFile::merge(files)?;
    let environment: Option<quota_engine::sim::Environment> = if args.environment.exists() {
        let text = read(&args.environment)?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", args.environment.display()))?;
        let env = v.get("environment").cloned().unwrap_or(v);
        Some(serde_json::from_value(env).with_context(|| {
            format!("{}: `environment` is not a scenario environment", args.environment.display())
        })?)
    } else {
        None
    };
    let source = format!("{}", args.environment.display());
    let report = compare::compare(
        &runs,
        &real,
        &explanations,
        environment.as_ref().map(|e| (e, source.as_str())),
        |path| read(&base.join(path)),
    )?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let json = serde_json::to_string_pretty(&report)?;
    std::fs::write(args.out.join("lab.json"), json + "\n")?;
    let table = compare::markdown(&report);
    std::fs::write(args.out.join("lab.md"), &table)?;
    if let Some(doc) = &args.update_doc {
        let text = read(doc)?;
        let updated = compare::replace_marked(&text, &table)
            .with_context(|| format!("{} has no lab-table markers", doc.display()))?;
        std::fs::write(doc, updated)?;
    }
    print!("{table}");
    let mut ok = true;
    for r in &report.runs {
        if let Some(e) = &r.real_error {
            eprintln!("real-kafka-compare: run {}: the real run failed: {e}", r.name);
            ok = false;
        } else if let Some(e) = &r.simulation_error {
            // No explanation excuses a scenario the simulator refuses.
            eprintln!("real-kafka-compare: run {}: the scenario did not simulate: {e}", r.name);
            ok = false;
        } else if !r.within_tolerance && !r.explained() {
            eprintln!(
                "real-kafka-compare: run {}: outside tolerance ({}) and not explained in lab/explanations.json (its explanation, if any, names other figures)",
                r.name,
                r.unexplained.join(", ")
            );
            ok = false;
        }
    }
    println!(
        "{} runs: {} within tolerance, {} explained, {} not",
        report.runs.len(),
        report.runs.iter().filter(|r| r.within_tolerance).count(),
        report.runs.iter().filter(|r| r.explained()).count(),
        report.runs.iter().filter(|r| !r.within_tolerance && !r.explained()).count()
    );
    Ok(ok)
}
