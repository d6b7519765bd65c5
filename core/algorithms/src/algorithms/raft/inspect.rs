//! How a Raft server and its messages look from outside: the message text
//! of the trace (`KIND(payload)`, the part from the first parenthesis on)
//! and every field of a server for the inspector, plus the memory estimate
//! that bounds time-travel checkpoints.

use super::narration::{ms, names};
use super::{Msg, Phase, Server};
use crate::protocol::NodeId;
use std::fmt;

impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let yes = |b: &bool, y: &'static str, n: &'static str| if *b { y } else { n };
        match self {
            Msg::RequestVote {
                term,
                last_log_index,
                last_log_term,
            } => write!(
                f,
                "RequestVote(term {term}, log {last_log_index}@t{last_log_term})"
            ),
            Msg::Vote { term, granted } => {
                write!(
                    f,
                    "Vote(term {term}, {})",
                    yes(granted, "granted", "refused")
                )
            }
            Msg::AppendEntries {
                term,
                prev_log_index,
                prev_log_term,
                entries,
                leader_commit,
                round,
            } => {
                write!(
                    f,
                    "AppendEntries(term {term}, prev {prev_log_index}@t{prev_log_term}, "
                )?;
                if entries.is_empty() {
                    write!(f, "heartbeat")?;
                } else {
                    write!(f, "{} entries", entries.len())?;
                }
                write!(f, ", commit {leader_commit}, round {round})")
            }
            Msg::AppendReply {
                term,
                success,
                match_index,
                round,
            } => write!(
                f,
                "AppendReply(term {term}, {} {match_index}, round {round})",
                yes(success, "match", "mismatch; log length")
            ),
            Msg::PreVote {
                term,
                last_log_index,
                last_log_term,
            } => write!(
                f,
                "PreVote(term {term}, log {last_log_index}@t{last_log_term})"
            ),
            Msg::PreVoteReply { term, granted } => {
                write!(
                    f,
                    "PreVoteReply(term {term}, {})",
                    yes(granted, "yes", "no")
                )
            }
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Server {
    /// Estimated heap bytes of the state (see
    /// [`crate::protocol::Protocol::heap_bytes`]).
    pub(super) fn heap_size(&self) -> usize {
        std::mem::size_of::<Server>()
            + 8 * (self.log.len()
                + self.votes.len()
                + self.next_index.len()
                + self.match_index.len()
                + 2 * self.last_ack_at.len()
                + self.acked_round.len()
                + 2 * self.round_started.len())
    }

    /// Every field, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        let time = |x: Option<i64>| x.map_or("never".to_string(), |t| format!("{} ms", ms(t)));
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let (last_index, last_term) = self.last_log();
        let leading = self.phase == Phase::Leader;
        let mut out = vec![
            ("phase", format!("{:?}", self.phase)),
            ("current term (persistent)", self.term.to_string()),
            ("voted for (persistent)", opt(self.voted_for)),
            (
                "log (persistent)",
                format!("{last_index} entries, last of term {last_term}"),
            ),
            ("log terms", list(&self.log)),
            ("commit index", self.commit_index.to_string()),
            ("leader", opt(self.leader)),
            ("votes this round", names(&self.votes)),
            ("heard from a leader at (local)", time(self.heard_leader_at)),
            ("elections started", self.elections_started.to_string()),
            (
                "options",
                format!(
                    "pre_vote {}, check_quorum {}, leader_lease {}",
                    self.pre_vote, self.check_quorum, self.leader_lease
                ),
            ),
        ];
        if leading {
            out.extend([
                ("heartbeat round", self.round.to_string()),
                ("next index", list(&self.next_index)),
                ("match index", list(&self.match_index)),
                ("acked round", list(&self.acked_round)),
                (
                    "last answer at (local)",
                    self.last_ack_at
                        .iter()
                        .map(|t| t.map_or("-".to_string(), |t| format!("{}", ms(t))))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                ("lease held", self.lease_held.to_string()),
                ("lease until (local)", time(self.lease_until)),
            ]);
        }
        out
    }
}
