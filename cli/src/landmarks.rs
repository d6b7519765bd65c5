//! `election landmarks`: the moments worth stopping at in a run (a node
//! taking another role, a change of leaders, a violation) up to its
//! horizon, each with the leaders right after it; what the page's "next
//! landmark" button steps through, from a time-travel [`Session`].

use crate::error::CliError;
use crate::output::{Table, json, ms};
use crate::overrides::ScenarioArgs;
use clap::Args;
use election_core::limits::StoppedBy;
use election_core::protocol::NodeId;
use election_core::session::{LandmarkAt, Session};
use election_core::time::to_ms;
use serde::Serialize;

/// Flags of `election landmarks`.
#[derive(Debug, Clone, Args)]
pub struct LandmarksArgs {
    /// Scenario file and field overrides (the same as `election run`).
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seed of every random choice in the run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `landmarks --json`.
#[derive(Serialize)]
struct LandmarksJson<'a> {
    algorithm: &'a str,
    nodes: u32,
    seed: u64,
    /// Where the list stops: until_ms, or the run limit without it.
    horizon_ms: f64,
    /// Whether the run stopped at a limit before the horizon.
    truncated: bool,
    /// Which limit, where (core/engine/src/limits.rs); absent if none.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<StoppedBy>,
    landmarks: &'a [LandmarkAt],
}

/// Leaders as text: `none`, `3` or `2, 5`.
fn leaders_text(leaders: &[NodeId]) -> String {
    if leaders.is_empty() {
        return "none".to_string();
    }
    let ids: Vec<String> = leaders.iter().map(NodeId::to_string).collect();
    ids.join(", ")
}

/// Lists the scenario's landmarks and returns the text to print.
pub fn landmarks(args: &LandmarksArgs) -> Result<String, CliError> {
    let scenario = args.scenario.build(args.seed)?;
    let mut session = Session::new(&scenario);
    let found = session.landmarks();
    let horizon_ms = to_ms(session.horizon_us());
    let summary = session.summary();
    let (truncated, stopped_by) = (summary.truncated, summary.stopped_by);
    if args.json {
        return json(&LandmarksJson {
            algorithm: &scenario.algorithm,
            nodes: scenario.nodes,
            seed: scenario.seed,
            horizon_ms,
            truncated,
            stopped_by,
            landmarks: &found,
        });
    }
    let mut out = format!(
        "{} landmarks of {}, {} nodes, seed {}, up to {}\n\n",
        found.len(),
        scenario.algorithm,
        scenario.nodes,
        scenario.seed,
        ms(horizon_ms)
    );
    let mut t = Table::left();
    t.row(["at", "landmark", "leaders after"]);
    for l in &found {
        t.row([
            ms(l.at_ms),
            l.kind.name().to_string(),
            leaders_text(&l.leaders),
        ]);
    }
    out.push_str(&t.render("  "));
    if let Some(stop) = stopped_by {
        out.push_str(&format!("\n{stop}\n"));
    }
    Ok(out)
}
