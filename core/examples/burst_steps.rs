//! Times each queue event of the 1024-node Bully burst natively and
//! prints the slow ones (a tool for finding long single steps).
//!
//! With `AHEAD=k` it does what the page does instead: runs the burst
//! through a [`Session`] in slices of `k` events
//! ([`Session::run_until_within`], which first spreads up to `16 k`, at
//! least 4,096, queued events of a coming burst ahead of time, and takes
//! checkpoints on the way), and times each slice.
use election_core::scenario::query::from_query_pairs;
use election_core::session::Session;
use election_core::{Scenario, algorithms};
use std::time::Instant;

/// Events to run: the burst and what follows it.
const EVENTS: u64 = 3_000_000;

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
    let ahead: u64 = std::env::var("AHEAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if ahead > 0 {
        slices(&scenario, ahead);
    } else {
        steps(&scenario);
    }
}

/// Sorts one timing into the histogram of `report`.
fn bucket(hist: &mut [u64; 5], us: u64) {
    let b = match us {
        0..=9 => 0,
        10..=99 => 1,
        100..=999 => 2,
        1000..=9999 => 3,
        _ => 4,
    };
    hist[b] += 1;
}

fn report(what: &str, n: u64, t: Instant, hist: &[u64; 5]) {
    println!(
        "{n} {what} in {:?}; <10us {} <100us {} <1ms {} <10ms {} more {}",
        t.elapsed(),
        hist[0],
        hist[1],
        hist[2],
        hist[3],
        hist[4]
    );
}

/// One queue event at a time.
fn steps(scenario: &Scenario) {
    let mut sim = algorithms::build(scenario, true);
    let (mut slow, mut n, mut hist) = (0, 0u64, [0u64; 5]);
    let t = Instant::now();
    while n < EVENTS {
        let t0 = Instant::now();
        if !sim.step() {
            break;
        }
        let us = t0.elapsed().as_micros() as u64;
        n += 1;
        bucket(&mut hist, us);
        if us > 500 && slow < 40 {
            slow += 1;
            println!(
                "step {n}: {us} us at {} us, in flight {}",
                sim.now_us(),
                sim.metrics().in_flight
            );
        }
    }
    report("steps", n, t, &hist);
}

/// Slices of `ahead` events, as the page runs them (those over 2 ms
/// printed: the page sizes its slices to about 1 ms).
fn slices(scenario: &Scenario, ahead: u64) {
    let mut session = Session::new(scenario);
    let horizon = session.horizon_us();
    let (mut slow, mut n, mut hist) = (0, 0u64, [0u64; 5]);
    let t = Instant::now();
    while session.sim().metrics().events < EVENTS {
        let t0 = Instant::now();
        let done = session.run_until_within(horizon, ahead);
        let us = t0.elapsed().as_micros() as u64;
        n += 1;
        bucket(&mut hist, us);
        let sim = session.sim();
        if us > 2_000 && slow < 40 {
            slow += 1;
            println!(
                "slice {n}: {us} us at {} us, in flight {}",
                sim.now_us(),
                sim.metrics().in_flight
            );
        }
        if done {
            break;
        }
    }
    report(&format!("slices of {ahead} events"), n, t, &hist);
}
