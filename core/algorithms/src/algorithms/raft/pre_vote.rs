//! The `pre_vote` option (Ongaro's dissertation, section 9.6): before
//! raising its term, a server that timed out asks whether a majority would
//! vote for it. A server says yes only if the term asked about is above
//! its own, the candidate's log is up to date and it has not heard from a
//! leader within the minimum election timeout. A server cut off alone thus
//! never raises its term and does not disrupt the cluster when it comes
//! back.

use super::{C, Msg, Phase, Server};
use crate::algorithms::quorum;
use crate::protocol::NodeId;

impl Server {
    /// Whether this server leads, or heard from a leader less than the
    /// minimum election timeout ago (on its own clock). Also what the
    /// lease checks before a vote.
    pub(super) fn leader_recently(&self, ctx: &C<'_>) -> bool {
        let now = ctx.local_now_us();
        self.phase == Phase::Leader
            || self
                .heard_leader_at
                .is_some_and(|t| now - t < self.min_timeout_us as i64)
    }

    /// The election timeout ran out: ask for pre-votes for `term + 1`,
    /// leaving the term alone.
    pub(super) fn start_pre_vote(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::PreCandidate;
        self.leader = None;
        self.votes = vec![self.id];
        self.announce(ctx);
        self.say_pre_vote(ctx);
        self.arm_election_timer(ctx);
        if self.votes.len() >= quorum::majority(self.n) {
            self.become_candidate(ctx);
            return;
        }
        let next = self.term + 1;
        let (last_log_index, last_log_term) = self.last_log();
        for p in quorum::peers(self.id, self.n) {
            ctx.send(
                p,
                Msg::PreVote {
                    term: next,
                    last_log_index,
                    last_log_term,
                },
            );
        }
    }

    /// `PreVote` receiver: would it vote for `from` in `term`? Changes
    /// nothing, answers either way.
    pub(super) fn on_pre_vote(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        last_log_index: u64,
        last_log_term: u64,
    ) {
        let recent = self.leader_recently(ctx);
        let granted = term > self.term && !recent && self.log_ok(last_log_index, last_log_term);
        if !granted && recent {
            self.say_pre_vote_refused(ctx, from);
        }
        ctx.send(from, Msg::PreVoteReply { term, granted });
    }

    /// Pre-candidates: a yes for the next term; with a majority, the real
    /// election starts.
    pub(super) fn on_pre_vote_reply(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        granted: bool,
    ) {
        if self.phase == Phase::PreCandidate
            && term == self.term + 1
            && granted
            && !self.votes.contains(&from)
        {
            self.votes.push(from);
            if self.votes.len() >= quorum::majority(self.n) {
                self.say_pre_vote_won(ctx);
                self.become_candidate(ctx);
            }
        }
    }
}
