//! The line of succession: following a leader and its line, walking down
//! the line when the leader falls silent, and the fallback Bully election
//! when the line runs out.

use super::{Beat, C, Line, Msg, NextInLine, Phase, Timer};
use crate::algorithms::bully::election;
use crate::algorithms::detector::arm_leader_timeout;
use crate::protocol::{NodeId, Role};

pub(super) fn names(ids: &[NodeId]) -> String {
    if ids.is_empty() {
        return "(empty)".to_string();
    }
    let v: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
    v.join(", ")
}

impl NextInLine {
    pub(super) fn cancel_election_timers(ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::AwaitConfirm);
        ctx.cancel_timer(Timer::AwaitOk);
        ctx.cancel_timer(Timer::AwaitCoordinator);
    }

    /// Follows `leader`; `line` is its published line when the message
    /// carried one (a CONFIRM does not).
    pub(super) fn follow(&mut self, ctx: &mut C<'_>, leader: NodeId, line: Option<Line>) {
        self.phase = Phase::Idle;
        self.leader = Some(leader);
        self.to_ask.clear();
        self.asking = None;
        self.presumed_dead.clear();
        self.send_line_to.clear();
        match line {
            Some(l) => {
                self.line = Some(l.ids);
                self.line_from = Some((leader, l.version));
            }
            None => {
                if let Some(l) = &mut self.line {
                    l.retain(|&x| x != leader);
                }
                self.line_from = None;
            }
        }
        Self::cancel_election_timers(ctx);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(Some(leader));
        arm_leader_timeout(ctx, Timer::LeaderTimeout);
    }

    /// Follows the sender of a heartbeat, keeping the line if it came along.
    pub(super) fn follow_beat(&mut self, ctx: &mut C<'_>, leader: NodeId, beat: Beat) {
        let version = beat.version;
        let line = beat.ids.map(|ids| Line { version, ids });
        self.follow(ctx, leader, line);
        self.check_line(ctx, version);
    }

    /// After hearing its leader announce line `version`: asks to join if
    /// it is missing from its copy of the line or the copy is outdated.
    pub(super) fn check_line(&mut self, ctx: &mut C<'_>, version: u64) {
        let Some(leader) = self.leader.filter(|&l| l != self.id) else {
            return;
        };
        let listed = self.line.as_ref().is_some_and(|l| l.contains(&self.id));
        let current = self.line_from == Some((leader, version));
        if listed && current {
            self.join_sent_at = None;
            return;
        }
        let now = ctx.local_now_us();
        let gap = ctx.config().reply_timeout_us as i64;
        if self.join_sent_at.is_some_and(|t| now - t < gap) {
            return;
        }
        self.join_sent_at = Some(now);
        if listed {
            ctx.note_with(|| {
                format!("missed a change of leader n{leader}'s line (now v{version}); asks for it")
            });
        } else {
            ctx.note_with(|| {
                format!("is missing from leader n{leader}'s line of succession; asks to join it")
            });
        }
        ctx.send(leader, Msg::Join);
    }

    /// The leader's failure is detected (or no leader is known): walk the
    /// line, or fall back to the election when there is none.
    pub(super) fn start_walk(&mut self, ctx: &mut C<'_>) {
        let failed = self.leader.take();
        ctx.set_leader(None);
        let to_ask: Vec<NodeId> = self
            .line
            .iter()
            .flatten()
            .copied()
            .filter(|&x| Some(x) != failed)
            .collect();
        if to_ask.is_empty() {
            ctx.note("has no line of succession to walk; falls back to a Bully election");
            self.start_election(ctx);
            return;
        }
        self.phase = Phase::Asking;
        self.presumed_dead = failed.into_iter().collect();
        self.to_ask = to_ask;
        self.elections_started += 1;
        ctx.election_started();
        self.ask_next(ctx);
    }

    pub(super) fn ask_next(&mut self, ctx: &mut C<'_>) {
        if self.to_ask.is_empty() {
            self.asking = None;
            self.phase = Phase::Idle;
            ctx.cancel_timer(Timer::AwaitConfirm);
            ctx.note("nobody on the line of succession answered; falls back to a Bully election");
            self.start_election(ctx);
            return;
        }
        let next = self.to_ask.remove(0);
        if next == self.id {
            ctx.note("is itself next in line; takes over");
            self.become_leader(ctx);
            return;
        }
        ctx.note_with(|| {
            format!(
                "{} gone; asks n{next}, next in line, to take over",
                match self.presumed_dead.as_slice() {
                    [] => "the leader is".to_string(),
                    [one] => format!("n{one} is"),
                    many => format!("{} are", names(many)),
                }
            )
        });
        self.asking = Some(next);
        ctx.send(next, Msg::Takeover(self.presumed_dead.clone()));
        let wait = ctx.config().reply_timeout_us;
        ctx.set_timer(Timer::AwaitConfirm, wait);
    }

    /// The asked node did not confirm (timer or undeliverable notice).
    pub(super) fn skip(&mut self, ctx: &mut C<'_>, silent: NodeId) {
        if self.phase != Phase::Asking || self.asking != Some(silent) {
            return;
        }
        ctx.note_with(|| {
            format!("n{silent} did not confirm; presumes it dead too and asks the next in line")
        });
        if let Some(l) = &mut self.line {
            l.retain(|&x| x != silent);
        }
        self.presumed_dead.push(silent);
        self.ask_next(ctx);
    }

    /// Fallback: a Bully election (Garcia-Molina 1982).
    pub(super) fn start_election(&mut self, ctx: &mut C<'_>) {
        if matches!(self.phase, Phase::Electing | Phase::AwaitingCoordinator) {
            return; // at most one election at a time
        }
        self.phase = Phase::Electing;
        self.leader = None;
        self.to_ask.clear();
        self.asking = None;
        self.elections_started += 1;
        ctx.election_started();
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.cancel_timer(Timer::AwaitConfirm);
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.set_leader(None);
        if !election::ask_higher(ctx, self.id, self.n, Msg::Election, Timer::AwaitOk) {
            self.become_leader(ctx);
        }
    }

    /// Takes the lead and announces it with a fresh line to all n-1 others.
    pub(super) fn become_leader(&mut self, ctx: &mut C<'_>) {
        let dead = std::mem::take(&mut self.presumed_dead);
        self.phase = Phase::Leading;
        self.leader = Some(self.id);
        self.to_ask.clear();
        self.asking = None;
        let me = self.id;
        let mut line: Vec<NodeId> = match &self.line {
            Some(l) => l
                .iter()
                .copied()
                .filter(|&x| x != me && !dead.contains(&x))
                .collect(),
            None => (0..self.n).rev().filter(|&x| x != me).collect(),
        };
        // Ascending then reversed: the wasm then shares the one ascending
        // sort of node ids instead of holding another for descending.
        line.sort_unstable();
        line.reverse();
        line.dedup();
        Self::cancel_election_timers(ctx);
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(me));
        self.version += 1;
        self.line = Some(line);
        self.line_from = Some((me, self.version));
        self.send_line_to.clear();
        let published = self.published_line();
        ctx.note_with(|| {
            format!(
                "leads; publishes the line of succession {}",
                names(&published.ids)
            )
        });
        ctx.broadcast(Msg::Coordinator(published));
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, period);
    }

    pub(super) fn published_line(&self) -> Line {
        Line {
            version: self.version,
            ids: self.line.clone().unwrap_or_default(),
        }
    }

    /// The leader's line changed: a new version, which every follower
    /// gets with its next heartbeat.
    pub(super) fn line_changed(&mut self) {
        self.version += 1;
        self.line_from = Some((self.id, self.version));
        let me = self.id;
        self.send_line_to = (0..self.n).filter(|&p| p != me).collect();
    }

    /// The leader drops a node it could not reach from its line.
    pub(super) fn drop_from_line(&mut self, ctx: &mut C<'_>, gone: NodeId) {
        let Some(l) = &mut self.line else {
            return;
        };
        if l.contains(&gone) {
            l.retain(|&x| x != gone);
            let now = names(l);
            ctx.note_with(|| {
                format!("cannot reach n{gone}; drops it from the line of succession, now {now}")
            });
            self.line_changed();
        }
    }
}
