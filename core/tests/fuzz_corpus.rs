//! Quick replay of the fuzzing corpora in `fuzz/corpus/` (see
//! `fuzz/README.md` for the long runs with cargo-fuzz): every stored input
//! goes through the scenario parser or the share-link decoder without a
//! panic, and what they accept round-trips.

use election_core::ScenarioExt;
use election_core::{Scenario, share};
use std::fs;
use std::path::Path;

fn inputs(name: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(name);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (p.display().to_string(), fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn scenario_corpus_replays() {
    let all = inputs("scenario_json");
    assert!(all.len() >= 10);
    for (name, bytes) in all {
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Ok(s) = Scenario::from_json(text) {
            assert_eq!(
                Scenario::from_value(&s.to_json()).as_ref(),
                Ok(&s),
                "{name}"
            );
        }
    }
}

#[test]
fn share_link_corpus_replays() {
    let all = inputs("share_link");
    assert!(all.len() >= 5);
    for (name, bytes) in all {
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Ok(s) = share::decode(text) {
            assert_eq!(share::decode(&share::encode(&s)).as_ref(), Ok(&s), "{name}");
        }
    }
}

#[test]
fn scenario_run_corpus_replays_within_the_limits() {
    // As fuzz/fuzz_targets/scenario_run.rs: a run on a small event budget
    // that stops at a limit says where, and nothing happens after it.
    let all = inputs("scenario_run");
    assert!(all.len() >= 10);
    // The interpreter checks a value's size by walking it: the script
    // nesting arrays 9,000 deep (P3) needs the stack of a main thread
    // (8 MB), not a test thread's 2 MB, in a debug build.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || replay_runs(all))
        .unwrap()
        .join()
        .unwrap();
}

fn replay_runs(all: Vec<(String, Vec<u8>)>) {
    for (name, bytes) in all {
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let Ok(s) = Scenario::from_json(text) else {
            continue;
        };
        // Scripts run a million interpreter operations a handler at worst,
        // minutes in a debug build: tests/hostile runs them (release).
        if s.algorithm == election_core::script::ALGORITHM {
            continue;
        }
        let mut sim = election_core::algorithms::build(&s, true);
        let end = sim.run_to_end_within(3_000);
        let summary = sim.summary();
        assert!(
            summary.messages.in_flight <= election_core::limits::MAX_IN_FLIGHT + 200_000,
            "{name}"
        );
        if let Some(stop) = &summary.stopped_by {
            assert!(summary.truncated, "{name}");
            if end.is_some() {
                assert_eq!(summary.end_ms, stop.at_ms, "{name}");
            }
            assert!(sim.next_time_us().is_none(), "{name}");
        }
    }
}
