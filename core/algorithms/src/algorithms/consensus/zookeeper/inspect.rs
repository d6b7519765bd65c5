//! How a ZooKeeper recipe client looks in the inspector.

use super::{Client, LOST_AFTER_TICKS};

impl Client {
    /// Every field of the client, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<u64>, f: &dyn Fn(u64) -> String| v.map_or("none".to_string(), f);
        vec![
            ("kind", "client".to_string()),
            ("service", format!("n{}", self.service)),
            ("resource", format!("n{}", self.resource)),
            ("phase", format!("{:?}", self.phase)),
            ("watch", format!("{:?}", self.watch).to_ascii_lowercase()),
            ("session", opt(self.session, &|s| s.to_string())),
            ("znode", opt(self.znode, &|s| format!("#{s}"))),
            ("term (latest znode)", self.term.to_string()),
            (
                "leader",
                self.leader
                    .map_or("none".to_string(), |l| format!("n{} (#{})", l.owner, l.seq)),
            ),
            ("connected", self.connected.to_string()),
            (
                "unanswered since",
                self.unanswered_since
                    .map_or("nothing pending".to_string(), |t| {
                        format!("{} ms (local)", t as f64 / 1000.0)
                    }),
            ),
            ("ping every", format!("{} ms", self.ping_us as f64 / 1000.0)),
            (
                "request retry after",
                format!("{} ms", self.reply_timeout_us as f64 / 1000.0),
            ),
            (
                "write every",
                format!("{} ms", self.write_us as f64 / 1000.0),
            ),
            (
                "silent ping periods",
                format!(
                    "{} (connection lost at {LOST_AFTER_TICKS})",
                    self.silent_ticks
                ),
            ),
            ("sessions opened", self.sessions_opened.to_string()),
            ("watch events received", self.watch_events.to_string()),
            ("writes sent", self.writes_sent.to_string()),
        ]
    }
}
