//! `election merge FILE...`: the shard reports of one run (`--shard K/N`
//! of `sweep`, `check`, `fuzz-faults` or `tradeoffs`, see
//! `crate::shard`) put back together, printing exactly what the run
//! prints without `--shard`, with the same exit code.
//!
//! The shards must be every slice 1/N to N/N of one run, each once: the
//! same command, version and `job` (scenario, seeds, flags, output). The
//! merge refuses anything else with one message naming the problem; it
//! does not run the simulations again (except `check`, which shrinks the
//! lowest failing seed here, as the unsharded run does).

use crate::error::CliError;
use crate::shard::{FORMAT, Report, Results, Section, Shard};
use clap::Args;
use serde_json::Value;
use serde_json::value::RawValue;
use std::path::PathBuf;

/// Flags of `election merge`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// The shard reports (`--shard K/N` output), every K of one N, in any
    /// order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// fuzz-faults shards: write the first failing scenario to this file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// One shard report as read.
struct Read {
    file: String,
    section: Section<Value, Box<RawValue>>,
}

impl Read {
    fn slice(&self) -> String {
        format!("{}/{}", self.section.k, self.section.n)
    }
}

/// Reads and parses one shard report.
fn read(path: &std::path::Path) -> Result<Read, CliError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{file}: cannot read: {e}")))?;
    match serde_json::from_str::<Report<Value, Box<RawValue>>>(&text) {
        Ok(report) => Ok(Read {
            file,
            section: report.shard,
        }),
        Err(e) => {
            let value: Option<Value> = serde_json::from_str(&text).ok();
            let shard = value.as_ref().and_then(|v| v.get("shard"));
            let format = shard.and_then(|s| s.get("format")).and_then(Value::as_u64);
            Err(CliError::input(match (value.is_some(), shard, format) {
                (false, _, _) => format!("{file}: not JSON: {e}"),
                (true, None, _) => format!(
                    "{file}: not a shard report (no \"shard\" key); write shard reports with --shard K/N"
                ),
                (true, Some(_), Some(f)) if f != u64::from(FORMAT) => {
                    format!("{file}: shard report format {f}; this election reads format {FORMAT}")
                }
                (true, Some(_), _) => format!("{file}: not a shard report: {e}"),
            }))
        }
    }
}

/// The first place where `a` and `b` differ, as a dotted path under
/// `path`.
fn difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let (p, q) = (x.get(k), y.get(k));
                let here = format!("{path}.{k}");
                match (p, q) {
                    (Some(p), Some(q)) => difference(p, q, &here),
                    _ => Some(here),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| difference(p, q, &format!("{path}[{i}]"))),
        _ => (a != b).then(|| path.to_string()),
    }
}

/// Checks that `shards` are every slice of one run, each once; returns
/// them in slice order.
fn check_tiling(mut shards: Vec<Read>) -> Result<Vec<Read>, CliError> {
    let version = env!("CARGO_PKG_VERSION");
    let first = &shards[0];
    for s in &shards {
        let (a, b) = (&first.section, &s.section);
        if b.election != version {
            return Err(CliError::input(format!(
                "{}: written by election {}; this is election {version}: merge with the version that wrote the shards",
                s.file, b.election
            )));
        }
        if a.command != b.command {
            return Err(CliError::input(format!(
                "shards of different commands: {} is {}, {} is {}",
                first.file, a.command, s.file, b.command
            )));
        }
        if let Some(at) = difference(&a.job, &b.job, "job") {
            return Err(CliError::input(format!(
                "shards of different runs (scenarios or flags): {} and {} differ at {at}",
                first.file, s.file
            )));
        }
        if a.n != b.n {
            return Err(CliError::input(format!(
                "shards of different N: {} is shard {}, {} is shard {}",
                first.file,
                first.slice(),
                s.file,
                s.slice()
            )));
        }
        let shard = Shard { k: b.k, n: b.n };
        let expected = shard.slice(b.units);
        if b.k == 0 || b.k > b.n || b.units != a.units || expected != (b.from, b.count) {
            return Err(CliError::input(format!(
                "{}: shard {} says it covers {} units from {} of {}; it does not match {}",
                s.file,
                s.slice(),
                b.count,
                b.from,
                b.units,
                first.file
            )));
        }
    }
    shards.sort_by_key(|s| s.section.k);
    if let Some(w) = shards.windows(2).find(|w| w[0].section.k == w[1].section.k) {
        return Err(CliError::input(format!(
            "overlapping shards: {} and {} are both shard {}",
            w[0].file,
            w[1].file,
            w[0].slice()
        )));
    }
    let n = shards[0].section.n;
    let missing: Vec<String> = (1..=n)
        .filter(|k| shards.binary_search_by_key(k, |s| s.section.k).is_err())
        .take(10)
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        let more = n - shards.len() as u64 - missing.len() as u64;
        return Err(CliError::input(format!(
            "missing shards: {}{}; the merge needs every K of 1/{n} to {n}/{n}",
            missing.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )));
    }
    Ok(shards)
}

/// Runs `election merge`.
pub fn merge(args: &MergeArgs) -> Result<String, CliError> {
    let shards = args
        .files
        .iter()
        .map(|f| read(f))
        .collect::<Result<Vec<_>, _>>()?;
    let shards = check_tiling(shards)?;
    let command = shards[0].section.command.clone();
    if args.save.is_some() && command != "fuzz-faults" {
        return Err(CliError::input(format!(
            "--save: only for fuzz-faults shards; these are {command} shards"
        )));
    }
    let mut job = Value::Null;
    let mut results = Vec::new();
    for s in shards {
        job = s.section.job;
        results.push(Results::new(s.file, s.section.results));
    }
    match command.as_str() {
        "sweep" => crate::sweep::merge(job, results),
        "check" => crate::check::merge(job, results),
        "fuzz-faults" => crate::fuzz::merge(job, results, args.save.as_deref()),
        "tradeoffs" => crate::tradeoffs::merge(job, results),
        other => Err(CliError::input(format!(
            "{}: shards of {other:?}; election merge reads shards of sweep, check, fuzz-faults and tradeoffs",
            results[0].file()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::difference;
    use serde_json::json;

    #[test]
    fn names_the_first_difference() {
        let a = json!({"scenario": {"nodes": 5, "seed": 1}, "seeds": "1..10"});
        let b = json!({"scenario": {"nodes": 7, "seed": 1}, "seeds": "1..10"});
        assert_eq!(
            difference(&a, &b, "job").as_deref(),
            Some("job.scenario.nodes")
        );
        assert_eq!(difference(&a, &a, "job"), None);
        let c = json!({"seeds": "1..10"});
        assert_eq!(difference(&a, &c, "job").as_deref(), Some("job.scenario"));
    }
}
