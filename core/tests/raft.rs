//! Raft leader election against its published figures and rules.
//!
//! - Raft paper (Ongaro & Ousterhout, USENIX ATC 2014), 5.2: a candidate
//!   sends RequestVote to the n-1 others and each answers once, so a term
//!   with all servers up and no competitor costs exactly 2(n-1) election
//!   messages.
//! - Ongaro's dissertation (Stanford 2014), 9.3 "How common are split
//!   votes?": the split-vote rate with a fixed one-way latency `l` (as a
//!   fraction of the timeout range) is `P(D_{c,s} <= l) = sum_{k=c-1}^{s}
//!   C(s,k) l^k (1-l)^(s-k)` with `c = s - floor(n/2) + 1`.
//! - Raft paper figure 16 (and dissertation 9.4): time to replace a
//!   crashed leader for timeout ranges 150-150 ... 150-300 ms.
//! - Dissertation 6.2 (check-quorum), 6.4.1 (leader lease), 9.6 (pre-vote).
//!
//! Every failing assertion prints the scenario JSON that reproduces it.

use election_core::ScenarioExt;
use election_core::algorithms;
use election_core::protocol::Role;
use election_core::sim::{self, RunSummary, Simulation};
use election_core::trace::{Event, TraceEvent};
use election_core::{Scenario, time::ms};
use std::path::Path;

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// A scenario file under the repository's `scenarios/`.
fn file(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    scenario(&text)
}

fn with_seed(s: &Scenario, seed: u64) -> Scenario {
    let mut s = s.clone();
    s.seed = seed;
    s
}

fn recorded(s: &Scenario) -> Box<dyn Simulation> {
    let mut sim = algorithms::build(s, true);
    sim.run_to_end();
    sim
}

/// Role announcements (time, node, role, term) in a recorded run.
fn roles(trace: &[TraceEvent]) -> Vec<(u64, u32, Role, u64)> {
    trace
        .iter()
        .filter_map(|e| match e.event {
            Event::Role { node, role, term } => Some((e.at_us, node, role, term.unwrap_or(0))),
            _ => None,
        })
        .collect()
}

/// Terms of the participants right now.
fn terms(sim: &dyn Simulation) -> Vec<u64> {
    let n = sim.scenario().nodes as usize;
    sim.node_views()[..n]
        .iter()
        .map(|v| v.term.unwrap_or(0))
        .collect()
}

fn field(sim: &dyn Simulation, node: u32, key: &str) -> String {
    sim.inspect(node)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("n{node} has no field {key:?}"))
}

#[test]
fn one_term_with_all_servers_up_costs_2_n_minus_1() {
    // Raft paper 5.2: the candidate sends n-1 REQUEST_VOTE, every other
    // server answers one VOTE. The initiator's first timeout is immediate
    // (`start: [k]`); the others' timeouts are at least 150 ms while every
    // request arrives within 10 ms and resets them, so no one else
    // competes: the count is exact, not an average.
    for n in [3u64, 5, 7, 9] {
        for k in [0, n - 1] {
            let json = format!(r#"{{"algorithm":"raft","nodes":{n},"start":[{k}]}}"#);
            let r = sim::run(&scenario(&json));
            assert_eq!(r.messages.by_kind["REQUEST_VOTE"], n - 1, "{json}");
            assert_eq!(r.messages.by_kind["VOTE"], n - 1, "{json}");
            assert_eq!(r.messages.election, 2 * (n - 1), "{json}");
            assert_eq!(r.elections, 1, "{json}");
            assert_eq!(r.leader, Some(k as u32), "{json}");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
        // Pre-vote (dissertation 9.6) adds one round of the same shape:
        // n-1 PRE_VOTE and n-1 PRE_VOTE_REPLY.
        let json = format!(r#"{{"algorithm":"raft","nodes":{n},"start":[0],"pre_vote":true}}"#);
        let r = sim::run(&scenario(&json));
        assert_eq!(r.messages.by_kind["PRE_VOTE"], n - 1, "{json}");
        assert_eq!(r.messages.by_kind["PRE_VOTE_REPLY"], n - 1, "{json}");
        assert_eq!(r.messages.election, 4 * (n - 1), "{json}");
        assert_eq!(r.leader, Some(0), "{json}");
    }
}

/// Dissertation 9.3: `Pr(D_{c,s} <= l) = sum_{k=c-1}^{s} C(s,k) l^k
/// (1-l)^(s-k)`, the probability that the c-th of s uniform timeouts falls
/// within `l` of the first, with `c = s - floor(n/2) + 1` (the earliest
/// server gets its own vote plus those of the s - c servers that time out
/// at least `l` after it; it needs floor(n/2) + 1).
fn split_vote_formula(n: u32, s: u32, l: f64) -> f64 {
    let c = s - n / 2 + 1;
    let choose =
        |n: u32, k: u32| (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
    (c - 1..=s)
        .map(|k| choose(s, k) * l.powi(k as i32) * (1.0 - l).powi((s - k) as i32))
        .sum()
}

#[test]
fn split_vote_rate_matches_dissertation_9_3() {
    // The formula's model (dissertation 9.3, "split vote rate with fixed
    // latency"): every server starts its timer at the same moment (a cold
    // start, `start: none`), timeouts are uniform over the range, every
    // message takes exactly `l`, and a server that has already timed out
    // votes for itself. The simulation matches it: the first candidate's
    // REQUEST_VOTE reaches everyone after exactly one latency, servers that
    // timed out before that refuse (they voted for themselves in the same
    // term 1), the others grant. Timeouts 300-400 ms (range R = 100 ms),
    // latency d = l x R; a split candidate's next timeout comes at least
    // 300 ms after its first, so "no leader before 599 ms" is exactly "no
    // leader in term 1". With n = 5 and s = 5 servers up, c = 4: the
    // dissertation's figure 9.x; with one server down from the start (s =
    // 4, c = 3) its worked example: 5.2% at l = 0.1 and 18.1% at l = 0.2.
    const SEEDS: u64 = 10_000;
    let mut lines = vec!["servers up   l     measured   formula".to_string()];
    for (s, faults) in [(5u32, "[]"), (4, r#"[{"at_ms":0,"crash":4}]"#)] {
        for d in [10u64, 20, 30] {
            let l = d as f64 / 100.0;
            let json = format!(
                r#"{{"algorithm":"raft","nodes":5,"start":"none","network":{{"latency_ms":[{d},{d}]}},"timing":{{"election_timeout_ms":[300,400]}},"faults":{faults},"until_ms":599}}"#
            );
            let base = scenario(&json);
            let split = (1..=SEEDS)
                .filter(|&seed| sim::run(&with_seed(&base, seed)).first_leader_ms.is_none())
                .count();
            let measured = split as f64 / SEEDS as f64;
            let formula = split_vote_formula(5, s, l);
            lines.push(format!(
                "{s}            {l:.1}   {:6.2}%    {:6.2}%",
                measured * 100.0,
                formula * 100.0
            ));
            assert!(
                (measured - formula).abs() < 0.01,
                "s={s} l={l}: measured {measured:.4} over seeds 1..={SEEDS}, formula {formula:.4}\n{json}"
            );
        }
    }
    println!("{}", lines.join("\n"));
    // The dissertation's own numbers for its example (s = 4 of n = 5).
    assert!((split_vote_formula(5, 4, 0.01) - 0.0006).abs() < 0.0001);
    assert!((split_vote_formula(5, 4, 0.1) - 0.052).abs() < 0.001);
    assert!((split_vote_formula(5, 4, 0.2) - 0.181).abs() < 0.001);
}

/// Nearest-rank percentile of a sorted sample (`inf` = never recovered).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn show(ms: f64) -> String {
    if ms.is_finite() {
        format!("{ms:.0}")
    } else {
        "never".to_string()
    }
}

/// `recovery_ms` of seeds `1..=seeds` (infinite where the run never
/// settled), on every core: the 150-150 runs go the full 60 s.
fn recovery_times(base: &Scenario, seeds: u64) -> Vec<f64> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    (1..=seeds)
                        .filter(|seed| seed % threads == w)
                        .map(|seed| {
                            let r = sim::run(&with_seed(base, seed));
                            assert!(
                                r.violations.is_empty(),
                                "seed {seed}: {:?}\n{}",
                                r.violations,
                                base.to_json_pretty()
                            );
                            r.recovery_ms.unwrap_or(f64::INFINITY)
                        })
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    })
}

#[test]
fn figure_16_more_randomness_replaces_a_crashed_leader_sooner() {
    // Raft paper figure 16 (top) / dissertation 9.4: five servers, the
    // leader crashes after a stable period, heartbeats every half minimum
    // timeout (75 ms); time from the crash until every live server follows
    // the new leader (`recovery_ms`). Paper: with 150-150 ms elections
    // "consistently took longer than 10 seconds" (many split votes); 5 ms of
    // randomness gave a median of 287 ms; with 150-200 ms the worst of 1000
    // trials was 513 ms. Reproduce: `election sweep --scenario
    // scenarios/raft-fig16-150-300.json --seeds 1..1000 --json` per range.
    const SEEDS: u64 = 1000;
    let ranges = [150u64, 151, 155, 175, 200, 300];
    let mut table = vec![format!(
        "{:<12}{:>8}{:>8}{:>8}{:>8}{:>8}  {}",
        "timeout ms", "p50", "p90", "p99", "max", "mean", "never (of runs)"
    )];
    let mut rows = Vec::new();
    for hi in ranges {
        let base = file(&format!("raft-fig16-150-{hi}.json"));
        // The paper ran 100 trials of 150-150 (the runs that never settle
        // go the full 60 s); 1000 of every other range.
        let mut times = recovery_times(&base, if hi == 150 { 100 } else { SEEDS });
        times.sort_by(f64::total_cmp);
        let never = times.iter().filter(|t| t.is_infinite()).count();
        let finite: Vec<f64> = times.iter().copied().filter(|t| t.is_finite()).collect();
        let mean = finite.iter().sum::<f64>() / finite.len().max(1) as f64;
        let row = [0.5, 0.9, 0.99, 1.0].map(|p| percentile(&times, p));
        table.push(
            format!(
                "150-{hi:<8}{:>8}{:>8}{:>8}{:>8}{:>8}  {never}",
                show(row[0]),
                show(row[1]),
                show(row[2]),
                show(row[3]),
                show(mean),
            ) + format!(" of {}", times.len()).as_str(),
        );
        rows.push((hi, row));
    }
    println!("{}", table.join("\n"));
    // The curves keep their order in the tail: more randomness, shorter
    // p99 and worst case. (In the body 150-300 sits right of 150-200: with
    // little risk of a split vote, the first of the four timeouts decides,
    // and it comes later on average the wider the range: 150 + R/5 ms.)
    for pair in rows.windows(2) {
        let ((lo, a), (hi, b)) = (pair[0], pair[1]);
        for (i, name) in [(2, "p99"), (3, "max")] {
            assert!(
                b[i] <= a[i],
                "150-{hi} {name} {} should not exceed 150-{lo} {name} {}",
                b[i],
                a[i]
            );
        }
    }
    // Headline: no randomness -> the median election takes over 10 s;
    // 150-300 ms -> every election within a few hundred ms.
    assert!(rows[0].1[0] > 10_000.0, "150-150 median {:?}", rows[0].1);
    assert!(rows[5].1[3] < 500.0, "150-300 worst case {:?}", rows[5].1);
}

#[test]
fn minority_never_elects_and_the_stale_leader_steps_down_after_heal() {
    // scenarios/raft-minority.json: n0 leads, then is cut off with n1 (2 of
    // 5) from 1000 to 5000 ms. The 3 side elects a leader of a higher term;
    // n0 keeps its stale role (no check-quorum) but commits nothing, and no
    // other node of the 2 side ever leads; after the heal n0 sees the higher
    // term and steps down. One leader per term throughout. Raft reports no
    // `split_brain` (consensus safety is one leader per term), but the time
    // with two nodes in the leader role is measured.
    let base = file("raft-minority.json");
    for seed in 1..=10 {
        let s = with_seed(&base, seed);
        let json = s.to_json_pretty();
        let mut sim = algorithms::build(&s, true);
        sim.run_until(ms(1000));
        assert_eq!(sim.leaders(), &[0], "seed {seed}\n{json}");
        let commit_before = field(sim.as_ref(), 0, "commit index");
        sim.run_until(ms(4999));
        assert_eq!(
            field(sim.as_ref(), 0, "commit index"),
            commit_before,
            "the stale leader commits nothing; seed {seed}\n{json}"
        );
        sim.run_to_end();
        let r = sim.summary();
        let events = roles(sim.trace());
        let partitioned = |t: u64| t > ms(1000) && t < ms(5000);
        let minority_leads = events
            .iter()
            .any(|&(t, node, role, _)| partitioned(t) && node < 2 && role == Role::Leader);
        assert!(!minority_leads, "seed {seed}: {events:?}\n{json}");
        let majority_leader = events
            .iter()
            .find(|&&(t, node, role, _)| partitioned(t) && node >= 2 && role == Role::Leader);
        let &(_, new_leader, _, new_term) =
            majority_leader.unwrap_or_else(|| panic!("seed {seed}: the 3 side elects\n{json}"));
        assert!(new_term > 1, "seed {seed}");
        let stepped_down = events.iter().any(|&(t, node, role, term)| {
            t >= ms(5000) && node == 0 && role == Role::Follower && term >= new_term
        });
        assert!(
            stepped_down,
            "seed {seed}: n0 steps down after heal\n{json}"
        );
        assert_eq!(r.leaders.len(), 1, "seed {seed}: {r:?}\n{json}");
        assert!(r.leaders[0] >= 2, "seed {seed}: {new_leader} {r:?}\n{json}");
        assert!(
            r.violations.is_empty(),
            "seed {seed}: {:?}\n{json}",
            r.violations
        );
        assert!(r.split_brain_ms > 3000.0, "seed {seed}: {r:?}");
        assert!(r.settled, "seed {seed}");
    }
}

#[test]
fn a_minority_without_the_leader_never_elects_however_long() {
    // The leader's side keeps 3 of 5; n3 and n4 run election after
    // election for 20 s (their terms climb) and never get 3 votes. After
    // the heal their higher term forces a new election (no pre-vote), which
    // only an up-to-date server of the majority can win (5.4.1): one leader.
    for seed in 1..=5 {
        let json = format!(
            r#"{{"algorithm":"raft","nodes":5,"seed":{seed},"start":[0],
               "faults":[{{"at_ms":1000,"partition":[[0,1,2,5],[3,4]]}},{{"at_ms":21000,"heal":true}}],
               "until_ms":23000}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), true);
        sim.run_until(ms(20_999));
        let t = terms(sim.as_ref());
        assert!(t[3] > 10 && t[4] > 10, "terms {t:?}\n{json}");
        assert!(
            t[0] < 5,
            "the majority's leader is untouched: {t:?}\n{json}"
        );
        sim.run_to_end();
        let r = sim.summary();
        let minority_led = roles(sim.trace())
            .iter()
            .any(|&(t, node, role, _)| t < ms(21_000) && node >= 3 && role == Role::Leader);
        assert!(!minority_led, "{json}");
        assert_eq!(r.leaders.len(), 1, "{r:?}\n{json}");
        assert!(
            r.leaders[0] <= 2,
            "the stale logs of n3, n4 lose: {r:?}\n{json}"
        );
        assert!(r.violations.is_empty() && r.settled, "{r:?}\n{json}");
    }
}

#[test]
fn fencing_rejects_a_paused_leaders_stale_writes() {
    // scenarios/raft-pause-fenced.json: the leader pauses for 1000 ms (far
    // beyond the 150-300 ms timeout); the others elect a leader of a higher
    // term, which writes with its term as token. When the old leader
    // resumes, its overdue write timer fires before it hears the new term:
    // it writes with its old token. Fencing rejects it; without fencing the
    // resource applies it and the checker reports `stale_write_accepted`.
    let base = file("raft-pause-fenced.json");
    for seed in 1..=10 {
        let s = with_seed(&base, seed);
        let r = sim::run(&s);
        let json = s.to_json_pretty();
        assert!(r.writes.rejected > 0, "seed {seed}: {r:?}\n{json}");
        assert_eq!(r.writes.stale_accepted, 0, "seed {seed}\n{json}");
        assert!(
            r.violations.is_empty(),
            "seed {seed}: {:?}\n{json}",
            r.violations
        );
        assert_eq!(r.leader_changes, 1, "seed {seed}\n{json}");

        let mut open = s.clone();
        open.options.fencing = false;
        let r = sim::run(&open);
        let json = open.to_json_pretty();
        assert_eq!(r.writes.rejected, 0, "seed {seed}\n{json}");
        assert!(r.writes.stale_accepted > 0, "seed {seed}: {r:?}\n{json}");
        assert!(
            r.violations
                .iter()
                .any(|v| v.property == "stale_write_accepted"),
            "seed {seed}: {:?}\n{json}",
            r.violations
        );
    }
}

fn lease_overlaps(s: &Scenario) -> bool {
    sim::run(s)
        .violations
        .iter()
        .any(|v| v.property == "lease_overlap")
}

#[test]
fn leader_lease_breaks_when_the_clock_drifts_beyond_the_bound() {
    // scenarios/raft-lease-drift.json (dissertation 6.4.1): n0's clock runs
    // at half speed (drift -0.5, the bound is 0.01), then n0 is cut off at
    // 1000 ms. Its lease, 150 x 0.99 ms on its own clock, lasts about 297 ms
    // of real time; the others time out after 150-300 ms, elect n-something
    // and it takes a lease too while n0 still believes in its own:
    // `lease_overlap`. With a drift inside the bound (-0.005) the lease
    // runs out before any follower can time out: never an overlap.
    let base = file("raft-lease-drift.json");
    for seed in 1..=20 {
        let s = with_seed(&base, seed);
        assert!(lease_overlaps(&s), "seed {seed}\n{}", s.to_json_pretty());
        let r = sim::run(&s);
        assert!(
            r.violations.iter().all(|v| v.property == "lease_overlap"),
            "seed {seed}: {:?}",
            r.violations
        );
    }
    let within = base.to_json_pretty().replace("-0.5", "-0.005");
    let within = scenario(&within);
    assert_eq!(within.faults.len(), base.faults.len());
    for seed in 1..=50 {
        let s = with_seed(&within, seed);
        assert!(!lease_overlaps(&s), "seed {seed}\n{}", s.to_json_pretty());
    }
    // Without the lease option nobody claims a lease at all.
    let mut off = base.clone();
    off.options.leader_lease = false;
    assert!(!lease_overlaps(&off));
}

#[test]
fn leader_lease_breaks_when_the_leader_pauses_past_it() {
    // A pause is the other way to outlive a lease: the paused leader cannot
    // look at its clock, so it still believes in its lease while the others
    // elect a successor that takes its own.
    let mut s = file("raft-pause-fenced.json");
    s.options.leader_lease = true;
    for seed in 1..=10 {
        let s = with_seed(&s, seed);
        assert!(lease_overlaps(&s), "seed {seed}\n{}", s.to_json_pretty());
    }
    // No pause, no drift: the lease is never shared.
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"raft","nodes":5,"seed":{seed},"leader_lease":true,
               "faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        assert!(!lease_overlaps(&scenario(&json)), "{json}");
    }
}

#[test]
fn pre_vote_keeps_a_rejoining_server_from_disrupting_the_cluster() {
    // Dissertation 9.6. n4 is cut off alone from 1000 to 3000 ms. Without
    // pre-vote it runs one election after another, its term climbs, and on
    // its return the higher term forces the leader to step down: terms rise
    // on every server. With pre-vote it never wins a pre-vote, keeps its
    // term, and simply follows the leader again.
    let run = |pre_vote: bool| {
        let json = format!(
            r#"{{"algorithm":"raft","nodes":5,"seed":3,"start":[0],"pre_vote":{pre_vote},
               "faults":[{{"at_ms":1000,"partition":[[4],[0,1,2,3,5]]}},{{"at_ms":3000,"heal":true}}],
               "until_ms":4000}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until(ms(2999));
        let before = terms(sim.as_ref());
        sim.run_to_end();
        let after = terms(sim.as_ref());
        let r = sim.summary();
        (before, after, r, json)
    };
    let (before, after, r, json) = run(true);
    println!("pre_vote on:  terms before heal {before:?}, after {after:?}");
    assert_eq!(before, vec![1; 5], "{json}");
    assert_eq!(after, vec![1; 5], "{json}");
    assert_eq!(r.leader, Some(0), "{json}");
    assert_eq!((r.leader_changes, r.elections), (0, 1), "{json}");

    let (before, after, r, json) = run(false);
    println!("pre_vote off: terms before heal {before:?}, after {after:?}");
    assert_eq!(&before[..4], &[1; 4], "{json}");
    assert!(
        before[4] > 3,
        "the lone server's term climbs: {before:?}\n{json}"
    );
    assert!(
        after[..4].iter().all(|&t| t > before[4]),
        "the whole cluster moves past the returning server's term: {after:?}\n{json}"
    );
    assert!(
        r.elections > 2 && r.leader.is_some() && r.settled,
        "{r:?}\n{json}"
    );
    assert!(r.violations.is_empty(), "{json}");
}

#[test]
fn check_quorum_makes_a_cut_off_leader_step_down() {
    // Dissertation 6.2: a leader that has not heard from a majority within
    // an election timeout steps down. n0 leads and is cut off alone at
    // 1000 ms; it checks at every heartbeat (50 ms) whether a majority
    // answered within the minimum timeout (150 ms), so it steps down by
    // 1000 + 150 + 50 ms, within one (maximum, 300 ms) election timeout.
    let run = |check_quorum: bool| {
        let json = format!(
            r#"{{"algorithm":"raft","nodes":5,"start":[0],"check_quorum":{check_quorum},
               "faults":[{{"at_ms":1000,"partition":[[0],[1,2,3,4,5]]}}],"until_ms":3000}}"#
        );
        let sim = recorded(&scenario(&json));
        let down = roles(sim.trace())
            .into_iter()
            .find(|&(t, node, role, _)| t > ms(1000) && node == 0 && role != Role::Leader)
            .map(|(t, ..)| t);
        (down, sim.leaders().to_vec(), json)
    };
    let (down, leaders, json) = run(true);
    let down = down.unwrap_or_else(|| panic!("n0 never stepped down\n{json}"));
    assert!(down <= ms(1300), "stepped down at {down} us\n{json}");
    assert!(!leaders.contains(&0), "{leaders:?}\n{json}");
    let (down, leaders, json) = run(false);
    assert_eq!(down, None, "{json}");
    assert!(
        leaders.contains(&0),
        "the stale leader stays: {leaders:?}\n{json}"
    );
}

#[test]
fn a_crashed_leader_is_replaced() {
    for seed in 1..=20 {
        let json = format!(
            r#"{{"algorithm":"raft","nodes":5,"seed":{seed},"faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
        );
        let s = scenario(&json);
        let mut sim = algorithms::build(&s, false);
        sim.run_until(ms(999));
        let old = sim.leaders().to_vec();
        assert_eq!(old.len(), 1, "{json}");
        sim.run_to_end();
        let r: RunSummary = sim.summary();
        assert!(r.settled && r.violations.is_empty(), "{r:?}\n{json}");
        assert_eq!(r.leaders.len(), 1, "{json}");
        assert_ne!(r.leaders, old, "{json}");
        // Each election after the crash costs at least one full term.
        assert!(
            r.recovery_election_messages.unwrap() >= 2 * 3,
            "{r:?}\n{json}"
        );
    }
}

#[test]
fn same_seed_same_trace() {
    for name in [
        "raft-minority.json",
        "raft-lease-drift.json",
        "raft-pause-fenced.json",
        "raft-fig16-150-300.json",
    ] {
        let s = file(name);
        let a = sim::run(&s);
        let b = sim::run(&s);
        assert_eq!(a.trace_hash, b.trace_hash, "{name}");
        let other = sim::run(&with_seed(&s, s.seed + 1));
        assert_ne!(a.trace_hash, other.trace_hash, "{name}");
        // Recording the trace does not change the run.
        let rec = recorded(&s).summary();
        assert_eq!(rec.trace_hash, a.trace_hash, "{name}");
    }
}

/// A small deterministic generator for the fault schedules below.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

#[test]
fn random_faults_never_break_one_leader_per_term() {
    // Crashes, recoveries, pauses, partitions, slow clocks, lost and
    // duplicated messages, with random options: whatever happens, at most
    // one leader per term, one vote per server per term, terms never go
    // back, and fenced writes are never stale. Once everything is healed
    // (and messages are no longer lost) a single leader emerges.
    for seed in 1..=1000u64 {
        let mut r = Lcg(seed);
        let n = 3 + 2 * r.below(2); // 3 or 5
        let mut faults = Vec::new();
        let mut t = 0;
        for _ in 0..8 {
            t += 100 + r.below(500);
            let node = r.below(n);
            faults.push(match r.below(6) {
                0 => format!(r#"{{"at_ms":{t},"crash":"leader"}}"#),
                1 => format!(r#"{{"at_ms":{t},"recover":{node}}}"#),
                2 => format!(
                    r#"{{"at_ms":{t},"pause":"leader","for_ms":{}}}"#,
                    100 + r.below(600)
                ),
                3 => format!(
                    r#"{{"at_ms":{t},"partition":[[{node}],[{}]]}}"#,
                    (node + 1) % n
                ),
                4 => format!(r#"{{"at_ms":{t},"clock":{node},"offset_ms":0,"drift":0.2}}"#),
                _ => format!(r#"{{"at_ms":{t},"heal":true}}"#),
            });
        }
        // Then everything comes back: network, clocks, servers.
        t += 500;
        faults.push(format!(r#"{{"at_ms":{t},"heal":true}}"#));
        faults.push(format!(
            r#"{{"at_ms":{t},"network":{{"latency_ms":[1,15]}}}}"#
        ));
        for id in 0..n {
            faults.push(format!(r#"{{"at_ms":{t},"recover":{id}}}"#));
            faults.push(format!(
                r#"{{"at_ms":{t},"clock":{id},"offset_ms":0,"drift":0}}"#
            ));
        }
        let flag = |r: &mut Lcg| r.below(2) == 1;
        let (pre_vote, check_quorum) = (flag(&mut r), flag(&mut r));
        let json = format!(
            r#"{{"algorithm":"raft","nodes":{n},"seed":{seed},"start":"none",
               "pre_vote":{pre_vote},"check_quorum":{check_quorum},
               "network":{{"latency_ms":[1,15],"drop":0.05,"duplicate":0.05}},
               "faults":[{}],"until_ms":{}}}"#,
            faults.join(","),
            t + 5000
        );
        let r = sim::run(&scenario(&json));
        assert!(r.violations.is_empty(), "{:?}\n{json}", r.violations);
        assert!(r.settled && r.leader.is_some(), "{r:?}\n{json}");
    }
}

#[test]
fn the_resource_is_a_service_from_the_start_and_while_crashed() {
    // Issue 29: the fenced resource (n8 with `nodes=8`) announces its
    // role only when its start event runs, so a page at 0 ms drew it as a
    // follower disc, and a crashed one fell back to follower too. What an
    // extra node is never changes: a service, from the first moment.
    let s = scenario(
        r#"{"algorithm":"raft","nodes":8,"seed":1,
            "faults":[{"at_ms":100,"crash":8},{"at_ms":200,"recover":8}],"until_ms":300}"#,
    );
    let mut sim = algorithms::build(&s, false);
    let resource = |sim: &dyn Simulation| {
        let v = &sim.node_views()[8];
        (v.alive, v.role)
    };
    assert_eq!(
        resource(sim.as_ref()),
        (true, Role::Service),
        "before any event"
    );
    sim.run_until(ms(50));
    assert_eq!(resource(sim.as_ref()), (true, Role::Service));
    sim.run_until(ms(150));
    assert_eq!(resource(sim.as_ref()), (false, Role::Service), "crashed");
    sim.run_until(ms(250));
    assert_eq!(resource(sim.as_ref()), (true, Role::Service), "recovered");
    // The participants start as followers, as before.
    assert!(
        algorithms::build(&s, false).node_views()[..8]
            .iter()
            .all(|v| v.role == Role::Follower)
    );
}
