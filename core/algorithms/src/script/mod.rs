//! Scripted algorithms: students' own election algorithms, written in
//! Rhai and run by the same engine, faults, checks and counts as the
//! built-in ones (below).
//!
//! - [`ScriptError`] (always compiled): what stops a scripted run.
//! - With the `script` feature (the CLI, the page's tools module; never
//!   the player module): `program` (the interpreter's settings and how a
//!   handler is called), `limits` (the interpreter's and a handler call's
//!   limits), `api` (the `ctx` a handler gets), `node` (the protocol the
//!   engine runs), `kept` (what a node keeps between calls), `wire` (its
//!   messages, timers and `ctx.persist`), `value` (plain message data),
//!   `watch` (what one handler call holds and costs, measured as it
//!   runs), `copies` (which variables a script reads as copies, for the
//!   watch's charge), `sort` (`sort(comparer)`), `intern` (run-time kind and timer
//!   names), `templates` (the scripts shipped with the playground).
//!
//! # Scripted algorithms
//!
//! Students write their own election algorithm as a script (Rhai, crate
//! `rhai` pinned with `=`, feature `script` of election-core) that the
//! engine runs exactly as a built-in algorithm: same queue, network,
//! faults, checks, counts, views, trace and hash rules.
//! `core/algorithms/src/script/`:
//!
//! ```text
//!  scenario {"algorithm": "script", "script": "<source>"}
//!    | validate: compile (syntax, handler arity, fn claims())
//!    v
//!  Config.script: Rc<Program>  (one interpreter + AST per run, shared by
//!    |                          its nodes and checkpoints)
//!    v
//!  Engine<ScriptNode>: on_start / on_message / on_timer
//!    |   -> Program::run: `this` = node.state (object map), `ctx` = NodeCtx
//!    |      -> ctx.send / set_timer / become_leader ... -> Commands (as built-ins)
//!    |   <- error? node.error -> the engine halts the run (ScriptError)
//! ```
//!
//! **The contract** (names are what course material is written against):
//!
//! | what | name |
//! |---|---|
//! | handlers | `fn on_start(ctx)` (time 0, and again after recovering from a crash), `fn on_message(ctx, from, msg)`, `fn on_timer(ctx, name)`; any may be left out, one must exist |
//! | state | `this`: an object map, empty at boot and after a crash |
//! | survives a crash | `ctx.persist`: an object map (read it, change a copy, assign it back: `let p = ctx.persist; p.term = 3; ctx.persist = p;`); plain data only |
//! | reading | `ctx.id`, `ctx.n` (participants), `ctx.peers` (the others, ascending), `ctx.next`, `ctx.prev` (ring neighbours in the scenario's `ring` order), `ctx.starts` (the scenario's `start` names it; false on recovery), `ctx.recovered` (this start follows a crash), `ctx.now_ms`, `ctx.now_us` (local clock), `ctx.role`, `ctx.term`, `ctx.heartbeat_ms`/`_us`, `ctx.reply_timeout_ms`/`_us`, `ctx.election_timeout_ms`/`_us` (`[lo, hi]`), `ctx.latency_max_us` |
//! | messages | `ctx.send(to, msg)`, `ctx.send_next(msg)`, `ctx.broadcast(msg)` (every other participant); `msg` is an object map with a string `kind` (1 to 40 letters, digits, `_`, `-`, `.`), counted under that kind; `background: true` counts it as background |
//! | timers | `ctx.set_timer(name, ms)`, `ctx.set_timer_us(name, us)` (re-arming replaces), `ctx.cancel_timer(name)` |
//! | randomness | `ctx.random(lo, hi)` (an integer in `lo..=hi`), `ctx.random_timeout_us()` (a failure-detection timeout from `election_timeout_ms`, drawn as the built-ins draw it); both from the engine's own seeded generator, in handler order |
//! | roles | `ctx.become_leader()`, `ctx.become_follower(leader)`, `ctx.become_follower()` (leader unknown), `ctx.become_candidate()` (also counts one election), `ctx.election_started()` (counts one without candidacy), `ctx.set_term(t)` (a higher term makes a leader or candidate a follower at once, Raft's rule, so a correct step-down is never a violation), `ctx.vote(term, candidate)` |
//! | log | `ctx.log(text)`, also `print` and `debug`: notes in the event log (recorded runs only, outside the hash, as built-ins' notes) |
//! | claims | optional `fn claims()`: `"classical"` (default: one leader per partition group, split brain reported), `"consensus"` (one leader per term, terms never decrease, one vote per term), `"several_leaders"` |
//!
//! The students' reference of all of it, with units and examples, is
//! docs/lab.md (The contract); a unit test in `api.rs` checks that it
//! names every `ctx` member.
//!
//! Timer classes (the page's countdown arcs) come from the timer's name,
//! first match, ignoring case: `heartbeat`/`ping` heartbeat, `renew` lease
//! renewal, `lease`/`expir` lease expiry, `wait`/`reply` reply wait,
//! `retry`/`delay`/`backoff` retry, `election`/`leader`/`watchdog`/`timeout`
//! election timeout, `write` resource write, else other
//! (`script::node::timer_class`).
//!
//! **How kinds work.** The engine is generic over `Protocol` with a static
//! `KINDS` list; a script names kinds at run time. A message may say its
//! kind's name (`Message::kind_name`, `None` for every built-in), and the
//! engine then numbers kinds in the order the run first sends them
//! (`Metrics::kind_index`; `Metrics::kinds` is a `Cow`: borrowed for
//! built-ins, owned for scripts); trace events and `Observe::kinds()` read
//! that list. Names become `&'static str` through a process-wide interner
//! (`script::intern`), so trace events keep their type. Built-ins take the
//! same path with `kind_name() == None` and their static index: every
//! built-in trace, hash and corpus file is unchanged. Timers are interned
//! names too (`ScriptTimer(&'static str)`, `Copy` as the engine needs).
//! A script's claims and per-instance safety use `Protocol::safety(config)`
//! (the default returns `SAFETY`). Scripts get no undeliverable notices.
//!
//! **Determinism.** Rhai is built without its default `ahash/runtime-rng`
//! and with `no_time`, `no_float` (libm differs between targets),
//! `only_i64`, `no_module` (no file imports) and `no_custom_syntax`; its
//! hashing seed is fixed before any interpreter exists
//! (`config::hashing::set_hashing_seed`, `program.rs`), and object maps are
//! B-trees (key order). `eval` is disabled. Messages and `ctx.persist`
//! carry plain data only (unit, booleans, integers, characters, strings,
//! arrays, maps; `script::value`), hashed by content with lengths first.
//! Proven by `core/tests/script.rs` (twice the same, recording changes
//! nothing, a round trip through JSON and the link) and by the native =
//! wasm corpus (the templates in five shapes and a failing script).
//!
//! **Limits and errors.** Each handler call has an operation budget
//! (`MAX_OPERATIONS`) and the limits in docs/ARCHITECTURE.md, Limits and why. A
//! handler that fails (a type error, an unknown function, a bad `ctx` argument,
//! the
//! budget, a size or depth limit, `this` made something other than a map)
//! stops the run: its commands are dropped, the engine records a note and
//! keeps the `ScriptError` (`node`, `handler`, `line`, `column`, `at_ms`,
//! `message`), and nothing happens after it (`step` returns false, the
//! clock stays, `run_to_end` ends there). The summary's `script_error`
//! carries it; `election run` prints the summary and then the one message
//! on stderr with exit code 2. Rhai gives a limit error the position of the
//! outermost call, so inside the handler itself it has none: the budget is
//! therefore enforced at the first variable read past it (an ordinary
//! error that keeps the line running, `program.rs`), a loop that reads
//! nothing is named by the handler's only loop, and a size limit names the
//! handler's own line and says which limit and what counts towards it. A
//! handler with the wrong parameters is said as such ("on_message takes 3
//! parameters (ctx, from, msg), not 2 (ctx, msg)"), before the strict
//! variables' "Undefined variable: from", and a decimal number as "no
//! decimal numbers". A script that does not compile is a
//! scenario error naming `script` (message `line L, column C: ...`, and
//! `script_at`). The failure finder counts a script error as a failure of
//! its own, `script_error`, shrunk like any other. `election compare` prints
//! its table and then the first script error (with its seed), exit code 2. A
//! sweep's records (`RunRecord`) carry `script_error`, the one-line message
//! (absent, and so no JSON key and no CSV column, for built-ins); the
//! report adds `script_errors` (runs stopped) and `first_script_error`
//! (`seed S: ...`), a scripted experiment's CSV a `script_error` column
//! after `trace_hash`; `election sweep` prints its output and then the
//! first error, exit code 2, and the page's experiments status says how
//! many runs stopped and the first error.
//!
//! **Templates** (`script/templates.rs`, sources in `templates/*.rhai`,
//! compiled in): `chang-roberts` and `bully`, rule for rule the built-ins
//! (their counts equal the built-ins', faults included, in
//! `core/tests/script.rs` and `cli/tests/script.rs`; Chang-Roberts does not
//! skip a dead successor, as scripts hear no undeliverable notice), and the
//! exercises `ring-exercise`, `bully-exercise`, `raft-exercise` with TODOs
//! and what a correct solution must show. `election templates`, `--script
//! template:ID`, the tools module's `script_templates()`.
//!
//! **Scripts elsewhere.** `election run|landmarks|sweep|compare --script
//! FILE|template:ID` set the algorithm to `script`;
//! `Scenario::set_algorithm` drops the script for any other algorithm, so
//! `compare --algorithms script,bully` and sweeps mix both; `election check
//! --script` and the finder's request (`"script": "<source>"`) build a
//! `CheckSpec::scripted`, whose script goes into every drawn cluster, so the
//! counterexample and its link carry it. The interpreter costs the tools
//! module about 375 KB gzip (docs/PERFORMANCE.md, Size) and runs about
//! 250,000 events a second natively (docs/PERFORMANCE.md, Speed).

#[cfg(feature = "script")]
mod api;
#[cfg(feature = "script")]
mod copies;
#[cfg(feature = "script")]
pub mod intern;
#[cfg(feature = "script")]
mod kept;
#[cfg(feature = "script")]
pub mod limits;
#[cfg(feature = "script")]
pub mod node;
#[cfg(feature = "script")]
pub mod program;
#[cfg(feature = "script")]
mod sort;
#[cfg(feature = "script")]
pub mod templates;
#[cfg(feature = "script")]
mod value;
#[cfg(feature = "script")]
mod watch;
#[cfg(feature = "script")]
pub mod wire;

/// What stops a scripted run; defined with the protocol, whose
/// [`crate::protocol::Protocol::take_error`] returns it.
pub use crate::script_error::ScriptError;
#[cfg(feature = "script")]
pub use node::ScriptNode;
#[cfg(feature = "script")]
pub use program::Program;

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
