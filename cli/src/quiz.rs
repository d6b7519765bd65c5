//! `election quiz`: the questions of a run for a worksheet: one per
//! decisive moment (time 0, and each crash, partition or heal after which
//! an election follows), each with its choices, answer and why, from the
//! run's own future (`election_core::story`, module docs, Questions).
//! The text is a worksheet: the questions with lettered choices, then the
//! answer key; `--json` prints `{"questions": [...]}` as the page gets
//! them. `--at MS --kind KIND` asks one question of any kind at any time.

use crate::error::CliError;
use crate::output::json;
use crate::overrides::{ScenarioArgs, parse_ms};
use clap::Args;
use election_core::story::{self, Question, QuestionKind};
use election_core::time::{Micros, to_ms};
use serde::Serialize;

/// Flags of `election quiz`.
#[derive(Debug, Clone, Args)]
pub struct QuizArgs {
    /// Scenario file and field overrides (the same as `election run`).
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seed of every random choice in the run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print one JSON object, `{"questions": [...]}`, instead of a worksheet.
    #[arg(long)]
    pub json: bool,
    /// Ask one question at this moment (ms) instead of one per decisive
    /// moment (with --kind).
    #[arg(long = "at", value_parser = parse_ms, value_name = "MS", requires = "kind")]
    pub at_us: Option<Micros>,
    /// The kind of the one question: leader, election_messages,
    /// first_mover, time_to_leader or split_brain (with --at).
    #[arg(long, value_name = "KIND", requires = "at_us")]
    pub kind: Option<String>,
}

/// `quiz --json`.
#[derive(Serialize)]
struct QuizJson<'a> {
    questions: &'a [Question],
}

/// The questions of the scenario as the text to print.
pub fn quiz(args: &QuizArgs) -> Result<String, CliError> {
    let scenario = args.scenario.build(args.seed)?;
    let questions = match (args.at_us, &args.kind) {
        (Some(at), Some(kind)) => {
            let names: Vec<&str> = QuestionKind::ALL.iter().map(|k| k.name()).collect();
            let kind = QuestionKind::from_name(kind).ok_or_else(|| {
                CliError::input(format!(
                    "--kind {kind}: not a question kind; one of {}",
                    names.join(", ")
                ))
            })?;
            story::question_at(&scenario, to_ms(at), kind)
                .into_iter()
                .collect()
        }
        _ => story::story(&scenario).questions,
    };
    if args.json {
        return json(&QuizJson {
            questions: &questions,
        });
    }
    Ok(worksheet(
        &format!(
            "{}, {} nodes, seed {}",
            scenario.algorithm, scenario.nodes, scenario.seed
        ),
        &questions,
    ))
}

/// A choice as printed: a node or range as written, a count as a number.
fn choice_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The questions with lettered choices, then the answer key.
fn worksheet(title: &str, questions: &[Question]) -> String {
    let mut out = format!("Quiz: {title}\n\n");
    if questions.is_empty() {
        out.push_str("No election follows, so there is nothing to ask.\n");
        return out;
    }
    let letter = |i: usize| (b'A' + i as u8) as char;
    for (q, question) in questions.iter().enumerate() {
        out.push_str(&format!(
            "{}. At {}: {}\n",
            q + 1,
            crate::output::ms(question.at_ms),
            question.text
        ));
        for (i, c) in question.choices.iter().enumerate() {
            out.push_str(&format!("   {}) {}\n", letter(i), choice_text(c)));
        }
        out.push('\n');
    }
    out.push_str("Answers\n");
    for (q, question) in questions.iter().enumerate() {
        let i = question
            .choices
            .iter()
            .position(|c| *c == question.answer)
            .unwrap_or(0);
        out.push_str(&format!(
            "{}. {}) {}: {}\n",
            q + 1,
            letter(i),
            choice_text(&question.answer),
            question.why
        ));
    }
    out
}
