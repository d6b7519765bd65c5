//! `election tradeoffs`: one row per algorithm with the claimed and the
//! measured figures; JSON and Markdown; bad flags named.

mod common;
use common::{election, ok, ok_json};

/// Stderr of a run refused as bad input (exit code 2, no panic).
fn fails(args: &[&str]) -> String {
    let out = election(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

const SMALL: &[&str] = &[
    "tradeoffs",
    "--nodes",
    "4,8",
    "--seeds",
    "1..1",
    "--partition-schedules",
    "20",
];

#[test]
fn json_has_a_row_per_algorithm_with_links() {
    let mut args = SMALL.to_vec();
    args.push("--json");
    let v = ok_json(&args);
    let algorithms = ok_json(&["algorithms", "--json"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), algorithms.as_array().unwrap().len());
    assert_eq!(v["nodes"], serde_json::json!([4, 8]));
    for row in rows {
        let m = row["messages"].as_array().unwrap();
        assert_eq!(m.len(), 2, "{row}");
        assert!(m[0]["first_link"].as_str().unwrap().starts_with("?at="));
    }
    let cr = rows
        .iter()
        .find(|r| r["algorithm"] == "chang-roberts")
        .unwrap();
    // 2n - 1 ELECTION and n ELECTED on the ascending ring.
    assert_eq!(cr["messages"][0]["first"], 11.0);
    assert_eq!(cr["messages"][1]["first"], 23.0);
    assert_eq!(cr["first_growth"]["growth"], "n");
}

#[test]
fn markdown_is_the_default_text() {
    let text = ok(SMALL);
    assert!(text.contains("| algorithm | messages, claimed |"), "{text}");
    assert!(text.contains("| Bully | O(n^2) worst case |"), "{text}");
    let mut md = SMALL.to_vec();
    md.extend(["--markdown", "--link-base", "https://example.org/ep/"]);
    let linked = ok(&md);
    assert!(linked.contains("](https://example.org/ep/?at="), "{linked}");
}

#[test]
fn one_size_is_refused_naming_the_flag() {
    let err = fails(&["tradeoffs", "--nodes", "8"]);
    assert!(
        err.contains("--nodes") && err.contains("two different sizes"),
        "{err}"
    );
    let err = fails(&["tradeoffs", "--seeds", "1..500"]);
    assert!(err.contains("--seeds"), "{err}");
}
