//! `election bench`: simulated events per second on the fixed workloads of
//! [`election_core::workloads`] (the wasm bench runs the same ones),
//! single-threaded, measured with the wall clock (the CLI may read clocks;
//! the core never does). Build with `--release` for meaningful figures:
//! `cargo run --release -p election-cli -- bench`.

use crate::error::CliError;
use crate::output::{Table, json, num};
use clap::Args;
use election_core::workloads::{self, Workload};
use serde::Serialize;
use std::time::Instant;

/// Flags of `election bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Timed repetitions of each workload.
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Only these workloads (ids: cr1000-desc, raft1000, cr1000, cr10000,
    /// bully200), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    pub only: Option<Vec<String>>,
}

/// One workload's figures.
#[derive(Debug, Clone, Serialize)]
pub struct BenchResult {
    /// Workload id (see [`election_core::workloads::all`]).
    pub id: String,
    /// What ran.
    pub name: String,
    /// Algorithm id.
    pub algorithm: String,
    /// Number of nodes.
    pub nodes: u32,
    /// Events processed per run (the same every repetition).
    pub events: u64,
    /// Messages sent per run.
    pub messages: u64,
    /// Timed repetitions.
    pub repeats: u32,
    /// Fastest wall time, ms.
    pub best_ms: f64,
    /// Median wall time, ms.
    pub median_ms: f64,
    /// Events per second at the fastest run.
    pub best_events_per_s: f64,
    /// Events per second at the median run.
    pub median_events_per_s: f64,
}

/// The `bench --json` object.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Whether this was an optimised build (figures from debug builds are
    /// not meaningful).
    pub release_build: bool,
    /// The workloads.
    pub workloads: Vec<BenchResult>,
}

/// Times `repeats` runs of `scenario` (building included).
pub fn measure(workload: &Workload, repeats: u32) -> BenchResult {
    let mut times = Vec::new();
    let mut events = 0;
    let mut messages = 0;
    for _ in 0..repeats {
        let t0 = Instant::now();
        let sim = workload.run();
        let elapsed = t0.elapsed().as_secs_f64();
        events = sim.metrics().events;
        messages = sim.metrics().sent;
        times.push(elapsed);
    }
    times.sort_by(f64::total_cmp);
    let best = times[0];
    let median = times[times.len() / 2];
    let rate = |secs: f64| {
        if secs > 0.0 {
            events as f64 / secs
        } else {
            f64::INFINITY
        }
    };
    BenchResult {
        id: workload.id.to_string(),
        name: workload.name.to_string(),
        algorithm: workload.scenario.algorithm.clone(),
        nodes: workload.scenario.nodes,
        events,
        messages,
        repeats,
        best_ms: best * 1e3,
        median_ms: median * 1e3,
        best_events_per_s: rate(best),
        median_events_per_s: rate(median),
    }
}

fn rate_text(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// Runs the benchmark and returns the text to print.
pub fn bench(args: &BenchArgs) -> Result<String, CliError> {
    let release_build = !cfg!(debug_assertions);
    if !release_build {
        eprintln!(
            "note: this is a debug build; for real figures use `cargo run --release -p election-cli -- bench`"
        );
    }
    let all = workloads::all();
    if let Some(only) = &args.only {
        if let Some(bad) = only
            .iter()
            .find(|id| !all.iter().any(|w| w.id == id.as_str()))
        {
            let ids: Vec<&str> = all.iter().map(|w| w.id).collect();
            return Err(CliError::input(format!(
                "--only: no workload named '{bad}'; the workloads are {}",
                ids.join(", ")
            )));
        }
    }
    let results: Vec<BenchResult> = all
        .iter()
        .filter(|w| {
            args.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|id| id == w.id))
        })
        .map(|w| measure(w, args.repeat))
        .collect();
    if args.json {
        return json(&BenchReport {
            release_build,
            workloads: results,
        });
    }
    let mut t = Table::new();
    t.row([
        "workload",
        "events",
        "messages",
        "best ms",
        "median ms",
        "best events/s",
        "median events/s",
    ]);
    for r in &results {
        t.row([
            r.name.clone(),
            r.events.to_string(),
            r.messages.to_string(),
            num((r.best_ms * 100.0).round() / 100.0),
            num((r.median_ms * 100.0).round() / 100.0),
            rate_text(r.best_events_per_s),
            rate_text(r.median_events_per_s),
        ]);
    }
    let mut out = format!(
        "single thread, {} repetitions each ({} build)\n\n",
        args.repeat,
        if release_build { "release" } else { "debug" }
    );
    out.push_str(&t.render(""));
    Ok(out)
}
