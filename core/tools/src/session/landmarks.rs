//! Stepping from landmark to landmark (a role change, a change of
//! leaders, a violation: see [`Landmark`]) through the session, so the
//! way there gets checkpoints, at once or in pieces (the page searches
//! between its frames: [`Session::next_landmark_within`]), and the list
//! of a run's landmarks up to its horizon (`election landmarks`).

use super::Session;
use crate::protocol::NodeId;
use crate::time::{Micros, to_ms};
use crate::travel::Landmark;
use serde::Serialize;

/// Most events one [`Session::next_landmark`] call processes: about a
/// second of recording simulation in wasm, so a search through a quiet
/// run never freezes the page for long.
pub const MAX_LANDMARK_EVENTS: u64 = 500_000;

/// One landmark of a run: when, which kind, and who leads right after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LandmarkAt {
    /// When, ms.
    pub at_ms: f64,
    /// `role`, `leaders` or `violation`.
    pub kind: Landmark,
    /// The live leaders right after it, ascending.
    pub leaders: Vec<NodeId>,
}

/// What a piece of the search for the next landmark came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LandmarkSearch {
    /// The session is right after it.
    Found(Landmark),
    /// None within the piece's events: search on from here.
    NotYet,
    /// None before the horizon, or the run stopped (at a limit, on a
    /// script error): the session is where the run ends.
    None,
}

impl Session {
    /// Runs to right after the next landmark before the horizon and
    /// names it; `None` when there is none before it (the session is then
    /// at the horizon) or within [`MAX_LANDMARK_EVENTS`] events.
    pub fn next_landmark(&mut self) -> Option<Landmark> {
        match self.next_landmark_within(MAX_LANDMARK_EVENTS) {
            LandmarkSearch::Found(kind) => Some(kind),
            LandmarkSearch::NotYet | LandmarkSearch::None => None,
        }
    }

    /// [`Session::next_landmark`] in pieces of at most `max_events`
    /// events: the same landmark, found by as many calls as it takes.
    pub fn next_landmark_within(&mut self, max_events: u64) -> LandmarkSearch {
        let horizon = self.horizon_us();
        let before: (Micros, u64) = (self.now_us(), self.sim.metrics().events);
        if let Some(kind) = self
            .timeline
            .run_to_landmark(self.sim.as_mut(), horizon, max_events)
        {
            return LandmarkSearch::Found(kind);
        }
        let done = self.sim.next_time_us().is_none_or(|t| t > horizon);
        if done || (self.now_us(), self.sim.metrics().events) == before {
            LandmarkSearch::None
        } else {
            LandmarkSearch::NotYet
        }
    }

    /// Every landmark from now up to the horizon, in order, each with the
    /// leaders right after it; the session ends at the horizon (or where
    /// the run stopped, if it hit the event limit).
    pub fn landmarks(&mut self) -> Vec<LandmarkAt> {
        let mut found = Vec::new();
        loop {
            match self.next_landmark_within(MAX_LANDMARK_EVENTS) {
                LandmarkSearch::Found(kind) => found.push(LandmarkAt {
                    at_ms: to_ms(self.now_us()),
                    kind,
                    leaders: self.sim.leaders().to_vec(),
                }),
                LandmarkSearch::NotYet => {}
                LandmarkSearch::None => break,
            }
        }
        found
    }
}
