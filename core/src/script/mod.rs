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
mod error;
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

pub use error::ScriptError;
#[cfg(feature = "script")]
pub use node::ScriptNode;
#[cfg(feature = "script")]
pub use program::Program;

/// The algorithm id of a scripted scenario (`"algorithm": "script"`).
pub const ALGORITHM: &str = "script";

/// Largest script source, in bytes (the scenario and its share link carry
/// it whole).
pub const MAX_SCRIPT_BYTES: usize = 32 * 1024;

/// Whether this build runs scripts (the `script` feature).
pub const AVAILABLE: bool = cfg!(feature = "script");

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
