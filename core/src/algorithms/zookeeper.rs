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

use super::detector::leader_timeout;
use super::extras::{Node, Participant};
use super::service::{Service, ServiceTimer, SessionId, Znode};
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Extra, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::scenario::WatchMode;
use std::fmt;

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

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "zookeeper",
    name: "ZooKeeper recipe",
    summary: "ZooKeeper leader election recipe (Apache ZooKeeper recipes; Hunt et al., USENIX ATC 2010): ephemeral sequential znodes on a coordination service, the lowest leads, each client watches its predecessor (or everyone the leader: the herd effect); sessions expire, sequence numbers fence",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: ZooKeeper::EXTRAS,
    claims: ZooKeeper::SAFETY,
    builder: Some(engine::<ZooKeeper>),
    theory: None,
};

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

impl Client {
    fn announce(&self, ctx: &mut C<'_>, role: Role) {
        ctx.set_role(role, Some(self.term));
    }

    fn join(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Connecting;
        self.session = None;
        self.znode = None;
        self.connected = false;
        self.unanswered_since = Some(ctx.local_now_us());
        self.silent_ticks = 0;
        ctx.send(self.service, Msg::Connect);
        ctx.set_timer(Timer::Ping, self.ping_us);
    }

    fn create(&mut self, ctx: &mut C<'_>, session: SessionId) {
        self.phase = Phase::Creating;
        ctx.send(self.service, Msg::Create { session });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    fn list(&mut self, ctx: &mut C<'_>) {
        let Some(session) = self.session else {
            return;
        };
        self.phase = Phase::Listing;
        ctx.send(self.service, Msg::GetChildren { session });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    fn check(&mut self, ctx: &mut C<'_>, seq: u64) {
        let Some(session) = self.session else {
            return;
        };
        self.phase = Phase::Checking(seq);
        ctx.send(self.service, Msg::Exists { session, seq });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    fn adopt(&mut self, ctx: &mut C<'_>, seq: u64) {
        self.znode = Some(seq);
        self.term = self.term.max(seq);
        self.announce(ctx, Role::Candidate);
    }

    fn follow(&mut self, ctx: &mut C<'_>, lowest: Znode) {
        if self.phase == Phase::Leading {
            ctx.cancel_timer(Timer::Write);
        }
        self.leader = Some(lowest);
        self.announce(ctx, Role::Follower);
        ctx.set_leader(Some(lowest.owner));
    }

    fn become_leader(&mut self, ctx: &mut C<'_>, seq: u64) {
        ctx.cancel_timer(Timer::Step);
        self.phase = Phase::Leading;
        self.leader = Some(Znode {
            seq,
            owner: self.id,
            session: self.session.unwrap_or_default(),
        });
        self.announce(ctx, Role::Leader);
        ctx.set_leader(Some(self.id));
        ctx.note_with(|| {
            format!("its znode #{seq} is the lowest: it leads, with fencing token {seq}")
        });
        self.write(ctx);
    }

    fn write(&mut self, ctx: &mut C<'_>) {
        self.writes_sent += 1;
        ctx.send(self.resource, Msg::Write { token: self.term });
        ctx.set_timer(Timer::Write, self.write_us);
    }

    /// Gives up any role: the client no longer knows who leads.
    fn drop_role(&mut self, ctx: &mut C<'_>) {
        if self.phase == Phase::Leading {
            ctx.cancel_timer(Timer::Write);
        }
        ctx.cancel_timer(Timer::Step);
        self.leader = None;
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
    }

    fn on_children(&mut self, ctx: &mut C<'_>, children: &[Znode]) {
        let (Phase::Listing, Some(session)) = (self.phase, self.session) else {
            return;
        };
        ctx.cancel_timer(Timer::Step);
        let Some(mine) = children.iter().find(|z| z.session == session).copied() else {
            // The CREATE never reached the service.
            self.znode = None;
            self.create(ctx, session);
            return;
        };
        if self.znode != Some(mine.seq) {
            ctx.note_with(|| format!("finds its own znode #{} in the list", mine.seq));
            self.adopt(ctx, mine.seq);
        }
        let lowest = children[0];
        if lowest.seq == mine.seq {
            self.become_leader(ctx, mine.seq);
            return;
        }
        self.follow(ctx, lowest);
        let target = match self.watch {
            WatchMode::Herd => lowest,
            WatchMode::Predecessor => children
                .iter()
                .take_while(|z| z.seq < mine.seq)
                .last()
                .copied()
                .unwrap_or(lowest),
        };
        self.check(ctx, target.seq);
    }

    fn on_pong(&mut self, ctx: &mut C<'_>, lowest: Option<Znode>) {
        if self.session.is_none() {
            return; // a late answer for a session already given up
        }
        self.unanswered_since = None;
        self.silent_ticks = 0;
        if !self.connected {
            self.connected = true;
            ctx.note(
                "hears from the service again: its session survived; lists the children again",
            );
            self.list(ctx);
            return;
        }
        let (Phase::Watching(_) | Phase::Checking(_), Some(l)) = (self.phase, lowest) else {
            return;
        };
        if Some(l.session) == self.session {
            // Only if a notification was lost: with a reliable link the
            // watch fires before this answer arrives.
            ctx.note(
                "the keepalive answer says its own znode is the lowest, but no watch fired; checks",
            );
            self.announce(ctx, Role::Candidate);
            self.list(ctx);
        } else if self.leader.is_none_or(|known| known.seq != l.seq) {
            ctx.note_with(|| {
                format!(
                    "learns from the keepalive answer that n{} (#{}) leads now",
                    l.owner, l.seq
                )
            });
            self.follow(ctx, l);
        }
    }

    fn on_ping_tick(&mut self, ctx: &mut C<'_>) {
        ctx.set_timer(Timer::Ping, self.ping_us);
        let now = ctx.local_now_us();
        let quiet = self.unanswered_since.map_or(0, |t| now - t);
        // Counted in ticks rather than read off the clock, so a client that
        // was paused first reads what arrived meanwhile: the answers to its
        // last ping are not "late" because it was not looking.
        if self.unanswered_since.is_some() {
            self.silent_ticks += 1;
        }
        let lost = self.silent_ticks >= LOST_AFTER_TICKS;
        let Some(session) = self.session else {
            if self.phase == Phase::Connecting && lost {
                ctx.note("no answer to CONNECT; asks again");
                self.unanswered_since = Some(now);
                self.silent_ticks = 0;
                ctx.send(self.service, Msg::Connect);
            }
            return;
        };
        if lost && self.connected {
            self.connected = false;
            let leading = self.phase == Phase::Leading;
            ctx.note_with(|| {
                let ms = quiet as f64 / 1000.0;
                if leading {
                    format!(
                        "no answer from the service for {ms} ms: connection lost, its session may have expired, so it stops leading"
                    )
                } else {
                    format!("no answer from the service for {ms} ms: connection lost")
                }
            });
            self.drop_role(ctx);
            self.phase = Phase::Disconnected;
        }
        ctx.send(self.service, Msg::Ping { session });
        if self.unanswered_since.is_none() {
            self.unanswered_since = Some(now);
        }
    }
}

/// One node of the ZooKeeper recipe: a client, the service or the resource.
pub type ZooKeeper = Node<Client>;

impl Protocol for Client {
    type Msg = Msg;
    type Timer = Timer;
    /// A client's term: its latest znode sequence number.
    type Persistent = u64;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;
    const EXTRAS: &'static [Extra] = &[Extra::Service, Extra::Resource];

    fn new(id: NodeId, config: &Config, term: &u64) -> Self {
        let session_us = config.timing.session_timeout_us;
        Self {
            id,
            service: config.service.unwrap_or(config.n),
            resource: config.resource.unwrap_or(config.n + 1),
            watch: config.options.watch,
            ping_us: (session_us / 3).max(1),
            reply_timeout_us: config.reply_timeout_us,
            write_us: config.timing.write_us.max(1),
            phase: Phase::Waiting,
            session: None,
            znode: None,
            term: *term,
            leader: None,
            connected: false,
            unanswered_since: None,
            silent_ticks: 0,
            sessions_opened: 0,
            watch_events: 0,
            writes_sent: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx, Role::Candidate);
        match boot {
            Boot::Fresh { initiate: true } => self.join(ctx),
            Boot::Fresh { initiate: false } => {
                let t = leader_timeout(ctx);
                ctx.set_timer(Timer::Join, t);
            }
            Boot::Recover => {
                ctx.note("recovered with no session; opens a new one and joins again");
                self.join(ctx);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, _from: NodeId, msg: Msg) {
        match msg {
            Msg::Connected { session } => {
                if self.phase != Phase::Connecting {
                    return; // a late answer to a repeated CONNECT: that session just expires
                }
                self.session = Some(session);
                self.connected = true;
                self.unanswered_since = None;
                self.silent_ticks = 0;
                self.sessions_opened += 1;
                ctx.election_started();
                ctx.note_with(|| {
                    format!(
                        "opens session {session} and joins the election: creates an ephemeral sequential znode under /election"
                    )
                });
                self.create(ctx, session);
            }
            Msg::Created { znode } => {
                if self.phase == Phase::Creating && Some(znode.session) == self.session {
                    self.adopt(ctx, znode.seq);
                    self.list(ctx);
                }
            }
            Msg::Children { children } => self.on_children(ctx, &children),
            Msg::Stat { seq, exists } => {
                if self.phase != Phase::Checking(seq) {
                    return;
                }
                ctx.cancel_timer(Timer::Step);
                if exists {
                    self.phase = Phase::Watching(seq);
                } else {
                    ctx.note_with(|| format!("#{seq} is already gone; lists the children again"));
                    self.list(ctx);
                }
            }
            Msg::WatchEvent { seq } => {
                self.watch_events += 1;
                if !matches!(self.phase, Phase::Watching(s) | Phase::Checking(s) if s == seq) {
                    return;
                }
                ctx.election_started();
                if self.leader.is_some_and(|l| l.seq == seq) {
                    let owner = self.leader.map_or(0, |l| l.owner);
                    ctx.note_with(|| {
                        format!(
                            "watch fired: leader n{owner}'s znode #{seq} is deleted; lists the children to see who is lowest now"
                        )
                    });
                    self.leader = None;
                    ctx.set_leader(None);
                } else {
                    ctx.note_with(|| {
                        format!("watch fired: its predecessor #{seq} is deleted; checks again")
                    });
                }
                self.announce(ctx, Role::Candidate);
                self.list(ctx);
            }
            Msg::Pong { lowest } => self.on_pong(ctx, lowest),
            Msg::SessionExpired { session } => {
                if Some(session) != self.session {
                    return;
                }
                if self.phase == Phase::Leading {
                    ctx.note_with(|| {
                        format!(
                            "learns that its session {session} expired: its znode is gone and it is no longer the leader; joins again"
                        )
                    });
                } else {
                    ctx.note_with(|| {
                        format!("learns that its session {session} expired; joins again")
                    });
                }
                self.drop_role(ctx);
                self.join(ctx);
            }
            // Requests and writes are not for clients.
            Msg::Connect
            | Msg::Create { .. }
            | Msg::GetChildren { .. }
            | Msg::Exists { .. }
            | Msg::Ping { .. }
            | Msg::Write { .. } => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Join => {
                if self.phase == Phase::Waiting {
                    self.join(ctx);
                }
            }
            Timer::Ping => self.on_ping_tick(ctx),
            Timer::Step => {
                if !self.connected {
                    return; // the reconnection lists again
                }
                match self.phase {
                    // The create may have gone through: look for it first.
                    Phase::Creating | Phase::Listing => self.list(ctx),
                    Phase::Checking(seq) => self.check(ctx, seq),
                    _ => {}
                }
            }
            Timer::Write => {
                if self.phase == Phase::Leading {
                    self.write(ctx);
                }
            }
            Timer::Service(_) => {}
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // A client not named by `start` joins after a drawn delay.
            Timer::Join => TimerClass::Retry,
            Timer::Ping => TimerClass::Heartbeat,
            // A recipe request unanswered for a reply timeout.
            Timer::Step => TimerClass::ReplyWait,
            Timer::Write => TimerClass::Write,
            // The service's session expiry (never armed on a client).
            Timer::Service(_) => TimerClass::LeaseExpiry,
        }
    }

    fn persistent(&self) -> u64 {
        self.term
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |v: Option<u64>, f: &dyn Fn(u64) -> String| v.map_or("none".to_string(), f);
        vec![
            ("kind", "client".to_string()),
            ("service", format!("n{}", self.service)),
            ("resource", format!("n{}", self.resource)),
            ("phase", format!("{:?}", self.phase)),
            ("watch", format!("{:?}", self.watch).to_ascii_lowercase()),
            ("session", opt(self.session, &|s| s.to_string())),
            ("znode", opt(self.znode, &|s| format!("#{s}"))),
            ("term (latest znode)", self.term.to_string()),
            (
                "leader",
                self.leader
                    .map_or("none".to_string(), |l| format!("n{} (#{})", l.owner, l.seq)),
            ),
            ("connected", self.connected.to_string()),
            (
                "unanswered since",
                self.unanswered_since
                    .map_or("nothing pending".to_string(), |t| {
                        format!("{} ms (local)", t as f64 / 1000.0)
                    }),
            ),
            ("ping every", format!("{} ms", self.ping_us as f64 / 1000.0)),
            (
                "request retry after",
                format!("{} ms", self.reply_timeout_us as f64 / 1000.0),
            ),
            (
                "write every",
                format!("{} ms", self.write_us as f64 / 1000.0),
            ),
            (
                "silent ping periods",
                format!(
                    "{} (connection lost at {LOST_AFTER_TICKS})",
                    self.silent_ticks
                ),
            ),
            ("sessions opened", self.sessions_opened.to_string()),
            ("watch events received", self.watch_events.to_string()),
            ("writes sent", self.writes_sent.to_string()),
        ]
    }
}

/// The service serves the recipe's requests and fires its watches; the
/// resource takes the leader's `WRITE`s.
impl Participant for Client {
    fn write_token(msg: &Msg) -> Option<u64> {
        match msg {
            Msg::Write { token } => Some(*token),
            _ => None,
        }
    }

    fn start_service(service: &mut Service, ctx: &mut C<'_>, boot: Boot) {
        service.on_start(ctx, boot);
    }

    fn serve(svc: &mut Service, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        let expired = |ctx: &mut C<'_>, session| ctx.send(from, Msg::SessionExpired { session });
        match msg {
            Msg::Connect => {
                let session = svc.connect(ctx, from);
                ctx.send(from, Msg::Connected { session });
            }
            Msg::Create { session } => match svc.create(ctx, session) {
                Some(znode) => ctx.send(from, Msg::Created { znode }),
                None => expired(ctx, session),
            },
            Msg::GetChildren { session } => {
                if svc.touch(ctx, session) {
                    let children = svc.children();
                    ctx.send(from, Msg::Children { children });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Exists { session, seq } => {
                if svc.touch(ctx, session) {
                    let exists = svc.exists_watch(session, seq);
                    ctx.send(from, Msg::Stat { seq, exists });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Ping { session } => {
                if svc.touch(ctx, session) {
                    let lowest = svc.lowest();
                    ctx.send(from, Msg::Pong { lowest });
                } else {
                    expired(ctx, session);
                }
            }
            Msg::Connected { .. }
            | Msg::Created { .. }
            | Msg::Children { .. }
            | Msg::Stat { .. }
            | Msg::WatchEvent { .. }
            | Msg::Pong { .. }
            | Msg::SessionExpired { .. }
            | Msg::Write { .. } => {}
        }
    }

    fn service_timer(service: &mut Service, ctx: &mut C<'_>, timer: Timer) {
        if let Timer::Service(t) = timer {
            for n in service.on_timer(ctx, t) {
                ctx.send(n.to, Msg::WatchEvent { seq: n.seq });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (the ZooKeeper recipe, "Leader
    //! Election"; the session rules of the ZooKeeper Programmer's Guide).
    use super::*;
    use crate::ScenarioExt;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, ctx_commands, sends};
    use crate::scenario::Scenario;

    /// n clients: the service is n, the resource n + 1.
    fn config(n: u32, watch: &str) -> Config {
        let json = format!(r#"{{"algorithm":"zookeeper","nodes":{n},"watch":"{watch}"}}"#);
        Config::from_scenario(&Scenario::from_json(&json).unwrap(), ZooKeeper::EXTRAS)
    }

    fn z(seq: u64, owner: NodeId) -> Znode {
        Znode {
            seq,
            owner,
            session: u64::from(owner) + 100,
        }
    }

    /// Client `id` with session `id + 100` and znode `seq`, listing.
    fn listing(id: NodeId, seq: u64, c: &Config) -> Client {
        let mut client = Client::new(id, c, &seq);
        client.session = Some(u64::from(id) + 100);
        client.znode = Some(seq);
        client.connected = true;
        client.phase = Phase::Listing;
        client
    }

    /// Runs `f` on a client (not a whole node) and returns its commands.
    fn on(
        client: &mut Client,
        c: &Config,
        f: impl FnOnce(&mut Client, &mut C<'_>),
    ) -> Vec<Command<Msg, Timer>> {
        let id = client.id;
        ctx_commands(id, c, |ctx| f(client, ctx))
    }

    fn roles<M, T>(out: &[Command<M, T>]) -> Vec<(Role, Option<u64>)> {
        out.iter()
            .filter_map(|c| match c {
                Command::Role { role, term } => Some((*role, *term)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_client_opens_a_session_then_creates_its_znode() {
        let c = config(3, "predecessor");
        let mut node = ZooKeeper::new(1, &c, &Default::default());
        let out = commands(&mut node, 1, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: true })
        });
        assert_eq!(sends(&out), vec![(3, Msg::Connect)]);
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(0))]);
        let out = commands(&mut node, 1, &c, |p, ctx| {
            p.on_message(ctx, 3, Msg::Connected { session: 7 })
        });
        assert_eq!(sends(&out), vec![(3, Msg::Create { session: 7 })]);
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        let out = commands(&mut node, 1, &c, |p, ctx| {
            p.on_message(
                ctx,
                3,
                Msg::Created {
                    znode: Znode {
                        seq: 4,
                        owner: 1,
                        session: 7,
                    },
                },
            )
        });
        assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 7 })]);
        assert_eq!(
            roles(&out),
            vec![(Role::Candidate, Some(4))],
            "the term is the znode's sequence number"
        );
    }

    #[test]
    fn the_lowest_znode_leads_and_writes_with_its_sequence_number() {
        let c = config(3, "predecessor");
        let mut client = listing(2, 5, &c);
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(5, 2), z(6, 0), z(9, 1)])
        });
        assert_eq!(roles(&out), vec![(Role::Leader, Some(5))]);
        assert_eq!(sends(&out), vec![(4, Msg::Write { token: 5 })]);
        assert_eq!(client.phase, Phase::Leading);
    }

    #[test]
    fn with_predecessor_watches_a_client_watches_the_znode_just_below_its_own() {
        let c = config(3, "predecessor");
        let mut client = listing(2, 5, &c);
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(1, 0), z(3, 1), z(5, 2)])
        });
        assert_eq!(
            sends(&out),
            vec![(
                3,
                Msg::Exists {
                    session: 102,
                    seq: 3
                }
            )]
        );
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(0)))));
        assert_eq!(roles(&out), vec![(Role::Follower, Some(5))]);
    }

    #[test]
    fn with_herd_watches_every_client_watches_the_lowest() {
        let c = config(3, "herd");
        let mut client = listing(2, 5, &c);
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(1, 0), z(3, 1), z(5, 2)])
        });
        assert_eq!(
            sends(&out),
            vec![(
                3,
                Msg::Exists {
                    session: 102,
                    seq: 1
                }
            )]
        );
    }

    #[test]
    fn a_watch_event_makes_the_client_list_again() {
        let c = config(3, "herd");
        let mut client = listing(2, 5, &c);
        on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(1, 0), z(5, 2)])
        });
        on(&mut client, &c, |cl, ctx| {
            cl.on_message(
                ctx,
                c.n,
                Msg::Stat {
                    seq: 1,
                    exists: true,
                },
            )
        });
        assert_eq!(client.phase, Phase::Watching(1));
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_message(ctx, c.n, Msg::WatchEvent { seq: 1 })
        });
        assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 102 })]);
        assert!(out.iter().any(|c| matches!(c, Command::Leader(None))));
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(5))]);
    }

    #[test]
    fn a_watched_znode_already_gone_means_list_again() {
        let c = config(3, "predecessor");
        let mut client = listing(2, 5, &c);
        on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(1, 0), z(5, 2)])
        });
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_message(
                ctx,
                c.n,
                Msg::Stat {
                    seq: 1,
                    exists: false,
                },
            )
        });
        assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 102 })]);
    }

    #[test]
    fn an_expired_session_ends_leadership_and_the_client_joins_again() {
        let c = config(3, "predecessor");
        let mut client = listing(0, 2, &c);
        on(&mut client, &c, |cl, ctx| cl.on_children(ctx, &[z(2, 0)]));
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_message(ctx, c.n, Msg::SessionExpired { session: 100 })
        });
        assert_eq!(sends(&out), vec![(3, Msg::Connect)]);
        assert!(
            out.iter()
                .any(|c| matches!(c, Command::CancelTimer(Timer::Write)))
        );
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(2))]);
        assert_eq!((client.session, client.znode), (None, None));
    }

    #[test]
    fn two_silent_ping_periods_mean_connection_lost_and_the_leader_stops() {
        let c = config(3, "predecessor");
        let mut client = listing(0, 2, &c);
        on(&mut client, &c, |cl, ctx| cl.on_children(ctx, &[z(2, 0)]));
        for tick in 0..2 {
            let out = on(&mut client, &c, |cl, ctx| cl.on_ping_tick(ctx));
            assert_eq!(sends(&out), vec![(3, Msg::Ping { session: 100 })]);
            assert!(roles(&out).is_empty(), "tick {tick}: still leads");
        }
        let out = on(&mut client, &c, |cl, ctx| cl.on_ping_tick(ctx));
        assert_eq!(roles(&out), vec![(Role::Candidate, Some(2))]);
        assert_eq!(client.phase, Phase::Disconnected);
        // An answer: the session lived; the client checks again.
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_message(
                ctx,
                c.n,
                Msg::Pong {
                    lowest: Some(z(2, 0)),
                },
            )
        });
        assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 100 })]);
    }

    #[test]
    fn a_follower_learns_the_new_leader_from_the_keepalive_answer() {
        let c = config(4, "predecessor");
        let mut client = listing(3, 7, &c);
        on(&mut client, &c, |cl, ctx| {
            cl.on_children(ctx, &[z(1, 0), z(4, 1), z(7, 3)])
        });
        let out = on(&mut client, &c, |cl, ctx| {
            cl.on_message(
                ctx,
                c.n,
                Msg::Pong {
                    lowest: Some(z(4, 1)),
                },
            )
        });
        assert!(sends(&out).is_empty(), "no extra message");
        assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(1)))));
    }

    #[test]
    fn the_service_answers_an_unknown_session_with_session_expired() {
        let c = config(2, "predecessor");
        let mut node = ZooKeeper::new(2, &c, &Default::default());
        let out = commands(&mut node, 2, &c, |p, ctx| {
            p.on_message(ctx, 0, Msg::Ping { session: 9 })
        });
        assert_eq!(sends(&out), vec![(0, Msg::SessionExpired { session: 9 })]);
        let out = commands(&mut node, 2, &c, |p, ctx| {
            p.on_message(ctx, 1, Msg::Connect)
        });
        assert_eq!(sends(&out), vec![(1, Msg::Connected { session: 0 })]);
    }

    #[test]
    fn session_expiry_on_the_service_fires_the_watch_as_a_watch_event() {
        let c = config(2, "predecessor");
        let mut node = ZooKeeper::new(2, &c, &Default::default());
        commands(&mut node, 2, &c, |p, ctx| {
            p.on_message(ctx, 0, Msg::Connect);
            p.on_message(ctx, 1, Msg::Connect);
            p.on_message(ctx, 0, Msg::Create { session: 0 });
            p.on_message(ctx, 1, Msg::Create { session: 1 });
            p.on_message(ctx, 1, Msg::Exists { session: 1, seq: 0 });
        });
        let Node::Service(svc) = &mut node else {
            panic!("node 2 is the service")
        };
        let fired = ctx_commands(2, &c, |ctx: &mut C<'_>| {
            for n in svc.expire(ctx, 0) {
                ctx.send(n.to, Msg::WatchEvent { seq: n.seq });
            }
        });
        assert_eq!(sends(&fired), vec![(1, Msg::WatchEvent { seq: 0 })]);
    }

    #[test]
    fn the_service_keeps_its_znodes_across_a_crash() {
        let c = config(2, "predecessor");
        let mut node = ZooKeeper::new(2, &c, &Default::default());
        commands(&mut node, 2, &c, |p, ctx| {
            p.on_message(ctx, 0, Msg::Connect);
            p.on_message(ctx, 0, Msg::Create { session: 0 });
        });
        let mut back = ZooKeeper::new(2, &c, &node.persistent());
        let out = commands(&mut back, 2, &c, |p, ctx| {
            p.on_start(ctx, Boot::Recover);
            p.on_message(ctx, 0, Msg::Ping { session: 0 });
        });
        assert_eq!(
            sends(&out),
            vec![(
                0,
                Msg::Pong {
                    lowest: Some(Znode {
                        seq: 0,
                        owner: 0,
                        session: 0
                    })
                }
            )]
        );
    }
}
