//! The summary of an experiment: [`SweepReport`] (the `election sweep
//! --json` object of one scenario) and, for an experiment with several
//! algorithms or a parameter, [`ExperimentReport`] with one group each.
//! [`report`] gives the one an experiment has (a [`Report`], which the
//! page gets as an object); [`json_text`] is the exact text `election
//! sweep --json` prints and the page exports.

use super::record::RunRecord;
use super::seeds::SeedRange;
use super::{Experiment, ExperimentError};
use crate::Scenario;
use crate::algorithms;
use crate::stats::{Censored, Stats};
use crate::vec_map::VecMap;
use serde::Serialize;

/// The `sweep --json` object of one scenario over a seed range.
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    /// Number of runs.
    pub runs: u64,
    /// Algorithm id.
    pub algorithm: String,
    /// Number of nodes.
    pub nodes: u32,
    /// Seeds run.
    pub seeds: SeedRange,
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
    /// The time to recover over every run, those that never recovered
    /// counted as slower than they were watched (censored): percentiles
    /// that fall among them are `null`, meaning more than
    /// `censored_after_ms`, and `fraction_reached` is the share of runs
    /// that recovered. What the text table and the page show.
    pub recovery_censored: Censored,
    /// The time to the first leader over every run, likewise (a run
    /// without a leader is censored at its end).
    pub first_leader_censored: Censored,
    /// Runs that ended without exactly one leader.
    pub runs_without_single_leader_at_end: u64,
    /// Mean messages sent per run, by kind.
    pub by_kind_mean: VecMap<String, f64>,
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
    /// Runs stopped by a script error (scripted algorithms only; absent,
    /// like the next key, when none was).
    #[serde(skip_serializing_if = "is_zero")]
    pub script_errors: u64,
    /// The first of them by seed: `seed S: ` and the error as `election
    /// run` prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_script_error: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Message kinds of the scenario's algorithm, in registry order.
pub fn kinds_of(s: &Scenario) -> &'static [&'static str] {
    algorithms::info(&s.algorithm)
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
        let mut by_kind_mean = VecMap::new();
        for (i, k) in kinds.iter().enumerate() {
            let total: u64 = records
                .iter()
                .map(|r| r.by_kind.get(i).copied().unwrap_or(0))
                .sum();
            by_kind_mean.insert(k.to_string(), total as f64 / runs.max(1) as f64);
        }
        let first: Vec<f64> = records.iter().filter_map(|r| r.first_leader_ms).collect();
        let recovery: Vec<f64> = records.iter().filter_map(|r| r.recovery_ms).collect();
        let mut hashes: Vec<&str> = records.iter().map(|r| r.trace_hash.as_str()).collect();
        hashes.sort_unstable();
        hashes.dedup();
        Self {
            runs,
            algorithm: base.algorithm.clone(),
            nodes: base.nodes,
            seeds,
            messages_sent: stats_of(records, |r| r.sent as f64),
            election_messages: stats_of(records, |r| r.election as f64),
            background_messages: stats_of(records, |r| (r.sent - r.election) as f64),
            first_leader_ms: Stats::of(&first),
            runs_without_leader: runs - first.len() as u64,
            recovery_ms: Stats::of(&recovery),
            runs_not_recovered: runs - recovery.len() as u64,
            recovery_censored: Censored::of(
                &records
                    .iter()
                    .map(RunRecord::recovery_or_watched)
                    .collect::<Vec<_>>(),
            ),
            first_leader_censored: Censored::of(
                &records
                    .iter()
                    .map(RunRecord::first_leader_or_watched)
                    .collect::<Vec<_>>(),
            ),
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
            script_errors: count(records, |r| r.script_error.is_some()),
            first_script_error: records
                .iter()
                .find_map(|r| Some(format!("seed {}: {}", r.seed, r.script_error.as_ref()?))),
        }
    }
}

/// One group of an [`ExperimentReport`]: its parameter value, the
/// published election-message figure where one exists, and the group's
/// sweep report.
#[derive(Debug, Clone, Serialize)]
pub struct GroupReport {
    /// The parameter's value, as written (`null` without a parameter).
    pub value: Option<String>,
    /// `algorithms::theory` for the group's scenario (initial election,
    /// every node starting, no faults), to set beside
    /// `election_messages.mean`.
    pub theory: Option<f64>,
    /// The formula and source behind `theory`.
    pub theory_formula: Option<&'static str>,
    /// The group's summary.
    #[serde(flatten)]
    pub report: SweepReport,
}

/// The `sweep --json` object of an experiment with several algorithms or
/// a parameter.
#[derive(Debug, Clone, Serialize)]
pub struct ExperimentReport {
    /// Runs in all groups.
    pub runs: u64,
    /// Seeds each group ran.
    pub seeds: SeedRange,
    /// The algorithms, in group order.
    pub algorithms: Vec<String>,
    /// The varied field (`null` without one).
    pub param: Option<String>,
    /// One per algorithm and value: algorithms in order, each with every value.
    pub groups: Vec<GroupReport>,
}

impl ExperimentReport {
    /// Summarises `records` (one per run, in index order) of `e`.
    pub fn of(e: &Experiment, records: &[RunRecord]) -> Self {
        let per = e.seeds().count() as usize;
        let groups = e
            .groups()
            .iter()
            .zip(records.chunks(per.max(1)))
            .map(|(g, rs)| {
                let theory = algorithms::theory(&g.scenario);
                GroupReport {
                    value: g.value.clone(),
                    theory: theory.map(|t| t.0),
                    theory_formula: theory.map(|t| t.1),
                    report: SweepReport::of(&g.scenario, e.seeds(), rs),
                }
            })
            .collect();
        Self {
            runs: records.len() as u64,
            seeds: e.seeds(),
            algorithms: e.algorithms().to_vec(),
            param: e.param().map(|p| p.field.clone()),
            groups,
        }
    }
}

/// The summary `election sweep --json` prints, as a value: the plain
/// [`SweepReport`] for one scenario, an [`ExperimentReport`] for a grouped
/// experiment (each serializes as itself, with no tag).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Report {
    /// One scenario over the seeds (boxed: it is the larger by far).
    Sweep(Box<SweepReport>),
    /// Several algorithms or a parameter.
    Experiment(ExperimentReport),
}

/// The [`Report`] of `records` (one per run, in index order) of `e`, once
/// they are checked to be the experiment's.
pub fn report(e: &Experiment, records: &[RunRecord]) -> Result<Report, ExperimentError> {
    e.check_records(records)?;
    Ok(if e.is_grouped() {
        Report::Experiment(ExperimentReport::of(e, records))
    } else {
        Report::Sweep(Box::new(SweepReport::of(
            &e.groups()[0].scenario,
            e.seeds(),
            records,
        )))
    })
}

/// The summary `election sweep --json` prints for `records` of `e`
/// (pretty JSON with a final newline): the text of [`report`].
pub fn json_text(e: &Experiment, records: &[RunRecord]) -> Result<String, ExperimentError> {
    let mut text = crate::pretty_json::to_string_pretty(&report(e, records)?)
        .map_err(|err| crate::ScenarioError::new("report", format!("cannot write JSON: {err}")))?;
    text.push('\n');
    Ok(text)
}
