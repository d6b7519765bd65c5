//! `election check`: the failure finder. Random fault schedules built
//! from the named fault kinds, one per seed, run on every core and checked
//! against the safety properties the algorithm claims (and, with
//! `--liveness-ms`, a settled leader soon after the last fault); the
//! lowest failing seed is shrunk to a minimal scenario that still fails
//! the same property (`election_core::check`). Prints `runs`, `failures`
//! and the `counterexample` (null when none) with its scenario and the
//! page link that opens it at the moment of the violation.
//!
//! With `--shard K/N` it checks only the K-th slice of the seeds and
//! prints a shard report (`crate::shard`) whose `job` is the search as the
//! page's finder request (`CheckSpec::from_request`) plus the output
//! format, and whose `results` are `{"failures": F,
//! "first_failing_seed": S or null}` for the slice; `election merge` adds
//! the failures up, shrinks the lowest failing seed of all and prints
//! what the unsharded run prints, with the same code ([`finish`]).

use crate::error::CliError;
use crate::load::load_scenario;

use crate::output::json;
use crate::overrides::parse_ms;
use crate::seeds::{SeedRange, parse_seeds};
use crate::shard::{self, Format, Shard};
use clap::Args;
use election_core::check::{self, CheckSpec, Counterexample, FaultKind, Finding};
use election_core::time::{Micros, to_ms};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json as json_value};
use std::path::PathBuf;

/// Flags of `election check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Algorithm to check (default: the scenario's).
    #[arg(long, value_name = "ID", conflicts_with = "script")]
    pub algorithm: Option<String>,
    /// Check your own algorithm: a Rhai script file or `template:ID` (the
    /// counterexample's scenario and link carry the script).
    #[arg(long, value_name = "FILE|template:ID")]
    pub script: Option<String>,
    /// The cluster every seed starts from (nodes, network, timing,
    /// options); its faults are replaced by each seed's schedule. Default:
    /// a small cluster drawn per seed.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Seeds: `A..B` (both ends included), one schedule each.
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    pub seeds: SeedRange,
    /// Fault kinds the schedules may use, comma-separated (crash, recover,
    /// pause, clock, partition, heal, slow, flaky, cut, uncut, network;
    /// drop means network). Default: all but uncut.
    #[arg(long, value_name = "KINDS")]
    pub faults: Option<String>,
    /// Also fail a run with no single settled leader within MS after the
    /// last fault (every fault is then undone at the end of a schedule).
    #[arg(long = "liveness-ms", value_parser = parse_ms, value_name = "MS")]
    pub liveness_us: Option<Micros>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Check only slice K of N of the seeds (K from 1) and print a shard
    /// report (JSON) for `election merge`, which prints what this command
    /// prints without --shard (see docs/scale.md).
    #[arg(long, value_parser = shard::parse_shard, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The `job` of a check's shard report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The search and its seeds, as the page's finder request.
    pub request: Value,
    /// What the unsharded run prints.
    pub output: Format,
}

impl Job {
    /// The job of `spec` over `seeds`.
    fn of(spec: &CheckSpec, seeds: SeedRange, output: Format) -> Self {
        let kinds: Vec<&str> = spec.kinds.iter().map(|k| k.name()).collect();
        Self {
            request: json_value!({
                "algorithm": spec.algorithm,
                "script": spec.script.as_deref(),
                "scenario": spec.base.as_ref().map(|s| s.to_json()),
                "faults": kinds,
                "liveness_ms": spec.liveness_us.map(to_ms),
                "seeds": format!("{}..{}", seeds.from, seeds.to),
            }),
            output,
        }
    }

    /// The spec and seeds again.
    fn spec(&self) -> Result<(CheckSpec, SeedRange), CliError> {
        CheckSpec::from_request(&self.request.to_string())
            .map_err(|e| CliError::input(format!("shard job: {e}")))
    }
}

/// The `results` of a check's shard report.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Results {
    /// Failing seeds in the slice.
    failures: u64,
    /// The lowest of them.
    first_failing_seed: Option<u64>,
}

/// `check --json`.
#[derive(Serialize)]
struct Report {
    runs: u64,
    failures: u64,
    counterexample: Option<serde_json::Value>,
}

/// The spec the flags describe; errors name the flag.
fn spec(args: &CheckArgs) -> Result<CheckSpec, CliError> {
    let base = match &args.scenario {
        Some(path) => Some(load_scenario(Some(path))?),
        None => None,
    };
    let script = match &args.script {
        Some(spec) => Some(crate::load::load_script(spec)?),
        None => None,
    };
    let algorithm = match (&args.algorithm, &base) {
        // The `--script` flag's contract: the scripted algorithm, with this source.
        _ if script.is_some() => election_core::script::ALGORITHM.to_string(),
        (Some(a), _) => a.clone(),
        (None, Some(s)) => s.algorithm.clone(),
        (None, None) => {
            return Err(CliError::input(
                "--algorithm: missing; name the algorithm to check (see `election algorithms`) or give --scenario",
            ));
        }
    };
    if args.liveness_us == Some(0) {
        return Err(CliError::input("--liveness-ms: must be above 0"));
    }
    let kinds = match &args.faults {
        Some(text) => {
            FaultKind::parse_list(text).map_err(|m| CliError::input(format!("--faults: {m}")))?
        }
        None => FaultKind::defaults(),
    };
    let spec = match script {
        Some(source) => CheckSpec::scripted(source.into(), base, kinds, args.liveness_us),
        None => CheckSpec::new(&algorithm, base, kinds, args.liveness_us),
    };
    spec.map_err(|e| match e.field.as_str() {
        "algorithm" => CliError::input(format!("--algorithm: {}", e.message)),
        "script" => CliError::input(format!("--script: {}", e.message)),
        _ => CliError::input(format!("--scenario: {e}")),
    })
}

/// `1 node`, `2 nodes`.
fn count(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The readable report.
fn text(seeds: SeedRange, spec: &CheckSpec, failures: u64, c: Option<&Counterexample>) -> String {
    let kinds: Vec<&str> = spec.kinds.iter().map(|k| k.name()).collect();
    let mut out = format!(
        "{} random fault schedules of {} ({}), seeds {}..={}: {} failed\n",
        seeds.count(),
        spec.algorithm,
        kinds.join(", "),
        seeds.from,
        seeds.to,
        failures
    );
    if let Some(c) = c {
        out.push_str(&format!(
            "\nfirst failure: seed {}, {} at {} ms: {}\nshrunk to {} and {} (the scenario's seed {}; {}); replay with `election run --scenario FILE`:\n{}\npage link (opens at the violation): {}\n",
            c.seed,
            c.property,
            election_core::time::to_ms(c.at_us),
            c.detail,
            count(u64::from(c.scenario.nodes), "node"),
            count(c.scenario.faults.len() as u64, "fault"),
            c.scenario.seed,
            c.tried(),
            c.scenario.to_json_pretty(),
            c.link()
        ));
    }
    out
}

/// Runs the seeds (or the slice `--shard K/N` of them), shrinks the
/// first failure and reports; exits 1 (after printing the report) when a
/// failure was found. A shard exits 0 whatever it found.
pub fn check(args: &CheckArgs) -> Result<String, CliError> {
    let spec = spec(args)?;
    let seeds = args.seeds;
    let threads = crate::parallel::threads(args.threads);
    let output = Format::of(args.json, false);
    let (from, count) = match args.shard {
        Some(slice) => slice.slice(seeds.count()),
        None => (0, seeds.count()),
    };
    // In seed order, a chunk at a time: memory holds the first failure,
    // not every seed's outcome.
    let (mut failures, mut first) = (0u64, None);
    crate::parallel::for_each(
        count,
        threads,
        |i| check::check_seed(&spec, seeds.from + from + i),
        |i, found| {
            if let Some(f) = found {
                failures += 1;
                if first.is_none() {
                    first = Some((seeds.from + from + i, f));
                }
            }
        },
    );
    let Some(slice) = args.shard else {
        return finish(&spec, seeds, output, failures, first);
    };
    let job = Job::of(&spec, seeds, output);
    if job.spec()? != (spec, seeds) {
        return Err(CliError::failure(
            "--shard: this check does not survive its shard report's JSON form; run it without --shard",
        ));
    }
    let results = Results {
        failures,
        first_failing_seed: first.map(|(seed, _)| seed),
    };
    shard::report("check", slice, seeds.count(), job, results)
}

/// Prints the merge of a check's shard reports: `job` and each shard's
/// `results`, in slice order. The lowest failing seed is run and shrunk
/// here, as the unsharded run does.
pub fn merge(job: Value, results: Vec<shard::Results>) -> Result<String, CliError> {
    let job: Job = shard::job(job)?;
    let (spec, seeds) = job.spec()?;
    let mut failures = 0;
    let mut first = None;
    for r in results {
        let part: Results = r.parse()?;
        failures += part.failures;
        if first.is_none() {
            first = part.first_failing_seed;
        }
    }
    let first = match first {
        None => None,
        Some(seed) => Some((
            seed,
            check::check_seed(&spec, seed).ok_or_else(|| {
                CliError::input(format!(
                    "the shards name seed {seed} as failing, but it passes here: were they written by another build?"
                ))
            })?,
        )),
    };
    finish(&spec, seeds, job.output, failures, first)
}

/// What `election check` prints: `failures` failing seeds, the lowest
/// `first` with what it broke (shrunk here).
fn finish(
    spec: &CheckSpec,
    seeds: SeedRange,
    output: Format,
    failures: u64,
    first: Option<(u64, Finding)>,
) -> Result<String, CliError> {
    let counterexample = first.map(|(seed, f)| check::shrink_seed(spec, seed, &f));
    let out = if output == Format::Json {
        json(&Report {
            runs: seeds.count(),
            failures,
            counterexample: counterexample.as_ref().map(Counterexample::to_json),
        })?
    } else {
        text(seeds, spec, failures, counterexample.as_ref())
    };
    match &counterexample {
        None => Ok(out),
        Some(c) => {
            print!("{out}");
            Err(CliError::failure(format!(
                "{failures} of {} runs failed; the first ({}) shrinks to the scenario above",
                seeds.count(),
                c.property
            )))
        }
    }
}
