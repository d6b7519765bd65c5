//! `election fuzz-faults`: thousands of random fault schedules for one
//! algorithm (or all), each a seed, checked against the properties in
//! `election_core::fuzz`, on every core. A failure prints its seed and the
//! scenario file that reproduces it (`election run --scenario FILE`).
//!
//! Each seed's run is cut down to what the report needs as soon as it
//! ends (a failure, or whether it reported a lease overlap), so memory
//! does not grow with the runs' summaries. With `--shard K/N` only the
//! K-th slice of the seeds is run and a shard report (`crate::shard`) is
//! printed: its `job` is `{"algorithm", "seeds", "output"}` and its
//! `results` are `{"failures": [{"seed", "problem"}, ...],
//! "lease_overlaps": L, "first_scenario": the scenario text of the
//! slice's first failure or null}`; `election merge` joins them and
//! prints what the unsharded run prints, with the same code ([`finish`]).

use crate::error::CliError;

use crate::output::json;
use crate::seeds::{SeedRange, parse_seeds};
use crate::shard::{self, Format, Shard};
use clap::Args;
use election_core::{algorithms, fuzz};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// Flags of `election fuzz-faults`.
#[derive(Debug, Clone, Args)]
pub struct FuzzArgs {
    /// Algorithm to test (default: drawn per seed among all).
    #[arg(long, value_name = "ID")]
    pub algorithm: Option<String>,
    /// Seeds: `A..B` (both ends included).
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    pub seeds: SeedRange,
    /// Write the first failing scenario to this file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Run only slice K of N of the seeds (K from 1) and print a shard
    /// report (JSON) for `election merge`, which prints what this command
    /// prints without --shard (see docs/scale.md; give --save to the
    /// merge).
    #[arg(long, value_parser = shard::parse_shard, value_name = "K/N", conflicts_with = "save")]
    pub shard: Option<Shard>,
}

/// The `job` of a fuzz run's shard report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// `--algorithm`, or null for all.
    pub algorithm: Option<String>,
    /// The seed range, `A..B`.
    pub seeds: String,
    /// What the unsharded run prints.
    pub output: Format,
}

/// What some seeds found: the `results` of a shard report.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Results {
    /// Failing seeds, in seed order.
    failures: Vec<FailureJson>,
    /// Runs that reported a lease overlap.
    lease_overlaps: u64,
    /// The scenario that reproduces the first failure.
    first_scenario: Option<String>,
}

impl Results {
    /// Adds the outcome of the next seed.
    fn add(&mut self, outcome: Result<bool, fuzz::Failure>) {
        match outcome {
            Ok(lease_overlap) => self.lease_overlaps += u64::from(lease_overlap),
            Err(f) => {
                if self.first_scenario.is_none() {
                    self.first_scenario = Some(f.scenario);
                }
                self.failures.push(FailureJson {
                    seed: f.seed,
                    problem: f.problem,
                });
            }
        }
    }

    /// Appends the results of the next seeds.
    fn extend(&mut self, next: Results) {
        if self.first_scenario.is_none() {
            self.first_scenario = next.first_scenario;
        }
        self.failures.extend(next.failures);
        self.lease_overlaps += next.lease_overlaps;
    }
}

/// One seed's run, cut down to what the report needs: whether it
/// reported a lease overlap, or its failure.
fn run_seed(seed: u64, only: Option<&str>) -> Result<bool, fuzz::Failure> {
    match std::panic::catch_unwind(|| fuzz::check_seed(seed, only)) {
        Ok(Ok(s)) => Ok(s.violations.iter().any(|v| v.property == "lease_overlap")),
        Ok(Err(f)) => Err(f),
        Err(_) => Err(fuzz::Failure {
            seed,
            problem: "the engine panicked".into(),
            scenario: serde_json::to_string_pretty(&fuzz::random_scenario_json(seed, only))
                .unwrap_or_default(),
        }),
    }
}

/// The outcome of a fuzz run.
#[derive(Debug, Clone, Serialize)]
pub struct FuzzReport {
    /// Algorithm, or `all`.
    pub algorithm: String,
    /// Seeds run.
    pub runs: u64,
    /// Failing seeds.
    pub failures: Vec<FailureJson>,
    /// Runs that reported a `lease_overlap` (a clock fault breaking a
    /// lease: expected, reported, not a failure).
    pub lease_overlaps: u64,
}

/// One failure.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FailureJson {
    /// The seed.
    pub seed: u64,
    /// What broke.
    pub problem: String,
}

/// Runs the seeds (or the slice `--shard K/N` of them) and reports;
/// exits non-zero (code 1) when any failed. A shard exits 0 whatever it
/// found.
pub fn fuzz_faults(args: &FuzzArgs) -> Result<String, CliError> {
    if let Some(a) = &args.algorithm {
        algorithms::lookup(a).map_err(|e| CliError::input(format!("--algorithm: {e}")))?;
    }
    let only = args.algorithm.as_deref();
    let seeds = args.seeds;
    let (from, count) = match args.shard {
        Some(slice) => slice.slice(seeds.count()),
        None => (0, seeds.count()),
    };
    // In index order, a chunk at a time: memory holds the failures, not
    // every seed's outcome.
    let mut results = Results::default();
    crate::parallel::for_each(
        count,
        crate::parallel::threads(args.threads),
        |i| run_seed(seeds.from + from + i, only),
        |_, outcome| results.add(outcome),
    );
    let output = Format::of(args.json, false);
    match args.shard {
        None => finish(only, seeds, output, args.save.as_deref(), results),
        Some(slice) => {
            let job = Job {
                algorithm: args.algorithm.clone(),
                seeds: format!("{}..{}", seeds.from, seeds.to),
                output,
            };
            shard::report("fuzz-faults", slice, seeds.count(), job, results)
        }
    }
}

/// Prints the merge of a fuzz run's shard reports: `job` and each
/// shard's `results`, in slice order; `save` is the merge's `--save`.
pub fn merge(
    job: Value,
    results: Vec<shard::Results>,
    save: Option<&Path>,
) -> Result<String, CliError> {
    let job: Job = shard::job(job)?;
    let seeds = parse_seeds(&job.seeds).map_err(|e| CliError::input(format!("shard job: {e}")))?;
    let mut all = Results::default();
    for r in results {
        all.extend(r.parse()?);
    }
    finish(job.algorithm.as_deref(), seeds, job.output, save, all)
}

/// What `election fuzz-faults` prints for the `results` of all `seeds`.
fn finish(
    algorithm: Option<&str>,
    seeds: SeedRange,
    output: Format,
    save: Option<&Path>,
    results: Results,
) -> Result<String, CliError> {
    let first = results
        .failures
        .first()
        .map(|f| (f.seed, results.first_scenario.clone().unwrap_or_default()));
    if let (Some(path), Some((_, scenario))) = (save, &first) {
        std::fs::write(path, scenario)
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
    }
    let report = FuzzReport {
        algorithm: algorithm.unwrap_or("all").to_string(),
        runs: seeds.count(),
        failures: results.failures,
        lease_overlaps: results.lease_overlaps,
    };
    let text = if output == Format::Json {
        json(&report)?
    } else {
        let mut out = format!(
            "{} random fault schedules ({}), seeds {}..={}: {} failed; {} reported a lease overlap (a clock fault breaking a lease, as expected)\n",
            report.runs,
            report.algorithm,
            seeds.from,
            seeds.to,
            report.failures.len(),
            report.lease_overlaps
        );
        for f in report.failures.iter().take(20) {
            out.push_str(&format!("  seed {}: {}\n", f.seed, f.problem));
        }
        if let Some((seed, scenario)) = &first {
            out.push_str(&format!(
                "\nfirst failing scenario (seed {seed}), reproduce with `election run --scenario FILE`:\n{scenario}\n"
            ));
        }
        out
    };
    if report.failures.is_empty() {
        Ok(text)
    } else {
        print!("{text}");
        Err(CliError::failure(format!(
            "{} of {} runs failed",
            report.failures.len(),
            report.runs
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_results_of_the_slices_add_up_to_the_results_of_all_seeds() {
        let outcome = |seed: u64| {
            if seed % 5 == 3 {
                Err(fuzz::Failure {
                    seed,
                    problem: format!("problem {seed}"),
                    scenario: format!("scenario {seed}"),
                })
            } else {
                Ok(seed % 4 == 0)
            }
        };
        let run = |from: u64, count: u64| {
            let mut r = Results::default();
            for seed in from..from + count {
                r.add(outcome(seed));
            }
            r
        };
        let whole = run(0, 30);
        assert_eq!(whole.first_scenario.as_deref(), Some("scenario 3"));
        assert_eq!((whole.failures.len(), whole.lease_overlaps), (6, 6));
        for n in [1, 4, 7, 40] {
            let mut merged = Results::default();
            for k in 1..=n {
                let (from, count) = Shard { k, n }.slice(30);
                merged.extend(run(from, count));
            }
            assert_eq!(
                serde_json::to_string(&merged).unwrap(),
                serde_json::to_string(&whole).unwrap(),
                "{n} shards"
            );
        }
    }
}
