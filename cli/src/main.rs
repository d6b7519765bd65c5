//! `election`: run, sweep and list leader election simulations from the
//! command line, on the same deterministic core as the web page.
//!
//! ```text
//! election algorithms [--json]
//! election presets [--json]
//! election run   [--scenario FILE | --preset NAME] [--algorithm ID | --script FILE] [--nodes N] [--seed S] [--drop P] [--fault JSON]... [--at MS] [--json] [--trace] [--link]
//! election quiz  [--scenario FILE | --preset NAME] [--algorithm ID] [--seed S] ... [--at MS --kind KIND] [--json]
//! election landmarks [--scenario FILE | --preset NAME] [--algorithm ID] [--nodes N] [--seed S] ... [--json]
//! election sweep [--scenario FILE] --seeds A..B [--algorithms a,b] [--param FIELD=V1,V2] [--json | --csv]
//! election sweep --experiment raft-fig16 [--seeds A..B] [--json | --csv]
//! election compare [--scenario FILE] [--algorithms a,b,c] [--seeds A..B] [--json | --csv]
//! election fuzz-faults [--algorithm ID] --seeds A..B [--save FILE] [--json]
//! election check --algorithm ID | --script FILE [--scenario F] --seeds A..B [--faults crash,partition] [--liveness-ms MS] [--json]
//! election templates [ID | --json]
//! election bench [--json]
//! election html  [--scenario FILE | --preset NAME] [--algorithm ID] [--nodes N] [--seed S] ... [--at MS|end] -o FILE [--template PATH]
//! election html  --lesson FILE -o FILE [--template PATH]
//! election lesson check FILE | run FILE [--json] | link FILE
//! election sweep|check|fuzz-faults|tradeoffs ... --shard K/N > shard-K.json
//! election merge shard-*.json [--save FILE]
//! ```
//!
//! Bad input (a missing or invalid scenario, a bad flag value, a script
//! error) gets one message on stderr and exit code 2.

// The argument structs' doc comments are the `--help` text, written for a
// terminal: JSON examples with brackets and bare URLs are meant as typed.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::bare_urls)]

mod bench;
mod check;
mod compare;
mod error;
mod fuzz;
mod html;
mod landmarks;
mod lesson;
mod list;
mod load;
mod merge;
mod output;
mod overrides;
mod parallel;
mod presets;
mod quiz;
mod run;
mod seeds;
mod shard;
mod sweep;
mod templates;
mod tradeoffs;

use clap::{Parser, Subcommand};
use error::CliError;
use std::process::ExitCode;

/// Leader election simulations: run one scenario, sweep seeds, compare.
#[derive(Debug, Parser)]
#[command(name = "election", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the algorithms (id and summary).
    Algorithms {
        /// Print the registry as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the guided scenarios (name and title).
    Presets {
        /// Print every preset with its file and narrated steps as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run one scenario to its end (or to the moment --at) and report
    /// what happened.
    Run(run::RunArgs),
    /// List the landmarks of one scenario's run up to its horizon: every
    /// role change, change of leaders and violation, with the leaders
    /// right after it.
    Landmarks(landmarks::LandmarksArgs),
    /// The questions of one scenario's run, for a worksheet: one per
    /// decisive moment, with lettered choices and an answer key.
    Quiz(quiz::QuizArgs),
    /// Run one simulation per seed and report distributions.
    Sweep(sweep::SweepArgs),
    /// Run the same scenario (same faults, same seeds) under several
    /// algorithms and print one row per algorithm.
    Compare(compare::CompareArgs),
    /// Run random fault schedules (one per seed) and check that the engine
    /// never panics, every run settles once its faults are over, and
    /// consensus algorithms keep their safety; prints failing seeds and the
    /// scenario that reproduces the first.
    FuzzFaults(fuzz::FuzzArgs),
    /// Find a failure: random fault schedules of the named kinds, checked
    /// against the algorithm's safety properties (and, with --liveness-ms,
    /// a leader soon after the last fault); the first failure is shrunk to
    /// a minimal scenario and its page link.
    Check(check::CheckArgs),
    /// List the scripts shipped with the playground (templates and
    /// exercises for `--script template:ID`), or print one's source.
    Templates(templates::TemplatesArgs),
    /// Measure the textbook's design trade-offs table: per algorithm,
    /// messages per election and their growth, latency in round trips,
    /// safety under a partition and a flaky top node, beside the claims.
    Tradeoffs(tradeoffs::TradeoffsArgs),
    /// Measure simulated events per second (use a --release build:
    /// `cargo run --release -p election-cli -- bench`).
    Bench(bench::BenchArgs),
    /// Write one scenario as a single html file that opens by double-click
    /// with no network and plays it (the page, its wasm and the scenario
    /// inline; for e-mail or a course page).
    Html(html::HtmlArgs),
    /// Lesson files (a scenario plus narrated steps; docs/lessons.md):
    /// check one, play it step by step, or print its page link.
    Lesson(lesson::LessonArgs),
    /// Put the shard reports of one run (`sweep`, `check`, `fuzz-faults`
    /// or `tradeoffs` with `--shard K/N`, every K of one N) back together
    /// and print exactly what the run prints without --shard, with its
    /// exit code (see docs/scale.md).
    Merge(merge::MergeArgs),
}

fn dispatch(cli: &Cli) -> Result<String, CliError> {
    match &cli.command {
        Command::Algorithms { json } => list::algorithms(*json),
        Command::Presets { json } => presets::presets(*json),
        Command::Run(args) => run::run(args),
        Command::Landmarks(args) => landmarks::landmarks(args),
        Command::Quiz(args) => quiz::quiz(args),
        Command::Sweep(args) => sweep::sweep(args),
        Command::Compare(args) => compare::compare(args),
        Command::Bench(args) => bench::bench(args),
        Command::Tradeoffs(args) => tradeoffs::tradeoffs(args),
        Command::FuzzFaults(args) => fuzz::fuzz_faults(args),
        Command::Check(args) => check::check(args),
        Command::Templates(args) => templates::templates(args),
        Command::Html(args) => html::html(args),
        Command::Lesson(args) => lesson::lesson(args),
        Command::Merge(args) => merge::merge(args),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(&cli).and_then(|text| output::print(&text)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.code)
        }
    }
}
