//! Simulations, as every caller uses them: the [`Simulation`] handle and
//! the run summary of `election-engine` ([`election_engine::sim`],
//! re-exported whole), and [`run`], which builds one through the
//! registry.

pub use election_engine::sim::*;

/// Builds and runs `scenario` to its end, returning the summary.
pub fn run(scenario: &crate::Scenario) -> RunSummary {
    let mut sim = crate::algorithms::build(scenario, false);
    sim.run_to_end();
    sim.summary()
}
