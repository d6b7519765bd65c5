//! The scenario, as every caller uses it: the format of `election-model`
//! ([`election_model::scenario`], re-exported whole) with [`ScenarioExt`],
//! which validates against the one registry of algorithms
//! (`Scenario::from_json`, `from_value`, `validate`, `total_nodes`).

pub use election_algorithms::ScenarioExt;
pub use election_model::scenario::*;

/// URL parameters (`?algorithm=raft&nodes=5`): the model's writer and
/// parameter list, and readers validated against the registry.
pub mod query {
    pub use election_algorithms::checked::query::{apply_query_pairs, from_query_pairs};
    pub use election_model::scenario::query::{SCENARIO_PARAMS, to_query};
}
