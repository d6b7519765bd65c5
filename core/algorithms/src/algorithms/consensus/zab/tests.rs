//! One event in, the exact commands out (rules of `FastLeaderElection`
//! `lookForLeader` and Zab phase 1, Junqueira et al. 2011).

use super::*;
use crate::protocol::testing::{config, ctx_commands, sends};
use crate::protocol::{Command, Role};

/// Runs `f` on `s` with a fresh context and returns the commands.
fn cmds(
    s: &mut Server,
    c: &Config,
    f: impl FnOnce(&mut Server, &mut C<'_>),
) -> Vec<Command<Msg, Timer>> {
    let id = s.id;
    ctx_commands(id, c, |ctx| f(s, ctx))
}

fn server(id: NodeId, n: u32) -> (Server, Config) {
    let c = config(n, "ascending");
    (Server::new(id, &c, Stored::default()), c)
}

fn vote(leader: NodeId, epoch: u64, counter: u64) -> Vote {
    Vote {
        leader,
        zxid: zxid(epoch, counter),
        epoch,
    }
}

fn looking(v: Vote, round: u64) -> Msg {
    Msg::Notification {
        vote: v,
        round,
        state: ServerState::Looking,
    }
}

fn roles(out: &[Command<Msg, Timer>]) -> Vec<(Role, Option<u64>)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Role { role, term } => Some((*role, *term)),
            _ => None,
        })
        .collect()
}

fn votes(out: &[Command<Msg, Timer>]) -> Vec<(u64, NodeId)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Vote { term, candidate } => Some((*term, *candidate)),
            _ => None,
        })
        .collect()
}

fn sets(out: &[Command<Msg, Timer>], timer: Timer) -> bool {
    out.iter()
        .any(|c| matches!(c, Command::SetTimer { timer: t, .. } if *t == timer))
}

/// A server of an n-node cluster, LOOKING in round 1.
fn started(id: NodeId, n: u32) -> (Server, Config) {
    let (mut s, c) = server(id, n);
    cmds(&mut s, &c, |s, ctx| s.look_for_leader(ctx));
    (s, c)
}

#[test]
fn votes_are_ordered_by_epoch_then_zxid_then_id() {
    assert!(vote(0, 2, 0).beats(&vote(9, 1, 50)), "newer epoch first");
    assert!(vote(0, 1, 6).beats(&vote(9, 1, 5)), "then the higher zxid");
    assert!(vote(9, 1, 5).beats(&vote(8, 1, 5)), "then the higher id");
    assert!(
        !vote(4, 1, 5).beats(&vote(4, 1, 5)),
        "a vote does not beat itself"
    );
}

#[test]
fn looking_increments_the_round_and_sends_its_own_vote_to_everyone() {
    let (mut s, c) = server(1, 4);
    s.stored = Stored {
        accepted_epoch: 3,
        current_epoch: 2,
        last_zxid: zxid(2, 7),
    };
    let out = cmds(&mut s, &c, |s, ctx| s.look_for_leader(ctx));
    let own = looking(vote(1, 2, 7), 1);
    assert_eq!(sends(&out), vec![(0, own), (2, own), (3, own)]);
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(3))]);
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert!(sets(&out, Timer::NotifyTimeout));
    assert_eq!(s.round, 1);
}

#[test]
fn a_better_vote_of_the_same_round_is_adopted_and_sent_to_everyone() {
    let (mut s, c) = started(0, 5);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 3, looking(vote(3, 0, 0), 1))
    });
    let adopted = looking(vote(3, 0, 0), 1);
    assert_eq!(
        sends(&out),
        vec![(1, adopted), (2, adopted), (3, adopted), (4, adopted)]
    );
    assert_eq!(s.proposal, vote(3, 0, 0));
}

#[test]
fn a_worse_vote_is_recorded_and_answered_only_when_it_comes_again() {
    let (mut s, c) = started(3, 5);
    let worse = looking(vote(1, 0, 0), 1);
    let out = cmds(&mut s, &c, |s, ctx| s.on_message(ctx, 1, worse));
    assert!(sends(&out).is_empty(), "FLE stays silent: {out:?}");
    let out = cmds(&mut s, &c, |s, ctx| s.on_message(ctx, 1, worse));
    assert_eq!(sends(&out), vec![(1, looking(vote(3, 0, 0), 1))]);
}

#[test]
fn a_later_round_is_joined_with_the_better_of_the_own_and_the_peer_vote() {
    let (mut s, c) = started(2, 3);
    // n2 adopted nothing yet; the peer is in round 4 with a worse vote.
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, looking(vote(0, 0, 0), 4))
    });
    assert_eq!(s.round, 4);
    let own = looking(vote(2, 0, 0), 4);
    assert_eq!(sends(&out), vec![(0, own), (1, own)]);
}

#[test]
fn an_earlier_round_gets_only_an_answer_with_the_own_vote() {
    let (mut s, c) = started(1, 3);
    s.round = 3;
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, looking(vote(2, 0, 0), 1))
    });
    assert_eq!(sends(&out), vec![(2, looking(vote(1, 0, 0), 3))]);
    assert_eq!(s.proposal, vote(1, 0, 0), "the old round's vote is ignored");
}

#[test]
fn a_quorum_starts_the_finalize_wait_and_its_end_decides() {
    let (mut s, c) = started(0, 3);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, looking(vote(2, 0, 0), 1))
    });
    assert!(sets(&out, Timer::FinalizeWait), "n0 and n2 vote n2: 2 of 3");
    assert!(s.finalizing);
    let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::FinalizeWait));
    assert_eq!(
        sends(&out),
        vec![(2, Msg::FollowerInfo { accepted_epoch: 0 })]
    );
    assert_eq!(roles(&out), vec![(Role::Follower, Some(0))]);
    assert_eq!(s.state, ServerState::Following);
    assert!(sets(&out, Timer::LeaderTimeout));
}

#[test]
fn a_following_server_answers_a_looking_one_with_its_decided_vote() {
    let (mut s, c) = started(0, 3);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, looking(vote(2, 0, 0), 1));
        s.on_timer(ctx, Timer::FinalizeWait);
    });
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, looking(vote(1, 0, 0), 7))
    });
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Notification {
                vote: vote(2, 0, 0),
                round: 1,
                state: ServerState::Following,
            }
        )]
    );
}

#[test]
fn a_joiner_follows_once_a_quorum_answers_and_the_leader_itself_says_leading() {
    let (mut s, c) = started(0, 5);
    let answer = |state| Msg::Notification {
        vote: vote(4, 0, 0),
        round: 1,
        state,
    };
    s.round = 1;
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, answer(ServerState::Following));
        s.on_message(ctx, 2, answer(ServerState::Following));
        s.on_message(ctx, 3, answer(ServerState::Following));
    });
    assert!(
        sends(&out).is_empty(),
        "three agree, but n4 never said LEADING"
    );
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 4, answer(ServerState::Leading))
    });
    assert_eq!(
        sends(&out),
        vec![(4, Msg::FollowerInfo { accepted_epoch: 0 })]
    );
    assert_eq!(s.leader, Some(4));
}

/// n2 of 3 has decided it leads.
fn prospective_leader() -> (Server, Config) {
    let (mut s, c) = started(2, 3);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, looking(vote(2, 0, 0), 1));
        s.on_timer(ctx, Timer::FinalizeWait);
    });
    assert_eq!(s.state, ServerState::Leading);
    (s, c)
}

/// n2 of 3 leads epoch 1 with n0's promise.
fn established_leader() -> (Server, Config) {
    let (mut s, c) = prospective_leader();
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 0 });
        s.on_message(
            ctx,
            0,
            Msg::AckEpoch {
                epoch: 1,
                current_epoch: Some(0),
            },
        );
    });
    assert!(s.established);
    (s, c)
}

/// `getEpochToPropose`: one above the highest accepted epoch of the
/// quorum that connected; latecomers get the epoch already chosen.
#[test]
fn a_quorum_of_followerinfo_gets_leaderinfo_one_above_the_highest_accepted() {
    let (mut s, c) = prospective_leader();
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 4 })
    });
    let proposal = Msg::LeaderInfo { epoch: 5, zxid: 0 };
    assert_eq!(sends(&out), vec![(0, proposal)]);
    assert_eq!(votes(&out), vec![(5, 2)], "the leader votes for itself");
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(5))]);
    // A latecomer gets the same epoch.
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 0 })
    });
    assert_eq!(sends(&out), vec![(1, proposal)]);
}

/// Zab phase 1 (Discovery) and `getEpochToPropose` with five servers:
/// the leader waits until a quorum (itself included) has connected, and
/// the epoch goes above every accepted epoch among them, its own and a
/// follower's that is higher than the others'.
#[test]
fn the_epoch_waits_for_a_quorum_and_goes_above_the_highest_accepted_epoch() {
    let (mut s, c) = started(4, 5);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, looking(vote(4, 0, 0), 1));
        s.on_message(ctx, 1, looking(vote(4, 0, 0), 1));
        s.on_timer(ctx, Timer::FinalizeWait);
    });
    assert_eq!(s.state, ServerState::Leading);
    s.stored.accepted_epoch = 3;
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 7 })
    });
    assert!(out.is_empty(), "2 of 5 connected, no epoch yet: {out:?}");
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 2 })
    });
    let proposal = Msg::LeaderInfo { epoch: 8, zxid: 0 };
    assert_eq!(sends(&out), vec![(0, proposal), (1, proposal)]);
    assert_eq!(votes(&out), vec![(8, 4)]);
    assert_eq!(s.stored.accepted_epoch, 8, "its own promise, persisted");
    // A latecomer that promised the same epoch acknowledges it with -1:
    // it can follow, the leader keeps its epoch.
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::FollowerInfo { accepted_epoch: 8 })
    });
    assert_eq!(sends(&out), vec![(2, proposal)]);
    assert_eq!(out.len(), 1, "nothing else: {out:?}");
    assert_eq!(s.state, ServerState::Leading);
}

/// A follower that promised more than the epoch already chosen would
/// refuse it (`Learner.registerWithLeader`) on every try. The leader
/// sends `LEADERINFO` as ZooKeeper does, takes that promise as its own
/// accepted epoch and looks again; the next discovery with that
/// follower proposes one above it, and the follower promises it.
#[test]
fn a_latecomer_that_promised_more_makes_the_leader_look_again_and_propose_above_it() {
    let (mut s, c) = established_leader();
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 4 })
    });
    let own = looking(
        Vote {
            leader: 2,
            zxid: 0,
            epoch: 1,
        },
        2,
    );
    assert_eq!(
        sends(&out),
        vec![
            (1, Msg::LeaderInfo { epoch: 1, zxid: 0 }),
            (0, own),
            (1, own)
        ]
    );
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(4))]);
    assert!(votes(&out).is_empty(), "taking a promise is not a vote");
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(s.state, ServerState::Looking);
    assert_eq!(
        s.stored,
        Stored {
            accepted_epoch: 4,
            current_epoch: 1,
            last_zxid: 0,
        }
    );
    // n1 votes for it in round 2; it decides, and n1 connects again.
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, own);
        s.on_timer(ctx, Timer::FinalizeWait);
    });
    assert_eq!(s.state, ServerState::Leading);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, Msg::FollowerInfo { accepted_epoch: 4 })
    });
    assert_eq!(
        sends(&out),
        vec![(1, Msg::LeaderInfo { epoch: 5, zxid: 0 })]
    );
    assert_eq!(votes(&out), vec![(5, 2)]);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(
            ctx,
            1,
            Msg::AckEpoch {
                epoch: 5,
                current_epoch: Some(0),
            },
        )
    });
    assert_eq!(roles(&out), vec![(Role::Leader, Some(5))]);
}

#[test]
fn a_quorum_of_fresh_ackepoch_establishes_the_leader_in_the_new_epoch() {
    let (mut s, c) = prospective_leader();
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 0, Msg::FollowerInfo { accepted_epoch: 0 })
    });
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(
            ctx,
            0,
            Msg::AckEpoch {
                epoch: 1,
                current_epoch: None,
            },
        )
    });
    assert!(roles(&out).is_empty(), "an old promise does not count");
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(
            ctx,
            0,
            Msg::AckEpoch {
                epoch: 1,
                current_epoch: Some(0),
            },
        )
    });
    assert_eq!(roles(&out), vec![(Role::Leader, Some(1))]);
    assert!(sets(&out, Timer::Heartbeat));
    assert_eq!(s.stored.current_epoch, 1);
}

#[test]
fn once_the_epoch_is_established_the_leader_answers_with_it() {
    let (mut s, c) = established_leader();
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, looking(vote(1, 0, 0), 3))
    });
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Notification {
                vote: Vote {
                    leader: 2,
                    zxid: 0,
                    epoch: 1,
                },
                round: 1,
                state: ServerState::Leading,
            }
        )],
        "epoch 1, not the epoch 0 it was voted in with"
    );
}

/// n0 of 3 follows n2 and waits for its LEADERINFO.
fn follower_of_2(accepted_epoch: u64) -> (Server, Config) {
    let (mut s, c) = started(0, 3);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, looking(vote(2, 0, 0), 1));
        s.on_timer(ctx, Timer::FinalizeWait);
    });
    s.stored.accepted_epoch = accepted_epoch;
    (s, c)
}

/// `registerWithLeader`: an epoch above the accepted one is promised,
/// and ACKEPOCH carries the current epoch it had (a new promise).
#[test]
fn a_follower_promises_a_newer_epoch_once_and_votes() {
    let (mut s, c) = follower_of_2(3);
    s.stored.current_epoch = 2;
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(
            ctx,
            2,
            Msg::LeaderInfo {
                epoch: 4,
                zxid: zxid(3, 9),
            },
        )
    });
    assert_eq!(
        sends(&out),
        vec![(
            2,
            Msg::AckEpoch {
                epoch: 4,
                current_epoch: Some(2)
            }
        )]
    );
    assert_eq!(votes(&out), vec![(4, 2)]);
    assert_eq!(roles(&out), vec![(Role::Follower, Some(4))]);
    assert_eq!(
        s.stored,
        Stored {
            accepted_epoch: 4,
            current_epoch: 4,
            last_zxid: zxid(3, 9),
        }
    );
}

#[test]
fn a_follower_that_took_the_new_epoch_answers_with_it() {
    let (mut s, c) = follower_of_2(3);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 4, zxid: 0 })
    });
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, looking(vote(1, 4, 0), 2))
    });
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Notification {
                vote: Vote {
                    leader: 2,
                    zxid: 0,
                    epoch: 4,
                },
                round: 1,
                state: ServerState::Following,
            }
        )],
        "the leader's epoch 4, the zxid and round of the decision"
    );
}

/// `registerWithLeader`: an epoch equal to the accepted one is answered
/// with -1, which `waitForEpochAck` does not count.
#[test]
fn an_epoch_already_promised_is_acknowledged_without_a_new_vote() {
    let (mut s, c) = follower_of_2(4);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 4, zxid: 0 })
    });
    assert_eq!(
        sends(&out),
        vec![(
            2,
            Msg::AckEpoch {
                epoch: 4,
                current_epoch: None
            }
        )]
    );
    assert!(votes(&out).is_empty());
}

/// `registerWithLeader`: "Leaders epoch ... is less than accepted
/// epoch": the follower refuses that leader and looks again.
#[test]
fn an_older_epoch_than_promised_sends_the_follower_looking_again() {
    let (mut s, c) = follower_of_2(6);
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 5, zxid: 0 })
    });
    assert_eq!(s.state, ServerState::Looking);
    assert_eq!(s.round, 2);
    assert_eq!(sends(&out).len(), 2, "a new round's notifications");
    assert!(votes(&out).is_empty());
}

#[test]
fn a_leader_that_hears_no_quorum_within_the_sync_limit_steps_down() {
    let (mut s, c) = established_leader();
    // Follower n0 was last heard at local time 0; the tick comes later.
    let limit = c.election_timeout_us.0 as i64;
    s.learners.get_mut(&0).unwrap().heard_us = -limit - 1;
    let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::Heartbeat));
    assert_eq!(s.state, ServerState::Looking);
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(1))]);
    // Heard within the limit: pings instead.
    let (mut s, c) = established_leader();
    let out = cmds(&mut s, &c, |s, ctx| s.on_timer(ctx, Timer::Heartbeat));
    assert_eq!(sends(&out), vec![(0, Msg::Ping { zxid: 0 })]);
}

#[test]
fn a_follower_takes_the_zxid_of_its_leaders_ping_and_answers() {
    let (mut s, c) = follower_of_2(0);
    cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::LeaderInfo { epoch: 1, zxid: 0 })
    });
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 2, Msg::Ping { zxid: zxid(1, 3) })
    });
    assert_eq!(sends(&out), vec![(2, Msg::PingReply)]);
    assert_eq!(s.stored.last_zxid, zxid(1, 3));
    let out = cmds(&mut s, &c, |s, ctx| {
        s.on_message(ctx, 1, Msg::Ping { zxid: zxid(9, 9) })
    });
    assert!(sends(&out).is_empty(), "only its own leader's pings count");
}
