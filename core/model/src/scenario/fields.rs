//! Reading a JSON object field by field, with errors that name the field.
//!
//! Every accessor records the key it read; [`Fields::finish`] then rejects
//! any key nobody read, so a typo such as `"lantency_ms"` is an error and
//! not a silently ignored setting.

use super::ScenarioError;
use crate::time::{MAX_TIME_US_F64, Micros};
use serde_json::{Map, Value};

/// Describes a JSON value briefly for error messages.
pub fn describe(value: &Value) -> String {
    let text = match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("the text {:?}", s),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    };
    let mut short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// Whether `c` reorders or hides text around it when shown: the Unicode
/// bidirectional controls (marks, embeddings, overrides, isolates).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A key taken from the input as an error message may show it: control
/// and bidirectional-override characters escaped (`\u{202e}`), so a key
/// cannot reverse or hide the text around it, and at most 60 characters.
pub fn printable(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == 60 {
            out.push('…');
            break;
        }
        if c.is_control() || is_bidi_control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A JSON object being read, with the dotted path that leads to it.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: String,
    read: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    /// Starts reading `value`, which must be an object.
    pub fn new(value: &'a Value, path: &str) -> Result<Self, ScenarioError> {
        match value {
            Value::Object(map) => Ok(Self {
                map,
                path: path.to_string(),
                read: Vec::new(),
            }),
            other => Err(ScenarioError::new(
                path,
                format!("must be an object, got {}", describe(other)),
            )),
        }
    }

    /// The dotted path of `key` inside this object.
    pub fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.path, key)
        }
    }

    /// Whether `key` is present (marks it read).
    pub fn has(&mut self, key: &'static str) -> bool {
        self.read.push(key);
        self.map.contains_key(key)
    }

    /// The raw value of `key`, if present.
    pub fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.read.push(key);
        self.map.get(key)
    }

    /// An error about `key`.
    pub fn error(&self, key: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(self.path_of(key), message)
    }

    /// An optional integer in `lo..=hi`.
    pub fn int(
        &mut self,
        key: &'static str,
        lo: u64,
        hi: u64,
    ) -> Result<Option<u64>, ScenarioError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v.as_u64() {
            Some(x) if (lo..=hi).contains(&x) => Ok(Some(x)),
            _ => Err(self.error(
                key,
                format!(
                    "must be a whole number from {lo} to {hi}, got {}",
                    describe(v)
                ),
            )),
        }
    }

    /// An optional number in `lo..=hi`.
    pub fn number(
        &mut self,
        key: &'static str,
        lo: f64,
        hi: f64,
    ) -> Result<Option<f64>, ScenarioError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v.as_f64() {
            Some(x) if x.is_finite() && x >= lo && x <= hi => Ok(Some(x)),
            _ => Err(self.error(
                key,
                format!("must be a number from {lo} to {hi}, got {}", describe(v)),
            )),
        }
    }

    /// An optional duration or time in milliseconds (fractions down to a
    /// microsecond allowed), converted to microseconds.
    pub fn millis(&mut self, key: &'static str) -> Result<Option<Micros>, ScenarioError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        millis_value(v).map(Some).map_err(|m| self.error(key, m))
    }

    /// An optional string.
    pub fn text(&mut self, key: &'static str) -> Result<Option<&'a str>, ScenarioError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        v.as_str()
            .map(Some)
            .ok_or_else(|| self.error(key, format!("must be text, got {}", describe(v))))
    }

    /// Rejects keys that were never read.
    pub fn finish(self) -> Result<(), ScenarioError> {
        for key in self.map.keys() {
            if !self.read.iter().any(|k| k == key) {
                let mut known: Vec<&str> = self.read.clone();
                known.sort_unstable();
                known.dedup();
                return Err(ScenarioError::new(
                    self.path_of(&printable(key)),
                    format!("unknown field (known fields here: {})", known.join(", ")),
                ));
            }
        }
        Ok(())
    }
}

/// A millisecond value (number, non-negative, at most one day) in
/// microseconds, or a message saying what is wrong.
pub fn millis_value(v: &Value) -> Result<Micros, String> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x >= 0.0 && x * 1000.0 <= MAX_TIME_US_F64 => {
            Ok((x * 1000.0).round() as Micros)
        }
        _ => Err(format!(
            "must be a number of milliseconds from 0 to 86400000, got {}",
            describe(v)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_reorder_the_message() {
        assert_eq!(printable("name\u{202e}gnp.exe"), "name\\u{202e}gnp.exe");
        assert_eq!(printable("a\nb\u{2066}"), "a\\u{a}b\\u{2066}");
        assert_eq!(printable(&"x".repeat(100)), format!("{}…", "x".repeat(60)));
        let v: Value = serde_json::json!({"bad\u{202e}key": 1});
        let f = Fields::new(&v, "timing").unwrap();
        assert_eq!(f.finish().unwrap_err().field, "timing.bad\\u{202e}key");
    }
}
