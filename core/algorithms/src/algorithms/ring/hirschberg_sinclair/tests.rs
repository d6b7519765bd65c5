//! One event in, the exact commands out (Hirschberg & Sinclair 1980).

use super::*;
use crate::protocol::testing::{commands, config, sends};
use crate::protocol::{Boot, Command, Config, Role};

fn node(id: NodeId, n: u32) -> (HirschbergSinclair, Config) {
    let c = config(n, "ascending");
    (HirschbergSinclair::new(id, &c, &()), c)
}

fn candidate(id: NodeId, n: u32) -> (HirschbergSinclair, Config) {
    let (mut r, c) = node(id, n);
    commands(&mut r, id, &c, |r, ctx| {
        r.on_start(ctx, Boot::Fresh { initiate: true })
    });
    (r, c)
}

fn probe(id: NodeId, phase: u32, hop: u32, dir: Dir) -> Msg {
    Msg::Probe {
        id,
        phase,
        hop,
        dir,
    }
}

fn reply(id: NodeId, phase: u32, dir: Dir) -> Msg {
    Msg::Reply { id, phase, dir }
}

#[test]
fn an_initiator_probes_one_hop_both_ways() {
    let (mut r, c) = node(2, 8);
    let out = commands(&mut r, 2, &c, |r, ctx| {
        r.on_start(ctx, Boot::Fresh { initiate: true })
    });
    assert_eq!(
        sends(&out),
        vec![
            (3, probe(2, 0, 1, Dir::Next)),
            (1, probe(2, 0, 1, Dir::Prev))
        ]
    );
    assert_eq!(r.status, Status::Candidate);
}

#[test]
fn a_larger_probe_within_reach_travels_on_and_the_receiver_stops_competing() {
    let (mut r, c) = candidate(2, 8);
    let out = commands(&mut r, 2, &c, |r, ctx| {
        r.on_message(ctx, 1, probe(5, 2, 1, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(3, probe(5, 2, 2, Dir::Next))]);
    assert_eq!(r.status, Status::Relay);
    assert!(out.iter().any(|c| matches!(
        c,
        Command::Role {
            role: Role::Follower,
            ..
        }
    )));
}

#[test]
fn a_larger_probe_at_its_full_reach_turns_into_a_reply() {
    let (mut r, c) = candidate(2, 8);
    let out = commands(&mut r, 2, &c, |r, ctx| {
        r.on_message(ctx, 1, probe(5, 1, 2, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(1, reply(5, 1, Dir::Prev))]);
    let out = commands(&mut r, 2, &c, |r, ctx| {
        r.on_message(ctx, 3, probe(6, 0, 1, Dir::Prev))
    });
    assert_eq!(sends(&out), vec![(3, reply(6, 0, Dir::Next))]);
}

#[test]
fn a_candidate_swallows_a_smaller_probe() {
    let (mut r, c) = candidate(4, 8);
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
    });
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn a_node_that_has_seen_a_larger_id_swallows_a_smaller_probe() {
    let (mut r, c) = node(4, 8);
    commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, probe(6, 1, 1, Dir::Next))
    });
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
    });
    assert!(sends(&out).is_empty());
}

#[test]
fn a_non_initiator_relays_even_a_smaller_probe() {
    let (mut r, c) = node(4, 8);
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, probe(1, 1, 1, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(5, probe(1, 1, 2, Dir::Next))]);
    assert_eq!(r.status, Status::Relay);
}

#[test]
fn replies_are_relayed_towards_their_candidate() {
    let (mut r, c) = node(4, 8);
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 5, reply(6, 1, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(5, reply(6, 1, Dir::Next))]);
}

#[test]
fn both_replies_start_the_next_phase() {
    let (mut r, c) = candidate(4, 8);
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
    });
    assert!(sends(&out).is_empty(), "one side is not enough");
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
    });
    assert!(sends(&out).is_empty(), "a duplicate is not the other side");
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, reply(4, 0, Dir::Next))
    });
    assert_eq!(
        sends(&out),
        vec![
            (5, probe(4, 1, 1, Dir::Next)),
            (3, probe(4, 1, 1, Dir::Prev))
        ]
    );
    assert_eq!(r.phase, 1);
    let out = commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 3, reply(4, 0, Dir::Next))
    });
    assert!(sends(&out).is_empty(), "a reply of an old phase is stale");
}

#[test]
fn own_probe_back_means_victory_and_one_elected_lap() {
    let (mut r, c) = candidate(7, 8);
    let out = commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 6, probe(7, 3, 8, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(0, Msg::Elected(7))]);
    assert_eq!(r.status, Status::Leader);
    let out = commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 0, probe(7, 3, 8, Dir::Prev))
    });
    assert!(sends(&out).is_empty(), "the other direction's copy");
    let out = commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 6, Msg::Elected(7))
    });
    assert!(sends(&out).is_empty(), "the lap ends at the winner");
}

#[test]
fn elected_is_recorded_and_forwarded() {
    let (mut r, c) = candidate(3, 8);
    let out = commands(&mut r, 3, &c, |r, ctx| {
        r.on_message(ctx, 2, Msg::Elected(7))
    });
    assert_eq!(sends(&out), vec![(4, Msg::Elected(7))]);
    assert_eq!(r.leader, Some(7));
    assert_eq!(r.status, Status::Idle);
}

#[test]
fn a_dead_neighbour_is_skipped_in_the_same_direction() {
    let (mut r, c) = node(3, 8);
    let out = commands(&mut r, 3, &c, |r, ctx| {
        r.on_undeliverable(ctx, 2, probe(6, 2, 3, Dir::Prev))
    });
    assert_eq!(sends(&out), vec![(1, probe(6, 2, 3, Dir::Prev))]);
    let out = commands(&mut r, 3, &c, |r, ctx| {
        r.on_undeliverable(ctx, 4, reply(1, 2, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(5, reply(1, 2, Dir::Next))]);
}

#[test]
fn a_probe_finding_everyone_else_down_has_gone_round() {
    let (mut r, c) = candidate(0, 2);
    let out = commands(&mut r, 0, &c, |r, ctx| {
        r.on_undeliverable(ctx, 1, probe(0, 0, 1, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(1, Msg::Elected(0))]);
    assert_eq!(r.status, Status::Leader);
}

#[test]
fn a_probe_of_a_dead_candidate_dies_and_a_relay_starts_over() {
    let (mut r, c) = node(3, 8);
    let out = commands(&mut r, 3, &c, |r, ctx| {
        r.on_undeliverable(ctx, 6, probe(6, 3, 8, Dir::Next))
    });
    assert_eq!(
        sends(&out),
        vec![
            (4, probe(3, 0, 1, Dir::Next)),
            (2, probe(3, 0, 1, Dir::Prev))
        ]
    );
}

#[test]
fn an_overdue_phase_resends_only_the_missing_probe() {
    let (mut r, c) = candidate(4, 8);
    commands(&mut r, 4, &c, |r, ctx| {
        r.on_message(ctx, 5, reply(4, 0, Dir::Prev))
    });
    let out = commands(&mut r, 4, &c, |r, ctx| r.on_timer(ctx, Timer::Watchdog));
    assert_eq!(sends(&out), vec![(3, probe(4, 0, 1, Dir::Prev))]);
}

#[test]
fn a_relay_that_hears_its_leader_again_forgets_the_larger_id() {
    let (mut r, c) = node(7, 16);
    commands(&mut r, 7, &c, |r, ctx| r.on_message(ctx, 0, Msg::Heartbeat));
    assert_eq!(r.leader, Some(0));
    commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 8, probe(15, 3, 7, Dir::Prev))
    });
    assert_eq!(r.status, Status::Relay);
    let out = commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 6, probe(5, 1, 1, Dir::Next))
    });
    assert!(sends(&out).is_empty(), "swallowed while relaying n15");
    commands(&mut r, 7, &c, |r, ctx| r.on_message(ctx, 0, Msg::Heartbeat));
    assert_eq!(r.status, Status::Idle);
    let out = commands(&mut r, 7, &c, |r, ctx| {
        r.on_message(ctx, 6, probe(5, 1, 1, Dir::Next))
    });
    assert_eq!(sends(&out), vec![(8, probe(5, 1, 2, Dir::Next))]);
}

#[test]
fn a_candidate_follows_a_higher_live_leader_but_not_a_lower_one() {
    let (mut r, c) = candidate(4, 8);
    commands(&mut r, 4, &c, |r, ctx| r.on_message(ctx, 2, Msg::Heartbeat));
    assert_eq!(r.status, Status::Candidate);
    commands(&mut r, 4, &c, |r, ctx| r.on_message(ctx, 6, Msg::Heartbeat));
    assert_eq!(r.status, Status::Idle);
    assert_eq!(r.leader, Some(6));
}
