//! How a Zab server looks in the inspector.

use super::{Ballot, Server, ms, zxid_text};
use crate::protocol::NodeId;
use crate::time::Micros;
use crate::vec_map::VecMap;

impl Server {
    pub(super) fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<NodeId>| v.map_or("none".to_string(), |l| format!("n{l}"));
        let votes = |m: &VecMap<NodeId, Ballot>| {
            if m.is_empty() {
                return "none".to_string();
            }
            m.iter()
                .map(|(from, b)| {
                    format!("n{from}: {} round {} {}", b.vote, b.round, b.state.name())
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let learners = if self.learners.is_empty() {
            "none".to_string()
        } else {
            self.learners
                .iter()
                .map(|(id, l)| {
                    format!(
                        "n{id}: accepted {}, acked {}, fresh {}, heard at {} ms",
                        l.accepted_epoch,
                        l.acked,
                        l.fresh,
                        ms(l.heard_us.max(0) as Micros)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let ids = |v: &[NodeId]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|id| format!("n{id}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let mut fields = vec![
            ("state", self.state.name().to_string()),
            ("accepted epoch", self.stored.accepted_epoch.to_string()),
            ("current epoch", self.stored.current_epoch.to_string()),
            ("last zxid", zxid_text(self.stored.last_zxid)),
            ("round", self.round.to_string()),
            ("proposal", self.proposal.to_string()),
            ("votes this round", votes(&self.recv)),
            ("out-of-election answers", votes(&self.out_of_election)),
            ("resend wait", format!("{} ms", ms(self.notify_wait_us))),
            ("finalizing", self.finalizing.to_string()),
            (
                "decided",
                self.decided.map_or("none".to_string(), |b| {
                    format!("{} in round {}", b.vote, b.round)
                }),
            ),
            ("leader", opt(self.leader)),
            (
                "proposed epoch",
                self.proposed_epoch
                    .map_or("none".to_string(), |e| e.to_string()),
            ),
            ("established", self.established.to_string()),
            ("followers", learners),
            ("synced", self.synced.to_string()),
            ("transactions this epoch", self.txns.to_string()),
            (
                "next write at",
                format!("{} ms", ms(self.next_write_us.max(0) as Micros)),
            ),
            (
                "leader last heard at",
                format!("{} ms", ms(self.heard_leader_us.max(0) as Micros)),
            ),
            ("elections started", self.elections_started.to_string()),
            ("quorum", self.quorum().to_string()),
        ];
        if self.voters < self.n {
            fields.push((
                "membership",
                if self.observer() {
                    "observer (follows, does not vote)".to_string()
                } else {
                    format!("voter (n0 to n{} vote)", self.voters - 1)
                },
            ));
            fields.push(("observers waiting for an answer", ids(&self.waiting)));
        }
        fields
    }
}
