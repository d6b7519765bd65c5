//! Property tests of the engine over random scenarios (issue 7): for any
//! algorithm, cluster, network and fault schedule the engine never panics,
//! time never goes back, every sent message ends delivered, dropped or
//! still in flight, a run is the same whether or not it records its trace,
//! and every consensus-family algorithm keeps its safety properties unless
//! the scenario deliberately breaks one of their assumptions (fencing off:
//! stale writes are then reported, not a crash). A `lease_overlap` after a
//! clock fault or a pause is such a report too (a lease assumes bounded
//! drift and no pause longer than its margin), never a failure here.
//!
//! A failure shrinks to a small scenario and prints it as a scenario file.
//! More cases: `PROPTEST_CASES=2000 cargo test --release -p election-core
//! --test prop_engine` (scripts/test-extended.sh does this).

use election_core::ScenarioExt;
mod strategy;

use election_core::algorithms;
use election_core::protocol::Safety;
use election_core::{Scenario, sim};
use proptest::prelude::*;
use strategy::{Case, config, scenario};

/// Violations that are bugs for a consensus-family algorithm whatever the
/// faults (core/engine/src/checks.rs, module docs).
const CONSENSUS_BUGS: &[&str] = &[
    "one_leader_per_term",
    "terms_never_decrease",
    "one_vote_per_term",
];

/// Every property a run may report; anything else is a typo or a crash
/// dressed as a report.
const KNOWN_PROPERTIES: &[&str] = &[
    "one_leader_per_component",
    "split_brain",
    "one_leader_per_term",
    "terms_never_decrease",
    "one_vote_per_term",
    "stale_write_accepted",
    "lease_overlap",
];

fn check(case: &Case) -> Result<(), TestCaseError> {
    let scenario = Scenario::from_value(&case.0)
        .map_err(|e| TestCaseError::fail(format!("the strategy made an invalid scenario: {e}")))?;
    let until = scenario
        .until_us
        .expect("the strategy always sets until_ms");

    // Step by step with the trace recorded: the clock never goes back,
    // and the next activity (the page's quiet-time skipping) names the
    // time of the next event that counts, which bookkeeping never moves.
    let mut recorded = algorithms::build(&scenario, true);
    let mut before = recorded.now_us();
    while recorded.next_time_us().is_some_and(|t| t <= until) {
        prop_assert!(
            recorded.next_time_us() >= Some(before),
            "the next event is scheduled at {:?} us, before now ({before} us)",
            recorded.next_time_us()
        );
        let activity = recorded.next_activity_us();
        let events = recorded.metrics().events;
        recorded.step();
        prop_assert!(
            recorded.now_us() >= before,
            "time went back from {before} us to {} us",
            recorded.now_us()
        );
        if recorded.metrics().events == events {
            prop_assert_eq!(
                recorded.next_activity_us(),
                activity,
                "bookkeeping moved it"
            );
        } else {
            prop_assert_eq!(
                Some(recorded.now_us()),
                activity,
                "an event at another time"
            );
        }
        before = recorded.now_us();
    }
    prop_assert_eq!(recorded.run_to_end(), until);
    let trace = recorded.trace();
    if let Some(w) = trace.windows(2).find(|w| w[1].at_us < w[0].at_us) {
        return Err(TestCaseError::fail(format!(
            "the trace goes back in time: {} us {} then {} us {}",
            w[0].at_us,
            w[0].event.describe(),
            w[1].at_us,
            w[1].event.describe()
        )));
    }
    prop_assert!(trace.last().is_none_or(|e| e.at_us <= until));
    let s = recorded.summary();

    // The same run without recording is the same run.
    let plain = sim::run(&scenario);
    prop_assert_eq!(&plain, &s, "recording the trace changed the run");

    // The message books balance.
    let m = &s.messages;
    prop_assert_eq!(
        m.sent + m.duplicated,
        m.delivered + m.dropped + m.in_flight,
        "message books do not balance: {:?}",
        m
    );
    prop_assert_eq!(m.election + m.background, m.sent);
    prop_assert_eq!(m.by_kind.values().sum::<u64>(), m.sent);
    prop_assert!(!s.truncated, "a run of at most 8 s hit the event limit");

    // Violations are reports with a known name and a time inside the run.
    for v in &s.violations {
        prop_assert!(
            KNOWN_PROPERTIES.contains(&v.property.as_str()),
            "unknown property {:?}",
            v.property
        );
        prop_assert!(v.at_ms <= s.end_ms, "violation after the end: {:?}", v);
    }

    // Consensus safety, unless the scenario switched fencing off.
    if algorithms::safety(&scenario.algorithm) == Some(Safety::Consensus) {
        let bugs: Vec<_> = s
            .violations
            .iter()
            .filter(|v| {
                CONSENSUS_BUGS.contains(&v.property.as_str())
                    || (v.property == "stale_write_accepted" && scenario.options.fencing)
            })
            .collect();
        prop_assert!(bugs.is_empty(), "safety violated: {:?}", bugs);
    }
    if scenario.options.fencing {
        prop_assert_eq!(
            s.writes.stale_accepted,
            0,
            "fencing on, yet a stale write was applied"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// The checks of core/engine/src/checks.rs, module docs, over random
    /// scenarios of every algorithm with up to 20 faults.
    #[test]
    fn random_scenarios_keep_the_engine_sound(case in scenario(20)) {
        check(&case)?;
    }
}
