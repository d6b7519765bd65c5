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
//!
//! # Time travel
//!
//! A run is a function of its scenario, so any moment can be reached by
//! running again from time 0. Time travel makes that fast and keeps what
//! the user did reproducible. It lives in core, in
//! `election_core::session::Session`, which owns:
//!
//! - the scenario, including faults the user injected live;
//! - one recording simulation (`Box<dyn Simulation>`);
//! - the checkpoints of the current history and how far it has reached
//!   (`Timeline`, `session/timeline.rs`);
//! - the search for the run's end (`session/end.rs`);
//! - the last fork (what a change of the past dropped; `Fork`,
//!   `session/fork.rs`).
//!
//! The page's handle (`Playground` in `web/src/playground.rs`) holds one
//! `Session` and only converts between it and JavaScript; the CLI uses it
//! for `election run --at MS` (stop at that moment, as a page link's `at=`
//! does) and `election landmarks` (list the moments worth stopping at).
//! Its native tests are `core/tests/session/`.
//!
//! Checkpoints are taken and restored only through the crate-internal
//! `TimeTravel` supertrait of `Simulation` (with the queue's tuning, below):
//! outside the core, `Simulation` is `Control` (drive: step, run until, run
//! to the end or to a landmark) plus `Observe` (read), and `Session` is the
//! one way back in time.
//!
//! **Checkpoints** (`core/engine/src/travel.rs`, `engine/travel.rs`). A
//! checkpoint is a copy of the engine (queue, nodes, network, clocks, PRNG,
//! metrics,
//! checker, trace hash, messages on the wire) *without the recorded trace*,
//! which grows with the run; it keeps only the trace's length. Restoring
//! puts the copy back and **keeps the simulation's trace as the history**:
//! by determinism its first `trace_len` events are exactly what happened up
//! to the checkpoint, and the events after it are exactly what will happen
//! again, so they stay (a later restore further ahead needs them) and are
//! not recorded twice. A restore is refused, changing nothing, for a
//! checkpoint of another algorithm or scenario, or beyond the recorded
//! history.
//!
//! ```text
//!  time 0                                                       reached
//!  cp0 ---- cp1 ---- cp2 ---- cp3 ---- ... ---- cpN -------------- |
//!                    seek(t) = restore(cp2) + run forward to t  ^ t
//!  trace: [=============================|.......................]
//!                                       trace_len = events by now
//! ```
//!
//! **When checkpoints are taken.** While the run explores new time, one
//! every 100 ms of simulated time or every 5,000 events, whichever comes
//! first, so a seek never re-simulates more than one interval. A copy costs
//! about as much as the messages on the wire plus a thirty-second of the
//! pairs of nodes (each link's last arrival); when that size passes 2,000,
//! a checkpoint also waits at least 16 events per unit of size after the
//! previous one, so copying stays a bounded share of simulating however
//! crowded the network.
//!
//! **Thinning.** Past 64 checkpoints, or past 128 MiB of estimated memory
//! (`Checkpoint::approx_bytes`: queued events, nodes, node state such as
//! Raft's logs, links), every other checkpoint is dropped (time 0 and the
//! newest stay) and both intervals double. A long run keeps at most 64,
//! spread evenly over it.
//!
//! **Seeking** to `t`: restore the latest checkpoint at or before `t` when
//! `t` is behind now or that checkpoint is ahead of now, then run forward,
//! taking checkpoints at the frontier. Never past the horizon (`until_ms`,
//! or the 60 s run limit): an address asking for a day must not simulate a
//! day of heartbeats. Running forward can be done in slices of a bounded
//! number of events (the page's frames); each slice also spreads part of a
//! coming burst in the event queue ahead of its turn (at most 16 queued
//! events per event of the slice, at least 4,096), which changes no event
//! and no order. That queue work is the session's business: it is in the
//! crate-internal `TimeTravel`, not in the public `Control` or `Observe`.
//!
//! **Live faults and forks.** A fault injected from the page happens *now*:
//! its `at_ms` is set to the current time, the new scenario goes through the
//! validator (a bad fault changes nothing and names the field), and the run
//! is rebuilt from time 0 to now, so the scenario alone reproduces the
//! state and a share link carries it. Injecting before the latest moment
//! reached **forks** the history: the faults injected live after now belong
//! to the old future and are dropped (the scenario's own faults stay), and
//! the fork records where it branched and what it dropped, for the page to
//! say so.
//!
//! **The end search.** Where the run ends, as `election run` computes it
//! (core/engine/src/engine/settle.rs, module docs), is found on a separate,
//! non-recording copy of the run, in pieces of a bounded number of events so
//! the page can spread it
//! over frames, and cached; a live fault starts it over. Asking with a
//! budget of zero only reads what is known. Running a fresh session to its
//! end while the end is unknown (`Session::run_to_end`: the page's End, a
//! link's `at=end` before any play) needs no side copy: the recording run
//! itself stops at the end by the same rule (`Timeline::run_to_end`, the
//! resumable `run_to_end_within` between checkpoints due by events), one
//! pass instead of two.
//!
//! **Landmarks** (`Landmark` in `core/engine/src/travel.rs`): the moments worth
//! stopping at when stepping: a violation, a change in the set of live
//! leaders, a node taking another role (a new term in the same role is not
//! one); when one event is several, the first listed wins. The search
//! (`Session::next_landmark`, `session/landmarks.rs`) stops right after the
//! event, gives up at the horizon or after 500,000 events per call
//! (`MAX_LANDMARK_EVENTS`, about a second of recording simulation in wasm),
//! and takes checkpoints on the way; `Session::landmarks` lists them all up
//! to the horizon, with the leaders right after each (`election
//! landmarks`).

mod end;
mod fork;
mod landmarks;
mod timeline;
#[cfg(test)]
mod travel_tests;

pub use fork::Fork;
pub use landmarks::{LandmarkAt, LandmarkSearch, MAX_LANDMARK_EVENTS};
pub(crate) use timeline::spread_share;
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
    /// of work (events and the messages they sent; at least one event:
    /// `Engine::step_work`), so a caller can spread a crowded stretch
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
