//! The scenario: plain data that fully determines a run
//! (below; the fields for users:
//! docs/guide.md, Scenarios).
//!
//! [`Scenario::parse_json`] is the one parser and validator shared by the CLI
//! and the page; [`Scenario::to_json`] writes the canonical form back, so a
//! scenario survives a round trip through a file or a share link unchanged.
//!
//! # Scenarios and links
//!
//! A scenario is plain JSON that fully determines a run
//! (`core/model/src/scenario/`). `Scenario::from_json` is the one parser and
//! validator, used by the CLI, the page, share links, URL parameters, live
//! faults and experiment parameters; `Scenario::to_json` writes the
//! canonical form, so a scenario survives a file or a link unchanged. Bad
//! input gets one `ScenarioError` naming the dotted field
//! (`faults[3].for_ms`, `network.drop`), never a panic.
//!
//! Formats are versioned and old ones keep working:
//!
//! - scenario files: `"version": 1`; a new field must default so that
//!   every old file runs exactly as before;
//! - share links: `#s=1.<base64url(deflate(json))>`
//!   (`core/model/src/share.rs`);
//!   a new encoding is a new version number, decoded beside the old one;
//! - readable query parameters (`core/model/src/scenario/query.rs`), each one a
//!   scenario field put through the same validator;
//! - `tests/links/` holds one stored address per shipped format and the
//!   scenario it must open to. Never regenerate those files.

mod catalog;
mod fault;
pub mod fields;
pub mod observers;
mod parse;
pub mod query;
mod strict_json;
mod write;

pub use catalog::Catalog;
#[cfg(test)]
pub(crate) use catalog::TestCatalog;
pub use fault::{FAULT_KINDS, Fault, FaultAction, Target};
pub use observers::Observers;

use crate::time::{Micros, ms};
use serde::Serialize;
use std::fmt;

/// The algorithm id of a scripted scenario, the one whose `script` field
/// holds its source: the field belongs to it, so picking another
/// algorithm drops the script ([`Scenario::set_algorithm`]).
pub const SCRIPTED: &str = "script";
/// The only scenario format version so far.
pub const VERSION: u32 = 1;
/// Largest accepted scenario text, in bytes.
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024;
/// Largest cluster.
pub const MAX_NODES: u32 = 1024;
/// Most faults in one scenario.
pub const MAX_FAULTS: usize = 1000;
/// Latest time any scenario field may name (one day of simulated time).
pub const MAX_TIME_US: Micros = 86_400_000_000;
/// How long a run without `until_ms` may go before it is stopped.
pub const DEFAULT_RUN_LIMIT_US: Micros = 60_000_000;

/// Order of ids along the direction ring messages travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RingOrder {
    /// 0, 1, 2, ... n-1, then back to 0.
    Ascending,
    /// n-1, n-2, ... 0, then back to n-1.
    Descending,
    /// A permutation drawn from the seed.
    Random,
}

/// Which nodes start an election at time 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartSet {
    /// Every node.
    All,
    /// Nobody: nodes wait for their failure detector to time out.
    None,
    /// Exactly these ids.
    Ids(Vec<u32>),
}

/// Network parameters; also the payload of a `network` fault.
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkSpec {
    /// One-way latency is drawn uniformly from `latency_us.0..=latency_us.1`.
    pub latency_us: (Micros, Micros),
    /// Probability that a message is lost.
    pub drop: f64,
    /// Probability that a message is delivered twice.
    pub duplicate: f64,
    /// Links keep order, like TCP: a message never overtakes an earlier
    /// one from the same sender to the same receiver.
    pub fifo: bool,
}

/// Timing parameters of the algorithms.
#[derive(Debug, Clone, PartialEq)]
pub struct TimingSpec {
    /// A follower that hears nothing from its leader for a time drawn from
    /// this range (local clock) starts an election.
    pub election_timeout_us: (Micros, Micros),
    /// How often a leader sends heartbeats.
    pub heartbeat_us: Micros,
    /// How long a node waits for an answer (Bully's OK, a link-level
    /// delivery) before presuming the peer dead. `None` means the default,
    /// [`TimingSpec::reply_timeout`].
    pub reply_timeout_us: Option<Micros>,
    /// Leases (Kubernetes-style Lease, Raft's leader lease): how long a
    /// lease lasts once acquired or renewed.
    pub lease_us: Micros,
    /// Kubernetes-style Lease: the holder gives up if it could not renew
    /// within this time.
    pub renew_deadline_us: Micros,
    /// Kubernetes-style Lease: how often candidates and the holder try.
    pub retry_us: Micros,
    /// Leader leases: the clock-drift bound the algorithm assumes (0.01 is
    /// 1%); a clock drifting faster than this can break the lease.
    pub drift_bound: f64,
    /// Coordination service: a session expires after this long without a
    /// ping from its client.
    pub session_timeout_us: Micros,
    /// Fencing: how often the leader writes to the resource.
    pub write_us: Micros,
    /// Candidate/ordinary: how long an ordinary node that detected a
    /// failure waits before it starts an election, so that concurrent
    /// detections collapse into one.
    pub delta_us: Micros,
}

impl TimingSpec {
    /// The reply timeout in force: the explicit value, or four times the
    /// largest one-way latency but at least 50 ms, so that a request and
    /// its answer fit with room to spare.
    pub fn reply_timeout(&self, network: &NetworkSpec) -> Micros {
        self.reply_timeout_us
            .unwrap_or_else(|| (network.latency_us.1.saturating_mul(4)).max(ms(50)))
    }
}

/// ZooKeeper recipe variant: who watches whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WatchMode {
    /// Every client watches the lowest znode: one failure wakes everyone
    /// (the herd effect).
    Herd,
    /// Each client watches its predecessor: one failure wakes one client.
    Predecessor,
}

/// Options of the consensus and coordination-service algorithms.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// A downstream resource rejects writes whose token is below the
    /// highest it has seen (fencing tokens).
    pub fencing: bool,
    /// ZooKeeper recipe: herd or predecessor watches.
    pub watch: WatchMode,
    /// Raft: a pre-vote round before a real election (dissertation 9.6).
    pub pre_vote: bool,
    /// Raft: a leader that has not heard from a majority for an election
    /// timeout steps down (dissertation 6.2).
    pub check_quorum: bool,
    /// Raft: the leader serves reads locally while its lease holds
    /// (dissertation 6.4.1).
    pub leader_lease: bool,
    /// Zab: the last `observers` participants follow the leader but never
    /// vote or stand (ZooKeeper's observers); 0 for every other algorithm.
    pub observers: u32,
    /// Multi-Paxos: Chubby's master lease (Burrows 2006, 2.12).
    pub master_lease: bool,
    /// Multi-Paxos: a randomized wait before retrying after a rejected
    /// ballot; `false` retries at once (duelling proposers).
    pub backoff: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            fencing: true,
            watch: WatchMode::Predecessor,
            pre_vote: false,
            check_quorum: false,
            leader_lease: false,
            observers: 0,
            master_lease: false,
            backoff: true,
        }
    }
}

/// A complete, validated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Format version; always [`VERSION`].
    pub version: u32,
    /// Algorithm id: one the [`Catalog`] knows (`election-core`'s
    /// `algorithms::ids`).
    pub algorithm: String,
    /// Number of nodes; ids are `0..nodes` and the id is the rank.
    pub nodes: u32,
    /// Seed of every random choice in the run.
    pub seed: u64,
    /// Arrangement of the ring for ring algorithms.
    pub ring: RingOrder,
    /// Who starts an election at time 0.
    pub start: StartSet,
    /// Network parameters at time 0.
    pub network: NetworkSpec,
    /// Algorithm timing.
    pub timing: TimingSpec,
    /// Options of the consensus and coordination algorithms.
    pub options: Options,
    /// Candidate/ordinary: the ids allowed to lead; `None` means the
    /// default, [`Scenario::candidate_ids`].
    pub candidates: Option<Vec<u32>>,
    /// Faults, applied at their times (ties in list order).
    pub faults: Vec<Fault>,
    /// Stop time; `None` runs until the election settles (bounded by
    /// [`DEFAULT_RUN_LIMIT_US`]).
    pub until_us: Option<Micros>,
    /// The script's source when `algorithm` is `"script"`
    /// (core/algorithms/src/script/mod.rs, module docs); at most
    /// `script::MAX_SCRIPT_BYTES` (`election-core`).
    pub script: Option<std::sync::Arc<str>>,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            version: VERSION,
            algorithm: "bully".to_string(),
            nodes: 8,
            seed: 1,
            ring: RingOrder::Ascending,
            start: StartSet::All,
            network: NetworkSpec {
                latency_us: (ms(5), ms(10)),
                drop: 0.0,
                duplicate: 0.0,
                fifo: true,
            },
            timing: TimingSpec {
                election_timeout_us: (ms(150), ms(300)),
                heartbeat_us: ms(50),
                reply_timeout_us: None,
                delta_us: ms(50),
                lease_us: ms(1000),
                renew_deadline_us: ms(800),
                retry_us: ms(200),
                drift_bound: 0.01,
                session_timeout_us: ms(600),
                write_us: ms(100),
            },
            options: Options::default(),
            candidates: None,
            faults: Vec::new(),
            until_us: None,
            script: None,
        }
    }
}

/// A problem with a scenario, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `network.drop` or `faults[2].crash`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
    /// For a script that does not compile (field `script`): the line and
    /// column of the error, when known, so the page can show it there.
    pub script_at: Option<(u32, Option<u32>)>,
    /// For a scenario this build cannot run (field `algorithm`): the
    /// algorithm id it needs (`"raft"`, or `"script"` in a build without
    /// the interpreter), so the page can load the wasm module that runs it
    /// (`crate::algorithms::runnable`).
    pub needs: Option<&'static str>,
}

impl ScenarioError {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
            script_at: None,
            needs: None,
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "scenario: {}", self.message)
        } else {
            write!(f, "scenario field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl Fault {
    /// Parses one entry of a scenario's `faults` (`{"at_ms": 5, "crash":
    /// 2}`) on its own, with errors naming `path` (`faults[3]`) and its
    /// keys (`faults[3].for_ms`). Only the entry's own shape is checked:
    /// node ids are checked against a cluster by
    /// [`Scenario::validate_in`].
    pub fn parse_value(value: &serde_json::Value, path: &str) -> Result<Self, ScenarioError> {
        parse::parse_fault(value, path)
    }

    /// The fault as one entry of a scenario's canonical `faults`
    /// (`at_ms` first).
    pub fn to_json(&self) -> serde_json::Value {
        write::fault_value(self)
    }
}

/// JSON text as a value, as every scenario text is read: "not valid
/// JSON: ..." when it is not, and a key given twice in one object refused
/// with its dotted path as the field (`timing.heartbeat_ms`).
pub fn json_value(text: &str) -> Result<serde_json::Value, ScenarioError> {
    parse::json_value(text)
}

impl Scenario {
    /// Parses scenario JSON text and validates it against `catalog`.
    pub fn parse_json(text: &str, catalog: &dyn Catalog) -> Result<Self, ScenarioError> {
        parse::parse_text(text, catalog)
    }

    /// Parses an already-decoded JSON value and validates it against
    /// `catalog`.
    pub fn parse_value(
        value: &serde_json::Value,
        catalog: &dyn Catalog,
    ) -> Result<Self, ScenarioError> {
        parse::parse_value(value, catalog)
    }

    /// The canonical JSON form (every field written out).
    pub fn to_json(&self) -> serde_json::Value {
        write::to_value(self)
    }

    /// The canonical JSON text, pretty-printed.
    pub fn to_json_pretty(&self) -> String {
        crate::pretty_json::to_string_pretty(&self.to_json()).unwrap_or_default()
    }

    /// Participants plus the algorithm's extra nodes in `catalog` (a
    /// coordination service, a resource); fault ids run up to this.
    pub fn total_nodes_in(&self, catalog: &dyn Catalog) -> u32 {
        self.nodes + catalog.extra_nodes(&self.algorithm).unwrap_or(0)
    }

    /// The candidate set in force, ascending: the explicit list, or the
    /// highest quarter of the ids (at least one).
    pub fn candidate_ids(&self) -> Vec<u32> {
        match &self.candidates {
            Some(ids) => {
                let mut ids = ids.clone();
                ids.sort_unstable();
                ids.dedup();
                ids
            }
            None => {
                let count = self.nodes.div_ceil(4).max(1);
                (self.nodes - count..self.nodes).collect()
            }
        }
    }

    /// Runs this scenario under algorithm `id`: a script stays only with
    /// a scripted algorithm (compare mode, sweeps and the failure finder
    /// run one scenario under several algorithms).
    pub fn set_algorithm(&mut self, id: &str) {
        self.algorithm = id.to_string();
        if id != SCRIPTED {
            self.script = None;
        }
    }

    /// Checks the cross-field rules (ids in range, algorithm known in
    /// `catalog`, ...). Call it again after changing fields, as the CLI's
    /// overrides do.
    pub fn validate_in(&self, catalog: &dyn Catalog) -> Result<(), ScenarioError> {
        parse::validate(self, catalog)
    }
}
