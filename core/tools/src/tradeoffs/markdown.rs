//! The measured trade-off table as Markdown: one row per algorithm, the
//! textbook's claim beside each measured figure.

use super::{Fit, Row, Table};
use std::fmt::Write;

fn num(v: f64) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{}", v.round())
    } else {
        format!("{v:.1}")
    }
}

fn fit(f: Option<Fit>) -> String {
    f.map_or("-".into(), |f| {
        format!("{} (slope {:.2})", f.growth.name(), f.exponent)
    })
}

fn messages(row: &Row, pick: impl Fn(&super::SizeMessages) -> Option<f64>) -> String {
    row.messages
        .iter()
        .map(|m| pick(m).map_or("-".into(), num))
        .collect::<Vec<_>>()
        .join(" / ")
}

fn partition(row: &Row, base: &str) -> String {
    let p = &row.partition;
    if p.safe {
        format!("yes ({} schedules)", p.schedules)
    } else {
        format!(
            "no: {}{}",
            p.property.as_deref().unwrap_or("violation"),
            p.link
                .as_deref()
                .map_or(String::new(), |l| format!(" ([run]({base}{l}))"))
        )
    }
}

fn flaky(row: &Row) -> String {
    row.flaky.as_ref().map_or("-".into(), |f| {
        format!(
            "{}: {} vs {} leader changes, {} vs {} ms leaderless",
            if f.handled { "yes" } else { "no" },
            num(f.leader_changes),
            num(f.steady_leader_changes),
            num(f.leaderless_ms),
            num(f.steady_leaderless_ms)
        )
    })
}

/// The table as Markdown, claims beside measurements; the counterexample
/// links are written after `link_base` (the page's address, or a path to
/// it from where the Markdown will be read; empty: relative to the page).
pub fn markdown(t: &Table, link_base: &str) -> String {
    let sizes = t
        .nodes
        .iter()
        .map(|n| format!("n={n}"))
        .collect::<Vec<_>>()
        .join(" / ");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured over seeds {}..{}, one-way delay {} ms. Messages: election messages, mean over the seeds, at {sizes}.\n",
        t.seeds[0],
        t.seeds[1],
        num(t.delay_ms)
    );
    out.push_str("| algorithm | messages, claimed | first election | growth | failover | growth | latency, claimed | round trips (first / failover) | safe under partition, claimed | measured | flaky top node, claimed | measured |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for row in &t.rows {
        let c = row.claim;
        let rt = |v: Option<f64>| v.map_or("-".into(), num);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} |",
            row.name,
            c.map_or("-", |c| c.messages),
            messages(row, |m| Some(m.first)),
            fit(row.first_growth),
            messages(row, |m| m.failover),
            fit(row.failover_growth),
            c.map_or("-", |c| c.latency),
            rt(row.first_round_trips),
            rt(row.failover_round_trips),
            c.map_or("-", |c| c.partition),
            partition(row, link_base),
            c.and_then(|c| c.flaky_handled)
                .map_or("-", |h| if h { "yes" } else { "no" }),
            flaky(row),
        );
    }
    out
}
