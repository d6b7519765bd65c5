//! Failover (core/engine/src/metrics.rs, module docs: `failover`): counted
//! only from a fault that removed the run's leader. A run's first election,
//! a crash aimed at `"leader"` while none leads, a crash of a follower and a
//! partition that leaves the leader with a majority are no failover; a
//! crash of the leader, a pause of it and a partition that cuts it off from
//! a majority are. `recovery_*` keep their meaning (from the last fault, or
//! the start).

use election_core::ScenarioExt;
use election_core::sim::RunSummary;
use election_core::{Scenario, sim};

/// `algorithm` on 5 nodes, seed 3, with `fault`, until 4000 ms.
fn run(algorithm: &str, fault: &str) -> RunSummary {
    let json = format!(
        r#"{{"algorithm":"{algorithm}","nodes":5,"seed":3,"until_ms":4000,"faults":[{fault}]}}"#
    );
    sim::run(&Scenario::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}")))
}

/// (leader_removed_ms, failover_ms, failover_election_messages).
fn failover(r: &RunSummary) -> (Option<f64>, Option<f64>, Option<u64>) {
    (
        r.leader_removed_ms,
        r.failover_ms,
        r.failover_election_messages,
    )
}

#[test]
fn a_crash_of_the_leader_is_a_failover_with_the_recovery_figures() {
    for (id, want) in [
        ("bully", (277.093, 19)),
        ("raft", (203.738, 7)),
        ("chang-roberts", (394.642, 12)),
    ] {
        let r = run(id, r#"{"at_ms":1000,"crash":"leader"}"#);
        assert_eq!(
            failover(&r),
            (Some(1000.0), Some(want.0), Some(want.1)),
            "{id}"
        );
        // The last fault removed the leader: recovery is the same window.
        assert_eq!(
            (r.recovery_ms, r.recovery_election_messages),
            (r.failover_ms, r.failover_election_messages),
            "{id}"
        );
    }
}

#[test]
fn a_first_election_is_no_failover() {
    // The compare bug: a crash of "leader" before Chang-Roberts and Raft
    // had one is skipped, and their first election is not a failover
    // (recovery still measures from that fault, as documented).
    for id in ["chang-roberts", "raft"] {
        let r = run(id, r#"{"at_ms":5,"crash":"leader"}"#);
        assert_eq!(failover(&r), (None, None, None), "{id}");
        assert!(r.recovery_ms.is_some(), "{id}: recovery keeps its meaning");
    }
    // Bully has its leader at time 0: the same crash removes it.
    let bully = run("bully", r#"{"at_ms":5,"crash":"leader"}"#);
    assert_eq!(bully.leader_removed_ms, Some(5.0));
    assert!(bully.failover_ms.is_some());
    // No fault at all: no failover either.
    let quiet = sim::run(
        &Scenario::from_json(r#"{"algorithm":"raft","nodes":5,"seed":3,"until_ms":4000}"#).unwrap(),
    );
    assert_eq!(failover(&quiet), (None, None, None));
    assert!(quiet.recovery_ms.is_some());
}

#[test]
fn a_fault_that_misses_the_leader_is_no_failover() {
    // n0 follows in each of these runs (their leaders are n4, n2, n4).
    for id in ["bully", "raft", "chang-roberts"] {
        let r = run(id, r#"{"at_ms":1000,"crash":0}"#);
        assert_eq!(failover(&r), (None, None, None), "{id}");
    }
    // Raft's leader n2 keeps the majority side {0, 1, 2} of 5.
    let raft = run("raft", r#"{"at_ms":1000,"partition":[[0,1,2]]}"#);
    assert_eq!(failover(&raft), (None, None, None));
}

#[test]
fn a_partition_that_cuts_the_leader_off_from_a_majority_is_a_failover() {
    // Bully's leader n4 is on the minority side {3, 4}.
    let bully = run("bully", r#"{"at_ms":1000,"partition":[[0,1,2]]}"#);
    assert_eq!(failover(&bully), (Some(1000.0), Some(258.176), Some(14)));
    // Raft's leader n2 cut off with one other node.
    let raft = run("raft", r#"{"at_ms":1000,"partition":[[2,3]]}"#);
    assert_eq!(raft.leader_removed_ms, Some(1000.0));
    assert!(raft.failover_ms.is_some(), "{raft:?}");
}

#[test]
fn a_pause_of_the_leader_is_a_failover_and_a_later_miss_does_not_restart_it() {
    let paused = run("raft", r#"{"at_ms":1000,"pause":2,"for_ms":1500}"#);
    assert_eq!(paused.leader_removed_ms, Some(1000.0));
    // A follower (n1; n0 leads by then) crashed after the failover settled: the failover stays
    // the leader crash's, recovery moves to the follower's crash.
    let json = r#"{"algorithm":"raft","nodes":5,"seed":3,"until_ms":4000,
        "faults":[{"at_ms":1000,"crash":"leader"},{"at_ms":3000,"crash":1}]}"#;
    let r = sim::run(&Scenario::from_json(json).unwrap());
    assert_eq!(failover(&r), (Some(1000.0), Some(203.738), Some(7)));
    assert_ne!(r.recovery_ms, r.failover_ms);
}

#[test]
fn a_crash_of_leader_or_next_waits_for_each_runs_first_leader() {
    // One scenario, each algorithm's own leader: Bully leads at 5 ms and
    // loses its leader then; Chang-Roberts and Raft lose theirs the moment
    // they first have one (compare mode's "run to the leader first").
    for id in ["bully", "chang-roberts", "raft"] {
        let r = run(id, r#"{"at_ms":5,"crash":"leader-or-next"}"#);
        let first = r.first_leader_ms.unwrap();
        assert_eq!(r.leader_removed_ms, Some(first.max(5.0)), "{id}");
        assert!(r.failover_ms.is_some(), "{id}: it elected again");
        // Its removal is a fault event of its own: recovery counts from it.
        assert_eq!(r.recovery_ms, r.failover_ms, "{id}");
    }
    // It is written back as it was given, and a link carries it.
    let s = Scenario::from_json(
        r#"{"algorithm":"raft","nodes":5,"faults":[{"at_ms":5,"crash":"leader-or-next"}]}"#,
    )
    .unwrap();
    assert_eq!(
        s.to_json()["faults"][0]["crash"],
        serde_json::json!("leader-or-next")
    );
    let bad = Scenario::from_json(r#"{"faults":[{"at_ms":5,"crash":"next"}]}"#).unwrap_err();
    assert_eq!(bad.field, "faults[0].crash");
}

#[test]
fn a_waiting_fault_survives_time_travel() {
    // Checkpoints keep the waiting fault: going back and forth gives the
    // run a fresh one has.
    let json = r#"{"algorithm":"raft","nodes":5,"seed":3,"until_ms":3000,
        "faults":[{"at_ms":5,"crash":"leader-or-next"}]}"#;
    let s = Scenario::from_json(json).unwrap();
    let fresh = sim::run(&s);
    let mut session = election_core::session::Session::new(&s);
    session.seek(100_000);
    session.seek(2_500_000);
    session.seek(50_000);
    session.seek(3_000_000);
    assert_eq!(session.summary(), fresh);
}
