//! Hirschberg-Sinclair messages: the directions they travel, their kinds
//! and how they read in the event log.

use crate::protocol::{Message, NodeId, Purpose};
use std::fmt;

/// A direction round the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Along the scenario's `ring` order.
    Next,
    /// Against it.
    Prev,
}

impl Dir {
    /// The other way round.
    pub fn back(self) -> Dir {
        match self {
            Dir::Next => Dir::Prev,
            Dir::Prev => Dir::Next,
        }
    }

    pub(super) fn index(self) -> usize {
        match self {
            Dir::Next => 0,
            Dir::Prev => 1,
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Dir::Next => "next",
            Dir::Prev => "prev",
        }
    }
}

/// Hirschberg-Sinclair messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Candidate `id`'s probe of phase `phase`; the receiver is the
    /// `hop`-th live node on its way; it travels towards `dir`.
    Probe {
        /// The candidate.
        id: NodeId,
        /// Its phase: the probe reaches 2^phase nodes.
        phase: u32,
        /// How many nodes it has reached, the receiver included.
        hop: u32,
        /// Where it is going.
        dir: Dir,
    },
    /// The probe of `id` in `phase` reached its full distance; travels
    /// towards `dir`, back to `id`.
    Reply {
        /// The candidate it returns to.
        id: NodeId,
        /// The phase of the probe.
        phase: u32,
        /// Where it is going.
        dir: Dir,
    },
    /// Announces the winner, once round the ring (towards next).
    Elected(NodeId),
    /// The leader is alive (background).
    Heartbeat,
}

impl fmt::Debug for Msg {
    /// Reads `PROBE(5, phase 1, hop 2, to next)` in the event log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Probe {
                id,
                phase,
                hop,
                dir,
            } => write!(
                f,
                "Probe({id}, phase {phase}, hop {hop}, to {})",
                dir.name()
            ),
            Msg::Reply { id, phase, dir } => {
                write!(f, "Reply({id}, phase {phase}, to {})", dir.name())
            }
            Msg::Elected(j) => write!(f, "Elected({j})"),
            Msg::Heartbeat => write!(f, "Heartbeat"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Probe { .. } => 0,
            Msg::Reply { .. } => 1,
            Msg::Elected(_) => 2,
            Msg::Heartbeat => 3,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}
