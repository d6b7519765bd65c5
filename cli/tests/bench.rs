//! `election bench`: the workloads it times (shared with the wasm bench)
//! run exactly the events their scenarios make, and a bad `--only` names
//! the flag and the workloads there are.

mod common;
use common::election;

#[test]
fn one_chang_roberts_election_of_1000_nodes_is_its_messages_plus_the_starts() {
    let out = election(&["bench", "--only", "cr1000", "--repeat", "1", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let workloads = report["workloads"].as_array().unwrap();
    assert_eq!(workloads.len(), 1);
    let w = &workloads[0];
    assert_eq!(w["id"], "cr1000");
    assert_eq!(w["nodes"], 1000);
    // n*H_n-ish ELECTION messages for this seed's random ring plus n
    // ELECTED; every message is one delivery event, plus 1000 starts.
    assert_eq!(w["messages"], 8166);
    assert_eq!(w["events"], 8166 + 1000);
}

#[test]
fn an_unknown_workload_is_named_with_the_ones_there_are() {
    let out = election(&["bench", "--only", "cr1000,nope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for word in ["--only", "'nope'", "cr1000-desc", "raft1000", "cr10000"] {
        assert!(stderr.contains(word), "{word:?} not in {stderr}");
    }
    assert!(out.stdout.is_empty());
}
