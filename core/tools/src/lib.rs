//! The top layer of the election simulator: what is built on runs.
//!
//! - [`session`]: time travel on top of a simulation, as the page and
//!   `election run --at` / `election landmarks` use it (checkpoints,
//!   seeking, live faults and forks, the search for a run's end);
//! - [`experiment`]: sweeps of seeds and parameters, and their reports;
//! - [`check`]: the failure finder and its shrinking;
//! - [`fuzz`]: random fault schedules;
//! - [`tradeoffs`]: the design trade-off table, measured beside the
//!   textbook's claims;
//! - [`lesson`]: lessons, a scenario plus narrated steps (the format
//!   teachers write; the presets are lessons);
//! - [`story`]: a run's captions, its story moments and the questions
//!   a viewer can be asked, from one recorded run's own future;
//! - [`presets`] and [`workloads`]: the shipped scenarios and the benchmark
//!   workloads; [`stats`]: the summary statistics the reports use.
//!
//! It builds on `election-algorithms` (every run goes through its one
//! registry) and the layers below; `election-core` re-exports it. The
//! lower crates' modules are re-exported here crate-privately, so these
//! files name them as `crate::scenario`, `crate::algorithms`, ... as they
//! did when the core was one crate.

pub mod check;
pub mod experiment;
pub mod fuzz;
pub mod lesson;
pub mod presets;
pub mod session;
pub mod stats;
pub mod story;
pub mod tradeoffs;
pub mod workloads;

pub(crate) use election_algorithms::{Scenario, ScenarioError, ScenarioExt, algorithms, script};
pub(crate) use election_engine::{trace, travel};
pub(crate) use election_model::{
    decimal, pretty_json, protocol, rng, scenario, share, time, vec_map,
};

/// Simulations as these tools use them: the engine's handle and summary,
/// and a run built through the registry.
pub(crate) mod sim {
    pub use election_algorithms::checked::run;
    pub use election_engine::sim::*;
}
