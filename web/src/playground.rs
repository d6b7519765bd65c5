//! [`Playground`]: the opaque handle the page holds, one
//! [`Session`] of one scenario (a recording simulation with its history:
//! checkpoints, live faults, forks, the search for the run's end, all in
//! the core). This file only converts: milliseconds from JS to
//! microseconds, results to JS values, errors to JS `Error`s.

use crate::story::StoryCache;
use crate::{js, url, views};
use election_core::ScenarioExt;
use election_core::algorithms::{self, Layout};
use election_core::scenario::MAX_TIME_US;
use election_core::session::{LandmarkSearch, Session};
use election_core::sim::{Simulation, ViolationReport};
use election_core::time::{Micros, to_ms};
use election_core::trace::Event;
use election_core::{Scenario, ScenarioError};
use serde::Serialize;
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

/// A recording simulation of one scenario, driven by the page.
#[wasm_bindgen]
pub struct Playground {
    session: Session,
    /// Counts the changes of the scenario (each live fault), so that what
    /// is computed from the whole scenario is computed once per revision.
    revision: u64,
    /// The story of the scenario's last revision told (web/src/story.rs).
    story: StoryCache,
}

/// The Rust side: usable natively (tests) as well as from wasm.
impl Playground {
    /// A playground at time 0 of a validated scenario.
    ///
    /// # Panics
    /// When this build does not run the scenario's algorithm (a player
    /// module of another family); [`Playground::open`] checks first.
    pub fn from_scenario(scenario: &Scenario) -> Self {
        Self {
            session: Session::new(scenario),
            revision: 0,
            story: StoryCache::default(),
        }
    }

    /// A playground at time 0 of a validated scenario, or the error
    /// (field `algorithm`, with `needs`) of a build whose family does not
    /// include its algorithm: what every JS-facing constructor uses.
    pub fn open(scenario: &Scenario) -> Result<Self, ScenarioError> {
        algorithms::runnable(scenario)?;
        Ok(Self::from_scenario(scenario))
    }

    /// The session the page drives.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The run summary so far (the `election run --json` object).
    pub fn run_summary(&mut self) -> election_core::sim::RunSummary {
        self.session.summary()
    }

    /// The scenario, including every fault injected so far.
    pub fn scenario(&self) -> &Scenario {
        self.session.scenario()
    }

    /// The simulation, for reading.
    pub fn sim(&self) -> &dyn Simulation {
        self.session.sim()
    }

    /// Current time, microseconds.
    pub fn now_us(&self) -> Micros {
        self.session.now_us()
    }

    /// Goes to time `t` (see [`Session::seek`]).
    pub fn seek_us(&mut self, t: Micros) {
        self.session.seek(t);
    }

    /// Adds a live fault now (see [`Session::inject_fault`]).
    pub fn inject_fault(&mut self, fault_json: &str) -> Result<(), ScenarioError> {
        self.session.inject_fault(fault_json)?;
        self.revision += 1;
        Ok(())
    }

    /// The revision of the scenario: 0, plus one per live fault.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// One-way links cut right now, `(from, to)`, read from the engine's
    /// network (so a heal, which clears every cut, is already applied).
    pub fn cut_pairs(&self) -> Vec<(u32, u32)> {
        self.sim().cuts()
    }

    /// The failed property checks so far, in the summary's form.
    pub fn violation_reports(&self) -> Vec<ViolationReport> {
        self.sim()
            .violations()
            .iter()
            .map(ViolationReport::from)
            .collect()
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
            .and_then(|s| Self::open(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// A playground for a page URL: `query` is `location.search`
    /// (`?algorithm=bully&nodes=8`), `fragment` is `location.hash`; an
    /// `s=` share link in the fragment wins over the query. Parameters
    /// that are not scenario fields (`at`) are ignored.
    pub fn from_url(query: &str, fragment: &str) -> Result<Playground, JsValue> {
        url::scenario_from_url(query, fragment)
            .and_then(|s| Self::open(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// A new playground at time 0 with the settings in `query` (same
    /// parameters as a URL) applied to this scenario; injected faults are
    /// dropped, network and timing kept.
    pub fn with_settings(&self, query: &str) -> Result<Playground, JsValue> {
        url::apply_settings(self.scenario(), query)
            .and_then(|s| Self::open(&s))
            .map_err(|e| js::scenario_error(&e))
    }

    /// The scenario [`Playground::with_settings`] would run, as JSON
    /// text, without building it: the page builds it in the wasm module
    /// that runs its algorithm (another family's, when the settings change
    /// the algorithm). Throws the same errors.
    pub fn settings_json(&self, query: &str) -> Result<String, JsValue> {
        url::apply_settings(self.scenario(), query)
            .map(|s| s.to_json().to_string())
            .map_err(|e| js::scenario_error(&e))
    }

    /// Current simulated time, ms.
    pub fn now_ms(&self) -> f64 {
        to_ms(self.sim().now_us())
    }

    /// Time of the next event in the queue, ms, or `undefined` when
    /// nothing is left: messages, timers and faults, but also the entries
    /// of timers cancelled or pushed back, where nothing happens (see
    /// [`Playground::next_activity_ms`]).
    pub fn next_event_ms(&self) -> Option<f64> {
        self.sim().next_time_us().map(to_ms)
    }

    /// Time of the next event that happens, ms, or `undefined` when
    /// nothing will: unlike [`Playground::next_event_ms`] it skips the
    /// queue's bookkeeping (the entry of a cancelled timer, or the early
    /// entry of a timer pushed back), so a timer counts when it really
    /// fires, as in the node rows' `timer_fire_ms`. For skipping quiet
    /// time; changes nothing (see `Engine::next_activity`).
    pub fn next_activity_ms(&self) -> Option<f64> {
        self.sim().next_activity_us().map(to_ms)
    }

    /// Processes one event; `false` when none is left.
    pub fn step(&mut self) -> bool {
        self.session.step()
    }

    /// Processes every event up to and including `t_ms` (forward only;
    /// see [`Playground::seek_ms`]).
    pub fn run_until_ms(&mut self, t_ms: f64) {
        self.session.run_until(ms_to_us(t_ms));
    }

    /// Runs toward `t_ms` (forward only) but stops after about
    /// `max_events` of work (events and the messages they sent), so the
    /// page can spread a crowded stretch over
    /// frames; the events are those of one [`Playground::run_until_ms`].
    /// Returns whether `t_ms` was reached.
    pub fn run_until_ms_within(&mut self, t_ms: f64, max_events: u32) -> bool {
        self.session
            .run_until_within(ms_to_us(t_ms), u64::from(max_events))
    }

    /// Goes to `t_ms`, backward too (from the nearest checkpoint).
    pub fn seek_ms(&mut self, t_ms: f64) {
        self.seek_us(ms_to_us(t_ms));
    }

    /// Runs to the end of the run exactly as `election run` does and
    /// returns that time, ms.
    pub fn run_to_end(&mut self) -> f64 {
        to_ms(self.session.run_to_end())
    }

    /// The end `election run` reports for this scenario, ms, without
    /// moving this playground (computed once on a side run).
    pub fn end_ms(&mut self) -> f64 {
        to_ms(self.session.end_us())
    }

    /// The same, sought in pieces: runs about `max_events` more events
    /// of the side run and returns the end once found, `undefined`
    /// before (see [`Session::end_us_within`]).
    pub fn end_ms_within(&mut self, max_events: u32) -> Option<f64> {
        self.session.end_us_within(u64::from(max_events)).map(to_ms)
    }

    /// `until_ms` if the scenario sets it, else the core's run limit, ms.
    pub fn horizon_ms(&self) -> f64 {
        to_ms(self.session.horizon_us())
    }

    /// Messages sent so far (dropped ones included).
    pub fn messages_sent(&self) -> f64 {
        self.sim().metrics().sent as f64
    }

    /// Messages sent so far by kind, aligned with [`Playground::kinds`].
    pub fn sent_by_kind(&self) -> Vec<f64> {
        self.sim()
            .metrics()
            .by_kind
            .iter()
            .map(|&c| c as f64)
            .collect()
    }

    /// The one live leader (the summary's `leader`), or `undefined` when
    /// no node or several nodes lead.
    pub fn leader(&self) -> Option<u32> {
        match self.sim().leaders() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Every live leader, ascending: one normally, several during split
    /// brain (the summary's `leaders`).
    pub fn leaders(&self) -> Vec<u32> {
        self.sim().leaders().to_vec()
    }

    /// Messages lost so far (by the network, a partition, a cut link or a
    /// receiver that is down).
    pub fn messages_dropped(&self) -> f64 {
        self.sim().metrics().dropped as f64
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
        self.sim().violations().len()
    }

    /// The failed property checks so far, as the summary reports them:
    /// objects with `at_ms`, `property`, `detail` and `nodes`.
    pub fn violations(&self) -> Result<JsValue, JsValue> {
        js::to_js(&self.violation_reports())
    }

    /// The limit that stopped the run (core/engine/src/limits.rs): an
    /// object with `limit`, `value`, `at_ms` and `message` (the summary's
    /// `stopped_by`), or `null`. Nothing happens after it: the clock stays
    /// at `at_ms` and `next_event_ms()` is `undefined`.
    pub fn stopped_by(&self) -> Result<JsValue, JsValue> {
        js::to_js(&self.sim().stopped_by())
    }

    /// The limit that stops the run at its end, as [`Playground::stopped_by`]
    /// has it once the run stands there, known as soon as the end is
    /// (`end_ms_within`; this does not look for it), or `null`.
    pub fn end_stopped_by(&self) -> Result<JsValue, JsValue> {
        js::to_js(&self.session.end_stop())
    }

    /// Stable hash of the trace so far, 16 hex digits: equal to the CLI's
    /// `trace_hash` for the same scenario at the same moment.
    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.sim().trace_hash())
    }

    /// The run summary so far (the `election run --json` object).
    pub fn summary(&mut self) -> Result<JsValue, JsValue> {
        // JSON text: 3.5 us against 3.9 through serde-wasm-bindgen (+11%;
        // docs/PERFORMANCE.md, Size, Across the boundary).
        js::to_js_by_text(&self.run_summary())
    }

    /// Number of nodes.
    pub fn node_count(&self) -> u32 {
        self.scenario().nodes
    }

    /// Every node as rows of `node_fields()` columns.
    pub fn nodes(&self) -> Vec<f64> {
        views::node_rows(&self.sim().node_views())
    }

    /// Every message on the wire as rows of `flight_fields()` columns.
    pub fn flights(&self) -> Vec<f64> {
        views::flight_rows(&self.sim().flights())
    }

    /// Number of messages on the wire.
    pub fn flight_count(&self) -> usize {
        self.sim().flight_count()
    }

    /// At most `max` messages on the wire, as rows of `flight_fields()`
    /// columns: all of them when they are that few, else a sample spread
    /// evenly over their ids (so a frame of a run with half a million in
    /// flight copies and walks a few thousand, not all).
    pub fn flights_sampled(&self, max: usize) -> Vec<f64> {
        views::flight_rows(&self.sim().flights_sample(max))
    }

    /// Number of trace events so far.
    pub fn event_count(&self) -> usize {
        self.sim().trace().len()
    }

    /// Log lines for trace events `from..to` (at most
    /// [`MAX_EVENTS_PER_CALL`], the latest of the range when it is longer):
    /// objects with `index`, `at_ms`, `text` (plain language) and `event`
    /// (the raw event, with its `type`).
    pub fn events(&self, from: usize, to: usize) -> Result<JsValue, JsValue> {
        let trace = self.sim().trace();
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
        // JSON text: 182 us for 200 lines against 211 through
        // serde-wasm-bindgen (+16%; docs/PERFORMANCE.md, Size, Across the
        // boundary).
        js::to_js_by_text(&lines)
    }

    /// Log lines for every trace event from index `from` on (see
    /// [`Playground::events`]); the page keeps `event_count()` and asks
    /// for what is new.
    pub fn events_since(&self, from: usize) -> Result<JsValue, JsValue> {
        self.events(from, self.sim().trace().len())
    }

    /// Message kind names of the run, by kind index (the flights' and
    /// trace rows' `kind` column): the algorithm's list, or a script's
    /// kinds in the order the run first sent them (the list grows as the
    /// run goes on).
    pub fn kinds(&self) -> Vec<String> {
        self.sim().kinds().iter().map(|k| k.to_string()).collect()
    }

    /// Ring order: `ring()[i]` is the node at position `i` along the
    /// direction ring messages travel.
    pub fn ring(&self) -> Vec<u32> {
        self.sim().ring().to_vec()
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
        // JSON text: 2.4 us against 3.2 through serde-wasm-bindgen (+33%;
        // docs/PERFORMANCE.md, Size, Across the boundary).
        js::to_js_by_text(&self.sim().inspect(node))
    }

    /// The scenario (with injected faults) as canonical JSON text.
    ///
    /// Text, which the page parses where it reads fields: `JSON.parse` of
    /// it took 6.4 us a call, an object through serde-wasm-bindgen 10.0
    /// (+56%; docs/PERFORMANCE.md, Size, Across the boundary).
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
    /// [`Session::next_landmark`]).
    pub fn next_landmark(&mut self) -> Option<String> {
        self.session.next_landmark().map(|l| l.name().to_string())
    }

    /// [`Playground::next_landmark`] in pieces of at most `max_events`
    /// events, for the page to search between its frames: the
    /// landmark's name once found, `""` when none came within these
    /// events (call again), `undefined` when there is none before the
    /// horizon (see [`Session::next_landmark_within`]).
    pub fn next_landmark_within(&mut self, max_events: u32) -> Option<String> {
        match self.session.next_landmark_within(u64::from(max_events)) {
            LandmarkSearch::Found(l) => Some(l.name().to_string()),
            LandmarkSearch::NotYet => Some(String::new()),
            LandmarkSearch::None => None,
        }
    }

    /// The latest simulated time this history has reached, ms: acting
    /// before it forks the history.
    pub fn reached_ms(&self) -> f64 {
        to_ms(self.session.reached_us())
    }

    /// Live faults after the current time: the ones a fault made now
    /// would drop (see [`Session::inject_fault`]).
    pub fn live_faults_ahead(&self) -> usize {
        self.session.live_faults_ahead()
    }

    /// If the last injected fault forked the history: an object with
    /// `at_ms` (where) and `dropped` (the later live faults it dropped, as
    /// scenario fault objects); else `undefined`.
    pub fn last_fork(&self) -> Result<JsValue, JsValue> {
        match self.session.fork() {
            Some(fork) => js::to_js(fork),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Number of checkpoints kept for seeking.
    pub fn checkpoint_count(&self) -> usize {
        self.session.timeline().len()
    }

    /// The story of the current scenario (live faults included) as JSON
    /// text: `{"captions": [{"at_ms", "text"}], "moments_ms": [...],
    /// "questions": [{"at_ms", "kind", "text", "choices", "answer",
    /// "why"}]}` (`election_core::story`). One recorded run to the end,
    /// on the first call after the scenario changed (web/src/story.rs).
    pub fn story_json(&mut self) -> String {
        self.story.json(self.session.scenario(), self.revision)
    }

    /// Whether the story of the current scenario is told, after about
    /// `max_events` more events of its recording (the page makes it in
    /// pieces between frames; with 0 it only reads what is known). Until
    /// then the page shows no captions and skips quiet time without it.
    pub fn story_ready_within(&mut self, max_events: u32) -> bool {
        self.story.ready_within(
            self.session.scenario(),
            self.revision,
            u64::from(max_events),
        )
    }

    /// The first of the story's `moments_ms` strictly after `now_ms()`;
    /// `undefined` when none is left. Between now and then only
    /// background traffic (heartbeats, lease renewals) and timer arcs
    /// change.
    pub fn next_story_ms(&mut self) -> Option<f64> {
        let now = self.now_ms();
        self.story
            .next_ms(self.session.scenario(), self.revision, now)
    }

    /// The question of `kind` (`leader`, `election_messages`,
    /// `first_mover`, `time_to_leader`, `split_brain`) at `at_ms` as JSON
    /// text (an object with `at_ms`, `kind`, `text`, `choices`, `answer`,
    /// `why`), or `"null"` when no election follows `at_ms` before the
    /// next decisive moment. Throws an `Error` whose `field` is `kind` for
    /// an unknown kind.
    pub fn question_json(&mut self, at_ms: f64, kind: &str) -> Result<String, JsValue> {
        self.story
            .question_json(self.session.scenario(), self.revision, at_ms, kind)
            .map_err(|message| js::error(&message, "kind"))
    }
}

/// What only the modules that run scripts have (feature `lab`: the lab
/// and tools modules; the player modules run no scripts).
#[cfg(feature = "lab")]
#[wasm_bindgen]
impl Playground {
    /// The script error that stopped a scripted run (an object with
    /// `node`, `handler`, `line`, `column`, `at_ms`, `message`; also the
    /// summary's `script_error`), or `null`. Nothing happens after it:
    /// the run's clock stays at `at_ms`.
    pub fn script_error(&self) -> Result<JsValue, JsValue> {
        js::to_js(&self.sim().script_error())
    }

    /// The script error that will stop this scripted run (the same
    /// object), `null` when none does, wherever the playground is now:
    /// found with the run's end, on a side run if the end is not known
    /// yet (then this call runs it: the lab asks at Run, so a
    /// deterministic error is said before playback reaches it).
    pub fn script_error_ahead(&mut self) -> Result<JsValue, JsValue> {
        js::to_js(&self.session.script_error_ahead())
    }
}

#[cfg(test)]
mod tests {
    //! Conversion only: milliseconds in and out, the shapes the page
    //! reads. What the session does (seeking, landmarks, live faults,
    //! forks, the end) is tested natively in core (`core/tests/session`).
    use super::*;
    use election_core::ScenarioExt;

    fn playground(text: &str) -> Playground {
        Playground::from_scenario(&Scenario::from_json(text).unwrap())
    }

    #[test]
    fn times_from_js_round_to_the_microsecond() {
        assert_eq!(ms_to_us(1234.5678), 1_234_568);
        assert_eq!(ms_to_us(-3.0), 0);
        assert_eq!(ms_to_us(f64::NAN), 0);
        assert_eq!(ms_to_us(f64::INFINITY), MAX_TIME_US);
    }

    #[test]
    fn times_go_back_to_js_in_ms() {
        let mut p = playground(r#"{"nodes":4,"until_ms":2000.5}"#);
        assert_eq!(p.horizon_ms(), 2000.5);
        assert_eq!(p.end_ms_within(0), Some(2000.5));
        // A far time from an address stops at the horizon.
        p.seek_ms(1e23);
        assert_eq!((p.now_ms(), p.reached_ms()), (2000.5, 2000.5));
        p.seek_ms(1.2345);
        assert_eq!(p.now_ms(), 1.235, "rounded to the microsecond");
        let mut q = playground(r#"{"algorithm":"lelann","nodes":3}"#);
        assert_eq!(q.end_ms_within(0), None, "unknown until sought");
        assert_eq!(
            q.end_ms(),
            sim_end_ms(r#"{"algorithm":"lelann","nodes":3}"#)
        );
    }

    fn sim_end_ms(text: &str) -> f64 {
        election_core::sim::run(&Scenario::from_json(text).unwrap()).end_ms
    }

    #[test]
    fn a_fork_reaches_js_as_at_ms_and_the_dropped_faults() {
        let mut p = playground(r#"{"algorithm":"bully","nodes":6,"seed":3}"#);
        p.seek_ms(3000.0);
        p.inject_fault(r#"{"crash": 5}"#).unwrap();
        p.seek_ms(1000.25);
        assert_eq!(p.live_faults_ahead(), 1);
        p.inject_fault(r#"{"crash": 4}"#).unwrap();
        let fork = p.session().fork().expect("forked");
        assert_eq!(
            serde_json::to_value(fork).unwrap(),
            serde_json::json!({"at_ms": 1000.25, "dropped": [{"at_ms": 3000, "crash": 5}]})
        );
        assert_eq!(p.fault_count(), 1);
        assert!(p.checkpoint_count() >= 1);
    }

    #[test]
    fn node_rows_after_a_seek_back_are_those_of_a_straight_run() {
        // Checkpoints carry the timers' arming times: going back to a
        // moment from a checkpoint shows the same rows, timer columns
        // included, as running straight there (a pause, a clock fault and
        // a leader crash on the way).
        let text = r#"{"algorithm":"raft","nodes":5,"seed":7,
            "faults":[{"at_ms":800,"pause":1,"for_ms":400},
                      {"at_ms":900,"clock":2,"offset_ms":5,"drift":0.05},
                      {"at_ms":1500,"crash":"leader"}],
            "until_ms":4000}"#;
        let mut p = playground(text);
        p.seek_ms(4000.0);
        assert!(p.checkpoint_count() > 2);
        let w = views::NODE_FIELDS.len();
        let fire = views::NODE_FIELDS
            .iter()
            .position(|f| *f == "timer_fire_ms")
            .unwrap();
        for t in [3999.5, 1000.0, 1234.567, 0.0, 2500.25, 1500.0, 3000.0] {
            p.seek_ms(t);
            let mut straight = playground(text);
            straight.run_until_ms(t);
            assert_eq!(p.nodes(), straight.nodes(), "at {t} ms");
            let rows = p.nodes();
            assert_eq!(rows.len(), 6 * w, "5 servers and the resource");
            if t > 0.0 {
                // Every live server has a timer, due no earlier than now.
                let armed = rows.chunks(w).filter(|r| r[fire] >= t).count();
                assert!(armed >= 4, "at {t} ms: {armed}");
            }
            assert_eq!(
                p.next_activity_ms(),
                straight.next_activity_ms(),
                "at {t} ms"
            );
        }
    }

    #[test]
    fn the_story_follows_the_live_faults() {
        let mut p = playground(r#"{"algorithm":"bully","nodes":5,"seed":1}"#);
        let before = p.story_json();
        let leader = p.question_json(0.0, "leader").unwrap();
        assert!(leader.contains(r#""answer":"n4""#), "{leader}");
        p.seek_ms(500.0);
        assert_eq!(p.next_story_ms(), None, "settled: only heartbeats ahead");
        p.inject_fault(r#"{"crash": 4}"#).unwrap();
        assert_eq!(p.revision(), 1);
        let after = p.story_json();
        assert_ne!(before, after);
        assert!(after.contains("n4, the leader, has crashed."), "{after}");
        assert!(p.next_story_ms().is_some_and(|t| t > 500.0));
    }

    #[test]
    fn cuts_cross_as_flat_pairs() {
        let mut p = playground(r#"{"algorithm":"bully","nodes":5}"#);
        p.seek_ms(2.0);
        p.inject_fault(r#"{"cut": [4, 1]}"#).unwrap();
        p.inject_fault(r#"{"cut": [0, 2]}"#).unwrap();
        assert_eq!(p.cuts(), vec![0, 2, 4, 1]);
    }

    #[test]
    fn a_flight_sample_is_spread_over_the_ids() {
        // 40 Bully nodes all starting: 780 ELECTION messages on the wire
        // (each to every higher id) and 39 more.
        let mut p = playground(r#"{"algorithm":"bully","nodes":40,"seed":1,"start":"all"}"#);
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
}
