//! What the story reads off one recorded run: the trace up to the run's
//! end (the run `election run` reports), who leads after each change, who
//! is alive at a moment, and the decisive moments with their windows.
//! Everything here is a function of the trace; the captions
//! (`captions.rs`) and the questions (`questions.rs`) only phrase it.

use crate::protocol::{NodeId, Purpose, Role, TimerClass};
use crate::scenario::Scenario;
use crate::sim::Simulation;
use crate::time::Micros;
use crate::trace::{Event, TraceEvent};

/// The recorded run and what is derived from it once.
pub(crate) struct Facts {
    /// The scenario's participants (ids `0..nodes`; extras come after).
    pub nodes: u32,
    /// The algorithm id.
    pub algorithm: String,
    /// The recorded events up to the run's end.
    pub events: Vec<TraceEvent>,
    /// When the run ended.
    pub end_us: Micros,
    /// After event `index`, the live leaders are `leaders`: one entry per
    /// change of the set, in trace order (the set before the first is
    /// empty).
    pub leader_changes: Vec<(usize, Vec<NodeId>)>,
    /// Whether each message id was sent for the election.
    election_ids: Vec<bool>,
    /// Nodes that ever took the observer role (they never stand).
    pub observers: Vec<NodeId>,
    /// The decisive moments: trace index where each window starts (0 for
    /// time 0, else the fault event's index), in order.
    pub decisive: Vec<usize>,
}

/// A stretch of the run that a question is about: from a moment to the
/// next decisive moment (or the run's end).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    /// First event (inclusive).
    pub from: usize,
    /// Last event (exclusive).
    pub to: usize,
    /// The moment's time.
    pub at_us: Micros,
    /// When the window ends.
    pub to_us: Micros,
}

/// Whether an event is a fault the questions ask about (crash, partition,
/// heal).
#[inline(never)]
fn question_fault(e: &Event) -> bool {
    matches!(
        e,
        Event::Crash { .. } | Event::Partition { .. } | Event::Heal
    )
}

/// Whether an event is a fault applied by the engine (any kind).
#[inline(never)]
pub(crate) fn is_fault(e: &Event) -> bool {
    matches!(
        e,
        Event::Crash { .. }
            | Event::Recover { .. }
            | Event::Pause { .. }
            | Event::Clock { .. }
            | Event::Slow { .. }
            | Event::Partition { .. }
            | Event::Heal
            | Event::Cut { .. }
            | Event::Uncut { .. }
            | Event::Network { .. }
            | Event::FaultSkipped { .. }
    )
}

impl Facts {
    /// One recorded run of `scenario` to its end, or to where its trace
    /// was cut (see [`super::StoryRecording`]).
    pub fn of(scenario: &Scenario) -> Self {
        super::StoryRecording::new(scenario).finish(scenario).0
    }

    /// The facts of a recorded simulation that ran to its end at `end_us`.
    /// A trace cut at `MAX_TRACE_EVENTS` ends the story at the cut (its
    /// `Truncated` marker), whatever the run did after it: what
    /// `election run --json` and the page tell is then the same.
    pub fn from_sim(scenario: &Scenario, sim: &dyn Simulation, end_us: Micros) -> Self {
        let events = sim.trace().to_vec();
        let end_us = match events.last() {
            Some(last) if matches!(last.event, Event::Truncated { .. }) => last.at_us,
            _ => end_us,
        };
        let mut role: Vec<Role> = Vec::new();
        let mut leaders: Vec<NodeId> = Vec::new();
        let mut leader_changes = Vec::new();
        let mut election_ids = Vec::new();
        let mut observers = Vec::new();
        for (i, e) in events.iter().enumerate() {
            let changed = match &e.event {
                Event::Role { node, role: r, .. } => {
                    if *r == Role::Observer && !observers.contains(node) {
                        observers.push(*node);
                    }
                    set_role(&mut role, *node, *r)
                }
                Event::Crash { node } | Event::Recover { node } => {
                    set_role(&mut role, *node, Role::Follower)
                }
                Event::Send { id, purpose, .. } => {
                    let id = *id as usize;
                    if election_ids.len() <= id {
                        election_ids.resize(id + 1, false);
                    }
                    election_ids[id] = *purpose == Purpose::Election;
                    false
                }
                _ => false,
            };
            if changed {
                let now: Vec<NodeId> = role
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| **r == Role::Leader)
                    .map(|(n, _)| n as NodeId)
                    .collect();
                if now != leaders {
                    leaders = now;
                    leader_changes.push((i, leaders.clone()));
                }
            }
        }
        let mut facts = Self {
            nodes: scenario.nodes,
            algorithm: scenario.algorithm.clone(),
            events,
            end_us,
            leader_changes,
            election_ids,
            observers,
            decisive: Vec::new(),
        };
        facts.decisive = facts.find_decisive();
        facts
    }

    /// Time 0, and each crash, partition or heal after which an election
    /// follows before the next such fault.
    fn find_decisive(&self) -> Vec<usize> {
        let mut starts = vec![0];
        starts.extend(
            self.events
                .iter()
                .enumerate()
                .filter(|(_, e)| question_fault(&e.event))
                .map(|(i, _)| i),
        );
        let mut out = Vec::new();
        for (k, &from) in starts.iter().enumerate() {
            let to = starts.get(k + 1).copied().unwrap_or(self.events.len());
            if self.first_election(from, to).is_some() {
                out.push(from);
            }
        }
        out
    }

    /// Whether the message with this id was sent for the election.
    #[inline(never)]
    pub fn is_election_id(&self, id: u64) -> bool {
        self.election_ids.get(id as usize).copied().unwrap_or(false)
    }

    /// Whether an event is more than background traffic: the moments.
    #[inline(never)]
    pub fn is_story_event(&self, e: &Event) -> bool {
        match e {
            Event::Send { purpose, .. } => *purpose == Purpose::Election,
            Event::Deliver { id, .. } | Event::Drop { id, .. } => self.is_election_id(*id),
            Event::Undeliverable { .. } => false,
            // A timer that changes something is a moment through what it
            // does (the role, the election, the messages it sends).
            Event::Timer { .. } | Event::Note { .. } => false,
            Event::Write { accepted, .. } => !accepted,
            Event::Start { .. }
            | Event::Role { .. }
            | Event::Leader { .. }
            | Event::Election { .. }
            | Event::Vote { .. }
            | Event::Lease { .. }
            | Event::Resume { .. }
            | Event::Truncated { .. }
            | Event::Violation { .. } => true,
            other => is_fault(other),
        }
    }

    /// The first event in `from..to` that starts an election: an
    /// election-purpose send or an election announcement. Returns its index.
    #[inline(never)]
    pub fn first_election(&self, from: usize, to: usize) -> Option<usize> {
        (from..to.min(self.events.len())).find(|&i| {
            matches!(
                self.events[i].event,
                Event::Election { .. }
                    | Event::Send {
                        purpose: Purpose::Election,
                        ..
                    }
            )
        })
    }

    /// The first election-purpose send by a participant (not a service
    /// or resource node) in `from..to`: (index, sender).
    #[inline(never)]
    pub fn first_election_send(&self, from: usize, to: usize) -> Option<(usize, NodeId)> {
        (from..to.min(self.events.len())).find_map(|i| match self.events[i].event {
            Event::Send {
                from: sender,
                purpose: Purpose::Election,
                ..
            } if sender < self.nodes => Some((i, sender)),
            _ => None,
        })
    }

    /// Who started the election of `from..to`: the first election sender,
    /// else the first node that announced an election.
    #[inline(never)]
    pub fn first_mover(&self, from: usize, to: usize) -> Option<(usize, NodeId)> {
        let send = self.first_election_send(from, to);
        let announced =
            (from..to.min(self.events.len())).find_map(|i| match self.events[i].event {
                Event::Election { node } => Some((i, node)),
                _ => None,
            });
        send.or(announced)
    }

    /// The timer of `node` that fired at the time of event `index`, just
    /// before it (what made the node act), with its class.
    #[inline(never)]
    pub fn timer_before(&self, index: usize, node: NodeId) -> Option<TimerClass> {
        let at = self.events.get(index)?.at_us;
        self.events[..index]
            .iter()
            .rev()
            .take_while(|e| e.at_us == at)
            .find_map(|e| match &e.event {
                Event::Timer { node: n, class, .. } if *n == node => Some(*class),
                _ => None,
            })
    }

    /// The live leaders right after event `index` (before any event, none).
    #[inline(never)]
    pub fn leaders_after(&self, index: usize) -> &[NodeId] {
        let k = self.leader_changes.partition_point(|(i, _)| *i <= index);
        if k == 0 {
            &[]
        } else {
            &self.leader_changes[k - 1].1
        }
    }

    /// The live leaders after every event before `index`.
    #[inline(never)]
    pub fn leaders_before(&self, index: usize) -> &[NodeId] {
        if index == 0 {
            &[]
        } else {
            self.leaders_after(index - 1)
        }
    }

    /// The window of the decisive moment at trace index `from`: to the next
    /// decisive moment, or the run's end.
    #[inline(never)]
    pub fn window_from(&self, from: usize) -> Window {
        let to = self
            .decisive
            .iter()
            .copied()
            .find(|&d| d > from)
            .unwrap_or(self.events.len());
        let at_us = if from == 0 {
            0
        } else {
            self.events.get(from).map_or(self.end_us, |e| e.at_us)
        };
        let to_us = self.events.get(to).map_or(self.end_us, |e| e.at_us);
        Window {
            from,
            to,
            at_us,
            to_us,
        }
    }

    /// The window a question at `at_us` is about: the decisive moment at
    /// that time if there is one, else from the first event at or after it
    /// to the next decisive moment. `None` when no election follows in it.
    #[inline(never)]
    pub fn window_at(&self, at_us: Micros) -> Option<Window> {
        let from = match self
            .decisive
            .iter()
            .copied()
            .find(|&d| self.moment_us(d) == at_us)
        {
            Some(d) => d,
            None => self.events.partition_point(|e| e.at_us < at_us),
        };
        let mut w = self.window_from(from);
        w.at_us = at_us;
        self.first_election(w.from, w.to)?;
        Some(w)
    }

    /// The time of the decisive moment at trace index `d`.
    #[inline(never)]
    pub fn moment_us(&self, d: usize) -> Micros {
        if d == 0 {
            0
        } else {
            self.events.get(d).map_or(self.end_us, |e| e.at_us)
        }
    }

    /// Nodes alive right before event `index` (participants only).
    #[inline(never)]
    pub fn alive_before(&self, index: usize) -> Vec<bool> {
        let mut alive = vec![true; self.nodes as usize];
        for e in &self.events[..index.min(self.events.len())] {
            match e.event {
                Event::Crash { node } if node < self.nodes => alive[node as usize] = false,
                Event::Recover { node } if node < self.nodes => alive[node as usize] = true,
                _ => {}
            }
        }
        alive
    }

    /// Participants that may lead: alive right before `index`, not
    /// observers.
    #[inline(never)]
    pub fn candidates_before(&self, index: usize) -> Vec<NodeId> {
        self.alive_before(index)
            .iter()
            .enumerate()
            .filter(|(n, a)| **a && !self.observers.contains(&(*n as NodeId)))
            .map(|(n, _)| n as NodeId)
            .collect()
    }

    /// The one leader at the end of the window, if exactly one leads.
    #[inline(never)]
    pub fn outcome(&self, w: &Window) -> Option<NodeId> {
        match self.leaders_before(w.to) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// When `leader` last became leader before the window's end (within
    /// the window), as a trace index.
    #[inline(never)]
    pub fn became_leader(&self, w: &Window, leader: NodeId) -> Option<usize> {
        (w.from..w.to).rev().find(|&i| {
            matches!(
                self.events[i].event,
                Event::Role { node, role: Role::Leader, .. } if node == leader
            )
        })
    }

    /// Election-purpose messages sent in the window (each send once: a
    /// duplicated copy is not a second send), and the count by kind in
    /// first-sent order.
    #[inline(never)]
    pub fn election_messages(&self, w: &Window) -> (u64, Vec<(&'static str, u64)>) {
        let mut total = 0;
        let mut by_kind: Vec<(&'static str, u64)> = Vec::new();
        for e in &self.events[w.from..w.to] {
            if let Event::Send {
                purpose: Purpose::Election,
                duplicate: false,
                kind,
                ..
            } = e.event
            {
                total += 1;
                match by_kind.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, c)) => *c += 1,
                    None => by_kind.push((kind, 1)),
                }
            }
        }
        (total, by_kind)
    }

    /// Time in the window with more than one live leader, and the leaders
    /// of the first such stretch.
    #[inline(never)]
    pub fn split_brain(&self, w: &Window) -> (Micros, Vec<NodeId>) {
        let mut total = 0;
        let mut first: Vec<NodeId> = Vec::new();
        let mut since = w.at_us;
        let mut current = self.leaders_before(w.from).to_vec();
        let start = self.leader_changes.partition_point(|(i, _)| *i < w.from);
        for (i, set) in &self.leader_changes[start..] {
            if *i >= w.to {
                break;
            }
            let at = self.events[*i].at_us;
            if current.len() > 1 && at > since {
                total += at - since;
                if first.is_empty() {
                    first = current.clone();
                }
            }
            since = since.max(at);
            current = set.clone();
        }
        if current.len() > 1 && w.to_us > since {
            total += w.to_us - since;
            if first.is_empty() {
                first = current;
            }
        }
        (total, first)
    }

    /// The last time `to` heard anything from `from` before event `index`.
    #[inline(never)]
    pub fn last_heard(&self, index: usize, from: NodeId, to: NodeId) -> Option<Micros> {
        self.events[..index]
            .iter()
            .rev()
            .find_map(|e| match e.event {
                Event::Deliver { from: f, to: t, .. } if f == from && t == to => Some(e.at_us),
                _ => None,
            })
    }

    /// Votes for `candidate` in `term` that it holds at event `index`: its
    /// own, and each other voter's whose vote was cast and a message from
    /// that voter delivered to the candidate after it (the reply), before
    /// `index`.
    #[inline(never)]
    pub fn votes_for(&self, index: usize, candidate: NodeId, term: u64) -> usize {
        let mut held = 0;
        for (v, e) in self.events[..index].iter().enumerate() {
            let Event::Vote {
                node: voter,
                term: t,
                candidate: c,
            } = e.event
            else {
                continue;
            };
            if t != term || c != candidate {
                continue;
            }
            let replied = voter == candidate
                || self.events[v..=index].iter().any(|d| {
                    matches!(d.event, Event::Deliver { from, to, .. } if from == voter && to == candidate)
                });
            if replied {
                held += 1;
            }
        }
        held
    }

    /// Participants that vote (not observers).
    #[inline(never)]
    pub fn voters(&self) -> u32 {
        self.nodes - self.observers.len() as u32
    }
}

/// Sets a node's role in the table; whether the node's leadership changed.
#[inline(never)]
fn set_role(table: &mut Vec<Role>, node: NodeId, role: Role) -> bool {
    let i = node as usize;
    if table.len() <= i {
        table.resize(i + 1, Role::Follower);
    }
    let was = table[i] == Role::Leader;
    table[i] = role;
    was != (role == Role::Leader)
}
