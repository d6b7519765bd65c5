//! The lower layers' entry points with the registry filled in: scenarios
//! ([`ScenarioExt`]: `Scenario::from_json`, `from_value`, `validate`,
//! `total_nodes`), URL parameters ([`query`]) and share links
//! ([`decode`]) validated against [`Registry`], and [`run`], which builds
//! a simulation through it. `election-core` puts them beside the model's
//! and the engine's items in its `scenario`, `share` and `sim` modules.

use crate::algorithms::Registry;
use election_engine::sim::RunSummary;
use election_model::scenario::{Scenario, ScenarioError};

/// Parsing and validation of a [`Scenario`] against the registry of
/// algorithms (ids, extra nodes, a script's own rules). Import it with
/// the scenario (`use election_core::{Scenario, ScenarioExt};`).
pub trait ScenarioExt: Sized {
    /// Parses and validates scenario JSON text.
    fn from_json(text: &str) -> Result<Self, ScenarioError>;
    /// Parses and validates an already-decoded JSON value.
    fn from_value(value: &serde_json::Value) -> Result<Self, ScenarioError>;
    /// Checks the cross-field rules (ids in range, algorithm known, ...).
    /// Call it again after changing fields, as the CLI's overrides do.
    fn validate(&self) -> Result<(), ScenarioError>;
    /// Participants plus the algorithm's extra nodes (a coordination
    /// service, a resource); fault ids run up to this.
    fn total_nodes(&self) -> u32;
}

impl ScenarioExt for Scenario {
    fn from_json(text: &str) -> Result<Self, ScenarioError> {
        Scenario::parse_json(text, &Registry)
    }

    fn from_value(value: &serde_json::Value) -> Result<Self, ScenarioError> {
        Scenario::parse_value(value, &Registry)
    }

    fn validate(&self) -> Result<(), ScenarioError> {
        self.validate_in(&Registry)
    }

    fn total_nodes(&self) -> u32 {
        self.total_nodes_in(&Registry)
    }
}

/// URL parameters (`?algorithm=raft&nodes=5`), validated against the
/// registry: [`election_model::scenario::query`]'s readers with their
/// catalog filled in.
pub mod query {
    use super::{Scenario, ScenarioError};
    use crate::algorithms::Registry;
    use election_model::scenario::query as format;

    /// Builds a scenario from `(key, value)` pairs (already
    /// percent-decoded), starting from the defaults. Unknown keys are
    /// ignored here.
    pub fn from_query_pairs(pairs: &[(String, String)]) -> Result<Scenario, ScenarioError> {
        format::from_query_pairs(pairs, &Registry)
    }

    /// `base` with the fields named by `(key, value)` pairs replaced,
    /// checked by the one scenario validator (the page's settings form
    /// uses this, so every parameter here works there without a list of
    /// its own).
    pub fn apply_query_pairs(
        base: &Scenario,
        pairs: &[(String, String)],
    ) -> Result<Scenario, ScenarioError> {
        format::apply_query_pairs(base, pairs, &Registry)
    }
}

/// Decodes the value of an `s=` share-link parameter back into a
/// validated scenario ([`election_model::share::decode`] against the
/// registry).
pub fn decode(text: &str) -> Result<Scenario, ScenarioError> {
    election_model::share::decode(text, &Registry)
}

/// Builds and runs `scenario` to its end, returning the summary.
pub fn run(scenario: &Scenario) -> RunSummary {
    let mut sim = crate::algorithms::build(scenario, false);
    sim.run_to_end();
    sim.summary()
}
