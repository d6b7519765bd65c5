//! LeLann ring election, the "collect the live ids" variant (G. LeLann,
//! "Distributed systems: towards a formal approach", IFIP Congress 1977;
//! as taught in Tanenbaum & van Steen, *Distributed Systems*, "A ring
//! algorithm").
//!
//! Rules, as simulated here (messages travel one way round the ring in
//! the scenario's `ring` order):
//! - An initiator sends `ELECTION([own id])` to its successor.
//! - A node that receives someone else's `ELECTION(ids)` appends its own id
//!   and forwards it. Nothing is suppressed: every initiator's message
//!   makes a full lap.
//! - When an `ELECTION` comes back to its initiator (the first id on the
//!   list), the list holds every live id on the ring. The initiator picks
//!   the highest and sends `COORDINATOR(winner, ids)` once round the ring;
//!   every node records the winner and forwards, until the message is back
//!   at the initiator. As in the source, every initiator announces: with k
//!   initiators there are k `COORDINATOR` laps, all naming the same winner
//!   (the extra ones do no harm, they cost messages).
//! - Dead successors are skipped: the link reports an undeliverable message
//!   one reply timeout after the send, and the sender passes it to the next
//!   node along the ring (the dead node is not added to the list). An
//!   `ELECTION` whose initiator is the dead node is discarded and the
//!   discoverer starts a new election; a `COORDINATOR` naming a dead winner
//!   does the same; a `COORDINATOR` whose sender died has reached everyone
//!   else and simply ends.
//! - Failure detection as in Chang-Roberts: leader `HEARTBEAT`s
//!   (background), randomized follower timeouts. A node that forwards an
//!   election, or started one, waits a lap bound for its outcome and then
//!   starts over. A node that learns the winner from a `COORDINATOR` waits
//!   the same bound for the winner's first heartbeat (the winner itself may
//!   learn of its victory a lap later).
//! - Heartbeats settle what the laps miss: a leader that hears a higher
//!   leader steps down; a follower follows a leader higher than the one it
//!   knows, and a node waiting on an election follows a leader higher than
//!   itself (its `COORDINATOR` may have been lost). A leader that is told
//!   of a lower winner keeps leading (the lap missed it) and lets the
//!   heartbeats sort it out. A recovered node follows the first leader it
//!   hears. After a partition heals, the lower leader hears the higher one
//!   and steps down.
//!
//! Costs with every node starting: each of the n `ELECTION` messages makes
//! n hops, so exactly n² `ELECTION`; each of the n initiators announces,
//! so exactly n² `COORDINATOR` too, on any ring order. With one initiator:
//! n of each.
//!
//! Safety claimed: one leader on a ring without partitions. Known failure:
//! a partition leaves each side collecting and electing its own maximum
//! (split brain).

use super::watchdog::{self, Around};
use crate::algorithms::detector::{arm_leader_timeout, heartbeat_round};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{Claim, Column, Growth, RING, Why};
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::scenario::Scenario;
use crate::time::Micros;
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &["ELECTION", "COORDINATOR", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "lelann",
    name: "LeLann ring (collect live ids)",
    summary: "LeLann 1977, as in Tanenbaum & van Steen: every initiator's ELECTION collects all live ids in one lap, skipping dead nodes; it announces the highest with a COORDINATOR lap",
    layout: Layout::Ring,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: LeLann::SAFETY,
    builder: Some(engine::<LeLann>),
    theory: Some(theory),
    tradeoff: Some(Claim {
        why: &[
            Why {
                column: Column::FirstGrowth,
                measured: Some(Growth::Quadratic),
                text: "The ring's O(n) is for one initiator. With every node starting, each of the n collected-id lists goes all the way round (n squared ELECTION) and every initiator announces (n squared COORDINATOR).",
            },
            Why {
                column: Column::FailoverGrowth,
                measured: Some(Growth::Quadratic),
                text: "After the leader fails, every node that times out before another's ELECTION reaches it starts one of its own, and nothing is suppressed: each list goes all the way round. The bigger the ring, the longer a lap and the more initiators, so the failover grows like n squared too.",
            },
        ],
        ..RING
    }),
};

/// LeLann 1977 (collect-ids ring): the initial election's messages.
fn theory(scenario: &Scenario) -> (f64, &'static str) {
    let n = f64::from(scenario.nodes);
    (
        2.0 * n * n,
        "n^2 ELECTION (n lists, n hops each) + n^2 COORDINATOR (every initiator announces) (LeLann 1977, collect-ids ring)",
    )
}

/// LeLann messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// The live ids collected so far, in ring order; the first is the
    /// initiator.
    Election(Vec<NodeId>),
    /// The winner and the live ids of the lap; the list's first id is the
    /// initiator that announces.
    Coordinator(NodeId, Vec<NodeId>),
    /// The leader is alive (background).
    Heartbeat,
}

/// Longest list the event log shows in full; longer ones show their ends
/// and their length, so that a big ring's trace stays a sensible size.
const SHOWN_IDS: usize = 12;

/// `[4, 0, 1]`, or `[4, 0, 1, 2, 3, 5, 6, 7, … 30, 31] 32 ids` for a long list.
fn show_ids(ids: &[NodeId]) -> String {
    let join = |part: &[NodeId]| {
        let v: Vec<String> = part.iter().map(ToString::to_string).collect();
        v.join(", ")
    };
    if ids.len() <= SHOWN_IDS {
        format!("[{}]", join(ids))
    } else {
        format!(
            "[{}, … {}] {} ids",
            join(&ids[..SHOWN_IDS - 4]),
            join(&ids[ids.len() - 2..]),
            ids.len()
        )
    }
}

impl fmt::Debug for Msg {
    /// Reads `ELECTION([2, 3, 0])` and `COORDINATOR(3, [2, 3, 0, 1])` in
    /// the event log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Election(ids) => write!(f, "Election({})", show_ids(ids)),
            Msg::Coordinator(w, ids) => write!(f, "Coordinator({w}, {})", show_ids(ids)),
            Msg::Heartbeat => write!(f, "Heartbeat"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Election(_) => 0,
            Msg::Coordinator(..) => 1,
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

/// LeLann timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// No leader heartbeat (follower) or no election outcome (participant).
    Watchdog,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// One LeLann node.
#[derive(Debug, Clone)]
pub struct LeLann {
    id: NodeId,
    successor: NodeId,
    participant: bool,
    leading: bool,
    leader: Option<NodeId>,
    /// The live ring as last announced (ids in ring order from the
    /// announcing initiator).
    live_ring: Vec<NodeId>,
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// How long to wait for an election's outcome: three laps at the largest
/// latency (an `ELECTION` lap and a `COORDINATOR` lap, plus slack), a reply
/// timeout per node and lap for skipping dead nodes, plus one ordinary
/// election timeout.
fn lap_bound(config: &Config) -> Micros {
    let n = u64::from(config.n);
    3 * n * config.latency_max_us + 2 * n * config.reply_timeout_us + config.election_timeout_us.1
}

/// `n4, n0, n1` (long lists shortened as in [`show_ids`]).
fn list(ids: &[NodeId]) -> String {
    let join = |part: &[NodeId]| {
        let v: Vec<String> = part.iter().map(|i| format!("n{i}")).collect();
        v.join(", ")
    };
    if ids.len() <= SHOWN_IDS {
        join(ids)
    } else {
        format!(
            "{}, … {} ({} ids)",
            join(&ids[..SHOWN_IDS - 4]),
            join(&ids[ids.len() - 2..]),
            ids.len()
        )
    }
}

impl LeLann {
    fn arm_follower_watchdog(&self, ctx: &mut C<'_>) {
        arm_leader_timeout(ctx, Timer::Watchdog);
    }

    fn arm_lap_watchdog(&self, ctx: &mut C<'_>) {
        let t = lap_bound(ctx.config());
        ctx.set_timer(Timer::Watchdog, t);
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        self.participant = true;
        self.leading = false;
        self.leader = None;
        ctx.election_started();
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Candidate, None);
        ctx.set_leader(None);
        ctx.send(self.successor, Msg::Election(vec![self.id]));
        self.arm_lap_watchdog(ctx);
    }

    fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.participant = false;
        if self.leading {
            return;
        }
        self.leading = true;
        self.leader = Some(self.id);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        ctx.cancel_timer(Timer::Watchdog);
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    /// Follows `leader`, heard directly (a heartbeat).
    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.become_follower(ctx, leader);
        self.arm_follower_watchdog(ctx);
    }

    fn become_follower(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.participant = false;
        self.leading = false;
        self.leader = Some(leader);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
    }

    /// Records the winner named by a completed lap.
    fn adopt(&mut self, ctx: &mut C<'_>, winner: NodeId, ids: &[NodeId]) {
        self.live_ring = ids.to_vec();
        if winner == self.id {
            if !self.leading {
                ctx.note("is named the coordinator: it has the highest live id and leads");
            }
            self.become_leader(ctx);
        } else if self.leader != Some(winner) || self.participant || self.leading {
            self.become_follower(ctx, winner);
            // The winner may hear of its victory up to a lap later: allow
            // a lap for its first heartbeat.
            self.arm_lap_watchdog(ctx);
        }
    }
}

impl Protocol for LeLann {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;
    const WANTS_UNDELIVERABLE: bool = true;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            successor: config.ring_next(id, 1),
            participant: false,
            leading: false,
            leader: None,
            live_ring: Vec::new(),
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
            Msg::Election(mut ids) => {
                let Some(&origin) = ids.first() else {
                    return;
                };
                if origin == self.id {
                    // Our message went all the way round: it lists every
                    // live node.
                    let winner = ids.iter().copied().max().unwrap_or(self.id);
                    ctx.note_with(|| format!(
                        "its ELECTION came back round listing the live ids {}: n{winner} is the highest; announces it",
                        list(&ids)
                    ));
                    ctx.send(self.successor, Msg::Coordinator(winner, ids.clone()));
                    self.adopt(ctx, winner, &ids);
                } else if ids.contains(&self.id) {
                    // Already on the list: a stray copy; a lap ends at its
                    // initiator, never here.
                } else {
                    ids.push(self.id);
                    ctx.send(self.successor, Msg::Election(ids));
                    if !self.leading {
                        self.participant = true;
                        self.arm_lap_watchdog(ctx);
                    }
                }
            }
            Msg::Coordinator(winner, ids) => {
                let Some(&origin) = ids.first() else {
                    return;
                };
                if origin == self.id {
                    return; // the announcement went all the way round
                }
                let keep_leading = self.leading && self.id > winner;
                if keep_leading {
                    ctx.note_with(|| {
                        format!(
                            "the lap announcing n{winner} missed it; it is higher and keeps leading"
                        )
                    });
                }
                ctx.send(self.successor, Msg::Coordinator(winner, ids.clone()));
                if !keep_leading {
                    self.adopt(ctx, winner, &ids);
                }
            }
            Msg::Heartbeat => {
                if self.leading {
                    if from > self.id {
                        ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                        self.follow(ctx, from);
                    }
                } else if self.leader == Some(from) {
                    self.arm_follower_watchdog(ctx);
                } else if self.participant {
                    // A live leader higher than us: the election we wait on
                    // cannot elect anyone lower, so follow it now (its
                    // COORDINATOR may have been lost). A lower one cannot be
                    // the highest live id: wait for the election.
                    if from > self.id {
                        self.follow(ctx, from);
                    }
                } else if self.leader.is_none_or(|l| from > l) {
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
                    .then_some("the election has not finished within a lap bound; starts again");
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
        let (origin, winner) = match &msg {
            Msg::Election(ids) => (ids.first().copied(), None),
            Msg::Coordinator(w, ids) => (ids.first().copied(), Some(*w)),
            Msg::Heartbeat => return,
        };
        let Some(origin) = origin else {
            return;
        };
        if winner == Some(to) {
            ctx.note_with(|| {
                format!("n{to}, just announced as leader, does not answer; starts a new election")
            });
            if !self.leading {
                self.start_election(ctx);
            }
            return;
        }
        if origin == to {
            if winner.is_some() {
                // Everyone else has the announcement: the lap just ends.
                return;
            }
            ctx.note_with(|| {
                format!(
                    "n{to} is down and the ELECTION it started dies with it; starts a new election"
                )
            });
            if !self.leading {
                self.start_election(ctx);
            }
            return;
        }
        let next = ctx.config().ring_next(to, 1);
        match watchdog::pass_around(ctx, self.id, to, next, origin, msg) {
            Around::Passed => {}
            // Our own message, and everyone else is down: it has gone round.
            Around::Returned(msg) => self.on_message(ctx, self.id, msg),
            Around::Stranded(_) => {
                watchdog::say_stranded(ctx, to);
                if !self.leading {
                    self.start_election(ctx);
                }
            }
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // A participant's watchdog waits for the lap to finish; a
            // follower's waits for the leader.
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
            (
                "live ring as last announced",
                if self.live_ring.is_empty() {
                    "none yet".into()
                } else {
                    list(&self.live_ring)
                },
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (LeLann 1977, in the form of
    //! Tanenbaum & van Steen's ring algorithm).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    fn node(id: NodeId, n: u32) -> (LeLann, Config) {
        let c = config(n, "ascending");
        (LeLann::new(id, &c, &()), c)
    }

    #[test]
    fn an_initiator_sends_a_list_holding_its_own_id() {
        let (mut r, c) = node(2, 5);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_start(ctx, Boot::Fresh { initiate: true })
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(vec![2]))]);
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert!(r.participant);
    }

    #[test]
    fn a_node_appends_its_id_and_forwards_even_a_smaller_list() {
        let (mut r, c) = node(2, 5);
        let out = commands(&mut r, 2, &c, |r, ctx| {
            r.on_message(ctx, 1, Msg::Election(vec![0, 1]))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(vec![0, 1, 2]))]);
        assert!(r.participant, "waits for the outcome");
        assert!(
            !out.iter().any(|c| matches!(c, Command::ElectionStarted)),
            "forwarding is not starting an election"
        );
    }

    #[test]
    fn the_returning_list_names_the_highest_live_id() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_message(ctx, 0, Msg::Election(vec![1, 2, 4, 0]))
        });
        assert_eq!(
            sends(&out),
            vec![(2, Msg::Coordinator(4, vec![1, 2, 4, 0]))]
        );
        assert_eq!(r.leader, Some(4));
        assert!(!r.leading && !r.participant);
    }

    #[test]
    fn an_initiator_that_is_the_highest_leads_when_its_list_returns() {
        let (mut r, c) = node(4, 5);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, Msg::Election(vec![4, 0, 1, 2, 3]))
        });
        assert_eq!(
            sends(&out),
            vec![(0, Msg::Coordinator(4, vec![4, 0, 1, 2, 3]))]
        );
        assert!(r.leading);
        assert!(out.iter().any(|c| matches!(
            c,
            Command::Role {
                role: Role::Leader,
                ..
            }
        )));
    }

    #[test]
    fn coordinator_is_recorded_and_forwarded_until_it_returns() {
        let (mut r, c) = node(3, 5);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_message(ctx, 2, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))
        });
        assert_eq!(
            sends(&out),
            vec![(4, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))]
        );
        assert_eq!(r.leader, Some(4));
        let (mut first, c) = node(1, 5);
        let out = commands(&mut first, 1, &c, |r, ctx| {
            r.on_message(ctx, 0, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))
        });
        assert!(sends(&out).is_empty(), "the lap ends at its initiator");
    }

    #[test]
    fn the_winner_named_in_a_coordinator_leads() {
        let (mut r, c) = node(4, 5);
        let out = commands(&mut r, 4, &c, |r, ctx| {
            r.on_message(ctx, 3, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))
        });
        assert_eq!(
            sends(&out),
            vec![(0, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))]
        );
        assert!(r.leading);
    }

    #[test]
    fn a_dead_successor_is_skipped_and_left_off_the_list() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_undeliverable(ctx, 2, Msg::Election(vec![0, 1]))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Election(vec![0, 1]))]);
    }

    #[test]
    fn an_election_of_the_dead_node_dies_and_a_new_one_starts() {
        let (mut r, c) = node(1, 5);
        let out = commands(&mut r, 1, &c, |r, ctx| {
            r.on_undeliverable(ctx, 2, Msg::Election(vec![2, 3, 4, 0, 1]))
        });
        assert_eq!(sends(&out), vec![(2, Msg::Election(vec![1]))]);
    }

    #[test]
    fn a_dead_winner_makes_the_discoverer_start_over() {
        let (mut r, c) = node(3, 5);
        let out = commands(&mut r, 3, &c, |r, ctx| {
            r.on_undeliverable(ctx, 4, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))
        });
        assert_eq!(sends(&out), vec![(4, Msg::Election(vec![3]))]);
    }

    #[test]
    fn a_coordinator_lap_whose_sender_died_just_ends() {
        let (mut r, c) = node(0, 5);
        let out = commands(&mut r, 0, &c, |r, ctx| {
            r.on_undeliverable(ctx, 1, Msg::Coordinator(4, vec![1, 2, 3, 4, 0]))
        });
        assert!(sends(&out).is_empty());
    }

    #[test]
    fn long_lists_are_shortened_in_the_event_log() {
        assert_eq!(
            format!("{:?}", Msg::Election(vec![2, 3, 0])),
            "Election([2, 3, 0])"
        );
        let ids: Vec<NodeId> = (0..32).collect();
        assert_eq!(
            format!("{:?}", Msg::Coordinator(31, ids)),
            "Coordinator(31, [0, 1, 2, 3, 4, 5, 6, 7, … 30, 31] 32 ids)"
        );
    }

    #[test]
    fn a_leader_steps_down_for_a_higher_leader() {
        let (mut r, c) = node(2, 5);
        commands(&mut r, 2, &c, |r, ctx| r.become_leader(ctx));
        let out = commands(&mut r, 2, &c, |r, ctx| r.on_message(ctx, 4, Msg::Heartbeat));
        assert!(!r.leading);
        assert_eq!(r.leader, Some(4));
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(4)))));
        let out = commands(&mut r, 2, &c, |r, ctx| r.on_message(ctx, 3, Msg::Heartbeat));
        assert!(out.is_empty(), "a lower leader's heartbeat is ignored");
    }
}
