//! `election run`: reference message counts, overrides, determinism.

mod common;
use common::{arg, ok, ok_json, scenario_file};
use serde_json::Value;

const CR8: &str = r#"{"algorithm":"chang-roberts","nodes":8,"ring":"ascending","start":"all"}"#;

fn kind(v: &Value, k: &str) -> u64 {
    v["messages"]["by_kind"][k]
        .as_u64()
        .unwrap_or_else(|| panic!("no count for {k}: {v}"))
}

#[test]
fn chang_roberts_ascending_ring() {
    let f = scenario_file("cr8.json", CR8.as_bytes());
    let v = ok_json(&["run", "--scenario", arg(&f), "--json"]);
    assert_eq!(kind(&v, "ELECTION"), 15);
    assert_eq!(kind(&v, "ELECTED"), 8);
    assert_eq!(v["leader"], 7);
    assert_eq!(v["algorithm"], "chang-roberts");
    assert_eq!(v["nodes"], 8);
    for key in [
        "seed",
        "end_ms",
        "first_leader_ms",
        "elections",
        "leader_changes",
        "split_brain_ms",
        "leaderless_ms",
        "violations",
        "trace_hash",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    for key in ["sent", "delivered", "dropped", "election", "background"] {
        assert!(v["messages"][key].is_u64(), "missing messages.{key}: {v}");
    }
}

#[test]
fn flags_override_the_file() {
    let f = scenario_file("cr8.json", CR8.as_bytes());
    let v = ok_json(&["run", "--scenario", arg(&f), "--nodes", "5", "--json"]);
    assert_eq!(kind(&v, "ELECTION"), 9);
    assert_eq!(v["leader"], 4);
    let v = ok_json(&[
        "run",
        "--scenario",
        arg(&f),
        "--ring",
        "descending",
        "--json",
    ]);
    assert_eq!(kind(&v, "ELECTION"), 36);
    let v = ok_json(&["run", "--scenario", arg(&f), "--seed", "99", "--json"]);
    assert_eq!(v["seed"], 99);
}

#[test]
fn chang_roberts_descending_ring() {
    let f = scenario_file(
        "cr8d.json",
        br#"{"algorithm":"chang-roberts","nodes":8,"ring":"descending","start":"all"}"#,
    );
    let v = ok_json(&["run", "--scenario", arg(&f), "--json"]);
    assert_eq!(kind(&v, "ELECTION"), 36);
    assert_eq!(kind(&v, "ELECTED"), 8);
}

#[test]
fn bully_with_the_top_node_dead_and_the_lowest_starting() {
    let f = scenario_file(
        "bully.json",
        br#"{"algorithm":"bully","nodes":8,"start":[0],"faults":[{"at_ms":0,"crash":7}]}"#,
    );
    let v = ok_json(&["run", "--scenario", arg(&f), "--json"]);
    assert_eq!(kind(&v, "ELECTION"), 28);
    assert_eq!(kind(&v, "OK"), 21);
    assert_eq!(kind(&v, "COORDINATOR"), 6);
    assert_eq!(v["leader"], 6);
    // The second-highest node detects the crash: one ELECTION, no answer.
    let v = ok_json(&["run", "--scenario", arg(&f), "--start", "6", "--json"]);
    assert_eq!(kind(&v, "ELECTION"), 1);
}

#[test]
fn same_run_same_hash_other_seed_other_hash() {
    let f = scenario_file(
        "random.json",
        br#"{"algorithm":"chang-roberts","nodes":16,"ring":"random","start":"all"}"#,
    );
    let hash = |seed: &str| {
        ok_json(&["run", "--scenario", arg(&f), "--seed", seed, "--json"])["trace_hash"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(hash("1"), hash("1"));
    let hashes: std::collections::BTreeSet<String> =
        ["1", "2", "3", "4"].iter().map(|s| hash(s)).collect();
    assert!(hashes.len() > 1, "{hashes:?}");
}

#[test]
fn default_scenario_without_a_file() {
    let v = ok_json(&["run", "--json"]);
    assert_eq!(v["algorithm"], "bully");
    assert!(v["leader"].is_u64());
}

#[test]
fn readable_output_trace_and_link() {
    let f = scenario_file("cr8.json", CR8.as_bytes());
    let text = ok(&["run", "--scenario", arg(&f)]);
    assert!(
        text.contains("leader") && text.contains("ELECTION"),
        "{text}"
    );
    let text = ok(&["run", "--scenario", arg(&f), "--trace", "--link"]);
    assert!(text.contains("ELECTED"), "{text}");
    assert!(text.contains("#s=1."), "{text}");
    assert!(text.contains("?algorithm=chang-roberts&nodes=8"), "{text}");
    // The hash does not depend on whether the trace is kept.
    let a = ok_json(&["run", "--scenario", arg(&f), "--json"]);
    let b = ok_json(&["run", "--scenario", arg(&f), "--json", "--trace", "--link"]);
    assert_eq!(a["trace_hash"], b["trace_hash"]);
    assert!(b["trace"].as_array().is_some_and(|t| !t.is_empty()));
    assert!(b["link"]["fragment"].as_str().unwrap().starts_with("#s=1."));
}

#[test]
fn until_ms_stops_the_run() {
    let v = ok_json(&["run", "--until-ms", "2.5", "--json"]);
    assert_eq!(v["end_ms"], 2.5);
}

#[test]
fn network_and_fault_flags_reach_the_scenario() {
    // Bully, top node dead from the start via --fault, node 0 starting:
    // n(n-1)/2 ELECTION, (n-1)(n-2)/2 OK, n-2 COORDINATOR (Garcia-Molina 1982).
    let r = common::ok_json(&[
        "run",
        "--algorithm",
        "bully",
        "--nodes",
        "6",
        "--start",
        "0",
        "--fault",
        r#"{"at_ms":0,"crash":5}"#,
        "--json",
    ]);
    assert_eq!(r["messages"]["by_kind"]["ELECTION"], 15);
    assert_eq!(r["messages"]["by_kind"]["OK"], 10);
    assert_eq!(r["messages"]["by_kind"]["COORDINATOR"], 4);
    let lossy = common::ok_json(&[
        "run",
        "--drop",
        "0.2",
        "--duplicate",
        "0.2",
        "--latency-ms",
        "1-3",
        "--json",
    ]);
    assert!(lossy["messages"]["dropped"].as_u64().unwrap() > 0);
    assert!(lossy["messages"]["duplicated"].as_u64().unwrap() > 0);
    let bad = common::election(&["run", "--fault", r#"{"at_ms":1,"slow":2}"#]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("faults[0].extra_ms"));
}
