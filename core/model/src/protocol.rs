//! The contract between the engine and an algorithm: sans-I/O node logic.
//!
//! ```text
//!   engine ──on_start / on_message / on_timer / on_undeliverable──▶ node
//!   engine ◀── commands in Ctx: send, set/cancel timer, role, leader ──
//! ```
//!
//! A node never sees the network, the queue or the clock of the world: it
//! reads its own local clock and its own random numbers through [`Ctx`] and
//! pushes [`Command`]s, which the engine carries out (and counts, and
//! traces) after the handler returns.

use crate::rng::SimRng;
use crate::scenario::{Options, RingOrder, Scenario, TimingSpec};
use crate::script_error::ScriptError;
use crate::time::Micros;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;

/// A node id: `0..n`, and also the node's rank.
pub type NodeId = u32;

/// Why a message exists, for the counting rules (core/engine/src/metrics.rs,
/// module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// Exists to choose a leader.
    Election,
    /// Keeps things running: heartbeats, renewals, pings.
    Background,
}

/// What a node believes it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Follows (or waits for) a leader.
    Follower,
    /// Is taking part in an election as a contender.
    Candidate,
    /// Believes it leads.
    Leader,
    /// Not a participant: a coordination service or a storage resource
    /// the participants use. Never leads and is not asked to agree.
    Service,
    /// Follows the leader but never votes or stands (ZooKeeper's
    /// observers; the scenario's `observers`).
    Observer,
}

impl Role {
    /// Every role, in code order: the role whose [`Role::code`] is `i` is
    /// at index `i` (the page decodes the role column of its node and
    /// trace rows with this, never with a copy of its own).
    pub const ALL: [Role; 5] = [
        Role::Follower,
        Role::Candidate,
        Role::Leader,
        Role::Service,
        Role::Observer,
    ];

    /// Its number in the page's node and trace rows: its index in
    /// [`Role::ALL`] (follower 0, candidate 1, leader 2, service 3,
    /// observer 4).
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Its name, as in JSON (`follower`, `candidate`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Role::Follower => "follower",
            Role::Candidate => "candidate",
            Role::Leader => "leader",
            Role::Service => "service",
            Role::Observer => "observer",
        }
    }
}

/// Which safety property an algorithm claims, so the checker knows what a
/// violation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Safety {
    /// Classical: at most one leader per connected component; several
    /// leaders across a partition are reported as split brain.
    OneLeaderPerComponent,
    /// Several leaders at once are the algorithm's documented behaviour
    /// (the invitation algorithm): reported in metrics, never a violation.
    SeveralLeadersAllowed,
    /// Consensus and coordination-service algorithms: at most one leader
    /// per term, terms never go back, one vote per node per term. A stale
    /// leader of an older term cut off in a minority is not a violation;
    /// the election is settled once the majority follows one leader.
    Consensus,
}

/// A node that is not a participant, added after the n participants (ids
/// n, n+1, ... in the order an algorithm lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Extra {
    /// A coordination service (ZooKeeper, the Kubernetes API server).
    Service,
    /// A storage resource the leader writes to with a fencing token.
    Resource,
}

/// What a pending timer is for, so the page can draw and name it (a
/// countdown arc on the node, with a legend) without knowing any
/// algorithm. Each algorithm maps its own timers to these in
/// [`Protocol::timer_class`]; the page gets the code ([`TimerClass::code`])
/// in the node rows and the names from [`TimerClass::ALL`].
///
/// The codes are the order of [`TimerClass::ALL`]; new classes go at the
/// end so that codes already in use keep their meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerClass {
    /// Failure detection: no word from the leader (or no outcome of an
    /// election) for too long, after which the node starts an election
    /// (Raft's election timeout, a Bully follower's leader timeout, a
    /// ring node's watchdog while it follows).
    ElectionTimeout,
    /// A periodic send: a leader's next heartbeat round, a member's next
    /// check of its coordinator, a client's next ping, a coordinator's
    /// next search for other groups.
    Heartbeat,
    /// Waiting for an answer or an announcement during an election
    /// (Bully's OK and COORDINATOR, a ring election's lap, a quorum's
    /// acknowledgements), after which the node acts as if none will come.
    ReplyWait,
    /// Time to try again, or a delay waited out before trying: a
    /// candidate's next read of a lease, a vote sent again with back-off,
    /// a priority delay before starting an election or a merge, a late
    /// join.
    Retry,
    /// A lease holder's next renewal.
    LeaseRenew,
    /// A lease, or a session (a lease on the client's ephemeral nodes),
    /// runs out.
    LeaseExpiry,
    /// A leader's next write to the fenced resource.
    Write,
    /// None of the above (no algorithm here uses it yet).
    Other,
}

impl TimerClass {
    /// Every class, in code order.
    pub const ALL: [TimerClass; 8] = [
        TimerClass::ElectionTimeout,
        TimerClass::Heartbeat,
        TimerClass::ReplyWait,
        TimerClass::Retry,
        TimerClass::LeaseRenew,
        TimerClass::LeaseExpiry,
        TimerClass::Write,
        TimerClass::Other,
    ];

    /// Its number in the page's node rows: its index in
    /// [`TimerClass::ALL`].
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Its name in JSON and in the page's legend data (`election_timeout`).
    pub fn name(self) -> &'static str {
        match self {
            TimerClass::ElectionTimeout => "election_timeout",
            TimerClass::Heartbeat => "heartbeat",
            TimerClass::ReplyWait => "reply_wait",
            TimerClass::Retry => "retry",
            TimerClass::LeaseRenew => "lease_renew",
            TimerClass::LeaseExpiry => "lease_expiry",
            TimerClass::Write => "write",
            TimerClass::Other => "other",
        }
    }

    /// A short label for a legend (`election timeout`).
    pub fn label(self) -> &'static str {
        match self {
            TimerClass::ElectionTimeout => "election timeout",
            TimerClass::Heartbeat => "heartbeat",
            TimerClass::ReplyWait => "reply wait",
            TimerClass::Retry => "retry or delay",
            TimerClass::LeaseRenew => "lease renewal",
            TimerClass::LeaseExpiry => "lease expiry",
            TimerClass::Write => "resource write",
            TimerClass::Other => "other timer",
        }
    }
}

/// A message type of one algorithm.
pub trait Message: Clone + Debug + Hash {
    /// Index of this message's kind in [`Protocol::KINDS`].
    fn kind(&self) -> usize;
    /// Election or background (core/engine/src/metrics.rs, module docs).
    fn purpose(&self) -> Purpose;
    /// The kind's name when it is only known at run time (a script's
    /// message): the engine then numbers kinds in the order the run first
    /// sends them and ignores [`Message::kind`]. `None` (the default) for
    /// an algorithm whose kinds are its static [`Protocol::KINDS`].
    fn kind_name(&self) -> Option<&'static str> {
        None
    }
    /// Estimated heap bytes of the message's data, for the run's memory
    /// limit (core/engine/src/limits.rs): a script's message, whose data
    /// can be large. Zero (the default) for messages of a fixed size.
    fn heap_bytes(&self) -> usize {
        0
    }
}

/// How a node comes to life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boot {
    /// At time 0; `initiate` says whether the scenario's `start` names it.
    Fresh {
        /// Start an election now.
        initiate: bool,
    },
    /// After a crash, from persistent state only.
    Recover,
}

/// Settings every algorithm can read, resolved from the scenario.
#[derive(Debug, Clone)]
pub struct Config {
    /// Number of nodes.
    pub n: u32,
    /// `ring[i]` is the node at position `i` along the message direction.
    pub ring: Vec<NodeId>,
    /// `position[id]` is the index of `id` in `ring`.
    pub position: Vec<u32>,
    /// Range of the randomized failure-detection timeout (local time).
    pub election_timeout_us: (Micros, Micros),
    /// Heartbeat period of a leader.
    pub heartbeat_us: Micros,
    /// How long to wait for an answer before presuming the peer dead.
    pub reply_timeout_us: Micros,
    /// Largest one-way latency at time 0.
    pub latency_max_us: Micros,
    /// Candidate/ordinary: ids allowed to lead, ascending.
    pub candidates: Vec<NodeId>,
    /// Candidate/ordinary: wait before an ordinary node starts an election.
    pub delta_us: Micros,
    /// Participants plus extra nodes (service, resource).
    pub total: u32,
    /// Id of the coordination service node, if the algorithm has one.
    pub service: Option<NodeId>,
    /// Id of the resource node, if the algorithm has one.
    pub resource: Option<NodeId>,
    /// The scenario's timing, for algorithm-specific settings.
    pub timing: TimingSpec,
    /// The scenario's algorithm options.
    pub options: Options,
    /// What an algorithm prepared once for the whole run and shares with
    /// every node ([`Protocol::prepare`]; a scripted algorithm's compiled
    /// program); `None` for the built-in algorithms.
    pub prepared: Option<std::rc::Rc<dyn std::any::Any>>,
}

impl Config {
    /// Resolves the settings of `scenario` for an algorithm with the
    /// extra nodes `extras` ([`Protocol::EXTRAS`]).
    pub fn from_scenario(s: &Scenario, extras: &[Extra]) -> Self {
        let n = s.nodes;
        let ring: Vec<NodeId> = match s.ring {
            RingOrder::Ascending => (0..n).collect(),
            RingOrder::Descending => (0..n).rev().collect(),
            RingOrder::Random => {
                let mut ids: Vec<NodeId> = (0..n).collect();
                SimRng::new(s.seed, crate::rng::Stream::RingLayout).shuffle(&mut ids);
                ids
            }
        };
        let extra_id = |kind: Extra| {
            extras
                .iter()
                .position(|&e| e == kind)
                .map(|i| n + i as NodeId)
        };
        let mut position = vec![0; n as usize];
        for (i, &id) in ring.iter().enumerate() {
            position[id as usize] = i as u32;
        }
        Self {
            n,
            ring,
            position,
            election_timeout_us: s.timing.election_timeout_us,
            heartbeat_us: s.timing.heartbeat_us,
            reply_timeout_us: s.timing.reply_timeout(&s.network),
            latency_max_us: s.network.latency_us.1,
            candidates: s.candidate_ids(),
            delta_us: s.timing.delta_us,
            total: n + extras.len() as u32,
            service: extra_id(Extra::Service),
            resource: extra_id(Extra::Resource),
            timing: s.timing.clone(),
            options: s.options.clone(),
            prepared: None,
        }
    }

    /// The node `steps` positions before `id` along the ring.
    pub fn ring_prev(&self, id: NodeId, steps: u32) -> NodeId {
        self.ring_next(id, self.n - steps % self.n)
    }

    /// The node `steps` positions after `id` along the ring.
    pub fn ring_next(&self, id: NodeId, steps: u32) -> NodeId {
        let pos = (self.position[id as usize] + steps % self.n) % self.n;
        self.ring[pos as usize]
    }
}

/// One effect a handler asks for.
#[derive(Debug, Clone)]
pub enum Command<M, T> {
    /// Send `msg` to `to`.
    Send {
        /// Destination.
        to: NodeId,
        /// Payload.
        msg: M,
    },
    /// (Re)arm `timer` to fire after `after_us` of the node's local time.
    SetTimer {
        /// Which timer; setting an armed timer replaces it.
        timer: T,
        /// Local duration.
        after_us: Micros,
    },
    /// Disarm `timer` if armed.
    CancelTimer(T),
    /// The node's role (and term, for algorithms with terms) changed.
    Role {
        /// New role.
        role: Role,
        /// Term or epoch, if the algorithm has them.
        term: Option<u64>,
    },
    /// The node now believes `leader` leads (or that nobody does).
    Leader(Option<NodeId>),
    /// The node started an election (counted in `elections`).
    ElectionStarted,
    /// A plain-language remark for the event log.
    Note(String),
    /// The node voted for `candidate` in `term` (checked: one vote per
    /// node per term).
    Vote {
        /// The term.
        term: u64,
        /// Whom it voted for.
        candidate: NodeId,
    },
    /// A resource node handled a write from `writer` carrying `token`.
    ResourceWrite {
        /// The node that wrote.
        writer: NodeId,
        /// Its fencing token (term, zxid or lease version).
        token: u64,
        /// Whether the resource applied it.
        accepted: bool,
    },
    /// The node now believes it holds (or no longer holds) a lease.
    Lease(bool),
}

/// What a handler can see and do.
pub struct Ctx<'a, M, T> {
    pub(crate) id: NodeId,
    pub(crate) config: &'a Config,
    pub(crate) local_now_us: i64,
    pub(crate) rng: &'a mut SimRng,
    pub(crate) recording: bool,
    pub(crate) out: &'a mut Vec<Command<M, T>>,
}

impl<'a, M, T> Ctx<'a, M, T> {
    /// The context of one handler call of node `id` at its local time
    /// `local_now_us`, pushing into `out` (the engine's, and the handler
    /// tests' of [`testing`]).
    #[inline]
    pub fn new(
        id: NodeId,
        config: &'a Config,
        local_now_us: i64,
        rng: &'a mut SimRng,
        recording: bool,
        out: &'a mut Vec<Command<M, T>>,
    ) -> Self {
        Self {
            id,
            config,
            local_now_us,
            rng,
            recording,
            out,
        }
    }

    /// Whether the run records its trace (notes are kept only then).
    pub fn recording(&self) -> bool {
        self.recording
    }

    /// The node's random stream, whole: for a scripted algorithm's
    /// interpreter, which hands it to the script and takes it back
    /// (algorithms draw through [`Ctx::random_between`]).
    #[doc(hidden)]
    pub fn rng_mut(&mut self) -> &mut SimRng {
        self.rng
    }

    /// The commands pushed so far, for a scripted algorithm's interpreter,
    /// which collects a handler's commands itself and adds them at once.
    #[doc(hidden)]
    pub fn commands_mut(&mut self) -> &mut Vec<Command<M, T>> {
        self.out
    }

    /// This node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The cluster's settings.
    pub fn config(&self) -> &Config {
        self.config
    }

    /// This node's local clock reading, in microseconds.
    pub fn local_now_us(&self) -> i64 {
        self.local_now_us
    }

    /// Sends `msg` to `to`.
    pub fn send(&mut self, to: NodeId, msg: M) {
        self.out.push(Command::Send { to, msg });
    }

    /// Sends `msg` to every other participant, in id order (extra nodes,
    /// such as a coordination service, are not participants).
    pub fn broadcast(&mut self, msg: M)
    where
        M: Clone,
    {
        for peer in (0..self.config.n).filter(|&p| p != self.id) {
            self.out.push(Command::Send {
                to: peer,
                msg: msg.clone(),
            });
        }
    }

    /// Arms `timer` to fire after `after_us` of local time (replacing it
    /// if it was armed).
    pub fn set_timer(&mut self, timer: T, after_us: Micros) {
        self.out.push(Command::SetTimer { timer, after_us });
    }

    /// Disarms `timer`.
    pub fn cancel_timer(&mut self, timer: T) {
        self.out.push(Command::CancelTimer(timer));
    }

    /// Announces a role (and term).
    pub fn set_role(&mut self, role: Role, term: Option<u64>) {
        self.out.push(Command::Role { role, term });
    }

    /// Announces who this node believes leads.
    pub fn set_leader(&mut self, leader: Option<NodeId>) {
        self.out.push(Command::Leader(leader));
    }

    /// Records a vote for `candidate` in `term`.
    pub fn vote(&mut self, term: u64, candidate: NodeId) {
        self.out.push(Command::Vote { term, candidate });
    }

    /// Resource nodes: reports a write and whether it was applied.
    pub fn resource_write(&mut self, writer: NodeId, token: u64, accepted: bool) {
        self.out.push(Command::ResourceWrite {
            writer,
            token,
            accepted,
        });
    }

    /// Announces whether this node believes it holds a lease right now.
    pub fn set_lease(&mut self, held: bool) {
        self.out.push(Command::Lease(held));
    }

    /// Records that this node started an election.
    pub fn election_started(&mut self) {
        self.out.push(Command::ElectionStarted);
    }

    /// Adds a plain-language line to the event log (dropped when the run
    /// keeps no trace; notes are not part of the trace hash).
    pub fn note(&mut self, text: impl Into<String>) {
        if self.recording {
            self.out.push(Command::Note(text.into()));
        }
    }

    /// Like [`Ctx::note`], but only builds the text when the run keeps a
    /// trace, so formatting costs nothing in fast runs.
    pub fn note_with(&mut self, text: impl FnOnce() -> String) {
        if self.recording {
            self.out.push(Command::Note(text()));
        }
    }

    /// A uniform random duration in `lo..=hi`.
    pub fn random_between(&mut self, lo: Micros, hi: Micros) -> Micros {
        self.rng.between(lo, hi)
    }
}

/// One algorithm: the state of one node and its handlers.
///
/// `Clone` so that a whole simulation can be copied for time travel
/// (checkpoints: `election-engine`'s `travel`).
pub trait Protocol: Sized + Clone + Debug + 'static {
    /// Messages this algorithm sends.
    type Msg: Message;
    /// Timers a node can arm.
    type Timer: Copy + Eq + Debug + Hash;
    /// State that survives a crash.
    type Persistent: Clone + Default + Debug;
    /// Names of the message kinds, indexed by [`Message::kind`] (empty
    /// for a script, whose kinds are named at run time).
    const KINDS: &'static [&'static str];
    /// What counts as a violation for this algorithm.
    const SAFETY: Safety;
    /// The non-participant nodes it needs, given ids `n`, `n+1`, ... in
    /// this order (a coordination service, a resource).
    const EXTRAS: &'static [Extra] = &[];
    /// What the algorithm prepares once per run from `scenario` and shares
    /// with every node through [`Config::prepared`] (a scripted
    /// algorithm's compiled program); the built-in algorithms need none.
    fn prepare(scenario: &Scenario) -> Option<std::rc::Rc<dyn std::any::Any>> {
        let _ = scenario;
        None
    }
    /// What counts as a violation in a run with `config`: [`Protocol::SAFETY`],
    /// except for a script, which says what it claims.
    fn safety(config: &Config) -> Safety {
        let _ = config;
        Self::SAFETY
    }
    /// The error that stopped the handler just run, if any: only a
    /// script's handlers fail (a type error, the operation budget); the
    /// engine then stops the run (core/algorithms/src/script/mod.rs, module
    /// docs, Limits and errors).
    fn take_error(&mut self) -> Option<ScriptError> {
        None
    }
    /// Whether the engine should report messages that could not be
    /// delivered (destination down or unreachable) back to the sender.
    const WANTS_UNDELIVERABLE: bool = false;

    /// A node's state when it comes to life (fresh or recovering).
    fn new(id: NodeId, config: &Config, persistent: &Self::Persistent) -> Self;
    /// The node starts (at time 0 or on recovery).
    fn on_start(&mut self, ctx: &mut Ctx<'_, Self::Msg, Self::Timer>, boot: Boot);
    /// A message arrived.
    fn on_message(
        &mut self,
        ctx: &mut Ctx<'_, Self::Msg, Self::Timer>,
        from: NodeId,
        msg: Self::Msg,
    );
    /// A timer fired.
    fn on_timer(&mut self, ctx: &mut Ctx<'_, Self::Msg, Self::Timer>, timer: Self::Timer);
    /// What `timer` is for, as this node stands now: the meaning its
    /// firing would have (core/algorithms/src/algorithms/mod.rs, module
    /// docs, How to add an algorithm).
    /// A timer whose meaning depends on the state (a ring node's watchdog
    /// waits for the leader while it follows and for the election while
    /// it takes part) is classed by the state. Asked when the page's node
    /// views are built and, in recording runs only, for the trace event of
    /// each timer that fires (classed by the state before it fires); never
    /// on a counting run's event path.
    fn timer_class(&self, timer: Self::Timer) -> TimerClass;
    /// A message this node sent to `to` could not be delivered; the link
    /// layer reports it one reply timeout after the send (like a TCP
    /// connection timing out). Random losses are not reported.
    fn on_undeliverable(
        &mut self,
        ctx: &mut Ctx<'_, Self::Msg, Self::Timer>,
        to: NodeId,
        msg: Self::Msg,
    ) {
        let _ = (ctx, to, msg);
    }
    /// The part of the state that survives a crash.
    fn persistent(&self) -> Self::Persistent;

    /// Estimated heap bytes the node's state holds (logs and tables that
    /// grow with the run or the cluster), so that time-travel
    /// checkpoints can be bounded in memory, not only in number. Zero
    /// for algorithms whose state is small and fixed.
    fn heap_bytes(&self) -> usize {
        0
    }

    /// The same for the node's persistent state.
    fn persistent_heap_bytes(persistent: &Self::Persistent) -> usize {
        let _ = persistent;
        0
    }
    /// Every field of the state, for the inspector.
    fn inspect(&self) -> Vec<(&'static str, String)>;
}

/// Helpers for handler unit tests: feed one event, get the commands (the
/// algorithms' tests use them; generic, so nothing of them is compiled
/// into a build that does not call them).
pub mod testing {
    use super::*;
    use crate::rng::Stream;

    /// Runs `handler` on `node` with a fresh context at local time 0 and
    /// returns the commands it pushed.
    pub fn commands<P: Protocol>(
        node: &mut P,
        id: NodeId,
        config: &Config,
        handler: impl FnOnce(&mut P, &mut Ctx<'_, P::Msg, P::Timer>),
    ) -> Vec<Command<P::Msg, P::Timer>> {
        let mut rng = SimRng::new(1, Stream::Engine);
        let mut out = Vec::new();
        let mut ctx = Ctx {
            id,
            config,
            local_now_us: 0,
            rng: &mut rng,
            recording: true,
            out: &mut out,
        };
        handler(node, &mut ctx);
        out
    }

    /// Runs `f` with a fresh context for node `id` and returns the
    /// commands it pushed (for helpers that are not whole protocols).
    pub fn ctx_commands<M, T>(
        id: NodeId,
        config: &Config,
        f: impl FnOnce(&mut Ctx<'_, M, T>),
    ) -> Vec<Command<M, T>> {
        let mut rng = SimRng::new(1, Stream::Engine);
        let mut out = Vec::new();
        let mut ctx = Ctx {
            id,
            config,
            local_now_us: 0,
            rng: &mut rng,
            recording: true,
            out: &mut out,
        };
        f(&mut ctx);
        out
    }

    /// Just the messages sent, as (to, msg).
    pub fn sends<M: Clone, T>(commands: &[Command<M, T>]) -> Vec<(NodeId, M)> {
        commands
            .iter()
            .filter_map(|c| match c {
                Command::Send { to, msg } => Some((*to, msg.clone())),
                _ => None,
            })
            .collect()
    }

    /// The config of an `n`-node default scenario with the given ring.
    pub fn config(n: u32, ring: &str) -> Config {
        let ring = match ring {
            "ascending" => RingOrder::Ascending,
            "descending" => RingOrder::Descending,
            "random" => RingOrder::Random,
            other => panic!("no ring order {other:?}"),
        };
        let s = Scenario {
            nodes: n,
            ring,
            ..Scenario::default()
        };
        Config::from_scenario(&s, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_codes_are_their_place_in_the_list_and_names_their_json() {
        for (i, role) in Role::ALL.iter().enumerate() {
            assert_eq!(role.code(), i as u32, "{role:?}");
            assert_eq!(
                serde_json::to_value(role).unwrap(),
                serde_json::json!(role.name())
            );
        }
        // Fails to compile when `Role` gains a variant `ALL` may lack.
        match Role::Follower {
            Role::Follower | Role::Candidate | Role::Leader | Role::Service | Role::Observer => {}
        }
    }

    #[test]
    fn timer_class_codes_are_their_place_in_the_list() {
        for (i, class) in TimerClass::ALL.iter().enumerate() {
            assert_eq!(class.code() as usize, i, "{class:?}");
            // The JSON name is the one the page's legend data gives.
            assert_eq!(
                serde_json::to_string(class).unwrap(),
                format!("\"{}\"", class.name())
            );
            assert!(!class.label().is_empty());
        }
        assert_eq!(TimerClass::ALL[0], TimerClass::ElectionTimeout);
        assert_eq!(TimerClass::ElectionTimeout.label(), "election timeout");
    }
}
