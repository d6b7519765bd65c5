//! One event in, the exact commands out (client-go
//! `tools/leaderelection`, `tryAcquireOrRenew` and the `renew` loop).

use super::*;
use crate::ScenarioExt;
use crate::protocol::testing::{commands, ctx_commands, sends};
use crate::protocol::{Command, Config, Message, Purpose, Role};
use crate::scenario::Scenario;

/// n candidates: the service is n, the resource n + 1; lease 1000 ms,
/// renew deadline 800 ms, retry 200 ms.
fn config(n: u32) -> Config {
    let json = format!(r#"{{"algorithm":"lease","nodes":{n}}}"#);
    Config::from_scenario(&Scenario::from_json(&json).unwrap(), Lease::EXTRAS)
}

fn on(
    e: &mut Elector,
    c: &Config,
    f: impl FnOnce(&mut Elector, &mut C<'_>),
) -> Vec<Command<Msg, Timer>> {
    let id = e.id;
    ctx_commands(id, c, |ctx| f(e, ctx))
}

fn held(holder: NodeId, version: u64, transitions: u64) -> LeaseRecord {
    LeaseRecord {
        holder: Some(holder),
        version,
        transitions,
        acquire_time_us: 0,
        renew_time_us: 0,
        duration_us: 1_000_000,
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

fn leader_of(c: &Config, id: NodeId, record: LeaseRecord) -> Elector {
    let mut e = Elector::new(id, c, &0);
    e.acquiring = true;
    on(&mut e, c, |e, ctx| {
        e.on_message(
            ctx,
            c.n,
            Msg::Updated {
                record,
                acquire: true,
            },
        )
    });
    assert!(e.leading);
    e
}

#[test]
fn a_free_lease_is_taken_with_compare_and_swap_on_its_version() {
    let c = config(3);
    let mut e = Elector::new(1, &c, &0);
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(
            ctx,
            c.n,
            Msg::Lease {
                record: LeaseRecord::default(),
            },
        )
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::Update {
                expected: 0,
                record: LeaseRecord {
                    holder: Some(1),
                    version: 0,
                    transitions: 1,
                    acquire_time_us: 0,
                    renew_time_us: 0,
                    duration_us: 1_000_000,
                },
                acquire: true,
            }
        )]
    );
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(
        Msg::Update {
            expected: 0,
            record: LeaseRecord::default(),
            acquire: true
        }
        .purpose(),
        Purpose::Election
    );
}

#[test]
fn a_held_lease_is_followed_until_it_looks_expired_by_the_local_clock() {
    let c = config(3);
    let mut e = Elector::new(2, &c, &0);
    let record = held(0, 4, 1);
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(ctx, c.n, Msg::Lease { record })
    });
    assert!(sends(&out).is_empty());
    assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(0)))));
    assert_eq!(roles(&out), vec![(Role::Follower, Some(1))]);
    // The same version, seen again a whole lease later by this clock
    // (observed 1000 ms before the context's local time 0).
    e.observed_at = -1_000_000;
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(ctx, c.n, Msg::Lease { record })
    });
    assert!(matches!(
        sends(&out)[..],
        [(
            3,
            Msg::Update {
                expected: 4,
                acquire: true,
                record: LeaseRecord {
                    holder: Some(2),
                    transitions: 2,
                    ..
                },
            }
        )]
    ));
    // One microsecond short of the lease: still valid.
    e.acquiring = false;
    e.observed_at = -999_999;
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(ctx, c.n, Msg::Lease { record })
    });
    assert!(sends(&out).is_empty());
}

#[test]
fn winning_the_swap_makes_a_leader_that_writes_with_its_transitions() {
    let c = config(3);
    let mut e = Elector::new(1, &c, &0);
    e.acquiring = true;
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(
            ctx,
            c.n,
            Msg::Updated {
                record: held(1, 5, 3),
                acquire: true,
            },
        )
    });
    assert_eq!(roles(&out), vec![(Role::Leader, Some(3))]);
    assert!(out.iter().any(|c| matches!(c, Command::Lease(true))));
    assert_eq!(sends(&out), vec![(4, Msg::Write { token: 3 })]);
}

#[test]
fn losing_the_swap_follows_the_winner() {
    let c = config(3);
    let mut e = Elector::new(1, &c, &0);
    e.acquiring = true;
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(
            ctx,
            c.n,
            Msg::Conflict {
                record: held(2, 1, 1),
                acquire: true,
            },
        )
    });
    assert!(sends(&out).is_empty());
    assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(2)))));
    assert_eq!(roles(&out), vec![(Role::Follower, Some(1))]);
}

#[test]
fn the_holder_renews_every_retry_period_as_background() {
    let c = config(3);
    let mut e = leader_of(&c, 0, held(0, 1, 1));
    let out = on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
    let sent = sends(&out);
    assert!(matches!(
        sent[..],
        [(
            3,
            Msg::Update {
                expected: 1,
                acquire: false,
                ..
            }
        )]
    ));
    assert_eq!(sent[0].1.purpose(), Purpose::Background);
    assert_eq!(e.deadline, Some(800_000), "a cycle starts: 800 ms to renew");
}

#[test]
fn a_holder_that_cannot_renew_within_the_deadline_stops_leading() {
    let c = config(3);
    let mut e = leader_of(&c, 0, held(0, 1, 1));
    on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
    // No UPDATED came back; the deadline (local 800 ms) has passed.
    e.deadline = Some(0);
    let out = on(&mut e, &c, |e, ctx| e.on_timer(ctx, Timer::Retry));
    assert!(out.iter().any(|c| matches!(c, Command::Lease(false))));
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(1))]);
    assert_eq!(sends(&out), vec![(3, Msg::Get)], "back to reading");
}

#[test]
fn a_renewal_that_finds_another_holder_ends_leadership_at_once() {
    let c = config(3);
    let mut e = leader_of(&c, 0, held(0, 1, 1));
    let out = on(&mut e, &c, |e, ctx| {
        e.on_message(
            ctx,
            c.n,
            Msg::Conflict {
                record: held(2, 6, 2),
                acquire: false,
            },
        )
    });
    assert!(out.iter().any(|c| matches!(c, Command::Lease(false))));
    assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(2)))));
    assert_eq!(
        roles(&out),
        vec![(Role::Candidate, Some(1)), (Role::Follower, Some(2))]
    );
}

#[test]
fn the_service_writes_only_if_the_version_is_current() {
    let c = config(2);
    let mut node = Lease::new(2, &c, &Default::default());
    let out = commands(&mut node, 2, &c, |p, ctx| {
        p.on_message(
            ctx,
            0,
            Msg::Update {
                expected: 0,
                record: held(0, 0, 1),
                acquire: true,
            },
        );
        p.on_message(
            ctx,
            1,
            Msg::Update {
                expected: 0,
                record: held(1, 0, 1),
                acquire: true,
            },
        );
    });
    let first = held(0, 1, 1);
    assert_eq!(
        sends(&out),
        vec![
            (
                0,
                Msg::Updated {
                    record: first,
                    acquire: true
                }
            ),
            (
                1,
                Msg::Conflict {
                    record: first,
                    acquire: true
                }
            ),
        ]
    );
    // The Lease survives a crash of the service.
    let mut back = Lease::new(2, &c, &node.persistent());
    let out = commands(&mut back, 2, &c, |p, ctx| p.on_message(ctx, 1, Msg::Get));
    assert_eq!(sends(&out), vec![(1, Msg::Lease { record: first })]);
}
