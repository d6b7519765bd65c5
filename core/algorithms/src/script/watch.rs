//! What one handler call holds, watched while it runs: what the call can
//! reach (`this`, `ctx.persist` and the variables of the functions in
//! progress) is measured every [`CHECK_EVERY`] operations, and the call
//! stops with a named error when a value nests deeper than
//! [`MAX_VALUE_DEPTH`] or the whole holds more than [`MAX_HELD_BYTES`]
//! (docs/ARCHITECTURE.md, Limits and why).
//!
//! Why it is needed: the interpreter checks each value against its size
//! limits on its own (an array of 10,000 items, a string of 16 KiB), not
//! the whole it is stored in. `this[k] = a` or `arr[i] = big` in a loop
//! checks only the item, so one call could grow a map of ten thousand
//! ten-thousand-item arrays and take the process's memory before the
//! state's check after the call (tests/hostile/cli/grow-*.rhai); and
//! `a = [a]` in a loop nests a value deeper every time, each step walking
//! the whole value (9,000 levels took 2 s of one call, and a stack as
//! deep as the value, which the page's wasm did not have: P3).
//!
//! How: at a variable read (`program::interpreter`'s `on_var` hook, which
//! also checks the operation budget and hands over the scope and `this`)
//! once the call's operation count has passed the next multiple of
//! [`CHECK_EVERY`]. Each operation stores at most one value the
//! interpreter has checked on its own, so between two measures what a
//! call holds grows by at most [`CHECK_EVERY`] such values. Only
//! operations count, not time or memory, so where a call stops is a
//! function of the script and the run, the same natively and in wasm.
//! A called function has a scope of its own and cannot see its caller's:
//! the bytes of each caller's variables at their last measure are kept
//! per call level and added, as `this` is when a function called without
//! it runs.
//!
//! What it does not see: a loop that reads no variable at all (only
//! `this` and literals) is not measured while it runs; `this` is still
//! checked against the state's limit when the call returns, and the
//! interpreter's own limits and the operation budget bound the loop.
//!
//! Why this hook, by measurement (callgrind instructions of the release
//! CLI, `election check --script tests/scripts/raft-double-vote.rhai
//! --seeds 1..20`: 2,110 M without a watch): the first version used
//! Rhai's debugger interface (feature `debugging`), a callback at every
//! statement and expression that also keeps a call stack with a copy of
//! every function's arguments: 3,056 M (+45%; `run` of the Bully
//! template on 32 nodes +40%). Its statements also missed most of what
//! grows: a method call (`a.push(x)`) is not a statement to it, and the
//! statements inside an index (`m[`k${k}`] = a`) came with an empty
//! scope. The variable hook is called already for the budget; the watch
//! adds a comparison and a look at the variable per read and a walk
//! every [`CHECK_EVERY`] operations: 2,157 M (+2.2%; Bully +1.4%).
//!
//! What a walk costs is charged to the call's operation budget (one
//! operation per [`BYTES_PER_OPERATION`] bytes walked), so a call that
//! holds a lot runs out of budget sooner, as its real cost says it
//! should. So is a read of a large variable (one operation per
//! [`ITEMS_PER_OPERATION`] of its items, not counting nested ones): the
//! read may copy it whole (`let b = a`), which the interpreter counts as
//! one operation, so copying a 9,000-item array in a loop ran for 10 s to
//! a minute before the budget stopped it (tests/hostile/cli/copy-loop.rhai).
//! A read that does not copy (`a[i]`) is charged the same: a loop over a
//! 9,000-item array by index costs about a third of the budget more.

use super::value;
use rhai::{EvalAltResult, EvalContext, Position};
use std::cell::{Cell, RefCell};

/// Operations between two measures of what a call holds.
pub const CHECK_EVERY: u64 = 256;

/// Most bytes (estimated, as `value::measure` counts them) one handler
/// call may hold at once in `this`, `ctx.persist` and its variables:
/// 64 times a node's state limit, room for copies of the state and
/// large working arrays, and far inside the CLI's 2 GB and the page's
/// memory with the growth between two measures added.
pub const MAX_HELD_BYTES: usize = 16 * 1024 * 1024;

/// Deepest nesting of arrays and maps in any value a call holds: the
/// state's limit (`value::MAX_STATE_DEPTH`), so a value that could not
/// be kept in `this` is refused as soon as it is built.
pub const MAX_VALUE_DEPTH: usize = value::MAX_STATE_DEPTH;

/// Bytes walked per operation charged to the call's budget.
pub const BYTES_PER_OPERATION: usize = 1024;

/// Items of an array or map read from a variable (or 16-byte pieces of
/// a string) per operation charged to the call's budget: a read may copy
/// the whole value, which the interpreter counts as one operation.
pub const ITEMS_PER_OPERATION: usize = 256;

/// The value of the run-time error that stops a handler at one of these
/// limits, before the message (recognised in `program::innermost`).
pub const HELD_STOP: &str = "\u{0}held: ";

/// The watch's counters for the call in progress (reset by [`Watch::start`]).
#[derive(Default)]
pub struct Watch {
    /// The operation count at which the next measure is due.
    due: Cell<u64>,
    /// Bytes of `this` at its last measure: a function called without
    /// `this` (not as a method) cannot see or change it, but the call
    /// still holds it.
    this_bytes: Cell<usize>,
    /// Bytes of the variables of each call level at its last measure
    /// (index: the interpreter's call level): a called function cannot
    /// see its callers' variables, but the call still holds them.
    levels: RefCell<Vec<usize>>,
}

impl Watch {
    /// A new handler call begins.
    pub fn start(&self) {
        self.due.set(CHECK_EVERY);
        self.this_bytes.set(0);
        self.levels.borrow_mut().clear();
    }

    /// The variable `index` places from the end of the scope (0: not
    /// known before, searched by name) is about to be read: charges its
    /// items to the budget and, once a measure is due, measures what the
    /// call holds; an error past a limit.
    pub fn read(
        &self,
        persist: impl Fn(&mut value::Held) -> Result<(), String>,
        index: usize,
        context: &mut EvalContext,
    ) -> Result<(), Box<EvalAltResult>> {
        let mut operations = context.global_runtime_state().num_operations;
        if index > 0
            && let Some((_, _, v)) = context.scope().iter_raw().nth(index - 1)
        {
            let items = match () {
                () if v.is_array() => v.read_lock::<rhai::Array>().map_or(0, |a| a.len()),
                () if v.is_map() => v.read_lock::<rhai::Map>().map_or(0, |m| m.len()),
                () if v.is_string() => {
                    v.read_lock::<rhai::ImmutableString>()
                        .map_or(0, |s| s.len())
                        / 16
                }
                () => 0,
            };
            operations = operations.saturating_add((items / ITEMS_PER_OPERATION) as u64);
        }
        let mut checked = Ok(());
        if operations >= self.due.get() {
            let mut held = value::Held::new(MAX_HELD_BYTES, MAX_VALUE_DEPTH);
            checked = self.measure(persist, context, &mut held);
            operations = operations.saturating_add((held.bytes() / BYTES_PER_OPERATION) as u64);
            self.due.set(operations.saturating_add(CHECK_EVERY));
        }
        context.global_runtime_state_mut().num_operations = operations;
        checked.map_err(|message| {
            EvalAltResult::ErrorRuntime(format!("{HELD_STOP}{message}").into(), Position::NONE)
                .into()
        })
    }

    fn measure(
        &self,
        persist: impl Fn(&mut value::Held) -> Result<(), String>,
        context: &EvalContext,
        held: &mut value::Held,
    ) -> Result<(), String> {
        match context.this_ptr() {
            Some(this) => {
                let before = held.bytes();
                held.add("`this`", this)?;
                self.this_bytes.set(held.bytes() - before);
            }
            None => held.add_bytes(self.this_bytes.get())?,
        }
        persist(held)?;
        let before = held.bytes();
        for (name, _, v) in context.scope().iter_raw() {
            held.add(format_args!("the variable `{name}`"), v)?;
        }
        let mine = held.bytes() - before;
        let mut levels = self.levels.borrow_mut();
        let level = context.call_level();
        levels.resize(level + 1, 0);
        levels[level] = mine;
        held.add_bytes(levels[..level].iter().sum())
    }
}
