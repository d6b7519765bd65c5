//! The network between nodes: latency, loss, duplication, partitions and
//! one-way link cuts.

use crate::protocol::NodeId;
use crate::rng::SimRng;
use crate::scenario::NetworkSpec;
use crate::time::Micros;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Why a message did not arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// Lost at random (the `drop` probability).
    Lost,
    /// Sender and receiver were in different partition groups.
    Partition,
    /// The one-way link was cut.
    LinkCut,
    /// The receiver was crashed when the message arrived.
    NodeDown,
}

/// Live network state.
#[derive(Debug, Clone)]
pub struct Network {
    /// Current parameters.
    pub spec: NetworkSpec,
    /// `group[id]`: partition group of each node (all 0 when healed).
    pub group: Vec<u32>,
    /// Cut one-way links `(from, to)`.
    pub cuts: BTreeSet<(NodeId, NodeId)>,
    /// Latest arrival time scheduled on each link with a message still
    /// possibly in flight, keyed `from * n + to`, for FIFO links. Only
    /// looked up, never iterated, so its hasher cannot change a run.
    last_arrival: HashMap<u64, Micros, BuildHasherDefault<LinkHasher>>,
    /// Size at which `last_arrival` is next pruned of links whose last
    /// message has already arrived.
    prune_at: usize,
    n: u64,
}

/// A small multiplicative hasher for link keys (the Fx hash of rustc).
#[derive(Default)]
pub struct LinkHasher(u64);

impl Hasher for LinkHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Network {
    /// A fully connected network of `n` nodes.
    pub fn new(n: u32, spec: NetworkSpec) -> Self {
        Self {
            spec,
            group: vec![0; n as usize],
            cuts: BTreeSet::new(),
            last_arrival: HashMap::with_capacity_and_hasher(4 * n as usize, Default::default()),
            prune_at: 1024,
            n: u64::from(n),
        }
    }

    /// The arrival time of a message sent at `now` from `from` to `to`:
    /// a drawn latency, pushed back on FIFO links so it does not overtake
    /// an earlier message on the same link (equal times keep send order).
    pub fn arrival(&mut self, rng: &mut SimRng, now: Micros, from: NodeId, to: NodeId) -> Micros {
        let at = now + self.latency(rng);
        if !self.spec.fifo {
            return at;
        }
        if self.last_arrival.len() >= self.prune_at {
            // A link whose last message has arrived constrains nothing.
            self.last_arrival.retain(|_, &mut last| last > now);
            self.prune_at = (self.last_arrival.len() * 2).max(1024);
        }
        let slot = self
            .last_arrival
            .entry(u64::from(from) * self.n + u64::from(to))
            .or_insert(0);
        let at = at.max(*slot);
        *slot = at;
        at
    }

    /// Draws a one-way latency.
    pub fn latency(&self, rng: &mut SimRng) -> Micros {
        rng.between(self.spec.latency_us.0, self.spec.latency_us.1)
    }

    /// Splits into `groups`; unnamed nodes form one more group together.
    pub fn partition(&mut self, groups: &[Vec<NodeId>]) {
        let rest = groups.len() as u32;
        self.group.iter_mut().for_each(|g| *g = rest);
        for (g, members) in groups.iter().enumerate() {
            for &id in members {
                if let Some(slot) = self.group.get_mut(id as usize) {
                    *slot = g as u32;
                }
            }
        }
    }

    /// Removes every partition and cut.
    pub fn heal(&mut self) {
        self.group.iter_mut().for_each(|g| *g = 0);
        self.cuts.clear();
    }

    /// Whether the network is currently split.
    pub fn is_partitioned(&self) -> bool {
        self.group.windows(2).any(|w| w[0] != w[1])
    }

    /// Why a message from `from` to `to` cannot pass right now, if it cannot.
    pub fn blocked(&self, from: NodeId, to: NodeId) -> Option<DropReason> {
        if self.group[from as usize] != self.group[to as usize] {
            Some(DropReason::Partition)
        } else if !self.cuts.is_empty() && self.cuts.contains(&(from, to)) {
            Some(DropReason::LinkCut)
        } else {
            None
        }
    }
}
