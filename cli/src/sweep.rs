//! `election sweep`: one simulation per seed over an inclusive range, on
//! every core, summarised as distributions (mean, p50, p99, min, max).
//!
//! Workers pull seed indices from an atomic counter; the results are then
//! sorted by seed, so the output does not depend on thread timing.

use crate::error::CliError;
use crate::output::{Table, json, num};
use crate::overrides::ScenarioArgs;
use crate::seeds::{SeedRange, parse_seeds};
use clap::Args;
use election_core::Scenario;
use election_core::stats::Stats;
use serde::Serialize;
use std::collections::BTreeMap;

/// Flags of `election sweep`.
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// Scenario file and field overrides.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seeds to run: `A..B` or `A..=B` (both ends included) or one seed `A`.
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    pub seeds: SeedRange,
    /// Print one JSON object instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print one CSV row per seed instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

pub use election_core::run_record::RunRecord;

/// Runs `base` once per seed of `seeds` on `threads` workers; the records
/// come back sorted by seed.
pub fn run_seeds(base: &Scenario, seeds: SeedRange, threads: usize) -> Vec<RunRecord> {
    let kinds = kinds_of(base);
    crate::parallel::map(seeds.count(), threads, |i| {
        let mut scenario = base.clone();
        scenario.seed = seeds.from + i;
        RunRecord::of(election_core::sim::run(&scenario), kinds)
    })
}

/// Seed range as reported.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SeedsJson {
    /// First seed.
    pub from: u64,
    /// Last seed (included).
    pub to: u64,
}

/// The `sweep --json` object.
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    /// Number of runs.
    pub runs: u64,
    /// Algorithm id.
    pub algorithm: String,
    /// Number of nodes.
    pub nodes: u32,
    /// Seeds run.
    pub seeds: SeedsJson,
    /// Messages sent per run.
    pub messages_sent: Option<Stats>,
    /// Election-purpose messages sent per run.
    pub election_messages: Option<Stats>,
    /// Background messages sent per run.
    pub background_messages: Option<Stats>,
    /// Time to the first leader, over the runs that had one (ms).
    pub first_leader_ms: Option<Stats>,
    /// Runs in which no node ever led.
    pub runs_without_leader: u64,
    /// Time from the last fault (or the start, with none) until the
    /// cluster settled after it, over the runs that settled (ms): with a
    /// leader crash as the last fault, the time to replace the leader.
    pub recovery_ms: Option<Stats>,
    /// Runs that never settled after their last fault.
    pub runs_not_recovered: u64,
    /// Runs that ended without exactly one leader.
    pub runs_without_single_leader_at_end: u64,
    /// Mean messages sent per run, by kind.
    pub by_kind_mean: BTreeMap<String, f64>,
    /// Property violations, summed over all runs.
    pub violations: u64,
    /// Runs with at least one violation.
    pub runs_with_violations: u64,
    /// Elections started per run.
    pub elections: Option<Stats>,
    /// Leader changes per run.
    pub leader_changes: Option<Stats>,
    /// Time without a leader per run (ms).
    pub leaderless_ms: Option<Stats>,
    /// Time with several leaders per run (ms).
    pub split_brain_ms: Option<Stats>,
    /// Runs that had not settled at their end.
    pub unsettled_runs: u64,
    /// Runs cut short by the event limit.
    pub truncated_runs: u64,
    /// Number of distinct trace hashes.
    pub distinct_traces: u64,
}

/// Message kinds of the scenario's algorithm, in registry order.
fn kinds_of(s: &Scenario) -> &'static [&'static str] {
    election_core::algorithms::info(&s.algorithm)
        .map(|a| a.kinds)
        .unwrap_or_default()
}

fn stats_of(records: &[RunRecord], f: impl Fn(&RunRecord) -> f64) -> Option<Stats> {
    Stats::of(&records.iter().map(f).collect::<Vec<_>>())
}

fn count(records: &[RunRecord], f: impl Fn(&RunRecord) -> bool) -> u64 {
    records.iter().filter(|r| f(r)).count() as u64
}

impl SweepReport {
    /// Summarises `records` (sorted by seed) of a sweep of `base`.
    pub fn of(base: &Scenario, seeds: SeedRange, records: &[RunRecord]) -> Self {
        let runs = records.len() as u64;
        let kinds = kinds_of(base);
        let by_kind_mean = kinds
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let total: u64 = records
                    .iter()
                    .map(|r| r.by_kind.get(i).copied().unwrap_or(0))
                    .sum();
                (k.to_string(), total as f64 / runs.max(1) as f64)
            })
            .collect();
        let first: Vec<f64> = records.iter().filter_map(|r| r.first_leader_ms).collect();
        let recovery: Vec<f64> = records.iter().filter_map(|r| r.recovery_ms).collect();
        let hashes: std::collections::BTreeSet<&str> =
            records.iter().map(|r| r.trace_hash.as_str()).collect();
        Self {
            runs,
            algorithm: base.algorithm.clone(),
            nodes: base.nodes,
            seeds: SeedsJson {
                from: seeds.from,
                to: seeds.to,
            },
            messages_sent: stats_of(records, |r| r.sent as f64),
            election_messages: stats_of(records, |r| r.election as f64),
            background_messages: stats_of(records, |r| (r.sent - r.election) as f64),
            first_leader_ms: Stats::of(&first),
            runs_without_leader: runs - first.len() as u64,
            recovery_ms: Stats::of(&recovery),
            runs_not_recovered: runs - recovery.len() as u64,
            runs_without_single_leader_at_end: count(records, |r| r.leader.is_none()),
            by_kind_mean,
            violations: records.iter().map(|r| r.violations).sum(),
            runs_with_violations: count(records, |r| r.violations > 0),
            elections: stats_of(records, |r| r.elections as f64),
            leader_changes: stats_of(records, |r| r.leader_changes as f64),
            leaderless_ms: stats_of(records, |r| r.leaderless_ms),
            split_brain_ms: stats_of(records, |r| r.split_brain_ms),
            unsettled_runs: count(records, |r| !r.settled),
            truncated_runs: count(records, |r| r.truncated),
            distinct_traces: hashes.len() as u64,
        }
    }

    /// The report as a readable table.
    pub fn text(&self) -> String {
        let mut out = format!(
            "sweep: {}, {} nodes, seeds {}..={} ({} runs)\n\n",
            self.algorithm, self.nodes, self.seeds.from, self.seeds.to, self.runs
        );
        let mut t = Table::new();
        t.row(["", "mean", "p50", "p99", "min", "max"]);
        let rows = [
            ("messages_sent", &self.messages_sent),
            ("election_messages", &self.election_messages),
            ("background_messages", &self.background_messages),
            ("first_leader_ms", &self.first_leader_ms),
            ("recovery_ms", &self.recovery_ms),
            ("elections", &self.elections),
            ("leader_changes", &self.leader_changes),
            ("leaderless_ms", &self.leaderless_ms),
            ("split_brain_ms", &self.split_brain_ms),
        ];
        for (name, stats) in rows {
            match stats {
                Some(s) => t.row([
                    name.to_string(),
                    num(s.mean),
                    num(s.p50),
                    num(s.p99),
                    num(s.min),
                    num(s.max),
                ]),
                None => t.row([name, "-", "-", "-", "-", "-"]),
            };
        }
        out.push_str(&t.render(""));
        out.push_str("\nmessages by kind (mean per run)\n");
        let mut k = Table::new();
        for (kind, mean) in &self.by_kind_mean {
            k.row([kind.clone(), num(*mean)]);
        }
        out.push_str(&k.render("  "));
        out.push('\n');
        let mut f = Table::left();
        f.row([
            "runs without a leader".to_string(),
            self.runs_without_leader.to_string(),
        ])
        .row([
            "runs that never recovered".to_string(),
            self.runs_not_recovered.to_string(),
        ])
        .row([
            "runs ending without one leader".to_string(),
            self.runs_without_single_leader_at_end.to_string(),
        ])
        .row([
            "violations".to_string(),
            format!(
                "{} (in {} runs)",
                self.violations, self.runs_with_violations
            ),
        ])
        .row([
            "unsettled runs".to_string(),
            self.unsettled_runs.to_string(),
        ])
        .row([
            "truncated runs".to_string(),
            self.truncated_runs.to_string(),
        ])
        .row([
            "distinct traces".to_string(),
            self.distinct_traces.to_string(),
        ]);
        out.push_str(&f.render(""));
        out
    }
}

fn csv_text(base: &Scenario, records: &[RunRecord]) -> String {
    election_core::run_record::csv(kinds_of(base), records)
}

/// Runs the sweep and returns the text to print.
pub fn sweep(args: &SweepArgs) -> Result<String, CliError> {
    let base = args.scenario.build(None)?;
    let records = run_seeds(&base, args.seeds, crate::parallel::threads(args.threads));
    if args.csv {
        return Ok(csv_text(&base, &records));
    }
    let report = SweepReport::of(&base, args.seeds, &records);
    if args.json {
        json(&report)
    } else {
        Ok(report.text())
    }
}
