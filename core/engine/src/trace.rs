//! The structured trace of a run, its stable hash, and a plain-text
//! rendering for golden files and the event log.
//!
//! The hash is computed for every run whether or not the events are kept,
//! from integers only (times, ids, kinds, and the derived `Hash` of each
//! message and timer fed through [`TraceHasher`], which writes every integer
//! as 8 little-endian bytes whatever the platform's word size), so the same
//! scenario gives the same hash natively and in wasm.

use crate::network::DropReason;
use crate::protocol::{NodeId, Purpose, Role, TimerClass};
use crate::time::{Micros, to_ms};
use serde::Serialize;
use std::hash::Hasher;

/// The tag that follows the time of each event in the trace hash, naming
/// what happened; the event's own words follow it. The numbers are part
/// of every stored hash (golden traces, the corpus, links): never change
/// or reuse one. 2 was never used; 11 was the note, which left the hash
/// when notes became recording-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum HashTag {
    /// A node started: node, whether it initiates.
    Start = 1,
    /// A timer fired: node, then the timer's derived `Hash`.
    Timer = 3,
    /// A send was reported undeliverable: node, destination, kind.
    Undeliverable = 4,
    /// A paused node resumed: node.
    Resume = 5,
    /// A message was dropped: message id, reason.
    Drop = 6,
    /// A message was delivered: message id.
    Deliver = 7,
    /// A role announcement: node, role, term (`u64::MAX` for none).
    Role = 8,
    /// A leader announcement: node, leader (`u64::MAX` for none).
    Leader = 9,
    /// A node started an election: node.
    ElectionStarted = 10,
    /// A message was sent: id, from, to, arrival time, then the message's
    /// derived `Hash`.
    Send = 12,
    /// A fault aimed at "the leader" found none.
    LeaderlessSkip = 13,
    /// A node was paused: node, until.
    Pause = 14,
    /// A partition: `id << 32 | group` for every node.
    Partition = 15,
    /// The partition healed.
    Heal = 16,
    /// A node was slowed: node, extra delay.
    Slow = 17,
    /// A link was cut: from, to.
    Cut = 18,
    /// A cut link was restored: from, to.
    Uncut = 19,
    /// The network changed: latency range.
    Network = 20,
    /// A node crashed: node.
    Crash = 21,
    /// A node recovered: node.
    Recover = 22,
    /// A clock was set: node, offset, drift bits.
    Clock = 23,
    /// A violation: then the property's name as bytes.
    Violation = 24,
    /// A vote: node, term, candidate.
    Vote = 25,
    /// A resource write: resource, writer, token, accepted.
    Write = 26,
    /// A lease held or given up: node, held.
    Lease = 27,
}

/// A stable 64-bit FNV-1a hasher with platform-independent integer writes.
#[derive(Debug, Clone)]
pub struct TraceHasher(u64);

impl Default for TraceHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for TraceHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        // One multiply per word instead of eight; still a fixed function.
        self.0 = (self.0 ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        self.0 ^= self.0 >> 29;
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as i64 as u64);
    }
}

/// One thing that happened.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A node started.
    Start {
        /// The node.
        node: NodeId,
        /// Whether it starts an election at once.
        initiate: bool,
    },
    /// A message left its sender.
    Send {
        /// Message id (copies of a duplicated message share it).
        id: u64,
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Kind name.
        kind: &'static str,
        /// Election or background.
        purpose: Purpose,
        /// When it arrives (or is lost).
        arrive_us: Micros,
        /// Whether this is the extra copy of a duplicated message.
        duplicate: bool,
        /// The payload, readable.
        detail: String,
    },
    /// A message was handed to its receiver.
    Deliver {
        /// Message id.
        id: u64,
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Kind name.
        kind: &'static str,
    },
    /// A message was lost.
    Drop {
        /// Message id.
        id: u64,
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// Kind name.
        kind: &'static str,
        /// Why.
        reason: DropReason,
    },
    /// The sender learned that a message could not be delivered.
    Undeliverable {
        /// The sender.
        node: NodeId,
        /// The unreachable receiver.
        to: NodeId,
        /// Kind name.
        kind: &'static str,
    },
    /// A timer fired.
    Timer {
        /// The node.
        node: NodeId,
        /// Which timer.
        timer: String,
        /// What the timer is for (the protocol's
        /// [`crate::protocol::Protocol::timer_class`]): what tells a
        /// heartbeat from a timer that changes a role, for the story's
        /// captions and moments. Not serialized (the trace JSON keeps its
        /// keys) and not hashed (the hash writes the timer itself).
        #[serde(skip_serializing)]
        class: TimerClass,
    },
    /// A node's role changed.
    Role {
        /// The node.
        node: NodeId,
        /// New role.
        role: Role,
        /// Term, if the algorithm has terms.
        term: Option<u64>,
    },
    /// A node's belief about the leader changed.
    Leader {
        /// The node.
        node: NodeId,
        /// Whom it believes leads.
        leader: Option<NodeId>,
    },
    /// A node started an election.
    Election {
        /// The node.
        node: NodeId,
    },
    /// A node crashed.
    Crash {
        /// The node.
        node: NodeId,
    },
    /// A node recovered.
    Recover {
        /// The node.
        node: NodeId,
    },
    /// A node was paused.
    Pause {
        /// The node.
        node: NodeId,
        /// When it resumes.
        until_us: Micros,
    },
    /// A paused node resumed.
    Resume {
        /// The node.
        node: NodeId,
    },
    /// A node's clock was set.
    Clock {
        /// The node.
        node: NodeId,
        /// New offset.
        offset_us: i64,
        /// New drift.
        drift: f64,
    },
    /// A node became slow (or fast again, with 0).
    Slow {
        /// The node.
        node: NodeId,
        /// Extra delay per message.
        extra_us: Micros,
    },
    /// The network split.
    Partition {
        /// Group of each node.
        groups: Vec<Vec<NodeId>>,
    },
    /// The network healed.
    Heal,
    /// A one-way link was cut.
    Cut {
        /// Sender side.
        from: NodeId,
        /// Receiver side.
        to: NodeId,
    },
    /// A one-way link was restored.
    Uncut {
        /// Sender side.
        from: NodeId,
        /// Receiver side.
        to: NodeId,
    },
    /// Network parameters changed.
    Network {
        /// Latency range, ms.
        latency_ms: (f64, f64),
        /// Loss probability.
        drop: f64,
        /// Duplication probability.
        duplicate: f64,
    },
    /// A fault had nothing to act on (e.g. "crash the leader" with none).
    FaultSkipped {
        /// What was skipped and why.
        detail: String,
    },
    /// A node voted.
    Vote {
        /// The voter.
        node: NodeId,
        /// The term.
        term: u64,
        /// Whom it voted for.
        candidate: NodeId,
    },
    /// A resource node handled a write.
    Write {
        /// The resource node.
        node: NodeId,
        /// Who wrote.
        writer: NodeId,
        /// The writer's fencing token.
        token: u64,
        /// Whether it was applied.
        accepted: bool,
    },
    /// A node began or stopped believing it holds a lease.
    Lease {
        /// The node.
        node: NodeId,
        /// Whether it now believes it holds the lease.
        held: bool,
    },
    /// A plain-language remark from a node.
    Note {
        /// The node.
        node: NodeId,
        /// The remark.
        text: String,
    },
    /// The recorded trace reached [`crate::engine::MAX_TRACE_EVENTS`]: the
    /// last event recorded. The run goes on, its counters and trace hash
    /// still cover every event; only the event-by-event record stops, so
    /// that a long run's memory stays bounded.
    Truncated {
        /// Events recorded before this marker.
        after: u64,
    },
    /// A property check failed.
    Violation {
        /// Property name.
        property: &'static str,
        /// What happened.
        detail: String,
        /// Nodes involved.
        nodes: Vec<NodeId>,
    },
}

/// An event and its true time.
#[derive(Debug, Clone, Serialize)]
pub struct TraceEvent {
    /// True time, microseconds.
    pub at_us: Micros,
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
}

fn node_list(nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(|n| format!("n{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Event {
    /// One line of plain language.
    pub fn describe(&self) -> String {
        match self {
            Event::Start {
                node,
                initiate: true,
            } => format!("n{node} starts (an initiator)"),
            Event::Start {
                node,
                initiate: false,
            } => format!("n{node} starts and waits for a leader"),
            Event::Send {
                from,
                to,
                detail,
                duplicate,
                ..
            } => {
                let copy = if *duplicate { " (duplicate copy)" } else { "" };
                format!("n{from} -> n{to}  {detail}{copy}")
            }
            Event::Deliver { from, to, kind, .. } => format!("n{to} receives {kind} from n{from}"),
            Event::Drop {
                from,
                to,
                kind,
                reason,
                ..
            } => {
                let why = match reason {
                    DropReason::Lost => "lost by the network",
                    DropReason::Partition => "blocked by the partition",
                    DropReason::LinkCut => "blocked by a cut link",
                    DropReason::NodeDown => "not received: the receiver is down",
                };
                format!("{kind} n{from} -> n{to} {why}")
            }
            Event::Undeliverable { node, to, kind } => {
                format!("n{node} gives up on its {kind} to n{to}: no answer from the link")
            }
            Event::Timer { node, timer, .. } => format!("n{node}: timer {timer} fires"),
            Event::Role { node, role, term } => match term {
                Some(t) => format!("n{node} becomes {role:?} in term {t}").to_ascii_lowercase(),
                None => format!("n{node} becomes {role:?}").to_ascii_lowercase(),
            },
            Event::Leader {
                node,
                leader: Some(l),
            } if l == node => format!("n{node} knows it leads"),
            Event::Leader {
                node,
                leader: Some(l),
            } => format!("n{node} now follows n{l}"),
            Event::Leader { node, leader: None } => format!("n{node} knows no leader"),
            Event::Election { node } => format!("n{node} starts an election"),
            Event::Crash { node } => format!("n{node} crashes"),
            Event::Recover { node } => format!("n{node} recovers"),
            Event::Pause { node, until_us } => {
                format!("n{node} pauses until {} ms", to_ms(*until_us))
            }
            Event::Resume { node } => format!("n{node} resumes"),
            Event::Clock {
                node,
                offset_us,
                drift,
            } => format!(
                "n{node}'s clock is set to offset {} ms, drift {drift}",
                *offset_us as f64 / 1000.0
            ),
            Event::Slow { node, extra_us } => {
                format!("n{node} handles each message {} ms late", to_ms(*extra_us))
            }
            Event::Partition { groups } => {
                let parts: Vec<String> = groups
                    .iter()
                    .map(|g| format!("{{{}}}", node_list(g)))
                    .collect();
                format!("network splits into {}", parts.join(" | "))
            }
            Event::Heal => "network heals".to_string(),
            Event::Cut { from, to } => format!("link n{from} -> n{to} is cut"),
            Event::Uncut { from, to } => format!("link n{from} -> n{to} is restored"),
            Event::Network {
                latency_ms,
                drop,
                duplicate,
            } => format!(
                "network: latency {}-{} ms, drop {drop}, duplicate {duplicate}",
                latency_ms.0, latency_ms.1
            ),
            Event::FaultSkipped { detail } => detail.clone(),
            Event::Vote {
                node,
                term,
                candidate,
            } => format!("n{node} votes for n{candidate} in term {term}"),
            Event::Write {
                node,
                writer,
                token,
                accepted: true,
            } => format!("resource n{node} applies a write from n{writer} with token {token}"),
            Event::Write {
                node,
                writer,
                token,
                accepted: false,
            } => format!(
                "resource n{node} rejects a write from n{writer}: token {token} is stale (fenced off)"
            ),
            Event::Lease { node, held: true } => format!("n{node} believes it holds the lease"),
            Event::Lease { node, held: false } => format!("n{node} no longer holds the lease"),
            Event::Note { node, text } => format!("n{node}: {text}"),
            Event::Truncated { after } => format!(
                "trace truncated after {after} events: the run goes on and its counts and trace hash cover every event, but no more events are recorded"
            ),
            Event::Violation {
                property, detail, ..
            } => format!("VIOLATION {property}: {detail}"),
        }
    }
}

/// Renders events as readable text, one per line: `   12.345 ms  ...`.
pub fn render_text(events: &[TraceEvent]) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&format!(
            "{:>10.3} ms  {}\n",
            to_ms(e.at_us),
            e.event.describe()
        ));
    }
    out
}
