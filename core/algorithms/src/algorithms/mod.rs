//! The election algorithms, one folder per family, and the registry:
//! [`ALL`], one [`Entry`] per algorithm (its id, summary, message kinds,
//! extra nodes, the safety it claims, its builder and its published cost
//! formula). Each algorithm declares its own `ENTRY` (in its file, or the
//! `mod.rs` of its folder); this file only lists them.
//!
//! Files, by family (each folder's `mod.rs` has its own file map):
//! - `bully/`: Bully, and `election.rs`, the Bully election its variants
//!   share;
//! - `bully_variants/`: `next_in_line/`, `candidate_ordinary.rs`,
//!   `invitation/`;
//! - `ring/`: `chang_roberts.rs`, `lelann.rs`, `hirschberg_sinclair/` and
//!   `watchdog.rs`, their one watchdog and way round a dead neighbour;
//! - `raft/`: Raft with its options, ten files by paper rule (the model
//!   for a large algorithm);
//! - `consensus/`: `zab/` (with observers), `zookeeper/`, `lease/`,
//!   `multi_paxos/`, with `service.rs`, `resource.rs` and `extras.rs`
//!   beside them.
//!
//! Beside this file, code that several families share: `detector.rs`
//! (heartbeats and the leader timeout) and `quorum.rs` (majorities and
//! the rounds of a majority-held lease, for Raft and Multi-Paxos). Every
//! algorithm's module is re-exported here (`algorithms::bully`,
//! `algorithms::zab`, ...), whatever its folder.
//!
//! It also groups them into [`FAMILIES`], one cargo feature each
//! (`family-bully`, `family-bully-variants`, `family-ring`,
//! `family-raft`, `family-consensus`; all on by default):
//! a build without a family's feature keeps its algorithms' registry data
//! (ids, names, kinds, extras; the page lists every algorithm whatever the
//! build) but not their engines, so the page's player wasm module for one
//! family holds only that family's code (web/src/lib.rs, module docs).
//! [`runnable`] says whether this build runs an algorithm.
//!
//! # How to add an algorithm
//!
//! Read `core/algorithms/src/algorithms/bully/mod.rs` first: it is the model of
//! a small algorithm. Then, with `<name>` the module name (`next_in_line`),
//! `<id>` the registry id (`next-in-line`) and `<family>` the folder of its
//! family (`bully_variants`; one folder per `family-<id>` feature, see
//! `FAMILIES`):
//!
//! 1. **The file**: `core/algorithms/src/algorithms/<family>/<name>.rs` for a
//!    small
//!    algorithm, or a folder `<family>/<name>/` laid out like `raft/` once
//!    it grows past a few hundred lines: `mod.rs` holds the docs with the
//!    file map, the registry entry and the state the files share; the
//!    rules in their own files (`election.rs` with Raft's figure-2 rules,
//!    `pre_vote.rs`, `check_quorum.rs`, `lease.rs`, `log.rs`; or
//!    `rules.rs` with the handlers), then `messages.rs`, `narration.rs`,
//!    `inspect.rs` and `tests.rs`. No source file outside tests over about
//!    800 lines. Code its family shares is written once in the family's
//!    folder (`bully/election.rs`, `ring/watchdog.rs`) or, used by several
//!    families, beside `mod.rs` (`detector.rs`, `quorum.rs`): look there
//!    before writing a watchdog, an election start or a majority again.
//!    Its `//!` docs state the rules as simulated, the source with section
//!    numbers, what the algorithm claims and how it fails, and the
//!    counting: which kinds are election and which background.
//! 2. **The types**: `KINDS` (kind names, uppercase); `Msg` implementing
//!    `Message` (`kind()` indexes `KINDS`, `purpose()`); `Timer`
//!    (`Copy + Eq + Hash + Debug`); `Persistent` (what survives a crash,
//!    `Clone + Default + Debug`; `()` if nothing). Messages and timers
//!    derive `Hash`: they enter the trace hash.
//! 3. **The node**: a struct implementing `Protocol`
//!    (`core/model/src/protocol.rs`):
//!    `new`, `on_start` (both `Boot::Fresh { initiate }` and
//!    `Boot::Recover`), `on_message`, `on_timer`, `persistent`, `inspect`
//!    (every field, for the inspector), `timer_class` (what each timer is
//!    for, a `TimerClass` the page names and draws as a countdown arc: read
//!    where the timer is armed and what its firing does; a timer whose
//!    meaning depends on the state, such as a watchdog that waits for the
//!    leader while following and for the election while taking part, is
//!    classed by the state), the constants `KINDS` and `SAFETY`;
//!    `on_undeliverable` with `WANTS_UNDELIVERABLE = true` if it reacts to
//!    dead peers; `heap_bytes` (and `persistent_heap_bytes`) if its state
//!    grows with the run. Write role changes as verbs (`become_candidate`,
//!    `become_leader`) that announce through `Ctx`: `set_role`,
//!    `set_leader`, `election_started`, `vote`, `set_lease`,
//!    `resource_write`, `note_with` for the log. Randomness only through
//!    `ctx.random_between`, time only through `ctx.local_now_us`.
//!    **With extra nodes** (a fenced resource, a coordination service):
//!    also implement `extras::Participant` for the node (`write_token`, and
//!    `start_service`, `serve`, `service_timer` if it has a service, and
//!    `service_timer_class` if its service arms a timer other than the
//!    shared service's session expiry) and
//!    run `pub type <Name> = extras::Node<YourNode>` (as `raft/mod.rs` and
//!    the `mod.rs` of `consensus/zab/`, `zookeeper/` and `lease/` do; a
//!    resource write `Msg::Write { token }` needs only
//!    `extras::write_token_of_msg_write!()`); never re-declare the
//!    resource or the service.
//! 4. **Command-level tests** in the same file (`#[cfg(test)] mod tests`;
//!    `tests.rs` in a folder): with `protocol::testing::{commands, sends,
//!    config}`, feed one event and assert the exact commands, each test
//!    citing the rule it checks.
//! 5. **The registry entry**, in the algorithm's own file: `pub const
//!    ENTRY: Entry` (`core/algorithms/src/algorithms/mod.rs` defines `Entry`)
//!    with
//!    `id` (lowercase, hyphens), `name`, `summary` (idea and source, one
//!    line), `layout` (`Layout::Ring` or `Layout::Cluster`), `kinds`
//!    (`KINDS`), `extras` (`&[]`, or `Extra::Service` and/or
//!    `Extra::Resource`, in the order their ids follow the participants),
//!    `claims` (its `SAFETY`), `builder: engine::<YourType>` (the type the
//!    engine runs: the `extras::Node<..>` alias if it has extras), and
//!    `theory`: `Some(fn)` returning the initial election's published
//!    message count and its formula with the source, or `None`. Then, in
//!    `core/algorithms/src/algorithms/<family>/mod.rs`, `pub mod <name>;`; in
//!    `core/algorithms/src/algorithms/mod.rs`, its id in its family's
//!    `FAMILIES`
//!    entry, a `pub use <family>::<name>;` (so that
//!    `algorithms::<name>` is its path) and `<name>::ENTRY` in `ALL`,
//!    whose order is the order the page and the CLI list the
//!    algorithms. Nothing else lists algorithms: the scenario validator,
//!    the CLI, the page, `election algorithms`, compare mode, theory
//!    curves, the random fault tests and the fuzzer all read `ALL`. (A new
//!    entry changes which algorithm `election fuzz-faults` draws for a seed
//!    without `--algorithm`; no stored hash depends on that.)
//! 6. **Scenario options**, only if it needs new ones:
//!    `core/model/src/scenario/mod.rs` (`Options` or `TimingSpec`, with a
//!    default that leaves every existing scenario unchanged), `parse.rs`,
//!    `write.rs`, `query.rs` (`SCENARIO_PARAMS` and how the value is read)
//!    and docs/guide.md, Scenarios.
//! 7. **Literature tests**: `core/tests/<name>.rs`: exact message counts
//!    and behaviours next to the formula and its source (see
//!    `core/tests/theory.rs`). With a resource, add the id to the list in
//!    `core/tests/fencing.rs` (and to its count of extras before the
//!    resource if it has a service).
//! 8. **Golden traces**: one or two small scenarios as
//!    `core/tests/golden/<id>-<what>.json`, then
//!    `UPDATE_GOLDEN=1 cargo test -p election-core --test golden`, and read
//!    the `.txt` it wrote: it is the protocol, step by step. `git status`
//!    must show only the new files.
//! 9. **The corpus**: add the id at the *end* of `ALGORITHMS` in
//!    `scripts/build/gen-corpus.py` (and to `RING` if its layout is a ring;
//!    a file's seed and size follow its algorithm's place in that list, so
//!    an id in the middle would change other files), then run
//!    `python3 scripts/build/gen-corpus.py`: it rewrites
//!    `scenarios/corpus/` and adds
//!    `<id>-{clean,crash,partition,skew,flaky}.json` for the native = wasm
//!    test. Existing corpus files must not change.
//! 10. **Run** `cargo test -p election-algorithms -p election-core`, then
//!     the long fault hunt:
//!     `cargo run --release -p election-cli -- fuzz-faults --algorithm <id>
//!     --seeds 1..20000` (it must find nothing), then `./scripts/test.sh`.
//! 11. **Docs**: a row in the README's algorithm table (and its count of
//!     algorithms in the introduction) and, if its claims are checked
//!     against a paper, a line under docs/ARCHITECTURE.md, Checked against
//!     the literature. Optionally a guided scenario:
//!     `scenarios/presets/<preset>.json`, an entry in `ALL` of
//!     `core/tools/src/presets.rs` (title, summary, steps at the moments of
//!     events), its promises as an arm in `cli/tests/presets.rs` (which
//!     fails for a preset file without one), and the README's count of
//!     lessons (README.md, Guided scenarios).
//!
//! The page needs no change: it reads ids, names, summaries, layouts,
//! kinds and extras from the registry through wasm (`algorithms()`).

pub mod bully;
pub mod bully_variants;
pub mod consensus;
mod detector;
mod quorum;
pub mod raft;
pub mod ring;

pub use bully_variants::{candidate_ordinary, invitation, next_in_line};
pub use consensus::{extras, lease, multi_paxos, resource, service, zab, zookeeper};
pub use ring::{chang_roberts, hirschberg_sinclair, lelann};

use crate::engine::Engine;
use crate::protocol::{Extra, Protocol, Safety};
pub use crate::scenario::Observers;
use crate::scenario::{Catalog, Scenario, ScenarioError, StartSet};
use crate::sim::Simulation;
use serde::Serialize;

/// How the page lays an algorithm's nodes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Around a ring in message order, with the direction shown.
    Ring,
    /// A cluster (circle without direction).
    Cluster,
}

/// Builds the simulation of a validated scenario; `record` keeps the
/// trace events.
pub type Builder = fn(&Scenario, bool) -> Box<dyn Simulation>;

/// The published election-message figure of the initial election (every
/// node starting, no faults) and its formula with the source.
pub type Theory = fn(&Scenario) -> (f64, &'static str);

/// What the registry knows about an algorithm. The page and the CLI get
/// the first six fields as JSON; the rest is for the core.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Entry {
    /// Id used in scenarios, URLs and on the command line.
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// One line: the idea and its source.
    pub summary: &'static str,
    /// Page layout.
    pub layout: Layout,
    /// Message kinds.
    pub kinds: &'static [&'static str],
    /// Non-participant nodes it needs (ids n, n+1, ... in this order).
    pub extras: &'static [Extra],
    /// Whether its last participants may be observers (the scenario's
    /// `observers` key).
    #[serde(skip)]
    pub observers: Observers,
    /// Whether it runs the scenario's `script` (a scripted algorithm,
    /// whose program is compiled from it): its runs may stop on a script
    /// error, which experiments report in a `script_error` column, and
    /// the failure finder checks the script on its own first.
    #[serde(skip)]
    pub takes_script: bool,
    /// The safety property it claims (what the checker counts as a
    /// violation).
    #[serde(skip)]
    pub claims: Safety,
    /// Its engine; `None` in a build without its family (see
    /// [`FAMILIES`]; [`ALL`] clears it).
    #[serde(skip)]
    pub builder: Option<Builder>,
    /// Its published message count, where the literature gives one.
    #[serde(skip)]
    pub theory: Option<Theory>,
    /// What the textbook's trade-off table claims for its family (the
    /// trade-off table measures beside it); `None` where the table does
    /// not name it, and in a build without its family (see [`ALL`]).
    #[serde(skip)]
    pub tradeoff: Option<crate::claims::Claim>,
}

/// The [`Builder`] of an algorithm: an [`Engine`] running `P`.
///
/// Never inlined: taken as a function pointer into a const table, it was
/// inlined with the whole engine into every caller of [`build`] in the
/// wasm (1.22 MB -> 1.62 MB raw, +50 KB gzipped; docs/PERFORMANCE.md, Size).
#[inline(never)]
pub(crate) fn engine<P: Protocol>(scenario: &Scenario, record: bool) -> Box<dyn Simulation> {
    Box::new(Engine::<P>::new(scenario, record))
}

/// A group of algorithms built together (a cargo feature of this crate,
/// `family-<id>`): the page's player wasm module for a family runs only
/// its algorithms, so the first render loads fewer engines.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Family {
    /// The family's id (the feature is `family-<id>`).
    pub id: &'static str,
    /// Its algorithms' ids.
    pub algorithms: &'static [&'static str],
    /// Whether this build has its feature on (runs its algorithms).
    pub built: bool,
}

/// The algorithm families, chosen by what the first render of each
/// address has to download (docs/PERFORMANCE.md, Size): Bully alone,
/// since the default page opens it, and Raft alone, the most used of the
/// consensus protocols (each engine is about 8 to 16 KB of gzipped
/// wasm); Bully's variants (detection and takeover in a cluster); the
/// ring algorithms; and the other consensus protocols.
pub static FAMILIES: &[Family] = &[
    Family {
        id: "bully",
        algorithms: &["bully"],
        built: cfg!(feature = "family-bully"),
    },
    Family {
        id: "bully-variants",
        algorithms: &["next-in-line", "candidate-ordinary", "invitation"],
        built: cfg!(feature = "family-bully-variants"),
    },
    Family {
        id: "ring",
        algorithms: &["chang-roberts", "lelann", "hirschberg-sinclair"],
        built: cfg!(feature = "family-ring"),
    },
    Family {
        id: "raft",
        algorithms: &["raft"],
        built: cfg!(feature = "family-raft"),
    },
    Family {
        id: "consensus",
        algorithms: &["zab", "zookeeper", "lease", "multi-paxos"],
        built: cfg!(feature = "family-consensus"),
    },
];

/// Whether two strings are equal, in a const context.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The family of the algorithm `id`, when it has one.
const fn family_index(id: &str) -> Option<usize> {
    let mut f = 0;
    while f < FAMILIES.len() {
        let mut a = 0;
        while a < FAMILIES[f].algorithms.len() {
            if same(FAMILIES[f].algorithms[a], id) {
                return Some(f);
            }
            a += 1;
        }
        f += 1;
    }
    None
}

/// The ids of the algorithms of the family `id` (empty for an unknown
/// family), in a const context: built-in experiments name a family.
pub const fn members(id: &str) -> &'static [&'static str] {
    let mut f = 0;
    while f < FAMILIES.len() {
        if same(FAMILIES[f].id, id) {
            return FAMILIES[f].algorithms;
        }
        f += 1;
    }
    &[]
}

/// `entry` as this build has it: without its builder unless its family's
/// feature is on (the engine is then not compiled in), and without its
/// trade-off claim, which only the trade-off table beside a run reads (so
/// a player module keeps only its own families' texts).
const fn gate(entry: Entry) -> Entry {
    let built = match family_index(entry.id) {
        Some(f) => FAMILIES[f].built,
        None => false,
    };
    Entry {
        builder: if built { entry.builder } else { None },
        tradeoff: if built { entry.tradeoff } else { None },
        ..entry
    }
}

/// Every algorithm, in the order the page and the CLI list them; each
/// with its builder only when this build has its family.
pub static ALL: &[Entry] = &[
    gate(bully::ENTRY),
    gate(chang_roberts::ENTRY),
    gate(lelann::ENTRY),
    gate(hirschberg_sinclair::ENTRY),
    gate(next_in_line::ENTRY),
    gate(candidate_ordinary::ENTRY),
    gate(invitation::ENTRY),
    gate(raft::ENTRY),
    gate(zab::ENTRY),
    gate(zookeeper::ENTRY),
    gate(lease::ENTRY),
    gate(multi_paxos::ENTRY),
];

/// A scripted algorithm (`"algorithm": "script"`, the scenario's
/// `script`; core/algorithms/src/script/mod.rs, module docs): not in [`ALL`],
/// which lists the built-in algorithms. Its kinds are named at run time
/// and its claims come from the script; it takes the scenario's
/// `script`. Defined here, not in the script module as each built-in's
/// is in its own, because the script module sits below the registry (it
/// checks scenarios for it) and must not import it back.
#[cfg(feature = "script")]
pub static SCRIPT: Entry = Entry {
    id: crate::script::ALGORITHM,
    name: "Script",
    summary: "Your own algorithm, written in Rhai: fn on_start(ctx), fn on_message(ctx, from, msg), fn on_timer(ctx, name)",
    layout: Layout::Ring,
    kinds: &[],
    extras: &[],
    observers: Observers::None,
    takes_script: true,
    claims: crate::protocol::Safety::OneLeaderPerComponent,
    builder: Some(engine::<crate::script::ScriptNode>),
    theory: None,
    tradeoff: None,
};

/// The entries after [`ALL`]'s built-in algorithms: with the `script`
/// feature, [`SCRIPT`].
static OTHERS: &[&Entry] = &[
    #[cfg(feature = "script")]
    &SCRIPT,
];

/// Every built-in algorithm id (a script's id, `script`, is not listed).
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|a| a.id).collect()
}

/// Every entry [`info`] knows: [`ALL`], then the others (a script's,
/// with the `script` feature).
fn entries() -> impl Iterator<Item = &'static Entry> {
    ALL.iter().chain(OTHERS.iter().copied())
}

/// The registry entry for `id`: a built-in algorithm, or with the
/// `script` feature, [`SCRIPT`].
pub fn info(id: &str) -> Option<&'static Entry> {
    entries().find(|a| a.id == id)
}

/// The registry as the scenario format's [`Catalog`]: every scenario is
/// validated against it (through [`crate::checked`]: `ScenarioExt`, URL
/// parameters, share links).
#[derive(Debug, Clone, Copy, Default)]
pub struct Registry;

impl Catalog for Registry {
    fn extra_nodes(&self, id: &str) -> Option<u32> {
        info(id).map(|a| a.extras.len() as u32)
    }

    fn unknown(&self, s: &Scenario) -> ScenarioError {
        crate::script::unbuilt(s)
            .unwrap_or_else(|| ScenarioError::new("algorithm", unknown(&s.algorithm)))
    }

    fn check(&self, s: &Scenario) -> Result<(), ScenarioError> {
        crate::script::validate(s)
    }

    fn ids(&self) -> Vec<&'static str> {
        known_ids()
    }

    fn observers(&self, id: &str) -> Observers {
        info(id).map_or(Observers::None, |a| a.observers)
    }
}

/// Every id [`info`] knows: the built-in algorithms, and a script's with
/// the `script` feature.
fn known_ids() -> Vec<&'static str> {
    entries().map(|a| a.id).collect()
}

/// The one message for an algorithm id the registry does not know: the
/// id, and every id [`info`] knows (the built-in algorithms, and a
/// script's with the `script` feature).
pub fn unknown(id: &str) -> String {
    format!(
        "unknown algorithm {id:?}; known: {}",
        known_ids().join(", ")
    )
}

/// The registry entry for `id`, or the one [`unknown`] message.
pub fn lookup(id: &str) -> Result<&'static Entry, String> {
    info(id).ok_or_else(|| unknown(id))
}

/// The safety property the algorithm `id` claims.
pub fn safety(id: &str) -> Option<Safety> {
    info(id).map(|a| a.claims)
}

/// The family of the algorithm `id` (`None` for a script or an unknown id).
pub fn family(id: &str) -> Option<&'static Family> {
    family_index(id).map(|f| &FAMILIES[f])
}

/// The ids of the algorithms this build runs, in [`ALL`]'s order (a
/// script's id last, with the `script` feature).
pub fn runnable_ids() -> Vec<&'static str> {
    entries()
        .filter(|a| a.builder.is_some())
        .map(|a| a.id)
        .collect()
}

/// Whether this build runs the algorithm of `scenario` (a known one, as
/// validation ensures): an error on field `algorithm` whose
/// [`ScenarioError::needs`] is the algorithm's id when its family is not
/// built in, so the page can load the module that has it.
pub fn runnable(scenario: &Scenario) -> Result<(), ScenarioError> {
    match info(&scenario.algorithm) {
        Some(Entry {
            builder: Some(_), ..
        }) => Ok(()),
        Some(entry) => {
            let family = family(entry.id).map_or("?", |f| f.id);
            let mut err = ScenarioError::new(
                "algorithm",
                format!(
                    "{:?} is not in this build (its family, {family}, is built separately); this one runs {}",
                    entry.id,
                    runnable_ids().join(", ")
                ),
            );
            err.needs = Some(entry.id);
            Err(err)
        }
        None => Err(ScenarioError::new(
            "algorithm",
            unknown(&scenario.algorithm),
        )),
    }
}

/// A simulation of `scenario` after checking it again (for callers that
/// built or changed a scenario in code), and that this build runs its
/// algorithm ([`runnable`]).
pub fn try_build(scenario: &Scenario, record: bool) -> Result<Box<dyn Simulation>, ScenarioError> {
    scenario.validate_in(&Registry)?;
    runnable(scenario)?;
    Ok(build(scenario, record))
}

/// A simulation of a validated `scenario`; `record` keeps the trace
/// events (the page needs them, the CLI's counts do not).
///
/// # Panics
/// Never for a scenario that passed validation (which checks the id) in
/// a build that runs its algorithm: with every family built (the default
/// features: the CLI, the tests, the page's tools module), or after
/// [`runnable`] said yes.
pub fn build(scenario: &Scenario, record: bool) -> Box<dyn Simulation> {
    match info(&scenario.algorithm).and_then(|entry| entry.builder) {
        Some(builder) => builder(scenario, record),
        None => unreachable!(
            "validation admits only known algorithms and the page checks `runnable` first, got {}",
            scenario.algorithm
        ),
    }
}

/// The published election-message figure for `scenario` where one exists:
/// the initial election with every node starting and no faults. Returns
/// the figure and its formula with the source.
pub fn theory(scenario: &Scenario) -> Option<(f64, &'static str)> {
    if scenario.start != StartSet::All || !scenario.faults.is_empty() {
        return None;
    }
    info(&scenario.algorithm)?.theory.map(|f| f(scenario))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_is_in_one_family_and_every_family_member_is_known() {
        for a in ALL {
            let families: Vec<&str> = FAMILIES
                .iter()
                .filter(|f| f.algorithms.contains(&a.id))
                .map(|f| f.id)
                .collect();
            assert_eq!(families.len(), 1, "{} is in {families:?}", a.id);
        }
        for f in FAMILIES {
            for id in f.algorithms {
                assert!(info(id).is_some(), "family {} names unknown {id}", f.id);
            }
        }
    }

    #[test]
    fn the_default_features_build_every_family() {
        assert!(FAMILIES.iter().all(|f| f.built));
        assert!(ALL.iter().all(|a| a.builder.is_some()));
        assert!(ALL.iter().all(|a| a.tradeoff.is_some()));
        assert_eq!(
            runnable_ids().len(),
            ALL.len() + usize::from(cfg!(feature = "script"))
        );
    }
}
