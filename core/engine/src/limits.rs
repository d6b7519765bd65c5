//! The limits of one run, each with its reason, and what a run reports
//! when it stops at one ([`StoppedBy`]). The table of every limit of the
//! project (scenario sizes, links, scripts, the page) is
//! docs/ARCHITECTURE.md, Limits and why; these are the ones the engine
//! enforces while a run goes on.
//!
//! A run that reaches one of [`Limit`]'s limits **stops cleanly at that
//! moment**: the event that reached it is the last one, nothing is
//! processed after it (`step` returns false, the queue reports nothing
//! left, the clock stays), and the summary says where and why
//! (`stopped_by: {limit, value, at_ms, message}`, with `end_ms` equal to
//! `at_ms`). The limits are checked the same way whether the run records
//! or not, natively or in wasm, so where a run stops is a function of its
//! scenario like everything else in it (docs/ARCHITECTURE.md,
//! Determinism rules): the memory estimate counts only what every run
//! holds (queued events, the messages' and the nodes' data), not the
//! recorded trace, which is bounded on its own ([`MAX_TRACE_EVENTS`],
//! [`MAX_TRACE_TEXT`]) and cut rather than stopped.
//!
//! What the checks cost: a few comparisons per event (`check_limits`)
//! and a pass over the nodes every [`MEMORY_CHECK_EVENTS`] events, about
//! 2% of a run's instructions (callgrind, `election run --algorithm raft
//! --nodes 64 --until-ms 60000`: 336.1 million before, 342.8 million
//! after, 161,724 events).

use crate::scenario::MAX_NODES;
use crate::time::{Micros, to_ms};
use serde::Serialize;

/// Most events one run may process. Bounds any run's work: natively the
/// engine does 1 to 20 million events a second (a 1,024-node Raft cluster
/// is the slowest, about 0.8 million), so a run stops within a few
/// seconds whatever its scenario; the page's wasm is 2 to 3 times slower
/// and works in slices. A one-day horizon on 1,024 Raft nodes stops
/// here, after about four minutes of simulated time.
pub const MAX_EVENTS: u64 = 5_000_000;

/// Most messages on the wire at once (copies: a duplicate is one more):
/// every node of the largest cluster (`MAX_NODES`, 1,024) sending to every
/// other at once, each message duplicated, which a 1,024-node Raft cluster
/// all starting comes near (1,047,552 requests for votes). Each is a
/// queued event of about 100 bytes, so the queue stays near 300 MB at
/// worst. Timeouts far below the latency, or a script that floods, reach
/// it within milliseconds of simulated time.
pub const MAX_IN_FLIGHT: u64 = 2 * MAX_NODES as u64 * MAX_NODES as u64;

/// Most queued events that are not messages: timers (a timer re-armed
/// earlier leaves its old entry queued until its time), undeliverable
/// notices, faults. Built-in algorithms hold a few per node; a script
/// arming timers in a loop reaches it.
pub const MAX_TIMERS: u64 = 1_000_000;

/// Most memory a run may hold by the engine's estimate: queued events,
/// the data of the messages on the wire and of every node (logs,
/// tables, a script's state), the links. Keeps the CLI far inside 2 GB
/// of address space and leaves the page's wasm room for the run's
/// checkpoints, the end search and the story, which hold copies of it.
pub const MAX_RUN_BYTES: u64 = 512 * 1024 * 1024;

/// Events between two full counts of the run's memory (a pass over every
/// node); in between, the estimate follows the queue and the messages'
/// data event by event.
pub const MEMORY_CHECK_EVENTS: u64 = 4096;

/// Most trace events a recording run keeps (about 20 MB of them). Past
/// it one `Truncated` marker is recorded and the rest of the run is
/// counted and hashed but not recorded, so a run of any length stays
/// bounded in memory (time-travel checkpoints are bounded separately, by
/// thinning).
pub const MAX_TRACE_EVENTS: usize = 250_000;

/// Most characters of one text in a trace event (a message's payload, a
/// note, a script's `ctx.log`): the event log shows one line per event,
/// and with [`MAX_TRACE_EVENTS`] this keeps a trace under about 100 MB
/// whatever a script logs. Longer texts end in an ellipsis.
pub const MAX_TRACE_TEXT: usize = 256;

/// A limit a run can stop at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// [`MAX_EVENTS`].
    Events,
    /// [`MAX_IN_FLIGHT`].
    MessagesInFlight,
    /// [`MAX_TIMERS`].
    Timers,
    /// [`MAX_RUN_BYTES`].
    RunMemory,
}

impl Limit {
    /// Every limit, in the order a run checks them.
    pub const ALL: [Limit; 4] = [
        Limit::Events,
        Limit::MessagesInFlight,
        Limit::Timers,
        Limit::RunMemory,
    ];

    /// The id, as the JSON names it (`"messages_in_flight"`).
    pub fn id(self) -> &'static str {
        match self {
            Limit::Events => "events",
            Limit::MessagesInFlight => "messages_in_flight",
            Limit::Timers => "timers",
            Limit::RunMemory => "run_memory",
        }
    }

    /// Its value.
    pub fn value(self) -> u64 {
        match self {
            Limit::Events => MAX_EVENTS,
            Limit::MessagesInFlight => MAX_IN_FLIGHT,
            Limit::Timers => MAX_TIMERS,
            Limit::RunMemory => MAX_RUN_BYTES,
        }
    }

    /// The limit in words: `1,000,000 messages in flight (the limit)`.
    pub fn describe(self) -> String {
        let value = self.value();
        match self {
            Limit::Events => format!("{} events (the limit)", grouped(value)),
            Limit::MessagesInFlight => {
                format!("{} messages in flight (the limit)", grouped(value))
            }
            Limit::Timers => format!(
                "{} timers and other scheduled events (the limit)",
                grouped(value)
            ),
            Limit::RunMemory => format!(
                "{} MB of memory for the run (the limit)",
                value / (1024 * 1024)
            ),
        }
    }
}

/// Where and why a run stopped at a limit: the summary's `stopped_by`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoppedBy {
    /// Which limit (`events`, `messages_in_flight`, `timers`,
    /// `run_memory`).
    pub limit: Limit,
    /// The limit's value (events, messages, bytes).
    pub value: u64,
    /// When the run stopped, ms: its `end_ms`.
    pub at_ms: f64,
    /// The limit in words, as the page and the CLI show it after "Stopped
    /// at 430.6 ms: ".
    pub message: String,
}

impl StoppedBy {
    /// `limit` reached at `at_us`.
    pub fn new(limit: Limit, at_us: Micros) -> Self {
        Self {
            limit,
            value: limit.value(),
            at_ms: to_ms(at_us),
            message: limit.describe(),
        }
    }
}

impl std::fmt::Display for StoppedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped at {} ms: {}", self.at_ms, self.message)
    }
}

/// `1000000` as `1,000,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` cut to at most [`MAX_TRACE_TEXT`] characters, ending in an
/// ellipsis when cut; unchanged (no copy) when short enough.
pub fn cut_text(text: String) -> String {
    if text.len() <= MAX_TRACE_TEXT || text.chars().count() <= MAX_TRACE_TEXT {
        return text;
    }
    let mut out: String = text.chars().take(MAX_TRACE_TEXT - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_say_themselves_in_words() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(5_000_000), "5,000,000");
        let s = StoppedBy::new(Limit::MessagesInFlight, 430_583);
        assert_eq!(
            s.to_string(),
            "stopped at 430.583 ms: 2,097,152 messages in flight (the limit)"
        );
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            serde_json::json!({"limit": "messages_in_flight", "value": 2_097_152,
                "at_ms": 430.583, "message": "2,097,152 messages in flight (the limit)"})
        );
        assert_eq!(
            Limit::RunMemory.describe(),
            "512 MB of memory for the run (the limit)"
        );
    }

    #[test]
    fn long_texts_are_cut_with_an_ellipsis() {
        assert_eq!(cut_text("short".into()), "short");
        let long = "é".repeat(1000);
        let cut = cut_text(long);
        assert_eq!(cut.chars().count(), MAX_TRACE_TEXT);
        assert!(cut.ends_with('…'));
    }
}
