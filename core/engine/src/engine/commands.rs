//! Carrying out what a handler asked for: sends (latency, loss,
//! duplication, FIFO links), timers, roles, leader beliefs, votes, writes,
//! leases, notes.

use super::*;

/// `ELECTION(3)` from kind `ELECTION` and `Election(3)`: the kind name
/// plus whatever payload the message's Debug form shows.
/// At most `MAX_TRACE_TEXT` characters (core/engine/src/limits.rs).
fn describe_message<M: std::fmt::Debug>(kind: &str, msg: &M) -> String {
    let debug = format!("{msg:?}");
    crate::limits::cut_text(match debug.find(['(', ' ', '{']) {
        Some(i) => format!("{kind}{}", debug[i..].trim_start()),
        None => kind.to_string(),
    })
}

impl<P: Protocol> Engine<P> {
    /// Carries out one command of `node`'s handler.
    ///
    /// Inlined into the handler loop with only the common cases: a send, a
    /// timer, and a role or leader announcement that changes nothing (a
    /// forwarding ring node announces its role on every message). The
    /// rest are calls, so that their locals (violations, trace texts) do
    /// not make this a large stack frame set up on every command.
    #[inline(always)]
    pub(super) fn apply(&mut self, node: NodeId, command: Command<P::Msg, P::Timer>) {
        match command {
            Command::Send { to, msg } => self.send(node, to, msg),
            Command::SetTimer { timer, after_us } => self.set_timer(node, timer, after_us),
            Command::Role { role, term } => {
                let slot = &self.slots[node as usize];
                if slot.role != role || slot.term != term {
                    self.change_role(node, role, term);
                }
            }
            Command::Leader(leader) => {
                if self.slots[node as usize].leader != leader {
                    self.change_leader(node, leader);
                }
            }
            other => self.apply_rare(node, other),
        }
    }

    /// (Re)arms `timer` of `node`.
    fn set_timer(&mut self, node: NodeId, timer: P::Timer, after_us: Micros) {
        let slot = &mut self.slots[node as usize];
        let (local_deadline, at) = slot.clock.deadline(self.now, after_us);
        if let Some(armed) = slot.timers.iter_mut().find(|t| t.timer == timer) {
            if armed.queued_at <= at {
                // Re-armed without a new queue entry: the countdown
                // starts again now all the same.
                armed.local_deadline = local_deadline;
                armed.armed_at = self.now;
                return;
            }
        }
        let generation = self.next_generation;
        self.next_generation += 1;
        slot.timers.retain(|t| t.timer != timer);
        slot.timers.push(ArmedTimer {
            timer,
            generation,
            local_deadline,
            queued_at: at,
            armed_at: self.now,
        });
        self.queue.push(
            at,
            Ev::Timer {
                node,
                timer,
                generation,
            },
        );
    }

    /// `node` announced a role or term other than the one it had.
    #[inline(never)]
    fn change_role(&mut self, node: NodeId, role: Role, term: Option<u64>) {
        let slot = &mut self.slots[node as usize];
        let was_leader = slot.role == Role::Leader;
        // A service node taking its role at start is no landmark.
        if slot.role != role && role != Role::Service {
            self.role_changes += 1;
        }
        slot.role = role;
        slot.term = term;
        self.hash_event(
            HashTag::Role,
            &[u64::from(node), role as u64, term.unwrap_or(u64::MAX)],
        );
        emit!(self, Event::Role { node, role, term });
        let found = self.checker.on_role(self.now, node, role, term);
        // Nearly always none: no call to hand over and drop an empty list.
        if !found.is_empty() {
            self.emit_violations(found);
        }
        if role == Role::Leader && !was_leader {
            self.metrics.on_new_leader(node);
        }
        // The set of live leaders only changes when a node takes
        // or leaves the leader role; recomputing it (a pass over
        // every node) on every other role change made a
        // 10,000-node ring election quadratic.
        if was_leader || role == Role::Leader {
            self.leaders_dirty = true;
        }
        self.agreement_dirty = true;
    }

    /// `node` announced a leader other than the one it believed in.
    #[inline(never)]
    fn change_leader(&mut self, node: NodeId, leader: Option<NodeId>) {
        self.slots[node as usize].leader = leader;
        self.hash_event(
            HashTag::Leader,
            &[u64::from(node), leader.map_or(u64::MAX, u64::from)],
        );
        emit!(self, Event::Leader { node, leader });
        self.agreement_dirty = true;
    }

    /// The commands that are not on the per-message path.
    #[inline(never)]
    fn apply_rare(&mut self, node: NodeId, command: Command<P::Msg, P::Timer>) {
        match command {
            // Not sent here by `apply`; carried out all the same.
            hot @ (Command::Send { .. }
            | Command::SetTimer { .. }
            | Command::Role { .. }
            | Command::Leader(_)) => self.apply(node, hot),
            Command::CancelTimer(timer) => {
                self.slots[node as usize]
                    .timers
                    .retain(|t| t.timer != timer);
            }
            Command::ElectionStarted => {
                self.metrics.elections += 1;
                self.hash_event(HashTag::ElectionStarted, &[u64::from(node)]);
                emit!(self, Event::Election { node });
            }
            Command::Vote { term, candidate } => {
                self.hash_event(
                    HashTag::Vote,
                    &[u64::from(node), term, u64::from(candidate)],
                );
                emit!(
                    self,
                    Event::Vote {
                        node,
                        term,
                        candidate,
                    }
                );
                let found = self.checker.on_vote(self.now, node, term, candidate);
                self.emit_violations(found);
            }
            Command::ResourceWrite {
                writer,
                token,
                accepted,
            } => {
                self.hash_event(
                    HashTag::Write,
                    &[
                        u64::from(node),
                        u64::from(writer),
                        token,
                        u64::from(accepted),
                    ],
                );
                emit!(
                    self,
                    Event::Write {
                        node,
                        writer,
                        token,
                        accepted,
                    }
                );
                let found = self.checker.on_write(self.now, writer, token, accepted);
                if accepted {
                    self.metrics.writes_accepted += 1;
                } else {
                    self.metrics.writes_rejected += 1;
                }
                if !found.is_empty() {
                    self.metrics.stale_writes_accepted += 1;
                }
                self.emit_violations(found);
            }
            Command::Lease(held) => {
                let slot = &mut self.slots[node as usize];
                if slot.holds_lease == held {
                    return;
                }
                slot.holds_lease = held;
                self.hash_event(HashTag::Lease, &[u64::from(node), u64::from(held)]);
                emit!(self, Event::Lease { node, held });
                let found = self.checker.on_lease(self.now, node, held);
                self.emit_violations(found);
            }
            // Notes exist only in recorded runs, so they stay out of the
            // hash: recording must not change a run's identity.
            // At most `MAX_TRACE_TEXT` characters (core/engine/src/limits.rs).
            Command::Note(text) => emit!(
                self,
                Event::Note {
                    node,
                    text: crate::limits::cut_text(text),
                }
            ),
        }
    }

    pub(super) fn send(&mut self, from: NodeId, to: NodeId, msg: P::Msg) {
        if to >= self.config.total {
            debug_assert!(false, "n{from} sent to unknown node {to}");
            return;
        }
        let kind = self.kind_of(&msg);
        let purpose = msg.purpose();
        self.metrics.on_send(kind, purpose);
        let duplicate =
            self.network.spec.duplicate > 0.0 && self.rng.chance(self.network.spec.duplicate);
        let id = self.next_msg_id;
        self.next_msg_id += 1;
        if duplicate {
            // The last copy takes the message itself; only a duplicate is
            // a clone (messages with lists in them allocate when cloned).
            self.put_on_wire(from, to, id, 0, msg.clone(), purpose);
            self.put_on_wire(from, to, id, 1, msg, purpose);
        } else {
            self.put_on_wire(from, to, id, 0, msg, purpose);
        }
    }

    /// Puts copy `copy` (0 the original, 1 the duplicate) of message `id`
    /// on the wire: its loss, its arrival time, its hash, and its delivery
    /// in the queue.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn put_on_wire(
        &mut self,
        from: NodeId,
        to: NodeId,
        id: u64,
        copy: u64,
        msg: P::Msg,
        purpose: Purpose,
    ) {
        let lost = if self.rng.chance(self.network.spec.drop) {
            Some(DropReason::Lost)
        } else {
            self.network.blocked(from, to)
        };
        let arrive = self.network.arrival(&mut self.rng, self.now, from, to);
        if copy == 1 {
            self.metrics.duplicated += 1;
        }
        self.metrics.on_wire(purpose);
        self.wire_bytes += msg.heap_bytes() as u64;
        self.hash_event(HashTag::Send, &[id, u64::from(from), u64::from(to), arrive]);
        msg.hash(&mut self.hasher);
        if self.record {
            self.record_send(from, to, id, copy, &msg, arrive, lost.is_some());
        }
        self.queue.push(
            arrive,
            Ev::Deliver {
                wire: id * 2 + copy,
                from,
                to,
                msg,
                sent_at: self.now,
                lost,
                slowed: false,
            },
        );
    }

    /// The trace event and the flight of a copy put on the wire, in a run
    /// that records (a call, so that its texts stay off the send path).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn record_send(
        &mut self,
        from: NodeId,
        to: NodeId,
        id: u64,
        copy: u64,
        msg: &P::Msg,
        arrive: Micros,
        lost: bool,
    ) {
        let kind = self.kind_of(msg);
        let name = self.metrics.kinds[kind];
        emit!(
            self,
            Event::Send {
                id,
                from,
                to,
                kind: name,
                purpose: msg.purpose(),
                arrive_us: arrive,
                duplicate: copy == 1,
                detail: describe_message(name, msg),
            }
        );
        self.flights.insert(
            id * 2 + copy,
            Flight {
                id,
                from,
                to,
                kind,
                sent_us: self.now,
                arrive_us: arrive,
                lost,
            },
        );
    }
}
