//! Hirschberg-Sinclair bidirectional ring election (D. S. Hirschberg and
//! J. B. Sinclair, "Decentralized extrema-finding in circular
//! configurations of processors", CACM 23(11), 1980; also N. Lynch,
//! *Distributed Algorithms*, 1996, section 3.4).
//!
//! Rules, as simulated here (messages travel both ways round the ring;
//! "next" is the scenario's `ring` order, "prev" the other way):
//! - Phases k = 0, 1, 2, ...: a candidate sends `PROBE(id, k, hop 1)` to
//!   both neighbours; the probes travel 2^k hops out. A candidate that
//!   gets both `REPLY(id, k)` back goes on to phase k + 1, twice as far.
//! - On `PROBE(j, k, d)`, comparing j with the receiver's own id (the
//!   published rule: a smaller id is swallowed, a larger one travels):
//!   - j larger: if d < 2^k, forward `PROBE(j, k, d + 1)` the same way;
//!     if d = 2^k, send `REPLY(j, k)` back towards j. Either way the
//!     receiver has seen a larger id and stops being a candidate (the
//!     paper's "lost"); a leader that sees one stops leading.
//!   - j smaller: swallowed by a candidate, a leader, or any node that has
//!     seen a larger id since it last followed a leader: j cannot be the
//!     largest. With `start: all` every node is one of these from the
//!     start, which is exactly the published rule (a smaller id is
//!     discarded).
//!   - j equal to the receiver's id: the probe went all the way round
//!     without meeting a larger id, so the receiver is the largest and
//!     leads. It sends `ELECTED(id)` once round the ring (one direction,
//!     n messages); every node records the leader and forwards it, until
//!     it is back at the leader. The same probe going round the other way
//!     arrives later and is ignored.
//! - `REPLY(j, k)` is relayed unchanged until it reaches j.
//! - Non-initiators relay only: a node that the scenario's `start` does not
//!   name (or that joins an election it did not start) never competes; it
//!   passes probes on, smaller ones included, until it has seen a larger
//!   id. So with `start` naming a few nodes, or after a failure (where
//!   the nodes that notice first start), the leader is the highest of the
//!   nodes that started, not necessarily the highest live id.
//! - Dead or unreachable neighbours: the link reports an undeliverable
//!   message one reply timeout after the send, and the sender passes it to
//!   the next node in the same direction (hop counts count live nodes
//!   only, so a phase reaches 2^k live nodes). A probe or `ELECTED` whose
//!   originator is the dead node dies with it and the discoverer starts a
//!   new election; a reply for a dead node is dropped. A candidate whose
//!   probe finds every other node down has gone round: it leads.
//! - Failure detection as in Chang-Roberts: leader `HEARTBEAT`s
//!   (background), randomized follower timeouts. A candidate that waits
//!   longer than a whole loss-free election for the replies of one phase
//!   sends that phase's missing probes again (messages can be lost; a
//!   losing candidate never hears it lost until `ELECTED`, so the wait is
//!   long enough that losers never resend in a run without losses). A
//!   relaying node whose election has not finished within twice that
//!   starts its own. A candidate that hears the heartbeat of a live leader
//!   higher than itself follows it (its `ELECTED` may have been lost); a
//!   relaying node follows any live leader it hears; a follower moves to
//!   a higher leader; a leader that hears a higher leader steps down, which
//!   also settles a healed partition on the higher leader. A recovered
//!   node follows the first leader it hears.
//! - Following a leader again means forgetting the larger ids seen while
//!   relaying, also when the leader a relay hears is the one it followed
//!   before the election (its relay watchdog is then replaced by the
//!   follower one). Otherwise, once the larger candidate has given up (it
//!   follows any `ELECTED`, even of a lower id), the relay would swallow
//!   a smaller, still live candidate's probes for ever while the leader's
//!   heartbeats keep its own watchdog quiet; and that candidate, higher
//!   than the leader, does not follow it. With the relays back to being
//!   wires the candidate's probe goes round, the lower leader relays it and
//!   stops leading (the rule above), and the candidate leads: after a
//!   partition heals, a live candidate higher than the leader ends up
//!   leading.
//!
//! Costs with every node starting (Hirschberg & Sinclair): at most
//! n/(2^(k-1) + 1) candidates reach phase k and each sends at most 4·2^k
//! probes and replies, so fewer than 8n(1 + ⌈log₂ n⌉) `PROBE` + `REPLY`;
//! the winner's last phase sends 2n probes (both go all the way round)
//! and `ELECTED` adds n. Exact figures depend on the ring order (and, as
//! a candidate that relays a larger id stops early, a little on timing):
//! see `tests/hirschberg_sinclair.rs`.
//!
//! Safety claimed: one leader on a ring without partitions. Known failure:
//! a partition leaves each side electing its own leader (split brain).

//!
//! Files: `rules.rs` holds the rules above, the election and its failure
//! detection (start there); `messages.rs` the messages, their kinds and
//! how they read in the event log; `inspect.rs` how a node looks in the
//! inspector; `tests.rs` the command-level tests. This file holds the
//! entry and the state they share.

mod inspect;
mod messages;
mod rules;
#[cfg(test)]
mod tests;

pub use messages::{Dir, Msg};

use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{Claim, Column, Growth, RING, Why};

/// Why Hirschberg-Sinclair measures n rather than n log n.
const HS_WHY: &str = "O(n log n) is the worst case. On an ascending ring most candidates lose in the first phases, so at these sizes the cost grows like n; the slope stays above 1, and the bound 8n(1 + log2 n) holds (core/tests/hirschberg_sinclair.rs).";
use crate::protocol::{Ctx, NodeId, Protocol};
use crate::scenario::Scenario;

/// Message kind names.
pub const KINDS: &[&str] = &["PROBE", "REPLY", "ELECTED", "HEARTBEAT"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "hirschberg-sinclair",
    name: "Hirschberg-Sinclair ring",
    summary: "Hirschberg & Sinclair 1980: candidates PROBE both ways 2^k hops in phase k, REPLYs bring survivors to the next phase, O(n log n) messages; the winner sends one ELECTED lap",
    layout: Layout::Ring,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: HirschbergSinclair::SAFETY,
    builder: Some(engine::<HirschbergSinclair>),
    theory: Some(theory),
    tradeoff: Some(Claim {
        family: "ring (bidirectional, phases)",
        messages: "O(n log n)",
        growth: Some(Growth::NLogN),
        why: &[
            Why {
                column: Column::FirstGrowth,
                measured: Some(Growth::Linear),
                text: HS_WHY,
            },
            Why {
                column: Column::FailoverGrowth,
                measured: Some(Growth::Linear),
                text: HS_WHY,
            },
        ],
        ..RING
    }),
};

/// Hirschberg & Sinclair 1980: the bound on the initial election's
/// messages (a bound, not a mean).
fn theory(scenario: &Scenario) -> (f64, &'static str) {
    let n = f64::from(scenario.nodes);
    let log = f64::from(scenario.nodes).log2().ceil();
    (
        8.0 * n * (1.0 + log),
        "upper bound, not a mean: 8n(1 + ceil(log2 n)) PROBE + REPLY + ELECTED (Hirschberg & Sinclair 1980)",
    )
}

/// Hirschberg-Sinclair timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower: no leader heartbeat. Candidate: the replies of a phase
    /// are overdue. Relay: the election has not finished.
    Watchdog,
    /// Leader: time to send heartbeats.
    Heartbeat,
}

/// Where a node stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Follows `leader` (or waits for one); takes no part in an election.
    Idle,
    /// Competes in `phase`.
    Candidate,
    /// Relays an election it does not (or no longer) compete in.
    Relay,
    /// Leads.
    Leader,
}

/// One Hirschberg-Sinclair node.
#[derive(Debug, Clone)]
pub struct HirschbergSinclair {
    id: NodeId,
    next: NodeId,
    prev: NodeId,
    status: Status,
    /// Current (or last) phase as a candidate.
    phase: u32,
    /// Replies of `phase` received, from the next side and the prev side.
    replied: [bool; 2],
    /// Largest id seen in a probe since this node last followed a leader
    /// or started an election.
    largest_seen: NodeId,
    leader: Option<NodeId>,
}

type C<'a> = Ctx<'a, Msg, Timer>;
