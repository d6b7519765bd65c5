//! Shared pieces of heartbeat-based failure detection: a leader sends a
//! heartbeat every `heartbeat_ms`; a follower that hears nothing for a
//! timeout drawn from `election_timeout_ms` presumes the leader dead.

use crate::protocol::Ctx;
use crate::time::Micros;

/// One leader heartbeat round: `msg` to every other participant, and
/// `timer` re-armed for the next round after `heartbeat_ms`.
pub fn heartbeat_round<M: Clone, T>(ctx: &mut Ctx<'_, M, T>, msg: M, timer: T) {
    ctx.broadcast(msg);
    let period = ctx.config().heartbeat_us;
    ctx.set_timer(timer, period);
}

/// A fresh randomized failure-detection timeout (local time).
pub fn leader_timeout<M, T>(ctx: &mut Ctx<'_, M, T>) -> Micros {
    let (lo, hi) = ctx.config().election_timeout_us;
    ctx.random_between(lo, hi)
}
