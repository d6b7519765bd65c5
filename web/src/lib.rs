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
//! The crate is built several times for the page
//! (scripts/build/build-wasm.sh): a player module per algorithm family
//! (`--no-default-features --features family-<id>`: [`playground`],
//! [`views`], the rows, [`presets`], [`url`]; what the page needs to open,
//! play and draw a scenario or link of that family's algorithms, while
//! listing every algorithm) and the tools module (feature `tools`, on by
//! default: every family, also compare mode, exports, experiments, the
//! failure finder, the trade-off table, scripts and headless runs), which
//! the page loads on first use and Node and the page's workers load for
//! everything.
//!
//! The crate also compiles natively so that clippy and `cargo test` cover
//! it; the native tests exercise the pure-Rust parts ([`url`], [`views`],
//! the millisecond conversions of [`playground`]) without touching JS
//! values. Time travel (checkpoints, live faults, forks, the search for a
//! run's end) is `election_core::session::Session`, tested in the core.

#[cfg(feature = "tools")]
pub mod compare;
#[cfg(feature = "tools")]
pub mod experiment;
#[cfg(feature = "tools")]
pub mod exports;
#[cfg(feature = "tools")]
pub mod finder;
#[cfg(feature = "tools")]
pub mod headless;
pub mod js;
pub mod playground;
pub mod presets;
#[cfg(feature = "tools")]
pub mod scripts;
#[cfg(feature = "tools")]
pub mod tradeoffs;
pub mod url;
pub mod views;

pub mod metric_rows;
pub mod trace_rows;

pub use playground::Playground;

use election_core::algorithms;
use election_core::protocol::Role;
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

/// The ids of the algorithms this module runs (its families'; the tools
/// module: every one and `script`). [`algorithms()`] lists every algorithm
/// in every module; a scenario of one not listed here gets an error with
/// a `needs` property (see [`js::scenario_error`]). scripts/build/build-wasm.sh
/// reads this to write the page's table of modules (www/pkg/modules.js).
#[wasm_bindgen]
pub fn runnable_algorithms() -> Vec<String> {
    algorithms::runnable_ids()
        .into_iter()
        .map(str::to_string)
        .collect()
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

/// The names of the roles (as the core writes them in JSON: `follower`,
/// `candidate`, `leader`, `service`, `observer`) by role code: index `i` names the
/// role whose code is `i` in the `role` column of [`Playground::nodes`]
/// and of the trace rows. The page decodes role codes with these, never
/// with a copy of its own.
pub fn role_name_list() -> Vec<String> {
    Role::ALL
        .iter()
        .map(|role| role.name().to_string())
        .collect()
}

/// Role names by role code (see [`role_name_list`]).
#[wasm_bindgen]
pub fn role_names() -> Vec<String> {
    role_name_list()
}

/// The safety properties the core checks
/// ([`election_core::checks::PROPERTIES`]), as objects with `id` (the
/// `property` of a violation) and `label` (a short title, "Split brain").
#[wasm_bindgen]
pub fn properties() -> Result<JsValue, JsValue> {
    js::to_js(&election_core::checks::PROPERTIES)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_follow_the_role_codes() {
        let names = role_name_list();
        assert_eq!(
            names,
            ["follower", "candidate", "leader", "service", "observer"]
        );
        for (i, role) in Role::ALL.iter().enumerate() {
            assert_eq!(views::role_code(*role), i as f64, "{role:?}");
        }
    }
}
