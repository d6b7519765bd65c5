//! `election check`: the failure finder. Random fault schedules built
//! from the named fault kinds, one per seed, run on every core and checked
//! against the safety properties the algorithm claims (and, with
//! `--liveness-ms`, a settled leader soon after the last fault); the
//! lowest failing seed is shrunk to a minimal scenario that still fails
//! the same property (`election_core::check`). Prints `runs`, `failures`
//! and the `counterexample` (null when none) with its scenario and the
//! page link that opens it at the moment of the violation.

use crate::error::CliError;
use crate::load::load_scenario;
use crate::output::json;
use crate::overrides::parse_ms;
use crate::seeds::{SeedRange, parse_seeds};
use clap::Args;
use election_core::check::{self, CheckSpec, Counterexample, FaultKind};
use election_core::time::Micros;
use serde::Serialize;
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
fn text(args: &CheckArgs, spec: &CheckSpec, failures: u64, c: Option<&Counterexample>) -> String {
    let kinds: Vec<&str> = spec.kinds.iter().map(|k| k.name()).collect();
    let mut out = format!(
        "{} random fault schedules of {} ({}), seeds {}..={}: {} failed\n",
        args.seeds.count(),
        spec.algorithm,
        kinds.join(", "),
        args.seeds.from,
        args.seeds.to,
        failures
    );
    if let Some(c) = c {
        out.push_str(&format!(
            "\nfirst failure: seed {}, {} at {} ms: {}\nshrunk to {} and {} ({} runs); replay with `election run --scenario FILE`:\n{}\npage link (opens at the violation): {}\n",
            c.seed,
            c.property,
            election_core::time::to_ms(c.at_us),
            c.detail,
            count(u64::from(c.scenario.nodes), "node"),
            count(c.scenario.faults.len() as u64, "fault"),
            c.shrink_runs,
            c.scenario.to_json_pretty(),
            c.link()
        ));
    }
    out
}

/// Runs the seeds, shrinks the first failure and reports; exits 1 (after
/// printing the report) when a failure was found.
pub fn check(args: &CheckArgs) -> Result<String, CliError> {
    let spec = spec(args)?;
    let found = crate::parallel::map(
        args.seeds.count(),
        crate::parallel::threads(args.threads),
        |i| check::check_seed(&spec, args.seeds.from + i),
    );
    let failures = found.iter().filter(|f| f.is_some()).count() as u64;
    let first = found
        .iter()
        .enumerate()
        .find_map(|(i, f)| f.as_ref().map(|f| (args.seeds.from + i as u64, f)));
    let counterexample = first.map(|(seed, f)| check::shrink_seed(&spec, seed, f));
    let out = if args.json {
        json(&Report {
            runs: args.seeds.count(),
            failures,
            counterexample: counterexample.as_ref().map(Counterexample::to_json),
        })?
    } else {
        text(args, &spec, failures, counterexample.as_ref())
    };
    match &counterexample {
        None => Ok(out),
        Some(c) => {
            print!("{out}");
            Err(CliError::failure(format!(
                "{failures} of {} runs failed; the first ({}) shrinks to the scenario above",
                args.seeds.count(),
                c.property
            )))
        }
    }
}
