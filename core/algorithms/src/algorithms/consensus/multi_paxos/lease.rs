//! The `master_lease` option (Burrows, Chubby, OSDI 2006, 2.12 "the
//! master lease"; Chandra, Griesemer and Redstone, Paxos Made Live, PODC
//! 2007, 5.2 "master leases"): replicas promise not to help elect another
//! master while the lease they granted is valid, and the master stops
//! acting as master when it cannot renew.
//!
//! - A replica that acknowledges a heartbeat grants its sender a lease of
//!   `lease_ms` from that moment on its own clock. While it is valid it
//!   answers `PREPARE` from anyone else with `REJECT` (a leader refuses
//!   others too), and it does not propose itself before it has run out.
//! - The master remembers when each heartbeat round started; once a
//!   majority (itself included) acknowledged round `r`, started at local
//!   time `s`, it holds the lease until `s + lease_ms × (1 - drift_bound)`
//!   on its own clock (earlier than any grant for that round ends, if
//!   clocks drift by at most the bound). Without a renewal by then it
//!   steps down; a new master must get its first renewal within the same
//!   span after winning.
//! - A recovering replica has forgotten whom it granted a lease: it
//!   refuses every proposer for one `lease_ms`.

use super::{C, Phase, ROUNDS_KEPT, Replica, Timer};
use crate::algorithms::quorum;
use crate::protocol::NodeId;
use crate::time::Micros;

impl Replica {
    /// The master's lease span on its own clock: `lease_ms` shortened by
    /// the drift bound.
    fn lease_span(&self) -> i64 {
        (self.lease_us as f64 * (1.0 - self.drift_bound)) as i64
    }

    /// A new master: it must renew within one lease span of winning.
    pub(super) fn start_lease_deadline(&mut self, ctx: &mut C<'_>) {
        if !self.master_lease {
            return;
        }
        let span = self.lease_span();
        self.lease_until = ctx.local_now_us() + span;
        self.lease_held = false;
        ctx.set_timer(Timer::Lease, span.max(0) as Micros);
    }

    /// A heartbeat round starts at local time `now`: remember when (the
    /// last [`ROUNDS_KEPT`] rounds).
    pub(super) fn round_begins(&mut self, now: i64) {
        if !self.master_lease {
            return;
        }
        quorum::round_begins(&mut self.round_started, ROUNDS_KEPT, self.round, now);
    }

    /// Extends the lease to the start of the newest round a majority
    /// acknowledged plus the lease span.
    pub(super) fn update_lease(&mut self, ctx: &mut C<'_>) {
        if !self.master_lease {
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
        let until = start + self.lease_span();
        let now = ctx.local_now_us();
        if until <= now || (self.lease_held && until <= self.lease_until) {
            return;
        }
        self.lease_until = until;
        if !self.lease_held {
            self.lease_held = true;
            ctx.set_lease(true);
            self.say_lease_taken(ctx, r, until);
        }
        ctx.set_timer(Timer::Lease, (until - now) as Micros);
    }

    /// The lease timer: unrenewed, the master stops acting as master.
    pub(super) fn lease_timer(&mut self, ctx: &mut C<'_>) {
        if self.phase != Phase::Leader || ctx.local_now_us() < self.lease_until {
            return;
        }
        self.say_lease_expired(ctx);
        self.step_down(ctx);
        self.arm_election_timer(ctx);
    }

    /// A leader stops leading: no lease any more.
    pub(super) fn drop_lease(&mut self, ctx: &mut C<'_>) {
        self.round_started.clear();
        if self.lease_held {
            self.lease_held = false;
            ctx.set_lease(false);
        }
    }

    /// Acknowledging `leader`'s heartbeat grants it the lease from now.
    pub(super) fn grant_lease(&mut self, ctx: &mut C<'_>, leader: NodeId) {
        if self.master_lease {
            let until = ctx.local_now_us() + self.lease_us as i64;
            self.grant = Some((Some(leader), until));
        }
    }

    /// A recovering replica forgot its grants: it refuses everyone for one
    /// lease.
    pub(super) fn forget_grants(&mut self, ctx: &mut C<'_>) {
        if self.master_lease {
            let until = ctx.local_now_us() + self.lease_us as i64;
            self.grant = Some((None, until));
        }
    }

    /// Local time left on the lease this replica granted, if any.
    fn grant_left(&self, ctx: &C<'_>) -> Option<(Option<NodeId>, i64)> {
        let now = ctx.local_now_us();
        match self.grant {
            Some((holder, until)) if self.master_lease && now < until => {
                Some((holder, until - now))
            }
            _ => None,
        }
    }

    /// `PREPARE` of `ballot` from `from`, above the promise: refused (true)
    /// while this replica leads or a lease it granted to another is valid.
    pub(super) fn lease_refuses(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64) -> bool {
        if !self.master_lease {
            return false;
        }
        let holder = if self.phase == Phase::Leader {
            Some(self.id)
        } else {
            match self.grant_left(ctx) {
                Some((holder, _)) if holder != Some(from) => holder,
                _ => return false,
            }
        };
        self.say_lease_refusal(ctx, from, ballot, holder);
        true
    }

    /// Before proposing: while the lease it granted is valid, wait until
    /// it runs out plus a random part of the timeout range (true), so that
    /// the replicas do not all propose at the same moment.
    pub(super) fn wait_for_grant(&mut self, ctx: &mut C<'_>) -> bool {
        let Some((holder, left)) = self.grant_left(ctx) else {
            return false;
        };
        let (lo, hi) = self.timeout_us;
        let spread = ctx.random_between(0, hi - lo);
        self.say_waits_for_grant(ctx, holder, left);
        ctx.cancel_timer(Timer::Election);
        ctx.cancel_timer(Timer::Retry);
        ctx.set_timer(Timer::Grant, left as Micros + spread);
        true
    }
}
