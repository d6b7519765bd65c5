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
//! C-31(1), 1982), with the rules of [`crate::algorithms::bully`].
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

//!
//! Files: `rules.rs` holds the handlers of messages and timers (start
//! there); `line.rs` the line of succession, the walk down it and the
//! fallback Bully election (its start written once in
//! `crate::algorithms::bully::election`); `messages.rs` the messages and
//! their kinds; `inspect.rs` how a node looks in the inspector;
//! `tests.rs` the command-level tests. This file holds the entry and the
//! state they share.

mod inspect;
mod line;
mod messages;
mod rules;
#[cfg(test)]
mod tests;

pub use messages::{Beat, Line, Msg};

use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{Claim, Column, Growth, Why};
use crate::protocol::{Ctx, NodeId, Protocol};

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

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "next-in-line",
    name: "Next-in-line failover",
    summary: "Petrov, Database Internals (2019) ch. 10, after Gholipour et al. 2009: the leader publishes a line of successors; on its failure the next live one takes over (TAKEOVER/CONFIRM), Bully election as fallback",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: NextInLine::SAFETY,
    builder: Some(engine::<NextInLine>),
    theory: None,
    tradeoff: Some(Claim {
        family: "next-in-line",
        messages: "O(n)",
        growth: Some(Growth::Linear),
        latency: "1 round trip after detection",
        partition_safe: false,
        partition: "no",
        flaky_handled: None,
        why: &[Why {
            column: Column::FirstGrowth,
            measured: Some(Growth::Quadratic),
            text: "O(n) is the failover: the next in line takes over with a handful of messages. The first election, with every node starting, is the Bully-style election it falls back on, so it costs Bully's n squared.",
        }],
    }),
};

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
