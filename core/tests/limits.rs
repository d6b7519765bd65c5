//! The limits of a run (core/engine/src/limits.rs): a run that reaches one
//! stops at that moment, says which and where, ends there whatever
//! `until_ms` says, stops at the same event recording or not, and stays
//! there when a session is asked to go further. Issue 31's D2: a run cut
//! off by a limit reported `until_ms` as its end.
#![cfg(feature = "script")]

use election_core::limits::{Limit, MAX_IN_FLIGHT};
use election_core::session::Session;
use election_core::{Scenario, ScenarioExt, algorithms};
use serde_json::json;

/// 24 nodes, each sending 4,000 broadcasts at time 0 (92,000 messages):
/// past the limit of messages in flight within the first instant.
fn flood(until_ms: Option<u64>) -> Scenario {
    let script = "fn on_start(ctx) { for i in 0..4000 { ctx.broadcast(#{kind: \"F\"}); } }\n\
                  fn on_message(ctx, from, msg) { }";
    let mut v = json!({"algorithm": "script", "nodes": 24, "script": script,
        "network": {"latency_ms": [5, 10]}});
    if let Some(u) = until_ms {
        v["until_ms"] = json!(u);
    }
    Scenario::from_value(&v).unwrap()
}

#[test]
fn a_run_stops_at_the_limit_of_messages_in_flight_and_ends_there() {
    let s = flood(Some(5000));
    let mut sim = algorithms::build(&s, false);
    let end = sim.run_to_end();
    let summary = sim.summary();
    let stop = summary.stopped_by.clone().expect("stopped by a limit");
    assert_eq!(stop.limit, Limit::MessagesInFlight);
    assert_eq!(stop.value, MAX_IN_FLIGHT);
    assert_eq!(stop.at_ms, 0.0);
    assert_eq!(stop.message, "2,097,152 messages in flight (the limit)");
    // Where it stopped, not until_ms.
    assert_eq!((end, summary.end_ms), (0, 0.0));
    assert!(summary.truncated);
    // Checked after the event that passed it: 22 nodes' broadcasts fit,
    // the 23rd's take it past.
    assert_eq!(summary.messages.in_flight, 23 * 4000 * 23);
    assert!(sim.next_time_us().is_none(), "nothing happens after it");
    assert!(!sim.step());
}

#[test]
fn recording_or_not_a_run_stops_at_the_same_event() {
    let s = flood(None);
    let counted = election_core::sim::run(&s);
    let mut recorded = algorithms::build(&s, true);
    recorded.run_to_end();
    let recorded = recorded.summary();
    assert_eq!(counted, recorded);
    assert_eq!(
        counted.stopped_by.map(|s| s.limit),
        Some(Limit::MessagesInFlight)
    );
}

#[test]
fn a_session_stays_where_the_run_stopped() {
    let s = flood(Some(86_400_000));
    let mut session = Session::new(&s);
    session.seek(3_000_000);
    assert_eq!(session.now_us(), 0, "a seek past the stop stays at it");
    assert_eq!(
        session.end_us(),
        0,
        "the end is where it stopped, not until_ms"
    );
    let summary = session.summary();
    assert_eq!(summary.end_ms, summary.stopped_by.unwrap().at_ms);
    // Back to the start and forward again: the same stop.
    session.seek(0);
    session.seek(10_000);
    assert_eq!(session.summary().stopped_by.map(|s| s.at_ms), Some(0.0));
}

#[test]
fn the_end_search_names_the_limit_that_stops_the_run_before_playback_is_there() {
    // The page labels the end "Stopped at X ms: <limit>" from the start.
    let s = flood(Some(86_400_000));
    let mut session = Session::new(&s);
    assert_eq!(session.end_stop(), None, "not known before the end is");
    assert_eq!(session.end_us(), 0);
    assert_eq!(session.now_us(), 0);
    assert!(
        session.summary().stopped_by.is_none(),
        "the session has not run"
    );
    let stop = session.end_stop().expect("the end search keeps the limit");
    assert_eq!(
        (stop.limit, stop.message.as_str()),
        (
            Limit::MessagesInFlight,
            "2,097,152 messages in flight (the limit)"
        )
    );
    // A run no limit stops has none.
    let calm = Scenario::from_value(&json!({"algorithm": "bully", "nodes": 4})).unwrap();
    let mut session = Session::new(&calm);
    session.end_us();
    assert_eq!(session.end_stop(), None);
}
