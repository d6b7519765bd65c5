//! The election algorithms, one file each, and the registry: [`ALL`], one
//! [`Entry`] per algorithm (its id, summary, message kinds, extra nodes,
//! the safety it claims, its builder and its published cost formula). Each
//! algorithm's file declares its own `ENTRY`; this file only lists them.

pub mod bully;
pub mod candidate_ordinary;
pub mod chang_roberts;
mod detector;
pub mod extras;
pub mod hirschberg_sinclair;
pub mod invitation;
pub mod lease;
pub mod lelann;
pub mod multi_paxos;
pub mod next_in_line;
pub mod raft;
pub mod resource;
mod rounds;
pub mod service;
pub mod zab;
pub mod zookeeper;

use crate::engine::Engine;
use crate::protocol::{Extra, Protocol, Safety};
use crate::scenario::{Scenario, ScenarioError, StartSet};
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
    /// The safety property it claims (what the checker counts as a
    /// violation).
    #[serde(skip)]
    pub claims: Safety,
    /// Its engine.
    #[serde(skip)]
    pub builder: Builder,
    /// Its published message count, where the literature gives one.
    #[serde(skip)]
    pub theory: Option<Theory>,
}

/// The [`Builder`] of an algorithm: an [`Engine`] running `P`.
///
/// Never inlined: taken as a function pointer into a const table, it was
/// inlined with the whole engine into every caller of [`build`] in the
/// wasm (1.22 MB -> 1.62 MB raw, +50 KB gzipped; docs/PERFORMANCE.md, Size).
#[inline(never)]
fn engine<P: Protocol>(scenario: &Scenario, record: bool) -> Box<dyn Simulation> {
    Box::new(Engine::<P>::new(scenario, record))
}

/// Every algorithm, in the order the page and the CLI list them.
pub static ALL: &[Entry] = &[
    bully::ENTRY,
    chang_roberts::ENTRY,
    lelann::ENTRY,
    hirschberg_sinclair::ENTRY,
    next_in_line::ENTRY,
    candidate_ordinary::ENTRY,
    invitation::ENTRY,
    raft::ENTRY,
    zab::ENTRY,
    zookeeper::ENTRY,
    lease::ENTRY,
    multi_paxos::ENTRY,
];

/// A scripted algorithm (`"algorithm": "script"`, the scenario's
/// `script`; docs/ARCHITECTURE.md, Scripted algorithms): not in [`ALL`],
/// which lists the built-in algorithms; its kinds are named at run time
/// and its claims come from the script.
#[cfg(feature = "script")]
pub static SCRIPT: Entry = Entry {
    id: crate::script::ALGORITHM,
    name: "Script",
    summary: "Your own algorithm, written in Rhai: fn on_start(ctx), fn on_message(ctx, from, msg), fn on_timer(ctx, name)",
    layout: Layout::Ring,
    kinds: &[],
    extras: &[],
    claims: Safety::OneLeaderPerComponent,
    builder: engine::<crate::script::ScriptNode>,
    theory: None,
};

/// Every built-in algorithm id (a script's id, `script`, is not listed).
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|a| a.id).collect()
}

/// The registry entry for `id`: a built-in algorithm, or with the
/// `script` feature, [`SCRIPT`].
pub fn info(id: &str) -> Option<&'static Entry> {
    #[cfg(feature = "script")]
    if id == crate::script::ALGORITHM {
        return Some(&SCRIPT);
    }
    ALL.iter().find(|a| a.id == id)
}

/// The safety property the algorithm `id` claims.
pub fn safety(id: &str) -> Option<Safety> {
    info(id).map(|a| a.claims)
}

/// A simulation of `scenario` after checking it again (for callers that
/// built or changed a scenario in code).
pub fn try_build(scenario: &Scenario, record: bool) -> Result<Box<dyn Simulation>, ScenarioError> {
    scenario.validate()?;
    Ok(build(scenario, record))
}

/// A simulation of a validated `scenario`; `record` keeps the trace
/// events (the page needs them, the CLI's counts do not).
///
/// # Panics
/// Never for a scenario that passed validation, which checks the id.
pub fn build(scenario: &Scenario, record: bool) -> Box<dyn Simulation> {
    match info(&scenario.algorithm) {
        Some(entry) => (entry.builder)(scenario, record),
        None => unreachable!(
            "validation admits only known algorithms, got {}",
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
