//! The discrete-event engine: runs one algorithm on a simulated cluster.
//!
//! ```text
//!  scenario ──▶ Engine<P> ──pop (time, seq)──▶ deliver / timer / fault
//!                  ▲                              │
//!                  └── schedule ◀── commands ◀── node handler (P)
//! ```
//!
//! The engine owns the queue, the network, the clocks, the one PRNG, the
//! metrics, the checker and the trace. Nodes only see their [`Ctx`].
//!
//! # The event loop
//!
//! One `step()`: pop the earliest event; if it is a fault-type event, mark
//! the fault in the metrics first (so what it triggers counts as its cost);
//! handle it; count it unless it was bookkeeping; bring the set of live
//! leaders up to date (metrics and checks); record the first settling after
//! the last fault. Commands are carried out after the handler returns, in
//! the order pushed.
//!
//! What each event does:
//!
//! - **Start**: at time 0, the node's `on_start` with
//!   `Boot::Fresh { initiate }` (`initiate` from the scenario's `start`). A
//!   recovery (a fault) calls `on_start` with `Boot::Recover` on a state
//!   rebuilt from `Protocol::Persistent` alone: a crash loses the rest.
//! - **Deliver**: dropped if it was lost at send time, the receiver is down,
//!   or the link is blocked now (partition or cut); deferred while the
//!   receiver is paused or slowed; else `on_message`.
//! - **Timer**: ignored if cancelled or re-armed since (each arming has a
//!   generation); fired in local time, so a fast clock fires early and a
//!   paused node fires on resume. Re-arming to a later deadline keeps the
//!   queued entry, which pops early and queues itself again (lazy
//!   re-arming).
//!
//! **Pending timers, as the page sees them.** Each armed timer keeps the
//! true time it was last armed (pushing a timer back without a new queue
//! entry counts: its countdown starts again then). A node's view
//! (`NodeView::next_timer`) is its armed timer that fires first: its class
//! (`Protocol::timer_class`, asked only when views are built), armed at,
//! and fires at, which is what the queue will do with it if nothing
//! changes it first: the latest of its entry's time, the true time the
//! node's local clock reaches the deadline (drift and offset as they are
//! now) and the end of a pause; re-arming, cancelling, a clock fault or a
//! longer pause would each change it, and each is an event. A crashed node
//! has no timers. Because of lazy re-arming and cancelled timers, the
//! queue's next entry (`Engine::next_time`) may be bookkeeping where
//! nothing happens; `Engine::next_activity` is the time of the next event
//! that counts (see [`crate::metrics`], events): it reads the queue in time
//! order (`EventQueue::earliest_by`, stopping at the first bucket past the
//! best time found), a timer at its real fire time, a delivery held for a
//! paused or slowed receiver when it is handed over, a stale entry not at
//! all. It changes nothing; the page uses it to skip quiet time.
//! - **Undeliverable**: algorithms with `WANTS_UNDELIVERABLE` hear, one reply
//!   timeout after the send, that a message could not arrive (destination
//!   down, partitioned or cut; never a random loss), like a TCP connection
//!   timing out.
//! - **Fault, Resume, FlakyDown, FlakyUp**: applied by the engine
//!   (`engine/faults.rs`); a fault aimed at `"leader"` resolves to the lowest
//!   live leader then, or is skipped with a log line when there is none
//!   (one aimed at `"leader-or-next"` waits instead, and fires at the
//!   moment a node next takes the leader role, as a fault event then).
//!
//! Roles are announced, not inferred: a node says `set_role(Leader, term)`
//! and `set_leader(Some(id))`, and the engine only believes what it is told.
//! Algorithms that need non-participant nodes (a coordination service, a
//! fenced resource) name them as `extras` in their registry entry; they get
//! ids after the n participants, in that order (`Config::service`,
//! `Config::resource`), and the role `Service`. They are added once, by one
//! wrapper (`core/algorithms/src/algorithms/consensus/extras.rs`): the
//! algorithm's engine runs `extras::Node<P>`, which is either a participant `P`
//! or one of the extra
//! nodes, and `P` implements `extras::Participant` to say which of its
//! messages is a write to the resource (`write_token`) and, with a service,
//! how the service answers (`start_service`, `serve`, `service_timer`).
//! Messages and timers stay the algorithm's own types.
//!
//! # What the speed budget forces
//!
//! What the speed budgets (docs/PERFORMANCE.md, Budgets) force on the code;
//! keep these unless a measurement says otherwise:
//!
//! - The engine stays generic, `Engine<P>`, one copy per algorithm: a
//!   non-generic engine over an enum was 17% less wasm and 25 to 40% slower.
//! - The queue is a radix heap with 64-way digits; a node's first armed
//!   timer sits in its slot; the common commands are inlined into the
//!   handler loop; trace events are not built when a run does not record
//!   (the `emit!` macro).
//! - Live leaders are recomputed only when a node takes or leaves the
//!   leader role; settling only when something it reads changed.
//! - The wasm build is opt-level 3 (docs/PERFORMANCE.md, Size).

use crate::checks::{Checker, Violation};
use crate::clock::LocalClock;
use crate::metrics::Metrics;
use crate::network::{DropReason, Network};
use crate::protocol::{
    Boot, Command, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::queue::EventQueue;
use crate::rng::{SimRng, Stream};
use crate::scenario::{DEFAULT_RUN_LIMIT_US, FaultAction, Scenario, StartSet, Target};
use crate::time::{Micros, to_ms};
use crate::trace::{Event, HashTag, TraceEvent, TraceHasher};
use election_model::script_error::ScriptError;
use std::hash::{Hash, Hasher};

/// Records a trace event when the run keeps a trace: `emit!(self,
/// Event::...)`. A macro rather than a method so that the event is not
/// even built (and dropped) when nothing would keep it: in a run that
/// does not record, in a replay of history already recorded (after a
/// restore), and past the trace's cap. Building it was a cost on every
/// event: a send's event formats the message's text, a fifth of a
/// recording run's time (Raft, 256 nodes, measured with perf).
macro_rules! emit {
    ($engine:expr, $event:expr) => {
        if $engine.record {
            if $engine.trace_keeps_next() {
                let event = $event;
                $engine.record_event(event);
            } else {
                $engine.skip_event();
            }
        }
    };
}

mod commands;
mod events;
mod faults;
mod flight_book;
mod settle;
mod timers;
mod travel;
mod views;

use flight_book::FlightBook;
use timers::Timers;

/// Bytes the event queue spends on an entry beside the event itself (its
/// time and its share of the buckets), for the memory estimates.
const QUEUE_ENTRY_OVERHEAD: usize = 32;

use crate::limits::{
    Limit, MAX_IN_FLIGHT, MAX_RUN_BYTES, MAX_TIMERS, MEMORY_CHECK_EVENTS, StoppedBy,
};
pub use crate::limits::{MAX_EVENTS, MAX_TRACE_EVENTS};

/// What the engine schedules.
#[derive(Clone)]
enum Ev<M, T> {
    Start(NodeId),
    Deliver {
        /// Message id * 2 + copy number (0 original, 1 duplicate).
        wire: u64,
        from: NodeId,
        to: NodeId,
        msg: M,
        sent_at: Micros,
        lost: Option<DropReason>,
        slowed: bool,
    },
    Timer {
        node: NodeId,
        timer: T,
        generation: u64,
    },
    Undeliverable {
        node: NodeId,
        incarnation: u32,
        to: NodeId,
        msg: M,
    },
    Fault(usize),
    Resume {
        node: NodeId,
        at: Micros,
    },
    FlakyDown {
        node: NodeId,
        /// Index of the flaky fault in the scenario.
        fault: u32,
        /// When the flapping began.
        began: Micros,
    },
    FlakyUp(NodeId),
}

impl<M, T> Ev<M, T> {
    fn is_fault(&self) -> bool {
        matches!(
            self,
            Ev::Fault(_) | Ev::Resume { .. } | Ev::FlakyDown { .. } | Ev::FlakyUp(_)
        )
    }
}

/// An armed timer. Re-arming a timer to a later deadline does not touch
/// the queue: the entry already queued fires early, sees the later
/// deadline and queues itself again (lazy re-arming keeps the queue small
/// when a watchdog is pushed back on every message).
#[derive(Clone)]
struct ArmedTimer<T> {
    timer: T,
    generation: u64,
    local_deadline: i64,
    /// True time of this generation's entry in the queue.
    queued_at: Micros,
    /// True time of the last `set_timer` of it, re-arming without a new
    /// queue entry included: where the page's countdown arc starts.
    armed_at: Micros,
}

impl<T> ArmedTimer<T> {
    /// The true time this timer fires, if nothing changes it first (no
    /// re-arming or cancelling by the node, no clock fault, no longer
    /// pause): what the queue will do with its entry. The entry pops at
    /// `queued_at`; if the local deadline is not reached then (the timer
    /// was re-armed later without a new entry, or the clock was slowed),
    /// it queues itself again at the true time the local clock reaches
    /// the deadline; a paused node's timers fire when it resumes. So:
    /// the latest of `queued_at`, that true time, and the end of a pause.
    fn fires_at(&self, clock: &LocalClock, paused_until: Option<Micros>, now: Micros) -> Micros {
        fire_time(
            clock,
            paused_until,
            self.local_deadline,
            self.queued_at,
            now,
        )
    }
}

/// [`ArmedTimer::fires_at`], not generic and never inlined: one copy in
/// the wasm for every algorithm's engine.
#[inline(never)]
fn fire_time(
    clock: &LocalClock,
    paused_until: Option<Micros>,
    local_deadline: i64,
    queued_at: Micros,
    now: Micros,
) -> Micros {
    let due = clock.true_time_of(local_deadline, now);
    due.max(queued_at).max(paused_until.unwrap_or(0))
}

/// When a message due at `at` that nothing drops is handed to its
/// receiver, as `deliver` does it: a paused receiver takes it when it
/// resumes, a slowed one (not yet slowed for this message) that much
/// later. Not generic, never inlined (see [`fire_time`]).
#[inline(never)]
fn handed_over(at: Micros, paused_until: Option<Micros>, slow_us: Micros, slowed: bool) -> Micros {
    let handed = paused_until.map_or(at, |until| until.max(at));
    if slow_us > 0 && !slowed {
        handed + slow_us
    } else {
        handed
    }
}

/// What the engine knows about one node.
#[derive(Clone)]
struct Slot<P: Protocol> {
    state: Option<P>,
    persistent: P::Persistent,
    incarnation: u32,
    paused_until: Option<Micros>,
    slow_us: Micros,
    clock: LocalClock,
    timers: Timers<P::Timer>,
    role: Role,
    term: Option<u64>,
    leader: Option<NodeId>,
    holds_lease: bool,
}

/// A message on the wire, for drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flight {
    /// Message id.
    pub id: u64,
    /// Sender.
    pub from: NodeId,
    /// Receiver.
    pub to: NodeId,
    /// Kind index.
    pub kind: usize,
    /// When it was sent.
    pub sent_us: Micros,
    /// When it arrives.
    pub arrive_us: Micros,
    /// Whether it will be lost.
    pub lost: bool,
}

/// A node's pending timer as the page draws it: a countdown from
/// `armed_us` to `fires_us`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendingTimer {
    /// What it is for ([`crate::protocol::Protocol::timer_class`]).
    pub class: TimerClass,
    /// True time it was last armed (set, or set again to a new deadline).
    pub armed_us: Micros,
    /// True time it fires if nothing changes it first (see
    /// `ArmedTimer::fires_at`: re-arming, cancelling, a clock fault or a
    /// longer pause would change it; each takes an event).
    pub fires_us: Micros,
}

/// What the outside sees of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    /// Node id.
    pub id: NodeId,
    /// Not crashed.
    pub alive: bool,
    /// Paused (GC pause) right now.
    pub paused: bool,
    /// Extra processing delay.
    pub slow_us: Micros,
    /// Role.
    pub role: Role,
    /// Term, if any.
    pub term: Option<u64>,
    /// Believed leader.
    pub leader: Option<NodeId>,
    /// Local clock reading.
    pub local_us: i64,
    /// Partition group.
    pub group: u32,
    /// Number of armed timers (names and fire times: [`Engine::inspect`]).
    pub timers: usize,
    /// The armed timer that fires first (ties: the first the engine
    /// lists), `None` when none is armed (a crashed node has none).
    pub next_timer: Option<PendingTimer>,
}

/// One simulation of one algorithm.
pub struct Engine<P: Protocol> {
    scenario: Scenario,
    config: Config,
    now: Micros,
    queue: EventQueue<Ev<P::Msg, P::Timer>>,
    rng: SimRng,
    network: Network,
    slots: Vec<Slot<P>>,
    metrics: Metrics,
    checker: Checker,
    hasher: TraceHasher,
    record: bool,
    /// The recorded history. After [`Engine::restore`] it may reach past
    /// now: `trace[trace_len..]` is what an earlier pass recorded for the
    /// moments ahead, kept so that a later restore further on needs no
    /// copy (by determinism the run records exactly those events again).
    trace: Vec<TraceEvent>,
    /// Events of `trace` that have happened by now.
    trace_len: usize,
    flights: FlightBook,
    outbox: Vec<Command<P::Msg, P::Timer>>,
    next_msg_id: u64,
    next_generation: u64,
    pending_faults: u64,
    /// Faults aimed at `"leader-or-next"` that found no leader: applied
    /// when a node next takes the leader role (`refresh_leaders`).
    waiting_faults: Vec<usize>,
    leaders: Vec<NodeId>,
    leaders_dirty: bool,
    agreement: bool,
    agreement_dirty: bool,
    end_us: Option<Micros>,
    /// The limit the run stopped at (core/engine/src/limits.rs, module
    /// docs): nothing happens after it. Boxed, as `halted`.
    stopped: Option<Box<StoppedBy>>,
    /// Estimated heap bytes of the messages on the wire
    /// ([`Message::heap_bytes`]; a script's message data), for the run's
    /// memory limit.
    wire_bytes: u64,
    /// Estimated bytes of the nodes, the links and the violations at the
    /// last full count of the run's memory (see [`Engine::count_memory`]).
    state_bytes: u64,
    /// The event count at which the run's memory is counted in full next.
    next_memory_count: u64,
    /// Undeliverable notices of election messages still to be handed to
    /// their senders: the election is not over while one is pending.
    election_notices: u64,
    /// The event just popped was bookkeeping (a stale or lazily re-armed
    /// timer, a deferred delivery), not something that happened.
    idle_pop: bool,
    /// Role announcements that changed the role, not only the term (a
    /// [`crate::travel::Landmark::Role`]).
    role_changes: u64,
    /// Times the set of live leaders changed (a
    /// [`crate::travel::Landmark::Leaders`]).
    leader_set_changes: u64,
    /// What the run's algorithm claims ([`Protocol::safety`]).
    safety: Safety,
    /// The script error that stopped the run: nothing happens after it.
    /// Boxed, so that copying an engine for a checkpoint (one copy of
    /// the code per algorithm) calls one clone function.
    halted: Option<Box<ScriptError>>,
}

impl<P: Protocol> Engine<P> {
    /// A simulation of `scenario` (already validated) that keeps its trace
    /// events when `record` is set (the hash is computed either way).
    pub fn new(scenario: &Scenario, record: bool) -> Self {
        let mut config = Config::from_scenario(scenario, P::EXTRAS);
        config.prepared = P::prepare(scenario);
        let n = config.total;
        let slots = (0..n)
            .map(|id| {
                let persistent = P::Persistent::default();
                Slot {
                    state: Some(P::new(id, &config, &persistent)),
                    persistent,
                    incarnation: 0,
                    paused_until: None,
                    slow_us: 0,
                    clock: LocalClock::default(),
                    timers: Timers::default(),
                    role: Role::Follower,
                    term: None,
                    leader: None,
                    holds_lease: false,
                }
            })
            .collect();
        let safety = P::safety(&config);
        let mut engine = Self {
            scenario: scenario.clone(),
            config,
            now: 0,
            queue: EventQueue::default(),
            rng: SimRng::new(scenario.seed, Stream::Engine),
            network: Network::new(n, scenario.network.clone()),
            slots,
            metrics: Metrics::new(P::KINDS),
            checker: Checker::new(safety),
            hasher: TraceHasher::default(),
            record,
            trace: Vec::new(),
            trace_len: 0,
            flights: FlightBook::default(),
            outbox: Vec::new(),
            next_msg_id: 0,
            next_generation: 0,
            pending_faults: 0,
            waiting_faults: Vec::new(),
            leaders: Vec::new(),
            leaders_dirty: false,
            agreement: false,
            agreement_dirty: true,
            end_us: None,
            stopped: None,
            wire_bytes: 0,
            state_bytes: 0,
            next_memory_count: 0,
            idle_pop: false,
            election_notices: 0,
            role_changes: 0,
            leader_set_changes: 0,
            safety,
            halted: None,
        };
        // Faults first, so a fault at time 0 (a clock skew, a node dead
        // from the start) is in place before the nodes start.
        for i in 0..engine.scenario.faults.len() {
            let at = engine.scenario.faults[i].at_us;
            engine.schedule(at, Ev::Fault(i));
        }
        for id in 0..n {
            engine.schedule(0, Ev::Start(id));
        }
        engine
    }

    fn schedule(&mut self, at: Micros, ev: Ev<P::Msg, P::Timer>) {
        if ev.is_fault() {
            self.pending_faults += 1;
        }
        self.queue.push(at, ev);
    }

    /// Whether the next event is appended to the trace: not when it is
    /// already there (a replay after a restore) nor past the cap and its
    /// marker (see [`emit!`]).
    #[inline(always)]
    fn trace_keeps_next(&self) -> bool {
        self.trace_len == self.trace.len() && self.trace.len() <= MAX_TRACE_EVENTS
    }

    /// Passes over an event that [`Engine::trace_keeps_next`] said is not
    /// appended: a replayed one is counted (the run is deterministic, so
    /// it is the one recorded there); past the cap nothing happens.
    #[inline(never)]
    fn skip_event(&mut self) {
        if self.trace_len < self.trace.len() {
            debug_assert_eq!(self.trace[self.trace_len].at_us, self.now);
            self.trace_len += 1;
        }
    }

    /// Appends `event` to the recorded trace (see [`emit!`]).
    #[inline(never)]
    fn record_event(&mut self, event: Event) {
        if self.trace_len < self.trace.len() {
            // Replaying known history after a restore: this event is
            // already recorded (the run is deterministic).
            debug_assert_eq!(self.trace[self.trace_len].at_us, self.now);
        } else if self.trace.len() < MAX_TRACE_EVENTS {
            self.trace.push(TraceEvent {
                at_us: self.now,
                event,
            });
        } else if self.trace.len() == MAX_TRACE_EVENTS {
            // The first event past the cap becomes the marker, so that a
            // replay after a restore meets it at the same place.
            self.trace.push(TraceEvent {
                at_us: self.now,
                event: Event::Truncated {
                    after: MAX_TRACE_EVENTS as u64,
                },
            });
        } else {
            return;
        }
        self.trace_len += 1;
    }

    /// Feeds one event into the trace hash: the time, the event's tag,
    /// then its words.
    fn hash_event(&mut self, tag: HashTag, words: &[u64]) {
        self.hasher.write_u64(self.now);
        self.hasher.write_u64(tag as u64);
        for &w in words {
            self.hasher.write_u64(w);
        }
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Resolved settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Current true time.
    pub fn now(&self) -> Micros {
        self.now
    }

    /// Time of the next event in the queue, if any: a message arriving,
    /// a timer, a fault, but also the queue's bookkeeping (the entry of a
    /// cancelled timer, or of one re-armed later, pops without anything
    /// happening). For the next moment something happens, see
    /// [`Engine::next_activity`].
    pub fn next_time(&self) -> Option<Micros> {
        if self.is_stopped() {
            return None;
        }
        self.queue.peek_time()
    }

    /// The true time of the next event that happens (one that counts in
    /// `events`, core/engine/src/metrics.rs, module docs), skipping the
    /// queue's bookkeeping: a timer counts when it really fires (as in
    /// the node views), not when its early entry pops; a message held for
    /// a paused or slowed receiver when it is handed over; the entry of a
    /// cancelled timer, or a notice for a node that crashed since, not at
    /// all. Exact: only an earlier event could change the answer, and
    /// bookkeeping changes nothing it reads. `None` when nothing is left.
    /// For pacing a player through quiet stretches; changes nothing.
    pub fn next_activity(&self) -> Option<Micros> {
        if self.is_stopped() {
            return None;
        }
        self.queue.earliest_by(|at, ev| match ev {
            Ev::Timer {
                node, generation, ..
            } => {
                let slot = &self.slots[*node as usize];
                let armed = slot.timers.iter().find(|t| t.generation == *generation)?;
                Some(
                    armed
                        .fires_at(&slot.clock, slot.paused_until, self.now)
                        .max(at),
                )
            }
            Ev::Start(id) => self.slots[*id as usize].state.is_some().then_some(at),
            Ev::Undeliverable {
                node, incarnation, ..
            } => {
                let slot = &self.slots[*node as usize];
                (slot.state.is_some() && slot.incarnation == *incarnation)
                    .then(|| at.max(slot.paused_until.unwrap_or(0)))
            }
            Ev::Deliver {
                from,
                to,
                lost,
                slowed,
                ..
            } => {
                // As `deliver` does: a drop happens when due.
                let slot = &self.slots[*to as usize];
                if lost.is_some()
                    || slot.state.is_none()
                    || self.network.blocked(*from, *to).is_some()
                {
                    return Some(at);
                }
                Some(handed_over(at, slot.paused_until, slot.slow_us, *slowed))
            }
            // A resume counts even when the pause was since extended (it
            // then changes nothing), as a fault aimed at a node that is
            // already down does.
            Ev::Fault(_) | Ev::Resume { .. } | Ev::FlakyDown { .. } | Ev::FlakyUp(_) => Some(at),
        })
    }

    /// Counters so far.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Violations so far.
    pub fn violations(&self) -> &[Violation] {
        &self.checker.violations
    }

    /// Recorded events (empty unless recording).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace[..self.trace_len]
    }

    /// Stable hash of everything that happened so far.
    pub fn trace_hash(&self) -> u64 {
        self.hasher.finish()
    }

    /// Live leaders right now, ascending.
    pub fn leaders(&self) -> &[NodeId] {
        &self.leaders
    }

    /// Messages on the wire (only tracked while recording).
    pub fn flights(&self) -> impl Iterator<Item = &Flight> {
        self.flights.values()
    }

    /// Number of messages on the wire (only tracked while recording).
    pub fn flight_count(&self) -> usize {
        self.flights.len()
    }

    /// At most `max` messages on the wire, spread evenly over their ids
    /// (the first at or after each of `max` evenly spaced ids), in id
    /// order: all of them when there are no more than `max`. Costs `max`
    /// lookups, not a walk over every message.
    pub fn flights_sample(&self, max: usize) -> Vec<Flight> {
        if self.flights.len() <= max {
            return self.flights.values().copied().collect();
        }
        let Some((first, last)) = self.flights.span() else {
            return Vec::new();
        };
        let span = last - first + 1;
        let mut out: Vec<Flight> = Vec::with_capacity(max);
        let mut next = first;
        for i in 0..max as u64 {
            let from = first + (u128::from(span) * u128::from(i) / max as u128) as u64;
            let Some((id, flight)) = self.flights.first_at_or_after(from.max(next)) else {
                break;
            };
            out.push(*flight);
            next = id + 1;
        }
        out
    }

    /// The end of the run, once [`Engine::run_to_end`] found it.
    pub fn end_us(&self) -> Option<Micros> {
        self.end_us
    }

    /// Whether the run stopped at a limit (see [`Engine::stopped_by`]).
    pub fn truncated(&self) -> bool {
        self.stopped.is_some()
    }

    /// The limit the run stopped at, if it did (core/engine/src/limits.rs,
    /// module docs).
    pub fn stopped_by(&self) -> Option<&StoppedBy> {
        self.stopped.as_deref()
    }

    /// Whether nothing more happens in this run: a script error or a
    /// limit stopped it.
    #[inline(always)]
    fn is_stopped(&self) -> bool {
        self.halted.is_some() || self.stopped.is_some()
    }

    /// The run stops here, at `limit`.
    #[inline(never)]
    fn stop_at(&mut self, limit: Limit) {
        self.stopped = Some(Box::new(StoppedBy::new(limit, self.now)));
    }

    /// Stops the run if the event that just happened took it past a
    /// limit of what it holds: messages in flight, other queued events,
    /// its memory (core/engine/src/limits.rs, module docs). A few
    /// comparisons per event; the full count of the memory is made every
    /// [`MEMORY_CHECK_EVENTS`] events, or when the running estimate
    /// passes the limit.
    #[inline(always)]
    fn check_limits(&mut self) {
        let in_flight = self.metrics.in_flight;
        let queued = self.queue.len() as u64;
        if in_flight > MAX_IN_FLIGHT {
            self.stop_at(Limit::MessagesInFlight);
        } else if queued.saturating_sub(in_flight) > MAX_TIMERS {
            self.stop_at(Limit::Timers);
        } else if self.metrics.events >= self.next_memory_count
            || self.memory_estimate() > MAX_RUN_BYTES
        {
            self.count_memory();
        }
    }

    /// The run's memory by the running estimate: the queued events, the
    /// messages' data, and the rest as last counted.
    #[inline(always)]
    fn memory_estimate(&self) -> u64 {
        let entry = (std::mem::size_of::<Ev<P::Msg, P::Timer>>() + QUEUE_ENTRY_OVERHEAD) as u64;
        self.queue.len() as u64 * entry + self.wire_bytes + self.state_bytes
    }

    /// Counts the run's memory in full (the nodes' data, the links, the
    /// violations) and stops the run if it is past [`MAX_RUN_BYTES`].
    /// Not what a recording run adds (the trace, the drawn flights): the
    /// same scenario stops at the same event recorded or not.
    #[inline(never)]
    fn count_memory(&mut self) {
        self.state_bytes = self.state_bytes_now() as u64;
        self.next_memory_count = self.metrics.events + MEMORY_CHECK_EVENTS;
        if self.memory_estimate() > MAX_RUN_BYTES {
            self.stop_at(Limit::RunMemory);
        }
    }

    /// Estimated bytes of the nodes (their slots, timers and data), the
    /// links and the violations.
    fn state_bytes_now(&self) -> usize {
        use std::mem::size_of;
        self.slots.len() * size_of::<Slot<P>>()
            + self
                .slots
                .iter()
                .map(|s| {
                    s.timers.len() * size_of::<ArmedTimer<P::Timer>>()
                        + s.state.as_ref().map_or(0, P::heap_bytes)
                        + P::persistent_heap_bytes(&s.persistent)
                })
                .sum::<usize>()
            + self.network.approx_bytes()
            + self.checker.violations.len() * size_of::<Violation>()
    }

    /// The script error that stopped the run, if one did.
    pub fn script_error(&self) -> Option<&ScriptError> {
        self.halted.as_deref()
    }

    /// The message kinds of this run, indexed as in the metrics and the
    /// flights: the algorithm's static list, or a script's kinds in the
    /// order the run first sent them.
    pub fn kinds(&self) -> &[&'static str] {
        &self.metrics.kinds
    }

    /// Processes the next event; false when nothing is left (or a script
    /// error stopped the run).
    pub fn step(&mut self) -> bool {
        if self.is_stopped() {
            return false;
        }
        if self.metrics.events >= MAX_EVENTS {
            self.stop_at(Limit::Events);
            return false;
        }
        let Some((at, ev)) = self.queue.pop() else {
            return false;
        };
        let fault = ev.is_fault();
        if fault {
            self.pending_faults -= 1;
        }
        self.now = at;
        // The effective leaders before a fault acts, to tell whether it
        // removed one (metrics module docs: `failover`).
        let before = if fault {
            // Before the fault acts, so what it triggers at once (a
            // recovering node's first messages) counts as its cost.
            self.metrics.on_fault(self.now);
            Some((self.effective_leaders(), self.metrics.election))
        } else {
            None
        };
        self.idle_pop = false;
        self.handle(ev);
        if !self.idle_pop {
            self.metrics.events += 1;
        }
        self.refresh_leaders();
        if let Some((leaders, election)) = before {
            if leaders.iter().any(|&l| !self.is_effective_leader(l)) {
                self.metrics.on_leader_removed(self.now, election);
            }
        }
        if self.metrics.recovered_us.is_none() && self.now > 0 && self.settled() {
            self.metrics.on_settled(self.now);
        }
        if self.metrics.awaiting_failover() && self.election_over() {
            self.metrics.on_failover_settled(self.now);
        }
        self.check_limits();
        true
    }

    /// Processes every event up to and including `t`, then sets the clock
    /// to `t`.
    pub fn run_until(&mut self, t: Micros) {
        while self.queue.due_by(t) {
            if !self.step() {
                break;
            }
        }
        if !self.is_stopped() {
            self.now = self.now.max(t);
        }
        self.metrics.account_to(self.now);
    }

    /// Runs to the scenario's end: `until_ms` if set, else the moment the
    /// election settles (all events at that instant included), else
    /// [`DEFAULT_RUN_LIMIT_US`]; or where a limit or a script error
    /// stopped it. Returns the end time.
    pub fn run_to_end(&mut self) -> Micros {
        loop {
            if let Some(end) = self.run_to_end_within(u64::MAX) {
                return end;
            }
        }
    }

    /// [`Engine::run_to_end`] in pieces: processes at most about
    /// `max_steps` events toward the end (the rest of an instant that
    /// may be the end runs whole) and
    /// returns the end once it is reached, `None` before. Calling it
    /// again goes on where it stopped, so any sequence of calls finds
    /// the same end, after the same events, as one `run_to_end`.
    pub fn run_to_end_within(&mut self, max_steps: u64) -> Option<Micros> {
        self.end_in_pieces(max_steps, false)
    }

    /// [`Engine::run_to_end_within`] in pieces of about `max_work` of
    /// work ([`Engine::step_work`]: an event and the messages it sent)
    /// rather than events: the pieces of a search the page spreads over
    /// frames, which then cost about the same time whatever the events
    /// are. The same end after the same events.
    pub fn run_to_end_within_work(&mut self, max_work: u64) -> Option<Micros> {
        self.end_in_pieces(max_work, true)
    }

    /// Processes the next event and returns the work it took: 1 for the
    /// event and 1 per message it sent; 0 when nothing was left (or a
    /// script error stopped the run). Events vary a thousandfold (a
    /// delivery against a broadcast to 1,023 nodes); this does not.
    pub fn step_work(&mut self) -> u64 {
        let sent = self.metrics.sent;
        if !self.step() {
            return 0;
        }
        1 + self.metrics.sent.saturating_sub(sent)
    }

    /// [`Engine::run_to_end_within`], counting steps by events or by
    /// work ([`Engine::step_work`]).
    fn end_in_pieces(&mut self, max_steps: u64, by_work: bool) -> Option<Micros> {
        let one = |engine: &mut Self| {
            if by_work {
                engine.step_work().max(1)
            } else {
                engine.step();
                1
            }
        };
        if let Some(end) = self.end_us {
            return Some(end);
        }
        let end = if let Some(until) = self.scenario.until_us {
            // In pieces too, as `run_until(until)` would run them.
            let mut steps = 0u64;
            loop {
                if self.is_stopped() {
                    break self.now;
                }
                if !self.queue.due_by(until) {
                    self.run_until(until);
                    break until;
                }
                if steps >= max_steps {
                    return None;
                }
                steps += one(self);
            }
        } else {
            let mut steps = 0u64;
            loop {
                if self.is_stopped() {
                    break self.now;
                }
                if self.now > 0 && self.settled() {
                    // Finish the instant: the page's `at=end` runs every
                    // event at the end time too. If the rest of the instant
                    // unsettles the cluster (a node resuming from a pause),
                    // it was not the end after all.
                    let t = self.now;
                    self.run_until(t);
                    if self.is_stopped() {
                        break self.now;
                    }
                    if self.settled() {
                        break t;
                    }
                }
                if !self.queue.due_by(DEFAULT_RUN_LIMIT_US) {
                    if self.settled() {
                        break self.now;
                    }
                    self.run_until(DEFAULT_RUN_LIMIT_US);
                    break DEFAULT_RUN_LIMIT_US;
                }
                if steps >= max_steps {
                    return None;
                }
                steps += one(self);
            }
        };
        self.metrics.account_to(self.now);
        self.end_us = Some(end);
        Some(end)
    }
}
