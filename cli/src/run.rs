//! `election run`: one simulation to the scenario's end (or, with `--at`,
//! to one moment of it, through a time-travel [`Session`]), reported as a
//! readable summary or as the [`RunSummary`] JSON object with the run's
//! `captions` (`election_core::story`; a `--json` run records, which
//! changes nothing it reports, so the captions come from the same run),
//! optionally with the trace and the share link.

use crate::error::CliError;
use crate::output::{Table, json, ms};
use crate::overrides::{ScenarioArgs, parse_ms};
use clap::Args;
use election_core::Scenario;
use election_core::scenario::query::to_query;
use election_core::session::Session;
use election_core::share;
use election_core::sim::RunSummary;
use election_core::story::{self, Caption};
use election_core::time::{Micros, to_ms};
use election_core::trace::{TraceEvent, render_text};
use serde::Serialize;

/// Flags of `election run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Scenario file and field overrides.
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Seed of every random choice in the run.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print one JSON object (the run summary) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print the readable trace of the run (with --json: a `trace` array).
    #[arg(long)]
    pub trace: bool,
    /// Print the share link of the scenario (`#s=...` and the readable query).
    #[arg(long)]
    pub link: bool,
    /// Report the run at this moment (ms) instead of at its end: what the
    /// page shows at `at=MS` (at most the horizon: until_ms, or the run
    /// limit without it).
    #[arg(
        long = "at",
        value_parser = parse_ms,
        value_name = "MS",
        allow_negative_numbers = true
    )]
    pub at_us: Option<Micros>,
}

/// The share link of a scenario.
#[derive(Debug, Clone, Serialize)]
pub struct Link {
    /// URL fragment with the full scenario: `#s=1.<data>`.
    pub fragment: String,
    /// Readable query string for the basic fields: `?algorithm=...`;
    /// none for a script, which only the `#s=` link carries (the page
    /// refuses `algorithm=script` without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

impl Link {
    /// The link parts of `scenario`.
    pub fn of(scenario: &Scenario) -> Self {
        Self {
            fragment: format!("#s={}", share::encode(scenario)),
            query: scenario
                .script
                .is_none()
                .then(|| format!("?{}", to_query(scenario))),
        }
    }
}

/// `run --json`: the summary, plus the link and trace when asked for.
#[derive(Serialize)]
struct RunJson<'a> {
    #[serde(flatten)]
    summary: &'a RunSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<Link>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<&'a [TraceEvent]>,
    /// What the page's caption says from each time on
    /// (`election_core::story`, module docs, Captions).
    captions: &'a [Caption],
}

/// A session of `scenario` at time `at`, refused past its horizon.
fn session_at(scenario: &Scenario, at: Micros) -> Result<Session, CliError> {
    let mut session = Session::new(scenario);
    let horizon = session.horizon_us();
    if at > horizon {
        return Err(CliError::input(format!(
            "--at {}: after the run's horizon, {} ms (its until_ms, or the run limit without one)",
            to_ms(at),
            to_ms(horizon)
        )));
    }
    session.seek(at);
    Ok(session)
}

/// Runs the scenario and returns the text to print.
pub fn run(args: &RunArgs) -> Result<String, CliError> {
    let scenario = args.scenario.build(args.seed)?;
    // The plain run takes no checkpoints; only a moment needs a session.
    // With --json the run records (which changes nothing it reports) so
    // that its captions come from the same run.
    let (mut session, mut sim);
    let (summary, trace, captions) = match args.at_us {
        Some(at) => {
            session = session_at(&scenario, at)?;
            // The captions of the run stopped there, as `--until-ms` gives.
            let captions = if args.json {
                let mut stopped = scenario.clone();
                stopped.until_us = Some(at);
                story::captions(&stopped)
            } else {
                Vec::new()
            };
            (session.summary(), session.sim().trace(), captions)
        }
        None => {
            sim = election_core::algorithms::build(&scenario, args.trace || args.json);
            let end = sim.run_to_end();
            let captions = if args.json {
                story::story_of_run(&scenario, sim.as_ref(), end).captions
            } else {
                Vec::new()
            };
            (sim.summary(), sim.trace(), captions)
        }
    };
    let link = args.link.then(|| Link::of(&scenario));
    if args.json {
        let text = json(&RunJson {
            summary: &summary,
            link,
            trace: args.trace.then_some(trace),
            captions: &captions,
        })?;
        return stopped_by_script(text, &summary);
    }
    let mut out = String::new();
    if args.trace {
        out.push_str(&render_text(trace));
        out.push('\n');
    }
    let when = if args.at_us.is_some() {
        "at"
    } else {
        "ended at"
    };
    out.push_str(&summary_text(&summary, when));
    if let Some(link) = link {
        out.push_str(&format!("\nshare link  {}\n", link.fragment));
        match &link.query {
            Some(query) => out.push_str(&format!("query       {query}\n")),
            None => out.push_str("            (the script travels in the share link only: add it to the page's address)\n"),
        }
    }
    stopped_by_script(out, &summary)
}

/// `out` to print, or, when a script error stopped the run, `out` printed
/// and the error as the one message on stderr with exit code 2
/// (core/algorithms/src/script/mod.rs, module docs, Limits and errors);
/// when a limit stopped it, `out` printed and "stopped at ...: ..." on
/// stderr with exit code 3 (core/engine/src/limits.rs).
fn stopped_by_script(out: String, summary: &RunSummary) -> Result<String, CliError> {
    match (&summary.script_error, &summary.stopped_by) {
        (None, None) => Ok(out),
        (Some(e), _) => {
            crate::output::print(&out)?;
            Err(CliError::input(e.to_string()))
        }
        (None, Some(stop)) => {
            crate::output::print(&out)?;
            Err(CliError::limit(stop.to_string()))
        }
    }
}

/// A run summary as aligned text; `when` labels its time (`ended at`, or
/// `at` for a moment in the middle).
pub fn summary_text(s: &RunSummary, when: &str) -> String {
    let leader = match (s.leader, s.leaders.len()) {
        (Some(id), _) => id.to_string(),
        (None, 0) => "none".to_string(),
        (None, _) => format!(
            "none (several: {})",
            s.leaders
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut t = Table::left();
    t.row(["algorithm".to_string(), s.algorithm.clone()])
        .row(["nodes".to_string(), s.nodes.to_string()])
        .row(["seed".to_string(), s.seed.to_string()])
        .row([when.to_string(), ms(s.end_ms)])
        .row(["leader".to_string(), leader])
        .row([
            "first leader at".to_string(),
            s.first_leader_ms.map_or_else(|| "never".to_string(), ms),
        ])
        .row(["elections".to_string(), s.elections.to_string()])
        .row(["leader changes".to_string(), s.leader_changes.to_string()])
        .row(["leaderless".to_string(), ms(s.leaderless_ms)])
        .row(["split brain".to_string(), ms(s.split_brain_ms)])
        .row(["events".to_string(), s.events.to_string()])
        .row(["settled".to_string(), yes_no(s.settled)]);
    if let Some(stop) = &s.stopped_by {
        t.row([
            "stopped".to_string(),
            format!("at {}: {}", ms(stop.at_ms), stop.message),
        ]);
    }
    t.row(["trace hash".to_string(), s.trace_hash.clone()]);
    let mut out = t.render("");

    let m = &s.messages;
    out.push_str("\nmessages\n");
    let mut mt = Table::new();
    mt.row(["sent".to_string(), m.sent.to_string()])
        .row(["  election".to_string(), m.election.to_string()])
        .row(["  background".to_string(), m.background.to_string()]);
    for (kind, count) in &m.by_kind {
        mt.row([format!("  {kind}"), count.to_string()]);
    }
    mt.row(["delivered".to_string(), m.delivered.to_string()])
        .row(["dropped".to_string(), m.dropped.to_string()])
        .row(["duplicated".to_string(), m.duplicated.to_string()])
        .row(["in flight at end".to_string(), m.in_flight.to_string()]);
    out.push_str(&mt.render("  "));

    let w = &s.writes;
    if w.accepted + w.rejected > 0 {
        out.push_str(&format!(
            "\nwrites to the resource: {} applied, {} rejected as stale (fenced), {} stale applied\n",
            w.accepted, w.rejected, w.stale_accepted
        ));
    }
    if let Some(r) = s.recovery_ms {
        out.push_str(&format!(
            "recovery: settled {} after the last fault, {} election messages\n",
            ms(r),
            s.recovery_election_messages.unwrap_or(0)
        ));
    }

    if s.violations.is_empty() {
        out.push_str("\nviolations: none\n");
    } else {
        out.push_str(&format!("\nviolations: {}\n", s.violations.len()));
        let mut vt = Table::left();
        for v in &s.violations {
            vt.row([v.property.clone(), ms(v.at_ms), v.detail.clone()]);
        }
        out.push_str(&vt.render("  "));
    }
    out
}
