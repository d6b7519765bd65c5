//! Shrinking a failure to a minimal scenario that still fails the same
//! property. Passes, each step kept only if the property still fails,
//! repeated until none changes anything (a fixed point):
//!
//! 1. fewer faults: delta debugging, dropping runs of faults of halving
//!    length down to single faults;
//! 2. fewer nodes: each node in turn removed, the higher ids renumbered
//!    down by one, faults naming the removed node dropped (a partition
//!    loses it from its groups);
//! 3. earlier and shorter faults: each fault's time tried at 0, then
//!    halved (whole milliseconds); a pause's or flaky spell's length and a
//!    slowdown halved the same way;
//! 4. a simpler network: no loss, no duplication, fixed latency, FIFO
//!    links (the starting network and each network fault).
//!
//! Deterministic: the candidates are tried in a fixed order, and each is
//! one run. At most [`MAX_SHRINK_RUNS`] runs; past them the smallest
//! scenario found so far is the answer. A plain shrink keeps the seed, so
//! it can get stuck where another seed shows the same failure on fewer
//! nodes: [`super::search`] then looks across seeds and start sets, and
//! what it finds is shrunk again (both run from [`super::shrink_seed`],
//! a floor above them: the search uses a `Shrinker`).

use super::nodes::remove_node;
use super::spec::CheckSpec;
use super::verdict::{self, Finding};
use crate::ScenarioExt;
use crate::scenario::{FaultAction, NetworkSpec, Scenario};
use crate::time::{Micros, ms};

/// Most candidate runs one shrink may take.
pub const MAX_SHRINK_RUNS: u64 = 4000;

/// The shrinking state: the smallest failing core schedule so far.
pub(super) struct Shrinker<'a> {
    pub spec: &'a CheckSpec,
    pub property: String,
    /// The smallest failing schedule so far, without its epilogue.
    pub best: Scenario,
    /// What `best` breaks, and when.
    pub found: Finding,
    /// Runs the plain passes took.
    pub runs: u64,
}

impl Shrinker<'_> {
    /// The plain passes, repeated to a fixed point (or the run budget).
    pub fn plain(&mut self) {
        loop {
            let mut changed = self.fewer_faults();
            changed |= self.fewer_nodes();
            changed |= self.earlier_and_shorter();
            changed |= self.simpler_network();
            if !changed || self.runs >= MAX_SHRINK_RUNS {
                break;
            }
        }
    }

    /// Tries `candidate` (a schedule without its epilogue): kept when it
    /// is valid and still fails the property.
    fn try_keep(&mut self, candidate: Scenario) -> bool {
        if candidate == self.best || self.runs >= MAX_SHRINK_RUNS {
            return false;
        }
        let full = self.spec.full(&candidate);
        if full.validate().is_err() {
            return false;
        }
        self.runs += 1;
        match verdict::fails(&full, self.spec.liveness_us, &self.property) {
            Some(found) => {
                self.best = candidate;
                self.found = found;
                true
            }
            None => false,
        }
    }

    /// Delta debugging over the fault list.
    fn fewer_faults(&mut self) -> bool {
        let mut changed = false;
        let mut size = self.best.faults.len().div_ceil(2).max(1);
        loop {
            let mut start = 0;
            while start < self.best.faults.len() {
                let mut c = self.best.clone();
                let end = (start + size).min(c.faults.len());
                c.faults.drain(start..end);
                if self.try_keep(c) {
                    changed = true;
                } else {
                    start += size;
                }
            }
            if size == 1 {
                return changed;
            }
            size = size.div_ceil(2);
        }
    }

    /// Each node removed in turn, highest first.
    fn fewer_nodes(&mut self) -> bool {
        let mut changed = false;
        let mut id = self.best.total_nodes();
        while id > 0 {
            id -= 1;
            if self.best.nodes <= 1 || id >= self.best.nodes {
                continue;
            }
            if let Some(c) = remove_node(&self.best, id) {
                changed |= self.try_keep(c);
            }
        }
        changed
    }

    /// Halves one time field of fault `i` (read by `get`, written by
    /// `set`) while the property still fails: 0 first, then halves.
    fn halve(
        &mut self,
        i: usize,
        get: fn(&FaultAction, Micros) -> Option<Micros>,
        set: fn(&mut crate::scenario::Fault, Micros),
    ) -> bool {
        let mut changed = false;
        loop {
            let Some(now) = self
                .best
                .faults
                .get(i)
                .and_then(|f| get(&f.action, f.at_us))
            else {
                return changed;
            };
            let half = ms(now / 2000);
            let mut kept = false;
            for value in [0, half] {
                if value < now {
                    let mut c = self.best.clone();
                    set(&mut c.faults[i], value);
                    if self.try_keep(c) {
                        kept = true;
                        changed = true;
                        break;
                    }
                }
            }
            if !kept {
                return changed;
            }
        }
    }

    /// Every fault earlier and shorter.
    fn earlier_and_shorter(&mut self) -> bool {
        let mut changed = false;
        for i in 0..self.best.faults.len() {
            changed |= self.halve(i, |_, at| Some(at), |f, v| f.at_us = v);
            changed |= self.halve(
                i,
                |a, _| match a {
                    FaultAction::Pause { for_us, .. } => Some(*for_us),
                    FaultAction::Flaky { for_us, .. } => *for_us,
                    FaultAction::Slow { extra_us, .. } => Some(*extra_us),
                    _ => None,
                },
                |f, v| match &mut f.action {
                    FaultAction::Pause { for_us, .. } => *for_us = v.max(ms(1)),
                    FaultAction::Flaky { for_us, .. } => *for_us = Some(v),
                    FaultAction::Slow { extra_us, .. } => *extra_us = v,
                    _ => {}
                },
            );
        }
        changed
    }

    /// The starting network and each network fault made simpler, one
    /// change at a time.
    fn simpler_network(&mut self) -> bool {
        let steps: [fn(&mut NetworkSpec); 4] = [
            |n| n.drop = 0.0,
            |n| n.duplicate = 0.0,
            |n| n.latency_us.1 = n.latency_us.0,
            |n| n.fifo = true,
        ];
        let mut changed = false;
        for step in steps {
            let mut c = self.best.clone();
            step(&mut c.network);
            changed |= self.try_keep(c);
            for i in 0..self.best.faults.len() {
                let mut c = self.best.clone();
                if let FaultAction::Network(n) = &mut c.faults[i].action {
                    step(n);
                    changed |= self.try_keep(c);
                }
            }
        }
        changed
    }
}
