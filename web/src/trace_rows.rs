//! The recorded trace as flat numeric rows, for the views that read many
//! events at once (the space-time diagram, the log's filters, the
//! narration): one row of [`TRACE_FIELDS`] `f64`s per event, handed to JS
//! as one `Float64Array`, instead of one serde object (and one sentence)
//! per event as [`Playground::events`] gives.
//!
//! Only a conversion: every number is a field of the core's
//! [`Event`], or its position in a fixed list
//! ([`TRACE_TYPES`], the algorithm's kinds, [`views::role_code`]). What a
//! column means depends on the event type; "none" is `-1`:
//!
//! | type | node | peer | kind, id | until_ms | term | value | extra |
//! |---|---|---|---|---|---|---|---|
//! | send | sender | receiver | yes | arrival | | purpose: 0 election, 1 background | 1: duplicate copy |
//! | deliver | sender | receiver | yes | | | | |
//! | drop | sender | receiver | yes | | | reason: 0 lost, 1 partition, 2 link cut, 3 receiver down | |
//! | undeliverable | sender | receiver | kind | | | | |
//! | role | node | | | | term | role code | |
//! | leader | node | its leader | | | | | |
//! | vote | voter | candidate | | | term | | |
//! | write | resource | writer | | | token | 1: applied | |
//! | lease | node | | | | | 1: held | |
//! | start | node | | | | | 1: initiator | |
//! | pause | node | | | resume time | | | |
//! | slow | node | | | | | extra ms | |
//! | clock | node | | | | | offset ms | drift |
//! | cut, uncut | from | to | | | | | |
//! | violation | first node | second node | | | | | |
//!
//! Other types (timer, election, crash, recover, resume, note) name only
//! their node; partition, heal, network and fault_skipped none.

use crate::playground::Playground;
use crate::views;
use election_core::network::DropReason;
use election_core::protocol::{NodeId, Purpose};
use election_core::time::{Micros, to_ms};
use election_core::trace::{Event, TraceEvent};
use wasm_bindgen::prelude::*;

/// Columns of one trace row.
pub const TRACE_FIELDS: &[&str] = &[
    "index", "at_ms", "type", "node", "peer", "kind", "id", "until_ms", "term", "value", "extra",
];

/// Event types by the `type` column, named as the events' serde `type`.
pub const TRACE_TYPES: &[&str] = &[
    "start",
    "send",
    "deliver",
    "drop",
    "undeliverable",
    "timer",
    "role",
    "leader",
    "election",
    "crash",
    "recover",
    "pause",
    "resume",
    "clock",
    "slow",
    "partition",
    "heal",
    "cut",
    "uncut",
    "network",
    "fault_skipped",
    "vote",
    "write",
    "lease",
    "note",
    "violation",
    "truncated",
];

fn type_code(event: &Event) -> usize {
    match event {
        Event::Start { .. } => 0,
        Event::Send { .. } => 1,
        Event::Deliver { .. } => 2,
        Event::Drop { .. } => 3,
        Event::Undeliverable { .. } => 4,
        Event::Timer { .. } => 5,
        Event::Role { .. } => 6,
        Event::Leader { .. } => 7,
        Event::Election { .. } => 8,
        Event::Crash { .. } => 9,
        Event::Recover { .. } => 10,
        Event::Pause { .. } => 11,
        Event::Resume { .. } => 12,
        Event::Clock { .. } => 13,
        Event::Slow { .. } => 14,
        Event::Partition { .. } => 15,
        Event::Heal => 16,
        Event::Cut { .. } => 17,
        Event::Uncut { .. } => 18,
        Event::Network { .. } => 19,
        Event::FaultSkipped { .. } => 20,
        Event::Vote { .. } => 21,
        Event::Write { .. } => 22,
        Event::Lease { .. } => 23,
        Event::Note { .. } => 24,
        Event::Violation { .. } => 25,
        Event::Truncated { .. } => 26,
    }
}

fn drop_code(reason: DropReason) -> f64 {
    match reason {
        DropReason::Lost => 0.0,
        DropReason::Partition => 1.0,
        DropReason::LinkCut => 2.0,
        DropReason::NodeDown => 3.0,
    }
}

fn flag(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

fn id(node: NodeId) -> f64 {
    f64::from(node)
}

/// One row: `[index, at_ms, type, node, peer, kind, id, until_ms, term,
/// value, extra]`. `kinds` are the algorithm's message kinds (the `kind`
/// column is the position of the event's kind among them).
pub fn row(index: usize, e: &TraceEvent, kinds: &[&str]) -> [f64; 11] {
    let kind_of = |k: &str| {
        kinds
            .iter()
            .position(|x| *x == k)
            .map_or(-1.0, |i| i as f64)
    };
    let none = -1.0;
    let ms = |us: Micros| to_ms(us);
    // node, peer, kind, id, until_ms, term, value, extra
    let cols: [f64; 8] = match &e.event {
        Event::Start { node, initiate } => [
            id(*node),
            none,
            none,
            none,
            none,
            none,
            flag(*initiate),
            none,
        ],
        Event::Send {
            id: msg,
            from,
            to,
            kind,
            purpose,
            arrive_us,
            duplicate,
            ..
        } => [
            id(*from),
            id(*to),
            kind_of(kind),
            *msg as f64,
            ms(*arrive_us),
            none,
            flag(*purpose == Purpose::Background),
            flag(*duplicate),
        ],
        Event::Deliver {
            id: msg,
            from,
            to,
            kind,
        } => [
            id(*from),
            id(*to),
            kind_of(kind),
            *msg as f64,
            none,
            none,
            none,
            none,
        ],
        Event::Drop {
            id: msg,
            from,
            to,
            kind,
            reason,
        } => [
            id(*from),
            id(*to),
            kind_of(kind),
            *msg as f64,
            none,
            none,
            drop_code(*reason),
            none,
        ],
        Event::Undeliverable { node, to, kind } => [
            id(*node),
            id(*to),
            kind_of(kind),
            none,
            none,
            none,
            none,
            none,
        ],
        Event::Role { node, role, term } => [
            id(*node),
            none,
            none,
            none,
            none,
            term.map_or(none, |t| t as f64),
            views::role_code(*role),
            none,
        ],
        Event::Leader { node, leader } => [
            id(*node),
            leader.map_or(none, id),
            none,
            none,
            none,
            none,
            none,
            none,
        ],
        Event::Vote {
            node,
            term,
            candidate,
        } => [
            id(*node),
            id(*candidate),
            none,
            none,
            none,
            *term as f64,
            none,
            none,
        ],
        Event::Write {
            node,
            writer,
            token,
            accepted,
        } => [
            id(*node),
            id(*writer),
            none,
            none,
            none,
            *token as f64,
            flag(*accepted),
            none,
        ],
        Event::Lease { node, held } => [id(*node), none, none, none, none, none, flag(*held), none],
        Event::Pause { node, until_us } => {
            [id(*node), none, none, none, ms(*until_us), none, none, none]
        }
        Event::Slow { node, extra_us } => {
            [id(*node), none, none, none, none, none, ms(*extra_us), none]
        }
        Event::Clock {
            node,
            offset_us,
            drift,
        } => [
            id(*node),
            none,
            none,
            none,
            none,
            none,
            *offset_us as f64 / 1000.0,
            *drift,
        ],
        Event::Cut { from, to } | Event::Uncut { from, to } => {
            [id(*from), id(*to), none, none, none, none, none, none]
        }
        Event::Violation { nodes, .. } => [
            nodes.first().map_or(none, |n| id(*n)),
            nodes.get(1).map_or(none, |n| id(*n)),
            none,
            none,
            none,
            none,
            none,
            none,
        ],
        Event::Timer { node, .. }
        | Event::Election { node }
        | Event::Crash { node }
        | Event::Recover { node }
        | Event::Resume { node }
        | Event::Note { node, .. } => [id(*node), none, none, none, none, none, none, none],
        Event::Partition { .. }
        | Event::Heal
        | Event::Network { .. }
        | Event::FaultSkipped { .. }
        | Event::Truncated { .. } => [none; 8],
    };
    let mut out = [0.0; 11];
    out[0] = index as f64;
    out[1] = ms(e.at_us);
    out[2] = type_code(&e.event) as f64;
    out[3..].copy_from_slice(&cols);
    out
}

/// Bit of each event type in a `types` mask: `1 << type code`.
pub fn type_bit(event: &Event) -> u32 {
    1 << type_code(event)
}

/// Every event type: the mask that keeps everything.
pub const ALL_TYPES: u32 = u32::MAX;

/// Rows of the events of `trace[from..to]` (clamped to the trace) whose
/// type is in the `types` mask (bit `1 << code` per [`TRACE_TYPES`] code).
pub fn rows(trace: &[TraceEvent], from: usize, to: usize, types: u32, kinds: &[&str]) -> Vec<f64> {
    let to = to.min(trace.len());
    let from = from.min(to);
    let mut out = Vec::with_capacity(if types == ALL_TYPES {
        (to - from) * TRACE_FIELDS.len()
    } else {
        0
    });
    for (i, e) in trace[from..to].iter().enumerate() {
        if types & type_bit(&e.event) != 0 {
            out.extend_from_slice(&row(from + i, e, kinds));
        }
    }
    out
}

/// Index of the first event at or after `t` (the trace is in time order),
/// `trace.len()` when none is.
pub fn index_at(trace: &[TraceEvent], t: Micros) -> usize {
    trace.partition_point(|e| e.at_us < t)
}

/// The JS side.
#[wasm_bindgen]
impl Playground {
    /// Trace events `from..to` (clamped to the trace) whose type is in the
    /// `types` mask (bit `1 << i` for `trace_types()[i]`; `0xffffffff` for
    /// all) as rows of `trace_fields()` columns, one `Float64Array`. The
    /// caller bounds the range: the work is proportional to it.
    pub fn trace_rows(&self, from: usize, to: usize, types: u32) -> Vec<f64> {
        rows(self.sim().trace(), from, to, types, self.sim().kinds())
    }

    /// Index of the first trace event at or after `t_ms` (the event count
    /// when there is none yet): where a view of the run from `t_ms` on
    /// starts reading.
    pub fn event_index_at(&self, t_ms: f64) -> usize {
        index_at(self.sim().trace(), crate::playground::ms_to_us(t_ms))
    }
}

/// Names of the columns of [`Playground::trace_rows`], in order.
#[wasm_bindgen]
pub fn trace_fields() -> Vec<String> {
    TRACE_FIELDS.iter().map(|f| f.to_string()).collect()
}

/// Event type names by the `type` column of [`Playground::trace_rows`].
#[wasm_bindgen]
pub fn trace_types() -> Vec<String> {
    TRACE_TYPES.iter().map(|t| t.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::Scenario;
    use election_core::ScenarioExt;

    fn col(row: &[f64], name: &str) -> f64 {
        row[TRACE_FIELDS.iter().position(|f| *f == name).unwrap()]
    }

    fn type_name(row: &[f64]) -> &'static str {
        TRACE_TYPES[col(row, "type") as usize]
    }

    #[test]
    fn every_type_has_a_bit() {
        assert!(TRACE_TYPES.len() <= 32);
    }

    #[test]
    fn type_codes_follow_the_names_serde_gives() {
        let s = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":4,"seed":2,"faults":[{"at_ms":100,"crash":3},{"at_ms":200,"pause":1,"for_ms":50}]}"#,
        )
        .unwrap();
        let mut p = Playground::from_scenario(&s);
        p.seek_us(400_000);
        let trace = p.sim().trace();
        let all = rows(trace, 0, usize::MAX, ALL_TYPES, p.sim().kinds());
        assert_eq!(all.len(), trace.len() * TRACE_FIELDS.len());
        for (e, row) in trace.iter().zip(all.chunks(TRACE_FIELDS.len())) {
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(json["type"], type_name(row), "{json}");
            assert_eq!(col(row, "at_ms"), to_ms(e.at_us));
        }
    }

    #[test]
    fn sends_carry_what_the_diagram_draws() {
        let s =
            Scenario::from_json(r#"{"algorithm":"chang-roberts","nodes":5,"ring":"descending"}"#)
                .unwrap();
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let trace = p.sim().trace();
        let all = rows(trace, 0, trace.len(), ALL_TYPES, p.sim().kinds());
        let sends: Vec<&[f64]> = all
            .chunks(TRACE_FIELDS.len())
            .filter(|r| type_name(r) == "send")
            .collect();
        assert_eq!(sends.len() as u64, p.sim().metrics().sent);
        let (i, first) = trace
            .iter()
            .enumerate()
            .find(|(_, e)| matches!(e.event, Event::Send { .. }))
            .unwrap();
        let Event::Send {
            id: msg,
            from,
            to,
            kind,
            arrive_us,
            ..
        } = &first.event
        else {
            unreachable!()
        };
        let row = sends[0];
        assert_eq!(col(row, "index"), i as f64);
        assert_eq!(col(row, "node"), f64::from(*from));
        assert_eq!(col(row, "peer"), f64::from(*to));
        assert_eq!(p.sim().kinds()[col(row, "kind") as usize], *kind);
        assert_eq!(col(row, "id"), *msg as f64);
        assert_eq!(col(row, "until_ms"), to_ms(*arrive_us));
        assert_eq!(col(row, "value"), 0.0, "election purpose");
    }

    #[test]
    fn a_type_mask_keeps_those_events_with_their_index() {
        let s = Scenario::from_json(r#"{"algorithm":"bully","nodes":5,"seed":4}"#).unwrap();
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let trace = p.sim().trace();
        let traffic = ["send", "deliver", "drop", "undeliverable"];
        let mask = TRACE_TYPES
            .iter()
            .enumerate()
            .filter(|(_, t)| !traffic.contains(t))
            .fold(0u32, |m, (i, _)| m | 1 << i);
        let quiet = rows(trace, 0, trace.len(), mask, p.sim().kinds());
        let expected: Vec<usize> = trace
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                !matches!(
                    e.event,
                    Event::Send { .. }
                        | Event::Deliver { .. }
                        | Event::Drop { .. }
                        | Event::Undeliverable { .. }
                )
            })
            .map(|(i, _)| i)
            .collect();
        let got: Vec<usize> = quiet
            .chunks(TRACE_FIELDS.len())
            .map(|r| col(r, "index") as usize)
            .collect();
        assert_eq!(got, expected);
        assert!(got.len() < trace.len());
    }

    #[test]
    fn index_at_finds_the_first_event_at_or_after() {
        let s = Scenario::from_json(r#"{"algorithm":"bully","nodes":5,"seed":4}"#).unwrap();
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let trace = p.sim().trace();
        let t = trace[trace.len() / 2].at_us;
        let i = index_at(trace, t);
        assert_eq!(trace[i].at_us, t);
        assert!(i == 0 || trace[i - 1].at_us < t);
        assert_eq!(index_at(trace, 0), 0);
        assert_eq!(index_at(trace, Micros::MAX), trace.len());
    }
}
