//! The one error type of the command: a message for stderr and an exit code.

use std::fmt;

/// Exit code for bad input: a missing or invalid scenario, a bad flag value
/// (the same code clap uses for its own usage errors).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a failure that is not the user's input (writing output).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of `election run` when the run stopped at one of the
/// simulator's limits (core/engine/src/limits.rs): the summary is printed,
/// and stderr says which limit and where.
pub const EXIT_LIMIT: u8 = 3;

/// A failure to report on stderr, with the process exit code to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// One line naming the problem.
    pub message: String,
    /// Process exit code.
    pub code: u8,
}

impl CliError {
    /// A problem with what the user gave us (exit code 2).
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_BAD_INPUT,
        }
    }

    /// A run stopped at a limit (exit code 3).
    pub fn limit(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_LIMIT,
        }
    }

    /// A failure of the tool itself (exit code 1).
    pub fn failure(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_FAILURE,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}
