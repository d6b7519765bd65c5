//! ZooKeeper's observers in Zab (`"observers": k`; the rules and costs are
//! in core/algorithms/src/algorithms/consensus/zab/observers.rs): exact message
//! counts against the formula, observers that never vote or stand even with
//! every voter
//! down, and the key's round trip through scenario files, share links and
//! URL parameters, with its one clear error.
//!
//! With v = n - k voters, every server starting at once and a fixed
//! latency: NOTIFICATION v(v-1)(v+1)/2 among the voters (the election of v
//! servers, core/tests/zab.rs) + k v asks + k v answers; FOLLOWERINFO v-1;
//! LEADERINFO and ACKEPOCH v-1+k; OBSERVERINFO k.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::scenario::query::{apply_query_pairs, from_query_pairs, to_query};
use election_core::trace::Event;
use election_core::{Scenario, algorithms, share, sim};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn kind(sim: &dyn sim::Simulation, name: &str) -> u64 {
    let i = sim.kinds().iter().position(|k| *k == name).unwrap();
    sim.metrics().by_kind[i]
}

const KINDS: [&str; 5] = [
    "NOTIFICATION",
    "FOLLOWERINFO",
    "LEADERINFO",
    "ACKEPOCH",
    "OBSERVERINFO",
];

fn counts(sim: &dyn sim::Simulation) -> Vec<u64> {
    KINDS.iter().map(|k| kind(sim, k)).collect()
}

/// The formula of the module docs, in the order of [`KINDS`].
fn expected(n: u64, k: u64) -> Vec<u64> {
    let v = n - k;
    vec![
        v * (v - 1) * (v + 1) / 2 + 2 * k * v,
        v - 1,
        v - 1 + k,
        v - 1 + k,
        k,
    ]
}

fn all_start(n: u64, k: u64, d: u64) -> String {
    format!(
        r#"{{"algorithm":"zab","nodes":{n},"observers":{k},"network":{{"latency_ms":[{d},{d}]}}}}"#
    )
}

#[test]
fn nine_servers_six_observers_cost_the_election_of_three_voters_plus_what_the_observers_learn() {
    let json = all_start(9, 6, 10);
    let mut sim = algorithms::build(&scenario(&json), false);
    sim.run_to_end();
    // 3 voters: 12 notifications; 6 observers: 18 asks and 18 answers.
    assert_eq!(counts(sim.as_ref()), vec![48, 2, 8, 8, 6]);
    let r = sim.summary();
    assert_eq!(r.messages.election, 72, "{r:?}");
    assert_eq!(r.leader, Some(2), "the highest voter, not the highest id");
    assert_eq!(r.elections, 3, "only the voters start elections");
    assert!(r.settled && r.violations.is_empty(), "{r:?}");
    // Every observer follows the leader, as an observer.
    for v in sim.node_views().iter().filter(|v| (3..9).contains(&v.id)) {
        assert_eq!((v.role, v.leader), (Role::Observer, Some(2)), "{v:?}");
    }
    // The same nine servers all voting: 360 notifications, 384 in all.
    let all = sim::run(&scenario(&all_start(9, 0, 10)));
    assert_eq!(all.messages.election, 384);
}

#[test]
fn counts_follow_the_formula_and_the_voters_election_is_that_of_v_servers() {
    for d in [1u64, 5, 10] {
        for (n, k) in [(3u64, 1u64), (5, 2), (7, 4), (9, 6), (12, 7), (9, 0)] {
            let json = all_start(n, k, d);
            let mut sim = algorithms::build(&scenario(&json), false);
            sim.run_to_end();
            assert_eq!(counts(sim.as_ref()), expected(n, k), "{json}");
            let alone = sim::run(&scenario(&all_start(n - k, 0, d)));
            let v = n - k;
            assert_eq!(
                kind(sim.as_ref(), "NOTIFICATION") - 2 * k * v,
                alone.messages.by_kind["NOTIFICATION"],
                "{json}"
            );
            let r = sim.summary();
            assert_eq!(r.leader, Some((n - k - 1) as u32), "{json}");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
}

/// A recovered observer asks the v voters, gets v answers, and connects:
/// 2v + 3 election messages and no election.
#[test]
fn a_recovered_observer_costs_two_v_plus_three_and_starts_no_election() {
    for seed in 1..=5u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":7,"observers":3,"seed":{seed},"faults":[{{"at_ms":500,"crash":6}},{{"at_ms":1500,"recover":6}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until(1_499_000);
        let before = counts(sim.as_ref());
        sim.run_to_end();
        let delta: Vec<u64> = counts(sim.as_ref())
            .iter()
            .zip(&before)
            .map(|(a, b)| a - b)
            .collect();
        assert_eq!(delta, vec![8, 0, 1, 1, 1], "{json}");
        let r = sim.summary();
        assert_eq!(r.recovery_election_messages, Some(11), "{json}");
        assert_eq!((r.elections, r.leader_changes), (4, 0), "{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// Every voter crashes: nobody can be elected, so the cluster waits, and
/// the observers keep asking without ever standing. Liveness is lost; no
/// safety property is broken.
#[test]
fn observers_never_stand_even_when_every_voter_is_down() {
    for seed in 1..=5u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":9,"observers":6,"seed":{seed},"until_ms":10000,
               "faults":[{{"at_ms":500,"crash":0}},{{"at_ms":500,"crash":1}},{{"at_ms":700,"crash":2}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), true);
        sim.run_to_end();
        let r = sim.summary();
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
        assert!(!r.settled, "{json}");
        assert_eq!(r.leader, None, "{json}");
        // The three voters at start, then n2 when it lost its quorum.
        assert_eq!(r.elections, 4, "the observers start none\n{json}");
        for e in sim.trace() {
            match &e.event {
                Event::Role { node, role, .. } if (3..9).contains(node) => {
                    assert_eq!(*role, Role::Observer, "n{node} at {} us\n{json}", e.at_us);
                }
                Event::Vote { node, .. } => assert!(*node < 3, "n{node} voted\n{json}"),
                Event::Election { node } => assert!(*node < 3, "n{node} stood\n{json}"),
                _ => {}
            }
        }
        // The observers were still asking at the end: every voter is gone.
        for v in sim.node_views().iter().filter(|v| v.id >= 3 && v.id < 9) {
            assert_eq!((v.role, v.leader, v.alive), (Role::Observer, None, true));
        }
        let asks_late = sim
            .trace()
            .iter()
            .filter(|e| e.at_us > 9_000_000)
            .any(|e| matches!(&e.event, Event::Send { from, kind, .. } if *from >= 3 && *kind == "NOTIFICATION"));
        assert!(asks_late, "{json}");
    }
}

/// The leader and one voter are cut off from a voter and every observer:
/// the two voters are a quorum of three and keep leading; the observers
/// on the other side never stand, and rejoin after the heal.
#[test]
fn a_quorum_of_voters_leads_however_many_observers_are_cut_off() {
    let json = r#"{"algorithm":"zab","nodes":8,"observers":5,"until_ms":4000,
        "faults":[{"at_ms":500,"partition":[[1,2],[0,3,4,5,6,7]]},{"at_ms":2500,"heal":true}]}"#;
    let mut sim = algorithms::build(&scenario(json), true);
    sim.run_until(2_400_000);
    let views = sim.node_views();
    assert_eq!((views[2].role, views[1].leader), (Role::Leader, Some(2)));
    for v in &views[3..8] {
        assert_eq!(v.role, Role::Observer, "{v:?}");
    }
    sim.run_to_end();
    let r = sim.summary();
    assert_eq!((r.leader, r.leader_changes), (Some(2), 0), "{r:?}");
    assert!(r.violations.is_empty(), "{r:?}");
    for v in &sim.node_views()[..8] {
        assert_eq!(v.leader, Some(2), "{v:?}");
    }
}

#[test]
fn the_key_round_trips_through_files_links_and_url_parameters() {
    let s = scenario(r#"{"algorithm":"zab","nodes":9,"observers":6}"#);
    assert_eq!(s.options.observers, 6);
    let json = s.to_json();
    assert_eq!(json["observers"], 6);
    assert_eq!(scenario(&s.to_json_pretty()), s);
    assert_eq!(share::decode(&share::encode(&s)).unwrap(), s);
    assert!(to_query(&s).ends_with("&observers=6"), "{}", to_query(&s));
    let pairs = |q: &str| -> Vec<(String, String)> {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(from_query_pairs(&pairs(&to_query(&s))).unwrap(), s);
    // Zero is the default and is not written, so older files stay as they were.
    let plain = scenario(r#"{"algorithm":"zab","nodes":9,"observers":0}"#);
    assert!(plain.to_json().get("observers").is_none());
    assert!(!to_query(&plain).contains("observers"));
}

#[test]
fn bad_observers_get_one_clear_error_naming_the_field() {
    let err = |json: &str| Scenario::from_json(json).unwrap_err();
    let e = err(r#"{"algorithm":"zab","nodes":5,"observers":5}"#);
    assert_eq!(e.field, "observers");
    assert_eq!(
        e.message,
        "must leave at least one voter: 5 observers of 5 nodes; use at most 4"
    );
    let e = err(r#"{"algorithm":"raft","nodes":5,"observers":2}"#);
    assert_eq!(
        (e.field.as_str(), e.message.as_str()),
        ("observers", "raft has no observers (only zab has); use 0")
    );
    let e = err(r#"{"algorithm":"zookeeper","nodes":5,"observers":2}"#);
    assert_eq!(e.field, "observers");
    assert!(e.message.contains("not an ensemble"), "{}", e.message);
    let e = err(r#"{"algorithm":"zab","nodes":5,"observers":-1}"#);
    assert_eq!(e.field, "observers");
    let e = err(r#"{"algorithm":"zab","nodes":5,"observers":"two"}"#);
    assert_eq!(e.field, "observers");
    // Zero observers is the default and valid for every algorithm.
    for id in algorithms::ids() {
        scenario(&format!(
            r#"{{"algorithm":"{id}","nodes":5,"observers":0}}"#
        ));
    }
}

/// The page's settings form names the algorithm and the nodes, not the
/// observers: picking an algorithm without observers drops them rather
/// than refusing the switch; naming them, or keeping zab, keeps them.
#[test]
fn the_settings_form_drops_observers_for_an_algorithm_without_them() {
    let base = scenario(r#"{"algorithm":"zab","nodes":9,"observers":6}"#);
    let with = |q: &[(&str, &str)]| {
        let pairs: Vec<(String, String)> = q
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        apply_query_pairs(&base, &pairs)
    };
    assert_eq!(with(&[("algorithm", "raft")]).unwrap().options.observers, 0);
    assert_eq!(
        with(&[("algorithm", "zab"), ("nodes", "12")])
            .unwrap()
            .options
            .observers,
        6
    );
    let e = with(&[("algorithm", "zab"), ("nodes", "6")]).unwrap_err();
    assert_eq!(e.field, "observers");
    let e = with(&[("algorithm", "raft"), ("observers", "2")]).unwrap_err();
    assert_eq!(e.field, "observers");
}

/// The random fault schedules of `election fuzz-faults` (core/tools/src/fuzz.rs)
/// with observers added: k = seed mod n, so from none to all but one.
/// Once the faults are over one leader is followed by every server,
/// observers included, and no consensus property breaks. Seeds 1..=200
/// here; `ZAB_OBSERVER_SEEDS=1..=20000 cargo test --release -p
/// election-core --test zab_observers` for the long hunt.
#[test]
fn random_fault_schedules_with_observers_settle_safely() {
    let range = std::env::var("ZAB_OBSERVER_SEEDS").unwrap_or_else(|_| "1..=200".into());
    let (from, to) = range
        .split_once("..")
        .map(|(a, b)| (a.parse::<u64>(), b.trim_start_matches('=').parse::<u64>()))
        .and_then(|(a, b)| Some((a.ok()?, b.ok()?)))
        .expect("ZAB_OBSERVER_SEEDS looks like 1..=200");
    for seed in from..=to {
        let mut value = election_core::fuzz::random_scenario_json(seed, Some("zab"));
        let n = value["nodes"].as_u64().unwrap();
        value["observers"] = (seed % n).into();
        let s = Scenario::from_value(&value).unwrap();
        let summary = sim::run(&s);
        if let Err(problem) = election_core::fuzz::check_summary(&s, &summary) {
            panic!(
                "seed {seed}: {problem}\n{}",
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }
}
