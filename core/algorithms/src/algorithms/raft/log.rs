//! Raft's log and its replication (paper, figure 2 "AppendEntries RPC"
//! and "Rules for Servers: Leaders", sections 5.3 and 5.4.2), as far as
//! the election needs it: logs that differ make the up-to-date check of
//! 5.4.1 matter, and the heartbeats that carry the entries are what keeps
//! followers from timing out.
//!
//! Log entries are represented by their term alone. Every
//! [`ENTRY_EVERY_ROUNDS`]th heartbeat round the leader appends one client
//! entry of its term; an `APPEND_ENTRIES` carries at most [`MAX_ENTRIES`].

use super::{C, ENTRY_EVERY_ROUNDS, MAX_ENTRIES, Msg, Phase, Server, Timer};
use crate::algorithms::quorum;
use crate::protocol::NodeId;

impl Server {
    /// Index and term of the last log entry (0, 0 for an empty log).
    pub(super) fn last_log(&self) -> (u64, u64) {
        (self.log.len() as u64, self.log.last().copied().unwrap_or(0))
    }

    /// Term of the entry at `index` (1-based; 0 for index 0).
    pub(super) fn term_at(&self, index: u64) -> u64 {
        if index == 0 {
            0
        } else {
            self.log[index as usize - 1]
        }
    }

    /// A new leader's volatile state (figure 2: "reinitialized after
    /// election"): every follower's `nextIndex` just past its own log, no
    /// `matchIndex` known, no heartbeat round answered yet.
    pub(super) fn start_replication(&mut self, now: i64) {
        let (last, _) = self.last_log();
        let n = self.n as usize;
        self.next_index = vec![last + 1; n];
        self.match_index = vec![0; n];
        self.match_index[self.id as usize] = last;
        self.last_ack_at = vec![None; n];
        self.acked_round = vec![0; n];
        self.round = 0;
        self.round_started.clear();
        self.lease_until = None;
        self.leader_since = now;
    }

    /// A leader steps down: its per-server state goes (a new term's
    /// leader builds it again, [`Server::start_replication`]). Kept only
    /// while leading, since each of the four lists has a place per server:
    /// allocated at boot on every server, 1,024 Raft servers held 40 MB
    /// at time 0, which made opening such a run on the page a 100 ms
    /// task and every checkpoint 40 MB.
    pub(super) fn drop_replication(&mut self) {
        self.next_index = Vec::new();
        self.match_index = Vec::new();
        self.last_ack_at = Vec::new();
        self.acked_round = Vec::new();
    }

    /// One heartbeat round: check the quorum (an option), maybe a new
    /// client entry, then `APPEND_ENTRIES` to every server.
    pub(super) fn heartbeat(&mut self, ctx: &mut C<'_>) {
        if self.lost_quorum(ctx) {
            return;
        }
        self.round += 1;
        if self.round % ENTRY_EVERY_ROUNDS == 0 {
            self.log.push(self.term);
            self.match_index[self.id as usize] = self.log.len() as u64;
            self.advance_commit();
        }
        self.round_begins(ctx.local_now_us());
        for p in quorum::peers(self.id, self.n) {
            self.send_append(ctx, p);
        }
        let every = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, every);
    }

    fn send_append(&self, ctx: &mut C<'_>, to: NodeId) {
        let prev = self.next_index[to as usize] - 1;
        let end = (prev as usize + MAX_ENTRIES).min(self.log.len());
        ctx.send(
            to,
            Msg::AppendEntries {
                term: self.term,
                prev_log_index: prev,
                prev_log_term: self.term_at(prev),
                entries: self.log[prev as usize..end].to_vec(),
                leader_commit: self.commit_index,
                round: self.round,
            },
        );
    }

    /// Raft paper, 5.3/5.4.2: commit the highest entry of the current term
    /// stored on a majority.
    fn advance_commit(&mut self) {
        // The majority's match index: the (majority)th largest. A
        // selection, not a sort (every reply of every follower asks).
        let mut matched = self.match_index.clone();
        let (_, &mut index, _) =
            matched.select_nth_unstable_by(quorum::majority(self.n) - 1, |a, b| b.cmp(a));
        if index > self.commit_index && self.term_at(index) == self.term {
            self.commit_index = index;
        }
    }

    /// `AppendEntries` receiver (after adopting a higher term): refuse an
    /// older term; otherwise follow the sender, restart the election
    /// timer, and store the entries if the entry before them matches.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_append(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        (prev, prev_term): (u64, u64),
        entries: &[u64],
        leader_commit: u64,
        round: u64,
    ) {
        if term < self.term {
            self.reply_mismatch(ctx, from, round);
            return;
        }
        if self.phase == Phase::Leader {
            // Another leader of our own term cannot exist (one vote per
            // term); ignore rather than corrupt the log.
            return;
        }
        if self.phase != Phase::Follower || self.leader != Some(from) {
            self.say_follows(ctx, from, term);
            self.become_follower(ctx, Some(from));
        }
        self.heard_leader_at = Some(ctx.local_now_us());
        self.arm_election_timer(ctx);
        let consistent = prev <= self.log.len() as u64 && self.term_at(prev) == prev_term;
        if !consistent {
            self.reply_mismatch(ctx, from, round);
            return;
        }
        for (i, &entry_term) in entries.iter().enumerate() {
            let index = prev as usize + i; // 0-based position of this entry
            match self.log.get(index) {
                Some(&t) if t == entry_term => {}
                Some(_) => {
                    self.log.truncate(index);
                    self.log.push(entry_term);
                }
                None => self.log.push(entry_term),
            }
        }
        let last_new = prev + entries.len() as u64;
        if leader_commit > self.commit_index {
            self.commit_index = leader_commit.min(last_new);
        }
        ctx.send(
            from,
            Msg::AppendReply {
                term: self.term,
                success: true,
                match_index: last_new,
                round,
            },
        );
    }

    /// A failed `AppendEntries`: our term and our log length as the hint.
    fn reply_mismatch(&self, ctx: &mut C<'_>, to: NodeId, round: u64) {
        ctx.send(
            to,
            Msg::AppendReply {
                term: self.term,
                success: false,
                match_index: self.log.len() as u64,
                round,
            },
        );
    }

    /// Leaders: an answer to `AppendEntries`. Success moves the follower's
    /// `matchIndex` and maybe the commit index; failure backs its
    /// `nextIndex` off for the next heartbeat. Every answer also counts
    /// for check-quorum and the lease.
    pub(super) fn on_append_reply(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        success: bool,
        match_index: u64,
        round: u64,
    ) {
        if self.phase != Phase::Leader || term != self.term {
            return;
        }
        let p = from as usize;
        self.last_ack_at[p] = Some(ctx.local_now_us());
        self.acked_round[p] = self.acked_round[p].max(round);
        if success {
            self.match_index[p] = self.match_index[p].max(match_index);
            self.next_index[p] = self.match_index[p] + 1;
            self.advance_commit();
        } else {
            self.next_index[p] = (self.next_index[p] - 1).min(match_index + 1).max(1);
        }
        self.update_lease(ctx);
    }

    /// Leaders: the periodic write to the resource, with the term as the
    /// fencing token.
    pub(super) fn write(&self, ctx: &mut C<'_>) {
        if let (Phase::Leader, Some(r)) = (self.phase, self.resource) {
            ctx.send(r, Msg::Write { token: self.term });
            let every = ctx.config().timing.write_us;
            ctx.set_timer(Timer::Write, every);
        }
    }
}
