//! A compiled script and the interpreter set up to run it
//! (core/algorithms/src/script/mod.rs, module docs): Rhai with a fixed hashing
//! seed, no clock, no floats, no file modules, an operation budget per
//! handler call and limits on sizes and depths; and how a handler is
//! called and how its failure becomes a [`ScriptError`].

use super::ScriptError;
use super::api::{self, Call, NodeCtx, Shared};
use super::kept::{NodeState, empty_state};
use crate::protocol::{Boot, Config, Ctx, Safety};
use rhai::{AST, CallFnOptions, Dynamic, EvalAltResult, Position, Scope};
use std::rc::Rc;

pub use super::limits::{
    BUDGET_SLACK, MAX_ARRAY_SIZE, MAX_CALL_LEVELS, MAX_COMMANDS_PER_CALL, MAX_EXPR_DEPTHS,
    MAX_FUNCTIONS, MAX_MAP_SIZE, MAX_MESSAGE_BYTES, MAX_NAMES_PER_RUN, MAX_OPERATIONS,
    MAX_SENT_BYTES_PER_CALL, MAX_STATE_BYTES, MAX_STRING_SIZE, MAX_VARIABLES,
};
use super::value;
use super::watch;
use super::wire::{ScriptMsg, ScriptTimer};

/// Rhai's hashing seed, fixed so that nothing in the interpreter depends
/// on a random number chosen when the process starts (Rhai would
/// otherwise seed its function-lookup hashes at random).
const HASHING_SEED: [u64; 4] = [0x454c_4543, 0x5449_4f4e, 0x504c_4159, 0x4752_4f55];

/// The value of the run-time error that stops a handler at the operation
/// budget (recognised in [`innermost`]).
const BUDGET_STOP: &str = "\u{0}operation budget";

/// The handlers of the contract and how many parameters each takes.
pub const HANDLERS: [(&str, usize); 3] = [("on_start", 1), ("on_message", 3), ("on_timer", 2)];

thread_local! {
    /// The part of Rhai's standard library scripts get, built once per
    /// thread and shared by every interpreter (building it is most of the
    /// cost of a new one): the language core, arithmetic, comparisons,
    /// strings, arrays, object maps, ranges and integer maths; not blobs
    /// or bit fields, which an election has no use for and which would
    /// add to the tools module's size.
    static LIBRARY: rhai::Shared<rhai::Module> = {
        use rhai::packages::{
            BasicArrayPackage, BasicMapPackage, BasicMathPackage, CorePackage, LogicPackage,
            MoreStringPackage, Package,
        };
        let mut module = rhai::Module::new();
        CorePackage::init(&mut module);
        LogicPackage::init(&mut module);
        BasicMathPackage::init(&mut module);
        BasicArrayPackage::init(&mut module);
        BasicMapPackage::init(&mut module);
        MoreStringPackage::init(&mut module);
        // Rhai looks a package's functions up lazily, hashing every entry
        // of its manifests on each lookup (and each handler call starts
        // with an empty lookup cache): registering them all once makes a
        // lookup one hash-table probe, 30 times faster per event.
        module.register_lazy_functions();
        module.build_index();
        rhai::Shared::new(module)
    };
}

/// One compiled script with its interpreter. Shared (`Rc`) by every node
/// of one run and by the run's checkpoints; the call state is transient
/// (set for one handler call, empty between calls).
pub struct Program {
    engine: rhai::Engine,
    ast: AST,
    /// The handler call in progress and the names the run has used,
    /// shared with `ctx`.
    shared: Rc<Shared>,
    /// Which of [`HANDLERS`] the script defines.
    defined: [bool; 3],
    /// The line of each handler's `fn` (and of `fn claims`), for errors
    /// the interpreter gives no position.
    lines: [Option<u32>; 4],
    /// The line of every function's `fn`, by name (for [`Program::only_loop`]).
    fn_lines: Vec<(String, u32)>,
    /// What the script claims (`fn claims()`), for the property checks.
    pub claims: Safety,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("defined", &self.defined)
            .field("claims", &self.claims)
            .finish_non_exhaustive()
    }
}

/// A fresh interpreter with the project's settings and the `ctx` API
/// bound to `call`.
fn interpreter(shared: &Rc<Shared>) -> rhai::Engine {
    let _ = rhai::config::hashing::set_hashing_seed(Some(HASHING_SEED));
    let mut engine = rhai::Engine::new_raw();
    LIBRARY.with(|m| engine.register_global_module(m.clone()));
    engine
        .set_max_operations(MAX_OPERATIONS + BUDGET_SLACK)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTHS.0, MAX_EXPR_DEPTHS.1)
        .set_max_string_size(MAX_STRING_SIZE)
        .set_max_array_size(MAX_ARRAY_SIZE)
        .set_max_map_size(MAX_MAP_SIZE)
        .set_max_variables(MAX_VARIABLES)
        .set_max_functions(MAX_FUNCTIONS)
        .set_strict_variables(true);
    engine.disable_symbol("eval");
    // The operation budget, checked at each variable read: past it the
    // read fails with an ordinary run-time error, which (unlike the
    // interpreter's own limit) keeps the position of the line running.
    // And what the call holds, measured every `watch::CHECK_EVERY`
    // operations (script/watch.rs: why this hook). (`on_var` and the
    // operation count, feature `internals`, are marked volatile in Rhai;
    // the version is pinned.)
    let watched = Rc::clone(shared);
    #[allow(deprecated)]
    engine.on_var(move |name, index, mut context| {
        let copied = || watched.copied.borrow().contains(name);
        watched.watch.read(
            |held| watched.add_persist(held),
            index,
            copied,
            &mut context,
        )?;
        if watched.watch.total() > MAX_OPERATIONS {
            return Err(EvalAltResult::ErrorRuntime(BUDGET_STOP.into(), Position::NONE).into());
        }
        Ok(None)
    });
    // Every operation, charged (script/watch.rs): past the budget and
    // its slack with no variable read to stop it, the interpreter's
    // "terminated" error, which has no position.
    let progressed = Rc::clone(shared);
    engine.on_progress(move |count| progressed.watch.progress(count).then(|| BUDGET_STOP.into()));
    let printed = Rc::clone(shared);
    engine.on_print(move |text| printed.log(text));
    let debugged = Rc::clone(shared);
    engine.on_debug(move |text, _, _| debugged.log(text));
    api::register(&mut engine);
    super::sort::register(&mut engine);
    engine
}

/// A line and column from a Rhai position.
fn line_column(pos: Position) -> (Option<u32>, Option<u32>) {
    (
        pos.line().map(|l| l as u32),
        pos.position().map(|c| c as u32),
    )
}

/// The innermost error of a chain of function calls, with the position
/// of the statement that failed, and its message in the playground's
/// words for the limits. Rhai gives a limit error (operations, sizes,
/// call depth) the position of the outermost call it happened in, so
/// inside the handler itself it has none: the caller then uses the
/// handler's own line.
fn innermost(err: EvalAltResult) -> (String, Position) {
    let mut err = err;
    let mut outer = Position::NONE;
    while let EvalAltResult::ErrorInFunctionCall(_, _, inner, pos) = err {
        if !pos.is_none() {
            outer = pos;
        }
        err = *inner;
    }
    let mut pos = err.take_position();
    if pos.is_none() {
        pos = outer;
    }
    let budget = format!(
        "ran past the operation budget ({MAX_OPERATIONS} operations in one handler call, each counting more the more the call holds): an endless loop, or a loop over large values?"
    );
    let message = match &err {
        EvalAltResult::ErrorTooManyOperations(_) => budget,
        EvalAltResult::ErrorRuntime(v, _) | EvalAltResult::ErrorTerminated(v, _)
            if v.clone().into_string().ok().as_deref() == Some(BUDGET_STOP) =>
        {
            budget
        }
        EvalAltResult::ErrorRuntime(v, _)
            if v.is_string()
                && v.clone()
                    .into_string()
                    .is_ok_and(|t| t.starts_with(watch::HELD_STOP)) =>
        {
            let text = v.clone().into_string().unwrap_or_default();
            text[watch::HELD_STOP.len()..].to_string()
        }
        EvalAltResult::ErrorDataTooLarge(what, _) => too_large(what),
        EvalAltResult::ErrorStackOverflow(_) => {
            format!("function calls nested deeper than {MAX_CALL_LEVELS}: an endless recursion?")
        }
        _ => err.to_string(),
    };
    (message, pos)
}

/// Which size limit a value passed, and what counts towards it (the
/// interpreter checks a whole value at once: an array's strings, nested
/// arrays and maps all count for the array).
fn too_large(what: &str) -> String {
    if what.starts_with("Length of string") {
        format!(
            "too much text in one value: a string, or all the strings in one array or map counted together, may hold {MAX_STRING_SIZE} bytes (1,000 strings of 17 characters are 17,000 bytes); keep numbers (node ids, terms) instead of text, or fewer items"
        )
    } else if what.starts_with("Size of array") {
        format!(
            "an array grew past {MAX_ARRAY_SIZE} items (the items of arrays and maps nested in it counted together)"
        )
    } else if what.starts_with("Size of object map") {
        format!(
            "an object map grew past {MAX_MAP_SIZE} properties (the properties of maps nested in it counted together)"
        )
    } else {
        format!("{what} too large: a value grew past a size limit")
    }
}

/// A handler error as the run reports it (the engine adds the node and
/// the time); `fallback_line` is the handler's own line, for an error
/// the interpreter gives no position.
fn handler_error(handler: &str, err: EvalAltResult, fallback_line: Option<u32>) -> ScriptError {
    let (message, pos) = innermost(err);
    let (mut line, column) = line_column(pos);
    if line.is_none() {
        line = fallback_line;
    }
    ScriptError {
        node: None,
        handler: Some(handler.to_string()),
        line,
        column,
        at_ms: None,
        message,
    }
}

/// A compile error: no node, handler or time.
fn compile_error(message: String, pos: Position) -> ScriptError {
    let (line, column) = line_column(pos);
    ScriptError {
        node: None,
        handler: None,
        line,
        column,
        at_ms: None,
        message,
    }
}

/// The line of `fn name(` in `source`, from 1.
fn line_of_fn(source: &str, name: &str) -> Option<u32> {
    let head = format!("fn {name}");
    source
        .lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(&head)
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        })
        .map(|i| i as u32 + 1)
}

/// Which of [`HANDLERS`] `ast` defines and whether it has `fn claims`; an
/// error at the handler's line when one takes the wrong number of
/// parameters.
fn arity_error(
    ast: &AST,
    line_of: &dyn Fn(&str) -> Option<u32>,
) -> Result<([bool; 3], bool), ScriptError> {
    let mut defined = [false; 3];
    let mut claims_fn = false;
    for f in ast.iter_functions() {
        if f.name == "claims" {
            claims_fn = true;
        }
        if let Some(i) = HANDLERS.iter().position(|(name, _)| *name == f.name) {
            let want = HANDLERS[i].1;
            if f.params.len() != want {
                let params = ["ctx", "ctx, from, msg", "ctx, name"][i];
                let got: Vec<&str> = f.params.to_vec();
                return Err(ScriptError {
                    line: line_of(f.name),
                    ..compile_error(
                        format!(
                            "{} takes {want} parameter{} ({params}), not {} ({})",
                            f.name,
                            if want == 1 { "" } else { "s" },
                            f.params.len(),
                            got.join(", ")
                        ),
                        Position::NONE,
                    )
                });
            }
            defined[i] = true;
        }
    }
    Ok((defined, claims_fn))
}

/// A clearer message for a decimal number (`0.5`), which a build without
/// floats reads as a property of an integer ("Expecting name of a
/// property"): the digits before the error's column end in a `.`.
fn float_hint(source: &str, pos: Position) -> Option<String> {
    let (line, column) = (pos.line()?, pos.position()?);
    let text = source.lines().nth(line.checked_sub(1)?)?;
    let before: String = text.chars().take(column.saturating_sub(1)).collect();
    let before = before.trim_end();
    let dot = before.strip_suffix('.')?;
    if !dot.ends_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(
        "scripts have no decimal numbers (no floats: their results differ between machines); use whole numbers, e.g. microseconds: ctx.set_timer_us(name, 500) for half a millisecond".into(),
    )
}

impl Program {
    /// Compiles `source`: a syntax error, a handler with the wrong number
    /// of parameters, no handler at all or a bad `fn claims()` is a
    /// [`ScriptError`] without node or time.
    pub fn compile(source: &str) -> Result<Program, ScriptError> {
        let shared = Rc::new(Shared::default());
        let mut engine = interpreter(&shared);
        let line_of = |name: &str| line_of_fn(source, name);
        let ast = match engine.compile(source) {
            Ok(ast) => ast,
            Err(e) => {
                // A handler with the wrong parameters uses a name it does
                // not have, which strict variables report first
                // ("Undefined variable: from"): say what is wrong with the
                // handler instead, when that is it.
                engine.set_strict_variables(false);
                let arity = engine
                    .compile(source)
                    .ok()
                    .and_then(|loose| arity_error(&loose, &line_of).err());
                return Err(arity.unwrap_or_else(|| {
                    let message = float_hint(source, e.1).unwrap_or_else(|| e.0.to_string());
                    compile_error(message, e.1)
                }));
            }
        };
        let (defined, claims_fn) = arity_error(&ast, &line_of)?;
        *shared.copied.borrow_mut() = super::copies::copied_names(&ast);
        if !defined.iter().any(|&d| d) {
            return Err(compile_error(
                "the script defines none of fn on_start(ctx), fn on_message(ctx, from, msg), fn on_timer(ctx, name)".into(),
                Position::NONE,
            ));
        }
        let lines = [
            line_of(HANDLERS[0].0),
            line_of(HANDLERS[1].0),
            line_of(HANDLERS[2].0),
            line_of("claims"),
        ];
        let fn_lines = ast
            .iter_functions()
            .filter_map(|f| line_of(f.name).map(|l| (f.name.to_string(), l)))
            .collect();
        let mut program = Program {
            engine,
            ast,
            shared,
            defined,
            lines,
            fn_lines,
            claims: Safety::OneLeaderPerComponent,
        };
        if claims_fn {
            program.claims = program.read_claims()?;
        }
        Ok(program)
    }

    /// Runs `fn claims()` (no `ctx`): `"classical"` (one leader per
    /// partition group, the default), `"consensus"` (one leader per term,
    /// terms never decrease, one vote per term) or `"several_leaders"`
    /// (no leader-count property).
    fn read_claims(&self) -> Result<Safety, ScriptError> {
        self.shared.watch.start(0, MAX_OPERATIONS + BUDGET_SLACK);
        let value: Dynamic = self
            .engine
            .call_fn_with_options(
                CallFnOptions::new().eval_ast(false).rewind_scope(true),
                &mut Scope::new(),
                &self.ast,
                "claims",
                (),
            )
            .map_err(|e| handler_error("claims", *e, self.lines[3]))?;
        let text = value.into_immutable_string().unwrap_or_default();
        match text.as_str() {
            "classical" => Ok(Safety::OneLeaderPerComponent),
            "consensus" => Ok(Safety::Consensus),
            "several_leaders" => Ok(Safety::SeveralLeadersAllowed),
            other => Err(ScriptError {
                node: None,
                handler: Some("claims".into()),
                line: None,
                column: None,
                at_ms: None,
                message: format!(
                    "claims() must return \"classical\", \"consensus\" or \"several_leaders\", got {other:?}"
                ),
            }),
        }
    }

    /// The line of the one loop (`loop`, `while`, `do`, `for`) in handler
    /// `i`'s body, if it has exactly one: from the handler's `fn` line to
    /// the next function's.
    fn only_loop(&self, i: usize) -> Option<u32> {
        let from = self.lines[i]?;
        let to = self
            .ast
            .iter_functions()
            .filter_map(|f| {
                self.fn_lines
                    .iter()
                    .find(|(n, _)| n == f.name)
                    .map(|(_, l)| *l)
            })
            .filter(|&l| l > from)
            .min()
            .unwrap_or(u32::MAX);
        let mut loops = Vec::new();
        self.ast.walk(&mut |path: &[rhai::ASTNode]| {
            if let Some(rhai::ASTNode::Stmt(
                rhai::Stmt::While(_, pos) | rhai::Stmt::Do(_, _, pos) | rhai::Stmt::For(_, pos),
            )) = path.last()
            {
                if let Some(line) = pos.line().map(|l| l as u32) {
                    if line > from && line < to {
                        loops.push(line);
                    }
                }
            }
            true
        });
        loops.sort_unstable();
        loops.dedup();
        match loops[..] {
            [line] => Some(line),
            _ => None,
        }
    }

    /// Whether the script defines handler `i` of [`HANDLERS`].
    pub fn defines(&self, i: usize) -> bool {
        self.defined[i]
    }

    /// Runs handler `i` of [`HANDLERS`] for `node` with `args` after the
    /// `ctx` argument: the commands it asked for go to `ctx` in order; a
    /// failure is left in the node (the engine stops the run).
    pub(crate) fn run(
        &self,
        node: &mut NodeState,
        ctx: &mut Ctx<'_, ScriptMsg, ScriptTimer>,
        i: usize,
        boot: Option<Boot>,
        mut args: Vec<Dynamic>,
    ) {
        if !self.defined[i] {
            return;
        }
        let config: &Config = ctx.config();
        let id = ctx.id();
        *self.shared.call.borrow_mut() = Some(Call {
            id,
            n: config.n,
            next: config.ring_next(id, 1),
            prev: config.ring_prev(id, 1),
            starts: matches!(boot, Some(Boot::Fresh { initiate: true })),
            recovered: matches!(boot, Some(Boot::Recover)),
            local_us: ctx.local_now_us(),
            election_timeout_us: config.election_timeout_us,
            heartbeat_us: config.heartbeat_us,
            reply_timeout_us: config.reply_timeout_us,
            latency_max_us: config.latency_max_us,
            rng: ctx.rng_mut().clone(),
            out: Vec::new(),
            role: node.role,
            term: node.term,
            persist: std::mem::take(&mut node.persist),
            recording: ctx.recording(),
            sent_bytes: 0,
        });
        let name = HANDLERS[i].0;
        self.shared
            .watch
            .start(node.held_bytes, MAX_OPERATIONS + BUDGET_SLACK);
        args.insert(0, Dynamic::from(NodeCtx(Rc::clone(&self.shared))));
        let mut scope = Scope::new();
        let result = self.engine.call_fn_with_options::<Dynamic>(
            CallFnOptions::new()
                .eval_ast(false)
                .rewind_scope(false)
                .bind_this_ptr(&mut node.state),
            &mut scope,
            &self.ast,
            name,
            args,
        );
        let Some(call) = self.shared.call.borrow_mut().take() else {
            return;
        };
        *ctx.rng_mut() = call.rng;
        node.persist = call.persist;
        // The state's limits, whatever the handler's outcome: a state past
        // them is dropped at once (a deep one would need a deep stack
        // anywhere it is walked later) and stops the run. A handler that
        // failed says its own error, which names the line (the watch's
        // stop, script/watch.rs, leaves `this` past the limit).
        let checked = value::check_state(&node.state, &node.persist, MAX_STATE_BYTES);
        node.held_bytes = *checked.as_ref().unwrap_or(&0);
        if let Err(message) = checked {
            node.state = empty_state();
            if result.is_ok() {
                node.error = Some(ScriptError {
                    node: None,
                    handler: Some(name.into()),
                    line: self.lines[i],
                    column: None,
                    at_ms: None,
                    message,
                });
                return;
            }
        }
        match result {
            Ok(_) if !node.state.is_map() => {
                node.error = Some(ScriptError {
                    node: None,
                    handler: Some(name.into()),
                    line: None,
                    column: None,
                    at_ms: None,
                    message: format!(
                        "`this` must stay an object map (the node's state), but the handler made it {}",
                        node.state.type_name()
                    ),
                });
            }
            Ok(_) => {
                node.role = call.role;
                node.term = call.term;
                ctx.commands_mut().extend(call.out);
            }
            Err(e) => {
                // The interpreter's own budget stop has no position (a
                // loop that reads no variable, `loop { }`): the handler's
                // only loop, when it has one, is what ran.
                let fallback = match *e {
                    EvalAltResult::ErrorTooManyOperations(_)
                    | EvalAltResult::ErrorTerminated(..) => self.only_loop(i).or(self.lines[i]),
                    _ => self.lines[i],
                };
                node.error = Some(handler_error(name, *e, fallback));
            }
        }
    }
}
