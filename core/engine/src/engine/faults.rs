//! Applying faults: crash, recover, pause, clock, partition, heal, slow,
//! flaky, link cuts, network changes; and resolving `"leader"` targets.

use super::*;

impl<P: Protocol> Engine<P> {
    /// The node fault `index` acts on now; `None` when it is aimed at the
    /// leader and none leads (skipped, or for `"leader-or-next"` put aside
    /// until a node takes the leader role: `refresh_leaders`).
    pub(super) fn resolve(&mut self, target: Target, what: &str, index: usize) -> Option<NodeId> {
        match target {
            Target::Node(id) => Some(id),
            Target::Leader | Target::LeaderOrNext => {
                let found = self.leaders.first().copied();
                if found.is_none() {
                    let waits = target == Target::LeaderOrNext;
                    // A skipped fault hashes as it always did; one that
                    // waits adds a word.
                    let words: &[u64] = if waits { &[1] } else { &[] };
                    self.hash_event(HashTag::LeaderlessSkip, words);
                    emit!(self, leaderless_skip(what, waits));
                    if waits {
                        self.waiting_faults.push(index);
                    }
                }
                found
            }
        }
    }

    pub(super) fn apply_fault(&mut self, index: usize) {
        let fault = self.scenario.faults[index].clone();
        match &fault.action {
            FaultAction::Crash(t) => {
                if let Some(id) = self.resolve(*t, "crash", index) {
                    self.crash(id);
                }
            }
            FaultAction::Recover(t) => {
                if let Some(id) = self.resolve(*t, "recover", index) {
                    self.recover(id);
                }
            }
            FaultAction::Pause { node, for_us } => {
                if let Some(id) = self.resolve(*node, "pause", index) {
                    let slot = &mut self.slots[id as usize];
                    if slot.state.is_none() {
                        return;
                    }
                    let until = (self.now + for_us).max(slot.paused_until.unwrap_or(0));
                    slot.paused_until = Some(until);
                    self.hash_event(HashTag::Pause, &[u64::from(id), until]);
                    emit!(
                        self,
                        Event::Pause {
                            node: id,
                            until_us: until,
                        }
                    );
                    self.schedule(
                        until,
                        Ev::Resume {
                            node: id,
                            at: until,
                        },
                    );
                }
            }
            FaultAction::Clock {
                node,
                offset_us,
                drift,
            } => {
                if let Some(id) = self.resolve(*node, "set the clock of", index) {
                    self.set_clock(
                        id,
                        LocalClock {
                            offset_us: *offset_us,
                            drift: *drift,
                        },
                    );
                }
            }
            FaultAction::Slow { node, extra_us } => {
                if let Some(id) = self.resolve(*node, "slow down", index) {
                    self.slots[id as usize].slow_us = *extra_us;
                    self.hash_event(HashTag::Slow, &[u64::from(id), *extra_us]);
                    emit!(
                        self,
                        Event::Slow {
                            node: id,
                            extra_us: *extra_us,
                        }
                    );
                }
            }
            FaultAction::Flaky { node, .. } => {
                if let Some(id) = self.resolve(*node, "make flaky", index) {
                    let began = self.now;
                    self.schedule(
                        began,
                        Ev::FlakyDown {
                            node: id,
                            fault: index as u32,
                            began,
                        },
                    );
                }
            }
            FaultAction::Partition(_)
            | FaultAction::Heal
            | FaultAction::Cut { .. }
            | FaultAction::Uncut { .. }
            | FaultAction::Network(_) => {
                let Some(change) = change_network(&mut self.network, &fault.action, self.record)
                else {
                    return;
                };
                self.hash_event(change.tag, &change.words);
                if let Some(event) = change.event {
                    self.record_event(event);
                }
                if change.regrouped {
                    self.leaders_dirty = true;
                    self.agreement_dirty = true;
                }
            }
        }
    }

    pub(super) fn crash(&mut self, id: NodeId) {
        let slot = &mut self.slots[id as usize];
        let Some(state) = slot.state.take() else {
            return;
        };
        slot.persistent = state.persistent();
        slot.timers.clear();
        slot.incarnation += 1;
        slot.paused_until = None;
        slot.role = Role::Follower;
        slot.leader = None;
        let held = std::mem::replace(&mut slot.holds_lease, false);
        self.hash_event(HashTag::Crash, &[u64::from(id)]);
        emit!(self, Event::Crash { node: id });
        if held {
            // A crashed node believes nothing.
            self.checker.on_lease(self.now, id, false);
        }
        self.leaders_dirty = true;
        self.agreement_dirty = true;
    }

    pub(super) fn recover(&mut self, id: NodeId) {
        let slot = &mut self.slots[id as usize];
        if slot.state.is_some() {
            return;
        }
        slot.state = Some(P::new(id, &self.config, &slot.persistent));
        self.hash_event(HashTag::Recover, &[u64::from(id)]);
        emit!(self, Event::Recover { node: id });
        self.agreement_dirty = true;
        self.dispatch(id, |p, ctx| p.on_start(ctx, Boot::Recover));
    }

    pub(super) fn set_clock(&mut self, id: NodeId, clock: LocalClock) {
        self.hash_event(
            HashTag::Clock,
            &[u64::from(id), clock.offset_us as u64, clock.drift.to_bits()],
        );
        emit!(
            self,
            Event::Clock {
                node: id,
                offset_us: clock.offset_us,
                drift: clock.drift,
            }
        );
        let now = self.now;
        let slot = &mut self.slots[id as usize];
        slot.clock = clock;
        // Armed timers keep their local deadlines; their true fire times move.
        // An entry queued too late is replaced; one queued too early fires,
        // finds its deadline ahead and queues itself again.
        let mut moved = Vec::with_capacity(slot.timers.len());
        for t in &mut slot.timers {
            let at = clock.true_time_of(t.local_deadline, now);
            if at < t.queued_at {
                t.generation = self.next_generation;
                self.next_generation += 1;
                t.queued_at = at;
                moved.push((at, t.timer, t.generation));
            }
        }
        for (at, timer, generation) in moved {
            self.queue.push(
                at,
                Ev::Timer {
                    node: id,
                    timer,
                    generation,
                },
            );
        }
    }
}

/// The trace event of a fault aimed at the leader when no node leads.
/// Not generic and never inlined: one copy in the wasm, not one per
/// algorithm and fault kind.
#[inline(never)]
fn leaderless_skip(what: &str, waits: bool) -> Event {
    let detail = if waits {
        format!("{what} the leader: no node leads right now; it waits for the next leader")
    } else {
        format!("{what} the leader: no node leads right now, nothing happens")
    };
    Event::FaultSkipped { detail }
}

/// What a fault on the network itself did.
struct NetworkChange {
    /// Its tag in the trace hash.
    tag: HashTag,
    /// Words for the trace hash (after the time and the tag).
    words: Vec<u64>,
    /// Its trace event, built only when recording.
    event: Option<Event>,
    /// Whether the partition groups changed (leaders and agreement must
    /// be looked at again).
    regrouped: bool,
}

/// Applies a partition, heal, link cut or network change, which touch
/// only the network: not generic, so the page's wasm holds this once
/// instead of inside every algorithm's engine. Other faults change
/// nothing here (`None`).
#[inline(never)]
fn change_network(
    network: &mut Network,
    action: &FaultAction,
    record: bool,
) -> Option<NetworkChange> {
    let (tag, words, event, regrouped) = match action {
        FaultAction::Partition(groups) => {
            network.partition(groups);
            let mut words = Vec::with_capacity(network.group.len());
            for (id, &g) in network.group.iter().enumerate() {
                words.push(((id as u64) << 32) | u64::from(g));
            }
            let event = record.then(|| {
                let mut shown: Vec<Vec<NodeId>> = vec![Vec::new(); groups.len() + 1];
                for (id, &g) in network.group.iter().enumerate() {
                    shown[g as usize].push(id as NodeId);
                }
                shown.retain(|g| !g.is_empty());
                Event::Partition { groups: shown }
            });
            (HashTag::Partition, words, event, true)
        }
        FaultAction::Heal => {
            network.heal();
            (
                HashTag::Heal,
                Vec::new(),
                record.then_some(Event::Heal),
                true,
            )
        }
        FaultAction::Cut { from, to } => {
            network.cuts.insert((*from, *to));
            let event = Event::Cut {
                from: *from,
                to: *to,
            };
            (
                HashTag::Cut,
                vec![u64::from(*from), u64::from(*to)],
                record.then_some(event),
                false,
            )
        }
        FaultAction::Uncut { from, to } => {
            network.cuts.remove(&(*from, *to));
            let event = Event::Uncut {
                from: *from,
                to: *to,
            };
            (
                HashTag::Uncut,
                vec![u64::from(*from), u64::from(*to)],
                record.then_some(event),
                false,
            )
        }
        FaultAction::Network(spec) => {
            network.spec = spec.clone();
            let event = record.then(|| Event::Network {
                latency_ms: (to_ms(spec.latency_us.0), to_ms(spec.latency_us.1)),
                drop: spec.drop,
                duplicate: spec.duplicate,
            });
            (
                HashTag::Network,
                vec![spec.latency_us.0, spec.latency_us.1],
                event,
                false,
            )
        }
        FaultAction::Crash(_)
        | FaultAction::Recover(_)
        | FaultAction::Pause { .. }
        | FaultAction::Clock { .. }
        | FaultAction::Slow { .. }
        | FaultAction::Flaky { .. } => return None,
    };
    Some(NetworkChange {
        tag,
        words,
        event,
        regrouped,
    })
}
