//! The check of one run, as the failure finder counts it: the violations
//! of the safety properties the algorithm claims (`core/engine/src/checks.rs`
//! reports only those that apply to its claims), except the two failures
//! a scenario may show on purpose: `lease_overlap` when the schedule
//! breaks the clock assumption leases rest on (a clock fault, a pause or
//! a slowed node), and `stale_write_accepted` with `"fencing": false`.
//! With a liveness bound, a run also fails [`LIVENESS`] when no single
//! leader is settled within the bound after the last fault.

use super::epilogue::faults_over_us;
use crate::algorithms;
use crate::scenario::{FaultAction, Scenario};
use crate::time::{Micros, to_ms};

/// The property id of the liveness check (not one of the core's safety
/// properties: the finder's own).
pub const LIVENESS: &str = "leader_after_faults";

/// The property id of a script error that stopped the run (a scripted
/// algorithm's handler failed under the schedule): the finder's own.
pub const SCRIPT_ERROR: &str = "script_error";

/// A property one run broke.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The property (`split_brain`, ..., or [`LIVENESS`]).
    pub property: String,
    /// When it broke, true time (for liveness: the end of the bound).
    pub at_us: Micros,
    /// The violation's sentence.
    pub detail: String,
}

/// Whether a violation of `property` in `scenario` counts as a failure.
fn counts(scenario: &Scenario, property: &str) -> bool {
    match property {
        "lease_overlap" => !scenario.faults.iter().any(|f| {
            matches!(
                f.action,
                FaultAction::Clock { .. } | FaultAction::Pause { .. } | FaultAction::Slow { .. }
            )
        }),
        "stale_write_accepted" => scenario.options.fencing,
        _ => true,
    }
}

/// Every failure of the run of `scenario`, in time order (the liveness
/// one last).
pub fn findings(scenario: &Scenario, liveness_us: Option<Micros>) -> Vec<Finding> {
    let mut sim = algorithms::build(scenario, false);
    sim.run_to_end();
    let mut out: Vec<Finding> = sim
        .violations()
        .iter()
        .filter(|v| counts(scenario, v.property))
        .map(|v| Finding {
            property: v.property.to_string(),
            at_us: v.at_us,
            detail: v.detail.clone(),
        })
        .collect();
    if let Some(e) = sim.script_error() {
        // A scripted algorithm whose handler fails under this schedule.
        out.push(Finding {
            property: SCRIPT_ERROR.to_string(),
            at_us: (e.at_ms.unwrap_or(0.0) * 1000.0).round() as Micros,
            detail: e.to_string(),
        });
    }
    if let Some(bound) = liveness_us {
        let s = sim.summary();
        let in_time = s.recovery_ms.is_some_and(|r| r <= to_ms(bound));
        if !in_time || s.leader.is_none() {
            let over = faults_over_us(&scenario.faults);
            out.push(Finding {
                property: LIVENESS.to_string(),
                at_us: over + bound,
                detail: format!(
                    "no single settled leader within {} ms after the last fault (leaders at the end: {:?}; settled after {})",
                    to_ms(bound),
                    s.leaders,
                    s.recovery_ms
                        .map_or("never".to_string(), |r| format!("{r} ms"))
                ),
            });
        }
    }
    out
}

/// The first failure of the run of `scenario`, if any.
pub fn first(scenario: &Scenario, liveness_us: Option<Micros>) -> Option<Finding> {
    findings(scenario, liveness_us).into_iter().next()
}

/// The first failure of `property` in the run of `scenario`, if any.
pub fn fails(scenario: &Scenario, liveness_us: Option<Micros>, property: &str) -> Option<Finding> {
    findings(scenario, liveness_us)
        .into_iter()
        .find(|f| f.property == property)
}
