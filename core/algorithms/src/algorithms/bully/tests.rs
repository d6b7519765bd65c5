//! One event in, the exact commands out (Garcia-Molina 1982, section 4).

use super::*;
use crate::protocol::Command;
use crate::protocol::testing::{commands, config, sends};

fn node(id: NodeId, n: u32) -> (Bully, Config) {
    let c = config(n, "ascending");
    (Bully::new(id, &c, &()), c)
}

#[test]
fn starting_an_election_asks_every_higher_node() {
    let (mut b, c) = node(2, 5);
    let out = commands(&mut b, 2, &c, |b, ctx| b.start_election(ctx));
    assert_eq!(sends(&out), vec![(3, Msg::Election), (4, Msg::Election)]);
    assert!(out.iter().any(|c| matches!(
        c,
        Command::SetTimer {
            timer: Timer::AwaitOk,
            ..
        }
    )));
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(b.phase, Phase::Electing);
}

#[test]
fn the_highest_node_wins_at_once_and_tells_every_lower_node() {
    let (mut b, c) = node(4, 5);
    let out = commands(&mut b, 4, &c, |b, ctx| b.start_election(ctx));
    let to: Vec<NodeId> = sends(&out)
        .into_iter()
        .map(|(to, m)| {
            assert_eq!(m, Msg::Coordinator);
            to
        })
        .collect();
    assert_eq!(to, vec![0, 1, 2, 3]);
    assert_eq!(b.phase, Phase::Leading);
}

#[test]
fn election_from_below_is_answered_ok_and_starts_one_election() {
    let (mut b, c) = node(2, 5);
    let out = commands(&mut b, 2, &c, |b, ctx| b.on_message(ctx, 0, Msg::Election));
    assert_eq!(sends(&out)[0], (0, Msg::Ok));
    assert_eq!(sends(&out).len(), 3, "OK + ELECTION to n3 and n4");
    // A second ELECTION while electing: OK only.
    let out = commands(&mut b, 2, &c, |b, ctx| b.on_message(ctx, 1, Msg::Election));
    assert_eq!(sends(&out), vec![(1, Msg::Ok)]);
}

#[test]
fn ok_makes_the_node_wait_for_the_coordinator() {
    let (mut b, c) = node(1, 4);
    commands(&mut b, 1, &c, |b, ctx| b.start_election(ctx));
    let out = commands(&mut b, 1, &c, |b, ctx| b.on_message(ctx, 3, Msg::Ok));
    assert!(sends(&out).is_empty());
    assert_eq!(b.phase, Phase::AwaitingCoordinator);
    assert!(out.iter().any(|c| matches!(
        c,
        Command::SetTimer {
            timer: Timer::AwaitCoordinator,
            ..
        }
    )));
}

#[test]
fn no_ok_in_time_means_victory() {
    let (mut b, c) = node(2, 4);
    commands(&mut b, 2, &c, |b, ctx| b.start_election(ctx));
    let out = commands(&mut b, 2, &c, |b, ctx| b.on_timer(ctx, Timer::AwaitOk));
    assert_eq!(
        sends(&out),
        vec![(0, Msg::Coordinator), (1, Msg::Coordinator)]
    );
    assert_eq!(b.leader, Some(2));
}

#[test]
fn coordinator_from_a_lower_node_is_challenged() {
    let (mut b, c) = node(3, 4);
    let out = commands(&mut b, 3, &c, |b, ctx| {
        b.on_message(ctx, 1, Msg::Coordinator)
    });
    assert_eq!(
        b.phase,
        Phase::Leading,
        "n3 is the top node: it wins at once"
    );
    assert_eq!(sends(&out).len(), 3);
}

#[test]
fn heartbeat_timeout_starts_an_election() {
    let (mut b, c) = node(0, 3);
    commands(&mut b, 0, &c, |b, ctx| {
        b.on_message(ctx, 2, Msg::Coordinator)
    });
    assert_eq!(b.leader, Some(2));
    let out = commands(&mut b, 0, &c, |b, ctx| {
        b.on_timer(ctx, Timer::LeaderTimeout)
    });
    assert_eq!(sends(&out), vec![(1, Msg::Election), (2, Msg::Election)]);
}
