//! The ring algorithms' one watchdog and their handling of undeliverable
//! messages, shared by Chang-Roberts, LeLann and Hirschberg-Sinclair (a
//! follower's watchdog is armed with `detector::arm_leader_timeout`).
//!
//! Each ring node has one watchdog timer: a follower's waits a randomized
//! failure-detection timeout for the leader's heartbeat, a node in an
//! election waits a bound on the election's laps (each algorithm gives its
//! own). When the link reports that a message could not reach a dead
//! neighbour, the sender skips that neighbour and passes the message on to
//! the next node the same way round; when nobody else is up on the way,
//! the message has either gone round (it is the node's own) or is
//! stranded.

use crate::algorithms::detector::say_leader_silent;
use crate::protocol::{Ctx, NodeId};

/// A ring node's watchdog fired. A leader ignores it (false); any other
/// node notes why and is to start an election (true): the election it
/// takes part in made no progress (`stalled`, in its algorithm's words)
/// or, outside an election, its `leader` went silent.
pub(super) fn fired<M, T>(
    ctx: &mut Ctx<'_, M, T>,
    leading: bool,
    stalled: Option<&'static str>,
    leader: Option<NodeId>,
) -> bool {
    if leading {
        return false;
    }
    match stalled {
        Some(why) => ctx.note(why),
        None => say_leader_silent(ctx, leader),
    }
    true
}

/// Where a message that could not reach its dead neighbour ends up.
pub(super) enum Around<M> {
    /// Passed on to the next node the same way round (already sent).
    Passed,
    /// The node's own message, and everyone else on the way is down: it
    /// has gone round.
    Returned(M),
    /// Nobody else is up on the way and the message is not the node's
    /// own: nobody can finish it.
    Stranded(M),
}

/// Skips the dead neighbour `to` of node `me`: sends `msg`, started by
/// `origin`, on to `skip_to` (the node after `to` the same way round),
/// unless that is `me` itself.
pub(super) fn pass_around<M, T>(
    ctx: &mut Ctx<'_, M, T>,
    me: NodeId,
    to: NodeId,
    skip_to: NodeId,
    origin: NodeId,
    msg: M,
) -> Around<M> {
    if skip_to != me {
        ctx.note_with(|| {
            format!("n{to} does not answer; skips it and passes the message to n{skip_to}")
        });
        ctx.send(skip_to, msg);
        Around::Passed
    } else if origin == me {
        Around::Returned(msg)
    } else {
        Around::Stranded(msg)
    }
}

/// Notes that a stranded message makes this node start its own election.
pub(super) fn say_stranded<M, T>(ctx: &mut Ctx<'_, M, T>, to: NodeId) {
    ctx.note_with(|| {
        format!("n{to} does not answer and nobody else is up on the way; starts its own election")
    });
}
