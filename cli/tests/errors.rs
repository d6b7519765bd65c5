//! Bad input: one clear message on stderr, exit code 2, never a panic.

mod common;
use common::{arg, election, scenario_file};

fn bad(args: &[&str], expect: &[&str]) {
    let out = election(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.trim().is_empty(), "{args:?}: empty stderr");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    for word in expect {
        assert!(stderr.contains(word), "{args:?}: {word:?} not in {stderr}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: printed output too");
}

#[test]
fn missing_file() {
    let dir = std::env::temp_dir().join("election-cli-test-surely-missing");
    let path = dir.join("nope.json");
    bad(&["run", "--scenario", arg(&path)], &["nope.json"]);
}

#[test]
fn invalid_json() {
    let f = scenario_file("broken.json", b"{\"nodes\": 8,");
    bad(&["run", "--scenario", arg(&f)], &["broken.json", "JSON"]);
}

#[test]
fn unknown_field_is_named() {
    let f = scenario_file("typo.json", br#"{"nodez": 8}"#);
    bad(&["run", "--scenario", arg(&f)], &["typo.json", "nodez"]);
}

#[test]
fn zero_nodes_in_file_and_flag() {
    let f = scenario_file("zero.json", br#"{"nodes": 0}"#);
    bad(&["run", "--scenario", arg(&f)], &["nodes"]);
    bad(&["run", "--nodes", "0"], &["nodes"]);
    bad(&["sweep", "--seeds", "1..3", "--nodes", "0"], &["nodes"]);
}

#[test]
fn bad_seed_ranges() {
    bad(&["sweep", "--seeds", "5..1"], &["5..1"]);
    bad(&["sweep", "--seeds", "x..3"], &["seeds"]);
    bad(&["sweep", "--seeds", "0..1000000"], &["1000000"]);
    bad(&["sweep"], &["--seeds"]);
}

#[test]
fn unknown_algorithm() {
    bad(&["run", "--algorithm", "paxos"], &["paxos", "algorithm"]);
    let f = scenario_file("paxos.json", br#"{"algorithm": "paxos"}"#);
    bad(
        &["sweep", "--scenario", arg(&f), "--seeds", "1"],
        &["paxos"],
    );
}

#[test]
fn bad_flag_values() {
    bad(&["run", "--ring", "sideways"], &["sideways"]);
    bad(&["run", "--start", "0,x"], &["start"]);
    bad(&["run", "--start", "9"], &["start", "9"]);
    bad(&["run", "--until-ms", "-1"], &["until-ms"]);
    bad(&["run", "--seed", "minus"], &["seed"]);
}

#[test]
fn override_that_breaks_a_fault_names_the_fault() {
    let f = scenario_file(
        "crash7.json",
        br#"{"nodes": 8, "faults": [{"at_ms": 0, "crash": 7}]}"#,
    );
    bad(
        &["run", "--scenario", arg(&f), "--nodes", "5"],
        &["faults[0]"],
    );
}

#[test]
fn oversized_file_is_refused() {
    let mut big = b"{\"nodes\": 8".to_vec();
    big.resize(64 * 1024 + 10, b' ');
    big.push(b'}');
    let f = scenario_file("big.json", &big);
    bad(&["run", "--scenario", arg(&f)], &["big.json", "limit"]);
}

#[test]
fn directory_and_non_utf8() {
    let f = scenario_file("x.json", b"{}");
    bad(
        &["run", "--scenario", arg(f.parent().unwrap())],
        &["directory"],
    );
    let f = scenario_file("latin1.json", b"{\"algorithm\": \"caf\xe9\"}");
    bad(&["run", "--scenario", arg(&f)], &["UTF-8"]);
}
