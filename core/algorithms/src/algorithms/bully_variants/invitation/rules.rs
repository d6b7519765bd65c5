//! The handlers of Invitation: every message and timer, the start and a
//! recovery (see the module docs for the rules).

use super::groups::names;
use super::{C, Group, Invitation, KINDS, Msg, Phase, Timer};
use crate::algorithms::detector::arm_leader_timeout;
use crate::protocol::{Boot, Config, NodeId, Protocol, Safety, TimerClass};
use crate::vec_map::VecMap;

impl Protocol for Invitation {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = u64;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::SeveralLeadersAllowed;

    fn new(id: NodeId, config: &Config, counter: &u64) -> Self {
        Self {
            id,
            n: config.n,
            phase: Phase::Coordinating,
            group: Group {
                coordinator: id,
                counter: *counter,
            },
            up: VecMap::new(),
            roster: Vec::new(),
            confirmed: false,
            counter: *counter,
            searching: false,
            found: VecMap::new(),
            pending: Vec::new(),
            forming: None,
            accepted: Vec::new(),
            merges_started: 0,
            groups_formed_alone: 0,
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        match boot {
            Boot::Fresh { initiate } => {
                self.form_own_group(ctx, initiate);
            }
            Boot::Recover => {
                ctx.note("recovered; forms a group of its own and looks for other coordinators");
                self.form_own_group(ctx, true);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::AreYouCoordinator => {
                if self.phase == Phase::Coordinating {
                    let (size, _) = self.priority();
                    ctx.send(from, Msg::IAmCoordinator { size });
                }
            }
            Msg::IAmCoordinator { size } => {
                if self.phase == Phase::Coordinating && self.searching {
                    self.found.insert(from, size);
                }
            }
            Msg::Invitation { group, size } => self.on_invitation(ctx, from, group, size),
            Msg::Accept { group } => {
                if self.phase == Phase::Merging
                    && self.forming == Some(group)
                    && !self.accepted.contains(&from)
                {
                    self.accepted.push(from);
                }
            }
            Msg::Ready { group, members } => self.on_ready(ctx, from, group, members),
            Msg::AreYouThere { group } => match self.phase {
                Phase::Coordinating | Phase::Merging
                    if group == self.group && self.up.contains_key(&from) =>
                {
                    let now = ctx.local_now_us();
                    self.up.insert(from, now);
                    ctx.send(from, Msg::Yes);
                }
                // It has just accepted an invitation and passed it on to
                // its members; on a link that reorders, a NO could overtake
                // that invitation and break the group up for nothing.
                Phase::Joining => {}
                _ => ctx.send(from, Msg::No),
            },
            Msg::Yes => {
                if self.phase == Phase::Member && from == self.group.coordinator {
                    if !self.confirmed {
                        ctx.note_with(|| format!("n{from} confirms {}; follows it", self.group));
                        self.confirmed = true;
                        ctx.set_leader(Some(from));
                    }
                    arm_leader_timeout(ctx, Timer::CoordinatorTimeout);
                }
            }
            Msg::No => {
                if self.phase == Phase::Member && from == self.group.coordinator {
                    ctx.note_with(|| {
                        format!(
                            "n{from} no longer coordinates {} with it; forms a group of its own",
                            self.group
                        )
                    });
                    self.groups_formed_alone += 1;
                    self.form_own_group(ctx, false);
                }
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Search => self.start_search(ctx),
            Timer::Collect => {
                if self.phase == Phase::Coordinating && self.searching {
                    self.end_search(ctx);
                }
            }
            Timer::MergeDelay => {
                let coordinators = std::mem::take(&mut self.pending);
                if self.phase != Phase::Coordinating {
                    return;
                }
                if coordinators.is_empty() {
                    self.arm_search(ctx);
                } else {
                    ctx.note_with(|| {
                        format!(
                            "nobody invited it meanwhile; invites {}",
                            names(coordinators.iter().copied())
                        )
                    });
                    self.merge(ctx, coordinators);
                }
            }
            Timer::AcceptWindow => {
                if self.phase == Phase::Merging {
                    self.finish_merge(ctx);
                }
            }
            Timer::AwaitReady => {
                if self.phase == Phase::Joining {
                    // The READY may have been lost: ask, as a member would.
                    ctx.note_with(|| {
                        format!(
                            "no READY from n{} for {}; asks whether the group stands",
                            self.group.coordinator, self.group
                        )
                    });
                    self.phase = Phase::Member;
                    self.start_checks(ctx);
                    ctx.send(
                        self.group.coordinator,
                        Msg::AreYouThere { group: self.group },
                    );
                }
            }
            Timer::Check => {
                if self.phase == Phase::Member {
                    ctx.send(
                        self.group.coordinator,
                        Msg::AreYouThere { group: self.group },
                    );
                    let period = ctx.config().heartbeat_us;
                    ctx.set_timer(Timer::Check, period);
                }
            }
            Timer::CoordinatorTimeout => {
                if self.phase == Phase::Member {
                    ctx.note_with(|| format!(
                        "no answer from coordinator n{} for too long; presumes it dead and forms a group of its own",
                        self.group.coordinator
                    ));
                    self.groups_formed_alone += 1;
                    self.form_own_group(ctx, false);
                }
            }
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // The periodic ARE_YOU_COORDINATOR probe and the member's
            // periodic ARE_YOU_THERE: sends, as a heartbeat is.
            Timer::Search | Timer::Check => TimerClass::Heartbeat,
            Timer::Collect | Timer::AcceptWindow | Timer::AwaitReady => TimerClass::ReplyWait,
            // The priority delay before a merge.
            Timer::MergeDelay => TimerClass::Retry,
            // No YES from the coordinator for a failure-detection timeout.
            Timer::CoordinatorTimeout => TimerClass::ElectionTimeout,
        }
    }

    fn persistent(&self) -> u64 {
        self.counter
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        self.fields()
    }
}
