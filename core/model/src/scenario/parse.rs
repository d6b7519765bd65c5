//! Scenario JSON -> [`Scenario`], with one clear error naming the field.

use super::Catalog;
use super::MAX_TIME_US;
use super::fault::FAULT_KINDS;
use super::fields::{Fields, describe, millis_value};
use super::{
    DEFAULT_RUN_LIMIT_US, Fault, FaultAction, MAX_FAULTS, MAX_NODES, MAX_SCENARIO_BYTES,
    NetworkSpec, RingOrder, Scenario, ScenarioError, StartSet, Target, TimingSpec, VERSION,
    WatchMode,
};
use crate::time::{MAX_TIME_US_F64, Micros};
use serde_json::Value;

/// Parses scenario text (at most [`MAX_SCENARIO_BYTES`]).
pub fn parse_text(text: &str, catalog: &dyn Catalog) -> Result<Scenario, ScenarioError> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(ScenarioError::new(
            "",
            format!(
                "input is {} bytes; the limit is {} bytes",
                text.len(),
                MAX_SCENARIO_BYTES
            ),
        ));
    }
    parse_value(&json_value(text)?, catalog)
}

/// JSON text as a value: "not valid JSON: ..." when it is not, and a key
/// given twice in one object refused with its path as the field
/// ([`super::strict_json`]).
pub fn json_value(text: &str) -> Result<Value, ScenarioError> {
    super::strict_json::parse(text).map_err(|e| match e {
        super::strict_json::StrictError::Syntax(e) => {
            ScenarioError::new("", format!("not valid JSON: {e}"))
        }
        super::strict_json::StrictError::Duplicate(path) => ScenarioError::new(
            path,
            "is given twice; a field may appear once (which value was meant?)",
        ),
    })
}

/// Parses a decoded JSON value.
pub fn parse_value(value: &Value, catalog: &dyn Catalog) -> Result<Scenario, ScenarioError> {
    let mut s = Scenario::default();
    let mut f = Fields::new(value, "")?;
    if let Some(v) = f.int("version", 0, u64::from(u32::MAX))? {
        if v != u64::from(VERSION) {
            return Err(f.error(
                "version",
                format!("this build reads scenario version {VERSION}, got {v}"),
            ));
        }
    }
    if let Some(a) = f.text("algorithm")? {
        s.algorithm = a.to_string();
    }
    if let Some(n) = f.int("nodes", 1, u64::from(MAX_NODES))? {
        s.nodes = n as u32;
    }
    if let Some(seed) = f.int("seed", 0, u64::MAX)? {
        s.seed = seed;
    }
    if let Some(r) = f.get("ring") {
        s.ring = match r.as_str() {
            Some("ascending") => RingOrder::Ascending,
            Some("descending") => RingOrder::Descending,
            Some("random") => RingOrder::Random,
            _ => {
                return Err(f.error(
                    "ring",
                    format!(
                        "must be \"ascending\", \"descending\" or \"random\", got {}",
                        describe(r)
                    ),
                ));
            }
        };
    }
    if let Some(v) = f.get("start") {
        s.start = parse_start(v).map_err(|m| f.error("start", m))?;
    }
    if let Some(v) = f.get("network") {
        s.network = parse_network(v, &f.path_of("network"), &s.network)?;
    }
    if let Some(v) = f.get("timing") {
        s.timing = parse_timing(v, &f.path_of("timing"), &s.timing)?;
    }
    let flag = |f: &mut Fields<'_>, key: &'static str| -> Result<Option<bool>, ScenarioError> {
        match f.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(f.error(
                key,
                format!("must be true or false, got {}", describe(other)),
            )),
        }
    };
    if let Some(b) = flag(&mut f, "fencing")? {
        s.options.fencing = b;
    }
    if let Some(b) = flag(&mut f, "pre_vote")? {
        s.options.pre_vote = b;
    }
    if let Some(b) = flag(&mut f, "check_quorum")? {
        s.options.check_quorum = b;
    }
    if let Some(b) = flag(&mut f, "leader_lease")? {
        s.options.leader_lease = b;
    }
    if let Some(k) = f.int(super::observers::KEY, 0, u64::from(MAX_NODES))? {
        s.options.observers = k as u32;
    }
    if let Some(b) = flag(&mut f, "master_lease")? {
        s.options.master_lease = b;
    }
    if let Some(b) = flag(&mut f, "backoff")? {
        s.options.backoff = b;
    }
    if let Some(w) = f.get("watch") {
        s.options.watch = match w.as_str() {
            Some("herd") => WatchMode::Herd,
            Some("predecessor") => WatchMode::Predecessor,
            _ => {
                return Err(f.error(
                    "watch",
                    format!("must be \"herd\" or \"predecessor\", got {}", describe(w)),
                ));
            }
        };
    }
    if let Some(source) = f.text("script")? {
        s.script = Some(source.into());
    }
    if let Some(v) = f.get("candidates") {
        let Value::Array(items) = v else {
            return Err(f.error(
                "candidates",
                format!("must be a list of node ids, got {}", describe(v)),
            ));
        };
        let mut ids = Vec::with_capacity(items.len());
        for item in items {
            match item.as_u64() {
                Some(id) if id < u64::from(MAX_NODES) => ids.push(id as u32),
                _ => {
                    return Err(f.error(
                        "candidates",
                        format!("lists node ids, got {}", describe(item)),
                    ));
                }
            }
        }
        s.candidates = Some(ids);
    }
    if let Some(v) = f.get("faults") {
        let Value::Array(items) = v else {
            return Err(f.error("faults", format!("must be a list, got {}", describe(v))));
        };
        if items.len() > MAX_FAULTS {
            return Err(f.error(
                "faults",
                format!("has {} faults; the limit is {MAX_FAULTS}", items.len()),
            ));
        }
        for (i, item) in items.iter().enumerate() {
            s.faults.push(parse_fault(item, &format!("faults[{i}]"))?);
        }
    }
    if f.has("until_ms") {
        let v = f.get("until_ms").unwrap_or(&Value::Null);
        if !v.is_null() {
            s.until_us = Some(millis_value(v).map_err(|m| f.error("until_ms", m))?);
        }
    }
    f.finish()?;
    validate(&s, catalog)?;
    Ok(s)
}

fn parse_start(v: &Value) -> Result<StartSet, String> {
    match v {
        Value::String(t) if t == "all" => Ok(StartSet::All),
        Value::String(t) if t == "none" => Ok(StartSet::None),
        Value::Array(items) => {
            let mut ids = Vec::with_capacity(items.len());
            for item in items {
                match item.as_u64() {
                    Some(id) if id < u64::from(MAX_NODES) => ids.push(id as u32),
                    _ => return Err(format!("lists node ids, got {}", describe(item))),
                }
            }
            Ok(StartSet::Ids(ids))
        }
        other => Err(format!(
            "must be \"all\", \"none\" or a list of node ids, got {}",
            describe(other)
        )),
    }
}

/// Reads a `[lo, hi]` pair of milliseconds.
fn millis_range(v: &Value, field: &str) -> Result<(Micros, Micros), ScenarioError> {
    let pair = match v {
        Value::Array(items) if items.len() == 2 => (&items[0], &items[1]),
        other => {
            return Err(ScenarioError::new(
                field,
                format!(
                    "must be a pair [low, high] of milliseconds, got {}",
                    describe(other)
                ),
            ));
        }
    };
    let lo = millis_value(pair.0).map_err(|m| ScenarioError::new(format!("{field}[0]"), m))?;
    let hi = millis_value(pair.1).map_err(|m| ScenarioError::new(format!("{field}[1]"), m))?;
    if hi < lo {
        return Err(ScenarioError::new(
            field,
            "the high end must not be below the low end",
        ));
    }
    Ok((lo, hi))
}

fn parse_network(v: &Value, path: &str, base: &NetworkSpec) -> Result<NetworkSpec, ScenarioError> {
    let mut n = base.clone();
    let mut f = Fields::new(v, path)?;
    if let Some(r) = f.get("latency_ms") {
        n.latency_us = millis_range(r, &f.path_of("latency_ms"))?;
    }
    if let Some(p) = f.number("drop", 0.0, 1.0)? {
        n.drop = p;
    }
    if let Some(p) = f.number("duplicate", 0.0, 1.0)? {
        n.duplicate = p;
    }
    if let Some(v) = f.get("fifo") {
        n.fifo = v.as_bool().ok_or_else(|| {
            f.error(
                "fifo",
                format!("must be true or false, got {}", describe(v)),
            )
        })?;
    }
    f.finish()?;
    Ok(n)
}

fn parse_timing(v: &Value, path: &str, base: &TimingSpec) -> Result<TimingSpec, ScenarioError> {
    let mut t = base.clone();
    let mut f = Fields::new(v, path)?;
    if let Some(r) = f.get("election_timeout_ms") {
        t.election_timeout_us = millis_range(r, &f.path_of("election_timeout_ms"))?;
    }
    if let Some(h) = f.millis("heartbeat_ms")? {
        t.heartbeat_us = h;
    }
    if f.has("reply_timeout_ms") {
        let v = f.get("reply_timeout_ms").unwrap_or(&Value::Null);
        if !v.is_null() {
            t.reply_timeout_us = Some(millis_value(v).map_err(|m| f.error("reply_timeout_ms", m))?);
        }
    }
    if let Some(d) = f.millis("delta_ms")? {
        t.delta_us = d;
    }
    if let Some(d) = f.millis("lease_ms")? {
        t.lease_us = d;
    }
    if let Some(d) = f.millis("renew_deadline_ms")? {
        t.renew_deadline_us = d;
    }
    if let Some(d) = f.millis("retry_ms")? {
        t.retry_us = d;
    }
    if let Some(d) = f.number("drift_bound", 0.0, 1.0)? {
        t.drift_bound = d;
    }
    if let Some(d) = f.millis("session_timeout_ms")? {
        t.session_timeout_us = d;
    }
    if let Some(d) = f.millis("write_ms")? {
        t.write_us = d;
    }
    f.finish()?;
    Ok(t)
}

fn parse_target(f: &Fields<'_>, key: &str, v: &Value) -> Result<Target, ScenarioError> {
    match v {
        Value::String(t) if t == "leader" => Ok(Target::Leader),
        Value::String(t) if t == "leader-or-next" => Ok(Target::LeaderOrNext),
        other => match other.as_u64() {
            Some(id) if id < u64::from(MAX_NODES) => Ok(Target::Node(id as u32)),
            _ => Err(f.error(
                key,
                format!(
                    "must be a node id, \"leader\" or \"leader-or-next\", got {}",
                    describe(other)
                ),
            )),
        },
    }
}

fn parse_id(f: &Fields<'_>, key: &str, v: &Value) -> Result<u32, ScenarioError> {
    match v.as_u64() {
        Some(id) if id < u64::from(MAX_NODES) => Ok(id as u32),
        _ => Err(f.error(key, format!("must be a node id, got {}", describe(v)))),
    }
}

pub fn parse_fault(v: &Value, path: &str) -> Result<Fault, ScenarioError> {
    let mut f = Fields::new(v, path)?;
    let at_us = f
        .millis("at_ms")?
        .ok_or_else(|| f.error("at_ms", "is required (when the fault happens)"))?;
    let present: Vec<&'static str> = FAULT_KINDS.iter().copied().filter(|k| f.has(k)).collect();
    let kind = match present.as_slice() {
        [one] => *one,
        [] => {
            return Err(ScenarioError::new(
                path,
                format!("names no fault; use one of: {}", FAULT_KINDS.join(", ")),
            ));
        }
        many => {
            return Err(ScenarioError::new(
                path,
                format!(
                    "names several faults ({}); use one per entry",
                    many.join(", ")
                ),
            ));
        }
    };
    let value = f.get(kind).unwrap_or(&Value::Null);
    let action = match kind {
        "crash" => FaultAction::Crash(parse_target(&f, kind, value)?),
        "recover" => FaultAction::Recover(parse_target(&f, kind, value)?),
        "pause" => {
            let node = parse_target(&f, kind, value)?;
            let for_us = f
                .millis("for_ms")?
                .ok_or_else(|| f.error("for_ms", "is required with pause"))?;
            FaultAction::Pause { node, for_us }
        }
        "clock" => {
            let node = parse_target(&f, kind, value)?;
            let offset = f.number("offset_ms", -MAX_TIME_US_F64 / 1e3, MAX_TIME_US_F64 / 1e3)?;
            let drift = f.number("drift", -0.5, 10.0)?;
            if offset.is_none() && drift.is_none() {
                return Err(f.error("clock", "needs offset_ms, drift or both"));
            }
            FaultAction::Clock {
                node,
                offset_us: (offset.unwrap_or(0.0) * 1000.0).round() as i64,
                drift: drift.unwrap_or(0.0),
            }
        }
        "partition" => {
            let Value::Array(groups) = value else {
                return Err(f.error(
                    kind,
                    format!(
                        "must be a list of groups of node ids, got {}",
                        describe(value)
                    ),
                ));
            };
            let mut out = Vec::with_capacity(groups.len());
            for (g, group) in groups.iter().enumerate() {
                let key = format!("partition[{g}]");
                let Value::Array(ids) = group else {
                    return Err(f.error(
                        &key,
                        format!("must be a list of node ids, got {}", describe(group)),
                    ));
                };
                let mut members = Vec::with_capacity(ids.len());
                for id in ids {
                    members.push(parse_id(&f, &key, id)?);
                }
                out.push(members);
            }
            FaultAction::Partition(out)
        }
        "heal" => match value {
            Value::Bool(true) => FaultAction::Heal,
            other => return Err(f.error(kind, format!("must be true, got {}", describe(other)))),
        },
        "slow" => {
            let node = parse_target(&f, kind, value)?;
            let extra_us = f
                .millis("extra_ms")?
                .ok_or_else(|| f.error("extra_ms", "is required with slow (0 clears it)"))?;
            FaultAction::Slow { node, extra_us }
        }
        "flaky" => {
            let node = parse_target(&f, kind, value)?;
            let period_us = f
                .millis("period_ms")?
                .ok_or_else(|| f.error("period_ms", "is required with flaky"))?;
            let down_us = f
                .millis("down_ms")?
                .ok_or_else(|| f.error("down_ms", "is required with flaky"))?;
            if period_us == 0 || down_us == 0 || down_us >= period_us {
                return Err(f.error(
                    "down_ms",
                    "must be above 0 and below period_ms (the node must come back up each period)",
                ));
            }
            let for_us = f.millis("for_ms")?;
            FaultAction::Flaky {
                node,
                period_us,
                down_us,
                for_us,
            }
        }
        "cut" | "uncut" => {
            let pair = match value {
                Value::Array(items) if items.len() == 2 => (
                    parse_id(&f, kind, &items[0])?,
                    parse_id(&f, kind, &items[1])?,
                ),
                other => {
                    return Err(f.error(
                        kind,
                        format!(
                            "must be a pair [from, to] of node ids, got {}",
                            describe(other)
                        ),
                    ));
                }
            };
            if kind == "cut" {
                FaultAction::Cut {
                    from: pair.0,
                    to: pair.1,
                }
            } else {
                FaultAction::Uncut {
                    from: pair.0,
                    to: pair.1,
                }
            }
        }
        _ => FaultAction::Network(parse_network(
            value,
            &f.path_of("network"),
            &Scenario::default().network,
        )?),
    };
    f.finish()?;
    Ok(Fault { at_us, action })
}

/// A time in ms as a scenario writes it: `1.5`, `60000`.
fn ms_text(us: Micros) -> String {
    let whole = us / 1000;
    match us % 1000 {
        0 => whole.to_string(),
        frac => format!("{whole}.{frac:03}")
            .trim_end_matches('0')
            .to_string(),
    }
}

/// The smallest meaningful timeouts and heartbeat: not below the
/// network's latency floor (`network.latency_ms[0]`, the fastest a
/// message arrives), below which no message can arrive before the timer
/// fires: every node would time out, or beat, faster than anything can
/// be heard, and the run would only fill the network (docs/ARCHITECTURE.md,
/// Limits and why).
fn check_timing_floor(s: &Scenario) -> Result<(), ScenarioError> {
    let floor = s.network.latency_us.0;
    let mut timers = vec![
        (
            "timing.election_timeout_ms[0]",
            s.timing.election_timeout_us.0,
        ),
        ("timing.heartbeat_ms", s.timing.heartbeat_us),
    ];
    if let Some(reply) = s.timing.reply_timeout_us {
        timers.push(("timing.reply_timeout_ms", reply));
    }
    for (field, value) in timers {
        if value < floor {
            return Err(ScenarioError::new(
                field,
                format!(
                    "{} ms is shorter than the network's fastest delivery (network.latency_ms[0], {} ms): no message could arrive before it fires; use at least {} ms",
                    ms_text(value),
                    ms_text(floor),
                    ms_text(floor)
                ),
            ));
        }
    }
    Ok(())
}

/// Cross-field rules.
pub fn validate(s: &Scenario, catalog: &dyn Catalog) -> Result<(), ScenarioError> {
    if s.version != VERSION {
        return Err(ScenarioError::new("version", format!("must be {VERSION}")));
    }
    if catalog.extra_nodes(&s.algorithm).is_none() {
        return Err(catalog.unknown(s));
    }
    catalog.check(s)?;
    if s.nodes == 0 || s.nodes > MAX_NODES {
        return Err(ScenarioError::new(
            "nodes",
            format!("must be from 1 to {MAX_NODES}, got {}", s.nodes),
        ));
    }
    let n = s.nodes;
    let id_ok = |id: u32| id < n;
    if let StartSet::Ids(ids) = &s.start {
        if let Some(bad) = ids.iter().find(|&&id| !id_ok(id)) {
            return Err(ScenarioError::new(
                "start",
                format!("names node {bad}, but ids run from 0 to {}", n - 1),
            ));
        }
    }
    if let Some(ids) = &s.candidates {
        if ids.is_empty() {
            return Err(ScenarioError::new(
                "candidates",
                "must name at least one node",
            ));
        }
        if let Some(bad) = ids.iter().find(|&&id| !id_ok(id)) {
            return Err(ScenarioError::new(
                "candidates",
                format!("names node {bad}, but ids run from 0 to {}", n - 1),
            ));
        }
    }
    for (field, value) in [
        ("timing.lease_ms", s.timing.lease_us),
        ("timing.retry_ms", s.timing.retry_us),
        ("timing.session_timeout_ms", s.timing.session_timeout_us),
        ("timing.write_ms", s.timing.write_us),
    ] {
        if value == 0 {
            return Err(ScenarioError::new(field, "must be above 0"));
        }
    }
    if s.timing.renew_deadline_us > s.timing.lease_us {
        return Err(ScenarioError::new(
            "timing.renew_deadline_ms",
            "must not exceed timing.lease_ms (the holder must give up before the lease runs out)",
        ));
    }
    if s.timing.heartbeat_us == 0 {
        return Err(ScenarioError::new("timing.heartbeat_ms", "must be above 0"));
    }
    if s.timing.election_timeout_us.0 == 0 {
        return Err(ScenarioError::new(
            "timing.election_timeout_ms[0]",
            "must be above 0",
        ));
    }
    if s.timing.reply_timeout_us == Some(0) {
        return Err(ScenarioError::new(
            "timing.reply_timeout_ms",
            "must be above 0",
        ));
    }
    check_timing_floor(s)?;
    super::observers::validate(s, catalog)?;
    if s.until_us.is_some_and(|u| u > MAX_TIME_US) {
        return Err(ScenarioError::new(
            "until_ms",
            format!("must be at most {} ms (one day)", MAX_TIME_US / 1000),
        ));
    }
    if s.faults.len() > MAX_FAULTS {
        return Err(ScenarioError::new(
            "faults",
            format!("has {} faults; the limit is {MAX_FAULTS}", s.faults.len()),
        ));
    }
    for (i, fault) in s.faults.iter().enumerate() {
        if fault.at_us > MAX_TIME_US {
            return Err(ScenarioError::new(
                format!("faults[{i}].at_ms"),
                format!("must be at most {} ms (one day)", MAX_TIME_US / 1000),
            ));
        }
        if s.until_us.is_none() && fault.at_us > DEFAULT_RUN_LIMIT_US {
            return Err(ScenarioError::new(
                format!("faults[{i}].at_ms"),
                format!(
                    "{} ms is after {} ms, where a run without until_ms stops, so the fault would never happen; set until_ms to at least {} to reach it",
                    ms_text(fault.at_us),
                    DEFAULT_RUN_LIMIT_US / 1000,
                    ms_text(fault.at_us)
                ),
            ));
        }
        let field = format!("faults[{i}].{}", fault.action.key());
        let total = s.total_nodes_in(catalog);
        let check = |id: u32| {
            if id < total {
                Ok(())
            } else {
                Err(ScenarioError::new(
                    field.clone(),
                    format!("names node {id}, but ids run from 0 to {}", total - 1),
                ))
            }
        };
        let check_target = |t: &Target| match t {
            Target::Node(id) => check(*id),
            Target::Leader | Target::LeaderOrNext => Ok(()),
        };
        match &fault.action {
            FaultAction::Crash(t) | FaultAction::Recover(t) => check_target(t)?,
            FaultAction::Pause { node, .. }
            | FaultAction::Clock { node, .. }
            | FaultAction::Slow { node, .. }
            | FaultAction::Flaky { node, .. } => check_target(node)?,
            FaultAction::Cut { from, to } | FaultAction::Uncut { from, to } => {
                check(*from)?;
                check(*to)?;
                if from == to {
                    return Err(ScenarioError::new(field, "needs two different nodes"));
                }
            }
            FaultAction::Partition(groups) => {
                let mut seen = vec![false; total as usize];
                for id in groups.iter().flatten() {
                    check(*id)?;
                    if std::mem::replace(&mut seen[*id as usize], true) {
                        return Err(ScenarioError::new(
                            field,
                            format!("names node {id} in more than one group"),
                        ));
                    }
                }
            }
            FaultAction::Heal | FaultAction::Network(_) => {}
        }
    }
    Ok(())
}
