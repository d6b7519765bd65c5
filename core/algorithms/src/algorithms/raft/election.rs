//! Raft's leader election: the rules of the paper's figure 2 (Ongaro and
//! Ousterhout 2014, sections 5.2 and 5.4.1), read top to bottom.
//!
//! - All servers: a message with a higher term makes the receiver adopt
//!   it and become a follower ([`Server::observe_term`]).
//! - Followers: no word from a leader for an election timeout makes a
//!   candidate ([`Server::election_timeout`], [`Server::become_candidate`]).
//! - Candidates: a new term, a vote for itself, `REQUEST_VOTE` to all; a
//!   majority of votes makes the leader ([`Server::become_leader`]).
//! - `RequestVote` receivers: one vote per term, first come first served,
//!   only for a log at least as up to date ([`Server::log_ok`]).
//!
//! The options hook in at marked places: pre-vote before the candidacy
//! ([`super::pre_vote`]), the lease before a vote ([`super::lease`]),
//! check-quorum at every heartbeat ([`super::check_quorum`]). The log and
//! its heartbeats are in [`super::log`].

use super::{C, KINDS, Msg, Persistent, Phase, Server, Timer};
use crate::algorithms::detector::leader_timeout;
use crate::algorithms::quorum;
use crate::protocol::{Boot, Config, Extra, NodeId, Protocol, Role, Safety, TimerClass};
use std::collections::VecDeque;

impl Protocol for Server {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = Persistent;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;
    const EXTRAS: &'static [Extra] = &[Extra::Resource];

    fn new(id: NodeId, config: &Config, p: &Persistent) -> Self {
        Self {
            id,
            n: config.n,
            resource: config.resource,
            min_timeout_us: config.election_timeout_us.0,
            drift_bound: config.timing.drift_bound,
            pre_vote: config.options.pre_vote,
            check_quorum: config.options.check_quorum,
            leader_lease: config.options.leader_lease,
            term: p.term,
            voted_for: p.voted_for,
            log: p.log.clone(),
            phase: Phase::Follower,
            leader: None,
            commit_index: 0,
            votes: Vec::new(),
            heard_leader_at: None,
            elections_started: 0,
            leader_since: 0,
            next_index: Vec::new(),
            match_index: Vec::new(),
            last_ack_at: Vec::new(),
            acked_round: Vec::new(),
            round: 0,
            round_started: VecDeque::new(),
            lease_until: None,
            lease_held: false,
        }
    }

    /// Every server starts as a follower; one named in `start` times out
    /// at once, a recovering one waits with what its disk kept.
    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx);
        match boot {
            Boot::Fresh { initiate: true } => self.election_timeout(ctx),
            Boot::Fresh { initiate: false } => self.arm_election_timer(ctx),
            Boot::Recover => {
                self.say_recovered(ctx);
                self.arm_election_timer(ctx);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::RequestVote {
                term,
                last_log_index,
                last_log_term,
            } => {
                if self.lease_refuses_vote(ctx, from, term) {
                    return;
                }
                self.observe_term(ctx, term, from);
                self.on_request_vote(ctx, from, term, last_log_index, last_log_term);
            }
            Msg::Vote { term, granted } => {
                self.observe_term(ctx, term, from);
                self.on_vote(ctx, from, term, granted);
            }
            Msg::AppendEntries {
                term,
                prev_log_index,
                prev_log_term,
                entries,
                leader_commit,
                round,
            } => {
                self.observe_term(ctx, term, from);
                self.on_append(
                    ctx,
                    from,
                    term,
                    (prev_log_index, prev_log_term),
                    &entries,
                    leader_commit,
                    round,
                );
            }
            Msg::AppendReply {
                term,
                success,
                match_index,
                round,
            } => {
                self.observe_term(ctx, term, from);
                self.on_append_reply(ctx, from, term, success, match_index, round);
            }
            Msg::PreVote {
                term,
                last_log_index,
                last_log_term,
            } => self.on_pre_vote(ctx, from, term, last_log_index, last_log_term),
            Msg::PreVoteReply { term, granted } => self.on_pre_vote_reply(ctx, from, term, granted),
            Msg::Write { .. } => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Election => self.election_timeout(ctx),
            Timer::Heartbeat => {
                if self.phase == Phase::Leader {
                    self.heartbeat(ctx);
                }
            }
            Timer::Write => self.write(ctx),
            Timer::Lease => self.lease_timer(ctx),
        }
    }

    fn timer_class(&self, timer: Timer) -> TimerClass {
        match timer {
            // Followers, pre-candidates and candidates alike.
            Timer::Election => TimerClass::ElectionTimeout,
            Timer::Heartbeat => TimerClass::Heartbeat,
            Timer::Write => TimerClass::Write,
            // The read lease runs out on the leader's clock.
            Timer::Lease => TimerClass::LeaseExpiry,
        }
    }

    fn persistent(&self) -> Persistent {
        Persistent {
            term: self.term,
            voted_for: self.voted_for,
            log: self.log.clone(),
        }
    }

    fn heap_bytes(&self) -> usize {
        self.heap_size()
    }

    fn persistent_heap_bytes(persistent: &Persistent) -> usize {
        8 * persistent.log.len()
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        self.fields()
    }
}

impl Server {
    /// A fresh election timeout, drawn from `election_timeout_ms` on this
    /// server's own clock.
    pub(super) fn arm_election_timer(&self, ctx: &mut C<'_>) {
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Election, t);
    }

    fn role(&self) -> Role {
        match self.phase {
            Phase::Follower => Role::Follower,
            Phase::PreCandidate | Phase::Candidate => Role::Candidate,
            Phase::Leader => Role::Leader,
        }
    }

    pub(super) fn announce(&self, ctx: &mut C<'_>) {
        ctx.set_role(self.role(), Some(self.term));
        ctx.set_leader(self.leader);
    }

    /// All servers: a higher `term` seen in a message from `from` is
    /// adopted, and the server becomes a follower (a leader steps down).
    pub(super) fn observe_term(&mut self, ctx: &mut C<'_>, term: u64, from: NodeId) {
        if term <= self.term {
            return;
        }
        self.say_higher_term(ctx, term, from);
        self.term = term;
        self.voted_for = None;
        self.become_follower(ctx, None);
    }

    /// Follows `leader` (or nobody yet); a leader stops leading and waits
    /// for an election timeout like any follower.
    pub(super) fn become_follower(&mut self, ctx: &mut C<'_>, leader: Option<NodeId>) {
        let was_leader = self.phase == Phase::Leader;
        if was_leader {
            self.stop_leading(ctx);
        }
        self.phase = Phase::Follower;
        self.votes.clear();
        self.leader = leader;
        self.announce(ctx);
        if was_leader {
            self.arm_election_timer(ctx);
        }
    }

    fn stop_leading(&mut self, ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::Heartbeat);
        ctx.cancel_timer(Timer::Write);
        ctx.cancel_timer(Timer::Lease);
        self.drop_lease(ctx);
        self.drop_replication();
    }

    /// Followers and candidates: the election timeout ran out. With
    /// pre-vote the server first asks whether it could win.
    fn election_timeout(&mut self, ctx: &mut C<'_>) {
        if self.phase == Phase::Leader {
            return;
        }
        self.say_timed_out(ctx);
        if self.pre_vote {
            self.start_pre_vote(ctx);
        } else {
            self.become_candidate(ctx);
        }
    }

    /// Candidates: increment the term, vote for itself, reset the election
    /// timer and send `REQUEST_VOTE` to every other server.
    pub(super) fn become_candidate(&mut self, ctx: &mut C<'_>) {
        self.term += 1;
        self.voted_for = Some(self.id);
        self.phase = Phase::Candidate;
        self.leader = None;
        self.votes = vec![self.id];
        self.elections_started += 1;
        ctx.election_started();
        self.announce(ctx);
        ctx.vote(self.term, self.id);
        self.say_candidate(ctx);
        self.arm_election_timer(ctx);
        if self.votes.len() >= quorum::majority(self.n) {
            self.become_leader(ctx);
            return;
        }
        let term = self.term;
        let (last_log_index, last_log_term) = self.last_log();
        for p in quorum::peers(self.id, self.n) {
            ctx.send(
                p,
                Msg::RequestVote {
                    term,
                    last_log_index,
                    last_log_term,
                },
            );
        }
    }

    /// `RequestVote` receiver (after adopting a higher term): grant if the
    /// request is of the current term, no other candidate has this term's
    /// vote and the candidate's log is at least as up to date; a grant
    /// restarts the election timer.
    fn on_request_vote(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        last_log_index: u64,
        last_log_term: u64,
    ) {
        let fresh = term == self.term;
        let free = self.voted_for.is_none_or(|v| v == from);
        let up_to_date = self.log_ok(last_log_index, last_log_term);
        let granted = fresh && free && up_to_date;
        if granted {
            self.voted_for = Some(from);
            ctx.vote(term, from);
            self.arm_election_timer(ctx);
        } else if fresh && !free {
            self.say_voted_already(ctx, from, term);
        } else if fresh {
            self.say_log_behind(ctx, from, last_log_index, last_log_term);
        }
        ctx.send(
            from,
            Msg::Vote {
                term: self.term,
                granted,
            },
        );
    }

    /// Section 5.4.1: is a log ending at (`index`, `term`) at least as up
    /// to date as ours? A later last term wins; with equal last terms the
    /// longer log wins.
    pub(super) fn log_ok(&self, index: u64, term: u64) -> bool {
        let (my_index, my_term) = self.last_log();
        term > my_term || (term == my_term && index >= my_index)
    }

    /// Candidates: a vote of the current term; a majority elects.
    fn on_vote(&mut self, ctx: &mut C<'_>, from: NodeId, term: u64, granted: bool) {
        if self.phase == Phase::Candidate
            && term == self.term
            && granted
            && !self.votes.contains(&from)
        {
            self.votes.push(from);
            if self.votes.len() >= quorum::majority(self.n) {
                self.become_leader(ctx);
            }
        }
    }

    /// Leaders: upon election, reset what the leader knows of the others'
    /// logs and send the first heartbeat at once.
    fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Leader;
        self.leader = Some(self.id);
        ctx.cancel_timer(Timer::Election);
        self.announce(ctx);
        self.start_replication(ctx.local_now_us());
        self.say_won(ctx);
        self.heartbeat(ctx);
        if self.resource.is_some() {
            let every = ctx.config().timing.write_us;
            ctx.set_timer(Timer::Write, every);
        }
    }
}
