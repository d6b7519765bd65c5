//! The network between nodes: latency, loss, duplication, partitions and
//! one-way link cuts.

use crate::protocol::NodeId;
use crate::rng::SimRng;
use crate::scenario::NetworkSpec;
use crate::time::Micros;
use serde::Serialize;
use std::collections::BTreeSet;

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
    /// Latest arrival time scheduled on each link, per sender, for FIFO
    /// links.
    last_arrival: Vec<SenderLinks>,
}

/// A sender's latest arrival time per receiver. Most senders talk to a few
/// receivers (a ring successor), so a short list is scanned; a sender that
/// talks to many (a leader's heartbeats) gets a full row.
///
/// 16 bytes: the lists are boxed so that the table of all senders (read at
/// a random place on every send) stays small, 160 KB rather than 320 KB
/// for 10,000 nodes; most senders only ever use `One`.
#[derive(Debug, Clone, Default)]
#[allow(clippy::box_collection)]
enum SenderLinks {
    /// Nothing sent yet.
    #[default]
    None,
    /// One receiver (a ring successor): kept without an allocation, one
    /// per node being a cost of every large ring run.
    One(NodeId, Micros),
    /// Up to [`FEW_LINKS`] receivers.
    Few(Box<Vec<(NodeId, Micros)>>),
    /// One slot per node.
    Full(Box<Vec<Micros>>),
}

/// Receivers kept as a list before a sender gets a full row.
const FEW_LINKS: usize = 8;

impl SenderLinks {
    /// The slot for receiver `to` among `n` nodes.
    #[inline]
    fn slot(&mut self, to: NodeId, n: usize) -> &mut Micros {
        // The common case first: the one receiver this sender has had.
        if matches!(self, SenderLinks::One(t, _) if *t == to) {
            let SenderLinks::One(_, at) = self else {
                unreachable!("matched just above")
            };
            return at;
        }
        self.slot_slow(to, n)
    }

    /// [`SenderLinks::slot`] for a new receiver or a sender with several.
    #[inline(never)]
    fn slot_slow(&mut self, to: NodeId, n: usize) -> &mut Micros {
        if let SenderLinks::Few(list) = self {
            if list.len() >= FEW_LINKS && !list.iter().any(|&(t, _)| t == to) {
                let mut row = vec![0; n];
                for &(t, at) in list.iter() {
                    row[t as usize] = at;
                }
                *self = SenderLinks::Full(Box::new(row));
            }
        }
        match self {
            SenderLinks::None => {
                *self = SenderLinks::One(to, 0);
            }
            SenderLinks::One(t, at) if *t != to => {
                *self = SenderLinks::Few(Box::new(vec![(*t, *at), (to, 0)]));
            }
            _ => {}
        }
        match self {
            SenderLinks::None => unreachable!("set just above"),
            SenderLinks::One(_, at) => at,
            SenderLinks::Few(list) => {
                let i = match list.iter().position(|&(t, _)| t == to) {
                    Some(i) => i,
                    None => {
                        list.push((to, 0));
                        list.len() - 1
                    }
                };
                &mut list[i].1
            }
            SenderLinks::Full(row) => &mut row[to as usize],
        }
    }
}

impl SenderLinks {
    /// The same links without the arrival times at or before `now`: they
    /// can no longer hold a message back (a message sent at `now` or
    /// later arrives after them anyway), so dropping them changes no
    /// arrival time.
    fn pruned(&self, now: Micros) -> Self {
        let live: Vec<(NodeId, Micros)> = match self {
            SenderLinks::None => return SenderLinks::None,
            SenderLinks::One(to, at) if *at > now => return SenderLinks::One(*to, *at),
            SenderLinks::One(..) => return SenderLinks::None,
            SenderLinks::Few(list) => list.iter().copied().filter(|&(_, at)| at > now).collect(),
            SenderLinks::Full(row) => {
                let live = row.iter().filter(|&&at| at > now).count();
                if live > FEW_LINKS {
                    return self.clone();
                }
                row.iter()
                    .enumerate()
                    .filter(|&(_, &at)| at > now)
                    .map(|(to, &at)| (to as NodeId, at))
                    .collect()
            }
        };
        if live.is_empty() {
            SenderLinks::None
        } else {
            SenderLinks::Few(Box::new(live))
        }
    }
}

impl Network {
    /// A copy for a time-travel checkpoint at `now`: the same network,
    /// minus the FIFO bookkeeping of links whose last message has already
    /// arrived (an n x n table after every node broadcast once, 8 MB for
    /// 1,000 nodes, that every checkpoint would otherwise copy).
    pub fn checkpoint_copy(&self, now: Micros) -> Self {
        Self {
            spec: self.spec.clone(),
            group: self.group.clone(),
            cuts: self.cuts.clone(),
            last_arrival: self.last_arrival.iter().map(|l| l.pruned(now)).collect(),
        }
    }

    /// Estimated bytes held: the partition groups, cuts and the FIFO
    /// arrival times per link.
    pub fn approx_bytes(&self) -> usize {
        let links: usize = self
            .last_arrival
            .iter()
            .map(|l| match l {
                SenderLinks::None | SenderLinks::One(..) => 0,
                SenderLinks::Few(list) => list.len() * 16,
                SenderLinks::Full(row) => row.len() * 8,
            })
            .sum();
        self.group.len() * 4
            + self.cuts.len() * 16
            + self.last_arrival.len() * std::mem::size_of::<SenderLinks>()
            + links
    }

    /// A fully connected network of `n` nodes.
    pub fn new(n: u32, spec: NetworkSpec) -> Self {
        Self {
            spec,
            group: vec![0; n as usize],
            cuts: BTreeSet::new(),
            last_arrival: vec![SenderLinks::None; n as usize],
        }
    }

    /// The arrival time of a message sent at `now` from `from` to `to`:
    /// a drawn latency, pushed back on FIFO links so it does not overtake
    /// an earlier message on the same link (equal times keep send order).
    #[inline]
    pub fn arrival(&mut self, rng: &mut SimRng, now: Micros, from: NodeId, to: NodeId) -> Micros {
        let at = now + self.latency(rng);
        if !self.spec.fifo {
            return at;
        }
        let n = self.group.len();
        let slot = self.last_arrival[from as usize].slot(to, n);
        let at = at.max(*slot);
        *slot = at;
        at
    }

    /// Draws a one-way latency.
    #[inline]
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
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_senders_stays_small() {
        // Read at a random place on every send of a large run.
        assert_eq!(std::mem::size_of::<SenderLinks>(), 16);
    }

    #[test]
    fn fifo_links_keep_order_through_every_form() {
        // A sender that talks to one, then a few, then many receivers:
        // each link's latest arrival is kept through the changes of form.
        let mut links = SenderLinks::None;
        let n = 20;
        for round in 1..=3u64 {
            for to in 0..n as NodeId {
                let slot = links.slot(to, n);
                assert_eq!(
                    *slot,
                    if round == 1 {
                        0
                    } else {
                        (round - 1) * 100 + u64::from(to)
                    }
                );
                *slot = round * 100 + u64::from(to);
            }
        }
        assert!(matches!(links, SenderLinks::Full(_)));
    }
}
