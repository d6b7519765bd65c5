//! The scenario of one seed: the spec's cluster (or a small one drawn
//! from the seed) and a random fault schedule of 1 to 8 faults built only
//! from the spec's fault kinds (the epilogue that undoes them for a
//! liveness check is `epilogue.rs`). Deterministic per seed (its own PCG
//! stream; the scenario's `seed` is the seed too).

use super::spec::{CheckSpec, FaultKind};
use crate::ScenarioExt;
use crate::rng::{SimRng, Stream};
use crate::scenario::{Fault, FaultAction, NetworkSpec, RingOrder, Scenario, StartSet, Target};
use crate::time::ms;

/// The scenario checked for `seed`, without the liveness epilogue.
pub fn scenario_for(spec: &CheckSpec, seed: u64) -> Scenario {
    let mut r = SimRng::new(seed, Stream::Engine);
    let mut s = match &spec.base {
        Some(base) => base.clone(),
        None => drawn_cluster(&mut r, &spec.algorithm),
    };
    s.script.clone_from(&spec.script);
    s.seed = seed;
    s.faults = faults(&mut r, &spec.kinds, s.total_nodes());
    s
}

/// A small cluster: 3 to 8 nodes, any ring order, every node starting,
/// latency 1 to 2..20 ms, loss and duplication up to 5% on 40% of seeds.
fn drawn_cluster(r: &mut SimRng, algorithm: &str) -> Scenario {
    let nodes = r.between(3, 8) as u32;
    let ring = [
        RingOrder::Ascending,
        RingOrder::Descending,
        RingOrder::Random,
    ][r.below(3) as usize];
    let hi = r.between(2, 20);
    let percent = |r: &mut SimRng| {
        if r.chance(0.4) {
            r.between(1, 5) as f64 / 100.0
        } else {
            0.0
        }
    };
    let drop = percent(r);
    let duplicate = percent(r);
    let fifo = r.chance(0.7);
    Scenario {
        algorithm: algorithm.to_string(),
        nodes,
        ring,
        start: StartSet::All,
        network: NetworkSpec {
            latency_us: (ms(1), ms(hi)),
            drop,
            duplicate,
            fifo,
        },
        ..Scenario::default()
    }
}

/// 1 to 8 faults of the given kinds, a mean gap of 25 to 600 ms apart,
/// aimed at the `n` nodes (or, for a third of node faults, the leader).
fn faults(r: &mut SimRng, kinds: &[FaultKind], n: u32) -> Vec<Fault> {
    let n = u64::from(n.max(1));
    let count = r.between(1, 8);
    let mean_gap = r.between(25, 600);
    let mut t = 0;
    let mut out = Vec::new();
    for _ in 0..count {
        t += r.between(0, 2 * mean_gap);
        let mut kind = kinds[r.below(kinds.len() as u64) as usize];
        if n < 2
            && matches!(
                kind,
                FaultKind::Partition | FaultKind::Cut | FaultKind::Uncut
            )
        {
            // One node has no link to cut and no second side.
            kind = FaultKind::Heal;
        }
        let node = r.below(n) as u32;
        let target = if r.chance(0.3) {
            Target::Leader
        } else {
            Target::Node(node)
        };
        let other = |r: &mut SimRng| ((u64::from(node) + 1 + r.below((n - 1).max(1))) % n) as u32;
        let action = match kind {
            FaultKind::Crash => FaultAction::Crash(target),
            FaultKind::Recover => FaultAction::Recover(Target::Node(node)),
            FaultKind::Pause => FaultAction::Pause {
                node: target,
                for_us: ms(r.between(1, 500)),
            },
            FaultKind::Clock => FaultAction::Clock {
                node: Target::Node(node),
                offset_us: ms(r.between(0, 200)) as i64,
                drift: r.between(0, 10) as f64 / 100.0,
            },
            FaultKind::Partition => {
                let mut side: Vec<u32> = (0..n as u32).filter(|_| r.chance(0.5)).collect();
                if side.is_empty() {
                    side.push(node);
                } else if side.len() as u64 == n {
                    side.retain(|&id| id != node);
                }
                FaultAction::Partition(vec![side])
            }
            FaultKind::Heal => FaultAction::Heal,
            FaultKind::Slow => FaultAction::Slow {
                node: target,
                extra_us: ms(r.between(0, 30)),
            },
            FaultKind::Flaky => FaultAction::Flaky {
                node: target,
                period_us: ms(300),
                down_us: ms(100),
                for_us: Some(ms(900)),
            },
            FaultKind::Cut => FaultAction::Cut {
                from: node,
                to: other(r),
            },
            FaultKind::Uncut => FaultAction::Uncut {
                from: node,
                to: other(r),
            },
            FaultKind::Network => FaultAction::Network(NetworkSpec {
                latency_us: (ms(1), ms(r.between(2, 50))),
                drop: r.between(0, 20) as f64 / 100.0,
                duplicate: r.between(0, 5) as f64 / 100.0,
                fifo: r.chance(0.7),
            }),
        };
        out.push(Fault {
            at_us: ms(t),
            action,
        });
    }
    out
}
