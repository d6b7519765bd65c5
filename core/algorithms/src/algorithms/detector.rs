//! Shared pieces of heartbeat-based failure detection: a leader sends a
//! heartbeat every `heartbeat_ms`; a follower that hears nothing for a
//! timeout drawn from `election_timeout_ms` presumes the leader dead.

use crate::protocol::{Ctx, NodeId};
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

/// Arms `timer` with a fresh failure-detection timeout: a follower
/// waiting to hear from its leader.
pub fn arm_leader_timeout<M, T>(ctx: &mut Ctx<'_, M, T>, timer: T) {
    let t = leader_timeout(ctx);
    ctx.set_timer(timer, t);
}

/// Notes why a watchdog that ran out outside an election starts one: the
/// leader it followed went silent, or it knows none.
pub fn say_leader_silent<M, T>(ctx: &mut Ctx<'_, M, T>, leader: Option<NodeId>) {
    match leader {
        Some(l) => ctx.note_with(|| {
            format!("heard nothing from leader n{l}; presumes it dead and starts an election")
        }),
        None => ctx.note("knows no leader; starts an election"),
    }
}
