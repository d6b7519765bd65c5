//! `election lesson` and `election html --lesson`: a good lesson checks,
//! each bad one gets one message naming the field and exit code 2, `run
//! --json` reports each step's state (as `election run --at` sees that
//! moment) and each question as `election quiz --at` asks it, the link round-trips into the same lesson (the page's
//! `lesson_from_link` decodes the same text: tests/node/lessons.test.js),
//! and the standalone page carries the lesson's link and scenario. Every
//! preset's lesson and the worked lesson of docs/lessons.md check.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};
use std::path::PathBuf;

fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI crate sits in the workspace")
        .join(path)
}

const WORKED: &str = "docs/lessons/crash-the-leader.json";

/// The worked lesson with `from` replaced by `to` (which must occur), as a file.
fn bad_lesson(from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(repo_file(WORKED)).unwrap();
    assert!(text.contains(from), "{from}");
    scenario_file("bad.json", text.replacen(from, to, 1).as_bytes())
}

/// stderr of a refused `election lesson check`, checking exit code 2 and one line.
fn refused(path: &std::path::Path) -> String {
    let out = election(&["lesson", "check", arg(path)]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one message: {err}");
    err
}

#[test]
fn good_lessons_check() {
    let said = ok(&["lesson", "check", arg(&repo_file(WORKED))]);
    assert!(said.starts_with("ok: "), "{said}");
    assert!(
        said.contains("3 steps (3 with a question, 2 with a fault), bully, 5 nodes, seed 7"),
        "{said}"
    );
    let dir = repo_file("lessons");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let said = ok(&["lesson", "check", arg(&path)]);
        assert!(said.starts_with("ok: "), "{}: {said}", path.display());
        seen += 1;
    }
    assert_eq!(seen, 12, "one lesson per preset");
}

#[test]
fn each_bad_lesson_names_its_field() {
    let cases = [
        (
            r#""kind": "first_mover""#,
            r#""kind": "who_starts""#,
            "steps[1].question.kind",
        ),
        (r#""at_ms": 2000"#, r#""at_ms": 500"#, "steps[2].at_ms"),
        (r#""at_ms": 2000"#, r#""at_ms": 3500"#, "steps[2].at_ms"),
        (r#""nodes": 5"#, r#""nodes": 5000"#, "scenario.nodes"),
        (
            r#"{ "crash": 4 }"#,
            r#"{ "crash": 7 }"#,
            "steps[1].fault.crash",
        ),
        (
            r#"{ "crash": 4 }"#,
            r#"{ "crash": 4, "at_ms": 1000 }"#,
            "steps[1].fault.at_ms",
        ),
        (r#""view": "log""#, r#""view": "logs""#, "steps[2].view"),
        (r#""lesson": 1"#, r#""lesson": 3"#, "lesson"),
        (r#""title""#, r#""name""#, "name"),
    ];
    for (from, to, field) in cases {
        let err = refused(&bad_lesson(from, to));
        assert!(
            err.contains(&format!("lesson field `{field}`: ")),
            "{to}: want {field}: {err}"
        );
        assert!(err.contains("bad.json: "), "names the file: {err}");
    }
    let not_json = scenario_file("bad.json", b"{ \"lesson\": 1,");
    assert!(refused(&not_json).contains("not valid JSON"));
    let missing = election(&["lesson", "check", "no-such-lesson.json"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn run_json_reports_each_step_s_state_and_question() {
    let report = ok_json(&["lesson", "run", arg(&repo_file(WORKED)), "--json"]);
    assert_eq!(report["algorithm"], "bully");
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[0]["state"]["leader"], 4);
    assert_eq!(steps[1]["fault"], serde_json::json!({ "crash": 4 }));
    assert_eq!(steps[1]["view"], "spacetime");
    assert_eq!(steps[1]["state"]["nodes"][4]["alive"], false);
    assert_eq!(steps[2]["state"]["leaders"], serde_json::json!([3, 4]));
    assert_eq!(steps[0]["question"]["answer"], "n4");
    assert_eq!(steps[1]["question"]["kind"], "first_mover");
    assert_eq!(steps[1]["question"]["answer"], "n0");
    // The state is the run's at that moment, as `election run --at` reports it.
    let scenario = scenario_file(
        "s.json",
        br#"{"algorithm": "bully", "nodes": 5, "seed": 7, "until_ms": 3000,
             "faults": [{"at_ms": 1000, "crash": 4}, {"at_ms": 2000, "recover": 4}]}"#,
    );
    let at = ok_json(&[
        "run",
        "--scenario",
        arg(&scenario),
        "--at",
        "2000",
        "--json",
    ]);
    assert_eq!(steps[2]["state"]["messages_sent"], at["messages"]["sent"]);
    assert_eq!(
        steps[2]["state"]["election_messages"],
        at["messages"]["election"]
    );
    assert_eq!(steps[2]["state"]["leaders"], at["leaders"]);
    // Each question is `election quiz`'s at that moment, answer and all.
    for (i, kind) in [(0, "leader"), (1, "first_mover"), (2, "leader")] {
        let at = steps[i]["at_ms"].to_string();
        let quiz = ok_json(&[
            "quiz",
            "--scenario",
            arg(&scenario),
            "--json",
            "--at",
            &at,
            "--kind",
            kind,
        ]);
        assert_eq!(steps[i]["question"], quiz["questions"][0], "step {i}");
    }
    let text = ok(&["lesson", "run", arg(&repo_file(WORKED))]);
    assert!(
        text.contains("step 2 at 1000 ms  view spacetime  fault {\"crash\":4}"),
        "{text}"
    );
}

#[test]
fn the_link_round_trips() {
    let link = ok(&["lesson", "link", arg(&repo_file(WORKED))]);
    let link = link.trim();
    assert!(link.starts_with("#l=1."), "{link}");
    // Decoding is the core's (and the page's): the link's lesson is the file's.
    let lesson = election_core::lesson::Lesson::from_link(link).unwrap();
    let file = std::fs::read_to_string(repo_file(WORKED)).unwrap();
    assert_eq!(
        lesson,
        election_core::lesson::Lesson::from_json(&file).unwrap()
    );
    // Its canonical form checks and has the same link.
    let canonical = scenario_file("canonical.json", lesson.to_json_pretty().as_bytes());
    assert_eq!(ok(&["lesson", "link", arg(&canonical)]).trim(), link);
}

#[test]
fn html_lesson_carries_the_link_and_the_lesson_s_scenario() {
    let block = r#"<script type="application/json" id="standalone-scenario" data-at="" data-preset=""></script>"#;
    let template = scenario_file(
        "standalone.html",
        format!("<html><body>\n{block}\n</body></html>\n").as_bytes(),
    );
    let out = template.with_file_name("lesson.html");
    let said = ok(&[
        "html",
        "--lesson",
        arg(&repo_file(WORKED)),
        "--template",
        arg(&template),
        "-o",
        arg(&out),
    ]);
    assert!(
        said.contains("lesson \"Bully: crash the leader, then bring it back\" (3 steps)"),
        "{said}"
    );
    let page = std::fs::read_to_string(&out).unwrap();
    let link = ok(&["lesson", "link", arg(&repo_file(WORKED))]);
    let attr = format!(
        r#"data-at="" data-preset="" data-lesson="{}">"#,
        link.trim()
    );
    let (_, rest) = page.split_once(&attr).unwrap_or_else(|| panic!("{page}"));
    let json = rest.split_once("</script>").unwrap().0;
    let scenario: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        scenario["faults"],
        serde_json::json!([{"at_ms": 1000, "crash": 4}, {"at_ms": 2000, "recover": 4}])
    );
    // Scenario flags do not go with a lesson.
    let both = election(&[
        "html",
        "--lesson",
        arg(&repo_file(WORKED)),
        "--seed",
        "3",
        "--template",
        arg(&template),
        "-o",
        arg(&out),
    ]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn the_worked_lesson_in_the_docs_is_the_file() {
    let docs = std::fs::read_to_string(repo_file("docs/lessons.md")).unwrap();
    let (_, rest) = docs.split_once("```json\n").expect("a json block");
    let (block, _) = rest.split_once("```").unwrap();
    let file = std::fs::read_to_string(repo_file(WORKED)).unwrap();
    assert_eq!(block, file, "docs/lessons.md's worked lesson is {WORKED}");
}
