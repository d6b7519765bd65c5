//! Scripted algorithms: students' own election algorithms, written in
//! Rhai and run by the same engine, faults, checks and counts as the
//! built-in ones (docs/ARCHITECTURE.md, Scripted algorithms).
//!
//! - [`ScriptError`] (always compiled): what stops a scripted run.
//! - With the `script` feature (the CLI, the page's tools module; never
//!   the player module): `program` (the interpreter's settings, limits and
//!   how a handler is called), `api` (the `ctx` a handler gets), `node`
//!   (the protocol the engine runs), `value` (plain message data), `intern`
//!   (run-time kind and timer names), `templates` (the scripts shipped with
//!   the playground).

#[cfg(feature = "script")]
mod api;
#[cfg(feature = "script")]
pub mod intern;
#[cfg(feature = "script")]
pub mod node;
#[cfg(feature = "script")]
pub mod program;
#[cfg(feature = "script")]
pub mod templates;
#[cfg(feature = "script")]
mod value;

/// What stops a scripted run; defined with the protocol, whose
/// [`crate::protocol::Protocol::take_error`] returns it.
pub use crate::script_error::ScriptError;
#[cfg(feature = "script")]
pub use node::ScriptNode;
#[cfg(feature = "script")]
pub use program::Program;

/// The scripted algorithm's entry in the registry
/// ([`crate::algorithms::SCRIPT`]): its kinds are named at run time and
/// its claims come from the script; it takes the scenario's `script`.
#[cfg(feature = "script")]
pub const ENTRY: crate::algorithms::Entry = crate::algorithms::Entry {
    id: ALGORITHM,
    name: "Script",
    summary: "Your own algorithm, written in Rhai: fn on_start(ctx), fn on_message(ctx, from, msg), fn on_timer(ctx, name)",
    layout: crate::algorithms::Layout::Ring,
    kinds: &[],
    extras: &[],
    observers: crate::algorithms::Observers::None,
    takes_script: true,
    claims: crate::protocol::Safety::OneLeaderPerComponent,
    builder: Some(crate::algorithms::engine::<ScriptNode>),
    theory: None,
    tradeoff: None,
};

/// The algorithm id of a scripted scenario (`"algorithm": "script"`).
pub const ALGORITHM: &str = crate::scenario::SCRIPTED;

/// Largest script source, in bytes (the scenario and its share link carry
/// it whole).
pub const MAX_SCRIPT_BYTES: usize = 32 * 1024;

/// Whether this build runs scripts (the `script` feature).
pub const AVAILABLE: bool = cfg!(feature = "script");

use crate::scenario::{Scenario, ScenarioError};
use crate::share::MAX_LINK_CHARS;

/// Checks a scenario's script: compiles it. A build without the
/// interpreter refuses every script.
pub fn check(source: &str) -> Result<(), ScriptError> {
    #[cfg(feature = "script")]
    {
        Program::compile(source).map(|_| ())
    }
    #[cfg(not(feature = "script"))]
    {
        let _ = source;
        Err(ScriptError {
            node: None,
            handler: None,
            line: None,
            column: None,
            at_ms: None,
            message:
                "this build has no script interpreter (the page runs scripts in its tools module)"
                    .into(),
        })
    }
}

/// The error for a scripted scenario in a build without the `script`
/// feature (the registry does not know `script` there): on field
/// `algorithm`, whose [`ScenarioError::needs`] names a build that runs
/// scripts. `None` for any other scenario.
pub fn unbuilt(s: &Scenario) -> Option<ScenarioError> {
    if s.algorithm != ALGORITHM {
        return None;
    }
    let mut err = ScenarioError::new(
        "algorithm",
        "this build runs no scripts (the page runs them in its tools module, the CLI always)",
    );
    err.needs = Some(ALGORITHM);
    Some(err)
}

/// The scenario rules of scripted algorithms (the registry checks them
/// for every scenario): a scripted scenario has a script that compiles
/// and fits a share link; no other has one.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let scripted = s.algorithm == ALGORITHM;
    match &s.script {
        None if scripted => Err(ScenarioError::new(
            "script",
            "a scripted scenario (\"algorithm\": \"script\") needs the script's source",
        )),
        None => Ok(()),
        Some(_) if !scripted => Err(ScenarioError::new(
            "script",
            format!(
                "only a scripted scenario (\"algorithm\": \"script\") has a script; this one runs {:?}",
                s.algorithm
            ),
        )),
        Some(source) if source.len() > MAX_SCRIPT_BYTES => Err(ScenarioError::new(
            "script",
            format!(
                "is {} bytes; the limit is {} bytes",
                source.len(),
                MAX_SCRIPT_BYTES
            ),
        )),
        Some(source) if source.trim().is_empty() => Err(ScenarioError::new("script", "is empty")),
        // A long script must still fit in a share link (which carries it
        // whole): checked only for long ones, as deflating costs.
        Some(source) if source.len() > 4096 && crate::share::encode(s).len() > MAX_LINK_CHARS => {
            Err(ScenarioError::new(
                "script",
                format!(
                    "makes the scenario's share link {} characters long; the limit is {MAX_LINK_CHARS}: shorten the script",
                    crate::share::encode(s).len()
                ),
            ))
        }
        Some(source) => check(source).map_err(|e| {
            let at = match (e.line, e.column) {
                (Some(l), Some(c)) => format!("line {l}, column {c}: "),
                (Some(l), None) => format!("line {l}: "),
                _ => String::new(),
            };
            let mut err = ScenarioError::new("script", format!("{at}{}", e.message));
            err.script_at = e.line.map(|l| (l, e.column));
            err
        }),
    }
}
