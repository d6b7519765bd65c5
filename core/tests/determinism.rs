//! Every run is a function of its scenario: the same scenario twice gives
//! the same trace, byte for byte, and the same hash, whether or not the
//! events are recorded.

use election_core::ScenarioExt;
use election_core::{Scenario, algorithms, sim};

const SCENARIOS: &[&str] = &[
    r#"{"algorithm":"bully","nodes":12,"seed":SEED,"start":"none",
        "network":{"latency_ms":[1,30],"drop":0.05,"duplicate":0.05},
        "faults":[{"at_ms":400,"crash":"leader"},{"at_ms":900,"partition":[[0,1,2,3]]},
                  {"at_ms":1500,"heal":true},{"at_ms":1600,"recover":11},
                  {"at_ms":1700,"pause":5,"for_ms":300},{"at_ms":0,"clock":3,"offset_ms":50,"drift":0.2},
                  {"at_ms":200,"slow":2,"extra_ms":15},{"at_ms":300,"cut":[4,5]},
                  {"at_ms":100,"flaky":1,"period_ms":400,"down_ms":150,"for_ms":1200}],
        "until_ms":3000}"#,
    r#"{"algorithm":"chang-roberts","nodes":16,"seed":SEED,"ring":"random",
        "network":{"latency_ms":[2,20],"drop":0.02,"duplicate":0.02,"fifo":false},
        "faults":[{"at_ms":500,"crash":"leader"},{"at_ms":800,"crash":3},
                  {"at_ms":1200,"partition":[[0,1,2,3,4,5],[6,7,8,9,10,11,12,13,14,15]]},
                  {"at_ms":2000,"heal":true},{"at_ms":2100,"recover":3}],
        "until_ms":4000}"#,
];

fn scenario(template: &str, seed: u64) -> Scenario {
    Scenario::from_json(&template.replace("SEED", &seed.to_string())).unwrap()
}

#[test]
fn same_seed_same_trace() {
    for template in SCENARIOS {
        for seed in 1..=10 {
            let s = scenario(template, seed);
            let mut a = algorithms::build(&s, true);
            let mut b = algorithms::build(&s, true);
            a.run_to_end();
            b.run_to_end();
            let ta = serde_json::to_string(a.trace()).unwrap();
            let tb = serde_json::to_string(b.trace()).unwrap();
            assert!(ta == tb, "traces differ for seed {seed}:\n{template}");
            assert_eq!(a.summary(), b.summary(), "seed {seed}");
            // Recording does not change what happens.
            assert_eq!(
                a.summary(),
                sim::run(&s),
                "record on/off differ, seed {seed}"
            );
        }
    }
}

#[test]
fn different_seeds_differ() {
    let hashes: std::collections::BTreeSet<String> = (1..=10)
        .map(|seed| sim::run(&scenario(SCENARIOS[1], seed)).trace_hash)
        .collect();
    assert!(hashes.len() >= 9, "seeds barely matter: {hashes:?}");
}

#[test]
fn message_accounting_balances() {
    for template in SCENARIOS {
        for seed in 1..=10 {
            let r = sim::run(&scenario(template, seed));
            let m = &r.messages;
            assert_eq!(
                m.sent + m.duplicated,
                m.delivered + m.dropped + m.in_flight,
                "seed {seed}: {m:?}"
            );
            assert_eq!(m.sent, m.election + m.background, "seed {seed}");
            assert_eq!(m.sent, m.by_kind.values().sum::<u64>(), "seed {seed}");
        }
    }
}

#[test]
fn stepping_equals_running() {
    let s = scenario(SCENARIOS[0], 4);
    let mut stepped = algorithms::build(&s, false);
    while stepped.next_time_us().is_some_and(|t| t <= 3_000_000) {
        stepped.step();
    }
    stepped.run_until(3_000_000);
    assert_eq!(stepped.summary().trace_hash, sim::run(&s).trace_hash);
}
