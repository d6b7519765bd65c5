//! Times each queue event of the 1024-node Bully burst natively and
//! prints the slow ones (a tool for finding long single steps).
//!
//! With `AHEAD=k` it does what the page's slices do: before every `k`
//! events, spreads up to `16 k` (at least 4,096) queued events of a
//! coming burst ahead of time, timed with the step after it.
use election_core::algorithms;
use election_core::scenario::query::from_query_pairs;
use std::time::Instant;

fn main() {
    let pairs: Vec<(String, String)> = [
        ("algorithm", "bully"),
        ("nodes", "1024"),
        ("seed", "1"),
        ("start", "all"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let scenario = from_query_pairs(&pairs).unwrap();
    let mut sim = algorithms::build(&scenario, true);
    let mut slow = 0;
    let mut n = 0u64;
    let t = Instant::now();
    let mut hist = [0u64; 8];
    let ahead: u64 = std::env::var("AHEAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while n < 3_000_000 {
        let t0 = Instant::now();
        if ahead > 0 && n % ahead == 0 {
            sim.spread_ahead((16 * ahead).max(4096) as usize);
        }
        if !sim.step() {
            break;
        }
        let us = t0.elapsed().as_micros() as u64;
        n += 1;
        let b = match us {
            0..=9 => 0,
            10..=99 => 1,
            100..=999 => 2,
            1000..=9999 => 3,
            _ => 4,
        };
        hist[b] += 1;
        if us > 500 && slow < 40 {
            slow += 1;
            println!(
                "step {n}: {us} us at {} us, in flight {}",
                sim.now_us(),
                sim.metrics().in_flight
            );
        }
    }
    println!(
        "{n} steps in {:?}; <10us {} <100us {} <1ms {} <10ms {} more {}",
        t.elapsed(),
        hist[0],
        hist[1],
        hist[2],
        hist[3],
        hist[4]
    );
}
