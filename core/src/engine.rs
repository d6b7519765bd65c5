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

use crate::checks::{Checker, Violation};
use crate::clock::LocalClock;
use crate::metrics::Metrics;
use crate::network::{DropReason, Network};
use crate::protocol::{
    Boot, Command, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety,
};
use crate::queue::EventQueue;
use crate::rng::{SimRng, Stream};
use crate::scenario::{DEFAULT_RUN_LIMIT_US, FaultAction, Scenario, StartSet, Target};
use crate::time::{Micros, to_ms};
use crate::trace::{Event, TraceEvent, TraceHasher};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// Most events one run may process before it is cut short.
pub const MAX_EVENTS: u64 = 50_000_000;

/// `ELECTION(3)` from kind `ELECTION` and `Election(3)`: the kind name
/// plus whatever payload the message's Debug form shows.
fn describe_message<M: std::fmt::Debug>(kind: &str, msg: &M) -> String {
    let debug = format!("{msg:?}");
    match debug.find(['(', ' ', '{']) {
        Some(i) => format!("{kind}{}", debug[i..].trim_start()),
        None => kind.to_string(),
    }
}

/// What the engine schedules.
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
struct ArmedTimer<T> {
    timer: T,
    generation: u64,
    local_deadline: i64,
    /// True time of this generation's entry in the queue.
    queued_at: Micros,
}

/// What the engine knows about one node.
struct Slot<P: Protocol> {
    state: Option<P>,
    persistent: P::Persistent,
    incarnation: u32,
    paused_until: Option<Micros>,
    slow_us: Micros,
    clock: LocalClock,
    timers: Vec<ArmedTimer<P::Timer>>,
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
    trace: Vec<TraceEvent>,
    flights: BTreeMap<u64, Flight>,
    outbox: Vec<Command<P::Msg, P::Timer>>,
    next_msg_id: u64,
    next_generation: u64,
    pending_faults: u64,
    leaders: Vec<NodeId>,
    leaders_dirty: bool,
    agreement: bool,
    agreement_dirty: bool,
    end_us: Option<Micros>,
    truncated: bool,
    /// Undeliverable notices of election messages still to be handed to
    /// their senders: the election is not over while one is pending.
    election_notices: u64,
    /// The event just popped was bookkeeping (a stale or lazily re-armed
    /// timer, a deferred delivery), not something that happened.
    idle_pop: bool,
}

impl<P: Protocol> Engine<P> {
    /// A simulation of `scenario` (already validated) that keeps its trace
    /// events when `record` is set (the hash is computed either way).
    pub fn new(scenario: &Scenario, record: bool) -> Self {
        let config = Config::from_scenario(scenario);
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
                    timers: Vec::new(),
                    role: Role::Follower,
                    term: None,
                    leader: None,
                    holds_lease: false,
                }
            })
            .collect();
        let mut engine = Self {
            scenario: scenario.clone(),
            config,
            now: 0,
            queue: EventQueue::default(),
            rng: SimRng::new(scenario.seed, Stream::Engine),
            network: Network::new(n, scenario.network.clone()),
            slots,
            metrics: Metrics::new(P::KINDS),
            checker: Checker::new(P::SAFETY),
            hasher: TraceHasher::default(),
            record,
            trace: Vec::new(),
            flights: BTreeMap::new(),
            outbox: Vec::new(),
            next_msg_id: 0,
            next_generation: 0,
            pending_faults: 0,
            leaders: Vec::new(),
            leaders_dirty: false,
            agreement: false,
            agreement_dirty: true,
            end_us: None,
            truncated: false,
            idle_pop: false,
            election_notices: 0,
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

    fn emit(&mut self, event: Event) {
        if self.record {
            self.trace.push(TraceEvent {
                at_us: self.now,
                event,
            });
        }
    }

    fn hash_words(&mut self, words: &[u64]) {
        self.hasher.write_u64(self.now);
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

    /// Time of the next event, if any.
    pub fn next_time(&self) -> Option<Micros> {
        self.queue.peek_time()
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
        &self.trace
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

    /// The end of the run, once [`Engine::run_to_end`] found it.
    pub fn end_us(&self) -> Option<Micros> {
        self.end_us
    }

    /// Whether the run hit [`MAX_EVENTS`].
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Whether the election has settled: no faults pending, no election
    /// message on the wire, and in every component all live nodes follow
    /// the one live leader of that component.
    pub fn settled(&mut self) -> bool {
        if self.pending_faults > 0
            || self.metrics.in_flight_election > 0
            || self.election_notices > 0
        {
            return false;
        }
        if self.agreement_dirty {
            self.agreement = self.compute_agreement();
            self.agreement_dirty = false;
        }
        self.agreement
    }

    fn compute_agreement(&self) -> bool {
        if P::SAFETY == Safety::Consensus {
            return self.majority_agrees();
        }
        let group = &self.network.group;
        let mut leader_of_group: BTreeMap<u32, NodeId> = BTreeMap::new();
        for &l in &self.leaders {
            if leader_of_group.insert(group[l as usize], l).is_some() {
                return false;
            }
        }
        self.slots.iter().enumerate().all(|(id, slot)| {
            if slot.state.is_none() || slot.role == Role::Service {
                return true;
            }
            slot.role != Role::Candidate
                && slot.leader.is_some()
                && slot.leader == leader_of_group.get(&group[id]).copied()
        })
    }

    /// Consensus: some partition group holds a majority of the
    /// participants, exactly one node of that group leads, and every live
    /// participant in it follows that node (a stale leader cut off in a
    /// minority does not count).
    fn majority_agrees(&self) -> bool {
        let n = self.config.n as usize;
        let group = &self.network.group;
        let mut size: BTreeMap<u32, usize> = BTreeMap::new();
        for &g in &group[..n] {
            *size.entry(g).or_insert(0) += 1;
        }
        let Some((&majority, _)) = size.iter().find(|&(_, &count)| 2 * count > n) else {
            return false;
        };
        let mut leaders = self
            .leaders
            .iter()
            .filter(|&&l| (l as usize) < n && group[l as usize] == majority);
        let (Some(&leader), None) = (leaders.next(), leaders.next()) else {
            return false;
        };
        self.slots[..n].iter().enumerate().all(|(id, slot)| {
            slot.state.is_none()
                || group[id] != majority
                || (slot.role != Role::Candidate && slot.leader == Some(leader))
        })
    }

    /// A view of every node.
    pub fn node_views(&self) -> Vec<NodeView> {
        self.slots
            .iter()
            .enumerate()
            .map(|(id, s)| NodeView {
                id: id as NodeId,
                alive: s.state.is_some(),
                paused: s.paused_until.is_some(),
                slow_us: s.slow_us,
                role: s.role,
                term: s.term,
                leader: s.leader,
                local_us: s.clock.local(self.now),
                group: self.network.group[id],
                timers: s.timers.len(),
            })
            .collect()
    }

    /// Every field of a node's algorithm state plus what the engine knows.
    pub fn inspect(&self, node: NodeId) -> Vec<(String, String)> {
        let Some(slot) = self.slots.get(node as usize) else {
            return Vec::new();
        };
        let mut out = vec![
            (
                "status".to_string(),
                match (&slot.state, slot.paused_until) {
                    (None, _) => "crashed".to_string(),
                    (Some(_), Some(t)) => format!("paused until {} ms", to_ms(t)),
                    (Some(_), None) => "up".to_string(),
                },
            ),
            (
                "local clock".to_string(),
                format!(
                    "{} ms (true {} ms; offset {} ms, drift {})",
                    slot.clock.local(self.now) as f64 / 1000.0,
                    to_ms(self.now),
                    slot.clock.offset_us as f64 / 1000.0,
                    slot.clock.drift
                ),
            ),
        ];
        for t in &slot.timers {
            let fires = slot.clock.true_time_of(t.local_deadline, self.now);
            out.push((
                "timer".to_string(),
                format!("{:?} fires at {} ms", t.timer, to_ms(fires)),
            ));
        }
        if let Some(state) = &slot.state {
            out.extend(state.inspect().into_iter().map(|(k, v)| (k.to_string(), v)));
        }
        out
    }

    /// Processes the next event; false when nothing is left.
    pub fn step(&mut self) -> bool {
        let Some((at, ev)) = self.queue.pop() else {
            return false;
        };
        let fault = ev.is_fault();
        if fault {
            self.pending_faults -= 1;
        }
        self.now = at;
        self.idle_pop = false;
        self.handle(ev);
        if !self.idle_pop {
            self.metrics.events += 1;
        }
        self.refresh_leaders();
        if fault {
            self.metrics.on_fault(self.now);
        }
        if self.metrics.recovered_us.is_none() && self.now > 0 && self.settled() {
            self.metrics.on_settled(self.now);
        }
        true
    }

    /// Processes every event up to and including `t`, then sets the clock
    /// to `t`.
    pub fn run_until(&mut self, t: Micros) {
        while self.queue.peek_time().is_some_and(|next| next <= t) {
            if self.metrics.events >= MAX_EVENTS {
                self.truncated = true;
                break;
            }
            self.step();
        }
        if !self.truncated {
            self.now = self.now.max(t);
        }
        self.metrics.account_to(self.now);
    }

    /// Runs to the scenario's end: `until_ms` if set, else the moment the
    /// election settles (all events at that instant included), else
    /// [`DEFAULT_RUN_LIMIT_US`]. Returns the end time.
    pub fn run_to_end(&mut self) -> Micros {
        if let Some(end) = self.end_us {
            return end;
        }
        let end = if let Some(until) = self.scenario.until_us {
            self.run_until(until);
            until
        } else {
            loop {
                if self.now > 0 && self.settled() {
                    let t = self.now;
                    self.run_until(t);
                    break t;
                }
                match self.queue.peek_time() {
                    Some(next) if next <= DEFAULT_RUN_LIMIT_US => {}
                    _ => {
                        if self.settled() {
                            break self.now;
                        }
                        self.run_until(DEFAULT_RUN_LIMIT_US);
                        break DEFAULT_RUN_LIMIT_US;
                    }
                }
                if self.metrics.events >= MAX_EVENTS {
                    self.truncated = true;
                    break self.now;
                }
                self.step();
            }
        };
        self.metrics.account_to(self.now);
        self.end_us = Some(end);
        end
    }

    fn handle(&mut self, ev: Ev<P::Msg, P::Timer>) {
        match ev {
            Ev::Start(id) => {
                if self.slots[id as usize].state.is_none() {
                    self.idle_pop = true;
                    return;
                }
                let initiate = match &self.scenario.start {
                    StartSet::All => true,
                    StartSet::None => false,
                    StartSet::Ids(ids) => ids.contains(&id),
                };
                self.hash_words(&[1, u64::from(id), u64::from(initiate)]);
                self.emit(Event::Start { node: id, initiate });
                self.dispatch(id, |p, ctx| p.on_start(ctx, Boot::Fresh { initiate }));
            }
            Ev::Deliver {
                wire,
                from,
                to,
                msg,
                sent_at,
                lost,
                slowed,
            } => self.deliver(wire, from, to, msg, sent_at, lost, slowed),
            Ev::Timer {
                node,
                timer,
                generation,
            } => {
                let now = self.now;
                let slot = &mut self.slots[node as usize];
                let Some(pos) = slot.timers.iter().position(|t| t.generation == generation) else {
                    self.idle_pop = true;
                    return; // cancelled, replaced, or the node crashed
                };
                let due = slot
                    .clock
                    .true_time_of(slot.timers[pos].local_deadline, now);
                // A paused node's timers fire when it resumes.
                let later = match slot.paused_until {
                    Some(until) => Some(until.max(due)),
                    None => (due > now).then_some(due),
                };
                if let Some(at) = later {
                    slot.timers[pos].queued_at = at;
                    self.queue.push(
                        at,
                        Ev::Timer {
                            node,
                            timer,
                            generation,
                        },
                    );
                    self.idle_pop = true;
                    return;
                }
                self.slots[node as usize].timers.swap_remove(pos);
                self.hasher.write_u64(self.now);
                self.hasher.write_u64(3);
                self.hasher.write_u64(u64::from(node));
                timer.hash(&mut self.hasher);
                if self.record {
                    self.emit(Event::Timer {
                        node,
                        timer: format!("{timer:?}"),
                    });
                }
                self.dispatch(node, |p, ctx| p.on_timer(ctx, timer));
            }
            Ev::Undeliverable {
                node,
                incarnation,
                to,
                msg,
            } => {
                let slot = &self.slots[node as usize];
                if slot.state.is_none() || slot.incarnation != incarnation {
                    self.notice_done(&msg);
                    self.idle_pop = true;
                    return;
                }
                if let Some(until) = slot.paused_until {
                    self.queue.push(
                        until,
                        Ev::Undeliverable {
                            node,
                            incarnation,
                            to,
                            msg,
                        },
                    );
                    self.idle_pop = true;
                    return;
                }
                self.notice_done(&msg);
                self.hash_words(&[4, u64::from(node), u64::from(to), msg.kind() as u64]);
                self.emit(Event::Undeliverable {
                    node,
                    to,
                    kind: P::KINDS[msg.kind()],
                });
                self.dispatch(node, |p, ctx| p.on_undeliverable(ctx, to, msg));
            }
            Ev::Fault(i) => self.apply_fault(i),
            Ev::Resume { node, at } => {
                let slot = &mut self.slots[node as usize];
                if slot.paused_until == Some(at) {
                    slot.paused_until = None;
                    self.hash_words(&[5, u64::from(node)]);
                    self.emit(Event::Resume { node });
                }
            }
            Ev::FlakyDown { node, fault, began } => {
                let FaultAction::Flaky {
                    period_us,
                    down_us,
                    for_us,
                    ..
                } = self.scenario.faults[fault as usize].action
                else {
                    return;
                };
                self.crash(node);
                self.schedule(self.now + down_us, Ev::FlakyUp(node));
                let next = self.now + period_us;
                if for_us.is_none_or(|f| next < began + f) {
                    self.schedule(next, Ev::FlakyDown { node, fault, began });
                }
            }
            Ev::FlakyUp(node) => self.recover(node),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn deliver(
        &mut self,
        wire: u64,
        from: NodeId,
        to: NodeId,
        msg: P::Msg,
        sent_at: Micros,
        lost: Option<DropReason>,
        slowed: bool,
    ) {
        let id = wire >> 1;
        let kind = msg.kind();
        let purpose = msg.purpose();
        let slot = &self.slots[to as usize];
        let reason = lost
            .or_else(|| slot.state.is_none().then_some(DropReason::NodeDown))
            .or_else(|| self.network.blocked(from, to));
        if let Some(reason) = reason {
            self.metrics.off_wire(purpose, false);
            self.flights.remove(&wire);
            self.hash_words(&[6, id, reason as u64]);
            self.emit(Event::Drop {
                id,
                from,
                to,
                kind: P::KINDS[kind],
                reason,
            });
            if P::WANTS_UNDELIVERABLE && reason != DropReason::Lost {
                let sender = &self.slots[from as usize];
                if sender.state.is_some() {
                    let at = (sent_at + self.config.reply_timeout_us).max(self.now);
                    let incarnation = sender.incarnation;
                    if purpose == Purpose::Election {
                        self.election_notices += 1;
                    }
                    self.queue.push(
                        at,
                        Ev::Undeliverable {
                            node: from,
                            incarnation,
                            to,
                            msg,
                        },
                    );
                }
            }
            return;
        }
        let defer_to = match slot.paused_until {
            Some(until) => Some((until, slowed)),
            None if slot.slow_us > 0 && !slowed => Some((self.now + slot.slow_us, true)),
            None => None,
        };
        if let Some((at, slowed)) = defer_to {
            self.queue.push(
                at,
                Ev::Deliver {
                    wire,
                    from,
                    to,
                    msg,
                    sent_at,
                    lost: None,
                    slowed,
                },
            );
            self.idle_pop = true;
            return;
        }
        self.metrics.off_wire(purpose, true);
        self.flights.remove(&wire);
        self.hash_words(&[7, id]);
        self.emit(Event::Deliver {
            id,
            from,
            to,
            kind: P::KINDS[kind],
        });
        self.dispatch(to, |p, ctx| p.on_message(ctx, from, msg));
    }

    /// Runs a handler of `node` and carries out its commands.
    fn dispatch(
        &mut self,
        node: NodeId,
        handler: impl FnOnce(&mut P, &mut Ctx<'_, P::Msg, P::Timer>),
    ) {
        let slot = &mut self.slots[node as usize];
        let Some(state) = slot.state.as_mut() else {
            return;
        };
        let mut out = std::mem::take(&mut self.outbox);
        let mut ctx = Ctx {
            id: node,
            config: &self.config,
            local_now_us: slot.clock.local(self.now),
            rng: &mut self.rng,
            recording: self.record,
            out: &mut out,
        };
        handler(state, &mut ctx);
        for command in out.drain(..) {
            self.apply(node, command);
        }
        self.outbox = out;
    }

    fn apply(&mut self, node: NodeId, command: Command<P::Msg, P::Timer>) {
        match command {
            Command::Send { to, msg } => self.send(node, to, msg),
            Command::SetTimer { timer, after_us } => {
                let slot = &mut self.slots[node as usize];
                let (local_deadline, at) = slot.clock.deadline(self.now, after_us);
                if let Some(armed) = slot.timers.iter_mut().find(|t| t.timer == timer) {
                    if armed.queued_at <= at {
                        armed.local_deadline = local_deadline;
                        return;
                    }
                }
                let generation = self.next_generation;
                self.next_generation += 1;
                slot.timers.retain(|t| t.timer != timer);
                slot.timers.push(ArmedTimer {
                    timer,
                    generation,
                    local_deadline,
                    queued_at: at,
                });
                self.queue.push(
                    at,
                    Ev::Timer {
                        node,
                        timer,
                        generation,
                    },
                );
            }
            Command::CancelTimer(timer) => {
                self.slots[node as usize]
                    .timers
                    .retain(|t| t.timer != timer);
            }
            Command::Role { role, term } => {
                let slot = &mut self.slots[node as usize];
                if slot.role == role && slot.term == term {
                    return;
                }
                let was_leader = slot.role == Role::Leader;
                slot.role = role;
                slot.term = term;
                self.hash_words(&[8, u64::from(node), role as u64, term.unwrap_or(u64::MAX)]);
                self.emit(Event::Role { node, role, term });
                let found = self.checker.on_role(self.now, node, role, term);
                self.emit_violations(found);
                if role == Role::Leader && !was_leader {
                    self.metrics.on_new_leader(node);
                }
                self.leaders_dirty = true;
                self.agreement_dirty = true;
            }
            Command::Leader(leader) => {
                let slot = &mut self.slots[node as usize];
                if slot.leader == leader {
                    return;
                }
                slot.leader = leader;
                self.hash_words(&[9, u64::from(node), leader.map_or(u64::MAX, u64::from)]);
                self.emit(Event::Leader { node, leader });
                self.agreement_dirty = true;
            }
            Command::ElectionStarted => {
                self.metrics.elections += 1;
                self.hash_words(&[10, u64::from(node)]);
                self.emit(Event::Election { node });
            }
            Command::Vote { term, candidate } => {
                self.hash_words(&[25, u64::from(node), term, u64::from(candidate)]);
                self.emit(Event::Vote {
                    node,
                    term,
                    candidate,
                });
                let found = self.checker.on_vote(self.now, node, term, candidate);
                self.emit_violations(found);
            }
            Command::ResourceWrite {
                writer,
                token,
                accepted,
            } => {
                self.hash_words(&[
                    26,
                    u64::from(node),
                    u64::from(writer),
                    token,
                    u64::from(accepted),
                ]);
                self.emit(Event::Write {
                    node,
                    writer,
                    token,
                    accepted,
                });
                let found = self.checker.on_write(self.now, writer, token, accepted);
                if accepted {
                    self.metrics.writes_accepted += 1;
                } else {
                    self.metrics.writes_rejected += 1;
                }
                if !found.is_empty() {
                    self.metrics.stale_writes_accepted += 1;
                }
                self.emit_violations(found);
            }
            Command::Lease(held) => {
                let slot = &mut self.slots[node as usize];
                if slot.holds_lease == held {
                    return;
                }
                slot.holds_lease = held;
                self.hash_words(&[27, u64::from(node), u64::from(held)]);
                self.emit(Event::Lease { node, held });
                let found = self.checker.on_lease(self.now, node, held);
                self.emit_violations(found);
            }
            // Notes exist only in recorded runs, so they stay out of the
            // hash: recording must not change a run's identity.
            Command::Note(text) => self.emit(Event::Note { node, text }),
        }
    }

    fn send(&mut self, from: NodeId, to: NodeId, msg: P::Msg) {
        if to >= self.config.total {
            debug_assert!(false, "n{from} sent to unknown node {to}");
            return;
        }
        let kind = msg.kind();
        let purpose = msg.purpose();
        self.metrics.on_send(kind, purpose);
        let copies =
            if self.network.spec.duplicate > 0.0 && self.rng.chance(self.network.spec.duplicate) {
                2
            } else {
                1
            };
        let id = self.next_msg_id;
        self.next_msg_id += 1;
        for copy in 0..copies {
            let lost = if self.rng.chance(self.network.spec.drop) {
                Some(DropReason::Lost)
            } else {
                self.network.blocked(from, to)
            };
            let arrive = self.network.arrival(&mut self.rng, self.now, from, to);
            if copy == 1 {
                self.metrics.duplicated += 1;
            }
            self.metrics.on_wire(purpose);
            self.hasher.write_u64(self.now);
            self.hasher.write_u64(12);
            self.hasher.write_u64(id);
            self.hasher.write_u64(u64::from(from));
            self.hasher.write_u64(u64::from(to));
            self.hasher.write_u64(arrive);
            msg.hash(&mut self.hasher);
            if self.record {
                self.emit(Event::Send {
                    id,
                    from,
                    to,
                    kind: P::KINDS[kind],
                    purpose,
                    arrive_us: arrive,
                    duplicate: copy == 1,
                    detail: describe_message(P::KINDS[kind], &msg),
                });
                self.flights.insert(
                    id * 2 + copy,
                    Flight {
                        id,
                        from,
                        to,
                        kind,
                        sent_us: self.now,
                        arrive_us: arrive,
                        lost: lost.is_some(),
                    },
                );
            }
            self.queue.push(
                arrive,
                Ev::Deliver {
                    wire: id * 2 + copy,
                    from,
                    to,
                    msg: msg.clone(),
                    sent_at: self.now,
                    lost,
                    slowed: false,
                },
            );
        }
    }

    fn resolve(&mut self, target: Target, what: &str) -> Option<NodeId> {
        match target {
            Target::Node(id) => Some(id),
            Target::Leader => {
                let found = self.leaders.first().copied();
                if found.is_none() {
                    self.hash_words(&[13]);
                    self.emit(Event::FaultSkipped {
                        detail: format!(
                            "{what} the leader: no node leads right now, nothing happens"
                        ),
                    });
                }
                found
            }
        }
    }

    fn apply_fault(&mut self, index: usize) {
        let fault = self.scenario.faults[index].clone();
        match &fault.action {
            FaultAction::Crash(t) => {
                if let Some(id) = self.resolve(*t, "crash") {
                    self.crash(id);
                }
            }
            FaultAction::Recover(t) => {
                if let Some(id) = self.resolve(*t, "recover") {
                    self.recover(id);
                }
            }
            FaultAction::Pause { node, for_us } => {
                if let Some(id) = self.resolve(*node, "pause") {
                    let slot = &mut self.slots[id as usize];
                    if slot.state.is_none() {
                        return;
                    }
                    let until = (self.now + for_us).max(slot.paused_until.unwrap_or(0));
                    slot.paused_until = Some(until);
                    self.hash_words(&[14, u64::from(id), until]);
                    self.emit(Event::Pause {
                        node: id,
                        until_us: until,
                    });
                    self.schedule(
                        until,
                        Ev::Resume {
                            node: id,
                            at: until,
                        },
                    );
                }
            }
            FaultAction::Clock {
                node,
                offset_us,
                drift,
            } => {
                if let Some(id) = self.resolve(*node, "set the clock of") {
                    self.set_clock(
                        id,
                        LocalClock {
                            offset_us: *offset_us,
                            drift: *drift,
                        },
                    );
                }
            }
            FaultAction::Partition(groups) => {
                self.network.partition(groups);
                let mut shown: Vec<Vec<NodeId>> = vec![Vec::new(); groups.len() + 1];
                for (id, &g) in self.network.group.iter().enumerate() {
                    shown[g as usize].push(id as NodeId);
                }
                shown.retain(|g| !g.is_empty());
                self.hash_words(&[15]);
                for (id, &g) in self.network.group.iter().enumerate() {
                    self.hasher.write_u64(((id as u64) << 32) | u64::from(g));
                }
                self.emit(Event::Partition { groups: shown });
                self.leaders_dirty = true;
                self.agreement_dirty = true;
            }
            FaultAction::Heal => {
                self.network.heal();
                self.hash_words(&[16]);
                self.emit(Event::Heal);
                self.leaders_dirty = true;
                self.agreement_dirty = true;
            }
            FaultAction::Slow { node, extra_us } => {
                if let Some(id) = self.resolve(*node, "slow down") {
                    self.slots[id as usize].slow_us = *extra_us;
                    self.hash_words(&[17, u64::from(id), *extra_us]);
                    self.emit(Event::Slow {
                        node: id,
                        extra_us: *extra_us,
                    });
                }
            }
            FaultAction::Flaky { node, .. } => {
                if let Some(id) = self.resolve(*node, "make flaky") {
                    let began = self.now;
                    self.schedule(
                        began,
                        Ev::FlakyDown {
                            node: id,
                            fault: index as u32,
                            began,
                        },
                    );
                }
            }
            FaultAction::Cut { from, to } => {
                self.network.cuts.insert((*from, *to));
                self.hash_words(&[18, u64::from(*from), u64::from(*to)]);
                self.emit(Event::Cut {
                    from: *from,
                    to: *to,
                });
            }
            FaultAction::Uncut { from, to } => {
                self.network.cuts.remove(&(*from, *to));
                self.hash_words(&[19, u64::from(*from), u64::from(*to)]);
                self.emit(Event::Uncut {
                    from: *from,
                    to: *to,
                });
            }
            FaultAction::Network(spec) => {
                self.network.spec = spec.clone();
                self.hash_words(&[20, spec.latency_us.0, spec.latency_us.1]);
                self.emit(Event::Network {
                    latency_ms: (to_ms(spec.latency_us.0), to_ms(spec.latency_us.1)),
                    drop: spec.drop,
                    duplicate: spec.duplicate,
                });
            }
        }
    }

    fn crash(&mut self, id: NodeId) {
        let slot = &mut self.slots[id as usize];
        let Some(state) = slot.state.take() else {
            return;
        };
        slot.persistent = state.persistent();
        slot.timers.clear();
        slot.incarnation += 1;
        slot.paused_until = None;
        slot.role = Role::Follower;
        slot.leader = None;
        let held = std::mem::replace(&mut slot.holds_lease, false);
        self.hash_words(&[21, u64::from(id)]);
        self.emit(Event::Crash { node: id });
        if held {
            // A crashed node believes nothing.
            self.checker.on_lease(self.now, id, false);
        }
        self.leaders_dirty = true;
        self.agreement_dirty = true;
    }

    fn recover(&mut self, id: NodeId) {
        let slot = &mut self.slots[id as usize];
        if slot.state.is_some() {
            return;
        }
        slot.state = Some(P::new(id, &self.config, &slot.persistent));
        self.hash_words(&[22, u64::from(id)]);
        self.emit(Event::Recover { node: id });
        self.agreement_dirty = true;
        self.dispatch(id, |p, ctx| p.on_start(ctx, Boot::Recover));
    }

    fn set_clock(&mut self, id: NodeId, clock: LocalClock) {
        self.hash_words(&[
            23,
            u64::from(id),
            clock.offset_us as u64,
            clock.drift.to_bits(),
        ]);
        self.emit(Event::Clock {
            node: id,
            offset_us: clock.offset_us,
            drift: clock.drift,
        });
        let now = self.now;
        let slot = &mut self.slots[id as usize];
        slot.clock = clock;
        // Armed timers keep their local deadlines; their true fire times move.
        // An entry queued too late is replaced; one queued too early fires,
        // finds its deadline ahead and queues itself again.
        let mut moved = Vec::with_capacity(slot.timers.len());
        for t in &mut slot.timers {
            let at = clock.true_time_of(t.local_deadline, now);
            if at < t.queued_at {
                t.generation = self.next_generation;
                self.next_generation += 1;
                t.queued_at = at;
                moved.push((at, t.timer, t.generation));
            }
        }
        for (at, timer, generation) in moved {
            self.queue.push(
                at,
                Ev::Timer {
                    node: id,
                    timer,
                    generation,
                },
            );
        }
    }

    /// An undeliverable notice left the queue.
    fn notice_done(&mut self, msg: &P::Msg) {
        if msg.purpose() == Purpose::Election {
            self.election_notices -= 1;
        }
    }

    fn emit_violations(&mut self, found: Vec<Violation>) {
        for v in found {
            self.hash_words(&[24]);
            self.hasher.write(v.property.as_bytes());
            self.emit(Event::Violation {
                property: v.property,
                detail: v.detail,
                nodes: v.nodes,
            });
        }
    }

    fn refresh_leaders(&mut self) {
        if !self.leaders_dirty {
            return;
        }
        self.leaders_dirty = false;
        let leaders: Vec<NodeId> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.state.is_some() && s.role == Role::Leader)
            .map(|(id, _)| id as NodeId)
            .collect();
        self.metrics.on_leaders(self.now, &leaders);
        let new = self
            .checker
            .on_change(self.now, &leaders, &self.network.group);
        self.emit_violations(new);
        self.leaders = leaders;
    }

    /// Kind of a message, for callers outside the engine.
    pub fn kind_name(&self, kind: usize) -> &'static str {
        P::KINDS[kind]
    }

    /// Purpose helper for tests.
    pub fn purpose_of(msg: &P::Msg) -> Purpose {
        msg.purpose()
    }
}
