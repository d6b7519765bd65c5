//! Property checks that run during every run.
//!
//! For classical algorithms ([`Safety::OneLeaderPerComponent`]): two live
//! leaders that can reach each other break `one_leader_per_component`; two
//! leaders only in different partition groups are reported as
//! `split_brain`, the expected, documented failure of these algorithms under
//! a partition. Each episode is reported once, when it begins.

use crate::protocol::{NodeId, Safety};
use crate::time::Micros;
use serde::Serialize;

/// A failed property check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// When it began, microseconds.
    pub at_us: Micros,
    /// Which property.
    pub property: &'static str,
    /// What happened, in words.
    pub detail: String,
    /// The nodes involved.
    pub nodes: Vec<NodeId>,
}

/// The state of the checks across a run.
#[derive(Debug, Clone)]
pub struct Checker {
    safety: Safety,
    same_component: bool,
    split: bool,
    /// Every violation so far.
    pub violations: Vec<Violation>,
}

fn names(nodes: &[NodeId]) -> String {
    let v: Vec<String> = nodes.iter().map(|n| format!("n{n}")).collect();
    v.join(" and ")
}

impl Checker {
    /// A checker for an algorithm that claims `safety`.
    pub fn new(safety: Safety) -> Self {
        Self {
            safety,
            same_component: false,
            split: false,
            violations: Vec::new(),
        }
    }

    /// Re-checks after the leaders or the partition changed. `leaders` are
    /// the live leaders, `group` the partition group of every node. Returns
    /// the violations that begin now.
    pub fn on_change(&mut self, now: Micros, leaders: &[NodeId], group: &[u32]) -> Vec<Violation> {
        if self.safety == Safety::SeveralLeadersAllowed {
            return Vec::new();
        }
        let mut new = Vec::new();
        // Leaders sharing a group are in one component.
        let mut shared: Vec<NodeId> = Vec::new();
        for (i, &a) in leaders.iter().enumerate() {
            if leaders
                .iter()
                .enumerate()
                .any(|(j, &b)| i != j && group[a as usize] == group[b as usize])
            {
                shared.push(a);
            }
        }
        let same_component = !shared.is_empty();
        if same_component && !self.same_component {
            new.push(Violation {
                at_us: now,
                property: "one_leader_per_component",
                detail: format!(
                    "{} all lead while they can reach each other",
                    names(&shared)
                ),
                nodes: shared.clone(),
            });
        }
        self.same_component = same_component;
        let split = !same_component && leaders.len() > 1;
        if split && !self.split {
            new.push(Violation {
                at_us: now,
                property: "split_brain",
                detail: format!(
                    "{} each lead their own side of the partition (split brain)",
                    names(leaders)
                ),
                nodes: leaders.to_vec(),
            });
        }
        self.split = split;
        self.violations.extend(new.iter().cloned());
        new
    }
}
