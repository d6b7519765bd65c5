//! The search for a smaller failure across seeds and start sets, after
//! the plain shrink (`shrink.rs`). A plain shrink keeps its seed, and a
//! seed that showed a bug on six nodes may hide it on two: a Raft-style
//! script that votes twice in a term shrank to 6 nodes, one partition and
//! a violation in term 33 on one seed, and to 2 nodes, no fault and term
//! 1 on another (issue 29, item 19). So the smallest failure of the same
//! property is looked for in a fixed order of levels:
//!
//! 1. fewest nodes: `n` from 1 up to the shrunk scenario's count (its
//!    highest ids removed as the plain shrink removes a node);
//! 2. then fewest faults: no fault at all, then the shrunk faults that
//!    remain on `n` nodes;
//! 3. then the earliest violation: every candidate of the first level
//!    that fails is run, and the earliest failure wins (the first in the
//!    order below on a tie).
//!
//! A level's candidates are [`SEEDS_PER_SIZE`] seeds (the failing seed and
//! those after it) times the start sets (the shrunk scenario's, every
//! node, nobody), on the failing schedule's own network (the plain
//! shrink's simpler one, fixed latency and no loss, can make a race rarer;
//! the shrink after the search simplifies it again where the failure
//! stays). A level no smaller than the shrunk scenario is skipped,
//! and the shrunk scenario's own level counts only an earlier violation.
//! The first level with a failure ends the search; its earliest failure
//! is shrunk again by the plain passes. At most [`MAX_SEARCH_RUNS`] runs,
//! counted and reported ([`Search`]) with what was tried. Deterministic:
//! a function of the spec, the seed and the shrunk scenario.

use super::nodes::remove_node;
use super::shrink::Shrinker;
use super::verdict::{self, Finding};
use crate::ScenarioExt;
use crate::scenario::{NetworkSpec, Scenario, StartSet};
use crate::time::Micros;

/// Seeds tried per level (number of nodes and faults).
pub const SEEDS_PER_SIZE: u64 = 40;
/// Most runs the search may take (on top of the plain shrink's).
pub const MAX_SEARCH_RUNS: u64 = 2000;

/// What the search tried, for the report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Search {
    /// The smallest and largest number of nodes tried (`None`: nothing
    /// could be smaller than the plain shrink's result).
    pub nodes: Option<(u32, u32)>,
    /// Seeds tried per level.
    pub seeds_each: u64,
    /// The start sets tried, in words (`every node`, `nobody`, `n0`).
    pub start_sets: Vec<String>,
    /// Runs the search took.
    pub runs: u64,
    /// Whether it stopped at [`MAX_SEARCH_RUNS`] before the end.
    pub cut_short: bool,
    /// Whether it found a smaller failure than the plain shrink.
    pub improved: bool,
}

impl Search {
    /// What was tried, in a sentence: `tried 1..5 nodes, 40 seeds and 2
    /// start sets (every node, nobody) each: 412 runs; found a smaller
    /// failure`.
    pub fn words(&self) -> String {
        let Some((lo, hi)) = self.nodes else {
            return "nothing smaller to try".into();
        };
        let nodes = if lo == hi {
            format!("{lo} node{}", if lo == 1 { "" } else { "s" })
        } else {
            format!("{lo}..{hi} nodes")
        };
        let starts = match self.start_sets.len() {
            1 => format!("start set {}", self.start_sets[0]),
            k => format!("{k} start sets ({})", self.start_sets.join(", ")),
        };
        let outcome = match (self.improved, self.cut_short) {
            (true, _) => "found a smaller failure",
            (false, true) => "stopped at the run limit, none smaller found",
            (false, false) => "none smaller",
        };
        format!(
            "tried {nodes}, {} seeds and {starts} each: {} runs; {outcome}",
            self.seeds_each, self.runs
        )
    }
}

/// A start set in words.
fn start_words(start: &StartSet) -> String {
    match start {
        StartSet::All => "every node".into(),
        StartSet::None => "nobody".into(),
        StartSet::Ids(ids) if ids.is_empty() => "nobody".into(),
        StartSet::Ids(ids) => ids
            .iter()
            .map(|id| format!("n{id}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// `s` cut down to `n` participants, the highest ids removed one by one.
fn cut_to(s: &Scenario, n: u32) -> Option<Scenario> {
    let mut c = s.clone();
    while c.nodes > n {
        c = remove_node(&c, c.nodes - 1)?;
    }
    Some(c)
}

/// Runs the search on a shrinker whose plain passes are done, with
/// `network` the failing schedule's own; adopts and shrinks again the
/// smallest failure it finds.
pub(super) fn across(s: &mut Shrinker<'_>, network: &NetworkSpec) -> Search {
    let start = s.best.clone();
    let seed0 = start.seed;
    let mut starts = vec![start.start.clone()];
    for set in [StartSet::All, StartSet::None] {
        if !starts.contains(&set) {
            starts.push(set);
        }
    }
    let mut search = Search {
        seeds_each: SEEDS_PER_SIZE,
        start_sets: starts.iter().map(start_words).collect(),
        ..Search::default()
    };
    let best_key = (start.nodes, start.faults.len());
    for n in 1..=start.nodes {
        let Some(cut) = cut_to(&start, n) else {
            continue;
        };
        let mut variants = vec![Vec::new()];
        if !cut.faults.is_empty() {
            variants.push(cut.faults.clone());
        }
        for faults in variants {
            let key = (n, faults.len());
            if key > best_key {
                continue;
            }
            let lo = search.nodes.map_or(n, |(lo, _)| lo);
            search.nodes = Some((lo, n));
            let mut level: Option<(Micros, Scenario, Finding)> = None;
            for k in 0..SEEDS_PER_SIZE {
                for set in &starts {
                    if search.runs >= MAX_SEARCH_RUNS {
                        search.cut_short = true;
                        return search;
                    }
                    let mut c = cut.clone();
                    c.faults.clone_from(&faults);
                    c.network.clone_from(network);
                    c.seed = seed0.wrapping_add(k);
                    // The cut scenario's own start set, renumbered.
                    if *set != start.start {
                        c.start = set.clone();
                    }
                    if c == start {
                        continue;
                    }
                    let full = s.spec.full(&c);
                    if full.validate().is_err() {
                        continue;
                    }
                    search.runs += 1;
                    let Some(found) = verdict::fails(&full, s.spec.liveness_us, &s.property) else {
                        continue;
                    };
                    let bar = level.as_ref().map_or(Micros::MAX, |(at, _, _)| *at).min(
                        if key == best_key {
                            s.found.at_us
                        } else {
                            Micros::MAX
                        },
                    );
                    if found.at_us < bar {
                        level = Some((found.at_us, c, found));
                    }
                }
            }
            if let Some((_, c, found)) = level {
                s.best = c;
                s.found = found;
                s.plain();
                search.improved = true;
                return search;
            }
        }
    }
    search
}
