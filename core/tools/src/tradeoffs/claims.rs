//! The textbook's design trade-offs table, per algorithm family, as the
//! course material states it: messages per election, latency, safety under
//! a partition and a flaky high-ranked node. The measured table
//! ([`super::measure`]) is printed beside these claims.

use super::growth::Growth;
use serde::Serialize;

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

const RING: Claim = Claim {
    family: "ring",
    messages: "O(n)",
    growth: Some(Growth::Linear),
    latency: "O(n) message delays (once round the ring)",
    partition_safe: false,
    partition: "no",
    flaky_handled: None,
};

const CONSENSUS: Claim = Claim {
    family: "consensus",
    messages: "O(n) per round",
    growth: Some(Growth::Linear),
    latency: "1 round trip per round (plus the timeout that starts it)",
    partition_safe: true,
    partition: "yes (a majority elects; a minority cannot)",
    flaky_handled: Some(true),
};

/// The claim for algorithm `id` (None for an id the table does not name).
pub fn claim(id: &str) -> Option<Claim> {
    Some(match id {
        "bully" => Claim {
            family: "bully",
            messages: "O(n^2) worst case",
            growth: Some(Growth::Quadratic),
            latency: "a few round trips after detection (more when elections cascade)",
            partition_safe: false,
            partition: "no",
            flaky_handled: Some(false),
        },
        "chang-roberts" | "lelann" => RING,
        "hirschberg-sinclair" => Claim {
            family: "ring (bidirectional, phases)",
            messages: "O(n log n)",
            growth: Some(Growth::NLogN),
            ..RING
        },
        "next-in-line" => Claim {
            family: "next-in-line",
            messages: "O(n)",
            growth: Some(Growth::Linear),
            latency: "1 round trip after detection",
            partition_safe: false,
            partition: "no",
            flaky_handled: None,
        },
        "candidate-ordinary" => Claim {
            family: "candidate/ordinary",
            messages: "O(candidates)",
            growth: None,
            latency: "1 round trip after detection",
            partition_safe: false,
            partition: "no",
            flaky_handled: None,
        },
        "invitation" => Claim {
            family: "invitation",
            messages: "O(n) per merge",
            growth: Some(Growth::Linear),
            latency: "a round trip per merge",
            partition_safe: true,
            partition: "yes, by allowing several leaders (one per group)",
            flaky_handled: None,
        },
        "raft" | "zab" | "zookeeper" | "lease" | "multi-paxos" => CONSENSUS,
        _ => return None,
    })
}
