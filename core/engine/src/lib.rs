//! The middle layer of the election simulator: the deterministic
//! discrete-event engine that runs any [`election_model::protocol::Protocol`],
//! with no algorithm compiled in.
//!
//! - [`engine`]: the event loop that runs the handlers and carries out
//!   their commands, with `queue` (the event queue, internal), [`network`] and
//!   [`clock`] (what it simulates), faults, counting and the settling
//!   rule;
//! - [`limits`]: what a run may hold and do, and where it stops when it
//!   reaches a limit;
//! - [`metrics`] and [`checks`]: what a run counts, and the safety
//!   properties checked while it runs;
//! - [`trace`]: the recorded events, their text (golden files) and the
//!   trace hash;
//! - [`sim`]: the object-safe [`sim::Simulation`] handle the CLI, the page
//!   and the session drive, and the run summary;
//! - [`travel`]: checkpoints and landmarks, for time travel.
//!
//! It builds on `election-model` and is used by `election-core` (the
//! registry of algorithms and everything above it), never the other way
//! round. The model's modules are re-exported here crate-privately, so
//! the engine's files name them as `crate::protocol`, `crate::time`, ...
//! as they did when the core was one crate.

pub mod checks;
pub(crate) mod chunked;
pub mod clock;
pub mod engine;
pub mod limits;
pub mod metrics;
pub mod network;
pub(crate) mod queue;
pub mod sim;
pub mod trace;
pub mod travel;

pub(crate) use election_model::{protocol, rng, scenario, time, vec_map};
