//! Fencing tokens (Kleppmann 2016; Chubby's sequencers, Burrows 2006): the
//! resource's highest token is durable, so even a crash and restart of the
//! resource while an old leader is paused does not let its stale write in.

use election_core::ScenarioExt;
use election_core::algorithms::{ALL, Entry};
use election_core::protocol::Extra;
use election_core::{Scenario, sim};

fn paused_leader_with_resource_restart(entry: &Entry, fencing: bool) -> sim::RunSummary {
    let algorithm = entry.id;
    let resource = 5 + entry
        .extras
        .iter()
        .position(|&e| e == Extra::Resource)
        .unwrap();
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
    // Every algorithm with a resource node (the registry's extras).
    let with_resource = ALL.iter().filter(|a| a.extras.contains(&Extra::Resource));
    assert_eq!(with_resource.clone().count(), 5);
    for entry in with_resource {
        let algorithm = entry.id;
        let fenced = paused_leader_with_resource_restart(entry, true);
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
        let open = paused_leader_with_resource_restart(entry, false);
        assert!(
            open.writes.stale_accepted >= 1,
            "{algorithm}: without fencing the stale write gets in: {open:?}"
        );
    }
}
