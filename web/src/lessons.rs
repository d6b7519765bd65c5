//! Lessons for the page (in every module, player and tools): the core's
//! lesson format (`election_core::lesson`; docs/lessons.md) crossing as
//! JSON text, both ways, as the scenario does (`scenario_json()`).
//!
//! - `lesson_check(text)`: the lesson, validated, as canonical pretty
//!   JSON text;
//! - `lesson_link(text)`: its link fragment, `#l=1.<data>` (the `#s=`
//!   codec);
//! - `lesson_from_link(fragment_or_url)`: the lesson of a link, as
//!   canonical JSON text;
//! - `lesson_from_run(scenario_json)`: a lesson made from a scenario, its
//!   faults moved into steps with empty narration;
//! - `lesson_scenario(text)`: the scenario the lesson runs (its steps'
//!   faults added), as canonical scenario JSON text.
//!
//! Each throws a JS `Error` whose message names the field and whose
//! `field` property is that field (`steps[2].question.kind`,
//! `scenario.nodes`, `l` for a damaged link) and whose `detail` is what is
//! wrong with it alone, as scenario errors do (`js::scenario_error`).

use crate::js;
use election_core::lesson::{self, Lesson, LessonError};
use election_core::{Scenario, ScenarioExt};
use wasm_bindgen::prelude::*;

/// A lesson error as a JS `Error` with `field` and `detail`.
fn lesson_error(e: &LessonError) -> JsValue {
    let err = js::error(&e.to_string(), &e.field);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("detail"),
        &JsValue::from_str(&e.message),
    );
    err
}

fn parse(text: &str) -> Result<Lesson, JsValue> {
    Lesson::from_json(text).map_err(|e| lesson_error(&e))
}

/// The lesson in `text`, validated, as canonical pretty JSON text.
/// Throws an `Error` naming the bad field.
#[wasm_bindgen]
pub fn lesson_check(text: &str) -> Result<String, JsValue> {
    Ok(parse(text)?.to_json_pretty())
}

/// The link fragment of the lesson in `text`: `#l=1.<data>`. Throws an
/// `Error` naming the bad field, or (field `""`) when the link would be
/// longer than the link limit.
#[wasm_bindgen]
pub fn lesson_link(text: &str) -> Result<String, JsValue> {
    parse(text)?.link().map_err(|e| lesson_error(&e))
}

/// The lesson of a link (a whole address, `#l=1.…`, `l=1.…` or `1.…`)
/// as canonical pretty JSON text. Throws an `Error` with field `l` for a
/// missing or damaged link, or naming the lesson's bad field.
#[wasm_bindgen]
pub fn lesson_from_link(fragment_or_url: &str) -> Result<String, JsValue> {
    Lesson::from_link(fragment_or_url)
        .map(|l| l.to_json_pretty())
        .map_err(|e| lesson_error(&e))
}

/// A lesson made from the scenario in `scenario_json` (for "Make a lesson
/// from this run"): a step at 0 and one at each fault's time, the fault
/// moved into it, every text empty, as canonical pretty JSON text. Throws
/// a scenario `Error` naming the bad field.
#[wasm_bindgen]
pub fn lesson_from_run(scenario_json: &str) -> Result<String, JsValue> {
    let scenario = Scenario::from_json(scenario_json).map_err(|e| js::scenario_error(&e))?;
    Ok(lesson::from_run(&scenario).to_json_pretty())
}

/// The scenario the lesson in `text` runs (its steps' faults added at
/// their times) as canonical pretty scenario JSON text. Throws an `Error`
/// naming the bad field.
#[wasm_bindgen]
pub fn lesson_scenario(text: &str) -> Result<String, JsValue> {
    Ok(parse(text)?.scenario().to_json_pretty())
}
