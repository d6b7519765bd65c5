//! One event in, the exact commands out (Petrov 2019, ch. 10,
//! "Next-in-line failover"; the fallback is Bully's, see bully/).

use super::*;
use crate::protocol::testing::{commands, config, sends};
use crate::protocol::{Command, Config};

fn node(id: NodeId, n: u32) -> (NextInLine, Config) {
    let c = config(n, "ascending");
    (NextInLine::new(id, &c, &()), c)
}

/// A follower of `leader` that was told the line `ids`.
fn follower(id: NodeId, n: u32, leader: NodeId, ids: &[NodeId]) -> (NextInLine, Config) {
    let (mut x, c) = node(id, n);
    commands(&mut x, id, &c, |x, ctx| {
        x.on_message(ctx, leader, Msg::Coordinator(line(1, ids)))
    });
    (x, c)
}

fn line(version: u64, ids: &[NodeId]) -> Line {
    Line {
        version,
        ids: ids.to_vec(),
    }
}

fn beat(version: u64, ids: Option<&[NodeId]>) -> Msg {
    Msg::Heartbeat(Beat {
        version,
        ids: ids.map(<[NodeId]>::to_vec),
    })
}

fn arms(out: &[Command<Msg, Timer>], timer: Timer) -> bool {
    out.iter()
        .any(|c| matches!(c, Command::SetTimer { timer: t, .. } if *t == timer))
}

#[test]
fn a_detector_asks_the_first_node_in_line() {
    let (mut x, c) = follower(1, 5, 4, &[3, 2, 1, 0]);
    let out = commands(&mut x, 1, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    assert_eq!(sends(&out), vec![(3, Msg::Takeover(vec![4]))]);
    assert!(arms(&out, Timer::AwaitConfirm));
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(x.phase, Phase::Asking);
    assert_eq!(x.asking, Some(3));
}

#[test]
fn no_confirm_in_time_means_asking_the_next() {
    let (mut x, c) = follower(0, 5, 4, &[3, 2, 1, 0]);
    commands(&mut x, 0, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
    assert_eq!(sends(&out), vec![(2, Msg::Takeover(vec![4, 3]))]);
    // The link layer's notice for n3 comes at the same moment: ignored.
    let out = commands(&mut x, 0, &c, |x, ctx| {
        x.on_undeliverable(ctx, 3, Msg::Takeover(vec![4]))
    });
    assert!(out.is_empty());
    // The notice for n2 counts like the timer.
    let out = commands(&mut x, 0, &c, |x, ctx| {
        x.on_undeliverable(ctx, 2, Msg::Takeover(vec![4, 3]))
    });
    assert_eq!(sends(&out), vec![(1, Msg::Takeover(vec![4, 3, 2]))]);
}

#[test]
fn a_detector_first_in_line_takes_over_at_once() {
    let (mut x, c) = follower(3, 5, 4, &[3, 2, 1, 0]);
    let out = commands(&mut x, 3, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    let l = line(1, &[2, 1, 0]);
    assert_eq!(
        sends(&out),
        vec![
            (0, Msg::Coordinator(l.clone())),
            (1, Msg::Coordinator(l.clone())),
            (2, Msg::Coordinator(l.clone())),
            (4, Msg::Coordinator(l)),
        ]
    );
    assert_eq!(x.phase, Phase::Leading);
    assert!(arms(&out, Timer::Heartbeat));
}

#[test]
fn takeover_is_confirmed_and_announced_to_all_others() {
    let (mut x, c) = follower(2, 5, 4, &[3, 2, 1, 0]);
    let out = commands(&mut x, 2, &c, |x, ctx| {
        x.on_message(ctx, 0, Msg::Takeover(vec![4, 3]))
    });
    let l = line(1, &[1, 0]);
    assert_eq!(
        sends(&out),
        vec![
            (0, Msg::Confirm),
            (0, Msg::Coordinator(l.clone())),
            (1, Msg::Coordinator(l.clone())),
            (3, Msg::Coordinator(l.clone())),
            (4, Msg::Coordinator(l)),
        ]
    );
    assert_eq!(x.phase, Phase::Leading);
    // A second detector's TAKEOVER: only re-confirmed.
    let out = commands(&mut x, 2, &c, |x, ctx| {
        x.on_message(ctx, 1, Msg::Takeover(vec![4, 3]))
    });
    assert_eq!(sends(&out), vec![(1, Msg::Confirm)]);
}

#[test]
fn confirm_or_the_new_coordinator_stops_the_walk() {
    let (mut x, c) = follower(0, 5, 4, &[3, 2, 1, 0]);
    commands(&mut x, 0, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, Msg::Confirm));
    assert!(sends(&out).is_empty(), "n0 is in n3's inherited line");
    assert_eq!((x.phase, x.leader), (Phase::Idle, Some(3)));
    // The walk's timer, if it still fires, does nothing.
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
    assert!(sends(&out).is_empty());

    let (mut y, c) = follower(1, 5, 4, &[3, 2, 1, 0]);
    commands(&mut y, 1, &c, |y, ctx| {
        y.on_timer(ctx, Timer::LeaderTimeout)
    });
    let out = commands(&mut y, 1, &c, |y, ctx| {
        y.on_message(ctx, 3, Msg::Coordinator(line(1, &[2, 1, 0])))
    });
    assert!(sends(&out).is_empty());
    assert_eq!((y.phase, y.leader), (Phase::Idle, Some(3)));
}

#[test]
fn an_exhausted_line_falls_back_to_election() {
    let (mut x, c) = follower(0, 4, 3, &[2, 1]);
    commands(&mut x, 0, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitConfirm));
    assert_eq!(
        sends(&out),
        vec![(1, Msg::Election), (2, Msg::Election), (3, Msg::Election)]
    );
    assert_eq!(x.phase, Phase::Electing);
    // Nobody answers: it leads, with a line that leaves out the dead.
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_timer(ctx, Timer::AwaitOk));
    assert_eq!(sends(&out).len(), 3);
    assert_eq!(x.line, Some(vec![]));
}

#[test]
fn a_node_with_no_line_falls_back_at_once() {
    let (mut x, c) = node(1, 4);
    let out = commands(&mut x, 1, &c, |x, ctx| {
        x.on_timer(ctx, Timer::LeaderTimeout)
    });
    assert_eq!(sends(&out), vec![(2, Msg::Election), (3, Msg::Election)]);
}

#[test]
fn a_missing_follower_joins_and_the_leader_takes_it_back() {
    let (mut x, c) = node(1, 4);
    let out = commands(&mut x, 1, &c, |x, ctx| {
        x.on_message(ctx, 3, Msg::Coordinator(line(1, &[2, 0])))
    });
    assert_eq!(sends(&out), vec![(3, Msg::Join)]);
    // Not again within one reply timeout.
    let out = commands(&mut x, 1, &c, |x, ctx| x.on_message(ctx, 3, beat(1, None)));
    assert!(sends(&out).is_empty());

    let (mut l, c) = node(3, 4);
    commands(&mut l, 3, &c, |l, ctx| l.become_leader(ctx));
    assert_eq!(l.published_line(), line(1, &[2, 1, 0]));
    commands(&mut l, 3, &c, |l, ctx| {
        l.on_undeliverable(ctx, 1, beat(1, None))
    });
    assert_eq!(l.published_line(), line(2, &[2, 0]));
    commands(&mut l, 3, &c, |l, ctx| l.on_message(ctx, 1, Msg::Join));
    assert_eq!(l.published_line(), line(3, &[2, 1, 0]));
    // The next beat carries the changed line, the one after only its
    // version.
    let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
    assert_eq!(sends(&out)[0], (0, beat(3, Some(&[2, 1, 0]))));
    let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
    assert_eq!(sends(&out)[0], (0, beat(3, None)));
}

#[test]
fn a_follower_that_missed_a_change_asks_for_the_line() {
    let (mut x, c) = follower(0, 4, 3, &[2, 1, 0]);
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, beat(1, None)));
    assert!(sends(&out).is_empty(), "up to date");
    let out = commands(&mut x, 0, &c, |x, ctx| x.on_message(ctx, 3, beat(2, None)));
    assert_eq!(sends(&out), vec![(3, Msg::Join)]);
    let (mut l, c) = node(3, 4);
    commands(&mut l, 3, &c, |l, ctx| l.become_leader(ctx));
    commands(&mut l, 3, &c, |l, ctx| l.on_message(ctx, 0, Msg::Join));
    let out = commands(&mut l, 3, &c, |l, ctx| l.on_timer(ctx, Timer::Heartbeat));
    assert_eq!(
        sends(&out),
        vec![
            (0, beat(1, Some(&[2, 1, 0]))),
            (1, beat(1, None)),
            (2, beat(1, None)),
        ]
    );
}

#[test]
fn two_leaders_resolve_by_rank() {
    let (mut low, c) = node(1, 4);
    commands(&mut low, 1, &c, |x, ctx| x.become_leader(ctx));
    let out = commands(&mut low, 1, &c, |x, ctx| {
        x.on_message(ctx, 3, beat(1, Some(&[2, 0])))
    });
    assert_eq!(low.phase, Phase::Idle);
    assert_eq!(sends(&out), vec![(3, Msg::Join)], "n1 is not in n3's line");

    let (mut high, c) = node(3, 4);
    commands(&mut high, 3, &c, |x, ctx| x.become_leader(ctx));
    let out = commands(&mut high, 3, &c, |x, ctx| {
        x.on_message(ctx, 1, beat(1, None))
    });
    assert_eq!(high.phase, Phase::Leading);
    assert_eq!(
        sends(&out),
        vec![(1, Msg::Coordinator(line(1, &[2, 1, 0])))]
    );
}
