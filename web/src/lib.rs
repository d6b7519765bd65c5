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
//! flat `Float64Array`s laid out by [`views`]; other structured values
//! cross as JS objects, built by serde-wasm-bindgen ([`js::to_js`]) or,
//! where an A/B measured that faster, parsed from JSON text
//! ([`js::to_js_by_text`]).
//! Errors reach JavaScript as `Error` objects whose message is the
//! scenario error's text (which names the field) and whose `field`
//! property is that field.
//!
//! The crate is built several times for the page
//! (scripts/build/build-wasm.sh): a player module per algorithm family
//! (`--no-default-features --features family-<id>`: [`playground`],
//! [`views`], the rows, [`presets`], [`lessons`], [`url`], [`story`]
//! (captions, story moments and questions, cached per scenario revision);
//! what the page needs to open,
//! play and draw a scenario or link of that family's algorithms, while
//! listing every algorithm) and the tools module (feature `tools`, on by
//! default: every family, also compare mode, exports, experiments, the
//! failure finder, the trade-off table, scripts and headless runs), which
//! the page loads on first use and Node and the page's workers load for
//! everything. The panels' modules (`compare`, `sweeps`, `lab`) are built
//! the same way; all but `sweeps` have the feature `player` ([`Playground`]
//! and what only it uses: [`views`], the rows, [`story`], [`lessons`]):
//! the sweeps module runs headless in the panels' workers and gives the
//! experiments an address's scenario by [`presets::address_scenario_json`].
//! The lab's module is built with `sweeps` and `compare` too, without a
//! built-in family: a scripted run's experiments, failure search and
//! exports are made there.
//!
//! The crate also compiles natively so that clippy and `cargo test` cover
//! it; the native tests exercise the pure-Rust parts ([`url`], [`views`],
//! the millisecond conversions of [`playground`]) without touching JS
//! values. Time travel (checkpoints, live faults, forks, the search for a
//! run's end) is `election_core::session::Session`, tested in the core.
//!
//! # The wasm boundary
//!
//! `web/` is a thin handle over core, in the manner of Ruffle's `web/` over
//! `ruffle_core`: `Playground` holds one `Session` and converts (milliseconds
//! to microseconds, results to JS values, errors to JS `Error`s); no time
//! travel or other policy is decided in `web/src`.
//!
//! ```text
//!  page (www/*.js) -- scenario JSON / URL / user faults --> Playground (web/)
//!        ^                                                       |
//!        +---- typed arrays, JS objects, numbers <-- Session (core)
//! ```
//!
//! - Per-frame data crosses as flat `Float64Array`s: one row per node, per
//!   message on the wire (sampled in core when there are many), per trace
//!   event. The column names come from wasm (`node_fields()`,
//!   `flight_fields()`, the trace fields), never hard-coded offsets in JS;
//!   new columns are appended.
//! - A node row ends with its pending timer, for the countdown arc:
//!   `timer_class` (an index into `timer_classes()`), `timer_set_ms` (true
//!   time it was armed) and `timer_fire_ms` (true time it fires), all `-1`
//!   when no timer is armed (core/engine/src/engine/mod.rs, module docs,
//!   Pending timers).
//!   `timer_classes()` lists the classes in code order as `{name, label}`:
//!   `election_timeout` (no word from the leader: an election follows),
//!   `heartbeat` (time for the next heartbeat, ping or probe), `reply_wait`
//!   (waiting for an answer or announcement), `retry` (retry or delay
//!   before trying), `lease_renew`, `lease_expiry` (a lease or session runs
//!   out), `write` (the leader's next write to the resource), `other`.
//! - Pacing: `Playground.next_event_ms()` is the queue's next entry, timers
//!   included but also stale entries where nothing happens;
//!   `Playground.next_activity_ms()` is the next moment something happens
//!   (a message arrives or is dropped, a timer really fires, a fault). The
//!   page may skip wall time up to it; neither call changes the run.
//! - Compare rows (`Playground.compare_figures()`) carry `recovery_ms` and
//!   `recovery_election_messages`, the summary's fields of the same names
//!   (core/engine/src/metrics.rs, module docs, recovery): at time T they equal
//!   `election run
//!   --algorithm <id> --until-ms T --json` for the same scenario, and they
//!   are what `election compare` shows as "recovery ms" and "failover".
//! - Structured values cross as plain JS objects, the very objects
//!   `JSON.parse` gives for their JSON text (the CLI's; keys in the same
//!   order, `None` as `null`, integers beyond 2^53 rounded). Built by
//!   serde-wasm-bindgen ([`js::to_js`]): an experiment's report
//!   (`ExperimentRunner.report`), the theory curves, violations, forks,
//!   compare figures, trade-off rows, presets, script templates and
//!   checks, script errors. Parsed from JSON text in the wasm
//!   ([`js::to_js_by_text`]) where an interleaved A/B measured that faster
//!   by more than a few percent (objects of many short fields, which
//!   serde-wasm-bindgen builds one JS call per field): the summary, log
//!   lines, `inspect`, the algorithm list, properties, timer classes,
//!   experiment groups. The scenario crosses as its JSON text
//!   (`scenario_json()`, which the page parses), also by that A/B; so do
//!   the exports (files), the experiment records and the finder's
//!   counterexample (which a worker posts on). The figures:
//!   docs/PERFORMANCE.md, Size, Across the boundary, and each call site.
//! - Errors reach JS as `Error` objects whose message names the field and
//!   whose `field` property is that field; a scenario error also carries
//!   `detail`, what is wrong without the field ("must be a number from 0 to
//!   1, got 1.5"), so the page can say it at the input the field came from
//!   (`panels/field-errors.js`).
//! - The crate is built six times for the page
//!   (`scripts/build/build-wasm.sh`): without its `tools` feature, once per
//!   **algorithm family**, as the **player modules** the page plays runs in
//!   (`www/pkg/election_player_<family>.js`: `--no-default-features
//!   --features family-<family>`), and with it (the default) as the **tools
//!   module** (`www/pkg/election_web.js`), which runs every algorithm and
//!   scripts and also has `compare_ids`, `for_algorithm`,
//!   `compare_figures`, the exports, the experiments, the finder, the
//!   trade-offs and `run_summary` (www/shared/player-wasm.js, top comment, What
//!   the first render
//!   loads).
//! - **Families.** `core/algorithms/src/algorithms/mod.rs` `FAMILIES` groups
//!   the
//!   algorithms, one cargo feature of election-core each (`family-bully`:
//!   bully, which the default page opens; `family-bully-variants`:
//!   next-in-line, candidate-ordinary, invitation; `family-ring`:
//!   chang-roberts, lelann, hirschberg-sinclair; `family-raft`: raft, the
//!   most used consensus protocol; `family-consensus`: zab, zookeeper,
//!   lease, multi-paxos; the module of `bully-variants` is
//!   `election_player_bully_variants`), all on by default (the CLI, the
//!   tests, fuzzing, the tools module). A build without a family's feature
//!   keeps every registry entry (ids, names, kinds, extras, presets,
//!   narrations: the page's pickers and legends list every algorithm in
//!   every module) but not the builder (`Entry::builder` is `None`, so the
//!   engine `Engine<P>` of those algorithms is not compiled in). Validation
//!   accepts every known algorithm, so any module reads any link or
//!   address; making a run checks `algorithms::runnable` first: a scenario
//!   whose algorithm this build does not run is a `ScenarioError` on field
//!   `algorithm` ("\"raft\" is not in this build (its family, consensus, is
//!   built separately); this one runs bully, ...") whose `needs` is the
//!   algorithm's id, a `needs` property of the JS `Error`; the player
//!   modules' refusal of a script has `needs: "script"`. Every JS-facing
//!   constructor goes through `Playground::open`, which checks;
//!   `Playground::from_scenario` (native tests) panics instead.
//!   `runnable_algorithms()` lists what a module runs;
//!   `Playground.settings_json(query)` is the scenario `with_settings`
//!   would run, for building it in another module.
//!
//! - Scripts run in the tools module only (its `tools` feature turns on
//!   the core's `script`): a scripted scenario is an ordinary scenario for
//!   its `Playground` (`summary().script_error`, `script_error()`, `kinds()`
//!   growing as the run sends new kinds), plus `script_templates()` and
//!   `script_check(source)`. The player module refuses a scripted scenario
//!   (field `algorithm`: "this build runs no scripts"). A scenario error
//!   about a script that does not compile carries a `script_error` property
//!   shaped like a run's (`line`, `column`, `message`; `node`, `handler`,
//!   `at_ms` null).
//! - The crate also builds natively, so clippy and `cargo test` cover its
//!   conversions (`web/tests/stored_links.rs` decodes every stored link).

#[cfg(feature = "compare")]
pub mod compare;
#[cfg(feature = "sweeps")]
pub mod experiment;
#[cfg(feature = "compare")]
pub mod exports;
#[cfg(feature = "sweeps")]
pub mod finder;
#[cfg(feature = "sweeps")]
pub mod headless;
pub mod js;
#[cfg(feature = "player")]
pub mod lessons;
#[cfg(feature = "player")]
pub mod playground;
pub mod presets;
#[cfg(feature = "lab")]
pub mod scripts;
#[cfg(feature = "player")]
pub mod story;
#[cfg(feature = "sweeps")]
pub mod tradeoffs;
pub mod url;
#[cfg(feature = "player")]
pub mod views;

#[cfg(feature = "player")]
pub mod metric_rows;
#[cfg(feature = "player")]
pub mod trace_rows;

#[cfg(feature = "player")]
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
    // JSON text: 13.1 us against 19.7 through serde-wasm-bindgen (+50%;
    // docs/PERFORMANCE.md, Size, Across the boundary).
    js::to_js_by_text(&algorithms::ALL)
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
#[cfg(feature = "player")]
#[wasm_bindgen]
pub fn node_fields() -> Vec<String> {
    views::NODE_FIELDS.iter().map(|f| f.to_string()).collect()
}

/// Names of the columns of [`Playground::flights`], in order.
#[cfg(feature = "player")]
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
    // JSON text: 1.9 us against 2.7 through serde-wasm-bindgen (+42%;
    // docs/PERFORMANCE.md, Size, Across the boundary).
    js::to_js_by_text(&election_core::checks::PROPERTIES)
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
#[cfg(feature = "player")]
#[wasm_bindgen]
pub fn timer_classes() -> Result<JsValue, JsValue> {
    // JSON text: 2.0 us against 3.0 through serde-wasm-bindgen (+50%;
    // docs/PERFORMANCE.md, Size, Across the boundary).
    js::to_js_by_text(&views::timer_classes())
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
