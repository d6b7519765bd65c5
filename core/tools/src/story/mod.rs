//! The story of a run: captions that say what is happening, what comes
//! next and why; the moments at which something other than background
//! traffic happens; and the questions a viewer can be asked at each
//! decisive moment, with the true answer taken from the run's own future.
//!
//! Everything comes from **one recorded run** of the scenario to its end
//! (the run `election run` reports: `algorithms::build(scenario, true)`
//! and `run_to_end`), read off its trace. A run is deterministic, so the
//! story knows the future exactly: who will lead, whose timer fires
//! next, what the election will cost.
//!
//! # Captions
//!
//! [`Story::captions`] are sorted by `at_ms`, the first at 0; each is what
//! the page shows from its `at_ms` until the next. A caption is made at
//! time 0, at every fault the engine applies, when an election starts
//! (the first election message after a quiet stretch, or a new term),
//! when a node becomes leader, when a leader steps down without a
//! fault, and when the election is over (one leader, and every other live
//! participant believes it leads: the caption then says what comes next,
//! "only background traffic until 20,000 ms, when n7 crashes", when no
//! election comes before that fault); two at the same instant keep the
//! weightier (start, fault, leader, election, then the election's end). The wording is per family where it helps (Bully: the
//! highest live id wins; rings: the message goes round the ring; Raft:
//! votes and terms; `wording.rs`); every other algorithm, scripts
//! included, gets the generic sentence built from the same facts. After a
//! leader crash the caption names the node whose timer fires next: the
//! first participant (not a service or resource node) to send an
//! election message after the crash. "Who will lead" in a caption is who
//! comes out of the stretch before the next fault as leader (in a
//! partition, each side's own).
//!
//! # Moments
//!
//! [`Story::moments_ms`] are the distinct times, up to the run's end, of
//! every event that is more than background traffic: election messages
//! sent, delivered or lost, role, leader, term, vote and lease changes,
//! elections, faults, violations, rejected writes. A timer is a moment
//! through what it does (a timer that starts an election sends election
//! messages at its instant); heartbeats, lease renewals, background
//! messages, accepted writes and notes are not. Between two moments only
//! background traffic and timer arcs change; after the last one (the run
//! settled, by the settling rule) nothing but background traffic moves.
//! The page skips such stretches like quiet time.
//!
//! # Questions
//!
//! Decisive moments are time 0 and each crash, partition or heal after
//! which an election follows (an election message or an election
//! announcement) before the next crash, partition or heal. Each has a
//! **window**: from the moment to the next decisive moment, or the run's
//! end. The answers, from the trace:
//!
//! - `leader`: the one live leader at the window's end (`"none"` when no
//!   node leads, `"no single leader"` when several do). At time 0 of a
//!   fault-free run this is `election run --json`'s `leader`.
//! - `election_messages`: election-purpose messages **sent** in the
//!   window (each send once, as the run's counters count it: a duplicated
//!   copy is not a second send). At time 0 of a fault-free run this is
//!   `messages.election`.
//! - `first_mover`: the first participant to send an election message in
//!   the window (else the first to announce an election).
//! - `time_to_leader`: from the moment to when the window's final leader
//!   last became leader, as one of four ranges.
//! - `split_brain`: whether two or more nodes lead at once for some time
//!   in the window (`"no"`, or `"yes, ..."` with how long; at time 0 of a
//!   fault-free run, `split_brain_ms > 0`).
//!
//! [`Story::questions`] holds one per decisive moment, the kind chosen by
//! a fixed rule: time 0 asks `leader`; a partition `split_brain`; a heal
//! `leader`; the k-th crash `first_mover`, `election_messages`,
//! `time_to_leader`, `leader` in turn. [`question_at`] asks any kind at
//! any time. Wrong choices are plausible: other live nodes (the nearest
//! ids, the highest), neighbouring counts in even steps, never negative,
//! ranges of one nice width. Choices are in a fixed order (ids, counts and
//! ranges ascending), so the answer's place follows from the run.

mod captions;
mod facts;
mod questions;
mod wording;

#[cfg(test)]
mod tests;

use crate::scenario::Scenario;
use crate::sim::Simulation;
use crate::time::{Micros, to_ms};
use election_engine::limits::MAX_TRACE_EVENTS;
use facts::Facts;
use serde::Serialize;

/// One caption: the text the page shows from `at_ms` until the next.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Caption {
    /// Simulated time, ms.
    pub at_ms: f64,
    /// One or two plain sentences.
    pub text: String,
}

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// Who becomes (or stays) the leader.
    Leader,
    /// How many election messages the election costs.
    ElectionMessages,
    /// Which node starts the election.
    FirstMover,
    /// How long until there is a leader (ranges).
    TimeToLeader,
    /// Whether two nodes will lead at once.
    SplitBrain,
}

impl QuestionKind {
    /// Every kind, in a fixed order.
    pub const ALL: [QuestionKind; 5] = [
        QuestionKind::Leader,
        QuestionKind::ElectionMessages,
        QuestionKind::FirstMover,
        QuestionKind::TimeToLeader,
        QuestionKind::SplitBrain,
    ];

    /// Its JSON name: `leader`, `election_messages`, `first_mover`,
    /// `time_to_leader`, `split_brain`.
    pub fn name(self) -> &'static str {
        match self {
            QuestionKind::Leader => "leader",
            QuestionKind::ElectionMessages => "election_messages",
            QuestionKind::FirstMover => "first_mover",
            QuestionKind::TimeToLeader => "time_to_leader",
            QuestionKind::SplitBrain => "split_brain",
        }
    }

    /// The kind of a JSON name, if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A question at a decisive moment, with its true answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Question {
    /// The moment, ms.
    pub at_ms: f64,
    /// What it asks.
    pub kind: QuestionKind,
    /// The question, one sentence.
    pub text: String,
    /// 3 or 4 choices: a node as the string `"n3"`, a count as a number, a
    /// range or a yes/no as a string.
    pub choices: Vec<serde_json::Value>,
    /// The true answer, one of `choices` as it is there.
    pub answer: serde_json::Value,
    /// Why, in one line.
    pub why: String,
}

/// The story of a run: captions, moments and questions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Story {
    /// Captions, sorted by time, the first at 0.
    pub captions: Vec<Caption>,
    /// Sorted distinct times (ms) at which more than background traffic
    /// happens.
    pub moments_ms: Vec<f64>,
    /// One question per decisive moment, in time order.
    pub questions: Vec<Question>,
}

/// The story of `scenario`, from one recorded run to its end.
pub fn story(scenario: &Scenario) -> Story {
    StoryRun::new(scenario).story()
}

/// The captions alone (what `election run --json` adds as `captions`).
pub fn captions(scenario: &Scenario) -> Vec<Caption> {
    captions::captions(&Facts::of(scenario))
}

/// The story of a recording simulation of `scenario` (built with
/// `record` on) that already ran to its end, `end_us` (what
/// `run_to_end` returned): the same as [`story`], without a second run.
pub fn story_of_run(scenario: &Scenario, sim: &dyn Simulation, end_us: Micros) -> Story {
    StoryRun(Facts::from_sim(scenario, sim, end_us)).story()
}

/// The question of `kind` at `at_ms` (a decisive moment, or any time: the
/// window then runs from it to the next decisive moment), or `None` when
/// no election follows before the next decisive moment or the end.
pub fn question_at(scenario: &Scenario, at_ms: f64, kind: QuestionKind) -> Option<Question> {
    StoryRun::new(scenario).question_at(at_ms, kind)
}

/// One recorded run of a scenario made for its story, in pieces if the
/// caller wants (the page spreads it over frames): to its end, or to
/// where its trace was cut (`MAX_TRACE_EVENTS`, core/engine/src/limits.rs):
/// the story is read off the trace, so nothing after the cut could be
/// told, and a story costs at most that many recorded events however long
/// the run.
pub struct StoryRecording {
    sim: Box<dyn Simulation>,
    end_us: Option<Micros>,
}

impl StoryRecording {
    /// A recording run of `scenario` at time 0.
    pub fn new(scenario: &Scenario) -> Self {
        Self {
            sim: crate::algorithms::build(scenario, true),
            end_us: None,
        }
    }

    /// Runs about `max_events` more events; true once the run reached its
    /// end or its trace's cut (any split gives the same story).
    pub fn within(&mut self, max_events: u64) -> bool {
        if self.end_us.is_none() {
            // A piece spreads its share of a coming burst ahead, as every
            // run in slices does.
            crate::session::spread_share(self.sim.as_mut(), max_events);
            if let Some(end) = self.sim.run_to_end_within_work(max_events) {
                self.end_us = Some(end);
            } else if self.sim.trace().len() > MAX_TRACE_EVENTS {
                self.end_us = Some(self.sim.now_us());
            }
        }
        self.end_us.is_some()
    }

    /// The run kept for its story, running what is left of it first.
    pub fn finish(mut self, scenario: &Scenario) -> StoryRun {
        /// Events between two looks at the trace.
        const SLICE: u64 = 4096;
        while !self.within(SLICE) {}
        let end = self.end_us.unwrap_or_else(|| self.sim.now_us());
        StoryRun(Facts::from_sim(scenario, self.sim.as_ref(), end))
    }
}

/// One recorded run kept for its story: [`StoryRun::story`] and any
/// number of [`StoryRun::question_at`] without running again (the page
/// keeps one per scenario revision). It holds the run's trace.
pub struct StoryRun(Facts);

impl StoryRun {
    /// Records one run of `scenario` to its end.
    pub fn new(scenario: &Scenario) -> Self {
        Self(Facts::of(scenario))
    }

    /// The story: captions, moments and one question per decisive moment.
    pub fn story(&self) -> Story {
        Story {
            captions: captions::captions(&self.0),
            moments_ms: moments(&self.0),
            questions: questions::questions(&self.0),
        }
    }

    /// See [`question_at`].
    pub fn question_at(&self, at_ms: f64, kind: QuestionKind) -> Option<Question> {
        let at_us = if at_ms.is_nan() || at_ms <= 0.0 {
            0
        } else {
            (at_ms * 1000.0).round() as Micros
        };
        let w = self.0.window_at(at_us)?;
        Some(questions::ask(&self.0, &w, kind))
    }
}

/// The distinct times of the run's story events, ms.
fn moments(facts: &Facts) -> Vec<f64> {
    let mut out: Vec<f64> = vec![0.0];
    let mut last = 0;
    for e in &facts.events {
        if e.at_us > last && facts.is_story_event(&e.event) {
            out.push(to_ms(e.at_us));
            last = e.at_us;
        }
    }
    out
}
