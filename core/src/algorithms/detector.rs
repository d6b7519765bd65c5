//! Shared pieces of heartbeat-based failure detection: a leader sends a
//! heartbeat every `heartbeat_ms`; a follower that hears nothing for a
//! timeout drawn from `election_timeout_ms` presumes the leader dead.

use crate::protocol::Ctx;
use crate::time::Micros;

/// A fresh randomized failure-detection timeout (local time).
pub fn leader_timeout<M, T>(ctx: &mut Ctx<'_, M, T>) -> Micros {
    let (lo, hi) = ctx.config().election_timeout_us;
    ctx.random_between(lo, hi)
}
