//! Randomized fault runs (core/src/fuzz.rs): random scenarios drawn from a
//! seed; the engine never panics, the books balance, the cluster settles on
//! one leader once every fault is over, and consensus algorithms keep their
//! safety. A failure prints the seed and the scenario that reproduces it.
//!
//! The normal run covers seeds 1..=500 over every algorithm. For a longer
//! hunt use `election fuzz-faults --algorithm raft --seeds 1..20000`, or
//! `RANDOM_FAULT_SEEDS=1..=20000 RANDOM_FAULT_ALGORITHM=raft cargo test
//! --release -p election-core --test random_faults`.

use election_core::fuzz;

#[test]
fn random_fault_schedules_keep_the_engine_sound() {
    let range = std::env::var("RANDOM_FAULT_SEEDS").unwrap_or_else(|_| "1..=500".into());
    let (from, to) = range
        .split_once("..")
        .map(|(a, b)| (a.parse::<u64>(), b.trim_start_matches('=').parse::<u64>()))
        .and_then(|(a, b)| Some((a.ok()?, b.ok()?)))
        .expect("RANDOM_FAULT_SEEDS looks like 1..=500");
    let only = std::env::var("RANDOM_FAULT_ALGORITHM").ok();
    for seed in from..=to {
        let outcome = std::panic::catch_unwind(|| fuzz::check_seed(seed, only.as_deref()));
        match outcome {
            Ok(Ok(_)) => {}
            Ok(Err(f)) => panic!("seed {}: {}\n{}", f.seed, f.problem, f.scenario),
            Err(_) => panic!(
                "seed {seed}: the engine panicked on:\n{}",
                serde_json::to_string_pretty(&fuzz::random_scenario_json(seed, only.as_deref()))
                    .unwrap()
            ),
        }
    }
}
