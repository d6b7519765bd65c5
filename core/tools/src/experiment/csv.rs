//! One CSV row per run: the text `election sweep --csv` prints and the
//! page exports. A one-scenario sweep has the columns below followed by
//! the algorithm's message kinds; a grouped experiment puts `algorithm`,
//! `nodes` and the varied field (unless it is `nodes`) first, and lists the kinds of every
//! algorithm (empty where an algorithm has no such kind). An experiment
//! of a scripted algorithm has a `script_error` column after
//! `trace_hash` (empty for a run no error stopped).

use super::record::RunRecord;
use super::{Experiment, ExperimentError};
use crate::algorithms;

/// The columns every row has, after any group columns.
pub const COLUMNS: &str = "seed,leader,first_leader_ms,recovery_ms,messages_sent,election_messages,elections,leader_changes,leaderless_ms,split_brain_ms,violations,settled,truncated,trace_hash";

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn row(r: &RunRecord) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        r.seed,
        opt(r.leader),
        opt(r.first_leader_ms),
        opt(r.recovery_ms),
        r.sent,
        r.election,
        r.elections,
        r.leader_changes,
        r.leaderless_ms,
        r.split_brain_ms,
        r.violations,
        r.settled,
        r.truncated,
        r.trace_hash
    )
}

/// A CSV cell: quoted when it holds a comma or a quote.
fn cell(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The column an experiment with a scripted algorithm adds after
/// [`COLUMNS`] (its header is part of the CSV output).
const SCRIPT_COLUMN: &str = ",script_error";

/// The row's `script_error` cell (with its comma), in a scripted
/// experiment; nothing otherwise.
fn script_cell(r: &RunRecord, scripted: bool) -> String {
    if scripted {
        format!(",{}", cell(r.script_error.as_deref().unwrap_or_default()))
    } else {
        String::new()
    }
}

/// The CSV text of `records` (one per run, in index order) of `e`.
pub fn csv_text(e: &Experiment, records: &[RunRecord]) -> Result<String, ExperimentError> {
    e.check_records(records)?;
    let mut out = String::new();
    let scripted = e
        .algorithms()
        .iter()
        .any(|a| algorithms::info(a).is_some_and(|i| i.takes_script));
    if !e.is_grouped() {
        let kinds = algorithms::info(e.algorithms()[0].as_str()).map_or(&[][..], |a| a.kinds);
        out.push_str(COLUMNS);
        if scripted {
            out.push_str(SCRIPT_COLUMN);
        }
        for k in kinds {
            out.push(',');
            out.push_str(k);
        }
        out.push('\n');
        for r in records {
            out.push_str(&row(r));
            out.push_str(&script_cell(r, scripted));
            for c in &r.by_kind {
                out.push_str(&format!(",{c}"));
            }
            out.push('\n');
        }
        return Ok(out);
    }
    // Every kind of every algorithm, first appearance first.
    let mut kinds: Vec<&str> = Vec::new();
    for a in e.algorithms() {
        for k in algorithms::info(a).map_or(&[][..], |i| i.kinds) {
            if !kinds.contains(k) {
                kinds.push(k);
            }
        }
    }
    out.push_str("algorithm,nodes,");
    // A `nodes` parameter is the nodes column already.
    let param = e.param().filter(|p| p.field != "nodes");
    if let Some(p) = param {
        out.push_str(&cell(&p.field));
        out.push(',');
    }
    out.push_str(COLUMNS);
    if scripted {
        out.push_str(SCRIPT_COLUMN);
    }
    for k in &kinds {
        out.push(',');
        out.push_str(k);
    }
    out.push('\n');
    let per = e.seeds().count() as usize;
    for (g, rs) in e.groups().iter().zip(records.chunks(per.max(1))) {
        let own = algorithms::info(&g.algorithm).map_or(&[][..], |i| i.kinds);
        for r in rs {
            out.push_str(&format!("{},{},", g.algorithm, g.scenario.nodes));
            if let (Some(v), Some(_)) = (&g.value, param) {
                out.push_str(&cell(v));
                out.push(',');
            }
            out.push_str(&row(r));
            out.push_str(&script_cell(r, scripted));
            for k in &kinds {
                out.push(',');
                if let Some(i) = own.iter().position(|o| o == k) {
                    out.push_str(&r.by_kind[i].to_string());
                }
            }
            out.push('\n');
        }
    }
    Ok(out)
}
