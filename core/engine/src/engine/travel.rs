//! Time travel on the engine: checkpoints without the trace, restore,
//! spreading a coming burst ahead for runs made in slices (all three
//! for `election-core`'s `session::Session`; tested there), and running to the
//! next landmark (see [`crate::travel`]).

use super::*;
use crate::travel::{Checkpoint, Landmark};

/// A copy of `value`, never inlined: the engine's parts that do not
/// depend on the algorithm are then copied by one function in the wasm
/// instead of eleven inlined copies, one per algorithm's engine.
#[inline(never)]
fn cold_clone<T: Clone>(value: &T) -> T {
    value.clone()
}

/// [`Network::checkpoint_copy`], never inlined (see [`cold_clone`]).
#[inline(never)]
fn network_copy(network: &Network, now: Micros) -> Network {
    network.checkpoint_copy(now)
}

impl<P: Protocol> Engine<P> {
    /// A copy of everything but the recorded trace (the checkpoint keeps
    /// only its length). Messages on the wire (`flights`) are copied: they
    /// are few (no more than the queue holds, which is copied anyway) and
    /// the page draws them right after a restore.
    fn copy_without_trace(&self) -> Self {
        Self {
            scenario: cold_clone(&self.scenario),
            config: cold_clone(&self.config),
            now: self.now,
            queue: self.queue.clone(),
            rng: self.rng.clone(),
            network: network_copy(&self.network, self.now),
            slots: self.slots.clone(),
            metrics: cold_clone(&self.metrics),
            checker: cold_clone(&self.checker),
            hasher: self.hasher.clone(),
            record: self.record,
            trace: Vec::new(),
            trace_len: 0,
            flights: cold_clone(&self.flights),
            outbox: Vec::new(),
            next_msg_id: self.next_msg_id,
            next_generation: self.next_generation,
            pending_faults: self.pending_faults,
            waiting_faults: cold_clone(&self.waiting_faults),
            leaders: cold_clone(&self.leaders),
            leaders_dirty: self.leaders_dirty,
            agreement: self.agreement,
            agreement_dirty: self.agreement_dirty,
            end_us: self.end_us,
            stopped: self.stopped.clone(),
            wire_bytes: self.wire_bytes,
            state_bytes: self.state_bytes,
            next_memory_count: self.next_memory_count,
            election_notices: self.election_notices,
            idle_pop: self.idle_pop,
            role_changes: self.role_changes,
            leader_set_changes: self.leader_set_changes,
            safety: self.safety,
            halted: self.halted.clone(),
        }
    }

    /// Estimated bytes of a copy without the trace (see
    /// [`Checkpoint::approx_bytes`]).
    fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.queue.len() * (size_of::<Ev<P::Msg, P::Timer>>() + QUEUE_ENTRY_OVERHEAD)
            + self.wire_bytes as usize
            + self.state_bytes_now()
            + self.flights.approx_bytes()
    }

    /// Saves this moment (see [`crate::travel`]).
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        debug_assert!(self.outbox.is_empty(), "checkpoint inside a handler");
        let engine = self.copy_without_trace();
        let bytes = engine.approx_bytes();
        Checkpoint {
            engine: Box::new(engine),
            bytes,
            now_us: self.now,
            trace_len: self.trace_len,
            events: self.metrics.events,
        }
    }

    /// Goes back (or forward) to `checkpoint`, keeping this engine's
    /// trace as the history. Returns false, changing nothing, when the
    /// checkpoint is of another algorithm or scenario, or lies beyond the
    /// recorded history (a recording engine must have recorded up to it).
    pub(crate) fn restore(&mut self, checkpoint: &Checkpoint) -> bool {
        let Some(saved) = checkpoint.engine.downcast_ref::<Self>() else {
            return false;
        };
        if saved.scenario != self.scenario
            || saved.record != self.record
            || (self.record && self.trace.len() < checkpoint.trace_len)
        {
            return false;
        }
        let history = std::mem::take(&mut self.trace);
        *self = saved.copy_without_trace();
        self.trace = history;
        self.trace_len = checkpoint.trace_len;
        true
    }

    /// Spreads up to `max_moves` events of the next big bucket of the
    /// event queue ahead of its turn; the same events come in the same
    /// order (see [`crate::queue::EventQueue::spread_ahead`]).
    pub(crate) fn spread_ahead(&mut self, max_moves: usize) -> usize {
        self.queue.spread_ahead(max_moves)
    }

    /// Processes events up to `limit` until one of them is a
    /// [`Landmark`], and stops right after it (other events at the same
    /// instant may still be pending, as after [`Engine::step`]). Gives up
    /// after `max_steps` queue events, returning `None`, as it does when
    /// nothing is left before `limit`; the clock stays at the last event
    /// processed.
    pub fn run_to_landmark(&mut self, limit: Micros, max_steps: u64) -> Option<Landmark> {
        for _ in 0..max_steps {
            if self.queue.peek_time().is_none_or(|next| next > limit) {
                break;
            }
            let before = (
                self.checker.violations.len(),
                self.leader_set_changes,
                self.role_changes,
            );
            if !self.step() {
                break;
            }
            if self.checker.violations.len() != before.0 {
                return Some(Landmark::Violation);
            }
            if self.leader_set_changes != before.1 {
                return Some(Landmark::Leaders);
            }
            if self.role_changes != before.2 {
                return Some(Landmark::Role);
            }
        }
        None
    }
}
