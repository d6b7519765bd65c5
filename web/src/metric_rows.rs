//! The run's counters as one flat row of numbers, cheap enough to read
//! every frame (the metrics panel is live while the run plays), instead
//! of [`Playground::summary`], which builds the whole summary object.
//!
//! Every value is the core's own counter ([`Metrics`]) as the summary
//! reports it, so the panel shows exactly what `election run --json`
//! prints for the same moment. Times are in ms; "none" is `-1`.

use crate::playground::Playground;
use election_core::algorithms;
use election_core::metrics::Metrics;
use election_core::protocol::Extra;
use election_core::time::to_ms;
use wasm_bindgen::prelude::*;

/// Columns of [`Playground::metric_values`], summary names where the
/// summary has the value (`messages.election` is `election`).
pub const METRIC_FIELDS: &[&str] = &[
    "sent",
    "delivered",
    "dropped",
    "duplicated",
    "in_flight",
    "election",
    "background",
    "elections",
    "leader_changes",
    "first_leader_ms",
    "leaderless_ms",
    "split_brain_ms",
    "last_fault_ms",
    "recovery_ms",
    "recovery_election_messages",
    "writes_accepted",
    "writes_rejected",
    "stale_writes_accepted",
    "events",
    "has_resource",
];

/// The row of [`METRIC_FIELDS`] for these counters; `has_resource` says
/// whether the algorithm writes to a fenced resource (so writes mean
/// something).
pub fn metric_row(m: &Metrics, has_resource: bool) -> Vec<f64> {
    let none = -1.0;
    let recovery = m.recovery();
    vec![
        m.sent as f64,
        m.delivered as f64,
        m.dropped as f64,
        m.duplicated as f64,
        m.in_flight as f64,
        m.election as f64,
        m.background as f64,
        m.elections as f64,
        m.leader_changes as f64,
        m.first_leader_us.map_or(none, to_ms),
        to_ms(m.leaderless_us),
        to_ms(m.split_brain_us),
        m.last_fault_us.map_or(none, to_ms),
        recovery.map_or(none, |(t, _)| to_ms(t)),
        recovery.map_or(none, |(_, c)| c as f64),
        m.writes_accepted as f64,
        m.writes_rejected as f64,
        m.stale_writes_accepted as f64,
        m.events as f64,
        if has_resource { 1.0 } else { 0.0 },
    ]
}

/// The JS side.
#[wasm_bindgen]
impl Playground {
    /// The counters so far as one row of `metric_fields()` columns.
    pub fn metric_values(&self) -> Vec<f64> {
        let has_resource = algorithms::info(&self.scenario().algorithm)
            .is_some_and(|a| a.extras.contains(&Extra::Resource));
        metric_row(self.sim().metrics(), has_resource)
    }
}

/// Names of the columns of [`Playground::metric_values`], in order.
#[wasm_bindgen]
pub fn metric_fields() -> Vec<String> {
    METRIC_FIELDS.iter().map(|f| f.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::Scenario;
    use election_core::ScenarioExt;
    use election_core::sim;

    fn field(row: &[f64], name: &str) -> f64 {
        row[METRIC_FIELDS
            .iter()
            .position(|f| *f == name)
            .unwrap_or_else(|| panic!("no field {name}"))]
    }

    #[test]
    fn the_row_is_the_summary_of_the_cli() {
        let s = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":6,"seed":3,"faults":[{"at_ms":400,"partition":[[0,1,2]]}],"until_ms":3000}"#,
        )
        .unwrap();
        let expected = sim::run(&s);
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let row = p.metric_values();
        assert_eq!(row.len(), METRIC_FIELDS.len());
        assert_eq!(field(&row, "sent"), expected.messages.sent as f64);
        assert_eq!(field(&row, "election"), expected.messages.election as f64);
        assert_eq!(
            field(&row, "background"),
            expected.messages.background as f64
        );
        assert_eq!(field(&row, "elections"), expected.elections as f64);
        assert_eq!(
            field(&row, "leader_changes"),
            expected.leader_changes as f64
        );
        assert_eq!(
            field(&row, "first_leader_ms"),
            expected.first_leader_ms.unwrap()
        );
        assert_eq!(field(&row, "leaderless_ms"), expected.leaderless_ms);
        assert_eq!(field(&row, "split_brain_ms"), expected.split_brain_ms);
        assert!(
            expected.split_brain_ms > 0.0,
            "the partition splits the brain"
        );
        assert_eq!(field(&row, "last_fault_ms"), 400.0);
        assert_eq!(
            field(&row, "recovery_ms"),
            expected.recovery_ms.unwrap_or(-1.0)
        );
        assert_eq!(field(&row, "has_resource"), 0.0);
    }

    #[test]
    fn writes_count_for_algorithms_with_a_resource() {
        let s = Scenario::from_json(r#"{"algorithm":"raft","nodes":5,"seed":1,"until_ms":3000}"#)
            .unwrap();
        let expected = sim::run(&s);
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let row = p.metric_values();
        assert_eq!(field(&row, "has_resource"), 1.0);
        assert_eq!(
            field(&row, "writes_accepted"),
            expected.writes.accepted as f64
        );
        assert_eq!(
            field(&row, "writes_rejected"),
            expected.writes.rejected as f64
        );
        assert_eq!(field(&row, "last_fault_ms"), -1.0);
    }
}
