//! ZooKeeper recipe messages: the requests of a client, the answers and
//! watch events of the service, the resource write; their kinds and how
//! they read in the event log.

use crate::algorithms::service::{SessionId, Znode};
use crate::protocol::{Message, Purpose};
use std::fmt;

/// ZooKeeper recipe messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// Client -> service: open a session (background).
    Connect,
    /// Service -> client: the new session (background).
    Connected {
        /// Its id.
        session: SessionId,
    },
    /// Client -> service: create an ephemeral sequential znode.
    Create {
        /// The client's session.
        session: SessionId,
    },
    /// Service -> client: the znode created.
    Created {
        /// The new znode.
        znode: Znode,
    },
    /// Client -> service: list `/election`.
    GetChildren {
        /// The client's session.
        session: SessionId,
    },
    /// Service -> client: the children, in sequence order.
    Children {
        /// The znodes.
        children: Vec<Znode>,
    },
    /// Client -> service: `exists(znode, watch=true)`.
    Exists {
        /// The client's session.
        session: SessionId,
        /// The znode to watch.
        seq: u64,
    },
    /// Service -> client: whether the znode exists (and so is watched).
    Stat {
        /// The znode asked about.
        seq: u64,
        /// Whether it exists.
        exists: bool,
    },
    /// Service -> client: a watched znode was deleted.
    WatchEvent {
        /// The deleted znode.
        seq: u64,
    },
    /// Client -> service: keepalive (background).
    Ping {
        /// The client's session.
        session: SessionId,
    },
    /// Service -> client: the session lives; the lowest znode, which
    /// leads (background).
    Pong {
        /// The lowest znode, if any.
        lowest: Option<Znode>,
    },
    /// Service -> client: that session no longer exists (background).
    SessionExpired {
        /// The expired session.
        session: SessionId,
    },
    /// Leader -> resource: a write with a fencing token (background).
    Write {
        /// The leader's znode sequence number.
        token: u64,
    },
}

/// The trace shows `KIND(payload)`: the part of this text from the first
/// parenthesis on.
impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Connect => write!(f, "Connect"),
            Msg::Connected { session } => write!(f, "Connected(session {session})"),
            Msg::Create { session } => write!(f, "Create(session {session})"),
            Msg::Created { znode } => write!(f, "Created({znode:?})"),
            Msg::GetChildren { session } => write!(f, "GetChildren(session {session})"),
            Msg::Children { children } => {
                let names: Vec<String> = children.iter().map(|z| format!("{z:?}")).collect();
                write!(f, "Children({})", names.join(", "))
            }
            Msg::Exists { session, seq } => write!(f, "Exists(#{seq}, watch, session {session})"),
            Msg::Stat { seq, exists: true } => write!(f, "Stat(#{seq} exists, watched)"),
            Msg::Stat { seq, exists: false } => write!(f, "Stat(#{seq} is gone)"),
            Msg::WatchEvent { seq } => write!(f, "WatchEvent(#{seq} deleted)"),
            Msg::Ping { session } => write!(f, "Ping(session {session})"),
            Msg::Pong { lowest: Some(z) } => write!(f, "Pong(lowest {z:?})"),
            Msg::Pong { lowest: None } => write!(f, "Pong(no znodes)"),
            Msg::SessionExpired { session } => write!(f, "SessionExpired(session {session})"),
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Connect => 0,
            Msg::Connected { .. } => 1,
            Msg::Create { .. } => 2,
            Msg::Created { .. } => 3,
            Msg::GetChildren { .. } => 4,
            Msg::Children { .. } => 5,
            Msg::Exists { .. } => 6,
            Msg::Stat { .. } => 7,
            Msg::WatchEvent { .. } => 8,
            Msg::Ping { .. } => 9,
            Msg::Pong { .. } => 10,
            Msg::SessionExpired { .. } => 11,
            Msg::Write { .. } => 12,
        }
    }
    /// The recipe's steps choose the leader; the session layer (connect,
    /// ping, expiry answers) and the writes keep things running.
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Create { .. }
            | Msg::Created { .. }
            | Msg::GetChildren { .. }
            | Msg::Children { .. }
            | Msg::Exists { .. }
            | Msg::Stat { .. }
            | Msg::WatchEvent { .. } => Purpose::Election,
            Msg::Connect
            | Msg::Connected { .. }
            | Msg::Ping { .. }
            | Msg::Pong { .. }
            | Msg::SessionExpired { .. }
            | Msg::Write { .. } => Purpose::Background,
        }
    }
}
