//! Carrying out what a handler asked for: sends (latency, loss,
//! duplication, FIFO links), timers, roles, leader beliefs, votes, writes,
//! leases, notes.

use super::*;

/// `ELECTION(3)` from kind `ELECTION` and `Election(3)`: the kind name
/// plus whatever payload the message's Debug form shows.
fn describe_message<M: std::fmt::Debug>(kind: &str, msg: &M) -> String {
    let debug = format!("{msg:?}");
    match debug.find(['(', ' ', '{']) {
        Some(i) => format!("{kind}{}", debug[i..].trim_start()),
        None => kind.to_string(),
    }
}

impl<P: Protocol> Engine<P> {
    pub(super) fn apply(&mut self, node: NodeId, command: Command<P::Msg, P::Timer>) {
        match command {
            Command::Send { to, msg } => self.send(node, to, msg),
            Command::SetTimer { timer, after_us } => {
                let slot = &mut self.slots[node as usize];
                let (local_deadline, at) = slot.clock.deadline(self.now, after_us);
                if let Some(armed) = slot.timers.iter_mut().find(|t| t.timer == timer) {
                    if armed.queued_at <= at {
                        armed.local_deadline = local_deadline;
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
            Command::CancelTimer(timer) => {
                self.slots[node as usize]
                    .timers
                    .retain(|t| t.timer != timer);
            }
            Command::Role { role, term } => {
                let slot = &mut self.slots[node as usize];
                if slot.role == role && slot.term == term {
                    return;
                }
                let was_leader = slot.role == Role::Leader;
                // A service node taking its role at start is no landmark.
                if slot.role != role && role != Role::Service {
                    self.role_changes += 1;
                }
                slot.role = role;
                slot.term = term;
                self.hash_words(&[8, u64::from(node), role as u64, term.unwrap_or(u64::MAX)]);
                emit!(self, Event::Role { node, role, term });
                let found = self.checker.on_role(self.now, node, role, term);
                self.emit_violations(found);
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
            Command::Leader(leader) => {
                let slot = &mut self.slots[node as usize];
                if slot.leader == leader {
                    return;
                }
                slot.leader = leader;
                self.hash_words(&[9, u64::from(node), leader.map_or(u64::MAX, u64::from)]);
                emit!(self, Event::Leader { node, leader });
                self.agreement_dirty = true;
            }
            Command::ElectionStarted => {
                self.metrics.elections += 1;
                self.hash_words(&[10, u64::from(node)]);
                emit!(self, Event::Election { node });
            }
            Command::Vote { term, candidate } => {
                self.hash_words(&[25, u64::from(node), term, u64::from(candidate)]);
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
                self.hash_words(&[
                    26,
                    u64::from(node),
                    u64::from(writer),
                    token,
                    u64::from(accepted),
                ]);
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
                self.hash_words(&[27, u64::from(node), u64::from(held)]);
                emit!(self, Event::Lease { node, held });
                let found = self.checker.on_lease(self.now, node, held);
                self.emit_violations(found);
            }
            // Notes exist only in recorded runs, so they stay out of the
            // hash: recording must not change a run's identity.
            Command::Note(text) => emit!(self, Event::Note { node, text }),
        }
    }

    pub(super) fn send(&mut self, from: NodeId, to: NodeId, msg: P::Msg) {
        if to >= self.config.total {
            debug_assert!(false, "n{from} sent to unknown node {to}");
            return;
        }
        let kind = msg.kind();
        let purpose = msg.purpose();
        self.metrics.on_send(kind, purpose);
        let copies =
            if self.network.spec.duplicate > 0.0 && self.rng.chance(self.network.spec.duplicate) {
                2
            } else {
                1
            };
        let id = self.next_msg_id;
        self.next_msg_id += 1;
        // The last copy takes the message itself; only a duplicate is a
        // clone (messages with lists in them allocate when cloned).
        let mut msg = Some(msg);
        for copy in 0..copies {
            let this = if copy + 1 == copies {
                msg.take()
            } else {
                msg.clone()
            };
            let Some(this) = this else { break };
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
            self.hasher.write_u64(self.now);
            self.hasher.write_u64(12);
            self.hasher.write_u64(id);
            self.hasher.write_u64(u64::from(from));
            self.hasher.write_u64(u64::from(to));
            self.hasher.write_u64(arrive);
            this.hash(&mut self.hasher);
            if self.record {
                emit!(
                    self,
                    Event::Send {
                        id,
                        from,
                        to,
                        kind: P::KINDS[kind],
                        purpose,
                        arrive_us: arrive,
                        duplicate: copy == 1,
                        detail: describe_message(P::KINDS[kind], &this),
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
                        lost: lost.is_some(),
                    },
                );
            }
            self.queue.push(
                arrive,
                Ev::Deliver {
                    wire: id * 2 + copy,
                    from,
                    to,
                    msg: this,
                    sent_at: self.now,
                    lost,
                    slowed: false,
                },
            );
        }
    }
}
