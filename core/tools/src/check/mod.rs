//! The failure finder (`election check`, the page's "Find a failure"):
//! random fault schedules built only from the fault kinds asked for, one
//! per seed; a run fails when a safety property the algorithm claims is
//! broken (or, when asked, when no single leader is settled within a
//! time after the last fault); the first failure is shrunk to a minimal
//! scenario that still fails the same property
//! (below).
//!
//! - [`schedule`]: the scenario of one seed (the cluster and its faults);
//! - [`epilogue`]: for a liveness check, what undoes a schedule's faults;
//! - [`verdict`]: what one run broke, as the finder counts it;
//! - [`shrink`]: fewer faults, fewer nodes, earlier and shorter faults, a
//!   simpler network, to a fixed point;
//! - [`search`]: then a smaller failure of the same property across seeds
//!   and start sets (fewest nodes, fewest faults, earliest violation);
//! - [`spec`]: what to search ([`CheckSpec`]) and the fault kinds;
//! - [`shrink_seed`] (here, above `shrink` and `search`): both in turn.
//!
//! Everything is a function of the spec and the seed: the CLI runs the
//! seeds on every core and the page in Web Workers, and both shrink the
//! lowest failing seed the same way, so they find the same
//! counterexample.
//!
//! # The failure finder
//!
//! `election check` and the page's "Find a failure" (`core/tools/src/check/`)
//! look for a run that breaks a property and make it small enough to read.
//!
//! - **Schedules** (`schedule.rs`): per seed, its own PCG stream draws the
//!   cluster (the `--scenario` with its faults replaced, or 3 to 8 nodes, a
//!   ring order and a network with loss and duplication up to 5% on 40% of
//!   seeds) and 1 to 8 faults, a mean gap of 25 to 600 ms apart, each of a
//!   kind picked among those asked for (`crash`, `recover`, `pause`,
//!   `clock`, `partition` (a random side), `heal`, `slow`, `flaky`, `cut`,
//!   `uncut`, `network`; default all but `uncut`), a third of node faults
//!   aimed at `"leader"`. With `--liveness-ms` an **epilogue** undoes the
//!   faults 1 s after the last is over (heal, a loss-free network, recovery
//!   of every node that may have crashed, normal speed); it is derived from
//!   the schedule, never shrunk on its own.
//! - **The check of one run** (`verdict.rs`): the violations the checker
//!   reports for the algorithm's claims (core/engine/src/checks.rs, module
//!   docs), except
//!   `lease_overlap` when the schedule has a clock fault, a pause or a slowed
//!   node (the broken assumption, as in the fuzzer) and
//!   `stale_write_accepted` with `"fencing": false`; with a liveness bound,
//!   `leader_after_faults` when the run did not settle with a single leader
//!   within the bound after the last fault-type event (the summary's
//!   `recovery_ms`; with no fault, from time 0).
//! - **Shrinking** (`shrink.rs`, `nodes.rs`): the lowest failing seed is
//!   shrunk, keeping a step only if the run (epilogue included) still fails
//!   the *same* property: fewer faults (delta debugging: runs of faults of
//!   halving length, down to single faults), fewer nodes (each removed in
//!   turn, higher ids and extra nodes renumbered, faults aimed at it
//!   dropped, partitions losing it), earlier and shorter faults (each
//!   `at_ms` tried at 0, then halved in whole ms; pause and flaky lengths and
//!   slowdowns halved), a simpler network (no loss, no duplication, fixed
//!   latency, FIFO; the starting network and each network fault); the
//!   passes repeat to a fixed point, at most 4,000 runs
//!   (`MAX_SHRINK_RUNS`). Candidates are tried in a fixed order, so the
//!   result is a function of the spec and the seed.
//! - **The counterexample**: seed, property, sentence, time, what the
//!   shrink and the search tried, the minimal scenario (epilogue included; `election run --scenario` replays it) and
//!   its page link `?at=<ms>#s=1.<data>`, the page's own share-link form,
//!   which opens it paused at the violation.
//!
//! The CLI (`cli/src/check.rs`) checks the seeds on every core
//! (`parallel.rs`) and shrinks the lowest failing seed; the page's workers
//! (`www/finder/`, wasm `FailureFinder` in `web/src/finder.rs`) check
//! chunks of run indices, report the failing ones, and one worker shrinks
//! the lowest, so both find the same counterexample. The page opens it by
//! pushing its link and reopening from the address (as for Back).

pub mod epilogue;
mod nodes;
pub mod schedule;
pub mod search;
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
    /// Candidate runs the plain shrinking took (the first pass and the
    /// one after the search, if it found something).
    pub shrink_runs: u64,
    /// What the search across seeds and start sets tried.
    pub search: search::Search,
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

    /// What the shrinking tried, in a sentence: `shrunk in 31 runs; tried
    /// 1..5 nodes, 40 seeds and 2 start sets (every node, nobody) each:
    /// 412 runs; found a smaller failure`.
    pub fn tried(&self) -> String {
        format!(
            "shrunk in {} runs; {}",
            self.shrink_runs,
            self.search.words()
        )
    }

    /// The JSON the CLI prints as `counterexample` and the page reads:
    /// `seed` (whose schedule failed first), `property`, `detail`,
    /// `at_ms`, `scenario` (the canonical scenario object, whose own
    /// `seed` the search may have changed), `link`, `runs` (the shrink's
    /// and the search's) and `tried` ([`Counterexample::tried`]).
    pub fn to_json(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct Out<'a> {
            seed: u64,
            property: &'a str,
            detail: &'a str,
            at_ms: f64,
            scenario: serde_json::Value,
            link: String,
            runs: u64,
            tried: String,
        }
        serde_json::to_value(Out {
            seed: self.seed,
            property: &self.property,
            detail: &self.detail,
            at_ms: to_ms(self.at_us),
            scenario: self.scenario.to_json(),
            link: self.link(),
            runs: self.shrink_runs + self.search.runs,
            tried: self.tried(),
        })
        .unwrap_or_default()
    }
}

/// Checks one seed: what its run broke first, if anything.
pub fn check_seed(spec: &CheckSpec, seed: u64) -> Option<Finding> {
    let scenario = spec.full(&schedule::scenario_for(spec, seed));
    verdict::first(&scenario, spec.liveness_us)
}

/// Shrinks the failure `found` of `seed` (from [`check_seed`]): the
/// plain passes on its failing schedule (without its epilogue), then the
/// search across seeds and start sets for a smaller failure of the same
/// property (fewest nodes, then fewest faults, then the earliest
/// violation), which is shrunk again. Here, above both, because the
/// search shrinks what it finds (`shrink::Shrinker`).
pub fn shrink_seed(spec: &CheckSpec, seed: u64, found: &Finding) -> Counterexample {
    let core = schedule::scenario_for(spec, seed);
    // The schedule's own network, for the search: the plain shrink makes
    // it simpler (fixed latency), which can make a failure rarer on other
    // seeds (two candidates whose timeouts must fall within one latency).
    let network = core.network.clone();
    let mut s = shrink::Shrinker {
        spec,
        property: found.property.clone(),
        best: core,
        found: found.clone(),
        runs: 0,
    };
    s.plain();
    let search = search::across(&mut s, &network);
    Counterexample {
        seed,
        property: s.property,
        detail: s.found.detail,
        at_us: s.found.at_us,
        scenario: spec.full(&s.best),
        shrink_runs: s.runs,
        search,
    }
}
