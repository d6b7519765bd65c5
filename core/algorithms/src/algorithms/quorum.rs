//! Majorities, written once for the algorithms that elect by one (Raft
//! and Multi-Paxos): how many make a majority, who the peers are, how many
//! a leader has heard from lately (check-quorum, Multi-Paxos's step-down)
//! and the heartbeat rounds of a lease held by a majority's
//! acknowledgements (Raft's leader lease, Multi-Paxos's master lease):
//! which round a majority has acknowledged, and when that round started
//! on the leader's clock, which is where the lease is counted from.

use crate::protocol::NodeId;
use std::collections::VecDeque;

/// A majority of `n` nodes.
pub(crate) fn majority(n: u32) -> usize {
    n as usize / 2 + 1
}

/// Every node of `0..n` but `me` (never an extra node).
pub(crate) fn peers(me: NodeId, n: u32) -> impl Iterator<Item = NodeId> + use<> {
    (0..n).filter(move |&p| p != me)
}

/// How many of the `n` nodes a leader `me` has heard from within `window`
/// before its local time `now`: itself and every peer whose last
/// acknowledgement (`last_ack_at`, local time by node id) is that recent.
pub(crate) fn heard_within(
    last_ack_at: &[Option<i64>],
    me: NodeId,
    n: u32,
    now: i64,
    window: i64,
) -> usize {
    1 + peers(me, n)
        .filter(|&p| last_ack_at[p as usize].is_some_and(|t| now - t < window))
        .count()
}

/// Where a round's start is kept: the last few rounds, `(round, local
/// start time in us)`, oldest first.
pub(crate) type RoundStarts = VecDeque<(u64, i64)>;
/// Remembers that `round` began at local time `now`, keeping at most
/// `kept` rounds.
pub(crate) fn round_begins(starts: &mut RoundStarts, kept: usize, round: u64, now: i64) {
    if starts.len() >= kept {
        starts.pop_front();
    }
    starts.push_back((round, now));
}

/// The newest round that `majority` nodes have acknowledged and its local
/// start time, if it is still kept; older rounds are forgotten on the way.
/// `acked` holds every node's last acknowledged round by node id; the
/// leader's own entry (`me`) is not read: its current `round` counts.
pub(crate) fn majority_round_start(
    starts: &mut RoundStarts,
    acked: &[u64],
    me: usize,
    round: u64,
    majority: usize,
) -> Option<(u64, i64)> {
    let mut rounds: Vec<u64> = acked
        .iter()
        .enumerate()
        .map(|(p, &r)| if p == me { round } else { r })
        .collect();
    rounds.sort_unstable_by(|a, b| b.cmp(a));
    let agreed = rounds[majority - 1];
    while starts.front().is_some_and(|&(r, _)| r < agreed) {
        starts.pop_front();
    }
    starts.front().copied().filter(|&(r, _)| r == agreed)
}
