//! How a Next-in-line node looks in the inspector.

use super::line::names;
use super::{NextInLine, NodeId};

impl NextInLine {
    /// Every field of the node, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        vec![
            ("phase", format!("{:?}", self.phase)),
            ("leader", opt(self.leader)),
            (
                "line of succession",
                self.line
                    .as_deref()
                    .map_or("never told one".to_string(), names),
            ),
            (
                "line version",
                self.line_from
                    .map_or("none".to_string(), |(l, v)| format!("v{v} from n{l}")),
            ),
            ("own line version (as leader)", format!("v{}", self.version)),
            ("line goes with the next beat to", names(&self.send_line_to)),
            ("still to ask", names(&self.to_ask)),
            ("asking", opt(self.asking)),
            ("presumed dead", names(&self.presumed_dead)),
            (
                "JOIN sent at (local)",
                self.join_sent_at
                    .map_or("none".to_string(), |t| format!("{} ms", t as f64 / 1000.0)),
            ),
            ("elections started", self.elections_started.to_string()),
        ]
    }
}
