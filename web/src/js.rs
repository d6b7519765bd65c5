//! Conversions at the JavaScript edge: Rust values to JS objects and
//! errors to JS `Error`s.

use election_core::ScenarioError;
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

/// A scenario error as a JS `Error` (message is its Display text).
pub fn scenario_error(e: &ScenarioError) -> JsValue {
    error(&e.to_string(), &e.field)
}

/// A plain JS object (maps as objects, `None` as `null`) for a small
/// serializable value. Integers beyond 2^53 (a hand-picked huge seed)
/// cannot be plain JS numbers; for those the value goes through JSON text
/// instead and comes out rounded, exactly as `JSON.parse` would give it.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    match value.serialize(&serializer) {
        Ok(v) => Ok(v),
        Err(_) => {
            let text = serde_json::to_string(value).map_err(|e| error(&e.to_string(), ""))?;
            js_sys::JSON::parse(&text)
        }
    }
}
