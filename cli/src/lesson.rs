//! `election lesson`: lesson files (docs/lessons.md; the format is
//! `election_core::lesson`'s).
//!
//! - `election lesson check FILE`: one `ok` line, or the one error naming
//!   the bad field (`lesson field `steps[2].question.kind`: ...`), exit 2;
//! - `election lesson run FILE [--json]`: each step with the run's state
//!   at its moment and, for a question, its true answer;
//! - `election lesson link FILE`: the lesson's link fragment, `#l=1.<data>`
//!   (append it to the page's address).
//!
//! A file is read with the size cap of the format (`MAX_LESSON_BYTES`),
//! as scenario files are (`load.rs`); `-` reads standard input.

use crate::error::CliError;
use crate::load::display_name;
use crate::output::json;
use clap::{Args, Subcommand};
use election_core::lesson::{Lesson, LessonReport, MAX_LESSON_BYTES, report};
use std::io::Read;
use std::path::{Path, PathBuf};

/// `election lesson` and its subcommands.
#[derive(Debug, Clone, Args)]
pub struct LessonArgs {
    /// What to do with the lesson file.
    #[command(subcommand)]
    pub command: LessonCommand,
}

/// The subcommands of `election lesson`.
#[derive(Debug, Clone, Subcommand)]
pub enum LessonCommand {
    /// Validate a lesson file: prints one `ok` line, or one error naming
    /// the bad field (exit code 2).
    Check {
        /// The lesson file (`-` reads standard input).
        file: PathBuf,
    },
    /// Play a lesson's run and report each step: its time, text, view and
    /// fault, the state at that moment (leader, each node's role and term,
    /// messages sent so far) and, for a step with a question, the question
    /// with its true answer.
    Run {
        /// The lesson file (`-` reads standard input).
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the lesson's link fragment, `#l=1.<data>`: the page opens
    /// the lesson from its address followed by it.
    Link {
        /// The lesson file (`-` reads standard input).
        file: PathBuf,
    },
}

/// The text of the lesson file at `path`, at most [`MAX_LESSON_BYTES`]
/// bytes of UTF-8.
fn read_lesson_text(path: &Path) -> Result<String, CliError> {
    let name = display_name(path);
    let limit = MAX_LESSON_BYTES as u64;
    let reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::input(format!("cannot open lesson file {name}: {e}")))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(CliError::input(format!(
                "{name} is a directory, not a lesson file"
            )));
        }
        Box::new(file)
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::input(format!("cannot read lesson file {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::input(format!(
            "{name}: the lesson is larger than the limit of {MAX_LESSON_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The validated lesson in the file at `path`; errors are prefixed with
/// the file name.
pub fn load_lesson(path: &Path) -> Result<Lesson, CliError> {
    let text = read_lesson_text(path)?;
    Lesson::from_json(&text).map_err(|e| CliError::input(format!("{}: {e}", display_name(path))))
}

/// Runs `election lesson ...` and returns what to print.
pub fn lesson(args: &LessonArgs) -> Result<String, CliError> {
    match &args.command {
        LessonCommand::Check { file } => {
            let lesson = load_lesson(file)?;
            let s = lesson.scenario();
            let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
            let faults = lesson.steps.iter().filter(|s| s.fault.is_some()).count();
            Ok(format!(
                "ok: {}: \"{}\", {} steps ({questions} with a question, {faults} with a fault), {}, {} nodes, seed {}\n",
                display_name(file),
                lesson.title,
                lesson.steps.len(),
                s.algorithm,
                s.nodes,
                s.seed
            ))
        }
        LessonCommand::Run {
            file,
            json: as_json,
        } => {
            let lesson = load_lesson(file)?;
            let report = report(&lesson);
            if *as_json {
                json(&report)
            } else {
                Ok(report_text(&report))
            }
        }
        LessonCommand::Link { file } => {
            let lesson = load_lesson(file)?;
            let link = lesson
                .link()
                .map_err(|e| CliError::input(format!("{}: {e}", display_name(file))))?;
            Ok(format!("{link}\n"))
        }
    }
}

/// A JSON value as short text (`4`, `"n3"` as `n3`).
fn plain(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The report as readable text: one block per step.
pub fn report_text(report: &LessonReport) -> String {
    let mut out = format!("{} ({})\n", report.title, report.algorithm);
    if let Some(summary) = &report.summary {
        out.push_str(&format!("{summary}\n"));
    }
    for (i, step) in report.steps.iter().enumerate() {
        out.push_str(&format!("\nstep {} at {} ms", i + 1, step.at_ms));
        if let Some(view) = step.view {
            out.push_str(&format!("  view {view}"));
        }
        if let Some(fault) = &step.fault {
            out.push_str(&format!("  fault {fault}"));
        }
        out.push('\n');
        if !step.text.is_empty() {
            out.push_str(&format!("  {}\n", step.text));
        }
        let st = &step.state;
        let leader = match (st.leader, st.leaders.len()) {
            (Some(id), _) => format!("n{id}"),
            (None, 0) => "none".to_string(),
            (None, _) => {
                let all: Vec<String> = st.leaders.iter().map(|id| format!("n{id}")).collect();
                format!("none (several: {})", all.join(", "))
            }
        };
        out.push_str(&format!(
            "  leader {leader}; messages sent {} ({} election); violations {}\n",
            st.messages_sent, st.election_messages, st.violations
        ));
        let nodes: Vec<String> = st
            .nodes
            .iter()
            .map(|n| {
                let mut text = format!("n{} {}", n.id, if n.alive { n.role } else { "down" });
                if let Some(term) = n.term {
                    text.push_str(&format!(" t{term}"));
                }
                text
            })
            .collect();
        out.push_str(&format!("  nodes {}\n", nodes.join(", ")));
        if let Some(q) = &step.question {
            match q.get("text") {
                Some(text) => {
                    let choices: Vec<String> = q["choices"]
                        .as_array()
                        .map(|c| c.iter().map(plain).collect())
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "  question {}: {} [{}] answer {}: {}\n",
                        plain(&q["kind"]),
                        plain(text),
                        choices.join(" | "),
                        plain(&q["answer"]),
                        plain(&q["why"])
                    ));
                }
                None if q.is_null() => {
                    out.push_str("  question: no election follows this moment\n");
                }
                None => out.push_str(&format!("  question {}\n", plain(&q["kind"]))),
            }
        }
    }
    out
}
