//! `election landmarks`: every role change, change of leaders and
//! violation of a run up to its horizon, with the leaders after each;
//! the same scenario inputs as `election run`.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};
use serde_json::json;

/// Four Bully nodes, node 0 starting alone; the leader crashes at 1 s.
const BULLY: &str = r#"{"algorithm":"bully","nodes":4,"seed":3,"start":[0],
    "faults":[{"at_ms":1000,"crash":3}],"until_ms":2000}"#;

#[test]
fn a_bully_run_has_these_landmarks() {
    let f = scenario_file("bully4.json", BULLY.as_bytes());
    let text = ok(&["landmarks", "--scenario", arg(&f)]);
    assert_eq!(
        text,
        "\
12 landmarks of bully, 4 nodes, seed 3, up to 2000 ms

  at           landmark  leaders after
  0 ms         role      none
  6.605 ms     leaders   3
  7.268 ms     role      3
  8.515 ms     role      3
  12.186 ms    role      3
  12.31 ms     role      3
  14.844 ms    role      3
  1000 ms      leaders   none
  1119.337 ms  role      none
  1123.579 ms  role      none
  1135.394 ms  role      none
  1173.579 ms  leaders   2
"
    );
}

#[test]
fn the_json_lists_time_kind_and_leaders() {
    let f = scenario_file("bully4.json", BULLY.as_bytes());
    let v = ok_json(&["landmarks", "--scenario", arg(&f), "--json"]);
    assert_eq!(v["algorithm"], "bully");
    assert_eq!(
        (v["nodes"].clone(), v["seed"].clone()),
        (json!(4), json!(3))
    );
    assert_eq!(v["horizon_ms"], 2000.0);
    assert_eq!(v["truncated"], false);
    let list = v["landmarks"].as_array().unwrap();
    assert_eq!(list.len(), 12);
    assert_eq!(
        list[0],
        json!({"at_ms": 0.0, "kind": "role", "leaders": []})
    );
    assert_eq!(
        list[1],
        json!({"at_ms": 6.605, "kind": "leaders", "leaders": [3]})
    );
    assert_eq!(
        list[11],
        json!({"at_ms": 1173.579, "kind": "leaders", "leaders": [2]})
    );
}

#[test]
fn flags_override_the_file_as_for_run() {
    let f = scenario_file("bully4.json", BULLY.as_bytes());
    // Without the crash: the first seven landmarks only.
    let v = ok_json(&["landmarks", "--scenario", arg(&f), "--seed", "3", "--json"]);
    let shorter = ok_json(&[
        "landmarks",
        "--algorithm",
        "bully",
        "--nodes",
        "4",
        "--seed",
        "3",
        "--start",
        "0",
        "--until-ms",
        "2000",
        "--json",
    ]);
    let all = v["landmarks"].as_array().unwrap();
    assert_eq!(shorter["landmarks"].as_array().unwrap()[..], all[..7]);
}

#[test]
fn a_split_brain_is_a_violation_landmark() {
    let v = ok_json(&["landmarks", "--preset", "bully-partition", "--json"]);
    let list = v["landmarks"].as_array().unwrap();
    let violation = list
        .iter()
        .find(|l| l["kind"] == "violation")
        .unwrap_or_else(|| panic!("no violation in {list:?}"));
    assert!(
        violation["leaders"].as_array().unwrap().len() >= 2,
        "{violation}"
    );
}

#[test]
fn bad_inputs_are_named() {
    for (args, word) in [
        (&["landmarks", "--nodes", "0"][..], "nodes"),
        (&["landmarks", "--algorithm", "paxos"][..], "paxos"),
        (&["landmarks", "--seed", "x"][..], "--seed"),
        (&["landmarks", "--until-ms", "-5"][..], "--until-ms"),
        (&["landmarks", "--preset", "nope"][..], "--preset"),
    ] {
        let out = election(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(word), "{args:?}: {word:?} not in {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
