//! The end of a run, as `election run` sees it: found on a side run that
//! does not move the session, in pieces of any size, cached, sought
//! anew after a live fault.

use crate::{scenario, session};
use election_core::session::Session;
use election_core::sim;
use election_core::time::to_ms;

#[test]
fn end_matches_the_cli_run() {
    let s = scenario(r#"{"algorithm":"chang-roberts","nodes":8,"seed":3,"ring":"descending"}"#);
    let mut p = Session::new(&s);
    let expected = sim::run(&s);
    assert_eq!(to_ms(p.end_us()), expected.end_ms);
    assert_eq!(p.now_us(), 0, "end_us must not move the session");
    assert_eq!(to_ms(p.run_to_end()), expected.end_ms);
    assert_eq!(p.sim().metrics().sent, expected.messages.sent);
    assert_eq!(p.summary(), expected);
}

#[test]
fn an_end_sought_in_pieces_is_the_cli_end() {
    // A burst, a pause that unsettles the cluster once it seemed
    // settled, a fixed end, and a run that needs one piece only.
    for json in [
        r#"{"algorithm":"bully","nodes":40,"seed":1,"start":"all"}"#,
        r#"{"algorithm":"raft","nodes":5,"seed":2,"faults":[{"at_ms":400,"pause":0,"for_ms":900}]}"#,
        r#"{"algorithm":"chang-roberts","nodes":8,"until_ms":700}"#,
        r#"{"algorithm":"lelann","nodes":3}"#,
    ] {
        let s = scenario(json);
        let expected = sim::run(&s).end_ms;
        for piece in [1, 7, 1000] {
            let mut p = Session::new(&s);
            let known = s.until_us;
            assert_eq!(p.end_us_within(0), known, "{json}: a read of what is known");
            assert!(!p.seeking_end(), "{json}: a read makes no side run");
            let mut calls = 0;
            let end = loop {
                calls += 1;
                if let Some(end) = p.end_us_within(piece) {
                    break end;
                }
            };
            assert_eq!(to_ms(end), expected, "{json} in pieces of {piece} events");
            assert_eq!(p.end_us_within(piece), Some(end), "cached: {json}");
            assert!(!p.seeking_end(), "the side run is dropped once done");
            assert_eq!(p.now_us(), 0, "seeking the end must not move the session");
            if piece == 1 && s.until_us.is_none() {
                assert!(calls > 10, "{json}: one event per piece took {calls} calls");
            }
        }
    }
}

#[test]
fn a_live_fault_restarts_the_search_for_the_end() {
    let s = scenario(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
    let mut p = Session::new(&s);
    assert_eq!(p.end_us_within(3), None, "not found in three events");
    assert!(p.seeking_end());
    p.inject_fault(r#"{"crash":5}"#).unwrap();
    assert!(!p.seeking_end(), "the old history's side run is dropped");
    let mut with_crash = s.clone();
    with_crash.faults = p.scenario().faults.clone();
    let expected = sim::run(&with_crash).end_ms;
    assert_eq!(
        to_ms(p.end_us()),
        expected,
        "the end of the history with the crash"
    );
}

#[test]
fn running_to_the_end_from_the_middle_is_the_cli_run() {
    let json = r#"{"algorithm":"raft","nodes":5,"seed":2,"faults":[{"at_ms":400,"pause":0,"for_ms":900}]}"#;
    let mut p = session(json);
    p.seek(300_000);
    let end = p.run_to_end();
    assert_eq!(p.summary(), sim::run(&scenario(json)));
    assert_eq!((p.now_us(), p.reached_us()), (end, end));
    assert!(p.timeline().len() > 1, "the way there got checkpoints");
}

#[test]
fn a_fresh_run_to_the_end_is_one_pass_and_the_cli_run() {
    // Every algorithm, with faults that unsettle a settled-looking
    // cluster (a pause) and a burst, and a run long enough to take
    // checkpoints: the one-pass run to the end of a fresh session gives
    // the CLI's end, summary and trace, and seeking back through the
    // checkpoints it took replays the same history.
    let mut cases: Vec<String> = election_core::algorithms::ids()
        .iter()
        .map(|id| format!(r#"{{"algorithm":"{id}","nodes":7,"seed":5,"faults":[{{"at_ms":300,"pause":2,"for_ms":700}}]}}"#))
        .collect();
    cases.push(r#"{"algorithm":"bully","nodes":60,"seed":1,"start":"all"}"#.into());
    cases.push(
        r#"{"algorithm":"chang-roberts","nodes":200,"ring":"descending","start":"all"}"#.into(),
    );
    for json in &cases {
        let s = scenario(json);
        let expected = sim::run(&s);
        let mut p = Session::new(&s);
        let end = p.run_to_end();
        assert_eq!(to_ms(end), expected.end_ms, "{json}");
        assert!(!p.seeking_end(), "{json}: no side run");
        assert_eq!(p.end_us_within(0), Some(end), "{json}: the end is known");
        assert_eq!(p.summary(), expected, "{json}");
        let hash = p.summary().trace_hash;
        if expected.events > 4 * election_core::session::FIRST_INTERVAL_EVENTS {
            assert!(p.timeline().len() > 2, "{json}: checkpoints on the way");
        }
        // Back to the middle and forward again, from a checkpoint.
        p.seek(end / 2);
        assert_eq!(p.now_us(), end / 2, "{json}");
        assert_eq!(p.run_to_end(), end, "{json}");
        assert_eq!(
            p.summary().trace_hash,
            hash,
            "{json}: replayed from a checkpoint"
        );
    }
}
