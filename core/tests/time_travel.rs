//! Landmarks: running to the next landmark stops right after a role
//! change, a change of leaders or a violation. (Checkpoints are
//! crate-internal and tested beside the engine, in
//! `core/tools/src/session/travel_tests.rs`; seeking through them is
//! `tests/session/`.)

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::sim::Simulation;
use election_core::trace::Event;
use election_core::travel::Landmark;
use election_core::{Scenario, algorithms};

/// The events of the current instant that the last step produced.
fn last_instant(sim: &dyn Simulation) -> Vec<&Event> {
    let now = sim.now_us();
    let trace = sim.trace();
    trace
        .iter()
        .rev()
        .take_while(|e| e.at_us == now)
        .map(|e| &e.event)
        .collect()
}

#[test]
fn landmarks_stop_right_after_role_and_leader_changes() {
    // Raft with nobody starting: the first landmark is a follower whose
    // election timeout fired becoming candidate, the next one a leader.
    let s =
        Scenario::from_json(r#"{"algorithm":"raft","nodes":5,"seed":4,"start":"none"}"#).unwrap();
    let mut sim = algorithms::build(&s, true);
    assert_eq!(
        sim.run_to_landmark(10_000_000, 1_000_000),
        Some(Landmark::Role)
    );
    let events = last_instant(sim.as_ref());
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::Role {
                role: Role::Candidate,
                ..
            }
        )),
        "{events:?}"
    );
    assert!(sim.leaders().is_empty());
    let mut found = Vec::new();
    while sim.leaders().is_empty() {
        found.push(sim.run_to_landmark(10_000_000, 1_000_000).unwrap());
    }
    assert_eq!(found.last(), Some(&Landmark::Leaders), "{found:?}");
    assert_eq!(sim.leaders().len(), 1);

    // Stepping from landmark to landmark is the same run.
    let mut straight = algorithms::build(&s, true);
    straight.run_until(2_000_000);
    while sim.run_to_landmark(2_000_000, 1_000_000).is_some() {}
    sim.run_until(2_000_000);
    assert_eq!(sim.summary(), straight.summary());
}

#[test]
fn a_split_brain_is_a_landmark() {
    let s = Scenario::from_json(
        r#"{"algorithm":"bully","nodes":6,"seed":3,
            "faults":[{"at_ms":1000,"partition":[[0,1,2]]}],"until_ms":5000}"#,
    )
    .unwrap();
    let mut sim = algorithms::build(&s, true);
    let mut found = Vec::new();
    while let Some(landmark) = sim.run_to_landmark(5_000_000, 1_000_000) {
        found.push(landmark);
        if landmark == Landmark::Violation {
            break;
        }
    }
    assert_eq!(found.last(), Some(&Landmark::Violation), "{found:?}");
    assert_eq!(sim.violations().len(), 1);
    assert!(
        last_instant(sim.as_ref())
            .iter()
            .any(|e| matches!(e, Event::Violation { .. }))
    );
}

#[test]
fn running_to_a_landmark_is_bounded() {
    let s = Scenario::from_json(r#"{"algorithm":"bully","nodes":6,"seed":3}"#).unwrap();
    let mut sim = algorithms::build(&s, true);
    sim.run_to_end();
    // Settled: heartbeats only, no landmark for a long time.
    let from = sim.now_us();
    assert_eq!(sim.run_to_landmark(from + 2_000_000, 1_000_000), None);
    assert!(sim.now_us() <= from + 2_000_000);
    let at = sim.metrics().events;
    assert_eq!(sim.run_to_landmark(u64::MAX, 10), None);
    assert!(sim.metrics().events <= at + 10);
}

#[test]
fn the_next_landmark_in_pieces_is_the_one_found_at_once() {
    use election_core::session::{LandmarkSearch, Session};
    let s = Scenario::from_json(
        r#"{"algorithm":"bully","nodes":6,"seed":3,
            "faults":[{"at_ms":1000,"partition":[[0,1,2]]}],"until_ms":5000}"#,
    )
    .unwrap();
    let mut whole = Session::new(&s);
    let mut pieces = Session::new(&s);
    loop {
        let at_once = whole.next_landmark();
        let mut calls = 0;
        let found = loop {
            calls += 1;
            match pieces.next_landmark_within(3) {
                LandmarkSearch::Found(kind) => break Some(kind),
                LandmarkSearch::NotYet => {}
                LandmarkSearch::None => break None,
            }
        };
        assert_eq!(found, at_once);
        assert_eq!(pieces.now_us(), whole.now_us());
        assert_eq!(pieces.summary(), whole.summary());
        if found.is_none() {
            assert!(calls > 1, "the quiet tail took pieces");
            break;
        }
    }
}
