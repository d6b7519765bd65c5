//! FastLeaderElection (ZooKeeper's `FastLeaderElection.lookForLeader`):
//! a LOOKING server's rounds, the votes it adopts and sends, and the
//! quorum of agreeing votes that decides who leads.

use super::{Ballot, C, Learner, Msg, Server, ServerState, Stored, Timer, Vote, finalize_wait, ms};
use crate::protocol::{Config, NodeId, Role};
use crate::vec_map::VecMap;

impl Server {
    pub(super) fn new(id: NodeId, config: &Config, stored: Stored) -> Self {
        let own = Vote {
            leader: id,
            zxid: stored.last_zxid,
            epoch: stored.current_epoch,
        };
        Self {
            id,
            n: config.n,
            voters: config.n.saturating_sub(config.options.observers).max(1),
            stored,
            state: ServerState::Following,
            round: 0,
            proposal: own,
            recv: VecMap::new(),
            out_of_election: VecMap::new(),
            notify_wait_us: finalize_wait(config),
            finalizing: false,
            decided: None,
            leader: None,
            proposed_epoch: None,
            established: false,
            learners: VecMap::new(),
            synced: false,
            txns: 0,
            next_write_us: 0,
            heard_leader_us: 0,
            elections_started: 0,
            resource: config.resource,
            waiting: Vec::new(),
        }
    }

    /// A majority of the voters (observers never count).
    pub(super) fn quorum(&self) -> usize {
        self.voters as usize / 2 + 1
    }

    /// Whether `id` is an observer (one of the last `observers` ids).
    pub(super) fn is_observer(&self, id: NodeId) -> bool {
        id >= self.voters
    }

    /// Whether this server is an observer.
    pub(super) fn observer(&self) -> bool {
        self.is_observer(self.id)
    }

    /// The learners that count toward a quorum (observers do not).
    pub(super) fn voting_learners(&self) -> impl Iterator<Item = &Learner> {
        self.learners.values().filter(|l| !l.observer)
    }

    pub(super) fn own_vote(&self) -> Vote {
        Vote {
            leader: self.id,
            zxid: self.stored.last_zxid,
            epoch: self.stored.current_epoch,
        }
    }

    pub(super) fn ballot(&self) -> Ballot {
        Ballot {
            vote: self.proposal,
            round: self.round,
            state: ServerState::Looking,
        }
    }

    pub(super) fn notification(&self) -> Msg {
        Msg::Notification {
            vote: self.proposal,
            round: self.round,
            state: ServerState::Looking,
        }
    }

    /// Sends its vote to every other voter (observers are never sent
    /// votes; without observers, every other server).
    pub(super) fn broadcast(&self, ctx: &mut C<'_>) {
        let msg = self.notification();
        for peer in (0..self.voters).filter(|&p| p != self.id) {
            ctx.send(peer, msg);
        }
    }

    /// FLE's `lookForLeader`: a new round, a vote for itself, sent to all.
    pub(super) fn look_for_leader(&mut self, ctx: &mut C<'_>) {
        if self.observer() {
            self.ask_who_leads(ctx);
            return;
        }
        self.state = ServerState::Looking;
        self.round += 1;
        self.proposal = self.own_vote();
        self.recv.clear();
        self.recv.insert(self.id, self.ballot());
        self.out_of_election.clear();
        self.notify_wait_us = finalize_wait(ctx.config());
        self.finalizing = false;
        self.decided = None;
        self.leader = None;
        self.proposed_epoch = None;
        self.established = false;
        self.learners.clear();
        self.synced = false;
        self.elections_started += 1;
        for t in [
            Timer::FinalizeWait,
            Timer::LeaderTimeout,
            Timer::Establish,
            Timer::Heartbeat,
            Timer::Write,
        ] {
            ctx.cancel_timer(t);
        }
        ctx.election_started();
        ctx.set_role(Role::Candidate, Some(self.stored.accepted_epoch));
        ctx.set_leader(None);
        ctx.note_with(|| {
            format!(
                "LOOKING in round {}: votes for itself, {}, and tells everyone",
                self.round, self.proposal
            )
        });
        self.broadcast(ctx);
        ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
        self.check_votes(ctx);
    }

    /// Starts the finalize wait once a quorum of this round's votes equals
    /// its own (FLE's `termPredicate`).
    pub(super) fn check_votes(&mut self, ctx: &mut C<'_>) {
        if self.finalizing {
            return;
        }
        let mine = self.ballot();
        let agree = self.recv.values().filter(|b| b.agrees(&mine)).count();
        if agree >= self.quorum() {
            self.finalizing = true;
            let wait = finalize_wait(ctx.config());
            ctx.cancel_timer(Timer::NotifyTimeout);
            ctx.set_timer(Timer::FinalizeWait, wait);
            ctx.note_with(|| {
                format!(
                    "{agree} of {} votes in round {} are for n{}, a quorum; waits {} ms for a better vote before deciding",
                    self.voters,
                    self.round,
                    self.proposal.leader,
                    ms(wait)
                )
            });
        }
    }

    pub(super) fn on_notification(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        if self.observer() {
            self.observer_hears(ctx, from, peer);
            return;
        }
        if self.is_observer(from) {
            self.observer_asks(ctx, from);
            return;
        }
        if self.state != ServerState::Looking {
            if peer.state != ServerState::Looking {
                return;
            }
            match self.decided {
                Some(d) => {
                    ctx.note_with(|| {
                        format!(
                            "n{from} is LOOKING; answers with the vote it decided in round {}: n{} leads",
                            d.round, d.vote.leader
                        )
                    });
                    ctx.send(
                        from,
                        Msg::Notification {
                            vote: d.vote,
                            round: d.round,
                            state: self.state,
                        },
                    );
                    return;
                }
                None => {
                    ctx.note_with(|| format!("hears n{from} looking for a leader; joins in"));
                    self.look_for_leader(ctx);
                }
            }
        }
        if peer.state == ServerState::Looking && peer.round < self.round {
            ctx.note_with(|| {
                format!(
                    "n{from} is still in round {}; answers with its own vote (round {})",
                    peer.round, self.round
                )
            });
            ctx.send(from, self.notification());
            return;
        }
        if self.finalizing {
            if !peer.vote.beats(&self.proposal) {
                if peer.state == ServerState::Looking && peer.round == self.round {
                    self.recv.insert(from, peer);
                }
                return;
            }
            self.finalizing = false;
            ctx.cancel_timer(Timer::FinalizeWait);
            ctx.note_with(|| {
                format!(
                    "a better vote, {}, arrives during the finalize wait",
                    peer.vote
                )
            });
        }
        ctx.set_timer(Timer::NotifyTimeout, self.notify_wait_us);
        if peer.state == ServerState::Looking {
            self.on_looking_vote(ctx, from, peer);
        } else {
            self.on_decided_vote(ctx, from, peer);
        }
    }

    pub(super) fn on_looking_vote(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        if peer.round > self.round {
            self.round = peer.round;
            self.recv.clear();
            let own = self.own_vote();
            self.proposal = if peer.vote.beats(&own) {
                peer.vote
            } else {
                own
            };
            ctx.note_with(|| {
                format!(
                    "n{from} is in a later round, {}: jumps to it, votes for {} and tells everyone",
                    self.round, self.proposal
                )
            });
            self.broadcast(ctx);
        } else if peer.vote.beats(&self.proposal) {
            self.proposal = peer.vote;
            ctx.note_with(|| {
                format!(
                    "n{from}'s vote for {} beats its own: adopts it and tells everyone",
                    peer.vote
                )
            });
            self.broadcast(ctx);
        } else if self.recv.get(&from) == Some(&peer) && self.proposal.beats(&peer.vote) {
            // A resend of a worse vote: the peer never got ours.
            ctx.note_with(|| {
                format!(
                    "n{from} sends its vote for {} again, as if it never heard the better {}: answers it",
                    peer.vote, self.proposal
                )
            });
            ctx.send(from, self.notification());
        }
        self.recv.insert(self.id, self.ballot());
        self.recv.insert(from, peer);
        self.check_votes(ctx);
    }

    /// An answer from a FOLLOWING or LEADING server (FLE's
    /// `ooePredicate`).
    pub(super) fn on_decided_vote(&mut self, ctx: &mut C<'_>, from: NodeId, peer: Ballot) {
        let q = self.quorum();
        if peer.round == self.round {
            self.recv.insert(from, peer);
            let agree = self.recv.values().filter(|b| b.agrees(&peer)).count();
            if agree >= q && self.leader_confirmed(peer.vote.leader, peer.round) {
                self.decide(ctx, peer);
                return;
            }
        }
        self.out_of_election.insert(from, peer);
        let agree = self
            .out_of_election
            .values()
            .filter(|b| b.agrees(&peer))
            .count();
        if agree >= q && self.leader_confirmed(peer.vote.leader, peer.round) {
            ctx.note_with(|| {
                format!(
                    "{agree} servers answered that they decided for n{} in round {}, and n{} itself answered LEADING: joins them",
                    peer.vote.leader, peer.round, peer.vote.leader
                )
            });
            self.round = peer.round;
            self.decide(ctx, peer);
        }
    }

    /// FLE's `checkLeader`: another leader must have answered LEADING
    /// itself; this server may take a mandate for itself only in the round
    /// it is in.
    pub(super) fn leader_confirmed(&self, leader: NodeId, round: u64) -> bool {
        if leader == self.id {
            self.round == round
        } else {
            self.out_of_election
                .get(&leader)
                .is_some_and(|b| b.state == ServerState::Leading)
        }
    }

    /// The round is over: lead or follow the winner.
    pub(super) fn decide(&mut self, ctx: &mut C<'_>, ballot: Ballot) {
        self.finalizing = false;
        ctx.cancel_timer(Timer::FinalizeWait);
        ctx.cancel_timer(Timer::NotifyTimeout);
        self.recv.clear();
        self.out_of_election.clear();
        self.decided = Some(Ballot {
            vote: ballot.vote,
            round: ballot.round,
            state: ServerState::Looking,
        });
        if ballot.vote.leader == self.id {
            self.lead(ctx);
        } else {
            self.follow(ctx, ballot.vote.leader);
        }
        self.answer_waiting(ctx);
    }

    /// ZooKeeper's `QuorumPeer.updateElectionVote` (ZOOKEEPER-1732): once
    /// this server takes part in the epoch its leader established, the
    /// vote it answers LOOKING peers with names that epoch, not the one
    /// the leader had when the round was decided. Otherwise the answers of
    /// servers that decided in different rounds (or before the leader
    /// moved to a new epoch without a new election round for all of them)
    /// name different epochs and never add up to a quorum.
    pub(super) fn update_election_vote(&mut self, epoch: u64) {
        if let Some(d) = &mut self.decided {
            d.vote.epoch = epoch;
        }
    }
}
