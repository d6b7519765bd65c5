//! Faults: the scheduled (or live-injected) events that break a run.

use super::NetworkSpec;
use crate::time::Micros;

/// The node a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A fixed id.
    Node(u32),
    /// Whichever node leads when the fault fires (the lowest id if several
    /// do); a no-op, logged, if none does.
    Leader,
    /// `"leader-or-next"`: as [`Target::Leader`], but if none leads when
    /// the fault fires, it waits, logged, and acts on the first node to
    /// take the leader role after that, at that moment (compare mode's
    /// "run to its leader first, then crash it": one scenario that crashes
    /// each algorithm's own leader, whenever each has one).
    LeaderOrNext,
}

/// What a fault does.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultAction {
    /// Stop the node; its volatile state is lost.
    Crash(Target),
    /// Restart a crashed node from its persistent state.
    Recover(Target),
    /// Freeze the node (a GC pause): it does nothing, its timers and
    /// messages wait until it resumes.
    Pause {
        /// The node.
        node: Target,
        /// Length of the pause.
        for_us: Micros,
    },
    /// Set the node's local clock: local = offset + (1 + drift) x true time.
    Clock {
        /// The node.
        node: Target,
        /// Offset in microseconds (may be negative).
        offset_us: i64,
        /// Rate error: 0.05 runs 5% fast.
        drift: f64,
    },
    /// Split the network: messages between groups are lost. Nodes not named
    /// form one more group together.
    Partition(Vec<Vec<u32>>),
    /// Remove every partition and link cut.
    Heal,
    /// Add processing delay to everything the node handles (0 clears it).
    Slow {
        /// The node.
        node: Target,
        /// Extra delay per handled event.
        extra_us: Micros,
    },
    /// Crash and recover the node periodically: down for `down_us` at the
    /// start of every `period_us`, for `for_us` (or to the end of the run).
    Flaky {
        /// The node.
        node: Target,
        /// Length of one crash/recover cycle.
        period_us: Micros,
        /// How long the node stays down in each cycle.
        down_us: Micros,
        /// How long the flapping lasts; `None` is forever.
        for_us: Option<Micros>,
    },
    /// Cut the one-way link `from -> to`.
    Cut {
        /// Sender side.
        from: u32,
        /// Receiver side.
        to: u32,
    },
    /// Restore the one-way link `from -> to`.
    Uncut {
        /// Sender side.
        from: u32,
        /// Receiver side.
        to: u32,
    },
    /// Change the network parameters.
    Network(NetworkSpec),
}

/// A fault and the true time it fires.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    /// When, in true simulation time.
    pub at_us: Micros,
    /// What.
    pub action: FaultAction,
}

/// The fault kinds, as their keys in a scenario's faults (`{"at_ms": 5,
/// "crash": 2}`), in [`FaultAction`]'s order: the one list the parser,
/// the failure finder's fault kinds and the docs share.
pub const FAULT_KINDS: [&str; 11] = [
    "crash",
    "recover",
    "pause",
    "clock",
    "partition",
    "heal",
    "slow",
    "flaky",
    "cut",
    "uncut",
    "network",
];

impl FaultAction {
    /// The JSON key that names this kind of fault.
    pub fn key(&self) -> &'static str {
        match self {
            FaultAction::Crash(_) => "crash",
            FaultAction::Recover(_) => "recover",
            FaultAction::Pause { .. } => "pause",
            FaultAction::Clock { .. } => "clock",
            FaultAction::Partition(_) => "partition",
            FaultAction::Heal => "heal",
            FaultAction::Slow { .. } => "slow",
            FaultAction::Flaky { .. } => "flaky",
            FaultAction::Cut { .. } => "cut",
            FaultAction::Uncut { .. } => "uncut",
            FaultAction::Network(_) => "network",
        }
    }
}
