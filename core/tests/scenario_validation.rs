//! Bad scenarios get one clear error naming the field; good ones survive a
//! round trip through JSON and through a share link unchanged.

use election_core::ScenarioExt;
use election_core::scenario::{MAX_SCENARIO_BYTES, StartSet};
use election_core::{Scenario, share};

fn field_of(json: &str) -> String {
    match Scenario::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => {
            assert!(!e.message.is_empty());
            e.field
        }
    }
}

#[test]
fn errors_name_the_field() {
    let cases = [
        (r#"{"nodes": 0}"#, "nodes"),
        (r#"{"nodes": 1025}"#, "nodes"),
        (r#"{"nodes": "eight"}"#, "nodes"),
        (r#"{"nodes": 8.5}"#, "nodes"),
        (r#"{"seed": -1}"#, "seed"),
        (r#"{"algorithm": "paxos"}"#, "algorithm"),
        (r#"{"algorithm": 3}"#, "algorithm"),
        (r#"{"ring": "spiral"}"#, "ring"),
        (r#"{"start": "some"}"#, "start"),
        (r#"{"start": [9], "nodes": 4}"#, "start"),
        (r#"{"lantency_ms": [1, 2]}"#, "lantency_ms"),
        (r#"{"network": {"drop": 1.5}}"#, "network.drop"),
        (r#"{"network": {"duplicate": -0.1}}"#, "network.duplicate"),
        (
            r#"{"network": {"latency_ms": [10, 5]}}"#,
            "network.latency_ms",
        ),
        (
            r#"{"network": {"latency_ms": [1, "x"]}}"#,
            "network.latency_ms[1]",
        ),
        (r#"{"network": {"jitter": 1}}"#, "network.jitter"),
        (r#"{"timing": {"heartbeat_ms": 0}}"#, "timing.heartbeat_ms"),
        (
            r#"{"timing": {"election_timeout_ms": [-1, 5]}}"#,
            "timing.election_timeout_ms[0]",
        ),
        (r#"{"faults": {}}"#, "faults"),
        (r#"{"faults": [{"crash": 1}]}"#, "faults[0].at_ms"),
        (r#"{"faults": [{"at_ms": 1}]}"#, "faults[0]"),
        (
            r#"{"faults": [{"at_ms": 1, "crash": 1, "recover": 1}]}"#,
            "faults[0]",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "crash": "boss"}]}"#,
            "faults[0].crash",
        ),
        (
            r#"{"nodes": 4, "faults": [{"at_ms": 1, "crash": 4}]}"#,
            "faults[0].crash",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "pause": 1}]}"#,
            "faults[0].for_ms",
        ),
        (
            r#"{"faults": [{"at_ms": -5, "crash": 1}]}"#,
            "faults[0].at_ms",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "partition": [[0, 1], [1, 2]]}]}"#,
            "faults[0].partition",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "heal": false}]}"#,
            "faults[0].heal",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "cut": [2, 2]}]}"#,
            "faults[0].cut",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "flaky": 2, "period_ms": 100, "down_ms": 100}]}"#,
            "faults[0].down_ms",
        ),
        (
            r#"{"faults": [{"at_ms": 1, "crash": 1, "extra": 1}]}"#,
            "faults[0].extra",
        ),
        (r#"{"until_ms": 1e300}"#, "until_ms"),
        (r#"{"version": 2}"#, "version"),
        (r#"[1, 2]"#, ""),
        (r#"{"nodes": 8"#, ""),
    ];
    for (json, field) in cases {
        assert_eq!(field_of(json), field, "{json}");
    }
}

#[test]
fn deep_nesting_and_huge_input_are_refused_without_panicking() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(Scenario::from_json(&deep).is_err());
    let huge = format!(r#"{{"algorithm": "{}"}}"#, "x".repeat(MAX_SCENARIO_BYTES));
    let err = Scenario::from_json(&huge).unwrap_err();
    assert!(err.message.contains("limit"), "{err}");
}

#[test]
fn defaults_fill_missing_fields() {
    let s = Scenario::from_json("{}").unwrap();
    assert_eq!(s, Scenario::default());
    assert_eq!(s.start, StartSet::All);
}

#[test]
fn canonical_json_and_links_round_trip() {
    let text = r#"{"version":1,"algorithm":"chang-roberts","nodes":9,"seed":77,"ring":"random",
        "start":[0,4],"candidates":[5,8],"network":{"latency_ms":[1.5,9],"drop":0.1,"duplicate":0.2,"fifo":false},
        "timing":{"election_timeout_ms":[100,200],"heartbeat_ms":40,"reply_timeout_ms":60,"delta_ms":25,"lease_ms":900,"renew_deadline_ms":700,"retry_ms":150,"drift_bound":0.02,"session_timeout_ms":400,"write_ms":70},"fencing":false,"watch":"herd","pre_vote":true,"check_quorum":true,"leader_lease":true,
        "faults":[{"at_ms":10.25,"crash":"leader"},{"at_ms":20,"recover":3},
          {"at_ms":30,"pause":2,"for_ms":5},{"at_ms":0,"clock":1,"offset_ms":-2.5,"drift":0.01},
          {"at_ms":40,"partition":[[0,1],[2]]},{"at_ms":50,"heal":true},
          {"at_ms":60,"slow":4,"extra_ms":3},{"at_ms":70,"flaky":5,"period_ms":100,"down_ms":20},
          {"at_ms":80,"cut":[1,2]},{"at_ms":90,"uncut":[1,2]},
          {"at_ms":95,"network":{"latency_ms":[2,3],"drop":0,"duplicate":0}}],
        "until_ms":5000}"#;
    let s = Scenario::from_json(text).unwrap();
    let again = Scenario::from_json(&serde_json::to_string(&s.to_json()).unwrap()).unwrap();
    assert_eq!(again, s);
    assert_eq!(share::decode(&share::encode(&s)).unwrap(), s);
}
