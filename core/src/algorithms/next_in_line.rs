//! Next-in-line failover: the leader publishes an ordered list of
//! successors, and on its failure the next one in line simply takes over.
//!
//! Source: A. Petrov, *Database Internals* (O'Reilly, 2019), chapter 10,
//! "Next-in-line failover", a refinement of the Bully algorithm which the
//! book credits to Gholipour, Kordafshari, Jahanshahi and Rahmani, "A New
//! Approach for Election Algorithm in Distributed Systems" (2009): every
//! elected leader provides a list of failover nodes; a process that detects
//! the leader's failure contacts the highest-ranked alternative on that
//! list, which becomes the leader without a full election round; if the
//! detector is itself first in line, it announces itself right away. The
//! fallback is the Bully election (H. Garcia-Molina, IEEE Trans. Computers
//! C-31(1), 1982), with the rules of [`super::bully`].
//!
//! Rules, as simulated here:
//! - The leader's line of succession is every other node it believes
//!   alive, highest id first. It starts as every other id (or, for a node
//!   that took over, the line it inherited minus itself), loses a node when
//!   the link layer reports a `HEARTBEAT` or `COORDINATOR` to it
//!   undeliverable, and gains one when that node sends `JOIN`.
//! - `COORDINATOR(line)` announces a leader with its line (version and
//!   ids). The leader keeps the line current through its `HEARTBEAT`s
//!   (background, every `heartbeat_ms`): each carries the line's version,
//!   and the ids only in the first beat to each node after a change, so
//!   a stable line costs nothing but a number.
//! - A follower that sees itself missing from its leader's line, or a
//!   version it does not have (it missed the beat with the change), sends
//!   `JOIN` (background; at most once per reply timeout): the leader adds
//!   it to the line if needed and sends the line with its next beat to it.
//!   This is how a recovered node, or one from the other side of a healed
//!   partition, gets back in line.
//! - Failure: a follower that hears nothing from its leader for a timeout
//!   drawn from `election_timeout_ms` walks the last line it was given. It
//!   sends `TAKEOVER(dead)` to the first node in it and waits one reply
//!   timeout; no `CONFIRM` in time (or a link-layer undeliverable notice,
//!   which comes at the same moment) means that node is dead too, so it
//!   asks the next. `dead` lists the old leader and every node skipped so
//!   far. If the walk reaches the detector itself, the detector is next in
//!   line and takes over without asking anyone.
//! - A node that receives `TAKEOVER(dead)` answers `CONFIRM` (so the asker
//!   stops walking and follows it) and announces `COORDINATOR(line)` to all
//!   n-1 other nodes, the dead old leader included (it cannot know which
//!   are down); its fresh line is the one it was given minus itself and
//!   minus `dead`.
//!   A node that already leads only re-confirms: `CONFIRM`, nothing else.
//! - Concurrent detections: every detector walks the same line, so they
//!   all ask the same node; the first `TAKEOVER` makes it leader, later
//!   ones are re-confirmed, and a detector that receives the new
//!   `COORDINATOR` (or a `HEARTBEAT`) while still waiting stops asking.
//!   Cost: at most one `TAKEOVER` and one `CONFIRM` per detector plus one
//!   announcement of n-1 messages.
//! - Fallback: a node with no line (at time 0, or recovered and never told
//!   one) or whose line is exhausted (nobody on it answered) runs a Bully
//!   election: `ELECTION` to every higher id, `OK` answers, the winner
//!   announces `COORDINATOR(line)` to all n-1 others. A node that receives
//!   `ELECTION` answers `OK` and starts its own election unless it is
//!   already in one, is walking the line (that walk ends in an
//!   announcement to everyone), or follows a leader higher than itself
//!   (which answers the caller itself); a leader answers `OK` and repeats
//!   `COORDINATOR` to the caller. After an `OK`, a node waits three reply
//!   timeouts for `COORDINATOR`, then starts over. The initial election
//!   (`start` all or a list) is this fallback.
//! - No Bully challenge: a `COORDINATOR` is obeyed whatever the sender's
//!   rank, because the line, not the rank alone, decides who leads. So a
//!   recovered higher node joins the line as a follower instead of taking
//!   over (Bully's flapping top node costs an election on every return).
//! - Two leaders (a healed partition, a paused leader that wakes up): a
//!   leader that hears a higher leader's `HEARTBEAT` or `COORDINATOR`
//!   steps down and follows it; one that hears a lower leader sends it its
//!   own `COORDINATOR`; a follower switches to a heartbeating leader higher
//!   than its own. The cluster converges on the highest leader.
//!
//! Costs for one leader crash (leader n-1 of n, its first successor alive,
//! D detectors): `TAKEOVER` + `CONFIRM` <= 2D (none when the successor
//! detects first itself), exactly n-1 `COORDINATOR` (one to the dead
//! leader), no `ELECTION`/`OK`. Bully on the same crash sends at least one
//! `ELECTION` per detector plus `OK`s and its own announcement
//! (`core/tests/next_in_line.rs` compares the two).
//!
//! Safety claimed: one leader in a synchronous network without partitions.
//! Known failures: under a partition each side walks the line to its own
//! highest node (split brain); a leader that is only slow (paused) is
//! replaced and, when it wakes, briefly leads beside its successor until
//! one hears the other.

use super::detector::leader_timeout;
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "TAKEOVER",
    "CONFIRM",
    "COORDINATOR",
    "ELECTION",
    "OK",
    "HEARTBEAT",
    "JOIN",
];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "next-in-line",
    name: "Next-in-line failover",
    summary: "Petrov, Database Internals (2019) ch. 10, after Gholipour et al. 2009: the leader publishes a line of successors; on its failure the next live one takes over (TAKEOVER/CONFIRM), Bully election as fallback",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    claims: NextInLine::SAFETY,
    builder: Some(engine::<NextInLine>),
    theory: None,
};

/// A published line of succession.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Line {
    /// Bumped by the leader on every change.
    pub version: u64,
    /// Every other node the leader believes alive, highest id first.
    pub ids: Vec<NodeId>,
}

impl fmt::Debug for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{} {:?}", self.version, self.ids)
    }
}

/// What a heartbeat says about the line: its version, and the ids when
/// the receiver has not been sent this version yet.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Beat {
    /// The leader's current line version.
    pub version: u64,
    /// The line itself, in the first beat to a node after a change.
    pub ids: Option<Vec<NodeId>>,
}

impl fmt::Debug for Beat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.ids {
            Some(ids) => write!(f, "v{} {ids:?}", self.version),
            None => write!(f, "v{}", self.version),
        }
    }
}

/// Next-in-line messages.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// "You are next in line: take over." Carries the nodes the asker
    /// found dead (the old leader, then every node on the line that did
    /// not answer), so the new leader's line leaves them out.
    Takeover(Vec<NodeId>),
    /// "I lead now" (to the node that asked).
    Confirm,
    /// "I lead; this is my line of succession."
    Coordinator(Line),
    /// Fallback (Bully): "I am holding an election; are you alive?"
    Election,
    /// Fallback (Bully): "Yes, and I outrank you."
    Ok,
    /// The leader is alive; its line's version, and the line after a
    /// change (background).
    Heartbeat(Beat),
    /// "Put me in your line, or send me its current version" (background).
    Join,
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Takeover(_) => 0,
            Msg::Confirm => 1,
            Msg::Coordinator(_) => 2,
            Msg::Election => 3,
            Msg::Ok => 4,
            Msg::Heartbeat(_) => 5,
            Msg::Join => 6,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat(_) | Msg::Join => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}

/// Next-in-line timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower: no word from the leader for too long.
    LeaderTimeout,
    /// Leader: time to send heartbeats.
    Heartbeat,
    /// Walking the line: the asked node has not confirmed.
    AwaitConfirm,
    /// Fallback: waiting for an OK from a higher node.
    AwaitOk,
    /// Fallback: got OK, waiting for the COORDINATOR.
    AwaitCoordinator,
}

/// Where a node is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Following a leader, or waiting to hear of one.
    Idle,
    /// Walking the line of succession, asking one node at a time.
    Asking,
    /// Fallback: sent ELECTION, waiting for OK.
    Electing,
    /// Fallback: got OK, waiting for COORDINATOR.
    AwaitingCoordinator,
    /// The leader.
    Leading,
}

/// One next-in-line node.
#[derive(Debug, Clone)]
pub struct NextInLine {
    id: NodeId,
    n: u32,
    phase: Phase,
    leader: Option<NodeId>,
    /// The line of succession: as a follower the last one its leader
    /// published (minus nodes its own walk found dead), as the leader the
    /// one it publishes. `None`: never told one.
    line: Option<Vec<NodeId>>,
    /// Whose line that is, and which version.
    line_from: Option<(NodeId, u64)>,
    /// As leader: the version of its line (counts up across leaderships).
    version: u64,
    /// As leader: nodes whose next heartbeat carries the line, ascending.
    send_line_to: Vec<NodeId>,
    /// While walking: the nodes still to ask, in order.
    to_ask: Vec<NodeId>,
    /// While walking: the node asked last.
    asking: Option<NodeId>,
    /// While walking: the old leader and the nodes on the line that did
    /// not answer, presumed dead.
    presumed_dead: Vec<NodeId>,
    /// Local time of the last JOIN sent.
    join_sent_at: Option<i64>,
    elections_started: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

fn names(ids: &[NodeId]) -> String {
    if ids.is_empty() {
        return "(empty)".to_string();
    }
    let v: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
    v.join(", ")
}

impl NextInLine {
    fn cancel_election_timers(ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::AwaitConfirm);
        ctx.cancel_timer(Timer::AwaitOk);
        ctx.cancel_timer(Timer::AwaitCoordinator);
    }

    /// Follows `leader`; `line` is its published line when the message
    /// carried one (a CONFIRM does not).
    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId, line: Option<Line>) {
        self.phase = Phase::Idle;
        self.leader = Some(leader);
        self.to_ask.clear();
        self.asking = None;
        self.presumed_dead.clear();
        self.send_line_to.clear();
        match line {
            Some(l) => {
                self.line = Some(l.ids);
                self.line_from = Some((leader, l.version));
            }
            None => {
                if let Some(l) = &mut self.line {
                    l.retain(|&x| x != leader);
                }
                self.line_from = None;
            }
        }
        Self::cancel_election_timers(ctx);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    /// Follows the sender of a heartbeat, keeping the line if it came along.
    fn follow_beat(&mut self, ctx: &mut C<'_>, leader: NodeId, beat: Beat) {
        let version = beat.version;
        let line = beat.ids.map(|ids| Line { version, ids });
        self.follow(ctx, leader, line);
        self.check_line(ctx, version);
    }

    /// After hearing its leader announce line `version`: asks to join if
    /// it is missing from its copy of the line or the copy is outdated.
    fn check_line(&mut self, ctx: &mut C<'_>, version: u64) {
        let Some(leader) = self.leader.filter(|&l| l != self.id) else {
            return;
        };
        let listed = self.line.as_ref().is_some_and(|l| l.contains(&self.id));
        let current = self.line_from == Some((leader, version));
        if listed && current {
            self.join_sent_at = None;
            return;
        }
        let now = ctx.local_now_us();
        let gap = ctx.config().reply_timeout_us as i64;
        if self.join_sent_at.is_some_and(|t| now - t < gap) {
            return;
        }
        self.join_sent_at = Some(now);
        if listed {
            ctx.note_with(|| {
                format!("missed a change of leader n{leader}'s line (now v{version}); asks for it")
            });
        } else {
            ctx.note_with(|| {
                format!("is missing from leader n{leader}'s line of succession; asks to join it")
            });
        }
        ctx.send(leader, Msg::Join);
    }

    /// The leader's failure is detected (or no leader is known): walk the
    /// line, or fall back to the election when there is none.
    fn start_walk(&mut self, ctx: &mut C<'_>) {
        let failed = self.leader.take();
        ctx.set_leader(None);
        let to_ask: Vec<NodeId> = self
            .line
            .iter()
            .flatten()
            .copied()
            .filter(|&x| Some(x) != failed)
            .collect();
        if to_ask.is_empty() {
            ctx.note("has no line of succession to walk; falls back to a Bully election");
            self.start_election(ctx);
            return;
        }
        self.phase = Phase::Asking;
        self.presumed_dead = failed.into_iter().collect();
        self.to_ask = to_ask;
        self.elections_started += 1;
        ctx.election_started();
        self.ask_next(ctx);
    }

    fn ask_next(&mut self, ctx: &mut C<'_>) {
        if self.to_ask.is_empty() {
            self.asking = None;
            self.phase = Phase::Idle;
            ctx.cancel_timer(Timer::AwaitConfirm);
            ctx.note("nobody on the line of succession answered; falls back to a Bully election");
            self.start_election(ctx);
            return;
        }
        let next = self.to_ask.remove(0);
        if next == self.id {
            ctx.note("is itself next in line; takes over");
            self.become_leader(ctx);
            return;
        }
        ctx.note_with(|| {
            format!(
                "{} gone; asks n{next}, next in line, to take over",
                match self.presumed_dead.as_slice() {
                    [] => "the leader is".to_string(),
                    [one] => format!("n{one} is"),
                    many => format!("{} are", names(many)),
                }
            )
        });
        self.asking = Some(next);
        ctx.send(next, Msg::Takeover(self.presumed_dead.clone()));
        let wait = ctx.config().reply_timeout_us;
        ctx.set_timer(Timer::AwaitConfirm, wait);
    }

    /// The asked node did not confirm (timer or undeliverable notice).
    fn skip(&mut self, ctx: &mut C<'_>, silent: NodeId) {
        if self.phase != Phase::Asking || self.asking != Some(silent) {
            return;
        }
        ctx.note_with(|| {
            format!("n{silent} did not confirm; presumes it dead too and asks the next in line")
        });
        if let Some(l) = &mut self.line {
            l.retain(|&x| x != silent);
        }
        self.presumed_dead.push(silent);
        self.ask_next(ctx);
    }

    /// Fallback: a Bully election (Garcia-Molina 1982).
    fn start_election(&mut self, ctx: &mut C<'_>) {
        if matches!(self.phase, Phase::Electing | Phase::AwaitingCoordinator) {
            return; // at most one election at a time
        }
        self.phase = Phase::Electing;
        self.leader = None;
        self.to_ask.clear();
        self.asking = None;
        self.elections_started += 1;
        ctx.election_started();
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::AwaitConfirm);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_leader(None);
        if self.id + 1 == self.n {
            self.become_leader(ctx);
            return;
        }
        ctx.set_role(Role::Candidate, None);
        for higher in self.id + 1..self.n {
            ctx.send(higher, Msg::Election);
        }
        let wait = ctx.config().reply_timeout_us;
        ctx.set_timer(Timer::AwaitOk, wait);
    }

    /// Takes the lead and announces it with a fresh line to all n-1 others.
    fn become_leader(&mut self, ctx: &mut C<'_>) {
        let dead = std::mem::take(&mut self.presumed_dead);
        self.phase = Phase::Leading;
        self.leader = Some(self.id);
        self.to_ask.clear();
        self.asking = None;
        let me = self.id;
        let mut line: Vec<NodeId> = match &self.line {
            Some(l) => l
                .iter()
                .copied()
                .filter(|&x| x != me && !dead.contains(&x))
                .collect(),
            None => (0..self.n).rev().filter(|&x| x != me).collect(),
        };
        // Ascending then reversed: the wasm then shares the one ascending
        // sort of node ids instead of holding another for descending.
        line.sort_unstable();
        line.reverse();
        line.dedup();
        Self::cancel_election_timers(ctx);
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(me));
        self.version += 1;
        self.line = Some(line);
        self.line_from = Some((me, self.version));
        self.send_line_to.clear();
        let published = self.published_line();
        ctx.note_with(|| {
            format!(
                "leads; publishes the line of succession {}",
                names(&published.ids)
            )
        });
        ctx.broadcast(Msg::Coordinator(published));
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    fn published_line(&self) -> Line {
        Line {
            version: self.version,
            ids: self.line.clone().unwrap_or_default(),
        }
    }

    /// The leader's line changed: a new version, which every follower
    /// gets with its next heartbeat.
    fn line_changed(&mut self) {
        self.version += 1;
        self.line_from = Some((self.id, self.version));
        let me = self.id;
        self.send_line_to = (0..self.n).filter(|&p| p != me).collect();
    }

    /// The leader drops a node it could not reach from its line.
    fn drop_from_line(&mut self, ctx: &mut C<'_>, gone: NodeId) {
        let Some(l) = &mut self.line else {
            return;
        };
        if l.contains(&gone) {
            l.retain(|&x| x != gone);
            let now = names(l);
            ctx.note_with(|| {
                format!("cannot reach n{gone}; drops it from the line of succession, now {now}")
            });
            self.line_changed();
        }
    }
}

impl Protocol for NextInLine {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;
    const WANTS_UNDELIVERABLE: bool = true;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            n: config.n,
            phase: Phase::Idle,
            leader: None,
            line: None,
            line_from: None,
            version: 0,
            send_line_to: Vec::new(),
            to_ask: Vec::new(),
            asking: None,
            presumed_dead: Vec::new(),
            join_sent_at: None,
            elections_started: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Follower, None);
        match boot {
            Boot::Fresh { initiate: true } => self.start_election(ctx),
            Boot::Fresh { initiate: false } => {
                let t = leader_timeout(ctx);
                ctx.set_timer(Timer::LeaderTimeout, t);
            }
            Boot::Recover => {
                ctx.note("recovered; waits for the leader's heartbeat to rejoin the line");
                let t = leader_timeout(ctx);
                ctx.set_timer(Timer::LeaderTimeout, t);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Takeover(dead) => {
                if self.phase == Phase::Leading {
                    ctx.note_with(|| format!("already leads; confirms again to n{from}"));
                    ctx.send(from, Msg::Confirm);
                } else {
                    ctx.note_with(|| format!("n{from} asks it to take over; it does"));
                    ctx.send(from, Msg::Confirm);
                    for d in dead {
                        if !self.presumed_dead.contains(&d) {
                            self.presumed_dead.push(d);
                        }
                    }
                    self.become_leader(ctx);
                }
            }
            Msg::Confirm => {
                if self.phase == Phase::Asking {
                    ctx.note_with(|| format!("n{from} confirms it has taken over"));
                    self.follow(ctx, from, None);
                }
            }
            Msg::Coordinator(line) => {
                if self.phase == Phase::Leading {
                    if from > self.id {
                        ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                        let version = line.version;
                        self.follow(ctx, from, Some(line));
                        self.check_line(ctx, version);
                    } else {
                        ctx.note_with(|| {
                            format!("n{from} also claims to lead; tells it n{} leads", self.id)
                        });
                        let mine = self.published_line();
                        ctx.send(from, Msg::Coordinator(mine));
                    }
                } else {
                    let version = line.version;
                    self.follow(ctx, from, Some(line));
                    self.check_line(ctx, version);
                }
            }
            Msg::Election => {
                ctx.send(from, Msg::Ok);
                match (self.phase, self.leader) {
                    (Phase::Leading, _) => {
                        let mine = self.published_line();
                        ctx.send(from, Msg::Coordinator(mine));
                    }
                    (Phase::Asking, _) => ctx.note_with(|| format!(
                        "answers OK to n{from}; its own walk of the line ends in an announcement to all"
                    )),
                    (Phase::Idle, Some(l)) if l > self.id => ctx.note_with(|| format!(
                        "answers OK to n{from}; its leader n{l} is higher and answers n{from} itself"
                    )),
                    _ => self.start_election(ctx),
                }
            }
            Msg::Ok => {
                if self.phase == Phase::Electing {
                    self.phase = Phase::AwaitingCoordinator;
                    ctx.cancel_timer(Timer::AwaitOk);
                    ctx.set_role(Role::Follower, None);
                    let wait = ctx.config().reply_timeout_us * 3;
                    ctx.set_timer(Timer::AwaitCoordinator, wait);
                }
            }
            Msg::Heartbeat(beat) => match self.phase {
                Phase::Leading if from > self.id => {
                    ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                    self.follow_beat(ctx, from, beat);
                }
                Phase::Leading => {
                    ctx.note_with(|| format!("n{from} also leads; tells it n{} leads", self.id));
                    let mine = self.published_line();
                    ctx.send(from, Msg::Coordinator(mine));
                }
                _ if self.leader == Some(from) => {
                    if let Some(ids) = beat.ids {
                        self.line = Some(ids);
                        self.line_from = Some((from, beat.version));
                    }
                    let t = leader_timeout(ctx);
                    ctx.set_timer(Timer::LeaderTimeout, t);
                    self.check_line(ctx, beat.version);
                }
                _ if self.leader.is_none_or(|l| from > l) => {
                    ctx.note_with(|| format!("hears leader n{from}; follows it"));
                    self.follow_beat(ctx, from, beat);
                }
                _ => {}
            },
            Msg::Join => {
                if self.phase != Phase::Leading {
                    return;
                }
                let l = self.line.get_or_insert_with(Vec::new);
                if l.contains(&from) {
                    // Listed already: it only needs the current version.
                    if let Err(i) = self.send_line_to.binary_search(&from) {
                        self.send_line_to.insert(i, from);
                    }
                } else {
                    l.push(from);
                    l.sort_unstable();
                    l.reverse();
                    let now = names(l);
                    ctx.note_with(|| format!("n{from} joins the line of succession, now {now}"));
                    self.line_changed();
                }
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::LeaderTimeout => {
                if self.phase == Phase::Idle {
                    match self.leader {
                        Some(l) => ctx.note_with(|| format!(
                            "heard nothing from leader n{l}; presumes it dead and walks the line of succession"
                        )),
                        None => ctx.note("knows no leader; walks its line of succession"),
                    }
                    self.start_walk(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.phase == Phase::Leading {
                    let line = self.published_line();
                    let with_line = std::mem::take(&mut self.send_line_to);
                    for peer in (0..self.n).filter(|&p| p != self.id) {
                        let ids = with_line
                            .binary_search(&peer)
                            .is_ok()
                            .then(|| line.ids.clone());
                        let beat = Beat {
                            version: line.version,
                            ids,
                        };
                        ctx.send(peer, Msg::Heartbeat(beat));
                    }
                    let period = ctx.config().heartbeat_us;
                    ctx.set_timer(Timer::Heartbeat, period);
                }
            }
            Timer::AwaitConfirm => {
                if let Some(asked) = self.asking {
                    self.skip(ctx, asked);
                }
            }
            Timer::AwaitOk => {
                if self.phase == Phase::Electing {
                    ctx.note("no higher node answered; takes over");
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
        }
    }

    fn on_undeliverable(&mut self, ctx: &mut C<'_>, to: NodeId, msg: Msg) {
        match msg {
            Msg::Takeover(_) => self.skip(ctx, to),
            Msg::Heartbeat(_) | Msg::Coordinator(_) if self.phase == Phase::Leading => {
                self.drop_from_line(ctx, to);
            }
            _ => {}
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            Timer::LeaderTimeout => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
            Timer::AwaitConfirm | Timer::AwaitOk | Timer::AwaitCoordinator => TimerClass::ReplyWait,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        vec![
            ("phase", format!("{:?}", self.phase)),
            ("leader", opt(self.leader)),
            (
                "line of succession",
                self.line
                    .as_deref()
                    .map_or("never told one".to_string(), names),
            ),
            (
                "line version",
                self.line_from
                    .map_or("none".to_string(), |(l, v)| format!("v{v} from n{l}")),
            ),
            ("own line version (as leader)", format!("v{}", self.version)),
            ("line goes with the next beat to", names(&self.send_line_to)),
            ("still to ask", names(&self.to_ask)),
            ("asking", opt(self.asking)),
            ("presumed dead", names(&self.presumed_dead)),
            (
                "JOIN sent at (local)",
                self.join_sent_at
                    .map_or("none".to_string(), |t| format!("{} ms", t as f64 / 1000.0)),
            ),
            ("elections started", self.elections_started.to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Petrov 2019, ch. 10,
    //! "Next-in-line failover"; the fallback is Bully's, see bully.rs).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    fn node(id: NodeId, n: u32) -> (NextInLine, Config) {
        let c = config(n, "ascending");
        (NextInLine::new(id, &c, &()), c)
    }

    /// A follower of `leader` that was told the line `ids`.
    fn follower(id: NodeId, n: u32, leader: NodeId, ids: &[NodeId]) -> (NextInLine, Config) {
        let (mut x, c) = node(id, n);
        commands(&mut x, id, &c, |x, ctx| {
            x.on_message(ctx, leader, Msg::Coordinator(line(1, ids)))
        });
        (x, c)
    }

    fn line(version: u64, ids: &[NodeId]) -> Line {
        Line {
            version,
            ids: ids.to_vec(),
        }
    }

    fn beat(version: u64, ids: Option<&[NodeId]>) -> Msg {
        Msg::Heartbeat(Beat {
            version,
            ids: ids.map(<[NodeId]>::to_vec),
        })
    }

    fn arms(out: &[Command<Msg, Timer>], timer: Timer) -> bool {
        out.iter()
            .any(|c| matches!(c, Command::SetTimer { timer: t, .. } if *t == timer))
    }

    #[test]
    fn a_detector_asks_the_first_node_in_line() {
        let (mut x, c) = follower(1, 5, 4, &[3, 2, 1, 0]);
        let out = commands(&mut x, 1, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        assert_eq!(sends(&out), vec![(3, Msg::Takeover(vec![4]))]);
        assert!(arms(&out, Timer::AwaitConfirm));
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(x.phase, Phase::Asking);
        assert_eq!(x.asking, Some(3));
    }

    #[test]
    fn no_confirm_in_time_means_asking_the_next() {
        let (mut x, c) = follower(0, 5, 4, &[3, 2, 1, 0]);
        commands(&mut x, 0, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
        assert_eq!(sends(&out), vec![(2, Msg::Takeover(vec![4, 3]))]);
        // The link layer's notice for n3 comes at the same moment: ignored.
        let out = commands(&mut x, 0, &c, |x, ctx| {
            x.on_undeliverable(ctx, 3, Msg::Takeover(vec![4]))
        });
        assert!(out.is_empty());
        // The notice for n2 counts like the timer.
        let out = commands(&mut x, 0, &c, |x, ctx| {
            x.on_undeliverable(ctx, 2, Msg::Takeover(vec![4, 3]))
        });
        assert_eq!(sends(&out), vec![(1, Msg::Takeover(vec![4, 3, 2]))]);
    }

    #[test]
    fn a_detector_first_in_line_takes_over_at_once() {
        let (mut x, c) = follower(3, 5, 4, &[3, 2, 1, 0]);
        let out = commands(&mut x, 3, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        let l = line(1, &[2, 1, 0]);
        assert_eq!(
            sends(&out),
            vec![
                (0, Msg::Coordinator(l.clone())),
                (1, Msg::Coordinator(l.clone())),
                (2, Msg::Coordinator(l.clone())),
                (4, Msg::Coordinator(l)),
            ]
        );
        assert_eq!(x.phase, Phase::Leading);
        assert!(arms(&out, Timer::Heartbeat));
    }

    #[test]
    fn takeover_is_confirmed_and_announced_to_all_others() {
        let (mut x, c) = follower(2, 5, 4, &[3, 2, 1, 0]);
        let out = commands(&mut x, 2, &c, |x, ctx| {
            x.on_message(ctx, 0, Msg::Takeover(vec![4, 3]))
        });
        let l = line(1, &[1, 0]);
        assert_eq!(
            sends(&out),
            vec![
                (0, Msg::Confirm),
                (0, Msg::Coordinator(l.clone())),
                (1, Msg::Coordinator(l.clone())),
                (3, Msg::Coordinator(l.clone())),
                (4, Msg::Coordinator(l)),
            ]
        );
        assert_eq!(x.phase, Phase::Leading);
        // A second detector's TAKEOVER: only re-confirmed.
        let out = commands(&mut x, 2, &c, |x, ctx| {
            x.on_message(ctx, 1, Msg::Takeover(vec![4, 3]))
        });
        assert_eq!(sends(&out), vec![(1, Msg::Confirm)]);
    }

    #[test]
    fn confirm_or_the_new_coordinator_stops_the_walk() {
        let (mut x, c) = follower(0, 5, 4, &[3, 2, 1, 0]);
        commands(&mut x, 0, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, Msg::Confirm));
        assert!(sends(&out).is_empty(), "n0 is in n3's inherited line");
        assert_eq!((x.phase, x.leader), (Phase::Idle, Some(3)));
        // The walk's timer, if it still fires, does nothing.
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
        assert!(sends(&out).is_empty());

        let (mut y, c) = follower(1, 5, 4, &[3, 2, 1, 0]);
        commands(&mut y, 1, &c, |y, ctx| {
            y.on_timer(ctx, Timer::LeaderTimeout)
        });
        let out = commands(&mut y, 1, &c, |y, ctx| {
            y.on_message(ctx, 3, Msg::Coordinator(line(1, &[2, 1, 0])))
        });
        assert!(sends(&out).is_empty());
        assert_eq!((y.phase, y.leader), (Phase::Idle, Some(3)));
    }

    #[test]
    fn an_exhausted_line_falls_back_to_election() {
        let (mut x, c) = follower(0, 4, 3, &[2, 1]);
        commands(&mut x, 0, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
        assert_eq!(
            sends(&out),
            vec![(1, Msg::Election), (2, Msg::Election), (3, Msg::Election)]
        );
        assert_eq!(x.phase, Phase::Electing);
        // Nobody answers: it leads, with a line that leaves out the dead.
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitOk));
        assert_eq!(sends(&out).len(), 3);
        assert_eq!(x.line, Some(vec![]));
    }

    #[test]
    fn a_node_with_no_line_falls_back_at_once() {
        let (mut x, c) = node(1, 4);
        let out = commands(&mut x, 1, &c, |x, ctx| {
            x.on_timer(ctx, Timer::LeaderTimeout)
        });
        assert_eq!(sends(&out), vec![(2, Msg::Election), (3, Msg::Election)]);
    }

    #[test]
    fn a_missing_follower_joins_and_the_leader_takes_it_back() {
        let (mut x, c) = node(1, 4);
        let out = commands(&mut x, 1, &c, |x, ctx| {
            x.on_message(ctx, 3, Msg::Coordinator(line(1, &[2, 0])))
        });
        assert_eq!(sends(&out), vec![(3, Msg::Join)]);
        // Not again within one reply timeout.
        let out = commands(&mut x, 1, &c, |x, ctx| x.on_message(ctx, 3, beat(1, None)));
        assert!(sends(&out).is_empty());

        let (mut l, c) = node(3, 4);
        commands(&mut l, 3, &c, |l, ctx| l.become_leader(ctx));
        assert_eq!(l.published_line(), line(1, &[2, 1, 0]));
        commands(&mut l, 3, &c, |l, ctx| {
            l.on_undeliverable(ctx, 1, beat(1, None))
        });
        assert_eq!(l.published_line(), line(2, &[2, 0]));
        commands(&mut l, 3, &c, |l, ctx| l.on_message(ctx, 1, Msg::Join));
        assert_eq!(l.published_line(), line(3, &[2, 1, 0]));
        // The next beat carries the changed line, the one after only its
        // version.
        let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
        assert_eq!(sends(&out)[0], (0, beat(3, Some(&[2, 1, 0]))));
        let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
        assert_eq!(sends(&out)[0], (0, beat(3, None)));
    }

    #[test]
    fn a_follower_that_missed_a_change_asks_for_the_line() {
        let (mut x, c) = follower(0, 4, 3, &[2, 1, 0]);
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, beat(1, None)));
        assert!(sends(&out).is_empty(), "up to date");
        let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, beat(2, None)));
        assert_eq!(sends(&out), vec![(3, Msg::Join)]);
        let (mut l, c) = node(3, 4);
        commands(&mut l, 3, &c, |l, ctx| l.become_leader(ctx));
        commands(&mut l, 3, &c, |l, ctx| l.on_message(ctx, 0, Msg::Join));
        let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
        assert_eq!(
            sends(&out),
            vec![
                (0, beat(1, Some(&[2, 1, 0]))),
                (1, beat(1, None)),
                (2, beat(1, None)),
            ]
        );
    }

    #[test]
    fn two_leaders_resolve_by_rank() {
        let (mut low, c) = node(1, 4);
        commands(&mut low, 1, &c, |x, ctx| x.become_leader(ctx));
        let out = commands(&mut low, 1, &c, |x, ctx| {
            x.on_message(ctx, 3, beat(1, Some(&[2, 0])))
        });
        assert_eq!(low.phase, Phase::Idle);
        assert_eq!(sends(&out), vec![(3, Msg::Join)], "n1 is not in n3's line");

        let (mut high, c) = node(3, 4);
        commands(&mut high, 3, &c, |x, ctx| x.become_leader(ctx));
        let out = commands(&mut high, 3, &c, |x, ctx| {
            x.on_message(ctx, 1, beat(1, None))
        });
        assert_eq!(high.phase, Phase::Leading);
        assert_eq!(
            sends(&out),
            vec![(1, Msg::Coordinator(line(1, &[2, 1, 0])))]
        );
    }
}
