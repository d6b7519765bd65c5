//! Bully (H. Garcia-Molina, "Elections in a Distributed Computing System",
//! IEEE Trans. Computers C-31(1), 1982).
//!
//! Rules, as simulated here (ids are ranks; the highest live id must win):
//! - A node that starts an election sends `ELECTION` to every higher id and
//!   waits one reply timeout for an `OK`. With no higher id, or no `OK` in
//!   time, it wins and sends `COORDINATOR` to every lower id.
//! - A node that receives `ELECTION` replies `OK` and starts its own
//!   election, once (not if it is already in one). Two refinements for
//!   messages that arrive after an election is over: a node that already
//!   leads answers `OK` and repeats `COORDINATOR` to the caller (it has
//!   already run the election the caller asks for), and a node that follows
//!   a leader higher than itself only answers `OK`, because the caller's
//!   `ELECTION` also went to that leader, which answers it. Without them a
//!   late `ELECTION` from time 0 restarts the whole cascade (with every node
//!   starting at once, n = 64 sent about 42,000 messages instead of 4,000).
//! - A node that got an `OK` waits three reply timeouts for `COORDINATOR`,
//!   then starts over.
//! - A `COORDINATOR` from a lower id than the receiver makes the receiver
//!   start an election (it outranks the claimant); otherwise it is obeyed.
//! - Failure detection: the leader sends `HEARTBEAT` (background) to all
//!   every `heartbeat_ms`; a follower that hears nothing for a timeout drawn
//!   from `election_timeout_ms` starts an election. A recovering node
//!   starts an election, so a recovered higher node takes over.
//!
//! Costs (all start with the top node dead, node 0 starting): n(n-1)/2
//! `ELECTION`, (n-1)(n-2)/2 `OK`, n-2 `COORDINATOR`; best case (node n-2
//! detects): one `ELECTION`, no `OK`, n-2 `COORDINATOR`.
//!
//! Safety claimed: one leader, assuming a synchronous, unpartitioned
//! network. Known failure: under a partition every side elects its own
//! highest node (split brain); a flapping top node forces an election
//! every time it comes back.

pub(crate) mod election;
#[cfg(test)]
mod tests;

use crate::algorithms::detector::{arm_leader_timeout, heartbeat_round, say_leader_silent};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{Claim, Growth};
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};

/// Message kind names.
pub const KINDS: &[&str] = &["ELECTION", "OK", "COORDINATOR", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "bully",
    name: "Bully",
    summary: "Garcia-Molina 1982: ELECTION to higher ids, OK replies, the highest live id announces COORDINATOR; heartbeats detect a dead leader",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: Bully::SAFETY,
    builder: Some(engine::<Bully>),
    theory: None,
    tradeoff: Some(Claim {
        family: "bully",
        messages: "O(n^2) worst case",
        growth: Some(Growth::Quadratic),
        latency: "a few round trips after detection (more when elections cascade)",
        partition_safe: false,
        partition: "no",
        flaky_handled: Some(false),
        why: &[],
    }),
};

/// Bully messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// "I am holding an election; are you alive and higher?"
    Election,
    /// "Yes, I am higher; I take over."
    Ok,
    /// "I am the coordinator."
    Coordinator,
    /// The leader is alive (background).
    Heartbeat,
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Election => 0,
            Msg::Ok => 1,
            Msg::Coordinator => 2,
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

/// Bully timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Waiting for an OK from a higher node.
    AwaitOk,
    /// Got an OK; waiting for the COORDINATOR.
    AwaitCoordinator,
    /// Follower: no word from the leader for too long.
    LeaderTimeout,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// Where a node is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Following a leader, or waiting to hear of one.
    Idle,
    /// Sent ELECTION, waiting for OK.
    Electing,
    /// Got OK, waiting for COORDINATOR.
    AwaitingCoordinator,
    /// The coordinator.
    Leading,
}

/// One Bully node.
#[derive(Debug, Clone)]
pub struct Bully {
    id: NodeId,
    n: u32,
    phase: Phase,
    leader: Option<NodeId>,
    elections_started: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

impl Bully {
    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.phase = Phase::Idle;
        self.leader = Some(leader);
        ctx.cancel_timer(Timer::AwaitOk);
        ctx.cancel_timer(Timer::AwaitCoordinator);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
        arm_leader_timeout(ctx, Timer::LeaderTimeout);
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        if matches!(self.phase, Phase::Electing | Phase::AwaitingCoordinator) {
            return; // at most one election at a time
        }
        self.phase = Phase::Electing;
        self.leader = None;
        self.elections_started += 1;
        ctx.election_started();
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_leader(None);
        if !election::ask_higher(ctx, self.id, self.n, Msg::Election, Timer::AwaitOk) {
            self.become_leader(ctx);
        }
    }

    fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Leading;
        self.leader = Some(self.id);
        ctx.cancel_timer(Timer::AwaitOk);
        ctx.cancel_timer(Timer::AwaitCoordinator);
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        for lower in 0..self.id {
            ctx.send(lower, Msg::Coordinator);
        }
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }
}

impl Protocol for Bully {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            n: config.n,
            phase: Phase::Idle,
            leader: None,
            elections_started: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Follower, None);
        match boot {
            Boot::Fresh { initiate: true } => self.start_election(ctx),
            Boot::Fresh { initiate: false } => arm_leader_timeout(ctx, Timer::LeaderTimeout),
            Boot::Recover => {
                ctx.note("recovered; holds an election to find (or become) the leader");
                self.start_election(ctx);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Election => {
                ctx.send(from, Msg::Ok);
                match (self.phase, self.leader) {
                    // Already the coordinator: remind the caller.
                    (Phase::Leading, _) => ctx.send(from, Msg::Coordinator),
                    // Following a higher leader that the caller also asked:
                    // that leader answers the caller itself.
                    (Phase::Idle, Some(l)) if l > self.id => {
                        election::say_leader_answers(ctx, from, l)
                    }
                    _ => self.start_election(ctx),
                }
            }
            Msg::Ok => {
                if self.phase == Phase::Electing {
                    self.phase = Phase::AwaitingCoordinator;
                    election::heard_ok(ctx, Timer::AwaitOk, Timer::AwaitCoordinator);
                }
            }
            Msg::Coordinator => {
                if from < self.id {
                    ctx.note_with(|| {
                        format!("n{from} claims to lead but n{} outranks it", self.id)
                    });
                    if self.phase == Phase::Leading {
                        self.become_leader(ctx);
                    } else {
                        self.start_election(ctx);
                    }
                } else {
                    self.follow(ctx, from);
                }
            }
            Msg::Heartbeat => match self.phase {
                Phase::Leading if from > self.id => {
                    ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                    self.follow(ctx, from);
                }
                Phase::Leading => {
                    // A lower node also leads (after a partition heals):
                    // announce again so its followers come over.
                    self.become_leader(ctx);
                }
                Phase::Idle if self.leader == Some(from) => {
                    arm_leader_timeout(ctx, Timer::LeaderTimeout);
                }
                Phase::Idle if self.leader.is_none_or(|l| from > l) => self.follow(ctx, from),
                _ => {}
            },
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::AwaitOk => {
                if self.phase == Phase::Electing {
                    ctx.note("no higher node answered; takes over as coordinator");
                    self.become_leader(ctx);
                }
            }
            Timer::AwaitCoordinator => {
                if self.phase == Phase::AwaitingCoordinator {
                    ctx.note("a higher node answered OK but never announced itself; starts again");
                    self.phase = Phase::Idle;
                    self.start_election(ctx);
                }
            }
            Timer::LeaderTimeout => {
                if self.phase == Phase::Idle {
                    say_leader_silent(ctx, self.leader);
                    self.start_election(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.phase == Phase::Leading {
                    heartbeat_round(ctx, Msg::Heartbeat, Timer::Heartbeat);
                }
            }
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            Timer::AwaitOk | Timer::AwaitCoordinator => TimerClass::ReplyWait,
            Timer::LeaderTimeout => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("phase", format!("{:?}", self.phase)),
            (
                "leader",
                self.leader.map_or("none".into(), |l| format!("n{l}")),
            ),
            ("higher ids", format!("{}", self.n - 1 - self.id)),
            ("elections started", self.elections_started.to_string()),
        ]
    }
}
