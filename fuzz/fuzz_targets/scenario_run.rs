//! Fuzz target: any bytes as a scenario (scripts included) run on a small
//! event budget. Nothing may panic, and the run must keep inside the
//! limits of core/engine/src/limits.rs: a run stops at a limit or goes on,
//! but its messages in flight, other queued events and memory never pass
//! them, and a run stopped at one reports where (`end_ms` is its
//! `stopped_by.at_ms`). Memory beyond the run's own estimate is libFuzzer's
//! to catch (`-rss_limit_mb=2048`, fuzz/README.md).
#![no_main]

use election_core::limits::MAX_IN_FLIGHT;
use election_core::script::program::MAX_COMMANDS_PER_CALL;
use election_core::{Scenario, ScenarioExt, algorithms};
use libfuzzer_sys::fuzz_target;

/// Events each input may run: enough for elections, floods and the first
/// limits, small enough for many inputs a second (one event of a
/// 1,024-node burst sends a thousand messages).
const EVENT_BUDGET: u64 = 2_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scenario) = Scenario::from_json(text) else {
        return;
    };
    let mut sim = algorithms::build(&scenario, false);
    let end = sim.run_to_end_within(EVENT_BUDGET);
    let m = sim.metrics();
    // Checked after each event: past the limit by at most one handler
    // call's sends, each duplicated.
    let most = MAX_IN_FLIGHT + 2 * MAX_COMMANDS_PER_CALL as u64;
    assert!(m.in_flight <= most, "in flight {}", m.in_flight);
    let summary = sim.summary();
    if let Some(stop) = &summary.stopped_by {
        assert!(summary.truncated);
        if end.is_some() {
            assert_eq!(summary.end_ms, stop.at_ms, "end_ms is where the run stopped");
        }
        assert!(sim.next_time_us().is_none(), "nothing happens after a limit");
    }
});
