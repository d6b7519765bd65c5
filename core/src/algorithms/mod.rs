//! The election algorithms, one file each, and the registry that maps an
//! algorithm id to its engine.

pub mod bully;
pub mod candidate_ordinary;
pub mod chang_roberts;
mod detector;
pub mod hirschberg_sinclair;
pub mod invitation;
pub mod lease;
pub mod lelann;
pub mod next_in_line;
pub mod raft;
pub mod resource;
pub mod service;
pub mod zab;
pub mod zookeeper;

use crate::engine::Engine;
use crate::protocol::{Extra, Safety};
use crate::scenario::{Scenario, ScenarioError};
use crate::sim::Simulation;
use serde::Serialize;

/// How the page lays an algorithm's nodes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Around a ring in message order, with the direction shown.
    Ring,
    /// A cluster (circle without direction).
    Cluster,
}

/// What the registry knows about an algorithm.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmInfo {
    /// Id used in scenarios, URLs and on the command line.
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// One line: the idea and its source.
    pub summary: &'static str,
    /// Page layout.
    pub layout: Layout,
    /// Message kinds.
    pub kinds: &'static [&'static str],
    /// Non-participant nodes it needs (ids n, n+1, ... in this order).
    pub extras: &'static [Extra],
}

/// Every algorithm, in the order the page and the CLI list them.
pub const ALL: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        id: "bully",
        name: "Bully",
        summary: "Garcia-Molina 1982: ELECTION to higher ids, OK replies, the highest live id announces COORDINATOR; heartbeats detect a dead leader",
        layout: Layout::Cluster,
        kinds: bully::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "chang-roberts",
        name: "Chang-Roberts ring",
        summary: "Chang & Roberts 1979: ids travel one way round the ring, only the larger is forwarded, the winner sends one ELECTED lap",
        layout: Layout::Ring,
        kinds: chang_roberts::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "lelann",
        name: "LeLann ring (collect live ids)",
        summary: "LeLann 1977, as in Tanenbaum & van Steen: every initiator's ELECTION collects all live ids in one lap, skipping dead nodes; it announces the highest with a COORDINATOR lap",
        layout: Layout::Ring,
        kinds: lelann::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "hirschberg-sinclair",
        name: "Hirschberg-Sinclair ring",
        summary: "Hirschberg & Sinclair 1980: candidates PROBE both ways 2^k hops in phase k, REPLYs bring survivors to the next phase, O(n log n) messages; the winner sends one ELECTED lap",
        layout: Layout::Ring,
        kinds: hirschberg_sinclair::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "next-in-line",
        name: "Next-in-line failover",
        summary: "Petrov, Database Internals (2019) ch. 10, after Gholipour et al. 2009: the leader publishes a line of successors; on its failure the next live one takes over (TAKEOVER/CONFIRM), Bully election as fallback",
        layout: Layout::Cluster,
        kinds: next_in_line::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "candidate-ordinary",
        name: "Candidate/ordinary",
        summary: "Petrov, Database Internals (2019) ch. 10, after Murshed & Allen 2012: only candidates may lead; a node waits its delta, then asks the candidates and announces the highest that answers",
        layout: Layout::Cluster,
        kinds: candidate_ordinary::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "invitation",
        name: "Invitation",
        summary: "Garcia-Molina 1982: every node leads its own group; coordinators look for each other and the larger group's coordinator invites the other into one group; several leaders coexist by design",
        layout: Layout::Cluster,
        kinds: invitation::KINDS,
        extras: &[],
    },
    AlgorithmInfo {
        id: "raft",
        name: "Raft",
        summary: "Ongaro & Ousterhout 2014: terms, randomized election timeouts, one persisted vote per term, a majority and the log up-to-date check elect the leader; options pre-vote, check-quorum and a leader lease (Ongaro 2014, 6.2, 6.4.1, 9.6)",
        layout: Layout::Cluster,
        kinds: raft::KINDS,
        extras: &[Extra::Resource],
    },
    AlgorithmInfo {
        id: "zab",
        name: "ZooKeeper fast leader election (Zab)",
        summary: "Apache ZooKeeper FastLeaderElection and Zab discovery (Junqueira et al., DSN 2011): votes ordered by (epoch, zxid, id) spread until a quorum agrees; the winner leads once a quorum promises it a new epoch, the fencing token of its writes",
        layout: Layout::Cluster,
        kinds: zab::KINDS,
        extras: &[Extra::Resource],
    },
    AlgorithmInfo {
        id: "zookeeper",
        name: "ZooKeeper recipe",
        summary: "ZooKeeper leader election recipe (Apache ZooKeeper recipes; Hunt et al., USENIX ATC 2010): ephemeral sequential znodes on a coordination service, the lowest leads, each client watches its predecessor (or everyone the leader: the herd effect); sessions expire, sequence numbers fence",
        layout: Layout::Cluster,
        kinds: zookeeper::KINDS,
        extras: &[Extra::Service, Extra::Resource],
    },
    AlgorithmInfo {
        id: "lease",
        name: "Kubernetes Lease",
        summary: "Kubernetes client-go leaderelection: candidates take a Lease object by compare-and-swap on its version when it looks expired by their own clock; the holder renews every retry period and gives up after the renew deadline; leaseTransitions fences",
        layout: Layout::Cluster,
        kinds: lease::KINDS,
        extras: &[Extra::Service, Extra::Resource],
    },
];

/// Every algorithm id.
pub fn ids() -> Vec<&'static str> {
    ALL.iter().map(|a| a.id).collect()
}

/// The safety property the algorithm `id` claims.
pub fn safety(id: &str) -> Option<Safety> {
    use crate::protocol::Protocol;
    Some(match id {
        "bully" => bully::Bully::SAFETY,
        "chang-roberts" => chang_roberts::ChangRoberts::SAFETY,
        "lelann" => lelann::LeLann::SAFETY,
        "hirschberg-sinclair" => hirschberg_sinclair::HirschbergSinclair::SAFETY,
        "next-in-line" => next_in_line::NextInLine::SAFETY,
        "candidate-ordinary" => candidate_ordinary::CandidateOrdinary::SAFETY,
        "invitation" => invitation::Invitation::SAFETY,
        "raft" => raft::Raft::SAFETY,
        "zab" => zab::Zab::SAFETY,
        "zookeeper" => zookeeper::ZooKeeper::SAFETY,
        "lease" => lease::Lease::SAFETY,
        _ => return None,
    })
}

/// The registry entry for `id`.
pub fn info(id: &str) -> Option<&'static AlgorithmInfo> {
    ALL.iter().find(|a| a.id == id)
}

/// A simulation of `scenario` after checking it again (for callers that
/// built or changed a scenario in code).
pub fn try_build(scenario: &Scenario, record: bool) -> Result<Box<dyn Simulation>, ScenarioError> {
    scenario.validate()?;
    Ok(build(scenario, record))
}

/// A simulation of a validated `scenario`; `record` keeps the trace
/// events (the page needs them, the CLI's counts do not).
///
/// # Panics
/// Never for a scenario that passed validation, which checks the id.
pub fn build(scenario: &Scenario, record: bool) -> Box<dyn Simulation> {
    match scenario.algorithm.as_str() {
        "bully" => Box::new(Engine::<bully::Bully>::new(scenario, record)),
        "chang-roberts" => Box::new(Engine::<chang_roberts::ChangRoberts>::new(scenario, record)),
        "lelann" => Box::new(Engine::<lelann::LeLann>::new(scenario, record)),
        "hirschberg-sinclair" => Box::new(Engine::<hirschberg_sinclair::HirschbergSinclair>::new(
            scenario, record,
        )),
        "invitation" => Box::new(Engine::<invitation::Invitation>::new(scenario, record)),
        "next-in-line" => Box::new(Engine::<next_in_line::NextInLine>::new(scenario, record)),
        "candidate-ordinary" => Box::new(Engine::<candidate_ordinary::CandidateOrdinary>::new(
            scenario, record,
        )),
        "raft" => Box::new(Engine::<raft::Raft>::new(scenario, record)),
        "zab" => Box::new(Engine::<zab::Zab>::new(scenario, record)),
        "zookeeper" => Box::new(Engine::<zookeeper::ZooKeeper>::new(scenario, record)),
        "lease" => Box::new(Engine::<lease::Lease>::new(scenario, record)),
        other => unreachable!("validation admits only known algorithms, got {other}"),
    }
}

/// The published election-message figure for `scenario` where one exists:
/// the initial election with every node starting and no faults. Returns
/// the figure and its formula with the source.
pub fn theory(scenario: &Scenario) -> Option<(f64, &'static str)> {
    use crate::scenario::{RingOrder, StartSet};
    if scenario.start != StartSet::All || !scenario.faults.is_empty() {
        return None;
    }
    let n = f64::from(scenario.nodes);
    match (scenario.algorithm.as_str(), scenario.ring) {
        ("chang-roberts", RingOrder::Ascending) => Some((
            2.0 * n - 1.0 + n,
            "2n-1 ELECTION + n ELECTED (Chang & Roberts 1979, best case)",
        )),
        ("chang-roberts", RingOrder::Descending) => Some((
            n * (n + 1.0) / 2.0 + n,
            "n(n+1)/2 ELECTION + n ELECTED (Chang & Roberts 1979, worst case)",
        )),
        ("chang-roberts", RingOrder::Random) => {
            let harmonic: f64 = (1..=scenario.nodes).map(|k| 1.0 / f64::from(k)).sum();
            Some((
                n * harmonic + n,
                "n*H_n ELECTION on average + n ELECTED (Chang & Roberts 1979)",
            ))
        }
        ("lelann", _) => Some((
            2.0 * n * n,
            "n^2 ELECTION (n lists, n hops each) + n^2 COORDINATOR (every initiator announces) (LeLann 1977, collect-ids ring)",
        )),
        ("hirschberg-sinclair", _) => {
            let log = f64::from(scenario.nodes).log2().ceil();
            Some((
                8.0 * n * (1.0 + log),
                "upper bound, not a mean: 8n(1 + ceil(log2 n)) PROBE + REPLY + ELECTED (Hirschberg & Sinclair 1980)",
            ))
        }
        _ => None,
    }
}
