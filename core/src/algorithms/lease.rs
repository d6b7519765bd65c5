//! Kubernetes-style leader election with a Lease object (client-go's
//! `tools/leaderelection`, `LeaderElector.tryAcquireOrRenew`, with the
//! `coordination.k8s.io/v1` Lease as the lock) on the simulated
//! coordination service of [`super::service`].
//!
//! Nodes: candidates `0..n-1`, the service `n` (the API server), the fenced
//! resource `n+1`.
//!
//! Rules, as simulated here (timing keys `lease_ms` = LeaseDuration,
//! `renew_deadline_ms` = RenewDeadline, `retry_ms` = RetryPeriod):
//! - A candidate reads the Lease (`GET`/`LEASE`) every retry period, with
//!   client-go's jitter (a wait drawn from `retry .. 2.2 retry`).
//! - Expiry is judged the way client-go judges it, on the candidate's own
//!   clock and not on the times written in the object: the candidate
//!   remembers when it last saw the object *change* (its `resourceVersion`,
//!   a local `observed_at`), and takes the lease as expired once
//!   `local now >= observed_at + leaseDuration`. A clock offset therefore
//!   changes nothing, but a clock that runs fast (drift) makes a lease
//!   expire early: the lease is only as safe as the clocks' rates agree
//!   (client-go's doc: tolerant to skew, not to skew *rate*). The
//!   `acquireTime` and `renewTime` fields carry the writer's local clock
//!   and are only shown.
//! - If the lease is free, expired, or still names the candidate itself,
//!   it writes it (`UPDATE`) with compare-and-swap on the version it read:
//!   holder = itself, `leaseTransitions + 1` (unchanged if it names
//!   itself), acquire and renew time = its local now. `UPDATED` means it
//!   leads; `CONFLICT` (someone wrote first) returns the current object and
//!   it follows the holder named there.
//! - The holder renews every retry period (the same compare-and-swap,
//!   background). Its renew deadline works per renewal cycle as in
//!   client-go's `renew` loop: the first tick after a successful renewal
//!   starts a cycle, and if no renewal succeeds within `renew_deadline`
//!   of that tick (local clock) it stops leading. With the defaults
//!   (lease 1000, deadline 800, retry 200 ms) a holder cut off from the
//!   service stops 1000 ms after it sent its last good renewal, while a
//!   follower with a true clock cannot see that renewal before it reached
//!   the service, so it waits longer: safe by the network latency, and
//!   by no more. A renewal answered `CONFLICT` with another holder makes
//!   it stop at once (client-go would keep trying until the deadline).
//! - `ctx.set_lease(true)` while a node believes it holds the lease; the
//!   checker reports `lease_overlap` when two do.
//! - The holder writes to the resource every `write_ms` (`WRITE`,
//!   background), its token the `leaseTransitions` value it acquired,
//!   which grows with every change of holder: the fencing token.
//! - A GC pause between renewals: on resume the holder's due timers fire
//!   together, so the write that was due goes out, and the renewal starts
//!   a fresh cycle; only the `CONFLICT` answer ends its belief. That is
//!   the fencing lesson (M. Kleppmann, "How to do distributed locking").
//!
//! Purposes: acquisition attempts (`UPDATE` from a non-holder and its
//! `UPDATED`/`CONFLICT`) are election messages; reads, renewals and writes
//! are background. Terms: a node's term is the highest `leaseTransitions`
//! it has seen (kept across crashes); a leader's term is the value it
//! acquired, so no two nodes lead in one term.
//!
//! Costs: the first election, every candidate starting at once with an
//! empty Lease, is `2n` election messages (n `UPDATE`, one `UPDATED`,
//! n-1 `CONFLICT`). A crashed holder is replaced after one lease duration
//! of the candidates' clocks plus up to two jittered retry periods.
//!
//! client-go refuses configurations unless lease > renew deadline >
//! 1.2 retry; the scenario does not check this, so a student can watch
//! what a bad setting breaks.
//!
//! Safety: one leader per term, decided by compare-and-swap. Known
//! failures: a follower whose clock runs fast, or a holder that pauses
//! longer than the lease, gives two nodes that believe they hold it
//! (`lease_overlap`); fencing keeps the old holder's writes out. Nobody
//! can take the lease while the service is down.

use super::extras::{Node, Participant};
use super::service::{LeaseRecord, LeaseWrite, Service};
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Extra, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &["GET", "LEASE", "UPDATE", "UPDATED", "CONFLICT", "WRITE"];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "lease",
    name: "Kubernetes Lease",
    summary: "Kubernetes client-go leaderelection: candidates take a Lease object by compare-and-swap on its version when it looks expired by their own clock; the holder renews every retry period and gives up after the renew deadline; leaseTransitions fences",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: Lease::EXTRAS,
    claims: Lease::SAFETY,
    builder: Some(engine::<Lease>),
    theory: None,
};

/// Lease messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Candidate -> service: read the Lease (background).
    Get,
    /// Service -> candidate: the Lease (background).
    Lease {
        /// The object.
        record: LeaseRecord,
    },
    /// Candidate -> service: write the Lease if its version is still
    /// `expected`.
    Update {
        /// The version the writer read.
        expected: u64,
        /// What it writes (the service sets the version).
        record: LeaseRecord,
        /// An acquisition (election) rather than a renewal (background).
        acquire: bool,
    },
    /// Service -> candidate: written.
    Updated {
        /// The new object.
        record: LeaseRecord,
        /// Answers an acquisition.
        acquire: bool,
    },
    /// Service -> candidate: the version had moved on; nothing written.
    Conflict {
        /// The current object.
        record: LeaseRecord,
        /// Answers an acquisition.
        acquire: bool,
    },
    /// Holder -> resource: a write with a fencing token (background).
    Write {
        /// The `leaseTransitions` value the holder acquired.
        token: u64,
    },
}

/// The trace shows `KIND(payload)`: the part of this text from the first
/// parenthesis on.
impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = |acquire: bool| if acquire { "acquire" } else { "renew" };
        match self {
            Msg::Get => write!(f, "Get"),
            Msg::Lease { record } => write!(f, "Lease({record:?})"),
            Msg::Update {
                expected,
                record,
                acquire,
            } => write!(
                f,
                "Update({} if still v{expected}: holder n{}, transitions {})",
                what(*acquire),
                record.holder.unwrap_or_default(),
                record.transitions
            ),
            Msg::Updated { record, acquire } => {
                write!(f, "Updated({}: {record:?})", what(*acquire))
            }
            Msg::Conflict { record, acquire } => {
                write!(f, "Conflict({} failed, now {record:?})", what(*acquire))
            }
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Get => 0,
            Msg::Lease { .. } => 1,
            Msg::Update { .. } => 2,
            Msg::Updated { .. } => 3,
            Msg::Conflict { .. } => 4,
            Msg::Write { .. } => 5,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Update { acquire: true, .. }
            | Msg::Updated { acquire: true, .. }
            | Msg::Conflict { acquire: true, .. } => Purpose::Election,
            _ => Purpose::Background,
        }
    }
}

/// Lease timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Time to read (candidate) or renew (holder): the retry period.
    Retry,
    /// Holder: time to write to the resource.
    Write,
}

/// One participant: client-go's `LeaderElector`.
#[derive(Debug, Clone)]
pub struct Elector {
    id: NodeId,
    service: NodeId,
    resource: NodeId,
    lease_us: u64,
    renew_deadline_us: u64,
    retry_us: u64,
    write_us: u64,
    /// The last version of the Lease seen, and the local time it was
    /// first seen (client-go's observedRecord and observedTime).
    observed: Option<LeaseRecord>,
    observed_at: i64,
    leading: bool,
    acquiring: bool,
    /// A renewal succeeded since the last retry tick.
    renewed_since_tick: bool,
    /// Local time by which the current renewal cycle must succeed.
    deadline: Option<i64>,
    term: u64,
    leader: Option<NodeId>,
    role: Role,
    acquisitions: u64,
    renewals: u64,
    writes_sent: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

impl Elector {
    fn announce(&mut self, ctx: &mut C<'_>, role: Role) {
        self.role = role;
        ctx.set_role(role, Some(self.term));
    }

    /// client-go's `wait.JitterUntil` with JitterFactor 1.2.
    fn jittered_retry(&self, ctx: &mut C<'_>) -> u64 {
        ctx.random_between(self.retry_us, self.retry_us + self.retry_us * 6 / 5)
    }

    fn observe(&mut self, ctx: &C<'_>, record: LeaseRecord) {
        if self.observed.map(|o| o.version) != Some(record.version) {
            self.observed = Some(record);
            self.observed_at = ctx.local_now_us();
        }
    }

    /// How long the observed Lease has looked unchanged, by this clock.
    fn unchanged_for(&self, ctx: &C<'_>) -> i64 {
        ctx.local_now_us() - self.observed_at
    }

    fn expired(&self, ctx: &C<'_>) -> bool {
        self.observed
            .is_some_and(|o| self.unchanged_for(ctx) >= o.duration_us as i64)
    }

    fn follow(&mut self, ctx: &mut C<'_>, holder: NodeId, transitions: u64) {
        self.term = self.term.max(transitions);
        self.leader = Some(holder);
        self.announce(ctx, Role::Follower);
        ctx.set_leader(Some(holder));
    }

    fn become_leader(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
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

    fn stop_leading(&mut self, ctx: &mut C<'_>) {
        self.leading = false;
        self.deadline = None;
        self.leader = None;
        ctx.set_lease(false);
        ctx.cancel_timer(Timer::Write);
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
    }

    fn write(&mut self, ctx: &mut C<'_>) {
        self.writes_sent += 1;
        ctx.send(self.resource, Msg::Write { token: self.term });
        ctx.set_timer(Timer::Write, self.write_us);
    }

    /// Takes the lease if it is free, expired by this clock, or names this
    /// node; otherwise follows its holder.
    fn decide(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
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

    fn acquire(&mut self, ctx: &mut C<'_>, record: LeaseRecord) {
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

    fn on_retry(&mut self, ctx: &mut C<'_>) {
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

/// One node of the Lease algorithm: a candidate, the service or the
/// resource.
pub type Lease = Node<Elector>;

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
        let ms = |us: u64| format!("{} ms", us as f64 / 1000.0);
        vec![
            ("kind", "candidate".to_string()),
            ("service", format!("n{}", self.service)),
            ("resource", format!("n{}", self.resource)),
            ("role", format!("{:?}", self.role).to_ascii_lowercase()),
            (
                "leading (believes it holds the lease)",
                self.leading.to_string(),
            ),
            ("acquiring", self.acquiring.to_string()),
            (
                "observed lease",
                self.observed
                    .map_or("none yet".to_string(), |o| format!("{o:?}")),
            ),
            (
                "observed at",
                format!("{} ms (local clock)", self.observed_at as f64 / 1000.0),
            ),
            (
                "renew deadline at",
                self.deadline.map_or("none".to_string(), |d| {
                    format!("{} ms (local clock)", d as f64 / 1000.0)
                }),
            ),
            (
                "renewed since last tick",
                self.renewed_since_tick.to_string(),
            ),
            ("term (highest transitions seen)", self.term.to_string()),
            (
                "leader",
                self.leader.map_or("none".to_string(), |l| format!("n{l}")),
            ),
            ("lease duration", ms(self.lease_us)),
            ("renew deadline", ms(self.renew_deadline_us)),
            ("retry period", ms(self.retry_us)),
            ("write every", ms(self.write_us)),
            ("acquisitions", self.acquisitions.to_string()),
            ("renewals", self.renewals.to_string()),
            ("writes sent", self.writes_sent.to_string()),
        ]
    }
}

/// The service answers reads and compare-and-swap writes of the Lease;
/// the resource takes the leader's `WRITE`s.
impl Participant for Elector {
    fn write_token(msg: &Msg) -> Option<u64> {
        match msg {
            Msg::Write { token } => Some(*token),
            _ => None,
        }
    }

    fn start_service(service: &mut Service, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Service, None);
        if boot == Boot::Recover {
            let record = service.lease();
            ctx.note_with(|| format!("back with its replicated data: the Lease is {record:?}"));
        }
    }

    fn serve(svc: &mut Service, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Get => ctx.send(
                from,
                Msg::Lease {
                    record: svc.lease(),
                },
            ),
            Msg::Update {
                expected,
                record,
                acquire,
            } => {
                let answer = match svc.write_lease(expected, record) {
                    LeaseWrite::Written(record) => Msg::Updated { record, acquire },
                    LeaseWrite::Conflict(record) => Msg::Conflict { record, acquire },
                };
                ctx.send(from, answer);
            }
            Msg::Lease { .. } | Msg::Updated { .. } | Msg::Conflict { .. } | Msg::Write { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (client-go
    //! `tools/leaderelection`, `tryAcquireOrRenew` and the `renew` loop).
    use super::*;
    use crate::ScenarioExt;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, ctx_commands, sends};
    use crate::scenario::Scenario;

    /// n candidates: the service is n, the resource n + 1; lease 1000 ms,
    /// renew deadline 800 ms, retry 200 ms.
    fn config(n: u32) -> Config {
        let json = format!(r#"{{"algorithm":"lease","nodes":{n}}}"#);
        Config::from_scenario(&Scenario::from_json(&json).unwrap(), Lease::EXTRAS)
    }

    fn on(
        e: &mut Elector,
        c: &Config,
        f: impl FnOnce(&mut Elector, &mut C<'_>),
    ) -> Vec<Command<Msg, Timer>> {
        let id = e.id;
        ctx_commands(id, c, |ctx| f(e, ctx))
    }

    fn held(holder: NodeId, version: u64, transitions: u64) -> LeaseRecord {
        LeaseRecord {
            holder: Some(holder),
            version,
            transitions,
            acquire_time_us: 0,
            renew_time_us: 0,
            duration_us: 1_000_000,
        }
    }

    fn roles(out: &[Command<Msg, Timer>]) -> Vec<(Role, Option<u64>)> {
        out.iter()
            .filter_map(|c| match c {
                Command::Role { role, term } => Some((*role, *term)),
                _ => None,
            })
            .collect()
    }

    fn leader_of(c: &Config, id: NodeId, record: LeaseRecord) -> Elector {
        let mut e = Elector::new(id, c, &0);
        e.acquiring = true;
        on(&mut e, c, |e, ctx| {
            e.on_message(
                ctx,
                c.n,
                Msg::Updated {
                    record,
                    acquire: true,
                },
            )
        });
        assert!(e.leading);
        e
    }

    #[test]
    fn a_free_lease_is_taken_with_compare_and_swap_on_its_version() {
        let c = config(3);
        let mut e = Elector::new(1, &c, &0);
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(
                ctx,
                c.n,
                Msg::Lease {
                    record: LeaseRecord::default(),
                },
            )
        });
        assert_eq!(
            sends(&out),
            vec![(
                3,
                Msg::Update {
                    expected: 0,
                    record: LeaseRecord {
                        holder: Some(1),
                        version: 0,
                        transitions: 1,
                        acquire_time_us: 0,
                        renew_time_us: 0,
                        duration_us: 1_000_000,
                    },
                    acquire: true,
                }
            )]
        );
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(
            Msg::Update {
                expected: 0,
                record: LeaseRecord::default(),
                acquire: true
            }
            .purpose(),
            Purpose::Election
        );
    }

    #[test]
    fn a_held_lease_is_followed_until_it_looks_expired_by_the_local_clock() {
        let c = config(3);
        let mut e = Elector::new(2, &c, &0);
        let record = held(0, 4, 1);
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(ctx, c.n, Msg::Lease { record })
        });
        assert!(sends(&out).is_empty());
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(0)))));
        assert_eq!(roles(&out), vec![(Role::Follower, Some(1))]);
        // The same version, seen again a whole lease later by this clock
        // (observed 1000 ms before the context's local time 0).
        e.observed_at = -1_000_000;
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(ctx, c.n, Msg::Lease { record })
        });
        assert!(matches!(
            sends(&out)[..],
            [(
                3,
                Msg::Update {
                    expected: 4,
                    acquire: true,
                    record: LeaseRecord {
                        holder: Some(2),
                        transitions: 2,
                        ..
                    },
                }
            )]
        ));
        // One microsecond short of the lease: still valid.
        e.acquiring = false;
        e.observed_at = -999_999;
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(ctx, c.n, Msg::Lease { record })
        });
        assert!(sends(&out).is_empty());
    }

    #[test]
    fn winning_the_swap_makes_a_leader_that_writes_with_its_transitions() {
        let c = config(3);
        let mut e = Elector::new(1, &c, &0);
        e.acquiring = true;
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(
                ctx,
                c.n,
                Msg::Updated {
                    record: held(1, 5, 3),
                    acquire: true,
                },
            )
        });
        assert_eq!(roles(&out), vec![(Role::Leader, Some(3))]);
        assert!(out.iter().any(|c| matches!(c, Command::Lease(true))));
        assert_eq!(sends(&out), vec![(4, Msg::Write { token: 3 })]);
    }

    #[test]
    fn losing_the_swap_follows_the_winner() {
        let c = config(3);
        let mut e = Elector::new(1, &c, &0);
        e.acquiring = true;
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(
                ctx,
                c.n,
                Msg::Conflict {
                    record: held(2, 1, 1),
                    acquire: true,
                },
            )
        });
        assert!(sends(&out).is_empty());
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(2)))));
        assert_eq!(roles(&out), vec![(Role::Follower, Some(1))]);
    }

    #[test]
    fn the_holder_renews_every_retry_period_as_background() {
        let c = config(3);
        let mut e = leader_of(&c, 0, held(0, 1, 1));
        let out = on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
        let sent = sends(&out);
        assert!(matches!(
            sent[..],
            [(
                3,
                Msg::Update {
                    expected: 1,
                    acquire: false,
                    ..
                }
            )]
        ));
        assert_eq!(sent[0].1.purpose(), Purpose::Background);
        assert_eq!(e.deadline, Some(800_000), "a cycle starts: 800 ms to renew");
    }

    #[test]
    fn a_holder_that_cannot_renew_within_the_deadline_stops_leading() {
        let c = config(3);
        let mut e = leader_of(&c, 0, held(0, 1, 1));
        on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
        // No UPDATED came back; the deadline (local 800 ms) has passed.
        e.deadline = Some(0);
        let out = on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
        assert!(out.iter().any(|c| matches!(c, Command::Lease(false))));
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(1))]);
        assert_eq!(sends(&out), vec![(3, Msg::Get)], "back to reading");
    }

    #[test]
    fn a_renewal_that_finds_another_holder_ends_leadership_at_once() {
        let c = config(3);
        let mut e = leader_of(&c, 0, held(0, 1, 1));
        let out = on(&mut e, &c, |e, ctx| {
            e.on_message(
                ctx,
                c.n,
                Msg::Conflict {
                    record: held(2, 6, 2),
                    acquire: false,
                },
            )
        });
        assert!(out.iter().any(|c| matches!(c, Command::Lease(false))));
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(2)))));
        assert_eq!(
            roles(&out),
            vec![(Role::Candidate, Some(1)), (Role::Follower, Some(2))]
        );
    }

    #[test]
    fn the_service_writes_only_if_the_version_is_current() {
        let c = config(2);
        let mut node = Lease::new(2, &c, &Default::default());
        let out = commands(&mut node, 2, &c, |p, ctx| {
            p.on_message(
                ctx,
                0,
                Msg::Update {
                    expected: 0,
                    record: held(0, 0, 1),
                    acquire: true,
                },
            );
            p.on_message(
                ctx,
                1,
                Msg::Update {
                    expected: 0,
                    record: held(1, 0, 1),
                    acquire: true,
                },
            );
        });
        let first = held(0, 1, 1);
        assert_eq!(
            sends(&out),
            vec![
                (
                    0,
                    Msg::Updated {
                        record: first,
                        acquire: true
                    }
                ),
                (
                    1,
                    Msg::Conflict {
                        record: first,
                        acquire: true
                    }
                ),
            ]
        );
        // The Lease survives a crash of the service.
        let mut back = Lease::new(2, &c, &node.persistent());
        let out = commands(&mut back, 2, &c, |p, ctx| p.on_message(ctx, 1, Msg::Get));
        assert_eq!(sends(&out), vec![(1, Msg::Lease { record: first })]);
    }
}
