//! [`Timeline`]: the checkpoints of one history that make seeking anywhere
//! in a run fast, and the policy of when to take and when to thin them.
//!
//! Going back in time restores the latest checkpoint at or before the
//! target and runs forward from there (the core is deterministic, so this
//! is exactly the state a fresh run to the target reaches, see
//! [`crate::travel`]). Checkpoints are taken while the run explores
//! new time, one every `interval_us` of simulated time or every
//! `interval_events` events, whichever comes first, so a seek never
//! re-simulates more than one interval. Memory stays bounded: past
//! [`MAX_CHECKPOINTS`], or past [`MAX_CHECKPOINT_BYTES`] of estimated
//! memory (a checkpoint of a 1,000-node cluster in the middle of an
//! all-to-all burst holds a million queued messages), every other
//! checkpoint is dropped and both intervals double, so a long run keeps
//! up to [`MAX_CHECKPOINTS`], spread evenly over it.
//!
//! A checkpoint copies the engine, and the copy costs about as much as
//! the messages on the wire (a thousand Bully nodes all starting at once
//! put half a million there) plus what the network keeps per pair of
//! nodes (the last arrival on each link). So when that size passes
//! [`SMALL_COPY`] a checkpoint is also never taken less than
//! [`COPY_COST_EVENTS`] events per unit of size after the last one:
//! copying then costs a bounded share of simulating, however crowded the
//! network, at the price of longer seeks in such runs. Runs of a few
//! dozen nodes never come near it.
//!
//! ```text
//!  time 0                                           reached
//!  cp0 ── cp1 ── cp2 ── cp3 ── ... ── cpN ─────────── │
//!                 seek(t) = restore(cp2) + run to t ▲ t
//! ```

use crate::sim::Simulation;
use crate::time::Micros;
use crate::travel::{Checkpoint, Landmark};

/// Most checkpoints kept; beyond it they are thinned out.
pub const MAX_CHECKPOINTS: usize = 64;

/// Most estimated bytes all checkpoints together may hold
/// (see [`Timeline::bytes`]); beyond it they are thinned out too.
pub const MAX_CHECKPOINT_BYTES: usize = 128 << 20;

/// Simulated time between checkpoints at first.
pub const FIRST_INTERVAL_US: Micros = 100_000;

/// Events between checkpoints at first (for event-dense stretches).
pub const FIRST_INTERVAL_EVENTS: u64 = 5_000;

/// Fewest events between two checkpoints per unit of the engine's size
/// (messages on the wire plus a thirty-second of the pairs of nodes) at
/// the moment the next one is due, above
/// [`SMALL_COPY`] (see the module notes).
pub const COPY_COST_EVENTS: u64 = 16;

/// Size (messages on the wire plus a thirty-second of the pairs of nodes)
/// up to which a checkpoint's copy is cheap enough to take whenever one
/// is due.
pub const SMALL_COPY: u64 = 2_000;

/// Queued events of a coming burst that a slice of `max_events` events
/// may spread ahead of time, per event of the slice (see
/// [`super::Session::run_until_within`]): moving one costs far less than
/// an event.
pub const SPREAD_PER_EVENT: u64 = 16;

/// ... and at least this many, however small the slice (in a burst the
/// page's slices go down to one event, which may send a thousand messages).
pub const SPREAD_AT_LEAST: u64 = 4_096;

/// The checkpoints of one history (one scenario) and how far it has run.
/// Read-only outside the crate: [`super::Session`] drives it.
pub struct Timeline {
    /// Ascending by position in the run; the first is time 0.
    checkpoints: Vec<Checkpoint>,
    interval_us: Micros,
    interval_events: u64,
    /// The latest time this history has reached.
    reached_us: Micros,
}

/// Whether `cp` lies after the simulation's current position in the run.
fn ahead(cp: &Checkpoint, sim: &dyn Simulation) -> bool {
    let events = sim.metrics().events;
    cp.events() > events || (cp.events() == events && cp.now_us() > sim.now_us())
}

/// What copying `sim` costs, roughly: messages on the wire plus a
/// thirty-second of the pairs of nodes (a link's last arrival is one
/// number, copied far faster than a message).
pub(crate) fn copy_size(sim: &dyn Simulation) -> u64 {
    let nodes = u64::from(sim.scenario().nodes);
    sim.metrics().in_flight.saturating_add(nodes * nodes / 32)
}

/// Events that must pass after a checkpoint before copying `sim` is
/// worth it: none for a small copy, else [`COPY_COST_EVENTS`] per unit of
/// [`copy_size`].
fn copy_floor(sim: &dyn Simulation) -> u64 {
    let size = copy_size(sim);
    if size <= SMALL_COPY {
        0
    } else {
        size.saturating_mul(COPY_COST_EVENTS)
    }
}

impl Timeline {
    /// The timeline of a simulation at time 0 (its first checkpoint).
    pub(crate) fn new(sim: &dyn Simulation) -> Self {
        Self {
            checkpoints: vec![sim.checkpoint()],
            interval_us: FIRST_INTERVAL_US,
            interval_events: FIRST_INTERVAL_EVENTS,
            reached_us: sim.now_us(),
        }
    }

    /// The latest simulated time this history has reached.
    pub fn reached_us(&self) -> Micros {
        self.reached_us
    }

    /// Number of checkpoints kept.
    pub fn len(&self) -> usize {
        self.checkpoints.len()
    }

    /// Whether no checkpoint is kept (never: time 0 always is).
    pub fn is_empty(&self) -> bool {
        self.checkpoints.is_empty()
    }

    /// Estimated bytes all checkpoints hold together.
    pub fn bytes(&self) -> usize {
        self.checkpoints.iter().map(Checkpoint::approx_bytes).sum()
    }

    /// Simulated time between checkpoints now.
    pub fn interval_us(&self) -> Micros {
        self.interval_us
    }

    /// Events between checkpoints now (for event-dense stretches).
    pub fn interval_events(&self) -> u64 {
        self.interval_events
    }

    /// Time and events processed of the latest checkpoint at or before
    /// time `t`: where a seek to `t` would start re-running from.
    pub fn checkpoint_before(&self, t: Micros) -> (Micros, u64) {
        let cp = self.best_for(t);
        (cp.now_us(), cp.events())
    }

    /// Records that the simulation was moved by other means (a step, a
    /// run to the end).
    pub(crate) fn saw(&mut self, sim: &dyn Simulation) {
        self.reached_us = self.reached_us.max(sim.now_us());
    }

    fn last(&self) -> &Checkpoint {
        self.checkpoints.last().expect("time 0 is always kept")
    }

    /// Whether the simulation is at or past the last checkpoint, where new
    /// ones are taken.
    fn at_frontier(&self, sim: &dyn Simulation) -> bool {
        !ahead(self.last(), sim)
    }

    fn save(&mut self, sim: &dyn Simulation) {
        self.checkpoints.push(sim.checkpoint());
        while self.checkpoints.len() > MAX_CHECKPOINTS
            || (self.checkpoints.len() > 2 && self.bytes() > MAX_CHECKPOINT_BYTES)
        {
            // Keep time 0, every other one, and the newest.
            let last = self.checkpoints.len() - 1;
            let mut i = 0;
            self.checkpoints.retain(|_| {
                let keep = i % 2 == 0 || i == last;
                i += 1;
                keep
            });
            self.interval_us = self.interval_us.saturating_mul(2);
            self.interval_events = self.interval_events.saturating_mul(2);
        }
    }

    /// The latest checkpoint at or before time `t`.
    fn best_for(&self, t: Micros) -> &Checkpoint {
        let i = self.checkpoints.partition_point(|cp| cp.now_us() <= t);
        &self.checkpoints[i.saturating_sub(1)]
    }

    /// Goes to time `t` (every event at or before it processed), backward
    /// or forward: from the nearest checkpoint at or before `t` when that
    /// is ahead of where the simulation is or `t` lies behind it.
    pub(crate) fn seek(&mut self, sim: &mut dyn Simulation, t: Micros) {
        let cp = self.best_for(t);
        if t < sim.now_us() || ahead(cp, sim) {
            let restored = sim.restore(cp);
            debug_assert!(restored, "a checkpoint of this history");
        }
        self.forward(sim, t, None, u64::MAX);
    }

    /// Runs forward toward `t` but stops after about `max_events` of
    /// [`work`] (events and the messages they sent; at least one event),
    /// so a caller can spread a crowded stretch over
    /// several calls; the events and their order are those of one
    /// [`Timeline::run_until`]. Each call also spreads part of a coming
    /// burst in the event queue ahead of its turn ([`SPREAD_PER_EVENT`]).
    /// Returns whether `t` was reached.
    pub(crate) fn run_until_within(
        &mut self,
        sim: &mut dyn Simulation,
        t: Micros,
        max_events: u64,
    ) -> bool {
        if t < sim.now_us() {
            return true;
        }
        let cap = work(sim).saturating_add(max_events.max(1));
        spread_share(sim, max_events);
        self.forward(sim, t, None, cap);
        sim.next_time_us().is_none_or(|next| next > t)
    }

    /// Runs forward to `t` (nothing happens when `t` is behind).
    pub(crate) fn run_until(&mut self, sim: &mut dyn Simulation, t: Micros) {
        if t >= sim.now_us() {
            self.seek(sim, t);
        }
    }

    /// Runs a history from where it stands to its end by the rule of
    /// [`Simulation::run_to_end`] (the first settled moment, or the run
    /// limit) in one pass, saving a checkpoint whenever one is due by
    /// events, and returns the end. For a caller that does not know the
    /// end yet: the same events as finding it on a side run and then
    /// running there, in one run instead of two. The simulation must be
    /// at the frontier and not past its end (a fresh history is).
    pub(crate) fn run_to_end(&mut self, sim: &mut dyn Simulation) -> Micros {
        debug_assert!(self.at_frontier(sim), "run_to_end starts at the frontier");
        loop {
            let last = self.last();
            let worth = last.events().saturating_add(copy_floor(sim));
            let due = last
                .events()
                .saturating_add(self.interval_events)
                .max(worth);
            let room = due.saturating_sub(sim.metrics().events).max(1);
            // Resumable: any split of the search gives the same end.
            if let Some(end) = sim.run_to_end_within(room) {
                self.saw(sim);
                return end;
            }
            if sim.metrics().events >= due {
                self.save(sim);
            }
        }
    }

    /// Processes events up to `limit` until the next landmark (see
    /// `Simulation::run_to_landmark`), at most about `max_events` of them,
    /// taking checkpoints on the way.
    pub(crate) fn run_to_landmark(
        &mut self,
        sim: &mut dyn Simulation,
        limit: Micros,
        max_events: u64,
    ) -> Option<Landmark> {
        spread_share(sim, max_events);
        self.forward(sim, limit, Some(max_events), u64::MAX)
    }

    /// Runs forward to `t` (or, with `budget`, to the next landmark
    /// before `t`, giving up after about `budget` events), saving a
    /// checkpoint whenever one is due beyond the last one; without a
    /// budget, stops early once the run's [`work`] reaches `cap`.
    fn forward(
        &mut self,
        sim: &mut dyn Simulation,
        t: Micros,
        mut budget: Option<u64>,
        cap: u64,
    ) -> Option<Landmark> {
        loop {
            // Stopped at a limit or by a script error: nothing more
            // happens, however far `t` is.
            if sim.stopped_by().is_some() || sim.script_error().is_some() {
                break;
            }
            let frontier = self.at_frontier(sim);
            let last = self.last();
            // At the frontier a chunk ends where the next checkpoint is
            // due; behind it (replaying known history, whose checkpoints
            // exist) at the last checkpoint, from where new ones are due.
            let (chunk_end, due_events, save_at_end) = if frontier {
                // Not before the copy is worth it: by events, and by time
                // only once enough events have passed.
                let worth = last.events().saturating_add(copy_floor(sim));
                let due_events = last
                    .events()
                    .saturating_add(self.interval_events)
                    .max(worth);
                let due_us = last.now_us().saturating_add(self.interval_us);
                if sim.metrics().events >= worth {
                    // A checkpoint put off by the copy floor is taken now.
                    let due_us = due_us.max(sim.now_us());
                    (t.min(due_us), due_events, due_us <= t)
                } else {
                    (t, due_events, false)
                }
            } else {
                (t.min(last.now_us()), u64::MAX, false)
            };
            let started = sim.metrics().events;
            match &mut budget {
                Some(left) => {
                    let room = due_events.saturating_sub(started).min(*left).max(1);
                    if let Some(landmark) = sim.run_to_landmark(chunk_end, room) {
                        self.saw(sim);
                        return Some(landmark);
                    }
                    *left = left.saturating_sub(sim.metrics().events - started);
                }
                // `step` is false once a limit stopped the run (and the
                // queue then reports nothing left).
                None if frontier => {
                    while sim.next_time_us().is_some_and(|next| next <= chunk_end)
                        && sim.metrics().events < due_events
                        && work(sim) < cap
                        && sim.step_work() > 0
                    {}
                }
                None if cap < u64::MAX => {
                    while sim.next_time_us().is_some_and(|next| next <= chunk_end)
                        && work(sim) < cap
                        && sim.step_work() > 0
                    {}
                }
                None => sim.run_until(chunk_end),
            }
            if frontier && sim.metrics().events >= due_events {
                // Due by events, inside the chunk (maybe inside an instant).
                self.save(sim);
                continue;
            }
            if sim.next_time_us().is_some_and(|next| next <= chunk_end) {
                if budget == Some(0) || work(sim) >= cap {
                    break;
                }
                continue;
            }
            // Every event up to the chunk's end is processed.
            sim.run_until(chunk_end);
            if save_at_end {
                self.save(sim);
            }
            if chunk_end == t {
                break;
            }
        }
        self.saw(sim);
        None
    }
}

/// Spreads a slice's share of a coming burst in `sim`'s event queue ahead
/// of its turn ([`SPREAD_PER_EVENT`] per unit of the slice's `max_events`,
/// at least [`SPREAD_AT_LEAST`]; the same events come in the same order
/// either way), so that the one event reaching the burst does not move
/// hundreds of thousands at once. Every piece of a run in slices calls it
/// first: the session's (`run_until_within`, the landmark search), the end
/// search's and the story's side runs. 1,024 Raft servers with timeouts at
/// the floor fill a bucket with about 2 million deliveries, and spreading
/// it whole took 75 to 125 ms natively in one call of the page's end
/// search, which did not call this (`cargo run --release -p election-core
/// --example open_time`).
pub(crate) fn spread_share(sim: &mut dyn Simulation, max_events: u64) {
    let moves = max_events
        .saturating_mul(SPREAD_PER_EVENT)
        .max(SPREAD_AT_LEAST);
    sim.spread_ahead(usize::try_from(moves).unwrap_or(usize::MAX));
}

/// The work a run has done: its events and the messages they sent. The
/// unit of [`Timeline::run_until_within`]'s pieces, as of the engine's
/// `step_work`: events vary a thousandfold in cost (a delivery against a
/// broadcast to 1,023 nodes), events and messages together do not, so a
/// piece sized from the last ones' time keeps to it (a piece of events
/// took 50 to 100 ms in the 1,024-node Raft link of issue 31, where the
/// page's pieces aim at 2 ms).
fn work(sim: &dyn Simulation) -> u64 {
    let m = sim.metrics();
    m.events.saturating_add(m.sent)
}
