//! Scripted algorithms (core/algorithms/src/script/mod.rs, module docs): the
//! templates equal the built-in algorithms they copy, exact counts; the
//! contract's names work; a failing handler stops the run with one error
//! naming node, handler, line and time; runs are deterministic.
#![cfg(feature = "script")]

use election_core::ScenarioExt;
use election_core::script::templates;
use election_core::sim::{self, RunSummary};
use election_core::{Scenario, algorithms};
use serde_json::{Value, json};

/// `fields` with the script `source`.
fn scripted(source: &str, fields: Value) -> Scenario {
    let mut v = fields;
    v["algorithm"] = json!("script");
    v["script"] = json!(source);
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{e}"))
}

fn template(id: &str) -> &'static str {
    templates::find(id).unwrap().source
}

fn builtin(algorithm: &str, fields: Value) -> RunSummary {
    let mut v = fields;
    v["algorithm"] = json!(algorithm);
    sim::run(&Scenario::from_value(&v).unwrap())
}

/// The message counts with the kinds never sent left out (a script's
/// kinds are those it sent; a built-in lists all its kinds).
fn counts(s: &RunSummary) -> String {
    let mut m = s.messages.clone();
    let sent: Vec<(String, u64)> = m
        .by_kind
        .iter()
        .filter(|(_, c)| **c > 0)
        .map(|(k, c)| (k.clone(), *c))
        .collect();
    m.by_kind = Default::default();
    format!("{m:?} {sent:?}")
}

/// The notes (`ctx.log`) a run's trace holds, in order.
fn notes(sim: &dyn election_core::sim::Simulation) -> Vec<String> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.event {
            election_core::trace::Event::Note { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn kind(s: &RunSummary, k: &str) -> u64 {
    s.messages.by_kind.get(k).copied().unwrap_or(0)
}

#[test]
fn chang_roberts_template_gives_the_textbook_counts() {
    for n in [1u64, 2, 3, 5, 8, 13, 32] {
        for ring in ["ascending", "descending"] {
            let fields = json!({"nodes": n, "ring": ring, "start": "all"});
            let s = sim::run(&scripted(template("chang-roberts"), fields.clone()));
            let election = if ring == "ascending" {
                2 * n - 1
            } else {
                n * (n + 1) / 2
            };
            assert_eq!(kind(&s, "ELECTION"), election, "n={n} {ring}");
            assert_eq!(kind(&s, "ELECTED"), n, "n={n} {ring}");
            assert_eq!(s.leader, Some(n as u32 - 1));
            assert!(s.violations.is_empty() && s.settled && s.script_error.is_none());
            let b = builtin("chang-roberts", fields);
            assert_eq!(counts(&s), counts(&b), "n={n} {ring}");
            assert_eq!(
                (s.end_ms, s.elections, s.events),
                (b.end_ms, b.elections, b.events)
            );
        }
    }
}

#[test]
fn bully_template_counts_equal_the_builtin() {
    for fields in [
        json!({"nodes": 5, "start": "all"}),
        json!({"nodes": 8, "start": [0]}),
        json!({"nodes": 6, "start": [0], "faults": [{"at_ms": 600, "crash": "leader"}]}),
        json!({"nodes": 7, "start": "none", "seed": 4,
               "faults": [{"at_ms": 500, "crash": "leader"}, {"at_ms": 1500, "recover": 6}]}),
        json!({"nodes": 5, "start": "all", "seed": 9, "network": {"drop": 0.05},
               "faults": [{"at_ms": 400, "crash": "leader"}], "until_ms": 3000}),
    ] {
        let s = sim::run(&scripted(template("bully"), fields.clone()));
        let b = builtin("bully", fields.clone());
        assert!(s.script_error.is_none(), "{:?}", s.script_error);
        assert_eq!(counts(&s), counts(&b), "{fields}");
        assert_eq!(
            (s.leader, s.end_ms, s.elections, s.events, s.leader_changes),
            (b.leader, b.end_ms, b.elections, b.events, b.leader_changes),
            "{fields}"
        );
    }
}

/// The error a script run stops with.
fn error_of(source: &str) -> election_core::script::ScriptError {
    let s = sim::run(&scripted(source, json!({"nodes": 3})));
    s.script_error
        .expect("the run should stop with a script error")
}

#[test]
fn a_failing_handler_stops_the_run_naming_node_handler_line_and_time() {
    let e = error_of(
        "fn on_start(ctx) {\n    ctx.set_timer(\"tick\", 5 + ctx.id);\n}\nfn on_timer(ctx, name) {\n    let x = 1;\n    x.no_such_method();\n}\n",
    );
    assert_eq!((e.node, e.handler.as_deref()), (Some(0), Some("on_timer")));
    assert_eq!((e.line, e.column), (Some(6), Some(7)));
    assert_eq!(e.at_ms, Some(5.0));
    assert!(e.message.contains("no_such_method"), "{}", e.message);
    assert!(
        e.to_string()
            .starts_with("script error (node n0, in on_timer, line 6, column 7, at 5 ms): ")
    );

    // A type error.
    let e = error_of("fn on_start(ctx) {\n  let a = \"x\" - 1;\n}\n");
    assert_eq!((e.node, e.line, e.at_ms), (Some(0), Some(2), Some(0.0)));
    // A bad message.
    let e = error_of("fn on_start(ctx) { ctx.send(1, #{ id: 3 }); }");
    assert!(e.message.contains("needs a string `kind`"), "{}", e.message);
    let e = error_of("fn on_start(ctx) { ctx.send(7, #{ kind: \"X\" }); }");
    assert!(e.message.contains("no node 7"), "{}", e.message);
    // An error deep in a helper names the helper's line.
    let e = error_of("fn helper(ctx) {\n  ctx.nope();\n}\nfn on_start(ctx) {\n  helper(ctx);\n}\n");
    assert_eq!(e.line, Some(2));
}

#[test]
fn a_runaway_loop_ends_with_the_operation_budget_at_the_line_that_ran() {
    let started = std::time::Instant::now();
    // Issue 29, item 15: the error named the handler's `fn` line, not the
    // loop. A loop that reads variables stops at the line it was on.
    let e = error_of(
        "fn on_start(ctx) {\n  let i = 0;\n  for p in ctx.peers { i += p; }\n  while true {\n    i += 1;\n  }\n}\n",
    );
    assert_eq!((e.handler.as_deref(), e.line), (Some("on_start"), Some(5)));
    assert!(e.message.contains("operation budget"), "{}", e.message);
    // In a helper: the helper's line.
    let e = error_of(
        "fn spin(n) {\n  let i = 0;\n  while i < n {\n    i += 1;\n  }\n}\nfn on_start(ctx) {\n  spin(100000000);\n}\n",
    );
    assert_eq!(e.line, Some(4), "{e:?}");
    // A loop that reads nothing gives the interpreter no position: the
    // handler's only loop is named.
    let e = error_of("fn on_start(ctx) {\n  ctx.become_follower();\n  loop { }\n}\n");
    assert_eq!((e.handler.as_deref(), e.line), (Some("on_start"), Some(3)));
    assert!(e.message.contains("operation budget"), "{}", e.message);
    eprintln!("runaway loops stopped after {:?}", started.elapsed());
}

#[test]
fn state_that_grows_past_a_limit_says_which_limit_and_what_counts() {
    // Issue 29, item 14: a local array of 1,000 short strings said "Length
    // of string too large": the strings of one array count together.
    let e = error_of(
        "fn on_start(ctx) {\n  let names = [];\n  for i in 0..1000 {\n    names.push(`node number ${i} ok`);\n  }\n}\n",
    );
    assert!(
        e.message.starts_with("too much text in one value: a string, or all the strings in one array or map counted together, may hold 16384 bytes"),
        "{}",
        e.message
    );
    let e = error_of("fn on_start(ctx) {\n  let s = \"x\";\n  loop { s += s; }\n}\n");
    assert!(
        e.message.starts_with("too much text in one value"),
        "{}",
        e.message
    );
    let e = error_of("fn on_start(ctx) {\n  this.xs = [];\n  this.xs.pad(20000, 1);\n}\n");
    assert!(
        e.message.starts_with("an array grew past 10000 items"),
        "{}",
        e.message
    );
    let e = error_of("fn f(n) { f(n + 1) }\nfn on_start(ctx) { f(0); }\n");
    assert!(e.message.contains("nested deeper than 32"), "{}", e.message);
}

#[test]
fn syntax_errors_are_scenario_errors_naming_script_and_line() {
    let mut v = json!({"algorithm": "script", "script": "fn on_start(ctx) {\n  let x = ;\n}"});
    let e = Scenario::from_value(&v).unwrap_err();
    assert_eq!(e.field, "script");
    assert_eq!(e.script_at.map(|(l, _)| l), Some(2));
    assert!(e.message.starts_with("line 2, column"), "{}", e.message);
    v["script"] = json!("fn on_message(ctx, msg) { }");
    let e = Scenario::from_value(&v).unwrap_err();
    assert!(
        e.message.contains("on_message takes 3 parameters"),
        "{}",
        e.message
    );
    // Issue 29, item 18: a handler missing a parameter it uses was
    // reported as "Undefined variable: from".
    v["script"] =
        json!("fn on_start(ctx) { }\nfn on_message(ctx, msg) {\n  ctx.send(from, msg);\n}");
    let e = Scenario::from_value(&v).unwrap_err();
    assert_eq!(
        e.message,
        "line 2: on_message takes 3 parameters (ctx, from, msg), not 2 (ctx, msg)"
    );
    // No floats: a decimal number is said as such, not as "Expecting name
    // of a property".
    v["script"] = json!("fn on_start(ctx) {\n  ctx.set_timer(\"t\", 0.5);\n}");
    let e = Scenario::from_value(&v).unwrap_err();
    assert!(
        e.message.contains("scripts have no decimal numbers"),
        "{}",
        e.message
    );
    v["script"] = json!("fn helper() { }");
    assert!(
        Scenario::from_value(&v)
            .unwrap_err()
            .message
            .contains("defines none of")
    );
    v["script"] = json!("fn claims() { \"maybe\" }\nfn on_start(ctx) {}");
    assert!(
        Scenario::from_value(&v)
            .unwrap_err()
            .message
            .contains("classical")
    );
    // A variable never declared is caught before the run.
    v["script"] = json!("fn on_start(ctx) { y = 1; }");
    assert_eq!(Scenario::from_value(&v).unwrap_err().field, "script");
    // The source is required, bounded, and only for scripts.
    let e = Scenario::from_value(&json!({"algorithm": "script"})).unwrap_err();
    assert_eq!(e.field, "script");
    let big = format!("fn on_start(ctx) {{}}\n//{}", "x".repeat(40_000));
    let e = Scenario::from_value(&json!({"algorithm": "script", "script": big})).unwrap_err();
    assert!(e.message.contains("limit is 32768 bytes"), "{}", e.message);
    let e = Scenario::from_value(&json!({"algorithm": "bully", "script": "fn on_start(ctx) {}"}))
        .unwrap_err();
    assert_eq!(e.field, "script");
}

#[test]
fn the_contract_reads_and_does_what_it_says() {
    let source = r#"
        fn on_start(ctx) {
            this.seen = 0;
            if ctx.id == 0 {
                ctx.log(`n=${ctx.n} peers=${ctx.peers} next=${ctx.next} prev=${ctx.prev} starts=${ctx.starts}`);
                ctx.set_term(3);
                ctx.become_leader();
                ctx.broadcast(#{ kind: "HELLO", term: 3 });
                ctx.set_timer("heartbeat", 10);
            }
        }
        fn on_message(ctx, from, msg) {
            this.seen += 1;
            ctx.set_term(msg.term);
            ctx.vote(msg.term, from);
            ctx.become_follower(from);
        }
        fn on_timer(ctx, name) {
            ctx.broadcast(#{ kind: "PING", background: true, term: 3 });
            if ctx.now_ms < 30 { ctx.set_timer(name, 10); }
        }
    "#;
    let scenario = scripted(
        source,
        json!({"nodes": 4, "ring": "descending", "start": [0], "until_ms": 100}),
    );
    let s = sim::run(&scenario);
    assert!(s.script_error.is_none(), "{:?}", s.script_error);
    assert_eq!((s.leader, s.settled), (Some(0), true));
    assert_eq!(kind(&s, "HELLO"), 3);
    assert_eq!(kind(&s, "PING"), 9);
    assert_eq!((s.messages.election, s.messages.background), (3, 9));
    // The node views know the timer's class, the inspector the state.
    let mut sim = algorithms::build(&scenario, true);
    sim.run_until(15_000);
    let views = sim.node_views();
    assert_eq!(views[1].term, Some(3));
    assert_eq!(views[1].leader, Some(0));
    let class = views[0].next_timer.map(|t| t.class.name());
    assert_eq!(class, Some("heartbeat"));
    let inspect = sim.inspect(1);
    assert!(
        inspect.iter().any(|(k, v)| k == "seen" && v == "1"),
        "{inspect:?}"
    );
    let notes = notes(sim.as_ref());
    assert_eq!(notes, ["n=4 peers=[1, 2, 3] next=3 prev=1 starts=true"]);
}

#[test]
fn persist_survives_a_crash_and_this_does_not() {
    let source = r#"
        fn on_start(ctx) {
            let p = ctx.persist;
            p.boots = if p.boots == () { 1 } else { p.boots + 1 };
            ctx.persist = p;
            ctx.log(`boots=${ctx.persist.boots} this=${this} recovered=${ctx.recovered}`);
            this.x = 1;
            ctx.become_follower();
        }
    "#;
    let scenario = scripted(
        source,
        json!({"nodes": 2, "faults": [{"at_ms": 10, "crash": 1}, {"at_ms": 20, "recover": 1}],
               "until_ms": 30}),
    );
    let mut sim = algorithms::build(&scenario, true);
    sim.run_to_end();
    let notes: Vec<String> = sim
        .trace()
        .iter()
        .filter_map(|e| match &e.event {
            election_core::trace::Event::Note { node: 1, text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        notes,
        [
            "boots=1 this=#{} recovered=false",
            "boots=2 this=#{} recovered=true"
        ]
    );
}

#[test]
fn consensus_claims_are_checked_per_term() {
    // Every node leads term 1 on its timeout: two leaders of one term.
    let source = r#"
        fn claims() { "consensus" }
        fn on_start(ctx) { ctx.set_timer("election_timeout", 5 + ctx.id); }
        fn on_timer(ctx, name) { ctx.set_term(1); ctx.become_leader(); }
    "#;
    let s = sim::run(&scripted(source, json!({"nodes": 3, "until_ms": 50})));
    let props: Vec<&str> = s.violations.iter().map(|v| v.property.as_str()).collect();
    assert!(props.contains(&"one_leader_per_term"), "{props:?}");
}

#[test]
fn a_correct_step_down_is_never_a_violation() {
    // Issue 29, item 17: n0 leads term 1, then n1 leads term 2 and says
    // so; n0 adopts term 2 in the order the Raft exercise's hint gives
    // (ctx.set_term, then ctx.become_follower()). A higher term makes a
    // leader a follower at once (Raft's rule), so n0 is never leader of
    // term 2 and the checks see no second leader of it.
    let source = r#"
        fn claims() { "consensus" }
        fn on_start(ctx) {
            ctx.set_term(0);
            ctx.become_follower();
            if ctx.id == 0 { ctx.set_timer("first", 5); }
            if ctx.id == 1 { ctx.set_timer("second", 20); }
        }
        fn on_timer(ctx, name) {
            let t = if name == "first" { 1 } else { 2 };
            ctx.set_term(t);
            ctx.become_candidate();
            ctx.become_leader();
            ctx.broadcast(#{ kind: "LEADER", term: t });
        }
        fn on_message(ctx, from, msg) {
            if msg.term > ctx.term {
                ctx.set_term(msg.term);
                ctx.log(`role after set_term: ${ctx.role}`);
                ctx.become_follower();
            }
            if msg.term == ctx.term { ctx.become_follower(from); }
        }
    "#;
    let scenario = scripted(source, json!({"nodes": 3, "until_ms": 100}));
    let s = sim::run(&scenario);
    assert!(s.script_error.is_none(), "{:?}", s.script_error);
    assert_eq!(s.violations, vec![], "a correct step-down");
    assert_eq!(s.leaders, vec![1]);
    // n0 reads its new role at once.
    let mut sim = algorithms::build(&scenario, true);
    sim.run_to_end();
    let notes = notes(sim.as_ref());
    assert!(
        notes.iter().any(|n| n == "role after set_term: follower"),
        "{notes:?}"
    );
}

#[test]
fn a_scripted_run_is_the_same_twice_and_recording_changes_nothing() {
    for id in ["chang-roberts", "bully"] {
        let scenario = scripted(
            template(id),
            json!({"nodes": 9, "ring": "random", "seed": 77, "network": {"drop": 0.02, "duplicate": 0.02},
                   "faults": [{"at_ms": 700, "crash": "leader"}, {"at_ms": 1200, "recover": 8}],
                   "until_ms": 4000}),
        );
        let a = sim::run(&scenario);
        let b = sim::run(&scenario);
        assert_eq!(a, b);
        let mut recorded = algorithms::build(&scenario, true);
        recorded.run_to_end();
        assert_eq!(recorded.summary(), a);
        // Through the canonical JSON (a file, a link) and back.
        let again = Scenario::from_json(&scenario.to_json_pretty()).unwrap();
        assert_eq!(again, scenario);
        assert_eq!(sim::run(&again).trace_hash, a.trace_hash);
    }
}

#[test]
fn a_script_travels_in_a_share_link_within_its_limit() {
    let scenario = scripted(template("bully"), json!({"nodes": 5}));
    let link = election_core::share::encode(&scenario);
    assert_eq!(election_core::share::decode(&link).unwrap(), scenario);
    // A long script that deflates badly would make a link past the limit:
    // the error names the script.
    let mut x: u64 = 7;
    let mut noise = String::from("fn on_start(ctx) {}\n");
    while noise.len() < 32_000 {
        noise.push_str("// ");
        for _ in 0..60 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            noise.push(char::from(33 + (x >> 33) as u8 % 94));
        }
        noise.push('\n');
    }
    let e = Scenario::from_value(&json!({"algorithm": "script", "script": noise})).unwrap_err();
    assert_eq!(e.field, "script");
    assert!(e.message.contains("share link"), "{}", e.message);
}

#[test]
fn the_error_that_stops_a_run_is_known_before_playback_reaches_it() {
    // Issue 29, item 13: the lab said a runtime error only when playback
    // reached it. The run is deterministic: the session's end search
    // learns it, with or without `until_ms`, without moving the session.
    let misspelt = "fn on_start(ctx) {\n    ctx.set_timer(\"tick\", 150);\n}\nfn on_timer(ctx, name) {\n    ctx.brodcast(#{ kind: \"PING\" });\n}\n";
    for until in [None, Some(1000)] {
        let mut fields = json!({"nodes": 3});
        if let Some(ms) = until {
            fields["until_ms"] = json!(ms);
        }
        let mut session = election_core::session::Session::new(&scripted(misspelt, fields));
        let e = session
            .script_error_ahead()
            .cloned()
            .expect("the error ahead");
        assert_eq!(session.now_us(), 0, "{until:?}");
        assert_eq!(
            (e.node, e.handler.as_deref(), e.line, e.at_ms),
            (Some(0), Some("on_timer"), Some(5), Some(150.0)),
            "{until:?}"
        );
        assert!(e.message.contains("brodcast"), "{}", e.message);
        // The run ends there, and playing to it finds the same error.
        assert_eq!(session.end_us(), 150_000, "{until:?}");
        session.run_to_end();
        assert_eq!(session.sim().script_error(), Some(&e));
    }
    let mut fine = election_core::session::Session::new(&scripted(
        template("chang-roberts"),
        json!({"nodes": 4}),
    ));
    assert_eq!(fine.script_error_ahead(), None);
}
