//! Invitation messages: the group numbers they carry, their kinds and
//! how they read in the event log.

use crate::protocol::{Message, NodeId, Purpose};
use std::fmt;

/// A group number: the coordinator that formed it and that node's counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    /// The node that formed the group and coordinates it.
    pub coordinator: NodeId,
    /// The coordinator's group counter when it formed the group.
    pub counter: u64,
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "g{}.{}", self.coordinator, self.counter)
    }
}

/// Invitation messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// "Are you a coordinator?" (background: the periodic search).
    AreYouCoordinator,
    /// "Yes, I coordinate a group of `size` nodes."
    IAmCoordinator {
        /// The answering coordinator's group size.
        size: u32,
    },
    /// "Join `group`", from its coordinator or forwarded by the receiver's
    /// own coordinator.
    Invitation {
        /// The group being formed; its coordinator is the inviter.
        group: Group,
        /// The inviter's group size when it invited.
        size: u32,
    },
    /// "I join `group`", to the inviter.
    Accept {
        /// The group accepted.
        group: Group,
    },
    /// "`group` is formed; these are its members."
    Ready {
        /// The group.
        group: Group,
        /// Every member, the coordinator included, ascending.
        members: Vec<NodeId>,
    },
    /// A member asks its coordinator whether `group` still stands
    /// (background).
    AreYouThere {
        /// The member's group.
        group: Group,
    },
    /// "Yes, I coordinate your group" (background).
    Yes,
    /// "No, I do not coordinate your group (any more)" (background).
    No,
}

/// The trace shows `KIND(payload)`: the part of this text from the first
/// parenthesis on.
impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::AreYouCoordinator => write!(f, "AreYouCoordinator"),
            Msg::IAmCoordinator { size } => write!(f, "IAmCoordinator(group of {size})"),
            Msg::Invitation { group, size } => {
                write!(f, "Invitation({group}, inviter's group of {size})")
            }
            Msg::Accept { group } => write!(f, "Accept({group})"),
            Msg::Ready { group, members } => {
                let names: Vec<String> = members.iter().map(|m| format!("n{m}")).collect();
                write!(f, "Ready({group}: {})", names.join(" "))
            }
            Msg::AreYouThere { group } => write!(f, "AreYouThere({group})"),
            Msg::Yes => write!(f, "Yes"),
            Msg::No => write!(f, "No"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::AreYouCoordinator => 0,
            Msg::IAmCoordinator { .. } => 1,
            Msg::Invitation { .. } => 2,
            Msg::Accept { .. } => 3,
            Msg::Ready { .. } => 4,
            Msg::AreYouThere { .. } => 5,
            Msg::Yes => 6,
            Msg::No => 7,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::AreYouCoordinator | Msg::AreYouThere { .. } | Msg::Yes | Msg::No => {
                Purpose::Background
            }
            Msg::IAmCoordinator { .. }
            | Msg::Invitation { .. }
            | Msg::Accept { .. }
            | Msg::Ready { .. } => Purpose::Election,
        }
    }
}
