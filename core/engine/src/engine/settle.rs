//! When is an election over: the settling rule (below: every live node of the
//! component, or of the majority for consensus algorithms, follows one live
//! leader and nothing
//! election-related is in flight), and the leader bookkeeping that feeds
//! the metrics and the property checks.
//!
//! # Settling rules
//!
//! When an election is over decides where `election run` stops, when
//! recovery is measured, and what the page calls the end of a run
//! (`core/engine/src/engine/settle.rs`). The cluster is **settled** when all
//! of:
//!
//! 1. no fault-type event is still in the queue (scheduled faults, a
//!    pause's end, a flaky node's next toggle);
//! 2. no election-purpose message is on the wire, and no undeliverable
//!    notice of one is still to be handed to its sender;
//! 3. the nodes agree:
//!    - **classical algorithms** (and the invitation algorithm): in every
//!      partition group at most one live node leads, and every live
//!      participant of the group is not a candidate and believes in exactly
//!      that leader (a group with live nodes and no leader is not settled);
//!    - **consensus and coordination algorithms**: some partition group
//!      holds a strict majority of the n participants (of the voters, when
//!      some are observers), exactly one participant of that group leads,
//!      and every live participant of that group, observers included, is not
//!      a candidate and follows it. Nodes outside the majority (a stale
//!      leader cut off in a minority) do not count.
//!
//! Components are partition groups; a one-way cut does not split a group.
//! Service and resource nodes never take part. Agreement is recomputed only
//! after a role, a leader belief, a crash, a recovery or the partition
//! changed, so asking after every event is cheap.
//!
//! **The end of a run** (`Engine::run_to_end`): `until_ms` when the scenario
//! sets it; else the first moment after time 0 at which the cluster is
//! settled, once every event of that instant has run and it is still settled
//! (a node resuming at that instant may unsettle it); else, when nothing is
//! left before it, the moment the queue ran dry if settled; else the run
//! limit, 60 s of simulated time (`DEFAULT_RUN_LIMIT_US`). A run that
//! reaches one of the engine's limits (core/engine/src/limits.rs, module
//! docs) or a script error ends there, at that moment, whatever `until_ms`
//! says (its summary's `stopped_by`, `truncated` and `end_ms`). The end can be searched
//! in pieces (`run_to_end_within`) with the same result after the same
//! events.

use super::*;

impl<P: Protocol> Engine<P> {
    /// Whether the election has settled: no faults pending, no election
    /// message on the wire, and in every component all live nodes follow
    /// the one live leader of that component.
    ///
    /// Asked after every event, so the common answers (something pending,
    /// nothing changed) are inlined and only a recomputation is a call.
    #[inline]
    pub fn settled(&mut self) -> bool {
        if self.pending_faults > 0
            || self.metrics.in_flight_election > 0
            || self.election_notices > 0
        {
            return false;
        }
        if self.agreement_dirty {
            self.refresh_agreement();
        }
        self.agreement
    }

    /// Rules 2 and 3 of settling without rule 1: the election is over
    /// although faults are still scheduled later (failover ends here:
    /// metrics module docs, `failover`).
    pub fn election_over(&mut self) -> bool {
        if self.metrics.in_flight_election > 0 || self.election_notices > 0 {
            return false;
        }
        if self.agreement_dirty {
            self.refresh_agreement();
        }
        self.agreement
    }

    #[inline(never)]
    fn refresh_agreement(&mut self) {
        self.agreement = self.compute_agreement();
        self.agreement_dirty = false;
    }

    pub(super) fn compute_agreement(&self) -> bool {
        if self.safety == Safety::Consensus {
            return self.majority_agrees();
        }
        let group = &self.network.group;
        // By partition group (small numbers: see `Network::partition`).
        let mut leader_of_group: Vec<Option<NodeId>> = vec![None; group_count(group)];
        for &l in &self.leaders {
            if leader_of_group[group[l as usize] as usize]
                .replace(l)
                .is_some()
            {
                return false;
            }
        }
        self.slots.iter().enumerate().all(|(id, slot)| {
            if slot.state.is_none() || slot.role == Role::Service {
                return true;
            }
            slot.role != Role::Candidate
                && slot.leader.is_some()
                && slot.leader == leader_of_group[group[id] as usize]
        })
    }

    /// Consensus: some partition group holds a majority of the voting
    /// participants (observers, the last `options.observers`, do not
    /// count), exactly one node of that group leads, and every live
    /// participant in it, observers included, follows that node (a stale
    /// leader cut off in a minority does not count).
    pub(super) fn majority_agrees(&self) -> bool {
        let n = self.config.n as usize;
        let voters = n.saturating_sub(self.config.options.observers as usize);
        let group = &self.network.group;
        let mut size = vec![0usize; group_count(group)];
        for &g in &group[..voters] {
            size[g as usize] += 1;
        }
        let Some(majority) = size.iter().position(|&count| 2 * count > voters) else {
            return false;
        };
        let majority = majority as u32;
        let mut leaders = self
            .leaders
            .iter()
            .filter(|&&l| (l as usize) < n && group[l as usize] == majority);
        let (Some(&leader), None) = (leaders.next(), leaders.next()) else {
            return false;
        };
        self.slots[..n].iter().enumerate().all(|(id, slot)| {
            slot.state.is_none()
                || group[id] != majority
                || (slot.role != Role::Candidate && slot.leader == Some(leader))
        })
    }

    /// The effective leaders now (metrics module docs: `failover`): live
    /// participants in the leader role, not paused, whose partition group
    /// holds a strict majority of the voting participants.
    pub(super) fn effective_leaders(&self) -> Vec<NodeId> {
        self.leaders
            .iter()
            .copied()
            .filter(|&l| self.is_effective_leader(l))
            .collect()
    }

    /// Whether `id` is an effective leader now (see `effective_leaders`).
    pub(super) fn is_effective_leader(&self, id: NodeId) -> bool {
        let n = self.config.n as usize;
        let i = id as usize;
        if i >= n {
            return false;
        }
        let slot = &self.slots[i];
        if slot.state.is_none()
            || slot.role != Role::Leader
            || slot.paused_until.is_some_and(|until| until > self.now)
        {
            return false;
        }
        let voters = n.saturating_sub(self.config.options.observers as usize);
        let group = &self.network.group;
        let with_it = group[..voters].iter().filter(|&&g| g == group[i]).count();
        2 * with_it > voters
    }

    pub(super) fn emit_violations(&mut self, found: Vec<Violation>) {
        for v in found {
            self.hash_event(HashTag::Violation, &[]);
            self.hasher.write(v.property.as_bytes());
            emit!(
                self,
                Event::Violation {
                    property: v.property,
                    detail: v.detail,
                    nodes: v.nodes,
                }
            );
        }
    }

    pub(super) fn refresh_leaders(&mut self) {
        if !self.leaders_dirty {
            return;
        }
        self.leaders_dirty = false;
        let leaders: Vec<NodeId> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.state.is_some() && s.role == Role::Leader)
            .map(|(id, _)| id as NodeId)
            .collect();
        self.metrics.on_leaders(self.now, &leaders);
        let new = self
            .checker
            .on_change(self.now, &leaders, &self.network.group);
        self.emit_violations(new);
        if leaders != self.leaders {
            self.leader_set_changes += 1;
        }
        if !leaders.is_empty() && !self.waiting_faults.is_empty() {
            // A fault waiting for the next leader fires now, right after
            // the event that made it.
            for index in std::mem::take(&mut self.waiting_faults) {
                self.schedule(self.now, Ev::Fault(index));
            }
        }
        self.leaders = leaders;
    }
}

/// How many partition groups `group` (each node's group number) can name:
/// tables by group are this long. Plain `Vec`s rather than maps keyed by
/// group keep `BTreeMap` insertion and entry code out of the wasm.
fn group_count(group: &[u32]) -> usize {
    group.iter().max().map_or(0, |&g| g as usize + 1)
}
