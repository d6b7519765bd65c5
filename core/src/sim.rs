//! Simulations, as every caller uses them: the [`Simulation`] handle and
//! the run summary of `election-engine` ([`election_engine::sim`],
//! re-exported whole), and [`run`], which builds one through the registry.

pub use election_algorithms::checked::run;
pub use election_engine::sim::*;
