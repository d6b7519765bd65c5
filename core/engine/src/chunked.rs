//! Sequences that grow in chunks, so that no push ever copies what is
//! already stored: for the engine's storage that can grow to millions of
//! entries in one run. [`ChunkedVec`] is appended to and emptied whole
//! (the event queue's buckets above level 0); [`ChunkedDeque`] is also
//! taken from the front and indexed (the messages on the wire, a bucket
//! being spread ahead of its turn).
//!
//! A `VecDeque` doubles its buffer when full and copies every entry over.
//! Natively a large buffer moves by remapping pages; in wasm the
//! allocator copies it, and one push then takes as long as the whole
//! history of the buffer: 1,024 Raft servers with timeouts at the floor
//! put about 2 million messages on the wire, and single pushes of the
//! page's run took 55 to 65 ms each (a Chromium CPU profile), several of
//! them in one slice, as every structure sized by the messages on the
//! wire doubles at the same moment. Here the first chunk grows as a
//! `VecDeque` does, up to [`CHUNK`] entries, and later ones are allocated
//! at that size once: a push moves at most one chunk's worth.
//!
//! Entries are pushed at the back (and taken from the front), so every
//! chunk but the first and the last is full, and an index finds its
//! chunk by division.

use std::collections::VecDeque;
use std::fmt;

/// Entries per chunk (a power of two, so the first chunk's doublings end
/// exactly there). At 64 bytes an entry, 256 KB: a push copies at most
/// that much, and a queue of one small chunk costs what a `VecDeque` does.
pub(crate) const CHUNK: usize = 4096;

/// A FIFO-ordered sequence with indexing, stored in chunks (see the
/// module docs).
pub(crate) struct ChunkedDeque<T> {
    /// Every chunk but the first and the last holds exactly [`CHUNK`]
    /// entries; none is empty, except a lone first chunk kept for its
    /// room.
    chunks: VecDeque<VecDeque<T>>,
    len: usize,
}

impl<T> Default for ChunkedDeque<T> {
    fn default() -> Self {
        Self {
            chunks: VecDeque::new(),
            len: 0,
        }
    }
}

impl<T> ChunkedDeque<T> {
    /// Entries stored.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is stored.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entries the chunks have room for.
    pub(crate) fn capacity(&self) -> usize {
        self.chunks.iter().map(VecDeque::capacity).sum()
    }

    /// Appends `value` after the others.
    #[inline]
    pub(crate) fn push_back(&mut self, value: T) {
        match self.chunks.back_mut() {
            Some(last) if last.len() < CHUNK => last.push_back(value),
            _ => self.push_to_new_chunk(value),
        }
        self.len += 1;
    }

    /// [`ChunkedDeque::push_back`] when the last chunk is full (or there
    /// is none): the first chunk grows by doubling, later ones start at
    /// their full size.
    #[inline(never)]
    fn push_to_new_chunk(&mut self, value: T) {
        let mut chunk = if self.chunks.is_empty() {
            VecDeque::new()
        } else {
            VecDeque::with_capacity(CHUNK)
        };
        chunk.push_back(value);
        self.chunks.push_back(chunk);
    }

    /// Takes the first entry.
    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        let first = self.chunks.front_mut()?;
        let value = first.pop_front()?;
        if first.is_empty() && self.chunks.len() > 1 {
            self.chunks.pop_front();
        }
        self.len -= 1;
        Some(value)
    }

    /// The first entry.
    #[inline]
    pub(crate) fn front(&self) -> Option<&T> {
        self.chunks.front()?.front()
    }

    /// Where entry `i` is: its chunk and its place there.
    #[inline]
    fn locate(&self, i: usize) -> Option<(usize, usize)> {
        let first = self.chunks.front()?.len();
        if i < first {
            Some((0, i))
        } else if i < self.len {
            let j = i - first;
            Some((1 + j / CHUNK, j % CHUNK))
        } else {
            None
        }
    }

    /// Entry `i` (0 is the first).
    #[cfg(test)]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        let (c, at) = self.locate(i)?;
        self.chunks.get(c)?.get(at)
    }

    /// Entry `i`, to change.
    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        let (c, at) = self.locate(i)?;
        self.chunks.get_mut(c)?.get_mut(at)
    }

    /// Every entry, first to last.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    /// The entries from `i` on, first to last.
    pub(crate) fn iter_from(&self, i: usize) -> impl Iterator<Item = &T> {
        let (c, at) = self.locate(i).unwrap_or((self.chunks.len(), 0));
        self.chunks
            .iter()
            .skip(c)
            .enumerate()
            .flat_map(move |(k, chunk)| chunk.iter().skip(if k == 0 { at } else { 0 }))
    }

    /// The index of the last entry for which `pred` holds.
    pub(crate) fn rposition(&self, mut pred: impl FnMut(&T) -> bool) -> Option<usize> {
        let mut end = self.len;
        for chunk in self.chunks.iter().rev() {
            let start = end - chunk.len();
            if let Some(at) = chunk.iter().rposition(&mut pred) {
                return Some(start + at);
            }
            end = start;
        }
        None
    }

    /// Appends copies of `value` until `len` entries are stored.
    pub(crate) fn resize(&mut self, len: usize, value: T)
    where
        T: Clone,
    {
        while self.len < len {
            self.push_back(value.clone());
        }
    }
}

/// An append-only sequence stored in chunks, emptied whole (see the
/// module docs): a push costs what a `Vec`'s does, without its copies.
pub(crate) struct ChunkedVec<T> {
    /// Every chunk but the last holds exactly [`CHUNK`] entries; none is
    /// empty, except a lone chunk kept for its room.
    chunks: Vec<Vec<T>>,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        Self { chunks: Vec::new() }
    }
}

impl<T> ChunkedVec<T> {
    /// Entries stored.
    pub(crate) fn len(&self) -> usize {
        match self.chunks.last() {
            Some(last) => (self.chunks.len() - 1) * CHUNK + last.len(),
            None => 0,
        }
    }

    /// Whether nothing is stored.
    pub(crate) fn is_empty(&self) -> bool {
        self.chunks.last().is_none_or(Vec::is_empty)
    }

    /// Entries the chunks have room for.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum()
    }

    /// Appends `value` after the others.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(value),
            _ => self.push_to_new_chunk(value),
        }
    }

    /// [`ChunkedVec::push`] when the last chunk is full (or there is
    /// none): the first chunk grows by doubling, later ones start at
    /// their full size.
    #[inline(never)]
    fn push_to_new_chunk(&mut self, value: T) {
        let mut chunk = if self.chunks.is_empty() {
            Vec::new()
        } else {
            Vec::with_capacity(CHUNK)
        };
        chunk.push(value);
        self.chunks.push(chunk);
    }

    /// Every entry, first to last.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    /// Takes every entry out, first to last, handing each to `f` (a
    /// closure rather than an iterator: a chained iterator over the chunks
    /// cost the event queue's spreading 12% of a run's time). A lone chunk
    /// of room for at most `keep` entries is emptied in place and kept,
    /// for the next entries.
    #[inline]
    pub(crate) fn drain_each(&mut self, keep: usize, mut f: impl FnMut(T)) {
        if self.chunks.len() == 1 && self.chunks[0].capacity() <= keep {
            self.chunks[0].drain(..).for_each(f);
            return;
        }
        for chunk in std::mem::take(&mut self.chunks) {
            chunk.into_iter().for_each(&mut f);
        }
    }

    /// The same entries, to be taken from the front: the chunks move,
    /// nothing is copied.
    pub(crate) fn into_deque(self) -> ChunkedDeque<T> {
        let len = self.len();
        ChunkedDeque {
            chunks: self
                .chunks
                .into_iter()
                .filter(|chunk| !chunk.is_empty())
                .map(VecDeque::from)
                .collect(),
            len,
        }
    }

    /// The same entries as one `VecDeque`: a lone chunk moves, more are
    /// copied (for buckets that hold few entries).
    pub(crate) fn into_vec_deque(mut self) -> VecDeque<T> {
        if self.chunks.len() <= 1 {
            return self.chunks.pop().map(VecDeque::from).unwrap_or_default();
        }
        self.chunks.into_iter().flatten().collect()
    }
}

impl<T: Clone> Clone for ChunkedVec<T> {
    /// A copy with room for exactly the entries stored.
    fn clone(&self) -> Self {
        Self {
            chunks: self
                .chunks
                .iter()
                .filter(|chunk| !chunk.is_empty())
                .map(|chunk| chunk.to_vec())
                .collect(),
        }
    }
}

impl<'a, T> IntoIterator for &'a ChunkedVec<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.iter().flatten()
    }
}

impl<T: Clone> Clone for ChunkedDeque<T> {
    /// A copy with room for exactly the entries stored (a time-travel
    /// checkpoint must not copy the room a burst left behind).
    fn clone(&self) -> Self {
        Self {
            // Chunk by chunk, which keeps every chunk but the first and
            // the last full.
            chunks: self
                .chunks
                .iter()
                .filter(|chunk| !chunk.is_empty())
                .map(|chunk| chunk.iter().cloned().collect())
                .collect(),
            len: self.len,
        }
    }
}

impl<T> IntoIterator for ChunkedDeque<T> {
    type Item = T;
    type IntoIter = std::iter::Flatten<std::collections::vec_deque::IntoIter<VecDeque<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.into_iter().flatten()
    }
}

impl<'a, T> IntoIterator for &'a ChunkedDeque<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Flatten<std::collections::vec_deque::Iter<'a, VecDeque<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.iter().flatten()
    }
}

impl<T: fmt::Debug> fmt::Debug for ChunkedDeque<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, Stream};

    /// Random pushes, pops, indexing and scans against a `VecDeque`,
    /// across many chunks.
    #[test]
    fn it_agrees_with_a_vecdeque() {
        for seed in 0..8u64 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut ours = ChunkedDeque::default();
            let mut plain = VecDeque::new();
            let mut next = 0u64;
            for step in 0..60_000 {
                let what = format!("seed {seed} step {step}");
                match rng.below(10) {
                    0..=5 => {
                        for _ in 0..rng.below(40) {
                            ours.push_back(next);
                            plain.push_back(next);
                            next += 1;
                        }
                    }
                    6..=7 => {
                        for _ in 0..rng.below(40) {
                            assert_eq!(ours.pop_front(), plain.pop_front(), "{what}");
                        }
                    }
                    8 => {
                        let i = rng.below(plain.len() as u64 + 2) as usize;
                        assert_eq!(ours.get(i), plain.get(i), "{what}");
                        if let Some(v) = ours.get_mut(i) {
                            *v += 1_000_000;
                            plain[i] += 1_000_000;
                        }
                        assert!(ours.iter_from(i).eq(plain.iter().skip(i)), "{what}");
                    }
                    _ => {
                        let m = rng.below(7) + 2;
                        assert_eq!(
                            ours.rposition(|v| v % m == 0),
                            plain.iter().rposition(|v| v % m == 0),
                            "{what}"
                        );
                    }
                }
                assert_eq!(ours.len(), plain.len(), "{what}");
                assert_eq!(ours.front(), plain.front(), "{what}");
            }
            assert!(ours.iter().eq(plain.iter()), "seed {seed}");
            assert!(ours.clone().iter().eq(plain.iter()), "seed {seed}");
            assert!(ours.into_iter().eq(plain.into_iter()), "seed {seed}");
        }
    }

    #[test]
    fn a_push_never_grows_a_chunk_past_its_size() {
        let mut q = ChunkedDeque::default();
        for i in 0..(5 * CHUNK + 7) {
            q.push_back(i);
        }
        assert!(q.chunks.iter().all(|c| c.capacity() <= CHUNK));
        assert_eq!(q.chunks.len(), 6);
        assert_eq!(q.get(3 * CHUNK + 5), Some(&(3 * CHUNK + 5)));
    }

    #[test]
    fn a_copy_has_room_for_exactly_its_entries() {
        let mut q = ChunkedDeque::default();
        for i in 0..(CHUNK + 300) {
            q.push_back(i);
        }
        for _ in 0..CHUNK {
            q.pop_front();
        }
        assert_eq!(q.clone().capacity(), 300);
    }

    #[test]
    fn draining_keeps_a_small_first_chunk() {
        let mut q = ChunkedVec::default();
        (0..100).for_each(|i| q.push(i));
        let mut count = 0;
        q.drain_each(256, |_| count += 1);
        assert_eq!(count, 100);
        assert!(q.is_empty());
        assert_eq!(q.capacity(), 128);
        q.push(1);
        assert_eq!(q.len(), 1);
        let mut big = ChunkedVec::default();
        (0..1000).for_each(|i| big.push(i));
        big.drain_each(256, |_| count += 1);
        assert_eq!(count, 1100);
        assert_eq!(big.capacity(), 0);
    }

    #[test]
    fn a_chunked_vec_keeps_its_order_and_chunk_sizes() {
        let mut v = ChunkedVec::default();
        assert!(v.is_empty());
        for i in 0..(3 * CHUNK + 11) {
            v.push(i);
        }
        assert_eq!(v.len(), 3 * CHUNK + 11);
        assert!(v.chunks.iter().all(|c| c.capacity() <= CHUNK));
        assert!(v.iter().copied().eq(0..3 * CHUNK + 11));
        assert_eq!(v.clone().capacity(), 3 * CHUNK + 11);
        let mut deque = v.clone().into_deque();
        assert_eq!(deque.len(), 3 * CHUNK + 11);
        assert_eq!(deque.get(2 * CHUNK + 3), Some(&(2 * CHUNK + 3)));
        assert_eq!(deque.pop_front(), Some(0));
        assert!(v.clone().into_vec_deque().into_iter().eq(0..3 * CHUNK + 11));
        let mut out = Vec::new();
        v.drain_each(0, |x| out.push(x));
        assert!(out.into_iter().eq(0..3 * CHUNK + 11));
        assert!(v.is_empty());
        assert_eq!(v.len(), 0);
    }
}
