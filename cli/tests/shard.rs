//! `--shard K/N` and `election merge`: for `sweep`, `check`,
//! `fuzz-faults` and `tradeoffs`, the merged shard reports print exactly
//! what the unsharded run prints (stdout byte for byte, stderr and exit
//! code too), for several N (also more slices than work units), shards
//! given in any order and run with different `--threads`; four shards
//! through GNU parallel; and every refusal, with its message.

mod common;
use common::{arg, election, scenario_file};
use std::path::PathBuf;
use std::process::Output;

/// What a run printed and how it ended.
fn outcome(out: &Output) -> (String, String, Option<i32>) {
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code(),
    )
}

/// Runs slice K of `n` of `args` for every K, writes each shard report
/// to a file, and returns the files in a shuffled order (a fixed
/// permutation: odd K first, descending, then even K ascending).
fn shards(args: &[&str], n: u64) -> Vec<PathBuf> {
    let dir = scenario_file("unused", b"")
        .parent()
        .expect("temp dir")
        .to_path_buf();
    let mut order: Vec<u64> = (1..=n).filter(|k| k % 2 == 1).rev().collect();
    order.extend((1..=n).filter(|k| k % 2 == 0));
    order
        .into_iter()
        .map(|k| {
            let slice = format!("{k}/{n}");
            let threads = (1 + k % 3).to_string();
            let mut a = args.to_vec();
            a.extend(["--shard", &slice, "--threads", &threads]);
            let out = election(&a);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{a:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let path = dir.join(format!("shard-{k}.json"));
            std::fs::write(&path, &out.stdout).expect("write shard");
            path
        })
        .collect()
}

/// `election merge FILES... extra...`.
fn merge(files: &[PathBuf], extra: &[&str]) -> Output {
    let mut a = vec!["merge"];
    a.extend(files.iter().map(|f| arg(f)));
    a.extend(extra);
    election(&a)
}

/// Asserts that sharding `args` into each of `ns` slices and merging
/// gives exactly the unsharded run's output, stderr and exit code.
fn merges_to_unsharded(args: &[&str], ns: &[u64]) -> (String, String, Option<i32>) {
    let whole = outcome(&election(args));
    assert!(!whole.0.is_empty(), "{args:?} printed nothing: {}", whole.1);
    for &n in ns {
        let merged = outcome(&merge(&shards(args, n), &[]));
        assert_eq!(merged, whole, "{args:?} in {n} shards");
    }
    whole
}

/// Stderr of a run refused as bad input (exit code 2, no panic).
fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    stderr
}

#[test]
fn sweep_json_table_and_csv_merge_to_the_unsharded_output() {
    for format in [&["--json"][..], &[], &["--csv"]] {
        let mut args = vec!["sweep", "--seeds", "3..14", "--drop", "0.1"];
        args.extend(format);
        merges_to_unsharded(&args, &[1, 2, 5, 12, 30]);
    }
}

#[test]
fn grouped_sweeps_and_built_in_experiments_merge_to_the_unsharded_output() {
    for format in [&["--json"][..], &[]] {
        let mut args = vec![
            "sweep",
            "--seeds",
            "1..4",
            "--algorithms",
            "raft,bully",
            "--param",
            "nodes=3,5",
        ];
        args.extend(format);
        merges_to_unsharded(&args, &[3, 16, 40]);
    }
    merges_to_unsharded(
        &[
            "sweep",
            "--experiment",
            "raft-fig16",
            "--seeds",
            "1..2",
            "--json",
        ],
        &[4, 13],
    );
}

#[test]
fn a_scripted_sweep_and_a_scenario_file_travel_in_the_job() {
    let file = scenario_file(
        "five.json",
        br#"{"algorithm": "raft", "nodes": 5, "faults": [{"at_ms": 400, "crash": "leader"}]}"#,
    );
    merges_to_unsharded(
        &[
            "sweep",
            "--scenario",
            arg(&file),
            "--seeds",
            "1..6",
            "--json",
        ],
        &[4],
    );
    merges_to_unsharded(
        &["sweep", "--script", "template:bully", "--seeds", "1..5"],
        &[2, 9],
    );
}

#[test]
fn a_sweep_some_script_errors_stopped_merges_to_its_report_and_exit_2() {
    // Node 0 fails on some seeds only (cli/tests/script.rs has the same).
    let file = scenario_file(
        "sometimes.rhai",
        b"fn on_start(ctx) {\n    if ctx.id == 0 && ctx.random(0, 2) == 0 {\n        let x = ();\n        x.missing();\n    }\n    ctx.become_leader();\n}\nfn on_message(ctx, from, msg) {}\nfn on_timer(ctx, name) {}\n",
    );
    for format in [&["--json"][..], &[]] {
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
        let (_, err, code) = merges_to_unsharded(&args, &[3, 8]);
        assert_eq!(code, Some(2));
        assert!(err.contains("stopped by a script error"), "{err}");
    }
}

#[test]
fn check_merges_to_the_counterexample_of_the_lowest_failing_seed() {
    // Bully splits under a partition: every seed fails; exit 1, the
    // lowest seed shrunk.
    for format in [&["--json"][..], &[]] {
        let mut args = vec![
            "check",
            "--algorithm",
            "bully",
            "--faults",
            "partition",
            "--seeds",
            "1..9",
        ];
        args.extend(format);
        let (out, err, code) = merges_to_unsharded(&args, &[1, 4, 20]);
        assert_eq!(code, Some(1), "{err}");
        assert!(out.contains("split") && err.contains("9 of 9 runs failed"));
    }
    // One failure, in the middle of the seeds: only one shard sees it.
    let (out, _, code) = merges_to_unsharded(
        &[
            "check",
            "--script",
            "template:bully",
            "--faults",
            "crash",
            "--seeds",
            "1..20",
            "--json",
        ],
        &[3, 7],
    );
    assert_eq!(code, Some(1));
    assert!(out.contains("\"seed\": 9"), "{out}");
    // No failure: exit 0.
    let (_, _, code) = merges_to_unsharded(
        &[
            "check",
            "--algorithm",
            "raft",
            "--faults",
            "crash,partition",
            "--liveness-ms",
            "3000",
            "--seeds",
            "1..8",
            "--json",
        ],
        &[3],
    );
    assert_eq!(code, Some(0));
}

#[test]
fn fuzz_faults_merges_to_the_unsharded_report() {
    for format in [&["--json"][..], &[]] {
        let mut args = vec!["fuzz-faults", "--seeds", "1..24"];
        args.extend(format);
        merges_to_unsharded(&args, &[2, 5, 40]);
    }
    merges_to_unsharded(
        &[
            "fuzz-faults",
            "--algorithm",
            "raft",
            "--seeds",
            "5..16",
            "--json",
        ],
        &[3],
    );
}

#[test]
fn tradeoffs_json_and_markdown_merge_to_the_unsharded_table() {
    for format in [
        &["--json"][..],
        &[],
        &["--link-base", "https://example.org/e/"],
    ] {
        let mut args = vec![
            "tradeoffs",
            "--nodes",
            "4,8",
            "--seeds",
            "1..1",
            "--partition-schedules",
            "5",
        ];
        args.extend(format);
        merges_to_unsharded(&args, &[1, 3, 40]);
    }
}

#[test]
fn four_shards_through_gnu_parallel_merge_to_the_single_run() {
    let found = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        println!("skipped: GNU parallel is not installed (scripts/setup.sh installs it)");
        return;
    }
    let dir = scenario_file("unused", b"")
        .parent()
        .expect("temp dir")
        .to_path_buf();
    let bin = env!("CARGO_BIN_EXE_election");
    let sweep = ["sweep", "--seeds", "1..40", "--drop", "0.05", "--json"];
    let status = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1"])
        .arg(bin)
        .args(sweep)
        .args(["--shard", "{}/4", ">"])
        .arg(dir.join("shard-{}.json"))
        .args([":::", "1", "2", "3", "4"])
        .status()
        .expect("parallel runs");
    assert!(status.success());
    let files: Vec<PathBuf> = (1..=4)
        .map(|k| dir.join(format!("shard-{k}.json")))
        .collect();
    let merged = outcome(&merge(&files, &[]));
    assert_eq!(merged, outcome(&election(&sweep)));
    assert_eq!(merged.2, Some(0));
}

#[test]
fn fuzz_faults_save_is_given_to_the_merge() {
    let out = election(&[
        "fuzz-faults",
        "--seeds",
        "1..4",
        "--shard",
        "1/2",
        "--save",
        "x.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--save"));
    let files = shards(
        &[
            "check",
            "--algorithm",
            "raft",
            "--faults",
            "crash",
            "--seeds",
            "1..2",
        ],
        2,
    );
    let stderr = refused(&merge(&files, &["--save", "x.json"]));
    assert!(stderr.contains("--save: only for fuzz-faults shards; these are check shards"));
}

#[test]
fn the_merge_saves_the_first_failing_fuzz_scenario() {
    // No fuzz seed fails today, so shard 2 is given one by hand.
    let files = shards(&["fuzz-faults", "--seeds", "1..4"], 2);
    let second = files.iter().find(|f| f.ends_with("shard-2.json")).unwrap();
    let text = std::fs::read_to_string(second).unwrap();
    let text = text
        .replace(
            "\"failures\": []",
            "\"failures\": [{\"seed\": 3, \"problem\": \"made up\"}]",
        )
        .replace("\"first_scenario\": null", "\"first_scenario\": \"{}\"");
    std::fs::write(second, text).unwrap();
    let saved = scenario_file("saved.json", b"");
    let (out, err, code) = outcome(&merge(&files, &["--save", arg(&saved)]));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        out.contains("1 failed") && out.contains("  seed 3: made up"),
        "{out}"
    );
    assert!(err.contains("1 of 4 runs failed"), "{err}");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), "{}");
}

#[test]
fn bad_slices_are_refused_naming_the_flag() {
    for (value, message) in [
        ("0/4", "K must be 1..=N, got 0/4"),
        ("5/4", "K must be 1..=N, got 5/4"),
        ("1/0", "N must be 1..="),
        ("2", "expected K/N"),
    ] {
        for command in [
            &["sweep", "--seeds", "1..4"][..],
            &["check", "--algorithm", "raft", "--seeds", "1..4"],
            &["fuzz-faults", "--seeds", "1..4"],
            &["tradeoffs"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--shard", value]);
            let out = election(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                stderr.contains("--shard") && stderr.contains(message),
                "{args:?}: {stderr}"
            );
        }
    }
}

#[test]
fn the_merge_refuses_shards_that_are_not_one_whole_run() {
    let sweep = shards(&["sweep", "--seeds", "1..8", "--json"], 4);
    let by_k = |k: u64| {
        sweep
            .iter()
            .find(|p| p.ends_with(format!("shard-{k}.json")))
            .expect("shard file")
            .clone()
    };
    let missing = refused(&merge(&[by_k(1), by_k(2), by_k(4)], &[]));
    assert!(missing.contains("missing shards: 3/4"), "{missing}");
    let twice = refused(&merge(&[by_k(1), by_k(2), by_k(3), by_k(4), by_k(2)], &[]));
    assert!(
        twice.contains("overlapping shards:") && twice.contains("both shard 2/4"),
        "{twice}"
    );

    let other_seeds = shards(&["sweep", "--seeds", "1..9", "--json"], 4);
    let seeds = refused(&merge(&[by_k(1), other_seeds[0].clone()], &[]));
    assert!(
        seeds.contains("shards of different runs (scenarios or flags)")
            && seeds.contains("job.seeds"),
        "{seeds}"
    );
    let other_nodes = shards(&["sweep", "--seeds", "1..8", "--nodes", "5", "--json"], 4);
    let nodes = refused(&merge(&[by_k(1), other_nodes[0].clone()], &[]));
    assert!(nodes.contains("job.scenario.nodes"), "{nodes}");
    let text = shards(&["sweep", "--seeds", "1..8"], 4);
    assert!(refused(&merge(&[by_k(1), text[0].clone()], &[])).contains("job.output"));

    let three = shards(&["sweep", "--seeds", "1..8", "--json"], 3);
    let n = refused(&merge(&[by_k(1), three[0].clone()], &[]));
    assert!(n.contains("shards of different N:"), "{n}");

    let fuzz = shards(&["fuzz-faults", "--seeds", "1..8"], 4);
    let commands = refused(&merge(&[by_k(1), fuzz[0].clone()], &[]));
    assert!(
        commands.contains("shards of different commands:") && commands.contains("is fuzz-faults"),
        "{commands}"
    );

    let report = scenario_file(
        "report.json",
        election(&["sweep", "--seeds", "1..3", "--json"])
            .stdout
            .as_slice(),
    );
    assert!(refused(&merge(&[report], &[])).contains("not a shard report (no \"shard\" key)"));
    let garbage = scenario_file("garbage.json", b"{not json");
    assert!(refused(&merge(&[garbage], &[])).contains("not JSON"));
    let absent = refused(&merge(&[PathBuf::from("no-such-shard.json")], &[]));
    assert!(
        absent.contains("no-such-shard.json: cannot read"),
        "{absent}"
    );
    let out = election(&["merge"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_shard_laid_out_again_still_merges_byte_for_byte() {
    // Whitespace added outside strings (as a pretty-printer that keeps
    // key order does) changes nothing: the rows are kept as text, compacted.
    let args = [
        "tradeoffs",
        "--nodes",
        "4,8",
        "--seeds",
        "1..1",
        "--partition-schedules",
        "3",
        "--json",
    ];
    let files = shards(&args, 2);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        std::fs::write(f, text.replace(",\"", ",\n  \"").replace("\":", "\" :")).expect("write");
    }
    assert_eq!(outcome(&merge(&files, &[])), outcome(&election(&args)));
}
