//! Memory stays bounded on long runs: a recording run keeps at most
//! `MAX_TRACE_EVENTS` trace events plus one `truncated` marker, while its
//! counters and trace hash still cover every event (the same hash as a
//! run that records nothing). (Time travel across the cap replays the same
//! history: `core/tools/src/session/travel_tests.rs`.)

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
