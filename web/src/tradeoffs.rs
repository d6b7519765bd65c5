//! The trade-off table on the JS side: a page Web Worker measures the
//! rows it is handed with [`tradeoffs_row`]; the page puts them in
//! registry order. Everything here converts; the measuring is the core's
//! (`election_core::tradeoffs`), the same as `election tradeoffs --json`.

use crate::js;
use election_core::tradeoffs::{self, Spec};
use wasm_bindgen::prelude::*;

/// One algorithm's row of the table for `spec` (JSON: `nodes`, `seeds`,
/// `partition_schedules`, each optional), as `election tradeoffs --json`
/// writes it. Throws an `Error` naming the bad field of `spec` or an
/// unknown algorithm.
#[wasm_bindgen]
pub fn tradeoffs_row(spec: &str, algorithm: &str) -> Result<JsValue, JsValue> {
    let spec = Spec::from_json(spec).map_err(|e| js::scenario_error(&e))?;
    election_core::algorithms::lookup(algorithm).map_err(|e| js::error(&e, "algorithm"))?;
    js::to_js(&tradeoffs::measure_row(&spec, algorithm))
}

/// The table's header fields for `spec` (`nodes`, `seeds`, `delay_ms`,
/// `rows` empty), for the page to fill with rows.
#[wasm_bindgen]
pub fn tradeoffs_table(spec: &str) -> Result<JsValue, JsValue> {
    let spec = Spec::from_json(spec).map_err(|e| js::scenario_error(&e))?;
    js::to_js(&tradeoffs::table(&spec, Vec::new()))
}
