//! Candidate/ordinary election (Petrov, Database Internals, 2019, ch. 10,
//! after Murshed & Allen 2012): exact message counts next to their
//! formula, the delta collapse of simultaneous detections, partitions.
//!
//! Counting window: from the crash (the scenario's last fault) until the
//! cluster settles (the election cost of one failure:
//! core/engine/src/metrics.rs, module docs, `recovery`), split by kind. With C
//! the candidates, an election started by node i costs
//!   ELECTING: n - |C| - [i ordinary]   (every other ordinary node)
//!   QUERY:    |C| - [i candidate]      (every other candidate)
//!   ALIVE:    one per live candidate it queried
//! and the one election that is not overtaken adds n - 1 COORDINATOR.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::trace::Event;
use election_core::{Scenario, algorithms, sim};
use std::collections::BTreeMap;

struct Window {
    kind: BTreeMap<String, u64>,
    /// The `elections` metric over the window.
    elections: u64,
    /// Who started an election in the window, in order.
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
        elections: sim.metrics().elections - elections_before,
        starters,
        summary: sim.summary(),
    }
}

const CRASH_US: u64 = 1_000_000;

fn leader_crash(seed: u64) -> String {
    // n = 8: candidates n6, n7 (the default, highest quarter); n7 leads
    // after the initial election and crashes at 1000 ms.
    format!(
        r#"{{"algorithm":"candidate-ordinary","nodes":8,"seed":{seed},"start":"all",
            "faults":[{{"at_ms":1000,"crash":7}}]}}"#
    )
}

#[test]
fn one_crash_costs_what_the_formula_says() {
    let (n, c) = (8u64, 2u64);
    let live_candidates = [6u32];
    // Seed 1, measured: one election, by n5 (the highest ordinary node,
    // which waits one delta): 5 ELECTING + 2 QUERY + 1 ALIVE (n6; n7 is
    // dead) + 7 COORDINATOR(6) = 15 election messages.
    let json = leader_crash(1);
    let w = window(&json, CRASH_US);
    assert_eq!(w.starters, vec![5], "{json}");
    assert_eq!(
        [
            w.of("ELECTING"),
            w.of("QUERY"),
            w.of("ALIVE"),
            w.of("COORDINATOR")
        ],
        [5, 2, 1, 7],
        "{json}"
    );
    assert_eq!(w.summary.recovery_election_messages, Some(15), "{json}");

    println!("seed  initiators  ELECTING  QUERY  ALIVE  COORDINATOR  total  bound");
    for seed in 1..=20 {
        let json = leader_crash(seed);
        let w = window(&json, CRASH_US);
        let r = &w.summary;
        let is_candidate = |i: &u32| u64::from(*i >= 6);
        let electing: u64 = w
            .starters
            .iter()
            .map(|i| n - c - (1 - is_candidate(i)))
            .sum();
        let query: u64 = w.starters.iter().map(|i| c - is_candidate(i)).sum();
        let alive: u64 = w
            .starters
            .iter()
            .map(|i| live_candidates.iter().filter(|&&l| l != *i).count() as u64)
            .sum();
        let e = w.starters.len() as u64;
        // The bound of the brief: candidates x initiators plus the n - 1
        // notices per initiator and one announcement.
        let bound = e * (c + (n - 1)) + (n - 1);
        let total = r.recovery_election_messages.unwrap();
        println!(
            "{seed:>4}  {e:>10}  {:>8}  {:>5}  {:>5}  {:>11}  {total:>5}  {bound:>5}",
            w.of("ELECTING"),
            w.of("QUERY"),
            w.of("ALIVE"),
            w.of("COORDINATOR")
        );
        assert!(e >= 1, "seed {seed}\n{json}");
        assert_eq!(w.of("ELECTING"), electing, "seed {seed}\n{json}");
        assert_eq!(w.of("QUERY"), query, "seed {seed}\n{json}");
        assert_eq!(w.of("ALIVE"), alive, "seed {seed}\n{json}");
        assert_eq!(
            w.of("COORDINATOR"),
            n - 1,
            "seed {seed}: one announcement\n{json}"
        );
        assert_eq!(
            total,
            electing + query + alive + (n - 1),
            "seed {seed}\n{json}"
        );
        assert!(total <= bound, "seed {seed}\n{json}");
        assert_eq!(r.leader, Some(6), "seed {seed}\n{json}");
        assert!(
            r.settled && r.violations.is_empty(),
            "seed {seed}: {r:?}\n{json}"
        );
    }
}

/// n = 4, candidates n2 and n3, ordinary n0 and n1. Fixed latency and a
/// fixed failure timeout make n0, n1 (and the candidate n2) detect n3's
/// crash at the very same instant. Delays: n1 one delta, n0 two, n2 four
/// (after both ordinary nodes and the higher candidate n3).
fn simultaneous(delta_ms: u64) -> String {
    format!(
        r#"{{"algorithm":"candidate-ordinary","nodes":4,"candidates":[2,3],"start":"all",
            "network":{{"latency_ms":[10,10]}},
            "timing":{{"election_timeout_ms":[200,200],"delta_ms":{delta_ms}}},
            "faults":[{{"at_ms":1000,"crash":3}}]}}"#
    )
}

#[test]
fn simultaneous_detections_collapse_when_delta_exceeds_the_latency() {
    // delta 20 ms > latency 10 ms: n1 starts at T + 20; its ELECTING
    // reaches n0 at T + 30, before n0's delay ends at T + 40, and its QUERY
    // reaches n2 before T + 80. One election.
    let json = simultaneous(20);
    let w = window(&json, CRASH_US);
    println!("delta 20 ms: elections {:?}", w.starters);
    assert_eq!(w.elections, 1, "{json}");
    assert_eq!(w.starters, vec![1], "{json}");
    assert_eq!(w.summary.leader, Some(2), "{json}");
    assert_eq!(w.of("COORDINATOR"), 3, "{json}");

    // delta 6 ms < latency 10 ms: n1 starts at T + 6, n0 at T + 12, four
    // ms before n1's ELECTING arrives: two elections. n2 (T + 24) has heard
    // n1's QUERY at T + 16 and stays out. n0 yields to the higher n1 when
    // n1's ELECTING arrives, so n1 alone announces (3 COORDINATOR).
    // (Exactly two needs delta < latency <= 3 delta: with a smaller delta
    // n2 would start as well.)
    let json = simultaneous(6);
    let w = window(&json, CRASH_US);
    println!("delta 6 ms: elections {:?}", w.starters);
    assert_eq!(w.elections, 2, "{json}");
    assert_eq!(w.starters, vec![1, 0], "{json}");
    assert_eq!(
        w.summary.elections, 4,
        "2 at time 0 and 2 after the crash\n{json}"
    );
    assert_eq!(w.summary.leader, Some(2), "{json}");
    assert_eq!(w.of("COORDINATOR"), 3, "{json}");
    assert!(w.summary.violations.is_empty(), "{json}");
}

#[test]
fn a_candidate_runs_the_election_when_no_ordinary_node_does() {
    // Only candidate n2 is left to detect n3's crash: it waits its delay
    // (4 deltas), tells the dead ordinary nodes, queries the dead n3,
    // counts itself as the one answer and announces itself.
    let json = r#"{"algorithm":"candidate-ordinary","nodes":4,"candidates":[2,3],"start":"all",
        "faults":[{"at_ms":500,"crash":0},{"at_ms":500,"crash":1},{"at_ms":1000,"crash":3}]}"#;
    let w = window(json, CRASH_US);
    assert_eq!(w.starters, vec![2], "{json}");
    assert_eq!(w.summary.leader, Some(2), "{json}");
    assert_eq!(
        [
            w.of("ELECTING"),
            w.of("QUERY"),
            w.of("ALIVE"),
            w.of("COORDINATOR")
        ],
        [2, 1, 0, 3],
        "{json}"
    );
}

#[test]
fn with_no_candidate_alive_nobody_leads_and_the_ordinary_nodes_retry() {
    // Both candidates crash at 1000 ms: every election finds no candidate,
    // so the cluster stays leaderless, and the ordinary nodes keep trying.
    // n6 recovers at 3000 ms; the next attempt finds it and it leads.
    let json = r#"{"algorithm":"candidate-ordinary","nodes":8,"start":"all","until_ms":2900,
        "faults":[{"at_ms":1000,"crash":7},{"at_ms":1000,"crash":6}]}"#;
    let w = window(json, CRASH_US);
    assert!(w.summary.leaders.is_empty(), "{json}");
    assert!(w.starters.len() >= 3, "retries: {:?}\n{json}", w.starters);
    assert!(w.starters.iter().all(|&i| i < 6), "{json}");
    assert_eq!(w.of("ALIVE") + w.of("COORDINATOR"), 0, "{json}");

    let json = r#"{"algorithm":"candidate-ordinary","nodes":8,"start":"all",
        "faults":[{"at_ms":1000,"crash":7},{"at_ms":1000,"crash":6},{"at_ms":3000,"recover":6}]}"#;
    let r = run(json);
    assert_eq!(r.leader, Some(6), "{r:?}\n{json}");
    assert!(r.settled, "{json}");
}

#[test]
fn ordinary_nodes_never_lead() {
    for seed in 1..=10 {
        let json = format!(
            r#"{{"algorithm":"candidate-ordinary","nodes":9,"seed":{seed},"start":"none",
                "candidates":[2,5,8],"network":{{"latency_ms":[1,30],"drop":0.05}},
                "faults":[{{"at_ms":800,"crash":"leader"}},{{"at_ms":1200,"partition":[[0,1,2,3]]}},
                          {{"at_ms":2000,"heal":true}},{{"at_ms":2100,"crash":"leader"}},
                          {{"at_ms":2500,"pause":2,"for_ms":300}}],
                "until_ms":5000}}"#
        );
        let s = scenario(&json);
        let mut sim = algorithms::build(&s, true);
        sim.run_to_end();
        for e in sim.trace() {
            if let Event::Role {
                node,
                role: Role::Leader,
                ..
            } = e.event
            {
                assert!(
                    [2, 5, 8].contains(&node),
                    "seed {seed}: ordinary n{node} leads\n{json}"
                );
            }
        }
        let r = sim.summary();
        assert!(
            r.leader.is_some_and(|l| [2, 5, 8].contains(&l)),
            "seed {seed}: {r:?}\n{json}"
        );
    }
}

#[test]
fn a_crashed_leader_is_replaced() {
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"candidate-ordinary","nodes":12,"seed":{seed},"start":"none",
                "network":{{"latency_ms":[2,20]}},
                "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let r = run(&json);
        // Candidates n9, n10, n11: n11 leads first, then n10.
        assert_eq!(r.leader, Some(10), "seed {seed}: {r:?}\n{json}");
        assert!(
            r.settled && r.violations.is_empty(),
            "seed {seed}: {r:?}\n{json}"
        );
    }
}

#[test]
fn same_seed_same_trace() {
    let json = r#"{"algorithm":"candidate-ordinary","nodes":10,"seed":5,"start":"none",
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
fn a_side_with_a_candidate_elects_one_and_a_side_without_stays_leaderless() {
    // Each side has a candidate: the small side elects n6 (split brain,
    // the documented failure), the other keeps n7.
    let json = r#"{"algorithm":"candidate-ordinary","nodes":8,"until_ms":3000,
        "faults":[{"at_ms":1000,"partition":[[0,1,2,6],[3,4,5,7]]}]}"#;
    let r = run(json);
    assert_eq!(r.leaders, vec![6, 7], "{r:?}\n{json}");
    assert!(
        r.violations.iter().any(|v| v.property == "split_brain"),
        "{:?}\n{json}",
        r.violations
    );

    // The small side has no candidate: it elects nobody, however often it
    // tries, and none of its nodes believes in a leader.
    let json = r#"{"algorithm":"candidate-ordinary","nodes":8,"until_ms":3000,
        "faults":[{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}]}"#;
    let s = scenario(json);
    let mut sim = algorithms::build(&s, false);
    sim.run_to_end();
    let r = sim.summary();
    assert_eq!(r.leaders, vec![7], "{r:?}\n{json}");
    assert!(r.violations.is_empty(), "{json}");
    assert!(r.elections > 2, "the small side keeps trying\n{json}");
    for v in sim.node_views().iter().filter(|v| v.id < 3) {
        assert_eq!(v.leader, None, "n{} is leaderless\n{json}", v.id);
        assert_ne!(v.role, Role::Leader, "{json}");
    }

    // After the heal, one leader again.
    for groups in ["[[0,1,2,6],[3,4,5,7]]", "[[0,1,2],[3,4,5,6,7]]"] {
        let json = format!(
            r#"{{"algorithm":"candidate-ordinary","nodes":8,
                "faults":[{{"at_ms":1000,"partition":{groups}}},{{"at_ms":2000,"heal":true}}]}}"#
        );
        let r = run(&json);
        assert_eq!(r.leader, Some(7), "{r:?}\n{json}");
        assert!(r.settled, "{json}");
    }
}
