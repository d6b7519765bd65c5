//! `election fuzz-faults`: thousands of random fault schedules for one
//! algorithm (or all), each a seed, checked against the properties in
//! `election_core::fuzz`, on every core. A failure prints its seed and the
//! scenario file that reproduces it (`election run --scenario FILE`).

use crate::error::CliError;
use crate::output::json;
use crate::seeds::{SeedRange, parse_seeds};
use clap::Args;
use election_core::{algorithms, fuzz};
use serde::Serialize;

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
#[derive(Debug, Clone, Serialize)]
pub struct FailureJson {
    /// The seed.
    pub seed: u64,
    /// What broke.
    pub problem: String,
}

/// Runs the seeds and reports; exits non-zero (code 1) when any failed.
pub fn fuzz_faults(args: &FuzzArgs) -> Result<String, CliError> {
    if let Some(a) = &args.algorithm {
        algorithms::lookup(a).map_err(|e| CliError::input(format!("--algorithm: {e}")))?;
    }
    let only = args.algorithm.as_deref();
    let results = crate::parallel::map(
        args.seeds.count(),
        crate::parallel::threads(args.threads),
        |i| {
            let seed = args.seeds.from + i;
            match std::panic::catch_unwind(|| fuzz::check_seed(seed, only)) {
                Ok(r) => r,
                Err(_) => Err(fuzz::Failure {
                    seed,
                    problem: "the engine panicked".into(),
                    scenario: serde_json::to_string_pretty(&fuzz::random_scenario_json(seed, only))
                        .unwrap_or_default(),
                }),
            }
        },
    );
    let mut failures = Vec::new();
    let mut lease_overlaps = 0;
    let mut first: Option<fuzz::Failure> = None;
    for r in results {
        match r {
            Ok(s) => {
                if s.violations.iter().any(|v| v.property == "lease_overlap") {
                    lease_overlaps += 1;
                }
            }
            Err(f) => {
                failures.push(FailureJson {
                    seed: f.seed,
                    problem: f.problem.clone(),
                });
                first.get_or_insert(f);
            }
        }
    }
    if let (Some(path), Some(f)) = (&args.save, &first) {
        std::fs::write(path, &f.scenario)
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
    }
    let report = FuzzReport {
        algorithm: args.algorithm.clone().unwrap_or_else(|| "all".into()),
        runs: args.seeds.count(),
        failures,
        lease_overlaps,
    };
    let text = if args.json {
        json(&report)?
    } else {
        let mut out = format!(
            "{} random fault schedules ({}), seeds {}..={}: {} failed; {} reported a lease overlap (a clock fault breaking a lease, as expected)\n",
            report.runs,
            report.algorithm,
            args.seeds.from,
            args.seeds.to,
            report.failures.len(),
            report.lease_overlaps
        );
        for f in report.failures.iter().take(20) {
            out.push_str(&format!("  seed {}: {}\n", f.seed, f.problem));
        }
        if let Some(f) = &first {
            out.push_str(&format!(
                "\nfirst failing scenario (seed {}), reproduce with `election run --scenario FILE`:\n{}\n",
                f.seed, f.scenario
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
