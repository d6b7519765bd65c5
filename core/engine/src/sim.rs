//! [`Simulation`]: one object-safe handle over an engine of any algorithm,
//! split by purpose into driving it ([`Control`]) and reading it
//! ([`Observe`]), used by the CLI, the time-travel
//! `election-core`'s `session::Session` and the wasm page alike; and
//! [`RunSummary`], the result of a run (the `election run --json`
//! contract).

use crate::checks::Violation;
use crate::engine::{Engine, Flight, NodeView};
use crate::limits::StoppedBy;
use crate::metrics::Metrics;
use crate::protocol::{NodeId, Protocol};
use crate::scenario::Scenario;
use crate::time::{Micros, to_ms};
use crate::trace::TraceEvent;
use crate::travel::{Checkpoint, Landmark};
use crate::vec_map::VecMap;
use election_model::script_error::ScriptError;
use serde::Serialize;

/// Message counts of a run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MessageCounts {
    /// Sent (each send once, dropped ones included).
    pub sent: u64,
    /// Copies handed to a receiver.
    pub delivered: u64,
    /// Copies lost.
    pub dropped: u64,
    /// Extra copies made by duplication.
    pub duplicated: u64,
    /// Copies still travelling at the end.
    pub in_flight: u64,
    /// Sent with purpose election.
    pub election: u64,
    /// Sent with purpose background.
    pub background: u64,
    /// Sent, by kind (every kind of the algorithm, zeros included), by
    /// ascending kind name (a `VecMap`, the crate-internal sorted map: in
    /// the wasm, a `BTreeMap` of strings to counts was B-tree code for this
    /// one table).
    pub by_kind: VecMap<String, u64>,
}

/// Writes to a resource node.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WriteCounts {
    /// Applied.
    pub accepted: u64,
    /// Rejected because their token was stale.
    pub rejected: u64,
    /// Applied although a higher token had been applied before.
    pub stale_accepted: u64,
}

/// A violation as reported.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ViolationReport {
    /// When, ms.
    pub at_ms: f64,
    /// Property name.
    pub property: String,
    /// What happened.
    pub detail: String,
    /// Nodes involved.
    pub nodes: Vec<NodeId>,
}

impl From<&Violation> for ViolationReport {
    fn from(v: &Violation) -> Self {
        Self {
            at_ms: to_ms(v.at_us),
            property: v.property.to_string(),
            detail: v.detail.clone(),
            nodes: v.nodes.clone(),
        }
    }
}

/// Everything a run reports.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunSummary {
    /// Algorithm id.
    pub algorithm: String,
    /// Number of nodes.
    pub nodes: u32,
    /// Seed.
    pub seed: u64,
    /// When the run ended (or now, if it has not), ms.
    pub end_ms: f64,
    /// The one live leader at the end, if exactly one node leads.
    pub leader: Option<NodeId>,
    /// Every live leader at the end.
    pub leaders: Vec<NodeId>,
    /// When the first node became leader, ms.
    pub first_leader_ms: Option<f64>,
    /// Message counts.
    pub messages: MessageCounts,
    /// Elections started.
    pub elections: u64,
    /// Leadership handovers.
    pub leader_changes: u64,
    /// Time with more than one leader, ms.
    pub split_brain_ms: f64,
    /// Time with no leader, ms.
    pub leaderless_ms: f64,
    /// Time from the last fault (or the start, with none) until the
    /// cluster first settled after it, ms; null if it never did.
    pub recovery_ms: Option<f64>,
    /// Election-purpose messages sent in that window: the election cost of
    /// the last failure (core/engine/src/metrics.rs, module docs: `recovery`).
    pub recovery_election_messages: Option<u64>,
    /// When the last fault was applied, ms; null with none. `recovery_ms`
    /// counts from here (or from the start), so a run that never recovered
    /// was watched for `end_ms - last_fault_ms` without recovering (an
    /// experiment counts it as censored there: core/tools/src/stats.rs).
    pub last_fault_ms: Option<f64>,
    /// When the last fault that removed this run's leader was applied, ms
    /// (core/engine/src/metrics.rs, module docs: `failover`); null if no
    /// fault removed a leader.
    pub leader_removed_ms: Option<f64>,
    /// Time from that fault until the cluster first settled after it, ms;
    /// null if no fault removed the leader or it has not settled since.
    pub failover_ms: Option<f64>,
    /// Election-purpose messages sent in that window: what the failover
    /// cost (`election compare`'s "failover").
    pub failover_election_messages: Option<u64>,
    /// Writes to a fenced resource: applied, rejected as stale, and stale
    /// ones applied (only without fencing).
    pub writes: WriteCounts,
    /// Failed property checks.
    pub violations: Vec<ViolationReport>,
    /// Events processed.
    pub events: u64,
    /// Whether the run settled (every live node follows its component's
    /// one leader, nothing pending) at its end.
    pub settled: bool,
    /// Whether the run was cut short by a limit (`stopped_by` says which).
    pub truncated: bool,
    /// Stable hash of the trace, 16 hex digits.
    pub trace_hash: String,
    /// The script error that stopped a scripted run
    /// (core/algorithms/src/script/mod.rs, module docs, Limits and errors);
    /// absent otherwise. A key of the summary's JSON (a contract), filled
    /// by whatever protocol stops on an error ([`Observe::script_error`]),
    /// not by a test of the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script_error: Option<ScriptError>,
    /// The limit that stopped the run, where and in words
    /// (core/engine/src/limits.rs, module docs): `end_ms` is its `at_ms`.
    /// Absent when no limit stopped it (a key of the summary's JSON, a
    /// contract).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<StoppedBy>,
}

/// Driving a run forward: its clock, one event, up to a time, to its end
/// or to the next [`Landmark`].
pub trait Control {
    /// Current true time.
    fn now_us(&self) -> Micros;
    /// Time of the next event in the queue, bookkeeping included (see
    /// [`Engine::next_time`]).
    fn next_time_us(&self) -> Option<Micros>;
    /// Time of the next event that happens, bookkeeping skipped (see
    /// [`Engine::next_activity`]).
    fn next_activity_us(&self) -> Option<Micros>;
    /// Processes one event; false when none is left.
    fn step(&mut self) -> bool;
    /// Processes every event up to and including `t`.
    fn run_until(&mut self, t: Micros);
    /// Runs to the scenario's end (see [`Engine::run_to_end`]).
    fn run_to_end(&mut self) -> Micros;
    /// The same in pieces of about `max_steps` events: the end once
    /// reached, `None` before (see [`Engine::run_to_end_within`]).
    fn run_to_end_within(&mut self, max_steps: u64) -> Option<Micros>;
    /// The same in pieces of about `max_work` of work, an event and the
    /// messages it sent (see [`Engine::run_to_end_within_work`]).
    fn run_to_end_within_work(&mut self, max_work: u64) -> Option<Micros>;
    /// Processes one event and returns the work it took (see
    /// [`Engine::step_work`]); 0 when none is left.
    fn step_work(&mut self) -> u64;
    /// Processes events up to `limit` until the next [`Landmark`] (a role
    /// change, a change of leaders, a violation) and stops right after
    /// it; `None` when none came before `limit` or within `max_steps`
    /// queue events.
    fn run_to_landmark(&mut self, limit: Micros, max_steps: u64) -> Option<Landmark>;
}

/// Reading a run: its scenario, counters, leaders, nodes, messages on the
/// wire and trace, and the summary.
pub trait Observe {
    /// The scenario.
    fn scenario(&self) -> &Scenario;
    /// Ring order (position -> id), for drawing ring layouts.
    fn ring(&self) -> &[NodeId];
    /// Message kind names of this run, by kind index: the algorithm's
    /// list, or a script's kinds in the order the run first sent them.
    fn kinds(&self) -> &[&'static str];
    /// The script error that stopped a scripted run, if one did.
    fn script_error(&self) -> Option<&ScriptError>;
    /// The limit that stopped the run, if one did
    /// (core/engine/src/limits.rs).
    fn stopped_by(&self) -> Option<&StoppedBy>;
    /// Counters so far.
    fn metrics(&self) -> &Metrics;
    /// Violations so far.
    fn violations(&self) -> &[Violation];
    /// Live leaders right now, ascending.
    fn leaders(&self) -> &[NodeId];
    /// One-way links cut right now, `(from, to)`.
    fn cuts(&self) -> Vec<(NodeId, NodeId)>;
    /// Stable hash of the trace so far (see [`crate::trace`]).
    fn trace_hash(&self) -> u64;
    /// Recorded trace events.
    fn trace(&self) -> &[TraceEvent];
    /// Nodes as the page draws them.
    fn node_views(&self) -> Vec<NodeView>;
    /// Messages on the wire (recording runs only).
    fn flights(&self) -> Vec<Flight>;
    /// Number of messages on the wire (recording runs only).
    fn flight_count(&self) -> usize;
    /// At most `max` messages on the wire, spread evenly over their ids
    /// (all of them when there are no more): a sample for drawing a
    /// crowded network without copying every message.
    fn flights_sample(&self, max: usize) -> Vec<Flight>;
    /// Every field of one node.
    fn inspect(&self, node: NodeId) -> Vec<(String, String)>;
    /// The summary so far (final once the run ended).
    fn summary(&mut self) -> RunSummary;
}

/// What time travel needs of a simulation and nobody else should call:
/// saving and restoring moments, and the event queue's tuning for runs
/// made in slices. `election-core`'s `session::Session` is the one user,
/// and it keeps the checkpoints consistent with the history; hidden from
/// the docs, as it is no part of the interface callers drive.
#[doc(hidden)]
pub trait TimeTravel {
    /// Saves this moment: everything but the recorded trace, of which
    /// only the length is kept (see [`crate::travel`]).
    fn checkpoint(&self) -> Checkpoint;
    /// Goes to the moment `checkpoint` saved, backward or forward. The
    /// trace recorded so far stays as the history (by determinism it is
    /// the history of the checkpoint too). Returns false, changing
    /// nothing, for a checkpoint of another algorithm or scenario, or one
    /// beyond the recorded history.
    fn restore(&mut self, checkpoint: &Checkpoint) -> bool;
    /// Does up to `max_moves` of the event queue's work of spreading a
    /// big bucket of coming events ahead of its turn (see
    /// [`crate::queue::EventQueue::spread_ahead`]): for callers that run
    /// the simulation in slices, so that a burst's spreading falls into
    /// many slices instead of the one event that reaches it. Changes no
    /// event or its order; returns the events moved.
    fn spread_ahead(&mut self, max_moves: usize) -> usize;
}

/// A running simulation of any algorithm: one object-safe handle that
/// drives ([`Control`]) and reads ([`Observe`]) an engine, built by
/// `election-core`'s `algorithms::build`. Going back in time is
/// `session::Session`'s work; the checkpoints it takes are not part of
/// the interface callers drive (nor is the queue's tuning): they sit in
/// the hidden supertrait [`TimeTravel`]. Only this crate's engine
/// implements it.
pub trait Simulation: Control + Observe + TimeTravel {}

impl<P: Protocol> Control for Engine<P> {
    fn now_us(&self) -> Micros {
        self.now()
    }
    fn next_time_us(&self) -> Option<Micros> {
        self.next_time()
    }
    fn next_activity_us(&self) -> Option<Micros> {
        self.next_activity()
    }
    fn step(&mut self) -> bool {
        Engine::step(self)
    }
    fn run_until(&mut self, t: Micros) {
        Engine::run_until(self, t);
    }
    fn run_to_end(&mut self) -> Micros {
        Engine::run_to_end(self)
    }
    fn run_to_end_within(&mut self, max_steps: u64) -> Option<Micros> {
        Engine::run_to_end_within(self, max_steps)
    }
    fn run_to_end_within_work(&mut self, max_work: u64) -> Option<Micros> {
        Engine::run_to_end_within_work(self, max_work)
    }
    fn step_work(&mut self) -> u64 {
        Engine::step_work(self)
    }
    fn run_to_landmark(&mut self, limit: Micros, max_steps: u64) -> Option<Landmark> {
        Engine::run_to_landmark(self, limit, max_steps)
    }
}

impl<P: Protocol> Observe for Engine<P> {
    fn scenario(&self) -> &Scenario {
        Engine::scenario(self)
    }
    fn ring(&self) -> &[NodeId] {
        &self.config().ring
    }
    fn kinds(&self) -> &[&'static str] {
        Engine::kinds(self)
    }
    fn script_error(&self) -> Option<&ScriptError> {
        Engine::script_error(self)
    }
    fn stopped_by(&self) -> Option<&StoppedBy> {
        Engine::stopped_by(self)
    }
    fn metrics(&self) -> &Metrics {
        Engine::metrics(self)
    }
    fn violations(&self) -> &[Violation] {
        Engine::violations(self)
    }
    fn leaders(&self) -> &[NodeId] {
        Engine::leaders(self)
    }
    fn trace_hash(&self) -> u64 {
        Engine::trace_hash(self)
    }
    fn cuts(&self) -> Vec<(NodeId, NodeId)> {
        Engine::cuts(self)
    }
    fn trace(&self) -> &[TraceEvent] {
        Engine::trace(self)
    }
    fn node_views(&self) -> Vec<NodeView> {
        Engine::node_views(self)
    }
    fn flights(&self) -> Vec<Flight> {
        Engine::flights(self).copied().collect()
    }
    fn flight_count(&self) -> usize {
        Engine::flight_count(self)
    }
    fn flights_sample(&self, max: usize) -> Vec<Flight> {
        Engine::flights_sample(self, max)
    }
    fn inspect(&self, node: NodeId) -> Vec<(String, String)> {
        Engine::inspect(self, node)
    }
    fn summary(&mut self) -> RunSummary {
        let settled = self.settled();
        let end_us = self.end_us().unwrap_or(self.now());
        let truncated = self.truncated();
        summarize(self, end_us, settled, truncated)
    }
}

impl<P: Protocol> TimeTravel for Engine<P> {
    fn checkpoint(&self) -> Checkpoint {
        Engine::checkpoint(self)
    }
    fn restore(&mut self, checkpoint: &Checkpoint) -> bool {
        Engine::restore(self, checkpoint)
    }
    fn spread_ahead(&mut self, max_moves: usize) -> usize {
        Engine::spread_ahead(self, max_moves)
    }
}

impl<P: Protocol> Simulation for Engine<P> {}

/// The summary of `sim`, given what only the engine knows. Not generic
/// (it reads the engine through the object-safe trait), so the page's
/// wasm holds it once instead of once per algorithm.
#[inline(never)]
fn summarize(sim: &dyn Simulation, end_us: Micros, settled: bool, truncated: bool) -> RunSummary {
    let m = sim.metrics();
    let s = sim.scenario();
    let leaders = sim.leaders().to_vec();
    let mut by_kind = VecMap::new();
    for (kind, &count) in sim.kinds().iter().zip(&m.by_kind) {
        by_kind.insert(kind.to_string(), count);
    }
    RunSummary {
        algorithm: s.algorithm.clone(),
        nodes: s.nodes,
        seed: s.seed,
        end_ms: to_ms(end_us),
        leader: if leaders.len() == 1 {
            Some(leaders[0])
        } else {
            None
        },
        leaders,
        first_leader_ms: m.first_leader_us.map(to_ms),
        messages: MessageCounts {
            sent: m.sent,
            delivered: m.delivered,
            dropped: m.dropped,
            duplicated: m.duplicated,
            in_flight: m.in_flight,
            election: m.election,
            background: m.background,
            by_kind,
        },
        elections: m.elections,
        leader_changes: m.leader_changes,
        split_brain_ms: to_ms(m.split_brain_us),
        leaderless_ms: to_ms(m.leaderless_us),
        recovery_ms: m.recovery().map(|(t, _)| to_ms(t)),
        recovery_election_messages: m.recovery().map(|(_, c)| c),
        last_fault_ms: m.last_fault_us.map(to_ms),
        leader_removed_ms: m.leader_removed_us.map(to_ms),
        failover_ms: m.failover().map(|(t, _)| to_ms(t)),
        failover_election_messages: m.failover().map(|(_, c)| c),
        writes: WriteCounts {
            accepted: m.writes_accepted,
            rejected: m.writes_rejected,
            stale_accepted: m.stale_writes_accepted,
        },
        violations: sim.violations().iter().map(ViolationReport::from).collect(),
        events: m.events,
        settled,
        truncated,
        trace_hash: format!("{:016x}", sim.trace_hash()),
        script_error: sim.script_error().cloned(),
        stopped_by: sim.stopped_by().cloned(),
    }
}
