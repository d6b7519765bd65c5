//! The event queue: earliest time first, ties in the order they were
//! scheduled, the same way every run.
//!
//! Simulation time never goes back, so the queue is a radix heap (Ahuja,
//! Mehlhorn, Orlin and Tarjan, 1990) rather than a binary heap: an event
//! sits in the bucket named by the highest bit in which its time differs
//! from the last time popped, and only moves to lower buckets, so each
//! event is touched a few times instead of sifted through log n levels.
//! Events due at exactly the current time wait in a FIFO in the order they
//! were scheduled, which keeps ties deterministic.
//!
//! Ties need no sequence number: every bucket holds its events in the
//! order they were pushed. A push appends to a bucket; a refill empties
//! the lowest non-empty bucket into lower buckets, which are all empty at
//! that moment (it is the lowest), in the order it held them. So each
//! bucket, and the FIFO filled from one bucket and then by pushes, stays
//! in push order, and events of one time come out in push order.

use crate::time::Micros;
use std::cell::Cell;
use std::collections::VecDeque;

const BUCKETS: usize = 65;

/// A scheduled event with its time. The payload travels with its key:
/// the buckets are read and written front to back, while a separate
/// payload table indexed by slot was read at a random place on every pop
/// (a cache miss per event on large runs). No sequence number: the
/// buckets keep push order (see the module doc), and 8 bytes less per
/// entry is 8 bytes less moved every time an entry changes bucket.
#[derive(Clone)]
struct Entry<E> {
    at: Micros,
    event: E,
}

/// A deterministic priority queue of timed events for a clock that never
/// goes back: every push must be at or after the time of the last pop.
///
/// Cloning copies only the events still scheduled (each stored once, in
/// its bucket), so a time-travel checkpoint taken after a burst does not
/// copy the burst's emptied storage.
pub struct EventQueue<E> {
    /// Bucket 0: events due at `last`, in push order.
    now_fifo: VecDeque<Entry<E>>,
    /// Bucket `b` holds events whose `at ^ last` has its highest set bit
    /// at `b - 1`, in push order.
    buckets: Vec<Vec<Entry<E>>>,
    last: Micros,
    len: usize,
    min_cache: Cell<Option<Micros>>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            now_fifo: VecDeque::new(),
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            last: 0,
            len: 0,
            min_cache: Cell::new(None),
        }
    }
}

impl<E: Clone> Clone for EventQueue<E> {
    fn clone(&self) -> Self {
        Self {
            now_fifo: self.now_fifo.iter().cloned().collect(),
            // `to_vec` allocates exactly the live entries, not the
            // capacity a burst left behind.
            buckets: self.buckets.iter().map(|b| b.to_vec()).collect(),
            last: self.last,
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
        self.len += 1;
        let entry = Entry { at, event };
        if at == self.last {
            self.now_fifo.push_back(entry);
        } else {
            self.buckets[bucket_of(at, self.last)].push(entry);
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
        let mut items = std::mem::take(&mut self.buckets[b]);
        // `peek_time` has usually just found the minimum.
        let last = match self.min_cache.get() {
            Some(min) => min,
            None => items.iter().map(|e| e.at).min().unwrap_or(self.last),
        };
        self.last = last;
        // `now_fifo` is empty (a refill only happens then), so the due
        // events go straight into it, in the bucket's (push) order.
        for entry in items.drain(..) {
            if entry.at == last {
                self.now_fifo.push_back(entry);
            } else {
                self.buckets[bucket_of(entry.at, last)].push(entry);
            }
        }
        // Give the bucket's allocation back for reuse.
        if self.buckets[b].is_empty() {
            self.buckets[b] = items;
        }
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        if self.now_fifo.is_empty() {
            self.refill();
        }
        let entry = self.now_fifo.pop_front()?;
        self.len -= 1;
        self.min_cache.set(None);
        Some((self.last, entry.event))
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
        let min = bucket.iter().map(|e| e.at).min();
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
        let stored: usize =
            copy.buckets.iter().map(Vec::capacity).sum::<usize>() + copy.now_fifo.capacity();
        assert_eq!(stored, 11, "only the scheduled events are copied");
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

    #[test]
    fn ties_keep_push_order_through_refills() {
        // Many events per time, pushed in shuffled time order between
        // pops, so that ties reach the FIFO through several refills: they
        // must still come out in push order (no sequence number is kept).
        for seed in 0..50 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut q = EventQueue::default();
            let mut reference: BTreeSet<(Micros, u64)> = BTreeSet::new();
            let mut now = 0;
            for pushed in 0..3000u64 {
                let at = now + rng.below(4) * (1 << rng.below(12));
                q.push(at, pushed);
                reference.insert((at, pushed));
                if rng.below(2) == 0 {
                    let got = q.pop();
                    assert_eq!(got, reference.pop_first(), "seed {seed}");
                    now = got.map_or(now, |(at, _)| at);
                }
            }
            while let Some(got) = q.pop() {
                assert_eq!(Some(got), reference.pop_first(), "seed {seed}");
            }
            assert!(reference.is_empty(), "seed {seed}");
        }
    }
}
