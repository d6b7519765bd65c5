//! Bully's election start (Garcia-Molina 1982, section 4), written once
//! for the family: Bully itself and Next-in-line, whose fallback is a
//! Bully election, call it after resetting their own state.

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
