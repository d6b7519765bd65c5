//! The lesson format: what it accepts, the field each refusal names, the
//! link round trip, and lessons made from runs.

use super::*;
use crate::algorithms;
use crate::scenario::{FaultAction, Target};

const GOOD: &str = r#"{
  "lesson": 1,
  "title": "Bully: crash the leader",
  "summary": "The highest id leads; crash it and the next one takes over.",
  "scenario": { "algorithm": "bully", "nodes": 5, "seed": 3, "until_ms": 3000 },
  "steps": [
    { "at_ms": 0, "text": "Everyone starts.", "question": { "kind": "leader" } },
    { "at_ms": 1000, "text": "The leader crashes.", "fault": { "crash": 4 }, "view": "spacetime" },
    { "at_ms": 1000, "text": "Same moment, another step." },
    { "at_ms": 2000, "text": "n4 is back.", "fault": { "recover": 4 }, "view": "log" }
  ]
}"#;

fn field_of(text: &str) -> String {
    match Lesson::from_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => {
            assert!(!e.message.is_empty());
            e.field
        }
    }
}

/// GOOD with `from` replaced by `to` (which must occur).
fn with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

#[test]
fn a_good_lesson_parses_and_its_scenario_has_the_step_faults() {
    let lesson = Lesson::from_json(GOOD).unwrap();
    assert_eq!(lesson.title, "Bully: crash the leader");
    assert_eq!(lesson.steps.len(), 4);
    assert_eq!(
        lesson.steps[0].question,
        Some(crate::story::QuestionKind::Leader)
    );
    assert_eq!(lesson.steps[1].view, Some(View::Spacetime));
    assert!(lesson.scenario.faults.is_empty());
    let scenario = lesson.scenario();
    assert_eq!(
        scenario.faults,
        vec![
            Fault {
                at_us: 1_000_000,
                action: FaultAction::Crash(Target::Node(4))
            },
            Fault {
                at_us: 2_000_000,
                action: FaultAction::Recover(Target::Node(4))
            },
        ]
    );
    assert!(!lesson.predict);
    assert!(lesson.to_json().get("predict").is_none());
    let on =
        Lesson::from_json(&with(r#""lesson": 1,"#, r#""lesson": 1, "predict": true,"#)).unwrap();
    assert!(on.predict);
    assert_eq!(on.to_json()["predict"], true);
    // The canonical form reads back as the same lesson.
    let again = Lesson::from_json(&lesson.to_json_pretty()).unwrap();
    assert_eq!(again, lesson);
    let step = &lesson.to_json()["steps"][1];
    assert_eq!(step["fault"], serde_json::json!({ "crash": 4 }));
    assert_eq!(step["view"], "spacetime");
    assert!(lesson.to_json()["steps"][2].get("fault").is_none());
}

#[test]
fn each_bad_field_is_named() {
    let cases: Vec<(String, &str)> = vec![
        ("[]".into(), ""),
        ("{".into(), ""),
        (with(r#""lesson": 1"#, r#""lesson": 2"#), "lesson"),
        (with(r#""lesson": 1,"#, ""), "lesson"),
        (
            with(r#""title": "Bully: crash the leader""#, r#""title": """#),
            "title",
        ),
        (
            with(r#""title": "Bully: crash the leader""#, r#""title": 7"#),
            "title",
        ),
        (with(r#""summary""#, r#""sumary""#), "sumary"),
        (
            with(r#""lesson": 1,"#, r#""lesson": 1, "predict": 1,"#),
            "predict",
        ),
        (with(r#""title""#, r#""titel""#), "titel"),
        (with(r#""nodes": 5"#, r#""nodes": 0"#), "scenario.nodes"),
        (
            with(r#""algorithm": "bully""#, r#""algorithm": "bulley""#),
            "scenario.algorithm",
        ),
        (with(r#""seed": 3"#, r#""sed": 3"#), "scenario.sed"),
        (
            with(r#"{ "kind": "leader" }"#, r#"{ "kind": "leeder" }"#),
            "steps[0].question.kind",
        ),
        (
            with(r#"{ "kind": "leader" }"#, r#"{ "kind": "leader", "x": 1 }"#),
            "steps[0].question.x",
        ),
        (
            with(r#"{ "kind": "leader" }"#, r#"{}"#),
            "steps[0].question.kind",
        ),
        (with(r#""at_ms": 0"#, r#""at_ms": -1"#), "steps[0].at_ms"),
        (with(r#""at_ms": 0,"#, ""), "steps[0].at_ms"),
        (
            with(r#""at_ms": 2000"#, r#""at_ms": 3001"#),
            "steps[3].at_ms",
        ),
        (
            with(r#""at_ms": 2000"#, r#""at_ms": 999"#),
            "steps[3].at_ms",
        ),
        (
            with(
                r#""text": "Everyone starts.""#,
                r#""txt": "Everyone starts.""#,
            ),
            "steps[0].txt",
        ),
        (with(r#", "text": "Everyone starts.""#, ""), "steps[0].text"),
        (
            with(r#""view": "spacetime""#, r#""view": "space-time""#),
            "steps[1].view",
        ),
        (
            with(r#"{ "crash": 4 }"#, r#"{ "crash": 9 }"#),
            "steps[1].fault.crash",
        ),
        (
            with(r#"{ "crash": 4 }"#, r#"{ "crash": "x" }"#),
            "steps[1].fault.crash",
        ),
        (
            with(r#"{ "crash": 4 }"#, r#"{ "crash": 4, "at_ms": 5 }"#),
            "steps[1].fault.at_ms",
        ),
        (
            with(r#"{ "crash": 4 }"#, r#"{ "smash": 4 }"#),
            "steps[1].fault",
        ),
        (
            with(r#"{ "crash": 4 }"#, r#"{ "pause": 4 }"#),
            "steps[1].fault.for_ms",
        ),
        (with(r#"{ "crash": 4 }"#, r#""crash 4""#), "steps[1].fault"),
        (
            with(r#"{ "recover": 4 }"#, r#"{ "recover": 5 }"#),
            "steps[3].fault.recover",
        ),
        (with(r#""steps": ["#, r#""steps": [], "x": ["#), "x"),
        (
            r#"{"lesson": 1, "title": "t", "scenario": {}, "steps": []}"#.into(),
            "steps",
        ),
        (
            r#"{"lesson": 1, "title": "t", "scenario": {}}"#.into(),
            "steps",
        ),
        (
            r#"{"lesson": 1, "title": "t", "steps": []}"#.into(),
            "scenario",
        ),
    ];
    for (text, field) in cases {
        assert_eq!(field_of(&text), field, "{text}");
    }
    let err = Lesson::from_json(&with(r#""nodes": 5"#, r#""nodes": 0"#)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("lesson field `scenario.nodes`: "),
        "{err}"
    );
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    assert_eq!(field_of(&with("Everyone starts.", &long)), "steps[0].text");
}

#[test]
fn links_round_trip_and_damaged_ones_name_l() {
    let lesson = Lesson::from_json(GOOD).unwrap();
    let link = lesson.link().unwrap();
    assert!(link.starts_with("#l=1."), "{link}");
    for form in [
        link.clone(),
        link[1..].to_string(),
        link[3..].to_string(),
        format!("https://example.org/play/?predict=1{link}"),
        format!("https://example.org/play/#x=2&{}", &link[1..]),
    ] {
        assert_eq!(Lesson::from_link(&form).unwrap(), lesson, "{form}");
    }
    for bad in [
        "",
        "#s=1.abc",
        "#l=2.abc",
        "#l=1.!!!",
        "#l=1.AAAA",
        "https://x/#a=1",
    ] {
        assert_eq!(Lesson::from_link(bad).unwrap_err().field, "l", "{bad}");
    }
    let big = "x".repeat(MAX_LINK_CHARS + 1);
    assert_eq!(
        Lesson::from_link(&format!("#l={big}")).unwrap_err().field,
        "l"
    );
}

#[test]
fn a_lesson_from_a_run_runs_as_the_run() {
    let scenario = Scenario::from_json(
        r#"{"algorithm": "raft", "nodes": 5, "seed": 7, "until_ms": 4000, "faults": [
            {"at_ms": 2500, "heal": true},
            {"at_ms": 1000, "crash": "leader"},
            {"at_ms": 1500, "partition": [[0, 1], [2, 3, 4]]},
            {"at_ms": 1500, "recover": 0},
            {"at_ms": 9000, "crash": 1}
        ]}"#,
    )
    .unwrap();
    let lesson = from_run(&scenario);
    let times: Vec<Micros> = lesson.steps.iter().map(|s| s.at_us).collect();
    assert_eq!(times, [0, 1_000_000, 1_500_000, 1_500_000, 2_500_000]);
    assert!(lesson.steps.iter().all(|s| s.text.is_empty()));
    assert!(lesson.steps[0].fault.is_none());
    assert_eq!(
        lesson.scenario.faults.len(),
        1,
        "the fault past the horizon stays"
    );
    // It checks, survives its JSON, and runs exactly as the scenario.
    let again = Lesson::from_json(&lesson.to_json_pretty()).unwrap();
    assert_eq!(again, lesson);
    let mut a = algorithms::build(&scenario, false);
    let mut b = algorithms::build(&lesson.scenario(), false);
    a.run_to_end();
    b.run_to_end();
    assert_eq!(a.summary(), b.summary());
    assert!(lesson.title.starts_with("Raft"), "{}", lesson.title);
}

#[test]
fn the_report_reads_each_step_s_moment() {
    let lesson = Lesson::from_json(GOOD).unwrap();
    let report = report(&lesson);
    assert_eq!(report.steps.len(), 4);
    let first = &report.steps[0].state;
    assert_eq!(first.nodes.len(), 5);
    let crash = &report.steps[1];
    assert_eq!(crash.fault, Some(serde_json::json!({ "crash": 4 })));
    assert!(
        !crash.state.nodes[4].alive,
        "the step's fault is in its state"
    );
    assert!(crash.state.messages_sent > 0);
    // The question's answer is the story's, for the lesson's run.
    let asked = report.steps[0].question.clone().unwrap();
    let story =
        crate::story::question_at(&lesson.scenario(), 0.0, crate::story::QuestionKind::Leader)
            .unwrap();
    assert_eq!(asked, serde_json::to_value(&story).unwrap());
    assert_eq!(asked["answer"], "n4");
    assert!(report.steps[1].question.is_none());
}
