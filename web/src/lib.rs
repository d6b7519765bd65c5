//! `election-web`: the thin wasm-bindgen handle the page drives, in the
//! manner of Ruffle's `web/` over `ruffle_core`.
//!
//! ```text
//!  page (www/*.js) ── scenario JSON / URL / user faults ──▶ Playground
//!        ▲                                                     │
//!        └── typed arrays (nodes, flights), log lines, summary ◀┘
//! ```
//!
//! Everything about the algorithms stays in `election-core`; this crate
//! only converts. Per-frame data (nodes, messages on the wire) crosses as
//! flat `Float64Array`s laid out by [`views`]; small occasional objects
//! (summary, log lines, algorithm list) go through JSON text ([`js::to_js`]).
//! Errors reach JavaScript as `Error` objects whose message is the
//! scenario error's text (which names the field) and whose `field`
//! property is that field.
//!
//! The crate also compiles natively so that clippy and `cargo test` cover
//! it; the native tests exercise the pure-Rust parts ([`url`], [`views`],
//! the millisecond conversions of [`playground`]) without touching JS
//! values. Time travel (checkpoints, live faults, forks, the search for a
//! run's end) is `election_core::session::Session`, tested in the core.

pub mod compare;
pub mod experiment;
pub mod exports;
pub mod headless;
pub mod js;
pub mod playground;
pub mod presets;
pub mod url;
pub mod views;

pub mod metric_rows;
pub mod trace_rows;

pub use playground::Playground;

use election_core::algorithms;
use election_core::scenario::query::SCENARIO_PARAMS;
use wasm_bindgen::prelude::*;

/// Installs the panic hook, so a Rust panic shows up in the console as a
/// readable message instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Every algorithm the core knows, in display order: objects with `id`,
/// `name`, `summary`, `layout` (`"ring"` or `"cluster"`) and `kinds`.
#[wasm_bindgen]
pub fn algorithms() -> Result<JsValue, JsValue> {
    js::to_js(&algorithms::ALL)
}

/// The URL query parameters that set scenario fields (the page's own
/// parameters, such as `at`, are not among them).
#[wasm_bindgen]
pub fn scenario_params() -> Vec<String> {
    SCENARIO_PARAMS.iter().map(|p| p.to_string()).collect()
}

/// Names of the columns of [`Playground::nodes`], in order.
#[wasm_bindgen]
pub fn node_fields() -> Vec<String> {
    views::NODE_FIELDS.iter().map(|f| f.to_string()).collect()
}

/// Names of the columns of [`Playground::flights`], in order.
#[wasm_bindgen]
pub fn flight_fields() -> Vec<String> {
    views::FLIGHT_FIELDS.iter().map(|f| f.to_string()).collect()
}

/// A new random seed from the platform's randomness (the browser's
/// `crypto.getRandomValues`). The only place outside randomness enters:
/// the run itself is a function of the scenario, seed included. Kept
/// below 2^32 so it reads well in a URL and is exact as a JS number.
#[wasm_bindgen]
pub fn fresh_seed() -> Result<u32, JsValue> {
    getrandom::u32().map_err(|e| js::error(&format!("no randomness available: {e}"), ""))
}

/// The classes of the node rows' `timer_class` column, in code order
/// (entry `i` describes code `i`): objects with `name`
/// (`"election_timeout"`, `"heartbeat"`, `"reply_wait"`, ...) and `label`,
/// a few words for a legend (`"election timeout"`).
#[wasm_bindgen]
pub fn timer_classes() -> Result<JsValue, JsValue> {
    js::to_js(&views::timer_classes())
}
