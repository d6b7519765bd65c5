//! The timer data the page draws as countdown arcs (each node's pending
//! timer: its class, when it was armed, when it fires) and the next
//! moment anything happens (`next_activity`, for skipping quiet time).
//! Expected values are worked out from the scenarios' timing in the
//! comments, not read off a run.

use election_core::ScenarioExt;
use election_core::engine::PendingTimer;
use election_core::protocol::TimerClass;
use election_core::sim::Simulation;
use election_core::time::Micros;
use election_core::{Scenario, algorithms, sim};

fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).unwrap()
}

/// Node `id`'s pending timer as (class, armed ms, fires ms).
fn timer(sim: &dyn Simulation, id: u32) -> Option<(TimerClass, u64, u64)> {
    sim.node_views()[id as usize].next_timer.map(
        |PendingTimer {
             class,
             armed_us,
             fires_us,
         }| {
            assert_eq!(armed_us % 1000, 0, "whole ms in these scenarios");
            assert_eq!(fires_us % 1000, 0, "whole ms in these scenarios");
            (class, armed_us / 1000, fires_us / 1000)
        },
    )
}

fn at(text: &str, t_ms: Micros) -> Box<dyn Simulation> {
    let mut sim = algorithms::build(&scenario(text), true);
    sim.run_until(t_ms * 1000);
    sim
}

/// Bully, 3 nodes, every latency exactly 1 ms, the failure detector's
/// timeout exactly 500 ms, heartbeats every 100 ms, the reply timeout
/// its default max(4 x 1 ms, 50 ms) = 50 ms. Only n0 starts. The leader
/// crashes at 1000 ms; n0 is paused from 950 ms to 1550 ms.
const BULLY: &str = r#"{"algorithm":"bully","nodes":3,"seed":1,"start":[0],
    "network":{"latency_ms":[1,1]},
    "timing":{"election_timeout_ms":[500,500],"heartbeat_ms":100},
    "faults":[{"at_ms":950,"pause":0,"for_ms":600},{"at_ms":1000,"crash":"leader"}],
    "until_ms":3000}"#;

#[test]
fn bully_timers_follow_the_election_and_the_failover() {
    use TimerClass::*;
    // 0 ms: n0 sends ELECTION to n1, n2 and waits 50 ms for an OK; n1 and
    // n2 arm their 500 ms leader timeout. 1 ms: n2, the highest, leads at
    // once (COORDINATOR to both, first heartbeat due at 101 ms); n1 starts
    // an election of its own. 2 ms: n0 and n1 follow n2 (leader timeout
    // 500 ms). Heartbeats leave n2 at 101, 201, ... and arrive 1 ms later,
    // each pushing the followers' timeouts back without a new queue entry.
    let fresh = algorithms::build(&scenario(BULLY), true);
    assert_eq!(timer(fresh.as_ref(), 0), None, "nothing has started yet");
    let sim = at(BULLY, 0);
    assert_eq!(timer(sim.as_ref(), 0), Some((ReplyWait, 0, 50)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 0, 500)));
    let sim = at(BULLY, 1);
    assert_eq!(timer(sim.as_ref(), 0), Some((ReplyWait, 0, 50)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ReplyWait, 1, 51)));
    assert_eq!(timer(sim.as_ref(), 2), Some((Heartbeat, 1, 101)));

    // At 150 ms: the heartbeat of 101 ms reached the followers at 102 ms.
    let sim = at(BULLY, 150);
    assert_eq!(timer(sim.as_ref(), 0), Some((ElectionTimeout, 102, 602)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 102, 602)));
    assert_eq!(timer(sim.as_ref(), 2), Some((Heartbeat, 101, 201)));

    // At 1200 ms: the last heartbeat (901 ms) arrived at 902 ms; n2
    // crashed at 1000 ms and has no timer. n1 times out at 1402 ms; n0's
    // timeout is also due at 1402 ms but n0 is paused until 1550 ms, and
    // a paused node's timers fire when it resumes.
    let sim = at(BULLY, 1200);
    assert_eq!(timer(sim.as_ref(), 0), Some((ElectionTimeout, 902, 1550)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 902, 1402)));
    assert_eq!(timer(sim.as_ref(), 2), None);
    // Nothing happens between 1000 and 1402 ms (the crash at 1000 ms was
    // the last event; nothing is on the wire).
    assert_eq!(sim.next_activity_us(), Some(1_402_000));

    // At 1420 ms: n1 timed out at 1402 ms and asked n2 (ELECTION, dropped
    // at the dead n2 at 1403 ms); it waits 50 ms for an OK, until 1452 ms.
    let sim = at(BULLY, 1420);
    assert_eq!(timer(sim.as_ref(), 0), Some((ElectionTimeout, 902, 1550)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ReplyWait, 1402, 1452)));
    assert_eq!(sim.next_activity_us(), Some(1_452_000));

    // At 1500 ms: no OK came, so n1 leads at 1452 ms (COORDINATOR to n0,
    // held for the paused n0 until 1550 ms; heartbeat due at 1552 ms).
    let sim = at(BULLY, 1500);
    assert_eq!(timer(sim.as_ref(), 1), Some((Heartbeat, 1452, 1552)));
    assert_eq!(sim.next_activity_us(), Some(1_550_000), "n0 resumes");
}

/// Raft, 3 servers (and the fenced resource, n3), latency exactly 1 ms,
/// election timeout exactly 200 ms, heartbeats every 50 ms, writes to
/// the resource every 100 ms (the default). Only n0 starts; the leader
/// crashes at 500 ms.
const RAFT: &str = r#"{"algorithm":"raft","nodes":3,"seed":1,"start":[0],
    "network":{"latency_ms":[1,1]},
    "timing":{"election_timeout_ms":[200,200],"heartbeat_ms":50},
    "faults":[{"at_ms":500,"crash":"leader"}],
    "until_ms":2000}"#;

#[test]
fn raft_timers_follow_the_election_and_the_failover() {
    use TimerClass::*;
    // 0 ms: n0 times out at once: candidate of term 1, election timer
    // 200 ms; n1 and n2 arm theirs (200 ms). 1 ms: both grant their vote
    // and restart their timers (fire at 201 ms). 2 ms: n0 has a majority:
    // leader, first heartbeat round now, the next at 52 ms, first write
    // due at 102 ms. AppendEntries arrive 1 ms after each round and
    // restart the followers' timers.
    let sim = at(RAFT, 0);
    assert_eq!(timer(sim.as_ref(), 0), Some((ElectionTimeout, 0, 200)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 0, 200)));
    let sim = at(RAFT, 1);
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 1, 201)));
    let sim = at(RAFT, 2);
    assert_eq!(timer(sim.as_ref(), 0), Some((Heartbeat, 2, 52)));

    // At 120 ms: rounds at 2, 52 and 102 ms (the write at 102 ms re-armed
    // the write timer for 202 ms; the heartbeat at 152 ms comes first);
    // the round of 102 ms reached the followers at 103 ms. The resource
    // arms no timer.
    let sim = at(RAFT, 120);
    assert_eq!(timer(sim.as_ref(), 0), Some((Heartbeat, 102, 152)));
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 103, 303)));
    assert_eq!(timer(sim.as_ref(), 2), Some((ElectionTimeout, 103, 303)));
    assert_eq!(timer(sim.as_ref(), 3), None);

    // At 600 ms: the last round (452 ms) arrived at 453 ms; n0 crashed at
    // 500 ms. Both followers time out at 653 ms.
    let sim = at(RAFT, 600);
    assert_eq!(timer(sim.as_ref(), 0), None);
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 453, 653)));
    assert_eq!(sim.next_activity_us(), Some(653_000));

    // At 700 ms: both became candidates of term 2 at 653 ms and voted for
    // themselves, so neither grants the other's request (654 ms): a split
    // vote. Each candidate's election timer runs from 653 ms to 853 ms.
    let sim = at(RAFT, 700);
    assert_eq!(timer(sim.as_ref(), 1), Some((ElectionTimeout, 653, 853)));
    assert_eq!(timer(sim.as_ref(), 2), Some((ElectionTimeout, 653, 853)));
    assert_eq!(sim.next_activity_us(), Some(853_000));
}

#[test]
fn the_next_activity_skips_the_queue_bookkeeping() {
    // Bully at 150 ms (see above): n0's wait for a COORDINATOR, armed at
    // 2 ms for 150 ms and cancelled at once when the COORDINATOR came,
    // still has its queue entry at 152 ms, and the followers' leader
    // timeouts keep their first entries (502 ms) though pushed back to
    // 602 ms. The next thing that happens is n2's heartbeat at 201 ms.
    let sim = at(BULLY, 150);
    assert_eq!(sim.next_time_us(), Some(152_000), "a stale entry");
    assert_eq!(sim.next_activity_us(), Some(201_000));
    // Every node crashed at 10 ms and the last message was dropped by
    // 20 ms (latency at most 10 ms): only the entries of timers the
    // crashes disarmed are left in the queue, and nothing will happen.
    let mut dead = algorithms::build(
        &scenario(
            r#"{"algorithm":"bully","nodes":2,
                "faults":[{"at_ms":10,"crash":0},{"at_ms":10,"crash":1}]}"#,
        ),
        true,
    );
    dead.run_until(50_000);
    assert!(dead.next_time_us().is_some(), "stale entries");
    assert_eq!(dead.next_activity_us(), None);
}

/// Steps `sim` to `limit` events and checks before each event that counts
/// that `next_activity` named its time, and that bookkeeping in between
/// did not change the answer.
fn check_next_activity(sim: &mut dyn Simulation, limit: u64, what: &str) {
    while sim.metrics().events < limit {
        let predicted = sim.next_activity_us();
        let events = sim.metrics().events;
        if !sim.step() {
            assert_eq!(predicted, None, "{what}: nothing was left");
            return;
        }
        if sim.metrics().events == events {
            assert_eq!(
                sim.next_activity_us(),
                predicted,
                "{what}: bookkeeping at {} us changed the next activity",
                sim.now_us()
            );
        } else {
            assert_eq!(
                Some(sim.now_us()),
                predicted,
                "{what}: event {events} happened at another time"
            );
        }
    }
}

#[test]
fn the_next_activity_is_the_next_event_in_every_corpus_scenario() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 60, "{}", files.len());
    for file in files {
        let s = scenario(&std::fs::read_to_string(&file).unwrap());
        let mut sim = algorithms::build(&s, true);
        check_next_activity(sim.as_mut(), 30_000, &file.display().to_string());
    }
}

#[test]
fn asking_changes_nothing() {
    // Asking for the next event, the next activity and the node views
    // before every event leaves the run as it is.
    for text in [BULLY, RAFT] {
        let s = scenario(text);
        let mut asked = algorithms::build(&s, true);
        let until = s.until_us.unwrap();
        while asked.next_time_us().is_some_and(|t| t <= until) {
            let _ = (asked.next_activity_us(), asked.node_views());
            asked.step();
        }
        asked.run_to_end();
        assert_eq!(asked.summary(), sim::run(&s));
    }
}
