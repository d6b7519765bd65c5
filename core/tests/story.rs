//! The story of a run (`election_core::story`): the answers of the time-0
//! questions equal `election run --json`'s summary for fault-free runs of
//! every algorithm over several seeds; after a Bully leader crash the
//! caption names the node that sends the first ELECTION of the trace;
//! moments and questions follow the module's rules; the same scenario
//! tells the same story.

use election_core::algorithms::{self, ALL};
use election_core::sim::run;
use election_core::story::{self, QuestionKind, story};
use election_core::trace::Event;
use election_core::{Scenario, ScenarioExt};
use serde_json::{Value, json};

fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).unwrap()
}

fn ask(s: &Scenario, at_ms: f64, kind: QuestionKind) -> story::Question {
    story::question_at(s, at_ms, kind).unwrap_or_else(|| panic!("{kind:?} at {at_ms}"))
}

#[test]
fn time_zero_answers_equal_the_run_summary_for_every_algorithm() {
    for entry in ALL.iter().filter(|e| !e.takes_script) {
        for seed in 1..=3 {
            let s = scenario(&format!(
                r#"{{"algorithm":"{}","nodes":5,"seed":{seed}}}"#,
                entry.id
            ));
            let summary = run(&s);
            let label = format!("{} seed {seed}", entry.id);
            let told = story(&s);
            let first = &told.questions[0];
            assert_eq!(
                (first.at_ms, first.kind),
                (0.0, QuestionKind::Leader),
                "{label}"
            );
            let leader = match summary.leader {
                Some(l) => json!(format!("n{l}")),
                None if summary.leaders.is_empty() => json!("none"),
                None => json!("no single leader"),
            };
            assert_eq!(first.answer, leader, "{label}");
            let messages = ask(&s, 0.0, QuestionKind::ElectionMessages);
            assert_eq!(messages.answer, json!(summary.messages.election), "{label}");
            let split = ask(&s, 0.0, QuestionKind::SplitBrain);
            let yes = split.answer.as_str().unwrap().starts_with("yes");
            assert_eq!(yes, summary.split_brain_ms > 0.0, "{label}");
            for kind in QuestionKind::ALL {
                let q = ask(&s, 0.0, kind);
                assert!((3..=4).contains(&q.choices.len()), "{label} {kind:?}");
                assert!(q.choices.contains(&q.answer), "{label} {kind:?}");
                assert!(!q.why.is_empty() && !q.text.is_empty());
            }
        }
    }
}

#[test]
fn a_partition_with_two_leaders_says_so() {
    let s = scenario(
        r#"{"algorithm":"bully","nodes":6,"seed":1,
            "faults":[{"at_ms":500,"partition":[[0,1,2],[3,4,5]]}],"until_ms":4000}"#,
    );
    let summary = run(&s);
    assert!(summary.split_brain_ms > 0.0);
    let told = story(&s);
    let q = told.questions.iter().find(|q| q.at_ms == 500.0).unwrap();
    assert_eq!(q.kind, QuestionKind::SplitBrain);
    assert!(q.answer.as_str().unwrap().starts_with("yes"), "{q:?}");
    let caption = told.captions.iter().find(|c| c.at_ms == 500.0).unwrap();
    assert!(
        caption.text.starts_with("The network splits into"),
        "{caption:?}"
    );
}

/// The first ELECTION sender after the first crash, from the trace the
/// CLI prints.
fn first_election_after_crash(s: &Scenario) -> (f64, u32, f64) {
    let mut sim = algorithms::build(s, true);
    sim.run_to_end();
    let trace = sim.trace();
    let crash = trace
        .iter()
        .position(|e| matches!(e.event, Event::Crash { .. }))
        .unwrap();
    let (at, from) = trace[crash..]
        .iter()
        .find_map(|e| match e.event {
            Event::Send {
                from,
                kind: "ELECTION",
                ..
            } => Some((e.at_us, from)),
            _ => None,
        })
        .unwrap();
    (trace[crash].at_us as f64 / 1000.0, from, at as f64 / 1000.0)
}

#[test]
fn after_a_bully_leader_crash_the_caption_names_the_first_election_sender() {
    for seed in 1..=6 {
        let s = scenario(&format!(
            r#"{{"algorithm":"bully","nodes":8,"seed":{seed},"start":"all",
                "faults":[{{"at_ms":2000,"crash":"leader"}}]}}"#
        ));
        let (crash_ms, sender, _) = first_election_after_crash(&s);
        let told = story(&s);
        let caption = told.captions.iter().find(|c| c.at_ms == crash_ms).unwrap();
        assert!(
            caption
                .text
                .starts_with(&format!("n7, the leader, has crashed. n{sender} ")),
            "seed {seed}: {}",
            caption.text
        );
        let q = ask(&s, crash_ms, QuestionKind::FirstMover);
        assert_eq!(q.answer, json!(format!("n{sender}")), "seed {seed}");
        // The leader after it is the highest live id, and the summary's.
        let leader = ask(&s, crash_ms, QuestionKind::Leader);
        assert_eq!(leader.answer, json!("n6"));
        assert_eq!(run(&s).leader, Some(6));
        assert_eq!(leader.why, "n6 has the highest id of the live nodes.");
    }
}

#[test]
fn the_default_crash_scenario_tells_its_story_exactly() {
    let s = scenario(
        r#"{"algorithm":"bully","nodes":8,"ring":"random","start":"all",
            "faults":[{"at_ms":20000,"crash":"leader"}]}"#,
    );
    let told = story(&s);
    let texts: Vec<(f64, &str)> = told
        .captions
        .iter()
        .map(|c| (c.at_ms, c.text.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (
                0.0,
                "All 8 nodes start an election at once. In Bully the highest live id wins, so n7 will lead."
            ),
            (
                9.954,
                "n7 leads and all 7 other live nodes follow it. Only background traffic until 20,000 ms, when n7 crashes."
            ),
            (
                20000.0,
                "n7, the leader, has crashed. n4 has heard nothing from it since 19,959 ms; its failure-detector timer fires at 20,126 ms and it starts an election."
            ),
            (
                20126.377,
                "n4 starts an election: it sends ELECTION to every higher id. n6 is the highest live id and takes over at 20,279 ms."
            ),
            (
                20279.31,
                "n6 is the leader: the highest live id wins, and it tells the others with COORDINATOR."
            ),
            (
                20288.347,
                "n6 leads and all 6 other live nodes follow it. The election is over; only background traffic follows."
            ),
        ]
    );
    let (_, sender, _) = first_election_after_crash(&s);
    assert_eq!(sender, 4);
    let kinds: Vec<(f64, QuestionKind, Value)> = told
        .questions
        .iter()
        .map(|q| (q.at_ms, q.kind, q.answer.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (0.0, QuestionKind::Leader, json!("n7")),
            (20000.0, QuestionKind::FirstMover, json!("n4")),
        ]
    );
    // Between the run's settling at 0 and the crash nothing but
    // heartbeats moves: no moment between the last at the start and 20 s.
    let quiet: Vec<f64> = told
        .moments_ms
        .iter()
        .copied()
        .filter(|m| *m > 100.0 && *m < 20000.0)
        .collect();
    assert_eq!(quiet, Vec::<f64>::new());
    assert!(told.moments_ms.contains(&20000.0) && told.moments_ms.contains(&20126.377));
}

#[test]
fn no_question_where_no_election_follows() {
    // A follower's crash starts no election in Bully.
    let s =
        scenario(r#"{"algorithm":"bully","nodes":5,"seed":1,"faults":[{"at_ms":1000,"crash":1}]}"#);
    let told = story(&s);
    assert_eq!(told.questions.len(), 1, "{:?}", told.questions);
    assert_eq!(story::question_at(&s, 1000.0, QuestionKind::Leader), None);
    let caption = told.captions.iter().find(|c| c.at_ms == 1000.0).unwrap();
    assert_eq!(
        caption.text,
        "n1 has crashed. It was not the leader: n4 still leads."
    );
}

#[test]
fn the_same_scenario_tells_the_same_story() {
    for text in [
        r#"{"algorithm":"raft","nodes":5,"seed":7,"faults":[{"at_ms":1500,"crash":2},{"at_ms":3000,"recover":2}]}"#,
        r#"{"algorithm":"chang-roberts","nodes":6,"seed":3,"ring":"random"}"#,
        r#"{"algorithm":"zab","nodes":5,"seed":2,"faults":[{"at_ms":800,"partition":[[0,1],[2,3,4]]},{"at_ms":2000,"heal":true}]}"#,
    ] {
        let s = scenario(text);
        assert_eq!(story(&s), story(&s), "{text}");
        let json = serde_json::to_value(story(&s)).unwrap();
        assert!(json["captions"][0]["at_ms"] == json!(0.0));
    }
}

#[test]
fn raft_captions_count_the_votes_of_the_new_leader() {
    let s = scenario(r#"{"algorithm":"raft","nodes":5,"seed":1}"#);
    let told = story(&s);
    let lead = told
        .captions
        .iter()
        .find(|c| c.text.contains("a majority"))
        .unwrap();
    // Every server stands at time 0: term 1 splits, n0 wins term 2 with
    // the third vote it receives.
    assert_eq!(
        lead.text,
        "n0 has 3 of 5 votes: a majority. It leads term 2."
    );
    assert_eq!(
        told.captions[0].text,
        "All 5 servers stand for election at once, so the first votes split; n0 will lead from 163 ms."
    );
}
