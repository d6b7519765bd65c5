//! The fixed benchmark workloads, shared by `election bench` (native) and
//! the wasm handle's `bench_*` exports, so that both sides time exactly
//! the same runs and their ratio means something.
//!
//! The core reads no clock: this module only says *what* runs. The CLI
//! times it with `std::time::Instant`, the wasm bench with
//! `performance.now()` in JavaScript (scripts/bench/bench.sh prints both).
//!
//! The 10,000-node Chang-Roberts election is larger than a scenario file
//! may ask for ([`crate::scenario::MAX_NODES`], the size the page draws);
//! the engine itself has no such limit, so the workload is built in code
//! and run with [`crate::algorithms::build`] directly.

use crate::scenario::{RingOrder, Scenario, StartSet};
use crate::sim::Simulation;
use crate::time::ms;

/// One benchmark workload.
#[derive(Debug, Clone)]
pub struct Workload {
    /// Short id, stable across versions (used by scripts/bench/bench.sh to pair
    /// the native and wasm figures).
    pub id: &'static str,
    /// What it runs, for the table.
    pub name: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

impl Workload {
    /// Builds a fresh simulation of this workload (not recording the
    /// trace, like `election run`) and runs it to its end. Returns the
    /// simulation, for its counters.
    pub fn run(&self) -> Box<dyn Simulation> {
        let mut sim = crate::algorithms::build(&self.scenario, false);
        sim.run_to_end();
        sim
    }
}

/// The workloads, in the order the tables list them:
///
/// - `cr1000-desc`: Chang-Roberts, 1,000 nodes on a descending ring, all
///   starting: the n(n+1)/2 worst case, about a million events (the
///   events-per-second figure);
/// - `raft1000`: Raft, 1,000 nodes, until 2 s of simulated time: the
///   election and then heartbeats every 50 ms (events per second);
/// - `cr1000`: one Chang-Roberts election on a random 1,000-node ring,
///   all starting (n*H_n + n messages on average), run until every node
///   knows the leader: the time of one election. Latency is 1-2 ms and
///   the failure detector is slowed (heartbeat every 30 s, follower
///   timeouts of 60-90 s) so that no heartbeat or restart falls inside
///   the election (with the defaults, 95% of the events of a 1,000-node
///   run are heartbeats sent while the ELECTED lap goes round);
/// - `cr10000`: the same with 10,000 nodes (two laps of about 15 s of
///   simulated time, inside the 60 s default run limit);
/// - `bully200`: Bully, 200 nodes, all starting (the workload the bench had
///   before, kept so old figures stay comparable);
/// - `script-cr446-desc` (with the `script` feature): the Chang-Roberts
///   template as a script, 446 nodes on a descending ring, all starting:
///   about 100,000 events, each a call into the interpreter (issue 18's
///   budget: a scripted run of 100,000 events under one second in the
///   page).
pub fn all() -> Vec<Workload> {
    let chang_roberts = |nodes, ring| Scenario {
        algorithm: "chang-roberts".to_string(),
        nodes,
        ring,
        start: StartSet::All,
        ..Scenario::default()
    };
    let one_election = |nodes| {
        let mut s = chang_roberts(nodes, RingOrder::Random);
        s.network.latency_us = (ms(1), ms(2));
        s.timing.election_timeout_us = (ms(60_000), ms(90_000));
        s.timing.heartbeat_us = ms(30_000);
        s
    };
    #[allow(unused_mut)]
    let mut list = vec![
        Workload {
            id: "cr1000-desc",
            name: "chang-roberts n=1000 descending, all start",
            scenario: chang_roberts(1000, RingOrder::Descending),
        },
        Workload {
            id: "raft1000",
            name: "raft n=1000, 2 s of heartbeats",
            scenario: Scenario {
                algorithm: "raft".to_string(),
                nodes: 1000,
                start: StartSet::None,
                until_us: Some(2_000_000),
                ..Scenario::default()
            },
        },
        Workload {
            id: "cr1000",
            name: "chang-roberts n=1000 random ring, one election",
            scenario: one_election(1000),
        },
        Workload {
            id: "cr10000",
            name: "chang-roberts n=10000 random ring, one election",
            scenario: one_election(10_000),
        },
        Workload {
            id: "bully200",
            name: "bully n=200, all start",
            scenario: Scenario {
                algorithm: "bully".to_string(),
                nodes: 200,
                start: StartSet::All,
                ..Scenario::default()
            },
        },
    ];
    // Data, not a special case: a scenario of the script contract
    // (`"algorithm": "script"` and its source), run like the others.
    #[cfg(feature = "script")]
    list.push(Workload {
        id: "script-cr446-desc",
        name: "script: chang-roberts template n=446 descending",
        scenario: Scenario {
            algorithm: crate::script::ALGORITHM.to_string(),
            script: crate::script::templates::find("chang-roberts").map(|t| t.source.into()),
            nodes: 446,
            ring: RingOrder::Descending,
            start: StartSet::All,
            ..Scenario::default()
        },
    });
    list
}
