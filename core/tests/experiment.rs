//! Experiments (`election_core::experiment`): a run is a function of its
//! index alone, so any split of the indices among workers, in any order,
//! gives the same records; records survive the JSON trip a page worker
//! makes; the theory curves are `algorithms::theory` at each n.

use election_core::Scenario;
use election_core::algorithms;
use election_core::experiment::report::json_text;
use election_core::experiment::{Experiment, RunRecord, csv, theory};

fn experiment() -> Experiment {
    Experiment::from_json(
        r#"{"scenario": {"algorithm": "raft", "nodes": 5, "network": {"latency_ms": [2, 8]},
            "faults": [{"at_ms": 500, "crash": "leader"}]},
            "seeds": "11..18", "algorithms": ["raft", "bully"],
            "param": "timing.election_timeout_ms=150-160,150-300"}"#,
    )
    .unwrap()
}

#[test]
fn any_order_of_the_runs_gives_the_same_records() {
    let e = experiment();
    assert_eq!(e.run_count(), 2 * 2 * 8);
    let forward: Vec<RunRecord> = (0..e.run_count()).filter_map(|i| e.run(i)).collect();
    // Two "workers" taking interleaved indices, backwards.
    let mut slots: Vec<Option<RunRecord>> = vec![None; forward.len()];
    for worker in 0..2u64 {
        for i in (0..e.run_count()).rev().filter(|i| i % 2 == worker) {
            slots[i as usize] = e.run(i);
        }
    }
    let gathered: Vec<RunRecord> = slots.into_iter().flatten().collect();
    assert_eq!(gathered, forward);
    assert_eq!(
        json_text(&e, &gathered).unwrap(),
        json_text(&e, &forward).unwrap()
    );
    // Seeds in order within each group; every run a different trace.
    let seeds: Vec<u64> = forward.iter().take(8).map(|r| r.seed).collect();
    assert_eq!(seeds, (11..=18).collect::<Vec<_>>());
    let hashes: std::collections::BTreeSet<&str> =
        forward.iter().map(|r| r.trace_hash.as_str()).collect();
    assert_eq!(hashes.len(), forward.len());
}

#[test]
fn a_run_is_the_single_run_of_its_group_scenario_and_seed() {
    let e = experiment();
    let g = &e.groups()[3];
    assert_eq!(
        (g.algorithm.as_str(), g.value.as_deref()),
        ("bully", Some("150-300"))
    );
    let mut s: Scenario = g.scenario.clone();
    s.seed = 13;
    let single = election_core::sim::run(&s);
    let r = e.run(3 * 8 + 2).unwrap();
    assert_eq!((r.seed, &r.trace_hash), (13, &single.trace_hash));
    assert_eq!(r.sent, single.messages.sent);
    assert_eq!(r.recovery_ms, single.recovery_ms);
}

#[test]
fn records_travel_as_json() {
    let e = experiment();
    let records: Vec<RunRecord> = (0..e.run_count()).filter_map(|i| e.run(i)).collect();
    let text = serde_json::to_string(&records).unwrap();
    let back: Vec<RunRecord> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, records);
    assert_eq!(
        csv::csv_text(&e, &back).unwrap(),
        csv::csv_text(&e, &records).unwrap()
    );
    // A record of the wrong group is refused, naming it.
    let mut swapped = back.clone();
    swapped.swap(0, 31);
    let err = csv::csv_text(&e, &swapped).unwrap_err();
    assert_eq!(err.field, "records[0]");
}

#[test]
fn theory_curves_are_the_registry_figures() {
    let e = Experiment::from_json(
        r#"{"scenario": {"algorithm": "lelann", "ring": "random", "start": "all"},
            "seeds": "1", "algorithms": ["lelann", "bully"], "param": "nodes=4,64"}"#,
    )
    .unwrap();
    let curves = theory::curves(&e);
    assert_eq!(curves.len(), 1, "Bully has no published all-start figure");
    let c = &curves[0];
    assert_eq!(c.algorithm, "lelann");
    assert_eq!(c.points.first(), Some(&(4, 32.0)));
    assert_eq!(c.points.last(), Some(&(64, 8192.0)));
    for &(n, v) in &c.points {
        let mut s = e.groups()[0].scenario.clone();
        s.nodes = n;
        assert_eq!(algorithms::theory(&s).map(|t| t.0), Some(v));
    }
    assert!(c.points.len() > 20, "a curve, not two points");
}
