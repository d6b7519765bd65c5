//! One event in, the exact commands out (Lamport 2001, 2.2 and 2.4;
//! Chubby 2.12 for the master lease).
use super::*;
use crate::ScenarioExt;
use crate::protocol::testing::{commands, sends};
use crate::protocol::{Boot, Command, Config, Role};
use crate::scenario::Scenario;

fn config(extra: &str) -> Config {
    let s = Scenario::from_json(&format!(
        r#"{{"algorithm":"multi-paxos","nodes":5{extra}}}"#
    ))
    .unwrap();
    Config::from_scenario(&s, MultiPaxos::EXTRAS)
}

fn replica(id: NodeId, c: &Config) -> Replica {
    Replica::new(id, c, &Persistent::default())
}

fn votes(out: &[Command<Msg, Timer>]) -> Vec<(u64, NodeId)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Vote { term, candidate } => Some((*term, *candidate)),
            _ => None,
        })
        .collect()
}

fn timers(out: &[Command<Msg, Timer>]) -> Vec<Timer> {
    out.iter()
        .filter_map(|c| match c {
            Command::SetTimer { timer, .. } => Some(*timer),
            _ => None,
        })
        .collect()
}

fn roles(out: &[Command<Msg, Timer>]) -> Vec<(Role, Option<u64>)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Role { role, term } => Some((*role, *term)),
            _ => None,
        })
        .collect()
}

#[test]
fn ballots_are_unique_per_replica_and_above_any_seen() {
    // Replica i of n owns k·n + i + 1.
    assert_eq!(next_ballot(0, 0, 5), 1);
    assert_eq!(next_ballot(0, 4, 5), 5);
    assert_eq!(next_ballot(5, 0, 5), 6);
    assert_eq!(next_ballot(5, 4, 5), 10);
    assert_eq!(next_ballot(7, 1, 5), 12);
    for seen in 0..40 {
        for id in 0..5 {
            let b = next_ballot(seen, id, 5);
            assert!(b > seen && b <= seen + 5, "{seen} {id} -> {b}");
            assert_eq!(owner(b, 5), Some(id));
        }
    }
    assert_eq!(owner(0, 5), None);
}

#[test]
fn suspecting_the_leader_sends_prepare_with_a_new_ballot() {
    // Lamport 2001, 2.2 phase 1a: a new ballot, PREPARE to the others.
    let c = config("");
    let mut node = replica(2, &c);
    let out = commands(&mut node, 2, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    assert_eq!(
        sends(&out),
        [0, 1, 3, 4]
            .map(|p| (p, Msg::Prepare { ballot: 3 }))
            .to_vec(),
        "PREPARE to the n-1 others, never to the resource"
    );
    assert_eq!(votes(&out), vec![(3, 2)], "promises its ballot to itself");
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(3))]);
    assert_eq!(timers(&out), vec![Timer::Attempt]);
    assert_eq!((node.promised, node.ballot), (3, 3));
}

#[test]
fn an_acceptor_promises_only_a_higher_ballot_and_names_its_promise_otherwise() {
    // Phase 1b: promise a ballot above the promise, with the highest
    // accepted ballot; reject a lower one naming the promise.
    let c = config("");
    let mut node = Replica::new(
        0,
        &c,
        &Persistent {
            promised: 4,
            accepted: 2,
        },
    );
    let out = commands(&mut node, 0, &c, |n, ctx| {
        n.on_message(ctx, 1, Msg::Prepare { ballot: 7 })
    });
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Promise {
                ballot: 7,
                accepted: 2
            }
        )]
    );
    assert_eq!(votes(&out), vec![(7, 1)]);
    assert_eq!(node.persistent().promised, 7, "the promise is persisted");
    assert_eq!(
        timers(&out),
        vec![Timer::Election],
        "waits for the proposer"
    );

    let out = commands(&mut node, 0, &c, |n, ctx| {
        n.on_message(ctx, 3, Msg::Prepare { ballot: 4 })
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::Reject {
                ballot: 4,
                promised: 7
            }
        )]
    );
    assert!(votes(&out).is_empty());
    // A duplicate of the promised PREPARE is ignored.
    let out = commands(&mut node, 0, &c, |n, ctx| {
        n.on_message(ctx, 1, Msg::Prepare { ballot: 7 })
    });
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn a_majority_of_promises_elects_and_the_leader_heartbeats_at_once() {
    let c = config("");
    let mut node = replica(4, &c);
    commands(&mut node, 4, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    let promise = |accepted| Msg::Promise {
        ballot: 5,
        accepted,
    };
    let out = commands(&mut node, 4, &c, |n, ctx| n.on_message(ctx, 0, promise(0)));
    assert!(sends(&out).is_empty(), "2 of 5 is no majority");
    let out = commands(&mut node, 4, &c, |n, ctx| n.on_message(ctx, 1, promise(3)));
    assert_eq!(roles(&out), vec![(Role::Leader, Some(5))]);
    assert_eq!(
        sends(&out),
        [0, 1, 2, 3]
            .map(|p| (
                p,
                Msg::Heartbeat {
                    ballot: 5,
                    round: 1
                }
            ))
            .to_vec()
    );
    assert_eq!(node.highest_accepted, 3);
    assert!(timers(&out).contains(&Timer::Write));
}

#[test]
fn a_lower_heartbeat_is_rejected_and_a_higher_one_is_followed() {
    let c = config("");
    let mut node = Replica::new(
        2,
        &c,
        &Persistent {
            promised: 8,
            accepted: 0,
        },
    );
    let out = commands(&mut node, 2, &c, |n, ctx| {
        n.on_message(
            ctx,
            1,
            Msg::Heartbeat {
                ballot: 2,
                round: 9,
            },
        )
    });
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Reject {
                ballot: 2,
                promised: 8
            }
        )]
    );
    let out = commands(&mut node, 2, &c, |n, ctx| {
        n.on_message(
            ctx,
            3,
            Msg::Heartbeat {
                ballot: 9,
                round: 1,
            },
        )
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::HeartbeatAck {
                ballot: 9,
                round: 1
            }
        )]
    );
    assert_eq!((node.promised, node.accepted, node.leader), (9, 9, Some(3)));
}

#[test]
fn a_pre_empted_proposer_backs_off_or_retries_at_once() {
    // Lamport 2001, 2.4: without backoff two proposers can pre-empt each
    // other for ever; with it the retry waits a random time.
    for (extra, retry_now) in [("", false), (r#","backoff":false"#, true)] {
        let c = config(extra);
        let mut node = replica(1, &c);
        commands(&mut node, 1, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
        let out = commands(&mut node, 1, &c, |n, ctx| {
            n.on_message(
                ctx,
                3,
                Msg::Reject {
                    ballot: 2,
                    promised: 4,
                },
            )
        });
        if retry_now {
            assert_eq!(
                sends(&out),
                [0, 2, 3, 4]
                    .map(|p| (p, Msg::Prepare { ballot: 7 }))
                    .to_vec(),
                "the next own ballot above 4, at once"
            );
        } else {
            assert!(sends(&out).is_empty());
            assert_eq!(timers(&out), vec![Timer::Retry]);
            assert_eq!(node.phase, Phase::Follower);
        }
    }
}

#[test]
fn with_the_master_lease_a_granted_lease_refuses_other_proposers() {
    // Chubby 2.12: no promise to another proposer while the lease granted
    // to the master is valid; the master itself may prepare again.
    let c = config(r#","master_lease":true"#);
    let mut node = replica(2, &c);
    commands(&mut node, 2, &c, |n, ctx| {
        n.on_message(
            ctx,
            0,
            Msg::Heartbeat {
                ballot: 1,
                round: 1,
            },
        )
    });
    let out = commands(&mut node, 2, &c, |n, ctx| {
        n.on_message(ctx, 3, Msg::Prepare { ballot: 4 })
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::Reject {
                ballot: 4,
                promised: 1
            }
        )]
    );
    let out = commands(&mut node, 2, &c, |n, ctx| {
        n.on_message(ctx, 0, Msg::Prepare { ballot: 6 })
    });
    assert_eq!(
        sends(&out),
        vec![(
            0,
            Msg::Promise {
                ballot: 6,
                accepted: 1
            }
        )]
    );
    // Its own election timer waits for the grant first.
    let out = commands(&mut node, 2, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    assert!(sends(&out).is_empty());
    assert_eq!(timers(&out), vec![Timer::Grant]);
}

#[test]
fn a_recovering_replica_keeps_its_promise() {
    let c = config("");
    let mut node = Replica::new(
        1,
        &c,
        &Persistent {
            promised: 12,
            accepted: 11,
        },
    );
    let out = commands(&mut node, 1, &c, |n, ctx| n.on_start(ctx, Boot::Recover));
    assert_eq!(roles(&out), vec![(Role::Follower, Some(12))]);
    let out = commands(&mut node, 1, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    assert_eq!(
        sends(&out)[0],
        (0, Msg::Prepare { ballot: 17 }),
        "above its persisted promise"
    );
}
