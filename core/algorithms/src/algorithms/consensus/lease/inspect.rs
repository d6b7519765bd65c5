//! How a Lease candidate looks in the inspector.

use super::Elector;

impl Elector {
    /// Every field of the candidate, for the inspector.
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        let ms = |us: u64| format!("{} ms", us as f64 / 1000.0);
        vec![
            ("kind", "candidate".to_string()),
            ("service", format!("n{}", self.service)),
            ("resource", format!("n{}", self.resource)),
            ("role", format!("{:?}", self.role).to_ascii_lowercase()),
            (
                "leading (believes it holds the lease)",
                self.leading.to_string(),
            ),
            ("acquiring", self.acquiring.to_string()),
            (
                "observed lease",
                self.observed
                    .map_or("none yet".to_string(), |o| format!("{o:?}")),
            ),
            (
                "observed at",
                format!("{} ms (local clock)", self.observed_at as f64 / 1000.0),
            ),
            (
                "renew deadline at",
                self.deadline.map_or("none".to_string(), |d| {
                    format!("{} ms (local clock)", d as f64 / 1000.0)
                }),
            ),
            (
                "renewed since last tick",
                self.renewed_since_tick.to_string(),
            ),
            ("term (highest transitions seen)", self.term.to_string()),
            (
                "leader",
                self.leader.map_or("none".to_string(), |l| format!("n{l}")),
            ),
            ("lease duration", ms(self.lease_us)),
            ("renew deadline", ms(self.renew_deadline_us)),
            ("retry period", ms(self.retry_us)),
            ("write every", ms(self.write_us)),
            ("acquisitions", self.acquisitions.to_string()),
            ("renewals", self.renewals.to_string()),
            ("writes sent", self.writes_sent.to_string()),
        ]
    }
}
