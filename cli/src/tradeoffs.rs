//! `election tradeoffs`: the textbook's design trade-offs table, measured
//! (core/tools/src/tradeoffs): per algorithm, messages per election at each size
//! and the growth law that fits, latency in round trips, safety under a
//! partition (the failure finder) and a flaky top node; the textbook's
//! claim beside each figure.
//!
//! With `--shard K/N` only the K-th slice of the rows (algorithms in
//! registry order) is measured and a shard report (`crate::shard`) is
//! printed: its `job` is `{"nodes", "seeds", "partition_schedules",
//! "output", "link_base"}` and its `results` are `{"rows": [{"json": the
//! row as the table's JSON has it, "markdown": its Markdown line}, ...]}`.
//! `election merge` puts the rows under the table's head and prints what
//! the unsharded run prints (rows are measured independently, and the
//! Markdown is a head and one line per row).

use crate::error::CliError;

use crate::output::json;
use crate::parallel;
use crate::seeds::{SeedRange, parse_seeds};
use crate::shard::{self, Format, Shard};
use clap::Args;
use election_core::algorithms;
use election_core::tradeoffs::{self, Row, Spec};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

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
    /// Measure only slice K of N of the rows (K from 1) and print a shard
    /// report (JSON) for `election merge`, which prints what this command
    /// prints without --shard (see docs/scale.md).
    #[arg(long, value_parser = shard::parse_shard, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The `job` of a trade-off table's shard report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Cluster sizes (ascending).
    pub nodes: Vec<u32>,
    /// Seeds, `A..B`.
    pub seeds: String,
    /// Partition schedules per algorithm.
    pub partition_schedules: u64,
    /// What the unsharded run prints (text: Markdown).
    pub output: Format,
    /// `--link-base`.
    pub link_base: String,
}

impl Job {
    /// The spec again.
    fn spec(&self) -> Result<Spec, CliError> {
        let bad = |e: String| CliError::input(format!("shard job: {e}"));
        let seeds = parse_seeds(&self.seeds).map_err(bad)?;
        Spec::new(self.nodes.clone(), seeds, self.partition_schedules)
            .map_err(|e| bad(e.to_string()))
    }
}

/// One measured row in a shard report.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RowText {
    /// The row as `--json` writes it (keys in their order).
    json: Box<RawValue>,
    /// Its line of the Markdown table.
    markdown: String,
}

/// The `results` of a trade-off table's shard report.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rows {
    /// The slice's rows, in registry order.
    rows: Vec<RowText>,
}

/// The `--json` table with its rows as JSON text: the fields of
/// `tradeoffs::Table`, in its order.
#[derive(Serialize)]
struct TableText<'a> {
    nodes: &'a [u32],
    seeds: [u64; 2],
    delay_ms: f64,
    flaky_period_ms: f64,
    flaky_down_ms: f64,
    flaky_for_ms: f64,
    rows: Vec<Box<RawValue>>,
}

/// The Markdown of the table's head (no rows).
fn markdown_head(spec: &Spec, link_base: &str) -> String {
    tradeoffs::markdown(&tradeoffs::table(spec, Vec::new()), link_base)
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
    let threads = parallel::threads(args.threads);
    let Some(slice) = args.shard else {
        let rows = parallel::map(ids.len() as u64, threads, |i| {
            tradeoffs::measure_row(&spec, ids[i as usize])
        });
        let table = tradeoffs::table(&spec, rows);
        return if args.json {
            json(&table)
        } else {
            Ok(tradeoffs::markdown(&table, &args.link_base))
        };
    };
    let (from, count) = slice.slice(ids.len() as u64);
    let rows = parallel::map(count, threads, |i| {
        tradeoffs::measure_row(&spec, ids[(from + i) as usize])
    });
    let head = markdown_head(&spec, &args.link_base);
    let rows = rows
        .into_iter()
        .map(|row| row_text(&spec, &head, &args.link_base, row))
        .collect::<Result<Vec<_>, _>>()?;
    let job = Job {
        nodes: spec.nodes.clone(),
        seeds: format!("{}..{}", spec.seeds.from, spec.seeds.to),
        partition_schedules: spec.partition_schedules,
        output: Format::of(args.json, false),
        link_base: args.link_base.clone(),
    };
    shard::report("tradeoffs", slice, ids.len() as u64, job, Rows { rows })
}

/// `row` as a shard report carries it: its JSON and its Markdown line
/// (the table of that one row, less the `head`).
fn row_text(spec: &Spec, head: &str, link_base: &str, row: Row) -> Result<RowText, CliError> {
    let json = shard::one_line(&row)?;
    let alone = tradeoffs::markdown(&tradeoffs::table(spec, vec![row]), link_base);
    let markdown = alone.strip_prefix(head).unwrap_or_default().to_string();
    Ok(RowText { json, markdown })
}

/// Prints the merge of a trade-off table's shard reports: `job` and each
/// shard's `results`, in slice order.
pub fn merge(job: Value, results: Vec<shard::Results>) -> Result<String, CliError> {
    let job: Job = shard::job(job)?;
    let spec = job.spec()?;
    let mut rows = Vec::new();
    for r in results {
        rows.extend(r.parse::<Rows>()?.rows);
    }
    if rows.len() != algorithms::ids().len() {
        return Err(CliError::input(format!(
            "the shards hold {} rows; the table has {}",
            rows.len(),
            algorithms::ids().len()
        )));
    }
    if job.output == Format::Json {
        let table = tradeoffs::table(&spec, Vec::new());
        let rows = rows
            .iter()
            .map(|r| RawValue::from_string(shard::compact(r.json.get())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CliError::input(format!("the shards' rows: {e}")))?;
        let text = election_core::to_string_pretty(&TableText {
            nodes: &table.nodes,
            seeds: table.seeds,
            delay_ms: table.delay_ms,
            flaky_period_ms: table.flaky_period_ms,
            flaky_down_ms: table.flaky_down_ms,
            flaky_for_ms: table.flaky_for_ms,
            rows,
        })
        .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?;
        Ok(text + "\n")
    } else {
        let mut out = markdown_head(&spec, &job.link_base);
        for r in &rows {
            out.push_str(&r.markdown);
        }
        Ok(out)
    }
}
