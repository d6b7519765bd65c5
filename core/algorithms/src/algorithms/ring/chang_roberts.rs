//! Chang-Roberts ring election (E. Chang and R. Roberts, "An improved
//! algorithm for decentralized extrema-finding in circular configurations
//! of processes", CACM 22(5), 1979).
//!
//! Rules, as simulated here (messages travel one way round the ring in
//! the scenario's `ring` order):
//! - An initiator marks itself a participant and sends `ELECTION(id)` to
//!   its successor.
//! - On `ELECTION(j)`: if j > own id, forward it (and become a
//!   participant); if j < own id, replace it by `ELECTION(own id)` unless
//!   already a participant, in which case discard it; if j = own id, the
//!   node has won: it sends `ELECTED(id)` once round the ring.
//! - On `ELECTED(j)`: record j as leader and forward, until it returns to j.
//! - Dead successors are skipped: the link reports an undeliverable message
//!   one reply timeout after the send, and the sender passes it to the next
//!   node along the ring. A message whose own originator turns out to be
//!   the dead node is discarded and the discoverer starts a new election.
//! - Failure detection as in Bully: leader heartbeats (background),
//!   randomized follower timeouts; a participant whose election makes no
//!   progress for a few ring laps starts over; a participant that hears the
//!   heartbeat of a leader at least as high as every id it has seen follows
//!   it (lost messages can leave an election that would only re-elect it),
//!   also when that leader is the one it already follows (a late or
//!   duplicated `ELECTION` after the `ELECTED` lap makes it a participant
//!   again); following a leader forgets the ids the election carried.
//!   After a partition heals, a leader that hears a higher leader's
//!   heartbeat steps down.
//!
//! Costs with every node starting: ascending ring 2n - 1 `ELECTION`,
//! descending ring n(n + 1)/2, random ring n·H_n on average; plus n
//! `ELECTED`.
//!
//! Safety claimed: one leader on a reliable ring without partitions. Known
//! failure: a partition leaves each side electing its own maximum.

use super::watchdog::{self, Around};
use crate::algorithms::detector::{arm_leader_timeout, heartbeat_round};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::RING;
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::scenario::{RingOrder, Scenario};
use crate::time::Micros;

/// Message kind names.
pub const KINDS: &[&str] = &["ELECTION", "ELECTED", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "chang-roberts",
    name: "Chang-Roberts ring",
    summary: "Chang & Roberts 1979: ids travel one way round the ring, only the larger is forwarded, the winner sends one ELECTED lap",
    layout: Layout::Ring,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: ChangRoberts::SAFETY,
    builder: Some(engine::<ChangRoberts>),
    theory: Some(theory),
    tradeoff: Some(RING),
};

/// Chang & Roberts 1979: the initial election's messages for the ring
/// order (ascending is the best case, descending the worst).
fn theory(scenario: &Scenario) -> (f64, &'static str) {
    let n = f64::from(scenario.nodes);
    match scenario.ring {
        RingOrder::Ascending => (
            2.0 * n - 1.0 + n,
            "2n-1 ELECTION + n ELECTED (Chang & Roberts 1979, best case)",
        ),
        RingOrder::Descending => (
            n * (n + 1.0) / 2.0 + n,
            "n(n+1)/2 ELECTION + n ELECTED (Chang & Roberts 1979, worst case)",
        ),
        RingOrder::Random => {
            let harmonic: f64 = (1..=scenario.nodes).map(|k| 1.0 / f64::from(k)).sum();
            (
                n * harmonic + n,
                "n*H_n ELECTION on average + n ELECTED (Chang & Roberts 1979)",
            )
        }
    }
}

/// Chang-Roberts messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Carries the largest id seen so far on this pass.
    Election(NodeId),
    /// Announces the winner, once round the ring.
    Elected(NodeId),
    /// The leader is alive (background).
    Heartbeat,
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Election(_) => 0,
            Msg::Elected(_) => 1,
            Msg::Heartbeat => 2,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}

/// Chang-Roberts timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// No leader heartbeat (follower) or no election progress (participant).
    Watchdog,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// One Chang-Roberts node.
#[derive(Debug, Clone)]
pub struct ChangRoberts {
    id: NodeId,
    participant: bool,
    leading: bool,
    leader: Option<NodeId>,
    successor: NodeId,
    largest_seen: NodeId,
    /// The role this node last announced (none yet after a start or a
    /// recovery). The engine ignores an announcement of the role a node
    /// already has; a forwarding node would announce `Follower` with every
    /// message it passes on, so it does not make that announcement at all.
    announced: Option<Role>,
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// How long a participant waits for its election to finish: three laps of
/// the ring at the largest latency, a reply timeout per hop for skipping
/// dead nodes, plus one ordinary election timeout.
fn lap_bound(config: &Config) -> Micros {
    let n = u64::from(config.n);
    3 * n * config.latency_max_us + n * config.reply_timeout_us + config.election_timeout_us.1
}

impl ChangRoberts {
    /// Announces `role`, unless it is the role this node has already.
    fn announce(&mut self, ctx: &mut C<'_>, role: Role) {
        if self.announced != Some(role) {
            self.announced = Some(role);
            ctx.set_role(role, None);
        }
    }

    fn arm_follower_watchdog(&self, ctx: &mut C<'_>) {
        arm_leader_timeout(ctx, Timer::Watchdog);
    }

    fn arm_participant_watchdog(&self, ctx: &mut C<'_>) {
        let t = lap_bound(ctx.config());
        ctx.set_timer(Timer::Watchdog, t);
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        self.participant = true;
        self.leading = false;
        self.leader = None;
        self.largest_seen = self.largest_seen.max(self.id);
        ctx.election_started();
        ctx.cancel_timer(Timer::Heartbeat);
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
        ctx.send(self.successor, Msg::Election(self.id));
        self.arm_participant_watchdog(ctx);
    }

    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.participant = false;
        self.leading = false;
        self.leader = Some(leader);
        // The ids that election carried are history: a higher one seen
        // then may since have crashed, and must not stop this node from
        // following the next leader's heartbeat in a later election.
        self.largest_seen = self.id;
        ctx.cancel_timer(Timer::Heartbeat);
        self.announce(ctx, Role::Follower);
        ctx.set_leader(Some(leader));
        self.arm_follower_watchdog(ctx);
    }
}

impl Protocol for ChangRoberts {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;
    const WANTS_UNDELIVERABLE: bool = true;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            participant: false,
            leading: false,
            leader: None,
            successor: config.ring_next(id, 1),
            largest_seen: id,
            announced: None,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx, Role::Follower);
        match boot {
            Boot::Fresh { initiate: true } => self.start_election(ctx),
            Boot::Fresh { initiate: false } | Boot::Recover => self.arm_follower_watchdog(ctx),
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Election(j) if j > self.id => {
                self.participant = true;
                self.largest_seen = self.largest_seen.max(j);
                if self.leading {
                    self.leading = false;
                    self.leader = None;
                    ctx.cancel_timer(Timer::Heartbeat);
                    ctx.set_leader(None);
                }
                self.announce(ctx, Role::Follower);
                ctx.send(self.successor, Msg::Election(j));
                self.arm_participant_watchdog(ctx);
            }
            Msg::Election(j) if j < self.id => {
                if !self.participant {
                    self.start_election(ctx);
                }
                // A participant has already sent an id at least as large.
            }
            Msg::Election(_) => {
                // Our own id came all the way round: we are the largest.
                self.participant = false;
                self.leading = true;
                self.leader = Some(self.id);
                ctx.note("its own id came back round the ring: it has the largest id and leads");
                self.announce(ctx, Role::Leader);
                ctx.set_leader(Some(self.id));
                ctx.send(self.successor, Msg::Elected(self.id));
                ctx.cancel_timer(Timer::Watchdog);
                let period = ctx.config().heartbeat_us;
                ctx.set_timer(Timer::Heartbeat, period);
            }
            Msg::Elected(j) if j == self.id => {
                // The announcement went all the way round.
            }
            Msg::Elected(j) => {
                self.follow(ctx, j);
                ctx.send(self.successor, Msg::Elected(j));
            }
            Msg::Heartbeat => {
                if self.leading {
                    if from > self.id {
                        ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                        self.follow(ctx, from);
                    }
                } else if self.leader == Some(from) {
                    if self.participant && from >= self.largest_seen {
                        // A stray pass of an election (a late or duplicated
                        // ELECTION after the ELECTED lap) made this node a
                        // participant again; its own leader, at least as
                        // high, is alive, so that pass ends with it.
                        // Staying a participant would swallow every smaller
                        // id for ever while these heartbeats keep its
                        // watchdog quiet.
                        self.follow(ctx, from);
                    } else {
                        self.arm_follower_watchdog(ctx);
                    }
                } else if !self.participant && self.leader.is_none_or(|l| from > l) {
                    self.follow(ctx, from);
                } else if self.participant && from >= self.largest_seen {
                    // A live leader at least as high as any id this election
                    // has carried here: the election can only end with it
                    // (it may have lost its messages to the network).
                    ctx.note_with(|| {
                        format!("hears leader n{from}, the highest id it knows of; follows it")
                    });
                    self.follow(ctx, from);
                }
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Watchdog => {
                let stalled = self
                    .participant
                    .then_some("the election made no progress for several ring laps; starts again");
                if watchdog::fired(ctx, self.leading, stalled, self.leader) {
                    self.start_election(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.leading {
                    heartbeat_round(ctx, Msg::Heartbeat, Timer::Heartbeat);
                }
            }
        }
    }

    fn on_undeliverable(&mut self, ctx: &mut C<'_>, to: NodeId, msg: Msg) {
        let origin = match msg {
            Msg::Election(j) | Msg::Elected(j) => j,
            Msg::Heartbeat => return,
        };
        if origin == to {
            // The message belongs to the dead node: nobody can finish it.
            ctx.note_with(|| {
                format!(
                    "n{to} is down and the message it started dies with it; starts a new election"
                )
            });
            if !self.leading {
                self.participant = false;
                self.start_election(ctx);
            }
            return;
        }
        let next = ctx.config().ring_next(to, 1);
        match watchdog::pass_around(ctx, self.id, to, next, origin, msg) {
            Around::Passed => {}
            // Our own message, and we are alone: it has gone round.
            Around::Returned(msg) => self.on_message(ctx, self.id, msg),
            // Everyone else on the way is down and the message is not ours.
            Around::Stranded(_) => {
                watchdog::say_stranded(ctx, to);
                if !self.leading {
                    self.participant = false;
                    self.start_election(ctx);
                }
            }
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // A participant's watchdog waits for its election to come
            // round (the lap bound); a follower's waits for the leader.
            Timer::Watchdog if self.participant => TimerClass::ReplyWait,
            Timer::Watchdog => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("participant", self.participant.to_string()),
            ("leading", self.leading.to_string()),
            (
                "leader",
                self.leader.map_or("none".into(), |l| format!("n{l}")),
            ),
            ("successor", format!("n{}", self.successor)),
            ("largest id seen", format!("n{}", self.largest_seen)),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Chang & Roberts 1979).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    fn node(id: NodeId, n: u32) -> (ChangRoberts, Config) {
        let c = config(n, "ascending");
        (ChangRoberts::new(id, &c, &()), c)
    }

    #[test]
    fn an_initiator_sends_its_id_to_its_successor() {
        let (mut r, c) = node(2, 5);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_start(ctx, Boot::Fresh { initiate: true })
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(2))]);
        assert!(r.participant);
    }

    #[test]
    fn a_larger_id_is_forwarded() {
        let (mut r, c) = node(2, 5);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(4))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(4))]);
    }

    #[test]
    fn a_forwarding_node_announces_its_role_once() {
        // The engine ignores a role a node already has; the node does not
        // repeat it with every message it passes on.
        let (mut r, c) = node(1, 5);
        let roles = |out: &[Command<Msg, Timer>]| {
            out.iter()
                .filter(|c| matches!(c, Command::Role { .. }))
                .count()
        };
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_message(ctx, 0, Msg::Election(3))
        });
        assert_eq!(roles(&out), 1);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_message(ctx, 0, Msg::Election(4))
        });
        assert_eq!(roles(&out), 0);
        assert_eq!(sends(&out), vec![(2, Msg::Election(4))]);
        // A recovered node starts from scratch and announces again.
        let mut r = ChangRoberts::new(1, &c, &());
        let out = commands(&mut r, 1, &c, |r, ctx| r.on_start(ctx, Boot::Recover));
        assert_eq!(roles(&out), 1);
    }

    #[test]
    fn a_smaller_id_is_replaced_once_then_swallowed() {
        let (mut r, c) = node(2, 5);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(0))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(2))]);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(1))
        });
        assert!(sends(&out).is_empty());
    }

    #[test]
    fn own_id_back_means_victory_and_one_elected_lap() {
        let (mut r, c) = node(4, 5);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, Msg::Election(4))
        });
        assert_eq!(sends(&out), vec![(0, Msg::Elected(4))]);
        assert!(r.leading);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, Msg::Elected(4))
        });
        assert!(sends(&out).is_empty(), "the lap ends at the winner");
    }

    #[test]
    fn elected_is_recorded_and_forwarded() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_message(ctx, 0, Msg::Elected(4))
        });
        assert_eq!(sends(&out), vec![(2, Msg::Elected(4))]);
        assert_eq!(r.leader, Some(4));
    }

    #[test]
    fn a_dead_successor_is_skipped() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_undeliverable(ctx, 2, Msg::Election(4))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(4))]);
    }

    #[test]
    fn a_message_of_the_dead_node_dies_and_a_new_election_starts() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_undeliverable(ctx, 2, Msg::Election(2))
        });
        assert_eq!(sends(&out), vec![(2, Msg::Election(1))]);
    }

    #[test]
    fn a_stray_election_after_the_lap_ends_at_the_leaders_heartbeat() {
        // Found by `election fuzz-faults --algorithm chang-roberts` (seed
        // 8235): n2 followed n8, then a late ELECTION(8) made it a
        // participant again. Before the fix, n8's heartbeats only re-armed
        // its watchdog and it swallowed smaller ids for ever.
        let (mut r, c) = node(2, 10);
        commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(9))
        });
        commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Elected(8))
        });
        assert_eq!(
            r.largest_seen, 2,
            "following forgets the ids of that election"
        );
        commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(8))
        });
        assert!(r.participant);
        commands(&mut r, 2, &c, |r, ctx| r.on_message(ctx, 8, Msg::Heartbeat));
        assert!(!r.participant, "its leader's heartbeat ends the stray pass");
        assert_eq!(r.leader, Some(8));
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(0))
        });
        assert_eq!(
            sends(&out),
            vec![(3, Msg::Election(2))],
            "smaller ids are no longer swallowed"
        );
    }
}
