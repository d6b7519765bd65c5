//! Randomized fault runs: a random but valid scenario (algorithm, size,
//! network, fault schedule) from a seed, and the properties every run must
//! keep. Used by the `random_faults` test and `election fuzz-faults`.
//!
//! Each scenario ends with every fault undone (network healed and
//! loss-free again, every node recovered and fast again), so once the
//! faults are over the cluster must settle on one leader. The properties checked: the message books balance,
//! the run settles with exactly one leader, and a consensus-family
//! algorithm never breaks its safety properties (one leader per term, terms
//! never decrease, one vote per term, no stale write accepted with fencing
//! on). Clock drift is a deliberate broken assumption for leases, so a
//! `lease_overlap` is reported, not a failure.

use crate::ScenarioExt;
use crate::algorithms;
use crate::protocol::Safety;
use crate::rng::{SimRng, Stream};
use crate::scenario::Scenario;
use crate::sim::{self, RunSummary};
use serde_json::{Value, json};

/// Violations that are bugs for consensus-family algorithms.
const CONSENSUS_BUGS: &[&str] = &[
    "one_leader_per_term",
    "terms_never_decrease",
    "one_vote_per_term",
    "stale_write_accepted",
];

/// A random scenario as JSON for `seed`, with `algorithm` if given (else
/// drawn from the seed too).
///
/// The fault rates are drawn per seed as well: how many faults (0 to 16),
/// how densely they come (a mean gap from 25 to 600 ms), and the message
/// loss and duplication rates (0 to 5% each, on 40% of the seeds), so one
/// sweep covers calm runs, storms of faults and lossy networks.
pub fn random_scenario_json(seed: u64, algorithm: Option<&str>) -> Value {
    let mut r = SimRng::new(seed, Stream::Engine);
    let ids = algorithms::ids();
    let drawn = ids[r.below(ids.len() as u64) as usize];
    let algorithm = algorithm.unwrap_or(drawn);
    let n = r.between(2, 24);
    let mut faults = Vec::new();
    let mut t = 0;
    let count = r.between(0, 16);
    let mean_gap_ms = r.between(25, 600);
    for _ in 0..count {
        t += r.between(0, 2 * mean_gap_ms);
        let node = json!(r.below(n));
        let target = if r.chance(0.3) {
            json!("leader")
        } else {
            node.clone()
        };
        let fault = match r.below(9) {
            0 => json!({"at_ms": t, "crash": target}),
            1 => json!({"at_ms": t, "recover": node}),
            2 => json!({"at_ms": t, "pause": target, "for_ms": r.between(1, 500)}),
            3 => json!({"at_ms": t, "clock": node, "offset_ms": r.between(0, 200), "drift": 0.1}),
            4 => {
                let cut = r.between(1, n - 1);
                json!({"at_ms": t, "partition": [(0..cut).collect::<Vec<_>>()]})
            }
            5 => json!({"at_ms": t, "slow": node, "extra_ms": r.between(0, 30)}),
            6 => {
                json!({"at_ms": t, "flaky": node, "period_ms": 300, "down_ms": 100, "for_ms": 900})
            }
            7 => {
                let from = r.below(n);
                let to = (from + 1 + r.below(n - 1)) % n;
                json!({"at_ms": t, "cut": [from, to]})
            }
            _ => json!({"at_ms": t, "heal": true}),
        };
        faults.push(fault);
    }
    let ring = ["ascending", "descending", "random"][r.below(3) as usize];
    let start = ["all", "none"][r.below(2) as usize];
    let latency_hi = r.between(2, 20);
    let drop = if r.chance(0.4) {
        r.between(1, 5) as f64 / 100.0
    } else {
        0.0
    };
    let duplicate = if r.chance(0.4) {
        r.between(1, 5) as f64 / 100.0
    } else {
        0.0
    };
    let fifo = r.chance(0.7);
    // Afterwards: everything comes back, the network's losses included.
    // (Lasting loss is no fault that ends: Hirschberg-Sinclair on 21 nodes
    // at 5% loss can go a minute without a leader, each resend of a 16-hop
    // phase getting through only one time in five; liveness is only
    // claimed once the faults are over.)
    t += 1000;
    faults.push(json!({"at_ms": t, "heal": true}));
    faults.push(json!({"at_ms": t, "network": {
        "latency_ms": [1, latency_hi], "drop": 0.0, "duplicate": 0.0, "fifo": fifo
    }}));
    for id in 0..n {
        faults.push(json!({"at_ms": t, "recover": id}));
        faults.push(json!({"at_ms": t, "slow": id, "extra_ms": 0}));
    }
    json!({
        "algorithm": algorithm,
        "nodes": n,
        "seed": seed,
        "ring": ring,
        "start": start,
        "network": {"latency_ms": [1, latency_hi], "drop": drop, "duplicate": duplicate, "fifo": fifo},
        "faults": faults
    })
}

/// What a failed run broke.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The seed.
    pub seed: u64,
    /// What went wrong.
    pub problem: String,
    /// The scenario that reproduces it (pretty JSON, ready for a file).
    pub scenario: String,
}

/// Runs the random scenario of `seed` and checks the properties; the
/// summary on success.
pub fn check_seed(seed: u64, algorithm: Option<&str>) -> Result<RunSummary, Failure> {
    let value = random_scenario_json(seed, algorithm);
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    let fail = |problem: String| Failure {
        seed,
        problem,
        scenario: text.clone(),
    };
    let scenario =
        Scenario::from_value(&value).map_err(|e| fail(format!("invalid scenario: {e}")))?;
    let summary = sim::run(&scenario);
    check_summary(&scenario, &summary).map_err(fail)?;
    Ok(summary)
}

/// The properties of a finished random run.
pub fn check_summary(scenario: &Scenario, s: &RunSummary) -> Result<(), String> {
    let m = &s.messages;
    if m.sent + m.duplicated != m.delivered + m.dropped + m.in_flight {
        return Err(format!("message books do not balance: {m:?}"));
    }
    if s.truncated {
        return Err("the run hit the event limit".into());
    }
    if !s.settled || s.leader.is_none() {
        return Err(format!(
            "no single settled leader after every fault was over (leaders {:?}, settled {})",
            s.leaders, s.settled
        ));
    }
    let consensus = algorithms::safety(&scenario.algorithm) == Some(Safety::Consensus);
    if consensus {
        if let Some(v) = s
            .violations
            .iter()
            .find(|v| CONSENSUS_BUGS.contains(&v.property.as_str()))
        {
            return Err(format!(
                "safety violated: {} at {} ms: {}",
                v.property, v.at_ms, v.detail
            ));
        }
    }
    Ok(())
}
