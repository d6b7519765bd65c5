//! Hirschberg-Sinclair bidirectional ring election (D. S. Hirschberg and
//! J. B. Sinclair, "Decentralized extrema-finding in circular
//! configurations of processors", CACM 23(11), 1980; also N. Lynch,
//! *Distributed Algorithms*, 1996, section 3.4).
//!
//! Rules, as simulated here (messages travel both ways round the ring;
//! "next" is the scenario's `ring` order, "prev" the other way):
//! - Phases k = 0, 1, 2, ...: a candidate sends `PROBE(id, k, hop 1)` to
//!   both neighbours; the probes travel 2^k hops out. A candidate that
//!   gets both `REPLY(id, k)` back goes on to phase k + 1, twice as far.
//! - On `PROBE(j, k, d)`, comparing j with the receiver's own id (the
//!   published rule: a smaller id is swallowed, a larger one travels):
//!   - j larger: if d < 2^k, forward `PROBE(j, k, d + 1)` the same way;
//!     if d = 2^k, send `REPLY(j, k)` back towards j. Either way the
//!     receiver has seen a larger id and stops being a candidate (the
//!     paper's "lost"); a leader that sees one stops leading.
//!   - j smaller: swallowed by a candidate, a leader, or any node that has
//!     seen a larger id since it last followed a leader: j cannot be the
//!     largest. With `start: all` every node is one of these from the
//!     start, which is exactly the published rule (a smaller id is
//!     discarded).
//!   - j equal to the receiver's id: the probe went all the way round
//!     without meeting a larger id, so the receiver is the largest and
//!     leads. It sends `ELECTED(id)` once round the ring (one direction,
//!     n messages); every node records the leader and forwards it, until
//!     it is back at the leader. The same probe going round the other way
//!     arrives later and is ignored.
//! - `REPLY(j, k)` is relayed unchanged until it reaches j.
//! - Non-initiators relay only: a node that the scenario's `start` does not
//!   name (or that joins an election it did not start) never competes; it
//!   passes probes on, smaller ones included, until it has seen a larger
//!   id. So with `start` naming a few nodes, or after a failure (where
//!   the nodes that notice first start), the leader is the highest of the
//!   nodes that started, not necessarily the highest live id.
//! - Dead or unreachable neighbours: the link reports an undeliverable
//!   message one reply timeout after the send, and the sender passes it to
//!   the next node in the same direction (hop counts count live nodes
//!   only, so a phase reaches 2^k live nodes). A probe or `ELECTED` whose
//!   originator is the dead node dies with it and the discoverer starts a
//!   new election; a reply for a dead node is dropped. A candidate whose
//!   probe finds every other node down has gone round: it leads.
//! - Failure detection as in Chang-Roberts: leader `HEARTBEAT`s
//!   (background), randomized follower timeouts. A candidate that waits
//!   longer than a whole loss-free election for the replies of one phase
//!   sends that phase's missing probes again (messages can be lost; a
//!   losing candidate never hears it lost until `ELECTED`, so the wait is
//!   long enough that losers never resend in a run without losses). A
//!   relaying node whose election has not finished within twice that
//!   starts its own. A candidate that hears the heartbeat of a live leader
//!   higher than itself follows it (its `ELECTED` may have been lost); a
//!   relaying node follows any live leader it hears; a follower moves to
//!   a higher leader; a leader that hears a higher leader steps down, which
//!   also settles a healed partition on the higher leader. A recovered
//!   node follows the first leader it hears.
//! - Following a leader again means forgetting the larger ids seen while
//!   relaying, also when the leader a relay hears is the one it followed
//!   before the election (its relay watchdog is then replaced by the
//!   follower one). Otherwise, once the larger candidate has given up (it
//!   follows any `ELECTED`, even of a lower id), the relay would swallow
//!   a smaller, still live candidate's probes for ever while the leader's
//!   heartbeats keep its own watchdog quiet; and that candidate, higher
//!   than the leader, does not follow it. With the relays back to being
//!   wires the candidate's probe goes round, the lower leader relays it and
//!   stops leading (the rule above), and the candidate leads: after a
//!   partition heals, a live candidate higher than the leader ends up
//!   leading.
//!
//! Costs with every node starting (Hirschberg & Sinclair): at most
//! n/(2^(k-1) + 1) candidates reach phase k and each sends at most 4·2^k
//! probes and replies, so fewer than 8n(1 + ⌈log₂ n⌉) `PROBE` + `REPLY`;
//! the winner's last phase sends 2n probes (both go all the way round)
//! and `ELECTED` adds n. Exact figures depend on the ring order (and, as
//! a candidate that relays a larger id stops early, a little on timing):
//! see `tests/hirschberg_sinclair.rs`.
//!
//! Safety claimed: one leader on a ring without partitions. Known failure:
//! a partition leaves each side electing its own leader (split brain).

use super::detector::{heartbeat_round, leader_timeout};
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::scenario::Scenario;
use crate::time::Micros;
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &["PROBE", "REPLY", "ELECTED", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "hirschberg-sinclair",
    name: "Hirschberg-Sinclair ring",
    summary: "Hirschberg & Sinclair 1980: candidates PROBE both ways 2^k hops in phase k, REPLYs bring survivors to the next phase, O(n log n) messages; the winner sends one ELECTED lap",
    layout: Layout::Ring,
    kinds: KINDS,
    extras: &[],
    claims: HirschbergSinclair::SAFETY,
    builder: Some(engine::<HirschbergSinclair>),
    theory: Some(theory),
};

/// Hirschberg & Sinclair 1980: the bound on the initial election's
/// messages (a bound, not a mean).
fn theory(scenario: &Scenario) -> (f64, &'static str) {
    let n = f64::from(scenario.nodes);
    let log = f64::from(scenario.nodes).log2().ceil();
    (
        8.0 * n * (1.0 + log),
        "upper bound, not a mean: 8n(1 + ceil(log2 n)) PROBE + REPLY + ELECTED (Hirschberg & Sinclair 1980)",
    )
}

/// A direction round the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Along the scenario's `ring` order.
    Next,
    /// Against it.
    Prev,
}

impl Dir {
    /// The other way round.
    pub fn back(self) -> Dir {
        match self {
            Dir::Next => Dir::Prev,
            Dir::Prev => Dir::Next,
        }
    }

    fn index(self) -> usize {
        match self {
            Dir::Next => 0,
            Dir::Prev => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dir::Next => "next",
            Dir::Prev => "prev",
        }
    }
}

/// Hirschberg-Sinclair messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Candidate `id`'s probe of phase `phase`; the receiver is the
    /// `hop`-th live node on its way; it travels towards `dir`.
    Probe {
        /// The candidate.
        id: NodeId,
        /// Its phase: the probe reaches 2^phase nodes.
        phase: u32,
        /// How many nodes it has reached, the receiver included.
        hop: u32,
        /// Where it is going.
        dir: Dir,
    },
    /// The probe of `id` in `phase` reached its full distance; travels
    /// towards `dir`, back to `id`.
    Reply {
        /// The candidate it returns to.
        id: NodeId,
        /// The phase of the probe.
        phase: u32,
        /// Where it is going.
        dir: Dir,
    },
    /// Announces the winner, once round the ring (towards next).
    Elected(NodeId),
    /// The leader is alive (background).
    Heartbeat,
}

impl fmt::Debug for Msg {
    /// Reads `PROBE(5, phase 1, hop 2, to next)` in the event log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Probe {
                id,
                phase,
                hop,
                dir,
            } => write!(
                f,
                "Probe({id}, phase {phase}, hop {hop}, to {})",
                dir.name()
            ),
            Msg::Reply { id, phase, dir } => {
                write!(f, "Reply({id}, phase {phase}, to {})", dir.name())
            }
            Msg::Elected(j) => write!(f, "Elected({j})"),
            Msg::Heartbeat => write!(f, "Heartbeat"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Probe { .. } => 0,
            Msg::Reply { .. } => 1,
            Msg::Elected(_) => 2,
            Msg::Heartbeat => 3,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}

/// Hirschberg-Sinclair timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower: no leader heartbeat. Candidate: the replies of a phase
    /// are overdue. Relay: the election has not finished.
    Watchdog,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// Where a node stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Follows `leader` (or waits for one); takes no part in an election.
    Idle,
    /// Competes in `phase`.
    Candidate,
    /// Relays an election it does not (or no longer) compete in.
    Relay,
    /// Leads.
    Leader,
}

/// One Hirschberg-Sinclair node.
#[derive(Debug, Clone)]
pub struct HirschbergSinclair {
    id: NodeId,
    next: NodeId,
    prev: NodeId,
    status: Status,
    /// Current (or last) phase as a candidate.
    phase: u32,
    /// Replies of `phase` received, from the next side and the prev side.
    replied: [bool; 2],
    /// Largest id seen in a probe since this node last followed a leader
    /// or started an election.
    largest_seen: NodeId,
    leader: Option<NodeId>,
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// How far a probe of `phase` reaches: 2^phase nodes.
fn reach(phase: u32) -> u64 {
    1u64.checked_shl(phase).unwrap_or(u64::MAX)
}

fn nodes(count: u64) -> String {
    if count == 1 {
        "1 node".into()
    } else {
        format!("{count} nodes")
    }
}

/// How long a candidate waits for the replies of one phase before it
/// sends the missing probes again: as long as a whole election without
/// losses, so that a losing candidate (which only learns it lost from
/// `ELECTED`) never resends in a loss-free run. With every node starting
/// at once the winner's phases before the last take 2·2^k hops each, under
/// 4n in all, its last probe n and the `ELECTED` lap n more: under 6n hops
/// at the largest latency. Add a few reply timeouts for skipping dead
/// nodes and one ordinary election timeout. (Longer waits make recovery
/// from lost messages slow; shorter ones make losers resend.)
fn patience(config: &Config) -> Micros {
    let n = u64::from(config.n);
    6 * n * config.latency_max_us + 4 * config.reply_timeout_us + config.election_timeout_us.1
}

impl HirschbergSinclair {
    fn toward(&self, dir: Dir) -> NodeId {
        match dir {
            Dir::Next => self.next,
            Dir::Prev => self.prev,
        }
    }

    fn arm_follower_watchdog(&self, ctx: &mut C<'_>) {
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Watchdog, t);
    }

    fn arm_candidate_watchdog(&self, ctx: &mut C<'_>) {
        let t = patience(ctx.config());
        ctx.set_timer(Timer::Watchdog, t);
    }

    fn arm_relay_watchdog(&self, ctx: &mut C<'_>) {
        let t = 2 * patience(ctx.config());
        ctx.set_timer(Timer::Watchdog, t);
    }

    fn send_probe(&self, ctx: &mut C<'_>, dir: Dir) {
        let probe = Msg::Probe {
            id: self.id,
            phase: self.phase,
            hop: 1,
            dir,
        };
        ctx.send(self.toward(dir), probe);
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        self.status = Status::Candidate;
        self.phase = 0;
        self.replied = [false; 2];
        self.largest_seen = self.id;
        self.leader = None;
        ctx.election_started();
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Candidate, None);
        ctx.set_leader(None);
        self.send_probe(ctx, Dir::Next);
        self.send_probe(ctx, Dir::Prev);
        self.arm_candidate_watchdog(ctx);
    }

    fn win(&mut self, ctx: &mut C<'_>) {
        self.status = Status::Leader;
        self.leader = Some(self.id);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        ctx.send(self.next, Msg::Elected(self.id));
        ctx.cancel_timer(Timer::Watchdog);
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.status = Status::Idle;
        self.replied = [false; 2];
        self.largest_seen = self.id;
        self.leader = Some(leader);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
        self.arm_follower_watchdog(ctx);
    }

    /// Whether a probe of an id smaller than ours stops here.
    fn swallows(&self) -> bool {
        matches!(self.status, Status::Candidate | Status::Leader) || self.largest_seen > self.id
    }

    /// Passes someone else's probe on: one node further, or back as a
    /// reply once it has reached 2^phase nodes.
    fn relay_probe(&self, ctx: &mut C<'_>, id: NodeId, phase: u32, hop: u32, dir: Dir) {
        if u64::from(hop) < reach(phase) {
            let probe = Msg::Probe {
                id,
                phase,
                hop: hop + 1,
                dir,
            };
            ctx.send(self.toward(dir), probe);
        } else {
            let back = dir.back();
            ctx.send(
                self.toward(back),
                Msg::Reply {
                    id,
                    phase,
                    dir: back,
                },
            );
        }
    }

    /// Joins an election as a relay. The watchdog runs from the moment it
    /// joins, not from the last message it relayed: a candidate that keeps
    /// resending keeps the relays busy without the election finishing.
    fn become_relay(&mut self, ctx: &mut C<'_>) {
        if self.status != Status::Relay {
            self.status = Status::Relay;
            self.arm_relay_watchdog(ctx);
        }
    }

    fn on_probe(&mut self, ctx: &mut C<'_>, id: NodeId, phase: u32, hop: u32, dir: Dir) {
        if id == self.id {
            if self.status == Status::Candidate {
                ctx.note_with(|| format!(
                    "its phase-{phase} probe came all the way round without meeting a larger id: it leads"
                ));
                self.win(ctx);
            }
            // Otherwise: the copy that went round the other way, or a
            // probe of an election it has since given up.
            return;
        }
        if id > self.id {
            self.largest_seen = self.largest_seen.max(id);
            match self.status {
                Status::Leader => {
                    ctx.note_with(|| format!("relays the probe of higher n{id} and stops leading"));
                    self.leader = None;
                    ctx.cancel_timer(Timer::Heartbeat);
                    ctx.set_role(Role::Follower, None);
                    ctx.set_leader(None);
                }
                Status::Candidate => {
                    ctx.note_with(|| {
                        format!(
                            "relays the probe of higher n{id}: it cannot win and stops competing"
                        )
                    });
                    ctx.set_role(Role::Follower, None);
                }
                Status::Idle | Status::Relay => {}
            }
            self.become_relay(ctx);
            self.relay_probe(ctx, id, phase, hop, dir);
        } else if !self.swallows() {
            // A node that never competed and has seen nothing larger is
            // just a wire.
            self.become_relay(ctx);
            self.relay_probe(ctx, id, phase, hop, dir);
        }
        // Otherwise the smaller id is swallowed.
    }

    fn on_reply(&mut self, ctx: &mut C<'_>, id: NodeId, phase: u32, dir: Dir) {
        if id != self.id {
            ctx.send(self.toward(dir), Msg::Reply { id, phase, dir });
            return;
        }
        if self.status != Status::Candidate || phase != self.phase {
            return; // stale: an earlier phase or election
        }
        // A reply travelling towards `dir` answers the probe sent the
        // other way.
        self.replied[dir.back().index()] = true;
        if self.replied == [true, true] {
            self.phase += 1;
            self.replied = [false; 2];
            ctx.note_with(|| format!(
                "both phase-{phase} probes came back: no larger id within {} either way; phase {} probes reach {} nodes",
                nodes(reach(phase)),
                self.phase,
                reach(self.phase)
            ));
            self.send_probe(ctx, Dir::Next);
            self.send_probe(ctx, Dir::Prev);
            self.arm_candidate_watchdog(ctx);
        }
    }

    fn on_heartbeat(&mut self, ctx: &mut C<'_>, from: NodeId) {
        match self.status {
            Status::Leader => {
                if from > self.id {
                    ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                    self.follow(ctx, from);
                }
            }
            _ if self.leader == Some(from) => {
                if self.status == Status::Relay {
                    // Back to following its live leader: what it saw
                    // while relaying no longer counts (see the module
                    // docs), or it would swallow a smaller candidate's
                    // probes forever.
                    ctx.note_with(|| {
                        format!("hears its leader n{from} again; stops relaying and follows it")
                    });
                    self.status = Status::Idle;
                    self.largest_seen = self.id;
                }
                self.arm_follower_watchdog(ctx);
            }
            Status::Candidate => {
                if from > self.id {
                    ctx.note_with(|| format!(
                        "hears leader n{from}, higher than itself; gives up its election and follows"
                    ));
                    self.follow(ctx, from);
                }
            }
            Status::Relay => self.follow(ctx, from),
            Status::Idle => {
                if self.leader.is_none_or(|l| from > l) {
                    self.follow(ctx, from);
                }
            }
        }
    }

    /// Starts an election after an undeliverable message showed that the
    /// election in progress cannot finish, unless this node competes or
    /// leads already.
    fn restart(&mut self, ctx: &mut C<'_>) {
        if matches!(self.status, Status::Idle | Status::Relay) {
            self.start_election(ctx);
        }
    }
}

impl Protocol for HirschbergSinclair {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;
    const WANTS_UNDELIVERABLE: bool = true;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            next: config.ring_next(id, 1),
            prev: config.ring_prev(id, 1),
            status: Status::Idle,
            phase: 0,
            replied: [false; 2],
            largest_seen: id,
            leader: None,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Follower, None);
        match boot {
            Boot::Fresh { initiate: true } => self.start_election(ctx),
            Boot::Fresh { initiate: false } | Boot::Recover => self.arm_follower_watchdog(ctx),
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Probe {
                id,
                phase,
                hop,
                dir,
            } => self.on_probe(ctx, id, phase, hop, dir),
            Msg::Reply { id, phase, dir } => self.on_reply(ctx, id, phase, dir),
            Msg::Elected(j) if j == self.id => {
                // The announcement went all the way round.
            }
            Msg::Elected(j) => {
                if self.status == Status::Leader && j < self.id {
                    ctx.note_with(|| {
                        format!("the lap announcing n{j} missed it; it is higher and keeps leading")
                    });
                } else {
                    self.follow(ctx, j);
                }
                ctx.send(self.next, Msg::Elected(j));
            }
            Msg::Heartbeat => self.on_heartbeat(ctx, from),
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Watchdog => match self.status {
                Status::Leader => {}
                Status::Candidate => {
                    for dir in [Dir::Next, Dir::Prev] {
                        if !self.replied[dir.index()] {
                            ctx.note_with(|| format!(
                                "no reply to its phase-{} probe towards {} in time; sends it again",
                                self.phase,
                                dir.name()
                            ));
                            self.send_probe(ctx, dir);
                        }
                    }
                    self.arm_candidate_watchdog(ctx);
                }
                Status::Relay => {
                    ctx.note("the election it relays has not finished in time; starts its own");
                    self.start_election(ctx);
                }
                Status::Idle => {
                    match self.leader {
                        Some(l) => ctx.note_with(|| format!(
                            "heard nothing from leader n{l}; presumes it dead and starts an election"
                        )),
                        None => ctx.note("knows no leader; starts an election"),
                    }
                    self.start_election(ctx);
                }
            },
            Timer::Heartbeat => {
                if self.status == Status::Leader {
                    heartbeat_round(ctx, Msg::Heartbeat, Timer::Heartbeat);
                }
            }
        }
    }

    fn on_undeliverable(&mut self, ctx: &mut C<'_>, to: NodeId, msg: Msg) {
        let (origin, dir) = match msg {
            Msg::Probe { id, dir, .. } | Msg::Reply { id, dir, .. } => (id, dir),
            Msg::Elected(j) => (j, Dir::Next),
            Msg::Heartbeat => return,
        };
        if origin == to {
            match msg {
                Msg::Reply { .. } => {} // nobody left to read it
                _ => {
                    ctx.note_with(|| {
                        format!(
                            "n{to} is down and its {} dies with it; starts a new election",
                            if matches!(msg, Msg::Elected(_)) {
                                "announcement"
                            } else {
                                "probe"
                            }
                        )
                    });
                    self.restart(ctx);
                }
            }
            return;
        }
        let skip_to = match dir {
            Dir::Next => ctx.config().ring_next(to, 1),
            Dir::Prev => ctx.config().ring_prev(to, 1),
        };
        if skip_to != self.id {
            ctx.note_with(|| {
                format!("n{to} does not answer; skips it and passes the message to n{skip_to}")
            });
            ctx.send(skip_to, msg);
        } else if origin == self.id {
            // Our own message, and everyone else is down: it has gone round.
            self.on_message(ctx, self.id, msg);
        } else if !matches!(msg, Msg::Reply { .. }) {
            ctx.note_with(|| format!(
                "n{to} does not answer and nobody else is up on the way; starts its own election"
            ));
            self.restart(ctx);
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // A candidate waits for its probes' replies, a relay for the
            // election it passes on to finish; an idle node (and a leader,
            // which has cancelled it) waits for the leader.
            Timer::Watchdog => match self.status {
                Status::Candidate | Status::Relay => TimerClass::ReplyWait,
                Status::Idle | Status::Leader => TimerClass::ElectionTimeout,
            },
            Timer::Heartbeat => TimerClass::Heartbeat,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let status = match self.status {
            Status::Idle => "follower (takes no part in an election)",
            Status::Candidate => "candidate",
            Status::Relay => "relaying an election",
            Status::Leader => "leader",
        };
        let replied: Vec<&str> = [Dir::Next, Dir::Prev]
            .into_iter()
            .filter(|d| self.replied[d.index()])
            .map(Dir::name)
            .collect();
        vec![
            ("status", status.to_string()),
            ("phase", self.phase.to_string()),
            (
                "replies this phase from",
                if replied.is_empty() {
                    "none".into()
                } else {
                    replied.join(" and ")
                },
            ),
            ("largest id seen", format!("n{}", self.largest_seen)),
            (
                "leader",
                self.leader.map_or("none".into(), |l| format!("n{l}")),
            ),
            ("next", format!("n{}", self.next)),
            ("prev", format!("n{}", self.prev)),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Hirschberg & Sinclair 1980).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    fn node(id: NodeId, n: u32) -> (HirschbergSinclair, Config) {
        let c = config(n, "ascending");
        (HirschbergSinclair::new(id, &c, &()), c)
    }

    fn candidate(id: NodeId, n: u32) -> (HirschbergSinclair, Config) {
        let (mut r, c) = node(id, n);
        commands(&mut r, id, &c, |r, ctx| {
            r.on_start(ctx, Boot::Fresh { initiate: true })
        });
        (r, c)
    }

    fn probe(id: NodeId, phase: u32, hop: u32, dir: Dir) -> Msg {
        Msg::Probe {
            id,
            phase,
            hop,
            dir,
        }
    }

    fn reply(id: NodeId, phase: u32, dir: Dir) -> Msg {
        Msg::Reply { id, phase, dir }
    }

    #[test]
    fn an_initiator_probes_one_hop_both_ways() {
        let (mut r, c) = node(2, 8);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_start(ctx, Boot::Fresh { initiate: true })
        });
        assert_eq!(
            sends(&out),
            vec![
                (3, probe(2, 0, 1, Dir::Next)),
                (1, probe(2, 0, 1, Dir::Prev))
            ]
        );
        assert_eq!(r.status, Status::Candidate);
    }

    #[test]
    fn a_larger_probe_within_reach_travels_on_and_the_receiver_stops_competing() {
        let (mut r, c) = candidate(2, 8);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, probe(5, 2, 1, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(3, probe(5, 2, 2, Dir::Next))]);
        assert_eq!(r.status, Status::Relay);
        assert!(out.iter().any(|c| matches!(
            c,
            Command::Role {
                role: Role::Follower,
                ..
            }
        )));
    }

    #[test]
    fn a_larger_probe_at_its_full_reach_turns_into_a_reply() {
        let (mut r, c) = candidate(2, 8);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, probe(5, 1, 2, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(1, reply(5, 1, Dir::Prev))]);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 3, probe(6, 0, 1, Dir::Prev))
        });
        assert_eq!(sends(&out), vec![(3, reply(6, 0, Dir::Next))]);
    }

    #[test]
    fn a_candidate_swallows_a_smaller_probe() {
        let (mut r, c) = candidate(4, 8);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
        });
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_node_that_has_seen_a_larger_id_swallows_a_smaller_probe() {
        let (mut r, c) = node(4, 8);
        commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, probe(6, 1, 1, Dir::Next))
        });
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
        });
        assert!(sends(&out).is_empty());
    }

    #[test]
    fn a_non_initiator_relays_even_a_smaller_probe() {
        let (mut r, c) = node(4, 8);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(5, probe(1, 1, 2, Dir::Next))]);
        assert_eq!(r.status, Status::Relay);
    }

    #[test]
    fn replies_are_relayed_towards_their_candidate() {
        let (mut r, c) = node(4, 8);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 5, reply(6, 1, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(5, reply(6, 1, Dir::Next))]);
    }

    #[test]
    fn both_replies_start_the_next_phase() {
        let (mut r, c) = candidate(4, 8);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
        });
        assert!(sends(&out).is_empty(), "one side is not enough");
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
        });
        assert!(sends(&out).is_empty(), "a duplicate is not the other side");
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, reply(4, 0, Dir::Next))
        });
        assert_eq!(
            sends(&out),
            vec![
                (5, probe(4, 1, 1, Dir::Next)),
                (3, probe(4, 1, 1, Dir::Prev))
            ]
        );
        assert_eq!(r.phase, 1);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, reply(4, 0, Dir::Next))
        });
        assert!(sends(&out).is_empty(), "a reply of an old phase is stale");
    }

    #[test]
    fn own_probe_back_means_victory_and_one_elected_lap() {
        let (mut r, c) = candidate(7, 8);
        let out = commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 6, probe(7, 3, 8, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(0, Msg::Elected(7))]);
        assert_eq!(r.status, Status::Leader);
        let out = commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 0, probe(7, 3, 8, Dir::Prev))
        });
        assert!(sends(&out).is_empty(), "the other direction's copy");
        let out = commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 6, Msg::Elected(7))
        });
        assert!(sends(&out).is_empty(), "the lap ends at the winner");
    }

    #[test]
    fn elected_is_recorded_and_forwarded() {
        let (mut r, c) = candidate(3, 8);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_message(ctx, 2, Msg::Elected(7))
        });
        assert_eq!(sends(&out), vec![(4, Msg::Elected(7))]);
        assert_eq!(r.leader, Some(7));
        assert_eq!(r.status, Status::Idle);
    }

    #[test]
    fn a_dead_neighbour_is_skipped_in_the_same_direction() {
        let (mut r, c) = node(3, 8);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_undeliverable(ctx, 2, probe(6, 2, 3, Dir::Prev))
        });
        assert_eq!(sends(&out), vec![(1, probe(6, 2, 3, Dir::Prev))]);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_undeliverable(ctx, 4, reply(1, 2, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(5, reply(1, 2, Dir::Next))]);
    }

    #[test]
    fn a_probe_finding_everyone_else_down_has_gone_round() {
        let (mut r, c) = candidate(0, 2);
        let out = commands(&mut r, 0, &c, |r, ctx| {
            r.on_undeliverable(ctx, 1, probe(0, 0, 1, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(1, Msg::Elected(0))]);
        assert_eq!(r.status, Status::Leader);
    }

    #[test]
    fn a_probe_of_a_dead_candidate_dies_and_a_relay_starts_over() {
        let (mut r, c) = node(3, 8);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_undeliverable(ctx, 6, probe(6, 3, 8, Dir::Next))
        });
        assert_eq!(
            sends(&out),
            vec![
                (4, probe(3, 0, 1, Dir::Next)),
                (2, probe(3, 0, 1, Dir::Prev))
            ]
        );
    }

    #[test]
    fn an_overdue_phase_resends_only_the_missing_probe() {
        let (mut r, c) = candidate(4, 8);
        commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
        });
        let out = commands(&mut r, 4, &c, |r, ctx| r.on_timer(ctx, Timer::Watchdog));
        assert_eq!(sends(&out), vec![(3, probe(4, 0, 1, Dir::Prev))]);
    }

    #[test]
    fn a_relay_that_hears_its_leader_again_forgets_the_larger_id() {
        let (mut r, c) = node(7, 16);
        commands(&mut r, 7, &c, |r, ctx| r.on_message(ctx, 0, Msg::Heartbeat));
        assert_eq!(r.leader, Some(0));
        commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 8, probe(15, 3, 7, Dir::Prev))
        });
        assert_eq!(r.status, Status::Relay);
        let out = commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 6, probe(5, 1, 1, Dir::Next))
        });
        assert!(sends(&out).is_empty(), "swallowed while relaying n15");
        commands(&mut r, 7, &c, |r, ctx| r.on_message(ctx, 0, Msg::Heartbeat));
        assert_eq!(r.status, Status::Idle);
        let out = commands(&mut r, 7, &c, |r, ctx| {
            r.on_message(ctx, 6, probe(5, 1, 1, Dir::Next))
        });
        assert_eq!(sends(&out), vec![(8, probe(5, 1, 2, Dir::Next))]);
    }

    #[test]
    fn a_candidate_follows_a_higher_live_leader_but_not_a_lower_one() {
        let (mut r, c) = candidate(4, 8);
        commands(&mut r, 4, &c, |r, ctx| r.on_message(ctx, 2, Msg::Heartbeat));
        assert_eq!(r.status, Status::Candidate);
        commands(&mut r, 4, &c, |r, ctx| r.on_message(ctx, 6, Msg::Heartbeat));
        assert_eq!(r.status, Status::Idle);
        assert_eq!(r.leader, Some(6));
    }
}
