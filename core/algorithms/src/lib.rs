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
//! - [`checked`]: the lower layers' entry points with the registry filled
//!   in ([`ScenarioExt`], URL parameters, `decode` for share links, `run`).
//!
//! It builds on `election-model` and `election-engine` and knows nothing
//! of the tools above it (`election-core`: time travel, experiments, the
//! failure finder, ...). The lower crates' modules are re-exported here
//! crate-privately, so the algorithms' files name them as
//! `crate::protocol`, `crate::time`, `crate::engine`, ... as they did when
//! the core was one crate.

pub mod algorithms;
pub mod checked;
pub mod claims;
pub mod script;

pub use checked::ScenarioExt;
pub use election_model::scenario::{Scenario, ScenarioError};

pub(crate) use election_engine::{engine, sim};
pub(crate) use election_model::{protocol, scenario, script_error, share, time, vec_map};
