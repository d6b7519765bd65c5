//! How a Multi-Paxos replica and its messages look from outside: the
//! message text of the trace (`KIND(payload)`, the part from the first
//! parenthesis on) and every field of a replica for the inspector, plus
//! the memory estimate that bounds time-travel checkpoints.

use super::narration::{ms, names};
use super::{Msg, Phase, Replica};
use crate::protocol::NodeId;
use std::fmt;

impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Prepare { ballot } => write!(f, "Prepare(ballot {ballot})"),
            Msg::Promise { ballot, accepted } => {
                write!(f, "Promise(ballot {ballot}, accepted {accepted})")
            }
            Msg::Reject { ballot, promised } => {
                write!(f, "Reject(ballot {ballot}, promised {promised})")
            }
            Msg::Heartbeat { ballot, round } => {
                write!(f, "Heartbeat(ballot {ballot}, round {round})")
            }
            Msg::HeartbeatAck { ballot, round } => {
                write!(f, "HeartbeatAck(ballot {ballot}, round {round})")
            }
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Replica {
    /// Estimated heap bytes of the state (see
    /// [`crate::protocol::Protocol::heap_bytes`]).
    pub(super) fn heap_size(&self) -> usize {
        std::mem::size_of::<Replica>()
            + 8 * (self.promises.len()
                + 2 * self.last_ack_at.len()
                + self.acked_round.len()
                + 2 * self.round_started.len())
    }

    /// Every field, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        let mut out = vec![
            ("phase", format!("{:?}", self.phase)),
            ("promised ballot (persistent)", self.promised.to_string()),
            ("accepted ballot (persistent)", self.accepted.to_string()),
            ("leader", opt(self.leader)),
            ("highest ballot seen", self.max_seen.to_string()),
            ("elections started", self.elections_started.to_string()),
            (
                "options",
                format!(
                    "backoff {}, master_lease {}",
                    self.backoff, self.master_lease
                ),
            ),
        ];
        if self.phase != Phase::Follower {
            out.extend([
                ("own ballot", self.ballot.to_string()),
                ("promises", names(&self.promises)),
                (
                    "highest accepted among promises",
                    self.highest_accepted.to_string(),
                ),
            ]);
        }
        if let Some((holder, until)) = self.grant {
            out.push((
                "lease granted (local)",
                format!(
                    "to {} until {} ms",
                    holder.map_or("anyone".to_string(), |h| format!("n{h}")),
                    ms(until)
                ),
            ));
        }
        if self.phase == Phase::Leader {
            let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            out.extend([
                ("heartbeat round", self.round.to_string()),
                ("acked round", list(&self.acked_round)),
                (
                    "last acknowledgement at (local)",
                    self.last_ack_at
                        .iter()
                        .map(|t| t.map_or("-".to_string(), |t| format!("{}", ms(t))))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
            ]);
            if self.master_lease {
                out.extend([
                    ("master lease held", self.lease_held.to_string()),
                    (
                        "master lease until (local)",
                        format!("{} ms", ms(self.lease_until)),
                    ),
                ]);
            }
        }
        out
    }
}
