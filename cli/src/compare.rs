//! `election compare`: the same scenario (same faults, same seeds) under
//! several algorithms, one row per algorithm.
//!
//! Columns: election messages over the whole run (mean, p99); the election
//! cost of the last failover (election messages from the last fault that
//! removed that run's leader until the cluster settles again:
//! core/engine/src/metrics.rs, module docs, `failover`; mean, p99; `-` when
//! no fault removed a leader in any run); background messages per simulated
//! second; time to the first leader; the recovery time of that failover;
//! leaderless and split-brain time; violations; and the published figure
//! where one exists. A run's first election is never a failover: with no
//! fault, or faults that missed the leader, both failover columns are `-`
//! (the page's compare table reads the same `failover_*` figures).

use crate::error::CliError;
use crate::output::{Table, json, num};
use crate::overrides::ScenarioArgs;
use crate::seeds::{SeedRange, parse_seeds};
use clap::Args;
use election_core::ScenarioExt;
use election_core::algorithms;
use election_core::sim::RunSummary;
use election_core::stats::Stats;
use serde::Serialize;

/// Flags of `election compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Scenario file and field overrides (its `algorithm` is replaced).
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Algorithms to compare, comma-separated (default: every algorithm).
    #[arg(long, value_delimiter = ',', value_name = "A,B,C")]
    pub algorithms: Vec<String>,
    /// Seeds to run for each algorithm: `A..B` (both ends included); default
    /// the scenario's own seed.
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    pub seeds: Option<SeedRange>,
    /// Print one JSON object instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV, one row per algorithm.
    #[arg(long)]
    pub csv: bool,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// One algorithm's row.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// Algorithm id.
    pub algorithm: String,
    /// Runs (seeds).
    pub runs: u64,
    /// Election-purpose messages over the whole run.
    pub election_messages: Option<Stats>,
    /// Election messages from the last fault that removed the leader
    /// until settled again (runs where one did and it settled since; the
    /// run summary's `failover_election_messages`).
    pub failover_election_messages: Option<Stats>,
    /// Background messages per simulated second.
    pub background_per_s: Option<Stats>,
    /// Time to the first leader, ms (runs that had one).
    pub first_leader_ms: Option<Stats>,
    /// Time from the last fault that removed the leader until settled
    /// again, ms (the same runs; the run summary's `failover_ms`).
    pub recovery_ms: Option<Stats>,
    /// Time without a leader, ms.
    pub leaderless_ms: Option<Stats>,
    /// Time with several leaders, ms.
    pub split_brain_ms: Option<Stats>,
    /// Violations over all runs.
    pub violations: u64,
    /// Runs in which a fault removed the leader.
    pub failover_runs: u64,
    /// Runs in which a fault removed the leader and that never settled
    /// after it.
    pub unsettled_runs: u64,
    /// Published election cost of this scenario, when one applies.
    pub theory: Option<f64>,
    /// The formula and source behind `theory`.
    pub theory_formula: Option<&'static str>,
}

/// The whole comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    /// Nodes.
    pub nodes: u32,
    /// First seed.
    pub seed_from: u64,
    /// Last seed (included).
    pub seed_to: u64,
    /// One row per algorithm, in the order asked.
    pub rows: Vec<CompareRow>,
}

fn stats(runs: &[RunSummary], f: impl Fn(&RunSummary) -> Option<f64>) -> Option<Stats> {
    Stats::of(&runs.iter().filter_map(f).collect::<Vec<_>>())
}

fn row(algorithm: &str, runs: &[RunSummary], theory: Option<(f64, &'static str)>) -> CompareRow {
    CompareRow {
        algorithm: algorithm.to_string(),
        runs: runs.len() as u64,
        election_messages: stats(runs, |r| Some(r.messages.election as f64)),
        failover_election_messages: stats(runs, |r| r.failover_election_messages.map(|c| c as f64)),
        background_per_s: stats(runs, |r| {
            (r.end_ms > 0.0).then(|| r.messages.background as f64 * 1000.0 / r.end_ms)
        }),
        first_leader_ms: stats(runs, |r| r.first_leader_ms),
        recovery_ms: stats(runs, |r| r.failover_ms),
        leaderless_ms: stats(runs, |r| Some(r.leaderless_ms)),
        split_brain_ms: stats(runs, |r| Some(r.split_brain_ms)),
        violations: runs.iter().map(|r| r.violations.len() as u64).sum(),
        failover_runs: runs
            .iter()
            .filter(|r| r.leader_removed_ms.is_some())
            .count() as u64,
        unsettled_runs: runs
            .iter()
            .filter(|r| r.leader_removed_ms.is_some() && r.failover_ms.is_none())
            .count() as u64,
        theory: theory.map(|t| t.0),
        theory_formula: theory.map(|t| t.1),
    }
}

fn mean_p99(s: &Option<Stats>) -> (String, String) {
    match s {
        Some(s) => (num(s.mean), num(s.p99)),
        None => ("-".into(), "-".into()),
    }
}

fn mean(s: &Option<Stats>) -> String {
    s.map_or_else(|| "-".to_string(), |s| num(s.mean))
}

impl CompareReport {
    fn text(&self) -> String {
        let mut t = Table::new();
        t.row([
            "algorithm",
            "runs",
            "election",
            "p99",
            "failover",
            "p99",
            "bg/s",
            "1st leader ms",
            "recovery ms",
            "leaderless ms",
            "split ms",
            "violations",
            "theory",
        ]);
        for r in &self.rows {
            let (e, e99) = mean_p99(&r.election_messages);
            let (f, f99) = mean_p99(&r.failover_election_messages);
            t.row([
                r.algorithm.clone(),
                r.runs.to_string(),
                e,
                e99,
                f,
                f99,
                mean(&r.background_per_s),
                mean(&r.first_leader_ms),
                mean(&r.recovery_ms),
                mean(&r.leaderless_ms),
                mean(&r.split_brain_ms),
                r.violations.to_string(),
                r.theory.map_or("-".into(), num),
            ]);
        }
        let mut out = format!(
            "{} nodes, seeds {}..={} (means; failover = election messages from the last fault that removed the leader until settled, - where no fault removed it)\n\n",
            self.nodes, self.seed_from, self.seed_to
        );
        out.push_str(&t.render(""));
        for r in self.rows.iter().filter(|r| r.theory.is_some()) {
            out.push_str(&format!(
                "\ntheory for {}: {}",
                r.algorithm,
                r.theory_formula.unwrap_or_default()
            ));
        }
        out.push('\n');
        out
    }

    fn csv(&self) -> String {
        let mut out = String::from(
            "algorithm,runs,election_mean,election_p99,failover_mean,failover_p99,background_per_s,first_leader_ms,recovery_ms,leaderless_ms,split_brain_ms,violations,unsettled_runs,theory\n",
        );
        let f = |s: &Option<Stats>, p99: bool| {
            s.map_or(String::new(), |s| {
                (if p99 { s.p99 } else { s.mean }).to_string()
            })
        };
        for r in &self.rows {
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                r.algorithm,
                r.runs,
                f(&r.election_messages, false),
                f(&r.election_messages, true),
                f(&r.failover_election_messages, false),
                f(&r.failover_election_messages, true),
                f(&r.background_per_s, false),
                f(&r.first_leader_ms, false),
                f(&r.recovery_ms, false),
                f(&r.leaderless_ms, false),
                f(&r.split_brain_ms, false),
                r.violations,
                r.unsettled_runs,
                r.theory.map_or(String::new(), |t| t.to_string()),
            ));
        }
        out
    }
}

/// Runs the comparison and returns the text to print.
pub fn compare(args: &CompareArgs) -> Result<String, CliError> {
    let base = args.scenario.build(None)?;
    let ids: Vec<String> = if args.algorithms.is_empty() {
        algorithms::ids().into_iter().map(String::from).collect()
    } else {
        args.algorithms
            .iter()
            .map(|a| a.trim().to_string())
            .collect()
    };
    let seeds = args.seeds.unwrap_or(SeedRange {
        from: base.seed,
        to: base.seed,
    });
    let mut scenarios = Vec::with_capacity(ids.len());
    for id in &ids {
        let mut s = base.clone();
        s.set_algorithm(id);
        s.validate()
            .map_err(|e| CliError::input(format!("--algorithms: {e}")))?;
        scenarios.push(s);
    }
    let per_algorithm = seeds.count();
    let total = per_algorithm * scenarios.len() as u64;
    let summaries = crate::parallel::map(total, crate::parallel::threads(args.threads), |i| {
        let mut s = scenarios[(i / per_algorithm) as usize].clone();
        s.seed = seeds.from + i % per_algorithm;
        election_core::sim::run(&s)
    });
    let rows = scenarios
        .iter()
        .zip(summaries.chunks(per_algorithm as usize))
        .map(|(s, runs)| row(&s.algorithm, runs, algorithms::theory(s)))
        .collect();
    let report = CompareReport {
        nodes: base.nodes,
        seed_from: seeds.from,
        seed_to: seeds.to,
        rows,
    };
    let out = if args.json {
        json(&report)?
    } else if args.csv {
        report.csv()
    } else {
        report.text()
    };
    // A script error stopped a run: its row counts only up to the error.
    // The table is printed, then the first error, exit code 2.
    match summaries.iter().find(|s| s.script_error.is_some()) {
        Some(s) => {
            crate::output::print(&out)?;
            let e = s
                .script_error
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            Err(CliError::input(format!("seed {}: {e}", s.seed)))
        }
        None => Ok(out),
    }
}
