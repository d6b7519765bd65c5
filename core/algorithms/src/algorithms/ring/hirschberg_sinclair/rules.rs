//! The rules of Hirschberg & Sinclair 1980 as simulated here (see the
//! module docs): probes and replies of each phase, the `ELECTED` lap, the
//! leader's heartbeats, the watchdog and skipping dead neighbours.

use super::super::watchdog::{self, Around};
use super::{C, Dir, HirschbergSinclair, KINDS, Msg, Status, Timer};
use crate::algorithms::detector::{arm_leader_timeout, heartbeat_round, say_leader_silent};
use crate::protocol::{Boot, Config, NodeId, Protocol, Role, Safety, TimerClass};
use crate::time::Micros;

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
        arm_leader_timeout(ctx, Timer::Watchdog);
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
                    say_leader_silent(ctx, self.leader);
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
        match watchdog::pass_around(ctx, self.id, to, skip_to, origin, msg) {
            Around::Passed => {}
            // Our own message, and everyone else is down: it has gone round.
            Around::Returned(msg) => self.on_message(ctx, self.id, msg),
            // A reply has nobody left to read it.
            Around::Stranded(Msg::Reply { .. }) => {}
            Around::Stranded(_) => {
                watchdog::say_stranded(ctx, to);
                self.restart(ctx);
            }
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
        self.fields()
    }
}
