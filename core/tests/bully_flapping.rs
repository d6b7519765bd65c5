//! Bully under a flapping top node (H. Garcia-Molina, "Elections in a
//! Distributed Computing System", IEEE Trans. Computers C-31(1), 1982):
//! the highest id always takes over when it comes back, so a top node that
//! crashes and recovers periodically forces two leadership handovers per
//! cycle, an election cascade each time it goes down, and leaderless time
//! each time until the next-highest node has noticed and won.
//!
//! The scenario: 8 nodes, seed 1, everything at default timing (latency
//! 5..=10 ms, heartbeat 50 ms, failure-detection timeout 150..=300 ms,
//! reply timeout 50 ms), n7 flaky from 1000 ms: down 600 ms in every
//! 1500 ms period for 4500 ms, run until 6000 ms. The engine crashes the
//! node at T + k·P for every k with k·P < F, so there are ceil(F / P) =
//! ceil(4500 / 1500) = 3 down periods: n7 is down 1000..1600, 2500..3100
//! and 4000..4600.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::trace::{Event, TraceEvent};
use election_core::{Scenario, algorithms, sim};

const FLAPPING: &str = r#"{"algorithm":"bully","nodes":8,"seed":1,"start":"all","until_ms":6000,
    "faults":[{"at_ms":1000,"flaky":7,"period_ms":1500,"down_ms":600,"for_ms":4500}]}"#;

/// The same run without the flaky top node.
const STEADY: &str = r#"{"algorithm":"bully","nodes":8,"seed":1,"start":"all","until_ms":6000}"#;

/// Start of each down period, its end (recovery), in ms.
const DOWN: [(u64, u64); 3] = [(1000, 1600), (2500, 3100), (4000, 4600)];

fn traced(json: &str) -> (sim::RunSummary, Vec<TraceEvent>) {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    let mut sim = algorithms::build(&scenario, true);
    sim.run_to_end();
    (sim.summary(), sim.trace().to_vec())
}

/// Who took the leader role, when (ms).
fn new_leaders(trace: &[TraceEvent]) -> Vec<(u32, f64)> {
    trace
        .iter()
        .filter_map(|e| match e.event {
            Event::Role {
                node,
                role: Role::Leader,
                ..
            } => Some((node, e.at_us as f64 / 1000.0)),
            _ => None,
        })
        .collect()
}

/// Elections started in `[from_ms, to_ms)`.
fn elections_between(trace: &[TraceEvent], from_ms: u64, to_ms: u64) -> usize {
    trace
        .iter()
        .filter(|e| {
            matches!(e.event, Event::Election { .. })
                && (from_ms * 1000..to_ms * 1000).contains(&e.at_us)
        })
        .count()
}

/// Time without a live leader in `[from_ms, to_ms)`, in ms, replayed from
/// role changes and crashes (a crash takes the role away with the node).
fn leaderless_between(trace: &[TraceEvent], from_ms: u64, to_ms: u64) -> f64 {
    let (from, to) = (from_ms * 1000, to_ms * 1000);
    let mut leaders: Vec<u32> = Vec::new();
    let mut since = 0u64;
    let mut total = 0u64;
    let clip = |a: u64, b: u64| b.min(to).saturating_sub(a.max(from));
    for e in trace {
        let was_empty = leaders.is_empty();
        match e.event {
            Event::Role { node, role, .. } => {
                leaders.retain(|&l| l != node);
                if role == Role::Leader {
                    leaders.push(node);
                }
            }
            Event::Crash { node } => leaders.retain(|&l| l != node),
            _ => continue,
        }
        if !was_empty && leaders.is_empty() {
            since = e.at_us;
        } else if was_empty && !leaders.is_empty() {
            total += clip(since, e.at_us);
        }
    }
    if leaders.is_empty() {
        total += clip(since, to);
    }
    total as f64 / 1000.0
}

/// When `node` left the leader role after `after_ms` (ms), if it did.
fn stepped_down(trace: &[TraceEvent], node: u32, after_ms: u64) -> Option<f64> {
    trace.iter().find_map(|e| match e.event {
        Event::Role { node: n, role, .. }
            if n == node && role != Role::Leader && e.at_us >= after_ms * 1000 =>
        {
            Some(e.at_us as f64 / 1000.0)
        }
        _ => None,
    })
}

/// Leadership changes hands twice per down period. The metric counts a
/// change each time a node other than the previous leader takes the leader
/// role. n7 leads from time 0 (the first leader is not a change); in each
/// down period the followers stop hearing heartbeats, the Bully cascade
/// elects the highest live node n6 (+1), and when n7 recovers it holds an
/// election, has no higher node to ask and takes over at once (+1). So
/// leader_changes = 2 x 3 = 6, provided each down period (600 ms) outlasts
/// detection plus election (at most 50 ms since the last heartbeat + 300 ms
/// timeout + the cascade's reply timeouts) and each up period (900 ms)
/// leaves time for n7's COORDINATOR to reach everyone.
#[test]
fn a_flapping_top_node_forces_two_handovers_and_an_election_cascade_per_cycle() {
    let (flap, trace) = traced(FLAPPING);
    let handovers = new_leaders(&trace);
    println!("{FLAPPING}\nnew leaders (node, ms): {handovers:?}");
    let expected: Vec<(u32, f64)> = vec![
        (7, 0.0),
        (6, 1265.67),
        (7, 1600.0),
        (6, 2739.675),
        (7, 3100.0),
        (6, 4192.281),
        (7, 4600.0),
    ];
    assert_eq!(handovers, expected, "{FLAPPING}");
    assert_eq!(flap.leader_changes, 2 * DOWN.len() as u64, "{FLAPPING}");
    assert_eq!(flap.leader, Some(7), "{FLAPPING}");

    // Per flapping cycle [down, next down): elections started (the cascade
    // after the crash, plus n7's one election on recovery) and the time
    // with no leader (from the crash until n6 wins).
    let mut per_cycle = Vec::new();
    for (i, &(down, _)) in DOWN.iter().enumerate() {
        let next = DOWN.get(i + 1).map_or(6000, |d| d.0);
        per_cycle.push((
            elections_between(&trace, down, next),
            leaderless_between(&trace, down, next),
        ));
    }
    println!("per cycle (elections, leaderless ms): {per_cycle:?}");
    assert_eq!(
        per_cycle,
        vec![(3, 265.67), (7, 239.675), (6, 192.281)],
        "{FLAPPING}"
    );
    // Each leaderless stretch is the crash until n6 takes over.
    for ((down, _), (_, leaderless)) in DOWN.iter().zip(&per_cycle) {
        let n6 = handovers
            .iter()
            .find(|&&(node, at)| node == 6 && at > *down as f64)
            .unwrap()
            .1;
        assert!((n6 - *down as f64 - leaderless).abs() < 1e-9, "{FLAPPING}");
    }

    // Whole run: the 8 elections of time 0 plus 3 + 7 + 6 = 16 of churn.
    assert_eq!(flap.elections, 24, "{FLAPPING}");
    assert_eq!(flap.leaderless_ms, 697.626, "265.67 + 239.675 + 192.281");
    let k = &flap.messages.by_kind;
    assert_eq!(
        (k["ELECTION"], k["OK"], k["COORDINATOR"], k["HEARTBEAT"]),
        (83, 70, 56, 721),
        "{FLAPPING}"
    );

    // On each recovery n7 leads at once while n6 still leads until n7's
    // COORDINATOR reaches it one latency (5..=10 ms) later: two leaders
    // that can reach each other, which the checker reports.
    let mut overlap = 0.0;
    for (_, up) in DOWN {
        let gone = stepped_down(&trace, 6, up).unwrap();
        assert!((5.0..=10.0).contains(&(gone - up as f64)), "{FLAPPING}");
        overlap += gone - up as f64;
    }
    assert!((flap.split_brain_ms - overlap).abs() < 1e-6, "{FLAPPING}");
    assert_eq!(flap.split_brain_ms, 18.85, "{FLAPPING}");
    let at: Vec<(f64, &str)> = flap
        .violations
        .iter()
        .map(|v| (v.at_ms, v.property.as_str()))
        .collect();
    assert_eq!(
        at,
        vec![
            (1600.0, "one_leader_per_component"),
            (3100.0, "one_leader_per_component"),
            (4600.0, "one_leader_per_component"),
        ],
        "{FLAPPING}"
    );
    println!(
        "flapping: {} elections, {} leader changes, {} ms leaderless, {} ms with two leaders, {:?}",
        flap.elections, flap.leader_changes, flap.leaderless_ms, flap.split_brain_ms, k
    );
}

/// The same run without the flaky node: the 8 elections of time 0 (every
/// node starts one), n7 leads from time 0 to the end, nothing else.
#[test]
fn without_flapping_there_is_no_churn() {
    let (steady, trace) = traced(STEADY);
    println!(
        "{STEADY}\nsteady: {} elections, {} leader changes, {} ms leaderless, {:?}",
        steady.elections, steady.leader_changes, steady.leaderless_ms, steady.messages.by_kind
    );
    assert_eq!(new_leaders(&trace), vec![(7, 0.0)], "{STEADY}");
    assert_eq!(steady.elections, 8, "{STEADY}");
    assert_eq!(elections_between(&trace, 1000, 6000), 0, "{STEADY}");
    assert_eq!(steady.leader_changes, 0, "{STEADY}");
    assert_eq!(steady.leaderless_ms, 0.0, "{STEADY}");
    assert_eq!(steady.split_brain_ms, 0.0, "{STEADY}");
    assert!(steady.violations.is_empty(), "{STEADY}");
    let k = &steady.messages.by_kind;
    assert_eq!(
        (k["ELECTION"], k["OK"], k["COORDINATOR"], k["HEARTBEAT"]),
        (28, 28, 14, 840),
        "{STEADY}"
    );
}

/// The handover pattern does not depend on the seed: whoever detects the
/// crash, n6 wins each down period and n7 takes over at the very moment it
/// recovers.
#[test]
fn every_recovery_hands_leadership_back_to_the_top_node_for_any_seed() {
    for seed in 1..=20 {
        let json = FLAPPING.replace(r#""seed":1"#, &format!(r#""seed":{seed}"#));
        let (r, trace) = traced(&json);
        let nodes: Vec<u32> = new_leaders(&trace).iter().map(|h| h.0).collect();
        assert_eq!(nodes, vec![7, 6, 7, 6, 7, 6, 7], "{json}");
        let back: Vec<f64> = new_leaders(&trace)
            .iter()
            .filter(|h| h.0 == 7 && h.1 > 0.0)
            .map(|h| h.1)
            .collect();
        assert_eq!(back, vec![1600.0, 3100.0, 4600.0], "{json}");
        assert_eq!(r.leader_changes, 6, "{json}");
        assert!(r.leaderless_ms > 0.0, "{json}");
    }
}
