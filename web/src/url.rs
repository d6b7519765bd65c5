//! Scenarios from page URLs: the readable query (`?algorithm=bully&nodes=8`)
//! and the share fragment (`#s=1.<data>`), which wins when present.
//!
//! Only parsing lives here; the meaning of each parameter and every check
//! are the core's (`scenario::query`, `share`), so a link gets the same
//! error messages as a scenario file.

use election_core::scenario::query::{apply_query_pairs, from_query_pairs};
use election_core::share;
use election_core::{Scenario, ScenarioError};

/// Percent-decodes one query component (`+` is a space; a malformed
/// escape is kept as written; invalid UTF-8 becomes U+FFFD).
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `key=value` pairs of a query string or fragment, with or without its
/// leading `?` or `#`, percent-decoded. A key without `=` has value `""`.
pub fn parse_pairs(text: &str) -> Vec<(String, String)> {
    let text = text.strip_prefix(['?', '#']).unwrap_or(text);
    text.split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// The value of the `s` parameter of a fragment, if there is one.
pub fn share_param(fragment: &str) -> Option<String> {
    parse_pairs(fragment)
        .into_iter()
        .find(|(k, _)| k == "s")
        .map(|(_, v)| v)
}

/// The scenario a page URL describes: the share fragment's when it has an
/// `s=` parameter, else the query parameters over the defaults.
pub fn scenario_from_url(query: &str, fragment: &str) -> Result<Scenario, ScenarioError> {
    match share_param(fragment) {
        Some(link) => share::decode(&link),
        None => from_query_pairs(&parse_pairs(query)),
    }
}

/// `base` with the fields named in `query` replaced (same parameters and
/// checks as a URL), the faults dropped (they belonged to the old run) and
/// everything else (network, timing, end) kept. The page's settings form
/// uses this, so a scenario loaded from a share link keeps its network
/// when the user picks another algorithm.
pub fn apply_settings(base: &Scenario, query: &str) -> Result<Scenario, ScenarioError> {
    let mut without_faults = base.clone();
    without_faults.faults.clear();
    apply_query_pairs(&without_faults, &parse_pairs(query))
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::ScenarioExt;
    use election_core::scenario::{RingOrder, StartSet};

    #[test]
    fn decodes_components() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("0%2C3"), "0,3");
        assert_eq!(
            parse_pairs("?algorithm=bully&flag&x=1=2"),
            vec![
                ("algorithm".to_string(), "bully".to_string()),
                ("flag".to_string(), String::new()),
                ("x".to_string(), "1=2".to_string()),
            ]
        );
    }

    #[test]
    fn query_sets_fields() {
        let s = scenario_from_url(
            "?algorithm=chang-roberts&nodes=8&seed=3&ring=descending&start=0%2C2&at=end",
            "",
        )
        .unwrap();
        assert_eq!(s.algorithm, "chang-roberts");
        assert_eq!((s.nodes, s.seed, s.ring), (8, 3, RingOrder::Descending));
        assert_eq!(s.start, StartSet::Ids(vec![0, 2]));
    }

    #[test]
    fn fragment_wins_and_errors_name_the_field() {
        let s = Scenario {
            nodes: 5,
            ..Scenario::default()
        };
        let fragment = format!("#s={}", share::encode(&s));
        assert_eq!(scenario_from_url("?nodes=9", &fragment).unwrap(), s);
        assert_eq!(scenario_from_url("", "#s=1.AAAA").unwrap_err().field, "s");
        assert_eq!(
            scenario_from_url("?nodes=0", "").unwrap_err().field,
            "nodes"
        );
        assert_eq!(
            scenario_from_url("?algorithm=paxos", "#other")
                .unwrap_err()
                .field,
            "algorithm"
        );
    }

    #[test]
    fn settings_keep_the_network_and_drop_faults() {
        let base = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":4,"network":{"latency_ms":[1,2]},
                "faults":[{"at_ms":10,"crash":3}]}"#,
        )
        .unwrap();
        let s = apply_settings(&base, "algorithm=chang-roberts&nodes=6&seed=9").unwrap();
        assert_eq!(
            (s.algorithm.as_str(), s.nodes, s.seed),
            ("chang-roberts", 6, 9)
        );
        assert_eq!(s.network.latency_us, (1000, 2000));
        assert!(s.faults.is_empty());
        assert_eq!(
            apply_settings(&base, "nodes=2&start=5").unwrap_err().field,
            "start"
        );
    }
}
