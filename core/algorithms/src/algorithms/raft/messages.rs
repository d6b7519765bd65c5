//! Raft's messages (paper, figure 2: the RequestVote and AppendEntries
//! RPCs and their results; dissertation 9.6: PreVote) and the resource
//! write. How they print is in [`super::inspect`].

use crate::protocol::{Message, Purpose};

/// Raft messages. Log entries are represented by their term alone: the
/// simulation needs nothing else of them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// A candidate asks for a vote.
    RequestVote {
        /// The candidate's (new) term.
        term: u64,
        /// Index of its last log entry (0 for an empty log).
        last_log_index: u64,
        /// Term of its last log entry (0 for an empty log).
        last_log_term: u64,
    },
    /// The answer to `RequestVote`.
    Vote {
        /// The voter's term.
        term: u64,
        /// Whether the vote was granted.
        granted: bool,
    },
    /// Heartbeat and log replication (background).
    AppendEntries {
        /// The leader's term.
        term: u64,
        /// Index of the entry just before `entries`.
        prev_log_index: u64,
        /// Its term.
        prev_log_term: u64,
        /// Terms of the entries to store after `prev_log_index`.
        entries: Vec<u64>,
        /// The leader's commit index.
        leader_commit: u64,
        /// Number of the leader's heartbeat round (for the lease).
        round: u64,
    },
    /// The answer to `AppendEntries` (background).
    AppendReply {
        /// The follower's term.
        term: u64,
        /// Whether the consistency check passed.
        success: bool,
        /// On success the index of the last entry now matching the
        /// leader's; on failure the follower's log length (a hint).
        match_index: u64,
        /// The round answered.
        round: u64,
    },
    /// "Would you vote for me in `term`?" (sender's term unchanged).
    PreVote {
        /// The term the sender would start.
        term: u64,
        /// Index of its last log entry.
        last_log_index: u64,
        /// Term of its last log entry.
        last_log_term: u64,
    },
    /// The answer to `PreVote`.
    PreVoteReply {
        /// The term asked about.
        term: u64,
        /// Whether the server would vote.
        granted: bool,
    },
    /// A leader's write to the resource, with its term as fencing token.
    Write {
        /// The fencing token.
        token: u64,
    },
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::RequestVote { .. } => 0,
            Msg::Vote { .. } => 1,
            Msg::AppendEntries { .. } => 2,
            Msg::AppendReply { .. } => 3,
            Msg::PreVote { .. } => 4,
            Msg::PreVoteReply { .. } => 5,
            Msg::Write { .. } => 6,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::RequestVote { .. }
            | Msg::Vote { .. }
            | Msg::PreVote { .. }
            | Msg::PreVoteReply { .. } => Purpose::Election,
            Msg::AppendEntries { .. } | Msg::AppendReply { .. } | Msg::Write { .. } => {
                Purpose::Background
            }
        }
    }
}
