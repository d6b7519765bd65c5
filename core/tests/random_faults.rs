//! Randomized fault runs: random scenarios (algorithm, size, network,
//! fault schedule) drawn from a seed. The engine must never panic, time
//! must never go back, the message books must balance, and once every
//! fault is over (all nodes recovered, network healed) the cluster must
//! settle on one leader. A failure prints the scenario that reproduces it.
//!
//! The normal run covers seeds 1..=500 over every algorithm. For a longer
//! hunt: `RANDOM_FAULT_SEEDS=1..=20000 RANDOM_FAULT_ALGORITHM=raft cargo
//! test --release -p election-core --test random_faults`.

use election_core::rng::{SimRng, Stream};
use election_core::{Scenario, algorithms};
use serde_json::{Value, json};

fn random_scenario(seed: u64, only: Option<&str>) -> Value {
    let mut r = SimRng::new(seed, Stream::Engine);
    let ids = algorithms::ids();
    let drawn = ids[r.below(ids.len() as u64) as usize];
    let algorithm = only.unwrap_or(drawn);
    let n = r.between(2, 24);
    let mut faults = Vec::new();
    let mut t = 0;
    for _ in 0..r.between(0, 12) {
        t += r.between(0, 600);
        let node = json!(r.below(n));
        let target = if r.chance(0.3) {
            json!("leader")
        } else {
            node.clone()
        };
        let fault = match r.below(9) {
            0 => json!({"at_ms": t, "crash": target}),
            1 => json!({"at_ms": t, "recover": node}),
            2 => json!({"at_ms": t, "pause": target, "for_ms": r.between(1, 500)}),
            3 => json!({"at_ms": t, "clock": node, "offset_ms": r.between(0, 200), "drift": 0.1}),
            4 => {
                let cut = r.between(1, n - 1);
                json!({"at_ms": t, "partition": [(0..cut).collect::<Vec<_>>()]})
            }
            5 => json!({"at_ms": t, "slow": node, "extra_ms": r.between(0, 30)}),
            6 => {
                json!({"at_ms": t, "flaky": node, "period_ms": 300, "down_ms": 100, "for_ms": 900})
            }
            7 => json!({"at_ms": t, "cut": [r.below(n), (r.below(n - 1) + 1 + r.below(1)) % n]}),
            _ => json!({"at_ms": t, "heal": true}),
        };
        faults.push(fault);
    }
    // Afterwards: everything comes back.
    t += 1000;
    faults.push(json!({"at_ms": t, "heal": true}));
    for id in 0..n {
        faults.push(json!({"at_ms": t, "recover": id}));
        faults.push(json!({"at_ms": t, "slow": id, "extra_ms": 0}));
    }
    let ring = ["ascending", "descending", "random"][r.below(3) as usize];
    let start = ["all", "none"][r.below(2) as usize];
    let latency_hi = r.between(2, 20);
    let drop = if r.chance(0.3) { 0.02 } else { 0.0 };
    let duplicate = if r.chance(0.3) { 0.02 } else { 0.0 };
    let fifo = r.chance(0.7);
    json!({
        "algorithm": algorithm,
        "nodes": n,
        "seed": seed,
        "ring": ring,
        "start": start,
        "network": {"latency_ms": [1, latency_hi], "drop": drop, "duplicate": duplicate, "fifo": fifo},
        "faults": faults
    })
}

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
        let value = random_scenario(seed, only.as_deref());
        let text = serde_json::to_string_pretty(&value).unwrap();
        let scenario = match Scenario::from_value(&value) {
            Ok(s) => s,
            Err(e) if e.field.ends_with(".cut") => continue, // drew a self-loop
            Err(e) => panic!("seed {seed}: generated an invalid scenario ({e}):\n{text}"),
        };
        let outcome = std::panic::catch_unwind(|| {
            let mut sim = algorithms::build(&scenario, true);
            sim.run_to_end();
            let trace = sim.trace().to_vec();
            (sim.summary(), trace)
        });
        let Ok((summary, trace)) = outcome else {
            panic!("seed {seed}: the engine panicked on:\n{text}");
        };
        let times: Vec<u64> = trace.iter().map(|e| e.at_us).collect();
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "seed {seed}: time went back:\n{text}"
        );
        let m = &summary.messages;
        assert_eq!(
            m.sent + m.duplicated,
            m.delivered + m.dropped + m.in_flight,
            "seed {seed}: message books do not balance:\n{text}"
        );
        assert!(
            summary.settled && summary.leader.is_some(),
            "seed {seed}: no single leader after every fault was over ({summary:?}):\n{text}"
        );
    }
}
