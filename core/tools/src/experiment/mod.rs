//! Experiments: one scenario swept over a seed range, and optionally over
//! several algorithms and the values of one scenario field (node counts,
//! an election timeout range, a drop rate...). `election sweep` and the
//! page's Web Workers both run them through this module, so the command
//! line and the page cannot disagree about a run or its summary.
//!
//! ```text
//!  Experiment { base scenario, seeds A..B, algorithms, param FIELD=V1,V2 }
//!     │ groups(): algorithm x value, each a validated Scenario
//!     ▼
//!  run(i) for i in 0..run_count()   (group i / seeds, seed A + i % seeds;
//!     │                              any order, any thread or worker)
//!     ▼
//!  Vec<RunRecord> in index order ──▶ report::json_text / csv::csv_text
//! ```
//!
//! A run is a function of its index alone, so splitting the indices among
//! workers in any way gives the same records; callers put them back in
//! index order before summarising.

pub mod csv;
pub mod presets;
pub mod record;
pub mod report;
pub mod seeds;
pub mod theory;

use crate::ScenarioExt;
use crate::algorithms;
use crate::scenario::{Scenario, ScenarioError};
pub use record::RunRecord;
use seeds::{MAX_SEEDS, SeedRange, parse_seeds};
use serde::Serialize;
use serde_json::Value;

/// Most values one parameter may take.
pub const MAX_PARAM_VALUES: usize = 64;

/// Scenario fields a parameter may not vary: the seed is the sweep's own
/// axis, the algorithm has `algorithms`, and faults are lists.
const FIXED_FIELDS: &[&str] = &["seed", "algorithm", "version", "faults"];

/// One scenario field and the values it takes, `FIELD=V1,V2,...`: the
/// `--param` of `election sweep` and the page's parameter sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Param {
    /// Dotted scenario field, e.g. `nodes` or `timing.election_timeout_ms`.
    pub field: String,
    /// The values as written (`150-300`, `8`, `0.1`).
    pub values: Vec<String>,
}

/// Parses `FIELD=V1,V2,...` (values are numbers, `LO-HI` ranges, `true`,
/// `false` or words such as `random`).
pub fn parse_param(text: &str) -> Result<Param, String> {
    let (field, values) = text.split_once('=').ok_or_else(|| {
        format!(
            "expected FIELD=V1,V2,... such as nodes=4,8,16 or timing.election_timeout_ms=150-151,150-300, got {text:?}"
        )
    })?;
    let field = field.trim().to_string();
    if field.is_empty() || field.split('.').any(str::is_empty) {
        return Err(format!("the field name in {text:?} is empty"));
    }
    let root = field.split('.').next().unwrap_or_default();
    if FIXED_FIELDS.contains(&root) {
        return Err(format!(
            "{field} cannot be varied here (seeds have --seeds, algorithms --algorithms)"
        ));
    }
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(format!("an empty value in {text:?}"));
    }
    if values.len() > MAX_PARAM_VALUES {
        return Err(format!(
            "{} values; the limit is {MAX_PARAM_VALUES}",
            values.len()
        ));
    }
    Ok(Param { field, values })
}

/// A parameter value as JSON: `8` a number, `150-300` the pair
/// `[150, 300]`, `true`/`false` booleans, anything else a string.
pub fn param_value(text: &str) -> Value {
    // Whole numbers stay integers, so integer fields (`nodes`) accept them.
    let number = |t: &str| {
        let t = t.trim();
        t.parse::<i64>()
            .map(Value::from)
            .ok()
            .or_else(|| crate::decimal::parse_decimal(t).map(Value::from))
    };
    if let Some(x) = number(text) {
        return x;
    }
    if let Some((lo, hi)) = text.split_once('-') {
        if let (Some(lo), Some(hi)) = (number(lo), number(hi)) {
            return Value::Array(vec![lo, hi]);
        }
    }
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::String(text.to_string()),
    }
}

/// Sets the dotted `field` of a scenario JSON object to `value`, creating
/// missing objects on the way (the parser then rejects unknown fields).
fn set_field(root: &mut Value, field: &str, value: Value) -> Result<(), String> {
    let mut at = root;
    let mut parts = field.split('.').peekable();
    while let Some(part) = parts.next() {
        let obj = at
            .as_object_mut()
            .ok_or_else(|| format!("{field}: {part} is inside a value that is not an object"))?;
        if parts.peek().is_none() {
            obj.insert(part.to_string(), value);
            return Ok(());
        }
        at = obj
            .entry(part.to_string())
            .or_insert_with(|| Value::Object(Default::default()));
    }
    Ok(())
}

/// One cell of an experiment: an algorithm and a parameter value.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Algorithm id.
    pub algorithm: String,
    /// The parameter's value as written, when the experiment has one.
    pub value: Option<String>,
    /// The scenario every seed of the group runs (its seed is replaced).
    pub scenario: Scenario,
}

impl Group {
    /// A short label: `raft`, `raft nodes=8`.
    pub fn label(&self, param: Option<&Param>) -> String {
        match (&self.value, param) {
            (Some(v), Some(p)) => format!("{} {}={v}", self.algorithm, p.field),
            _ => self.algorithm.clone(),
        }
    }
}

/// A sweep: the base scenario over a seed range, several algorithms and
/// one parameter's values. Built only valid: every group's scenario has
/// passed the scenario validator.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    seeds: SeedRange,
    algorithms: Vec<String>,
    param: Option<Param>,
    groups: Vec<Group>,
}

/// An experiment error: a field of the experiment (`seeds`, `param`,
/// `algorithms`, `scenario`...) or of a group's scenario.
pub type ExperimentError = ScenarioError;

impl Experiment {
    /// Builds an experiment; `algorithms` empty means the base scenario's.
    /// Errors name the experiment field, or the scenario field a value
    /// breaks (`param timing.election_timeout_ms=300-150: ...`).
    pub fn new(
        base: &Scenario,
        seeds: SeedRange,
        algorithms: &[String],
        param: Option<Param>,
    ) -> Result<Self, ExperimentError> {
        let algorithms: Vec<String> = if algorithms.is_empty() {
            vec![base.algorithm.clone()]
        } else {
            algorithms.to_vec()
        };
        for (i, a) in algorithms.iter().enumerate() {
            algorithms::lookup(a).map_err(|e| ScenarioError::new("algorithms", e))?;
            if algorithms[..i].contains(a) {
                return Err(ScenarioError::new(
                    "algorithms",
                    format!("{a} is listed twice"),
                ));
            }
        }
        let values: Vec<Option<&String>> = match &param {
            Some(p) => p.values.iter().map(Some).collect(),
            None => vec![None],
        };
        let groups_count = (algorithms.len() * values.len()) as u64;
        if seeds.count().saturating_mul(groups_count) > MAX_SEEDS {
            return Err(ScenarioError::new(
                "seeds",
                format!(
                    "{} seeds x {groups_count} groups is more than {MAX_SEEDS} runs",
                    seeds.count()
                ),
            ));
        }
        let mut groups = Vec::new();
        for a in &algorithms {
            for v in &values {
                let mut json = base.to_json();
                json["algorithm"] = Value::String(a.clone());
                if !algorithms::info(a).is_some_and(|i| i.takes_script) {
                    // A script stays only with the scripted algorithm.
                    if let Some(o) = json.as_object_mut() {
                        o.remove("script");
                    }
                }
                let mut with = format!("algorithm {a}");
                if let (Some(v), Some(p)) = (v, &param) {
                    set_field(&mut json, &p.field, param_value(v))
                        .map_err(|e| ScenarioError::new("param", e))?;
                    with = format!("{with}, {}={v}", p.field);
                }
                let scenario = Scenario::from_value(&json).map_err(|e| {
                    ScenarioError::new(e.field.clone(), format!("with {with}: {}", e.message))
                })?;
                groups.push(Group {
                    algorithm: a.clone(),
                    value: v.cloned(),
                    scenario,
                });
            }
        }
        Ok(Self {
            seeds,
            algorithms,
            param,
            groups,
        })
    }

    /// An experiment from the page's JSON:
    /// `{"scenario": {...}, "seeds": "1..100", "algorithms": ["raft"],
    /// "param": "timing.election_timeout_ms=150-151,150-300"}`
    /// (`algorithms` and `param` optional, text forms as on the command line).
    pub fn from_json(text: &str) -> Result<Self, ExperimentError> {
        if text.len() > 256 * 1024 {
            return Err(ScenarioError::new("experiment", "larger than 256 KiB"));
        }
        let v: Value = serde_json::from_str(text)
            .map_err(|e| ScenarioError::new("experiment", format!("not valid JSON: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| ScenarioError::new("experiment", "must be a JSON object"))?;
        for key in obj.keys() {
            if !["scenario", "seeds", "algorithms", "param"].contains(&key.as_str()) {
                return Err(ScenarioError::new(
                    key.clone(),
                    "unknown experiment field (known: scenario, seeds, algorithms, param)",
                ));
            }
        }
        let scenario = obj
            .get("scenario")
            .cloned()
            .unwrap_or_else(|| Value::Object(Default::default()));
        let base = Scenario::from_value(&scenario)
            .map_err(|e| ScenarioError::new(format!("scenario.{}", e.field), e.message))?;
        let seeds = obj
            .get("seeds")
            .and_then(Value::as_str)
            .ok_or_else(|| ScenarioError::new("seeds", "must be a range such as \"1..100\""))
            .and_then(|t| parse_seeds(t).map_err(|e| ScenarioError::new("seeds", e)))?;
        let algorithms: Vec<String> = match obj.get("algorithms") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|a| {
                    a.as_str().map(str::to_string).ok_or_else(|| {
                        ScenarioError::new("algorithms", "must be a list of algorithm ids")
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(ScenarioError::new(
                    "algorithms",
                    "must be a list of algorithm ids",
                ));
            }
        };
        let param = match obj.get("param") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) if t.trim().is_empty() => None,
            Some(Value::String(t)) => {
                Some(parse_param(t).map_err(|e| ScenarioError::new("param", e))?)
            }
            Some(_) => {
                return Err(ScenarioError::new(
                    "param",
                    "must be text such as \"nodes=4,8,16\"",
                ));
            }
        };
        Self::new(&base, seeds, &algorithms, param)
    }

    /// The seed range every group runs.
    pub fn seeds(&self) -> SeedRange {
        self.seeds
    }

    /// The algorithms, in the order of the groups.
    pub fn algorithms(&self) -> &[String] {
        &self.algorithms
    }

    /// The varied parameter, if any.
    pub fn param(&self) -> Option<&Param> {
        self.param.as_ref()
    }

    /// The groups: algorithms in order, each with every parameter value.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Whether the report has groups (several algorithms or a parameter)
    /// rather than the plain one-scenario sweep report.
    pub fn is_grouped(&self) -> bool {
        self.param.is_some() || self.algorithms.len() > 1
    }

    /// Number of runs: groups x seeds.
    pub fn run_count(&self) -> u64 {
        self.groups.len() as u64 * self.seeds.count()
    }

    /// The group and seed of run `index`.
    pub fn locate(&self, index: u64) -> Option<(usize, u64)> {
        (index < self.run_count()).then(|| {
            let per = self.seeds.count();
            ((index / per) as usize, self.seeds.from + index % per)
        })
    }

    /// Runs run `index` (`None` past the end).
    pub fn run(&self, index: u64) -> Option<RunRecord> {
        let (g, seed) = self.locate(index)?;
        let group = &self.groups[g];
        let mut scenario = group.scenario.clone();
        scenario.seed = seed;
        let kinds = algorithms::info(&group.algorithm).map_or(&[][..], |a| a.kinds);
        Some(RunRecord::of(crate::sim::run(&scenario), kinds))
    }

    /// Checks that `records` are this experiment's, one per run in index
    /// order (a page sends them back from its workers).
    pub fn check_records(&self, records: &[RunRecord]) -> Result<(), ExperimentError> {
        if records.len() as u64 != self.run_count() {
            return Err(ScenarioError::new(
                "records",
                format!(
                    "{} records for an experiment of {} runs",
                    records.len(),
                    self.run_count()
                ),
            ));
        }
        for (i, r) in records.iter().enumerate() {
            let (g, seed) = self.locate(i as u64).unwrap_or_default();
            let kinds = algorithms::info(&self.groups[g].algorithm).map_or(0, |a| a.kinds.len());
            if r.seed != seed || r.by_kind.len() != kinds {
                return Err(ScenarioError::new(
                    format!("records[{i}]"),
                    format!("expected seed {seed} with {kinds} kind counts of group {g}"),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioExt;

    fn base() -> Scenario {
        Scenario::from_json(r#"{"algorithm":"raft","nodes":5}"#).unwrap()
    }

    #[test]
    fn param_text() {
        let p = parse_param("timing.election_timeout_ms=150-151, 150-300").unwrap();
        assert_eq!(p.field, "timing.election_timeout_ms");
        assert_eq!(p.values, ["150-151", "150-300"]);
        assert_eq!(param_value("150-151"), serde_json::json!([150, 151]));
        assert_eq!(param_value("1.5-2"), serde_json::json!([1.5, 2]));
        assert_eq!(param_value("8"), serde_json::json!(8));
        assert_eq!(param_value("0.25"), serde_json::json!(0.25));
        assert_eq!(param_value("random"), serde_json::json!("random"));
        assert!(parse_param("nodes").unwrap_err().contains("FIELD="));
        assert!(parse_param("seed=1,2").unwrap_err().contains("--seeds"));
        assert!(parse_param("nodes=4,,8").unwrap_err().contains("empty"));
    }

    #[test]
    fn groups_and_indices() {
        let seeds = SeedRange { from: 3, to: 6 };
        let algs = ["raft".to_string(), "bully".to_string()];
        let e = Experiment::new(&base(), seeds, &algs, parse_param("nodes=4,8").ok()).unwrap();
        assert_eq!(e.run_count(), 16);
        let labels: Vec<String> = e.groups().iter().map(|g| g.label(e.param())).collect();
        assert_eq!(
            labels,
            [
                "raft nodes=4",
                "raft nodes=8",
                "bully nodes=4",
                "bully nodes=8"
            ]
        );
        assert_eq!(e.groups()[3].scenario.nodes, 8);
        assert_eq!(e.locate(0), Some((0, 3)));
        assert_eq!(e.locate(5), Some((1, 4)));
        assert_eq!(e.locate(16), None);
        let r = e.run(13).unwrap();
        assert_eq!(r.seed, 4);
        let mut single = e.groups()[3].scenario.clone();
        single.seed = 4;
        assert_eq!(r.trace_hash, crate::sim::run(&single).trace_hash);
    }

    #[test]
    fn bad_values_name_the_field() {
        let seeds = SeedRange { from: 1, to: 2 };
        let e = Experiment::new(
            &base(),
            seeds,
            &[],
            parse_param("timing.election_timeout_ms=300-150").ok(),
        )
        .unwrap_err();
        assert_eq!(e.field, "timing.election_timeout_ms");
        assert!(
            e.message.contains("timing.election_timeout_ms=300-150"),
            "{e}"
        );
        let e =
            Experiment::new(&base(), seeds, &[], parse_param("network.nope=1").ok()).unwrap_err();
        assert!(e.field.contains("nope"), "{e}");
        let e = Experiment::new(&base(), seeds, &["paxos".into()], None).unwrap_err();
        assert_eq!(e.field, "algorithms");
        let e = Experiment::from_json(r#"{"scenario":{},"seeds":"5..1"}"#).unwrap_err();
        assert_eq!(e.field, "seeds");
        let e = Experiment::from_json(r#"{"scenario":{"nodes":0},"seeds":"1"}"#).unwrap_err();
        assert_eq!(e.field, "scenario.nodes");
    }
}
