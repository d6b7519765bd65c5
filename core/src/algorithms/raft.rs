//! Raft leader election (D. Ongaro and J. Ousterhout, "In Search of an
//! Understandable Consensus Algorithm", USENIX ATC 2014, sections 5.2 and
//! 5.4.1; D. Ongaro, "Consensus: Bridging Theory and Practice", Stanford
//! PhD dissertation 2014, sections 6.2, 6.4.1 and chapter 9).
//!
//! Rules, as simulated here (`n` participants `0..n`, plus the fenced
//! resource as node `n`):
//! - Time is divided into terms. Every server keeps `currentTerm`,
//!   `votedFor` and its log in persistent state (they survive a crash);
//!   its role, the leader it follows and the commit index are volatile.
//! - A follower or candidate that hears nothing from a leader for an
//!   election timeout, drawn afresh from `election_timeout_ms` on its own
//!   clock for every wait, starts an election: it increments its term,
//!   votes for itself and sends `REQUEST_VOTE(term, lastLogIndex,
//!   lastLogTerm)` to every other server. A server that was named in the
//!   scenario's `start` times out at once when it starts.
//! - A server grants at most one vote per term (first come, first served),
//!   and only to a candidate whose log is at least as up to date as its own
//!   (section 5.4.1: a higher last term wins; with equal last terms the
//!   longer log wins). It answers every request with `VOTE(term, granted)`
//!   and restarts its election timer when it grants.
//! - A candidate with votes from a majority (`n/2 + 1`, itself included)
//!   becomes leader. A candidate whose timer runs out (a split vote) starts
//!   a new election in the next term.
//! - Any message carrying a higher term makes the receiver adopt that term
//!   and become a follower (a leader steps down).
//! - The leader sends `APPEND_ENTRIES` to every server every
//!   `heartbeat_ms` (background). It carries the entries the follower
//!   lacks (at most 16); with none it is a heartbeat. Every 4th heartbeat
//!   round the leader appends one client entry of its term to its log, so
//!   that logs differ and the up-to-date check of 5.4.1 matters. A follower
//!   rejects entries whose `prevLogIndex`/`prevLogTerm` do not match its log
//!   and answers `APPEND_REPLY` (background) with its log length; the leader
//!   then backs `nextIndex` off and retries on the next heartbeat. An entry
//!   of the current term stored on a majority is committed.
//! - The leader writes to the resource every `write_ms` (`WRITE`,
//!   background) with its term as the fencing token.
//!
//! Options:
//! - `pre_vote` (dissertation 9.6): a server that times out first sends
//!   `PRE_VOTE(term + 1, lastLogIndex, lastLogTerm)` without changing its
//!   term. A server answers yes (`PRE_VOTE_REPLY`) only if that term is above
//!   its own, the log check passes and it has not heard from a leader
//!   within the minimum election timeout (a leader never says yes). Only
//!   with a majority of yeses does the server start the real election. A
//!   server cut off alone therefore never raises its term and does not
//!   disrupt the cluster when it comes back.
//! - `check_quorum` (dissertation 6.2): at every heartbeat a leader counts
//!   the servers that answered it within the minimum election timeout; with
//!   fewer than a majority (itself included) it steps down.
//! - `leader_lease` (dissertation 6.4.1): every heartbeat round is numbered;
//!   once a majority (the leader included) has answered round `r`, sent at
//!   local time `s`, the leader holds a read lease until
//!   `s + election_timeout_min x (1 - drift_bound)` on its own clock, the
//!   earliest a follower that heard round `r` could time out if clocks drift
//!   by at most `drift_bound`. It announces when it starts and stops
//!   believing it holds the lease. A leader whose clock runs slow by more
//!   than the bound (or that is paused) keeps believing in its lease while
//!   the others have already elected a new leader with a lease of its own:
//!   the checker reports `lease_overlap`. With the lease on, a server
//!   that leads or heard from a leader within the minimum election timeout
//!   ignores a `REQUEST_VOTE` of a higher term (refuses without moving to
//!   that term, dissertation 4.2.3): otherwise a server that missed the
//!   heartbeats could win votes from servers that have just answered the
//!   leader, and the lease would be unsafe even with perfect clocks.
//!
//! Costs: an election with every server up, its log up to date and no
//! other server timing out costs exactly `2(n-1)` election messages
//! (`n-1` `REQUEST_VOTE` and `n-1` `VOTE`); with `pre_vote` another
//! `2(n-1)` (`PRE_VOTE` and `PRE_VOTE_REPLY`). Split votes cost further
//! terms; their rate with a fixed latency follows dissertation 9.3.
//!
//! Safety claimed: at most one leader per term, terms never go back, one
//! vote per server per term (all checked). Two servers can both be in the
//! leader role at once, in different terms: a leader cut off in a minority
//! keeps its role (without `check_quorum`) but can commit nothing; it steps
//! down as soon as it hears the higher term after the partition heals.
//! Known failures: without fencing a paused old leader's writes overwrite
//! newer data; a leader lease is only as good as the clock-drift bound.

use super::detector::leader_timeout;
use super::resource::Resource;
use super::{Entry, Layout, engine};
use crate::protocol::{Boot, Config, Ctx, Extra, Message, NodeId, Protocol, Purpose, Role, Safety};
use crate::time::Micros;
use std::collections::VecDeque;
use std::fmt;

/// Message kind names.
pub const KINDS: &[&str] = &[
    "REQUEST_VOTE",
    "VOTE",
    "APPEND_ENTRIES",
    "APPEND_REPLY",
    "PRE_VOTE",
    "PRE_VOTE_REPLY",
    "WRITE",
];

/// This algorithm's entry in the registry ([`super::ALL`]).
pub const ENTRY: Entry = Entry {
    id: "raft",
    name: "Raft",
    summary: "Ongaro & Ousterhout 2014: terms, randomized election timeouts, one persisted vote per term, a majority and the log up-to-date check elect the leader; options pre-vote, check-quorum and a leader lease (Ongaro 2014, 6.2, 6.4.1, 9.6)",
    layout: Layout::Cluster,
    kinds: KINDS,
    extras: &[Extra::Resource],
    claims: Raft::SAFETY,
    builder: engine::<Raft>,
    theory: None,
};

/// Most log entries one `APPEND_ENTRIES` carries.
pub const MAX_ENTRIES: usize = 16;
/// The leader appends one client entry every this many heartbeat rounds.
pub const ENTRY_EVERY_ROUNDS: u64 = 4;
/// Heartbeat rounds a leader remembers the start time of (for the lease).
const ROUNDS_KEPT: usize = 64;

/// Raft messages. Log entries are represented by their term alone: the
/// simulation needs nothing else of them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Msg {
    /// A candidate asks for a vote.
    RequestVote {
        /// The candidate's (new) term.
        term: u64,
        /// Index of its last log entry (0 for an empty log).
        last_log_index: u64,
        /// Term of its last log entry (0 for an empty log).
        last_log_term: u64,
    },
    /// The answer to `RequestVote`.
    Vote {
        /// The voter's term.
        term: u64,
        /// Whether the vote was granted.
        granted: bool,
    },
    /// Heartbeat and log replication (background).
    AppendEntries {
        /// The leader's term.
        term: u64,
        /// Index of the entry just before `entries`.
        prev_log_index: u64,
        /// Its term.
        prev_log_term: u64,
        /// Terms of the entries to store after `prev_log_index`.
        entries: Vec<u64>,
        /// The leader's commit index.
        leader_commit: u64,
        /// Number of the leader's heartbeat round (for the lease).
        round: u64,
    },
    /// The answer to `AppendEntries` (background).
    AppendReply {
        /// The follower's term.
        term: u64,
        /// Whether the consistency check passed.
        success: bool,
        /// On success the index of the last entry now matching the
        /// leader's; on failure the follower's log length (a hint).
        match_index: u64,
        /// The round answered.
        round: u64,
    },
    /// "Would you vote for me in `term`?" (sender's term unchanged).
    PreVote {
        /// The term the sender would start.
        term: u64,
        /// Index of its last log entry.
        last_log_index: u64,
        /// Term of its last log entry.
        last_log_term: u64,
    },
    /// The answer to `PreVote`.
    PreVoteReply {
        /// The term asked about.
        term: u64,
        /// Whether the server would vote.
        granted: bool,
    },
    /// A leader's write to the resource, with its term as fencing token.
    Write {
        /// The fencing token.
        token: u64,
    },
}

impl fmt::Debug for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let yes = |b: &bool, y: &'static str, n: &'static str| if *b { y } else { n };
        match self {
            Msg::RequestVote {
                term,
                last_log_index,
                last_log_term,
            } => write!(
                f,
                "RequestVote(term {term}, log {last_log_index}@t{last_log_term})"
            ),
            Msg::Vote { term, granted } => {
                write!(
                    f,
                    "Vote(term {term}, {})",
                    yes(granted, "granted", "refused")
                )
            }
            Msg::AppendEntries {
                term,
                prev_log_index,
                prev_log_term,
                entries,
                leader_commit,
                round,
            } => {
                write!(
                    f,
                    "AppendEntries(term {term}, prev {prev_log_index}@t{prev_log_term}, "
                )?;
                if entries.is_empty() {
                    write!(f, "heartbeat")?;
                } else {
                    write!(f, "{} entries", entries.len())?;
                }
                write!(f, ", commit {leader_commit}, round {round})")
            }
            Msg::AppendReply {
                term,
                success,
                match_index,
                round,
            } => write!(
                f,
                "AppendReply(term {term}, {} {match_index}, round {round})",
                yes(success, "match", "mismatch; log length")
            ),
            Msg::PreVote {
                term,
                last_log_index,
                last_log_term,
            } => write!(
                f,
                "PreVote(term {term}, log {last_log_index}@t{last_log_term})"
            ),
            Msg::PreVoteReply { term, granted } => {
                write!(
                    f,
                    "PreVoteReply(term {term}, {})",
                    yes(granted, "yes", "no")
                )
            }
            Msg::Write { token } => write!(f, "Write(token {token})"),
        }
    }
}

impl Message for Msg {
    fn kind(&self) -> usize {
        match self {
            Msg::RequestVote { .. } => 0,
            Msg::Vote { .. } => 1,
            Msg::AppendEntries { .. } => 2,
            Msg::AppendReply { .. } => 3,
            Msg::PreVote { .. } => 4,
            Msg::PreVoteReply { .. } => 5,
            Msg::Write { .. } => 6,
        }
    }
    fn purpose(&self) -> Purpose {
        match self {
            Msg::RequestVote { .. }
            | Msg::Vote { .. }
            | Msg::PreVote { .. }
            | Msg::PreVoteReply { .. } => Purpose::Election,
            Msg::AppendEntries { .. } | Msg::AppendReply { .. } | Msg::Write { .. } => {
                Purpose::Background
            }
        }
    }
}

/// Raft timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// Follower, pre-candidate or candidate: the election timeout.
    Election,
    /// Leader: time for the next heartbeat round.
    Heartbeat,
    /// Leader: time for the next write to the resource.
    Write,
    /// Leader: the read lease runs out (on the local clock).
    Lease,
}

/// What survives a crash (Raft paper, figure 2: "persistent state on all
/// servers").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Persistent {
    /// Latest term the server has seen.
    pub term: u64,
    /// Whom it voted for in `term`, if anyone.
    pub voted_for: Option<NodeId>,
    /// Its log: the term of each entry, index 1 first.
    pub log: Vec<u64>,
    /// On the resource node: the highest token it applied (durable).
    pub resource_highest: Option<u64>,
}

/// Where a server is in the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Follows a leader (or waits to hear of one).
    Follower,
    /// Asking for pre-votes (the `pre_vote` option); term unchanged.
    PreCandidate,
    /// Asking for votes in its own new term.
    Candidate,
    /// Leads its term.
    Leader,
}

/// One Raft server.
#[derive(Debug, Clone)]
pub struct Server {
    id: NodeId,
    n: u32,
    resource: Option<NodeId>,
    min_timeout_us: Micros,
    drift_bound: f64,
    pre_vote: bool,
    check_quorum: bool,
    leader_lease: bool,
    // Persistent.
    term: u64,
    voted_for: Option<NodeId>,
    log: Vec<u64>,
    // Volatile.
    phase: Phase,
    leader: Option<NodeId>,
    commit_index: u64,
    /// Servers that granted a vote (or pre-vote) in the current round,
    /// this server included.
    votes: Vec<NodeId>,
    /// Local time this server last heard from a leader of its term.
    heard_leader_at: Option<i64>,
    elections_started: u64,
    // Volatile, leader only.
    leader_since: i64,
    next_index: Vec<u64>,
    match_index: Vec<u64>,
    last_ack_at: Vec<Option<i64>>,
    acked_round: Vec<u64>,
    round: u64,
    round_started: VecDeque<(u64, i64)>,
    lease_until: Option<i64>,
    lease_held: bool,
}

/// A node of the Raft cluster: a server, or the resource the leader
/// writes to.
#[derive(Debug, Clone)]
pub enum Raft {
    /// A participant.
    Server(Box<Server>),
    /// The fenced resource (node `n`).
    Storage(Resource),
}

type C<'a> = Ctx<'a, Msg, Timer>;

fn names(ids: &[NodeId]) -> String {
    let v: Vec<String> = ids.iter().map(|i| format!("n{i}")).collect();
    v.join(", ")
}

fn ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

impl Server {
    fn new(id: NodeId, config: &Config, p: &Persistent) -> Self {
        let n = config.n as usize;
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
            next_index: vec![1; n],
            match_index: vec![0; n],
            last_ack_at: vec![None; n],
            acked_round: vec![0; n],
            round: 0,
            round_started: VecDeque::new(),
            lease_until: None,
            lease_held: false,
        }
    }

    fn majority(&self) -> usize {
        self.n as usize / 2 + 1
    }

    fn peers(&self) -> impl Iterator<Item = NodeId> + use<> {
        let id = self.id;
        (0..self.n).filter(move |&p| p != id)
    }

    fn last_log(&self) -> (u64, u64) {
        (self.log.len() as u64, self.log.last().copied().unwrap_or(0))
    }

    fn term_at(&self, index: u64) -> u64 {
        if index == 0 {
            0
        } else {
            self.log[index as usize - 1]
        }
    }

    /// Section 5.4.1: is a log ending at (`index`, `term`) at least as up
    /// to date as ours?
    fn log_ok(&self, index: u64, term: u64) -> bool {
        let (my_index, my_term) = self.last_log();
        term > my_term || (term == my_term && index >= my_index)
    }

    /// Whether this server leads, or heard from a leader less than the
    /// minimum election timeout ago (on its own clock).
    fn leader_recently(&self, ctx: &C<'_>) -> bool {
        let now = ctx.local_now_us();
        self.phase == Phase::Leader
            || self
                .heard_leader_at
                .is_some_and(|t| now - t < self.min_timeout_us as i64)
    }

    fn arm_election_timer(&self, ctx: &mut C<'_>) {
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

    fn announce(&self, ctx: &mut C<'_>) {
        ctx.set_role(self.role(), Some(self.term));
        ctx.set_leader(self.leader);
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        self.announce(ctx);
        match boot {
            Boot::Fresh { initiate: true } => self.election_timeout(ctx),
            Boot::Fresh { initiate: false } => self.arm_election_timer(ctx),
            Boot::Recover => {
                ctx.note_with(|| {
                    format!(
                        "recovers from disk: term {}, voted for {}, {} log entries; waits as a follower",
                        self.term,
                        self.voted_for.map_or("nobody".to_string(), |v| format!("n{v}")),
                        self.log.len()
                    )
                });
                self.arm_election_timer(ctx);
            }
        }
    }

    /// Adopts a higher `term` seen in a message from `from` and becomes a
    /// follower (Raft paper, figure 2, "rules for all servers").
    fn observe_term(&mut self, ctx: &mut C<'_>, term: u64, from: NodeId) {
        if term <= self.term {
            return;
        }
        let old = self.term;
        let was = self.phase;
        ctx.note_with(|| match was {
            Phase::Leader => format!(
                "hears term {term} from n{from}, above its own term {old}: steps down as leader"
            ),
            _ => format!("hears term {term} from n{from}; moves up from term {old} and follows"),
        });
        self.term = term;
        self.voted_for = None;
        self.become_follower(ctx, None);
    }

    fn become_follower(&mut self, ctx: &mut C<'_>, leader: Option<NodeId>) {
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
        self.round_started.clear();
        self.lease_until = None;
        if self.lease_held {
            self.lease_held = false;
            ctx.set_lease(false);
        }
    }

    fn election_timeout(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        let term = self.term;
        match (self.phase, self.leader, self.heard_leader_at) {
            (Phase::Leader, ..) => return,
            (Phase::Follower, Some(l), Some(at)) => ctx.note_with(|| {
                format!(
                    "heard nothing from leader n{l} for {} ms: timed out waiting for the leader",
                    ms(now - at)
                )
            }),
            (Phase::Follower, ..) => ctx.note("knows no leader and its election timer ran out"),
            (Phase::PreCandidate, ..) => {
                ctx.note("its pre-vote got no majority in time; tries again")
            }
            (Phase::Candidate, ..) => ctx.note_with(|| {
                format!("no majority for term {term} in time (a split vote); tries the next term")
            }),
        }
        if self.pre_vote {
            self.start_pre_vote(ctx);
        } else {
            self.start_election(ctx);
        }
    }

    fn start_pre_vote(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::PreCandidate;
        self.leader = None;
        self.votes = vec![self.id];
        self.announce(ctx);
        let next = self.term + 1;
        ctx.note_with(|| {
            format!("asks the others whether they would vote for it in term {next} (pre-vote; its term stays {})", next - 1)
        });
        self.arm_election_timer(ctx);
        if self.votes.len() >= self.majority() {
            self.start_election(ctx);
            return;
        }
        let (last_log_index, last_log_term) = self.last_log();
        for p in self.peers() {
            ctx.send(
                p,
                Msg::PreVote {
                    term: next,
                    last_log_index,
                    last_log_term,
                },
            );
        }
    }

    fn start_election(&mut self, ctx: &mut C<'_>) {
        self.term += 1;
        self.voted_for = Some(self.id);
        self.phase = Phase::Candidate;
        self.leader = None;
        self.votes = vec![self.id];
        self.elections_started += 1;
        ctx.election_started();
        self.announce(ctx);
        ctx.vote(self.term, self.id);
        let term = self.term;
        ctx.note_with(|| format!("starts an election for term {term} and votes for itself"));
        self.arm_election_timer(ctx);
        if self.votes.len() >= self.majority() {
            self.become_leader(ctx);
            return;
        }
        let (last_log_index, last_log_term) = self.last_log();
        for p in self.peers() {
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

    fn become_leader(&mut self, ctx: &mut C<'_>) {
        self.phase = Phase::Leader;
        self.leader = Some(self.id);
        ctx.cancel_timer(Timer::Election);
        self.announce(ctx);
        let (last, _) = self.last_log();
        let n = self.n as usize;
        self.next_index = vec![last + 1; n];
        self.match_index = vec![0; n];
        self.match_index[self.id as usize] = last;
        self.last_ack_at = vec![None; n];
        self.acked_round = vec![0; n];
        self.round = 0;
        self.round_started.clear();
        self.lease_until = None;
        self.leader_since = ctx.local_now_us();
        let term = self.term;
        let votes = names(&self.votes);
        ctx.note_with(|| format!("wins term {term} with votes from {votes}: leads"));
        self.heartbeat(ctx);
        if self.resource.is_some() {
            let every = ctx.config().timing.write_us;
            ctx.set_timer(Timer::Write, every);
        }
    }

    /// One heartbeat round: maybe a new client entry, then
    /// `APPEND_ENTRIES` to every server.
    fn heartbeat(&mut self, ctx: &mut C<'_>) {
        let now = ctx.local_now_us();
        if self.check_quorum && now - self.leader_since >= self.min_timeout_us as i64 {
            let window = self.min_timeout_us as i64;
            let heard = 1 + self
                .peers()
                .filter(|&p| self.last_ack_at[p as usize].is_some_and(|t| now - t < window))
                .count();
            if heard < self.majority() {
                let need = self.majority();
                ctx.note_with(|| {
                    format!(
                        "heard from only {heard} of the {need} servers a majority needs within {} ms: steps down (check-quorum)",
                        ms(window)
                    )
                });
                self.become_follower(ctx, None);
                return;
            }
        }
        self.round += 1;
        if self.round % ENTRY_EVERY_ROUNDS == 0 {
            self.log.push(self.term);
            self.match_index[self.id as usize] = self.log.len() as u64;
            self.advance_commit();
        }
        if self.round_started.len() >= ROUNDS_KEPT {
            self.round_started.pop_front();
        }
        self.round_started.push_back((self.round, now));
        for p in self.peers() {
            self.send_append(ctx, p);
        }
        let every = ctx.config().heartbeat_us;
        ctx.set_timer(Timer::Heartbeat, every);
    }

    fn send_append(&self, ctx: &mut C<'_>, to: NodeId) {
        let prev = self.next_index[to as usize] - 1;
        let end = (prev as usize + MAX_ENTRIES).min(self.log.len());
        ctx.send(
            to,
            Msg::AppendEntries {
                term: self.term,
                prev_log_index: prev,
                prev_log_term: self.term_at(prev),
                entries: self.log[prev as usize..end].to_vec(),
                leader_commit: self.commit_index,
                round: self.round,
            },
        );
    }

    /// Raft paper, 5.3/5.4.2: commit the highest entry of the current term
    /// stored on a majority.
    fn advance_commit(&mut self) {
        let mut matched = self.match_index.clone();
        matched.sort_unstable_by(|a, b| b.cmp(a));
        let index = matched[self.majority() - 1];
        if index > self.commit_index && self.term_at(index) == self.term {
            self.commit_index = index;
        }
    }

    /// Extends the read lease to the start of the newest round a majority
    /// answered plus `election_timeout_min x (1 - drift_bound)`.
    fn update_lease(&mut self, ctx: &mut C<'_>) {
        if !self.leader_lease {
            return;
        }
        let mut acked: Vec<u64> = self.peers().map(|p| self.acked_round[p as usize]).collect();
        acked.push(self.round);
        acked.sort_unstable_by(|a, b| b.cmp(a));
        let round = acked[self.majority() - 1];
        while self.round_started.front().is_some_and(|&(r, _)| r < round) {
            self.round_started.pop_front();
        }
        let Some(&(r, start)) = self.round_started.front() else {
            return;
        };
        if r != round {
            return;
        }
        let span = (self.min_timeout_us as f64 * (1.0 - self.drift_bound)) as i64;
        let until = start + span;
        if self.lease_until.is_some_and(|u| u >= until) {
            return;
        }
        self.lease_until = Some(until);
        let now = ctx.local_now_us();
        if until <= now {
            return;
        }
        if !self.lease_held {
            self.lease_held = true;
            ctx.set_lease(true);
            ctx.note_with(|| {
                format!(
                    "a majority answered heartbeat round {r}: holds the read lease until {} ms on its own clock",
                    ms(until)
                )
            });
        }
        ctx.set_timer(Timer::Lease, (until - now) as Micros);
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match msg {
            Msg::RequestVote {
                term,
                last_log_index,
                last_log_term,
            } => {
                if term > self.term && self.leader_lease && self.leader_recently(ctx) {
                    // Dissertation 4.2.3 and 6.4.1: while a leader may still
                    // hold its lease, a server that heard from it within
                    // the minimum election timeout neither moves to the
                    // new term nor votes.
                    ctx.note_with(|| {
                        format!("ignores n{from}'s request for term {term}: it heard from a leader less than an election timeout ago (the leader may hold a lease)")
                    });
                    let term = self.term;
                    ctx.send(
                        from,
                        Msg::Vote {
                            term,
                            granted: false,
                        },
                    );
                    return;
                }
                self.observe_term(ctx, term, from);
                self.on_request_vote(ctx, from, term, last_log_index, last_log_term);
            }
            Msg::Vote { term, granted } => {
                self.observe_term(ctx, term, from);
                if self.phase == Phase::Candidate
                    && term == self.term
                    && granted
                    && !self.votes.contains(&from)
                {
                    self.votes.push(from);
                    if self.votes.len() >= self.majority() {
                        self.become_leader(ctx);
                    }
                }
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
            } => {
                let recent = self.leader_recently(ctx);
                let granted =
                    term > self.term && !recent && self.log_ok(last_log_index, last_log_term);
                if !granted && recent {
                    ctx.note_with(|| {
                        format!("says no to n{from}'s pre-vote: it heard from a leader less than an election timeout ago")
                    });
                }
                ctx.send(from, Msg::PreVoteReply { term, granted });
            }
            Msg::PreVoteReply { term, granted } => {
                if self.phase == Phase::PreCandidate
                    && term == self.term + 1
                    && granted
                    && !self.votes.contains(&from)
                {
                    self.votes.push(from);
                    if self.votes.len() >= self.majority() {
                        let yes = names(&self.votes);
                        ctx.note_with(|| {
                            format!(
                                "a majority ({yes}) would vote for it: starts the real election"
                            )
                        });
                        self.start_election(ctx);
                    }
                }
            }
            Msg::Write { .. } => {}
        }
    }

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
            let v = self.voted_for.unwrap_or(from);
            ctx.note_with(|| format!("refuses n{from}: already voted for n{v} in term {term}"));
        } else if fresh {
            let (i, t) = self.last_log();
            ctx.note_with(|| {
                format!(
                    "refuses n{from}: its log ({last_log_index}@t{last_log_term}) is less up to date than ours ({i}@t{t})"
                )
            });
        }
        ctx.send(
            from,
            Msg::Vote {
                term: self.term,
                granted,
            },
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn on_append(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        (prev, prev_term): (u64, u64),
        entries: &[u64],
        leader_commit: u64,
        round: u64,
    ) {
        if term < self.term {
            ctx.send(
                from,
                Msg::AppendReply {
                    term: self.term,
                    success: false,
                    match_index: self.log.len() as u64,
                    round,
                },
            );
            return;
        }
        if self.phase == Phase::Leader {
            // Another leader of our own term cannot exist (one vote per
            // term); ignore rather than corrupt the log.
            return;
        }
        if self.phase != Phase::Follower || self.leader != Some(from) {
            ctx.note_with(|| format!("hears from n{from}, leader of term {term}; follows it"));
            self.become_follower(ctx, Some(from));
        }
        self.heard_leader_at = Some(ctx.local_now_us());
        self.arm_election_timer(ctx);
        let consistent = prev <= self.log.len() as u64 && self.term_at(prev) == prev_term;
        if !consistent {
            ctx.send(
                from,
                Msg::AppendReply {
                    term: self.term,
                    success: false,
                    match_index: self.log.len() as u64,
                    round,
                },
            );
            return;
        }
        for (i, &entry_term) in entries.iter().enumerate() {
            let index = prev as usize + i; // 0-based position of this entry
            match self.log.get(index) {
                Some(&t) if t == entry_term => {}
                Some(_) => {
                    self.log.truncate(index);
                    self.log.push(entry_term);
                }
                None => self.log.push(entry_term),
            }
        }
        let last_new = prev + entries.len() as u64;
        if leader_commit > self.commit_index {
            self.commit_index = leader_commit.min(last_new);
        }
        ctx.send(
            from,
            Msg::AppendReply {
                term: self.term,
                success: true,
                match_index: last_new,
                round,
            },
        );
    }

    fn on_append_reply(
        &mut self,
        ctx: &mut C<'_>,
        from: NodeId,
        term: u64,
        success: bool,
        match_index: u64,
        round: u64,
    ) {
        if self.phase != Phase::Leader || term != self.term {
            return;
        }
        let p = from as usize;
        self.last_ack_at[p] = Some(ctx.local_now_us());
        self.acked_round[p] = self.acked_round[p].max(round);
        if success {
            self.match_index[p] = self.match_index[p].max(match_index);
            self.next_index[p] = self.match_index[p] + 1;
            self.advance_commit();
        } else {
            self.next_index[p] = (self.next_index[p] - 1).min(match_index + 1).max(1);
        }
        self.update_lease(ctx);
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        match timer {
            Timer::Election => self.election_timeout(ctx),
            Timer::Heartbeat => {
                if self.phase == Phase::Leader {
                    self.heartbeat(ctx);
                }
            }
            Timer::Write => {
                if let (Phase::Leader, Some(r)) = (self.phase, self.resource) {
                    ctx.send(r, Msg::Write { token: self.term });
                    let every = ctx.config().timing.write_us;
                    ctx.set_timer(Timer::Write, every);
                }
            }
            Timer::Lease => {
                let now = ctx.local_now_us();
                if self.lease_held && self.lease_until.is_none_or(|u| now >= u) {
                    self.lease_held = false;
                    ctx.set_lease(false);
                    ctx.note("its read lease ran out on its own clock: reads must go through the log again");
                }
            }
        }
    }

    fn persistent(&self) -> Persistent {
        Persistent {
            term: self.term,
            voted_for: self.voted_for,
            log: self.log.clone(),
            resource_highest: None,
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<NodeId>| x.map_or("none".to_string(), |v| format!("n{v}"));
        let time = |x: Option<i64>| x.map_or("never".to_string(), |t| format!("{} ms", ms(t)));
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let (last_index, last_term) = self.last_log();
        let leading = self.phase == Phase::Leader;
        let mut out = vec![
            ("phase", format!("{:?}", self.phase)),
            ("current term (persistent)", self.term.to_string()),
            ("voted for (persistent)", opt(self.voted_for)),
            (
                "log (persistent)",
                format!("{last_index} entries, last of term {last_term}"),
            ),
            ("log terms", list(&self.log)),
            ("commit index", self.commit_index.to_string()),
            ("leader", opt(self.leader)),
            ("votes this round", names(&self.votes)),
            ("heard from a leader at (local)", time(self.heard_leader_at)),
            ("elections started", self.elections_started.to_string()),
            (
                "options",
                format!(
                    "pre_vote {}, check_quorum {}, leader_lease {}",
                    self.pre_vote, self.check_quorum, self.leader_lease
                ),
            ),
        ];
        if leading {
            out.extend([
                ("heartbeat round", self.round.to_string()),
                ("next index", list(&self.next_index)),
                ("match index", list(&self.match_index)),
                ("acked round", list(&self.acked_round)),
                (
                    "last answer at (local)",
                    self.last_ack_at
                        .iter()
                        .map(|t| t.map_or("-".to_string(), |t| format!("{}", ms(t))))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                ("lease held", self.lease_held.to_string()),
                ("lease until (local)", time(self.lease_until)),
            ]);
        }
        out
    }
}

impl Protocol for Raft {
    type Msg = Msg;
    type Timer = Timer;
    type Persistent = Persistent;
    const KINDS: &'static [&'static str] = KINDS;
    const SAFETY: Safety = Safety::Consensus;

    fn heap_bytes(&self) -> usize {
        match self {
            Raft::Server(s) => {
                std::mem::size_of::<Server>()
                    + 8 * (s.log.len()
                        + s.votes.len()
                        + s.next_index.len()
                        + s.match_index.len()
                        + 2 * s.last_ack_at.len()
                        + s.acked_round.len()
                        + 2 * s.round_started.len())
            }
            Raft::Storage(_) => 0,
        }
    }

    fn persistent_heap_bytes(persistent: &Persistent) -> usize {
        8 * persistent.log.len()
    }

    fn new(id: NodeId, config: &Config, persistent: &Persistent) -> Self {
        if config.resource == Some(id) {
            Raft::Storage(Resource::restore(config, persistent.resource_highest))
        } else {
            Raft::Server(Box::new(Server::new(id, config, persistent)))
        }
    }

    fn on_start(&mut self, ctx: &mut C<'_>, boot: Boot) {
        match self {
            Raft::Server(s) => s.on_start(ctx, boot),
            Raft::Storage(r) => r.on_start(ctx),
        }
    }

    fn on_message(&mut self, ctx: &mut C<'_>, from: NodeId, msg: Msg) {
        match (self, msg) {
            (Raft::Server(s), msg) => s.on_message(ctx, from, msg),
            (Raft::Storage(r), Msg::Write { token }) => {
                r.on_write(ctx, from, token);
            }
            (Raft::Storage(_), _) => {}
        }
    }

    fn on_timer(&mut self, ctx: &mut C<'_>, timer: Timer) {
        if let Raft::Server(s) = self {
            s.on_timer(ctx, timer);
        }
    }

    fn persistent(&self) -> Persistent {
        match self {
            Raft::Server(s) => s.persistent(),
            Raft::Storage(r) => Persistent {
                resource_highest: r.highest(),
                ..Persistent::default()
            },
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        match self {
            Raft::Server(s) => s.inspect(),
            Raft::Storage(r) => r.inspect(),
        }
    }
}

#[cfg(test)]
mod tests {
    //! One event in, the exact commands out (Raft paper, figure 2 and
    //! sections 5.2, 5.4.1; dissertation 9.6).
    use super::*;
    use crate::protocol::Command;
    use crate::protocol::testing::{commands, sends};
    use crate::scenario::Scenario;

    fn config(extra: &str) -> Config {
        let s =
            Scenario::from_json(&format!(r#"{{"algorithm":"raft","nodes":5{extra}}}"#)).unwrap();
        Config::from_scenario(&s)
    }

    fn server(id: NodeId, c: &Config) -> Raft {
        Raft::new(id, c, &Persistent::default())
    }

    fn s(node: &Raft) -> &Server {
        match node {
            Raft::Server(s) => s,
            Raft::Storage(_) => panic!("not a server"),
        }
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
        assert_eq!((s(&node).term, s(&node).voted_for), (1, Some(2)));
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
            resource_highest: None,
        };
        let mut node = Raft::new(0, &c, &p);
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
                resource_highest: None,
            }
        );
        let mut back = Raft::new(0, &c, &saved);
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
        assert_eq!(s(&node).phase, Phase::Leader);
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
        assert_eq!(s(&node).phase, Phase::Leader);
        let reply = Msg::AppendReply {
            term: 7,
            success: false,
            match_index: 0,
            round: 1,
        };
        let out = commands(&mut node, 0, &c, |n, ctx| n.on_message(ctx, 3, reply));
        assert_eq!((s(&node).phase, s(&node).term), (Phase::Follower, 7));
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
            resource_highest: None,
        };
        let mut node = Raft::new(1, &c, &p);
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
        assert_eq!(s(&node).leader, Some(0), "a valid leader all the same");
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
        assert_eq!(s(&node).log, vec![1, 2, 2]);
        assert_eq!(s(&node).commit_index, 3);
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
        assert_eq!(s(&node).term, 0, "no term change for a pre-vote");
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
        assert_eq!(s(&free).term, 0);
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
        assert_eq!((s(&node).phase, s(&node).term), (Phase::Candidate, 1));
    }

    #[test]
    fn the_resource_applies_the_leaders_writes() {
        let c = config("");
        assert_eq!(c.resource, Some(5));
        let mut storage = Raft::new(5, &c, &Persistent::default());
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
}
