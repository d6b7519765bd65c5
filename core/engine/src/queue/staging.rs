//! Spreading a big bucket of the event queue ahead of time, a bounded
//! piece per call, so that no single pop has to move a whole burst.
//!
//! In a burst (a thousand nodes broadcasting at once) hundreds of
//! thousands of messages fall into one bucket above level 0, and the pop
//! that reaches it spreads them all in one go: 4 to 10 ms natively,
//! longer in wasm, in one call that a page cannot cut. A caller that runs
//! the simulation in slices (the page) calls
//! [`EventQueue::spread_ahead`] between them: the earliest big bucket's
//! events are sorted into a staging copy of the levels below it, the
//! places they will take when their turn comes, and the pop that reaches
//! the bucket only installs the staged buckets and spreads what is left.
//! Several buckets may be in staging at once: the one due next is often a
//! small one, with the big one behind it.
//!
//! Nothing here touches `push` or the usual `pop`: the bucket being
//! staged stays marked occupied and keeps taking pushes (appended after
//! what was staged, as they would be), and the levels below it are
//! untouched until the bucket's turn. So the order of events, and every
//! run, is the same with or without staging; only where the work of
//! spreading falls changes.

use super::{Entry, EventQueue, WIDTH, digit_of, level_of};
use crate::chunked::{ChunkedDeque, ChunkedVec};
use crate::time::Micros;

/// Buckets with fewer events are spread when their turn comes, as usual.
pub(super) const BIG_BUCKET: usize = 4096;

/// A big bucket (above level 0) being spread ahead of time.
#[derive(Clone)]
pub(super) struct Staging<E> {
    /// Its level (above 0) and digit.
    level: usize,
    digit: usize,
    /// The earliest time it can hold: where `last` moves when its turn
    /// comes (see `EventQueue::spread`).
    start: Micros,
    /// Its events not yet staged, in push order; events pushed to the
    /// bucket since are in the bucket itself, after these.
    source: ChunkedDeque<Entry<E>>,
    /// `lower[level * WIDTH + digit]`: the staged events that will fill
    /// bucket `digit` of `level` (below the staged bucket's level), in
    /// push order.
    lower: Vec<ChunkedVec<Entry<E>>>,
}

impl<E> Staging<E> {
    /// Sorts one event into its staged bucket.
    fn stage(&mut self, entry: Entry<E>) {
        let level = level_of(entry.at, self.start);
        debug_assert!(level < self.level, "an event outside the staged bucket");
        let digit = digit_of(entry.at, level);
        self.lower[level * WIDTH + digit].push(entry);
    }

    /// Its staged and not yet staged events (not the events pushed to the
    /// bucket since staging began), in no particular order.
    pub(super) fn entries(&self) -> impl Iterator<Item = &Entry<E>> {
        self.lower.iter().flatten().chain(&self.source)
    }

    /// The earliest staged or not yet staged time (not counting events
    /// pushed to the bucket since staging began).
    fn min_time(&self) -> Option<Micros> {
        let staged = self.lower.iter().flatten().map(|e| e.at);
        staged.chain(self.source.iter().map(|e| e.at)).min()
    }
}

impl<E> EventQueue<E> {
    /// Spreads part of the earliest bucket holding at least
    /// [`BIG_BUCKET`] events ahead of its turn, at most `max_moves`
    /// events; returns how many it moved (0 when no bucket is big or the
    /// one being staged is done). The queue pops exactly the same events
    /// in the same order either way.
    pub fn spread_ahead(&mut self, max_moves: usize) -> usize {
        let mut moved = 0;
        while moved < max_moves {
            // Go on with a bucket whose staging is not done, or begin
            // the earliest big bucket not yet in staging.
            let open = self.staging.iter().position(|s| {
                !s.source.is_empty() || !self.upper[(s.level - 1) * WIDTH + s.digit].is_empty()
            });
            let at = match open {
                Some(at) => at,
                None => {
                    let Some((level, digit)) = self.earliest_big_bucket() else {
                        break;
                    };
                    self.staging.push(Staging {
                        level,
                        digit,
                        start: self.bucket_start(level, digit),
                        source: ChunkedDeque::default(),
                        lower: (0..level * WIDTH).map(|_| ChunkedVec::default()).collect(),
                    });
                    self.staging.len() - 1
                }
            };
            let staging = &mut self.staging[at];
            let index = (staging.level - 1) * WIDTH + staging.digit;
            while moved < max_moves {
                if let Some(entry) = staging.source.pop_front() {
                    staging.stage(entry);
                    moved += 1;
                } else if self.upper[index].is_empty() {
                    break;
                } else {
                    // Events pushed to the bucket meanwhile come after all
                    // those staged so far, as in the bucket itself.
                    staging.source = std::mem::take(&mut self.upper[index]).into_deque();
                }
            }
        }
        moved
    }

    /// The earliest bucket above level 0 with at least [`BIG_BUCKET`]
    /// events and not in staging: buckets of lower levels hold earlier
    /// times, and within a level lower digits do.
    fn earliest_big_bucket(&self) -> Option<(usize, usize)> {
        (1..self.occupied.len()).find_map(|level| {
            let mut mask = self.occupied[level];
            while mask != 0 {
                let digit = mask.trailing_zeros() as usize;
                if self.upper[(level - 1) * WIDTH + digit].len() >= BIG_BUCKET
                    && self.staged(level, digit).is_none()
                {
                    return Some((level, digit));
                }
                mask &= mask - 1;
            }
            None
        })
    }

    /// Where bucket `(level, digit)` is in `staging`, if it is.
    pub(super) fn staged(&self, level: usize, digit: usize) -> Option<usize> {
        self.staging
            .iter()
            .position(|s| s.level == level && s.digit == digit)
    }

    /// When the bucket `(level, digit)` is the one being staged, its turn
    /// has come: stages the rest of it and installs the staged buckets
    /// (every level below it is empty now). Returns false (doing nothing)
    /// for any other bucket.
    pub(super) fn finish_staged(&mut self, level: usize, digit: usize) -> bool {
        let Some(at) = self.staged(level, digit) else {
            return false;
        };
        let mut staging = self.staging.swap_remove(at);
        debug_assert_eq!(staging.start, self.bucket_start(level, digit));
        self.last = staging.start;
        let index = (level - 1) * WIDTH + digit;
        for entry in std::mem::take(&mut staging.source) {
            staging.stage(entry);
        }
        self.upper[index].drain_each(super::KEEP_CAPACITY, |entry| staging.stage(entry));
        self.occupied[level] &= !(1 << digit);
        for (slot, bucket) in staging.lower.into_iter().enumerate() {
            if bucket.is_empty() {
                continue;
            }
            let (to, d) = (slot / WIDTH, slot % WIDTH);
            if to == 0 {
                self.now[d] = bucket.into_vec_deque();
            } else {
                self.upper[(to - 1) * WIDTH + d] = bucket;
            }
            self.occupied[to] |= 1 << d;
        }
        true
    }

    /// The earliest time in bucket `(level, digit)` (above level 0),
    /// counting what is staged of it.
    pub(super) fn bucket_min(&self, level: usize, digit: usize) -> Option<Micros> {
        let pushed = self.upper[(level - 1) * WIDTH + digit].iter().map(|e| e.at);
        let staged = self
            .staged(level, digit)
            .and_then(|at| self.staging[at].min_time());
        pushed.chain(staged).min()
    }
}

#[cfg(test)]
mod tests {
    use super::super::checked::Checked;
    use super::*;
    use crate::rng::{SimRng, Stream};

    #[test]
    fn staging_changes_no_pop() {
        // A burst of tens of thousands of events within a few milliseconds
        // (big buckets), then pops, pushes, copies and pieces of staging
        // interleaved at random: the pops must follow the sorted (time,
        // push) order exactly, as without staging.
        for seed in 0..12 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut c = Checked::new();
            let mut staged = 0;
            c.burst(&mut rng, 40_000, 34_000);
            for step in 0..120_000 {
                match rng.below(8) {
                    0..=2 => c.push_soon(&mut rng),
                    3 => staged += c.q.spread_ahead(1 + rng.below(5_000) as usize),
                    4 if step % 40 == 0 => {
                        // A copy taken mid-staging pops the same events.
                        let mut copy = c.q.clone();
                        let mut original = c.q.clone();
                        for _ in 0..50 {
                            assert_eq!(copy.pop(), original.pop(), "seed {seed} step {step}");
                        }
                    }
                    _ => {
                        let span = 1 << rng.below(16);
                        let t = c.now + rng.below(span);
                        assert_eq!(c.q.due_by(t), c.due_by(t), "seed {seed} step {step} t {t}");
                        c.pop(&format!("seed {seed} step {step}"));
                    }
                }
                c.same_len(&format!("seed {seed} step {step}"));
            }
            assert!(staged > 0, "seed {seed}: some bucket was staged");
            c.drain(&format!("seed {seed}"));
        }
    }

    #[test]
    fn the_earliest_by_a_key_counts_every_event_staged_or_not() {
        // Keys that skip some events and put others later than their own
        // time, over a queue with bursts, pops and staging interleaved:
        // the answer is the least key over every scheduled event.
        let key = |at: Micros, n: u64| match n % 4 {
            0 => None,
            1 => Some(at),
            _ => Some(at + (n % 13) * 997),
        };
        for seed in 0..4 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut c = Checked::new();
            let mut staged = 0;
            c.burst(&mut rng, 40_000, 34_000);
            for step in 0..20_000 {
                let what = format!("seed {seed} step {step}");
                match rng.below(6) {
                    0 | 1 => c.push_soon(&mut rng),
                    2 => staged += c.q.spread_ahead(1 + rng.below(3_000) as usize),
                    3 if step % 20 == 0 => c.earliest_by(key, &what),
                    _ => c.pop(&what),
                }
            }
            assert!(staged > 0, "seed {seed}: some bucket was staged");
            c.earliest_by(key, &format!("seed {seed} at the end"));
            c.earliest_by(|_, _| None, &format!("seed {seed}: no key"));
        }
    }

    #[test]
    fn a_staged_burst_pops_without_a_big_spread() {
        // 100,000 events within 4 ms of time 5 ms: staged whole ahead of
        // time, the pop that reaches them moves nothing more.
        let mut q = EventQueue::default();
        let mut rng = SimRng::new(7, Stream::Engine);
        for i in 0..100_000u64 {
            q.push(4_096 + rng.below(4_096), i);
        }
        let mut moved = 0;
        loop {
            let m = q.spread_ahead(10_000);
            assert!(m <= 10_000);
            if m == 0 {
                break;
            }
            moved += m;
        }
        assert_eq!(moved, 100_000);
        let first = q.peek_time();
        assert_eq!(q.staging.len(), 1);
        assert_eq!(q.pop().map(|(at, _)| at), first);
        assert!(q.staging.is_empty(), "installed at its turn");
        let mut last = first.unwrap_or(0);
        let mut count = 1;
        while let Some((at, _)) = q.pop() {
            assert!(at >= last);
            last = at;
            count += 1;
        }
        assert_eq!(count, 100_000);
    }

    #[test]
    fn small_buckets_are_not_staged() {
        let mut q = EventQueue::default();
        for i in 0..(BIG_BUCKET as u64 - 1) {
            q.push(5_000 + i % 1_000, i);
        }
        assert_eq!(q.spread_ahead(usize::MAX), 0);
        assert!(q.staging.is_empty());
    }
}
