//! Built-in experiments the page offers as one-click presets and the
//! command line runs as `election sweep --experiment NAME`.
//!
//! - `raft-fig16`: Raft paper figure 16 (Ongaro & Ousterhout 2014, 9.3):
//!   five servers, the leader crashes, the time until a new leader is
//!   followed, for several election timeout ranges. Its scenario is
//!   `scenarios/raft-fig16-150-300.json`, embedded, with the range varied.
//! - `ring-messages`: election messages against n on random rings for the
//!   three ring algorithms, every node starting, with the published
//!   curves (Chang-Roberts n*H_n, LeLann n^2, Hirschberg-Sinclair's bound).

use super::seeds::parse_seeds;
use super::{Experiment, ExperimentError, parse_param};
use crate::ScenarioExt;
use crate::scenario::{Scenario, ScenarioError};
use serde::Serialize;

/// A built-in experiment.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ExperimentPreset {
    /// Id: `election sweep --experiment <name>`.
    pub name: &'static str,
    /// Human title.
    pub title: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// The base scenario's JSON text.
    pub scenario_json: &'static str,
    /// Default seed range.
    pub seeds: &'static str,
    /// Algorithms (empty: the scenario's).
    pub algorithms: &'static [&'static str],
    /// The varied parameter, `FIELD=V1,V2,...`.
    pub param: &'static str,
    /// The per-run figure the preset is about (a `RunRecord` field).
    pub metric: &'static str,
}

/// Every built-in experiment.
pub const ALL: &[ExperimentPreset] = &[
    ExperimentPreset {
        name: "raft-fig16",
        title: "Raft paper figure 16: time to elect after a leader crash",
        summary: "5 servers, latency 1-5 ms, heartbeat 75 ms; the leader crashes at 1 s. The CDF of the time until every live server follows the new leader (recovery_ms), one curve per election timeout range: without randomness split votes drag on for seconds or forever, a few ms of randomness already helps.",
        scenario_json: include_str!("../../../../scenarios/raft-fig16-150-300.json"),
        seeds: "1..1000",
        algorithms: &[],
        param: "timing.election_timeout_ms=150-150,150-151,150-155,150-175,150-200,150-300",
        metric: "recovery_ms",
    },
    ExperimentPreset {
        name: "ring-messages",
        title: "Ring elections: messages against n",
        summary: "Random rings, every node starting, n from 4 to 256: measured election messages beside the published curves (Chang-Roberts n*H_n + n, LeLann 2n^2, Hirschberg-Sinclair's 8n(1 + ceil(log2 n)) bound).",
        scenario_json: r#"{"algorithm": "chang-roberts", "ring": "random", "start": "all"}"#,
        seeds: "1..10",
        algorithms: crate::algorithms::members("ring"),
        param: "nodes=4,8,16,32,64,128,256",
        metric: "election_messages",
    },
];

/// The built-in experiment `name`; the error lists the known names.
pub fn lookup(name: &str) -> Result<&'static ExperimentPreset, ScenarioError> {
    ALL.iter().find(|p| p.name == name).ok_or_else(|| {
        ScenarioError::new(
            "experiment",
            format!(
                "unknown experiment {name:?}; known: {}",
                ALL.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

impl ExperimentPreset {
    /// The base scenario.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        Scenario::from_json(self.scenario_json)
    }

    /// The experiment, over `seeds` (default: the preset's).
    pub fn experiment(&self, seeds: Option<&str>) -> Result<Experiment, ExperimentError> {
        let seeds =
            parse_seeds(seeds.unwrap_or(self.seeds)).map_err(|e| ScenarioError::new("seeds", e))?;
        let algorithms: Vec<String> = self.algorithms.iter().map(|a| a.to_string()).collect();
        let param = parse_param(self.param).map_err(|e| ScenarioError::new("param", e))?;
        Experiment::new(&self.scenario()?, seeds, &algorithms, Some(param))
    }

    /// The page's experiment JSON for this preset (see
    /// [`Experiment::from_json`]).
    pub fn spec_json(&self) -> Result<String, ScenarioError> {
        let spec = serde_json::json!({
            "scenario": self.scenario()?.to_json(),
            "seeds": self.seeds,
            "algorithms": self.algorithms,
            "param": self.param,
        });
        Ok(spec.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioExt;

    #[test]
    fn every_preset_builds_and_its_json_gives_the_same_experiment() {
        for p in ALL {
            let e = p.experiment(None).unwrap();
            let again = Experiment::from_json(&p.spec_json().unwrap()).unwrap();
            assert_eq!(e, again, "{}", p.name);
        }
        assert_eq!(
            lookup("raft-fig16")
                .unwrap()
                .experiment(None)
                .unwrap()
                .groups()
                .len(),
            6
        );
        assert!(lookup("nope").unwrap_err().message.contains("raft-fig16"));
    }

    #[test]
    fn presets_are_the_documented_flags() {
        // docs/guide.md, Experiments: `election sweep --scenario scenarios/raft-fig16-150-300.json
        // --param timing.election_timeout_ms=150-150,...,150-300 --seeds 1..1000`.
        let fig16 = Experiment::new(
            &Scenario::from_json(include_str!(
                "../../../../scenarios/raft-fig16-150-300.json"
            ))
            .unwrap(),
            parse_seeds("1..1000").unwrap(),
            &[],
            parse_param(
                "timing.election_timeout_ms=150-150,150-151,150-155,150-175,150-200,150-300",
            )
            .ok(),
        )
        .unwrap();
        assert_eq!(
            lookup("raft-fig16").unwrap().experiment(None).unwrap(),
            fig16
        );
        let ring = Experiment::new(
            &Scenario::from_json(r#"{"algorithm":"chang-roberts","ring":"random","start":"all"}"#)
                .unwrap(),
            parse_seeds("1..10").unwrap(),
            &[
                "chang-roberts".into(),
                "lelann".into(),
                "hirschberg-sinclair".into(),
            ],
            parse_param("nodes=4,8,16,32,64,128,256").ok(),
        )
        .unwrap();
        assert_eq!(
            lookup("ring-messages").unwrap().experiment(None).unwrap(),
            ring
        );
    }
}
