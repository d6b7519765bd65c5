//! The event queue: earliest time first, ties in the order they were
//! scheduled, the same way every run.
//!
//! Simulation time never goes back, so the queue is a radix heap (Ahuja,
//! Mehlhorn, Orlin and Tarjan, 1990) rather than a binary heap, with
//! 64-way digits (6 bits of the time per level, as in a hierarchical
//! timing wheel): an event sits at the level of the highest 6-bit digit
//! in which its time differs from the last time popped, in the bucket of
//! its own digit there. Level 0 buckets hold one exact time each, so a
//! pop takes the front of the first non-empty one (found in a 64-bit
//! occupancy mask). When level 0 is empty, the first bucket of the lowest
//! non-empty level is spread over the levels below it. An event moves
//! down at most once per level: once for a message 1-4 ms away, at most
//! four times for a timer a minute away (a binary radix heap moved a
//! message about ten times and scanned its bucket for the minimum every
//! time).
//!
//! Ties need no sequence number: every bucket holds its events in the
//! order they were pushed. A push appends to a bucket; spreading a
//! bucket moves its events, in order, into lower levels, which are all
//! empty at that moment (it is on the lowest non-empty level). So every
//! bucket stays in push order, and events of one time come out in push
//! order.
//!
//! A caller running the simulation in slices can have the next big
//! bucket spread ahead of its turn, a piece at a time (see [`staging`]),
//! without changing any pop.

#[cfg(test)]
mod checked;
mod staging;

use crate::chunked::ChunkedVec;
use crate::time::Micros;
use std::cell::Cell;
use std::collections::VecDeque;

/// Bits of the time per level.
const DIGIT_BITS: u32 = 6;
/// Buckets per level.
const WIDTH: usize = 1 << DIGIT_BITS;
/// Levels for a 64-bit time.
const LEVELS: usize = 64_usize.div_ceil(DIGIT_BITS as usize);

/// The most entries a drained bucket keeps room for.
const KEEP_CAPACITY: usize = 256;

/// A scheduled event with its time. The payload travels with its key:
/// the buckets are read and written front to back, while a separate
/// payload table indexed by slot was read at a random place on every pop
/// (a cache miss per event on large runs). No sequence number: the
/// buckets keep push order (see the module doc).
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
    /// `now[digit]`: level 0, the events at the time that agrees with
    /// `last` above the lowest digit and has `digit` there, in push order
    /// (popped from the front).
    now: Vec<VecDeque<Entry<E>>>,
    /// `upper[(level - 1) * WIDTH + digit]`: the events whose time agrees
    /// with `last` above `level` and has `digit` at `level`, in push order
    /// (only appended to, then emptied whole).
    upper: Vec<ChunkedVec<Entry<E>>>,
    /// Bit `digit` of `occupied[level]` is set when that bucket is not
    /// empty.
    occupied: [u64; LEVELS],
    last: Micros,
    len: usize,
    /// The earliest time, once `peek_time` had to look for it in a
    /// bucket above level 0.
    min_cache: Cell<Option<Micros>>,
    /// Big buckets being spread ahead of their turn (see [`staging`]).
    staging: Vec<staging::Staging<E>>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            now: (0..WIDTH).map(|_| VecDeque::new()).collect(),
            upper: (WIDTH..LEVELS * WIDTH)
                .map(|_| ChunkedVec::default())
                .collect(),
            occupied: [0; LEVELS],
            last: 0,
            len: 0,
            min_cache: Cell::new(None),
            staging: Vec::new(),
        }
    }
}

impl<E: Clone> Clone for EventQueue<E> {
    fn clone(&self) -> Self {
        Self {
            // A bucket's copy has room for exactly its live entries, not
            // the capacity a burst left behind.
            now: self
                .now
                .iter()
                .map(|b| b.iter().cloned().collect())
                .collect(),
            upper: self.upper.iter().map(ChunkedVec::clone).collect(),
            occupied: self.occupied,
            last: self.last,
            len: self.len,
            min_cache: self.min_cache.clone(),
            staging: self.staging.clone(),
        }
    }
}

/// The level at which `at` is stored when the last popped time is `last`.
#[inline]
fn level_of(at: Micros, last: Micros) -> usize {
    let differ = at ^ last;
    if differ < WIDTH as u64 {
        0
    } else {
        ((63 - differ.leading_zeros()) / DIGIT_BITS) as usize
    }
}

/// The digit of `at` at `level`.
#[inline]
fn digit_of(at: Micros, level: usize) -> usize {
    ((at >> (level as u32 * DIGIT_BITS)) & (WIDTH as u64 - 1)) as usize
}

impl<E> EventQueue<E> {
    /// Schedules `event` at `at` (not before the last popped time; an
    /// earlier time is treated as the last popped time).
    #[inline]
    pub fn push(&mut self, at: Micros, event: E) {
        debug_assert!(at >= self.last, "time went back: {at} < {}", self.last);
        let at = at.max(self.last);
        self.len += 1;
        let level = level_of(at, self.last);
        let digit = digit_of(at, level);
        self.put(level, digit, Entry { at, event });
        if let Some(min) = self.min_cache.get() {
            if at < min {
                self.min_cache.set(Some(at));
            }
        }
    }

    /// Stores `entry` in bucket `digit` of `level`, after the others there.
    #[inline(always)]
    fn put(&mut self, level: usize, digit: usize, entry: Entry<E>) {
        if level == 0 {
            self.now[digit].push_back(entry);
        } else {
            self.upper[(level - 1) * WIDTH + digit].push(entry);
        }
        self.occupied[level] |= 1 << digit;
    }

    /// The first non-empty level-0 bucket, at or after `last`'s digit.
    #[inline]
    fn next_at_level0(&self) -> Option<usize> {
        let from = digit_of(self.last, 0);
        let mask = self.occupied[0] & (u64::MAX << from);
        (mask != 0).then(|| mask.trailing_zeros() as usize)
    }

    /// The lowest non-empty level above 0 and its first non-empty bucket.
    fn lowest_above_level0(&self) -> Option<(usize, usize)> {
        (1..LEVELS).find_map(|level| {
            let mask = self.occupied[level];
            (mask != 0).then(|| (level, mask.trailing_zeros() as usize))
        })
    }

    /// The earliest time bucket `digit` of `level` (above 0) can hold:
    /// `last` above that level, `digit` at it, zeros below.
    fn bucket_start(&self, level: usize, digit: usize) -> Micros {
        let shift = level as u32 * DIGIT_BITS;
        let span_bits = shift + DIGIT_BITS;
        let above = if span_bits >= 64 {
            0
        } else {
            self.last & !((1u64 << span_bits) - 1)
        };
        above | ((digit as u64) << shift)
    }

    /// Spreads the first bucket of the lowest non-empty level (level 0
    /// being empty) over the levels below it. Returns false when the
    /// queue is empty.
    #[inline(never)]
    fn spread(&mut self) -> bool {
        let Some((level, digit)) = self.lowest_above_level0() else {
            return false;
        };
        if self.finish_staged(level, digit) {
            return true;
        }
        // Every event left is at or after the start of this bucket: the
        // levels below are empty and the other buckets of this level and
        // above hold later times. Advancing `last` there (it need not be
        // an event's time; the next pop sets it to one) puts the events
        // of this bucket on lower levels.
        self.last = self.bucket_start(level, digit);
        let index = (level - 1) * WIDTH + digit;
        // The bucket keeps its room for reuse, unless a burst made it
        // large: every one of the 704 buckets would otherwise keep the
        // largest size it ever had (a long run's memory crept up as more
        // buckets had their burst).
        let mut items = std::mem::take(&mut self.upper[index]);
        self.occupied[level] &= !(1 << digit);
        items.drain_each(KEEP_CAPACITY, |entry| {
            let to = level_of(entry.at, self.last);
            let d = digit_of(entry.at, to);
            self.put(to, d, entry);
        });
        self.upper[index] = items;
        true
    }

    /// Removes and returns the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(Micros, E)> {
        let digit = loop {
            if let Some(digit) = self.next_at_level0() {
                break digit;
            }
            if !self.spread() {
                return None;
            }
        };
        let bucket = &mut self.now[digit];
        let entry = bucket.pop_front()?;
        if bucket.is_empty() {
            self.occupied[0] &= !(1 << digit);
        }
        self.last = entry.at;
        self.len -= 1;
        self.min_cache.set(None);
        Some((entry.at, entry.event))
    }

    /// Time of the earliest event.
    #[inline]
    pub fn peek_time(&self) -> Option<Micros> {
        if let Some(digit) = self.next_at_level0() {
            return self.now[digit].front().map(|e| e.at);
        }
        if let Some(min) = self.min_cache.get() {
            return Some(min);
        }
        let (level, digit) = self.lowest_above_level0()?;
        let min = self.bucket_min(level, digit);
        self.min_cache.set(min);
        min
    }

    /// Whether the earliest event is due at or before `t`: the same answer
    /// as comparing [`EventQueue::peek_time`] with `t`, but when the next
    /// events are still in a bucket above level 0, that bucket's range of
    /// times nearly always answers without looking for its earliest event
    /// (the run loop asks before every event).
    #[inline]
    pub fn due_by(&self, t: Micros) -> bool {
        match self.next_at_level0() {
            Some(digit) => self.now[digit].front().is_some_and(|e| e.at <= t),
            None => self.due_by_above_level0(t),
        }
    }

    /// [`EventQueue::due_by`] when level 0 is empty.
    #[inline(never)]
    fn due_by_above_level0(&self, t: Micros) -> bool {
        let Some((level, digit)) = self.lowest_above_level0() else {
            return false;
        };
        let first = self.bucket_start(level, digit);
        let end = first | ((1u64 << (level as u32 * DIGIT_BITS)) - 1);
        if first > t {
            false
        } else if end <= t {
            true
        } else {
            self.peek_time().is_some_and(|min| min <= t)
        }
    }

    /// The least `key(at, event)` over the scheduled events, where `key`
    /// says when an event scheduled at `at` matters, never before `at`
    /// (`None`: never). The events are read in time order, bucket by
    /// bucket, and the search stops at the first bucket that starts at or
    /// after the least moment found so far: when most events matter at
    /// their own time, only the first bucket or two are read. Changes
    /// nothing, not even the cache of [`EventQueue::peek_time`].
    pub fn earliest_by(&self, mut key: impl FnMut(Micros, &E) -> Option<Micros>) -> Option<Micros> {
        let mut best: Option<Micros> = None;
        let mut consider = |best: &mut Option<Micros>, entry: &Entry<E>| {
            if let Some(k) = key(entry.at, &entry.event) {
                debug_assert!(k >= entry.at, "a key before its event");
                if best.is_none_or(|b| k < b) {
                    *best = Some(k);
                }
            }
        };
        // Level 0: one exact time per bucket, ascending from `last`.
        let mut mask = self.occupied[0] & (u64::MAX << digit_of(self.last, 0));
        while mask != 0 {
            let digit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let bucket = &self.now[digit];
            let Some(front) = bucket.front() else {
                continue;
            };
            if best.is_some_and(|b| b <= front.at) {
                return best;
            }
            for entry in bucket {
                consider(&mut best, entry);
            }
        }
        // Above: lower levels hold earlier times, and within a level lower
        // digits do; a bucket being staged holds its staged events too.
        for level in 1..LEVELS {
            let mut mask = self.occupied[level];
            while mask != 0 {
                let digit = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if best.is_some_and(|b| b <= self.bucket_start(level, digit)) {
                    return best;
                }
                for entry in &self.upper[(level - 1) * WIDTH + digit] {
                    consider(&mut best, entry);
                }
                if let Some(at) = self.staged(level, digit) {
                    for entry in self.staging[at].entries() {
                        consider(&mut best, entry);
                    }
                }
            }
        }
        best
    }

    /// Number of scheduled events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is scheduled (the engine asks `peek_time`; the
    /// tests ask this).
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream};

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
        let stored: usize = copy.now.iter().map(VecDeque::capacity).sum::<usize>()
            + copy.upper.iter().map(ChunkedVec::capacity).sum::<usize>();
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
            let mut c = checked::Checked::new();
            for _ in 0..2000 {
                if rng.below(3) > 0 {
                    let span = 1 << rng.below(20);
                    let at = c.now + rng.between(0, span);
                    c.push(at);
                } else {
                    c.pop(&format!("seed {seed}"));
                }
                c.same_len(&format!("seed {seed}"));
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
            let mut c = checked::Checked::new();
            for _ in 0..3000u64 {
                let at = c.now + rng.below(4) * (1 << rng.below(12));
                c.push(at);
                if rng.below(2) == 0 {
                    c.pop(&format!("seed {seed}"));
                }
            }
            c.drain(&format!("seed {seed}"));
        }
    }

    #[test]
    fn times_far_apart_reach_the_top_level() {
        // Differences in the top bits put events on the last level, whose
        // digit covers the highest bits of the time.
        let mut q = EventQueue::default();
        let times = [
            u64::MAX,
            1 << 63,
            5,
            u64::MAX - 1,
            1 << 62,
            5,
            0,
            (1 << 63) + 7,
        ];
        for (i, &at) in times.iter().enumerate() {
            q.push(at, i);
        }
        let mut want: Vec<(Micros, usize)> = times.iter().copied().zip(0..).collect();
        want.sort();
        assert_eq!(q.peek_time(), Some(0));
        let got: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(got, want);
        assert!(q.is_empty());
    }

    #[test]
    fn due_by_agrees_with_peek_time() {
        for seed in 0..50 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut q = EventQueue::default();
            let mut now = 0;
            for i in 0..2000u64 {
                if rng.below(3) > 0 {
                    let span = 1 << rng.below(24);
                    q.push(now + rng.below(span), i);
                } else if let Some((at, _)) = q.pop() {
                    now = at;
                }
                let span = 1 << rng.below(24);
                let t = now + rng.below(span);
                let want = q.peek_time().is_some_and(|next| next <= t);
                assert_eq!(q.due_by(t), want, "seed {seed} step {i} t {t}");
                assert_eq!(q.due_by(now), q.peek_time().is_some_and(|n| n <= now));
            }
        }
    }

    #[test]
    fn big_buckets_keep_the_order() {
        // Tens of thousands of events within a few thousand microseconds,
        // pushed between pops as a crowded network does, so that big
        // buckets are spread while others are pushed to and popped, and
        // copies taken meanwhile: the order must be the sorted
        // (time, push) order.
        for seed in 0..6 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut c = checked::Checked::new();
            c.burst(&mut rng, 20_000, 24_000);
            for step in 0..60_000 {
                if rng.below(3) > 0 {
                    c.push_soon(&mut rng);
                }
                if step % 7 == 0 {
                    let copy = c.q.clone();
                    assert_eq!(copy.peek_time(), c.q.peek_time(), "seed {seed}");
                }
                c.pop(&format!("seed {seed} step {step}"));
            }
            c.drain(&format!("seed {seed}"));
        }
    }
}
