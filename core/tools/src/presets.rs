//! Guided scenarios (presets): a scenario file from `scenarios/presets/`
//! plus a short narrated walkthrough, each step pinned to the simulated
//! moment it talks about.
//!
//! The scenario files are embedded at compile time (`include_str!`), so
//! the core stays free of I/O and the page, the CLI and the tests all see
//! the very same bytes. Every file also runs on its own:
//! `election run --scenario scenarios/presets/<name>.json`.
//!
//! The narration promises outcomes ("split brain", "one WATCH_EVENT");
//! `cli/tests/presets.rs` runs every file and checks each promise, and the
//! tests below check that every step's time is the time of an event of the
//! run, so jumping to a step shows the moment it describes.

use crate::ScenarioExt;
use crate::scenario::{Scenario, ScenarioError};
use serde::Serialize;

/// One step of a walkthrough.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Step {
    /// The simulated moment the step describes, ms (an event happens then).
    pub at_ms: f64,
    /// What to look at, in plain language.
    pub text: &'static str,
}

/// A guided scenario.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    /// Id used in `preset=<name>`, `election run --preset <name>` and as
    /// the file name `scenarios/presets/<name>.json`.
    pub name: &'static str,
    /// Human title.
    pub title: &'static str,
    /// One sentence: what the walkthrough shows.
    pub summary: &'static str,
    /// A preset that shows the other side of the same lesson.
    pub related: Option<&'static str>,
    /// The walkthrough, in time order.
    pub steps: &'static [Step],
    /// The scenario file's text.
    #[serde(skip)]
    pub scenario_json: &'static str,
}

impl Preset {
    /// The scenario, parsed and validated by the one scenario parser.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        Scenario::from_json(self.scenario_json)
    }

    /// Path of the scenario file, relative to the repository root.
    pub fn file(&self) -> String {
        format!("scenarios/presets/{}.json", self.name)
    }
}

const fn step(at_ms: f64, text: &'static str) -> Step {
    Step { at_ms, text }
}

/// Every preset, in the order the page and the CLI list them.
pub static ALL: &[Preset] = &[
    Preset {
        name: "bully-partition",
        title: "Bully under a partition: split brain",
        summary: "A partition leaves each side electing its own highest node; Bully cannot tell a dead leader from an unreachable one.",
        related: None,
        steps: &[
            step(
                0.0,
                "Every node starts an election at once. n5 has nobody higher to ask, so it announces COORDINATOR straight away; the other ELECTION messages end in OK replies. n5 leads and sends heartbeats.",
            ),
            step(
                500.0,
                "The network splits into {n0, n1, n2} and {n3, n4, n5}. Messages across the cut are lost, so n5's heartbeats no longer reach the left side.",
            ),
            step(
                698.005,
                "n0 has heard no heartbeat for its timeout, presumes n5 dead and sends ELECTION to every higher id. n1 and n2 answer OK and hold elections of their own.",
            ),
            step(
                793.832,
                "n2 gets no OK from n3, n4 or n5: they are on the other side. It takes over and announces COORDINATOR. Now n2 and n5 both lead: split brain. Bully assumes a network that never partitions; the page reports the second leader as a violation.",
            ),
            step(
                2500.0,
                "The partition heals. For a moment the two leaders can reach each other (reported too).",
            ),
            step(
                2505.66,
                "n2 hears the heartbeat of the higher leader n5 and steps down; everyone follows n5 again, after about 1.7 s of split brain.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/bully-partition.json"),
    },
    Preset {
        name: "bully-flapping",
        title: "The flapping top node (Bully)",
        summary: "The highest id crashes and recovers again and again; every departure and every return costs a whole election.",
        related: None,
        steps: &[
            step(0.0, "n5, the highest id, wins the first election at once."),
            step(
                500.0,
                "n5 starts flapping: it goes down for 400 ms every 800 ms, four times.",
            ),
            step(
                724.001,
                "n4 noticed the silence, sent ELECTION to the only higher node, got no OK and took over.",
            ),
            step(
                900.0,
                "n5 comes back. Bully's rule: a recovering node holds an election, and the highest live id always wins. n5 takes the lead back at once (for a moment alongside n4, reported) and n4 steps down.",
            ),
            step(
                1300.0,
                "n5 crashes again, and the cluster pays for a whole election again: followers time out, send ELECTION, collect OKs, and n4 takes over.",
            ),
            step(
                1700.0,
                "...and n5 bullies its way back again. A node that keeps flapping forces an election every time it leaves and every time it returns.",
            ),
            step(
                3300.0,
                "The last return: from here n5 stays up and leads. Eight leader changes in four seconds, for one unreliable node.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/bully-flapping.json"),
    },
    Preset {
        name: "ring-dead-successor",
        title: "A ring with a dead successor (Chang-Roberts)",
        summary: "The leader dies and is also a node's successor on the ring: every message sent to it waits a reply timeout before it is passed on.",
        related: None,
        steps: &[
            step(
                0.0,
                "An ascending ring n0 → n1 → … → n5 → n0. Every node starts; n5 wins and sends heartbeats.",
            ),
            step(
                1000.0,
                "n5, the leader, crashes. It is also n4's successor on the ring.",
            ),
            step(
                1164.938,
                "n0 times out first and sends ELECTION(0) to n1; each node it reaches replaces it with its own, higher id.",
            ),
            step(
                1170.933,
                "n4 times out too and sends ELECTION(4) to its successor n5, which is dead. Nothing comes back.",
            ),
            step(
                1220.933,
                "One reply timeout (50 ms) later the link reports the message undeliverable; n4 skips n5 and passes ELECTION(4) to n0, the next node along the ring.",
            ),
            step(
                1258.231,
                "ELECTION(4) comes back to n4: it has the largest live id and leads. Its ELECTED lap has to skip n5 as well, another 50 ms.",
            ),
            step(
                1340.434,
                "Everyone follows n4 (most from its first heartbeat, which overtakes the ELECTED lap). Each lap that crosses a dead node pays one reply timeout; several dead nodes in a row add up.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/ring-dead-successor.json"),
    },
    Preset {
        name: "chang-roberts-best",
        title: "Chang-Roberts, best arrangement: ascending ring",
        summary: "On an ascending ring every id but the largest is swallowed after one hop: 2n-1 ELECTION plus n ELECTED.",
        related: Some("chang-roberts-worst"),
        steps: &[
            step(
                0.0,
                "Every node sends its id to its successor at once. On an ascending ring each successor has a higher id, so every ELECTION except n7's is swallowed after one hop.",
            ),
            step(
                6.269,
                "n0 receives ELECTION(7) from n7 and forwards it; only n7's id travels all the way round.",
            ),
            step(
                60.604,
                "n7's own id comes back: it leads and sends one ELECTED lap round the ring.",
            ),
            step(
                121.578,
                "Done: 15 ELECTION + 8 ELECTED = 23 messages, exactly the best case 2n-1 + n for n = 8. Open the worst case (descending ring) to compare.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/chang-roberts-best.json"),
    },
    Preset {
        name: "chang-roberts-worst",
        title: "Chang-Roberts, worst arrangement: descending ring",
        summary: "On a descending ring every id travels until it meets a larger one: n(n+1)/2 ELECTION plus n ELECTED.",
        related: Some("chang-roberts-best"),
        steps: &[
            step(
                0.0,
                "Every node sends its id to its successor at once. On a descending ring each successor has a lower id, so every ELECTION is forwarded: n6's goes one hop further than n5's, n7's all the way round.",
            ),
            step(
                29.078,
                "ELECTION(7) is still on its way while the smaller ids are still being forwarded behind it.",
            ),
            step(
                61.265,
                "n7's own id comes back: it leads and sends one ELECTED lap round the ring.",
            ),
            step(
                120.592,
                "Done: 36 ELECTION + 8 ELECTED = 44 messages, the worst case n(n+1)/2 + n. Same nodes, same algorithm: only the arrangement changed. A random ring costs n·H_n (about 21.7 ELECTION for n = 8) on average.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/chang-roberts-worst.json"),
    },
    Preset {
        name: "raft-minority",
        title: "Raft: a minority cannot elect; heal, and the leader steps down",
        summary: "Two of five nodes are cut off: they raise their terms without ever winning; after the heal their high term forces the leader to step down.",
        related: None,
        steps: &[
            step(
                0.0,
                "n0 starts an election for term 1 and wins it with votes from a majority.",
            ),
            step(
                1000.0,
                "The network splits: n0, n1, n2 (and the resource) hold 3 of 5 votes; n3 and n4 are a minority.",
            ),
            step(
                1129.987,
                "n4 times out and starts an election for term 2. With n3's vote it has 2 of 5: no majority, no leader. The minority tries term after term while the majority keeps its leader.",
            ),
            step(
                3000.0,
                "The partition heals. n3 and n4 are at term 10, far above n0's term 1.",
            ),
            step(
                3026.388,
                "n0 hears term 10 and steps down: a higher term always wins in Raft. With pre-vote (add &pre_vote=true to the address) the minority would have asked first and never raised its term.",
            ),
            step(
                3162.609,
                "n4 asks for votes in term 11 and is refused: its log (5 entries) is behind the majority's (15). A node that missed committed entries cannot lead.",
            ),
            step(
                3254.64,
                "n2 wins term 12 with votes from n2, n1 and n3. One leader per term throughout: no violation.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/raft-minority.json"),
    },
    Preset {
        name: "raft-split-votes",
        title: "Raft split votes: too little timeout randomness (150-151 ms)",
        summary: "With election timeouts drawn from 150-151 ms the followers time out together, split the votes and try again, for many terms.",
        related: None,
        steps: &[
            step(0.0, "n0 starts and wins term 1 at once."),
            step(1000.0, "The leader n0 crashes."),
            step(
                1132.726,
                "All four followers time out within 1.5 ms of each other, each votes for itself and refuses the others: a split vote, nobody has a majority.",
            ),
            step(
                1282.829,
                "They time out again, nearly together again, for term 3. A 1 ms window rarely lets one candidate get its votes in first.",
            ),
            step(
                14681.084,
                "n2 finally wins term 92, after 13.7 s without a leader and about 2,400 election messages. With the paper's 150-300 ms (add &election_timeout_ms=150-300 to the address) the same crash costs one term (Raft paper, figure 16).",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/raft-split-votes.json"),
    },
    Preset {
        name: "multi-paxos-duel",
        title: "Multi-Paxos: duelling proposers without backoff",
        summary: "After the leader crashes, proposers with equal timeouts and no backoff pre-empt each other's ballots for ever; a random backoff cures it.",
        related: Some("multi-paxos-master-lease"),
        steps: &[
            step(
                0.0,
                "n0 proposes ballot 1, gets promises from a majority and leads. Every election timeout is exactly 150 ms here, and backoff is off: a pre-empted proposer tries again at once.",
            ),
            step(
                1000.0,
                "The leader n0 crashes. The others heard its last heartbeat at about the same moment.",
            ),
            step(
                1120.918,
                "n3 suspects n0 and sends PREPARE for ballot 4; within 1.4 ms n4, n1 and n2 propose ballots 5, 2 and 3.",
            ),
            step(
                1128.336,
                "n1 promises n4's higher ballot 5, which pre-empts its own: at once it proposes ballot 7, above the one that beat it. Every pre-empted proposer does the same to the others.",
            ),
            step(
                1168.705,
                "n1 gets a majority for ballot 22 and leads, for half a millisecond: n2's PREPARE for ballot 23 is already on its way and pre-empts it.",
            ),
            step(
                2998.796,
                "Two seconds after the crash, ballot 984 and still no leader that lasts: duelling proposers (Lamport, Paxos Made Simple, 2.4). Add &backoff=true to the address: each pre-empted proposer waits a random 0-150 ms, one completes its ballot and heartbeats first, and the others follow it about 160 ms after the crash.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/multi-paxos-duel.json"),
    },
    Preset {
        name: "multi-paxos-master-lease",
        title: "Multi-Paxos with Chubby's master lease: no new master before the lease runs out",
        summary: "The master is cut off; the replicas suspect it at once but promise nobody until the lease they granted has run out, so there is never a second master.",
        related: Some("multi-paxos-duel"),
        steps: &[
            step(
                0.0,
                "n0 proposes ballot 1 and leads. With the master lease (1000 ms), every replica that acknowledges a heartbeat grants n0 the lease on its own clock and promises nobody else meanwhile.",
            ),
            step(
                27.488,
                "A majority acknowledged n0's first heartbeat round: n0 holds the master lease until 990 ms after that round began on its own clock (1000 ms shortened by the drift bound of 1%), renewed by every round a majority acknowledges.",
            ),
            step(
                1000.0,
                "The network cuts n0 off from the others (the storage service stays with the majority). n0 can no longer renew.",
            ),
            step(
                1154.964,
                "n3 hears no heartbeat for its election timeout and suspects n0, but the lease it granted has 817 ms left: it waits. Without the master lease it would propose now and a new master could act while n0 still believes it is one.",
            ),
            step(
                1953.745,
                "n0 could not renew before its lease ran out on its own clock: it stops acting as master. Nobody else has been master yet.",
            ),
            step(
                1993.040,
                "n2's grant has run out (plus a random part of the timeout range): it sends PREPARE for ballot 3, above any it has seen.",
            ),
            step(
                2011.628,
                "n2 leads ballot 3 with promises from n2, n1 and n4, 58 ms after n0 stopped: never two masters. A clock drifting past the bound breaks this (scenarios/multi-paxos-lease-drift.json: lease_overlap, and fencing rejects the old master's writes).",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/multi-paxos-master-lease.json"),
    },
    Preset {
        name: "lease-drift",
        title: "A leader lease broken by clock drift, contained by fencing",
        summary: "A fast clock makes a candidate take a lease that has not expired; the old holder's writes are fenced off by their stale token.",
        related: None,
        steps: &[
            step(
                0.0,
                "n1's clock runs twice as fast as true time (drift 1.0). Kubernetes-style Lease: lease 1000 ms, renew deadline 800 ms, retry every 200 ms.",
            ),
            step(
                25.77,
                "n0 takes the lease and leads with fencing token 1; it writes to the resource (n4) every 100 ms.",
            ),
            step(
                1000.0,
                "The links between n0 and the coordination service (n3) are cut both ways: n0 cannot renew, but it still believes it holds the lease and still reaches the resource.",
            ),
            step(
                1553.394,
                "n1 sees the lease unchanged for 1244 ms by its own fast clock (about 620 ms of real time) and takes it by compare-and-swap.",
            ),
            step(
                1568.361,
                "n1 holds the lease with token 2 while n0 still believes it holds it: the lease is broken (lease_overlap). A lease is only as safe as the clocks' drift bound.",
            ),
            step(
                1635.066,
                "n0 writes with token 1; the resource has already seen token 2 and rejects it as stale. Fencing contains the damage: no stale write gets in.",
            ),
            step(
                1825.77,
                "n0's renew deadline runs out by its own clock and it stops leading.",
            ),
            step(
                2187.931,
                "After the heal at 2000 ms, n0 learns that n1 holds the lease and follows it.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/lease-drift.json"),
    },
    Preset {
        name: "zookeeper-herd",
        title: "ZooKeeper herd effect: everyone watches the leader",
        summary: "Every client watches the leader's znode, so one failure wakes all n-1 of them.",
        related: Some("zookeeper-predecessor"),
        steps: &[
            step(
                0.0,
                "Eight clients open sessions with the coordination service (n8) and create ephemeral sequential znodes; the lowest leads. In herd mode every other client watches the leader's znode.",
            ),
            step(
                39.778,
                "n5 holds znode #0, the lowest: it leads, with its sequence number as fencing token.",
            ),
            step(1000.0, "The leader n5 crashes."),
            step(
                1406.544,
                "Its session expires (600 ms without pings); the service deletes znode #0 and notifies every watcher: 7 WATCH_EVENTs at once.",
            ),
            step(
                1412.102,
                "All seven wake up and ask for the children list (GET_CHILDREN): the herd. n-1 requests to learn that one of them leads now.",
            ),
            step(
                1427.548,
                "n7, owner of #1, leads. Compare with predecessor watches: one WATCH_EVENT for the same failure.",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/zookeeper-herd.json"),
    },
    Preset {
        name: "zookeeper-predecessor",
        title: "ZooKeeper predecessor watches: one failure, one notification",
        summary: "Each client watches only the znode just below its own, so the leader's failure wakes exactly one client.",
        related: Some("zookeeper-herd"),
        steps: &[
            step(
                0.0,
                "Eight clients open sessions with the coordination service (n8) and create ephemeral sequential znodes; the lowest leads. Each client watches only the znode just below its own.",
            ),
            step(
                39.778,
                "n5 holds znode #0, the lowest: it leads, with its sequence number as fencing token.",
            ),
            step(1000.0, "The leader n5 crashes."),
            step(
                1406.544,
                "Its session expires; the service deletes #0 and notifies its only watcher, n7 (owner of #1): one WATCH_EVENT.",
            ),
            step(
                1430.126,
                "n7 lists the children, finds its #1 lowest and leads. The other watches never fired: a failure costs O(1) notifications instead of O(n).",
            ),
        ],
        scenario_json: include_str!("../../../scenarios/presets/zookeeper-predecessor.json"),
    },
];

/// Every preset name, in list order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|p| p.name).collect()
}

/// The preset called `name`.
pub fn find(name: &str) -> Option<&'static Preset> {
    ALL.iter().find(|p| p.name == name)
}

/// The preset called `name`, or an error naming `field` that lists the
/// known names (for a URL parameter or a command-line flag).
pub fn lookup(name: &str, field: &str) -> Result<&'static Preset, ScenarioError> {
    find(name.trim()).ok_or_else(|| {
        ScenarioError::new(
            field,
            format!("unknown preset {:?}; known: {}", name, names().join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms;
    use crate::time::ms;

    #[test]
    fn every_preset_parses_and_names_are_unique() {
        assert!(ALL.len() >= 8);
        let mut seen = std::collections::BTreeSet::new();
        for p in ALL {
            assert!(seen.insert(p.name), "duplicate preset {}", p.name);
            assert!(
                p.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}: names are URL-safe kebab-case",
                p.name
            );
            p.scenario().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!p.title.is_empty() && !p.summary.is_empty());
            if let Some(other) = p.related {
                assert!(find(other).is_some(), "{}: related {other} unknown", p.name);
            }
        }
    }

    #[test]
    fn steps_are_in_order_and_each_names_a_moment_of_the_run() {
        for p in ALL {
            let scenario = p.scenario().unwrap();
            assert!(!p.steps.is_empty(), "{}", p.name);
            assert_eq!(
                p.steps[0].at_ms, 0.0,
                "{}: the walkthrough starts at 0",
                p.name
            );
            let mut sim = algorithms::build(&scenario, true);
            let end = sim.run_to_end();
            let times: std::collections::BTreeSet<_> =
                sim.trace().iter().map(|e| e.at_us).collect();
            for pair in p.steps.windows(2) {
                assert!(pair[0].at_ms < pair[1].at_ms, "{}: steps in order", p.name);
            }
            for s in p.steps {
                assert!(!s.text.is_empty());
                let at = (s.at_ms * 1000.0).round() as u64;
                assert!(
                    at <= end,
                    "{}: step at {} ms after the end",
                    p.name,
                    s.at_ms
                );
                assert!(
                    times.contains(&at),
                    "{}: nothing happens at {} ms, so jumping there shows nothing new",
                    p.name,
                    s.at_ms
                );
            }
        }
    }

    #[test]
    fn lookup_names_the_field_and_lists_the_presets() {
        assert_eq!(
            lookup("bully-partition", "preset").unwrap().name,
            "bully-partition"
        );
        let err = lookup("nope", "preset").unwrap_err();
        assert_eq!(err.field, "preset");
        assert!(err.message.contains("bully-partition"), "{err}");
        assert_eq!(
            find("raft-split-votes").unwrap().file(),
            "scenarios/presets/raft-split-votes.json"
        );
        // A step in the middle of the run is where the walkthrough says.
        let p = find("bully-partition").unwrap();
        let mut sim = algorithms::build(&p.scenario().unwrap(), false);
        sim.run_until(ms(800));
        assert_eq!(sim.leaders(), &[2, 5], "split brain at 800 ms");
    }
}
