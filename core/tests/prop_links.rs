//! Share links (issue 6): any valid scenario encodes and decodes to itself
//! (and so to the same run, the same trace hash); the readable query
//! round-trips the fields it expresses; and a broken, tampered or oversized
//! link is refused with one message naming the problem, before any work
//! grows with its size. Lessons made from runs survive their `#l=` links.

use election_core::ScenarioExt;
mod strategy;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use election_core::lesson::{self, Lesson};
use election_core::scenario::query::{from_query_pairs, to_query};
use election_core::scenario::{MAX_SCENARIO_BYTES, RingOrder, StartSet};
use election_core::share::{self, MAX_LINK_CHARS};
use election_core::{Scenario, sim};
use proptest::prelude::*;
use strategy::{config, scenario};

fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A version-1 link carrying `bytes` as its inflated payload.
fn link_of(bytes: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(bytes, 9);
    format!("1.{}", URL_SAFE_NO_PAD.encode(packed))
}

proptest! {
    #![proptest_config(config())]

    /// Link round trip: scenario -> `#s=` link -> the same scenario, and
    /// the same run.
    #[test]
    fn any_scenario_survives_its_share_link(case in scenario(20)) {
        let s = Scenario::from_value(&case.0).expect("the strategy makes valid scenarios");
        let link = share::encode(&s);
        prop_assert!(link.starts_with("1."));
        prop_assert!(link.len() <= MAX_LINK_CHARS);
        let back = share::decode(&link).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(sim::run(&back).trace_hash, sim::run(&s).trace_hash);
        // Up to 20 faults on up to 12 nodes: short enough to paste anywhere.
        prop_assert!(link.len() < 2000, "{} characters", link.len());
    }

    /// Lessons (`#l=` links): any scenario made into a lesson
    /// (`lesson::from_run`, its faults moved into steps) survives its link
    /// and its JSON, and runs exactly as the scenario did.
    #[test]
    fn any_run_made_a_lesson_survives_its_link(case in scenario(20)) {
        let s = Scenario::from_value(&case.0).expect("the strategy makes valid scenarios");
        let lesson = lesson::from_run(&s);
        let link = lesson.link().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = Lesson::from_link(&link).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &lesson);
        let text = Lesson::from_json(&lesson.to_json_pretty()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&text, &lesson);
        prop_assert_eq!(sim::run(&back.scenario()).trace_hash, sim::run(&s).trace_hash);
    }

    /// The readable query expresses algorithm, nodes, seed, ring and start;
    /// any values of those round-trip.
    #[test]
    fn readable_query_round_trips(
        case in scenario(0),
        ring in 0usize..3,
        start in prop_oneof![
            Just(StartSet::All),
            Just(StartSet::None),
            proptest::collection::vec(0u32..2, 0..3).prop_map(StartSet::Ids),
        ],
    ) {
        let parsed = Scenario::from_value(&case.0).expect("valid");
        let s = Scenario {
            algorithm: parsed.algorithm,
            nodes: parsed.nodes,
            seed: parsed.seed,
            ring: [RingOrder::Ascending, RingOrder::Descending, RingOrder::Random][ring],
            start,
            ..Scenario::default()
        };
        let back = from_query_pairs(&pairs(&to_query(&s)))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, s);
    }

    /// Whatever the text, decoding answers (a scenario or one error about
    /// `s` or a scenario field) and never panics.
    #[test]
    fn arbitrary_text_never_panics(text in "(1\\.)?[A-Za-z0-9_=.!-]{0,200}") {
        if let Err(e) = share::decode(&text) {
            prop_assert!(!e.message.is_empty());
        }
        // A lesson link too: a lesson or one error naming `l` or a field.
        if let Err(e) = Lesson::from_link(&format!("#l={text}")) {
            prop_assert!(!e.message.is_empty());
        }
    }

    /// Whatever JSON a lesson file holds, reading it answers (a lesson or
    /// one error naming a field) and never panics.
    #[test]
    fn arbitrary_lesson_json_never_panics(
        steps in proptest::collection::vec(
            (
                prop_oneof![Just("-1".to_string()), (0u64..5000).prop_map(|t| t.to_string())],
                prop_oneof![Just(""), Just(r#", "fault": {"crash": 9}"#), Just(r#", "fault": {"heal": true}"#),
                            Just(r#", "question": {"kind": "leader"}"#), Just(r#", "question": {}"#),
                            Just(r#", "view": "log""#), Just(r#", "view": 3"#), Just(r#", "x": 1"#)],
            ),
            0..6,
        ),
        nodes in 0u32..6,
    ) {
        let steps: Vec<String> = steps
            .iter()
            .map(|(at, extra)| format!(r#"{{"at_ms": {at}, "text": "t"{extra}}}"#))
            .collect();
        let text = format!(
            r#"{{"lesson": 1, "title": "t", "scenario": {{"nodes": {nodes}, "until_ms": 4000}}, "steps": [{}]}}"#,
            steps.join(", ")
        );
        match Lesson::from_json(&text) {
            Ok(lesson) => prop_assert_eq!(Lesson::from_json(&lesson.to_json_pretty()).ok(), Some(lesson)),
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }
}

#[test]
fn hostile_numbers_in_readable_parameters_name_the_parameter() {
    let numeric = [
        "nodes",
        "seed",
        "until_ms",
        "latency_ms",
        "drop",
        "duplicate",
        "election_timeout_ms",
        "heartbeat_ms",
        "reply_timeout_ms",
        "delta_ms",
        "candidates",
        "start",
        "lease_ms",
        "renew_deadline_ms",
        "retry_ms",
        "drift_bound",
        "session_timeout_ms",
        "write_ms",
    ];
    let values = [
        "-1",
        "NaN",
        "Infinity",
        "-Infinity",
        "1e309",
        "99999999999999999999999",
        "0x10",
        "1,5,",
        "<img src=x onerror=alert(1)>",
        "\u{202e}5",
    ];
    for key in numeric {
        for value in values {
            let pair = vec![(key.to_string(), value.to_string())];
            let err = from_query_pairs(&pair).expect_err(&format!("{key}={value} is refused"));
            assert!(err.field.starts_with(key), "{key}={value}: {err}");
            assert!(
                !err.to_string().contains('\u{202e}'),
                "{key}={value}: {err}"
            );
        }
    }
}

#[test]
fn too_long_is_refused_before_decoding() {
    let link = format!("1.{}", "A".repeat(MAX_LINK_CHARS));
    let err = share::decode(&link).unwrap_err();
    assert_eq!(err.field, "s");
    assert_eq!(
        err.message,
        format!(
            "the link is {} characters long; the limit is {MAX_LINK_CHARS}",
            MAX_LINK_CHARS + 2
        )
    );
}

#[test]
fn a_zip_bomb_stops_at_the_limit() {
    // One byte past the inflate limit, compressed to a short link: the
    // decoder stops inflating at the limit instead of growing with it.
    let bomb = link_of(&vec![b' '; MAX_SCENARIO_BYTES + 1]);
    assert!(bomb.len() < MAX_LINK_CHARS, "{}", bomb.len());
    let err = share::decode(&bomb).unwrap_err();
    assert_eq!(err.field, "s");
    assert_eq!(
        err.message,
        format!(
            "is damaged or too large: it does not inflate to at most {MAX_SCENARIO_BYTES} bytes of scenario"
        )
    );
    // At the limit exactly, inflating works and the JSON parser answers.
    let full = link_of(&vec![b' '; MAX_SCENARIO_BYTES]);
    assert_eq!(share::decode(&full).unwrap_err().field, "");
}

#[test]
fn malformed_links_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "is not a scenario link (expected <version>.<data>)"),
        ("AAAA", "is not a scenario link (expected <version>.<data>)"),
        ("x.AAAA", "does not start with a format number"),
        ("9.AAAA", "uses link format 9; this build reads format 1"),
        ("1.!!!!", "is damaged: the data is not valid base64url"),
        (
            "1.AAAA",
            "is damaged or too large: it does not inflate to at most 65536 bytes of scenario",
        ),
    ];
    for (link, message) in cases {
        let err = share::decode(link).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.message.as_str()),
            ("s", *message),
            "{link:?}"
        );
    }
    let not_utf8 = share::decode(&link_of(&[0xff, 0xfe, b'{'])).unwrap_err();
    assert_eq!(not_utf8.message, "is damaged: not UTF-8 text");
    let not_json = share::decode(&link_of(b"{\"nodes\": ")).unwrap_err();
    assert!(not_json.message.starts_with("not valid JSON"), "{not_json}");
}

#[test]
fn valid_json_that_fails_validation_names_the_field() {
    for (json, field) in [
        (r#"{"nodes": 0}"#, "nodes"),
        (r#"{"algorithm": "<script>alert(1)</script>"}"#, "algorithm"),
        (
            r#"{"nodes": 4, "faults": [{"at_ms": 10, "crash": 9}]}"#,
            "faults[0].crash",
        ),
        (r#"{"seed": 1e400}"#, ""),
        (r#"{"until_ms": 1e300}"#, "until_ms"),
        (r#"{"network": {"drop": "NaN"}}"#, "network.drop"),
        (r#"{"lantency_ms": [1, 2]}"#, "lantency_ms"),
    ] {
        let err = share::decode(&link_of(json.as_bytes())).unwrap_err();
        assert_eq!(err.field, field, "{json}: {err}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));
    let err = share::decode(&link_of(deep.as_bytes())).unwrap_err();
    assert!(err.message.contains("recursion limit"), "{err}");
}
