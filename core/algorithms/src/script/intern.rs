//! Interned names: message kinds and timer names a script makes up at
//! run time become `&'static str`, as the built-in algorithms' static
//! names are, so the engine, the metrics and the trace treat both alike
//! (core/algorithms/src/script/mod.rs, module docs, How kinds work).
//!
//! The table is process-wide and only grows: a name is stored once
//! whatever the number of runs that use it. Which names exist changes no
//! run (a run orders its kinds by first use, see the engine's
//! `kind_of`); the table only saves memory. It is bounded by
//! [`MAX_INTERNED`] names of at most [`MAX_NAME_LEN`] bytes.

use std::collections::BTreeSet;
use std::sync::Mutex;

/// Longest name, in bytes.
pub const MAX_NAME_LEN: usize = 40;
/// Most distinct names one process keeps (about 4 MB at most).
pub const MAX_INTERNED: usize = 100_000;

static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// Checks that `name` is a usable kind or timer name: 1 to
/// [`MAX_NAME_LEN`] bytes of ASCII letters, digits, `_`, `-` or `.`.
pub fn check_name(what: &str, name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(format!(
            "{what} must be 1 to {MAX_NAME_LEN} characters long, got {} ({name:?})",
            name.len()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(format!(
            "{what} {name:?} has {c:?}; use letters, digits, '_', '-' or '.'"
        ));
    }
    Ok(())
}

/// The one `&'static str` for `name`.
pub fn intern(name: &str) -> Result<&'static str, String> {
    let mut names = NAMES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = names.get(name) {
        return Ok(known);
    }
    if names.len() >= MAX_INTERNED {
        return Err(format!(
            "more than {MAX_INTERNED} distinct message kinds and timer names in this session"
        ));
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    Ok(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_name_is_the_same_str() {
        let a = intern("ELECTION_x").unwrap();
        let b = intern(&String::from("ELECTION_x")).unwrap();
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("kind", "OK").is_ok());
        assert!(check_name("kind", "").unwrap_err().contains("1 to 40"));
        assert!(check_name("kind", "a b").unwrap_err().contains("' '"));
        assert!(check_name("kind", &"x".repeat(41)).is_err());
    }
}
