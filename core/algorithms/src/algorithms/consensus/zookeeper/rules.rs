//! The handlers of a ZooKeeper recipe client: the start, a recovery,
//! every message and timer.

use super::{C, Client, KINDS, Msg, Phase, Timer};
use crate::algorithms::detector::leader_timeout;
use crate::protocol::{Boot, Config, Extra, NodeId, Protocol, Role, Safety, TimerClass};

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
        self.fields()
    }
}
