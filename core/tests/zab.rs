//! ZooKeeper's Fast Leader Election and Zab's epoch establishment
//! (Apache ZooKeeper `FastLeaderElection.java`; Junqueira, Reed, Serafini,
//! "Zab", DSN 2011; Medeiros 2012) on whole scenarios: exact message counts
//! next to the rule they come from, the vote order (epoch, zxid, id),
//! epochs as terms, a minority that never elects, and fencing by epoch.
//!
//! Default timing: latency 5..=10 ms, reply timeout = finalize wait
//! W = max(4 x 10, 50) = 50 ms, failure-detection timeout 150..=300 ms
//! (T_hi = 300 ms), heartbeat 50 ms, a write every 100 ms.

use election_core::ScenarioExt;
use election_core::protocol::Role;
use election_core::trace::Event;
use election_core::{Scenario, algorithms, fuzz, sim};

const W_MS: f64 = 50.0;
const T_HI_MS: f64 = 300.0;

fn scenario(json: &str) -> Scenario {
    Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn run(json: &str) -> sim::RunSummary {
    sim::run(&scenario(json))
}

fn us(ms: u64) -> u64 {
    ms * 1000
}

fn view(sim: &dyn sim::Simulation, id: u32) -> election_core::engine::NodeView {
    sim.node_views()[id as usize].clone()
}

fn live_leaders(sim: &dyn sim::Simulation) -> Vec<u32> {
    sim.node_views()
        .iter()
        .filter(|v| v.alive && v.role == Role::Leader)
        .map(|v| v.id)
        .collect()
}

/// A node's last zxid from the inspector, as (epoch, counter).
fn last_zxid(sim: &dyn sim::Simulation, id: u32) -> (u64, u64) {
    let text = sim
        .inspect(id)
        .into_iter()
        .find(|(k, _)| k == "last zxid")
        .map(|(_, v)| v)
        .expect("servers show their last zxid");
    let (e, c) = text.split_once(':').expect("zxid is epoch:counter");
    (e.parse().unwrap(), c.parse().unwrap())
}

fn kind(sim: &dyn sim::Simulation, name: &str) -> u64 {
    let i = sim.kinds().iter().position(|k| *k == name).unwrap();
    sim.metrics().by_kind[i]
}

/// FastLeaderElection, every server starting at once with epoch 0 and zxid
/// 0, fixed latency d. Every server sends its own vote to the n-1 others:
/// n(n-1). At time d server i hears the votes of 0, 1, ..., n-1 in that
/// order (the servers started in id order) and adopts each higher one,
/// re-sending it to the n-1 others each time: (n-1-i)(n-1). At 2d no vote
/// is better than n-1, which everyone holds. Total NOTIFICATION
/// n(n-1) + (n-1) * sum_i (n-1-i) = n(n-1) + (n-1) n(n-1)/2 = n(n-1)(n+1)/2.
/// Zab discovery then costs n-1 FOLLOWERINFO, n-1 LEADERINFO, n-1 ACKEPOCH.
///
/// Timing: the top server holds a quorum at 2d (the re-sent votes) and
/// decides after the finalize wait W. For n = 3 the quorum is 2, so the
/// others decide at d + W and their FOLLOWERINFO is waiting when the top
/// decides: LEADERINFO goes out at 2d + W and the ACKEPOCH that establishes
/// it arrives at 4d + W. For n >= 5 the others also decide at 2d + W:
/// established at 5d + W.
#[test]
fn all_start_together_the_highest_id_wins_with_n_n_minus_1_n_plus_1_over_2_notifications() {
    for d in [1u64, 5] {
        for n in [3u64, 5, 7] {
            let json = format!(
                r#"{{"algorithm":"zab","nodes":{n},"start":"all","network":{{"latency_ms":[{d},{d}]}}}}"#
            );
            let r = run(&json);
            let k = &r.messages.by_kind;
            assert_eq!(k["NOTIFICATION"], n * (n - 1) * (n + 1) / 2, "{json}");
            assert_eq!(k["FOLLOWERINFO"], n - 1, "{json}");
            assert_eq!(k["LEADERINFO"], n - 1, "{json}");
            assert_eq!(k["ACKEPOCH"], n - 1, "{json}");
            assert_eq!(
                r.messages.election,
                n * (n - 1) * (n + 1) / 2 + 3 * (n - 1),
                "{json}"
            );
            assert_eq!(r.leader, Some(n as u32 - 1), "{json}");
            assert_eq!(r.elections, n, "every server looked once\n{json}");
            let d = d as f64;
            let established = if n == 3 {
                4.0 * d + W_MS
            } else {
                5.0 * d + W_MS
            };
            assert_eq!(r.first_leader_ms, Some(established), "{json}");
            assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        }
    }
    // The measured figures for the report: n = 3, 5, 7 send 12, 60, 168
    // NOTIFICATION and 18, 72, 186 election messages in all.
    let r = run(r#"{"algorithm":"zab","nodes":7,"network":{"latency_ms":[5,5]}}"#);
    assert_eq!(r.messages.election, 186);
}

/// FLE ranks votes by (epoch, zxid, id): a server that missed transactions
/// loses to one that has them, whatever the ids. Three servers, leader n2:
/// n1 is cut off at 1 s while n2 keeps writing with n0 (2 of 3 is a
/// quorum); each write is a transaction and the PINGs carry the zxid to n0.
/// At 2 s n2 crashes and the network heals. n1 has the higher id, n0 the
/// newer zxid; the vote (1, newer zxid, 0) beats (1, older zxid, 1), so n0
/// leads epoch 2 on every seed (the quorum of 2 needs both survivors).
#[test]
fn the_server_with_the_newest_zxid_beats_a_higher_id() {
    for seed in 1..=20u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":3,"seed":{seed},"faults":[
                {{"at_ms":1000,"partition":[[1]]}},
                {{"at_ms":2000,"crash":2}},{{"at_ms":2000,"heal":true}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        // Every PING n2 sent before its crash has arrived (latency <= 10 ms)
        // and no follower has timed out yet (>= 150 ms).
        sim.run_until(us(2010));
        let fresh = last_zxid(sim.as_ref(), 0);
        let stale = last_zxid(sim.as_ref(), 1);
        assert!(fresh > stale, "{fresh:?} vs {stale:?}\n{json}");
        assert_eq!((fresh.0, stale.0), (1, 1), "both in epoch 1\n{json}");
        sim.run_to_end();
        let r = sim.summary();
        assert_eq!(r.leader, Some(0), "{json}\n{r:?}");
        assert_eq!(view(sim.as_ref(), 0).term, Some(2), "{json}");
        assert_eq!(view(sim.as_ref(), 1).leader, Some(0), "{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// The same with five servers: n3 is cut off, leader n4 crashes. n3 has the
/// highest surviving id but the oldest zxid and never wins; the winner is
/// one of the up-to-date n0..n2 (usually n2; a server whose timeout fires
/// late can be left out of the deciding quorum, as on seed 2 where n0, n1
/// and n3 settle on n1 before n2 looks).
#[test]
fn a_stale_server_with_the_highest_id_never_wins() {
    for seed in 1..=20u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":5,"seed":{seed},"faults":[
                {{"at_ms":1000,"partition":[[3]]}},
                {{"at_ms":2000,"crash":4}},{{"at_ms":2000,"heal":true}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until(us(2010));
        let fresh = last_zxid(sim.as_ref(), 0);
        assert!(fresh > last_zxid(sim.as_ref(), 3), "{json}");
        for id in 1..=2 {
            assert_eq!(last_zxid(sim.as_ref(), id), fresh, "{json}");
        }
        sim.run_to_end();
        let r = sim.summary();
        let leader = r.leader.unwrap_or_else(|| panic!("{json}\n{r:?}"));
        assert!(leader <= 2, "n{leader} leads\n{json}");
        assert_eq!(view(sim.as_ref(), 3).leader, Some(leader), "{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// A crashed leader is replaced by a leader of a higher epoch. Bound
/// 3 T_hi = 900 ms: the followers notice within T_hi; a first decision can
/// fail (FLE lets a quorum decide for a server while a late, better vote
/// pulls one of its voters away, so the winner cannot gather its
/// FOLLOWERINFO quorum), which costs another timeout of at most T_hi; the
/// next round, its finalize wait W and the three discovery messages fit in
/// the third. Measured over seeds 1..=300: n = 3 at most 428 ms (median
/// 342), n = 5 at most 660 ms (median 370), n = 7 at most 721 ms (median
/// 377).
#[test]
fn a_crashed_leader_is_replaced_in_a_higher_epoch_within_three_timeouts() {
    for n in [3u32, 5, 7] {
        for seed in 1..=20u64 {
            let json = format!(
                r#"{{"algorithm":"zab","nodes":{n},"seed":{seed},"faults":[{{"at_ms":1000,"crash":"leader"}}]}}"#
            );
            let s = scenario(&json);
            let mut sim = algorithms::build(&s, false);
            sim.run_until(us(999));
            assert_eq!(live_leaders(sim.as_ref()), vec![n - 1], "{json}");
            let old_epoch = view(sim.as_ref(), n - 1).term.unwrap();
            assert_eq!(old_epoch, 1, "{json}");
            sim.run_to_end();
            let r = sim.summary();
            let leader = r.leader.unwrap_or_else(|| panic!("{json}\n{r:?}"));
            assert_ne!(leader, n - 1, "{json}");
            let epoch = view(sim.as_ref(), leader).term.unwrap();
            assert!(epoch > old_epoch, "epoch {epoch}\n{json}");
            for v in sim.node_views().iter().filter(|v| v.alive && v.id < n) {
                assert_eq!(
                    v.term,
                    Some(epoch),
                    "n{} promised the new epoch\n{json}",
                    v.id
                );
                assert_eq!(v.leader, Some(leader), "{json}");
            }
            assert!(r.settled, "{json}\n{r:?}");
            assert!(r.violations.is_empty(), "{json}\n{:?}", r.violations);
            let recovery = r.recovery_ms.unwrap();
            assert!(recovery <= 3.0 * T_HI_MS, "{recovery} ms\n{json}");
            assert_eq!(
                sim::run(&s).trace_hash,
                r.trace_hash,
                "same seed, same trace\n{json}"
            );
        }
    }
}

/// A recovered server (its round back at 0) learns the leader from the
/// answers of the FOLLOWING and LEADING servers (FLE's out-of-election
/// votes): its n-1 notifications, one answer from each of the n-1 others,
/// then FOLLOWERINFO, LEADERINFO and ACKEPOCH once each. It had already
/// promised epoch 1, so its ACKEPOCH is not a new vote. No one else
/// looks; the leader does not change.
#[test]
fn a_recovered_follower_joins_from_the_answers_without_an_election() {
    let n = 5u64;
    for seed in 1..=10u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":{n},"seed":{seed},"faults":[{{"at_ms":500,"crash":0}},{{"at_ms":1500,"recover":0}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), false);
        sim.run_until(us(1499));
        let before: Vec<u64> = ["NOTIFICATION", "FOLLOWERINFO", "LEADERINFO", "ACKEPOCH"]
            .iter()
            .map(|k| kind(sim.as_ref(), k))
            .collect();
        sim.run_to_end();
        let after: Vec<u64> = ["NOTIFICATION", "FOLLOWERINFO", "LEADERINFO", "ACKEPOCH"]
            .iter()
            .map(|k| kind(sim.as_ref(), k))
            .collect();
        let delta: Vec<u64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
        assert_eq!(delta, vec![2 * (n - 1), 1, 1, 1], "{json}");
        let r = sim.summary();
        assert_eq!(r.leader, Some(4), "{json}");
        assert_eq!(r.leader_changes, 0, "{json}");
        assert_eq!(r.elections, n + 1, "n initial lookups and n0's\n{json}");
        assert_eq!(view(sim.as_ref(), 0).leader, Some(4), "{json}");
        assert_eq!(view(sim.as_ref(), 0).term, Some(1), "{json}");
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
    }
}

/// Five servers split 3 + 2 with the leader n4 on the small side. n4 hears
/// no quorum of followers within the sync limit and stops leading; the
/// three elect one of themselves in epoch 2; n3 and n4 keep LOOKING and
/// never lead (FLE needs a quorum of votes, Zab a quorum of promises).
/// After the heal they learn the leader from the answers of its followers
/// and join it: one leader, the majority's.
#[test]
fn a_minority_never_elects_and_rejoins_the_majority_leader_after_the_heal() {
    for seed in 1..=10u64 {
        let json = format!(
            r#"{{"algorithm":"zab","nodes":5,"seed":{seed},"faults":[
                {{"at_ms":1000,"partition":[[0,1,2],[3,4]]}},{{"at_ms":3000,"heal":true}}]}}"#
        );
        let mut sim = algorithms::build(&scenario(&json), true);
        sim.run_until(us(2999));
        let leaders = live_leaders(sim.as_ref());
        assert_eq!(leaders.len(), 1, "{json}\n{leaders:?}");
        let leader = leaders[0];
        assert!(leader <= 2, "the majority side leads\n{json}");
        assert_eq!(view(sim.as_ref(), leader).term, Some(2), "{json}");
        for id in [3, 4] {
            assert_eq!(
                view(sim.as_ref(), id).role,
                Role::Candidate,
                "n{id}\n{json}"
            );
        }
        let minority_led = sim.trace().iter().any(|e| {
            e.at_us >= us(1000)
                && matches!(e.event, Event::Role { node, role: Role::Leader, .. } if node >= 3)
        });
        assert!(!minority_led, "{json}");
        sim.run_to_end();
        let r = sim.summary();
        assert_eq!(r.leader, Some(leader), "{json}\n{r:?}");
        for id in 0..5 {
            assert_eq!(view(sim.as_ref(), id).leader, Some(leader), "{json}");
            assert_eq!(view(sim.as_ref(), id).term, Some(2), "{json}");
        }
        assert!(r.settled && r.violations.is_empty(), "{json}\n{r:?}");
        assert!(
            r.end_ms <= 3000.0 + 4.0 * T_HI_MS,
            "a LOOKING server resends within 2 T_hi, twice at worst\n{json}\n{r:?}"
        );
    }
}

fn paused_leader(fencing: bool) -> String {
    format!(
        r#"{{"algorithm":"zab","nodes":3,"seed":1,"until_ms":3000,"fencing":{fencing},
            "faults":[{{"at_ms":1000,"pause":"leader","for_ms":1000}}]}}"#
    )
}

/// Leader n2 (epoch 1) pauses for 1 s, longer than any failure-detection
/// timeout: n0 and n1 elect n1 in epoch 2, which writes with token 2. When
/// n2 resumes it makes its overdue write with token 1 before it notices it
/// lost its followers, then stops leading: exactly one stale write. The
/// resource (node 3) rejects it with fencing and applies it without.
#[test]
fn a_paused_leaders_write_is_fenced_off_by_the_epoch() {
    let json = paused_leader(true);
    let mut sim = algorithms::build(&scenario(&json), true);
    sim.run_to_end();
    let r = sim.summary();
    assert_eq!(r.writes.rejected, 1, "{json}\n{r:?}");
    assert_eq!(r.writes.stale_accepted, 0, "{json}");
    assert!(r.violations.is_empty(), "{json}\n{:?}", r.violations);
    let rejected: Vec<(u32, u64)> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.event {
            Event::Write {
                writer,
                token,
                accepted: false,
                ..
            } => Some((writer, token)),
            _ => None,
        })
        .collect();
    assert_eq!(rejected, vec![(2, 1)], "{json}");
    assert_eq!(r.leader, Some(1), "{json}");
    assert_eq!(view(sim.as_ref(), 2).leader, Some(1), "n2 rejoined\n{json}");

    let json = paused_leader(false);
    let r = run(&json);
    assert_eq!(r.writes.rejected, 0, "{json}");
    assert_eq!(r.writes.stale_accepted, 1, "{json}\n{r:?}");
    let properties: Vec<&str> = r.violations.iter().map(|v| v.property.as_str()).collect();
    assert_eq!(properties, vec!["stale_write_accepted"], "{json}");
    assert_eq!(r.violations[0].nodes, vec![2], "{json}");
}

/// `election fuzz-faults --algorithm zab --seeds 16435..16435`. n6 leads
/// epoch 1, loses its quorum to flaky servers and a partition, and is
/// elected again for epoch 2. When n0, n2 and n5 come back LOOKING, the
/// others answer with the vote they decided on, and those named the epoch
/// the leader had at each decision: n6 itself (LEADING) and two followers
/// said epoch 1; n4, which had rejoined after a recovery from answers that
/// still carried the first election's vote, epoch 0. Answers match on
/// leader and epoch, so three agreeing answers are not a quorum of 7, the
/// three LOOKING servers are not one either, and n0 stayed LOOKING until
/// the end. Like ZooKeeper's `updateElectionVote` (ZOOKEEPER-1732), a
/// server that takes the leader's epoch answers with it: four answers name
/// (n6, epoch 2) and the LOOKING servers join.
#[test]
fn looking_servers_join_a_leader_whose_followers_decided_in_different_epochs() {
    let json = r#"{"algorithm":"zab","nodes":7,"ring":"random","seed":16435,"start":"all",
        "network":{"drop":0.0,"duplicate":0.02,"fifo":true,"latency_ms":[1,14]},
        "faults":[
            {"at_ms":361,"down_ms":100,"flaky":4,"for_ms":900,"period_ms":300},
            {"at_ms":480,"down_ms":100,"flaky":5,"for_ms":900,"period_ms":300},
            {"at_ms":968,"down_ms":100,"flaky":3,"for_ms":900,"period_ms":300},
            {"at_ms":972,"partition":[[0,1,2,3]]},
            {"at_ms":1099,"heal":true},
            {"at_ms":1279,"clock":0,"drift":0.1,"offset_ms":185},
            {"at_ms":1848,"down_ms":100,"flaky":5,"for_ms":900,"period_ms":300},
            {"at_ms":2031,"down_ms":100,"flaky":2,"for_ms":900,"period_ms":300},
            {"at_ms":2588,"crash":5},
            {"at_ms":2943,"crash":0},
            {"at_ms":3451,"cut":[1,2]},
            {"at_ms":3672,"crash":2},
            {"at_ms":4672,"heal":true},
            {"at_ms":4672,"recover":0},{"at_ms":4672,"extra_ms":0,"slow":0},{"at_ms":4672,"recover":1},{"at_ms":4672,"extra_ms":0,"slow":1},
            {"at_ms":4672,"recover":2},{"at_ms":4672,"extra_ms":0,"slow":2},{"at_ms":4672,"recover":3},{"at_ms":4672,"extra_ms":0,"slow":3},
            {"at_ms":4672,"recover":4},{"at_ms":4672,"extra_ms":0,"slow":4},{"at_ms":4672,"recover":5},{"at_ms":4672,"extra_ms":0,"slow":5},
            {"at_ms":4672,"recover":6},{"at_ms":4672,"extra_ms":0,"slow":6}
        ]}"#;
    let mut sim = algorithms::build(&scenario(json), false);
    sim.run_to_end();
    let r = sim.summary();
    assert!(r.settled, "{r:?}");
    assert_eq!(r.leader, Some(6), "{r:?}");
    assert_eq!(r.leaders, vec![6], "{r:?}");
    for id in 0..7 {
        let v = view(sim.as_ref(), id);
        assert_eq!(v.leader, Some(6), "n{id}: {v:?}");
        assert_eq!(v.term, Some(2), "n{id}: {v:?}");
    }
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// The discovery messages sent from `from_ms` on, in order: (time in us,
/// sender, receiver, message as the trace writes it).
fn discovery_from(sim: &dyn sim::Simulation, from_ms: u64) -> Vec<(u64, u32, u32, String)> {
    sim.trace()
        .iter()
        .filter(|e| e.at_us >= us(from_ms))
        .filter_map(|e| match &e.event {
            Event::Send {
                from,
                to,
                kind,
                detail,
                ..
            } if ["FOLLOWERINFO", "LEADERINFO", "ACKEPOCH"].contains(kind) => {
                Some((e.at_us, *from, *to, detail.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Node `id`'s role changes from `from_ms` on: (time in us, role, term).
fn roles_from(sim: &dyn sim::Simulation, id: u32, from_ms: u64) -> Vec<(u64, Role, Option<u64>)> {
    sim.trace()
        .iter()
        .filter(|e| e.at_us >= us(from_ms))
        .filter_map(|e| match e.event {
            Event::Role { node, role, term } if node == id => Some((e.at_us, role, term)),
            _ => None,
        })
        .collect()
}

/// The terms node `id` became a candidate in, from `from_ms` on.
fn candidate_terms(sim: &dyn sim::Simulation, id: u32, from_ms: u64) -> Vec<Option<u64>> {
    roles_from(sim, id, from_ms)
        .into_iter()
        .filter(|(_, role, _)| *role == Role::Candidate)
        .map(|(_, _, term)| term)
        .collect()
}

fn send(at_us: u64, from: u32, to: u32, msg: &str) -> (u64, u32, u32, String) {
    (at_us, from, to, msg.to_string())
}

/// `election fuzz-faults --algorithm zab --seeds 51553..51553`, Zab's
/// discovery (Junqueira, Reed, Serafini 2011, phase 1; ZooKeeper's
/// `Leader.getEpochToPropose` and `Learner.registerWithLeader`). Three
/// servers, `start: none`; cuts and a partition, all healed at 1807 ms.
/// Twice n2 decided that it leads and a FOLLOWERINFO reached it over a link
/// whose way back was cut: it had its quorum, proposed epoch 1, then 2, and
/// took each as its accepted epoch (its promise to itself), but its
/// LEADERINFO never arrived. n0 and n1 then elected n1, whose discovery
/// quorum {n1, n0} had accepted epoch 0: epoch 1, established at 920 ms.
/// n2 learns n1 from the answers and connects with accepted epoch 2.
/// ZooKeeper's n1 answers LEADERINFO(1), n2 refuses it (1 < 2), looks,
/// rejoins from the answers and is refused again, for as long as n1 keeps
/// n0: before this rule, 1,418 elections in 60 s and never settled. Now n1
/// sends that LEADERINFO, takes 2 as its accepted epoch and looks; n2
/// refuses and looks; the two elect n1 again, whose discovery with n2
/// proposes 3 = 2 + 1, a fresh promise from n2 (its current epoch was 0).
/// n0, no longer pinged, looks at 1234 ms, learns n1 from the answers and
/// promises epoch 3 too.
#[test]
fn a_follower_that_promised_a_higher_epoch_makes_the_leader_look_again_and_propose_above_it() {
    let r = fuzz::check_seed(51553, Some("zab"))
        .unwrap_or_else(|f| panic!("{}\n{}", f.problem, f.scenario));
    assert_eq!((r.leader, r.elections), (Some(1), 12), "{r:?}");
    let json = r#"{"algorithm":"zab","nodes":3,"ring":"random","seed":51553,"start":"none",
        "network":{"drop":0.0,"duplicate":0.03,"fifo":false,"latency_ms":[1,18]},
        "faults":[
            {"at_ms":145,"cut":[2,1]},
            {"at_ms":242,"partition":[[0]]},
            {"at_ms":292,"heal":true},
            {"at_ms":313,"cut":[2,0]},
            {"at_ms":430,"cut":[1,2]},
            {"at_ms":807,"heal":true},
            {"at_ms":1807,"heal":true},
            {"at_ms":1807,"network":{"drop":0.0,"duplicate":0.0,"fifo":false,"latency_ms":[1,18]}},
            {"at_ms":1807,"recover":0},{"at_ms":1807,"extra_ms":0,"slow":0},
            {"at_ms":1807,"recover":1},{"at_ms":1807,"extra_ms":0,"slow":1},
            {"at_ms":1807,"recover":2},{"at_ms":1807,"extra_ms":0,"slow":2}
        ]}"#;
    let mut sim = algorithms::build(&scenario(json), true);
    sim.run_to_end();
    assert_eq!(
        sim.summary().trace_hash,
        r.trace_hash,
        "the fuzz seed's scenario"
    );
    assert_eq!(
        candidate_terms(sim.as_ref(), 2, 0),
        vec![Some(0), Some(1), Some(2), Some(2)],
        "n2 proposed epochs 1 and 2 to itself and looked in epoch 2"
    );
    assert_eq!(
        discovery_from(sim.as_ref(), 1000),
        vec![
            send(1_086_838, 2, 1, "FOLLOWERINFO(accepted epoch 2)"),
            send(1_094_947, 1, 2, "LEADERINFO(epoch 1, history to 1:1)"),
            send(1_183_513, 2, 1, "FOLLOWERINFO(accepted epoch 2)"),
            send(1_189_299, 1, 2, "LEADERINFO(epoch 3, history to 1:1)"),
            send(1_199_640, 2, 1, "ACKEPOCH(epoch 3, current epoch was 0)"),
            send(1_266_856, 0, 1, "FOLLOWERINFO(accepted epoch 1)"),
            send(1_272_376, 1, 0, "LEADERINFO(epoch 3, history to 1:1)"),
            send(1_280_457, 0, 1, "ACKEPOCH(epoch 3, current epoch was 1)"),
        ]
    );
    assert_eq!(
        roles_from(sim.as_ref(), 1, 900),
        vec![
            (920_141, Role::Leader, Some(1)),
            (1_094_947, Role::Candidate, Some(2)),
            (1_189_299, Role::Candidate, Some(3)),
            (1_203_304, Role::Leader, Some(3)),
        ],
        "n1 leads epoch 1, gives it up for n2's 2, leads epoch 3"
    );
    for id in 0..3 {
        let v = view(sim.as_ref(), id);
        assert_eq!((v.leader, v.term), (Some(1), Some(3)), "n{id}: {v:?}");
    }
    let r = sim.summary();
    assert!(r.settled && r.violations.is_empty(), "{r:?}");
}

/// Seed 43607 of the fault generator as it was before the rates were drawn
/// per seed (the same livelock, found first). Leader n2 of epoch 1 loses
/// n0 (cut n0 -> n2 at 168 ms) and then n1's pings (cut n2 -> n1 at 719
/// ms). Three times n2 decides it leads, n1's FOLLOWERINFO reaches it and
/// its LEADERINFO to n1 is cut: it proposes epochs 2, 3 and 4 to itself.
/// n0 and n1 elect n1: epoch 2, one above n1's accepted 1 (1798 ms). After
/// the heal n2 connects with accepted epoch 4; before this rule, 9,302
/// elections in 60 s. Now n1 gives epoch 2 up for 4, n1 and n2 elect n1,
/// and its discovery with n2 proposes 5; n0 follows once its leader's
/// pings stop.
#[test]
fn a_leader_that_proposed_epochs_to_itself_alone_is_followed_after_the_heal() {
    let json = r#"{"algorithm":"zab","nodes":3,"ring":"ascending","seed":43607,"start":"none",
        "network":{"drop":0.0,"duplicate":0.0,"fifo":true,"latency_ms":[1,2]},
        "faults":[
            {"at_ms":168,"cut":[0,2]},
            {"at_ms":719,"cut":[2,1]},
            {"at_ms":1038,"down_ms":100,"flaky":1,"for_ms":900,"period_ms":300},
            {"at_ms":2038,"heal":true},
            {"at_ms":2038,"recover":0},{"at_ms":2038,"extra_ms":0,"slow":0},
            {"at_ms":2038,"recover":1},{"at_ms":2038,"extra_ms":0,"slow":1},
            {"at_ms":2038,"recover":2},{"at_ms":2038,"extra_ms":0,"slow":2}
        ]}"#;
    let s = scenario(json);
    let r = sim::run(&s);
    fuzz::check_summary(&s, &r).unwrap_or_else(|e| panic!("{e}\n{r:?}"));
    let mut sim = algorithms::build(&s, true);
    sim.run_until(us(4000));
    assert_eq!(
        discovery_from(sim.as_ref(), 2000),
        vec![
            send(2_152_407, 2, 1, "FOLLOWERINFO(accepted epoch 4)"),
            send(2_153_759, 1, 2, "LEADERINFO(epoch 2, history to 2:3)"),
            send(2_205_415, 2, 1, "FOLLOWERINFO(accepted epoch 4)"),
            send(2_207_308, 1, 2, "LEADERINFO(epoch 5, history to 2:3)"),
            send(2_208_764, 2, 1, "ACKEPOCH(epoch 5, current epoch was 1)"),
            send(2_308_790, 0, 1, "FOLLOWERINFO(accepted epoch 2)"),
            send(2_310_628, 1, 0, "LEADERINFO(epoch 5, history to 5:1)"),
            send(2_311_993, 0, 1, "ACKEPOCH(epoch 5, current epoch was 2)"),
        ]
    );
    assert_eq!(
        candidate_terms(sim.as_ref(), 2, 900),
        vec![Some(1), Some(2), Some(3), Some(4), Some(4)],
        "n2 stepped down in epoch 1, proposed 2, 3 and 4 to itself, refused epoch 2"
    );
    for id in 0..3 {
        let v = view(sim.as_ref(), id);
        assert_eq!((v.leader, v.term), (Some(1), Some(5)), "n{id}: {v:?}");
    }
    assert!(sim.summary().violations.is_empty());
}
