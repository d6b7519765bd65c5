//! The ring family (cargo feature `family-ring`): leader election on a
//! unidirectional or bidirectional ring, where a node talks only to its
//! neighbours in the scenario's `ring` order.
//!
//! Files: `chang_roberts.rs` (Chang & Roberts 1979: the largest id
//! travels round, smaller ones are swallowed), `lelann.rs` (LeLann 1977:
//! every id is collected in one lap) and `hirschberg_sinclair/`
//! (Hirschberg & Sinclair 1980: probes of doubling reach both ways,
//! O(n log n) messages) hold the algorithms; `watchdog.rs` the one
//! watchdog and the skipping of dead neighbours they share.

pub mod chang_roberts;
pub mod hirschberg_sinclair;
pub mod lelann;
mod watchdog;
