//! Flat numeric views of the simulation for drawing every frame: one row
//! of `f64`s per node and per message on the wire, handed to JS as a
//! `Float64Array` (one copy per frame, no per-node objects), like the
//! Game of Life of the Rust and WebAssembly book.
//!
//! The column order is [`NODE_FIELDS`] / [`FLIGHT_FIELDS`]; the page reads
//! the names once (`node_fields()`, `flight_fields()`) instead of hard-coding
//! offsets. Times are in milliseconds; "none" is `-1`.

use election_core::engine::{Flight, NodeView};
use election_core::protocol::Role;
use election_core::time::to_ms;

/// Columns of one node row.
pub const NODE_FIELDS: &[&str] = &[
    "id", "alive", "paused", "role", "term", "leader", "group", "slow_ms", "local_ms", "timers",
];

/// Columns of one message row.
pub const FLIGHT_FIELDS: &[&str] = &["id", "from", "to", "kind", "sent_ms", "arrive_ms", "lost"];

/// Role as a number: follower 0, candidate 1, leader 2, service 3.
pub fn role_code(role: Role) -> f64 {
    match role {
        Role::Follower => 0.0,
        Role::Candidate => 1.0,
        Role::Leader => 2.0,
        Role::Service => 3.0,
    }
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
        };
        let row = node_rows(&[node]);
        assert_eq!(row.len(), NODE_FIELDS.len());
        let col = |name: &str| row[NODE_FIELDS.iter().position(|f| *f == name).unwrap()];
        assert_eq!(col("role"), 2.0);
        assert_eq!(col("term"), -1.0);
        assert_eq!(col("leader"), 3.0);
        assert_eq!(col("local_ms"), 12.345);
    }
}
