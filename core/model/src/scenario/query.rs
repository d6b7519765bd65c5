//! Short, readable URL query parameters for hand-written links:
//! `?algorithm=bully&nodes=8&seed=3&ring=descending&start=all`.
//!
//! Each parameter is turned into the scenario field of the same name and
//! the result goes through the one scenario validator, so a bad value gets
//! the same message as in a scenario file. Parameters this module does not
//! know are left to the caller (the page's own `at`, `compare`, ...).

use super::{Catalog, Scenario, ScenarioError};
use serde_json::{Map, Value, json};

/// Query parameters that set scenario fields.
pub const SCENARIO_PARAMS: &[&str] = &[
    "algorithm",
    "nodes",
    "seed",
    "ring",
    "start",
    "until_ms",
    "latency_ms",
    "drop",
    "duplicate",
    "election_timeout_ms",
    "heartbeat_ms",
    "reply_timeout_ms",
    "delta_ms",
    "candidates",
    "fencing",
    "watch",
    "pre_vote",
    "check_quorum",
    "leader_lease",
    "observers",
    "master_lease",
    "backoff",
    "lease_ms",
    "renew_deadline_ms",
    "retry_ms",
    "drift_bound",
    "session_timeout_ms",
    "write_ms",
];

fn number(key: &str, text: &str) -> Result<Value, ScenarioError> {
    let t = text.trim();
    if let Ok(i) = t.parse::<u64>() {
        return Ok(json!(i));
    }
    match crate::decimal::parse_decimal(t) {
        Some(x) => Ok(json!(x)),
        None => Err(ScenarioError::new(
            key,
            format!("must be a number, got {t:?}"),
        )),
    }
}

/// `"5-10"`, `"5,10"` or `"7"` as a `[low, high]` pair.
fn range(key: &str, text: &str) -> Result<Value, ScenarioError> {
    let parts: Vec<&str> = text.split([',', '-', '~']).collect();
    match parts.as_slice() {
        [one] => {
            let v = number(key, one)?;
            Ok(json!([v.clone(), v]))
        }
        [lo, hi] => Ok(json!([number(key, lo)?, number(key, hi)?])),
        _ => Err(ScenarioError::new(
            key,
            format!("must be a range like 5-10, got {text:?}"),
        )),
    }
}

/// Builds a scenario from `(key, value)` pairs (already percent-decoded),
/// starting from the defaults. Unknown keys are ignored here.
pub fn from_query_pairs(
    pairs: &[(String, String)],
    catalog: &dyn Catalog,
) -> Result<Scenario, ScenarioError> {
    apply_query_pairs(&Scenario::default(), pairs, catalog)
}

/// `base` with the fields named by `(key, value)` pairs replaced, checked
/// by the one scenario validator (the page's settings form uses this, so
/// every parameter here works there without a list of its own).
pub fn apply_query_pairs(
    base: &Scenario,
    pairs: &[(String, String)],
    catalog: &dyn Catalog,
) -> Result<Scenario, ScenarioError> {
    let Value::Object(mut root) = base.to_json() else {
        return Err(ScenarioError::new("", "the base scenario is not an object"));
    };
    let take = |root: &mut Map<String, Value>, key: &str| match root.remove(key) {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let mut network = take(&mut root, "network");
    let mut timing = take(&mut root, "timing");
    for (key, value) in pairs {
        let k = key.as_str();
        match k {
            "fencing" | "pre_vote" | "check_quorum" | "leader_lease" | "master_lease"
            | "backoff" => {
                let b = match value.as_str() {
                    "1" | "true" | "on" | "yes" => true,
                    "0" | "false" | "off" | "no" => false,
                    other => {
                        return Err(ScenarioError::new(
                            k,
                            format!("must be true or false, got {other:?}"),
                        ));
                    }
                };
                root.insert(k.into(), json!(b));
            }
            "algorithm" | "ring" | "watch" => {
                root.insert(k.into(), json!(value));
            }
            "nodes" | "seed" | "until_ms" | "observers" => {
                root.insert(k.into(), number(k, value)?);
            }
            "start" => {
                let v = match value.as_str() {
                    "all" | "none" => json!(value),
                    "" => json!([]),
                    list => {
                        let ids: Result<Vec<Value>, _> =
                            list.split(',').map(|id| number(k, id)).collect();
                        Value::Array(ids?)
                    }
                };
                root.insert(k.into(), v);
            }
            "latency_ms" => {
                network.insert(k.into(), range(k, value)?);
            }
            "drop" | "duplicate" => {
                network.insert(k.into(), number(k, value)?);
            }
            "election_timeout_ms" => {
                timing.insert(k.into(), range(k, value)?);
            }
            "candidates" => {
                let ids: Result<Vec<Value>, _> = value.split(',').map(|id| number(k, id)).collect();
                root.insert(k.into(), Value::Array(ids?));
            }
            "heartbeat_ms" | "reply_timeout_ms" | "delta_ms" | "lease_ms" | "renew_deadline_ms"
            | "retry_ms" | "drift_bound" | "session_timeout_ms" | "write_ms" => {
                timing.insert(k.into(), number(k, value)?);
            }
            _ => {}
        }
    }
    root.insert("network".into(), Value::Object(network));
    root.insert("timing".into(), Value::Object(timing));
    let algorithm = pairs.iter().rev().find(|(k, _)| k == "algorithm");
    let named = pairs.iter().any(|(k, _)| k == super::observers::KEY);
    if !super::observers::carry_over(base, algorithm.map(|(_, v)| v.as_str()), named, catalog) {
        root.remove(super::observers::KEY);
    }
    // A script belongs to a scripted scenario (the format's contract, as
    // in `Scenario::set_algorithm`): picking another algorithm drops it.
    if algorithm.is_some_and(|(_, a)| a != super::SCRIPTED) {
        root.remove("script");
    }
    Scenario::parse_value(&Value::Object(root), catalog).map_err(|mut e| {
        // Name the URL parameter, not the nested scenario field.
        if let Some(rest) = e
            .field
            .strip_prefix("network.")
            .or_else(|| e.field.strip_prefix("timing."))
        {
            e.field = rest.to_string();
        }
        e
    })
}

/// The readable query string for the parts of `s` it can express
/// (faults and until are left to the full `#s=` link).
pub fn to_query(s: &Scenario) -> String {
    let start = match &s.start {
        super::StartSet::All => "all".to_string(),
        super::StartSet::None => "none".to_string(),
        super::StartSet::Ids(ids) => ids.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
    };
    let ring = match s.ring {
        super::RingOrder::Ascending => "ascending",
        super::RingOrder::Descending => "descending",
        super::RingOrder::Random => "random",
    };
    let observers = match s.options.observers {
        0 => String::new(),
        k => format!("&observers={k}"),
    };
    format!(
        "algorithm={}&nodes={}&seed={}&ring={ring}&start={start}{observers}",
        s.algorithm, s.nodes, s.seed
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::TestCatalog;

    fn pairs(q: &str) -> Vec<(String, String)> {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn readable_link() {
        let s = from_query_pairs(
            &pairs("algorithm=bully&nodes=5&seed=3&ring=descending&start=0,2&latency_ms=1-4"),
            &TestCatalog,
        )
        .unwrap();
        assert_eq!((s.algorithm.as_str(), s.nodes, s.seed), ("bully", 5, 3));
        assert_eq!(s.start, super::super::StartSet::Ids(vec![0, 2]));
        assert_eq!(s.network.latency_us, (1000, 4000));
        assert_eq!(
            from_query_pairs(&pairs(&to_query(&s)), &TestCatalog)
                .unwrap()
                .start,
            s.start
        );
    }

    #[test]
    fn applying_keeps_what_the_query_does_not_name() {
        let mut base = from_query_pairs(
            &pairs("algorithm=raft&nodes=5&drop=0.1&leader_lease=1"),
            &TestCatalog,
        )
        .unwrap();
        base.seed = 9;
        let s = apply_query_pairs(&base, &pairs("nodes=7&pre_vote=true"), &TestCatalog).unwrap();
        assert_eq!((s.algorithm.as_str(), s.nodes, s.seed), ("raft", 7, 9));
        assert!(s.options.pre_vote && s.options.leader_lease);
        assert_eq!(s.network.drop, 0.1);
    }

    #[test]
    fn bad_values_name_the_parameter() {
        assert_eq!(
            from_query_pairs(&pairs("nodes=abc"), &TestCatalog)
                .unwrap_err()
                .field,
            "nodes"
        );
        assert_eq!(
            from_query_pairs(&pairs("nodes=0"), &TestCatalog)
                .unwrap_err()
                .field,
            "nodes"
        );
        assert_eq!(
            from_query_pairs(&pairs("drop=2"), &TestCatalog)
                .unwrap_err()
                .field,
            "drop"
        );
        assert_eq!(
            from_query_pairs(&pairs("algorithm=paxos"), &TestCatalog)
                .unwrap_err()
                .field,
            "algorithm"
        );
    }
}
