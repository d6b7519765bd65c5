//! Runs without a page: one scenario straight to its end (what
//! `election run --json` does natively), and the fixed benchmark
//! workloads of [`election_core::workloads`]. Used by the native = wasm
//! trace-hash corpus test and by scripts/bench/bench.sh, both in Node.

use crate::js;
use election_core::ScenarioExt;
use election_core::{Scenario, sim, workloads};
use wasm_bindgen::prelude::*;

/// Runs scenario JSON text to its end without recording the trace and
/// returns the run summary object (the `election run --json` contract:
/// `trace_hash`, `events`, `messages`, ...). Throws an `Error` naming the
/// bad field.
#[wasm_bindgen]
pub fn run_summary(scenario_json: &str) -> Result<JsValue, JsValue> {
    let scenario = Scenario::from_json(scenario_json).map_err(|e| js::scenario_error(&e))?;
    // JSON text, as `Playground.summary()`: the same `RunSummary`, 11%
    // slower through serde-wasm-bindgen (docs/PERFORMANCE.md, Size).
    js::to_js_by_text(&sim::run(&scenario))
}

/// Ids of the benchmark workloads, in order (`cr1000-desc`, `raft1000`,
/// `cr1000`, `cr10000`, `bully200`).
#[wasm_bindgen]
pub fn bench_workloads() -> Vec<String> {
    workloads::all().iter().map(|w| w.id.to_string()).collect()
}

/// Builds and runs the benchmark workload `id` once (the caller times
/// the call) and returns the number of events it processed.
#[wasm_bindgen]
pub fn bench_run(id: &str) -> Result<f64, JsValue> {
    let workload = workloads::all()
        .into_iter()
        .find(|w| w.id == id)
        .ok_or_else(|| js::error(&format!("no benchmark workload named '{id}'"), "id"))?;
    Ok(workload.run().metrics().events as f64)
}
