//! What the textbook's design trade-off table claims for an algorithm's
//! family ([`Claim`]): messages per election and the growth law that
//! means ([`Growth`]), latency, safety under a partition and a flaky
//! high-ranked node. Each algorithm's registry entry carries its claim
//! ([`crate::algorithms::Entry::tradeoff`]); `election-tools`' trade-off
//! table measures beside it. Where an algorithm's measurement is known to
//! differ from its family's claim, its claim also says why ([`Why`], the
//! reasons of docs/TRADEOFFS.md, "Where the measurement and the claim
//! disagree, and why"), so the table can give the reason beside the
//! disagreement.

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
    /// Why this algorithm's measurement differs from the claim, by
    /// column (empty where it agrees).
    pub why: &'static [Why],
}

/// A column of the trade-off table in which a measurement can differ
/// from its claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    /// The growth of the first election's messages against `growth`.
    FirstGrowth,
    /// The growth of the failover's messages against `growth`.
    FailoverGrowth,
    /// Safety under a partition against `partition_safe`.
    Partition,
    /// A flaky top node against `flaky_handled`.
    Flaky,
}

impl Column {
    /// The reason `claim` gives for a disagreement in this column, where
    /// the messages grew like `measured` (`None` for the other columns).
    /// A growth column's reason explains one law: measured at other
    /// sizes the fit may land elsewhere, and then no reason is recorded.
    pub fn why(self, claim: &Claim, measured: Option<Growth>) -> Option<&'static str> {
        claim
            .why
            .iter()
            .find(|w| w.column == self && (w.measured.is_none() || w.measured == measured))
            .map(|w| w.text)
    }
}

/// Why an algorithm's measurement differs from its family's claim in one
/// column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Why {
    /// The column.
    pub column: Column,
    /// For a growth column, the law the reason explains (the one
    /// `election tradeoffs` measures at its default sizes, docs/TRADEOFFS.md).
    pub measured: Option<Growth>,
    /// The reason, in a sentence or two.
    pub text: &'static str,
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
    why: &[],
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
    why: &[],
};

/// Why a consensus algorithm's first election is not "O(n) per round":
/// every node starts at once.
pub const CONSENSUS_FIRST: Why = Why {
    column: Column::FirstGrowth,
    measured: Some(Growth::Quadratic),
    text: "O(n) per round is one candidate's round (2(n - 1) messages for Raft). Here every node starts at once, so all n are candidates in the first round and the first election costs about n squared, over several rounds.",
};

/// Why a consensus algorithm's failover is not quite linear.
pub const CONSENSUS_FAILOVER: Why = Why {
    column: Column::FailoverGrowth,
    measured: Some(Growth::NLogN),
    text: "The failover usually has one candidate and is about linear; sometimes two candidates time out together and split the vote, which bends the fit above n (slope about 1.5).",
};

/// Why a recipe that elects through the coordination service (the
/// ZooKeeper recipe, the Lease) fails over at a constant cost.
pub const SERVICE_FAILOVER: Why = Why {
    column: Column::FailoverGrowth,
    measured: Some(Growth::Constant),
    text: "It elects through the coordination service: after the leader fails, the next in line learns it from the service, so a failover costs the same handful of messages at any size, fewer than the claim.",
};
