//! Raft leader election (D. Ongaro and J. Ousterhout, "In Search of an
//! Understandable Consensus Algorithm", USENIX ATC 2014, sections 5.2 and
//! 5.4.1; D. Ongaro, "Consensus: Bridging Theory and Practice", Stanford
//! PhD dissertation 2014, sections 6.2, 6.4.1 and chapter 9).
//!
//! Rules, as simulated here (`n` participants `0..n`, plus the fenced
//! resource as node `n`):
//! - Time is divided into terms. Every server keeps `currentTerm`,
//!   `votedFor` and its log in persistent state (they survive a crash);
//!   its role, the leader it follows and the commit index are volatile.
//! - A follower or candidate that hears nothing from a leader for an
//!   election timeout, drawn afresh from `election_timeout_ms` on its own
//!   clock for every wait, starts an election: it increments its term,
//!   votes for itself and sends `REQUEST_VOTE(term, lastLogIndex,
//!   lastLogTerm)` to every other server. A server that was named in the
//!   scenario's `start` times out at once when it starts.
//! - A server grants at most one vote per term (first come, first served),
//!   and only to a candidate whose log is at least as up to date as its own
//!   (section 5.4.1: a higher last term wins; with equal last terms the
//!   longer log wins). It answers every request with `VOTE(term, granted)`
//!   and restarts its election timer when it grants.
//! - A candidate with votes from a majority (`n/2 + 1`, itself included)
//!   becomes leader. A candidate whose timer runs out (a split vote) starts
//!   a new election in the next term.
//! - Any message carrying a higher term makes the receiver adopt that term
//!   and become a follower (a leader steps down).
//! - The leader sends `APPEND_ENTRIES` to every server every
//!   `heartbeat_ms` (background). It carries the entries the follower
//!   lacks (at most 16); with none it is a heartbeat. Every 4th heartbeat
//!   round the leader appends one client entry of its term to its log, so
//!   that logs differ and the up-to-date check of 5.4.1 matters. A follower
//!   rejects entries whose `prevLogIndex`/`prevLogTerm` do not match its log
//!   and answers `APPEND_REPLY` (background) with its log length; the leader
//!   then backs `nextIndex` off and retries on the next heartbeat. An entry
//!   of the current term stored on a majority is committed.
//! - The leader writes to the resource every `write_ms` (`WRITE`,
//!   background) with its term as the fencing token.
//!
//! Options:
//! - `pre_vote` (dissertation 9.6): a server that times out first sends
//!   `PRE_VOTE(term + 1, lastLogIndex, lastLogTerm)` without changing its
//!   term. A server answers yes (`PRE_VOTE_REPLY`) only if that term is above
//!   its own, the log check passes and it has not heard from a leader
//!   within the minimum election timeout (a leader never says yes). Only
//!   with a majority of yeses does the server start the real election. A
//!   server cut off alone therefore never raises its term and does not
//!   disrupt the cluster when it comes back.
//! - `check_quorum` (dissertation 6.2): at every heartbeat a leader counts
//!   the servers that answered it within the minimum election timeout; with
//!   fewer than a majority (itself included) it steps down.
//! - `leader_lease` (dissertation 6.4.1): every heartbeat round is numbered;
//!   once a majority (the leader included) has answered round `r`, sent at
//!   local time `s`, the leader holds a read lease until
//!   `s + election_timeout_min x (1 - drift_bound)` on its own clock, the
//!   earliest a follower that heard round `r` could time out if clocks drift
//!   by at most `drift_bound`. It announces when it starts and stops
//!   believing it holds the lease. A leader whose clock runs slow by more
//!   than the bound (or that is paused) keeps believing in its lease while
//!   the others have already elected a new leader with a lease of its own:
//!   the checker reports `lease_overlap`. With the lease on, a server
//!   that leads or heard from a leader within the minimum election timeout
//!   ignores a `REQUEST_VOTE` of a higher term (refuses without moving to
//!   that term, dissertation 4.2.3): otherwise a server that missed the
//!   heartbeats could win votes from servers that have just answered the
//!   leader, and the lease would be unsafe even with perfect clocks.
//!
//! Costs: an election with every server up, its log up to date and no
//! other server timing out costs exactly `2(n-1)` election messages
//! (`n-1` `REQUEST_VOTE` and `n-1` `VOTE`); with `pre_vote` another
//! `2(n-1)` (`PRE_VOTE` and `PRE_VOTE_REPLY`). Split votes cost further
//! terms; their rate with a fixed latency follows dissertation 9.3.
//!
//! Safety claimed: at most one leader per term, terms never go back, one
//! vote per server per term (all checked). Two servers can both be in the
//! leader role at once, in different terms: a leader cut off in a minority
//! keeps its role (without `check_quorum`) but can commit nothing; it steps
//! down as soon as it hears the higher term after the partition heals.
//! Known failures: without fencing a paused old leader's writes overwrite
//! newer data; a leader lease is only as good as the clock-drift bound.
//!
//! Files: `election.rs` holds the election rules of the paper's figure 2
//! (start there); `pre_vote.rs`, `check_quorum.rs` and `lease.rs` the
//! three options; `messages.rs` the messages and their kinds; `log.rs`
//! the replication that makes logs differ; `narration.rs` the event-log lines; `inspect.rs` how a server and its
//! messages look in the trace and the inspector; `tests.rs` the
//! command-level tests. This file holds the state they share.

mod check_quorum;
mod election;
mod inspect;
mod lease;
mod log;
mod messages;
mod narration;
mod pre_vote;
#[cfg(test)]
mod tests;

pub use messages::Msg;

use super::extras::{Node, Participant, write_token_of_msg_write};
use super::{Entry, Layout, Observers, engine};
use crate::claims::{CONSENSUS, CONSENSUS_FAILOVER, CONSENSUS_FIRST, Claim};
use crate::protocol::{Ctx, NodeId, Protocol};
use crate::time::Micros;
use std::collections::VecDeque;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "REQUEST_VOTE",
    "VOTE",
    "APPEND_ENTRIES",
    "APPEND_REPLY",
    "PRE_VOTE",
    "PRE_VOTE_REPLY",
    "WRITE",
];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "raft",
    name: "Raft",
    summary: "Ongaro & Ousterhout 2014: terms, randomized election timeouts, one persisted vote per term, a majority and the log up-to-date check elect the leader; options pre-vote, check-quorum and a leader lease (Ongaro 2014, 6.2, 6.4.1, 9.6)",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: Raft::EXTRAS,
    observers: Observers::None,
    takes_script: false,
    claims: Raft::SAFETY,
    builder: Some(engine::<Raft>),
    theory: None,
    tradeoff: Some(Claim {
        why: &[CONSENSUS_FIRST, CONSENSUS_FAILOVER],
        ..CONSENSUS
    }),
};

/// Most log entries one `APPEND_ENTRIES` carries.
pub const MAX_ENTRIES: usize = 16;
/// The leader appends one client entry every this many heartbeat rounds.
pub const ENTRY_EVERY_ROUNDS: u64 = 4;
/// Heartbeat rounds a leader remembers the start time of (for the lease).
const ROUNDS_KEPT: usize = 64;

/// Raft timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower, pre-candidate or candidate: the election timeout.
    Election,
    /// Leader: time for the next heartbeat round.
    Heartbeat,
    /// Leader: time for the next write to the resource.
    Write,
    /// Leader: the read lease runs out (on the local clock).
    Lease,
}

/// What survives a crash (Raft paper, figure 2: "persistent state on all
/// servers").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Persistent {
    /// Latest term the server has seen.
    pub term: u64,
    /// Whom it voted for in `term`, if anyone.
    pub voted_for: Option<NodeId>,
    /// Its log: the term of each entry, index 1 first.
    pub log: Vec<u64>,
}

/// Where a server is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Follows a leader (or waits to hear of one).
    Follower,
    /// Asking for pre-votes (the `pre_vote` option); term unchanged.
    PreCandidate,
    /// Asking for votes in its own new term.
    Candidate,
    /// Leads its term.
    Leader,
}

/// One Raft server: the state of the paper's figure 2 plus what the
/// options need. Its fields are private to this folder; each file works
/// on its part.
#[derive(Debug, Clone)]
pub struct Server {
    id: NodeId,
    n: u32,
    resource: Option<NodeId>,
    min_timeout_us: Micros,
    drift_bound: f64,
    pre_vote: bool,
    check_quorum: bool,
    leader_lease: bool,
    // Persistent.
    term: u64,
    voted_for: Option<NodeId>,
    log: Vec<u64>,
    // Volatile.
    phase: Phase,
    leader: Option<NodeId>,
    commit_index: u64,
    /// Servers that granted a vote (or pre-vote) in the current round,
    /// this server included.
    votes: Vec<NodeId>,
    /// Local time this server last heard from a leader of its term.
    heard_leader_at: Option<i64>,
    elections_started: u64,
    // Volatile, leader only: the lists below, one place per server, are
    // empty unless leading (`start_replication`, `drop_replication`).
    /// When it became leader (check-quorum waits one election timeout).
    leader_since: i64,
    next_index: Vec<u64>,
    match_index: Vec<u64>,
    /// When each server last answered (check-quorum).
    last_ack_at: Vec<Option<i64>>,
    /// The newest heartbeat round each server answered (the lease).
    acked_round: Vec<u64>,
    round: u64,
    /// Start times of the recent heartbeat rounds (the lease).
    round_started: VecDeque<(u64, i64)>,
    lease_until: Option<i64>,
    lease_held: bool,
}

/// A node of the Raft cluster: a server, or the resource the leader
/// writes to (node `n`).
pub type Raft = Node<Server>;

/// The resource takes the leader's `WRITE`s.
impl Participant for Server {
    write_token_of_msg_write!();
}

type C<'a> = Ctx<'a, Msg, Timer>;
