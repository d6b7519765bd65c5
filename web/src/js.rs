//! Conversions at the JavaScript edge: Rust values to JS objects (through
//! serde-wasm-bindgen, or through JSON text where that measured faster)
//! and errors to JS `Error`s with their `field`.

use election_core::ScenarioError;
#[cfg(feature = "lab")]
use election_core::script::ScriptError;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

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
    // Only the lab and tools modules run (and so compile) scripts.
    #[cfg(feature = "lab")]
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
/// serializable value, built by serde-wasm-bindgen's JSON-compatible
/// serializer: the same object `JSON.parse` gives for its JSON text (the
/// CLI's `--json` output), without the text.
///
/// An integer beyond 2^53 (a hand-picked huge seed), which that
/// serializer refuses, is serialized again as a `BigInt` and then turned
/// into the nearest number (`bigints_to_numbers`), as `JSON.parse`
/// rounds it. The second pass uses the same serializer type with another
/// setting, so it adds no second serializer per type to the wasm (a
/// fallback through `serde_json` text did: 7.4 KB gzip in every player
/// module; docs/PERFORMANCE.md, Size, Across the boundary).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .or_else(|_| {
            let big = serde_wasm_bindgen::Serializer::json_compatible()
                .serialize_large_number_types_as_bigints(true);
            let value = value.serialize(&big).map_err(JsValue::from)?;
            bigints_to_numbers(&value);
            Ok(value)
        })
}

/// Replaces, in place, every `BigInt` inside the arrays and objects of
/// `value` by the nearest number (its digits read by `parseFloat`, as
/// `JSON.parse` reads a huge integer). A `BigInt` at the top level cannot be replaced in
/// place; [`to_js`] is never asked for one (no bare integers cross).
fn bigints_to_numbers(value: &JsValue) {
    if !value.is_object() {
        return;
    }
    let object: &js_sys::Object = value.unchecked_ref();
    for key in js_sys::Object::keys(object).iter() {
        // Reading and writing an own property of a plain object or array
        // the serializer just made cannot fail.
        let Ok(item) = js_sys::Reflect::get(object, &key) else {
            continue;
        };
        if item.is_bigint() {
            // Not `str::parse::<f64>`: Rust's float parser is 5.7 KB gzip
            // in a player module; the page's `parseFloat` rounds alike.
            let number = item
                .unchecked_ref::<js_sys::BigInt>()
                .to_string(10)
                .map(String::from)
                .map_or(f64::NAN, |digits: String| {
                    js_sys::Number::parse_float(&digits)
                });
            let _ = js_sys::Reflect::set(object, &key, &JsValue::from_f64(number));
        } else {
            bigints_to_numbers(&item);
        }
    }
}

/// [`to_js`] through JSON text: `JSON.parse` of `serde_json`'s text, for
/// the values an interleaved A/B found faster that way (objects of many
/// short fields: V8's `JSON.parse` builds them in one call, where
/// serde-wasm-bindgen calls into JS once per field). Each caller says its
/// figures; docs/PERFORMANCE.md, Size, Across the boundary, has them all.
/// Integers beyond 2^53 come out rounded, as `JSON.parse` gives them.
pub fn to_js_by_text<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error(&e.to_string(), ""))?;
    js_sys::JSON::parse(&text)
}
