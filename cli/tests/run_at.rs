//! `election run --at MS`: the run at one moment, through the core's
//! time-travel session, is exactly what a run stopped there reports
//! (`--until-ms MS`), and at the run's end exactly `election run`.

mod common;
use common::{election, ok, ok_json};

/// Raft under a leader crash and a partition that heals.
const FLAGS: &[&str] = &[
    "--algorithm",
    "raft",
    "--nodes",
    "5",
    "--seed",
    "7",
    "--fault",
    r#"{"at_ms":300,"crash":"leader"}"#,
    "--fault",
    r#"{"at_ms":600,"partition":[[0,1]]}"#,
    "--fault",
    r#"{"at_ms":900,"heal":true}"#,
];

fn with(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["run".to_string()];
    args.extend(FLAGS.iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn ok_json_of(args: &[String]) -> serde_json::Value {
    ok_json(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_moment_is_the_run_stopped_there() {
    for at in ["0", "0.001", "150", "333.333", "700", "2500"] {
        let moment = ok_json_of(&with(&["--at", at, "--json"]));
        let stopped = ok_json_of(&with(&["--until-ms", at, "--json"]));
        assert_eq!(moment, stopped, "--at {at}");
        let expected_ms: f64 = at.parse().unwrap();
        assert_eq!(
            moment["end_ms"], expected_ms,
            "--at {at}: reported at that time"
        );
    }
}

#[test]
fn the_moment_of_the_end_is_the_whole_run() {
    let whole = ok_json_of(&with(&["--json"]));
    let end = whole["end_ms"].as_f64().unwrap().to_string();
    let moment = ok_json_of(&with(&["--at", &end, "--json"]));
    assert_eq!(moment, whole);
    assert_eq!(moment["settled"], true);
}

#[test]
fn a_moment_keeps_the_trace_and_link() {
    let moment = ok_json_of(&with(&["--at", "400", "--trace", "--link", "--json"]));
    let stopped = ok_json_of(&with(&["--until-ms", "400", "--trace", "--json"]));
    assert_eq!(moment["trace"], stopped["trace"]);
    assert!(moment["trace"].as_array().unwrap().len() > 10);
    assert!(
        moment["link"]["fragment"]
            .as_str()
            .unwrap()
            .starts_with("#s=1.")
    );
}

#[test]
fn the_text_names_the_moment() {
    let text = ok(&[
        "run",
        "--algorithm",
        "bully",
        "--nodes",
        "4",
        "--at",
        "700.5",
    ]);
    assert!(text.contains("\nat               700.5 ms\n"), "{text}");
    assert!(!text.contains("ended at"), "{text}");
}

#[test]
fn bad_moments_are_named() {
    for (at, words) in [
        ("-1", &["--at", "from 0 to 86400000", "\"-1\""][..]),
        ("soon", &["--at", "\"soon\""][..]),
        ("86400001", &["--at", "86400001"][..]),
        ("60000.001", &["--at 60000.001", "horizon, 60000 ms"][..]),
    ] {
        let out = election(&["run", "--algorithm", "bully", "--at", at]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--at {at}: {stderr}");
        assert!(out.stdout.is_empty(), "--at {at}");
        for word in words {
            assert!(stderr.contains(word), "--at {at}: {word:?} not in {stderr}");
        }
    }
    // With until_ms the horizon is the scenario's end.
    let out = election(&["run", "--until-ms", "500", "--at", "501"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("horizon, 500 ms"), "{stderr}");
}
