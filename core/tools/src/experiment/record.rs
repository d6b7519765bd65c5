//! [`RunRecord`]: what one run of a sweep contributes, the row of
//! `election sweep --csv` and the per-run result a page worker sends back.
//!
//! It serializes with the CSV column names, and deserializes again, so a
//! record made in a Web Worker travels as JSON to the page and into the
//! same report and CSV code the command line uses.

use crate::sim::RunSummary;
use serde::{Deserialize, Serialize};

/// One run of a sweep, compacted from its [`RunSummary`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    #[serde(rename = "messages_sent")]
    pub sent: u64,
    /// Election-purpose messages sent.
    #[serde(rename = "election_messages")]
    pub election: u64,
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
    /// Messages sent by kind, in the algorithm's kind order
    /// (`algorithms::info(id).kinds`).
    pub by_kind: Vec<u64>,
    /// The error that stopped a scripted run (the one line `election
    /// run` prints: node, handler, line, simulated time, message); absent
    /// when none did, so built-in algorithms' records are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script_error: Option<String>,
    /// When the run ended, ms: how long a run without a first leader was
    /// watched for. Absent from records written before it was added
    /// (a shard report), which then say only that they never got there.
    #[serde(default)]
    pub end_ms: Option<f64>,
    /// When the last fault was applied, ms (`None` with none): a run that
    /// never recovered was watched for `end_ms - last_fault_ms`.
    #[serde(default)]
    pub last_fault_ms: Option<f64>,
}

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
            script_error: s.script_error.map(|e| e.to_string()),
            end_ms: Some(s.end_ms),
            last_fault_ms: s.last_fault_ms,
        }
    }

    /// The time to the first leader, or how long the run was watched
    /// without one ([`crate::stats::Censored::of`]).
    pub fn first_leader_or_watched(&self) -> Result<f64, Option<f64>> {
        self.first_leader_ms.ok_or(self.end_ms)
    }

    /// The time to recover after the last fault, or how long the run was
    /// watched after it without recovering.
    pub fn recovery_or_watched(&self) -> Result<f64, Option<f64>> {
        self.recovery_ms.ok_or_else(|| {
            self.end_ms
                .map(|end| end - self.last_fault_ms.unwrap_or(0.0))
        })
    }
}
