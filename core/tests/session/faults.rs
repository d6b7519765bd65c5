//! Live faults and forks: a fault injected now is the same as one
//! scheduled in the scenario; bad ones name the field and change nothing;
//! acting before the latest moment reached forks the history, dropping
//! the live faults after now and keeping the scenario's own.

use crate::{fresh, moment, scenario, session};
use election_core::scenario::{Fault, FaultAction, Target};
use election_core::session::Session;
use election_core::sim;
use election_core::time::{Micros, to_ms};

#[test]
fn a_live_fault_is_the_same_as_a_scheduled_one() {
    let mut p = session(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
    p.seek(12_345);
    p.inject_fault(r#"{"crash": 5}"#).unwrap();
    assert_eq!(p.now_us(), 12_345);
    assert_eq!(
        p.scenario().faults,
        vec![Fault {
            at_us: 12_345,
            action: FaultAction::Crash(Target::Node(5)),
        }]
    );
    // The fractional time survives the share link's JSON.
    let again = election_core::share::decode(&election_core::share::encode(p.scenario()));
    assert_eq!(&again.unwrap(), p.scenario());
    // And the run it describes ends as the CLI's would.
    let summary = sim::run(p.scenario());
    let end = p.run_to_end();
    assert_eq!(p.summary(), summary);
    assert_eq!(to_ms(end), summary.end_ms);
    assert_ne!(summary.leader, Some(5));
}

#[test]
fn a_fault_made_at_a_moment_keeps_that_moment() {
    // Issue 29: the page opens at 0 ms before any node has started.
    // Crashing n3 there rebuilt the run to every event of 0 ms, so the
    // same "0 ms" went from no leader and 0 messages to leader n7 and 31
    // messages. The moment stays the one acted on, plus the fault.
    let text = r#"{"algorithm":"bully","nodes":8,"seed":1}"#;
    let mut p = session(text);
    p.inject_fault(r#"{"crash": 3}"#).unwrap();
    assert_eq!(p.now_us(), 0);
    assert_eq!(p.sim().metrics().sent, 0, "no node has started yet");
    assert_eq!(p.sim().metrics().events, 1, "the crash alone");
    assert!(p.sim().leaders().is_empty());
    let alive: Vec<bool> = p.sim().node_views().iter().map(|v| v.alive).collect();
    assert_eq!(alive, [true, true, true, false, true, true, true, true]);
    // Played on, it is the run with n3 dead from the start.
    p.run_until(19_041);
    assert_eq!(moment(p.sim()), fresh(p.scenario(), 19_041));

    // Part way through an instant (two of the eight starts stepped), the
    // rest of it stays ahead.
    let mut q = session(text);
    assert!(q.step() && q.step());
    q.inject_fault(r#"{"crash": 5}"#).unwrap();
    assert_eq!((q.now_us(), q.sim().metrics().events), (0, 3));
    q.run_until(0);
    assert_eq!(moment(q.sim()), fresh(q.scenario(), 0));

    // After every event of its time, as before: the fresh run's moment,
    // with a leader and without one (the leaderless time counted to now),
    // and what the fault sets off at once (a flaky node's first crash).
    let mut r = session(text);
    r.seek(5_000);
    r.inject_fault(r#"{"crash": 7}"#).unwrap();
    assert_eq!(moment(r.sim()), fresh(r.scenario(), 5_000));
    let mut ring = session(r#"{"algorithm":"chang-roberts","nodes":6,"seed":3,"start":"all"}"#);
    ring.seek(20_000);
    assert!(ring.sim().leaders().is_empty());
    ring.inject_fault(r#"{"crash": 0}"#).unwrap();
    assert_eq!(moment(ring.sim()), fresh(ring.scenario(), 20_000));
    r.inject_fault(r#"{"flaky": 4, "period_ms": 400, "down_ms": 100, "for_ms": 1000}"#)
        .unwrap();
    assert!(
        !r.sim().node_views()[4].alive,
        "a flaky node goes down at once"
    );
    assert_eq!(moment(r.sim()), fresh(r.scenario(), 5_000));
}

#[test]
fn bad_faults_name_the_field_and_change_nothing() {
    let mut p = session(r#"{"nodes":4}"#);
    p.seek(5_000);
    let err = p.inject_fault(r#"{"crash": 9}"#).unwrap_err();
    assert!(err.field.starts_with("faults[0]"), "{err}");
    let err = p.inject_fault("[1]").unwrap_err();
    assert_eq!(err.field, "fault");
    assert_eq!(
        err.to_string(),
        "scenario field `fault`: must be an object such as {\"crash\": 3}"
    );
    assert_eq!(p.inject_fault("{").unwrap_err().field, "fault");
    assert_eq!(
        p.inject_fault(r#"{"at_ms": 1, "crash": 1}"#)
            .unwrap_err()
            .field,
        "fault.at_ms"
    );
    let err = p
        .inject_fault(r#"{"network": {"latency_ms": [5, 10], "drop": 2, "duplicate": 0}}"#)
        .unwrap_err();
    assert_eq!(err.field, "faults[0].network.drop", "{err}");
    assert!(p.scenario().faults.is_empty());
    assert_eq!(p.now_us(), 5_000);
    assert_eq!(p.fork(), None);
}

#[test]
fn cuts_come_from_the_engine_and_heal_clears_them() {
    let mut p = session(r#"{"algorithm":"bully","nodes":5}"#);
    p.seek(2_000);
    p.inject_fault(r#"{"cut": [4, 1]}"#).unwrap();
    p.inject_fault(r#"{"cut": [0, 2]}"#).unwrap();
    assert_eq!(p.sim().cuts(), vec![(0, 2), (4, 1)]);
    p.seek(3_000);
    p.inject_fault(r#"{"uncut": [0, 2]}"#).unwrap();
    assert_eq!(p.sim().cuts(), vec![(4, 1)]);
    // Before the cuts were made there were none.
    p.seek(1_000);
    assert!(p.sim().cuts().is_empty());
    p.seek(4_000);
    assert_eq!(p.sim().cuts(), vec![(4, 1)]);
    p.inject_fault(r#"{"heal": true}"#).unwrap();
    assert!(p.sim().cuts().is_empty());
}

#[test]
fn a_partitioned_bully_cluster_reports_split_brain() {
    let mut p = session(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
    p.run_to_end();
    assert_eq!(p.sim().leaders(), &[5]);
    p.inject_fault(r#"{"partition": [[0, 1, 2]]}"#).unwrap();
    p.seek(p.now_us() + 3_000_000);
    assert_eq!(p.sim().leaders(), &[2, 5]);
    let violations = p.sim().violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].property, "split_brain");
    p.inject_fault(r#"{"heal": true}"#).unwrap();
    p.seek(p.now_us() + 3_000_000);
    assert_eq!(p.sim().leaders(), &[5]);
}

#[test]
fn acting_in_the_past_forks_a_new_history() {
    let base = scenario(
        r#"{"algorithm":"bully","nodes":6,"seed":3,
            "faults":[{"at_ms":2500,"crash":1}],"until_ms":8000}"#,
    );
    let mut p = Session::new(&base);
    p.seek(1_000_000);
    p.inject_fault(r#"{"pause": 2, "for_ms": 100}"#).unwrap();
    assert_eq!(p.fork(), None, "at the latest moment: no fork");
    p.seek(3_000_000);
    p.inject_fault(r#"{"crash": 5}"#).unwrap();
    p.seek(4_000_000);
    p.inject_fault(r#"{"recover": 5}"#).unwrap();
    p.seek(6_000_000);
    assert_eq!(p.scenario().faults.len(), 4);

    // Back to 2 s and act: the two later live faults go, the
    // scenario's own fault (2.5 s) and the earlier live one stay.
    p.seek(2_000_000);
    assert_eq!(p.live_faults_ahead(), 2, "the ones acting now would drop");
    p.inject_fault(r#"{"crash": 4}"#).unwrap();
    let fork = p.fork().expect("forked");
    assert_eq!(fork.at_ms, 2000.0);
    assert_eq!(
        fork.dropped,
        vec![
            serde_json::json!({"at_ms": 3000, "crash": 5}),
            serde_json::json!({"at_ms": 4000, "recover": 5}),
        ]
    );
    let faults: Vec<Micros> = p.scenario().faults.iter().map(|f| f.at_us).collect();
    assert_eq!(faults, vec![2_500_000, 1_000_000, 2_000_000]);
    assert_eq!(p.reached_us(), 2_000_000, "the new future is unexplored");
    assert_eq!(moment(p.sim()), fresh(p.scenario(), 2_000_000));
    assert_eq!(p.live_faults_ahead(), 0);

    // The share link carries the new history.
    let shared = election_core::share::decode(&election_core::share::encode(p.scenario()));
    assert_eq!(&shared.unwrap(), p.scenario());

    // At the new latest moment, acting again does not fork.
    p.inject_fault(r#"{"recover": 4}"#).unwrap();
    assert_eq!(p.fork(), None);
    p.seek(5_000_000);
    assert_eq!(moment(p.sim()), fresh(p.scenario(), 5_000_000));
    // Going back before the scenario's own fault and acting keeps it.
    p.seek(500_000);
    p.inject_fault(r#"{"crash": 0}"#).unwrap();
    assert_eq!(p.fork().map(|f| f.dropped.len()), Some(3));
    let faults: Vec<Micros> = p.scenario().faults.iter().map(|f| f.at_us).collect();
    assert_eq!(faults, vec![2_500_000, 500_000]);
}
