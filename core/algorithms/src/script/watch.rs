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
//! What it does not see between two variable reads: `this` is not a
//! variable, so a loop over `this` alone (`for i in 0..n { this.b =
//! this.a }`, `this.a.contains(x)`) reads none and gives the hook no look
//! at what it copies or scans. Two rules bound it (below): every
//! operation is charged for what the call held at its last measure, and
//! past [`MAX_BLIND_OPERATIONS`] without a variable read as if it held
//! the largest value there can be ([`BLIND_RATE`]; the interpreter's
//! progress hook, [`Watch::progress`], which sees only that an operation
//! ran, counts them and stops the call past its budget).
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
//! Counting every operation in the progress hook (for the charge of what
//! is held and callbacks' operations) costs 4.2% more: 1,924 M to 2,006 M
//! instructions for `--seeds 1..5`, the same outcome.
//!
//! What a walk costs is charged to the call's operation budget (one
//! operation per [`BYTES_PER_OPERATION`] bytes walked), so a call that
//! holds a lot runs out of budget sooner, as its real cost says it
//! should. So is a read of a large variable. A read that copies (`let b
//! = a`, `f(a)`, `ctx.send(p, a)`, `for x in a`), which the interpreter
//! counts as one operation, clones every value of the array or map:
//! for a variable the script reads as a copy anywhere
//! (script/copies.rs, from the syntax tree at compile time, since the
//! hook cannot tell a copy from `a[i]`), one operation per
//! [`VALUES_PER_COPY_OPERATION`] values, nested ones counted. Before, a
//! copy was charged like any read and a loop copying a 9,000-item array
//! ran 0.35 s natively (a 0.41 s task on the page); now 0.07 s. A read
//! of a variable the script never copies (`a[i]`, `a.len()`,
//! `a.push(x)`) is charged one operation per [`ITEMS_PER_OPERATION`] of
//! its items, not counting nested ones, so a loop by index over a large
//! array stays affordable.
//!
//! And every operation is charged one more per [`HELD_BYTES_PER_OPERATION`]
//! bytes the call held at its last measure (at its start: the node's
//! state after its previous call, `ScriptNode::held_bytes`): one
//! operation may copy or scan anything the call holds (`this.b =
//! this.a`, `this.a.contains(x)`, `a == b`), up to 10,000 items the
//! interpreter counts as one. Without it, a handler copying `this`'s
//! 9,000-item array in a loop ran 27 s before the budget stopped it, and
//! one scanning it with `contains` over a minute (tests/hostile/cli/
//! this-copy.rhai, this-contains.rhai); with it, no hostile handler call
//! runs more than about a tenth of a second (the hostile suite prints
//! each case's time; core/tests/script_watch.rs the worst). A node that
//! keeps 16 KiB of state pays 17 per operation, so a call may run about
//! 60,000; 200 KiB (near the state's limit), about 5,000.
//!
//! The charges are set so that a call that reaches the budget costs
//! about what a loop of plain operations costs, whatever it does: by
//! callgrind instructions of the release CLI, 328 M for `loop { x += 1;
//! }`. Before [`CALLBACK_OPERATIONS`], a faster walk and the present
//! [`VALUES_PER_COPY_OPERATION`] and [`BLIND_RATE`], the hostile scripts
//! ran up to four times that (sort-loop 1,000 M, grow-array-by-index
//! 1,310 M, copy-loop 660 M, this-copy 575 M), and a handler call of
//! sort-loop was a 215 ms task on the page under load, past the page's
//! 200 ms bound (tests/browser/limits.test.js). Now none passes 380 M
//! (sort-loop 295 M, grow-array-by-index 243 M, copy-loop 376 M,
//! this-copy 327 M), and loops of callbacks cost 313 to 369 per charged
//! operation, against 998 to 1,628 before.

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

/// Items of an array or map read from a variable the script never
/// copies (or 16-byte pieces of a string) per operation charged to the
/// call's budget: a read in place (`a[i]`, `a.len()`) finds the value
/// without cloning it; a copy is charged by [`VALUES_PER_COPY_OPERATION`].
pub const ITEMS_PER_OPERATION: usize = 256;

/// Values cloned per operation charged for a read of a variable the
/// script copies somewhere (script/copies.rs): a copy clones every
/// value of an array or map, at every level: by callgrind, a value
/// cloned, checked against the size limits and dropped costs about a
/// third of a plain operation (a loop of plain operations to the budget
/// ran 328 M instructions). At four per operation a loop copying a
/// 9,000-item array ran 660 M to the budget (a 0.1 s task on the page,
/// twice that on a busy machine); at three, with the faster walk
/// (`value::Held`), 376 M.
pub const VALUES_PER_COPY_OPERATION: usize = 3;

/// Bytes held per extra operation charged for each operation (see the
/// module docs). By measurement (natively): copying a 4,000-item array
/// held in `this` and scanning a 9,000-item one with `contains` cost tens
/// of microseconds each, hundreds of plain operations; at one per KiB the
/// hostile loops stop within about 0.1 s, and building a 3,000-item array
/// item by item in one call still fits the budget (4,000 does not).
pub const HELD_BYTES_PER_OPERATION: usize = 1024;

/// Operations in a row without a variable read after which each further
/// one is charged as if the call held the largest value an operation can
/// touch ([`BLIND_RATE`]): between two reads nothing is measured, so a
/// loop over `this` alone could grow what it holds unseen. A loop that
/// does real work reads its loop variable or a local; a built-in's own
/// steps count too (`contains` on a 4,000-item array is about 4,000).
pub const MAX_BLIND_OPERATIONS: u64 = 1_000;

/// Extra operations charged for each operation past
/// [`MAX_BLIND_OPERATIONS`] without a variable read: twice what holding
/// an array of 10,000 items (the interpreter's largest, 16 bytes each)
/// is charged, since such an operation may copy it (`this.b =
/// this.a`), which costs more than holding it. At once (156) a loop
/// copying `this`'s 4,000-item array (tests/hostile/cli/this-copy.rhai)
/// ran 575 M instructions to the budget, 1.7 times a loop of plain
/// operations; at twice, 327 M. A loop that reads no variable at all
/// may still run about 4,000 operations.
pub const BLIND_RATE: u64 = (2 * 10_000 * 16 / HELD_BYTES_PER_OPERATION) as u64;

/// Extra operations charged for each call of a callback by a built-in
/// (a `sort` comparer, `map`, `filter`, `reduce`, `some`, `retain` and
/// the others), beyond the operations its body counts. The interpreter
/// counts the call of a callback as nothing and its body as one or two,
/// but setting it up (a copy of the run-time state, the arguments
/// cloned, a scope) costs about ten plain operations: by callgrind
/// instructions of the release CLI, with the budget reached, a loop of
/// plain operations took 328 per charged operation, and loops calling
/// `sort`, `map`, `filter`, `reduce`, `some` or `retain` on 8 items
/// 998 to 1,628. Uncharged, a sort in a loop ran a 215 ms task on the
/// page under load (tests/browser/limits.test.js, sort-loop.rhai).
pub const CALLBACK_OPERATIONS: u64 = 10;

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
    /// The call's operations, charged: one for each the interpreter
    /// counts, plus what is held (one per [`HELD_BYTES_PER_OPERATION`]),
    /// large reads and walks. Counted here, not in the interpreter's own
    /// count, because a callback (a `sort` comparer, `map`, `filter`)
    /// runs on a copy of that count which is dropped when it returns:
    /// a comparer's operations were never charged to the call.
    total: Cell<u64>,
    /// Extra operations charged for each operation: one per
    /// [`HELD_BYTES_PER_OPERATION`] bytes held at the last measure (at
    /// the call's start, the node's state's).
    rate: Cell<u64>,
    /// Operations since the last variable read.
    blind: Cell<u64>,
    /// The charged count past which [`Watch::progress`] stops the call.
    limit: Cell<u64>,
    /// The interpreter's own operation count at the last operation: a
    /// callback runs on a copy of the count taken when its built-in was
    /// called, so a count that does not rise says a callback has begun
    /// again (see [`CALLBACK_OPERATIONS`]).
    count: Cell<u64>,
}

impl Watch {
    /// A new handler call begins, holding `held` bytes (the node's state
    /// as its last call left it); [`Watch::progress`] stops it past
    /// `limit` charged operations (a variable read checks the budget
    /// before, naming its line).
    pub fn start(&self, held: usize, limit: u64) {
        self.limit.set(limit);
        self.due.set(CHECK_EVERY);
        self.this_bytes.set(0);
        self.levels.borrow_mut().clear();
        self.total.set(0);
        self.rate.set((held / HELD_BYTES_PER_OPERATION) as u64);
        self.blind.set(0);
        self.count.set(0);
    }

    /// The call's operations so far, charged (see [`Watch::read`]).
    pub fn total(&self) -> u64 {
        self.total.get()
    }

    /// The interpreter's progress hook, at every operation (in a
    /// callback's too), with the interpreter's own count `count`: counts
    /// it, charged for what is held (past [`MAX_BLIND_OPERATIONS`]
    /// without a variable read, at least [`BLIND_RATE`]) and, where the
    /// count did not rise, for a callback's call ([`CALLBACK_OPERATIONS`]:
    /// a callback called again by its built-in, or the built-in returned
    /// after its callbacks, so once per callback called); and says
    /// whether the call is past its limit. Between two reads this is all
    /// that sees the call run.
    pub fn progress(&self, count: u64) -> bool {
        let blind = self.blind.get() + 1;
        self.blind.set(blind);
        let rate = if blind > MAX_BLIND_OPERATIONS {
            self.rate.get().max(BLIND_RATE)
        } else {
            self.rate.get()
        };
        let callback = if count <= self.count.get() {
            CALLBACK_OPERATIONS
        } else {
            0
        };
        self.count.set(count);
        let total = self.total.get().saturating_add(1 + rate + callback);
        self.total.set(total);
        total > self.limit.get()
    }

    /// The variable `index` places from the end of the scope (0: not
    /// known before, searched by name) is about to be read: charges its
    /// items to the budget and, once a measure is due, measures what the
    /// call holds; an error past a limit.
    pub fn read(
        &self,
        persist: impl Fn(&mut value::Held) -> Result<(), String>,
        index: usize,
        copied: impl Fn() -> bool,
        context: &mut EvalContext,
    ) -> Result<(), Box<EvalAltResult>> {
        let mut operations = self.total.get();
        if index > 0
            && let Some((_, _, v)) = context.scope().iter_raw().nth(index - 1)
        {
            let charge = if (v.is_array() || v.is_map()) && copied() {
                value::count_values(v, MAX_VALUE_DEPTH) / VALUES_PER_COPY_OPERATION
            } else {
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
                items / ITEMS_PER_OPERATION
            };
            operations = operations.saturating_add(charge as u64);
        }
        let mut checked = Ok(());
        if operations >= self.due.get() {
            let mut held = value::Held::new(MAX_HELD_BYTES, MAX_VALUE_DEPTH);
            checked = self.measure(persist, context, &mut held);
            operations = operations.saturating_add((held.bytes() / BYTES_PER_OPERATION) as u64);
            self.due.set(operations.saturating_add(CHECK_EVERY));
            self.rate
                .set((held.bytes() / HELD_BYTES_PER_OPERATION) as u64);
        }
        self.total.set(operations);
        self.blind.set(0);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_called_again_is_charged_for_its_call() {
        let watch = Watch::default();
        watch.start(0, u64::MAX);
        // The handler's own operations: the count rises, one each.
        for count in 1..=3 {
            assert!(!watch.progress(count));
        }
        assert_eq!(watch.total(), 3);
        // A built-in calls its callback three times, each on a copy of
        // the count taken at 3, two operations each; then the handler
        // goes on at 4.
        for count in [4, 5, 4, 5, 4, 5, 4] {
            watch.progress(count);
        }
        // Seven operations, and a call charged at each fall of the count
        // (the second and third callbacks, and the return).
        assert_eq!(watch.total(), 3 + 7 + 3 * CALLBACK_OPERATIONS);
    }
}
