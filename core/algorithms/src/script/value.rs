//! The values a message or `ctx.persist` may carry, and how they are
//! hashed and shown: plain data only (nothing, booleans, integers,
//! characters, strings, arrays, object maps), so that a message's hash is
//! a function of its content on every target (docs/ARCHITECTURE.md,
//! Determinism rules) and a message cannot smuggle a function or `ctx`.

use rhai::{Array, Dynamic, ImmutableString, Map};
use std::hash::Hasher;

/// Deepest nesting of arrays and maps inside a message.
const MAX_DEPTH: usize = 16;

/// `Ok` when `v` is plain data; else the type found.
pub fn check_plain(v: &Dynamic) -> Result<(), String> {
    check_at(v, 0)
}

fn check_at(v: &Dynamic, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} levels deep"));
    }
    if v.is_unit() || v.is_bool() || v.is_int() || v.is_char() || v.is_string() {
        return Ok(());
    }
    if let Some(a) = v.read_lock::<Array>() {
        return a.iter().try_for_each(|x| check_at(x, depth + 1));
    }
    if let Some(m) = v.read_lock::<Map>() {
        return m.values().try_for_each(|x| check_at(x, depth + 1));
    }
    Err(format!(
        "only plain data (numbers, strings, true/false, arrays, maps) can be sent or persisted, got {}",
        v.type_name()
    ))
}

/// Feeds `v` into `h`: a tag per type, then the content, lengths first.
pub fn hash(v: &Dynamic, h: &mut impl Hasher) {
    if v.is_unit() {
        h.write_u64(0);
    } else if let Ok(b) = v.as_bool() {
        h.write_u64(1);
        h.write_u64(u64::from(b));
    } else if let Ok(i) = v.as_int() {
        h.write_u64(2);
        h.write_u64(i as u64);
    } else if let Ok(c) = v.as_char() {
        h.write_u64(3);
        h.write_u64(u64::from(c));
    } else if let Some(s) = v.read_lock::<ImmutableString>() {
        h.write_u64(4);
        hash_str(s.as_str(), h);
    } else if let Some(a) = v.read_lock::<Array>() {
        h.write_u64(5);
        h.write_u64(a.len() as u64);
        for x in a.iter() {
            hash(x, h);
        }
    } else if let Some(m) = v.read_lock::<Map>() {
        h.write_u64(6);
        hash_map(&m, h);
    } else {
        h.write_u64(7);
        hash_str(v.type_name(), h);
    }
}

/// Feeds a map into `h` in key order (Rhai's maps are B-trees).
pub fn hash_map(m: &Map, h: &mut impl Hasher) {
    h.write_u64(m.len() as u64);
    for (k, x) in m {
        hash_str(k.as_str(), h);
        hash(x, h);
    }
}

fn hash_str(s: &str, h: &mut impl Hasher) {
    h.write_u64(s.len() as u64);
    h.write(s.as_bytes());
}

/// `v` as a short text for the event log and the inspector: Rhai's own
/// notation, cut at `max` characters.
pub fn show(v: &Dynamic, max: usize) -> String {
    let text = if v.is_string() {
        format!("{:?}", v.to_string())
    } else if v.is_unit() {
        "()".to_string()
    } else {
        format!("{v:?}")
    };
    cut(text, max)
}

/// `text` cut to at most `max` characters, with an ellipsis.
pub fn cut(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Rough heap bytes of `v`, for bounding time-travel checkpoints.
pub fn approx_bytes(v: &Dynamic) -> usize {
    if let Some(s) = v.read_lock::<ImmutableString>() {
        32 + s.len()
    } else if let Some(a) = v.read_lock::<Array>() {
        32 + a.iter().map(approx_bytes).sum::<usize>()
    } else if let Some(m) = v.read_lock::<Map>() {
        48 + m
            .iter()
            .map(|(k, x)| 32 + k.len() + approx_bytes(x))
            .sum::<usize>()
    } else {
        16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_engine::trace::TraceHasher;

    fn h(v: &Dynamic) -> u64 {
        let mut hasher = TraceHasher::default();
        hash(v, &mut hasher);
        hasher.finish()
    }

    #[test]
    fn plain_data_is_accepted_and_hashed_by_content() {
        let mut m = Map::new();
        m.insert("kind".into(), Dynamic::from("ELECTION"));
        m.insert("id".into(), Dynamic::from(3 as rhai::INT));
        let a = Dynamic::from_map(m.clone());
        let b = Dynamic::from_map(m);
        assert!(check_plain(&a).is_ok());
        assert_eq!(h(&a), h(&b));
        assert_ne!(h(&Dynamic::from(1 as rhai::INT)), h(&Dynamic::from(true)));
        assert_ne!(h(&Dynamic::from("ab")), h(&Dynamic::from("ba")));
    }

    #[test]
    fn functions_are_not_plain() {
        let f = Dynamic::from(rhai::FnPtr::new("f").unwrap());
        assert!(check_plain(&f).unwrap_err().contains("plain data"));
    }
}
