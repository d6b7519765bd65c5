//! [`RunRecord`]: the compact row one run contributes to a seed sweep, and
//! its CSV form (the `election sweep --csv` columns). It lives in the core
//! so the command line and the page's "Summary CSV" export write the same
//! row for the same run.

use crate::sim::RunSummary;

/// What one run contributes to a sweep (a compact [`RunSummary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// The seed.
    pub seed: u64,
    /// The leader at the end, if exactly one.
    pub leader: Option<u32>,
    /// When the first leader appeared, ms.
    pub first_leader_ms: Option<f64>,
    /// Time from the last fault (or the start) until the cluster settled
    /// after it, ms; `None` if it never did.
    pub recovery_ms: Option<f64>,
    /// Messages sent.
    pub sent: u64,
    /// Election-purpose messages sent.
    pub election: u64,
    /// Messages sent by kind, in the algorithm's kind order.
    pub by_kind: Vec<u64>,
    /// Elections started.
    pub elections: u64,
    /// Leadership handovers.
    pub leader_changes: u64,
    /// Time without a leader, ms.
    pub leaderless_ms: f64,
    /// Time with several leaders, ms.
    pub split_brain_ms: f64,
    /// Property violations.
    pub violations: u64,
    /// Whether the run settled.
    pub settled: bool,
    /// Whether the run hit the event limit.
    pub truncated: bool,
    /// Trace hash.
    pub trace_hash: String,
}

/// The fixed CSV columns, before one column per message kind.
pub const CSV_COLUMNS: &str = "seed,leader,first_leader_ms,recovery_ms,messages_sent,election_messages,elections,leader_changes,leaderless_ms,split_brain_ms,violations,settled,truncated,trace_hash";

impl RunRecord {
    /// The record of summary `s`; `kinds` fixes the order of `by_kind`.
    pub fn of(s: RunSummary, kinds: &[&str]) -> Self {
        Self {
            seed: s.seed,
            leader: s.leader,
            first_leader_ms: s.first_leader_ms,
            recovery_ms: s.recovery_ms,
            sent: s.messages.sent,
            election: s.messages.election,
            by_kind: kinds
                .iter()
                .map(|k| s.messages.by_kind.get(*k).copied().unwrap_or(0))
                .collect(),
            elections: s.elections,
            leader_changes: s.leader_changes,
            leaderless_ms: s.leaderless_ms,
            split_brain_ms: s.split_brain_ms,
            violations: s.violations.len() as u64,
            settled: s.settled,
            truncated: s.truncated,
            trace_hash: s.trace_hash,
        }
    }

    /// The record as one CSV line (with its newline), columns as
    /// [`csv_header`] names them.
    pub fn csv_line(&self) -> String {
        let opt = |x: Option<String>| x.unwrap_or_default();
        let mut out = format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.seed,
            opt(self.leader.map(|l| l.to_string())),
            opt(self.first_leader_ms.map(|x| x.to_string())),
            opt(self.recovery_ms.map(|x| x.to_string())),
            self.sent,
            self.election,
            self.elections,
            self.leader_changes,
            self.leaderless_ms,
            self.split_brain_ms,
            self.violations,
            self.settled,
            self.truncated,
            self.trace_hash
        );
        for c in &self.by_kind {
            out.push_str(&format!(",{c}"));
        }
        out.push('\n');
        out
    }
}

/// The CSV header line (with its newline): [`CSV_COLUMNS`], then one
/// column per message kind of the algorithm.
pub fn csv_header(kinds: &[&str]) -> String {
    let mut out = String::from(CSV_COLUMNS);
    for k in kinds {
        out.push(',');
        out.push_str(k);
    }
    out.push('\n');
    out
}

/// A whole CSV table: the header, then one line per record.
pub fn csv(kinds: &[&str], records: &[RunRecord]) -> String {
    let mut out = csv_header(kinds);
    for r in records {
        out.push_str(&r.csv_line());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;

    #[test]
    fn one_run_as_a_csv_table() {
        let scenario =
            Scenario::from_json(r#"{"algorithm":"chang-roberts","nodes":4,"ring":"ascending"}"#)
                .unwrap();
        let summary = crate::sim::run(&scenario);
        let kinds = crate::algorithms::info("chang-roberts").unwrap().kinds;
        let text = csv(kinds, &[RunRecord::of(summary.clone(), kinds)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            format!("{CSV_COLUMNS},ELECTION,ELECTED,HEARTBEAT")
        );
        // Ascending ring, all start: 2n-1 ELECTION and n ELECTED.
        let heartbeats = summary.messages.by_kind["HEARTBEAT"];
        let tail = format!("{},7,4,{heartbeats}", summary.trace_hash);
        assert!(lines[1].ends_with(&tail), "{}", lines[1]);
        assert!(lines[1].starts_with("1,3,"), "{}", lines[1]);
    }
}
