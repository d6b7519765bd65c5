//! `election sweep`: counts, inclusive ranges, agreement with single runs.

mod common;
use common::{arg, ok, ok_json, scenario_file};

const RANDOM_RING: &[u8] =
    br#"{"algorithm":"chang-roberts","nodes":8,"ring":"random","start":"all"}"#;

#[test]
fn sweep_mean_equals_the_mean_of_single_runs() {
    let f = scenario_file("random.json", RANDOM_RING);
    let v = ok_json(&["sweep", "--scenario", arg(&f), "--seeds", "1..20", "--json"]);
    assert_eq!(v["runs"], 20);
    assert_eq!(v["seeds"]["from"], 1);
    assert_eq!(v["seeds"]["to"], 20);
    assert_eq!(v["algorithm"], "chang-roberts");
    assert_eq!(v["nodes"], 8);
    let sent: Vec<u64> = (1..=20)
        .map(|seed| {
            let s = seed.to_string();
            ok_json(&["run", "--scenario", arg(&f), "--seed", &s, "--json"])["messages"]["sent"]
                .as_u64()
                .unwrap()
        })
        .collect();
    let mean = sent.iter().sum::<u64>() as f64 / sent.len() as f64;
    assert_eq!(v["messages_sent"]["mean"].as_f64(), Some(mean));
    assert_eq!(
        v["messages_sent"]["min"].as_f64(),
        sent.iter().min().map(|&x| x as f64)
    );
    assert_eq!(
        v["messages_sent"]["max"].as_f64(),
        sent.iter().max().map(|&x| x as f64)
    );
    for key in [
        "election_messages",
        "first_leader_ms",
        "recovery_ms",
        "elections",
        "leaderless_ms",
        "split_brain_ms",
    ] {
        for stat in ["mean", "p50", "p99", "min", "max"] {
            assert!(v[key][stat].is_number(), "{key}.{stat}: {v}");
        }
    }
    assert_eq!(v["runs_without_leader"], 0);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["by_kind_mean"]["ELECTED"], 8.0);
}

#[test]
fn range_forms_and_thread_counts_agree() {
    let f = scenario_file("random.json", RANDOM_RING);
    let a = ok(&["sweep", "--scenario", arg(&f), "--seeds", "3..9", "--json"]);
    let b = ok(&[
        "sweep",
        "--scenario",
        arg(&f),
        "--seeds",
        "3..=9",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(a, b);
    let one = ok_json(&["sweep", "--scenario", arg(&f), "--seeds", "4", "--json"]);
    assert_eq!(one["runs"], 1);
}

#[test]
fn default_scenario_table_and_csv() {
    let text = ok(&["sweep", "--seeds", "1..5"]);
    for word in [
        "messages_sent",
        "election_messages",
        "first_leader_ms",
        "mean",
        "p99",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
    let csv = ok(&["sweep", "--seeds", "1..5", "--csv"]);
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(csv.starts_with("seed,"));
}
