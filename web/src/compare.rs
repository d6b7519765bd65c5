//! Compare mode: the same scenario (same seed, same faults) under 2 to 4
//! algorithms, one [`Playground`] each, kept at one shared time by the
//! page.
//!
//! This module only converts: the list in the `compare=` URL parameter is
//! checked against the core's registry, a playground is copied to another
//! algorithm through the core's scenario validator, and each row of the
//! page's table is read from the simulation's metrics, with the published
//! figure from `algorithms::theory`. The numbers of a row at time `t` are
//! those of `election run --algorithm <id> --until-ms <t> --json` for the
//! same scenario, because a playground moved to `t` has run exactly that.

use crate::{js, playground::Playground};
use election_core::ScenarioExt;
use election_core::algorithms;
use election_core::time::to_ms;
use election_core::{Scenario, ScenarioError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Fewest algorithms compare mode shows.
pub const MIN_COMPARED: usize = 2;
/// Most algorithms compare mode shows (four small views still fit).
pub const MAX_COMPARED: usize = 4;

/// The algorithm ids of a `compare=` value (`bully,raft,chang-roberts`):
/// 2 to 4 known ids, each once. Errors name the field `compare`.
pub fn parse_compare(text: &str) -> Result<Vec<String>, ScenarioError> {
    let err = |message: String| ScenarioError::new("compare", message);
    let ids: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect();
    for (i, id) in ids.iter().enumerate() {
        algorithms::lookup(id).map_err(err)?;
        if ids[..i].contains(id) {
            return Err(err(format!(
                "{id} is listed twice; each algorithm gets one view"
            )));
        }
    }
    if !(MIN_COMPARED..=MAX_COMPARED).contains(&ids.len()) {
        return Err(err(format!(
            "list {MIN_COMPARED} to {MAX_COMPARED} algorithms separated by commas, such as bully,raft,chang-roberts; got {}",
            ids.len()
        )));
    }
    Ok(ids)
}

/// `base` under `algorithm`, everything else (seed, network, faults) kept,
/// checked again by the core (a fault may name a node the other algorithm
/// does not have). Errors name the field `compare`.
pub fn scenario_for(base: &Scenario, algorithm: &str) -> Result<Scenario, ScenarioError> {
    let mut s = base.clone();
    s.set_algorithm(algorithm);
    s.validate().map_err(|e| {
        ScenarioError::new(
            "compare",
            format!("{algorithm} cannot run this scenario: {e}"),
        )
    })?;
    Ok(s)
}

/// One row of the compare table: what a run reports, at the current time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Algorithm id.
    pub algorithm: String,
    /// The time these figures are at, ms.
    pub now_ms: f64,
    /// Messages sent so far (the summary's `messages.sent`).
    pub messages_sent: u64,
    /// Of those, election-purpose.
    pub election_messages: u64,
    /// Of those, background (heartbeats, renewals, pings).
    pub background_messages: u64,
    /// Background messages per simulated second so far (none at time 0).
    pub background_per_s: Option<f64>,
    /// When the first leader appeared, ms.
    pub first_leader_ms: Option<f64>,
    /// Time without a leader so far, ms.
    pub leaderless_ms: f64,
    /// Time with several leaders so far, ms.
    pub split_brain_ms: f64,
    /// Time from the last fault so far (or the start, with none) until the
    /// cluster first settled after it, ms; `None` while it has not (the
    /// summary's `recovery_ms`).
    pub recovery_ms: Option<f64>,
    /// Election-purpose messages sent in that window (the summary's
    /// `recovery_election_messages`).
    pub recovery_election_messages: Option<u64>,
    /// When the last fault that removed this run's leader was applied, ms;
    /// `None` while no fault has (the summary's `leader_removed_ms`;
    /// core/engine/src/metrics.rs, module docs: `failover`).
    pub leader_removed_ms: Option<f64>,
    /// Time from that fault until the cluster first settled after it, ms;
    /// `None` while no fault removed the leader or it has not settled
    /// since (the summary's `failover_ms`; the table's "Recovery").
    pub failover_ms: Option<f64>,
    /// Election-purpose messages sent in that window: what the failover
    /// cost (the summary's `failover_election_messages`; the table's
    /// "Failover" and `election compare`'s "failover" column).
    pub failover_election_messages: Option<u64>,
    /// Failed property checks so far.
    pub violations: usize,
    /// Every live leader now.
    pub leaders: Vec<u32>,
    /// The published election cost of this scenario, where one exists.
    pub theory: Option<f64>,
    /// The formula and source behind `theory`.
    pub theory_formula: Option<&'static str>,
}

/// The figures of `p` at its current time.
pub fn figures(p: &Playground) -> Figures {
    let sim = p.sim();
    let m = sim.metrics();
    let now_ms = to_ms(sim.now_us());
    let theory = algorithms::theory(sim.scenario());
    Figures {
        algorithm: sim.scenario().algorithm.clone(),
        now_ms,
        messages_sent: m.sent,
        election_messages: m.election,
        background_messages: m.background,
        background_per_s: (now_ms > 0.0).then(|| m.background as f64 * 1000.0 / now_ms),
        first_leader_ms: m.first_leader_us.map(to_ms),
        leaderless_ms: to_ms(m.leaderless_us),
        split_brain_ms: to_ms(m.split_brain_us),
        recovery_ms: m.recovery().map(|(t, _)| to_ms(t)),
        recovery_election_messages: m.recovery().map(|(_, c)| c),
        leader_removed_ms: m.leader_removed_us.map(to_ms),
        failover_ms: m.failover().map(|(t, _)| to_ms(t)),
        failover_election_messages: m.failover().map(|(_, c)| c),
        violations: sim.violations().len(),
        leaders: sim.leaders().to_vec(),
        theory: theory.map(|t| t.0),
        theory_formula: theory.map(|t| t.1),
    }
}

/// A JS `Error` for a compare problem: the message without the field
/// prefix (the page says where the list came from), `field` = `compare`.
fn compare_error(e: &ScenarioError) -> JsValue {
    js::error(&e.message, &e.field)
}

/// The algorithm ids of a `compare=` value, checked (2 to 4 known ids,
/// each once). Throws an `Error` whose `field` is `compare`.
#[wasm_bindgen]
pub fn compare_ids(text: &str) -> Result<Vec<String>, JsValue> {
    parse_compare(text).map_err(|e| compare_error(&e))
}

/// Compare mode on the JS side.
#[wasm_bindgen]
impl Playground {
    /// A new playground at time 0 of this scenario, faults included, under
    /// algorithm `id`. Throws an `Error` whose `field` is `compare` when
    /// that algorithm cannot run the scenario.
    pub fn for_algorithm(&self, id: &str) -> Result<Playground, JsValue> {
        parse_compare_one(id)
            .and_then(|()| scenario_for(self.scenario(), id))
            .and_then(|s| Playground::open(&s))
            .map_err(|e| compare_error(&e))
    }

    /// This run's row of the compare table now: an object with the
    /// [`Figures`] fields (`messages_sent`, `election_messages`,
    /// `background_per_s`, `first_leader_ms`, `leaderless_ms`,
    /// `split_brain_ms`, `recovery_ms`, `recovery_election_messages`,
    /// `leader_removed_ms`, `failover_ms`, `failover_election_messages`,
    /// `violations`, `leaders`, `theory`, ...).
    pub fn compare_figures(&self) -> Result<JsValue, JsValue> {
        js::to_js(&figures(self))
    }
}

/// One algorithm id, checked against the registry.
fn parse_compare_one(id: &str) -> Result<(), ScenarioError> {
    algorithms::lookup(id)
        .map(|_| ())
        .map_err(|message| ScenarioError::new("compare", message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use election_core::ScenarioExt;
    use election_core::sim;

    #[test]
    fn a_script_compares_with_builtin_algorithms() {
        // `compare=script,chang-roberts` on a scripted scenario: the
        // script's row keeps the script, the built-in's drops it.
        let source = election_core::script::templates::find("chang-roberts")
            .unwrap()
            .source;
        let mut base = Scenario::default();
        base.set_algorithm("script");
        base.script = Some(source.into());
        base.nodes = 6;
        base.ring = election_core::scenario::RingOrder::Descending;
        let ids = parse_compare("script,chang-roberts").unwrap();
        let runs: Vec<_> = ids
            .iter()
            .map(|id| sim::run(&scenario_for(&base, id).unwrap()))
            .collect();
        assert_eq!(runs[0].algorithm, "script");
        assert_eq!(runs[1].algorithm, "chang-roberts");
        assert_eq!(
            runs[0].messages.by_kind.get("ELECTION"),
            runs[1].messages.by_kind.get("ELECTION")
        );
        // Without a script, `script` cannot run: the error names it.
        let e = scenario_for(&Scenario::default(), "script").unwrap_err();
        assert!(e.message.contains("script"), "{e}");
    }

    #[test]
    fn the_list_names_the_parameter() {
        assert_eq!(
            parse_compare(" bully, raft ,chang-roberts").unwrap(),
            vec!["bully", "raft", "chang-roberts"]
        );
        for bad in [
            "bully",
            "",
            "bully,paxos",
            "bully,bully",
            "bully,raft,zab,lease,lelann",
        ] {
            let err = parse_compare(bad).unwrap_err();
            assert_eq!(err.field, "compare", "{bad}: {err}");
        }
        assert!(
            parse_compare("bully,paxos")
                .unwrap_err()
                .message
                .contains("\"paxos\"")
        );
    }

    #[test]
    fn another_algorithm_keeps_the_faults_and_names_compare_when_it_cannot() {
        let base = Scenario::from_json(
            r#"{"algorithm":"zookeeper","nodes":4,"faults":[{"at_ms":500,"crash":"leader"}]}"#,
        )
        .unwrap();
        let s = scenario_for(&base, "raft").unwrap();
        assert_eq!((s.algorithm.as_str(), &s.faults), ("raft", &base.faults));
        // Node 5 is ZooKeeper's resource; Bully on 4 nodes has no node 5.
        let with_service = Scenario::from_json(
            r#"{"algorithm":"zookeeper","nodes":4,"faults":[{"at_ms":500,"crash":5}]}"#,
        )
        .unwrap();
        let err = scenario_for(&with_service, "bully").unwrap_err();
        assert_eq!(err.field, "compare");
        assert!(err.message.starts_with("bully cannot run"), "{err}");
        assert_eq!(parse_compare_one("paxos").unwrap_err().field, "compare");
    }

    #[test]
    fn a_row_at_time_t_is_the_cli_run_until_t() {
        let base = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":6,"seed":3,
                "faults":[{"at_ms":300,"partition":[[0,1,2]]},{"at_ms":1500,"heal":true}]}"#,
        )
        .unwrap();
        for id in ["bully", "raft", "chang-roberts", "zookeeper"] {
            let s = scenario_for(&base, id).unwrap();
            let mut p = Playground::from_scenario(&s);
            p.seek_us(1_234_567);
            let row = figures(&p);
            let mut until = s.clone();
            until.until_us = Some(1_234_567);
            let cli = sim::run(&until);
            assert_eq!(row.messages_sent, cli.messages.sent, "{id}");
            assert_eq!(row.election_messages, cli.messages.election, "{id}");
            assert_eq!(row.leaderless_ms, cli.leaderless_ms, "{id}");
            assert_eq!(row.split_brain_ms, cli.split_brain_ms, "{id}");
            assert_eq!(row.first_leader_ms, cli.first_leader_ms, "{id}");
            assert_eq!(row.violations, cli.violations.len(), "{id}");
            assert_eq!(row.leaders, cli.leaders, "{id}");
            assert_eq!(row.recovery_ms, cli.recovery_ms, "{id}");
            assert_eq!(
                row.recovery_election_messages, cli.recovery_election_messages,
                "{id}"
            );
            assert_eq!(row.leader_removed_ms, cli.leader_removed_ms, "{id}");
            assert_eq!(row.failover_ms, cli.failover_ms, "{id}");
            assert_eq!(
                row.failover_election_messages, cli.failover_election_messages,
                "{id}"
            );
            assert_eq!(row.now_ms, 1234.567);
        }
    }

    /// The leaders of `p` now, and the nodes that are down.
    fn leaders_and_down(p: &Playground) -> (Vec<u32>, Vec<u32>) {
        let down = p
            .sim()
            .node_views()
            .iter()
            .filter(|v| !v.alive)
            .map(|v| v.id)
            .collect();
        (p.sim().leaders().to_vec(), down)
    }

    #[test]
    fn a_leader_crash_costs_what_the_cli_says_for_each_algorithm() {
        // What did the failover cost: the compare row's recovery columns
        // (and the page's summary) of a run paused at T are those of
        // `election run --algorithm <id> --until-ms T --json`, which is
        // `sim::run` of the scenario with `until_ms` T. The crash is of
        // each algorithm's own leader, found when the fault fires.
        let base = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":5,"seed":3,
                "faults":[{"at_ms":1000,"crash":"leader"}]}"#,
        )
        .unwrap();
        for id in ["bully", "raft"] {
            let s = scenario_for(&base, id).unwrap();
            let mut p = Playground::from_scenario(&s);
            p.seek_us(999_999);
            let (leaders, down) = leaders_and_down(&p);
            assert_eq!(
                (leaders.len(), down.len()),
                (1, 0),
                "{id}: one leader before"
            );
            for t in [1_000_000, 1_000_500, 3_000_000] {
                p.seek_us(t);
                let mut until = s.clone();
                until.until_us = Some(t);
                let cli = sim::run(&until);
                let row = figures(&p);
                let summary = p.run_summary();
                assert_eq!(
                    leaders_and_down(&p).1,
                    leaders,
                    "{id}: its own leader is down"
                );
                assert_eq!(row.recovery_ms, cli.recovery_ms, "{id} at {t}");
                assert_eq!(
                    row.recovery_election_messages, cli.recovery_election_messages,
                    "{id} at {t}"
                );
                assert_eq!(summary, cli, "{id} at {t}: the whole summary");
                if t == 3_000_000 {
                    // Settled again by then, at the cost `election run
                    // --algorithm <id> --nodes 5 --seed 3 --fault
                    // '{"at_ms":1000,"crash":"leader"}' --until-ms 3000
                    // --json` prints (and `election compare` shows as
                    // "failover" and "recovery ms").
                    let want = match id {
                        "bully" => (277.093, 19),
                        _ => (203.738, 7),
                    };
                    assert_eq!(
                        (row.recovery_ms, row.recovery_election_messages),
                        (Some(want.0), Some(want.1)),
                        "{id}"
                    );
                } else {
                    assert_eq!(cli.recovery_ms, None, "{id} at {t}: not yet settled");
                }
            }
        }
    }

    #[test]
    fn a_leader_crash_made_live_carries_into_compare_as_the_leader() {
        // Crashing "the leader" from the single view at 1000 ms writes
        // `"crash": "leader"` into the scenario (and so into the share
        // link); the same scenario under another algorithm crashes that
        // algorithm's leader at 1000 ms, whoever it is.
        let mut bully = Playground::from_scenario(
            &Scenario::from_json(r#"{"algorithm":"bully","nodes":5,"seed":3}"#).unwrap(),
        );
        bully.seek_us(1_000_000);
        let bully_leader = bully.sim().leaders().to_vec();
        bully.inject_fault(r#"{"crash": "leader"}"#).unwrap();
        assert_eq!(leaders_and_down(&bully).1, bully_leader);
        let written = bully.scenario().to_json();
        assert_eq!(
            written["faults"],
            serde_json::json!([{"at_ms": 1000, "crash": "leader"}])
        );
        let link = election_core::share::encode(bully.scenario());
        assert_eq!(
            election_core::share::decode(&link).unwrap().faults,
            bully.scenario().faults
        );
        let raft_s = scenario_for(bully.scenario(), "raft").unwrap();
        let mut before = Playground::from_scenario(&raft_s);
        before.seek_us(999_999);
        let raft_leader = before.sim().leaders().to_vec();
        // Not Bully's leader: a fixed "crash n4" would have hit a Raft
        // follower.
        assert_eq!((bully_leader, raft_leader.clone()), (vec![4], vec![2]));
        let mut raft = Playground::from_scenario(&raft_s);
        raft.seek_us(2_000_000);
        assert_eq!(leaders_and_down(&raft).1, raft_leader, "raft's own leader");
        let mut until = raft_s.clone();
        until.until_us = Some(2_000_000);
        assert_eq!(raft.run_summary(), sim::run(&until));
    }

    #[test]
    fn crash_each_leader_with_leaderless_runs_is_no_failover_for_them() {
        // The reported bug: Crash each leader at 20 ms, when only Bully
        // leads, showed Chang-Roberts' and Raft's first elections as their
        // failover. Their rows now have none; Bully's is its leader's.
        let base = Scenario::from_json(r#"{"algorithm":"bully","nodes":5,"seed":3}"#).unwrap();
        let mut rows = Vec::new();
        for id in ["bully", "chang-roberts", "raft"] {
            let mut p = Playground::from_scenario(&scenario_for(&base, id).unwrap());
            p.seek_us(20_000);
            p.inject_fault(r#"{"crash": "leader"}"#).unwrap();
            p.seek_us(3_000_000);
            rows.push(figures(&p));
        }
        assert_eq!(rows[0].leader_removed_ms, Some(20.0));
        assert!(rows[0].failover_election_messages.is_some());
        for row in &rows[1..] {
            assert_eq!(
                (
                    row.leader_removed_ms,
                    row.failover_ms,
                    row.failover_election_messages
                ),
                (None, None, None),
                "{}",
                row.algorithm
            );
            // Recovery (from the last fault of any kind) still has the
            // first election: what the table showed before.
            assert!(
                row.recovery_election_messages.is_some(),
                "{}",
                row.algorithm
            );
        }
        // The offer: the same crash as "leader-or-next" crashes each first
        // leader, and each row is `election run`'s for that one scenario.
        let waited = Scenario::from_json(
            r#"{"algorithm":"bully","nodes":5,"seed":3,"faults":[{"at_ms":20,"crash":"leader-or-next"}]}"#,
        )
        .unwrap();
        for (id, first) in [("chang-roberts", 41.79), ("raft", 167.701)] {
            let s = scenario_for(&waited, id).unwrap();
            let mut p = Playground::from_scenario(&s);
            p.seek_us(3_000_000);
            let row = figures(&p);
            assert_eq!(row.leader_removed_ms, Some(first), "{id}");
            let mut until = s.clone();
            until.until_us = Some(3_000_000);
            let cli = sim::run(&until);
            assert_eq!(
                (row.failover_ms, row.failover_election_messages),
                (cli.failover_ms, cli.failover_election_messages),
                "{id}"
            );
            assert!(row.failover_ms.is_some(), "{id}");
        }
    }

    #[test]
    fn theory_where_it_exists() {
        let s = Scenario::from_json(
            r#"{"algorithm":"chang-roberts","nodes":8,"ring":"descending","start":"all"}"#,
        )
        .unwrap();
        let mut p = Playground::from_scenario(&s);
        p.run_to_end();
        let row = figures(&p);
        assert_eq!(row.theory, Some(44.0));
        assert_eq!(row.election_messages, 44);
        let bully = Playground::from_scenario(&scenario_for(&s, "bully").unwrap());
        assert_eq!(figures(&bully).theory, None);
        assert_eq!(figures(&bully).background_per_s, None, "no rate at time 0");
    }
}
