//! Election Playground core: a deterministic discrete-event simulator of
//! leader election algorithms.
//!
//! Pure Rust, no I/O, no clocks, no threads: a run is a function of its
//! [`Scenario`] (which includes the seed). The CLI and the wasm page both
//! drive it through [`sim::Simulation`], built by [`algorithms::build`].
//!
//! ```
//! use election_core::{Scenario, sim};
//! let scenario = Scenario::from_json(r#"{"algorithm": "chang-roberts",
//!     "nodes": 8, "ring": "ascending", "start": "all"}"#).unwrap();
//! let summary = sim::run(&scenario);
//! assert_eq!(summary.leader, Some(7));
//! assert_eq!(summary.messages.by_kind["ELECTION"], 2 * 8 - 1);
//! ```

pub mod algorithms;
pub mod checks;
pub mod clock;
pub(crate) mod decimal;
pub mod engine;
pub mod experiment;
pub mod fuzz;
pub mod metrics;
pub mod network;
pub mod presets;
pub(crate) mod pretty_json;
pub mod protocol;
pub(crate) mod queue;
pub(crate) mod rng;
pub mod scenario;
pub mod share;
pub mod sim;
pub mod stats;
pub mod time;
pub mod trace;
pub mod travel;
pub(crate) mod vec_map;
pub mod workloads;

pub use scenario::{Scenario, ScenarioError};

/// How the CLI reads a number a person typed (`--until-ms 1.5`): the same
/// parser the page uses for URL parameters and the scenario parser for
/// files, so the same text gives the same number everywhere. The rest of
/// the `decimal` helper module stays internal.
pub use decimal::parse_decimal;

/// Pretty JSON exactly as `serde_json::to_string_pretty` writes it, without
/// a second serializer per type in the wasm: the page's exports (trace and
/// report files) use it. The rest of the `pretty_json` helper module stays
/// internal.
pub use pretty_json::to_string_pretty;
