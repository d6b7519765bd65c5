//! Randomized fault runs (core/tools/src/fuzz.rs), the short version of
//! `election fuzz-faults` that every `cargo test` runs: for every
//! algorithm, random scenarios drawn from seeds (fault count, density and
//! loss rates drawn per seed); the engine never panics, the books balance,
//! the cluster settles on one leader once every fault is over, and
//! consensus algorithms keep their safety. A failure prints the algorithm,
//! the seed and the scenario that reproduces it.
//!
//! The normal run covers seeds 1..=200 for each algorithm. For the long
//! hunt (scripts/test-extended.sh) use `election fuzz-faults --algorithm
//! raft --seeds 1..20000`, or `RANDOM_FAULT_SEEDS=1..=20000
//! RANDOM_FAULT_ALGORITHM=raft cargo test --release -p election-core --test
//! random_faults`.

use election_core::{algorithms, fuzz};

#[test]
fn random_fault_schedules_keep_the_engine_sound() {
    let range = std::env::var("RANDOM_FAULT_SEEDS").unwrap_or_else(|_| "1..=200".into());
    let (from, to) = range
        .split_once("..")
        .map(|(a, b)| (a.parse::<u64>(), b.trim_start_matches('=').parse::<u64>()))
        .and_then(|(a, b)| Some((a.ok()?, b.ok()?)))
        .expect("RANDOM_FAULT_SEEDS looks like 1..=200");
    let only = std::env::var("RANDOM_FAULT_ALGORITHM").ok();
    let all = algorithms::ids();
    let chosen: Vec<&str> = match &only {
        Some(a) => vec![a.as_str()],
        None => all,
    };
    let expected = chosen.len() as u64 * (to - from + 1);
    let mut runs = 0;
    for algorithm in chosen {
        for seed in from..=to {
            let outcome = std::panic::catch_unwind(|| fuzz::check_seed(seed, Some(algorithm)));
            match outcome {
                Ok(Ok(_)) => runs += 1,
                Ok(Err(f)) => panic!(
                    "{algorithm}, seed {}: {}\n{}",
                    f.seed, f.problem, f.scenario
                ),
                Err(_) => panic!(
                    "{algorithm}, seed {seed}: the engine panicked on:\n{}",
                    serde_json::to_string_pretty(&fuzz::random_scenario_json(
                        seed,
                        Some(algorithm)
                    ))
                    .unwrap()
                ),
            }
        }
    }
    assert_eq!(runs, expected);
}
