//! One event in, the exact commands out (Raft paper, figure 2 and
//! sections 5.2, 5.4.1; dissertation 9.6).
use super::*;
use crate::ScenarioExt;
use crate::protocol::Command;
use crate::protocol::testing::{commands, sends};
use crate::protocol::{Boot, Config, Role};
use crate::scenario::Scenario;

fn config(extra: &str) -> Config {
    let s = Scenario::from_json(&format!(r#"{{"algorithm":"raft","nodes":5{extra}}}"#)).unwrap();
    Config::from_scenario(&s, Raft::EXTRAS)
}

fn server(id: NodeId, c: &Config) -> Server {
    Server::new(id, c, &Persistent::default())
}

fn rv(term: u64, index: u64, log_term: u64) -> Msg {
    Msg::RequestVote {
        term,
        last_log_index: index,
        last_log_term: log_term,
    }
}

fn votes(out: &[Command<Msg, Timer>]) -> Vec<(u64, NodeId)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Vote { term, candidate } => Some((*term, *candidate)),
            _ => None,
        })
        .collect()
}

#[test]
fn timing_out_starts_an_election_in_the_next_term() {
    let c = config("");
    let mut node = server(2, &c);
    let out = commands(&mut node, 2, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    assert_eq!(
        sends(&out),
        [0, 1, 3, 4].map(|p| (p, rv(1, 0, 0))).to_vec(),
        "RequestVote to the n-1 others, never to the resource"
    );
    assert_eq!(votes(&out), vec![(1, 2)], "votes for itself");
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert!(out.iter().any(|c| matches!(
        c,
        Command::Role {
            role: Role::Candidate,
            term: Some(1)
        }
    )));
    assert_eq!((node.term, node.voted_for), (1, Some(2)));
}

#[test]
fn one_vote_per_term_first_come_first_served() {
    let c = config("");
    let mut node = server(0, &c);
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 1, rv(1, 0, 0)));
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Vote {
                term: 1,
                granted: true
            }
        )]
    );
    assert_eq!(votes(&out), vec![(1, 1)]);
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 2, rv(1, 0, 0)));
    assert_eq!(
        sends(&out),
        vec![(
            2,
            Msg::Vote {
                term: 1,
                granted: false
            }
        )]
    );
    assert!(votes(&out).is_empty());
    // The same candidate asking again (a retry) gets the same answer.
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 1, rv(1, 0, 0)));
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Vote {
                term: 1,
                granted: true
            }
        )]
    );
}

#[test]
fn a_less_up_to_date_candidate_is_refused() {
    // 5.4.1: our log ends with an entry of term 2 at index 3.
    let c = config("");
    let p = Persistent {
        term: 2,
        voted_for: None,
        log: vec![1, 1, 2],
    };
    let mut node = Server::new(0, &c, &p);
    for (index, log_term, granted) in [
        (5, 1, false), // longer, but its last term is older
        (2, 2, false), // same last term, shorter
        (3, 2, true),  // as up to date
    ] {
        let mut fresh = node.clone();
        let out = commands(&mut fresh, 0, &c, |n, ctx| {
            n.on_message(ctx, 1, rv(3, index, log_term))
        });
        assert_eq!(
            sends(&out),
            vec![(1, Msg::Vote { term: 3, granted })],
            "candidate log {index}@t{log_term}"
        );
    }
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 1, rv(3, 1, 3)));
    assert_eq!(
        sends(&out),
        vec![(
            1,
            Msg::Vote {
                term: 3,
                granted: true
            }
        )]
    );
}

#[test]
fn a_vote_survives_a_crash_within_the_term() {
    let c = config("");
    let mut node = server(0, &c);
    commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 1, rv(4, 0, 0)));
    // Crash: only the persistent state comes back.
    let saved = node.persistent();
    assert_eq!(
        saved,
        Persistent {
            term: 4,
            voted_for: Some(1),
            log: vec![],
        }
    );
    let mut back = Server::new(0, &c, &saved);
    commands(&mut back, 0, &c, |n, ctx| n.on_start(ctx, Boot::Recover));
    let out = commands(&mut back, 0, &c, |n, ctx| n.on_message(ctx, 2, rv(4, 0, 0)));
    assert_eq!(
        sends(&out),
        vec![(
            2,
            Msg::Vote {
                term: 4,
                granted: false
            }
        )]
    );
    assert!(votes(&out).is_empty(), "no second vote in term 4");
    // In the next term it may vote again.
    let out = commands(&mut back, 0, &c, |n, ctx| n.on_message(ctx, 2, rv(5, 0, 0)));
    assert_eq!(votes(&out), vec![(5, 2)]);
}

#[test]
fn a_majority_of_votes_makes_a_leader_that_heartbeats_at_once() {
    let c = config("");
    let mut node = server(0, &c);
    commands(&mut node, 0, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    let yes = Msg::Vote {
        term: 1,
        granted: true,
    };
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 1, yes.clone()));
    assert!(sends(&out).is_empty(), "2 of 5 is not a majority");
    let refused = Msg::Vote {
        term: 1,
        granted: false,
    };
    commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 2, refused));
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 3, yes));
    assert_eq!(node.phase, Phase::Leader);
    let beat = Msg::AppendEntries {
        term: 1,
        prev_log_index: 0,
        prev_log_term: 0,
        entries: vec![],
        leader_commit: 0,
        round: 1,
    };
    assert_eq!(
        sends(&out),
        [1, 2, 3, 4].map(|p| (p, beat.clone())).to_vec()
    );
}

#[test]
fn a_higher_term_makes_the_leader_step_down() {
    let c = config("");
    let mut node = server(0, &c);
    commands(&mut node, 0, &c, |n, ctx| {
        n.on_start(ctx, Boot::Fresh { initiate: true })
    });
    for p in [1, 2] {
        let yes = Msg::Vote {
            term: 1,
            granted: true,
        };
        commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, p, yes));
    }
    assert_eq!(node.phase, Phase::Leader);
    let reply = Msg::AppendReply {
        term: 7,
        success: false,
        match_index: 0,
        round: 1,
    };
    let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 3, reply));
    assert_eq!((node.phase, node.term), (Phase::Follower, 7));
    assert!(out.iter().any(|c| matches!(
        c,
        Command::Role {
            role: Role::Follower,
            term: Some(7)
        }
    )));
    assert!(
        out.iter()
            .any(|c| matches!(c, Command::CancelTimer(Timer::Heartbeat)))
    );
}

#[test]
fn append_entries_checks_the_previous_entry() {
    let c = config("");
    let p = Persistent {
        term: 2,
        voted_for: None,
        log: vec![1, 1],
    };
    let mut node = Server::new(1, &c, &p);
    let append = |prev: u64, prev_term: u64, entries: Vec<u64>| Msg::AppendEntries {
        term: 2,
        prev_log_index: prev,
        prev_log_term: prev_term,
        entries,
        leader_commit: 3,
        round: 9,
    };
    let reply = |success, match_index| Msg::AppendReply {
        term: 2,
        success,
        match_index,
        round: 9,
    };
    // Index 2 holds term 1, not 2: mismatch, answer with our length.
    let out = commands(&mut node, 1, &c, |n, ctx| {
        n.on_message(ctx, 0, append(2, 2, vec![2]))
    });
    assert_eq!(sends(&out), vec![(0, reply(false, 2))]);
    assert_eq!(node.leader, Some(0), "a valid leader all the same");
    // Beyond our log: mismatch.
    let out = commands(&mut node, 1, &c, |n, ctx| {
        n.on_message(ctx, 0, append(4, 2, vec![]))
    });
    assert_eq!(sends(&out), vec![(0, reply(false, 2))]);
    // Matching index 1: the conflicting entry 2 is replaced.
    let out = commands(&mut node, 1, &c, |n, ctx| {
        n.on_message(ctx, 0, append(1, 1, vec![2, 2]))
    });
    assert_eq!(sends(&out), vec![(0, reply(true, 3))]);
    assert_eq!(node.log, vec![1, 2, 2]);
    assert_eq!(node.commit_index, 3);
}

#[test]
fn pre_vote_leaves_the_term_alone_and_respects_a_live_leader() {
    let c = config(r#","pre_vote":true"#);
    let mut node = server(4, &c);
    let out = commands(&mut node, 4, &c, |n, ctx| n.on_timer(ctx, Timer::Election));
    let ask = Msg::PreVote {
        term: 1,
        last_log_index: 0,
        last_log_term: 0,
    };
    assert_eq!(sends(&out), [0, 1, 2, 3].map(|p| (p, ask.clone())).to_vec());
    assert_eq!(node.term, 0, "no term change for a pre-vote");
    assert!(!out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    // A server that has heard from no leader says yes ...
    let mut free = server(0, &c);
    let out = commands(&mut free, 0, &c, |n, ctx| n.on_message(ctx, 4, ask.clone()));
    assert_eq!(
        sends(&out),
        vec![(
            4,
            Msg::PreVoteReply {
                term: 1,
                granted: true
            }
        )]
    );
    assert_eq!(free.term, 0);
    // ... one that just heard from its leader says no.
    let mut loyal = server(1, &c);
    let beat = Msg::AppendEntries {
        term: 0,
        prev_log_index: 0,
        prev_log_term: 0,
        entries: vec![],
        leader_commit: 0,
        round: 1,
    };
    commands(&mut loyal, 1, &c, |n, ctx| n.on_message(ctx, 0, beat));
    let out = commands(&mut loyal, 1, &c, |n, ctx| {
        n.on_message(ctx, 4, ask.clone())
    });
    assert_eq!(
        sends(&out),
        vec![(
            4,
            Msg::PreVoteReply {
                term: 1,
                granted: false
            }
        )]
    );
    // A majority of yeses starts the real election for term 1.
    for p in [0, 2] {
        let yes = Msg::PreVoteReply {
            term: 1,
            granted: true,
        };
        commands(&mut node, 4, &c, |n, ctx| n.on_message(ctx, p, yes));
    }
    assert_eq!((node.phase, node.term), (Phase::Candidate, 1));
}

#[test]
fn the_resource_applies_the_leaders_writes() {
    let c = config("");
    assert_eq!(c.resource, Some(5));
    let mut storage = Raft::new(5, &c, &Default::default());
    let out = commands(&mut storage, 5, &c, |n, ctx| {
        n.on_message(ctx, 2, Msg::Write { token: 3 })
    });
    assert!(out.iter().any(|c| matches!(
        c,
        Command::ResourceWrite {
            writer: 2,
            token: 3,
            accepted: true
        }
    )));
}
