//! Old links keep opening (issue 6): every stored address in `tests/links/`
//! (one per shipped link format, see its README) goes through the page's
//! own URL decoder and must give exactly the scenario stored beside it,
//! and the same run (trace hash) as that scenario file.

use election_core::ScenarioExt;
use election_core::{Scenario, share, sim};
use election_web::url::scenario_from_url;
use std::fs;
use std::path::{Path, PathBuf};

fn links_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/links")
}

/// `(name, address, expected scenario)` of every stored link.
fn stored() -> Vec<(String, String, Scenario)> {
    let mut names: Vec<PathBuf> = fs::read_dir(links_dir())
        .expect("tests/links exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "link"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let address = fs::read_to_string(&p).unwrap().trim().to_string();
            let json = fs::read_to_string(p.with_extension("json"))
                .unwrap_or_else(|e| panic!("{name}.json: {e}"));
            let expected =
                Scenario::from_json(&json).unwrap_or_else(|e| panic!("{name}.json: {e}"));
            (name, address, expected)
        })
        .collect()
}

/// Splits a page address into its query (with `?`) and fragment (with `#`).
fn split(address: &str) -> (&str, &str) {
    let (before, fragment) = match address.find('#') {
        Some(i) => address.split_at(i),
        None => (address, ""),
    };
    let query = before.find('?').map_or("", |i| &before[i..]);
    (query, fragment)
}

#[test]
fn every_shipped_format_has_a_stored_link() {
    let names: Vec<String> = stored().into_iter().map(|(n, _, _)| n).collect();
    for prefix in ["v1-fragment-", "v1-query-"] {
        assert!(
            names.iter().any(|n| n.starts_with(prefix)),
            "no stored {prefix}* link in {names:?}"
        );
    }
}

#[test]
fn stored_links_open_to_their_scenario() {
    for (name, address, expected) in stored() {
        let (query, fragment) = split(&address);
        let opened = scenario_from_url(query, fragment).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(opened, expected, "{name}");
        assert_eq!(
            sim::run(&opened).trace_hash,
            sim::run(&expected).trace_hash,
            "{name}"
        );
    }
}

#[test]
fn a_twenty_fault_link_stays_under_2000_characters() {
    let (_, address, scenario) = stored()
        .into_iter()
        .find(|(n, _, _)| n == "v1-fragment-raft-twenty-faults")
        .expect("the stored twenty-fault link");
    assert_eq!(scenario.faults.len(), 20);
    // What Share writes today for it, on a long page address.
    let page = "https://teaching.example.org/courses/distributed-systems/election-playground/";
    let link = format!("{page}?at=9000#s={}", share::encode(&scenario));
    assert!(link.len() < 2000, "{} characters: {link}", link.len());
    // The link from the shipped build, too.
    assert!(address.len() < 2000, "{} characters", address.len());
}
