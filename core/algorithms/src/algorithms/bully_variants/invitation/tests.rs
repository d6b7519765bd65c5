//! One event in, the exact commands out (Garcia-Molina 1982, section V,
//! procedures Check, Merge, Invitation, Accept, Ready, AreYouThere,
//! Timeout and Recovery).

use super::*;
use crate::protocol::testing::{commands, config, sends};
use crate::protocol::{Boot, Command, Config, Role};
use crate::time::Micros;

/// Reply timeout of the default scenario (4 x 10 ms latency, at least
/// 50 ms).
const R: Micros = 50_000;

fn node(id: NodeId, n: u32) -> (Invitation, Config) {
    let c = config(n, "ascending");
    (Invitation::new(id, &c, &0), c)
}

fn timers_set(out: &[Command<Msg, Timer>]) -> Vec<(Timer, Micros)> {
    out.iter()
        .filter_map(|c| match c {
            Command::SetTimer { timer, after_us } => Some((*timer, *after_us)),
            _ => None,
        })
        .collect()
}

fn leader_announced(out: &[Command<Msg, Timer>]) -> Option<Option<NodeId>> {
    out.iter().rev().find_map(|c| match c {
        Command::Leader(l) => Some(*l),
        _ => None,
    })
}

fn role_announced(out: &[Command<Msg, Timer>]) -> Option<Role> {
    out.iter().rev().find_map(|c| match c {
        Command::Role { role, .. } => Some(*role),
        _ => None,
    })
}

fn g(coordinator: NodeId, counter: u64) -> Group {
    Group {
        coordinator,
        counter,
    }
}

/// A coordinator of `id` whose group also holds `members`, heard from
/// just now.
fn coordinator_with(id: NodeId, n: u32, members: &[NodeId]) -> (Invitation, Config) {
    let (mut node, c) = node(id, n);
    commands(&mut node, id, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: false })
    });
    node.up = members.iter().map(|&m| (m, 0)).collect();
    (node, c)
}

/// A member of `coordinator`'s group `group`.
fn member_of(id: NodeId, n: u32, group: Group) -> (Invitation, Config) {
    let (mut node, c) = node(id, n);
    commands(&mut node, id, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: false })
    });
    commands(&mut node, id, &c, |p, ctx| p.join(ctx, group));
    commands(&mut node, id, &c, |p, ctx| {
        p.on_message(
            ctx,
            group.coordinator,
            Msg::Ready {
                group,
                members: vec![id, group.coordinator],
            },
        )
    });
    assert_eq!(node.phase, Phase::Member);
    (node, c)
}

#[test]
fn every_node_starts_as_the_coordinator_of_its_own_group() {
    let (mut p, c) = node(1, 4);
    let out = commands(&mut p, 1, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: true })
    });
    assert_eq!(role_announced(&out), Some(Role::Leader));
    assert_eq!(leader_announced(&out), Some(Some(1)));
    assert_eq!(p.group, g(1, 1));
    // An initiator looks for other coordinators at once.
    assert_eq!(
        sends(&out),
        vec![
            (0, Msg::AreYouCoordinator),
            (2, Msg::AreYouCoordinator),
            (3, Msg::AreYouCoordinator)
        ]
    );
    assert_eq!(timers_set(&out), vec![(Timer::Collect, R)]);
    // A non-initiator waits one search period (150..=300 ms).
    let (mut q, c) = node(2, 4);
    let out = commands(&mut q, 2, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: false })
    });
    assert!(sends(&out).is_empty());
    let t = timers_set(&out);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].0, Timer::Search);
    assert!((150_000..=300_000).contains(&t[0].1));
}

#[test]
fn only_a_coordinator_answers_the_search_with_its_group_size() {
    let (mut p, c) = coordinator_with(2, 4, &[0, 1]);
    let out = commands(&mut p, 2, &c, |p, ctx| {
        p.on_message(ctx, 3, Msg::AreYouCoordinator)
    });
    assert_eq!(sends(&out), vec![(3, Msg::IAmCoordinator { size: 3 })]);
    let (mut m, c) = member_of(0, 4, g(2, 5));
    let out = commands(&mut m, 0, &c, |p, ctx| {
        p.on_message(ctx, 3, Msg::AreYouCoordinator)
    });
    assert!(sends(&out).is_empty(), "members stay silent");
}

#[test]
fn the_highest_priority_coordinator_invites_at_once() {
    let (mut p, c) = node(3, 4);
    commands(&mut p, 3, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: true })
    });
    for j in [0, 1] {
        commands(&mut p, 3, &c, |p, ctx| {
            p.on_message(ctx, j, Msg::IAmCoordinator { size: 1 })
        });
    }
    let out = commands(&mut p, 3, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
    let invite = Msg::Invitation {
        group: g(3, 2),
        size: 1,
    };
    assert_eq!(sends(&out), vec![(0, invite.clone()), (1, invite)]);
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(timers_set(&out), vec![(Timer::AcceptWindow, 2 * R)]);
    assert_eq!(p.phase, Phase::Merging);
}

#[test]
fn a_lower_priority_coordinator_waits_one_reply_timeout_per_higher_one() {
    let (mut p, c) = node(1, 4);
    commands(&mut p, 1, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: true })
    });
    for j in [0, 2, 3] {
        commands(&mut p, 1, &c, |p, ctx| {
            p.on_message(ctx, j, Msg::IAmCoordinator { size: 1 })
        });
    }
    let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
    assert!(sends(&out).is_empty());
    assert_eq!(timers_set(&out), vec![(Timer::MergeDelay, 2 * R)]);
    // Nobody invited it meanwhile: it invites only the one it outranks.
    let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::MergeDelay));
    assert_eq!(
        sends(&out),
        vec![(
            0,
            Msg::Invitation {
                group: g(1, 2),
                size: 1
            }
        )]
    );
}

#[test]
fn a_larger_group_outranks_a_higher_id() {
    // n1 leads {n0, n1, n2}; n3 leads only itself.
    let (mut p, c) = coordinator_with(1, 4, &[0, 2]);
    commands(&mut p, 1, &c, |p, ctx| p.start_search(ctx));
    commands(&mut p, 1, &c, |p, ctx| {
        p.on_message(ctx, 3, Msg::IAmCoordinator { size: 1 })
    });
    let out = commands(&mut p, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
    let invite = Msg::Invitation {
        group: g(1, 2),
        size: 3,
    };
    // The found coordinator first, then its own members again.
    assert_eq!(
        sends(&out),
        vec![(3, invite.clone()), (0, invite.clone()), (2, invite)]
    );
}

#[test]
fn a_coordinator_that_outranks_nobody_waits_to_be_invited() {
    let (mut p, c) = node(0, 3);
    commands(&mut p, 0, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: true })
    });
    commands(&mut p, 0, &c, |p, ctx| {
        p.on_message(ctx, 2, Msg::IAmCoordinator { size: 1 })
    });
    let out = commands(&mut p, 0, &c, |p, ctx| p.on_timer(ctx, Timer::Collect));
    assert!(sends(&out).is_empty());
    assert_eq!(timers_set(&out).first().map(|t| t.0), Some(Timer::Search));
    assert_eq!(p.phase, Phase::Coordinating);
}

#[test]
fn an_outranked_coordinator_accepts_and_passes_the_invitation_on() {
    let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
    let group = g(5, 4);
    let invite = Msg::Invitation { group, size: 3 };
    let out = commands(&mut p, 2, &c, |p, ctx| p.on_message(ctx, 5, invite.clone()));
    assert_eq!(
        sends(&out),
        vec![(0, invite.clone()), (1, invite), (5, Msg::Accept { group })]
    );
    assert_eq!(role_announced(&out), Some(Role::Follower));
    assert_eq!(leader_announced(&out), Some(None), "no leader until READY");
    assert_eq!(timers_set(&out), vec![(Timer::AwaitReady, 3 * R)]);
    assert_eq!(p.phase, Phase::Joining);
    assert!(p.up.is_empty());
}

#[test]
fn an_invitation_from_an_outranked_coordinator_is_declined() {
    // n2 leads three nodes; n5 leads one: n5 is outranked.
    let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
    let out = commands(&mut p, 2, &c, |p, ctx| {
        p.on_message(
            ctx,
            5,
            Msg::Invitation {
                group: g(5, 4),
                size: 1,
            },
        )
    });
    assert!(sends(&out).is_empty());
    assert_eq!(p.phase, Phase::Coordinating);
}

#[test]
fn a_member_accepts_only_invitations_its_coordinator_sends_or_passes_on() {
    let (mut m, c) = member_of(0, 6, g(2, 3));
    let stray = Msg::Invitation {
        group: g(5, 4),
        size: 4,
    };
    let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 5, stray.clone()));
    assert!(sends(&out).is_empty());
    let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 2, stray));
    assert_eq!(sends(&out), vec![(5, Msg::Accept { group: g(5, 4) })]);
}

#[test]
fn the_accept_window_closes_with_ready_to_everyone_who_accepted() {
    let (mut p, c) = node(4, 5);
    commands(&mut p, 4, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: false })
    });
    commands(&mut p, 4, &c, |p, ctx| p.merge(ctx, vec![0, 1, 3]));
    let group = g(4, 2);
    for j in [3, 0, 3] {
        commands(&mut p, 4, &c, |p, ctx| {
            p.on_message(ctx, j, Msg::Accept { group })
        });
    }
    // An ACCEPT for another group is ignored.
    commands(&mut p, 4, &c, |p, ctx| {
        p.on_message(ctx, 1, Msg::Accept { group: g(4, 1) })
    });
    let out = commands(&mut p, 4, &c, |p, ctx| p.on_timer(ctx, Timer::AcceptWindow));
    let ready = Msg::Ready {
        group,
        members: vec![0, 3, 4],
    };
    assert_eq!(sends(&out), vec![(0, ready.clone()), (3, ready)]);
    assert_eq!(p.phase, Phase::Coordinating);
    assert_eq!(p.group, group);
    assert_eq!(p.priority(), (3, 4));
}

#[test]
fn ready_makes_a_member_that_checks_its_coordinator() {
    let (mut m, c) = node(1, 4);
    commands(&mut m, 1, &c, |p, ctx| p.join(ctx, g(3, 2)));
    let out = commands(&mut m, 1, &c, |p, ctx| {
        p.on_message(
            ctx,
            3,
            Msg::Ready {
                group: g(3, 2),
                members: vec![1, 3],
            },
        )
    });
    assert_eq!(leader_announced(&out), Some(Some(3)));
    let t = timers_set(&out);
    assert_eq!(t[0], (Timer::Check, 50_000));
    assert_eq!(t[1].0, Timer::CoordinatorTimeout);
    let out = commands(&mut m, 1, &c, |p, ctx| p.on_timer(ctx, Timer::Check));
    assert_eq!(sends(&out), vec![(3, Msg::AreYouThere { group: g(3, 2) })]);
}

#[test]
fn are_you_there_is_answered_yes_only_for_a_member_of_the_current_group() {
    let (mut p, c) = coordinator_with(3, 5, &[0, 1]);
    let here = Msg::AreYouThere { group: p.group };
    let out = commands(&mut p, 3, &c, |p, ctx| p.on_message(ctx, 1, here.clone()));
    assert_eq!(sends(&out), vec![(1, Msg::Yes)]);
    let out = commands(&mut p, 3, &c, |p, ctx| p.on_message(ctx, 2, here));
    assert_eq!(sends(&out), vec![(2, Msg::No)], "not a member");
    let out = commands(&mut p, 3, &c, |p, ctx| {
        p.on_message(ctx, 0, Msg::AreYouThere { group: g(3, 0) })
    });
    assert_eq!(sends(&out), vec![(0, Msg::No)], "an old group");
}

#[test]
fn a_member_told_no_or_left_without_answer_forms_a_group_of_its_own() {
    let (mut m, c) = member_of(0, 4, g(2, 3));
    let out = commands(&mut m, 0, &c, |p, ctx| p.on_message(ctx, 2, Msg::No));
    assert_eq!(role_announced(&out), Some(Role::Leader));
    assert_eq!(leader_announced(&out), Some(Some(0)));
    assert_eq!(
        m.group,
        g(0, 2),
        "a new group number: g0.1 at start, now g0.2"
    );
    let (mut m, c) = member_of(1, 4, g(2, 3));
    let out = commands(&mut m, 1, &c, |p, ctx| {
        p.on_timer(ctx, Timer::CoordinatorTimeout)
    });
    assert_eq!(role_announced(&out), Some(Role::Leader));
    assert_eq!(m.phase, Phase::Coordinating);
}

#[test]
fn a_lost_ready_is_made_up_for_by_asking() {
    let (mut m, c) = node(1, 4);
    commands(&mut m, 1, &c, |p, ctx| p.join(ctx, g(3, 2)));
    let out = commands(&mut m, 1, &c, |p, ctx| p.on_timer(ctx, Timer::AwaitReady));
    assert_eq!(sends(&out), vec![(3, Msg::AreYouThere { group: g(3, 2) })]);
    let out = commands(&mut m, 1, &c, |p, ctx| p.on_message(ctx, 3, Msg::Yes));
    assert_eq!(leader_announced(&out), Some(Some(3)));
    assert_eq!(m.phase, Phase::Member);
}

#[test]
fn a_coordinator_waiting_for_ready_does_not_answer_its_former_members() {
    let (mut p, c) = coordinator_with(2, 6, &[0, 1]);
    let old = p.group;
    commands(&mut p, 2, &c, |p, ctx| {
        p.on_message(
            ctx,
            5,
            Msg::Invitation {
                group: g(5, 4),
                size: 4,
            },
        )
    });
    let out = commands(&mut p, 2, &c, |p, ctx| {
        p.on_message(ctx, 0, Msg::AreYouThere { group: old })
    });
    assert!(sends(&out).is_empty());
}

#[test]
fn a_search_drops_members_that_stopped_checking_in() {
    let (mut p, c) = coordinator_with(3, 5, &[0, 1]);
    // n0 last checked in 400 ms ago (local time 0 now), longer than the
    // longest failure-detection timeout (300 ms); n1 just now.
    p.up.insert(0, -400_000);
    let out = commands(&mut p, 3, &c, |p, ctx| p.on_timer(ctx, Timer::Search));
    assert_eq!(p.up.keys().copied().collect::<Vec<_>>(), vec![1]);
    assert_eq!(
        sends(&out).len(),
        4,
        "ARE_YOU_COORDINATOR to every other node"
    );
}

#[test]
fn a_recovered_node_forms_a_new_group_number() {
    let (mut p, c) = node(2, 4);
    p.counter = 7;
    let persistent = p.persistent();
    let mut back = Invitation::new(2, &c, &persistent);
    let out = commands(&mut back, 2, &c, |p, ctx| p.on_start(ctx, Boot::Recover));
    assert_eq!(back.group, g(2, 8));
    assert_eq!(role_announced(&out), Some(Role::Leader));
    assert_eq!(sends(&out).len(), 3, "searches at once");
}
