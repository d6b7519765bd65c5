//! [`Playground`]: the opaque handle the page holds, one recording
//! simulation of one scenario.
//!
//! Time travel is by re-running from checkpoints ([`Timeline`]): going
//! back restores the nearest checkpoint before the wanted time and runs
//! on from there. Runs are deterministic, so the result is exactly what a
//! fresh load of the same scenario at the same time shows, and a share
//! link of the scenario reproduces what the user did.
//!
//! Changing the past forks a new history: a fault injected before the
//! latest moment reached drops the faults injected live after it (the old
//! future; the scenario's own faults stay), and the run is rebuilt from
//! the new scenario. [`Playground::last_fork`] says what was dropped.

use crate::timeline::Timeline;
use crate::{js, url, views};
use election_core::algorithms::{self, Layout};
use election_core::scenario::{DEFAULT_RUN_LIMIT_US, MAX_TIME_US};
use election_core::sim::{Simulation, ViolationReport};
use election_core::time::{Micros, to_ms};
use election_core::trace::Event;
use election_core::travel::Landmark;
use election_core::{Scenario, ScenarioError};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Most log lines one [`Playground::events`] call returns, so one call
/// stays small whatever the page asks for.
pub const MAX_EVENTS_PER_CALL: usize = 10_000;

/// A millisecond time from JS as microseconds: rounded to the microsecond,
/// clamped to `0..=MAX_TIME_US` (NaN is 0).
pub fn ms_to_us(t_ms: f64) -> Micros {
    if t_ms.is_nan() || t_ms <= 0.0 {
        return 0;
    }
    ((t_ms * 1000.0).round() as Micros).min(MAX_TIME_US)
}

/// Microseconds as the scenario's millisecond JSON number: whole when
/// whole, else fractional (1500 us is 1.5), as the core writes them.
fn ms_json(us: Micros) -> Value {
    if us % 1000 == 0 {
        Value::from(us / 1000)
    } else {
        Value::from(to_ms(us))
    }
}

/// One event-log line for the page.
#[derive(Serialize)]
struct LogLine<'a> {
    /// Position in the trace (the page asks for lines from an index on).
    index: usize,
    /// When, ms.
    at_ms: f64,
    /// Plain language, from the core's `Event::describe`.
    text: String,
    /// The raw event (`type` plus its fields).
    event: &'a Event,
}

/// Most events one [`Playground::next_landmark`] call processes: about a
/// second of recording simulation in wasm, so a search through a quiet
/// run never freezes the page for long.
pub const MAX_LANDMARK_EVENTS: u64 = 500_000;

/// What a fault injected in the past did to the history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fork {
    /// Where the new history branched off, ms.
    pub at_ms: f64,
    /// Faults injected live after that moment, dropped (scenario JSON
    /// objects, `at_ms` included), in the order they were made.
    pub dropped: Vec<Value>,
}

/// A recording simulation of one scenario, driven by the page.
#[wasm_bindgen]
pub struct Playground {
    sim: Box<dyn Simulation>,
    /// End of the run as `election run` computes it, once asked for.
    end_us: Option<Micros>,
    /// The side run looking for that end while it is sought in pieces
    /// ([`Playground::end_us_within`]).
    end_run: Option<Box<dyn Simulation>>,
    /// Checkpoints of this history and how far it has run.
    timeline: Timeline,
    /// Faults of the scenario the playground was made from; those after
    /// them were injected live.
    base_faults: usize,
    /// What the last injected fault dropped, if it forked the history.
    last_fork: Option<Fork>,
}

/// The Rust side: usable natively (tests) as well as from wasm.
impl Playground {
    /// A playground at time 0 of a validated scenario.
    pub fn from_scenario(scenario: &Scenario) -> Self {
        let sim = algorithms::build(scenario, true);
        Self {
            timeline: Timeline::new(sim.as_ref()),
            sim,
            end_us: None,
            end_run: None,
            base_faults: scenario.faults.len(),
            last_fork: None,
        }
    }

    /// The run summary so far (the `election run --json` object).
    pub fn run_summary(&mut self) -> election_core::sim::RunSummary {
        self.sim.summary()
    }

    /// The checkpoints (for measurements and tests).
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// The latest time this history has reached, microseconds.
    pub fn reached_us(&self) -> Micros {
        self.timeline.reached_us()
    }

    /// What the last injected fault dropped, if it forked the history.
    pub fn fork(&self) -> Option<&Fork> {
        self.last_fork.as_ref()
    }

    /// Runs to right after the next landmark (a role change, a change of
    /// leaders, a violation) before the horizon; `None` when there is
    /// none before it (the run is then at the horizon) or within
    /// [`MAX_LANDMARK_EVENTS`] events.
    pub fn next_landmark_us(&mut self) -> Option<Landmark> {
        let horizon = self.horizon_us();
        self.timeline
            .run_to_landmark(self.sim.as_mut(), horizon, MAX_LANDMARK_EVENTS)
    }

    /// The scenario, including every fault injected so far.
    pub fn scenario(&self) -> &Scenario {
        self.sim.scenario()
    }

    /// The simulation, for reading.
    pub fn sim(&self) -> &dyn Simulation {
        self.sim.as_ref()
    }

    /// Current time, microseconds.
    pub fn now_us(&self) -> Micros {
        self.sim.now_us()
    }

    /// Goes to time `t`: forward by running, backward from the nearest
    /// checkpoint (see [`Timeline::seek`]). Never past the horizon, where
    /// playing stops too: an address asking for a far time (`at=86400000`
    /// on a scenario that ends at 60 s) must not run the page for a day of
    /// simulated heartbeats.
    pub fn seek_us(&mut self, t: Micros) {
        let t = t.min(self.horizon_us().max(self.sim.now_us()));
        self.timeline.seek(self.sim.as_mut(), t);
    }

    /// Adds `fault` (a scenario fault object without `at_ms`, e.g.
    /// `{"crash": 3}`) at the current time and re-runs to the current time,
    /// so the scenario alone reproduces the state. The fault is checked by
    /// the core's scenario validator; on error nothing changes.
    ///
    /// Before the latest moment reached, this forks the history: faults
    /// injected live after now are dropped (see [`Playground::fork`]).
    pub fn inject_fault(&mut self, fault_json: &str) -> Result<(), ScenarioError> {
        let mut fault: Value = serde_json::from_str(fault_json)
            .map_err(|e| ScenarioError::new("fault", format!("not valid JSON: {e}")))?;
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
        let now = self.sim.now_us();
        fields.insert("at_ms".to_string(), ms_json(now));
        let mut scenario = self.scenario().to_json();
        let mut dropped = Vec::new();
        match scenario.get_mut("faults") {
            Some(Value::Array(faults)) => {
                // The live faults after now belong to the old future.
                let live = self
                    .scenario()
                    .faults
                    .iter()
                    .enumerate()
                    .skip(self.base_faults);
                let later: Vec<usize> = live
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
                scenario["faults"] = Value::Array(vec![fault]);
            }
        }
        let scenario = Scenario::from_value(&scenario)?;
        let forked = now < self.timeline.reached_us();
        self.sim = algorithms::build(&scenario, true);
        self.timeline = Timeline::new(self.sim.as_ref());
        self.timeline.seek(self.sim.as_mut(), now);
        self.end_us = None;
        self.end_run = None;
        self.last_fork = forked.then(|| Fork {
            at_ms: to_ms(now),
            dropped,
        });
        Ok(())
    }

    /// Where the run ends as `election run` sees it: `until_ms` if set,
    /// else when the election settles (bounded by the core's run limit).
    /// Computed on a separate, non-recording run and cached.
    pub fn end_us(&mut self) -> Micros {
        loop {
            if let Some(end) = self.end_us_within(u64::MAX) {
                return end;
            }
        }
    }

    /// [`Playground::end_us`] in pieces of about `max_events` events of
    /// the side run, which is kept between calls: the end once found,
    /// `None` before. A thousand nodes all starting an election take
    /// over a hundred milliseconds to run to their end, which the page
    /// spreads over its frames this way. With `max_events` 0 it only
    /// reads what is known (the page asks that every frame): no side run
    /// is made or checked.
    pub fn end_us_within(&mut self, max_events: u64) -> Option<Micros> {
        if self.end_us.is_some() {
            return self.end_us;
        }
        if let Some(until) = self.scenario().until_us {
            self.end_us = Some(until);
            return self.end_us;
        }
        if max_events == 0 {
            return None;
        }
        let scenario = self.sim.scenario();
        let run = self
            .end_run
            .get_or_insert_with(|| algorithms::build(scenario, false));
        let end = run.run_to_end_within(max_events)?;
        self.end_run = None;
        self.end_us = Some(end);
        Some(end)
    }

    /// One-way links cut right now, `(from, to)`, read from the engine's
    /// network (so a heal, which clears every cut, is already applied).
    pub fn cut_pairs(&self) -> Vec<(u32, u32)> {
        self.sim.cuts()
    }

    /// The failed property checks so far, in the summary's form.
    pub fn violation_reports(&self) -> Vec<ViolationReport> {
        self.sim
            .violations()
            .iter()
            .map(ViolationReport::from)
            .collect()
    }

    /// The latest time worth playing to: `until_ms` if set, else the
    /// core's run limit for runs without one.
    pub fn horizon_us(&self) -> Micros {
        self.scenario().until_us.unwrap_or(DEFAULT_RUN_LIMIT_US)
    }
}

/// The JS side.
#[wasm_bindgen]
impl Playground {
    /// A playground for scenario JSON text (same format as the CLI's
    /// `--scenario` files). Throws an `Error` naming the bad field.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Playground, JsValue> {
        Scenario::from_json(scenario_json)
            .map(|s| Self::from_scenario(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// A playground for a page URL: `query` is `location.search`
    /// (`?algorithm=bully&nodes=8`), `fragment` is `location.hash`; an
    /// `s=` share link in the fragment wins over the query. Parameters
    /// that are not scenario fields (`at`) are ignored.
    pub fn from_url(query: &str, fragment: &str) -> Result<Playground, JsValue> {
        url::scenario_from_url(query, fragment)
            .map(|s| Self::from_scenario(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// A new playground at time 0 with the settings in `query` (same
    /// parameters as a URL) applied to this scenario; injected faults are
    /// dropped, network and timing kept.
    pub fn with_settings(&self, query: &str) -> Result<Playground, JsValue> {
        url::apply_settings(self.scenario(), query)
            .map(|s| Self::from_scenario(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// Current simulated time, ms.
    pub fn now_ms(&self) -> f64 {
        to_ms(self.sim.now_us())
    }

    /// Time of the next event, ms, or `undefined` when nothing is left.
    pub fn next_event_ms(&self) -> Option<f64> {
        self.sim.next_time_us().map(to_ms)
    }

    /// Processes one event; `false` when none is left.
    pub fn step(&mut self) -> bool {
        let stepped = self.sim.step();
        self.timeline.saw(self.sim.as_ref());
        stepped
    }

    /// Processes every event up to and including `t_ms` (forward only;
    /// see [`Playground::seek_ms`]).
    pub fn run_until_ms(&mut self, t_ms: f64) {
        self.timeline.run_until(self.sim.as_mut(), ms_to_us(t_ms));
    }

    /// Runs toward `t_ms` (forward only) but stops after about
    /// `max_events` events, so the page can spread a crowded stretch over
    /// frames; the events are those of one [`Playground::run_until_ms`].
    /// Returns whether `t_ms` was reached.
    pub fn run_until_ms_within(&mut self, t_ms: f64, max_events: u32) -> bool {
        self.timeline
            .run_until_within(self.sim.as_mut(), ms_to_us(t_ms), u64::from(max_events))
    }

    /// Goes to `t_ms`, backward too (from the nearest checkpoint).
    pub fn seek_ms(&mut self, t_ms: f64) {
        self.seek_us(ms_to_us(t_ms));
    }

    /// Runs to the end of the run exactly as `election run` does and
    /// returns that time, ms.
    pub fn run_to_end(&mut self) -> f64 {
        // Through the timeline first, so the way there gets checkpoints.
        let planned = self.end_us();
        if self.sim.now_us() < planned {
            self.timeline.run_until(self.sim.as_mut(), planned);
        }
        let end = self.sim.run_to_end();
        self.timeline.saw(self.sim.as_ref());
        self.end_us = Some(end);
        to_ms(end)
    }

    /// The end `election run` reports for this scenario, ms, without
    /// moving this playground (computed once on a side run).
    pub fn end_ms(&mut self) -> f64 {
        to_ms(self.end_us())
    }

    /// The same, sought in pieces: runs about `max_events` more events
    /// of the side run and returns the end once found, `undefined`
    /// before (see [`Playground::end_us_within`]).
    pub fn end_ms_within(&mut self, max_events: u32) -> Option<f64> {
        self.end_us_within(u64::from(max_events)).map(to_ms)
    }

    /// `until_ms` if the scenario sets it, else the core's run limit, ms.
    pub fn horizon_ms(&self) -> f64 {
        to_ms(self.horizon_us())
    }

    /// Messages sent so far (dropped ones included).
    pub fn messages_sent(&self) -> f64 {
        self.sim.metrics().sent as f64
    }

    /// Messages sent so far by kind, aligned with [`Playground::kinds`].
    pub fn sent_by_kind(&self) -> Vec<f64> {
        self.sim
            .metrics()
            .by_kind
            .iter()
            .map(|&c| c as f64)
            .collect()
    }

    /// The one live leader (the summary's `leader`), or `undefined` when
    /// no node or several nodes lead.
    pub fn leader(&self) -> Option<u32> {
        match self.sim.leaders() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Every live leader, ascending: one normally, several during split
    /// brain (the summary's `leaders`).
    pub fn leaders(&self) -> Vec<u32> {
        self.sim.leaders().to_vec()
    }

    /// Messages lost so far (by the network, a partition, a cut link or a
    /// receiver that is down).
    pub fn messages_dropped(&self) -> f64 {
        self.sim.metrics().dropped as f64
    }

    /// One-way links cut right now, as the engine holds them, flattened to
    /// `[from, to, from, to, ...]` ascending (see [`Playground::cut_pairs`]).
    pub fn cuts(&self) -> Vec<u32> {
        self.cut_pairs()
            .into_iter()
            .flat_map(|(from, to)| [from, to])
            .collect()
    }

    /// Number of failed property checks so far.
    pub fn violation_count(&self) -> usize {
        self.sim.violations().len()
    }

    /// The failed property checks so far, as the summary reports them:
    /// objects with `at_ms`, `property`, `detail` and `nodes`.
    pub fn violations(&self) -> Result<JsValue, JsValue> {
        js::to_js(&self.violation_reports())
    }

    /// Stable hash of the trace so far, 16 hex digits: equal to the CLI's
    /// `trace_hash` for the same scenario at the same moment.
    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.sim.trace_hash())
    }

    /// The run summary so far (the `election run --json` object).
    pub fn summary(&mut self) -> Result<JsValue, JsValue> {
        js::to_js(&self.run_summary())
    }

    /// Number of nodes.
    pub fn node_count(&self) -> u32 {
        self.scenario().nodes
    }

    /// Every node as rows of `node_fields()` columns.
    pub fn nodes(&self) -> Vec<f64> {
        views::node_rows(&self.sim.node_views())
    }

    /// Every message on the wire as rows of `flight_fields()` columns.
    pub fn flights(&self) -> Vec<f64> {
        views::flight_rows(&self.sim.flights())
    }

    /// Number of messages on the wire.
    pub fn flight_count(&self) -> usize {
        self.sim.flight_count()
    }

    /// At most `max` messages on the wire, as rows of `flight_fields()`
    /// columns: all of them when they are that few, else a sample spread
    /// evenly over their ids (so a frame of a run with half a million in
    /// flight copies and walks a few thousand, not all).
    pub fn flights_sampled(&self, max: usize) -> Vec<f64> {
        views::flight_rows(&self.sim.flights_sample(max))
    }

    /// Number of trace events so far.
    pub fn event_count(&self) -> usize {
        self.sim.trace().len()
    }

    /// Log lines for trace events `from..to` (at most
    /// [`MAX_EVENTS_PER_CALL`], the latest of the range when it is longer):
    /// objects with `index`, `at_ms`, `text` (plain language) and `event`
    /// (the raw event, with its `type`).
    pub fn events(&self, from: usize, to: usize) -> Result<JsValue, JsValue> {
        let trace = self.sim.trace();
        let to = to.min(trace.len());
        let from = from.max(to.saturating_sub(MAX_EVENTS_PER_CALL)).min(to);
        let lines: Vec<LogLine<'_>> = trace[from..to]
            .iter()
            .enumerate()
            .map(|(i, e)| LogLine {
                index: from + i,
                at_ms: to_ms(e.at_us),
                text: e.event.describe(),
                event: &e.event,
            })
            .collect();
        js::to_js(&lines)
    }

    /// Log lines for every trace event from index `from` on (see
    /// [`Playground::events`]); the page keeps `event_count()` and asks
    /// for what is new.
    pub fn events_since(&self, from: usize) -> Result<JsValue, JsValue> {
        self.events(from, self.sim.trace().len())
    }

    /// Message kind names of the algorithm.
    pub fn kinds(&self) -> Vec<String> {
        self.sim.kinds().iter().map(|k| k.to_string()).collect()
    }

    /// Ring order: `ring()[i]` is the node at position `i` along the
    /// direction ring messages travel.
    pub fn ring(&self) -> Vec<u32> {
        self.sim.ring().to_vec()
    }

    /// `"ring"` or `"cluster"`, from the algorithm registry.
    pub fn layout(&self) -> String {
        match algorithms::info(&self.scenario().algorithm).map(|a| a.layout) {
            Some(Layout::Ring) => "ring".to_string(),
            _ => "cluster".to_string(),
        }
    }

    /// Algorithm id.
    pub fn algorithm(&self) -> String {
        self.scenario().algorithm.clone()
    }

    /// The seed, as text (seeds may exceed what a JS number holds exactly).
    pub fn seed(&self) -> String {
        self.scenario().seed.to_string()
    }

    /// Every field of one node, as `[name, value]` pairs.
    pub fn inspect(&self, node: u32) -> Result<JsValue, JsValue> {
        js::to_js(&self.sim.inspect(node))
    }

    /// The scenario (with injected faults) as canonical JSON text.
    pub fn scenario_json(&self) -> String {
        self.scenario().to_json_pretty()
    }

    /// The readable query string of the basic fields
    /// (`algorithm=..&nodes=..&seed=..&ring=..&start=..`).
    pub fn query_string(&self) -> String {
        election_core::scenario::query::to_query(self.scenario())
    }

    /// The share fragment: `s=1.<base64url(deflate(json))>`.
    pub fn share_fragment(&self) -> String {
        format!("s={}", election_core::share::encode(self.scenario()))
    }

    /// Adds a fault (JSON such as `{"crash": 3}` or `{"recover": 3}`,
    /// without `at_ms`) at the current time; see
    /// [`Playground::inject_fault`]. Throws an `Error` naming the field.
    pub fn inject(&mut self, fault_json: &str) -> Result<(), JsValue> {
        self.inject_fault(fault_json)
            .map_err(|e| js::scenario_error(&e))
    }

    /// Number of faults in the scenario (scheduled and injected).
    pub fn fault_count(&self) -> usize {
        self.scenario().faults.len()
    }

    /// Runs to right after the next role change, change of leaders or
    /// violation before the horizon, and names it: `"role"`, `"leaders"`
    /// or `"violation"`; `undefined` when none came (see
    /// [`Playground::next_landmark_us`]).
    pub fn next_landmark(&mut self) -> Option<String> {
        self.next_landmark_us().map(|l| l.name().to_string())
    }

    /// The latest simulated time this history has reached, ms: acting
    /// before it forks the history.
    pub fn reached_ms(&self) -> f64 {
        to_ms(self.reached_us())
    }

    /// Live faults after the current time: the ones a fault made now
    /// would drop (see [`Playground::inject_fault`]).
    pub fn live_faults_ahead(&self) -> usize {
        let now = self.sim.now_us();
        self.scenario().faults[self.base_faults.min(self.scenario().faults.len())..]
            .iter()
            .filter(|f| f.at_us > now)
            .count()
    }

    /// If the last injected fault forked the history: an object with
    /// `at_ms` (where) and `dropped` (the later live faults it dropped, as
    /// scenario fault objects); else `undefined`.
    pub fn last_fork(&self) -> Result<JsValue, JsValue> {
        match &self.last_fork {
            Some(fork) => js::to_js(fork),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Number of checkpoints kept for seeking.
    pub fn checkpoint_count(&self) -> usize {
        self.timeline.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::scenario::{Fault, FaultAction, Target};
    use election_core::sim;

    fn scenario(text: &str) -> Scenario {
        Scenario::from_json(text).unwrap()
    }

    #[test]
    fn times_from_js_round_to_the_microsecond() {
        assert_eq!(ms_to_us(1234.5678), 1_234_568);
        assert_eq!(ms_to_us(-3.0), 0);
        assert_eq!(ms_to_us(f64::NAN), 0);
        assert_eq!(ms_to_us(f64::INFINITY), MAX_TIME_US);
    }

    #[test]
    fn seeking_stops_at_the_horizon() {
        let mut p = Playground::from_scenario(&scenario(r#"{"nodes":4,"until_ms":2000}"#));
        p.seek_ms(1e23);
        assert_eq!(p.now_us(), 2_000_000);
        let mut q = Playground::from_scenario(&scenario(r#"{"nodes":4}"#));
        q.seek_ms(86_400_000.0);
        assert_eq!(q.now_us(), DEFAULT_RUN_LIMIT_US);
    }

    #[test]
    fn a_live_fault_is_the_same_as_a_scheduled_one() {
        let base = scenario(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
        let mut p = Playground::from_scenario(&base);
        p.seek_us(12_345);
        p.inject_fault(r#"{"crash": 5}"#).unwrap();
        assert_eq!(p.now_us(), 12_345);
        assert_eq!(
            p.scenario().faults,
            vec![Fault {
                at_us: 12_345,
                action: FaultAction::Crash(Target::Node(5)),
            }]
        );
        // The fractional time survives the share link's JSON.
        let again = election_core::share::decode(&election_core::share::encode(p.scenario()));
        assert_eq!(&again.unwrap(), p.scenario());
        // And the run it describes ends as the CLI's would.
        let summary = sim::run(p.scenario());
        let end = p.sim.run_to_end();
        assert_eq!(p.sim.summary(), summary);
        assert_eq!(to_ms(end), summary.end_ms);
        assert_ne!(summary.leader, Some(5));
    }

    #[test]
    fn bad_faults_name_the_field_and_change_nothing() {
        let mut p = Playground::from_scenario(&scenario(r#"{"nodes":4}"#));
        p.seek_us(5_000);
        let err = p.inject_fault(r#"{"crash": 9}"#).unwrap_err();
        assert!(err.field.starts_with("faults[0]"), "{err}");
        assert_eq!(p.inject_fault("[1]").unwrap_err().field, "fault");
        assert_eq!(
            p.inject_fault(r#"{"at_ms": 1, "crash": 1}"#)
                .unwrap_err()
                .field,
            "fault.at_ms"
        );
        assert!(p.scenario().faults.is_empty());
        assert_eq!(p.now_us(), 5_000);
    }

    #[test]
    fn cuts_come_from_the_engine_and_heal_clears_them() {
        let mut p = Playground::from_scenario(&scenario(r#"{"algorithm":"bully","nodes":5}"#));
        p.seek_us(2_000);
        p.inject_fault(r#"{"cut": [4, 1]}"#).unwrap();
        p.inject_fault(r#"{"cut": [0, 2]}"#).unwrap();
        assert_eq!(p.cut_pairs(), vec![(0, 2), (4, 1)]);
        p.seek_us(3_000);
        p.inject_fault(r#"{"uncut": [0, 2]}"#).unwrap();
        assert_eq!(p.cut_pairs(), vec![(4, 1)]);
        // Before the cuts were made there were none.
        p.seek_us(1_000);
        assert!(p.cut_pairs().is_empty());
        p.seek_us(4_000);
        assert_eq!(p.cut_pairs(), vec![(4, 1)]);
        p.inject_fault(r#"{"heal": true}"#).unwrap();
        assert!(p.cut_pairs().is_empty());
    }

    #[test]
    fn a_partitioned_bully_cluster_reports_split_brain() {
        let mut p =
            Playground::from_scenario(&scenario(r#"{"algorithm":"bully","nodes":6,"seed":3}"#));
        p.run_to_end();
        assert_eq!(p.sim.leaders(), &[5]);
        p.inject_fault(r#"{"partition": [[0, 1, 2]]}"#).unwrap();
        p.seek_us(p.now_us() + 3_000_000);
        assert_eq!(p.sim.leaders(), &[2, 5]);
        let reports = p.violation_reports();
        assert_eq!(reports.len(), 1, "{reports:?}");
        assert_eq!(reports[0].property, "split_brain");
        p.inject_fault(r#"{"heal": true}"#).unwrap();
        p.seek_us(p.now_us() + 3_000_000);
        assert_eq!(p.sim.leaders(), &[5]);
    }

    #[test]
    fn a_bad_network_value_names_the_field() {
        let mut p = Playground::from_scenario(&scenario(r#"{"nodes":4}"#));
        p.seek_us(1_000);
        let err = p
            .inject_fault(r#"{"network": {"latency_ms": [5, 10], "drop": 2, "duplicate": 0}}"#)
            .unwrap_err();
        assert_eq!(err.field, "faults[0].network.drop", "{err}");
        assert!(p.scenario().faults.is_empty());
    }

    #[test]
    fn seeking_back_replays_the_same_run() {
        let s = scenario(r#"{"algorithm":"chang-roberts","nodes":8,"ring":"random"}"#);
        let mut p = Playground::from_scenario(&s);
        p.seek_us(20_000);
        let at_20 = (p.sim.metrics().sent, p.sim.trace().len(), p.nodes());
        p.seek_us(60_000);
        p.seek_us(20_000);
        assert_eq!(
            (p.sim.metrics().sent, p.sim.trace().len(), p.nodes()),
            at_20
        );
    }

    #[test]
    fn a_flight_sample_is_spread_over_the_ids() {
        // 40 Bully nodes all starting: 780 ELECTION messages on the wire
        // (each to every higher id) and 39 more.
        let s = scenario(r#"{"algorithm":"bully","nodes":40,"seed":1,"start":"all"}"#);
        let mut p = Playground::from_scenario(&s);
        p.seek_us(1);
        assert_eq!(p.flight_count(), 819);
        let all = p.flights();
        assert_eq!(p.flights_sampled(5000), all);
        let w = views::FLIGHT_FIELDS.len();
        let ids = |rows: &[f64]| rows.chunks(w).map(|r| r[0] as u64).collect::<Vec<_>>();
        let every = ids(&all);
        let sample = ids(&p.flights_sampled(200));
        // 200 distinct messages in id order, the first one included, each
        // the first at or after one of 200 evenly spaced ids.
        assert_eq!(sample.len(), 200);
        assert!(sample.windows(2).all(|ab| ab[0] < ab[1]));
        assert_eq!(sample[0], every[0]);
        let (first, span) = (every[0], every[818] - every[0] + 1);
        for (i, id) in sample.iter().enumerate() {
            let mark = first + span * i as u64 / 200;
            let expected = *every.iter().find(|&&x| x >= mark).unwrap();
            assert!(*id >= expected, "{i}: {id} before {expected}");
        }
    }

    #[test]
    fn end_matches_the_cli_run() {
        let s = scenario(r#"{"algorithm":"chang-roberts","nodes":8,"seed":3,"ring":"descending"}"#);
        let mut p = Playground::from_scenario(&s);
        let expected = sim::run(&s);
        assert_eq!(to_ms(p.end_us()), expected.end_ms);
        assert_eq!(p.now_us(), 0, "end_us must not move the playground");
        assert_eq!(p.run_to_end(), expected.end_ms);
        assert_eq!(p.sim.metrics().sent, expected.messages.sent);
        assert_eq!(p.sim.summary().leader, expected.leader);
    }

    #[test]
    fn an_end_sought_in_pieces_is_the_cli_end() {
        // A burst, a pause that unsettles the cluster once it seemed
        // settled, a fixed end, and a run that needs one piece only.
        for json in [
            r#"{"algorithm":"bully","nodes":40,"seed":1,"start":"all"}"#,
            r#"{"algorithm":"raft","nodes":5,"seed":2,"faults":[{"at_ms":400,"pause":0,"for_ms":900}]}"#,
            r#"{"algorithm":"chang-roberts","nodes":8,"until_ms":700}"#,
            r#"{"algorithm":"lelann","nodes":3}"#,
        ] {
            let s = scenario(json);
            let expected = sim::run(&s).end_ms;
            for piece in [1, 7, 1000] {
                let mut p = Playground::from_scenario(&s);
                let known = s.until_us.map(to_ms);
                assert_eq!(p.end_ms_within(0), known, "{json}: a read of what is known");
                assert!(p.end_run.is_none(), "{json}: a read makes no side run");
                let mut calls = 0;
                let end = loop {
                    calls += 1;
                    if let Some(end) = p.end_ms_within(piece) {
                        break end;
                    }
                };
                assert_eq!(end, expected, "{json} in pieces of {piece} events");
                assert_eq!(p.end_ms_within(piece), Some(expected), "cached: {json}");
                assert!(p.end_run.is_none(), "the side run is dropped once done");
                assert_eq!(
                    p.now_us(),
                    0,
                    "seeking the end must not move the playground"
                );
                if piece == 1 && s.until_us.is_none() {
                    assert!(calls > 10, "{json}: one event per piece took {calls} calls");
                }
            }
        }
    }

    #[test]
    fn a_live_fault_restarts_the_search_for_the_end() {
        let s = scenario(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
        let mut p = Playground::from_scenario(&s);
        assert_eq!(p.end_ms_within(3), None, "not found in three events");
        p.inject_fault(r#"{"crash":5}"#).unwrap();
        let mut with_crash = s.clone();
        with_crash.faults = p.scenario().faults.clone();
        let expected = sim::run(&with_crash).end_ms;
        assert_eq!(
            p.end_ms(),
            expected,
            "the end of the history with the crash"
        );
    }
}
