//! Scripted algorithms on the JS side (tools module only: the player
//! module holds no interpreter). A scripted scenario (`"algorithm":
//! "script"`, `"script": "<source>"`) runs through the ordinary
//! [`crate::Playground`] of this module; here are the shipped scripts and
//! a check of a source without a run. Everything is the core's
//! (`election_core::script`).

use crate::js;
use election_core::script::{self, templates};
use wasm_bindgen::prelude::*;

/// The scripts shipped with the playground, templates first: objects with
/// `id`, `name`, `kind` (`"template"` or `"exercise"`), `description`
/// (for an exercise: what a correct solution must show), `scenario` (JSON
/// text of the scenario fields it is meant to run with) and `source`.
#[wasm_bindgen]
pub fn script_templates() -> Result<JsValue, JsValue> {
    js::to_js(templates::ALL)
}

/// Compiles `source` without running it: `null` when it compiles, else
/// the error as a run reports one (`line`, `column`, `message`; `node`,
/// `handler` and `at_ms` null), for the editor to show at its line.
#[wasm_bindgen]
pub fn script_check(source: &str) -> Result<JsValue, JsValue> {
    js::to_js(&script::check(source).err())
}

/// Largest script source, in bytes.
#[wasm_bindgen]
pub fn script_max_bytes() -> usize {
    script::MAX_SCRIPT_BYTES
}
