//! The `check_quorum` option (Ongaro's dissertation, section 6.2): a
//! leader that has not heard from a majority within an election timeout
//! steps down, so a leader cut off in a minority stops leading on its own
//! instead of waiting to hear a higher term after the partition heals.

use super::{C, Server};
use crate::algorithms::quorum;

impl Server {
    /// At a heartbeat, once it has led for a minimum election timeout:
    /// counts the servers that answered within that timeout (itself
    /// included) and steps down if they are fewer than a majority. True
    /// if it stepped down.
    pub(super) fn lost_quorum(&mut self, ctx: &mut C<'_>) -> bool {
        let now = ctx.local_now_us();
        let window = self.min_timeout_us as i64;
        if !self.check_quorum || now - self.leader_since < window {
            return false;
        }
        let heard = quorum::heard_within(&self.last_ack_at, self.id, self.n, now, window);
        if heard >= quorum::majority(self.n) {
            return false;
        }
        self.say_no_quorum(ctx, heard, window);
        self.become_follower(ctx, None);
        true
    }
}
