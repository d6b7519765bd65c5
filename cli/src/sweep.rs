//! `election sweep`: one simulation per seed over an inclusive range, on
//! every core, summarised as distributions (mean, p50, p99, min, max);
//! optionally over several algorithms (`--algorithms`) and the values of
//! one scenario field (`--param FIELD=V1,V2,...`), or a built-in
//! experiment (`--experiment raft-fig16`).
//!
//! The experiment, its runs, the JSON report and the CSV rows are the
//! core's (`election_core::experiment`), shared with the page's Web
//! Workers; this file only parses flags, spreads the runs over threads
//! (results back in run order, whatever the thread timing) and draws the
//! text table.
//!
//! With `--shard K/N` it runs only the K-th slice of the runs (groups x
//! seeds, group by group) and prints a shard report (`crate::shard`)
//! whose `job` is the experiment in the page's JSON form plus the output
//! format, and whose `results` are `{"records": [RunRecord, ...]}`, one
//! per run of the slice in run order; `election merge` puts the records
//! back together and prints what the unsharded run prints, with the same
//! code ([`finish`]).

use crate::error::CliError;

use crate::output::{Table, num};
use crate::overrides::ScenarioArgs;
use crate::seeds::{SeedRange, parse_seeds};
use crate::shard::{self, Format, Shard};
use clap::Args;
use election_core::Scenario;
use election_core::ScenarioExt;
use election_core::experiment::report::{ExperimentReport, SweepReport, json_text};
use election_core::experiment::{Experiment, Param, RunRecord, csv, parse_param, presets};
use election_core::stats::{Censored, Stats};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Flags of `election sweep`.
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// Scenario file and field overrides.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seeds to run: `A..B` or `A..=B` (both ends included) or one seed `A`.
    #[arg(long, value_parser = parse_seeds, value_name = "A..B", required_unless_present = "experiment")]
    pub seeds: Option<SeedRange>,
    /// Run the scenario under each of these algorithms (comma-separated ids).
    #[arg(long, value_name = "a,b,c", value_delimiter = ',')]
    pub algorithms: Vec<String>,
    /// Vary one scenario field over these values, e.g. `nodes=4,8,16` or
    /// `timing.election_timeout_ms=150-151,150-155,150-300`.
    #[arg(long, value_parser = parse_param, value_name = "FIELD=V1,V2,...")]
    pub param: Option<Param>,
    /// A built-in experiment instead of a scenario (`raft-fig16`,
    /// `ring-messages`); `--seeds` overrides its default seeds.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["scenario", "preset", "param", "algorithms"])]
    pub experiment: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print one CSV row per run instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Run only slice K of N of the runs (K from 1) and print a shard
    /// report (JSON) for `election merge`, which prints what this command
    /// prints without --shard (see docs/scale.md).
    #[arg(long, value_parser = shard::parse_shard, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The `job` of a sweep's shard report: the experiment as the page
/// writes it (`Experiment::from_json`'s fields) and the output format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The base scenario.
    pub scenario: Value,
    /// The seed range, `A..B`.
    pub seeds: String,
    /// The algorithms, in group order.
    pub algorithms: Vec<String>,
    /// The varied parameter, `FIELD=V1,V2,...`.
    pub param: Option<String>,
    /// What the unsharded run prints.
    pub output: Format,
}

impl Job {
    /// The job of experiment `e` built on `base`.
    fn of(e: &Experiment, base: &Scenario, output: Format) -> Self {
        let seeds = e.seeds();
        Self {
            scenario: base.to_json(),
            seeds: format!("{}..{}", seeds.from, seeds.to),
            algorithms: e.algorithms().to_vec(),
            param: e
                .param()
                .map(|p| format!("{}={}", p.field, p.values.join(","))),
            output,
        }
    }

    /// The experiment again.
    fn experiment(&self) -> Result<Experiment, CliError> {
        let bad = |e: String| CliError::input(format!("shard job: {e}"));
        let base = Scenario::from_value(&self.scenario).map_err(|e| bad(e.to_string()))?;
        let seeds = parse_seeds(&self.seeds).map_err(bad)?;
        let param = self
            .param
            .as_deref()
            .map(parse_param)
            .transpose()
            .map_err(bad)?;
        Experiment::new(&base, seeds, &self.algorithms, param).map_err(|e| bad(e.to_string()))
    }
}

/// The `results` of a sweep's shard report.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Records<T> {
    /// One per run of the slice, in run order.
    records: Vec<T>,
}

/// Every run of `e` on `threads` workers, in run order.
pub fn run_all(e: &Experiment, threads: usize) -> Vec<RunRecord> {
    crate::parallel::map(e.run_count(), threads, |i| e.run(i))
        .into_iter()
        .flatten()
        .collect()
}

/// The experiment the flags describe, and the scenario it is built on.
fn experiment(args: &SweepArgs) -> Result<(Experiment, Scenario), CliError> {
    if let Some(name) = &args.experiment {
        let o = &args.scenario;
        if o.algorithm.is_some()
            || o.nodes.is_some()
            || o.ring.is_some()
            || o.start.is_some()
            || o.until_us.is_some()
            || o.latency_ms.is_some()
            || o.drop.is_some()
            || o.duplicate.is_some()
            || !o.faults.is_empty()
        {
            return Err(CliError::input(format!(
                "--experiment {name} takes only --seeds; to change its scenario, use --scenario with --param (see docs/guide.md, Experiments)"
            )));
        }
        let preset = presets::lookup(name)
            .map_err(|e| CliError::input(format!("--experiment: {}", e.message)))?;
        let seeds = args.seeds.map(|s| format!("{}..{}", s.from, s.to));
        let invalid =
            |e: election_core::ScenarioError| CliError::input(format!("--experiment {name}: {e}"));
        let e = preset.experiment(seeds.as_deref()).map_err(invalid)?;
        return Ok((e, preset.scenario().map_err(invalid)?));
    }
    let base = args.scenario.build(None)?;
    let seeds = args
        .seeds
        .ok_or_else(|| CliError::input("--seeds is required (or --experiment NAME)"))?;
    let e = Experiment::new(&base, seeds, &args.algorithms, args.param.clone()).map_err(|e| {
        let flag = match e.field.as_str() {
            "algorithms" => "--algorithms",
            "seeds" => "--seeds",
            _ => "--param",
        };
        CliError::input(format!("{flag}: {e}"))
    })?;
    Ok((e, base))
}

/// A percentile of a time some runs never reached: the time, or `> T`
/// when it falls among those runs (watched for at least T ms).
fn censored_cell(c: &Censored, value: Option<f64>) -> String {
    match (value, c.censored_after_ms) {
        (Some(v), _) => num(v),
        (None, Some(t)) => format!("> {}", num(t)),
        (None, None) => "-".to_string(),
    }
}

/// How many runs never got there, for how long they were watched, and
/// the share that did (`done`: what getting there is called).
fn not_reached(count: u64, c: &Censored, done: &str) -> String {
    match c.censored_after_ms {
        Some(t) if count > 0 => format!(
            "{count} of {} (not within {} ms; {} {done})",
            c.runs,
            num(t),
            percent(c.fraction_reached)
        ),
        _ => count.to_string(),
    }
}

/// A fraction as a percentage with one decimal: `30.8%`.
fn percent(f: f64) -> String {
    format!("{}%", num((f * 1000.0).round() / 10.0))
}

/// The text table of one sweep report.
fn report_text(r: &SweepReport, heading: &str) -> String {
    let mut out = format!(
        "{heading}: {}, {} nodes, seeds {}..={} ({} runs)\n\n",
        r.algorithm, r.nodes, r.seeds.from, r.seeds.to, r.runs
    );
    let mut t = Table::new();
    t.row(["", "mean", "p50", "p99", "min", "max"]);
    let rows = [
        ("messages_sent", &r.messages_sent, None),
        ("election_messages", &r.election_messages, None),
        ("background_messages", &r.background_messages, None),
        (
            "first_leader_ms",
            &r.first_leader_ms,
            Some(&r.first_leader_censored),
        ),
        ("recovery_ms", &r.recovery_ms, Some(&r.recovery_censored)),
        ("elections", &r.elections, None),
        ("leader_changes", &r.leader_changes, None),
        ("leaderless_ms", &r.leaderless_ms, None),
        ("split_brain_ms", &r.split_brain_ms, None),
    ];
    for (name, stats, censored) in rows {
        match (stats, censored) {
            // A time some runs never reached: its percentiles count them
            // (censored, "> T"), and a mean of the others would flatter.
            (Some(s), Some(c)) if c.reached < c.runs => t.row([
                name.to_string(),
                "-".to_string(),
                censored_cell(c, c.p50),
                censored_cell(c, c.p99),
                num(s.min),
                censored_cell(c, c.max),
            ]),
            (Some(s), _) => t.row([
                name.to_string(),
                num(s.mean),
                num(s.p50),
                num(s.p99),
                num(s.min),
                num(s.max),
            ]),
            (None, Some(c)) if c.runs > 0 => t.row([
                name.to_string(),
                "-".to_string(),
                censored_cell(c, c.p50),
                censored_cell(c, c.p99),
                "-".to_string(),
                censored_cell(c, c.max),
            ]),
            (None, _) => t.row([name, "-", "-", "-", "-", "-"]),
        };
    }
    out.push_str(&t.render(""));
    out.push_str("\nmessages by kind (mean per run)\n");
    let mut k = Table::new();
    for (kind, mean) in &r.by_kind_mean {
        k.row([kind.clone(), num(*mean)]);
    }
    out.push_str(&k.render("  "));
    out.push('\n');
    let mut f = Table::left();
    f.row([
        "runs without a leader".to_string(),
        not_reached(
            r.runs_without_leader,
            &r.first_leader_censored,
            "elected one",
        ),
    ])
    .row([
        "runs that never recovered".to_string(),
        not_reached(r.runs_not_recovered, &r.recovery_censored, "recovered"),
    ])
    .row([
        "runs ending without one leader".to_string(),
        r.runs_without_single_leader_at_end.to_string(),
    ])
    .row([
        "violations".to_string(),
        format!("{} (in {} runs)", r.violations, r.runs_with_violations),
    ])
    .row(["unsettled runs".to_string(), r.unsettled_runs.to_string()])
    .row(["truncated runs".to_string(), r.truncated_runs.to_string()])
    .row(["distinct traces".to_string(), r.distinct_traces.to_string()]);
    if r.script_errors > 0 {
        f.row([
            "runs stopped by a script error".to_string(),
            r.script_errors.to_string(),
        ]);
    }
    out.push_str(&f.render(""));
    if let Some(first) = &r.first_script_error {
        out.push_str(&format!("first script error: {first}\n"));
    }
    out
}

/// The table of a grouped experiment: one row per group, then each
/// group's full table.
fn grouped_text(report: &ExperimentReport) -> String {
    let field = report.param.clone().unwrap_or_default();
    // A `nodes` parameter is already the nodes column.
    let value_column = !field.is_empty() && field != "nodes";
    let mut t = Table::new();
    let mut head = vec!["algorithm".to_string(), "nodes".to_string()];
    if value_column {
        head.push(field.clone());
    }
    head.extend(
        [
            "election mean",
            "theory",
            "recovery p50",
            "recovery p99",
            "recovered",
            "not recovered",
        ]
        .map(String::from),
    );
    t.row(head);
    let stat =
        |s: &Option<Stats>, f: fn(&Stats) -> f64| s.as_ref().map_or("-".into(), |s| num(f(s)));
    for g in &report.groups {
        let r = &g.report;
        let mut row = vec![r.algorithm.clone(), r.nodes.to_string()];
        if value_column {
            row.push(g.value.clone().unwrap_or_else(|| "-".into()));
        }
        row.extend([
            stat(&r.election_messages, |s| s.mean),
            g.theory.map_or("-".into(), num),
            censored_cell(&r.recovery_censored, r.recovery_censored.p50),
            censored_cell(&r.recovery_censored, r.recovery_censored.p99),
            percent(r.recovery_censored.fraction_reached),
            r.runs_not_recovered.to_string(),
        ]);
        t.row(row);
    }
    let mut out = format!(
        "sweep: {} groups, seeds {}..={} each ({} runs)\n\n",
        report.groups.len(),
        report.seeds.from,
        report.seeds.to,
        report.runs
    );
    out.push_str(&t.render(""));
    for g in &report.groups {
        out.push('\n');
        let heading = match &g.value {
            Some(v) => format!("{field}={v}"),
            None => "sweep".to_string(),
        };
        out.push_str(&report_text(&g.report, &heading));
    }
    out
}

/// Runs the sweep (or its slice `--shard K/N`) and returns the text to
/// print.
pub fn sweep(args: &SweepArgs) -> Result<String, CliError> {
    let (e, base) = experiment(args)?;
    let threads = crate::parallel::threads(args.threads);
    let output = Format::of(args.json, args.csv);
    let Some(slice) = args.shard else {
        return finish(&e, output, &run_all(&e, threads));
    };
    let job = Job::of(&e, &base, output);
    if job.experiment()? != e {
        return Err(CliError::failure(
            "--shard: this sweep does not survive its shard report's JSON form; run it without --shard",
        ));
    }
    let (from, count) = slice.slice(e.run_count());
    let records = crate::parallel::map(count, threads, |i| {
        e.run(from + i).map(|r| shard::one_line(&r))
    })
    .into_iter()
    .flatten()
    .collect::<Result<Vec<_>, _>>()?;
    shard::report("sweep", slice, e.run_count(), job, Records { records })
}

/// Prints the merge of a sweep's shard reports: `job` and each shard's
/// `results`, in slice order.
pub fn merge(job: Value, results: Vec<shard::Results>) -> Result<String, CliError> {
    let job: Job = shard::job(job)?;
    let e = job.experiment()?;
    let mut records = Vec::new();
    for r in results {
        records.extend(r.parse::<Records<RunRecord>>()?.records);
    }
    e.check_records(&records)
        .map_err(|err| CliError::input(format!("the shards' records: {err}")))?;
    finish(&e, job.output, &records)
}

/// What `election sweep` prints for the `records` of every run of `e`.
fn finish(e: &Experiment, output: Format, records: &[RunRecord]) -> Result<String, CliError> {
    let failure = |err: election_core::ScenarioError| CliError::failure(err.to_string());
    let out = match output {
        Format::Csv => csv::csv_text(e, records).map_err(failure)?,
        Format::Json => json_text(e, records).map_err(failure)?,
        Format::Text if e.is_grouped() => grouped_text(&ExperimentReport::of(e, records)),
        Format::Text => report_text(
            &SweepReport::of(&e.groups()[0].scenario, e.seeds(), records),
            "sweep",
        ),
    };
    stopped_by_script(out, records)
}

/// `out` to print, or, when a script error stopped any run, `out`
/// printed and the first such error (by seed) as the one message on
/// stderr with exit code 2, as `election run` does.
fn stopped_by_script(out: String, records: &[RunRecord]) -> Result<String, CliError> {
    let stopped = records.iter().filter(|r| r.script_error.is_some());
    match stopped.clone().next() {
        None => Ok(out),
        Some(first) => {
            crate::output::print(&out)?;
            Err(CliError::input(format!(
                "{} of {} runs stopped by a script error; the first, seed {}: {}",
                stopped.count(),
                records.len(),
                first.seed,
                first.script_error.as_deref().unwrap_or_default()
            )))
        }
    }
}
