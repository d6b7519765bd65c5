//! [`Session`]: time travel over one scenario. It owns the scenario, a
//! recording simulation of it and the checkpoints of its history, and
//! lets a user go anywhere in the run, step from landmark to landmark,
//! act in the middle of it (a fault injected now) and learn where the run
//! ends, all natively: the wasm page and the CLI drive the same type.
//!
//! ```text
//!  Session ── sim: Box<dyn Simulation>   the recording run, at `now`
//!          ── timeline: Timeline          checkpoints, how far it reached
//!          ── end: EndSearch               the run's end, from a side run
//!          ── base_faults, last_fork       live faults and forks
//! ```
//!
//! Going back restores the nearest checkpoint before the wanted time and
//! runs on from there ([`Timeline`]). Runs are deterministic, so the
//! result is exactly what a fresh run of the same scenario to the same
//! time shows, and the scenario alone (with the faults injected live)
//! reproduces what the user did.
//!
//! Changing the past forks a new history: a fault injected before the
//! latest moment reached drops the faults injected live after it (the old
//! future; the scenario's own faults stay), and the run is rebuilt from
//! the new scenario ([`Session::inject_fault`], [`Fork`]).
//!
//! ```
//! use election_algorithms::{Scenario, ScenarioExt};
//! use election_tools::session::Session;
//! let scenario = Scenario::from_json(
//!     r#"{"algorithm": "bully", "nodes": 6, "seed": 3, "until_ms": 3000}"#).unwrap();
//! let mut session = Session::new(&scenario);
//! session.seek(2_000_000);
//! session.seek(500_000); // back: from the nearest checkpoint
//! assert_eq!(session.now_us(), 500_000);
//! assert_eq!(session.reached_us(), 2_000_000);
//! ```

mod end;
mod fork;
mod landmarks;
mod timeline;
#[cfg(test)]
mod travel_tests;

pub use fork::Fork;
pub use landmarks::{LandmarkAt, MAX_LANDMARK_EVENTS};
pub use timeline::{
    COPY_COST_EVENTS, FIRST_INTERVAL_EVENTS, FIRST_INTERVAL_US, MAX_CHECKPOINT_BYTES,
    MAX_CHECKPOINTS, SMALL_COPY, SPREAD_AT_LEAST, SPREAD_PER_EVENT, Timeline,
};

use crate::Scenario;
use crate::algorithms;
use crate::scenario::DEFAULT_RUN_LIMIT_US;
use crate::sim::{RunSummary, Simulation};
use crate::time::Micros;
use end::EndSearch;

/// A recording simulation of one scenario with its history: seek, step,
/// act now, fork, find the end.
pub struct Session {
    /// The recording run, at the current moment.
    sim: Box<dyn Simulation>,
    /// Checkpoints of this history and how far it has run.
    timeline: Timeline,
    /// The end of the run as `election run` computes it, once sought.
    end: EndSearch,
    /// Faults of the scenario the session was made from; those after
    /// them were injected live.
    base_faults: usize,
    /// What the last injected fault dropped, if it forked the history.
    last_fork: Option<Fork>,
}

impl Session {
    /// A session at time 0 of a validated scenario (see
    /// [`ScenarioExt::validate`](crate::ScenarioExt::validate); every parsed scenario is).
    ///
    /// # Panics
    /// Never for a scenario that passed validation (see
    /// [`algorithms::build`]).
    pub fn new(scenario: &Scenario) -> Self {
        let sim = algorithms::build(scenario, true);
        Self {
            timeline: Timeline::new(sim.as_ref()),
            sim,
            end: EndSearch::default(),
            base_faults: scenario.faults.len(),
            last_fork: None,
        }
    }

    /// The scenario, including every fault injected so far.
    pub fn scenario(&self) -> &Scenario {
        self.sim.scenario()
    }

    /// The simulation at the current moment, for reading.
    pub fn sim(&self) -> &dyn Simulation {
        self.sim.as_ref()
    }

    /// The checkpoints (for measurements and tests).
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Current time, microseconds.
    pub fn now_us(&self) -> Micros {
        self.sim.now_us()
    }

    /// The latest time this history has reached, microseconds: acting
    /// before it forks the history.
    pub fn reached_us(&self) -> Micros {
        self.timeline.reached_us()
    }

    /// The latest time worth playing to: `until_ms` if set, else the
    /// core's run limit for runs without one
    /// ([`DEFAULT_RUN_LIMIT_US`]).
    pub fn horizon_us(&self) -> Micros {
        self.scenario().until_us.unwrap_or(DEFAULT_RUN_LIMIT_US)
    }

    /// The run summary so far (the `election run --json` object; final
    /// once [`Session::run_to_end`] ran).
    pub fn summary(&mut self) -> RunSummary {
        self.sim.summary()
    }

    /// Processes one event; `false` when none is left.
    pub fn step(&mut self) -> bool {
        let stepped = self.sim.step();
        self.timeline.saw(self.sim.as_ref());
        stepped
    }

    /// Goes to time `t`: forward by running, backward from the nearest
    /// checkpoint (see [`Timeline`]). Never past the horizon, where
    /// playing stops too: a far time (one day, on a scenario that ends at
    /// 60 s) must not run a day of simulated heartbeats.
    pub fn seek(&mut self, t: Micros) {
        let t = t.min(self.horizon_us().max(self.sim.now_us()));
        self.timeline.seek(self.sim.as_mut(), t);
    }

    /// Processes every event up to and including `t`, forward only
    /// (nothing happens when `t` is behind; see [`Session::seek`]).
    pub fn run_until(&mut self, t: Micros) {
        self.timeline.run_until(self.sim.as_mut(), t);
    }

    /// Runs toward `t` (forward only) but stops after about `max_events`
    /// events (at least one), so a caller can spread a crowded stretch
    /// over several calls; the events and their order are those of one
    /// [`Session::run_until`]. Each call also spreads part of a coming
    /// burst in the event queue ahead of its turn ([`SPREAD_PER_EVENT`]
    /// per event, at least [`SPREAD_AT_LEAST`]). Returns whether `t` was
    /// reached.
    pub fn run_until_within(&mut self, t: Micros, max_events: u64) -> bool {
        self.timeline
            .run_until_within(self.sim.as_mut(), t, max_events)
    }
}
