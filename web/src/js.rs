//! Conversions at the JavaScript edge: Rust values to JS objects and
//! errors to JS `Error`s.

use election_core::ScenarioError;
#[cfg(feature = "tools")]
use election_core::script::ScriptError;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// A JS `Error` with `message` and a `field` property naming the scenario
/// field at fault (empty when the error is not about one field).
pub fn error(message: &str, field: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("field"), &JsValue::from_str(field));
    err.into()
}

/// A scenario error as a JS `Error`: `message` is its Display text
/// (naming the field), `field` the dotted path and `detail` what is wrong
/// with it alone ("must be a number from 0 to 1, got 1.5"), so the page
/// can say it next to the input the field came from, in that input's
/// words.
///
/// A scenario this build cannot run (an algorithm of another family's
/// player module, or a script in a player module) gets a `needs` property:
/// the algorithm id, so the page loads the module that runs it.
///
/// A script that does not compile (field `script`) also gets a
/// `script_error` property shaped as a run's (`node`, `handler`, `line`,
/// `column`, `at_ms`, `message`; the first two and `at_ms` null), so the
/// page shows every script error at its line the same way.
pub fn scenario_error(e: &ScenarioError) -> JsValue {
    let err = error(&e.to_string(), &e.field);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("detail"),
        &JsValue::from_str(&e.message),
    );
    // A scenario this build cannot run: the algorithm whose module it needs.
    if let Some(needs) = e.needs {
        let _ = js_sys::Reflect::set(&err, &JsValue::from_str("needs"), &JsValue::from_str(needs));
    }
    // Only the tools module runs (and so compiles) scripts.
    #[cfg(feature = "tools")]
    if e.field == "script" {
        let (line, column) = e.script_at.map_or((None, None), |(l, c)| (Some(l), c));
        let script_error = ScriptError {
            node: None,
            handler: None,
            line,
            column,
            at_ms: None,
            message: e.message.clone(),
        };
        if let Ok(value) = to_js(&script_error) {
            let _ = js_sys::Reflect::set(&err, &JsValue::from_str("script_error"), &value);
        }
    }
    err
}

/// A plain JS object (maps as objects, `None` as `null`) for a small
/// serializable value: its JSON text (the CLI's `--json` output is the
/// same text), parsed by `JSON.parse`. Integers beyond 2^53 (a
/// hand-picked huge seed) come out rounded, as `JSON.parse` gives them.
///
/// Not serde-wasm-bindgen: every type sent through it needed a second
/// serializer in the wasm besides its serde_json one (the trace event
/// enum's alone was 15 KB); one JSON serializer per type serves both.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error(&e.to_string(), ""))?;
    js_sys::JSON::parse(&text)
}
