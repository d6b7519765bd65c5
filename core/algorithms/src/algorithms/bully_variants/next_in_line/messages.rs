//! Next-in-line messages: the line of succession they carry, the
//! heartbeat that may carry it, and their kinds.

use crate::protocol::{Message, NodeId, Purpose};
use std::fmt;

/// A published line of succession.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Line {
    /// Bumped by the leader on every change.
    pub version: u64,
    /// Every other node the leader believes alive, highest id first.
    pub ids: Vec<NodeId>,
}

impl fmt::Debug for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{} {:?}", self.version, self.ids)
    }
}

/// What a heartbeat says about the line: its version, and the ids when
/// the receiver has not been sent this version yet.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Beat {
    /// The leader's current line version.
    pub version: u64,
    /// The line itself, in the first beat to a node after a change.
    pub ids: Option<Vec<NodeId>>,
}

impl fmt::Debug for Beat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.ids {
            Some(ids) => write!(f, "v{} {ids:?}", self.version),
            None => write!(f, "v{}", self.version),
        }
    }
}

/// Next-in-line messages.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// "You are next in line: take over." Carries the nodes the asker
    /// found dead (the old leader, then every node on the line that did
    /// not answer), so the new leader's line leaves them out.
    Takeover(Vec<NodeId>),
    /// "I lead now" (to the node that asked).
    Confirm,
    /// "I lead; this is my line of succession."
    Coordinator(Line),
    /// Fallback (Bully): "I am holding an election; are you alive?"
    Election,
    /// Fallback (Bully): "Yes, and I outrank you."
    Ok,
    /// The leader is alive; its line's version, and the line after a
    /// change (background).
    Heartbeat(Beat),
    /// "Put me in your line, or send me its current version" (background).
    Join,
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Takeover(_) => 0,
            Msg::Confirm => 1,
            Msg::Coordinator(_) => 2,
            Msg::Election => 3,
            Msg::Ok => 4,
            Msg::Heartbeat(_) => 5,
            Msg::Join => 6,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Heartbeat(_) | Msg::Join => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}
