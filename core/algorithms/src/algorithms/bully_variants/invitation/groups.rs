//! The paper's procedures on groups (Garcia-Molina 1982, section V):
//! forming one's own group, searching for other coordinators, merging,
//! joining by invitation and checking the coordinator.

use super::{C, Group, Invitation, Msg, Phase, Timer};
use crate::algorithms::detector::arm_leader_timeout;
use crate::protocol::{NodeId, Role};
use crate::time::{Micros, to_ms};

pub(super) fn names(ids: impl IntoIterator<Item = NodeId>) -> String {
    let v: Vec<String> = ids.into_iter().map(|id| format!("n{id}")).collect();
    if v.is_empty() {
        "nobody".into()
    } else {
        v.join(", ")
    }
}

impl Invitation {
    /// (group size, id): who keeps leading when two groups merge.
    pub(super) fn priority(&self) -> (u32, NodeId) {
        (self.up.len() as u32 + 1, self.id)
    }

    pub(super) fn arm_search(&self, ctx: &mut C<'_>) {
        arm_leader_timeout(ctx, Timer::Search);
    }

    pub(super) fn clear_coordinator_state(&mut self, ctx: &mut C<'_>) {
        self.up.clear();
        self.searching = false;
        self.found.clear();
        self.pending.clear();
        self.forming = None;
        self.accepted.clear();
        for t in [
            Timer::Search,
            Timer::Collect,
            Timer::MergeDelay,
            Timer::AcceptWindow,
        ] {
            ctx.cancel_timer(t);
        }
    }

    /// The paper's `Recovery`: a new group with this node alone, as its
    /// coordinator.
    pub(super) fn form_own_group(&mut self, ctx: &mut C<'_>, search_now: bool) {
        self.clear_coordinator_state(ctx);
        self.counter += 1;
        self.group = Group {
            coordinator: self.id,
            counter: self.counter,
        };
        self.phase = Phase::Coordinating;
        self.roster.clear();
        self.confirmed = false;
        for t in [Timer::AwaitReady, Timer::Check, Timer::CoordinatorTimeout] {
            ctx.cancel_timer(t);
        }
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        if search_now {
            self.start_search(ctx);
        } else {
            self.arm_search(ctx);
        }
    }

    pub(super) fn start_search(&mut self, ctx: &mut C<'_>) {
        if self.phase != Phase::Coordinating || self.searching || !self.pending.is_empty() {
            return;
        }
        // Forget members that stopped checking in.
        let now = ctx.local_now_us();
        let silent_limit = ctx.config().election_timeout_us.1 as i64;
        let gone: Vec<NodeId> = self
            .up
            .iter()
            .filter(|&(_, &heard)| now - heard > silent_limit)
            .map(|(&m, _)| m)
            .collect();
        if !gone.is_empty() {
            ctx.note_with(|| {
                format!(
                    "has not heard from member(s) {} for over {} ms; drops them from {}",
                    names(gone.iter().copied()),
                    to_ms(silent_limit as Micros),
                    self.group
                )
            });
            for m in gone {
                self.up.remove(&m);
            }
        }
        self.searching = true;
        self.found.clear();
        ctx.broadcast(Msg::AreYouCoordinator);
        let window = ctx.config().reply_timeout_us;
        ctx.set_timer(Timer::Collect, window);
    }

    pub(super) fn end_search(&mut self, ctx: &mut C<'_>) {
        self.searching = false;
        if self.found.is_empty() {
            self.arm_search(ctx);
            return;
        }
        let me = self.priority();
        let above: Vec<NodeId> = self
            .found
            .iter()
            .filter(|&(&j, &size)| (size, j) > me)
            .map(|(&j, _)| j)
            .collect();
        let below: Vec<NodeId> = self
            .found
            .iter()
            .filter(|&(&j, &size)| (size, j) < me)
            .map(|(&j, _)| j)
            .collect();
        let (size, _) = me;
        if below.is_empty() {
            ctx.note_with(|| {
                format!(
                    "finds coordinator(s) {} that outrank its group of {size}; waits to be invited",
                    names(above)
                )
            });
            self.arm_search(ctx);
        } else if above.is_empty() {
            ctx.note_with(|| format!(
                "finds coordinator(s) {}; its group of {size} outranks them all, so it invites them now",
                names(below.iter().copied())
            ));
            self.merge(ctx, below);
        } else {
            let delay = ctx.config().reply_timeout_us * above.len() as u64;
            ctx.note_with(|| format!(
                "finds coordinators {} above it and {} below; waits {} ms so the higher ones can invite first",
                names(above),
                names(below.iter().copied()),
                to_ms(delay)
            ));
            self.pending = below;
            ctx.set_timer(Timer::MergeDelay, delay);
        }
    }

    /// The paper's `Merge`: invite `coordinators` and the own members into
    /// a new group.
    pub(super) fn merge(&mut self, ctx: &mut C<'_>, coordinators: Vec<NodeId>) {
        self.phase = Phase::Merging;
        self.searching = false;
        self.pending.clear();
        ctx.cancel_timer(Timer::Search);
        self.counter += 1;
        let group = Group {
            coordinator: self.id,
            counter: self.counter,
        };
        self.forming = Some(group);
        self.accepted.clear();
        self.merges_started += 1;
        ctx.election_started();
        let (size, _) = self.priority();
        for j in coordinators.iter().chain(self.up.keys()) {
            ctx.send(*j, Msg::Invitation { group, size });
        }
        let window = ctx.config().reply_timeout_us * 2;
        ctx.set_timer(Timer::AcceptWindow, window);
    }

    /// The accept window closed: the accepted nodes form the new group.
    pub(super) fn finish_merge(&mut self, ctx: &mut C<'_>) {
        let Some(group) = self.forming.take() else {
            return;
        };
        let now = ctx.local_now_us();
        self.group = group;
        self.phase = Phase::Coordinating;
        self.up = self.accepted.drain(..).map(|m| (m, now)).collect();
        let mut members: Vec<NodeId> = self.up.keys().copied().collect();
        members.push(self.id);
        members.sort_unstable();
        ctx.note_with(|| {
            format!(
                "{} is formed: {} (coordinator n{})",
                group,
                names(members.iter().copied()),
                self.id
            )
        });
        for &m in self.up.keys() {
            ctx.send(
                m,
                Msg::Ready {
                    group,
                    members: members.clone(),
                },
            );
        }
        self.arm_search(ctx);
    }

    /// Accepts an invitation into `group`: answer the inviter and wait for
    /// its READY.
    pub(super) fn join(&mut self, ctx: &mut C<'_>, group: Group) {
        self.clear_coordinator_state(ctx);
        ctx.cancel_timer(Timer::Check);
        ctx.cancel_timer(Timer::CoordinatorTimeout);
        self.phase = Phase::Joining;
        self.group = group;
        self.roster.clear();
        self.confirmed = false;
        ctx.send(group.coordinator, Msg::Accept { group });
        // Between groups until READY: the page shows no leader for it.
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(None);
        let wait = ctx.config().reply_timeout_us * 3;
        ctx.set_timer(Timer::AwaitReady, wait);
    }

    pub(super) fn on_invitation(&mut self, ctx: &mut C<'_>, from: NodeId, group: Group, size: u32) {
        match self.phase {
            Phase::Coordinating => {
                let me = self.priority();
                if (size, group.coordinator) < me {
                    ctx.note_with(|| format!(
                        "declines n{}'s invitation: its group of {} outranks n{}'s group of {size}",
                        group.coordinator, me.0, group.coordinator
                    ));
                    return;
                }
                let members: Vec<NodeId> = self.up.keys().copied().collect();
                if members.is_empty() {
                    ctx.note_with(|| {
                        format!("accepts n{}'s invitation into {group}", group.coordinator)
                    });
                } else {
                    ctx.note_with(|| format!(
                        "accepts n{}'s invitation into {group} and passes it on to its member(s) {}",
                        group.coordinator,
                        names(members.iter().copied())
                    ));
                }
                for m in members {
                    ctx.send(m, Msg::Invitation { group, size });
                }
                self.join(ctx, group);
            }
            Phase::Member if from == self.group.coordinator => {
                if group.coordinator == from {
                    ctx.note_with(|| format!(
                        "its coordinator n{from} re-invites it into the merged group {group}; accepts"
                    ));
                } else {
                    ctx.note_with(|| format!(
                        "its coordinator n{from} passes on n{}'s invitation into {group}; accepts",
                        group.coordinator
                    ));
                }
                self.join(ctx, group);
            }
            // Not from the own coordinator, or in the middle of a merge.
            _ => {}
        }
    }

    pub(super) fn on_ready(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        group: Group,
        members: Vec<NodeId>,
    ) {
        if self.phase != Phase::Joining || group != self.group || from != group.coordinator {
            return;
        }
        self.phase = Phase::Member;
        self.roster = members;
        self.confirmed = true;
        ctx.set_leader(Some(from));
        ctx.cancel_timer(Timer::AwaitReady);
        self.start_checks(ctx);
    }

    pub(super) fn start_checks(&self, ctx: &mut C<'_>) {
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Check, period);
        arm_leader_timeout(ctx, Timer::CoordinatorTimeout);
    }
}
