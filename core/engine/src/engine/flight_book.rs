//! The messages on the wire of a recording run, by wire id (a message's
//! id times two, plus one for a duplicate copy), for the page's drawing.
//!
//! Every send adds one and every delivery or drop takes one away, so this
//! is on the hot path of a recording run. Wire ids are handed out in
//! increasing order and most messages arrive within the network's latency,
//! so the messages live in a window of consecutive ids (a `VecDeque` of
//! slots, the oldest first): adding is a push at the back and taking away
//! empties a slot, both without a search. A message that stays on the wire
//! much longer than the others (held by a paused node) moves to a sorted
//! map of its own once the window grows past a few times the messages in
//! it, so the window stays dense and its memory bounded by the messages on
//! the wire. Against the `BTreeMap` it replaces: a recording run of Raft
//! with 256 nodes and about 2,450 messages on the wire spent a quarter of
//! its time in that map's inserts and removes (perf).

use super::Flight;
use crate::chunked::ChunkedDeque;
use std::collections::BTreeMap;

/// Slots the window may hold beyond `SPARSE_FACTOR` per message in it
/// before its oldest messages move to the sorted map.
const SPARSE_SLACK: usize = 1024;
/// Empty slots per message the window tolerates (beyond `SPARSE_SLACK`).
const SPARSE_FACTOR: usize = 4;

/// The messages on the wire, in wire-id order (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct FlightBook {
    /// Messages older than the window (wire ids below `base`).
    old: BTreeMap<u64, Flight>,
    /// Wire id of the window's first slot.
    base: u64,
    /// Slot `i` holds the message of wire id `base + i`, if it is on the wire.
    window: ChunkedDeque<Option<Flight>>,
    /// Messages in the window.
    live: usize,
}

impl FlightBook {
    /// Messages on the wire.
    pub(crate) fn len(&self) -> usize {
        self.old.len() + self.live
    }

    /// Adds the message of wire id `wire` (normally above every id in the
    /// book; any id works).
    pub(crate) fn insert(&mut self, wire: u64, flight: Flight) {
        if self.window.is_empty() {
            self.base = wire;
        }
        if wire < self.base {
            self.old.insert(wire, flight);
            return;
        }
        let at = usize::try_from(wire - self.base).unwrap_or(usize::MAX);
        if at >= self.window.len() {
            if at - self.window.len() > SPARSE_SLACK + SPARSE_FACTOR * (self.live + 1) {
                // A jump far ahead: start a new window after the old one.
                self.retire_window();
                self.base = wire;
                self.window.push_back(Some(flight));
                self.live = 1;
                return;
            }
            self.window.resize(at, None);
            self.window.push_back(Some(flight));
            self.live += 1;
            if self.window.len() > SPARSE_SLACK + SPARSE_FACTOR * self.live {
                self.trim();
            }
            return;
        }
        if self
            .window
            .get_mut(at)
            .and_then(|slot| slot.replace(flight))
            .is_none()
        {
            self.live += 1;
        }
    }

    /// Takes away the message of wire id `wire`, if it is on the wire.
    pub(crate) fn remove(&mut self, wire: u64) -> Option<Flight> {
        if wire < self.base {
            return self.old.remove(&wire);
        }
        let at = usize::try_from(wire - self.base).ok()?;
        let flight = self.window.get_mut(at)?.take()?;
        self.live -= 1;
        self.trim();
        Some(flight)
    }

    /// Every message, in wire-id order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &Flight> {
        self.old.values().chain(self.window.iter().flatten())
    }

    /// The lowest and highest wire ids on the wire.
    pub(crate) fn span(&self) -> Option<(u64, u64)> {
        let first = self
            .old
            .keys()
            .next()
            .copied()
            .or_else(|| self.first_in_window(0).map(|(wire, _)| wire))?;
        let last = self
            .window
            .rposition(Option::is_some)
            .map(|at| self.base + at as u64)
            .or_else(|| self.old.keys().next_back().copied())?;
        Some((first, last))
    }

    /// The message with the lowest wire id at or above `wire`.
    pub(crate) fn first_at_or_after(&self, wire: u64) -> Option<(u64, &Flight)> {
        if wire < self.base
            && let Some((&id, flight)) = self.old.range(wire..).next()
        {
            return Some((id, flight));
        }
        let at = usize::try_from(wire.saturating_sub(self.base)).ok()?;
        self.first_in_window(at)
    }

    /// The first message of the window at or after slot `at`.
    fn first_in_window(&self, at: usize) -> Option<(u64, &Flight)> {
        self.window
            .iter_from(at)
            .zip(at..)
            .find_map(|(slot, i)| slot.as_ref().map(|f| (self.base + i as u64, f)))
    }

    /// Drops the empty slots at the window's front, and moves its oldest
    /// messages to `old` while the window is sparse.
    fn trim(&mut self) {
        loop {
            match self.window.front() {
                Some(None) => {}
                Some(Some(_)) if self.window.len() > SPARSE_SLACK + SPARSE_FACTOR * self.live => {
                    if let Some(Some(flight)) = self.window.front().copied() {
                        self.old.insert(self.base, flight);
                        self.live -= 1;
                    }
                }
                _ => break,
            }
            self.window.pop_front();
            self.base += 1;
        }
        if self.window.is_empty() {
            self.live = 0;
        }
    }

    /// Moves every message of the window to `old` and empties it.
    fn retire_window(&mut self) {
        for (slot, wire) in std::mem::take(&mut self.window)
            .into_iter()
            .zip(self.base..)
        {
            if let Some(flight) = slot {
                self.old.insert(wire, flight);
            }
        }
        self.live = 0;
    }

    /// Estimated heap bytes.
    pub(crate) fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        self.old.len() * (size_of::<Flight>() + 16)
            + self.window.capacity() * size_of::<Option<Flight>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream};

    fn flight(id: u64) -> Flight {
        Flight {
            id,
            from: 0,
            to: 1,
            kind: 0,
            sent_us: id,
            arrive_us: id + 1,
            lost: false,
        }
    }

    /// The book against a `BTreeMap` under random sends and arrivals,
    /// with now and then a message held far longer and a jump in ids.
    #[test]
    fn it_agrees_with_a_sorted_map() {
        for seed in 0..40u64 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut book = FlightBook::default();
            let mut map = BTreeMap::new();
            let mut next = 0u64;
            for step in 0..20_000 {
                let roll = rng.below(100);
                if roll < 48 {
                    next += 1 + rng.below(2);
                    if rng.below(500) == 0 {
                        next += 10_000;
                    }
                    book.insert(next, flight(next));
                    map.insert(next, flight(next));
                } else if !map.is_empty() {
                    // Mostly the old ones arrive; some are held long.
                    let keys: Vec<u64> = map.keys().copied().collect();
                    let pick = if rng.below(10) < 8 {
                        keys[rng.below(keys.len().min(8) as u64) as usize]
                    } else {
                        keys[rng.below(keys.len() as u64) as usize]
                    };
                    let held = rng.below(50) == 0 && pick == keys[0];
                    if !held {
                        assert_eq!(
                            book.remove(pick),
                            map.remove(&pick),
                            "seed {seed} step {step}"
                        );
                    }
                    assert_eq!(book.remove(next + 5), None, "seed {seed} step {step}");
                }
                assert_eq!(book.len(), map.len(), "seed {seed} step {step}");
                if step % 97 == 0 {
                    let got: Vec<Flight> = book.values().copied().collect();
                    let want: Vec<Flight> = map.values().copied().collect();
                    assert_eq!(got, want, "seed {seed} step {step}");
                    let span = map.keys().next().zip(map.keys().next_back());
                    assert_eq!(
                        book.span(),
                        span.map(|(a, b)| (*a, *b)),
                        "seed {seed} step {step}"
                    );
                    let probe = rng.below(next + 2);
                    assert_eq!(
                        book.first_at_or_after(probe),
                        map.range(probe..).next().map(|(k, v)| (*k, v)),
                        "seed {seed} step {step} probe {probe}"
                    );
                }
                assert!(
                    book.window.len() <= 2 * (SPARSE_SLACK + SPARSE_FACTOR * (book.live + 1)),
                    "seed {seed} step {step}: window of {} slots for {} messages",
                    book.window.len(),
                    book.live
                );
            }
        }
    }
}
