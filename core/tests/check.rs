//! The failure finder (`election_core::check`): schedules are built only
//! from the kinds asked for and are the same for the same seed; Bully's
//! split brain under a partition shrinks to a handful of nodes and faults
//! and replays; Raft's safety holds; shrinking is deterministic.

use election_core::ScenarioExt;
use election_core::check::{self, CheckSpec, FaultKind, verdict};
use election_core::scenario::{FaultAction, Scenario};
use election_core::sim;

fn spec(algorithm: &str, kinds: &str) -> CheckSpec {
    CheckSpec::new(algorithm, None, FaultKind::parse_list(kinds).unwrap(), None).unwrap()
}

#[test]
fn schedules_use_only_the_kinds_asked_for_and_repeat_per_seed() {
    let s = spec("raft", "crash,partition");
    for seed in 1..=50 {
        let a = check::schedule::scenario_for(&s, seed);
        assert_eq!(a, check::schedule::scenario_for(&s, seed), "seed {seed}");
        assert!(!a.faults.is_empty() && a.faults.len() <= 8, "seed {seed}");
        for f in &a.faults {
            let key = f.action.key();
            assert!(key == "crash" || key == "partition", "seed {seed}: {key}");
        }
        a.validate().unwrap();
    }
}

#[test]
fn bully_split_brain_shrinks_to_a_small_replayable_scenario() {
    let s = spec("bully", "partition");
    let seed = (1..=200)
        .find(|&seed| check::check_seed(&s, seed).is_some())
        .unwrap();
    assert_eq!(seed, 1);
    let found = check::check_seed(&s, seed).unwrap();
    assert_eq!(found.property, "split_brain");
    let c = check::shrink_seed(&s, seed, &found);
    assert_eq!(c.property, "split_brain");
    assert!(c.scenario.nodes <= 4, "{}", c.scenario.to_json_pretty());
    assert!(
        c.scenario.faults.len() <= 2,
        "{}",
        c.scenario.to_json_pretty()
    );
    // Deterministic, and the scenario alone replays it.
    assert_eq!(c, check::shrink_seed(&s, seed, &found));
    let replay = Scenario::from_json(&c.scenario.to_json_pretty()).unwrap();
    let summary = sim::run(&replay);
    assert!(
        summary
            .violations
            .iter()
            .any(|v| v.property == "split_brain"),
        "{summary:?}"
    );
    assert!(c.link().starts_with("?at="), "{}", c.link());
    assert!(c.link().contains("#s=1."), "{}", c.link());
}

#[test]
fn raft_keeps_its_safety_over_random_schedules() {
    let s = CheckSpec::new("raft", None, FaultKind::defaults(), None).unwrap();
    for seed in 1..=100 {
        assert_eq!(check::check_seed(&s, seed), None, "seed {seed}");
    }
}

#[test]
fn liveness_schedules_end_with_every_fault_undone() {
    let s = CheckSpec::new(
        "bully",
        None,
        FaultKind::parse_list("crash,partition").unwrap(),
        Some(5_000_000),
    )
    .unwrap();
    let core = check::schedule::scenario_for(&s, 3);
    let full = s.full(&core);
    assert!(full.faults.len() > core.faults.len());
    assert!(
        full.faults
            .iter()
            .any(|f| matches!(f.action, FaultAction::Heal))
            || !core
                .faults
                .iter()
                .any(|f| matches!(f.action, FaultAction::Partition(_)))
    );
    // Bully elects again once every fault is undone: no liveness failure,
    // split brain during the partition is still found.
    let found = verdict::findings(&full, s.liveness_us);
    assert!(
        found.iter().all(|f| f.property != verdict::LIVENESS),
        "{found:?}"
    );
}

#[test]
fn unknown_kinds_and_algorithms_are_named() {
    assert!(
        FaultKind::parse_list("crash,explode")
            .unwrap_err()
            .contains("\"explode\"")
    );
    assert_eq!(
        FaultKind::parse_list("drop").unwrap(),
        vec![FaultKind::Network]
    );
    let e = CheckSpec::new("nope", None, FaultKind::defaults(), None).unwrap_err();
    assert_eq!(e.field, "algorithm");
    let e = CheckSpec::from_request(r#"{"algorithm": "bully", "seeds": "9..1"}"#).unwrap_err();
    assert_eq!(e.field, "seeds");
}

#[test]
fn schedules_are_valid_on_one_and_two_nodes_with_every_kind() {
    for nodes in [1, 2] {
        let base =
            Scenario::from_json(&format!(r#"{{"algorithm": "raft", "nodes": {nodes}}}"#)).unwrap();
        let s =
            CheckSpec::new("raft", Some(base), FaultKind::ALL.to_vec(), Some(3_000_000)).unwrap();
        for seed in 1..=100 {
            let full = s.full(&check::schedule::scenario_for(&s, seed));
            full.validate()
                .unwrap_or_else(|e| panic!("{nodes} nodes, seed {seed}: {e}"));
            assert_eq!(full.nodes, nodes);
        }
    }
}
