//! The values a message or `ctx.persist` may carry, and how they are
//! hashed and shown: plain data only (nothing, booleans, integers,
//! characters, strings, arrays, object maps), so that a message's hash is
//! a function of its content on every target (docs/ARCHITECTURE.md,
//! Determinism rules) and a message cannot smuggle a function or `ctx`.

use rhai::{Array, Dynamic, ImmutableString, Map};
use std::hash::Hasher;

/// Deepest nesting of arrays and maps inside a message or `ctx.persist`.
const MAX_DEPTH: usize = 16;

/// Deepest nesting of arrays and maps in a node's state, `this`, checked
/// after every handler call (docs/ARCHITECTURE.md, Limits and why): past
/// it, walking the state (copying it for a checkpoint, showing it in the
/// inspector, dropping it) would need a stack as deep as the nesting,
/// which the page's wasm does not have.
pub const MAX_STATE_DEPTH: usize = 32;

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

/// Most estimated bytes of a value [`show`] writes out in full; a larger
/// array or map is shown by its size, so that a large message costs no
/// long text on every send.
const MAX_SHOWN_BYTES: usize = 4096;

/// `v` as a short text for the event log and the inspector: Rhai's own
/// notation, cut at `max` characters; an array or map that is large or
/// deeply nested as its size (`[10000 items]`, `#{300 fields}`).
pub fn show(v: &Dynamic, max: usize) -> String {
    let text = if v.is_string() {
        format!("{:?}", v.to_string())
    } else if v.is_unit() {
        "()".to_string()
    } else if measure(v, MAX_DEPTH).is_none_or(|b| b > MAX_SHOWN_BYTES) {
        if let Some(a) = v.read_lock::<Array>() {
            format!("[{} items]", a.len())
        } else if let Some(m) = v.read_lock::<Map>() {
            format!("#{{{} fields}}", m.len())
        } else {
            v.type_name().to_string()
        }
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

/// Rough heap bytes of `v`, for bounding time-travel checkpoints and the
/// run's memory; a value nested deeper than [`MAX_STATE_DEPTH`] (which a
/// run never keeps: see [`check_state`]) counts as `usize::MAX / 4`.
pub fn approx_bytes(v: &Dynamic) -> usize {
    measure(v, MAX_STATE_DEPTH).unwrap_or(usize::MAX / 4)
}

/// Rough heap bytes of `v`, or `None` when arrays and maps nest in it
/// more than `max_depth` levels deep. Recurses at most `max_depth + 1`
/// levels, so it is safe on any value.
pub fn measure(v: &Dynamic, max_depth: usize) -> Option<usize> {
    let mut held = Held::new(usize::MAX, max_depth);
    held.walk(v, 0).then_some(held.bytes)
}

/// The values a copy of `v` clones: `v` and every item of its arrays
/// and maps, at every level down to `max_depth` (deeper ones are left
/// out: the handler's watch refuses such a value at its next measure).
/// A string counts as one (a copy shares its text).
pub fn count_values(v: &Dynamic, max_depth: usize) -> usize {
    let nested = |x: &Dynamic| {
        if max_depth == 0 {
            1
        } else {
            count_values(x, max_depth - 1)
        }
    };
    if let Some(a) = v.read_lock::<Array>() {
        return 1 + a.iter().map(nested).sum::<usize>();
    }
    if let Some(m) = v.read_lock::<Map>() {
        return 1 + m.values().map(nested).sum::<usize>();
    }
    1
}

/// A running measure of several values at once (what a handler call
/// holds, `script::watch`): their bytes as [`measure`] counts them, the
/// walk stopping as soon as they pass `max_bytes` or one nests deeper
/// than `max_depth`, so a measure never costs more than the limit and
/// never recurses deeper than `max_depth + 1` levels.
pub struct Held {
    bytes: usize,
    max_bytes: usize,
    max_depth: usize,
}

impl Held {
    /// Nothing measured yet.
    pub fn new(max_bytes: usize, max_depth: usize) -> Self {
        Self {
            bytes: 0,
            max_bytes,
            max_depth,
        }
    }

    /// Bytes counted so far (what the walk cost).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Counts `bytes` measured before.
    pub fn add_bytes(&mut self, bytes: usize) -> Result<(), String> {
        self.bytes = self.bytes.saturating_add(bytes);
        self.over()
    }

    /// Counts `v`, held under `name`; an error naming the limit past one.
    pub fn add(&mut self, name: impl std::fmt::Display, v: &Dynamic) -> Result<(), String> {
        if self.walk(v, 0) {
            return self.over();
        }
        Err(format!(
            "{name} nests arrays and maps more than {} levels deep: the limit of a value a handler holds",
            self.max_depth
        ))
    }

    fn over(&self) -> Result<(), String> {
        if self.bytes > self.max_bytes {
            return Err(format!(
                "the handler holds more than {} MiB at once (`this`, ctx.persist and its variables, as the state's limit counts them): a value grown in a loop?",
                self.max_bytes >> 20
            ));
        }
        Ok(())
    }

    /// Adds `v`'s bytes; false when it nests too deep. Stops early (true)
    /// once past `max_bytes`. Integers in an array are counted in the
    /// loop, without a call: five times faster on arrays of integers
    /// (grow-array-by-index.rhai, 94% in this walk, went from 1,310 M to
    /// 251 M instructions to the budget; an integer test at the top of
    /// `walk` instead, with the call, 938 M).
    fn walk(&mut self, v: &Dynamic, depth: usize) -> bool {
        if self.bytes > self.max_bytes {
            return true;
        }
        if let Some(s) = v.read_lock::<ImmutableString>() {
            self.bytes = self.bytes.saturating_add(32 + s.len());
            return true;
        }
        let nested = v.is_array() || v.is_map();
        if nested && depth >= self.max_depth {
            return false;
        }
        if let Some(a) = v.read_lock::<Array>() {
            self.bytes = self.bytes.saturating_add(32);
            // The walk is charged by the bytes it counts (script/watch.rs,
            // BYTES_PER_OPERATION): what it costs a byte is what a charged
            // operation costs.
            return a.iter().all(|x| {
                if x.is_int() {
                    self.bytes = self.bytes.saturating_add(16);
                    true
                } else {
                    self.walk(x, depth + 1)
                }
            });
        }
        if let Some(m) = v.read_lock::<Map>() {
            self.bytes = self.bytes.saturating_add(48);
            return m.iter().all(|(k, x)| {
                self.bytes = self.bytes.saturating_add(32 + k.len());
                self.walk(x, depth + 1)
            });
        }
        self.bytes = self.bytes.saturating_add(16);
        true
    }
}

/// Checks a node's state after a handler call: `this` nests at most
/// [`MAX_STATE_DEPTH`] levels, and `this` with `persist` holds at most
/// `max_bytes` (estimated): the bytes held, or an error that says which
/// limit, in a script's words.
pub fn check_state(state: &Dynamic, persist: &Map, max_bytes: usize) -> Result<usize, String> {
    let Some(own) = measure(state, MAX_STATE_DEPTH) else {
        return Err(format!(
            "`this` nests arrays and maps more than {MAX_STATE_DEPTH} levels deep: the limit of a node's state"
        ));
    };
    let mut total = own;
    for (k, x) in persist.iter() {
        total = total.saturating_add(32 + k.len() + approx_bytes(x));
    }
    if total > max_bytes {
        return Err(format!(
            "the node's state (`this` and ctx.persist) holds about {} KiB; the limit is {} KiB",
            total.div_ceil(1024),
            max_bytes / 1024
        ));
    }
    Ok(total)
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
    fn deep_values_are_measured_without_walking_them_all() {
        let mut v = Dynamic::from_array(Array::new());
        for _ in 0..5000 {
            v = Dynamic::from_array(vec![v]);
        }
        assert_eq!(measure(&v, MAX_STATE_DEPTH), None);
        assert_eq!(show(&v, 80), "[1 items]");
        let err = check_state(&v, &Map::new(), 1 << 20).unwrap_err();
        assert!(err.contains("more than 32 levels deep"), "{err}");
        let mut m = Map::new();
        m.insert("big".into(), Dynamic::from("x".repeat(5000)));
        let state = Dynamic::from_map(m);
        assert_eq!(
            measure(&state, MAX_STATE_DEPTH),
            Some(48 + 32 + 3 + 32 + 5000)
        );
        let err = check_state(&state, &Map::new(), 4096).unwrap_err();
        assert_eq!(
            err,
            "the node's state (`this` and ctx.persist) holds about 5 KiB; the limit is 4 KiB"
        );
        // Dropping it here takes a stack as deep as the value: the test
        // thread's is deep enough for 5000 levels.
    }

    #[test]
    fn functions_are_not_plain() {
        let f = Dynamic::from(rhai::FnPtr::new("f").unwrap());
        assert!(check_plain(&f).unwrap_err().contains("plain data"));
    }
}
