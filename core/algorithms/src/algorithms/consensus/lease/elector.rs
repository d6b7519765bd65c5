//! client-go's `LeaderElector` (`tools/leaderelection`): observing the
//! Lease, `tryAcquireOrRenew` with compare-and-swap on its version, the
//! renew loop of the holder and the writes it makes while it leads.

use super::{C, Elector, Msg, Timer};
use crate::algorithms::service::LeaseRecord;
use crate::protocol::{NodeId, Role};

impl Elector {
    pub(super) fn announce(&mut self, ctx: &mut C<'_>, role: Role) {
        self.role = role;
        ctx.set_role(role, Some(self.term));
    }

    /// client-go's `wait.JitterUntil` with JitterFactor 1.2.
    pub(super) fn jittered_retry(&self, ctx: &mut C<'_>) -> u64 {
        ctx.random_between(self.retry_us, self.retry_us + self.retry_us * 6 / 5)
    }

    pub(super) fn observe(&mut self, ctx: &C<'_>, record: LeaseRecord) {
        if self.observed.map(|o| o.version) != Some(record.version) {
            self.observed = Some(record);
            self.observed_at = ctx.local_now_us();
        }
    }

    /// How long the observed Lease has looked unchanged, by this clock.
    pub(super) fn unchanged_for(&self, ctx: &C<'_>) -> i64 {
        ctx.local_now_us() - self.observed_at
    }

    pub(super) fn expired(&self, ctx: &C<'_>) -> bool {
        self.observed
            .is_some_and(|o| self.unchanged_for(ctx) >= o.duration_us as i64)
    }

    pub(super) fn follow(&mut self, ctx: &mut C<'_>, holder: NodeId, transitions: u64) {
        self.term = self.term.max(transitions);
        self.leader = Some(holder);
        self.announce(ctx, Role::Follower);
        ctx.set_leader(Some(holder));
    }

    pub(super) fn become_leader(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
        self.leading = true;
        self.acquisitions += 1;
        self.term = self.term.max(record.transitions);
        self.leader = Some(self.id);
        self.renewed_since_tick = true;
        self.deadline = None;
        self.announce(ctx, Role::Leader);
        ctx.set_leader(Some(self.id));
        ctx.set_lease(true);
        let (v, t) = (record.version, record.transitions);
        ctx.note_with(|| {
            format!("holds the lease (version {v}, transitions {t}): leads with fencing token {t}")
        });
        ctx.set_timer(Timer::Retry, self.retry_us);
        self.write(ctx);
    }

    pub(super) fn stop_leading(&mut self, ctx: &mut C<'_>) {
        self.leading = false;
        self.deadline = None;
        self.leader = None;
        ctx.set_lease(false);
        ctx.cancel_timer(Timer::Write);
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
    }

    pub(super) fn write(&mut self, ctx: &mut C<'_>) {
        self.writes_sent += 1;
        ctx.send(self.resource, Msg::Write { token: self.term });
        ctx.set_timer(Timer::Write, self.write_us);
    }

    /// Takes the lease if it is free, expired by this clock, or names this
    /// node; otherwise follows its holder.
    pub(super) fn decide(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
        let expired = self.expired(ctx);
        match record.holder {
            Some(h) if h != self.id && !expired => self.follow(ctx, h, record.transitions),
            holder => {
                let unchanged_ms = self.unchanged_for(ctx) as f64 / 1000.0;
                let lease_ms = record.duration_us as f64 / 1000.0;
                let (v, me) = (record.version, self.id);
                ctx.note_with(|| match holder {
                    None => format!("the lease is free; tries to take it (compare-and-swap on version {v})"),
                    Some(h) if h == me => format!(
                        "the lease still names it; takes it back (compare-and-swap on version {v})"
                    ),
                    Some(h) => format!(
                        "n{h}'s lease looks expired by its own clock: unchanged for {unchanged_ms} ms, lease {lease_ms} ms; tries to take it (compare-and-swap on version {v})"
                    ),
                });
                self.acquire(ctx, record);
            }
        }
    }

    pub(super) fn acquire(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
        self.acquiring = true;
        self.term = self.term.max(record.transitions);
        self.leader = None;
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
        ctx.election_started();
        let now = ctx.local_now_us();
        let mine = record.holder == Some(self.id);
        let proposed = LeaseRecord {
            holder: Some(self.id),
            version: record.version,
            transitions: if mine {
                record.transitions
            } else {
                record.transitions + 1
            },
            acquire_time_us: if mine { record.acquire_time_us } else { now },
            renew_time_us: now,
            duration_us: self.lease_us,
        };
        ctx.send(
            self.service,
            Msg::Update {
                expected: record.version,
                record: proposed,
                acquire: true,
            },
        );
    }

    pub(super) fn on_retry(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        if self.leading {
            if self.renewed_since_tick {
                self.renewed_since_tick = false;
                self.deadline = Some(now + self.renew_deadline_us as i64);
            } else if self.deadline.is_some_and(|d| now >= d) {
                let ms = self.renew_deadline_us as f64 / 1000.0;
                ctx.note_with(|| {
                    format!("could not renew the lease within the renew deadline ({ms} ms by its clock): stops leading")
                });
                self.stop_leading(ctx);
            }
        }
        if let (true, Some(o)) = (self.leading, self.observed) {
            let record = LeaseRecord {
                holder: Some(self.id),
                renew_time_us: now,
                ..o
            };
            ctx.send(
                self.service,
                Msg::Update {
                    expected: o.version,
                    record,
                    acquire: false,
                },
            );
            ctx.set_timer(Timer::Retry, self.retry_us);
            return;
        }
        // Expiry is judged on the answer, as tryAcquireOrRenew does: a
        // follower that was paused has simply not been looking.
        self.acquiring = false;
        ctx.send(self.service, Msg::Get);
        let t = self.jittered_retry(ctx);
        ctx.set_timer(Timer::Retry, t);
    }
}
