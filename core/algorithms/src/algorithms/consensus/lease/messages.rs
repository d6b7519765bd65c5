//! Lease messages: a candidate's reads and compare-and-swap updates of
//! the Lease, the service's answers, the resource write; their kinds and
//! how they read in the event log.

use crate::algorithms::service::LeaseRecord;
use crate::protocol::{Message, Purpose};
use std::fmt;

/// Lease messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Candidate -> service: read the Lease (background).
    Get,
    /// Service -> candidate: the Lease (background).
    Lease {
        /// The object.
        record: LeaseRecord,
    },
    /// Candidate -> service: write the Lease if its version is still
    /// `expected`.
    Update {
        /// The version the writer read.
        expected: u64,
        /// What it writes (the service sets the version).
        record: LeaseRecord,
        /// An acquisition (election) rather than a renewal (background).
        acquire: bool,
    },
    /// Service -> candidate: written.
    Updated {
        /// The new object.
        record: LeaseRecord,
        /// Answers an acquisition.
        acquire: bool,
    },
    /// Service -> candidate: the version had moved on; nothing written.
    Conflict {
        /// The current object.
        record: LeaseRecord,
        /// Answers an acquisition.
        acquire: bool,
    },
    /// Holder -> resource: a write with a fencing token (background).
    Write {
        /// The `leaseTransitions` value the holder acquired.
        token: u64,
    },
}

/// The trace shows `KIND(payload)`: the part of this text from the first
/// parenthesis on.
impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = |acquire: bool| if acquire { "acquire" } else { "renew" };
        match self {
            Msg::Get => write!(f, "Get"),
            Msg::Lease { record } => write!(f, "Lease({record:?})"),
            Msg::Update {
                expected,
                record,
                acquire,
            } => write!(
                f,
                "Update({} if still v{expected}: holder n{}, transitions {})",
                what(*acquire),
                record.holder.unwrap_or_default(),
                record.transitions
            ),
            Msg::Updated { record, acquire } => {
                write!(f, "Updated({}: {record:?})", what(*acquire))
            }
            Msg::Conflict { record, acquire } => {
                write!(f, "Conflict({} failed, now {record:?})", what(*acquire))
            }
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Get => 0,
            Msg::Lease { .. } => 1,
            Msg::Update { .. } => 2,
            Msg::Updated { .. } => 3,
            Msg::Conflict { .. } => 4,
            Msg::Write { .. } => 5,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Update { acquire: true, .. }
            | Msg::Updated { acquire: true, .. }
            | Msg::Conflict { acquire: true, .. } => Purpose::Election,
            _ => Purpose::Background,
        }
    }
}
