//! [`VecMap`]: a small ordered map stored as a sorted `Vec`, for the
//! algorithms' per-peer tables (votes by sender, learners by follower,
//! members by id).
//!
//! Why not `BTreeMap`: each key and value type of a `BTreeMap` brings
//! several KB of node, balancing and cloning code into the wasm, and the
//! tables here hold at most one entry per node. A sorted `Vec` needs a
//! binary search and a shift, and iterates in the same ascending key
//! order, so runs (and their trace hashes) are unchanged.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::ops::Index;

/// An ordered map from `K` to `V` on a `Vec` sorted by key: the
/// `BTreeMap` methods the algorithms use, with the same iteration order.
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Sets `key` to `value`, returning the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserting `value` first when it has none
    /// (`BTreeMap::entry(key).or_insert(value)`).
    pub fn get_or_insert(&mut self, key: K, value: V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, value));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }
}

impl<K, V> VecMap<K, V> {
    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries by ascending key.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys, ascending.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values by ascending key.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Values by ascending key, to change.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Keeps only the entries for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

/// Inserted one by one (later pairs replace earlier ones with the same
/// key, as collecting into a `BTreeMap` does).
impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = Self::new();
        for (k, v) in pairs {
            map.insert(k, v);
        }
        map
    }
}

/// `map[&key]`, as for `BTreeMap`: panics when `key` has no value (for
/// tests and literals; the engine uses [`VecMap::get`]).
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> Index<&Q> for VecMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for this key in the VecMap")
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

/// Serialized as `BTreeMap` serializes: a map, keys ascending.
impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Printed as `BTreeMap` prints: `{k: v, ...}`.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::VecMap;
    use crate::rng::{SimRng, Stream};
    use std::collections::BTreeMap;

    /// Random inserts, lookups and removals give what a `BTreeMap` gives,
    /// in the same order.
    #[test]
    fn behaves_like_a_btree_map() {
        for seed in 0..20 {
            let mut rng = SimRng::new(seed, Stream::Engine);
            let mut map = VecMap::new();
            let mut reference = BTreeMap::new();
            for step in 0..2000u64 {
                let key = rng.below(64) as u32;
                match rng.below(5) {
                    0 | 1 => assert_eq!(map.insert(key, step), reference.insert(key, step)),
                    2 => assert_eq!(map.remove(&key), reference.remove(&key), "seed {seed}"),
                    3 => {
                        *map.get_or_insert(key, step) += 1;
                        *reference.entry(key).or_insert(step) += 1;
                    }
                    _ => {
                        assert_eq!(map.get(&key), reference.get(&key), "seed {seed}");
                        assert_eq!(map.contains_key(&key), reference.contains_key(&key));
                    }
                }
                assert_eq!(map.len(), reference.len(), "seed {seed}");
            }
            assert!(map.iter().eq(reference.iter()), "seed {seed}");
            assert_eq!(format!("{map:?}"), format!("{reference:?}"), "seed {seed}");
        }
    }
}
