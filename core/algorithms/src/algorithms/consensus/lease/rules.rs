//! The handlers of a Lease candidate: the start, a recovery, every
//! message and timer.

use super::{C, Elector, KINDS, Msg, Timer};
use crate::protocol::{Boot, Config, Extra, NodeId, Protocol, Role, Safety, TimerClass};

impl Protocol for Elector {
    type Msg = Msg;
    type Timer = Timer;
    /// A candidate's term: the highest `leaseTransitions` it has seen.
    type Persistent = u64;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;
    const EXTRAS: &'static [Extra] = &[Extra::Service, Extra::Resource];

    fn new(id: NodeId, config: &Config, term: &u64) -> Self {
        let t = &config.timing;
        Self {
            id,
            service: config.service.unwrap_or(config.n),
            resource: config.resource.unwrap_or(config.n + 1),
            lease_us: t.lease_us,
            renew_deadline_us: t.renew_deadline_us,
            retry_us: t.retry_us.max(1),
            write_us: t.write_us.max(1),
            observed: None,
            observed_at: 0,
            leading: false,
            acquiring: false,
            renewed_since_tick: false,
            deadline: None,
            term: *term,
            leader: None,
            role: Role::Candidate,
            acquisitions: 0,
            renewals: 0,
            writes_sent: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx, Role::Candidate);
        match boot {
            Boot::Fresh { initiate: false } => {
                let t = self.jittered_retry(ctx);
                ctx.set_timer(Timer::Retry, t);
            }
            Boot::Fresh { initiate: true } | Boot::Recover => self.on_retry(ctx),
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, _from: NodeId, msg: Msg) {
        match msg {
            Msg::Lease { record } => {
                self.observe(ctx, record);
                if !self.leading && !self.acquiring {
                    self.decide(ctx, record);
                }
            }
            Msg::Updated { record, acquire } => {
                self.observe(ctx, record);
                if acquire && self.acquiring {
                    self.acquiring = false;
                    self.become_leader(ctx, record);
                } else if !acquire && self.leading {
                    self.renewed_since_tick = true;
                    self.renewals += 1;
                }
            }
            Msg::Conflict { record, acquire } => {
                self.observe(ctx, record);
                let other = record.holder.filter(|&h| h != self.id);
                if acquire && self.acquiring {
                    self.acquiring = false;
                    if let Some(h) = other {
                        ctx.note_with(|| {
                            format!(
                                "lost the race: n{h} wrote the lease first (now version {})",
                                record.version
                            )
                        });
                        self.follow(ctx, h, record.transitions);
                    }
                } else if !acquire && self.leading {
                    if let Some(h) = other {
                        ctx.note_with(|| {
                            format!(
                                "its renewal failed: n{h} holds the lease now (version {}, transitions {}); stops leading",
                                record.version, record.transitions
                            )
                        });
                        self.stop_leading(ctx);
                        self.follow(ctx, h, record.transitions);
                    }
                }
            }
            Msg::Get | Msg::Update { .. } | Msg::Write { .. } => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Retry => self.on_retry(ctx),
            Timer::Write => {
                if self.leading {
                    self.write(ctx);
                }
            }
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // The holder renews every retry period; a candidate reads the
            // Lease again (and takes it if it expired by its clock).
            Timer::Retry if self.leading => TimerClass::LeaseRenew,
            Timer::Retry => TimerClass::Retry,
            Timer::Write => TimerClass::Write,
        }
    }

    fn persistent(&self) -> u64 {
        self.term
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        self.fields()
    }
}
