//! `election algorithms` lists the registry.

mod common;
use common::{ok, ok_json};

#[test]
fn lists_bully_and_chang_roberts_with_summaries() {
    let text = ok(&["algorithms"]);
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(ids.contains(&"bully"), "{text}");
    assert!(ids.contains(&"chang-roberts"), "{text}");
    assert!(
        text.lines().all(|l| l.split_whitespace().count() > 2),
        "{text}"
    );
}

#[test]
fn json_list() {
    let v = ok_json(&["algorithms", "--json"]);
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"bully") && ids.contains(&"chang-roberts"));
}
