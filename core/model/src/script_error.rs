//! [`ScriptError`]: what stops a scripted run
//! (core/algorithms/src/script/mod.rs, module docs, Limits and errors). Always
//! compiled, so every build's run summary has the same shape; only a build with
//! the `script` feature
//! ever makes one.

use serde::Serialize;
use std::fmt;

/// A script error: a syntax error found when the scenario is checked, or
/// an error in a handler (a type error, an unknown function, the
/// operation budget or a memory limit run out) that stopped the run.
/// The page shows it at its line; `election run` prints it and exits 2;
/// the JSON outputs carry it as the object `script_error`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScriptError {
    /// The node whose handler failed (its `protocol::NodeId`); `None` for
    /// a syntax error.
    pub node: Option<u32>,
    /// The handler that failed (`on_start`, `on_message`, `on_timer`,
    /// `claims`); `None` for a syntax error.
    pub handler: Option<String>,
    /// Line in the script (from 1), when the interpreter knows it.
    pub line: Option<u32>,
    /// Column in that line (from 1), when the interpreter knows it.
    pub column: Option<u32>,
    /// Simulated (true) time of the failing event, ms; `None` for a
    /// syntax error.
    pub at_ms: Option<f64>,
    /// What went wrong, without the position.
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "script error")?;
        let mut parts: Vec<String> = Vec::new();
        if let Some(node) = self.node {
            parts.push(format!("node n{node}"));
        }
        if let Some(handler) = &self.handler {
            parts.push(format!("in {handler}"));
        }
        match (self.line, self.column) {
            (Some(l), Some(c)) => parts.push(format!("line {l}, column {c}")),
            (Some(l), None) => parts.push(format!("line {l}")),
            _ => {}
        }
        if let Some(at) = self.at_ms {
            parts.push(format!("at {at} ms"));
        }
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScriptError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_names_node_handler_line_and_time() {
        let e = ScriptError {
            node: Some(3),
            handler: Some("on_message".into()),
            line: Some(12),
            column: Some(5),
            at_ms: Some(153.25),
            message: "Function not found: foo".into(),
        };
        assert_eq!(
            e.to_string(),
            "script error (node n3, in on_message, line 12, column 5, at 153.25 ms): Function not found: foo"
        );
    }
}
