//! ZooKeeper's Fast Leader Election followed by Zab's epoch establishment
//! (Apache ZooKeeper: `FastLeaderElection.java`; `Leader.lead`,
//! `Leader.getEpochToPropose` and `Leader.waitForEpochAck`;
//! `LearnerHandler.run`; `Learner.registerWithLeader`. F. Junqueira,
//! B. Reed, M. Serafini, "Zab: High-performance broadcast for
//! primary-backup systems", DSN 2011, phase 1, Discovery; A. Medeiros,
//! "ZooKeeper's atomic broadcast protocol: Theory and practice", 2012, on
//! the accepted and current epochs that ZOOKEEPER-335 added).
//!
//! Every server keeps on disk (it survives a crash) its *accepted epoch*
//! (the highest epoch it promised to a prospective leader; the paper's
//! f.p, ZooKeeper's `acceptedEpoch`), its *current epoch* (the epoch of the
//! last leader it took its history from; f.a, `currentEpoch`) and its
//! *last zxid* (the id of its latest transaction: epoch in the high 32 bits,
//! a counter in the low 32; shown as `epoch:counter`). In memory it keeps a
//! logical clock, the election *round* (lost on a crash, as in ZooKeeper).
//!
//! Fast Leader Election, as simulated here:
//! - A server that starts, recovers, or loses its leader becomes LOOKING:
//!   it increments its round, votes for itself with (current epoch, last
//!   zxid, id) and sends a `NOTIFICATION` (vote, round, state LOOKING) to
//!   every other server.
//! - Votes are ordered by (epoch, zxid, id): the newer epoch first, then
//!   the higher zxid, then the higher id (FLE's `totalOrderPredicate`).
//! - A LOOKING server that receives a notification from a LOOKING peer:
//!   from a later round, jumps to that round, forgets the votes it holds
//!   and votes for the better of its own initial vote and the peer's, and
//!   tells everyone; from the same round, adopts the peer's vote if it is
//!   better and tells everyone; from an earlier round, answers the sender
//!   with its own vote (FLE's `WorkerReceiver` does this so a laggard
//!   catches up) and otherwise ignores it. It records the latest vote of
//!   every peer of its round. One addition: a peer of its round that sends
//!   again the same vote, worse than its own, evidently never got its
//!   vote, and is answered with it. FLE runs over TCP, which loses nothing
//!   on a live connection and re-sends the last message on a new one;
//!   this simulator's links lose messages, and without the answer two
//!   servers can wait for each other forever (the one with the better vote
//!   never resends, because the other's resends keep its resend timer
//!   from firing). It costs a message only when the same vote comes twice
//!   (a resend, or an answer to a laggard crossing that laggard's own
//!   broadcast); the all-start counts below never meet it.
//! - Once a quorum (a majority of n, itself included) of recorded votes
//!   equals its own, it waits the *finalize wait* for a better vote. A
//!   better vote ends the wait and is handled as above; votes that are not
//!   better are recorded and change nothing. When the wait ends quietly,
//!   the round is decided: the proposed leader becomes LEADING, the others
//!   FOLLOWING.
//! - A LOOKING server that hears no notification for a while sends its vote
//!   to everyone again; the wait starts at the finalize wait and doubles
//!   each time, up to a cap (FLE's `notTimeout` and
//!   `maxNotificationInterval`).
//! - FOLLOWING and LEADING servers answer every notification from a
//!   LOOKING peer with the vote they decided on (its round and their state).
//!   Once a follower takes the leader's epoch (it accepts `LEADERINFO`) and
//!   once the leader is established, that vote names the new epoch, not
//!   the epoch the leader had when the round was decided (ZooKeeper's
//!   `QuorumPeer.updateElectionVote`, ZOOKEEPER-1732; the zxid and round
//!   stay those of the decision). Without it, servers that decided for
//!   the same leader in different elections (the leader's epoch before one
//!   of them and after it) answer with different epochs, even the leader's
//!   own answer may match none of them, the answers never add up to a
//!   quorum, and a LOOKING server stays out for good.
//!   A LOOKING server that collects such answers follows their leader once
//!   a quorum of them name the same leader and epoch and the leader itself
//!   answered LEADING (FLE's `ooePredicate` and `checkLeader`); this is how
//!   a late joiner, a recovered server or a healed minority finds the
//!   leader. A server whose followers still name it after it stepped down
//!   does not take that as a mandate: its round has moved on.
//!
//! Zab discovery (phase 1), with ZooKeeper's messages:
//! - A follower connects to the server it decided for and sends
//!   `FOLLOWERINFO` with its accepted epoch (`registerWithLeader`; the
//!   paper's CEPOCH). Connections that arrive while that server is still
//!   LOOKING wait (a TCP accept backlog).
//! - The prospective leader collects the accepted epochs of the followers
//!   that connect, its own included, until a quorum (itself included) has
//!   connected (`Leader.lead` -> `getEpochToPropose`): it proposes the
//!   epoch one above the highest of them, persists it as its own accepted
//!   epoch (its promise to itself, the checker's vote) and sends it in
//!   `LEADERINFO` (the paper's NEWEPOCH) to every connected follower. A
//!   follower that connects later gets the same epoch: the choice is made.
//! - A follower compares that epoch with its accepted epoch
//!   (`registerWithLeader`). Above it: it persists it as its accepted
//!   epoch and answers `ACKEPOCH` with its current epoch, a new promise
//!   (the checker's one vote per node per term). Equal to it: `ACKEPOCH`
//!   with -1, "already accepted", no new promise. Below it: it refuses
//!   that leader and looks again (ZooKeeper throws "Leaders epoch ... is
//!   less than accepted epoch").
//! - The leader is established, and only then announced as leader (term =
//!   the new epoch), once a quorum (itself included) sent a new promise
//!   (`waitForEpochAck` counts the ACKEPOCHs that are not -1); it then
//!   persists the epoch as its current epoch. Until then it shows as a
//!   candidate: the leader of an epoch is the one a quorum promised it
//!   to, so two servers can never both lead one epoch. A prospective
//!   leader that is not established within a failure-detection timeout
//!   looks again (`getEpochToPropose` and `waitForEpochAck` give up after
//!   `initLimit`).
//! - A follower can connect with an accepted epoch above the epoch its
//!   leader already chose: it promised that epoch to a prospective leader
//!   that reached its quorum of `FOLLOWERINFO` but was never established,
//!   or it was that prospective leader itself (its `LEADERINFO` lost to a
//!   cut), while the others elected a leader whose discovery quorum left
//!   it out and so chose a lower epoch. ZooKeeper's leader sends
//!   `LEADERINFO` anyway; the follower refuses it, looks, learns the same
//!   leader from the answers of its followers, connects and is refused
//!   again, for as long as that leader keeps its quorum (fuzz seed 51553:
//!   1,418 elections in 60 s, never settled). The one addition here: the
//!   leader reads the follower's accepted epoch in `FOLLOWERINFO` (as
//!   `LearnerHandler` does), sends `LEADERINFO` as ZooKeeper does, then
//!   takes that promise as its own accepted epoch (`getEpochToPropose`'s
//!   `lastAcceptedEpoch >= epoch` rule, applied late) and looks again.
//!   Raising an accepted epoch is always safe: it only refuses more. Its
//!   followers notice within a failure-detection timeout; the next
//!   discovery proposes above the promise if its quorum includes a server
//!   that holds it, and otherwise one more leader gives up and takes it, so
//!   once the faults are over a promise costs at most ceil(n/2) - 1 such
//!   elections (then every quorum includes a holder).
//! - Synchronization (`NEWLEADER`/`ACK`/`UPTODATE`) is not simulated: the
//!   follower takes the leader's history when it accepts the epoch (its
//!   current epoch becomes the new epoch, its last zxid the leader's, which
//!   `LEADERINFO` carries here for that purpose); so is the leader's check
//!   that no follower is ahead of it (`waitForEpochAck`).
//!
//! Broadcast and failure detection (background): the established leader
//! writes to the fenced resource every `timing.write_ms` with token = its
//! epoch, and counts each write as a transaction (zxid counter + 1). It
//! sends `PING` with its last zxid every `heartbeat_ms` to its followers;
//! they take that zxid as theirs (it stands for the proposals and commits,
//! which are not simulated one by one) and answer `PING_REPLY`. A follower
//! that hears nothing from its leader for a timeout drawn from
//! `election_timeout_ms` looks for a leader. On every tick the leader
//! counts the followers heard from within the lower end of
//! `election_timeout_ms` (ZooKeeper's `syncLimit`); without a quorum it
//! steps down and looks (so a leader cut off in a minority stops leading).
//! A leader that finds a write overdue on a tick (it was paused) makes it
//! before it looks around: that is the stale write fencing exists for.
//!
//! Timing: finalize wait = the reply timeout (`timing.reply_timeout_ms`,
//! by default max(4 x largest latency, 50 ms)); FLE's 200 ms is tuned for
//! sub-millisecond LANs, and what the wait must cover is one more exchange
//! of notifications. The resend wait starts there and doubles up to twice
//! the upper end of `election_timeout_ms` (FLE caps it at 60 s, thirty
//! ZooKeeper ticks), so a healed minority rejoins within about a second by
//! default: each LOOKING server resends within one cap, and the first
//! answer from the majority brings it in.
//!
//! Costs, every server starting at once with equal epochs and zxids and a
//! fixed latency d: every server sends its own vote to n-1 peers; at time
//! d server i hears the votes of 0..n-1 in id order and adopts each higher
//! one, n-1-i times, re-sending each time; at 2d every vote it hears is no
//! better. NOTIFICATION = n(n-1) + (n-1) * n(n-1)/2 = n(n-1)(n+1)/2
//! (n = 3, 5, 7: 12, 60, 168). Discovery adds n-1 `FOLLOWERINFO`, n-1
//! `LEADERINFO`, n-1 `ACKEPOCH`.
//!
//! A recovered follower costs 2(n-1) + 3 election messages: its n-1
//! notifications, one answer from each of the others, and its
//! FOLLOWERINFO, LEADERINFO and ACKEPOCH. After a leader crash FLE may decide
//! for a server that then cannot gather its quorum (a late, better vote
//! pulled one of its voters away); the round is abandoned after a
//! failure-detection timeout, so recovery takes up to about three of them.
//!
//! What the page shows: a LOOKING server is a candidate in its accepted
//! epoch; a FOLLOWING server a follower in its accepted epoch (the new one
//! once it promised it); a prospective leader a candidate in the epoch it
//! proposed; an established leader the leader of its epoch. The epoch is
//! the term, a promise in `ACKEPOCH` (or the leader's own `LEADERINFO`) is
//! the vote of that term, so the checker's one leader per term and one
//! vote per term are Zab's own invariants. `elections` counts every time a
//! server becomes LOOKING. With `start: none` servers wait one
//! failure-detection timeout, then look; a server that has no leader yet
//! and hears a LOOKING peer joins its election at once.
//!
//! Observers (`"observers": k`, the last k servers): they follow the leader
//! but never vote or stand; every "quorum" and "everyone" above then means
//! the voters. Their rules and costs are in `zab/observers.rs`.
//!
//! Safety claimed: at most one established leader per epoch; epochs never
//! go back; a minority never elects. Liveness (what `election
//! fuzz-faults` checks): once the faults are over, every server follows
//! one leader, a server that promised a higher epoch included (see
//! discovery above). Known limitation: a paused leader keeps
//! believing it leads until it looks at its followers, so without fencing
//! its writes get through.
//!
//! Files: `election.rs` holds FastLeaderElection (`lookForLeader`: votes,
//! rounds and the quorum that decides; start there); `discovery.rs` Zab
//! phase 1 after the election (epochs proposed, promised and
//! established) and the leader's pings and writes; `rules.rs` the
//! handlers of messages and timers; `observers.rs` the observers, who
//! follow without voting; `messages.rs` the votes and messages and their
//! kinds; `inspect.rs` how a server looks in the inspector; `tests.rs`
//! the command-level tests. This file holds the entry and the state they
//! share.

mod discovery;
mod election;
mod inspect;
mod messages;
mod observers;
mod rules;
#[cfg(test)]
mod tests;

pub use messages::{Msg, Vote};

use crate::algorithms::extras::{Node, Participant, write_token_of_msg_write};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{CONSENSUS, Claim, Column, Growth, Why};
use crate::protocol::{Boot, Config, Ctx, Extra, NodeId, Protocol, Safety, TimerClass};
use crate::time::Micros;
use crate::vec_map::VecMap;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "NOTIFICATION",
    "FOLLOWERINFO",
    "LEADERINFO",
    "ACKEPOCH",
    "PING",
    "PING_REPLY",
    "WRITE",
    "OBSERVERINFO",
];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "zab",
    name: "ZooKeeper fast leader election (Zab)",
    summary: "Apache ZooKeeper FastLeaderElection and Zab discovery (Junqueira et al., DSN 2011): votes ordered by (epoch, zxid, id) spread until a quorum agrees; the winner leads once a quorum promises it a new epoch, the fencing token of its writes",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: Zab::EXTRAS,
    observers: Observers::Supported,
    takes_script: false,
    claims: Zab::SAFETY,
    builder: Some(engine::<Zab>),
    theory: None,
    tradeoff: Some(Claim {
        why: &[
            Why {
                column: Column::FirstGrowth,
                measured: Some(Growth::Quadratic),
                text: "ZooKeeper's fast leader election floods notifications: every server sends its vote to all the others, and again each time it adopts a better one. With equal zxids that is n(n - 1)(n + 1)/2 messages (core/tests/zab.rs), so the first election grows faster even than n squared (slope about 3), the steepest law the table fits.",
            },
            Why {
                column: Column::FailoverGrowth,
                measured: Some(Growth::Quadratic),
                text: "The failover floods notifications too: each remaining server sends its vote to all the others, and again on every better vote it hears, so it grows faster than n.",
            },
        ],
        ..CONSENSUS
    }),
};

/// A zxid from its epoch and counter.
pub fn zxid(epoch: u64, counter: u64) -> u64 {
    (epoch << 32) | (counter & 0xffff_ffff)
}

/// `epoch:counter`, the way this module writes a zxid.
pub fn zxid_text(z: u64) -> String {
    format!("{}:{}", z >> 32, z & 0xffff_ffff)
}

/// FLE's server states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServerState {
    /// Looking for a leader.
    Looking,
    /// Following a leader (or, before any election, waiting for one).
    Following,
    /// Leading (established or still gathering its quorum).
    Leading,
}

impl ServerState {
    fn name(self) -> &'static str {
        match self {
            ServerState::Looking => "LOOKING",
            ServerState::Following => "FOLLOWING",
            ServerState::Leading => "LEADING",
        }
    }
}

/// Zab timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// LOOKING: no notification for a while; send the vote again.
    NotifyTimeout,
    /// LOOKING: a quorum agrees; decide unless a better vote comes.
    FinalizeWait,
    /// FOLLOWING: no LEADERINFO or PING from the leader for too long.
    LeaderTimeout,
    /// Prospective leader: not established in time.
    Establish,
    /// Leader: ping followers and check the quorum.
    Heartbeat,
    /// Leader: write to the resource.
    Write,
}

/// What survives a crash.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stored {
    /// Highest epoch promised to a prospective leader.
    pub accepted_epoch: u64,
    /// Epoch of the leader this server last took its history from.
    pub current_epoch: u64,
    /// Latest transaction id.
    pub last_zxid: u64,
}

/// A recorded vote with its round and the sender's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ballot {
    vote: Vote,
    round: u64,
    state: ServerState,
}

impl Ballot {
    /// FLE's `Vote.equals`: votes of LOOKING servers match in every field
    /// and round; the answers of FOLLOWING/LEADING servers match on leader
    /// and epoch.
    fn agrees(&self, other: &Ballot) -> bool {
        if self.state == ServerState::Looking || other.state == ServerState::Looking {
            self.vote == other.vote && self.round == other.round
        } else {
            self.vote.leader == other.vote.leader && self.vote.epoch == other.vote.epoch
        }
    }
}

/// A follower as its leader sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Learner {
    accepted_epoch: u64,
    /// Sent any ACKEPOCH for the proposed epoch.
    acked: bool,
    /// Sent a fresh ACKEPOCH (a new promise): counts for establishment.
    fresh: bool,
    /// Local time it was last heard from.
    heard_us: i64,
    /// An observer: follows, never counts toward a quorum.
    observer: bool,
}

/// One ZooKeeper server.
#[derive(Debug, Clone)]
pub struct Server {
    id: NodeId,
    n: u32,
    /// Voting servers: ids `0..voters`; the rest are observers.
    voters: u32,
    stored: Stored,
    state: ServerState,
    /// FLE's logical clock.
    round: u64,
    proposal: Vote,
    /// Votes of the current round, by sender (itself included).
    recv: VecMap<NodeId, Ballot>,
    /// Answers of FOLLOWING/LEADING servers, by sender.
    out_of_election: VecMap<NodeId, Ballot>,
    notify_wait_us: Micros,
    finalizing: bool,
    /// The vote this server decided on; its answer to LOOKING peers.
    decided: Option<Ballot>,
    leader: Option<NodeId>,
    /// Prospective leader: the epoch it proposed.
    proposed_epoch: Option<u64>,
    established: bool,
    learners: VecMap<NodeId, Learner>,
    /// Follower: accepted the leader's epoch (took its history).
    synced: bool,
    /// Leader: transactions in its epoch.
    txns: u64,
    /// Leader: local time of the next write.
    next_write_us: i64,
    /// Local time it last heard its leader (follower).
    heard_leader_us: i64,
    elections_started: u64,
    resource: Option<NodeId>,
    /// Voter: observers that asked who leads while it had not decided;
    /// answered when it decides (see the module docs, Observers).
    waiting: Vec<NodeId>,
}

/// A node: a ZooKeeper server or the fenced resource.
pub type Zab = Node<Server>;

type C<'a> = Ctx<'a, Msg, Timer>;

fn finalize_wait(config: &Config) -> Micros {
    config.reply_timeout_us
}

fn notify_cap(config: &Config) -> Micros {
    (2 * config.election_timeout_us.1).max(finalize_wait(config))
}

fn ms(us: Micros) -> String {
    crate::time::to_ms(us).to_string()
}

/// The work is done by the inherent methods of the same names above.
impl Protocol for Server {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = Stored;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;
    const EXTRAS: &'static [Extra] = &[Extra::Resource];

    fn new(id: NodeId, config: &Config, stored: &Stored) -> Self {
        Server::new(id, config, *stored)
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        Server::on_start(self, ctx, boot);
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        Server::on_message(self, ctx, from, msg);
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        Server::on_timer(self, ctx, timer);
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // The vote is sent again, the wait doubling (FLE's back-off).
            Timer::NotifyTimeout => TimerClass::Retry,
            // A better vote may still come (finalize wait); a quorum of
            // followers must connect and promise the epoch (establish).
            Timer::FinalizeWait | Timer::Establish => TimerClass::ReplyWait,
            Timer::LeaderTimeout => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
            Timer::Write => TimerClass::Write,
        }
    }

    fn persistent(&self) -> Stored {
        self.stored
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        Server::inspect(self)
    }
}

/// The resource takes the leader's `WRITE`s.
impl Participant for Server {
    write_token_of_msg_write!();
}
