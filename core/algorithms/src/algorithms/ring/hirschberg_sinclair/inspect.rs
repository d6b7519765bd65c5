//! How a Hirschberg-Sinclair node looks in the inspector.

use super::{Dir, HirschbergSinclair, Status};

impl HirschbergSinclair {
    /// Every field of the node, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let status = match self.status {
            Status::Idle => "follower (takes no part in an election)",
            Status::Candidate => "candidate",
            Status::Relay => "relaying an election",
            Status::Leader => "leader",
        };
        let replied: Vec<&str> = [Dir::Next, Dir::Prev]
            .into_iter()
            .filter(|d| self.replied[d.index()])
            .map(Dir::name)
            .collect();
        vec![
            ("status", status.to_string()),
            ("phase", self.phase.to_string()),
            (
                "replies this phase from",
                if replied.is_empty() {
                    "none".into()
                } else {
                    replied.join(" and ")
                },
            ),
            ("largest id seen", format!("n{}", self.largest_seen)),
            (
                "leader",
                self.leader.map_or("none".into(), |l| format!("n{l}")),
            ),
            ("next", format!("n{}", self.next)),
            ("prev", format!("n{}", self.prev)),
        ]
    }
}
