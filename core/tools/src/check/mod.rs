//! The failure finder (`election check`, the page's "Find a failure"):
//! random fault schedules built only from the fault kinds asked for, one
//! per seed; a run fails when a safety property the algorithm claims is
//! broken (or, when asked, when no single leader is settled within a
//! time after the last fault); the first failure is shrunk to a minimal
//! scenario that still fails the same property
//! (docs/ARCHITECTURE.md, The failure finder).
//!
//! - [`schedule`]: the scenario of one seed (the cluster and its faults);
//! - [`verdict`]: what one run broke, as the finder counts it;
//! - [`shrink`]: fewer faults, fewer nodes, earlier and shorter faults, a
//!   simpler network, to a fixed point;
//! - [`spec`]: what to search ([`CheckSpec`]) and the fault kinds.
//!
//! Everything is a function of the spec and the seed: the CLI runs the
//! seeds on every core and the page in Web Workers, and both shrink the
//! lowest failing seed the same way, so they find the same
//! counterexample.

mod nodes;
pub mod schedule;
pub mod shrink;
pub mod spec;
pub mod verdict;

pub use spec::{CheckSpec, FaultKind};
pub use verdict::Finding;

use crate::scenario::Scenario;
use crate::share;
use crate::time::{Micros, to_ms};
use serde::Serialize;

/// A shrunk failure: the minimal scenario and what it breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    /// The seed whose schedule failed first.
    pub seed: u64,
    /// The property it breaks (`split_brain`, `one_leader_per_term`, ...,
    /// or [`verdict::LIVENESS`]).
    pub property: String,
    /// What happened, in words (the violation's sentence).
    pub detail: String,
    /// When the minimal scenario breaks it, true time.
    pub at_us: Micros,
    /// The minimal scenario (replayable with `election run --scenario`).
    pub scenario: Scenario,
    /// Candidate runs the shrinking took.
    pub shrink_runs: u64,
}

impl Counterexample {
    /// The page address (relative to the page) that opens the scenario at
    /// the moment of the violation: `?at=<ms>#s=1.<data>`, as the page's
    /// own share links are written.
    pub fn link(&self) -> String {
        format!(
            "?at={}#s={}",
            to_ms(self.at_us),
            share::encode(&self.scenario)
        )
    }

    /// The JSON the CLI prints as `counterexample` and the page reads:
    /// `seed`, `property`, `detail`, `at_ms`, `scenario` (the canonical
    /// scenario object) and `link`.
    pub fn to_json(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct Out<'a> {
            seed: u64,
            property: &'a str,
            detail: &'a str,
            at_ms: f64,
            scenario: serde_json::Value,
            link: String,
        }
        serde_json::to_value(Out {
            seed: self.seed,
            property: &self.property,
            detail: &self.detail,
            at_ms: to_ms(self.at_us),
            scenario: self.scenario.to_json(),
            link: self.link(),
        })
        .unwrap_or_default()
    }
}

/// Checks one seed: what its run broke first, if anything.
pub fn check_seed(spec: &CheckSpec, seed: u64) -> Option<Finding> {
    let scenario = spec.full(&schedule::scenario_for(spec, seed));
    verdict::first(&scenario, spec.liveness_us)
}

/// Shrinks the failure `found` of `seed` (from [`check_seed`]).
pub fn shrink_seed(spec: &CheckSpec, seed: u64, found: &Finding) -> Counterexample {
    shrink::shrink(spec, seed, schedule::scenario_for(spec, seed), found)
}
