//! Zab phase 1 after the election (Junqueira et al. 2011): following and
//! leading, the new epoch proposed by FOLLOWERINFO and LEADERINFO and
//! promised by ACKEPOCH, and the established leader's pings and writes.

use super::{C, Learner, Msg, Server, ServerState, Timer, ms, zxid, zxid_text};
use crate::algorithms::detector::leader_timeout;
use crate::protocol::{NodeId, Role};

impl Server {
    pub(super) fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        self.state = ServerState::Following;
        self.leader = Some(leader);
        self.synced = false;
        self.learners.clear();
        self.proposed_epoch = None;
        self.established = false;
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Follower, Some(self.stored.accepted_epoch));
        ctx.set_leader(Some(leader));
        ctx.note_with(|| {
            format!(
                "decides in round {}: n{leader} leads; FOLLOWING, connects to it with its accepted epoch {}",
                self.round, self.stored.accepted_epoch
            )
        });
        ctx.send(
            leader,
            Msg::FollowerInfo {
                accepted_epoch: self.stored.accepted_epoch,
            },
        );
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    pub(super) fn lead(&mut self, ctx: &mut C<'_>) {
        self.state = ServerState::Leading;
        self.leader = Some(self.id);
        self.established = false;
        self.proposed_epoch = None;
        ctx.note_with(|| {
            format!(
                "decides in round {}: it leads; LEADING, waits for a quorum of followers to connect",
                self.round
            )
        });
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Establish, t);
        self.try_propose_epoch(ctx);
    }

    /// With a quorum connected, proposes the epoch above every accepted
    /// epoch it heard.
    pub(super) fn try_propose_epoch(&mut self, ctx: &mut C<'_>) {
        let connected = self.voting_learners().count() + 1;
        if self.proposed_epoch.is_some() || connected < self.quorum() {
            return;
        }
        let highest = self
            .voting_learners()
            .map(|l| l.accepted_epoch)
            .max()
            .unwrap_or(0)
            .max(self.stored.accepted_epoch);
        let epoch = highest + 1;
        self.stored.accepted_epoch = epoch;
        self.proposed_epoch = Some(epoch);
        ctx.vote(epoch, self.id);
        ctx.set_role(Role::Candidate, Some(epoch));
        ctx.note_with(|| {
            format!(
                "{connected} of {} connected (itself included): proposes epoch {epoch}, one above the highest accepted epoch {highest}",
                self.voters
            )
        });
        let msg = Msg::LeaderInfo {
            epoch,
            zxid: self.stored.last_zxid,
        };
        let followers: Vec<NodeId> = self.learners.keys().copied().collect();
        for f in followers {
            ctx.send(f, msg);
        }
        self.check_established(ctx);
    }

    pub(super) fn check_established(&mut self, ctx: &mut C<'_>) {
        let Some(epoch) = self.proposed_epoch else {
            return;
        };
        let promises = 1 + self.voting_learners().filter(|l| l.fresh).count();
        if self.established || promises < self.quorum() {
            return;
        }
        self.established = true;
        self.stored.current_epoch = epoch;
        self.update_election_vote(epoch);
        self.txns = 0;
        ctx.cancel_timer(Timer::Establish);
        ctx.set_role(Role::Leader, Some(epoch));
        ctx.set_leader(Some(self.id));
        let period = ctx.config().heartbeat_us;
        ctx.note_with(|| {
            format!(
                "{promises} of {} promised epoch {epoch} (itself included): leads epoch {epoch}; pings its followers every {} ms",
                self.voters,
                ms(period)
            )
        });
        ctx.set_timer(Timer::Heartbeat, period);
        if self.resource.is_some() {
            let every = ctx.config().timing.write_us;
            self.next_write_us = ctx.local_now_us() + every as i64;
            ctx.set_timer(Timer::Write, every);
        }
    }

    pub(super) fn on_follower_info(&mut self, ctx: &mut C<'_>, from: NodeId, accepted_epoch: u64) {
        if self.state == ServerState::Following {
            return; // not leading: the connection is refused
        }
        let now = ctx.local_now_us();
        let learner = self.learners.get_or_insert(
            from,
            Learner {
                accepted_epoch,
                acked: false,
                fresh: false,
                heard_us: now,
                observer: false,
            },
        );
        learner.accepted_epoch = accepted_epoch;
        learner.heard_us = now;
        if self.state == ServerState::Looking {
            ctx.note_with(|| {
                format!(
                    "n{from} connects to follow it; still LOOKING, it keeps the connection waiting"
                )
            });
            return;
        }
        match self.proposed_epoch {
            // ZooKeeper's `getEpochToPropose` once the epoch is chosen: a
            // latecomer gets the same epoch.
            Some(epoch) => {
                ctx.send(
                    from,
                    Msg::LeaderInfo {
                        epoch,
                        zxid: self.stored.last_zxid,
                    },
                );
                if accepted_epoch > epoch {
                    self.give_up_epoch(ctx, from, epoch, accepted_epoch);
                }
            }
            None => self.try_propose_epoch(ctx),
        }
    }

    /// A follower connected with an accepted epoch above the epoch this
    /// leader proposed: it will refuse the `LEADERINFO` just sent
    /// (`Learner.registerWithLeader`), and again on every later try, for as
    /// long as this epoch lasts. ZooKeeper keeps leading without it; here
    /// the leader takes that promise as its own accepted epoch (the rule of
    /// `getEpochToPropose`, `lastAcceptedEpoch >= epoch`, applied late) and
    /// looks again, so that the next discovery proposes above it.
    pub(super) fn give_up_epoch(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        epoch: u64,
        promised: u64,
    ) {
        self.stored.accepted_epoch = promised;
        ctx.note_with(|| {
            format!(
                "n{from} already promised epoch {promised}, above its epoch {epoch}, and cannot follow it: takes {promised} as its accepted epoch and looks again, for an epoch above it"
            )
        });
        self.look_for_leader(ctx);
    }

    pub(super) fn on_leader_info(&mut self, ctx: &mut C<'_>, from: NodeId, epoch: u64, zxid: u64) {
        if self.state != ServerState::Following || self.leader != Some(from) {
            return;
        }
        if self.observer() {
            self.observer_takes_epoch(ctx, from, epoch, zxid);
            return;
        }
        let accepted = self.stored.accepted_epoch;
        let current_epoch = if epoch > accepted {
            self.stored.accepted_epoch = epoch;
            ctx.vote(epoch, from);
            Some(self.stored.current_epoch)
        } else if epoch == accepted {
            None
        } else {
            ctx.note_with(|| {
                format!(
                    "n{from} proposes epoch {epoch}, but it already promised epoch {accepted}: stops following"
                )
            });
            self.look_for_leader(ctx);
            return;
        };
        self.stored.current_epoch = epoch;
        self.stored.last_zxid = zxid;
        self.synced = true;
        self.update_election_vote(epoch);
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Follower, Some(epoch));
        ctx.note_with(|| {
            if current_epoch.is_some() {
                format!(
                    "promises epoch {epoch} to n{from} (it had promised {accepted}) and takes its history up to {}",
                    zxid_text(zxid)
                )
            } else {
                format!("already promised epoch {epoch}; acknowledges n{from} again")
            }
        });
        ctx.send(
            from,
            Msg::AckEpoch {
                epoch,
                current_epoch,
            },
        );
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    /// ZooKeeper's `waitForEpochAck`: only a new promise (a current epoch,
    /// not -1) counts toward the quorum.
    pub(super) fn on_ack_epoch(&mut self, ctx: &mut C<'_>, from: NodeId, epoch: u64, fresh: bool) {
        if self.state != ServerState::Leading || self.proposed_epoch != Some(epoch) {
            return;
        }
        let now = ctx.local_now_us();
        if let Some(l) = self.learners.get_mut(&from) {
            l.acked = true;
            l.fresh |= fresh;
            l.heard_us = now;
        }
        self.check_established(ctx);
    }

    pub(super) fn on_ping(&mut self, ctx: &mut C<'_>, from: NodeId, zxid: u64) {
        if self.state != ServerState::Following || self.leader != Some(from) {
            return;
        }
        if self.synced {
            self.stored.last_zxid = zxid;
        }
        self.heard_leader_us = ctx.local_now_us();
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
        ctx.send(from, Msg::PingReply);
    }

    pub(super) fn write(&mut self, ctx: &mut C<'_>) {
        let (Some(resource), Some(epoch)) = (self.resource, self.proposed_epoch) else {
            return;
        };
        self.txns += 1;
        self.stored.last_zxid = zxid(epoch, self.txns);
        ctx.send(resource, Msg::Write { token: epoch });
        let every = ctx.config().timing.write_us;
        self.next_write_us = ctx.local_now_us() + every as i64;
        ctx.set_timer(Timer::Write, every);
    }
}
