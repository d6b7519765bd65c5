//! The leader's side of Multi-Paxos (Lamport 2001, section 3; Paxos Made
//! Live 5.1): heartbeats as accept requests of an empty value, their
//! acknowledgements, stepping down without a majority, and the fenced
//! writes. An acceptor accepts a heartbeat of a ballot at or above its
//! promise and follows its sender.

use super::{C, Msg, Phase, Replica, Timer};
use crate::algorithms::quorum;
use crate::protocol::NodeId;

impl Replica {
    /// A new leader's volatile state: no round answered yet; the first
    /// heartbeat round at once, the writes, and (master lease) the
    /// deadline for the first renewal.
    pub(super) fn start_leading(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        let n = self.n as usize;
        self.leader_since = now;
        self.round = 0;
        self.round_started.clear();
        self.last_ack_at = vec![None; n];
        self.acked_round = vec![0; n];
        self.start_lease_deadline(ctx);
        self.heartbeat(ctx);
        if self.phase == Phase::Leader && self.resource.is_some() {
            let every = ctx.config().timing.write_us;
            ctx.set_timer(Timer::Write, every);
        }
    }

    /// One heartbeat round: (without the master lease) step down if no
    /// majority acknowledged within the minimum election timeout, else
    /// `HEARTBEAT` to every replica.
    pub(super) fn heartbeat(&mut self, ctx: &mut C<'_>) {
        if self.lost_majority(ctx) {
            return;
        }
        self.round += 1;
        self.round_begins(ctx.local_now_us());
        let (ballot, round) = (self.ballot, self.round);
        for p in quorum::peers(self.id, self.n) {
            ctx.send(p, Msg::Heartbeat { ballot, round });
        }
        let every = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, every);
    }

    /// Without the master lease, once it has led for the minimum election
    /// timeout: fewer than a majority (itself included) acknowledged a
    /// heartbeat within that window, so it steps down. True if it did.
    fn lost_majority(&mut self, ctx: &mut C<'_>) -> bool {
        let now = ctx.local_now_us();
        let window = self.timeout_us.0 as i64;
        if self.master_lease || now - self.leader_since < window {
            return false;
        }
        let heard = quorum::heard_within(&self.last_ack_at, self.id, self.n, now, window);
        if heard >= quorum::majority(self.n) {
            return false;
        }
        self.say_no_majority(ctx, heard, window);
        self.step_down(ctx);
        self.arm_election_timer(ctx);
        true
    }

    /// A leader stops: no heartbeats, writes or lease any more.
    pub(super) fn stop_leading(&mut self, ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.cancel_timer(Timer::Write);
        ctx.cancel_timer(Timer::Lease);
        self.drop_lease(ctx);
    }

    /// Acceptors: accept a ballot at or above the promise (persisted),
    /// follow its leader, restart the election timer, grant the lease and
    /// acknowledge; a lower ballot gets `REJECT` naming the promise.
    pub(super) fn on_heartbeat(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64, round: u64) {
        self.max_seen = self.max_seen.max(ballot);
        if ballot < self.promised {
            self.say_reject(ctx, from, ballot);
            self.reject(ctx, from, ballot);
            return;
        }
        let raised = ballot > self.promised;
        self.promise(ctx, ballot, from);
        self.accepted = ballot;
        if self.phase != Phase::Follower || self.leader != Some(from) {
            self.quit_ballot(ctx);
            self.say_follows(ctx, from, ballot);
            self.leader = Some(from);
            self.announce(ctx);
        } else if raised {
            self.announce(ctx);
        }
        self.arm_election_timer(ctx);
        self.grant_lease(ctx, from);
        ctx.send(from, Msg::HeartbeatAck { ballot, round });
    }

    /// Leaders: an acknowledgement of the current ballot counts for the
    /// majority check and the lease.
    pub(super) fn on_ack(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64, round: u64) {
        if self.phase != Phase::Leader || ballot != self.ballot {
            return;
        }
        let p = from as usize;
        self.last_ack_at[p] = Some(ctx.local_now_us());
        self.acked_round[p] = self.acked_round[p].max(round);
        self.update_lease(ctx);
    }

    /// Leaders: the periodic write to the resource, with the ballot as
    /// the fencing token.
    pub(super) fn write(&self, ctx: &mut C<'_>) {
        if let (Phase::Leader, Some(r)) = (self.phase, self.resource) {
            ctx.send(r, Msg::Write { token: self.ballot });
            let every = ctx.config().timing.write_us;
            ctx.set_timer(Timer::Write, every);
        }
    }
}
