//! Kubernetes-style Lease election (client-go `tools/leaderelection`,
//! `tryAcquireOrRenew` and the renew loop, over a `coordination.k8s.io`
//! Lease) on whole scenarios: exact message counts, bounds from the lease
//! duration and retry period, and the clock faults that break a lease
//! (a follower's clock running fast, a holder's GC pause), with fencing
//! containing the damage.
//!
//! Default timing: latency 5..=10 ms (Lmax = 10 ms), lease duration
//! L = 1000 ms, renew deadline D = 800 ms, retry period R = 200 ms
//! (candidates wait R..2.2R, client-go's jitter), writes every 100 ms.
//! Candidates are 0..n-1, the service is n, the resource n + 1.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::sim::RunSummary;
use election_core::trace::{Event, TraceEvent};
use election_core::{Scenario, algorithms, sim};
use std::path::Path;

const L_MS: u64 = 1000;
const R_MS: u64 = 200;
const JITTERED_R_MS: u64 = 440;
const LMAX_MS: u64 = 10;

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn run(json: &str) -> RunSummary {
    sim::run(&scenario(json))
}

fn file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

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

fn overlaps(r: &RunSummary) -> Vec<Vec<u32>> {
    r.violations
        .iter()
        .filter(|v| v.property == "lease_overlap")
        .map(|v| v.nodes.clone())
        .collect()
}

/// Every candidate reads the empty Lease at time 0 (all reads are answered
/// by 2 Lmax = 20 ms, before the first write can arrive at 3 Lmin = 15 ms),
/// so all n write it with compare-and-swap on version 0: one UPDATED, n - 1
/// CONFLICT. 2n election messages; reads are background.
#[test]
fn the_first_election_costs_2n_election_messages() {
    for n in [1u64, 2, 3, 5, 16, 64] {
        let json = format!(r#"{{"algorithm":"lease","nodes":{n}}}"#);
        let r = run(&json);
        assert_eq!(r.messages.election, 2 * n, "{json}\n{r:?}");
        assert_eq!(r.messages.by_kind["CONFLICT"], n - 1, "{json}");
        assert_eq!(r.elections, n, "every candidate tried once\n{json}");
        assert!(r.settled && r.leader.is_some(), "{json}\n{r:?}");
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// The crashed holder's last renewal was sent at most R before the crash;
/// a candidate takes the lease once it has seen no change for L on its own
/// clock. It saw the last version at the earliest R - 2 Lmin before the
/// crash, so the new leader comes after L - R; at the latest it saw it
/// one jittered retry (2.2 R) after the crash, notices the expiry at most
/// one more jittered retry after L, and its UPDATE and UPDATED take
/// 2 Lmax: L + 2(2.2 R) + 4 Lmax in all.
#[test]
fn a_crashed_holder_is_replaced_after_one_lease_duration() {
    let crash_us = 1_000_000;
    let lo = (L_MS - R_MS) * 1000;
    let hi = (L_MS + 2 * JITTERED_R_MS + 4 * LMAX_MS) * 1000;
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"lease","nodes":5,"seed":{seed},
                "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), true);
        sim.run_to_end();
        let r = sim.summary();
        let (at, _) = first_leader_since(sim.trace(), crash_us).expect("a new leader");
        let after = at - crash_us;
        assert!(lo < after && after <= hi, "{after} us\n{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        // One acquisition after the crash: UPDATE + UPDATED, plus a
        // CONFLICT pair for each candidate that raced it.
        let cost = r.recovery_election_messages.unwrap();
        assert!(cost >= 2 && cost % 2 == 0, "{cost}\n{json}");
    }
}

#[test]
fn same_seed_same_trace_hash() {
    let template = r#"{"algorithm":"lease","nodes":6,"seed":SEED,
        "network":{"latency_ms":[1,20],"drop":0.02,"duplicate":0.02},
        "faults":[{"at_ms":500,"crash":"leader"},{"at_ms":900,"pause":2,"for_ms":1200},
                  {"at_ms":2500,"partition":[[0,1,2],[3,4,5,6,7]]},{"at_ms":3500,"heal":true},
                  {"at_ms":3600,"crash":6},{"at_ms":4000,"recover":6},{"at_ms":4100,"recover":0},
                  {"at_ms":0,"clock":4,"offset_ms":30,"drift":0.3}],
        "until_ms":6000}"#;
    let mut hashes = std::collections::BTreeSet::new();
    for seed in 1..=10 {
        let json = template.replace("SEED", &seed.to_string());
        let s = scenario(&json);
        let mut a = algorithms::build(&s, true);
        let mut b = algorithms::build(&s, true);
        a.run_to_end();
        b.run_to_end();
        assert_eq!(
            serde_json::to_string(a.trace()).unwrap(),
            serde_json::to_string(b.trace()).unwrap(),
            "{json}"
        );
        let ra = a.summary();
        assert_eq!(ra, b.summary(), "{json}");
        assert_eq!(ra, run(&json), "recording changes nothing\n{json}");
        hashes.insert(ra.trace_hash);
    }
    assert!(hashes.len() >= 9, "seeds barely matter: {hashes:?}");
}

/// Runs a scenario file with fencing as given and with fencing flipped.
fn with_and_without_fencing(name: &str) -> [(String, RunSummary); 2] {
    let json = file(name);
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["fencing"] = serde_json::Value::Bool(false);
    let unfenced = serde_json::to_string_pretty(&value).unwrap();
    [
        (json.clone(), run(&json)),
        (unfenced.clone(), run(&unfenced)),
    ]
}

/// scenarios/lease-drift.json: n0 holds the lease; n1's clock runs twice
/// as fast. At 1000 ms n0 loses the service for a second. n0 keeps
/// leading until its renew deadline, 1000 ms (R + D) after its last good
/// renewal by its true clock; n1 sees the Lease unchanged for L = 1000 ms
/// by its clock after only 500 true ms and takes it (transitions 2).
/// Both believe they hold it (lease_overlap) for about 260 ms, in which
/// n0 sends two writes with token 1 after n1's token 2 reached the
/// resource: rejected with fencing, applied and reported without.
#[test]
fn lease_drift_a_fast_follower_clock_overlaps_and_fencing_contains_it() {
    let [(fenced, r), (unfenced, u)] = with_and_without_fencing("lease-drift.json");
    assert_eq!(overlaps(&r), vec![vec![0, 1]], "{fenced}\n{r:?}");
    let detail = &r.violations[0].detail;
    assert!(
        detail.contains("both believe they hold the lease"),
        "{detail}"
    );
    assert_eq!(r.writes.stale_accepted, 0, "{fenced}\n{r:?}");
    assert_eq!(r.writes.rejected, 2, "{fenced}\n{r:?}");
    assert_eq!(r.leader, Some(1), "{fenced}");
    assert_eq!(overlaps(&u), vec![vec![0, 1]], "{unfenced}\n{u:?}");
    assert_eq!(u.writes.stale_accepted, 2, "{unfenced}\n{u:?}");
    assert!(
        u.violations
            .iter()
            .any(|v| v.property == "stale_write_accepted"),
        "{unfenced}\n{u:?}"
    );
}

/// scenarios/lease-gc-pause.json: the holder n0 pauses for 1500 ms,
/// longer than the lease. A follower takes the lease after L of silence
/// while n0, paused, still believes it holds it (lease_overlap). On resume
/// n0's overdue timers fire together: its write (token 1) goes out and its
/// renewal starts a fresh renew cycle; only the CONFLICT answer, one round
/// trip later, ends its belief. The one stale write is rejected with
/// fencing and applied without.
#[test]
fn lease_gc_pause_the_resumed_holder_writes_once_and_fencing_contains_it() {
    let [(fenced, r), (unfenced, u)] = with_and_without_fencing("lease-gc-pause.json");
    let o = overlaps(&r);
    assert!(o.len() == 1 && o[0][0] == 0, "{fenced}\n{r:?}");
    assert_eq!(r.writes.stale_accepted, 0, "{fenced}\n{r:?}");
    assert_eq!(r.writes.rejected, 1, "{fenced}\n{r:?}");
    assert_eq!(overlaps(&u), o, "{unfenced}\n{u:?}");
    assert_eq!(u.writes.stale_accepted, 1, "{unfenced}\n{u:?}");
    assert!(
        u.violations
            .iter()
            .any(|v| v.property == "stale_write_accepted"),
        "{unfenced}\n{u:?}"
    );
    assert_eq!(r.leaders.len(), 1, "n0 stepped down\n{r:?}");
}

/// Expiry is judged on how long the candidate has seen the Lease
/// unchanged, by its own clock, as client-go does: a clock that is merely
/// set wrong (an offset, however large) changes nothing; only its rate
/// matters. The drift scenario with n1's clock 5 s ahead instead of fast:
/// no overlap, no stale write, and nobody else takes the Lease during the
/// one-second cut.
#[test]
fn a_clock_offset_alone_changes_nothing() {
    let json = file("lease-drift.json").replace(r#""drift": 1.0"#, r#""offset_ms": 5000"#);
    assert!(json.contains("5000"), "{json}");
    let r = run(&json);
    assert!(overlaps(&r).is_empty(), "{json}\n{r:?}");
    assert_eq!(
        r.writes.rejected + r.writes.stale_accepted,
        0,
        "{json}\n{r:?}"
    );
    // Nobody saw the Lease unchanged for a whole L before the cut healed;
    // n0 gave up at its deadline and took its own Lease back afterwards.
    assert_eq!(r.leader, Some(0), "{json}\n{r:?}");
    assert!(r.violations.is_empty(), "{json}\n{r:?}");
}

/// With true clocks a holder cut off from the service stops leading R + D
/// = L after it sent its last good renewal, before any candidate (which
/// saw that renewal only after it reached the service) can see the Lease
/// unchanged for L: no overlap, a new holder on the service's side, and
/// after the heal the old holder follows it.
#[test]
fn a_holder_cut_off_from_the_service_gives_way_without_overlap() {
    for seed in 1..=10 {
        let n = 5u32;
        let probe = format!(r#"{{"algorithm":"lease","nodes":{n},"seed":{seed}}}"#);
        let mut sim = algorithms::build(&scenario(&probe), false);
        sim.run_until(900_000);
        let old = sim.leaders()[0];
        let rest: Vec<u32> = (0..n + 2).filter(|&i| i != old).collect();
        let json = format!(
            r#"{{"algorithm":"lease","nodes":{n},"seed":{seed},
                "faults":[{{"at_ms":1000,"partition":[[{old}],{rest:?}]}},{{"at_ms":4000,"heal":true}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until((1000 + L_MS) * 1000);
        assert!(!sim.leaders().contains(&old), "n{old} gave up\n{json}");
        sim.run_until(3_999_000);
        let during = sim.leaders().to_vec();
        assert!(during.len() == 1 && during[0] != old, "{during:?}\n{json}");
        sim.run_to_end();
        let r = sim.summary();
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
        assert!(r.settled && r.leaders == during, "{json}\n{r:?}");
    }
}

/// With the service (API server) down nobody can renew or acquire: the
/// holder gives up by L after the crash (its last good renewal was sent
/// before it) and nobody leads until the service is back with its
/// replicated Lease. Then the Lease has been unchanged for longer than L
/// on every clock, and the first candidate to read it takes it, within
/// one jittered retry and two round trips.
#[test]
fn with_the_service_down_nobody_leads_until_it_recovers() {
    let (down_ms, up_ms) = (1000u64, 4000u64);
    for seed in 1..=10 {
        let n = 5;
        let json = format!(
            r#"{{"algorithm":"lease","nodes":{n},"seed":{seed},
                "faults":[{{"at_ms":{down_ms},"crash":{n}}},{{"at_ms":{up_ms},"recover":{n}}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        let quiet_from = (down_ms + L_MS) * 1000;
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
        assert!(r.settled && r.leader.is_some(), "{json}\n{r:?}");
        let bound = (JITTERED_R_MS + 4 * LMAX_MS) as f64;
        assert!(r.recovery_ms.unwrap() <= bound, "{json}\n{r:?}");
        assert!(r.violations.is_empty(), "{json}\n{r:?}");
    }
}
