//! The textbook's design trade-offs table, measured: for every algorithm,
//! messages per election at each size and the growth law that fits them,
//! election latency in network round trips, whether it stays safe under
//! a partition, and what a flaky top node does to it. `election
//! tradeoffs` prints it; the page shows it with a link to the run behind
//! each cell. Every figure is a function of the [`Spec`] (sizes and
//! seeds): the runs are ordinary scenarios, replayable one by one.
//!
//! How each column is measured (below, says why):
//! - messages: election-purpose messages of the first election with every
//!   node starting at once, and of the failover after the leader crashes
//!   once the cluster settled; the mean over the seeds, per size; the
//!   growth law that fits ([`growth::fit`]).
//! - latency: on a network with a fixed one-way delay, the time from the
//!   first election message to the moment the cluster settled, in round
//!   trips (two delays); for the first election and for the failover
//!   (whose failure-detection wait before the first message is left out).
//! - safe under partition: the failure finder ([`crate::check`]) over
//!   `partition_schedules` random partition schedules (`election check
//!   --faults partition`): "no" with the shrunk counterexample's link, or
//!   "yes" with how many schedules were tried.
//! - flaky top node: leader changes and leaderless time while the first
//!   leader (the highest-ranked node where ranks exist) crashes and comes
//!   back every `FLAKY_PERIOD_MS`, against the same window with it steady.
//!
//! # The trade-off table
//!
//! `core/tools/src/tradeoffs/` measures the course material's design trade-offs
//! table; `election tradeoffs` (cli/src/tradeoffs.rs, one algorithm per
//! thread) and the page's Trade-offs panel (www/tradeoffs/: one row per
//! message from up to four Web Workers calling `tradeoffs_row`) print the
//! same rows. Every figure comes from ordinary scenarios built from
//! `tradeoffs::base` (n nodes, every node starting, a fixed 10 ms one-way
//! delay so that a round trip is exactly 20 ms), so each cell carries the
//! page link of the first seed's run and can be replayed alone.
//!
//! - **Messages**: `messages.election` of the first election, and
//!   `recovery_election_messages` after `{"crash": "leader"}` 50 ms after
//!   the first election settled; means over the seeds. `growth::fit` picks
//!   among 1, n, n log n and n² by least squares on a log scale (one free
//!   constant per law) and reports the log-log slope between the smallest
//!   and largest size, so a law that fits badly shows it.
//! - **Round trips**: from the first election-purpose send (read from the
//!   trace, which is recorded at the smallest size only) to the run's end,
//!   over 20 ms. The failover's count starts at the first election message
//!   after the crash, so the failure detector's timeout is not counted.
//! - **Safe under partition**: `check::check_seed` over seeds 1 to
//!   `partition_schedules` with partition faults only (exactly what
//!   `election check --algorithm ID --faults partition --seeds 1..K` runs),
//!   the first failure shrunk with `check::shrink_seed`.
//! - **Flaky top node**: the first leader (the top-ranked node where ranks
//!   exist) made `flaky` (down 300 ms of every 1,000, for 6 s) from 50 ms
//!   after the first election; its leader changes and leaderless time against
//!   the same window steady. Handled: at most one extra leader change on
//!   average.
//!
//! The textbook's claims are data (`claims.rs`), not prose, so the page and
//! the Markdown print them beside the measurement; docs/TRADEOFFS.md reads
//! the disagreements.

pub mod claims;
pub mod growth;
mod markdown;
pub mod spec;

use crate::ScenarioExt;
pub use markdown::markdown;
pub use spec::Spec;

use crate::algorithms;
use crate::check::{self, CheckSpec, FaultKind};
use crate::protocol::Purpose;
use crate::scenario::Scenario;
use crate::share;
use crate::sim::{RunSummary, Simulation};
use crate::trace::Event;
use claims::{Claim, Column};
use growth::Growth;
use serde::Serialize;
use serde_json::{Value, json};

/// One-way message delay of the measuring network, ms (fixed, so a round
/// trip is exactly twice it).
pub const DELAY_MS: f64 = 10.0;

/// How long after the first election settles the leader is crashed (for
/// the failover) or starts to flap, ms.
const AFTER_SETTLE_MS: f64 = 50.0;

/// The flaky node's cycle: down for `FLAKY_DOWN_MS` every
/// `FLAKY_PERIOD_MS`, for `FLAKY_FOR_MS`.
pub const FLAKY_PERIOD_MS: f64 = 1000.0;
/// See [`FLAKY_PERIOD_MS`].
pub const FLAKY_DOWN_MS: f64 = 300.0;
/// See [`FLAKY_PERIOD_MS`].
pub const FLAKY_FOR_MS: f64 = 6000.0;

/// The verdict of the partition column, from the failure finder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Partition {
    /// No violation found over `schedules` partition schedules.
    pub safe: bool,
    /// Schedules tried.
    pub schedules: u64,
    /// The property the shrunk counterexample breaks, when not safe.
    pub property: Option<String>,
    /// The page link (`?at=…#s=…`) of the shrunk counterexample.
    pub link: Option<String>,
}

/// Messages of one size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizeMessages {
    /// Nodes.
    pub nodes: u32,
    /// First election, every node starting: election messages, mean.
    pub first: f64,
    /// Failover after the leader crashed: election messages, mean (None
    /// when no run recovered).
    pub failover: Option<f64>,
    /// The first seed's run of the first election (a page link).
    pub first_link: String,
    /// The first seed's failover run (a page link).
    pub failover_link: String,
}

/// A fitted growth law.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Fit {
    /// The law.
    pub growth: Growth,
    /// The measured log-log slope between the smallest and largest size.
    pub exponent: f64,
}

/// The flaky-top-node column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flaky {
    /// The node made flaky (the first leader).
    pub node: u32,
    /// Leader changes in the window with it flaky, mean.
    pub leader_changes: f64,
    /// The same with it steady.
    pub steady_leader_changes: f64,
    /// Time without a leader in the window with it flaky, ms, mean.
    pub leaderless_ms: f64,
    /// The same with it steady.
    pub steady_leaderless_ms: f64,
    /// Whether the flapping costs at most one handover per seed on average
    /// (the cluster does not follow the node up and down).
    pub handled: bool,
    /// The first seed's flaky run (a page link).
    pub link: String,
}

/// One algorithm's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Algorithm id.
    pub algorithm: String,
    /// Its name.
    pub name: String,
    /// The textbook's claims for its family.
    pub claim: Option<Claim>,
    /// Messages per size.
    pub messages: Vec<SizeMessages>,
    /// The law that fits the first elections.
    pub first_growth: Option<Fit>,
    /// The law that fits the failovers.
    pub failover_growth: Option<Fit>,
    /// First election latency in round trips at the smallest size, mean.
    pub first_round_trips: Option<f64>,
    /// Failover latency in round trips at the smallest size, mean.
    pub failover_round_trips: Option<f64>,
    /// Safe under partition.
    pub partition: Partition,
    /// A flaky top node.
    pub flaky: Option<Flaky>,
    /// The measured figures that differ from the claim, each with the
    /// reason the algorithm's claim gives ([`Claim::why`]).
    pub disagreements: Vec<Disagreement>,
}

/// A measured figure that differs from its claim, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    /// Where in the table.
    pub column: Column,
    /// The claim, as written.
    pub claimed: String,
    /// The measurement, as the table writes it.
    pub measured: String,
    /// Why they differ, from the algorithm's claim; `None` where it
    /// records no reason.
    pub why: Option<&'static str>,
}

/// Where the measurement differs from `claim`: a growth law other than
/// the claimed one, a partition verdict or a flaky-node verdict other
/// than the claimed one.
fn disagreements(
    claim: Option<&Claim>,
    growth: [(Column, Option<Fit>); 2],
    partition: &Partition,
    flaky: Option<&Flaky>,
) -> Vec<Disagreement> {
    let Some(claim) = claim else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut differs = |column: Column, law: Option<Growth>, claimed: String, measured: String| {
        out.push(Disagreement {
            column,
            claimed,
            measured,
            why: column.why(claim, law),
        });
    };
    for (column, fit) in growth {
        if let (Some(law), Some(f)) = (claim.growth, fit) {
            if f.growth != law {
                differs(
                    column,
                    Some(f.growth),
                    format!("{} (grows like {})", claim.messages, law.name()),
                    format!("grows like {} (slope {:.2})", f.growth.name(), f.exponent),
                );
            }
        }
    }
    if claim.partition_safe != partition.safe {
        let measured = match &partition.property {
            Some(p) if !partition.safe => format!("not safe ({p})"),
            _ => format!("safe ({} schedules)", partition.schedules),
        };
        differs(
            Column::Partition,
            None,
            claim.partition.to_string(),
            measured,
        );
    }
    if let (Some(handled), Some(f)) = (claim.flaky_handled, flaky) {
        if f.handled != handled {
            let word = |h: bool| if h { "handled" } else { "not handled" };
            differs(
                Column::Flaky,
                None,
                word(handled).to_string(),
                word(f.handled).to_string(),
            );
        }
    }
    out
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Sizes measured.
    pub nodes: Vec<u32>,
    /// Seeds: first and last.
    pub seeds: [u64; 2],
    /// One-way delay of the measuring network, ms.
    pub delay_ms: f64,
    /// The flaky top node's cycle: down `flaky_down_ms` of every
    /// `flaky_period_ms`, for `flaky_for_ms` ([`FLAKY_PERIOD_MS`]).
    pub flaky_period_ms: f64,
    /// See `flaky_period_ms`.
    pub flaky_down_ms: f64,
    /// See `flaky_period_ms`.
    pub flaky_for_ms: f64,
    /// One row per algorithm, in registry order.
    pub rows: Vec<Row>,
}

/// The scenario every measurement starts from: `n` nodes on a network
/// with a fixed delay, every node starting.
pub fn base(algorithm: &str, nodes: u32, seed: u64) -> Value {
    json!({
        "algorithm": algorithm,
        "nodes": nodes,
        "seed": seed,
        "start": "all",
        "network": {"latency_ms": [DELAY_MS, DELAY_MS]},
    })
}

/// The page link of a scenario, at `at_ms` (where the cell's moment is).
pub fn link(scenario: &Scenario, at_ms: f64) -> String {
    format!("?at={}#s={}", at_ms, share::encode(scenario))
}

/// A run of `value` to its end (with its trace when `record`), and its
/// summary.
fn run(value: &Value, record: bool) -> (Scenario, Box<dyn Simulation>, RunSummary) {
    let scenario = Scenario::from_value(value)
        .unwrap_or_else(|e| unreachable!("the trade-off scenarios are valid: {e}: {value}"));
    let mut sim = algorithms::build(&scenario, record);
    sim.run_to_end();
    let summary = sim.summary();
    (scenario, sim, summary)
}

/// The first election-purpose send at or after `from_ms`, ms.
fn first_election_send(sim: &dyn Simulation, from_ms: f64) -> Option<f64> {
    let from_us = (from_ms * 1000.0).round() as i64;
    sim.trace().iter().find_map(|e| match &e.event {
        Event::Send {
            purpose: Purpose::Election,
            ..
        } if e.at_us as i64 >= from_us => Some(e.at_us as f64 / 1000.0),
        _ => None,
    })
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Measures the table, every algorithm in registry order (the CLI
/// measures rows in parallel with [`measure_row`] and puts them together
/// with [`table`]).
pub fn measure(spec: &Spec) -> Table {
    let rows = algorithms::ALL
        .iter()
        .map(|entry| measure_row(spec, entry.id))
        .collect();
    table(spec, rows)
}

/// The table of `rows` measured for `spec`.
pub fn table(spec: &Spec, rows: Vec<Row>) -> Table {
    Table {
        nodes: spec.nodes.clone(),
        seeds: [spec.seeds.from, spec.seeds.to],
        delay_ms: DELAY_MS,
        flaky_period_ms: FLAKY_PERIOD_MS,
        flaky_down_ms: FLAKY_DOWN_MS,
        flaky_for_ms: FLAKY_FOR_MS,
        rows,
    }
}

/// The failure finder's verdict over `schedules` partition schedules
/// (seeds 1 to `schedules`), the first failure shrunk.
pub fn partition(id: &str, schedules: u64) -> Partition {
    let spec = CheckSpec::new(id, None, vec![FaultKind::Partition], None)
        .unwrap_or_else(|e| unreachable!("{id} is a registry id: {e}"));
    for seed in 1..=schedules {
        if let Some(found) = check::check_seed(&spec, seed) {
            let c = check::shrink_seed(&spec, seed, &found);
            return Partition {
                safe: false,
                schedules: seed,
                property: Some(c.property.clone()),
                link: Some(c.link()),
            };
        }
    }
    Partition {
        safe: true,
        schedules,
        property: None,
        link: None,
    }
}

/// One algorithm's row (`id` from the registry).
///
/// # Panics
/// Never for a registry id (its scenarios are valid).
pub fn measure_row(spec: &Spec, id: &str) -> Row {
    let name = algorithms::info(id).map_or(id, |e| e.name);
    let seeds: Vec<u64> = (spec.seeds.from..=spec.seeds.to).collect();
    let mut messages = Vec::new();
    let mut first_rt = Vec::new();
    let mut failover_rt = Vec::new();
    let smallest = spec.nodes.iter().copied().min();
    for &n in &spec.nodes {
        let (mut first, mut failover) = (Vec::new(), Vec::new());
        let (mut first_link, mut failover_link) = (String::new(), String::new());
        for &seed in &seeds {
            let value = base(id, n, seed);
            // The latency is read from the trace, at the smallest size only.
            let timed = Some(n) == smallest;
            let (scenario, sim, summary) = run(&value, timed);
            first.push(summary.messages.election as f64);
            if first_link.is_empty() {
                first_link = link(&scenario, summary.end_ms);
            }
            if timed {
                if let Some(t0) = first_election_send(sim.as_ref(), 0.0) {
                    first_rt.push((summary.end_ms - t0) / (2.0 * DELAY_MS));
                }
            }
            // The failover: the leader crashes once everything settled.
            let crash_ms = (summary.end_ms + AFTER_SETTLE_MS).ceil();
            let mut crash = value.clone();
            crash["faults"] = json!([{"at_ms": crash_ms, "crash": "leader"}]);
            let (scenario, sim, after) = run(&crash, timed);
            if failover_link.is_empty() {
                failover_link = link(&scenario, after.end_ms);
            }
            if let Some(m) = after.recovery_election_messages {
                failover.push(m as f64);
            }
            if timed && after.recovery_ms.is_some() {
                if let Some(t0) = first_election_send(sim.as_ref(), crash_ms) {
                    failover_rt.push((after.end_ms - t0) / (2.0 * DELAY_MS));
                }
            }
        }
        messages.push(SizeMessages {
            nodes: n,
            first: mean(&first).unwrap_or(0.0),
            failover: mean(&failover),
            first_link,
            failover_link,
        });
    }
    let fit_of = |pick: &dyn Fn(&SizeMessages) -> Option<f64>| {
        let points: Option<Vec<(u32, f64)>> = messages
            .iter()
            .map(|m| pick(m).map(|v| (m.nodes, v)))
            .collect();
        points
            .and_then(|p| growth::fit(&p))
            .map(|(growth, exponent)| Fit { growth, exponent })
    };
    let first_growth = fit_of(&|m| Some(m.first));
    let failover_growth = fit_of(&|m| m.failover);
    let claim = claims::claim(id);
    let partition = partition(id, spec.partition_schedules);
    let flaky = smallest.and_then(|n| flaky(id, n, &seeds));
    let disagreements = disagreements(
        claim.as_ref(),
        [
            (Column::FirstGrowth, first_growth),
            (Column::FailoverGrowth, failover_growth),
        ],
        &partition,
        flaky.as_ref(),
    );
    Row {
        algorithm: id.to_string(),
        name: name.to_string(),
        claim,
        messages,
        first_growth,
        failover_growth,
        first_round_trips: mean(&first_rt),
        failover_round_trips: mean(&failover_rt),
        partition,
        flaky,
        disagreements,
    }
}

/// The flaky-top-node column at `n` nodes.
fn flaky(id: &str, n: u32, seeds: &[u64]) -> Option<Flaky> {
    let mut changes = (Vec::new(), Vec::new());
    let mut leaderless = (Vec::new(), Vec::new());
    let mut first: Option<(u32, String)> = None;
    for &seed in seeds {
        let value = base(id, n, seed);
        let (_, _, summary) = run(&value, false);
        let node = summary.leader?;
        let from = (summary.end_ms + AFTER_SETTLE_MS).ceil();
        let until = from + FLAKY_FOR_MS + FLAKY_PERIOD_MS;
        let mut steady = value.clone();
        steady["until_ms"] = json!(until);
        let mut flapping = steady.clone();
        flapping["faults"] = json!([{
            "at_ms": from, "flaky": node, "period_ms": FLAKY_PERIOD_MS,
            "down_ms": FLAKY_DOWN_MS, "for_ms": FLAKY_FOR_MS
        }]);
        let (_, _, calm) = run(&steady, false);
        let (scenario, _, rough) = run(&flapping, false);
        if first.is_none() {
            first = Some((node, link(&scenario, from)));
        }
        changes.0.push(rough.leader_changes as f64);
        changes.1.push(calm.leader_changes as f64);
        leaderless.0.push(rough.leaderless_ms);
        leaderless.1.push(calm.leaderless_ms);
    }
    let (node, link) = first?;
    let leader_changes = mean(&changes.0)?;
    let steady_leader_changes = mean(&changes.1)?;
    Some(Flaky {
        node,
        leader_changes,
        steady_leader_changes,
        leaderless_ms: mean(&leaderless.0)?,
        steady_leaderless_ms: mean(&leaderless.1)?,
        handled: leader_changes - steady_leader_changes <= 1.0,
        link,
    })
}
