//! Memory stays bounded on long runs: a recording run keeps at most
//! `MAX_TRACE_EVENTS` trace events plus one `truncated` marker, while its
//! counters and trace hash still cover every event (the same hash as a
//! run that records nothing), and time travel across the cap replays the
//! same history.

use election_core::engine::MAX_TRACE_EVENTS;
use election_core::scenario::{RingOrder, Scenario, StartSet};
use election_core::trace::Event;
use election_core::{algorithms, sim};

/// Chang-Roberts on a descending 800-node ring: n(n+1)/2 + n = 321,200
/// messages, each a send and a delivery in the trace, so past the cap.
fn long_run() -> Scenario {
    Scenario {
        algorithm: "chang-roberts".to_string(),
        nodes: 800,
        ring: RingOrder::Descending,
        start: StartSet::All,
        ..Scenario::default()
    }
}

#[test]
fn the_trace_stops_at_the_cap_with_a_marker_and_the_hash_covers_everything() {
    let scenario = long_run();
    let mut recording = algorithms::build(&scenario, true);
    recording.run_to_end();
    let trace = recording.trace();
    assert_eq!(trace.len(), MAX_TRACE_EVENTS + 1);
    match &trace[MAX_TRACE_EVENTS].event {
        Event::Truncated { after } => assert_eq!(*after, MAX_TRACE_EVENTS as u64),
        other => panic!("last trace event is {other:?}, not the truncation marker"),
    }
    assert!(
        trace[..MAX_TRACE_EVENTS]
            .iter()
            .all(|e| !matches!(e.event, Event::Truncated { .. }))
    );
    // Not recording: the same run, the same counters and hash.
    let plain = sim::run(&scenario);
    let summary = recording.summary();
    assert_eq!(summary, plain);
    assert_eq!(plain.messages.by_kind["ELECTION"], 800 * 801 / 2);
    assert_eq!(plain.messages.by_kind["ELECTED"], 800);
}

#[test]
fn restoring_before_the_cap_replays_the_same_capped_history() {
    let scenario = long_run();
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
