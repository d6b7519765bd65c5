//! Theoretical message curves for a node-count experiment: the published
//! figure of `algorithms::theory` at many node counts between the
//! smallest and the largest swept, so the page draws the curve beside the
//! measured points from the core's formulas, never from its own.

use super::Experiment;
use crate::algorithms;
use serde::Serialize;

/// Points along a curve: this many, spread evenly on a log scale.
const CURVE_POINTS: u32 = 48;

/// One algorithm's theoretical election messages against n.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TheoryCurve {
    /// Algorithm id.
    pub algorithm: String,
    /// The formula and its source.
    pub formula: &'static str,
    /// `[n, messages]` pairs, n ascending.
    pub points: Vec<(u32, f64)>,
}

/// The curves of every algorithm of `e` that has a published figure for
/// its scenario, when `e` varies `nodes`; empty otherwise.
pub fn curves(e: &Experiment) -> Vec<TheoryCurve> {
    if e.param().is_none_or(|p| p.field != "nodes") {
        return Vec::new();
    }
    let ns: Vec<u32> = e.groups().iter().map(|g| g.scenario.nodes).collect();
    let (Some(&lo), Some(&hi)) = (ns.iter().min(), ns.iter().max()) else {
        return Vec::new();
    };
    let mut at: Vec<u32> = (0..CURVE_POINTS)
        .map(|i| {
            let f = f64::from(i) / f64::from(CURVE_POINTS - 1);
            (f64::from(lo) * (f64::from(hi) / f64::from(lo)).powf(f)).round() as u32
        })
        .chain(ns.iter().copied())
        .collect();
    at.sort_unstable();
    at.dedup();
    let mut out: Vec<TheoryCurve> = Vec::new();
    for g in e.groups() {
        if out.iter().any(|c| c.algorithm == g.algorithm) {
            continue;
        }
        let mut formula = None;
        let points: Vec<(u32, f64)> = at
            .iter()
            .filter_map(|&n| {
                let mut s = g.scenario.clone();
                s.nodes = n;
                algorithms::theory(&s).map(|(v, f)| {
                    formula = Some(f);
                    (n, v)
                })
            })
            .collect();
        if let Some(formula) = formula {
            out.push(TheoryCurve {
                algorithm: g.algorithm.clone(),
                formula,
                points,
            });
        }
    }
    out
}
