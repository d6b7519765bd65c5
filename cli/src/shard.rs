//! `--shard K/N` of `sweep`, `check`, `fuzz-faults` and `tradeoffs`: the
//! K-th of N contiguous, disjoint slices of a command's work units (its
//! runs, seeds or rows), and the shard report such a run prints for
//! `election merge` (docs/scale.md).
//!
//! A shard report is one JSON object, `{"shard": {...}}`:
//!
//! ```text
//! format    1, the layout of this object
//! election  the version that wrote it (shards of different versions
//!           do not merge)
//! command   sweep | check | fuzz-faults | tradeoffs
//! k, n      this is slice k of n (k counts from 1)
//! units     work units of the whole run: sweep runs (groups x seeds,
//!           group by group), check and fuzz-faults seeds, tradeoffs rows
//!           (algorithms in registry order)
//! from      the first unit of this slice (0-based index)
//! count     units in this slice (0 when n > units)
//! job       everything that defines the whole run and its output (the
//!           scenario, seeds, flags, output format): equal in every shard
//! results   what the slice found, per command (see the command's file)
//! ```
//!
//! Slice k of n is units `units*(k-1)/n .. units*k/n`, so the slices of
//! one n tile the run exactly, whatever units and n are.

use crate::error::CliError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// The layout version of shard reports this build writes and reads.
pub const FORMAT: u32 = 1;

/// Most slices one run may be cut into (the most seeds a sweep may run).
pub const MAX_SHARDS: u64 = election_core::experiment::seeds::MAX_SEEDS;

/// `--shard K/N`: slice `k` (from 1) of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1 to `n`.
    pub k: u64,
    /// How many slices.
    pub n: u64,
}

/// Parses `K/N` (1 <= K <= N).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let number = |t: &str| t.trim().parse::<u64>().ok();
    let (k, n) = text
        .split_once('/')
        .and_then(|(k, n)| Some((number(k)?, number(n)?)))
        .ok_or_else(|| {
            format!("expected K/N such as 2/4 (slice K of N, K from 1), got {text:?}")
        })?;
    if n == 0 || n > MAX_SHARDS {
        return Err(format!("N must be 1..={MAX_SHARDS}, got {k}/{n}"));
    }
    if k == 0 || k > n {
        return Err(format!(
            "K must be 1..=N, got {k}/{n} (K counts from 1; from Kubernetes' JOB_COMPLETION_INDEX, which counts from 0, pass $((JOB_COMPLETION_INDEX + 1))/{n})"
        ));
    }
    Ok(Shard { k, n })
}

impl Shard {
    /// The first unit and the number of units of this slice of `units`.
    pub fn slice(&self, units: u64) -> (u64, u64) {
        let at = |k: u64| (u128::from(units) * u128::from(k) / u128::from(self.n)) as u64;
        let from = at(self.k - 1);
        (from, at(self.k) - from)
    }
}

/// Output format the whole run was asked for, which `election merge`
/// prints: the text (table, Markdown), `--json` or `--csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The readable text (the default).
    Text,
    /// `--json`.
    Json,
    /// `--csv` (sweep).
    Csv,
}

impl Format {
    /// The format of the flags `json` and `csv`.
    pub fn of(json: bool, csv: bool) -> Self {
        if json {
            Format::Json
        } else if csv {
            Format::Csv
        } else {
            Format::Text
        }
    }
}

/// The `shard` object, with the command's own `job` and `results`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section<J, R> {
    /// [`FORMAT`].
    pub format: u32,
    /// The writing election's version.
    pub election: String,
    /// The command's name.
    pub command: String,
    /// Slice number, from 1.
    pub k: u64,
    /// Slices.
    pub n: u64,
    /// Work units of the whole run.
    pub units: u64,
    /// First unit of the slice.
    pub from: u64,
    /// Units in the slice.
    pub count: u64,
    /// The whole run's definition.
    pub job: J,
    /// The slice's findings.
    pub results: R,
}

/// A shard report: `{"shard": {...}}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report<J, R> {
    /// The one key.
    pub shard: Section<J, R>,
}

/// The shard report text (pretty JSON with a final newline) of slice
/// `shard` of a run of `units` units of `command`.
pub fn report<J: Serialize, R: Serialize>(
    command: &str,
    shard: Shard,
    units: u64,
    job: J,
    results: R,
) -> Result<String, CliError> {
    let (from, count) = shard.slice(units);
    crate::output::json(&Report {
        shard: Section {
            format: FORMAT,
            election: env!("CARGO_PKG_VERSION").to_string(),
            command: command.to_string(),
            k: shard.k,
            n: shard.n,
            units,
            from,
            count,
            job,
            results,
        },
    })
}

/// `value` as compact JSON text kept verbatim inside a pretty report, so
/// each of many records takes one line of a shard file.
pub fn one_line<T: Serialize>(value: &T) -> Result<Box<RawValue>, CliError> {
    serde_json::to_string(value)
        .and_then(RawValue::from_string)
        .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))
}

/// JSON text without the whitespace outside its strings (the compact
/// form `serde_json::to_string` writes, keys in their order), whatever
/// layout a shard file was saved in.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !c.is_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// One shard's `results`, kept as JSON text until its command reads it.
#[derive(Debug)]
pub struct Results {
    /// The file it came from, for messages.
    file: String,
    /// The `results` value.
    raw: Box<RawValue>,
}

impl Results {
    /// The file the results came from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The `results` of the shard read from `file`.
    pub fn new(file: String, raw: Box<RawValue>) -> Self {
        Results { file, raw }
    }

    /// The results as the command's type; the error names the file.
    pub fn parse<R: DeserializeOwned>(&self) -> Result<R, CliError> {
        serde_json::from_str(self.raw.get())
            .map_err(|e| CliError::input(format!("{}: shard.results: {e}", self.file)))
    }
}

/// The shards' `job` (equal in all) as the command's type.
pub fn job<J: DeserializeOwned>(job: Value) -> Result<J, CliError> {
    serde_json::from_value(job).map_err(|e| CliError::input(format!("shard.job: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_tile_the_units() {
        for units in [0, 1, 3, 10, 1000] {
            for n in [1, 2, 3, 4, 7, 16] {
                let mut next = 0;
                for k in 1..=n {
                    let (from, count) = Shard { k, n }.slice(units);
                    assert_eq!(from, next, "{units} units, {k}/{n}");
                    next = from + count;
                }
                assert_eq!(next, units);
            }
        }
        assert_eq!(Shard { k: 2, n: 4 }.slice(1000), (250, 250));
    }

    #[test]
    fn parses_k_of_n() {
        assert_eq!(parse_shard("2/4"), Ok(Shard { k: 2, n: 4 }));
        assert_eq!(parse_shard(" 1 / 1 "), Ok(Shard { k: 1, n: 1 }));
        assert!(
            parse_shard("0/4")
                .unwrap_err()
                .starts_with("K must be 1..=N, got 0/4")
        );
        assert!(
            parse_shard("5/4")
                .unwrap_err()
                .starts_with("K must be 1..=N, got 5/4")
        );
        assert!(parse_shard("1/0").unwrap_err().starts_with("N must be"));
        assert!(parse_shard("2").unwrap_err().contains("expected K/N"));
        assert!(parse_shard("a/4").unwrap_err().contains("expected K/N"));
    }

    #[test]
    fn compacts_outside_strings() {
        assert_eq!(
            compact("{\n  \"a b\": [1, \"x \\\" y\"],\n  \"c\": {}\n}"),
            "{\"a b\":[1,\"x \\\" y\"],\"c\":{}}"
        );
    }
}
