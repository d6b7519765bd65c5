//! What the trade-off table measures ([`Spec`]: sizes, seeds, partition
//! schedules) and its JSON form, which the page sends its workers: every
//! bad value gets one error naming its field.

use crate::experiment::seeds::{SeedRange, parse_seeds};
use crate::scenario::ScenarioError;
use serde_json::Value;

/// Largest cluster size measured.
pub const MAX_NODES: u32 = 256;

/// Most seeds per figure.
pub const MAX_SEEDS: u64 = 100;

/// Most partition schedules per algorithm.
pub const MAX_SCHEDULES: u64 = 100_000;

/// What to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Cluster sizes, ascending, at least two.
    pub nodes: Vec<u32>,
    /// Seeds each figure is the mean over.
    pub seeds: SeedRange,
    /// Partition schedules the failure finder tries per algorithm (seeds
    /// 1 to this).
    pub partition_schedules: u64,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            nodes: vec![8, 64],
            seeds: SeedRange { from: 1, to: 5 },
            partition_schedules: 200,
        }
    }
}

impl Spec {
    /// A spec from its parts, checked: at least two different sizes from
    /// 2 to [`MAX_NODES`], at most [`MAX_SEEDS`] seeds, 1 to
    /// [`MAX_SCHEDULES`] schedules.
    pub fn new(
        mut nodes: Vec<u32>,
        seeds: SeedRange,
        partition_schedules: u64,
    ) -> Result<Self, ScenarioError> {
        if let Some(n) = nodes.iter().find(|n| !(2..=MAX_NODES).contains(*n)) {
            return Err(ScenarioError::new(
                "nodes",
                format!("{n} is not a cluster size from 2 to {MAX_NODES}"),
            ));
        }
        nodes.sort_unstable();
        nodes.dedup();
        if nodes.len() < 2 {
            return Err(ScenarioError::new(
                "nodes",
                "give at least two different sizes (for example 8,64), so a growth law can be fitted",
            ));
        }
        if seeds.count() > MAX_SEEDS {
            return Err(ScenarioError::new(
                "seeds",
                format!("{} seeds; at most {MAX_SEEDS}", seeds.count()),
            ));
        }
        if !(1..=MAX_SCHEDULES).contains(&partition_schedules) {
            return Err(ScenarioError::new(
                "partition_schedules",
                format!("{partition_schedules}; from 1 to {MAX_SCHEDULES}"),
            ));
        }
        Ok(Spec {
            nodes,
            seeds,
            partition_schedules,
        })
    }

    /// A spec from the page's JSON: `{"nodes": [8, 64], "seeds": "1..5",
    /// "partition_schedules": 200}`, every key optional (the defaults).
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| ScenarioError::new("spec", format!("not JSON: {e}")))?;
        let defaults = Spec::default();
        let nodes = match value.get("nodes") {
            None => defaults.nodes,
            Some(v) => v
                .as_array()
                .and_then(|a| {
                    a.iter()
                        .map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok()))
                        .collect::<Option<Vec<u32>>>()
                })
                .ok_or_else(|| ScenarioError::new("nodes", "must be a list of cluster sizes"))?,
        };
        let seeds = match value.get("seeds") {
            None => defaults.seeds,
            Some(v) => v
                .as_str()
                .ok_or_else(|| ScenarioError::new("seeds", "must be a range like 1..5"))
                .and_then(|t| parse_seeds(t).map_err(|m| ScenarioError::new("seeds", m)))?,
        };
        let schedules = match value.get("partition_schedules") {
            None => defaults.partition_schedules,
            Some(v) => v.as_u64().ok_or_else(|| {
                ScenarioError::new("partition_schedules", "must be a whole number")
            })?,
        };
        Spec::new(nodes, seeds, schedules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_form_reads_its_defaults_and_names_bad_fields() {
        assert_eq!(Spec::from_json("{}").unwrap(), Spec::default());
        let s =
            Spec::from_json(r#"{"nodes": [64, 8, 8], "seeds": "2..3", "partition_schedules": 9}"#)
                .unwrap();
        assert_eq!(s.nodes, vec![8, 64]);
        assert_eq!(s.seeds, SeedRange { from: 2, to: 3 });
        assert_eq!(s.partition_schedules, 9);
        for (text, field) in [
            (r#"{"nodes": [8]}"#, "nodes"),
            (r#"{"nodes": [1, 8]}"#, "nodes"),
            (r#"{"nodes": "8"}"#, "nodes"),
            (r#"{"seeds": "5..1"}"#, "seeds"),
            (r#"{"seeds": "1..1000"}"#, "seeds"),
            (r#"{"partition_schedules": 0}"#, "partition_schedules"),
            ("[", "spec"),
        ] {
            assert_eq!(Spec::from_json(text).unwrap_err().field, field, "{text}");
        }
    }
}
