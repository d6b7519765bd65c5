//! `election bench`: simulated events per second on two fixed workloads,
//! single-threaded, measured with the wall clock (the CLI may read clocks;
//! the core never does). Build with `--release` for meaningful figures:
//! `cargo run --release -p election-cli -- bench`.

use crate::error::CliError;
use crate::output::{Table, json, num};
use clap::Args;
use election_core::Scenario;
use election_core::scenario::{RingOrder, StartSet};
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
}

/// One workload's figures.
#[derive(Debug, Clone, Serialize)]
pub struct BenchResult {
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

/// The two workloads: Chang-Roberts n=1000 on a descending ring (the
/// n(n+1)/2 worst case) and Bully n=200, everyone starting.
pub fn workloads() -> Vec<(&'static str, Scenario)> {
    let chang_roberts = Scenario {
        algorithm: "chang-roberts".to_string(),
        nodes: 1000,
        ring: RingOrder::Descending,
        start: StartSet::All,
        ..Scenario::default()
    };
    let bully = Scenario {
        algorithm: "bully".to_string(),
        nodes: 200,
        start: StartSet::All,
        ..Scenario::default()
    };
    vec![
        ("chang-roberts n=1000 descending, all start", chang_roberts),
        ("bully n=200, all start", bully),
    ]
}

/// Times `repeats` runs of `scenario` (building included).
pub fn measure(name: &str, scenario: &Scenario, repeats: u32) -> Result<BenchResult, CliError> {
    scenario
        .validate()
        .map_err(|e| CliError::failure(format!("bench workload {name}: {e}")))?;
    let mut times = Vec::new();
    let mut events = 0;
    let mut messages = 0;
    for _ in 0..repeats {
        let t0 = Instant::now();
        let mut sim = election_core::algorithms::build(scenario, false);
        sim.run_to_end();
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
    Ok(BenchResult {
        name: name.to_string(),
        algorithm: scenario.algorithm.clone(),
        nodes: scenario.nodes,
        events,
        messages,
        repeats,
        best_ms: best * 1e3,
        median_ms: median * 1e3,
        best_events_per_s: rate(best),
        median_events_per_s: rate(median),
    })
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
    let results = workloads()
        .iter()
        .map(|(name, s)| measure(name, s, args.repeat))
        .collect::<Result<Vec<_>, _>>()?;
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
