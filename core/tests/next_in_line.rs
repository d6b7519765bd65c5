//! Next-in-line failover (Petrov, Database Internals, 2019, ch. 10, after
//! Gholipour et al. 2009): exact message counts of one leader crash,
//! next to their formula, and the comparison with Bully on the same crash.
//!
//! Counting window: from the crash (the scenario's last fault) until the
//! cluster settles, i.e. the election cost of one failure
//! (core/engine/src/metrics.rs, module docs, `recovery`); it is what
//! `RunSummary::recovery_election_messages` reports, split here by kind.
//! "Detectors" are the nodes that started walking the line after the
//! crash (`elections` in the window).

use election_core::ScenarioExt;
use election_core::trace::Event;
use election_core::{Scenario, algorithms, sim};
use std::collections::BTreeMap;

/// What happened from `from_us` until the end of the run.
struct Window {
    /// Messages sent in the window, by kind.
    kind: BTreeMap<String, u64>,
    /// Elections started in the window (walks and fallback elections).
    elections: u64,
    /// Who started them, in order.
    starters: Vec<u32>,
    summary: sim::RunSummary,
}

impl Window {
    fn of(&self, kind: &str) -> u64 {
        self.kind[kind]
    }
}

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn run(json: &str) -> sim::RunSummary {
    sim::run(&scenario(json))
}

fn window(json: &str, from_us: u64) -> Window {
    let s = scenario(json);
    let mut sim = algorithms::build(&s, true);
    sim.run_until(from_us - 1);
    let before = sim.metrics().by_kind.clone();
    let elections_before = sim.metrics().elections;
    sim.run_to_end();
    let m = sim.metrics();
    let kind = m
        .kinds
        .iter()
        .zip(m.by_kind.iter().zip(&before))
        .map(|(k, (after, before))| (k.to_string(), after - before))
        .collect();
    let elections = m.elections - elections_before;
    let starters = sim
        .trace()
        .iter()
        .filter(|e| e.at_us >= from_us)
        .filter_map(|e| match e.event {
            Event::Election { node } => Some(node),
            _ => None,
        })
        .collect();
    Window {
        kind,
        elections,
        starters,
        summary: sim.summary(),
    }
}

fn leader_crash(algorithm: &str, seed: u64) -> String {
    format!(
        r#"{{"algorithm":"{algorithm}","nodes":8,"seed":{seed},"start":"all",
            "faults":[{{"at_ms":1000,"crash":7}}]}}"#
    )
}

const CRASH_US: u64 = 1_000_000;

#[test]
fn one_crash_costs_one_takeover_per_detector_and_one_announcement() {
    // n = 8, start all: the initial (Bully) election makes n7 leader with
    // the line n6, n5, ..., n0. n7 crashes at 1000 ms. Every detector asks
    // n6 (TAKEOVER), n6 answers each (CONFIRM) and announces itself once to
    // the n-1 = 7 others, n7 included:
    //   TAKEOVER = CONFIRM = detectors other than n6, <= D
    //   COORDINATOR = n - 1 = 7, ELECTION = OK = 0.
    // Seed 1, measured: 2 detectors (n0, n4), 2 TAKEOVER, 2 CONFIRM,
    // 7 COORDINATOR, 11 election messages in all.
    let json = leader_crash("next-in-line", 1);
    let w = window(&json, CRASH_US);
    assert_eq!(w.starters, vec![0, 4], "{json}");
    assert_eq!(w.of("TAKEOVER"), 2, "{json}");
    assert_eq!(w.of("CONFIRM"), 2, "{json}");
    assert_eq!(w.of("COORDINATOR"), 7, "{json}");
    assert_eq!(w.summary.recovery_election_messages, Some(11), "{json}");

    println!("seed  detectors  TAKEOVER  CONFIRM  COORDINATOR  election msgs");
    for seed in 1..=20 {
        let json = leader_crash("next-in-line", seed);
        let w = window(&json, CRASH_US);
        let r = &w.summary;
        let d = w.elections;
        let n6_detected = u64::from(w.starters.contains(&6));
        println!(
            "{seed:>4}  {d:>9}  {:>8}  {:>7}  {:>11}  {:>13}",
            w.of("TAKEOVER"),
            w.of("CONFIRM"),
            w.of("COORDINATOR"),
            r.recovery_election_messages.unwrap_or(0)
        );
        assert!(d >= 1, "seed {seed}: someone detects\n{json}");
        assert_eq!(w.of("TAKEOVER"), d - n6_detected, "seed {seed}\n{json}");
        assert_eq!(w.of("CONFIRM"), w.of("TAKEOVER"), "seed {seed}\n{json}");
        assert!(
            w.of("TAKEOVER") + w.of("CONFIRM") <= 2 * d,
            "seed {seed}\n{json}"
        );
        assert_eq!(
            w.of("COORDINATOR"),
            7,
            "seed {seed}: one announcement\n{json}"
        );
        assert_eq!(w.of("ELECTION") + w.of("OK"), 0, "seed {seed}\n{json}");
        assert_eq!(
            r.recovery_election_messages,
            Some(w.of("TAKEOVER") + w.of("CONFIRM") + 7),
            "seed {seed}\n{json}"
        );
        assert_eq!(r.leader, Some(6), "seed {seed}\n{json}");
        assert!(
            r.settled && r.violations.is_empty(),
            "seed {seed}: {r:?}\n{json}"
        );
        assert_eq!(r.leader_changes, 1, "seed {seed}");
    }
}

#[test]
fn bully_sends_more_for_the_same_crash() {
    // Same crash under Bully: every detector d sends ELECTION to each of
    // d+1..7, live receivers answer OK and start their own elections, and
    // n6 announces to the 6 nodes below it. Next-in-line replaces that
    // cascade by one TAKEOVER/CONFIRM pair per detector.
    // Seed 1, measured: Bully 55 election messages, next-in-line 11.
    let nil = window(&leader_crash("next-in-line", 1), CRASH_US).summary;
    let bully = window(&leader_crash("bully", 1), CRASH_US).summary;
    println!(
        "seed 1: bully {:?}, next-in-line {:?} election messages after the crash",
        bully.recovery_election_messages, nil.recovery_election_messages
    );
    assert_eq!(bully.recovery_election_messages, Some(55));
    assert_eq!(nil.recovery_election_messages, Some(11));

    let (mut total_bully, mut total_nil) = (0, 0);
    println!("seed  bully  next-in-line");
    for seed in 1..=20 {
        let b = run(&leader_crash("bully", seed));
        let n = run(&leader_crash("next-in-line", seed));
        let (b, n) = (
            b.recovery_election_messages.unwrap(),
            n.recovery_election_messages.unwrap(),
        );
        println!("{seed:>4}  {b:>5}  {n:>12}");
        assert!(b > n, "seed {seed}: bully {b}, next-in-line {n}");
        total_bully += b;
        total_nil += n;
    }
    println!("total over seeds 1..=20: bully {total_bully}, next-in-line {total_nil}");
    // Measured: bully 963, next-in-line 202.
    assert_eq!((total_bully, total_nil), (963, 202));
}

#[test]
fn a_dead_first_successor_is_skipped() {
    // n7 and n6 crash together: detectors ask n6 (no CONFIRM within the
    // reply timeout; the link layer reports it undeliverable at the same
    // moment), then n5, which takes over and announces to the 7 others
    // (n6 and n7 included). n5 itself may be a detector: it asks n6, then
    // finds itself next in line and takes over without asking anyone.
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"next-in-line","nodes":8,"seed":{seed},"start":"all",
                "faults":[{{"at_ms":1000,"crash":7}},{{"at_ms":1000,"crash":6}}]}}"#
        );
        let w = window(&json, CRASH_US);
        let r = &w.summary;
        assert_eq!(r.leader, Some(5), "seed {seed}\n{json}");
        assert!(
            r.settled && r.violations.is_empty(),
            "seed {seed}: {r:?}\n{json}"
        );
        // Every detector asks n6 first: at least one lost TAKEOVER each.
        assert!(w.of("TAKEOVER") >= w.elections, "seed {seed}\n{json}");
        assert!(w.of("CONFIRM") < w.of("TAKEOVER"), "seed {seed}\n{json}");
        assert_eq!(w.of("COORDINATOR"), 7, "seed {seed}\n{json}");
        assert_eq!(w.of("ELECTION"), 0, "seed {seed}: no fallback\n{json}");
    }
}

#[test]
fn an_exhausted_line_falls_back_to_the_bully_election() {
    // n = 5, leader n4 publishes n3, n2, n1, n0. n0 crashes at 300 ms and
    // n4 drops it from the line (its HEARTBEAT is reported undeliverable).
    // A one-way cut n0 -> n4 at 400 ms means that when n0 recovers at
    // 500 ms and hears n4's heartbeats, its JOIN never arrives: n0 stays
    // out of the line. n1 crashes at 600 ms; n4 drops it too, and its next
    // heartbeat carries the new line n3, n2 to everyone, n0 included. At
    // 1000 ms n4, n3 and n2 crash. n0 walks n3, n2 (2 TAKEOVER, no
    // CONFIRM), finds the line exhausted and runs a Bully election:
    // ELECTION to its 4 higher ids, no OK, so it leads and announces to
    // the n-1 = 4 others.
    let json = r#"{"algorithm":"next-in-line","nodes":5,"start":"all",
        "faults":[{"at_ms":300,"crash":0},{"at_ms":400,"cut":[0,4]},{"at_ms":500,"recover":0},
                  {"at_ms":600,"crash":1},
                  {"at_ms":1000,"crash":4},{"at_ms":1000,"crash":3},{"at_ms":1000,"crash":2}]}"#;
    let w = window(json, CRASH_US);
    assert_eq!(w.summary.leader, Some(0), "{json}");
    assert_eq!(
        w.starters,
        vec![0, 0],
        "one walk, then one election\n{json}"
    );
    assert_eq!(w.of("TAKEOVER"), 2, "{json}");
    assert_eq!(w.of("CONFIRM"), 0, "{json}");
    assert_eq!(w.of("ELECTION"), 4, "{json}");
    assert_eq!(w.of("OK"), 0, "{json}");
    assert_eq!(w.of("COORDINATOR"), 4, "{json}");
}

#[test]
fn the_initial_election_is_the_bully_fallback() {
    // Everyone starts with no line: the Bully election with every node
    // starting (see theory.rs, bully_every_node_starting): n(n-1)/2
    // ELECTION, n(n-1)/2 OK, and the top node's n-1 announcements plus
    // n-1 reminders to the callers, (n+2)(n-1) in all.
    for n in [2u64, 3, 8, 32] {
        let r = run(&format!(
            r#"{{"algorithm":"next-in-line","nodes":{n},"start":"all"}}"#
        ));
        assert_eq!(r.messages.by_kind["ELECTION"], n * (n - 1) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["OK"], n * (n - 1) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["COORDINATOR"], 2 * (n - 1), "n={n}");
        assert_eq!(r.messages.election, (n + 2) * (n - 1), "n={n}");
        assert_eq!(r.leader, Some(n as u32 - 1), "n={n}");
    }
    // Nobody starts: every node times out knowing no line and falls back.
    let r = run(r#"{"algorithm":"next-in-line","nodes":8,"start":"none"}"#);
    assert_eq!(r.leader, Some(7));
    assert!(r.settled && r.violations.is_empty(), "{r:?}");
}

#[test]
fn a_recovered_node_joins_the_line_without_an_election() {
    // n3 crashes and recovers; n7 dropped it from the line and takes it
    // back on its JOIN. No election, no leader change.
    let json = r#"{"algorithm":"next-in-line","nodes":8,"start":"all","until_ms":2000,
        "faults":[{"at_ms":500,"crash":3},{"at_ms":1000,"recover":3}]}"#;
    let s = scenario(json);
    let mut sim = algorithms::build(&s, false);
    sim.run_to_end();
    let r = sim.summary();
    assert_eq!(r.leader, Some(7), "{json}");
    assert_eq!(r.elections, 8, "only the initial election\n{json}");
    assert!(r.messages.by_kind["JOIN"] >= 1, "{json}");
    let line = sim
        .inspect(7)
        .into_iter()
        .find(|(k, _)| k == "line of succession")
        .map(|(_, v)| v);
    assert_eq!(
        line.as_deref(),
        Some("n6, n5, n4, n3, n2, n1, n0"),
        "{json}"
    );
}

#[test]
fn a_recovered_top_node_does_not_take_over() {
    // Bully's flapping top node: when n7 comes back it takes over again
    // (two leader changes). Here it joins n6's line as a follower.
    let run_with = |alg: &str| {
        run(&format!(
            r#"{{"algorithm":"{alg}","nodes":8,"start":"all",
                "faults":[{{"at_ms":1000,"crash":7}},{{"at_ms":2000,"recover":7}}]}}"#
        ))
    };
    let nil = run_with("next-in-line");
    assert_eq!(nil.leader, Some(6), "{nil:?}");
    assert_eq!(nil.leader_changes, 1);
    assert!(nil.settled && nil.violations.is_empty(), "{nil:?}");
    let bully = run_with("bully");
    assert_eq!(bully.leader, Some(7));
    assert_eq!(bully.leader_changes, 2);
}

#[test]
fn same_seed_same_trace() {
    let json = r#"{"algorithm":"next-in-line","nodes":10,"seed":5,"start":"none",
        "network":{"latency_ms":[1,25],"drop":0.05},
        "faults":[{"at_ms":800,"crash":"leader"},{"at_ms":1500,"partition":[[0,1,2,3]]},
                  {"at_ms":2500,"heal":true},{"at_ms":2600,"recover":9}],
        "until_ms":4000}"#;
    let a = run(json);
    let b = run(json);
    assert_eq!(a.trace_hash, b.trace_hash);
    assert_eq!(a, b);
}

#[test]
fn a_crashed_leader_is_replaced() {
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"next-in-line","nodes":8,"seed":{seed},"start":"none",
                "network":{{"latency_ms":[2,20]}},
                "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let r = run(&json);
        assert_eq!(r.leader, Some(6), "seed {seed}: {r:?}\n{json}");
        assert!(
            r.settled && r.violations.is_empty(),
            "seed {seed}: {r:?}\n{json}"
        );
    }
}

#[test]
fn a_partition_splits_the_brain_and_the_heal_mends_it() {
    // Each side walks the line to its own highest node: n2 on the small
    // side (split brain, the documented failure), n7 keeps the other.
    let json = r#"{"algorithm":"next-in-line","nodes":8,"until_ms":3000,
        "faults":[{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}]}"#;
    let r = run(json);
    assert_eq!(r.leaders, vec![2, 7], "{json}");
    assert!(
        r.violations.iter().any(|v| v.property == "split_brain"),
        "{:?}\n{json}",
        r.violations
    );
    // After the heal n2 hears n7's heartbeat and steps down; its side
    // follows n7 and joins n7's line again.
    let json = r#"{"algorithm":"next-in-line","nodes":8,
        "faults":[{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]},{"at_ms":2000,"heal":true}]}"#;
    let s = scenario(json);
    let mut sim = algorithms::build(&s, false);
    sim.run_to_end();
    let r = sim.summary();
    assert_eq!(r.leader, Some(7), "{r:?}\n{json}");
    assert!(r.settled, "{json}");
    // Settled means everyone follows n7; the JOINs that put the small side
    // back in line may still be on their way, so look a little later.
    sim.run_until(sim.now_us() + 200_000);
    let line = sim
        .inspect(7)
        .into_iter()
        .find(|(k, _)| k == "line of succession")
        .map(|(_, v)| v);
    assert_eq!(
        line.as_deref(),
        Some("n6, n5, n4, n3, n2, n1, n0"),
        "{json}"
    );
}
