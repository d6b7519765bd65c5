//! Hirschberg & Sinclair's bidirectional ring election (CACM 23(11),
//! 1980) against its O(n log n) message bound, and its documented
//! behaviour under faults.
//!
//! Bound: in phase k at most n/(2^(k-1) + 1) candidates are left, each
//! sending at most 4·2^k `PROBE`s and `REPLY`s, so fewer than
//! 8n(1 + ⌈log₂ n⌉) election messages in all (the paper's figure; Lynch,
//! *Distributed Algorithms*, section 3.4). We count the `ELECTED` lap in
//! too and still stay below it.

use election_core::ScenarioExt;
use election_core::{Scenario, sim};

fn run(json: &str) -> sim::RunSummary {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    sim::run(&scenario)
}

fn all_start(n: u64, ring: &str, seed: u64) -> (String, sim::RunSummary) {
    let json = format!(
        r#"{{"algorithm":"hirschberg-sinclair","nodes":{n},"ring":"{ring}","start":"all","seed":{seed}}}"#
    );
    let r = run(&json);
    (json, r)
}

fn ceil_log2(n: u64) -> u64 {
    u64::from(n.next_power_of_two().trailing_zeros())
}

/// PROBE + REPLY + ELECTED.
fn election_messages(r: &sim::RunSummary) -> u64 {
    let k = &r.messages.by_kind;
    k["PROBE"] + k["REPLY"] + k["ELECTED"]
}

#[test]
fn every_node_starting_stays_below_8n_times_1_plus_ceil_log2_n() {
    let sizes = [
        1u64, 2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 256, 512, 1000, 1024,
    ];
    for n in sizes {
        let bound = 8 * n * (1 + ceil_log2(n));
        let mut runs = vec![all_start(n, "ascending", 1), all_start(n, "descending", 1)];
        runs.extend((1..=3).map(|seed| all_start(n, "random", seed)));
        for (json, r) in runs {
            let measured = election_messages(&r);
            assert!(
                measured < bound,
                "measured {measured} PROBE+REPLY+ELECTED, bound 8n(1+ceil(log2 n)) = {bound}\n{json}\n{r:?}"
            );
            assert_eq!(r.messages.election, measured, "{json}: no other kind");
            assert_eq!(r.leader, Some(n as u32 - 1), "{json}");
            assert_eq!(r.messages.by_kind["ELECTED"], n, "{json}: one lap");
            assert_eq!(r.elections, n, "{json}: nobody starts twice");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

#[test]
fn sorted_rings_cost_exactly_what_the_phases_predict() {
    // On an ascending (or, mirrored, descending) ring only the top node
    // survives phase 0: every other node has its higher neighbour next to
    // it. Phase 0: 2n PROBE; each node answers the probes of its higher
    // neighbours: n REPLY (node 0 has two, node n-1 none, the rest one).
    // Phases 1..K-1 (K = ceil(log2 n), the first with 2^K >= n): the top
    // node's probes go 2^k out and the replies 2^k back, both ways:
    // 2·2^k PROBE and 2·2^k REPLY each, 2^(K+1) - 4 of each in all.
    // Phase K: both probes go all the way round, 2n PROBE, no REPLY.
    // Then n ELECTED. So PROBE = 4n + 2^(K+1) - 4, REPLY = n + 2^(K+1) - 4.
    for ring in ["ascending", "descending"] {
        for n in [2u64, 3, 4, 5, 7, 8, 16, 31, 64, 100, 1000] {
            let (json, r) = all_start(n, ring, 7);
            let k = ceil_log2(n);
            let probes = 4 * n + (1 << (k + 1)) - 4;
            let replies = n + (1 << (k + 1)) - 4;
            assert_eq!(r.messages.by_kind["PROBE"], probes, "{json}");
            assert_eq!(r.messages.by_kind["REPLY"], replies, "{json}");
            assert_eq!(r.messages.by_kind["ELECTED"], n, "{json}");
        }
    }
    // n = 1: the lone node's two probes come straight back; one ELECTED.
    let (json, r) = all_start(1, "ascending", 1);
    assert_eq!(r.messages.election, 3, "{json}");
}

#[test]
fn a_lone_initiator_wins_and_the_others_only_relay() {
    // Only n1 starts (and the failure-detection timeout is long, so nobody
    // else joins): non-initiators relay only (module docs), so n1's probes
    // are never swallowed. Phases 0..K-1 (K = ceil(log2 n)) cost 2·2^k
    // PROBE and 2·2^k REPLY each, 2^(K+1) - 2 of each in all; phase K goes
    // round both ways, 2n PROBE; then n ELECTED. The leader is n1, not the
    // highest id: the documented price of relay-only non-initiators.
    for n in [2u64, 5, 8, 13, 64] {
        let json = format!(
            r#"{{"algorithm":"hirschberg-sinclair","nodes":{n},"start":[1],"ring":"random",
                "timing":{{"election_timeout_ms":[5000,6000]}}}}"#
        );
        let r = run(&json);
        let k = ceil_log2(n);
        assert_eq!(
            r.messages.by_kind["PROBE"],
            (1 << (k + 1)) - 2 + 2 * n,
            "{json}"
        );
        assert_eq!(r.messages.by_kind["REPLY"], (1 << (k + 1)) - 2, "{json}");
        assert_eq!(r.messages.by_kind["ELECTED"], n, "{json}");
        assert_eq!(r.leader, Some(1), "{json}");
        assert_eq!(r.elections, 1, "{json}");
    }
}

#[test]
fn random_rings_grow_as_n_log_n() {
    // messages / (n log2 n) must stay in a constant band: an O(n^2)
    // algorithm's ratio would grow 64/5 = 12.8 times from n = 16 to 1024.
    let seeds = 1..=3u64;
    let mut rows = Vec::new();
    for n in [16u64, 64, 256, 1024] {
        let total: u64 = seeds
            .clone()
            .map(|seed| election_messages(&all_start(n, "random", seed).1))
            .sum();
        let mean = total as f64 / seeds.clone().count() as f64;
        let n_log_n = n as f64 * (n as f64).log2();
        rows.push((n, mean, n_log_n, mean / n_log_n));
    }
    println!("Hirschberg-Sinclair, every node starting, random rings (mean of seeds 1-3):");
    println!(
        "{:>6} {:>10} {:>10} {:>7} {:>12}",
        "n", "messages", "n*log2(n)", "ratio", "8n(1+⌈log n⌉)"
    );
    for &(n, mean, n_log_n, ratio) in &rows {
        println!(
            "{n:>6} {mean:>10.1} {n_log_n:>10.0} {ratio:>7.3} {:>12}",
            8 * n * (1 + ceil_log2(n))
        );
    }
    let first = rows[0].3;
    let last = rows[rows.len() - 1].3;
    assert!(
        last < 1.5 * first,
        "ratio for n=1024 ({last:.3}) is not below 1.5x the ratio for n=16 ({first:.3}): {rows:?}"
    );
}

#[test]
fn a_crashed_leader_is_replaced() {
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"hirschberg-sinclair","nodes":8,"seed":{seed},"ring":"random",
                "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let r = run(&json);
        // The nodes that notice first compete; the others only relay, so
        // the new leader is the highest of the starters (module docs).
        let leader = r.leader.unwrap_or_else(|| panic!("{json}\n{r:?}"));
        assert!(leader < 7, "{json}\n{r:?}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        assert_eq!(r.leader_changes, 1, "{json}");
    }
}

#[test]
fn a_dead_neighbour_is_skipped_both_ways() {
    for ring in ["ascending", "descending", "random"] {
        for dead in [0u32, 3, 7] {
            let json = format!(
                r#"{{"algorithm":"hirschberg-sinclair","nodes":8,"ring":"{ring}","start":"all",
                    "seed":4,"faults":[{{"at_ms":0,"crash":{dead}}}]}}"#
            );
            let r = run(&json);
            let top = if dead == 7 { 6 } else { 7 };
            assert_eq!(r.leader, Some(top), "{json}\n{r:?}");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
            assert!(r.messages.dropped > 0, "{json}: the dead node was tried");
            assert!(election_messages(&r) < 8 * 8 * 4, "{json}\n{r:?}");
        }
    }
}

#[test]
fn a_partition_gives_each_side_its_own_leader() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"hirschberg-sinclair","nodes":8,"seed":{seed},"until_ms":4000,
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}}]}}"#
        );
        let r = run(&json);
        // n7 keeps leading its side; the other side elects the highest of
        // its starters: the documented split brain.
        assert_eq!(r.leaders.len(), 2, "{json}\n{r:?}");
        assert!(r.leaders[0] <= 2 && r.leaders[1] == 7, "{json}\n{r:?}");
        assert!(
            r.violations.iter().any(|v| v.property == "split_brain"),
            "{json}\n{:?}",
            r.violations
        );
    }
}

#[test]
fn after_the_partition_heals_the_higher_leader_remains() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"hirschberg-sinclair","nodes":8,"seed":{seed},
                "faults":[{{"at_ms":1000,"partition":[[0,1,2],[3,4,5,6,7]]}},{{"at_ms":3000,"heal":true}}]}}"#
        );
        let r = run(&json);
        // The small side's leader hears n7's heartbeat and steps down.
        assert!(
            r.violations.iter().any(|v| v.property == "split_brain"),
            "{json}: the small side elected a leader before the heal"
        );
        assert_eq!(r.leader, Some(7), "{json}\n{r:?}");
        assert!(r.settled, "{json}");
    }
}

#[test]
fn same_seed_same_trace_hash() {
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"hirschberg-sinclair","nodes":12,"seed":{seed},"ring":"random",
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

#[test]
fn a_relay_back_with_its_leader_stops_swallowing_smaller_probes() {
    // `election fuzz-faults --algorithm hirschberg-sinclair --seeds
    // 16852..16852`. n0, alone in a partition, leads; after the heal n15
    // gives up its election on n0's `ELECTED`, but n5, which missed the
    // lap, is still a candidate (and higher than n0, so it does not follow
    // n0's heartbeats). n7 had relayed n15's probe and then heard its
    // leader n0 again: it went back to following n0 yet kept "seen n15",
    // so it swallowed n5's phase-1 probe every time n5 sent it again, and
    // n0's heartbeats kept n7's watchdog from ever firing. A relay that
    // follows its leader again forgets what it saw while relaying; n5's
    // probes go round and n5 takes over from the lower n0.
    let json = r#"{"algorithm":"hirschberg-sinclair","nodes":16,"ring":"ascending","seed":16852,"start":"none",
        "network":{"drop":0.02,"duplicate":0.02,"fifo":true,"latency_ms":[1,3]},
        "faults":[
            {"at_ms":166,"for_ms":62,"pause":5},
            {"at_ms":440,"partition":[[0]]},
            {"at_ms":810,"crash":10},
            {"at_ms":884,"clock":8,"drift":0.1,"offset_ms":133},
            {"at_ms":1226,"cut":[4,5]},
            {"at_ms":1412,"extra_ms":8,"slow":3},
            {"at_ms":1964,"extra_ms":29,"slow":8},
            {"at_ms":2964,"heal":true},
            {"at_ms":2964,"recover":0},{"at_ms":2964,"extra_ms":0,"slow":0},{"at_ms":2964,"recover":1},{"at_ms":2964,"extra_ms":0,"slow":1},
            {"at_ms":2964,"recover":2},{"at_ms":2964,"extra_ms":0,"slow":2},{"at_ms":2964,"recover":3},{"at_ms":2964,"extra_ms":0,"slow":3},
            {"at_ms":2964,"recover":4},{"at_ms":2964,"extra_ms":0,"slow":4},{"at_ms":2964,"recover":5},{"at_ms":2964,"extra_ms":0,"slow":5},
            {"at_ms":2964,"recover":6},{"at_ms":2964,"extra_ms":0,"slow":6},{"at_ms":2964,"recover":7},{"at_ms":2964,"extra_ms":0,"slow":7},
            {"at_ms":2964,"recover":8},{"at_ms":2964,"extra_ms":0,"slow":8},{"at_ms":2964,"recover":9},{"at_ms":2964,"extra_ms":0,"slow":9},
            {"at_ms":2964,"recover":10},{"at_ms":2964,"extra_ms":0,"slow":10},{"at_ms":2964,"recover":11},{"at_ms":2964,"extra_ms":0,"slow":11},
            {"at_ms":2964,"recover":12},{"at_ms":2964,"extra_ms":0,"slow":12},{"at_ms":2964,"recover":13},{"at_ms":2964,"extra_ms":0,"slow":13},
            {"at_ms":2964,"recover":14},{"at_ms":2964,"extra_ms":0,"slow":14},{"at_ms":2964,"recover":15},{"at_ms":2964,"extra_ms":0,"slow":15}
        ]}"#;
    let r = run(json);
    assert!(r.settled, "{r:?}");
    assert_eq!(r.leaders.len(), 1, "{r:?}");
    assert_eq!(r.leader, Some(5), "{r:?}");
    assert!(!r.truncated, "{r:?}");
}
