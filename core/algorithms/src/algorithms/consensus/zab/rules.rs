//! The handlers of a Zab server: the start, a recovery, every message
//! and timer (the `Protocol` methods call them).

use super::{Ballot, C, Msg, Server, ServerState, Timer, ms, notify_cap, zxid_text};
use crate::algorithms::detector::leader_timeout;
use crate::protocol::{Boot, NodeId};
use crate::time::Micros;

impl Server {
    pub(super) fn tick(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        if self.resource.is_some() && now >= self.next_write_us {
            ctx.note("resumes with a write overdue and makes it before checking on its followers");
            self.write(ctx);
        }
        let limit = ctx.config().election_timeout_us.0 as i64;
        let heard = 1 + self
            .voting_learners()
            .filter(|l| l.acked && now - l.heard_us <= limit)
            .count();
        if heard < self.quorum() {
            ctx.note_with(|| {
                format!(
                    "heard from only {heard} of {} servers (itself included) in the last {} ms, no quorum: stops leading",
                    self.voters,
                    ms(limit as Micros)
                )
            });
            self.look_for_leader(ctx);
            return;
        }
        let msg = Msg::Ping {
            zxid: self.stored.last_zxid,
        };
        let followers: Vec<NodeId> = self.learners.keys().copied().collect();
        for f in followers {
            ctx.send(f, msg);
        }
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    pub(super) fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        match boot {
            Boot::Fresh { initiate: true } => self.look_for_leader(ctx),
            Boot::Fresh { initiate: false } => {
                self.state = ServerState::Following;
                ctx.set_role(self.following_role(), Some(self.stored.accepted_epoch));
                let t = leader_timeout(ctx);
                ctx.set_timer(Timer::LeaderTimeout, t);
            }
            Boot::Recover => {
                ctx.note_with(|| {
                    format!(
                        "recovers with accepted epoch {}, current epoch {}, last zxid {}; its round starts again",
                        self.stored.accepted_epoch,
                        self.stored.current_epoch,
                        zxid_text(self.stored.last_zxid)
                    )
                });
                self.look_for_leader(ctx);
            }
        }
    }

    pub(super) fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Notification { vote, round, state } => {
                self.on_notification(ctx, from, Ballot { vote, round, state });
            }
            Msg::FollowerInfo { accepted_epoch } => {
                self.on_follower_info(ctx, from, accepted_epoch);
            }
            Msg::LeaderInfo { epoch, zxid } => self.on_leader_info(ctx, from, epoch, zxid),
            Msg::AckEpoch {
                epoch,
                current_epoch,
            } => self.on_ack_epoch(ctx, from, epoch, current_epoch.is_some()),
            Msg::Ping { zxid } => self.on_ping(ctx, from, zxid),
            Msg::PingReply => {
                if self.state == ServerState::Leading {
                    let now = ctx.local_now_us();
                    if let Some(l) = self.learners.get_mut(&from) {
                        l.heard_us = now;
                    }
                }
            }
            Msg::Write { .. } => {}
            Msg::ObserverInfo => self.on_observer_info(ctx, from),
        }
    }

    pub(super) fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::NotifyTimeout if self.observer() => {
                if self.state == ServerState::Looking {
                    let wait = notify_cap(ctx.config());
                    ctx.note_with(|| {
                        format!(
                            "still knows no leader after {} ms: asks the voters again",
                            ms(wait)
                        )
                    });
                    self.ask_voters(ctx);
                }
            }
            Timer::NotifyTimeout => {
                if self.state == ServerState::Looking && !self.finalizing {
                    ctx.note_with(|| {
                        format!(
                            "no notification for {} ms: sends its vote for {} again",
                            ms(self.notify_wait_us),
                            self.proposal
                        )
                    });
                    self.broadcast(ctx);
                    self.notify_wait_us = (self.notify_wait_us * 2).min(notify_cap(ctx.config()));
                    ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
                }
            }
            Timer::FinalizeWait => {
                if self.state == ServerState::Looking && self.finalizing {
                    let ballot = self.ballot();
                    self.decide(ctx, ballot);
                }
            }
            Timer::LeaderTimeout => {
                if self.state == ServerState::Following {
                    match self.leader {
                        Some(l) => {
                            let quiet = ctx.local_now_us() - self.heard_leader_us;
                            ctx.note_with(|| {
                                format!(
                                    "heard nothing from leader n{l} for {} ms; presumes it gone",
                                    ms(quiet.max(0) as Micros)
                                )
                            });
                        }
                        None => ctx.note("knows no leader; looks for one"),
                    }
                    self.look_for_leader(ctx);
                }
            }
            Timer::Establish => {
                if self.state == ServerState::Leading && !self.established {
                    ctx.note("no quorum promised it a new epoch in time; looks again");
                    self.look_for_leader(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.state == ServerState::Leading && self.established {
                    self.tick(ctx);
                }
            }
            Timer::Write => {
                if self.state == ServerState::Leading && self.established {
                    self.write(ctx);
                }
            }
        }
    }
}
