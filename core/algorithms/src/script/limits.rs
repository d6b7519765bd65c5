//! The limits of a scripted run's interpreter and of what one handler
//! call may do, with the reason for each (docs/ARCHITECTURE.md, Limits
//! and why): apart, so that the `ctx` API (api.rs) and the interpreter's
//! set-up (program.rs) both take them from below.

/// Operations one handler call may take (a loop iteration, a function
/// call, an expression each count): about 20 to 100 ms of script, so a
/// runaway loop stops with a named error well within a second.
pub const MAX_OPERATIONS: u64 = 1_000_000;
/// Operations past [`MAX_OPERATIONS`] before the interpreter's own limit
/// stops a handler. The budget itself is enforced at the first variable
/// read past it (`on_var` in `program::interpreter`), an error that keeps the
/// position of the line that was running; the interpreter's limit, whose
/// error carries only the position of the outermost call (so the
/// handler's own line), stops only a loop that reads no variable at all.
pub const BUDGET_SLACK: u64 = 10_000;
/// Deepest function-call nesting (recursion).
pub const MAX_CALL_LEVELS: usize = 32;
/// Deepest expression nesting, at the top level and inside functions.
pub const MAX_EXPR_DEPTHS: (usize, usize) = (64, 48);
/// Longest string, in bytes.
pub const MAX_STRING_SIZE: usize = 16 * 1024;
/// Most elements in an array (nested arrays counted together).
pub const MAX_ARRAY_SIZE: usize = 10_000;
/// Most properties in an object map (nested maps counted together).
pub const MAX_MAP_SIZE: usize = 10_000;
/// Most variables in scope at once.
pub const MAX_VARIABLES: usize = 1_000;
/// Most functions a script may define.
pub const MAX_FUNCTIONS: usize = 256;
/// Most distinct message kinds and timer names one run may use.
pub const MAX_NAMES_PER_RUN: usize = 64;
/// Largest message, in estimated bytes of its data (a message crosses
/// the queue whole, and a run holds up to a million on the wire).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Most message data one handler call may send, every copy counted: a
/// 1,024-node broadcast of a 16 KiB message. Bounds what one call holds
/// before the engine carries it out.
pub const MAX_SENT_BYTES_PER_CALL: usize = 16 * 1024 * 1024;
/// Most requests (sends, timers, notes, roles) one handler call may make:
/// a hundred broadcasts to 1,023 peers.
pub const MAX_COMMANDS_PER_CALL: usize = 100_000;
/// Most memory a node's state (`this` and `ctx.persist`) may hold, by
/// the estimate of `value::approx_bytes`, checked after every handler
/// call: 1,024 nodes at the limit fit in the run's memory limit
/// (core/engine/src/limits.rs).
pub const MAX_STATE_BYTES: usize = 256 * 1024;
