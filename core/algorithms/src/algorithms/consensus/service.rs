//! A simulated coordination service: one logical node standing for a
//! replicated ZooKeeper ensemble or the Kubernetes API server with etcd
//! behind it. Both election recipes run on it: [`super::zookeeper`] uses
//! its sessions, znodes and watches, [`super::lease`] its Lease object.
//!
//! What it offers (each algorithm wraps the answers in its own messages):
//! - Sessions. A client opens one and keeps it alive with pings; any
//!   request counts as a sign of life. A session expires when nothing
//!   arrived from it for `timing.session_timeout_ms`, measured on the
//!   *service's* clock (one expiry timer per session). Expiry deletes the
//!   session's ephemeral znodes and fires the watches set on them.
//! - Ephemeral sequential znodes under `/election`: a create returns the
//!   next sequence number (they only grow, across crashes of the service
//!   too); `children` lists them in sequence order.
//! - One-shot watches on one znode (`exists(path, watch)`): when the znode
//!   is deleted the watching session's client gets one notification and
//!   the watch is gone. Watching a znode that no longer exists sets no
//!   watch (ZooKeeper would leave a watch for its re-creation, which can
//!   never happen to a sequential name).
//! - A Lease object as in Kubernetes' `coordination.k8s.io/v1` Lease:
//!   holder, `resourceVersion` (bumped by the service on every write),
//!   `leaseTransitions`, acquire and renew times (written by clients from
//!   their own clocks, shown but never judged by the service) and the
//!   lease duration. Clients write it with compare-and-swap on the version
//!   (optimistic concurrency): a write that names an old version fails and
//!   returns the current object.
//!
//! Durability: ZooKeeper's data tree and session table are replicated and
//! logged, and so is everything in etcd, so a crash of this node keeps the
//! [`Store`] (znodes, sessions, counters, the Lease). The watches are kept
//! too: a real server holds them in memory, but the client library sets
//! them again when it reconnects (`SetWatches`), so from the recipe's view
//! they survive an outage (a client here may not even notice a short one).
//! What is lost is the session clocks: on recovery every session gets a
//! fresh timeout from the moment the service is back, as a new ZooKeeper
//! leader does for the sessions it inherits, so an outage does not expire
//! every client at once.

use crate::protocol::{Boot, Config, Ctx, NodeId, Role};
use crate::vec_map::VecMap;
use std::fmt;

/// A session id, handed out by the service.
pub type SessionId = u64;

/// One ephemeral sequential znode under `/election`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Znode {
    /// Its sequence number (the `0000000007` suffix of its name).
    pub seq: u64,
    /// The client that created it (the recipe's GUID part of the name).
    pub owner: NodeId,
    /// The session it belongs to; it lives as long as the session.
    pub session: SessionId,
}

/// `#7 n2`: sequence number and owner, as the trace shows it.
impl fmt::Debug for Znode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} n{}", self.seq, self.owner)
    }
}

/// The Kubernetes-style Lease object (`LeaderElectionRecord`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LeaseRecord {
    /// `holderIdentity`; `None` when nobody ever took it.
    pub holder: Option<NodeId>,
    /// `resourceVersion`: the service bumps it on every successful write.
    pub version: u64,
    /// `leaseTransitions`: how often the lease changed hands.
    pub transitions: u64,
    /// `acquireTime`: the holder's local clock when it took the lease, µs.
    pub acquire_time_us: i64,
    /// `renewTime`: the holder's local clock at its last renewal, µs.
    pub renew_time_us: i64,
    /// `leaseDurationSeconds`, in µs.
    pub duration_us: u64,
}

/// `v4 held by n2 (transitions 3)`, as the trace shows it.
impl fmt::Debug for LeaseRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.holder {
            Some(h) => write!(
                f,
                "v{} held by n{h}, transitions {}",
                self.version, self.transitions
            ),
            None => write!(f, "v{} free", self.version),
        }
    }
}

/// The state that survives a crash of the service (it is replicated).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Store {
    /// Open sessions and their clients.
    pub sessions: VecMap<SessionId, NodeId>,
    /// Znodes under `/election`, by sequence number.
    pub znodes: VecMap<u64, Znode>,
    /// The next sequence number.
    pub next_seq: u64,
    /// The next session id.
    pub next_session: SessionId,
    /// The Lease object.
    pub lease: LeaseRecord,
    /// Watches by znode: the sessions to notify once on its deletion,
    /// ascending.
    pub watches: VecMap<u64, Vec<SessionId>>,
}

/// The service's own timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServiceTimer {
    /// Nothing heard from this session for a whole session timeout.
    SessionExpiry(SessionId),
}

/// A watch fired: tell client `to` that znode `seq` was deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notification {
    /// The watching client.
    pub to: NodeId,
    /// The deleted znode.
    pub seq: u64,
}

/// The answer to a compare-and-swap write of the Lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseWrite {
    /// Written; the new object.
    Written(LeaseRecord),
    /// The expected version was not the current one; the current object.
    Conflict(LeaseRecord),
}

/// The coordination service node.
#[derive(Debug, Clone)]
pub struct Service {
    store: Store,
    session_timeout_us: u64,
    /// Local time of the last request of each session (volatile).
    last_heard: VecMap<SessionId, i64>,
    sessions_expired: u64,
    notifications_sent: u64,
}

impl Service {
    /// The service, from its replicated store (empty at first start).
    pub fn new(config: &Config, store: &Store) -> Self {
        Self {
            store: store.clone(),
            session_timeout_us: config.timing.session_timeout_us,
            last_heard: VecMap::new(),
            sessions_expired: 0,
            notifications_sent: 0,
        }
    }

    /// Announces the service role; after a crash, restarts every session's
    /// clock (see the module docs).
    pub fn on_start<M, T: From<ServiceTimer>>(&mut self, ctx: &mut Ctx<'_, M, T>, boot: Boot) {
        ctx.set_role(Role::Service, None);
        if boot == Boot::Recover {
            let sessions: Vec<SessionId> = self.store.sessions.keys().copied().collect();
            for &s in &sessions {
                self.heard(ctx, s);
            }
            let (s, z) = (sessions.len(), self.store.znodes.len());
            ctx.note_with(|| {
                format!(
                    "back with its replicated data: {s} sessions, {z} znodes, their watches, the Lease; every session gets a fresh timeout"
                )
            });
        }
    }

    fn heard<M, T: From<ServiceTimer>>(&mut self, ctx: &mut Ctx<'_, M, T>, session: SessionId) {
        self.last_heard.insert(session, ctx.local_now_us());
        ctx.set_timer(
            ServiceTimer::SessionExpiry(session).into(),
            self.session_timeout_us,
        );
    }

    /// Opens a session for `client`.
    pub fn connect<M, T: From<ServiceTimer>>(
        &mut self,
        ctx: &mut Ctx<'_, M, T>,
        client: NodeId,
    ) -> SessionId {
        let session = self.store.next_session;
        self.store.next_session += 1;
        self.store.sessions.insert(session, client);
        self.heard(ctx, session);
        session
    }

    /// A request arrived from `session`: keeps it alive. False if the
    /// session does not exist (expired, or never opened).
    pub fn touch<M, T: From<ServiceTimer>>(
        &mut self,
        ctx: &mut Ctx<'_, M, T>,
        session: SessionId,
    ) -> bool {
        if !self.store.sessions.contains_key(&session) {
            return false;
        }
        self.heard(ctx, session);
        true
    }

    /// Creates an ephemeral sequential znode for `session`; `None` if the
    /// session does not exist. A session that already has a znode gets that
    /// one back: the recipe's protection against a create that went through
    /// although its answer was lost (ZooKeeper's recipe puts the client's
    /// GUID in the name and looks for it before creating again; here the
    /// network may also deliver a request twice).
    pub fn create<M, T: From<ServiceTimer>>(
        &mut self,
        ctx: &mut Ctx<'_, M, T>,
        session: SessionId,
    ) -> Option<Znode> {
        if !self.touch(ctx, session) {
            return None;
        }
        if let Some(existing) = self.store.znodes.values().find(|z| z.session == session) {
            return Some(*existing);
        }
        let Some(&owner) = self.store.sessions.get(&session) else {
            return None; // touched just above, so it exists
        };
        let znode = Znode {
            seq: self.store.next_seq,
            owner,
            session,
        };
        self.store.next_seq += 1;
        self.store.znodes.insert(znode.seq, znode);
        Some(znode)
    }

    /// Every znode under `/election`, in sequence order.
    pub fn children(&self) -> Vec<Znode> {
        self.store.znodes.values().copied().collect()
    }

    /// The znode with the lowest sequence number (the recipe's leader).
    pub fn lowest(&self) -> Option<Znode> {
        self.store.znodes.values().next().copied()
    }

    /// `exists(seq, watch=true)`: whether the znode exists; if it does,
    /// `session` is notified once when it is deleted.
    pub fn exists_watch(&mut self, session: SessionId, seq: u64) -> bool {
        if !self.store.znodes.contains_key(&seq) {
            return false;
        }
        let watchers = self.store.watches.get_or_insert(seq, Vec::new());
        if let Err(at) = watchers.binary_search(&session) {
            watchers.insert(at, session);
        }
        true
    }

    /// A service timer fired; returns the notifications to send.
    pub fn on_timer<M, T>(
        &mut self,
        ctx: &mut Ctx<'_, M, T>,
        timer: ServiceTimer,
    ) -> Vec<Notification> {
        let ServiceTimer::SessionExpiry(session) = timer;
        let quiet = self
            .last_heard
            .get(&session)
            .map(|&t| ctx.local_now_us() - t);
        match quiet {
            Some(q) if q >= self.session_timeout_us as i64 => self.expire(ctx, session),
            _ => Vec::new(),
        }
    }

    /// Ends `session`: deletes its ephemeral znodes, drops its watches and
    /// fires the watches set on the deleted znodes.
    pub fn expire<M, T>(
        &mut self,
        ctx: &mut Ctx<'_, M, T>,
        session: SessionId,
    ) -> Vec<Notification> {
        let Some(owner) = self.store.sessions.remove(&session) else {
            return Vec::new();
        };
        self.last_heard.remove(&session);
        self.sessions_expired += 1;
        for watchers in self.store.watches.values_mut() {
            watchers.retain(|&s| s != session);
        }
        self.store.watches.retain(|_, w| !w.is_empty());
        let deleted: Vec<u64> = self
            .store
            .znodes
            .values()
            .filter(|z| z.session == session)
            .map(|z| z.seq)
            .collect();
        let mut out = Vec::new();
        for &seq in &deleted {
            self.store.znodes.remove(&seq);
            for watcher in self.store.watches.remove(&seq).unwrap_or_default() {
                if let Some(&to) = self.store.sessions.get(&watcher) {
                    out.push(Notification { to, seq });
                }
            }
        }
        self.notifications_sent += out.len() as u64;
        let timeout_ms = self.session_timeout_us / 1000;
        ctx.note_with(|| {
            let gone: Vec<String> = deleted.iter().map(|s| format!("#{s}")).collect();
            let told: Vec<String> = out.iter().map(|n| format!("n{}", n.to)).collect();
            format!(
                "session {session} of n{owner} expires: nothing from it for {timeout_ms} ms; deletes its znodes [{}] and notifies the watchers [{}]",
                gone.join(" "),
                told.join(" ")
            )
        });
        out
    }

    /// The Lease object as stored.
    pub fn lease(&self) -> LeaseRecord {
        self.store.lease
    }

    /// Compare-and-swap on the Lease: writes `proposed` if `expected` is
    /// the current version (the service sets the new version).
    pub fn write_lease(&mut self, expected: u64, proposed: LeaseRecord) -> LeaseWrite {
        if expected != self.store.lease.version {
            return LeaseWrite::Conflict(self.store.lease);
        }
        self.store.lease = LeaseRecord {
            version: expected + 1,
            ..proposed
        };
        LeaseWrite::Written(self.store.lease)
    }

    /// The replicated part, kept across a crash.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Every field, for the inspector.
    pub fn inspect(&self) -> Vec<(&'static str, String)> {
        let sessions: Vec<String> = self
            .store
            .sessions
            .iter()
            .map(|(s, c)| match self.last_heard.get(s) {
                Some(t) => format!("{s}: n{c} (last heard {} ms)", *t as f64 / 1000.0),
                None => format!("{s}: n{c}"),
            })
            .collect();
        let znodes: Vec<String> = self
            .store
            .znodes
            .values()
            .map(|z| format!("#{} n{} (session {})", z.seq, z.owner, z.session))
            .collect();
        let watches: Vec<String> = self
            .store
            .watches
            .iter()
            .map(|(seq, w)| {
                let s: Vec<String> = w.iter().map(|s| s.to_string()).collect();
                format!("#{seq} by sessions {}", s.join(","))
            })
            .collect();
        let l = &self.store.lease;
        vec![
            ("kind", "coordination service".to_string()),
            (
                "session timeout",
                format!("{} ms", self.session_timeout_us as f64 / 1000.0),
            ),
            ("sessions", sessions.join("; ")),
            ("znodes", znodes.join("; ")),
            ("next sequence number", self.store.next_seq.to_string()),
            ("next session id", self.store.next_session.to_string()),
            ("watches", watches.join("; ")),
            (
                "lease holder",
                l.holder.map_or("none".into(), |h| format!("n{h}")),
            ),
            ("lease version", l.version.to_string()),
            ("lease transitions", l.transitions.to_string()),
            (
                "lease acquire time",
                format!("{} ms (holder's clock)", l.acquire_time_us as f64 / 1000.0),
            ),
            (
                "lease renew time",
                format!("{} ms (holder's clock)", l.renew_time_us as f64 / 1000.0),
            ),
            (
                "lease duration",
                format!("{} ms", l.duration_us as f64 / 1000.0),
            ),
            ("sessions expired", self.sessions_expired.to_string()),
            (
                "watch notifications sent",
                self.notifications_sent.to_string(),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{config, ctx_commands};

    type C<'a> = Ctx<'a, (), ServiceTimer>;

    #[test]
    fn sequence_numbers_only_grow_and_children_are_sorted() {
        let c = config(3, "ascending");
        let mut s = Service::new(&c, &Store::default());
        ctx_commands(3, &c, |ctx: &mut C<'_>| {
            let a = s.connect(ctx, 0);
            let b = s.connect(ctx, 1);
            assert_eq!(s.create(ctx, b).map(|z| z.seq), Some(0));
            assert_eq!(s.create(ctx, a).map(|z| z.seq), Some(1));
            assert_eq!(s.create(ctx, a).map(|z| z.seq), Some(1), "one per session");
            assert_eq!(s.create(ctx, 99), None, "no such session");
        });
        let owners: Vec<NodeId> = s.children().iter().map(|z| z.owner).collect();
        assert_eq!(owners, vec![1, 0]);
        assert_eq!(s.lowest().map(|z| z.owner), Some(1));
    }

    #[test]
    fn expiry_deletes_ephemerals_and_fires_each_watch_once() {
        let c = config(4, "ascending");
        let mut s = Service::new(&c, &Store::default());
        let mut fired = Vec::new();
        ctx_commands(4, &c, |ctx: &mut C<'_>| {
            let sessions: Vec<SessionId> = (0..3).map(|id| s.connect(ctx, id)).collect();
            for &session in &sessions {
                s.create(ctx, session);
            }
            assert!(s.exists_watch(sessions[1], 0));
            assert!(
                s.exists_watch(sessions[1], 0),
                "a second watch is the same watch"
            );
            assert!(s.exists_watch(sessions[2], 0));
            fired = s.expire(ctx, sessions[0]);
            assert!(!s.exists_watch(sessions[2], 0), "#0 is gone");
            assert!(s.expire(ctx, sessions[0]).is_empty(), "expires once");
        });
        assert_eq!(
            fired,
            vec![
                Notification { to: 1, seq: 0 },
                Notification { to: 2, seq: 0 }
            ]
        );
        assert_eq!(s.children().len(), 2);
    }

    #[test]
    fn a_session_expires_only_after_a_quiet_timeout_on_the_service_clock() {
        let c = config(2, "ascending");
        let mut s = Service::new(&c, &Store::default());
        let out = ctx_commands(2, &c, |ctx: &mut C<'_>| {
            let session = s.connect(ctx, 0);
            // The timer fires at local time 0 here: not quiet long enough.
            assert!(
                s.on_timer(ctx, ServiceTimer::SessionExpiry(session))
                    .is_empty()
            );
        });
        assert!(out.iter().any(|c| matches!(
            c,
            Command::SetTimer {
                timer: ServiceTimer::SessionExpiry(0),
                after_us
            } if *after_us == c_timeout()
        )));
        assert_eq!(s.store().sessions.len(), 1);
    }

    fn c_timeout() -> u64 {
        config(2, "ascending").timing.session_timeout_us
    }

    #[test]
    fn lease_writes_are_compare_and_swap_on_the_version() {
        let c = config(2, "ascending");
        let mut s = Service::new(&c, &Store::default());
        let mine = LeaseRecord {
            holder: Some(1),
            transitions: 1,
            ..LeaseRecord::default()
        };
        let LeaseWrite::Written(first) = s.write_lease(0, mine) else {
            panic!("version 0 is current")
        };
        assert_eq!((first.version, first.holder), (1, Some(1)));
        let theirs = LeaseRecord {
            holder: Some(0),
            ..mine
        };
        assert_eq!(s.write_lease(0, theirs), LeaseWrite::Conflict(first));
        assert_eq!(s.lease(), first);
    }
}
