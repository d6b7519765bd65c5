//! The ZooKeeper leader election recipe (Apache ZooKeeper, "ZooKeeper
//! Recipes and Solutions", "Leader Election"; Hunt et al., USENIX ATC 2010)
//! on whole scenarios: exact message counts next to the rule they come
//! from, the herd effect against predecessor watches, bounds from the
//! session timeout, fencing of a paused leader, and what happens when the
//! coordination service itself fails.
//!
//! Default timing: latency 5..=10 ms (Lmax = 10 ms), session timeout
//! S = 600 ms, pings every P = S/3 = 200 ms, a client counts its connection
//! as lost after two silent ping periods (2S/3), the leader writes every
//! 100 ms. Clients are 0..n-1, the service is n, the resource n + 1.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::sim::{RunSummary, Simulation};
use election_core::trace::{Event, TraceEvent};
use election_core::{Scenario, algorithms, sim};
use std::path::Path;

const S_MS: u64 = 600;
const P_MS: u64 = 200;
const LMAX_MS: u64 = 10;
const CRASH_MS: u64 = 1000;

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn run(json: &str) -> RunSummary {
    sim::run(&scenario(json))
}

fn recorded(json: &str) -> (Box<dyn Simulation>, RunSummary) {
    let mut sim = algorithms::build(&scenario(json), true);
    sim.run_to_end();
    let summary = sim.summary();
    (sim, summary)
}

fn file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Messages of `kind` sent at or after `from_us`.
fn sent_since(trace: &[TraceEvent], kind: &str, from_us: u64) -> u64 {
    trace
        .iter()
        .filter(|e| {
            e.at_us >= from_us && matches!(&e.event, Event::Send { kind: k, .. } if *k == kind)
        })
        .count() as u64
}

/// The first node that takes the leader role at or after `from_us`.
fn first_leader_since(trace: &[TraceEvent], from_us: u64) -> Option<(u64, u32)> {
    trace.iter().find_map(|e| match e.event {
        Event::Role {
            node,
            role: Role::Leader,
            ..
        } if e.at_us >= from_us => Some((e.at_us, node)),
        _ => None,
    })
}

fn crash_leader(n: u32, watch: &str, seed: u64) -> String {
    format!(
        r#"{{"algorithm":"zookeeper","nodes":{n},"seed":{seed},"watch":"{watch}",
            "faults":[{{"at_ms":{CRASH_MS},"crash":"leader"}}]}}"#
    )
}

/// Every client creates one znode and lists once; there is nothing to be
/// notified of, so n CREATE + n CREATED + n GET_CHILDREN + n CHILDREN, and
/// the n - 1 followers set one watch each: n - 1 EXISTS + n - 1 STAT.
/// Total 6n - 2, whichever way they watch.
#[test]
fn the_first_election_costs_6n_minus_2_election_messages() {
    for watch in ["predecessor", "herd"] {
        for n in [1u64, 2, 3, 5, 16, 64] {
            let json = format!(r#"{{"algorithm":"zookeeper","nodes":{n},"watch":"{watch}"}}"#);
            let r = run(&json);
            assert_eq!(r.messages.election, 6 * n - 2, "{json}\n{r:?}");
            let k = &r.messages.by_kind;
            assert_eq!(k["CREATE"], n, "{json}");
            assert_eq!(k["EXISTS"], n - 1, "{json}");
            assert_eq!(k["WATCH_EVENT"], 0, "{json}");
            assert!(r.settled && r.leader.is_some(), "{json}\n{r:?}");
            assert!(r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

/// The herd effect (ZooKeeper recipes, "Leader Election": watching the
/// lowest znode "causes a herd effect"): all n - 1 followers watch the
/// leader's znode, so its deletion sends n - 1 WATCH_EVENT, each woken
/// client lists again (n - 1 GET_CHILDREN and CHILDREN), and the n - 2
/// that are not the new leader watch the new lowest (n - 2 EXISTS and
/// STAT): 5n - 7 election messages for one failure.
#[test]
fn herd_a_leader_failure_wakes_all_n_minus_1_watchers() {
    for n in [2u64, 3, 5, 8, 16] {
        for seed in 1..=5 {
            let json = crash_leader(n as u32, "herd", seed);
            let (sim, r) = recorded(&json);
            let crash_us = CRASH_MS * 1000;
            assert_eq!(
                sent_since(sim.trace(), "WATCH_EVENT", crash_us),
                n - 1,
                "n - 1 notifications\n{json}"
            );
            assert_eq!(r.messages.by_kind["WATCH_EVENT"], n - 1, "{json}");
            assert_eq!(
                r.recovery_election_messages,
                Some(5 * n - 7),
                "{json}\n{r:?}"
            );
            assert!(r.settled && r.leader.is_some(), "{json}\n{r:?}");
        }
    }
}

/// The recipe proper: each client watches the znode just below its own,
/// so the leader's deletion notifies exactly one client, its successor,
/// which lists once and leads: 1 WATCH_EVENT + 1 GET_CHILDREN + 1
/// CHILDREN = 3 election messages whatever n is. The others learn the new
/// leader from their next PONG.
#[test]
fn predecessor_a_leader_failure_wakes_exactly_one_watcher() {
    for n in [2u64, 3, 5, 8, 16, 64] {
        for seed in 1..=5 {
            let json = crash_leader(n as u32, "predecessor", seed);
            let (sim, r) = recorded(&json);
            assert_eq!(
                sent_since(sim.trace(), "WATCH_EVENT", CRASH_MS * 1000),
                1,
                "one notification\n{json}"
            );
            assert_eq!(r.recovery_election_messages, Some(3), "{json}\n{r:?}");
            assert!(r.settled && r.leader.is_some(), "{json}\n{r:?}");
        }
    }
}

/// The two scenario files of the page: five clients, the leader crashes at
/// 1000 ms. Herd: 4 notifications (n - 1); predecessor: 1.
#[test]
fn the_scenario_files_show_the_herd_effect() {
    for (name, notifications, cost) in [
        ("zookeeper-herd.json", 4, 18),
        ("zookeeper-predecessor.json", 1, 3),
    ] {
        let json = file(name);
        let (sim, r) = recorded(&json);
        assert_eq!(
            sent_since(sim.trace(), "WATCH_EVENT", CRASH_MS * 1000),
            notifications,
            "{name}\n{json}"
        );
        assert_eq!(r.recovery_election_messages, Some(cost), "{name}\n{r:?}");
        assert!(r.settled && r.violations.is_empty(), "{name}\n{r:?}");
    }
}

/// The crashed leader's last ping reached the service at most one ping
/// period before the crash (plus latency), and its session expires S after
/// that by the service's clock; then WATCH_EVENT, GET_CHILDREN and
/// CHILDREN take three hops. So the new leader comes between S - P and
/// S + 4 Lmax after the crash, and with predecessor watches the last
/// follower hears of it at its next PONG, at most P + 2 Lmax later.
#[test]
fn a_crashed_leader_is_replaced_one_session_timeout_after_its_last_ping() {
    let (lo, hi) = ((S_MS - P_MS) * 1000, (S_MS + 4 * LMAX_MS) * 1000);
    for watch in ["predecessor", "herd"] {
        for seed in 1..=20 {
            let json = crash_leader(5, watch, seed);
            let (sim, r) = recorded(&json);
            let crash_us = CRASH_MS * 1000;
            let (at, _) = first_leader_since(sim.trace(), crash_us).expect("a new leader");
            let after = at - crash_us;
            assert!(lo <= after && after <= hi, "{after} us\n{json}");
            let recovery_ms = r.recovery_ms.unwrap();
            assert!(
                recovery_ms <= (S_MS + P_MS + 6 * LMAX_MS) as f64,
                "{recovery_ms} ms\n{json}"
            );
            assert!(r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

#[test]
fn same_seed_same_trace_hash() {
    let template = r#"{"algorithm":"zookeeper","nodes":6,"seed":SEED,"watch":"herd",
        "network":{"latency_ms":[1,20],"drop":0.02,"duplicate":0.02},
        "faults":[{"at_ms":500,"crash":"leader"},{"at_ms":900,"pause":2,"for_ms":800},
                  {"at_ms":1500,"partition":[[0,1,2],[3,4,5,6,7]]},{"at_ms":2500,"heal":true},
                  {"at_ms":2600,"crash":6},{"at_ms":3000,"recover":6},{"at_ms":3100,"recover":0},
                  {"at_ms":0,"clock":4,"offset_ms":30,"drift":0.1}],
        "until_ms":5000}"#;
    let mut hashes = std::collections::BTreeSet::new();
    for seed in 1..=10 {
        let json = template.replace("SEED", &seed.to_string());
        let (a, ra) = recorded(&json);
        let (b, rb) = recorded(&json);
        assert_eq!(
            serde_json::to_string(a.trace()).unwrap(),
            serde_json::to_string(b.trace()).unwrap(),
            "{json}"
        );
        assert_eq!(ra, rb, "{json}");
        assert_eq!(ra, run(&json), "recording changes nothing\n{json}");
        hashes.insert(ra.trace_hash);
    }
    assert!(hashes.len() >= 9, "seeds barely matter: {hashes:?}");
}

/// A leader paused for longer than the session timeout loses its session,
/// and its successor (higher znode, higher token) takes over. When it
/// resumes, its overdue timers fire together: the write that was due goes
/// out before the SESSION_EXPIRED answer to its ping comes back, so
/// exactly one stale write reaches the resource. Fencing rejects it;
/// without fencing it is applied and reported. (Kleppmann, "How to do
/// distributed locking", 2016.)
#[test]
fn a_paused_leader_writes_once_more_and_fencing_rejects_it() {
    for seed in 1..=10 {
        for fencing in [true, false] {
            let json = format!(
                r#"{{"algorithm":"zookeeper","nodes":3,"seed":{seed},"fencing":{fencing},
                    "faults":[{{"at_ms":1000,"pause":"leader","for_ms":1500}}],"until_ms":3500}}"#
            );
            let r = run(&json);
            assert!(r.split_brain_ms > 0.0, "two leaders at once\n{json}\n{r:?}");
            let stale: Vec<_> = r
                .violations
                .iter()
                .filter(|v| v.property == "stale_write_accepted")
                .collect();
            if fencing {
                assert_eq!(r.writes.rejected, 1, "{json}\n{r:?}");
                assert_eq!(r.writes.stale_accepted, 0, "{json}");
                assert!(stale.is_empty(), "{json}\n{r:?}");
            } else {
                assert_eq!(r.writes.rejected, 0, "{json}");
                assert_eq!(r.writes.stale_accepted, 1, "{json}\n{r:?}");
                assert_eq!(stale.len(), 1, "{json}\n{r:?}");
            }
            assert_eq!(r.leaders.len(), 1, "it stepped down\n{json}\n{r:?}");
            assert!(
                r.violations
                    .iter()
                    .all(|v| v.property == "stale_write_accepted"),
                "{json}\n{r:?}"
            );
        }
    }
}

/// While the service is down nothing can be decided: the leader's pings go
/// unanswered, and two silent ping periods after the first lost one (at
/// most S after the crash) it stops leading; nobody else can take over.
/// When the service is back with its replicated znodes and sessions (each
/// with a fresh timeout), the next PONG tells every client its session
/// survived; they list again and the same lowest znode leads.
#[test]
fn with_the_service_down_nobody_leads_until_it_recovers() {
    let (down_ms, up_ms) = (1000u64, 3000u64);
    for seed in 1..=10 {
        let n = 5;
        let json = format!(
            r#"{{"algorithm":"zookeeper","nodes":{n},"seed":{seed},
                "faults":[{{"at_ms":{down_ms},"crash":{n}}},{{"at_ms":{up_ms},"recover":{n}}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until(down_ms * 1000 - 1);
        let before = sim.leaders().to_vec();
        assert_eq!(before.len(), 1, "{json}");
        let quiet_from = (down_ms + S_MS) * 1000;
        let mut checked = 0;
        while sim.next_time_us().is_some_and(|t| t < up_ms * 1000) {
            sim.step();
            if sim.now_us() >= quiet_from {
                assert!(
                    sim.leaders().is_empty(),
                    "a leader at {} us\n{json}",
                    sim.now_us()
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "{json}");
        sim.run_to_end();
        let r = sim.summary();
        assert!(r.settled, "{json}\n{r:?}");
        assert_eq!(
            r.leaders, before,
            "the same lowest znode leads again\n{json}"
        );
        assert!(
            r.recovery_ms.unwrap() <= (P_MS + 6 * LMAX_MS) as f64,
            "{json}\n{r:?}"
        );
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// The service decides, so a partition gives no split brain: the leader
/// cut off from the service stops leading when its pings go unanswered
/// (by S after the partition), its session expires on the service, and
/// the side with the service elects the next znode. After the heal the old
/// leader learns its session expired, joins again at the back and follows.
#[test]
fn a_leader_cut_off_from_the_service_is_replaced_and_no_split_brain_occurs() {
    for seed in 1..=10 {
        let n = 5u32;
        let probe = format!(r#"{{"algorithm":"zookeeper","nodes":{n},"seed":{seed}}}"#);
        let mut sim = algorithms::build(&scenario(&probe), false);
        sim.run_until(900_000);
        let old = sim.leaders()[0];
        let rest: Vec<u32> = (0..n + 2).filter(|&i| i != old).collect();
        let json = format!(
            r#"{{"algorithm":"zookeeper","nodes":{n},"seed":{seed},
                "faults":[{{"at_ms":1000,"partition":[[{old}],{rest:?}]}},{{"at_ms":3000,"heal":true}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until((1000 + S_MS) * 1000);
        assert!(!sim.leaders().contains(&old), "n{old} stepped down\n{json}");
        sim.run_until(2_999_000);
        let during = sim.leaders().to_vec();
        assert!(during.len() == 1 && during[0] != old, "{during:?}\n{json}");
        sim.run_to_end();
        let r = sim.summary();
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
        assert_eq!(r.split_brain_ms, 0.0, "{json}");
        assert!(r.settled && r.leaders == during, "{json}\n{r:?}");
    }
}

/// A follower that crashes and recovers opens a new session and gets a
/// new, higher znode: it joins at the back, the leader stays.
#[test]
fn a_recovered_client_joins_at_the_back() {
    for seed in 1..=10 {
        let probe = format!(r#"{{"algorithm":"zookeeper","nodes":4,"seed":{seed}}}"#);
        let leader = run(&probe).leader.unwrap();
        let other = (leader + 1) % 4;
        let json = format!(
            r#"{{"algorithm":"zookeeper","nodes":4,"seed":{seed},
                "faults":[{{"at_ms":500,"crash":{other}}},{{"at_ms":700,"recover":{other}}}]}}"#
        );
        let r = run(&json);
        assert_eq!(r.leader, Some(leader), "{json}\n{r:?}");
        assert_eq!(r.leader_changes, 0, "{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
    }
}
