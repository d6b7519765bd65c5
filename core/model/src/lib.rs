//! The bottom layer of the election simulator: what a run is made of and
//! the contract an algorithm implements, with no engine and no algorithm
//! compiled in.
//!
//! - [`scenario`]: the scenario data (algorithm, nodes, ring order,
//!   network, timing, faults, seed), its one parser and validator, its
//!   canonical JSON and its URL parameters. Validation asks a
//!   [`scenario::Catalog`] about the algorithm a scenario names; the
//!   registry in `election-core` is the one every caller uses.
//! - [`share`]: share links, the whole scenario in a URL fragment.
//! - [`protocol`]: the sans-I/O contract between the engine and an
//!   algorithm ([`protocol::Protocol`], [`protocol::Ctx`],
//!   [`protocol::Command`]), including the extra nodes an algorithm
//!   declares ([`protocol::Protocol::EXTRAS`]).
//! - [`time`] and [`script_error`]: simulated time, and the error a
//!   handler may stop a run with.
//!
//! The helper modules [`rng`] (the seeded random streams), [`vec_map`]
//! (a small sorted map), [`decimal`] and [`pretty_json`] (number parsing
//! and JSON layout that keep the wasm small) are public for the crates
//! above (`election-engine`, `election-core`), not for users: the
//! `election-core` facade keeps them internal.
//!
//! Crates above this one may use it; it uses none of them (Cargo enforces
//! the layering: docs/ARCHITECTURE.md, Crates and what each may know).

pub mod decimal;
pub mod pretty_json;
pub mod protocol;
pub mod rng;
pub mod scenario;
pub mod script_error;
pub mod share;
pub mod time;
pub mod vec_map;

pub use scenario::{Catalog, Scenario, ScenarioError};
