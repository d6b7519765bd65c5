//! Multi-Paxos leader election: the Prepare phase elects, the ballot is the
//! epoch and the fencing token (L. Lamport, "Paxos Made Simple", ACM SIGACT
//! News 32(4), 2001, sections 2.2, 2.4 and 3; T. Chandra, R. Griesemer and
//! J. Redstone, "Paxos Made Live: An Engineering Perspective", PODC 2007,
//! sections 5.1 and 5.2; M. Burrows, "The Chubby Lock Service for
//! Loosely-Coupled Distributed Systems", OSDI 2006, sections 2.12 and 2.9).
//!
//! Rules, as simulated here (`n` replicas `0..n`, each proposer and
//! acceptor at once, plus the fenced resource as node `n`):
//! - Ballots are unique per replica: replica `i` owns the ballots
//!   `k·n + i + 1` (`k = 0, 1, ...`), so a ballot names its proposer. Every
//!   replica keeps, in persistent state (it survives a crash), the highest
//!   ballot it has promised and the highest it has accepted; its role, the
//!   leader it follows and the rest are volatile.
//! - A replica that suspects the leader (no `HEARTBEAT` for an election
//!   timeout, drawn afresh from `election_timeout_ms` on its own clock) or
//!   that the scenario's `start` names picks the lowest of its ballots above
//!   any ballot it has seen, promises it to itself and sends
//!   `PREPARE(ballot)` to every other replica (Lamport's phase 1a). It waits
//!   one reply timeout for the answers.
//! - An acceptor promises only a ballot above its promise (phase 1b): it
//!   persists the promise, answers `PROMISE(ballot, accepted)` with the
//!   highest ballot it has accepted, and restarts its election timer. A
//!   ballot at or below its promise gets `REJECT(ballot, promised)` naming
//!   the promise (a duplicate of the very ballot it promised is ignored).
//! - Promises from a majority (`n/2 + 1`, itself included) make the
//!   proposer leader for its ballot. (A full Multi-Paxos leader would now
//!   re-propose the value of the highest accepted ballot among the
//!   promises; the election only reports it.)
//! - The leader sends `HEARTBEAT(ballot, round)` every `heartbeat_ms`
//!   (background; the Accept of phase 2a, of an empty value). An acceptor
//!   accepts a ballot at or above its promise, records it as accepted,
//!   follows the sender and answers `HEARTBEAT_ACK` (background); a lower
//!   ballot gets `REJECT` naming the promise. A leader that has not had a
//!   majority acknowledge within the minimum election timeout steps down
//!   (it keeps leadership only with heartbeats a majority acknowledges).
//! - A proposer or leader that learns of a higher ballot (a `REJECT`
//!   naming a higher promise, or a higher `PREPARE` it promises) is
//!   pre-empted: it steps down, and tries again after the retry wait unless
//!   it hears a leader first. A `HEARTBEAT` of a higher ballot makes it
//!   follow that leader at once.
//! - The leader writes to the resource every `write_ms` (`WRITE`,
//!   background) with its ballot as the fencing token.
//!
//! Options (top-level scenario keys):
//! - `backoff` (default `true`; Lamport 2001, 2.4 "Progress"; Paxos Made
//!   Live 5.2): the retry wait after a pre-emption or a failed attempt is
//!   drawn at random from `0 ..= election_timeout_max`, so that one proposer
//!   usually completes both phases before the other tries again. With
//!   `false` every proposer retries at once, the same fixed (zero) wait for
//!   all: two proposers that pre-empt each other then do so for ever
//!   (**duelling proposers**), each new ballot above the other's, and the
//!   cluster never settles.
//! - `master_lease` (Chubby 2.12, Paxos Made Live 5.2): a replica that
//!   acknowledges a heartbeat grants the leader a lease of `lease_ms` on
//!   its own clock, and promises no other proposer (answers `REJECT`)
//!   while that grant is valid; a leader likewise refuses others. A
//!   replica that suspects the leader waits until its own grant has run
//!   out (plus a random part of the timeout range) before it proposes. The
//!   master holds the lease from the start of the newest heartbeat round a
//!   majority acknowledged, for `lease_ms × (1 - drift_bound)` on its own
//!   clock, announces it, and stops acting as master when the lease runs
//!   out unrenewed. A recovering replica, which has forgotten its grants,
//!   refuses every proposer for one `lease_ms`. A master whose clock runs
//!   slow by more than `timing.drift_bound` (or that is paused) still
//!   believes in its lease after the others granted a new one:
//!   `lease_overlap`, and fencing keeps its late writes out.
//!
//! Costs: an uncontested election (every replica up, no other proposer)
//! costs exactly `2(n-1)` election messages: `n-1` `PREPARE` and `n-1`
//! `PROMISE` (Lamport 2001, 2.2, phase 1; one round trip). Every node
//! starting at once (`start: all`) is contested: each of the `n` proposers
//! sends its phase 1, the highest ballot wins. Election messages are
//! `PREPARE`, `PROMISE` and `REJECT`; `HEARTBEAT`, `HEARTBEAT_ACK` and
//! `WRITE` are background.
//!
//! Safety claimed: at most one leader per ballot (ballots are unique), a
//! replica's ballot never goes back, one promise per ballot (all checked;
//! the announced term is the replica's promised ballot). Two replicas can
//! be in the leader role at once, in different ballots: a leader cut off
//! in a minority steps down after the minimum election timeout (or its
//! lease) and a pre-empted one when it hears the higher ballot. Known
//! failures: duelling proposers without backoff (liveness, not safety); a
//! replica cut off alone raises its ballot every retry and, when it comes
//! back, rejects the leader's heartbeats naming that ballot, which
//! pre-empts the leader (with the master lease too); a master lease
//! is only as good as the clock-drift bound; without fencing a paused old
//! master's writes overwrite newer data.
//!
//! Files: `election.rs` holds phase 1 (suspect, prepare, promise, reject,
//! win; start there); `leader.rs` the heartbeats, their acknowledgements
//! and the writes; `lease.rs` the master lease; `messages.rs` the messages
//! and their kinds; `narration.rs` the event-log lines; `inspect.rs` how a
//! replica and its messages look in the trace and the inspector;
//! `tests.rs` the command-level tests. This file holds the shared state.

mod election;
mod inspect;
mod leader;
mod lease;
mod messages;
mod narration;
#[cfg(test)]
mod tests;

pub use messages::Msg;

use crate::algorithms::extras::{Node, Participant, write_token_of_msg_write};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{CONSENSUS, CONSENSUS_FAILOVER, Claim, Column, Growth, Why};
use crate::protocol::{Ctx, NodeId, Protocol};
use crate::time::Micros;
use std::collections::VecDeque;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "PREPARE",
    "PROMISE",
    "REJECT",
    "HEARTBEAT",
    "HEARTBEAT_ACK",
    "WRITE",
];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "multi-paxos",
    name: "Multi-Paxos",
    summary: "Lamport 2001, Paxos Made Live 2007: a suspecting replica sends PREPARE with a ballot above any seen, a majority of persisted PROMISEs makes it leader for that ballot (the epoch and fencing token), heartbeats keep it; options backoff and Chubby's master lease (Burrows 2006)",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: MultiPaxos::EXTRAS,
    observers: Observers::None,
    takes_script: false,
    claims: MultiPaxos::SAFETY,
    builder: Some(engine::<MultiPaxos>),
    theory: None,
    tradeoff: Some(Claim {
        why: &[
            Why {
                column: Column::FirstGrowth,
                measured: Some(Growth::Quadratic),
                text: "O(n) per round is one proposer's round (2(n - 1) messages, core/tests/multi_paxos.rs). Here every node proposes at once, so the first election costs about n squared; a pre-empted proposer backs off a random wait, and the highest ballot usually wins the first round.",
            },
            CONSENSUS_FAILOVER,
        ],
        ..CONSENSUS
    }),
};

/// Heartbeat rounds a leader remembers the start time of (for the lease).
const ROUNDS_KEPT: usize = 64;

/// Multi-Paxos timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower: no heartbeat for an election timeout; suspect the leader.
    Election,
    /// Pre-empted or failed proposer: the (backoff) wait before trying
    /// again.
    Retry,
    /// Master lease: the lease this replica granted runs out; then it
    /// may propose.
    Grant,
    /// Proposer: the reply timeout for a majority of promises.
    Attempt,
    /// Leader: time for the next heartbeat round.
    Heartbeat,
    /// Leader: time for the next write to the resource.
    Write,
    /// Leader: the master lease runs out unless renewed (own clock).
    Lease,
}

/// What survives a crash: the acceptor's state (Lamport 2001, 2.3: "an
/// acceptor must remember this information even if it fails and then
/// restarts").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Persistent {
    /// The highest ballot promised (0: none).
    pub promised: u64,
    /// The highest ballot accepted (0: none).
    pub accepted: u64,
}

/// Where a replica is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Follows a leader, waits to hear of one, or waits to retry.
    Follower,
    /// Has sent `PREPARE` for its ballot and counts the promises.
    Proposer,
    /// Leads its ballot.
    Leader,
}

/// One Multi-Paxos replica. Its fields are private to this folder; each
/// file works on its part.
#[derive(Debug, Clone)]
pub struct Replica {
    id: NodeId,
    n: u32,
    resource: Option<NodeId>,
    timeout_us: (Micros, Micros),
    reply_timeout_us: Micros,
    lease_us: Micros,
    drift_bound: f64,
    master_lease: bool,
    backoff: bool,
    // Persistent.
    promised: u64,
    accepted: u64,
    // Volatile.
    phase: Phase,
    leader: Option<NodeId>,
    /// Its own ballot while it proposes or leads (0 otherwise).
    ballot: u64,
    /// The highest ballot it has seen in any message or promised.
    max_seen: u64,
    /// Replicas that promised its ballot, itself included.
    promises: Vec<NodeId>,
    /// The highest accepted ballot among those promises.
    highest_accepted: u64,
    elections_started: u64,
    /// Master lease: the lease it granted (holder, `None` for "anyone",
    /// after a recovery) and its end on the local clock.
    grant: Option<(Option<NodeId>, i64)>,
    // Volatile, leader only.
    leader_since: i64,
    round: u64,
    round_started: VecDeque<(u64, i64)>,
    last_ack_at: Vec<Option<i64>>,
    acked_round: Vec<u64>,
    lease_until: i64,
    lease_held: bool,
}

/// A node of the Multi-Paxos cluster: a replica, or the resource the
/// leader writes to (node `n`).
pub type MultiPaxos = Node<Replica>;

/// The resource takes the leader's `WRITE`s.
impl Participant for Replica {
    write_token_of_msg_write!();
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// The lowest ballot of replica `id` (of `n`) above `seen`: ballots of
/// replica `i` are `k·n + i + 1`.
pub fn next_ballot(seen: u64, id: NodeId, n: u32) -> u64 {
    let n = u64::from(n.max(1));
    let mut b = seen / n * n + u64::from(id) + 1;
    if b <= seen {
        b += n;
    }
    b
}

/// The replica that owns `ballot` (of `n`); `None` for ballot 0.
pub fn owner(ballot: u64, n: u32) -> Option<NodeId> {
    let n = u64::from(n.max(1));
    ballot.checked_sub(1).map(|b| (b % n) as NodeId)
}
