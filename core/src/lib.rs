//! Election Playground core: a deterministic discrete-event simulator of
//! leader election algorithms.
//!
//! Pure Rust, no I/O, no clocks, no threads: a run is a function of its
//! [`Scenario`] (which includes the seed). The CLI and the wasm page both
//! drive it through [`sim::Simulation`], built by [`algorithms::build`].
//!
//! # Crates
//!
//! This crate is the facade over the layers below it, which Cargo keeps
//! in order (each uses only those beneath it):
//!
//! 1. `election-model` (core/model): time, the seeded random streams, the
//!    scenario format with its parsing, writing and URL parameters, share
//!    links, and the protocol contract. It compiles and tests without any
//!    engine or algorithm; a [`scenario::Catalog`] tells it what it needs
//!    to know of the algorithms.
//! 2. `election-engine` (core/engine): the event queue, the network and
//!    clocks, the engine, metrics, checks, the trace and the
//!    [`sim::Simulation`] handle; no algorithm.
//! 3. `election-algorithms` (core/algorithms): the algorithms and their one
//!    registry ([`algorithms::Registry`] is the catalog every scenario is
//!    validated against), scripted algorithms (feature `script`), and
//!    [`sim::run`].
//! 4. `election-tools` (core/tools): what is built on runs: time travel,
//!    experiments, the failure finder, fuzzing, the trade-off table,
//!    presets, workloads.
//!
//! It re-exports them under the paths callers have always used
//! (`election_core::scenario`, `::protocol`, `::algorithms`, `::sim`,
//! `::session`, ...) and forwards the `family-*` and `script` features.
//! It holds the integration tests (core/tests) that run across the
//! layers.
//!
//! # Reading order
//!
//! 1. [`scenario`]: what a run is made of (algorithm, nodes, ring order,
//!    network, timing, faults, seed). Everything else is a function of it.
//! 2. [`protocol`]: the contract between the engine and an algorithm. A
//!    node's handlers see only a [`protocol::Ctx`] (its id, its local
//!    clock, its random numbers) and push commands; no I/O, no world.
//! 3. [`algorithms::bully`]: the smallest complete algorithm, the model the
//!    others follow (rules and sources in the module docs, handlers, then
//!    command-level tests). Then [`algorithms`], the registry, and any
//!    other algorithm; for Raft start at `algorithms/raft/election.rs`.
//! 4. [`engine`]: the discrete-event loop that runs the handlers and
//!    carries out their commands: the queue, the network, the clocks,
//!    faults, counting and the settling rule.
//! 5. [`sim`]: the [`sim::Simulation`] trait the CLI and the page drive,
//!    and [`sim::run`].
//! 6. [`metrics`] and [`checks`]: what a run counts, and the safety
//!    properties checked while it runs.
//! 7. [`trace`]: the recorded events, their text (golden files), and the
//!    trace hash that golden traces, the hash corpus and stored links pin.
//! 8. [`session`]: time travel on top of a simulation, as the page and
//!    `election run --at` / `election landmarks` use it (checkpoints,
//!    seeking, live faults and forks, the search for a run's end).
//! 9. Then as needed: [`travel`] (checkpoints and landmarks),
//!    [`network`] and [`clock`] (what the engine simulates), [`share`]
//!    (links), [`lesson`] (lessons: a scenario plus narrated steps), [`presets`], [`story`] (captions, moments, questions), [`experiment`] (sweeps and reports), [`fuzz`]
//!    (random fault schedules), [`check`] (the failure finder and its shrinking), [`workloads`] (benchmarks), [`stats`],
//!    [`time`].
//!
//! Internal helpers, not public API: `queue` (the engine's event queue),
//! `rng` (the seeded random streams), `vec_map` (a small sorted map),
//! `decimal` and `pretty_json` (number parsing and JSON layout that keep
//! the wasm small).
//!
//! # What the wasm's size forces
//!
//! What the wasm size budget (docs/PERFORMANCE.md, Size) forces on the code of
//! every core crate; keep these:
//!
//! - one serializer per type: objects cross to the page as JSON text, and
//!   pretty JSON is made by re-indenting compact text
//!   (`core/model/src/pretty_json.rs`, byte for byte serde_json's pretty
//!   output);
//! - `VecMap` (`core/model/src/vec_map.rs`, a sorted `Vec` with `BTreeMap`'s
//!   methods and order) for small maps, and tables indexed by node id;
//! - no Unicode case mapping (`clippy.toml` disallows `to_lowercase` and
//!   friends: 14 KB of tables); numbers typed by people are read by
//!   serde_json's parser (`core/model/src/decimal.rs`), not `str::parse::<f64>`
//!   (a 10 KB table);
//! - fewer generic instantiations: maps built by insertion rather than
//!   `collect`, one unstable sort, cold engine parts written once, outside
//!   `Engine<P>`; `presets::ALL` and `algorithms::ALL` are statics, not
//!   consts (as consts their texts were in the wasm twice).

pub mod scenario;
pub mod share;
pub mod sim;

pub use election_algorithms::{algorithms, script};
pub use election_engine::{checks, clock, engine, limits, metrics, network, trace, travel};
pub use election_model::{protocol, time};
pub use election_tools::{
    check, experiment, fuzz, lesson, presets, session, stats, story, tradeoffs, workloads,
};

pub use election_algorithms::{Scenario, ScenarioError, ScenarioExt};

/// How the CLI reads a number a person typed (`--until-ms 1.5`): with
/// serde_json's number parser, as scenario files are read and as the page
/// reads URL parameters, so the same text gives the same number
/// everywhere. The rest of the `decimal` helper module stays internal.
pub use election_model::decimal::parse_decimal;

/// Pretty JSON exactly as `serde_json::to_string_pretty` writes it, without
/// a second serializer per type in the wasm: the page's exports (trace and
/// report files) use it. The rest of the `pretty_json` helper module stays
/// internal.
pub use election_model::pretty_json::to_string_pretty;
