//! Handling what the queue pops: starts, deliveries (or drops), timers,
//! undeliverable notices, faults; and running a node handler.

use super::*;

impl<P: Protocol> Engine<P> {
    pub(super) fn handle(&mut self, ev: Ev<P::Msg, P::Timer>) {
        match ev {
            Ev::Start(id) => {
                if self.slots[id as usize].state.is_none() {
                    self.idle_pop = true;
                    return;
                }
                let initiate = match &self.scenario.start {
                    StartSet::All => true,
                    StartSet::None => false,
                    StartSet::Ids(ids) => ids.contains(&id),
                };
                self.hash_event(HashTag::Start, &[u64::from(id), u64::from(initiate)]);
                emit!(self, Event::Start { node: id, initiate });
                self.dispatch(id, |p, ctx| p.on_start(ctx, Boot::Fresh { initiate }));
            }
            Ev::Deliver {
                wire,
                from,
                to,
                msg,
                sent_at,
                lost,
                slowed,
            } => self.deliver(wire, from, to, msg, sent_at, lost, slowed),
            Ev::Timer {
                node,
                timer,
                generation,
            } => {
                let now = self.now;
                let slot = &mut self.slots[node as usize];
                let Some(pos) = slot.timers.iter().position(|t| t.generation == generation) else {
                    self.idle_pop = true;
                    return; // cancelled, replaced, or the node crashed
                };
                let due = slot
                    .clock
                    .true_time_of(slot.timers[pos].local_deadline, now);
                // A paused node's timers fire when it resumes.
                let later = match slot.paused_until {
                    Some(until) => Some(until.max(due)),
                    None => (due > now).then_some(due),
                };
                if let Some(at) = later {
                    slot.timers[pos].queued_at = at;
                    self.queue.push(
                        at,
                        Ev::Timer {
                            node,
                            timer,
                            generation,
                        },
                    );
                    self.idle_pop = true;
                    return;
                }
                self.slots[node as usize].timers.swap_remove(pos);
                self.hash_event(HashTag::Timer, &[u64::from(node)]);
                timer.hash(&mut self.hasher);
                if self.record {
                    let class = self.slots[node as usize]
                        .state
                        .as_ref()
                        .map_or(TimerClass::Other, |s| s.timer_class(timer));
                    emit!(
                        self,
                        Event::Timer {
                            node,
                            timer: format!("{timer:?}"),
                            class,
                        }
                    );
                }
                self.dispatch(node, |p, ctx| p.on_timer(ctx, timer));
            }
            Ev::Undeliverable {
                node,
                incarnation,
                to,
                msg,
            } => {
                let slot = &self.slots[node as usize];
                if slot.state.is_none() || slot.incarnation != incarnation {
                    self.notice_done(&msg);
                    self.idle_pop = true;
                    return;
                }
                if let Some(until) = slot.paused_until {
                    self.queue.push(
                        until,
                        Ev::Undeliverable {
                            node,
                            incarnation,
                            to,
                            msg,
                        },
                    );
                    self.idle_pop = true;
                    return;
                }
                self.notice_done(&msg);
                let kind = self.kind_of(&msg);
                self.hash_event(
                    HashTag::Undeliverable,
                    &[u64::from(node), u64::from(to), kind as u64],
                );
                emit!(
                    self,
                    Event::Undeliverable {
                        node,
                        to,
                        kind: self.metrics.kinds[kind],
                    }
                );
                self.dispatch(node, |p, ctx| p.on_undeliverable(ctx, to, msg));
            }
            Ev::Fault(i) => self.apply_fault(i),
            Ev::Resume { node, at } => {
                let slot = &mut self.slots[node as usize];
                if slot.paused_until == Some(at) {
                    slot.paused_until = None;
                    self.hash_event(HashTag::Resume, &[u64::from(node)]);
                    emit!(self, Event::Resume { node });
                }
            }
            Ev::FlakyDown { node, fault, began } => {
                let FaultAction::Flaky {
                    period_us,
                    down_us,
                    for_us,
                    ..
                } = self.scenario.faults[fault as usize].action
                else {
                    return;
                };
                self.crash(node);
                self.schedule(self.now + down_us, Ev::FlakyUp(node));
                let next = self.now + period_us;
                if for_us.is_none_or(|f| next < began + f) {
                    self.schedule(next, Ev::FlakyDown { node, fault, began });
                }
            }
            Ev::FlakyUp(node) => self.recover(node),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn deliver(
        &mut self,
        wire: u64,
        from: NodeId,
        to: NodeId,
        msg: P::Msg,
        sent_at: Micros,
        lost: Option<DropReason>,
        slowed: bool,
    ) {
        let id = wire >> 1;
        let purpose = msg.purpose();
        let slot = &self.slots[to as usize];
        let reason = lost
            .or_else(|| slot.state.is_none().then_some(DropReason::NodeDown))
            .or_else(|| self.network.blocked(from, to));
        if let Some(reason) = reason {
            self.metrics.off_wire(purpose, false);
            self.wire_bytes -= msg.heap_bytes() as u64;
            if self.record {
                self.flights.remove(wire);
            }
            self.hash_event(HashTag::Drop, &[id, reason as u64]);
            emit!(
                self,
                Event::Drop {
                    id,
                    from,
                    to,
                    kind: self.kind_label(&msg),
                    reason,
                }
            );
            if P::WANTS_UNDELIVERABLE && reason != DropReason::Lost {
                let sender = &self.slots[from as usize];
                if sender.state.is_some() {
                    let at = (sent_at + self.config.reply_timeout_us).max(self.now);
                    let incarnation = sender.incarnation;
                    if purpose == Purpose::Election {
                        self.election_notices += 1;
                    }
                    self.queue.push(
                        at,
                        Ev::Undeliverable {
                            node: from,
                            incarnation,
                            to,
                            msg,
                        },
                    );
                }
            }
            return;
        }
        let defer_to = match slot.paused_until {
            Some(until) => Some((until, slowed)),
            None if slot.slow_us > 0 && !slowed => Some((self.now + slot.slow_us, true)),
            None => None,
        };
        if let Some((at, slowed)) = defer_to {
            self.queue.push(
                at,
                Ev::Deliver {
                    wire,
                    from,
                    to,
                    msg,
                    sent_at,
                    lost: None,
                    slowed,
                },
            );
            self.idle_pop = true;
            return;
        }
        self.metrics.off_wire(purpose, true);
        self.wire_bytes -= msg.heap_bytes() as u64;
        if self.record {
            // Flights are only tracked while recording.
            self.flights.remove(wire);
        }
        self.hash_event(HashTag::Deliver, &[id]);
        emit!(
            self,
            Event::Deliver {
                id,
                from,
                to,
                kind: self.kind_label(&msg),
            }
        );
        self.dispatch(to, |p, ctx| p.on_message(ctx, from, msg));
    }

    /// Runs a handler of `node` and carries out its commands.
    pub(super) fn dispatch(
        &mut self,
        node: NodeId,
        handler: impl FnOnce(&mut P, &mut Ctx<'_, P::Msg, P::Timer>),
    ) {
        let slot = &mut self.slots[node as usize];
        let Some(state) = slot.state.as_mut() else {
            return;
        };
        let mut out = std::mem::take(&mut self.outbox);
        let mut ctx = Ctx::new(
            node,
            &self.config,
            slot.clock.local(self.now),
            &mut self.rng,
            self.record,
            &mut out,
        );
        handler(state, &mut ctx);
        if let Some(error) = state.take_error() {
            out.clear();
            self.outbox = out;
            self.halt(node, error);
            return;
        }
        for command in out.drain(..) {
            self.apply(node, command);
        }
        self.outbox = out;
    }

    /// A script's handler failed: the run stops here, with the error
    /// naming the node and the time (core/algorithms/src/script/mod.rs, module
    /// docs, Limits and errors).
    #[inline(never)]
    fn halt(&mut self, node: NodeId, mut error: ScriptError) {
        error.node = Some(node);
        error.at_ms = Some(to_ms(self.now));
        emit!(
            self,
            Event::Note {
                node,
                text: crate::limits::cut_text(error.to_string()),
            }
        );
        self.halted = Some(Box::new(error));
    }

    /// The index of `msg`'s kind: [`Message::kind`], or for a kind named
    /// at run time its place in this run's list, added on first use.
    #[inline(always)]
    pub(super) fn kind_of(&mut self, msg: &P::Msg) -> usize {
        match msg.kind_name() {
            None => msg.kind(),
            Some(name) => self.metrics.kind_index(name),
        }
    }

    /// The name of `msg`'s kind, for the trace.
    pub(super) fn kind_label(&self, msg: &P::Msg) -> &'static str {
        msg.kind_name().unwrap_or_else(|| P::KINDS[msg.kind()])
    }

    /// An undeliverable notice left the queue.
    pub(super) fn notice_done(&mut self, msg: &P::Msg) {
        if msg.purpose() == Purpose::Election {
            self.election_notices -= 1;
        }
    }
}
