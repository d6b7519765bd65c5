//! ZooKeeper's leader election recipe (Apache ZooKeeper, "ZooKeeper
//! Recipes and Solutions", section "Leader Election"; P. Hunt, M. Konar,
//! F. Junqueira, B. Reed, "ZooKeeper: Wait-free coordination for
//! Internet-scale systems", USENIX ATC 2010) on the simulated coordination
//! service of [`super::service`].
//!
//! Nodes: clients `0..n-1`, the service `n`, the fenced resource `n+1`.
//!
//! Rules, as simulated here:
//! - A client opens a session (`CONNECT`/`CONNECTED`) and pings the service
//!   every `session_timeout/3` (`PING`/`PONG`, background). The service
//!   expires a session after `session_timeout` without a request, by its
//!   own clock, deleting the session's znodes and firing their watches.
//! - To join, a client creates an ephemeral sequential znode under
//!   `/election` (`CREATE`/`CREATED`) and lists the children
//!   (`GET_CHILDREN`/`CHILDREN`). The lowest sequence number leads. The
//!   others follow its owner and set one watch with `EXISTS` (answered by
//!   `STAT`): with `"watch": "predecessor"` (the recipe) on the znode just
//!   below their own, with `"watch": "herd"` on the lowest znode, so that
//!   the leader's failure wakes everyone (the herd effect the recipe warns
//!   about). A watched znode already gone means "list again".
//! - A `WATCH_EVENT` (the znode was deleted) makes the client list the
//!   children again and re-check: it leads if it is now the lowest,
//!   otherwise it watches again.
//! - Followers that do not watch the leader (predecessor watches) learn the
//!   new leader from the next `PONG`, which carries the lowest znode; a real
//!   client would read it when it needs it. No extra message is sent. A
//!   `PONG` naming the client's own znode as the lowest while it follows
//!   means a notification was lost (the simulated network may drop what
//!   TCP would not): it lists the children again.
//! - Session trouble. A request from an expired session is answered
//!   `SESSION_EXPIRED`: the client drops its role, opens a new session and
//!   creates a new (higher) znode. A client whose ping is still unanswered
//!   at two ping ticks in a row (`2/3 session_timeout`, ZooKeeper's client
//!   read timeout) counts its
//!   connection as lost and stops leading, as Apache Curator's LeaderLatch
//!   does when the connection is suspended; when a `PONG` comes back its
//!   session survived and it lists the children again (watches are set
//!   again). The leader of a paused process notices only after it resumes:
//!   its timers fire late, so the write that was due goes out before the
//!   `SESSION_EXPIRED` answer to its ping comes back.
//! - The leader writes to the resource every `write_ms` (`WRITE`,
//!   background) with its znode's sequence number as the fencing token.
//!   Sequence numbers only grow, so a newer leader always has a higher
//!   token, and with `"fencing": true` the resource rejects the writes of
//!   a stale leader.
//!
//! Roles carry a term: a client's term is its latest znode sequence number
//! (0 before its first), so the leader's term is its fencing token, terms
//! of one client only grow (kept across crashes), and no two clients ever
//! lead in the same term.
//!
//! Costs with no message loss: the first election is `6n - 2` election
//! messages (n `CREATE`, n `CREATED`, n `GET_CHILDREN`, n `CHILDREN`, n-1
//! `EXISTS`, n-1 `STAT`). A crashed leader is replaced one session timeout
//! after its last ping; with predecessor watches that costs 3 election
//! messages (1 `WATCH_EVENT`, 1 `GET_CHILDREN`, 1 `CHILDREN`); with herd
//! watches `5n - 7` (n-1 of each of the first three, n-2 `EXISTS` and
//! n-2 `STAT`).
//!
//! Safety: one leader per term, decided by the service. Known failures:
//! a paused or cut-off leader keeps believing it leads until it hears from
//! the service (two leaders at once, in different terms); only fencing
//! keeps its late writes out. While the service is down nobody can be
//! elected.
//!
//! Files: `recipe.rs` holds the recipe's steps (join, list, watch the
//! predecessor, lead; start there); `rules.rs` the handlers of messages
//! and timers; `serve.rs` the service's side: how it answers the
//! recipe's requests and fires its watches; `messages.rs` the messages
//! and their kinds; `inspect.rs` how a client looks in the inspector;
//! `tests.rs` the command-level tests. This file holds the entry and the
//! state they share.

mod inspect;
mod messages;
mod recipe;
mod rules;
mod serve;
#[cfg(test)]
mod tests;

pub use messages::Msg;

use crate::algorithms::extras::Node;
use crate::algorithms::service::{ServiceTimer, SessionId, Znode};
use crate::algorithms::{Entry, Layout, Observers, engine};
use crate::claims::{CONSENSUS, Claim, SERVICE_FAILOVER};
use crate::protocol::{Ctx, NodeId, Protocol};
use crate::scenario::WatchMode;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "CONNECT",
    "CONNECTED",
    "CREATE",
    "CREATED",
    "GET_CHILDREN",
    "CHILDREN",
    "EXISTS",
    "STAT",
    "WATCH_EVENT",
    "PING",
    "PONG",
    "SESSION_EXPIRED",
    "WRITE",
];

/// This algorithm's entry in the registry ([`crate::algorithms::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "zookeeper",
    name: "ZooKeeper recipe",
    summary: "ZooKeeper leader election recipe (Apache ZooKeeper recipes; Hunt et al., USENIX ATC 2010): ephemeral sequential znodes on a coordination service, the lowest leads, each client watches its predecessor (or everyone the leader: the herd effect); sessions expire, sequence numbers fence",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: ZooKeeper::EXTRAS,
    observers: Observers::NoneBecause(
        "the ZooKeeper recipe simulates its coordination service as one node, not an ensemble of servers, so it has no observers; use 0, or the algorithm zab (the ensemble's own election)",
    ),
    takes_script: false,
    claims: ZooKeeper::SAFETY,
    builder: Some(engine::<ZooKeeper>),
    theory: None,
    tradeoff: Some(Claim {
        why: &[SERVICE_FAILOVER],
        ..CONSENSUS
    }),
};

/// ZooKeeper recipe timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// A client that does not start at time 0 joins.
    Join,
    /// Client: time to ping (and to check the connection).
    Ping,
    /// Client: a recipe request went unanswered for a reply timeout.
    Step,
    /// Leader: time to write to the resource.
    Write,
    /// The service's session expiry.
    Service(ServiceTimer),
}

impl From<ServiceTimer> for Timer {
    fn from(t: ServiceTimer) -> Self {
        Timer::Service(t)
    }
}

/// Where a client is in the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Not joined yet (`start` did not name it).
    Waiting,
    /// Opening a session.
    Connecting,
    /// Creating its znode.
    Creating,
    /// Listing the children.
    Listing,
    /// Setting a watch on this znode.
    Checking(u64),
    /// Following; watching this znode.
    Watching(u64),
    /// Its znode is the lowest.
    Leading,
    /// No answer from the service for too long; waits for a `PONG`.
    Disconnected,
}

/// One client of the recipe.
#[derive(Debug, Clone)]
pub struct Client {
    id: NodeId,
    service: NodeId,
    resource: NodeId,
    watch: WatchMode,
    ping_us: u64,
    reply_timeout_us: u64,
    write_us: u64,
    phase: Phase,
    session: Option<SessionId>,
    znode: Option<u64>,
    term: u64,
    leader: Option<Znode>,
    connected: bool,
    /// Local time of the oldest request still unanswered (a ping, or the
    /// connect).
    unanswered_since: Option<i64>,
    /// Ping ticks that found that request still unanswered.
    silent_ticks: u32,
    sessions_opened: u64,
    watch_events: u64,
    writes_sent: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

/// Ping periods without an answer after which a client counts its
/// connection as lost: 2/3 of the session timeout, the ZooKeeper client's
/// read timeout.
const LOST_AFTER_TICKS: u32 = 2;

/// One node of the ZooKeeper recipe: a client, the service or the resource.
pub type ZooKeeper = Node<Client>;
