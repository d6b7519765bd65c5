//! What a Raft server says in the event log, one method per occasion.
//! Notes cost nothing in runs that keep no trace (the text is only built
//! when recording) and are not part of the trace hash.

use super::{C, Phase, Server};
use crate::algorithms::quorum;
use crate::protocol::NodeId;

/// `n1, n3, n4`.
pub(super) fn names(ids: &[NodeId]) -> String {
    let v: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
    v.join(", ")
}

/// Local microseconds as milliseconds.
pub(super) fn ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

impl Server {
    pub(super) fn say_recovered(&self, ctx: &mut C<'_>) {
        ctx.note_with(|| {
            format!(
                "recovers from disk: term {}, voted for {}, {} log entries; waits as a follower",
                self.term,
                self.voted_for
                    .map_or("nobody".to_string(), |v| format!("n{v}")),
                self.log.len()
            )
        });
    }

    /// Before adopting `term` (the server's own term is still the old one).
    pub(super) fn say_higher_term(&self, ctx: &mut C<'_>, term: u64, from: NodeId) {
        let old = self.term;
        ctx.note_with(|| match self.phase {
            Phase::Leader => format!(
                "hears term {term} from n{from}, above its own term {old}: steps down as leader"
            ),
            _ => format!("hears term {term} from n{from}; moves up from term {old} and follows"),
        });
    }

    pub(super) fn say_timed_out(&self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        let term = self.term;
        match (self.phase, self.leader, self.heard_leader_at) {
            (Phase::Leader, ..) => {}
            (Phase::Follower, Some(l), Some(at)) => ctx.note_with(|| {
                format!(
                    "heard nothing from leader n{l} for {} ms: timed out waiting for the leader",
                    ms(now - at)
                )
            }),
            (Phase::Follower, ..) => ctx.note("knows no leader and its election timer ran out"),
            (Phase::PreCandidate, ..) => {
                ctx.note("its pre-vote got no majority in time; tries again")
            }
            (Phase::Candidate, ..) => ctx.note_with(|| {
                format!("no majority for term {term} in time (a split vote); tries the next term")
            }),
        }
    }

    pub(super) fn say_pre_vote(&self, ctx: &mut C<'_>) {
        let next = self.term + 1;
        ctx.note_with(|| {
            format!("asks the others whether they would vote for it in term {next} (pre-vote; its term stays {})", next - 1)
        });
    }

    pub(super) fn say_pre_vote_refused(&self, ctx: &mut C<'_>, from: NodeId) {
        ctx.note_with(|| {
            format!("says no to n{from}'s pre-vote: it heard from a leader less than an election timeout ago")
        });
    }

    pub(super) fn say_pre_vote_won(&self, ctx: &mut C<'_>) {
        ctx.note_with(|| {
            format!(
                "a majority ({}) would vote for it: starts the real election",
                names(&self.votes)
            )
        });
    }

    pub(super) fn say_candidate(&self, ctx: &mut C<'_>) {
        let term = self.term;
        ctx.note_with(|| format!("starts an election for term {term} and votes for itself"));
    }

    pub(super) fn say_voted_already(&self, ctx: &mut C<'_>, from: NodeId, term: u64) {
        let v = self.voted_for.unwrap_or(from);
        ctx.note_with(|| format!("refuses n{from}: already voted for n{v} in term {term}"));
    }

    pub(super) fn say_log_behind(
        &self,
        ctx: &mut C<'_>,
        from: NodeId,
        last_log_index: u64,
        last_log_term: u64,
    ) {
        let (i, t) = self.last_log();
        ctx.note_with(|| {
            format!(
                "refuses n{from}: its log ({last_log_index}@t{last_log_term}) is less up to date than ours ({i}@t{t})"
            )
        });
    }

    pub(super) fn say_won(&self, ctx: &mut C<'_>) {
        let term = self.term;
        ctx.note_with(|| {
            format!(
                "wins term {term} with votes from {}: leads",
                names(&self.votes)
            )
        });
    }

    pub(super) fn say_follows(&self, ctx: &mut C<'_>, from: NodeId, term: u64) {
        ctx.note_with(|| format!("hears from n{from}, leader of term {term}; follows it"));
    }

    pub(super) fn say_no_quorum(&self, ctx: &mut C<'_>, heard: usize, window: i64) {
        let need = quorum::majority(self.n);
        ctx.note_with(|| {
            format!(
                "heard from only {heard} of the {need} servers a majority needs within {} ms: steps down (check-quorum)",
                ms(window)
            )
        });
    }

    pub(super) fn say_lease_refusal(&self, ctx: &mut C<'_>, from: NodeId, term: u64) {
        ctx.note_with(|| {
            format!("ignores n{from}'s request for term {term}: it heard from a leader less than an election timeout ago (the leader may hold a lease)")
        });
    }

    pub(super) fn say_lease_taken(&self, ctx: &mut C<'_>, round: u64, until: i64) {
        ctx.note_with(|| {
            format!(
                "a majority answered heartbeat round {round}: holds the read lease until {} ms on its own clock",
                ms(until)
            )
        });
    }

    pub(super) fn say_lease_expired(&self, ctx: &mut C<'_>) {
        ctx.note("its read lease ran out on its own clock: reads must go through the log again");
    }
}
