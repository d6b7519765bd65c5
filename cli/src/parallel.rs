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
}
