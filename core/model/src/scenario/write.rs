//! [`Scenario`] -> canonical JSON (every field written, times in ms).

use super::{Fault, FaultAction, NetworkSpec, RingOrder, Scenario, StartSet, Target};
use crate::time::Micros;
use serde_json::{Map, Value, json};

/// Microseconds as a millisecond number: whole when it is whole, so that
/// `1000` reads back as `1000` and `1500 us` as `1.5`.
pub fn ms_value(us: Micros) -> Value {
    if us % 1000 == 0 {
        json!(us / 1000)
    } else {
        json!(us as f64 / 1000.0)
    }
}

fn target(t: &Target) -> Value {
    match t {
        Target::Node(id) => json!(id),
        Target::Leader => json!("leader"),
    }
}

fn network(n: &NetworkSpec) -> Value {
    json!({
        "latency_ms": [ms_value(n.latency_us.0), ms_value(n.latency_us.1)],
        "drop": n.drop,
        "duplicate": n.duplicate,
        "fifo": n.fifo,
    })
}

/// One fault as an entry of a scenario's canonical `faults`.
pub fn fault_value(fault: &Fault) -> Value {
    let mut m = Map::new();
    m.insert("at_ms".into(), ms_value(fault.at_us));
    let key = fault.action.key().to_string();
    match &fault.action {
        FaultAction::Crash(t) | FaultAction::Recover(t) => {
            m.insert(key, target(t));
        }
        FaultAction::Pause { node, for_us } => {
            m.insert(key, target(node));
            m.insert("for_ms".into(), ms_value(*for_us));
        }
        FaultAction::Clock {
            node,
            offset_us,
            drift,
        } => {
            m.insert(key, target(node));
            let offset = if offset_us % 1000 == 0 {
                json!(offset_us / 1000)
            } else {
                json!(*offset_us as f64 / 1000.0)
            };
            m.insert("offset_ms".into(), offset);
            m.insert("drift".into(), json!(drift));
        }
        FaultAction::Partition(groups) => {
            m.insert(key, json!(groups));
        }
        FaultAction::Heal => {
            m.insert(key, json!(true));
        }
        FaultAction::Slow { node, extra_us } => {
            m.insert(key, target(node));
            m.insert("extra_ms".into(), ms_value(*extra_us));
        }
        FaultAction::Flaky {
            node,
            period_us,
            down_us,
            for_us,
        } => {
            m.insert(key, target(node));
            m.insert("period_ms".into(), ms_value(*period_us));
            m.insert("down_ms".into(), ms_value(*down_us));
            if let Some(f) = for_us {
                m.insert("for_ms".into(), ms_value(*f));
            }
        }
        FaultAction::Cut { from, to } | FaultAction::Uncut { from, to } => {
            m.insert(key, json!([from, to]));
        }
        FaultAction::Network(n) => {
            m.insert(key, network(n));
        }
    }
    Value::Object(m)
}

/// The canonical JSON value of a scenario.
pub fn to_value(s: &Scenario) -> Value {
    let start = match &s.start {
        StartSet::All => json!("all"),
        StartSet::None => json!("none"),
        StartSet::Ids(ids) => json!(ids),
    };
    let ring = match s.ring {
        RingOrder::Ascending => "ascending",
        RingOrder::Descending => "descending",
        RingOrder::Random => "random",
    };
    let mut timing = Map::new();
    let (lo, hi) = s.timing.election_timeout_us;
    timing.insert(
        "election_timeout_ms".into(),
        json!([ms_value(lo), ms_value(hi)]),
    );
    timing.insert("heartbeat_ms".into(), ms_value(s.timing.heartbeat_us));
    timing.insert("delta_ms".into(), ms_value(s.timing.delta_us));
    timing.insert("lease_ms".into(), ms_value(s.timing.lease_us));
    timing.insert(
        "renew_deadline_ms".into(),
        ms_value(s.timing.renew_deadline_us),
    );
    timing.insert("retry_ms".into(), ms_value(s.timing.retry_us));
    timing.insert("drift_bound".into(), json!(s.timing.drift_bound));
    timing.insert(
        "session_timeout_ms".into(),
        ms_value(s.timing.session_timeout_us),
    );
    timing.insert("write_ms".into(), ms_value(s.timing.write_us));
    if let Some(r) = s.timing.reply_timeout_us {
        timing.insert("reply_timeout_ms".into(), ms_value(r));
    }
    let faults: Vec<Value> = s.faults.iter().map(fault_value).collect();
    let mut out = Map::new();
    out.insert("version".into(), json!(s.version));
    out.insert("algorithm".into(), json!(s.algorithm));
    out.insert("nodes".into(), json!(s.nodes));
    out.insert("seed".into(), json!(s.seed));
    out.insert("ring".into(), json!(ring));
    out.insert("start".into(), start);
    out.insert("network".into(), network(&s.network));
    out.insert("timing".into(), Value::Object(timing));
    let o = &s.options;
    out.insert("fencing".into(), json!(o.fencing));
    out.insert("pre_vote".into(), json!(o.pre_vote));
    out.insert("check_quorum".into(), json!(o.check_quorum));
    out.insert("leader_lease".into(), json!(o.leader_lease));
    if o.observers > 0 {
        out.insert(super::observers::KEY.into(), json!(o.observers));
    }
    out.insert("master_lease".into(), json!(o.master_lease));
    out.insert("backoff".into(), json!(o.backoff));
    out.insert(
        "watch".into(),
        json!(match o.watch {
            super::WatchMode::Herd => "herd",
            super::WatchMode::Predecessor => "predecessor",
        }),
    );
    if let Some(ids) = &s.candidates {
        out.insert("candidates".into(), json!(ids));
    }
    out.insert("faults".into(), Value::Array(faults));
    if let Some(u) = s.until_us {
        out.insert("until_ms".into(), ms_value(u));
    }
    if let Some(source) = &s.script {
        out.insert("script".into(), json!(source.as_ref()));
    }
    Value::Object(out)
}
