//! Guided scenarios: every file under `scenarios/presets/` is a preset,
//! runs through `election run --scenario FILE --json`, and ends the way its
//! narration says it does.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};
use serde_json::Value;
use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .to_path_buf()
}

/// Names of the files in `scenarios/presets/`, sorted.
fn preset_files() -> Vec<String> {
    let dir = repo_root().join("scenarios").join("presets");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    names
}

fn run_file(name: &str) -> Value {
    let path = repo_root().join(format!("scenarios/presets/{name}.json"));
    ok_json(&["run", "--scenario", arg(&path), "--json"])
}

fn count(run: &Value, kind: &str) -> u64 {
    run["messages"]["by_kind"][kind]
        .as_u64()
        .unwrap_or_else(|| panic!("no {kind} count in {}", run["messages"]))
}

fn properties(run: &Value) -> Vec<&str> {
    run["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["property"].as_str().unwrap())
        .collect()
}

/// The theory column of `election compare` for a preset's scenario.
fn theory(name: &str, algorithm: &str) -> Value {
    let report = ok_json(&[
        "compare",
        "--preset",
        name,
        "--algorithms",
        algorithm,
        "--json",
    ]);
    report["rows"][0]["theory"].clone()
}

/// Checks what the narration of preset `name` promises about its run.
fn check_promises(name: &str, run: &Value) {
    let none: Vec<&str> = Vec::new();
    match name {
        "bully-partition" => {
            // Each side elects its own highest node; after the heal n5 wins.
            assert!(properties(run).contains(&"split_brain"), "{run}");
            let split = run["split_brain_ms"].as_f64().unwrap();
            assert!((1600.0..1800.0).contains(&split), "about 1.7 s: {split}");
            assert_eq!(run["leader"], 5);
        }
        "bully-flapping" => {
            // Four departures and four returns: eight leader changes, and
            // the top node leads at the end.
            assert_eq!(run["leader_changes"], 8, "{run}");
            assert_eq!(run["leader"], 5);
            assert!(
                properties(run)
                    .iter()
                    .all(|p| *p == "one_leader_per_component"),
                "only the brief overlap when n5 returns: {run}"
            );
        }
        "ring-dead-successor" => {
            // n4 wins; its ELECTION and its ELECTED each waited one reply
            // timeout at the dead n5 before skipping it.
            assert_eq!(run["leader"], 4);
            assert_eq!(properties(run), none);
            assert!(run["messages"]["dropped"].as_u64().unwrap() >= 2);
            assert!(run["recovery_ms"].as_f64().unwrap() > 2.0 * 50.0);
        }
        "chang-roberts-best" => {
            // 2n-1 ELECTION + n ELECTED, the published best case.
            let n = 8;
            assert_eq!(count(run, "ELECTION"), 2 * n - 1);
            assert_eq!(count(run, "ELECTED"), n);
            assert_eq!(run["messages"]["election"], 23);
            assert_eq!(theory(name, "chang-roberts"), 23.0);
            assert_eq!(run["leader"], 7);
        }
        "chang-roberts-worst" => {
            // n(n+1)/2 ELECTION + n ELECTED, the published worst case.
            let n = 8;
            assert_eq!(count(run, "ELECTION"), n * (n + 1) / 2);
            assert_eq!(count(run, "ELECTED"), n);
            assert_eq!(run["messages"]["election"], 44);
            assert_eq!(theory(name, "chang-roberts"), 44.0);
            assert_eq!(run["leader"], 7);
        }
        "raft-minority" => {
            // The minority {n3, n4} keeps electing and never wins; after the
            // heal one node of the majority side leads, with no violation.
            assert_eq!(properties(run), none, "{run}");
            assert_eq!(run["leaders"].as_array().unwrap().len(), 1);
            let leader = run["leader"].as_u64().unwrap();
            assert!([0, 1, 2].contains(&leader), "leader {leader}");
            assert!(run["elections"].as_u64().unwrap() >= 5, "{run}");
            assert!(run["leader_changes"].as_u64().unwrap() >= 1);
        }
        "raft-split-votes" => {
            // Many split terms before a leader; with 150-300 ms, one term.
            assert_eq!(properties(run), none);
            assert!(run["leader"].is_u64());
            assert!(run["elections"].as_u64().unwrap() > 100, "{run}");
            assert!(run["leaderless_ms"].as_f64().unwrap() > 10_000.0);
            let path = repo_root().join("scenarios/presets/raft-split-votes.json");
            let mut scenario: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            scenario["timing"]["election_timeout_ms"] = serde_json::json!([150, 300]);
            let file = scenario_file("wide.json", scenario.to_string().as_bytes());
            let wide = ok_json(&["run", "--scenario", arg(&file), "--json"]);
            assert!(wide["elections"].as_u64().unwrap() <= 3, "{wide}");
            assert!(wide["leaderless_ms"].as_f64().unwrap() < 1000.0);
        }
        "multi-paxos-duel" => {
            // Without backoff: no leader that lasts, ballots keep rising;
            // with backoff the same crash settles within a few ballots.
            assert_eq!(properties(run), none);
            assert!(run["recovery_ms"].is_null(), "{run}");
            assert!(run["leader"].is_null(), "{run}");
            assert!(run["elections"].as_u64().unwrap() > 500, "{run}");
            let path = repo_root().join("scenarios/presets/multi-paxos-duel.json");
            let mut scenario: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            scenario["backoff"] = serde_json::json!(true);
            let file = scenario_file("backoff.json", scenario.to_string().as_bytes());
            let cured = ok_json(&["run", "--scenario", arg(&file), "--json"]);
            assert!(cured["leader"].is_u64(), "{cured}");
            assert!(cured["recovery_ms"].as_f64().unwrap() < 300.0, "{cured}");
            assert!(cured["elections"].as_u64().unwrap() < 10, "{cured}");
        }
        "multi-paxos-master-lease" => {
            // A new master only after the old one's lease ran out: never
            // two masters, a short leaderless gap, one handover.
            assert_eq!(properties(run), none);
            assert!(run["leader"].is_u64(), "{run}");
            assert_eq!(run["leader_changes"], 1, "{run}");
            assert_eq!(run["split_brain_ms"].as_f64().unwrap(), 0.0, "{run}");
            assert!(run["leaderless_ms"].as_f64().unwrap() > 0.0, "{run}");
            assert!(run["first_leader_ms"].as_f64().unwrap() < 50.0, "{run}");
            assert!(run["recovery_ms"].as_f64().unwrap() > 950.0, "{run}");
        }
        "lease-drift" => {
            // The lease overlaps, but fencing lets no stale write in.
            assert!(properties(run).contains(&"lease_overlap"), "{run}");
            assert_eq!(run["writes"]["stale_accepted"], 0);
            assert!(run["writes"]["rejected"].as_u64().unwrap() >= 1);
        }
        "zookeeper-herd" => {
            // One failure wakes all n-1 watchers.
            let n = run["nodes"].as_u64().unwrap();
            assert_eq!(count(run, "WATCH_EVENT"), n - 1);
            assert_eq!(properties(run), none);
            assert!(run["leader"].is_u64());
        }
        "zookeeper-predecessor" => {
            // One failure wakes exactly one watcher.
            assert_eq!(count(run, "WATCH_EVENT"), 1);
            assert_eq!(properties(run), none);
            assert!(run["leader"].is_u64());
        }
        other => panic!("preset {other} has no checked promises: add them here"),
    }
}

#[test]
fn every_preset_file_keeps_its_promises() {
    let files = preset_files();
    assert!(files.len() >= 8, "{files:?}");
    for name in &files {
        let run = run_file(name);
        check_promises(name, &run);
    }
}

#[test]
fn the_list_matches_the_files_and_run_preset_matches_the_file() {
    let listed = ok_json(&["presets", "--json"]);
    let mut names: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap().to_string();
            assert_eq!(p["file"], format!("scenarios/presets/{name}.json"));
            assert!(!p["steps"].as_array().unwrap().is_empty());
            name
        })
        .collect();
    names.sort();
    assert_eq!(names, preset_files());

    let text = ok(&["presets"]);
    for name in &names {
        assert!(text.contains(name.as_str()), "{text}");
        let by_name = ok_json(&["run", "--preset", name, "--json"]);
        assert_eq!(
            by_name["trace_hash"],
            run_file(name)["trace_hash"],
            "--preset {name} runs the file's scenario"
        );
    }
}

#[test]
fn an_unknown_preset_is_refused_with_the_list() {
    let out = election(&["run", "--preset", "bully-partiton"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--preset"), "{err}");
    assert!(err.contains("bully-partition"), "{err}");
}
