//! Multi-Paxos phase 1 as the election (Lamport 2001, 2.2 and 2.4), read
//! top to bottom.
//!
//! - Followers: no heartbeat for an election timeout makes a proposer
//!   ([`Replica::suspect`], [`Replica::propose`]); with the master lease
//!   only once the lease it granted has run out.
//! - Proposers: a ballot above any seen, promised to itself, `PREPARE` to
//!   all; a majority of promises makes the leader
//!   ([`Replica::become_leader`]).
//! - Acceptors: promise only a ballot above the promise, persisted;
//!   otherwise `REJECT` naming it ([`Replica::on_prepare`]).
//! - A pre-empted proposer or leader tries again after the retry wait:
//!   random with `backoff`, at once without ([`Replica::pre_empted`]).
//!
//! Heartbeats and writes are in [`super::leader`], the master lease in
//! [`super::lease`].

use super::{C, KINDS, Msg, Persistent, Phase, Replica, Timer, next_ballot};
use crate::algorithms::detector::leader_timeout;
use crate::algorithms::quorum;
use crate::protocol::{Boot, Config, Extra, NodeId, Protocol, Role, Safety, TimerClass};
use std::collections::VecDeque;

impl Protocol for Replica {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = Persistent;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;
    const EXTRAS: &'static [Extra] = &[Extra::Resource];

    fn new(id: NodeId, config: &Config, p: &Persistent) -> Self {
        let n = config.n as usize;
        Self {
            id,
            n: config.n,
            resource: config.resource,
            timeout_us: config.election_timeout_us,
            reply_timeout_us: config.reply_timeout_us,
            lease_us: config.timing.lease_us,
            drift_bound: config.timing.drift_bound,
            master_lease: config.options.master_lease,
            backoff: config.options.backoff,
            promised: p.promised,
            accepted: p.accepted,
            phase: Phase::Follower,
            leader: None,
            ballot: 0,
            max_seen: p.promised.max(p.accepted),
            promises: Vec::new(),
            highest_accepted: 0,
            elections_started: 0,
            grant: None,
            leader_since: 0,
            round: 0,
            round_started: VecDeque::new(),
            last_ack_at: vec![None; n],
            acked_round: vec![0; n],
            lease_until: 0,
            lease_held: false,
        }
    }

    /// Every replica starts as a follower; one named in `start` proposes
    /// at once, a recovering one waits with what its disk kept.
    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx);
        match boot {
            Boot::Fresh { initiate: true } => self.propose(ctx),
            Boot::Fresh { initiate: false } => self.arm_election_timer(ctx),
            Boot::Recover => {
                self.say_recovered(ctx);
                self.forget_grants(ctx);
                self.arm_election_timer(ctx);
            }
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::Prepare { ballot } => self.on_prepare(ctx, from, ballot),
            Msg::Promise { ballot, accepted } => self.on_promise(ctx, from, ballot, accepted),
            Msg::Reject { ballot, promised } => self.on_reject(ctx, from, ballot, promised),
            Msg::Heartbeat { ballot, round } => self.on_heartbeat(ctx, from, ballot, round),
            Msg::HeartbeatAck { ballot, round } => self.on_ack(ctx, from, ballot, round),
            Msg::Write { .. } => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Election => {
                if self.phase == Phase::Follower {
                    self.say_timed_out(ctx);
                    self.suspect(ctx);
                }
            }
            Timer::Retry | Timer::Grant => {
                if self.phase == Phase::Follower {
                    self.suspect(ctx);
                }
            }
            Timer::Attempt => {
                if self.phase == Phase::Proposer {
                    self.say_attempt_failed(ctx);
                    self.step_down(ctx);
                    self.retry_later(ctx);
                }
            }
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
            Timer::Election => TimerClass::ElectionTimeout,
            Timer::Retry => TimerClass::Retry,
            // The lease this replica granted runs out.
            Timer::Grant => TimerClass::LeaseExpiry,
            // Waiting for a majority of promises.
            Timer::Attempt => TimerClass::ReplyWait,
            Timer::Heartbeat => TimerClass::Heartbeat,
            Timer::Write => TimerClass::Write,
            // The master's lease runs out on its own clock.
            Timer::Lease => TimerClass::LeaseExpiry,
        }
    }

    fn persistent(&self) -> Persistent {
        Persistent {
            promised: self.promised,
            accepted: self.accepted,
        }
    }

    fn heap_bytes(&self) -> usize {
        self.heap_size()
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        self.fields()
    }
}

impl Replica {
    fn role(&self) -> Role {
        match self.phase {
            Phase::Follower => Role::Follower,
            Phase::Proposer => Role::Candidate,
            Phase::Leader => Role::Leader,
        }
    }

    /// The role, with the promised ballot as the term (it never goes
    /// back), and the leader it follows.
    pub(super) fn announce(&self, ctx: &mut C<'_>) {
        ctx.set_role(self.role(), Some(self.promised));
        ctx.set_leader(self.leader);
    }

    /// A fresh election timeout, drawn from `election_timeout_ms` on this
    /// replica's own clock; no retry or grant wait pending.
    pub(super) fn arm_election_timer(&self, ctx: &mut C<'_>) {
        ctx.cancel_timer(Timer::Retry);
        ctx.cancel_timer(Timer::Grant);
        let t = leader_timeout(ctx);
        ctx.set_timer(Timer::Election, t);
    }

    /// Remembers a ballot seen in a message.
    fn see(&mut self, ballot: u64) {
        self.max_seen = self.max_seen.max(ballot);
    }

    /// Promises `ballot` (of `owner`), persisted; one promise per ballot.
    pub(super) fn promise(&mut self, ctx: &mut C<'_>, ballot: u64, owner: NodeId) {
        if ballot > self.promised {
            self.promised = ballot;
            self.see(ballot);
            ctx.vote(ballot, owner);
        }
    }

    /// Suspects the leader: proposes, unless (master lease) the lease it
    /// granted is still valid; then it waits for that first.
    pub(super) fn suspect(&mut self, ctx: &mut C<'_>) {
        if self.wait_for_grant(ctx) {
            return;
        }
        self.propose(ctx);
    }

    /// Phase 1a: the lowest own ballot above any seen, promised to itself,
    /// `PREPARE` to every other replica, one reply timeout to get a
    /// majority of promises.
    pub(super) fn propose(&mut self, ctx: &mut C<'_>) {
        let seen = self.max_seen.max(self.promised);
        let ballot = next_ballot(seen, self.id, self.n);
        self.promise(ctx, ballot, self.id);
        self.ballot = ballot;
        self.phase = Phase::Proposer;
        self.leader = None;
        self.promises = vec![self.id];
        self.highest_accepted = self.accepted;
        self.elections_started += 1;
        ctx.election_started();
        ctx.cancel_timer(Timer::Election);
        ctx.cancel_timer(Timer::Retry);
        ctx.cancel_timer(Timer::Grant);
        self.announce(ctx);
        self.say_prepare(ctx, seen);
        if self.promises.len() >= quorum::majority(self.n) {
            self.become_leader(ctx);
            return;
        }
        for p in quorum::peers(self.id, self.n) {
            ctx.send(p, Msg::Prepare { ballot });
        }
        ctx.set_timer(Timer::Attempt, self.reply_timeout_us);
    }

    /// Phase 1b: promise a ballot above the promise (unless a master lease
    /// it granted forbids it), else `REJECT` naming the promise. A
    /// proposer or leader that promises a higher ballot is pre-empted.
    fn on_prepare(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64) {
        self.see(ballot);
        if ballot <= self.promised {
            if ballot == self.promised && super::owner(ballot, self.n) == Some(from) {
                return; // a duplicate of the PREPARE it promised
            }
            self.say_reject(ctx, from, ballot);
            self.reject(ctx, from, ballot);
            return;
        }
        if self.lease_refuses(ctx, from, ballot) {
            self.reject(ctx, from, ballot);
            return;
        }
        let was = self.phase;
        self.promise(ctx, ballot, from);
        let accepted = self.accepted;
        ctx.send(from, Msg::Promise { ballot, accepted });
        if was == Phase::Follower {
            self.leader = None;
            self.announce(ctx);
            self.arm_election_timer(ctx);
        } else {
            self.say_pre_empted(ctx, from, ballot);
            self.step_down(ctx);
            self.retry_later(ctx);
        }
    }

    /// `REJECT` of `ballot`, naming this replica's promise.
    pub(super) fn reject(&self, ctx: &mut C<'_>, to: NodeId, ballot: u64) {
        let promised = self.promised;
        ctx.send(to, Msg::Reject { ballot, promised });
    }

    /// Proposers: a promise for the current ballot; a majority elects.
    fn on_promise(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64, accepted: u64) {
        self.see(accepted);
        if self.phase == Phase::Proposer && ballot == self.ballot && !self.promises.contains(&from)
        {
            self.promises.push(from);
            self.highest_accepted = self.highest_accepted.max(accepted);
            if self.promises.len() >= quorum::majority(self.n) {
                self.become_leader(ctx);
            }
        }
    }

    /// Proposers and leaders: a rejection of the current ballot. A higher
    /// promise pre-empts it; a lower one is a master-lease refusal, left
    /// to the reply timeout.
    fn on_reject(&mut self, ctx: &mut C<'_>, from: NodeId, ballot: u64, promised: u64) {
        self.see(promised);
        if self.phase == Phase::Follower || ballot != self.ballot {
            return;
        }
        if promised > ballot {
            self.say_pre_empted(ctx, from, promised);
            self.step_down(ctx);
            self.retry_later(ctx);
        } else if promised < ballot {
            self.say_lease_refused(ctx, from);
        }
    }

    /// A proposer or leader gives up its ballot and follows nobody (yet).
    pub(super) fn step_down(&mut self, ctx: &mut C<'_>) {
        self.quit_ballot(ctx);
        self.announce(ctx);
    }

    /// [`Replica::step_down`] without announcing (the caller announces).
    pub(super) fn quit_ballot(&mut self, ctx: &mut C<'_>) {
        match self.phase {
            Phase::Leader => self.stop_leading(ctx),
            Phase::Proposer => ctx.cancel_timer(Timer::Attempt),
            Phase::Follower => {}
        }
        self.phase = Phase::Follower;
        self.ballot = 0;
        self.leader = None;
        self.promises.clear();
    }

    /// After a pre-emption or a failed attempt: with `backoff`, wait a
    /// random time from `0 ..= election_timeout_max` (a leader heard
    /// meanwhile cancels it); without, try again at once.
    pub(super) fn retry_later(&mut self, ctx: &mut C<'_>) {
        if self.backoff {
            let wait = ctx.random_between(0, self.timeout_us.1);
            self.say_backoff(ctx, wait);
            ctx.cancel_timer(Timer::Election);
            ctx.set_timer(Timer::Retry, wait);
        } else {
            self.suspect(ctx);
        }
    }

    /// A majority promised: lead this ballot, heartbeat at once.
    pub(super) fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Leader;
        self.leader = Some(self.id);
        ctx.cancel_timer(Timer::Attempt);
        ctx.cancel_timer(Timer::Election);
        ctx.cancel_timer(Timer::Retry);
        ctx.cancel_timer(Timer::Grant);
        self.announce(ctx);
        self.say_won(ctx);
        self.start_leading(ctx);
    }
}
