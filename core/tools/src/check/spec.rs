//! What the failure finder searches: the algorithm, the cluster (a
//! scenario, or a small one drawn per seed), the fault kinds its random
//! schedules may use, and the optional liveness bound; and the JSON the
//! page sends for it.

use super::epilogue;
use crate::ScenarioExt;
use crate::algorithms::{self, Registry};
use crate::experiment::seeds::{SeedRange, parse_seeds};
use crate::scenario::{Catalog, Fault, Scenario, ScenarioError};
use crate::script;
use crate::time::Micros;
use serde_json::Value;
use std::sync::Arc;

/// A kind of fault a random schedule may contain: the scenario's fault
/// keys (docs/guide.md, Faults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    /// `crash` a node (or the leader).
    Crash,
    /// `recover` a crashed node.
    Recover,
    /// `pause` a node (a GC pause).
    Pause,
    /// `clock`: an offset and a drift.
    Clock,
    /// `partition` the network in two.
    Partition,
    /// `heal` every partition and cut.
    Heal,
    /// `slow` a node's processing.
    Slow,
    /// `flaky`: a node crashes and recovers periodically.
    Flaky,
    /// `cut` one link one way.
    Cut,
    /// `uncut` one link.
    Uncut,
    /// `network`: new latency, loss and duplication (`drop` is the same).
    Network,
}

impl FaultKind {
    /// Every kind, in the order of their names in [`FaultKind::NAMES`].
    pub const ALL: [FaultKind; 11] = [
        FaultKind::Crash,
        FaultKind::Recover,
        FaultKind::Pause,
        FaultKind::Clock,
        FaultKind::Partition,
        FaultKind::Heal,
        FaultKind::Slow,
        FaultKind::Flaky,
        FaultKind::Cut,
        FaultKind::Uncut,
        FaultKind::Network,
    ];
    /// The names, as the scenario's fault keys.
    pub const NAMES: [&'static str; 11] = crate::scenario::FAULT_KINDS;

    /// The kind's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The kind named `text` (`drop` is `network`).
    pub fn from_name(text: &str) -> Option<FaultKind> {
        let text = if text == "drop" { "network" } else { text };
        Self::NAMES
            .iter()
            .position(|&n| n == text)
            .map(|i| Self::ALL[i])
    }

    /// The kinds of a comma-separated list (`crash,partition`), sorted,
    /// without repeats; a message naming the first unknown one.
    pub fn parse_list(text: &str) -> Result<Vec<FaultKind>, String> {
        let mut kinds = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match FaultKind::from_name(part) {
                Some(k) => kinds.push(k),
                None => {
                    return Err(format!(
                        "unknown fault kind {part:?}; known: {} (drop is network)",
                        Self::NAMES.join(", ")
                    ));
                }
            }
        }
        if kinds.is_empty() {
            return Err(format!(
                "names no fault kind; known: {}",
                Self::NAMES.join(", ")
            ));
        }
        kinds.sort_unstable();
        kinds.dedup();
        Ok(kinds)
    }

    /// The kinds used when none are named: every kind but `uncut`.
    pub fn defaults() -> Vec<FaultKind> {
        Self::ALL
            .into_iter()
            .filter(|&k| k != FaultKind::Uncut)
            .collect()
    }
}

/// What to search.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSpec {
    /// Algorithm id.
    pub algorithm: String,
    /// The cluster (nodes, network, timing, options) every seed starts
    /// from, its faults replaced by the seed's schedule; `None` draws a
    /// small cluster (3 to 8 nodes, a network with or without loss) per
    /// seed.
    pub base: Option<Scenario>,
    /// The kinds of fault the schedules may contain (at least one).
    pub kinds: Vec<FaultKind>,
    /// When set, a run also fails if no single leader is settled within
    /// this long after the last fault; every fault is then undone at the
    /// end of the schedule (see [`epilogue::epilogue`]).
    pub liveness_us: Option<Micros>,
    /// The script of a scripted algorithm (`algorithm` is `script`),
    /// carried into every scenario the search makes, so a counterexample
    /// and its link carry it too.
    pub script: Option<Arc<str>>,
}

impl CheckSpec {
    /// A spec; `algorithm` must be known (the error names `algorithm`).
    /// For `script`, the base scenario's script is the one checked.
    pub fn new(
        algorithm: &str,
        base: Option<Scenario>,
        kinds: Vec<FaultKind>,
        liveness_us: Option<Micros>,
    ) -> Result<Self, ScenarioError> {
        let script = base.as_ref().and_then(|s| s.script.clone());
        Self::build(algorithm, script, base, kinds, liveness_us)
    }

    /// A spec for the scripted algorithm with `source` (the error names
    /// `script` when it does not compile).
    pub fn scripted(
        source: Arc<str>,
        base: Option<Scenario>,
        kinds: Vec<FaultKind>,
        liveness_us: Option<Micros>,
    ) -> Result<Self, ScenarioError> {
        Self::build(script::ALGORITHM, Some(source), base, kinds, liveness_us)
    }

    fn build(
        algorithm: &str,
        script: Option<Arc<str>>,
        base: Option<Scenario>,
        kinds: Vec<FaultKind>,
        liveness_us: Option<Micros>,
    ) -> Result<Self, ScenarioError> {
        let mut probe = Scenario::default();
        probe.set_algorithm(algorithm);
        // The one error for an id the registry does not know.
        let entry = algorithms::info(algorithm).ok_or_else(|| Registry.unknown(&probe))?;
        let script = script.filter(|_| entry.takes_script);
        if entry.takes_script {
            // The script is checked on its own, so its error names it.
            probe.script = script.clone();
            probe.validate()?;
        }
        if kinds.is_empty() {
            return Err(ScenarioError::new("faults", "names no fault kind"));
        }
        let base = base.map(|mut s| {
            s.set_algorithm(algorithm);
            s.script = script.clone();
            s.faults.clear();
            s
        });
        if let Some(s) = &base {
            s.validate()
                .map_err(|e| ScenarioError::new(format!("scenario.{}", e.field), e.message))?;
        }
        Ok(Self {
            algorithm: algorithm.to_string(),
            base,
            kinds,
            liveness_us,
            script,
        })
    }

    /// The scenario that is run for `core` (a schedule without its
    /// epilogue): with a liveness bound, the epilogue that undoes every
    /// fault is appended.
    pub fn full(&self, core: &Scenario) -> Scenario {
        let mut s = core.clone();
        if self.liveness_us.is_some() {
            let extra: Vec<Fault> = epilogue::epilogue(core);
            s.faults.extend(extra);
        }
        s
    }

    /// The page's request, `{"algorithm": "bully", "faults":
    /// "partition" (or a list), "seeds": "1..200", "scenario": {...} or
    /// null, "liveness_ms": 2000 or null}` (for a script, `"algorithm":
    /// "script"` and `"script": "<source>"`, or a `scenario` that carries
    /// it): the spec and the seed range.
    /// Errors name the field (`seeds`, `faults`, `scenario.nodes`, ...).
    pub fn from_request(text: &str) -> Result<(CheckSpec, SeedRange), ScenarioError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| ScenarioError::new("", format!("not a finder request: {e}")))?;
        let algorithm = v
            .get("algorithm")
            .and_then(Value::as_str)
            .ok_or_else(|| ScenarioError::new("algorithm", "must be an algorithm id"))?;
        let seeds_text = v.get("seeds").and_then(Value::as_str).unwrap_or("");
        let seeds = parse_seeds(seeds_text).map_err(|m| ScenarioError::new("seeds", m))?;
        let kinds = match v.get("faults") {
            None | Some(Value::Null) => FaultKind::defaults(),
            Some(Value::String(t)) => {
                FaultKind::parse_list(t).map_err(|m| ScenarioError::new("faults", m))?
            }
            Some(Value::Array(list)) => {
                let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                FaultKind::parse_list(&names.join(","))
                    .map_err(|m| ScenarioError::new("faults", m))?
            }
            Some(_) => {
                return Err(ScenarioError::new(
                    "faults",
                    "must be a list of fault kinds",
                ));
            }
        };
        let base = match v.get("scenario") {
            None | Some(Value::Null) => None,
            Some(s) => Some(
                Scenario::from_value(s)
                    .map_err(|e| ScenarioError::new(format!("scenario.{}", e.field), e.message))?,
            ),
        };
        let liveness_us = match v.get("liveness_ms") {
            None | Some(Value::Null) => None,
            Some(n) => match n.as_f64() {
                Some(x) if x > 0.0 && x <= 3_600_000.0 => Some((x * 1000.0).round() as Micros),
                _ => {
                    return Err(ScenarioError::new(
                        "liveness_ms",
                        format!("must be a time in ms above 0 and at most 3600000, got {n}"),
                    ));
                }
            },
        };
        let script = match v.get("script") {
            None | Some(Value::Null) => None,
            Some(Value::String(source)) => Some(Arc::from(source.as_str())),
            Some(_) => {
                return Err(ScenarioError::new(
                    "script",
                    "must be the script's source text",
                ));
            }
        };
        let spec = match script {
            Some(source) => Self::scripted(source, base, kinds, liveness_us)?,
            None => Self::new(algorithm, base, kinds, liveness_us)?,
        };
        Ok((spec, seeds))
    }
}
