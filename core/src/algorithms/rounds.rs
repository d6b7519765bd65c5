//! Heartbeat rounds for leases held by a majority's acknowledgements
//! (Raft's leader lease, Multi-Paxos's master lease): which round a
//! majority has acknowledged, and when that round started on the leader's
//! clock, which is where the lease is counted from.

use std::collections::VecDeque;

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
