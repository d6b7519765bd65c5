//! The leader election recipe (ZooKeeper Recipes and Solutions, "Leader
//! Election"): join with an ephemeral sequential znode, list the
//! children, watch the predecessor, lead when lowest; the session's
//! pings, and what a client does when its connection is lost.

use super::{C, Client, LOST_AFTER_TICKS, Msg, Phase, Timer};
use crate::algorithms::service::{SessionId, Znode};
use crate::protocol::Role;
use crate::scenario::WatchMode;

impl Client {
    pub(super) fn announce(&self, ctx: &mut C<'_>, role: Role) {
        ctx.set_role(role, Some(self.term));
    }

    pub(super) fn join(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Connecting;
        self.session = None;
        self.znode = None;
        self.connected = false;
        self.unanswered_since = Some(ctx.local_now_us());
        self.silent_ticks = 0;
        ctx.send(self.service, Msg::Connect);
        ctx.set_timer(Timer::Ping, self.ping_us);
    }

    pub(super) fn create(&mut self, ctx: &mut C<'_>, session: SessionId) {
        self.phase = Phase::Creating;
        ctx.send(self.service, Msg::Create { session });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    pub(super) fn list(&mut self, ctx: &mut C<'_>) {
        let Some(session) = self.session else {
            return;
        };
        self.phase = Phase::Listing;
        ctx.send(self.service, Msg::GetChildren { session });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    pub(super) fn check(&mut self, ctx: &mut C<'_>, seq: u64) {
        let Some(session) = self.session else {
            return;
        };
        self.phase = Phase::Checking(seq);
        ctx.send(self.service, Msg::Exists { session, seq });
        ctx.set_timer(Timer::Step, self.reply_timeout_us);
    }

    pub(super) fn adopt(&mut self, ctx: &mut C<'_>, seq: u64) {
        self.znode = Some(seq);
        self.term = self.term.max(seq);
        self.announce(ctx, Role::Candidate);
    }

    pub(super) fn follow(&mut self, ctx: &mut C<'_>, lowest: Znode) {
        if self.phase == Phase::Leading {
            ctx.cancel_timer(Timer::Write);
        }
        self.leader = Some(lowest);
        self.announce(ctx, Role::Follower);
        ctx.set_leader(Some(lowest.owner));
    }

    pub(super) fn become_leader(&mut self, ctx: &mut C<'_>, seq: u64) {
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

    pub(super) fn write(&mut self, ctx: &mut C<'_>) {
        self.writes_sent += 1;
        ctx.send(self.resource, Msg::Write { token: self.term });
        ctx.set_timer(Timer::Write, self.write_us);
    }

    /// Gives up any role: the client no longer knows who leads.
    pub(super) fn drop_role(&mut self, ctx: &mut C<'_>) {
        if self.phase == Phase::Leading {
            ctx.cancel_timer(Timer::Write);
        }
        ctx.cancel_timer(Timer::Step);
        self.leader = None;
        self.announce(ctx, Role::Candidate);
        ctx.set_leader(None);
    }

    pub(super) fn on_children(&mut self, ctx: &mut C<'_>, children: &[Znode]) {
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

    pub(super) fn on_pong(&mut self, ctx: &mut C<'_>, lowest: Option<Znode>) {
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

    pub(super) fn on_ping_tick(&mut self, ctx: &mut C<'_>) {
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
