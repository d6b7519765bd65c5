//! The `observers` key: how many of the last participants follow the
//! leader without voting or standing (ZooKeeper's observers; docs/guide.md,
//! Scenarios; core/algorithms/src/algorithms/consensus/zab/observers.rs, module
//! docs). Which algorithms have them, the rule that at least one voter is left,
//! and how the key carries over
//! when the settings form picks another algorithm.

use super::{Scenario, ScenarioError};

/// The scenario key.
pub const KEY: &str = "observers";

/// Algorithms whose last `observers` participants are observers.
const WITH_OBSERVERS: &[&str] = &["zab"];

/// Whether `algorithm` has observers.
pub fn supported(algorithm: &str) -> bool {
    WITH_OBSERVERS.contains(&algorithm)
}

/// The cross-field rules: observers only where the algorithm has them, and
/// at least one voter left. Zero observers is valid everywhere (the
/// default).
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let k = s.options.observers;
    if k == 0 {
        return Ok(());
    }
    if s.algorithm == "zookeeper" {
        return Err(ScenarioError::new(
            KEY,
            "the ZooKeeper recipe simulates its coordination service as one node, not an ensemble of servers, so it has no observers; use 0, or the algorithm zab (the ensemble's own election)",
        ));
    }
    if !supported(&s.algorithm) {
        return Err(ScenarioError::new(
            KEY,
            format!(
                "{} has no observers (only {} has); use 0",
                s.algorithm,
                WITH_OBSERVERS.join(", ")
            ),
        ));
    }
    if k >= s.nodes {
        return Err(ScenarioError::new(
            KEY,
            format!(
                "must leave at least one voter: {k} observers of {} nodes; use at most {}",
                s.nodes,
                s.nodes - 1
            ),
        ));
    }
    Ok(())
}

/// The settings form (`query::apply_query_pairs`) keeps every field it
/// does not name; observers are an option of the algorithm, so a form that
/// picks an algorithm without observers and says nothing of them drops
/// them instead of refusing the switch.
pub fn carry_over(base: &Scenario, algorithm: Option<&str>, named: bool) -> bool {
    match algorithm {
        Some(a) if !named && a != base.algorithm => supported(a),
        _ => true,
    }
}
