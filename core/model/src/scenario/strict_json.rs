//! JSON text to a `serde_json::Value` that refuses a key given twice in
//! one object (`{"nodes": 4, "nodes": 9}`), naming it by its dotted path
//! (`nodes`, `timing.heartbeat_ms`, `faults[2].at_ms`). serde_json keeps
//! the last value silently; a scenario where a field says two things is
//! refused instead (docs/ARCHITECTURE.md, Limits and why). serde_json's
//! own limits (nesting depth) still apply: this only builds the value.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// Why [`parse`] failed.
pub enum StrictError {
    /// Not JSON (serde_json's message).
    Syntax(serde_json::Error),
    /// The dotted path of a key given twice in one object.
    Duplicate(String),
}

/// Parses `text`, refusing duplicate keys.
pub fn parse(text: &str) -> Result<Value, StrictError> {
    let duplicate = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = At {
        path: String::new(),
        duplicate: &duplicate,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    match (value, duplicate.into_inner()) {
        (_, Some(path)) => Err(StrictError::Duplicate(path)),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(StrictError::Syntax(e)),
    }
}

/// A value at `path`; a duplicate key found inside goes to `duplicate`.
struct At<'a> {
    path: String,
    duplicate: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for At<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for At<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(At {
            path: format!("{}[{}]", self.path, items.len()),
            duplicate: self.duplicate,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if out.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some(path);
                return Err(de::Error::custom("duplicate key"));
            }
            let value = map.next_value_seed(At {
                path,
                duplicate: self.duplicate,
            })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(text: &str) -> Option<String> {
        match parse(text) {
            Err(StrictError::Duplicate(path)) => Some(path),
            _ => None,
        }
    }

    #[test]
    fn a_key_given_twice_is_named_by_its_path() {
        assert_eq!(
            duplicate(r#"{"nodes":4,"nodes":9}"#).as_deref(),
            Some("nodes")
        );
        assert_eq!(
            duplicate(r#"{"timing":{"heartbeat_ms":5,"heartbeat_ms":6}}"#).as_deref(),
            Some("timing.heartbeat_ms")
        );
        assert_eq!(
            duplicate(r#"{"faults":[{"at_ms":1,"crash":1},{"at_ms":1,"at_ms":2}]}"#).as_deref(),
            Some("faults[1].at_ms")
        );
    }

    #[test]
    fn values_are_those_serde_json_reads() {
        let text = r#"{"a":[1,-2,3.5,"x",true,null,{"b":{}}],"c":18446744073709551615}"#;
        assert_eq!(
            parse(text).ok(),
            Some(serde_json::from_str::<Value>(text).unwrap())
        );
        assert!(matches!(parse("[1,"), Err(StrictError::Syntax(_))));
        assert!(matches!(parse("{} x"), Err(StrictError::Syntax(_))));
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(
            matches!(parse(&deep), Err(StrictError::Syntax(_))),
            "serde_json's depth limit holds"
        );
    }
}
