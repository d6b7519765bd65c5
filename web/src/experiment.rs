//! Experiments on the JS side: a page Web Worker holds an
//! [`ExperimentRunner`] and runs the share of run indices it is handed;
//! the page gathers the records in run order and asks
//! [`ExperimentRunner::report_json`] / [`ExperimentRunner::report_csv`] for the very texts
//! `election sweep --json` / `--csv` print. Everything here converts;
//! the experiment, its runs and its summaries are the core's.

use crate::js;
use election_core::ScenarioError;
use election_core::experiment::report::{json_text, report};
use election_core::experiment::{Experiment, RunRecord, csv, presets, theory};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// An experiment's error as a JS `Error` naming the experiment field.
fn error(e: &ScenarioError) -> JsValue {
    js::error(
        &format!("experiment field {}: {}", e.field, e.message),
        &e.field,
    )
}

/// Parses the records a page gathered (a JSON array, one per run in run
/// order).
fn records(text: &str) -> Result<Vec<RunRecord>, ScenarioError> {
    serde_json::from_str(text)
        .map_err(|e| ScenarioError::new("records", format!("not a list of run records: {e}")))
}

/// A group as the page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct GroupInfo {
    /// Algorithm id.
    pub algorithm: String,
    /// Participants.
    pub nodes: u32,
    /// The parameter's value, as written.
    pub value: Option<String>,
    /// `raft timing.election_timeout_ms=150-151`.
    pub label: String,
}

/// The groups of `e`, in run order.
pub fn group_infos(e: &Experiment) -> Vec<GroupInfo> {
    e.groups()
        .iter()
        .map(|g| GroupInfo {
            algorithm: g.algorithm.clone(),
            nodes: g.scenario.nodes,
            value: g.value.clone(),
            label: g.label(e.param()),
        })
        .collect()
}

/// A validated experiment, built from the page's experiment JSON (see
/// `Experiment::from_json`): `{"scenario", "seeds": "A..B",
/// "algorithms": [...], "param": "FIELD=V1,V2"}`.
#[wasm_bindgen]
pub struct ExperimentRunner {
    experiment: Experiment,
}

#[wasm_bindgen]
impl ExperimentRunner {
    /// Parses and validates; throws an `Error` whose `field` names the
    /// experiment or scenario field at fault.
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str) -> Result<ExperimentRunner, JsValue> {
        Experiment::from_json(spec_json)
            .map(|experiment| Self { experiment })
            .map_err(|e| error(&e))
    }

    /// Number of runs (groups x seeds).
    pub fn run_count(&self) -> f64 {
        self.experiment.run_count() as f64
    }

    /// Seeds per group.
    pub fn seeds_per_group(&self) -> f64 {
        self.experiment.seeds().count() as f64
    }

    /// The groups: objects with `algorithm`, `nodes`, `value`, `label`.
    pub fn groups(&self) -> Result<JsValue, JsValue> {
        // JSON text: 2.8 us a call against 3.2 through serde-wasm-bindgen
        // (+14%; docs/PERFORMANCE.md, Size, Across the boundary).
        js::to_js_by_text(&group_infos(&self.experiment))
    }

    /// The varied field, if any.
    pub fn param_field(&self) -> Option<String> {
        self.experiment.param().map(|p| p.field.clone())
    }

    /// Runs run `index` and returns its record as JSON text (the keys of
    /// the `election sweep --csv` columns, `by_kind` in kind order).
    /// Text, not an object: a worker posts it to the page, which hands the
    /// records back joined as `records_json` for the report.
    pub fn run(&self, index: f64) -> Result<String, JsValue> {
        let record = (index >= 0.0 && index.fract() == 0.0)
            .then(|| self.experiment.run(index as u64))
            .flatten()
            .ok_or_else(|| js::error(&format!("no run {index} in this experiment"), "index"))?;
        serde_json::to_string(&record).map_err(|e| js::error(&e.to_string(), ""))
    }

    /// Theoretical election-message curves against n (node-count
    /// experiments only): objects with `algorithm`, `formula`, `points`
    /// (`[n, messages]` pairs).
    pub fn theory(&self) -> Result<JsValue, JsValue> {
        js::to_js(&theory::curves(&self.experiment))
    }

    /// `election sweep --json` for `records_json` (a JSON array of the
    /// records of every run, in run order).
    pub fn report_json(&self, records_json: &str) -> Result<String, JsValue> {
        records(records_json)
            .and_then(|r| json_text(&self.experiment, &r))
            .map_err(|e| error(&e))
    }

    /// The object of [`ExperimentRunner::report_json`]'s text (what
    /// `JSON.parse` of it gives), for the page to show.
    pub fn report(&self, records_json: &str) -> Result<JsValue, JsValue> {
        let report = records(records_json)
            .and_then(|r| report(&self.experiment, &r))
            .map_err(|e| error(&e))?;
        js::to_js(&report)
    }

    /// `election sweep --csv` for `records_json`.
    pub fn report_csv(&self, records_json: &str) -> Result<String, JsValue> {
        records(records_json)
            .and_then(|r| csv::csv_text(&self.experiment, &r))
            .map_err(|e| error(&e))
    }
}

/// A built-in experiment as the page lists it.
#[derive(Debug, Clone, Serialize)]
struct PresetInfo {
    name: &'static str,
    title: &'static str,
    summary: &'static str,
    metric: &'static str,
    spec_json: String,
}

/// The built-in experiments: objects with `name`, `title`, `summary`,
/// `metric` (the record field the preset is about) and `spec_json`.
#[wasm_bindgen]
pub fn experiment_presets() -> Result<JsValue, JsValue> {
    let list = presets::ALL
        .iter()
        .map(|p| {
            Ok(PresetInfo {
                name: p.name,
                title: p.title,
                summary: p.summary,
                metric: p.metric,
                spec_json: p.spec_json().map_err(|e| error(&e))?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    js::to_js(&list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_into_the_cli_texts() {
        let e = Experiment::from_json(
            r#"{"scenario":{"algorithm":"raft","nodes":5},"seeds":"1..3","algorithms":["raft","bully"],"param":"nodes=3,5"}"#,
        )
        .unwrap();
        let rs: Vec<RunRecord> = (0..e.run_count()).filter_map(|i| e.run(i)).collect();
        let text = format!(
            "[{}]",
            rs.iter()
                .map(|r| serde_json::to_string(r).unwrap())
                .collect::<Vec<_>>()
                .join(",")
        );
        let back = records(&text).unwrap();
        assert_eq!(back, rs);
        assert_eq!(json_text(&e, &back).unwrap(), json_text(&e, &rs).unwrap());
        assert_eq!(group_infos(&e)[3].label, "bully nodes=5");
        assert!(records("[{}]").is_err());
        let short = &rs[..3];
        assert_eq!(csv::csv_text(&e, short).unwrap_err().field, "records");
    }
}
