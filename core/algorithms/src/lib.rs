//! The third layer of the election simulator: the algorithms, their one
//! registry, and scripted algorithms, on the engine below.
//!
//! - [`algorithms`]: every algorithm, the families they are built in
//!   (`family-*` features), and the registry ([`algorithms::ALL`],
//!   [`algorithms::Registry`], [`algorithms::build`]) that everything
//!   else asks about algorithms.
//! - [`claims`]: what the textbook's trade-off table claims for each
//!   family, carried by each registry entry.
//! - [`script`]: scripted algorithms, one more registry entry that owns its
//!   compiled program (the Rhai interpreter only with the `script`
//!   feature).
//! - [`scenario`], [`share`] and [`sim`]: the scenario format, share links
//!   and simulations of the layers below with the registry filled in
//!   ([`ScenarioExt`], `share::decode`, `sim::run`).
//!
//! It builds on `election-model` and `election-engine` and knows nothing
//! of the tools above it (`election-core`: time travel, experiments, the
//! failure finder, ...). The lower crates' modules are re-exported here
//! crate-privately, so the algorithms' files name them as
//! `crate::protocol`, `crate::time`, `crate::engine`, ... as they did when
//! the core was one crate.

pub mod algorithms;
pub mod claims;
pub mod scenario;
pub mod script;
pub mod share;
pub mod sim;

pub use scenario::{Scenario, ScenarioError, ScenarioExt};

pub(crate) use election_engine::engine;
pub(crate) use election_model::{protocol, script_error, time, vec_map};
