//! Counters and timers of a run, exactly as below defines them.
//!
//! - A message counts as sent when its sender sends it; a dropped message
//!   counts as sent and as dropped. The extra copy of a duplicated message
//!   is counted in `duplicated`, so at any time
//!   `sent + duplicated = delivered + dropped + in_flight`.
//! - `election` and `background` split `sent` by purpose; `by_kind` by kind.
//! - `elections`: times a node started an election (each initiator counts).
//! - `leader_changes`: times leadership passed to a node other than the
//!   previous leader (the first leader is not a change).
//! - `leaderless`: true time with no live node in the leader role;
//!   `split_brain`: true time with more than one.
//!
//! # Counting rules
//!
//! Comparisons between algorithms are only fair if every algorithm is
//! counted the same way. The counters live in `core/engine/src/metrics.rs` and
//! reach users as the run summary (`election run --json`, the page's
//! metrics panel):
//!
//! - **sent**: a message counts when its sender sends it, whatever happens
//!   to it then. Each send counts once in `sent`, once in its kind
//!   (`by_kind`) and once in its purpose.
//! - **purpose**: every message kind declares `Election` (exists to choose
//!   a leader) or `Background` (heartbeats, lease renewals, session pings,
//!   probes); `election + background = sent`. Each algorithm's module docs
//!   say which of its kinds are which.
//! - **duplicated**: the extra copy of a duplicated message; it is not a
//!   second send. **delivered** and **dropped** count copies. Copies still
//!   on the wire (including deliveries deferred by a pause or a slow
//!   receiver) are **in_flight**, so at every moment
//!   `sent + duplicated = delivered + dropped + in_flight`.
//! - **dropped** copies: lost at random (decided at send), blocked by a
//!   partition or a cut (at send or at arrival), or arriving at a crashed
//!   node.
//! - **elections**: `Ctx::election_started` calls; each initiator counts
//!   (an algorithm's docs say what starting means for it, e.g. a merge for
//!   the invitation algorithm).
//! - **first_leader**: the first moment any live node holds the leader role.
//! - **leader_changes**: a node takes the leader role and it is not the
//!   node that last took it. The first leader is not a change; a leader that
//!   steps down and is elected again is not one either.
//! - **leaderless** and **split_brain**: true time with zero and with more
//!   than one live node in the leader role (crashed nodes do not count,
//!   paused ones do). This counts every leader, so a stale Raft leader cut
//!   off in a minority adds split-brain time although no property is broken.
//! - **recovery**: from the last fault-type event (a scheduled fault, a
//!   pause's resume, a flaky node's down or up) to the first moment the
//!   cluster settles after it (core/engine/src/engine/settle.rs, module docs),
//!   and the election
//!   messages sent in between: the election cost of that failure.
//!   `election compare` reports it as "failover". With no fault, it is
//!   measured from time 0.
//! - **failover**: like recovery, but only from a fault that removed this
//!   run's leader, so a comparison never shows a run's first election (or
//!   a fault that missed its leader) as a failover. A fault-type event
//!   *removes the leader* when a node that was an *effective leader* right
//!   before it is not one right after it. An effective leader is a live
//!   participant in the leader role that is not paused and whose partition
//!   group holds a strict majority of the voting participants (observers
//!   do not count). So a crash of the leader, a pause of it, a flaky
//!   leader going down, or a partition that cuts it off from a majority
//!   removes it; a fault aimed at `"leader"` while none leads, a crash of a
//!   follower, a heal or a partition that leaves the leader with a
//!   majority does not. Failover runs from the last such fault to the
//!   first moment after it at which the election is over (the settling
//!   rule without its first condition: faults still scheduled later do
//!   not hold it back; engine/settle.rs), and counts the election
//!   messages sent in between. Later faults that removed no leader do not
//!   restart it. It is `None` while no fault has
//!   removed a leader (`leader_removed_us` is `None`) or the cluster has
//!   not settled since. `election run --json` reports it as `failover_ms`,
//!   `failover_election_messages` and `leader_removed_ms`; `election
//!   compare` and the page's compare table show it as "failover" and
//!   "recovery".
//! - **events**: events that happened (starts, deliveries, drops, timer
//!   firings, notices, faults); queue bookkeeping (a stale or re-armed
//!   timer, a deferred delivery, the start of a node dead from time 0) is
//!   not counted.
//! - **writes**: a resource's applied and rejected writes, and applied
//!   writes whose token was below one applied before (a stale leader got
//!   through).

use crate::protocol::{NodeId, Purpose};
use crate::time::Micros;
use std::borrow::Cow;

/// Live counters of one run.
#[derive(Debug, Clone)]
pub struct Metrics {
    /// Message kind names, aligned with `by_kind`: an algorithm's static
    /// list, or a script's kinds in the order the run first sent them.
    pub kinds: Cow<'static, [&'static str]>,
    /// Messages sent.
    pub sent: u64,
    /// Extra copies made by duplication.
    pub duplicated: u64,
    /// Messages (copies) handed to a receiver.
    pub delivered: u64,
    /// Messages (copies) lost.
    pub dropped: u64,
    /// Copies still travelling.
    pub in_flight: u64,
    /// Election-purpose copies still travelling.
    pub in_flight_election: u64,
    /// Sent with purpose election.
    pub election: u64,
    /// Sent with purpose background.
    pub background: u64,
    /// Sent, by kind index.
    pub by_kind: Vec<u64>,
    /// Elections started.
    pub elections: u64,
    /// Leadership handovers.
    pub leader_changes: u64,
    /// When the first node became leader.
    pub first_leader_us: Option<Micros>,
    /// Time with no leader, up to `accounted_to_us`.
    pub leaderless_us: Micros,
    /// Time with several leaders, up to `accounted_to_us`.
    pub split_brain_us: Micros,
    /// When the last fault (crash, recovery, partition, ...) was applied.
    pub last_fault_us: Option<Micros>,
    /// `election` when the last fault was applied.
    pub election_at_last_fault: u64,
    /// The first time the cluster settled after the last fault (or after
    /// the start, with no faults): every live node follows the one live
    /// leader of its component, no election message in flight.
    pub recovered_us: Option<Micros>,
    /// `election` at `recovered_us`.
    pub election_at_recovery: u64,
    /// When the last fault that removed the leader was applied (module
    /// docs: `failover`).
    pub leader_removed_us: Option<Micros>,
    /// `election` when that fault was applied (before it acted).
    pub election_at_leader_removed: u64,
    /// The first time the cluster settled after `leader_removed_us`.
    pub failover_settled_us: Option<Micros>,
    /// `election` at `failover_settled_us`.
    pub election_at_failover: u64,
    /// Writes a resource applied.
    pub writes_accepted: u64,
    /// Writes a resource rejected as stale (fenced off).
    pub writes_rejected: u64,
    /// Applied writes whose token was below one applied before: a stale
    /// leader got through (no fencing).
    pub stale_writes_accepted: u64,
    /// Events that happened (deliveries, drops, timer firings, faults,
    /// starts); queue bookkeeping such as stale timers is not counted.
    pub events: u64,
    accounted_to_us: Micros,
    leaders_now: usize,
    last_leader: Option<NodeId>,
}

impl Metrics {
    /// Zeroed counters for an algorithm with these message kinds.
    pub fn new(kinds: &'static [&'static str]) -> Self {
        Self {
            kinds: Cow::Borrowed(kinds),
            sent: 0,
            duplicated: 0,
            delivered: 0,
            dropped: 0,
            in_flight: 0,
            in_flight_election: 0,
            election: 0,
            background: 0,
            by_kind: vec![0; kinds.len()],
            elections: 0,
            leader_changes: 0,
            first_leader_us: None,
            leaderless_us: 0,
            split_brain_us: 0,
            writes_accepted: 0,
            writes_rejected: 0,
            stale_writes_accepted: 0,
            last_fault_us: None,
            election_at_last_fault: 0,
            recovered_us: None,
            election_at_recovery: 0,
            leader_removed_us: None,
            election_at_leader_removed: 0,
            failover_settled_us: None,
            election_at_failover: 0,
            events: 0,
            accounted_to_us: 0,
            leaders_now: 0,
            last_leader: None,
        }
    }

    /// The index of kind `name` (a script's, named at run time), added
    /// with a zero count on first use.
    pub fn kind_index(&mut self, name: &'static str) -> usize {
        if let Some(i) = self.kinds.iter().position(|k| *k == name) {
            return i;
        }
        self.kinds.to_mut().push(name);
        self.by_kind.push(0);
        self.kinds.len() - 1
    }

    /// Counts a sent message.
    pub fn on_send(&mut self, kind: usize, purpose: Purpose) {
        self.sent += 1;
        self.by_kind[kind] += 1;
        match purpose {
            Purpose::Election => self.election += 1,
            Purpose::Background => self.background += 1,
        }
    }

    /// Counts a copy put on the wire (the original or a duplicate).
    pub fn on_wire(&mut self, purpose: Purpose) {
        self.in_flight += 1;
        if purpose == Purpose::Election {
            self.in_flight_election += 1;
        }
    }

    /// Counts a copy leaving the wire, delivered or not.
    pub fn off_wire(&mut self, purpose: Purpose, delivered: bool) {
        self.in_flight -= 1;
        if purpose == Purpose::Election {
            self.in_flight_election -= 1;
        }
        if delivered {
            self.delivered += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Brings the leaderless and split-brain clocks up to `now`.
    pub fn account_to(&mut self, now: Micros) {
        let span = now.saturating_sub(self.accounted_to_us);
        match self.leaders_now {
            0 => self.leaderless_us += span,
            1 => {}
            _ => self.split_brain_us += span,
        }
        self.accounted_to_us = self.accounted_to_us.max(now);
    }

    /// Records the set of live leaders at `now`.
    pub fn on_leaders(&mut self, now: Micros, leaders: &[NodeId]) {
        self.account_to(now);
        self.leaders_now = leaders.len();
        if leaders.is_empty() {
            return;
        }
        if self.first_leader_us.is_none() {
            self.first_leader_us = Some(now);
        }
    }

    /// Records that a fault was applied at `now`: recovery is measured
    /// again from here.
    pub fn on_fault(&mut self, now: Micros) {
        self.last_fault_us = Some(now);
        self.election_at_last_fault = self.election;
        self.recovered_us = None;
    }

    /// Records that the cluster settled at `now`.
    pub fn on_settled(&mut self, now: Micros) {
        self.recovered_us = Some(now);
        self.election_at_recovery = self.election;
    }

    /// Time from the last fault (or the start) to the first settling after
    /// it, and the election messages sent in between: the election cost of
    /// one failure (module docs: `recovery`) when
    /// the scenario's last fault is that failure.
    pub fn recovery(&self) -> Option<(Micros, u64)> {
        let settled = self.recovered_us?;
        let from = self.last_fault_us.unwrap_or(0);
        Some((
            settled.saturating_sub(from),
            self.election_at_recovery - self.election_at_last_fault,
        ))
    }

    /// Records that the fault applied at `now`, when `election_before`
    /// election messages had been sent, removed the leader: failover is
    /// measured again from here (module docs: `failover`).
    pub fn on_leader_removed(&mut self, now: Micros, election_before: u64) {
        self.leader_removed_us = Some(now);
        self.election_at_leader_removed = election_before;
        self.failover_settled_us = None;
    }

    /// Whether a fault removed the leader and the cluster has not settled
    /// since.
    pub fn awaiting_failover(&self) -> bool {
        self.leader_removed_us.is_some() && self.failover_settled_us.is_none()
    }

    /// Records that the cluster settled at `now`, after the fault that
    /// removed the leader.
    pub fn on_failover_settled(&mut self, now: Micros) {
        self.failover_settled_us = Some(now);
        self.election_at_failover = self.election;
    }

    /// Time from the last fault that removed the leader to the first
    /// settling after it, and the election messages sent in between
    /// (module docs: `failover`); `None` while no fault removed a leader
    /// or the cluster has not settled since.
    pub fn failover(&self) -> Option<(Micros, u64)> {
        let from = self.leader_removed_us?;
        let settled = self.failover_settled_us?;
        Some((
            settled.saturating_sub(from),
            self.election_at_failover - self.election_at_leader_removed,
        ))
    }

    /// Records that `node` took the leader role at `now`.
    pub fn on_new_leader(&mut self, node: NodeId) {
        if self.last_leader.is_some_and(|l| l != node) {
            self.leader_changes += 1;
        }
        self.last_leader = Some(node);
    }
}
