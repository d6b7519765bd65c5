//! The handlers of Next-in-line: every message and timer, the start and
//! a recovery (see the module docs for the rules).

use super::line::names;
use super::{Beat, C, KINDS, Msg, NextInLine, Phase, Timer};
use crate::algorithms::bully::election;
use crate::algorithms::detector::arm_leader_timeout;
use crate::protocol::{Boot, Config, NodeId, Protocol, Role, Safety, TimerClass};

impl Protocol for NextInLine {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = ();
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::OneLeaderPerComponent;
    const WANTS_UNDELIVERABLE: bool = true;

    fn new(id: NodeId, config: &Config, _: &()) -> Self {
        Self {
            id,
            n: config.n,
            phase: Phase::Idle,
            leader: None,
            line: None,
            line_from: None,
            version: 0,
            send_line_to: Vec::new(),
            to_ask: Vec::new(),
            asking: None,
            presumed_dead: Vec::new(),
            join_sent_at: None,
            elections_started: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        ctx.set_role(Role::Follower, None);
        match boot {
            Boot::Fresh { initiate: true } => self.start_election(ctx),
            Boot::Fresh { initiate: false } => {
                arm_leader_timeout(ctx, Timer::LeaderTimeout);
            }
            Boot::Recover => {
                ctx.note("recovered; waits for the leader's heartbeat to rejoin the line");
                arm_leader_timeout(ctx, Timer::LeaderTimeout);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Takeover(dead) => {
                if self.phase == Phase::Leading {
                    ctx.note_with(|| format!("already leads; confirms again to n{from}"));
                    ctx.send(from, Msg::Confirm);
                } else {
                    ctx.note_with(|| format!("n{from} asks it to take over; it does"));
                    ctx.send(from, Msg::Confirm);
                    for d in dead {
                        if !self.presumed_dead.contains(&d) {
                            self.presumed_dead.push(d);
                        }
                    }
                    self.become_leader(ctx);
                }
            }
            Msg::Confirm => {
                if self.phase == Phase::Asking {
                    ctx.note_with(|| format!("n{from} confirms it has taken over"));
                    self.follow(ctx, from, None);
                }
            }
            Msg::Coordinator(line) => {
                if self.phase == Phase::Leading {
                    if from > self.id {
                        ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                        let version = line.version;
                        self.follow(ctx, from, Some(line));
                        self.check_line(ctx, version);
                    } else {
                        ctx.note_with(|| {
                            format!("n{from} also claims to lead; tells it n{} leads", self.id)
                        });
                        let mine = self.published_line();
                        ctx.send(from, Msg::Coordinator(mine));
                    }
                } else {
                    let version = line.version;
                    self.follow(ctx, from, Some(line));
                    self.check_line(ctx, version);
                }
            }
            Msg::Election => {
                ctx.send(from, Msg::Ok);
                match (self.phase, self.leader) {
                    (Phase::Leading, _) => {
                        let mine = self.published_line();
                        ctx.send(from, Msg::Coordinator(mine));
                    }
                    (Phase::Asking, _) => ctx.note_with(|| format!(
                        "answers OK to n{from}; its own walk of the line ends in an announcement to all"
                    )),
                    (Phase::Idle, Some(l)) if l > self.id => {
                        election::say_leader_answers(ctx, from, l)
                    }
                    _ => self.start_election(ctx),
                }
            }
            Msg::Ok => {
                if self.phase == Phase::Electing {
                    self.phase = Phase::AwaitingCoordinator;
                    election::heard_ok(ctx, Timer::AwaitOk, Timer::AwaitCoordinator);
                }
            }
            Msg::Heartbeat(beat) => match self.phase {
                Phase::Leading if from > self.id => {
                    ctx.note_with(|| format!("hears higher leader n{from}; steps down"));
                    self.follow_beat(ctx, from, beat);
                }
                Phase::Leading => {
                    ctx.note_with(|| format!("n{from} also leads; tells it n{} leads", self.id));
                    let mine = self.published_line();
                    ctx.send(from, Msg::Coordinator(mine));
                }
                _ if self.leader == Some(from) => {
                    if let Some(ids) = beat.ids {
                        self.line = Some(ids);
                        self.line_from = Some((from, beat.version));
                    }
                    arm_leader_timeout(ctx, Timer::LeaderTimeout);
                    self.check_line(ctx, beat.version);
                }
                _ if self.leader.is_none_or(|l| from > l) => {
                    ctx.note_with(|| format!("hears leader n{from}; follows it"));
                    self.follow_beat(ctx, from, beat);
                }
                _ => {}
            },
            Msg::Join => {
                if self.phase != Phase::Leading {
                    return;
                }
                let l = self.line.get_or_insert_with(Vec::new);
                if l.contains(&from) {
                    // Listed already: it only needs the current version.
                    if let Err(i) = self.send_line_to.binary_search(&from) {
                        self.send_line_to.insert(i, from);
                    }
                } else {
                    l.push(from);
                    l.sort_unstable();
                    l.reverse();
                    let now = names(l);
                    ctx.note_with(|| format!("n{from} joins the line of succession, now {now}"));
                    self.line_changed();
                }
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::LeaderTimeout => {
                if self.phase == Phase::Idle {
                    match self.leader {
                        Some(l) => ctx.note_with(|| format!(
                            "heard nothing from leader n{l}; presumes it dead and walks the line of succession"
                        )),
                        None => ctx.note("knows no leader; walks its line of succession"),
                    }
                    self.start_walk(ctx);
                }
            }
            Timer::Heartbeat => {
                if self.phase == Phase::Leading {
                    let line = self.published_line();
                    let with_line = std::mem::take(&mut self.send_line_to);
                    for peer in (0..self.n).filter(|&p| p != self.id) {
                        let ids = with_line
                            .binary_search(&peer)
                            .is_ok()
                            .then(|| line.ids.clone());
                        let beat = Beat {
                            version: line.version,
                            ids,
                        };
                        ctx.send(peer, Msg::Heartbeat(beat));
                    }
                    let period = ctx.config().heartbeat_us;
                    ctx.set_timer(Timer::Heartbeat, period);
                }
            }
            Timer::AwaitConfirm => {
                if let Some(asked) = self.asking {
                    self.skip(ctx, asked);
                }
            }
            Timer::AwaitOk => {
                if self.phase == Phase::Electing {
                    ctx.note("no higher node answered; takes over");
                    self.become_leader(ctx);
                }
            }
            Timer::AwaitCoordinator => {
                if self.phase == Phase::AwaitingCoordinator {
                    ctx.note("a higher node answered OK but never announced itself; starts again");
                    self.phase = Phase::Idle;
                    self.start_election(ctx);
                }
            }
        }
    }

    fn on_undeliverable(&mut self, ctx: &mut C<'_>, to: NodeId, msg: Msg) {
        match msg {
            Msg::Takeover(_) => self.skip(ctx, to),
            Msg::Heartbeat(_) | Msg::Coordinator(_) if self.phase == Phase::Leading => {
                self.drop_from_line(ctx, to);
            }
            _ => {}
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            Timer::LeaderTimeout => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
            Timer::AwaitConfirm | Timer::AwaitOk | Timer::AwaitCoordinator => TimerClass::ReplyWait,
        }
    }

    fn persistent(&self) {}

    fn inspect(&self) -> Vec<(&'static str, String)> {
        self.fields()
    }
}
