//! The `--seeds A..B` range of `sweep`, `compare` and `fuzz-faults`: the
//! core's [`election_core::experiment::seeds`], so the page's experiments
//! read a seed range exactly as the command line does.

pub use election_core::experiment::seeds::{SeedRange, parse_seeds};
