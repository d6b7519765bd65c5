//! Live faults and forks: a fault injected at the current moment becomes
//! part of the scenario (so the scenario alone reproduces the run), and
//! acting before the latest moment reached forks the history, dropping
//! the faults injected live after now (the old future).

use super::{EndSearch, Session, Timeline};
use crate::ScenarioExt;
use crate::algorithms;
use crate::scenario::{Scenario, ScenarioError};
use crate::time::{Micros, to_ms};
use serde::Serialize;
use serde_json::Value;

/// What a fault injected in the past did to the history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fork {
    /// Where the new history branched off, ms.
    pub at_ms: f64,
    /// Faults injected live after that moment, dropped (scenario JSON
    /// objects, `at_ms` included), in the order they were made.
    pub dropped: Vec<Value>,
}

/// Microseconds as the scenario's millisecond JSON number: whole when
/// whole, else fractional (1500 us is 1.5), as scenarios are written.
fn ms_json(us: Micros) -> Value {
    if us % 1000 == 0 {
        Value::from(us / 1000)
    } else {
        Value::from(to_ms(us))
    }
}

/// `scenario` with `fault_json` (a fault object without `at_ms`) added at
/// `now`, and without the live faults (those after the first
/// `base_faults`) later than `now`, which are returned, in order.
fn with_live_fault(
    scenario: &Scenario,
    base_faults: usize,
    now: Micros,
    fault_json: &str,
) -> Result<(Scenario, Vec<Value>), ScenarioError> {
    let mut fault: Value = crate::scenario::json_value(fault_json).map_err(|e| {
        let field = if e.field.is_empty() {
            "fault".to_string()
        } else {
            format!("fault.{}", e.field)
        };
        ScenarioError::new(field, e.message)
    })?;
    let Value::Object(fields) = &mut fault else {
        return Err(ScenarioError::new(
            "fault",
            "must be an object such as {\"crash\": 3}",
        ));
    };
    if fields.contains_key("at_ms") {
        return Err(ScenarioError::new(
            "fault.at_ms",
            "is set by the playground: a live fault happens now",
        ));
    }
    fields.insert("at_ms".to_string(), ms_json(now));
    let mut value = scenario.to_json();
    let mut dropped = Vec::new();
    match value.get_mut("faults") {
        Some(Value::Array(faults)) => {
            // The live faults after now belong to the old future.
            let later: Vec<usize> = scenario
                .faults
                .iter()
                .enumerate()
                .skip(base_faults)
                .filter(|(_, f)| f.at_us > now)
                .map(|(i, _)| i)
                .collect();
            for &i in later.iter().rev() {
                dropped.push(faults.remove(i));
            }
            dropped.reverse();
            faults.push(fault);
        }
        _ => {
            value["faults"] = Value::Array(vec![fault]);
        }
    }
    Ok((Scenario::from_value(&value)?, dropped))
}

impl Session {
    /// Adds `fault_json` (a scenario fault object without `at_ms`, e.g.
    /// `{"crash": 3}`) at the current time and re-runs to the current
    /// time, so the scenario alone reproduces the state. The fault is
    /// checked by the scenario validator; on error (naming the field)
    /// nothing changes.
    ///
    /// Before the latest moment reached, this forks the history: faults
    /// injected live after now are dropped (see [`Session::fork`]). The
    /// end of the run is sought anew.
    pub fn inject_fault(&mut self, fault_json: &str) -> Result<(), ScenarioError> {
        let now = self.sim.now_us();
        let (scenario, dropped) =
            with_live_fault(self.scenario(), self.base_faults, now, fault_json)?;
        let forked = now < self.timeline.reached_us();
        let seen = self.sim.metrics().events;
        // Part way through an instant: events of `now` still to come (the
        // page's first moment, before any start; after a Step).
        let part_way = self.sim.next_time_us() == Some(now);
        self.sim = algorithms::build(&scenario, true);
        self.timeline = Timeline::new(self.sim.as_ref());
        if part_way {
            self.replay_part_way(now, seen);
        } else {
            self.timeline.seek(self.sim.as_mut(), now);
        }
        self.end = EndSearch::default();
        self.last_fork = forked.then(|| Fork {
            at_ms: to_ms(now),
            dropped,
        });
        Ok(())
    }

    /// Brings the rebuilt run to where the old one stood, part way
    /// through the instant `now` (`seen` events processed in all), with
    /// the fault made now in place: every event before `now`; then, at
    /// `now`, the scenario's faults there (queued before every other
    /// event of their time, Engine::new in core/engine/src/engine/mod.rs;
    /// the new one last of them); then as many of that moment's other
    /// events as the old run had processed. So the moment shown is the
    /// one the user acted on plus the fault, never a later one: a node
    /// crashed at 0 ms on a page that has not started (no event run yet)
    /// shows the cluster still waiting to start, not the state after
    /// every node's start at 0 ms. (What a fault schedules for its own
    /// instant, a flaky node's first crash, then waits for the rest of
    /// the instant too.) Where the old run had finished its instant, the
    /// rebuilt one runs every event of `now`, as a fresh run to `now`.
    fn replay_part_way(&mut self, now: Micros, seen: u64) {
        if now > 0 {
            self.timeline.seek(self.sim.as_mut(), now - 1);
        }
        let faults_now = self
            .scenario()
            .faults
            .iter()
            .filter(|f| f.at_us == now)
            .count();
        for _ in 0..faults_now {
            self.sim.step();
        }
        // The fault is one event more than the old run had seen.
        while self.sim.metrics().events <= seen && self.sim.next_time_us() == Some(now) {
            self.sim.step();
        }
        if self.sim.next_time_us() != Some(now) {
            // The instant is over after all: time counted up to it.
            self.sim.run_until(now);
        }
        self.timeline.saw(self.sim.as_ref());
    }

    /// What the last injected fault dropped, if it forked the history.
    pub fn fork(&self) -> Option<&Fork> {
        self.last_fork.as_ref()
    }

    /// Live faults after the current time: the ones a fault made now
    /// would drop (see [`Session::inject_fault`]).
    pub fn live_faults_ahead(&self) -> usize {
        let now = self.sim.now_us();
        let faults = &self.scenario().faults;
        faults[self.base_faults.min(faults.len())..]
            .iter()
            .filter(|f| f.at_us > now)
            .count()
    }
}
