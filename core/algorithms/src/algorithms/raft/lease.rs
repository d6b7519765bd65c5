//! The `leader_lease` option (Ongaro's dissertation, sections 6.4.1 and
//! 4.2.3): a leader serves reads without going through the log while a
//! majority has answered a recent heartbeat round, for as long as no
//! follower that heard that round can have timed out, given a bound on
//! clock drift.
//!
//! Every heartbeat round is numbered and its start remembered. Once a
//! majority (the leader included) has answered round `r`, sent at local
//! time `s`, the lease runs until `s + election_timeout_min x (1 -
//! drift_bound)` on the leader's clock. So that a server that missed the
//! heartbeats cannot win an election meanwhile, a server that leads or
//! heard from a leader within the minimum election timeout refuses a vote
//! of a higher term without moving to it.

use super::{C, Msg, ROUNDS_KEPT, Server, Timer};
use crate::algorithms::quorum;
use crate::protocol::NodeId;
use crate::time::Micros;

impl Server {
    /// `RequestVote` of `term` from `from`, before anything else: with the
    /// lease on, refused (and true returned) while a leader may still hold
    /// its lease (dissertation 4.2.3 and 6.4.1).
    pub(super) fn lease_refuses_vote(&mut self, ctx: &mut C<'_>, from: NodeId, term: u64) -> bool {
        if !(term > self.term && self.leader_lease && self.leader_recently(ctx)) {
            return false;
        }
        self.say_lease_refusal(ctx, from, term);
        let term = self.term;
        ctx.send(
            from,
            Msg::Vote {
                term,
                granted: false,
            },
        );
        true
    }

    /// A heartbeat round starts at local time `now`: remember when, for
    /// the lease (the last [`ROUNDS_KEPT`] rounds).
    pub(super) fn round_begins(&mut self, now: i64) {
        quorum::round_begins(&mut self.round_started, ROUNDS_KEPT, self.round, now);
    }

    /// Extends the read lease to the start of the newest round a majority
    /// answered plus `election_timeout_min x (1 - drift_bound)`.
    pub(super) fn update_lease(&mut self, ctx: &mut C<'_>) {
        if !self.leader_lease {
            return;
        }
        let majority = quorum::majority(self.n);
        let Some((r, start)) = quorum::majority_round_start(
            &mut self.round_started,
            &self.acked_round,
            self.id as usize,
            self.round,
            majority,
        ) else {
            return;
        };
        let span = (self.min_timeout_us as f64 * (1.0 - self.drift_bound)) as i64;
        let until = start + span;
        if self.lease_until.is_some_and(|u| u >= until) {
            return;
        }
        self.lease_until = Some(until);
        let now = ctx.local_now_us();
        if until <= now {
            return;
        }
        if !self.lease_held {
            self.lease_held = true;
            ctx.set_lease(true);
            self.say_lease_taken(ctx, r, until);
        }
        ctx.set_timer(Timer::Lease, (until - now) as Micros);
    }

    /// The lease timer: the lease ran out on the leader's own clock.
    pub(super) fn lease_timer(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        if self.lease_held && self.lease_until.is_none_or(|u| now >= u) {
            self.lease_held = false;
            ctx.set_lease(false);
            self.say_lease_expired(ctx);
        }
    }

    /// A leader stops leading: no lease any more.
    pub(super) fn drop_lease(&mut self, ctx: &mut C<'_>) {
        self.round_started.clear();
        self.lease_until = None;
        if self.lease_held {
            self.lease_held = false;
            ctx.set_lease(false);
        }
    }
}
