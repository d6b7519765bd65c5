//! How an Invitation node looks in the inspector.

use super::Invitation;
use super::groups::names;

impl Invitation {
    /// Every field of the node, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let found: Vec<String> = self
            .found
            .iter()
            .map(|(j, size)| format!("n{j} (group of {size})"))
            .collect();
        let up: Vec<String> = self
            .up
            .iter()
            .map(|(m, heard)| format!("n{m} (last heard at {} ms local)", *heard as f64 / 1000.0))
            .collect();
        vec![
            ("phase", format!("{:?}", self.phase)),
            ("group", self.group.to_string()),
            ("coordinator", format!("n{}", self.group.coordinator)),
            (
                "members (coordinator)",
                if up.is_empty() {
                    "none".into()
                } else {
                    up.join(", ")
                },
            ),
            ("members (from READY)", names(self.roster.iter().copied())),
            ("group confirmed", self.confirmed.to_string()),
            ("group counter", self.counter.to_string()),
            ("searching", self.searching.to_string()),
            (
                "found coordinators",
                if found.is_empty() {
                    "none".into()
                } else {
                    found.join(", ")
                },
            ),
            ("to invite after delay", names(self.pending.iter().copied())),
            (
                "forming",
                self.forming.map_or("none".into(), |g| g.to_string()),
            ),
            ("accepted", names(self.accepted.iter().copied())),
            ("merges started", self.merges_started.to_string()),
            (
                "groups formed alone (recoveries)",
                self.groups_formed_alone.to_string(),
            ),
            ("nodes", self.n.to_string()),
        ]
    }
}
