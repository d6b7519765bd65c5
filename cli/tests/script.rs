//! Scripted algorithms on the command line (issue 18's done-when checks):
//! `election run --script` with the Chang-Roberts template reproduces the
//! built-in's exact counts; an endless loop ends with the named error and
//! exit code 2; `election check --script` finds and shrinks a failure of
//! a broken script to a scenario that replays it; compare and sweep take
//! `script` beside built-in ids; `election templates`.

mod common;
use common::{arg, election, ok, ok_json, scenario_file};
use serde_json::Value;

fn kind(v: &Value, k: &str) -> u64 {
    v["messages"]["by_kind"][k].as_u64().unwrap_or(0)
}

#[test]
fn the_chang_roberts_template_reproduces_the_builtin_counts() {
    for n in [3u64, 8, 16] {
        for ring in ["ascending", "descending"] {
            let nodes = n.to_string();
            let common = [
                "--nodes", &nodes, "--ring", ring, "--start", "all", "--json",
            ];
            let mut script = vec!["run", "--script", "template:chang-roberts"];
            script.extend(common);
            let mut builtin = vec!["run", "--algorithm", "chang-roberts"];
            builtin.extend(common);
            let (s, b) = (ok_json(&script), ok_json(&builtin));
            let election = if ring == "ascending" {
                2 * n - 1
            } else {
                n * (n + 1) / 2
            };
            assert_eq!(kind(&s, "ELECTION"), election, "n={n} {ring}");
            assert_eq!(kind(&s, "ELECTED"), n, "n={n} {ring}");
            for k in ["ELECTION", "ELECTED", "HEARTBEAT"] {
                assert_eq!(kind(&s, k), kind(&b, k), "n={n} {ring} {k}");
            }
            for field in ["leader", "end_ms", "events", "elections"] {
                assert_eq!(s[field], b[field], "n={n} {ring} {field}");
            }
            assert_eq!(s["algorithm"], "script");
            assert!(s.get("script_error").is_none());
        }
    }
}

#[test]
fn an_endless_loop_ends_with_the_named_error_and_exit_code_2() {
    let file = scenario_file(
        "loop.rhai",
        b"fn on_start(ctx) {\n    ctx.set_timer(\"election\", 10);\n}\nfn on_timer(ctx, name) {\n    let i = 0;\n    loop { i += 1; }\n}\n",
    );
    let started = std::time::Instant::now();
    let out = election(&["run", "--script", arg(&file), "--json"]);
    eprintln!("endless loop: the run ended after {:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    assert!(
        // The loop's line, where the budget ran out (issue 29, item 15).
        stderr.starts_with("error: script error (node n0, in on_timer, line 6, column 12, at 10 ms): ran past the operation budget"),
        "{stderr}"
    );
    // The JSON still comes out, with the error as an object.
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &v["script_error"];
    assert_eq!(
        (&e["node"], &e["handler"], &e["line"], &e["at_ms"]),
        (
            &Value::from(0),
            &Value::from("on_timer"),
            &Value::from(6),
            &Value::from(10.0)
        )
    );
    assert!(e["message"].as_str().unwrap().contains("operation budget"));
}

#[test]
fn script_problems_are_one_message_naming_the_script() {
    let bad = scenario_file("bad.rhai", b"fn on_start(ctx) {\n  let = 3;\n}\n");
    let out = election(&["run", "--script", arg(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("scenario field `script`: line 2, column"),
        "{stderr}"
    );
    let out = election(&["run", "--script", "template:nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("known: chang-roberts"));
    let out = election(&["run", "--script", "/no/such/file.rhai"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--script: cannot open"));
    let big = scenario_file("big.rhai", &vec![b'/'; 40_000]);
    let out = election(&["run", "--script", arg(&big)]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("limit of 32768 bytes"));
}

#[test]
fn check_finds_and_shrinks_a_broken_script_to_a_scenario_that_replays_it() {
    let broken = scenario_file(
        "broken.rhai",
        b"// Each node declares itself leader when its timer fires.\n\
          fn on_start(ctx) { ctx.set_timer(\"election_timeout\", ctx.random(150, 300)); }\n\
          fn on_timer(ctx, name) { ctx.become_leader(); }\n",
    );
    let out = election(&[
        "check",
        "--script",
        arg(&broken),
        "--seeds",
        "1..10",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "a failure was found");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["failures"], 10);
    let c = &v["counterexample"];
    assert_eq!(c["property"], "one_leader_per_component");
    let scenario = &c["scenario"];
    assert_eq!(scenario["algorithm"], "script");
    assert_eq!(scenario["nodes"], 2, "shrunk to two nodes");
    assert_eq!(
        scenario["faults"],
        Value::Array(vec![]),
        "shrunk to no fault"
    );
    assert!(
        scenario["script"]
            .as_str()
            .unwrap()
            .contains("become_leader")
    );
    assert!(c["link"].as_str().unwrap().contains("#s=1."));
    // Replaying the counterexample shows the violation.
    let file = scenario_file("cx.json", scenario.to_string().as_bytes());
    let run = ok_json(&["run", "--scenario", arg(&file), "--json"]);
    let props: Vec<&str> = run["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["property"].as_str().unwrap())
        .collect();
    assert_eq!(props, ["one_leader_per_component"]);
    assert_eq!(run["violations"][0]["at_ms"], c["at_ms"]);
}

#[test]
fn compare_and_sweep_take_script_beside_builtin_ids() {
    let v = ok_json(&[
        "compare",
        "--script",
        "template:bully",
        "--algorithms",
        "script,bully",
        "--nodes",
        "6",
        "--fault",
        r#"{"at_ms": 600, "crash": "leader"}"#,
        "--start",
        "0",
        "--json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["algorithm"], "script");
    assert_eq!(rows[0]["election_messages"], rows[1]["election_messages"]);
    let v = ok_json(&[
        "sweep",
        "--script",
        "template:chang-roberts",
        "--algorithms",
        "script,chang-roberts",
        "--seeds",
        "1..3",
        "--json",
    ]);
    let text = v.to_string();
    assert!(text.contains("\"script\""), "{text}");
    // A script that fails stops that run; the table is printed, then one
    // message, exit code 2.
    let bad = scenario_file("bad.rhai", b"fn on_start(ctx) {\n  ctx.nope();\n}\n");
    let out = election(&[
        "compare",
        "--script",
        arg(&bad),
        "--algorithms",
        "script,bully",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: seed 1: script error (node n0, in on_start, line 2"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("bully"));
    // `script` needs a script.
    let out = election(&["compare", "--algorithms", "script,bully", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`script`"));
}

#[test]
fn templates_list_show_and_json() {
    let text = ok(&["templates"]);
    for id in [
        "chang-roberts",
        "bully",
        "ring-exercise",
        "bully-exercise",
        "raft-exercise",
    ] {
        assert!(text.contains(id), "{text}");
    }
    assert!(ok(&["templates", "bully"]).contains("fn on_message(ctx, from, msg)"));
    let v = ok_json(&["templates", "--json"]);
    let first = &v.as_array().unwrap()[0];
    for key in ["id", "name", "kind", "description", "scenario", "source"] {
        assert!(first.get(key).is_some(), "{key}");
    }
    // Every exercise runs as it is (it elects nobody, but fails nowhere).
    for id in ["ring-exercise", "bully-exercise", "raft-exercise"] {
        let spec = format!("template:{id}");
        let v = ok_json(&["run", "--script", &spec, "--until-ms", "2000", "--json"]);
        assert!(v.get("script_error").is_none(), "{id}: {v}");
    }
}

#[test]
fn a_sweep_counts_the_runs_a_script_error_stopped_and_exits_2() {
    // Node 0 fails on some seeds only (its seeded draw), so a sweep has
    // runs of both kinds; `election run` on each seed is the oracle.
    let file = scenario_file(
        "sometimes.rhai",
        b"fn on_start(ctx) {\n    if ctx.id == 0 && ctx.random(0, 2) == 0 {\n        let x = ();\n        x.missing();\n    }\n    ctx.become_leader();\n}\nfn on_message(ctx, from, msg) {}\nfn on_timer(ctx, name) {}\n",
    );
    let stopped: Vec<u64> = (1..=8u64)
        .filter(|seed| {
            let seed = seed.to_string();
            let out = election(&[
                "run",
                "--script",
                arg(&file),
                "--nodes",
                "3",
                "--seed",
                &seed,
            ]);
            out.status.code() == Some(2)
        })
        .collect();
    assert!(
        !stopped.is_empty() && stopped.len() < 8,
        "the script must fail on some of seeds 1..8, not all: {stopped:?}"
    );
    let sweep = |format: &[&str]| {
        let mut args = vec![
            "sweep",
            "--script",
            arg(&file),
            "--nodes",
            "3",
            "--seeds",
            "1..8",
        ];
        args.extend(format);
        election(&args)
    };

    let out = sweep(&["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    let first = format!(
        "the first, seed {}: script error (node n0, in on_start, line 4",
        stopped[0]
    );
    assert!(
        stderr.starts_with(&format!(
            "error: {} of 8 runs stopped by a script error; ",
            stopped.len()
        )) && stderr.contains(&first),
        "{stderr}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["script_errors"], Value::from(stopped.len()));
    assert!(
        v["first_script_error"]
            .as_str()
            .unwrap()
            .starts_with(&format!("seed {}: ", stopped[0]))
    );

    let out = sweep(&["--csv"]);
    assert_eq!(out.status.code(), Some(2));
    let csv = String::from_utf8_lossy(&out.stdout);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().contains(",trace_hash,script_error"));
    for (seed, line) in (1..=8u64).zip(lines) {
        assert_eq!(
            line.contains("script error (node n0"),
            stopped.contains(&seed),
            "seed {seed}: {line}"
        );
    }

    let out = sweep(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "runs stopped by a script error  {}",
            stopped.len()
        )),
        "{text}"
    );

    // A built-in's sweep has no such column or key.
    let builtin = [
        "sweep",
        "--algorithm",
        "bully",
        "--nodes",
        "3",
        "--seeds",
        "1..2",
    ];
    let csv = ok(&[&builtin[..], &["--csv"]].concat());
    assert!(!csv.contains("script_error"), "{csv}");
    let v = ok_json(&[&builtin[..], &["--json"]].concat());
    assert!(v.get("script_errors").is_none() && v.get("first_script_error").is_none());
}

/// A fixture script of `tests/scripts/` (the Raft exercise solved, and
/// with a bug).
fn fixture(name: &str) -> String {
    format!("{}/../tests/scripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_solved_raft_exercise_passes_check_its_step_down_is_no_violation() {
    // Issue 29, item 17: the exercise's hint adopts a higher term with
    // ctx.set_term, then ctx.become_follower(); done so, a leader was
    // leader of the new term for an instant, and 25 of these 100 seeds
    // failed one_leader_per_term.
    let file = fixture("raft.rhai");
    let v = ok_json(&["check", "--script", &file, "--seeds", "1..100", "--json"]);
    assert_eq!(v["failures"], 0, "{v}");
    assert_eq!(v["counterexample"], Value::Null);
    // The exercise's own scenario: one leader, a new one after the crash.
    let run = ok_json(&[
        "run",
        "--script",
        &file,
        "--nodes",
        "5",
        "--start",
        "none",
        "--fault",
        r#"{"at_ms": 800, "crash": "leader"}"#,
        "--json",
    ]);
    assert!(run["violations"].as_array().unwrap().is_empty(), "{run}");
    assert!(run["leader"].is_u64(), "{run}");
}

#[test]
fn a_double_vote_shrinks_to_at_most_3_nodes_and_1_fault_for_every_seed_range() {
    // Issue 29, item 19: seeds 3001..3100 shrank to 6 nodes, a partition
    // and term 33; other seeds to 2 nodes and no fault.
    let file = fixture("raft-double-vote.rhai");
    let all = "crash,recover,pause,clock,partition,heal,slow,flaky,cut,network";
    let mut first_report = None;
    // Partitions only: the plain shrink's fixed latency made two
    // candidates at once rare, and the search stopped at 3 nodes until it
    // ran on the schedule's own network.
    for (seeds, kinds) in [
        ("3001..3100", all),
        ("1..100", all),
        ("3001..3100", "partition"),
    ] {
        let out = election(&[
            "check", "--script", &file, "--seeds", seeds, "--faults", kinds, "--json",
        ]);
        assert_eq!(out.status.code(), Some(1), "{seeds}: a failure was found");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        first_report.get_or_insert(out.stdout.clone());
        let c = &v["counterexample"];
        let scenario = &c["scenario"];
        let nodes = scenario["nodes"].as_u64().unwrap();
        let faults = scenario["faults"].as_array().unwrap().len();
        eprintln!(
            "{seeds} {kinds}: {} failed; {} at {} ms, {nodes} nodes, {faults} faults, scenario seed {}; {}",
            v["failures"], c["property"], c["at_ms"], scenario["seed"], c["tried"]
        );
        assert!(nodes <= 3 && faults <= 1, "{seeds} {kinds}: {c}");
        // In fact the smallest: two nodes, no fault.
        assert_eq!((nodes, faults), (2, 0), "{seeds} {kinds}: {c}");
        assert!(c["tried"].as_str().unwrap().contains("40 seeds"), "{c}");
        // The counterexample replays: its property at its time.
        let replay = scenario_file("cx.json", scenario.to_string().as_bytes());
        let run = ok_json(&["run", "--scenario", arg(&replay), "--json"]);
        let first = run["violations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["property"] == c["property"])
            .unwrap_or_else(|| panic!("{seeds}: {run}"));
        assert_eq!(first["at_ms"], c["at_ms"], "{seeds}");
    }
    // Deterministic: the same input, the same counterexample, on one
    // thread as on every core (the loop's first run).
    let once = election(&[
        "check",
        "--script",
        &file,
        "--seeds",
        "3001..3100",
        "--faults",
        all,
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(Some(once.stdout), first_report);
    // The readable report says what was tried.
    let out = election(&["check", "--script", &file, "--seeds", "3001..3100"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shrunk to 2 nodes and 0 faults (the scenario's seed ")
            && text.contains(
                "; tried 1..2 nodes, 40 seeds and 2 start sets (every node, nobody) each: "
            ),
        "{text}"
    );
}

#[test]
fn run_link_of_a_script_prints_the_share_link_not_a_query_the_page_refuses() {
    // Issue 29, item 18: `?algorithm=script...` cannot carry the script.
    let file = fixture("raft.rhai");
    let text = ok(&["run", "--script", &file, "--link"]);
    assert!(text.contains("share link  #s=1."), "{text}");
    assert!(!text.contains("?algorithm=script"), "{text}");
    let v = ok_json(&["run", "--script", &file, "--link", "--json"]);
    assert!(v["link"]["fragment"].as_str().unwrap().starts_with("#s=1."));
    assert!(v["link"].get("query").is_none(), "{}", v["link"]);
    // A built-in still gets both.
    let v = ok_json(&["run", "--algorithm", "bully", "--link", "--json"]);
    assert!(
        v["link"]["query"]
            .as_str()
            .unwrap()
            .starts_with("?algorithm=bully")
    );
}
