//! Invitation election (H. Garcia-Molina, "Elections in a Distributed
//! Computing System", IEEE Trans. Computers C-31(1), 1982, section V: the
//! Invitation algorithm for asynchronous systems, where a slow node and a
//! dead one look alike and the network may split).
//!
//! Nodes live in groups. Each group has a number (its coordinator's id and
//! a counter) and one coordinator, which the page shows as the group's
//! leader. Several groups, and so several leaders, coexist by design: the
//! algorithm only promises that the members of one group agree on their
//! coordinator, and that groups that can talk to each other eventually
//! merge.
//!
//! Rules, as simulated here (paper's states in brackets):
//! - Every node starts as the coordinator of a group of its own [Normal,
//!   S.c = i]; so does a node that recovers from a crash. The group counter
//!   survives crashes, so group numbers never repeat.
//! - Coordinator search (the paper's `Check`): a coordinator sends
//!   `ARE_YOU_COORDINATOR` to every other node, every search period. Only
//!   a coordinator in normal operation answers, with `I_AM_COORDINATOR`
//!   carrying its group size; other nodes stay silent (the paper's RPC
//!   answers "no"; here silence within the answer window is the no). Nodes
//!   that start at time 0 named by the scenario's `start` search at once;
//!   the others after their first search period.
//! - Priority is (group size, id): a bigger group outranks a smaller one,
//!   ties go to the higher id. At the end of the answer window a coordinator
//!   that found others waits R x (number of found coordinators that outrank
//!   it), R the reply timeout, so that the highest-priority coordinator
//!   merges first and the others are invited meanwhile; then it merges with
//!   the found coordinators it outranks, if it still leads its own group.
//! - Merge \[Election\]: the coordinator counts an election, takes a new group
//!   number and sends `INVITATION` (new group, its group size) to those
//!   coordinators and to its own members; then collects `ACCEPT`s for two
//!   reply timeouts and sends `READY` (the group number and the sorted
//!   member list) to every node that accepted. Those are its new members.
//! - A coordinator in normal operation that gets an `INVITATION` from a
//!   coordinator that outranks it forwards the invitation to its members,
//!   answers `ACCEPT` to the inviter and follows it \[Reorganization\]; an
//!   invitation from a coordinator it outranks is declined (ignored). A
//!   member accepts an invitation only when its own coordinator sends or
//!   forwards it. Any other node ignores invitations \[not Normal\].
//! - A node that accepted waits three reply timeouts for `READY`; without
//!   it, it asks the inviter `ARE_YOU_THERE` as a member would (the READY
//!   may have been lost) and follows it on `YES`; on `NO`, or silence, it
//!   forms a group of its own (the paper's `Recovery`, which the paper
//!   runs at once).
//! - Member checks (the paper's `Timeout` / `AreYouThere`): a member sends
//!   `ARE_YOU_THERE` (its group number) to its coordinator every
//!   `heartbeat_ms`. The coordinator answers `YES` if it still coordinates
//!   that group and counts the asker as a member, `NO` otherwise (nothing
//!   while it waits for a `READY` itself, see below). A `NO`, or
//!   no `YES` for a failure-detection timeout drawn from
//!   `election_timeout_ms`, makes the member form a group of its own.
//! - A coordinator drops from its member list a member it has not heard
//!   from for the longest failure-detection timeout (the upper end of
//!   `election_timeout_ms`), checked at every search, so the group sizes it
//!   reports, and so the priorities, are current.
//!
//! Timing (R = the reply timeout, see `timing.reply_timeout_ms`): search
//! period drawn anew from `election_timeout_ms` at the end of each search;
//! answer window R; priority delay R per outranking coordinator; accept
//! window 2R (an invitation forwarded by a member's old coordinator travels
//! three hops before its `ACCEPT` reaches the inviter); wait for `READY`
//! 3R; member check period `heartbeat_ms`.
//!
//! Where this departs from the paper, and why:
//! - Priority. The paper ranks coordinators by a fixed node priority (the
//!   id here): after a search, a coordinator that found a higher-priority
//!   one waits a time that grows with the gap, then invites every
//!   coordinator it found; any node in normal operation accepts any
//!   invitation. Here the order is
//!   (group size, id), a coordinator invites only the coordinators it
//!   outranks and declines invitations from coordinators it outranks, so
//!   that in every merge the larger group's coordinator keeps leading
//!   (ties: the higher id). The wait is proportional to the coordinator's
//!   rank among those found rather than to an id difference.
//! - Membership. The paper's member list (`Up`) only changes at a merge;
//!   here a coordinator also forgets members that stopped checking in
//!   (above), otherwise a coordinator cut off from half its group would
//!   keep claiming the old size.
//! - Failure detection. The paper's member gives up on the first failed
//!   `AreYouThere` call; here one lost message is not a failure: the member
//!   gives up after a `NO` or a full failure-detection timeout.
//! - Failure detection is the paper's: members poll their coordinator.
//!   There is no leader `HEARTBEAT` as in the other algorithms here; the
//!   check period and timeout come from the same `heartbeat_ms` and
//!   `election_timeout_ms`.
//! - A node that accepted shows no leader until `READY` arrives (the paper
//!   sets its coordinator at once), so a run settles only once the merged
//!   group is formed and every member knows it.
//! - A member stops checking while it waits for `READY`: its `READY`
//!   timeout covers that stretch. A node waiting for `READY` does not
//!   answer `ARE_YOU_THERE` either (the paper answers no): its former
//!   members have its forwarded invitation on the way, and a `NO` that
//!   overtook it on a reordering link would break them off for nothing.
//!
//! Counting (core/engine/src/metrics.rs, module docs): `I_AM_COORDINATOR` (it
//! reveals a second group, so a merge is due), `INVITATION`, `ACCEPT` and
//! `READY` are election messages; the periodic `ARE_YOU_COORDINATOR` probe
//! (sent even when there is only one group) and the member checks
//! `ARE_YOU_THERE`, `YES`, `NO` are background. `elections` counts merges
//! started; forming a group of one's own sends nothing and is not counted.
//!
//! Costs: with every node starting at once (all searches cross, every node
//! answers every other), n(n-1) `ARE_YOU_COORDINATOR`, n(n-1)
//! `I_AM_COORDINATOR`, then the top node alone merges: n-1 `INVITATION`,
//! n-1 `ACCEPT`, n-1 `READY`. A merge of groups covering m nodes costs m-1
//! of each of `INVITATION` (direct or forwarded), `ACCEPT` and `READY`.
//! Steady state with one group: n-1 `ARE_YOU_COORDINATOR` per search and
//! 2(n-1) check messages per `heartbeat_ms`.
//!
//! Safety claimed: several leaders at once are this algorithm's documented
//! behaviour (`Safety::SeveralLeadersAllowed`): the checker reports no
//! violation for them, while the metrics still count the time with several
//! leaders as `split_brain_ms`. Every node leads its own group at time 0;
//! each side of a partition keeps (or re-forms) its own group and leader;
//! after a heal the groups merge. Known behaviour: a recovered node, even
//! the highest id, does not take over a larger group; it is invited into it.
//! The paper assumes calls that fail only when the callee is down or cut
//! off; here any message may be lost, and since every merge re-invites
//! every member, a lost `INVITATION` or `ACCEPT` sheds that member into a
//! group of its own, to be merged back later. At a few percent loss this
//! converges; at 10% loss a cluster of 17 to 24 nodes may keep shedding and
//! re-merging and never be one group for a moment (in random fault runs
//! with 10% loss, about as often as Chang-Roberts fails to settle).

//!
//! Files: `rules.rs` holds the handlers of messages and timers (start
//! there); `groups.rs` the procedures of the paper that form, search,
//! merge and join groups; `messages.rs` the group numbers, the messages
//! and their kinds; `inspect.rs` how a node looks in the inspector;
//! `tests.rs` the command-level tests. This file holds the entry and the
//! state they share.

mod groups;
mod inspect;
mod messages;
mod rules;
#[cfg(test)]
mod tests;

pub use messages::{Group, Msg};

use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{Claim, Column, Growth, Why};
use crate::protocol::{Ctx, NodeId, Protocol};
use crate::vec_map::VecMap;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "ARE_YOU_COORDINATOR",
    "I_AM_COORDINATOR",
    "INVITATION",
    "ACCEPT",
    "READY",
    "ARE_YOU_THERE",
    "YES",
    "NO",
];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "invitation",
    name: "Invitation",
    summary: "Garcia-Molina 1982: every node leads its own group; coordinators look for each other and the larger group's coordinator invites the other into one group; several leaders coexist by design",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    observers: Observers::None,
    takes_script: false,
    claims: Invitation::SAFETY,
    builder: Some(engine::<Invitation>),
    theory: None,
    tradeoff: Some(Claim {
        family: "invitation",
        messages: "O(n) per merge",
        growth: Some(Growth::Linear),
        latency: "a round trip per merge",
        partition_safe: true,
        partition: "yes, by allowing several leaders (one per group)",
        flaky_handled: None,
        why: &[
            Why {
                column: Column::FirstGrowth,
                measured: Some(Growth::Quadratic),
                text: "O(n) is one merge. Finding the groups to merge has every coordinator ask every other node whether it coordinates, and with every node starting in a group of its own that is n(n - 1) questions, so the first election grows like n squared.",
            },
            Why {
                column: Column::FailoverGrowth,
                measured: Some(Growth::Quadratic),
                text: "When the coordinator fails, each member forms a group of its own, and the search that merges them again has every coordinator ask every other node: n squared, as at the start.",
            },
        ],
    }),
};
/// Invitation timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Coordinator: time to look for other coordinators.
    Search,
    /// Coordinator: the answer window of a search closes.
    Collect,
    /// Coordinator: the priority delay before a merge is over.
    MergeDelay,
    /// Coordinator: the accept window of a merge closes.
    AcceptWindow,
    /// Accepted an invitation: no `READY` in time.
    AwaitReady,
    /// Member: time to ask the coordinator whether it is there.
    Check,
    /// Member: no `YES` from the coordinator for too long.
    CoordinatorTimeout,
}

/// Where a node is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Coordinates its group, in normal operation (paper: Normal, S.c = i).
    Coordinating,
    /// Coordinates a merge: invited, collecting ACCEPTs (paper: Election).
    Merging,
    /// Accepted an invitation, waiting for READY (paper: Reorganization).
    Joining,
    /// A member of a group (paper: Normal, S.c != i).
    Member,
}

/// One Invitation node.
#[derive(Debug, Clone)]
pub struct Invitation {
    id: NodeId,
    n: u32,
    phase: Phase,
    /// The group this node belongs to (or is joining).
    group: Group,
    /// Coordinator: the other members and when (local time) each last
    /// checked in (the paper's `Up`).
    up: VecMap<NodeId, i64>,
    /// Member: the member list the coordinator's READY gave.
    roster: Vec<NodeId>,
    /// Member: READY (or, if READY was lost, a YES) confirmed the group.
    confirmed: bool,
    /// Group counter; survives crashes.
    counter: u64,
    /// Coordinator: a search's answer window is open.
    searching: bool,
    /// Coordinators that answered this search, with their group sizes.
    found: VecMap<NodeId, u32>,
    /// Coordinators to invite once the priority delay is over.
    pending: Vec<NodeId>,
    /// Merging: the group being formed.
    forming: Option<Group>,
    /// Merging: who accepted so far.
    accepted: Vec<NodeId>,
    merges_started: u64,
    groups_formed_alone: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;
