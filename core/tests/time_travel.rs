//! Time travel: a checkpoint restored and run on gives exactly the run
//! that never stopped (trace, hash and summary), for every algorithm under
//! faults, backward and forward, recording or not; and running to the next
//! landmark stops right after a role change, a change of leaders or a
//! violation.

use election_core::protocol::Role;
use election_core::sim::Simulation;
use election_core::time::Micros;
use election_core::trace::Event;
use election_core::travel::Landmark;
use election_core::{Scenario, algorithms};

/// Faults of every kind that touch the election: a leader crash, a GC
/// pause, a partition and its heal, a crash and recovery, on a lossy
/// network that also duplicates.
const TEMPLATE: &str = r#"{"algorithm":"ALGO","nodes":7,"seed":SEED,
    "network":{"latency_ms":[2,12],"drop":0.02,"duplicate":0.02},
    "faults":[{"at_ms":300,"crash":"leader"},{"at_ms":600,"pause":2,"for_ms":200},
              {"at_ms":800,"partition":[[0,1,2]]},{"at_ms":1500,"heal":true},
              {"at_ms":1600,"crash":3},{"at_ms":1900,"recover":3}],
    "until_ms":3000}"#;

const END_US: Micros = 3_000_000;

fn scenario(algorithm: &str, seed: u64) -> Scenario {
    Scenario::from_json(
        &TEMPLATE
            .replace("ALGO", algorithm)
            .replace("SEED", &seed.to_string()),
    )
    .unwrap()
}

/// Trace text, hash and summary at `END_US`.
fn outcome(sim: &mut dyn Simulation) -> (String, String, election_core::sim::RunSummary) {
    sim.run_until(END_US);
    (
        serde_json::to_string(sim.trace()).unwrap(),
        format!("{:016x}", sim.trace_hash()),
        sim.summary(),
    )
}

#[test]
fn a_restored_checkpoint_replays_the_same_run() {
    for algorithm in algorithms::ids() {
        for seed in 1..=3 {
            let s = scenario(algorithm, seed);
            let straight = outcome(algorithms::build(&s, true).as_mut());
            let context = format!("{algorithm}, seed {seed}");

            let mut sim = algorithms::build(&s, true);
            let at_start = sim.checkpoint();
            sim.run_until(END_US / 3);
            let at_third = sim.checkpoint();
            // Inside an instant: events at this time may still be pending.
            for _ in 0..5 {
                sim.step();
            }
            let mid_instant = sim.checkpoint();
            sim.run_until(2 * END_US / 3);
            let at_two_thirds = sim.checkpoint();
            assert_eq!(
                outcome(sim.as_mut()),
                straight,
                "checkpointing changed {context}"
            );

            // Back, further back, forward past where the run is, ...
            for cp in [&mid_instant, &at_start, &at_two_thirds, &at_third] {
                assert!(sim.restore(cp), "{context}: restore at {}", cp.now_us());
                assert_eq!(sim.now_us(), cp.now_us(), "{context}");
                assert_eq!(sim.trace().len(), cp.trace_len(), "{context}");
                assert_eq!(sim.metrics().events, cp.events(), "{context}");
                assert_eq!(
                    outcome(sim.as_mut()),
                    straight,
                    "{context}: restored at {} us",
                    cp.now_us()
                );
            }
            // ... and forward from an earlier point of the same history.
            assert!(sim.restore(&at_third));
            assert!(
                sim.restore(&at_two_thirds),
                "{context}: the trace reaches it"
            );
            assert_eq!(outcome(sim.as_mut()), straight, "{context}");

            // Without a trace, the summary still matches.
            let mut quiet = algorithms::build(&s, false);
            quiet.run_until(END_US / 2);
            let half = quiet.checkpoint();
            quiet.run_until(END_US);
            assert!(quiet.restore(&half));
            quiet.run_until(END_US);
            assert_eq!(quiet.summary(), straight.2, "{context}, not recording");
        }
    }
}

#[test]
fn a_checkpoint_of_another_history_is_refused() {
    let s = scenario("raft", 1);
    let mut sim = algorithms::build(&s, true);
    sim.run_until(1_000_000);
    let cp = sim.checkpoint();
    let moment = (sim.now_us(), sim.trace_hash());

    // Another seed, another algorithm: another history.
    let mut other = algorithms::build(&scenario("raft", 2), true);
    assert!(!other.restore(&cp));
    let mut other = algorithms::build(&scenario("bully", 1), true);
    assert!(!other.restore(&cp));
    // Same scenario, but this run has not recorded that far.
    let mut fresh = algorithms::build(&s, true);
    assert!(!fresh.restore(&cp));
    assert_eq!(fresh.now_us(), 0, "a refused restore changes nothing");
    // Recording and non-recording copies do not mix.
    let mut quiet = algorithms::build(&s, false);
    assert!(!quiet.restore(&cp));

    sim.run_until(2_000_000);
    assert!(sim.restore(&cp));
    assert_eq!((sim.now_us(), sim.trace_hash()), moment);
}

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
