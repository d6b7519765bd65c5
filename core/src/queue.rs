//! The event queue: earliest time first, ties in the order they were
//! scheduled, the same way every run.
//!
//! Simulation time never goes back, so the queue is a radix heap (Ahuja,
//! Mehlhorn, Orlin and Tarjan, 1990) rather than a binary heap: an event
//! sits in the bucket named by the highest bit in which its time differs
//! from the last time popped, and only moves to lower buckets, so each
//! event is touched a few times instead of sifted through log n levels.
//! Events due at exactly the current time wait in a FIFO ordered by their
//! sequence number, which keeps ties deterministic.

use crate::time::Micros;
use std::cell::Cell;
use std::collections::VecDeque;

const BUCKETS: usize = 65;

/// A deterministic priority queue of timed events for a clock that never
/// goes back: every push must be at or after the time of the last pop.
///
/// Cloning compacts: the clone holds only the events still scheduled, in
/// fresh slots (a slot is only a handle; order is by time and sequence
/// number), so a time-travel checkpoint taken after a burst does not copy
/// the burst's emptied slots.
pub struct EventQueue<E> {
    /// Bucket 0 holds `(seq, slot)` of events due at `last`, by `seq`.
    now_fifo: VecDeque<(u64, u32)>,
    /// Bucket `b` holds `(at, seq, slot)` where `at ^ last` has its highest
    /// set bit at `b - 1`.
    buckets: Vec<Vec<(Micros, u64, u32)>>,
    payloads: Vec<Option<E>>,
    free: Vec<u32>,
    /// Reused buffer for the events due at a new `last` (one refill per
    /// distinct time would otherwise allocate every time).
    due: Vec<(u64, u32)>,
    last: Micros,
    next_seq: u64,
    len: usize,
    min_cache: Cell<Option<Micros>>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            now_fifo: VecDeque::new(),
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            payloads: Vec::new(),
            free: Vec::new(),
            due: Vec::new(),
            last: 0,
            next_seq: 0,
            len: 0,
            min_cache: Cell::new(None),
        }
    }
}

impl<E: Clone> Clone for EventQueue<E> {
    fn clone(&self) -> Self {
        let mut payloads = Vec::with_capacity(self.len);
        let mut take = |slot: u32| -> u32 {
            payloads.push(self.payloads[slot as usize].clone());
            (payloads.len() - 1) as u32
        };
        let now_fifo = self
            .now_fifo
            .iter()
            .map(|&(seq, slot)| (seq, take(slot)))
            .collect();
        let buckets = self
            .buckets
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&(at, seq, slot)| (at, seq, take(slot)))
                    .collect()
            })
            .collect();
        Self {
            now_fifo,
            buckets,
            payloads,
            free: Vec::new(),
            due: Vec::new(),
            last: self.last,
            next_seq: self.next_seq,
            len: self.len,
            min_cache: self.min_cache.clone(),
        }
    }
}

fn bucket_of(at: Micros, last: Micros) -> usize {
    (64 - (at ^ last).leading_zeros()) as usize
}

impl<E> EventQueue<E> {
    /// Schedules `event` at `at` (not before the last popped time; an
    /// earlier time is treated as the last popped time).
    pub fn push(&mut self, at: Micros, event: E) {
        debug_assert!(at >= self.last, "time went back: {at} < {}", self.last);
        let at = at.max(self.last);
        let seq = self.next_seq;
        self.next_seq += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.payloads[slot as usize] = Some(event);
                slot
            }
            None => {
                self.payloads.push(Some(event));
                (self.payloads.len() - 1) as u32
            }
        };
        self.len += 1;
        if at == self.last {
            self.now_fifo.push_back((seq, slot));
        } else {
            self.buckets[bucket_of(at, self.last)].push((at, seq, slot));
        }
        if let Some(min) = self.min_cache.get() {
            if at < min {
                self.min_cache.set(Some(at));
            }
        }
    }

    /// Moves the earliest non-empty bucket down so that `now_fifo` holds
    /// the events due next.
    fn refill(&mut self) {
        let Some(b) = (1..BUCKETS).find(|&b| !self.buckets[b].is_empty()) else {
            return;
        };
        let items = std::mem::take(&mut self.buckets[b]);
        let last = items
            .iter()
            .map(|&(at, _, _)| at)
            .min()
            .unwrap_or(self.last);
        self.last = last;
        let mut due = std::mem::take(&mut self.due);
        for &(at, seq, slot) in &items {
            if at == last {
                due.push((seq, slot));
            } else {
                self.buckets[bucket_of(at, last)].push((at, seq, slot));
            }
        }
        if due.len() > 1 {
            due.sort_unstable_by_key(|&(seq, _)| seq);
        }
        self.now_fifo.extend(due.drain(..));
        self.due = due;
        // Give the bucket's allocation back for reuse.
        let mut items = items;
        items.clear();
        if self.buckets[b].is_empty() {
            self.buckets[b] = items;
        }
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        if self.now_fifo.is_empty() {
            self.refill();
        }
        let (_, slot) = self.now_fifo.pop_front()?;
        self.len -= 1;
        self.min_cache.set(None);
        let event = self.payloads[slot as usize].take()?;
        self.free.push(slot);
        Some((self.last, event))
    }

    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<Micros> {
        if !self.now_fifo.is_empty() {
            return Some(self.last);
        }
        if let Some(min) = self.min_cache.get() {
            return Some(min);
        }
        let bucket = self.buckets[1..].iter().find(|b| !b.is_empty())?;
        let min = bucket.iter().map(|&(at, _, _)| at).min();
        self.min_cache.set(min);
        min
    }

    /// Number of scheduled events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is scheduled.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream};
    use std::collections::BTreeSet;

    #[test]
    fn a_clone_is_compact_and_pops_the_same_events() {
        let mut q = EventQueue::default();
        for i in 0..1000u64 {
            q.push(i % 97, i);
        }
        for _ in 0..990 {
            q.pop();
        }
        q.push(500, 5000);
        let mut copy = q.clone();
        assert_eq!(
            copy.payloads.len(),
            11,
            "only the scheduled events are copied"
        );
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let copied: Vec<_> = std::iter::from_fn(|| copy.pop()).collect();
        assert_eq!(copied, rest);
        assert_eq!(rest.len(), 11);
    }

    #[test]
    fn ties_break_by_schedule_order() {
        let mut q = EventQueue::default();
        q.push(5, 'b');
        q.push(1, 'a');
        q.push(5, 'c');
        q.push(5, 'd');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
    }

    #[test]
    fn matches_a_sorted_reference_under_random_monotone_use() {
        for seed in 0..50 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut q = EventQueue::default();
            let mut reference: BTreeSet<(Micros, u64)> = BTreeSet::new();
            let mut seq = 0u64;
            let mut now = 0;
            for _ in 0..2000 {
                if rng.below(3) > 0 {
                    let span = 1 << rng.below(20);
                    let at = now + rng.between(0, span);
                    q.push(at, seq);
                    reference.insert((at, seq));
                    seq += 1;
                } else {
                    assert_eq!(
                        q.peek_time(),
                        reference.first().map(|&(at, _)| at),
                        "seed {seed}"
                    );
                    let want = reference.pop_first();
                    let got = q.pop();
                    assert_eq!(got, want, "seed {seed}");
                    if let Some((at, _)) = got {
                        now = at;
                    }
                }
                assert_eq!(q.len(), reference.len());
            }
        }
    }
}
