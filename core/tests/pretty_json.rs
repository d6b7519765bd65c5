//! The pretty JSON writer ([`election_core::to_string_pretty`]) writes
//! exactly what `serde_json::to_string_pretty` writes for the files the
//! page and the CLI export (its edge cases are tested beside it, in
//! `election-model`).

use election_core::{Scenario, algorithms, presets, sim, to_string_pretty};

fn same<T: serde::Serialize + ?Sized>(value: &T) {
    let want = serde_json::to_string_pretty(value).unwrap();
    assert_eq!(to_string_pretty(value).unwrap(), want);
}

/// Every preset's scenario, its run summary and its recorded trace:
/// the files the page and the CLI write.
#[test]
fn matches_serde_json_on_what_the_project_writes() {
    for p in presets::ALL {
        let scenario: Scenario = p.scenario().unwrap();
        same(&scenario.to_json());
        let mut run = algorithms::build(&scenario, true);
        run.run_to_end();
        same(&run.summary());
        same(run.trace());
        same(&sim::run(&scenario));
    }
}
