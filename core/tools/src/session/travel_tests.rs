//! Checkpoints and the queue's spreading, tested beside the session, their
//! one user (both are the hidden `TimeTravel` side of a simulation): a
//! checkpoint restored and run on gives exactly the run that never
//! stopped (trace, hash and summary), for every algorithm under faults,
//! backward and forward, recording or not, across the trace's cap; a
//! checkpoint of another history is refused; spreading a burst ahead
//! between steps changes nothing.

use crate::ScenarioExt;
use crate::scenario::{RingOrder, StartSet};
use crate::sim::{RunSummary, Simulation};
use crate::time::Micros;
use crate::{Scenario, algorithms, sim};
use election_engine::engine::MAX_TRACE_EVENTS;

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
fn outcome(sim: &mut dyn Simulation) -> (String, String, RunSummary) {
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

#[test]
fn restoring_before_the_trace_cap_replays_the_same_capped_history() {
    // Chang-Roberts on a descending 800-node ring: 321,200 messages, each
    // a send and a delivery in the trace, so past the cap.
    let scenario = Scenario {
        algorithm: "chang-roberts".to_string(),
        nodes: 800,
        ring: RingOrder::Descending,
        start: StartSet::All,
        ..Scenario::default()
    };
    let mut sim = algorithms::build(&scenario, true);
    sim.run_until(1_000_000);
    let early = sim.checkpoint();
    assert!(
        early.trace_len() < MAX_TRACE_EVENTS,
        "checkpoint taken before the cap"
    );
    sim.run_to_end();
    let first: Vec<String> = sim.trace().iter().map(|e| e.event.describe()).collect();
    let hash = sim.trace_hash();
    assert!(sim.restore(&early));
    sim.run_to_end();
    let again: Vec<String> = sim.trace().iter().map(|e| e.event.describe()).collect();
    assert_eq!(again.len(), first.len());
    assert!(
        again == first,
        "replayed history differs from the first pass"
    );
    assert_eq!(sim.trace_hash(), hash);
}

#[test]
fn spreading_ahead_changes_nothing() {
    // A burst (every node of 300 starts a Bully election at once: big
    // buckets in the event queue), once straight through and once with
    // pieces of the queue's spreading done ahead of time between steps,
    // as the page does between slices: the same trace, hash and summary.
    for seed in 1..=3 {
        let s = Scenario::from_json(&format!(
            r#"{{"algorithm":"bully","nodes":300,"seed":{seed},"start":"all",
                "faults":[{{"at_ms":30,"crash":"leader"}}],"until_ms":200}}"#
        ))
        .unwrap();
        let mut straight = algorithms::build(&s, true);
        straight.run_to_end();
        let mut sliced = algorithms::build(&s, true);
        let mut moved = 0;
        let mut step = 0u64;
        while sliced.next_time_us().is_some_and(|t| t <= 200_000) {
            if step % 7 == 0 {
                moved += sliced.spread_ahead(1 + (step * 7919 % 20_000) as usize);
            }
            sliced.step();
            step += 1;
        }
        sliced.run_to_end();
        assert!(moved > 0, "seed {seed}: nothing was spread ahead");
        assert_eq!(sliced.trace_hash(), straight.trace_hash(), "seed {seed}");
        assert_eq!(sliced.summary(), straight.summary(), "seed {seed}");
        assert_eq!(sliced.summary(), sim::run(&s), "seed {seed}");
    }
}
