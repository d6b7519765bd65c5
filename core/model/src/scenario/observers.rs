//! The `observers` key: how many of the last participants follow the
//! leader without voting or standing (ZooKeeper's observers; docs/guide.md,
//! Scenarios; core/algorithms/src/algorithms/consensus/zab/observers.rs, module
//! docs). Which algorithms have them, the rule that at least one voter is left,
//! and how the key carries over
//! when the settings form picks another algorithm.

use super::{Catalog, Scenario, ScenarioError};

/// The scenario key.
pub const KEY: &str = "observers";

/// Whether an algorithm's last `observers` participants may be
/// observers: each algorithm says so in its registry entry, which the
/// scenario format asks through [`Catalog::observers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Observers {
    /// It has none: the key must be 0.
    #[default]
    None,
    /// It has none, for the reason given (the error's message, for an
    /// algorithm one might expect to have them).
    NoneBecause(&'static str),
    /// Its last `observers` participants are observers.
    Supported,
}

/// Whether `algorithm` has observers.
pub fn supported(algorithm: &str, catalog: &dyn Catalog) -> bool {
    catalog.observers(algorithm) == Observers::Supported
}

/// The cross-field rules: observers only where the algorithm has them, and
/// at least one voter left. Zero observers is valid everywhere (the
/// default).
pub fn validate(s: &Scenario, catalog: &dyn Catalog) -> Result<(), ScenarioError> {
    let k = s.options.observers;
    if k == 0 {
        return Ok(());
    }
    match catalog.observers(&s.algorithm) {
        Observers::Supported => {}
        Observers::NoneBecause(why) => return Err(ScenarioError::new(KEY, why)),
        Observers::None => {
            let with: Vec<&str> = catalog
                .ids()
                .into_iter()
                .filter(|a| supported(a, catalog))
                .collect();
            return Err(ScenarioError::new(
                KEY,
                format!(
                    "{} has no observers (only {} has); use 0",
                    s.algorithm,
                    with.join(", ")
                ),
            ));
        }
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
pub fn carry_over(
    base: &Scenario,
    algorithm: Option<&str>,
    named: bool,
    catalog: &dyn Catalog,
) -> bool {
    match algorithm {
        Some(a) if !named && a != base.algorithm => supported(a, catalog),
        _ => true,
    }
}
