//! [`Catalog`]: what the scenario format asks of the algorithms a scenario
//! names, so that this crate parses and validates scenarios without any
//! algorithm compiled in. The registry one crate up (`election-core`'s
//! `algorithms`) is the catalog every caller uses; its `ScenarioExt`
//! gives the familiar `Scenario::from_json`, `validate` and `total_nodes`.

use super::{Observers, Scenario, ScenarioError};

/// The algorithms a scenario may name, as the format's validation needs
/// them: which ids exist, how many extra nodes each has (fault ids run up
/// to the participants plus these), and any check of the algorithm's own
/// (a script compiles, fits a link).
pub trait Catalog {
    /// How many extra nodes the algorithm `id` has (a coordination
    /// service, a resource: ids `n`, `n+1`, ...); `None` when the catalog
    /// does not know `id`.
    fn extra_nodes(&self, id: &str) -> Option<u32>;
    /// The error for a scenario whose algorithm the catalog does not know
    /// (field `algorithm`).
    fn unknown(&self, scenario: &Scenario) -> ScenarioError;
    /// The algorithm's own rules, checked right after its id is known and
    /// before the cross-field rules.
    fn check(&self, scenario: &Scenario) -> Result<(), ScenarioError>;
    /// Every id the catalog knows, in its order.
    fn ids(&self) -> Vec<&'static str>;
    /// Whether the algorithm `id` (a known one) has observers.
    fn observers(&self, id: &str) -> Observers;
}

/// A catalog for this crate's own tests: a few ids, none with extra nodes
/// or rules of its own.
#[cfg(test)]
pub(crate) struct TestCatalog;

#[cfg(test)]
impl Catalog for TestCatalog {
    fn extra_nodes(&self, id: &str) -> Option<u32> {
        self.ids().contains(&id).then_some(0)
    }
    fn unknown(&self, s: &Scenario) -> ScenarioError {
        ScenarioError::new("algorithm", format!("unknown algorithm {:?}", s.algorithm))
    }
    fn check(&self, _: &Scenario) -> Result<(), ScenarioError> {
        Ok(())
    }
    fn ids(&self) -> Vec<&'static str> {
        vec![
            "bully",
            "chang-roberts",
            "raft",
            "zab",
            "zookeeper",
            "lease",
        ]
    }
    fn observers(&self, id: &str) -> Observers {
        match id {
            "zab" => Observers::Supported,
            "zookeeper" => Observers::NoneBecause("one node, not an ensemble"),
            _ => Observers::None,
        }
    }
}
