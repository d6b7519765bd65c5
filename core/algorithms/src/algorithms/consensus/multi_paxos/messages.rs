//! Multi-Paxos messages (Lamport 2001, 2.2: prepare requests and their
//! promises; 3: the leader's accept requests, here empty heartbeats) and
//! the resource write. How they print is in [`super::inspect`].

use crate::protocol::{Message, Purpose};

/// Multi-Paxos messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Phase 1a: a proposer asks for promises for its ballot.
    Prepare {
        /// The proposer's ballot.
        ballot: u64,
    },
    /// Phase 1b: the acceptor promises `ballot`.
    Promise {
        /// The ballot promised.
        ballot: u64,
        /// The highest ballot the acceptor has accepted (0: none).
        accepted: u64,
    },
    /// The answer to a `PREPARE` or `HEARTBEAT` at or below the promise
    /// (or refused for a master lease the acceptor granted).
    Reject {
        /// The ballot refused.
        ballot: u64,
        /// The acceptor's promise.
        promised: u64,
    },
    /// Phase 2a of an empty value: the leader is alive (background).
    Heartbeat {
        /// The leader's ballot.
        ballot: u64,
        /// Number of the leader's heartbeat round (for its lease).
        round: u64,
    },
    /// Phase 2b: accepted (background).
    HeartbeatAck {
        /// The ballot accepted.
        ballot: u64,
        /// The round answered.
        round: u64,
    },
    /// A leader's write to the resource, with its ballot as fencing token.
    Write {
        /// The fencing token.
        token: u64,
    },
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Prepare { .. } => 0,
            Msg::Promise { .. } => 1,
            Msg::Reject { .. } => 2,
            Msg::Heartbeat { .. } => 3,
            Msg::HeartbeatAck { .. } => 4,
            Msg::Write { .. } => 5,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Prepare { .. } | Msg::Promise { .. } | Msg::Reject { .. } => Purpose::Election,
            Msg::Heartbeat { .. } | Msg::HeartbeatAck { .. } | Msg::Write { .. } => {
                Purpose::Background
            }
        }
    }
}
