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

mod observers;

use super::detector::leader_timeout;
use super::extras::{Node, Participant};
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Extra, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::time::Micros;
use crate::vec_map::VecMap;
use std::fmt;

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

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "zab",
    name: "ZooKeeper fast leader election (Zab)",
    summary: "Apache ZooKeeper FastLeaderElection and Zab discovery (Junqueira et al., DSN 2011): votes ordered by (epoch, zxid, id) spread until a quorum agrees; the winner leads once a quorum promises it a new epoch, the fencing token of its writes",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: Zab::EXTRAS,
    claims: Zab::SAFETY,
    builder: Some(engine::<Zab>),
    theory: None,
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

/// A vote: the proposed leader and the epoch and zxid that rank it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vote {
    /// Proposed leader.
    pub leader: NodeId,
    /// Its last zxid.
    pub zxid: u64,
    /// Its current epoch.
    pub epoch: u64,
}

impl Vote {
    /// FLE's total order (`totalOrderPredicate`): newer epoch, then higher
    /// zxid, then higher id.
    pub fn beats(&self, other: &Vote) -> bool {
        (self.epoch, self.zxid, self.leader) > (other.epoch, other.zxid, other.leader)
    }
}

impl fmt::Display for Vote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "n{} (epoch {}, zxid {})",
            self.leader,
            self.epoch,
            zxid_text(self.zxid)
        )
    }
}

/// Zab messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// FLE: the sender's vote, its round and its state.
    Notification {
        /// The vote.
        vote: Vote,
        /// The sender's round (logical clock), or for a FOLLOWING/LEADING
        /// sender the round it decided in.
        round: u64,
        /// The sender's state.
        state: ServerState,
    },
    /// Follower to leader (`FOLLOWERINFO`, the paper's CEPOCH): "I follow
    /// you; the highest epoch I promised".
    FollowerInfo {
        /// The follower's accepted epoch.
        accepted_epoch: u64,
    },
    /// Leader to follower (`LEADERINFO`, the paper's NEWEPOCH): the epoch
    /// it chose, and its history.
    LeaderInfo {
        /// The proposed epoch.
        epoch: u64,
        /// The leader's last zxid: the history the follower takes, standing
        /// for the synchronization that is not simulated.
        zxid: u64,
    },
    /// Follower to leader (`ACKEPOCH`, the paper's ACK-E): epoch accepted.
    AckEpoch {
        /// The epoch acknowledged (ZooKeeper knows it from the connection).
        epoch: u64,
        /// A new promise: the follower's current epoch before it took the
        /// new one. `None` (ZooKeeper's -1): it had already accepted this
        /// epoch, and the answer is no new promise.
        current_epoch: Option<u64>,
    },
    /// Leader to follower: alive, with its last zxid (background).
    Ping {
        /// The leader's last zxid.
        zxid: u64,
    },
    /// Follower to leader: still here (background).
    PingReply,
    /// Leader to the resource, with its epoch as fencing token
    /// (background).
    Write {
        /// The fencing token.
        token: u64,
    },
    /// Observer to leader (`OBSERVERINFO`): "I observe you". An observer
    /// promises nothing, so it carries no epoch.
    ObserverInfo,
}

impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Notification { vote, round, state } => {
                write!(
                    f,
                    "Notification(vote {vote}, round {round}, {})",
                    state.name()
                )
            }
            Msg::FollowerInfo { accepted_epoch } => {
                write!(f, "FollowerInfo(accepted epoch {accepted_epoch})")
            }
            Msg::LeaderInfo { epoch, zxid } => {
                write!(
                    f,
                    "LeaderInfo(epoch {epoch}, history to {})",
                    zxid_text(*zxid)
                )
            }
            Msg::AckEpoch {
                epoch,
                current_epoch: Some(current),
            } => write!(f, "AckEpoch(epoch {epoch}, current epoch was {current})"),
            Msg::AckEpoch {
                epoch,
                current_epoch: None,
            } => {
                write!(f, "AckEpoch(epoch {epoch}, already accepted)")
            }
            Msg::Ping { zxid } => write!(f, "Ping(zxid {})", zxid_text(*zxid)),
            Msg::PingReply => write!(f, "PingReply"),
            Msg::Write { token } => write!(f, "Write(token {token})"),
            Msg::ObserverInfo => write!(f, "ObserverInfo"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Notification { .. } => 0,
            Msg::FollowerInfo { .. } => 1,
            Msg::LeaderInfo { .. } => 2,
            Msg::AckEpoch { .. } => 3,
            Msg::Ping { .. } => 4,
            Msg::PingReply => 5,
            Msg::Write { .. } => 6,
            Msg::ObserverInfo => 7,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Ping { .. } | Msg::PingReply | Msg::Write { .. } => Purpose::Background,
            _ => Purpose::Election,
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

impl Server {
    fn new(id: NodeId, config: &Config, stored: Stored) -> Self {
        let own = Vote {
            leader: id,
            zxid: stored.last_zxid,
            epoch: stored.current_epoch,
        };
        Self {
            id,
            n: config.n,
            voters: config.n.saturating_sub(config.options.observers).max(1),
            stored,
            state: ServerState::Following,
            round: 0,
            proposal: own,
            recv: VecMap::new(),
            out_of_election: VecMap::new(),
            notify_wait_us: finalize_wait(config),
            finalizing: false,
            decided: None,
            leader: None,
            proposed_epoch: None,
            established: false,
            learners: VecMap::new(),
            synced: false,
            txns: 0,
            next_write_us: 0,
            heard_leader_us: 0,
            elections_started: 0,
            resource: config.resource,
            waiting: Vec::new(),
        }
    }

    /// A majority of the voters (observers never count).
    fn quorum(&self) -> usize {
        self.voters as usize / 2 + 1
    }

    /// Whether `id` is an observer (one of the last `observers` ids).
    fn is_observer(&self, id: NodeId) -> bool {
        id >= self.voters
    }

    /// Whether this server is an observer.
    fn observer(&self) -> bool {
        self.is_observer(self.id)
    }

    /// The learners that count toward a quorum (observers do not).
    fn voting_learners(&self) -> impl Iterator<Item = &Learner> {
        self.learners.values().filter(|l| !l.observer)
    }

    fn own_vote(&self) -> Vote {
        Vote {
            leader: self.id,
            zxid: self.stored.last_zxid,
            epoch: self.stored.current_epoch,
        }
    }

    fn ballot(&self) -> Ballot {
        Ballot {
            vote: self.proposal,
            round: self.round,
            state: ServerState::Looking,
        }
    }

    fn notification(&self) -> Msg {
        Msg::Notification {
            vote: self.proposal,
            round: self.round,
            state: ServerState::Looking,
        }
    }

    /// Sends its vote to every other voter (observers are never sent
    /// votes; without observers, every other server).
    fn broadcast(&self, ctx: &mut C<'_>) {
        let msg = self.notification();
        for peer in (0..self.voters).filter(|&p| p != self.id) {
            ctx.send(peer, msg);
        }
    }

    /// FLE's `lookForLeader`: a new round, a vote for itself, sent to all.
    fn look_for_leader(&mut self, ctx: &mut C<'_>) {
        if self.observer() {
            self.ask_who_leads(ctx);
            return;
        }
        self.state = ServerState::Looking;
        self.round += 1;
        self.proposal = self.own_vote();
        self.recv.clear();
        self.recv.insert(self.id, self.ballot());
        self.out_of_election.clear();
        self.notify_wait_us = finalize_wait(ctx.config());
        self.finalizing = false;
        self.decided = None;
        self.leader = None;
        self.proposed_epoch = None;
        self.established = false;
        self.learners.clear();
        self.synced = false;
        self.elections_started += 1;
        for t in [
            Timer::FinalizeWait,
            Timer::LeaderTimeout,
            Timer::Establish,
            Timer::Heartbeat,
            Timer::Write,
        ] {
            ctx.cancel_timer(t);
        }
        ctx.election_started();
        ctx.set_role(Role::Candidate, Some(self.stored.accepted_epoch));
        ctx.set_leader(None);
        ctx.note_with(|| {
            format!(
                "LOOKING in round {}: votes for itself, {}, and tells everyone",
                self.round, self.proposal
            )
        });
        self.broadcast(ctx);
        ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
        self.check_votes(ctx);
    }

    /// Starts the finalize wait once a quorum of this round's votes equals
    /// its own (FLE's `termPredicate`).
    fn check_votes(&mut self, ctx: &mut C<'_>) {
        if self.finalizing {
            return;
        }
        let mine = self.ballot();
        let agree = self.recv.values().filter(|b| b.agrees(&mine)).count();
        if agree >= self.quorum() {
            self.finalizing = true;
            let wait = finalize_wait(ctx.config());
            ctx.cancel_timer(Timer::NotifyTimeout);
            ctx.set_timer(Timer::FinalizeWait, wait);
            ctx.note_with(|| {
                format!(
                    "{agree} of {} votes in round {} are for n{}, a quorum; waits {} ms for a better vote before deciding",
                    self.voters,
                    self.round,
                    self.proposal.leader,
                    ms(wait)
                )
            });
        }
    }

    fn on_notification(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        if self.observer() {
            self.observer_hears(ctx, from, peer);
            return;
        }
        if self.is_observer(from) {
            self.observer_asks(ctx, from);
            return;
        }
        if self.state != ServerState::Looking {
            if peer.state != ServerState::Looking {
                return;
            }
            match self.decided {
                Some(d) => {
                    ctx.note_with(|| {
                        format!(
                            "n{from} is LOOKING; answers with the vote it decided in round {}: n{} leads",
                            d.round, d.vote.leader
                        )
                    });
                    ctx.send(
                        from,
                        Msg::Notification {
                            vote: d.vote,
                            round: d.round,
                            state: self.state,
                        },
                    );
                    return;
                }
                None => {
                    ctx.note_with(|| format!("hears n{from} looking for a leader; joins in"));
                    self.look_for_leader(ctx);
                }
            }
        }
        if peer.state == ServerState::Looking && peer.round < self.round {
            ctx.note_with(|| {
                format!(
                    "n{from} is still in round {}; answers with its own vote (round {})",
                    peer.round, self.round
                )
            });
            ctx.send(from, self.notification());
            return;
        }
        if self.finalizing {
            if !peer.vote.beats(&self.proposal) {
                if peer.state == ServerState::Looking && peer.round == self.round {
                    self.recv.insert(from, peer);
                }
                return;
            }
            self.finalizing = false;
            ctx.cancel_timer(Timer::FinalizeWait);
            ctx.note_with(|| {
                format!(
                    "a better vote, {}, arrives during the finalize wait",
                    peer.vote
                )
            });
        }
        ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
        if peer.state == ServerState::Looking {
            self.on_looking_vote(ctx, from, peer);
        } else {
            self.on_decided_vote(ctx, from, peer);
        }
    }

    fn on_looking_vote(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        if peer.round > self.round {
            self.round = peer.round;
            self.recv.clear();
            let own = self.own_vote();
            self.proposal = if peer.vote.beats(&own) {
                peer.vote
            } else {
                own
            };
            ctx.note_with(|| {
                format!(
                    "n{from} is in a later round, {}: jumps to it, votes for {} and tells everyone",
                    self.round, self.proposal
                )
            });
            self.broadcast(ctx);
        } else if peer.vote.beats(&self.proposal) {
            self.proposal = peer.vote;
            ctx.note_with(|| {
                format!(
                    "n{from}'s vote for {} beats its own: adopts it and tells everyone",
                    peer.vote
                )
            });
            self.broadcast(ctx);
        } else if self.recv.get(&from) == Some(&peer) && self.proposal.beats(&peer.vote) {
            // A resend of a worse vote: the peer never got ours.
            ctx.note_with(|| {
                format!(
                    "n{from} sends its vote for {} again, as if it never heard the better {}: answers it",
                    peer.vote, self.proposal
                )
            });
            ctx.send(from, self.notification());
        }
        self.recv.insert(self.id, self.ballot());
        self.recv.insert(from, peer);
        self.check_votes(ctx);
    }

    /// An answer from a FOLLOWING or LEADING server (FLE's
    /// `ooePredicate`).
    fn on_decided_vote(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        let q = self.quorum();
        if peer.round == self.round {
            self.recv.insert(from, peer);
            let agree = self.recv.values().filter(|b| b.agrees(&peer)).count();
            if agree >= q && self.leader_confirmed(peer.vote.leader, peer.round) {
                self.decide(ctx, peer);
                return;
            }
        }
        self.out_of_election.insert(from, peer);
        let agree = self
            .out_of_election
            .values()
            .filter(|b| b.agrees(&peer))
            .count();
        if agree >= q && self.leader_confirmed(peer.vote.leader, peer.round) {
            ctx.note_with(|| {
                format!(
                    "{agree} servers answered that they decided for n{} in round {}, and n{} itself answered LEADING: joins them",
                    peer.vote.leader, peer.round, peer.vote.leader
                )
            });
            self.round = peer.round;
            self.decide(ctx, peer);
        }
    }

    /// FLE's `checkLeader`: another leader must have answered LEADING
    /// itself; this server may take a mandate for itself only in the round
    /// it is in.
    fn leader_confirmed(&self, leader: NodeId, round: u64) -> bool {
        if leader == self.id {
            self.round == round
        } else {
            self.out_of_election
                .get(&leader)
                .is_some_and(|b| b.state == ServerState::Leading)
        }
    }

    /// The round is over: lead or follow the winner.
    fn decide(&mut self, ctx: &mut C<'_>, ballot: Ballot) {
        self.finalizing = false;
        ctx.cancel_timer(Timer::FinalizeWait);
        ctx.cancel_timer(Timer::NotifyTimeout);
        self.recv.clear();
        self.out_of_election.clear();
        self.decided = Some(Ballot {
            vote: ballot.vote,
            round: ballot.round,
            state: ServerState::Looking,
        });
        if ballot.vote.leader == self.id {
            self.lead(ctx);
        } else {
            self.follow(ctx, ballot.vote.leader);
        }
        self.answer_waiting(ctx);
    }

    /// ZooKeeper's `QuorumPeer.updateElectionVote` (ZOOKEEPER-1732): once
    /// this server takes part in the epoch its leader established, the
    /// vote it answers LOOKING peers with names that epoch, not the one
    /// the leader had when the round was decided. Otherwise the answers of
    /// servers that decided in different rounds (or before the leader
    /// moved to a new epoch without a new election round for all of them)
    /// name different epochs and never add up to a quorum.
    fn update_election_vote(&mut self, epoch: u64) {
        if let Some(d) = &mut self.decided {
            d.vote.epoch = epoch;
        }
    }

    fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.state = ServerState::Following;
        self.leader = Some(leader);
        self.synced = false;
        self.learners.clear();
        self.proposed_epoch = None;
        self.established = false;
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Follower, Some(self.stored.accepted_epoch));
        ctx.set_leader(Some(leader));
        ctx.note_with(|| {
            format!(
                "decides in round {}: n{leader} leads; FOLLOWING, connects to it with its accepted epoch {}",
                self.round, self.stored.accepted_epoch
            )
        });
        ctx.send(
            leader,
            Msg::FollowerInfo {
                accepted_epoch: self.stored.accepted_epoch,
            },
        );
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    fn lead(&mut self, ctx: &mut C<'_>) {
        self.state = ServerState::Leading;
        self.leader = Some(self.id);
        self.established = false;
        self.proposed_epoch = None;
        ctx.note_with(|| {
            format!(
                "decides in round {}: it leads; LEADING, waits for a quorum of followers to connect",
                self.round
            )
        });
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Establish, t);
        self.try_propose_epoch(ctx);
    }

    /// With a quorum connected, proposes the epoch above every accepted
    /// epoch it heard.
    fn try_propose_epoch(&mut self, ctx: &mut C<'_>) {
        let connected = self.voting_learners().count() + 1;
        if self.proposed_epoch.is_some() || connected < self.quorum() {
            return;
        }
        let highest = self
            .voting_learners()
            .map(|l| l.accepted_epoch)
            .max()
            .unwrap_or(0)
            .max(self.stored.accepted_epoch);
        let epoch = highest + 1;
        self.stored.accepted_epoch = epoch;
        self.proposed_epoch = Some(epoch);
        ctx.vote(epoch, self.id);
        ctx.set_role(Role::Candidate, Some(epoch));
        ctx.note_with(|| {
            format!(
                "{connected} of {} connected (itself included): proposes epoch {epoch}, one above the highest accepted epoch {highest}",
                self.voters
            )
        });
        let msg = Msg::LeaderInfo {
            epoch,
            zxid: self.stored.last_zxid,
        };
        let followers: Vec<NodeId> = self.learners.keys().copied().collect();
        for f in followers {
            ctx.send(f, msg);
        }
        self.check_established(ctx);
    }

    fn check_established(&mut self, ctx: &mut C<'_>) {
        let Some(epoch) = self.proposed_epoch else {
            return;
        };
        let promises = 1 + self.voting_learners().filter(|l| l.fresh).count();
        if self.established || promises < self.quorum() {
            return;
        }
        self.established = true;
        self.stored.current_epoch = epoch;
        self.update_election_vote(epoch);
        self.txns = 0;
        ctx.cancel_timer(Timer::Establish);
        ctx.set_role(Role::Leader, Some(epoch));
        ctx.set_leader(Some(self.id));
        let period = ctx.config().heartbeat_us;
        ctx.note_with(|| {
            format!(
                "{promises} of {} promised epoch {epoch} (itself included): leads epoch {epoch}; pings its followers every {} ms",
                self.voters,
                ms(period)
            )
        });
        ctx.set_timer(Timer::Heartbeat, period);
        if self.resource.is_some() {
            let every = ctx.config().timing.write_us;
            self.next_write_us = ctx.local_now_us() + every as i64;
            ctx.set_timer(Timer::Write, every);
        }
    }

    fn on_follower_info(&mut self, ctx: &mut C<'_>, from: NodeId, accepted_epoch: u64) {
        if self.state == ServerState::Following {
            return; // not leading: the connection is refused
        }
        let now = ctx.local_now_us();
        let learner = self.learners.get_or_insert(
            from,
            Learner {
                accepted_epoch,
                acked: false,
                fresh: false,
                heard_us: now,
                observer: false,
            },
        );
        learner.accepted_epoch = accepted_epoch;
        learner.heard_us = now;
        if self.state == ServerState::Looking {
            ctx.note_with(|| {
                format!(
                    "n{from} connects to follow it; still LOOKING, it keeps the connection waiting"
                )
            });
            return;
        }
        match self.proposed_epoch {
            // ZooKeeper's `getEpochToPropose` once the epoch is chosen: a
            // latecomer gets the same epoch.
            Some(epoch) => {
                ctx.send(
                    from,
                    Msg::LeaderInfo {
                        epoch,
                        zxid: self.stored.last_zxid,
                    },
                );
                if accepted_epoch > epoch {
                    self.give_up_epoch(ctx, from, epoch, accepted_epoch);
                }
            }
            None => self.try_propose_epoch(ctx),
        }
    }

    /// A follower connected with an accepted epoch above the epoch this
    /// leader proposed: it will refuse the `LEADERINFO` just sent
    /// (`Learner.registerWithLeader`), and again on every later try, for as
    /// long as this epoch lasts. ZooKeeper keeps leading without it; here
    /// the leader takes that promise as its own accepted epoch (the rule of
    /// `getEpochToPropose`, `lastAcceptedEpoch >= epoch`, applied late) and
    /// looks again, so that the next discovery proposes above it.
    fn give_up_epoch(&mut self, ctx: &mut C<'_>, from: NodeId, epoch: u64, promised: u64) {
        self.stored.accepted_epoch = promised;
        ctx.note_with(|| {
            format!(
                "n{from} already promised epoch {promised}, above its epoch {epoch}, and cannot follow it: takes {promised} as its accepted epoch and looks again, for an epoch above it"
            )
        });
        self.look_for_leader(ctx);
    }

    fn on_leader_info(&mut self, ctx: &mut C<'_>, from: NodeId, epoch: u64, zxid: u64) {
        if self.state != ServerState::Following || self.leader != Some(from) {
            return;
        }
        if self.observer() {
            self.observer_takes_epoch(ctx, from, epoch, zxid);
            return;
        }
        let accepted = self.stored.accepted_epoch;
        let current_epoch = if epoch > accepted {
            self.stored.accepted_epoch = epoch;
            ctx.vote(epoch, from);
            Some(self.stored.current_epoch)
        } else if epoch == accepted {
            None
        } else {
            ctx.note_with(|| {
                format!(
                    "n{from} proposes epoch {epoch}, but it already promised epoch {accepted}: stops following"
                )
            });
            self.look_for_leader(ctx);
            return;
        };
        self.stored.current_epoch = epoch;
        self.stored.last_zxid = zxid;
        self.synced = true;
        self.update_election_vote(epoch);
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Follower, Some(epoch));
        ctx.note_with(|| {
            if current_epoch.is_some() {
                format!(
                    "promises epoch {epoch} to n{from} (it had promised {accepted}) and takes its history up to {}",
                    zxid_text(zxid)
                )
            } else {
                format!("already promised epoch {epoch}; acknowledges n{from} again")
            }
        });
        ctx.send(
            from,
            Msg::AckEpoch {
                epoch,
                current_epoch,
            },
        );
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    /// ZooKeeper's `waitForEpochAck`: only a new promise (a current epoch,
    /// not -1) counts toward the quorum.
    fn on_ack_epoch(&mut self, ctx: &mut C<'_>, from: NodeId, epoch: u64, fresh: bool) {
        if self.state != ServerState::Leading || self.proposed_epoch != Some(epoch) {
            return;
        }
        let now = ctx.local_now_us();
        if let Some(l) = self.learners.get_mut(&from) {
            l.acked = true;
            l.fresh |= fresh;
            l.heard_us = now;
        }
        self.check_established(ctx);
    }

    fn on_ping(&mut self, ctx: &mut C<'_>, from: NodeId, zxid: u64) {
        if self.state != ServerState::Following || self.leader != Some(from) {
            return;
        }
        if self.synced {
            self.stored.last_zxid = zxid;
        }
        self.heard_leader_us = ctx.local_now_us();
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
        ctx.send(from, Msg::PingReply);
    }

    fn write(&mut self, ctx: &mut C<'_>) {
        let (Some(resource), Some(epoch)) = (self.resource, self.proposed_epoch) else {
            return;
        };
        self.txns += 1;
        self.stored.last_zxid = zxid(epoch, self.txns);
        ctx.send(resource, Msg::Write { token: epoch });
        let every = ctx.config().timing.write_us;
        self.next_write_us = ctx.local_now_us() + every as i64;
        ctx.set_timer(Timer::Write, every);
    }

    fn tick(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        if self.resource.is_some() && now >= self.next_write_us {
            ctx.note("resumes with a write overdue and makes it before checking on its followers");
            self.write(ctx);
        }
        let limit = ctx.config().election_timeout_us.0 as i64;
        let heard = 1 + self
            .voting_learners()
            .filter(|l| l.acked && now - l.heard_us <= limit)
            .count();
        if heard < self.quorum() {
            ctx.note_with(|| {
                format!(
                    "heard from only {heard} of {} servers (itself included) in the last {} ms, no quorum: stops leading",
                    self.voters,
                    ms(limit as Micros)
                )
            });
            self.look_for_leader(ctx);
            return;
        }
        let msg = Msg::Ping {
            zxid: self.stored.last_zxid,
        };
        let followers: Vec<NodeId> = self.learners.keys().copied().collect();
        for f in followers {
            ctx.send(f, msg);
        }
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        match boot {
            Boot::Fresh { initiate: true } => self.look_for_leader(ctx),
            Boot::Fresh { initiate: false } => {
                self.state = ServerState::Following;
                ctx.set_role(self.following_role(), Some(self.stored.accepted_epoch));
                let t = leader_timeout(ctx);
                ctx.set_timer(Timer::LeaderTimeout, t);
            }
            Boot::Recover => {
                ctx.note_with(|| {
                    format!(
                        "recovers with accepted epoch {}, current epoch {}, last zxid {}; its round starts again",
                        self.stored.accepted_epoch,
                        self.stored.current_epoch,
                        zxid_text(self.stored.last_zxid)
                    )
                });
                self.look_for_leader(ctx);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Notification { vote, round, state } => {
                self.on_notification(ctx, from, Ballot { vote, round, state });
            }
            Msg::FollowerInfo { accepted_epoch } => {
                self.on_follower_info(ctx, from, accepted_epoch);
            }
            Msg::LeaderInfo { epoch, zxid } => self.on_leader_info(ctx, from, epoch, zxid),
            Msg::AckEpoch {
                epoch,
                current_epoch,
            } => self.on_ack_epoch(ctx, from, epoch, current_epoch.is_some()),
            Msg::Ping { zxid } => self.on_ping(ctx, from, zxid),
            Msg::PingReply => {
                if self.state == ServerState::Leading {
                    let now = ctx.local_now_us();
                    if let Some(l) = self.learners.get_mut(&from) {
                        l.heard_us = now;
                    }
                }
            }
            Msg::Write { .. } => {}
            Msg::ObserverInfo => self.on_observer_info(ctx, from),
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::NotifyTimeout if self.observer() => {
                if self.state == ServerState::Looking {
                    let wait = notify_cap(ctx.config());
                    ctx.note_with(|| {
                        format!(
                            "still knows no leader after {} ms: asks the voters again",
                            ms(wait)
                        )
                    });
                    self.ask_voters(ctx);
                }
            }
            Timer::NotifyTimeout => {
                if self.state == ServerState::Looking && !self.finalizing {
                    ctx.note_with(|| {
                        format!(
                            "no notification for {} ms: sends its vote for {} again",
                            ms(self.notify_wait_us),
                            self.proposal
                        )
                    });
                    self.broadcast(ctx);
                    self.notify_wait_us = (self.notify_wait_us * 2).min(notify_cap(ctx.config()));
                    ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
                }
            }
            Timer::FinalizeWait => {
                if self.state == ServerState::Looking && self.finalizing {
                    let ballot = self.ballot();
                    self.decide(ctx, ballot);
                }
            }
            Timer::LeaderTimeout => {
                if self.state == ServerState::Following {
                    match self.leader {
                        Some(l) => {
                            let quiet = ctx.local_now_us() - self.heard_leader_us;
                            ctx.note_with(|| {
                                format!(
                                    "heard nothing from leader n{l} for {} ms; presumes it gone",
                                    ms(quiet.max(0) as Micros)
                                )
                            });
                        }
                        None => ctx.note("knows no leader; looks for one"),
                    }
                    self.look_for_leader(ctx);
                }
            }
            Timer::Establish => {
                if self.state == ServerState::Leading && !self.established {
                    ctx.note("no quorum promised it a new epoch in time; looks again");
                    self.look_for_leader(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.state == ServerState::Leading && self.established {
                    self.tick(ctx);
                }
            }
            Timer::Write => {
                if self.state == ServerState::Leading && self.established {
                    self.write(ctx);
                }
            }
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<NodeId>| v.map_or("none".to_string(), |l| format!("n{l}"));
        let votes = |m: &VecMap<NodeId, Ballot>| {
            if m.is_empty() {
                return "none".to_string();
            }
            m.iter()
                .map(|(from, b)| {
                    format!("n{from}: {} round {} {}", b.vote, b.round, b.state.name())
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let learners = if self.learners.is_empty() {
            "none".to_string()
        } else {
            self.learners
                .iter()
                .map(|(id, l)| {
                    format!(
                        "n{id}: accepted {}, acked {}, fresh {}, heard at {} ms",
                        l.accepted_epoch,
                        l.acked,
                        l.fresh,
                        ms(l.heard_us.max(0) as Micros)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let ids = |v: &[NodeId]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|id| format!("n{id}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let mut fields = vec![
            ("state", self.state.name().to_string()),
            ("accepted epoch", self.stored.accepted_epoch.to_string()),
            ("current epoch", self.stored.current_epoch.to_string()),
            ("last zxid", zxid_text(self.stored.last_zxid)),
            ("round", self.round.to_string()),
            ("proposal", self.proposal.to_string()),
            ("votes this round", votes(&self.recv)),
            ("out-of-election answers", votes(&self.out_of_election)),
            ("resend wait", format!("{} ms", ms(self.notify_wait_us))),
            ("finalizing", self.finalizing.to_string()),
            (
                "decided",
                self.decided.map_or("none".to_string(), |b| {
                    format!("{} in round {}", b.vote, b.round)
                }),
            ),
            ("leader", opt(self.leader)),
            (
                "proposed epoch",
                self.proposed_epoch
                    .map_or("none".to_string(), |e| e.to_string()),
            ),
            ("established", self.established.to_string()),
            ("followers", learners),
            ("synced", self.synced.to_string()),
            ("transactions this epoch", self.txns.to_string()),
            (
                "next write at",
                format!("{} ms", ms(self.next_write_us.max(0) as Micros)),
            ),
            (
                "leader last heard at",
                format!("{} ms", ms(self.heard_leader_us.max(0) as Micros)),
            ),
            ("elections started", self.elections_started.to_string()),
            ("quorum", self.quorum().to_string()),
        ];
        if self.voters < self.n {
            fields.push((
                "membership",
                if self.observer() {
                    "observer (follows, does not vote)".to_string()
                } else {
                    format!("voter (n0 to n{} vote)", self.voters - 1)
                },
            ));
            fields.push(("observers waiting for an answer", ids(&self.waiting)));
        }
        fields
    }
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
    fn write_token(msg: &Msg) -> Option<u64> {
        match msg {
            Msg::Write { token } => Some(*token),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (rules of `FastLeaderElection`
    //! `lookForLeader` and Zab phase 1, Junqueira et al. 2011).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{config, ctx_commands, sends};

    /// Runs `f` on `s` with a fresh context and returns the commands.
    fn cmds(
        s: &mut Server,
        c: &Config,
        f: impl FnOnce(&mut Server, &mut C<'_>),
    ) -> Vec<Command<Msg, Timer>> {
        let id = s.id;
        ctx_commands(id, c, |ctx| f(s, ctx))
    }

    fn server(id: NodeId, n: u32) -> (Server, Config) {
        let c = config(n, "ascending");
        (Server::new(id, &c, Stored::default()), c)
    }

    fn vote(leader: NodeId, epoch: u64, counter: u64) -> Vote {
        Vote {
            leader,
            zxid: zxid(epoch, counter),
            epoch,
        }
    }

    fn looking(v: Vote, round: u64) -> Msg {
        Msg::Notification {
            vote: v,
            round,
            state: ServerState::Looking,
        }
    }

    fn roles(out: &[Command<Msg, Timer>]) -> Vec<(Role, Option<u64>)> {
        out.iter()
            .filter_map(|c| match c {
                Command::Role { role, term } => Some((*role, *term)),
                _ => None,
            })
            .collect()
    }

    fn votes(out: &[Command<Msg, Timer>]) -> Vec<(u64, NodeId)> {
        out.iter()
            .filter_map(|c| match c {
                Command::Vote { term, candidate } => Some((*term, *candidate)),
                _ => None,
            })
            .collect()
    }

    fn sets(out: &[Command<Msg, Timer>], timer: Timer) -> bool {
        out.iter()
            .any(|c| matches!(c, Command::SetTimer { timer: t, .. } if *t == timer))
    }

    /// A server of an n-node cluster, LOOKING in round 1.
    fn started(id: NodeId, n: u32) -> (Server, Config) {
        let (mut s, c) = server(id, n);
        cmds(&mut s, &c, |s, ctx| s.look_for_leader(ctx));
        (s, c)
    }

    #[test]
    fn votes_are_ordered_by_epoch_then_zxid_then_id() {
        assert!(vote(0, 2, 0).beats(&vote(9, 1, 50)), "newer epoch first");
        assert!(vote(0, 1, 6).beats(&vote(9, 1, 5)), "then the higher zxid");
        assert!(vote(9, 1, 5).beats(&vote(8, 1, 5)), "then the higher id");
        assert!(
            !vote(4, 1, 5).beats(&vote(4, 1, 5)),
            "a vote does not beat itself"
        );
    }

    #[test]
    fn looking_increments_the_round_and_sends_its_own_vote_to_everyone() {
        let (mut s, c) = server(1, 4);
        s.stored = Stored {
            accepted_epoch: 3,
            current_epoch: 2,
            last_zxid: zxid(2, 7),
        };
        let out = cmds(&mut s, &c, |s, ctx| s.look_for_leader(ctx));
        let own = looking(vote(1, 2, 7), 1);
        assert_eq!(sends(&out), vec![(0, own), (2, own), (3, own)]);
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(3))]);
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert!(sets(&out, Timer::NotifyTimeout));
        assert_eq!(s.round, 1);
    }

    #[test]
    fn a_better_vote_of_the_same_round_is_adopted_and_sent_to_everyone() {
        let (mut s, c) = started(0, 5);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 3, looking(vote(3, 0, 0), 1))
        });
        let adopted = looking(vote(3, 0, 0), 1);
        assert_eq!(
            sends(&out),
            vec![(1, adopted), (2, adopted), (3, adopted), (4, adopted)]
        );
        assert_eq!(s.proposal, vote(3, 0, 0));
    }

    #[test]
    fn a_worse_vote_is_recorded_and_answered_only_when_it_comes_again() {
        let (mut s, c) = started(3, 5);
        let worse = looking(vote(1, 0, 0), 1);
        let out = cmds(&mut s, &c, |s, ctx| s.on_message(ctx, 1, worse));
        assert!(sends(&out).is_empty(), "FLE stays silent: {out:?}");
        let out = cmds(&mut s, &c, |s, ctx| s.on_message(ctx, 1, worse));
        assert_eq!(sends(&out), vec![(1, looking(vote(3, 0, 0), 1))]);
    }

    #[test]
    fn a_later_round_is_joined_with_the_better_of_the_own_and_the_peer_vote() {
        let (mut s, c) = started(2, 3);
        // n2 adopted nothing yet; the peer is in round 4 with a worse vote.
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, looking(vote(0, 0, 0), 4))
        });
        assert_eq!(s.round, 4);
        let own = looking(vote(2, 0, 0), 4);
        assert_eq!(sends(&out), vec![(0, own), (1, own)]);
    }

    #[test]
    fn an_earlier_round_gets_only_an_answer_with_the_own_vote() {
        let (mut s, c) = started(1, 3);
        s.round = 3;
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, looking(vote(2, 0, 0), 1))
        });
        assert_eq!(sends(&out), vec![(2, looking(vote(1, 0, 0), 3))]);
        assert_eq!(s.proposal, vote(1, 0, 0), "the old round's vote is ignored");
    }

    #[test]
    fn a_quorum_starts_the_finalize_wait_and_its_end_decides() {
        let (mut s, c) = started(0, 3);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, looking(vote(2, 0, 0), 1))
        });
        assert!(sets(&out, Timer::FinalizeWait), "n0 and n2 vote n2: 2 of 3");
        assert!(s.finalizing);
        let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::FinalizeWait));
        assert_eq!(
            sends(&out),
            vec![(2, Msg::FollowerInfo { accepted_epoch: 0 })]
        );
        assert_eq!(roles(&out), vec![(Role::Follower, Some(0))]);
        assert_eq!(s.state, ServerState::Following);
        assert!(sets(&out, Timer::LeaderTimeout));
    }

    #[test]
    fn a_following_server_answers_a_looking_one_with_its_decided_vote() {
        let (mut s, c) = started(0, 3);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, looking(vote(2, 0, 0), 1));
            s.on_timer(ctx, Timer::FinalizeWait);
        });
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, looking(vote(1, 0, 0), 7))
        });
        assert_eq!(
            sends(&out),
            vec![(
                1,
                Msg::Notification {
                    vote: vote(2, 0, 0),
                    round: 1,
                    state: ServerState::Following,
                }
            )]
        );
    }

    #[test]
    fn a_joiner_follows_once_a_quorum_answers_and_the_leader_itself_says_leading() {
        let (mut s, c) = started(0, 5);
        let answer = |state| Msg::Notification {
            vote: vote(4, 0, 0),
            round: 1,
            state,
        };
        s.round = 1;
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, answer(ServerState::Following));
            s.on_message(ctx, 2, answer(ServerState::Following));
            s.on_message(ctx, 3, answer(ServerState::Following));
        });
        assert!(
            sends(&out).is_empty(),
            "three agree, but n4 never said LEADING"
        );
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 4, answer(ServerState::Leading))
        });
        assert_eq!(
            sends(&out),
            vec![(4, Msg::FollowerInfo { accepted_epoch: 0 })]
        );
        assert_eq!(s.leader, Some(4));
    }

    /// n2 of 3 has decided it leads.
    fn prospective_leader() -> (Server, Config) {
        let (mut s, c) = started(2, 3);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, looking(vote(2, 0, 0), 1));
            s.on_timer(ctx, Timer::FinalizeWait);
        });
        assert_eq!(s.state, ServerState::Leading);
        (s, c)
    }

    /// n2 of 3 leads epoch 1 with n0's promise.
    fn established_leader() -> (Server, Config) {
        let (mut s, c) = prospective_leader();
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 0 });
            s.on_message(
                ctx,
                0,
                Msg::AckEpoch {
                    epoch: 1,
                    current_epoch: Some(0),
                },
            );
        });
        assert!(s.established);
        (s, c)
    }

    /// `getEpochToPropose`: one above the highest accepted epoch of the
    /// quorum that connected; latecomers get the epoch already chosen.
    #[test]
    fn a_quorum_of_followerinfo_gets_leaderinfo_one_above_the_highest_accepted() {
        let (mut s, c) = prospective_leader();
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 4 })
        });
        let proposal = Msg::LeaderInfo { epoch: 5, zxid: 0 };
        assert_eq!(sends(&out), vec![(0, proposal)]);
        assert_eq!(votes(&out), vec![(5, 2)], "the leader votes for itself");
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(5))]);
        // A latecomer gets the same epoch.
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 0 })
        });
        assert_eq!(sends(&out), vec![(1, proposal)]);
    }

    /// Zab phase 1 (Discovery) and `getEpochToPropose` with five servers:
    /// the leader waits until a quorum (itself included) has connected, and
    /// the epoch goes above every accepted epoch among them, its own and a
    /// follower's that is higher than the others'.
    #[test]
    fn the_epoch_waits_for_a_quorum_and_goes_above_the_highest_accepted_epoch() {
        let (mut s, c) = started(4, 5);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, looking(vote(4, 0, 0), 1));
            s.on_message(ctx, 1, looking(vote(4, 0, 0), 1));
            s.on_timer(ctx, Timer::FinalizeWait);
        });
        assert_eq!(s.state, ServerState::Leading);
        s.stored.accepted_epoch = 3;
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 7 })
        });
        assert!(out.is_empty(), "2 of 5 connected, no epoch yet: {out:?}");
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 2 })
        });
        let proposal = Msg::LeaderInfo { epoch: 8, zxid: 0 };
        assert_eq!(sends(&out), vec![(0, proposal), (1, proposal)]);
        assert_eq!(votes(&out), vec![(8, 4)]);
        assert_eq!(s.stored.accepted_epoch, 8, "its own promise, persisted");
        // A latecomer that promised the same epoch acknowledges it with -1:
        // it can follow, the leader keeps its epoch.
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::FollowerInfo { accepted_epoch: 8 })
        });
        assert_eq!(sends(&out), vec![(2, proposal)]);
        assert_eq!(out.len(), 1, "nothing else: {out:?}");
        assert_eq!(s.state, ServerState::Leading);
    }

    /// A follower that promised more than the epoch already chosen would
    /// refuse it (`Learner.registerWithLeader`) on every try. The leader
    /// sends `LEADERINFO` as ZooKeeper does, takes that promise as its own
    /// accepted epoch and looks again; the next discovery with that
    /// follower proposes one above it, and the follower promises it.
    #[test]
    fn a_latecomer_that_promised_more_makes_the_leader_look_again_and_propose_above_it() {
        let (mut s, c) = established_leader();
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 4 })
        });
        let own = looking(
            Vote {
                leader: 2,
                zxid: 0,
                epoch: 1,
            },
            2,
        );
        assert_eq!(
            sends(&out),
            vec![
                (1, Msg::LeaderInfo { epoch: 1, zxid: 0 }),
                (0, own),
                (1, own)
            ]
        );
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(4))]);
        assert!(votes(&out).is_empty(), "taking a promise is not a vote");
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(s.state, ServerState::Looking);
        assert_eq!(
            s.stored,
            Stored {
                accepted_epoch: 4,
                current_epoch: 1,
                last_zxid: 0,
            }
        );
        // n1 votes for it in round 2; it decides, and n1 connects again.
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, own);
            s.on_timer(ctx, Timer::FinalizeWait);
        });
        assert_eq!(s.state, ServerState::Leading);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 4 })
        });
        assert_eq!(
            sends(&out),
            vec![(1, Msg::LeaderInfo { epoch: 5, zxid: 0 })]
        );
        assert_eq!(votes(&out), vec![(5, 2)]);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(
                ctx,
                1,
                Msg::AckEpoch {
                    epoch: 5,
                    current_epoch: Some(0),
                },
            )
        });
        assert_eq!(roles(&out), vec![(Role::Leader, Some(5))]);
    }

    #[test]
    fn a_quorum_of_fresh_ackepoch_establishes_the_leader_in_the_new_epoch() {
        let (mut s, c) = prospective_leader();
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 0 })
        });
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(
                ctx,
                0,
                Msg::AckEpoch {
                    epoch: 1,
                    current_epoch: None,
                },
            )
        });
        assert!(roles(&out).is_empty(), "an old promise does not count");
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(
                ctx,
                0,
                Msg::AckEpoch {
                    epoch: 1,
                    current_epoch: Some(0),
                },
            )
        });
        assert_eq!(roles(&out), vec![(Role::Leader, Some(1))]);
        assert!(sets(&out, Timer::Heartbeat));
        assert_eq!(s.stored.current_epoch, 1);
    }

    #[test]
    fn once_the_epoch_is_established_the_leader_answers_with_it() {
        let (mut s, c) = established_leader();
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, looking(vote(1, 0, 0), 3))
        });
        assert_eq!(
            sends(&out),
            vec![(
                1,
                Msg::Notification {
                    vote: Vote {
                        leader: 2,
                        zxid: 0,
                        epoch: 1,
                    },
                    round: 1,
                    state: ServerState::Leading,
                }
            )],
            "epoch 1, not the epoch 0 it was voted in with"
        );
    }

    /// n0 of 3 follows n2 and waits for its LEADERINFO.
    fn follower_of_2(accepted_epoch: u64) -> (Server, Config) {
        let (mut s, c) = started(0, 3);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, looking(vote(2, 0, 0), 1));
            s.on_timer(ctx, Timer::FinalizeWait);
        });
        s.stored.accepted_epoch = accepted_epoch;
        (s, c)
    }

    /// `registerWithLeader`: an epoch above the accepted one is promised,
    /// and ACKEPOCH carries the current epoch it had (a new promise).
    #[test]
    fn a_follower_promises_a_newer_epoch_once_and_votes() {
        let (mut s, c) = follower_of_2(3);
        s.stored.current_epoch = 2;
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(
                ctx,
                2,
                Msg::LeaderInfo {
                    epoch: 4,
                    zxid: zxid(3, 9),
                },
            )
        });
        assert_eq!(
            sends(&out),
            vec![(
                2,
                Msg::AckEpoch {
                    epoch: 4,
                    current_epoch: Some(2)
                }
            )]
        );
        assert_eq!(votes(&out), vec![(4, 2)]);
        assert_eq!(roles(&out), vec![(Role::Follower, Some(4))]);
        assert_eq!(
            s.stored,
            Stored {
                accepted_epoch: 4,
                current_epoch: 4,
                last_zxid: zxid(3, 9),
            }
        );
    }

    #[test]
    fn a_follower_that_took_the_new_epoch_answers_with_it() {
        let (mut s, c) = follower_of_2(3);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 4, zxid: 0 })
        });
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, looking(vote(1, 4, 0), 2))
        });
        assert_eq!(
            sends(&out),
            vec![(
                1,
                Msg::Notification {
                    vote: Vote {
                        leader: 2,
                        zxid: 0,
                        epoch: 4,
                    },
                    round: 1,
                    state: ServerState::Following,
                }
            )],
            "the leader's epoch 4, the zxid and round of the decision"
        );
    }

    /// `registerWithLeader`: an epoch equal to the accepted one is answered
    /// with -1, which `waitForEpochAck` does not count.
    #[test]
    fn an_epoch_already_promised_is_acknowledged_without_a_new_vote() {
        let (mut s, c) = follower_of_2(4);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 4, zxid: 0 })
        });
        assert_eq!(
            sends(&out),
            vec![(
                2,
                Msg::AckEpoch {
                    epoch: 4,
                    current_epoch: None
                }
            )]
        );
        assert!(votes(&out).is_empty());
    }

    /// `registerWithLeader`: "Leaders epoch ... is less than accepted
    /// epoch": the follower refuses that leader and looks again.
    #[test]
    fn an_older_epoch_than_promised_sends_the_follower_looking_again() {
        let (mut s, c) = follower_of_2(6);
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 5, zxid: 0 })
        });
        assert_eq!(s.state, ServerState::Looking);
        assert_eq!(s.round, 2);
        assert_eq!(sends(&out).len(), 2, "a new round's notifications");
        assert!(votes(&out).is_empty());
    }

    #[test]
    fn a_leader_that_hears_no_quorum_within_the_sync_limit_steps_down() {
        let (mut s, c) = established_leader();
        // Follower n0 was last heard at local time 0; the tick comes later.
        let limit = c.election_timeout_us.0 as i64;
        s.learners.get_mut(&0).unwrap().heard_us = -limit - 1;
        let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::Heartbeat));
        assert_eq!(s.state, ServerState::Looking);
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(1))]);
        // Heard within the limit: pings instead.
        let (mut s, c) = established_leader();
        let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::Heartbeat));
        assert_eq!(sends(&out), vec![(0, Msg::Ping { zxid: 0 })]);
    }

    #[test]
    fn a_follower_takes_the_zxid_of_its_leaders_ping_and_answers() {
        let (mut s, c) = follower_of_2(0);
        cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 1, zxid: 0 })
        });
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 2, Msg::Ping { zxid: zxid(1, 3) })
        });
        assert_eq!(sends(&out), vec![(2, Msg::PingReply)]);
        assert_eq!(s.stored.last_zxid, zxid(1, 3));
        let out = cmds(&mut s, &c, |s, ctx| {
            s.on_message(ctx, 1, Msg::Ping { zxid: zxid(9, 9) })
        });
        assert!(sends(&out).is_empty(), "only its own leader's pings count");
    }
}
