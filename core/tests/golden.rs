//! Golden traces: readable scenarios under `tests/golden/*.json` and the
//! plain-text trace each must produce (`*.txt` beside it).
//!
//! When a change alters a trace on purpose, regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p election-core --test golden` and review
//! the diff like code: it is the protocol, step by step.

use election_core::ScenarioExt;
use election_core::{Scenario, algorithms, trace};
use std::fs;
use std::path::Path;

#[test]
fn golden_traces_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("tests/golden exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    assert!(entries.len() >= 5, "golden scenarios missing");
    let mut failures = Vec::new();
    for path in entries {
        let text = fs::read_to_string(&path).unwrap();
        let scenario =
            Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut sim = algorithms::build(&scenario, true);
        sim.run_to_end();
        let summary = sim.summary();
        let mut got = trace::render_text(sim.trace());
        got.push_str(&format!(
            "-- end {} ms, leader {:?}, sent {}, trace hash {}\n",
            summary.end_ms, summary.leader, summary.messages.sent, summary.trace_hash
        ));
        let golden = path.with_extension("txt");
        if update {
            fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = fs::read_to_string(&golden).unwrap_or_default();
        if want != got {
            failures.push(format!(
                "{} differs from {} (rerun with UPDATE_GOLDEN=1 to accept)",
                path.display(),
                golden.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
