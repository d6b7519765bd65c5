//! Zab messages: the votes of FastLeaderElection, the messages of Zab
//! phase 1, the pings and the writes, their kinds and how they read in
//! the event log.

use super::{ServerState, zxid_text};
use crate::protocol::{Message, NodeId, Purpose};
use std::fmt;

/// A vote: the proposed leader and the epoch and zxid that rank it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vote {
    /// Proposed leader.
    pub leader: NodeId,
    /// Its last zxid.
    pub zxid: u64,
    /// Its current epoch.
    pub epoch: u64,
}

impl Vote {
    /// FLE's total order (`totalOrderPredicate`): newer epoch, then higher
    /// zxid, then higher id.
    pub fn beats(&self, other: &Vote) -> bool {
        (self.epoch, self.zxid, self.leader) > (other.epoch, other.zxid, other.leader)
    }
}

impl fmt::Display for Vote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "n{} (epoch {}, zxid {})",
            self.leader,
            self.epoch,
            zxid_text(self.zxid)
        )
    }
}

/// Zab messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Msg {
    /// FLE: the sender's vote, its round and its state.
    Notification {
        /// The vote.
        vote: Vote,
        /// The sender's round (logical clock), or for a FOLLOWING/LEADING
        /// sender the round it decided in.
        round: u64,
        /// The sender's state.
        state: ServerState,
    },
    /// Follower to leader (`FOLLOWERINFO`, the paper's CEPOCH): "I follow
    /// you; the highest epoch I promised".
    FollowerInfo {
        /// The follower's accepted epoch.
        accepted_epoch: u64,
    },
    /// Leader to follower (`LEADERINFO`, the paper's NEWEPOCH): the epoch
    /// it chose, and its history.
    LeaderInfo {
        /// The proposed epoch.
        epoch: u64,
        /// The leader's last zxid: the history the follower takes, standing
        /// for the synchronization that is not simulated.
        zxid: u64,
    },
    /// Follower to leader (`ACKEPOCH`, the paper's ACK-E): epoch accepted.
    AckEpoch {
        /// The epoch acknowledged (ZooKeeper knows it from the connection).
        epoch: u64,
        /// A new promise: the follower's current epoch before it took the
        /// new one. `None` (ZooKeeper's -1): it had already accepted this
        /// epoch, and the answer is no new promise.
        current_epoch: Option<u64>,
    },
    /// Leader to follower: alive, with its last zxid (background).
    Ping {
        /// The leader's last zxid.
        zxid: u64,
    },
    /// Follower to leader: still here (background).
    PingReply,
    /// Leader to the resource, with its epoch as fencing token
    /// (background).
    Write {
        /// The fencing token.
        token: u64,
    },
    /// Observer to leader (`OBSERVERINFO`): "I observe you". An observer
    /// promises nothing, so it carries no epoch.
    ObserverInfo,
}

impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Notification { vote, round, state } => {
                write!(
                    f,
                    "Notification(vote {vote}, round {round}, {})",
                    state.name()
                )
            }
            Msg::FollowerInfo { accepted_epoch } => {
                write!(f, "FollowerInfo(accepted epoch {accepted_epoch})")
            }
            Msg::LeaderInfo { epoch, zxid } => {
                write!(
                    f,
                    "LeaderInfo(epoch {epoch}, history to {})",
                    zxid_text(*zxid)
                )
            }
            Msg::AckEpoch {
                epoch,
                current_epoch: Some(current),
            } => write!(f, "AckEpoch(epoch {epoch}, current epoch was {current})"),
            Msg::AckEpoch {
                epoch,
                current_epoch: None,
            } => {
                write!(f, "AckEpoch(epoch {epoch}, already accepted)")
            }
            Msg::Ping { zxid } => write!(f, "Ping(zxid {})", zxid_text(*zxid)),
            Msg::PingReply => write!(f, "PingReply"),
            Msg::Write { token } => write!(f, "Write(token {token})"),
            Msg::ObserverInfo => write!(f, "ObserverInfo"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::Notification { .. } => 0,
            Msg::FollowerInfo { .. } => 1,
            Msg::LeaderInfo { .. } => 2,
            Msg::AckEpoch { .. } => 3,
            Msg::Ping { .. } => 4,
            Msg::PingReply => 5,
            Msg::Write { .. } => 6,
            Msg::ObserverInfo => 7,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::Ping { .. } | Msg::PingReply | Msg::Write { .. } => Purpose::Background,
            _ => Purpose::Election,
        }
    }
}
