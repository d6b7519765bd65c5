//! Bully's election (Garcia-Molina 1982, section 4), written once for
//! the family: its start, the answer to a late `ELECTION` and what an
//! `OK` means. Bully itself and Next-in-line, whose fallback is a Bully
//! election, call these after updating their own state.

use crate::protocol::{Ctx, NodeId, Role};

/// Asks every node above `id` (of `n`) whether it is alive: sends
/// `election` to each as a candidate and waits one reply timeout on
/// `await_ok` for an `OK`. Returns `false`, sending nothing, when `id` is
/// the highest: it then leads at once.
pub(crate) fn ask_higher<M: Clone, T>(
    ctx: &mut Ctx<'_, M, T>,
    id: NodeId,
    n: u32,
    election: M,
    await_ok: T,
) -> bool {
    if id + 1 == n {
        return false;
    }
    ctx.set_role(Role::Candidate, None);
    for higher in id + 1..n {
        ctx.send(higher, election.clone());
    }
    let wait = ctx.config().reply_timeout_us;
    ctx.set_timer(await_ok, wait);
    true
}

/// An `OK` came while electing: a higher node is alive and takes the
/// election over. Stops waiting on `await_ok` and, as a follower, waits
/// three reply timeouts on `await_coordinator` for its `COORDINATOR`.
pub(crate) fn heard_ok<M, T>(ctx: &mut Ctx<'_, M, T>, await_ok: T, await_coordinator: T) {
    ctx.cancel_timer(await_ok);
    ctx.set_role(Role::Follower, None);
    let wait = ctx.config().reply_timeout_us * 3;
    ctx.set_timer(await_coordinator, wait);
}

/// Notes why a node that follows `leader`, higher than itself, only
/// answers `OK` to `from`'s `ELECTION`: that leader was asked too and
/// answers `from` itself.
pub(crate) fn say_leader_answers<M, T>(ctx: &mut Ctx<'_, M, T>, from: NodeId, leader: NodeId) {
    ctx.note_with(|| {
        format!("answers OK to n{from}; its leader n{leader} is higher and answers n{from} itself")
    });
}
