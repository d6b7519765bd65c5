//! `election tradeoffs`: the textbook's design trade-offs table, measured
//! (core/tools/src/tradeoffs): per algorithm, messages per election at each size
//! and the growth law that fits, latency in round trips, safety under a
//! partition (the failure finder) and a flaky top node; the textbook's
//! claim beside each figure.

use crate::error::CliError;
use crate::output::json;
use crate::parallel;
use crate::seeds::{SeedRange, parse_seeds};
use clap::Args;
use election_core::algorithms;
use election_core::tradeoffs::{self, Spec};

/// Flags of `election tradeoffs`.
#[derive(Debug, Clone, Args)]
pub struct TradeoffsArgs {
    /// Cluster sizes, comma-separated, at least two (default 8,64).
    #[arg(long, value_delimiter = ',', value_name = "N,M", value_parser = clap::value_parser!(u32).range(2..=256))]
    pub nodes: Vec<u32>,
    /// Seeds each figure is the mean over: `A..B` (default 1..5).
    #[arg(long, value_parser = parse_seeds, value_name = "A..B")]
    pub seeds: Option<SeedRange>,
    /// Partition schedules the failure finder tries per algorithm
    /// (default 200).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub partition_schedules: Option<u64>,
    /// Print the table as JSON (each cell with the page link of its run).
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the table as Markdown (the default text).
    #[arg(long)]
    pub markdown: bool,
    /// Prefix of the page links in the Markdown (the page's address, e.g.
    /// https://example.org/election/, or a relative path to it); default
    /// none: links relative to the page.
    #[arg(long, value_name = "URL", default_value = "")]
    pub link_base: String,
    /// Worker threads (default: every available core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// Runs `election tradeoffs`.
pub fn tradeoffs(args: &TradeoffsArgs) -> Result<String, CliError> {
    let defaults = Spec::default();
    let spec = Spec::new(
        if args.nodes.is_empty() {
            defaults.nodes
        } else {
            args.nodes.clone()
        },
        args.seeds.unwrap_or(defaults.seeds),
        args.partition_schedules
            .unwrap_or(defaults.partition_schedules),
    )
    .map_err(|e| CliError::input(format!("--{}: {}", e.field.replace('_', "-"), e.message)))?;
    let ids = algorithms::ids();
    let rows = parallel::map(ids.len() as u64, parallel::threads(args.threads), |i| {
        tradeoffs::measure_row(&spec, ids[i as usize])
    });
    let table = tradeoffs::table(&spec, rows);
    if args.json {
        json(&table)
    } else {
        Ok(tradeoffs::markdown(&table, &args.link_base))
    }
}
