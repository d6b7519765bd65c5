//! The scenario flags shared by `run` and `sweep`: `--scenario FILE` and
//! the flags that override its fields, with their value parsers. After the
//! overrides the scenario goes through the core's validator again, so a
//! flag gets the same checks as the file.

use crate::error::CliError;
use crate::load::{display_name, load_preset, load_scenario, load_script};
use clap::{Args, ValueEnum};
use election_core::Scenario;
use election_core::ScenarioExt;
use election_core::parse_decimal;
use election_core::scenario::{MAX_TIME_US, RingOrder, StartSet};
use election_core::time::Micros;
use std::path::PathBuf;

/// Ring order as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RingArg {
    /// 0, 1, ... n-1 along the ring.
    Ascending,
    /// n-1, ... 1, 0 along the ring.
    Descending,
    /// A permutation drawn from the seed.
    Random,
}

impl From<RingArg> for RingOrder {
    fn from(r: RingArg) -> Self {
        match r {
            RingArg::Ascending => RingOrder::Ascending,
            RingArg::Descending => RingOrder::Descending,
            RingArg::Random => RingOrder::Random,
        }
    }
}

/// Parses `--start`: `all`, `none` or a comma-separated list of ids.
pub fn parse_start(text: &str) -> Result<StartSet, String> {
    match text.trim() {
        "all" => Ok(StartSet::All),
        "none" => Ok(StartSet::None),
        "" => Ok(StartSet::Ids(Vec::new())),
        list => list
            .split(',')
            .map(|id| {
                id.trim().parse::<u32>().map_err(|_| {
                    format!(
                        "expected all, none or node ids like 0,3; {:?} is not a node id",
                        id.trim()
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(StartSet::Ids),
    }
}

/// Parses a time flag (`--until-ms`, `run --at`): milliseconds from 0 to
/// one day (fractions allowed), returned in microseconds.
pub fn parse_ms(text: &str) -> Result<Micros, String> {
    let max_ms = MAX_TIME_US / 1000;
    // The page's URL parameters read numbers the same way.
    match parse_decimal(text.trim()) {
        Some(x) if x >= 0.0 && x * 1000.0 <= MAX_TIME_US as f64 => {
            Ok((x * 1000.0).round() as Micros)
        }
        _ => Err(format!(
            "must be a number of milliseconds from 0 to {max_ms}, got {text:?}"
        )),
    }
}

/// Parses a probability flag (`--drop`, `--duplicate`): a number from 0
/// to 1. `NaN` and `inf` are refused by name, as any other text that is
/// not a number.
pub fn parse_probability(text: &str) -> Result<f64, String> {
    match parse_decimal(text.trim()) {
        Some(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("must be a number from 0 to 1, got {text:?}")),
    }
}

/// The overriding flags of a refused command line, as its message names
/// them: all of them when they are few, else the first ones and a count
/// of the rest by flag (a command line of 10,000 `--fault`s is not
/// echoed back whole).
pub fn given_text(given: &[String]) -> String {
    /// Longest list of flags repeated in full.
    const MAX_CHARS: usize = 200;
    let all = given.join(" ");
    if all.len() <= MAX_CHARS {
        return all;
    }
    let mut shown = Vec::new();
    let mut used = 0;
    for flag in given {
        if used + flag.len() > MAX_CHARS && !shown.is_empty() {
            break;
        }
        used += flag.len() + 1;
        shown.push(election_core::limits::cut_text(flag.clone()));
    }
    let rest = &given[shown.len()..];
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for flag in rest {
        let name = flag.split(' ').next().unwrap_or("");
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => counts.push((name, 1)),
        }
    }
    let by_flag: Vec<String> = counts
        .iter()
        .map(|(name, count)| format!("{count} {name}"))
        .collect();
    format!(
        "{} and {} more flags ({})",
        shown.join(" "),
        rest.len(),
        by_flag.join(", ")
    )
}

/// The `--start` text of a start set.
pub fn start_text(start: &StartSet) -> String {
    match start {
        StartSet::All => "all".to_string(),
        StartSet::None => "none".to_string(),
        StartSet::Ids(ids) => ids.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
    }
}

/// `--scenario` and the field overrides common to `run` and `sweep`.
#[derive(Debug, Clone, Default, Args)]
pub struct ScenarioArgs {
    /// Scenario JSON file (`-` reads standard input); without it the
    /// default scenario applies.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// A guided scenario by name instead of a file (see `election presets`).
    #[arg(long, value_name = "NAME", conflicts_with = "scenario")]
    pub preset: Option<String>,
    /// Algorithm id (see `election algorithms`).
    #[arg(long, value_name = "ID")]
    pub algorithm: Option<String>,
    /// Run your own algorithm: a Rhai script file, or a shipped one as
    /// `template:ID` (see `election templates`). Sets the algorithm to
    /// `script`.
    #[arg(long, value_name = "FILE|template:ID")]
    pub script: Option<String>,
    /// Number of nodes (ids 0..N).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u32>,
    /// Order of ids along the ring (ring algorithms).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub ring: Option<RingArg>,
    /// Who starts an election at time 0: all, none, or ids such as 0,3.
    #[arg(long, value_parser = parse_start, value_name = "all|none|IDS")]
    pub start: Option<StartSet>,
    /// Stop the run at this simulated time (ms) instead of when it settles.
    #[arg(
        long = "until-ms",
        value_parser = parse_ms,
        value_name = "MS",
        allow_negative_numbers = true
    )]
    pub until_us: Option<Micros>,
    /// One-way latency range in ms, e.g. `5-10` (or one number).
    #[arg(long = "latency-ms", value_name = "LO-HI")]
    pub latency_ms: Option<String>,
    /// Probability that a message is lost (0 to 1).
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub drop: Option<f64>,
    /// Probability that a message is delivered twice (0 to 1).
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub duplicate: Option<f64>,
    /// Add a fault, as scenario JSON; repeatable. Examples:
    /// '{"at_ms":1000,"crash":"leader"}', '{"at_ms":500,"slow":3,"extra_ms":20}',
    /// '{"at_ms":0,"flaky":7,"period_ms":400,"down_ms":150}', '{"at_ms":0,"cut":[1,2]}'.
    #[arg(long = "fault", value_name = "JSON")]
    pub faults: Vec<String>,
}

/// Parses `5-10`, `5,10` or `7` into a JSON `[lo, hi]` pair of numbers.
fn latency_pair(text: &str) -> Result<serde_json::Value, String> {
    let parts: Vec<&str> = text.split(['-', ',']).map(str::trim).collect();
    let number = |t: &str| {
        parse_decimal(t)
            .ok_or_else(|| format!("--latency-ms: expected a range like 5-10, got {text:?}"))
    };
    match parts.as_slice() {
        [one] => {
            let x = number(one)?;
            Ok(serde_json::json!([x, x]))
        }
        [lo, hi] => Ok(serde_json::json!([number(lo)?, number(hi)?])),
        _ => Err(format!(
            "--latency-ms: expected a range like 5-10, got {text:?}"
        )),
    }
}

impl ScenarioArgs {
    /// Loads the scenario, applies the overrides (and `seed`, if given) and
    /// validates the result.
    pub fn build(&self, seed: Option<u64>) -> Result<Scenario, CliError> {
        let mut s = match &self.preset {
            Some(name) => load_preset(name)?,
            None => load_scenario(self.scenario.as_deref())?,
        };
        let mut given: Vec<String> = Vec::new();
        if let Some(a) = &self.algorithm {
            s.set_algorithm(a);
            given.push(format!("--algorithm {a}"));
        }
        if let Some(spec) = &self.script {
            // The `--script` flag's contract: the scripted algorithm, with this source.
            s.set_algorithm(election_core::script::ALGORITHM);
            s.script = Some(load_script(spec)?.into());
            given.push(format!("--script {spec}"));
        }
        if let Some(n) = self.nodes {
            s.nodes = n;
            given.push(format!("--nodes {n}"));
        }
        if let Some(seed) = seed {
            s.seed = seed;
        }
        if let Some(r) = self.ring {
            s.ring = r.into();
        }
        if let Some(start) = &self.start {
            s.start = start.clone();
            given.push(format!("--start {}", start_text(start)));
        }
        if let Some(until) = self.until_us {
            s.until_us = Some(until);
        }
        let source = match (&self.scenario, &self.preset) {
            (Some(p), _) => display_name(p),
            (None, Some(name)) => format!("preset {name}"),
            (None, None) => "the default scenario".to_string(),
        };
        if self.latency_ms.is_some()
            || self.drop.is_some()
            || self.duplicate.is_some()
            || !self.faults.is_empty()
        {
            // Network flags and faults go through the scenario parser, so
            // they get its checks and its field names.
            let mut value = s.to_json();
            let network = &mut value["network"];
            if let Some(text) = &self.latency_ms {
                network["latency_ms"] = latency_pair(text).map_err(CliError::input)?;
                given.push(format!("--latency-ms {text}"));
            }
            if let Some(p) = self.drop {
                network["drop"] = serde_json::json!(p);
                given.push(format!("--drop {p}"));
            }
            if let Some(p) = self.duplicate {
                network["duplicate"] = serde_json::json!(p);
                given.push(format!("--duplicate {p}"));
            }
            for text in &self.faults {
                let fault = election_core::scenario::json_value(text).map_err(|e| {
                    let text = election_core::limits::cut_text(text.clone());
                    if e.field.is_empty() {
                        CliError::input(format!("--fault {text}: {}", e.message))
                    } else {
                        CliError::input(format!(
                            "--fault {text}: field `{}` {}",
                            e.field, e.message
                        ))
                    }
                })?;
                if let Some(list) = value["faults"].as_array_mut() {
                    list.push(fault);
                }
                given.push(format!("--fault {text}"));
            }
            s = Scenario::from_value(&value).map_err(|e| {
                CliError::input(format!("{source} with {}: {e}", given_text(&given)))
            })?;
        }
        s.validate().map_err(|e| {
            let with = if given.is_empty() {
                String::new()
            } else {
                format!(" with {}", given_text(&given))
            };
            CliError::input(format!("{source}{with}: {e}"))
        })?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_values() {
        assert_eq!(parse_start("all"), Ok(StartSet::All));
        assert_eq!(parse_start("none"), Ok(StartSet::None));
        assert_eq!(parse_start("0, 3"), Ok(StartSet::Ids(vec![0, 3])));
        assert!(parse_start("0,x").unwrap_err().contains("\"x\""));
    }

    #[test]
    fn time_values() {
        assert_eq!(parse_ms("1.5"), Ok(1500));
        assert_eq!(parse_ms("0.0005"), Ok(1), "rounded to the microsecond");
        assert_eq!(parse_ms("86400000"), Ok(MAX_TIME_US));
        assert!(parse_ms("86400001").is_err());
        assert!(parse_ms("-1").is_err());
        assert!(parse_ms("NaN").is_err());
    }

    #[test]
    fn probabilities_name_what_is_not_a_number() {
        assert_eq!(parse_probability("0.25"), Ok(0.25));
        for bad in ["NaN", "inf", "-inf", "1.5", "x"] {
            assert_eq!(
                parse_probability(bad),
                Err(format!("must be a number from 0 to 1, got {bad:?}"))
            );
        }
    }

    #[test]
    fn a_long_list_of_flags_is_summarised() {
        let few = vec!["--nodes 4".to_string(), "--drop 0.5".to_string()];
        assert_eq!(given_text(&few), "--nodes 4 --drop 0.5");
        let mut many = vec!["--algorithm raft".to_string()];
        for i in 0..10_000 {
            many.push(format!("--fault {{\"at_ms\":{i},\"crash\":1}}"));
        }
        let text = given_text(&many);
        assert!(text.len() < 400, "{text}");
        assert!(text.starts_with("--algorithm raft --fault "), "{text}");
        assert!(text.ends_with("more flags (9994 --fault)"), "{text}");
    }
}
