//! The textbook's design trade-off table, per algorithm family, as the
//! course material states it: messages per election, latency, safety under
//! a partition and a flaky high-ranked node. Each algorithm's registry
//! entry carries its claim ([`crate::algorithms::Entry::tradeoff`]); the
//! measured table ([`super::measure`]) is printed beside it.

pub use election_algorithms::claims::{Claim, Column, Why};

/// The claim for algorithm `id` (None for an id the table does not name).
pub fn claim(id: &str) -> Option<Claim> {
    crate::algorithms::info(id)?.tradeoff
}
