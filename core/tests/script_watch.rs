//! What one handler call holds, watched while it runs
//! (core/algorithms/src/script/watch.rs): a value grown or nested in a loop
//! inside one call stops the run with a script error naming the limit, at
//! a point that depends only on the script (statement counts).
#![cfg(feature = "script")]

use election_core::sim;
use election_core::{Scenario, ScenarioExt};
use serde_json::json;

/// The error a script run on 2 nodes stops with.
fn error_of(source: &str) -> election_core::script::ScriptError {
    let v = json!({"algorithm": "script", "nodes": 2, "script": source});
    let s = sim::run(&Scenario::from_value(&v).unwrap_or_else(|e| panic!("{e}")));
    s.script_error
        .unwrap_or_else(|| panic!("the run should stop with a script error:\n{source}"))
}

/// A 9,000-item array `a`, then `body`, in `on_start`.
fn with_big_array(body: &str) -> String {
    format!("fn on_start(ctx) {{\n  let a = [];\n  a.pad(9000, 0);\n  {body}\n}}\n")
}

const HELD: &str = "the handler holds more than 16 MiB at once";

#[test]
fn a_value_grown_in_one_call_stops_at_the_limit_of_what_a_call_holds() {
    // Stored by index or key: the interpreter checks only the item.
    for body in [
        "let arr = []; arr.pad(9000, 0); for i in 0..9000 { arr[i] = a; }",
        "for k in 0..100000 { this[`k${k}`] = a; }",
        "let m = #{}; for k in 0..100000 { m[`k${k}`] = #{copy: a}; }",
        "let m = #{}; for k in 0..100000 { m[\"k\" + k] = a; }",
        "ctx.persist.x = 0; let p = ctx.persist; for k in 0..100000 { p[`k${k}`] = a; }",
    ] {
        let source = with_big_array(body);
        let e = error_of(&source);
        assert!(e.message.contains(HELD), "{source}\n{}", e.message);
        assert_eq!((e.node, e.line), (Some(0), Some(4)), "{source}");
    }
    // Pushed or appended: the interpreter's own check of the whole array.
    for body in [
        "let m = []; for k in 0..100000 { m.push(a); }",
        "let m = []; for k in 0..100000 { m += [a]; }",
    ] {
        let source = with_big_array(body);
        let e = error_of(&source);
        assert!(
            e.message.contains("an array grew past 10000 items"),
            "{source}\n{}",
            e.message
        );
    }
}

#[test]
fn values_grown_through_a_helper_stop_too() {
    // What grows is in the handler's scope; some measures fall in a
    // helper that cannot see it (its callers' bytes are added).
    let source = "fn copy(a) { let m = #{x: a}; let s = 0; for i in 0..5 { s += i; } m }\n\
                  fn on_start(ctx) {\n  let a = [];\n  for i in 0..9000 { a.push(i); }\n  \
                  let all = [];\n  all.pad(1000, 0);\n  \
                  for j in 0..1000 { all[j] = copy(a); }\n}\n";
    let e = error_of(source);
    assert!(e.message.contains(HELD), "{}", e.message);
}

#[test]
fn a_value_nested_in_a_loop_stops_at_the_state_depth() {
    for body in [
        "let b = []; for i in 0..1000000 { b = [b]; }",
        "let b = []; for i in 0..9000 { b = #{x: [b]}; }",
        "this.b = []; for i in 0..9000 { let b = this.b; this.b = [b]; }",
    ] {
        let source = with_big_array(body);
        let e = error_of(&source);
        assert!(
            e.message.contains("more than 32 levels deep"),
            "{source}\n{}",
            e.message
        );
    }
}

#[test]
fn where_a_call_stops_is_the_same_every_run() {
    let source = with_big_array("for k in 0..100000 { this[`k${k}`] = a; }");
    let e = error_of(&source);
    assert_eq!(e, error_of(&source));
}
