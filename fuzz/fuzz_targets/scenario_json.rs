//! Fuzz target: any bytes as scenario JSON. Parsing must never panic, and
//! a scenario it accepts must survive a round trip through its canonical
//! JSON and run a short while without panicking.
#![no_main]

use election_core::{Scenario, ScenarioExt, algorithms};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scenario) = Scenario::from_json(text) else {
        return;
    };
    let again = Scenario::from_value(&scenario.to_json()).expect("canonical JSON parses");
    assert_eq!(again, scenario);
    // Bounded: a short stretch of simulated time and events.
    let mut sim = algorithms::build(&scenario, false);
    let mut steps = 0;
    while steps < 20_000 && sim.next_time_us().is_some_and(|t| t <= 2_000_000) {
        sim.step();
        steps += 1;
    }
});
