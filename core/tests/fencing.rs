//! Fencing tokens (Kleppmann 2016; Chubby's sequencers, Burrows 2006): the
//! resource's highest token is durable, so even a crash and restart of the
//! resource while an old leader is paused does not let its stale write in.

use election_core::ScenarioExt;
use election_core::{Scenario, sim};

fn paused_leader_with_resource_restart(algorithm: &str, fencing: bool) -> sim::RunSummary {
    let extras_before_resource = if matches!(algorithm, "zookeeper" | "lease") {
        1
    } else {
        0
    };
    let resource = 5 + extras_before_resource;
    let json = format!(
        r#"{{"algorithm":"{algorithm}","nodes":5,"seed":1,"start":[0],"fencing":{fencing},
            "timing":{{"write_ms":100}},
            "faults":[{{"at_ms":1000,"pause":"leader","for_ms":1500}},
                      {{"at_ms":2200,"crash":{resource}}},{{"at_ms":2500,"recover":{resource}}}],
            "until_ms":4000}}"#
    );
    let scenario = Scenario::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    sim::run(&scenario)
}

#[test]
fn a_restarted_resource_still_fences_the_old_leader() {
    for algorithm in ["raft", "zab", "zookeeper", "lease", "multi-paxos"] {
        let fenced = paused_leader_with_resource_restart(algorithm, true);
        assert_eq!(fenced.writes.stale_accepted, 0, "{algorithm}: {fenced:?}");
        assert!(
            fenced.writes.rejected >= 1,
            "{algorithm}: the old leader's write must be rejected: {fenced:?}"
        );
        assert!(
            fenced
                .violations
                .iter()
                .all(|v| v.property != "stale_write_accepted")
        );
        let open = paused_leader_with_resource_restart(algorithm, false);
        assert!(
            open.writes.stale_accepted >= 1,
            "{algorithm}: without fencing the stale write gets in: {open:?}"
        );
    }
}
