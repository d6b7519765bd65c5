//! Stepping from landmark to landmark (a role change, a change of
//! leaders, a violation: see [`Landmark`]) through the session, so the
//! way there gets checkpoints, and the list of a run's landmarks up to
//! its horizon (`election landmarks`).

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

impl Session {
    /// Runs to right after the next landmark before the horizon and
    /// names it; `None` when there is none before it (the session is then
    /// at the horizon) or within [`MAX_LANDMARK_EVENTS`] events.
    pub fn next_landmark(&mut self) -> Option<Landmark> {
        let horizon = self.horizon_us();
        self.timeline
            .run_to_landmark(self.sim.as_mut(), horizon, MAX_LANDMARK_EVENTS)
    }

    /// Every landmark from now up to the horizon, in order, each with the
    /// leaders right after it; the session ends at the horizon (or where
    /// the run stopped, if it hit the event limit).
    pub fn landmarks(&mut self) -> Vec<LandmarkAt> {
        let horizon = self.horizon_us();
        let mut found = Vec::new();
        loop {
            let before: (Micros, u64) = (self.now_us(), self.sim.metrics().events);
            match self.next_landmark() {
                Some(kind) => found.push(LandmarkAt {
                    at_ms: to_ms(self.now_us()),
                    kind,
                    leaders: self.sim.leaders().to_vec(),
                }),
                // None within the search's budget: search on, unless the
                // run is at the horizon or made no progress (truncated).
                None => {
                    let done = self.sim.next_time_us().is_none_or(|t| t > horizon);
                    if done || (self.now_us(), self.sim.metrics().events) == before {
                        break;
                    }
                }
            }
        }
        found
    }
}
