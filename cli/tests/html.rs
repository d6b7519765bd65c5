//! `election html`: the scenario (a file or a preset, with `run`'s
//! overrides) goes into the template's scenario block and nothing else of
//! the template changes; the block holds what `election run --scenario`
//! runs; a missing template is one clear message with exit code 2. A small
//! fake template stands in for the built one (tests/browser/standalone.test.js
//! opens the real one).

mod common;
use common::{arg, election, ok, ok_json, scenario_file};

/// The parts of a template around its scenario block (the bundled code
/// names the block too, as the real one does).
const HEAD: &str = "<!doctype html>\n<html><head><script type=\"module\">find('id=\"standalone-scenario\"')</script></head>\n<body>\n";
const EMPTY_BLOCK: &str = r#"<script type="application/json" id="standalone-scenario" data-at="" data-preset=""></script>"#;
const TAIL: &str = "\n</body></html>\n";

fn fake_template() -> std::path::PathBuf {
    scenario_file(
        "standalone.html",
        format!("{HEAD}{EMPTY_BLOCK}{TAIL}").as_bytes(),
    )
}

/// Runs `election html ARGS --template FAKE -o OUT` and returns the page.
fn page(args: &[&str]) -> String {
    let template = fake_template();
    let out = template.with_file_name("lesson.html");
    let mut all = vec!["html"];
    all.extend_from_slice(args);
    all.extend(["--template", arg(&template), "-o", arg(&out)]);
    let said = ok(&all);
    assert!(
        said.starts_with(&format!("wrote {}", out.display())),
        "{said}"
    );
    std::fs::read_to_string(&out).expect("the page was written")
}

/// The block's attributes and scenario text, checking that the rest of
/// the template is unchanged.
fn block(page: &str) -> (String, String, String) {
    let inner = page
        .strip_prefix(HEAD)
        .and_then(|p| p.strip_suffix(TAIL))
        .unwrap_or_else(|| panic!("the template around the block changed: {page}"));
    let rest = inner
        .strip_prefix(r#"<script type="application/json" id="standalone-scenario" data-at=""#)
        .expect("the block's start");
    let (at, rest) = rest.split_once(r#"" data-preset=""#).expect("data-preset");
    let (preset, rest) = rest.split_once(r#"">"#).expect("the block's text");
    let json = rest.strip_suffix("</script>").expect("the block's end");
    assert!(!json.contains('<'), "no < in the block: {json}");
    (at.to_string(), preset.to_string(), json.to_string())
}

/// `election run --json` of the scenario text `json`.
fn run_of(json: &str) -> serde_json::Value {
    let file = scenario_file("inline.json", json.as_bytes());
    ok_json(&["run", "--scenario", arg(&file), "--json"])
}

#[test]
fn the_block_holds_what_run_runs() {
    let file = "../scenarios/corpus/raft-crash.json";
    let (at, preset, json) = block(&page(&["--scenario", file]));
    assert_eq!((at.as_str(), preset.as_str()), ("", ""));
    let expected = ok_json(&["run", "--scenario", file, "--json"]);
    assert_eq!(run_of(&json), expected);
}

#[test]
fn overrides_apply_as_for_run() {
    let flags = ["--algorithm", "bully", "--nodes", "7", "--seed", "42"];
    let (_, _, json) = block(&page(&flags));
    let mut run = vec!["run", "--json"];
    run.extend_from_slice(&flags);
    let expected = ok_json(&run);
    let shown = run_of(&json);
    assert_eq!(shown, expected);
    assert_eq!(shown["algorithm"], "bully");
    assert_eq!(shown["nodes"], 7);
}

#[test]
fn a_preset_keeps_its_narration_unless_overridden() {
    let (_, preset, json) = block(&page(&["--preset", "raft-minority"]));
    assert_eq!(preset, "raft-minority");
    assert_eq!(
        run_of(&json),
        ok_json(&["run", "--preset", "raft-minority", "--json"])
    );
    // Another seed: the narration's moments would not fit the run.
    let (_, preset, _) = block(&page(&["--preset", "raft-minority", "--seed", "9"]));
    assert_eq!(preset, "");
}

#[test]
fn the_moment_is_written_as_the_page_reads_it() {
    let file = "../scenarios/corpus/bully-crash.json";
    assert_eq!(block(&page(&["--scenario", file, "--at", "end"])).0, "end");
    assert_eq!(
        block(&page(&["--scenario", file, "--at", "1500.25"])).0,
        "1500.25"
    );
    assert_eq!(block(&page(&["--scenario", file, "--at", "0"])).0, "0");
}

#[test]
fn the_page_to_standard_output() {
    let template = fake_template();
    let text = ok(&["html", "--template", arg(&template), "-o", "-"]);
    let (_, _, json) = block(&text);
    assert_eq!(
        run_of(&json),
        ok_json(&["run", "--json"]),
        "the default scenario"
    );
}

#[test]
fn bad_input_is_one_message_and_exit_code_2() {
    let template = fake_template();
    let out = template.with_file_name("never.html");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--template", "/nonexistent/standalone.html"],
            "no standalone template at /nonexistent/standalone.html: build it with `node scripts/build/standalone.mjs`",
        ),
        (
            &["--template", "../README.md"],
            "is not a standalone template",
        ),
        (
            &[
                "--template",
                arg(&template),
                "--scenario",
                "../scenarios/corpus/bully-crash.json",
                "--at",
                "99999",
            ],
            "--at 99999: after the run's horizon, 6000 ms",
        ),
        (
            &["--template", arg(&template), "--at", "soon"],
            "or \"end\"",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["html", "-o", arg(&out)];
        all.extend_from_slice(args);
        let result = election(&all);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(says), "{all:?}: {stderr}");
        // Ours are one line (clap adds a usage hint to its own).
        assert!(
            stderr.contains("--help") || stderr.lines().count() == 1,
            "one line: {stderr}"
        );
        assert!(!out.exists(), "nothing written for {all:?}");
    }
}
