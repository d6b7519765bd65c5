//! Running many independent simulations on every core.
//!
//! Workers pull job indices from an atomic counter; results are put back in
//! index order, so the output never depends on thread timing.

use std::sync::atomic::{AtomicU64, Ordering};

/// The number of worker threads to use: `requested`, or every core.
pub fn threads(requested: Option<u32>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// `job(i)` for every `i` in `0..count`, on up to `threads` workers,
/// returned in index order.
pub fn map<T: Send>(count: u64, threads: usize, job: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let workers = (threads.max(1) as u64).min(count).max(1) as usize;
    let next = AtomicU64::new(0);
    let mut results: Vec<(u64, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let (next, job) = (&next, &job);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break out;
                        }
                        out.push((i, job(i)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(results) => results,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Jobs [`for_each`] runs between two hand-overs of their results: the
/// results of this many runs are all that is held at once.
pub const CHUNK: u64 = 8192;

/// `job(i)` for every `i` in `0..count`, on up to `threads` workers, each
/// result handed to `fold` with its index, in index order, [`CHUNK`] jobs
/// at a time: memory holds one chunk's results whatever `count` is (a
/// million seeds of `fuzz-faults` or `check`), and the output is that of
/// [`map`] folded in order.
pub fn for_each<T: Send>(
    count: u64,
    threads: usize,
    job: impl Fn(u64) -> T + Sync,
    mut fold: impl FnMut(u64, T),
) {
    let mut start = 0;
    while start < count {
        let n = CHUNK.min(count - start);
        for (i, result) in map(n, threads, |i| job(start + i)).into_iter().enumerate() {
            fold(start + i as u64, result);
        }
        start += n;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_index_order_with_any_thread_count() {
        for threads in [1, 2, 7] {
            assert_eq!(
                super::map(10, threads, |i| i * i),
                (0..10).map(|i| i * i).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn hands_results_over_in_index_order_chunk_by_chunk() {
        let count = 2 * super::CHUNK + 5;
        let mut seen = Vec::new();
        super::for_each(count, 3, |i| i * 2, |i, r| seen.push((i, r)));
        assert_eq!(seen, (0..count).map(|i| (i, i * 2)).collect::<Vec<_>>());
    }
}
