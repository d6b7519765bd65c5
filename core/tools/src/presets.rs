//! Guided scenarios (presets): the twelve lessons under `lessons/`
//! (`lessons/<name>.json`, in the lesson format of [`crate::lesson`]: a
//! scenario plus a short narrated walkthrough, each step pinned to the
//! simulated moment it talks about, some with the fault that happens
//! then).
//!
//! The lesson files are embedded at compile time (`include_str!`), so
//! the core stays free of I/O and the page, the CLI and the tests all see
//! the very same bytes. Each lesson's scenario also runs on its own as
//! `scenarios/presets/<name>.json` (`election run --scenario
//! scenarios/presets/<name>.json`): that file is the lesson's
//! [`Lesson::scenario`], the steps' faults included, and the test
//! `preset_scenario_files_are_the_lessons_scenarios` below fails when the
//! two differ (it writes the file anew with `UPDATE_PRESETS=1`).
//!
//! The narration promises outcomes ("split brain", "one WATCH_EVENT");
//! `cli/tests/presets.rs` runs every file and checks each promise, and the
//! tests below check that every step's time is the time of an event of the
//! run, so jumping to a step shows the moment it describes.

use crate::lesson::{Lesson, LessonError};
use crate::scenario::{Scenario, ScenarioError};
use serde::Serialize;
use serde_json::Value;

/// A guided scenario: a lesson of `lessons/` under its name.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Id used in `preset=<name>`, `election run --preset <name>` and as
    /// the file names `lessons/<name>.json` and
    /// `scenarios/presets/<name>.json`.
    pub name: &'static str,
    /// A preset that shows the other side of the same lesson.
    pub related: Option<&'static str>,
    /// The lesson file's text.
    pub lesson_json: &'static str,
}

/// A preset as the page (`presets()`) and `election presets --json` list
/// it: `name`, `title`, `summary`, `related` and `steps` (each `at_ms`,
/// `text`, and `question`, `fault`, `view` where the step has them, as in
/// the lesson file).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PresetInfo {
    /// The preset's name.
    pub name: &'static str,
    /// The lesson's title.
    pub title: String,
    /// The lesson's summary (empty without one).
    pub summary: String,
    /// A preset that shows the other side of the same lesson.
    pub related: Option<&'static str>,
    /// The lesson's steps, as the lesson file writes them.
    pub steps: Vec<Value>,
}

impl Preset {
    /// The lesson, parsed and validated by the one lesson parser.
    pub fn lesson(&self) -> Result<Lesson, LessonError> {
        Lesson::from_json(self.lesson_json)
    }

    /// The scenario that runs ([`Lesson::scenario`]: the steps' faults
    /// included), as `scenarios/presets/<name>.json` holds it.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        self.lesson()
            .map(|l| l.scenario())
            .map_err(|e| ScenarioError::new(e.field, e.message))
    }

    /// What the page and `election presets --json` list of it.
    pub fn info(&self) -> Result<PresetInfo, LessonError> {
        let lesson = self.lesson()?;
        Ok(PresetInfo {
            name: self.name,
            title: lesson.title.clone(),
            summary: lesson.summary.clone().unwrap_or_default(),
            related: self.related,
            steps: lesson.steps.iter().map(|s| s.to_json()).collect(),
        })
    }

    /// Path of the scenario file, relative to the repository root.
    pub fn file(&self) -> String {
        format!("scenarios/presets/{}.json", self.name)
    }

    /// Path of the lesson file, relative to the repository root.
    pub fn lesson_file(&self) -> String {
        format!("lessons/{}.json", self.name)
    }
}

const fn preset(
    name: &'static str,
    related: Option<&'static str>,
    lesson_json: &'static str,
) -> Preset {
    Preset {
        name,
        related,
        lesson_json,
    }
}

/// Every preset as listed ([`Preset::info`]), in list order; a preset
/// whose lesson does not parse (never in a tested build) is left out.
pub fn infos() -> Vec<PresetInfo> {
    ALL.iter().filter_map(|p| p.info().ok()).collect()
}

/// Every preset, in the order the page and the CLI list them.
pub static ALL: &[Preset] = &[
    preset(
        "bully-partition",
        None,
        include_str!("../../../lessons/bully-partition.json"),
    ),
    preset(
        "bully-flapping",
        None,
        include_str!("../../../lessons/bully-flapping.json"),
    ),
    preset(
        "ring-dead-successor",
        None,
        include_str!("../../../lessons/ring-dead-successor.json"),
    ),
    preset(
        "chang-roberts-best",
        Some("chang-roberts-worst"),
        include_str!("../../../lessons/chang-roberts-best.json"),
    ),
    preset(
        "chang-roberts-worst",
        Some("chang-roberts-best"),
        include_str!("../../../lessons/chang-roberts-worst.json"),
    ),
    preset(
        "raft-minority",
        None,
        include_str!("../../../lessons/raft-minority.json"),
    ),
    preset(
        "raft-split-votes",
        None,
        include_str!("../../../lessons/raft-split-votes.json"),
    ),
    preset(
        "multi-paxos-duel",
        Some("multi-paxos-master-lease"),
        include_str!("../../../lessons/multi-paxos-duel.json"),
    ),
    preset(
        "multi-paxos-master-lease",
        Some("multi-paxos-duel"),
        include_str!("../../../lessons/multi-paxos-master-lease.json"),
    ),
    preset(
        "lease-drift",
        None,
        include_str!("../../../lessons/lease-drift.json"),
    ),
    preset(
        "zookeeper-herd",
        Some("zookeeper-predecessor"),
        include_str!("../../../lessons/zookeeper-herd.json"),
    ),
    preset(
        "zookeeper-predecessor",
        Some("zookeeper-herd"),
        include_str!("../../../lessons/zookeeper-predecessor.json"),
    ),
];

/// Every preset name, in list order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|p| p.name).collect()
}

/// The preset called `name`.
pub fn find(name: &str) -> Option<&'static Preset> {
    ALL.iter().find(|p| p.name == name)
}

/// The preset called `name`, or an error naming `field` that lists the
/// known names (for a URL parameter or a command-line flag).
pub fn lookup(name: &str, field: &str) -> Result<&'static Preset, ScenarioError> {
    find(name.trim()).ok_or_else(|| {
        ScenarioError::new(
            field,
            format!("unknown preset {:?}; known: {}", name, names().join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms;
    use crate::time::ms;

    #[test]
    fn every_preset_parses_and_names_are_unique() {
        assert!(ALL.len() >= 8);
        let mut seen = std::collections::BTreeSet::new();
        for p in ALL {
            assert!(seen.insert(p.name), "duplicate preset {}", p.name);
            assert!(
                p.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}: names are URL-safe kebab-case",
                p.name
            );
            let info = p.info().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!info.title.is_empty() && !info.summary.is_empty());
            if let Some(other) = p.related {
                assert!(find(other).is_some(), "{}: related {other} unknown", p.name);
            }
        }
    }

    #[test]
    fn steps_are_in_order_and_each_names_a_moment_of_the_run() {
        for p in ALL {
            let lesson = p.lesson().unwrap();
            let scenario = lesson.scenario();
            let steps = &lesson.steps;
            assert!(!steps.is_empty(), "{}", p.name);
            assert_eq!(steps[0].at_us, 0, "{}: the walkthrough starts at 0", p.name);
            let mut sim = algorithms::build(&scenario, true);
            let end = sim.run_to_end();
            let times: std::collections::BTreeSet<_> =
                sim.trace().iter().map(|e| e.at_us).collect();
            for pair in steps.windows(2) {
                assert!(pair[0].at_us < pair[1].at_us, "{}: steps in order", p.name);
            }
            for s in steps {
                assert!(!s.text.is_empty());
                let at = s.at_us;
                assert!(at <= end, "{}: step at {at} us after the end", p.name);
                assert!(
                    times.contains(&at),
                    "{}: nothing happens at {at} us, so jumping there shows nothing new",
                    p.name
                );
            }
        }
    }

    /// Narration is read by people following a lesson, often aloud in a
    /// class: formulas are said in words and numbers, never in the
    /// notation of a paper ("n·H_n", "n(n+1)/2", "O(n)", issue 29).
    #[test]
    fn narration_is_written_as_a_person_reads_it() {
        const NOTATION: &[&str] = &[
            "·", "^", "O(", "n(", "n-1", "n - 1", "n+1", "n + 1", "2n", "log2", "log₂", "²",
        ];
        // "(n" opens a formula, "(n4)" names a node; "H_n" is a
        // subscript, "WATCH_EVENT" a message kind.
        let formula_paren = |text: &str| {
            text.match_indices("(n")
                .any(|(i, _)| !text[i + 2..].starts_with(|c: char| c.is_ascii_digit()))
        };
        let subscript = |text: &str| {
            let c: Vec<char> = text.chars().collect();
            c.windows(4).any(|w| {
                w[0].is_alphabetic()
                    && w[1] == '_'
                    && w[2].is_alphanumeric()
                    && !w[3].is_alphanumeric()
            })
        };
        for p in ALL {
            let lesson = p.lesson().unwrap();
            let texts = std::iter::once(&lesson.title)
                .chain(lesson.summary.iter())
                .chain(lesson.steps.iter().map(|s| &s.text));
            for text in texts {
                for n in NOTATION {
                    assert!(
                        !text.contains(n),
                        "{}: {n:?} in the narration {text:?}",
                        p.name
                    );
                }
                assert!(!formula_paren(text), "{}: a formula in {text:?}", p.name);
                assert!(!subscript(text), "{}: a subscript in {text:?}", p.name);
            }
        }
    }

    /// `scenarios/presets/<name>.json` is the lesson's scenario (the steps'
    /// faults included), so `election run --scenario` runs what the
    /// lesson runs. With `UPDATE_PRESETS=1` the test writes the files
    /// anew from the lessons (review the diff) instead of failing.
    #[test]
    fn preset_scenario_files_are_the_lessons_scenarios() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let update = std::env::var_os("UPDATE_PRESETS").is_some();
        for p in ALL {
            let want = p.scenario().unwrap();
            let path = format!("{root}/{}", p.file());
            if update {
                std::fs::write(&path, want.to_json_pretty() + "\n").unwrap();
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let have = <Scenario as crate::ScenarioExt>::from_json(&text).unwrap();
            assert_eq!(
                have.to_json(),
                want.to_json(),
                "{}: differs from the scenario of {}; UPDATE_PRESETS=1 cargo test -p election-tools presets writes it",
                p.file(),
                p.lesson_file()
            );
        }
    }

    /// A preset asks only where an election follows, so every question
    /// has its answer from the run (`story::question_at`).
    #[test]
    fn every_preset_question_has_an_answer() {
        let mut asked = 0;
        for p in ALL {
            let report = crate::lesson::report(&p.lesson().unwrap());
            for step in &report.steps {
                if let Some(q) = &step.question {
                    assert!(
                        q.get("answer").is_some(),
                        "{} at {} ms: {q}",
                        p.name,
                        step.at_ms
                    );
                    asked += 1;
                }
            }
        }
        assert_eq!(asked, 11);
    }

    #[test]
    fn the_listing_has_the_page_s_shape() {
        let infos = infos();
        assert_eq!(infos.len(), ALL.len());
        let value = serde_json::to_value(&infos[0]).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, ["name", "related", "steps", "summary", "title"]);
        assert_eq!(value["steps"][0]["at_ms"], 0);
        assert_eq!(
            value["steps"][1]["fault"],
            serde_json::json!({ "partition": [[0, 1, 2]] })
        );
        assert_eq!(
            find("raft-split-votes").unwrap().lesson_file(),
            "lessons/raft-split-votes.json"
        );
    }

    #[test]
    fn lookup_names_the_field_and_lists_the_presets() {
        assert_eq!(
            lookup("bully-partition", "preset").unwrap().name,
            "bully-partition"
        );
        let err = lookup("nope", "preset").unwrap_err();
        assert_eq!(err.field, "preset");
        assert!(err.message.contains("bully-partition"), "{err}");
        assert_eq!(
            find("raft-split-votes").unwrap().file(),
            "scenarios/presets/raft-split-votes.json"
        );
        // A step in the middle of the run is where the walkthrough says.
        let p = find("bully-partition").unwrap();
        let mut sim = algorithms::build(&p.scenario().unwrap(), false);
        sim.run_until(ms(800));
        assert_eq!(sim.leaders(), &[2, 5], "split brain at 800 ms");
    }
}
