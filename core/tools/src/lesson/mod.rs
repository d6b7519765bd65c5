//! Lessons: a scenario plus narrated steps, the format teachers write
//! (docs/lessons.md is the user's guide; this is its one parser, writer
//! and validator, shared by `election lesson`, the page and the presets).
//!
//! ```json
//! { "lesson": 1, "title": "Bully: crash the leader", "summary": "optional",
//!   "scenario": { "algorithm": "bully", "nodes": 5 },
//!   "steps": [ { "at_ms": 0, "text": "Everyone starts.", "question": { "kind": "leader" } },
//!              { "at_ms": 1000, "text": "The leader crashes.", "fault": { "crash": 4 },
//!                "view": "spacetime" } ] }
//! ```
//!
//! - `lesson`: the format version, always 1 ([`VERSION`]).
//! - `title` (text, 1 to [`MAX_TITLE_CHARS`] characters), `summary`
//!   (optional text, at most [`MAX_SUMMARY_CHARS`]).
//! - `predict` (optional, `true` or `false`, default `false`): the page
//!   opens the lesson with Predict on (as `predict=1` in the address), so
//!   each question is asked before the run shows its answer.
//! - `scenario`: a scenario object exactly as in a scenario file, read by
//!   the one scenario parser; its errors are this module's with the field
//!   prefixed `scenario.` (`scenario.nodes`, `scenario.faults[0].crash`).
//! - `steps`: 1 to [`MAX_STEPS`] steps in time order (equal times allowed,
//!   kept in list order). A step has `at_ms` (from 0 to the scenario's
//!   horizon: its `until_ms`, or the run limit of 60 s without one),
//!   `text` (the narration, at most [`MAX_TEXT_CHARS`]; may be empty, as
//!   in a lesson just made from a run), and optionally:
//!   - `question`: `{"kind": K}` with K one of the story's question kinds
//!     ([`QuestionKind`]'s names: `leader`, `election_messages`,
//!     `first_mover`, `time_to_leader`, `split_brain`), asked at the
//!     step's moment; its choices and answer are the run's own
//!     ([`crate::story::question_at`]);
//!   - `fault`: one entry of a scenario's `faults` without `at_ms`
//!     (`{"crash": 4}`, `{"partition": [[0, 1], [2, 3, 4]]}`, `{"heal":
//!     true}`, ...): it happens at the step's `at_ms`;
//!   - `view`: which view of the page to bring into sight, one of
//!     [`View::ALL`]'s names (`cluster`, `spacetime`, `log`, `now`,
//!     `metrics`, `node`).
//!
//! Every object is read strictly: an unknown field is an error naming it,
//! so a typo never passes silently. A bad lesson gets one [`LessonError`]
//! naming the dotted field (`steps[2].question.kind`, `steps[0].at_ms`,
//! `scenario.nodes`), never a panic.
//!
//! [`Lesson::scenario`] is what runs: the scenario with each step's fault
//! appended at the step's time (after the scenario's own faults, in step
//! order; the engine applies faults in time order, ties in list order).
//! [`from_run`] is the reverse, for the page's "Make a lesson from this
//! run": a step at 0 and one step per fault, the fault moved into it.
//!
//! Links: `#l=1.<base64url(deflate(json))>`, the codec and the limits of
//! the scenario's `#s=` links (`share::pack`, `share::unpack`;
//! [`MAX_LINK_CHARS`] characters, at most [`MAX_LESSON_BYTES`] inflated).
//! The report `election lesson run` prints is [`report()`].

pub mod report;

use crate::ScenarioExt;
use crate::scenario::fields::{Fields, describe, millis_value, printable};
use crate::scenario::{DEFAULT_RUN_LIMIT_US, Fault, MAX_FAULTS, Scenario, ScenarioError};
use crate::share::{MAX_LINK_CHARS, pack, unpack};
use crate::story::QuestionKind;
use crate::time::Micros;
use serde_json::{Map, Value, json};
use std::fmt;

pub use report::{LessonReport, NodeState, StepReport, StepState, report};

/// The only lesson format version so far (the `lesson` field).
pub const VERSION: u32 = 1;
/// Largest accepted lesson text (and inflated link), in bytes: a scenario
/// at its own limit (64 KiB) and as much again of narration.
pub const MAX_LESSON_BYTES: usize = 128 * 1024;
/// Most steps in one lesson.
pub const MAX_STEPS: usize = 200;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest summary, in characters.
pub const MAX_SUMMARY_CHARS: usize = 1000;
/// Longest narration of one step, in characters.
pub const MAX_TEXT_CHARS: usize = 2000;

/// The question kinds' names, for messages.
fn kind_names() -> String {
    let names: Vec<&str> = QuestionKind::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// A view of the page a step brings into sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The cluster drawing (nodes and messages).
    Cluster,
    /// The space-time diagram.
    Spacetime,
    /// The event log.
    Log,
    /// The side panel's Now tab: time, leader, messages, violations.
    Now,
    /// The side panel's Metrics tab.
    Metrics,
    /// The side panel's Node tab (the inspector).
    Node,
}

impl View {
    /// Every view, in the order docs/lessons.md lists them.
    pub const ALL: [View; 6] = [
        View::Cluster,
        View::Spacetime,
        View::Log,
        View::Now,
        View::Metrics,
        View::Node,
    ];

    /// Its name in a lesson file.
    pub fn name(self) -> &'static str {
        match self {
            View::Cluster => "cluster",
            View::Spacetime => "spacetime",
            View::Log => "log",
            View::Now => "now",
            View::Metrics => "metrics",
            View::Node => "node",
        }
    }

    /// The view called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The simulated moment the step is about, microseconds.
    pub at_us: Micros,
    /// The narration (may be empty).
    pub text: String,
    /// The question asked at this moment.
    pub question: Option<QuestionKind>,
    /// A fault that happens at `at_us` (its `at_us` is the step's).
    pub fault: Option<Fault>,
    /// The view to bring into sight.
    pub view: Option<View>,
}

/// A validated lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// Title.
    pub title: String,
    /// One optional sentence: what the lesson shows.
    pub summary: Option<String>,
    /// Open with Predict on (the page asks each question before the run
    /// answers it).
    pub predict: bool,
    /// The scenario, without the steps' faults.
    pub scenario: Scenario,
    /// The steps, in time order.
    pub steps: Vec<Step>,
}

/// A problem with a lesson, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonError {
    /// Dotted path of the field (`steps[2].question.kind`,
    /// `scenario.nodes`); empty for the lesson as a whole; `l` for a
    /// damaged link.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl LessonError {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }

    /// A scenario error inside the lesson's `scenario`, its field
    /// prefixed `scenario.`.
    fn in_scenario(e: ScenarioError) -> Self {
        let field = if e.field.is_empty() {
            "scenario".to_string()
        } else {
            format!("scenario.{}", e.field)
        };
        Self::new(field, e.message)
    }
}

impl From<ScenarioError> for LessonError {
    /// A scenario error about a field of the lesson itself (its path is
    /// already the lesson's).
    fn from(e: ScenarioError) -> Self {
        Self::new(e.field, e.message)
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "lesson: {}", self.message)
        } else {
            write!(f, "lesson field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for LessonError {}

/// Refuses a key of the object `value` (at `path`) that is not in
/// `known`, before any other check, so that a misspelt key is named as
/// such rather than as a missing one.
fn known_keys(value: &Value, path: &str, known: &[&str]) -> Result<(), LessonError> {
    if let Value::Object(map) = value {
        if let Some(key) = map.keys().find(|k| !known.contains(&k.as_str())) {
            let key = printable(key);
            let field = if path.is_empty() {
                key
            } else {
                format!("{path}.{key}")
            };
            return Err(LessonError::new(
                field,
                format!("unknown field (known fields here: {})", known.join(", ")),
            ));
        }
    }
    Ok(())
}

/// An optional text of at most `max` characters.
fn text_field(
    f: &mut Fields<'_>,
    key: &'static str,
    max: usize,
) -> Result<Option<String>, LessonError> {
    let Some(text) = f.text(key)? else {
        return Ok(None);
    };
    let chars = text.chars().count();
    if chars > max {
        return Err(f
            .error(
                key,
                format!("is {chars} characters long; the limit is {max}"),
            )
            .into());
    }
    Ok(Some(text.to_string()))
}

/// A time as a millisecond number, as the scenario writer writes one:
/// whole when it is whole.
fn ms_json(us: Micros) -> Value {
    if us % 1000 == 0 {
        json!(us / 1000)
    } else {
        json!(us as f64 / 1000.0)
    }
}

/// The millisecond form of a time, for messages: serde_json's number
/// writer, not `f64`'s `Display` (which would add its float formatting to
/// every player module; core/src/lib.rs, What the wasm's size forces).
fn ms_text(us: Micros) -> String {
    ms_json(us).to_string()
}

impl Lesson {
    /// Parses and validates lesson JSON text (at most
    /// [`MAX_LESSON_BYTES`]).
    pub fn from_json(text: &str) -> Result<Self, LessonError> {
        if text.len() > MAX_LESSON_BYTES {
            return Err(LessonError::new(
                "",
                format!(
                    "the lesson is {} bytes; the limit is {MAX_LESSON_BYTES} bytes",
                    text.len()
                ),
            ));
        }
        let value =
            crate::scenario::json_value(text).map_err(|e| LessonError::new(e.field, e.message))?;
        Self::from_value(&value)
    }

    /// Parses and validates a decoded lesson JSON value.
    pub fn from_value(value: &Value) -> Result<Self, LessonError> {
        known_keys(
            value,
            "",
            &["lesson", "title", "summary", "predict", "scenario", "steps"],
        )?;
        let mut f = Fields::new(value, "").map_err(|_| {
            LessonError::new("", format!("must be an object, got {}", describe(value)))
        })?;
        match f.get("lesson") {
            None => {
                return Err(LessonError::new(
                    "lesson",
                    "is required: the lesson format version, 1",
                ));
            }
            Some(v) if v.as_u64() == Some(u64::from(VERSION)) => {}
            Some(v) => {
                return Err(LessonError::new(
                    "lesson",
                    format!(
                        "this build reads lesson format {VERSION}, got {}",
                        describe(v)
                    ),
                ));
            }
        }
        let title = text_field(&mut f, "title", MAX_TITLE_CHARS)?
            .ok_or_else(|| LessonError::new("title", "is required (the lesson's title)"))?;
        if title.trim().is_empty() {
            return Err(LessonError::new("title", "must not be empty"));
        }
        let summary = text_field(&mut f, "summary", MAX_SUMMARY_CHARS)?;
        let predict = match f.get("predict") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(LessonError::new(
                    "predict",
                    format!("must be true or false, got {}", describe(other)),
                ));
            }
        };
        let scenario = match f.get("scenario") {
            None => {
                return Err(LessonError::new(
                    "scenario",
                    "is required (a scenario object, as in a scenario file)",
                ));
            }
            Some(v) => Scenario::from_value(v).map_err(LessonError::in_scenario)?,
        };
        let horizon = scenario.until_us.unwrap_or(DEFAULT_RUN_LIMIT_US);
        let items = match f.get("steps") {
            None => return Err(LessonError::new("steps", "is required (a list of steps)")),
            Some(Value::Array(items)) => items,
            Some(other) => {
                return Err(LessonError::new(
                    "steps",
                    format!("must be a list of steps, got {}", describe(other)),
                ));
            }
        };
        if items.is_empty() {
            return Err(LessonError::new("steps", "must list at least one step"));
        }
        if items.len() > MAX_STEPS {
            return Err(LessonError::new(
                "steps",
                format!("has {} steps; the limit is {MAX_STEPS}", items.len()),
            ));
        }
        let mut steps: Vec<Step> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let step = parse_step(item, &format!("steps[{i}]"), horizon)?;
            if let Some(before) = steps.last() {
                if step.at_us < before.at_us {
                    return Err(LessonError::new(
                        format!("steps[{i}].at_ms"),
                        format!(
                            "is {} ms, before the step above it ({} ms): steps are in time order",
                            ms_text(step.at_us),
                            ms_text(before.at_us)
                        ),
                    ));
                }
            }
            steps.push(step);
        }
        f.finish()?;
        let lesson = Lesson {
            title,
            summary,
            predict,
            scenario,
            steps,
        };
        lesson.check_faults()?;
        Ok(lesson)
    }

    /// Validates the steps' faults against the cluster (node ids in
    /// range, the fault limit), naming the step.
    fn check_faults(&self) -> Result<(), LessonError> {
        let base = self.scenario.faults.len();
        let total = base + self.steps.iter().filter(|s| s.fault.is_some()).count();
        if total > MAX_FAULTS {
            return Err(LessonError::new(
                "steps",
                format!(
                    "the scenario's faults and the steps' come to {total}; the limit is {MAX_FAULTS}"
                ),
            ));
        }
        let with_fault: Vec<usize> = (0..self.steps.len())
            .filter(|&i| self.steps[i].fault.is_some())
            .collect();
        self.scenario().validate().map_err(|e| {
            // `faults[k]...` with k past the scenario's own is step `with_fault[k - base]`.
            let step = e
                .field
                .strip_prefix("faults[")
                .and_then(|rest| rest.split_once(']'))
                .and_then(|(k, rest)| Some((k.parse::<usize>().ok()?, rest)))
                .filter(|(k, _)| *k >= base)
                .and_then(|(k, rest)| Some((*with_fault.get(k - base)?, rest)));
            match step {
                Some((i, rest)) => LessonError::new(format!("steps[{i}].fault{rest}"), e.message),
                None => LessonError::in_scenario(e),
            }
        })
    }

    /// The scenario that runs: the lesson's, with every step's fault
    /// appended at the step's time, in step order.
    pub fn scenario(&self) -> Scenario {
        let mut scenario = self.scenario.clone();
        for step in &self.steps {
            if let Some(fault) = &step.fault {
                scenario.faults.push(fault.clone());
            }
        }
        scenario
    }

    /// The canonical JSON value: every field written, the scenario in its
    /// canonical form, optional step fields only when set.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("lesson".into(), json!(VERSION));
        out.insert("title".into(), json!(self.title));
        if let Some(summary) = &self.summary {
            out.insert("summary".into(), json!(summary));
        }
        if self.predict {
            out.insert("predict".into(), json!(true));
        }
        out.insert("scenario".into(), self.scenario.to_json());
        out.insert(
            "steps".into(),
            Value::Array(self.steps.iter().map(Step::to_json).collect()),
        );
        Value::Object(out)
    }

    /// The canonical JSON text, pretty-printed.
    pub fn to_json_pretty(&self) -> String {
        crate::pretty_json::to_string_pretty(&self.to_json()).unwrap_or_default()
    }

    /// The share link's fragment, `#l=1.<base64url(deflate(json))>`; an
    /// error when it would be longer than [`MAX_LINK_CHARS`].
    pub fn link(&self) -> Result<String, LessonError> {
        let json = serde_json::to_string(&self.to_json()).unwrap_or_default();
        let data = pack(&json);
        if data.len() > MAX_LINK_CHARS {
            return Err(LessonError::new(
                "",
                format!(
                    "its link would be {} characters long; the limit is {MAX_LINK_CHARS} \
                     (shorten the narration or the scenario)",
                    data.len()
                ),
            ));
        }
        Ok(format!("#l={data}"))
    }

    /// The lesson of a link: a whole address, a fragment (`#l=1.…`, other
    /// `&`-separated parameters allowed beside it), `l=1.…`, or the bare
    /// value `1.…`. A link that is not one, or is damaged, is an error on
    /// field `l`; a link whose lesson is bad names the lesson's field.
    pub fn from_link(text: &str) -> Result<Self, LessonError> {
        let text = text.trim();
        let fragment = text.split_once('#').map_or(text, |(_, f)| f);
        let value = fragment
            .split('&')
            .find_map(|pair| pair.strip_prefix("l="))
            .or_else(|| {
                fragment
                    .starts_with(|c: char| c.is_ascii_digit())
                    .then_some(fragment)
                    .filter(|f| !f.contains('='))
            })
            .ok_or_else(|| {
                LessonError::new("l", "is missing: a lesson link has #l=1.<data> in it")
            })?;
        let json = unpack(value, "l", "lesson", MAX_LESSON_BYTES)?;
        Self::from_json(&json)
    }
}

impl Step {
    /// The step as the lesson file writes it.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("at_ms".into(), ms_json(self.at_us));
        m.insert("text".into(), json!(self.text));
        if let Some(kind) = self.question {
            m.insert("question".into(), json!({ "kind": kind.name() }));
        }
        if let Some(fault) = &self.fault {
            let mut value = fault.to_json();
            if let Value::Object(entry) = &mut value {
                entry.remove("at_ms");
            }
            m.insert("fault".into(), value);
        }
        if let Some(view) = self.view {
            m.insert("view".into(), json!(view.name()));
        }
        Value::Object(m)
    }
}

fn parse_step(value: &Value, path: &str, horizon: Micros) -> Result<Step, LessonError> {
    known_keys(value, path, &["at_ms", "text", "question", "fault", "view"])?;
    let mut f = Fields::new(value, path)?;
    let at = f
        .get("at_ms")
        .ok_or_else(|| f.error("at_ms", "is required (the moment the step is about)"))?;
    let at_us = millis_value(at).map_err(|m| f.error("at_ms", m))?;
    if at_us > horizon {
        return Err(f
            .error(
                "at_ms",
                format!(
                    "is {} ms, after the run's horizon, {} ms (the scenario's until_ms, or the run limit without one)",
                    ms_text(at_us),
                    ms_text(horizon)
                ),
            )
            .into());
    }
    let text = text_field(&mut f, "text", MAX_TEXT_CHARS)?
        .ok_or_else(|| f.error("text", "is required (the narration; may be \"\")"))?;
    let question = match f.get("question") {
        None => None,
        Some(q) => {
            let qpath = f.path_of("question");
            known_keys(q, &qpath, &["kind"])?;
            let mut qf = Fields::new(q, &qpath)?;
            let kind = qf
                .get("kind")
                .ok_or_else(|| qf.error("kind", format!("is required: one of {}", kind_names())))?;
            let found = kind.as_str().and_then(QuestionKind::from_name);
            let Some(found) = found else {
                return Err(qf
                    .error(
                        "kind",
                        format!("must be one of {}, got {}", kind_names(), describe(kind)),
                    )
                    .into());
            };
            qf.finish()?;
            Some(found)
        }
    };
    let fault = match f.get("fault") {
        None => None,
        Some(v) => {
            let fpath = f.path_of("fault");
            let Value::Object(entry) = v else {
                return Err(LessonError::new(
                    fpath,
                    format!(
                        "must be a fault object as in a scenario's faults, without at_ms, got {}",
                        describe(v)
                    ),
                ));
            };
            if entry.contains_key("at_ms") {
                return Err(LessonError::new(
                    format!("{fpath}.at_ms"),
                    "is not allowed here: a step's fault happens at the step's at_ms",
                ));
            }
            let mut entry = entry.clone();
            entry.insert("at_ms".into(), at.clone());
            Some(Fault::parse_value(&Value::Object(entry), &fpath)?)
        }
    };
    let view = match f.get("view") {
        None => None,
        Some(v) => {
            let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
            let found = v.as_str().and_then(View::from_name).ok_or_else(|| {
                f.error(
                    "view",
                    format!("must be one of {}, got {}", names.join(", "), describe(v)),
                )
            })?;
            Some(found)
        }
    };
    f.finish()?;
    Ok(Step {
        at_us,
        text,
        question,
        fault,
        view,
    })
}

/// A lesson made from a run, for the page's "Make a lesson from this
/// run": the scenario without its faults, a step at 0 and one step at
/// each fault's time with the fault moved into it (in time order, ties in
/// the scenario's order), every text empty. Its [`Lesson::scenario`]
/// runs exactly as `scenario` does.
pub fn from_run(scenario: &Scenario) -> Lesson {
    let mut base = scenario.clone();
    // In time order, stably (ties keep their order, so they apply alike):
    // an insertion, not a second sort instantiation in the wasm (core/src/lib.rs,
    // What the wasm's size forces).
    let mut faults: Vec<Fault> = Vec::with_capacity(base.faults.len());
    for fault in std::mem::take(&mut base.faults) {
        let at = faults.partition_point(|f| f.at_us <= fault.at_us);
        faults.insert(at, fault);
    }
    let mut steps = vec![Step {
        at_us: 0,
        text: String::new(),
        question: None,
        fault: None,
        view: None,
    }];
    let horizon = base.until_us.unwrap_or(DEFAULT_RUN_LIMIT_US);
    for fault in faults {
        if fault.at_us > horizon {
            // Past the horizon no step can be; it stays in the scenario.
            base.faults.push(fault);
            continue;
        }
        steps.push(Step {
            at_us: fault.at_us,
            text: String::new(),
            question: None,
            fault: Some(fault),
            view: None,
        });
    }
    let name = crate::algorithms::ALL
        .iter()
        .find(|e| e.id == scenario.algorithm)
        .map_or(scenario.algorithm.as_str(), |e| e.name);
    Lesson {
        title: format!("{name}, {} nodes, seed {}", scenario.nodes, scenario.seed),
        summary: None,
        predict: false,
        scenario: base,
        steps,
    }
}

#[cfg(test)]
mod tests;
