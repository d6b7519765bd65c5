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
//!
//! Files: `elector.rs` holds client-go's `tryAcquireOrRenew` and the
//! renew loop (start there); `rules.rs` the handlers of messages and
//! timers; `serve.rs` the service's side: reads and compare-and-swap
//! writes of the Lease; `messages.rs` the messages and their kinds;
//! `inspect.rs` how a candidate looks in the inspector; `tests.rs` the
//! command-level tests. This file holds the entry and the state they
//! share.

mod elector;
mod inspect;
mod messages;
mod rules;
mod serve;
#[cfg(test)]
mod tests;

pub use messages::Msg;

use crate::algorithms::extras::Node;
use crate::algorithms::service::LeaseRecord;
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{CONSENSUS, Claim, SERVICE_FAILOVER};
use crate::protocol::{Ctx, NodeId, Protocol, Role};

/// Message kind names.
pub const KINDS: &[&str] = &["GET", "LEASE", "UPDATE", "UPDATED", "CONFLICT", "WRITE"];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "lease",
    name: "Kubernetes Lease",
    summary: "Kubernetes client-go leaderelection: candidates take a Lease object by compare-and-swap on its version when it looks expired by their own clock; the holder renews every retry period and gives up after the renew deadline; leaseTransitions fences",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: Lease::EXTRAS,
    observers: Observers::None,
    takes_script: false,
    claims: Lease::SAFETY,
    builder: Some(engine::<Lease>),
    theory: None,
    tradeoff: Some(Claim {
        why: &[SERVICE_FAILOVER],
        ..CONSENSUS
    }),
};

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

/// One node of the Lease algorithm: a candidate, the service or the
/// resource.
pub type Lease = Node<Elector>;
