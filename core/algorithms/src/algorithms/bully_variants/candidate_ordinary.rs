//! Candidate/ordinary election: only a few designated candidates may
//! lead; any node may run the election that picks one of them.
//!
//! Source: A. Petrov, *Database Internals* (O'Reilly, 2019), chapter 10,
//! "Candidate/Ordinary Optimization", a refinement of the Bully algorithm
//! (H. Garcia-Molina, 1982) which the book credits to Murshed and Allen,
//! "Enhanced Bully Algorithm for Leader Node Election in Synchronous
//! Distributed Systems", Computers 1(1), 2012. As taught there: the nodes
//! are split into candidates and ordinary nodes and only a candidate can
//! become leader; an ordinary node runs the election by contacting the
//! candidates, collecting their answers, picking the highest-ranked live
//! candidate and telling the other nodes the result; to stop several
//! simultaneous elections, each node waits a process-specific delay δ
//! before starting, δ larger than a message's travel time, and nodes of
//! higher priority wait less.
//!
//! Rules, as simulated here (`candidates` and `timing.delta_ms` from the
//! scenario; the default candidates are the highest quarter of the ids):
//! - The leader sends `HEARTBEAT` (background) to all every
//!   `heartbeat_ms`; a node that hears nothing for a timeout drawn from
//!   `election_timeout_ms` presumes the leader dead.
//! - It then waits its own delay: `delta x (1 + k)`, where `k` is the
//!   number of ordinary nodes with a higher id than it, or, for a
//!   candidate, the number of ordinary nodes plus the number of higher
//!   candidates. So the highest ordinary node waits one delta, the next
//!   two, and so on, and candidates come last. The source leaves the
//!   shape of δ open ("process-specific, higher priority waits less"); this
//!   one makes every two nodes' delays differ by at least one delta, so
//!   two nodes that detect the failure together collapse into one election
//!   whenever delta exceeds the one-way latency (ties broken by id).
//! - After its delay, a node starts the election: it tells every ordinary
//!   node `ELECTING` and asks every candidate `QUERY` (which also says it
//!   is electing), so every other node hears of the election exactly once.
//!   A candidate that runs the election counts itself as answering.
//! - A node that hears `ELECTING` or `QUERY` before its own delay is over
//!   (or before it has even noticed the failure) stands down: it starts
//!   no election and waits three reply timeouts for the result, then, if
//!   none came, starts its delay again. A `COORDINATOR` or a leader's
//!   `HEARTBEAT` ends the wait too: the node follows that leader. A node
//!   already running an election that hears `ELECTING`/`QUERY` from a
//!   higher id yields to it (the tie-break by id; where the source is
//!   silent), so overlapping elections end in one announcement.
//! - A candidate answers every `QUERY` with `ALIVE`. The electing node
//!   waits one reply timeout, or until every candidate has answered, picks
//!   the highest candidate that answered and sends `COORDINATOR(c)` to all
//!   n-1 other nodes; candidate c leads when it receives it.
//! - Ordinary nodes never lead. If no candidate answers, nobody can lead:
//!   the electing node says so and tries again after a new failure
//!   timeout, for as long as it takes (leaderless is the honest outcome).
//! - Candidates also detect failures and run the same procedure, after
//!   every ordinary node's delay (the source has ordinary nodes run the
//!   election; candidates step in when no ordinary node does).
//! - No preemption: a recovered higher candidate follows the current
//!   leader. Two leaders (a healed partition): a leader that hears a higher
//!   leader's `HEARTBEAT` or `COORDINATOR` steps down; one that hears a
//!   lower one sends it `COORDINATOR` naming itself; a follower switches to
//!   a heartbeating leader higher than its own.
//!
//! Costs, per election started by node i, with C the candidates:
//! (n - |C| - [i ordinary]) `ELECTING` + (|C| - [i candidate]) `QUERY`
//! (n - 1 notices in all), one `ALIVE` per live candidate queried, and,
//! from the one node whose election is not overtaken, n - 1
//! `COORDINATOR`. With delta above the latency, concurrent detections
//! mostly collapse into one election (`core/tests/candidate_ordinary.rs`).
//!
//! Safety claimed: one leader without partitions. Known failures: under a
//! partition each side with a candidate elects one (split brain), and a
//! side with none stays leaderless; a node far down the order waits many
//! deltas, which matters only when every node above it is silent.

use crate::algorithms::detector::{arm_leader_timeout, heartbeat_round};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::Claim;
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::time::Micros;

/// Message kind names.
pub const KINDS: &[&str] = &["ELECTING", "QUERY", "ALIVE", "COORDINATOR", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "candidate-ordinary",
    name: "Candidate/ordinary",
    summary: "Petrov, Database Internals (2019) ch. 10, after Murshed & Allen 2012: only candidates may lead; a node waits its delta, then asks the candidates and announces the highest that answers",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: CandidateOrdinary::SAFETY,
    builder: Some(engine::<CandidateOrdinary>),
    theory: None,
    tradeoff: Some(Claim {
        family: "candidate/ordinary",
        messages: "O(candidates)",
        growth: None,
        latency: "1 round trip after detection",
        partition_safe: false,
        partition: "no",
        flaky_handled: None,
        why: &[],
    }),
};

/// Candidate/ordinary messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// To ordinary nodes: "I am running an election; do not start one."
    Electing,
    /// To candidates: "I am running an election; are you alive?"
    Query,
    /// A candidate's answer to a QUERY.
    Alive,
    /// "Candidate n leads."
    Coordinator(NodeId),
    /// The leader is alive (background).
    Heartbeat,
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Electing => 0,
            Msg::Query => 1,
            Msg::Alive => 2,
            Msg::Coordinator(_) => 3,
            Msg::Heartbeat => 4,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}

/// Candidate/ordinary timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// No word from the leader for too long.
    LeaderTimeout,
    /// The node's delay before it starts an election.
    Delta,
    /// Electing: waiting for the candidates' ALIVE.
    AwaitAlive,
    /// Stood down: waiting for another node's result.
    AwaitResult,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// Where a node is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Following a leader, or waiting to hear of one.
    Idle,
    /// Detected a failure; waiting out its delay.
    Waiting,
    /// Running an election: asked the candidates, collecting answers.
    Electing,
    /// Another node is electing; waiting for its result.
    StoodDown,
    /// The leader (candidates only).
    Leading,
}

/// One candidate/ordinary node.
#[derive(Debug, Clone)]
pub struct CandidateOrdinary {
    id: NodeId,
    n: u32,
    /// Whether this node may lead.
    candidate: bool,
    /// Every candidate, ascending.
    candidates: Vec<NodeId>,
    /// This node's delay before starting an election.
    wait_us: Micros,
    phase: Phase,
    leader: Option<NodeId>,
    /// The leader presumed dead when the current election began.
    suspected: Option<NodeId>,
    /// Electing: candidates asked that have not answered.
    awaiting: Vec<NodeId>,
    /// Electing: candidates that answered (itself, if a candidate).
    answered: Vec<NodeId>,
    /// Stood down: the node whose election it waits on.
    deferring_to: Option<NodeId>,
    elections_started: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// How many deltas node `id` waits beyond the first: the ordinary nodes
/// above it, or, for a candidate, every ordinary node plus the candidates
/// above it.
pub fn delay_slots(config: &Config, id: NodeId) -> u64 {
    let c = &config.candidates;
    let higher_candidates = c.len() - c.partition_point(|&x| x <= id);
    let higher = (config.n - 1 - id) as usize;
    let slots = if c.binary_search(&id).is_ok() {
        (config.n as usize - c.len()) + higher_candidates
    } else {
        higher - higher_candidates
    };
    slots as u64
}

impl CandidateOrdinary {
    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.phase = Phase::Idle;
        self.leader = Some(leader);
        self.suspected = None;
        self.awaiting.clear();
        self.answered.clear();
        self.deferring_to = None;
        ctx.cancel_timer(Timer::Delta);
        ctx.cancel_timer(Timer::AwaitAlive);
        ctx.cancel_timer(Timer::AwaitResult);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
        arm_leader_timeout(ctx, Timer::LeaderTimeout);
    }

    fn forget_leader(&mut self, ctx: &mut C<'_>) {
        if let Some(l) = self.leader.take() {
            self.suspected = Some(l);
            ctx.set_leader(None);
        }
    }

    /// Failure detected (or told to start): wait this node's delay first.
    fn begin_wait(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Waiting;
        self.deferring_to = None;
        self.forget_leader(ctx);
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::AwaitResult);
        let delta = ctx.config().delta_us;
        let slots = self.wait_us.checked_div(delta).unwrap_or(1);
        ctx.note_with(|| format!(
            "waits {} ms ({} x delta) before starting an election, in case a node ahead of it starts one",
            self.wait_us as f64 / 1000.0,
            slots
        ));
        ctx.set_timer(Timer::Delta, self.wait_us);
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Electing;
        self.deferring_to = None;
        self.elections_started += 1;
        self.forget_leader(ctx);
        ctx.election_started();
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::AwaitResult);
        ctx.note(
            "starts an election: tells the ordinary nodes, asks every candidate if it is alive",
        );
        let me = self.id;
        self.answered.clear();
        self.awaiting = self
            .candidates
            .iter()
            .copied()
            .filter(|&c| c != me)
            .collect();
        if self.candidate {
            self.answered.push(me);
        }
        for peer in (0..self.n).filter(|&p| p != me) {
            if self.candidates.binary_search(&peer).is_ok() {
                ctx.send(peer, Msg::Query);
            } else {
                ctx.send(peer, Msg::Electing);
            }
        }
        if self.awaiting.is_empty() {
            self.decide(ctx);
        } else {
            let wait = ctx.config().reply_timeout_us;
            ctx.set_timer(Timer::AwaitAlive, wait);
        }
    }

    /// Picks the highest candidate that answered and announces it.
    fn decide(&mut self, ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::AwaitAlive);
        self.awaiting.clear();
        let Some(best) = self.answered.iter().copied().max() else {
            ctx.note("no candidate answered, and only a candidate may lead; tries again later");
            self.phase = Phase::Idle;
            arm_leader_timeout(ctx, Timer::LeaderTimeout);
            return;
        };
        self.answered.clear();
        ctx.note_with(|| {
            format!("n{best} is the highest candidate that answered; announces it to everyone")
        });
        ctx.broadcast(Msg::Coordinator(best));
        if best == self.id {
            self.become_leader(ctx);
        } else {
            self.follow(ctx, best);
        }
    }

    fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Leading;
        self.leader = Some(self.id);
        self.suspected = None;
        self.awaiting.clear();
        self.answered.clear();
        self.deferring_to = None;
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::Delta);
        ctx.cancel_timer(Timer::AwaitAlive);
        ctx.cancel_timer(Timer::AwaitResult);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    fn stand_down(&mut self, ctx: &mut C<'_>, electing: NodeId) {
        if self.phase != Phase::StoodDown {
            ctx.note_with(|| format!(
                "n{electing} is already electing; starts no election of its own and waits for the result"
            ));
        }
        self.phase = Phase::StoodDown;
        self.deferring_to = Some(electing);
        self.awaiting.clear();
        self.answered.clear();
        self.forget_leader(ctx);
        ctx.cancel_timer(Timer::Delta);
        ctx.cancel_timer(Timer::AwaitAlive);
        ctx.cancel_timer(Timer::LeaderTimeout);
        let wait = ctx.config().reply_timeout_us * 3;
        ctx.set_timer(Timer::AwaitResult, wait);
    }

    /// `from` announced (by ELECTING or QUERY) that it runs an election.
    fn heard_election(&mut self, ctx: &mut C<'_>, from: NodeId) {
        match self.phase {
            Phase::Leading => {}
            Phase::Electing if from > self.id => {
                ctx.note_with(|| {
                    format!(
                        "n{from} is electing too and outranks it; leaves the election to n{from}"
                    )
                });
                self.stand_down(ctx, from);
            }
            // A lower node's election yields to this one.
            Phase::Electing => {}
            Phase::Idle | Phase::Waiting | Phase::StoodDown => self.stand_down(ctx, from),
        }
    }
}

impl Protocol for CandidateOrdinary {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        let candidates = config.candidates.clone();
        Self {
            id,
            n: config.n,
            candidate: candidates.binary_search(&id).is_ok(),
            candidates,
            wait_us: config.delta_us * (1 + delay_slots(config, id)),
            phase: Phase::Idle,
            leader: None,
            suspected: None,
            awaiting: Vec::new(),
            answered: Vec::new(),
            deferring_to: None,
            elections_started: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Follower, None);
        match boot {
            Boot::Fresh { initiate: true } => self.begin_wait(ctx),
            Boot::Fresh { initiate: false } => {
                arm_leader_timeout(ctx, Timer::LeaderTimeout);
            }
            Boot::Recover => {
                ctx.note("recovered; waits to hear the leader's heartbeat");
                arm_leader_timeout(ctx, Timer::LeaderTimeout);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Electing => self.heard_election(ctx, from),
            Msg::Query => {
                ctx.send(from, Msg::Alive);
                self.heard_election(ctx, from);
            }
            Msg::Alive => {
                if self.phase == Phase::Electing && self.awaiting.contains(&from) {
                    self.awaiting.retain(|&c| c != from);
                    self.answered.push(from);
                    if self.awaiting.is_empty() {
                        self.decide(ctx);
                    }
                }
            }
            Msg::Coordinator(c) if c == self.id => {
                if !self.candidate {
                    ctx.note_with(|| {
                        format!("n{from} names it leader, but it is not a candidate; ignores that")
                    });
                } else if self.phase != Phase::Leading {
                    ctx.note_with(|| format!("n{from} announced it as leader; it leads"));
                    self.become_leader(ctx);
                }
            }
            Msg::Coordinator(c) => {
                if self.phase == Phase::Leading {
                    if c > self.id {
                        ctx.note_with(|| format!("n{c} was announced and outranks it; steps down"));
                        self.follow(ctx, c);
                    } else {
                        ctx.note_with(|| {
                            format!(
                                "n{c} was announced but this node leads and outranks it; tells n{c}"
                            )
                        });
                        ctx.send(c, Msg::Coordinator(self.id));
                    }
                } else {
                    self.follow(ctx, c);
                }
            }
            Msg::Heartbeat => match self.phase {
                Phase::Leading if from > self.id => {
                    ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                    self.follow(ctx, from);
                }
                Phase::Leading => {
                    ctx.note_with(|| format!("n{from} also leads; tells it n{} leads", self.id));
                    ctx.send(from, Msg::Coordinator(self.id));
                }
                Phase::Idle if self.leader == Some(from) => {
                    arm_leader_timeout(ctx, Timer::LeaderTimeout);
                }
                Phase::Idle if self.leader.is_some_and(|l| from < l) => {}
                _ => {
                    ctx.note_with(|| format!("hears leader n{from}; follows it"));
                    self.follow(ctx, from);
                }
            },
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::LeaderTimeout => {
                if self.phase == Phase::Idle {
                    match self.leader {
                        Some(l) => ctx.note_with(|| {
                            format!("heard nothing from leader n{l}; presumes it dead")
                        }),
                        None => ctx.note("knows no leader"),
                    }
                    self.begin_wait(ctx);
                }
            }
            Timer::Delta => {
                if self.phase == Phase::Waiting {
                    self.start_election(ctx);
                }
            }
            Timer::AwaitAlive => {
                if self.phase == Phase::Electing {
                    self.decide(ctx);
                }
            }
            Timer::AwaitResult => {
                if self.phase == Phase::StoodDown {
                    let who = self.deferring_to;
                    ctx.note_with(|| match who {
                        Some(d) => format!("n{d}'s election produced no leader in time"),
                        None => "the election it waited for produced no leader in time".into(),
                    });
                    self.begin_wait(ctx);
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
            Timer::LeaderTimeout => TimerClass::ElectionTimeout,
            // The node's own delay before it starts an election.
            Timer::Delta => TimerClass::Retry,
            Timer::AwaitAlive | Timer::AwaitResult => TimerClass::ReplyWait,
            Timer::Heartbeat => TimerClass::Heartbeat,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        let list = |v: &[NodeId]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|i| format!("n{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        vec![
            (
                "kind",
                if self.candidate {
                    "candidate (may lead)".to_string()
                } else {
                    "ordinary (never leads)".to_string()
                },
            ),
            ("phase", format!("{:?}", self.phase)),
            ("leader", opt(self.leader)),
            ("presumed dead leader", opt(self.suspected)),
            (
                "delay before electing",
                format!("{} ms", self.wait_us as f64 / 1000.0),
            ),
            ("candidates", list(&self.candidates)),
            ("candidates not yet answered", list(&self.awaiting)),
            ("candidates answered", list(&self.answered)),
            ("waiting on the election of", opt(self.deferring_to)),
            ("elections started", self.elections_started.to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Petrov 2019, ch. 10,
    //! "Candidate/Ordinary Optimization").
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    /// n = 8 with the default candidates n6, n7 and delta 50 ms.
    fn node(id: NodeId) -> (CandidateOrdinary, Config) {
        let c = config(8, "ascending");
        assert_eq!(c.candidates, vec![6, 7]);
        (CandidateOrdinary::new(id, &c, &()), c)
    }

    fn timer_set(out: &[Command<Msg, Timer>], timer: Timer) -> Option<Micros> {
        out.iter().find_map(|c| match c {
            Command::SetTimer { timer: t, after_us } if *t == timer => Some(*after_us),
            _ => None,
        })
    }

    #[test]
    fn delays_put_higher_ordinary_nodes_first_and_candidates_last() {
        let c = config(8, "ascending");
        let slots: Vec<u64> = (0..8).map(|id| delay_slots(&c, id)).collect();
        assert_eq!(slots, vec![5, 4, 3, 2, 1, 0, 7, 6]);
    }

    #[test]
    fn a_detector_waits_its_delay_before_electing() {
        let (mut x, c) = node(4);
        commands(&mut x, 4, &c, |x, ctx| {
            x.on_message(ctx, 7, Msg::Coordinator(7))
        });
        let out = commands(&mut x, 4, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        assert!(sends(&out).is_empty());
        assert_eq!(timer_set(&out, Timer::Delta), Some(2 * 50_000));
        assert_eq!((x.phase, x.suspected), (Phase::Waiting, Some(7)));
    }

    #[test]
    fn after_its_delay_a_node_tells_the_ordinary_nodes_and_asks_the_candidates() {
        let (mut x, c) = node(4);
        commands(&mut x, 4, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        let out = commands(&mut x, 4, &c, |x, ctx| x.on_timer(ctx, Timer::Delta));
        assert_eq!(
            sends(&out),
            vec![
                (0, Msg::Electing),
                (1, Msg::Electing),
                (2, Msg::Electing),
                (3, Msg::Electing),
                (5, Msg::Electing),
                (6, Msg::Query),
                (7, Msg::Query),
            ]
        );
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(timer_set(&out, Timer::AwaitAlive), Some(c.reply_timeout_us));
    }

    #[test]
    fn hearing_of_an_election_during_the_delay_means_standing_down() {
        let (mut x, c) = node(2);
        commands(&mut x, 2, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        let out = commands(&mut x, 2, &c, |x, ctx| x.on_message(ctx, 4, Msg::Electing));
        assert!(sends(&out).is_empty());
        assert!(
            out.iter()
                .any(|c| matches!(c, Command::CancelTimer(Timer::Delta)))
        );
        assert!(timer_set(&out, Timer::AwaitResult).is_some());
        assert_eq!((x.phase, x.deferring_to), (Phase::StoodDown, Some(4)));
        // The delay's timer, should it fire, starts nothing.
        let out = commands(&mut x, 2, &c, |x, ctx| x.on_timer(ctx, Timer::Delta));
        assert!(out.is_empty());
    }

    #[test]
    fn a_candidate_answers_a_query_and_stands_down() {
        let (mut x, c) = node(6);
        let out = commands(&mut x, 6, &c, |x, ctx| x.on_message(ctx, 3, Msg::Query));
        assert_eq!(sends(&out), vec![(3, Msg::Alive)]);
        assert_eq!(x.phase, Phase::StoodDown);
    }

    #[test]
    fn the_highest_candidate_that_answered_is_announced() {
        let (mut x, c) = node(5);
        commands(&mut x, 5, &c, |x, ctx| x.start_election(ctx));
        let out = commands(&mut x, 5, &c, |x, ctx| x.on_message(ctx, 6, Msg::Alive));
        assert!(sends(&out).is_empty(), "n7 has not answered yet");
        // n7 is dead: the reply timeout decides.
        let out = commands(&mut x, 5, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitAlive));
        let to: Vec<(NodeId, Msg)> = sends(&out);
        assert_eq!(to.len(), 7);
        assert!(to.iter().all(|(_, m)| *m == Msg::Coordinator(6)));
        assert_eq!(x.leader, Some(6));

        // When every candidate answers, it decides at once.
        let (mut y, c) = node(5);
        commands(&mut y, 5, &c, |y, ctx| y.start_election(ctx));
        commands(&mut y, 5, &c, |y, ctx| y.on_message(ctx, 7, Msg::Alive));
        let out = commands(&mut y, 5, &c, |y, ctx| y.on_message(ctx, 6, Msg::Alive));
        assert_eq!(sends(&out)[0], (0, Msg::Coordinator(7)));
    }

    #[test]
    fn no_answer_means_no_leader_and_a_later_retry() {
        let (mut x, c) = node(0);
        commands(&mut x, 0, &c, |x, ctx| x.start_election(ctx));
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitAlive));
        assert!(sends(&out).is_empty());
        assert!(timer_set(&out, Timer::LeaderTimeout).is_some());
        assert_eq!((x.phase, x.leader), (Phase::Idle, None));
    }

    #[test]
    fn overlapping_elections_leave_it_to_the_higher_id() {
        let (mut x, c) = node(3);
        commands(&mut x, 3, &c, |x, ctx| x.start_election(ctx));
        let out = commands(&mut x, 3, &c, |x, ctx| x.on_message(ctx, 1, Msg::Electing));
        assert!(out.is_empty(), "a lower node's election does not stop n3");
        assert_eq!(x.phase, Phase::Electing);
        commands(&mut x, 3, &c, |x, ctx| x.on_message(ctx, 4, Msg::Electing));
        assert_eq!(x.phase, Phase::StoodDown);
        let out = commands(&mut x, 3, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitAlive));
        assert!(sends(&out).is_empty(), "it announces nothing");
    }

    #[test]
    fn a_candidate_that_runs_the_election_counts_itself() {
        let (mut x, c) = node(6);
        let out = commands(&mut x, 6, &c, |x, ctx| x.start_election(ctx));
        assert_eq!(sends(&out).len(), 7, "6 ELECTING and 1 QUERY (to n7)");
        let out = commands(&mut x, 6, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitAlive));
        assert!(sends(&out).iter().all(|(_, m)| *m == Msg::Coordinator(6)));
        assert_eq!(x.phase, Phase::Leading);
    }

    #[test]
    fn only_a_candidate_takes_the_lead_when_named() {
        let (mut cand, c) = node(7);
        let out = commands(&mut cand, 7, &c, |x, ctx| {
            x.on_message(ctx, 2, Msg::Coordinator(7))
        });
        assert!(out.iter().any(|c| matches!(
            c,
            Command::Role {
                role: Role::Leader,
                ..
            }
        )));
        let (mut ord, c) = node(2);
        let out = commands(&mut ord, 2, &c, |x, ctx| {
            x.on_message(ctx, 1, Msg::Coordinator(2))
        });
        assert!(!out.iter().any(|c| matches!(
            c,
            Command::Role {
                role: Role::Leader,
                ..
            }
        )));
        assert_ne!(ord.phase, Phase::Leading);
    }
}
