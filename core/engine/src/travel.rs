//! Time travel: checkpoints of a running simulation (crate-internal), and
//! [`Landmark`]s, the moments worth stopping at when stepping through a
//! run.
//!
//! A run is a function of its scenario, so going back in time can always
//! be done by running again from time 0. A checkpoint makes it cheap: it
//! is a copy of everything the simulation holds at one moment (queue,
//! nodes, network, clocks, PRNG, metrics, checks, trace hash, messages on
//! the wire) *except the recorded trace*, which grows with the run and
//! would otherwise be copied into every checkpoint. The checkpoint keeps
//! only the trace's length. Restoring puts the copy back and keeps the
//! simulation's own trace as the history: by determinism its first
//! `trace_len` events are exactly what happened up to the checkpoint, and
//! the events after it are exactly what will happen again as the run goes
//! on, so they stay as known history (a later restore further ahead needs
//! them) and are not recorded twice.
//!
//! ```text
//!  0 ──cp──────cp──────cp────── now ───── reached
//!  trace: [=========================|..........]   trace_len = events by now
//!  restore(cp2): state of cp2, trace_len = cp2's; the trace is untouched
//! ```
//!
//! A checkpoint is only valid for the history it was taken from: the same
//! scenario (a changed scenario, such as one with a new fault, is a new
//! history; restoring refuses a checkpoint of another scenario).
//!
//! Checkpoints are for time travel only: `election-core`'s `session`
//! takes, thins and restores them, and is the public way to travel in
//! time.

use crate::time::Micros;
use serde::Serialize;
use std::any::Any;

/// A saved moment of one simulation (taken and restored through the
/// [`crate::sim::TimeTravel`] side of [`crate::sim::Simulation`]).
pub struct Checkpoint {
    /// The engine, copied without its trace.
    pub(crate) engine: Box<dyn Any>,
    /// Its time.
    pub(crate) now_us: Micros,
    /// Trace events recorded by then.
    pub(crate) trace_len: usize,
    /// Events processed by then (the metrics' `events`).
    pub(crate) events: u64,
    /// Estimated heap and inline bytes of the copy.
    pub(crate) bytes: usize,
}

impl Checkpoint {
    /// True time of the saved moment.
    pub fn now_us(&self) -> Micros {
        self.now_us
    }

    /// Events processed up to the saved moment.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Trace events recorded up to the saved moment.
    pub fn trace_len(&self) -> usize {
        self.trace_len
    }

    /// Estimated memory the checkpoint holds, in bytes: the engine, its
    /// queued events, nodes, messages on the wire and network links (the
    /// parts that grow with the cluster and with bursts of messages), so
    /// that a timeline can bound the memory of its checkpoints, not only
    /// their number.
    pub fn approx_bytes(&self) -> usize {
        self.bytes
    }
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("now_us", &self.now_us)
            .field("trace_len", &self.trace_len)
            .field("events", &self.events)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

/// A moment worth stopping at when stepping through a run: where
/// [`crate::sim::Control::run_to_landmark`] stops. When one event is
/// several of these, the first listed wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Landmark {
    /// A property check failed (a `violation` trace event).
    Violation,
    /// The set of live leaders changed: a node took or gave up the lead,
    /// or a leader crashed.
    Leaders,
    /// A node took another role (a `role` trace event that changes the
    /// role, such as a follower becoming candidate; a new term in the same
    /// role is not a landmark).
    Role,
}

impl Landmark {
    /// The name the page shows: `violation`, `leaders` or `role`.
    pub fn name(self) -> &'static str {
        match self {
            Landmark::Violation => "violation",
            Landmark::Leaders => "leaders",
            Landmark::Role => "role",
        }
    }
}
