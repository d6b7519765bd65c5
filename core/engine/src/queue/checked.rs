//! For the queue's tests: an [`EventQueue`] driven side by side with a
//! sorted reference (a `BTreeSet` of (time, push number)), every pop
//! checked against it.

use super::EventQueue;
use crate::rng::SimRng;
use crate::time::Micros;
use std::collections::BTreeSet;

/// A queue of push numbers and the sorted reference it must agree with.
pub(super) struct Checked {
    /// The queue under test; its events are their push numbers.
    pub q: EventQueue<u64>,
    reference: BTreeSet<(Micros, u64)>,
    pushed: u64,
    /// The time of the last pop.
    pub now: Micros,
}

impl Checked {
    /// An empty queue and reference.
    pub fn new() -> Self {
        Self {
            q: EventQueue::default(),
            reference: BTreeSet::new(),
            pushed: 0,
            now: 0,
        }
    }

    /// Pushes the next push number at `at` to both.
    pub fn push(&mut self, at: Micros) {
        self.q.push(at, self.pushed);
        self.reference.insert((at, self.pushed));
        self.pushed += 1;
    }

    /// A burst: `n` events each between 1 ms and a random 4 to `far_up_to`
    /// microseconds after now (big buckets of the queue).
    pub fn burst(&mut self, rng: &mut SimRng, n: usize, far_up_to: u64) {
        for _ in 0..n {
            let far = 4_000 + rng.below(far_up_to - 4_000);
            let at = self.now + rng.between(1_000, far);
            self.push(at);
        }
    }

    /// Pushes one event up to 2^16 µs after now.
    pub fn push_soon(&mut self, rng: &mut SimRng) {
        let span = 1 << rng.below(16);
        let at = self.now + rng.below(span);
        self.push(at);
    }

    /// Checks `peek_time`, pops from both and checks they agree (`what`
    /// says where, for the failure message).
    pub fn pop(&mut self, what: &str) {
        assert_eq!(
            self.q.peek_time(),
            self.reference.first().map(|&(at, _)| at),
            "{what}"
        );
        let got = self.q.pop();
        assert_eq!(got, self.reference.pop_first(), "{what}");
        self.now = got.map_or(self.now, |(at, _)| at);
        assert_eq!(self.q.len(), self.reference.len(), "{what}");
    }

    /// Checks that both hold as many events.
    pub fn same_len(&self, what: &str) {
        assert_eq!(self.q.len(), self.reference.len(), "{what}");
    }

    /// Whether the earliest event in the reference is due by `t`.
    pub fn due_by(&self, t: Micros) -> bool {
        self.reference.first().is_some_and(|&(at, _)| at <= t)
    }

    /// Checks [`EventQueue::earliest_by`] with `key` (of a time and a push
    /// number) against the least key over the reference.
    pub fn earliest_by(&self, key: impl Fn(Micros, u64) -> Option<Micros>, what: &str) {
        let want = self
            .reference
            .iter()
            .filter_map(|&(at, n)| key(at, n))
            .min();
        assert_eq!(self.q.earliest_by(|at, &n| key(at, n)), want, "{what}");
    }

    /// Pops everything left, each checked.
    pub fn drain(&mut self, what: &str) {
        while !self.q.is_empty() {
            self.pop(what);
        }
        assert!(self.reference.is_empty(), "{what}");
    }
}
