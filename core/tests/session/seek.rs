//! Seeking: anywhere, backward and forward, in one piece or in slices,
//! shows exactly what a fresh run to that time shows; the checkpoints
//! that make it fast stay few, within their memory bound and close
//! together, and a crowded network is copied rarely.

use crate::{RAFT, fresh, moment, scenario, session, targets};
use election_core::algorithms;
use election_core::scenario::DEFAULT_RUN_LIMIT_US;
use election_core::session::{
    FIRST_INTERVAL_EVENTS, MAX_CHECKPOINT_BYTES, MAX_CHECKPOINTS, SMALL_COPY, Session,
};

#[test]
fn seeking_anywhere_shows_what_a_fresh_run_shows() {
    let s = scenario(RAFT);
    let mut p = Session::new(&s);
    p.seek(20_000_000);
    assert_eq!(p.reached_us(), 20_000_000);
    let mut times = targets(20_000_000, 25);
    times.extend([0, 1, 20_000_000, 19_999_999, 3_000_000]);
    for t in times {
        p.seek(t);
        assert_eq!(moment(p.sim()), fresh(&s, t), "at {t} us");
        // The log lines up to now are those of a fresh run.
        let mut again = algorithms::build(&s, true);
        again.run_until(t);
        assert_eq!(
            serde_json::to_string(p.sim().trace()).unwrap(),
            serde_json::to_string(again.trace()).unwrap(),
            "trace at {t} us"
        );
    }
    assert_eq!(p.reached_us(), 20_000_000, "seeking back keeps the history");
}

#[test]
fn seeking_stops_at_the_horizon() {
    let mut p = session(r#"{"nodes":4,"until_ms":2000}"#);
    p.seek(u64::MAX);
    assert_eq!(p.now_us(), 2_000_000);
    assert_eq!(p.horizon_us(), 2_000_000);
    let mut q = session(r#"{"nodes":4}"#);
    q.seek(86_400_000_000);
    assert_eq!(q.now_us(), DEFAULT_RUN_LIMIT_US);
    assert_eq!(q.horizon_us(), DEFAULT_RUN_LIMIT_US);
}

#[test]
fn seeking_back_replays_the_same_run() {
    let mut p = session(r#"{"algorithm":"chang-roberts","nodes":8,"ring":"random"}"#);
    let look = |p: &Session| {
        let sim = p.sim();
        (
            sim.metrics().sent,
            sim.trace().len(),
            format!("{:?}", sim.node_views()),
        )
    };
    p.seek(20_000);
    let at_20 = look(&p);
    p.seek(60_000);
    p.seek(20_000);
    assert_eq!(look(&p), at_20);
}

#[test]
fn checkpoints_stay_few_and_close_together() {
    let s = scenario(
        r#"{"algorithm":"bully","nodes":32,"seed":1,
            "faults":[{"at_ms":10000,"crash":"leader"},{"at_ms":30000,"crash":"leader"}],
            "until_ms":60000}"#,
    );
    let mut p = Session::new(&s);
    // Played in small steps, as frames do.
    let mut t = 0;
    while t < 60_000_000 {
        t += 16_000;
        p.seek(t);
    }
    let timeline = p.timeline();
    assert!(timeline.len() <= MAX_CHECKPOINTS, "{}", timeline.len());
    assert!(timeline.len() >= MAX_CHECKPOINTS / 2, "{}", timeline.len());
    assert!(
        timeline.bytes() <= MAX_CHECKPOINT_BYTES,
        "{}",
        timeline.bytes()
    );
    // Thinned: the intervals doubled at least once.
    assert!(
        timeline.interval_us() > 100_000,
        "{}",
        timeline.interval_us()
    );
    // A seek re-runs at most one interval (in time or in events).
    let events_total = p.sim().metrics().events;
    for t in targets(60_000_000, 200) {
        let (at, events) = timeline.checkpoint_before(t);
        assert!(
            t - at <= timeline.interval_us() || events_total - events <= timeline.interval_events(),
            "{t} us: nearest checkpoint at {at} us"
        );
    }
    p.seek(12_345_678);
    assert_eq!(moment(p.sim()), fresh(&s, 12_345_678));
}

/// Events of the 200-node burst by 40 ms (pinned from a run).
const EVENTS_AT_40MS: u64 = 40_398;

/// 200 Bully nodes all starting: about 20,000 ELECTION messages on the
/// wire at once, then as many OKs.
const BURST: &str = r#"{"algorithm":"bully","nodes":200,"seed":1,"start":"all"}"#;

#[test]
fn a_crowded_network_is_copied_rarely() {
    // A checkpoint (a copy of all of them) is taken only after sixteen
    // events per message on the wire (and per 32 pairs of nodes), not
    // every 5,000 events.
    let s = scenario(BURST);
    let mut p = Session::new(&s);
    let mut t = 0;
    let mut peak = 0;
    while t < 40_000 {
        t += 250;
        p.seek(t);
        peak = peak.max(p.sim().metrics().in_flight);
    }
    assert!(peak > SMALL_COPY, "{peak}");
    let events = p.sim().metrics().events;
    // One every 5,000 events would be 9 by now.
    assert_eq!((events, p.timeline().len()), (EVENTS_AT_40MS, 2));
    p.seek(17_500);
    assert_eq!(moment(p.sim()), fresh(&s, 17_500));
}

#[test]
fn a_stretch_run_in_pieces_is_the_same_run() {
    // The page spreads a burst over frames, a few thousand events at a
    // time; ahead of everything seen and again after going back.
    let s = scenario(BURST);
    let mut p = Session::new(&s);
    let mut calls = 0;
    while !p.run_until_within(40_000, 3_000) {
        calls += 1;
    }
    assert_eq!(p.now_us(), 40_000);
    assert_eq!(moment(p.sim()), fresh(&s, 40_000));
    // Pieces of 3,000 of work (events and the messages they sent), each
    // overshooting by at most one event's broadcast: more pieces than by
    // events alone.
    let m = p.sim().metrics();
    let work = m.events + m.sent;
    let nodes = u64::from(s.nodes);
    assert!(
        (work / (3_000 + nodes)..=work / 3_000).contains(&(calls as u64)),
        "{calls} pieces for {work} of work"
    );
    assert!(calls as u64 > EVENTS_AT_40MS / 3_000, "{calls}");
    p.seek(2_000);
    while !p.run_until_within(30_000, 3_000) {}
    assert_eq!(moment(p.sim()), fresh(&s, 30_000));
    // Behind now: nothing to run.
    assert!(p.run_until_within(10_000, 1));
    assert_eq!(p.now_us(), 30_000);
}

#[test]
fn event_dense_stretches_get_checkpoints_by_count() {
    // LeLann at 160 nodes on a fast network: 50,000 messages in a few
    // milliseconds, far more than one interval of events and well
    // inside one interval of time.
    let s = scenario(
        r#"{"algorithm":"lelann","nodes":160,"seed":2,
            "network":{"latency_ms":[0.01,0.02]}}"#,
    );
    let mut p = Session::new(&s);
    p.seek(20_000);
    let events = p.sim().metrics().events;
    assert!(events > 8 * FIRST_INTERVAL_EVENTS, "{events}");
    assert!(p.timeline().len() > 8, "{}", p.timeline().len());
    for t in [1_000, 2_345, 3_000, 0, 19_000] {
        p.seek(t);
        assert_eq!(moment(p.sim()), fresh(&s, t), "at {t} us");
    }
}

#[test]
fn stepping_moves_the_reached_time() {
    let mut p = session(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
    while p.now_us() == 0 {
        assert!(p.step());
    }
    assert_eq!(p.reached_us(), p.now_us());
    let at = p.now_us();
    p.seek(0);
    assert_eq!(p.reached_us(), at);
}
