//! Scripted algorithms (docs/ARCHITECTURE.md, Scripted algorithms): the
//! templates equal the built-in algorithms they copy, exact counts; the
//! contract's names work; a failing handler stops the run with one error
//! naming node, handler, line and time; runs are deterministic.
#![cfg(feature = "script")]

use election_core::script::templates;
use election_core::sim::{self, RunSummary};
use election_core::{Scenario, algorithms};
use serde_json::{Value, json};

/// `fields` with the script `source`.
fn scripted(source: &str, fields: Value) -> Scenario {
    let mut v = fields;
    v["algorithm"] = json!("script");
    v["script"] = json!(source);
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{e}"))
}

fn template(id: &str) -> &'static str {
    templates::find(id).unwrap().source
}

fn builtin(algorithm: &str, fields: Value) -> RunSummary {
    let mut v = fields;
    v["algorithm"] = json!(algorithm);
    sim::run(&Scenario::from_value(&v).unwrap())
}

/// The message counts with the kinds never sent left out (a script's
/// kinds are those it sent; a built-in lists all its kinds).
fn counts(s: &RunSummary) -> String {
    let mut m = s.messages.clone();
    let sent: Vec<(String, u64)> = m
        .by_kind
        .iter()
        .filter(|(_, c)| **c > 0)
        .map(|(k, c)| (k.clone(), *c))
        .collect();
    m.by_kind = Default::default();
    format!("{m:?} {sent:?}")
}

fn kind(s: &RunSummary, k: &str) -> u64 {
    s.messages.by_kind.get(k).copied().unwrap_or(0)
}

#[test]
fn chang_roberts_template_gives_the_textbook_counts() {
    for n in [1u64, 2, 3, 5, 8, 13, 32] {
        for ring in ["ascending", "descending"] {
            let fields = json!({"nodes": n, "ring": ring, "start": "all"});
            let s = sim::run(&scripted(template("chang-roberts"), fields.clone()));
            let election = if ring == "ascending" {
                2 * n - 1
            } else {
                n * (n + 1) / 2
            };
            assert_eq!(kind(&s, "ELECTION"), election, "n={n} {ring}");
            assert_eq!(kind(&s, "ELECTED"), n, "n={n} {ring}");
            assert_eq!(s.leader, Some(n as u32 - 1));
            assert!(s.violations.is_empty() && s.settled && s.script_error.is_none());
            let b = builtin("chang-roberts", fields);
            assert_eq!(counts(&s), counts(&b), "n={n} {ring}");
            assert_eq!(
                (s.end_ms, s.elections, s.events),
                (b.end_ms, b.elections, b.events)
            );
        }
    }
}

#[test]
fn bully_template_counts_equal_the_builtin() {
    for fields in [
        json!({"nodes": 5, "start": "all"}),
        json!({"nodes": 8, "start": [0]}),
        json!({"nodes": 6, "start": [0], "faults": [{"at_ms": 600, "crash": "leader"}]}),
        json!({"nodes": 7, "start": "none", "seed": 4,
               "faults": [{"at_ms": 500, "crash": "leader"}, {"at_ms": 1500, "recover": 6}]}),
        json!({"nodes": 5, "start": "all", "seed": 9, "network": {"drop": 0.05},
               "faults": [{"at_ms": 400, "crash": "leader"}], "until_ms": 3000}),
    ] {
        let s = sim::run(&scripted(template("bully"), fields.clone()));
        let b = builtin("bully", fields.clone());
        assert!(s.script_error.is_none(), "{:?}", s.script_error);
        assert_eq!(counts(&s), counts(&b), "{fields}");
        assert_eq!(
            (s.leader, s.end_ms, s.elections, s.events, s.leader_changes),
            (b.leader, b.end_ms, b.elections, b.events, b.leader_changes),
            "{fields}"
        );
    }
}
