//! What the textbook's design trade-off table claims for an algorithm's
//! family ([`Claim`]): messages per election and the growth law that
//! means ([`Growth`]), latency, safety under a partition and a flaky
//! high-ranked node. Each algorithm's registry entry carries its claim
//! ([`crate::algorithms::Entry::tradeoff`]); `election-tools`' trade-off
//! table measures beside it.

use serde::Serialize;

/// A growth law of messages against the number of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Growth {
    /// Constant: the same at any size.
    #[serde(rename = "1")]
    Constant,
    /// Linear: `c n`.
    #[serde(rename = "n")]
    Linear,
    /// `c n log2 n`.
    #[serde(rename = "n log n")]
    NLogN,
    /// Quadratic: `c n^2`.
    #[serde(rename = "n^2")]
    Quadratic,
}

impl Growth {
    /// Every law, in order of growth.
    pub const ALL: [Growth; 4] = [
        Growth::Constant,
        Growth::Linear,
        Growth::NLogN,
        Growth::Quadratic,
    ];

    /// How it is written: `1`, `n`, `n log n`, `n^2`.
    pub fn name(self) -> &'static str {
        match self {
            Growth::Constant => "1",
            Growth::Linear => "n",
            Growth::NLogN => "n log n",
            Growth::Quadratic => "n^2",
        }
    }

    /// The law's shape at `n` (without its constant).
    pub fn shape(self, n: f64) -> f64 {
        match self {
            Growth::Constant => 1.0,
            Growth::Linear => n,
            Growth::NLogN => n * n.log2().max(1.0),
            Growth::Quadratic => n * n,
        }
    }
}

/// What the textbook claims for one family.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Claim {
    /// The family, as the table names it.
    pub family: &'static str,
    /// Messages per election, as written (`O(n^2) worst case`...).
    pub messages: &'static str,
    /// The growth law that claim means, where it is one of ours.
    pub growth: Option<Growth>,
    /// Latency of an election, as written.
    pub latency: &'static str,
    /// Safe under a partition (at most one leader where the algorithm
    /// claims one), and how.
    pub partition_safe: bool,
    /// As written.
    pub partition: &'static str,
    /// Whether a flaky high-ranked node is handled (no leader change each
    /// time it comes back), where the material says.
    pub flaky_handled: Option<bool>,
}

/// The ring algorithms' claim (Chang-Roberts, LeLann; Hirschberg-Sinclair
/// starts from it).
pub const RING: Claim = Claim {
    family: "ring",
    messages: "O(n)",
    growth: Some(Growth::Linear),
    latency: "O(n) message delays (once round the ring)",
    partition_safe: false,
    partition: "no",
    flaky_handled: None,
};

/// The consensus and coordination algorithms' claim (Raft, Zab,
/// ZooKeeper, Lease, Multi-Paxos).
pub const CONSENSUS: Claim = Claim {
    family: "consensus",
    messages: "O(n) per round",
    growth: Some(Growth::Linear),
    latency: "1 round trip per round (plus the timeout that starts it)",
    partition_safe: true,
    partition: "yes (a majority elects; a minority cannot)",
    flaky_handled: Some(true),
};
