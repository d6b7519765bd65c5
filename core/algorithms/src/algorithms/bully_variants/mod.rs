//! The Bully variants (cargo feature `family-bully-variants`): failure
//! detection and takeover in a cluster, each a refinement of Bully
//! (`crate::algorithms::bully`, whose election start they share where
//! they fall back on it).
//!
//! Files: `next_in_line/` (Petrov 2019: the leader publishes a line of
//! succession, a detector asks the next in line to take over, Bully as
//! the fallback), `candidate_ordinary.rs` (candidates and ordinary nodes:
//! only candidates may lead, delays by rank) and `invitation/`
//! (Garcia-Molina 1982: groups merge by invitation under partitions).

pub mod candidate_ordinary;
pub mod invitation;
pub mod next_in_line;
