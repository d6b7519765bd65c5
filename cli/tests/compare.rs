//! `election compare`: one row per algorithm, each the same numbers the
//! per-seed `run` reports.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};

#[test]
fn rows_match_individual_runs() {
    let file = scenario_file(
        "crash.json",
        br#"{"nodes": 8, "faults": [{"at_ms": 1000, "crash": "leader"}]}"#,
    );
    let report = ok_json(&[
        "compare",
        "--scenario",
        arg(&file),
        "--algorithms",
        "bully,chang-roberts",
        "--seeds",
        "1..5",
        "--json",
    ]);
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let algorithm = row["algorithm"].as_str().unwrap();
        assert_eq!(row["runs"], 5);
        let mut election = 0.0;
        let mut failover = 0.0;
        for seed in 1..=5 {
            let seed = seed.to_string();
            let r = ok_json(&[
                "run",
                "--scenario",
                arg(&file),
                "--algorithm",
                algorithm,
                "--seed",
                &seed,
                "--json",
            ]);
            election += r["messages"]["election"].as_f64().unwrap();
            // The crash at 1000 ms hits each run's leader: a failover.
            assert_eq!(r["leader_removed_ms"], 1000.0, "{algorithm} {seed}");
            failover += r["failover_election_messages"].as_f64().unwrap();
        }
        assert_eq!(
            row["election_messages"]["mean"].as_f64().unwrap(),
            election / 5.0,
            "{algorithm}"
        );
        assert_eq!(
            row["failover_election_messages"]["mean"].as_f64().unwrap(),
            failover / 5.0,
            "{algorithm}"
        );
        assert_eq!(row["violations"], 0, "{algorithm}");
    }
}

#[test]
fn a_crash_before_a_run_has_a_leader_is_no_failover() {
    // At 5 ms Bully (on 5 nodes, seed 3) leads already, Chang-Roberts and
    // Raft do not: the crash of "leader" is skipped in theirs, and their
    // first election is not a failover ("-" in the table, null in JSON),
    // as in the page's compare table.
    let file = scenario_file(
        "early.json",
        br#"{"nodes": 5, "seed": 3, "faults": [{"at_ms": 5, "crash": "leader"}]}"#,
    );
    let args = [
        "compare",
        "--scenario",
        arg(&file),
        "--algorithms",
        "bully,chang-roberts,raft",
    ];
    let report = ok_json(&[&args[..], &["--json"]].concat());
    let rows = report["rows"].as_array().unwrap();
    let failover: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r["failover_runs"].clone(),
                r["failover_election_messages"].clone(),
            )
        })
        .collect();
    assert_eq!(failover[1], (0.into(), serde_json::Value::Null));
    assert_eq!(failover[2], (0.into(), serde_json::Value::Null));
    assert_eq!(failover[0].0, 1);
    let bully = ok_json(&[
        "run",
        "--scenario",
        arg(&file),
        "--algorithm",
        "bully",
        "--json",
    ]);
    assert_eq!(
        rows[0]["failover_election_messages"]["mean"],
        bully["failover_election_messages"].as_f64().unwrap()
    );
    assert_eq!(rows[0]["recovery_ms"]["mean"], bully["failover_ms"]);
    let text = ok(&args);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in\n{text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // algorithm runs election p99 failover p99 bg/s 1st-leader recovery
    assert_eq!(&line("raft")[4..6], ["-", "-"]);
    assert_eq!(line("raft")[8], "-");
    assert_eq!(
        line("bully")[4],
        bully["failover_election_messages"].to_string()
    );
}

#[test]
fn theory_column_for_chang_roberts() {
    let r = ok_json(&[
        "compare",
        "--algorithms",
        "chang-roberts",
        "--nodes",
        "10",
        "--ring",
        "descending",
        "--json",
    ]);
    // n(n+1)/2 ELECTION + n ELECTED, and the run hits it exactly.
    assert_eq!(r["rows"][0]["theory"].as_f64().unwrap(), 65.0);
    assert_eq!(
        r["rows"][0]["election_messages"]["mean"].as_f64().unwrap(),
        65.0
    );
}

#[test]
fn table_and_csv_list_every_algorithm_by_default() {
    let text = ok(&["compare", "--nodes", "5"]);
    let csv = ok(&["compare", "--nodes", "5", "--csv"]);
    for id in ["bully", "chang-roberts"] {
        assert!(text.contains(id), "{text}");
        assert!(csv.lines().any(|l| l.starts_with(id)), "{csv}");
    }
}

#[test]
fn unknown_algorithm_is_refused_with_exit_code_2() {
    let out = election(&["compare", "--algorithms", "bully,paxos"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("paxos") && !err.contains("panicked"), "{err}");
}
