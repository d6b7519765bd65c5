//! The page's Export files, made by the core so they hold exactly what the
//! command line prints for the same scenario at the same moment:
//!
//! - trace JSON: the `election run --until-ms T --json --trace` object (the
//!   run summary, `trace_hash` included, plus the `trace` array of events
//!   and the `captions`);
//! - summary JSON: the `election run --until-ms T --json` object (with its
//!   `captions`);
//! - summary CSV: the `election sweep --until-ms T --seeds S --csv` table
//!   (the header and this run's row).
//!
//! T is the playground's current time; the page finishes the events of
//! that instant first, as a share link does.

use crate::{Playground, js};
use election_core::algorithms;
use election_core::experiment::seeds::SeedRange;
use election_core::experiment::{Experiment, RunRecord, csv::csv_text};
use election_core::sim::RunSummary;
use election_core::story::{self, Caption};
use election_core::trace::TraceEvent;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// `run --json --trace` without a link: the summary with the trace and
/// the captions.
#[derive(Serialize)]
struct TraceFile<'a> {
    #[serde(flatten)]
    summary: &'a RunSummary,
    trace: &'a [TraceEvent],
    captions: &'a [Caption],
}

/// `run --json`: the summary with the captions.
#[derive(Serialize)]
struct SummaryFile<'a> {
    #[serde(flatten)]
    summary: &'a RunSummary,
    captions: &'a [Caption],
}

/// Pretty JSON with a final newline, as the CLI prints it.
fn pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    let mut text = election_core::to_string_pretty(value).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// The Rust side of the exports (native tests use these).
impl Playground {
    /// The captions of the run stopped now, as `election run --until-ms
    /// <now> --json` gives them (one more recorded run, up to now).
    fn captions_now(&self) -> Vec<Caption> {
        let mut stopped = self.scenario().clone();
        stopped.until_us = Some(self.now_us());
        story::captions(&stopped)
    }

    /// The trace file text: the run summary so far with every trace event.
    pub fn trace_file(&mut self) -> Result<String, String> {
        let summary = self.run_summary();
        let captions = self.captions_now();
        pretty(&TraceFile {
            summary: &summary,
            trace: self.sim().trace(),
            captions: &captions,
        })
    }

    /// The summary so far as `election run --json` prints it.
    pub fn summary_file(&mut self) -> Result<String, String> {
        let summary = self.run_summary();
        let captions = self.captions_now();
        pretty(&SummaryFile {
            summary: &summary,
            captions: &captions,
        })
    }

    /// The summary so far as `election sweep --csv` prints its row: a
    /// one-seed experiment of this scenario, written by the same code.
    pub fn summary_csv_file(&mut self) -> Result<String, String> {
        let scenario = self.scenario().clone();
        let kinds = algorithms::info(&scenario.algorithm)
            .map(|a| a.kinds)
            .unwrap_or_default();
        let seeds = SeedRange {
            from: scenario.seed,
            to: scenario.seed,
        };
        let experiment = Experiment::new(&scenario, seeds, &[], None).map_err(|e| e.to_string())?;
        let record = RunRecord::of(self.run_summary(), kinds);
        csv_text(&experiment, &[record]).map_err(|e| e.to_string())
    }
}

/// The JS side.
#[wasm_bindgen]
impl Playground {
    /// The trace so far as JSON text: the `election run --until-ms <now>
    /// --json --trace` object (summary, `trace_hash`, `trace` array).
    pub fn trace_json(&mut self) -> Result<String, JsValue> {
        self.trace_file().map_err(|e| js::error(&e, ""))
    }

    /// The run summary so far as JSON text (`election run --until-ms <now>
    /// --json`).
    pub fn summary_json(&mut self) -> Result<String, JsValue> {
        self.summary_file().map_err(|e| js::error(&e, ""))
    }

    /// The run summary so far as CSV text: the header and one row, as
    /// `election sweep --until-ms <now> --seeds <seed> --csv` prints them.
    pub fn summary_csv(&mut self) -> Result<String, JsValue> {
        self.summary_csv_file().map_err(|e| js::error(&e, ""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::Scenario;
    use election_core::ScenarioExt;

    #[test]
    fn exports_are_the_cli_objects_at_the_current_time() {
        let text =
            r#"{"algorithm":"bully","nodes":5,"seed":2,"faults":[{"at_ms":400,"crash":"leader"}]}"#;
        let mut p = Playground::from_scenario(&Scenario::from_json(text).unwrap());
        p.seek_us(700_000);
        let mut until = Scenario::from_json(text).unwrap();
        until.until_us = Some(700_000);
        let expected = election_core::sim::run(&until);

        let mut summary: serde_json::Value =
            serde_json::from_str(&p.summary_file().unwrap()).unwrap();
        let captions = summary.as_object_mut().unwrap().remove("captions");
        assert_eq!(summary, serde_json::to_value(&expected).unwrap());
        assert_eq!(
            captions.unwrap(),
            serde_json::to_value(election_core::story::captions(&until)).unwrap()
        );

        let trace: serde_json::Value = serde_json::from_str(&p.trace_file().unwrap()).unwrap();
        assert_eq!(trace["trace_hash"], expected.trace_hash.as_str());
        // The same events `election run --trace` records.
        let mut cli = algorithms::build(&until, true);
        cli.run_to_end();
        assert_eq!(
            trace["trace"],
            serde_json::to_value(cli.trace()).unwrap(),
            "trace events"
        );

        let csv = p.summary_csv_file().unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].ends_with(",ELECTION,OK,COORDINATOR,HEARTBEAT"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("2,"), "{}", lines[1]);
        assert!(lines[1].contains(&expected.trace_hash), "{}", lines[1]);
    }
}
