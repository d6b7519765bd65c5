//! Flat numeric views of the simulation for drawing every frame: one row
//! of `f64`s per node and per message on the wire, handed to JS as a
//! `Float64Array` (one copy per frame, no per-node objects), like the
//! Game of Life of the Rust and WebAssembly book.
//!
//! The column order is [`NODE_FIELDS`] / [`FLIGHT_FIELDS`]; the page reads
//! the names once (`node_fields()`, `flight_fields()`) instead of hard-coding
//! offsets. Times are in milliseconds; "none" is `-1`. New columns go at
//! the end.
//!
//! A node's pending timer (the countdown arc) is three columns: the class
//! of the armed timer that fires first (`timer_class`, an index into
//! `timer_classes()`), when it was armed (`timer_set_ms`) and when it
//! fires (`timer_fire_ms`), both true simulated time; `-1` in all three
//! when no timer is armed (a crashed node has none).

use election_core::engine::{Flight, NodeView};
use election_core::protocol::{Role, TimerClass};
use election_core::time::to_ms;
use serde::Serialize;

/// Columns of one node row.
pub const NODE_FIELDS: &[&str] = &[
    "id",
    "alive",
    "paused",
    "role",
    "term",
    "leader",
    "group",
    "slow_ms",
    "local_ms",
    "timers",
    "timer_class",
    "timer_set_ms",
    "timer_fire_ms",
];

/// Columns of one message row.
pub const FLIGHT_FIELDS: &[&str] = &["id", "from", "to", "kind", "sent_ms", "arrive_ms", "lost"];

/// Role as a number ([`Role::code`]: follower 0, candidate 1, leader 2,
/// service 3, observer 4).
pub fn role_code(role: Role) -> f64 {
    f64::from(role.code())
}

/// One timer class for the page's legend: its `name` (`election_timeout`)
/// and a short `label` (`election timeout`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimerClassInfo {
    /// Stable name, as in JSON.
    pub name: &'static str,
    /// A few words for a legend.
    pub label: &'static str,
}

/// Every timer class in code order: entry `i` describes `timer_class` `i`.
pub fn timer_classes() -> Vec<TimerClassInfo> {
    TimerClass::ALL
        .iter()
        .map(|c| TimerClassInfo {
            name: c.name(),
            label: c.label(),
        })
        .collect()
}

fn flag(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

/// Every node, [`NODE_FIELDS`] columns per node.
pub fn node_rows(views: &[NodeView]) -> Vec<f64> {
    let mut out = Vec::with_capacity(views.len() * NODE_FIELDS.len());
    for v in views {
        out.extend_from_slice(&[
            f64::from(v.id),
            flag(v.alive),
            flag(v.paused),
            role_code(v.role),
            v.term.map_or(-1.0, |t| t as f64),
            v.leader.map_or(-1.0, f64::from),
            f64::from(v.group),
            to_ms(v.slow_us),
            v.local_us as f64 / 1000.0,
            v.timers as f64,
            v.next_timer.map_or(-1.0, |t| f64::from(t.class.code())),
            v.next_timer.map_or(-1.0, |t| to_ms(t.armed_us)),
            v.next_timer.map_or(-1.0, |t| to_ms(t.fires_us)),
        ]);
    }
    out
}

/// Every message on the wire, [`FLIGHT_FIELDS`] columns per message.
pub fn flight_rows(flights: &[Flight]) -> Vec<f64> {
    let mut out = Vec::with_capacity(flights.len() * FLIGHT_FIELDS.len());
    for f in flights {
        out.extend_from_slice(&[
            f.id as f64,
            f64::from(f.from),
            f64::from(f.to),
            f.kind as f64,
            to_ms(f.sent_us),
            to_ms(f.arrive_us),
            flag(f.lost),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::engine::PendingTimer;

    #[test]
    fn rows_follow_the_field_lists() {
        let flight = Flight {
            id: 4,
            from: 1,
            to: 2,
            kind: 3,
            sent_us: 1_500,
            arrive_us: 9_250,
            lost: true,
        };
        assert_eq!(
            flight_rows(&[flight]),
            vec![4.0, 1.0, 2.0, 3.0, 1.5, 9.25, 1.0]
        );
        assert_eq!(flight_rows(&[flight]).len(), FLIGHT_FIELDS.len());

        let node = NodeView {
            id: 3,
            alive: true,
            paused: false,
            slow_us: 0,
            role: Role::Leader,
            term: None,
            leader: Some(3),
            local_us: 12_345,
            group: 0,
            timers: 2,
            next_timer: Some(PendingTimer {
                class: TimerClass::Heartbeat,
                armed_us: 1_500,
                fires_us: 51_500,
            }),
        };
        let row = node_rows(std::slice::from_ref(&node));
        assert_eq!(row.len(), NODE_FIELDS.len());
        let col = |name: &str| row[NODE_FIELDS.iter().position(|f| *f == name).unwrap()];
        assert_eq!(col("role"), 2.0);
        assert_eq!(col("term"), -1.0);
        assert_eq!(col("leader"), 3.0);
        assert_eq!(col("local_ms"), 12.345);
        assert_eq!(col("timer_class"), 1.0);
        assert_eq!(timer_classes()[1].name, "heartbeat");
        assert_eq!(col("timer_set_ms"), 1.5);
        assert_eq!(col("timer_fire_ms"), 51.5);
        let idle = node_rows(&[NodeView {
            next_timer: None,
            ..node
        }]);
        for name in ["timer_class", "timer_set_ms", "timer_fire_ms"] {
            let i = NODE_FIELDS.iter().position(|f| *f == name).unwrap();
            assert_eq!(idle[i], -1.0, "{name}");
        }
        // The columns the page read before these were added keep their
        // places.
        assert_eq!(
            NODE_FIELDS[..10],
            [
                "id", "alive", "paused", "role", "term", "leader", "group", "slow_ms", "local_ms",
                "timers"
            ]
        );
    }

    #[test]
    fn timer_classes_come_in_code_order_with_a_label_each() {
        let names: Vec<&str> = timer_classes().iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "election_timeout",
                "heartbeat",
                "reply_wait",
                "retry",
                "lease_renew",
                "lease_expiry",
                "write",
                "other"
            ]
        );
        let labels: Vec<&str> = timer_classes().iter().map(|c| c.label).collect();
        assert_eq!(
            labels,
            [
                "election timeout",
                "heartbeat",
                "reply wait",
                "retry or delay",
                "lease renewal",
                "lease expiry",
                "resource write",
                "other timer"
            ]
        );
    }
}
