//! A node's armed timers, the first one stored in the node's slot itself.
//!
//! Most nodes have one timer armed at a time (a watchdog), and it is
//! re-armed on nearly every message a node handles. Kept in a `Vec`, its
//! timers were a separate allocation somewhere else in memory: on a large
//! cluster, a cache miss of its own on every message, on top of the
//! node's slot. Here the first timer lives in the slot and only the
//! others in a list. The order is exactly a `Vec`'s under the same calls
//! (push, swap_remove, retain), because the engine queues timers in that
//! order (a clock change re-queues them), which the trace hash sees.

use super::ArmedTimer;
use std::ops::{Index, IndexMut};

/// The armed timers of one node: `first`, then `rest`, in the order a
/// `Vec` would hold them. `first` is empty only when `rest` is.
#[derive(Clone)]
pub(super) struct Timers<T> {
    first: Option<ArmedTimer<T>>,
    rest: Vec<ArmedTimer<T>>,
}

impl<T> Default for Timers<T> {
    fn default() -> Self {
        Self {
            first: None,
            rest: Vec::new(),
        }
    }
}

impl<T> Timers<T> {
    /// Number of armed timers.
    pub(super) fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }

    /// The timers in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &ArmedTimer<T>> {
        self.first.iter().chain(self.rest.iter())
    }

    /// The timers in order, to change.
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut ArmedTimer<T>> {
        self.first.iter_mut().chain(self.rest.iter_mut())
    }

    /// Appends `timer` (`Vec::push`).
    pub(super) fn push(&mut self, timer: ArmedTimer<T>) {
        if self.first.is_none() {
            self.first = Some(timer);
        } else {
            self.rest.push(timer);
        }
    }

    /// Removes the timer at `index`, putting the last one in its place
    /// (`Vec::swap_remove`). Nothing happens past the end.
    pub(super) fn swap_remove(&mut self, index: usize) {
        if index == 0 {
            self.first = self.rest.pop();
        } else if index <= self.rest.len() {
            self.rest.swap_remove(index - 1);
        }
    }

    /// Keeps only the timers for which `keep` is true, in order
    /// (`Vec::retain`; `keep` sees them in order too).
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&ArmedTimer<T>) -> bool) {
        let keep_first = self.first.as_ref().is_some_and(&mut keep);
        self.rest.retain(keep);
        if !keep_first && self.first.is_some() {
            self.first = if self.rest.is_empty() {
                None
            } else {
                Some(self.rest.remove(0))
            };
        }
    }

    /// Disarms every timer.
    pub(super) fn clear(&mut self) {
        self.first = None;
        self.rest.clear();
    }
}

impl<T> Index<usize> for Timers<T> {
    type Output = ArmedTimer<T>;

    fn index(&self, index: usize) -> &ArmedTimer<T> {
        match (index, &self.first) {
            (0, Some(first)) => first,
            _ => &self.rest[index.wrapping_sub(1)],
        }
    }
}

impl<T> IndexMut<usize> for Timers<T> {
    fn index_mut(&mut self, index: usize) -> &mut ArmedTimer<T> {
        match (index, &mut self.first) {
            (0, Some(first)) => first,
            _ => &mut self.rest[index.wrapping_sub(1)],
        }
    }
}

impl<'a, T> IntoIterator for &'a Timers<T> {
    type Item = &'a ArmedTimer<T>;
    type IntoIter =
        std::iter::Chain<std::option::Iter<'a, ArmedTimer<T>>, std::slice::Iter<'a, ArmedTimer<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.first.iter().chain(self.rest.iter())
    }
}

impl<'a, T> IntoIterator for &'a mut Timers<T> {
    type Item = &'a mut ArmedTimer<T>;
    type IntoIter = std::iter::Chain<
        std::option::IterMut<'a, ArmedTimer<T>>,
        std::slice::IterMut<'a, ArmedTimer<T>>,
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.first.iter_mut().chain(self.rest.iter_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream};

    fn armed(generation: u64) -> ArmedTimer<u8> {
        ArmedTimer {
            timer: (generation % 5) as u8,
            generation,
            local_deadline: 0,
            queued_at: 0,
            armed_at: 0,
        }
    }

    fn generations(t: &Timers<u8>) -> Vec<u64> {
        t.iter().map(|a| a.generation).collect()
    }

    #[test]
    fn behaves_like_a_vec_under_random_use() {
        for seed in 0..100 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut timers = Timers::default();
            let mut reference: Vec<ArmedTimer<u8>> = Vec::new();
            for step in 0..300u64 {
                match rng.below(5) {
                    0 | 1 => {
                        timers.push(armed(step));
                        reference.push(armed(step));
                    }
                    2 if !reference.is_empty() => {
                        let i = rng.below(reference.len() as u64) as usize;
                        assert_eq!(timers[i].generation, reference[i].generation);
                        timers.swap_remove(i);
                        reference.swap_remove(i);
                    }
                    3 => {
                        let drop = rng.below(5) as u8;
                        let mut seen = Vec::new();
                        timers.retain(|t| {
                            seen.push(t.generation);
                            t.timer != drop
                        });
                        let mut want = Vec::new();
                        reference.retain(|t| {
                            want.push(t.generation);
                            t.timer != drop
                        });
                        assert_eq!(seen, want, "seed {seed}: retain's call order");
                    }
                    4 if !reference.is_empty() => {
                        let i = rng.below(reference.len() as u64) as usize;
                        timers[i].queued_at = step;
                        reference[i].queued_at = step;
                        for t in &mut timers {
                            t.local_deadline += 1;
                        }
                        for t in &mut reference {
                            t.local_deadline += 1;
                        }
                    }
                    _ => {}
                }
                let want: Vec<u64> = reference.iter().map(|a| a.generation).collect();
                assert_eq!(generations(&timers), want, "seed {seed} step {step}");
                assert_eq!(timers.len(), reference.len());
                let fields = |a: &ArmedTimer<u8>| (a.queued_at, a.local_deadline);
                assert!(
                    (&timers)
                        .into_iter()
                        .map(fields)
                        .eq(reference.iter().map(fields)),
                    "seed {seed} step {step}"
                );
            }
            timers.clear();
            assert_eq!(timers.len(), 0);
        }
    }
}
