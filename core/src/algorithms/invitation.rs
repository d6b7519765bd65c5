//! Invitation election (H. Garcia-Molina, "Elections in a Distributed
//! Computing System", IEEE Trans. Computers C-31(1), 1982, section V: the
//! Invitation algorithm for asynchronous systems, where a slow node and a
//! dead one look alike and the network may split).
//!
//! Nodes live in groups. Each group has a number (its coordinator's id and
//! a counter) and one coordinator, which the page shows as the group's
//! leader. Several groups, and so several leaders, coexist by design: the
//! algorithm only promises that the members of one group agree on their
//! coordinator, and that groups that can talk to each other eventually
//! merge.
//!
//! Rules, as simulated here (paper's states in brackets):
//! - Every node starts as the coordinator of a group of its own [Normal,
//!   S.c = i]; so does a node that recovers from a crash. The group counter
//!   survives crashes, so group numbers never repeat.
//! - Coordinator search (the paper's `Check`): a coordinator sends
//!   `ARE_YOU_COORDINATOR` to every other node, every search period. Only
//!   a coordinator in normal operation answers, with `I_AM_COORDINATOR`
//!   carrying its group size; other nodes stay silent (the paper's RPC
//!   answers "no"; here silence within the answer window is the no). Nodes
//!   that start at time 0 named by the scenario's `start` search at once;
//!   the others after their first search period.
//! - Priority is (group size, id): a bigger group outranks a smaller one,
//!   ties go to the higher id. At the end of the answer window a coordinator
//!   that found others waits R x (number of found coordinators that outrank
//!   it), R the reply timeout, so that the highest-priority coordinator
//!   merges first and the others are invited meanwhile; then it merges with
//!   the found coordinators it outranks, if it still leads its own group.
//! - Merge \[Election\]: the coordinator counts an election, takes a new group
//!   number and sends `INVITATION` (new group, its group size) to those
//!   coordinators and to its own members; then collects `ACCEPT`s for two
//!   reply timeouts and sends `READY` (the group number and the sorted
//!   member list) to every node that accepted. Those are its new members.
//! - A coordinator in normal operation that gets an `INVITATION` from a
//!   coordinator that outranks it forwards the invitation to its members,
//!   answers `ACCEPT` to the inviter and follows it \[Reorganization\]; an
//!   invitation from a coordinator it outranks is declined (ignored). A
//!   member accepts an invitation only when its own coordinator sends or
//!   forwards it. Any other node ignores invitations \[not Normal\].
//! - A node that accepted waits three reply timeouts for `READY`; without
//!   it, it asks the inviter `ARE_YOU_THERE` as a member would (the READY
//!   may have been lost) and follows it on `YES`; on `NO`, or silence, it
//!   forms a group of its own (the paper's `Recovery`, which the paper
//!   runs at once).
//! - Member checks (the paper's `Timeout` / `AreYouThere`): a member sends
//!   `ARE_YOU_THERE` (its group number) to its coordinator every
//!   `heartbeat_ms`. The coordinator answers `YES` if it still coordinates
//!   that group and counts the asker as a member, `NO` otherwise (nothing
//!   while it waits for a `READY` itself, see below). A `NO`, or
//!   no `YES` for a failure-detection timeout drawn from
//!   `election_timeout_ms`, makes the member form a group of its own.
//! - A coordinator drops from its member list a member it has not heard
//!   from for the longest failure-detection timeout (the upper end of
//!   `election_timeout_ms`), checked at every search, so the group sizes it
//!   reports, and so the priorities, are current.
//!
//! Timing (R = the reply timeout, see `timing.reply_timeout_ms`): search
//! period drawn anew from `election_timeout_ms` at the end of each search;
//! answer window R; priority delay R per outranking coordinator; accept
//! window 2R (an invitation forwarded by a member's old coordinator travels
//! three hops before its `ACCEPT` reaches the inviter); wait for `READY`
//! 3R; member check period `heartbeat_ms`.
//!
//! Where this departs from the paper, and why:
//! - Priority. The paper ranks coordinators by a fixed node priority (the
//!   id here): after a search, a coordinator that found a higher-priority
//!   one waits a time that grows with the gap, then invites every
//!   coordinator it found; any node in normal operation accepts any
//!   invitation. Here the order is
//!   (group size, id), a coordinator invites only the coordinators it
//!   outranks and declines invitations from coordinators it outranks, so
//!   that in every merge the larger group's coordinator keeps leading
//!   (ties: the higher id). The wait is proportional to the coordinator's
//!   rank among those found rather than to an id difference.
//! - Membership. The paper's member list (`Up`) only changes at a merge;
//!   here a coordinator also forgets members that stopped checking in
//!   (above), otherwise a coordinator cut off from half its group would
//!   keep claiming the old size.
//! - Failure detection. The paper's member gives up on the first failed
//!   `AreYouThere` call; here one lost message is not a failure: the member
//!   gives up after a `NO` or a full failure-detection timeout.
//! - Failure detection is the paper's: members poll their coordinator.
//!   There is no leader `HEARTBEAT` as in the other algorithms here; the
//!   check period and timeout come from the same `heartbeat_ms` and
//!   `election_timeout_ms`.
//! - A node that accepted shows no leader until `READY` arrives (the paper
//!   sets its coordinator at once), so a run settles only once the merged
//!   group is formed and every member knows it.
//! - A member stops checking while it waits for `READY`: its `READY`
//!   timeout covers that stretch. A node waiting for `READY` does not
//!   answer `ARE_YOU_THERE` either (the paper answers no): its former
//!   members have its forwarded invitation on the way, and a `NO` that
//!   overtook it on a reordering link would break them off for nothing.
//!
//! Counting (docs/ARCHITECTURE.md, Counting rules): `I_AM_COORDINATOR` (it
//! reveals a second group, so a merge is due), `INVITATION`, `ACCEPT` and
//! `READY` are election messages; the periodic `ARE_YOU_COORDINATOR` probe
//! (sent even when there is only one group) and the member checks
//! `ARE_YOU_THERE`, `YES`, `NO` are background. `elections` counts merges
//! started; forming a group of one's own sends nothing and is not counted.
//!
//! Costs: with every node starting at once (all searches cross, every node
//! answers every other), n(n-1) `ARE_YOU_COORDINATOR`, n(n-1)
//! `I_AM_COORDINATOR`, then the top node alone merges: n-1 `INVITATION`,
//! n-1 `ACCEPT`, n-1 `READY`. A merge of groups covering m nodes costs m-1
//! of each of `INVITATION` (direct or forwarded), `ACCEPT` and `READY`.
//! Steady state with one group: n-1 `ARE_YOU_COORDINATOR` per search and
//! 2(n-1) check messages per `heartbeat_ms`.
//!
//! Safety claimed: several leaders at once are this algorithm's documented
//! behaviour (`Safety::SeveralLeadersAllowed`): the checker reports no
//! violation for them, while the metrics still count the time with several
//! leaders as `split_brain_ms`. Every node leads its own group at time 0;
//! each side of a partition keeps (or re-forms) its own group and leader;
//! after a heal the groups merge. Known behaviour: a recovered node, even
//! the highest id, does not take over a larger group; it is invited into it.
//! The paper assumes calls that fail only when the callee is down or cut
//! off; here any message may be lost, and since every merge re-invites
//! every member, a lost `INVITATION` or `ACCEPT` sheds that member into a
//! group of its own, to be merged back later. At a few percent loss this
//! converges; at 10% loss a cluster of 17 to 24 nodes may keep shedding and
//! re-merging and never be one group for a moment (in random fault runs
//! with 10% loss, about as often as Chang-Roberts fails to settle).

use super::detector::leader_timeout;
use super::{Entry, Layout, engine};
use crate::protocol::{
    Boot, Config, Ctx, Message, NodeId, Protocol, Purpose, Role, Safety, TimerClass,
};
use crate::time::{Micros, to_ms};
use crate::vec_map::VecMap;
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "ARE_YOU_COORDINATOR",
    "I_AM_COORDINATOR",
    "INVITATION",
    "ACCEPT",
    "READY",
    "ARE_YOU_THERE",
    "YES",
    "NO",
];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "invitation",
    name: "Invitation",
    summary: "Garcia-Molina 1982: every node leads its own group; coordinators look for each other and the larger group's coordinator invites the other into one group; several leaders coexist by design",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[],
    claims: Invitation::SAFETY,
    builder: Some(engine::<Invitation>),
    theory: None,
};

/// A group number: the coordinator that formed it and that node's counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    /// The node that formed the group and coordinates it.
    pub coordinator: NodeId,
    /// The coordinator's group counter when it formed the group.
    pub counter: u64,
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "g{}.{}", self.coordinator, self.counter)
    }
}

/// Invitation messages.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// "Are you a coordinator?" (background: the periodic search).
    AreYouCoordinator,
    /// "Yes, I coordinate a group of `size` nodes."
    IAmCoordinator {
        /// The answering coordinator's group size.
        size: u32,
    },
    /// "Join `group`", from its coordinator or forwarded by the receiver's
    /// own coordinator.
    Invitation {
        /// The group being formed; its coordinator is the inviter.
        group: Group,
        /// The inviter's group size when it invited.
        size: u32,
    },
    /// "I join `group`", to the inviter.
    Accept {
        /// The group accepted.
        group: Group,
    },
    /// "`group` is formed; these are its members."
    Ready {
        /// The group.
        group: Group,
        /// Every member, the coordinator included, ascending.
        members: Vec<NodeId>,
    },
    /// A member asks its coordinator whether `group` still stands
    /// (background).
    AreYouThere {
        /// The member's group.
        group: Group,
    },
    /// "Yes, I coordinate your group" (background).
    Yes,
    /// "No, I do not coordinate your group (any more)" (background).
    No,
}

/// The trace shows `KIND(payload)`: the part of this text from the first
/// parenthesis on.
impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::AreYouCoordinator => write!(f, "AreYouCoordinator"),
            Msg::IAmCoordinator { size } => write!(f, "IAmCoordinator(group of {size})"),
            Msg::Invitation { group, size } => {
                write!(f, "Invitation({group}, inviter's group of {size})")
            }
            Msg::Accept { group } => write!(f, "Accept({group})"),
            Msg::Ready { group, members } => {
                let names: Vec<String> = members.iter().map(|m| format!("n{m}")).collect();
                write!(f, "Ready({group}: {})", names.join(" "))
            }
            Msg::AreYouThere { group } => write!(f, "AreYouThere({group})"),
            Msg::Yes => write!(f, "Yes"),
            Msg::No => write!(f, "No"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::AreYouCoordinator => 0,
            Msg::IAmCoordinator { .. } => 1,
            Msg::Invitation { .. } => 2,
            Msg::Accept { .. } => 3,
            Msg::Ready { .. } => 4,
            Msg::AreYouThere { .. } => 5,
            Msg::Yes => 6,
            Msg::No => 7,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::AreYouCoordinator | Msg::AreYouThere { .. } | Msg::Yes | Msg::No => {
                Purpose::Background
            }
            Msg::IAmCoordinator { .. }
            | Msg::Invitation { .. }
            | Msg::Accept { .. }
            | Msg::Ready { .. } => Purpose::Election,
        }
    }
}

/// Invitation timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Coordinator: time to look for other coordinators.
    Search,
    /// Coordinator: the answer window of a search closes.
    Collect,
    /// Coordinator: the priority delay before a merge is over.
    MergeDelay,
    /// Coordinator: the accept window of a merge closes.
    AcceptWindow,
    /// Accepted an invitation: no `READY` in time.
    AwaitReady,
    /// Member: time to ask the coordinator whether it is there.
    Check,
    /// Member: no `YES` from the coordinator for too long.
    CoordinatorTimeout,
}

/// Where a node is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Coordinates its group, in normal operation (paper: Normal, S.c = i).
    Coordinating,
    /// Coordinates a merge: invited, collecting ACCEPTs (paper: Election).
    Merging,
    /// Accepted an invitation, waiting for READY (paper: Reorganization).
    Joining,
    /// A member of a group (paper: Normal, S.c != i).
    Member,
}

/// One Invitation node.
#[derive(Debug, Clone)]
pub struct Invitation {
    id: NodeId,
    n: u32,
    phase: Phase,
    /// The group this node belongs to (or is joining).
    group: Group,
    /// Coordinator: the other members and when (local time) each last
    /// checked in (the paper's `Up`).
    up: VecMap<NodeId, i64>,
    /// Member: the member list the coordinator's READY gave.
    roster: Vec<NodeId>,
    /// Member: READY (or, if READY was lost, a YES) confirmed the group.
    confirmed: bool,
    /// Group counter; survives crashes.
    counter: u64,
    /// Coordinator: a search's answer window is open.
    searching: bool,
    /// Coordinators that answered this search, with their group sizes.
    found: VecMap<NodeId, u32>,
    /// Coordinators to invite once the priority delay is over.
    pending: Vec<NodeId>,
    /// Merging: the group being formed.
    forming: Option<Group>,
    /// Merging: who accepted so far.
    accepted: Vec<NodeId>,
    merges_started: u64,
    groups_formed_alone: u64,
}

type C<'a> = Ctx<'a, Msg, Timer>;

fn names(ids: impl IntoIterator<Item = NodeId>) -> String {
    let v: Vec<String> = ids.into_iter().map(|id| format!("n{id}")).collect();
    if v.is_empty() {
        "nobody".into()
    } else {
        v.join(", ")
    }
}

impl Invitation {
    /// (group size, id): who keeps leading when two groups merge.
    fn priority(&self) -> (u32, NodeId) {
        (self.up.len() as u32 + 1, self.id)
    }

    fn arm_search(&self, ctx: &mut C<'_>) {
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Search, t);
    }

    fn clear_coordinator_state(&mut self, ctx: &mut C<'_>) {
        self.up.clear();
        self.searching = false;
        self.found.clear();
        self.pending.clear();
        self.forming = None;
        self.accepted.clear();
        for t in [
            Timer::Search,
            Timer::Collect,
            Timer::MergeDelay,
            Timer::AcceptWindow,
        ] {
            ctx.cancel_timer(t);
        }
    }

    /// The paper's `Recovery`: a new group with this node alone, as its
    /// coordinator.
    fn form_own_group(&mut self, ctx: &mut C<'_>, search_now: bool) {
        self.clear_coordinator_state(ctx);
        self.counter += 1;
        self.group = Group {
            coordinator: self.id,
            counter: self.counter,
        };
        self.phase = Phase::Coordinating;
        self.roster.clear();
        self.confirmed = false;
        for t in [Timer::AwaitReady, Timer::Check, Timer::CoordinatorTimeout] {
            ctx.cancel_timer(t);
        }
        ctx.set_role(Role::Leader, None);
        ctx.set_leader(Some(self.id));
        if search_now {
            self.start_search(ctx);
        } else {
            self.arm_search(ctx);
        }
    }

    fn start_search(&mut self, ctx: &mut C<'_>) {
        if self.phase != Phase::Coordinating || self.searching || !self.pending.is_empty() {
            return;
        }
        // Forget members that stopped checking in.
        let now = ctx.local_now_us();
        let silent_limit = ctx.config().election_timeout_us.1 as i64;
        let gone: Vec<NodeId> = self
            .up
            .iter()
            .filter(|&(_, &heard)| now - heard > silent_limit)
            .map(|(&m, _)| m)
            .collect();
        if !gone.is_empty() {
            ctx.note_with(|| {
                format!(
                    "has not heard from member(s) {} for over {} ms; drops them from {}",
                    names(gone.iter().copied()),
                    to_ms(silent_limit as Micros),
                    self.group
                )
            });
            for m in gone {
                self.up.remove(&m);
            }
        }
        self.searching = true;
        self.found.clear();
        ctx.broadcast(Msg::AreYouCoordinator);
        let window = ctx.config().reply_timeout_us;
        ctx.set_timer(Timer::Collect, window);
    }

    fn end_search(&mut self, ctx: &mut C<'_>) {
        self.searching = false;
        if self.found.is_empty() {
            self.arm_search(ctx);
            return;
        }
        let me = self.priority();
        let above: Vec<NodeId> = self
            .found
            .iter()
            .filter(|&(&j, &size)| (size, j) > me)
            .map(|(&j, _)| j)
            .collect();
        let below: Vec<NodeId> = self
            .found
            .iter()
            .filter(|&(&j, &size)| (size, j) < me)
            .map(|(&j, _)| j)
            .collect();
        let (size, _) = me;
        if below.is_empty() {
            ctx.note_with(|| {
                format!(
                    "finds coordinator(s) {} that outrank its group of {size}; waits to be invited",
                    names(above)
                )
            });
            self.arm_search(ctx);
        } else if above.is_empty() {
            ctx.note_with(|| format!(
                "finds coordinator(s) {}; its group of {size} outranks them all, so it invites them now",
                names(below.iter().copied())
            ));
            self.merge(ctx, below);
        } else {
            let delay = ctx.config().reply_timeout_us * above.len() as u64;
            ctx.note_with(|| format!(
                "finds coordinators {} above it and {} below; waits {} ms so the higher ones can invite first",
                names(above),
                names(below.iter().copied()),
                to_ms(delay)
            ));
            self.pending = below;
            ctx.set_timer(Timer::MergeDelay, delay);
        }
    }

    /// The paper's `Merge`: invite `coordinators` and the own members into
    /// a new group.
    fn merge(&mut self, ctx: &mut C<'_>, coordinators: Vec<NodeId>) {
        self.phase = Phase::Merging;
        self.searching = false;
        self.pending.clear();
        ctx.cancel_timer(Timer::Search);
        self.counter += 1;
        let group = Group {
            coordinator: self.id,
            counter: self.counter,
        };
        self.forming = Some(group);
        self.accepted.clear();
        self.merges_started += 1;
        ctx.election_started();
        let (size, _) = self.priority();
        for j in coordinators.iter().chain(self.up.keys()) {
            ctx.send(*j, Msg::Invitation { group, size });
        }
        let window = ctx.config().reply_timeout_us * 2;
        ctx.set_timer(Timer::AcceptWindow, window);
    }

    /// The accept window closed: the accepted nodes form the new group.
    fn finish_merge(&mut self, ctx: &mut C<'_>) {
        let Some(group) = self.forming.take() else {
            return;
        };
        let now = ctx.local_now_us();
        self.group = group;
        self.phase = Phase::Coordinating;
        self.up = self.accepted.drain(..).map(|m| (m, now)).collect();
        let mut members: Vec<NodeId> = self.up.keys().copied().collect();
        members.push(self.id);
        members.sort_unstable();
        ctx.note_with(|| {
            format!(
                "{} is formed: {} (coordinator n{})",
                group,
                names(members.iter().copied()),
                self.id
            )
        });
        for &m in self.up.keys() {
            ctx.send(
                m,
                Msg::Ready {
                    group,
                    members: members.clone(),
                },
            );
        }
        self.arm_search(ctx);
    }

    /// Accepts an invitation into `group`: answer the inviter and wait for
    /// its READY.
    fn join(&mut self, ctx: &mut C<'_>, group: Group) {
        self.clear_coordinator_state(ctx);
        ctx.cancel_timer(Timer::Check);
        ctx.cancel_timer(Timer::CoordinatorTimeout);
        self.phase = Phase::Joining;
        self.group = group;
        self.roster.clear();
        self.confirmed = false;
        ctx.send(group.coordinator, Msg::Accept { group });
        // Between groups until READY: the page shows no leader for it.
        ctx.set_role(Role::Follower, None);
        ctx.set_leader(None);
        let wait = ctx.config().reply_timeout_us * 3;
        ctx.set_timer(Timer::AwaitReady, wait);
    }

    fn on_invitation(&mut self, ctx: &mut C<'_>, from: NodeId, group: Group, size: u32) {
        match self.phase {
            Phase::Coordinating => {
                let me = self.priority();
                if (size, group.coordinator) < me {
                    ctx.note_with(|| format!(
                        "declines n{}'s invitation: its group of {} outranks n{}'s group of {size}",
                        group.coordinator, me.0, group.coordinator
                    ));
                    return;
                }
                let members: Vec<NodeId> = self.up.keys().copied().collect();
                if members.is_empty() {
                    ctx.note_with(|| {
                        format!("accepts n{}'s invitation into {group}", group.coordinator)
                    });
                } else {
                    ctx.note_with(|| format!(
                        "accepts n{}'s invitation into {group} and passes it on to its member(s) {}",
                        group.coordinator,
                        names(members.iter().copied())
                    ));
                }
                for m in members {
                    ctx.send(m, Msg::Invitation { group, size });
                }
                self.join(ctx, group);
            }
            Phase::Member if from == self.group.coordinator => {
                if group.coordinator == from {
                    ctx.note_with(|| format!(
                        "its coordinator n{from} re-invites it into the merged group {group}; accepts"
                    ));
                } else {
                    ctx.note_with(|| format!(
                        "its coordinator n{from} passes on n{}'s invitation into {group}; accepts",
                        group.coordinator
                    ));
                }
                self.join(ctx, group);
            }
            // Not from the own coordinator, or in the middle of a merge.
            _ => {}
        }
    }

    fn on_ready(&mut self, ctx: &mut C<'_>, from: NodeId, group: Group, members: Vec<NodeId>) {
        if self.phase != Phase::Joining || group != self.group || from != group.coordinator {
            return;
        }
        self.phase = Phase::Member;
        self.roster = members;
        self.confirmed = true;
        ctx.set_leader(Some(from));
        ctx.cancel_timer(Timer::AwaitReady);
        self.start_checks(ctx);
    }

    fn start_checks(&self, ctx: &mut C<'_>) {
        let period = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Check, period);
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::CoordinatorTimeout, t);
    }
}

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
                    let t = leader_timeout(ctx);
                    ctx.set_timer(Timer::CoordinatorTimeout, t);
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
        let found: Vec<String> = self
            .found
            .iter()
            .map(|(j, size)| format!("n{j} (group of {size})"))
            .collect();
        let up: Vec<String> = self
            .up
            .iter()
            .map(|(m, heard)| format!("n{m} (last heard at {} ms local)", *heard as f64 / 1000.0))
            .collect();
        vec![
            ("phase", format!("{:?}", self.phase)),
            ("group", self.group.to_string()),
            ("coordinator", format!("n{}", self.group.coordinator)),
            (
                "members (coordinator)",
                if up.is_empty() {
                    "none".into()
                } else {
                    up.join(", ")
                },
            ),
            ("members (from READY)", names(self.roster.iter().copied())),
            ("group confirmed", self.confirmed.to_string()),
            ("group counter", self.counter.to_string()),
            ("searching", self.searching.to_string()),
            (
                "found coordinators",
                if found.is_empty() {
                    "none".into()
                } else {
                    found.join(", ")
                },
            ),
            ("to invite after delay", names(self.pending.iter().copied())),
            (
                "forming",
                self.forming.map_or("none".into(), |g| g.to_string()),
            ),
            ("accepted", names(self.accepted.iter().copied())),
            ("merges started", self.merges_started.to_string()),
            (
                "groups formed alone (recoveries)",
                self.groups_formed_alone.to_string(),
            ),
            ("nodes", self.n.to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Garcia-Molina 1982, section V,
    //! procedures Check, Merge, Invitation, Accept, Ready, AreYouThere,
    //! Timeout and Recovery).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, config, sends};

    /// Reply timeout of the default scenario (4 x 10 ms latency, at least
    /// 50 ms).
    const R: Micros = 50_000;

    fn node(id: NodeId, n: u32) -> (Invitation, Config) {
        let c = config(n, "ascending");
        (Invitation::new(id, &c, &0), c)
    }

    fn timers_set(out: &[Command<Msg, Timer>]) -> Vec<(Timer, Micros)> {
        out.iter()
            .filter_map(|c| match c {
                Command::SetTimer { timer, after_us } => Some((*timer, *after_us)),
                _ => None,
            })
            .collect()
    }

    fn leader_announced(out: &[Command<Msg, Timer>]) -> Option<Option<NodeId>> {
        out.iter().rev().find_map(|c| match c {
            Command::Leader(l) => Some(*l),
            _ => None,
        })
    }

    fn role_announced(out: &[Command<Msg, Timer>]) -> Option<Role> {
        out.iter().rev().find_map(|c| match c {
            Command::Role { role, .. } => Some(*role),
            _ => None,
        })
    }

    fn g(coordinator: NodeId, counter: u64) -> Group {
        Group {
            coordinator,
            counter,
        }
    }

    /// A coordinator of `id` whose group also holds `members`, heard from
    /// just now.
    fn coordinator_with(id: NodeId, n: u32, members: &[NodeId]) -> (Invitation, Config) {
        let (mut node, c) = node(id, n);
        commands(&mut node, id, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: false })
        });
        node.up = members.iter().map(|&m| (m, 0)).collect();
        (node, c)
    }

    /// A member of `coordinator`'s group `group`.
    fn member_of(id: NodeId, n: u32, group: Group) -> (Invitation, Config) {
        let (mut node, c) = node(id, n);
        commands(&mut node, id, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: false })
        });
        commands(&mut node, id, &c, |p, ctx| p.join(ctx, group));
        commands(&mut node, id, &c, |p, ctx| {
            p.on_message(
                ctx,
                group.coordinator,
                Msg::Ready {
                    group,
                    members: vec![id, group.coordinator],
                },
            )
        });
        assert_eq!(node.phase, Phase::Member);
        (node, c)
    }

    #[test]
    fn every_node_starts_as_the_coordinator_of_its_own_group() {
        let (mut p, c) = node(1, 4);
        let out = commands(&mut p, 1, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: true })
        });
        assert_eq!(role_announced(&out), Some(Role::Leader));
        assert_eq!(leader_announced(&out), Some(Some(1)));
        assert_eq!(p.group, g(1, 1));
        // An initiator looks for other coordinators at once.
        assert_eq!(
            sends(&out),
            vec![
                (0, Msg::AreYouCoordinator),
                (2, Msg::AreYouCoordinator),
                (3, Msg::AreYouCoordinator)
            ]
        );
        assert_eq!(timers_set(&out), vec![(Timer::Collect, R)]);
        // A non-initiator waits one search period (150..=300 ms).
        let (mut q, c) = node(2, 4);
        let out = commands(&mut q, 2, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: false })
        });
        assert!(sends(&out).is_empty());
        let t = timers_set(&out);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].0, Timer::Search);
        assert!((150_000..=300_000).contains(&t[0].1));
    }

    #[test]
    fn only_a_coordinator_answers_the_search_with_its_group_size() {
        let (mut p, c) = coordinator_with(2, 4, &[0, 1]);
        let out = commands(&mut p, 2, &c, |p, ctx| {
            p.on_message(ctx, 3, Msg::AreYouCoordinator)
        });
        assert_eq!(sends(&out), vec![(3, Msg::IAmCoordinator { size: 3 })]);
        let (mut m, c) = member_of(0, 4, g(2, 5));
        let out = commands(&mut m, 0, &c, |p, ctx| {
            p.on_message(ctx, 3, Msg::AreYouCoordinator)
        });
        assert!(sends(&out).is_empty(), "members stay silent");
    }

    #[test]
    fn the_highest_priority_coordinator_invites_at_once() {
        let (mut p, c) = node(3, 4);
        commands(&mut p, 3, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: true })
        });
        for j in [0, 1] {
            commands(&mut p, 3, &c, |p, ctx| {
                p.on_message(ctx, j, Msg::IAmCoordinator { size: 1 })
            });
        }
        let out = commands(&mut p, 3, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
        let invite = Msg::Invitation {
            group: g(3, 2),
            size: 1,
        };
        assert_eq!(sends(&out), vec![(0, invite.clone()), (1, invite)]);
        assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
        assert_eq!(timers_set(&out), vec![(Timer::AcceptWindow, 2 * R)]);
        assert_eq!(p.phase, Phase::Merging);
    }

    #[test]
    fn a_lower_priority_coordinator_waits_one_reply_timeout_per_higher_one() {
        let (mut p, c) = node(1, 4);
        commands(&mut p, 1, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: true })
        });
        for j in [0, 2, 3] {
            commands(&mut p, 1, &c, |p, ctx| {
                p.on_message(ctx, j, Msg::IAmCoordinator { size: 1 })
            });
        }
        let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
        assert!(sends(&out).is_empty());
        assert_eq!(timers_set(&out), vec![(Timer::MergeDelay, 2 * R)]);
        // Nobody invited it meanwhile: it invites only the one it outranks.
        let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::MergeDelay));
        assert_eq!(
            sends(&out),
            vec![(
                0,
                Msg::Invitation {
                    group: g(1, 2),
                    size: 1
                }
            )]
        );
    }

    #[test]
    fn a_larger_group_outranks_a_higher_id() {
        // n1 leads {n0, n1, n2}; n3 leads only itself.
        let (mut p, c) = coordinator_with(1, 4, &[0, 2]);
        commands(&mut p, 1, &c, |p, ctx| p.start_search(ctx));
        commands(&mut p, 1, &c, |p, ctx| {
            p.on_message(ctx, 3, Msg::IAmCoordinator { size: 1 })
        });
        let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
        let invite = Msg::Invitation {
            group: g(1, 2),
            size: 3,
        };
        // The found coordinator first, then its own members again.
        assert_eq!(
            sends(&out),
            vec![(3, invite.clone()), (0, invite.clone()), (2, invite)]
        );
    }

    #[test]
    fn a_coordinator_that_outranks_nobody_waits_to_be_invited() {
        let (mut p, c) = node(0, 3);
        commands(&mut p, 0, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: true })
        });
        commands(&mut p, 0, &c, |p, ctx| {
            p.on_message(ctx, 2, Msg::IAmCoordinator { size: 1 })
        });
        let out = commands(&mut p, 0, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
        assert!(sends(&out).is_empty());
        assert_eq!(timers_set(&out).first().map(|t| t.0), Some(Timer::Search));
        assert_eq!(p.phase, Phase::Coordinating);
    }

    #[test]
    fn an_outranked_coordinator_accepts_and_passes_the_invitation_on() {
        let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
        let group = g(5, 4);
        let invite = Msg::Invitation { group, size: 3 };
        let out = commands(&mut p, 2, &c, |p, ctx| p.on_message(ctx, 5, invite.clone()));
        assert_eq!(
            sends(&out),
            vec![(0, invite.clone()), (1, invite), (5, Msg::Accept { group })]
        );
        assert_eq!(role_announced(&out), Some(Role::Follower));
        assert_eq!(leader_announced(&out), Some(None), "no leader until READY");
        assert_eq!(timers_set(&out), vec![(Timer::AwaitReady, 3 * R)]);
        assert_eq!(p.phase, Phase::Joining);
        assert!(p.up.is_empty());
    }

    #[test]
    fn an_invitation_from_an_outranked_coordinator_is_declined() {
        // n2 leads three nodes; n5 leads one: n5 is outranked.
        let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
        let out = commands(&mut p, 2, &c, |p, ctx| {
            p.on_message(
                ctx,
                5,
                Msg::Invitation {
                    group: g(5, 4),
                    size: 1,
                },
            )
        });
        assert!(sends(&out).is_empty());
        assert_eq!(p.phase, Phase::Coordinating);
    }

    #[test]
    fn a_member_accepts_only_invitations_its_coordinator_sends_or_passes_on() {
        let (mut m, c) = member_of(0, 6, g(2, 3));
        let stray = Msg::Invitation {
            group: g(5, 4),
            size: 4,
        };
        let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 5, stray.clone()));
        assert!(sends(&out).is_empty());
        let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 2, stray));
        assert_eq!(sends(&out), vec![(5, Msg::Accept { group: g(5, 4) })]);
    }

    #[test]
    fn the_accept_window_closes_with_ready_to_everyone_who_accepted() {
        let (mut p, c) = node(4, 5);
        commands(&mut p, 4, &c, |p, ctx| {
            p.on_start(ctx, Boot::Fresh { initiate: false })
        });
        commands(&mut p, 4, &c, |p, ctx| p.merge(ctx, vec![0, 1, 3]));
        let group = g(4, 2);
        for j in [3, 0, 3] {
            commands(&mut p, 4, &c, |p, ctx| {
                p.on_message(ctx, j, Msg::Accept { group })
            });
        }
        // An ACCEPT for another group is ignored.
        commands(&mut p, 4, &c, |p, ctx| {
            p.on_message(ctx, 1, Msg::Accept { group: g(4, 1) })
        });
        let out = commands(&mut p, 4, &c, |p, ctx| p.on_timer(ctx, Timer::AcceptWindow));
        let ready = Msg::Ready {
            group,
            members: vec![0, 3, 4],
        };
        assert_eq!(sends(&out), vec![(0, ready.clone()), (3, ready)]);
        assert_eq!(p.phase, Phase::Coordinating);
        assert_eq!(p.group, group);
        assert_eq!(p.priority(), (3, 4));
    }

    #[test]
    fn ready_makes_a_member_that_checks_its_coordinator() {
        let (mut m, c) = node(1, 4);
        commands(&mut m, 1, &c, |p, ctx| p.join(ctx, g(3, 2)));
        let out = commands(&mut m, 1, &c, |p, ctx| {
            p.on_message(
                ctx,
                3,
                Msg::Ready {
                    group: g(3, 2),
                    members: vec![1, 3],
                },
            )
        });
        assert_eq!(leader_announced(&out), Some(Some(3)));
        let t = timers_set(&out);
        assert_eq!(t[0], (Timer::Check, 50_000));
        assert_eq!(t[1].0, Timer::CoordinatorTimeout);
        let out = commands(&mut m, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Check));
        assert_eq!(sends(&out), vec![(3, Msg::AreYouThere { group: g(3, 2) })]);
    }

    #[test]
    fn are_you_there_is_answered_yes_only_for_a_member_of_the_current_group() {
        let (mut p, c) = coordinator_with(3, 5, &[0, 1]);
        let here = Msg::AreYouThere { group: p.group };
        let out = commands(&mut p, 3, &c, |p, ctx| p.on_message(ctx, 1, here.clone()));
        assert_eq!(sends(&out), vec![(1, Msg::Yes)]);
        let out = commands(&mut p, 3, &c, |p, ctx| p.on_message(ctx, 2, here));
        assert_eq!(sends(&out), vec![(2, Msg::No)], "not a member");
        let out = commands(&mut p, 3, &c, |p, ctx| {
            p.on_message(ctx, 0, Msg::AreYouThere { group: g(3, 0) })
        });
        assert_eq!(sends(&out), vec![(0, Msg::No)], "an old group");
    }

    #[test]
    fn a_member_told_no_or_left_without_answer_forms_a_group_of_its_own() {
        let (mut m, c) = member_of(0, 4, g(2, 3));
        let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 2, Msg::No));
        assert_eq!(role_announced(&out), Some(Role::Leader));
        assert_eq!(leader_announced(&out), Some(Some(0)));
        assert_eq!(
            m.group,
            g(0, 2),
            "a new group number: g0.1 at start, now g0.2"
        );
        let (mut m, c) = member_of(1, 4, g(2, 3));
        let out = commands(&mut m, 1, &c, |p, ctx| {
            p.on_timer(ctx, Timer::CoordinatorTimeout)
        });
        assert_eq!(role_announced(&out), Some(Role::Leader));
        assert_eq!(m.phase, Phase::Coordinating);
    }

    #[test]
    fn a_lost_ready_is_made_up_for_by_asking() {
        let (mut m, c) = node(1, 4);
        commands(&mut m, 1, &c, |p, ctx| p.join(ctx, g(3, 2)));
        let out = commands(&mut m, 1, &c, |p, ctx| p.on_timer(ctx, Timer::AwaitReady));
        assert_eq!(sends(&out), vec![(3, Msg::AreYouThere { group: g(3, 2) })]);
        let out = commands(&mut m, 1, &c, |p, ctx| p.on_message(ctx, 3, Msg::Yes));
        assert_eq!(leader_announced(&out), Some(Some(3)));
        assert_eq!(m.phase, Phase::Member);
    }

    #[test]
    fn a_coordinator_waiting_for_ready_does_not_answer_its_former_members() {
        let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
        let old = p.group;
        commands(&mut p, 2, &c, |p, ctx| {
            p.on_message(
                ctx,
                5,
                Msg::Invitation {
                    group: g(5, 4),
                    size: 4,
                },
            )
        });
        let out = commands(&mut p, 2, &c, |p, ctx| {
            p.on_message(ctx, 0, Msg::AreYouThere { group: old })
        });
        assert!(sends(&out).is_empty());
    }

    #[test]
    fn a_search_drops_members_that_stopped_checking_in() {
        let (mut p, c) = coordinator_with(3, 5, &[0, 1]);
        // n0 last checked in 400 ms ago (local time 0 now), longer than the
        // longest failure-detection timeout (300 ms); n1 just now.
        p.up.insert(0, -400_000);
        let out = commands(&mut p, 3, &c, |p, ctx| p.on_timer(ctx, Timer::Search));
        assert_eq!(p.up.keys().copied().collect::<Vec<_>>(), vec![1]);
        assert_eq!(
            sends(&out).len(),
            4,
            "ARE_YOU_COORDINATOR to every other node"
        );
    }

    #[test]
    fn a_recovered_node_forms_a_new_group_number() {
        let (mut p, c) = node(2, 4);
        p.counter = 7;
        let persistent = p.persistent();
        let mut back = Invitation::new(2, &c, &persistent);
        let out = commands(&mut back, 2, &c, |p, ctx| p.on_start(ctx, Boot::Recover));
        assert_eq!(back.group, g(2, 8));
        assert_eq!(role_announced(&out), Some(Role::Leader));
        assert_eq!(sends(&out).len(), 3, "searches at once");
    }
}
