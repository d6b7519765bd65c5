//! Message counts against the published formulas.
//!
//! - Chang & Roberts (CACM 22(5), 1979): with every node starting, an
//!   ascending ring costs 2n - 1 ELECTION messages, a descending ring
//!   n(n + 1)/2, and a random ring n·H_n on average; the winner's ELECTED
//!   lap adds n.
//! - Garcia-Molina (IEEE Trans. Computers C-31(1), 1982), Bully: with the
//!   top node dead and node 0 detecting it, every node 0..n-2 runs one
//!   election: sum over i of (n - 1 - i) = n(n-1)/2 ELECTION, each
//!   node j in 1..n-2 answers the j lower nodes: (n-1)(n-2)/2 OK, and
//!   node n-2 announces to the n-2 nodes below it. Best case (node n-2
//!   detects): 1 ELECTION (to the dead node), no OK, n-2 COORDINATOR.

use election_core::ScenarioExt;
use election_core::{Scenario, sim};

fn run(json: &str) -> sim::RunSummary {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    sim::run(&scenario)
}

fn chang_roberts(n: u32, ring: &str, seed: u64) -> sim::RunSummary {
    run(&format!(
        r#"{{"algorithm":"chang-roberts","nodes":{n},"ring":"{ring}","start":"all","seed":{seed}}}"#
    ))
}

#[test]
fn chang_roberts_ascending_ring_costs_2n_minus_1() {
    for n in [1u32, 2, 3, 8, 50, 200] {
        let r = chang_roberts(n, "ascending", 1);
        assert_eq!(
            r.messages.by_kind["ELECTION"],
            u64::from(2 * n - 1),
            "n={n}"
        );
        assert_eq!(r.messages.by_kind["ELECTED"], u64::from(n), "n={n}");
        assert_eq!(r.leader, Some(n - 1), "n={n}");
        assert!(r.settled && r.violations.is_empty(), "n={n}: {r:?}");
    }
}

#[test]
fn chang_roberts_descending_ring_costs_n_n_plus_1_over_2() {
    for n in [2u32, 3, 8, 50, 200] {
        let r = chang_roberts(n, "descending", 1);
        assert_eq!(
            r.messages.by_kind["ELECTION"],
            u64::from(n * (n + 1) / 2),
            "n={n}"
        );
        assert_eq!(r.messages.by_kind["ELECTED"], u64::from(n), "n={n}");
        assert_eq!(r.leader, Some(n - 1), "n={n}");
    }
}

#[test]
fn chang_roberts_random_ring_averages_n_h_n() {
    let n = 32u32;
    let seeds = 1..=2000u64;
    let count = seeds.clone().count() as f64;
    let total: u64 = seeds
        .map(|seed| chang_roberts(n, "random", seed).messages.by_kind["ELECTION"])
        .sum();
    let mean = total as f64 / count;
    let harmonic: f64 = (1..=n).map(|k| 1.0 / f64::from(k)).sum();
    let expected = f64::from(n) * harmonic;
    let error = (mean - expected).abs() / expected;
    assert!(
        error < 0.02,
        "mean {mean:.2} vs n*H_n {expected:.2} ({:.2}% off) over seeds 1..=2000",
        error * 100.0
    );
}

fn bully_top_dead(n: u32, starter: u32) -> sim::RunSummary {
    run(&format!(
        r#"{{"algorithm":"bully","nodes":{n},"start":[{starter}],"faults":[{{"at_ms":0,"crash":{}}}]}}"#,
        n - 1
    ))
}

#[test]
fn bully_worst_case_lowest_node_detects() {
    for n in [3u64, 4, 8, 16, 40] {
        let r = bully_top_dead(n as u32, 0);
        assert_eq!(r.messages.by_kind["ELECTION"], n * (n - 1) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["OK"], (n - 1) * (n - 2) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["COORDINATOR"], n - 2, "n={n}");
        assert_eq!(r.leader, Some(n as u32 - 2), "n={n}");
        assert_eq!(
            r.elections,
            n - 1,
            "every live node ran exactly one election"
        );
    }
}

#[test]
fn bully_best_case_second_highest_detects() {
    for n in [3u64, 8, 40] {
        let r = bully_top_dead(n as u32, n as u32 - 2);
        assert_eq!(
            r.messages.by_kind["ELECTION"], 1,
            "n={n}: one ELECTION, to the dead top"
        );
        assert_eq!(r.messages.by_kind["OK"], 0, "n={n}");
        assert_eq!(r.messages.by_kind["COORDINATOR"], n - 2, "n={n}");
        assert_eq!(r.leader, Some(n as u32 - 2));
    }
}

#[test]
fn bully_recovered_top_node_takes_over() {
    let r = run(r#"{"algorithm":"bully","nodes":6,"start":"all",
            "faults":[{"at_ms":500,"crash":5},{"at_ms":1500,"recover":5}]}"#);
    assert_eq!(r.leader, Some(5));
    // n5 leads, n4 takes over after the crash, n5 takes over again.
    assert_eq!(r.leader_changes, 2);
    assert!(r.settled);
}

#[test]
fn classical_algorithms_split_brain_under_partition() {
    for alg in ["bully", "chang-roberts"] {
        let r = run(&format!(
            r#"{{"algorithm":"{alg}","nodes":8,"until_ms":3000,
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}}]}}"#
        ));
        assert_eq!(r.leaders, vec![2, 7], "{alg}: one leader per side");
        assert!(
            r.violations.iter().any(|v| v.property == "split_brain"),
            "{alg}: {:?}",
            r.violations
        );
        assert!(r.split_brain_ms > 0.0);
    }
}

#[test]
fn heal_after_partition_leaves_one_leader() {
    for alg in ["bully", "chang-roberts"] {
        let r = run(&format!(
            r#"{{"algorithm":"{alg}","nodes":8,
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}},{{"at_ms":2000,"heal":true}}]}}"#
        ));
        assert_eq!(r.leader, Some(7), "{alg}: {r:?}");
        assert!(r.settled, "{alg}");
    }
}

#[test]
fn crashed_leader_is_replaced() {
    for alg in ["bully", "chang-roberts"] {
        for seed in 1..=20 {
            let r = run(&format!(
                r#"{{"algorithm":"{alg}","nodes":8,"seed":{seed},"ring":"random",
                    "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
            ));
            assert_eq!(r.leader, Some(6), "{alg} seed {seed}: {r:?}");
            assert!(
                r.settled && r.violations.is_empty(),
                "{alg} seed {seed}: {r:?}"
            );
            assert_eq!(r.leader_changes, 1, "{alg} seed {seed}");
        }
    }
}

#[test]
fn ring_skips_a_dead_successor() {
    // n3 is dead from the start on an ascending ring: n2 must skip it.
    let r = run(
        r#"{"algorithm":"chang-roberts","nodes":6,"ring":"ascending","start":"all",
            "faults":[{"at_ms":0,"crash":3}]}"#,
    );
    assert_eq!(r.leader, Some(5));
    assert!(r.settled);
    assert!(r.messages.dropped > 0);
}

#[test]
fn bully_every_node_starting() {
    // Everyone starts at once: each node sends ELECTION to every higher id
    // (n(n-1)/2) and each receiver answers OK (n(n-1)/2); the top node has
    // no one to ask, wins at once and sends COORDINATOR to the n-1 others,
    // then answers each of the n-1 ELECTIONs it receives with OK and a
    // reminding COORDINATOR (module docs): (n+2)(n-1) messages in all, and
    // no second round, since every other node is already in its election.
    for n in [2u64, 3, 8, 64] {
        let r = run(&format!(
            r#"{{"algorithm":"bully","nodes":{n},"start":"all"}}"#
        ));
        assert_eq!(r.messages.by_kind["ELECTION"], n * (n - 1) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["OK"], n * (n - 1) / 2, "n={n}");
        assert_eq!(r.messages.by_kind["COORDINATOR"], 2 * (n - 1), "n={n}");
        assert_eq!(r.messages.election, (n + 2) * (n - 1), "n={n}");
        assert_eq!(r.elections, n, "n={n}");
    }
}
