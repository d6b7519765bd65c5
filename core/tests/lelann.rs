//! LeLann's ring election, the "collect the live ids" variant (LeLann 1977;
//! Tanenbaum & van Steen, "A ring algorithm"), against its message counts
//! and its documented behaviour under faults.
//!
//! Counts: every initiator's `ELECTION` makes one full lap, gathering one id
//! per live node, and every initiator announces with one `COORDINATOR` lap.
//! With k initiators on a ring of n live nodes that is k·n of each; with
//! every node starting, n² `ELECTION` + n² `COORDINATOR`, whatever the ring
//! order.

use election_core::ScenarioExt;
use election_core::{Scenario, sim};

fn run(json: &str) -> sim::RunSummary {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    sim::run(&scenario)
}

#[test]
fn every_node_starting_costs_n_squared_of_each_kind() {
    for ring in ["ascending", "descending", "random"] {
        for n in [1u64, 2, 5, 8, 64] {
            let json = format!(
                r#"{{"algorithm":"lelann","nodes":{n},"ring":"{ring}","start":"all","seed":3}}"#
            );
            let r = run(&json);
            // n lists, each forwarded round all n nodes back to its
            // initiator: n·n ELECTION (LeLann 1977).
            assert_eq!(r.messages.by_kind["ELECTION"], n * n, "{json}\n{r:?}");
            // Each of the n initiators announces once round the ring
            // (Tanenbaum & van Steen's ring algorithm): n·n COORDINATOR.
            assert_eq!(r.messages.by_kind["COORDINATOR"], n * n, "{json}\n{r:?}");
            assert_eq!(r.messages.election, 2 * n * n, "{json}");
            assert_eq!(r.leader, Some(n as u32 - 1), "{json}");
            assert_eq!(r.elections, n, "{json}: one election per initiator");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

#[test]
fn one_initiator_costs_one_lap_of_each_kind() {
    for n in [2u64, 5, 16] {
        let json =
            format!(r#"{{"algorithm":"lelann","nodes":{n},"ring":"random","start":[0],"seed":5}}"#);
        let r = run(&json);
        // One list round the ring (n), one announcement round it (n).
        assert_eq!(r.messages.by_kind["ELECTION"], n, "{json}");
        assert_eq!(r.messages.by_kind["COORDINATOR"], n, "{json}");
        assert_eq!(r.leader, Some(n as u32 - 1), "{json}");
    }
}

#[test]
fn a_dead_node_is_skipped_and_left_off_every_list() {
    // Node 1 is down from the start; the n-1 live nodes all start. Each lap
    // reaches the n-1 live nodes and also tries the dead one once (counted
    // as sent, then dropped; the sender skips to the next node): n sends per
    // lap, (n-1)·n of each kind once every lap is over (hence `until_ms`:
    // a run that stops when it settles may end before the last laps, whose
    // skips wait for a reply timeout, have gone round). For n = 2 the lone
    // survivor's laps end at once: one send of each kind.
    for ring in ["ascending", "descending", "random"] {
        for n in [3u64, 5, 8, 16] {
            let json = format!(
                r#"{{"algorithm":"lelann","nodes":{n},"ring":"{ring}","start":"all","seed":2,
                    "until_ms":3000,"faults":[{{"at_ms":0,"crash":1}}]}}"#
            );
            let r = run(&json);
            assert_eq!(r.messages.by_kind["ELECTION"], (n - 1) * n, "{json}");
            assert_eq!(r.messages.by_kind["COORDINATOR"], (n - 1) * n, "{json}");
            assert_eq!(r.leader, Some(n as u32 - 1), "{json}");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

#[test]
fn a_crashed_leader_is_replaced_by_the_highest_live_id() {
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"lelann","nodes":8,"seed":{seed},"ring":"random",
                "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let r = run(&json);
        // The lists gather every live id, so the highest live id wins.
        assert_eq!(r.leader, Some(6), "{json}\n{r:?}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        assert_eq!(r.leader_changes, 1, "{json}");
    }
}

#[test]
fn a_partition_gives_each_side_its_own_leader() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"lelann","nodes":8,"seed":{seed},"until_ms":3000,
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}}]}}"#
        );
        let r = run(&json);
        // Each side's lists skip the unreachable nodes and elect that
        // side's maximum: the documented split brain.
        assert_eq!(r.leaders, vec![2, 7], "{json}\n{r:?}");
        assert!(
            r.violations.iter().any(|v| v.property == "split_brain"),
            "{json}\n{:?}",
            r.violations
        );
        assert!(r.split_brain_ms > 0.0, "{json}");
    }
}

#[test]
fn after_the_partition_heals_the_higher_leader_remains() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"lelann","nodes":8,"seed":{seed},
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}},{{"at_ms":2000,"heal":true}}]}}"#
        );
        let r = run(&json);
        // n2 hears n7's heartbeat and steps down; n0 and n1 move to n7.
        assert_eq!(r.leader, Some(7), "{json}\n{r:?}");
        assert!(r.settled, "{json}");
    }
}

#[test]
fn a_recovered_node_follows_the_leader_it_hears() {
    let json = r#"{"algorithm":"lelann","nodes":6,"start":"all",
        "faults":[{"at_ms":500,"crash":5},{"at_ms":1500,"recover":5}]}"#;
    let r = run(json);
    // n4 takes over when n5 dies; n5 comes back and follows n4.
    assert_eq!(r.leader, Some(4), "{json}\n{r:?}");
    assert_eq!(r.leader_changes, 1, "{json}");
    assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
}

#[test]
fn same_seed_same_trace_hash() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"lelann","nodes":12,"seed":{seed},"ring":"random",
                "network":{{"latency_ms":[2,20],"drop":0.02,"duplicate":0.02,"fifo":false}},
                "faults":[{{"at_ms":500,"crash":"leader"}},{{"at_ms":800,"crash":3}},
                          {{"at_ms":1200,"partition":[[0,1,2,3,4,5]]}},
                          {{"at_ms":2000,"heal":true}},{{"at_ms":2100,"recover":3}}],
                "until_ms":4000}}"#
        );
        let a = run(&json);
        let b = run(&json);
        assert_eq!(a.trace_hash, b.trace_hash, "{json}");
        assert_eq!(a, b, "{json}");
    }
}
