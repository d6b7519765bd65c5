//! [`Session`]: time travel in the core. Seeking anywhere shows what a
//! fresh run shows; checkpoints stay few, small and close together;
//! landmarks; live faults and forks; the end of a run, found in pieces,
//! is the CLI's. One test binary, one file per part.

use election_core::ScenarioExt;
mod end;
mod faults;
mod landmarks;
mod seek;

use election_core::session::Session;
use election_core::sim::Simulation;
use election_core::time::Micros;
use election_core::{Scenario, algorithms};

/// A validated scenario from JSON text.
pub fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).unwrap()
}

/// Everything the page shows of a moment.
pub fn moment(sim: &dyn Simulation) -> String {
    format!(
        "{} {:016x} {} {:?} {:?} {:?} {:?} {:?}",
        sim.now_us(),
        sim.trace_hash(),
        sim.trace().len(),
        sim.metrics(),
        sim.node_views(),
        sim.flights(),
        sim.violations(),
        sim.leaders(),
    )
}

/// The same moment from a fresh run.
pub fn fresh(scenario: &Scenario, t: Micros) -> String {
    let mut sim = algorithms::build(scenario, true);
    sim.run_until(t);
    moment(sim.as_ref())
}

/// A deterministic spread of times in `0..end`.
pub fn targets(end: Micros, count: u64) -> Vec<Micros> {
    (0..count).map(|i| (i * 7_919_393 + 12_345) % end).collect()
}

/// Raft under a crash, a partition, its heal and a recovery, 20 s.
pub const RAFT: &str = r#"{"algorithm":"raft","nodes":5,"seed":7,
    "network":{"latency_ms":[2,12],"drop":0.02},
    "faults":[{"at_ms":3000,"crash":"leader"},{"at_ms":6000,"partition":[[0,1]]},
              {"at_ms":9000,"heal":true},{"at_ms":9500,"recover":0}],
    "until_ms":20000}"#;

/// A session of scenario JSON text.
pub fn session(text: &str) -> Session {
    Session::new(&scenario(text))
}
