//! One event in, the exact commands out (the ZooKeeper recipe, "Leader
//! Election"; the session rules of the ZooKeeper Programmer's Guide).

use super::*;
use crate::ScenarioExt;
use crate::protocol::testing::{commands, ctx_commands, sends};
use crate::protocol::{Boot, Command, Config, Role};
use crate::scenario::Scenario;

/// n clients: the service is n, the resource n + 1.
fn config(n: u32, watch: &str) -> Config {
    let json = format!(r#"{{"algorithm":"zookeeper","nodes":{n},"watch":"{watch}"}}"#);
    Config::from_scenario(&Scenario::from_json(&json).unwrap(), ZooKeeper::EXTRAS)
}

fn z(seq: u64, owner: NodeId) -> Znode {
    Znode {
        seq,
        owner,
        session: u64::from(owner) + 100,
    }
}

/// Client `id` with session `id + 100` and znode `seq`, listing.
fn listing(id: NodeId, seq: u64, c: &Config) -> Client {
    let mut client = Client::new(id, c, &seq);
    client.session = Some(u64::from(id) + 100);
    client.znode = Some(seq);
    client.connected = true;
    client.phase = Phase::Listing;
    client
}

/// Runs `f` on a client (not a whole node) and returns its commands.
fn on(
    client: &mut Client,
    c: &Config,
    f: impl FnOnce(&mut Client, &mut C<'_>),
) -> Vec<Command<Msg, Timer>> {
    let id = client.id;
    ctx_commands(id, c, |ctx| f(client, ctx))
}

fn roles<M, T>(out: &[Command<M, T>]) -> Vec<(Role, Option<u64>)> {
    out.iter()
        .filter_map(|c| match c {
            Command::Role { role, term } => Some((*role, *term)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_client_opens_a_session_then_creates_its_znode() {
    let c = config(3, "predecessor");
    let mut node = ZooKeeper::new(1, &c, &Default::default());
    let out = commands(&mut node, 1, &c, |p, ctx| {
        p.on_start(ctx, Boot::Fresh { initiate: true })
    });
    assert_eq!(sends(&out), vec![(3, Msg::Connect)]);
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(0))]);
    let out = commands(&mut node, 1, &c, |p, ctx| {
        p.on_message(ctx, 3, Msg::Connected { session: 7 })
    });
    assert_eq!(sends(&out), vec![(3, Msg::Create { session: 7 })]);
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    let out = commands(&mut node, 1, &c, |p, ctx| {
        p.on_message(
            ctx,
            3,
            Msg::Created {
                znode: Znode {
                    seq: 4,
                    owner: 1,
                    session: 7,
                },
            },
        )
    });
    assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 7 })]);
    assert_eq!(
        roles(&out),
        vec![(Role::Candidate, Some(4))],
        "the term is the znode's sequence number"
    );
}

#[test]
fn the_lowest_znode_leads_and_writes_with_its_sequence_number() {
    let c = config(3, "predecessor");
    let mut client = listing(2, 5, &c);
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(5, 2), z(6, 0), z(9, 1)])
    });
    assert_eq!(roles(&out), vec![(Role::Leader, Some(5))]);
    assert_eq!(sends(&out), vec![(4, Msg::Write { token: 5 })]);
    assert_eq!(client.phase, Phase::Leading);
}

#[test]
fn with_predecessor_watches_a_client_watches_the_znode_just_below_its_own() {
    let c = config(3, "predecessor");
    let mut client = listing(2, 5, &c);
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(1, 0), z(3, 1), z(5, 2)])
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::Exists {
                session: 102,
                seq: 3
            }
        )]
    );
    assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(0)))));
    assert_eq!(roles(&out), vec![(Role::Follower, Some(5))]);
}

#[test]
fn with_herd_watches_every_client_watches_the_lowest() {
    let c = config(3, "herd");
    let mut client = listing(2, 5, &c);
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(1, 0), z(3, 1), z(5, 2)])
    });
    assert_eq!(
        sends(&out),
        vec![(
            3,
            Msg::Exists {
                session: 102,
                seq: 1
            }
        )]
    );
}

#[test]
fn a_watch_event_makes_the_client_list_again() {
    let c = config(3, "herd");
    let mut client = listing(2, 5, &c);
    on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(1, 0), z(5, 2)])
    });
    on(&mut client, &c, |cl, ctx| {
        cl.on_message(
            ctx,
            c.n,
            Msg::Stat {
                seq: 1,
                exists: true,
            },
        )
    });
    assert_eq!(client.phase, Phase::Watching(1));
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_message(ctx, c.n, Msg::WatchEvent { seq: 1 })
    });
    assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 102 })]);
    assert!(out.iter().any(|c| matches!(c, Command::Leader(None))));
    assert!(out.iter().any(|c| matches!(c, Command::ElectionStarted)));
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(5))]);
}

#[test]
fn a_watched_znode_already_gone_means_list_again() {
    let c = config(3, "predecessor");
    let mut client = listing(2, 5, &c);
    on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(1, 0), z(5, 2)])
    });
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_message(
            ctx,
            c.n,
            Msg::Stat {
                seq: 1,
                exists: false,
            },
        )
    });
    assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 102 })]);
}

#[test]
fn an_expired_session_ends_leadership_and_the_client_joins_again() {
    let c = config(3, "predecessor");
    let mut client = listing(0, 2, &c);
    on(&mut client, &c, |cl, ctx| cl.on_children(ctx, &[z(2, 0)]));
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_message(ctx, c.n, Msg::SessionExpired { session: 100 })
    });
    assert_eq!(sends(&out), vec![(3, Msg::Connect)]);
    assert!(
        out.iter()
            .any(|c| matches!(c, Command::CancelTimer(Timer::Write)))
    );
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(2))]);
    assert_eq!((client.session, client.znode), (None, None));
}

#[test]
fn two_silent_ping_periods_mean_connection_lost_and_the_leader_stops() {
    let c = config(3, "predecessor");
    let mut client = listing(0, 2, &c);
    on(&mut client, &c, |cl, ctx| cl.on_children(ctx, &[z(2, 0)]));
    for tick in 0..2 {
        let out = on(&mut client, &c, |cl, ctx| cl.on_ping_tick(ctx));
        assert_eq!(sends(&out), vec![(3, Msg::Ping { session: 100 })]);
        assert!(roles(&out).is_empty(), "tick {tick}: still leads");
    }
    let out = on(&mut client, &c, |cl, ctx| cl.on_ping_tick(ctx));
    assert_eq!(roles(&out), vec![(Role::Candidate, Some(2))]);
    assert_eq!(client.phase, Phase::Disconnected);
    // An answer: the session lived; the client checks again.
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_message(
            ctx,
            c.n,
            Msg::Pong {
                lowest: Some(z(2, 0)),
            },
        )
    });
    assert_eq!(sends(&out), vec![(3, Msg::GetChildren { session: 100 })]);
}

#[test]
fn a_follower_learns_the_new_leader_from_the_keepalive_answer() {
    let c = config(4, "predecessor");
    let mut client = listing(3, 7, &c);
    on(&mut client, &c, |cl, ctx| {
        cl.on_children(ctx, &[z(1, 0), z(4, 1), z(7, 3)])
    });
    let out = on(&mut client, &c, |cl, ctx| {
        cl.on_message(
            ctx,
            c.n,
            Msg::Pong {
                lowest: Some(z(4, 1)),
            },
        )
    });
    assert!(sends(&out).is_empty(), "no extra message");
    assert!(out.iter().any(|c| matches!(c, Command::Leader(Some(1)))));
}

#[test]
fn the_service_answers_an_unknown_session_with_session_expired() {
    let c = config(2, "predecessor");
    let mut node = ZooKeeper::new(2, &c, &Default::default());
    let out = commands(&mut node, 2, &c, |p, ctx| {
        p.on_message(ctx, 0, Msg::Ping { session: 9 })
    });
    assert_eq!(sends(&out), vec![(0, Msg::SessionExpired { session: 9 })]);
    let out = commands(&mut node, 2, &c, |p, ctx| {
        p.on_message(ctx, 1, Msg::Connect)
    });
    assert_eq!(sends(&out), vec![(1, Msg::Connected { session: 0 })]);
}

#[test]
fn session_expiry_on_the_service_fires_the_watch_as_a_watch_event() {
    let c = config(2, "predecessor");
    let mut node = ZooKeeper::new(2, &c, &Default::default());
    commands(&mut node, 2, &c, |p, ctx| {
        p.on_message(ctx, 0, Msg::Connect);
        p.on_message(ctx, 1, Msg::Connect);
        p.on_message(ctx, 0, Msg::Create { session: 0 });
        p.on_message(ctx, 1, Msg::Create { session: 1 });
        p.on_message(ctx, 1, Msg::Exists { session: 1, seq: 0 });
    });
    let Node::Service(svc) = &mut node else {
        panic!("node 2 is the service")
    };
    let fired = ctx_commands(2, &c, |ctx: &mut C<'_>| {
        for n in svc.expire(ctx, 0) {
            ctx.send(n.to, Msg::WatchEvent { seq: n.seq });
        }
    });
    assert_eq!(sends(&fired), vec![(1, Msg::WatchEvent { seq: 0 })]);
}

#[test]
fn the_service_keeps_its_znodes_across_a_crash() {
    let c = config(2, "predecessor");
    let mut node = ZooKeeper::new(2, &c, &Default::default());
    commands(&mut node, 2, &c, |p, ctx| {
        p.on_message(ctx, 0, Msg::Connect);
        p.on_message(ctx, 0, Msg::Create { session: 0 });
    });
    let mut back = ZooKeeper::new(2, &c, &node.persistent());
    let out = commands(&mut back, 2, &c, |p, ctx| {
        p.on_start(ctx, Boot::Recover);
        p.on_message(ctx, 0, Msg::Ping { session: 0 });
    });
    assert_eq!(
        sends(&out),
        vec![(
            0,
            Msg::Pong {
                lowest: Some(Znode {
                    seq: 0,
                    owner: 0,
                    session: 0
                })
            }
        )]
    );
}
