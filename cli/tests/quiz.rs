//! `election quiz`: the questions of a run as a worksheet and as JSON,
//! with the same scenario inputs as `election run`; the time-0 answers
//! equal `run --json`'s figures; `run --json` carries the captions; bad
//! input names the flag or field.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};
use serde_json::json;

/// Eight Bully nodes all starting; the leader crashes at 20 s.
const CRASH: &str = r#"{"algorithm":"bully","nodes":8,"ring":"random","start":"all",
    "faults":[{"at_ms":20000,"crash":"leader"}]}"#;

#[test]
fn the_worksheet_lists_questions_then_the_answer_key() {
    let f = scenario_file("crash.json", CRASH.as_bytes());
    let text = ok(&["quiz", "--scenario", arg(&f)]);
    assert_eq!(
        text,
        "\
Quiz: bully, 8 nodes, seed 1

1. At 0 ms: Which node will become the leader?
   A) n0
   B) n5
   C) n6
   D) n7

2. At 20000 ms: Which node will start the election?
   A) n3
   B) n4
   C) n5
   D) n6

Answers
1. D) n7: n7 has the highest id of the live nodes.
2. B) n4: n4's failure-detector timer fires first, at 20,126 ms.
"
    );
}

#[test]
fn the_json_has_the_contract_keys_and_the_answer_among_the_choices() {
    let f = scenario_file("crash.json", CRASH.as_bytes());
    let v = ok_json(&["quiz", "--scenario", arg(&f), "--json"]);
    let questions = v["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 2);
    for q in questions {
        let keys: Vec<&String> = q.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["answer", "at_ms", "choices", "kind", "text", "why"]);
        assert!(q["choices"].as_array().unwrap().contains(&q["answer"]));
    }
    assert_eq!(questions[1]["kind"], "first_mover");
    assert_eq!(questions[1]["answer"], "n4");
}

#[test]
fn time_zero_answers_equal_run_json() {
    for (algorithm, seed) in [("bully", 2), ("raft", 4), ("chang-roberts", 3), ("zab", 1)] {
        let common = ["--algorithm", algorithm, "--nodes", "5", "--seed"];
        let seed = seed.to_string();
        let mut run = vec!["run"];
        run.extend(common);
        run.extend([seed.as_str(), "--json"]);
        let summary = ok_json(&run);
        let ask = |kind: &str| {
            let mut quiz = vec!["quiz"];
            quiz.extend(common);
            quiz.extend([seed.as_str(), "--json", "--at", "0", "--kind", kind]);
            ok_json(&quiz)["questions"][0].clone()
        };
        let leader = json!(format!("n{}", summary["leader"]));
        assert_eq!(ask("leader")["answer"], leader, "{algorithm}");
        assert_eq!(
            ask("election_messages")["answer"],
            summary["messages"]["election"],
            "{algorithm}"
        );
        let split = ask("split_brain")["answer"]
            .as_str()
            .unwrap()
            .starts_with("yes");
        assert_eq!(split, summary["split_brain_ms"].as_f64().unwrap() > 0.0);
        // The captions ride along in run --json, the first at 0.
        let captions = summary["captions"].as_array().unwrap();
        assert_eq!(captions[0]["at_ms"], 0.0);
        assert!(
            captions
                .iter()
                .all(|c| c["text"].as_str().is_some_and(|t| !t.is_empty()))
        );
    }
}

#[test]
fn run_json_captions_name_the_first_election_sender_after_the_crash() {
    let f = scenario_file("crash.json", CRASH.as_bytes());
    let v = ok_json(&["run", "--scenario", arg(&f), "--json", "--trace"]);
    let trace = v["trace"].as_array().unwrap();
    let crash = trace.iter().position(|e| e["type"] == "crash").unwrap();
    let sender = trace[crash..]
        .iter()
        .find(|e| e["type"] == "send" && e["kind"] == "ELECTION")
        .unwrap()["from"]
        .clone();
    let caption = v["captions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["at_ms"] == 20000.0)
        .unwrap();
    let text = caption["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("n7, the leader, has crashed. n{sender} ")),
        "{text}"
    );
}

#[test]
fn a_moment_with_no_election_after_it_asks_nothing() {
    let v = ok_json(&[
        "quiz",
        "--algorithm",
        "bully",
        "--nodes",
        "4",
        "--fault",
        r#"{"at_ms":1000,"crash":1}"#,
        "--json",
        "--at",
        "1000",
        "--kind",
        "leader",
    ]);
    assert_eq!(v, json!({"questions": []}));
}

fn bad(args: &[&str], expect: &str) {
    let out = election(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(expect), "{expect:?} not in {stderr}");
}

#[test]
fn bad_input_names_the_flag_or_field() {
    bad(
        &["quiz", "--at", "0", "--kind", "leeder"],
        "--kind leeder: not a question kind",
    );
    bad(&["quiz", "--kind", "leader"], "--at");
    bad(&["quiz", "--nodes", "0"], "nodes");
    let f = scenario_file(
        "bad.json",
        br#"{"algorithm":"bully","nodes":3,"faults":[{"at_ms":-1,"crash":0}]}"#,
    );
    bad(&["quiz", "--scenario", arg(&f)], "faults[0].at_ms");
}
