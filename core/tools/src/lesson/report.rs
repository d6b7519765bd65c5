//! What `election lesson run` prints: each step of a lesson with the
//! state of its run at the step's moment, read from one time-travel
//! [`Session`] of [`Lesson::scenario`] moved forward step by step, and,
//! for a step with a question, the question with its true answer
//! (`story::question_at`, the run's own future).

use super::Lesson;
use crate::session::Session;
use crate::story::StoryRun;
use crate::time::to_ms;
use serde::Serialize;
use serde_json::Value;

/// One node at a step's moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeState {
    /// Node id.
    pub id: u32,
    /// Its role (`follower`, `candidate`, `leader`, `service`, `observer`).
    pub role: &'static str,
    /// Its term, for algorithms that have terms (Raft, ZAB's epochs, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<u64>,
    /// Not crashed.
    pub alive: bool,
}

/// The run at a step's moment (after every event at that time, the
/// step's fault included).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepState {
    /// The one live leader, if exactly one node leads.
    pub leader: Option<u32>,
    /// Every live leader, ascending (two or more: split brain).
    pub leaders: Vec<u32>,
    /// Every node, participants first, then the algorithm's extra nodes.
    pub nodes: Vec<NodeState>,
    /// Messages sent so far.
    pub messages_sent: u64,
    /// Election messages sent so far.
    pub election_messages: u64,
    /// Safety violations so far.
    pub violations: usize,
}

/// One step of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    /// The step's moment, ms.
    pub at_ms: f64,
    /// Its narration.
    pub text: String,
    /// The view it brings into sight.
    pub view: Option<&'static str>,
    /// Its fault, as the lesson file writes it (without `at_ms`).
    pub fault: Option<Value>,
    /// Its question with the true answer (`story::question_at`'s
    /// `Question`: `at_ms`, `kind`, `text`, `choices`, `answer`, `why`),
    /// `null` when no election follows the moment; absent for a step
    /// without a question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<Value>,
    /// The run at this moment.
    pub state: StepState,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LessonReport {
    /// The lesson's title.
    pub title: String,
    /// Its summary.
    pub summary: Option<String>,
    /// Whether it opens with Predict on.
    pub predict: bool,
    /// The algorithm of its scenario.
    pub algorithm: String,
    /// Its steps.
    pub steps: Vec<StepReport>,
}

/// The report of `lesson`: its run, step by step.
pub fn report(lesson: &Lesson) -> LessonReport {
    let scenario = lesson.scenario();
    let mut session = Session::new(&scenario);
    // One recorded run answers every question (only when one is asked).
    let story = lesson
        .steps
        .iter()
        .any(|s| s.question.is_some())
        .then(|| StoryRun::new(&scenario));
    let mut steps = Vec::with_capacity(lesson.steps.len());
    for step in &lesson.steps {
        session.seek(step.at_us);
        let sim = session.sim();
        let leaders = sim.leaders().to_vec();
        let metrics = sim.metrics();
        let nodes = sim
            .node_views()
            .into_iter()
            .map(|n| NodeState {
                id: n.id,
                role: n.role.name(),
                term: n.term,
                alive: n.alive,
            })
            .collect();
        let state = StepState {
            leader: (leaders.len() == 1).then(|| leaders[0]),
            leaders,
            nodes,
            messages_sent: metrics.sent,
            election_messages: metrics.election,
            violations: sim.violations().len(),
        };
        let json = step.to_json();
        steps.push(StepReport {
            at_ms: to_ms(step.at_us),
            text: step.text.clone(),
            view: step.view.map(|v| v.name()),
            fault: json.get("fault").cloned(),
            question: step.question.map(|kind| {
                story
                    .as_ref()
                    .and_then(|run| run.question_at(to_ms(step.at_us), kind))
                    .and_then(|q| serde_json::to_value(q).ok())
                    .unwrap_or(Value::Null)
            }),
            state,
        });
    }
    LessonReport {
        title: lesson.title.clone(),
        summary: lesson.summary.clone(),
        predict: lesson.predict,
        algorithm: scenario.algorithm.clone(),
        steps,
    }
}
