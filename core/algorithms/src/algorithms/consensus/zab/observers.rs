//! ZooKeeper's observers in Zab (the scenario's `"observers": k`; Apache
//! ZooKeeper, "ZooKeeper Observers" in the administrator's guide;
//! `Observer.observeLeader`, `LearnerHandler` for `OBSERVERINFO`,
//! `FastLeaderElection`'s `validVoter`): the last k servers follow the
//! leader but never vote and never stand.
//!
//! Rules, as simulated here (the voters' rules are those of the module
//! docs, with n the number of voters):
//! - Voters send their votes to the other voters only, and count quorums
//!   of voters only: in FLE's rounds, for the discovery quorum of
//!   `FOLLOWERINFO`, for the promises of `ACKEPOCH` and for the leader's
//!   check of who it heard from.
//! - An observer that knows no leader (at start, after a recovery, or when
//!   its leader goes quiet) does not look for one as a contender: it sends
//!   its `NOTIFICATION` (state LOOKING) to every voter, as ZooKeeper's
//!   observer does, and waits. It shows as an observer throughout, never
//!   as a candidate, and starts no election.
//! - A voter never counts or adopts an observer's vote (FLE's
//!   `validVoter`). A FOLLOWING or LEADING voter answers it with the vote
//!   it decided on, as it answers a LOOKING voter. A LOOKING voter (or
//!   one that has not looked yet) remembers who asked and answers once it
//!   decides; ZooKeeper's voter answers at once with its current proposal,
//!   which tells the observer nothing final, so the observer asks again,
//!   and here that exchange is folded into the one answer.
//! - The observer follows once a quorum of voters' answers name the same
//!   leader and epoch and the leader itself answered LEADING (the
//!   `ooePredicate` of a late joiner). It connects with `OBSERVERINFO`;
//!   the leader sends it `LEADERINFO` (at once if the epoch is chosen,
//!   else with its followers' when it is) and the observer answers
//!   `ACKEPOCH` with no promise. It takes the epoch and the history, and
//!   from then on the leader's `PING`s, which it answers.
//! - An observer that still knows no leader asks the voters again every
//!   twice the upper end of `election_timeout_ms` (the resend cap of the
//!   voters' back-off): a voter that remembered it answers anyway, so
//!   asking again only matters after lost messages or a voter's crash.
//!
//! Costs, every server starting at once with fixed latency and v = n - k
//! voters: the voters' election is that of v servers (NOTIFICATION
//! v(v-1)(v+1)/2, and v-1 each of FOLLOWERINFO, LEADERINFO, ACKEPOCH);
//! each observer adds v NOTIFICATIONs out and v answers back, one
//! OBSERVERINFO, one LEADERINFO and one ACKEPOCH: 2v + 3 per observer.
//! With every voter down the observers wait for ever (liveness is lost)
//! and never stand.
//!
//! # Observers: the rules as simulated
//!
//! **Observers** (`"observers": k`, `core/model/src/scenario/observers.rs`; the
//! rules in `core/algorithms/src/algorithms/consensus/zab/observers.rs`). Only
//! `zab` has them: the last k participants take the role `Observer` (the wasm's
//! `role_names()` lists it last). They follow the leader (its `LEADERINFO`
//! and `PING`s) but never vote, never stand and start no election; voters
//! send votes to voters only and count quorums of voters only. An observer
//! that knows no leader sends its notification to the voters, which answer
//! with the vote they decided on (a voter still LOOKING remembers who asked
//! and answers when it decides), then connects with `OBSERVERINFO`: with
//! v = n - k voters, the voters' election is that of v servers and each
//! observer adds 2v + 3 messages. The `zookeeper` recipe refuses the key: its
//! coordination service is one simulated node, not an ensemble of servers
//! that could include observers. Raft learners (non-voting members) are not
//! simulated. The validator refuses k > 0 for any other algorithm and k that
//! leaves no voter; the settings form (`query::apply_query_pairs`) drops the
//! observers when it picks an algorithm without them, and compare mode
//! refuses such an algorithm with the same message.

use super::{Ballot, C, Learner, Msg, Server, ServerState, Timer, notify_cap, zxid_text};
use crate::algorithms::detector::leader_timeout;
use crate::protocol::{NodeId, Role};

impl Server {
    /// The role this server shows while it follows: observers show as
    /// observers.
    pub(super) fn following_role(&self) -> Role {
        if self.observer() {
            Role::Observer
        } else {
            Role::Follower
        }
    }

    /// An observer that knows no leader: it asks the voters who leads.
    pub(super) fn ask_who_leads(&mut self, ctx: &mut C<'_>) {
        self.state = ServerState::Looking;
        self.round += 1;
        self.proposal = self.own_vote();
        self.recv.clear();
        self.out_of_election.clear();
        self.finalizing = false;
        self.decided = None;
        self.leader = None;
        self.proposed_epoch = None;
        self.established = false;
        self.learners.clear();
        self.synced = false;
        ctx.cancel_timer(Timer::LeaderTimeout);
        ctx.set_role(Role::Observer, Some(self.stored.accepted_epoch));
        ctx.set_leader(None);
        ctx.note_with(|| {
            format!(
                "an observer with no leader: asks the voters, n0 to n{}, who leads (it never votes)",
                self.voters - 1
            )
        });
        self.ask_voters(ctx);
    }

    /// Sends its notification to every voter and waits for answers.
    pub(super) fn ask_voters(&mut self, ctx: &mut C<'_>) {
        let msg = self.notification();
        for voter in 0..self.voters {
            ctx.send(voter, msg);
        }
        ctx.set_timer(Timer::NotifyTimeout, notify_cap(ctx.config()));
    }

    /// A voter hears an observer's notification: its vote never counts;
    /// it is answered with the decided vote now, or once there is one.
    pub(super) fn observer_asks(&mut self, ctx: &mut C<'_>, from: NodeId) {
        match self.decided {
            Some(d) if self.state != ServerState::Looking => {
                ctx.note_with(|| {
                    format!(
                        "observer n{from} asks who leads; answers with the vote it decided in round {}: n{} leads",
                        d.round, d.vote.leader
                    )
                });
                self.answer(ctx, from, d);
            }
            _ => {
                if let Err(at) = self.waiting.binary_search(&from) {
                    self.waiting.insert(at, from);
                }
                ctx.note_with(|| {
                    format!("observer n{from} asks who leads; it will answer once it decides")
                });
            }
        }
    }

    /// The decided vote, to a server that asked.
    fn answer(&self, ctx: &mut C<'_>, to: NodeId, decided: Ballot) {
        ctx.send(
            to,
            Msg::Notification {
                vote: decided.vote,
                round: decided.round,
                state: self.state,
            },
        );
    }

    /// A voter that just decided answers the observers that asked.
    pub(super) fn answer_waiting(&mut self, ctx: &mut C<'_>) {
        let Some(d) = self.decided else {
            return;
        };
        for observer in std::mem::take(&mut self.waiting) {
            self.answer(ctx, observer, d);
        }
    }

    /// An observer hears a notification: only the answers of decided
    /// voters matter to it.
    pub(super) fn observer_hears(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        if self.state != ServerState::Looking
            || peer.state == ServerState::Looking
            || self.is_observer(from)
        {
            return;
        }
        self.out_of_election.insert(from, peer);
        let agree = self
            .out_of_election
            .values()
            .filter(|b| b.agrees(&peer))
            .count();
        let leader = peer.vote.leader;
        let confirmed = self
            .out_of_election
            .get(&leader)
            .is_some_and(|b| b.state == ServerState::Leading);
        if agree >= self.quorum() && confirmed {
            ctx.note_with(|| {
                format!(
                    "{agree} voters answered that n{leader} leads, n{leader} itself LEADING: observes it"
                )
            });
            self.observe(ctx, peer);
        }
    }

    /// The observer follows `ballot`'s leader: it connects with
    /// `OBSERVERINFO`.
    fn observe(&mut self, ctx: &mut C<'_>, ballot: Ballot) {
        let leader = ballot.vote.leader;
        ctx.cancel_timer(Timer::NotifyTimeout);
        self.recv.clear();
        self.out_of_election.clear();
        self.decided = Some(Ballot {
            state: ServerState::Looking,
            ..ballot
        });
        self.state = ServerState::Following;
        self.leader = Some(leader);
        self.synced = false;
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Observer, Some(self.stored.accepted_epoch));
        ctx.set_leader(Some(leader));
        ctx.send(leader, Msg::ObserverInfo);
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }

    /// The leader (or prospective leader) hears `OBSERVERINFO`.
    pub(super) fn on_observer_info(&mut self, ctx: &mut C<'_>, from: NodeId) {
        if self.state == ServerState::Following || !self.is_observer(from) {
            return; // not leading: the connection is refused
        }
        let now = ctx.local_now_us();
        let learner = self.learners.get_or_insert(
            from,
            Learner {
                accepted_epoch: 0,
                acked: false,
                fresh: false,
                heard_us: now,
                observer: true,
            },
        );
        learner.heard_us = now;
        if self.state == ServerState::Looking {
            ctx.note_with(|| {
                format!("observer n{from} connects; still LOOKING, it keeps the connection waiting")
            });
            return;
        }
        // Without a chosen epoch, LEADERINFO goes to every connected
        // learner, observers included, once a quorum of voters connected.
        if let Some(epoch) = self.proposed_epoch {
            ctx.send(
                from,
                Msg::LeaderInfo {
                    epoch,
                    zxid: self.stored.last_zxid,
                },
            );
        }
    }

    /// An observer takes its leader's epoch and history; it promises
    /// nothing (its `ACKEPOCH` is "already accepted", never counted).
    pub(super) fn observer_takes_epoch(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        epoch: u64,
        zxid: u64,
    ) {
        self.stored.accepted_epoch = self.stored.accepted_epoch.max(epoch);
        self.stored.current_epoch = epoch;
        self.stored.last_zxid = zxid;
        self.synced = true;
        self.heard_leader_us = ctx.local_now_us();
        ctx.set_role(Role::Observer, Some(self.stored.accepted_epoch));
        ctx.note_with(|| {
            format!(
                "observes epoch {epoch} of n{from}: takes its history up to {}; promises nothing",
                zxid_text(zxid)
            )
        });
        ctx.send(
            from,
            Msg::AckEpoch {
                epoch,
                current_epoch: None,
            },
        );
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::LeaderTimeout, t);
    }
}
