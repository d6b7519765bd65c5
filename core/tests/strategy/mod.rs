//! A proptest [`Strategy`] for random valid scenarios, shared by the
//! property tests (`prop_engine.rs`, `prop_links.rs`): algorithm from the
//! registry, cluster size, seed, ring and start, network (latency, drop,
//! duplicate, fifo), timing, options and a fault schedule using every kind
//! of fault the scenario format has.
//!
//! A case is kept as scenario JSON, so a failure prints exactly what to
//! save in a file and run with `election run --scenario FILE`; its `Debug`
//! form is that JSON, which is what proptest shows for the shrunk case.
//!
//! Case count: `PROPTEST_CASES` (default [`DEFAULT_CASES`], small enough
//! for the normal `cargo test`); `PROPTEST_RNG_SEED` picks another fixed
//! set of cases (default: one fixed seed, so CI runs the same cases every
//! time). `scripts/test-extended.sh` raises both.

#![allow(dead_code)]

use election_core::algorithms;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Value, json};
use std::fmt;

/// Cases per property in a normal `cargo test`.
pub const DEFAULT_CASES: u32 = 128;

/// The proptest configuration: `PROPTEST_CASES` and `PROPTEST_RNG_SEED`
/// when set, else [`DEFAULT_CASES`] cases from a fixed seed.
pub fn config() -> Config {
    let mut c = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = DEFAULT_CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(20_261_130);
    }
    // Regressions are pinned as readable scenario files in tests, not as
    // opaque seeds in a side directory.
    c.failure_persistence = None;
    // Shrinking a whole simulation is slow; a minute gets a small case.
    if std::env::var_os("PROPTEST_MAX_SHRINK_TIME").is_none() {
        c.max_shrink_time = 60_000;
    }
    c
}

/// A generated scenario, as the JSON a scenario file would hold.
#[derive(Clone)]
pub struct Case(pub Value);

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string_pretty(&self.0).unwrap_or_default();
        write!(
            f,
            "scenario file (save it and run `election run --scenario FILE`):\n{text}"
        )
    }
}

impl Case {
    /// The pretty JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(&self.0).unwrap_or_default()
    }
}

/// A node id of a cluster of `total` nodes (participants and extras);
/// shrinks towards 0.
fn id(total: u32) -> impl Strategy<Value = u32> {
    0..total
}

/// `"leader"` or a node id.
fn target(total: u32) -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => id(total).prop_map(|i| json!(i)),
        1 => Just(json!("leader")),
    ]
}

/// Milliseconds with at most three decimals (whole microseconds), as the
/// scenario format keeps them.
fn millis(lo: u64, hi: u64) -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (lo..=hi).prop_map(|m| json!(m)),
        1 => (lo * 1000..=hi * 1000).prop_map(|us| {
            if us % 1000 == 0 { json!(us / 1000) } else { json!(us as f64 / 1000.0) }
        }),
    ]
}

/// A probability with two decimals in `0..=hi_percent` percent.
fn probability(hi_percent: u32) -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => Just(json!(0.0)),
        1 => (0..=hi_percent).prop_map(|p| json!(f64::from(p) / 100.0)),
    ]
}

/// A network section (also the payload of a `network` fault).
fn network() -> impl Strategy<Value = Value> {
    (
        0u64..20,
        0u64..40,
        probability(30),
        probability(20),
        any::<bool>(),
    )
        .prop_map(|(lo, extra, drop, duplicate, fifo)| {
            json!({
                "latency_ms": [lo, lo + extra],
                "drop": drop,
                "duplicate": duplicate,
                "fifo": fifo,
            })
        })
}

/// One fault at `at_ms`, of any kind, naming nodes below `total`.
fn fault(total: u32) -> impl Strategy<Value = Value> {
    let at = millis(0, 6000);
    let kind = prop_oneof![
        target(total).prop_map(|t| json!({"crash": t})),
        target(total).prop_map(|t| json!({"recover": t})),
        (target(total), millis(1, 800)).prop_map(|(t, f)| json!({"pause": t, "for_ms": f})),
        (target(total), -300i64..300, 0u32..4).prop_map(|(t, o, d)| {
            let drift = [0.0, 0.005, 0.1, 0.5][d as usize];
            json!({"clock": t, "offset_ms": o, "drift": drift})
        }),
        proptest::collection::vec(any::<bool>(), total as usize).prop_map(|side| {
            // Two groups by a coin per node; empty groups are allowed.
            let a: Vec<u32> = (0..side.len() as u32)
                .filter(|&i| side[i as usize])
                .collect();
            let b: Vec<u32> = (0..side.len() as u32)
                .filter(|&i| !side[i as usize])
                .collect();
            json!({"partition": [a, b]})
        }),
        Just(json!({"heal": true})),
        (target(total), millis(0, 40)).prop_map(|(t, e)| json!({"slow": t, "extra_ms": e})),
        (
            target(total),
            2u64..600,
            1u64..100,
            proptest::option::of(0u64..3000)
        )
            .prop_map(|(t, period, down, for_ms)| {
                let period = period.max(down + 1);
                let mut v = json!({"flaky": t, "period_ms": period, "down_ms": down});
                if let Some(f) = for_ms {
                    v["for_ms"] = json!(f);
                }
                v
            }),
        (id(total), id(total)).prop_filter_map("a cut needs two nodes", move |(a, b)| {
            (a != b).then(|| json!({"cut": [a, b]}))
        }),
        (id(total), id(total)).prop_filter_map("an uncut needs two nodes", move |(a, b)| {
            (a != b).then(|| json!({"uncut": [a, b]}))
        }),
        network().prop_map(|n| json!({"network": n})),
    ];
    (at, kind).prop_map(|(at, mut k)| {
        k["at_ms"] = at;
        k
    })
}

/// Random valid scenarios of every registered algorithm with at most
/// `max_faults` faults.
pub fn scenario(max_faults: usize) -> impl Strategy<Value = Case> {
    let ids: Vec<&'static str> = algorithms::ids();
    (proptest::sample::select(ids), 2u32..=12).prop_flat_map(move |(algorithm, nodes)| {
        let extras = algorithms::info(algorithm).map_or(0, |a| a.extras.len() as u32);
        let total = nodes + extras;
        let start = prop_oneof![
            Just(json!("all")),
            Just(json!("none")),
            proptest::collection::btree_set(0..nodes, 0..=nodes as usize)
                .prop_map(|s| json!(s.into_iter().collect::<Vec<_>>())),
        ];
        let ring = proptest::sample::select(vec!["ascending", "descending", "random"]);
        // The heartbeat at least the largest latency floor drawn (20 ms):
        // a timing below the floor is refused (scenario validation).
        let timing = (50u64..300, 0u64..300, 20u64..120).prop_map(
            |(lo, extra, hb)| json!({"election_timeout_ms": [lo, lo + extra], "heartbeat_ms": hb}),
        );
        let options = (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        );
        (
            any::<u64>(),
            ring,
            start,
            network(),
            timing,
            options,
            proptest::collection::vec(fault(total), 0..=max_faults),
            1000u64..8000,
        )
            .prop_map(
                move |(
                    seed,
                    ring,
                    start,
                    network,
                    timing,
                    (fencing, pre_vote, check_quorum, leader_lease, herd),
                    faults,
                    until,
                )| {
                    Case(json!({
                        "version": 1,
                        "algorithm": algorithm,
                        "nodes": nodes,
                        "seed": seed,
                        "ring": ring,
                        "start": start,
                        "network": network,
                        "timing": timing,
                        "fencing": fencing,
                        "pre_vote": pre_vote,
                        "check_quorum": check_quorum,
                        "leader_lease": leader_lease,
                        "watch": if herd { "herd" } else { "predecessor" },
                        "faults": faults,
                        "until_ms": until,
                    }))
                },
            )
    })
}
